//! In bands: runs of consecutive chunks that form whole blocks of the outer dimensions, for
//! chunks too small to move one at a time. Where each row of the band's plan lies in one chunk,
//! the rows move straight between the chunks and the other tensor ([`TableRows`]); otherwise
//! through a buffer that stays in the caches. Bands of one shape share one plan
//! ([`BandPlans`]); runs of bands go to different threads ([`split`]).

use super::table_rows::TableRows;
use super::{Dim, Table, TableMove, split};
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
            // Stores past the caches as for the whole destination, whatever part a thread writes.
            let streaming = Streaming::for_destination(size_of_val(dst_slots), &choices);
            split::in_pieces(table, &bands, dst_slots, &|bands, dst_slots, at| {
                let mut buffer = Vec::new();
                let mut plans = BandPlans::default();
                bands.iter().all(|band| {
                    let Some(mut pair) = table.cut(band) else {
                        return false;
                    };
                    pair.dst.base -= at;
                    let plan = plans.of(&pair, size_of::<T>(), volume, true, streaming);
                    if let Some(rows) = &plan.rows {
                        rows.copy_out(
                            chunks.range(band.chunks.clone()),
                            dst_slots,
                            pair.dst.base,
                            pad,
                        );
                        return true;
                    }
                    // Made on the first band that needs it, as large as the largest band.
                    if buffer.capacity() == 0 {
                        buffer.reserve(most_chunks(bands) * volume);
                    }
                    buffer.clear();
                    for chunk in chunks.range(band.chunks.clone()).iter() {
                        buffer.extend_from_slice(chunk);
                    }
                    match &plan.planned {
                        Some(planned) => {
                            let box_slots = &mut dst_slots[pair.dst.base..];
                            by_size::copy(Job::Planned(planned), &buffer, box_slots, pad, &|_| 0);
                        }
                        None => {
                            let offsets = offsets(band, band.chunks.start * volume);
                            let streaming = Some(streaming);
                            let job = Job::Fresh {
                                pair: &pair,
                                streaming,
                                choices: &choices,
                            };
                            by_size::copy(job, &buffer, dst_slots, pad, &offsets);
                        }
                    }
                    true
                })
            })
        }
        TableMove::In { src_slots, chunks } => {
            split::in_pieces(table, &bands, chunks, &|bands, mut chunks, first| {
                let mut buffer = Vec::new();
                let mut plans = BandPlans::default();
                bands.iter().all(|band| {
                    let Some(pair) = table.cut(band) else {
                        return false;
                    };
                    let slots_bytes = band.chunks.len() * volume * size_of::<T>();
                    let streaming = Streaming::for_destination(slots_bytes, &choices);
                    let plan = plans.of(&pair, size_of::<T>(), volume, false, streaming);
                    let band_chunks = band.chunks.start - first..band.chunks.end - first;
                    if let Some(rows) = &plan.rows {
                        rows.copy_in(src_slots, pair.src.base, chunks.range_mut(band_chunks), pad);
                        return true;
                    }
                    if buffer.is_empty() {
                        buffer = alloc::vec![pad; most_chunks(bands) * volume];
                    }
                    let slots = &mut buffer[..band.chunks.len() * volume];
                    match &plan.planned {
                        Some(planned) => {
                            let box_slots = &src_slots[pair.src.base..];
                            by_size::copy(Job::Planned(planned), box_slots, slots, pad, &|_| 0);
                        }
                        None => {
                            let offsets = offsets(band, 0);
                            let job = Job::Fresh {
                                pair: &pair,
                                streaming: None,
                                choices: &choices,
                            };
                            by_size::copy(job, src_slots, slots, pad, &offsets);
                        }
                    }
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

/// Most shapes of bands whose plans [`BandPlans`] keeps: a table has one shape of inner bands
/// and a few cut by the dims' ends.
const MOST_SHAPES: usize = 16;

/// How the bands of one shape move, run from each band's bases.
#[derive(Clone)]
struct BandPlan {
    /// The plan of the band's relayout from (or into) a buffer of its chunks, run from the
    /// band's box in the other tensor ([`Planned::from_any_base`]); `None` when its offsets do
    /// not follow the walk by additions (each such band is planned on its own).
    planned: Option<Planned>,
    /// Its rows, straight out of (or into) the chunks, where the plan copies rows that each
    /// lie in one chunk.
    rows: Option<TableRows>,
}

/// The plans of the bands' boxes made so far, each kept with its cut relayout less its bases:
/// bands whose cuts agree but for their bases run one plan from their own.
#[derive(Default)]
struct BandPlans {
    plans: Vec<(Pair, BandPlan)>,
    /// A band of a shape past [`MOST_SHAPES`]: planned on its own.
    unkept: Option<BandPlan>,
}

impl BandPlans {
    /// The plan of the band whose cut relayout is `pair`, its source (`table_is_src`) or
    /// destination the band's chunks of `volume` elements, its stores as `streaming` says (the
    /// same for every band of a shape).
    fn of(
        &mut self,
        pair: &Pair,
        element_bytes: usize,
        volume: usize,
        table_is_src: bool,
        streaming: Streaming,
    ) -> &BandPlan {
        let mut shape = *pair;
        (shape.src.base, shape.dst.base) = (0, 0);
        let plan = || {
            let planned = Planned::from_any_base(&shape, element_bytes, streaming, 0);
            let walk = planned.as_ref().and_then(Planned::row_walk);
            let rows = walk.and_then(|walk| TableRows::of(&walk, volume, table_is_src));
            BandPlan { planned, rows }
        };
        match self.plans.iter().position(|(known, _)| *known == shape) {
            Some(at) => &self.plans[at].1,
            None if self.plans.len() < MOST_SHAPES => {
                self.plans.push((shape, plan()));
                &self.plans[self.plans.len() - 1].1
            }
            None => self.unkept.insert(plan()),
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

#[cfg(test)]
mod tests {
    use super::super::tests::Depth;
    use super::*;
    use crate::relayout::plan::SAME_ORDER;
    use crate::relayout::test_layouts::Flat;

    /// The plan of `from`'s first band into `to` (the table `from` if `table_is_src`, else
    /// `to`), as bands keep it.
    fn first_band<L1, L2>(dims: [usize; 4], table_is_src: bool) -> BandPlan
    where
        L1: Layout<Index = [usize; 4]> + Default,
        L2: Layout<Index = [usize; 4]> + Default,
    {
        let src = Mapping::<L1>::new(dims).unwrap();
        let dst = Mapping::<L2>::new(dims).unwrap();
        let pair = Pair::of(&src, &dst, &SAME_ORDER);
        let table = if table_is_src {
            Table::of(&pair, &src, true, src.storage_len() / src.chunk_volume())
        } else {
            Table::of(&pair, &dst, false, dst.storage_len() / dst.chunk_volume())
        };
        let table = table.unwrap();
        let bands = table.grid.bands(table.volume, 1 << 20);
        let band = bands.iter().next().unwrap();
        let cut = table.cut(&band).unwrap();
        let mut plans = BandPlans::default();
        plans
            .of(&cut, 1, table.volume, table_is_src, Streaming::NONE)
            .clone()
    }

    /// Rows that each lie in one chunk move straight, both ways; a row that runs on past a
    /// chunk's end goes through the buffer.
    #[test]
    fn rows_inside_chunks_move_without_a_buffer() {
        let dims = [1, 3, 8, 16];
        assert!(first_band::<Depth, Flat>(dims, true).rows.is_some());
        assert!(first_band::<Flat, Depth>(dims, false).rows.is_some());
        // Between two depth tensors the plan copies rows longer than a chunk.
        let same = first_band::<Depth, Depth>(dims, true);
        assert!(same.planned.is_some() && same.rows.is_none());
    }
}
