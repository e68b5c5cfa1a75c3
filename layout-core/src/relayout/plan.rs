//! The per-call plan of a relayout: the destination's storage walk, cut finely enough that the
//! source offset is a sum of one stride per loop, with loops fused where both sides allow.
//!
//! Both layouts describe themselves as nested loops ([`Axis`]). Splitting every loop of the
//! destination at the block boundaries of the source (the union of both layouts' steps for a
//! dimension, when they divide one another) makes each loop advance both offsets by a constant;
//! the copy is then a strided loop nest with no division per element. Everything here runs once
//! per call, from the chunk-list constants and the dims.

use super::Renumbering;
use super::kernels::ROWS;
#[cfg(doc)]
use super::kernels::TileBatch;
use crate::{Axes, Axis, Coords, Layout, MAX_AXES, MAX_RANK, Mapping};

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
    /// A transpose of the loops `rows..len`: loops `rows..cols` (the tile's rows) advance the
    /// source through one contiguous run, loops `cols..len` (its columns) the destination.
    /// Cache-blocked tiles of listed rows by listed columns.
    Transpose { rows: usize, cols: usize },
    /// Any other affine pair: one strided element loop.
    Strided,
    /// The source offset cannot follow the walk by additions (a source starting part-way into
    /// its axes, or blocks that do not divide one another): each element's source offset comes
    /// from the source layout's own offset function.
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
    /// Per dimension: first virtual coordinate past the destination's slots that the walk must
    /// fill with the pad value (its padded extent; `data_end` when gaps are not padding).
    pub slot_end: Point,
    /// Whether the destination has padding slots to fill.
    pub fills: bool,
    /// `flat_fill[k]`: the subtree under loop `k` is a dense block of destination slots with no
    /// bounds inside it, so a run of its digits is one contiguous fill.
    pub flat_fill: [bool; MAX_LEVELS],
    /// Per dimension: whether its loops never need bounds (every digit is data).
    pub free: [bool; MAX_RANK + 1],
    /// The first loop one kernel call covers. For [`Kernel::Rows`], the first loop of the row
    /// block: the loops just outside the innermost whose rows are listed once per relayout and
    /// copied in one call (`len - 1`: none). For [`Kernel::Transpose`], the first loop of the
    /// batch: the loops just outside the tile rows whose tiles one call moves (`rows`: one
    /// tile a call). For the others, `len - 1`.
    pub kernel_from: usize,
}

/// The most rows a listed row block (or a transpose's rows, or its columns) may have.
const MAX_LISTED: usize = 1 << 14;

/// Rows after which a listed row block stops growing: enough to spread the cost of a call, few
/// enough that the listing (16 bytes a row) stays in L1 beside the rows it moves (u8
/// flat<->crouton: 84 us with 4096-row blocks, 66-79 us with 512).
const ROW_BLOCK_ENOUGH: usize = 1 << 9;

/// Destination bytes after which a batch of transpose tiles stops growing: enough tiles to
/// spread the cost of a call over many small tiles (1 KiB ones in u8 flat->crouton2x2), few
/// enough to leave the parallel split outer loops to cut.
const TILE_BATCH_ENOUGH: usize = 64 << 10;

/// Bytes of a cache line.
const CACHE_LINE: usize = 64;

/// `(source, destination)` offsets of every digit combination of some loops.
pub(crate) type Listing = alloc::vec::Vec<(usize, usize)>;

/// The listings a kernel call reads ([`Plan::listings`]); empty where the kernel has none.
#[derive(Clone, Debug, Default)]
pub(crate) struct Listings {
    /// A transpose's tiles: where each tile of a call's batch starts, relative to the call.
    pub tiles: Listing,
    /// The row block's rows, or a transpose's rows.
    pub rows: Listing,
    /// A transpose's columns.
    pub cols: Listing,
    /// A transpose's rows' destination pitch within blocks ([`TileBatch::row_pitch`]).
    pub row_pitch: Option<usize>,
    /// How the row block's rows fill 64-byte destination lines ([`Plan::rows_fill_lines`]).
    pub line_rows: LineRows,
}

