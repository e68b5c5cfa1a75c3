//! Element storage: an owned buffer aligned to 128 bytes ([`AlignedBuffer`]), and the borrowed
//! slices views use; [`Storage`] and [`StorageMut`] are the bounds of generic code over all three.
//!
//! ```
//! use layout_core::storage::{AlignedBuffer, STORAGE_ALIGN};
//! let buffer = AlignedBuffer::from_slice(&[1u8, 2, 3]);
//! assert_eq!(buffer.as_ptr() as usize % STORAGE_ALIGN, 0);
//! ```

use crate::{LayoutError, tensors::Element};
use alloc::alloc::{Layout as AllocLayout, alloc, dealloc};
use alloc::vec::Vec;
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;

/// Alignment in bytes of every [`AlignedBuffer`] (at least; more when `T` needs it). 128 bytes
/// covers HTP's vector registers and the cache lines of every current CPU.
///
/// ```
/// assert_eq!(layout_core::storage::STORAGE_ALIGN, 128);
/// ```
pub const STORAGE_ALIGN: usize = 128;

/// An owned, fixed-length, 128-byte aligned array of `Copy` elements: a tensor's storage.
///
/// ```
/// use layout_core::storage::AlignedBuffer;
/// let buf = AlignedBuffer::filled(100, 7u8).unwrap();
/// assert_eq!(buf.as_ptr() as usize % 128, 0);
/// assert!(buf.iter().all(|&x| x == 7));
/// ```
pub struct AlignedBuffer<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    /// `Some(capacity)` when the memory is a `Vec<T>`'s allocation, taken over without a copy
    /// because it was aligned: it is freed as that `Vec` (its capacity and `T`'s alignment).
    /// `None` when it was allocated here, with [`STORAGE_ALIGN`].
    vec_capacity: Option<usize>,
}

// SAFETY: the buffer owns its elements exactly like a `Vec<T>` does.
unsafe impl<T: Copy + Send> Send for AlignedBuffer<T> {}
// SAFETY: shared access only hands out `&[T]`, like `Vec<T>`.
unsafe impl<T: Copy + Sync> Sync for AlignedBuffer<T> {}

impl<T: Copy> AlignedBuffer<T> {
    fn alloc_layout(len: usize) -> Option<AllocLayout> {
        let bytes = size_of::<T>().checked_mul(len)?;
        AllocLayout::from_size_align(bytes, STORAGE_ALIGN.max(align_of::<T>())).ok()
    }

    /// `len` copies of `value`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] (with `dims` = `[len]`) when `len` elements of `T` exceed
    /// `isize::MAX` bytes; [`LayoutError::Allocation`] when the allocator refuses.
    ///
    /// ```
    /// let buf = layout_core::storage::AlignedBuffer::filled(3, 1.5f32).unwrap();
    /// assert_eq!(&buf[..], &[1.5, 1.5, 1.5]);
    /// ```
    pub fn filled(len: usize, value: T) -> Result<Self, LayoutError> {
        let buffer = Self::uninit(len)?;
        if size_of::<T>() == 0 {
            // Zero-sized elements hold no bytes: nothing to write, however many there are.
            return Ok(buffer);
        }
        for i in 0..len {
            // SAFETY: `i < len`, inside the allocation made for `len` elements (or `T` is a ZST).
            unsafe { buffer.ptr.as_ptr().add(i).write(value) };
        }
        Ok(buffer)
    }

    /// A copy of `values`.
    ///
    /// # Panics
    /// When the allocator refuses (a slice that exists always has a valid size).
    ///
    /// ```
    /// let buf = layout_core::storage::AlignedBuffer::from_slice(&[1.0f32, 2.0]);
    /// assert_eq!(&buf[..], &[1.0, 2.0]);
    /// ```
    pub fn from_slice(values: &[T]) -> Self {
        // A slice that exists never exceeds isize::MAX bytes.
        let buffer = Self::uninit(values.len()).unwrap_or_else(|e| panic!("{e}"));
        // SAFETY: the destination was allocated for `values.len()` elements and cannot overlap
        // the borrowed source.
        unsafe {
            core::ptr::copy_nonoverlapping(values.as_ptr(), buffer.ptr.as_ptr(), values.len())
        };
        buffer
    }

