//! `layout draw`: the memory order as a picture: one cell per storage slot, labelled with its
//! logical index, the caption naming the axes.

use std::fmt::Write;
use std::path::Path;
use tensor_layout::AnyMapping;

/// The most cells a drawing shows; larger storage is refused with advice.
pub(crate) const MAX_CELLS: usize = 16_384;
/// Side of one cell, in pixels.
pub(crate) const CELL: usize = 28;
/// Height of the caption above the cells.
const CAPTION: usize = 14;

/// Writes an SVG (or, for a `.png` name, a PNG rendered from it) of the storage: one cell per
/// slot in rows of the innermost axis, coloured by the coordinate of the axis `color_by` (a
/// letter such as `C` or a position; the last axis by default), labelled with the logical index,
/// padding hatched, chunk boundaries drawn thick, and a caption naming the axes.
pub fn draw(m: &dyn AnyMapping, color_by: Option<&str>, output: &Path) -> Result<String, String> {
    let format = Format::of(output)?;
    let word = m.axis_word();
    let color_dim = match color_by {
        Some(text) => crate::args::axis(text, &word).map_err(|e| format!("--color-by {e}"))?,
        None => word.rank() - 1,
    };
    let storage = m.storage_len();
    if storage > MAX_CELLS {
        return Err(format!(
            "the storage has {storage} slots; a drawing shows at most {MAX_CELLS}: draw smaller dims"
        ));
    }
    let svg = svg(m, color_dim);
    let written = match format {
        Format::Png => png(&svg)?,
        Format::Svg => svg.into_bytes(),
    };
    std::fs::write(output, &written)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    Ok(format!(
        "wrote {} ({} slots, {} bytes)\n",
        output.display(),
        storage,
        written.len()
    ))
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

fn svg(m: &dyn AnyMapping, color_dim: usize) -> String {
    let storage = m.storage_len();
    let axes = m.axes();
    // A row is as many innermost axes as fit in 32 cells, and at least 8 cells when there are
    // that many (a row of 2 cells would draw a ribbon).
    let mut row = 1;
    for axis in axes.iter().rev() {
        if row * axis.extent > 32 {
            break;
        }
        row *= axis.extent.max(1);
    }
    let row = row.max(8).min(storage.max(1));
    let rows = storage.div_ceil(row);
    let chunk = m.chunk_volume().max(1);
    let extent = m.padded_dims()[color_dim].max(1);
    let (width, height) = (row * CELL + 2, CAPTION + rows * CELL + 2);
    let word = m.axis_word();
    let names: Vec<String> = word.as_str().chars().map(String::from).collect();
    let caption = format!(
        "index ({})  colour: {}",
        names.join(","),
        word.letter(color_dim)
    );
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, monospace" font-size="6">
<defs>{}</defs>
<rect width="{width}" height="{height}" fill="white"/>
<text x="2" y="{}" font-size="9">{caption}</text>
"##,
        hatch_defs(),
        CAPTION - 4
    );
    for offset in 0..storage {
        let (x, y) = (
            1 + (offset % row) * CELL,
            CAPTION + 1 + (offset / row) * CELL,
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

/// The fill of padding and of slots that hold nothing: the hatch of [`hatch_defs`].
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
    if !label.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{label}</text>"#,
            x + CELL / 2,
            y + CELL / 2 + 2
        );
    }
    if ends_group {
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{y}" width="2" height="{CELL}" fill="black"/>"#,
            x + CELL - 1
        );
    }
}

/// The hatch pattern padding is filled with (`url(#hatch)`), for a drawing's `<defs>`.
pub(crate) fn hatch_defs() -> &'static str {
    r##"<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f4f4f4"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern>"##
}

/// `svg` rendered by resvg as PNG bytes.
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
