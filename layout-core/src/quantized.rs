//! What stored values mean: a tensor's [`Interface`] ([`Plain`], HTP's [`ScaleOffset`], one
//! scale and offset per channel with [`PerChannel`]) and the conversions an interface gives
//! ([`RealValues`], [`ChannelZeros`]); and 4-bit elements ([`u4`], [`i4`]), stored two per byte
//! in a [`PackedTensor`] as MegEngine packs them.
//!
//! ```
//! use layout_core::quantized::{RealValues, ScaleOffset, u4};
//! let q = ScaleOffset::new(0.5, 10);
//! assert_eq!(RealValues::<u8>::real(&q, 14, 0), 2.0);
//! assert_eq!(u4::new(9).get(), 9);
//! ```

pub use crate::interface::contract::{ChannelZeros, Interface, Plain, RealValues};
pub use crate::interface::per_channel::PerChannel;
pub use crate::interface::scale_offset::ScaleOffset;
pub use crate::nibble::packed::PackedTensor;
pub use crate::nibble::values::{Nibble, i4, u4};
