//! The engine compiled once per element size, in this crate, not once per element type and
//! layout pair in every caller. A plain element type (an integer, a float, `half`'s `f16` or
//! `bf16`: no padding bytes, every bit pattern a value) of 1, 2, 4 or 8 bytes moves as the
//! unsigned integer of its size, with the vector kernels; other types of those sizes and
//! alignments as `MaybeUninit` of it, by the portable kernels; any other type as itself
//! ([`Opaque`]), compiled by the caller's crate.

use super::kernels::{Element, Opaque};
#[cfg(feature = "std")]
use super::schedule::with_last_plan;
use super::schedule::{Job, SourceOffsets, run};
use core::any::TypeId;
use core::mem::MaybeUninit;

/// Runs `$to!(unit, engines)` with the unit `$T` moves as (module docs) and the module of its
/// engines. Each size's condition is a constant of `$T`, so only the taken branch is compiled.
macro_rules! by_unit {
    ($T:ty, $to:ident) => {
        by_unit!(@ $T, $to; u8, plain_1, bytes_1; u16, plain_2, bytes_2; u32, plain_4, bytes_4;
            u64, plain_8, bytes_8)
    };
    (@ $T:ty, $to:ident; $($int:ty, $plain:ident, $bytes:ident);*) => {
        $(
            if const { fits::<$T, $int>() } {
                if is_plain::<$T>() {
                    $to!($int, $plain)
                } else {
                    $to!(MaybeUninit<$int>, $bytes)
                }
            } else
        )* {
            $to!(Opaque<$T>, opaque)
        }
    };
}

/// Runs `job` through the engine compiled for `T`'s size, `pad` into every padding slot.
#[inline]
pub(crate) fn copy<T: Copy + Send + Sync + 'static>(
    job: Job<'_>,
    src: &[T],
    dst: &mut [T],
    pad: T,
    offsets: &SourceOffsets<'_>,
) {
    macro_rules! to {
        ($unit:ty, $engines:ident) => {{
            // SAFETY: `by_unit!` picks a unit of the three kinds [`units`] allows for `T`.
            let (src, dst, pad) =
                unsafe { (units::<T, $unit>(src), units_mut(dst), units(&[pad])[0]) };
            match job {
                // Inlined here, not in an engine: a caller running it over and over calls none.
                Job::Rows(_) => copy_job(job, src, dst, pad, offsets),
                _ => $engines::copy(job, src, dst, pad, offsets),
            }
        }};
    }
    by_unit!(T, to)
}

/// Whether `T` has the size and alignment of `U`.
const fn fits<T, U>() -> bool {
    size_of::<T>() == size_of::<U>() && align_of::<T>() == align_of::<U>()
}

/// Whether `T` is a plain element type (module docs).
fn is_plain<T: 'static>() -> bool {
    use half::{bf16, f16};
    macro_rules! any_of {
        ($($plain:ty),*) => { $(TypeId::of::<T>() == TypeId::of::<$plain>())||* };
    }
    any_of![u8, i8, u16, i16, f16, bf16, u32, i32, f32, u64, i64, f64]
}

/// `slots` as units `U` of `T`'s size and alignment.
///
/// # Safety
///
/// Every value of `T` these slots hold is a valid `U`, and every `U` the engine writes back is
/// a valid `T`: `U` is `MaybeUninit` of an integer (any bytes), `Opaque<T>` (`T` itself,
/// `repr(transparent)`), or the integer of a plain type's size (no padding bytes, every integer
/// one of its values). The engine writes only units it read from the source or the pad.
#[inline(always)]
unsafe fn units<T: Copy, U: Copy>(slots: &[T]) -> &[U] {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: `U` has `T`'s size and alignment (checked above): the same memory as `U`s of the
    // same length, its values valid both ways (the caller's promise).
    unsafe { core::slice::from_raw_parts(slots.as_ptr().cast::<U>(), slots.len()) }
}

/// `slots` as units `U` of `T`'s size and alignment, writable.
///
/// # Safety
///
/// As for [`units`].
#[inline(always)]
unsafe fn units_mut<T: Copy, U: Copy>(slots: &mut [T]) -> &mut [U] {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: as in `units`; the exclusive borrow moves into the result.
    unsafe { core::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<U>(), slots.len()) }
}

/// The engines for each unit type listed below, each compiled once in this crate.
macro_rules! engines {
    ($($name:ident: $unit:ty),*) => {$(
        mod $name {
            use super::*;

            /// [`copy_job`] of this unit.
            #[inline(never)]
            pub(super) fn copy(job: Job<'_>, src: &[$unit], dst: &mut [$unit], pad: $unit,
                offsets: &SourceOffsets<'_>) {
                copy_job(job, src, dst, pad, offsets);
            }
        }
    )*};
}

engines!(plain_1: u8, plain_2: u16, plain_4: u32, plain_8: u64, bytes_1: MaybeUninit<u8>,
    bytes_2: MaybeUninit<u16>, bytes_4: MaybeUninit<u32>, bytes_8: MaybeUninit<u64>);

/// [`copy`] of one unit type, inlined into each unit's engine. A fresh job reuses the thread's
/// last plan where it is this relayout's: a small relayout's plan takes longer than its copy.
#[inline(always)]
fn copy_job<E: Element>(
    job: Job<'_>,
    src: &[E],
    dst: &mut [E],
    pad: E,
    offsets: &SourceOffsets<'_>,
) {
    let (pair, streaming, choices) = match job {
        Job::Planned(planned) => return planned.run(src, dst, pad, offsets),
        Job::Rows(walk) => return walk.copy(dst, 0, src, 0, pad),
        Job::Fresh {
            pair,
            streaming,
            choices,
        } => (pair, streaming, choices),
    };
    #[cfg(feature = "std")]
    if with_last_plan(
        pair,
        size_of::<E>(),
        size_of_val(dst),
        streaming,
        choices,
        |planned| planned.run(src, dst, pad, offsets),
    )
    .is_some()
    {
        return;
    }
    run(pair, src, dst, pad, offsets, streaming, choices);
}

/// The engines for elements of no unit size, as `Opaque` of themselves: generic, so compiled
/// in the caller's crate.
mod opaque {
    pub(super) use crate::relayout::by_size::copy_job as copy;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Floats and integers are plain; tuples, arrays and `bool` are not.
    #[test]
    fn plain_types_are_the_numbers() {
        assert!(is_plain::<f32>() && is_plain::<half::f16>() && is_plain::<i64>());
        assert!(!is_plain::<(u8, u16)>() && !is_plain::<[u8; 4]>() && !is_plain::<bool>());
    }

    /// A unit fits an element of its own size and alignment only.
    #[test]
    fn units_have_the_size_and_alignment_of_the_element() {
        assert!(fits::<f32, u32>() && fits::<half::bf16, u16>() && fits::<(u32,), u32>());
        assert!(!fits::<[u8; 4], u32>(), "alignment 1");
        assert!(!fits::<[u32; 3], u64>(), "size 12");
        assert!(!fits::<(u16, u16), u32>(), "alignment 2");
    }
}
