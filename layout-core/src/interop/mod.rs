//! Handing tensors to other array libraries and taking theirs: the strided form those libraries
//! describe memory with (`form`), ndarray views (`ndarray`, feature `ndarray`) and DLPack managed
//! tensors (`dlpack`, feature `dlpack`). The guide is docs/interop.md.

#[cfg(feature = "dlpack")]
mod dlpack;
mod form;
#[cfg(feature = "ndarray")]
mod ndarray;

pub use form::StridedForm;
