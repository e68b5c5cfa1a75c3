//! Where an [`IndirectTensor`](super::IndirectTensor)'s chunks live: a table of thin pointers
//! to chunks of one length, behind one of two [`ChunkStorage`]s. [`OwnedChunks`]: the chunks
//! either carved from one pool that the tensor owns (an [`AlignedBuffer`], chunks back to back
//! in chunk order, as a runtime's chunk pool hands them out) or the caller's own boxes, wherever
//! the allocator put them. [`BorrowedChunks`]: chunks the caller keeps, borrowed for a lifetime.
//! Every read, write and relayout of a chunk table goes through [`TableAccess`], the same code
//! for both.
//!
//! The pool matters for speed: small chunks (128-byte depth-32 chunks) each boxed on their
//! own lie 144 bytes apart behind malloc's headers, off the 64-byte line grid, and a relayout
//! over them ran at 0.64 of the same loop over chunks 128 bytes apart and aligned.

use crate::LayoutError;
use crate::storage::AlignedBuffer;
use crate::table_chunks::{TableChunks, TableChunksMut};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// Where an [`IndirectTensor`](crate::tensors::IndirectTensor)'s chunks live: [`OwnedChunks`] (the
/// default; the tensor owns them) or [`BorrowedChunks`] (the caller owns them, and lends them
/// for a lifetime: [`IndirectTensorMut`](crate::tensors::IndirectTensorMut)). Sealed: these two are all
/// there are.
pub trait ChunkStorage: sealed::Sealed {}

mod sealed {
    use core::ptr::NonNull;

    /// The chunk storages of this module are all there are (see
    /// [`ChunkStorage`](super::ChunkStorage)).
    ///
    /// # Safety
    /// Every pointer [`table`](Sealed::table) returns is valid for reads and writes of
    /// the volume it returns in initialised elements while the storage lives (and is not
    /// moved out of), the chunks do not overlap, and nothing but the storage reads or writes
    /// them meanwhile: a shared borrow of the storage may read them, an exclusive one write.
    pub unsafe trait Sealed {
        /// The element type.
        type Elem: Copy;

        /// The first slot of each chunk, in chunk-number order, and the elements in each (the
        /// volume).
        fn table(&self) -> (&[NonNull<Self::Elem>], usize);

        /// Every chunk's slots end to end, in chunk order, where the chunks lie so (the
        /// tensor's own pool); `None` otherwise.
        fn pooled_slots(&self) -> Option<&[Self::Elem]> {
            None
        }

        /// [`pooled_slots`](Sealed::pooled_slots), writable.
        fn pooled_slots_mut(&mut self) -> Option<&mut [Self::Elem]> {
            None
        }
    }
}

/// The chunks of a [`ChunkStorage`], as slices and slots: what every chunk-table method
/// reads and writes through, whoever owns the chunks.
pub(crate) trait TableAccess: ChunkStorage {
    /// Number of chunks.
    fn len(&self) -> usize {
        self.table().0.len()
    }

    /// The chunks, borrowed shared.
    fn chunks(&self) -> TableChunks<'_, Self::Elem> {
        let (starts, volume) = self.table();
        // SAFETY: the storage's contract (`Sealed`); `&self` keeps writers away.
        unsafe { TableChunks::new(starts, volume) }
    }

    /// The chunks, borrowed exclusively.
    fn chunks_mut(&mut self) -> TableChunksMut<'_, Self::Elem> {
        let (starts, volume) = self.table();
        // SAFETY: the storage's contract (`Sealed`); `&mut self` keeps everyone else away.
        unsafe { TableChunksMut::new(starts, volume) }
    }

    /// Chunk `n`.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    fn chunk(&self, n: usize) -> &[Self::Elem] {
        self.chunks().get(n)
    }

    /// Chunk `n`, writable.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    fn chunk_mut(&mut self, n: usize) -> &mut [Self::Elem] {
        let (starts, volume) = self.table();
        let start = starts[n];
        // SAFETY: the storage's contract (`Sealed`); the chunk is borrowed through `&mut self`.
        unsafe { core::slice::from_raw_parts_mut(start.as_ptr(), volume) }
    }

    /// Storage slot `n` of the layout: slot `n % volume` of chunk `n / volume`.
    ///
    /// # Panics
    /// When `n` lies past the last chunk.
    fn slot(&self, n: usize) -> &Self::Elem {
        let volume = self.table().1;
        &self.chunk(n / volume)[n % volume]
    }

    /// Storage slot `n`, writable (see [`slot`](Self::slot)).
    ///
    /// # Panics
    /// When `n` lies past the last chunk.
    fn slot_mut(&mut self, n: usize) -> &mut Self::Elem {
        let volume = self.table().1;
        &mut self.chunk_mut(n / volume)[n % volume]
    }

    /// A pool holding copies of the chunks, in chunk order.
    fn to_pool(&self) -> OwnedChunks<Self::Elem> {
        let buffer = match self.pooled_slots() {
            Some(slots) => AlignedBuffer::from_slice(slots),
            None => AlignedBuffer::from_vec(self.chunks().iter().flatten().copied().collect()),
        };
        OwnedChunks::pool(buffer, self.table().1)
    }
}

