//! The heart of tensor-layout: a tensor's memory layout, and what each of its axes means, as
//! part of its type. Read in this order; each concern is a module:
//!
//! 1. **Layouts** ([`layouts`]). A [`Layout`] maps a logical index (`[usize; RANK]`, in the
//!    axis order its names give) to a storage offset. [`ChunkedMemoryLayout`] spells the whole
//!    family the Qualcomm HTP SDK, oneDNN and MegEngine use (plain NCHW/NHWC, blocked nChw16c or
//!    NCHW4, 8x8x32 croutons, OIhw16i16o weights) as a list of [`Chunk`] entries, and
//!    [`catalog_lists`] names the lists the vendors use. [`Strided`](layouts::Strided) covers
//!    permuted and strided views.
//! 2. **Axis names** ([`axes`]). A layout's axis names ([`Named`](axes::Named), words from
//!    [`names`]) make NCHW and NHWC different types; [`RelayoutFrom`](axes::RelayoutFrom) is
//!    the bound that lets elements move by name, checked at compile time.
//! 3. **Mappings** ([`mappings`]). A [`Mapping`] binds a layout to dims: padded dims, storage
//!    length, and the offset of every index, constant-folded per layout.
//! 4. **Tensors** ([`tensors`]). Four kinds store elements in a mapping and answer the same
//!    queries through [`TensorRead`](tensors::TensorRead) and
//!    [`TensorWrite`](tensors::TensorWrite): [`Tensor`] (one allocation; [`TensorView`] and
//!    [`TensorViewMut`] borrow one), [`IndirectTensor`](tensors::IndirectTensor) (HTP's table of
//!    chunk allocations), [`PackedTensor`](quantized::PackedTensor) (4-bit values two per byte)
//!    and [`DynTensor`] (layout known at run time).
//! 5. **What stored values mean** ([`quantized`]): a tensor's
//!    [`Interface`](quantized::Interface) ([`Plain`](quantized::Plain),
//!    [`ScaleOffset`](quantized::ScaleOffset), [`PerChannel`](quantized::PerChannel)), and the
//!    4-bit elements [`u4`](quantized::u4) and [`i4`](quantized::i4).
//! 6. **Run time** ([`dynamic`]): a [`DynLayout`] read from text, its mapping, and tensors in it.
//! 7. **Relayout** ([`plans`]). `relayout`, `try_relayout` and `relayout_into` move a tensor
//!    into another layout by axis name; a [`RelayoutPlan`] plans once and runs many times, and
//!    [`Wisdom`](plans::Wisdom) keeps measured choices.
//! 8. **Storage, interop and errors** ([`storage`], [`interop`], [`error`]): the buffers tensors
//!    hold, DLPack (feature `dlpack`) and ndarray views (feature `ndarray`) through
//!    [`StridedForm`](interop::StridedForm), and [`LayoutError`], which every fallible call
//!    returns.
//!
//! The root holds only what a user reaches for first, each also in its module: [`Layout`],
//! [`ChunkedMemoryLayout`], [`Chunk`], [`Mapping`], [`Tensor`], [`TensorView`],
//! [`TensorViewMut`], [`DynLayout`], [`DynTensor`], [`RelayoutPlan`], [`LayoutError`]; the
//! macros [`chunked_layout!`] and [`onednn_layout!`]; the modules [`names`] and
//! [`catalog_lists`]; and the crates whose types the API takes and returns ([`bytemuck`],
//! `ndarray` and `dlpark` with their features). Every other item has one path, in its module
//! (the deprecated alias `ChunkTable` aside, which stays at the root where it was).
//!
//! ```
//! use layout_core::{Chunk, ChunkedMemoryLayout, Tensor};
//! // NHWC dims, 8x8x32 "crouton" chunks (HTP's R4CroutonLayout, positional axes here).
//! type Crouton = ChunkedMemoryLayout<4, (
//!     Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>,
//! )>;
//! let t = Tensor::<u8, Crouton>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h + w + c) as u8);
//! assert_eq!(t.storage_len(), 8 * 8 * 32);
//! assert_eq!(t[[0, 2, 4, 29]], 35);
//! ```
//!
//! The crate is `no_std` and needs only `alloc`. Most users depend on the facade crate
//! `tensor-layout`, which re-exports this crate as it is and adds the vendors' catalogs and a
//! prelude.
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

pub mod axes;
pub mod catalog_lists;
pub mod dynamic;
pub mod error;
pub mod interop;
pub mod layouts;
pub mod mappings;
pub mod names;
pub mod plans;
pub mod quantized;
pub mod storage;
pub mod tensors;

mod any_mapping;
mod axis_names;
mod block_slice;
mod blocking;
mod chunk;
mod chunk_numbers;
mod chunk_view;
mod chunked;
mod conversion;
mod coords;
mod dyn_index;
mod dyn_layout;
mod dyn_mapping;
mod dyn_relayout;
mod dyn_tensor;
mod element;
mod fuse;
mod huge_pages;
mod indirect;
mod interface;
mod layout;
mod listing;
mod macros;
mod mapping;
mod nibble;
mod odometer;
mod relayout;
mod relayout_plan;
mod same_axes;
mod strided;
mod table_chunks;
mod tensor;
mod tensor_read;
mod walk;

// The shortcuts the guide above names, each also in its module.
pub use chunk::Chunk;
pub use chunked::ChunkedMemoryLayout;
pub use dyn_layout::DynLayout;
pub use dyn_tensor::DynTensor;
pub use error::LayoutError;
pub use layout::Layout;
pub use mapping::Mapping;
pub use relayout_plan::RelayoutPlan;
pub use tensor::{Tensor, TensorView, TensorViewMut};

/// Kept where it was for code written before the rename; the summary is
/// [`layouts::ChunkListSummary`].
#[allow(deprecated)]
pub use chunk::ChunkTable;

/// bytemuck, whose `Pod` and `NoUninit` bound the byte views
/// ([`TensorView::from_bytes`], [`TensorBase::as_bytes`](tensors::TensorBase::as_bytes)).
pub use bytemuck;
/// dlpark, DLPack's ABI and managed-tensor handles (feature `dlpack`).
#[cfg(feature = "dlpack")]
pub use dlpark;
/// ndarray, whose views [`TensorBase::as_ndarray`](tensors::TensorBase::as_ndarray) gives
/// (feature `ndarray`).
#[cfg(feature = "ndarray")]
pub use ndarray;

/// What the macros expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use layout_macros::{chunked_layout, onednn_layout};
}

/// The README's example, compiled and run as a doctest so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
