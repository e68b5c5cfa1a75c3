//! SSE2 transpose blocks for the plain 1-, 2- and 4-byte element types (as unsigned integers,
//! [`by_size`](crate::relayout::by_size)) on every x86-64 CPU, 16 bytes an instruction where the
//! portable tile moves one: the shared [`micro_blocks`](super::super::micro_blocks) through the
//! SSE2 register, with [`super::shuffle`]'s interleaves (`unpacklo`/`unpackhi`).

use super::super::micro_blocks::Blocks128;
use super::super::register::{Lanes, Register128, register};
use super::shuffle::{Interleave, load_register};
use crate::relayout::stores::{store, store_line};
use core::arch::x86_64::{__m128i, _mm_stream_si128};

/// [`Blocks128`] of SSE2 registers: streamed lines are not read first and evict no other lines.
pub(crate) type Sse2<const STREAM: bool> = Blocks128<__m128i, STREAM>;

/// An unsigned integer that fills a 128-bit register `LANES` times, with its SSE2 interleaves.
pub(crate) trait Block: Lanes + Interleave<__m128i> {}

impl<E: Lanes + Interleave<__m128i>> Block for E {}

// The SSE2 register: `movdqu` loads and stores, `movntdq` for whole lines past the caches.
register! {
    __m128i: 16 bytes, load: load_register, store: store, line: store_line,
    stream: _mm_stream_si128,
}

impl Register128 for __m128i {
    #[inline(always)]
    fn bytes(self) -> [u8; 16] {
        bytemuck::cast(self)
    }
}
