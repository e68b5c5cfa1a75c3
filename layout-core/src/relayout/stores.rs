//! How the vector transpose blocks write their registers: plain unaligned stores, and
//! non-temporal ("streaming") stores of whole aligned cache lines, which skip reading the line
//! and leave the caches alone. Where a block's lines are a pitch apart ([`Lines::pitch`]), one
//! test of the first line decides alignment for all, so the stores go out with no branch per line.

use super::lines::{DST, Lines};
use super::tuning::CACHE_LINE;
use bytemuck::Pod;

/// Writes `register` to `dst` from element `at`, unaligned, through the caches.
///
/// # Safety
///
/// `at + size_of::<R>() / size_of::<E>() <= dst.len()`; the CPU runs stores of `R` (SSE2 for
/// `__m128i`, AVX for `__m256i`, AVX-512 F for `__m512i`).
#[inline(always)]
pub(crate) unsafe fn store<E: Pod, R>(dst: &mut [E], at: usize, register: R) {
    debug_assert!(
        at + size_of::<R>() / size_of::<E>() <= dst.len(),
        "a line inside the slice"
    );
    // SAFETY: the bytes from `at` lie inside `dst` (the caller's promise), exclusively borrowed.
    unsafe {
        dst.as_mut_ptr()
            .add(at)
            .cast::<R>()
            .write_unaligned(register)
    };
}

/// Writes the `P` registers of `line` back to back to `dst` from element `at`: by
/// `stream_store` when they are one whole aligned cache line, else through the caches.
///
/// # Safety
///
/// `at + P * size_of::<R>() / size_of::<E>() <= dst.len()`; the CPU runs `stream_store` and
/// stores of `R`.
#[inline(always)]
pub(crate) unsafe fn store_line<E: Pod, R: Copy, const P: usize>(
    dst: &mut [E],
    at: usize,
    line: &[R; P],
    stream_store: unsafe fn(*mut R, R),
) {
    let whole = P * size_of::<R>() == CACHE_LINE && on_cache_line(dst, at);
    // SAFETY: passed on from the caller.
    unsafe { write_line(dst, at, line, whole, stream_store) };
}

/// Writes each `lines[k]` as [`store_line`] does from element `at + rows.at(from + k)`, streamed
/// only where `stream` (alignment tested once where a pitch keeps every line alike).
///
/// # Safety
///
/// Each line's `P * size_of::<R>()` bytes lie inside `dst`; with `stream`, they are 64 bytes;
/// the CPU runs `stream_store` and stores of `R`.
#[inline(always)]
pub(crate) unsafe fn store_lines<E: Pod, R: Copy, L: Lines<DST>, const P: usize>(
    dst: &mut [E],
    at: usize,
    rows: L,
    from: usize,
    lines: &[[R; P]],
    stream: bool,
    stream_store: unsafe fn(*mut R, R),
) {
    debug_assert!(
        !stream || P * size_of::<R>() == CACHE_LINE,
        "streamed lines are cache lines"
    );
    // SAFETY (both arms): each line lies inside `dst` (the caller's promise) and is streamed
    // only when it starts on 64 bytes: tested per line, or for the first where the pitch keeps
    // every line alike.
    unsafe {
        match rows.pitch() {
            Some(pitch) if stream && (pitch * size_of::<E>()).is_multiple_of(CACHE_LINE) => {
                let first = at + rows.at(from);
                if on_cache_line(dst, first) {
                    write_pitched(dst, first, pitch, lines, true, stream_store);
                } else {
                    write_pitched(dst, first, pitch, lines, false, stream_store);
                }
            }
            _ => {
                for (k, line) in lines.iter().enumerate() {
                    let to = at + rows.at(from + k);
                    let whole = stream && on_cache_line(dst, to);
                    write_line(dst, to, line, whole, stream_store);
                }
            }
        }
    }
}

/// `sfence`, at the end of every kernel call that streamed: orders this thread's streaming
/// stores before anything it writes or publishes next (not under Miri: plain writes there).
#[inline(always)]
pub(crate) fn end_streaming() {
    #[cfg(not(miri))]
    // SAFETY: SSE2 (`sfence`) is part of every x86-64 CPU; this module is built for them only.
    unsafe {
        core::arch::x86_64::_mm_sfence()
    };
}

