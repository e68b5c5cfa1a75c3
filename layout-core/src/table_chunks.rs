//! A chunk table borrowed for a relayout: the chunks' first slots as a list of thin pointers,
//! every chunk `volume` elements long ([`TableChunks`] shared, [`TableChunksMut`] exclusive).
//!
//! The owner ([`IndirectTensor`](crate::tensors::IndirectTensor)'s store) keeps the chunks alive and
//! apart; these types hand them out as slices, and to the row kernels as the pointer list
//! itself, eight bytes a chunk, where a list of slices would cost sixteen.

use core::marker::PhantomData;
use core::ops::Range;
use core::ptr::NonNull;

/// Chunks of `volume` elements each, borrowed for `'a` as `B` borrows them: `&'a [T]`
/// ([`TableChunks`], shared) or `&'a mut [T]` ([`TableChunksMut`], exclusive).
///
/// Invariant: every pointer of `starts` is valid for `volume` elements for `'a`: shared, for
/// reads, and nothing writes them during `'a`; exclusive, for reads and writes, the chunks do
/// not overlap, and nothing else reads or writes them during `'a`.
pub(crate) struct BorrowedChunks<'a, T, B> {
    starts: &'a [NonNull<T>],
    volume: usize,
    _chunks: PhantomData<B>,
}

/// Chunks borrowed shared for `'a` (see [`BorrowedChunks`]).
pub(crate) type TableChunks<'a, T> = BorrowedChunks<'a, T, &'a [T]>;

/// Chunks borrowed exclusively for `'a` (see [`BorrowedChunks`]).
pub(crate) type TableChunksMut<'a, T> = BorrowedChunks<'a, T, &'a mut [T]>;

impl<T> Clone for TableChunks<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TableChunks<'_, T> {}

// SAFETY: the chunks are the borrow `B` of `T`s, which may move to another thread when `B` may:
// `&[T]` for `T: Sync`, `&mut [T]` for `T: Send`.
unsafe impl<T, B: Send> Send for BorrowedChunks<'_, T, B> {}
// SAFETY: shared chunks are a shared borrow of `T`s, as `&[T]` is.
unsafe impl<T: Sync> Sync for TableChunks<'_, T> {}

impl<'a, T, B> BorrowedChunks<'a, T, B> {
    /// The chunks that `starts` point to.
    ///
    /// # Safety
    ///
    /// Every pointer of `starts` is valid for `volume` elements for `'a`, as `B` borrows them:
    /// `&'a [T]`, for reads, and nothing writes those elements during `'a`; `&'a mut [T]`, for
    /// reads and writes, the chunks do not overlap, and nothing else reads or writes them
    /// during `'a`.
    pub(crate) unsafe fn new(starts: &'a [NonNull<T>], volume: usize) -> Self {
        BorrowedChunks {
            starts,
            volume,
            _chunks: PhantomData,
        }
    }

    /// Number of chunks.
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// Elements in each chunk.
    pub(crate) fn volume(&self) -> usize {
        self.volume
    }
}

impl<'a, T> TableChunks<'a, T> {
    /// Chunk `n`.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    #[inline]
    pub(crate) fn get(&self, n: usize) -> &'a [T] {
        // SAFETY: the type's invariant.
        unsafe { core::slice::from_raw_parts(self.starts[n].as_ptr(), self.volume) }
    }

    /// The chunks `range`.
    ///
    /// # Panics
    /// When `range` does not lie in `0..len()`.
    pub(crate) fn range(&self, range: Range<usize>) -> Self {
        BorrowedChunks {
            starts: &self.starts[range],
            ..*self
        }
    }

    /// Each chunk in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &'a [T]> + use<'a, T> {
        let this = *self;
        (0..this.len()).map(move |n| this.get(n))
    }

    /// The first slot of each chunk, for kernels that index the table themselves (reads only,
    /// `volume` elements from each).
    pub(crate) fn starts(&self) -> &'a [NonNull<T>] {
        self.starts
    }
}

impl<'a, T> TableChunksMut<'a, T> {
    /// Chunk `n`, writable.
    ///
    /// # Panics
    /// When `n` is not below [`len`](Self::len).
    #[inline]
    pub(crate) fn get_mut(&mut self, n: usize) -> &mut [T] {
        // SAFETY: the type's invariant; the chunk is borrowed through `self` exclusively.
        unsafe { core::slice::from_raw_parts_mut(self.starts[n].as_ptr(), self.volume) }
    }

    /// The chunks `range`, borrowed from these.
    ///
    /// # Panics
    /// When `range` does not lie in `0..len()`.
    pub(crate) fn range_mut(&mut self, range: Range<usize>) -> TableChunksMut<'_, T> {
        BorrowedChunks {
            starts: &self.starts[range],
            volume: self.volume,
            _chunks: PhantomData,
        }
    }

    /// The chunks before `mid` and those from it.
    ///
    /// # Panics
    /// When `mid` is above [`len`](Self::len).
    #[cfg(feature = "parallel")]
    pub(crate) fn split_at(self, mid: usize) -> (Self, Self) {
        let (left, right) = self.starts.split_at(mid);
        // SAFETY: two disjoint parts of a table borrowed exclusively for `'a`.
        unsafe { (Self::new(left, self.volume), Self::new(right, self.volume)) }
    }

    /// Each chunk in order, writable.
    pub(crate) fn each_mut(self) -> impl ExactSizeIterator<Item = &'a mut [T]> {
        let volume = self.volume;
        self.starts.iter().map(move |start| {
            // SAFETY: the type's invariant; each chunk is handed out once, and the chunks do
            // not overlap.
            unsafe { core::slice::from_raw_parts_mut(start.as_ptr(), volume) }
        })
    }

    /// The first slot of each chunk, for kernels that index the table themselves (reads and
    /// writes, `volume` elements from each, while this borrow lasts).
    pub(crate) fn starts(&mut self) -> &[NonNull<T>] {
        self.starts
    }

    /// The first slot of each chunk and the chunks' volume, for iterators that hand out the
    /// elements themselves (reads and writes, `volume` elements from each, for `'a`).
    pub(crate) fn into_starts(self) -> (&'a [NonNull<T>], usize) {
        (self.starts, self.volume)
    }
}
