//! In bands: runs of consecutive chunks that form whole blocks of the outer dimensions, each
//! gathered into a buffer that stays in the caches and relayouted from there into its box of
//! the other tensor, or relayouted from that box into the buffer and scattered into its
//! chunks. For chunks too small to move one at a time.

use super::{Table, walks_chunks};
use crate::relayout::by_size;
use crate::relayout::plan::Point;
use crate::{Coords, Layout, Mapping};
use alloc::boxed::Box;
use alloc::vec::Vec;

/// Out of the table `chunks` (the pair's source, of mapping `src`) into `dst_slots`, in bands
/// of at most `band_bytes`; `false` when a band's box cannot be cut, `dst_slots` then holding
/// the bands before it.
pub(super) fn from_chunks<T, L1>(
    table: &Table<'_>,
    src: &Mapping<L1>,
    chunks: &[Box<[T]>],
    dst_slots: &mut [T],
    pad: T,
    band_bytes: usize,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
{
    let (to, volume) = (&table.pair.to, table.volume);
    let rank = <L1::Index as Coords>::RANK;
    let bands = table.grid.bands(volume * size_of::<T>(), band_bytes);
    let mut buffer = Vec::with_capacity(bands.most_chunks() * volume);
    bands.iter().all(|band| {
        let Some(mut pair) = table.pair.part(&band.part.renumbered(rank, to)) else {
            return false;
        };
        if !walks_chunks(&pair.src, band.chunks.start, band.chunks.len(), volume) {
            return false;
        }
        pair.src.base = 0;
        buffer.clear();
        for chunk in &chunks[band.chunks.clone()] {
            buffer.extend_from_slice(chunk);
        }
        let first = band.chunks.start * volume;
        let offsets = |p: &Point| {
            let mut index = L1::Index::splat(0);
            for d in 0..rank {
                index[d] = band.part.start[d] + p[to[d]];
            }
            src.offset(index) - first
        };
        by_size::copy(&pair, &buffer, dst_slots, pad, &offsets, None);
        true
    })
}

/// Out of `src_slots` (the pair's source, of mapping `src`) into the table `chunks`, in bands
/// of at most `band_bytes`; `false` when a band's box cannot be cut, the chunks then holding
/// the bands before it.
pub(super) fn into_chunks<T, L1>(
    table: &Table<'_>,
    src: &Mapping<L1>,
    src_slots: &[T],
    chunks: &mut [Box<[T]>],
    pad: T,
    band_bytes: usize,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
{
    let (to, volume) = (&table.pair.to, table.volume);
    let bands = table.grid.bands(volume * size_of::<T>(), band_bytes);
    let mut buffer = alloc::vec![pad; bands.most_chunks() * volume];
    bands.iter().all(|band| {
        let Some(mut pair) = table.pair.part(&band.part) else {
            return false;
        };
        if !walks_chunks(&pair.dst, band.chunks.start, band.chunks.len(), volume) {
            return false;
        }
        pair.dst.base = 0;
        let offsets = |p: &Point| {
            let mut index = L1::Index::splat(0);
            for d in 0..<L1::Index as Coords>::RANK {
                index[d] = band.part.start[to[d]] + p[to[d]];
            }
            src.offset(index)
        };
        let slots = &mut buffer[..band.chunks.len() * volume];
        by_size::copy(&pair, src_slots, slots, pad, &offsets, None);
        let chunks = &mut chunks[band.chunks.clone()];
        for (chunk, from) in chunks.iter_mut().zip(slots.chunks(volume)) {
            chunk.copy_from_slice(from);
        }
        true
    })
}
