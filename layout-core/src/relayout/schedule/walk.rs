//! Running a [`Plan`]: one loop nest over the destination that writes every element and every
//! padding slot it reaches exactly once. Each loop's digits are cut in three ([`Plan::bounds`]):
//! data (walked), padding (filled, as one slice where the subtree is a dense block), and past
//! the padded extent; the cuts cost a comparison per loop entry, never a division per element.

use super::streaming::Streaming;
use crate::relayout::choices::Choices;
use crate::relayout::kernels::{
    Destination, Element, Reach, RowBlock, TileBatch, copy_row_block, copy_strided, transpose,
};
use crate::relayout::plan::{Kernel, LineRows, Listings, Plan, Point};

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
    /// How far on in the source each row of a row block asks for its counterpart in the next
    /// block ([`Listings::row_source_ahead`]; 0: not at all).
    pub source_ahead: usize,
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

    /// A row plan's row block: each listed row within the innermost loop's bounds (its data
    /// digits) in one kernel call, then each row's padding.
    fn row_block(&self, dst: &mut [T], s: usize, d: usize, p: &mut Point) {
        let (first, data_end, slot_end) = self.plan.bounds(self.plan.len - 1, p);
        let rows = &self.listings.rows;
        let into = row_destination(self.streaming, self.listings.line_rows);
        // Streamed rows read their source from as many places as a transpose's streamed blocks
        // do, more than the hardware prefetcher runs ahead of: the same distance.
        let streamed_ahead = self
            .choices
            .streamed_prefetch_bytes
            .map_or(0, |bytes| bytes / size_of::<T>().max(1));
        let block = RowBlock {
            dst: &mut *dst,
            d,
            src: self.src,
            s,
            source_ahead: self.source_ahead,
        };
        copy_row_block(
            block,
            rows,
            first..data_end,
            self.reach,
            into,
            streamed_ahead,
        );
        if self.plan.fills && slot_end > data_end {
            for &(_, row) in rows {
                dst[d + row + data_end..d + row + slot_end].fill(self.pad);
            }
        }
    }

    /// The batch of transposes of loops `rows..cols` by `cols..len`, one tile at each digit
    /// combination of the bound-free loops `kernel_from..rows`: one kernel call, then each
    /// tile's padding of its columns and of its rows (only a group of one loop has bounds).
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
        transpose(
            dst,
            d,
            self.src,
            s,
            batch,
            self.reach,
            self.streaming.blocks,
        );
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
    ) -> (core::ops::Range<usize>, usize) {
        if to - from == 1 {
            let (first, data_end, slot_end) = self.plan.bounds(from, p);
            (first..data_end, slot_end)
        } else {
            (0..listed, listed)
        }
    }

    /// Fills the whole subtrees of loop `k`'s `digits` (destination offset `d`) with the pad.
    fn fill_digits(
        &self,
        dst: &mut [T],
        k: usize,
        d: usize,
        p: &mut Point,
        digits: core::ops::Range<usize>,
    ) {
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

/// Where the destination of a row block lies, which decides how its rows are written. Rows that
/// are whole lines go through the cache until `streaming.line_rows`: there they are a plain
/// memcpy, which a destination prefetch only slows, so they never take [`Destination::Far`].
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
