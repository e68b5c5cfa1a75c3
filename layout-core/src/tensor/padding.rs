//! What a tensor's padding holds: the interface's stored zero, written by the calls that own
//! the padding, and filled, checked or trusted in a caller's buffer as the caller chooses.

use super::constructors::{check_len, check_unique};
use super::{TensorBase, TensorView, TensorViewMut};
use crate::interface::contract::channel_position;
use crate::storage::{Storage, StorageMut};
use crate::tensors::Element;
use crate::{Layout, LayoutError, Mapping};
use crate::{quantized::ChannelZeros, quantized::RealValues};
use alloc::format;
use alloc::vec::Vec;
use core::fmt::Debug;

/// What a view over a caller's buffer does with the buffer's padding slots.
///
/// oneDNN writes zeros into the padding of a buffer a user attaches; a runtime that keeps its
/// own padding right may not want that. The choice is the caller's, by name.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::tensors::Padding;
/// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
/// let q = ScaleOffset::new(0.1, 128);
/// let mut buffer = vec![0u8; 2048];
/// let view = TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Fill).unwrap();
/// assert_eq!(view.as_raw()[2047], 128);
/// assert!(TensorView::from_slice_with(m, &buffer, q, Padding::Check).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Padding {
    /// Write the stored zero into every padding slot (writable views only).
    Fill,
    /// Check that every padding slot holds the stored zero; the error names the first that
    /// does not.
    Check,
    /// Neither read nor write the padding: the caller vouches for it. Relayouts into the view
    /// still write the stored zero there, as into any destination.
    Trust,
}

/// What each padding slot of a tensor holds under its interface (the tensor's pad value, or
/// the stored zero of the slot's channel), checked or written through whatever reaches the
/// slots: a contiguous buffer, or a chunk table.
pub(crate) struct PaddingRule<'a, L: Layout, I, T> {
    mapping: &'a Mapping<L>,
    interface: &'a I,
    pad: T,
    /// The interface's channel axis, by position in the layout's axes (per-channel
    /// interfaces).
    channel: Option<usize>,
}

impl<'a, L: Layout, T: Element, I: ChannelZeros<T>> PaddingRule<'a, L, I, T> {
    /// The padding of a tensor of `mapping`, read through `interface`, its pad value `pad`.
    pub(crate) fn new(mapping: &'a Mapping<L>, interface: &'a I, pad: T) -> Self {
        let channel = channel_position(interface, &mapping.layout().axis_word());
        PaddingRule {
            mapping,
            interface,
            pad,
            channel,
        }
    }

    /// Whether padding slots differ by channel (else every one holds the pad value).
    pub(crate) fn per_channel(&self) -> bool {
        self.channel.is_some()
    }

    /// The value padding slot `slot` holds.
    fn value(&self, slot: usize) -> T {
        let zero = self.channel.and_then(|axis| {
            let index = self.mapping.padded_index_of(slot)?;
            self.interface.channel_zero(index[axis])
        });
        zero.unwrap_or(self.pad)
    }

    /// `Ok` when every padding slot holds its value, `slot(n)` reading slot `n`.
    ///
    /// # Errors
    /// [`LayoutError::Padding`] naming the first slot that does not, its padded index, the
    /// value and the stored zero.
    pub(crate) fn check(&self, slot: impl Fn(usize) -> T) -> Result<(), LayoutError>
    where
        T: PartialEq + Debug,
    {
        let mut bad = None;
        self.mapping.for_each_padding(|range| {
            if bad.is_none() {
                bad = range.into_iter().find(|&n| slot(n) != self.value(n));
            }
        });
        match bad {
            None => Ok(()),
            Some(n) => Err(LayoutError::Padding {
                slot: n,
                index: self
                    .mapping
                    .padded_index_of(n)
                    .map_or_else(Vec::new, |index| Vec::from(index.as_ref())),
                found: format!("{:?}", slot(n)),
                expected: format!("{:?}", self.value(n)),
            }),
        }
    }

    /// Writes each padding slot's value with `put(slot, value)`.
    pub(crate) fn write(&self, mut put: impl FnMut(usize, T)) {
        self.mapping.for_each_padding(|range| {
            for n in range {
                put(n, self.value(n));
            }
        });
    }
}

