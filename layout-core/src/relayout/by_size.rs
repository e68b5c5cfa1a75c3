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
use super::schedule::{Prepared, SourceOffsets, Streaming, run, run_from_chunks, run_into_chunks};
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

/// Most chunks one engine call moves out of or into a chunk table ([`copy_from_chunks`],
/// [`copy_into_chunks`]): the batch of units is built on the stack.
pub(crate) const BATCH: usize = 64;

/// Runs `prepared` once for each `(chunk, d)` of `batch` (at most [`BATCH`]): from the
/// chunk's first slot into `dst` from offset `d`.
#[inline]
pub(crate) fn copy_from_chunks<T: Copy + Send + Sync + 'static>(
    prepared: &Prepared,
    batch: &[(&[T], usize)],
    dst: &mut [T],
    pad: T,
    streaming: Streaming,
) {
    let n = batch.len();
    // The units of a plain type are its integers (as in `by_1` and its siblings), the others'
    // `MaybeUninit` of them, cast once.
    macro_rules! to {
        ($unit:ty, $by:ident) => {{
            // SAFETY: a plain type has no padding bytes and every integer of its size is one
            // of its values; `MaybeUninit` of an integer holds any bytes of a `T`.
            let (batch, dst, pad) =
                unsafe { (from_units::<T, $unit>(batch), units_mut(dst), units_of(pad)) };
            $by(prepared, &batch[..n], dst, pad, streaming);
        }};
    }
    let plain = is_plain::<T>();
    if const { fits::<T, u8>() } {
        if plain {
            to!(u8, from_1)
        } else {
            to!(MaybeUninit<u8>, from_1_bytes)
        }
    } else if const { fits::<T, u16>() } {
        if plain {
            to!(u16, from_2)
        } else {
            to!(MaybeUninit<u16>, from_2_bytes)
        }
    } else if const { fits::<T, u32>() } {
        if plain {
            to!(u32, from_4)
        } else {
            to!(MaybeUninit<u32>, from_4_bytes)
        }
    } else if const { fits::<T, u64>() } {
        if plain {
            to!(u64, from_8)
        } else {
            to!(MaybeUninit<u64>, from_8_bytes)
        }
    } else {
        // `Opaque<T>` is `T` (`repr(transparent)`).
        to!(Opaque<T>, run_from_chunks);
    }
}

/// Runs `prepared` once for each `(s, chunk)` of `batch` (at most [`BATCH`]): from offset `s`
/// of `src` into the chunk from its first slot.
#[inline]
pub(crate) fn copy_into_chunks<T: Copy + Send + Sync + 'static>(
    prepared: &Prepared,
    src: &[T],
    batch: &mut [(usize, &mut [T])],
    pad: T,
    streaming: Streaming,
) {
    let n = batch.len();
    // As in `copy_from_chunks`.
    macro_rules! to {
        ($unit:ty, $by:ident) => {{
            // SAFETY: a plain type has no padding bytes and every integer of its size is one
            // of its values; `MaybeUninit` of an integer holds any bytes of a `T`.
            let (src, mut batch, pad) =
                unsafe { (units::<T, $unit>(src), into_units(batch), units_of(pad)) };
            $by(prepared, src, &mut batch[..n], pad, streaming);
        }};
    }
    let plain = is_plain::<T>();
    if const { fits::<T, u8>() } {
        if plain {
            to!(u8, into_1)
        } else {
            to!(MaybeUninit<u8>, into_1_bytes)
        }
    } else if const { fits::<T, u16>() } {
        if plain {
            to!(u16, into_2)
        } else {
            to!(MaybeUninit<u16>, into_2_bytes)
        }
    } else if const { fits::<T, u32>() } {
        if plain {
            to!(u32, into_4)
        } else {
            to!(MaybeUninit<u32>, into_4_bytes)
        }
    } else if const { fits::<T, u64>() } {
        if plain {
            to!(u64, into_8)
        } else {
            to!(MaybeUninit<u64>, into_8_bytes)
        }
    } else {
        // `Opaque<T>` is `T` (`repr(transparent)`).
        to!(Opaque<T>, run_into_chunks);
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
    // SAFETY: passed on from the caller.
    unsafe { (units(src), units_mut(dst), units_of(pad)) }
}

/// `slots` as units `U` of `T`'s size and alignment.
///
/// # Safety
///
/// As for [`as_units`].
#[inline(always)]
unsafe fn units<T: Copy, U: Copy>(slots: &[T]) -> &[U] {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: `U` has `T`'s size and alignment (checked just above), so the slice is the same
    // memory viewed as `U`s of the same length; its values are valid both ways (the caller's
    // promise).
    unsafe { core::slice::from_raw_parts(slots.as_ptr().cast::<U>(), slots.len()) }
}

/// `slots` as units `U` of `T`'s size and alignment, writable.
///
/// # Safety
///
/// As for [`as_units`].
#[inline(always)]
unsafe fn units_mut<T: Copy, U: Copy>(slots: &mut [T]) -> &mut [U] {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: as in `units`; the exclusive borrow moves into the result.
    unsafe { core::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<U>(), slots.len()) }
}

