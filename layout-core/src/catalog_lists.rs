//! The chunk lists of the catalog's layouts as types, each named by its positional oneDNN tag:
//! `abcd` (plain NCHW, HTP's flat NHWC, plain OIHW, ...), `aBcd16b` (`nChw16c`), `aBCD8b8c32d`
//! (HTP's crouton).
//!
//! `chunked_layout!` and `onednn_layout!` write these types in place of the tuple
//! `(Chunk<0, 0>, Chunk<1, 0>, ...)` for a list some catalog layout has, whatever its axis names.
//! So a compiler error about two layouts prints `ChunkedMemoryLayout<4, aBCD8b8c32d, NHWC>`
//! against `ChunkedMemoryLayout<4, abcd, NHWC>` and points at the differing list by its tag,
//! where the tuples printed a count of entries. The tuple spelled by hand is another type; see
//! [`TensorBase::respelled`](crate::tensors::TensorBase::respelled) to go from one to the other for free.
//!
//! ```
//! use tensor_layout::prelude::*;
//! use tensor_layout::catalog_lists::aBCD8b8c32d;
//! let _: ChunkedMemoryLayout<4, aBCD8b8c32d, names::NHWC> = htp::R4CroutonLayout::default();
//! let _: ChunkedMemoryLayout<4, aBCD8b8c32d> = <onednn_layout!("aBCD8b8c32d")>::default();
//! ```

layout_macros::__catalog_list_types!();
