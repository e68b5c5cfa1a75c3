//! A whole relayout: the plan, its listings, and the walk of the destination, on the calling
//! thread or split across threads; and plans made once ([`Prepared`]) and run from many
//! bases, such as each chunk of a chunk table.

use super::streaming::Streaming;
use super::walk::{Nest, SourceOffsets};
use crate::MAX_RANK;
use crate::relayout::kernels::{Element, Reach, RowBlock, RowBlocks};
use crate::relayout::plan::{Kernel, Listings, Pair, Plan, Point, ahead_if_far};
use core::ops::Range;

/// A plan and its listings, made once for a relayout whose offsets follow the walk by additions
/// and then run from any bases: the same copy between other slots of the same shape.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    plan: Plan,
    listings: Listings,
    reach: Reach,
    /// For a plan that is one row block (every loop listed in one kernel call): the innermost
    /// loop's data digits and the end of its padding, the same at every base.
    one_block: Option<(Range<usize>, usize)>,
}

impl Prepared {
    /// The copy `pair` describes for elements of `element_bytes` bytes; `None` when it has no
    /// element or its source offsets cannot follow the walk by additions.
    pub(crate) fn new(pair: &Pair, element_bytes: usize) -> Option<Prepared> {
        if pair.dims[..pair.rank].contains(&0) {
            return None;
        }
        let plan = Plan::new(pair, element_bytes);
        if plan.kernel == Kernel::Indexed {
            return None;
        }
        let listings = plan.listings(element_bytes);
        let reach = Reach::of(&listings.rows, &listings.cols);
        let one_block = (plan.kernel == Kernel::Rows && plan.len >= 2 && plan.kernel_from == 0)
            .then(|| {
                let (first, data_end, slot_end) = plan.bounds(plan.len - 1, &[0; MAX_RANK + 1]);
                (first..data_end, slot_end)
            });
        Some(Prepared {
            plan,
            listings,
            reach,
            one_block,
        })
    }

    /// Runs the plan from source offset `s` of `src` and destination offset `d` of `dst`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // both sides' slots and bases, and what the walk needs
    fn run<E: Element>(
        &self,
        src: &[E],
        s: usize,
        dst: &mut [E],
        d: usize,
        pad: E,
        streaming: Streaming,
        source_ahead: usize,
    ) {
        if self.plan.len == 0 {
            dst[d] = src[s];
            return;
        }
        let nest = Nest {
            plan: &self.plan,
            reach: self.reach,
            listings: &self.listings,
            src,
            pad,
            streaming,
            src_offset_of: &|_: &Point| unreachable!("a prepared plan follows by additions"),
            source_ahead,
        };
        match &self.one_block {
            Some((cols, slot_end)) => nest.rows(dst, s, d, cols.clone(), *slot_end),
            None => nest.data(dst, 0, s, d, &mut [0; MAX_RANK + 1]),
        }
    }

    /// Runs a plan that is one row block for each block of `blocks`, in one kernel call;
    /// `false` (nothing written) for any other plan.
    fn run_blocks<E: Element>(
        &self,
        blocks: &mut impl RowBlocks<E>,
        pad: E,
        streaming: Streaming,
    ) -> bool {
        let Some((cols, slot_end)) = &self.one_block else {
            return false;
        };
        let nest = Nest {
            plan: &self.plan,
            reach: self.reach,
            listings: &self.listings,
            src: &[],
            pad,
            streaming,
            src_offset_of: &|_: &Point| unreachable!("a prepared plan follows by additions"),
            source_ahead: 0,
        };
        nest.rows_of_blocks(blocks, cols.clone(), *slot_end);
        true
    }
}

/// The engine: plans the copy `pair` describes for elements `E`, then walks the destination.
pub(crate) fn run<E: Element>(
    pair: &Pair,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
    streaming: Option<Streaming>,
) {
    if pair.dims[..pair.rank].contains(&0) {
        return;
    }
    let plan = Plan::new(pair, size_of::<E>());
    if plan.len == 0 {
        dst[plan.dst_base] = src[offsets(&plan.origin)];
        return;
    }
    let streaming = streaming.unwrap_or_else(|| Streaming::for_destination(size_of_val(dst)));
    let listings = plan.listings(size_of::<E>());
    let nest = Nest {
        plan: &plan,
        reach: Reach::of(&listings.rows, &listings.cols),
        listings: &listings,
        src,
        pad,
        streaming,
        src_offset_of: offsets,
        // Only into a destination past the caches: through them, the prefetches cost more
        // than they save.
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
    let mut point: Point = [0; crate::MAX_RANK + 1];
    nest.data(dst, 0, plan.src_base, plan.dst_base, &mut point);
}

/// Runs `prepared` once for each `(chunk, d)` of `batch`: from the chunk's first slot into
/// `dst` from offset `d`.
pub(crate) fn run_from_chunks<E: Element>(
    prepared: &Prepared,
    batch: &[(&[E], usize)],
    dst: &mut [E],
    pad: E,
    streaming: Streaming,
) {
    if prepared.run_blocks(&mut FromChunks { batch, dst }, pad, streaming) {
        return;
    }
    for &(chunk, d) in batch {
        prepared.run(chunk, 0, dst, d, pad, streaming, 0);
    }
}

/// A batch of chunks out of a chunk table (each chunk from its first slot, into `dst` from
/// its offset) as row blocks.
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

/// A batch of chunks into a chunk table (each from its offset in `src`, into the chunk from
/// its first slot) as row blocks, each asking for its source rows `period` chunks on.
struct IntoChunks<'a, 'c, E> {
    src: &'a [E],
    batch: &'a mut [(usize, &'c mut [E])],
    period: Option<usize>,
}