/// How a row block's rows fill 64-byte destination lines ([`Plan::rows_fill_lines`]), which
/// decides whether they can be written past the caches, and from what size they are
/// (`streaming::Streaming`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum LineRows {
    /// Not whole lines (or not a row block).
    #[default]
    Partial,
    /// Each row is one whole line (f32 nhwc->nChw16c: one 16-channel line).
    Whole,
    /// Rows of 32 bytes, two side by side make each line (f32 nChw8c->nChw16c).
    Pairs,
}

/// One side of a relayout in numbers: what the plan needs to know of a mapping, with no type
/// parameter left, so that the engine is compiled once in this crate whatever the layouts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    /// The mapping's storage walk, in its own numbering of the dimensions.
    pub axes: Axes,
    /// Per dimension: the coordinate of the first element (non-zero in views that start
    /// part-way into their axes).
    pub origin: [usize; MAX_RANK],
    /// The storage offset the walk starts from.
    pub base: usize,
}

impl Side {
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

/// A relayout in numbers: both sides, the dims (in the destination's numbering) and where each
/// source dimension lands.
#[derive(Clone, Copy, Debug)]
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

impl Plan {
    /// Plans the copy `pair` describes for elements of `element_bytes` bytes. The plan counts
    /// every dimension in the destination's numbering, so a conversion between axis orders
    /// (NHWC croutons into NCHW channel blocks) is planned like one between layouts of one
    /// order.
    pub(crate) fn new(pair: &Pair, element_bytes: usize) -> Self {
        let (rank, dims, src, dst) = (pair.rank, &pair.dims, &pair.src, &pair.dst);
        let dst_axes = significant(&dst.axes);
        let src_axes = significant(&renumbered(&src.axes, &pair.to));
        let mut origin: Point = [0; MAX_RANK + 1];
        let mut data_end: Point = [usize::MAX; MAX_RANK + 1];
        let mut slot_end: Point = [usize::MAX; MAX_RANK + 1];
        let dst_origin = &dst.origin;
        let fills = pair.fills;
        for d in 0..rank {
            origin[d] = dst_origin[d];
            data_end[d] = dst_origin[d] + dims[d];
            slot_end[d] = if fills {
                coverage(&dst_axes, d).max(data_end[d])
            } else {
                data_end[d]
            };
        }
        let affine = src.origin.iter().all(|&o| o == 0)
            && dst_origin.iter().all(|&o| o == 0)
            && (0..rank).all(|d| exact_chain(&dst_axes, d) && exact_chain(&src_axes, d))
            && (0..rank).all(|d| steps_divide(&dst_axes, &src_axes, d));
        let mut plan = Plan {
            levels: [Level::default(); MAX_LEVELS],
            len: 0,
            kernel: Kernel::Indexed,
            src_base: src.base,
            dst_base: dst.base,
            origin,
            data_end,
            slot_end,
            fills,
            flat_fill: [false; MAX_LEVELS],
            free: [false; MAX_RANK + 1],
            kernel_from: 0,
        };
        if affine {
            plan.refine(&dst_axes, &src_axes);
            plan.fuse(rank); // also notes which dimensions are bound-free
            plan.kernel = plan.choose_kernel(element_bytes);
        } else {
            for axis in dst_axes.iter() {
                plan.push(Level {
                    dim: axis.dim,
                    extent: axis.extent,
                    step: axis.step,
                    src: 0,
                    dst: axis.stride,
                    last_of_dim: false,
                });
            }
        }
        plan.split_for_row_block();
        plan.mark_last_of_dim();
        plan.mark_flat_fill(rank);
        plan.kernel_from = plan.kernel_start(element_bytes);
        plan
    }

    /// The first loop one kernel call covers ([`Plan::kernel_from`]).
    fn kernel_start(&self, element_bytes: usize) -> usize {
        let inner = self.len.saturating_sub(1);
        match self.kernel {
            Kernel::Rows => self.listed_start(inner, 1, ROW_BLOCK_ENOUGH),
            Kernel::Transpose { rows, .. } => {
                let tile_bytes = self.levels[rows..self.len]
                    .iter()
                    .fold(element_bytes, |bytes, l| bytes.saturating_mul(l.extent));
                self.listed_start(rows, tile_bytes, TILE_BATCH_ENOUGH)
            }
            Kernel::Strided | Kernel::Indexed => inner,
        }
    }

