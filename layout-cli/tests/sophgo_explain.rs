//! `layout explain` on Sophgo local-memory layouts (`sophgo::EuAligned --chip ExampleChip ...`):
//! every number it prints about the NPUs, the strides and the first and last elements, checked
//! against the library's placement.

mod common;

use common::{DOCUMENTED_ALIGNED, field, ok};
use tensor_layout::sophgo::{
    ChipName, Compact, DynLocalLayout, DynLocalMapping, EuAligned, ExampleChip, LocalKind,
    LocalMemory, StorageModeName, TwoN,
};

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
    let args = [&["explain"][..], &DOCUMENTED_ALIGNED].concat();
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
