//! [`DynLocalLayout`]: a local layout chosen at run time (chip, layout, storage mode by name),
//! bound to dims as a [`DynLocalMapping`] that answers like the typed mapping it wraps.

use super::address::LocalAddress;
use super::chip::{BM1684, BM1684X, BM1688, ChipSpec, ExampleChip};
use super::geometry::LocalGeometry;
use super::local::Local;
use super::local_layout::LocalLayout;
use super::matrix::Matrix;
use super::names::{ChipName, LocalKind, StorageModeName};
use super::storage_mode::{FourN, Normal, TwoIC, TwoN};
use super::strides::{
    CompactStrides, EuAlignedStrides, LineAlignedStrides, StrideRule, UserStrides, sealed::Rule,
};
use alloc::boxed::Box;
use alloc::string::ToString;
use core::fmt;
use layout_core::{LayoutError, Mapping, mappings::AnyMapping, mappings::Coords};

/// A Sophgo local layout chosen at run time: which layout, on which chip, in which storage
/// mode, at which address, with elements of how many bytes; free strides and a matrix's width
/// where the layout takes them.
///
/// [`DynLocalLayout::bind`] builds the typed layout ([`EuAligned<BM1684X, FourN>`](super::EuAligned),
/// ...) and binds it to dims with the same checks as [`LocalMemory::place`](super::LocalMemory::place)
/// (all but the element type, which a run-time layout knows only by its size).
///
/// ```
/// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalAddress, LocalKind};
/// // The TPU-Kernel documentation: (2, 3, 4, 5) fp32, aligned, starting at NPU 2.
/// let layout = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 2048, 4);
/// assert_eq!(layout.to_string(), "EuAligned<ExampleChip> at address 2048, 4-byte elements");
/// let m = layout.bind(&[2, 3, 4, 5]).unwrap();
/// assert_eq!(m.local_geometry().strides(), [64, 32, 5, 1]);
/// assert_eq!(m.location(&[1, 2, 3, 4]).unwrap(), LocalAddress { npu: 0, offset: 460 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DynLocalLayout {
    /// Which layout.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684, 0, 4).kind, LocalKind::Compact);
    /// ```
    pub kind: LocalKind,
    /// Which chip's memory.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684, 0, 4).chip.npus(), 64);
    /// ```
    pub chip: ChipName,
    /// The storage mode ([`StorageModeName::Normal`] for none; a matrix takes none).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};
    /// let layout = DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684, 0, 2).with_mode(StorageModeName::TwoN);
    /// assert_eq!(layout.mode.pack(), 2);
    /// ```
    pub mode: StorageModeName,
    /// The start address in bytes.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684, 64, 4).address, 64);
    /// ```
    pub address: usize,
    /// Bytes per element (of the unpacked type: 1 for 4N's int8).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684, 0, 2).element_bytes, 2);
    /// ```
    pub element_bytes: usize,
    /// The `[N, C, H, W]` strides in (packed) elements: [`LocalKind::FreeStrides`] only.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let layout = DynLocalLayout::new(LocalKind::FreeStrides, ChipName::BM1684, 0, 4).with_strides([8, 4, 2, 1]);
    /// assert_eq!(layout.strides, Some([8, 4, 2, 1]));
    /// ```
    pub strides: Option<[usize; 4]>,
    /// The channel width W: [`LocalKind::Matrix`] only.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Matrix, ChipName::BM1684, 0, 4).with_width(8).width, Some(8));
    /// ```
    pub width: Option<usize>,
}

impl DynLocalLayout {
    /// A layout of `kind` on `chip` at byte `address` with `element_bytes`-byte elements, no
    /// storage mode, no strides, no width.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};
    /// let layout = DynLocalLayout::new(LocalKind::Compact, ChipName::BM1688, 0, 2);
    /// assert_eq!(layout.mode, StorageModeName::Normal);
    /// ```
    pub fn new(kind: LocalKind, chip: ChipName, address: usize, element_bytes: usize) -> Self {
        Self {
            kind,
            chip,
            mode: StorageModeName::Normal,
            address,
            element_bytes,
            strides: None,
            width: None,
        }
    }

