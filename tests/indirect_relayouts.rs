//! Relayouts out of and into chunk tables, against the same relayouts between contiguous
//! tensors: storage compared whole, padding included, over chunks that lie out of order in
//! memory. Tables of chunks of 512 bytes and more move chunk by chunk, smaller ones in bands
//! (128-byte chunks of `R4Depth32MemoryLayout`, several bands in the largest shape), and to
//! or from layouts whose blocks do not divide the table's through one contiguous buffer.

mod common;

use tensor_layout::prelude::*;
use tensor_layout::tensors::Padding;
use tensor_layout::{
    axes::RelayoutFrom, quantized::PerChannel, tensors::ChunkStorage, tensors::IndirectTensor,
    tensors::IndirectTensorMut,
};

/// HTP's crouton with channel blocks of 24, which do not divide the crouton's 32.
type Channels24 = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 3,24];

/// Channel blocks of 24 in oneDNN's axis order (`n, c, h, w`): the table's dimensions renumbered
/// and its boxes straddled, so that bands go through the engine's index-driven walk.
type NChw24c = onednn_layout!("nChw24c");

/// Blocks coarser than the crouton's: 16 rows, 2 columns, 64 channels, so that a chunk's box
/// is part of a block and the last one reaches into this layout's padding.
type Coarse = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,16, 2,2, 3,64];

/// Odd shapes: rows and columns past a block of 8, channels past a block of 32, batches; and
/// 24 rows, whose last block of 8 is whole but reaches into [`Coarse`]'s padding.
const SHAPES: [[usize; 4]; 5] = [
    [2, 9, 17, 40],
    [3, 20, 5, 70],
    [1, 1, 1, 1],
    [2, 8, 8, 32],
    [1, 24, 4, 64],
];

/// A tensor of `L` whose every element is different from its neighbours.
fn sample<L: Layout<Index = [usize; 4]> + Default>(dims: [usize; 4]) -> Tensor<u8, L> {
    Tensor::from_fn(dims, |[n, h, w, c]: [usize; 4]| {
        (n * 101 + h * 31 + w * 7 + c) as u8
    })
}

/// `t`'s chunks as a table whose chunks lie neither consecutive nor in order in memory.
fn scattered<L: Layout<Index = [usize; 4]> + Default>(t: &Tensor<u8, L>) -> IndirectTensor<u8, L> {
    IndirectTensor::from_chunks(t.dims(), common::scattered_chunks(t)).unwrap()
}

/// The caller's `chunks` lent to a table, in place.
fn lent<L: Layout<Index = [usize; 4]> + Default>(
    dims: [usize; 4],
    chunks: &mut [Box<[u8]>],
) -> IndirectTensorMut<'_, u8, L> {
    IndirectTensorMut::from_chunk_slices(dims, chunks.iter_mut().map(|chunk| &mut **chunk)).unwrap()
}

/// Out of a table of `A` into `B` and back, against the contiguous relayouts: a new tensor,
/// a tensor written over (its padding too), and a table written over; the table's chunks the
/// caller's, scattered (handed over, and lent), and the tensor's own pool.
fn check<A, B>(dims: [usize; 4])
where
    A: Layout<Index = [usize; 4]> + RelayoutFrom<B> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let contiguous = sample::<A>(dims);
    check_table::<A, B>(
        &contiguous,
        &scattered(&contiguous),
        &mut scattered(&contiguous),
    );
    let own = || contiguous.to_indirect();
    check_table::<A, B>(&contiguous, &own(), &mut own());
    let mut chunks = common::scattered_chunks(&contiguous);
    let mut back = common::scattered_chunks(&contiguous);
    check_table::<A, B>(
        &contiguous,
        &lent(dims, &mut chunks),
        &mut lent(dims, &mut back),
    );
}

/// [`check`] of `table`, `contiguous`'s chunks, and of `back`, a table of its dims written
/// over.
fn check_table<A, B>(
    contiguous: &Tensor<u8, A>,
    table: &IndirectTensor<u8, A, Plain, impl ChunkStorage<Elem = u8>>,
    back: &mut IndirectTensor<u8, A, Plain, impl ChunkStorage<Elem = u8>>,
) where
    A: Layout<Index = [usize; 4]> + RelayoutFrom<B> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let dims = contiguous.dims();
    let want = contiguous.relayout::<B>();
    let made: Tensor<u8, B> = table.try_relayout().unwrap();
    assert_eq!(made.as_raw(), want.as_raw(), "new {dims:?}");
    let mut into = Tensor::<u8, B>::zeros(want.dims());
    into.as_raw_mut().fill(0xAB);
    table.relayout_into(&mut into).unwrap();
    assert_eq!(into.as_raw(), want.as_raw(), "into {dims:?}");

    back.chunk_slices_mut().for_each(|chunk| chunk.fill(0xEE));
    back.relayout_from(&want).unwrap();
    assert_eq!(
        back.to_contiguous().as_raw(),
        contiguous.as_raw(),
        "back {dims:?}"
    );
}

/// Every table layout against every other layout, on every shape.
fn check_all<A: Layout<Index = [usize; 4], Names = names::NHWC> + Default>(dims: [usize; 4]) {
    check::<A, htp::R4FlatMemoryLayout>(dims);
    check::<A, htp::R4CroutonLayout>(dims);
    check::<A, htp::R4Crouton2x2Layout>(dims);
    check::<A, onednn::nChw32c>(dims);
    check::<A, onednn::nChw16c>(dims);
    check::<A, onednn::nchw>(dims);
    check::<A, Channels24>(dims);
    check::<A, Coarse>(dims);
}

