//! Chunk-table storage: the same index, iteration, relayout and interface as a contiguous
//! tensor, over chunks that lie anywhere in memory.

mod common;

use common::scattered_chunks;
use tensor_layout::prelude::*;
use tensor_layout::tensors::IndirectTensor;
use tensor_layout::tensors::Padding;

type Crouton = htp::R4CroutonLayout;
type Flat = htp::R4FlatMemoryLayout;

fn sample(dims: [usize; 4]) -> Tensor<u8, Crouton> {
    Tensor::from_fn(dims, |[b, h, w, c]: [usize; 4]| {
        (b * 101 + h * 31 + w * 7 + c) as u8
    })
}

#[test]
fn chunks_out_of_order_in_memory_read_as_the_contiguous_tensor() {
    let dims = [2, 9, 17, 40];
    let contiguous = sample(dims);
    let chunks = scattered_chunks(&contiguous);
    let addresses: Vec<usize> = chunks.iter().map(|c| c.as_ptr() as usize).collect();
    assert!(
        addresses.windows(2).any(|pair| pair[1] < pair[0]),
        "the test's chunks lie out of order"
    );
    assert!(
        addresses
            .windows(2)
            .any(|pair| pair[1].abs_diff(pair[0]) != 2048)
    );
    let indirect = IndirectTensor::<u8, Crouton>::from_chunks(dims, chunks).unwrap();
    assert_eq!(indirect.to_row_major(), contiguous.to_row_major());
    for index in [[0, 0, 0, 0], [1, 8, 16, 39], [1, 3, 9, 33], [0, 8, 8, 32]] {
        assert_eq!(indirect[index], contiguous[index], "{index:?}");
        let (chunk, at) = indirect.chunk_of(index);
        let offset = contiguous.mapping().offset(index);
        assert_eq!(chunk * 2048 + at, offset);
    }
    assert_eq!(indirect.to_contiguous().as_raw(), contiguous.as_raw());
}

#[test]
fn relayouts_both_ways_equal_the_contiguous_ones() {
    for dims in [[1, 3, 5, 30], [2, 9, 17, 40], [1, 8, 8, 32], [3, 1, 1, 1]] {
        let contiguous = sample(dims);
        let indirect =
            IndirectTensor::<u8, Crouton>::from_chunks(dims, scattered_chunks(&contiguous))
                .unwrap();
        let flat: Tensor<u8, Flat> = indirect.try_relayout().unwrap();
        assert_eq!(
            flat.as_raw(),
            contiguous.relayout::<Flat>().as_raw(),
            "{dims:?}"
        );
        let blocked: Tensor<u8, onednn::nChw16c> = indirect.try_relayout().unwrap();
        assert_eq!(
            blocked.as_raw(),
            contiguous.relayout::<onednn::nChw16c>().as_raw()
        );
        let mut into =
            Tensor::<u8, onednn::nchw>::from_fn(flat.relayout::<onednn::nchw>().dims(), |_| 7);
        indirect.relayout_into(&mut into).unwrap();
        assert_eq!(
            into.to_row_major(),
            contiguous.relayout::<onednn::nchw>().to_row_major()
        );

        let mut back = IndirectTensor::<u8, Crouton>::zeros(dims);
        back.chunk_slices_mut().for_each(|chunk| chunk.fill(0xEE));
        back.relayout_from(&blocked).unwrap();
        assert_eq!(
            back.to_contiguous().as_raw(),
            contiguous.as_raw(),
            "padding rewritten too"
        );
    }
}

#[test]
fn wrong_tables_and_shapes_are_errors() {
    let dims = [1, 9, 8, 32];
    let one = vec![vec![0u8; 2048].into_boxed_slice()];
    assert_eq!(
        IndirectTensor::<u8, Crouton>::from_chunks(dims, one).unwrap_err(),
        LayoutError::Length {
            expected: 2,
            found: 1
        }
    );
    let odd = vec![
        vec![0u8; 2048].into_boxed_slice(),
        vec![0u8; 2047].into_boxed_slice(),
    ];
    assert_eq!(
        IndirectTensor::<u8, Crouton>::from_chunks(dims, odd).unwrap_err(),
        LayoutError::ChunkLength {
            chunk: 1,
            expected: 2048,
            found: 2047
        }
    );
    let mut t = IndirectTensor::<u8, Crouton>::zeros(dims);
    let other = Tensor::<u8, Flat>::zeros([1, 9, 8, 31]);
    let before = t.to_contiguous();
    assert!(matches!(
        t.relayout_from(&other),
        Err(LayoutError::ShapeMismatch { .. })
    ));
    assert_eq!(
        t.to_contiguous().as_raw(),
        before.as_raw(),
        "untouched on error"
    );
}

#[test]
fn interfaces_and_padding_travel_through_the_table() {
    let q = ScaleOffset::new(0.25, 100);
    let mut t = IndirectTensor::<u8, Crouton, _>::try_zeros_with([1, 9, 3, 30], q).unwrap();
    assert!(
        t.chunk_slices()
            .all(|chunk| chunk.iter().all(|&v| v == 100))
    );
    t.set_real([0, 8, 2, 29], 2.0);
    assert_eq!((t[[0, 8, 2, 29]], t.real([0, 8, 2, 29])), (108, 2.0));
    let blocked = t.try_relayout::<onednn::nChw32c>().unwrap();
    assert_eq!(blocked.interface(), &q);
    assert_eq!(blocked.real([0, 29, 8, 2]), 2.0);
    assert_eq!(blocked.pad_value(), 100);
    let again = blocked.to_indirect();
    assert_eq!(again.interface(), &q);
    assert_eq!(again.real([0, 29, 8, 2]), 2.0);
}

