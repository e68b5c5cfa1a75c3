//! The four tensor kinds answer the same queries under the same names: generic code over
//! `TensorRead` / `TensorWrite` runs on `Tensor` (and views), `IndirectTensor`, `PackedTensor`
//! and `DynTensor`, and each gives what the others give.

use std::borrow::Borrow;
use std::fmt::{Debug, Write};
use tensor_layout::prelude::*;
use tensor_layout::quantized::RealValues;
use tensor_layout::{
    DynLayout, DynTensor, dynamic::DynIndex, quantized::PackedTensor, quantized::u4,
    tensors::IndirectTensor,
};

/// A checksum of the logical elements in row-major order.
fn checksum<X: TensorRead>(x: &X) -> i64
where
    X::Elem: Into<i32>,
{
    x.iter().fold(0, |sum, v| {
        let v: i32 = (*v.borrow()).into();
        sum.wrapping_mul(31).wrapping_add(i64::from(v))
    })
}

/// Every logical element with its index, one per line.
fn print<X: TensorRead>(x: &X) -> String
where
    X::Elem: Debug,
{
    let mut out = format!(
        "dims {:?} padded {:?}\n",
        x.dims().as_ref(),
        x.padded_dims().as_ref()
    );
    for (index, v) in x.indexed_iter() {
        writeln!(out, "{:?} {:?}", index.as_ref(), v.borrow()).unwrap();
    }
    out
}

/// Whether two tensors of any kinds hold the same logical elements at the same indices.
fn same_elements<A: TensorRead, B: TensorRead<Elem = A::Elem>>(a: &A, b: &B) -> bool
where
    A::Elem: PartialEq,
{
    a.dims().as_ref() == b.dims().as_ref() && a.to_row_major() == b.to_row_major()
}

/// Every query of `TensorRead`, answered through the trait.
fn queries<X: TensorRead>(x: &X) -> (Vec<usize>, Vec<usize>, usize, usize, bool, String)
where
    X::Interface: Debug,
{
    (
        x.dims().as_ref().to_vec(),
        x.padded_dims().as_ref().to_vec(),
        x.len(),
        x.storage_len(),
        x.is_empty(),
        format!("{:?}", x.interface()),
    )
}

/// Writes `f(index)` everywhere through `TensorWrite`.
fn fill<X: TensorWrite>(x: &mut X, mut f: impl FnMut(&[usize]) -> X::Elem) {
    let indices: Vec<X::Index> = x.indexed_iter().map(|(i, _)| i).collect();
    for i in indices {
        x.set(i, f(i.as_ref()));
    }
}

fn value_of(index: &[usize]) -> u8 {
    (index[1] * 4 + index[2] * 2 + index[3]) as u8 % 16
}

#[test]
fn generic_functions_compile_and_agree_for_all_four_kinds() {
    let dims = [1, 3, 2, 2];
    let t = Tensor::<u8, onednn::nChw16c>::from_fn(dims, |i| value_of(&i));
    let view = t.view();
    let indirect = Tensor::<u8, onednn::nChw16c>::from_fn(dims, |i| value_of(&i)).into_indirect();
    let packed = PackedTensor::<u4, onednn::nChw16c>::from_fn(dims, |i| u4::new(value_of(&i)));
    let dynamic = DynTensor::from(t.clone());

    let sum = checksum(&t);
    assert_eq!(checksum(&view), sum);
    assert_eq!(checksum(&indirect), sum);
    assert_eq!(checksum(&packed), sum);
    assert_eq!(checksum(&dynamic), sum);

    let printed = print(&t);
    assert!(printed.starts_with("dims [1, 3, 2, 2] padded [1, 16, 2, 2]\n[0, 0, 0, 0] 0\n"));
    assert_eq!(print(&indirect), printed);
    assert_eq!(print(&dynamic), printed);
    assert_eq!(print(&packed).lines().count(), printed.lines().count());

    assert!(same_elements(&t, &indirect));
    assert!(same_elements(&t, &dynamic));
    assert!(same_elements(&indirect, &view));

    let expected = (
        vec![1, 3, 2, 2],
        vec![1, 16, 2, 2],
        12,
        64,
        false,
        "Plain".to_string(),
    );
    assert_eq!(queries(&t), expected);
    assert_eq!(queries(&indirect), expected);
    assert_eq!(queries(&packed), expected);
    assert_eq!(queries(&dynamic), expected);
}

#[test]
fn generic_writes_land_alike_on_all_four_kinds() {
    let dims = [1, 3, 1, 2];
    let mut t = Tensor::<u8, onednn::nChw8c>::zeros(dims);
    let mut indirect = IndirectTensor::<u8, onednn::nChw8c>::zeros(dims);
    let mut dynamic = DynTensor::<u8>::zeros(DynLayout::parse("nChw8c").unwrap(), &dims).unwrap();
    let mut packed = PackedTensor::<u4, onednn::nChw8c>::zeros(dims);
    fill(&mut t, value_of);
    fill(&mut indirect, value_of);
    fill(&mut dynamic, value_of);
    fill(&mut packed, |i| u4::new(value_of(i)));
    assert_eq!(indirect.to_contiguous().as_raw(), t.as_raw());
    assert_eq!(dynamic.as_raw(), t.as_raw());
    let unpacked: Vec<u8> = packed.to_row_major().into_iter().map(u4::get).collect();
    assert_eq!(unpacked, t.to_row_major());
}

