//! `layout draw` for Sophgo local-memory layouts: one lane per NPU, each the bytes the tensor
//! reserves there (from its start offset), one cell per element slot.

use crate::draw::{CELL, HATCH, MAX_CELLS, cell, check_color_axis, colour, index_label};
use crate::draw::{svg_start, write_picture};
use std::fmt::Write;
use std::path::Path;
use tensor_layout::mappings::AnyMapping;
use tensor_layout::sophgo::{DynLocalMapping, LocalGeometry};

/// Room left of the cells for the NPU's name and each row's byte offset.
const MARGIN: usize = 64;
/// Height of the two caption lines.
const CAPTION: usize = 26;
/// Space between two lanes.
const GAP: usize = 8;

/// What one slot of an NPU's lane holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    /// An element of the tensor, with its logical index.
    Element(Vec<usize>),
    /// A dummy element completing a storage mode's last pack.
    Dummy,
    /// No element of this tensor: alignment, an empty channel slot, an NPU without channels.
    Gap,
}

/// Elements per row: a run of the layout (a line, a channel) of at most 32 slots that divides
/// the larger strides, so that each slot and each batch starts a row where it can.
fn row_length(g: &LocalGeometry, lane: usize) -> usize {
    let mut runs = Vec::new();
    let mut larger = Vec::new();
    let packed = g.packed_dims();
    for (d, &stride) in g.element_strides().iter().enumerate() {
        let extent = if d == 1 {
            g.channels_per_npu()
        } else {
            packed[d]
        };
        if extent > 1 && stride > 0 {
            runs.extend([stride, stride * extent]);
            if stride > 32 {
                larger.push(stride);
            }
        }
    }
    if g.pack() > 1 {
        runs.push(g.pack());
    }
    let divides = |r: &usize| larger.iter().all(|s| s % r == 0);
    let natural = runs.iter().copied().filter(|&r| r <= 32);
    natural
        .clone()
        .filter(|&r| r >= 8 && divides(&r))
        .max()
        .or_else(|| (8..=32).rev().find(divides))
        .or_else(|| natural.filter(|&r| r >= 8).max())
        .unwrap_or(32)
        .min(lane.max(1))
}

/// What slot `offset` (elements of the whole memory) holds.
fn slot(m: &dyn AnyMapping, offset: usize) -> Slot {
    let dims = m.dims();
    let padded = m.padded_dims();
    match m.padded_index_of(offset) {
        Some(index) if index.iter().zip(dims).all(|(i, d)| i < d) => Slot::Element(index),
        Some(index) if index.iter().zip(&padded).all(|(i, d)| i < d) => Slot::Dummy,
        _ => Slot::Gap,
    }
}

/// Writes the lanes of `m` as SVG (or a PNG rendered from it), as [`svg_drawing`] draws them.
pub fn draw(m: &DynLocalMapping, color_dim: usize, output: &Path) -> Result<String, String> {
    let bytes = write_picture(output, || svg_drawing(m, color_dim))?;
    let layout = m.layout();
    let lane = m.local_geometry().reserved_bytes() / layout.element_bytes;
    Ok(format!(
        "wrote {} ({} NPU lanes of {lane} slots, {bytes} bytes)\n",
        output.display(),
        layout.chip.npus(),
    ))
}

/// The lanes of `m` as SVG text: one lane per NPU, each the bytes the tensor reserves there,
/// one cell per element slot, coloured by axis `color_dim`'s coordinate.
///
/// # Errors
/// One line when the lanes hold more than [`MAX_CELLS`] slots in all, or `color_dim` is not an
/// axis.
pub fn svg_drawing(m: &DynLocalMapping, color_dim: usize) -> Result<String, String> {
    let layout = m.layout();
    check_color_axis(m.mapping().axis_word(), color_dim)?;
    let g = m.local_geometry();
    let npus = layout.chip.npus();
    let lane = g.reserved_bytes() / layout.element_bytes;
    let row = row_length(g, lane);
    let rows = lane.div_ceil(row).max(1);
    if npus * rows * row > MAX_CELLS {
        return Err(format!(
            "the tensor reserves {} bytes on each of {npus} NPUs, {} slots in all; a drawing shows at most {MAX_CELLS}: draw smaller dims or an example chip",
            g.reserved_bytes(),
            npus * rows * row
        ));
    }
    Ok(svg(m, color_dim, row, rows))
}