    /// `len` elements, each written by `write`, which is handed the new memory before any
    /// element holds a value: a buffer that is about to be overwritten whole is not written
    /// twice.
    ///
    /// If `write` panics, the memory is freed and nothing reads it.
    ///
    /// # Safety
    /// `write` writes every element of the slice it is given before it returns, and reads an
    /// element only after writing it.
    pub(crate) unsafe fn written_by(
        len: usize,
        write: impl FnOnce(&mut [MaybeUninit<T>]),
    ) -> Result<Self, LayoutError> {
        let mut buffer = Self::uninit(len)?;
        // SAFETY: `ptr` points at an allocation for `len` elements owned by `buffer` (or is
        // dangling and aligned with `len * size_of::<T>() == 0`), and `MaybeUninit<T>` has
        // `T`'s layout and may hold anything; the slice borrows `buffer` mutably, so it is the
        // only access until `write` returns.
        let slots = unsafe {
            core::slice::from_raw_parts_mut(buffer.as_mut_ptr().cast::<MaybeUninit<T>>(), len)
        };
        write(slots);
        // Every element now holds a value (the caller's promise): `buffer` may be read.
        Ok(buffer)
    }

    /// Allocates room for `len` elements; the caller writes all of them before reading any.
    fn uninit(len: usize) -> Result<Self, LayoutError> {
        let layout = Self::alloc_layout(len).ok_or_else(|| LayoutError::Overflow {
            dims: Vec::from([len]),
            element_size: Some(size_of::<T>()),
        })?;
        let ptr = if layout.size() == 0 {
            // No allocation; a dangling pointer with the promised alignment.
            NonNull::new(core::ptr::without_provenance_mut::<T>(layout.align()))
                .expect("alignment is non-zero")
        } else {
            // SAFETY: the layout has a non-zero size.
            let raw = unsafe { alloc(layout) }.cast::<T>();
            let raw = NonNull::new(raw).ok_or(LayoutError::Allocation {
                bytes: layout.size(),
            })?;
            crate::huge_pages::advise(raw.cast(), layout.size());
            raw
        };
        Ok(Self {
            ptr,
            len,
            vec_capacity: None,
        })
    }

    /// The elements of `vec`, in its memory when that is aligned to [`STORAGE_ALIGN`] (or
    /// holds no bytes), else copied into new aligned memory (and `vec` freed).
    ///
    /// ```
    /// let buf = layout_core::storage::AlignedBuffer::from_vec(vec![1u16, 2, 3]);
    /// assert_eq!((&buf[..], buf.as_ptr() as usize % 128), (&[1, 2, 3][..], 0));
    /// ```
    pub fn from_vec(vec: Vec<T>) -> Self {
        let aligned = (vec.as_ptr() as usize).is_multiple_of(STORAGE_ALIGN.max(align_of::<T>()));
        if size_of::<T>() == 0 || vec.is_empty() {
            // No bytes to keep: the values of a zero-sized type are all alike, and an empty
            // buffer needs no memory.
            let len = vec.len();
            return Self::uninit(len).expect("zero bytes always fit");
        }
        if !aligned {
            return Self::from_slice(&vec);
        }
        let mut vec = core::mem::ManuallyDrop::new(vec);
        Self {
            // SAFETY: a Vec's pointer is never null.
            ptr: unsafe { NonNull::new_unchecked(vec.as_mut_ptr()) },
            len: vec.len(),
            vec_capacity: Some(vec.capacity()),
        }
    }

    /// The elements as a `Vec<T>`: the same memory when it came from [`AlignedBuffer::from_vec`]
    /// without a copy (a `Vec` frees it as it was allocated), else a copy.
    ///
    /// ```
    /// let buf = layout_core::storage::AlignedBuffer::filled(3, 7u8).unwrap();
    /// assert_eq!(buf.into_vec(), [7, 7, 7]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        match self.vec_capacity {
            Some(capacity) => {
                let this = core::mem::ManuallyDrop::new(self);
                // SAFETY: `ptr`, `len` and `capacity` are those of the Vec `from_vec` took apart
                // (the elements stay initialised and `len` never changes), and `this` is not
                // dropped, so the memory has one owner again.
                unsafe { Vec::from_raw_parts(this.ptr.as_ptr(), this.len, capacity) }
            }
            None => Vec::from(&self[..]),
        }
    }

    /// Whether the memory is a `Vec`'s, taken over by [`AlignedBuffer::from_vec`] without a copy
    /// (and so handed back by [`AlignedBuffer::into_vec`] without one).
    ///
    /// ```
    /// let buf = layout_core::storage::AlignedBuffer::filled(3, 7u8).unwrap();
    /// assert!(!buf.is_vec_memory());
    /// ```
    pub fn is_vec_memory(&self) -> bool {
        self.vec_capacity.is_some()
    }

    /// The first element's address, for handing the memory to code outside Rust (DLPack) and
    /// for a chunk table's pointers into its pool.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr.as_ptr()
    }
}

