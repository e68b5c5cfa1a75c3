//! [`DynTensor`]: a tensor whose layout is known only at run time.

use crate::dyn_index::{DynIndex, DynRowMajor};
use crate::interface::contract::channel_position;
use crate::quantized::RealValues;
use crate::storage::{AlignedBuffer, Storage, StorageMut};
use crate::tensors::Element;
use crate::{
    DynLayout, Layout, LayoutError, Mapping, Tensor, axes::AxisNames, dynamic::DynMapping,
    mappings::Coords, mappings::for_each_row_major_index, tensors::TensorBase,
};
use crate::{quantized::Interface, quantized::Plain};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::ops::{Index, IndexMut};

/// A tensor whose layout was chosen at run time (read from a model file, a command line).
///
/// It holds its storage and its [`Interface`] like a [`Tensor`]; [`DynTensor::into_typed`] turns
/// it into a `Tensor<T, L, I>` without copying when its layout is `L` as a function on its dims and its axes
/// have `L`'s names, and hands it back with the reason otherwise.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{DynLayout, DynTensor};
/// let layout = DynLayout::parse("nChw16c").unwrap();
/// let t = DynTensor::from_row_major(layout, &[1, 16, 2, 2], &(0..64).collect::<Vec<u32>>()).unwrap();
/// let typed: Tensor<u32, onednn::nChw16c> = t.clone().into_typed().unwrap();
/// assert_eq!(typed[[0, 3, 1, 0]], 3 * 4 + 2);
/// let failed = t.into_typed::<onednn::nchw>().unwrap_err();
/// assert!(matches!(failed.error, LayoutError::Mismatch { .. }));
/// assert_eq!(failed.tensor.as_raw().len(), 64); // nothing lost
/// ```
#[derive(Clone, Debug)]
pub struct DynTensor<T: Element, I: Interface = Plain> {
    mapping: DynMapping,
    storage: AlignedBuffer<T>,
    pad: T,
    interface: I,
}

impl<T: Element> DynTensor<T> {
    /// A tensor of `layout` and `dims` with every slot `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `dims` does not match the layout's rank;
    /// [`LayoutError::Overflow`] or [`LayoutError::Allocation`] when the storage is too large.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<f32>::zeros(tensor_layout::DynLayout::parse("nChw8c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.as_raw().len(), 32);
    /// ```
    pub fn zeros(layout: DynLayout, dims: &[usize]) -> Result<Self, LayoutError>
    where
        T: Default,
    {
        let mapping = layout.bind(dims)?;
        let storage = AlignedBuffer::filled(mapping.storage_len(), T::default())?;
        Ok(Self {
            mapping,
            storage,
            pad: T::default(),
            interface: Plain,
        })
    }

    /// A tensor of `layout` holding `data`, the logical elements in row-major order; padding is
    /// `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `data` does not hold the product of `dims` elements, and the
    /// errors of [`DynTensor::zeros`].
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_raw(), [1, 3, 2, 4]);
    /// ```
    pub fn from_row_major(
        layout: DynLayout,
        dims: &[usize],
        data: &[T],
    ) -> Result<Self, LayoutError>
    where
        T: Default,
    {
        let mut tensor = Self::zeros(layout, dims)?;
        let len = dims.iter().product::<usize>();
        if data.len() != len {
            return Err(LayoutError::Length {
                expected: len,
                found: data.len(),
            });
        }
        let mapping = tensor.mapping.clone();
        for_each_row_major_index(dims, |k, index| {
            let offset = mapping.offset(index);
            tensor.storage[offset] = data[k];
        });
        Ok(tensor)
    }

    /// A tensor of `layout` and `dims` holding a copy of `storage`, the physical storage in
    /// storage order, padding included (what [`DynTensor::as_raw`] gives back); the pad value
    /// is `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `storage` does not hold the storage length of `layout` on
    /// `dims`; [`LayoutError::Rank`] and [`LayoutError::Overflow`] as for [`DynTensor::zeros`].
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor, LayoutError};
    /// let layout = DynLayout::parse("nChw4c").unwrap();
    /// let t = DynTensor::from_storage(layout.clone(), &[1, 3, 1, 1], &[1u8, 2, 3, 0]).unwrap();
    /// assert_eq!(t.to_row_major(), [1, 2, 3]);
    /// let short = DynTensor::from_storage(layout, &[1, 3, 1, 1], &[1u8, 2, 3]).unwrap_err();
    /// assert_eq!(short, LayoutError::Length { expected: 4, found: 3 });
    /// ```
    pub fn from_storage(
        layout: DynLayout,
        dims: &[usize],
        storage: &[T],
    ) -> Result<Self, LayoutError>
    where
        T: Default,
    {
        let mapping = layout.bind(dims)?;
        if storage.len() != mapping.storage_len() {
            return Err(LayoutError::Length {
                expected: mapping.storage_len(),
                found: storage.len(),
            });
        }
        Ok(Self {
            mapping,
            storage: AlignedBuffer::from_slice(storage),
            pad: T::default(),
            interface: Plain,
        })
    }
}

