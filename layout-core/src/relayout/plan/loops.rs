//! The plan's loops (the destination's walk, split and fused as [the module](super) says) and
//! the kernel for the innermost ones.

use super::axes::{coverage, exact_chain, renumbered, significant, sorted};
use super::axes::{src_stride, steps_divide};
use super::divisors::largest_divisor_within;
use super::pair::{Pair, loops_reach};
use crate::fuse::fuse_neighbours;
use crate::relayout::tuning::{CACHE_LINE, MAX_LISTED, ROW_BLOCK_ENOUGH, TILE_BATCH_ENOUGH};
use crate::{layouts::Axes, layouts::MAX_AXES, mappings::MAX_RANK};
use core::{array::from_fn, cmp::Reverse, ops::Range};

/// The most loops a plan may have: every destination axis split at every source boundary.
pub(crate) const MAX_LEVELS: usize = 2 * MAX_AXES;

/// The pseudo-dimension of a loop fused from loops of several dimensions that never need
/// bounds (its coordinate is kept in a scratch slot of the index and never compared).
pub(crate) const FUSED: usize = MAX_RANK;

/// Virtual coordinates of the walk: one per dimension plus the scratch slot for [`FUSED`].
pub(crate) type Point = [usize; MAX_RANK + 1];

/// One loop of the plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Level {
    /// Logical dimension (or [`FUSED`]).
    pub dim: usize,
    /// Number of digit values.
    pub extent: usize,
    /// Coordinate advance of `dim` per digit.
    pub step: usize,
    /// Source offset advance per digit (unused by the index-driven kernel).
    pub src: usize,
    /// Destination offset advance per digit.
    pub dst: usize,
    /// Whether no later loop belongs to `dim`: the loop whose bounds are exact.
    pub last_of_dim: bool,
}

/// How the innermost loop moves elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Both sides contiguous along the innermost loop: slice copies, two loops per call.
    Rows,
    /// A transpose in cache-blocked tiles: loops `rows..cols` (the tile's rows) advance the
    /// source through one contiguous run, loops `cols..len` (its columns) the destination.
    Transpose { rows: usize, cols: usize },
    /// Any other affine pair: one strided element loop.
    Strided,
    /// The source offset cannot follow the walk by additions
    /// ([`Pair::follows_by_additions`]): each element's comes from the source's offset function.
    Indexed,
}

/// A relayout plan for one pair of mappings with equal dims.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub levels: [Level; MAX_LEVELS],
    pub len: usize,
    pub kernel: Kernel,
    pub src_base: usize,
    pub dst_base: usize,
    /// Per dimension: virtual coordinate of the first element (the destination's origin).
    pub origin: Point,
    /// Per dimension: first virtual coordinate past the data (`origin + dims`).
    pub data_end: Point,
    /// Per dimension: first virtual coordinate past the slots the walk fills with the pad (the
    /// padded extent; `data_end` when gaps are not padding).
    pub slot_end: Point,
    /// Whether the destination has padding slots to fill.
    pub fills: bool,
    /// `flat_fill[k]`: the subtree under loop `k` is a dense block of destination slots with no
    /// bounds inside it, so a run of its digits is one contiguous fill.
    pub flat_fill: [bool; MAX_LEVELS],
    /// Per dimension: whether its loops never need bounds (every digit is data).
    pub free: [bool; MAX_RANK + 1],
    /// The first loop one kernel call covers: for [`Kernel::Rows`], the row block's loops, whose
    /// rows are listed once per relayout (`len - 1`: none); for [`Kernel::Transpose`], the
    /// batch's loops outside the tile rows (`rows`: one tile a call); for the others, `len - 1`.
    pub kernel_from: usize,
}

impl Pair {
    /// Whether the source offset follows the destination's walk by additions: both sides start
    /// at their axes' origin, count each dimension as one mixed-radix number, and their blocks
    /// of each dimension divide one another.
    pub(crate) fn follows_by_additions(&self) -> bool {
        let dst_axes = significant(&self.dst.axes);
        let src_axes = significant(&renumbered(&self.src.axes, &self.to));
        self.affine(&dst_axes, &src_axes)
    }

