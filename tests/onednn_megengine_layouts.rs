//! Worked examples of oneDNN's documentation (oneDNN memory formats) and 000 (MegEngine formats).

use tensor_layout::RowMajorIndices;
use tensor_layout::prelude::*;

/// Checks `offset` of every index of `dims` against `formula`.
fn assert_offsets<L: Layout<Index = [usize; 4]> + Default>(
    dims: [usize; 4],
    formula: impl Fn([usize; 4]) -> usize,
) {
    let m = Mapping::<L>::new(dims).unwrap();
    for index in RowMajorIndices::new(dims) {
        assert_eq!(
            m.offset(index),
            formula(index),
            "{} {dims:?} at {index:?}",
            m.layout()
        );
    }
}

#[test]
fn plain_formulas_of_onednns_documentation() {
    let (n, c, h, w) = (2, 5, 3, 4);
    let dims = [n, c, h, w];
    assert_offsets::<onednn::nchw>(dims, |[ni, ci, hi, wi]| {
        ni * c * h * w + ci * h * w + hi * w + wi
    });
    assert_offsets::<onednn::nhwc>(dims, |[ni, ci, hi, wi]| {
        ni * h * w * c + hi * w * c + wi * c + ci
    });
    assert_offsets::<onednn::chwn>(dims, |[ni, ci, hi, wi]| {
        ci * h * w * n + hi * w * n + wi * n + ni
    });
}

#[test]
fn nchw8c_formula_with_channels_not_a_multiple_of_8() {
    // offset_nChw8c(n, c, h, w) = n*CHW + (c/8)*HW*8 + h*W*8 + w*8 + c%8, with C read as the
    // padded C (24 for 17 channels), as oneDNN's assertion block says.
    let (n, c, h, w) = (2, 17, 3, 5);
    let c_padded = 24;
    assert_offsets::<onednn::nChw8c>([n, c, h, w], |[ni, ci, hi, wi]| {
        ni * c_padded * h * w + (ci / 8) * h * w * 8 + hi * w * 8 + wi * 8 + ci % 8
    });
    // The same formula with 8 channels exactly.
    assert_offsets::<onednn::nChw8c>([n, 8, h, w], |[ni, ci, hi, wi]| {
        ni * 8 * h * w + hi * w * 8 + wi * 8 + ci
    });
}

#[test]
fn nchw8c_assertion_block_for_17_channels() {
    let (n, c, h, w) = (2, 17, 3, 5);
    let c_padded = 17usize.div_ceil(8) * 8;
    let desc = Mapping::<onednn::nChw8c>::new([n, c, h, w])
        .unwrap()
        .blocking_desc();
    assert_eq!(desc.dims, [n, c, h, w]); // logical dims stay as is
    assert_eq!(desc.padded_dims, [n, c_padded, h, w]); // padded dims are rounded accordingly
    let (stride_n, stride_c, stride_h, stride_w) = (c_padded * h * w, h * w * 8, w * 8, 8);
    assert_eq!(desc.strides, [stride_n, stride_c, stride_h, stride_w]);
    assert_eq!(desc.inner_nblks(), 1);
    assert_eq!(desc.inner_blks, [8]); // one inner block of 8 ...
    assert_eq!(desc.inner_idxs, [1]); // ... on dimension 1, stride within it 1
}

#[test]
fn padding_is_zero_after_every_constructor_and_relayout() {
    let dims = [2, 17, 3, 5];
    let m = Mapping::<onednn::nChw8c>::new(dims).unwrap();
    let count = |raw: &[f32]| {
        raw.iter()
            .enumerate()
            .filter(|&(o, &v)| m.is_padding(o) && v != 0.0)
            .count()
    };
    let values: Vec<f32> = (1..=dims.iter().product::<usize>())
        .map(|v| v as f32)
        .collect();
    let from_rows = Tensor::<f32, onednn::nChw8c>::from_row_major(dims, &values).unwrap();
    assert_eq!(count(from_rows.as_raw()), 0);
    let from_fn =
        Tensor::<f32, onednn::nChw8c>::from_fn(dims, |[n, c, h, w]| (n + c + h + w + 1) as f32);
    assert_eq!(count(from_fn.as_raw()), 0);
    let plain = Tensor::<f32, onednn::nchw>::from_row_major(dims, &values).unwrap();
    let relaid = plain.relayout::<onednn::nChw8c>();
    assert_eq!(count(relaid.as_raw()), 0);
    let mut dirty = Tensor::<f32, onednn::nChw8c>::zeros(dims);
    dirty.as_raw_mut().fill(7.0);
    plain.relayout_into(&mut dirty).unwrap();
    assert_eq!(count(dirty.as_raw()), 0);
    assert_eq!(dirty.to_row_major(), values);
}

