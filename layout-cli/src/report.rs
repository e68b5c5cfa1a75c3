//! The text reports: list, explain, where, at, diff, and the mapping seen without its rank.

use std::fmt::Write;
use tensor_layout::layouts_catalog::registry;
use tensor_layout::{Axes, Coords, DynChunked, DynLayout, Mapping};

/// A mapping of any rank, seen through `Vec`s: what the reports and the drawing need.
pub trait AnyMapping {
    /// The layout as a run-time value.
    fn layout(&self) -> DynLayout;
    /// Logical dims.
    fn dims(&self) -> Vec<usize>;
    /// Padded dims.
    fn padded_dims(&self) -> Vec<usize>;
    /// Storage slots.
    fn storage_len(&self) -> usize;
    /// The storage walk.
    fn axes(&self) -> Axes;
    /// Elements per contiguous chunk.
    fn chunk_volume(&self) -> usize;
    /// Offset of an index, or why it has none.
    fn offset(&self, index: &[usize]) -> Result<usize, String>;
    /// Coordinates (in the padded dims) stored at `offset`, and whether they are padding.
    fn slot(&self, offset: usize) -> Option<(Vec<usize>, bool)>;
    /// The folded memory-order listing.
    fn order(&self, max_lines: usize) -> String;
}

impl<const R: usize> AnyMapping for Mapping<DynChunked<R>> {
    fn layout(&self) -> DynLayout {
        Mapping::layout(self).to_dyn()
    }
    fn dims(&self) -> Vec<usize> {
        Mapping::dims(self).to_vec()
    }
    fn padded_dims(&self) -> Vec<usize> {
        Mapping::padded_dims(self).to_vec()
    }
    fn storage_len(&self) -> usize {
        Mapping::storage_len(self)
    }
    fn axes(&self) -> Axes {
        Mapping::axes(self)
    }
    fn chunk_volume(&self) -> usize {
        Mapping::chunk_volume(self)
    }
    fn offset(&self, index: &[usize]) -> Result<usize, String> {
        let index: [usize; R] = index.try_into().map_err(|_| {
            format!(
                "index {index:?} has {} coordinates but the layout has rank {R}",
                index.len()
            )
        })?;
        self.try_offset(index).map_err(|e| e.to_string())
    }
    fn slot(&self, offset: usize) -> Option<(Vec<usize>, bool)> {
        let index = self.padded_index_of(offset)?;
        Some((index.to_vec(), !index.is_within(&Mapping::dims(self))))
    }
    fn order(&self, max_lines: usize) -> String {
        self.memory_order()
            .folded()
            .max_lines(max_lines)
            .to_string()
    }
}

fn seed(index: &[usize]) -> String {
    format!(
        "({})",
        index
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    )
}

fn by_x(dims: &[usize]) -> String {
    dims.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// `layout list`.
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
            "{:width$}  [{}]  {}",
            entry.qualified_name(),
            entry.dims.join(", "),
            entry.used_for
        );
    }
    out
}

