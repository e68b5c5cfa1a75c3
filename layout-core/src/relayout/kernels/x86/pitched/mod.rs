//! Transposes whose columns are evenly spaced in the source and whose rows are evenly spaced in
//! the destination (plain NCHW <-> NHWC), written through the caches, and some streamed past
//! them: each block's source lines and destination lines found by additions from the block's
//! corner, not read from the listings. With the data in the caches the blocks' own work
//! is what a transpose costs, and the general blocks ([`tiles::plane_body`]: listed lines,
//! bands and groups of blocks) spent a fifth to a half more on it.
//!
//! - 4-byte elements: one load per 16-element source line and four rounds of `vpermt2d`, the
//!   row blocks outermost, each through every column block ([`sweep`]): faster than the same
//!   blocks in the general bands and groups, though still short of a transpose written by
//!   hand for the one shape (`cargo bench --bench transpose_by_hand`).
//! - 1- and 2-byte elements: the lane quads of the general blocks (four 16-byte pieces to a
//!   register) at computed addresses, the row blocks that share a source line innermost
//!   ([`sweep_quads`]), so that each source line is read once while in L1. Where the
//!   source columns lie a multiple of 2 KiB apart (NCHW planes of 32 x 64 or 64 x 64 bytes),
//!   their lines crowd one or two L1 sets: staged first, several lines of each column a visit
//!   ([`staged_quads`], [`CROWDED_SOURCE_PITCH_BYTES`]).
//!
//! The evidence for each path: docs/engine-measurements.md, "Evenly spaced transposes".
//!
//! Past the caches, where the machine's choices sweep, 4-byte transposes whose source columns lie
//! a few hundred bytes apart (NHWC -> NCHW) stream from [`sweep`]: each row block's sixteen
//! destination rows written in one pass along them, as a transpose written by hand for the
//! shape does ([`swept_when_streamed`]); where those rows start off the 64-byte line grid,
//! each row's lines are shifted onto it first ([`realigned`]). Those whose source
//! columns lie nearer (NHWC -> NCHW of 16 to 32 f32 channels: one source run) into rows off
//! the grid, or 24 to 31 rows, go through each column block with all their rows, shifted onto
//! the grid where off it ([`realigned::run_realigned`]). So do 1- and 2-byte transposes with
//! crowded source columns ([`staged_quads`]). Other streamed transposes keep the general
//! blocks, whose streamed blocks prefetch their source lines: the lane-quad sweep is slower
//! than they are, farther apart (NCHW -> NHWC) and nearer alike.

mod realigned;

use super::super::prefetch::prefetch;
use super::super::reach::Reach;
use super::super::tile_batch::TileBatch;
use super::super::tile_shape::pitched;
use super::super::tiles;
use super::super::transposes::Transposes;
use super::avx512::{Avx512Blocks, Broad, Whole32, quad_transposed_pitched};
use super::shuffle::{load_register, shuffle_rounds, zero};
#[cfg(doc)]
use crate::relayout::choices::Choices;
use crate::relayout::stores::{store, store_line};
use crate::relayout::tuning::{
    CACHE_LINE, CROWDED_ROW_PITCH_BYTES, CROWDED_SOURCE_PITCH_BYTES, CROWDED_VISIT_LINES,
    NEAR_RUN_BYTES, ROWS, SWEEP_SOURCE_AHEAD_BLOCKS, SWEPT_COLUMNS_APART_BYTES,
};

use core::arch::x86_64::{__m512i, _mm512_stream_si512};
use core::ops::Range;

/// Columns of a 4-byte elements' block: one 64-byte line.
const COLS: usize = 16;

