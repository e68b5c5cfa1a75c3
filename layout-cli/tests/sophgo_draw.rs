//! `layout draw` on Sophgo local-memory layouts: one lane per NPU, every element in the lane of
//! its NPU, dummies marked, and the PNG rendered from the same SVG.

mod common;

use common::{DOCUMENTED_ALIGNED, ok};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind, StorageModeName};

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
    let svg = draw(&DOCUMENTED_ALIGNED, "aligned.svg");
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
