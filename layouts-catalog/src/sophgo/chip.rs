//! Chips: the number of NPUs, the bytes of local memory per NPU and the EU width, as types.

use super::address::LocalAddress;
use core::fmt;
use core::hash::Hash;
use layout_core::LayoutError;

/// What a Sophgo TPU's local memory looks like to a layout: `NPUS` NPUs of `NPU_BYTES` bytes
/// each, and execution units `EU_BYTES` bytes wide.
///
/// Implemented by [`Chip`] (and so by every preset); the layouts of this module take a
/// `C: ChipSpec` type parameter, so a tensor placed for one chip is a different type from the
/// same tensor placed for another.
///
/// ```
/// use tensor_layout::sophgo::{BM1684X, ChipSpec};
/// assert_eq!((BM1684X::NPUS, BM1684X::NPU_BYTES, BM1684X::EU_BYTES), (64, 256 * 1024, 64));
/// assert_eq!(BM1684X::MEMORY_BYTES, 16 * 1024 * 1024);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Sophgo chip",
    label = "expected a chip such as `BM1684X`",
    note = "the chips are `BM1684`, `BM1684X`, `BM1688` and `ExampleChip`; `Chip<NPUS, NPU_BYTES, EU_BYTES>` describes another"
)]
pub trait ChipSpec:
    Copy + Default + fmt::Debug + Eq + Hash + Send + Sync + 'static + sealed::Sealed
{
    /// Number of NPUs (the TPU-Kernel documentation's X).
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1688, ChipSpec};
    /// assert_eq!(BM1688::NPUS, 32);
    /// ```
    const NPUS: usize;
    /// Bytes of local memory per NPU (the TPU-Kernel documentation's S).
    ///
    /// ```
    /// use tensor_layout::sophgo::{ChipSpec, ExampleChip};
    /// assert_eq!(ExampleChip::NPU_BYTES, 1024);
    /// ```
    const NPU_BYTES: usize;
    /// Bytes of one execution-unit row: what the EU-aligned layouts round up to.
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1684, ChipSpec};
    /// assert_eq!(BM1684::EU_BYTES / size_of::<f32>(), 32); // the TPU-Kernel documentation's 32 fp32
    /// ```
    const EU_BYTES: usize;
    /// Bytes of the whole local memory, `NPUS * NPU_BYTES`.
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1684, ChipSpec};
    /// assert_eq!(BM1684::MEMORY_BYTES, 32 * 1024 * 1024);
    /// ```
    const MEMORY_BYTES: usize;
}

pub(crate) mod sealed {
    /// Only [`Chip`](super::Chip) is a chip.
    pub trait Sealed {}
}

/// A TPU with `X` NPUs of `S` bytes of local memory each and execution units `EU` bytes wide.
///
/// The real chips are the presets [`BM1684`], [`BM1684X`] and [`BM1688`]; the TPU-Kernel documentation draws its
/// pictures on [`ExampleChip`] (`Chip<4, 1024, 128>`). `X`, `S` and `EU` must be positive and `EU`
/// must divide `S` (checked when the chip is first used, at compile time).
///
/// ```
/// use tensor_layout::sophgo::{Chip, ChipSpec};
/// type Tiny = Chip<2, 256, 32>;
/// assert_eq!(Tiny::MEMORY_BYTES, 512);
/// assert_eq!(Tiny::split(300).unwrap().npu, 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chip<const X: usize, const S: usize, const EU: usize>;

/// Sophgo BM1684: 64 NPUs, 512 KiB of local memory each, 128-byte execution units (the TPU-Kernel documentation's
/// "128-byte aligned" layout is this chip's EU-aligned layout).
///
/// ```
/// use tensor_layout::sophgo::{BM1684, ChipSpec};
/// assert_eq!((BM1684::NPUS, BM1684::NPU_BYTES, BM1684::EU_BYTES), (64, 512 * 1024, 128));
/// ```
pub type BM1684 = Chip<64, { 512 * 1024 }, 128>;

/// Sophgo BM1684X: 64 NPUs, 256 KiB of local memory each, 64-byte execution units.
///
/// ```
/// use tensor_layout::sophgo::{BM1684X, ChipSpec};
/// assert_eq!((BM1684X::NPUS, BM1684X::NPU_BYTES, BM1684X::EU_BYTES), (64, 256 * 1024, 64));
/// ```
pub type BM1684X = Chip<64, { 256 * 1024 }, 64>;