    /// Splits the loop just outside a row block when listing it whole would pass
    /// [`MAX_LISTED`] rows, so that the block still reaches [`ROW_BLOCK_ENOUGH`] rows: its inner
    /// part, the largest divisor of its extent that keeps the block within that many rows,
    /// joins the listing ([`Plan::kernel_start`]). f32 nhwc->nChw16c lists one position's 16
    /// channel blocks, and the 3136 positions of a 56x56 image would make 50176 rows: 16 rows
    /// a call became 512.
    fn split_for_row_block(&mut self) {
        if self.kernel != Kernel::Rows || self.len < 2 || self.len == MAX_LEVELS {
            return;
        }
        let start = self.listed_start(self.len - 1, 1, ROW_BLOCK_ENOUGH);
        let listed: usize = self.levels[start..self.len - 1]
            .iter()
            .map(|l| l.extent)
            .product();
        if start == 0 || listed >= ROW_BLOCK_ENOUGH || !self.free[self.levels[start - 1].dim] {
            return;
        }
        let outer = self.levels[start - 1];
        let Some(part) = (2..=ROW_BLOCK_ENOUGH / listed)
            .rev()
            .find(|&f| outer.extent.is_multiple_of(f) && f < outer.extent)
        else {
            return;
        };
        self.levels.copy_within(start - 1..self.len, start);
        self.len += 1;
        self.levels[start - 1] = Level {
            extent: outer.extent / part,
            step: outer.step * part,
            src: outer.src * part,
            dst: outer.dst * part,
            ..outer
        };
        self.levels[start] = Level {
            extent: part,
            ..outer
        };
    }

    /// The first of the loops just outside loop `from` that one kernel call can list: loops
    /// that never need bounds (so the loops inside them keep the same bounds at every digit),
    /// added outwards until their digit combinations, `unit` each, add up to `enough`, and
    /// never more than [`MAX_LISTED`] combinations.
    fn listed_start(&self, from: usize, unit: usize, enough: usize) -> usize {
        let mut start = from;
        let mut listed = 1usize;
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
        start
    }

    /// The per-relayout listings the kernel reads: for [`Kernel::Rows`], the row block's rows
    /// in destination order; for [`Kernel::Transpose`], the batch's tiles in destination order,
    /// the tile's rows in source order (their source offsets count up by one) and its columns
    /// in destination order (likewise).
    pub(crate) fn listings(&self, element_bytes: usize) -> Listings {
        match self.kernel {
            Kernel::Rows => Listings {
                rows: list(&self.levels[self.kernel_from..self.len - 1]),
                line_rows: self.rows_fill_lines(element_bytes),
                ..Listings::default()
            },
            Kernel::Transpose { rows, cols } => {
                let mut by_source = [Level::default(); MAX_LEVELS];
                let by_source = &mut by_source[..cols - rows];
                by_source.copy_from_slice(&self.levels[rows..cols]);
                by_source.sort_unstable_by_key(|l| core::cmp::Reverse(l.src));
                Listings {
                    tiles: list(&self.levels[self.kernel_from..rows]),
                    rows: list(by_source),
                    cols: list(&self.levels[cols..self.len]),
                    row_pitch: row_pitch(by_source),
                    ..Listings::default()
                }
            }
            Kernel::Strided | Kernel::Indexed => Listings::default(),
        }
    }

    /// How a row block's rows fill whole 64-byte destination lines, as listed:
    /// [`LineRows::Whole`] for rows of 64 bytes, every listed loop stepping the destination by
    /// whole lines (f32 nhwc->nChw16c: each row one 16-channel line); [`LineRows::Pairs`] for
    /// rows of 32 bytes two to a line, listed rows `2k` and `2k + 1` side by side (the
    /// innermost listed loop steps the destination by one row and has an even count) and every
    /// other listed loop stepping by whole lines (f32 nChw8c->nChw16c: two 8-channel rows make
    /// each 16-channel line).
    pub(crate) fn rows_fill_lines(&self, element_bytes: usize) -> LineRows {
        if self.kernel != Kernel::Rows || self.len < 2 || self.kernel_from > self.len - 2 {
            return LineRows::Partial;
        }
        let row = self.levels[self.len - 1];
        let listed = &self.levels[self.kernel_from..self.len - 1];
        let whole_lines = |loops: &[Level]| {
            loops
                .iter()
                .all(|l| (l.dst * element_bytes).is_multiple_of(CACHE_LINE))
        };
        if row.dst != 1 {
            return LineRows::Partial;
        }
        let pairs = |(pair, outer): (&Level, &[Level])| {
            pair.dst == row.extent && pair.extent.is_multiple_of(2) && whole_lines(outer)
        };
        match (row.extent * element_bytes, listed.split_last()) {
            (CACHE_LINE, _) if whole_lines(listed) => LineRows::Whole,
            (32, Some(split)) if pairs(split) => LineRows::Pairs,
            _ => LineRows::Partial,
        }
    }

