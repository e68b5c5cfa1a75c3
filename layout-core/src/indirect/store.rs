//! Where an [`IndirectTensor`](super::IndirectTensor)'s chunks live: a table of thin pointers
//! to chunks of one length, the chunks either carved from one pool that the tensor allocates
//! (back to back in chunk order, the pool aligned to a cache line, as a runtime's chunk pool
//! hands them out) or the caller's own boxes, wherever the allocator put them.
//!
//! The pool matters for speed: small chunks (128-byte depth-32 chunks) each boxed on their
//! own lie 144 bytes apart behind malloc's headers, off the 64-byte line grid, and a relayout
//! over them ran at 0.64 of the same loop over chunks 128 bytes apart and aligned.

use crate::LayoutError;
use crate::table_chunks::{TableChunks, TableChunksMut};
use alloc::alloc::{Layout as Allocation, alloc, dealloc, handle_alloc_error};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ptr::NonNull;

/// The alignment of a chunk pool: a cache line on the processors the kernels are tuned for.
const POOL_ALIGN: usize = 64;

/// A table of chunks of `volume` elements each, owned.
///
/// Invariant: every pointer of `starts` is valid for reads and writes of `volume` initialised
/// elements while the store lives, the chunks do not overlap, and `owner` says how each was
/// allocated.
pub(super) struct ChunkStore<T> {
    starts: Vec<NonNull<T>>,
    volume: usize,
    owner: Owner,
}

/// How a store's chunks were allocated.
enum Owner {
    /// Carved from one allocation of this shape, `None` when it holds no byte.
    Pool(Option<(NonNull<u8>, Allocation)>),
    /// Each chunk a `Box<[T]>` of `volume` elements, its pointer kept from `Box::into_raw`.
    Boxes,
}

// SAFETY: the store owns its `T`s, as a `Vec<Box<[T]>>` does.
unsafe impl<T: Send> Send for ChunkStore<T> {}
// SAFETY: shared access reads the `T`s only, as through `&Vec<Box<[T]>>`.
unsafe impl<T: Sync> Sync for ChunkStore<T> {}

impl<T: Copy> ChunkStore<T> {
    /// `count` chunks of `volume` elements in one pool, every slot `value`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] (with `dims`) when the pool's size overflows `isize`.
    pub(super) fn filled(
        count: usize,
        volume: usize,
        value: T,
        dims: &[usize],
    ) -> Result<Self, LayoutError> {
        let (store, slots) = Self::pool(count, volume, dims)?;
        for i in 0..slots {
            // SAFETY: the pool holds `slots` elements from `starts[0]` (or none).
            unsafe { store.base().add(i).write(value) };
        }
        Ok(store)
    }

    /// The chunks of `volume` elements that `slots` holds end to end, copied into a pool.
    ///
    /// # Errors
    /// As for [`ChunkStore::filled`].
    pub(super) fn copied(slots: &[T], volume: usize, dims: &[usize]) -> Result<Self, LayoutError> {
        let count = slots.len().checked_div(volume).unwrap_or(0);
        let (store, len) = Self::pool(count, volume, dims)?;
        // SAFETY: the pool holds `len = count * volume <= slots.len()` elements from its base,
        // a new allocation apart from `slots`.
        unsafe { core::ptr::copy_nonoverlapping(slots.as_ptr(), store.base(), len) };
        Ok(store)
    }

    /// A pool of `count` chunks, uninitialised, and its number of slots.
    fn pool(count: usize, volume: usize, dims: &[usize]) -> Result<(Self, usize), LayoutError> {
        let overflow = || LayoutError::Overflow {
            dims: Vec::from(dims),
            element_size: Some(size_of::<T>()),
        };
        let slots = count.checked_mul(volume).ok_or_else(overflow)?;
        let bytes = slots.checked_mul(size_of::<T>()).ok_or_else(overflow)?;
        let shape = Allocation::from_size_align(bytes, POOL_ALIGN.max(align_of::<T>()))
            .map_err(|_| overflow())?;
        let (base, pool) = if bytes == 0 {
            (NonNull::<T>::dangling(), None)
        } else {
            // SAFETY: `shape` has a non-zero size.
            let Some(bytes) = NonNull::new(unsafe { alloc(shape) }) else {
                handle_alloc_error(shape)
            };
            (bytes.cast::<T>(), Some((bytes, shape)))
        };
        // Dangling chunks are read as `volume` zero-sized elements or as empty slices.
        let starts = (0..count)
            .map(|n| {
                if bytes == 0 {
                    base
                } else {
                    // SAFETY: chunk `n` starts inside the pool (`n < count`, `volume > 0`).
                    unsafe { base.add(n * volume) }
                }
            })
            .collect();
        let store = ChunkStore {
            starts,
            volume,
            owner: Owner::Pool(pool),
        };
        Ok((store, slots))
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
            Owner::Boxes => {
                // The store keeps no chunk, so that dropping it frees none.
                let starts = core::mem::take(&mut self.starts);
                let volume = self.volume;
                starts
                    .iter()
                    .map(|start| {
                        let chunk = core::ptr::slice_from_raw_parts_mut(start.as_ptr(), volume);
                        // SAFETY: each pointer came from `Box::into_raw` of a box of `volume`
                        // elements, and is handed back once (the store no longer holds it).
                        unsafe { Box::from_raw(chunk) }
                    })
                    .collect()
            }
        }
    }
}

