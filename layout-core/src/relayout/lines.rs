//! Where a transpose block's lines start, destination rows ([`Lines`]) and source columns
//! ([`Columns`]): listed by the plan, or a pitch apart.

use super::tuning::ROWS;

/// Where a block's `ROWS` destination lines start, relative to its `d`.
pub(crate) trait Lines: Copy {
    /// Where line `k` starts.
    fn at(self, k: usize) -> usize;

    /// The distance from each line to the next, where it is the same for all (vector blocks
    /// only).
    #[cfg_attr(not(vector_kernels), allow(dead_code))]
    fn pitch(self) -> Option<usize>;
}

/// Rows of a block as the plan listed them: line `k` at `rows[k].1`.
impl Lines for &[(usize, usize); ROWS] {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        self[k].1
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        None
    }
}

/// Lines of a block a pitch apart: line `k` at `k * pitch`, computed rather than loaded from a
/// listing, so stores and loads need not wait on a load for their addresses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pitch(pub usize);

impl Lines for Pitch {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        k * self.0
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        Some(self.0)
    }
}

/// Where a block's `COLS` source lines start, relative to its `s`.
pub(crate) trait Columns: Copy {
    /// Where line `j` starts.
    fn at(self, j: usize) -> usize;

    /// As [`Lines::pitch`].
    #[cfg_attr(not(vector_kernels), allow(dead_code))]
    fn pitch(self) -> Option<usize>;
}

/// Columns of a block as the plan listed them: line `j` at `cols[j].0`.
impl<const COLS: usize> Columns for &[(usize, usize); COLS] {
    #[inline(always)]
    fn at(self, j: usize) -> usize {
        self[j].0
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        None
    }
}

impl Columns for Pitch {
    #[inline(always)]
    fn at(self, j: usize) -> usize {
        j * self.0
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        Some(self.0)
    }
}
