//! The perfect shuffle all vector transpose blocks share: each ISA's two interleaves
//! ([`Interleave`]) and the rounds that transpose a micro-block with them ([`shuffle_rounds`]).

/// The two halves of the perfect shuffle of `Self`'s elements in registers of type `R`.
pub(crate) trait Interleave<R> {
    /// The first halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// The CPU runs the instruction: SSE2 for `__m128i`, AVX2 for `__m256i`, AVX-512 F and BW
    /// for `__m512i`, NEON for `uint8x16_t`.
    unsafe fn low(a: R, b: R) -> R;
    /// The second halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// As for [`Interleave::low`].
    unsafe fn high(a: R, b: R) -> R;
}

/// `log2(N)` rounds of the perfect shuffle on `v`, each interleaving the first half of the
/// registers with the second: after them, register `k` holds destination lines `k * L / N ..`.
///
/// # Safety
///
/// As for [`Interleave::low`].
#[inline(always)]
pub(crate) unsafe fn shuffle_rounds<E: Interleave<R>, R: Copy, const N: usize>(
    v: [R; N],
) -> [R; N] {
    // Rounds on constant indices keep registers in registers (as loops, LLVM leaves AVX-512
    // byte rounds rolled, in memory, copied by `memcpy`). No closures (`micro_blocks`).
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
