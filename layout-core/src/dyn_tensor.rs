//! [`DynTensor`]: a tensor whose layout is known only at run time.

use crate::storage::{AlignedBuffer, Storage};
use crate::{
    Coords, DynLayout, DynMapping, Layout, LayoutError, Mapping, Tensor, TensorBase,
    for_each_row_major_index,
};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// A tensor whose layout was chosen at run time (read from a model file, a command line).
///
/// It holds its storage like a [`Tensor`]; [`DynTensor::into_typed`] turns it into a
/// `Tensor<T, L>` without copying when its layout is `L` as a function on its dims, and says
/// which two layouts differ otherwise.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{DynLayout, DynTensor};
/// let layout = DynLayout::parse("nChw16c").unwrap();
/// let t = DynTensor::from_row_major(layout, &[1, 16, 2, 2], &(0..64).collect::<Vec<u32>>()).unwrap();
/// let typed: Tensor<u32, onednn_layout!("aBcd16b")> = t.clone().into_typed().unwrap();
/// assert_eq!(typed[[0, 3, 1, 0]], 3 * 4 + 2);
/// let err = t.into_typed::<onednn::nchw>().unwrap_err();
/// assert!(matches!(err, LayoutError::Mismatch { .. }));
/// ```
#[derive(Clone, Debug)]
pub struct DynTensor<T: Copy> {
    mapping: DynMapping,
    storage: AlignedBuffer<T>,
    pad: T,
}

impl<T: Copy> DynTensor<T> {
    /// A tensor of `layout` and `dims` with every slot `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `dims` does not match the layout's rank;
    /// [`LayoutError::Overflow`] or [`LayoutError::Allocation`] when the storage is too large.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<f32>::zeros(tensor_layout::DynLayout::parse("nChw8c").unwrap(), &[1, 3, 2, 2]).unwrap();
    /// assert_eq!(t.as_raw().len(), 32);
    /// ```
    pub fn zeros(layout: DynLayout, dims: &[usize]) -> Result<Self, LayoutError>
    where
        T: Default,
    {
        let mapping = layout.bind(dims)?;
        let storage = AlignedBuffer::filled(mapping.storage_len(), T::default())?;
        Ok(Self {
            mapping,
            storage,
            pad: T::default(),
        })
    }

    /// A tensor of `layout` holding `data`, the logical elements in row-major order; padding is
    /// `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Length`] when `data` does not hold the product of `dims` elements, and the
    /// errors of [`DynTensor::zeros`].
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("nhwc").unwrap(), &[1, 2, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_raw(), [1, 3, 2, 4]);
    /// ```
    pub fn from_row_major(
        layout: DynLayout,
        dims: &[usize],
        data: &[T],
    ) -> Result<Self, LayoutError>
    where
        T: Default,
    {
        let mut tensor = Self::zeros(layout, dims)?;
        let len = dims.iter().product::<usize>();
        if data.len() != len {
            return Err(LayoutError::Length {
                expected: len,
                found: data.len(),
            });
        }
        let mapping = tensor.mapping.clone();
        for_each_row_major_index(dims, |k, index| {
            let offset = mapping.offset(index).expect("index within dims");
            tensor.storage[offset] = data[k];
        });
        Ok(tensor)
    }

    /// The layout bound to the dims.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nchw").unwrap(), &[1, 1, 2, 2]).unwrap();
    /// assert_eq!(t.mapping().dims(), [1, 1, 2, 2]);
    /// ```
    pub fn mapping(&self) -> &DynMapping {
        &self.mapping
    }

    /// The physical storage, padding included.
    ///
    /// ```
    /// let t = tensor_layout::DynTensor::<u8>::zeros(tensor_layout::DynLayout::parse("nChw4c").unwrap(), &[1, 1, 1, 1]).unwrap();
    /// assert_eq!(t.as_raw(), [0, 0, 0, 0]);
    /// ```
    pub fn as_raw(&self) -> &[T] {
        self.storage.slots()
    }

    /// The logical elements in row-major order.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::from_row_major(DynLayout::parse("chwn").unwrap(), &[2, 1, 1, 2], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.to_row_major(), [1, 2, 3, 4]);
    /// ```
    pub fn to_row_major(&self) -> Vec<T> {
        let dims = self.mapping.dims().to_vec();
        let mut out = vec![self.pad; dims.iter().product()];
        for_each_row_major_index(&dims, |k, index| {
            out[k] = self.storage[self.mapping.offset(index).expect("index within dims")];
        });
        out
    }

    /// This tensor as a `Tensor<T, L>`, without copying, when its layout is `L` as a function on
    /// its dims (so `nChw16c` on 16 channels converts to `aBcd16b`, and a block of 1 to no
    /// block).
    ///
    /// # Errors
    /// [`LayoutError::Rank`] when `L` has another rank; [`LayoutError::Mismatch`] naming both
    /// layouts when they place some element differently or need different storage.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::{DynLayout, DynTensor};
    /// let t = DynTensor::<u8>::zeros(DynLayout::parse("4: 0,0 1,0 2,0 3,0 1,1").unwrap(), &[1, 2, 2, 2]).unwrap();
    /// assert!(t.into_typed::<onednn::nchw>().is_ok());
    /// ```
    pub fn into_typed<L: Layout + Default>(self) -> Result<Tensor<T, L>, LayoutError> {
        let dims = self.mapping.dims();
        if dims.len() != L::Index::RANK {
            return Err(LayoutError::Rank {
                expected: L::Index::RANK,
                found: dims.len(),
            });
        }
        let mut typed_dims = L::Index::splat(0);
        typed_dims.as_mut().copy_from_slice(dims);
        let typed = Mapping::<L>::new(typed_dims)?;
        if !self.mapping.same_function_as(&typed) {
            return Err(LayoutError::Mismatch {
                expected: typed.layout().to_string(),
                found: self.mapping.layout().to_string(),
            });
        }
        Ok(TensorBase::from_parts(typed, self.storage, self.pad))
    }
}

impl<T: Copy, const RANK: usize, C: crate::ChunkList>
    From<Tensor<T, crate::ChunkedMemoryLayout<RANK, C>>> for DynTensor<T>
{
    /// Forgets the layout type, keeping the storage.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let d = tensor_layout::DynTensor::from(t);
    /// assert_eq!(d.mapping().layout().to_string(), "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>");
    /// ```
    fn from(tensor: Tensor<T, crate::ChunkedMemoryLayout<RANK, C>>) -> Self {
        let (mapping, storage, pad) = tensor.into_parts();
        let mapping = mapping
            .layout()
            .to_dyn()
            .bind(&mapping.dims())
            .expect("a valid mapping binds again");
        Self {
            mapping,
            storage,
            pad,
        }
    }
}
