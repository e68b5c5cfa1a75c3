//! ndarray views of tensors (zero-copy, plain layouts as their logical dims, blocked ones in
//! blocked form) and tensors from ndarray views of any strides, on odd shapes.

use tensor_layout::ndarray::{Array, Array4, ArrayViewD, Axis, Dimension, IxDyn, s};
use tensor_layout::prelude::*;
use tensor_layout::{Layout, layouts::Strided, mappings::RowMajorIndices, tensors::TensorBase};

fn value([n, c, h, w]: [usize; 4]) -> u16 {
    (n * 1000 + c * 100 + h * 10 + w) as u16
}

/// Shapes with odd channel counts (3, 17) and a width of 1.
const SHAPES: [[usize; 4]; 4] = [[1, 3, 2, 5], [2, 17, 3, 1], [1, 16, 1, 1], [2, 1, 4, 3]];

/// Every logical element of `t` is at its index in `a`, which has the logical dims as shape.
fn assert_plain_view<
    S: tensor_layout::storage::Storage<Elem = u16>,
    L: Layout<Index = [usize; 4]>,
>(
    t: &TensorBase<S, L, Plain>,
    a: &ArrayViewD<'_, u16>,
) {
    assert_eq!(a.shape(), t.dims());
    for index in RowMajorIndices::new(t.dims()) {
        assert_eq!(a[&index[..]], t[index], "at {index:?}");
    }
}

#[test]
fn plain_layouts_are_their_logical_dims_in_axis_order_without_a_copy() {
    for dims in SHAPES {
        let nchw = Tensor::<u16, onednn::nchw>::from_fn(dims, value);
        let a = nchw.as_ndarray().unwrap();
        assert_plain_view(&nchw, &a);
        assert_eq!(a.as_ptr(), nchw.as_raw().as_ptr());
        assert_eq!(a.as_slice(), Some(nchw.as_raw())); // row-major: the storage itself

        let nhwc = Tensor::<u16, onednn::nhwc>::from_fn(dims, value);
        let a = nhwc.as_ndarray().unwrap();
        assert_plain_view(&nhwc, &a);
        let [_, c, h, w] = dims;
        let expected = [h * w * c, 1, w * c, c].map(|s| s as isize);
        for d in 0..4 {
            // ndarray reports any stride of an axis of extent 1 as it likes.
            if dims[d] > 1 {
                assert_eq!(a.strides()[d], expected[d], "dims {dims:?}, axis {d}");
            }
        }
        assert_eq!(a.as_ptr(), nhwc.as_raw().as_ptr());

        // HTP's NCHW spelling: NHWC axes, width outside height in memory.
        let htp_nchw = Tensor::<u16, htp::R4NCHWMemoryLayout>::from_fn(dims, value);
        assert_plain_view(&htp_nchw, &htp_nchw.as_ndarray().unwrap());
    }
}

#[test]
fn permuted_and_sliced_views_are_seen_as_they_index() {
    let t = Tensor::<u16, onednn::nchw>::from_fn([2, 17, 3, 5], value);
    let as_nhwc = t.align_to::<names::NHWC>().unwrap();
    assert_plain_view(&as_nhwc, &as_nhwc.as_ndarray().unwrap());
    let rows = t.slice(2, 1..3).unwrap();
    let window = rows.slice(1, 4..7).unwrap();
    let a = window.as_ndarray().unwrap();
    assert_plain_view(&window, &a);
    assert_eq!(a[[1, 0, 0, 0]], value([1, 4, 1, 0]));
    let column = t.slice(3, 4..5).unwrap(); // W = 1
    assert_plain_view(&column, &column.as_ndarray().unwrap());
    let empty = t.slice(1, 3..3).unwrap();
    assert_eq!(empty.as_ndarray().unwrap().shape(), [2, 0, 3, 5]);
}

#[test]
fn nchw16c_is_its_blocked_form_with_padding() {
    for dims in SHAPES {
        let t = Tensor::<u16, onednn::nChw16c>::from_fn(dims, value);
        let [n, c, h, w] = dims;
        let a = t.as_ndarray().unwrap();
        assert_eq!(a.shape(), [n, c.div_ceil(16), h, w, 16]);
        // The blocked form walks the storage in order: it is the storage.
        assert_eq!(a.as_slice(), Some(t.as_raw()));
        for (index, &got) in a.indexed_iter() {
            let (cb, ci) = (index[1], index[4]);
            let channel = cb * 16 + ci;
            let want = if channel < c {
                value([index[0], channel, index[2], index[3]])
            } else {
                0
            };
            assert_eq!(got, want, "dims {dims:?} at {index:?}");
        }
    }
}

