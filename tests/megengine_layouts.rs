//! Worked examples of MegEngine's documentation on tensor memory layout: row-major offsets, byte
//! strides, and the formats NCHW, NHWC, NCHW4, NCHW32, NCHW64 and CHWN4.

use tensor_layout::prelude::*;
use tensor_layout::{layouts::Strided, mappings::RowMajorIndices};

/// A plain row-major 2-D layout (the last index fastest).
type RowMajor2 = chunked_layout![2; 0,0, 1,0];

#[test]
fn row_major_3x3_table() {
    // The documentation's table for a 3 x 3 tensor in row-major order: offset, access, value.
    // Values a11 .. a33 are written here as the numbers 11 .. 33.
    let table = [
        (0, [0, 0], 11),
        (1, [0, 1], 12),
        (2, [0, 2], 13),
        (3, [1, 0], 21),
        (4, [1, 1], 22),
        (5, [1, 2], 23),
        (6, [2, 0], 31),
        (7, [2, 1], 32),
        (8, [2, 2], 33),
    ];
    let a = Tensor::<u32, RowMajor2>::from_fn([3, 3], |[i, j]| (10 * (i + 1) + j + 1) as u32);
    let strided = Mapping::with_layout(Strided::row_major([3, 3]), [3, 3]).unwrap();
    for (offset, index, value) in table {
        assert_eq!(a.mapping().offset(index), offset, "a{index:?}");
        assert_eq!(strided.offset(index), offset, "a{index:?}");
        assert_eq!(a.mapping().index_of(offset), Some(index));
        assert_eq!(a.as_raw()[offset], value, "offset {offset}");
        assert_eq!(a[index], value);
    }
    assert_eq!(a.storage_len(), 9);
}

#[test]
fn int32_2x5_occupies_40_bytes_with_byte_strides_20_and_4() {
    // x = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], dtype int32: 10 elements of 4 bytes "occupying 40
    // bytes"; 4 bytes to the next column, 20 to the same position in the next row, so the
    // stride of x is (20, 4): s0 = 4 * 5, s1 = 4.
    let x =
        Tensor::<i32, RowMajor2>::from_row_major([2, 5], &(0..10).collect::<Vec<i32>>()).unwrap();
    assert_eq!(x.storage_len() * size_of::<i32>(), 40);
    let bytes: &[u8] = bytemuck::cast_slice(x.as_raw());
    assert_eq!(bytes.len(), 40);
    let element_strides = x.mapping().strides().unwrap();
    assert_eq!(element_strides.map(|s| s * size_of::<i32>()), [20, 4]);
    let layout = Strided::row_major([2, 5]);
    assert_eq!(layout.strides(), [5, 1]);
    assert_eq!(layout.byte_strides::<i32>(), [20, 4]);
    // Element [1][2] lies at byte 1 * 20 + 2 * 4 = 28, and holds 7.
    let m = Mapping::with_layout(layout, [2, 5]).unwrap();
    assert_eq!(m.storage_len(), 10);
    assert_eq!(m.offset([1, 2]) * size_of::<i32>(), 28);
    assert_eq!(i32::from_ne_bytes(bytes[28..32].try_into().unwrap()), 7);
    let view = TensorView::from_slice(m, x.as_raw()).unwrap();
    assert_eq!(view[[1, 2]], 7);
    // Column-major strides put [1][2] at element 1 + 2 * 2 = 5 instead.
    let column = Mapping::with_layout(Strided::column_major([2, 5]), [2, 5]).unwrap();
    assert_eq!(column.offset([1, 2]), 5);
}

#[test]
fn row_major_byte_strides_and_offsets_for_any_shape() {
    // s_k = itemsize * prod_{j > k} d_j, and element [n_0, ..., n_{N-1}] lies at byte
    // sum_k s_k * n_k; here for a (2, 3, 4, 5) float32 tensor.
    let dims = [2, 3, 4, 5];
    let itemsize = size_of::<f32>();
    let s: [usize; 4] = std::array::from_fn(|k| itemsize * dims[k + 1..].iter().product::<usize>());
    assert_eq!(s, [240, 80, 20, 4]);
    let layout = Strided::row_major(dims);
    assert_eq!(layout.byte_strides::<f32>(), s);
    let m = Mapping::with_layout(layout, dims).unwrap();
    assert_eq!(m.storage_len() * itemsize, 2 * 3 * 4 * 5 * 4);
    for index in RowMajorIndices::new(dims) {
        let byte_offset: usize = (0..4).map(|k| s[k] * index[k]).sum();
        assert_eq!(m.offset(index) * itemsize, byte_offset, "{index:?}");
    }
}

/// MegEngine's documentation's example: N=2, C=64, H=3, W=3, each element labelled by its NCHW
/// position (0000 to 1151).
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
fn megengine_nhwc_stores_the_channels_of_a_pixel_first() {
    // "For NHWC, the C dimension is stored first, so the priority is to store 0000, 0009 until
    // 1143, and then continue to be stored according to W, H, and N respectively, and store
    // 0001, 0010, etc." The channels of a pixel step by H * W = 9 labels. 1143 = 576 + 63 * 9
    // is the last channel of pixel (0, 0) in the second image: the listing's run from 0000 in
    // steps of 9 ends at 0567 in the first image, and the same run of the second image, from
    // 0576, ends at 1143.
    let nhwc = labelled().relayout::<megengine::NHWC>();
    let raw = nhwc.as_raw();
    let first_pixel: Vec<u32> = (0..64).map(|c| c * 9).collect();
    assert_eq!(raw[..64], first_pixel[..]); // 0000, 0009, ..., 0567
    let second_image: Vec<u32> = (0..64).map(|c| 576 + c * 9).collect();
    assert_eq!(raw[576..640], second_image[..]); // 0576, 0585, ..., 1143
    assert_eq!(raw[639], 1143);
    assert_eq!(nhwc[[1, 63, 0, 0]], 1143);
    // Then W: 0001, 0010, ... follow the first pixel's channels.
    assert_eq!(raw[64..66], [1, 10]);
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
