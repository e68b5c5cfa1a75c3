//! Every picture that `layout draw --help` and docs/cli.md show reads at a glance: at most
//! 2,000 pixels tall, and no two pieces of text overlapping.

mod common;

use common::ok;

/// The tallest picture an example may draw, in pixels.
const MAX_HEIGHT: f64 = 2000.0;
/// Width of a character at font size 1 (DejaVu Sans Mono's advance, the widest of the fonts the
/// pictures name).
const CHAR_WIDTH: f64 = 0.602;

/// A piece of text's box: left, top, right, bottom.
type TextBox = (f64, f64, f64, f64);

/// The value of attribute `name` in a tag's text, if it has it.
fn attribute(tag: &str, name: &str) -> Option<f64> {
    let tag = format!(" {tag}");
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[start..start + tag[start..].find('"')?].parse().ok()
}

/// The picture's width and height.
fn size(svg: &str) -> (f64, f64) {
    let tag = &svg[..svg.find('>').unwrap()];
    (
        attribute(tag, "width").unwrap(),
        attribute(tag, "height").unwrap(),
    )
}

/// The boxes of every line of text in the SVG: each `<text>` or `<tspan>` line at its font size
/// (the element's, or the picture's), as wide as its characters, from its ascent to its descent.
fn text_boxes(svg: &str) -> Vec<(String, TextBox)> {
    let root = &svg[..svg.find('>').unwrap()];
    let default_size = attribute(root, "font-size").unwrap();
    let mut boxes = Vec::new();
    for element in svg.split("<text ").skip(1) {
        let element = &element[..element.find("</text>").unwrap()];
        let (tag, content) = element.split_once('>').unwrap();
        let font = attribute(tag, "font-size").unwrap_or(default_size);
        let anchor = if tag.contains(r#"text-anchor="middle""#) {
            0.5
        } else if tag.contains(r#"text-anchor="end""#) {
            1.0
        } else {
            0.0
        };
        let lines: Vec<(f64, f64, &str)> = if content.contains("<tspan") {
            content
                .split("<tspan ")
                .skip(1)
                .map(|t| {
                    let (tag, rest) = t.split_once('>').unwrap();
                    let line = &rest[..rest.find("</tspan>").unwrap()];
                    (
                        attribute(tag, "x").unwrap(),
                        attribute(tag, "y").unwrap(),
                        line,
                    )
                })
                .collect()
        } else {
            vec![(
                attribute(tag, "x").unwrap(),
                attribute(tag, "y").unwrap(),
                content,
            )]
        };
        for (x, y, line) in lines {
            let chars = line
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .chars()
                .count() as f64;
            let width = chars * CHAR_WIDTH * font;
            let left = x - anchor * width;
            // DejaVu Sans Mono: ascent 0.76 em, descent 0.24 em.
            boxes.push((
                line.to_string(),
                (left, y - 0.76 * font, left + width, y + 0.24 * font),
            ));
        }
    }
    boxes
}

/// Asserts that `svg` is at most [`MAX_HEIGHT`] tall, that its text stays inside it, and that no
/// two lines of text overlap.
fn reads_at_a_glance(svg: &str, what: &str) {
    let (width, height) = size(svg);
    assert!(height <= MAX_HEIGHT, "{what}: {height} pixels tall");
    let mut boxes = text_boxes(svg);
    assert!(!boxes.is_empty(), "{what}: no text");
    for (text, (left, top, right, bottom)) in &boxes {
        assert!(
            *left >= 0.0 && *top >= 0.0 && *right <= width && *bottom <= height,
            "{what}: {text:?} leaves the {width}x{height} picture"
        );
    }
    // Sorted by left edge: a box only meets the boxes that start before it ends.
    boxes.sort_by(|a, b| a.1.0.total_cmp(&b.1.0));
    for (k, (text, a)) in boxes.iter().enumerate() {
        for (other, b) in boxes[k + 1..].iter().take_while(|(_, b)| b.0 < a.2) {
            let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
            assert!(!overlap, "{what}: {text:?} {a:?} overlaps {other:?} {b:?}");
        }
    }
}

