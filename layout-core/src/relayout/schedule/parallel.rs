//! The `parallel` feature: large relayouts split across rayon's threads, the plan's outer loops
//! cut into contiguous destination blocks handed out one at a time ([`share_pieces`]).

use super::walk::Nest;
use crate::relayout::choices::Choices;
use crate::relayout::kernels::Element;
use crate::relayout::plan::{Kernel, MAX_LEVELS, Plan, Point, destination_reach};
use crate::relayout::tuning::{PIECES_PER_THREAD, ROWS};

/// The threads a relayout writing `dst_bytes` is shared among: rayon's, from the machine's
/// [`Choices::min_parallel_bytes`] on; one below.
pub(crate) fn threads_for(dst_bytes: usize, choices: &Choices) -> usize {
    if dst_bytes < choices.min_parallel_bytes {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// Readies `plan` for a split among threads ([`run`]): [`Plan::destination_blocks_outermost`],
/// then, where one kernel call would cover it all, the outermost bound-free loop cut in two,
/// the outer part (the least divisor giving each thread [`PIECES_PER_THREAD`] pieces, a
/// transpose's rows whole blocks of [`ROWS`]) outside the kernel's.
pub(crate) fn cut_for_threads(
    plan: &mut Plan,
    dst_bytes: usize,
    element_bytes: usize,
    choices: &Choices,
) {
    let threads = threads_for(dst_bytes, choices);
    if threads < 2 {
        return;
    }
    plan.destination_blocks_outermost(element_bytes);
    let first = plan.levels[0];
    let rows_loop = match plan.kernel {
        Kernel::Transpose { rows, .. } => rows == 0,
        Kernel::Rows => false,
        Kernel::Strided | Kernel::Indexed => return,
    };
    if plan.kernel_from != 0 || plan.len < 2 || plan.len == MAX_LEVELS || !plan.free[first.dim] {
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
    if let Kernel::Transpose { rows, cols } = &mut plan.kernel {
        (*rows, *cols) = (*rows + 1, *cols + 1);
    }
    plan.kernel_from = 1;
}

/// Runs the nest on rayon's threads; `false` (nothing written) when it should not be split.
pub(crate) fn run<T: Element>(nest: &Nest<'_, T>, dst: &mut [T]) -> bool {
    let plan = nest.plan;
    let threads = threads_for(core::mem::size_of_val(dst), nest.choices);
    // The index-driven kernel (a rare fallback) runs on the calling thread: its loops are uncut.
    if threads < 2 || plan.kernel == Kernel::Indexed {
        return false;
    }
    let levels = plan.levels();
    let mut pieces = 1usize;
    let mut split = None;
    for k in 0..plan.kernel_from {
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
    share_pieces(
        &mut dst[plan.dst_base..end],
        block,
        threads,
        |piece, out| run_piece(nest, out, k, piece),
    );
    true
}

/// Runs `run` on every `block`-long piece of `dst` (numbered from 0), on the calling thread
/// and `threads - 1` of rayon's, each taking the next piece not yet taken. The caller starts at
/// once: handed whole to rayon from outside its threads, it would wait for them to wake.
fn share_pieces<T: Send>(
    dst: &mut [T],
    block: usize,
    threads: usize,
    run: impl Fn(usize, &mut [T]) + Sync,
) {
    extern crate std;
    use core::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let pieces: alloc::vec::Vec<Mutex<Option<&mut [T]>>> = dst
        .chunks_mut(block)
        .map(|piece| Mutex::new(Some(piece)))
        .collect();
    let next = AtomicUsize::new(0);
    let take_pieces = || {
        loop {
            let piece = next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = pieces.get(piece) else { break };
            // Each piece's number is handed out once, so its slot is still full here.
            let taken = slot.lock().map(|mut slot| slot.take()).ok().flatten();
            if let Some(out) = taken {
                run(piece, out);
            }
        }
    };
    rayon::in_place_scope(|scope| {
        for _ in 1..threads.min(pieces.len()) {
            scope.spawn(|_| take_pieces());
        }
        take_pieces();
    });
}

/// Runs the subtree of digit combination `piece` of loops `0..=k` into its block `out`.
fn run_piece<T: Element>(nest: &Nest<'_, T>, out: &mut [T], k: usize, piece: usize) {
    let levels = nest.plan.levels();
    let mut point: Point = [0; crate::mappings::MAX_RANK + 1];
    let mut src = nest.plan.src_base;
    // The digit combinations of the loops inside loop `j` (to `k`): `piece`'s digit of loop `j`
    // is `piece / below % extent`.
    let mut below: usize = levels[..=k].iter().map(|l| l.extent).product();
    // The block lies inside one subtree of each of these loops: it is data if every digit is a
    // data digit, padding if some digit is past the data but none past the padded extent.
    let mut data = true;
    for (j, level) in levels[..=k].iter().enumerate() {
        let (_, data_end, slot_end) = nest.plan.bounds(j, &point);
        below /= level.extent;
        let digit = piece / below % level.extent;
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

#[cfg(test)]
mod tests {
    use super::share_pieces;
    use alloc::vec::Vec;

    /// Every piece, the last one shorter, runs once with its own number, for any thread count
    /// (more than pieces too), from outside rayon's threads and from one of them.
    #[test]
    fn every_piece_runs_once_with_its_number() {
        for threads in [1, 2, 3, 16] {
            for inside in [false, true] {
                let mut dst: Vec<(usize, usize)> = alloc::vec![(usize::MAX, 0); 29];
                let share = |dst: &mut [(usize, usize)]| {
                    share_pieces(dst, 4, threads, |piece, out| {
                        out.iter_mut().for_each(|slot| *slot = (piece, slot.1 + 1));
                    })
                };
                if inside {
                    rayon::scope(|_| share(&mut dst));
                } else {
                    share(&mut dst);
                }
                let want: Vec<(usize, usize)> = (0..29).map(|i| (i / 4, 1)).collect();
                assert_eq!(dst, want, "{threads} threads, inside rayon: {inside}");
            }
        }
    }
}
