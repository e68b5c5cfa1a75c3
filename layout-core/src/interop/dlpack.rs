//! DLPack: tensors exported as managed tensors (in their strided form) and imported from them.

use crate::tensors::Element;
use crate::{
    Layout, LayoutError, Mapping, Tensor, TensorView, layouts::Strided, tensors::TensorBase,
};
use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;
use core::fmt::Display;
use dlpark::ffi::{DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::metadata::Dynamic;
use dlpark::tensor::TensorRef;
use dlpark::{DlpackElement, Managed, ManagedTensorBase};

impl<T: DlpackElement + Element + Send, L: Layout> Tensor<T, L> {
    /// The tensor as a DLPack managed tensor (the versioned ABI, DLPack 1.x), without a copy:
    /// the managed tensor owns the tensor, and its deleter frees it. The shape and strides are
    /// the strided form ([`Mapping::strided_form`]): the logical dims in axis order for a
    /// plain layout, the blocked form with padding for a blocked one (`nChw16c` on
    /// `[N, C, H, W]` as `[N, ceil(C / 16), H, W, 16]`). The data is on the CPU, writable.
    ///
    /// To hand it to C (or to Python in a capsule named `"dltensor_versioned"`), take the
    /// pointer with [`Managed::into_raw`]; whoever holds it then calls its deleter once.
    ///
    /// # Errors
    /// [`LayoutError::NoStridedForm`] for a layout without a strided form;
    /// [`LayoutError::Dlpack`] when a shape or stride does not fit DLPack's `int64_t`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<f32, onednn::nChw16c>::from_fn([1, 17, 1, 2], |[_, c, _, w]| (c * 10 + w) as f32);
    /// let managed = t.into_dlpack().unwrap();
    /// let described = managed.validate().unwrap();
    /// assert_eq!(described.shape(), [1, 2, 1, 2, 16]);
    /// assert_eq!(described.strides(), Some(&[64, 32, 32, 16, 1][..]));
    /// // Back in a tensor of the blocked form's rank; reading DLPack memory is unsafe.
    /// let blocks = unsafe { Tensor::<f32, onednn_layout!("abcde")>::from_dlpack(&managed) }.unwrap();
    /// assert_eq!(blocks[[0, 1, 0, 1, 0]], 161.0);
    /// ```
    pub fn into_dlpack(self) -> Result<dlpark::versioned::Dlpack, LayoutError> {
        self.export::<DLManagedTensorVersioned>()
    }

    /// The tensor as a DLPack managed tensor of the legacy ABI (`DLManagedTensor`, what a
    /// Python capsule named `"dltensor"` holds and every DLPack consumer reads); otherwise as
    /// [`Tensor::into_dlpack`].
    ///
    /// # Errors
    /// As for [`Tensor::into_dlpack`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nhwc>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as u8);
    /// let managed = t.into_dlpack_legacy().unwrap();
    /// let described = managed.validate().unwrap();
    /// assert_eq!((described.shape(), described.strides()), (&[1, 3, 2, 2][..], Some(&[12, 1, 6, 3][..])));
    /// ```
    pub fn into_dlpack_legacy(self) -> Result<dlpark::legacy::Dlpack, LayoutError> {
        self.export::<DLManagedTensor>()
    }

    fn export<M: ManagedTensorBase>(self) -> Result<Managed<M>, LayoutError> {
        let form = self.mapping().strided_form()?;
        let (mapping, mut storage, pad, interface) = self.into_parts();
        // DLPack asks for a null data pointer when there are no elements.
        let (data, byte_offset) = if form.span() == 0 {
            (core::ptr::null_mut(), 0)
        } else {
            let byte_offset = (form.offset * size_of::<T>()) as u64;
            (storage.as_mut_ptr().cast(), byte_offset)
        };
        let owner = Box::new(Self::from_parts(mapping, storage, pad, interface));
        let mut initialized = Dynamic::new(form.shape, form.strides)
            .initialize_as::<M>(owner)
            .map_err(refused)?;
        initialized
            .set_data(data)
            .set_byte_offset(byte_offset)
            .set_dtype(T::DTYPE)
            .set_device(DLDevice::CPU);
        // SAFETY: `data` is the storage of the tensor the managed tensor now owns (moving the
        // tensor into its box did not move its heap memory), so it lives until the deleter
        // runs, and nothing else reads or writes it meanwhile. The strided form was checked to
        // stay within that storage, and `T::DTYPE` describes `T`. Shape and strides were copied
        // into the managed tensor, explicitly, as a local export must.
        Ok(unsafe { initialized.finish() })
    }
}

impl<T: DlpackElement + Element + Default, L, const RANK: usize> Tensor<T, L>
where
    L: Layout<Index = [usize; RANK]> + Default,
{
    /// A tensor holding a copy of the elements of a DLPack tensor, which is either
    ///
    /// - the logical dims in `L`'s axis order, with any strides, negative and zero ones
    ///   included: each element is copied to its place, padding is `T::default()`; or
    /// - `L`'s blocked form ([`Mapping::strided_form`]), what [`Tensor::into_dlpack`] exports
    ///   for a blocked layout: `nChw16c` as `[N, ceil(C / 16), H, W, 16]`, padding included.
    ///   DLPack does not carry the logical dims, so they are the padded dims the block counts
    ///   give (`C = 16 * ceil(C / 16)`), the padding slots becoming elements; give the logical
    ///   dims with [`Tensor::from_dlpack_with_dims`]. The shape must be the blocked form of
    ///   those dims, and the strides that form's own (its storage order), else an error names
    ///   both; the storage is copied as it is.
    ///
    /// Either ABI ([`dlpark::legacy::Dlpack`], [`dlpark::versioned::Dlpack`]). The DLPack
    /// tensor is only read: dropping it afterwards runs its deleter.
    ///
    /// # Safety
    /// DLPack does not carry the size of the memory behind its data pointer: the caller
    /// promises what [`dlpark::TryFromDlpack`] asks of its callers, that every element the
    /// shape and strides reach (from the data pointer plus the byte offset) is initialised,
    /// readable memory that nothing writes while this runs. A managed tensor made by a DLPack
    /// producer (NumPy, PyTorch, this crate) keeps that promise while it is alive and ready.
    ///
    /// # Errors
    /// [`LayoutError::Dlpack`] when the tensor is not on the CPU, its element type is not `T`,
    /// its rank is neither `L`'s nor that of `L`'s blocked form, a blocked form's shape or
    /// strides are not `L`'s, or DLPack's own checks refuse its descriptor (a negative dim, a
    /// misaligned or null data pointer); [`LayoutError::Overflow`] as for
    /// [`Tensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let nhwc = Tensor::<i32, onednn::nhwc>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as i32);
    /// let managed = nhwc.into_dlpack().unwrap();
    /// let nchw16c = unsafe { Tensor::<i32, onednn::nChw16c>::from_dlpack(&managed) }.unwrap();
    /// assert_eq!(nchw16c[[0, 2, 1, 0]], 210);
    /// let wrong = unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack(&managed) };
    /// assert!(matches!(wrong, Err(LayoutError::Dlpack { .. })));
    /// // The blocked form comes back into its layout, its 16 channels all elements now.
    /// let blocked = unsafe { Tensor::<i32, onednn::nChw16c>::from_dlpack(&nchw16c.clone().into_dlpack().unwrap()) }.unwrap();
    /// assert_eq!((blocked.dims(), blocked.as_raw()), ([1, 16, 2, 2], nchw16c.as_raw()));
    /// ```
    pub unsafe fn from_dlpack<M: ManagedTensorBase>(
        dlpack: &Managed<M>,
    ) -> Result<Self, LayoutError> {
        // SAFETY: the caller's promise, passed on.
        unsafe { Self::import(dlpack, None) }
    }

    /// A tensor of logical `dims` holding a copy of the elements of a DLPack tensor (see
    /// [`Tensor::from_dlpack`]): its shape `dims`, or the blocked form of `dims` in `L` (whose
    /// padding this tensor's pad value, `T::default()`, then fills).
    ///
    /// # Safety
    /// As for [`Tensor::from_dlpack`].
    ///
    /// # Errors
    /// As for [`Tensor::from_dlpack`], and [`LayoutError::Dlpack`] when the shape is neither
    /// `dims` nor their blocked form.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<f32, onednn::nChw16c>::from_fn([1, 17, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as f32);
    /// let managed = t.clone().into_dlpack().unwrap(); // [1, 2, 2, 2, 16]
    /// let back = unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack_with_dims(&managed, [1, 17, 2, 2]) }.unwrap();
    /// assert_eq!(back.as_raw(), t.as_raw());
    /// let err = unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack_with_dims(&managed, [1, 33, 2, 2]) }.unwrap_err();
    /// assert!(err.to_string().contains("dims [1, 33, 2, 2] (asked for) have the blocked form [1, 3, 2, 2, 16]"), "{err}");
    /// ```
    pub unsafe fn from_dlpack_with_dims<M: ManagedTensorBase>(
        dlpack: &Managed<M>,
        dims: [usize; RANK],
    ) -> Result<Self, LayoutError> {
        // SAFETY: the caller's promise, passed on.
        unsafe { Self::import(dlpack, Some(dims)) }
    }

    /// [`Tensor::from_dlpack`], of `dims` where given.
    ///
    /// # Safety
    /// As for [`Tensor::from_dlpack`].
    unsafe fn import<M: ManagedTensorBase>(
        dlpack: &Managed<M>,
        dims: Option<[usize; RANK]>,
    ) -> Result<Self, LayoutError> {
        let described = dlpack.validate().map_err(refused)?;
        let (shape, strides) = shape_and_strides::<T>(&described)?;
        if shape.len() != RANK {
            // SAFETY: the caller's promise, passed on.
            return unsafe { Self::import_blocked(&described, &shape, &strides, dims) };
        }
        let found: [usize; RANK] = core::array::from_fn(|d| shape[d]);
        if let Some(dims) = dims.filter(|&dims| dims != found) {
            return Err(LayoutError::Dlpack {
                reason: format!("the tensor's shape {found:?} is not the dims {dims:?} asked for"),
            });
        }
        let mut tensor = Self::try_zeros(found)?;
        if tensor.is_empty() {
            return Ok(tensor);
        }
        // SAFETY: validated descriptor; the caller vouches for the memory it describes.
        let first = unsafe { described.offset_data_ptr::<T>() }.map_err(refused)?;
        tensor.for_each_in_memory_order_mut(|index, slot| {
            let step: isize = (0..RANK).map(|d| index[d] as isize * strides[d]).sum();
            // SAFETY: `index` lies within the shape, so this is one of the elements the caller
            // promised readable; `step` cannot overflow, as `shape_and_strides` checked the
            // largest reach in bytes against `isize`.
            *slot = unsafe { first.wrapping_offset(step).read() };
        });
        Ok(tensor)
    }

    /// [`Tensor::from_dlpack`] of a tensor in `L`'s blocked form: its storage copied as it is.
    ///
    /// # Safety
    /// As for [`Tensor::from_dlpack`].
    unsafe fn import_blocked(
        described: &TensorRef<'_>,
        shape: &[usize],
        strides: &[isize],
        dims: Option<[usize; RANK]>,
    ) -> Result<Self, LayoutError> {
        let form = blocked_form_of::<L, RANK>(shape, strides, dims)?;
        let mut tensor = Self::try_zeros(form.dims)?;
        if tensor.is_empty() {
            return Ok(tensor);
        }
        // SAFETY: validated descriptor; the caller vouches for the memory it describes.
        let first = unsafe { described.offset_data_ptr::<T>() }.map_err(refused)?;
        // SAFETY: the shape and strides are the blocked form's, which reaches every slot of
        // `0..len` (checked by `blocked_form_of`): all elements the caller promised readable,
        // in one allocation; `len` elements fit `isize` bytes (checked by `shape_and_strides`).
        let slots = unsafe { core::slice::from_raw_parts(first, form.len) };
        tensor.as_raw_mut()[..form.len].copy_from_slice(slots);
        tensor.fill_padding(T::default());
        Ok(tensor)
    }
}

/// The logical dims of a DLPack tensor in `L`'s blocked form, and how many storage slots it
/// covers from its first element (every one of them).
struct BlockedImport<const RANK: usize> {
    dims: [usize; RANK],
    len: usize,
}

/// The dims whose blocked form in `L` a DLPack tensor of `shape` and `strides` is: `dims`
/// where given, else those its block counts give (padding included).
///
/// # Errors
/// [`LayoutError::Dlpack`] when `L` has no blocked form of that rank, or `shape` is not the
/// blocked form of the dims, or `strides` not the form's; both sides named.
fn blocked_form_of<L, const RANK: usize>(
    shape: &[usize],
    strides: &[isize],
    dims: Option<[usize; RANK]>,
) -> Result<BlockedImport<RANK>, LayoutError>
where
    L: Layout<Index = [usize; RANK]> + Default,
{
    let fail = |reason: alloc::string::String| Err(LayoutError::Dlpack { reason });
    // One element in each dimension: every block count 1, so the padded dims are the blocks.
    let unit = Mapping::<L>::new([1; RANK])?;
    let layout = format!("{}", unit.layout());
    let form_rank = unit.strided_form().map(|form| form.shape.len());
    if form_rank
        .as_ref()
        .map_or(true, |&r| r != shape.len() || r == RANK)
    {
        let blocked = match form_rank {
            Ok(r) if r != RANK => format!(" or {r} (its blocked form)"),
            _ => alloc::string::String::new(),
        };
        return fail(format!(
            "the tensor has {} dims; the layout ({layout}) takes {RANK} (its logical \
             dims){blocked}",
            shape.len()
        ));
    }
    let blocks = unit.padded_dims();
    let (dims, how) = match dims {
        Some(dims) => (dims, "asked for"),
        None => (
            core::array::from_fn(|d| shape[d] * blocks[d]),
            "its block counts",
        ),
    };
    let form = Mapping::<L>::new(dims)?.strided_form()?;
    if form.shape != shape {
        return fail(format!(
            "the tensor's shape {shape:?} is not the layout's blocked form: dims {dims:?} \
             ({how}) have the blocked form {:?} in {layout}",
            form.shape
        ));
    }
    let len: usize = shape.iter().product();
    if len == 0 {
        return Ok(BlockedImport { dims, len });
    }
    let own = form.strides.iter().map(|&s| s as isize);
    if !own.eq(strides.iter().copied()) || form.offset != 0 || form.span() != len {
        return fail(format!(
            "the tensor's strides {strides:?} are not those of the layout's blocked form \
             {shape:?}, {:?} (its storage order in {layout})",
            form.strides
        ));
    }
    Ok(BlockedImport { dims, len })
}

impl<'a, T: DlpackElement + Element + Default, const RANK: usize> TensorView<'a, T, Strided<RANK>> {
    /// A view of a DLPack tensor's memory, without a copy: a [`Strided`] layout with its
    /// shape as dims and its strides, for tensors whose strides are not negative (a view borrows
    /// one slice of memory, from the first element on). The view borrows the managed tensor,
    /// so the deleter cannot run while it lives. Copy with [`Tensor::from_dlpack`] instead for
    /// negative strides, or to own the data in another layout.
    ///
    /// # Safety
    /// The memory from the first element (data pointer plus byte offset) up to the last element
    /// the shape and strides reach is one initialised, readable allocation that nothing writes
    /// while the view lives.
    ///
    /// # Errors
    /// As for [`Tensor::from_dlpack`], and [`LayoutError::Dlpack`] for a negative stride.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// let t = Tensor::<u16, onednn::nhwc>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 100 + h * 10 + w) as u16);
    /// let managed = t.into_dlpack().unwrap();
    /// let view = unsafe { TensorView::<u16, Strided<4>>::from_dlpack(&managed) }.unwrap();
    /// assert_eq!(view.mapping().layout().strides(), [12, 1, 6, 3]);
    /// assert_eq!(view[[0, 2, 1, 0]], 210);
    /// ```
    pub unsafe fn from_dlpack<M: ManagedTensorBase>(
        dlpack: &'a Managed<M>,
    ) -> Result<Self, LayoutError> {
        let described = dlpack.validate().map_err(refused)?;
        let (dims, strides) = dims_and_strides::<T, RANK>(&described)?;
        if let Some(d) = strides.iter().position(|&s| s < 0) {
            return Err(LayoutError::Dlpack {
                reason: format!(
                    "stride {} of dimension {d} is negative; a view needs strides of 0 or more \
                     (copy with Tensor::from_dlpack instead)",
                    strides[d]
                ),
            });
        }
        let strides = strides.map(|s| s as usize);
        let mapping = Mapping::with_layout(Strided::new(strides, 0), dims)?;
        let len = mapping.storage_len();
        let slots: &'a [T] = if len == 0 {
            &[]
        } else {
            // SAFETY: validated descriptor; the caller vouches for the memory it describes.
            let first = unsafe { described.offset_data_ptr::<T>() }.map_err(refused)?;
            // SAFETY: `first` is non-null and aligned (checked by `offset_data_ptr`); the
            // caller promises the `len` elements up to the last one the strides reach are one
            // readable allocation, unwritten while `dlpack` is borrowed; `len` elements fit in
            // `isize` bytes (checked by `dims_and_strides`).
            unsafe { core::slice::from_raw_parts(first, len) }
        };
        Ok(TensorBase::from_parts(
            mapping,
            slots,
            T::default(),
            crate::quantized::Plain,
        ))
    }
}

