//! Bands that move without a buffer: the rows of the band's plan of row copies, found once per
//! band shape in the chunks they lie in, copied straight between each chunk and the other
//! tensor in the plan's order (the other tensor's lines in order where it is the destination).

use crate::relayout::kernels::with_widest_copies;
use crate::relayout::schedule::RowWalk;
use crate::table_chunks::{TableChunks, TableChunksMut};
use alloc::vec::Vec;
use core::ops::Range;

/// Calls `$self.$method::<T, N>($args)` with `N` the row length `$len` where it is one of the
/// common ones (so that each row is a few vector moves, not a call to memcpy), 0 otherwise.
macro_rules! by_row_length {
    ($len:expr, $self:ident.$method:ident($($arg:expr),*)) => {
        match $len {
            4 => $self.$method::<T, 4>($($arg),*),
            8 => $self.$method::<T, 8>($($arg),*),
            16 => $self.$method::<T, 16>($($arg),*),
            32 => $self.$method::<T, 32>($($arg),*),
            64 => $self.$method::<T, 64>($($arg),*),
            _ => $self.$method::<T, 0>($($arg),*),
        }
    };
}

/// A row of a band's row block: its chunk (from the block's first) and where it starts in it,
/// and where it starts in the other tensor (from the block's offset there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TableRow {
    chunk: u32,
    at: u32,
    other: usize,
}

/// The row copies of a band's plan with one side the band's chunks: per row block, its first
/// chunk and its offset in the other tensor (`blocks`); per row of a block, a [`TableRow`].
#[derive(Clone, Debug)]
pub(super) struct TableRows {
    blocks: Vec<(usize, usize)>,
    rows: Vec<TableRow>,
    /// The elements of each row that are data.
    cols: Range<usize>,
    /// The end of each destination row's padding.
    slot_end: usize,
    /// Slots of each chunk.
    volume: usize,
    /// How many chunks from the band's first the rows reach.
    chunks_reached: usize,
    /// How many slots from the band's offset in the other tensor the rows reach (their padding
    /// included where the other tensor is the destination).
    other_reach: usize,
}

impl TableRows {
    /// The rows of `walk`, a band's plan whose source (`table_is_src`) or destination is the
    /// band's chunks laid end to end; `None` when a row block does not start a chunk or a row
    /// (with its padding, on the table's side) does not lie inside one chunk.
    pub(super) fn of(walk: &RowWalk<'_>, volume: usize, table_is_src: bool) -> Option<TableRows> {
        let sides = |s: usize, d: usize| if table_is_src { (s, d) } else { (d, s) };
        // A row's reach on the table's side and the other's, padding on the destination's.
        let (span, other_end) = sides(walk.cols.end, walk.slot_end);
        let mut blocks = Vec::new();
        let mut on_chunks = true;
        walk.each_block(|s, d| {
            let (table, other) = sides(s, d);
            on_chunks &= table % volume == 0;
            blocks.push((table / volume, other));
        });
        let rows = walk
            .rows
            .iter()
            .map(|&(from, to)| {
                let (table, other) = sides(from, to);
                let at = table % volume;
                let row = TableRow {
                    chunk: u32::try_from(table / volume).ok()?,
                    at: u32::try_from(at).ok()?,
                    other,
                };
                (at + span <= volume).then_some(row)
            })
            .collect::<Option<Vec<TableRow>>>()?;
        let largest = |of: &mut dyn Iterator<Item = usize>| of.max().unwrap_or(0);
        let chunks_reached = largest(&mut blocks.iter().map(|b| b.0))
            + largest(&mut rows.iter().map(|r| r.chunk as usize))
            + 1;
        let other_reach = largest(&mut blocks.iter().map(|b| b.1))
            + largest(&mut rows.iter().map(|r| r.other))
            + other_end;
        on_chunks.then_some(TableRows {
            blocks,
            rows,
            cols: walk.cols.clone(),
            slot_end: walk.slot_end,
            volume,
            chunks_reached,
            other_reach,
        })
    }

    /// Whether the rows of a band of `count` chunks of `volume` slots, at `at` in the other
    /// tensor of `len` slots, lie inside both.
    fn fit(&self, count: usize, volume: usize, at: usize, len: usize) -> bool {
        self.chunks_reached <= count
            && volume == self.volume
            && at
                .checked_add(self.other_reach)
                .is_some_and(|end| end <= len)
    }

