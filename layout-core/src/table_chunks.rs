//! A chunk table borrowed for a relayout: the chunks' first slots as a list of thin pointers,
//! every chunk `volume` elements long ([`TableChunks`] shared, [`TableChunksMut`] exclusive).
//!
//! The owner ([`IndirectTensor`](crate::tensors::IndirectTensor)'s store) keeps the chunks alive and
//! apart; these types hand them out as slices, and to the row kernels as the pointer list
//! itself, eight bytes a chunk, where a list of slices would cost sixteen.

use core::marker::PhantomData;
use core::ops::Range;
use core::ptr::NonNull;

/// Chunks of `volume` elements each, borrowed shared for `'a`.
///
/// Invariant: every pointer of `starts` is valid for reads of `volume` elements for `'a`, and
/// nothing writes them during `'a`.
pub(crate) struct TableChunks<'a, T> {
    starts: &'a [NonNull<T>],
    volume: usize,
    _chunks: PhantomData<&'a [T]>,
}

impl<T> Clone for TableChunks<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TableChunks<'_, T> {}

// SAFETY: a `TableChunks` is a shared borrow of `T`s, as `&[T]` is.
unsafe impl<T: Sync> Send for TableChunks<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Sync> Sync for TableChunks<'_, T> {}

impl<'a, T> TableChunks<'a, T> {
    /// The chunks that `starts` point to.
    ///
    /// # Safety
    ///
    /// Every pointer of `starts` is valid for reads of `volume` elements for `'a`, and nothing
    /// writes those elements during `'a`.
    pub(crate) unsafe fn new(starts: &'a [NonNull<T>], volume: usize) -> Self {
        TableChunks {
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
        TableChunks {
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

/// Chunks of `volume` elements each, borrowed exclusively for `'a`.
///
/// Invariant: every pointer of `starts` is valid for reads and writes of `volume` elements for
/// `'a`, the chunks do not overlap, and nothing else reads or writes them during `'a`.
pub(crate) struct TableChunksMut<'a, T> {
    starts: &'a [NonNull<T>],
    volume: usize,
    _chunks: PhantomData<&'a mut [T]>,
}

// SAFETY: a `TableChunksMut` is an exclusive borrow of `T`s, as `&mut [T]` is.
unsafe impl<T: Send> Send for TableChunksMut<'_, T> {}

impl<'a, T> TableChunksMut<'a, T> {
    /// The chunks that `starts` point to.
    ///
    /// # Safety
    ///
    /// Every pointer of `starts` is valid for reads and writes of `volume` elements for `'a`,
    /// the chunks do not overlap, and nothing else reads or writes them during `'a`.
    pub(crate) unsafe fn new(starts: &'a [NonNull<T>], volume: usize) -> Self {
        TableChunksMut {
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
        TableChunksMut {
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