impl<C: ChunkStorage> TableAccess for C {}

/// The chunks of an [`IndirectTensor`](crate::tensors::IndirectTensor) that owns them: one pool of its
/// own ([`IndirectTensor::zeros`](crate::tensors::IndirectTensor::zeros),
/// [`TensorBase::to_indirect`](crate::tensors::TensorBase::to_indirect), ...) or the caller's boxes
/// ([`IndirectTensor::from_chunks`](crate::tensors::IndirectTensor::from_chunks)). Named only as the
/// default type parameter of [`IndirectTensor`](crate::tensors::IndirectTensor).
//
// Invariant: every pointer of `starts` is valid for reads and writes of `volume` initialised
// elements while the store lives, the chunks do not overlap, and `owner` says how each was
// allocated.
pub struct OwnedChunks<T: Copy> {
    starts: Vec<NonNull<T>>,
    volume: usize,
    owner: Owner<T>,
}

/// How a store's chunks were allocated.
enum Owner<T: Copy> {
    /// Carved from one buffer, chunk `n` its slots `n * volume .. (n + 1) * volume`.
    Pool(AlignedBuffer<T>),
    /// Each chunk a `Box<[T]>` of `volume` elements, its pointer kept from `Box::into_raw`.
    Boxes,
}

// SAFETY: the store owns its `T`s, as a `Vec<Box<[T]>>` does.
unsafe impl<T: Copy + Send> Send for OwnedChunks<T> {}
// SAFETY: shared access reads the `T`s only, as through `&Vec<Box<[T]>>`.
unsafe impl<T: Copy + Sync> Sync for OwnedChunks<T> {}

// SAFETY: the store's invariant; the chunks are its own, reached only through it.
unsafe impl<T: Copy> sealed::Sealed for OwnedChunks<T> {
    type Elem = T;

    fn table(&self) -> (&[NonNull<T>], usize) {
        (&self.starts, self.volume)
    }

    fn pooled_slots(&self) -> Option<&[T]> {
        match &self.owner {
            Owner::Pool(buffer) => Some(&buffer[..]),
            Owner::Boxes => None,
        }
    }

    fn pooled_slots_mut(&mut self) -> Option<&mut [T]> {
        match &mut self.owner {
            Owner::Pool(buffer) => Some(&mut buffer[..]),
            Owner::Boxes => None,
        }
    }
}

impl<T: Copy> ChunkStorage for OwnedChunks<T> {}

/// The chunks of an [`IndirectTensorMut`](crate::tensors::IndirectTensorMut): the caller's, borrowed
/// exclusively for `'a`, wherever they lie; nothing is copied or freed. Named only as the type
/// parameter of [`IndirectTensor`](crate::tensors::IndirectTensor) that
/// [`IndirectTensorMut`](crate::tensors::IndirectTensorMut) sets.
//
// Invariant: every pointer of `starts` is valid for reads and writes of `volume` initialised
// elements for `'a`, the chunks do not overlap, and nothing else reads or writes them during
// `'a` (they came from `&'a mut [T]`s, or from a caller who promised as much).
pub struct BorrowedChunks<'a, T> {
    starts: Vec<NonNull<T>>,
    volume: usize,
    _chunks: PhantomData<&'a mut [T]>,
}

// SAFETY: the store is an exclusive borrow of `T`s, as `&mut [T]` is.
unsafe impl<T: Send> Send for BorrowedChunks<'_, T> {}
// SAFETY: shared access reads the `T`s only, as through `&&mut [T]`.
unsafe impl<T: Sync> Sync for BorrowedChunks<'_, T> {}

impl<'a, T: Copy> BorrowedChunks<'a, T> {
    /// The chunks `chunks`, each `volume` elements long (checked by the caller).
    pub(super) fn from_slices(
        chunks: impl IntoIterator<Item = &'a mut [T]>,
        volume: usize,
    ) -> Self {
        let starts = chunks
            .into_iter()
            .map(|chunk| {
                debug_assert_eq!(chunk.len(), volume);
                NonNull::from(chunk).cast::<T>()
            })
            .collect();
        BorrowedChunks {
            starts,
            volume,
            _chunks: PhantomData,
        }
    }