    /// Each row's data out of `chunks` into `dst` from `d`, in rows of `N` (0: `cols.len()`).
    ///
    /// # Safety
    ///
    /// [`fit`](Self::fit)`(chunks.len(), chunks.volume(), d, dst.len())`.
    #[inline(always)]
    unsafe fn rows_out<T: Copy, const N: usize>(
        &self,
        chunks: TableChunks<'_, T>,
        dst: &mut [T],
        d: usize,
    ) {
        let (cols, n) = (&self.cols, if N == 0 { self.cols.len() } else { N });
        let dst = dst.as_mut_ptr();
        for &(first, other) in &self.blocks {
            // SAFETY (both): each row's chunk `first + row.chunk` is below `chunks_reached`,
            // inside `chunks`; its `n` slots from `row.at + cols.start` end at
            // `row.at + cols.end <= volume`, the chunk's length (`TableRows::of`); its slots in
            // `dst` end below `d + other_reach <= dst.len()` (all from the caller's `fit`). The
            // chunks are borrowed shared, apart from `dst`, borrowed exclusively.
            let (starts, dst) = unsafe {
                let starts = chunks.starts().as_ptr().add(first);
                (starts, dst.add(d + other + cols.start))
            };
            let row = |row: &TableRow| unsafe {
                let chunk = *starts.add(row.chunk as usize);
                let src = chunk.as_ptr().add(row.at as usize + cols.start);
                core::ptr::copy_nonoverlapping(src, dst.add(row.other), n);
            };
            four_at_a_time(&self.rows, row);
        }
    }

    /// Each row's data from `src` from `s` into `chunks`, in rows of `N` (0: `cols.len()`).
    ///
    /// # Safety
    ///
    /// [`fit`](Self::fit)`(chunks.len(), chunks.volume(), s, src.len())`.
    #[inline(always)]
    unsafe fn rows_in<T: Copy, const N: usize>(
        &self,
        src: &[T],
        s: usize,
        chunks: &mut TableChunksMut<'_, T>,
    ) {
        let (cols, n) = (&self.cols, if N == 0 { self.cols.len() } else { N });
        let (src, table) = (src.as_ptr(), chunks.starts().as_ptr());
        for &(first, other) in &self.blocks {
            // SAFETY (both): as in `rows_out`, with the chunks written (borrowed exclusively
            // through `chunks`) and `src` read.
            let (starts, src) = unsafe { (table.add(first), src.add(s + other + cols.start)) };
            let row = |row: &TableRow| unsafe {
                let chunk = *starts.add(row.chunk as usize);
                let dst = chunk.as_ptr().add(row.at as usize + cols.start);
                core::ptr::copy_nonoverlapping(src.add(row.other), dst, n);
            };
            four_at_a_time(&self.rows, row);
        }
    }

    /// Copies the band's `chunks` into `dst` from offset `d`, and `pad` into its rows' padding.
    pub(super) fn copy_out<T: Copy>(
        &self,
        chunks: TableChunks<'_, T>,
        dst: &mut [T],
        d: usize,
        pad: T,
    ) {
        if !self.fit(chunks.len(), chunks.volume(), d, dst.len()) {
            unreachable!("a band's rows inside its chunks and the other tensor");
        }
        // SAFETY: `fit` just above. With AVX2, each 32-byte row is one register move.
        with_widest_copies(|| unsafe {
            by_row_length!(self.cols.len(), self.rows_out(chunks, dst, d))
        });
        if self.slot_end > self.cols.end {
            let tail = self.cols.end..self.slot_end;
            for &(_, other) in &self.blocks {
                for row in &self.rows {
                    let at = d + other + row.other;
                    dst[at + tail.start..at + tail.end].fill(pad);
                }
            }
        }
    }

    /// Copies the band's `chunks` from `src` from offset `s`, and `pad` into its rows' padding.
    pub(super) fn copy_in<T: Copy>(
        &self,
        src: &[T],
        s: usize,
        mut chunks: TableChunksMut<'_, T>,
        pad: T,
    ) {
        if !self.fit(chunks.len(), chunks.volume(), s, src.len()) {
            unreachable!("a band's rows inside its chunks and the other tensor");
        }
        // SAFETY: `fit` just above. With AVX2 as in `copy_out`.
        with_widest_copies(|| unsafe {
            by_row_length!(self.cols.len(), self.rows_in(src, s, &mut chunks))
        });
        if self.slot_end > self.cols.end {
            let tail = self.cols.end..self.slot_end;
            for &(first, _) in &self.blocks {
                for row in &self.rows {
                    let chunk = chunks.get_mut(first + row.chunk as usize);
                    let at = row.at as usize;
                    chunk[at + tail.start..at + tail.end].fill(pad);
                }
            }
        }
    }
}

/// Calls `row` with each of `rows`, four to a loop step, so that the copies of four rows go
/// out together (the compiler keeps a loop of one row a step as it is).
#[inline(always)]
fn four_at_a_time(rows: &[TableRow], row: impl Fn(&TableRow)) {
    let mut fours = rows.chunks_exact(4);
    for four in &mut fours {
        row(&four[0]);
        row(&four[1]);
        row(&four[2]);
        row(&four[3]);
    }
    fours.remainder().iter().for_each(row);
}
