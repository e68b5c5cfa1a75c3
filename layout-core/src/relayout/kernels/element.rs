//! The element types the kernels move, and the hooks by which a type brings vector kernels.

use super::reach::Reach;
use super::row_blocks::RowBlocks;
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

    /// Copies elements `cols` of each listed row as
    /// [`copy_listed_blocks`](super::rows::copy_listed_blocks) does, each destination line written
    /// past the caches, rows of two to a line asking for their source `ahead` elements further
    /// on (0: not at all); `false` (nothing written) where this type has no such kernel or the
    /// rows do not fill whole lines.
    #[allow(clippy::too_many_arguments)] // the kernel's arguments, as `rows::copy_rows`'
    fn stream_rows(
        dst: &mut [Self],
        d: usize,
        src: &[Self],
        s: usize,
        rows: &[(usize, usize)],
        cols: Range<usize>,
        reach: Reach,
        ahead: usize,
    ) -> bool {
        let _ = (dst, d, src, s, rows, cols, reach, ahead);
        false
    }

    /// Copies elements `cols` of each listed row of each block as
    /// [`copy_rows`](super::rows::copy_rows) does for one, compiled with the CPU features of
    /// this type's vector kernels; `false` (nothing written) where it has none.
    fn vector_copy_rows(
        blocks: &mut impl RowBlocks<Self>,
        rows: &[(usize, usize)],
        cols: Range<usize>,
        reach: Reach,
        dst_rows: bool,
    ) -> bool {
        let _ = (blocks, rows, cols, reach, dst_rows);
        false
    }
}

/// An element of any other size, moved by the portable kernels.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Opaque<T>(pub T);

impl<T: Copy + Send + Sync + 'static> Element for Opaque<T> {}

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
