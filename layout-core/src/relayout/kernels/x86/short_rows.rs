//! AVX-512 byte transposes whose destination rows lie back to back, longer than half a cache
//! line and shorter than one (NHWC -> NCHW of 7 x 7 positions: planes of 49 bytes). Instead of
//! blocks of 32, 16 and single columns, each block of 16 rows is one of 64 columns (the row's
//! own, then its last again): each row leaves in one 64-byte store running into the next row,
//! which is stored after it over those bytes; a block's last row is stored exactly, so no store
//! reaches past the block (docs/engine-measurements.md, "Short byte rows").

use super::super::micro_blocks::transposed;
use super::super::tile_batch::TileBatch;
use super::avx2::stream_run;
use super::shuffle::load_register;
use crate::relayout::lines::evenly_listed;
use crate::relayout::stores::store;
use crate::relayout::tuning::{CACHE_LINE, ROWS};
use core::arch::x86_64::__m512i;

/// Columns of a block: one 512-bit register of bytes.
const COLS: usize = CACHE_LINE;

/// The stage's column lines, `COLS` apart: a constant listing, folded into the loads' offsets.
const STAGED: [(usize, usize); COLS] = evenly_listed(COLS, 1);

/// Whether this path moves the batch: bytes, rows of more than half a line and less than a
/// whole one, back to back in the destination, at least one block of rows.
pub(super) fn takes<E>(batch: &TileBatch<'_>) -> bool {
    let n = batch.cols.len();
    size_of::<E>() == 1
        && n > COLS / 2
        && n < COLS
        && batch.rows_run == Some(n)
        && batch.rows.len() >= ROWS
}

/// [`tiles::transpose`](super::super::tiles::transpose) of a batch this path [`takes`]. Rows go
/// in groups of 64: the group's 64 column lines are first copied into a local 4 KiB stage its
/// four blocks read, since in place (49 columns 2 KiB apart) they share two L1 sets and evict
/// each other between blocks. With `stream`, a group's rows (whole lines) leave a local buffer
/// as one run past the caches ([`stream_run`]); else go straight into `dst`. Rows past the last
/// group go as blocks of [`ROWS`] read in place, the last ending with the last row.
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW instructions. Does not end the streaming
/// ([`end_streaming`](crate::relayout::stores::end_streaming)).
///
/// # Panics
///
/// Where a tile's rows or columns lie outside the slices.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(super) unsafe fn transpose(
    dst: &mut [u8],
    d: usize,
    src: &[u8],
    s: usize,
    batch: TileBatch<'_>,
    stream: bool,
) {
    let (rows, n) = (batch.rows, batch.cols.len());
    debug_assert!(takes::<u8>(&batch), "a batch this path takes");
    // The row's columns, then its last column again up to a whole register.
    let cols: [(usize, usize); COLS] = core::array::from_fn(|j| batch.cols[j.min(n - 1)]);
    let source_reach = cols.iter().map(|col| col.0).max().unwrap_or(0) + ROWS;
    let groups = rows.len() / COLS * COLS;
    let blocks = (groups..rows.len() - ROWS + 1)
        .step_by(ROWS)
        .chain((!rows.len().is_multiple_of(ROWS)).then_some(rows.len() - ROWS));
    let (first_col, (last_s, last_d)) = (batch.cols[0].1, rows[rows.len() - 1]);
    let mut stage = [0u8; COLS * COLS];
    let mut out = [0u8; COLS * COLS];
    for &(tile_s, tile_d) in batch.origins {
        let (s, d) = (s + tile_s, d + tile_d + first_col);
        // Every block's source lines (16 or, staged, 64 rows up from `row.0`) and destination
        // rows (`n` apart from `row.1`, the last ending the tile's) inside the slices.
        assert!(
            s + last_s - (ROWS - 1) + source_reach <= src.len() && d + last_d + n <= dst.len(),
            "a tile inside the slices"
        );
        for (row_s, row_d) in rows[..groups].iter().step_by(COLS).copied() {
            for (j, col) in cols.iter().enumerate() {
                // SAFETY: the column's 64 rows from `s + row_s + col.0`, up to the tile's last,
                // lie inside `src` (checked above); AVX-512 F runs (the caller's promise).
                let line: __m512i = unsafe { load_register(src, s + row_s + col.0) };
                // SAFETY: line `j` of the stage, inside it.
                unsafe { store(&mut stage, j * COLS, line) };
            }
            let (rows_out, at) = if stream {
                (&mut out[..], 0)
            } else {
                (&mut *dst, d + row_d)
            };
            for r in (0..COLS).step_by(ROWS) {
                // SAFETY: column `j`'s line at `j * 64` of the stage, its rows `r .. r + 16`
                // inside it; AVX-512 F and BW run (the caller's promise).
                let lines = unsafe { transposed::<u8, __m512i, _, ROWS>(&stage, r, &STAGED, 0) };
                put_rows(rows_out, at + r * n, n, &lines);
            }
            if stream {
                let run = d + row_d..d + row_d + COLS * n;
                // SAFETY: AVX2 runs (the caller's promise of AVX-512 F and BW includes it).
                unsafe { stream_run(&mut dst[run], &out[..COLS * n]) };
            }
        }
        for start in blocks.clone() {
            let (row_s, row_d) = rows[start];
            // SAFETY: the 64 columns' lines of the block's 16 rows, from `s + row_s + col.0`,
            // end by `s + last_s - 15 + source_reach` (checked above); AVX-512 F and BW run
            // (the caller's promise).
            let lines = unsafe { transposed::<u8, __m512i, _, ROWS>(src, s + row_s, &cols, 0) };
            put_rows(dst, d + row_d, n, &lines);
        }
    }
}

