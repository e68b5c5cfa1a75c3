//! tensor-layout: a tensor's memory layout is part of its type.
//!
//! Accelerator runtimes store 4-D and 5-D tensors in many layouts: plain (NCHW, NHWC), blocked
//! (nChw16c, NCHW4), tiled (HTP's 8x8x32 croutons), weight packings. tensor-layout makes the
//! layout a type parameter of [`Tensor`], so handing a tensor of one layout to
//! code written for another does not compile, and offset arithmetic is specialised per layout.
//!
//! ```
//! use tensor_layout::prelude::*;
//!
//! fn first_chunk_sum(x: &Tensor<u8, htp::R4CroutonLayout>) -> u32 {
//!     x.chunks().next().map_or(0, |c| c.data.iter().map(|&v| u32::from(v)).sum())
//! }
//!
//! let nhwc = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h + w + c) as u8);
//! let crouton = nhwc.relayout::<htp::R4CroutonLayout>();
//! assert_eq!(crouton.padded_dims(), [1, 8, 8, 32]);
//! assert_eq!(crouton.to_row_major(), nhwc.to_row_major());
//! assert_eq!(first_chunk_sum(&crouton), nhwc.iter().map(|&v| u32::from(v)).sum());
//! ```
//!
//! The crates behind it: `layout-core` (layouts, mappings, tensors, relayout: everything it
//! exports is exported here as it is, in the same modules, and its crate documentation is the
//! guide to them), `layout-macros` (the layout-spelling macros, exported through
//! `layout-core`), and `layouts-catalog`, whose modules of named layouts per system and
//! [`registry`] of every catalog layout are exported here at the root.

pub use layout_core::*;
pub use layouts_catalog::{htp, megengine, onednn, registry, sophgo};

/// What most code needs, in one import: the layout types and macros, the catalogs, the four
/// tensor kinds and the traits of their shared queries, the common interfaces, relayout plans
/// and the error type. Everything else is in its module ([`layouts`], [`axes`], [`tensors`],
/// ...).
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<f32, htp::R4FlatMemoryLayout>::zeros([1, 2, 2, 2]);
/// assert_eq!(t.len(), 8);
/// ```
pub mod prelude {
    pub use layout_core::quantized::{PackedTensor, PerChannel, Plain, ScaleOffset};
    pub use layout_core::tensors::{IndirectTensor, TensorRead, TensorWrite};
    pub use layout_core::{
        Chunk, ChunkedMemoryLayout, DynLayout, DynTensor, Layout, LayoutError, Mapping,
        RelayoutPlan, Tensor, TensorView, TensorViewMut, chunked_layout, names, onednn_layout,
    };
    pub use layouts_catalog::{htp, megengine, onednn, sophgo};
}

/// The README's example, compiled and run as a doctest so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/macros.md`, compiled as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/macros.md")]
pub struct MacrosGuideDoctests;

/// The examples of `docs/concepts.md`, compiled and run as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/concepts.md")]
pub struct ConceptsGuideDoctests;

/// The examples of `docs/htp.md`, compiled and run as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/htp.md")]
pub struct HtpGuideDoctests;

/// The examples of `docs/migration.md`, compiled and run as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/migration.md")]
pub struct MigrationGuideDoctests;

/// The examples of `docs/interop.md`, compiled and run as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/interop.md")]
pub struct InteropGuideDoctests;
