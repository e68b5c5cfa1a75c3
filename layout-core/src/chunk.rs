//! Chunk lists at the type level: `Chunk<DIM, SIZE>` entries gathered in a tuple, and the
//! constants derived from them at compile time.

use crate::layout::{Axes, Axis, MAX_AXES};
use crate::{LayoutError, axes::AxisWord, mappings::MAX_RANK};
use alloc::vec::Vec;

/// Writes a chunked layout's long form: `ChunkedMemoryLayout<4, 0,0, 1,0, ...>` for positional
/// axes, `ChunkedMemoryLayout<NHWC, 0,0, 1,0, ...>` for named ones (as `chunked_layout!` takes
/// them, and as `DynLayout::parse` reads them back).
pub(crate) fn write_long_form(
    f: &mut core::fmt::Formatter<'_>,
    word: &AxisWord,
    entries: impl IntoIterator<Item = (usize, usize)>,
) -> core::fmt::Result {
    if word.is_positional() {
        write!(f, "ChunkedMemoryLayout<{}", word.rank())?;
    } else {
        write!(f, "ChunkedMemoryLayout<{word}")?;
    }
    for (dim, size) in entries {
        write!(f, ", {dim},{size}")?;
    }
    f.write_str(">")
}

/// One entry of a chunk list: `SIZE` elements of dimension `DIM`, or with `SIZE == 0` "all the rest
/// of dimension `DIM`" (HTP's `dim,size` pair).
///
/// Entries only appear inside the tuple argument of
/// [`ChunkedMemoryLayout`](crate::ChunkedMemoryLayout); the type has no values of interest.
///
/// ```
/// use layout_core::{Chunk, layouts::ChunkList};
/// type Inner = (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 8>);
/// assert_eq!(Inner::ENTRIES[2].dim, 1);
/// assert_eq!(Inner::ENTRIES[2].size, 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chunk<const DIM: usize, const SIZE: usize>;

/// One `(dim, size)` entry of a chunk list, as a value: `size` elements of dimension `dim`, or
/// with `size == 0` "all the rest of dimension `dim`". The one entry type of the workspace:
/// layout-notation's rules, parser and macros use it too.
///
/// ```
/// use layout_core::layouts::ChunkEntry;
/// let rest = ChunkEntry { dim: 3, size: 0 };
/// assert!(rest.is_rest());
/// assert_eq!(ChunkEntry::new(1, 8), ChunkEntry { dim: 1, size: 8 });
/// ```
pub use layout_notation::Entry as ChunkEntry;

/// What the offset computation needs of one entry, all of it known at compile time except the
/// stride of a rest entry (which depends on the dims).
///
/// ```
/// use layout_core::{Chunk, layouts::ChunkList};
/// type List = (Chunk<0, 0>, Chunk<0, 4>, Chunk<0, 2>);
/// let e = List::SUMMARY.entries();
/// assert_eq!((e[0].step, e[1].step, e[2].step), (8, 2, 1));
/// assert_eq!((e[1].stride, e[2].stride), (2, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntryInfo {
    /// The logical dimension.
    pub dim: usize,
    /// The entry's size (0 for a rest entry).
    pub size: usize,
    /// How much one digit adds to the logical coordinate: the product of the fixed sizes of the
    /// same dimension listed after this entry (for a rest entry, the dimension's block size).
    pub step: usize,
    /// For a fixed entry, its stride in elements: the product of all fixed sizes listed after it.
    /// Zero for a rest entry.
    pub stride: usize,
}

impl EntryInfo {
    /// This entry's share of the offset of an element whose coordinate in `dim` is `x`;
    /// `rest_stride` is the dimension's rest stride (used by a rest entry only).
    ///
    /// ```
    /// use layout_core::{Chunk, layouts::ChunkList};
    /// type List = (Chunk<0, 0>, Chunk<0, 8>);
    /// let [rest, fixed] = [List::SUMMARY.entries()[0], List::SUMMARY.entries()[1]];
    /// assert_eq!(rest.offset_term(19, 8) + fixed.offset_term(19, 8), 19);
    /// ```
    #[inline(always)]
    pub const fn offset_term(&self, x: usize, rest_stride: usize) -> usize {
        if self.size == 0 {
            x / self.step * rest_stride
        } else {
            x / self.step % self.size * self.stride
        }
    }
}

