//! Divisors for cutting a loop in two: pure arithmetic, shared by the plan's splits.

/// The largest divisor of `extent` in `2..=most` other than `extent` itself, found from the
/// smallest cofactor up (one or two tries for most extents), else from `most` down.
pub(super) fn largest_divisor_within(extent: usize, most: usize) -> Option<usize> {
    let first = extent.div_ceil(most.max(1)).max(2);
    (first..=extent / 2)
        .take(most)
        .find(|&cofactor| extent.is_multiple_of(cofactor))
        .map(|cofactor| extent / cofactor)
        .filter(|&part| part >= 2)
        .or_else(|| {
            (2..=most.min(extent / 2))
                .rev()
                .find(|&part| extent.is_multiple_of(part))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::tuning::MAX_LISTED;

    /// The largest divisor within the limit, against the plain step down from the limit: for
    /// every extent to 5000 under every small limit, and for runs past the listing limit.
    #[test]
    #[cfg_attr(miri, ignore)] // arithmetic only, and two hundred thousand searches
    fn the_largest_divisor_within_the_limit() {
        let slow = |extent: usize, most: usize| {
            (2..=most)
                .rev()
                .find(|&f| f < extent && extent.is_multiple_of(f))
        };
        for most in 0..=40 {
            for extent in 0..=5000 {
                let got = largest_divisor_within(extent, most);
                assert_eq!(got, slow(extent, most), "{extent} within {most}");
            }
        }
        // Past the listing limit, with 3 x, 2 x and 1 x the prime 16411.
        for extent in [50176, 51984, 52900, 49233, 32822, 16411, 65536, 100_000] {
            let got = largest_divisor_within(extent, MAX_LISTED);
            assert_eq!(got, slow(extent, MAX_LISTED), "{extent}");
        }
    }
}
