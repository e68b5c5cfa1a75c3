//! Fusing neighbouring loops of a nested walk: the one rule by which a layout's axes are put in
//! their simplest form and a relayout plan's loops are merged.

/// Rewrites `loops[..len]` in place, outermost first: loops of one digit (`extent` 1) are
/// dropped, and each loop is merged into the one kept just outside it when `merge(outer,
/// inner)` gives the loop the two make together. Returns how many loops are left.
///
/// Merging neighbours once, outermost first, is enough: a merged loop is compared with the next
/// inner one again, so a run of any length collapses into one.
pub(crate) fn fuse_neighbours<L: Copy>(
    loops: &mut [L],
    len: usize,
    extent: impl Fn(&L) -> usize,
    merge: impl Fn(&L, &L) -> Option<L>,
) -> usize {
    // The loop written is never past the loop read.
    let mut kept = 0usize;
    for k in 0..len {
        let inner = loops[k];
        if extent(&inner) == 1 {
            continue;
        }
        if let Some(merged) = kept
            .checked_sub(1)
            .and_then(|last| merge(&loops[last], &inner))
        {
            loops[kept - 1] = merged;
            continue;
        }
        loops[kept] = inner;
        kept += 1;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(extent, stride)` loops merge where the outer stride is the inner one times its extent.
    #[test]
    fn runs_of_contiguous_loops_collapse_and_single_digits_go() {
        let merge = |outer: &(usize, usize), inner: &(usize, usize)| {
            (outer.1 == inner.0 * inner.1).then_some((outer.0 * inner.0, inner.1))
        };
        let mut loops = [(2, 60), (3, 20), (1, 999), (5, 4), (4, 1), (7, 100)];
        let len = fuse_neighbours(&mut loops, 6, |l| l.0, merge);
        assert_eq!(&loops[..len], &[(120, 1), (7, 100)]);
        let mut none = [(1, 5), (1, 1)];
        assert_eq!(fuse_neighbours(&mut none, 2, |l| l.0, merge), 0);
    }
}
