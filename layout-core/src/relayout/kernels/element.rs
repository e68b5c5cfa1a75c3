//! The element types the kernels move, and the hooks by which a type brings vector kernels.

use super::ahead::Ahead;
use super::reach::Reach;
use super::row_blocks::RowBlock;
use super::transposes::Transposes;
use core::ops::Range;

/// A type the engine moves elements as: the unsigned integers of 1, 2, 4 and 8 bytes (plain
/// element types, moved as the integer of their size, with the vector kernels of their CPU),
/// `MaybeUninit` of those (any other type of those sizes, bytes copied as they are), and
/// [`Opaque`] (any other size). The hooks are the vector kernels a type has; by default it
/// has none and the portable kernels move it.
pub(crate) trait Element: Copy + Send + Sync + 'static {
    /// Runs the transposes `t` as [`transpose`](super::tiles::transpose) does, with vector
    /// blocks; `false` (nothing written) where this type has none.
    fn vector_transpose(t: Transposes<'_, Self>, stream: bool) -> bool {
        let _ = (t, stream);
        false
    }

    /// This type's build of `streamed_rows::copy` (rows that fill whole destination lines,
    /// written past the caches), compiled with the CPU features of its vector kernels; `None`
    /// where it has none or this CPU does not run it.
    fn row_streams() -> Option<StreamRows<Self>> {
        None
    }

    /// This type's build of the row copies of one block
    /// ([`copy_rows`](super::rows::copy_rows) compiled with the CPU features of its vector
    /// kernels), where it has one and this CPU runs it.
    fn row_copies() -> Option<CopyRows<Self>> {
        None
    }
}

/// An element of any other size, moved by the portable kernels.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Opaque<T>(pub T);

impl<T: Copy + Send + Sync + 'static> Element for Opaque<T> {}

/// An element type's build of `streamed_rows::copy` ([`Element::row_streams`]): a block's
/// rows, 64 bytes each where the flag is set (else 32), 32-byte rows asking for their source
/// the last argument's elements on (0: not at all).
///
/// Safety of a call: each row's bytes lie inside both slices.
pub(crate) type StreamRows<E> = unsafe fn(RowBlock<'_, E>, &[(usize, usize)], bool, usize);

/// An element type's build of [`copy_rows`](super::rows::copy_rows), compiled with more CPU
/// features ([`Element::row_copies`], declared by `copy_rows_fn!`).
///
/// Safety of a call: the CPU runs the build's instructions.
pub(crate) type CopyRows<E> =
    unsafe fn(&mut [E], usize, &[E], usize, &[(usize, usize)], Range<usize>, Reach, Ahead);

// Without vector kernels (targets other than x86-64 and little-endian aarch64, or the
// `portable-kernels` feature), every unit type moves by the portable kernels.
#[cfg(not(vector_kernels))]
mod portable_units {
    use super::Element;
    use core::mem::MaybeUninit;

    impl Element for u8 {}
    impl Element for u16 {}
    impl Element for u32 {}
    impl Element for u64 {}
    impl Element for MaybeUninit<u8> {}
    impl Element for MaybeUninit<u16> {}
    impl Element for MaybeUninit<u32> {}
    impl Element for MaybeUninit<u64> {}
}
