//! Run-time layouts: every spelling reads back to the typed layout, the run-time mapping agrees
//! with the typed one on every index, and bad text says where and what was expected.

mod common;
use common::entries_of;
use common::garbage::garbage;
use tensor_layout::prelude::*;
use tensor_layout::{
    DynLayout, LayoutError, axes::AxisNames, layouts::ChunkList, mappings::RowMajorIndices,
};

/// Checks one typed layout against its run-time twin on `dims`.
fn agrees<const R: usize, C: ChunkList, N: AxisNames>(dims: [usize; R]) {
    let typed = ChunkedMemoryLayout::<R, C, N>::default();
    let dynamic = typed.to_dyn();
    assert_eq!(dynamic.axis_word(), typed.axis_word());
    // Long form round trip, and the short form.
    assert_eq!(DynLayout::parse(&dynamic.to_string()).unwrap(), dynamic);
    let short: Vec<String> = entries_of::<R, C>()
        .iter()
        .map(|(d, s)| format!("{d},{s}"))
        .collect();
    assert_eq!(
        DynLayout::parse(&format!("{}: {}", typed.axis_word(), short.join(" "))).unwrap(),
        dynamic
    );
    // The same function on these dims, index by index.
    let m = Mapping::<ChunkedMemoryLayout<R, C, N>>::new(dims).unwrap();
    let d = dynamic.bind(&dims).unwrap();
    assert!(d.same_function_as(&m), "{dynamic} on {dims:?}");
    assert_eq!(d.padded_dims(), m.padded_dims());
    for index in RowMajorIndices::new(dims) {
        assert_eq!(d.offset(&index), m.offset(index));
    }
}

trait Agrees<const R: usize> {
    fn agrees(dims: [usize; R]);
}

impl<const R: usize, C: ChunkList, N: AxisNames> Agrees<R> for ChunkedMemoryLayout<R, C, N> {
    fn agrees(dims: [usize; R]) {
        agrees::<R, C, N>(dims)
    }
}

#[test]
fn every_catalog_layout_reads_back_and_agrees() {
    for dims in [[1, 3, 5, 30], [2, 17, 9, 33], [1, 1, 1, 1]] {
        htp::R4FlatMemoryLayout::agrees(dims);
        htp::R4NCHWMemoryLayout::agrees(dims);
        htp::R4CroutonLayout::agrees(dims);
        htp::R4Crouton2x2Layout::agrees(dims);
        htp::R4ConvWeightLayout::agrees(dims);
        htp::SpatialXMajor::agrees(dims);
        onednn::nChw8c::agrees(dims);
        onednn::NChw16n16c::agrees(dims);
        onednn::OIhw4i16o4i::agrees(dims);
        megengine::CHWN4::agrees(dims);
    }
    onednn::gOIhw16i16o::agrees([2, 17, 20, 3, 3]);
    onednn::nCdhw16c::agrees([1, 17, 2, 3, 4]);
}

#[test]
fn onednn_tags_read_as_their_catalog_types() {
    for (tag, typed) in [
        ("nChw16c", onednn::nChw16c::default().to_dyn()),
        ("aBcd16b", <onednn_layout!("aBcd16b")>::default().to_dyn()),
        ("onednn::nChw16c", onednn::nChw16c::default().to_dyn()),
        (
            "htp::R4CroutonLayout",
            htp::R4CroutonLayout::default().to_dyn(),
        ),
        (
            "R4ConvWeightLayout",
            htp::R4ConvWeightLayout::default().to_dyn(),
        ),
        ("megengine::NCHW4", megengine::NCHW4::default().to_dyn()),
        ("sophgo::Continuous", onednn::nchw::default().to_dyn()),
        (
            "NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32",
            htp::R4CroutonLayout::default().to_dyn(),
        ),
        (
            "ChunkedMemoryLayout<HWIO, 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4>",
            htp::R4ConvWeightLayout::default().to_dyn(),
        ),
        ("OIhw8i16o2i", onednn::OIhw8i16o2i::default().to_dyn()),
        ("hwio", onednn::hwio::default().to_dyn()),
        ("ncdhw", onednn::ncdhw::default().to_dyn()),
    ] {
        assert_eq!(DynLayout::parse(tag).unwrap(), typed, "{tag}");
    }
}

