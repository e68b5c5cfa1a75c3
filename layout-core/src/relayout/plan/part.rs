//! A part of a relayout: both sides cut to one box of logical coordinates, so that a chunk of
//! a chunk table, or a band of chunks, moves alone, out of or into the other tensor's part.
//!
//! A side's axes of one dimension write its coordinate as a mixed-radix number; a range of it
//! is a part of the storage walk when it is a run of digits of one axis, every finer axis whole
//! and every coarser one at one digit: the same walk with those extents and a moved base. A
//! range ending where the dimension ends reaches on to the padded extent, to fill the padding.

use super::axes::{exact_chain, sorted};
use super::pair::{Pair, Side};
use crate::{layouts::MAX_AXES, mappings::MAX_RANK};
use core::ops::Range;

/// A box of logical coordinates: per dimension `d`, the range `start[d]..end[d]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub start: [usize; MAX_RANK],
    pub end: [usize; MAX_RANK],
}

impl Pair {
    /// The relayout of the box `part` (in the source's numbering if `by_src`, else the
    /// destination's) alone, both sides cut to it; `None` when the box is empty, leaves the
    /// dims, or a side cannot be [cut](Side::cut).
    pub(crate) fn part(&self, part: &Part, by_src: bool) -> Option<Pair> {
        let (rank, mut src_part, mut dst_part) = (self.rank, *part, *part);
        let mut src_dims = [0; MAX_RANK];
        for (d, &at) in self.to.iter().enumerate().take(rank) {
            src_dims[d] = self.dims[at];
            if by_src {
                (dst_part.start[at], dst_part.end[at]) = (part.start[d], part.end[d]);
            } else {
                (src_part.start[d], src_part.end[d]) = (part.start[at], part.end[at]);
            }
        }
        let (start, end) = (dst_part.start, dst_part.end);
        if !(0..rank).all(|d| start[d] < end[d] && end[d] <= self.dims[d]) {
            return None;
        }
        Some(Pair {
            dims: core::array::from_fn(|d| if d < rank { end[d] - start[d] } else { 0 }),
            src: self.src.cut(&src_dims[..rank], &src_part)?,
            dst: self.dst.cut(&self.dims[..rank], &dst_part)?,
            ..*self
        })
    }
}

impl Side {
    /// This side, of `dims` (in its own numbering), cut to the box `part`; `None` where a range
    /// of the box is not [a part of its walk](self) or the side starts part-way into its axes.
    pub(crate) fn cut(&self, dims: &[usize], part: &Part) -> Option<Side> {
        if self.origin.iter().any(|&o| o != 0) {
            return None;
        }
        let mut side = *self;
        for (d, &dim) in dims.iter().enumerate() {
            let range = part.start[d]..part.end[d];
            if range != (0..dim) {
                side.cut_dim(d, dim, range)?;
            }
        }
        Some(side)
    }

