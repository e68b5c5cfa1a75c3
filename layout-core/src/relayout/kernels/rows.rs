//! Row copies: the kernel of plans whose innermost loop is contiguous on both sides (blocked
//! <-> blocked layouts, flat <-> crouton), copying a listed block of rows per call.
#![allow(clippy::too_many_arguments)] // the kernel's arguments stay in registers

use super::element::{Element, StreamRows};
use super::prefetch::prefetch;
use super::reach::Reach;
use super::row_blocks::{Ahead, RowBlock};
use crate::relayout::tuning::{CACHE_LINE, PREFETCH_ROWS};
use core::ops::Range;

/// Where a row block's destination lies, which decides how its rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Destination {
    /// Within the caches: plain copies.
    Cached,
    /// Larger than the caches: each row prefetches the destination line [`PREFETCH_ROWS`] on.
    Far,
    /// Larger than the caches, rows filling cache lines one or two to a line: lines stream
    /// where the element type can ([`Element::row_streams`]; `Far` elsewhere).
    FarLines,
}

/// Copies elements `cols` of each listed row of `block`, from `s + row.0` to `d + row.1`.
/// `reach` bounds the rows' offsets ([`Reach::of`] the listing): one check per block, none per
/// row. Lines that do not stream go by the element type's build of [`copy_rows`] where it has
/// one ([`Element::row_copies`]). Rows streamed two to a line prefetch their source
/// `streamed_ahead` elements on (0: not at all).
#[inline(always)]
pub(crate) fn copy_row_block<T: Element>(
    mut block: RowBlock<'_, T>,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    into: Destination,
    streamed_ahead: usize,
) {
    let far_lines = into == Destination::FarLines;
    let Some(stream) = far_lines.then(T::row_streams).flatten() else {
        return copy_block_rows(block, rows, cols, reach, into != Destination::Cached);
    };
    let lent = block.reborrow();
    if !stream_rows(lent, rows, cols.clone(), reach, stream, streamed_ahead) {
        copy_block_rows(block, rows, cols, reach, true);
    }
}

/// Copies `block`'s rows as [`copy_row_block`] does, by `stream`, when they are 32 or 64 bytes
/// and `reach` fits (32-byte rows prefetching their source `ahead` on); else `false`.
pub(crate) fn stream_rows<E>(
    block: RowBlock<'_, E>,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    stream: StreamRows<E>,
    ahead: usize,
) -> bool {
    let (s, d, n) = (block.s + cols.start, block.d + cols.start, cols.len());
    let bytes = n * size_of::<E>();
    if (bytes != CACHE_LINE / 2 && bytes != CACHE_LINE)
        || !reach.fits(block.dst.len(), d + n - 1, block.src.len(), s + n - 1)
    {
        return false;
    }
    // SAFETY: as in `copy_rows`: each row's `n` elements end by `s + n - 1 + reach.src <
    // src.len()` (`Reach::fits` above), and likewise in `dst`.
    unsafe { stream(RowBlock { d, s, ..block }, rows, bytes == CACHE_LINE, ahead) };
    true
}

/// [`copy_row_block`] through the caches, rows prefetching their destination if `dst_rows`.
fn copy_block_rows<T: Element>(
    block: RowBlock<'_, T>,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    dst_rows: bool,
) {
    let ahead = Ahead {
        dst_rows,
        src: block.source_ahead,
    };
    let RowBlock { dst, d, src, s, .. } = block;
    // One call a block: the build is never inlined here, so its row loop keeps its registers.
    match T::row_copies() {
        // SAFETY: the CPU runs the build's instructions (`Element::row_copies`).
        Some(copy) => unsafe { copy(dst, d, src, s, rows, cols, reach, ahead) },
        None => copy_block(dst, d, src, s, rows, cols, reach, ahead),
    }
}

