//! One chunk of a chunked tensor, addressed by coordinates inside the chunk: [`ChunkView`] and
//! [`ChunkViewMut`].

use crate::{
    ChunkedMemoryLayout, Layout, LayoutError, Mapping, axes::AxisNames, layouts::ChunkList,
};
use alloc::vec::Vec;
use const_panic::concat_panic;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};

/// Where a chunk lies in its tensor: its number, its first element's logical index, and the part
/// of its box inside the dims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChunkPlace<I> {
    pub number: usize,
    pub origin: I,
    pub dims: I,
}

/// One chunk of a tensor in a chunked layout `L`, read-only: its [`CHUNK_VOLUME`] storage slots
/// (padding included) and its place in the tensor, addressed by coordinates inside the chunk.
///
/// Coordinate `local` of the chunk is the tensor's element `origin() + local`, and lies at
/// [`offset_in_chunk(local)`] among the chunk's slots. Coordinates run below [`CHUNK_SHAPE`];
/// those below [`ChunkView::dims`] are the tensor's elements, the others its padding.
///
/// [`CHUNK_VOLUME`]: ChunkedMemoryLayout::CHUNK_VOLUME
/// [`CHUNK_SHAPE`]: ChunkedMemoryLayout::CHUNK_SHAPE
/// [`offset_in_chunk(local)`]: ChunkedMemoryLayout::offset_in_chunk
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u16, htp::R4CroutonLayout>::from_fn([1, 10, 8, 40], |[_, h, w, c]| (h * 1000 + w * 100 + c) as u16);
/// let chunk = t.chunk_view(3).unwrap(); // rows 8-15, channels 32-63
/// assert_eq!(chunk.origin(), [0, 8, 0, 32]);
/// assert_eq!(chunk.dims(), [1, 2, 8, 8]); // rows 10-15 and channels 40-63 are padding
/// assert_eq!(chunk[[0, 1, 2, 3]], t[[0, 9, 2, 35]]);
/// assert_eq!(chunk.get([0, 2, 0, 0]), None); // row 10: padding
/// assert_eq!(chunk.as_raw().len(), 2048);
/// ```
pub struct ChunkView<'a, T, L: Layout> {
    data: &'a [T],
    place: ChunkPlace<L::Index>,
    layout: PhantomData<L>,
}

/// One chunk of a tensor in a chunked layout `L`, writable (see [`ChunkView`]).
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 64]);
/// let mut chunk = t.chunk_view_mut(1).unwrap(); // channels 32-63
/// chunk[[0, 7, 0, 1]] = 5;
/// assert_eq!(t[[0, 7, 0, 33]], 5);
/// ```
pub struct ChunkViewMut<'a, T, L: Layout> {
    data: &'a mut [T],
    place: ChunkPlace<L::Index>,
    layout: PhantomData<L>,
}

/// A chunk that holds an element, and the element's coordinates inside it: what
/// [`TensorBase::chunk_view_at`](crate::tensors::TensorBase::chunk_view_at) answers.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::tensors::ChunkAt;
/// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 32]);
/// let (chunk, local): ChunkAt<'_, u8, htp::R4CroutonLayout> = t.chunk_view_at([0, 9, 1, 2]).unwrap();
/// assert_eq!((chunk.number(), local), (1, [0, 1, 1, 2]));
/// ```
pub type ChunkAt<'a, T, L> = (ChunkView<'a, T, L>, <L as Layout>::Index);

impl<'a, T, L: Layout> ChunkView<'a, T, L> {
    /// A chunk from its slots and its place (checked by the caller).
    pub(crate) fn new(data: &'a [T], place: ChunkPlace<L::Index>) -> Self {
        Self {
            data,
            place,
            layout: PhantomData,
        }
    }
}

impl<'a, T, const RANK: usize, C: ChunkList, N: AxisNames>
    ChunkView<'a, T, ChunkedMemoryLayout<RANK, C, N>>
{
    /// This chunk, that holds tensor index `index`, with `index`'s coordinates inside it.
    pub(crate) fn holding(
        self,
        index: [usize; RANK],
    ) -> ChunkAt<'a, T, ChunkedMemoryLayout<RANK, C, N>> {
        match self.local(index) {
            Some(local) => (self, local),
            None => unreachable!("the chunk that holds an index holds it in its box"),
        }
    }
}

