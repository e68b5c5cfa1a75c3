//! Chunks of a chunk table as [`ChunkView`]s, read by coordinates inside the chunk, as on a
//! contiguous tensor.

use super::store::TableAccess;
use super::{ChunkStorage, IndirectTensor};
use crate::chunk_view::{ChunkAt, ChunkView, ChunkViewMut, chunk_place};
use crate::tensors::Element;
use crate::{
    ChunkedMemoryLayout, LayoutError, axes::AxisNames, layouts::ChunkList, quantized::Interface,
};

impl<T, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface, S>
    IndirectTensor<T, ChunkedMemoryLayout<RANK, C, N>, I, S>
where
    T: Element,
    S: ChunkStorage<Elem = T>,
{
    /// Chunk `number` with its place in the tensor, read by coordinates inside the chunk
    /// (see [`TensorBase::chunk_view`](crate::tensors::TensorBase::chunk_view)).
    ///
    /// # Errors
    /// [`LayoutError::ChunkOutOfRange`] when `number` is not below the chunk count.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 9, 8, 32], |[_, h, w, c]| (h + w + c) as u8);
    /// let table = t.to_indirect();
    /// let chunk = table.chunk_view(1).unwrap();
    /// assert_eq!((chunk.origin(), chunk.dims()), ([0, 8, 0, 0], [1, 1, 8, 32]));
    /// assert_eq!(chunk[[0, 0, 2, 3]], t[[0, 8, 2, 3]]);
    /// ```
    pub fn chunk_view(
        &self,
        number: usize,
    ) -> Result<ChunkView<'_, T, ChunkedMemoryLayout<RANK, C, N>>, LayoutError> {
        let (_, place) = chunk_place(&self.mapping, number)?;
        Ok(ChunkView::new(self.table.chunk(number), place))
    }

    /// Chunk `number`, writable, read and written by coordinates inside the chunk.
    ///
    /// # Errors
    /// As for [`IndirectTensor::chunk_view`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// t.chunk_view_mut(1).unwrap()[[0, 0, 1, 5]] = 3;
    /// assert_eq!(t[[0, 8, 1, 5]], 3);
    /// ```
    pub fn chunk_view_mut(
        &mut self,
        number: usize,
    ) -> Result<ChunkViewMut<'_, T, ChunkedMemoryLayout<RANK, C, N>>, LayoutError> {
        let (_, place) = chunk_place(&self.mapping, number)?;
        Ok(ChunkViewMut::new(self.table.chunk_mut(number), place))
    }

    /// The chunk that holds the element at `index`, and its offset inside the chunk.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, onednn::nChw16c>::zeros([1, 20, 2, 2]);
    /// assert_eq!(t.try_chunk_of([0, 17, 0, 1]), Ok((5, 1)));
    /// assert!(t.try_chunk_of([0, 20, 0, 0]).is_err());
    /// ```
    pub fn try_chunk_of(&self, index: [usize; RANK]) -> Result<(usize, usize), LayoutError> {
        self.mapping.try_chunk_of(index)
    }

    /// The chunk that holds logical `index`, and `index`'s coordinates inside it (see
    /// [`TensorBase::chunk_view_at`](crate::tensors::TensorBase::chunk_view_at)).
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 16, 8, 40], |[_, h, w, c]| (h + w + c) as u8);
    /// let table = t.to_indirect();
    /// let (chunk, local) = table.chunk_view_at([0, 9, 2, 35]).unwrap();
    /// assert_eq!((chunk.number(), local), (3, [0, 1, 2, 3]));
    /// assert_eq!(chunk[local], t[[0, 9, 2, 35]]);
    /// ```
    pub fn chunk_view_at(
        &self,
        index: [usize; RANK],
    ) -> Result<ChunkAt<'_, T, ChunkedMemoryLayout<RANK, C, N>>, LayoutError> {
        let (number, _) = self.try_chunk_of(index)?;
        Ok(self.chunk_view(number)?.holding(index))
    }

    /// Every chunk in order of number, writable, as a [`ChunkViewMut`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// for mut chunk in t.chunk_views_mut() {
    ///     let corner = chunk.origin();
    ///     chunk[[0, 0, 0, 0]] = (corner[1] + corner[3]) as u8;
    /// }
    /// assert_eq!((t[[0, 8, 0, 0]], t[[0, 8, 0, 32]]), (8, 40));
    /// ```
    pub fn chunk_views_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = ChunkViewMut<'_, T, ChunkedMemoryLayout<RANK, C, N>>> + '_
    {
        let mapping = self.mapping;
        let chunks = self.table.chunks_mut().each_mut().enumerate();
        chunks.map(move |(number, chunk)| match chunk_place(&mapping, number) {
            Ok((_, place)) => ChunkViewMut::new(chunk, place),
            Err(_) => unreachable!("every number below the count names a chunk"),
        })
    }

    /// Every chunk in order of number, as a [`ChunkView`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// let origins: Vec<_> = t.chunk_views().map(|chunk| chunk.origin()).collect();
    /// assert_eq!(origins, [[0, 0, 0, 0], [0, 0, 0, 32], [0, 8, 0, 0], [0, 8, 0, 32]]);
    /// ```
    pub fn chunk_views(
        &self,
    ) -> impl ExactSizeIterator<Item = ChunkView<'_, T, ChunkedMemoryLayout<RANK, C, N>>> + '_ {
        (0..self.chunk_count()).map(|number| match self.chunk_view(number) {
            Ok(chunk) => chunk,
            Err(_) => unreachable!("every number below the count names a chunk"),
        })
    }
}
