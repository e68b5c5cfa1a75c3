//! MegEngine tensor formats, logical dims `[n, c, h, w]`, axes `NCHW`.
//!
//! `NCHWx` stores `x` channels first, then width, height, channel blocks and batch; channels
//! that are not a multiple of `x` are padded (with zeros by default).
//!
//! ```
//! use layouts_catalog::megengine;
//! use layout_core::Mapping;
//! let m = Mapping::<megengine::NCHW4>::new([2, 6, 3, 3]).unwrap();
//! assert_eq!(m.padded_dims(), [2, 8, 3, 3]);
//! assert_eq!(m.offset([0, 1, 0, 0]), 1); // 4 channels first
//! assert_eq!(m.offset([0, 0, 0, 1]), 4); // then width
//! ```

use layout_core::chunked_layout;

/// Plain NCHW: width first, then height, channels, batch. Chunk list `0,0, 1,0, 2,0, 3,0`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::NCHW>::new([2, 64, 3, 3]).unwrap();
/// assert_eq!(m.offset([1, 63, 2, 2]), 1151); // MegEngine's documentation: stored in order 0000 to 1151
/// ```
pub type NCHW = chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0];

/// Plain NHWC: channels first, then width, height, batch. Chunk list `0,0, 2,0, 3,0, 1,0`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::NHWC>::new([2, 64, 3, 3]).unwrap();
/// assert_eq!(m.offset([0, 1, 0, 0]), 1);
/// assert_eq!(m.offset([0, 0, 0, 1]), 64);
/// ```
pub type NHWC = chunked_layout![NCHW; 0,0, 2,0, 3,0, 1,0];

/// `[N, C/4, H, W, 4]`: 4 channels first, then width, height, channel blocks, batch (CUDA
/// `dp4a` for int8). Chunk list `0,0, 1,0, 2,0, 3,0, 1,4`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::NCHW4>::new([2, 64, 3, 3]).unwrap();
/// assert_eq!(m.offset([0, 4, 0, 0]), 36); // the second block of 4 channels after 3x3 pixels
/// ```
pub type NCHW4 = chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0, 1,4];

/// `[N, C/32, H, W, 32]`: 32 channels first (int8 tensor cores). Chunk list
/// `0,0, 1,0, 2,0, 3,0, 1,32`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::NCHW32>::new([1, 40, 2, 2]).unwrap();
/// assert_eq!(m.padded_dims(), [1, 64, 2, 2]);
/// ```
pub type NCHW32 = chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0, 1,32];

/// `[N, C/64, H, W, 64]`: 64 channels first (int4 tensor cores). Chunk list
/// `0,0, 1,0, 2,0, 3,0, 1,64`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::NCHW64>::new([1, 65, 1, 1]).unwrap();
/// assert_eq!(m.storage_len(), 128);
/// ```
pub type NCHW64 = chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0, 1,64];

/// `[C/4, H, W, N, 4]`: 4 channels first, then the batch, then width, height, channel blocks
/// (CUDA `dp4a` and tensor cores). Chunk list `1,0, 2,0, 3,0, 0,0, 1,4`.
///
/// ```
/// use layout_core::Mapping;
/// let m = Mapping::<layouts_catalog::megengine::CHWN4>::new([2, 64, 3, 3]).unwrap();
/// assert_eq!(m.offset([1, 0, 0, 0]), 4); // after 4 channels comes the next image
/// assert_eq!(m.offset([0, 0, 0, 1]), 8); // then width
/// ```
pub type CHWN4 = chunked_layout![NCHW; 1,0, 2,0, 3,0, 0,0, 1,4];
