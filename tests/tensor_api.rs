//! The tensor calls: construction, access, views, padding, iteration, relayout, and
//! the errors and panics each promises.

use tensor_layout::prelude::*;
use tensor_layout::tensors::Element;
use tensor_layout::{storage::STORAGE_ALIGN, tensors::StorageChunk};

type Crouton = htp::R4CroutonLayout;
type Flat = htp::R4FlatMemoryLayout;

fn numbered(dims: [usize; 4]) -> Tensor<u16, Flat> {
    Tensor::<u16, Flat>::from_fn(dims, |[n, h, w, c]| {
        (n * 1000 + h * 100 + w * 10 + c) as u16
    })
}

#[test]
fn storage_is_aligned_to_128_bytes_for_every_element_type() {
    fn check<T: Element + Default>() {
        for dims in [[1, 3, 5, 30], [1, 1, 1, 1], [2, 9, 20, 50]] {
            let t = Tensor::<T, Crouton>::zeros(dims);
            assert_eq!(t.as_raw().as_ptr() as usize % STORAGE_ALIGN, 0);
        }
    }
    check::<u8>();
    check::<u16>();
    check::<f32>();
    check::<f64>();
    check::<u128>();
    check::<()>();
}

#[test]
fn zeros_sets_data_and_padding_to_default() {
    let t = Tensor::<f32, Crouton>::zeros([1, 3, 5, 30]);
    assert_eq!(t.storage_len(), 2048);
    assert_eq!(t.len(), 450);
    assert!(t.as_raw().iter().all(|&x| x == 0.0));
}

#[test]
fn overflowing_dims_are_errors_in_elements_and_in_bytes() {
    let err = Tensor::<u8, Flat>::try_zeros([usize::MAX, 2, 1, 1]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Overflow {
            dims: vec![usize::MAX, 2, 1, 1],
            element_size: None
        }
    );
    // Padding alone overflows: ceil(MAX / 32) * 32 does not fit.
    let err = Mapping::<Crouton>::new([1, 1, 1, usize::MAX]).unwrap_err();
    assert!(matches!(
        err,
        LayoutError::Overflow {
            element_size: None,
            ..
        }
    ));
    // Fits in elements, not in bytes.
    let err = Tensor::<u32, Flat>::try_zeros([1 << 31, 1 << 31, 1, 1]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Overflow {
            dims: vec![1 << 31, 1 << 31, 1, 1],
            element_size: Some(4)
        }
    );
    assert!(err.to_string().contains("4-byte elements"));
    assert!(Tensor::<u8, Flat>::try_from_fn([usize::MAX, 2, 1, 1], |_| 0).is_err());
    assert!(Tensor::<u8, Flat>::from_row_major([usize::MAX, 2, 1, 1], &[]).is_err());
    assert!(
        Tensor::<u8, Flat>::zeros([1, 1, 1, 1])
            .try_relayout::<Crouton>()
            .is_ok()
    );
}

#[test]
#[should_panic(expected = "the storage of dims [18446744073709551615, 2, 1, 1] overflows usize")]
fn zeros_panics_with_the_error_message() {
    let _ = Tensor::<u8, Flat>::zeros([usize::MAX, 2, 1, 1]);
}

#[test]
fn from_row_major_checks_the_length() {
    let err = Tensor::<u8, Crouton>::from_row_major([1, 2, 2, 2], &[0; 7]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Length {
            expected: 8,
            found: 7
        }
    );
    assert_eq!(err.to_string(), "expected 8 elements, found 7");
    let data: Vec<u8> = (0..8).collect();
    let t = Tensor::<u8, Crouton>::from_row_major([1, 2, 2, 2], &data).unwrap();
    assert_eq!(t.to_row_major(), data);
    assert_eq!(t[[0, 1, 0, 1]], 5);
    assert_eq!(t.as_raw()[256 + 1], 5); // row 1 of the chunk starts at 8 * 32
}

