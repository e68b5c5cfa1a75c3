//! The contracts of every layout (mdspan's layout-mapping queries), checked against brute force:
//! every index of small dims is visited and its offset computed. A mapping is unique when the
//! offsets are distinct, exhaustive when they cover `0..required_span_size`, strided when the
//! offset is affine in the index, and its required span is the largest offset plus one (0 when
//! empty). Each layout's type-level promises (`IS_ALWAYS_*`) must hold for every mapping tested.
//!
//! Also: a mapping whose strides overlap gives read-only views, never writable ones.

use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    Compact, EuAligned, ExampleChip, FourN, FreeStrides, LineAligned, Matrix, TwoIC, TwoN,
};
use tensor_layout::{
    DynLayout, dynamic::DynMapping, layouts::Strided, mappings::Coords, mappings::RowMajorIndices,
};

/// What brute force says about a mapping.
#[derive(Debug, PartialEq, Eq)]
struct Contracts {
    unique: bool,
    exhaustive: bool,
    strided: bool,
    span: usize,
}

/// Visits every index of `dims`.
fn brute_force<I: Coords>(dims: I, offset: impl Fn(I) -> usize) -> Contracts {
    let indices: Vec<I> = RowMajorIndices::new(dims).collect();
    let offsets: Vec<usize> = indices.iter().map(|&i| offset(i)).collect();
    let span = offsets.iter().max().map_or(0, |&max| max + 1);
    let mut distinct = offsets.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let origin = offsets.first().map_or(0, |&o| o as i128);
    let strides: Vec<i128> = (0..I::RANK)
        .map(|d| {
            let mut step = I::splat(0);
            step[d] = 1;
            if dims[d] > 1 && !offsets.is_empty() {
                offset(step) as i128 - origin
            } else {
                0
            }
        })
        .collect();
    let strided = indices.iter().zip(&offsets).all(|(index, &o)| {
        let affine: i128 = (0..I::RANK).map(|d| index[d] as i128 * strides[d]).sum();
        o as i128 == origin + affine
    });
    Contracts {
        unique: distinct.len() == offsets.len(),
        exhaustive: distinct.len() == span, // distinct offsets below `span`, as many as slots
        strided,
        span,
    }
}

/// Checks one mapping's answers, its witness of a shared slot, and its type's promises.
fn check<L: Layout>(m: &Mapping<L>) -> Contracts {
    let truth = brute_force(m.dims(), |i| m.offset(i));
    let answers = Contracts {
        unique: m.is_unique(),
        exhaustive: m.is_exhaustive(),
        strided: m.is_strided(),
        span: m.required_span_size(),
    };
    assert_eq!(answers, truth, "{} on dims {:?}", m.layout(), m.dims());
    match m.shared_slot() {
        Some((a, b)) => {
            assert!(a != b && a.is_within(&m.dims()) && b.is_within(&m.dims()));
            assert_eq!(m.offset(a), m.offset(b), "{} shares no slot", m.layout());
        }
        None => assert!(truth.unique),
    }
    assert!(!L::IS_ALWAYS_UNIQUE || truth.unique, "{}", m.layout());
    assert!(
        !L::IS_ALWAYS_EXHAUSTIVE || truth.exhaustive,
        "{}",
        m.layout()
    );
    assert!(!L::IS_ALWAYS_STRIDED || truth.strided, "{}", m.layout());
    assert!(truth.span <= m.storage_len(), "{}", m.layout());
    truth
}

/// Every dims below `limit` (per dimension, exclusive).
fn all_dims<const R: usize>(limit: [usize; R]) -> impl Iterator<Item = [usize; R]> {
    RowMajorIndices::new(limit)
}

/// Checks `L` on every dims below `limit`; returns how many mappings were exhaustive and
/// strided, so that a test can see both answers occur.
fn check_type<L, const R: usize>(limit: [usize; R]) -> (usize, usize)
where
    L: Layout<Index = [usize; R]> + Default,
{
    let (mut exhaustive, mut strided) = (0, 0);
    for dims in all_dims(limit) {
        let truth = check(&Mapping::<L>::new(dims).unwrap());
        exhaustive += usize::from(truth.exhaustive);
        strided += usize::from(truth.strided);
    }
    (exhaustive, strided)
}

