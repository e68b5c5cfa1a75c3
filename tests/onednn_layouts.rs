//! Worked examples of oneDNN's memory-format documentation ("Understanding Memory Formats"):
//! the plain formats nchw, nhwc and chwn, their generalisation by strides, the blocked nChw8c and
//! nChw16c, and the zero padding of channels that do not fill a block.

use tensor_layout::prelude::*;
use tensor_layout::{
    axes::RelayoutFrom, layouts::SameRankAs, layouts::Strided, mappings::RowMajorIndices,
};

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

// The documentation's example: batch 2, 16 channels, a 5 x 4 spatial domain.
const N: usize = 2;
const C: usize = 16;
const H: usize = 5;
const W: usize = 4;
const DIMS: [usize; 4] = [N, C, H, W];

/// The documentation's example values: value(n, c, h, w) = n*CHW + c*HW + h*W + w.
fn value([n, c, h, w]: [usize; 4]) -> u32 {
    (n * C * H * W + c * H * W + h * W + w) as u32
}

/// Builds the documentation's example tensor in layout `L` and checks, for every element, that
/// its offset is the documentation's `formula` for that format and that the storage holds
/// value(n, c, h, w) there; relaying out the nchw tensor gives the same storage.
fn assert_example_in<L>(formula: impl Fn([usize; 4]) -> usize)
where
    L: SameRankAs<onednn::nchw> + RelayoutFrom<onednn::nchw> + Layout<Index = [usize; 4]> + Default,
{
    let t = Tensor::<u32, L>::from_fn(DIMS, value);
    let name = t.mapping().layout().to_string();
    // 16 channels fill whole blocks of 8 and of 16: no format pads this tensor.
    assert_eq!(t.storage_len(), N * C * H * W, "{name}");
    for index in RowMajorIndices::new(DIMS) {
        let offset = formula(index);
        assert_eq!(t.mapping().offset(index), offset, "{name} at {index:?}");
        assert_eq!(t.as_raw()[offset], value(index), "{name} at {index:?}");
    }
    let nchw = Tensor::<u32, onednn::nchw>::from_fn(DIMS, value);
    assert_eq!(nchw.relayout::<L>().as_raw(), t.as_raw(), "{name}");
}

#[test]
fn example_2x16x5x4_in_nchw_is_stored_in_value_order() {
    // offset_nchw(n, c, h, w) = n*CHW + c*HW + h*W + w
    assert_example_in::<onednn::nchw>(|[n, c, h, w]| n * C * H * W + c * H * W + h * W + w);
    // "It is just a coincidence that offset_nchw() is the same as value() in this example":
    // the storage holds 0, 1, 2, ... in order.
    let t = Tensor::<u32, onednn::nchw>::from_fn(DIMS, value);
    assert_eq!(t.as_raw(), (0..(N * C * H * W) as u32).collect::<Vec<_>>());
}

#[test]
fn example_2x16x5x4_in_nhwc() {
    // offset_nhwc(n, c, h, w) = n*HWC + h*WC + w*C + c
    assert_example_in::<onednn::nhwc>(|[n, c, h, w]| n * H * W * C + h * W * C + w * C + c);
}

#[test]
fn example_2x16x5x4_in_chwn() {
    // offset_chwn(n, c, h, w) = c*HWN + h*WN + w*N + n
    assert_example_in::<onednn::chwn>(|[n, c, h, w]| c * H * W * N + h * W * N + w * N + n);
}

