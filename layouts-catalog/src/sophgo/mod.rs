//! Sophgo TPU local memory (the Sophgo TPU-Kernel documentation): tensors spread over the NPUs' memories.
//!
//! A TPU has X NPUs, each with S bytes of local memory; address `A` is byte `A % S` of NPU
//! `A / S`. A 4-D tensor `[N, C, H, W]` starting at NPU `Q` puts channel `c` on NPU
//! `(Q + c) % X`, in channel slot `(Q + c) / X`; each NPU gives it `ceil((Q + C) / X)` slots.
//! Within an NPU, strides `[N, C, H, W]` (the C stride stepping from one slot to the next) place
//! the elements. The layouts here follow the TPU-Kernel documentation:
//!
//! | layout | strides | start address a multiple of |
//! | --- | --- | --- |
//! | [`Compact`] | `[C*slots, H*W, W, 1]` | 4 bytes |
//! | [`EuAligned`] | `[C*slots, H*W rounded up to an EU, W, 1]` | the EU width |
//! | [`LineAligned`] | `[C*slots, H*Hs, W rounded up to an EU, 1]` | the EU width |
//! | [`FreeStrides`] | the user's | the element size |
//! | [`Matrix`] | `[N, M]` seen as `(N, ceil(M/W), 1, W)`, EU-aligned | the EU width |
//!
//! The 4-D layouts take a storage mode: [`FourN`], [`TwoN`] (batch elements packed 4 or 2 to a
//! 32-bit element) and [`TwoIC`] (input channels of fp32 weights packed 2 to a 64-bit element);
//! strides then count packed elements. Every layout implements
//! [`Layout`](layout_core::Layout); its offsets count elements of the *whole* local memory, so a
//! [`LocalMemory`] views its bytes through it and every generic call works on a placed tensor.
//! `docs/sophgo.md` explains the model with pictures.
//!
//! Chosen at run time (a command line, a file), a local layout is a [`DynLocalLayout`]: the
//! layout, chip and storage mode by name ([`LocalKind`], [`ChipName`], [`StorageModeName`]),
//! bound to dims as a [`DynLocalMapping`] that answers like the typed mapping.
//!
//! ```
//! use tensor_layout::prelude::*;
//! use tensor_layout::sophgo::{EuAligned, LocalAddress, LocalMemory, ExampleChip};
//! let mut memory = LocalMemory::<ExampleChip>::new();
//! // The TPU-Kernel documentation: (2, 3, 4, 5) fp32 in the aligned layout, starting at NPU 2.
//! let local = memory.place::<f32, _>(EuAligned::<ExampleChip>::new(2 * 1024, 4), [2, 3, 4, 5]).unwrap();
//! assert_eq!(local.local_geometry().strides(), [64, 32, 5, 1]);
//! assert_eq!(local.location([0, 2, 0, 0]).unwrap(), LocalAddress { npu: 0, offset: 128 });
//! let src = Tensor::<f32, onednn::nchw>::from_fn([2, 3, 4, 5], |[n, c, h, w]| (n + c + h + w) as f32);
//! memory.store(&src, &local).unwrap();
//! assert_eq!(memory.view(&local).to_row_major(), src.to_row_major());
//! ```

mod address;
mod chip;
mod dyn_local;
mod geometry;
mod local;
mod local_layout;
mod local_memory;
mod local_tensor;
mod matrix;
mod names;
mod storage_mode;
mod strides;

pub use address::LocalAddress;
pub use chip::{BM1684, BM1684X, BM1688, Chip, ChipSpec, ExampleChip};
pub use dyn_local::{DynLocalLayout, DynLocalMapping};
pub use geometry::LocalGeometry;
pub use local::{Compact, EuAligned, FreeStrides, LineAligned, Local};
pub use local_layout::LocalLayout;
pub use local_memory::LocalMemory;
pub use local_tensor::LocalTensor;
pub use matrix::{Matrix, MatrixGeometry};
pub use names::{ChipName, LocalKind, StorageModeName};
pub use storage_mode::{
    FourN, Fp32x2, Int8x4, Int16x2, Normal, StorageMode, TwoIC, TwoN, Uint8x4, Uint16x2,
};
pub use strides::{CompactStrides, EuAlignedStrides, LineAlignedStrides, StrideRule, UserStrides};

/// The continuous layout of a tensor in system memory (TPU-Kernel's "continuous" storage):
/// `[N, C, H, W]` with width fastest, what [`LocalMemory::store`] and [`LocalMemory::load`] move
/// activations to and from. The same type as `onednn::nchw` and `megengine::NCHW`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let _: sophgo::Continuous = onednn::nchw::default();
/// let m = Mapping::<sophgo::Continuous>::new([2, 3, 4, 5]).unwrap();
/// assert_eq!(m.offset([1, 2, 3, 4]), 60 + 40 + 15 + 4);
/// ```
pub type Continuous = layout_core::chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0];

/// The continuous layout of 2IC convolution weights in system memory: `[I, O, H, W]` with width
/// fastest, what [`LocalMemory::store`] moves into a [`TwoIC`] local tensor.
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<sophgo::ContinuousWeights>::new([3, 2, 1, 1]).unwrap();
/// assert_eq!(m.layout().axis_word().as_str(), "IOHW");
/// assert_eq!(m.offset([1, 0, 0, 0]), 2);
/// ```
pub type ContinuousWeights = layout_core::chunked_layout![IOHW; 0,0, 1,0, 2,0, 3,0];