/// Writes each `lines[k]` to `out` from `at + k * n` by one 64-byte store (module docs), the
/// last row's `n` bytes exactly.
///
/// # Panics
///
/// Where the last row's `n` bytes do not lie inside `out`.
#[inline(always)]
fn put_rows(out: &mut [u8], at: usize, n: usize, lines: &[__m512i; ROWS]) {
    let end = at + (ROWS - 1) * n;
    assert!(end + n <= out.len(), "a block's rows inside the slice");
    for (k, &line) in lines[..ROWS - 1].iter().enumerate() {
        // SAFETY: row `k`'s 64 bytes from `at + k * n` end inside row `k + 1` (`n > 32`), so
        // inside `out` (checked above); row `k + 1`, stored next, overwrites the overrun.
        unsafe { store(out, at + k * n, line) };
    }
    let last: [u8; COLS] = bytemuck::cast(lines[ROWS - 1]);
    out[end..end + n].copy_from_slice(&last[..n]);
}

#[cfg(test)]
mod tests {
    use super::super::super::tiles::tests::{against_definition, evenly};
    use super::super::tests::isa_test;
    use super::*;
    use crate::relayout::test_layouts::under_miri;
    use alloc::vec::Vec;

    isa_test! {
        avx512:
        /// Planes of `n` bytes from pixels of `channels` bytes, two tiles, equal to the
        /// definition: the shortest and longest rows the path takes, channels past the groups
        /// of 64 (whole blocks or not) and none, through the caches and streamed.
        fn short_rows_move_like_elements() {
            let cases = [
                (33, 16, false),
                (49, 37, true),
                (63, 21, false),
                (49, 2048, false),
                (49, 200, true),
                (57, 130, false),
                (49, 80, true),
                (57, 70, false),
            ];
            // Under Miri, one group with one more block and one with an overlapping block.
            for (n, channels, stream) in under_miri(&cases, &[6, 7]) {
                let (rows, cols) = (evenly(channels, 1, n), evenly(n, channels, 1));
                let tile = n * channels;
                let origins = [(0, 0), (tile, tile)];
                let batch = TileBatch::listed(&origins, &rows, &cols, Some(n));
                let batch = batch.runs(Some(n), Some(channels));
                assert!(takes::<u8>(&batch));
                let src: Vec<u8> = (0..2 * tile).map(|i| (i * 7 % 251) as u8).collect();
                let case = alloc::format!("rows of {n} bytes, {channels} of them");
                against_definition(batch, &src, (2 * tile + 64, 0xEE), &case, |t| {
                    // SAFETY: AVX-512 F and BW run (`isa_test` checks first).
                    unsafe { transpose(t.dst, t.d, t.src, t.s, t.batch, stream) };
                    true
                });
            }
        }
    }
}
