//! A whole relayout: the plan, its listings, and the walk of the destination, on the calling
//! thread or split across threads.

use super::streaming::Streaming;
use super::walk::{Nest, SourceOffsets};
use crate::relayout::kernels::{Element, Reach};
use crate::relayout::plan::{Pair, Plan, Point};

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
    };
    #[cfg(feature = "parallel")]
    if super::parallel::run(&nest, dst) {
        return;
    }
    let mut point: Point = [0; crate::MAX_RANK + 1];
    nest.data(dst, 0, plan.src_base, plan.dst_base, &mut point);
}
