//! A whole relayout: the plan, its listings, and the walk of the destination, on the calling
//! thread or split across threads; and plans made once ([`Prepared`]) and run from many
//! bases, such as each chunk of a chunk table.

use super::streaming::Streaming;
use super::walk::{Nest, SourceOffsets};
use crate::MAX_RANK;
use crate::relayout::kernels::{Element, Reach};
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
    for &(chunk, d) in batch {
        prepared.run(chunk, 0, dst, d, pad, streaming, 0);
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
    // croutons): each chunk's rows ask for the next chunk's, as a row block of a contiguous
    // relayout asks for the next block's.
    let far_source = Streaming::for_destination(size_of_val(src)).blocks;
    let spread = far_source && prepared.listings.rows_spread;
    for k in 0..batch.len() {
        let s = batch[k].0;
        let next = batch.get(k + 1).map_or(s, |next| next.0);
        let ahead = if spread {
            ahead_if_far(next.saturating_sub(s), size_of::<E>())
        } else {
            0
        };
        prepared.run(src, s, batch[k].1, 0, pad, streaming, ahead);
    }
}
