//! Relayouts to and from Sophgo local-memory layouts: what the Rust `LocalMemory::store` and
//! `LocalMemory::load` do, on layouts chosen at run time. A local tensor's storage is the
//! chip's whole local memory seen as elements (the local mapping's `storage_len`); a store
//! writes the tensor's elements and its dummies (the tail of a storage mode's last pack) and
//! nothing else, a load reads the elements only.
//!
//! The typed engine needs the layouts' types, which a run-time local layout hides behind
//! `AnyMapping`; so these copies go element by element through the two mappings' offsets.

use tensor_layout::sophgo::{DynLocalLayout, DynLocalMapping, LocalKind, StorageModeName};
use tensor_layout::{
    LayoutError, axes::AxisWord, mappings::AnyMapping, mappings::for_each_row_major_index,
};

/// The axis names of a local layout: `NCHW` for activations, `IOHW` for 2IC's weights, and
/// positional `ab` for a matrix (what its bound mapping reports).
pub fn local_axes(layout: &DynLocalLayout) -> AxisWord {
    match (layout.kind, layout.mode) {
        (LocalKind::Matrix, _) => AxisWord::positional(2),
        (_, StorageModeName::TwoIC) => AxisWord::new("IOHW").expect("a valid word"),
        _ => AxisWord::new("NCHW").expect("a valid word"),
    }
}

/// For each axis of `from`, where the axis of the same name stands in `to`.
pub fn positions(from: &AxisWord, to: &AxisWord) -> Result<Vec<usize>, LayoutError> {
    from.positions_in(to)
        .map(|p| p[..from.rank()].to_vec())
        .ok_or_else(|| LayoutError::AxisNames {
            source: from.to_string(),
            destination: to.to_string(),
        })
}

/// `dims` (in `from`'s axis order) in `to`'s axis order.
pub fn dims_in(from: &AxisWord, dims: &[usize], to: &AxisWord) -> Result<Vec<usize>, LayoutError> {
    if from.rank() != to.rank() {
        return Err(LayoutError::Rank {
            expected: to.rank(),
            found: from.rank(),
        });
    }
    let at = positions(from, to)?;
    let mut moved = vec![0; dims.len()];
    for (d, &size) in dims.iter().enumerate() {
        moved[at[d]] = size;
    }
    Ok(moved)
}

/// Copies every element of `from` (storage of `src`) to its place in `into` (storage of
/// `dst`), moved by axis name; nothing else of `into` is written. The caller checked that
/// `dst`'s dims are `src`'s in `dst`'s axis order and both storage lengths.
pub fn copy_elements<T: Copy>(
    src: &dyn AnyMapping,
    from: &[T],
    dst: &dyn AnyMapping,
    into: &mut [T],
) -> Result<(), LayoutError> {
    let at = positions(&src.axis_word(), &dst.axis_word())?;
    let mut index = vec![0; at.len()];
    for_each_row_major_index(src.dims(), |_, source| {
        for (d, &i) in source.iter().enumerate() {
            index[at[d]] = i;
        }
        into[dst.offset(&index)] = from[src.offset(source)];
    });
    Ok(())
}

/// Writes zero into the dummy elements of `m` in `into` (the whole memory): for a storage
/// mode whose N is not a multiple of its pack, the lanes after the last N in the last pack.
/// Lanes are the innermost loop, stride 1 (docs/sophgo.md, "the axis model"), so dummy lane
/// `n` lies `n - (N - 1)` elements after lane `N - 1`.
pub fn zero_dummies<T: Copy + Default>(m: &DynLocalMapping, into: &mut [T]) {
    let pack = m.local_geometry().pack();
    let dims = m.mapping().dims().to_vec();
    if pack <= 1 || dims.contains(&0) || dims[0].is_multiple_of(pack) {
        return;
    }
    let last = dims[0] - 1;
    let mut rest = dims.clone();
    rest[0] = 1;
    for_each_row_major_index(&rest, |_, index| {
        let mut index = index.to_vec();
        index[0] = last;
        let at = m.mapping().offset(&index);
        for lane in 1..pack - last % pack {
            into[at + lane] = T::default();
        }
    });
}
