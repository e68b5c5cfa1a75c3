//! Qualcomm Hexagon HTP layouts (the HTP documentation and SDK).
//!
//! Activations are rank 4 with logical dims `[batch, height, width, depth]`, axes `NHWC` (HTP's
//! depth is channels, `C`); convolution weights are `[filter height, filter width, input
//! channels, output channels]`, axes `HWIO`.
//! Each type is a [`ChunkedMemoryLayout`](layout_core::ChunkedMemoryLayout) spelled exactly as the SDK spells it, most major entry
//! first.
//!
//! ```
//! use layouts_catalog::htp;
//! use layout_core::Tensor;
//! fn takes_crouton(t: &Tensor<u8, htp::R4CroutonLayout>) -> usize { t.storage_len() }
//! let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 16, 64]);
//! assert_eq!(takes_crouton(&t), 16 * 16 * 64);
//! ```

use layout_core::{Layout, chunked_layout};

/// Plain NHWC: depth fastest, then width, height, batch (HTP's `FlatMemoryLayout<4>`, the same
/// type as [`FlatMemoryLayout<4>`]).
///
/// Chunk list `0,0, 1,0, 2,0, 3,0`; no blocks, no padding. The format for exchanging data with
/// the outside world.
///
/// ```
/// use layouts_catalog::htp::R4FlatMemoryLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4FlatMemoryLayout>::new([2, 3, 5, 30]).unwrap();
/// assert_eq!(m.offset([1, 2, 4, 29]), 899);
/// ```
pub type R4FlatMemoryLayout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0];

/// The SDK's `R4NCHWMemoryLayout`: chunk list `0,0, 3,0, 2,0, 1,0`.
///
/// With NHWC numbering this stores batch, then depth, then **width**, then height fastest
/// (memory order N, C, W, H). The documentation's summary table and the SDK spell it so, and code ported
/// from HTP expects these bytes; the documentation's prose describes N, C, H, W instead, which is
/// [`R4NHWCAsNCHWLayout`]. See `docs/concepts.md`.
///
/// ```
/// use layouts_catalog::htp::R4NCHWMemoryLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4NCHWMemoryLayout>::new([1, 2, 3, 4]).unwrap();
/// assert_eq!(m.offset([0, 1, 0, 0]), 1); // height moves fastest
/// assert_eq!(m.offset([0, 0, 1, 0]), 2);
/// ```
pub type R4NCHWMemoryLayout = chunked_layout![NHWC; 0,0, 3,0, 2,0, 1,0];

/// NHWC-numbered dims laid out as NCHW: chunk list `0,0, 3,0, 1,0, 2,0` (the HTP documentation's prose,
/// "user wants the dimensions to mean NHWC but laid out in memory as NCHW").
///
/// Memory order batch, depth, height, width (width fastest): the bytes of a plain NCHW tensor.
/// Not in the SDK under this name; see [`R4NCHWMemoryLayout`] for the SDK's spelling.
///
/// ```
/// use layouts_catalog::htp::R4NHWCAsNCHWLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4NHWCAsNCHWLayout>::new([1, 2, 3, 4]).unwrap();
/// assert_eq!(m.offset([0, 0, 1, 0]), 1); // width moves fastest
/// assert_eq!(m.offset([0, 0, 0, 1]), 6); // one channel plane is H*W = 6
/// ```
pub type R4NHWCAsNCHWLayout = chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0];

/// "Depth-32": chunk list `0,0, 1,0, 3,0, 2,0, 2,4, 3,32`.
///
/// Chunks of 4 columns x 32 channels (128 elements); per row, the chunks of channel block 0
/// across the width come first, then channel block 1. Width pads to a multiple of 4, depth to 32.
///
/// ```
/// use layouts_catalog::htp::R4Depth32MemoryLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4Depth32MemoryLayout>::new([1, 1, 8, 64]).unwrap();
/// assert_eq!(m.offset([0, 0, 1, 0]), 32);
/// assert_eq!(m.offset([0, 0, 4, 0]), 128);     // next chunk along width
/// assert_eq!(m.offset([0, 0, 0, 32]), 256);    // channel block 1 after all of width
/// ```
pub type R4Depth32MemoryLayout = chunked_layout![NHWC; 0,0, 1,0, 3,0, 2,0, 2,4, 3,32];

