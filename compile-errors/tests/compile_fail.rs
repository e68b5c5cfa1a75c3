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

/// The README and every guide under `docs/` (paths from the workspace's root, where this
/// crate's directory lies): where compiler errors are quoted.
fn documents() -> Vec<std::path::PathBuf> {
    let mut docs: Vec<_> = std::fs::read_dir("../docs")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, "../README.md".into());
    docs
}

/// Checks that `quote` is a contiguous run of the lines of `real`, or several such runs in
/// order with a line `...` between them (an omission); lines compare exactly, trailing spaces
/// aside. Says where the quote stops matching otherwise.
fn quote_is_contiguous(quote: &[&str], real: &[&str]) -> Result<(), String> {
    let real: Vec<&str> = real.iter().map(|l| l.trim_end()).collect();
    let mut from = 0;
    for run in quote.split(|line| line.trim() == "...") {
        let run: Vec<&str> = run.iter().map(|l| l.trim_end()).collect();
        if run.is_empty() {
            continue;
        }
        let at = (from..=real.len().saturating_sub(run.len()))
            .find(|&at| real[at..].starts_with(&run))
            .ok_or_else(|| {
                format!(
                    "these lines are not a run of the real output after its line {from}:\n{}",
                    run.join("\n")
                )
            })?;
        from = at + run.len();
    }
    Ok(())
}

#[test]
fn a_quote_must_follow_the_real_lines_without_gaps() {
    let real = ["error: one", "  |", "2 | x", "  |", "error: two"];
    assert!(quote_is_contiguous(&["error: one", "  |", "2 | x"], &real).is_ok());
    assert!(quote_is_contiguous(&["error: one", "...", "error: two"], &real).is_ok());
    // A line left out without `...`, lines out of order, a line that is not there.
    assert!(quote_is_contiguous(&["error: one", "2 | x"], &real).is_err());
    assert!(quote_is_contiguous(&["error: two", "...", "error: one"], &real).is_err());
    assert!(quote_is_contiguous(&["error: three"], &real).is_err());
}

/// Every compiler error the README and the guides quote is part of a real run: each block that
/// follows a `<!-- quoted from compile-errors/tests/ui/X.stderr -->` line is a contiguous run
/// of that file's lines, or several runs in order with a line `...` marking each omission; and
/// a text block that shows a compiler error without such a line is refused. The `ui` test
/// keeps the `.stderr` files true.
#[test]
fn quoted_errors_are_real() {
    let mut quoted = 0;
    for doc in documents() {
        let doc = doc.display().to_string();
        let text = std::fs::read_to_string(&doc).unwrap();
        let mut source = None;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if let Some(path) = line
                .strip_prefix("<!-- quoted from ")
                .and_then(|rest| rest.strip_suffix(" -->"))
            {
                source = Some(path.to_string());
                continue;
            }
            if line != "```text" {
                source = None;
                continue;
            }
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            let shows_an_error = block
                .iter()
                .any(|l| l.starts_with("error[") || l.starts_with("error:"));
            let Some(path) = source.take() else {
                assert!(
                    !shows_an_error,
                    "{doc} shows a compiler error without saying which .stderr it quotes:\n{}",
                    block.join("\n")
                );
                continue;
            };
            let stderr = std::fs::read_to_string(format!("../{path}"))
                .unwrap_or_else(|e| panic!("{doc} quotes {path}: {e}"));
            let real: Vec<&str> = stderr.lines().collect();
            if let Err(problem) = quote_is_contiguous(&block, &real) {
                panic!("{doc} quotes {path}: {problem}");
            }
            quoted += 1;
        }
    }
    assert!(
        quoted >= 5,
        "the README and the guides quote errors ({quoted} found)"
    );
}

/// The five commonest mistakes, and a plan made across axis names, are type errors, which
/// `cargo check` (and so every editor) reports, and their first screen names both layouts at
/// the user's line: the error's first
/// lines hold the message, the user's file and line, and both layouts' list or axis words.
#[test]
fn the_commonest_mistakes_are_type_errors_that_name_both_layouts() {
    let cases: [(&str, &[&str]); 6] = [
        ("onednn_nhwc_for_nchw", &["`abcd`", "`acdb`", "NCHW"]),
        ("wrong_axis_names_argument", &["`NCHW`", "`NHWC`", "abcd"]),
        (
            "relayout_across_name_sets",
            &["aBCD8b8c32d, NHWC", "ABcd16b16a, OIHW"],
        ),
        (
            "positional_for_named_argument",
            &["`NCHW`", "Positional", "abcd"],
        ),
        (
            "plain_tensor_for_quantized_op",
            &["aBCD8b8c32d, NHWC", "ScaleOffset", "Plain"],
        ),
        (
            "plan_across_name_sets",
            &["aBCD8b8c32d, NHWC", "ABcd16b16a, OIHW"],
        ),
    ];
    for (case, layouts) in cases {
        let path = format!("tests/ui/{case}.stderr");
        let stderr = std::fs::read_to_string(&path).unwrap();
        let first_screen: Vec<&str> = stderr.lines().take(12).collect();
        let first_screen = first_screen.join("\n");
        assert!(
            first_screen.starts_with("error[E0308]") || first_screen.starts_with("error[E0277]"),
            "{path}: not a type error, so `cargo check` would not report it:\n{first_screen}"
        );
        assert!(
            first_screen.contains(&format!("--> tests/ui/{case}.rs:")),
            "{path}: the error does not point at the user's file first:\n{first_screen}"
        );
        for layout in layouts {
            assert!(
                first_screen.contains(layout),
                "{path}: the first screen does not name {layout}:\n{first_screen}"
            );
        }
    }
}