#[test]
fn real_values_read_alike_through_the_trait() {
    fn reals<X: TensorRead>(x: &X) -> Vec<f32>
    where
        X::Interface: RealValues<X::Elem>,
    {
        x.indexed_iter().map(|(i, _)| x.real(i)).collect()
    }
    let q = ScaleOffset::new(0.5, 8);
    let t = Tensor::<u8, onednn::nchw, _>::from_real_fn([1, 2, 1, 1], q, |[_, c, ..]| c as f32);
    let d = DynTensor::from(t.clone());
    let i = t.to_indirect();
    let mut p = PackedTensor::<u4, onednn::nchw, _>::try_zeros_with([1, 2, 1, 1], q).unwrap();
    p.set_real([0, 1, 0, 0], 1.0);
    assert_eq!(reals(&t), [0.0, 1.0]);
    assert_eq!(reals(&d), [0.0, 1.0]);
    assert_eq!(reals(&i), [0.0, 1.0]);
    assert_eq!(reals(&p), [0.0, 1.0]);
}

#[test]
fn dyn_tensors_index_read_write_and_iterate() {
    let layout = DynLayout::parse("nChw4c").unwrap();
    let mut t = DynTensor::from_row_major(layout, &[1, 3, 1, 2], &[1u16, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(t.dims(), [1, 3, 1, 2]);
    assert_eq!(t.padded_dims(), [1, 4, 1, 2]);
    assert_eq!((t.len(), t.storage_len(), t.is_empty()), (6, 8, false));
    assert_eq!(t.get([0, 2, 0, 1]), Some(&6));
    assert_eq!(t.get(&[0, 2, 0, 1][..]), Some(&6));
    assert_eq!(t.get(DynIndex::from([0, 1, 0, 0])), Some(&3));
    assert_eq!(t.get([0, 3, 0, 0]), None);
    assert_eq!(t.get([0, 0, 0]), None);
    assert_eq!(t.value([0, 1, 0, 1]), 4);
    assert_eq!(t[[0, 1, 0, 1]], 4);
    t.set([0, 0, 0, 1], 20);
    t[[0, 2, 0, 0]] = 50;
    *t.get_mut([0, 1, 0, 0]).unwrap() = 30;
    assert_eq!(t.to_row_major(), [1, 20, 30, 4, 50, 6]);
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), t.to_row_major());
    let indices: Vec<Vec<usize>> = t.indexed_iter().map(|(i, _)| i.to_vec()).collect();
    assert_eq!(indices[1], [0, 0, 0, 1]);
    assert_eq!(indices.len(), 6);
    // Padding is untouched by element writes.
    assert_eq!(t.as_raw()[3], 0);
    t.as_raw_mut()[3] = 9;
    assert_eq!(t.to_row_major(), [1, 20, 30, 4, 50, 6]);
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).unwrap_err();
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap()
}

#[test]
fn dyn_tensor_out_of_bounds_names_the_index_and_the_dims() {
    let t = DynTensor::<u8>::zeros(DynLayout::parse("nchw").unwrap(), &[1, 2, 3, 4]).unwrap();
    let message = "index [0, 2, 0, 0] is out of bounds for dims [1, 2, 3, 4]";
    assert_eq!(
        panic_message(|| {
            t.value([0, 2, 0, 0]);
        }),
        message
    );
    assert_eq!(
        panic_message(|| {
            let _ = t[[0, 2, 0, 0]];
        }),
        message
    );
    let mut w = t.clone();
    assert_eq!(panic_message(move || w.set([0, 2, 0, 0], 1)), message);
    let mut r = t.clone();
    assert_eq!(
        panic_message(move || r.set_real([0, 2, 0, 0], 1.0)),
        message
    );
    assert_eq!(
        panic_message(|| {
            t.real([0, 2, 0, 0]);
        }),
        message
    );
    let rank = panic_message(|| {
        t.value([0, 0, 0]);
    });
    assert!(rank.contains('3') && rank.contains('4'), "{rank}");
}

