//! Which evenly spaced transposes (plain NCHW <-> NHWC) the x86-64 builds sweep
//! ([`evenly_spaced`]), and in which order: with AVX-512 as below ([`pitched_plane`]), with
//! AVX2 bytes through the caches ([`bytes_avx2`]).
//!
//! - 4-byte elements, where `Choices::sweep_four_byte` (else the general blocks' bands): one
//!   64-byte load per source line, four rounds of `vpermt2d`, row blocks outermost ([`sweep`]).
//! - 1- and 2-byte elements: the general blocks' lane quads ([`Avx512Blocks`]), a source line's
//!   rows a visit (one block of rows where [`crowded_rows`]), column lines staged first where
//!   [`crowded_source`] and `Choices::stage_crowded_columns`.
//!
//! Past the caches, 4-byte transposes whose source columns lie a few hundred bytes apart are
//! swept too ([`swept_when_streamed`]), rows off the line grid shifted onto it first
//! ([`realigned::sweep_realigned`]); those whose source is one run, into rows off the grid or 24
//! to 31 rows, go through each column block with all their rows (the same with `ONE_RUN`), as
//! do 1- and 2-byte ones with crowded source columns. Other streamed transposes keep the
//! general blocks, which prefetch their source lines: the lane-quad sweep is slower
//! (docs/engine-measurements.md, "Evenly spaced transposes").

mod realigned;

#[cfg(doc)]
use super::super::evenly_spaced;
use super::super::evenly_spaced::{Corner, EvenTiles};
use super::super::prefetch::prefetch;
use super::super::tiles::planes;
use super::super::transposes::Transposes;
use super::avx2::{self, Avx2Blocks};
use super::avx512::{Avx512Blocks, Broad, Whole32};
use super::shuffle::{load_register, shuffle_rounds};
#[cfg(doc)]
use crate::relayout::choices::Choices;
use crate::relayout::stores::{store, store_line};
use crate::relayout::tuning::{
    CACHE_LINE, CROWDED_ROW_PITCH_BYTES, CROWDED_SOURCE_PITCH_BYTES, CROWDED_VISIT_LINES,
    NEAR_RUN_BYTES, ROWS, SWEEP_SOURCE_AHEAD_BLOCKS, SWEPT_COLUMNS_APART_BYTES,
};
use bytemuck::Zeroable;
use core::arch::x86_64::{__m512i, _mm512_stream_si512};
use core::ops::Range;

/// Columns of a 4-byte elements' block: one 64-byte line.
const COLS: usize = 16;