    /// [`Pair::follows_by_additions`], given both sides' significant axes (destination numbering).
    fn affine(&self, dst_axes: &Axes, src_axes: &Axes) -> bool {
        self.src.origin.iter().all(|&o| o == 0)
            && self.dst.origin.iter().all(|&o| o == 0)
            && (0..self.rank).all(|d| exact_chain(dst_axes, d) && exact_chain(src_axes, d))
            && (0..self.rank).all(|d| steps_divide(dst_axes, src_axes, d))
    }
}

impl Plan {
    /// Plans the copy `pair` describes for elements of `element_bytes` bytes, every dimension in
    /// the destination's numbering, so a conversion between axis orders plans like one within one.
    pub(crate) fn new(pair: &Pair, element_bytes: usize) -> Self {
        let (rank, dims, src, dst) = (pair.rank, &pair.dims, &pair.src, &pair.dst);
        let dst_axes = significant(&dst.axes);
        let src_axes = significant(&renumbered(&src.axes, &pair.to));
        // Past the rank, and in the fused pseudo-dimension's slot: no origin and no end.
        let (mut origin, mut data_end): (Point, Point) = ([0; _], [usize::MAX; _]);
        for d in 0..rank {
            (origin[d], data_end[d]) = (dst.origin[d], dst.origin[d] + dims[d]);
        }
        let slot_end: Point = from_fn(|d| match pair.fills && d < rank {
            true => coverage(&dst_axes, d).max(data_end[d]),
            false => data_end[d],
        });
        let affine = pair.affine(&dst_axes, &src_axes);
        let mut plan = Plan {
            levels: [Level::default(); MAX_LEVELS],
            len: 0,
            kernel: Kernel::Indexed,
            src_base: src.base,
            dst_base: dst.base,
            origin,
            data_end,
            slot_end,
            fills: pair.fills,
            flat_fill: [false; MAX_LEVELS],
            free: [false; MAX_RANK + 1],
            kernel_from: 0,
        };
        // Without additions the source cuts nothing: one loop per destination axis.
        let cuts = if affine { src_axes } else { Axes::collect([]) };
        plan.refine(&dst_axes, &cuts);
        if affine {
            plan.fuse(rank); // also notes which dimensions are bound-free
            plan.kernel = plan.choose_kernel(element_bytes);
        }
        plan.split_for_row_block();
        plan.mark_inner_loops(rank);
        plan.kernel_from = plan.kernel_start(element_bytes);
        plan
    }

    /// Digit ranges of loop `k` at point `p` of the walk: `(first, data_end, slot_end)`, the
    /// digits before `first` lying before the destination's origin, those from `data_end` in
    /// its padding, and those from `slot_end` past its padded extent.
    #[inline]
    pub(crate) fn bounds(&self, k: usize, p: &Point) -> (usize, usize, usize) {
        let level = &self.levels[k];
        if self.free[level.dim] {
            // Every digit is data (the fused pseudo-dimension is always free).
            return (0, level.extent, level.extent);
        }
        let at = p[level.dim];
        let digits_below = |end: usize| {
            let gap = end.saturating_sub(at);
            let digits = if level.step == 1 {
                gap
            } else {
                gap.div_ceil(level.step)
            };
            digits.min(level.extent)
        };
        let slot_end = digits_below(self.slot_end[level.dim]);
        let data_end = digits_below(self.data_end[level.dim]);
        let origin = self.origin[level.dim];
        let first = if level.last_of_dim && at < origin {
            (origin - at).div_ceil(level.step).min(slot_end)
        } else {
            0
        };
        (first, data_end.max(first), slot_end)
    }

