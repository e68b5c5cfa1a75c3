//! The chips, storage modes and local layouts by name, for layouts chosen at run time (a
//! command line, a configuration file): [`ChipName`], [`StorageModeName`], [`LocalKind`].

use super::chip::{BM1684, BM1684X, BM1688, ChipSpec, ExampleChip};
use super::storage_mode::{FourN, Normal, StorageMode, TwoIC, TwoN};
use alloc::string::ToString;
use core::fmt;
use layout_core::LayoutError;

/// `name` without a leading `sophgo::`, compared without regard to case.
fn matches(text: &str, name: &str) -> bool {
    text.trim()
        .strip_prefix("sophgo::")
        .unwrap_or(text.trim())
        .eq_ignore_ascii_case(name)
}

fn unknown(kind: &str, found: &str, expected: &str) -> LayoutError {
    LayoutError::UnknownName {
        kind: kind.to_string(),
        found: found.to_string(),
        expected: expected.to_string(),
    }
}

/// A chip preset chosen at run time: [`BM1684`], [`BM1684X`], [`BM1688`] or [`ExampleChip`].
///
/// The layouts take the chip as a type; [`DynLocalLayout`](super::DynLocalLayout) turns a
/// `ChipName` back into that type.
///
/// ```
/// use tensor_layout::sophgo::ChipName;
/// let chip = ChipName::parse("bm1684x").unwrap();
/// assert_eq!((chip, chip.npus(), chip.npu_bytes(), chip.eu_bytes()), (ChipName::BM1684X, 64, 256 * 1024, 64));
/// assert_eq!(ChipName::parse("BM1690").unwrap_err().to_string(),
///            "unknown Sophgo chip `BM1690`: expected BM1684, BM1684X, BM1688 or ExampleChip");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChipName {
    /// [`BM1684`]: 64 NPUs of 512 KiB, 128-byte execution units.
    BM1684,
    /// [`BM1684X`]: 64 NPUs of 256 KiB, 64-byte execution units.
    BM1684X,
    /// [`BM1688`]: 32 NPUs of 128 KiB, 16-byte execution units.
    BM1688,
    /// [`ExampleChip`]: the TPU-Kernel documentation's 4 NPUs of 1024 bytes, 128-byte execution
    /// units.
    ExampleChip,
}

impl ChipName {
    /// Every preset, in the order the documentation lists them.
    ///
    /// ```
    /// use tensor_layout::sophgo::ChipName;
    /// assert_eq!(ChipName::ALL.map(ChipName::name), ["BM1684", "BM1684X", "BM1688", "ExampleChip"]);
    /// ```
    pub const ALL: [ChipName; 4] = [
        ChipName::BM1684,
        ChipName::BM1684X,
        ChipName::BM1688,
        ChipName::ExampleChip,
    ];

    /// The preset named `text` (its type's name, in any case, with or without `sophgo::`).
    ///
    /// # Errors
    /// [`LayoutError::UnknownName`] listing the presets.
    ///
    /// ```
    /// use tensor_layout::sophgo::ChipName;
    /// assert_eq!(ChipName::parse("sophgo::ExampleChip").unwrap(), ChipName::ExampleChip);
    /// assert!(ChipName::parse("Chip<4, 1024, 128>").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, LayoutError> {
        Self::ALL
            .into_iter()
            .find(|chip| matches(text, chip.name()))
            .ok_or_else(|| {
                unknown(
                    "Sophgo chip",
                    text,
                    "BM1684, BM1684X, BM1688 or ExampleChip",
                )
            })
    }

    /// The preset's type name.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ChipName::BM1688.name(), "BM1688");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ChipName::BM1684 => "BM1684",
            ChipName::BM1684X => "BM1684X",
            ChipName::BM1688 => "BM1688",
            ChipName::ExampleChip => "ExampleChip",
        }
    }

    /// [`ChipSpec::NPUS`] of the preset.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ChipName::ExampleChip.npus(), 4);
    /// ```
    pub fn npus(self) -> usize {
        self.spec().0
    }

    /// [`ChipSpec::NPU_BYTES`] of the preset.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ChipName::BM1684.npu_bytes(), 512 * 1024);
    /// ```
    pub fn npu_bytes(self) -> usize {
        self.spec().1
    }

    /// [`ChipSpec::EU_BYTES`] of the preset.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ChipName::BM1688.eu_bytes(), 16);
    /// ```
    pub fn eu_bytes(self) -> usize {
        self.spec().2
    }

    fn spec(self) -> (usize, usize, usize) {
        fn of<C: ChipSpec>() -> (usize, usize, usize) {
            (C::NPUS, C::NPU_BYTES, C::EU_BYTES)
        }
        match self {
            ChipName::BM1684 => of::<BM1684>(),
            ChipName::BM1684X => of::<BM1684X>(),
            ChipName::BM1688 => of::<BM1688>(),
            ChipName::ExampleChip => of::<ExampleChip>(),
        }
    }
}

