//! Property tests of the Sophgo local-memory model (`tensor_layout::sophgo`) against a reference
//! written here from `docs/sophgo.md`, over random chips (the documentation's toy chip and the three
//! presets), random small dims (zeros and ones included), every local layout (compact,
//! EU-aligned, line-aligned, free strides, matrix), every storage mode (4N, 2N, 2IC), several
//! element types and random start addresses (so random start NPUs):
//!
//! - every element's location is the documented formula's, lies inside its NPU, and no two
//!   elements (dummies included) share a byte; the packed view agrees; a placement that fails
//!   fails with the documented error and numbers ([`locations`]);
//! - store then load gives back exactly the tensor stored, writes zero into the dummies and no
//!   byte that is not the tensor's; a store or load of other dims changes nothing
//!   ([`store_load`]);
//! - bad input gives the documented error variant (`AddressOutOfRange`, `Misaligned`,
//!   `NpuOverflow`, `ElementSize`, ...) with its numbers, never a panic ([`bad_input`]).
//!
//! Address split and join, the fourth property, lives with the address examples
//! (`addresses.rs`).
//!
//! `PROPTEST_CASES=N` sets the number of cases per property (defaults: 1000 for the locations,
//! 1000 for the store/load round trip, 2000 + 2000 for split/join, 1000 for bad input).

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};

pub(crate) mod inputs;
pub(crate) mod reference;
#[macro_use]
pub(crate) mod library;
pub(crate) mod bad_input;
pub(crate) mod locations;
pub(crate) mod store_load;

/// The number of cases of a property: `PROPTEST_CASES` when set, else `default`.
pub(crate) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `test` on `cases` values of `strategy`, panicking with proptest's report (the minimal
/// failing input) on failure. A runner rather than `proptest!` so that the closures can share
/// the per-thread memories of [`library`].
pub(crate) fn run<S: Strategy>(
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        max_local_rejects: 1_000_000,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}
