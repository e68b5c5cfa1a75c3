//! In bands: runs of consecutive chunks that form whole blocks of the outer dimensions, for
//! chunks too small to move one at a time. Rows that each lie in one chunk move straight
//! between the chunks and the other tensor ([`TableRows`]); others through a buffer that stays
//! in the caches. Bands of one shape share one plan ([`PlansByShape`]).

use super::by_shape::PlansByShape;
use super::table_rows::TableRows;
use super::{Table, TableMove, split};
use crate::relayout::by_size;
use crate::relayout::choices::Choices;
use crate::relayout::plan::{Band, Pair, Point};
use crate::relayout::schedule::{Job, Planned, Streaming};
use crate::{Layout, Mapping, mappings::Coords};
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
    let (volume, choices) = (table.volume, Choices::of_this_machine());
    let chunk_bytes = volume * size_of::<T>();
    let bands = table.grid.bands(chunk_bytes, band_bytes);
    // The source offsets of the points of `band`'s box less `first` (the band's first slot,
    // where the source is the table: offsets in the buffer of its chunks).
    let (to, table_is_src) = (table.pair.to, table.is_src);
    let offsets = |band: &Band, first: usize| {
        let start = band.part.start;
        move |p: &Point| {
            let mut index = L1::Index::splat(0);
            for (s, &d) in to.iter().enumerate().take(<L1::Index as Coords>::RANK) {
                index[s] = start[if table_is_src { s } else { d }] + p[d];
            }
            src.offset(index) - first
        }
    };
    // A buffer of chunks as large as the largest band, for bands that need one.
    let buffer_len = bands.iter().map(|b| b.chunks.len()).max().unwrap_or(0) * volume;
    let plan =
        |streaming| move |shape: &Pair| BandPlan::of(shape, table, size_of::<T>(), streaming);
    match moves {
        TableMove::Out { chunks, dst_slots } => {
            // Stores past the caches as for the whole destination, whatever part a thread writes.
            let streaming = Streaming::for_destination(size_of_val(dst_slots), &choices);
            split::in_pieces(table, &bands, dst_slots, &|bands, dst_slots, at| {
                let mut buffer = Vec::new();
                let mut plans = PlansByShape::new(MOST_SHAPES);
                bands.iter().all(|band| {
                    let Some(mut pair) = table.cut(band) else {
                        return false;
                    };
                    pair.dst.base -= at;
                    let plan = plans.of_cut(&pair, plan(streaming));
                    let band_chunks = chunks.range(band.chunks.clone());
                    if let Some(rows) = &plan.rows {
                        rows.copy_out(band_chunks, dst_slots, pair.dst.base, pad);
                        return true;
                    }
                    if buffer.capacity() == 0 {
                        buffer.reserve(buffer_len);
                    }
                    buffer.clear();
                    for chunk in band_chunks.iter() {
                        buffer.extend_from_slice(chunk);
                    }
                    let (job, s, d) = plan.job(&pair, Some(streaming), &choices);
                    let offsets = offsets(band, band.chunks.start * volume);
                    by_size::copy(job, &buffer[s..], &mut dst_slots[d..], pad, &offsets);
                    true
                })
            })
        }
        TableMove::In { src_slots, chunks } => {
            split::in_pieces(table, &bands, chunks, &|bands, mut chunks, first| {
                let mut buffer = Vec::new();
                let mut plans = PlansByShape::new(MOST_SHAPES);
                bands.iter().all(|band| {
                    let Some(pair) = table.cut(band) else {
                        return false;
                    };
                    let slots_bytes = band.chunks.len() * volume * size_of::<T>();
                    let streaming = Streaming::for_destination(slots_bytes, &choices);
                    let plan = plans.of_cut(&pair, plan(streaming));
                    let band_chunks = band.chunks.start - first..band.chunks.end - first;
                    if let Some(rows) = &plan.rows {
                        rows.copy_in(src_slots, pair.src.base, chunks.range_mut(band_chunks), pad);
                        return true;
                    }
                    if buffer.is_empty() {
                        buffer = alloc::vec![pad; buffer_len];
                    }
                    let slots = &mut buffer[..band.chunks.len() * volume];
                    let (job, s, d) = plan.job(&pair, None, &choices);
                    let offsets = offsets(band, 0);
                    by_size::copy(job, &src_slots[s..], &mut slots[d..], pad, &offsets);
                    let band = chunks.range_mut(band_chunks).each_mut();
                    for (chunk, from) in band.zip(slots.chunks(volume)) {
                        chunk.copy_from_slice(from);
                    }
                    true
                })
            })
        }
    }
}

