//! [`IndirectTensor`]: a chunked layout's chunks behind a table, wherever they lie (the Qualcomm
//! HTP SDK's indirect tensors), with the typed index, iteration, relayout and interface of a
//! [`Tensor`].

mod callers_chunks;
mod chunks;
mod convert;
mod elementwise;
mod shared_queries;
mod store;

use crate::interface::contract::channel_position;
use crate::tensors::Element;
use crate::{
    Layout, LayoutError, Mapping, Tensor, quantized::ChannelZeros, quantized::Interface,
    quantized::Plain, quantized::RealValues,
};
use alloc::vec::Vec;
use core::ops::{Index, IndexMut};
use store::TableAccess;
pub use store::{BorrowedChunks, ChunkStorage, OwnedChunks};

/// A tensor of a chunked layout whose chunks are reached through a table, wherever they lie.
///
/// Chunk `n` holds storage slots `n * V .. (n + 1) * V` of the layout, `V` being
/// [`IndirectTensor::chunk_volume`] (for `htp::R4CroutonLayout`, an 8x8x32 crouton of 2048
/// elements); the table's order is the chunk number, the order of the layout's outer (rest)
/// entries. Chunks need not be consecutive or in any order in memory: a runtime that hands out
/// chunks from a pool is described as it is ([`IndirectTensor::from_chunks`]). The tensor's own
/// constructors ([`IndirectTensor::zeros`], [`Tensor::to_indirect`], [`Tensor::into_indirect`],
/// `clone`) take the chunks from one pool of their own, back to back and aligned as a
/// [`Tensor`]'s storage, as a runtime's pool hands them out; the table is still the only way to
/// them, and a relayout moves such a table as fast as a contiguous tensor. Index, iterate, read
/// real values and relayout as with a [`Tensor`]; [`IndirectTensor::to_contiguous`] and
/// [`Tensor::to_indirect`] convert.
///
/// The chunk storage `C` says who owns the chunks: the tensor ([`OwnedChunks`], the default),
/// or the caller, who lends them for a lifetime ([`BorrowedChunks`]: an [`IndirectTensorMut`],
/// built over `&mut [T]` chunks or a runtime's table of chunk pointers). Both read, write, hand
/// out chunks and relayout with the same methods.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::tensors::IndirectTensor;
/// let mut t = IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
/// assert_eq!((t.chunk_count(), t.chunk_volume()), (2, 2048));
/// t[[0, 8, 0, 1]] = 5; // row 8 starts the second crouton
/// assert_eq!(t.chunk_of([0, 8, 0, 1]), (1, 1));
/// assert_eq!(t.chunk(1)[1], 5);
/// ```
#[derive(Debug)]
pub struct IndirectTensor<
    T: Element,
    L: Layout,
    I: Interface = Plain,
    C: ChunkStorage<Elem = T> = OwnedChunks<T>,
> {
    mapping: Mapping<L>,
    table: C,
    pad: T,
    interface: I,
}

/// An [`IndirectTensor`] over chunks the caller owns, borrowed exclusively for `'a`: no copy,
/// and nothing freed when it drops. Built from `&mut [T]` chunks
/// ([`IndirectTensorMut::from_chunk_slices`]) or, `unsafe`, from a runtime's table of chunk
/// pointers ([`IndirectTensorMut::from_chunk_ptrs`]); read, written and relayouted as an
/// [`IndirectTensor`].
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::tensors::IndirectTensorMut;
/// let mut pool = vec![0u8; 2 * 2048]; // two croutons, wherever the caller keeps them
/// let (first, second) = pool.split_at_mut(2048);
/// let mut t = IndirectTensorMut::<u8, htp::R4CroutonLayout>::from_chunk_slices([1, 9, 8, 32], [second, first]).unwrap();
/// t[[0, 8, 0, 1]] = 5; // chunk 1: the first half of the pool
/// assert_eq!(t.relayout::<htp::R4FlatMemoryLayout>()[[0, 8, 0, 1]], 5);
/// drop(t);
/// assert_eq!(pool[1], 5);
/// ```
pub type IndirectTensorMut<'a, T, L, I = Plain> = IndirectTensor<T, L, I, BorrowedChunks<'a, T>>;

impl<T: Element, L: Layout, I: Interface> Clone for IndirectTensor<T, L, I> {
    /// The same tensor, its chunks copied into one pool of its own.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let chunks = vec![vec![1u8; 2048].into_boxed_slice(), vec![2u8; 2048].into_boxed_slice()];
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::from_chunks([1, 9, 8, 32], chunks).unwrap();
    /// assert_eq!(t.clone().to_row_major(), t.to_row_major());
    /// ```
    fn clone(&self) -> Self {
        IndirectTensor {
            mapping: self.mapping,
            table: self.table.to_pool(),
            pad: self.pad,
            interface: self.interface.clone(),
        }
    }
}

