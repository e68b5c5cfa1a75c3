//! `Storage`: the memory a `Tensor` owns (the library's aligned buffer, in a `DynTensor`), and
//! the relayouts into new storage, run by the library's engine at the element's width; to and
//! from a Sophgo local layout, by the element-wise store and load of `crate::local`.

use crate::elements::Width;
use crate::layout::LayoutKind;
use crate::local::{copy_elements, dims_in, local_axes, zero_dummies};
use std::ptr::NonNull;
use std::sync::RwLock;
use tensor_layout::sophgo::{DynLocalLayout, DynLocalMapping};
use tensor_layout::{
    DynLayout, DynTensor, LayoutError, axes::AxisWord, dynamic::DynMapping, layouts::ChunkEntry,
    mappings::AnyMapping,
};

/// A layout bound to dims, as a storage is read: a chunked mapping, or a Sophgo local layout
/// and its dims (bound again where the mapping is needed: the bound local mapping stays on
/// one thread).
// A chunked mapping holds its chunk list inline (about 1 KB): one `Placed` lives in each
// storage and each source read, so boxing it would only add an allocation per relayout.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placed {
    /// A chunked layout on dims.
    Chunked(DynMapping),
    /// A local layout on dims; its storage is the chip's whole local memory.
    Local(DynLocalLayout, Vec<usize>),
}

impl Placed {
    /// `layout` bound to `dims` (a local layout: checked by binding it).
    pub fn bind(layout: &LayoutKind, dims: &[usize]) -> Result<Self, LayoutError> {
        Ok(match layout {
            LayoutKind::Chunked(l) => Placed::Chunked(l.bind(dims)?),
            LayoutKind::Local(l) => {
                l.bind(dims)?;
                Placed::Local(*l, dims.to_vec())
            }
        })
    }

    /// The logical dims.
    pub fn dims(&self) -> &[usize] {
        match self {
            Placed::Chunked(m) => m.dims(),
            Placed::Local(_, dims) => dims,
        }
    }

    /// The layout.
    pub fn kind(&self) -> LayoutKind {
        match self {
            Placed::Chunked(m) => LayoutKind::Chunked(m.layout().clone()),
            Placed::Local(l, _) => LayoutKind::Local(*l),
        }
    }

    /// The axis names.
    pub fn axes(&self) -> AxisWord {
        match self {
            Placed::Chunked(m) => m.layout().axis_word(),
            Placed::Local(l, _) => local_axes(l),
        }
    }

    /// The local layout bound to its dims.
    fn local(layout: &DynLocalLayout, dims: &[usize]) -> DynLocalMapping {
        layout
            .bind(dims)
            .expect("a placed local layout binds to its dims")
    }

    /// Runs `f` on the mapping.
    pub fn with_any<R>(&self, f: impl FnOnce(&dyn AnyMapping) -> R) -> R {
        match self {
            Placed::Chunked(m) => f(m),
            Placed::Local(l, dims) => f(Self::local(l, dims).mapping()),
        }
    }

    /// Storage slots (a local layout: elements of the chip's whole memory).
    pub fn storage_len(&self) -> usize {
        self.with_any(|m| m.storage_len())
    }
}

/// The axis names of a layout.
pub fn axes_of(layout: &LayoutKind) -> AxisWord {
    match layout {
        LayoutKind::Chunked(l) => l.axis_word(),
        LayoutKind::Local(l) => local_axes(l),
    }
}

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
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Elements::U8(e) => e.len(),
            Elements::U16(e) => e.len(),
            Elements::U32(e) => e.len(),
        }
    }

    /// The elements' width.
    pub fn width(&self) -> Width {
        match self {
            Elements::U8(_) => Width::One,
            Elements::U16(_) => Width::Two,
            Elements::U32(_) => Width::Four,
        }
    }

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
    /// The layout on its dims (for a chunked one, the buffer's own mapping; a local one's
    /// buffer is the whole memory, one-dimensional).
    placed: Placed,
}