    /// Cuts dimension `d` (of extent `dim`) to `range`.
    fn cut_dim(&mut self, d: usize, dim: usize, range: Range<usize>) -> Option<()> {
        if !exact_chain(&self.axes, d) {
            return None;
        }
        // The axes of `d`, finest first: their steps, extents and places in the walk.
        let of_d = self.axes.iter().enumerate().filter(|(_, a)| a.dim == d);
        let (of_d, n) = sorted::<_, MAX_AXES>(of_d.map(|(k, a)| (a.step, a.extent, k)));
        let of_d = &of_d[..n];
        let &(step, extent, _) = of_d.last()?;
        let padded = step * extent;
        let end = if range.end == dim { padded } else { range.end };
        // The finest axis whose digits run over exactly the range, inside one digit of the
        // coarser axes.
        let pick = of_d.iter().position(|&(step, extent, _)| {
            let span = step * extent;
            range.start.is_multiple_of(step)
                && end.is_multiple_of(step)
                && range.start / span == (end - 1) / span
        })?;
        let digits = (end - range.start) / of_d[pick].0;
        let mut axes = [crate::layouts::Axis::default(); MAX_AXES];
        axes[..self.axes.len()].copy_from_slice(&self.axes);
        for (i, &(_, _, k)) in of_d.iter().enumerate().skip(pick) {
            let axis = &mut axes[k];
            let digit = range.start / axis.step % axis.extent;
            self.base += digit * axis.stride;
            axis.extent = if i == pick { digits } else { 1 };
        }
        self.axes = crate::layouts::Axes::from_slice(&axes[..self.axes.len()]);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mapping;
    use crate::relayout::plan::SAME_ORDER;
    use crate::relayout::test_layouts::{Crouton, FourDims, NChw16c};

    /// The box `start..end` of a rank-4 mapping (zero past the rank).
    fn part(start: [usize; 4], end: [usize; 4]) -> Part {
        let widen = |a: [usize; 4]| core::array::from_fn(|d| a.get(d).copied().unwrap_or(0));
        let (start, end) = (widen(start), widen(end));
        Part { start, end }
    }

    /// The slots of a side's walk, in walk order.
    fn slots(side: &Side) -> alloc::vec::Vec<usize> {
        let mut out = alloc::vec![side.base];
        for axis in side.axes.iter().rev() {
            out = (0..axis.extent)
                .flat_map(|i| out.iter().map(move |s| s + i * axis.stride))
                .collect();
        }
        out.sort_unstable();
        out
    }

    /// The storage slots of `mapping` whose padded coordinates lie in the box, the box's last
    /// range of a dimension reaching to the padded extent where it ends at the dims.
    fn slots_in_box<L: FourDims>(m: &Mapping<L>, p: &Part) -> alloc::vec::Vec<usize> {
        let dims = m.dims();
        (0..m.storage_len())
            .filter(|&slot| {
                let i = m.padded_index_of(slot).unwrap();
                (0..4).all(|d| p.start[d] <= i[d] && (i[d] < p.end[d] || p.end[d] == dims[d]))
            })
            .collect()
    }

    /// A cut side walks exactly its box's slots (safe code; slow under Miri: every slot's index).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn a_cut_side_walks_the_slots_of_its_box() {
        let m = Mapping::<Crouton>::new([2, 11, 9, 40]).unwrap();
        let side = Side::of(&m);
        let dims = m.dims();
        for p in [
            part([1, 0, 0, 0], [2, 11, 9, 40]),
            part([0, 8, 0, 0], [1, 11, 9, 40]),
            part([1, 8, 8, 0], [2, 11, 9, 40]),
            part([0, 0, 8, 32], [1, 8, 9, 40]),
            part([0, 0, 0, 0], [2, 8, 9, 40]),
            part([0, 0, 0, 0], [1, 8, 8, 32]),
        ] {
            let cut = side.cut(&dims, &p).unwrap();
            assert_eq!(slots(&cut), slots_in_box(&m, &p), "{p:?}");
        }
        let n = Mapping::<NChw16c>::new([2, 40, 3, 5]).unwrap();
        let p = part([0, 16, 1, 0], [2, 40, 3, 5]);
        let cut = Side::of(&n).cut(&n.dims(), &p).unwrap();
        assert_eq!(slots(&cut), slots_in_box(&n, &p));
    }

    /// Boxes whose ranges start or end inside a block cut neither a side nor a pair.
    #[test]
    fn ranges_across_blocks_do_not_cut() {
        let m = Mapping::<Crouton>::new([1, 19, 17, 70]).unwrap();
        let side = Side::of(&m);
        let dims = m.dims();
        for p in [
            part([0, 4, 0, 0], [1, 12, 17, 70]),
            part([0, 0, 0, 16], [1, 19, 17, 48]),
            part([0, 0, 0, 0], [1, 12, 17, 70]),
        ] {
            assert!(side.cut(&dims, &p).is_none(), "{p:?}");
        }
        // Past the dims, and empty.
        let pair = Pair::of(&m, &m, &SAME_ORDER);
        for (end, by_src) in [([1, 20, 17, 70], false), ([1, 8, 17, 70], true)] {
            assert!(pair.part(&part([0, 8, 0, 0], end), by_src).is_none());
        }
    }
}