/// Runs a `layout draw` command line with its picture written as SVG in a scratch directory
/// (a `.png` example is drawn as SVG too, and as the PNG, whose height is checked): the SVG.
fn draw(words: &[String], dir: &std::path::Path) -> String {
    let output = words.iter().position(|w| w == "-o").unwrap() + 1;
    let mut args: Vec<String> = words[1..].to_vec();
    let svg_path = dir.join("picture.svg");
    args[output - 1] = svg_path.display().to_string();
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    if words[output].ends_with(".png") {
        let png_path = dir.join("picture.png");
        args[output - 1] = png_path.display().to_string();
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let bytes = std::fs::read(&png_path).unwrap();
        let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert!(
            f64::from(height) <= MAX_HEIGHT,
            "{words:?}: {height} pixels tall"
        );
    }
    std::fs::read_to_string(&svg_path).unwrap()
}

/// The `layout draw` commands of `layout draw --help` and of docs/cli.md.
fn examples() -> Vec<Vec<String>> {
    let help = ok(&["draw", "--help"]);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let doc = std::fs::read_to_string(format!("{root}/docs/cli.md")).unwrap();
    // The runs that write a picture (the others show draw's errors).
    let from_doc = doc
        .split("```text\n$ ")
        .skip(1)
        .filter_map(|block| block.split_once('\n'))
        .filter(|(command, shown)| {
            command.starts_with("layout draw ") && shown.starts_with("wrote ")
        })
        .map(|(command, _)| command);
    let examples: Vec<Vec<String>> = help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("layout draw "))
        .chain(from_doc)
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    assert!(examples.len() >= 10, "{examples:?}");
    examples
}

#[test]
fn every_example_picture_is_short_and_its_labels_do_not_overlap() {
    let dir = std::env::temp_dir().join(format!("layout-cli-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for words in examples() {
        let svg = draw(&words, &dir);
        reads_at_a_glance(&svg, &words.join(" "));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// HTP's 2x2-pixel croutons, the help's example: rows of 2x2 pixels x 8 channels (32 cells),
/// so the one chunk of 2048 slots takes 64 rows, not 256 rows of 8.
#[test]
fn small_runs_wrap_into_rows_of_32_cells() {
    let dir = std::env::temp_dir().join(format!("layout-cli-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let words: Vec<String> = "layout draw R4Crouton2x2Layout 1x4x4x2 -o crouton.svg"
        .split(' ')
        .map(str::to_string)
        .collect();
    let svg = draw(&words, &dir);
    assert_eq!(
        size(&svg),
        ((32 * 28 + 2) as f64, (14 + 64 * 28 + 2) as f64)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Storage longer than 64 rows is drawn as its first whole chunks, and the caption says how many
/// are left out; the labels of 4 coordinates of two digits go on two lines.
#[test]
fn large_storage_draws_its_first_chunks_and_says_how_many_more() {
    let dir = std::env::temp_dir().join(format!("layout-cli-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("large.svg");
    let out = ok(&[
        "draw",
        "R4CroutonLayout",
        "1x9x9x33",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("(2048 of 16384 slots drawn, "), "{out}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.contains(
            ">the first chunk of 8 (2048 of 16384 slots); 7 more chunks like it not drawn<"
        )
    );
    // The chunk's last element, (0,7,7,31), on two lines.
    assert!(
        svg.contains(">0,7,</tspan>") && svg.contains(">7,31</tspan>"),
        "{svg}"
    );
    reads_at_a_glance(&svg, "R4CroutonLayout 1x9x9x33");
    // A plain layout has no chunks: its first 64 rows (of 20 columns, half a row of W).
    let out = ok(&["draw", "nchw", "1x3x40x40", "-o", path.to_str().unwrap()]);
    assert!(out.contains("(1280 of 4800 slots drawn, "), "{out}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains(">the first 1280 of 4800 slots; 3520 more not drawn<"));
    reads_at_a_glance(&svg, "nchw 1x3x40x40");
    std::fs::remove_dir_all(&dir).ok();
}
