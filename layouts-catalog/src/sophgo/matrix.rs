//! [`Matrix`]: an N x M matrix in local memory, its columns cut into channels of width W.

use super::chip::{ChipSpec, chip_name};
use super::geometry::LocalGeometry;
use super::local::EuAligned;
use super::local_layout::{LocalLayout, sealed};
use alloc::format;
use alloc::string::ToString;
use core::fmt;
use core::marker::PhantomData;
use layout_core::{Layout, LayoutError, layouts::Axes, layouts::Axis};

/// The TPU-Kernel documentation's matrix layout: an `[N, M]` matrix seen as the 4-D tensor `(N, ceil(M / W), 1, W)`
/// in the EU-aligned layout, the width `W` (in `1..=M`) chosen by the user.
///
/// Column `m` is channel `m / W`, position `m % W` in it; the last channel holds the
/// `M - W * (ceil(M / W) - 1)` remaining columns. Logical dims are `[N, M]`; the column
/// coordinate is counted by an NPU axis (step `W`), a channel-slot axis (step `X * W`) and a
/// position axis (step 1), and its [`Layout::origin`] is `Q * W` for a matrix starting at NPU
/// `Q`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{Matrix, ExampleChip};
/// // The TPU-Kernel documentation: 2 x 40 fp32 with W = 15: NPUs 0 and 1 hold 15 columns, NPU 2 the last 10.
/// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 15), [2, 40]).unwrap();
/// assert_eq!(m.offset([0, 14]), 14);
/// assert_eq!(m.offset([0, 15]), 256);          // NPU 1 (256 fp32 per NPU)
/// assert_eq!(m.offset([1, 39]), 2 * 256 + 32 + 9); // NPU 2, row 1 (N stride 32)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Matrix<C: ChipSpec> {
    address: usize,
    element_bytes: usize,
    width: usize,
    chip: PhantomData<C>,
}

/// A [`Matrix`] bound to dims `[N, M]`: its 4-D view's geometry and the dims.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{Matrix, ExampleChip};
/// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 40), [2, 40]).unwrap();
/// assert_eq!(m.geometry().as_4d().strides(), [64, 64, 40, 1]); // a row takes 64 fp32
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixGeometry {
    frame: LocalGeometry,
    dims: [usize; 2],
}

impl MatrixGeometry {
    /// The geometry of the 4-D view `(N, ceil(M / W), 1, W)`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Matrix, ExampleChip};
    /// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 8), [2, 40]).unwrap();
    /// assert_eq!(m.geometry().as_4d().channels_per_npu(), 2); // 5 channels on 4 NPUs
    /// ```
    pub fn as_4d(&self) -> &LocalGeometry {
        &self.frame
    }

    /// The logical dims `[N, M]`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Matrix, ExampleChip};
    /// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 8), [2, 40]).unwrap();
    /// assert_eq!(m.geometry().dims(), [2, 40]);
    /// ```
    pub fn dims(&self) -> [usize; 2] {
        self.dims
    }
}

impl<C: ChipSpec> Matrix<C> {
    /// A matrix at byte `address` with `element_bytes`-byte elements, cut into channels of
    /// `width` columns.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Matrix, ExampleChip};
    /// let layout = Matrix::<ExampleChip>::new(0, 4, 20);
    /// assert_eq!(layout.to_string(), "Matrix<Chip<4, 1024, 128>>(width 20) at address 0, 4-byte elements");
    /// ```
    pub fn new(address: usize, element_bytes: usize, width: usize) -> Self {
        Self {
            address,
            element_bytes,
            width,
            chip: PhantomData,
        }
    }

    /// The channel width W.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Matrix, ExampleChip};
    /// assert_eq!(Matrix::<ExampleChip>::new(0, 4, 6).width(), 6);
    /// ```
    pub fn width(&self) -> usize {
        self.width
    }
}

impl<C: ChipSpec> fmt::Display for Matrix<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Matrix<")?;
        chip_name::<C>(f)?;
        write!(
            f,
            ">(width {}) at address {}, {}-byte elements",
            self.width, self.address, self.element_bytes
        )
    }
}

