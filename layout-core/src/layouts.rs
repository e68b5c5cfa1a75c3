//! Layouts: the [`Layout`] trait (a logical index to a storage offset), the chunked layouts the
//! Qualcomm HTP SDK, oneDNN and MegEngine use, spelled as lists of [`Chunk`] entries
//! ([`ChunkedMemoryLayout`], [`ChunkList`]), and permuted or strided views ([`Strided`]).
//!
//! The names of the catalog's chunk lists are in [`catalog_lists`](crate::catalog_lists); what
//! a layout's axes mean is in [`axes`](crate::axes).
//!
//! ```
//! use layout_core::layouts::{Chunk, ChunkedMemoryLayout};
//! use layout_core::Mapping;
//! type Nc4 = ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 4>)>;
//! assert_eq!(Mapping::<Nc4>::new([1, 6]).unwrap().padded_dims(), [1, 8]);
//! ```

pub use crate::chunk::{Chunk, ChunkEntry, ChunkList, ChunkListSummary, EntryInfo};
pub use crate::chunked::{ChunkedGeometry, ChunkedMemoryLayout};
pub use crate::layout::{Axes, Axis, Layout, MAX_AXES, SameRankAs};
pub use crate::strided::{Strided, StridedGeometry};
