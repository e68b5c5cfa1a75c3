//! The Sophgo TPU local-memory model (`tensor_layout::sophgo`): the worked examples of the
//! TPU-Kernel documentation, each with the documentation's numbers, and property tests against a
//! reference written from `docs/sophgo.md`.
//!
//! The toy chip of the documentation's pictures is `ExampleChip` (X = 4 NPUs, S = 1024 bytes,
//! 128-byte EU); "blocks" in the documentation are 4 bytes, one fp32 element.
//!
//! One test binary, a module per topic, so that `cargo test` links it once.

mod helpers;
mod property;

mod addresses;
mod axis_model;
mod layouts;
mod matrix;
mod placement_errors;
mod run_time;
mod scatter_features;
mod storage_modes;
mod store_load;
mod strides;
