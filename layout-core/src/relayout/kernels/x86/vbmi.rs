//! Three interleaved byte planes split apart with AVX-512 VBMI (x86-64 only): NHWC -> NCHW of
//! an RGB image of bytes. `vpermt2b` picks any 64 of the 128 bytes of two registers, so two of
//! them make each 64-byte plane line out of three source lines (192 bytes, 64 pixels); the
//! loops of the narrow kernels split bytes one shuffle network at a time, far slower than
//! these. The plane lines go through the caches even into a destination past them,
//! as the narrow kernels' bytes do: streamed, the same split is slower. The other way, zipping
//! three planes into rows with two `vpermt2b` per line runs as fast as the narrow kernels'
//! loops, which keep it (docs/engine-measurements.md, "VBMI byte split").
//! Detection as in [`super::avx2`]: once, with `cpuid`.

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

/// `planes[c][k] = input[3 * k + c]` for the `input.len() / 3` rows, 64 rows at a time by two
/// `vpermt2b` per plane: the first picks the plane's bytes among the first 128 of the step,
/// the second keeps them and adds those of the last 64. Rows past the last 64 one by one.
///
/// # Safety
///
/// The CPU runs AVX-512 F, BW and VBMI instructions ([`available`]).
///
/// # Panics
///
/// Where a plane is shorter than the rows.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn split_three(input: &[u8], planes: [&mut [u8]; 3]) {
    let rows = input.len() / 3;
    let mut planes = planes.map(|plane| &mut plane[..rows]);
    let whole = rows / 64 * 64;
    // SAFETY (the loads): the tables are 64 bytes each; AVX-512 F runs (the caller's promise).
    let (pick, merge): ([__m512i; 3], [__m512i; 3]) = unsafe {
        (
            PICK.map(|table| load_register(&table, 0)),
            MERGE.map(|table| load_register(&table, 0)),
        )
    };
    for at in (0..whole).step_by(64) {
        // SAFETY: the step's 192 bytes from `3 * at` lie inside `input` (`at + 64 <= whole <=
        // rows`); AVX-512 F runs (the caller's promise).
        let [first, second, third]: [__m512i; 3] =
            unsafe { [0, 64, 128].map(|from| load_register(input, 3 * at + from)) };
        for (c, plane) in planes.iter_mut().enumerate() {
            // SAFETY: VBMI runs (the caller's promise); the plane's 64 bytes from `at` lie
            // inside it (`at + 64 <= rows`).
            unsafe {
                let picked = permute_bytes(first, pick[c], second);
                store(plane, at, permute_bytes(picked, merge[c], third));
            }
        }
    }
    for k in whole..rows {
        for (c, plane) in planes.iter_mut().enumerate() {
            plane[k] = input[3 * k + c];
        }
    }
}

/// For plane `c`, byte `k`: where `vpermt2b` of the step's first two lines finds its row
/// `3k + c` (0 past them: the merge replaces it).
const PICK: [[u8; 64]; 3] = tables(true);

/// For plane `c`, byte `k`: the picked byte `k`, or (bit 6 set) the byte of the third line
/// holding row `3k + c`, past the first 128.
const MERGE: [[u8; 64]; 3] = tables(false);

/// [`PICK`] (`pick`) or [`MERGE`].
const fn tables(pick: bool) -> [[u8; 64]; 3] {
    let mut tables = [[0; 64]; 3];
    let mut c = 0;
    while c < 3 {
        let mut k = 0;
        while k < 64 {
            let at = 3 * k + c;
            tables[c][k] = match (pick, at < 128) {
                (true, true) => at as u8,
                (true, false) => 0,
                (false, true) => k as u8,
                (false, false) => (64 + at - 128) as u8,
            };
            k += 1;
        }
        c += 1;
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

    /// Rows of three bytes split into planes as the definition says: two steps of 64 and a
    /// tail of 37, planes on a cache line and off it.
    #[test]
    #[cfg_attr(not(kernel_tests_vbmi), ignore = "this CPU does not run AVX-512 VBMI")]
    fn three_byte_planes_split_as_the_definition() {
        assert!(
            available(),
            "the build script found AVX-512 VBMI, the library does not"
        );
        let rows = 2 * 64 + 37;
        let input: Vec<u8> = (0..3 * rows).map(|i| (i * 7 % 251) as u8).collect();
        for offset in [0, 1] {
            let mut buffer = alloc::vec![0u8; 3 * (rows + 64) + 64];
            let start = buffer.as_ptr().align_offset(64) + offset;
            let (red, rest) = buffer[start..].split_at_mut(rows + 64);
            let (green, blue) = rest.split_at_mut(rows + 64);
            let planes = [&mut red[..rows], &mut green[..rows], &mut blue[..rows]];
            // SAFETY: the CPU runs VBMI (checked first).
            unsafe { split_three(&input, planes) };
            for (c, plane) in [&red[..rows], &green[..rows], &blue[..rows]]
                .into_iter()
                .enumerate()
            {
                let want: Vec<u8> = (0..rows).map(|k| input[3 * k + c]).collect();
                assert_eq!(plane, &want[..], "plane {c}, +{offset}");
            }
        }
    }
}
