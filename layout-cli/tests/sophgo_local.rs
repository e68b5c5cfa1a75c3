//! `layout explain` and `layout draw` on Sophgo local-memory layouts (`sophgo::EuAligned --chip
//! ExampleChip ...`): the numbers explain prints against the library's placement, the lanes draw
//! writes against the elements each NPU holds, and bad chips, addresses and options answered
//! with the library's message.

mod common;

use common::{fails, ok};
use tensor_layout::RowMajorIndices;
use tensor_layout::sophgo::{
    ChipName, Compact, DynLocalLayout, DynLocalMapping, EuAligned, ExampleChip, LocalKind,
    LocalMemory, StorageModeName, TwoN,
};

/// The value after `label` (padded to explain's 15 columns) on its line.
fn field<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{label:15}")))
        .unwrap_or_else(|| panic!("no {label:?} line in\n{out}"))
}

/// The rows of explain's per-NPU table, split at spaces: npu, slots, channels..., span,
/// element bytes, dummy bytes, padding bytes.
fn npu_rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .skip_while(|l| !l.starts_with("NPUs"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// What explain says about the NPUs against the library: for each NPU the bytes spanned, the
/// bytes of elements and dummies and the padding (reserved less both); the first and last
/// elements' NPU, byte and address.
fn assert_explain_agrees(args: &[&str], m: &DynLocalMapping) {
    let out = ok(args);
    let g = m.local_geometry();
    let e = m.layout().element_bytes;
    let reserved = g.reserved_bytes();
    let rows = npu_rows(&out);
    assert_eq!(rows.len(), m.layout().chip.npus(), "{out}");
    for (npu, row) in rows.iter().enumerate() {
        let n = row.len();
        assert_eq!(row[0], npu.to_string());
        let span = g
            .npu_span(npu)
            .map_or("-".to_string(), |s| format!("{}..{}", s.start, s.end));
        assert_eq!(row[n - 4], span, "NPU {npu}: {out}");
        let (elements, dummies) = (g.npu_element_count(npu) * e, g.npu_dummy_count(npu) * e);
        assert_eq!(row[n - 3], elements.to_string(), "NPU {npu}");
        assert_eq!(row[n - 2], dummies.to_string(), "NPU {npu}");
        assert_eq!(row[n - 1], (reserved - elements - dummies).to_string());
    }
    let dims = m.mapping().dims().to_vec();
    let last: Vec<usize> = dims.iter().map(|d| d - 1).collect();
    for (label, index) in [
        ("first element", vec![0; dims.len()]),
        ("last element", last),
    ] {
        let at = m.location(&index).unwrap();
        let address = m.address_of(&index).unwrap();
        let expected = format!("-> NPU {}, byte {} (address {address})", at.npu, at.offset);
        assert!(field(&out, label).ends_with(&expected), "{label}: {out}");
    }
    let strides = m.local_geometry().element_strides();
    let stride_rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("strides"))
        .skip(1)
        .take(4)
        .collect();
    for (d, row) in stride_rows.iter().enumerate() {
        let numbers: Vec<usize> = row
            .split_whitespace()
            .skip(1)
            .map_while(|w| w.parse().ok())
            .collect();
        let (elements, bytes) = (numbers[numbers.len() - 2], numbers[numbers.len() - 1]);
        assert_eq!((elements, bytes), (strides[d], strides[d] * e), "{row}");
    }
}

#[test]
fn explain_places_the_documented_aligned_tensor() {
    // The TPU-Kernel documentation: (2, 3, 4, 5) fp32, aligned, starting at NPU 2.
    let args = [
        "explain",
        "sophgo::EuAligned",
        "2x3x4x5",
        "--chip",
        "ExampleChip",
        "--address",
        "2048",
    ];
    let out = ok(&args);
    assert_eq!(
        field(&out, "layout"),
        "EuAligned<ExampleChip> at address 2048, 4-byte elements"
    );
    assert_eq!(
        field(&out, "start"),
        "address 2048 = NPU 2, byte 0 (a multiple of 128 bytes, the layout's alignment)"
    );
    assert!(field(&out, "channels").ends_with("; 2 slots per NPU"));
    // The documentation's strides: W 1, H 5, C ceil(20 / 32) * 32 = 32, N 32 * 2 = 64.
    assert!(out.contains("               N           64     256\n"));
    assert!(out.contains("               C           32     128  from one slot"));
    assert_eq!(
        field(&out, "last element"),
        "(N=1, C=2, H=3, W=4) -> NPU 0, byte 460 (address 460)"
    );
    // NPU 1 holds no channel; NPU 0 holds channel 2 in slot 1.
    let rows = npu_rows(&out);
    assert_eq!(rows[1][..3], ["1", "-", "-"]);
    assert_eq!(rows[0][..3], ["0", "1", "2"]);
    assert_eq!(rows[2][..3], ["2", "0", "0"]);

    // The same numbers from the typed placement.
    let typed = LocalMemory::<ExampleChip>::new()
        .place::<f32, _>(EuAligned::<ExampleChip>::new(2048, 4), [2, 3, 4, 5])
        .unwrap();
    assert_eq!(
        field(&out, "reserved"),
        format!(
            "{} bytes on each NPU from byte 0 (N x N stride), {} on the 4 NPUs",
            typed.reserved_bytes(),
            typed.reserved_bytes() * 4
        )
    );
    for (npu, row) in rows.iter().enumerate() {
        let span = typed
            .npu_span(npu)
            .map_or("-".to_string(), |s| format!("{}..{}", s.start, s.end));
        assert!(row.contains(&span), "NPU {npu}: {span} in {row:?}");
    }
    let m = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 2048, 4)
        .bind(&[2, 3, 4, 5])
        .unwrap();
    assert_explain_agrees(&args, &m);
}

