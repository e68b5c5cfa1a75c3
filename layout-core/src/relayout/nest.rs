//! Running a [`Plan`]: one loop nest over the destination that writes every element and every
//! padding slot it reaches exactly once.
//!
//! Each loop's digit range is cut in three by the dims: digits whose subtree holds data (walked),
//! digits whose subtree is padding up to the destination's padded extent (filled with the pad
//! value, as one slice fill when the subtree is a dense block), and digits past it (nothing
//! there). The cuts cost a comparison per loop entry, never a division per element.

use super::kernels;
use super::plan::{FUSED, Kernel, Plan, Point};

/// Side length of a transpose tile: the block of source rows read together.
const TILE: usize = kernels::TRANSPOSE_BLOCK;

/// The rows one call covers: a block of the transpose's source-contiguous loop, or one row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rows {
    pub count: usize,
    pub src: usize,
    pub dst: usize,
}

impl Rows {
    pub(crate) const ONE: Rows = Rows {
        count: 1,
        src: 0,
        dst: 0,
    };
}

/// A plan bound to its source slots and pad value; `src_offset_of` maps a virtual point of the
/// destination walk to a source offset for the index-driven kernel.
pub(crate) struct Nest<'a, T, F> {
    pub plan: &'a Plan,
    /// The row block's `(source, destination)` offsets ([`Plan::listed_rows`]).
    pub rows: &'a [(usize, usize)],
    pub src: &'a [T],
    pub pad: T,
    pub src_offset_of: F,
}

