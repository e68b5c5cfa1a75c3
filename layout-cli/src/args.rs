//! Reading the command's arguments: layouts, dims, indices, element types.

use crate::report::AnyMapping;
use tensor_layout::layouts_catalog::registry;
use tensor_layout::{DynLayout, Mapping};

/// A catalog name (bare or `module::Name`) or any spelling `DynLayout` reads.
pub fn layout(text: &str) -> Result<DynLayout, String> {
    if let Some(entry) = registry::lookup(text) {
        return Ok(entry.layout());
    }
    DynLayout::parse(text).map_err(|e| match e {
        tensor_layout::LayoutError::Parse { .. } => {
            format!("{text:?} is neither a catalog layout (`layout list` shows them) nor a layout spelling: {e}")
        }
        other => other.to_string(),
    })
}

/// `1x3x5x30` (or `1,3,5,30`).
pub fn numbers(text: &str, what: &str) -> Result<Vec<usize>, String> {
    text.split(['x', ','])
        .map(|part| {
            part.trim().parse::<usize>().map_err(|_| {
                format!("{what} {text:?}: {part:?} is not a whole number (expected e.g. 1x3x5x30)")
            })
        })
        .collect()
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

/// Binds `layout` to `dims` at the layout's rank, and runs `work` on the mapping.
pub fn with_layout<T>(
    layout_text: &str,
    dims_text: &str,
    work: impl FnOnce(&dyn AnyMapping) -> Result<T, String>,
) -> Result<T, String> {
    let layout = layout(layout_text)?;
    let dims = numbers(dims_text, "dims")?;
    bind(&layout, &dims, work)
}

/// Binds two layouts to the same dims and runs `work` on both.
pub fn with_two_layouts<T>(
    a: &str,
    b: &str,
    dims_text: &str,
    work: impl FnOnce(&dyn AnyMapping, &dyn AnyMapping) -> Result<T, String>,
) -> Result<T, String> {
    let (la, lb) = (layout(a)?, layout(b)?);
    if la.rank() != lb.rank() {
        return Err(format!(
            "{a} has rank {} but {b} has rank {}: only layouts of one rank compare",
            la.rank(),
            lb.rank()
        ));
    }
    let dims = numbers(dims_text, "dims")?;
    bind(&la, &dims, |ma| bind(&lb, &dims, |mb| work(ma, mb)))
}

fn bind<T>(
    layout: &DynLayout,
    dims: &[usize],
    work: impl FnOnce(&dyn AnyMapping) -> Result<T, String>,
) -> Result<T, String> {
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
    macro_rules! ranks {
        ($($r:literal)+) => {
            match layout.rank() {
                $($r => {
                    let ranked = layout.ranked::<$r>().map_err(|e| e.to_string())?;
                    let dims: [usize; $r] = dims.try_into().expect("length checked");
                    let m = Mapping::with_layout(ranked, dims).map_err(|e| e.to_string())?;
                    work(&m)
                })+
                other => Err(format!("rank {other} is not supported")),
            }
        };
    }
    ranks!(1 2 3 4 5 6 7 8)
}