/// Most shapes of bands whose plans a thread keeps: a table has one shape of inner bands and a
/// few cut by the dims' ends.
const MOST_SHAPES: usize = 16;

/// How the bands of one shape move, from each band's bases.
struct BandPlan {
    /// The plan of the band's relayout from (or into) a buffer of its chunks
    /// ([`Planned::from_any_base`]); `None` when its offsets do not follow by additions (each
    /// such band is planned on its own).
    planned: Option<Planned>,
    /// Its rows, straight out of (or into) the chunks, where each lies in one chunk.
    rows: Option<TableRows>,
}

impl BandPlan {
    /// The plan of `table`'s bands whose cut relayout from bases 0 is `shape`, its stores as
    /// `streaming` says (the same for every band of a shape).
    fn of(shape: &Pair, table: &Table<'_>, element_bytes: usize, streaming: Streaming) -> BandPlan {
        let planned = Planned::from_any_base(shape, element_bytes, streaming, 0);
        let walk = planned.as_ref().and_then(Planned::row_walk);
        let rows = walk.and_then(|walk| TableRows::of(&walk, table.volume, table.is_src));
        BandPlan { planned, rows }
    }

    /// The engine call of the band whose cut relayout is `pair`, and its starts in the source
    /// and the destination: the plan from both sides' bases, or else the band planned alone
    /// (stores as `streaming` says) from both slices' starts.
    fn job<'a>(
        &'a self,
        pair: &'a Pair,
        streaming: Option<Streaming>,
        choices: &'a Choices,
    ) -> (Job<'a>, usize, usize) {
        match &self.planned {
            Some(planned) => (Job::Planned(planned), pair.src.base, pair.dst.base),
            None => {
                let job = Job::Fresh {
                    pair,
                    streaming,
                    choices,
                };
                (job, 0, 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::Depth;
    use super::*;
    use crate::relayout::plan::SAME_ORDER;
    use crate::relayout::test_layouts::{Flat, FourDims};

    /// The plan of the first band of the table `A` out of (`table_is_src`) or into `B`, as
    /// bands keep it.
    fn first_band<A: FourDims, B: FourDims>(dims: [usize; 4], table_is_src: bool) -> BandPlan {
        let (table, other) = (
            Mapping::<A>::new(dims).unwrap(),
            Mapping::<B>::new(dims).unwrap(),
        );
        let pair = match table_is_src {
            true => Pair::of(&table, &other, &SAME_ORDER),
            false => Pair::of(&other, &table, &SAME_ORDER),
        };
        let count = table.storage_len() / table.chunk_volume();
        let table = Table::of(&pair, &table, table_is_src, count).unwrap();
        let band = &table.grid.bands(table.volume, 1 << 20)[0];
        let mut cut = table.cut(band).unwrap();
        (cut.src.base, cut.dst.base) = (0, 0);
        BandPlan::of(&cut, &table, 1, Streaming::NONE)
    }

    /// Rows that each lie in one chunk move straight, both ways; a row that runs on past a
    /// chunk's end goes through the buffer.
    #[test]
    fn rows_inside_chunks_move_without_a_buffer() {
        let dims = [1, 3, 8, 16];
        assert!(first_band::<Depth, Flat>(dims, true).rows.is_some());
        assert!(first_band::<Depth, Flat>(dims, false).rows.is_some());
        // Between two depth tensors the plan copies rows longer than a chunk.
        let same = first_band::<Depth, Depth>(dims, true);
        assert!(same.planned.is_some() && same.rows.is_none());
    }
}