/// `<` and `>` of a layout's name, and `&`, as SVG text needs them.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn svg(m: &DynLocalMapping, color_dim: usize, row: usize, rows: usize) -> String {
    let layout = m.layout();
    let (g, mapping) = (m.local_geometry(), m.mapping());
    let e = layout.element_bytes;
    let npus = layout.chip.npus();
    let npu_elements = layout.chip.npu_bytes() / e;
    let start = g.start();
    let lane_height = rows * CELL;
    let (width, height) = (
        MARGIN + row * CELL + 2,
        CAPTION + npus * (lane_height + GAP),
    );
    let word = mapping.axis_word();
    let names: Vec<String> = word.as_str().chars().map(String::from).collect();
    let extent = mapping.padded_dims()[color_dim].max(1);
    // A bar after each channel slot, where an NPU holds more than one.
    let slot_stride = if g.channels_per_npu() > 1 {
        g.element_strides()[1]
    } else {
        0
    };
    let mut out = svg_start(width, height);
    let _ = write!(
        out,
        r##"<text x="2" y="10" font-size="9">{}</text>
<text x="2" y="21" font-size="9">one lane per NPU, bytes {}..{} of each; index ({})  colour: {}</text>
"##,
        escape(&layout.to_string()),
        start.offset,
        start.offset + g.reserved_bytes(),
        names.join(","),
        word.letter(color_dim)
    );
    for npu in 0..npus {
        let top = CAPTION + npu * (lane_height + GAP);
        let _ = writeln!(
            out,
            r##"<g class="npu" data-npu="{npu}"><text x="2" y="{}" font-size="9">NPU {npu}</text>"##,
            top + 10
        );
        for r in 0..rows {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                MARGIN - 3,
                top + r * CELL + CELL / 2 + 2,
                start.offset + r * row * e
            );
        }
        for k in 0..rows * row {
            let (x, y) = (MARGIN + (k % row) * CELL, top + (k / row) * CELL);
            // Cells past the end of the NPU (a lane rounded up to whole rows, or reserved
            // bytes past the end when the last element still fits) hold nothing of it.
            let within = start.offset / e + k;
            let held = if within < npu_elements {
                slot(mapping, npu * npu_elements + within)
            } else {
                Slot::Gap
            };
            let (fill, label) = match &held {
                Slot::Element(index) => (colour(index[color_dim], extent), index_label(index)),
                Slot::Dummy => (HATCH.to_string(), "dummy".to_string()),
                Slot::Gap => (HATCH.to_string(), String::new()),
            };
            let slot_ends = slot_stride > 0 && (k + 1) % slot_stride == 0;
            cell(&mut out, (x, y), &fill, &label, slot_ends);
        }
        let _ = writeln!(
            out,
            r##"<rect x="{MARGIN}" y="{top}" width="{}" height="{lane_height}" fill="none" stroke="black" stroke-width="1"/></g>"##,
            row * CELL
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_layout::sophgo::{ChipName, DynLocalLayout, LocalKind};

    fn geometry(kind: LocalKind, address: usize, dims: &[usize]) -> DynLocalMapping {
        DynLocalLayout::new(kind, ChipName::ExampleChip, address, 4)
            .bind(dims)
            .unwrap()
    }

    /// Rows follow the layout: a channel slot of the aligned layout is one 32-element row, a
    /// compact feature (H*W) one row, and a row never passes 32 cells or the lane.
    #[test]
    fn rows_follow_the_layouts_runs() {
        let aligned = geometry(LocalKind::EuAligned, 2048, &[2, 3, 4, 5]);
        assert_eq!(row_length(aligned.local_geometry(), 64), 32);
        let compact = geometry(LocalKind::Compact, 0, &[2, 3, 4, 5]);
        assert_eq!(row_length(compact.local_geometry(), 40), 20);
        let tiny = geometry(LocalKind::Compact, 0, &[1, 1, 1, 3]);
        assert_eq!(row_length(tiny.local_geometry(), 3), 3);
    }
}
