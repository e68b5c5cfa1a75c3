//! Worked examples of the TPU-Kernel documentation (Sophgo TPU local memory), each with the documentation's numbers, plus the
//! placement errors, the axis model and load/store round trips.
//!
//! The toy chip of the documentation's pictures is `ExampleChip` (X = 4 NPUs, S = 1024 bytes, 128-byte EU);
//! "blocks" in the documentation are 4 bytes, one fp32 element.

use std::collections::{BTreeSet, HashMap};
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1684, BM1684X, BM1688, ChipSpec, Compact, EuAligned, ExampleChip, FourN, Fp32x2, FreeStrides,
    Int8x4, Int16x2, LineAligned, LocalAddress, LocalLayout, LocalMemory, LocalTensor, Matrix,
    TwoIC, TwoN,
};
use tensor_layout::{Axis, RowMajorIndices};

const X: usize = 4;
const S: usize = 1024;

/// The TPU-Kernel documentation's formula for a 4-D tensor in local memory, written out independently of the
/// library: NPU and byte offset of `(n, c, h, w)` for a tensor at NPU `q`, offset `r`, with
/// `[N, C, H, W]` strides in elements of `elem` bytes, `pack` batch elements per element.
fn documented_location(
    q: usize,
    r: usize,
    strides: [usize; 4],
    elem: usize,
    pack: usize,
    [n, c, h, w]: [usize; 4],
) -> LocalAddress {
    let npu = (q + c) % X;
    let slot = (q + c) / X;
    let packed = (n / pack) * strides[0] + slot * strides[1] + h * strides[2] + w * strides[3];
    LocalAddress {
        npu,
        offset: r + (packed * pack + n % pack) * elem,
    }
}

fn value(index: [usize; 4]) -> f32 {
    let [n, c, h, w] = index;
    (n * 1000 + c * 100 + h * 10 + w) as f32 + 0.5
}

/// Checks every element's location against the documentation's formula.
fn assert_locations<T, L: LocalLayout<Index = [usize; 4]>>(
    t: &LocalTensor<T, L>,
    q: usize,
    r: usize,
    strides: [usize; 4],
    pack: usize,
) {
    let elem = t.layout().element_bytes();
    for index in RowMajorIndices::new(t.dims()) {
        assert_eq!(
            t.location(index).unwrap(),
            documented_location(q, r, strides, elem, pack, index),
            "{} at {index:?}",
            t.layout()
        );
        let a = documented_location(q, r, strides, elem, pack, index);
        assert_eq!(t.address_of(index).unwrap(), a.npu * S + a.offset);
    }
}

// ---------------------------------------------------------------------------------------------
// Address of a tensor in local memory

#[test]
fn addresses_a_b_c_d_of_the_documentation() {
    // A = Q * S + R with X = 4, S = 1024; each block of the documentation's figure is 4 bytes.
    let cases = [
        (340, 0, 340, 85),
        (1472, 1, 448, 112),
        (2300, 2, 252, 63),
        (3088, 3, 16, 4),
    ];
    for (address, npu, offset, block) in cases {
        let at = ExampleChip::split(address).unwrap();
        assert_eq!(at, LocalAddress { npu, offset }, "address {address}");
        assert_eq!(at.offset / 4, block);
        assert_eq!(ExampleChip::join(npu, offset).unwrap(), address);
    }
    // Valid addresses are [0, X * S - 1].
    assert_eq!(
        ExampleChip::split(X * S - 1).unwrap(),
        LocalAddress {
            npu: 3,
            offset: 1023
        }
    );
    let err = ExampleChip::split(X * S).unwrap_err();
    assert_eq!(
        err,
        LayoutError::AddressOutOfRange {
            address: 4096,
            memory_bytes: 4096
        }
    );
    assert_eq!(
        err.to_string(),
        "local-memory address 4096 is out of range: the memory has 4096 bytes, so addresses lie below 4096"
    );
    assert!(ExampleChip::join(4, 0).is_err());
    assert!(ExampleChip::join(0, 1024).is_err());
}

#[test]
fn chip_presets() {
    assert_eq!(
        (BM1684::NPUS, BM1684::NPU_BYTES, BM1684::EU_BYTES),
        (64, 512 * 1024, 128)
    );
    assert_eq!(
        (BM1684X::NPUS, BM1684X::NPU_BYTES, BM1684X::EU_BYTES),
        (64, 256 * 1024, 64)
    );
    assert_eq!(
        (BM1688::NPUS, BM1688::NPU_BYTES, BM1688::EU_BYTES),
        (32, 128 * 1024, 16)
    );
    assert_eq!(
        (
            ExampleChip::NPUS,
            ExampleChip::NPU_BYTES,
            ExampleChip::EU_BYTES
        ),
        (4, 1024, 128)
    );
    // The EU width sets the aligned C stride: 9 fp32 rounded up to 32, 16 and 4 elements.
    fn c_stride<C: ChipSpec>() -> usize {
        let layout = EuAligned::<C>::new(0, 4);
        Mapping::with_layout(layout, [1, 3, 3, 3])
            .unwrap()
            .geometry()
            .strides()[1]
    }
    assert_eq!(c_stride::<BM1684>(), 32);
    assert_eq!(c_stride::<BM1684X>(), 16);
    assert_eq!(c_stride::<BM1688>(), 12);
    // 64 NPUs: channel 63 of a tensor at NPU 1 wraps to NPU 0, slot 1.
    let memory = LocalMemory::<BM1684>::new();
    let t = memory
        .place::<f32, _>(EuAligned::<BM1684>::new(512 * 1024, 4), [1, 64, 3, 3])
        .unwrap();
    assert_eq!(
        t.location([0, 63, 0, 0]).unwrap(),
        LocalAddress {
            npu: 0,
            offset: 32 * 4
        }
    );
    assert_eq!(BM1684::channels_per_npu(1, 64), 2);
}

