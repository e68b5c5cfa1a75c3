//! Chunks by number on tensors and views of chunked layouts: how many, which one holds an
//! element, one chunk's slots, and every chunk as a [`ChunkView`] in order.
//!
//! What a chunk is and how chunks are numbered: `chunk_numbers`.

use super::TensorBase;
use crate::chunk_view::{ChunkAt, ChunkView, ChunkViewMut, chunk_place as place};
use crate::storage::{Storage, StorageMut};
use crate::{
    ChunkedMemoryLayout, LayoutError, axes::AxisNames, layouts::ChunkList, quantized::Interface,
};

type Chunked<const RANK: usize, C, N> = ChunkedMemoryLayout<RANK, C, N>;

impl<S: Storage, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    TensorBase<S, Chunked<RANK, C, N>, I>
{
    /// Number of chunks (see [`Mapping::chunk_count`](crate::Mapping::chunk_count)); on a view, of the view's chunks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([2, 9, 20, 50]);
    /// assert_eq!(t.chunk_count(), 2 * 2 * 3 * 2);
    /// assert_eq!(t.chunk_count(), t.chunks().count());
    /// ```
    pub fn chunk_count(&self) -> usize {
        self.mapping.chunk_count()
    }

    /// The chunk that holds the element at `index`, and the element's offset inside the chunk
    /// in elements: `t.chunk(n)[offset]` is `t[index]`.
    ///
    /// # Panics
    /// When `index` lies outside the dims, naming both ([`TensorBase::try_chunk_of`] returns
    /// the error instead).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u16, htp::R4CroutonLayout>::from_fn([1, 9, 8, 40], |[_, h, w, c]| (h * 1000 + w * 100 + c) as u16);
    /// let (n, offset) = t.chunk_of([0, 8, 3, 33]);
    /// assert_eq!((n, offset), (3, 3 * 32 + 1)); // row block 1, channel block 1
    /// assert_eq!(t.chunk(n)[offset], t[[0, 8, 3, 33]]);
    /// ```
    pub fn chunk_of(&self, index: [usize; RANK]) -> (usize, usize) {
        self.try_chunk_of(index).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The chunk that holds the element at `index`, and its offset inside the chunk.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nChw16c>::zeros([1, 20, 2, 2]);
    /// assert_eq!(t.try_chunk_of([0, 17, 0, 1]), Ok((5, 1)));
    /// assert!(t.try_chunk_of([0, 20, 0, 0]).is_err());
    /// ```
    pub fn try_chunk_of(&self, index: [usize; RANK]) -> Result<(usize, usize), LayoutError> {
        self.mapping.try_chunk_of(index)
    }

    /// Chunk `number`'s storage slots in memory order, padding included:
    /// [`CHUNK_VOLUME`](ChunkedMemoryLayout::CHUNK_VOLUME) of them.
    ///
    /// # Panics
    /// When `number` is not below [`TensorBase::chunk_count`] ([`TensorBase::chunk_view`]
    /// returns the error instead).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 8, 8, 64], |[.., c]| c as u8);
    /// assert_eq!(t.chunk(1).len(), 2048);
    /// assert_eq!(t.chunk(1)[..3], [32, 33, 34]);
    /// ```
    pub fn chunk(&self, number: usize) -> &[S::Elem] {
        match place(&self.mapping, number) {
            Ok((start, _)) => &self.as_raw()[start..start + Chunked::<RANK, C, N>::CHUNK_VOLUME],
            Err(e) => panic!("{e}"),
        }
    }

    /// Chunk `number` with its place in the tensor, read by coordinates inside the chunk.
    ///
    /// # Errors
    /// [`LayoutError::ChunkOutOfRange`] when `number` is not below [`TensorBase::chunk_count`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 8, 8, 64], |[_, h, w, c]| (h + w + c) as u8);
    /// let chunk = t.chunk_view(1).unwrap();
    /// assert_eq!(chunk.origin(), [0, 0, 0, 32]);
    /// assert_eq!(chunk[[0, 1, 2, 3]], t[[0, 1, 2, 35]]);
    /// assert!(t.chunk_view(2).is_err());
    /// ```
    pub fn chunk_view(
        &self,
        number: usize,
    ) -> Result<ChunkView<'_, S::Elem, Chunked<RANK, C, N>>, LayoutError> {
        let (start, place) = place(&self.mapping, number)?;
        let slots = &self.as_raw()[start..start + Chunked::<RANK, C, N>::CHUNK_VOLUME];
        Ok(ChunkView::new(slots, place))
    }

