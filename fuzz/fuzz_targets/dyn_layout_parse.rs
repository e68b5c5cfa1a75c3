//! Any text handed to `DynLayout::parse`: never a panic; a layout that reads prints in the long
//! form and reads back equal; bound to small dims, every offset lies inside the storage.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tensor_layout::{DynLayout, for_each_row_major_index};

fuzz_target!(|data: &[u8]| {
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
        let offset = m.offset(index).expect("index within dims");
        assert!(offset < m.storage_len());
    });
});
