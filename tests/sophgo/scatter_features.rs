//! Features scattered over the NPUs (the TPU-Kernel documentation's "Scatter Features to
//! Different NPUs"): channel c of a tensor starting at NPU Q lives on NPU (Q + c) mod X, and each
//! NPU gives the tensor ceil((Q + C) / X) channel slots.

use crate::helpers::{S, X};
use tensor_layout::sophgo::{
    Compact, ExampleChip, LocalAddress, LocalLayout, LocalMemory, LocalTensor,
};

/// Which NPU holds feature `(n, c)` of an (N, C, 1, 1) fp32 tensor at NPU `q`, for every n.
fn feature_npus(q: usize, channels: usize) -> (LocalTensor<f32, Compact<ExampleChip>>, Vec<usize>) {
    let memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(q * S, 4), [2, channels, 1, 1])
        .unwrap();
    let mut npus = Vec::new();
    for c in 0..channels {
        let first = t.location([0, c, 0, 0]).unwrap().npu;
        // Features (*, c) are all in the same NPU.
        assert_eq!(t.location([1, c, 0, 0]).unwrap().npu, first);
        npus.push(first);
    }
    (t, npus)
}

/// Which NPUs use channel slot ("block row") `slot`.
fn npus_using_slot<L: LocalLayout>(t: &LocalTensor<f32, L>, slot: usize) -> Vec<usize> {
    let g = t.local_geometry();
    (0..X)
        .filter(|&p| g.npu_slots(p).is_some_and(|s| s.contains(&slot)))
        .collect()
}

#[test]
fn channels_per_npu_for_c_x_minus_1_and_x_plus_2() {
    // ceil((Q + C) / X) for the documentation's four cases.
    assert_eq!(ExampleChip::channels_per_npu(0, X - 1), 1);
    assert_eq!(ExampleChip::channels_per_npu(1, X - 1), 1);
    assert_eq!(ExampleChip::channels_per_npu(0, X + 2), 2);
    assert_eq!(ExampleChip::channels_per_npu(X - 1, X + 2), 3);

    // C = X - 1 at NPU 0: nothing on NPU X - 1; feature (1, 0) is on NPU 0.
    let (t, npus) = feature_npus(0, X - 1);
    assert_eq!(npus, [0, 1, 2]);
    assert_eq!(t.npu_span(X - 1), None);
    assert_eq!(t.local_geometry().channels_per_npu(), 1);

    // C = X - 1 at NPU 1: nothing on NPU 0.
    let (t, npus) = feature_npus(1, X - 1);
    assert_eq!(npus, [1, 2, 3]);
    assert_eq!(t.npu_span(0), None);
    assert_eq!(t.local_geometry().channels_per_npu(), 1);

    // C = X + 2 at NPU 0: (*, X) and (*, X + 1) on NPUs 0 and 1; X - 2 empty blocks in the
    // second block row.
    let (t, npus) = feature_npus(0, X + 2);
    assert_eq!(npus, [0, 1, 2, 3, 0, 1]);
    assert_eq!(npus_using_slot(&t, 0), [0, 1, 2, 3]);
    assert_eq!(npus_using_slot(&t, 1), [0, 1]);
    assert_eq!(X - npus_using_slot(&t, 1).len(), X - 2);
    // (*, c0) and (*, c1) share an NPU exactly when c0 mod X == c1 mod X.
    for c0 in 0..X + 2 {
        for c1 in 0..X + 2 {
            assert_eq!(npus[c0] == npus[c1], c0 % X == c1 % X);
        }
    }

    // C = X + 2 at NPU X - 1: three block rows, X - 1 empty blocks in the first and the third.
    let (t, npus) = feature_npus(X - 1, X + 2);
    assert_eq!(npus, [3, 0, 1, 2, 3, 0]);
    assert_eq!(t.local_geometry().channels_per_npu(), 3);
    assert_eq!(npus_using_slot(&t, 0), [3]);
    assert_eq!(npus_using_slot(&t, 1), [0, 1, 2, 3]);
    assert_eq!(npus_using_slot(&t, 2), [0]);
    // Compact (1x1 features, N stride 3): feature (1, 5) is NPU 0, slot 2 of batch 1.
    assert_eq!(
        t.location([1, 5, 0, 0]).unwrap(),
        LocalAddress {
            npu: 0,
            offset: (3 + 2) * 4
        }
    );
}