// ---------------------------------------------------------------------------------------------
// Scatter features to different NPUs

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

// ---------------------------------------------------------------------------------------------
// Strides in local memory

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

// ---------------------------------------------------------------------------------------------
// Layouts: 128-byte aligned (EU-aligned), compact, line-aligned

#[test]
fn aligned_2x3x4x5_fp32_at_npu_0_and_npu_2() {
    let memory = LocalMemory::<ExampleChip>::new();
    // At NPU 0: C stride ceil(20 / 32) * 32 = 32 (12 empty blocks after each feature), one
    // channel per NPU, so N stride 32.
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.strides(), [32, 32, 5, 1]);
    assert_eq!(g.channels_per_npu(), 1);
    assert_eq!(32 - 4 * 5, 12);
    assert_locations(&t, 0, 0, [32, 32, 5, 1], 1);
    assert_eq!(t.npu_span(3), None);

    // At NPU 2: still C stride 32, two channels per NPU, N stride 64.
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(2 * S, 4), [2, 3, 4, 5])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.strides(), [64, 32, 5, 1]);
    assert_eq!(g.channels_per_npu(), 2);
    assert_locations(&t, 2, 0, [64, 32, 5, 1], 1);
    // Channel 2 is NPU 0's second channel; NPU 1 holds nothing.
    assert_eq!(
        t.location([0, 2, 0, 0]).unwrap(),
        LocalAddress {
            npu: 0,
            offset: 32 * 4
        }
    );
    assert_eq!(t.npu_span(0), Some(32 * 4..(64 + 32 + 20) * 4));
    assert_eq!(t.npu_span(1), None);
    assert_eq!(t.npu_span(2), Some(0..(64 + 20) * 4));
}

#[test]
fn compact_2x3x4x5_fp32_at_npu_0_and_npu_2() {
    let memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5])
        .unwrap();
    assert_eq!(t.local_geometry().strides(), [20, 20, 5, 1]);
    assert_locations(&t, 0, 0, [20, 20, 5, 1], 1);
    let t = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(2 * S, 4), [2, 3, 4, 5])
        .unwrap();
    assert_eq!(t.local_geometry().strides(), [40, 20, 5, 1]);
    assert_locations(&t, 2, 0, [40, 20, 5, 1], 1);
    // A compact address need only be a multiple of 4 bytes.
    let t = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(2 * S + 12, 4), [2, 3, 4, 5])
        .unwrap();
    assert_locations(&t, 2, 12, [40, 20, 5, 1], 1);
}

