//! Running a [`Plan`]: one loop nest over the destination that writes every element and padding
//! slot it reaches once, each loop's digits cut in data, padding and past it ([`Plan::bounds`]).

use super::streaming::Streaming;
use crate::relayout::choices::Choices;
use crate::relayout::kernels::{
    Destination, Element, Reach, RowBlock, TileBatch, copy_row_block, copy_strided, transpose,
};
use crate::relayout::plan::{Kernel, Level, LineRows, Listings, Plan, Point, list};
use core::ops::Range;

/// The source offset of a point of the destination walk, for [`Kernel::Indexed`] plans.
pub(crate) type SourceOffsets<'a> = dyn Fn(&Point) -> usize + Sync + 'a;

/// A plan bound to its source slots and pad value.
pub(crate) struct Nest<'a, T> {
    pub plan: &'a Plan,
    /// The kernel's listings ([`Plan::listings`]).
    pub listings: &'a Listings,
    /// The offsets a kernel's rows (and a transpose's columns) reach ([`Reach::of`]).
    pub reach: Reach,
    pub src: &'a [T],
    pub pad: T,
    /// Which stores go past the caches ([`Streaming::for_destination`]).
    pub streaming: Streaming,
    /// The machine-dependent choices of the kernels.
    pub choices: &'a Choices,
    pub src_offset_of: &'a SourceOffsets<'a>,
}

impl<T: Element> Nest<'_, T> {
    /// Copies the subtree of loop `k` (source offset `s`, destination offset `d`).
    pub(crate) fn data(&self, dst: &mut [T], k: usize, s: usize, d: usize, p: &mut Point) {
        let plan = self.plan;
        if k + 1 == plan.len {
            return self.innermost(dst, s, d, p);
        }
        match plan.kernel {
            Kernel::Rows if k == plan.kernel_from => return self.row_block(dst, s, d, p),
            Kernel::Transpose { rows, cols } if k == plan.kernel_from => {
                return self.transpose(dst, s, d, p, rows, cols);
            }
            _ => {}
        }
        let level = plan.levels[k];
        let (first, data_end, slot_end) = self.plan.bounds(k, p);
        for i in first..data_end {
            p[level.dim] += i * level.step;
            self.data(dst, k + 1, s + i * level.src, d + i * level.dst, p);
            p[level.dim] -= i * level.step;
        }
        self.fill_digits(dst, k, d, p, data_end..slot_end);
    }

    /// The innermost loop, with the plan's kernel.
    fn innermost(&self, dst: &mut [T], s: usize, d: usize, p: &mut Point) {
        let k = self.plan.len - 1;
        let level = self.plan.levels[k];
        let (first, data_end, slot_end) = self.plan.bounds(k, p);
        match self.plan.kernel {
            Kernel::Rows => {
                dst[d + first..d + data_end].copy_from_slice(&self.src[s + first..s + data_end])
            }
            Kernel::Strided | Kernel::Transpose { .. } => {
                copy_strided(dst, d, level.dst, self.src, s, level.src, first..data_end)
            }
            Kernel::Indexed => {
                for i in first..data_end {
                    p[level.dim] += i * level.step;
                    dst[d + i * level.dst] = self.src[(self.src_offset_of)(p)];
                    p[level.dim] -= i * level.step;
                }
            }
        }
        self.fill_digits(dst, k, d, p, data_end..slot_end);
    }

    /// A row plan's row block: its rows within the innermost loop's bounds ([`RowWalk::copy`]).
    fn row_block(&self, dst: &mut [T], s: usize, d: usize, p: &mut Point) {
        let plan = (self.plan, self.listings, self.reach);
        let walk = RowWalk::of(plan, self.streaming, self.choices, size_of::<T>(), p);
        walk.copy(dst, d, self.src, s, self.pad);
    }

    /// The transposes of loops `rows..cols` by `cols..len`, a tile at each digit combination of
    /// the bound-free loops `kernel_from..rows`, in one kernel call; then each tile's padding
    /// (only a group of one loop has bounds).
    fn transpose(
        &self,
        dst: &mut [T],
        s: usize,
        d: usize,
        p: &mut Point,
        rows: usize,
        cols: usize,
    ) {
        let listings = self.listings;
        let (row_digits, row_slots) = self.group_digits(rows, cols, listings.rows.len(), p);
        let (col_digits, col_slots) =
            self.group_digits(cols, self.plan.len, listings.cols.len(), p);
        let batch = TileBatch {
            origins: &listings.tiles,
            rows: &listings.rows[row_digits.clone()],
            cols: &listings.cols[col_digits.clone()],
            row_pitch: listings.row_pitch,
            rows_run: listings.rows_run,
            cols_run: listings.cols_run,
            choices: self.choices,
        };
        let (src, reach, streamed) = (self.src, self.reach, self.streaming.blocks);
        transpose(dst, d, src, s, batch, reach, streamed);
        if !self.plan.fills {
            return;
        }
        for &(_, tile) in batch.origins {
            let d = d + tile;
            if col_slots > col_digits.end {
                for &(_, row) in batch.rows {
                    dst[d + row + col_digits.end..d + row + col_slots].fill(self.pad);
                }
            }
            self.fill_digits(dst, rows, d, p, row_digits.end..row_slots);
        }
    }

    /// Digits of the group of loops `from..to` (`listed` combinations) at `p`, and the end of
    /// its padding: the bounds of its loop when it is one, else every combination.
    fn group_digits(
        &self,
        from: usize,
        to: usize,
        listed: usize,
        p: &Point,
    ) -> (Range<usize>, usize) {
        if to - from == 1 {
            let (first, data_end, slot_end) = self.plan.bounds(from, p);
            (first..data_end, slot_end)
        } else {
            (0..listed, listed)
        }
    }

    /// Fills the whole subtrees of loop `k`'s `digits` (destination offset `d`) with the pad.
    fn fill_digits(&self, dst: &mut [T], k: usize, d: usize, p: &mut Point, digits: Range<usize>) {
        if !self.plan.fills || digits.is_empty() {
            return;
        }
        let level = self.plan.levels[k];
        if self.plan.flat_fill[k] {
            dst[d + digits.start * level.dst..d + digits.end * level.dst].fill(self.pad);
            return;
        }
        for i in digits {
            p[level.dim] += i * level.step;
            self.fill(dst, k + 1, d + i * level.dst, p);
            p[level.dim] -= i * level.step;
        }
    }

    /// Fills every slot of loop `k`'s subtree that lies within the padded extent.
    pub(crate) fn fill(&self, dst: &mut [T], k: usize, d: usize, p: &mut Point) {
        if k == self.plan.len {
            dst[d] = self.pad;
            return;
        }
        let (first, _, slot_end) = self.plan.bounds(k, p);
        self.fill_digits(dst, k, d, p, first..slot_end);
    }
}