/// The batch's transposes as described in the module docs, where its columns are one run in
/// the source (`cols_run`) and every whole block's rows one pitch apart in the destination
/// ([`pitched`]), with at least one whole block: `true`, all written. Through the caches, or
/// with `STREAM` past them (whole aligned destination lines) where `sweep_streamed` (the
/// machine's [`Choices::sweep_streamed`]) and [`swept_when_streamed`] allow, or the
/// source columns crowd the L1 sets ([`crowded_source`]), the rows in whole blocks; or, where the choices sweep, 4-byte
/// elements whose source is one run ([`NEAR_RUN_BYTES`]) in tiles of 16 to 32 rows, the
/// tiles whose rows start off the line grid or, where the choices ask
/// ([`Choices::realign_overlapped_rows`]), whose rows past 16 are 8 to 15
/// ([`realigned::run_realigned`]; the others through [`tiles::planes`]). Each
/// tile's rows past its whole blocks go as one more block, its last 16 rows, overlapping the
/// block before (where those rows keep the pitch); its columns past its whole blocks, and every
/// tile that `reach` does not fit, go through [`tiles::planes`] with [`Avx512Blocks`]
/// (narrower blocks, elements). `false`, nothing written, for other batches.
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW; `reach` bounds the batch's rows and columns
/// ([`Reach::of`]).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
pub(super) unsafe fn pitched_plane<E: Broad, const STREAM: bool>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
    sweep_streamed: bool,
) -> bool {
    let (origins, rows, cols) = (batch.origins, batch.rows, batch.cols);
    let (Some(col_pitch), Some(row_pitch)) = (batch.cols_run, pitched(rows, batch.row_pitch))
    else {
        return false;
    };
    // A block's columns: one destination line.
    let block_cols = CACHE_LINE / size_of::<E>();
    let (whole_rows, whole_cols) = (
        rows.len() / ROWS * ROWS,
        cols.len() / block_cols * block_cols,
    );
    if whole_rows == 0 || whole_cols == 0 {
        return false;
    }
    // Rows past the whole blocks go as one more block, the last `ROWS` rows (its first rows
    // written twice, with the same values), where those rows keep the pitch.
    let last_block = (whole_rows < rows.len())
        .then(|| rows.len() - ROWS)
        .filter(|&first| pitched(&rows[first..], Some(row_pitch)).is_some());
    let rows_covered = whole_rows == rows.len() || last_block.is_some();
    let swept = sweep_streamed && swept_when_streamed::<E>(col_pitch);
    let crowded = crowded_source::<E>(col_pitch);
    // 4-byte columns near enough to read the source as one run, 16 to 32 rows a tile: the
    // tiles off the line grid realigned, the others too where rows overlap (below).
    let near_run = STREAM
        && sweep_streamed
        && !(swept || crowded)
        && read_as_one_run::<E>(col_pitch, rows.len());
    // Rows past the first block that the general blocks would move as a last block overlapping
    // it (half a block or more), rewriting lines just streamed: realigned on the grid too.
    let overlapped_rows = rows.len() % ROWS >= ROWS / 2;
    let realign_overlapped = batch.choices.realign_overlapped_rows;
    if STREAM && !(rows_covered && (swept || crowded || near_run)) {
        return false;
    }
    let (first_col_s, first_col_d) = cols[0];
    let rest = |dst: &mut [E], part| {
        // SAFETY: AVX-512 F and BW run (the caller's promise).
        unsafe {
            tiles::planes::<E, Avx512Blocks<STREAM>>(Transposes::new(dst, d, src, s, part, reach))
        }
    };
    for origin in origins {
        let tile = TileBatch {
            origins: core::slice::from_ref(origin),
            ..batch
        };
        let (tile_s, tile_d) = (s + origin.0, d + origin.1);
        if !reach.fits(dst.len(), tile_d, src.len(), tile_s) {
            rest(dst, tile);
            continue;
        }
        let corner = Corner {
            s: tile_s + first_col_s,
            d: tile_d + first_col_d,
            row_pitch,
            col_pitch,
        };
        // Whether some row of the tile starts off the line grid in the destination.
        let line_start = dst.as_ptr().wrapping_add(corner.d).addr();
        let off_grid = !row_pitch.is_multiple_of(COLS) || !line_start.is_multiple_of(CACHE_LINE);
        // SAFETY: the tile's whole blocks, whose every element is listed, so inside both
        // slices (`Reach::fits` just above). At the corner's spacing: column `c` starts
        // `c * col_pitch` after the first in the source (`cols_run`) and `c` after it in the
        // destination (a batch's columns count up by one there); row `k` of a block lies
        // `k * row_pitch` after the block's first in the destination (`pitched`) and `k` after
        // it in the source (a batch's rows count up by one there). AVX-512 F and BW run (the
        // caller's promise).
        if near_run && !off_grid && !(overlapped_rows && realign_overlapped) {
            rest(dst, tile);
            continue;
        }
        if near_run {
            // SAFETY: as just above, the tile's `ROWS` to `2 * ROWS` rows, its last `ROWS`
            // pitched too (`rows_covered`).
            unsafe { realigned::run_realigned(dst, src, corner, rows, 0..whole_cols) };
        } else {
            let blocks =
                core::iter::once(&rows[..whole_rows]).chain(last_block.map(|f| &rows[f..]));
            for block_rows in blocks {
                // SAFETY: as just above, for the last block's rows too (listed, and pitched).
                unsafe {
                    match size_of::<E>() {
                        4 if STREAM && off_grid => {
                            realigned::sweep_realigned(dst, src, corner, block_rows, 0..whole_cols)
                        }
                        4 => sweep::<E, STREAM>(dst, src, corner, block_rows, 0..whole_cols),
                        2 if crowded => {
                            staged_quads::<E, 8, STREAM>(dst, src, corner, block_rows, whole_cols)
                        }
                        2 => sweep_quads::<E, 8>(dst, src, corner, block_rows, whole_cols),
                        _ if crowded => {
                            staged_quads::<E, 16, STREAM>(dst, src, corner, block_rows, whole_cols)
                        }
                        _ => sweep_quads::<E, 16>(dst, src, corner, block_rows, whole_cols),
                    }
                };
            }
        }
        let swept_rows = if last_block.is_some() {
            rows
        } else {
            &rows[..whole_rows]
        };
        if whole_cols < cols.len() {
            let part = TileBatch {
                rows: swept_rows,
                cols: &cols[whole_cols..],
                ..tile
            };
            rest(dst, part);
        }
        if swept_rows.len() < rows.len() {
            let part = TileBatch {
                rows: &rows[whole_rows..],
                ..tile
            };
            rest(dst, part);
        }
    }
    true
}

