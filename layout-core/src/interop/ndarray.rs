//! ndarray views of tensors (zero-copy, in their strided form) and tensors from ndarray views.

use crate::storage::{Storage, StorageMut};
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping, Tensor, interop::StridedForm, tensors::TensorBase};
use ::ndarray::{
    ArrayBase, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD, Dim, Dimension, Ix, IxDyn,
    RawData, ShapeBuilder, ShapeError,
};
use alloc::format;
use alloc::vec::Vec;

impl<S: Storage, L: Layout, I: crate::quantized::Interface> TensorBase<S, L, I> {
    /// The tensor as an ndarray view of its storage, without a copy, in its strided form
    /// ([`Mapping::strided_form`](crate::Mapping::strided_form)): a plain layout (`nchw`,
    /// `nhwc`, a slice or a permuted view) as its logical dims in its axis order, a blocked layout
    /// in blocked form with padding included (`nChw16c` on `[N, C, H, W]` as
    /// `[N, ceil(C / 16), H, W, 16]`).
    ///
    /// # Errors
    /// [`LayoutError::NoStridedForm`] for a layout that has no strided form (Sophgo local
    /// memory with its channels round the NPUs).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u16, onednn::nChw16c>::from_fn([1, 17, 2, 3], |[_, c, h, w]| (c * 100 + h * 10 + w) as u16);
    /// let a = t.as_ndarray().unwrap();
    /// assert_eq!(a.shape(), [1, 2, 2, 3, 16]);
    /// assert_eq!(a[[0, 1, 1, 2, 0]], 1612); // channel 16 + 0
    /// assert_eq!(a[[0, 1, 1, 2, 1]], 0); // channel 17: padding
    /// let nhwc = Tensor::<u16, onednn::nhwc>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as u16);
    /// let b = nhwc.as_ndarray().unwrap(); // logical NCHW order, NHWC strides
    /// assert_eq!((b.shape(), b.strides()), (&[1, 3, 2, 2][..], &[12, 1, 6, 3][..]));
    /// assert_eq!(b[[0, 2, 1, 0]], 210);
    /// ```
    pub fn as_ndarray(&self) -> Result<ArrayViewD<'_, S::Elem>, LayoutError> {
        let form = self.mapping().strided_form()?;
        let slots = &self.as_raw()[form.offset.min(self.storage_len())..];
        let slots = if form.span() == 0 { &slots[..0] } else { slots };
        ArrayView::from_shape(shape_of(&form), slots).map_err(|e| refused(self.mapping(), &e))
    }
}

impl<S: StorageMut, L: Layout, I: crate::quantized::Interface> TensorBase<S, L, I> {
    /// The tensor as a writable ndarray view of its storage, without a copy (see
    /// [`TensorBase::as_ndarray`]). A blocked layout's view includes its padding: what is
    /// written there is read back as padding (by [`TensorBase::as_raw`], relayout keeps
    /// writing the pad value into the destination's).
    ///
    /// # Errors
    /// As for [`TensorBase::as_ndarray`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<f32, onednn::nchw>::zeros([1, 2, 2, 2]);
    /// t.as_ndarray_mut().unwrap()[[0, 1, 0, 1]] = 5.0;
    /// assert_eq!(t[[0, 1, 0, 1]], 5.0);
    /// ```
    pub fn as_ndarray_mut(&mut self) -> Result<ArrayViewMutD<'_, S::Elem>, LayoutError> {
        let mapping = *self.mapping();
        let form = mapping.strided_form()?;
        let start = form.offset.min(self.storage_len());
        let slots = &mut self.as_raw_mut()[start..];
        let slots = if form.span() == 0 {
            &mut slots[..0]
        } else {
            slots
        };
        let refusal = |e: ShapeError| refused(&mapping, &e);
        ArrayViewMutD::from_shape(shape_of(&form), slots).map_err(refusal)
    }
}

impl<S: Storage, L, I: crate::quantized::Interface, const RANK: usize> TensorBase<S, L, I>
where
    L: Layout<Index = [usize; RANK]>,
    Dim<[Ix; RANK]>: Dimension,
{
    /// The tensor of a plain layout as an ndarray view of its rank known at compile time
    /// (`ArrayView4` for a rank-4 layout), without a copy: its logical dims in its axis order,
    /// with its strides (see [`TensorBase::as_ndarray`]), so that ndarray's calls that take the
    /// rank's own index types (`permuted_axes([0, 2, 3, 1])`, `[[n, c, h, w]]`) apply.
    ///
    /// # Errors
    /// [`LayoutError::BlockedForm`] for a blocked layout, whose strided form has more axes than
    /// dims: take its blocked form at dynamic rank with [`TensorBase::as_ndarray`].
    /// [`LayoutError::NoStridedForm`] as for [`TensorBase::as_ndarray`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::ndarray::ArrayView4;
    /// let t = Tensor::<u16, onednn::nchw>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as u16);
    /// let a: ArrayView4<u16> = t.as_ndarray_fixed().unwrap();
    /// let nhwc = a.permuted_axes([0, 2, 3, 1]);
    /// assert_eq!(nhwc[[0, 1, 0, 2]], 210);
    /// let blocked = Tensor::<u16, onednn::nChw16c>::zeros([1, 3, 2, 2]);
    /// let err = blocked.as_ndarray_fixed().unwrap_err();
    /// assert!(err.to_string().contains("take the blocked form at dynamic rank (as_ndarray)"));
    /// ```
    pub fn as_ndarray_fixed(&self) -> Result<ArrayView<'_, S::Elem, Dim<[Ix; RANK]>>, LayoutError> {
        let mapping = *self.mapping();
        fixed_rank(&mapping, self.as_ndarray()?)
    }
}

