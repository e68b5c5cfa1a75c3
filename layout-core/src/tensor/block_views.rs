//! Views of whole blocks of a chunked tensor that keep its layout type: `slice_blocks` and
//! `slice_blocks_mut`. (`slice`, in `views`, gives strided views of any layout that has them.)

use super::{TensorBase, TensorView, TensorViewMut};
use crate::storage::{Storage, StorageMut};
use crate::{
    ChunkedMemoryLayout, LayoutError, axes::AxisNames, layouts::ChunkList, quantized::Interface,
};
use core::ops::Range;

type Chunked<const RANK: usize, C, N> = ChunkedMemoryLayout<RANK, C, N>;

/// A view of whole blocks, in the tensor's chunked layout.
type BlockView<'a, T, const RANK: usize, C, N, I> = TensorView<'a, T, Chunked<RANK, C, N>, I>;

/// A writable view of whole blocks, in the tensor's chunked layout.
type BlockViewMut<'a, T, const RANK: usize, C, N, I> = TensorViewMut<'a, T, Chunked<RANK, C, N>, I>;

impl<S: Storage, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    TensorBase<S, Chunked<RANK, C, N>, I>
{
    /// The sub-tensor with `range` of dimension `dim`, in the same chunked layout: a range of
    /// batches, or of the blocked part of a dimension on block boundaries. No copy; the view
    /// reads the tensor's chunks in place, its padding is the tensor's padding, and the tensor's
    /// chunks outside the view are never touched. Views of views narrow further, one dimension
    /// at a time.
    ///
    /// The range is in elements. It starts at a multiple of the dimension's block
    /// ([`BLOCKS`](ChunkedMemoryLayout::BLOCKS)) and ends at one or at the dimension's end, so
    /// that every chunk of the view is a whole chunk of the tensor. A layout without blocks
    /// promises dense storage, so there the view must also be contiguous (a range of the
    /// outermost dimension, or of a dimension whose outer ones have extent 1).
    ///
    /// # Errors
    /// [`LayoutError::SliceOutOfRange`] when the range does not lie within the dimension;
    /// [`LayoutError::SliceCutsBlock`] (naming the block) when it starts or ends inside a
    /// block; [`LayoutError::ViewNotDense`] for a layout without blocks and a view with gaps
    /// ([`TensorBase::slice`] gives that view as a strided one).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u16, htp::R4CroutonLayout>::from_fn([2, 20, 16, 64], |[n, h, w, c]| (n * 10000 + h * 500 + w * 64 + c) as u16);
    /// // Batch 1, rows 8..20 (two row blocks, the second one padded), channels 32..64.
    /// let batch = t.slice_blocks(0, 1..2).unwrap();
    /// let rows = batch.slice_blocks(1, 8..20).unwrap();
    /// let v: TensorView<'_, u16, htp::R4CroutonLayout> = rows.slice_blocks(3, 32..64).unwrap();
    /// assert_eq!(v.dims(), [1, 12, 16, 32]);
    /// assert_eq!(v[[0, 11, 15, 31]], t[[1, 19, 15, 63]]);
    /// assert_eq!(v.chunk_count(), 4); // 2 row blocks x 2 column blocks
    /// assert_eq!(v.chunk_view(3).unwrap().origin(), [0, 8, 8, 0]);
    /// let err = t.slice_blocks(1, 4..12).unwrap_err();
    /// assert!(err.to_string().contains("cuts through a block of 8"));
    /// ```
    pub fn slice_blocks(
        &self,
        dim: usize,
        range: Range<usize>,
    ) -> Result<BlockView<'_, S::Elem, RANK, C, N, I>, LayoutError> {
        let interface = self.sliced_interface(dim, &range);
        let (start, mapping) = self.mapping.block_slice(dim, range)?;
        let slots = &self.as_raw()[start..start + mapping.storage_len()];
        Ok(TensorBase::from_parts(mapping, slots, self.pad, interface))
    }
}

impl<S: StorageMut, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    TensorBase<S, Chunked<RANK, C, N>, I>
{
    /// A writable sub-tensor of whole blocks (see [`TensorBase::slice_blocks`]): writes,
    /// relayouts into it and `fill_padding` land in this tensor's chunks of the view, and
    /// nowhere else.
    ///
    /// # Errors
    /// As for [`TensorBase::slice_blocks`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 64]);
    /// let patch = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 8, 8, 32], |_| 7);
    /// let mut lower_right = t.slice_blocks_mut(1, 8..16).unwrap();
    /// patch.relayout_into(&mut lower_right.slice_blocks_mut(3, 32..64).unwrap()).unwrap();
    /// assert_eq!((t[[0, 8, 0, 32]], t[[0, 7, 0, 32]], t[[0, 8, 0, 31]]), (7, 0, 0));
    /// assert_eq!(t.iter().filter(|&&v| v == 7).count(), 8 * 8 * 32);
    /// ```
    pub fn slice_blocks_mut(
        &mut self,
        dim: usize,
        range: Range<usize>,
    ) -> Result<BlockViewMut<'_, S::Elem, RANK, C, N, I>, LayoutError> {
        let interface = self.sliced_interface(dim, &range);
        let (start, mapping) = self.mapping.block_slice(dim, range)?;
        let pad = self.pad;
        let slots = &mut self.as_raw_mut()[start..start + mapping.storage_len()];
        Ok(TensorBase::from_parts(mapping, slots, pad, interface))
    }
}