#[test]
fn line_aligned_rounds_each_row_to_an_eu() {
    let memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(LineAligned::<ExampleChip>::new(S, 4), [2, 3, 3, 5])
        .unwrap();
    // H stride ceil(5 / 32) * 32 = 32, C stride 3 * 32 = 96, one channel per NPU.
    assert_eq!(t.local_geometry().strides(), [96, 96, 32, 1]);
    assert_locations(&t, 1, 0, [96, 96, 32, 1], 1);
    // Every row starts on a 128-byte boundary.
    for index in RowMajorIndices::new([2, 3, 3, 1]) {
        assert_eq!(t.location(index).unwrap().offset % 128, 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Matrix layout: the 2 x 40 fp32 matrix

/// Blocks (4-byte units) each NPU uses for the 2 x 40 matrix with width `w`, from the library's
/// element locations.
fn matrix_blocks(w: usize) -> Vec<BTreeSet<usize>> {
    let memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(Matrix::<ExampleChip>::new(0, 4, w), [2, 40])
        .unwrap();
    let mut blocks = vec![BTreeSet::new(); X];
    for [n, m] in RowMajorIndices::new([2, 40]) {
        let at = t.location([n, m]).unwrap();
        assert_eq!(at.offset % 4, 0);
        assert!(
            blocks[at.npu].insert(at.offset / 4),
            "two elements share a block"
        );
    }
    blocks
}

fn ranges(parts: &[std::ops::Range<usize>]) -> BTreeSet<usize> {
    parts.iter().cloned().flatten().collect()
}

#[test]
fn matrix_2x40_fp32_for_each_documented_width() {
    // (W, C = ceil(40 / W), channels per NPU, C stride, N stride, blocks per NPU)
    let none = BTreeSet::new();
    type Case = (usize, usize, usize, usize, usize, [BTreeSet<usize>; 4]);
    let cases: [Case; 6] = [
        // W = 40: all in NPU 0, a row takes ceil(40 / 32) * 32 = 64 blocks.
        (
            40,
            1,
            1,
            64,
            64,
            [
                ranges(&[0..40, 64..104]),
                none.clone(),
                none.clone(),
                none.clone(),
            ],
        ),
        // W = 20: split evenly over NPUs 0 and 1, a row takes 32 blocks in each.
        (
            20,
            2,
            1,
            32,
            32,
            [
                ranges(&[0..20, 32..52]),
                ranges(&[0..20, 32..52]),
                none.clone(),
                none.clone(),
            ],
        ),
        // W = 10: over all four NPUs, still 32 blocks a row.
        (
            10,
            4,
            1,
            32,
            32,
            [
                ranges(&[0..10, 32..42]),
                ranges(&[0..10, 32..42]),
                ranges(&[0..10, 32..42]),
                ranges(&[0..10, 32..42]),
            ],
        ),
        // W = 8: C = 5 > X, so NPU 0 holds two channels and a row takes 64 blocks.
        (
            8,
            5,
            2,
            32,
            64,
            [
                ranges(&[0..8, 32..40, 64..72, 96..104]),
                ranges(&[0..8, 64..72]),
                ranges(&[0..8, 64..72]),
                ranges(&[0..8, 64..72]),
            ],
        ),
        // W = 15: NPUs 0 and 1 hold 15 columns a row, NPU 2 the last 40 - 2 * 15 = 10.
        (
            15,
            3,
            1,
            32,
            32,
            [
                ranges(&[0..15, 32..47]),
                ranges(&[0..15, 32..47]),
                ranges(&[0..10, 32..42]),
                none.clone(),
            ],
        ),
        // W = 6: 7 channels, the last with 40 - 6 * 6 = 4 columns; two channel slots per NPU.
        (
            6,
            7,
            2,
            32,
            64,
            [
                ranges(&[0..6, 32..38, 64..70, 96..102]),
                ranges(&[0..6, 32..38, 64..70, 96..102]),
                ranges(&[0..6, 32..36, 64..70, 96..100]),
                ranges(&[0..6, 64..70]),
            ],
        ),
    ];
    let memory = LocalMemory::<ExampleChip>::new();
    let mut reserved = HashMap::new();
    for (w, channels, cpn, c_stride, n_stride, blocks) in cases {
        let t = memory
            .place::<f32, _>(Matrix::<ExampleChip>::new(0, 4, w), [2, 40])
            .unwrap();
        let g = t.local_geometry();
        assert_eq!(g.dims(), [2, channels, 1, w], "W = {w}");
        assert_eq!(g.channels_per_npu(), cpn, "W = {w}");
        assert_eq!(g.strides(), [n_stride, c_stride, w, 1], "W = {w}");
        assert_eq!(matrix_blocks(w), blocks, "W = {w}");
        // Column m is channel m / W, position m % W.
        for [n, m] in RowMajorIndices::new([2, 40]) {
            let c = m / w;
            assert_eq!(
                t.location([n, m]).unwrap(),
                documented_location(0, 0, [n_stride, c_stride, w, 1], 4, 1, [n, c, 0, m % w])
            );
        }
        reserved.insert(w, t.reserved_bytes());
    }
    // "More memory is used to store the matrix for W = 6 than W = 15."
    assert_eq!(reserved[&15], 2 * 32 * 4);
    assert_eq!(reserved[&6], 2 * 64 * 4);
    assert!(reserved[&6] > reserved[&15]);
    // Decreasing W from 40 to 20 relieves the storage pressure.
    assert!(reserved[&20] < reserved[&40]);
}

#[test]
fn matrix_at_a_later_npu_wraps_its_channels() {
    // W = 10 from NPU 3: channels 0..3 on NPUs 3, 0, 1, 2; channel c's slot is (3 + c) / 4.
    let memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(Matrix::<ExampleChip>::new(3 * S + 128, 4, 10), [2, 40])
        .unwrap();
    assert_eq!(t.local_geometry().channels_per_npu(), 2);
    assert_eq!(t.mapping().origin(), [0, 30]);
    for [n, m] in RowMajorIndices::new([2, 40]) {
        let c = m / 10;
        assert_eq!(
            t.location([n, m]).unwrap(),
            documented_location(3, 128, [64, 32, 10, 1], 4, 1, [n, c, 0, m % 10])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Storage modes

fn int_value(index: [usize; 4]) -> i64 {
    let [n, c, h, w] = index;
    (n * 31 + c * 7 + h * 3 + w) as i64 % 120 + 1
}

#[test]
fn four_n_6x5x4x5_int8_is_2x5x4x5_int8x4() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let layout = EuAligned::<ExampleChip, FourN>::new(0, 1);
    let t = memory.place::<i8, _>(layout, [6, 5, 4, 5]).unwrap();
    let g = t.local_geometry();
    // The new shape against int8x4 is (M = 2, C = 5, H = 4, W = 5); strides count int8x4.
    assert_eq!(g.packed_dims(), [2, 5, 4, 5]);
    assert_eq!(g.strides(), [64, 32, 5, 1]);
    assert_eq!(t.mapping().padded_dims(), [8, 5, 4, 5]); // 4 - 6 % 4 = 2 dummies
    assert_locations(&t, 0, 0, [64, 32, 5, 1], 4);
    // (4m .. 4m + 3, c, h, w) are consecutive bytes.
    for index in RowMajorIndices::new([2, 5, 4, 5]) {
        let [m, c, h, w] = index;
        let first = t.address_of([4 * m, c, h, w]).unwrap();
        for k in 1..4 {
            if 4 * m + k < 6 {
                assert_eq!(t.address_of([4 * m + k, c, h, w]).unwrap(), first + k);
            }
        }
    }

    let src = Tensor::<i8, onednn::nchw>::from_fn([6, 5, 4, 5], |i| int_value(i) as i8);
    memory.store(&src, &t).unwrap();
    let packed = t.packed::<Int8x4>().unwrap();
    assert_eq!(packed.dims(), [2, 5, 4, 5]);
    assert_eq!(packed.local_geometry().strides(), [64, 32, 5, 1]);
    let view = memory.view(&packed);
    for index in RowMajorIndices::new([2, 5, 4, 5]) {
        let [m, c, h, w] = index;
        let lanes = view[index];
        for (k, &lane) in lanes.iter().enumerate() {
            let n = 4 * m + k;
            let expected = if n < 6 {
                int_value([n, c, h, w]) as i8
            } else {
                0 // a dummy element
            };
            assert_eq!(lane, expected, "int8x4 {index:?} lane {k}");
        }
    }
    // The int8x4 at (1, 0, 0, 0) holds (4, 0, 0, 0), (5, 0, 0, 0) and two dummies.
    assert_eq!(
        view[[1, 0, 0, 0]],
        [
            int_value([4, 0, 0, 0]) as i8,
            int_value([5, 0, 0, 0]) as i8,
            0,
            0
        ]
    );
    // Loads give the int8 elements back.
    let back: Tensor<i8, onednn::nhwc> = memory.load_new(&t).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
}

#[test]
fn two_n_3x5x4x5_int16_is_2x5x4x5_int16x2() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let t = memory
        .place::<i16, _>(EuAligned::<ExampleChip, TwoN>::new(0, 2), [3, 5, 4, 5])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.packed_dims(), [2, 5, 4, 5]);
    assert_eq!(g.strides(), [64, 32, 5, 1]); // 20 int16x2 rounded up to 32; 2 channels per NPU
    assert_eq!(t.mapping().padded_dims(), [4, 5, 4, 5]); // one dummy
    assert_locations(&t, 0, 0, [64, 32, 5, 1], 2);

    let src = Tensor::<i16, onednn::nchw>::from_fn([3, 5, 4, 5], |i| -(int_value(i) as i16));
    memory.store(&src, &t).unwrap();
    let view = memory.view(&t.packed::<Int16x2>().unwrap()).to_row_major();
    // The int16x2 at (1, 0, 0, 0) holds (2, 0, 0, 0) and a dummy.
    assert_eq!(view[100], [-(int_value([2, 0, 0, 0]) as i16), 0]);
    for (i, pair) in view.iter().enumerate() {
        let (m, rest) = (i / 100, i % 100);
        let index = [2 * m, rest / 20, rest / 5 % 4, rest % 5];
        assert_eq!(pair[0], -(int_value(index) as i16));
        let second = [2 * m + 1, index[1], index[2], index[3]];
        assert_eq!(
            pair[1],
            if m == 1 {
                0
            } else {
                -(int_value(second) as i16)
            }
        );
    }
    let mut back = Tensor::<i16, onednn::nchw>::zeros([3, 5, 4, 5]);
    memory.load(&t, &mut back).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
}

#[test]
fn two_ic_fp32_weight_with_odd_input_channels() {
    // [I, O, H, W] = [3, 4, 3, 3]: J = ceil(3 / 2) = 2 fp32x2 (64-bit) elements along I.
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip, TwoIC>::new(0, 4), [3, 4, 3, 3])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.packed_dims(), [2, 4, 3, 3]);
    // A 128-byte EU holds 16 fp32x2: C stride ceil(9 / 16) * 16 = 16; one channel per NPU.
    assert_eq!(g.strides(), [16, 16, 3, 1]);
    assert_eq!(t.mapping().padded_dims(), [4, 4, 3, 3]);
    assert_locations(&t, 0, 0, [16, 16, 3, 1], 2);

    let src = Tensor::<f32, sophgo::ContinuousWeights>::from_fn([3, 4, 3, 3], value);
    memory.store(&src, &t).unwrap();
    let packed = t.packed::<Fp32x2>().unwrap();
    let view = memory.view(&packed);
    for [j, o, h, w] in RowMajorIndices::new([2, 4, 3, 3]) {
        let pair = view[[j, o, h, w]];
        assert_eq!(pair[0], value([2 * j, o, h, w]));
        let second = if j == 1 {
            0.0 // the dummy input channel 3
        } else {
            value([2 * j + 1, o, h, w])
        };
        assert_eq!(pair[1], second);
    }
    let back: Tensor<f32, sophgo::ContinuousWeights> = memory.load_new(&t).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
    // By axis name, the weights load into oneDNN's OIHW as well: [O, I, H, W] = [4, 3, 3, 3].
    let oihw: Tensor<f32, onednn::oihw> = memory.load_new(&t).unwrap();
    assert_eq!(oihw.dims(), [4, 3, 3, 3]);
    assert_eq!(oihw[[3, 2, 1, 0]], src[[2, 3, 1, 0]]);
}

// ---------------------------------------------------------------------------------------------
// Placement errors

#[test]
fn every_placement_error_names_its_numbers() {
    let memory = LocalMemory::<ExampleChip>::new();

    // Address out of range.
    let err = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(4096, 4), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        err,
        LayoutError::AddressOutOfRange {
            address: 4096,
            memory_bytes: 4096
        }
    );

    // Misaligned: the aligned layouts want the EU width, compact 4 bytes, free strides the
    // element size, a storage mode its packed element.
    let misaligned = |err: LayoutError| match err {
        LayoutError::Misaligned { address, alignment } => (address, alignment),
        other => panic!("expected Misaligned, got {other:?}"),
    };
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(1028, 4), [2, 3, 4, 5])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "local-memory address 1028 is not a multiple of 128 bytes, as the layout demands"
    );
    assert_eq!(misaligned(e), (1028, 128));
    let e = memory
        .place::<f32, _>(LineAligned::<ExampleChip>::new(64, 4), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(misaligned(e), (64, 128));
    let e = memory
        .place::<f32, _>(Matrix::<ExampleChip>::new(4, 4, 8), [2, 40])
        .unwrap_err();
    assert_eq!(misaligned(e), (4, 128));
    let e = memory
        .place::<u8, _>(Compact::<ExampleChip>::new(2, 1), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(misaligned(e), (2, 4));
    let e = memory
        .place::<u16, _>(
            FreeStrides::<ExampleChip>::new(3, 2, [1, 1, 1, 1]),
            [1, 1, 1, 1],
        )
        .unwrap_err();
    assert_eq!(misaligned(e), (3, 2));
    let e = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip, TwoIC>::new(4, 4, [1, 1, 1, 1]),
            [1, 1, 1, 1],
        )
        .unwrap_err();
    assert_eq!(misaligned(e), (4, 8)); // an fp32x2 is 8 bytes
    assert!(
        memory
            .place::<u16, _>(
                FreeStrides::<ExampleChip>::new(2, 2, [1, 1, 1, 1]),
                [1, 1, 1, 1]
            )
            .is_ok()
    );

    // Does not fit: (2, 3, 30, 30) fp32 aligned needs (928 + 900) * 4 bytes on NPU 0.
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 30, 30])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: (928 + 900) * 4,
            available: 1024
        }
    );
    assert_eq!(
        e.to_string(),
        "the tensor needs 7312 bytes on NPU 0 from its start offset, but only 1024 bytes are left there"
    );
    // The start offset counts: 10 fp32 from offset 1000 need 40 bytes, 24 are left.
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(1000, 4), [1, 1, 1, 10])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 40,
            available: 24
        }
    );
    // The NPU named is the one that overflows, not the start NPU: 6 channels from NPU 3 give
    // NPU 0 the third slot (channel 5), 300 + 100 - 100 = 300 fp32 in.
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(3 * S, 4), [1, 6, 1, 100])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 300 * 4,
            available: 1024
        }
    );
    // The same tensor fits from NPU 0 (two slots).
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [1, 6, 1, 100])
            .is_ok()
    );
    // Dummies count: 4N (5, 1, 1, 255) int8 compact needs 2 packs of 255 int8x4 = 2040 bytes.
    let e = memory
        .place::<i8, _>(Compact::<ExampleChip, FourN>::new(0, 1), [5, 1, 1, 255])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 2040,
            available: 1024
        }
    );
    // Exactly full is fine: 256 fp32 on one NPU.
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [1, 1, 1, 256])
            .is_ok()
    );
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(4, 4), [1, 1, 1, 256])
            .is_err()
    );

    // Element size against the storage mode, and against the element type.
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip, FourN>::new(0, 4), [4, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::ElementSize {
            what: "storage mode 4N (int8 or uint8)".into(),
            expected: 1,
            found: 4
        }
    );
    assert_eq!(
        e.to_string(),
        "storage mode 4N (int8 or uint8) holds 1-byte elements, found 4-byte elements"
    );
    let e = memory
        .place::<i8, _>(EuAligned::<ExampleChip, TwoN>::new(0, 1), [4, 1, 1, 1])
        .unwrap_err();
    assert!(matches!(
        e,
        LayoutError::ElementSize {
            expected: 2,
            found: 1,
            ..
        }
    ));
    let e = memory
        .place::<f64, _>(EuAligned::<ExampleChip, TwoIC>::new(0, 8), [4, 1, 1, 1])
        .unwrap_err();
    assert!(matches!(
        e,
        LayoutError::ElementSize {
            expected: 4,
            found: 8,
            ..
        }
    ));
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(0, 2), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Compact<Chip<4, 1024, 128>> at address 0, 2-byte elements holds 2-byte elements, found 4-byte elements"
    );
    let t = memory
        .place::<i8, _>(Compact::<ExampleChip, FourN>::new(0, 1), [4, 1, 1, 1])
        .unwrap();
    assert!(matches!(
        t.packed::<i16>().unwrap_err(),
        LayoutError::ElementSize {
            expected: 4,
            found: 2,
            ..
        }
    ));

    // Free strides that let two elements share a slot; matrix widths outside 1..=M.
    let e = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 3, 1]),
            [2, 5, 3, 4],
        )
        .unwrap_err();
    assert!(matches!(e, LayoutError::InvalidLayout { .. }), "{e}");
    assert!(e.to_string().contains("share a slot"), "{e}");
    for w in [0, 41] {
        let e = memory
            .place::<f32, _>(Matrix::<ExampleChip>::new(0, 4, w), [2, 40])
            .unwrap_err();
        assert!(e.to_string().contains("width must lie in 1..=40"), "{e}");
    }
    // The checks are the mapping's: no Mapping exists for a tensor that cannot be placed.
    assert!(Mapping::with_layout(EuAligned::<ExampleChip>::new(1028, 4), [1, 1, 1, 1]).is_err());
}

