//! oneDNN (formerly MKL-DNN) memory formats ("Understanding Memory Formats").
//!
//! Logical dims are oneDNN's, and each type names its axes by them: `NCW`, `NCHW`, `NCDHW` for
//! 1-D, 2-D and 3-D activations, `OIW`, `OIHW`, `OIDHW` for weights and `GOIHW` for grouped
//! weights, whatever the memory order (`nhwc` has axes `NCHW` too). Each type is the
//! [`onednn_layout!`](layout_core::onednn_layout) of its tag, so offsets equal oneDNN's for the
//! same tag and dims (padded dims rounded up to whole blocks, padding zero).
//!
//! ```
//! use layouts_catalog::onednn;
//! use layout_core::Mapping;
//! // oneDNN's documentation: offset_nChw8c(n, c, h, w) = n*C*H*W + (c/8)*H*W*8 + h*W*8 + w*8 + c%8.
//! let (c, h, w) = (17, 3, 5);
//! let m = Mapping::<onednn::nChw8c>::new([2, c, h, w]).unwrap();
//! let c_padded = 24;
//! assert_eq!(m.offset([1, 9, 2, 4]), c_padded * h * w + (9 / 8) * h * w * 8 + 2 * w * 8 + 4 * 8 + 9 % 8);
//! ```
#![allow(non_camel_case_types)]

use layout_core::onednn_layout;

/// `nchw` (`abcd` in positional letters): Plain NCHW: width fastest, then height, channels, batch (Caffe's default).
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nchw>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type nchw = onednn_layout!("nchw");

/// `nhwc` (`acdb` in positional letters): Plain NHWC: channels fastest (TensorFlow's default).
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 2,0, 3,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nhwc>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type nhwc = onednn_layout!("nhwc");

/// `chwn` (`bcda` in positional letters): Plain CHWN: batch fastest (Neon).
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `1,0, 2,0, 3,0, 0,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::chwn>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 5]);
/// ```
pub type chwn = onednn_layout!("chwn");

/// `nChw4c` (`aBcd4b` in positional letters): Channels blocked by 4, the 4-channel block innermost.
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,4`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw4c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 20, 3, 5]);
/// ```
pub type nChw4c = onednn_layout!("nChw4c");

/// `nChw8c` (`aBcd8b` in positional letters): Channels blocked by 8, the 8-channel block innermost (SSE4.2/AVX2 kernels).
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,8`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw8c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 24, 3, 5]);
/// ```
pub type nChw8c = onednn_layout!("nChw8c");

/// `nChw16c` (`aBcd16b` in positional letters): Channels blocked by 16, the 16-channel block innermost (AVX-512 kernels).
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw16c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 5]);
/// ```
pub type nChw16c = onednn_layout!("nChw16c");

/// `nChw32c` (`aBcd32b` in positional letters): Channels blocked by 32, the 32-channel block innermost.
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,32`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nChw32c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 5]);
/// ```
pub type nChw32c = onednn_layout!("nChw32c");

/// `NChw16n16c` (`ABcd16a16b` in positional letters): Batch and channels both blocked by 16: 16x16 (n, c) tiles innermost, channels fastest.
///
/// Axes `NCHW` (logical dims `[n, c, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::NChw16n16c>::new([2, 17, 3, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [16, 32, 3, 5]);
/// ```
pub type NChw16n16c = onednn_layout!("NChw16n16c");

/// `ncdhw` (`abcde` in positional letters): Plain 5-D NCDHW (3-D convolution activations).
///
/// Axes `NCDHW` (logical dims `[n, c, d, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 4,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ncdhw>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 4, 5]);
/// ```
pub type ncdhw = onednn_layout!("ncdhw");

/// `ndhwc` (`acdeb` in positional letters): Plain 5-D NDHWC, channels fastest.
///
/// Axes `NCDHW` (logical dims `[n, c, d, h, w]`); chunk list `0,0, 2,0, 3,0, 4,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ndhwc>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 17, 3, 4, 5]);
/// ```
pub type ndhwc = onednn_layout!("ndhwc");