/// The crouton: chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32`.
///
/// Chunks of 8 rows x 8 columns x 32 channels (2048 elements, 8-bit activations); chunks ordered
/// batch, height block, width block, depth block. Height and width pad to 8, depth to 32. HTP's
/// main format for quantized convolution activations.
///
/// ```
/// use layouts_catalog::htp::R4CroutonLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 16, 24, 64]);
/// assert_eq!(m.offset([0, 0, 8, 0]), 2 * 2048); // after both depth chunks of width block 0
/// ```
pub type R4CroutonLayout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32];

/// Crouton with 4x1 column groups: chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4`.
///
/// Chunks of 8 rows x 8 columns x 32 channels; inside a row, 2 groups of 4 consecutive columns,
/// each group stored as 32 channels x 4 columns (columns fastest).
///
/// ```
/// use layouts_catalog::htp::R4Crouton4x1Layout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4Crouton4x1Layout>::new([1, 8, 8, 32]).unwrap();
/// assert_eq!(m.offset([0, 0, 1, 0]), 1);     // next column is adjacent
/// assert_eq!(m.offset([0, 0, 0, 1]), 4);     // next channel after 4 columns
/// assert_eq!(m.offset([0, 0, 4, 0]), 128);   // second group of 4 columns
/// ```
pub type R4Crouton4x1Layout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4];

/// Crouton of 2x2 spatial tiles: chunk list `0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2`.
///
/// Chunks of 8 rows x 8 columns x 32 channels; inside, a 4x4 grid of 2x2 pixel tiles, each tile
/// stored as 32 channels x 2 rows x 2 columns.
///
/// ```
/// use layouts_catalog::htp::R4Crouton2x2Layout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4Crouton2x2Layout>::new([1, 8, 8, 32]).unwrap();
/// assert_eq!(m.offset([0, 0, 1, 0]), 1);
/// assert_eq!(m.offset([0, 1, 0, 0]), 2);
/// assert_eq!(m.offset([0, 0, 0, 1]), 4);
/// assert_eq!(m.offset([0, 0, 2, 0]), 128);  // next 2x2 tile along width
/// ```
pub type R4Crouton2x2Layout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2];

/// Crouton for 16-bit elements: chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2`.
///
/// Chunks of 8 rows x 4 columns x 32 channels (1024 elements, 2 KiB of 16-bit data); inside a
/// row, 2 groups of 2 columns, each stored as 32 channels x 2 columns.
///
/// ```
/// use layouts_catalog::htp::R4Crouton2Layout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4Crouton2Layout>::new([1, 8, 4, 32]).unwrap();
/// assert_eq!(m.storage_len(), 1024);
/// assert_eq!(m.offset([0, 0, 1, 0]), 1);
/// assert_eq!(m.offset([0, 0, 2, 0]), 64);
/// ```
pub type R4Crouton2Layout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2];

/// Crouton for 32-bit elements: chunk list `0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32` (in the SDK,
/// not in the HTP documentation).
///
/// Chunks of 8 rows x 2 columns x 32 channels (512 elements, 2 KiB of 32-bit data).
///
/// ```
/// use layouts_catalog::htp::R4Crouton4Layout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4Crouton4Layout>::new([1, 8, 2, 32]).unwrap();
/// assert_eq!(m.storage_len(), 512);
/// assert_eq!(m.offset([0, 0, 1, 0]), 32);
/// ```
pub type R4Crouton4Layout = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32];

/// Convolution weights: chunk list `3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4`, logical dims
/// `[filter height, filter width, input channels, output channels]`.
///
/// Chunks of 32 input x 32 output channels (1024 elements): inside, 8 groups of 4 input channels,
/// each stored as 32 output x 4 input channels. Chunks ordered output block, input block, filter
/// height, filter width. Input and output channels pad to 32.
///
/// ```
/// use layouts_catalog::htp::R4ConvWeightLayout;
/// use layout_core::Mapping;
/// let m = Mapping::<R4ConvWeightLayout>::new([3, 3, 32, 32]).unwrap();
/// assert_eq!(m.offset([0, 0, 1, 0]), 1);
/// assert_eq!(m.offset([0, 0, 0, 1]), 4);
/// assert_eq!(m.offset([0, 1, 0, 0]), 1024);
/// ```
pub type R4ConvWeightLayout = chunked_layout![HWIO; 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4];

/// The HTP documentation's `ChannelMajorCrouton`: the same chunk list as [`R4CroutonLayout`]
/// (`0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32`), so the same type.
///
/// ```
/// use layouts_catalog::htp::{ChannelMajorCrouton, R4CroutonLayout};
/// assert_eq!(std::any::TypeId::of::<ChannelMajorCrouton>(), std::any::TypeId::of::<R4CroutonLayout>());
/// ```
pub type ChannelMajorCrouton = R4CroutonLayout;