impl<T: Element, I: Interface> DynTensor<T, I> {
    /// The interface: what the stored values mean (kept from the typed tensor it came from).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::zeros_with([1, 1, 1, 2], ScaleOffset::new(0.5, 3));
    /// let d = tensor_layout::DynTensor::from(t);
    /// assert_eq!(*d.interface(), ScaleOffset::new(0.5, 3));
    /// ```
    pub fn interface(&self) -> &I {
        &self.interface
    }

    /// The layout bound to the dims.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nchw").unwrap(), &[1, 1, 2, 2]).unwrap();
    /// assert_eq!(t.mapping().dims(), [1, 1, 2, 2]);
    /// ```
    pub fn mapping(&self) -> &DynMapping {
        &self.mapping
    }

    /// The physical storage, padding included.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw4c").unwrap(), &[1, 1, 1, 1]).unwrap();
    /// assert_eq!(t.as_raw(), [0, 0, 0, 0]);
    /// ```
    pub fn as_raw(&self) -> &[T] {
        self.storage.slots()
    }

    /// The physical storage, padding included, to write (padding slots too: relayouts and
    /// element reads never take padding for data).
    ///
    /// ```
    /// let mut t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nchw").unwrap(), &[1, 1, 1, 2]).unwrap();
    /// t.as_raw_mut()[1] = 7;
    /// assert_eq!(t.to_row_major(), [0, 7]);
    /// ```
    pub fn as_raw_mut(&mut self) -> &mut [T] {
        self.storage.slots_mut()
    }

    /// The logical dims, in the layout's axis order.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw16c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.dims(), [1, 3, 2, 2]);
    /// ```
    pub fn dims(&self) -> DynIndex {
        DynIndex::try_from(self.mapping.dims()).expect("a layout's rank is at most MAX_RANK")
    }

    /// The dims after padding to whole blocks.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw16c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.padded_dims(), [1, 16, 2, 2]);
    /// ```
    pub fn padded_dims(&self) -> DynIndex {
        DynIndex::try_from(&self.mapping.padded_dims()[..])
            .expect("a layout's rank is at most MAX_RANK")
    }

    /// Number of logical elements.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw16c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.len(), 12);
    /// ```
    pub fn len(&self) -> usize {
        self.mapping.len()
    }

