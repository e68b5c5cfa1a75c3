//! Dims whose storage overflows `usize`, in elements or in bytes, are `LayoutError::Overflow`
//! from every constructor, never a wrap, a panic or an abort.

use tensor_layout::prelude::*;
use tensor_layout::{DynLayout, DynTensor, LayoutError, layouts::Strided};

const HUGE: usize = usize::MAX;
const HALF: usize = usize::MAX / 2 + 1;

fn is_overflow<T>(result: Result<T, LayoutError>, element_size: Option<usize>) -> bool {
    matches!(result, Err(LayoutError::Overflow { element_size: e, .. }) if e == element_size)
}

#[test]
fn element_count_overflow_on_every_constructor() {
    // Padding alone overflows: ceil(MAX / 32) * 32 > MAX.
    assert!(is_overflow(
        Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, HUGE]),
        None
    ));
    // The product overflows.
    assert!(is_overflow(
        Mapping::<onednn::nchw>::new([HALF, 2, 1, 1]),
        None
    ));
    assert!(is_overflow(
        Tensor::<u8, onednn::nchw>::try_zeros([HALF, 2, 1, 1]),
        None
    ));
    assert!(is_overflow(
        Tensor::<u8, onednn::nchw>::try_from_fn([HALF, 2, 1, 1], |_| 0),
        None
    ));
    assert!(is_overflow(
        Tensor::<u8, onednn::nchw>::from_row_major([HALF, 2, 1, 1], &[]),
        None
    ));
    assert!(is_overflow(
        Mapping::<onednn::OIhw16i16o>::new([HUGE / 16, HUGE / 16, 1, 1]),
        None
    ));
    assert!(is_overflow(
        DynLayout::parse("nChw16c").unwrap().bind(&[1, HUGE, 1, 1]),
        None
    ));
    assert!(is_overflow(
        DynTensor::<u8>::zeros(DynLayout::parse("nchw").unwrap(), &[HALF, 2, 1, 1]),
        None
    ));
    assert!(is_overflow(
        DynTensor::from_row_major(DynLayout::parse("nchw").unwrap(), &[HALF, 2, 1, 1], &[0u8]),
        None
    ));
    assert!(is_overflow(
        DynLayout::parse("nchw")
            .unwrap()
            .ranked::<4>()
            .and_then(|l| Mapping::with_layout(l, [HALF, 2, 1, 1])),
        None
    ));
    assert!(is_overflow(
        Mapping::with_layout(Strided::new([HALF, 1], 0), [3, 1]),
        None
    ));
    assert!(is_overflow(
        Mapping::with_layout(Strided::new([1, 1], HUGE), [1, 1]),
        None
    ));
    // Zero in any dim means no storage at all, however large the others.
    assert_eq!(
        Mapping::<onednn::nchw>::new([0, HUGE, HUGE, HUGE])
            .unwrap()
            .storage_len(),
        0
    );
}

#[test]
fn byte_overflow_for_every_element_size() {
    fn check<T: tensor_layout::tensors::Element + Default>() {
        let size = size_of::<T>();
        // Fits in elements, not in isize::MAX bytes.
        let dims = [isize::MAX as usize / size + 1, 1, 1, 1];
        assert!(Mapping::<onednn::nchw>::new(dims).is_ok());
        assert!(
            is_overflow(Tensor::<T, onednn::nchw>::try_zeros(dims), Some(size)),
            "{size}-byte elements"
        );
        assert!(is_overflow(
            Tensor::<T, onednn::nchw>::try_from_fn(dims, |_| T::default()),
            Some(size)
        ));
        assert!(is_overflow(
            Tensor::<T, onednn::nchw>::try_filled(
                Mapping::new(dims).unwrap(),
                T::default(),
                T::default()
            ),
            Some(size)
        ));
    }
    check::<u16>();
    check::<f32>();
    check::<f64>();
    check::<u128>();
}

#[test]
fn relayout_into_a_layout_that_pads_past_usize_is_an_error() {
    let small = Tensor::<u8, onednn::nchw>::zeros([1, 1, 1, 1]);
    assert!(small.try_relayout::<htp::R4CroutonLayout>().is_ok());
    // Dims that fit plainly but whose padded crouton storage overflows are refused up front.
    assert!(is_overflow(
        Mapping::<htp::R4CroutonLayout>::new([1, HUGE / 4, 2, 1]),
        None
    ));
}
