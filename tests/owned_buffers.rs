//! Owned tensors from a `Vec` and back (storage order, padding included, copying only when the
//! 128-byte alignment of tensor storage demands it), byte views as any Pod type, and the
//! storage as bytes.

use tensor_layout::bytemuck::{self, Pod, Zeroable};
use tensor_layout::prelude::*;
use tensor_layout::tensors::Element;
use tensor_layout::{layouts::Strided, storage::AlignedBuffer, storage::STORAGE_ALIGN};

/// An element type aligned to 128 bytes: every `Vec` of it is aligned as tensor storage must be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(128))]
struct Line {
    first: u64,
    rest: [u64; 15],
}

// SAFETY: 16 u64s fill the 128 bytes exactly (no padding byte), and any bits are a valid Line.
unsafe impl Zeroable for Line {}
// SAFETY: as above; Line is Copy, repr(C), and holds no pointer.
unsafe impl Pod for Line {}
// A tensor stores one Line per slot.
impl Element for Line {}

fn line(v: u64) -> Line {
    Line {
        first: v,
        rest: [0; 15],
    }
}

#[test]
fn from_vec_takes_storage_order_with_padding() {
    // nChw8c, C = 3: each (n, h, w) has 8 slots, channels 3..8 padding.
    let dims = [2, 3, 1, 2];
    let storage: Vec<u16> = (0..32).map(|i| if i % 8 < 3 { i + 1 } else { 0 }).collect();
    let t = Tensor::<u16, onednn::nChw8c>::from_vec(dims, storage.clone()).unwrap();
    assert_eq!(t.as_raw(), storage.as_slice());
    assert_eq!(t[[1, 2, 0, 1]], storage[2 * 8 + 8 + 2]);
    assert_eq!(t[[0, 1, 0, 0]], 2);
    assert_eq!(t.as_raw().as_ptr() as usize % STORAGE_ALIGN, 0);
    assert_eq!(t.into_vec(), storage);
}

#[test]
fn wrong_lengths_are_errors_naming_the_storage_length() {
    let err = Tensor::<u16, onednn::nChw8c>::from_vec([1, 3, 1, 2], vec![0; 6]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::Length {
            expected: 16,
            found: 6
        }
    );
    let err = Tensor::<u16, onednn::nchw>::from_vec([1, usize::MAX, 2, 1], vec![]).unwrap_err();
    assert!(matches!(err, LayoutError::Overflow { .. }), "{err}");
}

#[test]
fn aligned_vecs_become_the_storage_and_come_back_without_a_copy() {
    let storage: Vec<Line> = (0..6).map(line).collect();
    let address = storage.as_ptr();
    let t = Tensor::<Line, onednn::nchw>::from_vec([1, 2, 3, 1], storage).unwrap();
    assert_eq!(t.as_raw().as_ptr(), address);
    assert_eq!(t[[0, 1, 2, 0]], line(5));
    let back = t.into_vec();
    assert_eq!(back.as_ptr(), address);
    assert_eq!(back, (0..6).map(line).collect::<Vec<_>>());
}

#[test]
fn other_vecs_are_copied_into_aligned_storage() {
    for len in [1usize, 5, 64, 1000] {
        let storage: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let address = storage.as_ptr() as usize;
        let t = Tensor::<u8, chunked_layout![1; 0,0]>::from_vec([len], storage).unwrap();
        let kept = t.as_raw().as_ptr() as usize == address;
        // Kept exactly when the Vec happened to be aligned; aligned in either case.
        assert_eq!(kept, address.is_multiple_of(STORAGE_ALIGN), "len {len}");
        assert_eq!(t.as_raw().as_ptr() as usize % STORAGE_ALIGN, 0);
        assert_eq!(
            t.to_row_major(),
            (0..len).map(|i| i as u8).collect::<Vec<_>>()
        );
        // Memory taken from a Vec goes back to a Vec as it is; a copy goes wherever the
        // allocator puts it (perhaps where the first Vec was), kept next time if aligned.
        let back = t.into_vec();
        let back_address = back.as_ptr() as usize;
        if kept {
            assert_eq!(back_address, address, "len {len}");
        }
        assert_eq!(
            AlignedBuffer::from_vec(back).is_vec_memory(),
            back_address.is_multiple_of(STORAGE_ALIGN),
            "len {len}"
        );
    }
    // A tensor made here hands back a copy in a new Vec; the tensor's memory is freed.
    let t = Tensor::<u32, onednn::nchw>::from_fn([1, 1, 2, 2], |[.., h, w]| (h * 2 + w) as u32);
    let address = t.as_raw().as_ptr();
    let v = t.into_vec();
    assert_ne!(v.as_ptr(), address);
    assert_eq!(v, [0, 1, 2, 3]);
}

