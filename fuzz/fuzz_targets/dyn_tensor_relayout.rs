//! Two chunk lists and dims from the input: a tensor built in one, relaid out into the other
//! and back, keeps every element, and the destination's padding holds its pad value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tensor_layout::{ChunkEntry, DynLayout, Mapping, Tensor};

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

fuzz_target!(|data: &[u8]| {
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
});
