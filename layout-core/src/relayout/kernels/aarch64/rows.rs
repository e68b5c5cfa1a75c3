//! Row copies into a destination past the caches whose rows fill whole cache lines, one row
//! of 64 bytes to a line or two rows of 32 bytes: each line written with `stnp`.
#![allow(clippy::too_many_arguments)] // the kernel's arguments, as in `rows::copy_rows`

use super::super::prefetch::prefetch;
use super::super::reach::Reach;
use super::lines::{load, store, write_line};
use crate::relayout::tuning::CACHE_LINE;
use bytemuck::Pod;
use core::ops::Range;

/// Copies elements `cols` of each listed row (as
/// [`rows::copy_listed_blocks`](super::super::rows::copy_listed_blocks)) with each destination
/// line written past the caches, when the rows are 32 bytes (two to a line) or 64 (one) and
/// `reach` fits; `false` (nothing written) otherwise. Rows of 32 bytes ask for their source
/// `ahead` elements further on (0: not at all) through [`prefetch`], which is an x86-64 hint
/// only: nothing on aarch64 until a NEON build measures `prfm` there.
pub(crate) fn stream_rows<E: Pod>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    ahead: usize,
) -> bool {
    let (s, d, n) = (s + cols.start, d + cols.start, cols.len());
    let bytes = n * size_of::<E>();
    if (bytes != CACHE_LINE / 2 && bytes != CACHE_LINE)
        || !reach.fits(dst.len(), d + n - 1, src.len(), s + n - 1)
    {
        return false;
    }
    // SAFETY: each row's `bytes` lie inside both slices: every row `(from, to)` of `rows` has
    // `from <= reach.src` and `to <= reach.dst` (the caller's promise, as in
    // `rows::copy_rows`), so its `n` elements from `s + from` end at most at
    // `s + n - 1 + reach.src < src.len()`, and likewise in `dst` (`Reach::fits` just above).
    unsafe {
        if bytes == CACHE_LINE {
            line_rows(dst, d, src, s, rows);
        } else {
            row_pairs(dst, d, src, s, rows, ahead);
        }
    }
    true
}

/// Rows of 64 bytes (four registers each), each one whole destination line: written past the
/// caches where the line is aligned ([`write_line`]), through them elsewhere.
///
/// # Safety
///
/// `64 / size_of::<E>()` elements from `s + from` lie inside `src` and from `d + to` inside
/// `dst`, for every `(from, to)` of `rows`.
#[inline(always)]
unsafe fn line_rows<E: Pod>(dst: &mut [E], d: usize, src: &[E], s: usize, rows: &[(usize, usize)]) {
    let q = 16 / size_of::<E>();
    for &(from, to) in rows {
        let at = s + from;
        // SAFETY: the row's four registers lie inside both slices (the caller's promise).
        unsafe {
            let line = [
                load(src, at),
                load(src, at + q),
                load(src, at + 2 * q),
                load(src, at + 3 * q),
            ];
            write_line(dst, d + to, &line, true);
        }
    }
}

/// Rows of 32 bytes (two registers each) copied two to a destination line: where listed rows
/// `2k` and `2k + 1` lie side by side, their line is written in one go, past the caches where
/// it is aligned ([`write_line`]); other rows go through the caches.
///
/// # Safety
///
/// `32 / size_of::<E>()` elements from `s + from` lie inside `src` and from `d + to` inside
/// `dst`, for every `(from, to)` of `rows`.
#[inline(always)]
unsafe fn row_pairs<E: Pod>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    rows: &[(usize, usize)],
    ahead: usize,
) {
    let q = 16 / size_of::<E>();
    let mut pairs = rows.chunks_exact(2);
    for pair in &mut pairs {
        let ((low_from, low_to), (high_from, high_to)) = (pair[0], pair[1]);
        if ahead != 0 {
            prefetch(src, s + low_from + ahead);
            prefetch(src, s + high_from + ahead);
        }
        // SAFETY: both rows' registers lie inside both slices (the caller's promise); when the
        // second row follows the first, the line's 64 bytes are exactly those two rows.
        unsafe {
            let (low, high) = (s + low_from, s + high_from);
            let line = [
                load(src, low),
                load(src, low + q),
                load(src, high),
                load(src, high + q),
            ];
            if high_to == low_to + 2 * q {
                write_line(dst, d + low_to, &line, true);
            } else {
                store(dst, d + low_to, line[0]);
                store(dst, d + low_to + q, line[1]);
                store(dst, d + high_to, line[2]);
                store(dst, d + high_to + q, line[3]);
            }
        }
    }
    for &(from, to) in pairs.remainder() {
        // SAFETY: as above, for one row.
        unsafe {
            store(dst, d + to, load(src, s + from));
            store(dst, d + to + q, load(src, s + from + q));
        }
    }
}