    /// The same layout in storage mode `mode`.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};
    /// let layout = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 0, 1)
    ///     .with_mode(StorageModeName::FourN);
    /// assert_eq!(layout.to_string(), "EuAligned<ExampleChip, 4N> at address 0, 1-byte elements");
    /// ```
    pub fn with_mode(self, mode: StorageModeName) -> Self {
        Self { mode, ..self }
    }

    /// The same layout with free strides `[N, C, H, W]` (for [`LocalKind::FreeStrides`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let layout = DynLocalLayout::new(LocalKind::FreeStrides, ChipName::ExampleChip, 0, 4)
    ///     .with_strides([120, 56, 16, 2]);
    /// assert_eq!(layout.bind(&[2, 5, 3, 4]).unwrap().mapping().offset(&[1, 4, 2, 3]), 120 + 56 + 32 + 6);
    /// ```
    pub fn with_strides(self, strides: [usize; 4]) -> Self {
        Self {
            strides: Some(strides),
            ..self
        }
    }

    /// The same layout with channel width `width` (for [`LocalKind::Matrix`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let layout = DynLocalLayout::new(LocalKind::Matrix, ChipName::ExampleChip, 0, 4).with_width(15);
    /// assert_eq!(layout.bind(&[2, 40]).unwrap().mapping().offset(&[0, 15]), 256); // NPU 1
    /// ```
    pub fn with_width(self, width: usize) -> Self {
        Self {
            width: Some(width),
            ..self
        }
    }

