//! Relayouts planned once and run many times ([`RelayoutPlan`]), and the measured choices kept
//! as text between runs ([`Wisdom`]). The one-off calls (`relayout`, `try_relayout`,
//! `relayout_into`) are methods of the tensors; the bound that checks their axis names is
//! [`RelayoutFrom`](crate::axes::RelayoutFrom).
//!
//! ```
//! use layout_core::plans::{RelayoutPlan, Wisdom};
//! use layout_core::{Tensor, onednn_layout};
//! let src = Tensor::<f32, onednn_layout!("nchw")>::zeros([1, 16, 4, 4]);
//! let dst = Tensor::<f32, onednn_layout!("nhwc")>::zeros([1, 16, 4, 4]);
//! let plan = RelayoutPlan::new(&src, &dst).unwrap();
//! let mut wisdom = Wisdom::new();
//! wisdom.remember(&plan);
//! assert_eq!(wisdom.len(), 1);
//! ```

pub use crate::relayout_plan::{RelayoutPlan, Wisdom};
