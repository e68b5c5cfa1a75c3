//! A hint to the CPU to bring a cache line in.

/// Asks the CPU to bring the cache line holding `slots[at]` into its caches (a hint: nothing
/// is read and nothing can fault, so `at` may lie past the end of `slots`, as the prefetches
/// for the lines after a tile's last ones do): the SSE prefetch instruction on x86-64 (part of
/// every x86-64 CPU), nothing elsewhere or under Miri, which cannot run it. No bounds check: a
/// transpose asks for a line per source column and block.
#[inline(always)]
pub(crate) fn prefetch<T>(slots: &[T], at: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse", not(miri)))]
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address; the pointer is
    // formed with `wrapping_add` (no claim that it stays inside the allocation) and never
    // dereferenced. SSE is enabled (`target_feature = "sse"`).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            slots.as_ptr().wrapping_add(at).cast(),
        )
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse", not(miri))))]
    let _ = (slots, at);
}
