//! One oneDNN reorder primitive with tensors in oneDNN's own buffers (src/reorder.cpp).

use std::ffi::{CString, c_char, c_void};
use std::ptr::NonNull;

#[repr(C)]
struct PeerReorder {
    _opaque: [u8; 0],
}

unsafe extern "C" {
    fn peer_threads(n: i32);
    fn peer_new(
        src_tag: *const c_char,
        dst_tag: *const c_char,
        dims: *const i64,
        ty: *const c_char,
    ) -> *mut PeerReorder;
    fn peer_src(p: *mut PeerReorder) -> *mut c_void;
    fn peer_src_bytes(p: *mut PeerReorder) -> usize;
    fn peer_dst(p: *mut PeerReorder) -> *mut c_void;
    fn peer_dst_bytes(p: *mut PeerReorder) -> usize;
    fn peer_run(p: *mut PeerReorder);
    fn peer_free(p: *mut PeerReorder);
}

/// Makes oneDNN's primitives use `n` threads (OpenMP's count, which otherwise comes from
/// `OMP_NUM_THREADS` as the program starts, or is every core).
pub fn set_threads(n: usize) {
    let n = i32::try_from(n).expect("a thread count");
    // SAFETY: a plain setter of OpenMP's thread count; no pointers.
    unsafe { peer_threads(n) }
}

/// oneDNN's reorder of a 4-D tensor from one format tag to another.
pub struct Reorder(NonNull<PeerReorder>);

impl Reorder {
    /// The reorder `src_tag -> dst_tag` (oneDNN's names: `nchw`, `nChw16c`, `OIhw16i16o`, ...)
    /// of `dims` with elements `ty` (`f32`, `f16`, `bf16`, `u8`, `s8`), or `None` where oneDNN
    /// has no such tag or primitive.
    pub fn new(src_tag: &str, dst_tag: &str, dims: [usize; 4], ty: &str) -> Option<Self> {
        let text = |s: &str| CString::new(s).ok();
        let (from, to, ty) = (text(src_tag)?, text(dst_tag)?, text(ty)?);
        let dims = dims.map(|d| d as i64);
        // SAFETY: the strings are NUL-terminated and `dims` holds the four entries the C side
        // reads; it copies all of them before returning.
        let p = unsafe { peer_new(from.as_ptr(), to.as_ptr(), dims.as_ptr(), ty.as_ptr()) };
        NonNull::new(p).map(Reorder)
    }

    /// The source's storage, as bytes.
    pub fn src_mut(&mut self) -> &mut [u8] {
        let p = self.0.as_ptr();
        // SAFETY: oneDNN's buffer holds `peer_src_bytes` initialised bytes (zeroed at creation)
        // and lives as long as `self`, which this borrow keeps exclusive.
        unsafe { std::slice::from_raw_parts_mut(peer_src(p).cast(), peer_src_bytes(p)) }
    }

    /// The destination's storage, as bytes.
    pub fn dst(&self) -> &[u8] {
        let p = self.0.as_ptr();
        // SAFETY: as in `src_mut`; a shared borrow, and only `run` (which takes `&mut self`)
        // writes it.
        unsafe { std::slice::from_raw_parts(peer_dst(p).cast(), peer_dst_bytes(p)) }
    }

    /// Runs the reorder once and waits for it.
    pub fn run(&mut self) {
        // SAFETY: the primitive and both buffers were made together in `new` and are alive.
        unsafe { peer_run(self.0.as_ptr()) }
    }
}

impl Drop for Reorder {
    fn drop(&mut self) {
        // SAFETY: made by `peer_new`, freed once.
        unsafe { peer_free(self.0.as_ptr()) }
    }
}
