//! Chunk by chunk: each chunk moves straight between its allocation and its box in the other
//! tensor. The plan of each chunk shape (inner chunks, and those cut by the dims' ends) is made
//! once per relayout and run from each chunk's own offsets, chunks going to the engine in
//! batches of one plan.

use super::{Table, walks_chunks};
use crate::relayout::by_size::{self, BATCH};
use crate::relayout::plan::{Grid, Pair, Part};
use crate::relayout::schedule::{Prepared, Streaming};
use crate::{Coords, Layout, MAX_RANK, Mapping};
use alloc::boxed::Box;
use alloc::vec::Vec;

/// Out of the table `chunks` (the pair's source) into `dst_slots` (of mapping `dst`), chunk
/// by chunk; `false`, with nothing written, when a chunk's box cannot be planned on its own.
pub(super) fn from_chunks<T, I, L2>(
    table: &Table<'_>,
    chunks: &[Box<[T]>],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    I: Coords,
    L2: Layout<Index = I>,
{
    let to = &table.pair.to;
    let dst_offset = |origin: &[usize; MAX_RANK]| {
        let mut index = I::splat(0);
        for d in 0..I::RANK {
            index[to[d]] = origin[d];
        }
        dst.offset(index)
    };
    let Some(shapes) = Shapes::new(table, true, size_of::<T>(), dst_offset) else {
        return false;
    };
    let streaming = Streaming::for_destination(size_of_val(dst_slots));
    let (mut recent, mut plan) = ((u32::MAX, 0), 0);
    let mut batch: [(&[T], usize); BATCH] = [(&[], 0); BATCH];
    let mut held = 0;
    table.grid.each_chunk(|n, corner| {
        if corner.last != recent.0 {
            recent = (corner.last, shapes.index(corner.last));
        }
        if held == BATCH || (held > 0 && recent.1 != plan) {
            let batch = &batch[..held];
            by_size::copy_from_chunks(&shapes.plans[plan], batch, dst_slots, pad, streaming);
            held = 0;
        }
        plan = recent.1;
        batch[held] = (&chunks[n], dst_offset(&corner.origin));
        held += 1;
    });
    let batch = &batch[..held];
    by_size::copy_from_chunks(&shapes.plans[plan], batch, dst_slots, pad, streaming);
    true
}

/// Out of `src_slots` (the pair's source, of mapping `src`) into the table `chunks`, chunk by
/// chunk; `false`, with nothing written, when a chunk's box cannot be planned on its own.
pub(super) fn into_chunks<T, L1>(
    table: &Table<'_>,
    src: &Mapping<L1>,
    src_slots: &[T],
    chunks: &mut [Box<[T]>],
    pad: T,
) -> bool
where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
{
    let to = &table.pair.to;
    let src_offset = |origin: &[usize; MAX_RANK]| {
        let mut index = L1::Index::splat(0);
        for d in 0..<L1::Index as Coords>::RANK {
            index[d] = origin[to[d]];
        }
        src.offset(index)
    };
    let Some(shapes) = Shapes::new(table, false, size_of::<T>(), src_offset) else {
        return false;
    };
    // Through the caches: the chunks are separate allocations whose lines need not lie on the
    // 64-byte grid, and a kernel call that streams some of them ends with a fence that waits
    // for every store before it, once per chunk.
    let streaming = Streaming::NONE;
    let (mut recent, mut plan) = ((u32::MAX, 0), 0);
    let mut batch: [(usize, &mut [T]); BATCH] = core::array::from_fn(|_| (0, Default::default()));
    let mut held = 0;
    let mut unwritten = chunks.iter_mut();
    table.grid.each_chunk(|_, corner| {
        if corner.last != recent.0 {
            recent = (corner.last, shapes.index(corner.last));
        }
        if held == BATCH || (held > 0 && recent.1 != plan) {
            let batch = &mut batch[..held];
            by_size::copy_into_chunks(&shapes.plans[plan], src_slots, batch, pad, streaming);
            held = 0;
        }
        plan = recent.1;
        let Some(chunk) = unwritten.next() else {
            unreachable!("the table holds a chunk for every corner")
        };
        batch[held] = (src_offset(&corner.origin), &mut chunk[..]);
        held += 1;
    });
    let batch = &mut batch[..held];
    by_size::copy_into_chunks(&shapes.plans[plan], src_slots, batch, pad, streaming);
    true
}

/// Most patterns of last digits a table may have to move chunk by chunk (each is looked at
/// once per relayout): more outer axes than a tensor of rank 8 has.
const MOST_PATTERNS: usize = 1 << 8;

/// The prepared plans of a table's chunk shapes, made before any chunk moves, and which
/// pattern of last digits has which.
///
/// The pair's offsets follow by additions, so its blocks of each dimension divide one another,
/// and the other tensor cuts every chunk's box at the same loops: two boxes whose extents agree,
/// and whose ranges that end at the dims reach the other tensor's padded extent equally far,
/// have the same cut, up to its bases. One plan serves each such shape.
struct Shapes {
    plans: Vec<Prepared>,
    /// Last-digit bits, and the index of their plan.
    by_bits: Vec<(u32, usize)>,
}

/// A box's extent per dimension, then how far it reaches into the other tensor's storage.
type Shape = [usize; 2 * MAX_RANK];

impl Shapes {
    /// The plans of `table`'s chunk shapes, the table the pair's source (`table_is_src`) or
    /// destination, of elements of `element_bytes`; `other_base` is the offset in the other
    /// tensor of a box's corner. `None` when the pair's offsets do
    /// not follow by additions, a box does not cut, or there are too many patterns.
    fn new(
        table: &Table<'_>,
        table_is_src: bool,
        element_bytes: usize,
        other_base: impl Fn(&[usize; MAX_RANK]) -> usize,
    ) -> Option<Shapes> {
        let (pair, grid, volume): (&Pair, &Grid, usize) = (table.pair, table.grid, table.volume);
        if !pair.follows_by_additions() {
            return None;
        }
        let (rank, to) = (pair.rank, &pair.to);
        let other = if table_is_src { &pair.dst } else { &pair.src };
        // The table's dims, and the other tensor's padded extents, in the table's numbering.
        let (mut dims, mut padded) = ([0; MAX_RANK], [0; MAX_RANK]);
        for (d, &at) in to.iter().enumerate().take(rank) {
            // Table dimension `t` is the other tensor's `o`.
            let (t, o) = if table_is_src { (d, at) } else { (at, d) };
            dims[t] = pair.dims[at];
            padded[t] = other.reach(o).max(dims[t]);
        }
        let shape_of = |part: &Part| {
            let mut shape: Shape = [0; 2 * MAX_RANK];
            for d in 0..rank {
                let end = if part.end[d] == dims[d] {
                    padded[d]
                } else {
                    part.end[d]
                };
                shape[d] = part.end[d] - part.start[d];
                shape[MAX_RANK + d] = end - part.start[d];
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
                    let part = if table_is_src {
                        part.renumbered(rank, to)
                    } else {
                        part
                    };
                    let mut cut = pair.part(&part)?;
                    let (table, other) = if table_is_src {
                        (&mut cut.src, &mut cut.dst)
                    } else {
                        (&mut cut.dst, &mut cut.src)
                    };
                    if !walks_chunks(table, n, 1, volume)
                        || other.base != other_base(&corner.origin)
                    {
                        return None;
                    }
                    (table.base, other.base) = (0, 0);
                    shapes.plans.push(Prepared::new(&cut, element_bytes)?);
                    planned.push(shape);
                    planned.len() - 1
                }
            };
            shapes.by_bits.push((corner.last, at));
        }
        Some(shapes)
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
