//! A whole relayout: the plan, its listings, and the walk of the destination, on the calling
//! thread or split across threads; and plans made once ([`Prepared`]) and run from many
//! bases, such as each chunk of a chunk table.

use super::streaming::Streaming;
use super::walk::{Nest, SourceOffsets};
use crate::mappings::MAX_RANK;
use crate::relayout::choices::Choices;
use crate::relayout::kernels::{Element, Reach, RowBlock, RowBlocks, each_block, rows_go_whole};
use crate::relayout::plan::{Kernel, Level, Listings, Pair, Plan, Point, ahead_if_far, list};
use core::ops::Range;

/// A plan and its listings, made once for a relayout whose offsets follow the walk by additions
/// and then run from any bases: the same copy between other slots of the same shape.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// The plan, uncut for threads, and its listings; the stores past the caches come per run.
    pub(super) planned: Planned,
    /// For a plan of row copies with loops outside the row: the innermost loop's data digits
    /// and the end of its padding at the origin, the same at every base; the same in every row
    /// block too where that loop needs no bounds, or where the plan is one row block.
    row_bounds: Option<(Range<usize>, usize)>,
}

impl Prepared {
    /// The copy `pair` describes; `None` when it moves nothing or cannot follow by additions.
    pub(crate) fn new(pair: &Pair, element_bytes: usize) -> Option<Prepared> {
        // A destination of no bytes stays on one thread, and the stores are given per run.
        let choices = Choices::of_this_machine();
        let planned = Planned::new(pair, element_bytes, 0, Some(Streaming::NONE), choices)?;
        let plan = &planned.plan;
        if plan.kernel == Kernel::Indexed {
            return None;
        }
        let row_bounds = (plan.kernel == Kernel::Rows && plan.len >= 2).then(|| {
            let (first, data_end, slot_end) = plan.bounds(plan.len - 1, &[0; MAX_RANK + 1]);
            (first..data_end, slot_end)
        });
        Some(Prepared {
            planned,
            row_bounds,
        })
    }

    /// This plan as a row walk; `None` unless it copies rows with no bounds outside the row block.
    pub(crate) fn row_walk(&self) -> Option<RowWalk<'_>> {
        let (plan, listings) = (&self.planned.plan, &self.planned.listings);
        let (cols, slot_end) = self.row_bounds.clone()?;
        let outer = &plan.levels[..plan.kernel_from];
        if outer.iter().any(|level| !plan.free[level.dim]) {
            return None;
        }
        if !plan.free[plan.levels[plan.len - 1].dim] && plan.kernel_from > 0 {
            // Bounds that could differ from block to block: the walk cannot list them once.
            return None;
        }
        // Without listed loops the row block is one row, copied by the innermost loop.
        let rows: &[(usize, usize)] = if plan.kernel_from + 1 == plan.len {
            &[(0, 0)]
        } else {
            &listings.rows
        };
        Some(RowWalk {
            outer,
            rows,
            cols,
            slot_end,
        })
    }

    /// This plan bound to `src`, its rows asking for their source `source_ahead` on.
    fn nest<'n, E: Element>(
        &'n self,
        src: &'n [E],
        pad: E,
        streaming: Streaming,
        source_ahead: usize,
    ) -> Nest<'n, E> {
        let planned = &self.planned;
        Nest {
            plan: &planned.plan,
            reach: planned.reach,
            listings: &planned.listings,
            src,
            pad,
            streaming,
            choices: &planned.choices,
            src_offset_of: &|_: &Point| unreachable!("a prepared plan follows by additions"),
            source_ahead,
        }
    }

    /// Runs the plan for each block of `blocks`: in one call where the plan is one row block.
    fn run_each<E: Element>(&self, blocks: &mut impl RowBlocks<E>, pad: E, streaming: Streaming) {
        match &self.row_bounds {
            Some((cols, slot_end)) if self.planned.plan.kernel_from == 0 => {
                // The blocks bring their own source slots and rows ahead.
                let nest = self.nest(&[], pad, streaming, 0);
                nest.rows_of_blocks(blocks, cols.clone(), *slot_end);
            }
            _ => each_block(blocks, false, |dst, d, src, s, ahead| {
                if self.planned.plan.len == 0 {
                    dst[d] = src[s];
                } else {
                    let nest = self.nest(src, pad, streaming, ahead.src);
                    nest.data(dst, 0, s, d, &mut [0; MAX_RANK + 1]);
                }
            }),
        }
    }
}

