//! The checks of the fuzz targets in `fuzz/`, as plain functions: cargo-fuzz drives them with
//! generated inputs, and `tests/corpus.rs` replays the committed corpus through them in every
//! `cargo test`, without a nightly toolchain or libFuzzer.
//!
//! Each function panics when the library breaks a property and returns quietly for any input
//! that is no case of it.

/// Calls `$check::<T, R>(args)` with the element type of `$case`'s element size and its rank.
macro_rules! dispatch {
    ($case:expr, $check:ident($($arg:expr),*)) => {
        match ($case.element_bytes, $case.dims.len()) {
            (1, 1) => $check::<u8, 1>($($arg),*),
            (1, 2) => $check::<u8, 2>($($arg),*),
            (1, 3) => $check::<u8, 3>($($arg),*),
            (1, _) => $check::<u8, 4>($($arg),*),
            (2, 1) => $check::<u16, 1>($($arg),*),
            (2, 2) => $check::<u16, 2>($($arg),*),
            (2, 3) => $check::<u16, 3>($($arg),*),
            (2, _) => $check::<u16, 4>($($arg),*),
            (4, 1) => $check::<u32, 1>($($arg),*),
            (4, 2) => $check::<u32, 2>($($arg),*),
            (4, 3) => $check::<u32, 3>($($arg),*),
            (4, _) => $check::<u32, 4>($($arg),*),
            (_, 1) => $check::<u64, 1>($($arg),*),
            (_, 2) => $check::<u64, 2>($($arg),*),
            (_, 3) => $check::<u64, 3>($($arg),*),
            (_, _) => $check::<u64, 4>($($arg),*),
        }
    };
}

mod case;
mod cli_args;
mod relayout_plan;
mod wisdom_parse;

pub use cli_args::cli_args;
pub use relayout_plan::relayout_plan;
pub use wisdom_parse::wisdom_parse;

use tensor_layout::{
    DynLayout, Mapping, Tensor, layouts::ChunkEntry, mappings::for_each_row_major_index,
};

/// Any text handed to `DynLayout::parse`: never a panic; a layout that reads prints in the long
/// form and reads back equal; bound to small dims, every offset lies inside the storage.
///
/// ```
/// // The text, then up to 8 bytes of dims: nChw16c of 2x3x4x5.
/// tensor_layout_fuzz_checks::dyn_layout_parse(b"nChw16c\x02\x03\x04\x05\0\0\0\0");
/// ```
pub fn dyn_layout_parse(data: &[u8]) {
    let (text, dims_bytes) = data.split_at(data.len().saturating_sub(8.min(data.len())));
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(layout) = DynLayout::parse(text) else {
        return;
    };
    let again = DynLayout::parse(&layout.to_string()).expect("the long form reads back");
    assert_eq!(again, layout);
    let dims: Vec<usize> = (0..layout.rank())
        .map(|d| usize::from(dims_bytes.get(d).copied().unwrap_or(1) % 7))
        .collect();
    let Ok(m) = layout.bind(&dims) else { return };
    for_each_row_major_index(&dims, |_, index| {
        let offset = m.offset(index);
        assert!(offset < m.storage_len());
    });
}

/// Two chunk lists and dims from the input: a tensor built in one, relaid out into the other
/// and back, keeps every element, and the destination's padding holds its pad value.
///
/// ```
/// // Dims 3x4x5; blocks of 2 along dimension 1, then blocks of 4 along dimension 2.
/// let dims = [3, 4, 5];
/// let one = [0, 1, 1, 0, 0, 0, 0, 0, 0];
/// let other = [0, 2, 3, 0, 0, 0, 0, 0, 0];
/// tensor_layout_fuzz_checks::dyn_tensor_relayout(&[&dims[..], &one, &other].concat());
/// ```
pub fn dyn_tensor_relayout(data: &[u8]) {
    if data.len() < 21 {
        return;
    }
    let dims = [
        usize::from(data[0] % 6),
        usize::from(data[1] % 9),
        usize::from(data[2] % 11),
    ];
    let (Some(a), Some(b)) = (list(&data[3..12]), list(&data[12..21])) else {
        return;
    };
    let (Ok(a), Ok(b)) = (a.ranked::<3>(), b.ranked::<3>()) else {
        return;
    };
    let (Ok(ma), Ok(mb)) = (Mapping::with_layout(a, dims), Mapping::with_layout(b, dims)) else {
        return;
    };
    let mut src = Tensor::try_filled(ma, 0u16, 0).expect("small storage");
    let mut k = 0u16;
    src.for_each_in_memory_order_mut(|_, v| {
        k += 1;
        *v = k;
    });
    let mut dst = Tensor::try_filled(mb, 0u16, 0).expect("small storage");
    dst.fill_padding(u16::MAX);
    src.relayout_into(&mut dst).expect("same dims");
    assert_eq!(dst.to_row_major(), src.to_row_major());
    let padding = dst.as_raw().iter().filter(|&&v| v == u16::MAX).count();
    assert_eq!(padding, dst.storage_len() - dst.len());
    let mut back = Tensor::try_filled(ma, 7u16, 0).expect("small storage");
    dst.relayout_into(&mut back).expect("same dims");
    assert_eq!(back.as_raw(), src.as_raw());
}

/// A valid rank-3 chunk list from bytes: the rest entries in a byte-chosen order, then up to 4
/// fixed entries of sizes 1 to 8.
fn list(bytes: &[u8]) -> Option<DynLayout> {
    let order = match bytes.first()? % 6 {
        0 => [0, 1, 2],
        1 => [0, 2, 1],
        2 => [1, 0, 2],
        3 => [1, 2, 0],
        4 => [2, 0, 1],
        _ => [2, 1, 0],
    };
    let mut entries: Vec<ChunkEntry> = order
        .iter()
        .map(|&dim| ChunkEntry { dim, size: 0 })
        .collect();
    for pair in bytes[1..].chunks(2).take(4) {
        if let [dim, size] = pair {
            entries.push(ChunkEntry {
                dim: usize::from(dim % 3),
                size: usize::from(size % 8) + 1,
            });
        }
    }
    DynLayout::new(3, &entries).ok()
}
