//! Which evenly spaced transposes (plain NCHW <-> NHWC: source columns one pitch apart, whole
//! blocks' destination rows another) the x86-64 builds sweep ([`evenly_spaced`]: lines found
//! by additions from the tile's corner, blocks in an order of their own), and in which order:
//! with AVX-512 as below ([`pitched_plane`]), with AVX2 bytes through the caches
//! ([`bytes_avx2`]).
//!
//! - 4-byte elements, where the machine's choices sweep them (`Choices::sweep_four_byte`):
//!   one 64-byte load per source line and four rounds of `vpermt2d`, the row blocks
//!   outermost, each through every column block ([`sweep`]: a loop of its own, faster there
//!   than [`evenly_spaced::sweep`] with 4-byte line blocks). Elsewhere the general blocks
//!   move them in bands.
//! - 1- and 2-byte elements: the lane quads of the general blocks ([`Avx512Blocks`]), a source
//!   line's rows a visit (one block of rows where the destination rows crowd a few L1 sets:
//!   [`crowded_rows`]), their column lines staged first where the source columns crowd them
//!   ([`crowded_source`]) and the machine's choices stage them (`Choices::stage_crowded_columns`).
//!
//! Past the caches, 4-byte transposes whose source columns lie a few hundred bytes apart
//! (NHWC -> NCHW) are swept too, each row block's sixteen destination rows written in one pass
//! ([`swept_when_streamed`]; tiles on the line grid in whole blocks only where the machine's
//! choices sweep 4-byte elements), rows off the 64-byte line grid shifted onto it first
//! ([`realigned::sweep_realigned`]). Those whose source is one run
//! (NHWC -> NCHW of 16 to 32 f32 channels) into rows off the grid, or 24 to 31 rows, go through
//! each column block with all their rows ([`realigned::run_realigned`]). So do 1- and 2-byte
//! transposes with crowded source columns (staged). Other streamed transposes keep the general
//! blocks, whose streamed blocks prefetch their source lines: the lane-quad sweep is slower.
//!
//! The evidence for each path: docs/engine-measurements.md, "Evenly spaced transposes".

mod realigned;

#[cfg(doc)]
use super::super::evenly_spaced;
use super::super::evenly_spaced::{Corner, EvenTiles};
use super::super::prefetch::prefetch;
use super::super::tiles;
use super::super::transposes::Transposes;
use super::avx2::{self, Avx2Blocks};
use super::avx512::{Avx512Blocks, Broad, Whole32};
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

