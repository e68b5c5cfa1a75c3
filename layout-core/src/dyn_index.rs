//! [`DynIndex`]: a logical index (or dims) of a rank known at run time, without an allocation.

use crate::coords::step_row_major;
use crate::{LayoutError, mappings::MAX_RANK};
use core::fmt;
use core::ops::{Deref, DerefMut};

/// A logical index, or a list of dims, of a rank known only at run time (up to [`MAX_RANK`]):
/// what [`DynTensor`](crate::DynTensor) answers where a typed tensor answers `[usize; RANK]`
/// (its [`dims`](crate::DynTensor::dims), the indices of its
/// [`indexed_iter`](crate::DynTensor::indexed_iter), its
/// [`TensorRead::Index`](crate::tensors::TensorRead::Index)). It is `Copy`, holds its coordinates inline
/// and reads as a `&[usize]`.
///
/// ```
/// use tensor_layout::dynamic::DynIndex;
/// let index = DynIndex::from([0, 2, 1]);
/// assert_eq!(index.len(), 3);
/// assert_eq!(index[1], 2);
/// assert_eq!(index, [0, 2, 1]);
/// assert_eq!(format!("{index:?}"), "[0, 2, 1]");
/// assert!(DynIndex::try_from(&[0usize; 9][..]).is_err()); // above MAX_RANK
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DynIndex {
    coords: [usize; MAX_RANK],
    rank: u8,
}

impl DynIndex {
    /// `rank` coordinates, every one `value`.
    ///
    /// # Panics
    /// When `rank` exceeds [`MAX_RANK`].
    pub(crate) fn splat(rank: usize, value: usize) -> Self {
        assert!(rank <= MAX_RANK, "a rank of at most {MAX_RANK}");
        Self {
            coords: [value; MAX_RANK],
            rank: rank as u8,
        }
    }
}

impl Deref for DynIndex {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.coords[..usize::from(self.rank)]
    }
}

impl DerefMut for DynIndex {
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.coords[..usize::from(self.rank)]
    }
}

impl AsRef<[usize]> for DynIndex {
    fn as_ref(&self) -> &[usize] {
        self
    }
}

impl fmt::Debug for DynIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<const N: usize> From<[usize; N]> for DynIndex {
    /// # Panics
    /// At compile time when `N` exceeds [`MAX_RANK`].
    fn from(coords: [usize; N]) -> Self {
        let () = const {
            assert!(
                N <= MAX_RANK,
                "a DynIndex holds at most MAX_RANK coordinates"
            )
        };
        let mut index = Self::splat(N, 0);
        index.copy_from_slice(&coords);
        index
    }
}

impl TryFrom<&[usize]> for DynIndex {
    type Error = LayoutError;

    /// # Errors
    /// [`LayoutError::Rank`] when `coords` has more than [`MAX_RANK`] coordinates.
    fn try_from(coords: &[usize]) -> Result<Self, LayoutError> {
        if coords.len() > MAX_RANK {
            return Err(LayoutError::Rank {
                expected: MAX_RANK,
                found: coords.len(),
            });
        }
        let mut index = Self::splat(coords.len(), 0);
        index.copy_from_slice(coords);
        Ok(index)
    }
}

impl<const N: usize> PartialEq<[usize; N]> for DynIndex {
    fn eq(&self, other: &[usize; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<[usize]> for DynIndex {
    fn eq(&self, other: &[usize]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[usize]> for DynIndex {
    fn eq(&self, other: &&[usize]) -> bool {
        **self == **other
    }
}

/// The indices below `dims` in row-major order (the last coordinate fastest).
pub(crate) struct DynRowMajor {
    dims: DynIndex,
    next: Option<DynIndex>,
    left: usize,
}

impl DynRowMajor {
    pub(crate) fn new(dims: DynIndex) -> Self {
        let left = dims.iter().product();
        let next = (left > 0).then(|| DynIndex::splat(dims.len(), 0));
        Self { dims, next, left }
    }
}

impl Iterator for DynRowMajor {
    type Item = DynIndex;

    fn next(&mut self) -> Option<DynIndex> {
        let current = self.next?;
        self.left -= 1;
        let mut following = current;
        self.next = step_row_major(&mut following, &self.dims).then_some(following);
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for DynRowMajor {}