#[test]
fn get_and_index_address_logical_elements() {
    let mut t = numbered([2, 3, 5, 30]).relayout::<Crouton>();
    assert_eq!(t.get([1, 2, 4, 29]), Some(&1269));
    assert_eq!(t.get([1, 3, 0, 0]), None);
    assert_eq!(t.get([2, 0, 0, 0]), None);
    *t.get_mut([0, 1, 1, 1]).unwrap() = 7;
    assert_eq!(t[[0, 1, 1, 1]], 7);
    t[[0, 1, 1, 1]] = 8;
    assert_eq!(t.get([0, 1, 1, 1]), Some(&8));
    assert!(t.get_mut([0, 0, 5, 0]).is_none());
}

#[test]
#[should_panic(expected = "index [0, 0, 5, 0] is out of bounds for dims [1, 3, 5, 30]")]
fn index_out_of_bounds_panics_naming_index_and_dims() {
    let t = Tensor::<u8, Crouton>::zeros([1, 3, 5, 30]);
    let _ = t[[0, 0, 5, 0]]; // column 5 exists in storage (padding), not in the tensor
}

#[test]
#[should_panic(expected = "index [1, 0, 0, 0] is out of bounds for dims [1, 3, 5, 30]")]
fn index_mut_out_of_bounds_panics() {
    let mut t = Tensor::<u8, Crouton>::zeros([1, 3, 5, 30]);
    t[[1, 0, 0, 0]] = 1;
}

#[test]
fn mapping_checked_and_try_offset_reject_outside_indices() {
    let m = Mapping::<Crouton>::new([1, 3, 5, 30]).unwrap();
    assert_eq!(m.checked_offset([0, 2, 4, 29]), Some(2 * 256 + 4 * 32 + 29));
    assert_eq!(m.checked_offset([0, 2, 4, 30]), None);
    let err = m.try_offset([0, 3, 0, 0]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::IndexOutOfBounds {
            index: vec![0, 3, 0, 0],
            dims: vec![1, 3, 5, 30]
        }
    );
    assert_eq!(m.padded_index_of(2047), Some([0, 7, 7, 31]));
    assert_eq!(m.padded_index_of(2048), None);
    assert_eq!(m.index_of(2048), None);
    assert!(!m.is_padding(2048));
}

#[test]
fn fill_padding_touches_padding_only_and_sets_the_pad_value() {
    let mut t = numbered([1, 3, 5, 30]).relayout::<Crouton>();
    let before = t.to_row_major();
    t.fill_padding(0xABCD);
    assert_eq!(t.pad_value(), 0xABCD);
    assert_eq!(t.to_row_major(), before);
    let m = *t.mapping();
    for (offset, &value) in t.as_raw().iter().enumerate() {
        assert_eq!(value == 0xABCD, m.is_padding(offset), "slot {offset}");
    }
    // A relayout keeps the pad value; relayout_into writes the destination's own.
    let again = t.relayout::<htp::R4Crouton2x2Layout>();
    assert_eq!(again.pad_value(), 0xABCD);
    assert_eq!(
        again.as_raw().iter().filter(|&&v| v == 0xABCD).count(),
        again.storage_len() - again.len()
    );
    let mut dst = Tensor::<u16, htp::R4Depth32MemoryLayout>::zeros([1, 3, 5, 30]);
    dst.fill_padding(0xEEEE);
    dst.as_raw_mut().fill(99);
    t.relayout_into(&mut dst).unwrap();
    assert_eq!(dst.to_row_major(), before);
    assert_eq!(
        dst.as_raw().iter().filter(|&&v| v == 0xEEEE).count(),
        dst.storage_len() - dst.len()
    );
}

