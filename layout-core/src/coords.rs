//! Logical indices and dims: `[usize; RANK]`, seen through one trait.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{Index, IndexMut};

/// The highest rank of a layout, and so of an index: a rule of the chunk lists, kept with them.
///
/// ```
/// assert_eq!(layout_core::mappings::MAX_RANK, 8);
/// ```
pub use layout_notation::MAX_RANK;

/// A logical index or a list of dims: `[usize; RANK]` for the layout's rank.
///
/// Generic code over [`Layout`](crate::Layout) receives indices as `L::Index`; this trait gives it
/// what it needs to build and walk them without knowing `RANK`.
///
/// ```
/// use layout_core::mappings::Coords;
/// let dims = <[usize; 3]>::splat(4);
/// assert_eq!(dims, [4, 4, 4]);
/// assert_eq!(<[usize; 3] as Coords>::RANK, 3);
/// assert_eq!(dims.volume(), Some(64));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a logical index",
    label = "indices and dims are `[usize; RANK]`",
    note = "write the index as an array of `usize`, one per axis: `t[[n, c, h, w]]`"
)]
pub trait Coords:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + AsRef<[usize]>
    + AsMut<[usize]>
    + Index<usize, Output = usize>
    + IndexMut<usize>
{
    /// Number of coordinates.
    const RANK: usize;

    /// Every coordinate equal to `value`.
    fn splat(value: usize) -> Self;

    /// Product of the coordinates, `None` when it overflows `usize`.
    fn volume(&self) -> Option<usize> {
        self.as_ref()
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
    }

    /// Whether every coordinate of `self` is below the matching one of `bounds`.
    fn is_within(&self, bounds: &Self) -> bool {
        self.as_ref()
            .iter()
            .zip(bounds.as_ref())
            .all(|(i, d)| i < d)
    }
}

impl<const RANK: usize> Coords for [usize; RANK] {
    const RANK: usize = RANK;

    fn splat(value: usize) -> Self {
        [value; RANK]
    }
}

/// Row-major (C order) element strides of `dims`: the last coordinate moves fastest.
///
/// The caller guarantees the product of `dims` fits in `usize` (it does for the dims of any
/// valid mapping, whose storage is at least as large).
///
/// ```
/// assert_eq!(layout_core::mappings::row_major_strides(&[2, 3, 5, 30]), [450, 150, 30, 1]);
/// ```
pub fn row_major_strides<I: Coords>(dims: &I) -> I {
    let mut strides = I::splat(1);
    let mut running = 1usize;
    for d in (0..I::RANK).rev() {
        strides[d] = running;
        running = running.wrapping_mul(dims[d]);
    }
    strides
}

/// Iterator over every index below `dims` in logical row-major order.
///
/// ```
/// use layout_core::mappings::RowMajorIndices;
/// let all: Vec<[usize; 2]> = RowMajorIndices::new([2, 2]).collect();
/// assert_eq!(all, [[0, 0], [0, 1], [1, 0], [1, 1]]);
/// assert_eq!(RowMajorIndices::new([3, 0]).count(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct RowMajorIndices<I: Coords> {
    dims: I,
    next: Option<I>,
    remaining: usize,
}

impl<I: Coords> RowMajorIndices<I> {
    /// All indices below `dims`; none when any dim is zero.
    ///
    /// ```
    /// assert_eq!(layout_core::mappings::RowMajorIndices::new([2, 3]).len(), 6);
    /// ```
    pub fn new(dims: I) -> Self {
        let remaining = dims.volume().unwrap_or(usize::MAX);
        let next = (remaining > 0).then(|| I::splat(0));
        Self {
            dims,
            next,
            remaining,
        }
    }
}

impl<I: Coords> Iterator for RowMajorIndices<I> {
    type Item = I;

    fn next(&mut self) -> Option<I> {
        let current = self.next?;
        self.remaining -= 1;
        let mut following = current;
        self.next = step_row_major(following.as_mut(), self.dims.as_ref()).then_some(following);
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<I: Coords> ExactSizeIterator for RowMajorIndices<I> {}
impl<I: Coords> core::iter::FusedIterator for RowMajorIndices<I> {}

/// Calls `visit(k, index)` for every index below `dims` (a slice: any rank, known at run time)
/// in row-major order, `k` counting from 0; nothing when some dim is zero.
///
/// ```
/// let mut seen = Vec::new();
/// layout_core::mappings::for_each_row_major_index(&[2, 2], |k, index| seen.push((k, index.to_vec())));
/// assert_eq!(seen, [(0, vec![0, 0]), (1, vec![0, 1]), (2, vec![1, 0]), (3, vec![1, 1])]);
/// ```
pub fn for_each_row_major_index(dims: &[usize], mut visit: impl FnMut(usize, &[usize])) {
    if dims.contains(&0) {
        return;
    }
    let mut index = alloc::vec![0; dims.len()];
    let mut k = 0;
    loop {
        visit(k, &index);
        k += 1;
        if !step_row_major(&mut index, dims) {
            return;
        }
    }
}

/// Moves `index` to the index after it below `dims` in row-major order (the last coordinate
/// fastest): `false`, with `index` back at all zeros, when it was the last one. The one step
/// of every row-major walk, whatever holds the coordinates.
pub(crate) fn step_row_major(index: &mut [usize], dims: &[usize]) -> bool {
    for d in (0..dims.len()).rev() {
        index[d] += 1;
        if index[d] < dims[d] {
            return true;
        }
        index[d] = 0;
    }
    false
}
