//! The queries of [`TensorRead`](crate::tensors::TensorRead) and [`TensorWrite`](crate::tensors::TensorWrite) that
//! an [`IndirectTensor`] answers as a [`Tensor`](crate::Tensor) does, besides those in `mod.rs`.

use super::{ChunkStorage, IndirectTensor};
use crate::{Layout, quantized::Interface, tensors::Element};

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> IndirectTensor<T, L, I, C> {
    /// The dims after padding to whole blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn padded_dims(&self) -> L::Index {
        self.mapping.padded_dims()
    }

    /// Number of storage slots in all chunks together, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// assert_eq!(t.storage_len(), 2 * 2048);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.mapping.storage_len()
    }

    /// The element at logical `index`, by value.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 9, 8, 32], |[_, h, ..]| h as u8);
    /// assert_eq!(t.to_indirect().value([0, 8, 1, 1]), 8);
    /// ```
    pub fn value(&self, index: L::Index) -> T {
        self[index]
    }

    /// Writes `value` at logical `index` (the by-value twin of `t[index] = value`).
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// t.set([0, 8, 0, 1], 5);
    /// assert_eq!(t.chunk(1)[1], 5);
    /// ```
    pub fn set(&mut self, index: L::Index, value: T) {
        self[index] = value;
    }
}