    /// The first loop one kernel call covers ([`Plan::kernel_from`]).
    pub(super) fn kernel_start(&self, element_bytes: usize) -> usize {
        let inner = self.len.saturating_sub(1);
        match self.kernel {
            Kernel::Rows => self.listed_start(inner, 1, ROW_BLOCK_ENOUGH).0,
            Kernel::Transpose { rows, .. } => {
                let tile_bytes = self.levels[rows..self.len]
                    .iter()
                    .fold(element_bytes, |bytes, l| bytes.saturating_mul(l.extent));
                self.listed_start(rows, tile_bytes, TILE_BATCH_ENOUGH).0
            }
            Kernel::Strided | Kernel::Indexed => inner,
        }
    }

    /// The first of the bound-free loops just outside loop `from` (the loops inside keep their
    /// bounds at every digit) that one kernel call lists, added outwards until their digit
    /// combinations, `unit` each, reach `enough`, at most [`MAX_LISTED`]; and how many there are.
    fn listed_start(&self, from: usize, unit: usize, enough: usize) -> (usize, usize) {
        let (mut start, mut listed) = (from, 1usize);
        while start > 0 {
            let level = self.levels[start - 1];
            if !self.free[level.dim]
                || listed.saturating_mul(unit) >= enough
                || listed * level.extent > MAX_LISTED
            {
                break;
            }
            listed *= level.extent;
            start -= 1;
        }
        (start, listed)
    }

    /// Splits the loop just outside a row block when listing it whole would pass [`MAX_LISTED`]
    /// rows, so the block still reaches [`ROW_BLOCK_ENOUGH`] rows: its inner part, the largest
    /// divisor of its extent that keeps within that, joins the listing.
    fn split_for_row_block(&mut self) {
        if self.kernel != Kernel::Rows || self.len < 2 || self.len == MAX_LEVELS {
            return;
        }
        let (start, listed) = self.listed_start(self.len - 1, 1, ROW_BLOCK_ENOUGH);
        if start == 0 || listed >= ROW_BLOCK_ENOUGH || !self.free[self.levels[start - 1].dim] {
            return;
        }
        let outer = self.levels[start - 1];
        if let Some(part) = largest_divisor_within(outer.extent, ROW_BLOCK_ENOUGH / listed) {
            self.split_loop(start - 1, start - 1, part);
        }
    }

    /// Splits loop `k` in two: an inner loop of `inner` digits (a divisor of its extent) in its
    /// place, and the outer part at `outer_at` (at most `k`), the loops from there moving in by
    /// one. Callers say why the visits may reorder.
    pub(crate) fn split_loop(&mut self, k: usize, outer_at: usize, inner: usize) {
        debug_assert!(
            outer_at <= k && self.len < MAX_LEVELS,
            "room for the outer part"
        );
        let long = self.levels[k];
        debug_assert!(long.extent.is_multiple_of(inner), "a divisor of the extent");
        self.levels.copy_within(outer_at..self.len, outer_at + 1);
        self.flat_fill.copy_within(outer_at..self.len, outer_at + 1);
        self.len += 1;
        self.levels[outer_at] = Level {
            extent: long.extent / inner,
            step: long.step * inner,
            src: long.src * inner,
            dst: long.dst * inner,
            last_of_dim: false,
            ..long
        };
        // Loop `k`, moved in to `k + 1`, keeps the inner digits.
        self.levels[k + 1].extent = inner;
    }

    /// The loops of the plan, outermost first.
    pub(crate) fn levels(&self) -> &[Level] {
        &self.levels[..self.len]
    }

