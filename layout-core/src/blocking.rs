//! A chunked mapping described the way oneDNN describes blocked memory.

use crate::{ChunkedMemoryLayout, Mapping, layouts::ChunkEntry, layouts::ChunkList};
use alloc::vec::Vec;

/// oneDNN's blocking descriptor of a chunked mapping (`dnnl_blocking_desc_t` plus dims): enough
/// to hand the storage to oneDNN without guessing. oneDNN's other fields of a
/// `format_kind::blocked` memory descriptor, `offset0` and `padded_offsets`, are zero for every
/// chunked mapping. [`DynBlockingDesc`] is the same description of a run-time mapping.
///
/// An element's offset is `sum_d (x_d / block_d) * strides[d]` plus its offset inside the inner
/// block, where the inner block is `inner_blks[k]` elements of dimension `inner_idxs[k]`, the
/// first entry outermost.
///
/// ```
/// use tensor_layout::prelude::*;
/// // oneDNN's documentation: nChw8c with C = 17, padded to 24.
/// let (n, c, h, w) = (2, 17, 3, 5);
/// let desc = Mapping::<onednn::nChw8c>::new([n, c, h, w]).unwrap().blocking_desc();
/// assert_eq!(desc.padded_dims, [n, 24, h, w]);
/// assert_eq!(desc.strides, [24 * h * w, h * w * 8, w * 8, 8]);
/// assert_eq!((desc.inner_nblks(), &desc.inner_blks[..], &desc.inner_idxs[..]), (1, &[8][..], &[1][..]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockingDesc<const RANK: usize> {
    /// The logical dims.
    pub dims: [usize; RANK],
    /// The dims rounded up to whole blocks (oneDNN's `padded_dims`).
    pub padded_dims: [usize; RANK],
    /// Stride in elements of each dimension's outer (blocked) index.
    pub strides: [usize; RANK],
    /// Sizes of the inner blocks, outermost first.
    pub inner_blks: Vec<usize>,
    /// The dimension of each inner block.
    pub inner_idxs: Vec<usize>,
}

impl<const RANK: usize> BlockingDesc<RANK> {
    /// Number of inner blocks (oneDNN's `inner_nblks`).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<onednn::OIhw4i16o4i>::new([32, 32, 3, 3]).unwrap();
    /// assert_eq!(m.blocking_desc().inner_nblks(), 3);
    /// ```
    pub fn inner_nblks(&self) -> usize {
        self.inner_blks.len()
    }
}

impl<const RANK: usize, C: ChunkList, N: crate::axes::AxisNames>
    Mapping<ChunkedMemoryLayout<RANK, C, N>>
{
    /// This mapping as oneDNN's blocking descriptor (see [`BlockingDesc`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let desc = Mapping::<onednn::OIhw16i16o>::new([32, 48, 3, 3]).unwrap().blocking_desc();
    /// assert_eq!(desc.inner_blks, [16, 16]);
    /// assert_eq!(desc.inner_idxs, [1, 0]); // i, then o
    /// assert_eq!(desc.strides, [3 * 48 * 3 * 16, 3 * 3 * 256, 3 * 256, 256]);
    /// ```
    pub fn blocking_desc(&self) -> BlockingDesc<RANK> {
        let (inner_blks, inner_idxs) = inner_blocks(ChunkedMemoryLayout::<RANK, C>::ENTRIES);
        BlockingDesc {
            dims: self.dims(),
            padded_dims: self.padded_dims(),
            strides: self.geometry().rest_strides(),
            inner_blks,
            inner_idxs,
        }
    }
}

/// The inner blocks of a chunk list, outermost first: their sizes and their dimensions
/// (oneDNN's `inner_blks` and `inner_idxs`).
pub(crate) fn inner_blocks(entries: &[ChunkEntry]) -> (Vec<usize>, Vec<usize>) {
    entries
        .iter()
        .filter(|e| !e.is_rest())
        .map(|e| (e.size, e.dim))
        .unzip()
}

/// oneDNN's blocking descriptor of a run-time mapping ([`DynMapping::blocking_desc`]): the same
/// fields as [`BlockingDesc`], one entry per dimension, for any rank.
///
/// [`DynMapping::blocking_desc`]: crate::dynamic::DynMapping::blocking_desc
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{interop::DynBlockingDesc, DynLayout};
/// let dynamic = DynLayout::parse("nChw8c").unwrap().bind(&[2, 17, 3, 5]).unwrap().blocking_desc();
/// let typed = Mapping::<onednn::nChw8c>::new([2, 17, 3, 5]).unwrap().blocking_desc();
/// assert_eq!(dynamic, DynBlockingDesc::from(typed));
/// assert_eq!(dynamic.strides, [360, 120, 40, 8]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynBlockingDesc {
    /// The logical dims.
    pub dims: Vec<usize>,
    /// The dims rounded up to whole blocks (oneDNN's `padded_dims`).
    pub padded_dims: Vec<usize>,
    /// Stride in elements of each dimension's outer (blocked) index.
    pub strides: Vec<usize>,
    /// Sizes of the inner blocks, outermost first.
    pub inner_blks: Vec<usize>,
    /// The dimension of each inner block.
    pub inner_idxs: Vec<usize>,
}

impl DynBlockingDesc {
    /// Number of inner blocks (oneDNN's `inner_nblks`).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("OIhw4i16o4i").unwrap().bind(&[32, 32, 3, 3]).unwrap();
    /// assert_eq!(m.blocking_desc().inner_nblks(), 3);
    /// ```
    pub fn inner_nblks(&self) -> usize {
        self.inner_blks.len()
    }
}

/// The typed descriptor with its arrays as `Vec`s.
impl<const RANK: usize> From<BlockingDesc<RANK>> for DynBlockingDesc {
    fn from(desc: BlockingDesc<RANK>) -> Self {
        Self {
            dims: desc.dims.to_vec(),
            padded_dims: desc.padded_dims.to_vec(),
            strides: desc.strides.to_vec(),
            inner_blks: desc.inner_blks,
            inner_idxs: desc.inner_idxs,
        }
    }
}
