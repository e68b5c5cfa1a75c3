//! Chunks of a chunked mapping by number: how many there are, which one holds an index, where
//! each one starts and which logical box it covers.
//!
//! A chunk is the set of slots whose rest entries' digits are equal: [`CHUNK_VOLUME`] consecutive
//! slots holding the logical box of shape [`CHUNK_SHAPE`] that starts at the rest digits times
//! the blocks. Chunks are numbered by their rest digits read as one mixed-radix number in list
//! order (row-major over the rest entries as listed, each with its rest extent as radix): for a
//! whole tensor that is memory order, and chunk `n` starts at slot `n * CHUNK_VOLUME`.
//!
//! [`CHUNK_VOLUME`]: crate::ChunkedMemoryLayout::CHUNK_VOLUME
//! [`CHUNK_SHAPE`]: crate::ChunkedMemoryLayout::CHUNK_SHAPE

use crate::{ChunkedMemoryLayout, LayoutError, Mapping, axes::AxisNames, layouts::ChunkList};
use alloc::vec::Vec;

impl<const RANK: usize, C: ChunkList, N: AxisNames> Mapping<ChunkedMemoryLayout<RANK, C, N>> {
    /// Number of chunks (0 for an empty tensor).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// // 2 batches x 2 row blocks x 3 column blocks x 2 channel blocks.
    /// assert_eq!(Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap().chunk_count(), 24);
    /// assert_eq!(Mapping::<htp::R4CroutonLayout>::new([2, 0, 20, 50]).unwrap().chunk_count(), 0);
    /// ```
    pub fn chunk_count(&self) -> usize {
        let extents = self.geometry().rest_extents();
        if extents.contains(&0) {
            return 0;
        }
        // Fits: the count times the chunk volume is the storage length, or less for a view.
        extents.iter().product()
    }

    /// The chunk that holds `index` and the element's offset inside it, or `None` outside the
    /// dims. The offset is [`ChunkedMemoryLayout::offset_in_chunk`] of the index.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    /// // Row block 1, column block 2, channel block 1 of batch 0: chunk (1 * 3 + 2) * 2 + 1.
    /// assert_eq!(m.checked_chunk_of([0, 8, 17, 40]), Some((11, 32 + 8)));
    /// assert_eq!(m.offset([0, 8, 17, 40]), 11 * 2048 + 40);
    /// assert_eq!(m.checked_chunk_of([2, 0, 0, 0]), None);
    /// ```
    pub fn checked_chunk_of(&self, index: [usize; RANK]) -> Option<(usize, usize)> {
        if !index.iter().zip(&self.dims()).all(|(i, d)| i < d) {
            return None;
        }
        let table = const { &C::SUMMARY };
        let extents = self.geometry().rest_extents();
        let mut number = 0;
        for entry in &table.entries()[..table.rest_entries] {
            number = number * extents[entry.dim] + index[entry.dim] / table.blocks[entry.dim];
        }
        let offset = ChunkedMemoryLayout::<RANK, C, N>::offset_in_chunk(index);
        Some((number, offset))
    }

    /// As [`Mapping::checked_chunk_of`], with an error naming the index and the dims.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<onednn::nChw16c>::new([1, 40, 2, 2]).unwrap();
    /// assert_eq!(m.try_chunk_of([0, 17, 1, 0]), Ok((6, 1))); // (block 1 * 2 + row 1) * 2 + column 0
    /// assert!(m.try_chunk_of([0, 40, 0, 0]).is_err());
    /// ```
    pub fn try_chunk_of(&self, index: [usize; RANK]) -> Result<(usize, usize), LayoutError> {
        self.checked_chunk_of(index)
            .ok_or_else(|| LayoutError::IndexOutOfBounds {
                index: Vec::from(index),
                dims: Vec::from(self.dims()),
            })
    }

    /// The storage offset of chunk `number`'s first slot and the logical index of its first
    /// element (the box's corner), or an error for a number past the last chunk.
    ///
    /// # Errors
    /// [`LayoutError::ChunkOutOfRange`] when `number >= self.chunk_count()`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    /// assert_eq!(m.chunk_start(11), Ok((11 * 2048, [0, 8, 16, 32])));
    /// assert!(m.chunk_start(24).is_err());
    /// ```
    pub fn chunk_start(&self, number: usize) -> Result<(usize, [usize; RANK]), LayoutError> {
        let count = self.chunk_count();
        if number >= count {
            return Err(LayoutError::ChunkOutOfRange {
                chunk: number,
                count,
            });
        }
        let table = const { &C::SUMMARY };
        let (extents, strides) = (
            self.geometry().rest_extents(),
            self.geometry().rest_strides(),
        );
        let (mut rest, mut offset, mut origin) = (number, 0, [0; RANK]);
        for entry in table.entries()[..table.rest_entries].iter().rev() {
            let digit = rest % extents[entry.dim];
            rest /= extents[entry.dim];
            offset += digit * strides[entry.dim];
            origin[entry.dim] = digit * table.blocks[entry.dim];
        }
        Ok((offset, origin))
    }

    /// The part of chunk `origin`'s box that lies inside the dims: the box's shape, cut at the
    /// dims' end (the rest of the box is padding).
    pub(crate) fn chunk_dims(&self, origin: [usize; RANK]) -> [usize; RANK] {
        let (dims, shape) = (self.dims(), ChunkedMemoryLayout::<RANK, C, N>::CHUNK_SHAPE);
        core::array::from_fn(|d| shape[d].min(dims[d] - origin[d]))
    }
}
