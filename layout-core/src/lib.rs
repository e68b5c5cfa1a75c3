//! The heart of tensor-layout: a tensor's memory layout, and what each of its axes means, as
//! part of its type. Read in this order:
//!
//! 1. **Layouts.** A [`Layout`] maps a logical index (`[usize; RANK]`, in the axis order its
//!    names give) to a storage offset. [`ChunkedMemoryLayout`] spells the whole family the
//!    Qualcomm HTP SDK, oneDNN and MegEngine use (plain NCHW/NHWC, blocked nChw16c or NCHW4,
//!    8x8x32 croutons, OIhw16i16o weights) as a list of [`Chunk`] entries; its axis names
//!    ([`Named`], words from [`names`]) make NCHW and NHWC different types, and
//!    [`catalog_lists`] names the lists the vendors use. [`Strided`] covers permuted and
//!    strided views; [`DynLayout`] is a layout chosen at run time (parsed from text).
//! 2. **Mappings.** A [`Mapping`] binds a layout to dims: padded dims, storage length, and the
//!    offset of every index, constant-folded per layout ([`DynMapping`] at run time).
//! 3. **Tensors.** Four kinds store elements in a mapping and answer the same queries through
//!    [`TensorRead`] and [`TensorWrite`]: [`Tensor`] (one allocation; [`TensorView`] and
//!    [`TensorViewMut`] borrow one), [`IndirectTensor`] (HTP's table of chunk allocations),
//!    [`PackedTensor`] (4-bit [`u4`]/[`i4`] two per byte) and [`DynTensor`] (layout known at
//!    run time). A tensor's [`Interface`] says what its stored values mean ([`Plain`],
//!    [`ScaleOffset`], [`PerChannel`]); what it may store is an [`Element`].
//! 4. **Relayout.** `relayout`, `try_relayout` and `relayout_into` move a tensor into another
//!    layout by axis name ([`RelayoutFrom`] is the bound that checks the names at compile time);
//!    a [`RelayoutPlan`] plans once and runs many times, and [`Wisdom`] keeps measured choices.
//! 5. **Interop and errors.** DLPack (feature `dlpack`) and ndarray views (feature `ndarray`)
//!    through [`StridedForm`]; every fallible call returns a [`LayoutError`].
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
//! `tensor-layout`, whose prelude holds the names above and the vendors' catalogs.
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod any_mapping;
mod axis_names;
mod block_slice;
mod blocking;
pub mod catalog_lists;
mod chunk;
mod chunk_numbers;
mod chunk_view;
mod chunked;
mod conversion;
mod coords;
mod dyn_index;
mod dyn_mapping;
mod dyn_relayout;
mod dyn_tensor;
mod dynamic;
mod element;
mod error;
mod fuse;
mod huge_pages;
mod indirect;
mod interface;
mod interop;
mod layout;
mod listing;
mod macros;
mod mapping;
pub mod names;
mod nibble;
mod odometer;
mod relayout;
mod relayout_plan;
mod same_axes;
mod storage;
mod strided;
mod table_chunks;
mod tensor;
mod tensor_read;
mod walk;

pub use any_mapping::AnyMapping;
pub use axis_names::{
    AxisNames, AxisNaming, AxisWord, Named, Positional, PositionalAxes, RunTimeNames,
    check_convertible,
};
pub use blocking::{BlockingDesc, DynBlockingDesc};
#[allow(deprecated)]
pub use chunk::ChunkTable;
pub use chunk::{Chunk, ChunkEntry, ChunkList, ChunkListSummary, EntryInfo};
pub use chunk_view::{ChunkAt, ChunkView, ChunkViewMut};
pub use chunked::{ChunkedGeometry, ChunkedMemoryLayout};
pub use conversion::Rename;
pub use coords::{Coords, MAX_RANK, RowMajorIndices, for_each_row_major_index, row_major_strides};
pub use dyn_index::DynIndex;
pub use dyn_mapping::DynMapping;
pub use dyn_tensor::{DynTensor, IntoTypedError};
pub use dynamic::{DynChunked, DynLayout};
pub use element::Element;
pub use error::LayoutError;
pub use indirect::{BorrowedChunks, ChunkStorage, IndirectTensor, IndirectTensorMut, OwnedChunks};
pub use interface::contract::{ChannelZeros, Interface, Plain, RealValues};
pub use interface::per_channel::PerChannel;
pub use interface::scale_offset::ScaleOffset;
pub use interop::StridedForm;
pub use layout::{Axes, Axis, Layout, MAX_AXES, SameRankAs};
pub use listing::MemoryOrder;
pub use mapping::Mapping;
pub use nibble::packed::PackedTensor;
pub use nibble::values::{Nibble, i4, u4};
pub use relayout_plan::{RelayoutPlan, Wisdom};
pub use same_axes::{RelayoutFrom, SameAxesAs};
pub use storage::{AlignedBuffer, STORAGE_ALIGN, Storage, StorageMut};
pub use strided::{Strided, StridedGeometry};
pub use tensor::elementwise::IterMut;
pub use tensor::padding::Padding;
pub use tensor::{StorageChunk, StorageChunkMut, Tensor, TensorBase, TensorView, TensorViewMut};
pub use tensor_read::{TensorRead, TensorWrite};
pub use walk::Run;

/// bytemuck, whose `Pod` and `NoUninit` bound the byte views ([`TensorView::from_bytes`],
/// [`TensorBase::as_bytes`]).
pub use bytemuck;
/// dlpark, DLPack's ABI and managed-tensor handles (feature `dlpack`).
#[cfg(feature = "dlpack")]
pub use dlpark;
/// ndarray, whose views [`TensorBase::as_ndarray`] gives (feature `ndarray`).
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
