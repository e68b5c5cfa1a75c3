//! `ChunkedMemoryLayout<RANK, (Chunk<d, s>, ...), Names>`: the HTP chunk-list layout as a type.

use crate::axis_names::check_rank;
use crate::chunk::{ChunkEntry, ChunkList, ChunkListSummary};
use crate::layout::{Axes, Layout};
use crate::{LayoutError, axes::AxisNames, axes::Positional};
use core::fmt;
use core::marker::PhantomData;

/// A layout given by a chunk list (HTP's `ChunkedMemoryLayout<RANK, dim,size, ...>`).
///
/// `Chunks` is a tuple of [`Chunk<dim, size>`](crate::Chunk) entries, most major first (or the
/// type of [`catalog_lists`](crate::catalog_lists) the macros write for a catalog's list). Size 0
/// means "all the rest of dimension `dim`"; a fixed size `s` means `s` elements of it. Every
/// dimension has exactly one rest entry, all rest entries come before all fixed entries, and the
/// fixed entries together form one dense innermost chunk. An invalid list is a compile error
/// naming the problem, raised as soon as the layout is used.
///
/// `Names` says what the logical axes mean: [`Named`](crate::axes::Named) letters such as
/// [`names::NHWC`](crate::names::NHWC), or [`Positional`] (the default) for a layout that states
/// none. It is part of the type: the same chunk list with other names is another layout.
/// `chunked_layout![NHWC; ...]` spells a named layout, `chunked_layout![4; ...]` a positional one.
///
/// ```
/// use layout_core::{Chunk, ChunkedMemoryLayout, Mapping};
/// // HTP's R4CroutonLayout: 8x8x32 chunks of (height, width, depth).
/// type Crouton = ChunkedMemoryLayout<4, (
///     Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>,
/// )>;
/// assert_eq!(Crouton::BLOCKS, [1, 8, 8, 32]);
/// assert_eq!(Crouton::CHUNK_VOLUME, 2048);
/// assert_eq!(Crouton::default().to_string(),
///            "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
/// // With the axis names of HTP's activations it is the layout of `htp::R4CroutonLayout`,
/// // whose type the macros spell with the catalog's list type (`respelled` converts):
/// type Named = ChunkedMemoryLayout<4, (
///     Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>,
/// ), tensor_layout::names::NHWC>;
/// assert_eq!(Named::default().to_string(),
///            "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
/// let _: tensor_layout::htp::R4CroutonLayout =
///     ChunkedMemoryLayout::<4, tensor_layout::catalog_lists::aBCD8b8c32d, tensor_layout::names::NHWC>::default();
/// let m = Mapping::<Crouton>::new([2, 9, 20, 50]).unwrap();
/// assert_eq!(m.padded_dims(), [2, 16, 24, 64]);
/// assert_eq!(m.offset([0, 0, 0, 32]), 2048); // the second chunk starts with channel 32
/// ```
pub struct ChunkedMemoryLayout<const RANK: usize, Chunks, Names = Positional>(
    PhantomData<fn() -> (Chunks, Names)>,
);

impl<const RANK: usize, C: ChunkList, N: AxisNames> ChunkedMemoryLayout<RANK, C, N> {
    /// Evaluating this constant checks the chunk list and the names; every use of the layout
    /// evaluates it.
    const CHECK: () = {
        C::SUMMARY.validate(C::ENTRIES, RANK);
        check_rank::<N>(RANK);
    };

