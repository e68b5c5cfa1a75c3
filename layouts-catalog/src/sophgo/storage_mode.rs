//! Storage modes: several consecutive batch (or input-channel) elements packed into one wider
//! element, with zero "dummy" elements completing the last pack.

use core::fmt;
use core::hash::Hash;
use layout_core::{axes::AxisNames, names};

/// How many elements of dimension 0 a layout packs into one wider element, and which element
/// size it needs.
///
/// [`Normal`] packs nothing; [`FourN`] packs 4 int8/uint8 batch elements into an int8x4,
/// [`TwoN`] 2 int16/uint16 batch elements into an int16x2, [`TwoIC`] 2 fp32 input channels of a
/// convolution weight `[I, O, H, W]` into an fp32x2. When dimension 0 is not a multiple of
/// `PACK`, the last pack is completed with dummy elements, which a store writes as zero.
///
/// ```
/// use tensor_layout::sophgo::{FourN, StorageMode};
/// assert_eq!((FourN::PACK, FourN::ELEMENT_BYTES, FourN::NAME), (4, Some(1), "4N"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Sophgo storage mode",
    label = "expected `Normal`, `FourN`, `TwoN` or `TwoIC`",
    note = "a storage mode says how many batch elements (input channels for `TwoIC`) share one packed element"
)]
pub trait StorageMode:
    Copy + Default + fmt::Debug + Eq + Hash + Send + Sync + 'static + sealed::Sealed
{
    /// Elements of dimension 0 per packed element.
    ///
    /// ```
    /// use tensor_layout::sophgo::{StorageMode, TwoN};
    /// assert_eq!(TwoN::PACK, 2);
    /// ```
    const PACK: usize;
    /// The element size the mode holds (`None`: any).
    ///
    /// ```
    /// use tensor_layout::sophgo::{StorageMode, TwoIC};
    /// assert_eq!(TwoIC::ELEMENT_BYTES, Some(4));
    /// ```
    const ELEMENT_BYTES: Option<usize>;
    /// The mode's name in the TPU-Kernel documentation (`""` for [`Normal`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{StorageMode, TwoIC};
    /// assert_eq!(TwoIC::NAME, "2IC");
    /// ```
    const NAME: &'static str;
    /// The element types the mode is for, as the TPU-Kernel documentation names them.
    ///
    /// ```
    /// use tensor_layout::sophgo::{FourN, StorageMode};
    /// assert_eq!(FourN::TYPES, "int8 or uint8");
    /// ```
    const TYPES: &'static str;
    /// The axes of a tensor in this mode: `NCHW` for activations, `IOHW` for 2IC weights.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{StorageMode, TwoIC};
    /// let _: <TwoIC as StorageMode>::Names = names::IOHW::default();
    /// ```
    type Names: AxisNames;
}

pub(crate) mod sealed {
    /// The four modes of the TPU-Kernel documentation are all there are.
    pub trait Sealed {}
}

/// No packing: each element is stored on its own.
///
/// ```
/// use tensor_layout::sophgo::{Normal, StorageMode};
/// assert_eq!((Normal::PACK, Normal::ELEMENT_BYTES), (1, None));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Normal;

/// 4N mode (int8/uint8): elements `(4m, c, h, w)` to `(4m + 3, c, h, w)` are consecutive bytes,
/// one 32-bit [`Int8x4`]; the shape seen in int8x4 is `(ceil(N / 4), C, H, W)`.
///
/// ```
/// use tensor_layout::sophgo::{FourN, StorageMode};
/// assert_eq!((FourN::PACK, FourN::ELEMENT_BYTES), (4, Some(1)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FourN;

/// 2N mode (int16/uint16): elements `(2m, c, h, w)` and `(2m + 1, c, h, w)` are consecutive,
/// one 32-bit [`Int16x2`]; the shape seen in int16x2 is `(ceil(N / 2), C, H, W)`.
///
/// ```
/// use tensor_layout::sophgo::{StorageMode, TwoN};
/// assert_eq!((TwoN::PACK, TwoN::ELEMENT_BYTES), (2, Some(2)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TwoN;

/// 2IC mode (fp32 convolution weights `[I, O, H, W]`): input channels `2j` and `2j + 1` are
/// consecutive, one 64-bit [`Fp32x2`]; the shape seen in fp32x2 is `(ceil(I / 2), O, H, W)`.
///
/// ```
/// use tensor_layout::sophgo::{StorageMode, TwoIC};
/// assert_eq!((TwoIC::PACK, TwoIC::ELEMENT_BYTES), (2, Some(4)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TwoIC;

impl sealed::Sealed for Normal {}
impl sealed::Sealed for FourN {}
impl sealed::Sealed for TwoN {}
impl sealed::Sealed for TwoIC {}

impl StorageMode for Normal {
    type Names = names::NCHW;
    const PACK: usize = 1;
    const ELEMENT_BYTES: Option<usize> = None;
    const NAME: &'static str = "";
    const TYPES: &'static str = "any element type";
}

impl StorageMode for FourN {
    type Names = names::NCHW;
    const PACK: usize = 4;
    const ELEMENT_BYTES: Option<usize> = Some(1);
    const NAME: &'static str = "4N";
    const TYPES: &'static str = "int8 or uint8";
}

impl StorageMode for TwoN {
    type Names = names::NCHW;
    const PACK: usize = 2;
    const ELEMENT_BYTES: Option<usize> = Some(2);
    const NAME: &'static str = "2N";
    const TYPES: &'static str = "int16 or uint16";
}

impl StorageMode for TwoIC {
    type Names = names::IOHW;
    const PACK: usize = 2;
    const ELEMENT_BYTES: Option<usize> = Some(4);
    const NAME: &'static str = "2IC";
    const TYPES: &'static str = "fp32";
}

/// The TPU-Kernel documentation's int8x4: four int8 elements of a 4N tensor, one 32-bit element.
///
/// ```
/// assert_eq!(size_of::<tensor_layout::sophgo::Int8x4>(), 4);
/// ```
pub type Int8x4 = [i8; 4];

/// The TPU-Kernel documentation's uint8x4: four uint8 elements of a 4N tensor.
///
/// ```
/// assert_eq!(size_of::<tensor_layout::sophgo::Uint8x4>(), 4);
/// ```
pub type Uint8x4 = [u8; 4];

/// The TPU-Kernel documentation's int16x2: two int16 elements of a 2N tensor, one 32-bit element.
///
/// ```
/// assert_eq!(size_of::<tensor_layout::sophgo::Int16x2>(), 4);
/// ```
pub type Int16x2 = [i16; 2];

/// The TPU-Kernel documentation's uint16x2: two uint16 elements of a 2N tensor.
///
/// ```
/// assert_eq!(size_of::<tensor_layout::sophgo::Uint16x2>(), 4);
/// ```
pub type Uint16x2 = [u16; 2];

/// The TPU-Kernel documentation's fp32x2: two fp32 input channels of a 2IC weight, one 64-bit element.
///
/// ```
/// assert_eq!(size_of::<tensor_layout::sophgo::Fp32x2>(), 8);
/// ```
pub type Fp32x2 = [f32; 2];
