//! Code the benches share: the relayout pairs with their pools and memcpy
//! (`relayout_pairs`), the timing of alternating calls (`alternating`), the Rust peers on the
//! plain transposes (`peers`), and the hand-written offset formulas (`hand_written`). Each bench
//! declares `mod support;` and uses its part.
// Every bench compiles all of it, so what one bench leaves unused is not dead code.
#![allow(dead_code)]

use tensor_layout::axes::RelayoutFrom;
use tensor_layout::tensors::Element as TensorElement;

pub mod alternating;
/// The library's aligned buffer, for `alternating`'s memcpy between buffers like a tensor's.
pub use tensor_layout::storage::AlignedBuffer;
pub mod hand_written;
pub mod peers;
pub mod relayout_pairs;
