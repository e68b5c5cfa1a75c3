//! [`TensorBase`] and its three faces: [`Tensor`] (owned), [`TensorView`], [`TensorViewMut`].

use crate::odometer::{Odometer, logical};
use crate::storage::{AlignedBuffer, Storage, StorageMut};
use crate::{Layout, LayoutError, Mapping, row_major_strides};
use alloc::vec::Vec;
use core::fmt;
use core::ops::{Index, IndexMut};

/// Logical data in a layout: a [`Mapping`], storage holding `mapping.storage_len()` slots, and the
/// value its padding slots hold.
///
/// Use it through its aliases: [`Tensor`] owns 128-byte aligned storage, [`TensorView`] and
/// [`TensorViewMut`] borrow it. The layout is part of the type: a function taking
/// `&Tensor<u8, htp::R4CroutonLayout>` accepts no other layout.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u16, htp::R4CroutonLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h * 100 + w * 10 + c) as u16);
/// assert_eq!(t[[0, 2, 4, 29]], 269);
/// assert_eq!(t.padded_dims(), [1, 8, 8, 32]);
/// assert_eq!(t.as_raw()[30], 0); // padding is zero
/// ```
#[derive(Clone, Copy)]
pub struct TensorBase<S: Storage, L: Layout> {
    mapping: Mapping<L>,
    storage: S,
    pad: S::Elem,
}

/// An owned tensor of `T` in layout `L`, its storage aligned to 128 bytes.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t: Tensor<f32, htp::R4FlatMemoryLayout> = Tensor::zeros([1, 2, 2, 4]);
/// assert_eq!(t.as_raw().as_ptr() as usize % 128, 0);
/// ```
pub type Tensor<T, L> = TensorBase<AlignedBuffer<T>, L>;

/// A read-only view of a tensor (or of any storage) of `T` in layout `L`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let v: TensorView<'_, u8, htp::R4CroutonLayout> = t.view();
/// assert_eq!(v.len(), 450);
/// ```
pub type TensorView<'a, T, L> = TensorBase<&'a [T], L>;

/// A writable view of a tensor (or of any storage) of `T` in layout `L`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let mut v: TensorViewMut<'_, u8, htp::R4CroutonLayout> = t.view_mut();
/// v[[0, 0, 0, 0]] = 1;
/// assert_eq!(t[[0, 0, 0, 0]], 1);
/// ```
pub type TensorViewMut<'a, T, L> = TensorBase<&'a mut [T], L>;

/// One contiguous innermost chunk of a tensor's storage (HTP: a crouton).
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let chunk = t.chunks().next().unwrap();
/// assert_eq!((chunk.index, chunk.data.len()), ([0, 0, 0, 0], 2048));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageChunk<'a, T, I> {
    /// The logical index of the chunk's first element (HTP's `get_raw` argument).
    pub index: I,
    /// The chunk's storage slots, padding included, in memory order.
    pub data: &'a [T],
}

/// One contiguous innermost chunk of a tensor's storage, writable.
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let chunk = t.chunks_mut().next().unwrap();
/// chunk.data[0] = 5;
/// assert_eq!(t[[0, 0, 0, 0]], 5);
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct StorageChunkMut<'a, T, I> {
    /// The logical index of the chunk's first element.
    pub index: I,
    /// The chunk's storage slots, padding included, in memory order.
    pub data: &'a mut [T],
}

impl<T: Copy, L: Layout> Tensor<T, L> {
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
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage exceeds one allocation (`isize::MAX` bytes);
    /// [`LayoutError::Allocation`] when the allocator refuses.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let t = Tensor::try_filled(m, 1u8, 128).unwrap();
    /// assert_eq!(t.as_raw()[29..31], [1, 128]);
    /// ```
    pub fn try_filled(mapping: Mapping<L>, value: T, pad: T) -> Result<Self, LayoutError> {
        let mut tensor = Self::uninitialised(mapping, pad)?;
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

    /// Storage for `mapping` with only its padding written; the caller writes every logical slot.
    pub(crate) fn uninitialised(mapping: Mapping<L>, pad: T) -> Result<Self, LayoutError> {
        let storage = AlignedBuffer::filled(mapping.storage_len(), pad).map_err(|e| match e {
            LayoutError::Overflow { .. } => LayoutError::Overflow {
                dims: Vec::from(mapping.dims().as_ref()),
                element_size: Some(size_of::<T>()),
            },
            other => other,
        })?;
        Ok(Self {
            mapping,
            storage,
            pad,
        })
    }
}

impl<'a, T: Copy + Default, L: Layout> TensorView<'a, T, L> {
    /// A view of `storage` (padding included) through `mapping`; its pad value is `T::default()`.
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
        })
    }
}

