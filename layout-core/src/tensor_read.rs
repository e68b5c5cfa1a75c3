//! [`TensorRead`] and [`TensorWrite`]: the queries the four tensor kinds answer alike.

// A trait method whose inherent twin is missing would call itself: refuse that.
#![deny(unconditional_recursion)]

use crate::storage::{Storage, StorageMut};
use crate::{
    DynTensor, Layout, Mapping, dynamic::DynIndex, dynamic::DynMapping, mappings::AnyMapping,
    quantized::Interface, quantized::Nibble, quantized::PackedTensor, quantized::RealValues,
    tensors::ChunkStorage, tensors::Element, tensors::IndirectTensor, tensors::TensorBase,
};
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::fmt::Debug;

/// What every tensor answers, under the same names on all four kinds: [`Tensor`](crate::Tensor)
/// and its views ([`TensorBase`]), [`IndirectTensor`] (chunks behind a table),
/// [`PackedTensor`] (4-bit elements, two per byte) and [`DynTensor`] (a layout chosen at run
/// time).
///
/// Each kind also has these calls as inherent methods, so code that names one kind needs no
/// import and keeps its typed, monomorphized path (the trait's methods call them). Import the
/// trait (it is in the prelude) to write code generic over the kind:
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{DynTensor, tensors::IndirectTensor, quantized::PackedTensor, quantized::u4};
/// use std::borrow::Borrow;
///
/// /// A checksum of the logical elements in row-major order, for any kind of tensor.
/// fn checksum<X: TensorRead>(x: &X) -> i64
/// where
///     X::Elem: Into<i32>,
/// {
///     x.iter().fold(0, |sum, v| {
///         let v: i32 = (*v.borrow()).into();
///         sum.wrapping_mul(31).wrapping_add(i64::from(v))
///     })
/// }
///
/// let t = Tensor::<u8, onednn::nChw16c>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 4 + h * 2 + w) as u8);
/// let d = DynTensor::from(t.clone());
/// let i = t.to_indirect();
/// let p = PackedTensor::<u4, onednn::nchw>::from_fn([1, 3, 2, 2], |[_, c, h, w]| u4::new((c * 4 + h * 2 + w) as u8));
/// assert_eq!(checksum(&t), checksum(&d));
/// assert_eq!(checksum(&t), checksum(&i));
/// assert_eq!(checksum(&t), checksum(&p));
/// ```
///
/// `get`, `iter` and `indexed_iter` give [`Self::Ref`]: a `&Elem` where elements can be
/// borrowed, the element itself for [`PackedTensor`] (a nibble has no address). Both borrow as
/// `Elem` (`*r.borrow()` is the value in generic code); [`TensorRead::value`] gives the value on
/// every kind.
///
/// Conversions keep one set of names on every kind too, as inherent methods (their destination
/// is a type for the typed kinds, a [`DynLayout`](crate::DynLayout) value for [`DynTensor`], so
/// they are not in the trait): `relayout` (panics with the error's message), `try_relayout`
/// (returns the `Result`), `relayout_into(&mut dst)` and `relayout_from(&src)` (both return a
/// `Result`).
pub trait TensorRead {
    /// The element type (the type `value` returns).
    type Elem: Copy;
    /// A logical index, and the dims: `[usize; RANK]` for the typed kinds, [`DynIndex`] for
    /// [`DynTensor`].
    type Index: Copy + Eq + Debug + AsRef<[usize]>;
    /// What `get`, `iter` and `indexed_iter` give: `&'a Elem`, or `Elem` for [`PackedTensor`].
    type Ref<'a>: Copy + Borrow<Self::Elem>
    where
        Self: 'a;
    /// The layout bound to the dims: [`Mapping<L>`] for the typed kinds, [`DynMapping`] for
    /// [`DynTensor`].
    type Mapping: AnyMapping;
    /// What the stored values mean ([`Plain`](crate::quantized::Plain) unless said otherwise).
    type Interface: Interface;

