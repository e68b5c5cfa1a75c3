//! Strides (the TPU-Kernel documentation's "Strides in Local Memory" and "Strides in System
//! Memory"): free N, C, H, W strides of a local tensor, where the C stride steps from one
//! channel slot of an NPU to the next, and the continuous layout of system memory.

use crate::helpers::{S, X, assert_locations};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{ExampleChip, FreeStrides, LocalAddress, LocalMemory};

#[test]
fn free_strides_2x5x3x4_fp32_w2_h16_c56_n120() {
    let memory = LocalMemory::<ExampleChip>::new();
    let layout = FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 16, 2]);
    let t = memory.place::<f32, _>(layout, [2, 5, 3, 4]).unwrap();
    let g = t.local_geometry();
    assert_eq!(g.strides(), [120, 56, 16, 2]);
    assert_eq!(g.channels_per_npu(), 2);
    assert_locations(&t, 0, 0, [120, 56, 16, 2], 1);
    // Channel 4 is the second channel of NPU 0: its first element is 56 blocks in.
    assert_eq!(
        t.location([0, 4, 0, 0]).unwrap(),
        LocalAddress {
            npu: 0,
            offset: 56 * 4
        }
    );
    // The last element of NPU 0: (1, 4, 2, 3) at block 120 + 56 + 32 + 6 = 214.
    assert_eq!(t.npu_span(0), Some(0..215 * 4));
    // NPUs 1..3 hold one channel: up to (1, c, 2, 3) at block 120 + 32 + 6.
    for npu in 1..X {
        assert_eq!(t.npu_span(npu), Some(0..159 * 4));
    }
    assert_eq!(t.reserved_bytes(), 2 * 120 * 4);
}

#[test]
fn free_strides_2x3x1x10_at_npu_1() {
    // W stride 2, N stride 120; H = 1 and one channel per NPU make the H and C strides
    // meaningless: any value gives the same places.
    let memory = LocalMemory::<ExampleChip>::new();
    let a = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip>::new(S, 4, [120, 0, 0, 2]),
            [2, 3, 1, 10],
        )
        .unwrap();
    let b = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip>::new(S, 4, [120, 777, 55, 2]),
            [2, 3, 1, 10],
        )
        .unwrap();
    assert_eq!(a.local_geometry().channels_per_npu(), 1); // ceil((1 + 3) / 4)
    for index in RowMajorIndices::new([2, 3, 1, 10]) {
        let [n, c, _, w] = index;
        let expected = LocalAddress {
            npu: 1 + c,
            offset: (n * 120 + w * 2) * 4,
        };
        assert_eq!(a.location(index).unwrap(), expected);
        assert_eq!(b.location(index).unwrap(), expected);
    }
    assert_eq!(a.npu_span(0), None);
}

#[test]
fn continuous_layout_in_system_memory_has_strides_chw_hw_w_1() {
    // In system memory the C stride steps from channel c to c + 1 (there are no NPUs), and the
    // continuous layout packs the tensor: W stride 1, H stride W, C stride H * W, N stride
    // C * H * W.
    let (n, c, h, w) = (2, 5, 3, 4);
    let m = Mapping::<sophgo::Continuous>::new([n, c, h, w]).unwrap();
    assert_eq!(m.strides(), Some([c * h * w, h * w, w, 1]));
    assert_eq!(m.storage_len(), n * c * h * w);
    for [ni, ci, hi, wi] in RowMajorIndices::new([n, c, h, w]) {
        assert_eq!(
            m.offset([ni, ci, hi, wi]),
            ni * c * h * w + ci * h * w + hi * w + wi
        );
    }
}