// SAFETY: `Storage` owns its buffer (no other Rust value reaches it) and `data` points into
// that buffer, which never moves or shrinks; the pointer is shared only with NumPy arrays and
// DLPack tensors that keep the storage alive. Concurrent writes through those from several
// threads are the callers' business, as for any NumPy array.
unsafe impl Send for Storage {}
// SAFETY: as above; `&Storage` gives only the pointer, the mapping and reads.
unsafe impl Sync for Storage {}

/// The buffer `$body` makes from `$elements`' slice, bound to `$e`, at their width.
macro_rules! by_width {
    ($elements:expr, |$e:ident| $body:expr) => {
        match $elements {
            Elements::U8($e) => Buffer::U8($body),
            Elements::U16($e) => Buffer::U16($body),
            Elements::U32($e) => Buffer::U32($body),
        }
    };
}

/// The one-dimensional layout of a local tensor's buffer (the whole memory).
fn flat() -> DynLayout {
    DynLayout::new(1, &[ChunkEntry { dim: 0, size: 0 }]).expect("a valid chunk list")
}

impl Storage {
    fn new(buffer: Buffer) -> Self {
        let placed = Placed::Chunked(match &buffer {
            Buffer::U8(t) => t.mapping().clone(),
            Buffer::U16(t) => t.mapping().clone(),
            Buffer::U32(t) => t.mapping().clone(),
        });
        Self::placed(buffer, placed)
    }

