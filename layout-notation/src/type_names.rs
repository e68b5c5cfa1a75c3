//! The names the macros give to types, so that a compiler error about a layout reads in words a
//! user knows: the axis words that have a type of their own (`names::NCHW`), and the chunk lists
//! of the catalog, each a type named by its positional oneDNN tag (`catalog_lists::aBcd16b`).

use crate::{CATALOG, Entry, OnednnTag, parse_layout};
use alloc::string::String;
use alloc::vec::Vec;

/// The axis words with a type of their own in `layout_core::names`: every word the catalog uses,
/// and the common orders of the same letters. The macros spell these axes with that type (an
/// error then prints `NHWC`), any other word with `Named<...>` letters.
///
/// ```
/// assert!(layout_notation::AXIS_WORD_TYPES.contains(&"NHWC"));
/// assert!(layout_notation::has_word_type(b"HWIO") && !layout_notation::has_word_type(b"TF"));
/// ```
pub const AXIS_WORD_TYPES: &[&str] = &[
    "NCHW", "NHWC", "CHWN", "NCW", "NWC", "NCDHW", "NDHWC", "OIW", "OIHW", "OIDHW", "GOIHW",
    "HWIO", "OHWI", "IOHW",
];

/// Whether `word` is one of [`AXIS_WORD_TYPES`] (usable in constant expressions).
///
/// ```
/// const NAMED: bool = layout_notation::has_word_type(b"OIHW");
/// assert!(NAMED);
/// ```
pub const fn has_word_type(word: &[u8]) -> bool {
    let mut k = 0;
    while k < AXIS_WORD_TYPES.len() {
        if bytes_equal(AXIS_WORD_TYPES[k].as_bytes(), word) {
            return true;
        }
        k += 1;
    }
    false
}

const fn bytes_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// One chunk list that some catalog layout has, whatever its axis names.
///
/// ```
/// let lists = layout_notation::catalog_lists();
/// let crouton = lists.iter().find(|l| l.tag == "aBCD8b8c32d").unwrap();
/// assert_eq!(crouton.layouts, ["htp::R4CroutonLayout", "htp::ChannelMajorCrouton"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogList {
    /// The list's positional oneDNN tag, which is also its type's name (`aBcd16b`).
    pub tag: String,
    /// Number of dimensions.
    pub rank: usize,
    /// The entries, most major first.
    pub entries: Vec<Entry>,
    /// The catalog layouts with this list, as `module::Name`, in catalog order.
    pub layouts: Vec<String>,
}

/// The positional oneDNN tag of a chunk list: `a` for dim 0, upper case when the dimension is
/// blocked, then the blocks (`aBCD8b8c32d` for HTP's crouton).
///
/// ```
/// use layout_notation::{Entry, positional_tag};
/// let list = [Entry::rest(0), Entry::rest(1), Entry::rest(2), Entry::rest(3), Entry::new(1, 16)];
/// assert_eq!(positional_tag(4, &list), "aBcd16b");
/// ```
pub fn positional_tag(rank: usize, entries: &[Entry]) -> String {
    OnednnTag {
        rank,
        axes: None,
        entries: entries.to_vec(),
    }
    .canonical()
}

/// Every chunk list of the catalog, once, in the order its first layout has in the catalog.
/// The Sophgo TPU-Kernel local-memory layouts are not chunk lists and do not appear.
///
/// ```
/// let lists = layout_notation::catalog_lists();
/// let plain = lists.iter().find(|l| l.tag == "abcd").unwrap();
/// assert!(plain.layouts.contains(&"onednn::nchw".into()));
/// assert!(plain.layouts.contains(&"htp::R4FlatMemoryLayout".into()));
/// ```
pub fn catalog_lists() -> Vec<CatalogList> {
    let mut lists: Vec<CatalogList> = Vec::new();
    for name in CATALOG {
        let layout = parse_layout(name.spelling).expect("the catalog's spellings parse");
        let full = alloc::format!("{}::{}", name.module, name.name);
        match lists.iter_mut().find(|l| l.entries == layout.entries) {
            Some(list) => list.layouts.push(full),
            None => lists.push(CatalogList {
                tag: positional_tag(layout.rank, &layout.entries),
                rank: layout.rank,
                entries: layout.entries,
                layouts: alloc::vec![full],
            }),
        }
    }
    lists
}

/// The tag of `entries` when some catalog layout has that chunk list (see [`catalog_lists`]).
///
/// ```
/// use layout_notation::{Entry, catalog_list_tag};
/// let plain = [Entry::rest(0), Entry::rest(1), Entry::rest(2), Entry::rest(3)];
/// assert_eq!(catalog_list_tag(&plain).as_deref(), Some("abcd"));
/// assert_eq!(catalog_list_tag(&plain[..2]), None); // `ab`: no catalog layout has it
/// ```
pub fn catalog_list_tag(entries: &[Entry]) -> Option<String> {
    catalog_lists()
        .into_iter()
        .find(|l| l.entries == entries)
        .map(|l| l.tag)
}