    /// The chunks that `starts` point to.
    ///
    /// # Safety
    /// Every pointer of `starts` is valid for reads and writes of `volume` initialised elements
    /// for `'a`, aligned for `T`, the chunks do not overlap, and nothing else reads or writes
    /// them during `'a`.
    pub(super) unsafe fn from_starts(starts: Vec<NonNull<T>>, volume: usize) -> Self {
        BorrowedChunks {
            starts,
            volume,
            _chunks: PhantomData,
        }
    }
}

// SAFETY: the store's invariant; `'a` keeps the chunks lent to it alone.
unsafe impl<T: Copy> sealed::Sealed for BorrowedChunks<'_, T> {
    type Elem = T;

    fn table(&self) -> (&[NonNull<T>], usize) {
        (&self.starts, self.volume)
    }
}

impl<T: Copy> ChunkStorage for BorrowedChunks<'_, T> {}

impl<T: Copy> OwnedChunks<T> {
    /// `count` chunks of `volume` elements in one pool, every slot `value`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] (naming `dims`) when the pool's size overflows `isize`;
    /// [`LayoutError::Allocation`] when the allocator refuses it.
    pub(super) fn filled(
        count: usize,
        volume: usize,
        value: T,
        dims: &[usize],
    ) -> Result<Self, LayoutError> {
        let overflow = || LayoutError::Overflow {
            dims: Vec::from(dims),
            element_size: Some(size_of::<T>()),
        };
        let slots = count.checked_mul(volume).ok_or_else(overflow)?;
        let buffer = AlignedBuffer::filled(slots, value).map_err(|e| match e {
            LayoutError::Overflow { .. } => overflow(),
            e => e,
        })?;
        Ok(Self::pool(buffer, volume))
    }

    /// The chunks of `volume` elements that `buffer` holds end to end, in it: its length a
    /// multiple of `volume`.
    pub(super) fn pool(mut buffer: AlignedBuffer<T>, volume: usize) -> Self {
        debug_assert!(volume > 0 && buffer.len().is_multiple_of(volume));
        let (base, count) = (buffer.as_mut_ptr(), buffer.len() / volume);
        let starts = (0..count)
            .map(|n| {
                // SAFETY: chunk `n` starts inside the buffer (`n < count`), or at its dangling,
                // aligned pointer where it holds no byte.
                let start = if size_of::<T>() == 0 {
                    base
                } else {
                    unsafe { base.add(n * volume) }
                };
                NonNull::new(start)
                    .unwrap_or_else(|| unreachable!("a buffer's pointer is not null"))
            })
            .collect();
        OwnedChunks {
            starts,
            volume,
            owner: Owner::Pool(buffer),
        }
    }

    /// The caller's chunks as they are, each `volume` elements long (checked by the caller).
    pub(super) fn from_boxes(chunks: Vec<Box<[T]>>, volume: usize) -> Self {
        debug_assert!(chunks.iter().all(|chunk| chunk.len() == volume));
        let starts = chunks
            .into_iter()
            .map(|chunk| {
                let raw = Box::into_raw(chunk).cast::<T>();
                // SAFETY: a box's pointer is never null.
                unsafe { NonNull::new_unchecked(raw) }
            })
            .collect();
        OwnedChunks {
            starts,
            volume,
            owner: Owner::Boxes,
        }
    }

    /// The chunks as boxes: the caller's own where they came as boxes, else copies.
    pub(super) fn into_boxes(mut self) -> Vec<Box<[T]>> {
        match self.owner {
            Owner::Pool(_) => self.chunks().iter().map(Box::from).collect(),
            Owner::Boxes => self.take_boxes().collect(),
        }
    }

    /// The caller's boxes, taken out of a store of [`Owner::Boxes`]: the store keeps no chunk
    /// after, so that dropping it frees none.
    fn take_boxes(&mut self) -> impl Iterator<Item = Box<[T]>> + use<T> {
        debug_assert!(matches!(self.owner, Owner::Boxes), "the caller's boxes");
        let volume = self.volume;
        core::mem::take(&mut self.starts)
            .into_iter()
            .map(move |start| {
                let chunk = core::ptr::slice_from_raw_parts_mut(start.as_ptr(), volume);
                // SAFETY: each pointer came from `Box::into_raw` of a box of `volume` elements
                // (`Owner::Boxes`), and is taken once (the store no longer holds it).
                unsafe { Box::from_raw(chunk) }
            })
    }