    /// The loops of the plan, outermost first.
    pub(crate) fn levels(&self) -> &[Level] {
        &self.levels[..self.len]
    }

    fn push(&mut self, level: Level) {
        self.levels[self.len] = level;
        self.len += 1;
    }

    /// Splits each destination axis at every source block boundary inside it.
    fn refine(&mut self, dst_axes: &Axes, src_axes: &Axes) {
        for axis in dst_axes.iter() {
            // Source steps strictly inside this axis's span, coarsest first.
            let mut cuts: [usize; MAX_AXES] = [0; MAX_AXES];
            let mut n = 0;
            for s in src_axes.iter().filter(|s| s.dim == axis.dim) {
                let inside = s.step > axis.step && s.step < axis.step * axis.extent;
                if inside && !cuts[..n].contains(&s.step) {
                    cuts[n] = s.step;
                    n += 1;
                }
            }
            cuts[..n].sort_unstable_by(|a, b| b.cmp(a));
            let mut span = axis.step * axis.extent;
            for &step in cuts[..n].iter().chain(core::iter::once(&axis.step)) {
                self.push(Level {
                    dim: axis.dim,
                    extent: span.div_ceil(step),
                    step,
                    src: src_stride(src_axes, axis.dim, step),
                    dst: axis.stride * (step / axis.step),
                    last_of_dim: false,
                });
                span = step;
            }
        }
    }

    /// Merges neighbouring loops that advance both offsets as one loop would.
    fn fuse(&mut self, rank: usize) {
        self.free = core::array::from_fn(|d| d == FUSED || (d < rank && self.bound_free(d)));
        let free = self.free;
        // In place: the loop written is never past the loop read.
        let mut len = 0usize;
        for k in 0..self.len {
            let level = self.levels[k];
            if level.extent == 1 {
                continue;
            }
            if let Some(outer) = len.checked_sub(1).map(|last| &mut self.levels[last]) {
                let strides_continue =
                    outer.dst == level.dst * level.extent && outer.src == level.src * level.extent;
                let same_dim = outer.dim == level.dim && outer.step == level.step * level.extent;
                if strides_continue && (same_dim || (free[outer.dim] && free[level.dim])) {
                    *outer = Level {
                        dim: if same_dim { level.dim } else { FUSED },
                        extent: outer.extent * level.extent,
                        ..level
                    };
                    continue;
                }
            }
            self.levels[len] = level;
            len += 1;
        }
        self.len = len;
    }

    /// Whether dimension `d` never needs a bound: no origin, and every slot the walk reaches
    /// along it is data.
    fn bound_free(&self, d: usize) -> bool {
        let reach = self.reach(d);
        self.origin[d] == 0 && self.data_end[d] == reach && self.slot_end[d] == reach
    }

    /// One past the largest virtual coordinate of `d` the loops reach.
    fn reach(&self, d: usize) -> usize {
        self.levels()
            .iter()
            .filter(|l| l.dim == d)
            .map(|l| (l.extent - 1) * l.step)
            .sum::<usize>()
            + 1
    }

    fn choose_kernel(&mut self, element_bytes: usize) -> Kernel {
        let Some(inner) = self.levels().last() else {
            return Kernel::Strided;
        };
        if inner.dst != 1 {
            return Kernel::Strided;
        }
        if inner.src == 1 {
            if (inner.extent * element_bytes).is_multiple_of(CACHE_LINE) {
                self.read_rows_in_order();
            }
            return Kernel::Rows;
        }
        self.transpose().unwrap_or(Kernel::Strided)
    }