/// The dims and element strides of a CPU tensor of `T` with `RANK` dims, its reach in bytes
/// checked to fit `isize`.
fn dims_and_strides<T: DlpackElement, const RANK: usize>(
    described: &TensorRef<'_>,
) -> Result<([usize; RANK], [isize; RANK]), LayoutError> {
    let (shape, strides) = shape_and_strides::<T>(described)?;
    if shape.len() != RANK {
        return Err(LayoutError::Dlpack {
            reason: format!("the tensor has {} dims, the layout {RANK}", shape.len()),
        });
    }
    Ok((
        core::array::from_fn(|d| shape[d]),
        core::array::from_fn(|d| strides[d]),
    ))
}

/// The shape and element strides of a CPU tensor of `T`, its reach in bytes checked to fit
/// `isize`.
fn shape_and_strides<T: DlpackElement>(
    described: &TensorRef<'_>,
) -> Result<(Vec<usize>, Vec<isize>), LayoutError> {
    let fail = |reason: alloc::string::String| Err(LayoutError::Dlpack { reason });
    if described.device().device_type != DLDeviceType::CPU {
        return fail(format!(
            "the tensor is on device {:?}, not on the CPU",
            described.device()
        ));
    }
    if described.dtype() != T::DTYPE {
        return fail(format!(
            "the tensor holds {:?}, not {} ({:?})",
            described.dtype(),
            core::any::type_name::<T>(),
            T::DTYPE
        ));
    }
    let shape = described.shape();
    let strides = described.strides_or_compact().map_err(refused)?;
    let mut dims = Vec::with_capacity(shape.len());
    let mut element_strides = Vec::with_capacity(shape.len());
    let mut reach: i128 = 0;
    for d in 0..shape.len() {
        let (Ok(dim), Ok(stride)) = (usize::try_from(shape[d]), isize::try_from(strides[d])) else {
            return fail(format!(
                "dim {d} has extent {} and stride {}: expected an extent of 0 or more and a \
                 stride that fits isize",
                shape[d], strides[d]
            ));
        };
        dims.push(dim);
        element_strides.push(stride);
        reach += (dim.saturating_sub(1) as i128) * (stride as i128).abs();
    }
    let bytes = (reach + 1) * size_of::<T>() as i128;
    if bytes > isize::MAX as i128 {
        return fail(format!(
            "its elements span {bytes} bytes, more than one allocation holds"
        ));
    }
    Ok((dims, element_strides))
}

