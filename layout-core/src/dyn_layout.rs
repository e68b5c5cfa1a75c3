//! [`DynLayout`]: a chunked layout chosen at run time (read from a file, a command line).

use crate::chunk::write_long_form;
use crate::{
    ChunkedMemoryLayout, Layout, LayoutError, axes::AxisNames, axes::AxisWord, axes::RunTimeNames,
    layouts::Axes, layouts::ChunkEntry, layouts::ChunkList, layouts::ChunkListSummary,
};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
use layout_notation::{check_chunk_list, parse_layout};

/// A chunked layout known only at run time: a rank, the names of its axes and a valid chunk
/// list.
///
/// Read it from HTP's long form `ChunkedMemoryLayout<4, 0,0, 1,0, ...>` (an axis word such as
/// `NHWC` in place of the rank names the axes), the short form `4: 0,0 1,0 ...` or
/// `NHWC: 0,0 1,0 ...`, a oneDNN tag, or a catalog name (`htp::R4CroutonLayout`,
/// `R4CroutonLayout`, `megengine::NCHW4`); it prints in the long form, which reads back. Every
/// chunked type describes itself as one ([`ChunkedMemoryLayout::to_dyn`]).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::DynLayout;
/// let read: DynLayout = "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32".parse().unwrap();
/// assert_eq!(read, htp::R4CroutonLayout::default().to_dyn());
/// assert_eq!(read, DynLayout::parse("htp::R4CroutonLayout").unwrap());
/// assert_eq!(read.to_string(), "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
/// assert_eq!(DynLayout::parse(&read.to_string()).unwrap(), read);
/// assert_eq!("nChw16c".parse::<DynLayout>().unwrap(), onednn::nChw16c::default().to_dyn());
/// // The same chunk list with positional axes is another layout.
/// assert_ne!(DynLayout::parse("4: 0,0 1,0 2,0 3,0 1,8 2,8 3,32").unwrap(), read);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DynLayout {
    rank: usize,
    axes: AxisWord,
    entries: Vec<ChunkEntry>,
}

impl DynLayout {
    /// A layout of `rank` with the chunk list `entries`, most major first.
    ///
    /// # Errors
    /// [`LayoutError::InvalidLayout`] listing every rule the list breaks.
    ///
    /// ```
    /// use tensor_layout::{layouts::ChunkEntry, DynLayout, LayoutError};
    /// let rest = |dim| ChunkEntry { dim, size: 0 };
    /// assert!(DynLayout::new(2, &[rest(1), rest(0)]).is_ok());
    /// let err = DynLayout::new(2, &[rest(0)]).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid layout ChunkedMemoryLayout<2, 0,0>: dimension 1 has no (1, 0) entry");
    /// ```
    pub fn new(rank: usize, entries: &[ChunkEntry]) -> Result<Self, LayoutError> {
        Self::checked(rank, AxisWord::positional(rank), entries)
    }

    /// A layout whose axes are named by `axes` (which gives the rank), with the chunk list
    /// `entries`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidLayout`] listing every rule the list breaks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{axes::AxisWord, layouts::ChunkEntry, DynLayout};
    /// let rest = |dim| ChunkEntry { dim, size: 0 };
    /// let nhwc = AxisWord::new("NHWC").unwrap();
    /// let flat = DynLayout::named(nhwc, &[rest(0), rest(1), rest(2), rest(3)]).unwrap();
    /// assert_eq!(flat, htp::R4FlatMemoryLayout::default().to_dyn());
    /// ```
    pub fn named(axes: AxisWord, entries: &[ChunkEntry]) -> Result<Self, LayoutError> {
        Self::checked(axes.rank(), axes, entries)
    }

    fn checked(rank: usize, axes: AxisWord, entries: &[ChunkEntry]) -> Result<Self, LayoutError> {
        let problems = check_chunk_list(rank, entries);
        let layout = Self {
            rank,
            axes,
            entries: entries.to_vec(),
        };
        if problems.is_empty() {
            Ok(layout)
        } else {
            let reasons: Vec<String> = problems.into_iter().map(|p| p.message).collect();
            Err(LayoutError::InvalidLayout {
                layout: layout.to_string(),
                reason: reasons.join("; "),
            })
        }
    }