impl<'a, T: Copy + Default, L: Layout> TensorViewMut<'a, T, L> {
    /// A writable view of `storage` (padding included) through `mapping`; pad value `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not `mapping.storage_len()`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut raw = [0u8; 6];
    /// let m = Mapping::<htp::R4NCHWMemoryLayout>::new([1, 1, 2, 3]).unwrap();
    /// TensorViewMut::from_slice(m, &mut raw).unwrap()[[0, 0, 1, 0]] = 9;
    /// assert_eq!(raw, [0, 9, 0, 0, 0, 0]);
    /// ```
    pub fn from_slice(mapping: Mapping<L>, storage: &'a mut [T]) -> Result<Self, LayoutError> {
        check_len(&mapping, storage.len())?;
        Ok(Self {
            mapping,
            storage,
            pad: T::default(),
        })
    }
}

fn check_len<L: Layout>(mapping: &Mapping<L>, found: usize) -> Result<(), LayoutError> {
    let expected = mapping.storage_len();
    if found == expected {
        Ok(())
    } else {
        Err(LayoutError::Length { expected, found })
    }
}

fn fill_run<T: Copy>(slots: &mut [T], offset: usize, len: usize, stride: usize, value: T) {
    if stride == 1 {
        slots[offset..offset + len].fill(value);
    } else {
        for j in 0..len {
            slots[offset + j * stride] = value;
        }
    }
}

impl<S: Storage, L: Layout> TensorBase<S, L> {
    /// Assembles a tensor from parts the caller has checked (`storage` holds
    /// `mapping.storage_len()` slots).
    pub(crate) fn from_parts(mapping: Mapping<L>, storage: S, pad: S::Elem) -> Self {
        debug_assert_eq!(storage.slots().len(), mapping.storage_len());
        Self {
            mapping,
            storage,
            pad,
        }
    }

    /// Takes the tensor apart into its mapping, storage and pad value.
    pub(crate) fn into_parts(self) -> (Mapping<L>, S, S::Elem) {
        (self.mapping, self.storage, self.pad)
    }

