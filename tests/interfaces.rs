//! Interfaces: what stored values mean, what padding holds, and that both travel with the
//! tensor through relayout, views and dynamic conversion.

use proptest::prelude::*;
use tensor_layout::prelude::*;
use tensor_layout::quantized::{Interface, RealValues};
use tensor_layout::tensors::{Element, Padding};
use tensor_layout::{DynTensor, dynamic::IntoTypedError};

type Crouton = htp::R4CroutonLayout;
type Flat = htp::R4FlatMemoryLayout;

/// Every padding slot of `t` (slots no logical index reaches).
fn padding<T: Element, L: Layout, I: Interface>(t: &Tensor<T, L, I>) -> Vec<T> {
    let raw = t.as_raw();
    (0..raw.len())
        .filter(|&slot| t.mapping().index_of(slot).is_none())
        .map(|slot| raw[slot])
        .collect()
}

#[test]
fn real_values_round_to_nearest_even_and_saturate_per_stored_type() {
    let q = ScaleOffset::new(0.5, 0);
    // 0.25 and 0.75 are 0.5 and 1.5 steps: ties go to the even neighbour.
    let mut t = Tensor::<u8, Flat, _>::zeros_with([1, 1, 1, 4], q);
    for (c, real) in [0.25, 0.75, -3.0, 1e6].into_iter().enumerate() {
        t.set_real([0, 0, 0, c], real);
    }
    assert_eq!(t.to_row_major(), [0, 2, 0, 255]);
    let mut t = Tensor::<i16, Flat, _>::zeros_with([1, 1, 1, 3], ScaleOffset::new(0.5, -10));
    for (c, real) in [1.25, -1e9, 1e9].into_iter().enumerate() {
        t.set_real([0, 0, 0, c], real);
    }
    assert_eq!(t.to_row_major(), [-8, i16::MIN, i16::MAX]);
    // An odd offset: -2.5 steps round to -2 (even) before the offset is added, as in ONNX's
    // QuantizeLinear; NaN stores the offset.
    let mut t = Tensor::<i32, Flat, _>::zeros_with([1, 1, 1, 2], ScaleOffset::new(1.0, 5));
    t.set_real([0, 0, 0, 0], -2.5);
    t.set_real([0, 0, 0, 1], f32::NAN);
    assert_eq!(t.to_row_major(), [3, 5]);
    assert_eq!(t.real([0, 0, 0, 0]), -2.0);
}

#[test]
fn padding_holds_the_offset_in_every_constructor_and_relayout() {
    let q = ScaleOffset::new(0.05, 128);
    let zeros = Tensor::<u8, Crouton, _>::zeros_with([1, 3, 5, 30], q);
    assert!(padding(&zeros).iter().all(|&v| v == 128));
    let from_real = Tensor::<u8, Crouton, _>::try_from_real_fn([1, 3, 5, 30], q, |[_, h, w, c]| {
        (h + w + c) as f32 * 0.05
    })
    .unwrap();
    assert!(padding(&from_real).iter().all(|&v| v == 128));
    let flat = from_real.relayout::<Flat>();
    let back = flat.relayout::<Crouton>();
    assert_eq!(back.as_raw(), from_real.as_raw());
    let blocked = from_real.relayout::<onednn::nChw32c>();
    assert_eq!(blocked.interface(), &q);
    assert!(padding(&blocked).iter().all(|&v| v == 128));
    assert_eq!(blocked.real([0, 29, 2, 4]), from_real.real([0, 2, 4, 29]));
    let retyped = Tensor::<u8, Crouton>::from_fn([1, 1, 1, 3], |_| 1)
        .with_interface(q)
        .unwrap();
    assert!(padding(&retyped).iter().all(|&v| v == 128));
}

#[test]
fn relayout_into_a_callers_buffer_writes_the_stored_zero_not_zero() {
    let q = ScaleOffset::new(0.1, 100);
    let src = Tensor::<u8, Flat, _>::try_from_real_fn([1, 2, 2, 3], q, |_| 0.5).unwrap();
    let m = Mapping::<Crouton>::new([1, 2, 2, 3]).unwrap();
    let mut buffer = vec![100u8; m.storage_len()];
    let mut dst = TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Check).unwrap();
    src.relayout_into(&mut dst).unwrap();
    assert!(buffer[3..].iter().enumerate().all(|(i, &v)| {
        let slot = i + 3;
        m.index_of(slot).map_or(v == 100, |_| v == 105)
    }));
    let other = ScaleOffset::new(0.1, 101);
    let mut buffer = vec![101u8; m.storage_len()];
    let mut dst = TensorViewMut::from_slice_with(m, &mut buffer, other, Padding::Trust).unwrap();
    let err = src.relayout_into(&mut dst).unwrap_err();
    assert!(
        matches!(err, LayoutError::InterfaceMismatch { .. }),
        "{err}"
    );
    assert!(buffer.iter().all(|&v| v == 101), "untouched on error");
}