impl<C: ChipSpec> Layout for Matrix<C> {
    type Index = [usize; 2];
    type Geometry = MatrixGeometry;
    /// Rows and columns: a matrix states no further meaning.
    type Names = layout_core::axes::Positional;

    /// Binding checks the 4-D view as for [`EuAligned`]: every mapping is unique.
    const IS_ALWAYS_UNIQUE: bool = true;

    /// Checks the width (`1..=M`) and the placement of the 4-D view.
    fn geometry(&self, dims: &[usize; 2]) -> Result<MatrixGeometry, LayoutError> {
        let [n, m] = *dims;
        let w = self.width;
        if w == 0 || (m > 0 && w > m) {
            return Err(LayoutError::InvalidLayout {
                layout: self.to_string(),
                reason: format!("the width must lie in 1..={m} for {m} columns, found {w}"),
            });
        }
        let channels = m.div_ceil(w);
        let last_channel_width = m - w * channels.saturating_sub(1);
        let aligned = EuAligned::<C>::new(self.address, self.element_bytes);
        let frame = aligned
            .build([n, channels, 1, w], last_channel_width)
            .map_err(|e| match e {
                LayoutError::InvalidLayout { reason, .. } => LayoutError::InvalidLayout {
                    layout: self.to_string(),
                    reason,
                },
                other => other,
            })?;
        Ok(MatrixGeometry { frame, dims: *dims })
    }

    /// The dims themselves: the unused tail of the last channel belongs to no element.
    fn padded_dims(&self, geometry: &MatrixGeometry) -> [usize; 2] {
        geometry.dims
    }

    /// The whole local memory, in elements.
    fn storage_len(&self, geometry: &MatrixGeometry) -> usize {
        C::NPUS * geometry.frame.npu_elements
    }

    #[inline]
    fn offset(&self, geometry: &MatrixGeometry, &[n, m]: &[usize; 2]) -> usize {
        let w = self.width;
        geometry.frame.offset([n, m / w, 0, m % w], 1, C::NPUS)
    }

    /// The 4-D view's axes with channel `c`, position `w` read as column `c * W + w`: the NPU
    /// axis steps `W` columns, the slot axis `X * W`, the position axis 1.
    fn axes(&self, geometry: &MatrixGeometry) -> Axes {
        let w = self.width;
        let axes: alloc::vec::Vec<Axis> = geometry
            .frame
            .axes()
            .iter()
            .filter(|axis| axis.dim != 2)
            .map(|axis| match axis.dim {
                1 => Axis {
                    step: axis.step * w,
                    ..*axis
                },
                3 => Axis { dim: 1, ..*axis },
                _ => *axis,
            })
            .collect();
        Axes::from_slice(&axes)
    }

    /// NPU 0, the matrix's start offset.
    fn base_offset(&self, geometry: &MatrixGeometry) -> usize {
        geometry.frame.base
    }

    /// Column 0 is virtual column `Q * W` (channel `Q` of the NPU axis).
    fn origin(&self, geometry: &MatrixGeometry) -> [usize; 2] {
        [0, geometry.frame.start.npu * self.width]
    }

    /// The gaps between a matrix's elements belong to other tensors.
    fn gaps_are_padding(&self) -> bool {
        false
    }
}

impl<C: ChipSpec> sealed::Sealed for Matrix<C> {}

impl<C: ChipSpec> LocalLayout for Matrix<C> {
    type Chip = C;

    fn address(&self) -> usize {
        self.address
    }

    fn element_bytes(&self) -> usize {
        self.element_bytes
    }

    /// The EU-aligned 4-D view's: the EU width, rounded up to the element size.
    fn alignment(&self) -> usize {
        EuAligned::<C>::new(self.address, self.element_bytes).alignment()
    }

    fn local_geometry(&self, geometry: &MatrixGeometry) -> LocalGeometry {
        geometry.frame
    }
}

#[cfg(test)]
mod tests {
    use super::super::ExampleChip;
    use super::*;
    use layout_core::Mapping;

    /// An empty matrix is placed whatever its other dim, as an empty 4-D local tensor is.
    #[test]
    fn an_empty_matrix_is_placed_whatever_its_other_dim() {
        assert!(Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 1), [0, usize::MAX]).is_ok());
    }
}
