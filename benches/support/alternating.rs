//! Timing for the benches whose calls alternate (each sample one call, the contenders in turn,
//! medians compared): `benches/relayout_interleaved.rs` (the library and memcpy) and
//! `peer-onednn` (the library, oneDNN and memcpy).

use std::time::{Duration, Instant};

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

/// How long `f` takes.
pub fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}
