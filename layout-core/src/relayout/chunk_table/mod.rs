//! Relayouts out of and into a chunk table (a chunked layout's chunks in separate allocations,
//! in chunk-number order), without a contiguous copy of the whole table.
//!
//! Chunks of at least [`CHUNK_ALONE_BYTES`] move one at a time, straight between the chunk and
//! its box in the other tensor ([`alone`]). Smaller chunks move in bands of consecutive chunks
//! that form whole blocks of the outer dimensions ([`bands`]), through a buffer that stays in
//! the caches. Either way the kernels are the engine's own.
//!
//! Where the chunks are not numbered by whole blocks, or the other tensor cannot be cut to a
//! chunk's or band's box (its blocks straddle the box's edges), the functions answer `false`
//! and the caller moves the table through one contiguous buffer instead.

mod alone;
mod bands;

use super::plan::{Grid, Pair, Renumbering, Side};
use super::tuning::{CHUNK_ALONE_BYTES, CHUNK_BAND_BYTES};
use crate::{Layout, Mapping};
use alloc::boxed::Box;

/// Writes every logical element of the chunk table `chunks` (laid out by `src`) into
/// `dst_slots` (laid out by `dst`) as [`copy_into`](super::copy_into) does, and `pad` into
/// every padding slot of `dst`. `false` when the table cannot move this way; `dst_slots` may
/// then hold part of the copy, and the caller writes all of it another way.
pub(crate) fn copy_from_chunks<T, L1, L2>(
    src: &Mapping<L1>,
    chunks: &[Box<[T]>],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
    to: &Renumbering,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    let band_bytes = band_bytes::<T>(src.chunk_volume());
    from_chunks_in(src, chunks, dst, dst_slots, pad, to, band_bytes)
}

/// Writes every logical element of `src_slots` (laid out by `src`) into the chunk table
/// `chunks` (laid out by `dst`) as [`copy_into`](super::copy_into) does, and `pad` into every
/// padding slot of the table. `false` when the table cannot move this way; the chunks may then
/// hold part of the copy, and the caller writes all of them another way.
pub(crate) fn copy_into_chunks<T, L1, L2>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    chunks: &mut [Box<[T]>],
    pad: T,
    to: &Renumbering,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    let band_bytes = band_bytes::<T>(dst.chunk_volume());
    into_chunks_in(src, src_slots, dst, chunks, pad, to, band_bytes)
}

/// The bands chunks of `volume` elements move in: 0 for one chunk at a time.
fn band_bytes<T>(volume: usize) -> usize {
    if volume.saturating_mul(size_of::<T>()) >= CHUNK_ALONE_BYTES {
        0
    } else {
        CHUNK_BAND_BYTES
    }
}

/// [`copy_from_chunks`] one chunk at a time (`band_bytes` 0) or in bands of at most
/// `band_bytes`.
fn from_chunks_in<T, L1, L2>(
    src: &Mapping<L1>,
    chunks: &[Box<[T]>],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
    to: &Renumbering,
    band_bytes: usize,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    let pair = Pair::of(src, dst, to);
    let grid = Grid::of(&pair.src, src.dims().as_ref(), src.layout().chunk_axes());
    let Some(grid) = grid.filter(|grid| grid.count() == chunks.len()) else {
        return false;
    };
    let table = Table {
        pair: &pair,
        grid: &grid,
        volume: src.chunk_volume(),
    };
    if band_bytes == 0 {
        alone::from_chunks(&table, chunks, dst, dst_slots, pad)
    } else {
        bands::from_chunks(&table, src, chunks, dst_slots, pad, band_bytes)
    }
}

/// [`copy_into_chunks`] one chunk at a time (`band_bytes` 0) or in bands of at most
/// `band_bytes`.
fn into_chunks_in<T, L1, L2>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    chunks: &mut [Box<[T]>],
    pad: T,
    to: &Renumbering,
    band_bytes: usize,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    let pair = Pair::of(src, dst, to);
    let grid = Grid::of(&pair.dst, dst.dims().as_ref(), dst.layout().chunk_axes());
    let Some(grid) = grid.filter(|grid| grid.count() == chunks.len()) else {
        return false;
    };
    let table = Table {
        pair: &pair,
        grid: &grid,
        volume: dst.chunk_volume(),
    };
    if band_bytes == 0 {
        alone::into_chunks(&table, src, src_slots, chunks, pad)
    } else {
        bands::into_chunks(&table, src, src_slots, chunks, pad, band_bytes)
    }
}