// ---------------------------------------------------------------------------------------------
// The axis model: offset() against the axes, for every element

/// Walks every digit combination of the mapping's axes (an odometer written here, not the
/// library's), checking: offsets strictly increase in counting order; each combination whose
/// index lies in the dims (after subtracting the origin) is `offset(index)`; every element is
/// reached exactly once.
fn assert_axes_agree<L: Layout>(m: &Mapping<L>) {
    let axes: Vec<Axis> = m.axes().to_vec();
    let origin = m.origin();
    let dims = m.dims();
    let rank = dims.as_ref().len();
    let mut digits = vec![0usize; axes.len()];
    let mut reached = 0usize;
    let mut previous: Option<usize> = None;
    loop {
        let offset = m.base_offset()
            + axes
                .iter()
                .zip(&digits)
                .map(|(a, d)| a.stride * d)
                .sum::<usize>();
        assert!(offset < m.storage_len());
        if let Some(p) = previous {
            assert!(offset > p, "{}: offsets do not increase", m.layout());
        }
        previous = Some(offset);
        let mut virtual_index = vec![0usize; rank];
        for (a, d) in axes.iter().zip(&digits) {
            virtual_index[a.dim] += a.step * d;
        }
        let logical: Option<Vec<usize>> = (0..rank)
            .map(|d| {
                virtual_index[d]
                    .checked_sub(origin.as_ref()[d])
                    .filter(|&x| x < dims.as_ref()[d])
            })
            .collect();
        if let Some(logical) = logical {
            let mut index = dims;
            index.as_mut().copy_from_slice(&logical);
            assert_eq!(m.offset(index), offset, "{} at {logical:?}", m.layout());
            reached += 1;
        }
        // Next combination, innermost axis fastest.
        let mut level = axes.len();
        loop {
            if level == 0 {
                assert_eq!(reached, m.len(), "{}: elements reached", m.layout());
                return;
            }
            level -= 1;
            digits[level] += 1;
            if digits[level] < axes[level].extent {
                break;
            }
            digits[level] = 0;
        }
    }
}

