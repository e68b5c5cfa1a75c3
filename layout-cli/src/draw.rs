//! `layout draw`: the memory order as a picture: one cell per storage slot, labelled with its
//! logical index, the caption naming the axes.

use std::fmt::Write;
use std::path::Path;
use tensor_layout::axes::AxisWord;
use tensor_layout::mappings::AnyMapping;

/// The most cells a drawing shows; larger storage is refused with advice.
pub const MAX_CELLS: usize = 16_384;
/// Side of one cell, in pixels.
pub(crate) const CELL: usize = 28;
/// Height of the caption above the cells.
const CAPTION: usize = 14;

/// Writes an SVG (or, for a `.png` name, a PNG rendered from it) of the storage, as
/// [`svg_drawing`] draws it, the cells coloured by the coordinate of axis `color_dim`.
pub fn draw(m: &dyn AnyMapping, color_dim: usize, output: &Path) -> Result<String, String> {
    let bytes = write_picture(output, || svg_drawing(m, color_dim))?;
    let storage = m.storage_len();
    let drawn = drawn_slots(storage, row_length(m), m.chunk_volume().max(1));
    let slots = if drawn < storage {
        format!("{drawn} of {storage} slots drawn")
    } else {
        format!("{storage} slots")
    };
    Ok(format!(
        "wrote {} ({slots}, {bytes} bytes)\n",
        output.display()
    ))
}

/// Writes the picture `drawing` makes to `output`, SVG or (for a `.png` name) a PNG rendered
/// from it, the name checked before anything is drawn; the number of bytes written.
pub(crate) fn write_picture(
    output: &Path,
    drawing: impl FnOnce() -> Result<String, String>,
) -> Result<usize, String> {
    let format = Format::of(output)?;
    let svg = drawing()?;
    let written = match format {
        Format::Png => png(&svg)?,
        Format::Svg => svg.into_bytes(),
    };
    std::fs::write(output, &written)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    Ok(written.len())
}

/// Refuses a `color_dim` that is not an axis of `word`.
pub(crate) fn check_color_axis(word: AxisWord, color_dim: usize) -> Result<(), String> {
    if color_dim < word.rank() {
        return Ok(());
    }
    Err(format!(
        "axis {color_dim} is out of range: the layout has axes 0 to {} ({word})",
        word.rank().saturating_sub(1)
    ))
}

/// The storage as SVG text: one cell per slot in rows of the innermost axes (at most 32 cells,
/// at most [`MAX_ROWS`] rows: longer storage shows its first whole chunks, and says so),
/// coloured by the coordinate of axis `color_dim`, labelled with the logical index, padding
/// hatched, chunk boundaries drawn thick, and a caption naming the axes.
///
/// # Errors
/// One line when the storage has more than [`MAX_CELLS`] slots, or `color_dim` is not an axis.
pub fn svg_drawing(m: &dyn AnyMapping, color_dim: usize) -> Result<String, String> {
    check_color_axis(m.axis_word(), color_dim)?;
    let storage = m.storage_len();
    if storage > MAX_CELLS {
        return Err(format!(
            "the storage has {storage} slots; a drawing shows at most {MAX_CELLS}: draw smaller dims"
        ));
    }
    Ok(svg(m, color_dim))
}

/// The picture formats `draw` writes, named by the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`: the drawing as SVG text.
    Svg,
    /// `.png`: the SVG rendered by `resvg`.
    Png,
}

impl Format {
    /// The format `path`'s extension names (in either case), or why there is none.
    pub fn of(path: &Path) -> Result<Self, String> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match extension.to_ascii_lowercase().as_str() {
            "svg" => Ok(Self::Svg),
            "png" => Ok(Self::Png),
            "" => Err(format!(
                "-o {}: expected a file name ending in .svg or .png, found no extension",
                path.display()
            )),
            other => Err(format!(
                "-o {}: expected a file name ending in .svg or .png, found .{other} (a format draw does not write)",
                path.display()
            )),
        }
    }
}

/// The most rows of cells a drawing shows: 64 rows of 28 pixels keep a picture under 2,000
/// pixels tall. Longer storage is drawn as its first whole chunks (or its first slots, when one
/// chunk is longer), and the caption says how much is left out.
pub const MAX_ROWS: usize = 64;
/// Width of one character of a caption (font size 9, DejaVu Sans Mono), in pixels.
const CAPTION_CHAR: f64 = 9.0 * 0.602;

/// Cells per row: the innermost axes of the storage order as far as they fit in 32 cells. When
/// they make a row of fewer than 8 cells, the next axis is wrapped: as many of its steps as fit
/// in 32 cells, a divisor of its extent (HTP's 2x2 tiles of 32 channels give rows of 2x2 pixels
/// x 8 channels, not ribbons of 4 cells).
fn row_length(m: &dyn AnyMapping) -> usize {
    let mut row = 1;
    for axis in m.axes().iter().rev() {
        let extent = axis.extent.max(1);
        if row * extent > 32 {
            if row < 8 {
                row *= (1..=extent)
                    .rev()
                    .find(|&d| extent.is_multiple_of(d) && row * d <= 32)
                    .unwrap_or(1);
            }
            break;
        }
        row *= extent;
    }
    row.max(8).min(m.storage_len().max(1))
}

