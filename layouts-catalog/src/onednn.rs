//! oneDNN (formerly MKL-DNN) memory formats (seeds 002 and 004).
//!
//! Logical dims are oneDNN's: `n, c, h, w` (`n, c, d, h, w` in 5-D) for activations,
//! `o, i, h, w` for weights and `g, o, i, h, w` for grouped weights. Each type is the
//! [`onednn_layout!`](layout_core::onednn_layout) of its tag, so offsets equal oneDNN's for the
//! same tag and dims (padded dims rounded up to whole blocks, padding zero).
//!
//! ```
//! use layouts_catalog::onednn;
//! use layout_core::Mapping;
//! // Seed 004: offset_nChw8c(n, c, h, w) = n*C*H*W + (c/8)*H*W*8 + h*W*8 + w*8 + c%8.
//! let (c, h, w) = (17, 3, 5);
//! let m = Mapping::<onednn::nChw8c>::new([2, c, h, w]).unwrap();
//! let c_padded = 24;
//! assert_eq!(m.offset([1, 9, 2, 4]), c_padded * h * w + (9 / 8) * h * w * 8 + 2 * w * 8 + 4 * 8 + 9 % 8);
//! ```
#![allow(non_camel_case_types)]

use layout_core::onednn_layout;

/// `nchw` (positional `abcd`): Plain NCHW: width fastest, then height, channels, batch (Caffe's default).
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nchw>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type nchw = onednn_layout!("nchw");

/// `nhwc` (positional `acdb`): Plain NHWC: channels fastest (TensorFlow's default).
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 2,0, 3,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nhwc>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type nhwc = onednn_layout!("nhwc");

/// `chwn` (positional `bcda`): Plain CHWN: batch fastest (Neon).
///
/// Logical dims `[n, c, h, w]`; chunk list `1,0, 2,0, 3,0, 0,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::chwn>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type chwn = onednn_layout!("chwn");

/// `nChw4c` (positional `aBcd4b`): Channels blocked by 4, the 4-channel block innermost.
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,4`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw4c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 20, 3, 5]);
/// ```
pub type nChw4c = onednn_layout!("nChw4c");

/// `nChw8c` (positional `aBcd8b`): Channels blocked by 8, the 8-channel block innermost (SSE4.2/AVX2 kernels).
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,8`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw8c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 24, 3, 5]);
/// ```
pub type nChw8c = onednn_layout!("nChw8c");

/// `nChw16c` (positional `aBcd16b`): Channels blocked by 16, the 16-channel block innermost (AVX-512 kernels).
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw16c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 5]);
/// ```
pub type nChw16c = onednn_layout!("nChw16c");

/// `nChw32c` (positional `aBcd32b`): Channels blocked by 32, the 32-channel block innermost.
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,32`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw32c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 5]);
/// ```
pub type nChw32c = onednn_layout!("nChw32c");

/// `NChw16n16c` (positional `ABcd16a16b`): Batch and channels both blocked by 16: 16x16 (n, c) tiles innermost, channels fastest.
///
/// Logical dims `[n, c, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::NChw16n16c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [16, 32, 3, 5]);
/// ```
pub type NChw16n16c = onednn_layout!("NChw16n16c");

/// `ncdhw` (positional `abcde`): Plain 5-D NCDHW (3-D convolution activations).
///
/// Logical dims `[n, c, d, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 4,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ncdhw>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 4, 5]);
/// ```
pub type ncdhw = onednn_layout!("ncdhw");

/// `ndhwc` (positional `acdeb`): Plain 5-D NDHWC, channels fastest.
///
/// Logical dims `[n, c, d, h, w]`; chunk list `0,0, 2,0, 3,0, 4,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ndhwc>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 4, 5]);
/// ```
pub type ndhwc = onednn_layout!("ndhwc");

/// `nCdhw16c` (positional `aBcde16b`): 5-D activations, channels blocked by 16 innermost.
///
/// Logical dims `[n, c, d, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 4,0, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nCdhw16c>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 4, 5]);
/// ```
pub type nCdhw16c = onednn_layout!("nCdhw16c");

/// `oihw` (positional `abcd`): Plain OIHW convolution weights.
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::oihw>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type oihw = onednn_layout!("oihw");

/// `hwio` (positional `cdba`): Plain HWIO weights (TensorFlow's filter order).
///
/// Logical dims `[o, i, h, w]`; chunk list `2,0, 3,0, 1,0, 0,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::hwio>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type hwio = onednn_layout!("hwio");

/// `ohwi` (positional `acdb`): Plain OHWI weights, input channels fastest.
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 2,0, 3,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ohwi>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type ohwi = onednn_layout!("ohwi");

/// `iohw` (positional `bacd`): Plain IOHW weights (deconvolution).
///
/// Logical dims `[o, i, h, w]`; chunk list `1,0, 0,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::iohw>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type iohw = onednn_layout!("iohw");

/// `OIhw8i8o` (positional `ABcd8b8a`): Weights in 8x8 (input, output) channel tiles, output channels fastest.
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 0,8`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw8i8o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [24, 24, 3, 3]);
/// ```
pub type OIhw8i8o = onednn_layout!("OIhw8i8o");

/// `OIhw16i16o` (positional `ABcd16b16a`): Weights in 16x16 (input, output) channel tiles, output channels fastest (AVX-512 convolution).
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,16, 0,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw16i16o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw16i16o = onednn_layout!("OIhw16i16o");

/// `OIhw16o16i` (positional `ABcd16a16b`): Weights in 16x16 (output, input) channel tiles, input channels fastest.
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw16o16i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw16o16i = onednn_layout!("OIhw16o16i");

/// `IOhw16o16i` (positional `BAcd16a16b`): Input-major weights in 16x16 (output, input) tiles (deconvolution).
///
/// Logical dims `[o, i, h, w]`; chunk list `1,0, 0,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::IOhw16o16i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type IOhw16o16i = onednn_layout!("IOhw16o16i");

/// `OIhw4i16o4i` (positional `ABcd4b16a4b`): Weights in 16x16 tiles with input channels split 4 x 4, the inner 4 fastest (int8 VNNI kernels).
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,4, 0,16, 1,4`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw4i16o4i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw4i16o4i = onednn_layout!("OIhw4i16o4i");

/// `OIhw8i16o2i` (positional `ABcd8b16a2b`): Weights in 16x16 tiles with input channels split 8 x 2, pairs fastest (bf16 kernels).
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 0,16, 1,2`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw8i16o2i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw8i16o2i = onednn_layout!("OIhw8i16o2i");

/// `Ohwi16o` (positional `Acdb16a`): Weights with output channels blocked by 16 innermost, input channels outside them.
///
/// Logical dims `[o, i, h, w]`; chunk list `0,0, 2,0, 3,0, 1,0, 0,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::Ohwi16o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 17, 3, 3]);
/// ```
pub type Ohwi16o = onednn_layout!("Ohwi16o");

/// `goihw` (positional `abcde`): Plain grouped weights, groups outermost.
///
/// Logical dims `[g, o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 4,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::goihw>::new([2, 20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 20, 17, 3, 3]);
/// ```
pub type goihw = onednn_layout!("goihw");

/// `gOIhw16i16o` (positional `aBCde16c16b`): Grouped weights in 16x16 (input, output) tiles per group.
///
/// Logical dims `[g, o, i, h, w]`; chunk list `0,0, 1,0, 2,0, 3,0, 4,0, 2,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::gOIhw16i16o>::new([2, 20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 32, 3, 3]);
/// ```
pub type gOIhw16i16o = onednn_layout!("gOIhw16i16o");
