//! The heart of tensor-layout: layouts as types, their mappings, and tensors.
//!
//! A layout maps logical indices (`[usize; RANK]`, in the owning system's dimension order) to
//! storage offsets. [`ChunkedMemoryLayout`] spells the HTP/oneDNN family of blocked layouts as a
//! type, so that a tensor's layout is checked by the compiler and its offset arithmetic is
//! constant-folded per layout. A [`Mapping`] binds a layout to dims; a [`Tensor`] owns storage in
//! that mapping, [`TensorView`] and [`TensorViewMut`] borrow it.
//!
//! ```
//! use layout_core::{Chunk, ChunkedMemoryLayout, Tensor};
//! // NHWC dims, 8x8x32 "crouton" chunks (HTP's R4CroutonLayout).
//! type Crouton = ChunkedMemoryLayout<4, (
//!     Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>,
//! )>;
//! let t = Tensor::<u8, Crouton>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h + w + c) as u8);
//! assert_eq!(t.storage_len(), 8 * 8 * 32);
//! assert_eq!(t[[0, 2, 4, 29]], 35);
//! ```
//!
//! The crate is `no_std` and needs only `alloc`.
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
pub use chunk::{Chunk, ChunkEntry, ChunkList, ChunkTable, EntryInfo};
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
