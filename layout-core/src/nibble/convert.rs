//! Relayouts of 4-bit tensors: unpacked to one byte per element, moved by the relayout engine
//! as bytes, packed again. Unpacking and packing are linear passes over the bytes; the
//! engine's byte kernels do the reordering.

use super::packed::PackedTensor;
use super::values::Nibble;
use crate::{
    Layout, LayoutError, Tensor, axes::RelayoutFrom, axes::check_convertible, layouts::SameRankAs,
    mappings::Coords, quantized::Interface, quantized::Plain,
};
use alloc::format;

impl<E: Nibble, L: Layout, I: Interface> PackedTensor<E, L, I> {
    /// Converts into a new tensor of layout `L2`, moving each element by axis name as
    /// [`TensorBase::relayout`](crate::tensors::TensorBase::relayout) does; padding holds the pad value.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`PackedTensor::try_relayout`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nchw>::from_fn([1, 3, 1, 2], |[_, c, _, w]| u4::new((c * 2 + w) as u8));
    /// assert_eq!(t.relayout::<megengine::NCHW64>().to_row_major(), t.to_row_major());
    /// ```
    pub fn relayout<L2>(&self) -> PackedTensor<E, L2, I>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
    {
        self.try_relayout().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Converts into a new tensor of layout `L2` (see [`PackedTensor::relayout`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when `L2`'s storage for these dims overflows.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let t = PackedTensor::<u4, onednn::nchw>::from_fn([1, 3, 1, 2], |[_, c, _, w]| u4::new((c * 2 + w) as u8));
    /// let blocked = t.try_relayout::<megengine::NCHW64>().unwrap();
    /// assert_eq!(blocked.value([0, 2, 0, 1]), u4::new(5));
    /// assert_eq!(blocked.to_row_major(), t.to_row_major());
    /// ```
    pub fn try_relayout<L2>(&self) -> Result<PackedTensor<E, L2, I>, LayoutError>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        let moved = self.unpacked()?.relayout_to(L2::default())?;
        let mut out = PackedTensor::filled(*moved.mapping(), self.pad, self.interface.clone())?;
        pack(moved.as_raw(), out.as_bytes_mut());
        Ok(out)
    }

    /// Writes this tensor's logical elements into `dst` by axis name, and `dst`'s pad value
    /// into its padding.
    ///
    /// # Errors
    /// As for [`TensorBase::relayout_into`](crate::tensors::TensorBase::relayout_into); `dst` is then
    /// left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::i4};
    /// let src = PackedTensor::<i4, megengine::NCHW64>::from_fn([1, 70, 1, 1], |[_, c, ..]| i4::new((c % 16) as i8 - 8));
    /// let mut dst = PackedTensor::<i4, megengine::NCHW>::zeros([1, 70, 1, 1]);
    /// src.relayout_into(&mut dst).unwrap();
    /// assert_eq!(dst.to_row_major(), src.to_row_major());
    /// ```
    pub fn relayout_into<L2>(&self, dst: &mut PackedTensor<E, L2, I>) -> Result<(), LayoutError>
    where
        L2: SameRankAs<L> + RelayoutFrom<L>,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        if self.interface != dst.interface {
            return Err(LayoutError::InterfaceMismatch {
                source: format!("{:?}", self.interface),
                destination: format!("{:?}", dst.interface),
            });
        }
        let source = self.unpacked()?;
        let mut staged = Tensor::uninitialised(dst.mapping, dst.pad.to_bits(), Plain)?;
        source.relayout_into(&mut staged)?;
        pack(staged.as_raw(), dst.as_bytes_mut());
        Ok(())
    }

    /// Overwrites this tensor with `src`'s logical elements, moved by axis name, and its padding
    /// with its pad value: [`PackedTensor::relayout_into`] seen from the destination.
    ///
    /// # Errors
    /// As for [`PackedTensor::relayout_into`]; this tensor is then left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{quantized::PackedTensor, quantized::u4};
    /// let src = PackedTensor::<u4, megengine::NCHW>::from_fn([1, 3, 1, 1], |[_, c, ..]| u4::new(c as u8));
    /// let mut dst = PackedTensor::<u4, megengine::NCHW64>::zeros([1, 3, 1, 1]);
    /// dst.relayout_from(&src).unwrap();
    /// assert_eq!(dst.as_bytes()[..2], [0x10, 0x02]);
    /// ```
    pub fn relayout_from<L0>(&mut self, src: &PackedTensor<E, L0, I>) -> Result<(), LayoutError>
    where
        L0: Layout,
        L: SameRankAs<L0> + RelayoutFrom<L0>,
    {
        src.relayout_into(self)
    }

    /// The storage as one byte per slot (the nibble's 4 bits), in a plain tensor of the same
    /// mapping whose pad value is the pad value's bits.
    fn unpacked(&self) -> Result<Tensor<u8, L>, LayoutError> {
        let mut slots = Tensor::uninitialised(self.mapping, self.pad.to_bits(), Plain)?;
        unpack(self.as_bytes(), slots.as_raw_mut());
        Ok(slots)
    }
}

/// Slot `s` of `bytes` (low nibble for even `s`) into `slots[s]`.
fn unpack(bytes: &[u8], slots: &mut [u8]) {
    for (pair, &byte) in slots.chunks_mut(2).zip(bytes) {
        pair[0] = byte & 0xF;
        if let Some(high) = pair.get_mut(1) {
            *high = byte >> 4;
        }
    }
}

/// `slots` (4 bits each) packed two per byte into `bytes`; an odd last slot keeps the last
/// byte's high nibble as it is.
fn pack(slots: &[u8], bytes: &mut [u8]) {
    for (byte, pair) in bytes.iter_mut().zip(slots.chunks(2)) {
        *byte = match pair {
            [low, high] => low | (high << 4),
            [low] => (*byte & 0xF0) | low,
            _ => unreachable!("chunks of one or two"),
        };
    }
}