    /// Reads a layout in any spelling: long form, short form, oneDNN tag or catalog name (see
    /// [`DynLayout`]).
    ///
    /// # Errors
    /// [`LayoutError::Parse`] with the position of the first problem and what was expected there;
    /// [`LayoutError::InvalidLayout`] when the text reads but breaks the chunk-list rules.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, LayoutError};
    /// let err = DynLayout::parse("ChunkedMemoryLayout<4, 0,0, 1>").unwrap_err();
    /// assert!(matches!(err, LayoutError::Parse { position: 29, .. }));
    /// assert_eq!(err.to_string(), "cannot read layout \"ChunkedMemoryLayout<4, 0,0, 1>\": at character 29, expected `,` and the size of the entry, found `>`");
    /// assert!(matches!(DynLayout::parse("2: 0,0"), Err(LayoutError::InvalidLayout { .. })));
    /// ```
    pub fn parse(text: &str) -> Result<Self, LayoutError> {
        let parsed = parse_layout(text).map_err(|problems| {
            let first = &problems[0];
            LayoutError::Parse {
                what: "layout",
                input: text.to_string(),
                position: first.at,
                expected: first.message.clone(),
            }
        })?;
        let entries: Vec<ChunkEntry> = parsed
            .entries
            .iter()
            .map(|e| ChunkEntry {
                dim: e.dim,
                size: e.size,
            })
            .collect();
        match parsed.axes {
            Some(word) => Self::named(AxisWord::new(&word)?, &entries),
            None => Self::new(parsed.rank, &entries),
        }
    }

    /// The names of the axes, in logical order (positional `abcd` when the layout states none).
    ///
    /// ```
    /// assert_eq!(tensor_layout::DynLayout::parse("hwio").unwrap().axis_word().as_str(), "OIHW");
    /// assert_eq!(tensor_layout::DynLayout::parse("aBcd16b").unwrap().axis_word().as_str(), "abcd");
    /// ```
    pub fn axis_word(&self) -> AxisWord {
        self.axes
    }

    /// The same chunk list with axes named by `axes` (or renamed): no data moves, only the
    /// meaning changes.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `axes` has another number of letters than the rank.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{axes::AxisWord, DynLayout};
    /// let abcd = DynLayout::parse("abcd").unwrap();
    /// let nchw = abcd.with_axes(AxisWord::new("NCHW").unwrap()).unwrap();
    /// assert_eq!(nchw, onednn::nchw::default().to_dyn());
    /// ```
    pub fn with_axes(&self, axes: AxisWord) -> Result<Self, LayoutError> {
        if axes.rank() != self.rank {
            return Err(LayoutError::Rank {
                expected: self.rank,
                found: axes.rank(),
            });
        }
        Ok(Self {
            axes,
            ..self.clone()
        })
    }

    /// Number of dimensions.
    ///
    /// ```
    /// assert_eq!(tensor_layout::DynLayout::parse("ncdhw").unwrap().rank(), 5);
    /// ```
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The chunk list, most major first.
    ///
    /// ```
    /// let layout = tensor_layout::DynLayout::parse("aBc8b").unwrap();
    /// assert_eq!(layout.entries().len(), 4);
    /// ```
    pub fn entries(&self) -> &[ChunkEntry] {
        &self.entries
    }

    /// The layout as a oneDNN-style tag in positional letters (`a` = dim 0, upper case when the
    /// dimension is blocked, trailing blocks): every chunked layout has one, whether or not oneDNN
    /// implements it.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4CroutonLayout::default().to_dyn().positional_tag(), "aBCD8b8c32d");
    /// assert_eq!(onednn::nChw16c::default().to_dyn().positional_tag(), "aBcd16b");
    /// ```
    pub fn positional_tag(&self) -> String {
        layout_notation::positional_tag(self.rank, &self.entries)
    }
}

/// Prints the long form, `ChunkedMemoryLayout<4, 0,0, 1,0, ...>` or, for named axes,
/// `ChunkedMemoryLayout<NHWC, 0,0, 1,0, ...>`; [`DynLayout::parse`] reads it back.
impl fmt::Display for DynLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.axes.is_positional() {
            // The rank as given, also for a rank too large to name every axis.
            write!(f, "ChunkedMemoryLayout<{}", self.rank)?;
            for entry in &self.entries {
                write!(f, ", {},{}", entry.dim, entry.size)?;
            }
            return f.write_str(">");
        }
        write_long_form(f, &self.axes, self.entries.iter().map(|e| (e.dim, e.size)))
    }
}

impl FromStr for DynLayout {
    type Err = LayoutError;

    fn from_str(text: &str) -> Result<Self, LayoutError> {
        Self::parse(text)
    }
}

