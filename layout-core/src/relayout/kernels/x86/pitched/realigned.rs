//! Streamed 4-byte sweeps whose destination rows start off the 64-byte line grid, each row at
//! a place of its own within its lines: NHWC -> NCHW into planes of 55 x 55 `f32` (3025
//! elements, so each plane starts 4 bytes further along a line than the one before). Written
//! as they come out of the transpose, every row's 64-byte line straddles two cache lines and
//! goes through the caches (a read of each destination line before it is written); here each
//! row's line is shifted onto the grid, its first elements from the block before, and streamed.
//!
//! The transposed block before stays in a buffer of its own that takes turns with the current
//! one: copying it over a block (1 KiB a step, on the stack) ran at 0.22x memcpy against
//! 0.88 (f32 8x256x55x55 nhwc->nchw, one relayout alternating with memcpy in a loop, AMD EPYC
//! Zen 5), its stores and the next block's source loads apparently meeting in the same 4 KiB
//! offsets (a build with another stack frame ran 0.78).

use super::super::avx512::{Broad, Whole32};
use super::super::shuffle::{load_register, permute_dwords, shuffle_rounds, zero};
use super::{COLS, Corner, ask_ahead};
use crate::relayout::stores::store_line;
use crate::relayout::tuning::ROWS;
use core::arch::x86_64::{__m512i, _mm512_stream_si512};
use core::ops::Range;

/// For a row whose first column lies `m` elements into its cache line: `vpermt2d` indices that
/// take the line's first `m` elements from the end of the block before (the first operand) and
/// its other `16 - m` from the start of this block (the second).
const SHIFTS: [[u32; COLS]; COLS] = {
    let mut table = [[0; COLS]; COLS];
    let mut m = 0;
    while m < COLS {
        let mut i = 0;
        while i < COLS {
            table[m][i] = (i + COLS - m) as u32;
            i += 1;
        }
        m += 1;
    }
    table
};

/// The blocks of columns `cols` (whole blocks) of every row block of `rows`, as
/// [`sweep`](super::sweep) moves them, each row's lines streamed on the line grid: row `k`'s
/// line that ends column block `j` holds the row's last `m_k` columns of block `j - 1` and
/// its first `16 - m_k` of block `j`, `m_k` being how far into its line the row's first column
/// lies. Each row's first `16 - m_k` and last `m_k` columns, which share their lines with
/// the neighbouring rows, go element by element through the caches, the rest of those lines
/// left alone.
///
/// # Safety
///
/// As for [`sweep`](super::sweep); `E` is 4 bytes.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
pub(super) unsafe fn sweep_realigned<E: Broad>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: Range<usize>,
) {
    debug_assert_eq!(size_of::<E>(), 4, "4-byte elements");
    let Corner {
        s,
        d,
        row_pitch,
        col_pitch,
    } = corner;
    for &(row_s, row_d) in rows.iter().step_by(ROWS) {
        let (block_s, block_d) = (s + row_s, d + row_d);
        // Where each row's first column lies in its line, and the indices that shift it.
        let first = |k: usize| block_d + k * row_pitch + cols.start;
        let shift: [usize; ROWS] = core::array::from_fn(|k| {
            let address = dst.as_ptr().wrapping_add(first(k)).addr();
            address / size_of::<E>() % COLS
        });
        // The transposed block before each one, and this one, taking turns: no copy a block.
        let mut turns = [[zero::<__m512i>(); ROWS]; 2];
        for (n, c0) in cols.clone().step_by(COLS).enumerate() {
            ask_ahead(src, block_s + c0 * col_pitch, col_pitch);
            let mut v = [zero::<__m512i>(); COLS];
            for (j, register) in v.iter_mut().enumerate() {
                // SAFETY: column `c0 + j`'s line of the block's `ROWS` rows (the caller's
                // promise); AVX-512 F runs (the caller's promise).
                *register = unsafe { load_register(src, block_s + (c0 + j) * col_pitch) };
            }
            let [a, b] = &mut turns;
            let (before, lines) = if n % 2 == 0 { (&*b, a) } else { (&*a, b) };
            // SAFETY: AVX-512 F runs (the caller's promise).
            *lines = unsafe { shuffle_rounds::<Whole32, __m512i, COLS>(v) };
            for k in 0..ROWS {
                let m = shift[k];
                // SAFETY: a table row is 16 elements; AVX-512 F runs (the caller's promise).
                let line = unsafe {
                    let index = load_register(&SHIFTS[m], 0);
                    permute_dwords(before[k], index, lines[k])
                };
                let at = block_d + k * row_pitch + c0;
                if c0 == cols.start && m > 0 {
                    // The row's first `16 - m` columns, the rest of their line another row's.
                    put_lanes(dst, at, line, m..COLS);
                } else {
                    // SAFETY: the line from column `c0 - m` of row `k`: `m` columns of the
                    // block before and `16 - m` of this one, inside `dst` (the caller's
                    // promise), on the line grid (`m` measured so); AVX-512 F runs.
                    unsafe { store_line(dst, at - m, &[line], _mm512_stream_si512) };
                }
            }
        }
        let last = &turns[(cols.len() / COLS + 1) % 2];
        for k in 0..ROWS {
            let m = shift[k];
            if m > 0 {
                // The row's last `m` columns, at the start of the line after its last block.
                // SAFETY: a table row is 16 elements; AVX-512 F runs (the caller's promise).
                let line = unsafe {
                    let index = load_register(&SHIFTS[m], 0);
                    permute_dwords(last[k], index, last[k])
                };
                put_lanes(dst, block_d + k * row_pitch + cols.end - m, line, 0..m);
            }
        }
    }
}

/// Writes lanes `lanes` of `line` to `dst` from element `first` on, through the caches: the
/// part of a line that is the row's, the rest of the line left alone.
///
/// # Panics
///
/// Where those elements do not lie inside `dst`.
#[inline(always)]
fn put_lanes<E: Broad>(dst: &mut [E], first: usize, line: __m512i, lanes: Range<usize>) {
    let values: [u32; COLS] = bytemuck::cast(line);
    let values: &[E] = bytemuck::cast_slice(&values);
    dst[first..first + lanes.len()].copy_from_slice(&values[lanes]);
}
