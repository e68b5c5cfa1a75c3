//! Chunk access on chunked tensors: chunk numbers, each element's chunk and offset in it, one
//! chunk's slots, chunks read by coordinates inside the chunk, and the layout's chunk constants,
//! on HTP's, oneDNN's and MegEngine's blocked layouts with odd dims.

use tensor_layout::prelude::*;
use tensor_layout::{LayoutError, axes::AxisNames, layouts::ChunkList, mappings::RowMajorIndices};

type Layout4<C, N> = ChunkedMemoryLayout<4, C, N>;

/// A tensor whose element at row-major position `k` holds `k + 1` (padding holds 0).
fn numbered<C: ChunkList, N: AxisNames>(dims: [usize; 4]) -> Tensor<u32, Layout4<C, N>> {
    let mut k = 0;
    Tensor::from_fn(dims, |_| {
        k += 1;
        k
    })
}

/// Every element through its chunk: `chunk_of`, `chunk`, `chunk_view` and the chunk
/// coordinates agree with the tensor's own indexing, and chunk `n` is slots `n * V .. (n + 1) * V`.
fn check_elements<C: ChunkList, N: AxisNames>(dims: [usize; 4]) {
    let t = numbered::<C, N>(dims);
    let volume = Layout4::<C, N>::CHUNK_VOLUME;
    let shape = Layout4::<C, N>::CHUNK_SHAPE;
    assert_eq!(t.chunk_count() * volume, t.storage_len(), "{dims:?}");
    for index in RowMajorIndices::new(dims) {
        let (n, offset) = t.chunk_of(index);
        assert!(n < t.chunk_count() && offset < volume, "{index:?}");
        assert_eq!(t.mapping().offset(index), n * volume + offset, "{index:?}");
        assert_eq!(t.chunk(n)[offset], t[index], "{index:?}");
        let chunk = t.chunk_view(n).unwrap();
        let origin = chunk.origin();
        let local: [usize; 4] = std::array::from_fn(|d| index[d] - origin[d]);
        assert!((0..4).all(|d| origin[d].is_multiple_of(shape[d]) && local[d] < shape[d]));
        assert_eq!(chunk.tensor_index(local), index);
        assert_eq!(chunk[local], t[index], "{index:?}");
        assert_eq!(Layout4::<C, N>::offset_in_chunk(local), offset);
    }
}

/// Every chunk whole: its box maps one to one onto its slots, the coordinates inside the dims
/// are exactly the elements, the others exactly the padding slots.
fn check_chunks<C: ChunkList, N: AxisNames>(dims: [usize; 4]) {
    let t = numbered::<C, N>(dims);
    let (volume, shape) = (Layout4::<C, N>::CHUNK_VOLUME, Layout4::<C, N>::CHUNK_SHAPE);
    let views: Vec<_> = t.chunk_views().collect();
    let chunks: Vec<_> = t.chunks().collect();
    assert_eq!(views.len(), chunks.len());
    for (n, (view, chunk)) in views.iter().zip(&chunks).enumerate() {
        assert_eq!(view.number(), n);
        assert_eq!(view.origin(), chunk.index, "chunk {n}");
        assert!(std::ptr::eq(view.as_raw(), chunk.data), "chunk {n}");
        assert!(std::ptr::eq(view.as_raw(), t.chunk(n)));
        assert_eq!(view.padded_dims(), shape);
        let start = t.mapping().chunk_start(n).unwrap().0;
        let mut seen = vec![false; volume];
        for local in RowMajorIndices::new(shape) {
            let slot = Layout4::<C, N>::offset_in_chunk(local);
            assert!(
                !std::mem::replace(&mut seen[slot], true),
                "slot {slot} twice"
            );
            let inside = (0..4).all(|d| local[d] < view.dims()[d]);
            let index = view.tensor_index(local);
            assert_eq!(inside, (0..4).all(|d| index[d] < dims[d]));
            assert_eq!(view.get(local).is_some(), inside);
            assert_eq!(t.mapping().is_padding(start + slot), !inside);
            if inside {
                assert_eq!(view.get(local), Some(&t[index]));
            } else {
                assert_eq!(view.as_raw()[slot], 0, "padding");
            }
        }
    }
}

fn check<C: ChunkList, N: AxisNames>(dims: [usize; 4]) {
    check_elements::<C, N>(dims);
    check_chunks::<C, N>(dims);
}

