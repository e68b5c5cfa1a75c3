//! [`PackedTensor`]: 4-bit elements two per byte, in any layout.

use super::values::Nibble;
use crate::storage::{AlignedBuffer, Storage, StorageMut};
use crate::{
    Layout, LayoutError, Mapping, mappings::RowMajorIndices, quantized::ChannelZeros,
    quantized::Interface, quantized::Plain, quantized::RealValues,
};
use alloc::vec::Vec;

/// A tensor of 4-bit elements ([`u4`](crate::quantized::u4), [`i4`](crate::quantized::i4)) in layout `L`, packed two
/// per byte in storage order: storage slot `s` is the low nibble of byte `s / 2` when `s` is
/// even, the high nibble when it is odd (MegEngine's int4 packing). An odd storage length
/// leaves the last byte's high nibble as padding.
///
/// Elements are read and written by value. Padding holds the pad value (the interface's stored
/// zero: 0 for [`Plain`]).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{quantized::PackedTensor, quantized::u4};
/// let t = PackedTensor::<u4, megengine::NCHW64>::from_fn([1, 3, 1, 1], |[_, c, ..]| u4::new(c as u8 + 1));
/// assert_eq!(t.value([0, 2, 0, 0]), u4::new(3));
/// assert_eq!(t.as_bytes()[..2], [0x21, 0x03]); // channel 0 low, channel 1 high, then 2
/// assert_eq!(t.as_bytes().len(), 32); // 64 nibbles: one block of 64 channels
/// ```
#[derive(Clone, Debug)]
pub struct PackedTensor<E: Nibble, L: Layout, I: Interface = Plain> {
    pub(super) mapping: Mapping<L>,
    bytes: AlignedBuffer<u8>,
    pub(super) pad: E,
    pub(super) interface: I,
}

/// Both nibbles of a byte holding `value`.
fn doubled<E: Nibble>(value: E) -> u8 {
    value.to_bits() | (value.to_bits() << 4)
}