#[test]
fn layouts_equal_as_functions_on_the_given_dims() {
    // nChw16c on 16 channels is aBcd16b; a block of 1 is no block; nChw8c and nChw16c agree
    // only where the image is one pixel.
    let nchw16c = DynLayout::parse("nChw16c")
        .unwrap()
        .bind(&[2, 16, 3, 3])
        .unwrap();
    assert!(
        nchw16c
            .same_function_as(&Mapping::<onednn_layout!("aBcd16b")>::new([2, 16, 3, 3]).unwrap())
    );
    let block_of_one = DynLayout::parse("nChw1c")
        .unwrap()
        .bind(&[2, 5, 3, 3])
        .unwrap();
    assert!(block_of_one.same_function_as(&Mapping::<onednn::nchw>::new([2, 5, 3, 3]).unwrap()));
    let eight = DynLayout::parse("nChw8c").unwrap();
    assert!(
        eight
            .bind(&[1, 16, 1, 1])
            .unwrap()
            .same_function_as(&Mapping::<onednn::nChw16c>::new([1, 16, 1, 1]).unwrap())
    );
    assert!(
        !eight
            .bind(&[1, 16, 2, 1])
            .unwrap()
            .same_function_as(&Mapping::<onednn::nChw16c>::new([1, 16, 2, 1]).unwrap())
    );
    // Same offsets for every index but more padding is not the same function.
    let padded = DynLayout::parse("nChw8c")
        .unwrap()
        .bind(&[1, 4, 1, 1])
        .unwrap();
    assert!(!padded.same_function_as(&Mapping::<onednn::nchw>::new([1, 4, 1, 1]).unwrap()));
}

