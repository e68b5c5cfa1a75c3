//! The NEON blocks, and the portable copy of a 64-byte row, as plain symbols, so that their
//! machine code can be read and counted: `benches/asm_counts.sh` builds layout-core for aarch64
//! with `--cfg layout_asm_probes` (the only build that compiles this module) and counts, in each,
//! the vector loads, permutes and stores, and the loops.

use super::super::rows::row_of;
use super::super::tiles::{BlockLines, BlockMove};
use super::neon::Neon;
use crate::relayout::lines::Pitch;

/// One block of 16 rows by 4 columns of 4-byte elements (f32, moved as `u32`): four 4x4
/// transposes, destination lines `pitch` apart, through the caches.
///
/// # Safety
///
/// Each of `cols` starts a source line of 16 elements inside `src` (at `col.0`); the 16
/// destination lines of 4 elements (at `k * pitch`) lie inside `dst`.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn neon_block_f32_4x4(
    dst: &mut [u32],
    pitch: usize,
    src: &[u32],
    cols: &[(usize, usize); 4],
) {
    // SAFETY: passed on from the caller.
    unsafe {
        <Neon<false> as BlockMove<u32>>::block(dst, BlockLines::new(0, Pitch(pitch), src, 0, cols))
    }
}

/// One 16x16 block of bytes, destination lines `pitch` apart, through the caches.
///
/// # Safety
///
/// Each of `cols` starts a source line of 16 bytes inside `src` (at `col.0`); the 16
/// destination lines of 16 bytes (at `k * pitch`) lie inside `dst`.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn neon_block_u8_16x16(
    dst: &mut [u8],
    pitch: usize,
    src: &[u8],
    cols: &[(usize, usize); 16],
) {
    // SAFETY: passed on from the caller.
    unsafe {
        <Neon<false> as BlockMove<u8>>::block(dst, BlockLines::new(0, Pitch(pitch), src, 0, cols))
    }
}

/// One block of 16 rows by 16 columns of 4-byte elements (sixteen 4x4 transposes), each
/// destination line a whole 64-byte line written with `stnp` where it is aligned.
///
/// # Safety
///
/// Each of `cols` starts a source line of 16 elements inside `src` (at `col.0`); the 16
/// destination lines of 16 elements (at `k * pitch`) lie inside `dst`.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn neon_block_f32_16x16_streamed(
    dst: &mut [u32],
    pitch: usize,
    src: &[u32],
    cols: &[(usize, usize); 16],
) {
    // SAFETY: passed on from the caller.
    unsafe {
        <Neon<true> as BlockMove<u32>>::block(dst, BlockLines::new(0, Pitch(pitch), src, 0, cols))
    }
}

/// The portable copy of one 64-byte row (`rows::copy_rows` for rows of 64 bytes): what LLVM
/// makes of it on aarch64, against which a NEON row copy would have to win.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn portable_row_copy_64_bytes(dst: &mut [u8; 64], src: &[u8; 64]) {
    // SAFETY: both arrays are 64 bytes.
    unsafe { row_of(dst, 0, src, 0, 64) }
}