#[test]
fn empty_and_zero_sized_storage() {
    let t = Tensor::<f32, onednn::nChw16c>::from_vec([1, 0, 2, 2], Vec::new()).unwrap();
    assert!(t.is_empty());
    assert_eq!(t.into_vec(), Vec::<f32>::new());
    let units = Tensor::<(), chunked_layout![2; 0,0, 1,0]>::from_vec([3, 4], vec![(); 12]).unwrap();
    assert_eq!(units.into_vec().len(), 12);
}

#[test]
fn byte_views_read_and_write_any_pod_type() {
    let words: Vec<u32> = (0..8).map(|i| 0x0101_0101 * i).collect();
    let bytes: Vec<u8> = bytemuck::cast_slice(&words).to_vec();
    // A Vec<u8> need not be aligned for u32: copy into memory that is.
    let mut aligned = vec![0u32; 8];
    bytemuck::cast_slice_mut::<u32, u8>(&mut aligned).copy_from_slice(&bytes);
    let m = Mapping::<onednn::nhwc>::new([1, 2, 2, 2]).unwrap();
    let v = TensorView::<u32, _>::from_bytes(m, bytemuck::cast_slice(&aligned)).unwrap();
    assert_eq!(v[[0, 1, 1, 0]], 0x0505_0505); // slot h * 4 + w * 2 + c = 5
    assert_eq!(v.as_raw(), words.as_slice());
    {
        let mut w =
            TensorViewMut::<u32, _>::from_bytes_mut(m, bytemuck::cast_slice_mut(&mut aligned))
                .unwrap();
        w[[0, 0, 0, 0]] = 0xDEAD_BEEF;
        assert_eq!(w.pad_value(), 0);
    }
    assert_eq!(aligned[0], 0xDEAD_BEEF);
    assert_eq!(aligned[1..], words[1..]);
}

#[test]
fn byte_views_name_what_they_expected() {
    let storage = [0u64; 5];
    let bytes: &[u8] = bytemuck::cast_slice(&storage);
    let m = Mapping::<onednn::nchw>::new([1, 1, 2, 2]).unwrap();
    // Four f32s are 16 bytes.
    let err = TensorView::<f32, _>::from_bytes(m, &bytes[..15]).unwrap_err();
    assert_eq!(
        err,
        LayoutError::ByteLength {
            expected: 16,
            element_size: 4,
            found: 15
        }
    );
    assert_eq!(
        err.to_string(),
        "expected 16 bytes (4 elements of 4 bytes), found 15 bytes"
    );
    let err = TensorView::<f32, _>::from_bytes(m, &bytes[2..18]).unwrap_err();
    assert!(
        matches!(err, LayoutError::ByteAlignment { alignment: 4, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("not aligned for f32, which needs a multiple of 4 bytes"),
        "{err}"
    );
    let ok = TensorView::<u16, _>::from_bytes(m, &bytes[2..10]).unwrap();
    assert_eq!(ok.len(), 4);
    // A writable view refuses a mapping whose indices share a slot.
    let mut raw = [0u8; 8];
    let rows = Mapping::with_layout(Strided::new([0, 1], 0), [3, 2]).unwrap();
    let err = TensorViewMut::<u32, _>::from_bytes_mut(rows, &mut raw).unwrap_err();
    assert!(matches!(err, LayoutError::StridesOverlap { .. }), "{err}");
}

#[test]
fn as_bytes_is_the_storage_padding_included() {
    let mut t =
        Tensor::<u16, onednn::nChw8c>::from_fn([1, 3, 1, 1], |[_, c, _, _]| 0x0100 + c as u16);
    let expected: Vec<u8> = [0x0100u16, 0x0101, 0x0102, 0, 0, 0, 0, 0]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    assert_eq!(t.as_bytes(), expected.as_slice());
    t.as_bytes_mut()[2..4].copy_from_slice(&0xABCDu16.to_ne_bytes());
    assert_eq!(t[[0, 1, 0, 0]], 0xABCD);
    let view = t.view();
    assert_eq!(view.as_bytes().len(), 16);
    let f = Tensor::<f32, onednn::nchw>::from_fn([1, 1, 1, 2], |[.., w]| w as f32 + 0.5);
    assert_eq!(
        f.as_bytes(),
        [0.5f32.to_ne_bytes(), 1.5f32.to_ne_bytes()].concat()
    );
}