    /// The chunk that holds logical `index`, and `index`'s coordinates inside it: where a
    /// kernel that walks one tensor chunk by chunk reads another at the same place.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 16, 8, 40], |[_, h, w, c]| (h + w + c) as u8);
    /// let (chunk, local) = t.chunk_view_at([0, 9, 2, 35]).unwrap();
    /// assert_eq!((chunk.origin(), local), ([0, 8, 0, 32], [0, 1, 2, 3]));
    /// assert_eq!(chunk[local], t[[0, 9, 2, 35]]);
    /// ```
    pub fn chunk_view_at(
        &self,
        index: [usize; RANK],
    ) -> Result<ChunkAt<'_, S::Elem, Chunked<RANK, C, N>>, LayoutError> {
        let (number, _) = self.try_chunk_of(index)?;
        Ok(self.chunk_view(number)?.holding(index))
    }

    /// Every chunk, in order of number (memory order), as a [`ChunkView`]: the chunks of
    /// [`TensorBase::chunks`], with their numbers and read by coordinates inside the chunk.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// let origins: Vec<_> = t.chunk_views().map(|chunk| chunk.origin()).collect();
    /// assert_eq!(origins, [[0, 0, 0, 0], [0, 0, 0, 32], [0, 8, 0, 0], [0, 8, 0, 32]]);
    /// assert_eq!(t.chunk_views().last().unwrap().dims(), [1, 1, 8, 8]);
    /// ```
    pub fn chunk_views(
        &self,
    ) -> impl ExactSizeIterator<Item = ChunkView<'_, S::Elem, Chunked<RANK, C, N>>> + '_ {
        (0..self.chunk_count()).map(|number| match self.chunk_view(number) {
            Ok(chunk) => chunk,
            Err(_) => unreachable!("every number below the count names a chunk"),
        })
    }
}

impl<S: StorageMut, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    TensorBase<S, Chunked<RANK, C, N>, I>
{
    /// Chunk `number`'s storage slots, writable, padding included.
    ///
    /// # Panics
    /// When `number` is not below [`TensorBase::chunk_count`] ([`TensorBase::chunk_view_mut`]
    /// returns the error instead).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, onednn::nChw16c>::zeros([1, 16, 2, 2]);
    /// t.chunk_mut(3)[15] = 7; // the last pixel, channel 15
    /// assert_eq!(t[[0, 15, 1, 1]], 7);
    /// ```
    pub fn chunk_mut(&mut self, number: usize) -> &mut [S::Elem] {
        match place(&self.mapping, number) {
            Ok((start, _)) => {
                &mut self.as_raw_mut()[start..start + Chunked::<RANK, C, N>::CHUNK_VOLUME]
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Chunk `number`, writable, with its place in the tensor.
    ///
    /// # Errors
    /// [`LayoutError::ChunkOutOfRange`] when `number` is not below [`TensorBase::chunk_count`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 32]);
    /// let mut chunk = t.chunk_view_mut(1).unwrap(); // rows 8-15
    /// chunk[[0, 0, 1, 2]] = 3;
    /// assert_eq!(t[[0, 8, 1, 2]], 3);
    /// ```
    pub fn chunk_view_mut(
        &mut self,
        number: usize,
    ) -> Result<ChunkViewMut<'_, S::Elem, Chunked<RANK, C, N>>, LayoutError> {
        let (start, place) = place(&self.mapping, number)?;
        let slots = &mut self.as_raw_mut()[start..start + Chunked::<RANK, C, N>::CHUNK_VOLUME];
        Ok(ChunkViewMut::new(slots, place))
    }

    /// Every chunk, in order of number, writable (see [`TensorBase::chunk_views`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u16, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// for mut chunk in t.chunk_views_mut() {
    ///     let number = chunk.number() as u16;
    ///     chunk[[0, 0, 0, 0]] = number;
    /// }
    /// assert_eq!(t[[0, 8, 0, 32]], 3);
    /// ```
    pub fn chunk_views_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = ChunkViewMut<'_, S::Elem, Chunked<RANK, C, N>>> + '_ {
        let mapping = self.mapping;
        let volume = Chunked::<RANK, C, N>::CHUNK_VOLUME;
        let mut rest = self.storage.slots_mut();
        let mut consumed = 0;
        (0..mapping.chunk_count()).map(move |number| {
            let Ok((start, place)) = place(&mapping, number) else {
                unreachable!("every number below the count names a chunk")
            };
            // Chunks come in increasing offset order and never overlap: numbers follow memory
            // order, and the rest strides of a tensor or a view of whole blocks keep them apart.
            let (_, tail) = core::mem::take(&mut rest).split_at_mut(start - consumed);
            let (data, after) = tail.split_at_mut(volume);
            rest = after;
            consumed = start + volume;
            ChunkViewMut::new(data, place)
        })
    }
}
