//! The text reports: list, explain, order, where, at, diff.

use std::fmt::Write;
use tensor_layout::registry;
use tensor_layout::sophgo::LocalKind;
use tensor_layout::{
    DynLayout, axes::AxisWord, dynamic::DynMapping, layouts::Axes, layouts::Axis,
    mappings::AnyMapping,
};

/// An index with its axis names: `(N=0, H=2, W=4, C=29)`.
pub(crate) fn named(index: &[usize], word: &AxisWord) -> String {
    let parts: Vec<String> = index
        .iter()
        .enumerate()
        .map(|(d, i)| format!("{}={i}", word.letter(d)))
        .collect();
    format!("({})", parts.join(", "))
}

/// What an axis letter means, in the vocabulary every system of the catalog shares.
fn meaning(letter: char) -> Option<&'static str> {
    Some(match letter {
        'N' => "batch",
        'C' => "channels",
        'D' => "depth",
        'H' => "height",
        'W' => "width",
        'O' => "output channels",
        'I' => "input channels",
        'G' => "groups",
        _ => return None,
    })
}

/// `NHWC (batch, height, width, channels)`, or `abcd (positional: the layout names no axes)`.
pub(crate) fn describe_axes(word: &AxisWord) -> String {
    if word.is_positional() {
        return format!("{word} (positional: the layout names no axes)");
    }
    let meanings: Vec<String> = word
        .as_str()
        .chars()
        .map(|c| meaning(c).map_or_else(|| c.to_string(), str::to_string))
        .collect();
    format!("{word} ({})", meanings.join(", "))
}

