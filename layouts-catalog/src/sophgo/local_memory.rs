//! [`LocalMemory`]: a simulated local memory of one chip, and moving tensors in and out of it.

use super::chip::ChipSpec;
use super::local_layout::LocalLayout;
use super::local_tensor::LocalTensor;
use bytemuck::Pod;
use core::fmt;
use core::marker::PhantomData;
use layout_core::{
    LayoutError, Mapping, Tensor, TensorView, TensorViewMut, layouts::SameRankAs, quantized::Plain,
    storage::AlignedBuffer, storage::Storage, storage::StorageMut, tensors::TensorBase,
};

/// The local memory of chip `C`: `NPUS * NPU_BYTES` bytes, NPU 0's first.
///
/// Tensors are placed in it at an address with a local layout ([`LocalMemory::place`]), moved
/// in from and out to system-memory tensors of any layout ([`LocalMemory::store`],
/// [`LocalMemory::load`]) by the generic relayout, and viewed as ordinary
/// [`TensorView`]s so that every generic call works on them.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, LocalMemory, ExampleChip};
/// let mut memory = LocalMemory::<ExampleChip>::new();
/// let local = memory.place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// let nchw = Tensor::<f32, onednn::nchw>::from_fn([2, 3, 4, 5], |[n, c, h, w]| (n * 1000 + c * 100 + h * 10 + w) as f32);
/// memory.store(&nchw, &local).unwrap();
/// let back: Tensor<f32, onednn::nhwc> = memory.load_new(&local).unwrap();
/// assert_eq!(back.to_row_major(), nchw.to_row_major());
/// ```
pub struct LocalMemory<C: ChipSpec> {
    bytes: AlignedBuffer<u8>,
    chip: PhantomData<C>,
}

