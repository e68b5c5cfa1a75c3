//! Tensors and plain buffers: an owned tensor from a `Vec` and back, views of byte buffers, and
//! the storage as bytes.

use super::constructors::check_unique;
use super::{Tensor, TensorBase, TensorView, TensorViewMut};
use crate::storage::{AlignedBuffer, Storage, StorageMut};
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping};
use crate::{quantized::Interface, quantized::Plain};
use alloc::string::String;
use alloc::vec::Vec;
use bytemuck::{NoUninit, Pod};

impl<T: Element + Default, L: Layout + Default> Tensor<T, L> {
    /// A tensor owning `storage`, its slots in storage order, padding included (what
    /// [`Tensor::into_vec`] and [`TensorBase::as_raw`] give back); the pad value is
    /// `T::default()`, whatever the padding slots of `storage` hold.
    ///
    /// Copies only when it must: tensor storage is aligned to 128 bytes
    /// ([`STORAGE_ALIGN`](crate::storage::STORAGE_ALIGN)), so the `Vec`'s memory becomes the tensor's when
    /// its first element's address is a multiple of 128 (or of `T`'s alignment, if larger), and
    /// is otherwise copied into new aligned memory and freed. Most allocators align small blocks
    /// to 16 bytes only, so expect a copy unless the `Vec` came from [`Tensor::into_vec`] of a
    /// tensor made here without one, or `T` is itself aligned to 128 bytes.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not the storage length of `dims` (padding
    /// included); [`LayoutError::Overflow`] when that length overflows.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// // nChw8c with 3 channels: each (n, h, w) holds 8 slots, 5 of them padding.
    /// let raw: Vec<u8> = (0..2 * 8).map(|i| if i % 8 < 3 { i } else { 0 }).collect();
    /// let t = Tensor::<u8, onednn::nChw8c>::from_vec([1, 3, 1, 2], raw).unwrap();
    /// assert_eq!(t.to_row_major(), [0, 8, 1, 9, 2, 10]);
    /// assert!(Tensor::<u8, onednn::nChw8c>::from_vec([1, 3, 1, 2], vec![0; 6]).is_err());
    /// ```
    pub fn from_vec(dims: L::Index, storage: Vec<T>) -> Result<Self, LayoutError> {
        let mapping = Mapping::<L>::new(dims)?;
        if storage.len() != mapping.storage_len() {
            return Err(LayoutError::Length {
                expected: mapping.storage_len(),
                found: storage.len(),
            });
        }
        Ok(Self::from_parts(
            mapping,
            AlignedBuffer::from_vec(storage),
            T::default(),
            Plain,
        ))
    }
}

impl<T: Element, L: Layout, I: Interface> Tensor<T, L, I> {
    /// The storage, in storage order, padding included. Without a copy when the tensor's memory
    /// came from [`Tensor::from_vec`] without one (a `Vec` must free memory as it was
    /// allocated); otherwise one copy, the tensor's memory then freed.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nChw8c>::from_fn([1, 3, 1, 1], |[_, c, _, _]| c as u8 + 1);
    /// assert_eq!(t.into_vec(), [1, 2, 3, 0, 0, 0, 0, 0]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        let (_, storage, _, _) = self.into_parts();
        storage.into_vec()
    }
}

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I>
where
    S::Elem: NoUninit,
{
    /// The storage as bytes, padding included, in storage order (each element in the machine's
    /// byte order).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u16, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| 0x0102 * (w as u16 + 1));
    /// assert_eq!(t.as_bytes(), [0x0102u16.to_ne_bytes(), 0x0204u16.to_ne_bytes()].concat());
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(self.as_raw())
    }
}

impl<S: StorageMut, L: Layout, I: Interface> TensorBase<S, L, I>
where
    S::Elem: Pod,
{
    /// The storage as writable bytes, padding included. For element types every bit pattern
    /// of which is a value ([`Pod`]), so no byte written can make an invalid element.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u16, onednn::nchw>::zeros([1, 1, 1, 2]);
    /// t.as_bytes_mut()[2..].copy_from_slice(&7u16.to_ne_bytes());
    /// assert_eq!(t.to_row_major(), [0, 7]);
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(self.as_raw_mut())
    }
}

impl<'a, T: Pod + Element, L: Layout> TensorView<'a, T, L> {
    /// A view of `bytes` as the storage of `mapping` (padding included) in elements of `T`, in
    /// the machine's byte order; the pad value is zero. No copy.
    ///
    /// # Errors
    /// [`LayoutError::ByteLength`] when `bytes` is not `mapping.storage_len()` elements of `T`;
    /// [`LayoutError::ByteAlignment`] when `bytes` does not start at a multiple of `T`'s
    /// alignment.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let words = [1u32, 2, 3, 4];
    /// let bytes: &[u8] = tensor_layout::bytemuck::cast_slice(&words);
    /// let m = Mapping::<onednn::nhwc>::new([1, 2, 1, 2]).unwrap(); // channels innermost
    /// let v = TensorView::<u32, _>::from_bytes(m, bytes).unwrap();
    /// assert_eq!(v[[0, 1, 0, 0]], 2);
    /// ```
    pub fn from_bytes(mapping: Mapping<L>, bytes: &'a [u8]) -> Result<Self, LayoutError> {
        check_bytes::<T>(mapping.storage_len(), bytes.as_ptr() as usize, bytes.len())?;
        Ok(Self::from_parts(
            mapping,
            bytemuck::cast_slice(bytes),
            T::zeroed(),
            Plain,
        ))
    }
}

impl<'a, T: Pod + Element, L: Layout> TensorViewMut<'a, T, L> {
    /// A writable view of `bytes` as the storage of `mapping` (see [`TensorView::from_bytes`]).
    ///
    /// # Errors
    /// As for [`TensorView::from_bytes`], and [`LayoutError::StridesOverlap`] when two indices
    /// of `mapping` share a slot.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut words = [0u32; 4];
    /// let m = Mapping::<onednn::nchw>::new([1, 1, 2, 2]).unwrap();
    /// let bytes: &mut [u8] = tensor_layout::bytemuck::cast_slice_mut(&mut words);
    /// TensorViewMut::<u32, _>::from_bytes_mut(m, bytes).unwrap()[[0, 0, 1, 0]] = 9;
    /// assert_eq!(words, [0, 0, 9, 0]);
    /// ```
    pub fn from_bytes_mut(mapping: Mapping<L>, bytes: &'a mut [u8]) -> Result<Self, LayoutError> {
        check_bytes::<T>(mapping.storage_len(), bytes.as_ptr() as usize, bytes.len())?;
        check_unique(&mapping)?;
        Ok(Self::from_parts(
            mapping,
            bytemuck::cast_slice_mut(bytes),
            T::zeroed(),
            Plain,
        ))
    }
}

/// Whether `len` bytes at `address` hold exactly `slots` elements of `T`, aligned.
fn check_bytes<T>(slots: usize, address: usize, len: usize) -> Result<(), LayoutError> {
    let size = size_of::<T>();
    let expected = slots.checked_mul(size);
    if expected != Some(len) {
        return Err(LayoutError::ByteLength {
            expected: expected.unwrap_or(usize::MAX),
            element_size: size,
            found: len,
        });
    }
    if !address.is_multiple_of(align_of::<T>()) {
        return Err(LayoutError::ByteAlignment {
            address,
            alignment: align_of::<T>(),
            element: String::from(core::any::type_name::<T>()),
        });
    }
    Ok(())
}
