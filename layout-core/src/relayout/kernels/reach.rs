//! How far one kernel call reaches from where it starts, checked once per call.

/// Bounds of the offsets a transpose of listed rows by listed columns touches past its `s` and
/// `d`, found once per relayout: each call checks them in constant time, its blocks not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The largest source offset past `s`.
    pub src: usize,
    /// The largest destination offset past `d`.
    pub dst: usize,
}

impl Reach {
    /// The reach of every row of `rows` with every column of `cols`.
    pub(crate) fn of(rows: &[(usize, usize)], cols: &[(usize, usize)]) -> Self {
        let largest = |listing: &[(usize, usize)]| {
            listing
                .iter()
                .fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)))
        };
        Reach::summed(largest(rows), largest(cols))
    }

    /// The reach of listings of whole loops with strides that never go down, as
    /// [`Plan::listings`](crate::relayout::plan::Plan::listings) makes them: from each one's last
    /// entry, its largest on both sides.
    pub(crate) fn of_listed(rows: &[(usize, usize)], cols: &[(usize, usize)]) -> Self {
        let last = |listing: &[(usize, usize)]| listing.last().copied().unwrap_or((0, 0));
        let reach = Reach::summed(last(rows), last(cols));
        debug_assert_eq!(reach, Reach::of(rows, cols), "listings of whole loops");
        reach
    }

    /// The reach of a row's offsets plus a column's, on each side.
    fn summed(row: (usize, usize), col: (usize, usize)) -> Self {
        Reach {
            src: row.0.saturating_add(col.0),
            dst: row.1.saturating_add(col.1),
        }
    }

    /// Whether every offset reached from `s` and `d` lies inside slices of these lengths.
    pub(crate) fn fits(self, dst_len: usize, d: usize, src_len: usize, s: usize) -> bool {
        let inside = |start: usize, past: usize, len: usize| {
            start.checked_add(past).is_some_and(|last| last < len)
        };
        inside(s, self.src, src_len) && inside(d, self.dst, dst_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_is_the_largest_offset_on_each_side() {
        let rows = [(0, 40), (1, 0), (2, 20)];
        let cols = [(9, 0), (3, 1)];
        assert_eq!(Reach::of(&rows, &cols), Reach { src: 11, dst: 41 });
        assert!(Reach::of(&rows, &cols).fits(42, 0, 12, 0));
        assert!(!Reach::of(&rows, &cols).fits(41, 0, 12, 0));
        assert!(!Reach::of(&rows, &cols).fits(usize::MAX, usize::MAX, 12, 0));
    }
}
