//! What the worked examples share: the toy chip's numbers, the documentation's location
//! formula written out independently of the library, and element values that say where they
//! came from.

use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::sophgo::{LocalAddress, LocalLayout, LocalTensor};

pub(crate) const X: usize = 4;
pub(crate) const S: usize = 1024;

/// The TPU-Kernel documentation's formula for a 4-D tensor in local memory, written out independently of the
/// library: NPU and byte offset of `(n, c, h, w)` for a tensor at NPU `q`, offset `r`, with
/// `[N, C, H, W]` strides in elements of `elem` bytes, `pack` batch elements per element.
pub(crate) fn documented_location(
    q: usize,
    r: usize,
    strides: [usize; 4],
    elem: usize,
    pack: usize,
    [n, c, h, w]: [usize; 4],
) -> LocalAddress {
    let npu = (q + c) % X;
    let slot = (q + c) / X;
    let packed = (n / pack) * strides[0] + slot * strides[1] + h * strides[2] + w * strides[3];
    LocalAddress {
        npu,
        offset: r + (packed * pack + n % pack) * elem,
    }
}

pub(crate) fn value(index: [usize; 4]) -> f32 {
    let [n, c, h, w] = index;
    (n * 1000 + c * 100 + h * 10 + w) as f32 + 0.5
}

/// Checks every element's location against the documentation's formula.
pub(crate) fn assert_locations<T, L: LocalLayout<Index = [usize; 4]>>(
    t: &LocalTensor<T, L>,
    q: usize,
    r: usize,
    strides: [usize; 4],
    pack: usize,
) {
    let elem = t.layout().element_bytes();
    for index in RowMajorIndices::new(t.dims()) {
        assert_eq!(
            t.location(index).unwrap(),
            documented_location(q, r, strides, elem, pack, index),
            "{} at {index:?}",
            t.layout()
        );
        let a = documented_location(q, r, strides, elem, pack, index);
        assert_eq!(t.address_of(index).unwrap(), a.npu * S + a.offset);
    }
}

/// An int8-sized value for a 4-D index (1 to 120), for the storage-mode examples.
pub(crate) fn int_value(index: [usize; 4]) -> i64 {
    let [n, c, h, w] = index;
    (n * 31 + c * 7 + h * 3 + w) as i64 % 120 + 1
}
