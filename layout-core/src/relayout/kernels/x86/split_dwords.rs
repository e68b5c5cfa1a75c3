//! Three interleaved planes of 4-byte elements split apart with AVX-512 F (x86-64 only): NHWC
//! -> NCHW of an RGB image of `f32`. `vpermt2d` picks any 16 of the 32 elements of two
//! registers, so two of them make each plane's line (16 elements) out of three source lines
//! (48 elements, 16 pixels). The narrow kernels' loops gather each element with an insert of
//! its own (`vmovd`, `vpinsrd`), 16 per plane line.

use super::super::narrow::Pieces;
use super::super::prefetch::prefetch;
use super::shuffle::{load_register, permute_dwords};
use crate::relayout::tuning::{CACHE_LINE, RUN_PREFETCH_BYTES};
use bytemuck::Pod;
use core::arch::x86_64::__m512i;

/// Elements in a 512-bit register.
const LANES: usize = 16;

/// `planes[c][k] = input[3 * k + c]` for the `input.len() / 3` rows, 16 rows at a time by two
/// `vpermt2d` per plane, each plane's 16 elements written by `P`; rows past the last 16 one by
/// one. Into a destination past the caches ([`Pieces::PAST_THE_CACHES`]) each step asks for
/// the source [`RUN_PREFETCH_BYTES`] ahead, as the transposes of one source run do: f32
/// 32x3x224x224 NHWC -> NCHW 0.86-0.87x memcpy -> 1.02-1.12 (`cargo bench --bench
/// relayout_interleaved`, the builds before and after in turn, three times, AMD EPYC Zen 5);
/// through the caches the same prefetch cost (4x3x224x224 0.88 -> 0.79, one relayout
/// alternating with memcpy in a loop).
///
/// # Safety
///
/// The CPU runs AVX-512 F instructions (and `P`'s).
///
/// # Panics
///
/// Where `E` is not 4 bytes, or a plane is shorter than the rows.
#[target_feature(enable = "avx2,avx512f")]
pub(super) unsafe fn split_three<E: Pod, P: Pieces<E>>(input: &[E], planes: [&mut [E]; 3]) {
    assert_eq!(size_of::<E>(), 4, "4-byte elements");
    let rows = input.len() / 3;
    let mut planes = planes.map(|plane| &mut plane[..rows]);
    let whole = rows / LANES * LANES;
    // SAFETY (the loads): the tables are 16 elements each; AVX-512 F runs (the caller's
    // promise).
    let (pick, merge): ([__m512i; 3], [__m512i; 3]) = unsafe {
        (
            PICK.map(|table| load_register(&table, 0)),
            MERGE.map(|table| load_register(&table, 0)),
        )
    };
    let ahead = RUN_PREFETCH_BYTES / size_of::<E>();
    for at in (0..whole).step_by(LANES) {
        if P::PAST_THE_CACHES {
            // The step's three lines, one run further on (a hint: it may lie past the end).
            for line in 0..3 {
                prefetch(input, 3 * at + ahead + line * CACHE_LINE / size_of::<E>());
            }
        }
        // SAFETY: the step's 48 elements from `3 * at` lie inside `input` (`at + 16 <= whole
        // <= rows`); AVX-512 F runs (the caller's promise).
        let [first, second, third]: [__m512i; 3] =
            unsafe { [0, LANES, 2 * LANES].map(|from| load_register(input, 3 * at + from)) };
        for (c, plane) in planes.iter_mut().enumerate() {
            // SAFETY: AVX-512 F runs (the caller's promise), and `P`'s instructions.
            unsafe {
                let picked = permute_dwords(first, pick[c], second);
                let line: [E; LANES] = bytemuck::cast(permute_dwords(picked, merge[c], third));
                P::put(&mut plane[at..at + LANES], &line);
            }
        }
    }
    for k in whole..rows {
        for (c, plane) in planes.iter_mut().enumerate() {
            plane[k] = input[3 * k + c];
        }
    }
}

/// For plane `c`, element `k`: where `vpermt2d` of the step's first two lines finds its row
/// `3k + c` (0 past them: the merge replaces it).
const PICK: [[u32; LANES]; 3] = tables(true);

/// For plane `c`, element `k`: the picked element `k`, or (bit 4 set) the element of the third
/// line holding row `3k + c`, past the first 32.
const MERGE: [[u32; LANES]; 3] = tables(false);

/// [`PICK`] (`pick`) or [`MERGE`].
const fn tables(pick: bool) -> [[u32; LANES]; 3] {
    let mut tables = [[0; LANES]; 3];
    let mut c = 0;
    while c < 3 {
        let mut k = 0;
        while k < LANES {
            let at = 3 * k + c;
            tables[c][k] = match (pick, at < 2 * LANES) {
                (true, true) => at as u32,
                (true, false) => 0,
                (false, true) => k as u32,
                (false, false) => (LANES + at - 2 * LANES) as u32,
            };
            k += 1;
        }
        c += 1;
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::super::avx512;
    use super::*;
    use crate::relayout::kernels::narrow::Cached;
    use alloc::vec::Vec;

    /// Rows of three elements split into planes as the definition says: two steps of 16 and a
    /// tail of 9, planes on a cache line and off it, through the caches and streamed.
    #[test]
    fn three_dword_planes_split_as_the_definition() {
        if !avx512::available() {
            return;
        }
        let rows = 2 * LANES + 9;
        let input: Vec<u32> = (0..3 * rows as u32).map(|i| i * 7 + 1).collect();
        for (offset, streamed) in [(0, false), (1, false), (0, true), (3, true)] {
            let mut buffer = alloc::vec![0u32; 3 * (rows + 16) + 16];
            let start = buffer.as_ptr().align_offset(64) + offset;
            let (red, rest) = buffer[start..].split_at_mut(rows + 16);
            let (green, blue) = rest.split_at_mut(rows + 16);
            let planes = [&mut red[..rows], &mut green[..rows], &mut blue[..rows]];
            // SAFETY: the CPU runs AVX-512 F (checked first).
            unsafe {
                if streamed {
                    split_three::<u32, avx512::StreamedPieces>(&input, planes);
                    crate::relayout::stores::end_streaming();
                } else {
                    split_three::<u32, Cached>(&input, planes);
                }
            }
            for (c, plane) in [&red[..rows], &green[..rows], &blue[..rows]]
                .into_iter()
                .enumerate()
            {
                let want: Vec<u32> = (0..rows).map(|k| input[3 * k + c]).collect();
                assert_eq!(
                    plane,
                    &want[..],
                    "plane {c}, +{offset}, streamed {streamed}"
                );
            }
        }
    }
}
