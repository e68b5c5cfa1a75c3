//! Helpers shared by the integration tests: an independent, literal implementation of the
//! chunk-list semantics (docs/concepts.md) to check the optimised one against, a full check of a
//! mapping's promises, and text a parser must refuse (`garbage`).
#![allow(dead_code)]

pub mod garbage;
mod scattered;
#[allow(unused_imports)] // not every test binary moves chunk tables
pub use scattered::scattered_chunks;

use proptest::prelude::*;
use std::collections::HashSet;
use tensor_layout::prelude::*;
use tensor_layout::{
    layouts::ChunkEntry, layouts::ChunkList, mappings::Coords, mappings::RowMajorIndices,
};

/// The chunk-list formulas, written out plainly: per-entry extents, mixed-radix digits, strides.
pub struct Reference {
    extents: Vec<usize>,
    entries: Vec<(usize, usize)>,
    pub padded: Vec<usize>,
    pub storage_len: usize,
}

impl Reference {
    pub fn new(entries: &[(usize, usize)], dims: &[usize]) -> Self {
        let block = |d: usize| {
            entries
                .iter()
                .filter(|e| e.0 == d && e.1 > 0)
                .map(|e| e.1)
                .product::<usize>()
        };
        let padded: Vec<usize> = dims
            .iter()
            .enumerate()
            .map(|(d, &n)| n.div_ceil(block(d)) * block(d))
            .collect();
        let extents: Vec<usize> = entries
            .iter()
            .map(|&(d, s)| if s == 0 { padded[d] / block(d) } else { s })
            .collect();
        let storage_len = extents.iter().product();
        Self {
            extents,
            entries: entries.to_vec(),
            padded,
            storage_len,
        }
    }

    pub fn offset(&self, index: &[usize]) -> usize {
        let n = self.entries.len();
        let mut offset = 0;
        for i in 0..n {
            let d = self.entries[i].0;
            let below: usize = (i + 1..n)
                .filter(|&l| self.entries[l].0 == d)
                .map(|l| self.extents[l])
                .product();
            let digit = index[d] / below % self.extents[i];
            let stride: usize = self.extents[i + 1..].iter().product();
            offset += digit * stride;
        }
        offset
    }
}

/// The entries of a chunked layout type as `(dim, size)` pairs.
pub fn entries_of<const R: usize, C: ChunkList>() -> Vec<(usize, usize)> {
    ChunkedMemoryLayout::<R, C>::ENTRIES
        .iter()
        .map(|e| (e.dim, e.size))
        .collect()
}

/// A chunked layout type, seen through its rank and chunk list (so tests can name catalog
/// aliases and still reach the list).
pub trait Chunked<const R: usize> {
    /// Runs [`check_chunked`] for this layout.
    fn check(dims: [usize; R]);
}

/// The checks concern the chunk list, whatever the axes are called.
impl<const R: usize, C: ChunkList, N: tensor_layout::axes::AxisNames> Chunked<R>
    for ChunkedMemoryLayout<R, C, N>
{
    fn check(dims: [usize; R]) {
        check_chunked::<R, C>(dims)
    }
}