/// The batch's transposes as the module docs describe, where it is evenly spaced
/// ([`EvenTiles::of`]): `true`, all written; `false`, nothing written, for other batches (and
/// for 4-byte batches through the caches unless [`Choices::sweep_four_byte`]: streamed, it only
/// keeps tiles on the line grid in whole blocks out). With `STREAM` (whole aligned destination
/// lines), only batches whose rows the swept blocks cover and that [`crowded_source`] (where
/// [`Choices::stage_crowded_columns`]), [`swept_when_streamed`] or [`read_as_one_run`] takes (of
/// the last, only the tiles whose rows start off the line grid or, where
/// [`Choices::realign_overlapped_rows`], have 8 to 15 rows past 16 are swept).
/// What a sweep leaves, and each tile that the call's reach does not fit, go through
/// [`tiles::planes`] with [`Avx512Blocks`].
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW; `t.reach` bounds the batch's rows and columns
/// ([`Reach::of`](super::super::reach::Reach::of)).
pub(super) unsafe fn pitched_plane<E: Broad, const STREAM: bool>(t: Transposes<'_, E>) -> bool {
    let (dst, d, src, s, batch, reach) = t.parts();
    let Some(tiles) = EvenTiles::of::<E>(batch) else {
        return false;
    };
    let (rows, col_pitch, row_pitch) = (batch.rows, tiles.col_pitch, tiles.row_pitch);
    let four_byte = size_of::<E>() == 4;
    let sweep_four_byte = batch.choices.sweep_four_byte;
    if four_byte && !STREAM && !sweep_four_byte {
        return false;
    }
    let swept = swept_when_streamed::<E>(col_pitch);
    let crowded = batch.choices.stage_crowded_columns && crowded_source::<E>(col_pitch);
    // Tiles off the line grid realigned, the others too where rows overlap (below).
    let near_run = STREAM && !(swept || crowded) && read_as_one_run::<E>(col_pitch, rows.len());
    // Rows past the first block that the general blocks would move as a last block overlapping
    // it (half a block or more), rewriting lines just streamed: realigned on the grid too.
    let overlapped_rows = rows.len() % ROWS >= ROWS / 2;
    // Streamed 4-byte tiles on the grid in whole blocks the general blocks stream whole too:
    // swept only where the machine's choices say the sweep's order pays. Other tiles are swept
    // on every machine (the general blocks would write their lines in parts).
    let general_on_grid =
        four_byte && STREAM && !near_run && rows.len().is_multiple_of(ROWS) && !sweep_four_byte;
    let realign_overlapped = batch.choices.realign_overlapped_rows;
    if STREAM && !(tiles.rows_covered() && (swept || crowded || near_run)) {
        return false;
    }
    let whole_cols = tiles.whole_cols;
    let sweep = |dst: &mut [E], corner: Corner| {
        // Whether some row of the tile starts off the line grid in the destination.
        let line_start = dst.as_ptr().wrapping_add(corner.d).addr();
        let off_grid = !row_pitch.is_multiple_of(COLS) || !line_start.is_multiple_of(CACHE_LINE);
        if near_run && !off_grid && !(overlapped_rows && realign_overlapped) {
            return false;
        }
        if general_on_grid && !off_grid {
            return false;
        }
        // SAFETY (all): the tile's swept blocks, whose every element is listed, so inside both
        // slices (`each` checked `Reach::fits`), at the corner's spacing (`EvenTiles::of`:
        // rows count up by one in the source, columns in the destination); AVX-512 F and BW
        // run (the caller's promise).
        unsafe {
            if near_run {
                // The tile's `ROWS` to `2 * ROWS` rows, its last `ROWS` pitched too
                // (`rows_covered`).
                realigned::run_realigned(dst, src, corner, rows, 0..whole_cols);
                return true;
            }
            for block_rows in tiles.blocks() {
                match size_of::<E>() {
                    4 if STREAM && off_grid => {
                        realigned::sweep_realigned(dst, src, corner, block_rows, 0..whole_cols)
                    }
                    4 => sweep::<E, STREAM>(dst, src, corner, block_rows, 0..whole_cols),
                    2 => quads::<E, 32, { 32 * 32 }, { CROWDED_VISIT_LINES * 32 }, STREAM>(
                        dst, src, corner, block_rows, whole_cols, crowded,
                    ),
                    _ => quads::<E, 64, { 64 * 64 }, { CROWDED_VISIT_LINES * 64 }, STREAM>(
                        dst, src, corner, block_rows, whole_cols, crowded,
                    ),
                }
            }
        }
        true
    };
    let rest = |dst: &mut [E], part| {
        // SAFETY: AVX-512 F and BW run (the caller's promise).
        unsafe {
            tiles::planes::<E, Avx512Blocks<STREAM>>(Transposes::new(dst, d, src, s, part, reach))
        }
    };
    tiles.each(dst, (d, src, s), reach, sweep, rest);
    true
}

/// The evenly spaced transposes of bytes through the caches with AVX2 ([`EvenTiles`]): each
/// tile's whole blocks swept by the AVX2 blocks a source line's rows a visit (a block of rows
/// where [`crowded_rows`]), the rest through [`tiles::planes`] with them. `true`, all written;
/// `false`, nothing written, for other batches. Bytes only: the AVX2 blocks of 2- and 4-byte
/// elements transpose micro-blocks in 128-bit lanes, which the general bands move as fast.
///
/// # Safety
///
/// The CPU runs AVX2; `t.reach` bounds the batch's rows and columns
/// ([`Reach::of`](super::super::reach::Reach::of)).
pub(super) unsafe fn bytes_avx2<E: Broad>(t: Transposes<'_, E>) -> bool {
    let (dst, d, src, s, batch, reach) = t.parts();
    let Some(tiles) = EvenTiles::of::<E>(batch).filter(|_| size_of::<E>() == 1) else {
        return false;
    };
    let (whole_cols, crowded) = (tiles.whole_cols, crowded_rows::<E>(tiles.row_pitch));
    let swept = |dst: &mut [E], corner| {
        for rows in tiles.blocks() {
            // SAFETY (both): as in `pitched_plane`; AVX2 runs (the caller's promise).
            unsafe {
                if crowded {
                    avx2::sweep_on::<E, Avx2Blocks<false>, 64, ROWS, 0>(
                        dst, src, corner, rows, whole_cols,
                    )
                } else {
                    avx2::sweep_on::<E, Avx2Blocks<false>, 64, 64, 0>(
                        dst, src, corner, rows, whole_cols,
                    )
                }
            };
        }
        true
    };
    let rest = |dst: &mut [E], part| {
        // SAFETY: AVX2 runs (the caller's promise).
        unsafe {
            tiles::planes::<E, Avx2Blocks<false>>(Transposes::new(dst, d, src, s, part, reach))
        }
    };
    tiles.each(dst, (d, src, s), reach, swept, rest);
    true
}

/// The blocks of columns `cols` (whole blocks, from the tile's first) of every row block of
/// `rows` (whole blocks, offsets from the tile's corner), row blocks outermost: sixteen loads
/// a block, four rounds of `vpermt2d`, sixteen stores (with `STREAM`, each whole aligned line
/// streamed). A function of its own, so that its loop compiles as one flat loop whatever
/// calls it: the same loop inlined under one more loop level, or with the block in a function
/// inlined into it, is slower.
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