    /// Number of logical dims: 2 for a matrix, 4 otherwise.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// assert_eq!(DynLocalLayout::new(LocalKind::Matrix, ChipName::BM1684, 0, 4).rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        if self.kind == LocalKind::Matrix { 2 } else { 4 }
    }

    /// Builds the typed layout and binds it to `dims`.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] for dims of another rank; [`LayoutError::InvalidLayout`] when free
    /// strides lack their strides, a matrix its width, or a layout is given what it does not
    /// take; then every error of [`LocalMemory::place`](super::LocalMemory::place) but the
    /// element type's: [`LayoutError::AddressOutOfRange`], [`LayoutError::Misaligned`],
    /// [`LayoutError::NpuOverflow`], [`LayoutError::ElementSize`], ...
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let layout = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 1028, 4);
    /// assert_eq!(layout.bind(&[2, 3, 4, 5]).unwrap_err(), LayoutError::Misaligned { address: 1028, alignment: 128 });
    /// let big = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 4);
    /// assert!(matches!(big.bind(&[1, 1, 16, 17]).unwrap_err(), LayoutError::NpuOverflow { npu: 0, .. }));
    /// ```
    pub fn bind(&self, dims: &[usize]) -> Result<DynLocalMapping, LayoutError> {
        self.check_parameters()?;
        match self.chip {
            ChipName::BM1684 => self.bind_on::<BM1684>(dims),
            ChipName::BM1684X => self.bind_on::<BM1684X>(dims),
            ChipName::BM1688 => self.bind_on::<BM1688>(dims),
            ChipName::ExampleChip => self.bind_on::<ExampleChip>(dims),
        }
    }

    /// Refuses strides or a width where the layout takes none, or lacks them where it needs
    /// them, and a storage mode on a matrix.
    fn check_parameters(&self) -> Result<(), LayoutError> {
        let free = self.kind == LocalKind::FreeStrides;
        let matrix = self.kind == LocalKind::Matrix;
        let reason = match (self.strides.is_some(), self.width.is_some()) {
            (false, _) if free => "free strides need the N, C, H, W strides; none were given",
            (true, _) if !free => "only free strides take strides",
            (_, false) if matrix => "a matrix needs its channel width W; none was given",
            (_, true) if !matrix => "only a matrix takes a channel width",
            _ if matrix && self.mode != StorageModeName::Normal => "a matrix takes no storage mode",
            _ => return Ok(()),
        };
        Err(LayoutError::InvalidLayout {
            layout: self.to_string(),
            reason: reason.to_string(),
        })
    }

    fn bind_on<C: ChipSpec>(&self, dims: &[usize]) -> Result<DynLocalMapping, LayoutError> {
        match self.kind {
            LocalKind::Compact => self.bind_rule::<C, CompactStrides>((), dims),
            LocalKind::EuAligned => self.bind_rule::<C, EuAlignedStrides>((), dims),
            LocalKind::LineAligned => self.bind_rule::<C, LineAlignedStrides>((), dims),
            LocalKind::FreeStrides => {
                self.bind_rule::<C, UserStrides>(self.strides.unwrap_or_default(), dims)
            }
            LocalKind::Matrix => {
                let width = self.width.unwrap_or_default();
                self.finish(
                    Matrix::<C>::new(self.address, self.element_bytes, width),
                    dims,
                )
            }
        }
    }

    fn bind_rule<C: ChipSpec, R: StrideRule>(
        &self,
        params: <R as Rule>::Params,
        dims: &[usize],
    ) -> Result<DynLocalMapping, LayoutError> {
        let (address, bytes) = (self.address, self.element_bytes);
        match self.mode {
            StorageModeName::Normal => self.finish(
                Local::<C, R, Normal>::with_params(address, bytes, params),
                dims,
            ),
            StorageModeName::FourN => self.finish(
                Local::<C, R, FourN>::with_params(address, bytes, params),
                dims,
            ),
            StorageModeName::TwoN => self.finish(
                Local::<C, R, TwoN>::with_params(address, bytes, params),
                dims,
            ),
            StorageModeName::TwoIC => self.finish(
                Local::<C, R, TwoIC>::with_params(address, bytes, params),
                dims,
            ),
        }
    }

    fn finish<L: LocalLayout + Copy + 'static>(
        &self,
        layout: L,
        dims: &[usize],
    ) -> Result<DynLocalMapping, LayoutError> {
        let rank = <L::Index as Coords>::RANK;
        if dims.len() != rank {
            return Err(LayoutError::Rank {
                expected: rank,
                found: dims.len(),
            });
        }
        let mut index = L::Index::splat(0);
        index.as_mut().copy_from_slice(dims);
        let mapping = Mapping::with_layout(layout, index)?;
        Ok(DynLocalMapping {
            layout: *self,
            geometry: layout.local_geometry(mapping.geometry()),
            alignment: layout.alignment(),
            mapping: Box::new(mapping),
        })
    }
}

impl fmt::Display for DynLocalLayout {
    /// As the typed layout prints itself, the chip by its preset's name:
    /// `EuAligned<BM1684X, 4N> at address 0, 1-byte elements`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}<{}", self.kind.name(), self.chip)?;
        if self.mode != StorageModeName::Normal {
            write!(f, ", {}", self.mode)?;
        }
        f.write_str(">")?;
        if let Some(strides) = self.strides {
            write!(f, "(strides {strides:?})")?;
        }
        if let Some(width) = self.width {
            write!(f, "(width {width})")?;
        }
        write!(
            f,
            " at address {}, {}-byte elements",
            self.address, self.element_bytes
        )
    }
}

/// A [`DynLocalLayout`] bound to dims: the typed mapping behind [`AnyMapping`], its 4-D
/// placement ([`LocalGeometry`]) and the alignment its address satisfies.
///
/// ```
/// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
/// let m = DynLocalLayout::new(LocalKind::Matrix, ChipName::ExampleChip, 0, 4).with_width(20).bind(&[2, 40]).unwrap();
/// assert_eq!(m.mapping().dims(), [2, 40]);
/// assert_eq!(m.local_geometry().dims(), [2, 2, 1, 20]); // the 4-D view
/// assert_eq!(m.alignment(), 128);
/// ```
pub struct DynLocalMapping {
    layout: DynLocalLayout,
    mapping: Box<dyn AnyMapping>,
    geometry: LocalGeometry,
    alignment: usize,
}

