//! Every input of the committed fuzz corpus (`fuzz/corpus/<target>/`), replayed through the
//! target's check: what fuzzing once found stays fixed, on stable Rust, in every test run.

use std::path::Path;

/// Runs `check` on every file of the corpus of `target`, naming the file of a failure.
fn replay(target: &str, check: fn(&[u8])) {
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
        inputs > 100,
        "{target}: only {inputs} corpus inputs found in {}",
        dir.display()
    );
}

#[test]
fn dyn_layout_parse_corpus() {
    replay(
        "dyn_layout_parse",
        tensor_layout_fuzz_checks::dyn_layout_parse,
    );
}

#[test]
fn dyn_tensor_relayout_corpus() {
    replay(
        "dyn_tensor_relayout",
        tensor_layout_fuzz_checks::dyn_tensor_relayout,
    );
}