/// Whether a streamed batch of columns `col_pitch` apart in the source is swept here on a
/// machine's choices ask ([`Choices::sweep_streamed`]), its rows in whole blocks: 4-byte
/// elements whose columns lie more than [`NEAR_RUN_BYTES`] and at most
/// [`SWEPT_COLUMNS_APART_BYTES`] apart (NHWC -> NCHW of 33 to 256 f32 channels). Rows left
/// over after the sweep through the general blocks cost more than the sweep saved (f32 NHWC
/// -> NCHW of 255 channels), hence the last block of [`pitched_plane`], which overlaps the one
/// before it.
fn swept_when_streamed<E>(col_pitch: usize) -> bool {
    let apart = col_pitch * size_of::<E>();
    size_of::<E>() == 4 && apart > NEAR_RUN_BYTES && apart <= SWEPT_COLUMNS_APART_BYTES
}

/// Whether tiles of `rows` rows whose columns lie `col_pitch` apart in the source go a column
/// block at a time through all their rows when streamed where the choices ask
/// ([`realigned::run_realigned`]): 4-byte elements whose source is one run (columns at most
/// [`NEAR_RUN_BYTES`] apart), at most two blocks of rows.
fn read_as_one_run<E>(col_pitch: usize, rows: usize) -> bool {
    size_of::<E>() == 4 && col_pitch * size_of::<E>() <= NEAR_RUN_BYTES && rows <= 2 * ROWS
}

/// Where a tile's whole blocks start and how their lines are spaced: the tile's first column
/// in the source (`s`) and the destination (`d`), its rows `row_pitch` apart in the
/// destination, its columns `col_pitch` apart in the source.
#[derive(Clone, Copy)]
struct Corner {
    s: usize,
    d: usize,
    row_pitch: usize,
    col_pitch: usize,
}

/// The blocks of columns `cols` (whole blocks, from the tile's first) of every row block of
/// `rows` (whole blocks, offsets from the tile's corner), row blocks outermost: sixteen loads
/// a block, four rounds of `vpermt2d`, sixteen stores (with `STREAM`, each whole aligned line
/// streamed). A function of its own, so that its loop
/// compiles as one flat loop whatever calls it: the same loop inlined under one more loop
/// level, or with the block in a function inlined into it, is markedly slower (f32 NCHW <->
/// NHWC). Sweeping the columns in groups of four blocks gains nothing.
///
/// # Safety
///
/// Every element of those blocks lies inside its slice at the corner's spacing; the CPU runs
/// AVX-512 F and BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
unsafe fn sweep<E: Broad, const STREAM: bool>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: Range<usize>,
) {
    let (s, d, row_pitch, col_pitch) = (corner.s, corner.d, corner.row_pitch, corner.col_pitch);
    for &(row_s, row_d) in rows.iter().step_by(ROWS) {
        let (block_s, block_d) = (s + row_s, d + row_d);
        for c0 in cols.clone().step_by(COLS) {
            if STREAM {
                ask_ahead(src, block_s + c0 * col_pitch, col_pitch);
            }
            let mut v = [zero::<__m512i>(); COLS];
            for (j, register) in v.iter_mut().enumerate() {
                // SAFETY: column `c0 + j`'s line of the block's `ROWS` rows (the caller's
                // promise); AVX-512 F runs (the caller's promise).
                *register = unsafe { load_register(src, block_s + (c0 + j) * col_pitch) };
            }
            // SAFETY: AVX-512 F runs (the caller's promise).
            let lines = unsafe { shuffle_rounds::<Whole32, __m512i, COLS>(v) };
            for (k, &line) in lines.iter().enumerate() {
                // SAFETY: row `k` of the block, its columns `c0 .. c0 + COLS` (the caller's
                // promise).
                unsafe { put::<E, STREAM>(dst, block_d + k * row_pitch + c0, line) };
            }
        }
    }
}

