//! The element types the kernels move, and the hooks by which a type brings vector kernels.

use super::reach::Reach;
use super::row_blocks::{Ahead, RowBlock};
use super::transposes::Transposes;
use core::ops::Range;

/// A type the engine moves elements as: the unsigned integers of 1, 2, 4 and 8 bytes (plain
/// types, with their CPU's vector kernels by the hooks), `MaybeUninit` of those (other types of
/// those sizes), and [`Opaque`] (any other size).
pub(crate) trait Element: Copy + Send + Sync + 'static {
    /// Runs the transposes `t` as [`transpose`](super::tiles::transpose) does, with vector
    /// blocks; `false` (nothing written) where this type has none.
    fn vector_transpose(t: Transposes<'_, Self>, stream: bool) -> bool {
        let _ = (t, stream);
        false
    }

    /// This type's `streamed_rows::copy` build, where it has one this CPU runs.
    fn row_streams() -> Option<StreamRows<Self>> {
        None
    }

    /// This type's [`copy_rows`](super::rows::copy_rows) build, where it has one this CPU runs.
    fn row_copies() -> Option<CopyRows<Self>> {
        None
    }
}

/// An element of any other size, moved by the portable kernels.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Opaque<T>(pub T);

impl<T: Copy + Send + Sync + 'static> Element for Opaque<T> {}

/// An element type's build of `streamed_rows::copy`, arguments as there ([`Element::row_streams`]).
///
/// Safety of a call: each row's bytes lie inside both slices.
pub(crate) type StreamRows<E> = unsafe fn(RowBlock<'_, E>, &[(usize, usize)], bool, usize);

/// An element type's build of [`copy_rows`](super::rows::copy_rows) ([`Element::row_copies`],
/// declared by `copy_rows_fn!`).
///
/// Safety of a call: the CPU runs the build's instructions.
pub(crate) type CopyRows<E> =
    unsafe fn(&mut [E], usize, &[E], usize, &[(usize, usize)], Range<usize>, Reach, Ahead);

/// [`Element`] for the unit types, each with the items `$every`; with a vector ISA, the plain
/// integers get the row streams `$streams` (an `Option<StreamRows<Self>>`), those of 1, 2 and 4
/// bytes vector transposes by `$transpose` (a `fn(Transposes<'_, Self>, bool)`).
macro_rules! unit_elements {
    ([$($every:tt)*] $(, $streams:expr, $transpose:path)? $(,)?) => {
        $crate::relayout::kernels::element::unit_elements!(@ [u8, u16, u32] { $($every)* $(
            fn row_streams() -> Option<$crate::relayout::kernels::element::StreamRows<Self>> {
                $streams
            }

            fn vector_transpose(
                t: $crate::relayout::kernels::transposes::Transposes<'_, Self>,
                stream: bool,
            ) -> bool {
                $transpose(t, stream);
                true
            }
        )? });
        $crate::relayout::kernels::element::unit_elements!(@ [u64] { $($every)* $(
            fn row_streams() -> Option<$crate::relayout::kernels::element::StreamRows<Self>> {
                $streams
            }
        )? });
        $crate::relayout::kernels::element::unit_elements!(
            @ [
                core::mem::MaybeUninit<u8>,
                core::mem::MaybeUninit<u16>,
                core::mem::MaybeUninit<u32>,
                core::mem::MaybeUninit<u64>
            ]
            { $($every)* }
        );
    };
    (@ [$($ty:ty),+] $items:tt) => {
        $(impl $crate::relayout::kernels::element::Element for $ty $items)+
    };
}

pub(crate) use unit_elements;

// Without vector kernels (other targets, or `portable-kernels`), all unit types move portably.
#[cfg(not(vector_kernels))]
unit_elements!([]);