/// Block size of each dimension.
fn blocks(layout: &DynLayout) -> Vec<usize> {
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
pub fn explain(m: &dyn AnyMapping, element_bytes: usize) -> String {
    let layout = m.layout();
    let (dims, padded) = (m.dims(), m.padded_dims());
    let len: usize = dims.iter().product();
    let storage = m.storage_len();
    let mut out = String::new();
    let _ = writeln!(out, "layout         {layout}");
    let _ = writeln!(out, "positional tag {}", layout.positional_tag());
    let _ = writeln!(out, "logical dims   {}  ({len} elements)", by_x(&dims));
    let _ = writeln!(out, "padded dims    {}", by_x(&padded));
    let chunk: Vec<String> = blocks(&layout)
        .iter()
        .enumerate()
        .filter(|(_, b)| **b > 1)
        .map(|(d, b)| format!("{b} of dim {d}"))
        .collect();
    let shape = if chunk.is_empty() {
        "1 element (no blocks)".to_string()
    } else {
        chunk.join(" x ")
    };
    let _ = writeln!(out, "chunk          {shape}: {} elements", m.chunk_volume());
    let _ = writeln!(out, "entries        (dim,size)  extent  stride");
    for (entry, axis) in layout.entries().iter().zip(m.axes().iter()) {
        let _ = writeln!(
            out,
            "               ({},{}){:>w$}{:>8}",
            entry.dim,
            entry.size,
            axis.extent,
            axis.stride,
            w = 12 - format!("({},{})", entry.dim, entry.size).len() + 6
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
    // oneDNN's description: the outer stride of each dimension and the inner blocks.
    let mut strides = vec![0; layout.rank()];
    for (entry, axis) in layout.entries().iter().zip(m.axes().iter()) {
        if entry.size == 0 {
            strides[entry.dim] = axis.stride;
        }
    }
    let inner: Vec<&tensor_layout::ChunkEntry> =
        layout.entries().iter().filter(|e| e.size > 0).collect();
    let _ = writeln!(
        out,
        "oneDNN         padded_dims {padded:?}, strides {strides:?}, inner_nblks {}, inner_blks {:?}, inner_idxs {:?}",
        inner.len(),
        inner.iter().map(|e| e.size).collect::<Vec<_>>(),
        inner.iter().map(|e| e.dim).collect::<Vec<_>>()
    );
    out
}

/// `layout where`.
pub fn where_is(m: &dyn AnyMapping, index_text: &str) -> Result<String, String> {
    let index = crate::args::numbers(index_text.trim_matches(|c| c == '(' || c == ')'), "index")?;
    let offset = m.offset(&index)?;
    let chunk = m.chunk_volume().max(1);
    Ok(format!(
        "{} -> offset {offset} (chunk {}, position {} in it)\n",
        seed(&index),
        offset / chunk,
        offset % chunk
    ))
}

/// `layout at`.
pub fn at(m: &dyn AnyMapping, offset: usize) -> Result<String, String> {
    match m.slot(offset) {
        Some((index, false)) => Ok(format!("offset {offset} -> {}\n", seed(&index))),
        Some((index, true)) => Ok(format!(
            "offset {offset} -> padding (padded coordinates {})\n",
            seed(&index)
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

/// `layout diff`.
pub fn diff(a: &dyn AnyMapping, b: &dyn AnyMapping) -> Result<String, String> {
    let (la, lb) = (a.layout(), b.layout());
    let same = a.storage_len() == b.storage_len() && a.axes().canonical() == b.axes().canonical();
    let mut out = String::new();
    let _ = writeln!(out, "A  {la}\nB  {lb}");
    let _ = writeln!(
        out,
        "dims {}: A pads to {} ({} slots), B to {} ({} slots)",
        by_x(&a.dims()),
        by_x(&a.padded_dims()),
        a.storage_len(),
        by_x(&b.padded_dims()),
        b.storage_len()
    );
    if same {
        let _ = writeln!(
            out,
            "same function on these dims: every element at the same offset; a relayout is a plain copy"
        );
        return Ok(out);
    }
    let _ = writeln!(out, "different functions on these dims");
    let (ba, bb) = (blocks(&la), blocks(&lb));
    for d in 0..la.rank() {
        if ba[d] != bb[d] {
            let _ = writeln!(
                out,
                "  dim {d}: blocked by {} in A, by {} in B",
                ba[d], bb[d]
            );
        }
    }
    match (innermost(&a.axes()), innermost(&b.axes())) {
        (Some((da, na)), Some((db, nb))) if da == db => {
            let _ = writeln!(
                out,
                "  relayout: dim {da} stays innermost on both sides: contiguous copies of up to {} elements",
                na.min(nb)
            );
        }
        (Some((da, _)), Some((db, _))) => {
            let _ = writeln!(
                out,
                "  relayout: transposes the innermost dims (A: dim {da}, B: dim {db}); tiles of both keep reads and writes contiguous"
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
