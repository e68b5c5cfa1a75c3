//! The aarch64 vector kernels of the plain unit types: transposes in NEON blocks (1-, 2- and
//! 4-byte units, [`neon`]), and row copies of whole cache lines streamed with `stnp` (all four
//! sizes, by [`streamed_rows::copy`]).
//!
//! NEON is part of every aarch64 target rustc has, so nothing is detected at run time; the
//! module is compiled for little-endian aarch64 with `target_feature = "neon"`. Cached row
//! copies stay portable: LLVM already compiles `rows::copy_rows`'s constant row lengths to
//! `ldp`/`stp` of 128-bit registers (benches/asm_counts.sh), so NEON would add no wider move.
//! Miri runs these kernels in an aarch64 build (`stnp` has a stand-in: [`lines`]).

mod lines;
mod neon;
#[cfg(layout_asm_probes)]
mod probes;

use super::element::unit_elements;
use super::narrow::{Cached, narrow_transpose};
use super::streamed_rows;
use super::streamed_tiles::blocks_write_whole_lines;
use super::tiles;
use super::transposes::Transposes;
use core::arch::aarch64::uint8x16_t;
use neon::{Block, Neon};

// The plain integers' NEON kernels (module docs; transposes by [`transpose_as`]); other types
// of those sizes (bytes copied as they are) take the portable kernels.
unit_elements! { [], Some(streamed_rows::copy::<Self, uint8x16_t>), transpose_as }

/// `tiles::transpose` of plain elements as the unsigned integers `E` of their size: tiles one
/// to three wide by the portable narrow kernels, the others in NEON blocks, streamed where
/// `stream` and the blocks write whole destination lines.
fn transpose_as<E: Block>(mut t: Transposes<'_, E>, stream: bool) {
    // SAFETY: plain copies run on any CPU.
    if unsafe { narrow_transpose::<E, Cached>(t.reborrow()) } {
        return;
    }
    // SAFETY (both): NEON runs on every CPU this module is compiled for (see the module docs).
    unsafe {
        if stream && blocks_write_whole_lines::<E>(t.batch) {
            tiles::planes::<E, Neon<true>>(t);
        } else {
            tiles::planes::<E, Neon<false>>(t);
        }
    }
}

#[cfg(test)]
mod tests;
