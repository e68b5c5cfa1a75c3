//! Storage modes (the TPU-Kernel documentation's "Storage Modes"): 4N packs four int8 batch
//! elements, 2N two int16, 2IC two fp32 input channels of a weight into one element; strides
//! count the packed elements and a short batch gets zero dummies.

use crate::helpers::{assert_locations, int_value, value};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    EuAligned, ExampleChip, FourN, Fp32x2, Int8x4, Int16x2, LocalMemory, TwoIC, TwoN,
};

#[test]
fn four_n_6x5x4x5_int8_is_2x5x4x5_int8x4() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let layout = EuAligned::<ExampleChip, FourN>::new(0, 1);
    let t = memory.place::<i8, _>(layout, [6, 5, 4, 5]).unwrap();
    let g = t.local_geometry();
    // The new shape against int8x4 is (M = 2, C = 5, H = 4, W = 5); strides count int8x4.
    assert_eq!(g.packed_dims(), [2, 5, 4, 5]);
    assert_eq!(g.strides(), [64, 32, 5, 1]);
    assert_eq!(t.mapping().padded_dims(), [8, 5, 4, 5]); // 4 - 6 % 4 = 2 dummies
    assert_locations(&t, 0, 0, [64, 32, 5, 1], 4);
    // (4m .. 4m + 3, c, h, w) are consecutive bytes.
    for index in RowMajorIndices::new([2, 5, 4, 5]) {
        let [m, c, h, w] = index;
        let first = t.address_of([4 * m, c, h, w]).unwrap();
        for k in 1..4 {
            if 4 * m + k < 6 {
                assert_eq!(t.address_of([4 * m + k, c, h, w]).unwrap(), first + k);
            }
        }
    }

    let src = Tensor::<i8, onednn::nchw>::from_fn([6, 5, 4, 5], |i| int_value(i) as i8);
    memory.store(&src, &t).unwrap();
    let packed = t.packed::<Int8x4>().unwrap();
    assert_eq!(packed.dims(), [2, 5, 4, 5]);
    assert_eq!(packed.local_geometry().strides(), [64, 32, 5, 1]);
    let view = memory.view(&packed);
    for index in RowMajorIndices::new([2, 5, 4, 5]) {
        let [m, c, h, w] = index;
        let lanes = view[index];
        for (k, &lane) in lanes.iter().enumerate() {
            let n = 4 * m + k;
            let expected = if n < 6 {
                int_value([n, c, h, w]) as i8
            } else {
                0 // a dummy element
            };
            assert_eq!(lane, expected, "int8x4 {index:?} lane {k}");
        }
    }
    // The int8x4 at (1, 0, 0, 0) holds (4, 0, 0, 0), (5, 0, 0, 0) and two dummies.
    assert_eq!(
        view[[1, 0, 0, 0]],
        [
            int_value([4, 0, 0, 0]) as i8,
            int_value([5, 0, 0, 0]) as i8,
            0,
            0
        ]
    );
    // Loads give the int8 elements back.
    let back: Tensor<i8, onednn::nhwc> = memory.load_new(&t).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
}

#[test]
fn two_n_3x5x4x5_int16_is_2x5x4x5_int16x2() {
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let t = memory
        .place::<i16, _>(EuAligned::<ExampleChip, TwoN>::new(0, 2), [3, 5, 4, 5])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.packed_dims(), [2, 5, 4, 5]);
    assert_eq!(g.strides(), [64, 32, 5, 1]); // 20 int16x2 rounded up to 32; 2 channels per NPU
    assert_eq!(t.mapping().padded_dims(), [4, 5, 4, 5]); // one dummy
    assert_locations(&t, 0, 0, [64, 32, 5, 1], 2);

    let src = Tensor::<i16, onednn::nchw>::from_fn([3, 5, 4, 5], |i| -(int_value(i) as i16));
    memory.store(&src, &t).unwrap();
    let view = memory.view(&t.packed::<Int16x2>().unwrap()).to_row_major();
    // The int16x2 at (1, 0, 0, 0) holds (2, 0, 0, 0) and a dummy.
    assert_eq!(view[100], [-(int_value([2, 0, 0, 0]) as i16), 0]);
    for (i, pair) in view.iter().enumerate() {
        let (m, rest) = (i / 100, i % 100);
        let index = [2 * m, rest / 20, rest / 5 % 4, rest % 5];
        assert_eq!(pair[0], -(int_value(index) as i16));
        let second = [2 * m + 1, index[1], index[2], index[3]];
        assert_eq!(
            pair[1],
            if m == 1 {
                0
            } else {
                -(int_value(second) as i16)
            }
        );
    }
    let mut back = Tensor::<i16, onednn::nchw>::zeros([3, 5, 4, 5]);
    memory.load(&t, &mut back).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
}

#[test]
fn two_ic_fp32_weight_with_odd_input_channels() {
    // [I, O, H, W] = [3, 4, 3, 3]: J = ceil(3 / 2) = 2 fp32x2 (64-bit) elements along I.
    let mut memory = LocalMemory::<ExampleChip>::new();
    memory.bytes_mut().fill(0xEE);
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip, TwoIC>::new(0, 4), [3, 4, 3, 3])
        .unwrap();
    let g = t.local_geometry();
    assert_eq!(g.packed_dims(), [2, 4, 3, 3]);
    // A 128-byte EU holds 16 fp32x2: C stride ceil(9 / 16) * 16 = 16; one channel per NPU.
    assert_eq!(g.strides(), [16, 16, 3, 1]);
    assert_eq!(t.mapping().padded_dims(), [4, 4, 3, 3]);
    assert_locations(&t, 0, 0, [16, 16, 3, 1], 2);

    let src = Tensor::<f32, sophgo::ContinuousWeights>::from_fn([3, 4, 3, 3], value);
    memory.store(&src, &t).unwrap();
    let packed = t.packed::<Fp32x2>().unwrap();
    let view = memory.view(&packed);
    for [j, o, h, w] in RowMajorIndices::new([2, 4, 3, 3]) {
        let pair = view[[j, o, h, w]];
        assert_eq!(pair[0], value([2 * j, o, h, w]));
        let second = if j == 1 {
            0.0 // the dummy input channel 3
        } else {
            value([2 * j + 1, o, h, w])
        };
        assert_eq!(pair[1], second);
    }
    let back: Tensor<f32, sophgo::ContinuousWeights> = memory.load_new(&t).unwrap();
    assert_eq!(back.to_row_major(), src.to_row_major());
    // By axis name, the weights load into oneDNN's OIHW as well: [O, I, H, W] = [4, 3, 3, 3].
    let oihw: Tensor<f32, onednn::oihw> = memory.load_new(&t).unwrap();
    assert_eq!(oihw.dims(), [4, 3, 3, 3]);
    assert_eq!(oihw[[3, 2, 1, 0]], src[[2, 3, 1, 0]]);
}