/// Declares a function that runs [`copy_rows`], a build of its own: out of line (else the loop
/// over blocks holds its row pointer on the stack), or with more CPU features by
/// `#[target_feature]` among its attributes. (`$unsafe` as in `transposes_fn!`.)
macro_rules! copy_rows_fn {
    ($(#[$attr:meta])* $vis:vis $(unsafe $($unsafe:lifetime)?)? fn $name:ident) => {
        #[allow(clippy::too_many_arguments)] // the kernel's arguments stay in registers
        $(#[$attr])* $vis $(unsafe $($unsafe)?)? fn $name<T: Copy>(
            dst: &mut [T],
            d: usize,
            src: &[T],
            s: usize,
            rows: &[(usize, usize)],
            cols: core::ops::Range<usize>,
            reach: $crate::relayout::kernels::reach::Reach,
            ahead: $crate::relayout::kernels::row_blocks::Ahead,
        ) {
            $crate::relayout::kernels::rows::copy_rows(dst, d, src, s, rows, cols, reach, ahead);
        }
    };
}

#[cfg_attr(not(x86_kernels), allow(unused_imports))] // the AVX2 build's
pub(crate) use copy_rows_fn;

copy_rows_fn! {
    /// [`copy_rows`] out of line.
    #[inline(never)]
    fn copy_block
}

/// One block's row copies, always inlined (into the AVX2 build too).
#[inline(always)]
pub(crate) fn copy_rows<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
    reach: Reach,
    ahead: Ahead,
) {
    let (s, d, n) = (s + cols.start, d + cols.start, cols.len());
    // Every row's last element is at most `reach` past `s + n - 1` (or `d + n - 1`).
    if n == 0 || !reach.fits(dst.len(), d + n - 1, src.len(), s + n - 1) {
        for &(from, to) in rows {
            dst[d + to..d + to + n].copy_from_slice(&src[s + from..s + from + n]);
        }
        return;
    }
    // SAFETY (all arms): each row `(from, to)` has `from <= reach.src` and `to <= reach.dst`
    // (the caller's promise), so its `n` elements from `s + from` end at most at
    // `s + n - 1 + reach.src < src.len()`, and likewise in `dst` (`Reach::fits` above).
    // Common row lengths as constants, so LLVM copies each row with vector moves, not memcpy.
    unsafe {
        match n {
            4 => rows_of(dst, d, src, s, rows, 4, ahead),
            8 => rows_of(dst, d, src, s, rows, 8, ahead),
            16 => rows_of(dst, d, src, s, rows, 16, ahead),
            32 => rows_of(dst, d, src, s, rows, 32, ahead),
            64 => rows_of(dst, d, src, s, rows, 64, ahead),
            n => rows_of(dst, d, src, s, rows, n, ahead),
        }
    }
}

/// Rows of `n` elements, copied without bounds checks, each prefetching what `ahead` says: a loop
/// per combination, so cached rows keep a plain loop with no test per row (short rows such as u8
/// crouton->flat's would feel it).
///
/// # Safety
///
/// Every row's `n` elements lie inside both slices: `s + from + n <= src.len()` and
/// `d + to + n <= dst.len()` for each `(from, to)` of `rows`.
#[inline(always)]
unsafe fn rows_of<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    n: usize,
    ahead: Ahead,
) {
    if ahead.dst_rows {
        let next = rows
            .iter()
            .skip(PREFETCH_ROWS)
            .map(Some)
            .chain(core::iter::repeat(None));
        for (&(from, to), next) in rows.iter().zip(next) {
            if let Some(&(_, next)) = next {
                prefetch(dst, d + next);
            }
            if ahead.src != 0 {
                prefetch(src, s + from + ahead.src);
            }
            // SAFETY: passed on from the caller.
            unsafe { row_of(dst, d + to, src, s + from, n) };
        }
    } else if ahead.src != 0 {
        for &(from, to) in rows {
            prefetch(src, s + from + ahead.src);
            // SAFETY: passed on from the caller.
            unsafe { row_of(dst, d + to, src, s + from, n) };
        }
    } else {
        for &(from, to) in rows {
            // SAFETY: passed on from the caller.
            unsafe { row_of(dst, d + to, src, s + from, n) };
        }
    }
}

