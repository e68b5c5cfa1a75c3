//! The kernel choices whose best answer differs between processor families, found once
//! per process from the CPU's vendor.
//!
//! Every other choice of the relayout engine (block sizes, prefetch distances, when to stream)
//! measured alike on the machines it was tuned on. These three did not (docs/performance.md,
//! "Two machines"). On an Intel Sapphire Rapids class core: writing two destination lines per
//! row on each visit of a streamed transpose was 1.08-1.10x faster than one; streaming tiles of
//! exactly one 16-row block (f32 nChw16c->nchw) was 0.81-0.95x of writing them through the
//! cache; streamed blocks whose source lines are under 2 KiB apart ran 1.09-1.19x faster
//! without a source prefetch. On an AMD Zen 4 core: one line per visit was 1.24-1.36x faster
//! than two (f32 nhwc->nchw), streaming those tiles 1.38-1.76x faster (f32 nChw16c->nchw), and
//! prefetching the source of blocks whose lines are 1 KiB apart 1.11x faster (median of nine
//! runs, f32 nhwc->nchw). The choices only pick between kernels that are correct either way,
//! so a wrong guess costs speed, never results.

use core::sync::atomic::{AtomicU8, Ordering};

/// How the transposes run on this processor family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// Most destination lines a transpose writes per row on one visit (the `lines_per_visit`
    /// of `kernels`).
    pub lines_per_visit: usize,
    /// Whether tiles of exactly one 16-row block stream their destination lines too (tiles of
    /// more rows always do, once the destination is past the caches).
    pub stream_one_block_tiles: bool,
    /// Least distance in bytes between a streamed block's source lines for the block to
    /// prefetch them (the `prefetches_source` of `kernels`).
    pub prefetch_apart: usize,
}

impl Tuning {
    /// Intel cores (Sapphire Rapids class measured), and the choice for every vendor not
    /// measured.
    pub(crate) const INTEL: Tuning = Tuning {
        lines_per_visit: 2,
        stream_one_block_tiles: false,
        prefetch_apart: 2048,
    };

    /// AMD cores (Zen 4 measured).
    pub(crate) const AMD: Tuning = Tuning {
        lines_per_visit: 1,
        stream_one_block_tiles: true,
        prefetch_apart: 512,
    };

    /// The tuning of the CPU this runs on: found with `cpuid` on the first call, then cached.
    pub(crate) fn current() -> Tuning {
        static FOUND: AtomicU8 = AtomicU8::new(UNKNOWN);
        let mut found = FOUND.load(Ordering::Relaxed);
        if found == UNKNOWN {
            found = if vendor_is_amd() { AMD } else { INTEL };
            FOUND.store(found, Ordering::Relaxed);
        }
        if found == AMD {
            Tuning::AMD
        } else {
            Tuning::INTEL
        }
    }
}

const UNKNOWN: u8 = 0;
const INTEL: u8 = 1;
const AMD: u8 = 2;

/// Whether `cpuid` names AMD (or Hygon, whose cores are AMD's Zen) as the vendor.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(super) fn vendor_is_amd() -> bool {
    let id = core::arch::x86_64::__cpuid(0);
    // The vendor string is EBX, EDX, ECX: "AuthenticAMD", "HygonGenuine".
    let vendor = [id.ebx, id.edx, id.ecx];
    vendor == words(b"AuthenticAMD") || vendor == words(b"HygonGenuine")
}

/// Miri has no `cpuid`, and other architectures have neither vendor: the default tuning.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(super) fn vendor_is_amd() -> bool {
    false
}

/// A 12-byte vendor string as `cpuid` returns it: three little-endian 32-bit words.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
fn words(vendor: &[u8; 12]) -> [u32; 3] {
    let word =
        |i: usize| u32::from_le_bytes([vendor[i], vendor[i + 1], vendor[i + 2], vendor[i + 3]]);
    [word(0), word(4), word(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_strings_are_read_as_cpuid_returns_them() {
        // cpuid(0) on an AMD EPYC: EBX "Auth", EDX "enti", ECX "cAMD".
        assert_eq!(
            words(b"AuthenticAMD"),
            [0x6874_7541, 0x6974_6e65, 0x444d_4163]
        );
    }

    #[test]
    fn the_tuning_found_is_one_of_the_measured_ones_and_stays() {
        let first = Tuning::current();
        assert!(first == Tuning::INTEL || first == Tuning::AMD);
        assert_eq!(Tuning::current(), first);
        if cfg!(miri) || !cfg!(target_arch = "x86_64") {
            assert_eq!(first, Tuning::INTEL);
        }
    }
}
