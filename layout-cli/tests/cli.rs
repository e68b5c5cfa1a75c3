//! The `layout` command run as a process: every subcommand, and bad input answered with one
//! line on stderr and exit code 2.

mod common;

use common::{fails, fails_with, layout, ok};

#[test]
fn list_shows_every_catalog_layout() {
    let out = ok(&["list"]);
    assert!(out.contains("htp::R4CroutonLayout        NHWC   [n, h, w, c]"));
    assert!(out.contains("htp::R4ConvWeightLayout     HWIO   [filter height"));
    assert!(out.contains("onednn::gOIhw16i16o         GOIHW  [g, o, i, h, w]"));
    assert!(out.contains("onednn::gOIhw16i16o"));
    assert!(out.contains("megengine::CHWN4"));
    assert!(out.contains("sophgo::Continuous"));
    // Then Sophgo's local-memory layouts, which need a chip.
    assert!(out.contains(
        "sophgo::EuAligned           NCHW   [n, c, h, w]  local memory, C stride rounded up"
    ));
    assert!(out.contains("sophgo::Matrix              ab     [rows, columns]"));
    let catalog = tensor_layout::registry::all();
    let local = tensor_layout::sophgo::LocalKind::ALL;
    assert_eq!(out.lines().count(), catalog.len() + local.len());
    assert_eq!(out.matches("(--chip)").count(), local.len());
}

