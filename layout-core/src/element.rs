//! [`Element`]: what a tensor stores one per slot.

/// A type that a [`Tensor`](crate::Tensor), its views, an
/// [`IndirectTensor`](crate::tensors::IndirectTensor) and a [`DynTensor`](crate::DynTensor) store one
/// per storage slot: the integers, the floats (`f32`, `f64`, `half::f16`, `half::bf16`), `bool`,
/// `char`, `()`, and arrays and tuples (up to four) of
/// them. The 4-bit [`u4`](crate::quantized::u4) and [`i4`](crate::quantized::i4) are not: they are
/// packed two per byte, in a [`PackedTensor`](crate::quantized::PackedTensor), wherever they are stored.
///
/// A `Copy` type of your own becomes an element with one line, `impl Element for MyPixel {}`;
/// generic code over a tensor's element type bounds it by `T: Element`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::tensors::Element;
/// #[derive(Clone, Copy, Default, Debug, PartialEq)]
/// struct Rgb(u8, u8, u8);
/// impl Element for Rgb {}
/// let t = Tensor::<Rgb, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| Rgb(w as u8, 0, 0));
/// assert_eq!(t[[0, 0, 0, 1]], Rgb(1, 0, 0));
///
/// fn total<T: Element + Into<f64>>(t: &Tensor<T, onednn::nchw>) -> f64 {
///     t.iter().map(|&v| v.into()).sum()
/// }
/// assert_eq!(total(&Tensor::<u8, onednn::nchw>::from_fn([1, 1, 1, 3], |_| 2)), 6.0);
/// ```
///
/// A `Tensor` of 4-bit elements does not compile, and the message names the packed tensor:
///
/// ```compile_fail
/// use tensor_layout::prelude::*;
/// let t = Tensor::<tensor_layout::quantized::u4, onednn::nchw>::zeros([1, 1, 1, 2]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tensor element: a `Tensor` stores one `{Self}` per slot",
    label = "not an `Element`",
    note = "4-bit `u4` and `i4` are packed two per byte: use `PackedTensor<{Self}, L>` (`PackedTensor::zeros`, `from_fn`, `from_row_major`, `from_bytes`)",
    note = "a `Copy` type of your own becomes an element with `impl tensor_layout::tensors::Element for MyType {{}}`; generic code bounds its element type by `T: Element`"
)]
pub trait Element: Copy {}

macro_rules! elements {
    ($($t:ty)*) => {$(
        impl Element for $t {}
    )*};
}
elements! {
    u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char half::f16 half::bf16
}

/// Zero-sized elements: a tensor of `()` has a shape and no data.
impl Element for () {}

impl<T: Element, const N: usize> Element for [T; N] {}
impl<A: Element, B: Element> Element for (A, B) {}
impl<A: Element, B: Element, C: Element> Element for (A, B, C) {}
impl<A: Element, B: Element, C: Element, D: Element> Element for (A, B, C, D) {}