/// Sophgo BM1688: 32 NPUs, 128 KiB of local memory each, 16-byte execution units.
///
/// ```
/// use tensor_layout::sophgo::{BM1688, ChipSpec};
/// assert_eq!((BM1688::NPUS, BM1688::NPU_BYTES, BM1688::EU_BYTES), (32, 128 * 1024, 16));
/// ```
pub type BM1688 = Chip<32, { 128 * 1024 }, 16>;

/// The toy chip of the TPU-Kernel documentation's pictures: 4 NPUs of 1024 bytes, 128-byte execution units (so 32
/// fp32 elements per EU, as in the documentation's "128-byte aligned" examples).
///
/// ```
/// use tensor_layout::sophgo::{ChipSpec, ExampleChip};
/// assert_eq!(ExampleChip::MEMORY_BYTES, 4096);
/// assert_eq!(ExampleChip::split(1472).unwrap().offset, 448);
/// ```
pub type ExampleChip = Chip<4, 1024, 128>;

impl<const X: usize, const S: usize, const EU: usize> sealed::Sealed for Chip<X, S, EU> {}

impl<const X: usize, const S: usize, const EU: usize> ChipSpec for Chip<X, S, EU> {
    const NPUS: usize = {
        assert!(X > 0, "a chip has at least one NPU");
        X
    };
    const NPU_BYTES: usize = {
        assert!(S > 0, "an NPU has at least one byte of local memory");
        assert!(
            EU > 0 && S.is_multiple_of(EU),
            "the EU width must divide the NPU's memory"
        );
        S
    };
    const EU_BYTES: usize = {
        assert!(EU > 0, "an execution unit is at least one byte wide");
        EU
    };
    const MEMORY_BYTES: usize = {
        assert!(
            X.checked_mul(S).is_some(),
            "the local memory's size overflows usize"
        );
        X * S
    };
}

impl<const X: usize, const S: usize, const EU: usize> Chip<X, S, EU> {
    /// Where address `address` lies: NPU `address / S`, byte offset `address % S` (the TPU-Kernel documentation's
    /// `A = Q * S + R`).
    ///
    /// # Errors
    /// [`LayoutError::AddressOutOfRange`] when `address >= X * S`.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalAddress, ExampleChip};
    /// assert_eq!(ExampleChip::split(2300).unwrap(), LocalAddress { npu: 2, offset: 252 });
    /// assert!(ExampleChip::split(4096).is_err());
    /// ```
    pub fn split(address: usize) -> Result<LocalAddress, LayoutError> {
        LocalAddress::split(address, Self::NPUS, Self::NPU_BYTES)
    }

    /// The address of byte `offset` of NPU `npu`: `npu * S + offset`.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] (index `[npu, offset]`, dims `[X, S]`) when the NPU or
    /// the offset does not exist.
    ///
    /// ```
    /// use tensor_layout::sophgo::ExampleChip;
    /// assert_eq!(ExampleChip::join(3, 16).unwrap(), 3088);
    /// assert!(ExampleChip::join(4, 0).is_err());
    /// ```
    pub fn join(npu: usize, offset: usize) -> Result<usize, LayoutError> {
        LocalAddress { npu, offset }.join(Self::NPUS, Self::NPU_BYTES)
    }

    /// Channel slots each NPU gives a tensor of `channels` channels starting on NPU
    /// `start_npu`: `ceil((start_npu + channels) / X)` (the TPU-Kernel documentation's `okk_channle_num_per_npu`).
    ///
    /// ```
    /// use tensor_layout::sophgo::ExampleChip;
    /// assert_eq!(ExampleChip::channels_per_npu(0, 6), 2);
    /// assert_eq!(ExampleChip::channels_per_npu(3, 6), 3);
    /// ```
    pub fn channels_per_npu(start_npu: usize, channels: usize) -> usize {
        super::address::channels_per_npu(start_npu, channels, Self::NPUS)
    }
}

/// The preset's name for the three real chips, `Chip<X, S, EU>` otherwise.
pub(crate) fn chip_name<C: ChipSpec>(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match (C::NPUS, C::NPU_BYTES, C::EU_BYTES) {
        (64, 524_288, 128) => f.write_str("BM1684"),
        (64, 262_144, 64) => f.write_str("BM1684X"),
        (32, 131_072, 16) => f.write_str("BM1688"),
        (x, s, eu) => write!(f, "Chip<{x}, {s}, {eu}>"),
    }
}
