//! Relayout: copying a tensor's logical elements into another layout, at memory speed.
//!
//! A relayout is planned once per call ([`plan`]): the destination's storage walk is split at
//! the source's block boundaries until both offsets advance by constants, neighbouring loops
//! that stay contiguous on both sides are fused, and the innermost loop gets a kernel — slice
//! copies when both sides are contiguous there, cache-blocked tiles when the two sides are
//! contiguous along different loops (NCHW <-> NHWC, plain <-> channel blocks), a strided loop
//! otherwise. The walk ([`nest`]) writes the destination's padding in the same pass, so every
//! destination slot is written exactly once. Layouts whose offsets cannot follow the walk by
//! additions (a Sophgo tensor starting part-way into its NPUs) are served by the same walk with
//! the source offset computed per element.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod kernels;
mod nest;
#[cfg(feature = "parallel")]
mod parallel;
mod plan;
mod row_copies;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod simd;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod stores;
mod tuning;

use crate::{Coords, Layout, Mapping};
use nest::Nest;
use plan::{Plan, Point};

/// Writes every logical element of `src_slots` (laid out by `src`) into `dst_slots` (laid out by
/// `dst`, same dims), and `pad` into every padding slot of `dst`.
pub(crate) fn copy_into<T, L1, L2>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
) where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    debug_assert_eq!(src.dims(), dst.dims());
    if dst.dims().as_ref().contains(&0) {
        return;
    }
    let plan = Plan::new(src, dst, size_of::<T>());
    let src_origin = src.origin();
    let dst_origin = dst.origin();
    let src_offset_of = |p: &Point| {
        let mut index = L1::Index::splat(0);
        for d in 0..<L1::Index as Coords>::RANK {
            index[d] = p[d] - dst_origin[d];
        }
        let _ = src_origin;
        src.offset(index)
    };
    let listings = plan.listings(size_of::<T>());
    let nest = Nest {
        plan: &plan,
        reach: kernels::Reach::of(&listings.rows, &listings.cols),
        listings: &listings,
        src: src_slots,
        pad,
        stream: size_of_val(dst_slots) >= nest::STREAM_MIN_BYTES,
        src_offset_of,
    };
    if plan.len == 0 {
        dst_slots[plan.dst_base] = src_slots[src.offset(L1::Index::splat(0))];
        return;
    }
    #[cfg(feature = "parallel")]
    if parallel::run(&nest, dst_slots) {
        return;
    }
    let mut point: Point = [0; crate::MAX_RANK + 1];
    nest.data(dst_slots, 0, plan.src_base, plan.dst_base, &mut point);
}