impl<'a, T, L: Layout> ChunkViewMut<'a, T, L> {
    /// A chunk from its slots and its place (checked by the caller).
    pub(crate) fn new(data: &'a mut [T], place: ChunkPlace<L::Index>) -> Self {
        Self {
            data,
            place,
            layout: PhantomData,
        }
    }
}

/// Where chunk `number` of `mapping` starts in storage, and its place in the tensor.
pub(crate) fn chunk_place<const RANK: usize, C: ChunkList, N: AxisNames>(
    mapping: &Mapping<ChunkedMemoryLayout<RANK, C, N>>,
    number: usize,
) -> Result<(usize, ChunkPlace<[usize; RANK]>), LayoutError> {
    let (start, origin) = mapping.chunk_start(number)?;
    let dims = mapping.chunk_dims(origin);
    Ok((
        start,
        ChunkPlace {
            number,
            origin,
            dims,
        },
    ))
}

/// The panic of an index outside a chunk's elements.
fn out_of_chunk<const RANK: usize>(local: [usize; RANK], dims: [usize; RANK]) -> ! {
    let err = LayoutError::IndexOutOfBounds {
        index: Vec::from(local),
        dims: Vec::from(dims),
    };
    panic!("{err} (coordinates inside a chunk)")
}

/// Stops the build when an array of `V` slots is asked of a chunk of `volume`.
const fn check_array_length<const V: usize>(volume: usize) {
    if V != volume {
        concat_panic!(
            "a chunk of this layout holds ",
            volume,
            " slots (its CHUNK_VOLUME), not ",
            V,
            ": write the array's length as the layout's CHUNK_VOLUME"
        );
    }
}