/// The compile-time summary of a chunk list.
///
/// ```
/// use layout_core::{Chunk, layouts::ChunkList};
/// type Crouton = (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>,
///                 Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>);
/// let table = Crouton::SUMMARY;
/// assert_eq!(table.chunk_volume, 8 * 8 * 32);
/// assert_eq!(table.blocks[..4], [1, 8, 8, 32]);
/// assert_eq!(table.rest_entries, 4);
/// assert_eq!(table.entries()[4].stride, 256);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkListSummary {
    len: usize,
    entries: [EntryInfo; MAX_AXES],
    /// Block size of each dimension: the product of its fixed sizes (1 for an unblocked one).
    pub blocks: [usize; MAX_RANK],
    /// Elements in one innermost chunk: the product of all fixed sizes.
    pub chunk_volume: usize,
    /// Number of entries before the first fixed one (the rest entries, in a valid list).
    pub rest_entries: usize,
    /// Whether some product of fixed sizes overflowed `usize` (then the list is invalid).
    pub overflowed: bool,
}

/// The former name of [`ChunkListSummary`]: "chunk table" now means only HTP's table of chunk
/// allocations ([`IndirectTensor`](crate::tensors::IndirectTensor)).
#[deprecated(
    note = "renamed to layouts::ChunkListSummary (and ChunkList::TABLE to ChunkList::SUMMARY)"
)]
pub type ChunkTable = ChunkListSummary;

impl ChunkListSummary {
    /// Summarises `entries`. Total for any input: an invalid list gives a table that
    /// [`ChunkListSummary::validate`] rejects, never a panic here.
    ///
    /// ```
    /// use layout_core::{layouts::ChunkEntry, layouts::ChunkListSummary};
    /// let table = ChunkListSummary::new(&[ChunkEntry { dim: 0, size: 0 }, ChunkEntry { dim: 0, size: 16 }]);
    /// assert_eq!(table.blocks[0], 16);
    /// ```
    pub const fn new(list: &[ChunkEntry]) -> Self {
        let mut table = ChunkListSummary {
            len: list.len(),
            entries: [EntryInfo {
                dim: 0,
                size: 0,
                step: 1,
                stride: 0,
            }; MAX_AXES],
            blocks: [1; MAX_RANK],
            chunk_volume: 1,
            rest_entries: 0,
            overflowed: false,
        };
        if list.len() > MAX_AXES {
            table.len = 0;
            table.overflowed = true;
            return table;
        }
        let mut i = list.len();
        while i > 0 {
            i -= 1;
            let ChunkEntry { dim, size } = list[i];
            let mut info = EntryInfo {
                dim,
                size,
                step: 1,
                stride: 0,
            };
            if dim < MAX_RANK {
                info.step = table.blocks[dim];
            }
            if size > 0 {
                info.stride = table.chunk_volume;
                table.chunk_volume = mul_or_flag(&mut table.overflowed, table.chunk_volume, size);
                if dim < MAX_RANK {
                    table.blocks[dim] = mul_or_flag(&mut table.overflowed, table.blocks[dim], size);
                }
            }
            table.entries[i] = info;
        }
        while table.rest_entries < list.len() && list[table.rest_entries].size == 0 {
            table.rest_entries += 1;
        }
        table
    }

