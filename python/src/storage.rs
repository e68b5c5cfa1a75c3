//! `Storage`: the memory a `Tensor` owns (the library's aligned buffer, in a `DynTensor`), and
//! the relayouts into new storage, run by the library's engine at the element's width.

use crate::elements::Width;
use std::ptr::NonNull;
use std::sync::RwLock;
use tensor_layout::{DynLayout, DynMapping, DynTensor, LayoutError};

/// Elements borrowed from somewhere else (a NumPy array), as the engine's unsigned integers.
#[derive(Clone, Copy)]
pub enum Elements<'a> {
    /// One-byte elements.
    U8(&'a [u8]),
    /// Two-byte elements.
    U16(&'a [u16]),
    /// Four-byte elements.
    U32(&'a [u32]),
}

impl Elements<'_> {
    /// The first byte's address and the number of bytes.
    fn byte_range(&self) -> (usize, usize) {
        match self {
            Elements::U8(e) => (e.as_ptr() as usize, size_of_val(*e)),
            Elements::U16(e) => (e.as_ptr() as usize, size_of_val(*e)),
            Elements::U32(e) => (e.as_ptr() as usize, size_of_val(*e)),
        }
    }
}

/// A tensor's own storage, of one width.
enum Buffer {
    U8(DynTensor<u8>),
    U16(DynTensor<u16>),
    U32(DynTensor<u32>),
}

/// Storage owned by a `Tensor` and lent, by pointer, to the NumPy arrays and DLPack tensors
/// made from it: they may write it, as NumPy's own views may.
pub struct Storage {
    buffer: Buffer,
    /// The first element, taken from the buffer's mutable slice: every access goes through it.
    data: NonNull<u8>,
    /// Elements (not bytes).
    len: usize,
    /// Held to read the elements in Rust (shared) or write them (exclusive), so that a
    /// relayout into this storage never runs beside one out of it.
    access: RwLock<()>,
}

// SAFETY: `Storage` owns its buffer (no other Rust value reaches it) and `data` points into
// that buffer, which never moves or shrinks; the pointer is shared only with NumPy arrays and
// DLPack tensors that keep the storage alive. Concurrent writes through those from several
// threads are the callers' business, as for any NumPy array.
unsafe impl Send for Storage {}
// SAFETY: as above; `&Storage` gives only the pointer, the mapping and reads.
unsafe impl Sync for Storage {}

impl Storage {
    fn new(mut buffer: Buffer) -> Self {
        let (data, len) = match &mut buffer {
            Buffer::U8(t) => (NonNull::from(t.as_raw_mut()).cast(), t.as_raw().len()),
            Buffer::U16(t) => (NonNull::from(t.as_raw_mut()).cast(), t.as_raw().len()),
            Buffer::U32(t) => (NonNull::from(t.as_raw_mut()).cast(), t.as_raw().len()),
        };
        Self {
            buffer,
            data,
            len,
            access: RwLock::new(()),
        }
    }

    /// A new storage of `layout` holding `elements` read as `src`: the library's relayout.
    pub fn from_relayout(
        src: &DynMapping,
        elements: Elements<'_>,
        layout: &DynLayout,
    ) -> Result<Self, LayoutError> {
        let buffer = match elements {
            Elements::U8(e) => Buffer::U8(DynTensor::from_relayout(src, e, layout)?),
            Elements::U16(e) => Buffer::U16(DynTensor::from_relayout(src, e, layout)?),
            Elements::U32(e) => Buffer::U32(DynTensor::from_relayout(src, e, layout)?),
        };
        Ok(Self::new(buffer))
    }

    /// A new storage of `layout` on `dims` holding a copy of `elements`, storage order.
    pub fn copied(
        layout: DynLayout,
        dims: &[usize],
        elements: Elements<'_>,
    ) -> Result<Self, LayoutError> {
        let buffer = match elements {
            Elements::U8(e) => Buffer::U8(DynTensor::from_storage(layout, dims, e)?),
            Elements::U16(e) => Buffer::U16(DynTensor::from_storage(layout, dims, e)?),
            Elements::U32(e) => Buffer::U32(DynTensor::from_storage(layout, dims, e)?),
        };
        Ok(Self::new(buffer))
    }

    /// The storage as `T`s.
    ///
    /// # Safety
    /// `T` is the buffer's element type, and nothing in Rust writes the storage while the slice
    /// lives (the caller holds the read guard).
    unsafe fn slice<T>(&self) -> &[T] {
        // SAFETY: `data` points at the buffer's `len` initialised elements, alive while `self`
        // is; the caller promises their type and that nothing writes them meanwhile.
        unsafe { std::slice::from_raw_parts(self.data.cast::<T>().as_ptr(), self.len) }
    }

    /// The storage as `T`s, to write.
    ///
    /// # Safety
    /// `T` is the buffer's element type, nothing else in Rust reads or writes the storage while
    /// the slice lives (the caller holds the write guard), and no other slice covers its memory.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice_mut<T>(&self) -> &mut [T] {
        // SAFETY: `data` points at the buffer's `len` elements, alive while `self` is, and was
        // taken from the buffer's mutable slice; the caller promises their type and that this
        // is the only access meanwhile.
        unsafe { std::slice::from_raw_parts_mut(self.data.cast::<T>().as_ptr(), self.len) }
    }

    /// The elements, to read while `_reading` (this storage's read guard) is held.
    fn elements<'a>(&'a self, _reading: &'a std::sync::RwLockReadGuard<'_, ()>) -> Elements<'a> {
        match self.buffer {
            // SAFETY: the buffer holds `u8`s, and the read guard keeps Rust writes out.
            Buffer::U8(_) => Elements::U8(unsafe { self.slice() }),
            // SAFETY: the buffer holds `u16`s, and the read guard keeps Rust writes out.
            Buffer::U16(_) => Elements::U16(unsafe { self.slice() }),
            // SAFETY: the buffer holds `u32`s, and the read guard keeps Rust writes out.
            Buffer::U32(_) => Elements::U32(unsafe { self.slice() }),
        }
    }

    /// A new storage of `layout` holding these elements, moved by axis name.
    pub fn relayout(&self, layout: &DynLayout) -> Result<Self, LayoutError> {
        let reading = self
            .access
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Self::from_relayout(self.mapping(), self.elements(&reading), layout)
    }

    /// Overwrites this storage with `elements` read as `src`, moved by axis name, padding
    /// zero. The caller makes sure that `elements` is not this storage's memory
    /// ([`Storage::overlaps`]).
    pub fn relayout_into(
        &self,
        src: &DynMapping,
        elements: Elements<'_>,
    ) -> Result<(), LayoutError> {
        let _writing = self
            .access
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let dst = self.mapping();
        // In each arm: the buffer holds elements of that type, the write guard keeps every
        // other Rust access out, and the caller checked that `elements` lies elsewhere.
        match (&self.buffer, elements) {
            (Buffer::U8(_), Elements::U8(e)) => {
                // SAFETY: as above.
                DynTensor::relayout_between(src, e, dst, unsafe { self.slice_mut() })
            }
            (Buffer::U16(_), Elements::U16(e)) => {
                // SAFETY: as above.
                DynTensor::relayout_between(src, e, dst, unsafe { self.slice_mut() })
            }
            (Buffer::U32(_), Elements::U32(e)) => {
                // SAFETY: as above.
                DynTensor::relayout_between(src, e, dst, unsafe { self.slice_mut() })
            }
            _ => unreachable!("the caller checks that the element types agree"),
        }
    }

    /// Overwrites this storage with `source`'s elements (see [`Storage::relayout_into`]).
    pub fn relayout_from_storage(&self, source: &Storage) -> Result<(), LayoutError> {
        let reading = source
            .access
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.relayout_into(source.mapping(), source.elements(&reading))
    }

    /// Whether `elements` lie in this storage's memory.
    pub fn overlaps(&self, elements: Elements<'_>) -> bool {
        let (start, bytes) = elements.byte_range();
        let own = self.data.as_ptr() as usize;
        let own_bytes = self.len * self.width().bytes();
        start < own + own_bytes && own < start + bytes
    }

    /// The layout bound to the dims.
    pub fn mapping(&self) -> &DynMapping {
        match &self.buffer {
            Buffer::U8(t) => t.mapping(),
            Buffer::U16(t) => t.mapping(),
            Buffer::U32(t) => t.mapping(),
        }
    }

    /// The elements' width.
    pub fn width(&self) -> Width {
        match self.buffer {
            Buffer::U8(_) => Width::One,
            Buffer::U16(_) => Width::Two,
            Buffer::U32(_) => Width::Four,
        }
    }

    /// The first element, for NumPy arrays and DLPack tensors that read and write it.
    pub fn data(&self) -> *mut u8 {
        self.data.as_ptr()
    }

    /// Number of elements, padding included.
    pub fn len(&self) -> usize {
        self.len
    }
}
