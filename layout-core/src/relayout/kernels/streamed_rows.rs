//! Row copies into a far destination whose rows fill cache lines (one 64-byte or two 32-byte
//! rows to a line), each line streamed where aligned ([`Register::stream_line`]).

use super::prefetch::prefetch;
use super::register::Register;
use super::row_blocks::RowBlock;
use bytemuck::Pod;

/// The rows of `block` (each `(from, to)`: `src[s + from..]` into `dst[d + to..]`) through
/// registers `R`, 64 bytes each where `lines`, else 32 (two to a line where listed rows `2k` and
/// `2k + 1` are side by side). Pairs of 32-byte rows prefetch their source `ahead` elements on
/// (0: not): rows far apart (u8 crouton->flat, f32 nChw8c->nChw16c) make more streams than the
/// hardware prefetcher follows.
///
/// # Safety
///
/// Each row's 64 (or 32) bytes lie inside both slices; the CPU runs `R`'s instructions.
#[inline(always)]
pub(crate) unsafe fn copy<E: Pod, R: Register>(
    block: RowBlock<'_, E>,
    rows: &[(usize, usize)],
    lines: bool,
    ahead: usize,
) {
    let RowBlock { dst, d, src, s, .. } = block;
    // Elements a register, and registers a row.
    let per = R::BYTES / size_of::<E>();
    let row = if lines { 64 / R::BYTES } else { 32 / R::BYTES };
    if lines {
        for &(from, to) in rows {
            let mut line = R::zero_line();
            for (i, register) in line.as_mut().iter_mut().enumerate() {
                // SAFETY: the row's registers lie inside `src` (the caller's promise).
                *register = unsafe { R::load(src, s + from + i * per) };
            }
            // SAFETY: the row's 64 bytes lie inside `dst` (the caller's promise).
            unsafe { R::stream_line(dst, d + to, &line) };
        }
        return;
    }
    let mut pairs = rows.chunks_exact(2);
    for pair in &mut pairs {
        let ((low_from, low_to), (high_from, high_to)) = (pair[0], pair[1]);
        if ahead != 0 {
            prefetch(src, s + low_from + ahead);
            prefetch(src, s + high_from + ahead);
        }
        let mut line = R::zero_line();
        let registers = line.as_mut();
        for (k, from) in [low_from, high_from].into_iter().enumerate() {
            for i in 0..row {
                // SAFETY: both rows' registers lie inside `src` (the caller's promise).
                registers[k * row + i] = unsafe { R::load(src, s + from + i * per) };
            }
        }
        if high_to == low_to + row * per {
            // SAFETY: the line's 64 bytes are the two rows, inside `dst` (the caller's promise).
            unsafe { R::stream_line(dst, d + low_to, &line) };
            continue;
        }
        for (k, to) in [low_to, high_to].into_iter().enumerate() {
            for i in 0..row {
                // SAFETY: both rows' registers lie inside `dst` (the caller's promise).
                unsafe { R::store(dst, d + to + i * per, registers[k * row + i]) };
            }
        }
    }
    for &(from, to) in pairs.remainder() {
        for i in 0..row {
            // SAFETY: as above, for one row.
            unsafe { R::store(dst, d + to + i * per, R::load(src, s + from + i * per)) };
        }
    }
}