#[test]
fn relayout_into_a_tensor_of_other_dims_is_an_error_and_writes_nothing() {
    let src = numbered([1, 3, 5, 30]);
    let mut dst = Tensor::<u16, Crouton>::zeros([1, 3, 5, 31]);
    dst.as_raw_mut().fill(5);
    let err = src.relayout_into(&mut dst).unwrap_err();
    assert_eq!(
        err,
        LayoutError::ShapeMismatch {
            source: vec![1, 3, 5, 30],
            destination: vec![1, 3, 5, 31]
        }
    );
    assert!(dst.as_raw().iter().all(|&v| v == 5));
}

#[test]
fn relayout_between_every_pair_of_htp_activation_layouts_keeps_the_data() {
    let src = numbered([2, 9, 20, 50]);
    let expected = src.to_row_major();
    let crouton = src.relayout::<Crouton>();
    let depth32 = crouton.relayout::<htp::R4Depth32MemoryLayout>();
    let c4x1 = depth32.relayout::<htp::R4Crouton4x1Layout>();
    let c2x2 = c4x1.relayout::<htp::R4Crouton2x2Layout>();
    let c2 = c2x2.relayout::<htp::R4Crouton2Layout>();
    let c4 = c2.relayout::<htp::R4Crouton4Layout>();
    let nchw = c4.relayout::<htp::R4NCHWMemoryLayout>();
    let back = nchw.relayout::<Flat>();
    assert_eq!(back.as_raw(), src.as_raw());
    for row_major in [
        crouton.to_row_major(),
        c2x2.to_row_major(),
        nchw.to_row_major(),
    ] {
        assert_eq!(row_major, expected);
    }
}

#[test]
fn views_read_and_write_through_to_storage() {
    let mut t = numbered([1, 3, 5, 30]).relayout::<Crouton>();
    {
        let v = t.view();
        assert_eq!(v[[0, 2, 4, 29]], 269);
        assert_eq!(v.to_row_major(), t.to_row_major());
        let copy = v.relayout::<Flat>();
        assert_eq!(copy.to_row_major(), t.to_row_major());
    }
    let mut vm = t.view_mut();
    vm[[0, 0, 0, 0]] = 4242;
    vm.fill_padding(1);
    assert_eq!(t[[0, 0, 0, 0]], 4242);
    assert_eq!(t.as_raw()[31], 1);

    // Views over foreign storage check its length.
    let m = *t.mapping();
    let raw = t.as_raw().to_vec();
    assert_eq!(
        TensorView::from_slice(m, &raw[1..]).unwrap_err(),
        LayoutError::Length {
            expected: 2048,
            found: 2047
        }
    );
    let v = TensorView::from_slice(m, &raw).unwrap();
    assert_eq!(v[[0, 0, 0, 0]], 4242);
    let mut raw2 = vec![0u16; 2048];
    let mut vm2 = TensorViewMut::from_slice(m, &mut raw2).unwrap();
    v.relayout_into(&mut vm2).unwrap();
    assert_eq!(
        raw2,
        raw.iter()
            .enumerate()
            .map(|(o, &x)| if m.is_padding(o) { 0 } else { x })
            .collect::<Vec<_>>()
    );
}

#[test]
fn chunks_start_at_the_logical_index_of_their_first_element() {
    let t = numbered([1, 9, 20, 50]).relayout::<Crouton>();
    let chunks: Vec<StorageChunk<'_, u16, [usize; 4]>> = t.chunks().collect();
    assert_eq!(chunks.len(), 2 * 3 * 2);
    let origins: Vec<_> = chunks.iter().map(|c| c.index).collect();
    assert_eq!(
        &origins[..4],
        [[0, 0, 0, 0], [0, 0, 0, 32], [0, 0, 8, 0], [0, 0, 8, 32]]
    );
    assert_eq!(origins[11], [0, 8, 16, 32]);
    // Inside a chunk: row, column, channel.
    let last = &chunks[11];
    assert_eq!(last.data[0], t[[0, 8, 16, 32]]);
    assert_eq!(last.data[32 + 1], t[[0, 8, 17, 33]]);
    assert_eq!(last.data[256], 0); // row 9 is padding
}