    /// Whether the tensor has no logical element (some dim is zero).
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nchw").unwrap(), &[1, 0, 2, 2]).unwrap();
    /// assert!(t.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.mapping.is_empty()
    }

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw16c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.storage_len(), 64);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.mapping.storage_len()
    }

    /// The element at logical `index` (an array, a slice or a [`DynIndex`]), `None` outside
    /// the dims or for another number of coordinates than the rank.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.get([0, 1, 0, 0]), Some(&3));
    /// assert_eq!(t.get(&[0, 2, 0, 0][..]), None);
    /// assert_eq!(t.get([0, 1, 0]), None);
    /// ```
    pub fn get(&self, index: impl AsRef<[usize]>) -> Option<&T> {
        let offset = self.mapping.checked_offset(index.as_ref())?;
        Some(&self.storage[offset])
    }

    /// The element at logical `index`, writable; `None` where [`DynTensor::get`] gives `None`.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let mut t = DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2]).unwrap();
    /// *t.get_mut([0, 1, 0, 1]).unwrap() = 9;
    /// assert_eq!(t.as_raw(), [0, 0, 0, 9]);
    /// ```
    pub fn get_mut(&mut self, index: impl AsRef<[usize]>) -> Option<&mut T> {
        let offset = self.mapping.checked_offset(index.as_ref())?;
        Some(&mut self.storage[offset])
    }

    /// The element at logical `index`, by value.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims, or has another number of
    /// coordinates than the rank.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.value([0, 1, 0, 1]), 4);
    /// ```
    pub fn value(&self, index: impl AsRef<[usize]>) -> T {
        self.storage[self.mapping.offset(index.as_ref())]
    }

    /// Writes `value` at logical `index`.
    ///
    /// # Panics
    /// As for [`DynTensor::value`].
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let mut t = DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2]).unwrap();
    /// t.set([0, 1, 0, 0], 7);
    /// assert_eq!(t.as_raw(), [0, 7, 0, 0]);
    /// ```
    pub fn set(&mut self, index: impl AsRef<[usize]>, value: T) {
        let offset = self.mapping.offset(index.as_ref());
        self.storage[offset] = value;
    }

    /// The logical elements with their indices, in row-major order (the last dim fastest).
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 1, 1, 2], &[5, 6]).unwrap();
    /// let all: Vec<_> = t.indexed_iter().map(|(i, &v)| (i.to_vec(), v)).collect();
    /// assert_eq!(all, [(vec![0, 0, 0, 0], 5), (vec![0, 0, 0, 1], 6)]);
    /// ```
    pub fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (DynIndex, &T)> + '_ {
        DynRowMajor::new(self.dims())
            .map(move |index| (index, &self.storage[self.mapping.offset(&index)]))
    }

    /// The logical elements in row-major order.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        self.indexed_iter().map(|(_, value)| value)
    }

    /// The real value of the element at `index`, through the interface.
    ///
    /// # Panics
    /// As for [`DynTensor::value`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| 100 + w as u8 * 4)
    ///     .with_interface(ScaleOffset::new(0.5, 100))
    ///     .unwrap();
    /// let d = tensor_layout::DynTensor::from(t);
    /// assert_eq!(d.real([0, 0, 0, 1]), 2.0);
    /// ```
    pub fn real(&self, index: impl AsRef<[usize]>) -> f32
    where
        I: RealValues<T>,
    {
        let index = index.as_ref();
        self.interface
            .real(self.value(index), self.channel_of(index))
    }

    /// Stores the real `value` at `index`: rounded to nearest (ties to even) and saturated to
    /// the stored type.
    ///
    /// # Panics
    /// As for [`DynTensor::value`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<i8, onednn::nchw, _>::zeros_with([1, 1, 1, 2], ScaleOffset::new(0.5, 0));
    /// let mut d = tensor_layout::DynTensor::from(t);
    /// d.set_real([0, 0, 0, 0], 0.75); // 1.5 steps: ties to even
    /// assert_eq!(d.to_row_major(), [2, 0]);
    /// ```
    pub fn set_real(&mut self, index: impl AsRef<[usize]>, value: f32)
    where
        I: RealValues<T>,
    {
        let index = index.as_ref();
        let stored = self.interface.stored(value, self.channel_of(index));
        self.set(index, stored);
    }

    /// The index along the interface's channel axis of `index` (0 for per-tensor interfaces).
    fn channel_of(&self, index: &[usize]) -> usize {
        let axes = self.mapping.layout().axis_word();
        channel_position(&self.interface, &axes).map_or(0, |d| index.get(d).copied().unwrap_or(0))
    }

    /// The logical elements in row-major order.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("chwn").unwrap(), &[2, 1, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.to_row_major(), [1, 2, 3, 4]);
    /// ```
    pub fn to_row_major(&self) -> Vec<T> {
        let dims = self.mapping.dims().to_vec();
        let mut out = vec![self.pad; dims.iter().product()];
        for_each_row_major_index(&dims, |k, index| {
            out[k] = self.storage[self.mapping.offset(index)];
        });
        out
    }

    /// This tensor as a `Tensor<T, L>`, without copying, when its axes have `L`'s names in
    /// `L`'s order and its layout is `L` as a function on its dims (so `nChw16c` on 16 channels
    /// converts to `nChw8c`, and a block of 1 to no block).
    ///
    /// # Errors
    /// The tensor comes back in an [`IntoTypedError`] with the reason: [`LayoutError::Rank`]
    /// when `L` has another rank; [`LayoutError::Mismatch`] naming both layouts when their axes
    /// have other names, or they place some element differently or need different storage.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::<u8>::zeros(DynLayout::parse("NCHW: 0,0 1,0 2,0 3,0 1,1").unwrap(), &[1, 2, 2, 2]).unwrap();
    /// assert!(t.into_typed::<onednn::nchw>().is_ok());
    /// let positional = DynTensor::<u8>::zeros(DynLayout::parse("abcd").unwrap(), &[1, 2, 2, 2]).unwrap();
    /// let failed = positional.into_typed::<onednn::nchw>().unwrap_err();
    /// assert_eq!(failed.error.to_string(),
    ///            "layout mismatch: expected ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0>, found ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0>");
    /// ```
    // The error holds the tensor itself, so that nothing is lost; it is as large as the tensor's
    // header, and a failed conversion is the cold path.
    #[allow(clippy::result_large_err)]
    pub fn into_typed<L: Layout + Default>(self) -> Result<Tensor<T, L, I>, IntoTypedError<T, I>> {
        match self.typed_mapping::<L>() {
            Ok(typed) => Ok(TensorBase::from_parts(
                typed,
                self.storage,
                self.pad,
                self.interface,
            )),
            Err(error) => Err(IntoTypedError {
                error,
                tensor: self,
            }),
        }
    }

    /// The mapping of `L` that is this tensor's, or why there is none.
    fn typed_mapping<L: Layout + Default>(&self) -> Result<Mapping<L>, LayoutError> {
        let dims = self.mapping.dims();
        if dims.len() != L::Index::RANK {
            return Err(LayoutError::Rank {
                expected: L::Index::RANK,
                found: dims.len(),
            });
        }
        let mut typed_dims = L::Index::splat(0);
        typed_dims.as_mut().copy_from_slice(dims);
        let typed = Mapping::<L>::new(typed_dims)?;
        let same_names = typed.layout().axis_word() == self.mapping.layout().axis_word();
        if !same_names || !self.mapping.same_function_as(&typed) {
            return Err(LayoutError::Mismatch {
                expected: typed.layout().to_string(),
                found: self.mapping.layout().to_string(),
            });
        }
        Ok(typed)
    }

    /// The value padding slots hold (and relayouts into this tensor write there).
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nchw").unwrap(), &[1, 1, 1, 1]).unwrap();
    /// assert_eq!(t.pad_value(), 0);
    /// ```
    pub fn pad_value(&self) -> T {
        self.pad
    }

    /// The storage of a typed tensor, with its layout as a run-time value.
    pub(crate) fn rebound(
        layout: DynLayout,
        dims: &[usize],
        storage: AlignedBuffer<T>,
        pad: T,
        interface: I,
    ) -> Self {
        let mapping = layout.bind(dims).expect("a valid mapping binds again");
        Self {
            mapping,
            storage,
            pad,
            interface,
        }
    }
}

