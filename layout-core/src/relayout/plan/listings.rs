//! The listings a kernel call reads: the `(source, destination)` offsets of every digit
//! combination of the loops one call covers, made once per relayout.

use super::loops::{Kernel, Level, MAX_LEVELS, Plan, run_pitch};
use super::pair::loops_reach;
use crate::relayout::tuning::{CACHE_LINE, ROW_SOURCE_AHEAD_BYTES, ROW_SOURCE_SPREAD, ROWS};

/// `(source, destination)` offsets of every digit combination of some loops.
pub(crate) type Listing = alloc::vec::Vec<(usize, usize)>;

/// The listings a kernel call reads ([`Plan::listings`]); empty where the kernel has none.
#[derive(Clone, Debug, Default)]
pub(crate) struct Listings {
    /// A transpose's tiles: where each tile of a call's batch starts, relative to the call.
    pub tiles: Listing,
    /// The row block's rows, or a transpose's rows.
    pub rows: Listing,
    /// A transpose's columns.
    pub cols: Listing,
    /// A transpose's rows' destination pitch within blocks
    /// ([`TileBatch::row_pitch`](crate::relayout::kernels::TileBatch::row_pitch)).
    pub row_pitch: Option<usize>,
    /// A transpose's rows' destination pitch where all of them are one run
    /// ([`TileBatch::rows_run`](crate::relayout::kernels::TileBatch::rows_run)).
    pub rows_run: Option<usize>,
    /// A transpose's columns' source pitch where all of them are one run
    /// ([`TileBatch::cols_run`](crate::relayout::kernels::TileBatch::cols_run)).
    pub cols_run: Option<usize>,
    /// How the row block's rows fill 64-byte destination lines ([`rows_fill_lines`]).
    pub line_rows: LineRows,
    /// How far on in the source the next row block's rows lie, where they are
    /// [spread](Self::rows_spread) and that is [far enough](ahead_if_far); else 0.
    pub row_source_ahead: usize,
    /// Whether the row block's rows come from far apart in the source ([`rows_spread`]).
    pub rows_spread: bool,
}

/// How a row block's rows fill 64-byte destination lines, which decides whether and from what
/// size they are written past the caches ([`Streaming`](crate::relayout::schedule::Streaming)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum LineRows {
    /// Not whole lines (or not a row block).
    #[default]
    Partial,
    /// Each row is one whole line.
    Whole,
    /// Rows of 32 bytes, two side by side making each line.
    Pairs,
}

impl Plan {
    /// The listings the kernel reads: for [`Kernel::Rows`], the row block's rows in destination
    /// order; for [`Kernel::Transpose`], the batch's tiles and the tile's columns in destination
    /// order, its rows in source order.
    pub(crate) fn listings(&self, element_bytes: usize) -> Listings {
        match self.kernel {
            Kernel::Rows => {
                let row = self.levels[self.len - 1];
                let listed = &self.levels[self.kernel_from..self.len - 1];
                let rows_spread = rows_spread(listed, row);
                // Each row's counterpart in the next row block lies one step on of the loop
                // right outside the listed rows.
                let next = self.kernel_from.checked_sub(1).filter(|_| rows_spread);
                let next = next.map_or(0, |k| self.levels[k].src);
                Listings {
                    rows: list(listed),
                    line_rows: rows_fill_lines(listed, row, element_bytes),
                    row_source_ahead: ahead_if_far(next, element_bytes),
                    rows_spread,
                    ..Listings::default()
                }
            }
            Kernel::Transpose { rows, cols } => {
                let mut by_source = [Level::default(); MAX_LEVELS];
                let by_source = &mut by_source[..cols - rows];
                by_source.copy_from_slice(&self.levels[rows..cols]);
                by_source.sort_unstable_by_key(|l| core::cmp::Reverse(l.src));
                Listings {
                    tiles: list(&self.levels[self.kernel_from..rows]),
                    rows: list(by_source),
                    cols: list(&self.levels[cols..self.len]),
                    row_pitch: row_pitch(by_source),
                    rows_run: run_pitch(by_source, |l| l.dst),
                    cols_run: run_pitch(&self.levels[cols..self.len], |l| l.src),
                    ..Listings::default()
                }
            }
            Kernel::Strided | Kernel::Indexed => Listings::default(),
        }
    }
}

