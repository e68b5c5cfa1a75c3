//! A C library for the NumPy test (`test_dlpack_numpy.py`): tensors of tensor-layout exported
//! as DLPack managed tensors through `into_dlpack_legacy` and `into_dlpack`, and a count of the
//! deleters that ran, so that the test can see NumPy (or the capsule) free each tensor once.
//!
//! Every element is a function of its logical index that the test computes too:
//! `n * 1000 + c * 100 + h * 10 + w` for NCHW dims (wrapped to the element type).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use tensor_layout::dlpark::ffi::{DLManagedTensor, DLManagedTensorVersioned};
use tensor_layout::prelude::*;
use tensor_layout::{Layout, layouts::Strided};

/// How many exported tensors have been deleted.
static DELETED: AtomicUsize = AtomicUsize::new(0);

type LegacyDeleter = unsafe extern "C" fn(*mut DLManagedTensor);
type VersionedDeleter = unsafe extern "C" fn(*mut DLManagedTensorVersioned);

/// The deleter each exported tensor came with, by address, called by the counting deleters.
static LEGACY: Mutex<Vec<(usize, LegacyDeleter)>> = Mutex::new(Vec::new());
static VERSIONED: Mutex<Vec<(usize, VersionedDeleter)>> = Mutex::new(Vec::new());

fn value(n: usize, c: usize, h: usize, w: usize) -> usize {
    n * 1000 + c * 100 + h * 10 + w
}

fn take<D: Copy>(table: &Mutex<Vec<(usize, D)>>, address: usize) -> D {
    let mut table = table.lock().unwrap();
    let at = table.iter().position(|&(a, _)| a == address).unwrap();
    table.swap_remove(at).1
}

unsafe extern "C" fn counting_legacy(managed: *mut DLManagedTensor) {
    let original = take(&LEGACY, managed as usize);
    DELETED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the deleter the tensor was exported with, called once, as DLPack's contract asks.
    unsafe { original(managed) };
}

unsafe extern "C" fn counting_versioned(managed: *mut DLManagedTensorVersioned) {
    let original = take(&VERSIONED, managed as usize);
    DELETED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: as in `counting_legacy`.
    unsafe { original(managed) };
}

/// `tensor` as a legacy managed tensor whose deleter also counts.
fn legacy<T, L>(tensor: Tensor<T, L>) -> *mut DLManagedTensor
where
    T: tensor_layout::dlpark::DlpackElement + tensor_layout::tensors::Element + Send,
    L: Layout,
{
    let raw = tensor.into_dlpack_legacy().unwrap().into_raw();
    // SAFETY: `raw` is the live managed tensor `into_raw` handed over; we own it until returned.
    let managed = unsafe { &mut *raw };
    let original = managed.deleter.take().unwrap();
    LEGACY.lock().unwrap().push((raw as usize, original));
    managed.deleter = Some(counting_legacy);
    raw
}

/// NCHW f32, logical dims `[n, c, h, w]`.
#[unsafe(no_mangle)]
pub extern "C" fn tl_nchw_f32(n: usize, c: usize, h: usize, w: usize) -> *mut DLManagedTensor {
    let dims = [n, c, h, w];
    legacy(Tensor::<f32, onednn::nchw>::from_fn(
        dims,
        |[n, c, h, w]| value(n, c, h, w) as f32,
    ))
}

/// NHWC u16 with logical NCHW axes (`onednn::nhwc`): NumPy sees `[n, c, h, w]` with strides.
#[unsafe(no_mangle)]
pub extern "C" fn tl_nhwc_u16(n: usize, c: usize, h: usize, w: usize) -> *mut DLManagedTensor {
    legacy(Tensor::<u16, onednn::nhwc>::from_fn(
        [n, c, h, w],
        |[n, c, h, w]| value(n, c, h, w) as u16,
    ))
}

/// nChw16c f32: NumPy sees the blocked form `[n, ceil(c / 16), h, w, 16]`, padding zero.
#[unsafe(no_mangle)]
pub extern "C" fn tl_nchw16c_f32(n: usize, c: usize, h: usize, w: usize) -> *mut DLManagedTensor {
    legacy(Tensor::<f32, onednn::nChw16c>::from_fn(
        [n, c, h, w],
        |[n, c, h, w]| value(n, c, h, w) as f32,
    ))
}

/// HTP crouton u8 on NHWC dims `[n, h, w, c]`: NumPy sees
/// `[n, ceil(h / 8), ceil(w / 8), ceil(c / 32), 8, 8, 32]`, padding zero.
#[unsafe(no_mangle)]
pub extern "C" fn tl_crouton_u8(n: usize, h: usize, w: usize, c: usize) -> *mut DLManagedTensor {
    legacy(Tensor::<u8, htp::R4CroutonLayout>::from_fn(
        [n, h, w, c],
        |[n, h, w, c]| value(n, c, h, w) as u8,
    ))
}

/// A `rows x cols` f64 matrix stored column-major from slot 3 on (a non-zero byte offset),
/// element `[r, c]` = `r * 10 + c`.
#[unsafe(no_mangle)]
pub extern "C" fn tl_column_major_f64(rows: usize, cols: usize) -> *mut DLManagedTensor {
    let layout = Strided::new([1, rows], 3);
    let mapping = Mapping::with_layout(layout, [rows, cols]).unwrap();
    let mut t = Tensor::try_filled(mapping, 0.0f64, -1.0).unwrap();
    for r in 0..rows {
        for c in 0..cols {
            t[[r, c]] = (r * 10 + c) as f64;
        }
    }
    legacy(t)
}

/// NCHW i32 as a versioned managed tensor (DLPack 1.x, a `"dltensor_versioned"` capsule).
#[unsafe(no_mangle)]
pub extern "C" fn tl_versioned_nchw_i32(
    n: usize,
    c: usize,
    h: usize,
    w: usize,
) -> *mut DLManagedTensorVersioned {
    let t =
        Tensor::<i32, onednn::nchw>::from_fn([n, c, h, w], |[n, c, h, w]| value(n, c, h, w) as i32);
    let raw = t.into_dlpack().unwrap().into_raw();
    // SAFETY: as in `legacy`.
    let managed = unsafe { &mut *raw };
    let original = managed.deleter.take().unwrap();
    VERSIONED.lock().unwrap().push((raw as usize, original));
    managed.deleter = Some(counting_versioned);
    raw
}

/// How many exported tensors have been deleted so far.
#[unsafe(no_mangle)]
pub extern "C" fn tl_deleted_count() -> usize {
    DELETED.load(Ordering::SeqCst)
}
