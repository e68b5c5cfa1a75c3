//! Views of whole blocks of blocked tensors keep the blocked layout type: a range of batches, or
//! of the blocked part of a dimension on block boundaries, read and written in place; ranges
//! that cut through a block are errors that name the block.

use std::ops::Range;
use tensor_layout::prelude::*;
use tensor_layout::{LayoutError, axes::AxisNames, layouts::ChunkList, mappings::RowMajorIndices};

type Crouton = htp::R4CroutonLayout;
type Layout4<C, N> = ChunkedMemoryLayout<4, C, N>;

/// A tensor whose element at row-major position `k` holds `k + 1` (padding holds 0).
fn numbered<L: Layout<Index = [usize; 4]> + Default>(dims: [usize; 4]) -> Tensor<u32, L> {
    let mut k = 0;
    Tensor::from_fn(dims, |_| {
        k += 1;
        k
    })
}

/// The ranges of `0..extent` that start and end on multiples of `block` (or at the end).
fn aligned_ranges(extent: usize, block: usize) -> Vec<Range<usize>> {
    let mut marks: Vec<usize> = (0..extent).step_by(block).collect();
    marks.push(extent);
    let mut ranges = Vec::new();
    for (i, &start) in marks.iter().enumerate() {
        for &end in &marks[i..] {
            ranges.push(start..end);
        }
    }
    ranges
}

/// Where `view`'s storage starts in `t`'s, in elements.
fn start_in<T, L: Layout>(t: &Tensor<T, L>, view: &[T]) -> usize
where
    T: tensor_layout::tensors::Element,
{
    (view.as_ptr() as usize - t.as_raw().as_ptr() as usize) / size_of::<T>()
}

/// Every aligned range of every dimension: the view's elements are the tensor's elements in
/// place (the same slots), its padding is the tensor's padding, its gaps are the tensor's slots
/// outside the range, and its chunks are whole chunks of the tensor.
fn check_every_view<C: ChunkList, N: AxisNames>(dims: [usize; 4]) {
    let t = numbered::<Layout4<C, N>>(dims);
    let blocks = Layout4::<C, N>::BLOCKS;
    for dim in 0..4 {
        for range in aligned_ranges(dims[dim], blocks[dim]) {
            let view = t.slice_blocks(dim, range.clone()).unwrap();
            let mut view_dims = dims;
            view_dims[dim] = range.len();
            assert_eq!(view.dims(), view_dims, "{dim} {range:?}");
            let shift = |mut index: [usize; 4]| {
                index[dim] += range.start;
                index
            };
            for index in RowMajorIndices::new(view_dims) {
                assert!(std::ptr::eq(&view[index], &t[shift(index)]), "{index:?}");
            }
            let (m, start) = (view.mapping(), start_in(&t, view.as_raw()));
            for slot in 0..m.storage_len() {
                let parent = t.mapping().padded_index_of(start + slot);
                match m.padded_index_of(slot) {
                    Some(index) => {
                        assert_eq!(parent, Some(shift(index)), "slot {slot}");
                        assert_eq!(m.is_padding(slot), t.mapping().is_padding(start + slot));
                    }
                    None => {
                        let outside = parent.expect("a gap is a slot of the tensor");
                        assert!(!range.contains(&outside[dim]), "slot {slot}: {outside:?}");
                    }
                }
            }
            for chunk in view.chunk_views() {
                let whole = t.chunk_view(t.chunk_of(shift(chunk.origin())).0).unwrap();
                assert!(std::ptr::eq(chunk.as_raw(), whole.as_raw()));
                assert_eq!(chunk.dims(), whole.dims());
            }
        }
    }
}

macro_rules! check_layout {
    ($layout:ty, $dims:expr) => {{
        fn run<C: ChunkList, N: AxisNames>(_: Layout4<C, N>, dims: [usize; 4]) {
            check_every_view::<C, N>(dims)
        }
        run(<$layout>::default(), $dims);
    }};
}

#[test]
fn every_aligned_view_reads_the_tensor_in_place() {
    check_layout!(Crouton, [2, 17, 10, 40]);
    check_layout!(htp::R4Crouton2x2Layout, [1, 9, 12, 33]);
    check_layout!(htp::R4ConvWeightLayout, [2, 3, 40, 33]);
    check_layout!(onednn::nChw16c, [2, 40, 3, 2]);
    check_layout!(megengine::CHWN4, [5, 6, 2, 3]);
}

