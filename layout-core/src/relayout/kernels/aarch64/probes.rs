//! The NEON blocks, and the portable copy of a 64-byte row, as plain symbols whose machine code
//! `benches/asm_counts.sh` counts (it builds for aarch64 with `--cfg layout_asm_probes`, the
//! only build that compiles this module).

use super::super::block_move::{BlockLines, BlockMove};
use super::super::rows::row_of;
use super::neon::Neon;
use crate::relayout::lines::Pitch;

/// Each `$name`: one block of 16 rows by `$cols` columns of `$unit`, through `Neon<$stream>`,
/// its destination lines `pitch` apart.
macro_rules! neon_block_probes {
    ($($(#[doc = $doc:literal])* $name:ident: $unit:ty, $cols:literal, $stream:literal;)+) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        ///
        /// Each of `cols` starts a source line of 16 elements inside `src` (at `col.0`); the 16
        /// destination lines (at `k * pitch`) lie inside `dst`.
        #[unsafe(no_mangle)]
        #[inline(never)]
        pub unsafe fn $name(
            dst: &mut [$unit],
            pitch: usize,
            src: &[$unit],
            cols: &[(usize, usize); $cols],
        ) {
            let block = BlockLines::new(0, Pitch(pitch), src, 0, cols);
            // SAFETY: passed on from the caller.
            unsafe { <Neon<$stream> as BlockMove<$unit>>::block(dst, block) }
        }
    )+};
}

neon_block_probes! {
    /// One block of 16 rows by 4 columns of 4-byte elements: four 4x4 transposes, cached.
    neon_block_f32_4x4: u32, 4, false;
    /// One 16x16 block of bytes, through the caches.
    neon_block_u8_16x16: u8, 16, false;
    /// One 16x16 block of 4-byte elements, each aligned destination line written with `stnp`.
    neon_block_f32_16x16_streamed: u32, 16, true;
}

/// The portable copy of one 64-byte row (`rows::copy_rows`), the baseline a NEON row copy would
/// have to beat.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn portable_row_copy_64_bytes(dst: &mut [u8; 64], src: &[u8; 64]) {
    // SAFETY: both arrays are 64 bytes.
    unsafe { row_of(dst, 0, src, 0, 64) }
}