    /// Orders the bound-free loops right outside the rows by their source strides, largest
    /// outermost, so that the rows are read in source order (writes are buffered; a read at a
    /// new place waits for memory). Only for rows of whole cache lines: shorter rows would then
    /// fill each destination line in pieces at different times, which measured slower
    /// (nChw8c->nChw16c, crouton->flat) than reading two sources at once.
    fn read_rows_in_order(&mut self) {
        let inner = self.len - 1;
        let mut from = inner;
        while from > 0 && self.free[self.levels[from - 1].dim] {
            from -= 1;
        }
        self.levels[from..inner].sort_by_key(|l| core::cmp::Reverse(l.src));
    }

    /// The transpose of the innermost loops, if they split into tile rows (loops that together
    /// step through one contiguous run of the source) just outside tile columns (loops that
    /// together step through one contiguous run of the destination, the innermost among them).
    /// Bound-free loops between the tile rows are moved outside them.
    /// A group of several loops must be bound-free, as its listing holds every digit; a bounded
    /// loop must be alone in its group and its dimension absent from the other group, so that
    /// its digit range is the same across the tile.
    fn transpose(&mut self) -> Option<Kernel> {
        let levels = self.levels();
        let inner = levels.len() - 1;
        let free = |k: usize| self.free[levels[k].dim];
        // The source chain: loops whose source strides are 1, then each the span of the last.
        let mut chain = [0usize; MAX_LEVELS];
        let mut n = 0;
        let mut span = 1usize;
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
            let lonely_bound = |group: core::ops::Range<usize>, other: core::ops::Range<usize>| {
                group.len() == 1
                    && !free(group.start)
                    && levels[other]
                        .iter()
                        .any(|l| l.dim == levels[group.start].dim)
            };
            let (rows, end) = (cols - m, levels.len());
            let ok = movable
                && self.columns(cols)
                && !(m == 1 && lonely_bound(rows..cols, cols..end))
                && !lonely_bound(cols..end, lowest..cols);
            ok.then_some((chain, lowest, rows, cols))
        });
        let (chain, lowest, rows, cols) = found?;
        // Reorder: the other loops keep their order, outside the tile rows. Moving loops without
        // bounds changes only the order in which destination slots are visited.
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
        let mut span = 1usize;
        for level in group.iter().rev() {
            if level.dst != span || (group.len() > 1 && !self.free[level.dim]) {
                return false;
            }
            span *= level.extent;
        }
        span <= MAX_LISTED
    }

    fn mark_last_of_dim(&mut self) {
        let mut seen = [false; MAX_RANK + 1];
        for level in self.levels[..self.len].iter_mut().rev() {
            level.last_of_dim = !seen[level.dim];
            seen[level.dim] = true;
        }
    }

    fn mark_flat_fill(&mut self, rank: usize) {
        // Dimensions whose fill walk never needs a bound.
        let mut fill_free = [true; MAX_RANK + 1];
        for (d, free) in fill_free.iter_mut().enumerate().take(rank) {
            *free = self.origin[d] == 0 && self.reach(d) <= self.slot_end[d];
        }
        // Walk inwards-out: dense below k, and no bounded loop below k.
        let mut dense_below = true;
        let mut block = 1usize;
        for k in (0..self.len).rev() {
            let level = self.levels[k];
            self.flat_fill[k] = dense_below && level.dst == block;
            dense_below = self.flat_fill[k] && fill_free[level.dim];
            block = level.dst * level.extent;
        }
    }
}

/// Offsets of every digit combination of `levels` (outermost first), the last loop fastest.
fn list(levels: &[Level]) -> Listing {
    let mut out = alloc::vec![(0usize, 0usize)];
    for level in levels {
        out = out
            .iter()
            .flat_map(|&(s, d)| {
                (0..level.extent).map(move |i| (s + i * level.src, d + i * level.dst))
            })
            .collect();
    }
    out
}

/// The destination pitch of rows listed from `levels` (outermost first) within every block of
/// [`ROWS`] rows: the innermost loop's destination stride, when the innermost loops whose
/// strides continue it (each the last's span) make runs of a multiple of `ROWS` rows, or all
/// of the rows (a single loop's rows, in which any range is one run).
fn row_pitch(levels: &[Level]) -> Option<usize> {
    let pitch = levels.last()?.dst;
    let mut run = 1usize;
    for level in levels.iter().rev() {
        if level.dst != pitch * run {
            return run.is_multiple_of(ROWS).then_some(pitch);
        }
        run *= level.extent;
    }
    Some(pitch)
}