/// How many slots a drawing of `storage` slots in rows of `row` shows: all of them when they
/// fit in [`MAX_ROWS`] rows, else the whole chunks of `chunk` slots that fit (at least the
/// first rows of the first chunk).
fn drawn_slots(storage: usize, row: usize, chunk: usize) -> usize {
    let room = MAX_ROWS * row;
    if storage <= room {
        storage
    } else if chunk > 1 && chunk <= room {
        room / chunk * chunk
    } else {
        room
    }
}

fn svg(m: &dyn AnyMapping, color_dim: usize) -> String {
    let storage = m.storage_len();
    let row = row_length(m);
    let chunk = m.chunk_volume().max(1);
    let drawn = drawn_slots(storage, row, chunk);
    let rows = drawn.div_ceil(row);
    let extent = m.padded_dims()[color_dim].max(1);
    let word = m.axis_word();
    let names: Vec<String> = word.as_str().chars().map(String::from).collect();
    let mut captions = vec![format!(
        "index ({})  colour: {}",
        names.join(","),
        word.letter(color_dim)
    )];
    if drawn < storage {
        captions.push(left_out(storage, drawn, chunk));
    }
    let caption_height = CAPTION + (captions.len() - 1) * 12;
    let widest = captions.iter().map(|c| c.len()).max().unwrap_or(0);
    let width = (row * CELL + 2).max((widest as f64 * CAPTION_CHAR).ceil() as usize + 4);
    let height = caption_height + rows * CELL + 2;
    let mut out = svg_start(width, height);
    for (k, caption) in captions.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="2" y="{}" font-size="9">{caption}</text>"#,
            CAPTION - 4 + k * 12
        );
    }
    for offset in 0..drawn {
        let (x, y) = (
            1 + (offset % row) * CELL,
            caption_height + 1 + (offset / row) * CELL,
        );
        let Some(index) = m.padded_index_of(offset) else {
            continue;
        };
        let (fill, label) = if m.is_padding(offset) {
            (HATCH.to_string(), String::new())
        } else {
            (colour(index[color_dim], extent), index_label(&index))
        };
        // A thick bar after the last slot of each chunk.
        let chunk_ends = chunk > 1 && (offset + 1) % chunk == 0;
        cell(&mut out, (x, y), &fill, &label, chunk_ends);
    }
    out.push_str("</svg>\n");
    out
}

/// The caption line of a drawing that shows only its first `drawn` of `storage` slots.
fn left_out(storage: usize, drawn: usize, chunk: usize) -> String {
    let chunks = storage.div_ceil(chunk);
    if chunk > 1 && drawn.is_multiple_of(chunk) {
        let shown = drawn / chunk;
        let (first, like) = if shown == 1 {
            ("the first chunk".to_string(), "it")
        } else {
            (format!("the first {shown} chunks"), "them")
        };
        format!(
            "{first} of {chunks} ({drawn} of {storage} slots); {} more chunks like {like} not drawn",
            chunks - shown
        )
    } else {
        format!(
            "the first {drawn} of {storage} slots; {} more not drawn",
            storage - drawn
        )
    }
}

/// The fill of padding and of slots that hold nothing: the hatch of [`svg_start`].
pub(crate) const HATCH: &str = "url(#hatch)";

/// The fill of an element whose coloured coordinate is `value` of `extent`.
pub(crate) fn colour(value: usize, extent: usize) -> String {
    format!("hsl({}, 70%, 75%)", value * 300 / extent)
}

/// An index as a cell's label: `0,1,2,3`.
pub(crate) fn index_label(index: &[usize]) -> String {
    index
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// One slot of a drawing with its top-left corner at `(x, y)`: a cell filled with `fill`,
/// `label` in its middle (none when empty), and a thick bar on its right edge when it ends a
/// group of slots (a chunk, a channel slot).
pub(crate) fn cell(
    out: &mut String,
    (x, y): (usize, usize),
    fill: &str,
    label: &str,
    ends_group: bool,
) {
    let _ = writeln!(
        out,
        r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#555" stroke-width="0.3"/>"##
    );
    label_text(out, (x, y), label);
    if ends_group {
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{y}" width="2" height="{CELL}" fill="black"/>"#,
            x + CELL - 1
        );
    }
}

/// Width of one character of a cell's label at font size 1 (DejaVu Sans Mono's advance, 0.602
/// em; other monospace fonts are narrower or alike).
pub(crate) const CHAR_WIDTH: f64 = 0.602;
/// The font size of cells' labels, in pixels.
const LABEL_FONT: f64 = 6.0;
/// The smallest font size a label is written in; a label that would need a smaller one is left
/// out (the cell's colour and the caption still say what it holds).
const MIN_LABEL_FONT: f64 = 3.5;
/// Room for a label's line inside a cell: the cell less a pixel each side.
const LABEL_ROOM: f64 = (CELL - 2) as f64;