#[test]
fn offsets_agree_with_the_axes_for_every_element() {
    for q in 0..X {
        for dims in [[2, 3, 4, 5], [2, 6, 1, 3], [1, 5, 3, 4], [3, 4, 2, 1]] {
            let a = q * S;
            assert_axes_agree(
                &Mapping::with_layout(Compact::<ExampleChip>::new(a + 8, 4), dims).unwrap(),
            );
            assert_axes_agree(
                &Mapping::with_layout(EuAligned::<ExampleChip>::new(a, 4), dims).unwrap(),
            );
            assert_axes_agree(
                &Mapping::with_layout(EuAligned::<ExampleChip>::new(a, 1), dims).unwrap(),
            );
            let mut n6 = dims;
            n6[0] = 6;
            assert_axes_agree(
                &Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(a, 1), n6).unwrap(),
            );
            assert_axes_agree(
                &Mapping::with_layout(Compact::<ExampleChip, TwoN>::new(a + 4, 2), n6).unwrap(),
            );
            let mut i3 = dims;
            i3[0] = 3;
            assert_axes_agree(
                &Mapping::with_layout(EuAligned::<ExampleChip, TwoIC>::new(a, 4), i3).unwrap(),
            );
        }
        assert_axes_agree(
            &Mapping::with_layout(
                FreeStrides::<ExampleChip>::new(q * S, 4, [120, 56, 16, 2]),
                [2, 5, 3, 4],
            )
            .unwrap(),
        );
        // Line-aligned: 32 fp32 per row, so small dims.
        for dims in [[2, 3, 2, 5], [1, 6, 2, 3], [2, 2, 2, 1]] {
            assert_axes_agree(
                &Mapping::with_layout(LineAligned::<ExampleChip>::new(q * S, 4), dims).unwrap(),
            );
        }
        // Free strides with the channel slot outside N.
        assert_axes_agree(
            &Mapping::with_layout(
                FreeStrides::<ExampleChip>::new(q * S, 4, [12, 40, 4, 1]),
                [2, 7, 3, 4],
            )
            .unwrap(),
        );
        for w in [40, 20, 10, 8, 15, 6, 4] {
            assert_axes_agree(
                &Mapping::with_layout(Matrix::<ExampleChip>::new(q * S, 4, w), [2, 40]).unwrap(),
            );
        }
    }
    // A real chip.
    assert_axes_agree(
        &Mapping::with_layout(EuAligned::<BM1688>::new(31 * 128 * 1024, 4), [2, 40, 3, 3]).unwrap(),
    );
}