#[test]
fn ranges_that_cut_a_block_name_the_block() {
    let t = Tensor::<u8, Crouton>::zeros([2, 20, 16, 64]);
    for (dim, range, block) in [(1, 4..8, 8), (1, 8..12, 8), (2, 3..16, 8), (3, 0..40, 32)] {
        let err = t.slice_blocks(dim, range.clone()).unwrap_err();
        assert_eq!(
            err,
            LayoutError::SliceCutsBlock {
                dim,
                start: range.start,
                end: range.end,
                block,
                extent: t.dims()[dim]
            }
        );
    }
    assert_eq!(
        t.slice_blocks(1, 4..20).unwrap_err().to_string(),
        "slice 4..20 of dimension 1 cuts through a block of 8: a view that keeps the blocked \
         layout starts at a multiple of 8 and ends at one or at the dimension's end (20); \
         `slice` gives a strided view where one exists, or relayout first"
    );
    // The dimension's end is a boundary even inside a block; batches have blocks of 1.
    assert_eq!(t.slice_blocks(1, 16..20).unwrap().dims(), [2, 4, 16, 64]);
    assert_eq!(t.slice_blocks(0, 1..2).unwrap().dims(), [1, 20, 16, 64]);
    assert!(matches!(
        t.slice_blocks(1, 16..24),
        Err(LayoutError::SliceOutOfRange { extent: 20, .. })
    ));
    assert!(matches!(
        t.slice_blocks(4, 0..1),
        Err(LayoutError::SliceOutOfRange { dim: 4, .. })
    ));
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = t.slice_blocks(1, 16..8);
    assert!(matches!(
        backwards,
        Err(LayoutError::SliceOutOfRange { .. })
    ));
}

/// A function that accepts crouton views only: block views pass, as their type says.
fn crouton_sum(view: &TensorView<'_, u32, Crouton>) -> u32 {
    view.iter().sum()
}

#[test]
fn views_of_views_keep_the_layout_type() {
    let t = numbered::<Crouton>([3, 20, 16, 70]);
    let batch = t.slice_blocks(0, 1..3).unwrap();
    let rows = batch.slice_blocks(1, 8..20).unwrap();
    let window = rows.slice_blocks(3, 64..70).unwrap();
    assert_eq!(window.dims(), [2, 12, 16, 6]);
    assert_eq!(window.padded_dims(), [2, 16, 16, 32]);
    assert_eq!(window.chunk_count(), 2 * 2 * 2);
    let expected: u32 = RowMajorIndices::new([2, 12, 16, 6])
        .map(|[n, h, w, c]| t[[n + 1, h + 8, w, c + 64]])
        .sum();
    assert_eq!(crouton_sum(&window), expected);
    assert_eq!(window.to_row_major().iter().sum::<u32>(), expected);
    // A relayout reads the view like any tensor.
    let flat = window.relayout::<htp::R4FlatMemoryLayout>();
    assert_eq!(flat.to_row_major(), window.to_row_major());
    // The view has gaps: unique, not exhaustive, its span within its storage.
    let m = window.mapping();
    assert!(m.is_unique() && !m.is_exhaustive());
    assert!(m.required_span_size() <= m.storage_len());
    assert!(m.storage_len() > window.chunk_count() * Crouton::CHUNK_VOLUME);
}

#[test]
fn writable_views_write_their_blocks_and_nothing_else() {
    let dims = [2, 20, 10, 40];
    let mut t = Tensor::<u32, Crouton>::zeros(dims);
    t.fill_padding(5);
    let before = t.as_raw().to_vec();
    let inside = |[_, h, _, c]: [usize; 4]| (8..20).contains(&h) && (32..40).contains(&c);
    {
        let mut rows = t.slice_blocks_mut(1, 8..20).unwrap();
        let mut view = rows.slice_blocks_mut(3, 32..40).unwrap();
        view.for_each_in_memory_order_mut(|_, v| *v = 1);
        view.fill_padding(9);
    }
    let m = *t.mapping();
    for (slot, (&now, &was)) in t.as_raw().iter().zip(&before).enumerate() {
        let index = m.padded_index_of(slot).unwrap();
        let expected = match (inside(index), m.is_padding(slot)) {
            (true, false) => 1,
            // The view's padding: rows 20-23 and channels 40-63 of its chunks.
            (_, true) if (8..24).contains(&index[1]) && index[3] >= 32 => 9,
            _ => was,
        };
        assert_eq!(now, expected, "slot {slot}, {index:?}");
    }
}

