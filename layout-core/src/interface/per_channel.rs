//! One scale and offset per index of a named axis (per-output-channel int8 weights in oneDNN
//! and MegEngine; the Qualcomm HTP SDK's axis scale-offset).

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Range;

use super::contract::{ChannelZeros, Interface, RealValues};
use super::scale_offset::ScaleOffset;
use crate::{LayoutError, axes::AxisWord};

/// A [`ScaleOffset`] per index of one named axis: the element at `[.., o, ..]` of axis `'O'`
/// means `scale[o] * (stored - offset[o])`.
///
/// The parameters are shared (cloning the interface, as views and relayouts do, copies a
/// pointer). They travel with the axis's name, so a relayout that moves `O` elsewhere keeps
/// each output channel's pair; a view that slices the axis keeps the pairs of its channels.
/// Padding inside channel `o` holds `offset[o]`; padding past the last channel (a blocked
/// layout rounding the axis up) holds the stored zero of the last channel.
///
/// ```
/// use tensor_layout::prelude::*;
/// // Two output channels of an OIhw weight: scales 0.5 and 0.25, offsets 0 and 4.
/// let q = PerChannel::new('O', vec![(0.5, 0), (0.25, 4)]);
/// let mut w = Tensor::<i8, onednn::oihw, _>::zeros_with([2, 3, 1, 1], q);
/// assert_eq!((w[[0, 0, 0, 0]], w[[1, 0, 0, 0]]), (0, 4));
/// w.set_real([1, 2, 0, 0], 1.0);
/// assert_eq!(w[[1, 2, 0, 0]], 8);
/// assert_eq!(w.real([1, 2, 0, 0]), 1.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PerChannel {
    axis: char,
    channels: Arc<[ScaleOffset]>,
}

impl PerChannel {
    /// One `(scale, offset)` per index of the axis named `axis`, in index order.
    ///
    /// Whether the axis exists and has that many indices is checked when the interface meets
    /// a tensor ([`Interface::check`]).
    ///
    /// ```
    /// use tensor_layout::quantized::PerChannel;
    /// let q = PerChannel::new('C', vec![(0.1, 0), (0.2, 0)]);
    /// assert_eq!(q.axis(), 'C');
    /// assert_eq!(q.pairs()[1].scale, 0.2);
    /// ```
    pub fn new(axis: char, pairs: Vec<(f32, i32)>) -> Self {
        let channels = pairs
            .into_iter()
            .map(|(scale, offset)| ScaleOffset::new(scale, offset))
            .collect();
        Self { axis, channels }
    }

    /// The named axis whose index selects the pair.
    ///
    /// ```
    /// use tensor_layout::quantized::PerChannel;
    /// assert_eq!(PerChannel::new('O', vec![(1.0, 0)]).axis(), 'O');
    /// ```
    pub fn axis(&self) -> char {
        self.axis
    }

    /// The pairs, one per index of the axis.
    ///
    /// ```
    /// use tensor_layout::{quantized::PerChannel, quantized::ScaleOffset};
    /// let q = PerChannel::new('O', vec![(1.0, 3)]);
    /// assert_eq!(q.pairs(), [ScaleOffset::new(1.0, 3)]);
    /// ```
    pub fn pairs(&self) -> &[ScaleOffset] {
        &self.channels
    }

    /// The pair of `channel`; past the last channel (padding), the last pair.
    fn pair(&self, channel: usize) -> &ScaleOffset {
        let last = self.channels.len().saturating_sub(1);
        &self.channels[channel.min(last)]
    }
}

impl Interface for PerChannel {
    fn channel_axis(&self) -> Option<char> {
        Some(self.axis)
    }

    fn check(&self, axes: &AxisWord, dims: &[usize]) -> Result<(), LayoutError> {
        let word = axes.as_str();
        let Some(position) = axes.position_of(self.axis) else {
            return Err(LayoutError::Interface {
                reason: alloc::format!(
                    "a per-channel interface along axis `{}` needs a layout with that axis; \
                     this one has axes `{word}`",
                    self.axis
                ),
            });
        };
        let extent = dims[position];
        if extent != self.channels.len() || self.channels.is_empty() {
            return Err(LayoutError::Interface {
                reason: alloc::format!(
                    "a per-channel interface along axis `{}` has {} (scale, offset) pairs \
                     for {extent} indices of that axis; it needs one per index",
                    self.axis,
                    self.channels.len()
                ),
            });
        }
        Ok(())
    }

    fn on_axis(&self, axis: char) -> Self {
        Self {
            axis,
            channels: self.channels.clone(),
        }
    }

    fn channels(&self, channels: Range<usize>) -> Self {
        Self {
            axis: self.axis,
            channels: self.channels[channels].into(),
        }
    }
}

macro_rules! per_channel_types {
    ($($t:ty),*) => {$(
        impl RealValues<$t> for PerChannel {
            fn real(&self, stored: $t, channel: usize) -> f32 {
                self.pair(channel).real_of(stored.into())
            }
            fn stored(&self, real: f32, channel: usize) -> $t {
                self.pair(channel).stored_in(real, <$t>::MIN.into(), <$t>::MAX.into()) as $t
            }
        }
        impl ChannelZeros<$t> for PerChannel {
            fn channel_zero(&self, channel: usize) -> Option<$t> {
                Some(self.stored_zero(channel))
            }
        }
    )*};
}
per_channel_types!(u8, i8, u16, i16, i32);
