//! A relayout in numbers: what the plan needs of both mappings, with no type parameter left.

use crate::{Layout, Mapping, layouts::Axes, mappings::Coords, mappings::MAX_RANK};
use core::ops::Range;

/// Where each source dimension lands: `to[d]` is the destination dimension of source dimension
/// `d` (the same axis name); the identity for layouts with their names in the same order.
pub(crate) type Renumbering = [usize; crate::mappings::MAX_RANK];

/// The renumbering of layouts whose axes are in the same order.
#[cfg(test)]
pub(crate) const SAME_ORDER: Renumbering = [0, 1, 2, 3, 4, 5, 6, 7];

/// One side of a relayout in numbers: what the plan needs to know of one mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Side {
    /// The mapping's storage walk, in its own numbering of the dimensions.
    pub axes: Axes,
    /// Per dimension: the coordinate of the first element (non-zero in views starting part-way).
    pub origin: [usize; MAX_RANK],
    /// The storage offset the walk starts from.
    pub base: usize,
}

impl Side {
    /// The storage offsets the walk lies within: from its base to its last slot.
    pub(crate) fn slots(&self) -> Range<usize> {
        self.base..self.base + loops_reach(self.axes.iter().map(|a| (a.extent, a.stride)))
    }

    /// `mapping` as numbers.
    pub(crate) fn of<L: Layout>(mapping: &Mapping<L>) -> Self {
        let mut origin = [0; MAX_RANK];
        let at = mapping.origin();
        origin[..<L::Index as Coords>::RANK].copy_from_slice(at.as_ref());
        Side {
            axes: mapping.axes(),
            origin,
            base: mapping.base_offset(),
        }
    }
}

/// A relayout in numbers: both sides, the dims (destination numbering) and the renumbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pair {
    pub rank: usize,
    pub dims: [usize; MAX_RANK],
    pub src: Side,
    pub dst: Side,
    /// Where each source dimension lands in the destination.
    pub to: Renumbering,
    /// Whether the destination's gaps are padding, to be filled with the pad value.
    pub fills: bool,
}

impl Pair {
    /// Copying `src` into `dst`, source dimension `d` into destination dimension `to[d]` (the
    /// dims agree under `to`).
    pub(crate) fn of<L1: Layout, L2: Layout<Index = L1::Index>>(
        src: &Mapping<L1>,
        dst: &Mapping<L2>,
        to: &Renumbering,
    ) -> Self {
        let rank = <L1::Index as Coords>::RANK;
        let mut dims = [0; MAX_RANK];
        dims[..rank].copy_from_slice(dst.dims().as_ref());
        Pair {
            rank,
            dims,
            src: Side::of(src),
            dst: Side::of(dst),
            to: *to,
            fills: dst.layout().gaps_are_padding(),
        }
    }
}

/// How far loops (or axes) of `(extent, step)` reach: one past their largest sum of steps.
pub(super) fn loops_reach(loops: impl Iterator<Item = (usize, usize)>) -> usize {
    let farthest: usize = loops.map(|(extent, step)| (extent - 1) * step).sum();
    farthest + 1
}