    /// The logical dims, in the layout's axis order.
    fn dims(&self) -> Self::Index;
    /// The dims after padding to whole blocks.
    fn padded_dims(&self) -> Self::Index;
    /// Number of logical elements.
    fn len(&self) -> usize;
    /// Whether the tensor has no logical element (some dim is zero).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of storage slots, padding included.
    fn storage_len(&self) -> usize;
    /// The layout bound to the dims.
    fn mapping(&self) -> &Self::Mapping;
    /// The interface: what the stored values mean.
    fn interface(&self) -> &Self::Interface;
    /// The element at logical `index`, `None` outside the dims.
    fn get(&self, index: Self::Index) -> Option<Self::Ref<'_>>;
    /// The element at logical `index`, by value.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn value(&self, index: Self::Index) -> Self::Elem;
    /// The logical elements in row-major order (the last dim fastest).
    fn iter(&self) -> impl ExactSizeIterator<Item = Self::Ref<'_>>;
    /// The logical elements with their indices, in row-major order.
    fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (Self::Index, Self::Ref<'_>)>;
    /// The logical elements in row-major order, copied out.
    fn to_row_major(&self) -> Vec<Self::Elem>;
    /// The real value of the element at `index`, through the interface.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn real(&self, index: Self::Index) -> f32
    where
        Self::Interface: RealValues<Self::Elem>;
}

/// What every writable tensor does, under the same names on all four kinds (see
/// [`TensorRead`]): owned tensors and writable views, [`IndirectTensor`], [`PackedTensor`] and
/// [`DynTensor`].
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::{DynLayout, DynTensor};
///
/// /// Writes `f(index)` at every logical index, on any kind of tensor.
/// fn fill<X: TensorWrite>(x: &mut X, mut f: impl FnMut(&[usize]) -> X::Elem) {
///     let indices: Vec<X::Index> = x.indexed_iter().map(|(i, _)| i).collect();
///     for i in indices {
///         x.set(i, f(i.as_ref()));
///     }
/// }
///
/// let mut t = Tensor::<u16, onednn::nChw8c>::zeros([1, 3, 1, 2]);
/// let mut d = DynTensor::<u16>::zeros(DynLayout::parse("nChw8c").unwrap(), &[1, 3, 1, 2]).unwrap();
/// fill(&mut t, |i| (i[1] * 10 + i[3]) as u16);
/// fill(&mut d, |i| (i[1] * 10 + i[3]) as u16);
/// assert_eq!(t.as_raw(), d.as_raw());
/// ```
pub trait TensorWrite: TensorRead {
    /// Writes `value` at logical `index`.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn set(&mut self, index: Self::Index, value: Self::Elem);
    /// Stores the real `value` at `index`: rounded to nearest (ties to even) and saturated to
    /// the stored type.
    ///
    /// # Panics
    /// When `index` is out of bounds, naming the index and the dims.
    fn set_real(&mut self, index: Self::Index, value: f32)
    where
        Self::Interface: RealValues<Self::Elem>;
}

/// The trait's methods of a kind, each calling the inherent method of the same name.
macro_rules! read_by_inherent {
    ($kind:ident) => {
        fn dims(&self) -> Self::Index {
            $kind::dims(self)
        }
        fn padded_dims(&self) -> Self::Index {
            $kind::padded_dims(self)
        }
        fn len(&self) -> usize {
            $kind::len(self)
        }
        fn storage_len(&self) -> usize {
            $kind::storage_len(self)
        }
        fn mapping(&self) -> &Self::Mapping {
            $kind::mapping(self)
        }
        fn interface(&self) -> &Self::Interface {
            $kind::interface(self)
        }
        fn get(&self, index: Self::Index) -> Option<Self::Ref<'_>> {
            $kind::get(self, index)
        }
        fn value(&self, index: Self::Index) -> Self::Elem {
            $kind::value(self, index)
        }
        fn iter(&self) -> impl ExactSizeIterator<Item = Self::Ref<'_>> {
            $kind::iter(self)
        }
        fn indexed_iter(&self) -> impl ExactSizeIterator<Item = (Self::Index, Self::Ref<'_>)> {
            $kind::indexed_iter(self)
        }
        fn to_row_major(&self) -> Vec<Self::Elem> {
            $kind::to_row_major(self)
        }
        fn real(&self, index: Self::Index) -> f32
        where
            Self::Interface: RealValues<Self::Elem>,
        {
            $kind::real(self, index)
        }
    };
}

/// The writing methods of a kind, each calling the inherent method of the same name.
macro_rules! write_by_inherent {
    ($kind:ident) => {
        fn set(&mut self, index: Self::Index, value: Self::Elem) {
            $kind::set(self, index, value)
        }
        fn set_real(&mut self, index: Self::Index, value: f32)
        where
            Self::Interface: RealValues<Self::Elem>,
        {
            $kind::set_real(self, index, value)
        }
    };
}

impl<S: Storage, L: Layout, I: Interface> TensorRead for TensorBase<S, L, I> {
    type Elem = S::Elem;
    type Index = L::Index;
    type Ref<'a>
        = &'a S::Elem
    where
        Self: 'a;
    type Mapping = Mapping<L>;
    type Interface = I;
    read_by_inherent!(TensorBase);
}

impl<S: StorageMut, L: Layout, I: Interface> TensorWrite for TensorBase<S, L, I> {
    write_by_inherent!(TensorBase);
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> TensorRead
    for IndirectTensor<T, L, I, C>
{
    type Elem = T;
    type Index = L::Index;
    type Ref<'a>
        = &'a T
    where
        Self: 'a;
    type Mapping = Mapping<L>;
    type Interface = I;
    read_by_inherent!(IndirectTensor);
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> TensorWrite
    for IndirectTensor<T, L, I, C>
{
    write_by_inherent!(IndirectTensor);
}

impl<E: Nibble, L: Layout, I: Interface> TensorRead for PackedTensor<E, L, I> {
    type Elem = E;
    type Index = L::Index;
    type Ref<'a>
        = E
    where
        Self: 'a;
    type Mapping = Mapping<L>;
    type Interface = I;
    read_by_inherent!(PackedTensor);
}

impl<E: Nibble, L: Layout, I: Interface> TensorWrite for PackedTensor<E, L, I> {
    write_by_inherent!(PackedTensor);
}

impl<T: Element, I: Interface> TensorRead for DynTensor<T, I> {
    type Elem = T;
    type Index = DynIndex;
    type Ref<'a>
        = &'a T
    where
        Self: 'a;
    type Mapping = DynMapping;
    type Interface = I;
    read_by_inherent!(DynTensor);
}

impl<T: Element, I: Interface> TensorWrite for DynTensor<T, I> {
    write_by_inherent!(DynTensor);
}
