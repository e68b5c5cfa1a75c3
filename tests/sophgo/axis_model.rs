//! Local layouts as any `Layout`: their axes (the NPU axis outermost, a storage mode's lane
//! innermost) give every element's offset, and generic code over `L: Layout` (views,
//! `index_of`) runs on them wherever the tensor starts.

use crate::helpers::{S, X};
use tensor_layout::mappings::for_each_row_major_index;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1688, Compact, EuAligned, ExampleChip, FourN, FreeStrides, LineAligned, LocalMemory, Matrix,
    TwoIC, TwoN,
};
use tensor_layout::{layouts::Axis, mappings::RowMajorIndices};

/// Counts through every digit combination of the mapping's axes (each axis a digit of its
/// extent, the innermost fastest), checking: offsets strictly increase in counting order; each
/// combination whose index lies in the dims (after subtracting the origin) is `offset(index)`;
/// every element is reached exactly once.
fn assert_axes_agree<L: Layout>(m: &Mapping<L>) {
    let axes: Vec<Axis> = m.axes().to_vec();
    let extents: Vec<usize> = axes.iter().map(|a| a.extent).collect();
    let origin = m.origin();
    let dims = m.dims();
    let rank = dims.as_ref().len();
    let mut reached = 0usize;
    let mut previous: Option<usize> = None;
    for_each_row_major_index(&extents, |_, digits| {
        let offset = m.base_offset()
            + axes
                .iter()
                .zip(digits)
                .map(|(a, d)| a.stride * d)
                .sum::<usize>();
        assert!(offset < m.storage_len());
        if let Some(p) = previous {
            assert!(offset > p, "{}: offsets do not increase", m.layout());
        }
        previous = Some(offset);
        let mut virtual_index = vec![0usize; rank];
        for (a, d) in axes.iter().zip(digits) {
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
    });
    assert_eq!(reached, m.len(), "{}: elements reached", m.layout());
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

fn sum_of_elements<L: Layout<Index = [usize; 4]>>(t: &TensorView<'_, f32, L>) -> f32 {
    t.to_row_major().iter().sum()
}

/// Every element's offset maps back to its index.
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
    // A tensor starting at a later NPU has an origin: `index_of` and the memory-order walk
    // count from it.
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