/// A prepared plan of row copies as plain offsets, for kernels that move its rows themselves
/// (out of and into a chunk table's chunks): its loops outside the row block need no bounds, so
/// each row block, at a sum of those loops' steps, copies the same listed rows.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk<'p> {
    /// The plan's loops outside the row block, outermost first.
    outer: &'p [Level],
    /// The rows of a block: source and destination offsets from the block's.
    pub rows: &'p [(usize, usize)],
    /// The elements of each row that are data.
    pub cols: Range<usize>,
    /// The end of each destination row's padding (`cols.end` when it has none).
    pub slot_end: usize,
}

impl RowWalk<'_> {
    /// Calls `visit(s, d)` with the source and destination offsets of each row block, in order.
    pub(crate) fn each_block(&self, mut visit: impl FnMut(usize, usize)) {
        list(self.outer).into_iter().for_each(|(s, d)| visit(s, d));
    }
}

/// A whole relayout planned once for one pair of mappings, element size and set of choices
/// ([`ready`]): running it again on other slots of the same shapes plans nothing.
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    pub(super) plan: Plan,
    pub(super) listings: Listings,
    reach: Reach,
    streaming: Streaming,
    choices: Choices,
    element_bytes: usize,
}

impl Planned {
    /// The plan of the copy `pair` describes into a destination of `dst_bytes`; `streaming`
    /// overrides the choice of stores past the caches. `None` when it moves nothing.
    pub(crate) fn new(
        pair: &Pair,
        element_bytes: usize,
        dst_bytes: usize,
        streaming: Option<Streaming>,
        choices: Choices,
    ) -> Option<Planned> {
        if pair.dims[..pair.rank].contains(&0) {
            return None;
        }
        let mut plan = Plan::new(pair, element_bytes);
        let (listings, reach, streaming) =
            ready(&mut plan, element_bytes, dst_bytes, streaming, &choices);
        Some(Planned {
            reach,
            plan,
            listings,
            streaming,
            choices,
            element_bytes,
        })
    }

    /// Runs the plan from `src` into `dst`, `pad` into every padding slot; `offsets` serves
    /// plans that cannot follow the source by additions.
    pub(crate) fn run<E: Element>(
        &self,
        src: &[E],
        dst: &mut [E],
        pad: E,
        offsets: &SourceOffsets<'_>,
    ) {
        let (plan, listings, reach) = (&self.plan, &self.listings, self.reach);
        let (streaming, choices) = (self.streaming, &self.choices);
        walk(
            plan, listings, reach, streaming, choices, src, dst, pad, offsets,
        );
    }

    /// What the plan does: its kernel and the tile it moves, the stores, and the choices.
    pub(crate) fn describe(&self) -> Description {
        let plan = &self.plan;
        let kernel = match plan.kernel {
            _ if plan.len == 0 => KernelKind::Single,
            Kernel::Rows => KernelKind::RowCopies {
                row: plan.levels[plan.len - 1].extent,
            },
            Kernel::Transpose { .. } => KernelKind::Transpose {
                rows: self.listings.rows.len(),
                cols: self.listings.cols.len(),
                tiles: self.listings.tiles.len(),
                whole_rows: rows_go_whole(&self.listings.cols, self.element_bytes, &self.choices),
            },
            Kernel::Strided => KernelKind::Strided,
            Kernel::Indexed => KernelKind::Indexed,
        };
        Description {
            kernel,
            streamed: self.streaming.blocks,
            choices: self.choices,
        }
    }
}

/// What one engine call runs: a relayout planned for this call, `streaming` overriding the
/// choice of stores past the caches; or a plan made before, for `T`'s size.
#[derive(Clone, Copy)]
pub(crate) enum Job<'a> {
    Fresh {
        pair: &'a Pair,
        streaming: Option<Streaming>,
        choices: &'a Choices,
    },
    Planned(&'a Planned),
}

/// What a [`Planned`] relayout does ([`Planned::describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    pub kernel: KernelKind,
    /// Whether its transposes and paired rows write past the caches.
    pub streamed: bool,
    pub choices: Choices,
}