#[test]
fn a_callers_padding_is_filled_checked_or_trusted_by_name() {
    let m = Mapping::<Crouton>::new([1, 1, 2, 30]).unwrap();
    let q = ScaleOffset::new(0.5, 7);
    let mut buffer = vec![7u8; m.storage_len()];
    buffer[33] = 8; // a logical element: pixel (0, 1), channel 1
    buffer[62] = 9; // the first padding slot that is wrong: pixel (0, 1), channel 30
    buffer[100] = 1; // padding: pixel (0, 3) lies past W = 2
    let err = TensorView::from_slice_with(m, &buffer, q, Padding::Check).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Padding {
            slot: 62,
            index: vec![0, 0, 1, 30],
            found: "9".into(),
            expected: "7".into(),
        }
    );
    assert!(matches!(
        TensorView::from_slice_with(m, &buffer, q, Padding::Fill),
        Err(LayoutError::ReadOnlyPadding)
    ));
    let trusted = TensorView::from_slice_with(m, &buffer, q, Padding::Trust).unwrap();
    assert_eq!(trusted[[0, 0, 1, 1]], 8);
    let before = buffer.clone();
    assert!(TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Check).is_err());
    assert_eq!(buffer, before, "a failed check writes nothing");
    TensorViewMut::from_slice_with(m, &mut buffer, q, Padding::Fill).unwrap();
    assert_eq!((buffer[33], buffer[62], buffer[100]), (8, 7, 7));
    assert!(TensorView::from_slice_with(m, &buffer, q, Padding::Check).is_ok());
}

#[test]
fn element_wise_work_never_reaches_padding() {
    let q = ScaleOffset::new(0.5, 128);
    let mut t = Tensor::<u8, Crouton, _>::try_from_real_fn([1, 2, 3, 5], q, |[_, h, w, c]| {
        (h + w + c) as f32 - 3.0
    })
    .unwrap();
    // Each of these maps real 0 (stored 128) to something else.
    let shifted = t.map_real(|x| x.max(0.0) + 1.0);
    assert!(padding(&shifted).iter().all(|&v| v == 128));
    assert_eq!(shifted.real([0, 1, 2, 4]), t.real([0, 1, 2, 4]) + 1.0);
    let bytes = t.map(|v| v ^ 0xff);
    assert!(padding(&bytes).iter().all(|&v| v == 0));
    assert_eq!(bytes[[0, 1, 2, 4]], t[[0, 1, 2, 4]] ^ 0xff);
    let other = Tensor::<u8, Crouton>::from_fn([1, 2, 3, 5], |_| 3);
    let sums = t
        .zip_with(&other, |a, b| u16::from(a) + u16::from(b) + 1000)
        .unwrap();
    assert!(padding(&sums).iter().all(|&v| v == 0));
    assert_eq!(sums[[0, 1, 2, 4]], u16::from(t[[0, 1, 2, 4]]) + 1003);
    let logical = t.len();
    let mut visited = 0;
    for v in t.iter_mut() {
        *v = v.wrapping_add(1);
        visited += 1;
    }
    assert_eq!(visited, logical);
    assert!(padding(&t).iter().all(|&v| v == 128));
    let wrong = Tensor::<u8, Crouton>::zeros([1, 2, 3, 6]);
    assert!(matches!(
        t.zip_with(&wrong, |a, b| a + b),
        Err(LayoutError::ShapeMismatch { .. })
    ));
}

#[test]
fn zip_with_pairs_elements_of_strided_views_by_index() {
    let big = Tensor::<u8, onednn::nchw>::from_fn([1, 2, 4, 4], |[_, c, h, w]| {
        (c * 16 + h * 4 + w) as u8
    });
    let left = big.slice(3, 0..2).unwrap();
    let right = big.slice(3, 2..4).unwrap();
    let diff = left.zip_with(&right, |a, b| b - a).unwrap();
    assert!(diff.to_row_major().iter().all(|&d| d == 2));
}

