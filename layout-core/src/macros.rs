//! `chunked_layout!` and `onednn_layout!`: layouts spelled in any crate.
//!
//! These forward to the procedural macros of `layout-macros`, handing them this crate's path so
//! the expansion names the same types from every crate, whatever it depends on.

/// The layout type of an axis word (or a rank) and a chunk list, in HTP's order: most major
/// entry first, `dim,size` pairs, size 0 for "all the rest of the dimension".
///
/// `chunked_layout![NHWC; d0,s0, d1,s1, ...]` names the axes (the word's letters in logical
/// order; its length is the rank) and is the type `ChunkedMemoryLayout<4, List, names::NHWC>`;
/// `chunked_layout![4; ...]` (or the word `abcd`) has positional axes and is
/// `ChunkedMemoryLayout<4, List>`. `List` is the tuple `(Chunk<d0, s0>, Chunk<d1, s1>, ...)`, or,
/// for a list some catalog layout has, its type in [`catalog_lists`](crate::catalog_lists)
/// (`catalog_lists::aBCD8b8c32d`), so that compiler errors print the short name; a word
/// without a type in [`names`](crate::names) is spelled with [`Named`](crate::axes::Named) letters.
/// Two crates that spell the same word and list get the same type. Trailing commas and comments are allowed. Every mistake (rank 0 or above 8,
/// an axis word with a repeated or lower-case letter, a dimension out of range, a dimension
/// without or with two rest entries, a rest entry after a fixed one, an odd count of numbers, a
/// non-integer, more than 24 entries) is a compile error on the offending token, all of them at
/// once.
///
/// ```
/// use tensor_layout::prelude::*;
/// type MyCrouton = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32];
/// fn same<T>(_: T, _: T) {}
/// same(MyCrouton::default(), htp::R4CroutonLayout::default()); // one type
/// type Positional = chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32]; // another one
/// assert_eq!(Positional::default().to_string(), "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
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
/// dims 0..7 and give positional axes; `n c d h w` (activations) and `g o i d h w` (weights)
/// name them as oneDNN does, in that order (so `nhwc` and `nChw16c` have axes `NCHW`, `hwio` has
/// `OIHW`), with the rank taken from the tag. An invalid tag is a compile error saying where and
/// why.
///
/// ```
/// use tensor_layout::prelude::*;
/// type NChw16c = onednn_layout!("nChw16c");
/// type Same = chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0, 1,16];
/// fn same<T>(_: T, _: T) {}
/// same(NChw16c::default(), Same::default());
/// same(NChw16c::default(), onednn::nChw16c::default());
/// same(<onednn_layout!("aBcd16b")>::default(), <chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,16]>::default());
/// ```
#[macro_export]
macro_rules! onednn_layout {
    ($($spec:tt)*) => {
        $crate::__private::onednn_layout!(@path ($crate) $($spec)*)
    };
}