/// Whether the rows of a row block, listed from the loops `listed` with rows of the loop `row`,
/// come from a source region more than [`ROW_SOURCE_SPREAD`] times their own size: more
/// separate places than the hardware prefetchers follow.
fn rows_spread(listed: &[Level], row: Level) -> bool {
    let rows: usize = listed.iter().map(|l| l.extent).product();
    let span = loops_reach(listed.iter().map(|l| (l.extent, l.src))) - 1 + row.extent;
    span > rows
        .saturating_mul(row.extent)
        .saturating_mul(ROW_SOURCE_SPREAD)
}

/// How the rows of a row block (as [`rows_spread`]) fill 64-byte destination lines: whole where
/// every listed loop steps the destination by whole lines; in pairs where the innermost steps
/// by one row, an even number of times, and every other by whole lines; not with no loop listed.
fn rows_fill_lines(listed: &[Level], row: Level, element_bytes: usize) -> LineRows {
    let whole_line = |l: &Level| (l.dst * element_bytes).is_multiple_of(CACHE_LINE);
    let pairs = |(pair, outer): (&Level, &[Level])| {
        pair.dst == row.extent && pair.extent.is_multiple_of(2) && outer.iter().all(whole_line)
    };
    match (row.dst, row.extent * element_bytes, listed.split_last()) {
        (1, CACHE_LINE, Some(_)) if listed.iter().all(whole_line) => LineRows::Whole,
        (1, 32, Some(split)) if pairs(split) => LineRows::Pairs,
        _ => LineRows::Partial,
    }
}

/// `next`, the distance in elements to the rows a row block asks for ahead, if it is at least
/// [`ROW_SOURCE_AHEAD_BYTES`]; else 0 (the hardware prefetchers follow nearer rows).
pub(crate) fn ahead_if_far(next: usize, element_bytes: usize) -> usize {
    let far = next.saturating_mul(element_bytes) >= ROW_SOURCE_AHEAD_BYTES;
    if far { next } else { 0 }
}

/// Offsets of every digit combination of `levels` (outermost first), the last loop fastest, in
/// one allocation, each loop spreading the entries so far in place: every call lists its loops.
pub(crate) fn list(levels: &[Level]) -> Listing {
    let len = levels.iter().map(|l| l.extent).product();
    let mut out = Listing::with_capacity(len);
    out.push((0usize, 0usize));
    for level in levels {
        let outer = out.len();
        out.resize(outer * level.extent, (0, 0));
        // From the back, so that entry `k` is read before its spread `k * extent..` is written.
        for k in (0..outer).rev() {
            let (mut s, mut d) = out[k];
            let spread = &mut out[k * level.extent..(k + 1) * level.extent];
            for entry in spread {
                *entry = (s, d);
                s += level.src;
                d += level.dst;
            }
        }
    }
    out
}

