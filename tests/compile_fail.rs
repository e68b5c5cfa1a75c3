//! Programs that must not compile, with their expected messages under `tests/ui/`.
//!
//! The `pass` cases make trybuild run a full `cargo build` rather than `cargo check`: invalid
//! chunk lists are rejected when their constants are evaluated, which `cargo check` skips.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/*.rs");
}