    /// Binds the list to `dims`: writes each dimension's rest extent (`ceil(dim / block)`) and
    /// rest stride, and returns the storage length.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when a padded dim or the storage length does not fit in `usize`.
    ///
    /// ```
    /// use layout_core::{Chunk, layouts::ChunkList};
    /// type List = (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 8>);
    /// let (mut extents, mut strides) = ([0; 2], [0; 2]);
    /// assert_eq!(List::SUMMARY.bind(&[3, 17], &mut extents, &mut strides), Ok(3 * 24));
    /// assert_eq!((extents, strides), ([3, 3], [24, 8]));
    /// ```
    pub fn bind(
        &self,
        dims: &[usize],
        rest_extents: &mut [usize],
        rest_strides: &mut [usize],
    ) -> Result<usize, LayoutError> {
        let overflow = || LayoutError::Overflow {
            dims: Vec::from(dims),
            element_size: None,
        };
        for (d, &dim) in dims.iter().enumerate() {
            rest_extents[d] = dim.div_ceil(self.blocks[d]);
            rest_extents[d]
                .checked_mul(self.blocks[d])
                .ok_or_else(overflow)?;
        }
        // A zero dim makes the tensor empty: no storage, and strides that address nothing
        // (computed saturating, so huge other dims are no error).
        let empty = dims.contains(&0);
        let mut running = self.chunk_volume;
        for entry in self.entries()[..self.rest_entries].iter().rev() {
            rest_strides[entry.dim] = running;
            running = match running.checked_mul(rest_extents[entry.dim]) {
                Some(product) => product,
                None if empty => usize::MAX,
                None => return Err(overflow()),
            };
        }
        Ok(if empty { 0 } else { running })
    }

    /// The axes of the list bound to dims whose rest extents and strides [`ChunkListSummary::bind`]
    /// computed: one axis per entry, in list order.
    ///
    /// ```
    /// use layout_core::{Chunk, layouts::ChunkList};
    /// type List = (Chunk<0, 0>, Chunk<0, 4>);
    /// let axes = List::SUMMARY.axes(&[3], &[4]);
    /// assert_eq!((axes[0].extent, axes[0].stride, axes[1].extent, axes[1].stride), (3, 4, 4, 1));
    /// ```
    pub fn axes(&self, rest_extents: &[usize], rest_strides: &[usize]) -> Axes {
        Axes::collect(self.entries().iter().take(self.len).map(|info| {
            let rest = info.size == 0;
            Axis {
                dim: info.dim,
                extent: if rest {
                    rest_extents[info.dim]
                } else {
                    info.size
                },
                step: info.step,
                stride: if rest {
                    rest_strides[info.dim]
                } else {
                    info.stride
                },
            }
        }))
    }

    /// The per-entry information, in list order.
    ///
    /// ```
    /// use layout_core::{Chunk, layouts::ChunkList};
    /// assert_eq!(<(Chunk<0, 0>, Chunk<1, 0>)>::SUMMARY.entries().len(), 2);
    /// ```
    #[inline(always)]
    pub const fn entries(&self) -> &[EntryInfo] {
        self.entries.split_at(self.len).0
    }

    /// Checks `list`, the list this table summarises, against the rules of a chunked layout of
    /// rank `rank` ([`layout_notation::assert_chunk_list`]): panics (a compile error when
    /// evaluated in a constant) with a sentence naming the first problem and its entry.
    ///
    /// ```
    /// use layout_core::{Chunk, layouts::ChunkList};
    /// type List = (Chunk<0, 0>, Chunk<1, 0>);
    /// List::SUMMARY.validate(List::ENTRIES, 2); // valid: returns
    /// assert!(std::panic::catch_unwind(|| List::SUMMARY.validate(List::ENTRIES, 1)).is_err());
    /// ```
    pub const fn validate(&self, list: &[ChunkEntry], rank: usize) {
        layout_notation::assert_chunk_list(rank, list);
    }
}

