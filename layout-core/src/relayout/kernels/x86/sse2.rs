//! SSE2 transpose blocks for the plain 1-, 2- and 4-byte element types, on every x86-64 CPU
//! (no run-time detection).
//!
//! LLVM turns the portable tile ([`Portable`](super::super::tiles::Portable)) into one scalar
//! move per element; these blocks move 16 bytes per instruction instead. The blocks
//! (micro-blocks of `N` source lines, one 128-bit register each, transposed by the perfect
//! shuffle) are written once for every ISA in [`micro_blocks`](super::super::micro_blocks);
//! this module supplies the SSE2 register and its interleaves (`unpacklo`/`unpackhi`, in
//! [`super::shuffle`]).
//!
//! Only plain element types take this path: types whose every bit pattern is a valid value,
//! viewed as the unsigned integers of their size ([`by_size`](crate::relayout::by_size)); any
//! other type keeps the portable tile.

use super::super::micro_blocks::Blocks128;
use super::super::register::{Lanes, Register128, register};
use super::shuffle::{Interleave, load_register};
use crate::relayout::stores::{store, store_line};
use core::arch::x86_64::{__m128i, _mm_stream_si128};

/// Blocks moved through SSE2 registers; with `STREAM`, whole aligned destination lines are
/// written by non-temporal stores (no read of the line first, no eviction of the cache's other
/// contents).
pub(crate) type Sse2<const STREAM: bool> = Blocks128<__m128i, STREAM>;

/// An unsigned integer that fills a 128-bit register `LANES` times, with its SSE2
/// interleaves.
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