impl fmt::Display for ChipName {
    /// The preset's type name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A storage mode chosen at run time: [`Normal`], [`FourN`], [`TwoN`] or [`TwoIC`].
///
/// ```
/// use tensor_layout::sophgo::StorageModeName;
/// let mode = StorageModeName::parse("4N").unwrap();
/// assert_eq!((mode, mode.pack(), mode.element_bytes()), (StorageModeName::FourN, 4, Some(1)));
/// assert_eq!(StorageModeName::parse("FourN").unwrap(), mode);
/// assert!(StorageModeName::parse("8N").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StorageModeName {
    /// [`Normal`]: no packing.
    #[default]
    Normal,
    /// [`FourN`]: 4 int8/uint8 batch elements to an int8x4.
    FourN,
    /// [`TwoN`]: 2 int16/uint16 batch elements to an int16x2.
    TwoN,
    /// [`TwoIC`]: 2 fp32 input channels of a weight `[I, O, H, W]` to an fp32x2.
    TwoIC,
}

impl StorageModeName {
    /// Every mode.
    ///
    /// ```
    /// use tensor_layout::sophgo::StorageModeName;
    /// assert_eq!(StorageModeName::ALL.map(StorageModeName::name), ["Normal", "4N", "2N", "2IC"]);
    /// ```
    pub const ALL: [StorageModeName; 4] = [
        StorageModeName::Normal,
        StorageModeName::FourN,
        StorageModeName::TwoN,
        StorageModeName::TwoIC,
    ];

    /// The mode named `text`: the TPU-Kernel documentation's `4N`, `2N`, `2IC`, the type names
    /// `FourN`, `TwoN`, `TwoIC`, or `Normal` (in any case).
    ///
    /// # Errors
    /// [`LayoutError::UnknownName`] listing the modes.
    ///
    /// ```
    /// use tensor_layout::sophgo::StorageModeName;
    /// assert_eq!(StorageModeName::parse("2ic").unwrap(), StorageModeName::TwoIC);
    /// assert_eq!(StorageModeName::parse("normal").unwrap(), StorageModeName::Normal);
    /// ```
    pub fn parse(text: &str) -> Result<Self, LayoutError> {
        Self::ALL
            .into_iter()
            .find(|mode| matches(text, mode.name()) || matches(text, mode.type_name()))
            .ok_or_else(|| {
                unknown(
                    "Sophgo storage mode",
                    text,
                    "4N (int8/uint8), 2N (int16/uint16), 2IC (fp32 weights) or Normal",
                )
            })
    }

    /// The mode's name in the TPU-Kernel documentation (`Normal` for no packing).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::StorageModeName::TwoN.name(), "2N");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            StorageModeName::Normal => "Normal",
            other => other.spec().2,
        }
    }

    /// The mode's type name (`FourN`, ...).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::StorageModeName::FourN.type_name(), "FourN");
    /// ```
    pub fn type_name(self) -> &'static str {
        match self {
            StorageModeName::Normal => "Normal",
            StorageModeName::FourN => "FourN",
            StorageModeName::TwoN => "TwoN",
            StorageModeName::TwoIC => "TwoIC",
        }
    }

    /// [`StorageMode::PACK`]: elements of dimension 0 per packed element.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::StorageModeName::TwoIC.pack(), 2);
    /// ```
    pub fn pack(self) -> usize {
        self.spec().0
    }

    /// [`StorageMode::ELEMENT_BYTES`]: the element size the mode holds (`None`: any).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::StorageModeName::TwoN.element_bytes(), Some(2));
    /// ```
    pub fn element_bytes(self) -> Option<usize> {
        self.spec().1
    }

    fn spec(self) -> (usize, Option<usize>, &'static str) {
        fn of<M: StorageMode>() -> (usize, Option<usize>, &'static str) {
            (M::PACK, M::ELEMENT_BYTES, M::NAME)
        }
        match self {
            StorageModeName::Normal => of::<Normal>(),
            StorageModeName::FourN => of::<FourN>(),
            StorageModeName::TwoN => of::<TwoN>(),
            StorageModeName::TwoIC => of::<TwoIC>(),
        }
    }
}