#[test]
fn callers_chunks_have_their_padding_filled_checked_or_trusted() {
    let dims = [1, 9, 3, 30];
    let q = ScaleOffset::new(0.5, 7);
    let logical = Tensor::<u8, Crouton, _>::try_from_real_fn(dims, q, |[_, h, w, c]| {
        (h + w + c) as f32 * 0.5
    })
    .unwrap();
    // The caller's chunks hold the elements and 0xEE in every padding slot.
    let mut raw = Tensor::<u8, Crouton>::from_fn(dims, |i| logical[i]);
    raw.fill_padding(0xEE);
    let with = |padding| {
        IndirectTensor::<u8, Crouton, _>::from_chunks_with(dims, scattered_chunks(&raw), q, padding)
    };

    let err = with(Padding::Check).unwrap_err();
    let first = raw.as_raw().iter().position(|&v| v == 0xEE).unwrap();
    assert!(
        matches!(err, LayoutError::Padding { slot, .. } if slot == first),
        "{err}"
    );

    let trusted = with(Padding::Trust).unwrap();
    assert_eq!(trusted.to_contiguous().as_raw(), raw.as_raw());
    assert_eq!(trusted.pad_value(), 7);

    let filled = with(Padding::Fill).unwrap();
    assert_eq!(filled.to_contiguous().as_raw(), logical.as_raw());
    assert_eq!(filled.real([0, 8, 2, 29]), 39.0 * 0.5);
    let checked = IndirectTensor::<u8, Crouton, _>::from_chunks_with(
        dims,
        filled.into_chunks(),
        q,
        Padding::Check,
    );
    assert!(checked.is_ok());

    // A per-channel interface along an axis the layout lacks.
    let wrong = PerChannel::new('O', vec![(1.0, 0); 30]);
    let err = IndirectTensor::<u8, Crouton, _>::from_chunks_with(
        dims,
        scattered_chunks(&raw),
        wrong,
        Padding::Trust,
    )
    .unwrap_err();
    assert!(matches!(err, LayoutError::Interface { .. }), "{err}");
}

#[test]
fn element_wise_work_on_tables_visits_logical_elements_only() {
    let dims = [2, 9, 17, 40];
    let contiguous = sample(dims);
    let mut scattered =
        IndirectTensor::<u8, Crouton>::from_chunks(dims, scattered_chunks(&contiguous)).unwrap();
    scattered
        .chunk_slices_mut()
        .for_each(|chunk| chunk.fill(0xEE));
    for (v, want) in scattered.iter_mut().zip(contiguous.iter()) {
        *v = *want;
    }
    // Logical elements written, padding as it was.
    let mut want = contiguous.clone();
    want.fill_padding(0xEE);
    assert_eq!(scattered.to_contiguous().as_raw(), want.as_raw());

    let plus_one = |v: u8| u16::from(v) + 1;
    assert_eq!(
        scattered.map(plus_one).to_contiguous().as_raw(),
        contiguous.map(plus_one).as_raw()
    );
    let pooled = contiguous.to_indirect();
    let sums = scattered
        .zip_with(&pooled, |a, b| u16::from(a) * 2 + u16::from(b))
        .unwrap();
    let want = contiguous
        .zip_with(&contiguous, |a, b| u16::from(a) * 2 + u16::from(b))
        .unwrap();
    assert_eq!(sums.to_contiguous().as_raw(), want.as_raw());

    let pairs: Vec<(f32, i32)> = (0..40).map(|c| (0.5, 100 + c)).collect();
    let q = PerChannel::new('C', pairs);
    let quantized = Tensor::<u8, Crouton, _>::try_from_real_fn(dims, q, |[n, h, w, c]| {
        (n + h + w + c) as f32 * 0.5 - 20.0
    })
    .unwrap();
    let relu = |x: f32| x.max(0.0) + 1.0;
    assert_eq!(
        quantized
            .to_indirect()
            .map_real(relu)
            .to_contiguous()
            .as_raw(),
        quantized.map_real(relu).as_raw()
    );
}

#[test]
fn chunk_views_are_the_contiguous_tensors_chunks() {
    let contiguous = sample([2, 9, 17, 40]);
    let table = contiguous.to_indirect();
    assert_eq!(table.chunk_views().len(), contiguous.chunk_count());
    for (ours, theirs) in table.chunk_views().zip(contiguous.chunk_views()) {
        assert_eq!(
            (ours.number(), ours.origin(), ours.dims()),
            (theirs.number(), theirs.origin(), theirs.dims())
        );
        assert_eq!(ours.as_raw(), theirs.as_raw());
        assert_eq!(
            table.chunk(ours.number()),
            contiguous.chunk(theirs.number())
        );
    }
    assert!(table.chunk_view(table.chunk_count()).is_err());
}

#[test]
fn tensors_become_tables_and_back_without_a_copy() {
    let t = sample([2, 9, 17, 40]);
    let (want, place) = (t.clone(), t.as_raw().as_ptr());
    let table = t.into_indirect();
    assert_eq!(table.chunk(0).as_ptr(), place);
    // From one table into a table of another layout, by axis name.
    let blocked = table.relayout::<onednn::nChw32c>().into_indirect();
    assert_eq!(
        blocked.to_row_major(),
        want.relayout::<onednn::nChw32c>().to_row_major()
    );
    let back = table.into_contiguous();
    assert_eq!(
        (back.as_raw().as_ptr(), back.as_raw()),
        (place, want.as_raw())
    );
    // The caller's chunks are copied out.
    let boxed =
        IndirectTensor::<u8, Crouton>::from_chunks(want.dims(), scattered_chunks(&want)).unwrap();
    assert_eq!(boxed.into_contiguous().as_raw(), want.as_raw());
}
