//! [`TensorBase`] and its three faces: [`Tensor`] (owned), [`TensorView`], [`TensorViewMut`].
//!
//! The types and the tensor's queries live here; the impl blocks are split by concern: building
//! tensors (`constructors`), reading and writing elements (`access`), visiting them
//! (`iteration`), element-wise work over logical elements (`elementwise`), real values through
//! the interface (`real_values`), what padding holds (`padding`), and views that change shape
//! (`views`).

mod access;
mod block_views;
mod buffers;
mod chunk_access;
mod constructors;
pub(crate) mod elementwise;
mod iteration;
pub(crate) mod padding;
mod real_values;
mod views;

use crate::storage::{AlignedBuffer, Storage};
use crate::{Layout, Mapping};
use crate::{quantized::Interface, quantized::Plain};
use core::fmt;

/// Logical data in a layout: a [`Mapping`], storage holding `mapping.storage_len()` slots, the
/// value its padding slots hold, and the [`Interface`] that gives its stored values a real
/// meaning ([`Plain`] unless said otherwise).
///
/// Use it through its aliases: [`Tensor`] owns 128-byte aligned storage, [`TensorView`] and
/// [`TensorViewMut`] borrow it. The layout is part of the type: a function taking
/// `&Tensor<u8, htp::R4CroutonLayout>` accepts no other layout. The interface is too, and here
/// it has no default (the aliases give `Plain`), so that a compiler error setting a plain
/// tensor against a quantized one prints both interfaces: a default parameter is left out of
/// printed types.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u16, htp::R4CroutonLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h * 100 + w * 10 + c) as u16);
/// assert_eq!(t[[0, 2, 4, 29]], 269);
/// assert_eq!(t.padded_dims(), [1, 8, 8, 32]);
/// assert_eq!(t.as_raw()[30], 0); // padding is zero
/// ```
#[derive(Clone, Copy)]
pub struct TensorBase<S: Storage, L: Layout, I: Interface> {
    mapping: Mapping<L>,
    storage: S,
    pad: S::Elem,
    interface: I,
}

/// An owned tensor of `T` in layout `L`, its storage aligned to 128 bytes.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t: Tensor<f32, htp::R4FlatMemoryLayout> = Tensor::zeros([1, 2, 2, 4]);
/// assert_eq!(t.as_raw().as_ptr() as usize % 128, 0);
/// ```
pub type Tensor<T, L, I = Plain> = TensorBase<AlignedBuffer<T>, L, I>;

/// A read-only view of a tensor (or of any storage) of `T` in layout `L`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let v: TensorView<'_, u8, htp::R4CroutonLayout> = t.view();
/// assert_eq!(v.len(), 450);
/// ```
pub type TensorView<'a, T, L, I = Plain> = TensorBase<&'a [T], L, I>;

/// A writable view of a tensor (or of any storage) of `T` in layout `L`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let mut v: TensorViewMut<'_, u8, htp::R4CroutonLayout> = t.view_mut();
/// v[[0, 0, 0, 0]] = 1;
/// assert_eq!(t[[0, 0, 0, 0]], 1);
/// ```
pub type TensorViewMut<'a, T, L, I = Plain> = TensorBase<&'a mut [T], L, I>;

/// One contiguous innermost chunk of a tensor's storage (HTP: a crouton).
///
/// ```
/// use tensor_layout::prelude::*;
/// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let chunk = t.chunks().next().unwrap();
/// assert_eq!((chunk.index, chunk.data.len()), ([0, 0, 0, 0], 2048));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageChunk<'a, T, I> {
    /// The logical index of the chunk's first element (HTP's `get_raw` argument).
    pub index: I,
    /// The chunk's storage slots, padding included, in memory order.
    pub data: &'a [T],
}

/// One contiguous innermost chunk of a tensor's storage, writable.
///
/// ```
/// use tensor_layout::prelude::*;
/// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
/// let chunk = t.chunks_mut().next().unwrap();
/// chunk.data[0] = 5;
/// assert_eq!(t[[0, 0, 0, 0]], 5);
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct StorageChunkMut<'a, T, I> {
    /// The logical index of the chunk's first element.
    pub index: I,
    /// The chunk's storage slots, padding included, in memory order.
    pub data: &'a mut [T],
}

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// Assembles a tensor from parts the caller has checked (`storage` holds
    /// `mapping.storage_len()` slots; `interface` fits the dims).
    pub(crate) fn from_parts(mapping: Mapping<L>, storage: S, pad: S::Elem, interface: I) -> Self {
        debug_assert_eq!(storage.slots().len(), mapping.storage_len());
        Self {
            mapping,
            storage,
            pad,
            interface,
        }
    }

    /// Takes the tensor apart into its mapping, storage, pad value and interface.
    pub(crate) fn into_parts(self) -> (Mapping<L>, S, S::Elem, I) {
        (self.mapping, self.storage, self.pad, self.interface)
    }

    /// The layout bound to this tensor's dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.mapping().padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn mapping(&self) -> &Mapping<L> {
        &self.mapping
    }

    /// The logical dims.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.dims(), [1, 3, 5, 30]);
    /// ```
    pub fn dims(&self) -> L::Index {
        self.mapping.dims()
    }

    /// The dims after padding to whole blocks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.padded_dims(), [1, 8, 8, 32]);
    /// ```
    pub fn padded_dims(&self) -> L::Index {
        self.mapping.padded_dims()
    }

    /// Number of logical elements.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.len(), 450);
    /// ```
    pub fn len(&self) -> usize {
        self.mapping.len()
    }

    /// Whether the tensor has no logical element (some dim is zero).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// assert!(Tensor::<u8, htp::R4CroutonLayout>::zeros([0, 3, 5, 30]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.mapping.is_empty()
    }

    /// Number of storage slots, padding included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.storage_len(), 2048);
    /// ```
    pub fn storage_len(&self) -> usize {
        self.mapping.storage_len()
    }

    /// The value this tensor's padding holds (and relayout writes into padding it creates).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.pad_value(), 0);
    /// t.fill_padding(128);
    /// assert_eq!(t.pad_value(), 128);
    /// ```
    pub fn pad_value(&self) -> S::Elem {
        self.pad
    }
}

impl<S: Storage, L: Layout, I: Interface> fmt::Debug for TensorBase<S, L, I>
where
    S::Elem: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("layout", self.mapping.layout())
            .field("dims", &self.dims())
            .field("interface", &self.interface)
            .field("row_major", &self.to_row_major())
            .finish()
    }
}

/// Small cases of every call that reaches the storage, fast enough for miri
/// (`cargo +nightly miri test -p layout-core --lib`).
#[cfg(test)]
mod tests;