#[test]
fn the_npu_axis_is_outermost_and_the_lane_innermost() {
    let m =
        Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(2 * S, 1), [6, 5, 4, 5]).unwrap();
    let axes = m.axes();
    assert_eq!(
        axes[0],
        Axis {
            dim: 1,
            extent: 4,
            step: 1,
            stride: 1024
        }
    );
    assert_eq!(
        *axes.last().unwrap(),
        Axis {
            dim: 0,
            extent: 4,
            step: 1,
            stride: 1
        }
    );
    assert!(axes.windows(2).all(|p| p[0].stride >= p[1].stride));
    assert_eq!(m.origin(), [0, 2, 0, 0]);
    assert_eq!(m.base_offset(), 0);
    assert_eq!(m.storage_len(), 4096);
    assert!(!m.layout().gaps_are_padding());
    // The matrix's column coordinate: NPU axis step W, slot axis step X * W, position step 1.
    let m = Mapping::with_layout(Matrix::<ExampleChip>::new(S + 256, 4, 8), [2, 40]).unwrap();
    let column_axes: Vec<(usize, usize)> = m
        .axes()
        .iter()
        .filter(|a| a.dim == 1)
        .map(|a| (a.step, a.extent))
        .collect();
    assert_eq!(column_axes, [(8, 4), (32, 2), (1, 8)]);
    assert_eq!(m.origin(), [0, 8]);
    assert_eq!(m.base_offset(), 64);
    // Axes of extent 1 never count; they go outside, so that the innermost axis moves.
    let free = Mapping::with_layout(
        FreeStrides::<ExampleChip>::new(S, 4, [120, 0, 0, 2]),
        [2, 3, 1, 10],
    )
    .unwrap();
    let moving: Vec<(usize, usize)> = free
        .axes()
        .iter()
        .filter(|a| a.extent > 1)
        .map(|a| (a.dim, a.stride))
        .collect();
    assert_eq!(moving, [(1, 256), (0, 120), (3, 2)]);
    assert_eq!(free.axes().last().unwrap().dim, 3);
}

