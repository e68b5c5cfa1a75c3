//! Tensors: elements stored in a mapping. [`Tensor`] owns one allocation, [`TensorView`] and
//! [`TensorViewMut`] borrow one (all three are a [`TensorBase`]); [`IndirectTensor`] and
//! [`IndirectTensorMut`] hold a table of chunk allocations, as HTP's indirect tensors do.
//! Every kind, the 4-bit [`PackedTensor`](crate::quantized::PackedTensor) and the run-time
//! [`DynTensor`](crate::dynamic::DynTensor) included, answers the same queries through
//! [`TensorRead`] and [`TensorWrite`]. Here too: what a tensor may store ([`Element`]), what
//! its padding holds ([`Padding`]), and access by chunk ([`ChunkView`], [`StorageChunk`]).
//!
//! ```
//! use layout_core::tensors::{Tensor, TensorRead};
//! use layout_core::chunked_layout;
//! let t = Tensor::<u8, chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0]>::from_fn([1, 2, 2, 3], |[_, h, w, c]| (h + w + c) as u8);
//! assert_eq!(TensorRead::value(&t, [0, 1, 1, 2]), 4);
//! ```

pub use crate::chunk_view::{ChunkAt, ChunkView, ChunkViewMut};
pub use crate::element::Element;
pub use crate::indirect::{
    BorrowedChunks, ChunkStorage, IndirectTensor, IndirectTensorMut, OwnedChunks,
};
pub use crate::tensor::elementwise::IterMut;
pub use crate::tensor::padding::Padding;
pub use crate::tensor::{
    StorageChunk, StorageChunkMut, Tensor, TensorBase, TensorView, TensorViewMut,
};
pub use crate::tensor_read::{TensorRead, TensorWrite};
