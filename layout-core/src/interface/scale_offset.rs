//! One scale and offset per tensor: `real = scale * (stored - offset)`.

use super::contract::{ChannelZeros, Interface, RealValues};
use super::rounding::quantize;

/// The Qualcomm HTP SDK's scale-offset interface: `real = scale * (stored - offset)`, one pair
/// for the whole tensor.
///
/// Stored types: `u8`, `i8`, `u16`, `i16`, `i32`. Writing a real value divides by `scale` (in
/// `f64`), rounds to nearest with ties to even, then adds `offset` and saturates to the stored
/// type (ONNX's `QuantizeLinear` rule); NaN stores the offset. Padding holds the offset, the stored value of real 0.
///
/// ```
/// use tensor_layout::prelude::*;
/// let q = ScaleOffset::new(0.05, 128);
/// let mut t = Tensor::<u8, htp::R4CroutonLayout, _>::zeros_with([1, 2, 2, 3], q);
/// assert_eq!(t[[0, 0, 0, 0]], 128);        // real 0
/// assert_eq!(t.as_raw()[3], 128);          // so is the padding
/// t.set_real([0, 1, 1, 2], 1.0);
/// assert_eq!(t[[0, 1, 1, 2]], 148);
/// t.set_real([0, 0, 0, 1], 100.0);         // saturates
/// assert_eq!(t[[0, 0, 0, 1]], 255);
/// assert_eq!(t.real([0, 1, 1, 2]), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleOffset {
    /// The size of one stored step in real units.
    pub scale: f32,
    /// The stored value of real 0 (the zero point).
    pub offset: i32,
}

impl ScaleOffset {
    /// `real = scale * (stored - offset)`.
    ///
    /// A scale that is zero, negative or not finite is accepted as it is: reading multiplies by
    /// it; writing divides by it (real values then saturate to an end of the stored range, or
    /// store the offset where the quotient is NaN).
    ///
    /// ```
    /// use tensor_layout::quantized::ScaleOffset;
    /// let q = ScaleOffset::new(0.25, -3);
    /// assert_eq!((q.scale, q.offset), (0.25, -3));
    /// ```
    pub const fn new(scale: f32, offset: i32) -> Self {
        Self { scale, offset }
    }

    /// The real value of `stored`: `scale * (stored - offset)`, computed in `f64`.
    ///
    /// ```
    /// use tensor_layout::quantized::ScaleOffset;
    /// assert_eq!(ScaleOffset::new(0.5, 10).real_of(14), 2.0);
    /// ```
    pub fn real_of(&self, stored: i32) -> f32 {
        (f64::from(self.scale) * (f64::from(stored) - f64::from(self.offset))) as f32
    }

    /// `round(real / scale) + offset`, rounding to nearest with ties to even (then adding the
    /// offset, as ONNX's `QuantizeLinear` does), saturated to `[min, max]`; NaN gives the
    /// offset (saturated).
    ///
    /// ```
    /// use tensor_layout::quantized::ScaleOffset;
    /// let q = ScaleOffset::new(1.0, 0);
    /// assert_eq!([q.stored_in(2.5, 0, 255), q.stored_in(3.5, 0, 255), q.stored_in(-1.0, 0, 255)], [2, 4, 0]);
    /// ```
    pub fn stored_in(&self, real: f32, min: i32, max: i32) -> i32 {
        let steps = f64::from(real) / f64::from(self.scale);
        quantize(steps, self.offset.into(), min.into(), max.into()) as i32
    }
}

impl Interface for ScaleOffset {}

impl<T: Copy> ChannelZeros<T> for ScaleOffset {}

macro_rules! scale_offset_types {
    ($($t:ty),*) => {$(
        impl RealValues<$t> for ScaleOffset {
            fn real(&self, stored: $t, _: usize) -> f32 {
                self.real_of(stored.into())
            }
            fn stored(&self, real: f32, _: usize) -> $t {
                self.stored_in(real, <$t>::MIN.into(), <$t>::MAX.into()) as $t
            }
        }
    )*};
}
scale_offset_types!(u8, i8, u16, i16, i32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_round_to_even_and_saturate_per_stored_type() {
        let q = ScaleOffset::new(0.5, 10);
        let u8s: [u8; 6] = [0.25, 0.75, 1.25, -100.0, 1000.0, f32::NAN].map(|r| q.stored(r, 0));
        // 0.25 / 0.5 = 0.5 -> 0 (even) + 10; 1.5 -> 2; 2.5 -> 2; saturated; NaN -> offset.
        assert_eq!(u8s, [10, 12, 12, 0, 255, 10]);
        // An odd offset: -2.5 steps round to -2 before the offset is added.
        let odd: u8 = ScaleOffset::new(1.0, 5).stored(-2.5, 0);
        assert_eq!(odd, 3);
        let i8s: [i8; 2] = [-100.0, 1000.0].map(|r| q.stored(r, 0));
        assert_eq!(i8s, [-128, 127]);
        let i32s: [i32; 2] = [-3e9, 3e9].map(|r| ScaleOffset::new(1.0, 0).stored(r, 0));
        assert_eq!(i32s, [i32::MIN, i32::MAX]);
        let out_of_range = ScaleOffset::new(1.0, 300);
        assert_eq!(RealValues::<u8>::stored_zero(&out_of_range, 0), 255);
    }

    #[test]
    fn reads_subtract_the_offset_then_scale() {
        let q = ScaleOffset::new(0.05, 128);
        assert_eq!(RealValues::<u8>::real(&q, 128, 0), 0.0);
        assert_eq!(RealValues::<u8>::real(&q, 148, 0), 1.0);
        assert_eq!(RealValues::<i16>::real(&q, -872, 0), -50.0);
    }
}