#[test]
fn explain_agrees_with_the_library_for_every_layout() {
    let cases: Vec<(Vec<&str>, DynLocalMapping)> = vec![
        (
            vec!["sophgo::Compact", "2x6x2x3", "--address", "3072"],
            DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 3072, 4)
                .bind(&[2, 6, 2, 3])
                .unwrap(),
        ),
        (
            vec!["LineAligned", "1x5x3x5", "--type", "u16"],
            DynLocalLayout::new(LocalKind::LineAligned, ChipName::ExampleChip, 0, 2)
                .bind(&[1, 5, 3, 5])
                .unwrap(),
        ),
        (
            vec![
                "sophgo::EuAligned",
                "6x5x4x5",
                "--mode",
                "4N",
                "--type",
                "i8",
            ],
            DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 0, 1)
                .with_mode(StorageModeName::FourN)
                .bind(&[6, 5, 4, 5])
                .unwrap(),
        ),
        (
            vec![
                "sophgo::Compact",
                "3x5x4x5",
                "--mode",
                "2N",
                "--type",
                "i16",
            ],
            DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 2)
                .with_mode(StorageModeName::TwoN)
                .bind(&[3, 5, 4, 5])
                .unwrap(),
        ),
        (
            vec![
                "sophgo::Compact",
                "3x2x3x3",
                "--mode",
                "2IC",
                "--address",
                "1032",
            ],
            DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 1032, 4)
                .with_mode(StorageModeName::TwoIC)
                .bind(&[3, 2, 3, 3])
                .unwrap(),
        ),
        (
            vec![
                "sophgo::FreeStrides",
                "2x3x1x10",
                "--address",
                "1024",
                "--strides",
                "120,0,0,2",
            ],
            DynLocalLayout::new(LocalKind::FreeStrides, ChipName::ExampleChip, 1024, 4)
                .with_strides([120, 0, 0, 2])
                .bind(&[2, 3, 1, 10])
                .unwrap(),
        ),
        (
            vec!["sophgo::Matrix", "2x40", "--width", "6"],
            DynLocalLayout::new(LocalKind::Matrix, ChipName::ExampleChip, 0, 4)
                .with_width(6)
                .bind(&[2, 40])
                .unwrap(),
        ),
    ];
    for (options, m) in &cases {
        let mut args = vec!["explain"];
        args.extend(options);
        args.extend(["--chip", "ExampleChip"]);
        assert_explain_agrees(&args, m);
    }
    // A real chip: 32 NPU rows, channels wrapping around them.
    let bm1688 = DynLocalLayout::new(LocalKind::EuAligned, ChipName::BM1688, 16 * 3, 4)
        .bind(&[1, 70, 3, 3])
        .unwrap();
    let args = [
        "explain",
        "EuAligned",
        "1x70x3x3",
        "--chip",
        "bm1688",
        "--address",
        "48",
    ];
    assert_explain_agrees(&args, &bm1688);
    let rows = npu_rows(&ok(&args));
    assert_eq!(rows[0][..4], ["0", "0..3", "0,", "32,"]); // channels 0, 32, 64
    assert_eq!(rows[6][..3], ["6", "0..2", "6,"]); // channels 6, 38
}

