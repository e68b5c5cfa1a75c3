//! The [`Layout`] trait: what every memory layout (chunked, strided, NPU-local) provides.

use crate::{AxisNames, AxisWord, Coords, LayoutError};
use core::fmt::{Debug, Display};
use core::ops::Deref;

/// The most axes a layout may describe itself with (chunk lists may have this many entries).
///
/// ```
/// assert!(layout_core::MAX_AXES >= 16);
/// ```
pub const MAX_AXES: usize = 24;

/// A memory layout: a map from logical indices (`[usize; RANK]`, in the owning system's dimension
/// order) to element offsets in storage.
///
/// A layout type may carry run-time parameters (a strided layout's strides); chunked layouts are
/// zero-sized and everything about them is a constant. Binding a layout to logical dims gives a
/// [`Mapping`](crate::Mapping), which is what tensors hold.
///
/// # The axis model
/// Every layout describes its storage as nested loops, most major first ([`Layout::axes`]). Axis
/// `a` has a digit `0 <= digit_a < extent`; the element it addresses has logical coordinate
/// `x[dim] = sum of digit_a * step_a` over the axes of `dim`, and offset `sum of digit_a * stride_a`.
/// Generic walkers (memory-order visits, relayout, chunk iteration) only use this description, so
/// they serve every layout. Counting the digits up like an odometer, offsets (from
/// [`Layout::base_offset`]) must increase; a chunked layout's axes are a dense mixed-radix number
/// that addresses every storage slot exactly once, a strided view's may leave gaps.
///
/// ```
/// use layout_core::{Chunk, ChunkedMemoryLayout, Layout};
/// type Crouton = ChunkedMemoryLayout<4, (
///     Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>,
/// )>;
/// let layout = Crouton::default();
/// let geometry = layout.geometry(&[1, 3, 5, 30]).unwrap();
/// assert_eq!(layout.padded_dims(&geometry), [1, 8, 8, 32]);
/// assert_eq!(layout.offset(&geometry, &[0, 2, 4, 29]), 2 * 256 + 4 * 32 + 29);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tensor layout",
    label = "expected a layout such as `ChunkedMemoryLayout<4, (Chunk<0, 0>, ...)>`",
    note = "layouts are `ChunkedMemoryLayout<RANK, (Chunk<dim, size>, ...)>` or the catalog's named types"
)]
pub trait Layout: Copy + Debug + Display + Send + Sync + 'static {
    /// A logical index or dims: `[usize; RANK]`.
    type Index: Coords;

    /// What the layout derives from logical dims (padded extents, strides, storage length).
    type Geometry: Copy + Debug + Eq + Send + Sync;

    /// What the logical axes mean: [`Named`](crate::Named) letters (`NHWC`),
    /// [`Positional`](crate::Positional), or [`RunTimeNames`](crate::RunTimeNames) held by the
    /// layout value. Conversions between layouts move elements by these names.
    type Names: AxisNames;

    /// The names of the logical axes, in logical order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4CroutonLayout::default().axis_word().as_str(), "NHWC");
    /// assert_eq!(onednn::nChw16c::default().axis_word().as_str(), "NCHW");
    /// assert_eq!(<onednn_layout!("aBcd16b")>::default().axis_word().as_str(), "abcd");
    /// ```
    fn axis_word(&self) -> AxisWord {
        match <Self::Names as AxisNames>::NAMING.word(<Self::Index as Coords>::RANK) {
            Some(word) => word,
            None => unreachable!("a layout whose names are known at run time reports them itself"),
        }
    }

    /// Binds the layout to `dims`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage length does not fit in `usize`.
    fn geometry(&self, dims: &Self::Index) -> Result<Self::Geometry, LayoutError>;

    /// The dims after padding each one up to a whole number of its blocks.
    fn padded_dims(&self, geometry: &Self::Geometry) -> Self::Index;

    /// Number of storage slots (elements, padding included).
    fn storage_len(&self, geometry: &Self::Geometry) -> usize;

    /// Offset of the element at `index`, which the caller guarantees lies within the dims the
    /// geometry was made for (outside them the result is unspecified, never undefined behaviour).
    fn offset(&self, geometry: &Self::Geometry, index: &Self::Index) -> usize;

    /// The storage as nested loops, most major first (see the trait docs).
    fn axes(&self, geometry: &Self::Geometry) -> Axes;

    /// How many of the innermost axes form one contiguous chunk (HTP's crouton; a oneDNN inner
    /// block). Zero when every element is its own chunk.
    fn chunk_axes(&self) -> usize {
        0
    }

    /// Offset of the axes' starting point (every digit zero); the axes count from here. It is
    /// the first element's offset unless [`Layout::origin`] is non-zero. Non-zero for a view into
    /// a larger buffer, or a tensor placed part-way into a local memory.
    fn base_offset(&self, _geometry: &Self::Geometry) -> usize {
        0
    }

    /// The logical coordinates the axes' starting point stands for, negated: the element a
    /// digit combination addresses has index `x[d] = (sum of digit * step over the axes of d) -
    /// origin[d]`, and combinations with some `x[d] < 0` address no element of this tensor (and
    /// no padding of it either). Zero for every layout whose first element sits at the start of
    /// its axes; a Sophgo tensor starting on NPU `Q` has its channel 0 on the NPU axis's digit
    /// `Q`, so its channel origin is `Q`.
    fn origin(&self, _geometry: &Self::Geometry) -> Self::Index {
        Self::Index::splat(0)
    }

    /// Whether the storage slots between logical elements are this tensor's padding (chunked
    /// layouts) rather than other data a view must not touch (strided views).
    fn gaps_are_padding(&self) -> bool {
        true
    }
}

