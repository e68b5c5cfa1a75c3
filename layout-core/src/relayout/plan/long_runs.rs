//! Runs too long to list: a loop through the source or the destination one element at a time
//! that is longer than a tile's rows or columns may be ([`MAX_LISTED`]) is cut into an outer
//! loop and an inner part that can be them.

use super::divisors::largest_divisor_within;
use super::loops::{Level, MAX_LEVELS, Plan};
use crate::relayout::tuning::{CACHE_LINE, MAX_LISTED};

impl Plan {
    /// Splits the loop that steps through the source one element at a time, and the innermost
    /// loop (one element at a time through the destination), where either is longer than
    /// [`MAX_LISTED`] and has no bounds: the inner part, a divisor of its extent within that
    /// limit ([`long_run_part`]), can then be the tile's rows or columns.
    pub(super) fn split_long_runs(&mut self, element_bytes: usize) {
        let inner = self.len - 1;
        let source_run = (0..inner).find(|&k| self.levels[k].src == 1);
        if let Some(k) = source_run {
            self.split_long(k, k, element_bytes);
        }
        // The outer part of the innermost loop goes outside the source's run, so that the
        // run's loops can stay right outside the columns.
        let inner = self.len - 1;
        let source_run = (0..inner).find(|&k| self.levels[k].src == 1);
        self.split_long(inner, source_run.unwrap_or(inner), element_bytes);
    }

    /// Splits loop `k` in two as [`Plan::split_long_runs`] says, if it is longer than
    /// [`MAX_LISTED`], has no bounds, its extent has a divisor in `2..=MAX_LISTED`, and the plan
    /// has room for another loop: the inner part stays in its place, the outer part goes to
    /// `outer_at` (at most `k`; only bound-free loops lie between, so the order of the visits
    /// changes, not the slots each element goes to).
    fn split_long(&mut self, k: usize, outer_at: usize, element_bytes: usize) {
        let long = self.levels[k];
        if long.extent <= MAX_LISTED || !self.free[long.dim] || self.len == MAX_LEVELS {
            return;
        }
        if let Some(part) = long_run_part(long, element_bytes) {
            self.split_loop(k, outer_at, part);
        }
    }
}

/// The inner part of a long loop `long` (longer than [`MAX_LISTED`]) of elements of
/// `element_bytes` that [`Plan::split_long_runs`] cuts: the largest divisor of its extent
/// within [`MAX_LISTED`]; but for a run through the destination, the largest divisor that is
/// whole cache lines, if one is at least a quarter of [`MAX_LISTED`], so that each part starts
/// a line wherever the run does and a transpose into it streams every line. `None` where the
/// extent has no divisor there.
fn long_run_part(long: Level, element_bytes: usize) -> Option<usize> {
    debug_assert!(long.extent > MAX_LISTED, "a run too long to list");
    let extent = long.extent;
    let line = CACHE_LINE / element_bytes.clamp(1, CACHE_LINE);
    let whole_lines = if long.dst == 1 && line * element_bytes == CACHE_LINE {
        // The largest part first: from the smallest cofactor up to the one that leaves a
        // quarter of the limit (a few tries, where a step down from the limit takes hundreds).
        let first = extent.div_ceil(MAX_LISTED);
        (first..=extent / (MAX_LISTED / 4))
            .filter(|&cofactor| extent.is_multiple_of(cofactor))
            .map(|cofactor| extent / cofactor)
            .find(|part| part.is_multiple_of(line))
    } else {
        None
    };
    whole_lines.or_else(|| largest_divisor_within(extent, MAX_LISTED))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(extent: usize, dst: usize) -> Level {
        Level {
            extent,
            dst,
            src: if dst == 1 { 17 } else { 1 },
            ..Level::default()
        }
    }

    /// Destination runs part on whole lines where a part of at least a quarter of the limit
    /// allows; source runs, and extents without such a part, take the largest divisor.
    #[test]
    fn destination_runs_part_on_whole_lines() {
        // 228 x 228 f32 positions: 9 x 5776 (361 lines), not 4 x 12996.
        assert_eq!(long_run_part(run(51984, 1), 4), Some(5776));
        // Through the source: the largest divisor.
        assert_eq!(long_run_part(run(51984, 17), 4), Some(12996));
        // 224 x 224: the largest divisor is whole lines already.
        assert_eq!(long_run_part(run(50176, 1), 4), Some(12544));
        // 230 x 230: 52900 has no divisor of whole lines (16 f32): the largest divisor.
        assert_eq!(long_run_part(run(52900, 1), 4), Some(13225));
        // A part of whole lines under a quarter of the limit: the largest divisor instead
        // (16496 = 16 x 1031: 1031 lines, or 2 x 8248).
        assert_eq!(long_run_part(run(16496, 1), 4), Some(8248));
        // 2-byte and 8-byte elements: lines of 32 (none divides 51984) and 8 (51984 / 6).
        assert_eq!(long_run_part(run(51984, 1), 2), Some(12996));
        assert_eq!(long_run_part(run(51984, 1), 8), Some(8664));
        // Elements that do not divide a line (3 bytes), or are longer than one: the largest
        // divisor.
        assert_eq!(long_run_part(run(51984, 1), 3), Some(12996));
        assert_eq!(long_run_part(run(51984, 1), 128), Some(12996));
        // Bytes: no part of whole 64-byte lines divides 51984.
        assert_eq!(long_run_part(run(51984, 1), 1), Some(12996));
        assert_eq!(long_run_part(run(50176, 1), 1), Some(12544));
    }
}