/// Whether element `at` of `dst` starts a cache line, as a streaming store of a line needs.
#[inline(always)]
fn on_cache_line<E>(dst: &[E], at: usize) -> bool {
    dst.as_ptr()
        .wrapping_add(at)
        .addr()
        .is_multiple_of(CACHE_LINE)
}

/// `at` unchanged, through an empty assembly block kept in order with the memory accesses
/// around it, so each line's offset is one add after the previous store: else LLVM computes the
/// offsets ahead and spills them, losing what [`Pitch`](super::lines::Pitch) gains (as it does
/// past `black_box` or `nomem` assembly). Under Miri `at` passes as it is.
#[inline(always)]
#[cfg_attr(miri, allow(unused_mut))] // the assembly that writes it is not built under Miri
fn after_stores(mut at: usize) -> usize {
    #[cfg(not(miri))]
    // SAFETY: the assembly is empty: it touches no memory or stack and keeps flags and register.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) at, options(nostack, preserves_flags));
    }
    at
}

/// Writes `lines[k]` to `dst` from element `first + k * pitch`, all streamed or none.
///
/// # Safety
///
/// As [`write_line`] for each line.
#[inline(always)]
unsafe fn write_pitched<E: Pod, R: Copy, const P: usize>(
    dst: &mut [E],
    first: usize,
    pitch: usize,
    lines: &[[R; P]],
    stream: bool,
    stream_store: unsafe fn(*mut R, R),
) {
    let mut to = first;
    for line in lines {
        let at = after_stores(to);
        // SAFETY: passed on from the caller.
        unsafe { write_line(dst, at, line, stream, stream_store) };
        to = at + pitch;
    }
}

/// `v`'s registers as lines of one register each (for [`store_lines`]).
#[inline(always)]
pub(crate) fn one_per_line<R: Copy, const N: usize>(v: [R; N]) -> [[R; 1]; N] {
    // A loop: a closure is not always inlined into the builds for more CPU features.
    let mut lines = [[v[0]]; N];
    for (line, register) in lines.iter_mut().zip(v) {
        *line = [register];
    }
    lines
}

/// Writes the registers of `line` back to back from element `at`, by `stream_store` if `stream`.
///
/// # Safety
///
/// The line's bytes lie inside `dst`, and with `stream` they start on 64 bytes.
#[inline(always)]
unsafe fn write_line<E: Pod, R: Copy, const P: usize>(
    dst: &mut [E],
    at: usize,
    line: &[R; P],
    stream: bool,
    stream_store: unsafe fn(*mut R, R),
) {
    debug_assert!(
        at + P * size_of::<R>() / size_of::<E>() <= dst.len(),
        "a line inside the slice"
    );
    // SAFETY: the line's bytes lie inside `dst` (the caller's promise), exclusively borrowed.
    let to = unsafe { dst.as_mut_ptr().add(at) }.cast::<R>();
    for (i, &register) in line.iter().enumerate() {
        // SAFETY: register `i` goes to bytes `i * size ..` of the line: aligned to its size
        // where the line is on 64 bytes and streamed.
        unsafe { write_register(to.add(i), register, stream, stream_store) };
    }
}

/// Writes `register` to `to`: by the non-temporal `stream_store` when `stream`, else unaligned.
/// Under Miri, which cannot run it, an aligned write with the same requirements stands in.
///
/// # Safety
///
/// `to` is `size_of::<R>()` writable bytes that nothing else accesses meanwhile; with
/// `stream`, aligned as `stream_store` requires, and the CPU runs `stream_store`.
#[inline(always)]
unsafe fn write_register<R>(
    to: *mut R,
    register: R,
    stream: bool,
    stream_store: unsafe fn(*mut R, R),
) {
    if stream {
        #[cfg(not(miri))]
        // SAFETY: passed on from the caller.
        unsafe {
            stream_store(to, register)
        };
        #[cfg(miri)]
        // SAFETY: `to` is aligned for `R` (the instructions' alignment is the register's size).
        unsafe {
            let _ = stream_store;
            to.write(register)
        };
    } else {
        // SAFETY: writable bytes (the caller's promise); unaligned writes need no alignment.
        unsafe { to.write_unaligned(register) };
    }
}