/// Asks for the source lines of the 4-byte column block [`SWEEP_SOURCE_AHEAD_BLOCKS`] after
/// the one whose first column starts at `first`, its columns `col_pitch` apart: the lines of
/// each column's first and last elements, two lines where the column straddles them (the
/// same line twice where it does not: cheaper than telling which). Past the
/// caches the sweep's loads waited on memory (its source columns a few hundred bytes apart, a
/// pattern the hardware prefetchers follow only in part).
#[inline(always)]
fn ask_ahead<E>(src: &[E], first: usize, col_pitch: usize) {
    let ahead = first + SWEEP_SOURCE_AHEAD_BLOCKS * COLS * col_pitch;
    for j in 0..COLS {
        let at = ahead + j * col_pitch;
        prefetch(src, at);
        prefetch(src, at + COLS - 1);
    }
}

/// The blocks of 1- and 2-byte elements (`N` = 16 and 8, [`Wide::LANES`](super::avx2::Wide))
/// of columns `0..cols` of every row block of `rows`: each block's `ROWS` rows in runs of `N`,
/// each run's 64 columns (u8; 32 of u16) four 16-byte source pieces to a register and
/// `log2(N)` rounds of interleaves in every lane ([`quad_transposed_pitched`]), then one 64-byte store
/// per row. A source line holds the rows of several blocks (four u8 blocks of 16 rows in its
/// 64 bytes), so the row blocks go in groups of one source line's rows, innermost: each source
/// line is read whole while it is in L1, not once per row block after a sweep through every
/// column (u8 nhwc->nchw: 3136 positions' lines between two reads). Where the destination
/// rows crowd a few L1 sets ([`crowded_rows`]), the row blocks go one at a time instead, each
/// through every column. A function of its own for the reason [`sweep`] is.
///
/// # Safety
///
/// As for [`sweep`], with AVX-512 BW too.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
unsafe fn sweep_quads<E: Broad, const N: usize>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: usize,
) {
    let (s, d, row_pitch, col_pitch) = (corner.s, corner.d, corner.row_pitch, corner.col_pitch);
    let group_rows = if crowded_rows::<E>(row_pitch) {
        ROWS
    } else {
        CACHE_LINE / size_of::<E>()
    };
    for group in rows.chunks(group_rows) {
        for c0 in (0..cols).step_by(4 * N) {
            for &(row_s, row_d) in group.iter().step_by(ROWS) {
                let (block_s, block_d) = (s + row_s + c0 * col_pitch, d + row_d + c0);
                for r in (0..ROWS).step_by(N) {
                    // SAFETY: columns `c0 ..` of the block, `c * col_pitch` after its first in
                    // the source, each line's elements `r .. r + N` inside the block's `ROWS`
                    // (the caller's promise); AVX-512 F and BW run (the caller's promise).
                    let lines =
                        unsafe { quad_transposed_pitched::<E, N>(src, block_s + r, col_pitch) };
                    for (k, &line) in lines.iter().enumerate() {
                        // SAFETY: row `r + k` of the block, its columns `c0 .. c0 + 4N`, 64
                        // bytes (the caller's promise).
                        unsafe { store(dst, block_d + (r + k) * row_pitch, line) };
                    }
                }
            }
        }
    }
}

/// Whether the source columns of 1- or 2-byte elements, `col_pitch` apart, crowd a few L1
/// sets ([`CROWDED_SOURCE_PITCH_BYTES`]), so that [`staged_quads`] moves them.
fn crowded_source<E>(col_pitch: usize) -> bool {
    crowds::<E>(col_pitch, CROWDED_SOURCE_PITCH_BYTES)
}

