//! The interface traits ([`Interface`], [`RealValues`], [`ChannelZeros`]) and [`Plain`], the
//! default interface.

use super::rounding;
use core::fmt::Debug;
use core::ops::Range;

use crate::{LayoutError, axes::AxisWord};

/// How a tensor's stored values relate to real ones, for every element type.
///
/// Implemented by [`Plain`], [`ScaleOffset`](crate::quantized::ScaleOffset) and [`PerChannel`](crate::quantized::PerChannel); [`RealValues`] adds the
/// conversions for the element types an interface supports.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::quantized::Interface;
/// fn describe<I: Interface>(interface: &I) -> Option<char> { interface.channel_axis() }
/// assert_eq!(describe(&Plain), None);
/// assert_eq!(describe(&PerChannel::new('O', vec![(0.5, 0); 4])), Some('O'));
/// ```
pub trait Interface: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The axis, by name, whose index selects the parameters; `None` for one set per tensor.
    fn channel_axis(&self) -> Option<char> {
        None
    }

    /// Checks that the interface fits a tensor of these axes and dims (a per-channel interface
    /// needs its axis, with one parameter set per index).
    ///
    /// # Errors
    /// [`LayoutError::Interface`] naming what does not fit.
    fn check(&self, axes: &AxisWord, dims: &[usize]) -> Result<(), LayoutError> {
        let _ = (axes, dims);
        Ok(())
    }

    /// The interface of the part of a tensor whose channel axis is cut to `channels` (a view
    /// that slices that axis); per-tensor interfaces return themselves.
    #[must_use]
    fn channels(&self, channels: Range<usize>) -> Self {
        let _ = channels;
        self.clone()
    }

    /// The same parameters along the axis named `axis` (a view that reorders positional axes
    /// renames them by their new place); per-tensor interfaces return themselves.
    #[must_use]
    fn on_axis(&self, axis: char) -> Self {
        let _ = axis;
        self.clone()
    }
}

/// Where `interface`'s channel axis stands among `axes`: `None` for a per-tensor interface (or
/// axes without that name, which [`Interface::check`] refuses where it matters).
pub(crate) fn channel_position<I: Interface>(interface: &I, axes: &AxisWord) -> Option<usize> {
    axes.position_of(interface.channel_axis()?)
}

/// The real values of stored `T`: `real(stored)` and, rounding to nearest with ties to even and
/// saturating to `T`, `stored(real)`.
///
/// `channel` is the element's index along [`Interface::channel_axis`] (0 for per-tensor
/// interfaces).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::quantized::RealValues;
/// let q = ScaleOffset::new(0.5, 10);
/// assert_eq!(RealValues::<u8>::real(&q, 14, 0), 2.0);
/// assert_eq!(RealValues::<u8>::stored(&q, 2.0, 0), 14u8);
/// assert_eq!(RealValues::<u8>::stored_zero(&q, 0), 10u8);
/// ```
pub trait RealValues<T: Copy>: Interface {
    /// The real value of `stored`.
    fn real(&self, stored: T, channel: usize) -> f32;

    /// The stored value nearest to `real` (ties to even), saturated to `T`'s range; NaN stores
    /// the stored zero.
    fn stored(&self, real: f32, channel: usize) -> T;

    /// The stored value of real 0: what padding holds.
    fn stored_zero(&self, channel: usize) -> T {
        self.stored(0.0, channel)
    }
}

/// Where a tensor's padding takes its values from, for stored type `T`: one pad value for the
/// whole tensor (every interface but [`PerChannel`](crate::quantized::PerChannel), for every `T`), or the stored zero of the
/// channel each padding slot lies in.
///
/// The bound of the calls that write padding (relayout, [`Padding::Fill`](crate::tensors::Padding)), so
/// that they hold for plain tensors of any element type.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::quantized::ChannelZeros;
/// assert_eq!(ChannelZeros::<u8>::channel_zero(&ScaleOffset::new(1.0, 9), 0), None);
/// let q = PerChannel::new('O', vec![(1.0, 3), (1.0, 5)]);
/// assert_eq!(ChannelZeros::<u8>::channel_zero(&q, 1), Some(5));
/// ```
pub trait ChannelZeros<T: Copy>: Interface {
    /// The stored zero of `channel` where it differs per channel; `None` where the tensor's one
    /// pad value serves.
    fn channel_zero(&self, channel: usize) -> Option<T> {
        let _ = channel;
        None
    }
}

impl<T: Copy> ChannelZeros<T> for Plain {}

/// Stored values are the real values (float types), or integers read as they are.
///
/// The default interface: `Tensor<T, L>` is `Tensor<T, L, Plain>`. Its padding holds
/// `T::default()` unless the tensor is given another pad value.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<i8, htp::R4FlatMemoryLayout>::from_fn([1, 1, 1, 3], |[.., c]| c as i8 - 1);
/// assert_eq!(t.real([0, 0, 0, 0]), -1.0);
/// assert_eq!(*t.interface(), Plain);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Plain;

impl Interface for Plain {}

macro_rules! plain_integers {
    ($($t:ty),*) => {$(
        impl RealValues<$t> for Plain {
            fn real(&self, stored: $t, _: usize) -> f32 {
                stored as f32
            }
            fn stored(&self, real: f32, _: usize) -> $t {
                rounding::quantize(real.into(), 0.0, <$t>::MIN.into(), <$t>::MAX.into()) as $t
            }
        }
    )*};
}
plain_integers!(u8, i8, u16, i16, u32, i32);

impl RealValues<f32> for Plain {
    fn real(&self, stored: f32, _: usize) -> f32 {
        stored
    }
    fn stored(&self, real: f32, _: usize) -> f32 {
        real
    }
}

impl RealValues<f64> for Plain {
    fn real(&self, stored: f64, _: usize) -> f32 {
        stored as f32
    }
    fn stored(&self, real: f32, _: usize) -> f64 {
        real.into()
    }
}

impl RealValues<half::f16> for Plain {
    fn real(&self, stored: half::f16, _: usize) -> f32 {
        stored.to_f32()
    }
    fn stored(&self, real: f32, _: usize) -> half::f16 {
        half::f16::from_f32(real)
    }
}

impl RealValues<half::bf16> for Plain {
    fn real(&self, stored: half::bf16, _: usize) -> f32 {
        stored.to_f32()
    }
    fn stored(&self, real: f32, _: usize) -> half::bf16 {
        half::bf16::from_f32(real)
    }
}