const fn mul_or_flag(flag: &mut bool, a: usize, b: usize) -> usize {
    match a.checked_mul(b) {
        Some(product) => product,
        None => {
            *flag = true;
            1
        }
    }
}

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A tuple of [`Chunk`]s, or the catalog's type for one: the chunk list of a
/// [`ChunkedMemoryLayout`](crate::ChunkedMemoryLayout). Implemented for tuples of 1 to
/// [`MAX_AXES`] entries (and for `()`, so that an empty list is reported as such), and for the
/// types of [`catalog_lists`](crate::catalog_lists), which the macros write for the catalog's
/// lists so that compiler errors name them.
///
/// The trait is sealed; its constants describe the list, and [`ChunkList::offset`] is the
/// fully unrolled offset sum that monomorphization specialises per list.
///
/// ```
/// use layout_core::{Chunk, layouts::ChunkList};
/// type List = (Chunk<0, 0>, Chunk<1, 0>, Chunk<1, 4>);
/// assert_eq!(List::ENTRIES.len(), 3);
/// // [x0, x1] = [2, 5]: x1 = 1 * 4 + 1; rest strides are per dimension.
/// assert_eq!(List::offset(&[2, 5], &[8, 4]), 2 * 8 + 4 + 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a chunk list",
    label = "a chunk list is a tuple of `Chunk<DIM, SIZE>`",
    note = "write `(Chunk<0, 0>, Chunk<1, 0>, ...)`, or let `chunked_layout!` or `onednn_layout!` write the layout type"
)]
pub trait ChunkList: sealed::Sealed + Send + Sync + 'static {
    /// The list spelled as a tuple of [`Chunk`]s: `Self` for a tuple, the tuple of the same
    /// entries for a type of [`catalog_lists`](crate::catalog_lists). Two lists with the same
    /// spelling are the same list ([`TensorBase::respelled`](crate::tensors::TensorBase::respelled)).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{layouts::ChunkList, catalog_lists::aBcd16b};
    /// fn same<T>(_: T, _: T) {}
    /// type Tuple = (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 16>);
    /// same(<aBcd16b as ChunkList>::Spelling::default(), Tuple::default());
    /// ```
    type Spelling: ChunkList;

    /// The entries, most major first.
    const ENTRIES: &'static [ChunkEntry];

    /// The compile-time summary of [`Self::ENTRIES`].
    const SUMMARY: ChunkListSummary = ChunkListSummary::new(Self::ENTRIES);

    /// The offset of `index` given the dims-dependent stride of each dimension's rest entry: one
    /// term per entry, each a shift/mask (or multiply by a constant) for power-of-two blocks.
    fn offset<const RANK: usize>(index: &[usize; RANK], rest_strides: &[usize; RANK]) -> usize;
}

/// Offset contribution of entry `K` of `C`, with every property of the entry a constant.
#[inline(always)]
fn entry_offset<C: ChunkList, const RANK: usize, const K: usize>(
    index: &[usize; RANK],
    rest_strides: &[usize; RANK],
) -> usize {
    let entry = const { C::SUMMARY.entries[K] };
    entry.offset_term(index[entry.dim], rest_strides[entry.dim])
}

impl sealed::Sealed for () {}
impl ChunkList for () {
    type Spelling = ();
    const ENTRIES: &'static [ChunkEntry] = &[];

    fn offset<const RANK: usize>(_: &[usize; RANK], _: &[usize; RANK]) -> usize {
        0
    }
}

macro_rules! chunk_list_impl {
    ($(($k:tt $D:ident $S:ident))+) => {
        impl<$(const $D: usize, const $S: usize),+> sealed::Sealed for ($(Chunk<$D, $S>,)+) {}
        impl<$(const $D: usize, const $S: usize),+> ChunkList for ($(Chunk<$D, $S>,)+) {
            type Spelling = Self;
            const ENTRIES: &'static [ChunkEntry] = &[$(ChunkEntry { dim: $D, size: $S }),+];

            #[inline(always)]
            fn offset<const RANK: usize>(index: &[usize; RANK], rest_strides: &[usize; RANK]) -> usize {
                0 $(+ entry_offset::<Self, RANK, $k>(index, rest_strides))+
            }
        }
    };
}

/// Implements [`ChunkList`] for every prefix of the given entry list.
macro_rules! chunk_list_impls {
    ([$($done:tt)*]) => {};
    ([$($done:tt)*] $next:tt $($rest:tt)*) => {
        chunk_list_impl!($($done)* $next);
        chunk_list_impls!([$($done)* $next] $($rest)*);
    };
}

chunk_list_impls!([]
    (0 D0 S0) (1 D1 S1) (2 D2 S2) (3 D3 S3) (4 D4 S4) (5 D5 S5) (6 D6 S6) (7 D7 S7)
    (8 D8 S8) (9 D9 S9) (10 D10 S10) (11 D11 S11) (12 D12 S12) (13 D13 S13) (14 D14 S14)
    (15 D15 S15) (16 D16 S16) (17 D17 S17) (18 D18 S18) (19 D19 S19) (20 D20 S20)
    (21 D21 S21) (22 D22 S22) (23 D23 S23)
);
