//! 4-bit elements, `u4` and `i4`, and [`PackedTensor`](crate::quantized::PackedTensor), which stores them two per byte.
//!
//! MegEngine's `NCHW64` holds int4 and uint4 data; packed two per byte in storage order, the
//! element at an even storage slot in the low nibble and the next one in the high nibble. A
//! byte cannot be borrowed per nibble, so these tensors are read and written by value
//! ([`PackedTensor::value`](crate::quantized::PackedTensor::value), [`PackedTensor::set`](crate::quantized::PackedTensor::set)).

mod convert;
pub(crate) mod packed;
pub(crate) mod values;
