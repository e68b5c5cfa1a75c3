//! [`LocalTensor`]: a tensor placed in local memory, and where its elements are.

use super::address::LocalAddress;
use super::chip::ChipSpec;
use super::geometry::LocalGeometry;
use super::local::Local;
use super::local_layout::LocalLayout;
use super::storage_mode::{Normal, StorageMode};
use super::strides::StrideRule;
use alloc::format;
use core::fmt;
use core::marker::PhantomData;
use core::ops::Range;
use layout_core::{LayoutError, Mapping};

/// A tensor of `T` placed in local memory with layout `L`: a checked [`Mapping`] and the
/// element type. Made by [`LocalMemory::place`](super::LocalMemory::place); it does not borrow
/// the memory, so several tensors can be placed and then loaded or stored in any order.
///
/// ```
/// use tensor_layout::sophgo::{EuAligned, LocalAddress, LocalMemory, ExampleChip};
/// let memory = LocalMemory::<ExampleChip>::new();
/// let t = memory.place::<f32, _>(EuAligned::<ExampleChip>::new(2048, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(t.location([1, 2, 0, 0]).unwrap(), LocalAddress { npu: 0, offset: (64 + 32) * 4 });
/// ```
pub struct LocalTensor<T, L: LocalLayout> {
    mapping: Mapping<L>,
    element: PhantomData<fn() -> T>,
}

impl<T, L: LocalLayout> Clone for LocalTensor<T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L: LocalLayout> Copy for LocalTensor<T, L> {}

impl<T, L: LocalLayout + PartialEq> PartialEq for LocalTensor<T, L> {
    fn eq(&self, other: &Self) -> bool {
        self.mapping == other.mapping
    }
}

impl<T, L: LocalLayout + Eq> Eq for LocalTensor<T, L> {}

impl<T, L: LocalLayout> fmt::Debug for LocalTensor<T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalTensor")
            .field("element", &core::any::type_name::<T>())
            .field("mapping", &self.mapping)
            .finish()
    }
}

impl<T, L: LocalLayout> LocalTensor<T, L> {
    /// Wraps a mapping whose element size the caller has checked against `T`.
    pub(crate) fn from_mapping(mapping: Mapping<L>) -> Self {
        Self {
            mapping,
            element: PhantomData,
        }
    }

    /// Checks that `T` has the layout's element size.
    pub(crate) fn check_element(layout: &L) -> Result<(), LayoutError> {
        let found = size_of::<T>();
        if found == layout.element_bytes() {
            Ok(())
        } else {
            Err(LayoutError::ElementSize {
                what: format!("{layout}"),
                expected: layout.element_bytes(),
                found,
            })
        }
    }

    /// The layout bound to the tensor's dims (offsets in elements of the whole memory).
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(t.mapping().storage_len(), 1024); // 4 NPUs x 1024 bytes / 4
    /// ```
    pub fn mapping(&self) -> &Mapping<L> {
        &self.mapping
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(t.dims(), [2, 3, 4, 5]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.mapping.dims()
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(Compact::<ExampleChip>::new(16, 4), [1, 1, 1, 1]).unwrap();
    /// assert_eq!(t.layout().address(), 16);
    /// ```
    pub fn layout(&self) -> &L {
        self.mapping.layout()
    }

    /// The 4-D placement: strides, start, channels per NPU (a matrix's `(N, ceil(M/W), 1, W)`).
    ///
    /// ```
    /// use tensor_layout::sophgo::{EuAligned, LocalMemory, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(t.local_geometry().strides(), [32, 32, 5, 1]);
    /// ```
    pub fn local_geometry(&self) -> LocalGeometry {
        self.layout().local_geometry(self.mapping.geometry())
    }

    /// The unified byte address of the element at `index` (`npu * NPU_BYTES + offset`).
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::sophgo::{FreeStrides, LocalMemory, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<f32, _>(FreeStrides::<ExampleChip>::new(1024, 4, [120, 0, 0, 2]), [2, 3, 1, 10]).unwrap();
    /// assert_eq!(t.address_of([1, 2, 0, 9]).unwrap(), 3 * 1024 + (120 + 18) * 4);
    /// assert!(t.address_of([2, 0, 0, 0]).is_err());
    /// ```
    pub fn address_of(&self, index: L::Index) -> Result<usize, LayoutError> {
        Ok(self.mapping.try_offset(index)? * self.layout().element_bytes())
    }

    /// The NPU and byte offset of the element at `index`.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] when `index` lies outside the dims.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalAddress, LocalMemory, Matrix, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<f32, _>(Matrix::new(0, 4, 8), [2, 40]).unwrap();
    /// assert_eq!(t.location([0, 32]).unwrap(), LocalAddress { npu: 0, offset: 32 * 4 }); // channel 4
    /// ```
    pub fn location(&self, index: L::Index) -> Result<LocalAddress, LayoutError> {
        let address = self.address_of(index)?;
        let npu_bytes = <L::Chip as ChipSpec>::NPU_BYTES;
        Ok(LocalAddress {
            npu: address / npu_bytes,
            offset: address % npu_bytes,
        })
    }

    /// The bytes of NPU `npu` this tensor spans (first to last slot, dummies included); `None`
    /// when the NPU holds none of it.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, Matrix, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(Matrix::new(0, 4, 20), [2, 40]).unwrap();
    /// assert_eq!(t.npu_span(1), Some(0..(32 + 20) * 4));
    /// assert_eq!(t.npu_span(2), None);
    /// ```
    pub fn npu_span(&self, npu: usize) -> Option<Range<usize>> {
        self.local_geometry().npu_span(npu)
    }

    /// Bytes the tensor reserves on each NPU from its start offset (see
    /// [`LocalGeometry::reserved_bytes`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, Matrix, ExampleChip};
    /// let t = LocalMemory::<ExampleChip>::new().place::<f32, _>(Matrix::new(0, 4, 40), [2, 40]).unwrap();
    /// assert_eq!(t.reserved_bytes(), 2 * 64 * 4); // each row takes 64 blocks of 4 bytes
    /// ```
    pub fn reserved_bytes(&self) -> usize {
        self.local_geometry().reserved_bytes()
    }
}

impl<T, C: ChipSpec, R: StrideRule, M: StorageMode> LocalTensor<T, Local<C, R, M>> {
    /// The same tensor seen in packed elements `P` (the TPU-Kernel documentation's int8x4, int16x2, fp32x2): dims
    /// `(ceil(N / PACK), C, H, W)`, the same bytes. A packed element whose lanes lie past N
    /// holds the dummy elements.
    ///
    /// # Errors
    /// [`LayoutError::ElementSize`] when `P` is not `PACK` elements of `T`.
    ///
    /// ```
    /// use tensor_layout::sophgo::{EuAligned, FourN, Int8x4, LocalMemory, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<i8, _>(EuAligned::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap();
    /// let packed = t.packed::<Int8x4>().unwrap();
    /// assert_eq!(packed.dims(), [2, 5, 4, 5]);
    /// assert!(t.packed::<i32>().is_ok() && t.packed::<i16>().is_err());
    /// ```
    pub fn packed<P>(&self) -> Result<LocalTensor<P, Local<C, R, Normal>>, LayoutError> {
        let layout = self.layout().packed();
        LocalTensor::<P, _>::check_element(&layout)?;
        let mapping = Mapping::with_layout(layout, self.local_geometry().packed_dims())?;
        Ok(LocalTensor::from_mapping(mapping))
    }
}