#[test]
fn relayout_into_a_view_fills_its_padding_and_leaves_the_rest() {
    let mut t = Tensor::<u16, onednn::nChw16c>::zeros([2, 40, 3, 2]);
    t.fill_padding(7);
    let before = t.to_row_major();
    let patch = Tensor::<u16, onednn::nchw>::from_fn([2, 8, 3, 2], |[n, c, h, w]| {
        (1000 + n * 100 + c * 10 + h * 2 + w) as u16
    });
    // Scribble on the padding: the relayout into the view writes the pad value back.
    let m = *t.mapping();
    for slot in (0..m.storage_len()).filter(|&slot| m.is_padding(slot)) {
        t.as_raw_mut()[slot] = 0xEEEE;
    }
    let mut tail = t.slice_blocks_mut(1, 32..40).unwrap();
    patch.relayout_into(&mut tail).unwrap();
    for index in RowMajorIndices::new([2, 40, 3, 2]) {
        let [n, c, h, w] = index;
        let want = if c >= 32 {
            patch[[n, c - 32, h, w]]
        } else {
            before[((n * 40 + c) * 3 + h) * 2 + w]
        };
        assert_eq!(t[index], want, "{index:?}");
    }
    let padding: Vec<u16> = (0..m.storage_len())
        .filter(|&slot| m.is_padding(slot))
        .map(|slot| t.as_raw()[slot])
        .collect();
    assert_eq!(padding.len(), 2 * 8 * 3 * 2);
    assert!(padding.iter().all(|&v| v == 7));
    // A slice of the last channel blocks of both images, padding and all: its padding
    // written, the first blocks between them untouched.
    let before = t.as_raw().to_vec();
    let mut tail = t.slice_blocks_mut(1, 16..40).unwrap();
    tail.fill_padding(1);
    for (slot, (&now, &was)) in t.as_raw().iter().zip(&before).enumerate() {
        let want = if m.is_padding(slot) { 1 } else { was };
        assert_eq!(now, want, "slot {slot}");
    }
}

#[test]
fn layouts_without_blocks_keep_their_type_only_when_dense() {
    let t = numbered::<onednn::nchw>([3, 4, 2, 2]);
    let images = t.slice_blocks(0, 1..3).unwrap();
    assert_eq!(images.as_raw().len(), 2 * 16);
    assert_eq!(images[[0, 0, 0, 0]], t[[1, 0, 0, 0]]);
    assert!(images.mapping().is_exhaustive());
    let channels = images.slice_blocks(0, 1..2).unwrap();
    let one_image_channels = channels.slice_blocks(1, 1..3).unwrap();
    assert_eq!(
        one_image_channels.as_raw(),
        &t.as_raw()[(2 * 4 + 1) * 4..(2 * 4 + 3) * 4]
    );
    let err = t.slice_blocks(1, 1..3).unwrap_err();
    assert_eq!(
        err.to_string(),
        "slice 1..3 of dimension 1 would leave gaps between the view's elements, and \
         ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0> has no blocks and promises dense \
         storage: `slice` gives this view as a strided one"
    );
    assert!(t.slice(1, 1..3).is_ok());
}

#[test]
fn empty_ranges_give_empty_views() {
    let t = Tensor::<u8, Crouton>::zeros([1, 20, 8, 32]);
    for range in [8..8, 20..20, 0..0] {
        let view = t.slice_blocks(1, range).unwrap();
        assert!(view.is_empty());
        assert_eq!((view.chunk_count(), view.storage_len()), (0, 0));
        assert_eq!(view.to_row_major(), Vec::<u8>::new());
    }
}

#[test]
fn a_window_copies_into_the_same_window_of_another_tensor() {
    // Same layout on both sides, gaps on both sides, different strides (other widths).
    let src = numbered::<Crouton>([2, 24, 16, 64]);
    let mut dst = Tensor::<u32, Crouton>::zeros([3, 24, 24, 64]);
    let (src_rows, dst_before) = (src.slice_blocks(1, 8..24).unwrap(), dst.to_row_major());
    let window = src_rows.slice_blocks(3, 32..64).unwrap();
    {
        let mut images = dst.slice_blocks_mut(0, 1..3).unwrap();
        let mut rows = images.slice_blocks_mut(1, 8..24).unwrap();
        let mut columns = rows.slice_blocks_mut(2, 8..24).unwrap();
        let mut target = columns.slice_blocks_mut(3, 32..64).unwrap();
        window.relayout_into(&mut target).unwrap();
    }
    for index in RowMajorIndices::new([3, 24, 24, 64]) {
        let [n, h, w, c] = index;
        let inside = n >= 1 && h >= 8 && (8..24).contains(&w) && c >= 32;
        let want = if inside {
            src[[n - 1, h, w - 8, c]]
        } else {
            dst_before[((n * 24 + h) * 24 + w) * 64 + c]
        };
        assert_eq!(dst[index], want, "{index:?}");
    }
}
