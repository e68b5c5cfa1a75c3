//! A hint to the CPU to bring a cache line in.

/// Asks the CPU to bring the cache line holding `slots[at]` into its caches, if `at` is inside
/// `slots` (a hint: nothing is read, nothing can fault): the SSE prefetch instruction on
/// x86-64 (part of every x86-64 CPU), nothing elsewhere or under Miri, which cannot run it.
#[inline(always)]
pub(crate) fn prefetch<T>(slots: &[T], at: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse", not(miri)))]
    if at < slots.len() {
        // SAFETY: `at` is inside `slots`, so the pointer stays inside its allocation; a
        // prefetch reads nothing, and SSE is enabled (`target_feature = "sse"`).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                slots.as_ptr().add(at).cast(),
            )
        };
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse", not(miri))))]
    let _ = (slots, at);
}
