//! Store and load between system memory and local memory: what a store writes is the tensor's
//! and nothing else, loads into other layouts give it back, and a store of other dims writes
//! nothing.

use crate::helpers::{S, value};
use std::collections::BTreeSet;
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    Compact, EuAligned, ExampleChip, FreeStrides, LineAligned, LocalLayout, LocalMemory, Matrix,
};

/// Stores `src` at `layout` into a memory full of 0xEE, checks the bytes the tensor does not own
/// are untouched, loads it back into two other layouts and compares.
fn round_trip<L>(layout: L, dims: [usize; 4])
where
    L: LocalLayout<Chip = ExampleChip, Index = [usize; 4], Names = names::NCHW>,
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
    // A tensor starting at a later NPU has an origin (`Layout::origin`): the generic walkers
    // and relayout count from it.
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
