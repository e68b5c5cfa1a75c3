//! A chunk table's relayout shared among rayon's threads (the `parallel` feature), from the
//! same size of destination as the contiguous engine splits: the chunks move in pieces (runs
//! of consecutive bands), cut in halves for as long as there are threads for them. Into a table
//! the halves write their own chunks; out of one, each half writes the range of the other
//! tensor's storage that its boxes reach, and where the halves' ranges overlap (as flat NHWC
//! cut by images or rows does not, but oneDNN's `nChw32c` does, its channel blocks outermost)
//! the pieces stay together. Without the feature, or below that size, every piece runs on the
//! calling thread.

use super::Table;
#[cfg(feature = "parallel")]
use crate::relayout::choices::Choices;
use crate::relayout::plan::Band;
#[cfg(feature = "parallel")]
use crate::relayout::schedule::threads_for;
#[cfg(feature = "parallel")]
use crate::relayout::tuning::PIECES_PER_THREAD;
use crate::table_chunks::TableChunksMut;
use alloc::vec::Vec;
use core::ops::Range;

/// The pieces that `table`'s chunks of `chunk_bytes` move in one at a time, writing
/// `dst_bytes`: bands of about equal size, `PIECES_PER_THREAD` per thread, so that halves of
/// them balance; one band of every chunk where the relayout stays on one thread.
pub(super) fn pieces(table: &Table<'_>, chunk_bytes: usize, dst_bytes: usize) -> Vec<Band> {
    #[cfg(feature = "parallel")]
    let bytes = match threads_for(dst_bytes, &Choices::of_this_machine()) {
        1 => usize::MAX,
        n => (table.grid.count() * chunk_bytes).div_ceil(n * PIECES_PER_THREAD),
    };
    #[cfg(not(feature = "parallel"))]
    let bytes = {
        let _ = dst_bytes;
        usize::MAX
    };
    table.grid.bands(chunk_bytes, bytes).iter().collect()
}

/// The chunk numbers of a run of consecutive pieces.
pub(super) fn chunks_of(pieces: &[Band]) -> Range<usize> {
    match pieces {
        [first, .., last] => first.chunks.start..last.chunks.end,
        [only] => only.chunks.clone(),
        [] => 0..0,
    }
}

/// Moves `pieces` (together every chunk of `table`, its source) into `dst` with
/// `leaf(run, part, at)` for runs of consecutive pieces, `part` the slots of `dst` from offset
/// `at` that the run writes; `false` when a leaf answers `false`.
pub(super) fn out_of_table<T, F>(
    table: &Table<'_>,
    pieces: &[Band],
    dst: &mut [T],
    leaf: &F,
) -> bool
where
    T: Send,
    F: Fn(&[Band], &mut [T], usize) -> bool + Sync,
{
    #[cfg(feature = "parallel")]
    {
        let threads = threads_for(size_of_val(dst), &Choices::of_this_machine());
        if threads > 1 && pieces.len() > 1 {
            let reaches: Option<Vec<Range<usize>>> = pieces
                .iter()
                .map(|piece| {
                    let mut pair = table.cut(piece)?;
                    let (_, other) = table.sides(&mut pair);
                    Some(other.slots())
                })
                .collect();
            if let Some(reaches) = reaches {
                return out_halves(pieces, &reaches, dst, 0, threads, leaf);
            }
        }
    }
    #[cfg(not(feature = "parallel"))]
    let _ = table;
    leaf(pieces, dst, 0)
}

/// Moves `pieces` (together every chunk of `table`, its destination) into `chunks` with
/// `leaf(run, part)` for runs of consecutive pieces, `part` the chunks of the run; `false` when
/// a leaf answers `false`.
pub(super) fn into_table<T, F>(
    table: &Table<'_>,
    pieces: &[Band],
    chunks: TableChunksMut<'_, T>,
    leaf: &F,
) -> bool
where
    T: Send,
    F: Fn(&[Band], TableChunksMut<'_, T>) -> bool + Sync,
{
    #[cfg(feature = "parallel")]
    {
        let threads = threads_for(
            table.volume * chunks.len() * size_of::<T>(),
            &Choices::of_this_machine(),
        );
        if threads > 1 && pieces.len() > 1 {
            return into_halves(pieces, chunks, threads, leaf);
        }
    }
    #[cfg(not(feature = "parallel"))]
    let _ = table;
    leaf(pieces, chunks)
}

/// [`out_of_table`] over `pieces` with `threads` threads, `dst` the slots from offset `at`
/// and `reaches` the slots each piece writes.
#[cfg(feature = "parallel")]
fn out_halves<T, F>(
    pieces: &[Band],
    reaches: &[Range<usize>],
    dst: &mut [T],
    at: usize,
    threads: usize,
    leaf: &F,
) -> bool
where
    T: Send,
    F: Fn(&[Band], &mut [T], usize) -> bool + Sync,
{
    let mid = pieces.len() / 2;
    let left_end = reaches[..mid].iter().map(|r| r.end).max().unwrap_or(at);
    let right_start = reaches[mid..].iter().map(|r| r.start).min().unwrap_or(at);
    let apart = at <= left_end && left_end <= right_start && right_start <= at + dst.len();
    if threads < 2 || mid == 0 || !apart {
        return leaf(pieces, dst, at);
    }
    let (left, right) = dst.split_at_mut(right_start - at);
    let ((pl, pr), (rl, rr)) = (pieces.split_at(mid), reaches.split_at(mid));
    let threads = threads.div_ceil(2);
    let (a, b) = rayon::join(
        || out_halves(pl, rl, left, at, threads, leaf),
        || out_halves(pr, rr, right, right_start, threads, leaf),
    );
    a && b
}

/// [`into_table`] over `pieces` with `threads` threads, `chunks` those of the pieces.
#[cfg(feature = "parallel")]
fn into_halves<T, F>(
    pieces: &[Band],
    chunks: TableChunksMut<'_, T>,
    threads: usize,
    leaf: &F,
) -> bool
where
    T: Send,
    F: Fn(&[Band], TableChunksMut<'_, T>) -> bool + Sync,
{
    let mid = pieces.len() / 2;
    if threads < 2 || mid == 0 {
        return leaf(pieces, chunks);
    }
    let (left, right) = chunks.split_at(pieces[mid].chunks.start - pieces[0].chunks.start);
    let threads = threads.div_ceil(2);
    let (a, b) = rayon::join(
        || into_halves(&pieces[..mid], left, threads, leaf),
        || into_halves(&pieces[mid..], right, threads, leaf),
    );
    a && b
}