/// The kernel of a plan, with the size of what one call moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KernelKind {
    /// One element.
    Single,
    /// Slice copies of rows of `row` elements (listed per call).
    RowCopies { row: usize },
    /// Cache-blocked transposes of tiles of `rows` by `cols`, `tiles` tiles per call; with
    /// `whole_rows`, every column block of a destination row in one visit.
    Transpose {
        rows: usize,
        cols: usize,
        tiles: usize,
        whole_rows: bool,
    },
    /// One strided element loop.
    Strided,
    /// Each source offset computed from the layout.
    Indexed,
}

/// The engine: plans the copy `pair` describes for elements `E`, then walks the destination.
/// The plan stays where it is made: a plan is a few KiB, and moving it into a [`Planned`]
/// costs a small relayout a noticeable share of its time.
pub(crate) fn run<E: Element>(
    pair: &Pair,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
    streaming: Option<Streaming>,
    choices: &Choices,
) {
    if pair.dims[..pair.rank].contains(&0) {
        return;
    }
    let (bytes, dst_bytes) = (size_of::<E>(), size_of_val(dst));
    let mut plan = Plan::new(pair, bytes);
    let (listings, reach, streaming) = ready(&mut plan, bytes, dst_bytes, streaming, choices);
    walk(
        &plan, &listings, reach, streaming, choices, src, dst, pad, offsets,
    );
}

/// Readies `plan` to run into a destination of `dst_bytes`: cut for threads where they share
/// it, its listings and their reach made, the stores past the caches chosen.
fn ready(
    plan: &mut Plan,
    element_bytes: usize,
    dst_bytes: usize,
    streaming: Option<Streaming>,
    choices: &Choices,
) -> (Listings, Reach, Streaming) {
    #[cfg(feature = "parallel")]
    if plan.len > 0 {
        super::parallel::cut_for_threads(plan, dst_bytes, element_bytes, choices);
    }
    let listings = plan.listings(element_bytes);
    let reach = Reach::of_listed(&listings.rows, &listings.cols);
    let streaming = streaming.unwrap_or_else(|| Streaming::for_destination(dst_bytes, choices));
    (listings, reach, streaming)
}

/// Walks the destination as `plan` says, from `src` into `dst`.
#[allow(clippy::too_many_arguments)] // the plan's parts, both sides' slots, and the pad
fn walk<E: Element>(
    plan: &Plan,
    listings: &Listings,
    reach: Reach,
    streaming: Streaming,
    choices: &Choices,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
) {
    if plan.len == 0 {
        dst[plan.dst_base] = src[offsets(&plan.origin)];
        return;
    }
    let nest = Nest {
        plan,
        reach,
        listings,
        src,
        pad,
        streaming,
        choices,
        src_offset_of: offsets,
        // Only past the caches: through them, the prefetches cost more than they save.
        source_ahead: if streaming.blocks {
            listings.row_source_ahead
        } else {
            0
        },
    };
    #[cfg(feature = "parallel")]
    if super::parallel::run(&nest, dst) {
        return;
    }
    let mut point: Point = [0; crate::mappings::MAX_RANK + 1];
    nest.data(dst, 0, plan.src_base, plan.dst_base, &mut point);
}

/// Runs `prepared` for each `(chunk, d)` of `batch`: from the chunk's first slot into `dst` at `d`.
pub(crate) fn run_from_chunks<E: Element>(
    prepared: &Prepared,
    batch: &[(&[E], usize)],
    dst: &mut [E],
    pad: E,
    streaming: Streaming,
) {
    prepared.run_each(&mut FromChunks { batch, dst }, pad, streaming);
}

/// The batch of [`run_from_chunks`] as row blocks.
struct FromChunks<'a, 'c, E> {
    batch: &'a [(&'c [E], usize)],
    dst: &'a mut [E],
}

impl<E> RowBlocks<E> for FromChunks<'_, '_, E> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.batch.len()
    }

    #[inline(always)]
    fn block(&mut self, k: usize) -> RowBlock<'_, E> {
        let (src, d) = self.batch[k];
        RowBlock {
            dst: &mut *self.dst,
            d,
            src,
            s: 0,
            source_ahead: 0,
        }
    }
}