/// Checks every promise of a chunked mapping on `dims`: offsets agree with the reference, are a
/// bijection onto the non-padding slots, memory-order walks and chunks cover what they should,
/// and row-major data and relayout round-trip with zero padding.
pub fn check_chunked<const R: usize, C: ChunkList>(dims: [usize; R]) {
    type L<const R: usize, C> = ChunkedMemoryLayout<R, C>;
    let name = L::<R, C>::default().to_string();
    let m = Mapping::<L<R, C>>::new(dims).unwrap();
    let reference = Reference::new(&entries_of::<R, C>(), &dims);
    assert_eq!(
        m.storage_len(),
        reference.storage_len,
        "{name} {dims:?}: storage length"
    );
    assert_eq!(
        m.padded_dims().as_ref(),
        &reference.padded[..],
        "{name} {dims:?}: padded dims"
    );
    assert_eq!(m.padded_dims().volume(), Some(m.storage_len()));

    // Offsets: equal to the reference, in range, distinct, inverted by index_of.
    let mut seen = HashSet::new();
    for index in RowMajorIndices::new(dims) {
        let offset = m.offset(index);
        assert_eq!(
            offset,
            reference.offset(&index),
            "{name} {dims:?}: offset of {index:?}"
        );
        assert!(
            offset < m.storage_len(),
            "{name} {dims:?}: {index:?} -> {offset} out of storage"
        );
        assert!(
            seen.insert(offset),
            "{name} {dims:?}: offset {offset} used twice"
        );
        assert_eq!(m.index_of(offset), Some(index));
        assert_eq!(m.checked_offset(index), Some(offset));
    }
    assert_eq!(seen.len(), m.len());
    for offset in 0..m.storage_len() {
        assert_eq!(
            m.is_padding(offset),
            !seen.contains(&offset),
            "{name} {dims:?}: slot {offset}"
        );
    }

    // Padding ranges are exactly the unused slots.
    let mut padding = 0;
    m.for_each_padding(|range| {
        assert!(range.clone().all(|o| !seen.contains(&o)));
        padding += range.len();
    });
    assert_eq!(
        padding,
        m.storage_len() - m.len(),
        "{name} {dims:?}: padding count"
    );

    // Memory-order runs visit each logical element once, in increasing offset order.
    let mut last = None;
    let mut visited = 0;
    m.for_each_run(|run| {
        let mut index = run.index;
        for j in 0..run.len {
            let offset = run.offset + j * run.stride;
            assert_eq!(m.offset(index), offset);
            assert!(last.is_none_or(|l| l < offset));
            last = Some(offset);
            index[run.dim] += run.step;
            visited += 1;
        }
    });
    assert_eq!(visited, m.len());

    // Chunks tile the storage; each starts at its origin's offset.
    let t = Tensor::<u32, L<R, C>>::from_fn(dims, |i| {
        i.iter()
            .fold(7u32, |h, &x| h.wrapping_mul(31).wrapping_add(x as u32))
    });
    let volume = L::<R, C>::CHUNK_VOLUME;
    assert_eq!(m.chunk_volume(), volume);
    let mut chunk_count = 0;
    for chunk in t.chunks() {
        assert_eq!(chunk.data.len(), volume);
        let offset = m.offset(chunk.index);
        assert_eq!(
            offset,
            chunk_count * volume,
            "{name} {dims:?}: chunk {chunk_count}"
        );
        assert_eq!(chunk.data[0], t[chunk.index]);
        chunk_count += 1;
    }
    assert_eq!(chunk_count * volume, m.storage_len());

    // Row-major round trip; padding zero; relayout to flat and back.
    let data = t.to_row_major();
    let back = Tensor::<u32, L<R, C>>::from_row_major(dims, &data).unwrap();
    assert_eq!(
        back.as_raw(),
        t.as_raw(),
        "{name} {dims:?}: from_row_major(to_row_major)"
    );
    for (offset, value) in t.as_raw().iter().enumerate() {
        if !seen.contains(&offset) {
            assert_eq!(*value, 0, "{name} {dims:?}: padding slot {offset}");
        }
    }
    let iterated: Vec<u32> = t.iter().copied().collect();
    assert_eq!(iterated, data);
}

/// A valid chunk list: ranks 1 to 6, up to 12 entries, block sizes 1 to 64; the rest entries
/// in a random order, then the fixed ones in a random order.
pub fn chunk_list() -> impl Strategy<Value = (usize, Vec<ChunkEntry>)> {
    (1usize..=6).prop_flat_map(|rank| (Just(rank), chunk_list_of_rank(rank)))
}

/// A valid chunk list of the given rank (see [`chunk_list`]).
pub fn chunk_list_of_rank(rank: usize) -> impl Strategy<Value = Vec<ChunkEntry>> {
    let rests = Just((0..rank).collect::<Vec<_>>()).prop_shuffle();
    let fixed = prop::collection::vec((0..rank, 1usize..=64), 0..=(12 - rank));
    (rests, fixed).prop_map(|(rests, fixed)| {
        let mut entries: Vec<ChunkEntry> = rests
            .into_iter()
            .map(|dim| ChunkEntry { dim, size: 0 })
            .collect();
        entries.extend(
            fixed
                .into_iter()
                .map(|(dim, size)| ChunkEntry { dim, size }),
        );
        entries
    })
}

/// Storage slots of a chunk list on `dims` (each dim padded to its blocks' product), `None`
/// on overflow.
pub fn storage_slots(entries: &[ChunkEntry], dims: &[usize]) -> Option<usize> {
    let block = |d: usize| {
        entries
            .iter()
            .filter(|e| e.dim == d && e.size > 0)
            .map(|e| e.size)
            .product::<usize>()
    };
    dims.iter().enumerate().try_fold(1usize, |acc, (d, &n)| {
        acc.checked_mul(n.div_ceil(block(d)) * block(d))
    })
}
