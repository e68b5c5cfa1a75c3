//! Chunk by chunk: each chunk moves straight between its allocation and its box in the other
//! tensor, by the plan of its shape ([`Shapes`]) run from its own offsets, in batches of one
//! plan. Runs of chunks go to different threads ([`split`]).

use super::{Dim, Table, TableMove, split};
use crate::mappings::MAX_RANK;
use crate::relayout::by_size::{self, BATCH};
use crate::relayout::choices::Choices;
use crate::relayout::plan::{Band, Grid, Pair, Part, coverage};
use crate::relayout::schedule::{Prepared, Streaming};
use alloc::vec::Vec;
use core::ops::Range;

/// The relayout `moves` chunk by chunk, `other_offset` the offset in the other tensor of a
/// chunk's corner; `false`, with nothing written, when a chunk's box cannot be planned alone.
pub(super) fn move_chunks<T: Copy + Send + Sync + 'static>(
    table: &Table<'_>,
    moves: TableMove<'_, T>,
    pad: T,
    other_offset: impl Fn(&[usize; MAX_RANK]) -> usize + Copy + Sync,
) -> bool {
    let Some(shapes) = Shapes::new(table, size_of::<T>(), other_offset) else {
        return false;
    };
    let chunk_bytes = table.volume * size_of::<T>();
    match moves {
        TableMove::Out { chunks, dst_slots } => {
            // Past the caches, rows ask for their destination lines ahead on every machine: a
            // chunk's rows land in lines that later chunks complete.
            let streaming =
                Streaming::for_destination(size_of_val(dst_slots), &Choices::of_this_machine());
            let streaming = Streaming {
                far_rows: streaming.blocks,
                ..streaming
            };
            let pieces = split::pieces(table, chunk_bytes, size_of_val(dst_slots));
            split::in_pieces(table, &pieces, dst_slots, &|pieces, dst_slots, at| {
                let chunk = |n: usize, origin: &[usize; MAX_RANK]| {
                    (chunks.get(n), other_offset(origin) - at)
                };
                shapes.in_batches(table, split::chunks_of(pieces), chunk, |plan, batch| {
                    by_size::copy_from_chunks(plan, batch, dst_slots, pad, streaming);
                });
                true
            })
        }
        TableMove::In { src_slots, chunks } => {
            // Through the caches: the chunks' lines need not lie on the 64-byte grid, and a
            // kernel call that streams ends with a fence for every store before it, per chunk.
            let streaming = Streaming::NONE;
            let pieces = split::pieces(table, chunk_bytes, chunk_bytes * chunks.len());
            split::in_pieces(table, &pieces, chunks, &|pieces, chunks, _| {
                let mut unwritten = chunks.each_mut();
                let chunk = |_, origin: &[usize; MAX_RANK]| {
                    let Some(chunk) = unwritten.next() else {
                        unreachable!("the table holds a chunk for every corner")
                    };
                    (other_offset(origin), chunk)
                };
                shapes.in_batches(table, split::chunks_of(pieces), chunk, |plan, batch| {
                    by_size::copy_into_chunks(plan, src_slots, batch, pad, streaming);
                });
                true
            })
        }
    }
}

/// Most patterns of last digits a table may have to move chunk by chunk (each is looked at
/// once per relayout): more outer axes than a tensor of rank 8 has.
const MOST_PATTERNS: usize = 1 << 8;

/// The prepared plans of a table's chunk shapes, and which pattern of last digits has which.
/// The pair's offsets follow by additions, so two boxes of equal extents that reach the other
/// tensor's padded extent equally far have the same cut, up to its bases: one plan per shape.
struct Shapes {
    plans: Vec<Prepared>,
    /// Last-digit bits, and the index of their plan.
    by_bits: Vec<(u32, usize)>,
}

/// A box's extent per dimension, then how far it reaches into the other tensor's storage.
type Shape = [usize; 2 * MAX_RANK];

impl Shapes {
    /// The plans of `table`'s chunk shapes; `other_base` is the offset in the other tensor of a
    /// box's corner. `None` when the pair's offsets do not follow by additions, a box does not
    /// cut, or there are too many patterns.
    fn new(
        table: &Table<'_>,
        element_bytes: usize,
        other_base: impl Fn(&[usize; MAX_RANK]) -> usize,
    ) -> Option<Shapes> {
        let (pair, grid, table_is_src): (&Pair, &Grid, bool) =
            (table.pair, &table.grid, table.is_src);
        if !pair.follows_by_additions() {
            return None;
        }
        let rank = pair.rank;
        let other = if table_is_src { &pair.dst } else { &pair.src };
        // The table's dims, and the other tensor's padded extents, in the table's numbering.
        let (mut dims, mut padded) = ([0; MAX_RANK], [0; MAX_RANK]);
        for dim in Dim::each(pair, table_is_src) {
            dims[dim.table] = pair.dims[dim.dst];
            padded[dim.table] = coverage(&other.axes, dim.other).max(dims[dim.table]);
        }
        let shape_of = |part: &Part| {
            let mut shape: Shape = [0; 2 * MAX_RANK];
            for d in 0..rank {
                let (start, end) = (part.start[d], part.end[d]);
                shape[d] = end - start;
                shape[MAX_RANK + d] = if end == dims[d] { padded[d] } else { end } - start;
            }
            shape
        };
        let mut shapes = Shapes {
            plans: Vec::new(),
            by_bits: Vec::new(),
        };
        let mut planned: Vec<Shape> = Vec::new();
        for (n, corner) in grid.each_pattern(MOST_PATTERNS)? {
            let part = grid.part(&corner);
            let shape = shape_of(&part);
            let at = match planned.iter().position(|p| *p == shape) {
                Some(at) => at,
                None => {
                    let mut cut = table.cut(&Band {
                        chunks: n..n + 1,
                        part,
                    })?;
                    let (_, other) = table.sides(&mut cut);
                    if other.base != other_base(&corner.origin) {
                        return None;
                    }
                    other.base = 0;
                    shapes.plans.push(Prepared::new(&cut, element_bytes)?);
                    planned.push(shape);
                    planned.len() - 1
                }
            };
            shapes.by_bits.push((corner.last, at));
        }
        Some(shapes)
    }

    /// Runs the chunks `chunks` of `table` in batches of at most [`BATCH`] of one plan:
    /// `item(n, origin)` is what the engine needs of chunk `n` at `origin`.
    fn in_batches<B: Default>(
        &self,
        table: &Table<'_>,
        chunks: Range<usize>,
        mut item: impl FnMut(usize, &[usize; MAX_RANK]) -> B,
        mut run: impl FnMut(&Prepared, &mut [B]),
    ) {
        let (mut recent, mut plan) = ((u32::MAX, 0), 0);
        let mut batch: [B; BATCH] = core::array::from_fn(|_| B::default());
        let mut held = 0;
        table.grid.each_chunk(chunks, |n, corner| {
            if corner.last != recent.0 {
                recent = (corner.last, self.index(corner.last));
            }
            if held == BATCH || (held > 0 && recent.1 != plan) {
                run(&self.plans[plan], &mut batch[..held]);
                held = 0;
            }
            plan = recent.1;
            batch[held] = item(n, &corner.origin);
            held += 1;
        });
        run(&self.plans[plan], &mut batch[..held]);
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
