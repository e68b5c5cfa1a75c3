//! Aliases for the common axis words, to name axes in a type: `names::NCHW` is
//! `Named<'N', 'C', 'H', 'W'>`.
//!
//! ```
//! use tensor_layout::prelude::*;
//! let nhwc = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 2, 3, 4], |[_, h, w, c]| (h * 100 + w * 10 + c) as u8);
//! let as_nchw = nhwc.permuted::<names::NCHW>().unwrap(); // no copy
//! assert_eq!(as_nchw.dims(), [1, 4, 2, 3]);
//! assert_eq!(as_nchw[[0, 3, 1, 2]], nhwc[[0, 1, 2, 3]]);
//! ```

use crate::Named;

/// Batch, channels, height, width: oneDNN's and MegEngine's activations, Sophgo's tensors.
pub type NCHW = Named<'N', 'C', 'H', 'W'>;
/// Batch, height, width, channels: Qualcomm HTP's activations.
pub type NHWC = Named<'N', 'H', 'W', 'C'>;
/// Channels, height, width, batch.
pub type CHWN = Named<'C', 'H', 'W', 'N'>;
/// Batch, channels, width: oneDNN's 1-D activations.
pub type NCW = Named<'N', 'C', 'W'>;
/// Batch, width, channels.
pub type NWC = Named<'N', 'W', 'C'>;
/// Batch, channels, depth, height, width: oneDNN's 3-D activations.
pub type NCDHW = Named<'N', 'C', 'D', 'H', 'W'>;
/// Batch, depth, height, width, channels.
pub type NDHWC = Named<'N', 'D', 'H', 'W', 'C'>;
/// Output channels, input channels, width: oneDNN's 1-D weights.
pub type OIW = Named<'O', 'I', 'W'>;
/// Output channels, input channels, height, width: oneDNN's weights.
pub type OIHW = Named<'O', 'I', 'H', 'W'>;
/// Output channels, input channels, depth, height, width: oneDNN's 3-D weights.
pub type OIDHW = Named<'O', 'I', 'D', 'H', 'W'>;
/// Groups, output channels, input channels, height, width: oneDNN's grouped weights.
pub type GOIHW = Named<'G', 'O', 'I', 'H', 'W'>;
/// Filter height, filter width, input channels, output channels: Qualcomm HTP's weights.
pub type HWIO = Named<'H', 'W', 'I', 'O'>;
/// Output channels, height, width, input channels.
pub type OHWI = Named<'O', 'H', 'W', 'I'>;
/// Input channels, output channels, height, width: Sophgo's 2IC convolution weights.
pub type IOHW = Named<'I', 'O', 'H', 'W'>;
