//! Visiting elements: row-major iterators, memory-order visits and contiguous chunks.

use super::{StorageChunk, StorageChunkMut, TensorBase};
use crate::odometer::{Odometer, logical};
use crate::quantized::Interface;
use crate::storage::{Storage, StorageMut};
use crate::{Layout, Mapping, mappings::row_major_strides};
use alloc::vec::Vec;

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The logical elements in row-major order (last dim fastest).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &S::Elem> + '_ {
        self.indexed_iter().map(|(_, value)| value)
    }

    /// The logical elements with their indices, in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 1, 1, 2], |i| i[3] as u8 + 5);
    /// let all: Vec<_> = t.indexed_iter().collect();
    /// assert_eq!(all, [([0, 0, 0, 0], &5), ([0, 0, 0, 1], &6)]);
    /// ```
    pub fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (L::Index, &S::Elem)> + '_ {
        let slots = self.as_raw();
        crate::mappings::RowMajorIndices::new(self.dims())
            .map(move |index| (index, &slots[self.mapping.offset(index)]))
    }

    /// The logical elements in row-major order, copied out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_raw(), [1, 3, 2, 4]);
    /// assert_eq!(t.to_row_major(), [1, 2, 3, 4]);
    /// ```
    pub fn to_row_major(&self) -> Vec<S::Elem> {
        let dims = self.dims();
        let row_major = row_major_strides(&dims);
        let slots = self.as_raw();
        let mut out = alloc::vec![self.pad; self.len()];
        self.mapping.for_each_run(|run| {
            let (base, step) = run.in_strided(&row_major);
            for j in 0..run.len {
                out[base + j * step] = slots[run.offset + j * run.stride];
            }
        });
        out
    }

    /// Calls `visit(index, value)` for every logical element in memory order, skipping padding.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// let mut seen = Vec::new();
    /// t.for_each_in_memory_order(|_, &v| seen.push(v));
    /// assert_eq!(seen, [1, 3, 2, 4]);
    /// ```
    pub fn for_each_in_memory_order(&self, mut visit: impl FnMut(L::Index, &S::Elem)) {
        let slots = self.as_raw();
        self.mapping
            .for_each_element(|index, at| visit(*index, &slots[at]));
    }

    /// The contiguous innermost chunks in memory order, each with the logical index of its first
    /// element. For a layout without fixed entries every element is its own chunk.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// let origins: Vec<_> = t.chunks().map(|chunk| chunk.index).collect();
    /// assert_eq!(origins, [[0, 0, 0, 0], [0, 0, 0, 32], [0, 8, 0, 0], [0, 8, 0, 32]]);
    /// assert!(t.chunks().all(|chunk| chunk.data.len() == 2048));
    /// ```
    pub fn chunks(&self) -> impl Iterator<Item = StorageChunk<'_, S::Elem, L::Index>> + '_ {
        let slots = self.as_raw();
        let volume = self.mapping.chunk_volume();
        chunk_origins(&self.mapping).map(move |(index, offset)| StorageChunk {
            index,
            data: &slots[offset..offset + volume],
        })
    }
}

impl<S: StorageMut, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// Calls `visit(index, slot)` for every logical element in memory order, skipping padding.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u16, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let mut k = 0;
    /// t.for_each_in_memory_order_mut(|_, v| { *v = k; k += 1; });
    /// assert_eq!(t[[0, 0, 1, 0]], 30); // the second run of 30 channels
    /// assert_eq!(t.as_raw()[32], 30);
    /// ```
    pub fn for_each_in_memory_order_mut(&mut self, mut visit: impl FnMut(L::Index, &mut S::Elem)) {
        let mapping = self.mapping;
        let slots = self.storage.slots_mut();
        mapping.for_each_element(|index, at| visit(*index, &mut slots[at]));
    }

    /// The contiguous innermost chunks in memory order, writable (see [`TensorBase::chunks`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 64]);
    /// for chunk in t.chunks_mut() {
    ///     chunk.data.fill(chunk.index[3] as u8); // channel block 0 or 32
    /// }
    /// assert_eq!(t[[0, 7, 7, 40]], 32);
    /// ```
    pub fn chunks_mut(
        &mut self,
    ) -> impl Iterator<Item = StorageChunkMut<'_, S::Elem, L::Index>> + '_ {
        let volume = self.mapping.chunk_volume();
        let mapping = self.mapping;
        let mut rest = self.storage.slots_mut();
        let mut consumed = 0;
        chunk_origins(&mapping).map(move |(index, offset)| {
            // Chunks come in increasing offset order and never overlap (the layout is dense).
            let (_, tail) = core::mem::take(&mut rest).split_at_mut(offset - consumed);
            let (data, after) = tail.split_at_mut(volume);
            rest = after;
            consumed = offset + volume;
            StorageChunkMut { index, data }
        })
    }
}

/// Logical index and offset of the first element of every chunk, in memory order.
fn chunk_origins<L: Layout>(
    mapping: &Mapping<L>,
) -> impl Iterator<Item = (L::Index, usize)> + use<L> {
    let axes = mapping.axes();
    let outer = axes.len() - mapping.layout().chunk_axes();
    let origin = mapping.origin();
    Odometer::new(axes, outer, mapping.dims(), origin, mapping.base_offset())
        .filter_map(move |(index, offset)| Some((logical(index, &origin)?, offset)))
}
