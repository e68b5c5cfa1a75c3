//! Relayouts of storage another library owns (a NumPy array, a DLPack tensor) by the typed
//! engine, for layouts known only at run time: into a new [`DynTensor`], or into storage that
//! is borrowed too.

use crate::tensors::Element;
use crate::{
    DynLayout, DynTensor, LayoutError, Mapping, TensorView, TensorViewMut, dynamic::DynChunked,
    dynamic::DynMapping, quantized::ChannelZeros, quantized::Interface, quantized::Plain,
};

/// `$body` with `$r` a constant holding the value of `$rank`, dispatched once on the rank (1 to
/// 8, the ranks of typed layouts) so that the typed engine runs; another rank is a
/// [`LayoutError::Rank`] against `$expected`.
macro_rules! at_rank {
    (@arms ($rank:expr, $expected:expr) $r:ident $body:tt $($n:literal)+) => {
        match $rank {
            $($n => {
                const $r: usize = $n;
                $body
            })+
            found => Err(LayoutError::Rank { expected: $expected, found }),
        }
    };
    ($rank:expr, $expected:expr, $r:ident => $body:expr) => {
        at_rank!(@arms ($rank, $expected) $r ($body) 1 2 3 4 5 6 7 8)
    };
}

/// The rank of `src` and `dst` when they have the same, else the [`LayoutError::Rank`] of `src`
/// against `dst`.
fn same_rank(src: usize, dst: usize) -> Result<usize, LayoutError> {
    if src == dst {
        Ok(src)
    } else {
        Err(LayoutError::Rank {
            expected: dst,
            found: src,
        })
    }
}

impl<T: Element> DynTensor<T> {
    /// A new tensor of `layout` holding the elements of `storage` read as `src` (borrowed
    /// storage, such as another library's array), moved by axis name as
    /// [`DynTensor::relayout`] moves them; padding is `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage` does not hold `src`'s storage length;
    /// [`LayoutError::AxisNames`] when `layout`'s axes have other names than `src`'s;
    /// [`LayoutError::Rank`] when it has another rank; [`LayoutError::Overflow`] when its
    /// storage overflows.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let nchw = DynLayout::parse("nchw").unwrap().bind(&[1, 2, 1, 2]).unwrap();
    /// let t = DynTensor::from_relayout(&nchw, &[1u16, 2, 3, 4], &DynLayout::parse("nhwc").unwrap()).unwrap();
    /// assert_eq!(t.as_raw(), [1, 3, 2, 4]);
    /// assert!(DynTensor::from_relayout(&nchw, &[1u16, 2, 3], &DynLayout::parse("nhwc").unwrap()).is_err());
    /// ```
    ///
    /// Formerly `DynTensor::relayout_from`, a name that now writes into an existing tensor as on
    /// the other kinds ([`DynTensor::relayout_from`]).
    pub fn from_relayout(
        src: &DynMapping,
        storage: &[T],
        layout: &DynLayout,
    ) -> Result<Self, LayoutError>
    where
        T: Default + Send + Sync + 'static,
    {
        at_rank!(src.dims().len(), layout.rank(), RANK => {
            relayout_ranked::<T, Plain, RANK>(src, storage, T::default(), Plain, layout)
        })
    }

    /// Writes the elements of `src_storage`, read as `src`, into `dst_storage`, read as `dst`,
    /// moved by axis name as [`DynTensor::try_relayout`] moves them, and `T::default()` into every
    /// padding slot of `dst`: a relayout between two buffers that other code owns.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when a storage does not hold its mapping's storage length;
    /// [`LayoutError::AxisNames`] when `dst`'s axes have other names than `src`'s;
    /// [`LayoutError::ShapeMismatch`] when `dst`'s dims are not `src`'s in `dst`'s axis order;
    /// [`LayoutError::Rank`] when the ranks differ. `dst_storage` is then left untouched.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let nchw = DynLayout::parse("nchw").unwrap().bind(&[1, 2, 1, 2]).unwrap();
    /// let nhwc = DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 1, 2]).unwrap();
    /// let mut out = [0u8; 4];
    /// DynTensor::relayout_between(&nchw, &[1, 2, 3, 4], &nhwc, &mut out).unwrap();
    /// assert_eq!(out, [1, 3, 2, 4]);
    /// let wrong = DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 2, 1]).unwrap();
    /// assert!(DynTensor::relayout_between(&nchw, &[1, 2, 3, 4], &wrong, &mut out).is_err());
    /// ```
    pub fn relayout_between(
        src: &DynMapping,
        src_storage: &[T],
        dst: &DynMapping,
        dst_storage: &mut [T],
    ) -> Result<(), LayoutError>
    where
        T: Default + Send + Sync + 'static,
    {
        let rank = same_rank(src.dims().len(), dst.dims().len())?;
        at_rank!(rank, rank, RANK => {
            let view = TensorView::from_slice(typed::<RANK>(src)?, src_storage)?;
            let mut out = TensorViewMut::from_slice(typed::<RANK>(dst)?, dst_storage)?;
            view.relayout_into(&mut out)
        })
    }
}