/// How a label is written in a cell: its lines and font size, or `None` when it cannot be
/// written legibly inside the cell. A label of up to 7 characters is one line at font size 6;
/// a longer one breaks into two lines at a comma (`19,5,` over `0,0`), shrunk only if a line
/// is still wider than the cell.
pub(crate) fn label_lines(label: &str) -> Option<(Vec<&str>, f64)> {
    let fits = |chars: usize| chars as f64 * CHAR_WIDTH * LABEL_FONT <= LABEL_ROOM;
    if label.is_empty() {
        return None;
    }
    if fits(label.len()) {
        return Some((vec![label], LABEL_FONT));
    }
    // After the first half of the coordinates (`19,5,` over `0,0`); the first line keeps
    // the comma.
    let commas: Vec<usize> = label.match_indices(',').map(|(k, _)| k + 1).collect();
    let split = commas.get(commas.len() / 2).copied().unwrap_or(label.len());
    let lines: Vec<&str> = [&label[..split], &label[split..]]
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    let longest = lines.iter().map(|l| l.len()).max().unwrap_or(1);
    let size = (LABEL_ROOM / (longest as f64 * CHAR_WIDTH)).min(LABEL_FONT);
    // Two lines must fit the cell's height as well (a line is 1.2 font sizes apart).
    let size = size.min(LABEL_ROOM / (lines.len() as f64 * 1.2));
    let size = (size * 10.0).floor() / 10.0;
    (size >= MIN_LABEL_FONT).then_some((lines, size))
}

/// Writes `label` centred in the cell at `(x, y)`, as [`label_lines`] lays it out.
fn label_text(out: &mut String, (x, y): (usize, usize), label: &str) {
    let Some((lines, size)) = label_lines(label) else {
        return;
    };
    let centre = x + CELL / 2;
    if let [line] = lines[..] {
        let _ = writeln!(
            out,
            r#"<text x="{centre}" y="{}" text-anchor="middle">{line}</text>"#,
            y + CELL / 2 + 2
        );
        return;
    }
    // Baselines a line apart, the pair centred on the cell's middle.
    let step = size * 1.2;
    let first = y as f64 + CELL as f64 / 2.0 - step / 2.0 + size * 0.35;
    let _ = write!(
        out,
        r#"<text x="{centre}" y="{first:.1}" text-anchor="middle" font-size="{size}">"#
    );
    for (k, line) in lines.iter().enumerate() {
        let _ = write!(
            out,
            r#"<tspan x="{centre}" y="{:.1}">{line}</tspan>"#,
            first + k as f64 * step
        );
    }
    out.push_str("</text>\n");
}

/// The start of a drawing of `width` x `height` pixels: the `<svg>` element, the hatch pattern
/// padding is filled with ([`HATCH`]) in its `<defs>`, and a white background.
pub(crate) fn svg_start(width: usize, height: usize) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, monospace" font-size="6">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f4f4f4"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>
<rect width="{width}" height="{height}" fill="white"/>
"##
    )
}

/// `svg` rendered by resvg as PNG bytes.
#[cfg(feature = "png")]
pub(crate) fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &options)
        .map_err(|e| format!("cannot render the drawing: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the drawing is too large to render".to_string())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Without the `png` feature (and resvg), drawings are SVG only.
#[cfg(not(feature = "png"))]
pub(crate) fn png(_svg: &str) -> Result<Vec<u8>, String> {
    Err(
        "this build writes SVG drawings only (PNG needs layout-cli's `png` feature): \
         name the output .svg"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels of up to 7 characters keep one line at the usual size; longer ones go on two
    /// lines split after half their coordinates, shrunk only when a line is still too wide, and
    /// are left out when even that is too small to read.
    #[test]
    fn labels_fit_their_cells() {
        assert_eq!(label_lines("0,1,2,3"), Some((vec!["0,1,2,3"], 6.0)));
        assert_eq!(label_lines("19,5,0,0"), Some((vec!["19,5,", "0,0"], 6.0)));
        assert_eq!(label_lines("1,2,3,4,5"), Some((vec!["1,2,3,", "4,5"], 6.0)));
        let (lines, size) = label_lines("123,456,789,999").unwrap();
        assert_eq!(lines, ["123,456,", "789,999"]);
        assert!(size < 6.0 && 8.0 * CHAR_WIDTH * size <= LABEL_ROOM);
        assert_eq!(label_lines("123456,123456,1,1"), None);
        assert_eq!(label_lines(""), None);
    }

    /// Drawings stop after 64 rows: at a whole chunk where one fits, else at the 64th row.
    #[test]
    fn long_storage_is_cut_at_whole_chunks() {
        assert_eq!(drawn_slots(2048, 32, 2048), 2048);
        assert_eq!(drawn_slots(16384, 32, 2048), 2048);
        assert_eq!(drawn_slots(16384, 32, 768), 1536);
        assert_eq!(drawn_slots(16384, 32, 4096), 2048);
        assert_eq!(drawn_slots(4800, 20, 1), 1280);
    }
}