#[test]
fn chunked_layouts_are_unique_and_exhaustive_or_strided_only_where_blocks_allow() {
    // No blocks: always all three.
    assert_eq!(check_type::<onednn::nhwc, 4>([3, 4, 3, 3]).0, 3 * 4 * 3 * 3);
    const { assert!(onednn::nhwc::IS_ALWAYS_EXHAUSTIVE && onednn::nhwc::IS_ALWAYS_STRIDED) };
    // A block of 2 rows and 3 columns (both answers occur, depending on the dims).
    type Tiles = chunked_layout![3; 0,0, 1,0, 2,0, 1,2, 2,3];
    let (exhaustive, strided) = check_type::<Tiles, 3>([3, 6, 8]);
    assert!(exhaustive > 0 && exhaustive < 3 * 6 * 8);
    assert!(strided > 0 && strided < 3 * 6 * 8);
    const {
        assert!(
            Tiles::IS_ALWAYS_UNIQUE && !Tiles::IS_ALWAYS_EXHAUSTIVE && !Tiles::IS_ALWAYS_STRIDED
        )
    };
    // Two blocks of one dimension, split by another's (OIhw-style), and a block of 1.
    check_type::<chunked_layout![2; 0,0, 1,0, 1,2, 0,3, 1,2], 2>([8, 10]);
    check_type::<chunked_layout![3; 1,0, 0,0, 2,0, 0,1, 2,2], 3>([4, 4, 6]);
    const { assert!(<chunked_layout![2; 0,0, 1,0, 1,1]>::IS_ALWAYS_STRIDED) };
    check_type::<chunked_layout![2; 0,0, 1,0, 1,1], 2>([4, 4]);
    // The catalog's blocked layouts on dims around their blocks.
    check_type::<onednn::nChw4c, 4>([2, 10, 3, 2]);
    check_type::<onednn::OIhw8i16o2i, 4>([18, 18, 2, 1]);
    check_type::<htp::R4Crouton2x2Layout, 4>([1, 5, 6, 5]);
    for dims in [[1, 3, 5, 30], [1, 8, 8, 32], [2, 9, 9, 33], [1, 1, 1, 40]] {
        check(&Mapping::<htp::R4CroutonLayout>::new(dims).unwrap());
    }
}

#[test]
fn padding_past_the_last_element_keeps_a_mapping_exhaustive() {
    // 3 channels of 16: the 13 padding slots follow the last element.
    let m = Mapping::<onednn::nChw16c>::new([1, 3, 1, 1]).unwrap();
    assert!(m.is_exhaustive() && m.is_strided());
    assert_eq!((m.required_span_size(), m.storage_len()), (3, 16));
    // With two pixels the padding of the first lies between elements.
    let m = Mapping::<onednn::nChw16c>::new([1, 3, 1, 2]).unwrap();
    assert!(!m.is_exhaustive() && m.is_strided());
    assert_eq!(m.required_span_size(), 16 + 3);
    // 17 channels cross a block boundary: no single channel stride.
    assert!(!check(&Mapping::<onednn::nChw16c>::new([1, 17, 1, 2]).unwrap()).strided);
}