#[test]
fn explain_of_a_storage_mode_counts_packed_elements_and_dummies() {
    let out = ok(&[
        "explain",
        "sophgo::Compact",
        "3x5x4x5",
        "--chip",
        "ExampleChip",
        "--mode",
        "2N",
        "--type",
        "u16",
    ]);
    assert_eq!(
        field(&out, "storage mode"),
        "2N: 2 consecutive N elements packed into one int16x2 (4 bytes); dims in int16x2 2x5x4x5, 1 dummies complete the last pack"
    );
    let typed = LocalMemory::<ExampleChip>::new()
        .place::<u16, _>(Compact::<ExampleChip, TwoN>::new(0, 2), [3, 5, 4, 5])
        .unwrap();
    let g = typed.local_geometry();
    // Packed strides (the documentation's), then in u16 elements, then in bytes.
    assert_eq!(g.strides(), [40, 20, 5, 1]);
    assert!(out.contains("strides        axis   int16x2  elements   bytes\n"));
    assert!(out.contains("               N           40        80     160\n"));
    // 1 dummy per (c, h, w): 5 x 4 x 5 = 100 dummies of 2 bytes.
    assert_eq!(
        field(&out, "elements"),
        "600 bytes hold the 300 elements, 200 bytes the 100 dummies"
    );
}