macro_rules! check_layout {
    ($layout:ty, $dims:expr) => {{
        fn run<C: ChunkList, N: AxisNames>(_: Layout4<C, N>, dims: [usize; 4]) {
            check::<C, N>(dims)
        }
        run(<$layout>::default(), $dims);
    }};
}

#[test]
fn every_element_and_every_chunk_of_htp_layouts() {
    for dims in [[1, 3, 5, 30], [2, 9, 20, 50], [1, 17, 3, 33]] {
        check_layout!(htp::R4CroutonLayout, dims);
        check_layout!(htp::R4Crouton4x1Layout, dims);
        check_layout!(htp::R4Crouton2x2Layout, dims);
        check_layout!(htp::R4Crouton2Layout, dims);
        check_layout!(htp::R4Depth32MemoryLayout, dims);
        check_layout!(htp::R4FlatMemoryLayout, dims);
    }
    check_layout!(htp::R4ConvWeightLayout, [3, 2, 40, 35]);
}

#[test]
fn every_element_and_every_chunk_of_onednn_and_megengine_layouts() {
    for dims in [[2, 20, 3, 3], [1, 5, 1, 2], [3, 33, 2, 1]] {
        check_layout!(onednn::nChw16c, dims);
        check_layout!(onednn::NChw16n16c, dims);
        check_layout!(onednn::OIhw4i16o4i, dims);
        check_layout!(megengine::NCHW4, dims);
        check_layout!(megengine::CHWN4, dims);
    }
}

#[test]
fn the_crouton_of_the_concepts_guide() {
    // docs/concepts.md: element (1, 8, 17, 40) of 2x9x20x50 croutons lies at slot 47144.
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([2, 9, 20, 50]);
    assert_eq!(t.chunk_count(), 24);
    assert_eq!(t.chunk_of([1, 8, 17, 40]), (23, 40));
    assert_eq!(t.mapping().offset([1, 8, 17, 40]), 23 * 2048 + 40);
    let chunk = t.chunk_view(23).unwrap();
    assert_eq!(chunk.origin(), [1, 8, 16, 32]);
    // The last row block has one row, the last column block four columns, the last channel
    // block 18 channels.
    assert_eq!(chunk.dims(), [1, 1, 4, 18]);
}

#[test]
fn nchw16c_chunks_are_sixteen_channels_of_one_pixel() {
    // One chunk per (n, channel block, h, w): N * ceil(C / 16) * H * W of them.
    let t = Tensor::<u8, onednn::nChw16c>::zeros([2, 20, 3, 5]);
    assert_eq!(onednn::nChw16c::CHUNK_SHAPE, [1, 16, 1, 1]);
    assert_eq!(t.chunk_count(), 2 * 2 * 3 * 5);
    let chunk = t.chunk_view(t.chunk_of([1, 17, 2, 4]).0).unwrap();
    assert_eq!(
        (chunk.origin(), chunk.dims()),
        ([1, 16, 2, 4], [1, 4, 1, 1])
    );
}

#[test]
fn chunk_constants_are_compile_time_constants() {
    type Crouton = htp::R4CroutonLayout;
    const VOLUME: usize = Crouton::CHUNK_VOLUME;
    const SHAPE: [usize; 4] = Crouton::CHUNK_SHAPE;
    const LAST: usize = Crouton::offset_in_chunk([0, 7, 7, 31]);
    static_assertions::const_assert_eq!(VOLUME, 2048);
    static_assertions::const_assert_eq!(SHAPE[1] * SHAPE[2] * SHAPE[3], VOLUME);
    static_assertions::const_assert_eq!(LAST, VOLUME - 1);
    // A table of every in-chunk offset, built by the compiler.
    const ORDER: [usize; 64] = {
        let mut order = [0; 64];
        let mut i = 0;
        while i < 64 {
            order[i] = htp::R4Crouton2x2Layout::offset_in_chunk([0, i / 8, i % 8, 0]);
            i += 1;
        }
        order
    };
    // `1,4, 2,4, 3,32, 1,2, 2,2`: two columns innermost, then two rows, then 32 channels.
    assert_eq!(ORDER[..4], [0, 1, 4 * 32, 4 * 32 + 1]);
    assert_eq!((ORDER[8], ORDER[9], ORDER[16]), (2, 3, 4 * 4 * 32));
}