impl<S: StorageMut, L, I: crate::quantized::Interface, const RANK: usize> TensorBase<S, L, I>
where
    L: Layout<Index = [usize; RANK]>,
    Dim<[Ix; RANK]>: Dimension,
{
    /// The tensor of a plain layout as a writable ndarray view of its rank known at compile
    /// time, without a copy (see [`TensorBase::as_ndarray_fixed`]).
    ///
    /// # Errors
    /// As for [`TensorBase::as_ndarray_fixed`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<f32, onednn::nhwc>::zeros([1, 3, 2, 2]);
    /// let mut a = t.as_ndarray_fixed_mut().unwrap().permuted_axes([0, 2, 3, 1]); // NHWC order
    /// a[[0, 1, 0, 2]] = 5.0;
    /// assert_eq!(t[[0, 2, 1, 0]], 5.0);
    /// assert_eq!(t.as_raw()[8], 5.0); // dense NHWC: slot (h * W + w) * C + c = (1 * 2 + 0) * 3 + 2
    /// ```
    pub fn as_ndarray_fixed_mut(
        &mut self,
    ) -> Result<ArrayViewMut<'_, S::Elem, Dim<[Ix; RANK]>>, LayoutError> {
        let mapping = *self.mapping();
        fixed_rank(&mapping, self.as_ndarray_mut()?)
    }
}

impl<T: Element + Default, L, const RANK: usize> Tensor<T, L>
where
    L: Layout<Index = [usize; RANK]> + Default,
{
    /// A tensor holding the elements of `view`, whose shape is the logical dims in `L`'s axis
    /// order (`[N, C, H, W]` for `nChw16c`); padding is `T::default()`. The view may have any
    /// strides, negative and zero (broadcast) ones included. Copies.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when the view has another number of axes than `L`;
    /// [`LayoutError::Overflow`] as for [`Tensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::ndarray::{Array4, s};
    /// let a = Array4::from_shape_fn((1, 3, 2, 2), |(_, c, h, w)| (c * 100 + h * 10 + w) as u16);
    /// let flipped = a.slice(s![.., ..;-1, .., ..]); // channels reversed: a negative stride
    /// let t = Tensor::<u16, onednn::nChw8c>::from_ndarray(flipped).unwrap();
    /// assert_eq!(t[[0, 0, 1, 1]], 211);
    /// assert_eq!(t.as_raw()[3], 0); // channel 3 of 8: padding
    /// ```
    pub fn from_ndarray<D: Dimension>(view: ArrayView<'_, T, D>) -> Result<Self, LayoutError> {
        let view = view.into_dyn();
        let shape = view.shape();
        if shape.len() != RANK {
            return Err(LayoutError::Rank {
                expected: RANK,
                found: shape.len(),
            });
        }
        let dims: [usize; RANK] = core::array::from_fn(|d| shape[d]);
        if let Some(row_major) = view.as_slice() {
            return Self::from_row_major(dims, row_major);
        }
        Self::try_from_fn(dims, |index| view[&index[..]])
    }
}

/// `view` (of `mapping`'s strided form) at `mapping`'s rank.
///
/// # Errors
/// [`LayoutError::BlockedForm`] where the form has more axes: a blocked form.
fn fixed_rank<A: RawData, L: Layout, D: Dimension>(
    mapping: &Mapping<L>,
    view: ArrayBase<A, IxDyn>,
) -> Result<ArrayBase<A, D>, LayoutError> {
    let shape = view.shape().to_vec();
    view.into_dimensionality()
        .map_err(|_| LayoutError::BlockedForm {
            layout: format!("{}", mapping.layout()),
            rank: <L::Index as crate::mappings::Coords>::RANK,
            shape,
        })
}

/// The form's shape and strides; an empty array gets ndarray's own strides, as its offsets
/// reach nothing (a form's strides may reach past an empty slice).
fn shape_of(form: &StridedForm) -> ::ndarray::StrideShape<IxDyn> {
    if form.span() == 0 {
        return IxDyn(&form.shape).into();
    }
    IxDyn(&form.shape).strides(IxDyn(&form.strides))
}

/// ndarray refusing a form (only a writable view whose strides it cannot prove apart does).
fn refused<L: Layout>(mapping: &Mapping<L>, error: &ShapeError) -> LayoutError {
    LayoutError::NoStridedForm {
        layout: format!("{}", mapping.layout()),
        dims: Vec::from(mapping.dims().as_ref()),
        reason: format!("ndarray refuses its strides ({error})"),
    }
}