/// The HTP documentation's `SpatialXYMajor`: chunk list `0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2`, the
/// same as [`R4Crouton2x2Layout`] (so the same type).
///
/// ```
/// use layouts_catalog::htp::{SpatialXYMajor, R4Crouton2x2Layout};
/// assert_eq!(std::any::TypeId::of::<SpatialXYMajor>(), std::any::TypeId::of::<R4Crouton2x2Layout>());
/// ```
pub type SpatialXYMajor = R4Crouton2x2Layout;

/// The HTP documentation's `SpatialXMajor`: chunk list `0,0, 1,0, 2,0, 3,0, 1,4, 2,2, 3,32, 2,4`.
///
/// The documentation's comments call the `1,4` entry "8 high" and `2,2` "2 wide"; the numbers win: chunks
/// of 4 rows x 8 columns x 32 channels, inside a row 2 groups of 4 columns stored as 32 channels
/// x 4 columns.
///
/// ```
/// use layouts_catalog::htp::SpatialXMajor;
/// use layout_core::Mapping;
/// let m = Mapping::<SpatialXMajor>::new([1, 4, 8, 32]).unwrap();
/// assert_eq!(m.storage_len(), 1024);
/// assert_eq!(m.offset([0, 1, 0, 0]), 256);
/// ```
pub type SpatialXMajor = chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,4, 2,2, 3,32, 2,4];

/// HTP's rank-generic `FlatMemoryLayout<R>`: every dimension plain, the last fastest (chunk list
/// `0,0, 1,0, ..., R-1,0`), for ranks 1 to 8.
///
/// `FlatMemoryLayout<4>` is [`R4FlatMemoryLayout`], with HTP's activation axes `NHWC`. The HTP
/// SDK names the axes of rank-4 tensors only, so the other ranks have positional axes (name them
/// with `with_axes` when you know what they mean).
///
/// ```
/// use tensor_layout::prelude::*;
/// let _: htp::FlatMemoryLayout<4> = htp::R4FlatMemoryLayout::default();
/// let m = Mapping::<htp::FlatMemoryLayout<3>>::new([2, 3, 4]).unwrap();
/// assert_eq!(m.offset([1, 2, 3]), 12 + 8 + 3);
/// assert_eq!(m.layout().axis_word().as_str(), "abc");
/// ```
pub type FlatMemoryLayout<const R: usize> = <Rank<R> as FlatOfRank>::Layout;

/// A rank as a type: what [`FlatMemoryLayout`] is looked up by.
///
/// ```
/// use tensor_layout::htp::{FlatOfRank, Rank};
/// assert_eq!(<Rank<2> as FlatOfRank>::Layout::BLOCKS, [1, 1]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rank<const R: usize>;

/// The flat layout of a [`Rank`] (implemented for ranks 1 to 8).
///
/// ```
/// use tensor_layout::htp::{FlatOfRank, Rank};
/// assert_eq!(<Rank<5> as FlatOfRank>::Layout::CHUNK_VOLUME, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "HTP's `FlatMemoryLayout<R>` exists for ranks 1 to 8",
    label = "no flat layout of this rank"
)]
pub trait FlatOfRank {
    /// The layout.
    type Layout: Layout + Default;
}

impl FlatOfRank for Rank<1> {
    type Layout = chunked_layout![1; 0,0];
}
impl FlatOfRank for Rank<2> {
    type Layout = chunked_layout![2; 0,0, 1,0];
}
impl FlatOfRank for Rank<3> {
    type Layout = chunked_layout![3; 0,0, 1,0, 2,0];
}
impl FlatOfRank for Rank<4> {
    type Layout = R4FlatMemoryLayout;
}
impl FlatOfRank for Rank<5> {
    type Layout = chunked_layout![5; 0,0, 1,0, 2,0, 3,0, 4,0];
}
impl FlatOfRank for Rank<6> {
    type Layout = chunked_layout![6; 0,0, 1,0, 2,0, 3,0, 4,0, 5,0];
}
impl FlatOfRank for Rank<7> {
    type Layout = chunked_layout![7; 0,0, 1,0, 2,0, 3,0, 4,0, 5,0, 6,0];
}
impl FlatOfRank for Rank<8> {
    type Layout = chunked_layout![8; 0,0, 1,0, 2,0, 3,0, 4,0, 5,0, 6,0, 7,0];
}