#[test]
fn strided_layouts_are_strided_and_unique_unless_their_strides_overlap() {
    let mut overlapping = 0;
    for strides in all_dims([5, 5]) {
        for offset in 0..3 {
            for dims in all_dims([5, 5]) {
                let m = Mapping::with_layout(Strided::new(strides, offset), dims).unwrap();
                overlapping += usize::from(!check(&m).unique);
            }
        }
    }
    assert!(overlapping > 0);
    // Rank 3: strides that do not nest but never meet (2 and 3 on 3 x 2), and ones that meet.
    for strides in all_dims([7, 7, 7]) {
        for dims in all_dims([4, 4, 4]) {
            check(&Mapping::with_layout(Strided::new(strides, 0), dims).unwrap());
        }
    }
    let apart = Mapping::with_layout(Strided::new([2, 3], 0), [3, 2]).unwrap();
    assert!(apart.is_unique() && !apart.is_exhaustive());
    let meet = Mapping::with_layout(Strided::new([2, 3], 0), [4, 3]).unwrap();
    assert_eq!(meet.shared_slot(), Some(([0, 2], [3, 0]))); // 2 * 3 == 3 * 2
    // A permutation of a dense packing is exhaustive; an offset or a gap is not.
    assert!(
        check(&Mapping::with_layout(Strided::new([1, 4, 12], 0), [4, 3, 2]).unwrap()).exhaustive
    );
    assert!(
        !check(&Mapping::with_layout(Strided::new([1, 4, 12], 1), [4, 3, 2]).unwrap()).exhaustive
    );
    assert!(
        !check(&Mapping::with_layout(Strided::new([1, 5, 15], 0), [4, 3, 2]).unwrap()).exhaustive
    );
    // Overlapping strides can still reach every slot: [0, 1, 1, 2].
    assert_eq!(
        check(&Mapping::with_layout(Strided::new([1, 1], 0), [2, 2]).unwrap()),
        Contracts {
            unique: false,
            exhaustive: true,
            strided: true,
            span: 3
        }
    );
}

#[test]
fn views_of_tensors_answer_for_the_slots_they_see() {
    let t = Tensor::<u8, onednn::nchw>::zeros([2, 3, 4, 5]);
    let whole = check(t.align_to::<names::NHWC>().unwrap().mapping());
    assert!(whole.unique && whole.exhaustive && whole.strided);
    let rows = check(t.slice(2, 1..3).unwrap().mapping());
    assert!(rows.unique && !rows.exhaustive && rows.strided);
    let one_image = check(t.slice(0, 0..1).unwrap().mapping());
    assert!(one_image.exhaustive);
    let last_image = check(t.slice(0, 1..2).unwrap().mapping());
    assert!(!last_image.exhaustive); // its first element is at slot 60, not 0
}

#[test]
fn run_time_layouts_answer_as_the_typed_ones() {
    for text in ["nchw", "nChw4c", "4: 1,0 0,0 2,0 3,0 1,2 3,3", "OIhw2i2o"] {
        let layout = DynLayout::parse(text).unwrap();
        let ranked = layout.ranked::<4>().unwrap();
        for dims in all_dims([3, 6, 2, 7]) {
            let typed = check(&Mapping::with_layout(ranked, dims).unwrap());
            let m: DynMapping = layout.bind(&dims).unwrap();
            let answers = Contracts {
                unique: m.is_unique(),
                exhaustive: m.is_exhaustive(),
                strided: m.is_strided(),
                span: m.required_span_size(),
            };
            assert_eq!(answers, typed, "{text} on {dims:?}");
            assert_eq!(typed, brute_force(dims, |i| m.offset(&i)));
        }
    }
}

/// Checks a mapping when the placement was accepted; its exhaustiveness.
fn check_placed<L: Layout>(placed: Result<Mapping<L>, LayoutError>) -> Option<bool> {
    placed.ok().map(|m| check(&m).exhaustive)
}

