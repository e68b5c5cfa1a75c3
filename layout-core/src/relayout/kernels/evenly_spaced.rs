//! Transposes whose lines are evenly spaced on both sides (plain NCHW <-> NHWC): source
//! columns one pitch apart ([`TileBatch::cols_run`]), every whole block's destination rows
//! another ([`pitched`]). Each block's lines are added up from the tile's [`Corner`] ([`Pitch`]
//! on both sides of [`BlockLines`]), not read from the listings, and the blocks go in their own
//! order ([`sweep`]), not [`plane_body`](super::tiles::plane_body)'s bands and groups, which add
//! to a cached transpose's cost. Which batches sweep, how, is the ISA's choice (`x86/pitched`).

use super::block_move::{BlockLines, BlockMove};
use super::micro_blocks::opaque;
use super::reach::Reach;
use super::tile_batch::TileBatch;
use super::tile_shape::pitched;
use crate::relayout::lines::Pitch;
use crate::relayout::tuning::{CACHE_LINE, ROWS};

/// Where a tile's whole blocks start (`s`, `d`) and how their lines are spaced: rows
/// `row_pitch` apart in the destination and one apart in the source, columns `col_pitch` apart
/// in the source and one apart in the destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Corner {
    pub s: usize,
    pub d: usize,
    pub row_pitch: usize,
    pub col_pitch: usize,
}

/// The whole column blocks `0..cols` of `rows` (whole blocks of [`ROWS`], offsets from the
/// corner), moved by `B`: the rows in visits of `VISIT`, each visit taking every column block in
/// turn through its row blocks. One row block a visit (4-byte elements) reads each block's
/// source lines once; a source line's rows a visit (64 rows of bytes, 32 of 2-byte elements)
/// read each source line whole while it is in L1. With `STAGE`, each group of `STAGE / COLS`
/// rows first copies its column lines into a local stage its blocks read (a shorter last group
/// reads in place): source columns a multiple of 2 KiB apart crowd one or two L1 sets and would
/// evict each other before the next block reads them.
///
/// Always inlined, so `B`'s CPU-feature builds compile the loop whole; the visit and stage are
/// constants so the compiler knows how many blocks a visit holds; the destination pitch goes
/// through [`opaque`], else the compiler precomputes every row offset and spills them.
///
/// # Safety
///
/// Every element of those blocks lies inside its slice at the corner's spacing; the CPU runs
/// `B`'s instructions.
#[inline(always)]
pub(crate) unsafe fn sweep<T, B, const COLS: usize, const VISIT: usize, const STAGE: usize>(
    dst: &mut [T],
    src: &[T],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: usize,
) where
    T: Copy,
    B: BlockMove<T>,
{
    let (s, d, row_pitch, col_pitch) = (corner.s, corner.d, corner.row_pitch, corner.col_pitch);
    let Some(&(first_s, _)) = rows.first() else {
        return;
    };
    let stage_rows = if STAGE > 0 { STAGE / COLS } else { VISIT };
    let mut stage = [src[s + first_s]; STAGE];
    for visit in rows.chunks(VISIT) {
        for c0 in (0..cols).step_by(COLS) {
            let (first, block_d) = (s + c0 * col_pitch, d + c0);
            for group in visit.chunks(stage_rows) {
                let staged = STAGE > 0 && group.len() == stage_rows;
                if staged {
                    let group_s = first + group[0].0;
                    for (j, line) in stage.chunks_exact_mut(stage_rows).enumerate() {
                        let at = group_s + j * col_pitch;
                        line.copy_from_slice(&src[at..at + stage_rows]);
                    }
                }
                for (b, &(row_s, row_d)) in group.iter().step_by(ROWS).enumerate() {
                    let (lines, at, pitch) = if staged {
                        (&stage[..], b * ROWS, stage_rows)
                    } else {
                        (src, first + row_s, col_pitch)
                    };
                    let block = BlockLines::<T, Pitch, Pitch, COLS> {
                        d: block_d + row_d,
                        rows: Pitch(opaque(row_pitch)),
                        src: lines,
                        s: at,
                        cols: Pitch(pitch),
                    };
                    // SAFETY: column `c0 + j`'s line starts at `s + row_s + (c0 + j) * col_pitch`
                    // (staged: `j * stage_rows + b * ROWS`), row `k`'s at `d + row_d + k *
                    // row_pitch + c0`: inside their slices; `B` runs (the caller's promises).
                    unsafe { B::block(dst, block) };
                }
            }
        }
    }
}

/// An evenly spaced batch cut for a sweep: its pitches, whole blocks of [`ROWS`] rows by a
/// destination line of columns, and an overlapping last block.
#[derive(Clone, Copy)]
pub(crate) struct EvenTiles<'a> {
    pub batch: TileBatch<'a>,
    pub row_pitch: usize,
    pub col_pitch: usize,
    pub whole_rows: usize,
    pub whole_cols: usize,
    /// The first of the last [`ROWS`] rows, swept as one more block (some rows twice) where
    /// those rows keep the pitch: left to the general blocks, they cost more than a sweep saves.
    pub last_block: Option<usize>,
}

impl<'a> EvenTiles<'a> {
    /// The batch as evenly spaced tiles of `T`: `None` where its columns or whole blocks' rows
    /// are not one pitch apart ([`TileBatch::cols_run`], [`pitched`]) or it has no whole block.
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

    /// Moves every tile: `sweep` moves a tile's [`blocks`](Self::blocks) from its corner or says
    /// `false`; `rest` moves what a sweep leaves and each tile `reach` or `sweep` refuses.
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
                let (rows, cols) = (swept_rows, &cols[self.whole_cols..]);
                rest(dst, TileBatch { rows, cols, ..tile });
            }
            if swept_rows.len() < rows.len() {
                let rows = &rows[self.whole_rows..];
                rest(dst, TileBatch { rows, ..tile });
            }
        }
    }
}
