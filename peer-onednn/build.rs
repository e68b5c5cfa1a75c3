//! Compiles the C++ side (src/reorder.cpp) against oneDNN and links it.

fn main() {
    println!("cargo:rerun-if-changed=src/reorder.cpp");
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .file("src/reorder.cpp")
        .compile("peer_reorder");
    println!("cargo:rustc-link-lib=dnnl");
    // oneDNN's thread count is OpenMP's (`omp_set_num_threads`).
    println!("cargo:rustc-link-lib=gomp");
}