#[test]
fn crouton_tables_move_chunk_by_chunk_like_contiguous_tensors() {
    for dims in SHAPES {
        check_all::<htp::R4CroutonLayout>(dims);
    }
}

#[test]
fn tables_of_512_byte_chunks_move_like_contiguous_tensors() {
    for dims in SHAPES {
        check_all::<htp::R4Crouton4Layout>(dims);
    }
}

#[test]
fn tables_of_small_chunks_move_in_bands_like_contiguous_tensors() {
    for dims in SHAPES {
        check_all::<htp::R4Depth32MemoryLayout>(dims);
    }
    // 4788 chunks of 128 bytes: each image in two bands of 10 and 9 rows.
    let dims = [2, 19, 70, 200];
    check::<htp::R4Depth32MemoryLayout, htp::R4FlatMemoryLayout>(dims);
    check::<htp::R4Depth32MemoryLayout, onednn::nChw16c>(dims);
    check::<htp::R4Depth32MemoryLayout, Channels24>(dims);
    check::<htp::R4Depth32MemoryLayout, NChw24c>(dims);
    // Whole blocks, image rows of 64 KiB: bands of four rows and one of two, each band's plan
    // a loop over its rows around one row block, moved straight between chunks and the other
    // tensor.
    check::<htp::R4Depth32MemoryLayout, htp::R4FlatMemoryLayout>([1, 6, 256, 256]);
}

/// Tables past the size from which relayouts are shared among threads, on two and three
/// threads (with the `parallel` feature; on the calling thread without it): chunk by chunk and
/// in bands, to a layout whose storage the halves' boxes cut into ranges of their own (flat
/// NHWC) and to one where they do not (oneDNN's `nChw32c`, channel blocks outermost).
#[test]
fn large_tables_move_on_several_threads_like_contiguous_tensors() {
    // 4.4 MB of flat NHWC: three images, no extent a multiple of a block.
    let dims = [3, 75, 65, 300];
    for threads in [2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            check::<htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(dims);
            check::<htp::R4CroutonLayout, onednn::nChw32c>(dims);
            check::<htp::R4Depth32MemoryLayout, htp::R4FlatMemoryLayout>(dims);
        });
    }
}

#[test]
fn per_channel_interfaces_fill_padding_as_contiguous_tensors_do() {
    let dims = [2, 9, 5, 40];
    let pairs: Vec<(f32, i32)> = (0..40).map(|c| (0.5, 100 + c)).collect();
    let q = PerChannel::new('C', pairs);
    let contiguous =
        Tensor::<u8, htp::R4CroutonLayout, _>::try_from_real_fn(dims, q.clone(), |[n, h, w, c]| {
            (n + h + w + c) as f32 * 0.5
        })
        .unwrap();
    let want = contiguous.relayout::<onednn::nChw32c>();
    let pooled = || contiguous.to_indirect();
    check_per_channel(&contiguous, &want, &pooled(), &mut pooled(), "pool");
    let boxed = || {
        let chunks = common::scattered_chunks(&contiguous);
        IndirectTensor::from_chunks_with(dims, chunks, q.clone(), Padding::Check).unwrap()
    };
    check_per_channel(&contiguous, &want, &boxed(), &mut boxed(), "boxed");
    let mut chunks = common::scattered_chunks(&contiguous);
    let mut back = common::scattered_chunks(&contiguous);
    let table = lent_with(dims, &mut chunks, q.clone());
    let mut back = lent_with(dims, &mut back, q);
    check_per_channel(&contiguous, &want, &table, &mut back, "lent");
}

/// The caller's `chunks` lent to a table read through `q`, their padding checked.
fn lent_with(
    dims: [usize; 4],
    chunks: &mut [Box<[u8]>],
    q: PerChannel,
) -> IndirectTensorMut<'_, u8, htp::R4CroutonLayout, PerChannel> {
    let chunks = chunks.iter_mut().map(|chunk| &mut **chunk);
    IndirectTensorMut::from_chunk_slices_with(dims, chunks, q, Padding::Check).unwrap()
}

/// Out of `table` (`contiguous`'s chunks) into a tensor of `want`'s layout, and `want` into
/// `back`, as the contiguous relayouts do.
fn check_per_channel(
    contiguous: &Tensor<u8, htp::R4CroutonLayout, PerChannel>,
    want: &Tensor<u8, onednn::nChw32c, PerChannel>,
    table: &IndirectTensor<u8, htp::R4CroutonLayout, PerChannel, impl ChunkStorage<Elem = u8>>,
    back: &mut IndirectTensor<u8, htp::R4CroutonLayout, PerChannel, impl ChunkStorage<Elem = u8>>,
    kind: &str,
) {
    let q = want.interface().clone();
    let mut into = Tensor::<u8, onednn::nChw32c, _>::try_zeros_with(want.dims(), q).unwrap();
    into.as_raw_mut().fill(0xAB);
    table.relayout_into(&mut into).unwrap();
    assert_eq!(into.as_raw(), want.as_raw(), "{kind}");
    back.chunk_slices_mut().for_each(|chunk| chunk.fill(0xEE));
    back.relayout_from(want).unwrap();
    assert_eq!(back.to_contiguous().as_raw(), contiguous.as_raw(), "{kind}");
}
