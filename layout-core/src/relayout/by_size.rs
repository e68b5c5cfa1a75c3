//! The engine compiled once per element size: a tensor's elements are moved as units of their
//! size, so that the engine's code is generated in this crate, four times, and not once per
//! element type and layout pair in every crate that relayouts.
//!
//! A plain element type (an integer, a float, `half`'s `f16` or `bf16`: no padding bytes, every
//! bit pattern a value) of 1, 2, 4 or 8 bytes moves as the unsigned integer of its size, with
//! the vector kernels. Any other type of those sizes and alignments moves as `MaybeUninit` of
//! that integer (its bytes copied as they are, padding bytes included) by the portable
//! kernels. Types of any other size or alignment are moved as themselves ([`Opaque`]), by an
//! engine the caller's crate compiles for them.

use super::kernels::Opaque;
use super::plan::Pair;
use super::schedule::{SourceOffsets, Streaming, run};
use core::any::TypeId;
use core::mem::MaybeUninit;

/// Copies every element `pair` describes from `src` into `dst` and `pad` into every padding
/// slot of `dst`, through the engine compiled for `T`'s size. `streaming` overrides the choice
/// of stores past the caches (by default from the destination's size).
#[inline]
pub(crate) fn copy<T: Copy + Send + Sync + 'static>(
    pair: &Pair,
    src: &[T],
    dst: &mut [T],
    pad: T,
    offsets: &SourceOffsets<'_>,
    streaming: Option<Streaming>,
) {
    // Each branch's condition is a constant of `T`, so only the taken branch is compiled for
    // `T`: the per-size engines are not generic, and `Opaque` is reached by other sizes only.
    if const { fits::<T, u8>() } {
        // SAFETY: `MaybeUninit` of an integer holds any bytes of a `T`.
        let (src, dst, pad) = unsafe { as_units(src, dst, pad) };
        by_1(pair, src, dst, pad, is_plain::<T>(), offsets, streaming);
    } else if const { fits::<T, u16>() } {
        // SAFETY: `MaybeUninit` of an integer holds any bytes of a `T`.
        let (src, dst, pad) = unsafe { as_units(src, dst, pad) };
        by_2(pair, src, dst, pad, is_plain::<T>(), offsets, streaming);
    } else if const { fits::<T, u32>() } {
        // SAFETY: `MaybeUninit` of an integer holds any bytes of a `T`.
        let (src, dst, pad) = unsafe { as_units(src, dst, pad) };
        by_4(pair, src, dst, pad, is_plain::<T>(), offsets, streaming);
    } else if const { fits::<T, u64>() } {
        // SAFETY: `MaybeUninit` of an integer holds any bytes of a `T`.
        let (src, dst, pad) = unsafe { as_units(src, dst, pad) };
        by_8(pair, src, dst, pad, is_plain::<T>(), offsets, streaming);
    } else {
        // SAFETY: `Opaque<T>` is `T` (`repr(transparent)`).
        let (src, dst, pad) = unsafe { as_units::<T, Opaque<T>>(src, dst, pad) };
        run(pair, src, dst, pad, offsets, streaming);
    }
}

/// Whether `T` has the size and alignment of `U`.
const fn fits<T, U>() -> bool {
    size_of::<T>() == size_of::<U>() && align_of::<T>() == align_of::<U>()
}

/// Whether `T` is a plain element type: an integer, a float, or `half`'s `f16` or `bf16`, whose
/// every bit pattern is a value and which has no padding bytes.
fn is_plain<T: 'static>() -> bool {
    let plain = [
        TypeId::of::<u8>(),
        TypeId::of::<i8>(),
        TypeId::of::<u16>(),
        TypeId::of::<i16>(),
        TypeId::of::<half::f16>(),
        TypeId::of::<half::bf16>(),
        TypeId::of::<u32>(),
        TypeId::of::<i32>(),
        TypeId::of::<f32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i64>(),
        TypeId::of::<f64>(),
    ];
    plain.contains(&TypeId::of::<T>())
}

/// `src`, `dst` and `pad` as units `U` of `T`'s size and alignment.
///
/// # Safety
///
/// Every value of `T` these slots hold is a valid `U`, and every `U` the engine writes back is
/// a valid `T`: `U` is `MaybeUninit` of an integer (any bytes), `Opaque<T>` (`T` itself,
/// `repr(transparent)`), or the integer of a plain type's size viewed from `MaybeUninit` of it
/// (initialised: a plain type has no padding bytes). The engine writes only units it read from
/// `src` or `pad`.
#[inline(always)]
unsafe fn as_units<'a, T: Copy, U: Copy>(
    src: &'a [T],
    dst: &'a mut [T],
    pad: T,
) -> (&'a [U], &'a mut [U], U) {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: `U` has `T`'s size and alignment (checked just above), so the slices are the same
    // memory viewed as `U`s of the same length; their values are valid both ways (the
    // caller's promise); `dst`'s exclusive borrow moves into the result.
    unsafe {
        (
            core::slice::from_raw_parts(src.as_ptr().cast::<U>(), src.len()),
            core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<U>(), dst.len()),
            core::mem::transmute_copy::<T, U>(&pad),
        )
    }
}

/// The engine for one unit size: the integer `$int` for plain types, `MaybeUninit<$int>` for
/// the others.
macro_rules! by_size {
    ($($name:ident: $int:ty),*) => {$(
        #[inline(never)]
        fn $name(
            pair: &Pair,
            src: &[MaybeUninit<$int>],
            dst: &mut [MaybeUninit<$int>],
            pad: MaybeUninit<$int>,
            plain: bool,
            offsets: &SourceOffsets<'_>,
            streaming: Option<Streaming>,
        ) {
            if plain {
                // SAFETY: a plain type has no padding bytes, so every unit holds an
                // initialised `$int`, and every `$int` is a value of the plain type.
                let (src, dst, pad) = unsafe { as_units::<_, $int>(src, dst, pad) };
                run(pair, src, dst, pad, offsets, streaming);
            } else {
                run(pair, src, dst, pad, offsets, streaming);
            }
        }
    )*};
}

by_size!(by_1: u8, by_2: u16, by_4: u32, by_8: u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_types_are_the_numbers() {
        assert!(is_plain::<f32>() && is_plain::<half::f16>() && is_plain::<i64>());
        assert!(!is_plain::<(u8, u16)>() && !is_plain::<[u8; 4]>() && !is_plain::<bool>());
    }

    #[test]
    fn units_have_the_size_and_alignment_of_the_element() {
        assert!(fits::<f32, u32>() && fits::<half::bf16, u16>() && fits::<(u32,), u32>());
        assert!(!fits::<[u8; 4], u32>(), "alignment 1");
        assert!(
            !fits::<[u32; 3], u64>() && !fits::<(u16, u16), u32>(),
            "size 12; alignment 2"
        );
    }
}