#[test]
fn dyn_tensors_relayout_under_the_shared_names() {
    let src = DynTensor::from_row_major(
        DynLayout::parse("nchw").unwrap(),
        &[1, 2, 1, 2],
        &[1u8, 2, 3, 4],
    )
    .unwrap();
    let nhwc = DynLayout::parse("nhwc").unwrap();
    assert_eq!(src.relayout(&nhwc).as_raw(), [1, 3, 2, 4]);
    assert_eq!(src.try_relayout(&nhwc).unwrap().as_raw(), [1, 3, 2, 4]);
    assert!(
        src.try_relayout(&DynLayout::parse("oihw").unwrap())
            .is_err()
    );
    let oihw = DynLayout::parse("oihw").unwrap();
    let message = panic_message(|| drop(src.relayout(&oihw)));
    assert!(message.contains("axis"), "{message}");

    // oneDNN's tags keep the logical order NCHW; only the memory order differs.
    let mut dst = DynTensor::<u8>::zeros(nhwc.clone(), &[1, 2, 1, 2]).unwrap();
    src.relayout_into(&mut dst).unwrap();
    assert_eq!(dst.as_raw(), [1, 3, 2, 4]);
    let mut again = DynTensor::<u8>::zeros(nhwc, &[1, 2, 1, 2]).unwrap();
    again.relayout_from(&src).unwrap();
    assert_eq!(again.as_raw(), dst.as_raw());
    let mut wrong =
        DynTensor::<u8>::zeros(DynLayout::parse("nhwc").unwrap(), &[1, 1, 2, 2]).unwrap();
    assert!(matches!(
        src.relayout_into(&mut wrong),
        Err(LayoutError::ShapeMismatch { .. })
    ));
    assert_eq!(wrong.as_raw(), [0; 4]);
}

#[test]
fn typed_kinds_relayout_under_the_shared_names() {
    let t = Tensor::<u8, onednn::nchw>::from_fn([1, 3, 1, 2], |i| value_of(&i));
    // relayout / try_relayout / relayout_into / relayout_from on Tensor, IndirectTensor, PackedTensor.
    let a: Tensor<u8, onednn::nhwc> = t.relayout();
    let b: Tensor<u8, onednn::nhwc> = t.try_relayout().unwrap();
    let mut c = Tensor::<u8, onednn::nhwc>::zeros([1, 3, 1, 2]);
    t.relayout_into(&mut c).unwrap();
    let mut d = Tensor::<u8, onednn::nhwc>::zeros([1, 3, 1, 2]);
    d.relayout_from(&t).unwrap();
    assert_eq!(
        (a.as_raw(), b.as_raw(), c.as_raw()),
        (d.as_raw(), d.as_raw(), d.as_raw())
    );

    let i = t.to_indirect();
    assert_eq!(i.relayout::<onednn::nhwc>().as_raw(), d.as_raw());
    assert_eq!(
        i.try_relayout::<onednn::nhwc>().unwrap().as_raw(),
        d.as_raw()
    );

    let p = PackedTensor::<u4, onednn::nchw>::from_fn([1, 3, 1, 2], |i| u4::new(value_of(&i)));
    let q: PackedTensor<u4, onednn::nhwc> = p.relayout();
    let mut r = PackedTensor::<u4, onednn::nhwc>::zeros([1, 3, 1, 2]);
    r.relayout_from(&p).unwrap();
    assert_eq!(q.as_bytes(), r.as_bytes());
    assert_eq!(
        p.try_relayout::<onednn::nhwc>().unwrap().as_bytes(),
        r.as_bytes()
    );
}

#[test]
fn packed_tensors_come_from_packed_bytes() {
    // NCHW64 on 3 channels: 64 nibbles, 32 bytes, channels 0 and 1 in byte 0.
    let mut bytes = vec![0u8; 32];
    bytes[0] = 0x21;
    bytes[1] = 0x03;
    let t = PackedTensor::<u4, megengine::NCHW64>::from_bytes([1, 3, 1, 1], &bytes).unwrap();
    assert_eq!(t.to_row_major(), [u4::new(1), u4::new(2), u4::new(3)]);
    assert_eq!(t.as_bytes(), bytes);
    // What as_bytes gives back builds the same tensor.
    let again = PackedTensor::<u4, megengine::NCHW64>::from_bytes(t.dims(), t.as_bytes()).unwrap();
    assert_eq!(again.to_row_major(), t.to_row_major());
    // An odd storage length takes the last byte whole (its high nibble is padding).
    let odd = PackedTensor::<u4, onednn::nchw>::from_bytes([1, 1, 1, 3], &[0x54, 0xF6]).unwrap();
    assert_eq!(odd.to_row_major(), [u4::new(4), u4::new(5), u4::new(6)]);

    for wrong in [0, 31, 33] {
        let err = PackedTensor::<u4, megengine::NCHW64>::from_bytes([1, 3, 1, 1], &vec![0; wrong])
            .unwrap_err();
        assert_eq!(
            err,
            LayoutError::Length {
                expected: 32,
                found: wrong
            }
        );
    }
}

#[test]
fn renamed_calls_keep_their_meaning() {
    let nchw = Tensor::<u8, onednn::nchw>::from_fn([1, 2, 3, 4], |[_, c, h, w]| {
        (c * 100 + h * 10 + w) as u8
    });
    let nhwc = nchw.align_to::<names::NHWC>().unwrap();
    assert_eq!(nhwc[[0, 2, 3, 1]], nchw[[0, 1, 2, 3]]);
    let m = Mapping::<onednn::nchw>::new([1, 1, 1, 2]).unwrap();
    assert_eq!(Tensor::filled(m, 3u8, 0).to_row_major(), [3, 3]);
    let q = ScaleOffset::new(1.0, 0);
    assert_eq!(
        Tensor::<u8, onednn::nchw, _>::from_real_fn([1, 1, 1, 2], q, |[.., w]| w as f32)
            .to_row_major(),
        [0, 1]
    );
}
