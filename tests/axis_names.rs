//! Axis names: conversions move each element by name, across systems and at run time; re-typing
//! and views keep or state names without moving data; mismatched names are errors that say so.

use tensor_layout::axes::Positional;
use tensor_layout::prelude::*;
use tensor_layout::{DynLayout, DynTensor, LayoutError, axes::AxisWord, mappings::RowMajorIndices};

#[test]
fn croutons_land_in_onednn_channel_blocks_by_name() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 5, 6, 40], |[_, h, w, c]| {
        (h * 64 + w * 8 + c) as u8
    });
    let u = t.relayout::<onednn::nChw32c>();
    assert_eq!(u.dims(), [1, 40, 5, 6]);
    assert_eq!(u.padded_dims(), [1, 64, 5, 6]);
    for [n, c, h, w] in RowMajorIndices::new([1, 40, 5, 6]) {
        assert_eq!(u[[n, c, h, w]], t[[n, h, w, c]], "{:?}", [n, c, h, w]);
    }
    // The padding (channels 40..64) holds the pad value, and there is one slot of it for each
    // storage slot no element took.
    let mut padding = 0;
    u.mapping().for_each_padding(|range| {
        padding += range.len();
        assert!(u.as_raw()[range].iter().all(|&v| v == 0));
    });
    assert_eq!(padding, u.storage_len() - u.len());
    // And back: the same tensor.
    let back = u.relayout::<htp::R4CroutonLayout>();
    assert_eq!(back.as_raw(), t.as_raw());
}

#[test]
fn htp_weights_land_in_onednn_and_sophgo_weights_by_name() {
    let dims = [3, 3, 20, 40]; // H, W, I, O
    let w = Tensor::<f32, htp::R4ConvWeightLayout>::from_fn(dims, |[h, w, i, o]| {
        (h * 1000 + w * 100 + i * 50 + o) as f32
    });
    let oihw = w.relayout::<onednn::OIhw16i16o>();
    assert_eq!(oihw.dims(), [40, 20, 3, 3]);
    let iohw = w.relayout::<sophgo::ContinuousWeights>();
    assert_eq!(iohw.dims(), [20, 40, 3, 3]);
    for [h, ww, i, o] in RowMajorIndices::new(dims) {
        assert_eq!(oihw[[o, i, h, ww]], w[[h, ww, i, o]]);
        assert_eq!(iohw[[i, o, h, ww]], w[[h, ww, i, o]]);
    }
}

#[test]
fn same_order_in_another_system_is_a_plain_copy() {
    // HTP's flat NHWC and oneDNN's nhwc store the same bytes; only the dims' order differs.
    let flat = Tensor::<u16, htp::R4FlatMemoryLayout>::from_fn([2, 3, 4, 5], |[n, h, w, c]| {
        (n * 1000 + h * 100 + w * 10 + c) as u16
    });
    let nhwc = flat.relayout::<onednn::nhwc>();
    assert_eq!(nhwc.dims(), [2, 5, 3, 4]);
    assert_eq!(nhwc.as_raw(), flat.as_raw());
}

#[test]
fn relayout_into_wants_the_destination_order() {
    let t = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 2, 3, 4]);
    let mut same_order = Tensor::<u8, onednn::nchw>::zeros([1, 2, 3, 4]);
    same_order.as_raw_mut().fill(9);
    assert_eq!(
        t.relayout_into(&mut same_order).unwrap_err(),
        LayoutError::ShapeMismatch {
            source: vec![1, 4, 2, 3],
            destination: vec![1, 2, 3, 4]
        }
    );
    assert!(same_order.as_raw().iter().all(|&v| v == 9), "untouched");
    let mut by_name = Tensor::<u8, onednn::nchw>::zeros([1, 4, 2, 3]);
    t.relayout_into(&mut by_name).unwrap();
}

#[test]
fn with_axes_retypes_without_a_copy() {
    let abcd = Tensor::<u8, onednn_layout!("abcd")>::from_fn([1, 2, 3, 4], |[_, b, c, d]| {
        (b * 100 + c * 10 + d) as u8
    });
    let before = abcd.as_raw().as_ptr();
    let nchw: Tensor<u8, onednn::nchw> = abcd.with_axes::<names::NCHW>();
    assert_eq!(nchw.as_raw().as_ptr(), before);
    assert_eq!(nchw[[0, 1, 2, 3]], 123);
    let view = nchw.view().with_axes::<Positional>();
    assert_eq!(view.mapping().layout().axis_word(), AxisWord::positional(4));
}