    /// Splits each destination axis at every source block boundary inside it (none for no
    /// source axes).
    fn refine(&mut self, dst_axes: &Axes, src_axes: &Axes) {
        for axis in dst_axes.iter() {
            let mut span = axis.step * axis.extent;
            // Source steps strictly inside this axis's span, coarsest first, then its own step;
            // a step already cut (two source axes sharing it) is passed over.
            let inside = src_axes.iter().filter(|s| s.dim == axis.dim);
            let inside = inside.filter(|s| s.step > axis.step && s.step < span);
            let (cuts, n) = sorted::<_, MAX_AXES>(inside.map(|s| Reverse(s.step)));
            for step in cuts[..n].iter().map(|cut| cut.0).chain([axis.step]) {
                if step == span {
                    continue;
                }
                self.levels[self.len] = Level {
                    dim: axis.dim,
                    extent: span.div_ceil(step),
                    step,
                    src: src_stride(src_axes, axis.dim, step),
                    dst: axis.stride * (step / axis.step),
                    last_of_dim: false,
                };
                (self.len, span) = (self.len + 1, step);
            }
        }
    }

    /// Merges neighbouring loops that advance both offsets as one loop would.
    fn fuse(&mut self, rank: usize) {
        self.free = from_fn(|d| d == FUSED || (d < rank && self.bound_free(d)));
        let free = self.free;
        self.len = fuse_neighbours(
            &mut self.levels,
            self.len,
            |level| level.extent,
            |outer, level| {
                let strides_continue =
                    outer.dst == level.dst * level.extent && outer.src == level.src * level.extent;
                let same_dim = outer.dim == level.dim && outer.step == level.step * level.extent;
                (strides_continue && (same_dim || (free[outer.dim] && free[level.dim]))).then_some(
                    Level {
                        dim: if same_dim { level.dim } else { FUSED },
                        extent: outer.extent * level.extent,
                        ..*level
                    },
                )
            },
        );
    }

    /// Whether `d` never needs a bound: no origin, and every slot the walk reaches on it is data.
    fn bound_free(&self, d: usize) -> bool {
        let reach = self.reach(d);
        self.origin[d] == 0 && self.data_end[d] == reach && self.slot_end[d] == reach
    }

    /// One past the largest virtual coordinate of `d` the loops reach.
    fn reach(&self, d: usize) -> usize {
        let of_d = self.levels().iter().filter(|l| l.dim == d);
        loops_reach(of_d.map(|l| (l.extent, l.step)))
    }

    /// The kernel of the innermost loop, the loops reordered or split where it needs.
    fn choose_kernel(&mut self, element_bytes: usize) -> Kernel {
        let Some(inner) = self.levels().last().filter(|l| l.dst == 1) else {
            return Kernel::Strided;
        };
        if inner.src == 1 {
            if (inner.extent * element_bytes).is_multiple_of(CACHE_LINE) {
                self.read_rows_in_order();
            }
            return Kernel::Rows;
        }
        self.split_long_runs(element_bytes);
        self.transpose().unwrap_or(Kernel::Strided)
    }

    /// Orders the bound-free loops right outside the rows by their source strides, largest
    /// outermost, so the rows are read in source order (writes are buffered; a read at a new
    /// place waits for memory). Only for rows of whole lines: shorter rows would then fill each
    /// destination line in pieces at different times, which costs more than two read streams.
    fn read_rows_in_order(&mut self) {
        let inner = self.len - 1;
        let bounded = self.levels[..inner].iter().rposition(|l| !self.free[l.dim]);
        let from = bounded.map_or(0, |k| k + 1);
        self.levels[from..inner].sort_by_key(|l| Reverse(l.src));
    }

