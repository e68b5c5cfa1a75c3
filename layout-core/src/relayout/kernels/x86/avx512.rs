//! The hot loops built a third time with AVX-512 F and BW, and the AVX-512 transpose blocks
//! they run, used wherever the CPU has both. A 512-bit register is a whole cache line: with a
//! micro-block per 128-bit lane, a shuffled register is one destination line, which leaves in
//! one store (filling its write-combining buffer at once) instead of two (AVX2) or four (SSE2).

use super::super::block_move::{BlockLines, BlockMove};
use super::super::micro_blocks;
use super::super::narrow;
use super::super::register::{interleave_for, register};
use super::super::transposes::transposes_fn;
use super::avx2::{Avx2Blocks, Wide};
use super::shuffle::{Interleave, load_register, permute_dwords, shuffle_rounds};
use crate::relayout::lines::{DST, Lines, SRC};
use crate::relayout::stores::{one_per_line, store, store_line, store_lines};
use crate::relayout::tuning::CACHE_LINE;
use bytemuck::{Pod, Zeroable};
use core::arch::x86_64::{
    __m128i, __m512i, _mm512_castsi128_si512, _mm512_inserti32x4, _mm512_stream_si512,
    _mm512_unpackhi_epi8, _mm512_unpackhi_epi16, _mm512_unpackhi_epi32, _mm512_unpacklo_epi8,
    _mm512_unpacklo_epi16, _mm512_unpacklo_epi32,
};

isa_build! {
    "AVX-512 F and BW", "avx2,avx512f,avx512bw", ["avx512f", "avx512bw"], Avx512Blocks<Broad>,
    StageBlocks
}

transposes_fn! {
    /// [`narrow::narrow_transpose`] compiled with AVX-512 F and BW, its pieces written by `P`
    /// ([`narrow::Cached`], or [`StreamedPieces`] past the caches).
    ///
    /// # Safety
    ///
    /// The CPU runs AVX-512 F and BW instructions ([`available`]).
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    #[inline(never)]
    pub(crate) unsafe fn narrow_transpose[T: Copy, P: narrow::Pieces<T>](
        t: Transposes<T>,
    ) -> bool {
        // SAFETY: `P`'s instructions are AVX-512 F ones at most (the caller's promise).
        unsafe { narrow::narrow_transpose::<T, P>(t) }
    }
}

/// Narrow tiles' pieces written past the caches: pieces of whole aligned lines by streaming
/// stores (a line is not read before it is overwritten), the rest through the caches. Elements
/// under 4 bytes stay in place, through the caches, faster than streamed from a local piece.
pub(crate) struct StreamedPieces;

impl<E: Pod> narrow::Pieces<E> for StreamedPieces {
    const IN_PLACE: bool = size_of::<E>() < 4;

    /// # Safety
    ///
    /// The CPU runs AVX-512 F instructions.
    #[inline(always)]
    unsafe fn put(out: &mut [E], piece: &[E]) {
        assert_eq!(out.len(), piece.len(), "a piece fills its place");
        let per_line = CACHE_LINE / size_of::<E>().max(1);
        if !size_of_val(piece).is_multiple_of(CACHE_LINE) {
            out.copy_from_slice(piece);
            return;
        }
        for (k, line) in piece.chunks_exact(per_line).enumerate() {
            // SAFETY: the line's 64 bytes lie inside `piece` and, at `k * per_line`, inside
            // `out` (the same length, whole lines); AVX-512 F runs (the caller's promise).
            // `store_line` streams only a line that starts on 64 bytes.
            unsafe {
                let register: __m512i = load_register(line, 0);
                store_line(out, k * per_line, &[register], _mm512_stream_si512);
            }
        }
    }
}

/// Blocks through 512-bit registers where the CPU runs AVX-512 F and BW, a micro-block per
/// 128-bit lane ([`micro_blocks::wide_block`]) or, for streamed 4-byte elements (with
/// `WHOLE_LINES` cached ones too), [`whole_lines`]; narrower blocks as [`Avx2Blocks`]'.
pub(crate) struct Avx512Blocks<const STREAM: bool, const WHOLE_LINES: bool = false>;

/// A staged transpose's ([`staged()`]) blocks into its L1 buffer: 4-byte elements as
/// [`whole_lines`] (there its one load per line beats the lane quads), others as [`Avx512Blocks`].
pub(crate) type StageBlocks = Avx512Blocks<false, true>;

impl<E: Broad, const STREAM: bool, const WHOLE_LINES: bool> BlockMove<E>
    for Avx512Blocks<STREAM, WHOLE_LINES>
{
    const STREAMS: bool = STREAM;
    type Cached = Avx512Blocks<false>;

    /// # Safety
    ///
    /// As [`BlockMove::block`], and the CPU runs AVX-512 F and BW instructions.
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [E],
        b: BlockLines<'_, E, L, C, COLS>,
    ) {
        // SAFETY (both): passed on from the caller (AVX-512 implies AVX2); `whole_lines` takes
        // 4-byte elements in blocks of a multiple of 16 columns.
        unsafe {
            if (STREAM || WHOLE_LINES) && size_of::<E>() == 4 && COLS.is_multiple_of(16) {
                whole_lines::<E, L, C, COLS, STREAM>(dst, b)
            } else {
                micro_blocks::wide_block::<E, __m512i, Self, Avx2Blocks<STREAM>, L, C, COLS>(dst, b)
            }
        }
    }
}

