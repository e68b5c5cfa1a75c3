//! Streamed 4-byte transposes whose destination rows start off the 64-byte line grid, each at
//! its own offset (NHWC -> NCHW into planes of 55 x 55 or 230 x 230 `f32`). Stored as they come
//! out of the transpose, each row's 64-byte line straddles two cache lines and goes through the
//! caches; here it is shifted onto the grid, its first elements from the block before, and
//! streamed. The block before keeps a buffer of its own, taking turns with the current one: a
//! copy each step would put its stores and the next block's loads at the same 4 KiB offsets.

use super::super::super::evenly_spaced::Corner;
use super::super::super::prefetch::prefetch;
use super::super::avx512::{Broad, Whole32};
use super::super::shuffle::{load_register, permute_dwords, shuffle_rounds};
use super::{COLS, ask_ahead};
use crate::relayout::stores::store_line;
use crate::relayout::tuning::{CACHE_LINE, ROWS, RUN_PREFETCH_BYTES};
use bytemuck::Zeroable;
use core::arch::x86_64::{__m512i, _mm512_stream_si512};
use core::ops::Range;

/// For a row whose first column lies `m` elements into its cache line: `vpermt2d` indices that
/// take the line's first `m` elements from the end of the block before (the first operand) and
/// its other `16 - m` from the start of this block (the second).
const SHIFTS: [[u32; COLS]; COLS] = {
    let mut table = [[0; COLS]; COLS];
    let mut at = 0;
    while at < COLS * COLS {
        let (m, i) = (at / COLS, at % COLS);
        table[m][i] = (i + COLS - m) as u32;
        at += 1;
    }
    table
};

/// The whole column blocks `cols` of `rows`, as [`sweep`](super::sweep) moves them, each row's
/// lines streamed on the grid: row `k`'s line ending column block `j` holds the last `m_k`
/// columns of block `j - 1` and the first `16 - m_k` of block `j` (`m_k`: how far into its line
/// the row starts). The row's first `16 - m_k` and last `m_k` columns, on lines shared with
/// neighbouring rows, go element by element through the caches.
///
/// Without `ONE_RUN`, each row block of `rows` in turn. With it, for a source read as one run
/// ([`read_as_one_run`](super::read_as_one_run)): the tile's 16 to 32 rows as its first 16 and
/// its last 16 (less the rows the first writes), both through each column block in turn, the
/// source prefetched as one run [`RUN_PREFETCH_BYTES`] ahead so each source line is read once;
/// unlike the general blocks, it streams rows off the grid and keeps rows past 16 whole.
///
/// # Safety
///
/// As for [`sweep`](super::sweep); `E` is 4 bytes. With `ONE_RUN`, `rows` are the tile's `ROWS`
/// to `2 * ROWS` rows, those from `rows.len() - ROWS` on one pitch apart too.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
pub(super) unsafe fn sweep_realigned<E: Broad, const ONE_RUN: bool>(
    dst: &mut [E],
    src: &[E],
    corner: Corner,
    rows: &[(usize, usize)],
    cols: Range<usize>,
) {
    debug_assert_eq!(size_of::<E>(), 4, "4-byte elements");
    debug_assert!(
        !ONE_RUN || (ROWS..=2 * ROWS).contains(&rows.len()),
        "one or two blocks"
    );
    let (ahead, run) = (RUN_PREFETCH_BYTES / size_of::<E>(), COLS * corner.col_pitch);
    let line = CACHE_LINE / size_of::<E>();
    let starts = if ONE_RUN { &rows[..1] } else { rows };
    for &first_row in starts.iter().step_by(ROWS) {
        let first = RowBlock::new(dst, corner, first_row, cols.start, 0);
        let second = (ONE_RUN && rows.len() > ROWS).then(|| {
            let from = rows.len() - ROWS;
            RowBlock::new(dst, corner, rows[from], cols.start, ROWS - from)
        });
        let mut turns = [[[__m512i::zeroed(); ROWS]; 2]; 2];
        let [first_turns, second_turns] = &mut turns;
        for (n, c0) in cols.clone().step_by(COLS).enumerate() {
            if ONE_RUN {
                let start = first.s + c0 * corner.col_pitch + ahead;
                for at in (start..start + run).step_by(line) {
                    prefetch(src, at);
                }
            } else {
                ask_ahead(src, first.s + c0 * corner.col_pitch, corner.col_pitch);
            }
            // SAFETY (both): passed on from the caller.
            unsafe {
                first.visit(dst, src, first_turns, n, c0);
                if let Some(second) = &second {
                    second.visit(dst, src, second_turns, n, c0);
                }
            }
        }
        // SAFETY (both): AVX-512 F runs (the caller's promise).
        unsafe {
            first.finish(dst, first_turns, cols.clone());
            if let Some(second) = &second {
                second.finish(dst, second_turns, cols.clone());
            }
        }
    }
}

