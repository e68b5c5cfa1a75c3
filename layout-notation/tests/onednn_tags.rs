//! Every tag of the oneDNN catalog, parsed into the chunk list its definition gives, and the
//! errors.

use layout_notation::{Entry, onednn_tag};

/// Pairs `d,s` written as in the catalog.
fn list(pairs: &[usize]) -> Vec<Entry> {
    pairs.chunks(2).map(|p| Entry::new(p[0], p[1])).collect()
}

#[test]
fn spec_tags_give_their_chunk_lists() {
    let table: &[(&str, usize, &[usize])] = &[
        ("nchw", 4, &[0, 0, 1, 0, 2, 0, 3, 0]),
        ("nhwc", 4, &[0, 0, 2, 0, 3, 0, 1, 0]),
        ("chwn", 4, &[1, 0, 2, 0, 3, 0, 0, 0]),
        ("nChw4c", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 4]),
        ("nChw8c", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 8]),
        ("nChw16c", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 16]),
        ("nChw32c", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 32]),
        ("NChw16n16c", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 0, 16, 1, 16]),
        ("ncdhw", 5, &[0, 0, 1, 0, 2, 0, 3, 0, 4, 0]),
        ("ndhwc", 5, &[0, 0, 2, 0, 3, 0, 4, 0, 1, 0]),
        ("nCdhw16c", 5, &[0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 1, 16]),
        ("oihw", 4, &[0, 0, 1, 0, 2, 0, 3, 0]),
        ("hwio", 4, &[2, 0, 3, 0, 1, 0, 0, 0]),
        ("ohwi", 4, &[0, 0, 2, 0, 3, 0, 1, 0]),
        ("iohw", 4, &[1, 0, 0, 0, 2, 0, 3, 0]),
        ("OIhw8i8o", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 0, 8]),
        ("OIhw16i16o", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 16, 0, 16]),
        ("OIhw16o16i", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 0, 16, 1, 16]),
        ("IOhw16o16i", 4, &[1, 0, 0, 0, 2, 0, 3, 0, 0, 16, 1, 16]),
        (
            "OIhw4i16o4i",
            4,
            &[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 0, 16, 1, 4],
        ),
        (
            "OIhw8i16o2i",
            4,
            &[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 0, 16, 1, 2],
        ),
        ("Ohwi16o", 4, &[0, 0, 2, 0, 3, 0, 1, 0, 0, 16]),
        ("goihw", 5, &[0, 0, 1, 0, 2, 0, 3, 0, 4, 0]),
        (
            "gOIhw16i16o",
            5,
            &[0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 2, 16, 1, 16],
        ),
        ("aBcd16b", 4, &[0, 0, 1, 0, 2, 0, 3, 0, 1, 16]),
        ("ab", 2, &[0, 0, 1, 0]),
        ("ba", 2, &[1, 0, 0, 0]),
        ("ncw", 3, &[0, 0, 1, 0, 2, 0]),
        (
            "abcdefgh",
            8,
            &[0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0],
        ),
        ("aBc48b", 3, &[0, 0, 1, 0, 2, 0, 1, 48]),
    ];
    for &(tag, rank, pairs) in table {
        let parsed = onednn_tag(tag).unwrap_or_else(|e| panic!("{tag}: {e:?}"));
        assert_eq!(parsed.rank, rank, "{tag}");
        assert_eq!(parsed.entries, list(pairs), "{tag}");
        // The positional spelling parses back to the same list, with positional axes.
        let positional = onednn_tag(&parsed.canonical()).unwrap();
        assert_eq!(positional.entries, parsed.entries, "{tag}");
        assert_eq!(positional.axes, None, "{tag}");
    }
}

#[test]
fn named_tags_name_their_axes_in_onednn_logical_order() {
    let table = [
        ("nchw", "NCHW"),
        ("nhwc", "NCHW"),
        ("chwn", "NCHW"),
        ("nChw16c", "NCHW"),
        ("ncw", "NCW"),
        ("nwc", "NCW"),
        ("ncdhw", "NCDHW"),
        ("ndhwc", "NCDHW"),
        ("oihw", "OIHW"),
        ("hwio", "OIHW"),
        ("oiw", "OIW"),
        ("OIdhw16i16o", "OIDHW"),
        ("goihw", "GOIHW"),
        ("gOIhw16i16o", "GOIHW"),
    ];
    for (tag, word) in table {
        assert_eq!(
            onednn_tag(tag).unwrap().axes.as_deref(),
            Some(word),
            "{tag}"
        );
    }
    for tag in ["abcd", "aBcd16b", "ba", "cdba"] {
        assert_eq!(onednn_tag(tag).unwrap().axes, None, "{tag}");
    }
}

