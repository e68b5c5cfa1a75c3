//! Views that change shape without copying: slices, and dims reordered by name or by number.
//! Each is a [`Strided`] mapping over the same storage.

use crate::axis_names::{check_convertible, positions};
use crate::interface::contract::channel_position;
use crate::storage::{Storage, StorageMut};
use crate::{
    Layout, LayoutError, Mapping, TensorView, TensorViewMut, axes::AxisNames, axes::PositionalAxes,
    axes::SameAxesAs, layouts::Strided, tensors::TensorBase,
};
use crate::{axes::AxisWord, quantized::Interface};
use core::ops::Range;

/// A view through a strided mapping with axis names `N`.
type StridedView<'a, T, const RANK: usize, N, I> = TensorView<'a, T, Strided<RANK, N>, I>;

/// A writable view through a strided mapping with axis names `N`.
type StridedViewMut<'a, T, const RANK: usize, N, I> = TensorViewMut<'a, T, Strided<RANK, N>, I>;

/// The view's mapping with axis names `N`, or why the tensor has none.
fn strided_mapping<L, N, const RANK: usize>(
    mapping: &Mapping<L>,
    reshape: impl FnOnce(&mut [usize; RANK], &mut [usize; RANK], &mut usize) -> Result<(), LayoutError>,
) -> Result<Mapping<Strided<RANK, N>>, LayoutError>
where
    L: Layout<Index = [usize; RANK]>,
    N: AxisNames,
{
    let mut strides = mapping.strides().ok_or_else(|| LayoutError::NotStrided {
        layout: alloc::format!("{}", mapping.layout()),
    })?;
    let mut dims = mapping.dims();
    let mut offset = mapping.base_offset();
    reshape(&mut dims, &mut strides, &mut offset)?;
    Mapping::with_layout(Strided::named(strides, offset), dims)
}

fn permuted<const RANK: usize>(
    order: [usize; RANK],
    dims: &mut [usize; RANK],
    strides: &mut [usize; RANK],
) -> Result<(), LayoutError> {
    let mut used = [false; RANK];
    for &d in &order {
        if d >= RANK || core::mem::replace(&mut used[d], true) {
            return Err(LayoutError::BadPermutation {
                order: order.to_vec(),
            });
        }
    }
    let (old_dims, old_strides) = (*dims, *strides);
    for (i, &d) in order.iter().enumerate() {
        dims[i] = old_dims[d];
        strides[i] = old_strides[d];
    }
    Ok(())
}

/// For each axis of a view named `N`, the axis of `layout` with the same name.
fn order_by_name<L, N, const RANK: usize>(layout: &L) -> Result<[usize; RANK], LayoutError>
where
    L: Layout<Index = [usize; RANK]>,
    N: AxisNames,
{
    let () = const { check_convertible::<L::Names, N>(RANK) };
    let view_word = Strided::<RANK, N>::named([0; RANK], 0).axis_word();
    let at = positions(&view_word, &layout.axis_word())?;
    Ok(core::array::from_fn(|d| at[d]))
}

fn sliced<const RANK: usize>(
    dim: usize,
    range: &Range<usize>,
    dims: &mut [usize; RANK],
    strides: &[usize; RANK],
    offset: &mut usize,
) -> Result<(), LayoutError> {
    let extent = dims.get(dim).copied();
    match extent {
        Some(extent) if range.start <= range.end && range.end <= extent => {
            *offset += range.start * strides[dim];
            dims[dim] = range.end - range.start;
            Ok(())
        }
        _ => Err(LayoutError::SliceOutOfRange {
            dim,
            start: range.start,
            end: range.end,
            extent: extent.unwrap_or(0),
        }),
    }
}

/// The view of `mapping` with dimension `i` being its dimension `order[i]`, names `N`.
fn permuted_mapping<L, N, const RANK: usize>(
    mapping: &Mapping<L>,
    order: [usize; RANK],
) -> Result<Mapping<Strided<RANK, N>>, LayoutError>
where
    L: Layout<Index = [usize; RANK]>,
    N: AxisNames,
{
    strided_mapping(mapping, |dims, strides, _| permuted(order, dims, strides))
}