/// Axes with more than one digit value (the others change nothing).
/// `axes` with each axis's dimension `d` renumbered `to[d]`.
fn renumbered(axes: &Axes, to: &super::Renumbering) -> Axes {
    let mut out = [Axis::default(); MAX_AXES];
    for (slot, axis) in out.iter_mut().zip(axes.iter()) {
        *slot = Axis {
            dim: to[axis.dim],
            ..*axis
        };
    }
    Axes::from_slice(&out[..axes.len()])
}

fn significant(axes: &Axes) -> Axes {
    let mut out = [Axis::default(); MAX_AXES];
    let mut n = 0;
    for axis in axes.iter().filter(|a| a.extent > 1) {
        out[n] = *axis;
        n += 1;
    }
    Axes::from_slice(&out[..n])
}

/// One past the largest virtual coordinate of `d` the axes reach.
fn coverage(axes: &Axes, d: usize) -> usize {
    axes.iter()
        .filter(|a| a.dim == d)
        .map(|a| (a.extent - 1) * a.step)
        .sum::<usize>()
        + 1
}

/// Whether the axes of `d`, finest first, count it as one mixed-radix number: each step is the
/// span of the finer axis (so splitting them at each other's boundaries keeps offsets affine).
fn exact_chain(axes: &Axes, d: usize) -> bool {
    let mut of_d: [(usize, usize); MAX_AXES] = [(0, 0); MAX_AXES];
    let mut n = 0;
    for a in axes.iter().filter(|a| a.dim == d) {
        of_d[n] = (a.step, a.extent);
        n += 1;
    }
    of_d[..n].sort_unstable();
    let mut span = 1;
    for &(step, extent) in &of_d[..n] {
        if step != span {
            return false;
        }
        span = step * extent;
    }
    true
}

/// Whether all steps of `d` on both sides divide one another in order.
fn steps_divide(a: &Axes, b: &Axes, d: usize) -> bool {
    let mut steps: [usize; 2 * MAX_AXES] = [0; 2 * MAX_AXES];
    let mut n = 0;
    for axis in a.iter().chain(b.iter()).filter(|x| x.dim == d) {
        steps[n] = axis.step;
        n += 1;
    }
    steps[..n].sort_unstable();
    steps[..n].windows(2).all(|w| w[1] % w[0] == 0)
}