#[test]
fn views_are_permuted_by_name_and_keep_names() {
    let nhwc = Tensor::<u16, htp::R4FlatMemoryLayout>::from_fn([1, 4, 5, 3], |[_, h, w, c]| {
        (h * 100 + w * 10 + c) as u16
    });
    let window = nhwc.slice(1, 1..3).unwrap();
    assert_eq!(window.mapping().layout().axis_word().as_str(), "NHWC");
    let as_nchw = window.align_to::<names::NCHW>().unwrap();
    assert_eq!(as_nchw.dims(), [1, 3, 2, 5]);
    assert_eq!(as_nchw[[0, 2, 1, 4]], nhwc[[0, 2, 4, 2]]);
    // A view relayouts by name like any tensor: into HTP's own order, or into oneDNN's.
    let blocked = as_nchw.relayout::<htp::R4CroutonLayout>();
    assert_eq!(blocked.dims(), [1, 2, 5, 3]);
    assert_eq!(blocked.to_row_major(), window.to_row_major());
    let onednn = window.relayout::<onednn::nChw8c>();
    assert_eq!(onednn.to_row_major(), as_nchw.to_row_major());
}

#[test]
fn run_time_relayouts_move_by_name_and_refuse_other_names() {
    let data: Vec<u8> = (0..240).map(|v| v as u8).collect();
    let flat = DynLayout::parse("htp::R4FlatMemoryLayout").unwrap();
    let t = DynTensor::from_row_major(flat, &[1, 5, 6, 8], &data).unwrap();
    let blocked = t
        .try_relayout(&DynLayout::parse("nChw32c").unwrap())
        .unwrap();
    let typed = Tensor::<u8, htp::R4FlatMemoryLayout>::from_row_major([1, 5, 6, 8], &data)
        .unwrap()
        .relayout::<onednn::nChw32c>();
    assert_eq!(blocked.as_raw(), typed.as_raw());
    assert_eq!(blocked.mapping().dims(), [1, 8, 5, 6]);
    for other in ["oihw", "abcd", "NCDHW: 0,0 1,0 2,0 3,0 4,0"] {
        let layout = DynLayout::parse(other).unwrap();
        let err = t.try_relayout(&layout).unwrap_err();
        assert!(
            matches!(
                err,
                LayoutError::AxisNames { .. } | LayoutError::Rank { .. }
            ),
            "{other}: {err:?}"
        );
    }
    assert_eq!(
        t.try_relayout(&DynLayout::parse("oihw").unwrap())
            .unwrap_err()
            .to_string(),
        "axes NHWC and OIHW do not have the same names: elements move by axis name"
    );
}

#[test]
fn typed_tensors_of_run_time_layouts_check_names_when_they_convert() {
    let layout = DynLayout::parse("oihw").unwrap().ranked::<4>().unwrap();
    let src =
        Tensor::try_filled(Mapping::with_layout(layout, [2, 3, 4, 5]).unwrap(), 1u8, 0).unwrap();
    let mut dst = Tensor::<u8, onednn::nchw>::zeros([2, 3, 4, 5]);
    assert_eq!(
        src.relayout_into(&mut dst).unwrap_err(),
        LayoutError::AxisNames {
            source: "OIHW".into(),
            destination: "NCHW".into()
        }
    );
    assert!(dst.as_raw().iter().all(|&v| v == 0), "nothing written");
    let mut weights = Tensor::<u8, onednn::hwio>::zeros([2, 3, 4, 5]);
    src.relayout_into(&mut weights).unwrap();
    assert!(weights.as_raw().iter().all(|&v| v == 1));
}

#[test]
fn every_catalog_name_prints_a_form_that_reads_back() {
    for entry in tensor_layout::registry::all() {
        let layout = entry.layout();
        let text = layout.to_string();
        assert_eq!(DynLayout::parse(&text).unwrap(), layout, "{text}");
        assert!(
            !layout.axis_word().is_positional(),
            "{} names its axes",
            entry.name
        );
        assert!(text.contains(layout.axis_word().as_str()), "{text}");
    }
}