    /// The layout bound to this tensor's dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.mapping().padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn mapping(&self) -> &Mapping<L> {
        &self.mapping
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.dims(), [1, 3, 5, 30]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.mapping.dims()
    }

    /// The dims after padding to whole blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn padded_dims(&self) -> L::Index {
        self.mapping.padded_dims()
    }

    /// Number of logical elements.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.len(), 450);
    /// ```
    pub fn len(&self) -> usize {
        self.mapping.len()
    }

    /// Whether the tensor has no logical element (some dim is zero).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Tensor::<u8, htp::R4CroutonLayout>::zeros([0, 3, 5, 30]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.mapping.is_empty()
    }

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.storage_len(), 2048);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.mapping.storage_len()
    }

    /// The value this tensor's padding holds (and relayout writes into padding it creates).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.pad_value(), 0);
    /// t.fill_padding(128);
    /// assert_eq!(t.pad_value(), 128);
    /// ```
    pub fn pad_value(&self) -> S::Elem {
        self.pad
    }

    /// The physical storage, padding included, in memory order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 2], |[_, _, w, c]| (10 * w + c + 1) as u8);
    /// assert_eq!(t.as_raw()[..2], [1, 2]);
    /// assert_eq!(t.as_raw()[32..34], [11, 12]);
    /// ```
    pub fn as_raw(&self) -> &[S::Elem] {
        self.storage.slots()
    }

    /// The element at logical `index`, `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.get([0, 2, 4, 29]), Some(&0));
    /// assert_eq!(t.get([0, 3, 0, 0]), None);
    /// ```
    pub fn get(&self, index: L::Index) -> Option<&S::Elem> {
        self.mapping
            .checked_offset(index)
            .map(|offset| &self.as_raw()[offset])
    }

    /// A read-only view of this tensor.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let v = t.view();
    /// assert_eq!(v.dims(), t.dims());
    /// ```
    pub fn view(&self) -> TensorView<'_, S::Elem, L> {
        TensorBase {
            mapping: self.mapping,
            storage: self.storage.slots(),
            pad: self.pad,
        }
    }

    /// The logical elements in row-major order (last dim fastest).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &S::Elem> + '_ {
        self.indexed_iter().map(|(_, value)| value)
    }

    /// The logical elements with their indices, in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 1, 1, 2], |i| i[3] as u8 + 5);
    /// let all: Vec<_> = t.indexed_iter().collect();
    /// assert_eq!(all, [([0, 0, 0, 0], &5), ([0, 0, 0, 1], &6)]);
    /// ```
    pub fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (L::Index, &S::Elem)> + '_ {
        let slots = self.as_raw();
        crate::RowMajorIndices::new(self.dims())
            .map(move |index| (index, &slots[self.mapping.offset(index)]))
    }

    /// The logical elements in row-major order, copied out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_raw(), [1, 3, 2, 4]);
    /// assert_eq!(t.to_row_major(), [1, 2, 3, 4]);
    /// ```
    pub fn to_row_major(&self) -> Vec<S::Elem> {
        let dims = self.dims();
        let row_major = row_major_strides(&dims);
        let slots = self.as_raw();
        let mut out = alloc::vec![self.pad; self.len()];
        self.mapping.for_each_run(|run| {
            let (base, step) = run.in_strided(&row_major);
            for j in 0..run.len {
                out[base + j * step] = slots[run.offset + j * run.stride];
            }
        });
        out
    }

    /// Calls `visit(index, value)` for every logical element in memory order, skipping padding.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4NCHWMemoryLayout>::from_row_major([1, 1, 2, 2], &[1, 2, 3, 4]).unwrap();
    /// let mut seen = Vec::new();
    /// t.for_each_in_memory_order(|_, &v| seen.push(v));
    /// assert_eq!(seen, [1, 3, 2, 4]);
    /// ```
    pub fn for_each_in_memory_order(&self, mut visit: impl FnMut(L::Index, &S::Elem)) {
        let slots = self.as_raw();
        self.mapping.for_each_run(|run| {
            let mut index = run.index;
            for j in 0..run.len {
                visit(index, &slots[run.offset + j * run.stride]);
                index[run.dim] += run.step;
            }
        });
    }

    /// The contiguous innermost chunks in memory order, each with the logical index of its first
    /// element. For a layout without fixed entries every element is its own chunk.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 40]);
    /// let origins: Vec<_> = t.chunks().map(|chunk| chunk.index).collect();
    /// assert_eq!(origins, [[0, 0, 0, 0], [0, 0, 0, 32], [0, 8, 0, 0], [0, 8, 0, 32]]);
    /// assert!(t.chunks().all(|chunk| chunk.data.len() == 2048));
    /// ```
    pub fn chunks(&self) -> impl Iterator<Item = StorageChunk<'_, S::Elem, L::Index>> + '_ {
        let slots = self.as_raw();
        let volume = self.mapping.chunk_volume();
        chunk_origins(&self.mapping).map(move |(index, offset)| StorageChunk {
            index,
            data: &slots[offset..offset + volume],
        })
    }
}

impl<S: StorageMut, L: Layout> TensorBase<S, L> {
    /// The physical storage, padding included, writable.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// t.as_raw_mut()[32] = 4;
    /// assert_eq!(t[[0, 0, 1, 0]], 4);
    /// ```
    pub fn as_raw_mut(&mut self) -> &mut [S::Elem] {
        self.storage.slots_mut()
    }