impl<T> ChunkStore<T> {
    /// The pool's first slot (dangling for an empty pool or the caller's boxes).
    fn base(&self) -> *mut T {
        match &self.owner {
            Owner::Pool(Some((bytes, _))) => bytes.cast::<T>().as_ptr(),
            _ => NonNull::dangling().as_ptr(),
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
    /// pool (they then lie that way in memory); `None` for the caller's boxes.
    pub(super) fn pooled_slots(&self) -> Option<&[T]> {
        match self.owner {
            // SAFETY: a pool holds `len() * volume` initialised elements from its base, chunk
            // after chunk (dangling, and zero-sized or none, where it holds no byte); `&self`
            // keeps writers away.
            Owner::Pool(_) => {
                Some(unsafe { core::slice::from_raw_parts(self.base(), self.len() * self.volume) })
            }
            Owner::Boxes => None,
        }
    }

    /// [`pooled_slots`](Self::pooled_slots), writable.
    pub(super) fn pooled_slots_mut(&mut self) -> Option<&mut [T]> {
        match self.owner {
            // SAFETY: as in `pooled_slots`, borrowed through `&mut self`.
            Owner::Pool(_) => Some(unsafe {
                core::slice::from_raw_parts_mut(self.base(), self.len() * self.volume)
            }),
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
}

impl<T: Copy> Clone for ChunkStore<T> {
    /// A pool holding copies of the chunks, in chunk order.
    fn clone(&self) -> Self {
        let (store, _) = Self::pool(self.len(), self.volume, &[])
            .unwrap_or_else(|_| unreachable!("a pool no larger than the chunks it copies"));
        for (n, chunk) in self.chunks().iter().enumerate() {
            // SAFETY: chunk `n` of the new pool holds `volume` slots, apart from `chunk`.
            unsafe {
                let to = store.starts[n].as_ptr();
                core::ptr::copy_nonoverlapping(chunk.as_ptr(), to, chunk.len());
            }
        }
        store
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for ChunkStore<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.chunks().iter()).finish()
    }
}

impl<T> Drop for ChunkStore<T> {
    fn drop(&mut self) {
        let volume = self.volume;
        match &self.owner {
            Owner::Pool(pool) => {
                if core::mem::needs_drop::<T>() {
                    for start in &self.starts {
                        let chunk = core::ptr::slice_from_raw_parts_mut(start.as_ptr(), volume);
                        // SAFETY: each chunk holds `volume` initialised elements, dropped once.
                        unsafe { core::ptr::drop_in_place(chunk) };
                    }
                }
                if let Some((bytes, shape)) = pool {
                    // SAFETY: allocated by `alloc(shape)` in `pool`, freed once.
                    unsafe { dealloc(bytes.as_ptr(), *shape) };
                }
            }
            Owner::Boxes => {
                for start in &self.starts {
                    let chunk = core::ptr::slice_from_raw_parts_mut(start.as_ptr(), volume);
                    // SAFETY: from `Box::into_raw` of a box of `volume` elements, freed once.
                    drop(unsafe { Box::from_raw(chunk) });
                }
            }
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
        assert_eq!(starts[0] % POOL_ALIGN, 0);
        assert!(starts.windows(2).all(|w| w[1] - w[0] == 128));
        assert!(store.chunks().iter().all(|c| c == [3; 128]));

        let slots: Vec<u16> = (0..12).collect();
        let copied = ChunkStore::copied(&slots, 4, &[]).unwrap();
        assert_eq!(copied.len(), 3);
        assert_eq!(copied.chunk(2), [8, 9, 10, 11]);
        assert_eq!(copied.starts[0].as_ptr() as usize % POOL_ALIGN, 0);
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