/// The batch of [`run_into_chunks`] as row blocks, each asking for its rows `source_ahead` on.
struct IntoChunks<'a, 'c, E> {
    src: &'a [E],
    batch: &'a mut [(usize, &'c mut [E])],
    source_ahead: usize,
}

impl<E> RowBlocks<E> for IntoChunks<'_, '_, E> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.batch.len()
    }

    #[inline(always)]
    fn block(&mut self, k: usize) -> RowBlock<'_, E> {
        let (s, ref mut chunk) = self.batch[k];
        RowBlock {
            dst: chunk,
            d: 0,
            src: self.src,
            s,
            source_ahead: self.source_ahead,
        }
    }
}

/// Runs `prepared` for each `(s, chunk)` of `batch`: from `src` at `s` into the whole chunk.
pub(crate) fn run_into_chunks<E: Element>(
    prepared: &Prepared,
    src: &[E],
    batch: &mut [(usize, &mut [E])],
    pad: E,
    streaming: Streaming,
) {
    // A source past the caches whose chunks gather rows from far apart: each chunk's rows ask
    // for their counterparts in a chunk further on, as a contiguous relayout's row blocks do.
    let planned = &prepared.planned;
    let far_source = Streaming::for_destination(size_of_val(src), &planned.choices).blocks;
    let source_ahead = if far_source && planned.listings.rows_spread {
        source_stride(batch)
    } else {
        0
    };
    let mut blocks = IntoChunks {
        src,
        batch,
        source_ahead,
    };
    prepared.run_each(&mut blocks, pad, streaming);
}

/// How far on in the source each chunk of `batch` asks for its rows: the step by which the
/// chunks' rows advance every `p` chunks, for the fewest `p` (at most half the batch) with one
/// step over the whole batch that is [far enough](ahead_if_far); else 0.
fn source_stride<E>(batch: &[(usize, &mut [E])]) -> usize {
    let start = |k: usize| batch[k].0;
    (1..=batch.len() / 2)
        .find_map(|p| {
            let step = start(p).checked_sub(start(0))?;
            let steady = (p..batch.len()).all(|k| start(k).checked_sub(start(k - p)) == Some(step));
            let far = ahead_if_far(step, size_of::<E>());
            (steady && far > 0).then_some(far)
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::tuning::ROW_SOURCE_AHEAD_BYTES;
    use alloc::vec::Vec;

    /// Croutons out of flat NHWC, `blocks` channel blocks of 32 bytes side by side, then the
    /// next pixel block 2 KiB on: chunks `first..first + len` in order.
    fn croutons(blocks: usize, first: usize, len: usize) -> Vec<usize> {
        let far = ROW_SOURCE_AHEAD_BYTES;
        (first..first + len)
            .map(|k| k / blocks * 2 * far + k % blocks * 32)
            .collect()
    }

    /// Each chunk asks for the same channel block of the next pixel block, however the batch
    /// starts; nothing where no step holds for the whole batch or none is far enough.
    #[test]
    fn chunks_ask_for_the_next_pixel_block() {
        let far = ROW_SOURCE_AHEAD_BYTES;
        let mut slots = [0u8; 64];
        // Batches of chunks of one slot each, starting at `starts`.
        let mut stride = |starts: &[usize]| {
            let batch: Vec<(usize, &mut [u8])> =
                starts.iter().copied().zip(slots.chunks_mut(1)).collect();
            source_stride(&batch)
        };
        for (blocks, first) in [(8, 0), (10, 0), (10, 4), (10, 17), (1, 3)] {
            let starts = croutons(blocks, first, 40);
            assert_eq!(stride(&starts), 2 * far, "{blocks} blocks from {first}");
        }
        // Each chunk far from the last: the step to the next one.
        let starts: Vec<usize> = (0..4).map(|k| k * 3 * far).collect();
        assert_eq!(stride(&starts), 3 * far);
        // No chunk far enough; a step that breaks (the next image row); too short a batch.
        assert_eq!(stride(&[0, 32, 64]), 0);
        let mut broken = croutons(8, 0, 24);
        broken[16..].iter_mut().for_each(|start| *start += 5 * far);
        assert_eq!(stride(&broken), 0);
        assert_eq!(stride(&croutons(8, 0, 8)), 0);
    }
}