#[test]
fn chunks_mut_visits_each_chunk_once() {
    let mut t = Tensor::<u32, htp::R4ConvWeightLayout>::zeros([3, 3, 64, 96]);
    let mut count = 0;
    for chunk in t.chunks_mut() {
        count += 1;
        for v in chunk.data.iter_mut() {
            *v += 1;
        }
    }
    assert_eq!(count, 3 * 3 * 2 * 3);
    assert!(t.as_raw().iter().all(|&v| v == 1));
}

#[test]
fn flat_layouts_have_single_element_chunks() {
    let t = numbered([1, 2, 1, 2]);
    let chunks: Vec<_> = t.chunks().map(|c| (c.index, c.data.to_vec())).collect();
    assert_eq!(
        chunks,
        [
            ([0, 0, 0, 0], vec![0]),
            ([0, 0, 0, 1], vec![1]),
            ([0, 1, 0, 0], vec![100]),
            ([0, 1, 0, 1], vec![101])
        ]
    );
}

#[test]
fn memory_order_visit_skips_padding() {
    let t = numbered([1, 3, 5, 30]).relayout::<Crouton>();
    let mut visited = Vec::new();
    t.for_each_in_memory_order(|index, &value| visited.push((index, value)));
    assert_eq!(visited.len(), 450);
    assert_eq!(visited[0], ([0, 0, 0, 0], 0));
    assert_eq!(visited[30], ([0, 0, 1, 0], 10));
    assert_eq!(visited[449], ([0, 2, 4, 29], 269));
    let mut t = t;
    t.for_each_in_memory_order_mut(|_, v| *v = 1);
    assert_eq!(t.as_raw().iter().filter(|&&v| v == 1).count(), 450);
}

#[test]
fn zero_sized_dims_give_empty_tensors() {
    for dims in [[0, 3, 5, 30], [1, 0, 5, 30], [1, 3, 5, 0], [0, 0, 0, 0]] {
        let t = Tensor::<u8, Crouton>::zeros(dims);
        assert_eq!(t.len(), 0);
        assert!(t.is_empty());
        assert_eq!(t.storage_len(), 0);
        assert_eq!(t.iter().count(), 0);
        assert_eq!(t.chunks().count(), 0);
        assert!(t.to_row_major().is_empty());
        let back = t.relayout::<Flat>();
        assert_eq!(back.dims(), dims);
        assert!(Tensor::<u8, Crouton>::from_row_major(dims, &[]).is_ok());
    }
}

#[test]
fn zero_sized_element_types_work() {
    let t = Tensor::<(), Crouton>::zeros([1, 3, 5, 30]);
    assert_eq!(t.iter().count(), 450);
    assert_eq!(t.relayout::<Flat>().len(), 450);
}

#[test]
fn clones_are_independent() {
    let a = numbered([1, 2, 2, 2]);
    let mut b = a.clone();
    b[[0, 0, 0, 0]] = 9;
    assert_eq!(a[[0, 0, 0, 0]], 0);
    assert_eq!(
        format!("{a:?}"),
        "Tensor { layout: ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0>, dims: [1, 2, 2, 2], interface: Plain, row_major: [0, 1, 10, 11, 100, 101, 110, 111] }"
    );
}

#[test]
fn indexed_iteration_is_row_major_whatever_the_layout() {
    let t = numbered([1, 2, 3, 2]).relayout::<htp::R4NCHWMemoryLayout>();
    let pairs: Vec<_> = t.indexed_iter().map(|(i, &v)| (i, v)).collect();
    assert_eq!(pairs.len(), 12);
    assert_eq!(pairs[0], ([0, 0, 0, 0], 0));
    assert_eq!(pairs[1], ([0, 0, 0, 1], 1));
    assert_eq!(pairs[11], ([0, 1, 2, 1], 121));
    assert_eq!(t.iter().len(), 12);
}