/// `nCdhw16c` (`aBcde16b` in positional letters): 5-D activations, channels blocked by 16 innermost.
///
/// Axes `NCDHW` (logical dims `[n, c, d, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 4,0, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nCdhw16c>::new([2, 17, 3, 4, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 3, 4, 5]);
/// ```
pub type nCdhw16c = onednn_layout!("nCdhw16c");

/// `oihw` (`abcd` in positional letters): Plain OIHW convolution weights.
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::oihw>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type oihw = onednn_layout!("oihw");

/// `hwio` (`cdba` in positional letters): Plain HWIO weights (TensorFlow's filter order).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `2,0, 3,0, 1,0, 0,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::hwio>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type hwio = onednn_layout!("hwio");

/// `ohwi` (`acdb` in positional letters): Plain OHWI weights, input channels fastest.
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 2,0, 3,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ohwi>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type ohwi = onednn_layout!("ohwi");

/// `iohw` (`bacd` in positional letters): Plain IOHW weights (deconvolution).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `1,0, 0,0, 2,0, 3,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::iohw>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [20, 17, 3, 3]);
/// ```
pub type iohw = onednn_layout!("iohw");

/// `OIhw8i8o` (`ABcd8b8a` in positional letters): Weights in 8x8 (input, output) channel tiles, output channels fastest.
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 0,8`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw8i8o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [24, 24, 3, 3]);
/// ```
pub type OIhw8i8o = onednn_layout!("OIhw8i8o");

/// `OIhw16i16o` (`ABcd16b16a` in positional letters): Weights in 16x16 (input, output) channel tiles, output channels fastest (AVX-512 convolution).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,16, 0,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw16i16o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw16i16o = onednn_layout!("OIhw16i16o");

/// `OIhw16o16i` (`ABcd16a16b` in positional letters): Weights in 16x16 (output, input) channel tiles, input channels fastest.
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw16o16i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw16o16i = onednn_layout!("OIhw16o16i");

/// `IOhw16o16i` (`BAcd16a16b` in positional letters): Input-major weights in 16x16 (output, input) tiles (deconvolution).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `1,0, 0,0, 2,0, 3,0, 0,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::IOhw16o16i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type IOhw16o16i = onednn_layout!("IOhw16o16i");

/// `OIhw4i16o4i` (`ABcd4b16a4b` in positional letters): Weights in 16x16 tiles with input channels split 4 x 4, the inner 4 fastest (int8 VNNI kernels).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,4, 0,16, 1,4`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw4i16o4i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw4i16o4i = onednn_layout!("OIhw4i16o4i");

/// `OIhw8i16o2i` (`ABcd8b16a2b` in positional letters): Weights in 16x16 tiles with input channels split 8 x 2, pairs fastest (bf16 kernels).
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 0,16, 1,2`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIhw8i16o2i>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 3, 3]);
/// ```
pub type OIhw8i16o2i = onednn_layout!("OIhw8i16o2i");

/// `Ohwi16o` (`Acdb16a` in positional letters): Weights with output channels blocked by 16 innermost, input channels outside them.
///
/// Axes `OIHW` (logical dims `[o, i, h, w]`); chunk list `0,0, 2,0, 3,0, 1,0, 0,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::Ohwi16o>::new([20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 17, 3, 3]);
/// ```
pub type Ohwi16o = onednn_layout!("Ohwi16o");

/// `goihw` (`abcde` in positional letters): Plain grouped weights, groups outermost.
///
/// Axes `GOIHW` (logical dims `[g, o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 4,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::goihw>::new([2, 20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 20, 17, 3, 3]);
/// ```
pub type goihw = onednn_layout!("goihw");

