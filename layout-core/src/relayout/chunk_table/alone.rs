//! Chunk by chunk: each chunk moves straight between its allocation and its box in the other
//! tensor, by the plan of its shape ([`Shapes`]) run through the engine from the chunk's and
//! the box's first slots. Runs of chunks go to different threads ([`split`]).

use super::by_shape::PlansByShape;
use super::{Table, TableMove, split};
use crate::mappings::MAX_RANK;
use crate::relayout::by_size;
use crate::relayout::choices::Choices;
use crate::relayout::plan::{Band, Part, ahead_if_far, coverage};
use crate::relayout::schedule::{Job, Planned, RowWalk, Streaming};
use alloc::vec::Vec;

/// The relayout `moves` chunk by chunk, `other_offset` the offset in the other tensor of a
/// chunk's corner; `false`, with nothing written, when a chunk's box cannot be planned alone.
pub(super) fn move_chunks<T: Copy + Send + Sync + 'static>(
    table: &Table<'_>,
    moves: TableMove<'_, T>,
    pad: T,
    other_offset: impl Fn(&[usize; MAX_RANK]) -> usize + Copy + Sync,
) -> bool {
    let (element_bytes, choices) = (size_of::<T>(), Choices::of_this_machine());
    let chunk_bytes = table.volume * element_bytes;
    let (streaming, source_ahead, written_bytes) = match &moves {
        TableMove::Out { dst_slots, .. } => {
            // Past the caches, rows ask for their destination lines ahead on every machine: a
            // chunk's rows land in lines that later chunks complete.
            let bytes = size_of_val(*dst_slots);
            let mut streaming = Streaming::for_destination(bytes, &choices);
            streaming.far_rows = streaming.blocks;
            (streaming, 0, bytes)
        }
        TableMove::In { src_slots, chunks } => {
            // Through the caches: the chunks' lines need not lie on the 64-byte grid, and a
            // streaming kernel call ends with a fence, per chunk. From a source past the caches,
            // rows ask for their counterparts in a chunk further on, as row blocks do.
            let mut ahead = 0;
            if Streaming::for_destination(size_of_val(*src_slots), &choices).blocks {
                let mut starts = Vec::with_capacity(STRIDE_CHUNKS);
                let first = 0..table.grid.count().min(STRIDE_CHUNKS);
                table
                    .grid
                    .each_chunk(first, |_, at| starts.push(other_offset(&at.origin)));
                ahead = source_stride(&starts, element_bytes);
            }
            (Streaming::NONE, ahead, chunk_bytes * chunks.len())
        }
    };
    let Some(shapes) = Shapes::new(table, element_bytes, other_offset, streaming, source_ahead)
    else {
        return false;
    };
    let blocks = shapes.one_blocks();
    let pieces = split::pieces(table, chunk_bytes, written_bytes);
    match moves {
        TableMove::Out { chunks, dst_slots } => {
            split::in_pieces(table, &pieces, dst_slots, &|pieces, dst_slots, at| {
                shapes.each(table, &blocks, pieces, |job, n, origin| {
                    let box_slots = &mut dst_slots[other_offset(origin) - at..];
                    by_size::copy(job, chunks.get(n), box_slots, pad, &|_| 0);
                });
                true
            })
        }
        TableMove::In { src_slots, chunks } => {
            split::in_pieces(table, &pieces, chunks, &|pieces, chunks, _| {
                let mut unwritten = chunks.each_mut();
                shapes.each(table, &blocks, pieces, |job, _, origin| {
                    let Some(chunk) = unwritten.next() else {
                        unreachable!("the table holds a chunk for every corner")
                    };
                    let box_slots = &src_slots[other_offset(origin)..];
                    by_size::copy(job, box_slots, chunk, pad, &|_| 0);
                });
                true
            })
        }
    }
}

/// Most chunks, from the first, whose boxes [`source_stride`] compares.
const STRIDE_CHUNKS: usize = 64;

/// How far on in the source each chunk asks for its rows, from `starts`, the source offsets of
/// consecutive chunks' boxes: the step they advance by every `p` chunks, for the fewest `p` (at
/// most half of them) with one step over all that is [far enough](ahead_if_far); else 0.
fn source_stride(starts: &[usize], element_bytes: usize) -> usize {
    (1..=starts.len() / 2)
        .find_map(|p| {
            let step = starts[p].checked_sub(starts[0])?;
            let steady =
                (p..starts.len()).all(|k| starts[k].checked_sub(starts[k - p]) == Some(step));
            let far = ahead_if_far(step, element_bytes);
            (steady && far > 0).then_some(far)
        })
        .unwrap_or(0)
}

/// The shape of a box of `table`'s chunks: its extent per dimension, then how far it reaches
/// into the other tensor's padded extent. With offsets that follow by additions, boxes of one
/// shape cut alike but for their bases: a few comparisons, where a cut walks both sides.
fn box_shape(table: &Table<'_>) -> impl Fn(&Part) -> [usize; 2 * MAX_RANK] {
    let pair = table.pair;
    let other = if table.is_src { &pair.dst } else { &pair.src };
    // Per dimension of the table, its dim and the other tensor's padded extent of it.
    let mut ends = [(0, 0); MAX_RANK];
    for d in 0..pair.rank {
        let dim = pair.dims[if table.is_src { d } else { pair.to[d] }];
        ends[table.other_dims[d]] = (dim, coverage(&other.axes, d).max(dim));
    }
    move |part| {
        core::array::from_fn(|i| {
            let (d, (dim, padded)) = (i % MAX_RANK, ends[i % MAX_RANK]);
            let reach_padding = i >= MAX_RANK && part.end[d] == dim;
            let end = if reach_padding { padded } else { part.end[d] };
            end - part.start[d]
        })
    }
}

