//! Two to four interleaved byte planes split apart with AVX-512 VBMI (x86-64 only): NHWC ->
//! NCHW of bytes of 2, 3 or 4 channels (RGB and RGBA images). `vpermt2b` picks any 64 of the
//! 128 bytes of two registers, so `N - 1` of them make each 64-byte plane line out of `N`
//! source lines (64 pixels); the loops of the narrow kernels split bytes one shuffle network
//! at a time, far slower than these. The plane lines go through the caches even into a
//! destination past them, as the narrow kernels' bytes do: streamed, the same split is
//! slower. The other way, zipping three planes into rows with two `vpermt2b` per line runs as
//! fast as the narrow kernels' loops, which keep it (docs/engine-measurements.md, "VBMI byte
//! split"). Detection as in [`super::avx2`]: once, with `cpuid`.

use super::shuffle::load_register;
use crate::relayout::stores::store;
use core::arch::x86_64::__m512i;
#[cfg(not(miri))]
use core::arch::x86_64::_mm512_permutex2var_epi8;

cpufeatures::new!(cpuid_vbmi, "avx512f", "avx512bw", "avx512vbmi");

/// Whether this CPU runs AVX-512 F, BW and VBMI instructions (found on the first call, then
/// cached).
/// The cache is `cpufeatures`' atomic, so any number of threads may ask at once: a race
/// detects twice and stores the same answer.
#[inline]
pub(crate) fn available() -> bool {
    cpuid_vbmi::get()
}

/// `planes[c][k] = input[N * k + c]` for the `input.len() / N` rows (`N` of 2 to 4), 64 rows
/// at a time: for each plane, one `vpermt2b` picks its bytes among the step's first two
/// lines, and one more for each further line keeps them and adds the plane's bytes of that
/// line ([`STEPS`]). Rows past the last 64 one by one.
///
/// # Safety
///
/// The CPU runs AVX-512 F, BW and VBMI instructions ([`available`]).
///
/// # Panics
///
/// Where a plane is shorter than the rows, or `N` is not 2, 3 or 4.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn split<const N: usize>(input: &[u8], planes: [&mut [u8]; N]) {
    let rows = input.len() / N;
    let mut planes = planes.map(|plane| &mut plane[..rows]);
    let whole = rows / 64 * 64;
    let steps = &STEPS[N - 2];
    // SAFETY (the loads): the tables are 64 bytes each; AVX-512 F runs (the caller's promise).
    let tables: [[__m512i; N]; N] = unsafe {
        core::array::from_fn(|j| core::array::from_fn(|c| load_register(&steps[j][c], 0)))
    };
    for at in (0..whole).step_by(64) {
        // SAFETY (the loads): the step's `64 * N` bytes from `N * at` lie inside `input`
        // (`at + 64 <= whole <= rows`); AVX-512 F runs (the caller's promise).
        let lines: [__m512i; N] =
            core::array::from_fn(|j| unsafe { load_register(input, N * at + 64 * j) });
        for (c, plane) in planes.iter_mut().enumerate() {
            // SAFETY: VBMI runs (the caller's promise); the plane's 64 bytes from `at` lie
            // inside it (`at + 64 <= rows`).
            unsafe {
                let mut picked = permute_bytes(lines[0], tables[1][c], lines[1]);
                for j in 2..N {
                    picked = permute_bytes(picked, tables[j][c], lines[j]);
                }
                store(plane, at, picked);
            }
        }
    }
    for k in whole..rows {
        for (c, plane) in planes.iter_mut().enumerate() {
            plane[k] = input[N * k + c];
        }
    }
}

/// The `vpermt2b` indices of [`split`] for `N` = 2, 3 and 4 planes (`STEPS[N - 2]`): for line
/// `j` (1 to `N - 1`) and plane `c`, byte `k`: where the permute finds row `N k + c`. Line 1
/// joins lines 0 and 1 (the row's index among their 128 bytes; 0 past them, replaced later);
/// each line `j` after it keeps the picked byte `k`, or (bit 6 set) takes the byte of line
/// `j` that holds the row. Line 0's tables are unused.
const STEPS: [[[[u8; 64]; 4]; 4]; 3] = [steps(2), steps(3), steps(4)];

/// [`STEPS`] for `n` planes.
const fn steps(n: usize) -> [[[u8; 64]; 4]; 4] {
    let mut tables = [[[0; 64]; 4]; 4];
    let mut j = 1;
    while j < n {
        let mut c = 0;
        while c < n {
            let mut k = 0;
            while k < 64 {
                let at = n * k + c;
                tables[j][c][k] = if j == 1 {
                    if at < 128 { at as u8 } else { 0 }
                } else if at >= 64 * j && at < 64 * (j + 1) {
                    (64 + at - 64 * j) as u8
                } else {
                    k as u8
                };
                k += 1;
            }
            c += 1;
        }
        j += 1;
    }
    tables
}

/// `vpermt2b`: byte `k` of the result is byte `index[k] % 64` of `a` (bit 6 clear) or `b`.
#[inline(always)]
unsafe fn permute_bytes(a: __m512i, index: __m512i, b: __m512i) -> __m512i {
    #[cfg(not(miri))]
    // SAFETY: VBMI runs (the caller's promise).
    unsafe {
        _mm512_permutex2var_epi8(a, index, b)
    }
    #[cfg(miri)]
    {
        let (a, index, b): ([u8; 64], [u8; 64], [u8; 64]) =
            (bytemuck::cast(a), bytemuck::cast(index), bytemuck::cast(b));
        let out: [u8; 64] = core::array::from_fn(|k| {
            let from = if index[k] & 64 == 0 { &a } else { &b };
            from[usize::from(index[k] % 64)]
        });
        bytemuck::cast(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Rows of two, three and four bytes split into planes as the definition says: two steps
    /// of 64 and a tail of 37, planes on a cache line and off it.
    #[test]
    #[cfg_attr(not(kernel_tests_vbmi), ignore = "this CPU does not run AVX-512 VBMI")]
    fn byte_planes_split_as_the_definition() {
        assert!(
            available(),
            "the build script found AVX-512 VBMI, the library does not"
        );
        check::<2>();
        check::<3>();
        check::<4>();
    }

    /// [`split`] of `N` planes against the definition.
    fn check<const N: usize>() {
        let rows = 2 * 64 + 37;
        let input: Vec<u8> = (0..N * rows).map(|i| (i * 7 % 251) as u8).collect();
        for offset in [0, 1] {
            let mut buffer = alloc::vec![0u8; N * (rows + 64) + 64];
            let start = buffer.as_ptr().align_offset(64) + offset;
            let mut rest = &mut buffer[start..];
            let planes: [&mut [u8]; N] = core::array::from_fn(|_| {
                let (plane, after) = core::mem::take(&mut rest).split_at_mut(rows + 64);
                rest = after;
                &mut plane[..rows]
            });
            // SAFETY: the CPU runs VBMI (checked first).
            unsafe { split::<N>(&input, planes) };
            for c in 0..N {
                let plane = &buffer[start + c * (rows + 64)..][..rows];
                let want: Vec<u8> = (0..rows).map(|k| input[N * k + c]).collect();
                assert_eq!(plane, &want[..], "{N} planes, plane {c}, +{offset}");
            }
        }
    }
}
