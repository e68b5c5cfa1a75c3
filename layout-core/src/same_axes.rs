//! Which conversions by axis name the trait system allows: [`SameAxesAs`] between axis names,
//! [`RelayoutFrom`] between layouts, the bound of every relayout. Being traits, they are checked
//! while types are checked, so `cargo check` (and every editor) reports a relayout from
//! activations into weights, with both layouts in the message.

use crate::axis_names::impl_for_named_letters;
use crate::{Layout, axes::AxisNames, axes::Named, axes::Positional, axes::RunTimeNames};

/// Holds when `Self` names the same axes as `N`, in any order: every names type with itself,
/// the words of [`names`](crate::names) with the same letters (`NHWC` and `NCHW`; `OIHW`, `HWIO`
/// and `IOHW`), and names known only at run time ([`RunTimeNames`]) with any, checked when the
/// conversion runs. [`Named`] letters and a word of [`names`](crate::names) are taken here either
/// way and checked when the conversion is compiled to machine code; two different `Named<...>`
/// words never convert.
///
/// ```
/// use tensor_layout::{axes::AxisNames, axes::SameAxesAs, names};
/// fn convertible<From: AxisNames, To: SameAxesAs<From>>() {}
/// convertible::<names::NHWC, names::NCHW>();
/// convertible::<names::HWIO, names::OIHW>();
/// // Generic code converts between layouts of the same names without saying more.
/// fn same<N: AxisNames>() { convertible::<N, N>() }
/// same::<names::NHWC>();
/// ```
#[diagnostic::on_unimplemented(
    message = "axes `{Self}` are not the axes `{N}` in another order",
    label = "elements move by axis name, so this needs a word with the letters of `{N}`",
    note = "the words of `tensor_layout::names` that name the same axes: NCHW NHWC CHWN; NCW NWC; NCDHW NDHWC; OIHW HWIO OHWI IOHW"
)]
pub trait SameAxesAs<N: AxisNames>: AxisNames {}

impl<N: AxisNames> SameAxesAs<N> for N {}

impl SameAxesAs<RunTimeNames> for Positional {}
impl SameAxesAs<Positional> for RunTimeNames {}

impl_for_named_letters!(SameAxesAs<RunTimeNames> for Named<A, B, C, D, E, F, G, H> {});
impl_for_named_letters!(SameAxesAs<Named<A, B, C, D, E, F, G, H>> for RunTimeNames {});

/// Holds when a tensor of layout `From` can be relayouted into `Self`: their axes have the same
/// names ([`SameAxesAs`]). The bound of every conversion by name (`relayout`, `try_relayout`,
/// `relayout_into`, [`RelayoutPlan::new`](crate::RelayoutPlan::new), ...), next to
/// [`SameRankAs`](crate::layouts::SameRankAs).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::axes::RelayoutFrom;
/// fn convertible<From: Layout, To: RelayoutFrom<From>>() {}
/// convertible::<htp::R4CroutonLayout, onednn::nChw16c>();
/// convertible::<htp::R4ConvWeightLayout, onednn::OIhw16i16o>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot relayout `{From}` into `{Self}`: their axes are not the same names",
    label = "elements move by axis name: the destination needs the source's axes, in any order",
    note = "activations (NCHW, NHWC) and weights (OIHW, HWIO) do not convert into each other; a positional tensor (axes a, b, c, ...) gets names with `with_axes::<names::NCHW>()`"
)]
pub trait RelayoutFrom<From: Layout>: Layout {}

#[diagnostic::do_not_recommend]
impl<A: Layout, B: Layout> RelayoutFrom<A> for B where B::Names: SameAxesAs<A::Names> {}