/// The calls [`ChunkView`] and [`ChunkViewMut`] share, written once over the slots.
macro_rules! chunk_reads {
    ($name:ident, $life:lifetime) => {
        impl<'a, T, const RANK: usize, C: ChunkList, N: AxisNames>
            $name<'a, T, ChunkedMemoryLayout<RANK, C, N>>
        {
            /// The chunk's number: its place in the order of [`Mapping::chunk_start`](crate::Mapping::chunk_start).
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 64]);
            /// assert_eq!(t.chunk_view(1).unwrap().number(), 1);
            /// ```
            pub fn number(&self) -> usize {
                self.place.number
            }

            /// The logical index of the chunk's first element: the corner of its box, each
            /// coordinate a multiple of the block (HTP's `get_raw` argument).
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, onednn::nChw16c>::zeros([1, 32, 2, 3]);
            /// assert_eq!(t.chunk_view(7).unwrap().origin(), [0, 16, 0, 1]);
            /// ```
            pub fn origin(&self) -> [usize; RANK] {
                self.place.origin
            }

            /// The part of the chunk's box that holds elements of the tensor: the chunk shape,
            /// cut where the tensor's dims end. Coordinates below it are elements, the others
            /// padding.
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
            /// assert_eq!(t.chunk_view(0).unwrap().dims(), [1, 3, 5, 30]);
            /// ```
            pub fn dims(&self) -> [usize; RANK] {
                self.place.dims
            }

            /// The chunk's whole box, padding included: the layout's
            /// [`CHUNK_SHAPE`](ChunkedMemoryLayout::CHUNK_SHAPE).
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
            /// assert_eq!(t.chunk_view(0).unwrap().padded_dims(), [1, 8, 8, 32]);
            /// ```
            pub fn padded_dims(&self) -> [usize; RANK] {
                ChunkedMemoryLayout::<RANK, C, N>::CHUNK_SHAPE
            }

            /// The tensor index of the chunk's coordinate `local`: `origin() + local`.
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 32]);
            /// assert_eq!(t.chunk_view(1).unwrap().tensor_index([0, 1, 2, 3]), [0, 9, 2, 3]);
            /// ```
            pub fn tensor_index(&self, local: [usize; RANK]) -> [usize; RANK] {
                core::array::from_fn(|d| self.place.origin[d] + local[d])
            }

            /// The chunk's coordinate of tensor index `index`: `index - origin()`, the inverse
            /// of [`tensor_index`](Self::tensor_index); `None` when `index` lies outside the
            /// chunk's box.
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 32]);
            /// let chunk = t.chunk_view(1).unwrap();
            /// assert_eq!(chunk.local([0, 9, 2, 3]), Some([0, 1, 2, 3]));
            /// assert_eq!(chunk.local([0, 7, 2, 3]), None); // chunk 0's row
            /// ```
            pub fn local(&self, index: [usize; RANK]) -> Option<[usize; RANK]> {
                let shape = ChunkedMemoryLayout::<RANK, C, N>::CHUNK_SHAPE;
                let mut local = [0; RANK];
                for d in 0..RANK {
                    local[d] = index[d].checked_sub(self.place.origin[d])?;
                    if local[d] >= shape[d] {
                        return None;
                    }
                }
                Some(local)
            }

            /// The chunk's storage slots in memory order, padding included: [`CHUNK_VOLUME`] of
            /// them.
            ///
            /// [`CHUNK_VOLUME`]: ChunkedMemoryLayout::CHUNK_VOLUME
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 1, 2], |[.., c]| c as u8 + 1);
            /// assert_eq!(t.chunk_view(0).unwrap().as_raw()[..3], [1, 2, 0]);
            /// ```
            pub fn as_raw(&self) -> &$life [T] {
                &*self.data
            }

            /// The chunk's slots as an array of the layout's chunk volume, for code whose loops
            /// the compiler should unroll: `V` is checked against
            /// [`CHUNK_VOLUME`](ChunkedMemoryLayout::CHUNK_VOLUME) at compile time (another
            /// `V` does not build), so indexing with constants needs no bounds check.
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// type Crouton = htp::R4CroutonLayout;
            /// let t = Tensor::<u8, Crouton>::from_fn([1, 8, 8, 32], |[_, h, ..]| h as u8);
            /// let chunk = t.chunk_view(0).unwrap();
            /// let slots: &[u8; Crouton::CHUNK_VOLUME] = chunk.as_array();
            /// assert_eq!(slots[Crouton::offset_in_chunk([0, 5, 0, 0])], 5);
            /// ```
            ///
            /// ```compile_fail
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
            /// let wrong: &[u8; 1024] = t.chunk_view(0).unwrap().as_array(); // 2048 slots
            /// ```
            pub fn as_array<const V: usize>(&self) -> &$life [T; V] {
                let () = const { check_array_length::<V>(ChunkedMemoryLayout::<RANK, C, N>::CHUNK_VOLUME) };
                match <&[T; V]>::try_from(self.as_raw()) {
                    Ok(array) => array,
                    Err(_) => unreachable!("a chunk holds CHUNK_VOLUME slots"),
                }
            }

            /// The element at the chunk's coordinate `local`, `None` for padding or outside
            /// the chunk.
            ///
            /// ```
            /// use tensor_layout::prelude::*;
            /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h + w + c) as u8);
            /// let chunk = t.chunk_view(0).unwrap();
            /// assert_eq!(chunk.get([0, 2, 4, 29]), Some(&35));
            /// assert_eq!(chunk.get([0, 2, 4, 30]), None); // padding
            /// assert_eq!(chunk.get([0, 8, 0, 0]), None); // outside the chunk
            /// ```
            pub fn get(&self, local: [usize; RANK]) -> Option<&$life T> {
                let slots = self.as_raw();
                self.slot_of(local).map(|slot| &slots[slot])
            }

            /// The slot of the chunk's coordinate `local` when it is an element.
            fn slot_of(&self, local: [usize; RANK]) -> Option<usize> {
                let dims = self.place.dims;
                (0..RANK)
                    .all(|d| local[d] < dims[d])
                    .then(|| ChunkedMemoryLayout::<RANK, C, N>::offset_in_chunk(local))
            }
        }

        impl<T, const RANK: usize, C: ChunkList, N: AxisNames> Index<[usize; RANK]>
            for $name<'_, T, ChunkedMemoryLayout<RANK, C, N>>
        {
            type Output = T;

            /// # Panics
            /// When `local` is not an element of the chunk (padding, or outside the chunk),
            /// naming it and the chunk's [`dims`](Self::dims).
            fn index(&self, local: [usize; RANK]) -> &T {
                match self.get(local) {
                    Some(value) => value,
                    None => out_of_chunk(local, self.place.dims),
                }
            }
        }

        impl<T, L: Layout> fmt::Debug for $name<'_, T, L> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("number", &self.place.number)
                    .field("origin", &self.place.origin)
                    .field("dims", &self.place.dims)
                    .finish_non_exhaustive()
            }
        }
    };
}

