//! Procedural macros of tensor-layout: `chunked_layout!` and `onednn_layout!`.
//!
//! Use them through `tensor_layout` (or `layout_core`), whose `chunked_layout!` and
//! `onednn_layout!` forward here with the right crate path. Called directly, they expand to
//! paths under `::tensor_layout`. Every problem in the input is reported at once, each on the
//! token it concerns.
//!
//! ```
//! use tensor_layout::prelude::*;
//! type Crouton = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32];
//! type Blocked = onednn_layout!("nChw16c");
//! let _: Mapping<Crouton> = Mapping::<htp::R4CroutonLayout>::new([1, 8, 8, 32]).unwrap();
//! assert_eq!(Blocked::BLOCKS, [1, 16, 1, 1]);
//! ```

use proc_macro::TokenStream;

mod catalog_lists;
mod chunked;
mod input;
mod onednn;

/// The chunked layout type of a rank or an axis word and a `dim, size` list (see
/// `tensor_layout::chunked_layout`).
///
/// ```
/// type Flat = layout_macros::chunked_layout![2; 0,0, 1,0];
/// assert_eq!(Flat::BLOCKS, [1, 1]);
/// ```
#[proc_macro]
pub fn chunked_layout(input: TokenStream) -> TokenStream {
    chunked::expand(input.into()).into()
}

/// The chunked layout type of a oneDNN format tag (see `tensor_layout::onednn_layout`).
///
/// ```
/// type Blocked = layout_macros::onednn_layout!("aBcd16b");
/// assert_eq!(Blocked::CHUNK_VOLUME, 16);
/// ```
#[proc_macro]
pub fn onednn_layout(input: TokenStream) -> TokenStream {
    onednn::expand(input.into()).into()
}

/// The types of the catalog's chunk lists, expanded once inside layout-core (its
/// `catalog_lists` module); not for other crates.
#[doc(hidden)]
#[proc_macro]
pub fn __catalog_list_types(_: TokenStream) -> TokenStream {
    catalog_lists::expand().into()
}

/// The README's example, compiled and run as a doctest so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
