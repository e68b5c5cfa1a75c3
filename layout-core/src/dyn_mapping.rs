//! [`DynMapping`]: a run-time layout bound to dims, and its contracts.

use crate::dynamic::DynLayout;
use crate::{Axes, ChunkTable, Layout, LayoutError, Mapping};
use alloc::vec;
use alloc::vec::Vec;

impl DynLayout {
    /// Binds the layout to logical `dims`.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `dims` has another length than the rank;
    /// [`LayoutError::Overflow`] when the storage does not fit in `usize`.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw8c").unwrap().bind(&[2, 17, 3, 5]).unwrap();
    /// assert_eq!(m.padded_dims(), [2, 24, 3, 5]);
    /// assert_eq!(m.offset(&[1, 9, 2, 4]), Some(24 * 15 + 120 + 2 * 40 + 4 * 8 + 1));
    /// ```
    pub fn bind(&self, dims: &[usize]) -> Result<DynMapping, LayoutError> {
        if dims.len() != self.rank() {
            return Err(LayoutError::Rank {
                expected: self.rank(),
                found: dims.len(),
            });
        }
        let table = ChunkTable::new(self.entries());
        let (mut rest_extents, mut rest_strides) = (vec![0; dims.len()], vec![0; dims.len()]);
        let storage_len = table.bind(dims, &mut rest_extents, &mut rest_strides)?;
        Ok(DynMapping {
            layout: self.clone(),
            table,
            dims: dims.to_vec(),
            rest_extents,
            rest_strides,
            storage_len,
        })
    }
}

/// A [`DynLayout`] bound to logical dims: the run-time twin of [`Mapping`].
///
/// ```
/// use tensor_layout::prelude::*;
/// let dynamic = htp::R4CroutonLayout::default().to_dyn().bind(&[1, 3, 5, 30]).unwrap();
/// let typed = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
/// assert!(dynamic.same_function_as(&typed));
/// assert_eq!(dynamic.offset(&[0, 2, 4, 29]), Some(typed.offset([0, 2, 4, 29])));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynMapping {
    layout: DynLayout,
    table: ChunkTable,
    dims: Vec<usize>,
    rest_extents: Vec<usize>,
    rest_strides: Vec<usize>,
    storage_len: usize,
}

impl DynMapping {
    /// The layout.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.layout().rank(), 4);
    /// ```
    pub fn layout(&self) -> &DynLayout {
        &self.layout
    }

    /// The logical dims.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.dims(), [1, 2, 3, 4]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// The dims rounded up to whole blocks.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 2, 2]).unwrap();
    /// assert_eq!(m.padded_dims(), [1, 16, 2, 2]);
    /// ```
    pub fn padded_dims(&self) -> Vec<usize> {
        self.rest_extents
            .iter()
            .zip(&self.table.blocks)
            .map(|(e, b)| e * b)
            .collect()
    }

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 2, 2]).unwrap();
    /// assert_eq!(m.storage_len(), 64);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.storage_len
    }

    /// The storage as nested loops, most major first (see [`Layout`]'s axis model).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.axes().iter().map(|a| a.stride).collect::<Vec<_>>(), [24, 12, 4, 1]);
    /// ```
    pub fn axes(&self) -> Axes {
        self.table.axes(&self.rest_extents, &self.rest_strides)
    }

    /// Offset of `index`, `None` when it has the wrong length or lies outside the dims.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.offset(&[0, 1, 0, 0]), Some(1));
    /// assert_eq!(m.offset(&[0, 2, 0, 0]), None);
    /// assert_eq!(m.offset(&[0, 1, 0]), None);
    /// ```
    pub fn offset(&self, index: &[usize]) -> Option<usize> {
        let inside =
            index.len() == self.dims.len() && index.iter().zip(&self.dims).all(|(i, d)| i < d);
        inside.then(|| {
            self.axes()
                .iter()
                .map(|a| index[a.dim] / a.step % a.extent * a.stride)
                .sum()
        })
    }

    /// Whether no two logical indices share a storage slot (mdspan's `is_unique`): always, as
    /// for every chunk list ([`Mapping::is_unique`]).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 2, 2]).unwrap();
    /// assert!(m.is_unique());
    /// ```
    pub fn is_unique(&self) -> bool {
        true
    }

    /// One more than the largest offset of an element, 0 for an empty tensor (mdspan's
    /// `required_span_size`; see [`Mapping::required_span_size`]).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert_eq!((m.required_span_size(), m.storage_len()), (3, 16));
    /// ```
    pub fn required_span_size(&self) -> usize {
        let origin = alloc::vec![0; self.dims.len()];
        self.axes().required_span_size(&self.dims, &origin, 0)
    }

    /// Whether the elements fill every slot below the required span (mdspan's `is_exhaustive`;
    /// see [`Mapping::is_exhaustive`]).
    ///
    /// ```
    /// let layout = tensor_layout::DynLayout::parse("nChw16c").unwrap();
    /// assert!(layout.bind(&[1, 32, 2, 2]).unwrap().is_exhaustive());
    /// assert!(!layout.bind(&[1, 30, 2, 2]).unwrap().is_exhaustive());
    /// ```
    pub fn is_exhaustive(&self) -> bool {
        // Unique: distinct offsets below the span fill it exactly when there are as many.
        self.required_span_size() == self.dims.iter().product::<usize>()
    }

    /// Whether the offset is affine in the index on these dims (mdspan's `is_strided`; see
    /// [`Mapping::is_strided`]).
    ///
    /// ```
    /// let layout = tensor_layout::DynLayout::parse("nChw16c").unwrap();
    /// assert!(layout.bind(&[2, 16, 3, 3]).unwrap().is_strided());
    /// assert!(!layout.bind(&[2, 17, 3, 3]).unwrap().is_strided());
    /// ```
    pub fn is_strided(&self) -> bool {
        let origin = alloc::vec![0; self.dims.len()];
        self.axes().is_affine(&self.dims, &origin)
    }

    /// Whether the typed `mapping` is the same function: same dims, same storage length, every
    /// index at the same offset.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = tensor_layout::DynLayout::parse("4: 0,0 1,0 2,0 3,0 1,1").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert!(m.same_function_as(&Mapping::<onednn::nchw>::new([1, 2, 3, 4]).unwrap())); // a block of 1 is no block
    /// ```
    pub fn same_function_as<L: Layout>(&self, mapping: &Mapping<L>) -> bool {
        self.dims == mapping.dims().as_ref()
            && self.storage_len == mapping.storage_len()
            && self.axes().canonical() == mapping.axes().canonical()
    }
}