chunk_reads!(ChunkView, 'a);
chunk_reads!(ChunkViewMut, '_);

impl<'a, T, const RANK: usize, C: ChunkList, N: AxisNames>
    ChunkViewMut<'a, T, ChunkedMemoryLayout<RANK, C, N>>
{
    /// The chunk's storage slots, writable, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    /// t.chunk_view_mut(0).unwrap().as_raw_mut()[32] = 4;
    /// assert_eq!(t[[0, 0, 1, 0]], 4);
    /// ```
    pub fn as_raw_mut(&mut self) -> &mut [T] {
        self.data
    }

    /// The chunk's slots as a writable array of the layout's chunk volume (see
    /// [`ChunkViewMut::as_array`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// type Crouton = htp::R4CroutonLayout;
    /// let mut t = Tensor::<u8, Crouton>::zeros([1, 8, 8, 32]);
    /// let mut chunk = t.chunk_view_mut(0).unwrap();
    /// let slots: &mut [u8; Crouton::CHUNK_VOLUME] = chunk.as_array_mut();
    /// slots[Crouton::offset_in_chunk([0, 1, 0, 0])] = 9;
    /// assert_eq!(t[[0, 1, 0, 0]], 9);
    /// ```
    pub fn as_array_mut<const V: usize>(&mut self) -> &mut [T; V] {
        let () = const { check_array_length::<V>(ChunkedMemoryLayout::<RANK, C, N>::CHUNK_VOLUME) };
        match <&mut [T; V]>::try_from(&mut *self.data) {
            Ok(array) => array,
            Err(_) => unreachable!("a chunk holds CHUNK_VOLUME slots"),
        }
    }

    /// The element at the chunk's coordinate `local`, writable; `None` for padding or outside
    /// the chunk.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let mut chunk = t.chunk_view_mut(0).unwrap();
    /// *chunk.get_mut([0, 2, 4, 29]).unwrap() = 1;
    /// assert!(chunk.get_mut([0, 2, 4, 30]).is_none()); // padding stays the pad value
    /// assert_eq!(t[[0, 2, 4, 29]], 1);
    /// ```
    pub fn get_mut(&mut self, local: [usize; RANK]) -> Option<&mut T> {
        self.slot_of(local).map(|slot| &mut self.data[slot])
    }

    /// This chunk read-only, for as long as it is borrowed.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let chunk = t.chunk_view_mut(0).unwrap();
    /// assert_eq!(chunk.view().dims(), [1, 3, 5, 30]);
    /// ```
    pub fn view(&self) -> ChunkView<'_, T, ChunkedMemoryLayout<RANK, C, N>> {
        ChunkView::new(self.data, self.place)
    }
}

impl<T, const RANK: usize, C: ChunkList, N: AxisNames> IndexMut<[usize; RANK]>
    for ChunkViewMut<'_, T, ChunkedMemoryLayout<RANK, C, N>>
{
    /// # Panics
    /// When `local` is not an element of the chunk (padding, or outside the chunk), naming it
    /// and the chunk's [`dims`](Self::dims).
    fn index_mut(&mut self, local: [usize; RANK]) -> &mut T {
        let dims = self.place.dims;
        match self.get_mut(local) {
            Some(value) => value,
            None => out_of_chunk(local, dims),
        }
    }
}

impl<T, L: Layout> Clone for ChunkView<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, L: Layout> Copy for ChunkView<'_, T, L> {}
