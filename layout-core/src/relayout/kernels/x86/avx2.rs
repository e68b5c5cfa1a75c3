//! The hot loops built a second time with AVX2 enabled, and the AVX2 transpose blocks they run
//! (x86-64 only), used wherever the CPU has AVX2.
//!
//! The loops themselves are the generic ones of [`kernels`](super::super), always inlined, so
//! that these wrappers compile them whole with AVX2: the transposes of plain 1-, 2- and 4-byte
//! types move their blocks through 256-bit registers ([`Avx2Blocks`]) and the row copies get
//! 32-byte moves. Whether the CPU (and its OS)
//! runs AVX2 is found once, with `cpuid`, by the `cpufeatures` crate (`layout-core` is
//! `no_std`, so `std::is_x86_feature_detected!` is not available).

use super::super::ahead::Ahead;
use super::super::few_rows;
use super::super::micro_blocks;
use super::super::prefetch::prefetch;
use super::super::reach::Reach;
use super::super::staged;
use super::super::tile_batch::TileBatch;
use super::super::tiles::{self, BlockMove};
use super::super::transposes::Transposes;
use super::shuffle::{Interleave, interleave_for, load_register, x86_register};
use super::sse2::{Block, Sse2};
use crate::relayout::lines::Lines;
use crate::relayout::stores::{end_streaming, store, store_line};
use crate::relayout::tuning::CACHE_LINE;
use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, __m256i, _mm256_set_m128i, _mm256_stream_si256, _mm256_unpackhi_epi8,
    _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpacklo_epi8, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32,
};
use core::ops::Range;

cpufeatures::new!(cpuid_avx2, "avx2");

/// Whether this CPU runs AVX2 instructions (found on the first call, then cached).
/// The cache is `cpufeatures`' atomic, so any number of threads may ask at once: a race
/// detects twice and stores the same answer.
#[inline]
pub(crate) fn available() -> bool {
    cpuid_avx2::get()
}

/// Runs `body` inlined into a function compiled with AVX2, so that its copies move 32 bytes a
/// register.
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn run_with_avx2<R>(body: impl FnOnce() -> R) -> R {
    body()
}

/// One width's transposes ([`tiles::plane_body`]) compiled with AVX2: the
/// [`BlockMove::plane`] of [`Avx2Blocks`].
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn plane<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    tiles::plane_body::<T, B, COLS>(Transposes::new(dst, d, src, s, batch, reach));
}

/// Tiles of a few rows ([`few_rows::few_rows_body`]) compiled with AVX2: the
/// [`BlockMove::few_rows`] of [`Avx2Blocks`].
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn few_rows_plane<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    few_rows::few_rows_body::<T, B, COLS>(Transposes::new(dst, d, src, s, batch, reach));
}

/// [`staged::staged_widths`] compiled with AVX2, the blocks [`Avx2Blocks`] writing through the
/// caches into the local buffer.
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]); `stages` is
/// [`Stages::of`](staged::Stages::of) the batch.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn staged<E: Wide>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
    stages: staged::Stages,
) {
    let t = Transposes::new(dst, d, src, s, batch, reach);
    // SAFETY: passed on from the caller.
    unsafe { staged::staged_widths::<E, Avx2Blocks<false>>(t, stages, stream_run) }
}

/// [`rows::copy_rows`](super::super::rows::copy_rows) compiled with AVX2.
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)] // the kernel's arguments, as in `rows::copy_rows`
pub(crate) unsafe fn copy_rows<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    ahead: Ahead,
) {
    super::super::rows::copy_rows(dst, d, src, s, rows, cols, reach, ahead);
}

