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
    fn peer_blocking(
        tag: *const c_char,
        ndims: i32,
        dims: *const i64,
        padded: *mut i64,
        strides: *mut i64,
        inner_blks: *mut i64,
        inner_idxs: *mut i64,
        inner_nblks: *mut i32,
        offset0: *mut i64,
        padded_offsets_zero: *mut bool,
    ) -> bool;
}

/// The most dims oneDNN describes (`DNNL_MAX_NDIMS`).
const MAX_NDIMS: usize = 12;

/// oneDNN's own blocking descriptor of a tag on some dims, as its memory descriptor holds it.
#[derive(Debug, PartialEq, Eq)]
pub struct OnednnBlocking {
    /// `padded_dims`.
    pub padded_dims: Vec<usize>,
    /// `format_desc.blocking.strides`.
    pub strides: Vec<usize>,
    /// `format_desc.blocking.inner_blks`, `inner_nblks` of them.
    pub inner_blks: Vec<usize>,
    /// `format_desc.blocking.inner_idxs`.
    pub inner_idxs: Vec<usize>,
    /// `offset0`.
    pub offset0: usize,
    /// Whether every `padded_offsets` entry is zero.
    pub padded_offsets_zero: bool,
}

/// oneDNN's blocking descriptor of `tag` on `dims` (f32 elements), or `None` where oneDNN does
/// not know the tag or does not describe it as blocked.
pub fn blocking(tag: &str, dims: &[usize]) -> Option<OnednnBlocking> {
    let tag = CString::new(tag).ok()?;
    if dims.is_empty() || dims.len() > MAX_NDIMS {
        return None;
    }
    let dims: Vec<i64> = dims
        .iter()
        .map(|&d| i64::try_from(d).ok())
        .collect::<Option<_>>()?;
    let (mut padded, mut strides) = ([0i64; MAX_NDIMS], [0i64; MAX_NDIMS]);
    let (mut blks, mut idxs) = ([0i64; MAX_NDIMS], [0i64; MAX_NDIMS]);
    let (mut nblks, mut offset0, mut zero) = (0i32, 0i64, false);
    // SAFETY: `tag` is NUL-terminated; `dims` holds `ndims` entries and every output array
    // holds DNNL_MAX_NDIMS, as many as the C side writes at most; all outlive the call.
    let known = unsafe {
        peer_blocking(
            tag.as_ptr(),
            dims.len() as i32,
            dims.as_ptr(),
            padded.as_mut_ptr(),
            strides.as_mut_ptr(),
            blks.as_mut_ptr(),
            idxs.as_mut_ptr(),
            &mut nblks,
            &mut offset0,
            &mut zero,
        )
    };
    if !known {
        return None;
    }
    let to_usize = |values: &[i64]| values.iter().map(|&v| v as usize).collect::<Vec<_>>();
    let (n, blocks) = (dims.len(), nblks as usize);
    Some(OnednnBlocking {
        padded_dims: to_usize(&padded[..n]),
        strides: to_usize(&strides[..n]),
        inner_blks: to_usize(&blks[..blocks]),
        inner_idxs: to_usize(&idxs[..blocks]),
        offset0: offset0 as usize,
        padded_offsets_zero: zero,
    })
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
