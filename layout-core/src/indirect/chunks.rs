//! Chunks of a chunk table as [`ChunkView`]s, read by coordinates inside the chunk, as on a
//! contiguous tensor.

use super::IndirectTensor;
use crate::chunk_view::{ChunkView, ChunkViewMut, chunk_place};
use crate::{AxisNames, ChunkList, ChunkedMemoryLayout, Interface, LayoutError};

impl<T, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    IndirectTensor<T, ChunkedMemoryLayout<RANK, C, N>, I>
where
    T: Copy,
{
    /// Chunk `number` with its place in the tensor, read by coordinates inside the chunk
    /// (see [`TensorBase::chunk_view`](crate::TensorBase::chunk_view)).
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
    /// let mut t = tensor_layout::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
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

    /// Every chunk in order of number, as a [`ChunkView`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
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
