//! The `layout` command run as a process: every subcommand, and bad input answered with one
//! line on stderr and exit code 2.

use std::process::{Command, Output};

fn layout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = layout(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a bad command: exit code 2, nothing on stdout, one line on stderr, no panic.
fn fails(args: &[&str]) -> String {
    let out = layout(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    stderr
}

#[test]
fn list_shows_every_catalog_layout() {
    let out = ok(&["list"]);
    assert!(out.contains("htp::R4CroutonLayout        [n, h, w, c]"));
    assert!(out.contains("onednn::gOIhw16i16o"));
    assert!(out.contains("megengine::CHWN4"));
    assert_eq!(out.lines().count(), 43);
}

#[test]
fn explain_reports_dims_padding_entries_and_onednn() {
    let out = ok(&["explain", "R4CroutonLayout", "1x3x5x30", "--type", "u8"]);
    for expected in [
        "layout         ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>",
        "padded dims    1x8x8x32",
        "chunk          8 of dim 1 x 8 of dim 2 x 32 of dim 3: 2048 elements",
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
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8>",
        "2x17x3x5",
    ]);
    let by_short = ok(&["explain", "4: 0,0 1,0 2,0 3,0 1,8", "2x17x3x5"]);
    assert_eq!(by_tag, by_long);
    assert_eq!(by_tag, by_short);
    assert!(by_tag.contains("strides [360, 120, 40, 8]")); // seed 004's C = 17 example
}

#[test]
fn order_lists_the_seed_example_chunk_by_chunk() {
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

#[test]
fn where_and_at_are_inverse() {
    assert_eq!(
        ok(&["where", "R4CroutonLayout", "2x9x20x50", "1,8,17,40"]),
        "(1,8,17,40) -> offset 47144 (chunk 23, position 40 in it)\n"
    );
    assert_eq!(
        ok(&["at", "R4CroutonLayout", "2x9x20x50", "47144"]),
        "offset 47144 -> (1,8,17,40)\n"
    );
    assert_eq!(
        ok(&["at", "R4CroutonLayout", "1x3x5x30", "31"]),
        "offset 31 -> padding (padded coordinates (0,0,0,31))\n"
    );
}

#[test]
fn diff_says_whether_layouts_agree_and_what_a_relayout_does() {
    assert!(
        ok(&["diff", "nChw16c", "aBcd16b", "2x16x3x3"]).contains("same function on these dims")
    );
    assert!(ok(&["diff", "nChw8c", "nChw16c", "1x16x1x1"]).contains("same function on these dims"));
    let blocks = ok(&["diff", "nChw8c", "nChw16c", "2x16x3x3"]);
    assert!(blocks.contains("dim 1: blocked by 8 in A, by 16 in B"));
    assert!(blocks.contains("contiguous copies of up to 8 elements"));
    assert!(
        ok(&["diff", "nchw", "nhwc", "2x16x3x3"])
            .contains("transposes the innermost dims (A: dim 3, B: dim 1)")
    );
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
    assert_eq!(text.matches("url(#hatch)\"").count(), 8 * 2 * 3 - 6 * 2 * 3); // channels 6 and 7 are padding
    let png = dir.join("nChw4c.png");
    ok(&["draw", "nChw4c", "1x6x2x3", "-o", png.to_str().unwrap()]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (width, height) = (
        u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
        u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
    );
    assert_eq!((width, height), (24 * 28 + 2, 2 * 28 + 2)); // rows of 24 cells (c4 x w3 x h2), 2 rows
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
            "\"NoSuchLayout\" is neither a catalog layout (`layout list` shows them) nor a layout spelling",
        ),
        (
            &["explain", "nchw", "1x2x3"],
            "dims 1x2x3 have 3 coordinates but ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0> has rank 4",
        ),
        (
            &["explain", "nchw", "1x2xthreex4"],
            "\"three\" is not a whole number",
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
            "index [0, 1, 0] has 3 coordinates but the layout has rank 4",
        ),
        (
            &["at", "nchw", "1x2x3x4", "24"],
            "offset 24 is past the end: the storage has 24 slots (0 to 23)",
        ),
        (
            &["diff", "nchw", "ncdhw", "1x2x3x4"],
            "has rank 4 but ncdhw has rank 5",
        ),
        (
            &[
                "draw",
                "nchw",
                "1x2x3x4",
                "-o",
                "/tmp/x.svg",
                "--color-by",
                "4",
            ],
            "--color-by 4 is out of range",
        ),
        (
            &["draw", "R4CroutonLayout", "2x9x20x50", "-o", "/tmp/x.svg"],
            "a drawing shows at most 16384",
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
        let stderr = fails(args);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("layout: ") && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
    }
    // Usage errors come from clap, also with exit code 2.
    let usage = layout(&["explain"]);
    assert_eq!(usage.status.code(), Some(2));
}
