//! The aarch64 vector kernels of the plain unit types: transposes in NEON blocks (1-, 2- and
//! 4-byte units, [`neon`]), and row copies whose rows fill whole cache lines written past the
//! caches with `stnp` (all four sizes: the shared
//! [`streamed_rows::copy`](super::streamed_rows::copy) through the NEON register).
//!
//! NEON is part of every aarch64 CPU that runs a general-purpose OS (rustc's aarch64 targets
//! enable it), so nothing is detected at run time; the module is compiled for little-endian
//! aarch64 with `target_feature = "neon"`. Row copies through the caches stay portable:
//! `rows::copy_rows` copies its common row lengths as constants, which LLVM already compiles
//! to `ldp`/`stp` of 128-bit registers on aarch64 (benches/asm_counts.sh shows it), so a NEON
//! build of them would add code and no wider move.
//!
//! Miri runs these kernels when it interprets an aarch64 build (`--target
//! aarch64-unknown-linux-gnu`): their intrinsics are plain loads, stores and shuffles, and the
//! `stnp` assembly has a stand-in under Miri ([`lines`]). It cannot run them in an x86-64
//! build, where the module is not compiled.

mod lines;
mod neon;
#[cfg(layout_asm_probes)]
mod probes;

use super::element::Element;
use super::element::StreamRows;
use super::narrow::{Cached, narrow_transpose};
use super::streamed_rows;
use super::streamed_tiles::blocks_write_whole_lines;
use super::tiles;
use super::transposes::Transposes;
use core::arch::aarch64::uint8x16_t;
use core::mem::MaybeUninit;
use neon::{Block, Neon};

/// The plain integers' vector kernels: transposes in NEON blocks (where `$transposes`), rows
/// of whole lines streamed past the caches.
macro_rules! vector_element {
    ($($int:ty: $transposes:tt),*) => {$(
        impl Element for $int {
            vector_transpose!($transposes);

            fn row_streams() -> Option<StreamRows<Self>> {
                Some(streamed_rows::copy::<Self, uint8x16_t>)
            }
        }
    )*};
}

/// [`Element::vector_transpose`] by [`transpose_as`], for the types with NEON blocks.
macro_rules! vector_transpose {
    (true) => {
        fn vector_transpose(t: Transposes<'_, Self>, stream: bool) -> bool {
            transpose_as(t, stream);
            true
        }
    };
    (false) => {};
}

vector_element!(u8: true, u16: true, u32: true, u64: false);

// Any other element type of those sizes (not plain: bytes copied as they are) moves by the
// portable kernels.
impl Element for MaybeUninit<u8> {}
impl Element for MaybeUninit<u16> {}
impl Element for MaybeUninit<u32> {}
impl Element for MaybeUninit<u64> {}

/// `tiles::transpose` of plain elements viewed as the unsigned integers `E` of their size:
/// tiles one to three wide by the portable narrow kernels (the blocks would move them element
/// by element), the others in NEON blocks, streamed where the engine asks for it (`stream`)
/// and the blocks write whole destination lines.
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