/// `value` as a unit `U` of `T`'s size and alignment.
///
/// # Safety
///
/// As for [`as_units`].
#[inline(always)]
unsafe fn units_of<T: Copy, U: Copy>(value: T) -> U {
    assert!(fits::<T, U>(), "a unit of the element's size and alignment");
    // SAFETY: `U` has `T`'s size (checked just above), and the value is valid as a `U` (the
    // caller's promise).
    unsafe { core::mem::transmute_copy::<T, U>(&value) }
}

/// A batch of chunks and offsets with each chunk as units `U`.
///
/// # Safety
///
/// As for [`as_units`].
#[inline(always)]
unsafe fn from_units<'a, T: Copy, U: Copy>(
    batch: &[(&'a [T], usize)],
) -> [(&'a [U], usize); BATCH] {
    let mut out: [(&[U], usize); BATCH] = [(&[], 0); BATCH];
    for (unit, &(chunk, d)) in out.iter_mut().zip(batch) {
        // SAFETY: passed on from the caller.
        *unit = (unsafe { units(chunk) }, d);
    }
    out
}

/// A batch of offsets and writable chunks with each chunk as units `U`; `batch` keeps empty
/// slices in their place.
///
/// # Safety
///
/// As for [`as_units`].
#[inline(always)]
unsafe fn into_units<'a, T: Copy, U: Copy>(
    batch: &mut [(usize, &'a mut [T])],
) -> [(usize, &'a mut [U]); BATCH] {
    let mut out: [(usize, &'a mut [U]); BATCH] = core::array::from_fn(|_| (0, Default::default()));
    for (unit, (s, chunk)) in out.iter_mut().zip(batch) {
        // SAFETY: passed on from the caller.
        *unit = (*s, unsafe { units_mut(core::mem::take(chunk)) });
    }
    out
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

/// The chunk-table engines for one unit type, which the batch's chunks are cast to once: the
/// integers for plain types, `MaybeUninit` of them for the others.
macro_rules! chunks_by_unit {
    ($($from:ident, $into:ident: $unit:ty),*) => {$(
        #[inline(never)]
        fn $from(
            prepared: &Prepared,
            batch: &[(&[$unit], usize)],
            dst: &mut [$unit],
            pad: $unit,
            streaming: Streaming,
        ) {
            run_from_chunks(prepared, batch, dst, pad, streaming);
        }

        #[inline(never)]
        fn $into(
            prepared: &Prepared,
            src: &[$unit],
            batch: &mut [(usize, &mut [$unit])],
            pad: $unit,
            streaming: Streaming,
        ) {
            run_into_chunks(prepared, src, batch, pad, streaming);
        }
    )*};
}

by_size!(by_1: u8, by_2: u16, by_4: u32, by_8: u64);

chunks_by_unit!(
    from_1, into_1: u8,
    from_2, into_2: u16,
    from_4, into_4: u32,
    from_8, into_8: u64,
    from_1_bytes, into_1_bytes: MaybeUninit<u8>,
    from_2_bytes, into_2_bytes: MaybeUninit<u16>,
    from_4_bytes, into_4_bytes: MaybeUninit<u32>,
    from_8_bytes, into_8_bytes: MaybeUninit<u64>
);

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