/// Whether destination rows of 1- or 2-byte elements, `row_pitch` apart, crowd a few L1 sets
/// ([`CROWDED_ROW_PITCH_BYTES`]), so that [`sweep_quads`] takes one row block at a time.
fn crowded_rows<E>(row_pitch: usize) -> bool {
    crowds::<E>(row_pitch, CROWDED_ROW_PITCH_BYTES)
}

/// Whether lines of 1- or 2-byte elements `pitch` apart lie a multiple of `bytes` apart.
fn crowds<E>(pitch: usize, bytes: usize) -> bool {
    let apart = pitch * size_of::<E>();
    size_of::<E>() < 4 && apart != 0 && apart.is_multiple_of(bytes)
}

/// As [`sweep_quads`], for source columns that crowd a few L1 sets ([`crowded_source`]): each
/// group of one source line's rows first copies its `4N` column lines (64 bytes each) into a
/// local stage, one after the other, and its row blocks read them from there; and each visit
/// of a column block goes through [`CROWDED_VISIT_LINES`] such groups, so that the columns'
/// pages stay in the TLB. With `STREAM`, each whole aligned destination line is written past
/// the caches. Rows of a last group shorter than a line go as [`sweep_quads`]' blocks, through
/// the caches. A function of its own for the reason [`sweep`] is.
///
/// # Safety
///
/// As for [`sweep`], with AVX-512 BW too.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
unsafe fn staged_quads<E: Broad, const N: usize, const STREAM: bool>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: usize,
) {
    let (s, d, row_pitch, col_pitch) = (corner.s, corner.d, corner.row_pitch, corner.col_pitch);
    let line_rows = CACHE_LINE / size_of::<E>();
    // `4N` column lines of `line_rows` elements: 4 KiB of u8, 2 KiB of u16.
    let mut stage = [E::zeroed(); 4 * 16 * CACHE_LINE];
    let stage = &mut stage[..4 * N * line_rows];
    for groups in rows.chunks(CROWDED_VISIT_LINES * line_rows) {
        for c0 in (0..cols).step_by(4 * N) {
            for group in groups.chunks(line_rows) {
                if group.len() < line_rows {
                    let corner = Corner {
                        s: s + c0 * col_pitch,
                        d: d + c0,
                        ..corner
                    };
                    // SAFETY: columns `c0 .. c0 + 4N` of the group's rows, whole blocks of
                    // the caller's (the caller's promise).
                    unsafe { sweep_quads::<E, N>(dst, src, corner, group, 4 * N) };
                    continue;
                }
                let first = s + group[0].0 + c0 * col_pitch;
                for j in 0..4 * N {
                    // SAFETY: column `c0 + j`'s line of the group's `line_rows` rows (which
                    // count up by one in the source), the caller's; AVX-512 F runs (the
                    // caller's promise).
                    let line: __m512i = unsafe { load_register(src, first + j * col_pitch) };
                    // SAFETY: line `j` of the stage, inside it.
                    unsafe { store(stage, j * line_rows, line) };
                }
                for (b, &(_, row_d)) in group.iter().step_by(ROWS).enumerate() {
                    let block_d = d + row_d + c0;
                    for r in (0..ROWS).step_by(N) {
                        // SAFETY: column `j`'s line at `j * line_rows` of the stage, its
                        // elements `b * ROWS + r ..` the block's; AVX-512 F and BW run (the
                        // caller's promise).
                        let lines = unsafe {
                            quad_transposed_pitched::<E, N>(stage, b * ROWS + r, line_rows)
                        };
                        for (k, &line) in lines.iter().enumerate() {
                            // SAFETY: row `r + k` of the block, its columns `c0 .. c0 + 4N`,
                            // 64 bytes (the caller's promise).
                            unsafe { put::<E, STREAM>(dst, block_d + (r + k) * row_pitch, line) };
                        }
                    }
                }
            }
        }
    }
}

/// Writes `line` (64 bytes) to `dst` from element `at`: with `STREAM`, past the caches where
/// it is one whole aligned cache line.
///
/// # Safety
///
/// The line's 64 bytes lie inside `dst`; the CPU runs AVX-512 F.
#[inline(always)]
pub(super) unsafe fn put<E: Broad, const STREAM: bool>(dst: &mut [E], at: usize, line: __m512i) {
    // SAFETY (both): passed on from the caller.
    unsafe {
        if STREAM {
            store_line(dst, at, &[line], _mm512_stream_si512);
        } else {
            store(dst, at, line);
        }
    }
}

#[cfg(test)]
mod tests;