impl<C: ChipSpec> LocalMemory<C> {
    /// A memory of zero bytes.
    ///
    /// # Panics
    /// When the allocator cannot provide `NPUS * NPU_BYTES` bytes (see [`LocalMemory::try_new`]).
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1688, LocalMemory};
    /// assert_eq!(LocalMemory::<BM1688>::new().bytes().len(), 32 * 128 * 1024);
    /// ```
    pub fn new() -> Self {
        Self::try_new().unwrap_or_else(|e| panic!("{e}"))
    }

    /// A memory of zero bytes.
    ///
    /// # Errors
    /// [`LayoutError::Allocation`] when the allocator refuses.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, ExampleChip};
    /// assert!(LocalMemory::<ExampleChip>::try_new().unwrap().bytes().iter().all(|&b| b == 0));
    /// ```
    pub fn try_new() -> Result<Self, LayoutError> {
        Ok(Self {
            bytes: AlignedBuffer::filled(C::MEMORY_BYTES, 0)?,
            chip: PhantomData,
        })
    }

    /// All bytes, NPU 0's first (address `a` is `bytes()[a]`).
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, ExampleChip};
    /// assert_eq!(LocalMemory::<ExampleChip>::new().bytes().len(), 4096);
    /// ```
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// All bytes, writable.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, ExampleChip};
    /// let mut memory = LocalMemory::<ExampleChip>::new();
    /// memory.bytes_mut()[1472] = 7;
    /// assert_eq!(memory.npu(1).unwrap()[448], 7);
    /// ```
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// The `NPU_BYTES` bytes of NPU `npu`; `None` past the last NPU.
    ///
    /// ```
    /// use tensor_layout::sophgo::{LocalMemory, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// assert_eq!(memory.npu(3).unwrap().len(), 1024);
    /// assert!(memory.npu(4).is_none());
    /// ```
    pub fn npu(&self, npu: usize) -> Option<&[u8]> {
        (npu < C::NPUS).then(|| &self.bytes[npu * C::NPU_BYTES..(npu + 1) * C::NPU_BYTES])
    }

    /// Places a tensor of `T` with logical `dims` at the layout's address.
    ///
    /// # Errors
    /// [`LayoutError::AddressOutOfRange`], [`LayoutError::Misaligned`],
    /// [`LayoutError::NpuOverflow`] when the tensor does not fit in an NPU it touches,
    /// [`LayoutError::ElementSize`] when `T` or the storage mode disagrees with the layout's
    /// element size, [`LayoutError::InvalidLayout`] for strides that make elements overlap or a
    /// matrix width outside `1..=M`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, LocalMemory, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// assert!(memory.place::<f32, _>(EuAligned::<ExampleChip>::new(1024, 4), [2, 3, 4, 5]).is_ok());
    /// let err = memory.place::<f32, _>(EuAligned::<ExampleChip>::new(1028, 4), [2, 3, 4, 5]).unwrap_err();
    /// assert_eq!(err, LayoutError::Misaligned { address: 1028, alignment: 128 });
    /// ```
    pub fn place<T, L>(&self, layout: L, dims: L::Index) -> Result<LocalTensor<T, L>, LayoutError>
    where
        L: LocalLayout<Chip = C>,
    {
        LocalTensor::<T, L>::check_element(&layout)?;
        Ok(LocalTensor::from_mapping(Mapping::with_layout(
            layout, dims,
        )?))
    }

    /// The placed tensor as a read-only view (storage: the whole memory as `T`): every generic
    /// call (`to_row_major`, `get`, `relayout`, ...) works on it.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let mut memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<u8, _>(Compact::<ExampleChip>::new(0, 1), [1, 2, 1, 3]).unwrap();
    /// memory.bytes_mut()[1024 + 2] = 5; // channel 1 lives on NPU 1
    /// assert_eq!(memory.view(&t)[[0, 1, 0, 2]], 5);
    /// ```
    pub fn view<T, L>(&self, tensor: &LocalTensor<T, L>) -> TensorView<'_, T, L>
    where
        T: Pod + layout_core::tensors::Element + Default,
        L: LocalLayout<Chip = C>,
    {
        let slots: &[T] = bytemuck::try_cast_slice(&self.bytes)
            .expect("placement checked that T's size divides an NPU's bytes");
        TensorView::from_slice(*tensor.mapping(), slots)
            .expect("a local mapping spans the whole memory")
    }

    /// The placed tensor as a writable view.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let mut memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<u16, _>(Compact::<ExampleChip>::new(8, 2), [1, 2, 1, 3]).unwrap();
    /// memory.view_mut(&t)[[0, 1, 0, 0]] = 0x0102;
    /// assert_eq!(&memory.bytes()[1024 + 8..1024 + 10], &0x0102u16.to_ne_bytes());
    /// ```
    pub fn view_mut<T, L>(&mut self, tensor: &LocalTensor<T, L>) -> TensorViewMut<'_, T, L>
    where
        T: Pod + layout_core::tensors::Element + Default,
        L: LocalLayout<Chip = C>,
    {
        let slots: &mut [T] = bytemuck::try_cast_slice_mut(&mut self.bytes)
            .expect("placement checked that T's size divides an NPU's bytes");
        TensorViewMut::from_slice(*tensor.mapping(), slots)
            .expect("a local mapping spans the whole memory")
    }

    /// Copies `src` (a system-memory tensor or view of any layout with the same dims) into the
    /// placed tensor `dst` with the generic relayout, then writes zero into `dst`'s dummy
    /// elements (the tail of a storage mode's last pack). Bytes between `dst`'s elements belong
    /// to other tensors and are not written.
    ///
    /// # Errors
    /// [`LayoutError::ShapeMismatch`] when the dims differ (nothing is written then).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, FourN, LocalMemory, ExampleChip};
    /// let mut memory = LocalMemory::<ExampleChip>::new();
    /// memory.bytes_mut().fill(0xEE);
    /// let dst = memory.place::<i8, _>(EuAligned::<ExampleChip, FourN>::new(0, 1), [3, 1, 1, 1]).unwrap();
    /// let src = Tensor::<i8, onednn::nchw>::from_row_major([3, 1, 1, 1], &[1, 2, 3]).unwrap();
    /// memory.store(&src, &dst).unwrap();
    /// assert_eq!(&memory.bytes()[..5], &[1, 2, 3, 0, 0xEE]); // a dummy, then another tensor's byte
    /// ```
    pub fn store<T, L, S, L2>(
        &mut self,
        src: &TensorBase<S, L2, Plain>,
        dst: &LocalTensor<T, L>,
    ) -> Result<(), LayoutError>
    where
        T: Pod + layout_core::tensors::Element + Default + Send + Sync,
        L: LocalLayout<Chip = C> + SameRankAs<L2> + layout_core::axes::RelayoutFrom<L2>,
        S: Storage<Elem = T>,
        L2: layout_core::Layout,
    {
        let () = const {
            layout_core::axes::check_convertible::<L2::Names, L::Names>(
                <L::Index as layout_core::mappings::Coords>::RANK,
            )
        };
        let mut view = self.view_mut(dst);
        src.relayout_into(&mut view)?;
        let slots = view.as_raw_mut();
        dst.local_geometry()
            .for_each_dummy(&mut |offset| slots[offset] = T::zeroed());
        Ok(())
    }

    /// Copies the placed tensor `src` into `dst` (a system-memory tensor or view of any layout
    /// with the same dims) with the generic relayout; `dst`'s padding gets its pad value.
    ///
    /// # Errors
    /// [`LayoutError::ShapeMismatch`] when the dims differ.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let mut memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<u8, _>(Compact::<ExampleChip>::new(0, 1), [1, 5, 1, 1]).unwrap();
    /// memory.bytes_mut()[4 * 1024 - 1024] = 9; // channel 3: NPU 3, offset 0
    /// let mut out = Tensor::<u8, onednn::nchw>::zeros([1, 5, 1, 1]);
    /// memory.load(&t, &mut out).unwrap();
    /// assert_eq!(out.to_row_major(), [0, 0, 0, 9, 0]);
    /// ```
    pub fn load<T, L, S2, L2>(
        &self,
        src: &LocalTensor<T, L>,
        dst: &mut TensorBase<S2, L2, Plain>,
    ) -> Result<(), LayoutError>
    where
        T: Pod + layout_core::tensors::Element + Default + Send + Sync,
        L: LocalLayout<Chip = C>,
        S2: StorageMut<Elem = T>,
        L2: SameRankAs<L> + layout_core::axes::RelayoutFrom<L>,
    {
        let () = const {
            layout_core::axes::check_convertible::<L::Names, L2::Names>(
                <L::Index as layout_core::mappings::Coords>::RANK,
            )
        };
        self.view(src).relayout_into(dst)
    }

    /// Copies the placed tensor `src` into a new system-memory tensor of layout `L2`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when `L2`'s storage for the dims overflows.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, LocalMemory, ExampleChip};
    /// let memory = LocalMemory::<ExampleChip>::new();
    /// let t = memory.place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [1, 2, 2, 2]).unwrap();
    /// let out: Tensor<f32, onednn::nChw8c> = memory.load_new(&t).unwrap();
    /// assert_eq!(out.padded_dims(), [1, 8, 2, 2]);
    /// ```
    pub fn load_new<T, L, L2>(&self, src: &LocalTensor<T, L>) -> Result<Tensor<T, L2>, LayoutError>
    where
        T: Pod + layout_core::tensors::Element + Default + Send + Sync,
        L: LocalLayout<Chip = C>,
        L2: SameRankAs<L> + layout_core::axes::RelayoutFrom<L> + Default,
    {
        let () = const {
            layout_core::axes::check_convertible::<L::Names, L2::Names>(
                <L::Index as layout_core::mappings::Coords>::RANK,
            )
        };
        self.view(src).try_relayout()
    }
}

impl<C: ChipSpec> Default for LocalMemory<C> {
    /// [`LocalMemory::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl<C: ChipSpec> Clone for LocalMemory<C> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes.clone(),
            chip: PhantomData,
        }
    }
}

impl<C: ChipSpec> fmt::Debug for LocalMemory<C> {
    /// The chip and the memory's size; the bytes themselves are too many to print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LocalMemory {{ npus: {}, npu_bytes: {}, eu_bytes: {} }}",
            C::NPUS,
            C::NPU_BYTES,
            C::EU_BYTES
        )
    }
}
