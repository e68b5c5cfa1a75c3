//! Names, once, which vector kernels the library is built with, and tells layout-core's own
//! tests which x86-64 vector kernels can run where they are run.
//!
//! The kernels built (none with the feature `portable-kernels`):
//!
//! - `x86_kernels`: x86-64 with SSE2 (the SSE2 blocks; AVX2 and AVX-512 detected at run time).
//! - `neon_kernels`: little-endian aarch64 with NEON.
//! - `vector_kernels`: either of them (the code both share).
//!
//! A kernel test this CPU cannot run is reported as ignored, with the reason, not as passed.
//! The library itself asks the CPU at run time and reads none of these flags:
//!
//! - `kernel_tests_avx2`: AVX2.
//! - `kernel_tests_avx512`: AVX-512 F and BW.
//! - `kernel_tests_vbmi`: AVX-512 F, BW and VBMI.
//!
//! Natively the CPU that builds the tests is asked (they run on it). Under Miri, which has no
//! CPU to ask, the library's detection answers from the features the build enables
//! (`-C target-feature`), and so does this script.

use std::env;

const FLAGS: [(&str, &[&str]); 3] = [
    ("kernel_tests_avx2", &["avx2"]),
    ("kernel_tests_avx512", &["avx512f", "avx512bw"]),
    ("kernel_tests_vbmi", &["avx512f", "avx512bw", "avx512vbmi"]),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    kernels_built();
    for (flag, _) in FLAGS {
        println!("cargo::rustc-check-cfg=cfg({flag})");
    }
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return;
    }
    let runs: Box<dyn Fn(&str) -> bool> = if env::var_os("CARGO_CFG_MIRI").is_some() {
        let enabled = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
        Box::new(move |feature| enabled.split(',').any(|f| f == feature))
    } else if env::var("HOST") == env::var("TARGET") {
        Box::new(host_runs)
    } else {
        // Built for another machine: its CPU cannot be asked from here.
        return;
    };
    for (flag, features) in FLAGS {
        if features.iter().all(|feature| runs(feature)) {
            println!("cargo::rustc-cfg={flag}");
        }
    }
}

/// Emits `x86_kernels` or `neon_kernels`, and `vector_kernels` with either, for the target
/// being built.
fn kernels_built() {
    for flag in ["x86_kernels", "neon_kernels", "vector_kernels"] {
        println!("cargo::rustc-check-cfg=cfg({flag})");
    }
    if env::var_os("CARGO_FEATURE_PORTABLE_KERNELS").is_some() {
        return;
    }
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    let little = env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() == Ok("little");
    let flag = match env::var("CARGO_CFG_TARGET_ARCH").as_deref() {
        Ok("x86_64") if has("sse2") => "x86_kernels",
        Ok("aarch64") if has("neon") && little => "neon_kernels",
        _ => return,
    };
    println!("cargo::rustc-cfg={flag}");
    println!("cargo::rustc-cfg=vector_kernels");
}

/// Whether the CPU running this script runs `feature`.
#[cfg(target_arch = "x86_64")]
fn host_runs(feature: &str) -> bool {
    match feature {
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
        "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
        _ => false,
    }
}

/// A script built off x86-64 never builds the tests natively for x86-64.
#[cfg(not(target_arch = "x86_64"))]
fn host_runs(_: &str) -> bool {
    false
}