impl DynLocalMapping {
    /// The run-time layout.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let layout = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 4);
    /// assert_eq!(*layout.bind(&[1, 1, 1, 1]).unwrap().layout(), layout);
    /// ```
    pub fn layout(&self) -> &DynLocalLayout {
        &self.layout
    }

    /// The typed mapping: offsets in elements of the whole local memory, the storage walk,
    /// the inverse (`padded_index_of`).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let m = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 4).bind(&[2, 3, 4, 5]).unwrap();
    /// assert_eq!(m.mapping().offset(&[1, 2, 3, 4]), 2 * 256 + 20 + 15 + 4);
    /// assert_eq!(m.mapping().storage_len(), 1024); // the whole memory, in fp32
    /// ```
    pub fn mapping(&self) -> &dyn AnyMapping {
        &*self.mapping
    }

    /// The 4-D placement: strides, start, channels per NPU, what each NPU holds (a matrix's
    /// `(N, ceil(M / W), 1, W)` view).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let m = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 3 * 1024, 4).bind(&[1, 6, 1, 1]).unwrap();
    /// assert_eq!(m.local_geometry().channels_per_npu(), 3);
    /// ```
    pub fn local_geometry(&self) -> &LocalGeometry {
        &self.geometry
    }

    /// The alignment in bytes the start address satisfies (see [`LocalLayout::alignment`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let m = DynLocalLayout::new(LocalKind::Compact, ChipName::BM1684X, 8, 4).bind(&[1, 1, 1, 1]).unwrap();
    /// assert_eq!(m.alignment(), 4);
    /// ```
    pub fn alignment(&self) -> usize {
        self.alignment
    }

    /// The unified byte address of the element at `index` (`npu * NPU_BYTES + offset`).
    ///
    /// # Errors
    /// [`LayoutError::Rank`] or [`LayoutError::IndexOutOfBounds`] for an index that is not one
    /// of the dims'.
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};
    /// let m = DynLocalLayout::new(LocalKind::FreeStrides, ChipName::ExampleChip, 1024, 4)
    ///     .with_strides([120, 0, 0, 2]).bind(&[2, 3, 1, 10]).unwrap();
    /// assert_eq!(m.address_of(&[1, 2, 0, 9]).unwrap(), 3 * 1024 + (120 + 18) * 4);
    /// ```
    pub fn address_of(&self, index: &[usize]) -> Result<usize, LayoutError> {
        // Offsets lie within the memory, whose size in bytes fits in usize.
        Ok(self.mapping.try_offset(index)? * self.layout.element_bytes)
    }

    /// The NPU and byte offset of the element at `index`.
    ///
    /// # Errors
    /// As [`DynLocalMapping::address_of`].
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalAddress, LocalKind};
    /// let m = DynLocalLayout::new(LocalKind::Matrix, ChipName::ExampleChip, 0, 4).with_width(8).bind(&[2, 40]).unwrap();
    /// assert_eq!(m.location(&[0, 32]).unwrap(), LocalAddress { npu: 0, offset: 32 * 4 }); // channel 4
    /// ```
    pub fn location(&self, index: &[usize]) -> Result<LocalAddress, LayoutError> {
        let address = self.address_of(index)?;
        let npu_bytes = self.layout.chip.npu_bytes();
        Ok(LocalAddress {
            npu: address / npu_bytes,
            offset: address % npu_bytes,
        })
    }
}

impl fmt::Debug for DynLocalMapping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynLocalMapping")
            .field("layout", &self.layout)
            .field("dims", &self.mapping.dims())
            .field("geometry", &self.geometry)
            .finish()
    }
}