impl<E> RowBlocks<E> for IntoChunks<'_, '_, E> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.batch.len()
    }

    #[inline(always)]
    fn block(&mut self, k: usize) -> RowBlock<'_, E> {
        let source_ahead = self
            .period
            .map_or(0, |period| source_ahead(self.batch, k, period));
        let (s, ref mut chunk) = self.batch[k];
        RowBlock {
            dst: chunk,
            d: 0,
            src: self.src,
            s,
            source_ahead,
        }
    }
}

/// Runs `prepared` once for each `(s, chunk)` of `batch`: from offset `s` of `src` into the
/// chunk from its first slot.
pub(crate) fn run_into_chunks<E: Element>(
    prepared: &Prepared,
    src: &[E],
    batch: &mut [(usize, &mut [E])],
    pad: E,
    streaming: Streaming,
) {
    // A source past the caches whose chunks gather rows from far apart (flat NHWC into
    // croutons): each chunk's rows ask for their counterparts in a chunk further on, as a row
    // block of a contiguous relayout asks for the next block's.
    let far_source = Streaming::for_destination(size_of_val(src)).blocks;
    let period = if far_source && prepared.listings.rows_spread {
        source_period(batch)
    } else {
        None
    };
    let mut blocks = IntoChunks { src, batch, period };
    if prepared.run_blocks(&mut blocks, pad, streaming) {
        return;
    }
    for k in 0..blocks.count() {
        let block = blocks.block(k);
        let (s, ahead) = (block.s, block.source_ahead);
        prepared.run(src, s, block.dst, 0, pad, streaming, ahead);
    }
}

/// The distance from chunk `from`'s rows in the source to chunk `to`'s, if it is
/// [far enough](ahead_if_far) to ask for ahead.
fn far<E>(batch: &[(usize, &mut [E])], from: usize, to: usize) -> usize {
    ahead_if_far(batch[to].0.saturating_sub(batch[from].0), size_of::<E>())
}

/// How many chunks on a batch's chunks ask for their rows: as many as to the first chunk whose
/// rows lie far enough from the first chunk's. The chunks in between read the lines that one
/// reads (croutons of one pixel block, channel blocks side by side in flat NHWC): their rows
/// would ask again for lines already asked for, and the lines a period on would come late.
/// `None` when no chunk lies far enough.
fn source_period<E>(batch: &[(usize, &mut [E])]) -> Option<usize> {
    (1..batch.len()).find(|&k| far(batch, 0, k) > 0)
}

/// How far on in the source chunk `k` asks for its rows: the distance to the chunk a period
/// on, or for the last period's chunks the distance from the chunk a period back.
fn source_ahead<E>(batch: &[(usize, &mut [E])], k: usize, period: usize) -> usize {
    if k + period < batch.len() {
        far(batch, k, k + period)
    } else if k >= period {
        far(batch, k - period, k)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::tuning::ROW_SOURCE_AHEAD_BYTES;
    use alloc::vec::Vec;

    /// The rows of a batch of chunks starting at `starts`, with chunks of one slot each.
    fn batch_at<'a>(starts: &[usize], slots: &'a mut [u8]) -> Vec<(usize, &'a mut [u8])> {
        starts.iter().copied().zip(slots.chunks_mut(1)).collect()
    }

    /// Croutons out of flat NHWC: eight channel blocks of 32 bytes side by side, then the
    /// next pixel block 2 KiB on. Each chunk asks for the one eight on (the same channel block
    /// of the next pixel block), the last eight by the stride before them.
    #[test]
    fn chunks_ask_a_period_ahead() {
        let far = ROW_SOURCE_AHEAD_BYTES;
        let starts: Vec<usize> = (0..20).map(|k| k / 8 * 2 * far + k % 8 * 32).collect();
        let mut slots = [0u8; 20];
        let batch = batch_at(&starts, &mut slots);
        assert_eq!(source_period(&batch), Some(8));
        let ahead: Vec<usize> = (0..20).map(|k| source_ahead(&batch, k, 8)).collect();
        assert!(ahead.iter().all(|&a| a == 2 * far), "{ahead:?}");

        // Each chunk far from the last: a period of one.
        let starts: Vec<usize> = (0..4).map(|k| k * 3 * far).collect();
        let batch = batch_at(&starts, &mut slots);
        assert_eq!(source_period(&batch), Some(1));
        assert_eq!(source_ahead(&batch, 0, 1), 3 * far);
        assert_eq!(source_ahead(&batch, 3, 1), 3 * far);

        // No chunk far enough, or a period longer than the batch: nothing asked for.
        let batch = batch_at(&[0, 32, 64], &mut slots);
        assert_eq!(source_period(&batch), None);
        let batch = batch_at(&[0, 32, 2 * far], &mut slots);
        assert_eq!(source_period(&batch), Some(2));
        assert_eq!(source_ahead(&batch, 0, 2), 2 * far);
        assert_eq!(source_ahead(&batch, 1, 2), 0);
        assert_eq!(source_ahead(&batch, 2, 2), 2 * far);
    }
}
