//! How the vector transpose blocks (SSE2, AVX2, AVX-512) write their registers: plain
//! unaligned stores, and non-temporal ("streaming") stores of whole cache lines, which skip
//! reading the line first and leave the caches' other contents in place.
//!
//! A streaming store needs a line aligned to 64 bytes. Where a block's lines are a pitch apart
//! ([`Lines::pitch`]), one test of the first line decides for the whole block and the stores
//! go out in one straight run, with no test and branch per line between them to hold them up.

use super::lines::Lines;
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
    // SAFETY: the bytes from `at` lie inside `dst` (the caller's promise), exclusively
    // borrowed; an unaligned write needs no alignment.
    unsafe {
        dst.as_mut_ptr()
            .add(at)
            .cast::<R>()
            .write_unaligned(register)
    };
}

/// Writes the `P` registers of `line` back to back to `dst` from element `at`: past the caches
/// by `stream_store` when they are one whole cache line (`P * size_of::<R>() == 64`, aligned
/// to 64 bytes), else through them.
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

/// Writes `lines[k]` (`P` registers each, back to back) to `dst` from element
/// `at + rows.at(from + k)` for every `k`: past the caches by `stream_store` where `stream`
/// and that line is one whole aligned cache line (tested once for a pitch that keeps every
/// line alike: module docs), else through them.
///
/// # Safety
///
/// Each line's `P * size_of::<R>()` bytes lie inside `dst`; with `stream`, they are 64 bytes;
/// the CPU runs `stream_store` and stores of `R`.
#[inline(always)]
pub(crate) unsafe fn store_lines<E: Pod, R: Copy, L: Lines, const P: usize>(
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
    // SAFETY (both arms): each line lies inside `dst` (the caller's promise); a line is
    // streamed only when it starts on a multiple of 64 bytes: tested per line, or for the
    // first line when the pitch keeps every line alike within its cache line.
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
                    write_line(
                        dst,
                        to,
                        line,
                        stream && on_cache_line(dst, to),
                        stream_store,
                    );
                }
            }
        }
    }
}

/// Orders this thread's streaming stores before anything it writes or publishes next
/// (`sfence`): the end of every kernel call that streamed. Under Miri, where the streaming
/// stores are plain writes ([`write_register`]) and `sfence` cannot run, there is nothing to
/// order.
#[inline(always)]
pub(crate) fn end_streaming() {
    #[cfg(not(miri))]
    // SAFETY: SSE2 (`sfence`) is part of every x86-64 CPU; this module is built for them only.
    unsafe {
        core::arch::x86_64::_mm_sfence()
    };
}

/// Whether element `at` of `dst` starts a cache line (its address a multiple of 64), as a
/// streaming store of a whole line needs.
#[inline(always)]
fn on_cache_line<E>(dst: &[E], at: usize) -> bool {
    dst.as_ptr()
        .wrapping_add(at)
        .addr()
        .is_multiple_of(CACHE_LINE)
}

/// `at` unchanged, through an empty assembly block that LLVM must keep in order with the
/// memory accesses around it, so that each line's offset is one add after the previous store.
/// Otherwise LLVM computes a block's line offsets ahead, spills them to the stack and reloads
/// them between the streaming stores, losing what [`Pitch`](super::lines::Pitch) gains
/// (`black_box`, or assembly marked as touching no memory, still lets it). Miri runs no
/// assembly: there the value passes as it is.
#[inline(always)]
#[cfg_attr(miri, allow(unused_mut))] // the assembly that writes it is not built under Miri
fn after_stores(mut at: usize) -> usize {
    #[cfg(not(miri))]
    // SAFETY: the assembly is empty: it reads and writes nothing, uses no stack, keeps the
    // flags and leaves the register as it was.
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
    // A loop, not `array::map` with a closure, which LLVM does not always inline into the
    // builds for more CPU features.
    let mut lines = [[v[0]]; N];
    for (line, register) in lines.iter_mut().zip(v) {
        *line = [register];
    }
    lines
}

/// Writes the registers of `line` back to back from element `at`, by `stream_store` when
/// `stream`.
///
/// # Safety
///
/// As [`write_register`] for each register: the line's bytes lie inside `dst`, and with
/// `stream` they start aligned to 64 bytes.
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
        // SAFETY: register `i` goes to bytes `i * size .. (i + 1) * size` of the line, aligned
        // to the register's size when the line is aligned to 64 bytes and streamed.
        unsafe { write_register(to.add(i), register, stream, stream_store) };
    }
}

/// Writes `register` to `to`: by `stream_store`, a non-temporal store, when `stream`, else by a
/// plain unaligned write. Miri runs no such instruction (inline assembly): there an aligned
/// write of the same register, with the same requirements, stands in for it.
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
