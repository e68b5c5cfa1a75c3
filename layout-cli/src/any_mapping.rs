//! A mapping of any rank: what the reports and the drawing read of a layout bound to dims, and
//! the binding of a run-time layout at its rank.

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

/// Binds `layout` to `dims` as a `Mapping` of the layout's rank, and runs `work` on it; one line
/// saying why when the dims have another length or do not fit.
pub fn bind<T>(
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
