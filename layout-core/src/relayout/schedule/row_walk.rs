//! A prepared plan of row copies as plain offsets, for kernels that move its rows themselves:
//! out of and into the chunks of a chunk table, where a row's source (or destination) is a
//! chunk of its own and not an offset in one slice.

use super::copy::Prepared;
use crate::MAX_RANK;
use crate::relayout::plan::{Kernel, MAX_LEVELS};
use core::ops::Range;

/// One loop outside a row block: its digits and how far each moves the source and the
/// destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OuterLoop {
    pub extent: usize,
    pub src: usize,
    pub dst: usize,
}

/// A plan of row copies whose loops outside the row block need no bounds (every digit is
/// data): the row blocks are the sums of those loops' steps, and each copies the same listed
/// rows.
#[derive(Clone, Debug)]
pub(crate) struct RowWalk<'p> {
    outer: [OuterLoop; MAX_LEVELS],
    len: usize,
    /// The rows of a block: source and destination offsets from the block's.
    pub rows: &'p [(usize, usize)],
    /// The elements of each row that are data.
    pub cols: Range<usize>,
    /// The end of each destination row's padding (`cols.end` when it has none).
    pub slot_end: usize,
}

impl Prepared {
    /// This plan as a row walk; `None` unless it copies rows and its loops outside the row
    /// block need no bounds.
    pub(crate) fn row_walk(&self) -> Option<RowWalk<'_>> {
        let plan = &self.plan;
        if plan.kernel != Kernel::Rows || plan.len < 2 {
            return None;
        }
        // Without listed loops the row block is one row, copied by the innermost loop.
        let rows: &[(usize, usize)] = if plan.kernel_from + 1 == plan.len {
            &[(0, 0)]
        } else {
            &self.listings.rows
        };
        let mut walk = RowWalk {
            outer: [OuterLoop::default(); MAX_LEVELS],
            len: plan.kernel_from,
            rows,
            cols: 0..0,
            slot_end: 0,
        };
        for (k, level) in plan.levels[..plan.kernel_from].iter().enumerate() {
            if !plan.free[level.dim] {
                return None;
            }
            walk.outer[k] = OuterLoop {
                extent: level.extent,
                src: level.src,
                dst: level.dst,
            };
        }
        let (first, data_end, slot_end) = plan.bounds(plan.len - 1, &[0; MAX_RANK + 1]);
        let innermost = plan.levels[plan.len - 1].dim;
        if !plan.free[innermost] && plan.kernel_from > 0 {
            // Bounds that could differ from block to block: the walk cannot list them once.
            return None;
        }
        (walk.cols, walk.slot_end) = (
            first..data_end,
            if plan.fills { slot_end } else { data_end },
        );
        Some(walk)
    }
}

impl RowWalk<'_> {
    /// Calls `visit(s, d)` with the source and destination offsets of each row block, in the
    /// walk's order.
    pub(crate) fn each_block(&self, mut visit: impl FnMut(usize, usize)) {
        let outer = &self.outer[..self.len];
        let mut digits = [0usize; MAX_LEVELS];
        let (mut s, mut d) = (0, 0);
        loop {
            visit(s, d);
            let mut k = outer.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                digits[k] += 1;
                s += outer[k].src;
                d += outer[k].dst;
                if digits[k] < outer[k].extent {
                    break;
                }
                s -= outer[k].extent * outer[k].src;
                d -= outer[k].extent * outer[k].dst;
                digits[k] = 0;
            }
        }
    }
}
