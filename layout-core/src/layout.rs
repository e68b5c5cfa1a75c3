//! The [`Layout`] trait: what every memory layout (chunked, strided, NPU-local) provides.

use crate::fuse::fuse_neighbours;
use crate::{
    LayoutError, axes::AxisNames, axes::AxisWord, mappings::Coords, mappings::RowMajorIndices,
};
use alloc::vec::Vec;
use core::fmt::{Debug, Display};
use core::ops::Deref;

/// The most axes a layout may describe itself with (chunk lists may have this many entries).
///
/// ```
/// assert!(layout_core::layouts::MAX_AXES >= 16);
/// ```
pub const MAX_AXES: usize = layout_notation::MAX_ENTRIES;

/// A memory layout: a map from logical indices (`[usize; RANK]`, in the owning system's dimension
/// order) to element offsets in storage.
///
/// A layout type may carry run-time parameters (a strided layout's strides); chunked layouts are
/// zero-sized and everything about them is a constant. Binding a layout to logical dims gives a
/// [`Mapping`], which is what tensors hold.
///
/// # The axis model
/// Every layout describes its storage as nested loops, most major first ([`Layout::axes`]). Axis
/// `a` has a digit `0 <= digit_a < extent`; the element it addresses has logical coordinate
/// `x[dim] = sum of digit_a * step_a` over the axes of `dim`, and offset `sum of digit_a * stride_a`.
/// The axes of one dimension write its coordinate as a mixed-radix number: ordered by step, the
/// first has step 1 and each next one's step is the previous step times the previous extent.
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
///
/// # Contracts
/// As mdspan's layout mappings do, a layout type promises what holds for every one of its
/// mappings ([`Layout::IS_ALWAYS_UNIQUE`], [`Layout::IS_ALWAYS_EXHAUSTIVE`],
/// [`Layout::IS_ALWAYS_STRIDED`]; `false`, the default, promises nothing), and each
/// [`Mapping`] answers for its own dims ([`Mapping::is_unique`], [`Mapping::is_exhaustive`],
/// [`Mapping::is_strided`], [`Mapping::required_span_size`]). A layout defined elsewhere keeps
/// the constants true and its axes faithful to its offsets; a broken promise gives wrong
/// answers, never undefined behaviour.
///
/// [`Mapping`]: crate::Mapping
/// [`Mapping::is_unique`]: crate::Mapping::is_unique
/// [`Mapping::is_exhaustive`]: crate::Mapping::is_exhaustive
/// [`Mapping::is_strided`]: crate::Mapping::is_strided
/// [`Mapping::required_span_size`]: crate::Mapping::required_span_size
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

    /// What the logical axes mean: [`Named`](crate::axes::Named) letters (`NHWC`),
    /// [`Positional`](crate::axes::Positional), or [`RunTimeNames`](crate::axes::RunTimeNames) held by the
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

    /// Whether every mapping of this layout type is unique, whatever the dims and the layout
    /// value (mdspan's `is_always_unique`): no two logical indices share a storage slot.
    /// `false` says only that the type does not promise it; [`Mapping::is_unique`] answers for
    /// one mapping. Writable tensors and views need a unique mapping.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// assert!(htp::R4CroutonLayout::IS_ALWAYS_UNIQUE);
    /// assert!(!<Strided<2> as Layout>::IS_ALWAYS_UNIQUE); // stride 0 broadcasts
    /// ```
    ///
    /// [`Mapping::is_unique`]: crate::Mapping::is_unique
    const IS_ALWAYS_UNIQUE: bool = false;

    /// Whether every mapping of this layout type is exhaustive, whatever the dims and the layout
    /// value (mdspan's `is_always_exhaustive`): the elements' offsets fill every slot below
    /// [`Mapping::required_span_size`]. `false` when padding or gaps may occur;
    /// [`Mapping::is_exhaustive`] answers for one mapping.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(onednn::nhwc::IS_ALWAYS_EXHAUSTIVE);
    /// assert!(!onednn::nChw16c::IS_ALWAYS_EXHAUSTIVE); // 3 channels pad to 16
    /// ```
    ///
    /// [`Mapping::required_span_size`]: crate::Mapping::required_span_size
    /// [`Mapping::is_exhaustive`]: crate::Mapping::is_exhaustive
    const IS_ALWAYS_EXHAUSTIVE: bool = false;

    /// Whether every mapping of this layout type is strided, whatever the dims and the layout
    /// value (mdspan's `is_always_strided`): the offset is `constant + sum index[d] * stride[d]`.
    /// `false` when blocks may break that; [`Mapping::is_strided`] answers for one mapping.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// assert!(<Strided<4> as Layout>::IS_ALWAYS_STRIDED);
    /// assert!(!htp::R4CroutonLayout::IS_ALWAYS_STRIDED);
    /// ```
    ///
    /// [`Mapping::is_strided`]: crate::Mapping::is_strided
    const IS_ALWAYS_STRIDED: bool = false;

    /// Two different logical indices within `dims` (the dims `geometry` was made for) whose
    /// offsets are equal, or `None` when the mapping is unique; [`Mapping::is_unique`] and the
    /// refusal of writable views that overlap rest on it.
    ///
    /// The default answers `None` at once when [`Layout::IS_ALWAYS_UNIQUE`] holds, and otherwise
    /// visits every index (time proportional to the elements, one bit per slot of the span); a
    /// layout that can tell from its parameters overrides it, as [`Strided`](crate::layouts::Strided) does.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::layouts::Strided;
    /// let broadcast = Strided::new([3, 0], 0); // every column of a row in one slot
    /// let m = Mapping::with_layout(broadcast, [2, 4]).unwrap();
    /// assert_eq!(m.layout().shared_slot(m.geometry(), &m.dims()), Some(([0, 0], [0, 1])));
    /// ```
    ///
    /// [`Mapping::is_unique`]: crate::Mapping::is_unique
    fn shared_slot(
        &self,
        geometry: &Self::Geometry,
        dims: &Self::Index,
    ) -> Option<(Self::Index, Self::Index)> {
        if Self::IS_ALWAYS_UNIQUE {
            return None;
        }
        shared_slot_by_visiting(|index| self.offset(geometry, index), dims)
    }
}