impl<S: Storage, L: Layout, I: ChannelZeros<S::Elem>> TensorBase<S, L, I> {
    /// The first padding slot that does not hold what the interface says it holds.
    ///
    /// # Errors
    /// [`LayoutError::Padding`] naming the slot, its padded index, the value and the stored zero.
    fn check_padding(&self) -> Result<(), LayoutError>
    where
        S::Elem: PartialEq + Debug,
    {
        let slots = self.as_raw();
        PaddingRule::new(&self.mapping, &self.interface, self.pad).check(|n| slots[n])
    }
}

impl<S: StorageMut, L: Layout, I: ChannelZeros<S::Elem>> TensorBase<S, L, I> {
    /// Writes into every padding slot what the interface says it holds (see
    /// [`TensorBase::fill_padding`] for a plain tensor's own pad value).
    pub(crate) fn write_interface_padding(&mut self) {
        let rule = PaddingRule::new(&self.mapping, &self.interface, self.pad);
        if !rule.per_channel() {
            self.write_padding();
            return;
        }
        let slots = self.storage.slots_mut();
        rule.write(|n, value| slots[n] = value);
    }

    /// After a copy that wrote the pad value into every padding slot: each channel's own
    /// stored zero there instead, when the interface has a channel axis.
    pub(crate) fn write_channel_padding(&mut self) {
        if self.interface.channel_axis().is_some() {
            self.write_interface_padding();
        }
    }
}

impl<'a, T: Element + PartialEq + Debug, L: Layout, I: RealValues<T> + ChannelZeros<T>>
    TensorView<'a, T, L, I>
{
    /// A view of a caller's `storage` (padding included) through `mapping`, read through
    /// `interface`; its padding checked or trusted as `padding` says.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not `mapping.storage_len()`;
    /// [`LayoutError::Interface`] when the interface does not fit the dims;
    /// [`LayoutError::Padding`] (with [`Padding::Check`]) naming the first padding slot that
    /// does not hold the stored zero; [`LayoutError::ReadOnlyPadding`] for [`Padding::Fill`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::Padding;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let buffer = vec![128u8; 2048];
    /// let v = TensorView::from_slice_with(m, &buffer, ScaleOffset::new(0.1, 128), Padding::Check).unwrap();
    /// assert_eq!(v.real([0, 0, 0, 29]), 0.0);
    /// ```
    pub fn from_slice_with(
        mapping: Mapping<L>,
        storage: &'a [T],
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        check_len(&mapping, storage.len())?;
        interface.check(&mapping.layout().axis_word(), mapping.dims().as_ref())?;
        let pad = interface.stored_zero(0);
        let view = Self::from_parts(mapping, storage, pad, interface);
        match padding {
            Padding::Fill => Err(LayoutError::ReadOnlyPadding),
            Padding::Check => view.check_padding().map(|()| view),
            Padding::Trust => Ok(view),
        }
    }
}

impl<'a, T: Element + PartialEq + Debug, L: Layout, I: RealValues<T> + ChannelZeros<T>>
    TensorViewMut<'a, T, L, I>
{
    /// A writable view of a caller's `storage` (padding included) through `mapping`, read
    /// through `interface`; its padding filled with the stored zero, checked or trusted as
    /// `padding` says.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage.len()` is not `mapping.storage_len()`;
    /// [`LayoutError::StridesOverlap`] when two indices share a slot;
    /// [`LayoutError::Interface`] when the interface does not fit the dims;
    /// [`LayoutError::Padding`] (with [`Padding::Check`]) naming the first padding slot that
    /// does not hold the stored zero. The buffer is left untouched on every error.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::Padding;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let q = ScaleOffset::new(0.1, 128);
    /// let mut buffer = vec![7u8; 2048];
    /// assert!(TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Check).is_err());
    /// let mut v = TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Fill).unwrap();
    /// v.set_real([0, 0, 0, 0], 1.0);
    /// assert_eq!(buffer[..2], [138, 7]); // element 1 is the caller's; padding is real 0
    /// assert_eq!(buffer[30], 128);
    /// ```
    pub fn from_slice_with(
        mapping: Mapping<L>,
        storage: &'a mut [T],
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        check_len(&mapping, storage.len())?;
        check_unique(&mapping)?;
        interface.check(&mapping.layout().axis_word(), mapping.dims().as_ref())?;
        let pad = interface.stored_zero(0);
        let mut view = Self::from_parts(mapping, storage, pad, interface);
        match padding {
            Padding::Fill => view.write_interface_padding(),
            Padding::Check => view.check_padding()?,
            Padding::Trust => {}
        }
        Ok(view)
    }
}
