//! Row copies in groups: a row block whose innermost listed loop steps the destination by
//! exactly one row, so that each group of its rows is one run of the destination, and the
//! source by a constant stride. The block is listed by group (where each group starts), and
//! each row of a group is read at a multiple of the stride worked out once per call and
//! written at a constant offset. u8 HTP croutons into flat NHWC: one position's eight 32-byte
//! channel-block rows, 2 KiB apart in the source, one 256-byte run in the destination.
//!
//! Groups run faster than rows whose offsets are read from a listing (u8 crouton->flat); the
//! group lengths are constants here, as a loop whose group length the compiler does not know
//! is no faster than the listing. Rows gathered from far apart ask for their counterparts in the
//! next block as listed rows do (u8 flat->crouton: each chunk row from eight positions 256
//! bytes apart). Groups of two rows (f32 nChw8c->nChw16c), and destinations within the caches
//! (u8 flat->crouton), are a little slower than the listing, so the walk takes groups of four
//! or eight rows into destinations past the caches only (docs/engine-measurements.md, "Row
//! groups").

use super::prefetch::prefetch;
use super::reach::Reach;
use super::rows::row_of;
use core::ops::Range;

/// The groups of a row block: where each starts, `(source, destination)`, relative to the
/// block, and how its rows follow one another.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowGroups<'a> {
    /// Each group's first row.
    pub starts: &'a [(usize, usize)],
    /// Rows per group: one of [`GROUP_ROWS`].
    pub rows: usize,
    /// Source elements from one row of a group to the next.
    pub src_step: usize,
    /// How far on in the source each row asks for its counterpart in the next row block (0:
    /// not at all), as [`Ahead::src`](super::ahead::Ahead) says for listed rows.
    pub source_ahead: usize,
}

/// The group lengths the kernel takes ([`copy_row_groups`]): each a loop of its own, unrolled
/// with its row offsets in registers.
pub(crate) const GROUP_ROWS: [usize; 2] = [4, 8];

/// The row lengths (elements) the kernel takes: each a loop of its own, its rows copied with a
/// few vector moves (as [`copy_rows`](super::rows::copy_rows) does).
pub(crate) const GROUP_ROW_LENGTHS: [usize; 5] = [4, 8, 16, 32, 64];

/// Copies every row of every group of `groups`, whole rows of `cols.len()` elements (the
/// destination step of a group's rows): group `(from, to)`'s row `k` from
/// `src[s + from + k * src_step..]` to `dst[d + to + k * n..]`, asking for the source
/// `groups.source_ahead` further on where that is not 0. `reach` bounds the rows'
/// offsets ([`Reach::of`] every row of every group); one check of it lets them be copied
/// without a bounds check each. Row and group lengths outside [`GROUP_ROW_LENGTHS`] and
/// [`GROUP_ROWS`] are copied by a plain loop with checks. Always inlined, so that a caller
/// compiled with AVX2 ([`with_widest_copies`](super::with_widest_copies)) moves 32 bytes a
/// register.
#[inline(always)]
pub(crate) fn copy_row_groups<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    groups: RowGroups<'_>,
    cols: Range<usize>,
    reach: Reach,
) {
    let (s, d, n) = (s + cols.start, d + cols.start, cols.len());
    let lengths = GROUP_ROWS.contains(&groups.rows) && GROUP_ROW_LENGTHS.contains(&n);
    if n == 0 || !lengths || !reach.fits(dst.len(), d + n - 1, src.len(), s + n - 1) {
        for &(from, to) in groups.starts {
            for k in 0..groups.rows {
                let (from, to) = (s + from + k * groups.src_step, d + to + k * n);
                dst[to..to + n].copy_from_slice(&src[from..from + n]);
            }
        }
        return;
    }
    /// The arm of group length `$g` and row length `$n`: both constants in its loop.
    macro_rules! arms {
        ($($g:literal: $($n:literal)*;)*) => {
            match (groups.rows, n) {
                $($(
                    // SAFETY: every row of every group is a row `reach` bounds (the caller's
                    // promise), so its `n` elements from `s + from + k * src_step` end at
                    // most at `s + n - 1 + reach.src < src.len()`, and likewise in `dst`
                    // (`Reach::fits` just above).
                    ($g, $n) => unsafe { groups_of::<T, $g>(dst, d, src, s, groups, $n) },
                )*)*
                _ => unreachable!("lengths checked above"),
            }
        };
    }
    arms! {
        4: 4 8 16 32 64;
        8: 4 8 16 32 64;
    }
}

/// Groups of `G` rows of `n` elements, without bounds checks: the source offsets of a group's
/// rows worked out once, the destination's one row apart.
///
/// # Safety
///
/// Every row of every group lies inside both slices: `s + from + k * src_step + n <=
/// src.len()` and `d + to + k * n + n <= dst.len()` for each start `(from, to)` and `k < G`.
#[inline(always)]
unsafe fn groups_of<T: Copy, const G: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    groups: RowGroups<'_>,
    n: usize,
) {
    let mut offsets = [0usize; G];
    for (k, offset) in offsets.iter_mut().enumerate() {
        *offset = k * groups.src_step;
    }
    let ahead = groups.source_ahead;
    if ahead == 0 {
        for &(from, to) in groups.starts {
            let (from, to) = (s + from, d + to);
            for (k, offset) in offsets.iter().enumerate() {
                // SAFETY: row `k` of this group lies inside both slices (the caller's promise).
                unsafe { row_of(dst, to + k * n, src, from + offset, n) };
            }
        }
    } else {
        for &(from, to) in groups.starts {
            let (from, to) = (s + from, d + to);
            for (k, offset) in offsets.iter().enumerate() {
                prefetch(src, from + offset + ahead);
                // SAFETY: row `k` of this group lies inside both slices (the caller's promise).
                unsafe { row_of(dst, to + k * n, src, from + offset, n) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Every group length and row length, and one outside them (the checked loop): the same
    /// bytes as copying each row on its own.
    #[test]
    fn groups_copy_as_their_rows() {
        for rows in [4, 8, 3] {
            for n in [4, 8, 16, 32, 64, 5] {
                let src_step = 3 * n;
                let starts: Vec<(usize, usize)> = (0..3)
                    .map(|g| (g * rows * src_step + 1, g * rows * n + 2))
                    .collect();
                let src: Vec<u16> = (0..starts.len() * rows * src_step + 8)
                    .map(|v| v as u16)
                    .collect();
                let mut expected = alloc::vec![0u16; starts.len() * rows * n + 8];
                let mut listed = Vec::new();
                for &(from, to) in &starts {
                    for k in 0..rows {
                        listed.push((from + k * src_step, to + k * n));
                    }
                }
                for &(from, to) in &listed {
                    expected[to..to + n].copy_from_slice(&src[from..from + n]);
                }
                let reach = Reach::of(&listed, &[(0, 0)]);
                for source_ahead in [0, 2 * src_step] {
                    let mut got = alloc::vec![0u16; expected.len()];
                    let groups = RowGroups {
                        starts: &starts,
                        rows,
                        src_step,
                        source_ahead,
                    };
                    copy_row_groups(&mut got, 0, &src, 0, groups, 0..n, reach);
                    assert_eq!(got, expected, "{rows} rows of {n}, {source_ahead} ahead");
                }
            }
        }
    }
}