/// Most patterns of last digits a table moved chunk by chunk may have (each is looked at once
/// per relayout): more outer axes than a tensor of rank 8 has.
const MOST_PATTERNS: usize = 1 << 8;

/// The plans of a table's chunk shapes, and which pattern of last digits has which: chunks with
/// the same last digits have boxes of the same shape.
struct Shapes {
    plans: Vec<Planned>,
    /// Last-digit bits, and the index of their plan.
    by_bits: Vec<(u32, usize)>,
}

impl Shapes {
    /// The plans of `table`'s chunk shapes ([`Planned::from_any_base`]), a box cut once per
    /// [`box_shape`], `other_base` the offset in the other tensor of its corner. `None` when the
    /// pair's offsets do not follow by additions (a plan would not serve every box of its
    /// shape), a box does not cut there or plan, or there are too many patterns.
    fn new(
        table: &Table<'_>,
        element_bytes: usize,
        other_base: impl Fn(&[usize; MAX_RANK]) -> usize,
        streaming: Streaming,
        source_ahead: usize,
    ) -> Option<Shapes> {
        if !table.pair.follows_by_additions() {
            return None;
        }
        let shape_of = box_shape(table);
        let mut plans = PlansByShape::new(MOST_PATTERNS);
        let mut by_bits = Vec::new();
        for (chunk, corner) in table.grid.each_pattern(MOST_PATTERNS)? {
            let plan = |_: &_| {
                let mut cut = table.cut(&chunk)?;
                if table.sides(&mut cut).1.base != other_base(&corner.origin) {
                    return None;
                }
                (cut.src.base, cut.dst.base) = (0, 0);
                Planned::from_any_base(&cut, element_bytes, streaming, source_ahead)
            };
            let (at, _) = plans.of(shape_of(&chunk.part), plan)?;
            by_bits.push((corner.last, at?));
        }
        let plans = plans.into_kept().collect();
        Some(Shapes { plans, by_bits })
    }

    /// Each shape's row walk where its plan is one row block ([`RowWalk::is_one_block`]).
    fn one_blocks<'s>(&'s self) -> Vec<Option<RowWalk<'s>>> {
        let one_block = |plan: &'s Planned| plan.row_walk().filter(RowWalk::is_one_block);
        self.plans.iter().map(one_block).collect()
    }

    /// Calls `run(job, n, origin)` for each chunk `n` of `pieces` (consecutive bands) of
    /// `table`, at `origin`, by its shape's row block in `blocks` or else its plan.
    fn each<'s>(
        &'s self,
        table: &Table<'_>,
        blocks: &'s [Option<RowWalk<'s>>],
        pieces: &[Band],
        mut run: impl FnMut(Job<'s>, usize, &[usize; MAX_RANK]),
    ) {
        let start = pieces.first().map_or(0, |piece| piece.chunks.start);
        let chunks = start..pieces.last().map_or(0, |piece| piece.chunks.end);
        let mut recent = (u32::MAX, 0);
        table.grid.each_chunk(chunks, |n, corner| {
            if corner.last != recent.0 {
                recent = (corner.last, self.index(corner.last));
            }
            let plan = Job::Planned(&self.plans[recent.1]);
            let job = blocks[recent.1].as_ref().map_or(plan, Job::Rows);
            run(job, n, &corner.origin);
        });
    }

    /// The index of the plan of chunks with last-digit bits `bits`.
    #[inline]
    fn index(&self, bits: u32) -> usize {
        match self.by_bits.iter().find(|(b, _)| *b == bits) {
            Some(&(_, at)) => at,
            None => unreachable!("every pattern of last digits was planned"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::tuning::ROW_SOURCE_AHEAD_BYTES;

    /// Croutons out of flat NHWC, `blocks` channel blocks of 32 bytes side by side, then the
    /// next pixel block 2 KiB on: chunks `first..first + len` in order.
    fn croutons(blocks: usize, first: usize, len: usize) -> Vec<usize> {
        let far = ROW_SOURCE_AHEAD_BYTES;
        (first..first + len)
            .map(|k| k / blocks * 2 * far + k % blocks * 32)
            .collect()
    }

    /// Each chunk asks for the same channel block of the next pixel block, however the chunks
    /// start; nothing where no step holds for all of them or none is far enough.
    #[test]
    fn chunks_ask_for_the_next_pixel_block() {
        let far = ROW_SOURCE_AHEAD_BYTES;
        let stride = |starts: &[usize]| source_stride(starts, 1);
        for (blocks, first) in [(8, 0), (10, 0), (10, 4), (10, 17), (1, 3)] {
            let starts = croutons(blocks, first, 40);
            assert_eq!(stride(&starts), 2 * far, "{blocks} blocks from {first}");
        }
        // Each chunk far from the last: the step to the next one.
        let starts: Vec<usize> = (0..4).map(|k| k * 3 * far).collect();
        assert_eq!(stride(&starts), 3 * far);
        // No chunk far enough; a step that breaks (the next image row); too few chunks.
        assert_eq!(stride(&[0, 32, 64]), 0);
        let mut broken = croutons(8, 0, 24);
        broken[16..].iter_mut().for_each(|start| *start += 5 * far);
        assert_eq!(stride(&broken), 0);
        assert_eq!(stride(&croutons(8, 0, 8)), 0);
    }
}