    /// The element at logical `index`, writable; `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// *t.get_mut([0, 2, 4, 29]).unwrap() = 3;
    /// assert_eq!(t[[0, 2, 4, 29]], 3);
    /// assert!(t.get_mut([0, 2, 5, 0]).is_none());
    /// ```
    pub fn get_mut(&mut self, index: L::Index) -> Option<&mut S::Elem> {
        let offset = self.mapping.checked_offset(index)?;
        Some(&mut self.as_raw_mut()[offset])
    }

    /// A writable view of this tensor.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// t.view_mut().fill_padding(9);
    /// assert_eq!(t.as_raw()[31], 9);
    /// ```
    pub fn view_mut(&mut self) -> TensorViewMut<'_, S::Elem, L> {
        TensorBase {
            mapping: self.mapping,
            storage: self.storage.slots_mut(),
            pad: self.pad,
        }
    }

    /// Makes `value` this tensor's pad value and writes it into every padding slot.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 1, 30]);
    /// t.fill_padding(128);
    /// assert_eq!(t.as_raw()[..32].iter().filter(|&&x| x == 128).count(), 2);
    /// assert_eq!(t.as_raw().iter().filter(|&&x| x == 128).count(), 2048 - 30);
    /// ```
    pub fn fill_padding(&mut self, value: S::Elem) {
        self.pad = value;
        self.write_padding();
    }

    fn write_padding(&mut self) {
        let pad = self.pad;
        let mapping = self.mapping;
        let slots = self.storage.slots_mut();
        mapping.for_each_padding(|range| slots[range].fill(pad));
    }

    /// Calls `visit(index, slot)` for every logical element in memory order, skipping padding.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u16, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let mut k = 0;
    /// t.for_each_in_memory_order_mut(|_, v| { *v = k; k += 1; });
    /// assert_eq!(t[[0, 0, 1, 0]], 30); // the second run of 30 channels
    /// assert_eq!(t.as_raw()[32], 30);
    /// ```
    pub fn for_each_in_memory_order_mut(&mut self, mut visit: impl FnMut(L::Index, &mut S::Elem)) {
        let mapping = self.mapping;
        let slots = self.storage.slots_mut();
        mapping.for_each_run(|run| {
            let mut index = run.index;
            for j in 0..run.len {
                visit(index, &mut slots[run.offset + j * run.stride]);
                index[run.dim] += run.step;
            }
        });
    }

    /// The contiguous innermost chunks in memory order, writable (see [`TensorBase::chunks`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 64]);
    /// for chunk in t.chunks_mut() {
    ///     chunk.data.fill(chunk.index[3] as u8); // channel block 0 or 32
    /// }
    /// assert_eq!(t[[0, 7, 7, 40]], 32);
    /// ```
    pub fn chunks_mut(
        &mut self,
    ) -> impl Iterator<Item = StorageChunkMut<'_, S::Elem, L::Index>> + '_ {
        let volume = self.mapping.chunk_volume();
        let mapping = self.mapping;
        let mut rest = self.storage.slots_mut();
        let mut consumed = 0;
        chunk_origins(&mapping).map(move |(index, offset)| {
            // Chunks come in increasing offset order and never overlap (the layout is dense).
            let (_, tail) = core::mem::take(&mut rest).split_at_mut(offset - consumed);
            let (data, after) = tail.split_at_mut(volume);
            rest = after;
            consumed = offset + volume;
            StorageChunkMut { index, data }
        })
    }
}

/// Logical index and offset of the first element of every chunk, in memory order.
fn chunk_origins<L: Layout>(
    mapping: &Mapping<L>,
) -> impl Iterator<Item = (L::Index, usize)> + use<L> {
    let axes = mapping.axes();
    let outer = axes.len() - mapping.layout().chunk_axes();
    let origin = mapping.origin();
    Odometer::new(axes, outer, mapping.dims(), origin, mapping.base_offset())
        .filter_map(move |(index, offset)| Some((logical(index, &origin)?, offset)))
}

impl<S: Storage, L: Layout> Index<L::Index> for TensorBase<S, L> {
    type Output = S::Elem;

    /// # Panics
    /// When `index` lies outside the dims, naming both.
    fn index(&self, index: L::Index) -> &S::Elem {
        match self.mapping.try_offset(index) {
            Ok(offset) => &self.as_raw()[offset],
            Err(e) => panic!("{e}"),
        }
    }
}

