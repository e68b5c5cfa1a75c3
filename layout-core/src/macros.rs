//! `chunked_layout!` and `onednn_layout!`: layouts spelled in any crate.
//!
//! These forward to the procedural macros of `layout-macros`, handing them this crate's path so
//! the expansion names the same types from every crate, whatever it depends on.

/// The layout type of a rank and a chunk list, in HTP's order: most major entry first, `dim,size`
/// pairs, size 0 for "all the rest of the dimension".
///
/// `chunked_layout![RANK; d0,s0, d1,s1, ...]` is exactly the type
/// `ChunkedMemoryLayout<RANK, (Chunk<d0, s0>, Chunk<d1, s1>, ...)>`, so two crates that spell
/// the same list get the same type. Trailing commas and comments are allowed. Every mistake
/// (rank 0 or above 8, a dimension out of range, a dimension without or with two rest entries,
/// a rest entry after a fixed one, an odd count of numbers, a non-integer, more than 24 entries)
/// is a compile error on the offending token, all of them at once.
///
/// ```
/// use tensor_layout::prelude::*;
/// type MyCrouton = chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32];
/// fn same<T>(_: T, _: T) {}
/// same(MyCrouton::default(), htp::R4CroutonLayout::default()); // one type
/// ```
#[macro_export]
macro_rules! chunked_layout {
    ($($spec:tt)*) => {
        $crate::__private::chunked_layout!(@path ($crate) $($spec)*)
    };
}

/// The layout type of a oneDNN format tag: `onednn_layout!("nChw16c")`.
///
/// The tag's letters, outer to inner, are the dimensions' rest entries (upper case: the
/// dimension is also blocked); a trailing `<k><letter>` is a block of `k`. Letters `a`..`h` name
/// dims 0..7; `n c d h w` (activations) and `g o i d h w` (weights) name them as oneDNN does,
/// with the rank taken from the tag. An invalid tag is a compile error saying where and why.
///
/// ```
/// use tensor_layout::prelude::*;
/// type NChw16c = onednn_layout!("nChw16c");
/// type Same = chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,16];
/// fn same<T>(_: T, _: T) {}
/// same(NChw16c::default(), Same::default());
/// same(NChw16c::default(), <onednn_layout!("aBcd16b")>::default());
/// ```
#[macro_export]
macro_rules! onednn_layout {
    ($($spec:tt)*) => {
        $crate::__private::onednn_layout!(@path ($crate) $($spec)*)
    };
}