#[test]
fn example_2x16x5x4_in_nchw8c() {
    // offset_nChw8c(n, c, h, w) = n*CHW + (c/8)*HW*8 + h*W*8 + w*8 + c%8. With 16 channels C
    // is a multiple of 8, so the formula holds as the documentation writes it (see
    // `nchw8c_formula_with_channels_not_a_multiple_of_8` for C that is not).
    assert_example_in::<onednn::nChw8c>(|[n, c, h, w]| {
        n * C * H * W + (c / 8) * H * W * 8 + h * W * 8 + w * 8 + c % 8
    });
    // The blocking structure of the documentation's pseudo code: strides between blocks
    // (stride_n = C*H*W, stride_C = H*W*8, stride_h = W*8, stride_w = 8), one inner block of
    // 8 channels (dimension 1), contiguous within (stride_8c = 1).
    let desc = Mapping::<onednn::nChw8c>::new(DIMS)
        .unwrap()
        .blocking_desc();
    assert_eq!(desc.strides, [C * H * W, H * W * 8, W * 8, 8]);
    assert_eq!(desc.inner_nblks(), 1);
    assert_eq!(desc.inner_blks, [8]);
    assert_eq!(desc.inner_idxs, [1]);
    // "blocks of 8 channels are kept contiguously in memory ... Then next slice covers
    // subsequent 8 channels": after the first image's c = 0..7 at every pixel come c = 8..15.
    let t = Tensor::<u32, onednn::nChw8c>::from_fn(DIMS, value);
    assert_eq!(t.as_raw()[..8], [0, 20, 40, 60, 80, 100, 120, 140]);
    assert_eq!(t.as_raw()[H * W * 8], value([0, 8, 0, 0]));
}

#[test]
fn example_2x16x5x4_in_nchw16c() {
    // The documentation gives nChw8c's formula and says nChw16c is the same with blocks of 16
    // channels: n*CHW + (c/16)*HW*16 + h*W*16 + w*16 + c%16.
    assert_example_in::<onednn::nChw16c>(|[n, c, h, w]| {
        n * C * H * W + (c / 16) * H * W * 16 + h * W * 16 + w * 16 + c % 16
    });
}

#[test]
fn example_2x16x5x4_through_explicit_strides() {
    // offset(n, c, h, w) = n*stride_n + c*stride_c + h*stride_h + w*stride_w; nchw, nhwc and
    // chwn are special cases, nchw with stride_n = CHW, stride_c = HW, stride_h = W, stride_w = 1.
    let nchw = Tensor::<u32, onednn::nchw>::from_fn(DIMS, value);
    let strides = [C * H * W, H * W, W, 1];
    assert_eq!(nchw.mapping().strides(), Some(strides));
    let strided = Mapping::with_layout(Strided::new(strides, 0), DIMS).unwrap();
    let view = TensorView::from_slice(strided, nchw.as_raw()).unwrap();
    for [n, c, h, w] in RowMajorIndices::new(DIMS) {
        let offset = n * strides[0] + c * strides[1] + h * strides[2] + w * strides[3];
        assert_eq!(strided.offset([n, c, h, w]), offset);
        assert_eq!(view[[n, c, h, w]], value([n, c, h, w]));
    }
    let nhwc = Mapping::<onednn::nhwc>::new(DIMS).unwrap();
    assert_eq!(nhwc.strides(), Some([H * W * C, 1, W * C, C]));
    let chwn = Mapping::<onednn::chwn>::new(DIMS).unwrap();
    assert_eq!(chwn.strides(), Some([1, H * W * N, W * N, N]));
    // "some might need to work with sub-tensor within a bigger tensor": channels 4..12 of the
    // example keep nchw's strides and start 4 planes in.
    let sub = nchw.slice(1, 4..12).unwrap();
    assert_eq!(sub.mapping().layout().strides(), strides);
    assert_eq!(sub.mapping().base_offset(), 4 * H * W);
    assert_eq!(sub[[1, 0, 2, 3]], value([1, 4, 2, 3]));
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
    // oneDNN's memory-format documentation writes the nChw8c offset as
    //     n*CHW + (c/8)*HW*8 + h*W*8 + w*8 + c%8
    // with C the number of channels. When C is not a multiple of 8 the channels are padded
    // with zeros to whole blocks (17 become 24), and each image then takes C_padded*H*W
    // slots, not C*H*W: the same documentation's code says so ("stride_n = C_padded*H*W,
    // note C_padded here, not C"). Read with the logical C, the formula would put the second
    // image inside the first one's padding, so the test reads C in it as the padded C.
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
