//! The mapping of a view of whole blocks of a chunked mapping: a range of one dimension that
//! starts and ends on block boundaries keeps the chunked layout, with the rest strides of the
//! tensor it views.
//!
//! The view's storage is the part of the tensor's that runs from its first chunk to the end of
//! its last; the chunks of the tensor outside the view that lie in between are gaps, which the
//! view never reads or writes. Inside its chunks, the view's padding is the tensor's padding:
//! a range may end inside a block only where the dimension ends.

use crate::chunked::ChunkedGeometry;
use crate::{
    ChunkedMemoryLayout, Layout, LayoutError, Mapping, axes::AxisNames, layouts::ChunkList,
};
use alloc::string::ToString;
use core::ops::Range;

impl<const RANK: usize, C: ChunkList, N: AxisNames> Mapping<ChunkedMemoryLayout<RANK, C, N>> {
    /// The mapping of the sub-tensor with `range` of dimension `dim`, and the slot of this
    /// mapping's storage where the sub-tensor's storage starts.
    ///
    /// # Errors
    /// [`LayoutError::SliceOutOfRange`] when the range does not lie within the dimension;
    /// [`LayoutError::SliceCutsBlock`] when it starts or ends inside a block (other than at the
    /// dimension's end); [`LayoutError::ViewNotDense`] when the layout has no blocks (and so
    /// promises dense storage) and the view would leave gaps.
    pub(crate) fn block_slice(
        &self,
        dim: usize,
        range: Range<usize>,
    ) -> Result<(usize, Self), LayoutError> {
        let Range { start, end } = range;
        let mut dims = self.dims();
        let extent = match dims.get(dim) {
            Some(&extent) if start <= end && end <= extent => extent,
            found => {
                return Err(LayoutError::SliceOutOfRange {
                    dim,
                    start,
                    end,
                    extent: found.copied().unwrap_or(0),
                });
            }
        };
        let block = ChunkedMemoryLayout::<RANK, C, N>::BLOCKS[dim];
        let on_boundary = |at: usize| at.is_multiple_of(block) || at == extent;
        if !on_boundary(start) || !on_boundary(end) {
            return Err(LayoutError::SliceCutsBlock {
                dim,
                start,
                end,
                block,
                extent,
            });
        }
        let (mut extents, strides) = (
            self.geometry().rest_extents(),
            self.geometry().rest_strides(),
        );
        dims[dim] = end - start;
        extents[dim] = dims[dim].div_ceil(block);
        let volume = ChunkedMemoryLayout::<RANK, C, N>::CHUNK_VOLUME;
        let layout = *self.layout();
        if extents.contains(&0) {
            let geometry = ChunkedGeometry::from_parts(extents, strides, 0);
            return Ok((0, Mapping::from_parts(layout, dims, geometry)));
        }
        // Inside this mapping's storage: the view's last chunk is one of this mapping's.
        let first = start / block * strides[dim];
        let span = (0..RANK)
            .map(|d| (extents[d] - 1) * strides[d])
            .sum::<usize>()
            + volume;
        let chunks: usize = extents.iter().product();
        if ChunkedMemoryLayout::<RANK, C, N>::IS_ALWAYS_EXHAUSTIVE && span != chunks * volume {
            return Err(LayoutError::ViewNotDense {
                layout: layout.to_string(),
                dim,
                start,
                end,
            });
        }
        let geometry = ChunkedGeometry::from_parts(extents, strides, span);
        Ok((first, Mapping::from_parts(layout, dims, geometry)))
    }
}
