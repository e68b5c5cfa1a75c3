//! [`AnyMapping`]: one face for every layout bound to dims, typed ([`Mapping`]) or read at run
//! time ([`DynMapping`](crate::dynamic::DynMapping)), so generic code and tools take both.

use crate::{Layout, LayoutError, Mapping, axes::AxisWord, layouts::Axes, mappings::Coords};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A layout bound to dims, seen without its rank or its type: indices and dims are slices.
///
/// [`Mapping<L>`](Mapping) of every layout (chunked, strided, Sophgo local) and
/// [`DynMapping`](crate::dynamic::DynMapping) implement it with the same method names and meanings as
/// their own methods: [`AnyMapping::offset`] expects an index within the dims (and panics, naming
/// both, when it is not), [`AnyMapping::checked_offset`] answers `None` and
/// [`AnyMapping::try_offset`] an error instead. A report, a drawing or a test written against
/// `&dyn AnyMapping` serves typed and run-time layouts alike.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{mappings::AnyMapping, DynLayout};
/// fn last_offset(m: &dyn AnyMapping) -> Option<usize> {
///     let last: Vec<usize> = m.dims().iter().map(|d| d.checked_sub(1)).collect::<Option<_>>()?;
///     m.checked_offset(&last)
/// }
/// let typed = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
/// let dynamic = DynLayout::parse("htp::R4CroutonLayout").unwrap().bind(&[1, 3, 5, 30]).unwrap();
/// assert_eq!(last_offset(&typed), Some(2 * 256 + 4 * 32 + 29));
/// assert_eq!(last_offset(&typed), last_offset(&dynamic));
/// assert!(typed.same_function_as_any(&dynamic));
/// ```
pub trait AnyMapping {
    /// The names of the logical axes, in logical order.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("hwio").unwrap().bind(&[8, 4, 3, 3]).unwrap();
    /// assert_eq!(AnyMapping::axis_word(&m).as_str(), "OIHW");
    /// ```
    fn axis_word(&self) -> AxisWord;

    /// The layout as its `Display` prints it (the long form for a chunked layout).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nChw8c>::new([1, 8, 1, 1]).unwrap();
    /// assert_eq!(m.layout_text(), "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,8>");
    /// ```
    fn layout_text(&self) -> String;

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nchw>::new([1, 2, 3, 4]).unwrap();
    /// assert_eq!(AnyMapping::dims(&m), [1, 2, 3, 4]);
    /// ```
    fn dims(&self) -> &[usize];

    /// The dims after padding each up to a whole number of its blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nChw16c>::new([1, 3, 2, 2]).unwrap();
    /// assert_eq!(AnyMapping::padded_dims(&m), [1, 16, 2, 2]);
    /// ```
    fn padded_dims(&self) -> Vec<usize>;

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nChw16c>::new([1, 3, 2, 2]).unwrap();
    /// assert_eq!(AnyMapping::storage_len(&m), 64);
    /// ```
    fn storage_len(&self) -> usize;

    /// The storage as nested loops, most major first (see [`Layout`]'s axis model).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nchw>::new([1, 2, 3, 4]).unwrap();
    /// assert_eq!(AnyMapping::axes(&m).iter().map(|a| a.stride).collect::<Vec<_>>(), [24, 12, 4, 1]);
    /// ```
    fn axes(&self) -> Axes;

    /// Elements in one contiguous innermost chunk (1 for a layout without fixed entries).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(AnyMapping::chunk_volume(&m), 2048);
    /// ```
    fn chunk_volume(&self) -> usize;

    /// Offset of `index`, or `None` when it has another number of coordinates than the rank or
    /// lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nhwc>::new([1, 2, 3, 4]).unwrap();
    /// assert_eq!(AnyMapping::checked_offset(&m, &[0, 1, 0, 0]), Some(1));
    /// assert_eq!(AnyMapping::checked_offset(&m, &[0, 2, 0, 0]), None);
    /// assert_eq!(AnyMapping::checked_offset(&m, &[0, 1, 0]), None);
    /// ```
    fn checked_offset(&self, index: &[usize]) -> Option<usize>;

    /// The coordinates, within the padded dims, of storage slot `offset`; `None` past the end
    /// or where no element lies.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::AnyMapping;
    /// let m = Mapping::<onednn::nChw4c>::new([1, 3, 1, 1]).unwrap();
    /// assert_eq!(AnyMapping::padded_index_of(&m, 3), Some(vec![0, 3, 0, 0]));
    /// assert_eq!(AnyMapping::padded_index_of(&m, 4), None);
    /// ```
    fn padded_index_of(&self, offset: usize) -> Option<Vec<usize>>;

    /// The memory order in the HTP documentation's notation (see
    /// [`MemoryOrder`](crate::mappings::MemoryOrder)): `folded` joins the runs of one chunk; at most
    /// `max_lines` lines.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("nhwc").unwrap().bind(&[1, 2, 1, 3]).unwrap();
    /// assert_eq!(m.memory_order_text(false, 1), "(0,0,0,0), (0,1,0,0)\n... 2 more lines\n");
    /// ```
    fn memory_order_text(&self, folded: bool, max_lines: usize) -> String;

    /// Number of dimensions.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// assert_eq!(DynLayout::parse("ncdhw").unwrap().bind(&[1, 1, 1, 1, 1]).unwrap().rank(), 5);
    /// ```
    fn rank(&self) -> usize {
        self.dims().len()
    }

    /// Number of logical elements (the product of the dims).
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// assert_eq!(AnyMapping::len(&DynLayout::parse("nChw16c").unwrap().bind(&[1, 3, 2, 2]).unwrap()), 12);
    /// ```
    fn len(&self) -> usize {
        self.dims().iter().product()
    }