/// A refusal by DLPack's own checks.
fn refused(error: impl Display) -> LayoutError {
    LayoutError::Dlpack {
        reason: format!("{error}"),
    }
}

/// Small exports and imports through every unsafe block here, fast enough for miri
/// (`cargo +nightly miri test -p layout-core --lib --features dlpack interop`).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chunk, ChunkedMemoryLayout};
    use alloc::vec;

    type Plain2 = ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>)>;
    type Blocked2 = ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 4>)>;

    #[test]
    fn exports_come_back_by_copy_and_by_view() {
        let t = Tensor::<u16, Blocked2>::from_fn([2, 5], |[r, c]| (r * 10 + c) as u16);
        let raw = t.as_raw().to_vec();
        let legacy = t.clone().into_dlpack_legacy().unwrap();
        type Blocks = ChunkedMemoryLayout<3, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>)>;
        let copy = unsafe { Tensor::<u16, Blocks>::from_dlpack(&legacy) }.unwrap();
        assert_eq!(copy.dims(), [2, 2, 4]);
        assert_eq!(copy.as_raw(), raw.as_slice());
        let view = unsafe { TensorView::<u16, Strided<3>>::from_dlpack(&legacy) }.unwrap();
        assert_eq!(view[[1, 1, 0]], 14);
        drop(legacy);
        let versioned = t.into_dlpack().unwrap();
        // The blocked form back in its layout: of the logical dims, or of the padded ones.
        let exact = unsafe { Tensor::<u16, Blocked2>::from_dlpack_with_dims(&versioned, [2, 5]) };
        assert_eq!(exact.unwrap().as_raw(), raw.as_slice());
        let padded = unsafe { Tensor::<u16, Blocked2>::from_dlpack(&versioned) }.unwrap();
        assert_eq!((padded.dims(), padded.as_raw()), ([2, 8], raw.as_slice()));
        let other = unsafe { Tensor::<u16, Plain2>::from_dlpack(&versioned) };
        assert!(other.is_err()); // rank 3, and Plain2 has no blocked form
    }

    #[test]
    fn negative_and_zero_strides_and_offsets() {
        let mapping = Mapping::with_layout(Strided::new([1, 2], 1), [2, 3]).unwrap();
        let mut t = Tensor::try_filled(mapping, 0i32, -1).unwrap();
        for r in 0..2 {
            for c in 0..3 {
                t[[r, c]] = (r * 10 + c) as i32;
            }
        }
        let managed = t.into_dlpack().unwrap();
        let copy = unsafe { Tensor::<i32, Plain2>::from_dlpack(&managed) }.unwrap();
        assert_eq!(copy.to_row_major(), [0, 1, 2, 10, 11, 12]);
        let mut data = Box::new(vec![1.0f32, 2.0, 3.0]);
        let pointer = data.as_mut_ptr().cast();
        let mut init = Dynamic::new([2i64, 3], [0i64, -1])
            .initialize(data)
            .unwrap();
        init.set_data(pointer)
            .set_byte_offset(8)
            .set_dtype(f32::DTYPE)
            .set_device(DLDevice::CPU);
        let reversed = unsafe { init.finish() };
        let copy = unsafe { Tensor::<f32, Plain2>::from_dlpack(&reversed) }.unwrap();
        assert_eq!(copy.to_row_major(), [3.0, 2.0, 1.0, 3.0, 2.0, 1.0]);
        assert!(unsafe { TensorView::<f32, Strided<2>>::from_dlpack(&reversed) }.is_err());
    }

    #[test]
    fn empty_tensors() {
        let t = Tensor::<f64, Blocked2>::from_fn([0, 3], |_| 1.0);
        let managed = t.into_dlpack().unwrap();
        let copy = unsafe { Tensor::<f64, Plain2>::from_dlpack(&managed) };
        assert!(copy.is_err()); // rank 3 in blocked form
        let blocked = unsafe { Tensor::<f64, Blocked2>::from_dlpack(&managed) }.unwrap();
        assert_eq!(blocked.dims(), [0, 4]);
        let back = unsafe { TensorView::<f64, Strided<3>>::from_dlpack(&managed) }.unwrap();
        assert!(back.is_empty());
    }
}