/// The view of `mapping` with its axes in the order of `N`, by name.
fn by_name_mapping<L, N, const RANK: usize>(
    mapping: &Mapping<L>,
) -> Result<Mapping<Strided<RANK, N>>, LayoutError>
where
    L: Layout<Index = [usize; RANK]>,
    N: AxisNames,
{
    let order = order_by_name::<L, N, RANK>(mapping.layout())?;
    permuted_mapping(mapping, order)
}

/// The view of `mapping` with `range` of dimension `dim`, names kept.
fn sliced_mapping<L, const RANK: usize>(
    mapping: &Mapping<L>,
    dim: usize,
    range: Range<usize>,
) -> Result<Mapping<Strided<RANK, L::Names>>, LayoutError>
where
    L: Layout<Index = [usize; RANK]>,
{
    strided_mapping(mapping, |dims, strides, offset| {
        sliced(dim, &range, dims, strides, offset)
    })
}

impl<S: Storage, L: Layout<Index = [usize; RANK]>, const RANK: usize, I: Interface>
    TensorBase<S, L, I>
{
    fn strided_view<N: AxisNames>(
        &self,
        mapping: Mapping<Strided<RANK, N>>,
        interface: I,
    ) -> TensorView<'_, S::Elem, Strided<RANK, N>, I> {
        TensorBase::from_parts(
            mapping,
            &self.as_raw()[..mapping.storage_len()],
            self.pad_value(),
            interface,
        )
    }

    /// The interface of the part of this tensor with `range` of dimension `dim`.
    pub(super) fn sliced_interface(&self, dim: usize, range: &Range<usize>) -> I {
        let word = self.mapping().layout().axis_word();
        let on_dim = (dim < word.rank()).then(|| word.letter(dim));
        match self.interface().channel_axis() {
            Some(axis) if on_dim == Some(axis) => self.interface().channels(range.clone()),
            _ => self.interface().clone(),
        }
    }

    /// The interface of a view whose dimension `i` is this tensor's `order[i]`, with positional
    /// axes named by their new place.
    fn permuted_interface(&self, order: &[usize; RANK]) -> I {
        let interface = self.interface();
        let from = channel_position(interface, &self.mapping().layout().axis_word());
        match from.and_then(|from| order.iter().position(|&d| d == from)) {
            Some(to) => interface.on_axis(AxisWord::positional(RANK).letter(to)),
            None => interface.clone(),
        }
    }

    /// The same data seen with its axes in the order of `N`, a word of the same names: an NHWC
    /// tensor seen as NCHW has dims `[n, c, h, w]` and `view[[n, c, h, w]] == t[[n, h, w, c]]`.
    /// No copy; the view's type says what each index means.
    ///
    /// # Errors
    /// [`LayoutError::NotStrided`] for a blocked layout. Names that are not the same set do not
    /// compile.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let nchw = Tensor::<u8, onednn::nchw>::from_fn([1, 2, 3, 4], |[_, c, h, w]| (c * 100 + h * 10 + w) as u8);
    /// let as_nhwc = nchw.align_to::<names::NHWC>().unwrap();
    /// assert_eq!(as_nhwc.dims(), [1, 3, 4, 2]);
    /// assert_eq!(as_nhwc[[0, 2, 3, 1]], nchw[[0, 1, 2, 3]]);
    /// assert_eq!(as_nhwc.mapping().layout().axis_word().as_str(), "NHWC");
    /// ```
    pub fn align_to<N: SameAxesAs<L::Names>>(
        &self,
    ) -> Result<TensorView<'_, S::Elem, Strided<RANK, N>, I>, LayoutError> {
        Ok(self.strided_view(by_name_mapping(self.mapping())?, self.interface().clone()))
    }

    /// Renamed [`TensorBase::align_to`]: `permute` and `transpose` reorder by number, `align_to`
    /// by name.
    ///
    /// # Errors
    /// As for [`TensorBase::align_to`].
    #[deprecated(
        note = "renamed to `align_to` (by name); `permute` and `transpose` reorder by number"
    )]
    pub fn permuted<N: SameAxesAs<L::Names>>(
        &self,
    ) -> Result<TensorView<'_, S::Elem, Strided<RANK, N>, I>, LayoutError> {
        self.align_to()
    }

    /// The sub-tensor with `range` of dimension `dim` (a sub-tensor inside a bigger one, as in
    /// oneDNN's strided memory descriptors). No copy; the axes keep their names.
    ///
    /// # Errors
    /// [`LayoutError::NotStrided`] for a blocked layout; [`LayoutError::SliceOutOfRange`] when the
    /// range does not lie within the dimension.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nchw>::from_fn([1, 1, 4, 4], |[.., h, w]| (h * 4 + w) as u8);
    /// let rows = t.slice(2, 1..3).unwrap(); // a view borrows what it was made from
    /// let middle = rows.slice(3, 1..3).unwrap();
    /// assert_eq!(middle.to_row_major(), [5, 6, 9, 10]);
    /// assert_eq!(middle.mapping().layout().axis_word().as_str(), "NCHW");
    /// assert!(t.slice(3, 2..5).is_err());
    /// ```
    pub fn slice(
        &self,
        dim: usize,
        range: Range<usize>,
    ) -> Result<StridedView<'_, S::Elem, RANK, L::Names, I>, LayoutError> {
        let interface = self.sliced_interface(dim, &range);
        Ok(self.strided_view(sliced_mapping(self.mapping(), dim, range)?, interface))
    }
    /// The same data with its dims reordered: dimension `i` of the view is dimension `order[i]`
    /// of this tensor. No copy. For positional axes only: a tensor with named axes is reordered
    /// by name ([`TensorBase::align_to`]).
    ///
    /// # Errors
    /// [`LayoutError::NotStrided`] for a blocked layout; [`LayoutError::BadPermutation`] when
    /// `order` is not a permutation of the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let abcd = Tensor::<u8, onednn_layout!("abcd")>::from_fn([1, 2, 3, 4], |[_, b, c, d]| (b * 100 + c * 10 + d) as u8);
    /// let acdb = abcd.permute([0, 2, 3, 1]).unwrap();
    /// assert_eq!(acdb.dims(), [1, 3, 4, 2]);
    /// assert_eq!(acdb[[0, 2, 3, 1]], abcd[[0, 1, 2, 3]]);
    /// ```
    pub fn permute(
        &self,
        order: [usize; RANK],
    ) -> Result<TensorView<'_, S::Elem, Strided<RANK>, I>, LayoutError>
    where
        L::Names: PositionalAxes,
    {
        let mapping = permuted_mapping(self.mapping(), order)?;
        Ok(self.strided_view(mapping, self.permuted_interface(&order)))
    }

    /// The same data with dims `a` and `b` swapped. No copy. For positional axes only.
    ///
    /// # Errors
    /// As for [`TensorBase::permute`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, chunked_layout![2; 0,0, 1,0]>::from_row_major([2, 3], &[1, 2, 3, 4, 5, 6]).unwrap();
    /// let tt = t.transpose(0, 1).unwrap();
    /// assert_eq!(tt.to_row_major(), [1, 4, 2, 5, 3, 6]);
    /// ```
    pub fn transpose(
        &self,
        a: usize,
        b: usize,
    ) -> Result<TensorView<'_, S::Elem, Strided<RANK>, I>, LayoutError>
    where
        L::Names: PositionalAxes,
    {
        let mut order: [usize; RANK] = core::array::from_fn(|d| d);
        if a >= RANK || b >= RANK {
            return Err(LayoutError::BadPermutation {
                order: [a, b].to_vec(),
            });
        }
        order.swap(a, b);
        self.permute(order)
    }
}