impl fmt::Display for StorageModeName {
    /// The TPU-Kernel documentation's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which local layout, chosen at run time: the type aliases [`Compact`](super::Compact),
/// [`EuAligned`](super::EuAligned), [`LineAligned`](super::LineAligned),
/// [`FreeStrides`](super::FreeStrides) and [`Matrix`](super::Matrix) by name.
///
/// ```
/// use tensor_layout::sophgo::LocalKind;
/// assert_eq!(LocalKind::parse("sophgo::EuAligned").unwrap(), LocalKind::EuAligned);
/// assert_eq!(LocalKind::parse("Aligned").unwrap_err().to_string(),
///            "unknown Sophgo local layout `Aligned`: expected Compact, EuAligned, LineAligned, FreeStrides or Matrix");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalKind {
    /// [`Compact`](super::Compact): strides `[Cs * slots, H*W, W, 1]`.
    Compact,
    /// [`EuAligned`](super::EuAligned): the C stride rounded up to an execution unit.
    EuAligned,
    /// [`LineAligned`](super::LineAligned): the H stride rounded up to an execution unit.
    LineAligned,
    /// [`FreeStrides`](super::FreeStrides): the user's strides.
    FreeStrides,
    /// [`Matrix`](super::Matrix): an `[N, M]` matrix cut into channels of W columns.
    Matrix,
}

impl LocalKind {
    /// Every local layout.
    ///
    /// ```
    /// use tensor_layout::sophgo::LocalKind;
    /// assert_eq!(LocalKind::ALL.len(), 5);
    /// ```
    pub const ALL: [LocalKind; 5] = [
        LocalKind::Compact,
        LocalKind::EuAligned,
        LocalKind::LineAligned,
        LocalKind::FreeStrides,
        LocalKind::Matrix,
    ];

    /// The layout named `text` (its type alias's name, in any case, with or without
    /// `sophgo::`).
    ///
    /// # Errors
    /// [`LayoutError::UnknownName`] listing the local layouts.
    ///
    /// ```
    /// use tensor_layout::sophgo::LocalKind;
    /// assert_eq!(LocalKind::parse("matrix").unwrap(), LocalKind::Matrix);
    /// ```
    pub fn parse(text: &str) -> Result<Self, LayoutError> {
        Self::ALL
            .into_iter()
            .find(|kind| matches(text, kind.name()))
            .ok_or_else(|| {
                unknown(
                    "Sophgo local layout",
                    text,
                    "Compact, EuAligned, LineAligned, FreeStrides or Matrix",
                )
            })
    }

    /// The type alias's name.
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::LocalKind::LineAligned.name(), "LineAligned");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            LocalKind::Compact => "Compact",
            LocalKind::EuAligned => "EuAligned",
            LocalKind::LineAligned => "LineAligned",
            LocalKind::FreeStrides => "FreeStrides",
            LocalKind::Matrix => "Matrix",
        }
    }

    /// What the layout is for, in a few words.
    ///
    /// ```
    /// use tensor_layout::sophgo::LocalKind;
    /// assert!(LocalKind::Compact.used_for().contains("compact"));
    /// ```
    pub fn used_for(self) -> &'static str {
        match self {
            LocalKind::Compact => "local memory, compact: C stride H*W",
            LocalKind::EuAligned => {
                "local memory, C stride rounded up to an execution unit (the 128-byte aligned layout)"
            }
            LocalKind::LineAligned => "local memory, H stride rounded up to an execution unit",
            LocalKind::FreeStrides => "local memory, the N, C, H, W strides given",
            LocalKind::Matrix => "local memory, an N x M matrix as (N, ceil(M/W), 1, W) aligned",
        }
    }
}

impl fmt::Display for LocalKind {
    /// The qualified name, `sophgo::EuAligned`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sophgo::{}", self.name())
    }
}