#[test]
fn bad_text_names_the_position_and_what_was_expected() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "",
            0,
            "expected `ChunkedMemoryLayout<...>`, `RANK: dim,size ...`, `NHWC: dim,size ...`, a oneDNN tag or a catalog name, found the end",
        ),
        (
            "ChunkedMemoryLayout 4, 0,0>",
            20,
            "expected `<` after ChunkedMemoryLayout, found `4`",
        ),
        (
            "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0",
            41,
            "expected `,` or `>`, found the end",
        ),
        (
            "ChunkedMemoryLayout<4, 0,0, 1,x>",
            30,
            "expected a size, found `x`",
        ),
        (
            "ChunkedMemoryLayout<4, 0,0> extra",
            28,
            "expected the end after `>`, found `extra`",
        ),
        (
            "4 0,0",
            2,
            "expected `:` after the rank or axis word, found `0`",
        ),
        (
            "NHWN: 0,0 1,0 2,0 3,0",
            0,
            "`NHWN` is not an axis word: an axis name appears twice",
        ),
        (
            "ChunkedMemoryLayout<NhWC, 0,0>",
            20,
            "`NhWC` is not an axis word: axis names are upper-case letters (N, C, H, W, ...) or the positional a, b, c, ...",
        ),
        (
            "2: 0,0 1",
            8,
            "expected `,` and the size of the entry, found the end",
        ),
        (
            "2: 0;0",
            4,
            "expected `,` and the size of the entry, found `;`",
        ),
        (
            "nChx16c",
            3,
            "unknown dimension letter 'x': expected one of n, c, d, h, w",
        ),
        (
            "99999999999999999999999: 0,0",
            0,
            "expected the rank or an axis word such as NHWC, found a number too large for usize",
        ),
    ];
    for &(text, position, expected) in cases {
        match DynLayout::parse(text) {
            Err(LayoutError::Parse {
                what,
                input,
                position: p,
                expected: e,
            }) => {
                assert_eq!(what, "layout");
                assert_eq!((input.as_str(), p, e.as_str()), (text, position, expected));
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn readable_text_that_breaks_the_rules_is_an_invalid_layout() {
    let err = DynLayout::parse("4: 0,0 1,0 2,0 4,0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid layout ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 4,0>: dimension 4 is out of range for rank 4; dimension 3 has no (3, 0) entry"
    );
    assert!(matches!(
        DynLayout::parse("0: 0,0"),
        Err(LayoutError::InvalidLayout { .. })
    ));
    let too_long = format!("1: 0,0{}", " 0,1".repeat(24));
    assert!(
        DynLayout::parse(&too_long)
            .unwrap_err()
            .to_string()
            .contains("at most 24 entries")
    );
    let rank = DynLayout::parse("nchw")
        .unwrap()
        .bind(&[1, 2, 3])
        .unwrap_err();
    assert_eq!(
        rank,
        LayoutError::Rank {
            expected: 4,
            found: 3
        }
    );
    let overflow = DynLayout::parse("nChw16c")
        .unwrap()
        .bind(&[usize::MAX, 17, 1, 1])
        .unwrap_err();
    assert!(matches!(overflow, LayoutError::Overflow { .. }));
}

/// A megabyte of text.
const MEGABYTE: usize = 1 << 20;

/// `fragment` repeated to at least `len` bytes, after `head`.
fn repeated(head: &str, fragment: &str, len: usize) -> String {
    let mut text = String::from(head);
    while text.len() < len {
        text += fragment;
    }
    text
}

/// The problem and its position, for a text that must not read.
fn parse_problem(text: &str) -> (usize, String) {
    match DynLayout::parse(text) {
        Err(LayoutError::Parse {
            position, expected, ..
        }) => (position, expected),
        other => panic!("{:?}: {:?}", &text[..40], other.map(|l| l.to_string())),
    }
}

#[test]
fn a_megabyte_of_garbage_is_a_parse_error() {
    let text = garbage(MEGABYTE);
    let (position, _) = parse_problem(&text);
    assert!(position < text.len());
    for text in [
        garbage(MEGABYTE).replace(':', " "),
        format!("x{}", garbage(MEGABYTE)),
    ] {
        parse_problem(&text);
    }
}

#[test]
fn a_megabyte_long_word_is_no_name_and_gets_no_advice() {
    let word = repeated("", "R4CroutonLayout", MEGABYTE);
    let (position, expected) = parse_problem(&word);
    assert_eq!(position, 0);
    assert!(
        expected.starts_with("expected a catalog name"),
        "{:.80}",
        expected
    );
    assert!(!expected.contains("did you mean"));
    let (position, expected) = parse_problem(&format!("htp::{word}"));
    assert_eq!(position, 5);
    assert!(!expected.contains("did you mean"));
}

#[test]
fn a_megabyte_of_a_repeated_valid_fragment_is_an_error_of_its_form() {
    // A tag repeated: letters after the blocks, each letter twice.
    let (_, expected) = parse_problem(&repeated("", "nChw16c", MEGABYTE));
    assert!(expected.contains("comes after the block"), "{expected}");
    // A chunk list that never ends: it reads, and breaks the rules.
    for text in [
        repeated("4:", " 0,0 1,0 2,0 3,0 1,8", MEGABYTE),
        repeated(
            "ChunkedMemoryLayout<4",
            ", 0,0, 1,0, 2,0, 3,0, 1,8",
            MEGABYTE,
        ) + ">",
    ] {
        match DynLayout::parse(&text) {
            Err(LayoutError::InvalidLayout { reason, .. }) => {
                assert!(reason.contains("a second (0, 0) entry"), "{reason:.200}")
            }
            other => panic!("{:?}", other.map(|l| l.to_string())),
        }
    }
    // A short form whose last entry is cut: a parse error at the end.
    let cut = repeated("4:", " 0,0 1,0 2,0 3,0 1,8", MEGABYTE) + " 1";
    let (position, expected) = parse_problem(&cut);
    assert_eq!(position, cut.len());
    assert_eq!(
        expected,
        "expected `,` and the size of the entry, found the end"
    );
}

mod dyn_tensors {
    use tensor_layout::prelude::*;
    use tensor_layout::{DynLayout, DynTensor, LayoutError};

    #[test]
    fn converts_to_the_typed_layout_it_equals_and_names_both_otherwise() {
        let data: Vec<u16> = (0..2 * 16 * 3 * 3).collect();
        let t =
            DynTensor::from_row_major(DynLayout::parse("nChw16c").unwrap(), &[2, 16, 3, 3], &data)
                .unwrap();
        let typed = t.clone().into_typed::<onednn::nChw16c>().unwrap();
        assert_eq!(typed.to_row_major(), data);
        assert_eq!(typed.as_raw(), t.as_raw());
        match t
            .clone()
            .into_typed::<onednn::nChw8c>()
            .map_err(|e| e.error)
        {
            Err(LayoutError::Mismatch { expected, found }) => {
                assert_eq!(
                    expected,
                    "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,8>"
                );
                assert_eq!(found, "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,16>");
            }
            other => panic!("{other:?}"),
        }
        // The same chunk list with positional axes, or with other names, is another layout;
        // the tensor comes back whole.
        let failed = t
            .clone()
            .into_typed::<onednn_layout!("aBcd16b")>()
            .unwrap_err();
        assert!(matches!(failed.error, LayoutError::Mismatch { .. }));
        assert_eq!(failed.tensor.as_raw(), t.as_raw());
        let failed = failed
            .tensor
            .into_typed::<chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,16]>()
            .unwrap_err();
        assert_eq!(failed.tensor.to_row_major(), data);
        assert_eq!(
            t.into_typed::<onednn::ncdhw>().unwrap_err().error,
            LayoutError::Rank {
                expected: 5,
                found: 4
            }
        );
    }

    #[test]
    fn typed_tensors_forget_their_type_and_come_back() {
        let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| {
            (h + w + c) as u8
        });
        let expected = t.to_row_major();
        let d = DynTensor::from(t);
        assert_eq!(d.to_row_major(), expected);
        let back = d.into_typed::<htp::R4CroutonLayout>().unwrap();
        assert_eq!(back.to_row_major(), expected);
    }

    #[test]
    fn construction_errors() {
        let layout = DynLayout::parse("nchw").unwrap();
        assert_eq!(
            DynTensor::<u8>::zeros(layout.clone(), &[1, 2]).unwrap_err(),
            LayoutError::Rank {
                expected: 4,
                found: 2
            }
        );
        assert_eq!(
            DynTensor::from_row_major(layout.clone(), &[1, 1, 2, 2], &[1u8, 2, 3]).unwrap_err(),
            LayoutError::Length {
                expected: 4,
                found: 3
            }
        );
        assert!(matches!(
            DynTensor::<u8>::zeros(layout, &[usize::MAX, 2, 1, 1]),
            Err(LayoutError::Overflow { .. })
        ));
    }
}