    fn placed(mut buffer: Buffer, placed: Placed) -> Self {
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
            placed,
        }
    }

    /// A new storage of `dst` (a local layout: the whole memory) on `dims`, zero, holding
    /// elements of `width`.
    fn zeros(dst: &LayoutKind, dims: &[usize], width: Width) -> Result<Self, LayoutError> {
        let placed = Placed::bind(dst, dims)?;
        let (layout, dims) = match &placed {
            Placed::Chunked(m) => (m.layout().clone(), m.dims().to_vec()),
            Placed::Local(..) => (flat(), vec![placed.storage_len()]),
        };
        let buffer = match width {
            Width::One => Buffer::U8(DynTensor::zeros(layout, &dims)?),
            Width::Two => Buffer::U16(DynTensor::zeros(layout, &dims)?),
            Width::Four => Buffer::U32(DynTensor::zeros(layout, &dims)?),
        };
        Ok(Self::placed(buffer, placed))
    }

    /// A new storage of `dst` holding `elements` read as `src`, moved by axis name: the
    /// library's engine between chunked layouts, a store or a load with a local one.
    pub fn convert(
        src: &Placed,
        elements: Elements<'_>,
        dst: &LayoutKind,
    ) -> Result<Self, LayoutError> {
        match (src, dst) {
            (Placed::Chunked(m), LayoutKind::Chunked(layout)) => {
                Self::from_relayout(m, elements, layout)
            }
            _ => {
                let dims = dims_in(&src.axes(), src.dims(), &axes_of(dst))?;
                let out = Self::zeros(dst, &dims, elements.width())?;
                out.relayout_into(src, elements)?;
                Ok(out)
            }
        }
    }

    /// A new storage of `layout` holding `elements` read as `src`: the library's relayout.
    fn from_relayout(
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

    /// A new storage of `layout` on `dims` holding a copy of `elements`, storage order (a
    /// local layout: the whole memory).
    pub fn copied(
        layout: &LayoutKind,
        dims: &[usize],
        elements: Elements<'_>,
    ) -> Result<Self, LayoutError> {
        let placed = Placed::bind(layout, dims)?;
        let (layout, dims) = match &placed {
            Placed::Chunked(m) => (m.layout().clone(), m.dims().to_vec()),
            Placed::Local(..) => {
                let len = placed.storage_len();
                if elements.len() != len {
                    return Err(LayoutError::Length {
                        expected: len,
                        found: elements.len(),
                    });
                }
                (flat(), vec![len])
            }
        };
        let buffer = by_width!(elements, |e| DynTensor::from_storage(
            layout.clone(),
            &dims,
            e
        )?);
        Ok(Self::placed(buffer, placed))
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
    pub fn relayout(&self, layout: &LayoutKind) -> Result<Self, LayoutError> {
        let reading = self
            .access
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Self::convert(&self.placed, self.elements(&reading), layout)
    }

    /// Overwrites this storage with `elements` read as `src`, moved by axis name: a chunked
    /// layout's padding gets zero; a local layout's memory keeps its bytes outside the
    /// tensor's elements and dummies (a store). The caller makes sure that `elements` is not
    /// this storage's memory ([`Storage::overlaps`]).
    pub fn relayout_into(&self, src: &Placed, elements: Elements<'_>) -> Result<(), LayoutError> {
        let _writing = self
            .access
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let src = match (src, &self.placed) {
            (Placed::Chunked(src), Placed::Chunked(_)) => src,
            _ => {
                // In each arm: the buffer holds elements of that type, the write guard keeps
                // every other Rust access out, and the caller checked that `elements` lies
                // elsewhere.
                return match (&self.buffer, elements) {
                    (Buffer::U8(_), Elements::U8(e)) => {
                        // SAFETY: as above.
                        self.store_or_load(src, e, unsafe { self.slice_mut() })
                    }
                    (Buffer::U16(_), Elements::U16(e)) => {
                        // SAFETY: as above.
                        self.store_or_load(src, e, unsafe { self.slice_mut() })
                    }
                    (Buffer::U32(_), Elements::U32(e)) => {
                        // SAFETY: as above.
                        self.store_or_load(src, e, unsafe { self.slice_mut() })
                    }
                    _ => unreachable!("the caller checks that the element types agree"),
                };
            }
        };
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

    /// The element-wise relayout into this storage (`into`) when either side is a local
    /// layout, the write guard held.
    fn store_or_load<T: Copy + Default>(
        &self,
        src: &Placed,
        from: &[T],
        into: &mut [T],
    ) -> Result<(), LayoutError> {
        let expected = dims_in(&src.axes(), src.dims(), &self.placed.axes())?;
        if expected != self.placed.dims() {
            return Err(LayoutError::ShapeMismatch {
                source: src.dims().to_vec(),
                destination: self.placed.dims().to_vec(),
            });
        }
        src.with_any(|from_mapping| {
            if from.len() != from_mapping.storage_len() {
                return Err(LayoutError::Length {
                    expected: from_mapping.storage_len(),
                    found: from.len(),
                });
            }
            match &self.placed {
                Placed::Chunked(m) => {
                    into.fill(T::default());
                    copy_elements(from_mapping, from, m, into)
                }
                Placed::Local(layout, dims) => {
                    let local = Placed::local(layout, dims);
                    copy_elements(from_mapping, from, local.mapping(), into)?;
                    zero_dummies(&local, into);
                    Ok(())
                }
            }
        })
    }

    /// Overwrites this storage with `source`'s elements (see [`Storage::relayout_into`]).
    pub fn relayout_from_storage(&self, source: &Storage) -> Result<(), LayoutError> {
        let reading = source
            .access
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.relayout_into(&source.placed, source.elements(&reading))
    }

    /// The layout on its dims.
    pub fn place(&self) -> &Placed {
        &self.placed
    }

    /// Whether `elements` lie in this storage's memory.
    pub fn overlaps(&self, elements: Elements<'_>) -> bool {
        let (start, bytes) = elements.byte_range();
        let own = self.data.as_ptr() as usize;
        let own_bytes = self.len * self.width().bytes();
        start < own + own_bytes && own < start + bytes
    }

    /// The buffer's own mapping: the chunked layout bound to the dims, or for a local layout
    /// the whole memory, one-dimensional ([`Storage::place`] is the layout on its dims).
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
