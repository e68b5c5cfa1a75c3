//! [`Mapping`]: a layout bound to logical dims.

use crate::{
    Layout, LayoutError, layouts::Axes, layouts::SameRankAs, mappings::Coords,
    mappings::RowMajorIndices,
};
use alloc::vec::Vec;

/// A layout bound to logical dims: padded dims, storage length, and the offset of every index.
///
/// Everything that depends only on the layout type is a compile-time constant; a `Mapping` holds
/// the little that depends on the dims (for a chunked layout, one extent and one stride per
/// dimension), computed once by [`Mapping::new`].
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
/// assert_eq!(m.padded_dims(), [1, 8, 8, 32]);
/// assert_eq!(m.storage_len(), 2048);
/// assert_eq!(m.len(), 450);
/// assert_eq!(m.offset([0, 1, 2, 3]), 256 + 2 * 32 + 3);
/// assert_eq!(m.checked_offset([0, 3, 0, 0]), None); // height 3 is padding
/// assert_eq!(m.index_of(259), Some([0, 1, 0, 3]));
/// assert_eq!(m.index_of(31), None); // channel 31 of (0,0,0) is padding
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapping<L: Layout> {
    layout: L,
    dims: L::Index,
    geometry: L::Geometry,
}

impl<L: Layout + Default> Mapping<L> {
    /// Binds the layout type `L` to logical `dims`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the padded storage length does not fit in `usize`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).is_ok());
    /// assert!(Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, usize::MAX]).is_err());
    /// ```
    pub fn new(dims: L::Index) -> Result<Self, LayoutError> {
        Self::with_layout(L::default(), dims)
    }
}

impl<L: Layout> Mapping<L> {
    /// A mapping from parts that belong together (a geometry `layout` made for `dims`).
    pub(crate) fn from_parts(layout: L, dims: L::Index, geometry: L::Geometry) -> Self {
        Self {
            layout,
            dims,
            geometry,
        }
    }

    /// Binds a layout value (one that carries run-time parameters, or any other) to `dims`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the padded storage length does not fit in `usize`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::with_layout(htp::R4CroutonLayout::default(), [1, 3, 5, 30]).unwrap();
    /// assert_eq!(m, Mapping::new([1, 3, 5, 30]).unwrap());
    /// ```
    pub fn with_layout(layout: L, dims: L::Index) -> Result<Self, LayoutError> {
        let geometry = layout.geometry(&dims)?;
        Ok(Self {
            layout,
            dims,
            geometry,
        })
    }

