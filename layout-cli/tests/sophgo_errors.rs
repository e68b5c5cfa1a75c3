//! Bad chips, addresses and options for Sophgo local-memory layouts: one line on stderr with
//! the library's message, exit code 2.

mod common;

use common::{fails_with, field, ok};

#[test]
fn bad_chips_addresses_and_options_are_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "explain",
                "sophgo::EuAligned",
                "1x2x3x4",
                "--chip",
                "BM1690",
            ],
            "unknown Sophgo chip `BM1690`: expected BM1684, BM1684X, BM1688 or ExampleChip",
        ),
        (
            &["explain", "sophgo::EuAligned", "1x2x3x4"],
            "sophgo::EuAligned lives in the local memory of a chip: give --chip BM1684, BM1684X, BM1688 or ExampleChip",
        ),
        (
            &[
                "explain",
                "sophgo::EuAligned",
                "1x2x3x4",
                "--chip",
                "BM1684",
                "--address",
                "100",
            ],
            "local-memory address 100 is not a multiple of 128 bytes, as the layout demands",
        ),
        (
            &[
                "draw",
                "sophgo::Compact",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--address",
                "4096",
                "-o",
                "/tmp/x.svg",
            ],
            "local-memory address 4096 is out of range: the memory has 4096 bytes",
        ),
        (
            &[
                "explain",
                "sophgo::EuAligned",
                "1x2x30x40",
                "--chip",
                "ExampleChip",
            ],
            "the tensor needs 4800 bytes on NPU 0 from its start offset, but only 1024 bytes are left there",
        ),
        (
            &[
                "explain",
                "sophgo::Aligned",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
            ],
            "unknown Sophgo local layout `sophgo::Aligned`: expected Compact, EuAligned, LineAligned, FreeStrides or Matrix",
        ),
        (
            &["explain", "nchw", "1x2x3x4", "--chip", "ExampleChip"],
            "--chip, --address, --mode, --strides and --width place a Sophgo local-memory layout, and nchw is not one",
        ),
        (
            &[
                "draw",
                "nchw",
                "1x2x3x4",
                "--type",
                "i8",
                "-o",
                "/tmp/x.svg",
            ],
            "--type sets the bytes of a Sophgo local-memory layout's cells",
        ),
        (
            &[
                "explain",
                "sophgo::FreeStrides",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
            ],
            "sophgo::FreeStrides needs --strides N,C,H,W",
        ),
        (
            &[
                "explain",
                "sophgo::FreeStrides",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--strides",
                "1,2,3",
            ],
            "--strides 1,2,3: expected 4 strides N,C,H,W, found 3",
        ),
        (
            &[
                "explain",
                "sophgo::FreeStrides",
                "2x1x1x2",
                "--chip",
                "ExampleChip",
                "--strides",
                "1,4,4,1",
            ],
            "let two elements of dims [2, 1, 1, 2] share a slot",
        ),
        (
            &[
                "explain",
                "sophgo::Compact",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--width",
                "3",
            ],
            "only a matrix takes a channel width",
        ),
        (
            &[
                "explain",
                "sophgo::Matrix",
                "2x40",
                "--chip",
                "ExampleChip",
                "--width",
                "41",
            ],
            "the width must lie in 1..=40 for 40 columns, found 41",
        ),
        (
            &[
                "explain",
                "sophgo::Matrix",
                "2x40x1",
                "--chip",
                "ExampleChip",
                "--width",
                "4",
            ],
            "dims 2x40x1 have 3 coordinates but Matrix<ExampleChip>(width 4) at address 0, 4-byte elements has rank 2",
        ),
        (
            &[
                "explain",
                "sophgo::Compact",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--address",
                "two",
            ],
            "--address \"two\": expected a byte address such as 2048 or 0x800",
        ),
        (
            &[
                "draw",
                "sophgo::Compact",
                "1x64x56x56",
                "--chip",
                "BM1684X",
                "-o",
                "/tmp/x.svg",
            ],
            "a drawing shows at most 16384",
        ),
        (
            &[
                "draw",
                "sophgo::Compact",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--color-by",
                "Q",
                "-o",
                "/tmp/x.svg",
            ],
            "--color-by \"Q\" is not an axis of this layout: its axes are NCHW",
        ),
    ];
    for (args, expected) in cases {
        fails_with(args, expected);
    }
    // A storage mode that does not hold the elements, and one that does not exist.
    for (mode, expected) in [
        (
            "4N",
            "storage mode 4N (int8 or uint8) holds 1-byte elements, found 4-byte elements",
        ),
        ("8N", "unknown Sophgo storage mode `8N`"),
    ] {
        let args = [
            "explain",
            "sophgo::EuAligned",
            "4x2x3x4",
            "--chip",
            "ExampleChip",
            "--mode",
            mode,
        ];
        fails_with(&args, expected);
    }
    // A hexadecimal address reads as the decimal one.
    let start_at = |address| {
        let args = [
            "explain",
            "Compact",
            "1x2x3x4",
            "--chip",
            "ExampleChip",
            "--address",
            address,
        ];
        field(&ok(&args), "start").to_string()
    };
    assert_eq!(start_at("0x800"), start_at("2048"));
}