impl<T: Element, I: Interface, const N: usize> Index<[usize; N]> for DynTensor<T, I> {
    type Output = T;

    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index(&self, index: [usize; N]) -> &T {
        &self.storage[self.mapping.offset(&index)]
    }
}

impl<T: Element, I: Interface, const N: usize> IndexMut<[usize; N]> for DynTensor<T, I> {
    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index_mut(&mut self, index: [usize; N]) -> &mut T {
        let offset = self.mapping.offset(&index);
        &mut self.storage[offset]
    }
}

impl<T: Element, I: Interface> Index<&[usize]> for DynTensor<T, I> {
    type Output = T;

    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index(&self, index: &[usize]) -> &T {
        &self.storage[self.mapping.offset(index)]
    }
}

impl<T: Element, I: Interface> IndexMut<&[usize]> for DynTensor<T, I> {
    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index_mut(&mut self, index: &[usize]) -> &mut T {
        let offset = self.mapping.offset(index);
        &mut self.storage[offset]
    }
}

impl<T: Element, I: Interface> Index<DynIndex> for DynTensor<T, I> {
    type Output = T;

    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index(&self, index: DynIndex) -> &T {
        &self.storage[self.mapping.offset(&index)]
    }
}

impl<T: Element, I: Interface> IndexMut<DynIndex> for DynTensor<T, I> {
    /// # Panics
    /// When `index` lies outside the dims, naming both, or has another rank.
    fn index_mut(&mut self, index: DynIndex) -> &mut T {
        let offset = self.mapping.offset(&index);
        &mut self.storage[offset]
    }
}

