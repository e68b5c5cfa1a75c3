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

/// Every compiler error the README and the guides quote is part of a real run: each block that
/// follows a `<!-- quoted from tests/ui/X.stderr -->` line holds only lines of that file (trimmed,
/// as trybuild normalises paths and spacing). The `ui` test keeps the `.stderr` files true.
#[test]
fn quoted_errors_are_real() {
    let mut quoted = 0;
    for doc in [
        "README.md",
        "docs/macros.md",
        "docs/concepts.md",
        "docs/migration.md",
    ] {
        let text = std::fs::read_to_string(doc).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(source) = line
                .strip_prefix("<!-- quoted from ")
                .and_then(|rest| rest.strip_suffix(" -->"))
            else {
                continue;
            };
            let stderr = std::fs::read_to_string(source)
                .unwrap_or_else(|e| panic!("{doc} quotes {source}: {e}"));
            let real: Vec<&str> = stderr.lines().map(str::trim).collect();
            assert_eq!(
                lines.next(),
                Some("```text"),
                "{doc}: a text block follows the marker"
            );
            for quote in lines.by_ref().take_while(|l| *l != "```") {
                let quote = quote.trim();
                assert!(
                    real.contains(&quote),
                    "{doc} quotes a line that {source} does not have:\n{quote}"
                );
            }
            quoted += 1;
        }
    }
    assert!(quoted >= 3, "the README and docs/macros.md quote errors");
}