impl<S: StorageMut, L: Layout> IndexMut<L::Index> for TensorBase<S, L> {
    /// # Panics
    /// When `index` lies outside the dims, naming both.
    fn index_mut(&mut self, index: L::Index) -> &mut S::Elem {
        match self.mapping.try_offset(index) {
            Ok(offset) => &mut self.as_raw_mut()[offset],
            Err(e) => panic!("{e}"),
        }
    }
}

impl<S: Storage, L: Layout> fmt::Debug for TensorBase<S, L>
where
    S::Elem: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("layout", self.mapping.layout())
            .field("dims", &self.dims())
            .field("row_major", &self.to_row_major())
            .finish()
    }
}

/// Small cases of every call that reaches the storage, fast enough for miri
/// (`cargo +nightly miri test -p layout-core --lib`).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chunk, ChunkedMemoryLayout};
    use alloc::vec;

    type Flat = ChunkedMemoryLayout<3, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>)>;
    type Blocked = ChunkedMemoryLayout<
        3,
        (
            Chunk<0, 0>,
            Chunk<2, 0>,
            Chunk<1, 0>,
            Chunk<1, 2>,
            Chunk<2, 4>,
        ),
    >;

    fn sample() -> Tensor<u16, Flat> {
        Tensor::<u16, Flat>::from_fn([2, 3, 5], |[a, b, c]| (a * 100 + b * 10 + c) as u16)
    }

    #[test]
    fn construct_read_write_and_drop() {
        let mut t = sample();
        assert_eq!(t[[1, 2, 4]], 124);
        t[[1, 2, 4]] = 7;
        assert_eq!(t.get([1, 2, 4]), Some(&7));
        assert_eq!(t.get([2, 0, 0]), None);
        let clone = t.clone();
        drop(t);
        assert_eq!(clone.to_row_major()[29], 7);
    }

    #[test]
    fn relayout_round_trip_with_padding() {
        let t = sample();
        let mut blocked = t.relayout::<Blocked>();
        assert_eq!(blocked.padded_dims(), [2, 4, 8]);
        assert_eq!(blocked.to_row_major(), t.to_row_major());
        blocked.fill_padding(9);
        assert_eq!(
            blocked.as_raw().iter().filter(|&&v| v == 9).count(),
            64 - 30
        );
        let back = blocked.relayout::<Flat>();
        assert_eq!(back.as_raw(), t.as_raw());
        let mut into = Tensor::<u16, Flat>::zeros([2, 3, 5]);
        blocked.view().relayout_into(&mut into.view_mut()).unwrap();
        assert_eq!(into.as_raw(), t.as_raw());
    }

    #[test]
    fn chunks_and_views_over_borrowed_storage() {
        let t = sample().relayout::<Blocked>();
        let mut raw = t.as_raw().to_vec();
        let mut view = TensorViewMut::from_slice(*t.mapping(), &mut raw).unwrap();
        for chunk in view.chunks_mut() {
            chunk.data[0] += 1000;
        }
        let read = TensorView::from_slice(*t.mapping(), &raw).unwrap();
        assert_eq!(read.chunks().count(), 2 * 2 * 2);
        assert_eq!(read[[0, 0, 0]], 1000);
        assert_eq!(read[[1, 2, 4]], 1124);
        assert!(TensorView::from_slice(*t.mapping(), &raw[1..]).is_err());
    }

    #[test]
    fn empty_and_zero_sized() {
        let empty = Tensor::<u8, Blocked>::zeros([2, 0, 5]);
        assert_eq!(empty.storage_len(), 0);
        assert_eq!(empty.relayout::<Flat>().to_row_major(), vec![]);
        let unit = Tensor::<(), Blocked>::zeros([2, 3, 5]);
        assert_eq!(unit.iter().count(), 30);
        let data = [0u8; 30];
        let t = Tensor::<u8, Blocked>::from_row_major([2, 3, 5], &data).unwrap();
        assert_eq!(t.as_raw().len(), 64);
    }
}
