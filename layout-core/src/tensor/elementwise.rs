//! Element-wise work over logical elements only: padding is never read by `f` nor written by
//! it, so an operation with `f(pad) != pad` (an activation with an offset, a reciprocal) cannot
//! leak into padding, as it can when a kernel runs over the whole storage.

use super::{Tensor, TensorBase};
use crate::storage::{Storage, StorageMut};
use crate::table_chunks::TableChunksMut;
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping, mappings::RowMajorIndices};
use crate::{
    quantized::ChannelZeros, quantized::Interface, quantized::Plain, quantized::RealValues,
};
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::ptr::NonNull;

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// A plain tensor of `f` applied to each logical element, with this tensor's mapping; its
    /// padding holds `U::default()`.
    ///
    /// # Panics
    /// When the mapping lets two indices share a slot (a read-only view with overlapping
    /// strides), or its storage cannot be allocated.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 1, 3], |[.., c]| c as u8);
    /// let doubled: Tensor<u16, htp::R4CroutonLayout> = t.map(|v| u16::from(v) * 2 + 1);
    /// assert_eq!(doubled.to_row_major(), [1, 3, 5]);
    /// assert_eq!(doubled.as_raw()[3], 0); // padding: not f(0) = 1
    /// ```
    pub fn map<U: Element + Default>(&self, mut f: impl FnMut(S::Elem) -> U) -> Tensor<U, L> {
        let mut out = Tensor::uninitialised(self.mapping, U::default(), Plain)
            .unwrap_or_else(|e| panic!("{e}"));
        let (src, dst) = (self.as_raw(), out.storage.slots_mut());
        self.mapping.for_each_run(|run| {
            for j in 0..run.len {
                let at = run.offset + j * run.stride;
                dst[at] = f(src[at]);
            }
        });
        out
    }

    /// `f` applied to each logical element's real value, stored back through the same
    /// interface (rounded, saturated); padding holds the stored zero.
    ///
    /// # Panics
    /// As for [`TensorBase::map`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 128);
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::try_from_real_fn([1, 1, 1, 3], q, |[.., c]| c as f32 - 1.0).unwrap();
    /// let relu = t.map_real(|x| x.max(0.0) + 0.5);
    /// assert_eq!(relu.to_row_major(), [129, 129, 131]);
    /// assert_eq!(relu.as_raw()[3], 128); // padding stays real 0, not relu(0) + 0.5
    /// ```
    pub fn map_real(&self, mut f: impl FnMut(f32) -> f32) -> Tensor<S::Elem, L, I>
    where
        I: RealValues<S::Elem> + ChannelZeros<S::Elem>,
    {
        let channel = self.channel_position();
        let mut out = Tensor::uninitialised(self.mapping, self.pad, self.interface.clone())
            .unwrap_or_else(|e| panic!("{e}"));
        let (src, dst) = (self.as_raw(), out.storage.slots_mut());
        let interface = &self.interface;
        self.mapping.for_each_element(|index, at| {
            let c = channel.map_or(0, |axis| index[axis]);
            dst[at] = interface.stored(f(interface.real(src[at], c)), c);
        });
        out.write_interface_padding();
        out
    }

    /// A plain tensor of `f(a, b)` over the logical elements of this tensor and `other` (of the
    /// same layout type and dims), with this tensor's mapping; padding holds `V::default()`.
    ///
    /// # Errors
    /// [`LayoutError::ShapeMismatch`] when the dims differ.
    ///
    /// # Panics
    /// As for [`TensorBase::map`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let a = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 3], |[.., w, c]| (w * 3 + c) as u8);
    /// let b = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 3], |_| 10);
    /// let sum = a.zip_with(&b, |x, y| u16::from(x) + u16::from(y)).unwrap();
    /// assert_eq!(sum.to_row_major(), [10, 11, 12, 13, 14, 15]);
    /// let other = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 2, 2]);
    /// assert!(a.zip_with(&other, |x, y| x + y).is_err());
    /// ```
    pub fn zip_with<S2, I2, U, V>(
        &self,
        other: &TensorBase<S2, L, I2>,
        mut f: impl FnMut(S::Elem, U) -> V,
    ) -> Result<Tensor<V, L>, LayoutError>
    where
        S2: Storage<Elem = U>,
        I2: Interface,
        U: Element,
        V: Element + Default,
    {
        if self.dims() != other.dims() {
            return Err(LayoutError::ShapeMismatch {
                source: Vec::from(other.dims().as_ref()),
                destination: Vec::from(self.dims().as_ref()),
            });
        }
        let mut out = Tensor::uninitialised(self.mapping, V::default(), Plain)?;
        let (a, b, dst) = (self.as_raw(), other.as_raw(), out.storage.slots_mut());
        let same_offsets = self.mapping.same_function_as(&other.mapping);
        self.mapping.for_each_element(|index, at| {
            let from = if same_offsets {
                at
            } else {
                other.mapping.offset(*index)
            };
            dst[at] = f(a[at], b[from]);
        });
        Ok(out)
    }
}

