//! The x86-64 pieces of the perfect shuffle (`kernels::shuffle`): 128-bit interleaves (wider
//! ones in their modules), unaligned loads, and `vpermt2d` for 4-byte kernels.

use super::super::register::interleave_for;
pub(crate) use super::super::shuffle::{Interleave, shuffle_rounds};
use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, __m512i, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpacklo_epi8,
    _mm_unpacklo_epi16, _mm_unpacklo_epi32,
};

interleave_for! {
    __m128i:
    u8: _mm_unpacklo_epi8, _mm_unpackhi_epi8;
    u16: _mm_unpacklo_epi16, _mm_unpackhi_epi16;
    u32: _mm_unpacklo_epi32, _mm_unpackhi_epi32;
}

/// The `size_of::<R>()` bytes of `src` from element `at`, read unaligned into a register `R`.
///
/// # Safety
///
/// `at + size_of::<R>() / size_of::<E>() <= src.len()`; the CPU runs loads of `R` (SSE2 for
/// `__m128i`, AVX for `__m256i`, AVX-512 F for `__m512i`).
#[inline(always)]
pub(crate) unsafe fn load_register<E: Pod, R>(src: &[E], at: usize) -> R {
    let end = at + size_of::<R>() / size_of::<E>();
    debug_assert!(end <= src.len(), "a source line inside the slice");
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