/// A [`Wide`] type's AVX-512 interleaves (within each 128-bit lane, as the SSE2 ones).
pub(crate) trait Broad: Wide + Interleave<__m512i> {}

interleave_for! {
    __m512i:
    u8: _mm512_unpacklo_epi8, _mm512_unpackhi_epi8;
    u16: _mm512_unpacklo_epi16, _mm512_unpackhi_epi16;
    u32: _mm512_unpacklo_epi32, _mm512_unpackhi_epi32;
}

impl<E: Wide + Interleave<__m512i>> Broad for E {}

// The AVX-512 register, a whole cache line: four 128-bit lanes, `vmovntdq` past the caches.
register! {
    __m512i: 64 bytes, load: load_register, lanes: quad_register, store: store, line: store_line,
    stream: _mm512_stream_si512,
}

/// The block of 4-byte elements as 16 x 16 squares: a source line is one register, and four
/// shuffle rounds across registers ([`Whole32`]) make register `k` destination line `k`. One
/// load per source line, not four; streamed only (cached, its sixteen stores in a row are
/// slower than the lane quads').
///
/// # Safety
///
/// As [`BlockMove::block`], `size_of::<E>() == 4`, `COLS` a multiple of 16, and the CPU runs
/// AVX-512 F instructions.
#[inline(always)]
unsafe fn whole_lines<
    E: Pod,
    L: Lines<DST>,
    C: Lines<SRC>,
    const COLS: usize,
    const STREAM: bool,
>(
    dst: &mut [E],
    b: BlockLines<'_, E, L, C, COLS>,
) {
    let (d, rows, src, s, cols) = (b.d, b.rows, b.src, b.s, b.cols);
    for c in (0..COLS).step_by(16) {
        let mut v = [__m512i::zeroed(); 16];
        // Source lines in address order, not the shuffle's pairing order (0, 8, 4, 12, ...),
        // which slows some cores where the 16 lines are one run.
        for (j, register) in v.iter_mut().enumerate() {
            // SAFETY: the source line holds `ROWS` = 16 elements of 4 bytes from
            // `s + cols.at(c + j)` (the caller's promise); AVX-512 F runs (the caller's promise).
            *register = unsafe { load_register(src, s + cols.at(c + j)) };
        }
        // SAFETY: AVX-512 F runs (the caller's promise).
        let lines = one_per_line(unsafe { shuffle_rounds::<Whole32, __m512i, 16>(v) });
        // SAFETY: the destination line at `d + rows.at(k)` holds `COLS` elements (the caller's
        // promise); register `k` fills its elements `c .. c + 16`, 64 bytes.
        unsafe { store_lines(dst, d + c, rows, 0, &lines, STREAM, _mm512_stream_si512) };
    }
}

/// The perfect shuffle of 32-bit elements across whole 512-bit registers ([`permute_dwords`]),
/// not lane by lane as the interleave instructions do.
pub(crate) struct Whole32;

impl Interleave<__m512i> for Whole32 {
    #[inline(always)]
    unsafe fn low(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 F runs (the caller's promise).
        unsafe { permute_dwords(a, bytemuck::cast(FIRST_HALVES), b) }
    }
    #[inline(always)]
    unsafe fn high(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: as for `low`.
        unsafe { permute_dwords(a, bytemuck::cast(SECOND_HALVES), b) }
    }
}

/// `vpermt2d` indices of `a[0], b[0], a[1], b[1], ..` (eight of each: bit 4 picks `b`).
const FIRST_HALVES: [u32; 16] = [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23];

/// `vpermt2d` indices of `a[8], b[8], a[9], b[9], ..`.
const SECOND_HALVES: [u32; 16] = [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31];

/// The 16 bytes at each of `at` (element offsets), in the four 128-bit lanes in turn.
///
/// # Safety
///
/// Each 16 bytes lie inside `src`; the CPU runs AVX-512 F instructions.
#[inline(always)]
unsafe fn quad_register<E: Pod>(src: &[E], at: [usize; 4]) -> __m512i {
    // SAFETY: passed on from the caller.
    unsafe {
        let z = _mm512_castsi128_si512(load_register::<E, __m128i>(src, at[0]));
        let z = _mm512_inserti32x4::<1>(z, load_register::<E, __m128i>(src, at[1]));
        let z = _mm512_inserti32x4::<2>(z, load_register::<E, __m128i>(src, at[2]));
        _mm512_inserti32x4::<3>(z, load_register::<E, __m128i>(src, at[3]))
    }
}
