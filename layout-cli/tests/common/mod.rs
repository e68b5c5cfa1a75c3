//! Running the `layout` binary from the tests: its output, or its one-line failure.

#![allow(dead_code)] // each test binary uses its own part

use std::process::{Command, Output};

/// Runs `layout` with `args`.
pub fn layout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a good command: its stdout (fails the test, showing stderr, on an error).
pub fn ok(args: &[&str]) -> String {
    let out = layout(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a bad command: exit code 2, nothing on stdout, one line on stderr, no panic.
pub fn fails(args: &[&str]) -> String {
    let out = layout(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    stderr
}

/// Runs a bad command: it fails (as [`fails`] checks) with one line on stderr, `layout: `
/// and a message containing `expected`.
pub fn fails_with(args: &[&str], expected: &str) {
    let stderr = fails(args);
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("layout: ") && stderr.contains(expected),
        "{args:?}: {stderr}"
    );
}

/// The TPU-Kernel documentation's example: a (2, 3, 4, 5) fp32 tensor, aligned, starting at
/// NPU 2 of the example chip (LAYOUT, DIMS and options, after the subcommand).
pub const DOCUMENTED_ALIGNED: [&str; 6] = [
    "sophgo::EuAligned",
    "2x3x4x5",
    "--chip",
    "ExampleChip",
    "--address",
    "2048",
];

/// The value after `label` (padded to explain's 15 columns) on its line.
pub fn field<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{label:15}")))
        .unwrap_or_else(|| panic!("no {label:?} line in\n{out}"))
}