#[test]
fn bad_tags_name_the_position_and_what_was_expected() {
    let cases: &[(&str, &[(usize, &str)])] = &[
        (
            "",
            &[(0, "the tag is empty: expected letters such as nchw")],
        ),
        (
            "nchx",
            &[(
                3,
                "unknown dimension letter 'x': expected one of n, c, d, h, w",
            )],
        ),
        (
            "abcz",
            &[(
                3,
                "unknown dimension letter 'z': expected a letter a to h, or a block size",
            )],
        ),
        (
            "nc-hw",
            &[(2, "unknown character '-': expected one of n, c, d, h, w")],
        ),
        (
            "nChw",
            &[(
                1,
                "dimension C is upper-case (blocked) but has no block such as 16c",
            )],
        ),
        (
            "nchw16c",
            &[(
                6,
                "block 16c is on dimension c, which is not upper-case: write C to block it",
            )],
        ),
        ("ncchw", &[(2, "dimension letter 'c' appears twice")]),
        // A block lost to a bad size or letter is the one problem: its dimension's missing block
        // follows from it.
        ("nChw0c", &[(4, "expected a positive block size, found 0")]),
        (
            "nChw16",
            &[(
                4,
                "expected the letter of the dimension a block size blocks after it, found the end",
            )],
        ),
        (
            "nChw16q",
            &[(
                6,
                "unknown dimension letter 'q': expected one of n, c, d, h, w",
            )],
        ),
        (
            "nChw99999999999999999999c",
            &[(
                4,
                "expected a block size of at most 18446744073709551615, found 99999999999999999999",
            )],
        ),
        (
            "nCh16cw",
            &[(
                6,
                "dimension letter 'w' comes after the block at 5: letters first, then blocks",
            )],
        ),
        ("nChw16C", &[(6, "block letters are lower-case: write c")]),
        (
            "acd",
            &[(
                0,
                "the tag has 3 dimensions but no letter 'b' for dimension 1",
            )],
        ),
        (
            "OIhw16i",
            &[(
                0,
                "dimension O is upper-case (blocked) but has no block such as 16o",
            )],
        ),
        (
            "nChw16h",
            &[
                (
                    1,
                    "dimension C is upper-case (blocked) but has no block such as 16c",
                ),
                (
                    6,
                    "block 16h is on dimension h, which is not upper-case: write H to block it",
                ),
            ],
        ),
    ];
    let mut failures = Vec::new();
    for &(tag, expected) in cases {
        let problems = onednn_tag(tag).expect_err(tag);
        let got: Vec<(usize, &str)> = problems
            .iter()
            .map(|p| (p.at, p.message.as_str()))
            .collect();
        if got != expected {
            failures.push(format!("{tag}: {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_spelling_reads_with_its_axis_word() {
    use layout_notation::{catalog_names, parse_layout};
    let long =
        parse_layout("ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>").unwrap();
    let short = parse_layout("NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32").unwrap();
    assert_eq!(long, short);
    assert_eq!(parse_layout("htp::R4CroutonLayout").unwrap(), long);
    assert_eq!(parse_layout(" R4CroutonLayout ").unwrap(), long);
    assert_eq!(long.axes.as_deref(), Some("NHWC"));
    // A positional word is the same as the rank.
    assert_eq!(
        parse_layout("abcd: 0,0 1,0 2,0 3,0").unwrap(),
        parse_layout("4: 0,0 1,0 2,0 3,0").unwrap()
    );
    let problems = parse_layout("NHWN: 0,0 1,0 2,0 3,0").unwrap_err();
    assert_eq!(
        (problems[0].at, problems[0].message.as_str()),
        (0, "`NHWN` is not an axis word: an axis name appears twice")
    );
    let problems = parse_layout("ChunkedMemoryLayout<NhWC, 0,0>").unwrap_err();
    assert_eq!(problems[0].at, 20);
    // Every catalog name reads, and its spelling says its rank by its word or tag.
    for entry in catalog_names() {
        let parsed = parse_layout(entry.spelling).unwrap();
        let qualified = format!("{}::{}", entry.module, entry.name);
        assert_eq!(parse_layout(&qualified).unwrap(), parsed, "{qualified}");
        assert!(parsed.axes.is_some(), "{qualified} names its axes");
    }
}