impl<T: Copy> Drop for AlignedBuffer<T> {
    fn drop(&mut self) {
        if let Some(capacity) = self.vec_capacity {
            // SAFETY: as in `into_vec`; `drop` runs once.
            drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), self.len, capacity) });
            return;
        }
        let layout = Self::alloc_layout(self.len).expect("the layout was valid at allocation");
        if layout.size() != 0 {
            // SAFETY: `ptr` was returned by `alloc` with this very layout (same `len`, same `T`).
            unsafe { dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

impl<T: Copy> Deref for AlignedBuffer<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` is aligned, non-null and points to `len` initialised elements owned by
        // `self` (or is a dangling aligned pointer with `len * size_of::<T>() == 0`).
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for AlignedBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` guarantees exclusive access.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Clone for AlignedBuffer<T> {
    fn clone(&self) -> Self {
        Self::from_slice(self)
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for AlignedBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Storage a tensor reads from: an owned [`AlignedBuffer`] ([`Tensor`](crate::Tensor)), a
/// borrowed `&[T]` ([`TensorView`](crate::TensorView)) or `&mut [T]`
/// ([`TensorViewMut`](crate::TensorViewMut)).
///
/// Sealed: these three are all there are. Every constructor of a tensor takes one of them, so
/// another storage type could never hold a tensor; generic code names the bound
/// (`fn f<S: Storage>(t: &TensorBase<S, L, I>)`) and accepts all three. Being sealed also lets the
/// tensors count on `slots()` being the same slice on every call, as a slice or a buffer of fixed
/// length is (the mapping's storage length is checked once, when the tensor is made), and lets
/// later releases add methods. No unsafe code depends on the trait: the kernels that write
/// through raw pointers check their reach against the slice they are handed, so a storage that
/// broke the rule could cause panics, never undefined behaviour; the seal is about the API, and
/// the trait stays safe. To put a tensor over memory of your own, borrow it as a slice:
/// [`TensorView::from_slice`](crate::TensorView::from_slice) and
/// [`TensorViewMut::from_slice`](crate::TensorViewMut::from_slice).
///
/// ```
/// use layout_core::storage::Storage;
/// let slice: &[u8] = &[1, 2];
/// assert_eq!(slice.slots(), &[1, 2]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not tensor storage",
    label = "tensors hold an `AlignedBuffer<T>` (`Tensor`), a `&[T]` (`TensorView`) or a `&mut [T]` (`TensorViewMut`)",
    note = "write `Tensor<T, L>`, `TensorView<'_, T, L>` or `TensorViewMut<'_, T, L>`; to use memory of your own, borrow it as a slice and call `TensorView::from_slice` or `TensorViewMut::from_slice`"
)]
pub trait Storage: sealed::Sealed {
    /// The element type.
    type Elem: crate::tensors::Element;

    /// All storage slots, padding included.
    fn slots(&self) -> &[Self::Elem];
}

/// Storage a tensor may also write to: an owned [`AlignedBuffer`] or a borrowed `&mut [T]`.
/// Sealed, as [`Storage`] is.
///
/// ```
/// use layout_core::storage::StorageMut;
/// let mut data = [1u8, 2];
/// let mut slice: &mut [u8] = &mut data;
/// slice.slots_mut()[0] = 7;
/// assert_eq!(data, [7, 2]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is read-only storage, and this call writes",
    label = "a `TensorView` borrows its data read-only",
    note = "write into an owned `Tensor`, or a `TensorViewMut` (`view_mut()`, `slice_mut`, `TensorViewMut::from_slice`)"
)]
pub trait StorageMut: Storage {
    /// All storage slots, padding included, writable.
    fn slots_mut(&mut self) -> &mut [Self::Elem];
}

mod sealed {
    /// The storages of this module are all there are (see [`Storage`](super::Storage)).
    pub trait Sealed {}

    impl<T: crate::tensors::Element> Sealed for crate::storage::AlignedBuffer<T> {}
    impl<T: crate::tensors::Element> Sealed for &[T] {}
    impl<T: crate::tensors::Element> Sealed for &mut [T] {}
}