/// One block of `ROWS` rows: where its rows start in the source (`s`) and the destination
/// (`d`), how far into its line each row's first column (`first_col`) lies (`shift`; `on_grid`
/// where none is off the grid), where each row's second destination line starts (`starts`), and
/// the rows another block writes (those before `from`).
struct RowBlock {
    corner: Corner,
    s: usize,
    d: usize,
    shift: [usize; ROWS],
    from: usize,
    first_col: usize,
    starts: [usize; ROWS],
    on_grid: bool,
}

impl RowBlock {
    /// The block of the rows from `(row_s, row_d)` on, its columns from `first_col`, writing its
    /// rows from `from` on.
    #[inline(always)]
    fn new<E>(
        dst: &[E],
        corner: Corner,
        (row_s, row_d): (usize, usize),
        first_col: usize,
        from: usize,
    ) -> Self {
        let (s, d) = (corner.s + row_s, corner.d + row_d);
        let shift = core::array::from_fn(|k| {
            let first = d + k * corner.row_pitch + first_col;
            dst.as_ptr().wrapping_add(first).addr() / size_of::<E>() % COLS
        });
        let starts =
            core::array::from_fn(|k| d + k * corner.row_pitch + first_col + COLS - shift[k]);
        Self {
            on_grid: shift.iter().all(|&m| m == 0),
            starts,
            corner,
            s,
            d,
            shift,
            from,
            first_col,
        }
    }

    /// Column block `n` (from column `c0`): transposed (or, past [`GATHERED_FROM`] rows written
    /// by another block, gathered) into `turns[n % 2]`, each row's line shifted with the block
    /// before's (`turns[(n + 1) % 2]`) and streamed; on the first, each row's head is cached.
    ///
    /// # Safety
    ///
    /// The block's columns `c0 .. c0 + COLS` lie inside both slices at the corner's spacing;
    /// AVX-512 F runs.
    #[inline(always)]
    unsafe fn visit<E: Broad>(
        &self,
        dst: &mut [E],
        src: &[E],
        turns: &mut [[__m512i; ROWS]; 2],
        n: usize,
        c0: usize,
    ) {
        let corner = self.corner;
        let [a, b] = turns;
        let even = n.is_multiple_of(2);
        let (before, lines) = if even { (&*b, a) } else { (&*a, b) };
        if self.from >= GATHERED_FROM {
            for (k, line) in lines.iter_mut().enumerate().skip(self.from) {
                // SAFETY: row `k`'s elements of columns `c0 .. c0 + COLS`, `col_pitch` apart (at
                // most `NEAR_RUN_BYTES`), inside `src`; AVX-512 F runs (the caller's promises).
                *line = unsafe {
                    gather_dwords(src, self.s + k + c0 * corner.col_pitch, corner.col_pitch)
                };
            }
        } else {
            let mut v = [__m512i::zeroed(); COLS];
            for (j, register) in v.iter_mut().enumerate() {
                // SAFETY: column `c0 + j`'s line of the block's `ROWS` rows; AVX-512 F runs
                // (the caller's promises).
                *register = unsafe { load_register(src, self.s + (c0 + j) * corner.col_pitch) };
            }
            // SAFETY: AVX-512 F runs (the caller's promise).
            *lines = unsafe { shuffle_rounds::<Whole32, __m512i, COLS>(v) };
        }
        if c0 == self.first_col {
            for k in self.from..ROWS {
                let m = self.shift[k];
                let at = self.d + k * corner.row_pitch + c0;
                // SAFETY: AVX-512 F runs (the caller's promise).
                let line = unsafe { shifted(before[k], lines[k], m) };
                if m > 0 {
                    // The row's first `16 - m` columns, the rest of their line another row's.
                    put_lanes(dst, at, line, m..COLS);
                } else {
                    // SAFETY: the row's first line, inside `dst` (the caller's promise), on
                    // the grid (`m` measured so); AVX-512 F runs.
                    unsafe { store_line(dst, at, &[line], _mm512_stream_si512) };
                }
            }
            return;
        }
        // SAFETY (both): passed on from the caller.
        unsafe {
            match (self.from, self.on_grid) {
                (0, true) => self.stream_rows::<E, false>(dst, before, lines, c0, 0..ROWS),
                (0, false) => self.stream_rows::<E, true>(dst, before, lines, c0, 0..ROWS),
                (from, true) => self.stream_rows::<E, false>(dst, before, lines, c0, from..ROWS),
                (from, false) => self.stream_rows::<E, true>(dst, before, lines, c0, from..ROWS),
            }
        }
    }