#[test]
fn several_blocks_of_one_dimension_follow_the_chunk_list() {
    // OIhw4i16o4i: O/16, I/16, h, w, then 4i, 16o, 4i.
    let dims = [17, 9, 2, 1];
    let t = Tensor::<u16, onednn::OIhw4i16o4i>::from_fn(dims, value);
    let a = t.as_ndarray().unwrap();
    assert_eq!(a.shape(), [2, 1, 2, 1, 4, 16, 4]);
    assert_eq!(a.as_slice(), Some(t.as_raw()));
    for (index, &got) in a.indexed_iter() {
        let o = index[0] * 16 + index[5];
        let i = index[1] * 16 + index[4] * 4 + index[6];
        let want = if o < 17 && i < 9 {
            value([o, i, index[2], index[3]])
        } else {
            0
        };
        assert_eq!(got, want, "at {index:?}");
    }
    // HTP's crouton: N, H/8, W/8, C/32, then 8h, 8w, 32c.
    let crouton = Tensor::<u16, htp::R4CroutonLayout>::from_fn([1, 9, 3, 33], value);
    let a = crouton.as_ndarray().unwrap();
    assert_eq!(a.shape(), [1, 2, 1, 2, 8, 8, 32]);
    assert_eq!(a[[0, 1, 0, 1, 0, 2, 0]], value([0, 8, 2, 32]));
    assert_eq!(a[[0, 1, 0, 1, 1, 2, 0]], 0); // height 9: padding
}

#[test]
fn writable_views_write_the_tensor() {
    let mut t = Tensor::<u16, onednn::nChw8c>::zeros([1, 3, 2, 2]);
    {
        let mut a = t.as_ndarray_mut().unwrap();
        assert_eq!(a.shape(), [1, 1, 2, 2, 8]);
        a[[0, 0, 1, 0, 2]] = 7;
        a.index_axis_mut(Axis(4), 5).fill(9); // channel 5: padding
    }
    assert_eq!(t[[0, 2, 1, 0]], 7);
    assert_eq!(t.to_row_major().iter().filter(|&&v| v != 0).count(), 1);
    assert_eq!(t.as_raw().iter().filter(|&&v| v == 9).count(), 4);

    let mut plain = Tensor::<u16, onednn::nhwc>::zeros([1, 3, 4, 5]);
    plain
        .slice_mut(2, 1..3)
        .unwrap()
        .as_ndarray_mut()
        .unwrap()
        .fill(4);
    for index in RowMajorIndices::new(plain.dims()) {
        let inside = (1..3).contains(&index[2]);
        assert_eq!(plain[index], if inside { 4 } else { 0 }, "at {index:?}");
    }
}

#[test]
fn tensors_from_views_of_any_strides() {
    let dims = [2, 17, 3, 1];
    let logical = Array4::from_shape_fn((2, 17, 3, 1), |(n, c, h, w)| value([n, c, h, w]));
    let nchw16c = Tensor::<u16, onednn::nChw16c>::from_ndarray(logical.view()).unwrap();
    let nhwc = Tensor::<u16, onednn::nhwc>::from_ndarray(logical.view()).unwrap();
    let expected = Tensor::<u16, onednn::nchw>::from_fn(dims, value);
    assert_eq!(nchw16c.to_row_major(), expected.to_row_major());
    assert_eq!(nhwc.to_row_major(), expected.to_row_major());
    let padding = (0..nchw16c.storage_len()).filter(|&o| nchw16c.mapping().is_padding(o));
    assert!(padding.map(|o| nchw16c.as_raw()[o]).all(|v| v == 0));

    // Negative strides: channels and heights reversed.
    let flipped = logical.slice(s![.., ..;-1, ..;-1, ..]);
    assert!(flipped.strides()[1] < 0);
    let t = Tensor::<u16, onednn::nChw16c>::from_ndarray(flipped).unwrap();
    for index in RowMajorIndices::new(dims) {
        let [n, c, h, w] = index;
        assert_eq!(t[index], value([n, 16 - c, 2 - h, w]), "at {index:?}");
    }

    // Zero strides: one row of channels broadcast over N, H and W.
    let channels = Array::from_shape_fn((1, 3, 1, 1), |(_, c, _, _)| c as u16 + 1);
    let broadcast = channels.broadcast((2, 3, 4, 5)).unwrap();
    assert!(broadcast.strides().contains(&0));
    let t =
        Tensor::<u16, htp::R4CroutonLayout>::from_ndarray(broadcast.permuted_axes([0, 2, 3, 1]))
            .unwrap();
    assert_eq!(t.dims(), [2, 4, 5, 3]);
    assert!(t.indexed_iter().all(|([_, _, _, c], &v)| v == c as u16 + 1));

    // Any dimension type: a dynamic-rank view of a tensor's own view.
    let source = Tensor::<u16, onednn::nhwc>::from_fn([1, 3, 2, 5], value);
    let back = Tensor::<u16, onednn::nchw>::from_ndarray(source.as_ndarray().unwrap()).unwrap();
    assert_eq!(back.to_row_major(), source.to_row_major());
}

#[test]
fn round_trips_keep_every_element() {
    for dims in SHAPES {
        let t = Tensor::<u16, onednn::nChw16c>::from_fn(dims, value);
        let permuted = Tensor::<u16, onednn::nchw>::from_fn(dims, value);
        let view = permuted.align_to::<names::NHWC>().unwrap();
        let as_nhwc =
            Tensor::<u16, htp::R4FlatMemoryLayout>::from_ndarray(view.as_ndarray().unwrap())
                .unwrap();
        let there = as_nhwc.relayout::<onednn::nChw16c>();
        assert_eq!(there.as_raw(), t.as_raw(), "dims {dims:?}");
    }
}

