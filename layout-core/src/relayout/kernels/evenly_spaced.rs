//! The macro-kernel's address policy for transposes whose lines are evenly spaced on both
//! sides (plain NCHW <-> NHWC): the source columns one pitch apart
//! ([`TileBatch::cols_run`](super::tile_batch::TileBatch)) and every whole block's destination
//! rows another ([`pitched`](super::tile_shape::pitched)). Each block's lines are found by
//! additions from the tile's [`Corner`] ([`Pitch`] on both sides of [`BlockLines`]), not read
//! from the listings, and the blocks go in a [`Sweep`] order instead of the general bands and
//! groups of [`plane_body`](super::tiles::plane_body): with the data in the caches a block's
//! own work is what a transpose costs, and the listings, bands and groups spent a fifth to a
//! half more on it. The ISA supplies the blocks ([`BlockMove`]); which batches sweep, in which
//! order, is the caller's choice (the AVX-512 build: `x86/pitched`).

use super::block_move::{BlockLines, BlockMove};
use super::prefetch::prefetch;
use super::reach::Reach;
use super::tile_batch::TileBatch;
use super::tile_shape::pitched;
use crate::relayout::lines::Pitch;
use crate::relayout::tuning::{CACHE_LINE, ROWS, SWEEP_SOURCE_AHEAD_BLOCKS};
use core::sync::atomic::{Ordering, compiler_fence};

/// Where a tile's whole blocks start and how their lines are spaced: the tile's first column
/// in the source (`s`) and the destination (`d`), its rows `row_pitch` apart in the
/// destination, its columns `col_pitch` apart in the source. Rows count up by one in the
/// source, columns by one in the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Corner {
    pub s: usize,
    pub d: usize,
    pub row_pitch: usize,
    pub col_pitch: usize,
}

/// The order of a sweep: the tile's rows in visits of `visit_rows` (a multiple of [`ROWS`]),
/// and in each visit every column block in turn, each through the visit's row blocks. One
/// block of rows a visit (4-byte elements) goes along the destination rows, each block's source
/// lines read once; a source line's worth of rows a visit (64 rows of bytes, 32 of 2-byte
/// elements) reads each source line whole while it is in L1, not once per row block after a
/// pass through every column. With `ahead`, each column block asks for the source lines of
/// the block [`SWEEP_SOURCE_AHEAD_BLOCKS`] further on (past the caches, columns a few hundred
/// bytes apart are a pattern the hardware prefetchers follow only in part).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sweep {
    pub visit_rows: usize,
    pub ahead: bool,
}

