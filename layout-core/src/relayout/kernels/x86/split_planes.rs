//! Rows of two to four interleaved elements split into their planes (NHWC -> NCHW of RGB(A))
//! by two-table permutes (VBMI's `vpermt2b`, BW's `vpermt2w`): each picks any 64 bytes of two
//! registers, so `N - 1` make a plane line of `N` source lines. Plane lines go through the
//! caches even past them (faster than streaming); zipping stays with the narrow kernels, as
//! fast there (docs/engine-measurements.md, "VBMI byte split").

use super::super::narrow::Pieces;
use super::shuffle::load_register;
use crate::relayout::stores::store;
use bytemuck::Pod;
use core::arch::x86_64::__m512i;
#[cfg(not(miri))]
use core::arch::x86_64::{_mm512_permutex2var_epi8, _mm512_permutex2var_epi16};
use core::marker::PhantomData;

cpufeatures::new!(cpuid_vbmi, "avx512f", "avx512bw", "avx512vbmi");

/// Whether this CPU runs AVX-512 F, BW and VBMI (found as [`super::avx2::available`]).
#[inline]
pub(crate) fn vbmi_available() -> bool {
    cpuid_vbmi::get()
}

/// Narrow tiles' pieces written by `P`, rows of two to four bytes (with VBMI) or 2-byte elements
/// split by [`split_bytes`] and [`split_words`]. Only where the CPU runs AVX-512 F and BW.
pub(crate) struct SplitPlanes<P>(PhantomData<P>);

impl<E: Pod, P: Pieces<E>> Pieces<E> for SplitPlanes<P> {
    const IN_PLACE: bool = P::IN_PLACE;

    #[inline(always)]
    unsafe fn put(out: &mut [E], piece: &[E]) {
        // SAFETY: passed on from the caller.
        unsafe { P::put(out, piece) }
    }

    #[inline(always)]
    fn splits(planes: usize) -> bool {
        (2..=4).contains(&planes)
            && match size_of::<E>() {
                1 => vbmi_available(),
                2 => true,
                _ => false,
            }
    }

    #[inline(always)]
    unsafe fn split(input: &[E], planes: &mut [&mut [E]]) -> bool {
        if !<Self as Pieces<E>>::splits(planes.len()) {
            return false;
        }
        /// `plane` as units `U` of its size.
        fn units<'a, E: Pod, U: Pod>(plane: &'a mut &mut [E]) -> &'a mut [U] {
            bytemuck::cast_slice_mut(plane)
        }
        // `input` cast to bytes or to words, in the arm of its size.
        let (bytes, words) = (bytemuck::cast_slice, bytemuck::cast_slice);
        // SAFETY (each arm): the CPU runs AVX-512 F and BW (the caller's promise: this type
        // serves the AVX-512 build only) and VBMI where the elements are bytes (`splits`).
        unsafe {
            match (size_of::<E>(), planes) {
                (1, [a, b]) => split_bytes(bytes(input), [a, b].map(units)),
                (1, [a, b, c]) => split_bytes(bytes(input), [a, b, c].map(units)),
                (1, [a, b, c, d]) => split_bytes(bytes(input), [a, b, c, d].map(units)),
                (_, [a, b]) => split_words(words(input), [a, b].map(units)),
                (_, [a, b, c]) => split_words(words(input), [a, b, c].map(units)),
                (_, [a, b, c, d]) => split_words(words(input), [a, b, c, d].map(units)),
                _ => unreachable!("2 to 4 planes (`splits`)"),
            }
        }
        true
    }
}

/// [`split`] of bytes with `vpermt2b`.
///
/// # Safety
///
/// The CPU runs AVX-512 F, BW and VBMI instructions ([`vbmi_available`]).
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn split_bytes<const N: usize>(input: &[u8], planes: [&mut [u8]; N]) {
    // SAFETY: passed on from the caller.
    unsafe { split::<u8, N>(input, planes) }
}

