//! [`Strided`]: plain layouts whose strides and start offset are run-time values. The views built
//! on them (permute, transpose, slice) are in `tensor/views.rs`.

use crate::axis_names::check_rank;
use crate::{
    Layout, LayoutError, Mapping, axes::AxisNames, axes::Positional, layouts::Axes, layouts::Axis,
    mappings::Coords,
};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

/// A strided layout: element `index` lives at `offset + sum_d index[d] * strides[d]` (MegEngine's
/// strides, oneDNN's "strides"), in elements.
///
/// Dense row-major and column-major layouts are special cases; views into a bigger buffer
/// (slices) and reordered dims (permute, transpose) are others. A strided view's gaps belong to
/// other data: nothing in tensor-layout writes them.
///
/// `Names` says what the axes mean, as for [`ChunkedMemoryLayout`](crate::ChunkedMemoryLayout):
/// a view keeps the names of the tensor it was made from
/// ([`TensorBase::slice`](crate::tensors::TensorBase::slice)) or reorders them
/// ([`TensorBase::align_to`](crate::tensors::TensorBase::align_to)). A strided layout built here is
/// positional; name its axes with [`Strided::with_axes`].
///
/// ```
/// use tensor_layout::{Mapping, layouts::Strided};
/// // MegEngine's documentation: a 2x5 int32 matrix, row-major: byte strides (20, 4), element [1][2] at byte 28.
/// let layout = Strided::row_major([2, 5]);
/// assert_eq!(layout.strides(), [5, 1]);
/// assert_eq!(layout.byte_strides::<i32>(), [20, 4]);
/// let m = Mapping::with_layout(layout, [2, 5]).unwrap();
/// assert_eq!(m.offset([1, 2]) * size_of::<i32>(), 28);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strided<const RANK: usize, Names = Positional> {
    strides: [usize; RANK],
    offset: usize,
    names: PhantomData<fn() -> Names>,
}

impl<const RANK: usize, N: AxisNames> Strided<RANK, N> {
    /// The same strides with named axes (or other names): no data moves, only what the axes are
    /// said to mean.
    ///
    /// ```
    /// use tensor_layout::{layouts::Strided, names};
    /// let nhwc = Strided::row_major([1, 2, 3, 4]).with_axes::<names::NHWC>();
    /// assert_eq!(nhwc.to_string(), "Strided<NHWC>(strides [24, 12, 4, 1], offset 0)");
    /// ```
    pub fn with_axes<N2: AxisNames>(self) -> Strided<RANK, N2> {
        Strided::named(self.strides, self.offset)
    }

    /// Element strides and offset with names `N` (what views build).
    pub(crate) fn named(strides: [usize; RANK], offset: usize) -> Self {
        let () = const {
            check_rank::<N>(RANK);
            if matches!(N::NAMING, crate::axes::AxisNaming::AtRunTime) {
                panic!("a strided view needs axis names known at compile time");
            }
        };
        Self {
            strides,
            offset,
            names: PhantomData,
        }
    }

    /// The element strides.
    ///
    /// ```
    /// assert_eq!(tensor_layout::layouts::Strided::row_major([4, 5]).strides(), [5, 1]);
    /// ```
    pub fn strides(&self) -> [usize; RANK] {
        self.strides
    }

    /// The strides in bytes for elements of type `T` (MegEngine's and NumPy's `strides`).
    ///
    /// ```
    /// assert_eq!(tensor_layout::layouts::Strided::row_major([4, 5]).byte_strides::<f32>(), [20, 4]);
    /// ```
    pub fn byte_strides<T>(&self) -> [usize; RANK] {
        self.strides.map(|s| s * size_of::<T>())
    }

    /// Offset of the first element.
    ///
    /// ```
    /// assert_eq!(tensor_layout::layouts::Strided::new([1], 7).offset(), 7);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl<const RANK: usize> Strided<RANK> {
    /// Element strides per dimension and the offset of the first element.
    ///
    /// ```
    /// let s = tensor_layout::layouts::Strided::new([1, 3], 2);
    /// assert_eq!((s.strides(), s.offset()), ([1, 3], 2));
    /// ```
    pub fn new(strides: [usize; RANK], offset: usize) -> Self {
        Self::named(strides, offset)
    }