impl<S: StorageMut, L: Layout<Index = [usize; RANK]>, const RANK: usize, I: Interface>
    TensorBase<S, L, I>
{
    fn strided_view_mut<N: AxisNames>(
        &mut self,
        mapping: Mapping<Strided<RANK, N>>,
        interface: I,
    ) -> TensorViewMut<'_, S::Elem, Strided<RANK, N>, I> {
        let pad = self.pad_value();
        TensorBase::from_parts(
            mapping,
            &mut self.as_raw_mut()[..mapping.storage_len()],
            pad,
            interface,
        )
    }

    /// A writable sub-tensor (see [`TensorBase::slice`]): writes land in this tensor.
    ///
    /// # Errors
    /// As for [`TensorBase::slice`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, onednn::nchw>::zeros([1, 1, 3, 3]);
    /// let patch = Tensor::<u8, onednn::nhwc>::from_fn([1, 1, 2, 2], |_| 7);
    /// let mut rows = t.slice_mut(2, 1..3).unwrap();
    /// patch.relayout_into(&mut rows.slice_mut(3, 0..2).unwrap()).unwrap();
    /// assert_eq!(t.to_row_major(), [0, 0, 0, 7, 7, 0, 7, 7, 0]); // the lower-left 2x2
    /// ```
    pub fn slice_mut(
        &mut self,
        dim: usize,
        range: Range<usize>,
    ) -> Result<StridedViewMut<'_, S::Elem, RANK, L::Names, I>, LayoutError> {
        let interface = self.sliced_interface(dim, &range);
        let mapping = sliced_mapping(self.mapping(), dim, range)?;
        Ok(self.strided_view_mut(mapping, interface))
    }

    /// A writable view with its axes in the order of `N` (see [`TensorBase::align_to`]).
    ///
    /// # Errors
    /// As for [`TensorBase::align_to`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut nchw = Tensor::<u8, onednn::nchw>::zeros([1, 2, 2, 2]);
    /// nchw.align_to_mut::<names::NHWC>().unwrap()[[0, 1, 0, 1]] = 9; // (n, h, w, c)
    /// assert_eq!(nchw[[0, 1, 1, 0]], 9);
    /// ```
    pub fn align_to_mut<N: SameAxesAs<L::Names>>(
        &mut self,
    ) -> Result<TensorViewMut<'_, S::Elem, Strided<RANK, N>, I>, LayoutError> {
        let mapping = by_name_mapping(self.mapping())?;
        let interface = self.interface().clone();
        Ok(self.strided_view_mut(mapping, interface))
    }

    /// Renamed [`TensorBase::align_to_mut`].
    ///
    /// # Errors
    /// As for [`TensorBase::align_to`].
    #[deprecated(note = "renamed to `align_to_mut` (by name); `permute_mut` reorders by number")]
    pub fn permuted_mut<N: SameAxesAs<L::Names>>(
        &mut self,
    ) -> Result<TensorViewMut<'_, S::Elem, Strided<RANK, N>, I>, LayoutError> {
        self.align_to_mut()
    }
    /// A writable view with dims reordered by number (see [`TensorBase::permute`]).
    ///
    /// # Errors
    /// As for [`TensorBase::permute`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut abcd = Tensor::<u8, onednn_layout!("abcd")>::zeros([1, 2, 2, 2]);
    /// abcd.permute_mut([0, 2, 3, 1]).unwrap()[[0, 1, 0, 1]] = 9;
    /// assert_eq!(abcd[[0, 1, 1, 0]], 9);
    /// ```
    pub fn permute_mut(
        &mut self,
        order: [usize; RANK],
    ) -> Result<TensorViewMut<'_, S::Elem, Strided<RANK>, I>, LayoutError>
    where
        L::Names: PositionalAxes,
    {
        let mapping = permuted_mapping(self.mapping(), order)?;
        let interface = self.permuted_interface(&order);
        Ok(self.strided_view_mut(mapping, interface))
    }
}