/// The whole blocks of columns `0..cols` (a multiple of `COLS`) of `rows` (whole blocks of
/// [`ROWS`], offsets from the corner), moved by `B` in the order of `sweep`. With `STAGE`
/// (`COLS` times a source line's rows: 64 x 64 bytes, 32 x 32 2-byte elements), each group of
/// `STAGE / COLS` rows first copies its `COLS` column lines into a local stage, one after the
/// other, and its blocks read them from there: where the source columns lie a multiple of
/// 2 KiB apart (NCHW planes of 32 x 64 or 64 x 64 bytes) their lines crowd one or two L1 sets
/// and would evict each other before the next block reads them. A last group shorter than a
/// stage reads where it lies. Always inlined, so that the function compiled with `B`'s CPU
/// features (`x86::pitched::sweep_on`) compiles the loop whole, flat: the same loop under one
/// more level of loops, or with its block in a function of its own, is markedly slower.
///
/// # Safety
///
/// Every element of those blocks lies inside its slice at the corner's spacing; the CPU runs
/// `B`'s instructions.
#[inline(always)]
pub(crate) unsafe fn sweep<T: Copy, B: BlockMove<T>, const COLS: usize, const STAGE: usize>(
    dst: &mut [T],
    src: &[T],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: usize,
    sweep: Sweep,
) {
    let Corner {
        s,
        d,
        row_pitch,
        col_pitch,
    } = corner;
    let Some(&(first_s, _)) = rows.first() else {
        return;
    };
    if STAGE == 0 && sweep.visit_rows == ROWS {
        // One block a visit: the loop without a level per visit and group, whose bounds the
        // compiler does not know (slower).
        for &(row_s, row_d) in rows.iter().step_by(ROWS) {
            let (block_s, block_d) = (s + row_s, d + row_d);
            for c0 in (0..cols).step_by(COLS) {
                let first = block_s + c0 * col_pitch;
                if sweep.ahead {
                    ask_ahead::<T, COLS>(src, first, col_pitch);
                    // The prefetches go out before the block's loads: left to it, the
                    // compiler puts them after the block's shuffles, and streamed sweeps lose
                    // a quarter of their speed (docs/engine-measurements.md).
                    compiler_fence(Ordering::SeqCst);
                }
                let lines = BlockLines::<T, Pitch, Pitch, COLS>::pitched(
                    block_d + c0,
                    Pitch(row_pitch),
                    src,
                    first,
                    col_pitch,
                );
                // SAFETY: as below.
                unsafe { B::block(dst, lines) };
            }
        }
        return;
    }
    let stage_rows = STAGE / COLS;
    let mut stage = [src[s + first_s]; STAGE];
    for visit in rows.chunks(sweep.visit_rows) {
        for c0 in (0..cols).step_by(COLS) {
            let (first, block_d) = (s + c0 * col_pitch, d + c0);
            if sweep.ahead {
                ask_ahead::<T, COLS>(src, first + visit[0].0, col_pitch);
            }
            let groups = visit.chunks(if STAGE > 0 { stage_rows } else { visit.len() });
            for group in groups {
                if STAGE > 0 && group.len() == stage_rows {
                    let group_s = first + group[0].0;
                    for (j, line) in stage.chunks_exact_mut(stage_rows).enumerate() {
                        let at = group_s + j * col_pitch;
                        line.copy_from_slice(&src[at..at + stage_rows]);
                    }
                    for (b, &(_, row_d)) in group.iter().step_by(ROWS).enumerate() {
                        let lines = BlockLines::<T, Pitch, Pitch, COLS>::pitched(
                            block_d + row_d,
                            Pitch(row_pitch),
                            &stage,
                            b * ROWS,
                            stage_rows,
                        );
                        // SAFETY: column `j`'s line at `j * stage_rows` of the stage, its
                        // elements `b * ROWS .. (b + 1) * ROWS` the block's; the destination
                        // rows as below; `B`'s instructions run (the caller's promise).
                        unsafe { B::block(dst, lines) };
                    }
                    continue;
                }
                for &(row_s, row_d) in group.iter().step_by(ROWS) {
                    let lines = BlockLines::<T, Pitch, Pitch, COLS>::pitched(
                        block_d + row_d,
                        Pitch(row_pitch),
                        src,
                        first + row_s,
                        col_pitch,
                    );
                    // SAFETY: column `c0 + j`'s line of the block's `ROWS` rows starts at
                    // `s + row_s + (c0 + j) * col_pitch`, row `k`'s line at
                    // `d + row_d + k * row_pitch + c0`, both inside their slices (the
                    // caller's promise); `B`'s instructions run (the caller's promise).
                    unsafe { B::block(dst, lines) };
                }
            }
        }
    }
}

/// Asks for the source lines of the column block [`SWEEP_SOURCE_AHEAD_BLOCKS`] after the one
/// whose first column's line starts at `first`, its `COLS` columns `col_pitch` apart: the lines
/// of each column's first and last elements, two lines where the column straddles them (the
/// same line twice where it does not: cheaper than telling which). A hint: nothing is read
/// where it lies outside `src`.
#[inline(always)]
pub(crate) fn ask_ahead<T, const COLS: usize>(src: &[T], first: usize, col_pitch: usize) {
    let ahead = first + SWEEP_SOURCE_AHEAD_BLOCKS * COLS * col_pitch;
    for j in 0..COLS {
        let at = ahead + j * col_pitch;
        prefetch(src, at);
        prefetch(src, at + ROWS - 1);
    }
}

