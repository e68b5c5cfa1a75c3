//! The 4-bit element types and the [`Nibble`] trait that packs them.

use crate::{quantized::Plain, quantized::RealValues, quantized::ScaleOffset};
use core::fmt;

mod sealed {
    pub trait Sealed {}
}

/// A 4-bit element type: [`u4`] or [`i4`], held in a nibble of a byte.
///
/// ```
/// use tensor_layout::{quantized::Nibble, quantized::i4, quantized::u4};
/// assert_eq!(u4::new(13).to_bits(), 13);
/// assert_eq!(i4::new(-3).to_bits(), 0b1101);
/// assert_eq!(i4::from_bits(0b1101), i4::new(-3));
/// ```
pub trait Nibble:
    Copy + Default + PartialEq + fmt::Debug + Send + Sync + sealed::Sealed + 'static
{
    /// The value's 4 bits (two's complement for [`i4`]), in the low nibble.
    fn to_bits(self) -> u8;
    /// The value whose 4 bits are the low nibble of `bits` (the high nibble is ignored).
    fn from_bits(bits: u8) -> Self;
}

/// An unsigned 4-bit integer, 0 to 15.
///
/// ```
/// use tensor_layout::quantized::u4;
/// assert_eq!(u4::new(15).get(), 15);
/// assert_eq!(u4::try_new(16), None);
/// ```
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct u4(u8);

/// A signed 4-bit integer, -8 to 7 (two's complement in its nibble).
///
/// ```
/// use tensor_layout::quantized::i4;
/// assert_eq!(i4::new(-8).get(), -8);
/// assert_eq!(i4::try_new(8), None);
/// ```
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct i4(i8);

impl u4 {
    /// The smallest value, 0.
    pub const MIN: Self = Self(0);
    /// The largest value, 15.
    pub const MAX: Self = Self(15);

    /// `value` as a `u4`.
    ///
    /// # Panics
    /// When `value` exceeds 15 ([`u4::try_new`] returns `None` instead).
    ///
    /// ```
    /// assert_eq!(tensor_layout::quantized::u4::new(9).get(), 9);
    /// ```
    pub const fn new(value: u8) -> Self {
        match Self::try_new(value) {
            Some(v) => v,
            None => panic!("a u4 holds 0 to 15"),
        }
    }

    /// `value` as a `u4`, `None` above 15.
    ///
    /// ```
    /// assert!(tensor_layout::quantized::u4::try_new(15).is_some());
    /// ```
    pub const fn try_new(value: u8) -> Option<Self> {
        if value <= 15 { Some(Self(value)) } else { None }
    }

    /// The value, 0 to 15.
    ///
    /// ```
    /// assert_eq!(tensor_layout::quantized::u4::new(4).get(), 4);
    /// ```
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl i4 {
    /// The smallest value, -8.
    pub const MIN: Self = Self(-8);
    /// The largest value, 7.
    pub const MAX: Self = Self(7);

    /// `value` as an `i4`.
    ///
    /// # Panics
    /// When `value` lies outside -8 to 7 ([`i4::try_new`] returns `None` instead).
    ///
    /// ```
    /// assert_eq!(tensor_layout::quantized::i4::new(-5).get(), -5);
    /// ```
    pub const fn new(value: i8) -> Self {
        match Self::try_new(value) {
            Some(v) => v,
            None => panic!("an i4 holds -8 to 7"),
        }
    }

    /// `value` as an `i4`, `None` outside -8 to 7.
    ///
    /// ```
    /// assert!(tensor_layout::quantized::i4::try_new(-9).is_none());
    /// ```
    pub const fn try_new(value: i8) -> Option<Self> {
        if -8 <= value && value <= 7 {
            Some(Self(value))
        } else {
            None
        }
    }

    /// The value, -8 to 7.
    ///
    /// ```
    /// assert_eq!(tensor_layout::quantized::i4::new(7).get(), 7);
    /// ```
    pub const fn get(self) -> i8 {
        self.0
    }
}

impl sealed::Sealed for u4 {}
impl sealed::Sealed for i4 {}

impl Nibble for u4 {
    fn to_bits(self) -> u8 {
        self.0
    }
    fn from_bits(bits: u8) -> Self {
        Self(bits & 0xF)
    }
}

impl Nibble for i4 {
    fn to_bits(self) -> u8 {
        self.0 as u8 & 0xF
    }
    fn from_bits(bits: u8) -> Self {
        // The nibble's sign bit moved to the byte's, then shifted back with sign extension.
        Self(((bits << 4) as i8) >> 4)
    }
}

impl fmt::Debug for u4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}u4", self.0)
    }
}

impl fmt::Debug for i4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}i4", self.0)
    }
}

impl fmt::Display for u4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Display for i4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<u4> for i32 {
    fn from(v: u4) -> i32 {
        v.0.into()
    }
}

impl From<i4> for i32 {
    fn from(v: i4) -> i32 {
        v.0.into()
    }
}

/// MegEngine's `Quantized4Asymm` (u4) and `QuantizedS4` (i4): scale and offset over 4 bits.
macro_rules! scale_offset_nibbles {
    ($($t:ident: $min:expr, $max:expr, $raw:ty;)*) => {$(
        impl RealValues<$t> for ScaleOffset {
            fn real(&self, stored: $t, _: usize) -> f32 {
                self.real_of(stored.into())
            }
            fn stored(&self, real: f32, _: usize) -> $t {
                $t(self.stored_in(real, $min, $max) as $raw)
            }
        }
    )*};
}
scale_offset_nibbles! {
    u4: 0, 15, u8;
    i4: -8, 7, i8;
}

/// Plain 4-bit integers: real values are the integers, written back rounded (ties to even) and
/// saturated.
macro_rules! plain_nibbles {
    ($($t:ident: $min:expr, $max:expr, $raw:ty;)*) => {$(
        impl RealValues<$t> for Plain {
            fn real(&self, stored: $t, _: usize) -> f32 {
                stored.get().into()
            }
            fn stored(&self, real: f32, _: usize) -> $t {
                $t(ScaleOffset::new(1.0, 0).stored_in(real, $min, $max) as $raw)
            }
        }
    )*};
}
plain_nibbles! {
    u4: 0, 15, u8;
    i4: -8, 7, i8;
}