#[test]
fn explain_reports_dims_padding_entries_and_onednn() {
    let out = ok(&["explain", "R4CroutonLayout", "1x3x5x30", "--type", "u8"]);
    for expected in [
        "layout         ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>",
        "padded dims    1x8x8x32",
        "chunk          8 of H x 8 of W x 32 of C: 2048 elements",
        "entries        (dim,size)  axis  extent  stride",
        "               (1,8)       H          8     256",
        "               (3,32)      C         32       1",
        "storage        2048 elements, 2048 bytes (1-byte elements)",
        "padding        1598 slots, 355.1% over the logical size",
        "inner_blks [8, 8, 32], inner_idxs [1, 2, 3]",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    // Every spelling of one layout explains the same.
    let by_tag = ok(&["explain", "nChw8c", "2x17x3x5"]);
    let by_long = ok(&[
        "explain",
        "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,8>",
        "2x17x3x5",
    ]);
    let by_short = ok(&["explain", "NCHW: 0,0 1,0 2,0 3,0 1,8", "2x17x3x5"]);
    assert_eq!(by_tag, by_long);
    assert_eq!(by_tag, by_short);
    assert!(by_tag.contains("strides [360, 120, 40, 8]")); // oneDNN's C = 17 example
    // A positional spelling is the same chunk list without axis names.
    let positional = ok(&["explain", "4: 0,0 1,0 2,0 3,0 1,8", "2x17x3x5"]);
    assert!(positional.contains("axes           abcd (positional: the layout names no axes)"));
    assert!(positional.contains("chunk          8 of b: 8 elements"));
    assert_eq!(
        positional.lines().skip(2).count(),
        by_tag.lines().skip(2).count()
    );
    assert!(positional.contains("strides [360, 120, 40, 8]"));
}

#[test]
fn explain_shows_the_axis_word_of_each_system() {
    for (layout, dims, axes) in [
        (
            "R4CroutonLayout",
            "1x3x5x30",
            "NHWC (batch, height, width, channels)",
        ),
        (
            "htp::R4ConvWeightLayout",
            "3x3x40x50",
            "HWIO (height, width, input channels, output channels)",
        ),
        (
            "nChw16c",
            "1x3x5x30",
            "NCHW (batch, channels, height, width)",
        ),
        (
            "hwio",
            "1x3x5x30",
            "OIHW (output channels, input channels, height, width)",
        ),
        (
            "megengine::NCHW4",
            "1x3x5x30",
            "NCHW (batch, channels, height, width)",
        ),
        (
            "sophgo::ContinuousWeights",
            "1x3x5x30",
            "IOHW (input channels, output channels, height, width)",
        ),
        (
            "aBcd16b",
            "1x3x5x30",
            "abcd (positional: the layout names no axes)",
        ),
    ] {
        let out = ok(&["explain", layout, dims]);
        let line = out.lines().nth(1).unwrap();
        assert_eq!(line, format!("axes           {axes}"), "{layout}");
    }
    let out = ok(&["explain", "R4CroutonLayout", "1x3x5x30"]);
    assert!(out.starts_with(
        "layout         ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>\n\
         axes           NHWC (batch, height, width, channels)\n\
         positional tag aBCD8b8c32d\n\
         logical dims   1x3x5x30  (450 elements)\n"
    ));
}

#[test]
fn order_lists_htps_example_chunk_by_chunk() {
    let out = ok(&[
        "order",
        "htp::R4CroutonLayout",
        "2x16x24x64",
        "--max-lines",
        "1000",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2 * 2 * 3 * 2); // n, height blocks, width blocks, depth blocks
    assert_eq!(lines[0], "(0,0,0,0) ... (0,7,7,31)  > end of chunk");
    assert_eq!(lines[1], "(0,0,0,32) ... (0,7,7,63)  > end of chunk");
    assert_eq!(lines[2], "(0,0,8,0) ... (0,7,15,31)  > end of chunk");
    assert_eq!(lines[6], "(0,8,0,0) ... (0,15,7,31)  > end of chunk");
    assert_eq!(lines[12], "(1,0,0,0) ... (1,7,7,31)  > end of chunk");
    assert_eq!(lines[23], "(1,8,16,32) ... (1,15,23,63)  > end of chunk");
    let real = ok(&["order", "R4CroutonLayout", "2x9x20x50", "--max-lines", "2"]);
    assert!(real.starts_with("(0,0,0,0) ... (0,7,7,31)  > end of chunk\n(0,0,0,32) ... (0,0,0,49)  pad (0,0,0,50) ... (0,0,0,63) [14 slots]\n... "));
}

/// `order --offsets` follows every index it prints with the offset that holds it: the
/// layout's offset of a logical index, and for padding the slot whose padded coordinates it is.
#[test]
fn order_with_offsets_puts_each_index_beside_its_slot() {
    use tensor_layout::DynLayout;
    for (layout, dims, max_lines) in [
        ("nChw4c", "1x6x1x2", "200"),
        ("R4CroutonLayout", "1x3x5x30", "200"),
        ("R4CroutonLayout", "2x9x20x50", "40"),
        ("OIhw4i16o4i", "20x6x1x1", "200"),
        ("nchw", "1x2x2x3", "200"),
    ] {
        let plain = ok(&["order", layout, dims, "--max-lines", max_lines]);
        let listed = ok(&["order", layout, dims, "--max-lines", max_lines, "--offsets"]);
        let dims: Vec<usize> = dims.split('x').map(|d| d.parse().unwrap()).collect();
        let m = DynLayout::parse(layout).unwrap().bind(&dims).unwrap();
        let mut pairs = 0;
        for piece in listed.split('(').skip(1) {
            let (index, rest) = piece.split_once(")@").unwrap();
            let offset: usize = rest
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let index: Vec<usize> = index.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(
                m.padded_index_of(offset),
                Some(index.clone()),
                "{layout}: @{offset}"
            );
            pairs += 1;
        }
        assert_eq!(
            pairs,
            plain.matches('(').count(),
            "{layout}: every index has its offset"
        );
        // Without the offsets, the same listing.
        let mut stripped = String::new();
        let mut digits = false;
        for c in listed.chars() {
            match c {
                '@' => digits = true,
                '0'..='9' if digits => {}
                _ => {
                    digits = false;
                    stripped.push(c);
                }
            }
        }
        assert_eq!(stripped, plain, "{layout}");
    }
    let out = ok(&["order", "nChw4c", "1x6x1x2", "--offsets"]);
    assert_eq!(
        out.lines().nth(2),
        Some("(0,4,0,0)@8, (0,5,0,0)@9  pad (0,6,0,0)@10, (0,7,0,0)@11  > end of chunk")
    );
}

#[test]
fn where_and_at_are_inverse() {
    assert_eq!(
        ok(&["where", "R4CroutonLayout", "2x9x20x50", "1,8,17,40"]),
        "(N=1, H=8, W=17, C=40) -> offset 47144 (chunk 23, position 40 in it)\n"
    );
    assert_eq!(
        ok(&["at", "R4CroutonLayout", "2x9x20x50", "47144"]),
        "offset 47144 -> (N=1, H=8, W=17, C=40)\n"
    );
    assert_eq!(
        ok(&["at", "R4CroutonLayout", "1x3x5x30", "31"]),
        "offset 31 -> padding (padded coordinates (N=0, H=0, W=0, C=31))\n"
    );
    assert_eq!(
        ok(&["at", "aBcd16b", "1x3x5x30", "17"]),
        "offset 17 -> (a=0, b=1, c=0, d=1)\n"
    );
}

#[test]
fn where_reads_an_index_by_axis_name() {
    let plain = ok(&["where", "R4CroutonLayout", "2x9x20x50", "1,8,17,40"]);
    // What `at` prints reads back, and the names may come in any order, in either case.
    for named in [
        "(N=1, H=8, W=17, C=40)",
        "N=1,H=8,W=17,C=40",
        "C=40,W=17,H=8,N=1",
        "c=40,w=17,h=8,n=1",
    ] {
        assert_eq!(
            ok(&["where", "R4CroutonLayout", "2x9x20x50", named]),
            plain,
            "{named}"
        );
    }
    // oneDNN's NCHW: 1x2x(64x9x20) + 2x(16x9x20) + 8x(20x16) + 17x16 + 40 % 16.
    assert_eq!(
        ok(&["where", "nChw16c", "2x50x9x20", "H=8,W=17,C=40,N=1"]),
        "(N=1, C=40, H=8, W=17) -> offset 20120 (chunk 1257, position 8 in it)\n"
    );
}

#[test]
fn diff_says_whether_layouts_agree_and_what_a_relayout_does() {
    assert!(
        ok(&["diff", "nChw16c", "aBcd16b", "2x16x3x3"]).contains("same function on these dims")
    );
    assert!(ok(&["diff", "nChw8c", "nChw16c", "1x16x1x1"]).contains("same function on these dims"));
    let blocks = ok(&["diff", "nChw8c", "nChw16c", "2x16x3x3"]);
    assert!(blocks.contains("by name: the same axes NCHW in the same order"));
    assert!(blocks.contains("  C: blocked by 8 in A, by 16 in B"));
    assert!(
        blocks.contains("C stays innermost on both sides: contiguous copies of up to 8 elements")
    );
    assert!(
        ok(&["diff", "nchw", "nhwc", "2x16x3x3"])
            .contains("transposes the innermost axes (A: W, B: C)")
    );
    // A positional layout is compared position by position.
    assert!(
        ok(&["diff", "nChw16c", "aBcd16b", "2x16x3x3"])
            .contains("by position: B names no axes (abcd); they are taken as NCHW, in order")
    );
}

#[test]
fn diff_across_systems_matches_axes_by_name() {
    // Qualcomm HTP's croutons (NHWC) against oneDNN's nChw32c (NCHW): B's dims are A's by name.
    let out = ok(&["diff", "R4CroutonLayout", "nChw32c", "1x5x6x40"]);
    assert_eq!(
        out,
        "A  ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>\n\
         B  ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,32>\n\
         dims: A NHWC 1x5x6x40, padded 1x8x8x64 (4096 slots)\n      \
         B NCHW 1x40x5x6, padded 1x64x5x6 (1920 slots)\n\
         by name: B's dims are A's in B's axis order (NHWC -> NCHW)\n  \
         e.g. the last element: A (N=0, H=4, W=5, C=39) at offset 3239 -> B (N=0, C=39, H=4, W=5) at offset 1895\n\
         different functions on these dims\n  \
         H: blocked by 8 in A, not in B\n  \
         W: blocked by 8 in A, not in B\n  \
         relayout: C stays innermost on both sides: contiguous copies of up to 32 elements\n"
    );
    // HTP's plain NHWC is oneDNN's nhwc: the same function once the axes match by name.
    let flat = ok(&["diff", "htp::R4FlatMemoryLayout", "nhwc", "1x5x6x40"]);
    assert!(flat.contains("B NCHW 1x40x5x6, padded 1x40x5x6 (1200 slots)"));
    assert!(flat.contains("same function on these dims"));
    // MegEngine's NCHW4 against oneDNN's nChw4c: the same layout under two names.
    assert!(ok(&["diff", "NCHW4", "nChw4c", "2x6x3x3"]).contains("same function on these dims"));
    // Weights: HTP's HWIO against oneDNN's OIHW.
    let weights = ok(&["diff", "R4ConvWeightLayout", "OIhw16i16o", "3x3x40x50"]);
    assert!(weights.contains("B OIHW 50x40x3x3, padded 64x48x3x3 (27648 slots)"));
    assert!(weights.contains("  I: blocked by 32 in A, by 16 in B"));
}

#[test]
fn diff_of_layouts_with_other_axis_names_fails_naming_both() {
    for (args, expected) in [
        (
            ["diff", "R4CroutonLayout", "oihw", "1x5x6x40"],
            "layout: R4CroutonLayout has axes NHWC but oihw has axes OIHW: elements move by axis name, and these are not the same names\n",
        ),
        (
            ["diff", "sophgo::ContinuousWeights", "nchw", "1x2x3x4"],
            "layout: sophgo::ContinuousWeights has axes IOHW but nchw has axes NCHW: elements move by axis name, and these are not the same names\n",
        ),
    ] {
        assert_eq!(fails(&args), expected);
    }
}

#[test]
fn draw_writes_svg_and_a_png_that_decodes() {
    let dir = std::env::temp_dir().join(format!("layout-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("nChw4c.svg");
    ok(&[
        "draw",
        "nChw4c",
        "1x6x2x3",
        "-o",
        svg.to_str().unwrap(),
        "--color-by",
        "1",
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("url(#hatch)") && text.contains(">0,5,1,2<"));
    // The caption names the axes and the one that colours the cells.
    assert!(text.contains(">index (N,C,H,W)  colour: C<"), "{text}");
    // The axis by letter draws the same picture.
    let by_letter = dir.join("nChw4c-by-letter.svg");
    ok(&[
        "draw",
        "nChw4c",
        "1x6x2x3",
        "-o",
        by_letter.to_str().unwrap(),
        "--color-by",
        "C",
    ]);
    assert_eq!(std::fs::read_to_string(&by_letter).unwrap(), text);
    assert_eq!(text.matches("url(#hatch)\"").count(), 8 * 2 * 3 - 6 * 2 * 3); // channels 6 and 7 are padding
    let png = dir.join("nChw4c.png");
    ok(&["draw", "nChw4c", "1x6x2x3", "-o", png.to_str().unwrap()]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (width, height) = (
        u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
        u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
    );
    assert_eq!((width, height), (24 * 28 + 2, 14 + 2 * 28 + 2)); // a caption, then rows of 24 cells (c4 x w3 x h2), 2 rows
    // It decodes, and the first cell is not the white background.
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a valid PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (width, height));
    let cell = pixmap.pixel(10, 20).unwrap();
    assert!((cell.red(), cell.green(), cell.blue()) != (255, 255, 255));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["explain", "NoSuchLayout", "1x2x3x4"],
            "cannot read layout \"NoSuchLayout\": at character 0, expected a catalog name (such as R4CroutonLayout or megengine::NCHW4) or a oneDNN tag, found `NoSuchLayout`; did you mean",
        ),
        (
            &["explain", "nchw", "1x2x3"],
            "dims 1x2x3 have 3 coordinates but ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0> has rank 4",
        ),
        (
            &["explain", "nchw", "1x2xthreex4"],
            "dims \"1x2xthreex4\": at character 4, expected a whole number (as in 1x3x5x30), found \"three\"",
        ),
        (
            &["explain", "nChx8c", "1x2x3x4"],
            "at character 3, unknown dimension letter 'x'",
        ),
        (
            &["explain", "nchw", "1x2x3x4", "--type", "f128"],
            "unknown element type \"f128\"",
        ),
        (
            &["where", "nchw", "1x2x3x4", "0,2,0,0"],
            "index [0, 2, 0, 0] is out of bounds for dims [1, 2, 3, 4]",
        ),
        (
            &["where", "nchw", "1x2x3x4", "0,1,0"],
            "index [0, 1, 0]: expected 4 coordinates (the layout's rank), found 3",
        ),
        (
            &["where", "nchw", "1x2x3x4", "N=0,C=1,H=0"],
            "index \"N=0,C=1,H=0\" names no coordinate for W: the layout's axes are NCHW",
        ),
        (
            &["where", "nchw", "1x2x3x4", "N=0,C=1,H=0,X=0"],
            "\"X\" is not an axis of this layout: its axes are NCHW",
        ),
        (
            &["where", "nchw", "1x2x3x4", "N=0,C=1,H=0,C=0"],
            "axis C is given twice",
        ),
        (
            &["at", "nchw", "1x2x3x4", "24"],
            "offset 24 is past the end: the storage has 24 slots (0 to 23)",
        ),
        (
            &["diff", "nchw", "ncdhw", "1x2x3x4"],
            "nchw has rank 4 but ncdhw has rank 5 (axes NCHW and NCDHW)",
        ),
        (
            &["diff", "R4CroutonLayout", "hwio", "1x2x3x4"],
            "R4CroutonLayout has axes NHWC but hwio has axes OIHW",
        ),
        (
            &["draw", "R4CroutonLayout", "2x9x20x50", "-o", "/tmp/x.svg"],
            "a drawing shows at most 16384",
        ),
        (
            &["explain", "nChw16q", "1x2x3x4"],
            "cannot read layout \"nChw16q\": at character 6, unknown dimension letter 'q': expected one of n, c, d, h, w",
        ),
        (
            &["explain", "nChw0c", "1x2x3x4"],
            "cannot read layout \"nChw0c\": at character 4, expected a positive block size, found 0",
        ),
        (
            &["explain", "nChw99999999999999999999c", "1x2x3x4"],
            "at character 4, expected a block size of at most",
        ),
        (
            &["explain", "", "1x2x3x4"],
            "cannot read layout \"\": at character 0, expected `ChunkedMemoryLayout<...>`, `RANK: dim,size ...`, `NHWC: dim,size ...`, a oneDNN tag or a catalog name, found the end",
        ),
        (
            &["explain", "R4CrotonLayout", "1x2x3x4"],
            "at character 0, expected a catalog name (such as R4CroutonLayout or megengine::NCHW4) or a oneDNN tag, found `R4CrotonLayout`; did you mean htp::R4CroutonLayout,",
        ),
        (
            &["explain", "megengine::NCHW33", "1x2x3x4"],
            "at character 11, expected the name of a megengine layout (`layout list` shows them), found `NCHW33`; did you mean megengine::NCHW32,",
        ),
        (
            &["draw", "nchw", "1x2x3x4", "-o", "/tmp/picture.jpg"],
            "-o /tmp/picture.jpg: expected a file name ending in .svg or .png, found .jpg",
        ),
        (
            &["draw", "nchw", "1x2x3x4", "-o", "/tmp/picture"],
            "-o /tmp/picture: expected a file name ending in .svg or .png, found no extension",
        ),
        (
            &["explain", "2: 0,0", "1x2"],
            "invalid layout ChunkedMemoryLayout<2, 0,0>: dimension 1 has no (1, 0) entry",
        ),
        (
            &["explain", "nchw", "99999999999x99999999999x99999999999x9"],
            "overflows usize",
        ),
    ];
    for (args, expected) in cases {
        fails_with(args, expected);
    }
    // --color-by names an axis by number or by letter.
    for (axis, expected) in [
        (
            "4",
            "--color-by 4 is out of range: the layout has axes 0 to 3 (NCHW)",
        ),
        (
            "D",
            "--color-by \"D\" is not an axis of this layout: its axes are NCHW",
        ),
    ] {
        let args = [
            "draw",
            "nchw",
            "1x2x3x4",
            "-o",
            "/tmp/x.svg",
            "--color-by",
            axis,
        ];
        fails_with(&args, expected);
    }
    // Usage errors come from clap, also with exit code 2.
    let usage = layout(&["explain"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn every_subcommand_documents_its_arguments_with_an_example() {
    // The element type and the options of Sophgo local memory, which explain and draw take.
    let element_and_place = [
        "--type",
        "--chip",
        "--address",
        "--mode",
        "--strides",
        "--width",
    ];
    for (command, arguments) in [
        (
            "explain",
            [&["<LAYOUT>", "<DIMS>"][..], &element_and_place].concat(),
        ),
        (
            "order",
            vec!["<LAYOUT>", "<DIMS>", "--max-lines", "--offsets"],
        ),
        ("where", vec!["<LAYOUT>", "<DIMS>", "<INDEX>"]),
        ("at", vec!["<LAYOUT>", "<DIMS>", "<OFFSET>"]),
        ("diff", vec!["<A>", "<B>", "<DIMS>"]),
        (
            "draw",
            [
                &["<LAYOUT>", "<DIMS>", "--output", "--color-by"][..],
                &element_and_place,
            ]
            .concat(),
        ),
        ("list", vec![]),
    ] {
        let help = ok(&[command, "--help"]);
        for argument in arguments {
            assert!(
                help.contains(argument),
                "{command} --help: {argument}\n{help}"
            );
        }
        // The examples run as printed.
        let examples: Vec<&str> = help
            .lines()
            .skip_while(|l| !l.starts_with("Example"))
            .skip(1)
            .map(str::trim)
            .filter(|l| l.starts_with("layout "))
            .collect();
        assert!(
            !examples.is_empty(),
            "{command} --help has no example\n{help}"
        );
        let dir = std::env::temp_dir().join(format!("layout-cli-help-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for example in examples {
            let words = shell_words(example);
            let words: Vec<String> = words
                .into_iter()
                .map(|w| {
                    if w.ends_with(".svg") || w.ends_with(".png") {
                        dir.join(&w).display().to_string()
                    } else {
                        w
                    }
                })
                .collect();
            let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            ok(&args);
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Splits a command line at spaces outside double quotes (`""` is one empty word).
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut started) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[test]
fn docs_cli_md_shows_real_runs_and_the_pictures_draw_writes() {
    assert!(real_runs("docs/cli.md") > 20);
}

/// The crate's README (crates.io's page of the command) quotes real runs too.
#[test]
fn the_readme_shows_real_runs() {
    assert_eq!(real_runs("layout-cli/README.md"), 2);
}

/// Runs every ```text block of `path` (from the workspace root) that starts with `$ layout`
/// and checks that it prints what the block shows, and that each picture it writes under
/// `docs/images/` is the committed one; returns how many blocks it ran.
fn real_runs(path: &str) -> usize {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let doc = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "layout-cli-docs-{}-{}",
        std::process::id(),
        path.replace('/', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut blocks = 0;
    for block in doc.split("```text\n$ ").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let (command, shown) = block.split_once('\n').unwrap();
        let mut words = shell_words(command);
        // Pictures go to a scratch directory, then compare with the committed ones.
        let mut picture = None;
        for word in &mut words {
            if let Some(name) = word.strip_prefix("docs/images/") {
                picture = Some((name.to_string(), word.clone()));
                *word = dir.join(name).display().to_string();
            }
        }
        let out = layout(&words[1..].iter().map(String::as_str).collect::<Vec<_>>());
        let mut text = String::from_utf8_lossy(&out.stdout).to_string();
        text += &String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            text += &format!("(exit code {})\n", out.status.code().unwrap());
        }
        if let Some((name, shown_path)) = &picture {
            text = text.replace(&dir.join(name).display().to_string(), shown_path);
            let committed = std::fs::read(format!("{root}/{shown_path}")).unwrap();
            assert!(
                std::fs::read(dir.join(name)).unwrap() == committed,
                "{shown_path} is not what `{command}` draws"
            );
        }
        assert_eq!(text, shown, "{path}: `{command}` prints otherwise");
        blocks += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    blocks
}