// ---------------------------------------------------------------------------------------------
// Load and store

/// Stores `src` at `layout` into a memory full of 0xEE, checks the bytes the tensor does not own
/// are untouched, loads it back into two other layouts and compares.
fn round_trip<L>(layout: L, dims: [usize; 4])
where
    L: LocalLayout<Chip = ExampleChip, Index = [usize; 4]>,
{
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let t = memory.place::<f32, _>(layout, dims).unwrap();
    let src = Tensor::<f32, onednn::nChw4c>::from_fn(dims, value);
    memory.store(&src, &t).unwrap();
    let mut owned = BTreeSet::new();
    for index in RowMajorIndices::new(dims) {
        let a = t.address_of(index).unwrap();
        assert_eq!(
            f32::from_ne_bytes(memory.bytes()[a..a + 4].try_into().unwrap()),
            value(index)
        );
        owned.extend(a..a + 4);
    }
    for (a, &byte) in memory.bytes().iter().enumerate() {
        if !owned.contains(&a) {
            assert_eq!(byte, 0xEE, "{}: byte {a} is not the tensor's", t.layout());
        }
    }
    let nchw: Tensor<f32, onednn::nchw> = memory.load_new(&t).unwrap();
    assert_eq!(nchw.to_row_major(), src.to_row_major());
    let mut nhwc = Tensor::<f32, onednn::nhwc>::zeros(dims);
    memory.load(&t, &mut nhwc).unwrap();
    assert_eq!(nhwc.to_row_major(), src.to_row_major());
    assert_eq!(memory.view(&t).to_row_major(), src.to_row_major());
}

#[test]
fn round_trips_at_npu_0() {
    round_trip(Compact::<ExampleChip>::new(16, 4), [2, 3, 4, 5]);
    round_trip(EuAligned::<ExampleChip>::new(128, 4), [2, 6, 4, 5]);
    round_trip(LineAligned::<ExampleChip>::new(0, 4), [2, 5, 2, 5]);
    round_trip(
        FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 16, 2]),
        [2, 5, 3, 4],
    );
}

#[test]
fn round_trips_at_later_npus() {
    // Waits on origin support in the generic walkers and relayout (Layout::origin).
    round_trip(EuAligned::<ExampleChip>::new(2 * S, 4), [2, 3, 4, 5]);
    round_trip(Compact::<ExampleChip>::new(3 * S + 8, 4), [2, 6, 4, 5]);
    round_trip(
        FreeStrides::<ExampleChip>::new(S, 4, [120, 0, 0, 2]),
        [2, 3, 1, 10],
    );
    round_trip(LineAligned::<ExampleChip>::new(S + 128, 4), [1, 7, 2, 3]);
}

