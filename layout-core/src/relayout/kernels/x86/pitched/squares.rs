//! Byte transposes through the caches in squares of 64 x 64 bytes: each of the square's 64
//! source lines loaded whole, once, where the lane quads ([`sweep_quads`](super::sweep_quads))
//! load each line as four 16-byte pieces, one per block of 16 rows, three of every register's
//! four pieces by inserts. Those loads, not the shuffles, held the lane quads back: in a probe
//! (u8 4x256x56x56 NCHW -> NHWC, one transpose written for the shape alternating with memcpy,
//! AMD EPYC, Zen 5) the lane quads ran 0.70-0.72x of memcpy, their loads and stores without
//! the shuffles 0.73-0.74, whole lines loaded and stored 0.90-0.95, these squares 0.73-0.80.
//!
//! A square goes in two steps. Each group of 16 source lines (16 columns of 64 rows) is
//! transposed lane by lane, four rounds of interleaves: register `k`'s lane `q` is then row
//! `16q + k`'s 16 bytes of those columns. The four groups' registers go into a 4 KiB local
//! block in L1; then for each `k`, the four groups' registers `k` are transposed as 4 x 4
//! lanes (`vshufi64x2`), which makes rows `k`, `16 + k`, `32 + k` and `48 + k` whole 64-byte
//! lines, one store each. Storing the 16-byte lanes straight into the rows instead of going
//! through the local block ran 0.53-0.55 in the probe. Streamed past the caches, squares
//! gained nothing on the u8 transposes that stream (8x256x56x56 nchw->nhwc 0.54-0.57 against
//! 0.53-0.56 with the general blocks, nhwc->nchw 0.53-0.56 against 0.57-0.66; `cargo bench
//! --bench relayout_interleaved`, a switch in one build, each way in turn, three runs): those
//! keep the general blocks.

use super::super::shuffle::{load_register, shuffle_rounds, zero};
use super::Corner;
use crate::relayout::stores::store;
use crate::relayout::tuning::{CACHE_LINE, ROWS};
use core::arch::x86_64::{__m512i, _mm512_shuffle_i64x2};
use core::mem::MaybeUninit;

/// Rows and columns of a square: one line of bytes.
pub(super) const SIDE: usize = CACHE_LINE;

/// Groups of [`ROWS`] columns in a square, and rows of a destination line's four lanes.
const GROUPS: usize = SIDE / ROWS;

/// Whether `group` (a source line's rows, listed) is one square's rows: [`SIDE`] rows, which
/// follow one another in the source (a batch's rows count up by one there), in blocks of
/// [`ROWS`] whose rows keep the pitch in the destination (the batch is pitched).
pub(super) fn takes(group: &[(usize, usize)]) -> bool {
    group.len() == SIDE
        && group
            .iter()
            .enumerate()
            .all(|(k, &(row_s, _))| row_s == group[0].0 + k)
}

/// Columns `c0 .. c0 + SIDE` of the square whose rows are `group` ([`takes`]): from `src` at
/// the corner's spacing into `dst`, through the caches.
///
/// # Safety
///
/// Every element of the square lies inside its slice at the corner's spacing (row `r` of the
/// group `r` after its first in the source, row `16q + k` `k * row_pitch` after its block's
/// first in the destination); the CPU runs AVX-512 F and BW.
#[inline(always)]
pub(super) unsafe fn square(
    dst: &mut [u8],
    src: &[u8],
    corner: Corner,
    group: &[(usize, usize)],
    c0: usize,
) {
    let Corner {
        s,
        d,
        row_pitch,
        col_pitch,
    } = corner;
    let first = s + group[0].0 + c0 * col_pitch;
    // Written whole by the first step before the second reads it: no zeroing (4 KiB a square).
    let mut local = [const { MaybeUninit::<__m512i>::uninit() }; SIDE];
    for g in 0..GROUPS {
        let mut v = [zero::<__m512i>(); ROWS];
        for (j, register) in v.iter_mut().enumerate() {
            // SAFETY: column `c0 + 16g + j`'s 64 rows, one run in the source (the caller's
            // promise); AVX-512 F runs (the caller's promise).
            *register = unsafe { load_register(src, first + (g * ROWS + j) * col_pitch) };
        }
        // SAFETY: AVX-512 BW runs (the caller's promise).
        let lanes = unsafe { shuffle_rounds::<u8, __m512i, ROWS>(v) };
        for (k, &register) in lanes.iter().enumerate() {
            local[g * ROWS + k].write(register);
        }
    }
    let block_d = [0, 1, 2, 3].map(|q| d + group[q * ROWS].1 + c0);
    for k in 0..ROWS {
        // SAFETY: the first step wrote every register of `local`.
        let [a, b, c, e] = [0, 1, 2, 3].map(|g| unsafe { local[g * ROWS + k].assume_init() });
        // SAFETY: AVX-512 F runs (the caller's promise).
        let lines = unsafe { lanes_transposed(a, b, c, e) };
        for (q, line) in lines.into_iter().enumerate() {
            // SAFETY: row `16q + k` of the square, its 64 columns from `c0` (the caller's
            // promise).
            unsafe { store(dst, block_d[q] + k * row_pitch, line) };
        }
    }
}

/// The 4 x 4 transpose of 128-bit lanes: result `q` holds lane `q` of `a`, `b`, `c` and `e`,
/// in turn.
///
/// # Safety
///
/// The CPU runs AVX-512 F.
#[inline(always)]
unsafe fn lanes_transposed(a: __m512i, b: __m512i, c: __m512i, e: __m512i) -> [__m512i; 4] {
    // SAFETY: AVX-512 F runs (the caller's promise). Lane selectors, two bits each from the
    // lowest: the first two lanes from the first operand, the last two from the second.
    unsafe {
        // a0 a1 b0 b1, a2 a3 b2 b3, and the same of `c` and `e`.
        let low_ab = _mm512_shuffle_i64x2::<0b01_00_01_00>(a, b);
        let high_ab = _mm512_shuffle_i64x2::<0b11_10_11_10>(a, b);
        let low_ce = _mm512_shuffle_i64x2::<0b01_00_01_00>(c, e);
        let high_ce = _mm512_shuffle_i64x2::<0b11_10_11_10>(c, e);
        [
            _mm512_shuffle_i64x2::<0b10_00_10_00>(low_ab, low_ce),
            _mm512_shuffle_i64x2::<0b11_01_11_01>(low_ab, low_ce),
            _mm512_shuffle_i64x2::<0b10_00_10_00>(high_ab, high_ce),
            _mm512_shuffle_i64x2::<0b11_01_11_01>(high_ab, high_ce),
        ]
    }
}
