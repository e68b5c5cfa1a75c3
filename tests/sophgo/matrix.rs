//! The matrix layout (the TPU-Kernel documentation's "Matrix Layout"): an N x M matrix seen as
//! the aligned 4-D tensor (N, ceil(M / W), 1, W), worked through for the documentation's 2 x 40
//! fp32 matrix and each width it shows.

use crate::helpers::{S, X, documented_location};
use std::collections::{BTreeSet, HashMap};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::sophgo::{ExampleChip, LocalMemory, Matrix};

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