/// An evenly spaced batch cut for a sweep: its pitches, its whole blocks of [`ROWS`] rows by a
/// destination line of columns, and the last block overlapping the one before where the rows
/// past the whole blocks keep the pitch.
#[derive(Clone, Copy)]
pub(crate) struct EvenTiles<'a> {
    pub batch: TileBatch<'a>,
    pub row_pitch: usize,
    pub col_pitch: usize,
    pub whole_rows: usize,
    pub whole_cols: usize,
    /// The first of the last [`ROWS`] rows, swept as one more block (its first rows written
    /// twice, with the same values) where those rows keep the pitch: rows left to the general
    /// blocks after a sweep cost more than the sweep saved (f32 NHWC -> NCHW of 255 channels).
    pub last_block: Option<usize>,
}

impl<'a> EvenTiles<'a> {
    /// The batch as evenly spaced tiles of `T`: `None` where its columns are not one pitch
    /// apart in the source ([`TileBatch::cols_run`]), its whole blocks' rows not one pitch apart
    /// in the destination ([`pitched`]), or it has no whole block.
    pub(crate) fn of<T>(batch: TileBatch<'a>) -> Option<Self> {
        let rows = batch.rows;
        let (col_pitch, row_pitch) = (batch.cols_run?, pitched(rows, batch.row_pitch)?);
        let line = CACHE_LINE / size_of::<T>().max(1);
        let whole_rows = rows.len() / ROWS * ROWS;
        let whole_cols = batch.cols.len() / line * line;
        if whole_rows == 0 || whole_cols == 0 {
            return None;
        }
        let last_block = (whole_rows < rows.len())
            .then(|| rows.len() - ROWS)
            .filter(|&first| pitched(&rows[first..], Some(row_pitch)).is_some());
        Some(EvenTiles {
            batch,
            row_pitch,
            col_pitch,
            whole_rows,
            whole_cols,
            last_block,
        })
    }

    /// Whether the swept blocks cover every row (whole blocks, or a last block).
    pub(crate) fn rows_covered(&self) -> bool {
        self.whole_rows == self.batch.rows.len() || self.last_block.is_some()
    }

    /// The rows of a tile's swept blocks: its whole blocks, then its last block.
    pub(crate) fn blocks(&self) -> impl Iterator<Item = &'a [(usize, usize)]> {
        let rows = self.batch.rows;
        core::iter::once(&rows[..self.whole_rows]).chain(self.last_block.map(|f| &rows[f..]))
    }

    /// Moves every tile of the batch from `src` (at `s`) into `dst` (at `d`): `sweep` moves a
    /// tile's swept blocks (its [`blocks`](Self::blocks), whole columns) from the tile's
    /// corner, or says `false` and leaves the tile to `rest`; `rest` moves the columns and rows
    /// a sweep leaves, and each tile that `reach` does not fit.
    pub(crate) fn each<T>(
        &self,
        dst: &mut [T],
        (d, src, s): (usize, &[T], usize),
        reach: Reach,
        mut sweep: impl FnMut(&mut [T], Corner) -> bool,
        mut rest: impl FnMut(&mut [T], TileBatch<'a>),
    ) {
        let batch = self.batch;
        let (rows, cols) = (batch.rows, batch.cols);
        let swept_rows = if self.last_block.is_some() {
            rows
        } else {
            &rows[..self.whole_rows]
        };
        for origin in batch.origins {
            let tile = TileBatch {
                origins: core::slice::from_ref(origin),
                ..batch
            };
            let (tile_s, tile_d) = (s + origin.0, d + origin.1);
            let corner = Corner {
                s: tile_s + cols[0].0,
                d: tile_d + cols[0].1,
                row_pitch: self.row_pitch,
                col_pitch: self.col_pitch,
            };
            if !(reach.fits(dst.len(), tile_d, src.len(), tile_s) && sweep(dst, corner)) {
                rest(dst, tile);
                continue;
            }
            if self.whole_cols < cols.len() {
                let cols = &cols[self.whole_cols..];
                rest(
                    dst,
                    TileBatch {
                        rows: swept_rows,
                        cols,
                        ..tile
                    },
                );
            }
            if swept_rows.len() < rows.len() {
                let rows = &rows[self.whole_rows..];
                rest(dst, TileBatch { rows, ..tile });
            }
        }
    }
}
