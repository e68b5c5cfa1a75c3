//! The x86-64 pieces of the perfect shuffle, whose rounds every ISA shares
//! (`kernels::shuffle`): the interleaves (`interleave_for!`; the 128-bit ones here, AVX2's and
//! AVX-512's in their modules), the registers of every width (`x86_register!`), zero registers,
//! unaligned loads, and `vpermt2d`, which the 4-byte kernels share.

pub(crate) use super::super::shuffle::{Interleave, shuffle_rounds};
use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, __m512i, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpacklo_epi8,
    _mm_unpacklo_epi16, _mm_unpacklo_epi32,
};

/// `Interleave<$register>` for unsigned types by their interleave instructions.
macro_rules! interleave_for {
    ($register:ty: $($ty:ty: $low:ident, $high:ident;)+) => {$(
        impl Interleave<$register> for $ty {
            #[inline(always)]
            unsafe fn low(a: $register, b: $register) -> $register {
                // SAFETY: the CPU runs the instruction (the caller's promise).
                unsafe { $low(a, b) }
            }
            #[inline(always)]
            unsafe fn high(a: $register, b: $register) -> $register {
                // SAFETY: as for `low`.
                unsafe { $high(a, b) }
            }
        }
    )+};
}

pub(crate) use interleave_for;

/// [`Register`](crate::relayout::kernels::register::Register) for an x86-64 register of
/// `$bytes` bytes: unaligned loads and stores (`vmovdqu`), `$stream` (its width's `movntdq`)
/// for whole lines past the caches, `$lanes` for the 16-byte loads into its lanes.
macro_rules! x86_register {
    ($register:ty: $bytes:literal, $stream:ident, $lanes:path) => {
        impl $crate::relayout::kernels::register::Register for $register {
            const BYTES: usize = $bytes;
            type Line = [Self; 64 / $bytes];

            #[inline(always)]
            fn zero() -> Self {
                bytemuck::Zeroable::zeroed()
            }

            #[inline(always)]
            fn zero_line() -> Self::Line {
                bytemuck::Zeroable::zeroed()
            }

            #[inline(always)]
            unsafe fn load<E: bytemuck::Pod>(src: &[E], at: usize) -> Self {
                // SAFETY: passed on from the caller.
                unsafe { $crate::relayout::kernels::x86::shuffle::load_register(src, at) }
            }

            #[inline(always)]
            unsafe fn load_lanes<E: bytemuck::Pod>(src: &[E], at: [usize; 4]) -> Self {
                // SAFETY: passed on from the caller.
                unsafe { $lanes(src, at) }
            }

            #[inline(always)]
            unsafe fn store<E: bytemuck::Pod>(dst: &mut [E], at: usize, register: Self) {
                // SAFETY: passed on from the caller.
                unsafe { $crate::relayout::stores::store(dst, at, register) }
            }

            #[inline(always)]
            unsafe fn stream_line<E: bytemuck::Pod>(dst: &mut [E], at: usize, line: &Self::Line) {
                // SAFETY: passed on from the caller; `store_line` streams only a line that
                // starts on 64 bytes.
                unsafe { $crate::relayout::stores::store_line(dst, at, line, $stream) }
            }

            #[inline(always)]
            unsafe fn stream_lines<E: bytemuck::Pod, L: $crate::relayout::lines::Lines>(
                dst: &mut [E],
                at: usize,
                rows: L,
                from: usize,
                lines: &[Self::Line],
            ) {
                // SAFETY: as for `stream_line`; `store_lines` tests one line per block where
                // the rows keep a pitch.
                unsafe {
                    $crate::relayout::stores::store_lines(dst, at, rows, from, lines, true, $stream)
                }
            }
        }
    };
}

pub(crate) use x86_register;

interleave_for! {
    __m128i:
    u8: _mm_unpacklo_epi8, _mm_unpackhi_epi8;
    u16: _mm_unpacklo_epi16, _mm_unpackhi_epi16;
    u32: _mm_unpacklo_epi32, _mm_unpackhi_epi32;
}

/// A register of zero bits (of any width).
#[inline(always)]
pub(crate) fn zero<R: bytemuck::Zeroable>() -> R {
    R::zeroed()
}

/// The `size_of::<R>()` bytes of `src` from element `at`, read unaligned into a register `R`.
///
/// # Safety
///
/// `at + size_of::<R>() / size_of::<E>() <= src.len()`; the CPU runs loads of `R` (SSE2 for
/// `__m128i`, AVX for `__m256i`, AVX-512 F for `__m512i`).
#[inline(always)]
pub(crate) unsafe fn load_register<E: Pod, R>(src: &[E], at: usize) -> R {
    debug_assert!(
        at + size_of::<R>() / size_of::<E>() <= src.len(),
        "a source line inside the slice"
    );
    // SAFETY: the bytes lie inside `src` (the caller's promise); an unaligned read.
    unsafe { src.as_ptr().add(at).cast::<R>().read_unaligned() }
}

/// `vpermt2d`: 32-bit element `k` of the result is element `index[k] % 16` of `a` (bit 4
/// clear) or `b`; element by element under Miri, which does not run it.
///
/// # Safety
///
/// The CPU runs AVX-512 F instructions.
#[inline(always)]
pub(crate) unsafe fn permute_dwords(a: __m512i, index: __m512i, b: __m512i) -> __m512i {
    #[cfg(not(miri))]
    // SAFETY: AVX-512 F runs (the caller's promise).
    unsafe {
        core::arch::x86_64::_mm512_permutex2var_epi32(a, index, b)
    }
    #[cfg(miri)]
    {
        let (a, index, b): ([u32; 16], [u32; 16], [u32; 16]) =
            (bytemuck::cast(a), bytemuck::cast(index), bytemuck::cast(b));
        let out: [u32; 16] = core::array::from_fn(|k| {
            let from = if index[k] & 16 == 0 { &a } else { &b };
            from[(index[k] % 16) as usize]
        });
        bytemuck::cast(out)
    }
}
