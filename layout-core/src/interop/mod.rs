//! Handing tensors to other array libraries and taking theirs: the strided form those libraries
//! describe memory with ([`StridedForm`]), ndarray views (feature `ndarray`), DLPack managed
//! tensors (feature `dlpack`), and oneDNN's description of blocked memory ([`BlockingDesc`]).
//! The guide is docs/interop.md.
//!
//! ```
//! use layout_core::interop::StridedForm;
//! use layout_core::{Mapping, onednn_layout};
//! let m = Mapping::<onednn_layout!("nChw16c")>::new([1, 32, 2, 2]).unwrap();
//! let form: StridedForm = m.strided_form().unwrap();
//! assert_eq!(form.shape, [1, 2, 2, 2, 16]);
//! ```

#[cfg(feature = "dlpack")]
mod dlpack;
mod form;
#[cfg(feature = "ndarray")]
mod ndarray;

pub use crate::blocking::{BlockingDesc, DynBlockingDesc};
pub use form::StridedForm;
