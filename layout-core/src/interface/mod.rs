//! Interfaces: what a tensor's stored numbers mean as real values (the Qualcomm HTP SDK's
//! plain and scale-offset interfaces; mdspan's accessor policy).
//!
//! A tensor's third type parameter is its interface, [`Plain`](contract::Plain) by default, so that
//! `Tensor<u8, L, ScaleOffset>` and `Tensor<u8, L>` are different types: a kernel written for
//! quantized activations does not accept plain bytes. The interface's parameters travel with
//! the tensor through relayout, views and dynamic conversion, and its stored zero is what padding
//! holds.

pub(crate) mod contract;
pub(crate) mod per_channel;
mod rounding;
pub(crate) mod scale_offset;
