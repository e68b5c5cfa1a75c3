//! The hot loops built a second time with AVX2, used wherever the CPU has it: the generic,
//! always-inlined loops of [`kernels`](super::super) compiled whole, moving blocks through
//! 256-bit registers (the AVX2 blocks, [`Avx2Blocks`]) and rows 32 bytes at a time.

use super::super::block_move::{BlockLines, BlockMove};
use super::super::micro_blocks;
use super::super::register::{interleave_for, register};
use super::super::row_blocks::RowBlock;
use super::super::rows::copy_rows_fn;
use super::super::streamed_rows;
use super::shuffle::{Interleave, load_register};
use super::sse2::{Block, Sse2};
use crate::relayout::lines::{DST, Lines, SRC};
use crate::relayout::stores::{end_streaming, store, store_line};
use crate::relayout::tuning::CACHE_LINE;
use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, __m256i, _mm256_set_m128i, _mm256_stream_si256, _mm256_unpackhi_epi8,
    _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpacklo_epi8, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32,
};

isa_build! { "AVX2", "avx2", ["avx2"], Avx2Blocks<Wide>, Avx2Blocks<false> }

sweep_on! { "AVX2", "avx2" }

/// Runs `body` inlined into a function compiled with AVX2 (its copies move 32 bytes a register).
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn run_with_avx2<R>(body: impl FnOnce() -> R) -> R {
    body()
}

copy_rows_fn! {
    /// [`rows::copy_rows`](super::super::rows::copy_rows) compiled with AVX2.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX2 instructions ([`available`]).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn copy_rows
}

/// [`streamed_rows::copy`] compiled with AVX2, then [`end_streaming`].
///
/// # Safety
///
/// As [`streamed_rows::copy`]; the CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn stream_rows<E: Pod>(
    block: RowBlock<'_, E>,
    rows: &[(usize, usize)],
    lines: bool,
    ahead: usize,
) {
    // SAFETY: passed on from the caller.
    unsafe { streamed_rows::copy::<E, __m256i>(block, rows, lines, ahead) };
    end_streaming();
}

/// Copies `run` into `out`, whole lines past the caches, partial ones at the ends through them,
/// without [`end_streaming`]: how a staged transpose's rows leave (`kernels::staged`).
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn stream_run<E: Pod>(out: &mut [E], run: &[E]) {
    assert_eq!(out.len(), run.len(), "a run fills its place");
    let per_line = CACHE_LINE / size_of::<E>();
    let half = per_line / 2;
    // Elements before `out`'s first line boundary (its address a multiple of the element's
    // size, which divides 64).
    let head = (out.as_ptr().addr().wrapping_neg() % CACHE_LINE / size_of::<E>()).min(out.len());
    let lines = (out.len() - head) / per_line;
    let tail = head + lines * per_line;
    out[..head].copy_from_slice(&run[..head]);
    for at in (head..tail).step_by(per_line) {
        // SAFETY: the line's `per_line` elements from `at` lie inside both slices (`at + per_line
        // <= tail <= len`); AVX2 runs (the caller's promise). Each line starts on 64 bytes, so
        // `store_line` streams it.
        unsafe {
            let line: [__m256i; 2] = [load_register(run, at), load_register(run, at + half)];
            store_line(out, at, &line, _mm256_stream_si256);
        }
    }
    out[tail..].copy_from_slice(&run[tail..]);
}

/// Blocks moved through 256-bit registers, one micro-block per 128-bit lane
/// ([`micro_blocks::wide_block`]), narrower ones as [`Sse2`]'s. Only where the CPU runs AVX2.
pub(crate) struct Avx2Blocks<const STREAM: bool>;

impl<E: Wide, const STREAM: bool> BlockMove<E> for Avx2Blocks<STREAM> {
    const STREAMS: bool = STREAM;
    type Cached = Avx2Blocks<false>;

    /// # Safety
    ///
    /// As [`BlockMove::block`], and the CPU runs AVX2 instructions.
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [E],
        b: BlockLines<'_, E, L, C, COLS>,
    ) {
        // SAFETY: passed on from the caller.
        unsafe { micro_blocks::wide_block::<E, __m256i, Self, Sse2<STREAM>, L, C, COLS>(dst, b) }
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

impl<E: Block + Interleave<__m256i>> Wide for E {}

// The AVX2 register: two 128-bit lanes, `vmovntdq` for whole lines past the caches.
register! {
    __m256i: 32 bytes, load: load_register, lanes: pair_lanes, store: store, line: store_line,
    stream: _mm256_stream_si256,
}

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
