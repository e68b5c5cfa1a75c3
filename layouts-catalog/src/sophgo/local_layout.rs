//! [`LocalLayout`]: what every layout of a tensor in local memory adds to [`Layout`].

use super::chip::ChipSpec;
use super::geometry::LocalGeometry;
use layout_core::Layout;

/// A layout of a tensor placed in the local memory of [`LocalLayout::Chip`]: its offsets count
/// elements of the whole memory, so a [`LocalMemory`](super::LocalMemory) can view its bytes
/// through it. Implemented by [`Local`](super::Local) (compact, aligned, free strides, storage
/// modes) and [`Matrix`](super::Matrix), each next to its type; this module depends on neither.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, LocalLayout, ExampleChip};
/// fn start_of<L: LocalLayout>(layout: &L) -> usize { layout.address() }
/// assert_eq!(start_of(&EuAligned::<ExampleChip>::new(2048, 4)), 2048);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layout of Sophgo local memory",
    label = "local memory holds `Compact`, `EuAligned`, `LineAligned`, `FreeStrides` or `Matrix` tensors",
    note = "a system-memory tensor (`sophgo::Continuous`, `onednn::nchw`, ...) enters local memory by `LocalMemory::store` into a tensor placed in one of those layouts"
)]
pub trait LocalLayout: Layout + sealed::Sealed {
    /// The chip whose memory the tensor lives in.
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1684X, ChipSpec, Compact, LocalLayout};
    /// assert_eq!(<Compact<BM1684X> as LocalLayout>::Chip::NPUS, 64);
    /// ```
    type Chip: ChipSpec;

    /// The start address in bytes.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalLayout, Matrix, ExampleChip};
    /// assert_eq!(LocalLayout::address(&Matrix::<ExampleChip>::new(128, 4, 8)), 128);
    /// ```
    fn address(&self) -> usize;

    /// Bytes per element (of the unpacked type for a storage mode).
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, FourN, LocalLayout, ExampleChip};
    /// assert_eq!(LocalLayout::element_bytes(&Compact::<ExampleChip, FourN>::new(0, 1)), 1);
    /// ```
    fn element_bytes(&self) -> usize;

    /// The alignment in bytes the start address must have: the rule's (4 bytes for compact, the
    /// EU width for the aligned layouts and a matrix, the element for free strides) rounded up
    /// to a multiple of the (packed) element size. Binding refuses other addresses with
    /// [`LayoutError::Misaligned`](layout_core::LayoutError::Misaligned).
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, EuAligned, ExampleChip, LocalLayout, TwoIC};
    /// assert_eq!(LocalLayout::alignment(&EuAligned::<ExampleChip>::new(0, 4)), 128);
    /// assert_eq!(LocalLayout::alignment(&Compact::<ExampleChip>::new(0, 1)), 4);
    /// assert_eq!(LocalLayout::alignment(&Compact::<ExampleChip, TwoIC>::new(0, 4)), 8); // fp32x2
    /// ```
    fn alignment(&self) -> usize;

    /// The 4-D placement behind `geometry` (a matrix's is its `(N, ceil(M / W), 1, W)` view):
    /// strides, start, channels per NPU, what each NPU holds.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{LocalLayout, Matrix, ExampleChip};
    /// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 8), [2, 40]).unwrap();
    /// assert_eq!(m.layout().local_geometry(m.geometry()).dims(), [2, 5, 1, 8]);
    /// ```
    fn local_geometry(&self, geometry: &Self::Geometry) -> LocalGeometry;
}

pub(crate) mod sealed {
    /// The local layouts of this module are all there are.
    pub trait Sealed {}
}