    /// Rows `rows` of a later column block, each line made of `before`'s and `lines`', streamed.
    ///
    /// # Safety
    ///
    /// As for [`visit`](Self::visit).
    #[inline(always)]
    unsafe fn stream_rows<E: Broad, const SHIFTED: bool>(
        &self,
        dst: &mut [E],
        before: &[__m512i; ROWS],
        lines: &[__m512i; ROWS],
        c0: usize,
        rows: Range<usize>,
    ) {
        for k in rows {
            let m = self.shift[k];
            let line = if SHIFTED {
                // SAFETY: AVX-512 F runs (the caller's promise).
                unsafe { shifted(before[k], lines[k], m) }
            } else {
                lines[k]
            };
            let at = self.starts[k] + (c0 - self.first_col - COLS);
            // SAFETY: the line from column `c0 - m` of row `k`: `m` columns of the block
            // before and `16 - m` of this one, inside `dst` (the caller's promise), on the
            // line grid (`m` measured so); AVX-512 F runs.
            unsafe { store_line(dst, at, &[line], _mm512_stream_si512) };
        }
    }

    /// Each row's last `shift` columns of `cols` (the start of the line after its last column
    /// block's), from that block in `turns`, through the caches.
    ///
    /// # Safety
    ///
    /// AVX-512 F runs.
    #[inline(always)]
    unsafe fn finish<E: Broad>(
        &self,
        dst: &mut [E],
        turns: &[[__m512i; ROWS]; 2],
        cols: Range<usize>,
    ) {
        let last = &turns[(cols.len() / COLS + 1) % 2];
        for (k, &ended) in last.iter().enumerate().skip(self.from) {
            let m = self.shift[k];
            if m > 0 {
                // SAFETY: AVX-512 F runs (the caller's promise).
                let line = unsafe { shifted(ended, ended, m) };
                let at = self.d + k * self.corner.row_pitch + cols.end - m;
                put_lanes(dst, at, line, 0..m);
            }
        }
    }
}

/// The line whose first `m` elements are the last `m` of `before` and whose other `16 - m`
/// are the first of `line` (one `vpermt2d` by a row of [`SHIFTS`]).
///
/// # Safety
///
/// AVX-512 F runs.
///
/// # Panics
///
/// Where `m` is 16 or more.
#[inline(always)]
unsafe fn shifted(before: __m512i, line: __m512i, m: usize) -> __m512i {
    // SAFETY: a table row is 16 elements; AVX-512 F runs (the caller's promise).
    unsafe { permute_dwords(before, load_register(&SHIFTS[m], 0), line) }
}

/// Writes lanes `lanes` of `line` to `dst` from element `first`, through the caches.
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

/// A block whose first this many rows (or more) are written by another block (the second of a
/// tile of 17 to 24 rows) gathers its remaining rows, one `vpgatherdd` each: cheaper than
/// transposing 16 source lines for a few rows.
const GATHERED_FROM: usize = 8;

/// Elements `first`, `first + pitch`, .. `first + 15 * pitch` of `src` as one register
/// (`vpgatherdd`; element by element under Miri, which does not run it).
///
/// # Safety
///
/// The 16 elements lie inside `src`, `15 * pitch` fits an `i32`, `E` is 4 bytes; AVX-512 F runs.
#[inline(always)]
unsafe fn gather_dwords<E: Broad>(src: &[E], first: usize, pitch: usize) -> __m512i {
    debug_assert!(first + (COLS - 1) * pitch < src.len(), "inside the slice");
    #[cfg(not(miri))]
    // SAFETY: every gathered element lies inside `src` (the caller's promise), at byte offset
    // `4 * j * pitch` from `first`, which fits an `i32` (the caller's promise); AVX-512 F runs.
    unsafe {
        use core::arch::x86_64::{_mm512_i32gather_epi32, _mm512_mullo_epi32, _mm512_set1_epi32};
        let steps = _mm512_mullo_epi32(load_register(&STEPS, 0), _mm512_set1_epi32(pitch as i32));
        _mm512_i32gather_epi32::<4>(steps, src.as_ptr().add(first).cast())
    }
    #[cfg(miri)]
    {
        let out: [u32; COLS] = core::array::from_fn(|j| bytemuck::cast(src[first + j * pitch]));
        bytemuck::cast(out)
    }
}

/// The gathered elements' steps.
#[cfg(not(miri))]
const STEPS: [u32; COLS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