impl<E: Nibble, L: Layout + Default> PackedTensor<E, L> {
    /// A tensor whose every element and padding slot is 0.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`PackedTensor::try_zeros`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::i4, megengine::NCHW64>::zeros([1, 70, 2, 2]);
    /// assert_eq!(t.as_bytes().len(), 2 * 2 * 2 * 32);
    /// ```
    pub fn zeros(dims: L::Index) -> Self {
        Self::try_zeros(dims).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor of zeros (see [`PackedTensor::zeros`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage does not fit; [`LayoutError::Allocation`]
    /// when the allocator refuses.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::try_zeros([1, 1, 1, 3]).unwrap();
    /// assert_eq!(t.as_bytes(), [0, 0]); // 3 nibbles: the last byte's high nibble is padding
    /// ```
    pub fn try_zeros(dims: L::Index) -> Result<Self, LayoutError> {
        Self::filled(Mapping::new(dims)?, E::default(), Plain)
    }

    /// A tensor holding `f(index)` at every logical index; padding is 0.
    ///
    /// # Panics
    /// As for [`PackedTensor::zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::i4};
    /// let t = PackedTensor::<i4, onednn::nchw>::from_fn([1, 1, 1, 3], |[.., w]| i4::new(w as i8 - 1));
    /// assert_eq!(t.as_bytes(), [0x0F, 0x01]); // -1 in the low nibble of byte 0, 1 in byte 1
    /// ```
    pub fn from_fn(dims: L::Index, mut f: impl FnMut(L::Index) -> E) -> Self {
        let mut t = Self::zeros(dims);
        let mapping = t.mapping;
        mapping.for_each_element(|index, at| t.set_slot(at, f(*index)));
        t
    }

    /// A tensor of `values`, the logical elements in row-major order.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `values` does not hold one element per logical index, and
    /// the errors of [`PackedTensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let values: Vec<u4> = (0..6).map(u4::new).collect();
    /// let t = PackedTensor::<u4, onednn::nhwc>::from_row_major([1, 2, 1, 3], &values).unwrap();
    /// assert_eq!(t.as_bytes(), [0x30, 0x41, 0x52]); // channels interleave: 0 3, 1 4, 2 5
    /// assert_eq!(t.to_row_major(), values);
    /// ```
    pub fn from_row_major(dims: L::Index, values: &[E]) -> Result<Self, LayoutError> {
        let mut t = Self::try_zeros(dims)?;
        if values.len() != t.len() {
            return Err(LayoutError::Length {
                expected: t.len(),
                found: values.len(),
            });
        }
        let row_major = crate::mappings::row_major_strides(&dims);
        let mapping = t.mapping;
        mapping.for_each_run(|run| {
            let (base, step) = run.in_strided(&row_major);
            for j in 0..run.len {
                t.set_slot(run.offset + j * run.stride, values[base + j * step]);
            }
        });
        Ok(t)
    }
}

impl<E: Nibble, L: Layout + Default> PackedTensor<E, L> {
    /// A tensor of `dims` holding a copy of `bytes`, its storage already packed: two slots per
    /// byte in storage order, the even slot in the low nibble (what
    /// [`PackedTensor::as_bytes`] gives back, a MegEngine int4 buffer). Padding is taken as it
    /// is; the pad value is 0.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `bytes` does not hold `storage_len().div_ceil(2)` bytes;
    /// [`LayoutError::Overflow`] as for [`PackedTensor::try_zeros`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nchw>::from_bytes([1, 1, 1, 3], &[0x21, 0x03]).unwrap();
    /// assert_eq!(t.to_row_major(), [u4::new(1), u4::new(2), u4::new(3)]);
    /// let short = PackedTensor::<u4, onednn::nchw>::from_bytes([1, 1, 1, 3], &[0x21]).unwrap_err();
    /// assert_eq!(short, LayoutError::Length { expected: 2, found: 1 });
    /// ```
    pub fn from_bytes(dims: L::Index, bytes: &[u8]) -> Result<Self, LayoutError> {
        let mapping = Mapping::<L>::new(dims)?;
        let expected = mapping.storage_len().div_ceil(2);
        if bytes.len() != expected {
            return Err(LayoutError::Length {
                expected,
                found: bytes.len(),
            });
        }
        Ok(Self {
            mapping,
            bytes: AlignedBuffer::from_slice(bytes),
            pad: E::default(),
            interface: Plain,
        })
    }
}

impl<E: Nibble, L: Layout + Default, I: RealValues<E> + ChannelZeros<E>> PackedTensor<E, L, I> {
    /// A tensor of real zeros read through `interface` (MegEngine's `Quantized4Asymm` is `u4`
    /// with a [`ScaleOffset`](crate::quantized::ScaleOffset)): every slot holds the stored zero.
    ///
    /// # Errors
    /// As for [`PackedTensor::try_zeros`], and [`LayoutError::Interface`] when the interface
    /// does not fit the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let q = ScaleOffset::new(0.5, 8);
    /// let mut t = PackedTensor::<u4, megengine::NCHW64, _>::try_zeros_with([1, 2, 1, 1], q).unwrap();
    /// assert_eq!(t.as_bytes()[31], 0x88); // padding holds the offset
    /// t.set_real([0, 1, 0, 0], 1.0);
    /// assert_eq!((t.value([0, 1, 0, 0]), t.real([0, 1, 0, 0])), (u4::new(10), 1.0));
    /// ```
    pub fn try_zeros_with(dims: L::Index, interface: I) -> Result<Self, LayoutError> {
        let mapping = Mapping::<L>::new(dims)?;
        interface.check(&mapping.layout().axis_word(), dims.as_ref())?;
        if interface.channel_axis().is_some() {
            return Err(LayoutError::Interface {
                reason: "4-bit tensors take one scale and offset per tensor".into(),
            });
        }
        let zero = interface.stored_zero(0);
        Self::filled(mapping, zero, interface)
    }
}

impl<E: Nibble, L: Layout, I: Interface> PackedTensor<E, L, I> {
    /// Storage for `mapping` with every slot `value`.
    pub(super) fn filled(mapping: Mapping<L>, value: E, interface: I) -> Result<Self, LayoutError> {
        let byte_len = mapping.storage_len().div_ceil(2);
        let bytes = AlignedBuffer::filled(byte_len, doubled(value))?;
        Ok(Self {
            mapping,
            bytes,
            pad: value,
            interface,
        })
    }

    /// The layout bound to this tensor's dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, megengine::NCHW64>::zeros([1, 3, 1, 1]);
    /// assert_eq!(t.mapping().storage_len(), 64);
    /// ```
    pub fn mapping(&self) -> &Mapping<L> {
        &self.mapping
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 2, 3, 4]).dims(), [1, 2, 3, 4]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.mapping.dims()
    }

    /// The dims after padding to whole blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, megengine::NCHW64>::zeros([1, 3, 1, 1]);
    /// assert_eq!(t.padded_dims(), [1, 64, 1, 1]);
    /// ```
    pub fn padded_dims(&self) -> L::Index {
        self.mapping.padded_dims()
    }

    /// Number of storage slots (nibbles), padding included; the bytes are half as many,
    /// rounded up.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, megengine::NCHW64>::zeros([1, 3, 1, 1]);
    /// assert_eq!((t.storage_len(), t.as_bytes().len()), (64, 32));
    /// ```
    pub fn storage_len(&self) -> usize {
        self.mapping.storage_len()
    }

    /// Number of logical elements.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 2, 3, 4]).len(), 24);
    /// ```
    pub fn len(&self) -> usize {
        self.mapping.len()
    }

    /// Whether the tensor has no logical element.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 0, 3, 4]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.mapping.is_empty()
    }

    /// The interface: what the stored values mean.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(*tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 1, 1, 1]).interface(), Plain);
    /// ```
    pub fn interface(&self) -> &I {
        &self.interface
    }