/// The batch's transposes as the module docs describe, where evenly spaced ([`EvenTiles::of`]):
/// `true`, all written; `false`, none (also cached 4-byte batches unless
/// [`Choices::sweep_four_byte`]; streamed, it keeps out only tiles on the grid in whole blocks).
/// With `STREAM`, only batches whose rows the swept blocks cover and that [`crowded_source`]
/// (where [`Choices::stage_crowded_columns`]), [`swept_when_streamed`] or [`read_as_one_run`]
/// takes (of the last, tiles with rows off the line grid or, where
/// [`Choices::realign_overlapped_rows`], 8 to 15 rows past 16). What sweeps leave, and tiles
/// the reach does not fit, go through [`planes`].
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
    // Streamed 4-byte tiles on the grid in whole blocks, which the general blocks stream whole
    // too: swept only where the sweep's order pays; other tiles always (else written in parts).
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
        // SAFETY (all): every element of the tile's swept blocks is listed, so inside both
        // slices (`each` checked `Reach::fits`), at the corner's spacing (`EvenTiles::of`);
        // AVX-512 F and BW run (the caller's promise).
        unsafe {
            if near_run {
                // The tile's `ROWS` to `2 * ROWS` rows, its last `ROWS` pitched too.
                realigned::sweep_realigned::<E, true>(dst, src, corner, rows, 0..whole_cols);
                return true;
            }
            for block_rows in tiles.blocks() {
                match size_of::<E>() {
                    4 if STREAM && off_grid => {
                        let cols = 0..whole_cols;
                        realigned::sweep_realigned::<E, false>(dst, src, corner, block_rows, cols)
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
        unsafe { planes::<E, Avx512Blocks<STREAM>>(Transposes::new(dst, d, src, s, part, reach)) }
    };
    tiles.each(dst, (d, src, s), reach, sweep, rest);
    true
}

/// Evenly spaced byte transposes through the caches with AVX2: whole blocks swept a source
/// line's rows a visit (a block of rows where [`crowded_rows`]), the rest by [`planes`];
/// `true`, all written, or `false`, none. Bytes only: for wider elements the AVX2 blocks move
/// micro-blocks in 128-bit lanes, which the general bands move as fast.
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
    let (cols, crowded) = (tiles.whole_cols, crowded_rows::<E>(tiles.row_pitch));
    let swept = |dst: &mut [E], corner| {
        for rows in tiles.blocks() {
            // SAFETY (both): as in `pitched_plane`; AVX2 runs (the caller's promise).
            unsafe {
                if crowded {
                    avx2::sweep_on::<E, Avx2Blocks<false>, 64, ROWS, 0>(
                        dst, src, corner, rows, cols,
                    )
                } else {
                    avx2::sweep_on::<E, Avx2Blocks<false>, 64, 64, 0>(dst, src, corner, rows, cols)
                }
            };
        }
        true
    };
    let rest = |dst: &mut [E], part| {
        // SAFETY: AVX2 runs (the caller's promise).
        unsafe { planes::<E, Avx2Blocks<false>>(Transposes::new(dst, d, src, s, part, reach)) }
    };
    tiles.each(dst, (d, src, s), reach, swept, rest);
    true
}

/// The blocks of columns `cols` of every row block of `rows` (offsets from the corner), row
/// blocks outermost: sixteen loads a block, four rounds of `vpermt2d`, sixteen stores (aligned
/// lines streamed with `STREAM`). Out of line so that it compiles as one flat loop: under one
/// more loop level, or with the block a function inlined into it, it is slower.
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
            let mut v = [__m512i::zeroed(); COLS];
            for (j, register) in v.iter_mut().enumerate() {
                // SAFETY: column `c0 + j`'s line of the block's `ROWS` rows (the caller's
                // promise); AVX-512 F runs (the caller's promise).
                *register = unsafe { load_register(src, block_s + (c0 + j) * col_pitch) };
            }
            // SAFETY: AVX-512 F runs (the caller's promise).
            let lines = unsafe { shuffle_rounds::<Whole32, __m512i, COLS>(v) };
            for (k, &line) in lines.iter().enumerate() {
                let at = block_d + k * row_pitch + c0;
                // SAFETY (both): row `k` of the block, columns `c0 .. c0 + COLS` (the caller's
                // promise); AVX-512 F runs. `store_line` streams only lines on the grid.
                unsafe {
                    if STREAM {
                        store_line(dst, at, &[line], _mm512_stream_si512);
                    } else {
                        store(dst, at, line);
                    }
                }
            }
        }
    }
}

/// Prefetches the source lines of the column block [`SWEEP_SOURCE_AHEAD_BLOCKS`] after the one
/// starting at `first`: each column's first and last element's line (the same line twice where
/// the column does not straddle two: cheaper than telling which). Past `src`, nothing is read.
#[inline(always)]
pub(super) fn ask_ahead<T>(src: &[T], first: usize, col_pitch: usize) {
    let ahead = first + SWEEP_SOURCE_AHEAD_BLOCKS * COLS * col_pitch;
    for j in 0..COLS {
        let at = ahead + j * col_pitch;
        prefetch(src, at);
        prefetch(src, at + ROWS - 1);
    }
}

/// Whether a streamed batch of source columns `col_pitch` apart is swept: 4-byte elements
/// whose columns lie more than [`NEAR_RUN_BYTES`] and at most [`SWEPT_COLUMNS_APART_BYTES`]
/// apart (NHWC -> NCHW of 33 to 256 f32 channels). Left-over rows go as a last block overlapping
/// the one before: through the general blocks they would cost more than the sweep saves.
fn swept_when_streamed<E>(col_pitch: usize) -> bool {
    let apart = col_pitch * size_of::<E>();
    size_of::<E>() == 4 && apart > NEAR_RUN_BYTES && apart <= SWEPT_COLUMNS_APART_BYTES
}

/// Whether streamed tiles may go a column block at a time through all their rows
/// ([`realigned::sweep_realigned`]): 4-byte elements whose source is one run (columns at most
/// [`NEAR_RUN_BYTES`] apart), at most two blocks of rows.
fn read_as_one_run<E>(col_pitch: usize, rows: usize) -> bool {
    size_of::<E>() == 4 && col_pitch * size_of::<E>() <= NEAR_RUN_BYTES && rows <= 2 * ROWS
}

/// The whole blocks (`COLS` square, a 64-byte line; `STAGE` is `COLS * COLS`) of 1- or 2-byte
/// elements, swept by the general blocks' lane quads: a source line's rows a visit, one block
/// of rows where [`crowded_rows`]; where `crowded`, lines staged, `CROWDED` rows a visit
/// ([`CROWDED_VISIT_LINES`] lines, so the columns' pages stay in the TLB).
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
