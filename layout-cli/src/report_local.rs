//! `layout explain` for Sophgo local-memory layouts: the chip, where the tensor starts, which
//! NPU holds each channel, the strides, and what each NPU holds, reserves and leaves unused.

use crate::report::{by_x, describe_axes, named};
use std::fmt::Write;
use std::ops::Range;
use tensor_layout::sophgo::{DynLocalMapping, LocalKind, StorageModeName};

/// The channels NPU `npu` holds (slot `s` holds channel `s * X + npu - Q`), shortened past
/// four: `0, 64, ..., 960 (16 channels)`.
fn channel_list(slots: Option<Range<usize>>, npu: usize, start_npu: usize, npus: usize) -> String {
    let Some(slots) = slots else {
        return "-".to_string();
    };
    let channel = |slot: usize| slot * npus + npu - start_npu;
    let count = slots.len();
    if count <= 4 {
        slots
            .map(|s| channel(s).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        format!(
            "{}, {}, ..., {} ({count} channels)",
            channel(slots.start),
            channel(slots.start + 1),
            channel(slots.end - 1)
        )
    }
}

/// The packed element's name in the TPU-Kernel documentation.
fn packed_name(mode: StorageModeName, element_bytes: usize) -> String {
    match mode {
        StorageModeName::FourN => "int8x4".to_string(),
        StorageModeName::TwoN => "int16x2".to_string(),
        StorageModeName::TwoIC => "fp32x2".to_string(),
        StorageModeName::Normal => format!("{element_bytes}-byte"),
    }
}

/// `1 slot`, `2 slots`.
fn plural(count: usize, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// `layout explain` of a local layout bound to dims.
pub fn explain(m: &DynLocalMapping) -> String {
    let layout = m.layout();
    let chip = layout.chip;
    let g = m.local_geometry();
    let mapping = m.mapping();
    let word = mapping.axis_word();
    let e = layout.element_bytes;
    let mut out = String::new();
    let _ = writeln!(out, "layout         {layout}");
    let _ = writeln!(out, "axes           {}", describe_axes(&word));
    let _ = writeln!(
        out,
        "chip           {chip}: {} NPUs x {} bytes of local memory, {}-byte execution units",
        chip.npus(),
        chip.npu_bytes(),
        chip.eu_bytes()
    );
    let len = mapping.len();
    let _ = writeln!(
        out,
        "logical dims   {}  ({len} elements)",
        by_x(mapping.dims())
    );
    // The letters of the 4-D placement: a matrix's view is (N, C, H, W).
    let letters: Vec<char> = if layout.kind == LocalKind::Matrix {
        let [n, c, h, w] = g.dims();
        let width = layout.width.unwrap_or_default();
        let _ = writeln!(
            out,
            "matrix         seen as (N, C, H, W) = {}: column m is channel m / {width}, position m % {width}",
            by_x(&[n, c, h, w])
        );
        "NCHW".chars().collect()
    } else {
        word.as_str().chars().collect()
    };
    if layout.mode != StorageModeName::Normal {
        let n = g.dims()[0];
        let _ = writeln!(
            out,
            "storage mode   {}: {} consecutive {} elements packed into one {} ({} bytes); dims in {} {}, {} dummies complete the last pack",
            layout.mode,
            g.pack(),
            letters[0],
            packed_name(layout.mode, e),
            e * g.pack(),
            packed_name(layout.mode, e),
            by_x(&g.packed_dims()),
            n.next_multiple_of(g.pack()) - n,
        );
    }
    let start = g.start();
    let _ = writeln!(
        out,
        "start          address {} = NPU {}, byte {} (a multiple of {} bytes, the layout's alignment)",
        layout.address,
        start.npu,
        start.offset,
        m.alignment()
    );
    let channels = g.dims()[1];
    let _ = writeln!(
        out,
        "channels       {channels} from NPU {q}: channel c on NPU ({q} + c) % {x}, slot ({q} + c) / {x}; {} per NPU",
        plural(g.channels_per_npu(), "slot"),
        q = start.npu,
        x = chip.npus(),
    );
    let packed = g.pack() > 1;
    let _ = writeln!(
        out,
        "strides        axis  {}elements   bytes",
        if packed {
            format!("{:>8}  ", packed_name(layout.mode, e))
        } else {
            String::new()
        }
    );
    for (d, letter) in letters.iter().enumerate() {
        let packed_column = if packed {
            format!("{:>8}  ", g.strides()[d])
        } else {
            String::new()
        };
        // The TPU-Kernel documentation: a stride over an extent of 1 "makes no sense".
        let extent = if d == 1 {
            g.channels_per_npu()
        } else {
            g.packed_dims()[d]
        };
        let note = match (d, extent) {
            (1, 0 | 1) => "  unused: one slot per NPU".to_string(),
            (_, 0 | 1) => format!("  unused: {letter} = 1"),
            (1, _) => format!("  from one slot to the next: {} channels on", chip.npus()),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "               {letter}     {packed_column}{:>8}{:>8}{note}",
            g.element_strides()[d],
            g.element_strides()[d] * e,
        );
    }
    let reserved = g.reserved_bytes();
    let total_reserved = reserved * chip.npus();
    let dummies: usize = (0..chip.npus()).map(|q| g.npu_dummy_count(q)).sum();
    let _ = writeln!(
        out,
        "reserved       {reserved} bytes on each NPU from byte {} ({}), {total_reserved} on the {} NPUs",
        start.offset,
        if reserved == g.packed_dims()[0] * g.element_strides()[0] * e {
            "N x N stride"
        } else {
            "the outermost loop's extent x stride"
        },
        chip.npus()
    );
    let _ = writeln!(
        out,
        "elements       {} bytes hold the {len} elements{}",
        len * e,
        if dummies > 0 {
            format!(", {} bytes the {dummies} dummies", dummies * e)
        } else {
            String::new()
        }
    );
    let padding = total_reserved - (len + dummies) * e;
    let _ = writeln!(
        out,
        "padding        {padding} bytes of the {total_reserved} reserved ({:.1}%) hold no element: alignment gaps, empty slots, NPUs without channels",
        percent(padding, total_reserved)
    );
    let _ = writeln!(
        out,
        "NPUs           npu  slots  channels               bytes spanned  elements  dummies  padding"
    );
    for q in 0..chip.npus() {
        let held = channel_list(g.npu_slots(q), q, start.npu, chip.npus());
        let slots = g.npu_slots(q).map_or("-".to_string(), |s| {
            if s.len() == 1 {
                s.start.to_string()
            } else {
                format!("{}..{}", s.start, s.end)
            }
        });
        let span = g
            .npu_span(q)
            .map_or("-".to_string(), |s| format!("{}..{}", s.start, s.end));
        let (elements, dummies) = (g.npu_element_count(q) * e, g.npu_dummy_count(q) * e);
        let _ = writeln!(
            out,
            "               {q:<4} {slots:<6} {:<22} {span:<14} {elements:>8} {dummies:>8} {:>8}",
            held,
            reserved - elements - dummies
        );
    }
    if len > 0 {
        let first = vec![0; mapping.rank()];
        let last: Vec<usize> = mapping.dims().iter().map(|d| d - 1).collect();
        for (what, index) in [("first element", first), ("last element ", last)] {
            if let (Ok(at), Ok(address)) = (m.location(&index), m.address_of(&index)) {
                let _ = writeln!(
                    out,
                    "{what}  {} -> NPU {}, byte {} (address {address})",
                    named(&index, &word),
                    at.npu,
                    at.offset
                );
            }
        }
    }
    out
}