/// Source offset advance of one step of `step` along `d`: from the source axis whose block
/// holds that step (0 when the source has no axis of `d`: the dim is 1).
fn src_stride(src_axes: &Axes, d: usize, step: usize) -> usize {
    src_axes
        .iter()
        .filter(|a| a.dim == d && a.step <= step)
        .max_by_key(|a| a.step)
        .map_or(0, |a| a.stride * (step / a.step))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(extent: usize, dst: usize) -> Level {
        Level {
            extent,
            dst,
            ..Level::default()
        }
    }

    /// Whether the row block of `A -> B` on `dims` fills lines for `bytes`-byte elements.
    fn lines<A, B>(dims: [usize; 4], bytes: usize) -> LineRows
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + Default,
    {
        let (src, dst) = (Mapping::<A>::new(dims), Mapping::<B>::new(dims));
        let pair = Pair::of(&src.unwrap(), &dst.unwrap(), &crate::relayout::SAME_ORDER);
        Plan::new(&pair, bytes).rows_fill_lines(bytes)
    }

    /// A row block stopped short by the next loop's length takes part of that loop: nhwc ->
    /// nChw16c lists one position's 16 channel blocks, and its 3136 (or 4160) positions split
    /// into 98 x 32 (130 x 32) so that a call copies 512 rows; 61 x 67 = 4087 positions have
    /// no divisor from 2 to 32 and stay whole.
    #[test]
    fn row_blocks_take_part_of_a_loop_too_long_to_list() {
        type Nhwc = crate::onednn_layout!("nhwc");
        type Nchw16c = crate::onednn_layout!("nChw16c");
        let rows = |dims: [usize; 4]| {
            let (src, dst) = (Mapping::<Nhwc>::new(dims), Mapping::<Nchw16c>::new(dims));
            let pair = Pair::of(&src.unwrap(), &dst.unwrap(), &crate::relayout::SAME_ORDER);
            let plan = Plan::new(&pair, 4);
            assert_eq!(plan.kernel, Kernel::Rows);
            plan.listings(4).rows.len()
        };
        assert_eq!(rows([8, 256, 56, 56]), 512);
        assert_eq!(rows([1, 256, 64, 65]), 512);
        assert_eq!(rows([1, 256, 61, 67]), 16);
    }

    /// Rows of 64 bytes fill lines where every listed row starts one (f32 nhwc->nChw16c; not
    /// u16, whose 32-byte rows go to lines of different blocks). Rows of 32 bytes pair into
    /// lines where two listed rows lie side by side in the destination and every pair starts
    /// a line: two 8-channel rows of f32 nChw8c make one nChw16c line (f64: 4-channel rows
    /// into nChw8c), and nChw16c->nChw8c pairs the rows of two neighbouring positions when the
    /// width is even (odd: a row of a pair would start a line half-way).
    #[test]
    fn rows_fill_lines_of_one_row_or_two() {
        type Nhwc = crate::onednn_layout!("nhwc");
        type Nchw4c = crate::onednn_layout!("nChw4c");
        type Nchw8c = crate::onednn_layout!("nChw8c");
        type Nchw16c = crate::onednn_layout!("nChw16c");
        let dims = [2, 256, 7, 9];
        use LineRows::{Pairs, Partial, Whole};
        assert_eq!(lines::<Nhwc, Nchw16c>(dims, 4), Whole);
        assert_eq!(
            lines::<Nhwc, Nchw16c>(dims, 2),
            Partial,
            "32-byte rows of different blocks"
        );
        assert_eq!(lines::<Nchw8c, Nchw16c>(dims, 4), Pairs);
        assert_eq!(lines::<Nchw4c, Nchw8c>(dims, 8), Pairs);
        assert_eq!(lines::<Nchw8c, Nchw16c>(dims, 2), Partial, "16-byte rows");
        assert_eq!(lines::<Nchw16c, Nchw8c>(dims, 4), Partial, "odd width");
        assert_eq!(lines::<Nchw16c, Nchw8c>([2, 256, 7, 8], 4), Pairs);
        assert_eq!(
            lines::<Nchw8c, Nchw8c>(dims, 4),
            Partial,
            "one loop: a plain copy"
        );
    }

    /// Rows listed from loops, outermost first: their destination pitch holds within every
    /// block of `ROWS` when the loops whose strides continue the innermost one make runs of a
    /// multiple of `ROWS` rows, or all of the rows.
    #[test]
    fn row_pitch_holds_within_runs_of_whole_blocks() {
        // One loop: a single run, whatever its length.
        assert_eq!(row_pitch(&[level(7, 3)]), Some(3));
        // crouton2x2's rows: 8 chunks of 32 channels (2 KiB apart), 4 bytes apart inside one.
        assert_eq!(row_pitch(&[level(8, 2048), level(32, 4)]), Some(4));
        // Loops that continue one another: one run.
        assert_eq!(row_pitch(&[level(4, 64), level(16, 4)]), Some(4));
        // Runs of 8 rows: a block of 16 would straddle two runs.
        assert_eq!(row_pitch(&[level(4, 1000), level(8, 4)]), None);
        // Runs of 8 continued by a loop of 2 make runs of 16.
        assert_eq!(
            row_pitch(&[level(3, 999), level(2, 32), level(8, 4)]),
            Some(4)
        );
        assert_eq!(row_pitch(&[]), None);
    }

    /// The listing of a run of rows steps by the pitch, as the kernels take it.
    #[test]
    fn listed_rows_step_by_the_pitch() {
        let levels = [level(8, 2048), level(32, 4)];
        let rows = list(&levels);
        let pitch = row_pitch(&levels).unwrap();
        for block in rows.chunks_exact(ROWS) {
            for (r, row) in block.iter().enumerate() {
                assert_eq!(row.1, block[0].1 + r * pitch);
            }
        }
    }
}
