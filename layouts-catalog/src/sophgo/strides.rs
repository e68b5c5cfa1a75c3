//! Stride rules: how a local layout derives its N, C, H and W strides from the dims.

use core::fmt;
use core::hash::Hash;

/// How a 4-D local layout's strides follow from its dims (the TPU-Kernel documentation's "layouts").
///
/// Strides are `[N, C, H, W]`, in (packed) elements, the C stride stepping X channels (from one
/// channel slot of an NPU to the next); the N stride is the C stride times the channels per NPU.
/// The four rules are [`CompactStrides`], [`EuAlignedStrides`], [`LineAlignedStrides`] and
/// [`UserStrides`]; the layouts are [`Local`](super::Local) with one of them.
///
/// ```
/// use tensor_layout::sophgo::{EuAlignedStrides, StrideRule};
/// assert_eq!(EuAlignedStrides::NAME, "EuAligned");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Sophgo stride rule",
    label = "expected `CompactStrides`, `EuAlignedStrides`, `LineAlignedStrides` or `UserStrides`",
    note = "the aliases `Compact`, `EuAligned`, `LineAligned` and `FreeStrides` pick the rule for you"
)]
pub trait StrideRule:
    Copy + Default + fmt::Debug + Eq + Hash + Send + Sync + 'static + sealed::Rule
{
    /// The rule's name, as the layout's type alias spells it.
    ///
    /// ```
    /// use tensor_layout::sophgo::{StrideRule, UserStrides};
    /// assert_eq!(UserStrides::NAME, "FreeStrides");
    /// ```
    const NAME: &'static str;
}

pub(crate) mod sealed {
    use core::fmt::Debug;
    use core::hash::Hash;

    /// What a rule computes; not part of the API.
    pub trait Rule {
        /// Run-time parameters of the rule: `()`, or the user's strides.
        type Params: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static;
        /// Whether the rule rounds to whole execution units (so the EU width must hold a whole
        /// number of packed elements).
        const USES_EU: bool;
        /// The alignment in bytes the rule demands of a start address (before rounding up to
        /// the packed element's size).
        fn alignment(eu_bytes: usize) -> usize;
        /// `[N, C, H, W]` strides in packed elements for packed `dims`; `None` on overflow.
        fn strides(
            params: &Self::Params,
            dims: [usize; 4],
            channels_per_npu: usize,
            eu_elements: usize,
        ) -> Option<[usize; 4]>;
        /// Writes the run-time parameters for the layout's `Display` (nothing for `()`).
        fn write_params(
            _params: &Self::Params,
            _f: &mut core::fmt::Formatter<'_>,
        ) -> core::fmt::Result {
            Ok(())
        }
    }
}

/// The TPU-Kernel documentation's compact layout: W stride 1, H stride W, C stride H*W, N stride C stride x
/// channels per NPU; the start address is a multiple of 4 bytes.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{Compact, ExampleChip};
/// let m = Mapping::with_layout(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.geometry().strides(), [20, 20, 5, 1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompactStrides;

/// The EU-aligned layout (the TPU-Kernel documentation's "128-byte aligned", BM1684's EU width): W stride 1, H
/// stride W, C stride H*W rounded up to a whole EU of elements, N stride C stride x channels per
/// NPU; the start address is a multiple of the EU width.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, ExampleChip};
/// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.geometry().strides(), [32, 32, 5, 1]); // 20 fp32 rounded up to 32
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EuAlignedStrides;

/// The line-aligned layout: W stride 1, H stride W rounded up to a whole EU of elements, C
/// stride H x H stride, N stride C stride x channels per NPU; every line (and so the start
/// address) begins on an EU boundary.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{LineAligned, ExampleChip};
/// let m = Mapping::with_layout(LineAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.geometry().strides(), [128, 128, 32, 1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineAlignedStrides;

/// Free strides: the user gives all four (the TPU-Kernel documentation's "strides in local memory"); the start
/// address is a multiple of the (packed) element size. The strides must not let two elements
/// share a slot.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{FreeStrides, ExampleChip};
/// let m = Mapping::with_layout(FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 16, 2]), [2, 5, 3, 4]).unwrap();
/// assert_eq!(m.geometry().strides(), [120, 56, 16, 2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UserStrides;

impl StrideRule for CompactStrides {
    const NAME: &'static str = "Compact";
}
impl StrideRule for EuAlignedStrides {
    const NAME: &'static str = "EuAligned";
}
impl StrideRule for LineAlignedStrides {
    const NAME: &'static str = "LineAligned";
}
impl StrideRule for UserStrides {
    const NAME: &'static str = "FreeStrides";
}

/// `[C stride x channels per NPU, C stride, H stride, 1]`.
fn nested(c_stride: usize, h_stride: usize, channels_per_npu: usize) -> Option<[usize; 4]> {
    Some([
        c_stride.checked_mul(channels_per_npu)?,
        c_stride,
        h_stride,
        1,
    ])
}

fn round_up(value: usize, unit: usize) -> Option<usize> {
    value.checked_next_multiple_of(unit)
}

impl sealed::Rule for CompactStrides {
    type Params = ();
    const USES_EU: bool = false;

    fn alignment(_: usize) -> usize {
        4
    }

    fn strides(_: &(), [_, _, h, w]: [usize; 4], cpn: usize, _: usize) -> Option<[usize; 4]> {
        nested(h.checked_mul(w)?, w, cpn)
    }
}

impl sealed::Rule for EuAlignedStrides {
    type Params = ();
    const USES_EU: bool = true;

    fn alignment(eu_bytes: usize) -> usize {
        eu_bytes
    }

    fn strides(_: &(), [_, _, h, w]: [usize; 4], cpn: usize, eu: usize) -> Option<[usize; 4]> {
        nested(round_up(h.checked_mul(w)?, eu)?, w, cpn)
    }
}

impl sealed::Rule for LineAlignedStrides {
    type Params = ();
    const USES_EU: bool = true;

    fn alignment(eu_bytes: usize) -> usize {
        eu_bytes
    }

    fn strides(_: &(), [_, _, h, w]: [usize; 4], cpn: usize, eu: usize) -> Option<[usize; 4]> {
        let h_stride = round_up(w, eu)?;
        nested(h.checked_mul(h_stride)?, h_stride, cpn)
    }
}

impl sealed::Rule for UserStrides {
    type Params = [usize; 4];
    const USES_EU: bool = false;

    fn alignment(_: usize) -> usize {
        1
    }

    fn strides(strides: &[usize; 4], _: [usize; 4], _: usize, _: usize) -> Option<[usize; 4]> {
        Some(*strides)
    }

    fn write_params(strides: &[usize; 4], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(strides {strides:?})")
    }
}