impl<const RANK: usize, C: ChunkList, N: AxisNames> ChunkedMemoryLayout<RANK, C, N> {
    /// This layout as a run-time value, axis names included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(htp::R4FlatMemoryLayout::default().to_dyn().to_string(), "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0>");
    /// ```
    pub fn to_dyn(&self) -> DynLayout {
        DynLayout {
            rank: RANK,
            axes: self.axis_word(),
            entries: Self::ENTRIES.to_vec(),
        }
    }
}

/// A run-time chunk list for a rank fixed at compile time: a [`Layout`] like the typed ones, so
/// every generic walker, tensor and relayout serves layouts read at run time (the `layout`
/// command dispatches on the rank once and works with this).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{dynamic::DynChunked, DynLayout};
/// let layout: DynChunked<4> = DynLayout::parse("nChw8c").unwrap().ranked().unwrap();
/// let m = Mapping::with_layout(layout, [1, 17, 2, 2]).unwrap();
/// assert_eq!(m.padded_dims(), [1, 24, 2, 2]);
/// assert!(m.same_function_as(&Mapping::<onednn::nChw8c>::new([1, 17, 2, 2]).unwrap()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynChunked<const RANK: usize> {
    table: ChunkListSummary,
    axes: AxisWord,
}

impl DynLayout {
    /// This layout as a [`Layout`] of rank `RANK`.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when the layout has another rank.
    ///
    /// ```
    /// let layout = tensor_layout::DynLayout::parse("nchw").unwrap();
    /// assert!(layout.ranked::<4>().is_ok());
    /// assert!(layout.ranked::<5>().is_err());
    /// ```
    pub fn ranked<const RANK: usize>(&self) -> Result<DynChunked<RANK>, LayoutError> {
        if self.rank != RANK {
            return Err(LayoutError::Rank {
                expected: RANK,
                found: self.rank,
            });
        }
        Ok(DynChunked {
            table: ChunkListSummary::new(&self.entries),
            axes: self.axes,
        })
    }
}

impl<const RANK: usize> DynChunked<RANK> {
    /// Back to a [`DynLayout`].
    ///
    /// ```
    /// let layout = tensor_layout::DynLayout::parse("nChw8c").unwrap();
    /// assert_eq!(layout.ranked::<4>().unwrap().to_dyn(), layout);
    /// ```
    pub fn to_dyn(&self) -> DynLayout {
        let entries = self
            .table
            .entries()
            .iter()
            .map(|e| ChunkEntry {
                dim: e.dim,
                size: e.size,
            })
            .collect();
        DynLayout {
            rank: RANK,
            axes: self.axes,
            entries,
        }
    }
}

/// Prints the long form, like the typed layouts.
impl<const RANK: usize> fmt::Display for DynChunked<RANK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.table.entries().iter().map(|e| (e.dim, e.size));
        write_long_form(f, &self.axes, entries)
    }
}

impl<const RANK: usize> Layout for DynChunked<RANK> {
    type Index = [usize; RANK];
    type Geometry = crate::layouts::ChunkedGeometry<RANK>;
    type Names = RunTimeNames;

    /// A chunk list numbers its slots as one mixed-radix number. Whether it pads or splits a
    /// dimension depends on the list, a run-time value: the mapping answers.
    const IS_ALWAYS_UNIQUE: bool = true;

    fn axis_word(&self) -> AxisWord {
        self.axes
    }

    fn geometry(&self, dims: &[usize; RANK]) -> Result<Self::Geometry, LayoutError> {
        crate::layouts::ChunkedGeometry::bind(&self.table, dims)
    }

    fn padded_dims(&self, geometry: &Self::Geometry) -> [usize; RANK] {
        let extents = geometry.rest_extents();
        core::array::from_fn(|d| extents[d] * self.table.blocks[d])
    }

    fn storage_len(&self, geometry: &Self::Geometry) -> usize {
        geometry.storage_len()
    }

    fn offset(&self, geometry: &Self::Geometry, index: &[usize; RANK]) -> usize {
        let strides = geometry.rest_strides();
        self.table
            .entries()
            .iter()
            .map(|e| e.offset_term(index[e.dim], strides[e.dim]))
            .sum()
    }

    fn axes(&self, geometry: &Self::Geometry) -> Axes {
        self.table
            .axes(&geometry.rest_extents(), &geometry.rest_strides())
    }

    fn chunk_axes(&self) -> usize {
        self.table.entries().len() - self.table.rest_entries
    }
}