/// A relayout with a chunk table on one side: the pair (the table its source or destination),
/// the table's chunks as boxes, and their volume.
struct Table<'a> {
    pair: &'a Pair,
    grid: &'a Grid,
    volume: usize,
}

/// Whether a cut table side walks exactly the slots of the `count` chunks from chunk `first`.
fn walks_chunks(side: &Side, first: usize, count: usize, volume: usize) -> bool {
    let reach: usize = side.axes.iter().map(|a| (a.extent - 1) * a.stride).sum();
    side.base == first * volume && reach + 1 == count * volume
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::copy_into;
    use alloc::vec::Vec;
    use core::fmt::Debug;

    /// Chunks of 2x2x4: 24 of them for the dims below, their last rows, columns and channels
    /// cut by the dims.
    type Small = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,2, 2,2, 3,4];
    /// Channels outermost, as oneDNN's `nchw` (the relayouts are transposes).
    type Nchw = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0];
    /// Channel blocks of 8, as oneDNN's `nChw8c`.
    type NChw8c = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0, 3,8];
    /// Channel blocks of 3, which the table's 4 do not divide.
    type NChw3c = crate::chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0, 3,3];

    const DIMS: [usize; 4] = [2, 5, 3, 6];

    /// `A`'s table of `DIMS` into `B` and back, chunk by chunk (`band_bytes` 0) or in bands,
    /// against the contiguous engine: every slot written, padding included; `false` when the
    /// table did not move this way.
    fn moves<T, A, B>(of: fn(u32) -> T, band_bytes: usize) -> bool
    where
        T: Copy + Send + Sync + PartialEq + Debug + 'static,
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + Default,
    {
        let to = crate::relayout::plan::SAME_ORDER;
        let (table, other) = (
            Mapping::<A>::new(DIMS).unwrap(),
            Mapping::<B>::new(DIMS).unwrap(),
        );
        let volume = table.chunk_volume();
        let slots: Vec<T> = (0..table.storage_len()).map(|i| of(i as u32 + 1)).collect();
        let chunks: Vec<Box<[T]>> = slots.chunks(volume).map(Box::from).collect();
        let mut want = alloc::vec![of(7); other.storage_len()];
        copy_into(&table, &slots, &other, &mut want, of(0), &to);
        let mut got = alloc::vec![of(9); other.storage_len()];
        if !from_chunks_in(&table, &chunks, &other, &mut got, of(0), &to, band_bytes) {
            return false;
        }
        assert_eq!(got, want, "out of the table, bands of {band_bytes}");

        let mut back = alloc::vec![of(7); table.storage_len()];
        copy_into(&other, &want, &table, &mut back, of(0), &to);
        let mut chunks: Vec<Box<[T]>> = back
            .chunks(volume)
            .map(|c| alloc::vec![of(9); c.len()].into())
            .collect();
        assert!(into_chunks_in(
            &other,
            &want,
            &table,
            &mut chunks,
            of(0),
            &to,
            band_bytes
        ));
        assert_eq!(
            chunks.concat(),
            back,
            "into the table, bands of {band_bytes}"
        );
        true
    }

    /// Chunk by chunk and in bands of one chunk up to the whole table, to plain and blocked
    /// layouts, for a plain element type, one moved as bytes and one moved as itself.
    #[test]
    fn tables_move_chunk_by_chunk_and_in_bands_like_contiguous_tensors() {
        let chunk_bytes = 16;
        for bytes in [0, 1, 3 * chunk_bytes, 7 * chunk_bytes, 1 << 20] {
            assert!(moves::<u8, Small, Nchw>(|v| v as u8, bytes));
            assert!(moves::<u8, Small, NChw8c>(|v| v as u8, bytes));
            assert!(moves::<bool, Small, NChw8c>(|v| v % 3 == 0, bytes));
            assert!(moves::<(u64, u64), Small, Nchw>(
                |v| (u64::from(v), 1),
                bytes * 16
            ));
        }
        // Blocks that do not divide the table's: no chunk by chunk, and bands through the
        // engine's index-driven walk.
        assert!(!moves::<u8, Small, NChw3c>(|v| v as u8, 0));
        assert!(moves::<u8, Small, NChw3c>(|v| v as u8, 3 * chunk_bytes));
    }
}
