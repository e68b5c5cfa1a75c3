//! The `parallel` feature: large relayouts split across rayon's threads.
//!
//! The outer loops of the plan are cut into as many pieces as give every thread several: each
//! digit combination of those loops owns a disjoint, contiguous block of the destination (the
//! loops are nested row-major in the destination), so the blocks are handed out with
//! `par_chunks_mut` and each runs the rest of the nest on its own. Small tensors, and plans
//! whose outer loops do not own contiguous blocks, run on the calling thread.

use super::walk::Nest;
use crate::relayout::kernels::Element;
use crate::relayout::plan::{Kernel, MAX_LEVELS, Plan, Point, destination_reach};
use crate::relayout::tuning::{PIECES_PER_THREAD, ROWS, Tuning};
use rayon::prelude::*;

/// The threads a relayout writing `dst_bytes` is shared among: rayon's, from the processor
/// family's [`Tuning::min_parallel_bytes`] on; one below.
pub(crate) fn threads_for(dst_bytes: usize) -> usize {
    if dst_bytes < Tuning::current().min_parallel_bytes {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// Readies `plan` for a split among threads ([`run`]) where it writes `dst_bytes`. A row copy
/// whose outermost loop does not own contiguous blocks of the destination first gets the
/// loop that does in front ([`Plan::destination_blocks_outermost`]). Where one kernel call
/// would cover the whole relayout (no loop outside the kernel's to split among threads: one
/// image's transpose), the outermost loop is then cut in two: the outer part, the least
/// divisor of the loop's extent that gives every thread [`PIECES_PER_THREAD`] pieces, goes
/// outside the kernel's loops. A transpose's rows keep whole blocks of [`ROWS`] in each piece.
/// Only loops without bounds (no padding), on a plan with room for another loop. f32
/// 1x256x56x56 NCHW <-> NHWC: 14 x 224 positions, 8 x 32 channels.
pub(crate) fn cut_for_threads(plan: &mut Plan, dst_bytes: usize, element_bytes: usize) {
    let threads = threads_for(dst_bytes);
    if threads >= 2 {
        plan.destination_blocks_outermost(element_bytes);
    }
    let first = plan.levels[0];
    let rows_loop = match plan.kernel {
        Kernel::Transpose { rows, .. } => rows == 0,
        Kernel::Rows => false,
        Kernel::Strided | Kernel::Indexed => return,
    };
    if threads < 2
        || plan.kernel_from != 0
        || plan.len < 2
        || plan.len == MAX_LEVELS
        || !plan.free[first.dim]
    {
        return;
    }
    let pieces = threads * PIECES_PER_THREAD;
    let Some(outer) = (pieces..=first.extent / 2).find(|&p| {
        let inner = first.extent / p;
        first.extent.is_multiple_of(p) && (!rows_loop || inner.is_multiple_of(ROWS))
    }) else {
        return;
    };
    // The outer part outermost, where the split hands out its digits: the same slots, and
    // the pieces are whole blocks of the destination (the loop has no bounds).
    plan.split_loop(0, 0, first.extent / outer);
    if let Kernel::Transpose { rows, cols } = plan.kernel {
        plan.kernel = Kernel::Transpose {
            rows: rows + 1,
            cols: cols + 1,
        };
    }
    plan.kernel_from = 1;
}

/// Runs the nest on rayon's threads; `false` (nothing written) when it should not be split.
pub(crate) fn run<T: Element>(nest: &Nest<'_, T>, dst: &mut [T]) -> bool {
    let plan = nest.plan;
    let threads = threads_for(core::mem::size_of_val(dst));
    if threads < 2 {
        return false;
    }
    // The innermost loops a kernel needs whole.
    if plan.kernel == Kernel::Indexed {
        return false;
    }
    let kernel_from = plan.kernel_from;
    let levels = plan.levels();
    let mut pieces = 1usize;
    let mut split = None;
    for k in 0..kernel_from {
        let reach = destination_reach(&levels[k + 1..]);
        let nested = k == 0 || levels[k - 1].dst == levels[k].dst * levels[k].extent;
        if !nested || levels[k].dst < reach {
            break;
        }
        pieces *= levels[k].extent;
        split = Some(k);
        if pieces >= threads * PIECES_PER_THREAD {
            break;
        }
    }
    let Some(k) = split else { return false };
    if pieces < threads {
        return false;
    }
    let block = levels[k].dst;
    let end = (plan.dst_base + pieces * block).min(dst.len());
    dst[plan.dst_base..end]
        .par_chunks_mut(block)
        .enumerate()
        .for_each(|(piece, out)| run_piece(nest, out, k, piece));
    true
}

/// Runs the subtree of digit combination `piece` of loops `0..=k` into its block `out`.
fn run_piece<T: Element>(nest: &Nest<'_, T>, out: &mut [T], k: usize, piece: usize) {
    let levels = nest.plan.levels();
    let mut point: Point = [0; crate::MAX_RANK + 1];
    let mut src = nest.plan.src_base;
    let mut rest = piece;
    let mut digits = [0usize; MAX_LEVELS];
    for j in (0..=k).rev() {
        digits[j] = rest % levels[j].extent;
        rest /= levels[j].extent;
    }
    // The block lies inside one subtree of each of these loops: it is data if every digit is a
    // data digit, padding if some digit is past the data but none past the padded extent.
    let mut data = true;
    for (j, level) in levels[..=k].iter().enumerate() {
        let (_, data_end, slot_end) = nest.plan.bounds(j, &point);
        let digit = digits[j];
        if digit >= slot_end {
            return;
        }
        data &= digit < data_end;
        point[level.dim] += digit * level.step;
        src += digit * level.src;
    }
    if data {
        nest.data(out, k + 1, src, 0, &mut point);
    } else {
        nest.fill(out, k + 1, 0, &mut point);
    }
}
