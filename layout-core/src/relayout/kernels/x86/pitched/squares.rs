//! Byte transposes in squares of 64 x 64 bytes, through the caches or streamed past them: each
//! of the square's 64 source lines loaded whole, once, where the lane quads
//! ([`sweep_quads`](super::sweep_quads)) load each line as four 16-byte pieces, one per block
//! of 16 rows, three of every register's four pieces by inserts. Those loads, not the
//! shuffles, held the lane quads back: without the shuffles, their loads and stores alone run
//! hardly faster, while whole lines loaded and stored run far faster (docs/engine-measurements.md,
//! "Byte squares").
//!
//! A square goes in two steps. Each group of 16 source lines (16 columns of 64 rows) is
//! transposed lane by lane, four rounds of interleaves: register `k`'s lane `q` is then row
//! `16q + k`'s 16 bytes of those columns. The four groups' registers go into a 4 KiB local
//! block in L1; then for each `k`, the four groups' registers `k` are transposed as 4 x 4
//! lanes (`vshufi64x2`), which makes rows `k`, `16 + k`, `32 + k` and `48 + k` whole 64-byte
//! lines, one store each, rather than the 16-byte lanes stored straight into the rows, which
//! is markedly slower.
//!
//! Squares go one after another ([`Squares`]), each one's stores interleaved with the next
//! one's loads. Streamed, a square's 64 stores in one burst after its 64 loads kept the
//! memory from overlapping the two, and gained nothing over the general blocks; interleaved,
//! the squares pay streamed too, and through the caches they run as fast as one at a time.

use super::super::shuffle::{load_register, shuffle_rounds, zero};
use super::{Corner, put};
use crate::relayout::tuning::{CACHE_LINE, ROWS};
use core::arch::x86_64::{__m512i, _mm512_shuffle_i64x2};
use core::mem::MaybeUninit;
use core::ops::Range;

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

/// Squares moved one after another, each square's second step (its stores) interleaved with
/// the next square's first step (its loads), a quarter of each per group of 16 columns:
/// into a destination past the caches, a square's 64 streamed stores in one burst after its
/// 64 loads kept the two from overlapping. Two local blocks, the square being loaded and the
/// one being stored. [`Squares::finish`] stores the last square.
pub(super) struct Squares<'a> {
    /// The two squares' local blocks, [`SIDE`] registers each.
    local: [MaybeUninit<__m512i>; 2 * SIDE],
    /// The square whose first step is done and second step is not.
    pending: Option<Pending<'a>>,
}

/// A square loaded and not yet stored: its rows, its first column and which local block
/// holds it.
#[derive(Clone, Copy)]
struct Pending<'a> {
    group: &'a [(usize, usize)],
    c0: usize,
    local: usize,
}

impl<'a> Squares<'a> {
    /// No square yet.
    pub(super) fn new() -> Self {
        Squares {
            local: [const { MaybeUninit::uninit() }; 2 * SIDE],
            pending: None,
        }
    }

    /// Columns `c0 .. c0 + SIDE` of the square whose rows are `group` ([`takes`]), from `src`
    /// at the corner's spacing: loaded and transposed lane by lane now, stored into `dst`
    /// with the next square or by [`Squares::finish`], each whole aligned line streamed
    /// where `STREAM`. Every call until `finish` takes the same `dst`, `corner` and `STREAM`.
    ///
    /// # Safety
    ///
    /// Every element of the square lies inside its slice at the corner's spacing (row `r` of
    /// the group `r` after its first in the source, row `16q + k` `k * row_pitch` after its
    /// block's first in the destination); the CPU runs AVX-512 F and BW.
    #[inline(always)]
    pub(super) unsafe fn push<const STREAM: bool>(
        &mut self,
        dst: &mut [u8],
        src: &[u8],
        corner: Corner,
        group: &'a [(usize, usize)],
        c0: usize,
    ) {
        let into = self.pending.map_or(0, |pending| 1 - pending.local);
        let first = corner.s + group[0].0 + c0 * corner.col_pitch;
        for g in 0..GROUPS {
            let mut v = [zero::<__m512i>(); ROWS];
            for (j, register) in v.iter_mut().enumerate() {
                // SAFETY: column `c0 + 16g + j`'s 64 rows, one run in the source (the
                // caller's promise); AVX-512 F runs (the caller's promise).
                let at = first + (g * ROWS + j) * corner.col_pitch;
                *register = unsafe { load_register(src, at) };
            }
            // SAFETY: AVX-512 BW runs (the caller's promise).
            let lanes = unsafe { shuffle_rounds::<u8, __m512i, ROWS>(v) };
            for (k, &register) in lanes.iter().enumerate() {
                self.local[into * SIDE + g * ROWS + k].write(register);
            }
            if let Some(pending) = self.pending {
                // A quarter of the pending square's 16 register rows with each group loaded.
                let ks = g * ROWS / GROUPS..(g + 1) * ROWS / GROUPS;
                // SAFETY: the pending square was pushed with the same promises.
                unsafe { self.store::<STREAM>(dst, corner, pending, ks) };
            }
        }
        self.pending = Some(Pending {
            group,
            c0,
            local: into,
        });
    }

    /// Stores the last square pushed, if any is left.
    ///
    /// # Safety
    ///
    /// As for [`Squares::push`], with the same `dst`, `corner` and `STREAM`.
    #[inline(always)]
    pub(super) unsafe fn finish<const STREAM: bool>(&mut self, dst: &mut [u8], corner: Corner) {
        if let Some(pending) = self.pending.take() {
            // SAFETY: passed on from the caller.
            unsafe { self.store::<STREAM>(dst, corner, pending, 0..ROWS) };
        }
    }

    /// The second step of the `pending` square for register rows `ks`: registers `k` of its
    /// four groups transposed as 4 x 4 lanes, rows `16q + k` stored whole.
    ///
    /// # Safety
    ///
    /// The square was pushed (its local block written whole) with the same `dst` and
    /// `corner`, whose promises hold; the CPU runs AVX-512 F.
    #[inline(always)]
    unsafe fn store<const STREAM: bool>(
        &self,
        dst: &mut [u8],
        corner: Corner,
        Pending { group, c0, local }: Pending<'_>,
        ks: Range<usize>,
    ) {
        // Written out, not by `array::map`: its closures stay calls, compiled without the
        // CPU features of the function that inlines this.
        let block_d = [
            corner.d + group[0].1 + c0,
            corner.d + group[ROWS].1 + c0,
            corner.d + group[2 * ROWS].1 + c0,
            corner.d + group[3 * ROWS].1 + c0,
        ];
        let block = &self.local[local * SIDE..(local + 1) * SIDE];
        for k in ks {
            // SAFETY (all four): `push` wrote every register of the square's local block.
            let (a, b, c, e) = unsafe {
                (
                    block[k].assume_init(),
                    block[ROWS + k].assume_init(),
                    block[2 * ROWS + k].assume_init(),
                    block[3 * ROWS + k].assume_init(),
                )
            };
            // SAFETY: AVX-512 F runs (the caller's promise).
            let lines = unsafe { lanes_transposed(a, b, c, e) };
            for (q, line) in lines.into_iter().enumerate() {
                // SAFETY: row `16q + k` of the square, its 64 columns from `c0` (the caller's
                // promise).
                unsafe { put::<u8, STREAM>(dst, block_d[q] + k * corner.row_pitch, line) };
            }
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