impl<S: StorageMut, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The logical elements in row-major order (last dim fastest), writable; padding is not
    /// visited.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 2], |[.., w, c]| (w * 2 + c) as u8);
    /// for v in t.iter_mut() {
    ///     *v = 255 - *v;
    /// }
    /// assert_eq!(t.to_row_major(), [255, 254, 253, 252]);
    /// assert_eq!(t.as_raw()[2], 0); // padding untouched
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, S::Elem, L> {
        let mapping = self.mapping;
        IterMut::new(mapping, self.storage.slots_mut())
    }
}

/// The logical elements of a tensor in row-major order, writable: [`TensorBase::iter_mut`],
/// [`IndirectTensor::iter_mut`](crate::tensors::IndirectTensor::iter_mut).
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<i8, onednn::nChw16c>::zeros([1, 3, 1, 1]);
/// let it: tensor_layout::tensors::IterMut<'_, i8, onednn::nChw16c> = t.iter_mut();
/// assert_eq!(it.len(), 3);
/// ```
pub struct IterMut<'a, T, L: Layout> {
    mapping: Mapping<L>,
    indices: RowMajorIndices<L::Index>,
    slots: Slots<T>,
    slot_count: usize,
    borrow: PhantomData<&'a mut [T]>,
}

/// Where an [`IterMut`]'s slots are: one buffer, or chunks of `volume` slots behind a table
/// (slot `n` is slot `n % volume` of chunk `n / volume`).
enum Slots<T> {
    Contiguous(*mut T),
    Chunks {
        starts: *const NonNull<T>,
        volume: usize,
    },
}

impl<'a, T, L: Layout> IterMut<'a, T, L> {
    /// # Panics
    /// When two logical indices share a slot (no writable tensor has such a mapping), or the
    /// storage does not hold the mapping's slots.
    fn new(mapping: Mapping<L>, slots: &'a mut [T]) -> Self {
        assert_eq!(
            slots.len(),
            mapping.storage_len(),
            "storage of another length"
        );
        Self::over(mapping, Slots::Contiguous(slots.as_mut_ptr()))
    }

    /// Over the chunks of a chunk table laid out by `mapping`.
    ///
    /// # Panics
    /// As for `new`.
    pub(crate) fn of_chunks(mapping: Mapping<L>, chunks: TableChunksMut<'a, T>) -> Self {
        let (starts, volume) = chunks.into_starts();
        assert_eq!(
            starts.len() * volume,
            mapping.storage_len(),
            "storage of another length"
        );
        let starts = starts.as_ptr();
        Self::over(mapping, Slots::Chunks { starts, volume })
    }

    fn over(mapping: Mapping<L>, slots: Slots<T>) -> Self {
        assert!(
            mapping.is_unique(),
            "iter_mut needs a mapping in which no two indices share a slot"
        );
        Self {
            mapping,
            indices: RowMajorIndices::new(mapping.dims()),
            slot_count: mapping.storage_len(),
            slots,
            borrow: PhantomData,
        }
    }
}

impl<'a, T, L: Layout> Iterator for IterMut<'a, T, L> {
    type Item = &'a mut T;

    fn next(&mut self) -> Option<&'a mut T> {
        let index = self.indices.next()?;
        let offset = self.mapping.offset(index);
        assert!(offset < self.slot_count, "offset {offset} past the storage");
        // SAFETY: the slots are `slot_count` elements borrowed mutably for 'a (held by
        // `borrow`): one buffer, or the chunks of a table of `slot_count / volume` chunks of
        // `volume` each, apart from one another; `offset` is within them (checked above). The
        // mapping is unique (checked in `over`), and `indices` yields each logical index once,
        // so no two references handed out point at the same slot.
        Some(unsafe {
            match self.slots {
                Slots::Contiguous(slots) => &mut *slots.add(offset),
                Slots::Chunks { starts, volume } => {
                    let chunk = *starts.add(offset / volume);
                    &mut *chunk.as_ptr().add(offset % volume)
                }
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.indices.size_hint()
    }
}

impl<T, L: Layout> ExactSizeIterator for IterMut<'_, T, L> {}

// SAFETY: an `IterMut` is a `&mut [T]` split into disjoint `&mut T`: it may go to another
// thread when `&mut [T]` may, that is when `T: Send`; sharing it gives access to nothing.
unsafe impl<T: Send, L: Layout> Send for IterMut<'_, T, L> {}
// SAFETY: `&IterMut` exposes no element (every method takes `&mut self`).
unsafe impl<T: Sync, L: Layout> Sync for IterMut<'_, T, L> {}
