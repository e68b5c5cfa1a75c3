//! Mappings: a layout bound to dims ([`Mapping`]; [`AnyMapping`] for typed and run-time ones
//! alike), with its padded dims, storage length and the offset of every index; the indices and
//! dims themselves ([`Coords`], [`RowMajorIndices`]) and walks in memory order ([`Run`],
//! [`MemoryOrder`]).
//!
//! ```
//! use layout_core::mappings::{Mapping, RowMajorIndices};
//! use layout_core::chunked_layout;
//! let m = Mapping::<chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0]>::new([1, 2, 2, 3]).unwrap();
//! assert_eq!(m.offset([0, 1, 0, 2]), 8);
//! assert_eq!(RowMajorIndices::new(m.dims()).count(), 12);
//! ```

pub use crate::any_mapping::AnyMapping;
pub use crate::coords::{
    Coords, MAX_RANK, RowMajorIndices, for_each_row_major_index, row_major_strides,
};
pub use crate::listing::MemoryOrder;
pub use crate::mapping::Mapping;
pub use crate::walk::Run;
