//! Strided layouts and the views that change shape without copying (MegEngine's and oneDNN's documentation).

use tensor_layout::LayoutError;
use tensor_layout::prelude::*;

fn counting(dims: [usize; 4]) -> Tensor<u16, onednn::nchw> {
    let n: usize = dims.iter().product();
    Tensor::from_row_major(dims, &(0..n as u16).collect::<Vec<_>>()).unwrap()
}

#[test]
fn nchw_seen_as_nhwc_is_the_nhwc_relayout() {
    let nchw = counting([2, 3, 4, 5]);
    let view = nchw.align_to::<names::NHWC>().unwrap();
    assert_eq!(view.dims(), [2, 4, 5, 3]);
    // The view's logical row-major order is N, H, W, C: exactly oneDNN nhwc's storage.
    assert_eq!(
        view.to_row_major(),
        nchw.relayout::<onednn::nhwc>().as_raw()
    );
    // And a view relayouts into HTP's NHWC-numbered crouton like any tensor.
    let crouton = view.relayout::<htp::R4CroutonLayout>();
    assert_eq!(crouton.to_row_major(), view.to_row_major());
    // Transposing twice gives the tensor back.
    let back = view.align_to::<names::NCHW>().unwrap();
    assert_eq!(back.to_row_major(), nchw.to_row_major());
}

#[test]
fn slices_read_and_write_a_sub_tensor_and_nothing_else() {
    let mut big = counting([1, 2, 6, 6]);
    {
        let rows = big.slice(2, 2..5).unwrap();
        let window = rows.slice(3, 1..4).unwrap();
        assert_eq!(window.dims(), [1, 2, 3, 3]);
        assert_eq!(window[[0, 1, 0, 0]], big[[0, 1, 2, 1]]);
        let copy = window.relayout::<onednn::nChw8c>();
        assert_eq!(copy.to_row_major(), window.to_row_major());
    }
    let before = big.to_row_major();
    let patch = Tensor::<u16, onednn::nChw8c>::from_fn([1, 2, 3, 3], |_| 999);
    {
        let mut rows = big.slice_mut(2, 2..5).unwrap();
        let mut window = rows.slice_mut(3, 1..4).unwrap();
        window.fill_padding(7); // a strided view has no padding: nothing is written
        patch.relayout_into(&mut window).unwrap();
    }
    for (k, (&now, &was)) in big.to_row_major().iter().zip(&before).enumerate() {
        let (h, w) = (k / 6 % 6, k % 6);
        let inside = (2..5).contains(&h) && (1..4).contains(&w);
        assert_eq!(now, if inside { 999 } else { was }, "element {k}");
    }
}

#[test]
fn views_walk_memory_in_order_and_know_their_gaps() {
    let t = counting([1, 1, 4, 4]);
    let cols = t.slice(3, 1..3).unwrap();
    let m = *cols.mapping();
    assert_eq!(m.base_offset(), 1);
    assert_eq!(m.index_of(1), Some([0, 0, 0, 0]));
    assert_eq!(m.index_of(3), None); // column 3 is not in the view
    assert_eq!(m.index_of(5), Some([0, 0, 1, 0]));
    let chunks: Vec<_> = cols.chunks().map(|c| (c.index, c.data[0])).collect();
    assert_eq!(chunks.len(), 8);
    assert_eq!(
        chunks[..3],
        [([0, 0, 0, 0], 1), ([0, 0, 0, 1], 2), ([0, 0, 1, 0], 5)]
    );
    let mut seen = Vec::new();
    cols.for_each_in_memory_order(|_, &v| seen.push(v));
    assert_eq!(seen, [1, 2, 5, 6, 9, 10, 13, 14]);
}

#[test]
fn transposed_strided_tensors_relayout_both_ways() {
    let t =
        Tensor::<f32, chunked_layout![2; 0,0, 1,0]>::from_fn([3, 5], |[r, c]| (r * 10 + c) as f32);
    let tt = t.transpose(0, 1).unwrap();
    assert_eq!(tt.dims(), [5, 3]);
    let dense = tt.relayout::<chunked_layout![2; 0,0, 1,0]>();
    assert_eq!(dense[[4, 2]], 24.0);
    let mut back = Tensor::<f32, chunked_layout![2; 0,0, 1,0]>::zeros([3, 5]);
    dense
        .transpose(0, 1)
        .unwrap()
        .relayout_into(&mut back)
        .unwrap();
    assert_eq!(back.as_raw(), t.as_raw());
}

#[test]
fn views_that_cannot_exist_are_errors() {
    let blocked = Tensor::<u8, onednn::nChw8c>::zeros([1, 16, 2, 2]);
    let err = blocked.align_to::<names::NHWC>().unwrap_err();
    assert!(matches!(err, LayoutError::NotStrided { .. }));
    assert!(err.to_string().contains("is blocked"));
    // A blocked layout whose blocks cover nothing extra is plain after all.
    let one_block = Tensor::<u8, onednn::nChw8c>::zeros([1, 8, 2, 2]);
    assert!(one_block.align_to::<names::NHWC>().is_ok());
    // Reordering by number is for positional axes.
    let t = counting([1, 2, 3, 4]).with_axes::<tensor_layout::axes::Positional>();
    assert_eq!(
        t.permute([0, 1, 1, 3]).unwrap_err(),
        LayoutError::BadPermutation {
            order: vec![0, 1, 1, 3]
        }
    );
    assert!(matches!(
        t.permute([0, 1, 2, 4]),
        Err(LayoutError::BadPermutation { .. })
    ));
    assert!(matches!(
        t.transpose(0, 4),
        Err(LayoutError::BadPermutation { .. })
    ));
    assert_eq!(
        t.slice(3, 3..5).unwrap_err(),
        LayoutError::SliceOutOfRange {
            dim: 3,
            start: 3,
            end: 5,
            extent: 4
        }
    );
    assert!(matches!(
        t.slice(4, 0..1),
        Err(LayoutError::SliceOutOfRange { dim: 4, .. })
    ));
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = t.slice(2, 2..1);
    assert!(backwards.is_err());
    assert_eq!(t.slice(2, 1..1).unwrap().len(), 0); // an empty slice is fine
}
