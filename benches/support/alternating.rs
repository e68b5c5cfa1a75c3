//! Timing for the benches whose calls alternate (each sample one call, the contender and
//! memcpy in turn, medians compared): `benches/relayout_interleaved.rs` (the library, the Rust
//! peers) and `peer-onednn` (the library, oneDNN, the Rust peers).
//!
//! Each contender alternates with a memcpy of its own rounds, and its ratio is to that memcpy:
//! a contender that writes through the caches leaves them full of its lines, which whatever
//! runs next pays to write back. With the library, three Rust peers and memcpy in one round,
//! memcpy after the peers ran at 40-43 GB/s, after the library alone at 51-54 GB/s, and the
//! library's ratio followed what the peers did (f32 8x256x3136x1 nchw->nhwc, the same plan and
//! bytes as 8x256x56x56, at 0.72-0.78 against 0.84-0.95; AMD EPYC, 2026-11-26).

use std::time::{Duration, Instant};
// The library's aligned buffer, named by the including crate (its path moved between versions
// that the A/B driver builds against).
use super::AlignedBuffer;

/// Calls per pair: enough for about 2 GiB moved by each contender, at least 21, at most 2001
/// (an odd count, so the median is one call's time).
pub fn calls_for(bytes: usize) -> usize {
    ((2usize << 30) / bytes.max(1)).clamp(21, 2001) | 1
}

/// The median of `times`.
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// A contender's speed as a ratio to memcpy's, from [`with_memcpy`]'s times: memcpy's median
/// over the contender's (above 1 faster).
pub fn ratio((times, copies): (Vec<Duration>, Vec<Duration>)) -> f64 {
    median(copies).as_secs_f64() / median(times).as_secs_f64()
}

/// memcpy's source (every byte 1) and destination (every byte 0), `bytes` each, allocated as a
/// tensor's storage is: aligned, and on Linux backed by huge pages from 4 MiB on, as the
/// library's tensors are (and NumPy's arrays), which on this machine makes copies of tens of
/// megabytes far faster; a `Vec` of the same bytes would make memcpy the slower side of every
/// ratio for a reason that is not the copying.
pub fn memcpy_buffers(bytes: usize) -> (AlignedBuffer<u8>, AlignedBuffer<u8>) {
    let filled = |value| AlignedBuffer::filled(bytes, value).expect("memcpy's buffers fit");
    (filled(1), filled(0))
}

/// How long `f` takes.
pub fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// Times `calls` rounds of `contender` followed by a memcpy of `from` into `into`: the
/// contender's times and the memcpy's. A contender that times its own calls (several peers
/// a round) returns nothing of use in the first list.
pub fn with_memcpy(
    calls: usize,
    from: &[u8],
    into: &mut [u8],
    mut contender: impl FnMut(),
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut times, mut copies) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    for _ in 0..calls {
        times.push(timed(&mut contender));
        copies.push(timed(|| {
            std::hint::black_box(&mut *into).copy_from_slice(std::hint::black_box(from))
        }));
    }
    (times, copies)
}