/// A row plan's row blocks as plain offsets, the kernel call resolved once: the loops outside
/// the row block (bound-free, so each block copies the same rows from a sum of their steps),
/// the rows' data and padding, where they are written.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk<'a> {
    /// The plan's loops outside the row block, outermost first.
    outer: &'a [Level],
    /// The rows of a block: source and destination offsets from the block's.
    pub rows: &'a [(usize, usize)],
    /// The elements of each row that are data.
    pub cols: Range<usize>,
    /// The end of each destination row's padding (`cols.end` when it has none).
    pub slot_end: usize,
    reach: Reach,
    into: Destination,
    /// How far on streamed rows ask for their source: as far as a transpose's streamed blocks
    /// do, for they read from as many places, more than the hardware prefetcher runs ahead of.
    streamed_ahead: usize,
    /// How far on each row asks for its counterpart in the next block
    /// ([`Listings::row_source_ahead`]; 0: not at all).
    source_ahead: usize,
}

impl<'a> RowWalk<'a> {
    /// The row blocks of `plan`, a row plan, with its `listings` and their `reach`, stores as
    /// `streaming` says; each row's data and padding the innermost loop's bounds at `p`.
    pub(crate) fn of(
        (plan, listings, reach): (&'a Plan, &'a Listings, Reach),
        streaming: Streaming,
        choices: &Choices,
        element_bytes: usize,
        p: &Point,
    ) -> Self {
        let (first, data_end, slot_end) = plan.bounds(plan.len - 1, p);
        RowWalk {
            outer: &plan.levels[..plan.kernel_from],
            // Without listed loops the row block is one row, copied by the innermost loop.
            rows: if plan.kernel_from + 1 == plan.len {
                &[(0, 0)]
            } else {
                &listings.rows
            },
            cols: first..data_end,
            slot_end,
            reach,
            into: row_destination(streaming, listings.line_rows),
            streamed_ahead: choices
                .streamed_prefetch_bytes
                .map_or(0, |bytes| bytes / element_bytes.max(1)),
            source_ahead: listings.row_source_ahead,
        }
    }

    /// Whether the walk is one row block, with no loop outside it.
    pub(crate) fn is_one_block(&self) -> bool {
        self.outer.is_empty()
    }

    /// Calls `visit(s, d)` with the source and destination offsets of each row block, in order.
    pub(crate) fn each_block(&self, mut visit: impl FnMut(usize, usize)) {
        list(self.outer).into_iter().for_each(|(s, d)| visit(s, d));
    }

    /// Copies each listed row's data from `src` at `s` into `dst` at `d` in one kernel call,
    /// then `pad` into each row's padding.
    #[inline(always)]
    pub(crate) fn copy<T: Element>(&self, dst: &mut [T], d: usize, src: &[T], s: usize, pad: T) {
        let (cols, slot_end, ahead) = (self.cols.clone(), self.slot_end, self.streamed_ahead);
        let (data_end, source_ahead) = (cols.end, self.source_ahead);
        let block = RowBlock {
            dst: &mut *dst,
            d,
            src,
            s,
            source_ahead,
        };
        copy_row_block(block, self.rows, cols, self.reach, self.into, ahead);
        if slot_end > data_end {
            for &(_, row) in self.rows {
                dst[d + row + data_end..d + row + slot_end].fill(pad);
            }
        }
    }
}

/// Where a row block's destination lies, which decides how its rows are written. Whole-line
/// rows go through the cache until `streaming.line_rows`, a plain memcpy that a destination
/// prefetch only slows: never [`Destination::Far`].
fn row_destination(streaming: Streaming, lines: LineRows) -> Destination {
    match lines {
        LineRows::Whole if streaming.line_rows => Destination::FarLines,
        LineRows::Whole => Destination::Cached,
        LineRows::Pairs if streaming.short_rows => Destination::FarLines,
        LineRows::Pairs => Destination::Cached,
        LineRows::Partial if streaming.short_rows || streaming.far_rows => Destination::Far,
        _ => Destination::Cached,
    }
}