/// `n` elements from `src[from..]` to `dst[to..]`, without bounds checks.
///
/// # Safety
///
/// `from + n <= src.len()` and `to + n <= dst.len()`.
#[inline(always)]
pub(super) unsafe fn row_of<T: Copy>(dst: &mut [T], to: usize, src: &[T], from: usize, n: usize) {
    debug_assert!(
        from + n <= src.len() && to + n <= dst.len(),
        "a row inside both slices"
    );
    // SAFETY: both runs lie inside their slices (the caller's promise); `dst` is exclusive.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr().add(from), dst.as_mut_ptr().add(to), n) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::test_layouts::line_start;
    use alloc::vec::Vec;

    /// [`copy_row_block`] of `dst` from `d`, `src` from `s`, rows prefetching `source_ahead` on.
    fn copy_listed_rows<T: Element>(
        dst: &mut [T],
        d: usize,
        src: &[T],
        s: usize,
        source_ahead: usize,
        rows: &[(usize, usize)],
        cols: &Range<usize>,
        reach: Reach,
        into: Destination,
    ) {
        let block = RowBlock {
            dst,
            d,
            src,
            s,
            source_ahead,
        };
        copy_row_block(block, rows, cols.clone(), reach, into, source_ahead);
    }

    /// Row copies, unchecked where the reach fits (prefetching or not), checked where not, alike;
    /// every fixed row length and an odd one.
    #[test]
    fn listed_rows_copy_with_one_check_per_call() {
        let rows: Vec<(usize, usize)> = (0..9).map(|r| ((8 - r) * 70, r * 65 + 3)).collect();
        let src: Vec<u32> = (0..9 * 70 + 8).collect();
        let fitting = Reach::of(&rows, &[]);
        let too_far = Reach { src: !0, dst: 0 };
        for n in [3, 4, 8, 16, 32, 64] {
            let cols = 2..2 + n;
            let mut want = alloc::vec![0u32; 9 * 65 + 70];
            for &(from, to) in &rows {
                want[1 + to..][cols.clone()].copy_from_slice(&src[5 + from..][cols.clone()]);
            }
            for (reach, far) in [(fitting, false), (fitting, true), (too_far, false)] {
                let into = [Destination::Cached, Destination::Far][usize::from(far)];
                for ahead in [0, 70, 1 << 20] {
                    let mut got = alloc::vec![0u32; 9 * 65 + 70];
                    copy_listed_rows(&mut got, 1, &src, 5, ahead, &rows, &cols, reach, into);
                    assert_eq!(got, want, "rows of {n}, {reach:?}, far {far}");
                    let mut got = alloc::vec![0u32; 9 * 65 + 70];
                    let ahead = Ahead {
                        dst_rows: far,
                        src: ahead,
                    };
                    copy_rows(&mut got, 1, &src, 5, &rows, cols.clone(), reach, ahead);
                    assert_eq!(got, want, "rows of {n}, {reach:?}, {ahead:?}, without AVX2");
                }
            }
        }
    }

    /// Rows that fill lines, written past the caches, as plain copies, each element size, rows of
    /// 64 and 32 bytes: pairs side by side (streamed where aligned), pairs apart, an odd last
    /// row, a row off the line grid, and parts of rows (not streamed at all).
    #[test]
    fn rows_filling_lines_stream_with_the_plain_result() {
        fn check<T: Element + Default + PartialEq + core::fmt::Debug>(of: fn(usize) -> T) {
            for n in [32, 64].map(|row_bytes| row_bytes / size_of::<T>()) {
                // Rows of 32 bytes: lines 0 and 2 hold a pair each (from far apart in the
                // source); rows 4 and 5, 6 and 7 lie apart; row 8 is alone. Rows of 64: a line
                // each, row 7 one element past one.
                let rows: Vec<(usize, usize)> = [0, 1, 4, 5, 7, 10, 12, 14, 16]
                    .into_iter()
                    .enumerate()
                    .map(|(r, at)| ((8 - r) * 3 * n, at * n + usize::from(r == 7)))
                    .collect();
                let src: Vec<T> = (0..27 * n + 64).map(of).collect();
                let reach = Reach::of(&rows, &[]);
                // The rows from a line, half a row and one element past it, written as `into`
                // says: from the line on.
                let copied = |into, shift, cols: &Range<usize>| {
                    let mut out = alloc::vec![T::default(); 18 * n + 128];
                    let line = line_start(&out, 0);
                    let d = line + shift;
                    copy_listed_rows(&mut out, d, &src, 3, 16, &rows, cols, reach, into);
                    out[line..][..17 * n + 64].to_vec()
                };
                for shift in [0, n / 2, 1] {
                    for cols in [0..n, 0..n / 2, 1..n] {
                        assert_eq!(
                            copied(Destination::FarLines, shift, &cols),
                            copied(Destination::Cached, shift, &cols),
                            "{} bytes, rows of {n}, cols {cols:?}, shift {shift}",
                            size_of::<T>()
                        );
                    }
                }
            }
        }
        // The units plain types move as: f16 as u16, f32 as u32, f64 as u64.
        check(|i| i as u8);
        check(|i| i as u16);
        check(|i| i as u32);
        check(|i| i as u64);
    }
}