    /// The value padding holds.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// assert_eq!(PackedTensor::<u4, onednn::nchw>::zeros([1, 1, 1, 1]).pad_value(), u4::new(0));
    /// ```
    pub fn pad_value(&self) -> E {
        self.pad
    }

    /// The storage as bytes: two slots per byte, the even slot in the low nibble.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| u4::new(w as u8 + 7));
    /// assert_eq!(t.as_bytes(), [0x87]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.slots()
    }

    /// The storage as bytes, writable.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let mut t = PackedTensor::<u4, onednn::nchw>::zeros([1, 1, 1, 2]);
    /// t.as_bytes_mut()[0] = 0xA5;
    /// assert_eq!((t.value([0, 0, 0, 0]), t.value([0, 0, 0, 1])), (u4::new(5), u4::new(10)));
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        self.bytes.slots_mut()
    }

    /// The element in storage slot `slot`.
    pub(super) fn slot(&self, slot: usize) -> E {
        let byte = self.bytes.slots()[slot / 2];
        E::from_bits(if slot.is_multiple_of(2) {
            byte
        } else {
            byte >> 4
        })
    }

    /// Writes `value` into storage slot `slot`, keeping the other nibble of its byte.
    pub(super) fn set_slot(&mut self, slot: usize, value: E) {
        let byte = &mut self.bytes.slots_mut()[slot / 2];
        let bits = value.to_bits();
        *byte = if slot.is_multiple_of(2) {
            (*byte & 0xF0) | bits
        } else {
            (*byte & 0x0F) | (bits << 4)
        };
    }

    /// The element at `index`, `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::quantized::PackedTensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 1, 1, 2]);
    /// assert_eq!(t.get([0, 0, 0, 2]), None);
    /// ```
    pub fn get(&self, index: L::Index) -> Option<E> {
        self.mapping
            .checked_offset(index)
            .map(|slot| self.slot(slot))
    }

    /// The element at `index`.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::i4};
    /// let t = PackedTensor::<i4, onednn::nchw>::from_fn([1, 1, 1, 2], |_| i4::new(-2));
    /// assert_eq!(t.value([0, 0, 0, 1]), i4::new(-2));
    /// ```
    pub fn value(&self, index: L::Index) -> E {
        let slot = self
            .mapping
            .try_offset(index)
            .unwrap_or_else(|e| panic!("{e}"));
        self.slot(slot)
    }

    /// Writes `value` at `index`.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let mut t = PackedTensor::<u4, onednn::nchw>::zeros([1, 1, 1, 2]);
    /// t.set([0, 0, 0, 1], u4::new(12));
    /// assert_eq!(t.as_bytes(), [0xC0]);
    /// ```
    pub fn set(&mut self, index: L::Index, value: E) {
        let slot = self
            .mapping
            .try_offset(index)
            .unwrap_or_else(|e| panic!("{e}"));
        self.set_slot(slot, value);
    }

    /// The real value at `index` through the interface.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::i4};
    /// let t = PackedTensor::<i4, onednn::nchw>::from_fn([1, 1, 1, 1], |_| i4::new(-3));
    /// assert_eq!(t.real([0, 0, 0, 0]), -3.0);
    /// ```
    pub fn real(&self, index: L::Index) -> f32
    where
        I: RealValues<E>,
    {
        self.interface.real(self.value(index), 0)
    }

    /// Stores the real `value` at `index` (rounded to nearest, ties to even, saturated).
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let mut t = PackedTensor::<u4, onednn::nchw>::zeros([1, 1, 1, 1]);
    /// t.set_real([0, 0, 0, 0], 99.0);
    /// assert_eq!(t.value([0, 0, 0, 0]), u4::new(15));
    /// ```
    pub fn set_real(&mut self, index: L::Index, value: f32)
    where
        I: RealValues<E>,
    {
        let stored = self.interface.stored(value, 0);
        self.set(index, stored);
    }

    /// The logical elements with their indices, in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| u4::new(w as u8));
    /// assert_eq!(t.indexed_iter().last(), Some(([0, 0, 0, 1], u4::new(1))));
    /// ```
    pub fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (L::Index, E)> + '_ {
        RowMajorIndices::new(self.dims())
            .map(move |index| (index, self.slot(self.mapping.offset(index))))
    }

    /// The logical elements in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, megengine::NCHW64>::from_fn([1, 3, 1, 1], |[_, c, ..]| u4::new(c as u8));
    /// assert_eq!(t.iter().map(u4::get).collect::<Vec<_>>(), [0, 1, 2]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = E> + '_ {
        self.indexed_iter().map(|(_, value)| value)
    }

    /// The logical elements in row-major order, copied out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nhwc>::from_fn([1, 2, 1, 1], |[_, c, ..]| u4::new(c as u8 + 1));
    /// assert_eq!(t.to_row_major(), [u4::new(1), u4::new(2)]);
    /// ```
    pub fn to_row_major(&self) -> Vec<E> {
        self.iter().collect()
    }
}
