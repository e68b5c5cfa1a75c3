//! The local layouts of the TPU-Kernel documentation's "Layouts": 128-byte aligned
//! (`EuAligned`), compact, and line-aligned, each on the documentation's (2, 3, 4, 5) fp32
//! tensor at NPU 0 and at a later NPU.

use crate::helpers::{S, assert_locations};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::sophgo::{
    Compact, EuAligned, ExampleChip, LineAligned, LocalAddress, LocalMemory,
};

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
