//! Layouts and tensors known only at run time: a [`DynLayout`] read from text (a file, a
//! command line), bound to dims as a [`DynMapping`] and indexed by a [`DynIndex`]; a
//! [`DynTensor`] holding elements in one, which becomes a typed tensor when its layout is the
//! type's ([`IntoTypedError`] gives it back when not); [`DynChunked`], a typed layout whose
//! chunk list is chosen at run time.
//!
//! ```
//! use layout_core::dynamic::DynLayout;
//! let layout = DynLayout::parse("NHWC: 0,0 1,0 2,0 3,0").unwrap();
//! assert_eq!(layout.to_string().parse::<DynLayout>().unwrap(), layout);
//! ```

pub use crate::dyn_index::DynIndex;
pub use crate::dyn_layout::{DynChunked, DynLayout};
pub use crate::dyn_mapping::DynMapping;
pub use crate::dyn_tensor::{DynTensor, IntoTypedError};
