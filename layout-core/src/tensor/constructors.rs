//! Building tensors: owned ones filled or computed, and views of storage the caller holds.

use super::{Tensor, TensorView, TensorViewMut};
use crate::storage::{AlignedBuffer, StorageMut};
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping, mappings::row_major_strides};
use crate::{quantized::Interface, quantized::Plain};
use alloc::vec::Vec;
use core::mem::MaybeUninit;

/// A failed allocation of `mapping`'s storage of `T`s, an overflow told in the mapping's dims.
fn storage_error<T, L: Layout>(error: LayoutError, mapping: &Mapping<L>) -> LayoutError {
    match error {
        LayoutError::Overflow { .. } => LayoutError::Overflow {
            dims: Vec::from(mapping.dims().as_ref()),
            element_size: Some(size_of::<T>()),
        },
        other => other,
    }
}

impl<T: Element, L: Layout> Tensor<T, L> {
    /// A tensor whose every slot, padding included, is `T::default()` (zero for numbers).
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`Tensor::try_zeros`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<f32, htp::R4FlatMemoryLayout>::zeros([1, 2, 2, 3]);
    /// assert_eq!(t.to_row_major(), [0.0; 12]);
    /// ```
    pub fn zeros(dims: L::Index) -> Self
    where
        T: Default,
        L: Default,
    {
        Self::try_zeros(dims).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor whose every slot, padding included, is `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage does not fit in `usize` elements or its bytes
    /// exceed one allocation (`isize::MAX`); [`LayoutError::Allocation`] when the allocator
    /// refuses a valid size.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let too_many = Tensor::<u8, htp::R4FlatMemoryLayout>::try_zeros([1 << 32, 1 << 32, 1 << 32, 1]);
    /// assert!(matches!(too_many, Err(LayoutError::Overflow { element_size: None, .. })));
    /// let too_large = Tensor::<f64, htp::R4FlatMemoryLayout>::try_zeros([1 << 31, 1 << 31, 1, 1]);
    /// assert!(matches!(too_large, Err(LayoutError::Overflow { element_size: Some(8), .. })));
    /// ```
    pub fn try_zeros(dims: L::Index) -> Result<Self, LayoutError>
    where
        T: Default,
        L: Default,
    {
        Self::try_filled(Mapping::new(dims)?, T::default(), T::default())
    }

    /// A tensor for `mapping` with every logical element `value` and every padding slot `pad`.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`Tensor::try_filled`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let t = Tensor::filled(m, 1u8, 128);
    /// assert_eq!(t.as_raw()[29..31], [1, 128]);
    /// ```
    pub fn filled(mapping: Mapping<L>, value: T, pad: T) -> Self {
        Self::try_filled(mapping, value, pad).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor for `mapping` with every logical element `value` and every padding slot `pad`
    /// (see [`Tensor::filled`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage exceeds one allocation (`isize::MAX` bytes);
    /// [`LayoutError::Allocation`] when the allocator refuses; [`LayoutError::StridesOverlap`]
    /// when two indices share a slot ([`Mapping::is_unique`]): a tensor is writable.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let t = Tensor::try_filled(m, 1u8, 128).unwrap();
    /// assert_eq!(t.as_raw()[29..31], [1, 128]);
    /// let diagonal = Mapping::with_layout(Strided::new([1, 1], 0), [2, 2]).unwrap();
    /// assert!(Tensor::try_filled(diagonal, 1u8, 0).is_err());
    /// ```
    pub fn try_filled(mapping: Mapping<L>, value: T, pad: T) -> Result<Self, LayoutError> {
        let mut tensor = Self::uninitialised(mapping, pad, Plain)?;
        let slots = tensor.storage.slots_mut();
        mapping.for_each_run(|run| fill_run(slots, run.offset, run.len, run.stride, value));
        Ok(tensor)
    }

    /// A tensor holding `f(index)` at every logical index; padding is `T::default()`.
    ///
    /// # Panics
    /// When the storage overflows (see [`Tensor::try_from_fn`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u32, htp::R4FlatMemoryLayout>::from_fn([1, 1, 2, 3], |[_, _, w, c]| (w * 3 + c) as u32);
    /// assert_eq!(t.to_row_major(), [0, 1, 2, 3, 4, 5]);
    /// ```
    pub fn from_fn(dims: L::Index, f: impl FnMut(L::Index) -> T) -> Self
    where
        T: Default,
        L: Default,
    {
        Self::try_from_fn(dims, f).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor holding `f(index)` at every logical index (called in memory order); padding is
    /// `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] as for [`Tensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4FlatMemoryLayout>::try_from_fn([1, 1, 1, 3], |[.., c]| c as u8).unwrap();
    /// assert_eq!(t.as_raw(), [0, 1, 2]);
    /// ```
    pub fn try_from_fn(
        dims: L::Index,
        mut f: impl FnMut(L::Index) -> T,
    ) -> Result<Self, LayoutError>
    where
        T: Default,
        L: Default,
    {
        let mut tensor = Self::try_zeros(dims)?;
        tensor.for_each_in_memory_order_mut(|index, slot| *slot = f(index));
        Ok(tensor)
    }

    /// A tensor holding `data`, the logical elements in row-major order (the last dim fastest);
    /// padding is `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `data.len()` is not the product of the dims;
    /// [`LayoutError::Overflow`] as for [`Tensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let data: Vec<u8> = (0..6).collect();
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 3], &data).unwrap();
    /// assert_eq!(t.as_raw(), [0, 3, 1, 4, 2, 5]); // width outermost in memory
    /// assert!(Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 3], &data[1..]).is_err());
    /// ```
    pub fn from_row_major(dims: L::Index, data: &[T]) -> Result<Self, LayoutError>
    where
        T: Default,
        L: Default,
    {
        let mut tensor = Self::try_zeros(dims)?;
        if data.len() != tensor.len() {
            return Err(LayoutError::Length {
                expected: tensor.len(),
                found: data.len(),
            });
        }
        let row_major = row_major_strides(&dims);
        let mapping = tensor.mapping;
        let slots = tensor.storage.slots_mut();
        mapping.for_each_run(|run| {
            let (base, step) = run.in_strided(&row_major);
            for j in 0..run.len {
                slots[run.offset + j * run.stride] = data[base + j * step];
            }
        });
        Ok(tensor)
    }
}

impl<T: Element, L: Layout, I: Interface> Tensor<T, L, I> {
    /// Storage for `mapping` with every slot `pad`; the caller writes every logical slot (and,
    /// for a per-channel interface, the padding). An owned tensor is writable, so its mapping
    /// must be unique.
    pub(crate) fn uninitialised(
        mapping: Mapping<L>,
        pad: T,
        interface: I,
    ) -> Result<Self, LayoutError> {
        Self::allocated(mapping, pad, interface, |mapping| {
            AlignedBuffer::filled(mapping.storage_len(), pad)
        })
    }