#[test]
fn sophgo_local_layouts_answer_for_their_placement() {
    let mut outcomes = [0usize; 2];
    for dims in all_dims([4, 7, 3, 4]) {
        for npu in 0..4 {
            for within in [0, 128] {
                let a = npu * 1024 + within;
                let placed = [
                    check_placed(Mapping::with_layout(
                        Compact::<ExampleChip>::new(a, 4),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        EuAligned::<ExampleChip>::new(a, 4),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        LineAligned::<ExampleChip>::new(a, 4),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        Compact::<ExampleChip, FourN>::new(a, 1),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        EuAligned::<ExampleChip, FourN>::new(a, 1),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        Compact::<ExampleChip, TwoN>::new(a, 2),
                        dims,
                    )),
                    check_placed(Mapping::with_layout(
                        EuAligned::<ExampleChip, TwoIC>::new(a, 4),
                        dims,
                    )),
                ];
                for exhaustive in placed.into_iter().flatten() {
                    outcomes[usize::from(exhaustive)] += 1;
                }
            }
        }
    }
    // Both answers occur: a one-channel tensor at address 0 fills its slots, others do not.
    assert!(outcomes[0] > 0 && outcomes[1] > 0);
    for strides in [[40, 20, 5, 1], [1, 2, 8, 24], [0, 0, 4, 1], [30, 1, 10, 2]] {
        for dims in all_dims([3, 6, 3, 3]) {
            let free = FreeStrides::<ExampleChip>::new(2048 + 8, 4, strides);
            check_placed(Mapping::with_layout(free, dims));
        }
    }
    // Channels wrapping around the NPUs break the channel stride.
    let wraps =
        Mapping::with_layout(Compact::<ExampleChip>::new(3 * 1024, 4), [1, 3, 1, 1]).unwrap();
    assert!(!wraps.is_strided());
    let fits =
        Mapping::with_layout(Compact::<ExampleChip>::new(2 * 1024, 4), [1, 2, 1, 1]).unwrap();
    assert!(fits.is_strided());
}

#[test]
fn sophgo_matrices_answer_for_their_placement() {
    for dims in all_dims([4, 20]) {
        for width in 1..=dims[1].max(1) {
            for address in [0, 128, 1024 + 256, 3 * 1024] {
                let matrix = Matrix::<ExampleChip>::new(address, 4, width);
                check_placed(Mapping::with_layout(matrix, dims));
            }
        }
    }
}

#[test]
fn overlapping_strides_give_read_only_views_and_refuse_writable_ones() {
    let mut raw: Vec<u8> = (0..6).collect();
    // One row of 6 seen three times (stride 0), and a diagonal (strides 1, 1).
    let broadcast = Mapping::with_layout(Strided::new([0, 1], 0), [3, 6]).unwrap();
    let diagonal = Mapping::with_layout(Strided::new([1, 1], 0), [3, 4]).unwrap();
    let read = TensorView::from_slice(broadcast, &raw).unwrap();
    assert_eq!(read.to_row_major()[12..], [0, 1, 2, 3, 4, 5]);
    assert_eq!(TensorView::from_slice(diagonal, &raw).unwrap()[[2, 1]], 3);

    let err = TensorViewMut::from_slice(broadcast, &mut raw).unwrap_err();
    assert_eq!(
        err,
        LayoutError::StridesOverlap {
            strides: vec![0, 1],
            dims: vec![3, 6],
            first: vec![0, 0],
            second: vec![1, 0],
        }
    );
    assert_eq!(
        err.to_string(),
        "the strides [0, 1] overlap on dims [3, 6]: indices [0, 0] and [1, 0] share a storage \
         slot (they differ in dimension 0), so writing one element would change the other; only \
         a read-only view may overlap"
    );
    let err = TensorViewMut::from_slice(diagonal, &mut raw).unwrap_err();
    assert!(
        err.to_string().contains(
            "indices [0, 1] and [1, 0] share a storage slot (they differ in dimensions 0 and 1)"
        ),
        "{err}"
    );
    // An owned tensor is writable too.
    assert!(matches!(
        Tensor::try_filled(diagonal, 0u8, 0),
        Err(LayoutError::StridesOverlap { .. })
    ));
    // Strides that do not nest but never meet are writable.
    let apart = Mapping::with_layout(Strided::new([2, 3], 0), [3, 2]).unwrap();
    let mut slots = [0u8; 8];
    TensorViewMut::from_slice(apart, &mut slots).unwrap()[[2, 1]] = 9;
    assert_eq!(slots[7], 9);
    // The views made from a tensor never overlap: they stay writable.
    let mut t = Tensor::<u8, onednn::nchw>::zeros([1, 2, 3, 4]);
    t.slice_mut(2, 1..3)
        .unwrap()
        .align_to_mut::<names::NHWC>()
        .unwrap()[[0, 1, 3, 1]] = 5;
    assert_eq!(t[[0, 1, 2, 3]], 5);
}