/// Dims as `2x3x4x5`.
pub(crate) fn by_x(dims: &[usize]) -> String {
    dims.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// `layout list`: the catalog's chunk lists, then Sophgo's local-memory layouts (which need
/// `--chip`).
pub fn list() -> String {
    let mut out = String::new();
    let width = registry::all()
        .iter()
        .map(|e| e.qualified_name().len())
        .max()
        .unwrap_or(0);
    for entry in registry::all() {
        let _ = writeln!(
            out,
            "{:width$}  {:5}  [{}]  {}",
            entry.qualified_name(),
            entry.layout().axis_word().as_str(),
            entry.dims.join(", "),
            entry.used_for
        );
    }
    for kind in LocalKind::ALL {
        let (word, dims) = if kind == LocalKind::Matrix {
            ("ab", "rows, columns")
        } else {
            ("NCHW", "n, c, h, w")
        };
        let _ = writeln!(
            out,
            "{:width$}  {word:5}  [{dims}]  {} (--chip)",
            kind.to_string(),
            kind.used_for()
        );
    }
    out
}

/// Block size of each dimension: the product of its fixed entries, 1 where it has none.
pub fn blocks(layout: &DynLayout) -> Vec<usize> {
    (0..layout.rank())
        .map(|d| {
            layout
                .entries()
                .iter()
                .filter(|e| e.dim == d && e.size > 0)
                .map(|e| e.size)
                .product()
        })
        .collect()
}

/// `layout explain`.
pub fn explain(m: &DynMapping, element_bytes: usize) -> String {
    let layout = m.layout();
    let word = layout.axis_word();
    let (dims, padded) = (m.dims(), m.padded_dims());
    let len: usize = dims.iter().product();
    let storage = m.storage_len();
    let mut out = String::new();
    let _ = writeln!(out, "layout         {layout}");
    let _ = writeln!(out, "axes           {}", describe_axes(&word));
    let _ = writeln!(out, "positional tag {}", layout.positional_tag());
    let _ = writeln!(out, "logical dims   {}  ({len} elements)", by_x(dims));
    let _ = writeln!(out, "padded dims    {}", by_x(&padded));
    let chunk: Vec<String> = blocks(layout)
        .iter()
        .enumerate()
        .filter(|(_, b)| **b > 1)
        .map(|(d, b)| format!("{b} of {}", word.letter(d)))
        .collect();
    let shape = if chunk.is_empty() {
        "1 element (no blocks)".to_string()
    } else {
        chunk.join(" x ")
    };
    let _ = writeln!(out, "chunk          {shape}: {} elements", m.chunk_volume());
    let _ = writeln!(out, "entries        (dim,size)  axis  extent  stride");
    for (entry, axis) in layout.entries().iter().zip(m.axes().iter()) {
        let _ = writeln!(
            out,
            "               {:<12}{:<4}{:>8}{:>8}",
            format!("({},{})", entry.dim, entry.size),
            word.letter(entry.dim),
            axis.extent,
            axis.stride,
        );
    }
    let overhead = if len == 0 {
        0.0
    } else {
        100.0 * (storage - len) as f64 / len as f64
    };
    let bytes = storage
        .checked_mul(element_bytes)
        .map_or("overflows usize".to_string(), |b| b.to_string());
    let _ = writeln!(
        out,
        "storage        {storage} elements, {bytes} bytes ({element_bytes}-byte elements)"
    );
    let _ = writeln!(
        out,
        "padding        {} slots, {overhead:.1}% over the logical size",
        storage - len
    );
    let desc = m.blocking_desc();
    let _ = writeln!(
        out,
        "oneDNN         padded_dims {:?}, strides {:?}, inner_nblks {}, inner_blks {:?}, inner_idxs {:?}",
        desc.padded_dims,
        desc.strides,
        desc.inner_nblks(),
        desc.inner_blks,
        desc.inner_idxs
    );
    out
}

/// `layout order`: the folded memory-order listing, at most `max_lines` lines; with `offsets`,
/// every index it prints followed by its storage offset (`(0,0,1,0)@32`).
pub fn order(m: &dyn AnyMapping, max_lines: usize, offsets: bool) -> String {
    let listing = m.memory_order_text(true, max_lines);
    if !offsets {
        return listing;
    }
    let mut out = String::with_capacity(listing.len() * 2);
    for line in listing.lines() {
        out += &with_offsets(m, line);
        out.push('\n');
    }
    out
}

/// One listing line with each index's offset after it. A line is a span of logical elements
/// (`A`, `A, B` or `A ... B`), then maybe `  pad ` and a span of padding slots in padded
/// coordinates, then maybe a chunk end. The elements' offsets come from the mapping; the padding
/// follows the last element slot by slot (the listing ends a line's elements where its padding
/// starts), `count` slots in all. Lines without indices (`... 12 more lines`) stay as they are.
fn with_offsets(m: &dyn AnyMapping, line: &str) -> String {
    let (data, rest) = line.split_once("  pad ").unwrap_or((line, ""));
    let Some(data_offsets) = span_offsets(data, |index| m.checked_offset(index)) else {
        return line.to_string();
    };
    let mut out = mark(data, &data_offsets);
    if !rest.is_empty() {
        // The padding span ends before ` [n slots]` or `  > end of chunk`, at its last `)`.
        let end = rest.rfind(')').map_or(0, |k| k + 1);
        let (pad, tail) = rest.split_at(end);
        let count = tail
            .trim_start()
            .strip_prefix('[')
            .and_then(|t| t.split_once(' '))
            .and_then(|(n, _)| n.parse::<usize>().ok())
            .unwrap_or(if pad.contains(", (") { 2 } else { 1 });
        let first = data_offsets.last().map_or(0, |&o| o + 1);
        let pad_offsets = if pad.matches('(').count() == 1 {
            vec![first]
        } else {
            vec![first, first + count - 1]
        };
        debug_assert_eq!(
            m.padded_index_of(first)
                .map(|i| crate::draw::index_label(&i)),
            pad.split(')')
                .next()
                .map(|p| p.trim_start_matches('(').to_string())
        );
        out += "  pad ";
        out += &mark(pad, &pad_offsets);
        out += tail;
    }
    out
}

/// The offsets of the indices a span prints (`(0,1)`, `(0,1), (0,2)`, `(0,1) ... (0,9)`), or
/// `None` when it prints none.
fn span_offsets(span: &str, offset: impl Fn(&[usize]) -> Option<usize>) -> Option<Vec<usize>> {
    let mut offsets = Vec::new();
    for part in span.split('(').skip(1) {
        let inside = part.split(')').next()?;
        let index: Option<Vec<usize>> = inside.split(',').map(|x| x.parse().ok()).collect();
        offsets.push(offset(&index?)?);
    }
    (!offsets.is_empty()).then_some(offsets)
}

/// `span` with `@offset` after each of its indices, in order.
fn mark(span: &str, offsets: &[usize]) -> String {
    let mut out = String::with_capacity(span.len() + 8 * offsets.len());
    let mut rest = span;
    for offset in offsets {
        let Some(k) = rest.find(')') else { break };
        let _ = write!(out, "{}@{offset}", &rest[..=k]);
        rest = &rest[k + 1..];
    }
    out + rest
}

/// `layout where`.
pub fn where_is(m: &dyn AnyMapping, index_text: &str) -> Result<String, String> {
    let word = m.axis_word();
    let index = crate::args::index(index_text, &word)?;
    let offset = m.try_offset(&index).map_err(|e| match e {
        tensor_layout::LayoutError::Rank { .. } => format!("index {index:?}: {e}"),
        other => other.to_string(),
    })?;
    let chunk = m.chunk_volume().max(1);
    Ok(format!(
        "{} -> offset {offset} (chunk {}, position {} in it)\n",
        named(&index, &word),
        offset / chunk,
        offset % chunk
    ))
}

/// `layout at`.
pub fn at(m: &dyn AnyMapping, offset: usize) -> Result<String, String> {
    let word = m.axis_word();
    match m.padded_index_of(offset) {
        Some(index) if !m.is_padding(offset) => {
            Ok(format!("offset {offset} -> {}\n", named(&index, &word)))
        }
        Some(index) => Ok(format!(
            "offset {offset} -> padding (padded coordinates {})\n",
            named(&index, &word)
        )),
        None => Err(format!(
            "offset {offset} is past the end: the storage has {} slots (0 to {})",
            m.storage_len(),
            m.storage_len().saturating_sub(1)
        )),
    }
}

/// Innermost logical dimension and how many elements stay contiguous along it.
fn innermost(axes: &Axes) -> Option<(usize, usize)> {
    let canonical = axes.canonical();
    canonical
        .last()
        .filter(|a| a.stride == 1)
        .map(|a| (a.dim, a.extent))
}

/// `layout diff`: `at[d]` is where A's axis `d` stands in B (see
/// [`correspondence`](crate::args::correspondence)); B's dims are A's in that order.
pub fn diff(a: &DynMapping, b: &DynMapping, at: &[usize]) -> Result<String, String> {
    let (la, lb) = (a.layout(), b.layout());
    let (wa, wb) = (la.axis_word(), lb.axis_word());
    let rank = la.rank();
    // B's axes renumbered as A's, to compare the two storage walks.
    let mut a_of_b = vec![0; rank];
    for (d, &p) in at.iter().enumerate() {
        a_of_b[p] = d;
    }
    let b_canonical: Vec<Axis> = b
        .axes()
        .canonical()
        .iter()
        .map(|axis| Axis {
            dim: a_of_b[axis.dim],
            ..*axis
        })
        .collect();
    let same = a.storage_len() == b.storage_len() && *a.axes().canonical() == *b_canonical;
    let mut out = String::new();
    let _ = writeln!(out, "A  {la}\nB  {lb}");
    let _ = writeln!(
        out,
        "dims: A {wa} {}, padded {} ({} slots)\n      B {wb} {}, padded {} ({} slots)",
        by_x(a.dims()),
        by_x(&a.padded_dims()),
        a.storage_len(),
        by_x(b.dims()),
        by_x(&b.padded_dims()),
        b.storage_len()
    );
    let how = if wa == wb {
        format!("by name: the same axes {wa} in the same order")
    } else if wa.is_positional() || wb.is_positional() {
        let (side, positional, other) = if wb.is_positional() {
            ("B", wb, wa)
        } else {
            ("A", wa, wb)
        };
        format!(
            "by position: {side} names no axes ({positional}); they are taken as {other}, in order"
        )
    } else {
        format!("by name: B's dims are A's in B's axis order ({wa} -> {wb})")
    };
    let _ = writeln!(out, "{how}");
    let dims = a.dims();
    if dims.iter().all(|&d| d > 0) {
        let last: Vec<usize> = dims.iter().map(|d| d - 1).collect();
        let mut last_in_b = vec![0; rank];
        for (d, &p) in at.iter().enumerate() {
            last_in_b[p] = last[d];
        }
        if let (Some(from), Some(to)) = (a.checked_offset(&last), b.checked_offset(&last_in_b)) {
            let _ = writeln!(
                out,
                "  e.g. the last element: A {} at offset {from} -> B {} at offset {to}",
                named(&last, &wa),
                named(&last_in_b, &wb)
            );
        }
    }
    if same {
        let _ = writeln!(
            out,
            "same function on these dims: every element at the same offset; a relayout is a plain copy"
        );
        return Ok(out);
    }
    let _ = writeln!(out, "different functions on these dims");
    let (ba, bb) = (blocks(la), blocks(lb));
    for d in 0..rank {
        let (na, nb) = (ba[d], bb[at[d]]);
        let how = match (na > 1, nb > 1) {
            (true, true) => format!("blocked by {na} in A, by {nb} in B"),
            (true, false) => format!("blocked by {na} in A, not in B"),
            (false, true) => format!("blocked by {nb} in B, not in A"),
            (false, false) => continue,
        };
        if na != nb {
            let _ = writeln!(out, "  {}: {how}", axis_pair(&wa, d, &wb, at[d]));
        }
    }
    match (innermost(&a.axes()), innermost(&b.axes())) {
        (Some((da, na)), Some((db, nb))) if at[da] == db => {
            let _ = writeln!(
                out,
                "  relayout: {} stays innermost on both sides: contiguous copies of up to {} elements",
                axis_pair(&wa, da, &wb, db),
                na.min(nb)
            );
        }
        (Some((da, _)), Some((db, _))) => {
            let _ = writeln!(
                out,
                "  relayout: transposes the innermost axes (A: {}, B: {}); tiles of both keep reads and writes contiguous",
                wa.letter(da),
                wb.letter(db)
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "  relayout: element by element (no contiguous innermost run)"
            );
        }
    }
    Ok(out)
}

/// One axis seen from both sides: `C`, or `b (C in B)` when B names what A does not.
fn axis_pair(wa: &AxisWord, da: usize, wb: &AxisWord, db: usize) -> String {
    let (la, lb) = (wa.letter(da), wb.letter(db));
    if la == lb {
        la.to_string()
    } else {
        format!("{la} (B's {lb})")
    }
}