/// [`split`] of 2-byte elements with `vpermt2w`.
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW instructions.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(super) unsafe fn split_words<const N: usize>(input: &[u16], planes: [&mut [u16]; N]) {
    // SAFETY: passed on from the caller.
    unsafe { split::<u16, N>(input, planes) }
}

/// A unit the permutes split: `u8` (`vpermt2b`) or `u16` (`vpermt2w`).
trait Unit: Pod {
    /// The unit's lanes in a 64-byte register.
    const LANES: usize = 64 / size_of::<Self>();

    /// The permute's indices for 2, 3 and 4 planes ([`steps`]).
    const STEPS: &'static [[[[u8; 64]; 4]; 4]; 3] = &[
        steps(2, Self::LANES),
        steps(3, Self::LANES),
        steps(4, Self::LANES),
    ];

    /// Two-table permute: lane `k` is lane `index[k] % LANES` of `a` (bit `LANES` clear) or `b`.
    ///
    /// # Safety
    ///
    /// The CPU runs the permute (VBMI for bytes, AVX-512 BW for words).
    #[inline(always)]
    unsafe fn permute(a: __m512i, index: __m512i, b: __m512i) -> __m512i {
        #[cfg(not(miri))]
        // SAFETY: the CPU runs VBMI for bytes, BW for words (the caller's promise).
        unsafe {
            match size_of::<Self>() {
                1 => _mm512_permutex2var_epi8(a, index, b),
                _ => _mm512_permutex2var_epi16(a, index, b),
            }
        }
        #[cfg(miri)]
        permute_lanes(a, index, b, size_of::<Self>())
    }
}

impl Unit for u8 {}
impl Unit for u16 {}

/// [`Unit::permute`] lane by lane (lanes of `unit` bytes), for Miri, which runs neither.
#[cfg(miri)]
fn permute_lanes(a: __m512i, index: __m512i, b: __m512i, unit: usize) -> __m512i {
    let (a, index, b): ([u8; 64], [u8; 64], [u8; 64]) =
        (bytemuck::cast(a), bytemuck::cast(index), bytemuck::cast(b));
    let lanes = 64 / unit;
    let mut out = [0; 64];
    for k in 0..lanes {
        // The index's low byte: the lane (below `lanes`) and the table (the bit of `lanes`).
        let at = usize::from(index[k * unit]);
        let from = if at & lanes == 0 { &a } else { &b };
        let lane = at % lanes;
        out[k * unit..][..unit].copy_from_slice(&from[lane * unit..][..unit]);
    }
    bytemuck::cast(out)
}

