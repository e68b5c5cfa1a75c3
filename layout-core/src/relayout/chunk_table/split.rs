//! A chunk table's relayout shared among rayon's threads (the `parallel` feature), from the
//! same size as the contiguous engine: pieces (runs of consecutive bands) cut in halves while
//! there are threads. Into a table each half writes its own chunks; out of one, the range of
//! the other tensor its boxes reach, halves whose ranges overlap staying together.

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

/// The pieces `table`'s chunks move in: bands of about equal size, `PIECES_PER_THREAD` per
/// thread so that halves balance; one band on one thread.
pub(super) fn pieces(table: &Table<'_>, chunk_bytes: usize, dst_bytes: usize) -> Vec<Band> {
    #[cfg(feature = "parallel")]
    if let n @ 2.. = threads_for(dst_bytes, &Choices::of_this_machine()) {
        let bytes = (table.grid.count() * chunk_bytes).div_ceil(n * PIECES_PER_THREAD);
        return table.grid.bands(chunk_bytes, bytes);
    }
    let _ = dst_bytes;
    table.grid.bands(chunk_bytes, usize::MAX)
}

/// What runs of pieces write, cut between them where they go to different threads: the slots
/// of the other tensor out of a table, or the chunks of the table into it.
#[cfg_attr(not(feature = "parallel"), allow(dead_code))] // on one thread nothing is cut
pub(super) trait Written: Send + Sized {
    /// Its length (slots or chunks) and bytes.
    fn size(&self) -> (usize, usize);
    /// Where in it `piece` of `table` writes; `None` when not known.
    fn reach(table: &Table<'_>, piece: &Band) -> Option<Range<usize>>;
    /// Its first `mid` slots (or chunks) and the rest.
    #[cfg(feature = "parallel")]
    fn split_at(self, mid: usize) -> (Self, Self);
}

impl<T: Send> Written for &mut [T] {
    fn size(&self) -> (usize, usize) {
        (self.len(), size_of_val(*self))
    }
    fn reach(table: &Table<'_>, piece: &Band) -> Option<Range<usize>> {
        let mut pair = table.cut(piece)?;
        let (_, other) = table.sides(&mut pair);
        Some(other.slots())
    }
    #[cfg(feature = "parallel")]
    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }
}

impl<T: Send> Written for TableChunksMut<'_, T> {
    fn size(&self) -> (usize, usize) {
        (self.len(), self.len() * self.volume() * size_of::<T>())
    }
    fn reach(_: &Table<'_>, piece: &Band) -> Option<Range<usize>> {
        Some(piece.chunks.clone())
    }
    #[cfg(feature = "parallel")]
    fn split_at(self, mid: usize) -> (Self, Self) {
        TableChunksMut::split_at(self, mid)
    }
}

/// Moves `pieces` (every chunk of `table`) into `dst` by `leaf(run, part, at)` for runs of
/// consecutive pieces, `part` what the run writes (from slot or chunk `at`): in halves on as
/// many threads as `dst`'s bytes get, where [`Written::reach`] is known. `false` where a leaf is.
pub(super) fn in_pieces<D, F>(table: &Table<'_>, pieces: &[Band], dst: D, leaf: &F) -> bool
where
    D: Written,
    F: Fn(&[Band], D, usize) -> bool + Sync,
{
    #[cfg(feature = "parallel")]
    {
        let threads = threads_for(dst.size().1, &Choices::of_this_machine());
        if threads > 1 && pieces.len() > 1 {
            let reaches: Option<Vec<Range<usize>>> =
                pieces.iter().map(|piece| D::reach(table, piece)).collect();
            if let Some(reaches) = reaches {
                return halves(pieces, &reaches, dst, 0, threads, leaf);
            }
        }
    }
    #[cfg(not(feature = "parallel"))]
    let _ = table;
    leaf(pieces, dst, 0)
}

/// [`in_pieces`] over `pieces` with `threads` threads, `dst` from offset `at` and `reaches`
/// what each piece writes there: cut in two halves where their reaches do not overlap.
#[cfg(feature = "parallel")]
fn halves<D, F>(
    pieces: &[Band],
    reaches: &[Range<usize>],
    dst: D,
    at: usize,
    threads: usize,
    leaf: &F,
) -> bool
where
    D: Written,
    F: Fn(&[Band], D, usize) -> bool + Sync,
{
    let mid = pieces.len() / 2;
    let left_end = reaches[..mid].iter().map(|r| r.end).max().unwrap_or(at);
    let right_start = reaches[mid..].iter().map(|r| r.start).min().unwrap_or(at);
    let apart = at <= left_end && left_end <= right_start && right_start <= at + dst.size().0;
    if threads < 2 || mid == 0 || !apart {
        return leaf(pieces, dst, at);
    }
    let (left, right) = dst.split_at(right_start - at);
    let ((pl, pr), (rl, rr)) = (pieces.split_at(mid), reaches.split_at(mid));
    let threads = threads.div_ceil(2);
    let (a, b) = rayon::join(
        || halves(pl, rl, left, at, threads, leaf),
        || halves(pr, rr, right, right_start, threads, leaf),
    );
    a && b
}
