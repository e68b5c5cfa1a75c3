//! Advice to the kernel that a large buffer be backed by transparent huge pages (Linux, with
//! the `std` feature): a new tensor of megabytes is written whole right after it is allocated,
//! and each 4 KiB page the first touch brings in costs a fault; a 2 MiB page costs one fault
//! for 512 of them, and fewer TLB entries while the relayout walks the buffer. Elsewhere, and
//! under Miri (which runs no system calls of this kind), nothing is done.

/// Buffers from this size up are advised (NumPy advises its arrays from the same size): below
/// it, the buffer spans too few huge pages for the advice to pay for its system call.
#[cfg_attr(
    not(all(feature = "std", target_os = "linux", not(miri))),
    allow(dead_code)
)]
const ADVISED_FROM: usize = 4 << 20;

/// The huge page size of x86-64 and of aarch64 with 4 KiB pages: the advice covers the part of
/// the buffer made of whole, aligned pages of this size.
#[cfg_attr(
    not(all(feature = "std", target_os = "linux", not(miri))),
    allow(dead_code)
)]
const HUGE_PAGE: usize = 2 << 20;

/// The whole huge pages inside `bytes` bytes from `start`: their first address and their
/// length (zero when there is none, or when the buffer is below [`ADVISED_FROM`]).
#[cfg_attr(
    not(all(feature = "std", target_os = "linux", not(miri))),
    allow(dead_code)
)]
fn whole_pages(start: usize, bytes: usize) -> (usize, usize) {
    if bytes < ADVISED_FROM {
        return (start, 0);
    }
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    (first, end.saturating_sub(first))
}

/// Asks the kernel to back the whole huge pages of the `bytes` bytes at `start` (a buffer this
/// process just allocated) by transparent huge pages. Only advice: where the kernel has them
/// disabled or refuses, the buffer keeps small pages and works the same.
#[cfg(all(feature = "std", target_os = "linux", not(miri)))]
pub(crate) fn advise(start: core::ptr::NonNull<u8>, bytes: usize) {
    let (first, len) = whole_pages(start.as_ptr().addr(), bytes);
    if len == 0 {
        return;
    }
    let first = start.as_ptr().with_addr(first);
    // SAFETY: `first..first + len` lies within the caller's allocation (whole pages inside
    // it), so the advice touches no other memory; MADV_HUGEPAGE changes neither the contents
    // nor the mapping of the range, only how the kernel backs it. The result is ignored: the
    // advice may be refused without harm.
    let _ = unsafe { libc::madvise(first.cast(), len, libc::MADV_HUGEPAGE) };
}

/// Without Linux's `madvise` (or under Miri): nothing to advise.
#[cfg(not(all(feature = "std", target_os = "linux", not(miri))))]
pub(crate) fn advise(_start: core::ptr::NonNull<u8>, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_aligned_pages_of_large_buffers_are_advised() {
        // Below the threshold: nothing, aligned or not.
        assert_eq!(whole_pages(HUGE_PAGE, ADVISED_FROM - 1).1, 0);
        // Aligned at both ends: all of it.
        assert_eq!(
            whole_pages(HUGE_PAGE, 3 * HUGE_PAGE),
            (HUGE_PAGE, 3 * HUGE_PAGE)
        );
        // Ragged at both ends: the pages strictly inside.
        let start = HUGE_PAGE + 128;
        assert_eq!(
            whole_pages(start, 3 * HUGE_PAGE),
            (2 * HUGE_PAGE, 2 * HUGE_PAGE)
        );
        // The smallest advised size, ragged: the one page it holds whole.
        assert_eq!(
            whole_pages(HUGE_PAGE + 128, ADVISED_FROM),
            (2 * HUGE_PAGE, HUGE_PAGE)
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "the advice is not given under Miri")]
    fn advised_buffers_keep_their_contents() {
        // 6 MiB, ragged: the advice covers its whole pages and changes no byte.
        let mut buffer = alloc::vec![7u8; 6 << 20];
        buffer[3 << 20] = 9;
        let start = core::ptr::NonNull::new(buffer.as_mut_ptr()).unwrap();
        advise(start, buffer.len());
        assert_eq!(buffer[3 << 20], 9);
        assert_eq!(buffer.iter().filter(|&&b| b == 7).count(), (6 << 20) - 1);
    }
}
