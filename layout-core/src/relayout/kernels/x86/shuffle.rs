//! The vector primitives every block width shares: the perfect shuffle of registers, loads and
//! zero registers; and `vpermt2d`, which the 4-byte kernels share.

use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, __m512i, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpacklo_epi8,
    _mm_unpacklo_epi16, _mm_unpacklo_epi32,
};

/// The two halves of the perfect shuffle of `Self`'s elements in registers of type `R`.
pub(crate) trait Interleave<R> {
    /// The first halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// The CPU runs the instruction: SSE2 (every x86-64 CPU) for `__m128i`, AVX2 for `__m256i`,
    /// AVX-512 F and BW for `__m512i`.
    unsafe fn low(a: R, b: R) -> R;
    /// The second halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// As for [`Interleave::low`].
    unsafe fn high(a: R, b: R) -> R;
}

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

interleave_for! {
    __m128i:
    u8: _mm_unpacklo_epi8, _mm_unpackhi_epi8;
    u16: _mm_unpacklo_epi16, _mm_unpackhi_epi16;
    u32: _mm_unpacklo_epi32, _mm_unpackhi_epi32;
}

/// `log2(N)` rounds of the perfect shuffle on `v` (each interleaving the first half of the
/// registers with the second, element by element), for registers of either width: after
/// them, register `k` holds destination lines `k * L / N ..` of the micro-block.
///
/// # Safety
///
/// As for [`Interleave::low`].
#[inline(always)]
pub(crate) unsafe fn shuffle_rounds<E: Interleave<R>, R: Copy, const N: usize>(
    v: [R; N],
) -> [R; N] {
    // Every round written out, on arrays indexed by constants only, so that the registers stay
    // registers: as loops (even counted ones) LLVM leaves the 16-register rounds of AVX-512
    // bytes rolled, the array in memory and each round's copy a call to `memcpy`. No closures
    // and no `core::array::from_fn` either: LLVM does not always inline those into the AVX2
    // build.
    macro_rules! round {
        ($v:ident, $half:literal: $($i:literal)+) => {
            // SAFETY: passed on from the caller.
            unsafe { [$(E::low($v[$i], $v[$i + $half]), E::high($v[$i], $v[$i + $half])),+] }
        };
    }
    match N {
        16 => {
            let v: [R; 16] = resized(v);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            resized(round!(v, 8: 0 1 2 3 4 5 6 7))
        }
        8 => {
            let v: [R; 8] = resized(v);
            let v = round!(v, 4: 0 1 2 3);
            let v = round!(v, 4: 0 1 2 3);
            resized(round!(v, 4: 0 1 2 3))
        }
        4 => {
            let v: [R; 4] = resized(v);
            let v = round!(v, 2: 0 1);
            resized(round!(v, 2: 0 1))
        }
        2 => {
            let v: [R; 2] = resized(v);
            resized(round!(v, 1: 0))
        }
        1 => v,
        _ => unreachable!("micro-blocks of 1, 2, 4, 8 or 16 lines"),
    }
}

/// `v` as an array of `M` registers, where `M == N` (the arms of `shuffle_rounds`).
#[inline(always)]
fn resized<R: Copy, const N: usize, const M: usize>(v: [R; N]) -> [R; M] {
    let fixed: &[R; M] = v[..].try_into().expect("arrays of the same length");
    *fixed
}

/// A register of zero bits (of any width).
#[inline(always)]
pub(crate) fn zero<R: bytemuck::Zeroable>() -> R {
    R::zeroed()
}

/// The `size_of::<R>()` bytes of `src` from element `at`, read unaligned into a register of
/// type `R` as plain integers.
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

/// `vpermt2d`: element `k` of the result is element `index[k] % 16` of `a` (bit 4 clear) or
/// `b` (of 32-bit elements).
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