    /// Dense row-major (C order) strides for `dims`: the last dimension moves fastest.
    ///
    /// ```
    /// assert_eq!(tensor_layout::layouts::Strided::row_major([2, 3, 4]).strides(), [12, 4, 1]);
    /// ```
    pub fn row_major(dims: [usize; RANK]) -> Self {
        Self::new(crate::mappings::row_major_strides(&dims), 0)
    }

    /// Dense column-major (Fortran order) strides for `dims`: the first dimension moves fastest.
    ///
    /// ```
    /// assert_eq!(tensor_layout::layouts::Strided::column_major([2, 3, 4]).strides(), [1, 2, 6]);
    /// ```
    pub fn column_major(dims: [usize; RANK]) -> Self {
        let mut strides = [1; RANK];
        let mut running = 1usize;
        for d in 0..RANK {
            strides[d] = running;
            running = running.wrapping_mul(dims[d]);
        }
        Self::new(strides, 0)
    }
}

/// `Strided<4>(strides [..], offset ..)`, with the axis word in place of the rank for named axes.
impl<const RANK: usize, N: AxisNames> fmt::Display for Strided<RANK, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = self.axis_word();
        if word.is_positional() {
            write!(f, "Strided<{RANK}>")?;
        } else {
            write!(f, "Strided<{word}>")?;
        }
        write!(f, "(strides {:?}, offset {})", self.strides, self.offset)
    }
}

/// A strided layout bound to dims: the storage it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StridedGeometry<const RANK: usize> {
    dims: [usize; RANK],
    storage_len: usize,
}

impl<const RANK: usize, N: AxisNames> Layout for Strided<RANK, N> {
    type Index = [usize; RANK];
    type Geometry = StridedGeometry<RANK>;
    type Names = N;

    /// The storage spans up to the last element: `offset + sum (dim - 1) * stride + 1`.
    fn geometry(&self, dims: &[usize; RANK]) -> Result<StridedGeometry<RANK>, LayoutError> {
        let overflow = || LayoutError::Overflow {
            dims: Vec::from(&dims[..]),
            element_size: None,
        };
        if dims.contains(&0) {
            return Ok(StridedGeometry {
                dims: *dims,
                storage_len: 0,
            });
        }
        let mut last = self.offset;
        for (&dim, &stride) in dims.iter().zip(&self.strides) {
            let reach = (dim - 1).checked_mul(stride).ok_or_else(overflow)?;
            last = last.checked_add(reach).ok_or_else(overflow)?;
        }
        Ok(StridedGeometry {
            dims: *dims,
            storage_len: last.checked_add(1).ok_or_else(overflow)?,
        })
    }

    fn padded_dims(&self, geometry: &StridedGeometry<RANK>) -> [usize; RANK] {
        geometry.dims
    }

    fn storage_len(&self, geometry: &StridedGeometry<RANK>) -> usize {
        geometry.storage_len
    }

    #[inline]
    fn offset(&self, _: &StridedGeometry<RANK>, index: &[usize; RANK]) -> usize {
        self.offset + (0..RANK).map(|d| index[d] * self.strides[d]).sum::<usize>()
    }

    /// One axis per dimension, in decreasing stride order (memory order).
    fn axes(&self, geometry: &StridedGeometry<RANK>) -> Axes {
        let mut order: [usize; RANK] = core::array::from_fn(|d| d);
        order.sort_by_key(|&d| (core::cmp::Reverse(self.strides[d]), d));
        let axes: Vec<Axis> = order
            .iter()
            .map(|&d| Axis {
                dim: d,
                extent: geometry.dims[d],
                step: 1,
                stride: self.strides[d],
            })
            .collect();
        Axes::from_slice(&axes)
    }

    fn base_offset(&self, _: &StridedGeometry<RANK>) -> usize {
        self.offset
    }

    fn gaps_are_padding(&self) -> bool {
        false
    }

    /// The offset is affine in the index by definition.
    const IS_ALWAYS_STRIDED: bool = true;