impl<T: Element> Storage for AlignedBuffer<T> {
    type Elem = T;
    fn slots(&self) -> &[T] {
        self
    }
}
impl<T: Element> StorageMut for AlignedBuffer<T> {
    fn slots_mut(&mut self) -> &mut [T] {
        self
    }
}
impl<T: Element> Storage for &[T] {
    type Elem = T;
    fn slots(&self) -> &[T] {
        self
    }
}
impl<T: Element> Storage for &mut [T] {
    type Elem = T;
    fn slots(&self) -> &[T] {
        self
    }
}
impl<T: Element> StorageMut for &mut [T] {
    fn slots_mut(&mut self) -> &mut [T] {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_buffers_are_aligned_initialised_and_freed() {
        for len in [0, 1, 7, 128, 1000] {
            let buffer = AlignedBuffer::filled(len, 0xA5u8).unwrap();
            assert_eq!(buffer.len(), len);
            assert_eq!(buffer.as_ptr() as usize % STORAGE_ALIGN, 0);
            assert!(buffer.iter().all(|&b| b == 0xA5));
        }
    }

    #[test]
    fn over_aligned_elements_keep_their_alignment() {
        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(align(256))]
        struct Wide(u8);
        let buffer = AlignedBuffer::filled(3, Wide(1)).unwrap();
        assert_eq!(buffer.as_ptr() as usize % 256, 0);
        assert_eq!(buffer[2], Wide(1));
    }

    #[test]
    fn zero_sized_elements_need_no_allocation() {
        let buffer = AlignedBuffer::filled(usize::MAX, ()).unwrap();
        assert_eq!(buffer.len(), usize::MAX);
        assert_eq!(buffer[usize::MAX - 1], ());
    }

    #[test]
    fn clones_copy_and_writes_stay_private() {
        let mut a = AlignedBuffer::from_slice(&[1u32, 2, 3]);
        let b = a.clone();
        a[0] = 9;
        assert_eq!(&a[..], &[9, 2, 3]);
        assert_eq!(&b[..], &[1, 2, 3]);
        assert_eq!(alloc::format!("{b:?}"), "[1, 2, 3]");
    }

    #[test]
    fn aligned_vecs_are_kept_and_handed_back_as_they_are() {
        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(align(128))]
        struct Line(u32);
        let mut vec = Vec::with_capacity(5);
        vec.extend([Line(1), Line(2), Line(3)]);
        let address = vec.as_ptr();
        let buffer = AlignedBuffer::from_vec(vec);
        assert!(buffer.is_vec_memory());
        assert_eq!(
            (buffer.as_ptr(), &buffer[..]),
            (address, &[Line(1), Line(2), Line(3)][..])
        );
        let back = buffer.into_vec();
        assert_eq!(
            (back.as_ptr(), back.capacity(), back.len()),
            (address, 5, 3)
        );
        // Dropped without `into_vec`, the memory is freed as the Vec's (miri checks the layout).
        drop(AlignedBuffer::from_vec(back));
    }

    #[test]
    fn other_vecs_are_copied_or_kept_by_their_alignment() {
        for len in [1usize, 3, 200] {
            let vec: Vec<u16> = (0..len as u16).collect();
            let address = vec.as_ptr() as usize;
            let buffer = AlignedBuffer::from_vec(vec);
            assert_eq!(
                buffer.is_vec_memory(),
                address.is_multiple_of(STORAGE_ALIGN)
            );
            assert_eq!(buffer.as_ptr() as usize % STORAGE_ALIGN, 0);
            assert!(buffer.iter().copied().eq(0..len as u16));
            let copy = AlignedBuffer::filled(len, 9u16).unwrap().into_vec();
            assert_eq!(copy, alloc::vec![9; len]);
            drop(buffer);
        }
        let empty = AlignedBuffer::from_vec(Vec::<u64>::new());
        assert!(empty.is_empty() && !empty.is_vec_memory());
        let units = AlignedBuffer::from_vec(alloc::vec![(); 7]);
        assert_eq!(units.into_vec().len(), 7);
    }

    #[test]
    fn byte_overflow_is_an_error_not_an_allocation() {
        let err = AlignedBuffer::filled(usize::MAX / 2, 0u16).unwrap_err();
        assert_eq!(
            err,
            LayoutError::Overflow {
                dims: Vec::from([usize::MAX / 2]),
                element_size: Some(2)
            }
        );
        assert!(AlignedBuffer::filled(isize::MAX as usize, 0u8).is_err());
    }
}
