//! The plan of a relayout: the destination's storage walk, cut finely enough that the source
//! offset is a sum of one stride per loop, with loops fused where both sides allow. Both layouts
//! describe themselves as nested loops ([`Axis`](crate::layouts::Axis)); cutting at the union
//! of both sides' steps for a dimension, where they divide one another, leaves no division per
//! element. Everything here runs once per plan.

mod axes;
mod divisors;
mod listings;
mod long_runs;
mod loops;
mod pair;
mod part;
mod table;
// Used by the `parallel` feature's split; tested without it too.
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
mod thread_order;

pub(crate) use axes::coverage;
pub(crate) use listings::{LineRows, Listings, ahead_if_far, list};
pub(crate) use loops::{Kernel, Level, Plan, Point};
#[cfg(test)]
pub(crate) use pair::SAME_ORDER;
pub(crate) use pair::{Pair, Renumbering, Side};
pub(crate) use part::Part;
pub(crate) use table::{Band, Grid};
#[cfg(feature = "parallel")]
pub(crate) use {loops::MAX_LEVELS, thread_order::destination_reach};

#[cfg(test)]
use crate::relayout::test_layouts::FourDims;

/// The pair of `A -> B` on `dims` (in `A`'s order), dimension `d` of `A` being dimension
/// `to[d]` of `B`.
#[cfg(test)]
pub(crate) fn pair_of<A: FourDims, B: FourDims>(dims: [usize; 4], to: &Renumbering) -> Pair {
    let mut dst_dims = dims;
    (0..4).for_each(|d| dst_dims[to[d]] = dims[d]);
    let src = crate::Mapping::<A>::new(dims).unwrap();
    let dst = crate::Mapping::<B>::new(dst_dims).unwrap();
    Pair::of(&src, &dst, to)
}
