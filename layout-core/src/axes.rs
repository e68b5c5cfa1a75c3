//! Axis names: what each axis of a layout means, as part of its type ([`AxisNames`]: a word
//! of [`names`](crate::names), [`Named`] letters, [`Positional`] axes, or [`RunTimeNames`]),
//! and which conversions by name the compiler allows ([`RelayoutFrom`], [`SameAxesAs`],
//! [`Rename`]).
//!
//! ```
//! use layout_core::axes::{AxisNames, AxisNaming};
//! use layout_core::names;
//! assert!(matches!(names::NCHW::NAMING, AxisNaming::ByName(word) if word.as_str() == "NCHW"));
//! ```

pub use crate::axis_names::{
    AxisNames, AxisNaming, AxisWord, Named, Positional, PositionalAxes, RunTimeNames,
    check_convertible,
};
pub use crate::conversion::Rename;
pub use crate::same_axes::{RelayoutFrom, SameAxesAs};
