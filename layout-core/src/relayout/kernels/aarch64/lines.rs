//! How the NEON kernels read and write their 128-bit registers: unaligned loads and stores, and
//! whole 64-byte cache lines written with `stnp`, the non-temporal store pair, where the
//! destination is past the caches.
//!
//! `stnp` hints that the data will not be read again soon, so the CPU may write the line
//! without allocating it; `core::arch::aarch64` has no intrinsic for it, hence inline assembly.
//! The Arm ARM relaxes only a non-temporal load's address dependency (`ldnp`); `stnp`'s stores
//! are ordered by the same barriers and release stores as any other, so no fence is needed
//! (x86-64 needs `sfence`). Under Miri plain stores write the same bytes.

use bytemuck::Pod;
use core::arch::aarch64::{uint8x16_t, vld1q_u8, vst1q_u8};

use crate::relayout::tuning::CACHE_LINE;

/// The 16 bytes of `src` from element `at`, read unaligned into a register.
///
/// # Safety
///
/// `at + 16 / size_of::<E>() <= src.len()`.
#[inline(always)]
pub(crate) unsafe fn load<E: Pod>(src: &[E], at: usize) -> uint8x16_t {
    debug_assert!(at + 16 / size_of::<E>() <= src.len(), "inside the slice");
    // SAFETY: the 16 bytes from `at` are inside `src` (caller's promise); `ld1` needs no alignment.
    unsafe { vld1q_u8(src.as_ptr().add(at).cast()) }
}

/// Writes `register` to `dst` from element `at`, unaligned, through the caches.
///
/// # Safety
///
/// `at + 16 / size_of::<E>() <= dst.len()`.
#[inline(always)]
pub(crate) unsafe fn store<E: Pod>(dst: &mut [E], at: usize, register: uint8x16_t) {
    debug_assert!(at + 16 / size_of::<E>() <= dst.len(), "inside the slice");
    // SAFETY: the 16 bytes from `at` lie inside `dst` (the caller's promise), exclusively
    // borrowed; `st1` of bytes needs no alignment.
    unsafe { vst1q_u8(dst.as_mut_ptr().add(at).cast(), register) }
}

/// Writes the four registers of `line` back to back to `dst` from element `at`: by two `stnp`
/// where `at` starts a cache line, else through the caches.
///
/// # Safety
///
/// `at + 64 / size_of::<E>() <= dst.len()`.
#[inline(always)]
pub(crate) unsafe fn write_line<E: Pod>(dst: &mut [E], at: usize, line: &[uint8x16_t; 4]) {
    let per_register = 16 / size_of::<E>();
    debug_assert!(at + 4 * per_register <= dst.len(), "inside the slice");
    let address = dst.as_ptr().wrapping_add(at).addr();
    if address.is_multiple_of(CACHE_LINE) {
        // SAFETY: the line's 64 bytes lie inside `dst` (the caller's promise), exclusively
        // borrowed, and start on a 64-byte boundary (just checked).
        unsafe {
            let to = dst.as_mut_ptr().add(at).cast::<u8>();
            store_pair_past_caches(to, line[0], line[1]);
            store_pair_past_caches(to.add(32), line[2], line[3]);
        }
        return;
    }
    for (i, &register) in line.iter().enumerate() {
        // SAFETY: register `i` fills elements `at + i * per_register ..` of the line, inside
        // `dst` (the caller's promise).
        unsafe { store(dst, at + i * per_register, register) };
    }
}

/// `stnp`: writes `low` then `high` to the 32 bytes at `to`, non-temporal. Under Miri, which
/// runs no assembly, two plain unaligned writes of the same bytes.
///
/// # Safety
///
/// `to` is 32 writable bytes that nothing else accesses meanwhile.
#[inline(always)]
unsafe fn store_pair_past_caches(to: *mut u8, low: uint8x16_t, high: uint8x16_t) {
    #[cfg(not(miri))]
    // SAFETY: `stnp` writes only the 32 bytes at `to` (writable and unshared: the caller's
    // promise) and needs no alignment on normal memory; no stack, flags kept; not `nomem`, so
    // the compiler keeps it in order with the memory accesses around it.
    unsafe {
        core::arch::asm!(
            "stnp {low:q}, {high:q}, [{to}]",
            to = in(reg) to,
            low = in(vreg) low,
            high = in(vreg) high,
            options(nostack, preserves_flags),
        );
    }
    #[cfg(miri)]
    // SAFETY: as above; unaligned writes need no alignment.
    unsafe {
        to.cast::<uint8x16_t>().write_unaligned(low);
        to.add(16).cast::<uint8x16_t>().write_unaligned(high);
    }
}