#[test]
fn wrong_rank_and_layouts_without_strided_form_are_errors() {
    let three = Array::<u16, _>::zeros(IxDyn(&[2, 3, 4]));
    let err = Tensor::<u16, onednn::nchw>::from_ndarray(three.view()).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Rank {
            expected: 4,
            found: 3
        }
    );

    // Six channels round the 4 NPUs of the example chip: two channel slots per NPU.
    type Local = tensor_layout::sophgo::Compact<tensor_layout::sophgo::ExampleChip>;
    let mapping = Mapping::with_layout(Local::new(0, 2), [1, 6, 2, 2]).unwrap();
    let memory = vec![0u16; mapping.storage_len()];
    let view = TensorView::from_slice(mapping, &memory).unwrap();
    let err = view.as_ndarray().unwrap_err();
    assert!(matches!(err, LayoutError::NoStridedForm { .. }), "{err}");
    assert!(err.to_string().contains("belong to other data"), "{err}");
    // A broadcast strided view reads fine; ndarray allows overlap when read-only.
    let broadcast = Mapping::with_layout(Strided::new([0, 1], 0), [3, 2]).unwrap();
    let row = [5u16, 6];
    let v = TensorView::from_slice(broadcast, &row).unwrap();
    assert_eq!(v.as_ndarray().unwrap().sum(), 33);
}

#[test]
fn every_catalog_layout_has_a_strided_form_covering_its_storage_once() {
    use tensor_layout::registry;
    let mut checked = 0;
    for entry in registry::all() {
        let layout = entry.layout();
        let Ok(layout) = layout.ranked::<4>() else {
            continue;
        };
        let fixed = layout
            .to_dyn()
            .entries()
            .iter()
            .filter(|e| e.size > 0)
            .count();
        for dims in SHAPES {
            let mapping = Mapping::with_layout(layout, dims).unwrap();
            let form = mapping.strided_form().unwrap();
            let name = entry.qualified_name();
            assert_eq!(form.shape.len(), 4 + fixed, "{name}");
            if fixed == 0 {
                assert_eq!(form.shape, dims, "{name}");
            }
            let mut slots: Vec<usize> = tensor_layout::ndarray::indices(IxDyn(&form.shape))
                .into_iter()
                .map(|i| {
                    let i = i.slice();
                    (0..i.len()).map(|k| i[k] * form.strides[k]).sum::<usize>() + form.offset
                })
                .collect();
            slots.sort_unstable();
            let every: Vec<usize> = (0..mapping.storage_len()).collect();
            assert_eq!(slots, every, "{name} on {dims:?}");
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} catalog layouts of rank 4");
}

#[test]
fn plain_layouts_are_had_at_their_fixed_rank() {
    for dims in SHAPES {
        let mut t = Tensor::<u16, onednn::nhwc>::from_fn(dims, value);
        let a = t.as_ndarray_fixed().unwrap();
        assert_plain_view(&t, &a.into_dyn());
        // Rank 4's own index types: the NHWC array, dense.
        let nhwc = a.permuted_axes([0, 2, 3, 1]);
        assert!(nhwc.is_standard_layout());
        assert_eq!(nhwc.as_slice().unwrap(), t.as_raw());
        let mut m = t.as_ndarray_fixed_mut().unwrap();
        m[[0, dims[1] - 1, 0, 0]] = 7;
        assert_eq!(t[[0, dims[1] - 1, 0, 0]], 7);
    }
    // Views too: a slice of a permuted tensor, its strides as they index.
    let t = Tensor::<u16, onednn::nchw>::from_fn([2, 17, 3, 1], value);
    let v = t.slice(1, 2..9).unwrap();
    let a: tensor_layout::ndarray::ArrayView4<u16> = v.as_ndarray_fixed().unwrap();
    assert_eq!(a[[1, 0, 2, 0]], value([1, 2, 2, 0]));
}

#[test]
fn blocked_layouts_at_fixed_rank_point_to_the_blocked_form() {
    let mut t = Tensor::<u16, onednn::nChw16c>::from_fn([1, 17, 2, 3], value);
    let err = t.as_ndarray_fixed().unwrap_err();
    assert_eq!(
        err,
        LayoutError::BlockedForm {
            layout: format!("{}", t.mapping().layout()),
            rank: 4,
            shape: vec![1, 2, 2, 3, 16],
        }
    );
    assert!(
        err.to_string().contains(
            "is blocked: its strided form is its blocked form [1, 2, 2, 3, 16], of rank 5, not \
             one axis per dimension (rank 4); take the blocked form at dynamic rank (as_ndarray)"
        ),
        "{err}"
    );
    assert_eq!(t.as_ndarray_fixed_mut().unwrap_err(), err);
    assert_eq!(t.as_ndarray().unwrap().ndim(), 5);
}
