use super::*;
use crate::{Chunk, ChunkedMemoryLayout};
use alloc::vec;

type Flat = ChunkedMemoryLayout<3, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>)>;
type Blocked = ChunkedMemoryLayout<
    3,
    (
        Chunk<0, 0>,
        Chunk<2, 0>,
        Chunk<1, 0>,
        Chunk<1, 2>,
        Chunk<2, 4>,
    ),
>;

fn sample() -> Tensor<u16, Flat> {
    Tensor::<u16, Flat>::from_fn([2, 3, 5], |[a, b, c]| (a * 100 + b * 10 + c) as u16)
}

#[test]
fn construct_read_write_and_drop() {
    let mut t = sample();
    assert_eq!(t[[1, 2, 4]], 124);
    t[[1, 2, 4]] = 7;
    assert_eq!(t.get([1, 2, 4]), Some(&7));
    assert_eq!(t.get([2, 0, 0]), None);
    let clone = t.clone();
    drop(t);
    assert_eq!(clone.to_row_major()[29], 7);
}

#[test]
fn relayout_round_trip_with_padding() {
    let t = sample();
    let mut blocked = t.relayout::<Blocked>();
    assert_eq!(blocked.padded_dims(), [2, 4, 8]);
    assert_eq!(blocked.to_row_major(), t.to_row_major());
    blocked.fill_padding(9);
    assert_eq!(
        blocked.as_raw().iter().filter(|&&v| v == 9).count(),
        64 - 30
    );
    let back = blocked.relayout::<Flat>();
    assert_eq!(back.as_raw(), t.as_raw());
    let mut into = Tensor::<u16, Flat>::zeros([2, 3, 5]);
    blocked.view().relayout_into(&mut into.view_mut()).unwrap();
    assert_eq!(into.as_raw(), t.as_raw());
}

#[test]
fn chunks_and_views_over_borrowed_storage() {
    let t = sample().relayout::<Blocked>();
    let mut raw = t.as_raw().to_vec();
    let mut view = TensorViewMut::from_slice(*t.mapping(), &mut raw).unwrap();
    for chunk in view.chunks_mut() {
        chunk.data[0] += 1000;
    }
    let read = TensorView::from_slice(*t.mapping(), &raw).unwrap();
    assert_eq!(read.chunks().count(), 2 * 2 * 2);
    assert_eq!(read[[0, 0, 0]], 1000);
    assert_eq!(read[[1, 2, 4]], 1124);
    assert!(TensorView::from_slice(*t.mapping(), &raw[1..]).is_err());
}

#[test]
fn empty_and_zero_sized() {
    let empty = Tensor::<u8, Blocked>::zeros([2, 0, 5]);
    assert_eq!(empty.storage_len(), 0);
    assert_eq!(empty.relayout::<Flat>().to_row_major(), vec![]);
    let unit = Tensor::<(), Blocked>::zeros([2, 3, 5]);
    assert_eq!(unit.iter().count(), 30);
    let data = [0u8; 30];
    let t = Tensor::<u8, Blocked>::from_row_major([2, 3, 5], &data).unwrap();
    assert_eq!(t.as_raw().len(), 64);
}

/// `iter_mut` hands out each logical slot once, through a raw pointer: checked under Miri on a
/// blocked layout (padding between elements) and on a strided view of a larger buffer.
#[test]
fn iter_mut_reaches_each_logical_slot_once() {
    let mut t = Tensor::<u16, Blocked>::zeros([2, 3, 5]);
    for (k, v) in t.iter_mut().enumerate() {
        *v += k as u16 + 1;
    }
    assert_eq!(t.to_row_major(), (1..=30).collect::<alloc::vec::Vec<u16>>());
    let padding = t.storage_len() - t.len();
    assert_eq!(t.as_raw().iter().filter(|&&v| v == 0).count(), padding);

    let mut flat = sample();
    let mut middle = flat.slice_mut(1, 1..2).unwrap();
    assert_eq!(middle.iter_mut().len(), 10);
    middle.iter_mut().for_each(|v| *v = 0);
    assert_eq!(flat[[1, 1, 4]], 0);
    assert_eq!(flat[[1, 2, 4]], 124);
}

/// A relayout into a new tensor writes the new memory once, with no fill before it: every slot
/// must be written by the relayout itself (under Miri, reading a slot it missed is an error).
/// Checked against the relayout into a tensor made beforehand, whose elements hold another
/// value first: the same elements, the same padding (for a per-channel interface, each
/// channel's stored zero), for every element width and for moves as bytes.
#[test]
fn relayouts_into_new_tensors_write_every_slot() {
    type Nchw = crate::onednn_layout!("nchw");
    type Nhwc = crate::onednn_layout!("nhwc");
    type NChw4c = crate::onednn_layout!("nChw4c");

    fn check<T, A, B>(dims: [usize; 4], of: fn(usize) -> T)
    where
        T: crate::tensors::Element + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static,
        A: Layout<Index = [usize; 4]> + Default + crate::layouts::SameRankAs<B>,
        B: Layout<Index = [usize; 4]> + Default + crate::axes::RelayoutFrom<A>,
    {
        let src =
            Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| of(n * 1000 + c * 100 + h * 10 + w + 1));
        let new = src.relayout::<B>();
        let mut made = Tensor::filled(*new.mapping(), of(0xBE), T::default());
        src.relayout_into(&mut made).unwrap();
        assert_eq!(new.as_raw(), made.as_raw(), "{dims:?}");
    }
    for dims in [[1, 3, 2, 5], [2, 6, 3, 3]] {
        check::<f32, Nchw, NChw4c>(dims, |v| v as f32);
        check::<u8, NChw4c, Nhwc>(dims, |v| v as u8);
        check::<u16, Nhwc, Nchw>(dims, |v| v as u16);
        check::<f64, Nchw, Nhwc>(dims, |v| v as f64);
        // Four bytes, one of them padding: moved as bytes, not as a number.
        check::<(u8, u16), Nhwc, NChw4c>(dims, |v| (v as u8, v as u16));
    }

    let q = crate::quantized::PerChannel::new('C', (0..3).map(|c| (0.5, 10 + c)).collect());
    let dims = [1, 3, 2, 5];
    let src =
        Tensor::<u8, Nchw, _>::from_real_fn(dims, q.clone(), |[_, c, h, w]| (c + h + w) as f32);
    let new = src.relayout::<NChw4c>();
    let mut made = Tensor::<u8, NChw4c, _>::zeros_with(dims, q);
    src.relayout_into(&mut made).unwrap();
    assert_eq!(new.as_raw(), made.as_raw());
}