/// Asks for the source lines of the column block [`SWEEP_SOURCE_AHEAD_BLOCKS`] after the one
/// whose first column's line starts at `first`, its `COLS` columns `col_pitch` apart: the lines
/// of each column's first and last elements, two lines where the column straddles them (the
/// same line twice where it does not: cheaper than telling which). A hint: nothing is read
/// where it lies outside `src`.
#[inline(always)]
pub(super) fn ask_ahead<T>(src: &[T], first: usize, col_pitch: usize) {
    let ahead = first + SWEEP_SOURCE_AHEAD_BLOCKS * COLS * col_pitch;
    for j in 0..COLS {
        let at = ahead + j * col_pitch;
        prefetch(src, at);
        prefetch(src, at + ROWS - 1);
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

/// Whether a streamed batch of columns `col_pitch` apart in the source is swept here (where
/// the machine's choices sweep 4-byte elements), its rows in whole blocks: 4-byte
/// elements whose columns lie more than [`NEAR_RUN_BYTES`] and at most
/// [`SWEPT_COLUMNS_APART_BYTES`] apart (NHWC -> NCHW of 33 to 256 f32 channels). Rows left
/// over go as a last block overlapping the one before it ([`pitched_plane`]): through the
/// general blocks they would cost more than the sweep saves.
fn swept_when_streamed<E>(col_pitch: usize) -> bool {
    let apart = col_pitch * size_of::<E>();
    size_of::<E>() == 4 && apart > NEAR_RUN_BYTES && apart <= SWEPT_COLUMNS_APART_BYTES
}

/// Whether streamed tiles of `rows` rows, columns `col_pitch` apart in the source, may go a
/// column block at a time through all their rows ([`realigned::run_realigned`]): 4-byte
/// elements whose source is one run (columns at most [`NEAR_RUN_BYTES`] apart), at most two
/// blocks of rows.
fn read_as_one_run<E>(col_pitch: usize, rows: usize) -> bool {
    size_of::<E>() == 4 && col_pitch * size_of::<E>() <= NEAR_RUN_BYTES && rows <= 2 * ROWS
}

/// The whole blocks of 1- or 2-byte elements (`COLS` columns, a 64-byte line, and as many rows
/// a source line; `STAGE` is `COLS * COLS`) of columns `0..cols` of `rows`, swept by the lane
/// quads of the general blocks: a source line's rows a visit, one block of rows where
/// [`crowded_rows`]; where `crowded` ([`crowded_source`]), each group of a line's rows staged,
/// `CROWDED` rows a visit ([`CROWDED_VISIT_LINES`] lines, so that the columns' pages stay in
/// the TLB), and with `STREAM` the aligned destination lines streamed.
///
/// # Safety
///
/// As [`sweep_on()`].
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn quads<
    E,
    const COLS: usize,
    const STAGE: usize,
    const CROWDED: usize,
    const STREAM: bool,
>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: usize,
    crowded: bool,
) where
    E: Broad,
{
    // SAFETY (all): passed on from the caller.
    unsafe {
        if crowded {
            sweep_on::<E, Avx512Blocks<STREAM>, COLS, CROWDED, STAGE>(dst, src, corner, rows, cols)
        } else if crowded_rows::<E>(corner.row_pitch) {
            sweep_on::<E, Avx512Blocks<false>, COLS, ROWS, 0>(dst, src, corner, rows, cols)
        } else {
            sweep_on::<E, Avx512Blocks<false>, COLS, COLS, 0>(dst, src, corner, rows, cols)
        }
    }
}

sweep_on! { "AVX-512 F and BW", "avx2,avx512f,avx512bw" }

/// Whether the source columns of 1- or 2-byte elements, `col_pitch` apart, crowd a few L1
/// sets ([`CROWDED_SOURCE_PITCH_BYTES`]), so that [`quads`] stages their lines.
fn crowded_source<E>(col_pitch: usize) -> bool {
    crowds::<E>(col_pitch, CROWDED_SOURCE_PITCH_BYTES)
}

/// Whether destination rows of 1- or 2-byte elements, `row_pitch` apart, crowd a few L1 sets
/// ([`CROWDED_ROW_PITCH_BYTES`]), so that [`quads`] takes one row block a visit.
fn crowded_rows<E>(row_pitch: usize) -> bool {
    crowds::<E>(row_pitch, CROWDED_ROW_PITCH_BYTES)
}

/// Whether lines of 1- or 2-byte elements `pitch` apart lie a multiple of `bytes` apart.
fn crowds<E>(pitch: usize, bytes: usize) -> bool {
    let apart = pitch * size_of::<E>();
    size_of::<E>() < 4 && apart != 0 && apart.is_multiple_of(bytes)
}

#[cfg(test)]
mod tests;