/// Copies elements `cols` of each listed row (as
/// [`rows::copy_listed_blocks`](super::super::rows::copy_listed_blocks)) with each destination line
/// written past the caches, when the rows are 32 bytes (two to a line) or 64 (one), `reach`
/// fits and the CPU runs AVX2 ([`available`]); `false` (nothing written) otherwise. Rows of
/// 32 bytes ask for their source `ahead` elements further on (0: not at all).
///
/// A line written through the cache is read first, so each byte crosses the memory bus three
/// times, as in memcpy; streamed, twice (f32 nChw8c->nChw16c, nhwc->nChw16c).
#[allow(clippy::too_many_arguments)] // the kernel's arguments, as `rows::copy_rows`'
pub(crate) fn stream_rows<E: Pod>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    ahead: usize,
) -> bool {
    let (s, d, n) = (s + cols.start, d + cols.start, cols.len());
    let bytes = n * size_of::<E>();
    if (bytes != CACHE_LINE / 2 && bytes != CACHE_LINE)
        || !reach.fits(dst.len(), d + n - 1, src.len(), s + n - 1)
        || !available()
    {
        return false;
    }
    // SAFETY: each row's `bytes` lie inside both slices (`Reach::fits` just above, as in
    // `rows::copy_rows`); the CPU runs AVX2 (`available` just above).
    unsafe {
        if bytes == CACHE_LINE {
            stream_line_rows(dst, d, src, s, rows);
        } else {
            stream_row_pairs(dst, d, src, s, rows, ahead);
        }
    }
    true
}

/// Rows of 32 bytes (one register each) copied two to a destination line: where listed rows
/// `2k` and `2k + 1` lie side by side, their line is written in one go, past the caches where
/// it is aligned ([`store_line`]); other rows go through the caches. Where `ahead` is not 0,
/// each pair asks for both rows' source `ahead` elements on: with the lines streamed, the
/// loads wait on the source (`perf`: most of the time at them), two to a line from rows far
/// apart (u8 crouton->flat: eight croutons 2 KiB apart, f32 nChw8c->nChw16c: two planes),
/// more streams than the hardware prefetcher runs ahead of. Ends with [`end_streaming`].
///
/// # Safety
///
/// `32 / size_of::<E>()` elements from `s + from` lie inside `src` and from `d + to` inside
/// `dst`, for every `(from, to)` of `rows`; the CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn stream_row_pairs<E: Pod>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    rows: &[(usize, usize)],
    ahead: usize,
) {
    let n = 32 / size_of::<E>();
    let mut pairs = rows.chunks_exact(2);
    for pair in &mut pairs {
        let ((low_from, low_to), (high_from, high_to)) = (pair[0], pair[1]);
        if ahead != 0 {
            prefetch(src, s + low_from + ahead);
            prefetch(src, s + high_from + ahead);
        }
        // SAFETY: both rows' registers lie inside both slices (the caller's promise); when the
        // second row follows the first, the line's 64 bytes are exactly those two rows.
        unsafe {
            let low: __m256i = load_register(src, s + low_from);
            let high: __m256i = load_register(src, s + high_from);
            if high_to == low_to + n {
                store_line(dst, d + low_to, &[low, high], _mm256_stream_si256);
            } else {
                store(dst, d + low_to, low);
                store(dst, d + high_to, high);
            }
        }
    }
    for &(from, to) in pairs.remainder() {
        // SAFETY: as above, for one row.
        unsafe { store(dst, d + to, load_register::<E, __m256i>(src, s + from)) };
    }
    end_streaming();
}

/// Rows of 64 bytes (two registers each), each one whole destination line: written past the
/// caches where the line is aligned ([`store_line`]), through them elsewhere. Ends with
/// [`end_streaming`].
///
/// # Safety
///
/// `64 / size_of::<E>()` elements from `s + from` lie inside `src` and from `d + to` inside
/// `dst`, for every `(from, to)` of `rows`; the CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn stream_line_rows<E: Pod>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    rows: &[(usize, usize)],
) {
    let half = 32 / size_of::<E>();
    for &(from, to) in rows {
        // SAFETY: the row's two registers lie inside both slices (the caller's promise).
        unsafe {
            let line: [__m256i; 2] = [
                load_register(src, s + from),
                load_register(src, s + from + half),
            ];
            store_line(dst, d + to, &line, _mm256_stream_si256);
        }
    }
    end_streaming();
}

