//! Tells the driver whether the library it is built against has the `RelayoutFrom` bound on
//! conversions by name, and the `Element` bound on what a tensor stores (commits before them do
//! not; the driver then uses stand-ins), and whether those sit in the modules `axes` and
//! `tensors` or at the crate's root (commits before the items were grouped by concern). The
//! library is the path dependency `tensor-layout` in this crate's manifest, which
//! `benches/ab.sh` points at each compared commit's checkout.

use std::path::Path;
use std::{env, fs};

fn main() {
    println!("cargo::rerun-if-changed=Cargo.toml");
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let manifest = fs::read_to_string(Path::new(&dir).join("Cargo.toml")).expect("the manifest");
    let library = manifest
        .lines()
        .find_map(|line| line.strip_prefix("tensor-layout = { path = \""))
        .and_then(|rest| rest.split('"').next())
        .expect("a path dependency on tensor-layout");
    let library = Path::new(&dir).join(library);
    let sources = library.join("layout-core").join("src");
    println!("cargo::rerun-if-changed={}", sources.display());
    if declares(&sources, "pub trait RelayoutFrom") {
        println!("cargo::rustc-cfg=library_has_relayout_from");
    }
    if declares(&sources, "pub trait Element") {
        println!("cargo::rustc-cfg=library_has_element");
    }
    if declares(&sources, "pub mod axes;") {
        println!("cargo::rustc-cfg=library_has_modules");
    }
}

/// Whether any Rust file under `dir` holds `declaration` (such as `pub trait RelayoutFrom`).
fn declares(dir: &Path, declaration: &str) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            declares(&path, declaration)
        } else {
            path.extension().is_some_and(|e| e == "rs")
                && fs::read_to_string(&path).is_ok_and(|text| text.contains(declaration))
        }
    })
}