impl<T: Element + Default, L: Layout + Default> IndirectTensor<T, L> {
    /// A tensor whose every slot, padding included, is `T::default()`, its chunks in one pool.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`IndirectTensor::try_zeros`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<f32, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.to_row_major(), vec![0.0; 450]);
    /// ```
    pub fn zeros(dims: L::Index) -> Self {
        Self::try_zeros(dims).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor of zeros (see [`IndirectTensor::zeros`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the storage does not fit in `usize` elements or one
    /// allocation.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let huge = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::try_zeros([1 << 40, 1 << 40, 1, 1]);
    /// assert!(matches!(huge, Err(LayoutError::Overflow { .. })));
    /// ```
    pub fn try_zeros(dims: L::Index) -> Result<Self, LayoutError> {
        let mapping = Mapping::new(dims)?;
        Self::filled(mapping, T::default(), Plain)
    }
}

impl<T: Element, L: Layout + Default, I: RealValues<T> + ChannelZeros<T>> IndirectTensor<T, L, I> {
    /// A tensor of real zeros read through `interface`: every element and padding slot holds
    /// the stored zero (see [`IndirectTensor::try_zeros_with`]).
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`IndirectTensor::try_zeros_with`]
    /// returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.1, 128);
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout, _>::zeros_with([1, 3, 5, 30], q);
    /// assert!(t.chunk(0).iter().all(|&v| v == 128));
    /// ```
    pub fn zeros_with(dims: L::Index, interface: I) -> Self {
        Self::try_zeros_with(dims, interface).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A tensor of real zeros read through `interface`: every element and padding slot holds
    /// the stored zero.
    ///
    /// # Errors
    /// As for [`IndirectTensor::try_zeros`], and [`LayoutError::Interface`] when the interface
    /// does not fit the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::IndirectTensor;
    /// let q = ScaleOffset::new(0.1, 128);
    /// let t = IndirectTensor::<u8, htp::R4CroutonLayout, _>::try_zeros_with([1, 3, 5, 30], q).unwrap();
    /// assert!(t.chunk(0).iter().all(|&v| v == 128));
    /// assert_eq!(t.real([0, 2, 4, 29]), 0.0);
    /// ```
    pub fn try_zeros_with(dims: L::Index, interface: I) -> Result<Self, LayoutError> {
        Ok(Tensor::try_zeros_with(dims, interface)?.into_indirect())
    }
}

impl<T: Element, L: Layout, I: Interface> IndirectTensor<T, L, I> {
    /// Chunks of `volume` slots, every slot `value`.
    fn filled(mapping: Mapping<L>, value: T, interface: I) -> Result<Self, LayoutError> {
        let volume = mapping.chunk_volume();
        let count = chunk_count(&mapping);
        // One pool, the size of a contiguous tensor's storage: `to_contiguous` cannot fail.
        let table = OwnedChunks::filled(count, volume, value, mapping.dims().as_ref())?;
        Ok(Self {
            mapping,
            table,
            pad: value,
            interface,
        })
    }
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> IndirectTensor<T, L, I, C> {
    /// The layout bound to this tensor's dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.mapping().padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn mapping(&self) -> &Mapping<L> {
        &self.mapping
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.dims(), [1, 3, 5, 30]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.mapping.dims()
    }

    /// Number of logical elements.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]).len(), 450);
    /// ```
    pub fn len(&self) -> usize {
        self.mapping.len()
    }

    /// Whether the tensor has no logical element.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 0, 5, 30]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.mapping.is_empty()
    }

    /// The interface: what the stored values mean.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 1, 1]);
    /// assert_eq!(*t.interface(), Plain);
    /// ```
    pub fn interface(&self) -> &I {
        &self.interface
    }

    /// The value padding holds, and relayouts into this tensor write there.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout, _>::try_zeros_with([1, 1, 1, 1], ScaleOffset::new(1.0, 9)).unwrap();
    /// assert_eq!(t.pad_value(), 9);
    /// ```
    pub fn pad_value(&self) -> T {
        self.pad
    }

    /// Number of chunks in the table.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([2, 9, 17, 40]);
    /// assert_eq!(t.chunk_count(), 2 * 2 * 3 * 2);
    /// ```
    pub fn chunk_count(&self) -> usize {
        self.table.len()
    }

    /// Elements in each chunk, padding included (the product of the layout's innermost, fixed
    /// block sizes; 1 for a layout without them).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert_eq!(tensor_layout::tensors::IndirectTensor::<u8, onednn::nChw16c>::zeros([1, 3, 2, 2]).chunk_volume(), 16);
    /// ```
    pub fn chunk_volume(&self) -> usize {
        self.mapping.chunk_volume()
    }

    /// The chunk that holds logical `index`, and the element's offset inside it.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 16, 32]);
    /// assert_eq!(t.chunk_of([0, 9, 2, 5]), (2, 1 * 256 + 2 * 32 + 5));
    /// ```
    pub fn chunk_of(&self, index: L::Index) -> (usize, usize) {
        let offset = self
            .mapping
            .try_offset(index)
            .unwrap_or_else(|e| panic!("{e}"));
        let volume = self.chunk_volume();
        (offset / volume, offset % volume)
    }

    /// Chunk `n`, padding included.
    ///
    /// # Panics
    /// When `n` is not below [`IndirectTensor::chunk_count`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.chunk(0).len(), 2048);
    /// ```
    pub fn chunk(&self, n: usize) -> &[T] {
        self.table.chunk(n)
    }

    /// Chunk `n`, writable.
    ///
    /// # Panics
    /// When `n` is not below [`IndirectTensor::chunk_count`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// t.chunk_mut(0)[32] = 7; // pixel (0, 1), channel 0
    /// assert_eq!(t[[0, 0, 1, 0]], 7);
    /// ```
    pub fn chunk_mut(&mut self, n: usize) -> &mut [T] {
        self.table.chunk_mut(n)
    }

    /// The chunks in chunk-number order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// assert_eq!(t.chunk_slices().map(<[u8]>::len).sum::<usize>(), 2 * 2048);
    /// ```
    pub fn chunk_slices(&self) -> impl ExactSizeIterator<Item = &[T]> + '_ {
        self.table.chunks().iter()
    }

    /// The chunks in chunk-number order, writable.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// t.chunk_slices_mut().for_each(|chunk| chunk.fill(1));
    /// assert_eq!(t[[0, 8, 7, 31]], 1);
    /// ```
    pub fn chunk_slices_mut(&mut self) -> impl ExactSizeIterator<Item = &mut [T]> + '_ {
        self.table.chunks_mut().each_mut()
    }