/// Holds when `Self` and `L` have the same rank: the bound of every conversion between layouts.
///
/// Implemented for every pair of layouts with the same index type. A relayout to a layout of
/// another rank does not compile; the error names both layouts, the two index types
/// (`[usize; 4]` against `[usize; 5]`) and this trait.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::SameRankAs;
/// fn convertible<A: Layout, B: SameRankAs<A>>() {}
/// convertible::<htp::R4FlatMemoryLayout, htp::R4CroutonLayout>();
/// ```
pub trait SameRankAs<L: Layout>: Layout<Index = L::Index> {}

impl<A: Layout, B: Layout<Index = A::Index>> SameRankAs<A> for B {}

/// One loop of a layout's storage walk (see [`Layout`]'s axis model).
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<htp::R4FlatMemoryLayout>::new([2, 3, 5, 30]).unwrap();
/// let first = m.axes()[0];
/// assert_eq!((first.dim, first.extent, first.step, first.stride), (0, 2, 1, 450));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Axis {
    /// The logical dimension this axis contributes to.
    pub dim: usize,
    /// Number of digit values.
    pub extent: usize,
    /// How much one digit step adds to the logical coordinate of `dim`.
    pub step: usize,
    /// How much one digit step adds to the storage offset, in elements.
    pub stride: usize,
}

/// A layout's axes, most major first; derefs to `[Axis]`.
///
/// ```
/// use layout_core::{Axes, Axis};
/// let axes = Axes::from_slice(&[Axis { dim: 0, extent: 2, step: 1, stride: 3 },
///                               Axis { dim: 1, extent: 3, step: 1, stride: 1 }]);
/// assert_eq!(axes.len(), 2);
/// assert_eq!(axes[1].stride, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axes {
    len: usize,
    items: [Axis; MAX_AXES],
}

impl Axes {
    /// Axes copied from a slice.
    ///
    /// # Panics
    /// When `axes` has more than [`MAX_AXES`] entries.
    ///
    /// ```
    /// use layout_core::{Axes, Axis};
    /// assert!(Axes::from_slice(&[]).is_empty());
    /// ```
    pub fn from_slice(axes: &[Axis]) -> Self {
        assert!(
            axes.len() <= MAX_AXES,
            "a layout has at most {MAX_AXES} axes"
        );
        let mut items = [Axis::default(); MAX_AXES];
        items[..axes.len()].copy_from_slice(axes);
        Self {
            len: axes.len(),
            items,
        }
    }
}

impl Axes {
    /// The same storage walk in its simplest form: axes of extent 1 dropped, and each axis merged
    /// into the one outside it when the two count one dimension contiguously. Two mappings with
    /// the same dims are the same function exactly when their canonical axes are equal (so
    /// `nChw16c` and `nChw8c` agree on 16 channels and a 1x1 image, and a block of 1 is no block).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let a = Mapping::<onednn::nChw16c>::new([1, 16, 1, 1]).unwrap();
    /// let b = Mapping::<onednn::nChw8c>::new([1, 16, 1, 1]).unwrap();
    /// assert_eq!(a.axes().canonical(), b.axes().canonical());
    /// let c = Mapping::<onednn::nChw8c>::new([1, 16, 2, 1]).unwrap();
    /// let d = Mapping::<onednn::nChw16c>::new([1, 16, 2, 1]).unwrap();
    /// assert_ne!(c.axes().canonical(), d.axes().canonical());
    /// ```
    pub fn canonical(&self) -> Axes {
        let mut out: [Axis; MAX_AXES] = [Axis::default(); MAX_AXES];
        let mut len = 0usize;
        for axis in self.iter().filter(|a| a.extent != 1) {
            if let Some(outer) = len.checked_sub(1).map(|last| &mut out[last]) {
                let continues = outer.dim == axis.dim
                    && outer.step == axis.step * axis.extent
                    && outer.stride == axis.stride * axis.extent;
                if continues {
                    *outer = Axis {
                        extent: outer.extent * axis.extent,
                        ..*axis
                    };
                    continue;
                }
            }
            out[len] = *axis;
            len += 1;
        }
        Axes::from_slice(&out[..len])
    }
}

impl Deref for Axes {
    type Target = [Axis];

    fn deref(&self) -> &[Axis] {
        &self.items[..self.len]
    }
}
