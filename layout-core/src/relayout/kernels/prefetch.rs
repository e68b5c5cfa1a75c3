//! A hint to the CPU to bring a cache line in.

/// Asks the CPU to bring the cache line holding `slots[at]` into its caches: a hint that reads
/// nothing and cannot fault, so `at` goes unchecked and may lie past the end (as after a tile's
/// last lines). The SSE prefetch on x86-64; nothing elsewhere or under Miri, which cannot run it.
#[inline(always)]
pub(crate) fn prefetch<T>(slots: &[T], at: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse", not(miri)))]
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address; the pointer is
    // formed with `wrapping_add` (no in-bounds claim) and never dereferenced. SSE is enabled.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            slots.as_ptr().wrapping_add(at).cast(),
        )
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse", not(miri))))]
    let _ = (slots, at);
}