/// Two indices below `dims` with the same offset, found by visiting every index: once for the
/// largest offset, once to find a repeated one, once for the first index that reaches it.
fn shared_slot_by_visiting<I: Coords>(offset: impl Fn(&I) -> usize, dims: &I) -> Option<(I, I)> {
    let span = RowMajorIndices::new(*dims).map(|i| offset(&i)).max()? + 1;
    let mut seen = Vec::from_iter(core::iter::repeat_n(0u64, span.div_ceil(64)));
    let (second, slot) = RowMajorIndices::new(*dims).find_map(|index| {
        let slot = offset(&index);
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        let repeated = seen[word] & bit != 0;
        seen[word] |= bit;
        repeated.then_some((index, slot))
    })?;
    let first = RowMajorIndices::new(*dims).find(|index| offset(index) == slot)?;
    Some((first, second))
}

/// Holds when `Self` and `L` have the same rank: the bound of every conversion between layouts.
///
/// Implemented for every pair of layouts with the same index type. A relayout to a layout of
/// another rank does not compile; the error names both layouts, the two index types
/// (`[usize; 4]` against `[usize; 5]`) and this trait.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::layouts::SameRankAs;
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
/// use layout_core::{layouts::Axes, layouts::Axis};
/// let axes = Axes::from_slice(&[Axis { dim: 0, extent: 2, step: 1, stride: 3 },
///                               Axis { dim: 1, extent: 3, step: 1, stride: 1 }]);
/// assert_eq!(axes.len(), 2);
/// assert_eq!(axes[1].stride, 1);
/// ```
#[derive(Clone, Copy, Debug, Eq)]
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
    /// use layout_core::{layouts::Axes, layouts::Axis};
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
    /// The axes `axes` yields, written in place (an `Axes` is a fixed array of
    /// [`MAX_AXES`]: building it in a local array first and copying costs small relayouts a
    /// share of their time).
    ///
    /// # Panics
    /// When `axes` yields more than [`MAX_AXES`] entries.
    pub(crate) fn collect(axes: impl IntoIterator<Item = Axis>) -> Self {
        let mut out = Self {
            len: 0,
            items: [Axis::default(); MAX_AXES],
        };
        for axis in axes {
            assert!(out.len < MAX_AXES, "a layout has at most {MAX_AXES} axes");
            out.items[out.len] = axis;
            out.len += 1;
        }
        out
    }

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
        out[..self.len].copy_from_slice(self);
        let len = fuse_neighbours(
            &mut out,
            self.len,
            |axis| axis.extent,
            |outer, axis| {
                let continues = outer.dim == axis.dim
                    && outer.step == axis.step * axis.extent
                    && outer.stride == axis.stride * axis.extent;
                continues.then_some(Axis {
                    extent: outer.extent * axis.extent,
                    ..*axis
                })
            },
        );
        Axes::from_slice(&out[..len])
    }
}