    /// Whether some dim is zero.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// assert!(AnyMapping::is_empty(&DynLayout::parse("nchw").unwrap().bind(&[1, 0, 2, 2]).unwrap()));
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Offset of `index`, which must lie within the dims.
    ///
    /// # Panics
    /// When `index` has another number of coordinates than the rank or lies outside the dims,
    /// with the message of [`AnyMapping::try_offset`]'s error.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("nChw8c").unwrap().bind(&[2, 17, 3, 5]).unwrap();
    /// assert_eq!(AnyMapping::offset(&m, &[1, 9, 2, 4]), 24 * 15 + 120 + 2 * 40 + 4 * 8 + 1);
    /// ```
    fn offset(&self, index: &[usize]) -> usize {
        match self.try_offset(index) {
            Ok(offset) => offset,
            Err(error) => panic!("{error}"),
        }
    }

    /// Offset of `index`, or an error saying why it has none.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `index` has another number of coordinates than the rank;
    /// [`LayoutError::IndexOutOfBounds`] naming the index and the dims when it lies outside them.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("nchw").unwrap().bind(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(AnyMapping::try_offset(&m, &[0, 2, 0, 0]).unwrap_err().to_string(),
    ///            "index [0, 2, 0, 0] is out of bounds for dims [1, 2, 3, 4]");
    /// assert_eq!(AnyMapping::try_offset(&m, &[0, 1, 0]).unwrap_err().to_string(),
    ///            "expected 4 coordinates (the layout's rank), found 3");
    /// ```
    fn try_offset(&self, index: &[usize]) -> Result<usize, LayoutError> {
        if index.len() != self.rank() {
            return Err(LayoutError::Rank {
                expected: self.rank(),
                found: index.len(),
            });
        }
        self.checked_offset(index)
            .ok_or_else(|| LayoutError::IndexOutOfBounds {
                index: index.to_vec(),
                dims: self.dims().to_vec(),
            })
    }

    /// The logical index stored at `offset`; `None` for a padding slot or past the end.
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("nChw4c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert_eq!(AnyMapping::index_of(&m, 2), Some(vec![0, 2, 0, 0]));
    /// assert_eq!(AnyMapping::index_of(&m, 3), None); // padding
    /// ```
    fn index_of(&self, offset: usize) -> Option<Vec<usize>> {
        let dims = self.dims();
        self.padded_index_of(offset)
            .filter(|index| index.iter().zip(dims).all(|(i, d)| i < d))
    }

    /// Whether storage slot `offset` is padding (`false` past the end).
    ///
    /// ```
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let m = DynLayout::parse("nChw4c").unwrap().bind(&[1, 3, 1, 1]).unwrap();
    /// assert!(AnyMapping::is_padding(&m, 3));
    /// assert!(!AnyMapping::is_padding(&m, 2));
    /// ```
    fn is_padding(&self, offset: usize) -> bool {
        self.padded_index_of(offset).is_some() && self.index_of(offset).is_none()
    }

    /// Whether `other` has the same dims and storage length and maps every index to the same
    /// offset: the two are the same function on these dims, whatever their types.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{mappings::AnyMapping, DynLayout};
    /// let typed = Mapping::<onednn::nChw16c>::new([2, 16, 3, 3]).unwrap();
    /// let dynamic = DynLayout::parse("aBcd16b").unwrap().bind(&[2, 16, 3, 3]).unwrap();
    /// assert!(typed.same_function_as_any(&dynamic));
    /// assert!(!typed.same_function_as_any(&DynLayout::parse("nchw").unwrap().bind(&[2, 16, 3, 3]).unwrap()));
    /// ```
    fn same_function_as_any(&self, other: &dyn AnyMapping) -> bool {
        self.dims() == other.dims()
            && self.storage_len() == other.storage_len()
            && self.axes().canonical() == other.axes().canonical()
    }
}

impl<L: Layout> AnyMapping for Mapping<L> {
    fn axis_word(&self) -> AxisWord {
        self.layout().axis_word()
    }

    fn layout_text(&self) -> String {
        self.layout().to_string()
    }

    fn dims(&self) -> &[usize] {
        self.dims_ref().as_ref()
    }

    fn padded_dims(&self) -> Vec<usize> {
        Mapping::padded_dims(self).as_ref().to_vec()
    }

    fn storage_len(&self) -> usize {
        Mapping::storage_len(self)
    }

    fn axes(&self) -> Axes {
        Mapping::axes(self)
    }

    fn chunk_volume(&self) -> usize {
        Mapping::chunk_volume(self)
    }

    fn checked_offset(&self, index: &[usize]) -> Option<usize> {
        Mapping::checked_offset(self, typed_index::<L::Index>(index)?)
    }

    fn padded_index_of(&self, offset: usize) -> Option<Vec<usize>> {
        Mapping::padded_index_of(self, offset).map(|index| index.as_ref().to_vec())
    }

    fn memory_order_text(&self, folded: bool, max_lines: usize) -> String {
        let order = self.memory_order().max_lines(max_lines);
        if folded {
            order.folded().to_string()
        } else {
            order.to_string()
        }
    }
}

/// `index` as the layout's index type, `None` when it has another number of coordinates.
fn typed_index<I: Coords>(index: &[usize]) -> Option<I> {
    if index.len() != I::RANK {
        return None;
    }
    let mut typed = I::splat(0);
    for (d, &i) in index.iter().enumerate() {
        typed[d] = i;
    }
    Some(typed)
}