/// A [`DynTensor`] that could not become a typed tensor, handed back with the reason.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{DynLayout, DynTensor};
/// let t = DynTensor::<u8>::zeros(DynLayout::parse("nchw").unwrap(), &[1, 2, 2, 2]).unwrap();
/// let failed = t.into_typed::<htp::R4FlatMemoryLayout>().unwrap_err();
/// assert!(failed.to_string().starts_with("layout mismatch: expected ChunkedMemoryLayout<NHWC"));
/// let t = failed.tensor; // use it as another layout
/// assert!(t.into_typed::<onednn::nchw>().is_ok());
/// ```
pub struct IntoTypedError<T: Element, I: Interface = Plain> {
    /// Why the conversion failed.
    pub error: LayoutError,
    /// The tensor, as it was.
    pub tensor: DynTensor<T, I>,
}

impl<T: Element, I: Interface> fmt::Debug for IntoTypedError<T, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoTypedError")
            .field("error", &self.error)
            .field("layout", self.tensor.mapping.layout())
            .finish_non_exhaustive()
    }
}

impl<T: Element, I: Interface> fmt::Display for IntoTypedError<T, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl<T: Element, I: Interface> core::error::Error for IntoTypedError<T, I> {}

impl<T: Element, I: Interface> From<IntoTypedError<T, I>> for LayoutError {
    /// Keeps the reason, drops the tensor (for `?` in functions that return [`LayoutError`]).
    fn from(failed: IntoTypedError<T, I>) -> Self {
        failed.error
    }
}

impl<T: Element, const RANK: usize, C: crate::layouts::ChunkList, N: AxisNames, I: Interface>
    From<Tensor<T, crate::ChunkedMemoryLayout<RANK, C, N>, I>> for DynTensor<T, I>
{
    /// Forgets the layout type, keeping the storage, the axis names and the interface.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let d = tensor_layout::DynTensor::from(t);
    /// assert_eq!(d.mapping().layout().to_string(), "ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
    /// ```
    fn from(tensor: Tensor<T, crate::ChunkedMemoryLayout<RANK, C, N>, I>) -> Self {
        let (mapping, storage, pad, interface) = tensor.into_parts();
        Self::rebound(
            mapping.layout().to_dyn(),
            &mapping.dims(),
            storage,
            pad,
            interface,
        )
    }
}
