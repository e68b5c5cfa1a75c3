//! NEON transpose blocks for the plain 1-, 2- and 4-byte element types (as unsigned integers,
//! [`by_size`](crate::relayout::by_size)) where the target has NEON, 16 bytes an instruction
//! where the portable tile moves one: the shared [`micro_blocks`](super::super::micro_blocks)
//! through the NEON register and its interleaves.

use super::super::micro_blocks::Blocks128;
use super::super::register::{Lanes, Register128, interleave_for, register};
use super::super::shuffle::Interleave;
use super::lines::{load, store, write_line};
use core::arch::aarch64::{
    uint8x16_t, vdupq_n_u8, vreinterpretq_u8_u16, vreinterpretq_u8_u32, vreinterpretq_u16_u8,
    vreinterpretq_u32_u8, vst1q_u8, vzip1q_u8, vzip1q_u16, vzip1q_u32, vzip2q_u8, vzip2q_u16,
    vzip2q_u32,
};

/// [`Blocks128`] of NEON registers (streamed: whole aligned lines by `stnp`, past the caches).
pub(crate) type Neon<const STREAM: bool> = Blocks128<uint8x16_t, STREAM>;

/// An unsigned integer that fills a 128-bit register `LANES` times, with its NEON interleaves.
pub(crate) trait Block: Lanes + Interleave<uint8x16_t> {}

impl<E: Lanes + Interleave<uint8x16_t>> Block for E {}

// The NEON interleaves: `zip1` and `zip2` of bytes, 2- and 4-byte lanes.
interleave_for! {
    uint8x16_t:
    u8: vzip1q_u8, vzip2q_u8;
    u16: vzip1q_u16, vzip2q_u16, vreinterpretq_u16_u8, vreinterpretq_u8_u16;
    u32: vzip1q_u32, vzip2q_u32, vreinterpretq_u32_u8, vreinterpretq_u8_u32;
}

// The NEON register: `ld1`/`st1` of 16 bytes, `stnp` pairs for whole lines past the caches.
register! {
    uint8x16_t: 16 bytes,
    // SAFETY: NEON runs on every CPU this module is compiled for (see the module docs).
    zero: unsafe { vdupq_n_u8(0) },
    load: load, store: store, line: write_line,
}

impl Register128 for uint8x16_t {
    #[inline(always)]
    fn bytes(self) -> [u8; 16] {
        let mut bytes = [0; 16];
        // SAFETY: `bytes` is 16 writable bytes.
        unsafe { vst1q_u8(bytes.as_mut_ptr(), self) };
        bytes
    }
}
