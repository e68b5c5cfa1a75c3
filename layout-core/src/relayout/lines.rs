//! Where a transpose block's lines start, destination rows ([`Lines<DST>`]) and source columns
//! ([`Lines<SRC>`]): listed by the plan, or a pitch apart.

/// The source side of a listed `(source, destination)` offset pair: its first.
pub(crate) const SRC: usize = 0;

/// The destination side of a listed offset pair: its second.
pub(crate) const DST: usize = 1;

/// Where a block's lines on side `SIDE` start, past its start: its `ROWS` destination lines
/// ([`DST`]) or its `COLS` source lines ([`SRC`]).
pub(crate) trait Lines<const SIDE: usize>: Copy {
    /// Where line `k` starts.
    fn at(self, k: usize) -> usize;

    /// The distance from each line to the next, where the same for all (vector blocks only).
    #[cfg_attr(not(vector_kernels), allow(dead_code))]
    fn pitch(self) -> Option<usize>;
}

/// Lines of a block as the plan listed them: line `k` at `lines[k].0` in the source, at
/// `lines[k].1` in the destination.
impl<const N: usize, const SIDE: usize> Lines<SIDE> for &[(usize, usize); N] {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        if SIDE == SRC { self[k].0 } else { self[k].1 }
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        None
    }
}

/// A listing of `N` lines evenly spaced on both sides, known at compile time: line `k` at
/// `(k * src_step, k * dst_step)`.
pub(crate) const fn evenly_listed<const N: usize>(
    src_step: usize,
    dst_step: usize,
) -> [(usize, usize); N] {
    let mut lines = [(0, 0); N];
    let mut k = 0;
    while k < N {
        lines[k] = (k * src_step, k * dst_step);
        k += 1;
    }
    lines
}

/// Lines of a block a pitch apart, line `k` at `k * pitch`: computed, not loaded from a listing,
/// so stores and loads need not wait on a load for their addresses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pitch(pub usize);

impl<const SIDE: usize> Lines<SIDE> for Pitch {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        k * self.0
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        Some(self.0)
    }
}