/// MegEngine's documentation's example: N=2, C=64, H=3, W=3, each element labelled by its NCHW position
/// (0000 to 1151).
fn labelled() -> Tensor<u32, megengine::NCHW> {
    let dims = [2, 64, 3, 3];
    Tensor::from_row_major(dims, &(0..1152).collect::<Vec<u32>>()).unwrap()
}

#[test]
fn megengine_nchw_and_nhwc() {
    let nchw = labelled();
    assert_eq!(nchw.as_raw(), (0..1152).collect::<Vec<u32>>()); // "in order from 0000 to 1151"
    let nhwc = nchw.relayout::<megengine::NHWC>();
    // "the C dimension is stored first: 0000, 0009, ..., then W: 0001, 0010, ..."
    assert_eq!(nhwc.as_raw()[..3], [0, 9, 18]);
    assert_eq!(nhwc.as_raw()[63], 567);
    assert_eq!(nhwc.as_raw()[64..66], [1, 10]);
    assert_eq!(*nhwc.as_raw().last().unwrap(), 1151);
}

#[test]
fn megengine_nchw4_stores_four_channels_then_w_h_c_n() {
    let t = labelled().relayout::<megengine::NCHW4>();
    // "NCHW4 first stores 4 channel dimensions, here are 0000, 0009, 0018 and 0027, and then
    //  continue to follow W, H, C, and N ... store 0001, 0010, etc."
    assert_eq!(t.as_raw()[..8], [0, 9, 18, 27, 1, 10, 19, 28]);
    assert_eq!(t.as_raw()[12..16], [3, 12, 21, 30]); // next row (h = 1)
    assert_eq!(t.as_raw()[36..40], [36, 45, 54, 63]); // next 4 channels (c = 4..8)
    assert_eq!(t.as_raw()[576..580], [576, 585, 594, 603]); // next image
}

#[test]
fn megengine_nchw32_and_nchw64_store_32_and_64_channels_first() {
    let t32 = labelled().relayout::<megengine::NCHW32>();
    assert_eq!(t32.as_raw()[..3], [0, 9, 18]);
    assert_eq!(t32.as_raw()[31], 31 * 9);
    assert_eq!(t32.as_raw()[32], 1);
    let t64 = labelled().relayout::<megengine::NCHW64>();
    assert_eq!(t64.as_raw()[63], 63 * 9);
    assert_eq!(t64.as_raw()[64], 1);
}

#[test]
fn megengine_chwn4_stores_four_channels_then_the_batch() {
    let t = labelled().relayout::<megengine::CHWN4>();
    // "After 0000, 0009, 0018 and 0027, store 0576 to 0603 directly along the N dimension,
    //  and then store 0001 and 0010 along the W dimension and H dimension."
    assert_eq!(t.as_raw()[..8], [0, 9, 18, 27, 576, 585, 594, 603]);
    assert_eq!(t.as_raw()[8..10], [1, 10]);
}

#[test]
fn megengine_pads_channels_to_the_block() {
    let m = Mapping::<megengine::NCHW4>::new([1, 6, 2, 2]).unwrap();
    assert_eq!(m.padded_dims(), [1, 8, 2, 2]);
    let t = Tensor::<u8, megengine::NCHW4>::from_fn([1, 6, 2, 2], |_| 1);
    assert_eq!(t.as_raw().iter().filter(|&&v| v == 0).count(), 2 * 2 * 2);
}