    /// The chunk list, most major first.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4CroutonLayout::ENTRIES[4].size, 8);
    /// ```
    pub const ENTRIES: &'static [ChunkEntry] = {
        let () = Self::CHECK;
        C::ENTRIES
    };

    /// Block size of each dimension: the product of its fixed sizes (1 when it has none).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4ConvWeightLayout::BLOCKS, [1, 1, 32, 32]);
    /// ```
    pub const BLOCKS: [usize; RANK] = {
        let () = Self::CHECK;
        let mut blocks = [1; RANK];
        let mut d = 0;
        while d < RANK {
            blocks[d] = C::SUMMARY.blocks[d];
            d += 1;
        }
        blocks
    };

    /// Elements in one innermost chunk (the product of all fixed sizes).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4ConvWeightLayout::CHUNK_VOLUME, 1024);
    /// ```
    pub const CHUNK_VOLUME: usize = {
        let () = Self::CHECK;
        C::SUMMARY.chunk_volume
    };

    /// The logical shape of one chunk: how many coordinates of each dimension it covers. A
    /// chunk is the box of [`Self::CHUNK_VOLUME`] elements that share the rest entries' digits;
    /// along each dimension it covers one block, so this is [`Self::BLOCKS`] under the name that
    /// chunk code reads best with (HTP's crouton: "a chunk size of 1x8x8x32").
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4CroutonLayout::CHUNK_SHAPE, [1, 8, 8, 32]);
    /// assert_eq!(onednn::nChw16c::CHUNK_SHAPE, [1, 16, 1, 1]);
    /// const ROWS: usize = htp::R4CroutonLayout::CHUNK_SHAPE[1];
    /// let rows = [0u8; ROWS]; // a compile-time constant
    /// assert_eq!(rows.len(), 8);
    /// ```
    pub const CHUNK_SHAPE: [usize; RANK] = Self::BLOCKS;

    /// Where element `local` of a chunk lies inside it, in elements from the chunk's first slot:
    /// the fixed entries' share of the offset. `local` counts from the chunk's first element,
    /// each coordinate below [`Self::CHUNK_SHAPE`]; a tensor index gives the same answer as its
    /// coordinates within its chunk (each modulo the block), since only the fixed entries see
    /// them. Every number but `local` is a constant, so a call compiles to shifts, masks and
    /// additions (for power-of-two sizes), and it can build tables at compile time.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// type Crouton = htp::R4CroutonLayout;
    /// assert_eq!(Crouton::offset_in_chunk([0, 1, 2, 3]), 256 + 2 * 32 + 3);
    /// // Two rows by two columns interleaved innermost (`1,4, 2,4, 3,32, 1,2, 2,2`):
    /// assert_eq!(htp::R4Crouton2x2Layout::offset_in_chunk([0, 1, 1, 0]), 3);
    /// const CORNER: usize = Crouton::offset_in_chunk([0, 7, 7, 31]);
    /// assert_eq!(CORNER, Crouton::CHUNK_VOLUME - 1);
    /// ```
    #[inline(always)]
    pub const fn offset_in_chunk(local: [usize; RANK]) -> usize {
        let () = Self::CHECK;
        // The table as a constant, so that a call at run time unrolls over its entries.
        let table: &ChunkListSummary = const { &C::SUMMARY };
        let entries = table.entries();
        let mut offset = 0;
        let mut i = table.rest_entries;
        while i < entries.len() {
            let entry = entries[i];
            offset += entry.offset_term(local[entry.dim], 0);
            i += 1;
        }
        offset
    }
}

impl<const RANK: usize, C, N> Clone for ChunkedMemoryLayout<RANK, C, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<const RANK: usize, C, N> Copy for ChunkedMemoryLayout<RANK, C, N> {}
impl<const RANK: usize, C, N> Default for ChunkedMemoryLayout<RANK, C, N> {
    fn default() -> Self {
        Self(PhantomData)
    }
}
impl<const RANK: usize, C, N> PartialEq for ChunkedMemoryLayout<RANK, C, N> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<const RANK: usize, C, N> Eq for ChunkedMemoryLayout<RANK, C, N> {}

/// Prints the long form as HTP spells it, `ChunkedMemoryLayout<4, 0,0, 1,0, ...>`, with the axis
/// word in place of the rank for named axes: `ChunkedMemoryLayout<NHWC, 0,0, 1,0, ...>`.
impl<const RANK: usize, C: ChunkList, N: AxisNames> fmt::Display
    for ChunkedMemoryLayout<RANK, C, N>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::chunk::write_long_form(
            f,
            &self.axis_word(),
            Self::ENTRIES.iter().map(|e| (e.dim, e.size)),
        )
    }
}