#[test]
fn arrays_of_the_chunk_volume_read_and_write_the_chunk() {
    type Weights = htp::R4ConvWeightLayout;
    let mut t = Tensor::<u8, Weights>::zeros([1, 1, 40, 40]);
    {
        let mut chunk = t.chunk_view_mut(3).unwrap(); // the second input and output blocks
        let slots: &mut [u8; Weights::CHUNK_VOLUME] = chunk.as_array_mut();
        slots[Weights::offset_in_chunk([0, 0, 5, 6])] = 1;
    }
    assert_eq!(t[[0, 0, 37, 38]], 1);
    let chunk = t.chunk_view(3).unwrap();
    let slots: &[u8; 1024] = chunk.as_array();
    assert_eq!(slots.iter().map(|&v| u32::from(v)).sum::<u32>(), 1);
}

#[test]
fn writing_through_chunks_builds_the_tensor_and_leaves_padding_alone() {
    let dims = [2, 9, 10, 40];
    let expected = Tensor::<u16, htp::R4Crouton2x2Layout>::from_fn(dims, |[n, h, w, c]| {
        (n + h * 7 + w * 11 + c) as u16 + 1000
    });
    let mut t = Tensor::<u16, htp::R4Crouton2x2Layout>::zeros(dims);
    t.fill_padding(99);
    for mut chunk in t.chunk_views_mut() {
        for local in RowMajorIndices::new(chunk.dims()) {
            let [n, h, w, c] = chunk.tensor_index(local);
            chunk[local] = (n + h * 7 + w * 11 + c) as u16 + 1000;
        }
        if chunk.origin()[3] == 32 {
            assert!(chunk.get_mut([0, 0, 0, 8]).is_none()); // channel 40: padding
        }
    }
    assert_eq!(t.to_row_major(), expected.to_row_major());
    let m = *t.mapping();
    assert!(
        t.as_raw()
            .iter()
            .enumerate()
            .all(|(slot, &v)| m.is_padding(slot) == (v == 99))
    );
    // chunk_mut reaches the same slots.
    let (n, offset) = t.chunk_of([1, 8, 9, 39]);
    t.chunk_mut(n)[offset] = 0;
    assert_eq!(t[[1, 8, 9, 39]], 0);
}

#[test]
fn chunk_numbers_past_the_end_are_errors_that_say_how_many_there_are() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    assert_eq!(
        t.chunk_view(2).unwrap_err(),
        LayoutError::ChunkOutOfRange { chunk: 2, count: 2 }
    );
    let empty = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 0, 8, 32]);
    assert_eq!(empty.chunk_count(), 0);
    assert_eq!(empty.chunk_views().count(), 0);
    assert_eq!(
        empty.chunk_view(0).unwrap_err().to_string(),
        "chunk 0 does not exist: the tensor has no chunks"
    );
    assert_eq!(
        t.try_chunk_of([0, 9, 0, 0]).unwrap_err().to_string(),
        "index [0, 9, 0, 0] is out of bounds for dims [1, 9, 8, 32]"
    );
}

#[test]
#[should_panic(expected = "chunk 4 does not exist: the tensor has 4 chunks, numbered 0 to 3")]
fn chunk_panics_past_the_last_chunk() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    let _ = t.chunk(4);
}

#[test]
#[should_panic(expected = "index [0, 0, 0, 40] is out of bounds for dims [1, 9, 8, 40]")]
fn chunk_of_panics_outside_the_dims() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    let _ = t.chunk_of([0, 0, 0, 40]);
}

#[test]
#[should_panic(
    expected = "index [0, 1, 0, 0] is out of bounds for dims [1, 1, 8, 8] (coordinates inside a chunk)"
)]
fn chunk_indexing_panics_on_padding() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    let chunk = t.chunk_view(3).unwrap();
    let _ = chunk[[0, 1, 0, 0]];
}

#[test]
fn views_give_chunk_access_to_the_same_chunks() {
    let mut t: Tensor<u32, htp::R4CroutonLayout> = numbered([1, 9, 8, 40]);
    let view = t.view();
    assert_eq!(view.chunk_count(), 4);
    assert_eq!(view.chunk(3), t.chunk(3));
    let mut view = t.view_mut();
    view.chunk_view_mut(0).unwrap()[[0, 0, 0, 0]] = 7;
    assert_eq!(view.chunk_of([0, 0, 0, 0]), (0, 0));
    assert_eq!(t[[0, 0, 0, 0]], 7);
}
