//! Runs too long to list, cut so that a part of them can be a tile's rows or columns.

use super::divisors::largest_divisor_within;
use super::loops::{Level, MAX_LEVELS, Plan};
use crate::relayout::tuning::{CACHE_LINE, MAX_LISTED};

impl Plan {
    /// Splits the loop that steps through the source one element at a time, and the innermost
    /// loop, where either is longer than [`MAX_LISTED`] and has no bounds: the inner part
    /// ([`long_run_part`]) can then be the tile's rows or columns.
    pub(super) fn split_long_runs(&mut self, element_bytes: usize) {
        let source_run = |plan: &Plan| (0..plan.len - 1).find(|&k| plan.levels[k].src == 1);
        if let Some(k) = source_run(self) {
            self.split_long(k, k, element_bytes);
        }
        // The outer part of the innermost loop goes outside the source's run, so that the
        // run's loops can stay right outside the columns.
        let inner = self.len - 1;
        self.split_long(inner, source_run(self).unwrap_or(inner), element_bytes);
    }

    /// Splits loop `k` as [`Plan::split_long_runs`] says, the outer part going to `outer_at`:
    /// only bound-free loops lie between, so only the order of the visits changes.
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

/// The inner part of a loop longer than [`MAX_LISTED`]: the largest divisor of its extent
/// within [`MAX_LISTED`]; but for a run through the destination, the largest divisor of whole
/// cache lines, if one is at least a quarter of [`MAX_LISTED`], so each part starts a line
/// wherever the run does and a transpose into it streams every line.
fn long_run_part(long: Level, element_bytes: usize) -> Option<usize> {
    debug_assert!(long.extent > MAX_LISTED, "a run too long to list");
    let extent = long.extent;
    let line = CACHE_LINE / element_bytes.clamp(1, CACHE_LINE);
    let whole_lines = if long.dst == 1 && line * element_bytes == CACHE_LINE {
        // The largest part first: from the smallest cofactor up to the one that leaves a
        // quarter of the limit (a few tries, not hundreds down from the limit).
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

    /// Destination runs part on whole lines where a part of at least a quarter of the limit
    /// allows; source runs, and extents without such a part, take the largest divisor.
    #[test]
    fn destination_runs_part_on_whole_lines() {
        // (extent, destination stride, element bytes, part); a destination stride of 1 is a
        // run through the destination, any other one through the source.
        let cases = [
            (51984, 1, 4, 5776),   // 228 x 228 f32: 9 x 5776 (361 lines), not 4 x 12996
            (51984, 17, 4, 12996), // through the source: the largest divisor
            (50176, 1, 4, 12544),  // 224 x 224: the largest divisor is whole lines already
            (52900, 1, 4, 13225),  // 230 x 230: no divisor of whole lines (16 f32)
            // Whole lines only under a quarter of the limit (16 x 1031): 2 x 8248 instead.
            (16496, 1, 4, 8248),
            (51984, 1, 2, 12996), // lines of 32 2-byte elements: none divides 51984
            (51984, 1, 8, 8664),  // lines of 8 8-byte elements: 51984 / 6
            // Elements that do not divide a line, or are longer than one: the largest divisor.
            (51984, 1, 3, 12996),
            (51984, 1, 128, 12996),
            (51984, 1, 1, 12996), // bytes: no part of whole 64-byte lines divides 51984
            (50176, 1, 1, 12544),
        ];
        for (k, (extent, dst, bytes, part)) in cases.into_iter().enumerate() {
            let src = if dst == 1 { 17 } else { 1 };
            let long = Level {
                extent,
                dst,
                src,
                ..Level::default()
            };
            assert_eq!(long_run_part(long, bytes), Some(part), "case {k}");
        }
    }
}
