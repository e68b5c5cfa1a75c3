//! A prepared plan of row copies as plain offsets, for kernels that move its rows themselves:
//! out of and into the chunks of a chunk table, where a row's source (or destination) is a
//! chunk of its own and not an offset in one slice.

use super::copy::Prepared;
use crate::relayout::plan::{Kernel, Level, MAX_LEVELS};
use crate::{mappings::MAX_RANK, mappings::for_each_row_major_index};
use core::ops::Range;

/// A plan of row copies whose loops outside the row block need no bounds (every digit is
/// data): each row block, at a sum of those loops' steps, copies the same listed rows.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk<'p> {
    /// The plan's loops outside the row block, outermost first.
    outer: &'p [Level],
    /// The rows of a block: source and destination offsets from the block's.
    pub rows: &'p [(usize, usize)],
    /// The elements of each row that are data.
    pub cols: Range<usize>,
    /// The end of each destination row's padding (`cols.end` when it has none).
    pub slot_end: usize,
}

impl Prepared {
    /// This plan as a row walk; `None` unless it copies rows with no bounds outside the row block.
    pub(crate) fn row_walk(&self) -> Option<RowWalk<'_>> {
        let (plan, listings) = (&self.planned.plan, &self.planned.listings);
        if plan.kernel != Kernel::Rows || plan.len < 2 {
            return None;
        }
        let outer = &plan.levels[..plan.kernel_from];
        if outer.iter().any(|level| !plan.free[level.dim]) {
            return None;
        }
        let innermost = plan.levels[plan.len - 1].dim;
        if !plan.free[innermost] && plan.kernel_from > 0 {
            // Bounds that could differ from block to block: the walk cannot list them once.
            return None;
        }
        // Without listed loops the row block is one row, copied by the innermost loop.
        let rows: &[(usize, usize)] = if plan.kernel_from + 1 == plan.len {
            &[(0, 0)]
        } else {
            &listings.rows
        };
        let (first, data_end, slot_end) = plan.bounds(plan.len - 1, &[0; MAX_RANK + 1]);
        Some(RowWalk {
            outer,
            rows,
            cols: first..data_end,
            slot_end: if plan.fills { slot_end } else { data_end },
        })
    }
}

impl RowWalk<'_> {
    /// Calls `visit(s, d)` with the source and destination offsets of each row block, in order.
    pub(crate) fn each_block(&self, mut visit: impl FnMut(usize, usize)) {
        let mut extents = [0; MAX_LEVELS];
        for (extent, level) in extents.iter_mut().zip(self.outer) {
            *extent = level.extent;
        }
        for_each_row_major_index(&extents[..self.outer.len()], |_, digits| {
            let (s, d) = digits
                .iter()
                .zip(self.outer)
                .fold((0, 0), |(s, d), (&i, level)| {
                    (s + i * level.src, d + i * level.dst)
                });
            visit(s, d);
        });
    }
}