    /// The transpose of the innermost loops, if they split into tile rows (one contiguous
    /// source run) just outside tile columns (one contiguous destination run), bound-free loops
    /// between the tile rows moved outside them. A group of several loops must be bound-free,
    /// as its listing holds every digit; a bounded loop must be alone in its group and its
    /// dimension absent from the other group, so its digit range is the same across the tile.
    fn transpose(&mut self) -> Option<Kernel> {
        let levels = self.levels();
        let inner = levels.len() - 1;
        let free = |k: usize| self.free[levels[k].dim];
        // The source chain: loops whose source strides are 1, then each the span of the last.
        let (mut chain, mut n, mut span) = ([0usize; MAX_LEVELS], 0, 1usize);
        while let Some(k) = (0..inner).find(|&k| levels[k].src == span && !chain[..n].contains(&k))
        {
            let fits = span * levels[k].extent <= MAX_LISTED;
            if !fits || (n > 0 && !free(k)) {
                break;
            }
            chain[n] = k;
            n += 1;
            span *= levels[k].extent;
            if !free(k) {
                break;
            }
        }
        // The longest start of the chain whose loops, with the bound-free loops between them
        // moved outwards, form a block right outside the columns.
        let found = (1..=n).rev().find_map(|m| {
            let chain = &chain[..m];
            let lowest = chain.iter().copied().min()?;
            let cols = chain.iter().copied().max()? + 1;
            let movable = (lowest..cols).all(|k| chain.contains(&k) || free(k));
            // A bounded loop alone in `group`, its dimension also in `other`.
            let lonely_bound = |group: Range<usize>, other: Range<usize>| {
                let dim = levels[group.start].dim;
                group.len() == 1 && !free(group.start) && levels[other].iter().any(|l| l.dim == dim)
            };
            let (rows, end) = (cols - m, levels.len());
            let ok = movable
                && self.columns(cols)
                && !(m == 1 && lonely_bound(rows..cols, cols..end))
                && !lonely_bound(cols..end, lowest..cols);
            ok.then_some((chain, lowest, rows, cols))
        });
        let (chain, lowest, rows, cols) = found?;
        // The other loops keep their order, outside the tile rows; moving bound-free loops
        // changes only the order in which destination slots are visited.
        let mut end = cols;
        for k in (lowest..cols).rev() {
            if chain.contains(&k) {
                self.levels[k..end].rotate_left(1);
                end -= 1;
            }
        }
        Some(Kernel::Transpose { rows, cols })
    }

    /// Whether loops `cols..len` step through one contiguous run of the destination, innermost
    /// fastest, with at most [`MAX_LISTED`] slots, and are bound-free unless there is one.
    fn columns(&self, cols: usize) -> bool {
        let group = &self.levels()[cols..];
        let bound_free = group.len() == 1 || group.iter().all(|l| self.free[l.dim]);
        run_pitch(group, |l| l.dst) == Some(1)
            && group.iter().map(|l| l.extent).product::<usize>() <= MAX_LISTED
            && bound_free
    }

    /// Marks each dimension's innermost loop ([`Level::last_of_dim`]) and the loops whose
    /// subtrees fill as one slice ([`Plan::flat_fill`]).
    fn mark_inner_loops(&mut self, rank: usize) {
        // Dimensions whose fill walk never needs a bound.
        let fill_free: [bool; MAX_RANK + 1] =
            from_fn(|d| d >= rank || (self.origin[d] == 0 && self.reach(d) <= self.slot_end[d]));
        // Walk inwards-out: dense below k, and no bounded loop below k.
        let (mut seen, mut dense_below, mut block) = ([false; MAX_RANK + 1], true, 1usize);
        for k in (0..self.len).rev() {
            let level = &mut self.levels[k];
            level.last_of_dim = !seen[level.dim];
            seen[level.dim] = true;
            self.flat_fill[k] = dense_below && level.dst == block;
            dense_below = self.flat_fill[k] && fill_free[level.dim];
            block = level.dst * level.extent;
        }
    }
}

/// The distance between neighbouring entries of the listing of `levels` on the side whose
/// stride `side` picks, where every loop's stride there is the span of the loops inside it.
pub(super) fn run_pitch(levels: &[Level], side: impl Fn(&Level) -> usize) -> Option<usize> {
    let mut looping = levels.iter().rev().filter(|l| l.extent > 1);
    let Some(innermost) = looping.next() else {
        return Some(1);
    };
    let pitch = side(innermost);
    let mut span = pitch.checked_mul(innermost.extent)?;
    for level in looping {
        if side(level) != span {
            return None;
        }
        span = span.checked_mul(level.extent)?;
    }
    Some(pitch)
}