    /// The logical dims, borrowed (for the rank-free face, [`AnyMapping`](crate::mappings::AnyMapping)).
    pub(crate) fn dims_ref(&self) -> &L::Index {
        &self.dims
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.layout().to_string(), "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
    /// ```
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// What the layout derived from the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.geometry().rest_strides(), [2048, 2048, 2048, 2048]);
    /// ```
    pub fn geometry(&self) -> &L::Geometry {
        &self.geometry
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.dims(), [1, 3, 5, 30]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.dims
    }

    /// The dims after padding each up to a whole number of its blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn padded_dims(&self) -> L::Index {
        self.layout.padded_dims(&self.geometry)
    }

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.storage_len(), 2048);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.layout.storage_len(&self.geometry)
    }

    /// Number of logical elements (the product of the dims).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.len(), 450);
    /// ```
    pub fn len(&self) -> usize {
        // Cannot overflow: it is at most the storage length, which fits.
        self.dims.as_ref().iter().product()
    }

    /// Whether some dim is zero.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Mapping::<htp::R4CroutonLayout>::new([1, 0, 5, 30]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The storage as nested loops, most major first (see [`Layout`]'s axis model).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// let extents: Vec<usize> = m.axes().iter().map(|a| a.extent).collect();
    /// assert_eq!(extents, [1, 1, 1, 1, 8, 8, 32]);
    /// ```
    pub fn axes(&self) -> Axes {
        self.layout.axes(&self.geometry)
    }

    /// Elements in one contiguous innermost chunk (1 for a layout without fixed entries).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap().chunk_volume(), 2048);
    /// assert_eq!(Mapping::<htp::R4FlatMemoryLayout>::new([1, 3, 5, 30]).unwrap().chunk_volume(), 1);
    /// ```
    pub fn chunk_volume(&self) -> usize {
        let axes = self.axes();
        let inner = axes.len() - self.layout.chunk_axes();
        axes[inner..].iter().map(|axis| axis.extent).product()
    }

    /// Offset of `index`, which must lie within the dims: outside them the result is
    /// unspecified (it may even be a valid offset of another element); use
    /// [`Mapping::checked_offset`] for untrusted input.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.offset([0, 1, 2, 3]), 256 + 64 + 3);
    /// ```
    #[inline(always)]
    pub fn offset(&self, index: L::Index) -> usize {
        debug_assert!(
            index.is_within(&self.dims),
            "index {index:?} out of bounds for dims {:?}",
            self.dims
        );
        self.layout.offset(&self.geometry, &index)
    }

    /// Offset of `index`, or `None` when it lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.checked_offset([0, 1, 2, 3]), Some(323));
    /// assert_eq!(m.checked_offset([0, 1, 5, 3]), None);
    /// ```
    #[inline]
    pub fn checked_offset(&self, index: L::Index) -> Option<usize> {
        index
            .is_within(&self.dims)
            .then(|| self.layout.offset(&self.geometry, &index))
    }

    /// Offset of `index`, or an error naming the index and the dims.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// let err = m.try_offset([0, 3, 0, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "index [0, 3, 0, 0] is out of bounds for dims [1, 3, 5, 30]");
    /// ```
    pub fn try_offset(&self, index: L::Index) -> Result<usize, LayoutError> {
        self.checked_offset(index)
            .ok_or_else(|| LayoutError::IndexOutOfBounds {
                index: Vec::from(index.as_ref()),
                dims: Vec::from(self.dims.as_ref()),
            })
    }

    /// Offset of the element at index all zeros (non-zero for a view into a larger buffer).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nchw>::zeros([1, 2, 3, 4]);
    /// let lower_rows = t.slice(2, 1..3).unwrap();
    /// assert_eq!(lower_rows.mapping().base_offset(), 4);
    /// ```
    pub fn base_offset(&self) -> usize {
        self.layout.base_offset(&self.geometry)
    }

    /// The layout's [`Layout::origin`] for these dims: how far into its axes the first element
    /// lies, per dimension (all zero except for tensors placed part-way into a local memory).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.origin(), [0, 0, 0, 0]);
    /// ```
    pub fn origin(&self) -> L::Index {
        self.layout.origin(&self.geometry)
    }

    /// The coordinates, within the padded dims, of storage slot `offset`; `None` past the end or
    /// (for a view with gaps) where no element of the view lies.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.padded_index_of(31), Some([0, 0, 0, 31]));
    /// assert_eq!(m.padded_index_of(2048), None);
    /// ```
    pub fn padded_index_of(&self, offset: usize) -> Option<L::Index> {
        let mut rest = offset.checked_sub(self.base_offset())?;
        if offset >= self.storage_len() {
            return None;
        }
        // Axes come in decreasing stride order: peel off each digit, most major first.
        let mut index = L::Index::splat(0);
        for axis in self.axes().iter().filter(|a| a.stride > 0) {
            let digit = (rest / axis.stride).min(axis.extent - 1);
            rest -= digit * axis.stride;
            index[axis.dim] += digit * axis.step;
        }
        if rest != 0 {
            return None;
        }
        // Axes count from their starting point; a slot before the origin holds none of ours.
        let origin = self.origin();
        for d in 0..<L::Index as Coords>::RANK {
            index[d] = index[d].checked_sub(origin[d])?;
        }
        Some(index)
    }

    /// The logical index stored at `offset`; `None` for a padding slot or past the end.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.index_of(323), Some([0, 1, 2, 3]));
    /// assert_eq!(m.index_of(31), None);
    /// ```
    pub fn index_of(&self, offset: usize) -> Option<L::Index> {
        self.padded_index_of(offset)
            .filter(|index| index.is_within(&self.dims))
    }

    /// Whether `other` (any layout of the same rank) maps every index of these dims to the same
    /// offset and has the same storage length: the two are the same function on these dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let a = Mapping::<onednn_layout!("nChw16c")>::new([2, 16, 3, 3]).unwrap();
    /// let b = Mapping::<onednn_layout!("aBcd16b")>::new([2, 16, 3, 3]).unwrap();
    /// assert!(a.same_function_as(&b));
    /// let plain = Mapping::<onednn::nchw>::new([2, 16, 3, 3]).unwrap();
    /// assert!(!a.same_function_as(&plain));
    /// ```
    pub fn same_function_as<L2: SameRankAs<L>>(&self, other: &Mapping<L2>) -> bool {
        self.dims == other.dims()
            && self.storage_len() == other.storage_len()
            && self.axes().canonical() == other.axes().canonical()
    }

    /// Whether no two logical indices share a storage slot (mdspan's `is_unique`). Every
    /// chunked, Sophgo and run-time layout is; a strided view is unless its strides overlap
    /// (stride 0, or strides that reach one slot two ways). Writable tensors and views need it;
    /// a read-only view may overlap.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// assert!(Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap().is_unique());
    /// let diagonal = Mapping::with_layout(Strided::new([1, 1], 0), [2, 2]).unwrap();
    /// assert!(!diagonal.is_unique()); // [0, 1] and [1, 0] both at slot 1
    /// ```
    pub fn is_unique(&self) -> bool {
        L::IS_ALWAYS_UNIQUE || self.shared_slot().is_none()
    }

    /// Two different logical indices that share a storage slot, `None` when the mapping is
    /// unique (see [`Layout::shared_slot`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// let diagonal = Mapping::with_layout(Strided::new([1, 1], 0), [2, 2]).unwrap();
    /// assert_eq!(diagonal.shared_slot(), Some(([0, 1], [1, 0])));
    /// ```
    pub fn shared_slot(&self) -> Option<(L::Index, L::Index)> {
        self.layout.shared_slot(&self.geometry, &self.dims)
    }

    /// The number of storage slots the elements reach: one more than the largest offset of an
    /// element, 0 for an empty tensor (mdspan's `required_span_size`). At most
    /// [`Mapping::storage_len`], which also counts padding past the last element (and, for a
    /// Sophgo local layout, the whole local memory).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<onednn::nChw16c>::new([1, 3, 1, 1]).unwrap();
    /// assert_eq!((m.required_span_size(), m.storage_len()), (3, 16));
    /// ```
    pub fn required_span_size(&self) -> usize {
        let (dims, origin) = (self.dims, self.origin());
        self.axes()
            .required_span_size(dims.as_ref(), origin.as_ref(), self.base_offset())
    }

    /// Whether the elements' offsets fill every slot below [`Mapping::required_span_size`]
    /// (mdspan's `is_exhaustive`): no padding and no gap between elements, and the first element
    /// at slot 0. A blocked layout is when its blocks divide the dims (or the padding lies past
    /// the last element); a slice of a larger tensor is not.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Mapping::<onednn::nChw16c>::new([1, 32, 2, 2]).unwrap().is_exhaustive());
    /// assert!(!Mapping::<onednn::nChw16c>::new([1, 30, 2, 2]).unwrap().is_exhaustive());
    /// let t = Tensor::<u8, onednn::nchw>::zeros([1, 1, 4, 4]);
    /// assert!(!t.slice(3, 0..2).unwrap().mapping().is_exhaustive());
    /// ```
    pub fn is_exhaustive(&self) -> bool {
        if L::IS_ALWAYS_EXHAUSTIVE {
            return true;
        }
        let span = self.required_span_size();
        if self.is_unique() {
            // Distinct offsets below the span fill it exactly when there are as many.
            return span == self.len();
        }
        span <= self.len() && self.reaches_every_slot_below(span)
    }

    /// Whether the offset is `constant + sum index[d] * stride[d]` on these dims (mdspan's
    /// `is_strided`). A blocked layout is when no block boundary falls inside the dims it
    /// splits (a block of 16 channels on 16 or fewer channels). [`Mapping::strides`] gives the
    /// strides of plain mappings.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Mapping::<onednn::nChw16c>::new([2, 16, 3, 3]).unwrap().is_strided());
    /// assert!(!Mapping::<onednn::nChw16c>::new([2, 17, 3, 3]).unwrap().is_strided());
    /// ```
    pub fn is_strided(&self) -> bool {
        let (dims, origin) = (self.dims, self.origin());
        L::IS_ALWAYS_STRIDED || self.axes().is_affine(dims.as_ref(), origin.as_ref())
    }

    /// Whether the offsets of the elements reach every slot below `span`, by visiting them all.
    fn reaches_every_slot_below(&self, span: usize) -> bool {
        let mut seen = Vec::from_iter(core::iter::repeat_n(0u64, span.div_ceil(64)));
        for index in RowMajorIndices::new(self.dims) {
            let slot = self.offset(index);
            seen[slot / 64] |= 1 << (slot % 64);
        }
        (0..span).all(|slot| seen[slot / 64] & (1 << (slot % 64)) != 0)
    }

    /// Whether storage slot `offset` is padding (`false` past the end).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert!(m.is_padding(31));
    /// assert!(!m.is_padding(29));
    /// ```
    pub fn is_padding(&self, offset: usize) -> bool {
        self.padded_index_of(offset)
            .is_some_and(|index| !index.is_within(&self.dims))
    }
}