/// The destination pitch of rows listed from `levels` within every block of [`ROWS`] rows: the
/// innermost loop's destination stride, when the innermost loops continuing it (each the last's
/// span) make runs of a multiple of `ROWS` rows, or all of the rows.
fn row_pitch(levels: &[Level]) -> Option<usize> {
    let pitch = levels.last()?.dst;
    let mut run = 1usize;
    for level in levels.iter().rev() {
        if level.dst != pitch * run {
            return run.is_multiple_of(ROWS).then_some(pitch);
        }
        run *= level.extent;
    }
    Some(pitch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::plan::{Kernel, SAME_ORDER, pair_of};
    use crate::relayout::test_layouts::{FourDims, NChw4c, NChw8c, NChw16c, Nhwc};

    fn level(extent: usize, dst: usize) -> Level {
        Level {
            extent,
            dst,
            ..Level::default()
        }
    }

    /// Whether the row block of `A -> B` on `dims` fills lines for `bytes`-byte elements.
    fn lines<A: FourDims, B: FourDims>(dims: [usize; 4], bytes: usize) -> LineRows {
        Plan::new(&pair_of::<A, B>(dims, &SAME_ORDER), bytes)
            .listings(bytes)
            .line_rows
    }

    /// A row block stopped short by the next loop's length takes part of that loop: nhwc ->
    /// nChw16c's 3136 positions split into 98 x 32 so that a call copies 512 rows; 61 x 67
    /// positions have no divisor from 2 to 32 and stay whole.
    #[test]
    fn row_blocks_take_part_of_a_loop_too_long_to_list() {
        let rows = |dims: [usize; 4]| {
            let plan = Plan::new(&pair_of::<Nhwc, NChw16c>(dims, &SAME_ORDER), 4);
            assert_eq!(plan.kernel, Kernel::Rows);
            plan.listings(4).rows.len()
        };
        assert_eq!(rows([8, 256, 56, 56]), 512);
        assert_eq!(rows([1, 256, 64, 65]), 512);
        assert_eq!(rows([1, 256, 61, 67]), 16);
    }

    /// Rows of 64 bytes fill lines where every listed row starts one (not u16's 32-byte rows to
    /// lines of different blocks). Rows of 32 bytes pair into lines where two listed rows lie
    /// side by side and every pair starts a line: nChw8c -> nChw16c, and nChw16c -> nChw8c's
    /// neighbouring positions when the width is even (odd: a pair would start half-way).
    #[test]
    fn rows_fill_lines_of_one_row_or_two() {
        let dims = [2, 256, 7, 9];
        use LineRows::{Pairs, Partial, Whole};
        let cases = [
            (lines::<Nhwc, NChw16c>(dims, 4), Whole),
            (lines::<Nhwc, NChw16c>(dims, 2), Partial), // 32-byte rows of different blocks
            (lines::<NChw8c, NChw16c>(dims, 4), Pairs),
            (lines::<NChw4c, NChw8c>(dims, 8), Pairs),
            (lines::<NChw8c, NChw16c>(dims, 2), Partial), // 16-byte rows
            (lines::<NChw16c, NChw8c>(dims, 4), Partial), // odd width
            (lines::<NChw16c, NChw8c>([2, 256, 7, 8], 4), Pairs),
            (lines::<NChw8c, NChw8c>(dims, 4), Partial), // one loop: a plain copy
        ];
        for (k, (got, want)) in cases.into_iter().enumerate() {
            assert_eq!(got, want, "case {k}");
        }
    }

    /// Rows listed from loops: their destination pitch holds within every block of `ROWS` when
    /// the loops continuing the innermost one make runs of a multiple of `ROWS` rows, or all
    /// the rows; and their listing steps by it there.
    #[test]
    fn row_pitch_holds_within_runs_of_whole_blocks() {
        let cases: [(&[Level], Option<usize>); 6] = [
            (&[level(7, 3)], Some(3)), // one loop: a single run, whatever its length
            // crouton2x2's rows: 8 chunks of 32 channels (2 KiB apart), 4 bytes apart inside one.
            (&[level(8, 2048), level(32, 4)], Some(4)),
            (&[level(4, 64), level(16, 4)], Some(4)), // loops that continue one another
            (&[level(4, 1000), level(8, 4)], None),   // runs of 8: a block of 16 straddles two
            // Runs of 8 continued by a loop of 2 make runs of 16.
            (&[level(3, 999), level(2, 32), level(8, 4)], Some(4)),
            (&[], None),
        ];
        for (levels, want) in cases {
            assert_eq!(row_pitch(levels), want, "{levels:?}");
            let Some(pitch) = want else { continue };
            for block in list(levels).chunks_exact(ROWS) {
                for (r, row) in block.iter().enumerate() {
                    assert_eq!(row.1, block[0].1 + r * pitch, "{levels:?}");
                }
            }
        }
    }

    /// A listing holds every digit combination once, the last loop fastest, each entry the
    /// sum of its digits' strides on each side; no loop lists one entry.
    #[test]
    fn listings_count_through_every_digit_combination() {
        let loops = [(2, 100, 1), (3, 10, 30), (4, 1, 7)].map(|(extent, src, dst)| Level {
            src,
            ..level(extent, dst)
        });
        // Digits (a, b, c) of extents 2, 3 and 4, counting up.
        let want: alloc::vec::Vec<_> = (0..24)
            .map(|k| (k / 12, k / 4 % 3, k % 4))
            .map(|(a, b, c)| (a * 100 + b * 10 + c, a + b * 30 + c * 7))
            .collect();
        assert_eq!(list(&loops), want);
        assert_eq!(list(&loops[2..]), want[..4]);
        assert_eq!(list(&[]), [(0, 0)]);
    }
}