impl<const RANK: usize, C: ChunkList, N: AxisNames> fmt::Debug for ChunkedMemoryLayout<RANK, C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A chunked layout bound to dims: the extent and stride of each dimension's rest entry.
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
/// assert_eq!(m.geometry().rest_extents(), [1, 1, 1, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkedGeometry<const RANK: usize> {
    rest_extents: [usize; RANK],
    rest_strides: [usize; RANK],
    storage_len: usize,
}

impl<const RANK: usize> ChunkedGeometry<RANK> {
    /// A geometry from parts the caller has checked: a view of whole blocks keeps the rest
    /// strides of the tensor it views and spans `storage_len` slots of it.
    pub(crate) fn from_parts(
        rest_extents: [usize; RANK],
        rest_strides: [usize; RANK],
        storage_len: usize,
    ) -> Self {
        Self {
            rest_extents,
            rest_strides,
            storage_len,
        }
    }

    /// Binds `table` to `dims`.
    pub(crate) fn bind(
        table: &crate::layouts::ChunkListSummary,
        dims: &[usize; RANK],
    ) -> Result<Self, LayoutError> {
        let (mut rest_extents, mut rest_strides) = ([0; RANK], [0; RANK]);
        let storage_len = table.bind(dims, &mut rest_extents, &mut rest_strides)?;
        Ok(Self {
            rest_extents,
            rest_strides,
            storage_len,
        })
    }

    /// Number of storage slots.
    pub(crate) fn storage_len(&self) -> usize {
        self.storage_len
    }

    /// Extent of each dimension's rest entry: `ceil(dim / block)`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    /// assert_eq!(m.geometry().rest_extents(), [2, 2, 3, 2]);
    /// ```
    pub fn rest_extents(&self) -> [usize; RANK] {
        self.rest_extents
    }

    /// Stride in elements of each dimension's rest entry.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    /// assert_eq!(m.geometry().rest_strides(), [24576, 12288, 4096, 2048]);
    /// ```
    pub fn rest_strides(&self) -> [usize; RANK] {
        self.rest_strides
    }
}

impl<const RANK: usize, C: ChunkList, N: AxisNames> Layout for ChunkedMemoryLayout<RANK, C, N> {
    type Index = [usize; RANK];
    type Geometry = ChunkedGeometry<RANK>;
    type Names = N;

    /// A chunk list numbers its slots as one mixed-radix number: one slot per digit combination.
    const IS_ALWAYS_UNIQUE: bool = true;
    /// Without blocks (every fixed size 1) no dimension pads, and the slots are dense.
    const IS_ALWAYS_EXHAUSTIVE: bool = C::SUMMARY.chunk_volume == 1;
    /// Without blocks each dimension has one entry, one stride.
    const IS_ALWAYS_STRIDED: bool = C::SUMMARY.chunk_volume == 1;

    fn geometry(&self, dims: &[usize; RANK]) -> Result<ChunkedGeometry<RANK>, LayoutError> {
        let () = Self::CHECK;
        ChunkedGeometry::bind(&C::SUMMARY, dims)
    }

    fn padded_dims(&self, geometry: &ChunkedGeometry<RANK>) -> [usize; RANK] {
        core::array::from_fn(|d| geometry.rest_extents[d] * C::SUMMARY.blocks[d])
    }

    fn storage_len(&self, geometry: &ChunkedGeometry<RANK>) -> usize {
        geometry.storage_len
    }

    #[inline(always)]
    fn offset(&self, geometry: &ChunkedGeometry<RANK>, index: &[usize; RANK]) -> usize {
        let () = const { Self::CHECK };
        C::offset(index, &geometry.rest_strides)
    }

    fn axes(&self, geometry: &ChunkedGeometry<RANK>) -> Axes {
        C::SUMMARY.axes(&geometry.rest_extents, &geometry.rest_strides)
    }

    fn chunk_axes(&self) -> usize {
        C::SUMMARY.entries().len() - C::SUMMARY.rest_entries
    }

    /// None: the slots are one mixed-radix number ([`Layout::IS_ALWAYS_UNIQUE`]).
    fn shared_slot(
        &self,
        _: &ChunkedGeometry<RANK>,
        _: &[usize; RANK],
    ) -> Option<([usize; RANK], [usize; RANK])> {
        None
    }
}