/// `planes[c][k] = input[N * k + c]` for the `input.len() / N` rows, a register's lanes at a
/// time: per plane, one permute picks its units from the step's first two source lines and one
/// more per further line ([`steps`]); the rows past the last whole step one by one. Inlined
/// into the builds with the permute's features.
///
/// # Safety
///
/// The CPU runs `U`'s permute.
///
/// # Panics
///
/// Where a plane is shorter than the rows.
#[inline(always)]
unsafe fn split<U: Unit, const N: usize>(input: &[U], planes: [&mut [U]; N]) {
    let lanes = U::LANES;
    let rows = input.len() / N;
    let mut planes = planes.map(|plane| &mut plane[..rows]);
    let whole = rows / lanes * lanes;
    let steps = &U::STEPS[N - 2];
    // SAFETY (the loads): the tables are 64 bytes each; AVX-512 F runs (the caller's promise).
    let tables: [[__m512i; N]; N] = unsafe {
        core::array::from_fn(|j| core::array::from_fn(|c| load_register(&steps[j][c], 0)))
    };
    for at in (0..whole).step_by(lanes) {
        // SAFETY (the loads): the step's `N` lines from `N * at` lie inside `input` (`at +
        // lanes <= whole <= rows`); AVX-512 F runs (the caller's promise).
        let lines: [__m512i; N] =
            core::array::from_fn(|j| unsafe { load_register(input, N * at + lanes * j) });
        for (c, plane) in planes.iter_mut().enumerate() {
            // SAFETY: the permute runs (the caller's promise); the plane's line from `at` lies
            // inside it (`at + lanes <= rows`).
            unsafe {
                let mut picked = U::permute(lines[0], tables[1][c], lines[1]);
                for j in 2..N {
                    picked = U::permute(picked, tables[j][c], lines[j]);
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

/// The permutes' indices for `n` planes of `lanes` units a register, little-endian: for source
/// line `j` (1 to `n - 1`), plane `c`, lane `k`, where the permute finds row `n k + c`. Line 1
/// joins lines 0 and 1 (0 past them, replaced later); each later line `j` keeps picked lane `k`
/// or (bit `lanes` set) takes its own lane holding the row. Line 0's tables are unused.
const fn steps(n: usize, lanes: usize) -> [[[u8; 64]; 4]; 4] {
    let unit = 64 / lanes;
    let mut tables = [[[0; 64]; 4]; 4];
    let mut j = 1;
    while j < n {
        let mut c = 0;
        while c < n {
            let mut k = 0;
            while k < lanes {
                let at = n * k + c;
                let index = if j == 1 {
                    if at < 2 * lanes { at } else { 0 }
                } else if at >= lanes * j && at < lanes * (j + 1) {
                    lanes + at - lanes * j
                } else {
                    k
                };
                tables[j][c][k * unit] = index as u8;
                k += 1;
            }
            c += 1;
        }
        j += 1;
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::super::tests::isa_test;
    use super::*;
    use crate::relayout::test_layouts::line_start;
    use alloc::vec::Vec;

    isa_test! {
        vbmi:
        /// Rows of two, three and four bytes split into planes as the definition says: two
        /// steps and a tail of 37, planes on a cache line and off it.
        fn byte_planes_split_as_the_definition() {
            // SAFETY (all three): the CPU runs VBMI (`isa_test` checks first).
            check::<u8, 2>(|i, p| unsafe { split_bytes::<2>(i, p) });
            check::<u8, 3>(|i, p| unsafe { split_bytes::<3>(i, p) });
            check::<u8, 4>(|i, p| unsafe { split_bytes::<4>(i, p) });
        }
    }

    isa_test! {
        avx512:
        /// The same for 2-byte elements.
        fn word_planes_split_as_the_definition() {
            // SAFETY (all three): the CPU runs AVX-512 F and BW (`isa_test` checks first).
            check::<u16, 2>(|i, p| unsafe { split_words::<2>(i, p) });
            check::<u16, 3>(|i, p| unsafe { split_words::<3>(i, p) });
            check::<u16, 4>(|i, p| unsafe { split_words::<4>(i, p) });
        }
    }

    /// `split` of `N` planes of `U` against the definition.
    fn check<U: Unit + From<u8> + PartialEq + core::fmt::Debug, const N: usize>(
        split: impl Fn(&[U], [&mut [U]; N]),
    ) {
        let rows = 2 * U::LANES + 37;
        let input: Vec<U> = (0..N * rows)
            .map(|i| U::from((i * 7 % 251) as u8))
            .collect();
        for offset in [0, 1] {
            let mut buffer = alloc::vec![U::zeroed(); N * (rows + 64) + 64];
            let start = line_start(&buffer, offset);
            let mut rest = &mut buffer[start..];
            let planes: [&mut [U]; N] = core::array::from_fn(|_| {
                let (plane, after) = core::mem::take(&mut rest).split_at_mut(rows + 64);
                rest = after;
                &mut plane[..rows]
            });
            split(&input, planes);
            for c in 0..N {
                let plane = &buffer[start + c * (rows + 64)..][..rows];
                let want: Vec<U> = (0..rows).map(|k| input[N * k + c]).collect();
                assert_eq!(plane, &want[..], "{N} planes, plane {c}, +{offset}");
            }
        }
    }
}