    /// Found from the strides: an index pair that shares a slot differs by a vector `delta`
    /// with `|delta[d]| < dims[d]` and `sum delta[d] * strides[d] == 0`. Strides that nest (in
    /// increasing order, each at least the reach of the ones below it, as every view of a
    /// tensor has) admit none; others are searched, largest stride first, each partial sum kept
    /// within what the smaller strides can still cancel.
    fn shared_slot(
        &self,
        _: &StridedGeometry<RANK>,
        dims: &[usize; RANK],
    ) -> Option<([usize; RANK], [usize; RANK])> {
        if dims.contains(&0) {
            return None;
        }
        let mut moving: Vec<usize> = (0..RANK).filter(|&d| dims[d] > 1).collect();
        moving.sort_unstable_by_key(|&d| self.strides[d]);
        if let Some(&broadcast) = moving.first().filter(|&&d| self.strides[d] == 0) {
            // Stride 0: the whole dimension in one slot.
            let mut next = [0; RANK];
            next[broadcast] = 1;
            return Some(([0; RANK], next));
        }
        if nested(&moving, dims, &self.strides) {
            return None;
        }
        // Largest stride first, so that the smallest is solved by one division.
        moving.reverse();
        let axes: Vec<(usize, i128)> = moving
            .iter()
            .map(|&d| (dims[d] - 1, self.strides[d] as i128))
            .collect();
        let mut delta = alloc::vec![0i128; axes.len()];
        if !cancel(&axes, &mut delta, 0, 0) {
            return None;
        }
        let (mut first, mut second) = ([0; RANK], [0; RANK]);
        for (&d, &change) in moving.iter().zip(&delta) {
            first[d] = (-change).max(0) as usize;
            second[d] = change.max(0) as usize;
        }
        // In row-major order, as the search of other layouts finds them.
        Some((first.min(second), first.max(second)))
    }
}

/// Whether the strides of the dims `moving` (increasing stride) each step past everything the
/// smaller ones reach, so that no two indices meet.
fn nested<const RANK: usize>(
    moving: &[usize],
    dims: &[usize; RANK],
    strides: &[usize; RANK],
) -> bool {
    let mut reach = 0usize;
    for &d in moving {
        if strides[d] <= reach {
            return false;
        }
        // Cannot overflow: the layout's storage length, past this reach, fits in `usize`.
        reach += (dims[d] - 1) * strides[d];
    }
    true
}

/// Fills `delta[at..]` so that `partial + sum of delta[i] * stride_i == 0` with `delta` not all
/// zero and `|delta[i]| <= most_i` (`axes[i] = (most_i, stride_i)`, positive strides in
/// decreasing order); the first non-zero entry is positive. `false` when no such completion exists.
fn cancel(axes: &[(usize, i128)], delta: &mut [i128], at: usize, partial: i128) -> bool {
    let (most, stride) = (axes[at].0 as i128, axes[at].1);
    let started = delta[..at].iter().any(|&d| d != 0);
    let lowest = if started { -most } else { 0 };
    if at + 1 == axes.len() {
        // The last (smallest) stride must cancel the rest on its own.
        if partial % stride != 0 {
            return false;
        }
        let change = -partial / stride;
        delta[at] = change;
        return (lowest..=most).contains(&change) && (started || change != 0);
    }
    // What the smaller strides can still cancel bounds this entry's change:
    // -reach <= partial + change * stride <= reach.
    let reach: i128 = axes[at + 1..].iter().map(|&(m, s)| m as i128 * s).sum();
    let from = lowest.max(-(reach + partial).div_euclid(stride));
    let to = most.min((reach - partial).div_euclid(stride));
    for change in from..=to {
        delta[at] = change;
        if cancel(axes, delta, at + 1, partial + change * stride) {
            return true;
        }
    }
    delta[at] = 0;
    false
}

impl<L: Layout> Mapping<L> {
    /// The element strides of this mapping when it is plain (each dimension one stride, no
    /// blocks and no padding): `None` for a blocked layout.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(Mapping::<onednn::nhwc>::new([2, 3, 4, 5]).unwrap().strides(), Some([60, 1, 15, 3]));
    /// assert_eq!(Mapping::<onednn::nChw8c>::new([2, 16, 4, 5]).unwrap().strides(), None);
    /// ```
    pub fn strides(&self) -> Option<L::Index> {
        if self.padded_dims() != self.dims() {
            return None;
        }
        let mut strides = L::Index::splat(0);
        let mut seen = L::Index::splat(0);
        for axis in self.axes().canonical().iter() {
            if axis.step != 1 || seen[axis.dim] > 0 {
                return None;
            }
            seen[axis.dim] = 1;
            strides[axis.dim] = axis.stride;
        }
        Some(strides)
    }
}