/// The SVG's lanes: for each `<g class="npu" data-npu="k">` group, the labels of its cells.
fn lanes(svg: &str) -> Vec<Vec<String>> {
    svg.split(r#"<g class="npu" data-npu=""#)
        .skip(1)
        .enumerate()
        .map(|(k, lane)| {
            assert!(lane.starts_with(&format!("{k}\"")), "lanes in NPU order");
            lane.split(r#"text-anchor="middle">"#)
                .skip(1)
                .map(|t| t[..t.find('<').unwrap()].to_string())
                .collect()
        })
        .collect()
}

fn draw(args: &[&str], name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("layout-cli-sophgo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let mut all = vec!["draw"];
    all.extend(args);
    all.extend(["-o", path.to_str().unwrap()]);
    ok(&all);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    svg
}

#[test]
fn draw_puts_each_element_in_the_lane_of_its_npu() {
    let svg = draw(
        &[
            "sophgo::EuAligned",
            "2x3x4x5",
            "--chip",
            "ExampleChip",
            "--address",
            "2048",
        ],
        "aligned.svg",
    );
    // Well-formed: resvg reads it.
    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).expect("valid SVG");
    assert!(svg.contains("EuAligned&lt;ExampleChip&gt; at address 2048"));
    let lanes = lanes(&svg);
    assert_eq!(lanes.len(), 4);
    let m = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 2048, 4)
        .bind(&[2, 3, 4, 5])
        .unwrap();
    let mut drawn = 0;
    for index in RowMajorIndices::new([2, 3, 4, 5]) {
        let label = index.map(|i| i.to_string()).join(",");
        let npu = m.location(&index).unwrap().npu;
        for (k, lane) in lanes.iter().enumerate() {
            let times = lane.iter().filter(|l| **l == label).count();
            assert_eq!(times, usize::from(k == npu), "{label} in lane {k}");
        }
        drawn += 1;
    }
    let labelled: usize = lanes.iter().map(Vec::len).sum();
    assert_eq!(labelled, drawn);
    // Lanes hold the 128 reserved slots each: 4 rows of 32; padding hatched.
    let cells = svg.matches(r#"width="28" height="28""#).count();
    assert_eq!(cells, 4 * 128);
    assert_eq!(svg.matches("url(#hatch)\"").count(), 4 * 128 - 120);
}

#[test]
fn draw_marks_dummies_and_counts_the_lanes_of_a_real_chip() {
    let svg = draw(
        &[
            "sophgo::Compact",
            "6x5x1x2",
            "--chip",
            "ExampleChip",
            "--mode",
            "4N",
            "--type",
            "i8",
            "--color-by",
            "N",
        ],
        "four-n.svg",
    );
    let m = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 0, 1)
        .with_mode(StorageModeName::FourN)
        .bind(&[6, 5, 1, 2])
        .unwrap();
    let g = m.local_geometry();
    for (npu, lane) in lanes(&svg).iter().enumerate() {
        let dummies = lane.iter().filter(|l| *l == "dummy").count();
        assert_eq!(dummies, g.npu_dummy_count(npu), "NPU {npu}");
        assert_eq!(lane.len() - dummies, g.npu_element_count(npu), "NPU {npu}");
    }
    assert!(svg.contains("colour: N<"));
    // BM1688 has 32 NPUs: 32 lanes, whatever the tensor holds.
    let svg = draw(
        &["sophgo::Compact", "1x3x2x2", "--chip", "BM1688"],
        "bm1688.svg",
    );
    assert_eq!(lanes(&svg).len(), 32);
    assert_eq!(lanes(&svg).iter().filter(|l| !l.is_empty()).count(), 3);
}

#[test]
fn draw_writes_a_png_of_the_lanes() {
    let dir = std::env::temp_dir().join(format!("layout-cli-sophgo-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("matrix.png");
    let out = ok(&[
        "draw",
        "sophgo::Matrix",
        "2x40",
        "--chip",
        "ExampleChip",
        "--width",
        "15",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.contains("(4 NPU lanes of 64 slots,"), "{out}");
    let bytes = std::fs::read(&png).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a valid PNG");
    // 64 + 32 cells of 28 + 2 wide; 26 of caption, then 4 lanes of 2 rows of 28 and a gap of 8.
    assert_eq!(
        (pixmap.width(), pixmap.height()),
        (64 + 32 * 28 + 2, 26 + 4 * (2 * 28 + 8))
    );
    std::fs::remove_dir_all(&dir).ok();
}

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
                "sophgo::EuAligned",
                "4x2x3x4",
                "--chip",
                "ExampleChip",
                "--mode",
                "4N",
            ],
            "storage mode 4N (int8 or uint8) holds 1-byte elements, found 4-byte elements",
        ),
        (
            &[
                "explain",
                "sophgo::EuAligned",
                "4x2x3x4",
                "--chip",
                "ExampleChip",
                "--mode",
                "8N",
            ],
            "unknown Sophgo storage mode `8N`",
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
        let stderr = fails(args);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("layout: ") && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
    }
    // A hexadecimal address reads as the decimal one.
    let hex = ok(&[
        "explain",
        "Compact",
        "1x2x3x4",
        "--chip",
        "ExampleChip",
        "--address",
        "0x800",
    ]);
    assert_eq!(
        field(&hex, "start"),
        field(
            &ok(&[
                "explain",
                "Compact",
                "1x2x3x4",
                "--chip",
                "ExampleChip",
                "--address",
                "2048"
            ]),
            "start"
        )
    );
}
