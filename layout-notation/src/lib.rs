//! The textual spellings of tensor layouts, shared by the compile-time macros, the compile-time
//! check of typed layouts and the run-time parser: the rules a chunk list must follow, the rules
//! of axis words, the oneDNN format-tag grammar, and the names of the catalog's layouts.
//!
//! The checks report all the problems they find (the first [`MAX_PROBLEMS`]), each tied to the
//! entry or character it concerns, so a macro can put each error on the offending token;
//! [`assert_chunk_list`], for constants, stops at the first.
//!
//! ```
//! use layout_notation::{Entry, onednn_tag};
//! let tag = onednn_tag("nChw16c").unwrap();
//! assert_eq!(tag.rank, 4);
//! assert_eq!(tag.entries, [Entry::rest(0), Entry::rest(1), Entry::rest(2), Entry::rest(3), Entry::new(1, 16)]);
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod axis_word;
mod catalog;
mod chunk_rules;
mod nearest;
mod onednn;
mod sentence;
mod text;
mod type_names;

pub use axis_word::{AxisWordProblem, axis_word_problem, is_positional, positional_word};
pub use catalog::{CATALOG, CatalogName, catalog_names, find_catalog_name, is_module};
pub use chunk_rules::{ListProblem, MAX_ENTRIES, MAX_RANK, assert_chunk_list, check_chunk_list};
pub use nearest::nearest_catalog_names;
pub use onednn::{OnednnTag, TextProblem, onednn_tag};
pub use text::{TextLayout, parse_layout};
pub use type_names::{
    AXIS_WORD_TYPES, CatalogList, catalog_list_tag, catalog_lists, has_word_type, positional_tag,
};

/// The most problems a check reports ([`check_chunk_list`], [`onednn_tag`], [`parse_layout`]):
/// the first ones, enough to mend the text, whose sentences cost time in proportion to their
/// number, however long the text.
///
/// ```
/// use layout_notation::{MAX_PROBLEMS, onednn_tag};
/// let problems = onednn_tag(&"x".repeat(100)).unwrap_err();
/// assert_eq!(problems.len(), MAX_PROBLEMS);
/// assert_eq!(problems[0].at, 0);
/// ```
pub const MAX_PROBLEMS: usize = 8;

/// One `(dim, size)` entry of a chunk list: `size` elements of dimension `dim`, or with size 0
/// "all the rest of dimension `dim`". layout-core and tensor-layout name it `ChunkEntry`.
///
/// ```
/// use layout_notation::Entry;
/// assert!(Entry::rest(2).is_rest());
/// assert_eq!(Entry { dim: 1, size: 16 }, Entry::new(1, 16));
/// assert_eq!(Entry::default(), Entry::rest(0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The logical dimension.
    pub dim: usize,
    /// The number of elements, or 0 for "all the rest of the dimension".
    pub size: usize,
}

impl Entry {
    /// A fixed entry of `size` elements of `dim`.
    ///
    /// ```
    /// assert_eq!(layout_notation::Entry::new(1, 16).size, 16);
    /// ```
    pub const fn new(dim: usize, size: usize) -> Self {
        Self { dim, size }
    }

    /// The rest entry of `dim`.
    ///
    /// ```
    /// assert_eq!(layout_notation::Entry::rest(3), layout_notation::Entry::new(3, 0));
    /// ```
    pub const fn rest(dim: usize) -> Self {
        Self { dim, size: 0 }
    }

    /// Whether this is a dimension's "all the rest" entry (size 0).
    ///
    /// ```
    /// assert!(!layout_notation::Entry::new(1, 8).is_rest());
    /// ```
    pub const fn is_rest(&self) -> bool {
        self.size == 0
    }
}

/// The README's example, compiled and run as a doctest so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
