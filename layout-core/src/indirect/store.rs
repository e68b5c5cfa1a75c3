//! Where an [`IndirectTensor`](super::IndirectTensor)'s chunks live: a table of thin pointers
//! to chunks of one length, the chunks either carved from one pool that the tensor owns (an
//! [`AlignedBuffer`], chunks back to back in chunk order, as a runtime's chunk pool hands them
//! out) or the caller's own boxes, wherever the allocator put them.
//!
//! The pool matters for speed: small chunks (128-byte depth-32 chunks) each boxed on their
//! own lie 144 bytes apart behind malloc's headers, off the 64-byte line grid, and a relayout
//! over them ran at 0.64 of the same loop over chunks 128 bytes apart and aligned.

use crate::LayoutError;
use crate::storage::AlignedBuffer;
use crate::table_chunks::{TableChunks, TableChunksMut};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ptr::NonNull;

/// A table of chunks of `volume` elements each, owned.
///
/// Invariant: every pointer of `starts` is valid for reads and writes of `volume` initialised
/// elements while the store lives, the chunks do not overlap, and `owner` says how each was
/// allocated.
pub(super) struct ChunkStore<T: Copy> {
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
unsafe impl<T: Copy + Send> Send for ChunkStore<T> {}
// SAFETY: shared access reads the `T`s only, as through `&Vec<Box<[T]>>`.
unsafe impl<T: Copy + Sync> Sync for ChunkStore<T> {}

impl<T: Copy> ChunkStore<T> {
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
        ChunkStore {
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
        ChunkStore {
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

    /// Number of chunks.
    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The chunks, borrowed shared.
    pub(super) fn chunks(&self) -> TableChunks<'_, T> {
        // SAFETY: the store's invariant; `&self` keeps writers away.
        unsafe { TableChunks::new(&self.starts, self.volume) }
    }

    /// The chunks, borrowed exclusively.
    pub(super) fn chunks_mut(&mut self) -> TableChunksMut<'_, T> {
        // SAFETY: the store's invariant; `&mut self` keeps everyone else away.
        unsafe { TableChunksMut::new(&self.starts, self.volume) }
    }

    /// Every chunk's slots end to end, in chunk order, where the chunks are the store's own
    /// pool; `None` for the caller's boxes.
    pub(super) fn pooled_slots(&self) -> Option<&[T]> {
        match &self.owner {
            Owner::Pool(buffer) => Some(&buffer[..]),
            Owner::Boxes => None,
        }
    }

    /// [`pooled_slots`](Self::pooled_slots), writable.
    pub(super) fn pooled_slots_mut(&mut self) -> Option<&mut [T]> {
        match &mut self.owner {
            Owner::Pool(buffer) => Some(&mut buffer[..]),
            Owner::Boxes => None,
        }
    }

    /// Chunk `n`.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    pub(super) fn chunk(&self, n: usize) -> &[T] {
        self.chunks().get(n)
    }

    /// Chunk `n`, writable.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    pub(super) fn chunk_mut(&mut self, n: usize) -> &mut [T] {
        // SAFETY: the store's invariant; the chunk is borrowed through `&mut self`.
        unsafe { core::slice::from_raw_parts_mut(self.starts[n].as_ptr(), self.volume) }
    }

    /// Storage slot `n` of the layout: slot `n % volume` of chunk `n / volume`.
    ///
    /// # Panics
    /// When `n` lies past the last chunk.
    pub(super) fn slot(&self, n: usize) -> &T {
        &self.chunk(n / self.volume)[n % self.volume]
    }

    /// Storage slot `n`, writable (see [`slot`](Self::slot)).
    ///
    /// # Panics
    /// When `n` lies past the last chunk.
    pub(super) fn slot_mut(&mut self, n: usize) -> &mut T {
        let volume = self.volume;
        &mut self.chunk_mut(n / volume)[n % volume]
    }
}

impl<T: Copy> Clone for ChunkStore<T> {
    /// A pool holding copies of the chunks, in chunk order.
    fn clone(&self) -> Self {
        let buffer = match self.pooled_slots() {
            Some(slots) => AlignedBuffer::from_slice(slots),
            None => AlignedBuffer::from_vec(self.chunks().iter().flatten().copied().collect()),
        };
        Self::pool(buffer, self.volume)
    }
}

impl<T: Copy + core::fmt::Debug> core::fmt::Debug for ChunkStore<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.chunks().iter()).finish()
    }
}

impl<T: Copy> Drop for ChunkStore<T> {
    fn drop(&mut self) {
        if let Owner::Boxes = self.owner {
            self.take_boxes().for_each(drop);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn pools_hold_aligned_chunks_back_to_back() {
        let store = ChunkStore::<u8>::filled(5, 128, 3, &[]).unwrap();
        let starts: Vec<usize> = store.starts.iter().map(|p| p.as_ptr() as usize).collect();
        assert_eq!(starts[0] % 64, 0);
        assert!(starts.windows(2).all(|w| w[1] - w[0] == 128));
        assert!(store.chunks().iter().all(|c| c == [3; 128]));

        let slots: Vec<u16> = (0..12).collect();
        let mut pool = ChunkStore::pool(AlignedBuffer::from_slice(&slots), 4);
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
        let mut store = ChunkStore::from_boxes(chunks, 2);
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
        let boxed = ChunkStore::from_boxes(chunks, 3);
        let mut pool = boxed.clone();
        pool.chunks_mut().each_mut().for_each(|c| c[0] = 0);
        assert_eq!(boxed.chunks().iter().collect::<Vec<_>>(), [[1; 3], [2; 3]]);
        assert_eq!(pool.into_boxes().concat(), [0, 1, 1, 0, 2, 2]);
        drop(boxed);
    }

    #[test]
    fn empty_pools_and_zero_sized_elements_allocate_nothing() {
        let empty = ChunkStore::<f32>::filled(0, 16, 0.0, &[]).unwrap();
        assert_eq!((empty.len(), empty.chunks().iter().count()), (0, 0));
        let units = ChunkStore::<()>::filled(3, 4, (), &[]).unwrap();
        assert_eq!(units.chunk(2).len(), 4);
        assert_eq!(units.clone().into_boxes().len(), 3);
    }

    #[test]
    fn pools_past_isize_are_errors() {
        let err = ChunkStore::<u32>::filled(usize::MAX / 4, 2, 0, &[7]).unwrap_err();
        assert!(matches!(err, LayoutError::Overflow { .. }));
    }
}