#[test]
fn matrix_round_trips() {
    for q in [0, 1, 3] {
        for w in [40, 20, 10, 8, 15, 6] {
            let mut memory = LocalMemory::<ExampleChip>::new();
            memory.bytes_mut().fill(0xEE);
            let t = memory
                .place::<f32, _>(Matrix::<ExampleChip>::new(q * S, 4, w), [2, 40])
                .unwrap();
            let src = Tensor::<f32, chunked_layout![2; 1,0, 0,0]>::from_fn([2, 40], |[n, m]| {
                (n * 100 + m) as f32
            });
            memory.store(&src, &t).unwrap();
            let changed = memory.bytes().iter().filter(|&&b| b != 0xEE).count();
            assert!(changed <= 80 * 4);
            let back: Tensor<f32, chunked_layout![2; 0,0, 1,0]> = memory.load_new(&t).unwrap();
            assert_eq!(back.to_row_major(), src.to_row_major(), "Q = {q}, W = {w}");
        }
    }
}

#[test]
fn store_rejects_other_dims_and_writes_nothing() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5])
        .unwrap();
    let src = Tensor::<f32, onednn::nchw>::from_fn([2, 3, 4, 4], value);
    assert!(matches!(
        memory.store(&src, &t),
        Err(LayoutError::ShapeMismatch { .. })
    ));
    assert!(memory.bytes().iter().all(|&b| b == 0));
}

// ---------------------------------------------------------------------------------------------
// Generic code over `L: Layout` works on local layouts

fn sum_of_elements<L: Layout<Index = [usize; 4]>>(t: &TensorView<'_, f32, L>) -> f32 {
    t.to_row_major().iter().sum()
}

fn every_offset_maps_back<L: Layout>(m: &Mapping<L>) {
    for index in RowMajorIndices::new(m.dims()) {
        assert_eq!(m.index_of(m.offset(index)), Some(index), "{}", m.layout());
    }
}

#[test]
fn generic_code_runs_on_local_layouts() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 6, 4, 5])
        .unwrap();
    let src = Tensor::<f32, onednn::nchw>::from_fn([2, 6, 4, 5], |[n, c, ..]| (n * 6 + c) as f32);
    memory.store(&src, &t).unwrap();
    let expected: f32 = src.iter().sum();
    assert_eq!(sum_of_elements(&memory.view(&t)), expected);
    every_offset_maps_back(t.mapping());
    every_offset_maps_back(
        &Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap(),
    );
    every_offset_maps_back(
        &Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 15), [2, 40]).unwrap(),
    );
    // A gap between elements is no element of this tensor.
    assert_eq!(t.mapping().index_of(25), None);
}

#[test]
fn generic_code_runs_on_local_layouts_at_later_npus() {
    // Waits on origin support in `index_of` and the memory-order walk.
    let mut memory = LocalMemory::<ExampleChip>::new();
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(3 * S, 4), [2, 6, 4, 5])
        .unwrap();
    let src = Tensor::<f32, onednn::nchw>::from_fn([2, 6, 4, 5], |[n, c, ..]| (n * 6 + c) as f32);
    memory.store(&src, &t).unwrap();
    assert_eq!(sum_of_elements(&memory.view(&t)), src.iter().sum::<f32>());
    every_offset_maps_back(t.mapping());
    every_offset_maps_back(
        &Mapping::with_layout(EuAligned::<ExampleChip, TwoN>::new(S, 2), [3, 5, 4, 5]).unwrap(),
    );
    every_offset_maps_back(
        &Mapping::with_layout(Matrix::<ExampleChip>::new(2 * S, 4, 8), [2, 40]).unwrap(),
    );
    // Offset 0 (NPU 0, slot 0) holds no channel of a tensor starting at NPU 3.
    assert_eq!(t.mapping().index_of(0), None);
}

#[test]
fn absurd_dims_are_errors_not_panics() {
    let memory = LocalMemory::<ExampleChip>::new();
    for q in 0..X {
        for dims in [
            [1, usize::MAX, 1, 1],
            [usize::MAX, 1, 1, 1],
            [1, 1, usize::MAX, 2],
            [2, usize::MAX / 2, 3, 1],
            [usize::MAX, usize::MAX, usize::MAX, usize::MAX],
        ] {
            assert!(
                memory
                    .place::<u8, _>(Compact::<ExampleChip>::new(q * S, 1), dims)
                    .is_err()
            );
            assert!(
                memory
                    .place::<i8, _>(EuAligned::<ExampleChip, FourN>::new(q * S, 1), dims)
                    .is_err()
            );
            assert!(
                memory
                    .place::<u8, _>(
                        FreeStrides::<ExampleChip>::new(q * S, 1, [usize::MAX, 1, 1, 1]),
                        dims
                    )
                    .is_err()
            );
        }
        assert!(
            memory
                .place::<u8, _>(Matrix::<ExampleChip>::new(q * S, 1, 1), [2, usize::MAX])
                .is_err()
        );
    }
    // Empty tensors are fine anywhere the address is valid.
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(3 * S, 4), [0, 5, 4, 5])
        .unwrap();
    assert_eq!(t.npu_span(3), None);
    assert_eq!(t.address_of([0, 0, 0, 0]).ok(), None);
}