impl<T: Element, I: Interface> DynTensor<T, I> {
    /// Converts into a new tensor of `layout`, moving each element by axis name as
    /// [`TensorBase::relayout`](crate::tensors::TensorBase::relayout) does: `layout`'s axes are this
    /// tensor's names in any order, and the new dims are this tensor's in that order.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`DynTensor::try_relayout`] returns.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nchw").unwrap(), &[1, 2, 1, 2], &[1u8, 2, 3, 4]).unwrap();
    /// assert_eq!(t.relayout(&DynLayout::parse("nhwc").unwrap()).as_raw(), [1, 3, 2, 4]);
    /// ```
    pub fn relayout(&self, layout: &DynLayout) -> DynTensor<T, I>
    where
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        self.try_relayout(layout).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Converts into a new tensor of `layout`, moving each element by axis name (see
    /// [`DynTensor::relayout`]).
    ///
    /// # Errors
    /// [`LayoutError::AxisNames`] when `layout`'s axes have other names;
    /// [`LayoutError::Rank`] when it has another rank; [`LayoutError::Overflow`] when its
    /// storage overflows.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let flat = DynLayout::parse("htp::R4FlatMemoryLayout").unwrap();
    /// let t = DynTensor::from_row_major(flat, &[1, 2, 3, 4], &(0..24).collect::<Vec<u8>>()).unwrap();
    /// let blocked = t.try_relayout(&DynLayout::parse("nChw16c").unwrap()).unwrap();
    /// assert_eq!(blocked.dims(), [1, 4, 2, 3]); // N, C, H, W
    /// assert_eq!(blocked.as_raw()[..3], [0, 1, 2]); // the channels of pixel (0, 0) lie together
    /// assert!(t.try_relayout(&DynLayout::parse("oihw").unwrap()).is_err());
    /// ```
    pub fn try_relayout(&self, layout: &DynLayout) -> Result<DynTensor<T, I>, LayoutError>
    where
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        let (src, pad, interface) = (self.mapping(), self.pad_value(), self.interface().clone());
        at_rank!(src.dims().len(), layout.rank(), RANK => {
            relayout_ranked::<T, I, RANK>(src, self.as_raw(), pad, interface, layout)
        })
    }

    /// Writes this tensor's logical elements into `dst` by axis name, and `dst`'s pad value into
    /// its padding, as [`TensorBase::relayout_into`](crate::tensors::TensorBase::relayout_into) does.
    ///
    /// # Errors
    /// [`LayoutError::AxisNames`] when `dst`'s axes have other names; [`LayoutError::Rank`]
    /// when the ranks differ; [`LayoutError::ShapeMismatch`] when `dst`'s dims are not this
    /// tensor's in `dst`'s axis order; [`LayoutError::InterfaceMismatch`] when the interfaces
    /// differ. `dst` is then left untouched.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let src = DynTensor::from_row_major(DynLayout::parse("nchw").unwrap(), &[1, 2, 1, 2], &[1u8, 2, 3, 4]).unwrap();
    /// // oneDNN's `nhwc` keeps the logical order NCHW: the same dims, another memory order.
    /// let mut dst = DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2]).unwrap();
    /// src.relayout_into(&mut dst).unwrap();
    /// assert_eq!(dst.as_raw(), [1, 3, 2, 4]);
    /// let mut wrong = DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 1, 2, 2]).unwrap();
    /// assert!(src.relayout_into(&mut wrong).is_err());
    /// ```
    pub fn relayout_into(&self, dst: &mut DynTensor<T, I>) -> Result<(), LayoutError>
    where
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        let rank = same_rank(self.mapping().dims().len(), dst.mapping().dims().len())?;
        at_rank!(rank, rank, RANK => {
            let (from, into) = (typed::<RANK>(self.mapping())?, typed::<RANK>(dst.mapping())?);
            let (pad, interface) = (self.pad_value(), self.interface().clone());
            let view = TensorView::from_parts(from, self.as_raw(), pad, interface);
            let (pad, interface) = (dst.pad_value(), dst.interface().clone());
            let mut out = TensorViewMut::from_parts(into, dst.as_raw_mut(), pad, interface);
            view.relayout_into(&mut out)
        })
    }

    /// Overwrites this tensor with `src`'s logical elements, moved by axis name, and its padding
    /// with its pad value: [`DynTensor::relayout_into`] seen from the destination.
    ///
    /// # Errors
    /// As for [`DynTensor::relayout_into`]; this tensor is then left untouched.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let src = DynTensor::from_row_major(DynLayout::parse("nchw").unwrap(), &[1, 2, 1, 2], &[1u8, 2, 3, 4]).unwrap();
    /// let mut dst = DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2]).unwrap();
    /// dst.relayout_from(&src).unwrap();
    /// assert_eq!(dst.as_raw(), [1, 3, 2, 4]);
    /// ```
    pub fn relayout_from(&mut self, src: &DynTensor<T, I>) -> Result<(), LayoutError>
    where
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        src.relayout_into(self)
    }
}

/// `mapping` as a typed [`Mapping`] of rank `RANK`.
fn typed<const RANK: usize>(
    mapping: &DynMapping,
) -> Result<Mapping<DynChunked<RANK>>, LayoutError> {
    let dims: [usize; RANK] = core::array::from_fn(|d| mapping.dims()[d]);
    Mapping::with_layout(mapping.layout().ranked::<RANK>()?, dims)
}

/// The relayout of `storage`, read as `src`, into a new tensor of `layout`, at rank `RANK`.
fn relayout_ranked<T, I, const RANK: usize>(
    src: &DynMapping,
    storage: &[T],
    pad: T,
    interface: I,
    layout: &DynLayout,
) -> Result<DynTensor<T, I>, LayoutError>
where
    T: Element + Send + Sync + 'static,
    I: ChannelZeros<T>,
{
    let (mapping, dst_layout) = (typed::<RANK>(src)?, layout.ranked()?);
    if storage.len() != mapping.storage_len() {
        return Err(LayoutError::Length {
            expected: mapping.storage_len(),
            found: storage.len(),
        });
    }
    let view = TensorView::from_parts(mapping, storage, pad, interface);
    let out = view.relayout_to(dst_layout)?;
    let (mapping, storage, pad, interface) = out.into_parts();
    Ok(DynTensor::rebound(
        mapping.layout().to_dyn(),
        &mapping.dims(),
        storage,
        pad,
        interface,
    ))
}