/// `gOIhw16i16o` (`aBCde16c16b` in positional letters): Grouped weights in 16x16 (input, output) tiles per group.
///
/// Axes `GOIHW` (logical dims `[g, o, i, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 4,0, 2,16, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::gOIhw16i16o>::new([2, 20, 17, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 32, 32, 3, 3]);
/// ```
pub type gOIhw16i16o = onednn_layout!("gOIhw16i16o");

/// `ncw` (`abc` in positional letters): Plain 1-D activations, width fastest.
///
/// Axes `NCW` (logical dims `[n, c, w]`); chunk list `0,0, 1,0, 2,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::ncw>::new([2, 17, 5]).unwrap();
/// assert_eq!(m.offset([1, 2, 3]), 17 * 5 + 2 * 5 + 3);
/// ```
pub type ncw = onednn_layout!("ncw");

/// `nwc` (`acb` in positional letters): Plain 1-D activations, channels fastest.
///
/// Axes `NCW` (logical dims `[n, c, w]`); chunk list `0,0, 2,0, 1,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nwc>::new([2, 17, 5]).unwrap();
/// assert_eq!(m.offset([1, 2, 3]), 17 * 5 + 3 * 17 + 2);
/// ```
pub type nwc = onednn_layout!("nwc");

/// `nCw8c` (`aBc8b` in positional letters): 1-D activations, channels blocked by 8.
///
/// Axes `NCW` (logical dims `[n, c, w]`); chunk list `0,0, 1,0, 2,0, 1,8`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nCw8c>::new([1, 17, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [1, 24, 5]);
/// assert_eq!(m.offset([0, 9, 3]), 5 * 8 + 3 * 8 + 1);
/// ```
pub type nCw8c = onednn_layout!("nCw8c");

/// `nCw16c` (`aBc16b` in positional letters): 1-D activations, channels blocked by 16.
///
/// Axes `NCW` (logical dims `[n, c, w]`); chunk list `0,0, 1,0, 2,0, 1,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::nCw16c>::new([1, 17, 5]).unwrap();
/// assert_eq!(m.padded_dims(), [1, 32, 5]);
/// assert_eq!(m.offset([0, 16, 0]), 5 * 16);
/// ```
pub type nCw16c = onednn_layout!("nCw16c");

/// `oiw` (`abc` in positional letters): Plain 1-D convolution weights.
///
/// Axes `OIW` (logical dims `[o, i, w]`); chunk list `0,0, 1,0, 2,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::oiw>::new([4, 3, 5]).unwrap();
/// assert_eq!(m.offset([1, 2, 3]), 15 + 10 + 3);
/// ```
pub type oiw = onednn_layout!("oiw");

/// `oidhw` (`abcde` in positional letters): Plain 3-D convolution weights.
///
/// Axes `OIDHW` (logical dims `[o, i, d, h, w]`); chunk list `0,0, 1,0, 2,0, 3,0, 4,0`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::oidhw>::new([4, 3, 2, 3, 3]).unwrap();
/// assert_eq!(m.offset([0, 1, 0, 0, 0]), 18);
/// ```
pub type oidhw = onednn_layout!("oidhw");

/// `OIdhw16i16o` (`ABcde16b16a` in positional letters): 3-D weights in 16x16 channel tiles,
/// output channels fastest.
///
/// Axes `OIDHW` (logical dims `[o, i, d, h, w]`); chunk list
/// `0,0, 1,0, 2,0, 3,0, 4,0, 1,16, 0,16`.
///
/// ```
/// use layouts_catalog::onednn;
/// use layout_core::Mapping;
/// let m = Mapping::<onednn::OIdhw16i16o>::new([20, 17, 1, 3, 3]).unwrap();
/// assert_eq!(m.padded_dims(), [32, 32, 1, 3, 3]);
/// assert_eq!(m.offset([1, 0, 0, 0, 0]), 1);
/// assert_eq!(m.offset([0, 1, 0, 0, 0]), 16);
/// ```
pub type OIdhw16i16o = onednn_layout!("OIdhw16i16o");