/// Copies `run` into `out` (of the same length), each 64 bytes of `out` that are a whole
/// cache line written past the caches, the partial lines at either end through them: a
/// staged transpose's rows, back to back in the destination, leave so
/// (`kernels::staged`). Does not end the streaming ([`end_streaming`]).
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn stream_run<E: Pod>(out: &mut [E], run: &[E]) {
    assert_eq!(out.len(), run.len(), "a run fills its place");
    let per_line = CACHE_LINE / size_of::<E>();
    let half = per_line / 2;
    // Elements before the first line boundary of `out`: its address is a multiple of the
    // element's size, which divides 64.
    let head = (out.as_ptr().addr().wrapping_neg() % CACHE_LINE / size_of::<E>()).min(out.len());
    let lines = (out.len() - head) / per_line;
    let tail = head + lines * per_line;
    out[..head].copy_from_slice(&run[..head]);
    for at in (head..tail).step_by(per_line) {
        // SAFETY: the line's `per_line` elements from `at` lie inside both slices (`at + per_line
        // <= tail <= len`); AVX2 runs (the caller's promise). `store_line` streams only a line
        // that starts on 64 bytes, as every one here does.
        unsafe {
            let line: [__m256i; 2] = [load_register(run, at), load_register(run, at + half)];
            store_line(out, at, &line, _mm256_stream_si256);
        }
    }
    out[tail..].copy_from_slice(&run[tail..]);
}

/// Blocks moved through 256-bit registers, two micro-blocks side by side, one per 128-bit lane
/// (the shared loop, [`micro_blocks::wide_block`]). Blocks narrower than two micro-blocks are
/// [`Sse2`]'s.
///
/// Only where the CPU runs AVX2: their [`plane`] is compiled for it.
pub(crate) struct Avx2Blocks<const STREAM: bool>;

impl<E: Wide, const STREAM: bool> BlockMove<E> for Avx2Blocks<STREAM> {
    const STREAMS: bool = STREAM;
    type Cached = Avx2Blocks<false>;

    /// # Safety
    ///
    /// The CPU runs AVX2 instructions.
    unsafe fn plane<const COLS: usize>(t: Transposes<'_, E>) {
        // SAFETY: passed on from the caller.
        unsafe { plane::<E, Self, COLS>(t.dst, t.d, t.src, t.s, t.batch, t.reach) }
    }

    /// # Safety
    ///
    /// The CPU runs AVX2 instructions.
    unsafe fn few_rows<const COLS: usize>(t: Transposes<'_, E>) {
        // SAFETY: passed on from the caller.
        unsafe { few_rows_plane::<E, Self::Cached, COLS>(t.dst, t.d, t.src, t.s, t.batch, t.reach) }
    }

    /// # Safety
    ///
    /// As [`BlockMove::block`], and the CPU runs AVX2 instructions.
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines>(
        dst: &mut [E],
        d: usize,
        rows: L,
        src: &[E],
        s: usize,
        cols: &[(usize, usize); COLS],
    ) {
        // SAFETY: passed on from the caller.
        unsafe {
            micro_blocks::wide_block::<E, __m256i, Self, Sse2<STREAM>, L, COLS>(
                dst, d, rows, src, s, cols,
            )
        }
    }
}

/// A [`Block`] type's AVX2 interleaves (within each 128-bit lane, as the SSE2 ones).
pub(crate) trait Wide: Block + Interleave<__m256i> {}

interleave_for! {
    __m256i:
    u8: _mm256_unpacklo_epi8, _mm256_unpackhi_epi8;
    u16: _mm256_unpacklo_epi16, _mm256_unpackhi_epi16;
    u32: _mm256_unpacklo_epi32, _mm256_unpackhi_epi32;
}

impl Wide for u8 {}
impl Wide for u16 {}
impl Wide for u32 {}

// The AVX2 register: two 128-bit lanes, `vmovntdq` for whole lines past the caches.
x86_register!(__m256i: 32, _mm256_stream_si256, pair_lanes);

/// The 16 bytes at `at[0]` in the low lane, at `at[1]` in the high one (element offsets).
///
/// # Safety
///
/// Both 16 bytes lie inside `src`; the CPU runs AVX instructions.
#[inline(always)]
unsafe fn pair_lanes<E: Pod>(src: &[E], at: [usize; 4]) -> __m256i {
    // SAFETY: passed on from the caller.
    unsafe {
        let low: __m128i = load_register(src, at[0]);
        let high: __m128i = load_register(src, at[1]);
        _mm256_set_m128i(high, low)
    }
}
