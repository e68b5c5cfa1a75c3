//! Reading and writing real values through a tensor's [`Interface`], and tensors built around
//! one.

use super::{Tensor, TensorBase};
use crate::interface::contract::channel_position;
use crate::storage::{Storage, StorageMut};
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping};
use crate::{quantized::ChannelZeros, quantized::Interface, quantized::RealValues};

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The interface: what the stored values mean.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::zeros_with([1, 1, 1, 4], ScaleOffset::new(0.1, 128));
    /// assert_eq!(t.interface().offset, 128);
    /// ```
    pub fn interface(&self) -> &I {
        &self.interface
    }

    /// The index along the interface's channel axis of `index` (0 for per-tensor interfaces).
    pub(crate) fn channel_of(&self, index: &L::Index) -> usize {
        self.channel_position().map_or(0, |axis| index[axis])
    }

    /// Where the interface's channel axis lies among the dims, if it has one.
    pub(crate) fn channel_position(&self) -> Option<usize> {
        channel_position(&self.interface, &self.mapping.layout().axis_word())
    }

    /// The real value of the element at `index`.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 100);
    /// let t = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 1, 1, 2], |[.., c]| 100 + c as u8 * 4)
    ///     .with_interface(q)
    ///     .unwrap();
    /// assert_eq!(t.real([0, 0, 0, 1]), 2.0);
    /// ```
    pub fn real(&self, index: L::Index) -> f32
    where
        I: RealValues<S::Elem>,
    {
        self.interface.real(self[index], self.channel_of(&index))
    }
}

impl<S: StorageMut, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// Stores the real `value` at `index`: rounded to nearest (ties to even) and saturated to
    /// the stored type.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<i8, htp::R4FlatMemoryLayout, _>::zeros_with([1, 1, 1, 2], ScaleOffset::new(0.5, 0));
    /// t.set_real([0, 0, 0, 0], 0.75); // 1.5 steps: ties to even
    /// t.set_real([0, 0, 0, 1], -99.0); // saturates
    /// assert_eq!(t.to_row_major(), [2, -128]);
    /// ```
    pub fn set_real(&mut self, index: L::Index, value: f32)
    where
        I: RealValues<S::Elem>,
    {
        let channel = self.channel_of(&index);
        self[index] = self.interface.stored(value, channel);
    }
}

impl<T: Element, L: Layout + Default, I: RealValues<T> + ChannelZeros<T>> Tensor<T, L, I> {
    /// A tensor whose every element and padding slot holds the stored value of real 0 (the
    /// offset), read through `interface`.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`Tensor::try_zeros_with`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::zeros_with([1, 3, 5, 30], ScaleOffset::new(0.05, 128));
    /// assert!(t.as_raw().iter().all(|&v| v == 128));
    /// assert_eq!(t.real([0, 2, 4, 29]), 0.0);
    /// ```
    pub fn zeros_with(dims: L::Index, interface: I) -> Self {
        Self::try_zeros_with(dims, interface).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor of real zeros read through `interface` (see [`Tensor::zeros_with`]).
    ///
    /// # Errors
    /// As for [`Tensor::try_zeros`], and [`LayoutError::Interface`] when the interface does not
    /// fit the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = PerChannel::new('O', vec![(1.0, 0); 3]);
    /// let err = Tensor::<i8, onednn::oihw, _>::try_zeros_with([4, 1, 1, 1], q).unwrap_err();
    /// assert!(err.to_string().contains("3 (scale, offset) pairs for 4 indices"));
    /// ```
    pub fn try_zeros_with(dims: L::Index, interface: I) -> Result<Self, LayoutError> {
        Self::try_from_real_fn(dims, interface, |_| 0.0)
    }

    /// A tensor holding the stored form of `f(index)` at every logical index (rounded to
    /// nearest, ties to even, saturated); padding holds the stored zero.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`Tensor::try_from_real_fn`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 10);
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::from_real_fn([1, 1, 1, 3], q, |[.., c]| c as f32);
    /// assert_eq!(t.to_row_major(), [10, 12, 14]);
    /// ```
    pub fn from_real_fn(dims: L::Index, interface: I, f: impl FnMut(L::Index) -> f32) -> Self {
        Self::try_from_real_fn(dims, interface, f).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor holding the stored form of `f(index)` at every logical index (see
    /// [`Tensor::from_real_fn`]).
    ///
    /// # Errors
    /// As for [`Tensor::try_zeros_with`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 10);
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::try_from_real_fn([1, 1, 1, 3], q, |[.., c]| c as f32).unwrap();
    /// assert_eq!(t.to_row_major(), [10, 12, 14]);
    /// assert_eq!(t.as_raw()[3], 10);
    /// ```
    pub fn try_from_real_fn(
        dims: L::Index,
        interface: I,
        mut f: impl FnMut(L::Index) -> f32,
    ) -> Result<Self, LayoutError> {
        let mapping = Mapping::<L>::new(dims)?;
        interface.check(&mapping.layout().axis_word(), dims.as_ref())?;
        let pad = interface.stored_zero(0);
        let mut t = Self::uninitialised(mapping, pad, interface)?;
        let channel = t.channel_position();
        let interface = t.interface.clone();
        t.for_each_in_memory_order_mut(|index, slot| {
            let c = channel.map_or(0, |axis| index[axis]);
            *slot = interface.stored(f(index), c);
        });
        t.write_interface_padding();
        Ok(t)
    }
}

impl<T: Element, L: Layout, I: Interface> Tensor<T, L, I> {
    /// The same storage read through `interface`: its padding rewritten to `interface`'s stored
    /// zero (the logical elements keep their stored values). Owned tensors only: a view over a
    /// caller's buffer takes its interface with
    /// [`TensorViewMut::from_slice_with`](crate::TensorViewMut::from_slice_with), where the
    /// caller says whether its padding is filled, checked or trusted.
    ///
    /// # Errors
    /// [`LayoutError::Interface`] when the interface does not fit the tensor (a per-channel
    /// interface along an axis it lacks, or with another number of channels).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let bytes = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 1, 3], |_| 130);
    /// let q = bytes.with_interface(ScaleOffset::new(0.25, 128)).unwrap();
    /// assert_eq!(q.real([0, 0, 0, 2]), 0.5);
    /// assert_eq!(q.as_raw()[3], 128); // padding holds real 0
    /// ```
    pub fn with_interface<I2>(self, interface: I2) -> Result<Tensor<T, L, I2>, LayoutError>
    where
        I2: RealValues<T> + ChannelZeros<T>,
    {
        interface.check(&self.mapping.layout().axis_word(), self.dims().as_ref())?;
        let (mapping, storage, _, _) = self.into_parts();
        let pad = interface.stored_zero(0);
        let mut out = TensorBase::from_parts(mapping, storage, pad, interface);
        out.write_interface_padding();
        Ok(out)
    }
}