    /// Storage for `mapping` whose every slot `write` writes, handed the mapping and the new
    /// memory before any slot holds a value: for a destination the relayout overwrites whole,
    /// which [`Tensor::uninitialised`] would fill first for nothing.
    ///
    /// # Safety
    /// `write` writes every slot of the slice it is given (padding included) before it
    /// returns, and reads a slot only after writing it.
    pub(crate) unsafe fn written(
        mapping: Mapping<L>,
        pad: T,
        interface: I,
        write: impl FnOnce(&Mapping<L>, &mut [MaybeUninit<T>]),
    ) -> Result<Self, LayoutError> {
        Self::allocated(mapping, pad, interface, |mapping| {
            // SAFETY: `write` writes every slot (the caller's promise).
            unsafe {
                AlignedBuffer::written_by(mapping.storage_len(), |slots| write(mapping, slots))
            }
        })
    }

    /// The tensor of `mapping` over the storage `allocate` makes for it, once `mapping` is
    /// known to be unique (an owned tensor is writable); a failed allocation's overflow is told
    /// in the mapping's dims.
    fn allocated(
        mapping: Mapping<L>,
        pad: T,
        interface: I,
        allocate: impl FnOnce(&Mapping<L>) -> Result<AlignedBuffer<T>, LayoutError>,
    ) -> Result<Self, LayoutError> {
        check_unique(&mapping)?;
        let storage = allocate(&mapping).map_err(|e| storage_error::<T, _>(e, &mapping))?;
        Ok(Self {
            mapping,
            storage,
            pad,
            interface,
        })
    }
}

impl<'a, T: Element + Default, L: Layout> TensorView<'a, T, L> {
    /// A view of `storage` (padding included) through `mapping`; its pad value is `T::default()`
    /// and its padding is trusted as it is. [`TensorView::from_slice_with`] reads the storage
    /// through an interface and checks the padding.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not `mapping.storage_len()`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let raw = [1u8, 2, 3, 4, 5, 6];
    /// let m = Mapping::<htp::R4NCHWMemoryLayout>::new([1, 1, 2, 3]).unwrap();
    /// let v = TensorView::from_slice(m, &raw).unwrap();
    /// assert_eq!(v[[0, 0, 1, 0]], 2);
    /// ```
    pub fn from_slice(mapping: Mapping<L>, storage: &'a [T]) -> Result<Self, LayoutError> {
        check_len(&mapping, storage.len())?;
        Ok(Self {
            mapping,
            storage,
            pad: T::default(),
            interface: Plain,
        })
    }
}

impl<'a, T: Element + Default, L: Layout> TensorViewMut<'a, T, L> {
    /// A writable view of `storage` (padding included) through `mapping`; pad value
    /// `T::default()`, which relayouts into the view write into its padding. Nothing is written
    /// here: the padding is trusted as it is. [`TensorViewMut::from_slice_with`] reads the storage
    /// through an interface and fills or checks the padding.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not `mapping.storage_len()`;
    /// [`LayoutError::StridesOverlap`] when two indices share a slot ([`Mapping::is_unique`]):
    /// a write to one would change the other. [`TensorView::from_slice`] takes such a mapping.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// let mut raw = [0u8; 6];
    /// let m = Mapping::<htp::R4NCHWMemoryLayout>::new([1, 1, 2, 3]).unwrap();
    /// TensorViewMut::from_slice(m, &mut raw).unwrap()[[0, 0, 1, 0]] = 9;
    /// assert_eq!(raw, [0, 9, 0, 0, 0, 0]);
    /// // One row seen three times: readable, not writable.
    /// let rows = Mapping::with_layout(Strided::new([0, 1], 0), [3, 6]).unwrap();
    /// assert!(matches!(TensorViewMut::from_slice(rows, &mut raw), Err(LayoutError::StridesOverlap { .. })));
    /// assert_eq!(TensorView::from_slice(rows, &raw).unwrap()[[2, 1]], 9);
    /// ```
    pub fn from_slice(mapping: Mapping<L>, storage: &'a mut [T]) -> Result<Self, LayoutError> {
        check_len(&mapping, storage.len())?;
        check_unique(&mapping)?;
        Ok(Self {
            mapping,
            storage,
            pad: T::default(),
            interface: Plain,
        })
    }
}

pub(super) fn check_len<L: Layout>(mapping: &Mapping<L>, found: usize) -> Result<(), LayoutError> {
    let expected = mapping.storage_len();
    if found == expected {
        Ok(())
    } else {
        Err(LayoutError::Length { expected, found })
    }
}

/// Refuses a mapping in which two indices share a slot, naming a pair of them and the strides.
pub(super) fn check_unique<L: Layout>(mapping: &Mapping<L>) -> Result<(), LayoutError> {
    match mapping.shared_slot() {
        None => Ok(()),
        Some((first, second)) => Err(LayoutError::StridesOverlap {
            strides: mapping
                .strides()
                .map_or_else(Vec::new, |s| Vec::from(s.as_ref())),
            dims: Vec::from(mapping.dims().as_ref()),
            first: Vec::from(first.as_ref()),
            second: Vec::from(second.as_ref()),
        }),
    }
}

fn fill_run<T: Element>(slots: &mut [T], offset: usize, len: usize, stride: usize, value: T) {
    if stride == 1 {
        slots[offset..offset + len].fill(value);
    } else {
        for j in 0..len {
            slots[offset + j * stride] = value;
        }
    }
}