/// The contracts of a mapping, read off its axes: as every dimension's axes write its
/// coordinate as a mixed-radix number and each axis adds `digit * stride`, the offset is
/// `base + sum over d of f_d(x[d] + origin[d])`, one term per dimension, so both questions are
/// answered one dimension at a time.
impl Axes {
    /// The axes of dimension `dim` that move (extent above 1), least significant first.
    fn digits_of(&self, dim: usize) -> ([Axis; MAX_AXES], usize) {
        let mut digits = [Axis::default(); MAX_AXES];
        let mut len = 0;
        for axis in self.iter().filter(|a| a.dim == dim && a.extent > 1) {
            digits[len] = *axis;
            len += 1;
        }
        digits[..len].sort_unstable_by_key(|a| a.step);
        debug_assert!(
            digits[..len]
                .windows(2)
                .all(|w| w[1].step == w[0].step * w[0].extent)
                && digits[..len].first().is_none_or(|a| a.step == 1),
            "the axes of dimension {dim} are a mixed-radix number"
        );
        (digits, len)
    }

    /// One more than the largest offset of an element of `dims` (0 when some dim is 0), for a
    /// layout with this `origin` and `base` offset.
    pub(crate) fn required_span_size(
        &self,
        dims: &[usize],
        origin: &[usize],
        base: usize,
    ) -> usize {
        if dims.contains(&0) {
            return 0;
        }
        let largest: usize = (0..dims.len())
            .map(|d| {
                let (digits, len) = self.digits_of(d);
                max_term(&digits[..len], origin[d], origin[d] + dims[d] - 1)
            })
            .sum();
        base + largest + 1
    }

    /// Whether the offset of the elements of `dims` is affine in the index (each dimension has
    /// one stride on them), for a layout with this `origin`.
    pub(crate) fn is_affine(&self, dims: &[usize], origin: &[usize]) -> bool {
        dims.contains(&0)
            || (0..dims.len()).all(|d| {
                let (digits, len) = self.digits_of(d);
                affine_on(&digits[..len], origin[d], dims[d])
            })
    }
}

/// The largest `sum of digit * stride` over the numbers `lo..=hi` written in `digits` (a
/// mixed-radix number, least significant first): the top digit at either end of the range with
/// the rest bounded, or one below the top end with the rest free.
fn max_term(digits: &[Axis], lo: usize, hi: usize) -> usize {
    let Some((top, lower)) = digits.split_last() else {
        return 0;
    };
    let free: usize = lower.iter().map(|a| (a.extent - 1) * a.stride).sum();
    if lo == 0 && hi == top.step * top.extent - 1 {
        return (top.extent - 1) * top.stride + free;
    }
    let unit = top.step;
    let (q_lo, q_hi) = (lo / unit, hi / unit);
    if q_lo == q_hi {
        return q_lo * top.stride + max_term(lower, lo % unit, hi % unit);
    }
    let low_end = q_lo * top.stride + max_term(lower, lo % unit, unit - 1);
    let high_end = q_hi * top.stride + max_term(lower, 0, hi % unit);
    let middle = if q_hi - q_lo > 1 {
        (q_hi - 1) * top.stride + free
    } else {
        0
    };
    low_end.max(high_end).max(middle)
}

/// Whether `sum of digit * stride` over the numbers `lo..lo + count` written in `digits` grows
/// by the same amount at every step. A step that carries into digit `j` adds `stride_j` minus
/// what the digits below it drop; it happens where a number is a multiple of `step_j` but not
/// of the next step.
fn affine_on(digits: &[Axis], lo: usize, count: usize) -> bool {
    if count <= 1 {
        return true;
    }
    // The numbers a step arrives at: lo + 1 ..= lo + count - 1.
    let (first, last) = (lo + 1, lo + count - 1);
    let multiples = |unit: usize| last / unit - (first - 1) / unit;
    let mut growth: Option<i128> = None;
    let mut dropped: i128 = 0;
    for (j, axis) in digits.iter().enumerate() {
        let carries_here =
            multiples(axis.step) > digits.get(j + 1).map_or(0, |next| multiples(next.step));
        if carries_here {
            let step = axis.stride as i128 - dropped;
            if *growth.get_or_insert(step) != step {
                return false;
            }
        }
        dropped += ((axis.extent - 1) * axis.stride) as i128;
    }
    true
}

/// Equal where the axes are: the slots past `len` are not compared (a relayout compares its
/// layouts' axes on every call, to find the plan it kept).
impl PartialEq for Axes {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Deref for Axes {
    type Target = [Axis];

    fn deref(&self) -> &[Axis] {
        &self.items[..self.len]
    }
}