impl<T: Copy, F: Fn(&Point) -> usize> Nest<'_, T, F> {
    /// Digit ranges of loop `k` at point `p`: `(first, data_end, slot_end)`.
    #[inline]
    pub(crate) fn bounds(&self, k: usize, p: &Point) -> (usize, usize, usize) {
        let level = &self.plan.levels[k];
        if level.dim == FUSED {
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
        let slot_end = digits_below(self.plan.slot_end[level.dim]);
        let data_end = digits_below(self.plan.data_end[level.dim]);
        let origin = self.plan.origin[level.dim];
        let first = if level.last_of_dim && at < origin {
            (origin - at).div_ceil(level.step).min(slot_end)
        } else {
            0
        };
        (first, data_end.max(first), slot_end)
    }

    /// Copies the subtree of loop `k` (source offset `s`, destination offset `d`).
    pub(crate) fn data(
        &self,
        dst: &mut [T],
        k: usize,
        s: usize,
        d: usize,
        p: &mut Point,
        rows: Rows,
    ) {
        let plan = self.plan;
        if k + 1 == plan.len {
            return self.innermost(dst, s, d, p, rows);
        }
        if plan.kernel == Kernel::Rows && k == plan.rows_from {
            return self.row_block(dst, s, d, p);
        }
        let level = plan.levels[k];
        let (first, data_end, slot_end) = self.bounds(k, p);
        let tiled = plan.kernel == Kernel::Transpose { b: k };
        if tiled && k + 2 == plan.len {
            return self.transpose_plane(dst, s, d, p, first..data_end, slot_end);
        }
        let step = if tiled { TILE } else { 1 };
        let mut i = first;
        while i < data_end {
            let count = step.min(data_end - i);
            let inner = if tiled {
                Rows {
                    count,
                    src: level.src,
                    dst: level.dst,
                }
            } else {
                rows
            };
            p[level.dim] += i * level.step;
            self.data(dst, k + 1, s + i * level.src, d + i * level.dst, p, inner);
            p[level.dim] -= i * level.step;
            i += count;
        }
        let fill_rows = if tiled { Rows::ONE } else { rows };
        self.fill_digits(dst, k, d, p, data_end..slot_end, fill_rows);
    }

    /// The innermost loop, with the plan's kernel.
    fn innermost(&self, dst: &mut [T], s: usize, d: usize, p: &mut Point, rows: Rows) {
        let k = self.plan.len - 1;
        let level = self.plan.levels[k];
        let (first, data_end, slot_end) = self.bounds(k, p);
        let elements = first..data_end;
        match self.plan.kernel {
            Kernel::Rows => kernels::copy_rows(
                dst, d, rows.dst, self.src, s, rows.src, rows.count, elements,
            ),
            Kernel::Transpose { .. } => kernels::transpose_plane(
                dst,
                d,
                rows.dst,
                self.src,
                s,
                level.src,
                0..rows.count,
                elements,
            ),
            Kernel::Strided => {
                kernels::copy_strided(dst, d, level.dst, self.src, s, level.src, rows, elements)
            }
            Kernel::Indexed => {
                for i in elements {
                    p[level.dim] += i * level.step;
                    dst[d + i * level.dst] = self.src[(self.src_offset_of)(p)];
                    p[level.dim] -= i * level.step;
                }
            }
        }
        self.fill_digits(dst, k, d, p, data_end..slot_end, rows);
    }

    /// The row block of a contiguous-row plan: every listed row, copied with the innermost
    /// loop's bounds (the same for all of them), then its padding tail.
    fn row_block(&self, dst: &mut [T], s: usize, d: usize, p: &mut Point) {
        let k = self.plan.len - 1;
        let (first, data_end, slot_end) = self.bounds(k, p);
        kernels::copy_listed_rows(dst, d, self.src, s, self.rows, first..data_end);
        if self.plan.fills && slot_end > data_end {
            for &(_, row) in self.rows {
                dst[d + row + data_end..d + row + slot_end].fill(self.pad);
            }
        }
    }

    /// A transpose whose source-contiguous loop `b` sits just outside the innermost loop: the
    /// whole plane of `b_digits` by the innermost loop's digits in one kernel call, then the
    /// padding of both loops.
    fn transpose_plane(
        &self,
        dst: &mut [T],
        s: usize,
        d: usize,
        p: &mut Point,
        b_digits: core::ops::Range<usize>,
        b_slot_end: usize,
    ) {
        let k = self.plan.len - 2;
        let (b, a) = (self.plan.levels[k], self.plan.levels[k + 1]);
        let (first, data_end, slot_end) = self.bounds(k + 1, p);
        kernels::transpose_plane(
            dst,
            d,
            b.dst,
            self.src,
            s,
            a.src,
            b_digits.clone(),
            first..data_end,
        );
        let rows = Rows {
            count: b_digits.len(),
            src: 0,
            dst: b.dst,
        };
        let d_rows = d + b_digits.start * b.dst;
        self.fill_digits(dst, k + 1, d_rows, p, data_end..slot_end, rows);
        self.fill_digits(dst, k, d, p, b_digits.end..b_slot_end, Rows::ONE);
    }

    /// Fills the whole subtrees of loop `k`'s `digits` with the pad value, for each of `rows`.
    fn fill_digits(
        &self,
        dst: &mut [T],
        k: usize,
        d: usize,
        p: &mut Point,
        digits: core::ops::Range<usize>,
        rows: Rows,
    ) {
        if !self.plan.fills || digits.is_empty() {
            return;
        }
        let level = self.plan.levels[k];
        if self.plan.flat_fill[k] {
            for r in 0..rows.count {
                let base = d + r * rows.dst;
                dst[base + digits.start * level.dst..base + digits.end * level.dst].fill(self.pad);
            }
            return;
        }
        for i in digits {
            p[level.dim] += i * level.step;
            self.fill(dst, k + 1, d + i * level.dst, p, rows);
            p[level.dim] -= i * level.step;
        }
    }

    /// Fills every slot of loop `k`'s subtree that lies within the padded extent.
    pub(crate) fn fill(&self, dst: &mut [T], k: usize, d: usize, p: &mut Point, rows: Rows) {
        if k == self.plan.len {
            for r in 0..rows.count {
                dst[d + r * rows.dst] = self.pad;
            }
            return;
        }
        let (first, _, slot_end) = self.bounds(k, p);
        self.fill_digits(dst, k, d, p, first..slot_end, rows);
    }
}
