//! Reading and writing elements: by logical index, the raw storage, whole-tensor views and the
//! padding.

use super::{TensorBase, TensorView, TensorViewMut};
use crate::Layout;
use crate::quantized::Interface;
use crate::storage::{Storage, StorageMut};
use core::ops::{Index, IndexMut};

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The physical storage, padding included, in memory order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 2], |[_, _, w, c]| (10 * w + c + 1) as u8);
    /// assert_eq!(t.as_raw()[..2], [1, 2]);
    /// assert_eq!(t.as_raw()[32..34], [11, 12]);
    /// ```
    pub fn as_raw(&self) -> &[S::Elem] {
        self.storage.slots()
    }

    /// The element at logical `index`, `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.get([0, 2, 4, 29]), Some(&0));
    /// assert_eq!(t.get([0, 3, 0, 0]), None);
    /// ```
    pub fn get(&self, index: L::Index) -> Option<&S::Elem> {
        self.mapping
            .checked_offset(index)
            .map(|offset| &self.as_raw()[offset])
    }

    /// The element at logical `index`, by value (as for 4-bit elements, which a
    /// [`PackedTensor`](crate::quantized::PackedTensor) gives by value only).
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<f32, htp::R4CroutonLayout>::from_fn([1, 1, 1, 3], |[.., c]| c as f32);
    /// assert_eq!(t.value([0, 0, 0, 2]), 2.0);
    /// ```
    pub fn value(&self, index: L::Index) -> S::Elem {
        self[index]
    }

    /// A read-only view of this tensor.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// let v = t.view();
    /// assert_eq!(v.dims(), t.dims());
    /// ```
    pub fn view(&self) -> TensorView<'_, S::Elem, L, I> {
        TensorBase {
            mapping: self.mapping,
            storage: self.storage.slots(),
            pad: self.pad,
            interface: self.interface.clone(),
        }
    }
}

impl<S: StorageMut, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The physical storage, padding included, writable.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// t.as_raw_mut()[32] = 4;
    /// assert_eq!(t[[0, 0, 1, 0]], 4);
    /// ```
    pub fn as_raw_mut(&mut self) -> &mut [S::Elem] {
        self.storage.slots_mut()
    }

    /// The element at logical `index`, writable; `None` outside the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// *t.get_mut([0, 2, 4, 29]).unwrap() = 3;
    /// assert_eq!(t[[0, 2, 4, 29]], 3);
    /// assert!(t.get_mut([0, 2, 5, 0]).is_none());
    /// ```
    pub fn get_mut(&mut self, index: L::Index) -> Option<&mut S::Elem> {
        let offset = self.mapping.checked_offset(index)?;
        Some(&mut self.as_raw_mut()[offset])
    }

    /// A writable view of this tensor.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// t.view_mut().fill_padding(9);
    /// assert_eq!(t.as_raw()[31], 9);
    /// ```
    pub fn view_mut(&mut self) -> TensorViewMut<'_, S::Elem, L, I> {
        TensorBase {
            mapping: self.mapping,
            storage: self.storage.slots_mut(),
            pad: self.pad,
            interface: self.interface.clone(),
        }
    }

    /// Writes `value` at logical `index` (the by-value twin of `t[index] = value`).
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, onednn::nChw16c>::zeros([1, 3, 1, 1]);
    /// t.set([0, 2, 0, 0], 7);
    /// assert_eq!(t.as_raw()[2], 7);
    /// ```
    pub fn set(&mut self, index: L::Index, value: S::Elem) {
        self[index] = value;
    }

    /// Makes `value` this tensor's pad value and writes it into every padding slot.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 1, 30]);
    /// t.fill_padding(128);
    /// assert_eq!(t.as_raw()[..32].iter().filter(|&&x| x == 128).count(), 2);
    /// assert_eq!(t.as_raw().iter().filter(|&&x| x == 128).count(), 2048 - 30);
    /// ```
    pub fn fill_padding(&mut self, value: S::Elem) {
        self.pad = value;
        self.write_padding();
    }

    pub(super) fn write_padding(&mut self) {
        let pad = self.pad;
        let mapping = self.mapping;
        let slots = self.storage.slots_mut();
        mapping.for_each_padding(|range| slots[range].fill(pad));
    }
}

impl<S: Storage, L: Layout, I: Interface> Index<L::Index> for TensorBase<S, L, I> {
    type Output = S::Elem;

    /// # Panics
    /// When `index` lies outside the dims, naming both.
    fn index(&self, index: L::Index) -> &S::Elem {
        match self.mapping.try_offset(index) {
            Ok(offset) => &self.as_raw()[offset],
            Err(e) => panic!("{e}"),
        }
    }
}

impl<S: StorageMut, L: Layout, I: Interface> IndexMut<L::Index> for TensorBase<S, L, I> {
    /// # Panics
    /// When `index` lies outside the dims, naming both.
    fn index_mut(&mut self, index: L::Index) -> &mut S::Elem {
        match self.mapping.try_offset(index) {
            Ok(offset) => &mut self.as_raw_mut()[offset],
            Err(e) => panic!("{e}"),
        }
    }
}
