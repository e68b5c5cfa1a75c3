//! [`DynMapping`]: a run-time layout bound to dims, and its contracts.

use crate::blocking::{DynBlockingDesc, inner_blocks};
use crate::dyn_layout::DynLayout;
use crate::{
    Layout, LayoutError, Mapping, axes::AxisWord, layouts::Axes, layouts::ChunkListSummary,
    mappings::AnyMapping, mappings::MAX_RANK,
};
use alloc::string::{String, ToString};
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
    /// assert_eq!(m.offset(&[1, 9, 2, 4]), 24 * 15 + 120 + 2 * 40 + 4 * 8 + 1);
    /// ```
    pub fn bind(&self, dims: &[usize]) -> Result<DynMapping, LayoutError> {
        if dims.len() != self.rank() {
            return Err(LayoutError::Rank {
                expected: self.rank(),
                found: dims.len(),
            });
        }
        let table = ChunkListSummary::new(self.entries());
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
/// assert_eq!(dynamic.offset(&[0, 2, 4, 29]), typed.offset([0, 2, 4, 29]));
/// assert_eq!(dynamic.checked_offset(&[0, 3, 0, 0]), typed.checked_offset([0, 3, 0, 0]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynMapping {
    layout: DynLayout,
    table: ChunkListSummary,
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

    /// Number of logical elements (the product of the dims).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 2, 2]).unwrap();
    /// assert_eq!(m.len(), 12);
    /// ```
    pub fn len(&self) -> usize {
        // Cannot overflow: it is at most the storage length, which fits.
        self.dims.iter().product()
    }

    /// Whether some dim is zero.
    ///
    /// ```
    /// assert!(tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 0, 2, 2]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Elements in one contiguous innermost chunk (1 for a layout without fixed entries), as
    /// [`Mapping::chunk_volume`].
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("htp::R4CroutonLayout").unwrap().bind(&[1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.chunk_volume(), 2048);
    /// ```
    pub fn chunk_volume(&self) -> usize {
        self.table.chunk_volume
    }

    /// Offset of `index`, which must lie within the dims, as [`Mapping::offset`]; use
    /// [`DynMapping::checked_offset`] or [`DynMapping::try_offset`] for untrusted input.
    ///
    /// # Panics
    /// When `index` has another number of coordinates than the rank or lies outside the dims
    /// (the message names both).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.offset(&[0, 1, 2, 3]), 1 + 2 * 8 + 3 * 2);
    /// ```
    pub fn offset(&self, index: &[usize]) -> usize {
        match self.try_offset(index) {
            Ok(offset) => offset,
            Err(error) => panic!("{error}"),
        }
    }

    /// Offset of `index`, `None` when it has another number of coordinates than the rank or lies
    /// outside the dims, as [`Mapping::checked_offset`].
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.checked_offset(&[0, 1, 0, 0]), Some(1));
    /// assert_eq!(m.checked_offset(&[0, 2, 0, 0]), None);
    /// assert_eq!(m.checked_offset(&[0, 1, 0]), None);
    /// ```
    pub fn checked_offset(&self, index: &[usize]) -> Option<usize> {
        let inside =
            index.len() == self.dims.len() && index.iter().zip(&self.dims).all(|(i, d)| i < d);
        inside.then(|| {
            self.table
                .entries()
                .iter()
                .map(|e| e.offset_term(index[e.dim], self.rest_strides[e.dim]))
                .sum()
        })
    }

    /// Offset of `index`, or an error saying why it has none, as [`Mapping::try_offset`].
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `index` has another number of coordinates than the rank;
    /// [`LayoutError::IndexOutOfBounds`] naming the index and the dims when it lies outside them.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nchw").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(m.try_offset(&[0, 1, 2, 3]), Ok(12 + 8 + 3));
    /// let err = m.try_offset(&[0, 3, 0, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "index [0, 3, 0, 0] is out of bounds for dims [1, 2, 3, 4]");
    /// ```
    pub fn try_offset(&self, index: &[usize]) -> Result<usize, LayoutError> {
        AnyMapping::try_offset(self, index)
    }

    /// The coordinates, within the padded dims, of storage slot `offset`; `None` past the end,
    /// as [`Mapping::padded_index_of`].
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw4c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert_eq!(m.padded_index_of(3), Some(vec![0, 3, 0, 0]));
    /// assert_eq!(m.padded_index_of(4), None);
    /// ```
    pub fn padded_index_of(&self, offset: usize) -> Option<Vec<usize>> {
        if offset >= self.storage_len {
            return None;
        }
        // Axes come in decreasing stride order: peel off each digit, most major first.
        let mut rest = offset;
        let mut index = vec![0; self.dims.len()];
        for axis in self.axes().iter().filter(|a| a.stride > 0) {
            let digit = (rest / axis.stride).min(axis.extent - 1);
            rest -= digit * axis.stride;
            index[axis.dim] += digit * axis.step;
        }
        (rest == 0).then_some(index)
    }

    /// The logical index stored at `offset`; `None` for a padding slot or past the end, as
    /// [`Mapping::index_of`].
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw4c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert_eq!(m.index_of(2), Some(vec![0, 2, 0, 0]));
    /// assert_eq!(m.index_of(3), None);
    /// ```
    pub fn index_of(&self, offset: usize) -> Option<Vec<usize>> {
        AnyMapping::index_of(self, offset)
    }

    /// Whether storage slot `offset` is padding (`false` past the end), as
    /// [`Mapping::is_padding`].
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw4c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert!(m.is_padding(3));
    /// assert!(!m.is_padding(2) && !m.is_padding(4));
    /// ```
    pub fn is_padding(&self, offset: usize) -> bool {
        AnyMapping::is_padding(self, offset)
    }

    /// This mapping as oneDNN's blocking descriptor: dims, padded dims, the stride of each
    /// dimension's outer index, and the inner blocks (see [`DynBlockingDesc`]), as typed
    /// mappings give it ([`Mapping::blocking_desc`]).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("OIhw16i16o").unwrap().bind(&[32, 48, 3, 3]).unwrap();
    /// let desc = m.blocking_desc();
    /// assert_eq!(desc.padded_dims, [32, 48, 3, 3]);
    /// assert_eq!(desc.strides, [3 * 48 * 3 * 16, 3 * 3 * 256, 3 * 256, 256]);
    /// assert_eq!((desc.inner_blks, desc.inner_idxs), (vec![16, 16], vec![1, 0])); // i, then o
    /// ```
    pub fn blocking_desc(&self) -> DynBlockingDesc {
        let (inner_blks, inner_idxs) = inner_blocks(self.layout.entries());
        DynBlockingDesc {
            dims: self.dims.clone(),
            padded_dims: self.padded_dims(),
            strides: self.rest_strides.clone(),
            inner_blks,
            inner_idxs,
        }
    }

    /// This mapping's storage as one strided array, as typed mappings give it
    /// ([`Mapping::strided_form`]): the logical dims for a plain layout, the blocked form with
    /// padding for a blocked one.
    ///
    /// # Errors
    /// [`LayoutError::NoStridedForm`] as for [`Mapping::strided_form`] (every chunk list has a
    /// strided form; the error is kept for the contract's sake).
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("nChw16c").unwrap().bind(&[2, 17, 3, 5]).unwrap();
    /// let form = m.strided_form().unwrap();
    /// assert_eq!((form.shape, form.strides), (vec![2, 2, 3, 5, 16], vec![480, 240, 80, 16, 1]));
    /// ```
    pub fn strided_form(&self) -> Result<crate::interop::StridedForm, LayoutError> {
        macro_rules! by_rank {
            ($($rank:literal)+) => {
                match self.dims.len() {
                    $($rank => {
                        let dims: [usize; $rank] = core::array::from_fn(|d| self.dims[d]);
                        Mapping::with_layout(self.layout.ranked::<$rank>()?, dims)?.strided_form()
                    })+
                    rank => Err(LayoutError::Rank { expected: MAX_RANK, found: rank }),
                }
            };
        }
        by_rank!(1 2 3 4 5 6 7 8)
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

impl DynMapping {
    /// Runs `work` on this mapping as a typed [`Mapping`] of its rank (over
    /// [`DynChunked`](crate::dynamic::DynChunked)), for what only the typed code computes.
    fn with_ranked<T>(&self, work: impl FnOnce(&dyn AnyMapping) -> T) -> T {
        macro_rules! ranks {
            ($($r:literal)+) => {
                match self.dims.len() {
                    $($r => {
                        let layout = self.layout.ranked::<$r>().expect("the layout has this rank");
                        let dims: [usize; $r] = self.dims[..].try_into().expect("the dims have this rank");
                        let typed = Mapping::with_layout(layout, dims).expect("these dims bound once already");
                        work(&typed)
                    })+
                    other => unreachable!("a chunk list has rank 1 to {MAX_RANK}, not {other}"),
                }
            };
        }
        const _: () = assert!(MAX_RANK == 8, "one arm per rank");
        ranks!(1 2 3 4 5 6 7 8)
    }

    /// The memory order in the HTP documentation's notation, as [`Mapping::memory_order`]
    /// prints it: `folded` joins the runs of one chunk; at most `max_lines` lines.
    ///
    /// ```
    /// let m = tensor_layout::DynLayout::parse("htp::R4CroutonLayout").unwrap().bind(&[1, 2, 1, 30]).unwrap();
    /// assert_eq!(m.memory_order_text(false, usize::MAX),
    ///     "(0,0,0,0) ... (0,0,0,29)  pad (0,0,0,30) ... (0,0,7,31) [226 slots]\n\
    ///      (0,1,0,0) ... (0,1,0,29)  pad (0,1,0,30) ... (0,7,7,31) [1762 slots]\n");
    /// ```
    pub fn memory_order_text(&self, folded: bool, max_lines: usize) -> String {
        self.with_ranked(|typed| typed.memory_order_text(folded, max_lines))
    }
}

impl AnyMapping for DynMapping {
    fn axis_word(&self) -> AxisWord {
        self.layout.axis_word()
    }

    fn layout_text(&self) -> String {
        self.layout.to_string()
    }

    fn dims(&self) -> &[usize] {
        &self.dims
    }

    fn padded_dims(&self) -> Vec<usize> {
        DynMapping::padded_dims(self)
    }

    fn storage_len(&self) -> usize {
        self.storage_len
    }

    fn axes(&self) -> Axes {
        DynMapping::axes(self)
    }

    fn chunk_volume(&self) -> usize {
        DynMapping::chunk_volume(self)
    }

    fn checked_offset(&self, index: &[usize]) -> Option<usize> {
        DynMapping::checked_offset(self, index)
    }

    fn padded_index_of(&self, offset: usize) -> Option<Vec<usize>> {
        DynMapping::padded_index_of(self, offset)
    }

    fn memory_order_text(&self, folded: bool, max_lines: usize) -> String {
        DynMapping::memory_order_text(self, folded, max_lines)
    }
}
