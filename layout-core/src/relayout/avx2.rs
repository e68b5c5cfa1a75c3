//! The hot loops built a second time with AVX2 enabled, run where the CPU has it (x86-64 only).
//!
//! The loops themselves are the generic ones of [`kernels`], always inlined, so that these
//! wrappers compile them whole with AVX2: the same algorithms in VEX-encoded three-operand
//! instructions (no register copies for the two-operand SSE2 forms) and 32-byte moves for row
//! copies. Row copies and streamed transposes use them (docs/performance.md has what that
//! measured). Whether the CPU (and its OS) runs AVX2 is found once, with `cpuid`, by the
//! `cpufeatures` crate (`layout-core` is `no_std`, so `std::is_x86_feature_detected!` is not
//! available).

use super::kernels::{self, BlockMove, Reach};
use core::ops::Range;

cpufeatures::new!(cpuid_avx2, "avx2");

/// Whether this CPU runs AVX2 instructions (found on the first call, then cached).
#[inline]
pub(crate) fn available() -> bool {
    cpuid_avx2::get()
}

/// [`kernels::planes`] compiled with AVX2.
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)] // the kernel's arguments, as in `kernels::transpose`
pub(crate) unsafe fn planes<T: Copy, B: BlockMove<T>>(
    dst: &mut [T],
    d: usize,
    rows: &[(usize, usize)],
    src: &[T],
    s: usize,
    cols: &[(usize, usize)],
    reach: Reach,
) {
    kernels::planes::<T, B, true>(dst, d, rows, src, s, cols, reach);
}

/// [`kernels::copy_rows`] compiled with AVX2.
///
/// # Safety
///
/// The CPU runs AVX2 instructions ([`available`]).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn copy_rows<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
) {
    kernels::copy_rows(dst, d, src, s, rows, cols, reach);
}
