//! Reading the command's arguments: layouts, dims, indices, axes, element types, and how the
//! axes of two layouts correspond.

use tensor_layout::sophgo::{DynLocalLayout, DynLocalMapping};
use tensor_layout::{DynLayout, axes::AxisWord, dynamic::DynMapping};

/// Any spelling `DynLayout::parse` reads: a catalog name (bare or `module::Name`), the long or
/// short form, a oneDNN tag.
pub fn layout(text: &str) -> Result<DynLayout, String> {
    DynLayout::parse(text).map_err(|e| e.to_string())
}

/// `1x3x5x30` (or `1,3,5,30`).
pub fn numbers(text: &str, what: &str) -> Result<Vec<usize>, String> {
    let mut at = 0;
    let mut out = Vec::new();
    for part in text.split(['x', ',']) {
        let number = part.trim().parse::<usize>().map_err(|_| {
            format!(
                "{what} {text:?}: at character {at}, expected a whole number (as in 1x3x5x30), found {part:?}"
            )
        })?;
        out.push(number);
        at += part.chars().count() + 1;
    }
    Ok(out)
}

/// Bytes per element of a type name.
pub fn element_size(name: &str) -> Result<usize, String> {
    Ok(match name {
        "u8" | "i8" => 1,
        "u16" | "i16" | "f16" | "bf16" => 2,
        "u32" | "i32" | "f32" => 4,
        "u64" | "i64" | "f64" => 8,
        other => {
            return Err(format!(
                "unknown element type {other:?}: expected u8 i8 u16 i16 f16 bf16 u32 i32 f32 u64 i64 f64"
            ));
        }
    })
}

/// `layout` bound to `dims`; one line saying why not when the dims have another length or do
/// not fit.
pub fn bind_layout(layout: &DynLayout, dims: &[usize]) -> Result<DynMapping, String> {
    if dims.len() != layout.rank() {
        return Err(format!(
            "dims {} have {} coordinates but {layout} has rank {}",
            dims.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("x"),
            dims.len(),
            layout.rank()
        ));
    }
    layout.bind(dims).map_err(|e| e.to_string())
}

/// The layout spelled `layout_text` bound to the dims spelled `dims_text`.
pub fn bind(layout_text: &str, dims_text: &str) -> Result<DynMapping, String> {
    let layout = layout(layout_text)?;
    let dims = numbers(dims_text, "dims")?;
    bind_layout(&layout, &dims)
}

/// The local layout `layout` bound to the dims spelled `dims_text`; the library's error (a
/// misaligned address, an NPU overflowed, ...) as one line otherwise.
pub fn bind_local(layout: &DynLocalLayout, dims_text: &str) -> Result<DynLocalMapping, String> {
    let dims = numbers(dims_text, "dims")?;
    if dims.len() != layout.rank() {
        return Err(format!(
            "dims {dims_text} have {} coordinates but {layout} has rank {}",
            dims.len(),
            layout.rank()
        ));
    }
    layout.bind(&dims).map_err(|e| e.to_string())
}

/// Binds layout A to `dims` and layout B to the same dims permuted by axis name (B's dims are
/// A's in B's axis order); with both, the correspondence: for each axis of A, its position in B.
pub fn bind_two(
    a: &str,
    b: &str,
    dims_text: &str,
) -> Result<(DynMapping, DynMapping, Vec<usize>), String> {
    let (la, lb) = (layout(a)?, layout(b)?);
    let at = correspondence(a, &la, b, &lb)?;
    let dims = numbers(dims_text, "dims")?;
    let mut b_dims = dims.clone();
    if dims.len() == at.len() {
        for (d, &p) in at.iter().enumerate() {
            b_dims[p] = dims[d];
        }
    }
    Ok((bind_layout(&la, &dims)?, bind_layout(&lb, &b_dims)?, at))
}

/// How the axes of layout A correspond to those of layout B: for each axis of A, where the axis
/// of the same name stands in B. Layouts whose axes are positional (`abcd`: the layout names no
/// axes) correspond position by position with any layout of their rank.
///
/// # Errors
/// One line naming both layouts and both words, when the ranks or the names differ.
pub fn correspondence(
    a_text: &str,
    a: &DynLayout,
    b_text: &str,
    b: &DynLayout,
) -> Result<Vec<usize>, String> {
    let (wa, wb) = (a.axis_word(), b.axis_word());
    if a.rank() != b.rank() {
        return Err(format!(
            "{a_text} has rank {} but {b_text} has rank {} (axes {wa} and {wb}): only layouts of one rank compare",
            a.rank(),
            b.rank()
        ));
    }
    if wa.is_positional() || wb.is_positional() {
        return Ok((0..a.rank()).collect());
    }
    match wa.positions_in(&wb) {
        Some(at) => Ok(at[..a.rank()].to_vec()),
        None => Err(format!(
            "{a_text} has axes {wa} but {b_text} has axes {wb}: elements move by axis name, and these are not the same names"
        )),
    }
}

/// A logical index: plain coordinates in the layout's axis order (`0,2,4,29` or `0x2x4x29`), or
/// every axis by name in any order (`N=0,H=2,W=4,C=29`, as `where` and `at` print them).
pub fn index(text: &str, word: &AxisWord) -> Result<Vec<usize>, String> {
    let text = text.trim().trim_start_matches('(').trim_end_matches(')');
    if !text.contains('=') {
        return numbers(text, "index");
    }
    let mut index: Vec<Option<usize>> = vec![None; word.rank()];
    for part in text.split(',') {
        let Some((name, value)) = part.split_once('=') else {
            return Err(format!(
                "index {text:?}: {part:?} has no name: name every axis (e.g. {}) or none",
                example(word)
            ));
        };
        let name = name.trim();
        let d = axis(name, word).map_err(|e| format!("index {text:?}: {e}"))?;
        let value = value
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("index {text:?}: {value:?} is not a whole number"))?;
        if index[d].replace(value).is_some() {
            return Err(format!("index {text:?}: axis {name} is given twice"));
        }
    }
    let missing: String = (0..word.rank())
        .filter(|&d| index[d].is_none())
        .map(|d| word.letter(d))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "index {text:?} names no coordinate for {missing}: the layout's axes are {word}"
        ));
    }
    Ok(index.into_iter().flatten().collect())
}

/// `N=0,C=0,...` for a word.
fn example(word: &AxisWord) -> String {
    word.as_str()
        .chars()
        .map(|c| format!("{c}=0"))
        .collect::<Vec<_>>()
        .join(",")
}

/// An axis given by its letter (`C`, in either case) or its position (`1`).
pub fn axis(text: &str, word: &AxisWord) -> Result<usize, String> {
    if let Ok(d) = text.parse::<usize>() {
        return if d < word.rank() {
            Ok(d)
        } else {
            Err(format!(
                "{d} is out of range: the layout has axes 0 to {} ({word})",
                word.rank() - 1
            ))
        };
    }
    let mut chars = text.chars();
    let found = match (chars.next(), chars.next()) {
        (Some(c), None) => word
            .position_of(c)
            .or_else(|| word.position_of(c.to_ascii_uppercase()))
            .or_else(|| word.position_of(c.to_ascii_lowercase())),
        _ => None,
    };
    found.ok_or_else(|| {
        format!(
            "{text:?} is not an axis of this layout: its axes are {word} (a letter, or a number 0 to {})",
            word.rank() - 1
        )
    })
}