    /// The element at logical `index`, `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!((t.get([0, 2, 4, 29]), t.get([0, 3, 0, 0])), (Some(&0), None));
    /// ```
    pub fn get(&self, index: L::Index) -> Option<&T> {
        let offset = self.mapping.checked_offset(index)?;
        Some(self.table.slot(offset))
    }

    /// The element at logical `index`, writable; `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// *t.get_mut([0, 1, 1, 1]).unwrap() = 4;
    /// assert_eq!(t[[0, 1, 1, 1]], 4);
    /// ```
    pub fn get_mut(&mut self, index: L::Index) -> Option<&mut T> {
        let offset = self.mapping.checked_offset(index)?;
        Some(self.table.slot_mut(offset))
    }

    /// The logical elements with their indices, in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 1, 2]);
    /// assert_eq!(t.indexed_iter().collect::<Vec<_>>(), [([0, 0, 0, 0], &0), ([0, 0, 0, 1], &0)]);
    /// ```
    pub fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (L::Index, &T)> + '_ {
        crate::mappings::RowMajorIndices::new(self.dims()).map(move |index| (index, &self[index]))
    }

    /// The logical elements in row-major order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 1, 2]);
    /// assert_eq!(t.iter().count(), 2);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        self.indexed_iter().map(|(_, value)| value)
    }

    /// The logical elements in row-major order, copied out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 2, 2, 2], |i| i.iter().sum::<usize>() as u8);
    /// assert_eq!(t.to_indirect().to_row_major(), t.to_row_major());
    /// ```
    pub fn to_row_major(&self) -> Vec<T> {
        self.iter().copied().collect()
    }

    /// The real value of the element at `index`.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 2);
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout, _>::try_zeros_with([1, 1, 1, 1], q).unwrap();
    /// assert_eq!(t.real([0, 0, 0, 0]), 0.0);
    /// ```
    pub fn real(&self, index: L::Index) -> f32
    where
        I: RealValues<T>,
    {
        self.interface.real(self[index], self.channel_of(&index))
    }

    /// Stores the real `value` at `index` (rounded to nearest, ties to even, saturated).
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 2);
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout, _>::try_zeros_with([1, 1, 1, 1], q).unwrap();
    /// t.set_real([0, 0, 0, 0], 1.0);
    /// assert_eq!(t[[0, 0, 0, 0]], 4);
    /// ```
    pub fn set_real(&mut self, index: L::Index, value: f32)
    where
        I: RealValues<T>,
    {
        let channel = self.channel_of(&index);
        self[index] = self.interface.stored(value, channel);
    }

    /// The index along the interface's channel axis of `index` (0 for per-tensor interfaces).
    fn channel_of(&self, index: &L::Index) -> usize {
        let axes = self.mapping.layout().axis_word();
        channel_position(&self.interface, &axes).map_or(0, |d| index[d])
    }
}

/// Chunks in a mapping's storage.
fn chunk_count<L: Layout>(mapping: &Mapping<L>) -> usize {
    mapping.storage_len() / mapping.chunk_volume()
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> Index<L::Index>
    for IndirectTensor<T, L, I, C>
{
    type Output = T;

    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn index(&self, index: L::Index) -> &T {
        let (chunk, at) = self.chunk_of(index);
        &self.table.chunk(chunk)[at]
    }
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> IndexMut<L::Index>
    for IndirectTensor<T, L, I, C>
{
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn index_mut(&mut self, index: L::Index) -> &mut T {
        let (chunk, at) = self.chunk_of(index);
        &mut self.table.chunk_mut(chunk)[at]
    }
}
