//! Chunk tables whose chunks lie apart in memory: for the chunk-table tests and bench.

use tensor_layout::prelude::*;
use tensor_layout::quantized::Interface;

/// The chunks of `t`'s storage, each in its own allocation, made last chunk first with other
/// allocations between them, so that their addresses are neither consecutive nor in chunk
/// order: a chunk table as a runtime's pool might hand it out.
pub fn scattered_chunks<L: Layout<Index = [usize; 4]>, I: Interface>(
    t: &Tensor<u8, L, I>,
) -> Vec<Box<[u8]>> {
    let volume = t.mapping().chunk_volume();
    let count = t.storage_len() / volume;
    let mut keep_apart = Vec::new();
    let mut table: Vec<Option<Box<[u8]>>> = (0..count).map(|_| None).collect();
    for n in (0..count).rev() {
        keep_apart.push(vec![0u8; 5 * n + 3]);
        table[n] = Some(t.as_raw()[n * volume..(n + 1) * volume].into());
    }
    table.into_iter().map(Option::unwrap).collect()
}
