//! Every input of the committed fuzz corpus (`fuzz/corpus/<target>/`), replayed through the
//! target's check: what fuzzing once found stays fixed, on stable Rust, in every test run.

use std::path::Path;

/// Runs `check` on every file of the corpus of `target`, naming the file of a failure; the
/// corpus must hold at least `least` inputs (so that a corpus left out is noticed).
fn replay(target: &str, check: fn(&[u8]), least: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut inputs = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("the corpus input {} breaks {target}", path.display());
        }
        inputs += 1;
    }
    assert!(
        inputs >= least,
        "{target}: only {inputs} corpus inputs found in {}",
        dir.display()
    );
}

#[test]
fn dyn_layout_parse_corpus() {
    replay(
        "dyn_layout_parse",
        tensor_layout_fuzz_checks::dyn_layout_parse,
        100,
    );
}

#[test]
fn dyn_tensor_relayout_corpus() {
    replay(
        "dyn_tensor_relayout",
        tensor_layout_fuzz_checks::dyn_tensor_relayout,
        100,
    );
}

#[test]
fn relayout_plan_corpus() {
    replay("relayout_plan", tensor_layout_fuzz_checks::relayout_plan, 5);
}

#[test]
fn wisdom_parse_corpus() {
    replay("wisdom_parse", tensor_layout_fuzz_checks::wisdom_parse, 5);
}

#[test]
fn cli_args_corpus() {
    replay("cli_args", tensor_layout_fuzz_checks::cli_args, 5);
}
