//! In bands: runs of consecutive chunks that form whole blocks of the outer dimensions, each
//! gathered into a buffer that stays in the caches and relayouted from there into its box of
//! the other tensor, or relayouted from that box into the buffer and scattered into its
//! chunks. For chunks too small to move one at a time. Runs of bands go to different threads
//! ([`split`]).

use super::{Dim, Table, TableMove, split};
use crate::relayout::by_size;
use crate::relayout::plan::{Band, Point};
use crate::relayout::schedule::Streaming;
use crate::{Coords, Layout, Mapping};
use alloc::vec::Vec;

/// The relayout `moves` (its source of mapping `src`) in bands of at most `band_bytes`;
/// `false` when a band's box cannot be cut, the destination then holding some of the bands.
pub(super) fn move_bands<T, L1>(
    table: &Table<'_>,
    src: &Mapping<L1>,
    moves: TableMove<'_, T>,
    pad: T,
    band_bytes: usize,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
{
    let volume = table.volume;
    let chunk_bytes = volume * size_of::<T>();
    let bands: Vec<Band> = table.grid.bands(chunk_bytes, band_bytes).iter().collect();
    // The source offsets of the points of `band`'s box, less `first`: in the source tensor,
    // or in the buffer of the band's chunks (`first` the band's first slot in the table).
    let dims: Vec<Dim> = Dim::each(table.pair, table.is_src).collect();
    let offsets = |band: &Band, first: usize| {
        let (dims, start) = (&dims, band.part.start);
        move |p: &Point| {
            let mut index = L1::Index::splat(0);
            for dim in dims {
                index[dim.src] = start[dim.table] + p[dim.dst];
            }
            src.offset(index) - first
        }
    };
    match moves {
        TableMove::Out { chunks, dst_slots } => {
            // Stores past the caches as for the whole destination, whatever part a thread
            // writes.
            let streaming = Some(Streaming::for_destination(size_of_val(dst_slots)));
            split::out_of_table(table, &bands, dst_slots, &|bands, dst_slots, at| {
                let mut buffer = Vec::with_capacity(most_chunks(bands) * volume);
                bands.iter().all(|band| {
                    let Some(mut pair) = table.cut(band) else {
                        return false;
                    };
                    pair.dst.base -= at;
                    buffer.clear();
                    for chunk in &chunks[band.chunks.clone()] {
                        buffer.extend_from_slice(chunk);
                    }
                    let offsets = offsets(band, band.chunks.start * volume);
                    by_size::copy(&pair, &buffer, dst_slots, pad, &offsets, streaming);
                    true
                })
            })
        }
        TableMove::In { src_slots, chunks } => {
            split::into_table(table, &bands, chunks, &|bands, chunks| {
                let mut buffer = alloc::vec![pad; most_chunks(bands) * volume];
                let first = split::chunks_of(bands).start;
                bands.iter().all(|band| {
                    let Some(pair) = table.cut(band) else {
                        return false;
                    };
                    let slots = &mut buffer[..band.chunks.len() * volume];
                    by_size::copy(&pair, src_slots, slots, pad, &offsets(band, 0), None);
                    let chunks = &mut chunks[band.chunks.start - first..band.chunks.end - first];
                    for (chunk, from) in chunks.iter_mut().zip(slots.chunks(volume)) {
                        chunk.copy_from_slice(from);
                    }
                    true
                })
            })
        }
    }
}

/// Chunks in the largest of `bands`.
fn most_chunks(bands: &[Band]) -> usize {
    bands
        .iter()
        .map(|band| band.chunks.len())
        .max()
        .unwrap_or(0)
}