    /// The pool itself, where the chunks are the store's own; the store back otherwise.
    pub(super) fn into_pool(mut self) -> Result<AlignedBuffer<T>, Self> {
        if let Owner::Boxes = self.owner {
            return Err(self);
        }
        // No chunk stays behind for the store's drop to free.
        self.starts.clear();
        match core::mem::replace(&mut self.owner, Owner::Boxes) {
            Owner::Pool(buffer) => Ok(buffer),
            Owner::Boxes => unreachable!("a pool, checked above"),
        }
    }
}

impl<T: Copy> Clone for OwnedChunks<T> {
    /// A pool holding copies of the chunks, in chunk order.
    fn clone(&self) -> Self {
        self.to_pool()
    }
}

impl<T: Copy + core::fmt::Debug> core::fmt::Debug for OwnedChunks<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.chunks().iter()).finish()
    }
}

impl<T: Copy + core::fmt::Debug> core::fmt::Debug for BorrowedChunks<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.chunks().iter()).finish()
    }
}

impl<T: Copy> Drop for OwnedChunks<T> {
    fn drop(&mut self) {
        if let Owner::Boxes = self.owner {
            self.take_boxes().for_each(drop);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sealed::Sealed;
    use super::*;
    use alloc::vec;

    #[test]
    fn pools_hold_aligned_chunks_back_to_back() {
        let store = OwnedChunks::<u8>::filled(5, 128, 3, &[]).unwrap();
        let starts: Vec<usize> = store.starts.iter().map(|p| p.as_ptr() as usize).collect();
        assert_eq!(starts[0] % 64, 0);
        assert!(starts.windows(2).all(|w| w[1] - w[0] == 128));
        assert!(store.chunks().iter().all(|c| c == [3; 128]));

        let slots: Vec<u16> = (0..12).collect();
        let mut pool = OwnedChunks::pool(AlignedBuffer::from_slice(&slots), 4);
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.chunk(2), [8, 9, 10, 11]);
        pool.chunk_mut(1)[0] = 40;
        assert_eq!(pool.pooled_slots().unwrap()[4], 40);
        let buffer = pool.into_pool().ok().unwrap();
        assert_eq!(&buffer[..6], [0, 1, 2, 3, 40, 5]);
    }

    #[test]
    fn the_callers_boxes_stay_where_they_are_and_come_back() {
        let chunks = vec![
            vec![1u32, 2].into_boxed_slice(),
            vec![3, 4].into_boxed_slice(),
        ];
        let places: Vec<*const u32> = chunks.iter().map(|c| c.as_ptr()).collect();
        let mut store = OwnedChunks::from_boxes(chunks, 2);
        store.chunk_mut(1)[0] = 30;
        assert!(store.pooled_slots().is_none());
        let store = store.into_pool().err().unwrap();
        let back = store.into_boxes();
        assert_eq!(back.iter().map(|c| c.as_ptr()).collect::<Vec<_>>(), places);
        assert_eq!(back.concat(), [1, 2, 30, 4]);
    }

    #[test]
    fn clones_and_copies_out_of_a_pool_are_apart_from_it() {
        let chunks = vec![
            vec![1i8; 3].into_boxed_slice(),
            vec![2; 3].into_boxed_slice(),
        ];
        let boxed = OwnedChunks::from_boxes(chunks, 3);
        let mut pool = boxed.clone();
        pool.chunks_mut().each_mut().for_each(|c| c[0] = 0);
        assert_eq!(boxed.chunks().iter().collect::<Vec<_>>(), [[1; 3], [2; 3]]);
        assert_eq!(pool.into_boxes().concat(), [0, 1, 1, 0, 2, 2]);
        drop(boxed);
    }

    #[test]
    fn empty_pools_and_zero_sized_elements_allocate_nothing() {
        let empty = OwnedChunks::<f32>::filled(0, 16, 0.0, &[]).unwrap();
        assert_eq!((empty.len(), empty.chunks().iter().count()), (0, 0));
        let units = OwnedChunks::<()>::filled(3, 4, (), &[]).unwrap();
        assert_eq!(units.chunk(2).len(), 4);
        assert_eq!(units.clone().into_boxes().len(), 3);
    }

    #[test]
    fn pools_past_isize_are_errors() {
        let err = OwnedChunks::<u32>::filled(usize::MAX / 4, 2, 0, &[7]).unwrap_err();
        assert!(matches!(err, LayoutError::Overflow { .. }));
    }
}