#[test]
fn views_relayouts_and_dyn_tensors_keep_the_interface() {
    let q = ScaleOffset::new(0.25, 3);
    let t = Tensor::<i8, onednn::nchw, _>::try_from_real_fn([1, 2, 3, 4], q, |[_, c, h, w]| {
        (c + h + w) as f32 * 0.25
    })
    .unwrap();
    assert_eq!(t.view().interface(), &q);
    let slice = t.slice(2, 1..3).unwrap();
    assert_eq!(slice.interface(), &q);
    assert_eq!(slice.real([0, 1, 0, 3]), t.real([0, 1, 1, 3]));
    let nhwc = t.align_to::<names::NHWC>().unwrap();
    assert_eq!(nhwc.real([0, 2, 3, 1]), t.real([0, 1, 2, 3]));
    let blocked = t.relayout::<onednn::nChw16c>();
    assert_eq!(blocked.interface(), &q);
    let rows = blocked.slice_blocks(2, 1..3).unwrap();
    assert_eq!(rows.interface(), &q);
    assert_eq!(rows.real([0, 1, 0, 3]), t.real([0, 1, 1, 3]));
    let table = blocked.to_indirect();
    assert_eq!(
        (table.interface(), table.real([0, 1, 2, 3])),
        (&q, t.real([0, 1, 2, 3]))
    );
    let dynamic = DynTensor::from(blocked);
    assert_eq!(dynamic.interface(), &q);
    let moved = dynamic
        .try_relayout(&tensor_layout::DynLayout::parse("nhwc").unwrap())
        .unwrap();
    let typed: Tensor<i8, onednn::nhwc, ScaleOffset> = moved.into_typed().unwrap();
    assert_eq!(typed.real([0, 1, 2, 3]), t.real([0, 1, 2, 3])); // oneDNN dims stay NCHW
    let failed: IntoTypedError<i8, ScaleOffset> = DynTensor::from(t.relayout::<onednn::nChw16c>())
        .into_typed::<onednn::nchw>()
        .unwrap_err();
    assert_eq!(failed.tensor.interface(), &q, "nothing lost");
}

#[test]
fn per_channel_pairs_follow_their_axis_by_name() {
    let pairs: Vec<(f32, i32)> = (0..20).map(|o| (0.5 + o as f32 * 0.25, o - 10)).collect();
    let q = PerChannel::new('O', pairs.clone());
    let w = Tensor::<i8, onednn::oihw, _>::try_from_real_fn(
        [20, 3, 1, 2],
        q.clone(),
        |[o, i, _, x]| (o + i + x) as f32 * 0.5,
    )
    .unwrap();
    let packed = w.relayout::<onednn::OIhw16i16o>();
    assert_eq!(packed.padded_dims(), [32, 16, 1, 2]);
    for o in 0..20 {
        assert_eq!(
            packed.real([o, 2, 0, 1]),
            w.real([o, 2, 0, 1]),
            "channel {o}"
        );
    }
    // Padding inside output channel o (input channels 3..16) holds o's zero; past the last
    // output channel, the last channel's.
    let raw = packed.as_raw();
    let mut checked = 0;
    for (slot, &value) in raw.iter().enumerate() {
        if let Some(index) = packed.mapping().padded_index_of(slot)
            && packed.mapping().index_of(slot).is_none()
        {
            let o = index[0].min(19);
            assert_eq!(
                i32::from(value),
                pairs[o].1,
                "slot {slot}, padded index {index:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 32 * 16 * 2 - 20 * 3 * 2);
    let view = w.slice(0, 4..6).unwrap();
    assert_eq!(view.interface().pairs(), &q.pairs()[4..6]);
    assert_eq!(view.real([1, 2, 0, 1]), w.real([5, 2, 0, 1]));
    let wrong = PerChannel::new('C', vec![(1.0, 0); 3]);
    let err = Tensor::<i8, onednn::oihw, _>::try_zeros_with([20, 3, 1, 2], wrong).unwrap_err();
    assert!(
        err.to_string()
            .contains("axis `C` needs a layout with that axis; this one has axes `OIHW`"),
        "{err}"
    );
}

#[test]
fn positional_reorders_and_renames_carry_the_channel_axis() {
    let q = PerChannel::new('b', vec![(1.0, 0), (2.0, 1)]);
    let t = Tensor::<i16, onednn_layout!("abcd"), _>::try_from_real_fn(
        [1, 2, 1, 3],
        q,
        |[_, b, _, d]| (b * 10 + d) as f32,
    )
    .unwrap();
    let moved = t.permute([0, 3, 2, 1]).unwrap();
    assert_eq!(moved.interface().axis(), 'd');
    assert_eq!(moved.real([0, 2, 0, 1]), t.real([0, 1, 0, 2]));
    let named = t.with_axes::<names::NCHW>();
    assert_eq!(named.interface().axis(), 'C');
    assert_eq!(named.real([0, 1, 0, 2]), 12.0);
}

proptest! {
    /// Reading then writing back a stored value gives it back, for scales that keep one stored
    /// step wider than the rounding error of `f32`.
    #[test]
    fn stored_values_survive_a_trip_through_real(
        scale in 1e-3f32..1e3,
        offset in -200i32..200,
        stored in any::<i16>(),
    ) {
        let q = ScaleOffset::new(scale, offset);
        let real = RealValues::<i16>::real(&q, stored, 0);
        let back: i16 = q.stored(real, 0);
        prop_assert_eq!(back, stored);
    }
}
