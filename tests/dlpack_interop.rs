//! DLPack export (zero-copy, strided form, deleter run once) and import (copying from any
//! strides, or a zero-copy view), in both ABIs. NumPy reads the exports in
//! tests/python/test_dlpack_numpy.py.

use std::sync::atomic::{AtomicUsize, Ordering};
use tensor_layout::dlpark::ffi::{DLDataType, DLDevice, DLDeviceType, DLManagedTensor};
use tensor_layout::dlpark::metadata::Dynamic;
use tensor_layout::dlpark::{Managed, legacy, versioned};
use tensor_layout::prelude::*;
use tensor_layout::{Layout, layouts::Strided, mappings::RowMajorIndices};

fn value([n, c, h, w]: [usize; 4]) -> f32 {
    (n * 1000 + c * 100 + h * 10 + w) as f32
}

/// What the descriptor of `managed` says, as plain numbers: shape, strides, byte offset.
fn described<M: tensor_layout::dlpark::ManagedTensorBase>(
    managed: &Managed<M>,
) -> (Vec<i64>, Vec<i64>, u64) {
    let d = managed.validate().unwrap();
    (
        d.shape().to_vec(),
        d.strides().unwrap().to_vec(),
        d.byte_offset(),
    )
}

#[test]
fn exports_are_the_strided_form_of_the_storage_without_a_copy() {
    fn check<L: Layout + Default>(dims: L::Index) {
        let t = Tensor::<f32, L>::from_fn(dims, |i| {
            i.as_ref().iter().fold(0.0, |acc, &x| acc * 10.0 + x as f32)
        });
        let form = t.mapping().strided_form().unwrap();
        let storage = t.as_raw().as_ptr() as usize;
        let managed = t.into_dlpack().unwrap();
        let (shape, strides, byte_offset) = described(&managed);
        let as_i64 = |v: &[usize]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
        assert_eq!(
            (shape, strides),
            (as_i64(&form.shape), as_i64(&form.strides))
        );
        assert_eq!(byte_offset, 0);
        let d = managed.validate().unwrap();
        assert_eq!(d.data_ptr() as usize, storage);
        assert_eq!(d.dtype(), DLDataType::F32);
        assert_eq!(d.device(), DLDevice::CPU);
    }
    check::<onednn::nchw>([2, 3, 4, 1]);
    check::<onednn::nhwc>([2, 17, 3, 5]);
    check::<onednn::nChw16c>([2, 17, 3, 1]);
    check::<onednn::OIhw4i16o4i>([17, 9, 1, 2]);
    check::<htp::R4CroutonLayout>([1, 9, 3, 33]);
}

#[test]
fn a_strided_tensor_with_an_offset_sets_the_byte_offset() {
    let mapping = Mapping::with_layout(Strided::new([1, 3], 3), [3, 4]).unwrap();
    let mut t = Tensor::try_filled(mapping, 0.0f64, -1.0).unwrap();
    for index in RowMajorIndices::new([3, 4]) {
        t[index] = (index[0] * 10 + index[1]) as f64;
    }
    let managed = t.into_dlpack_legacy().unwrap();
    assert_eq!(described(&managed), (vec![3, 4], vec![1, 3], 3 * 8));
    let back =
        unsafe { Tensor::<f64, chunked_layout![2; 0,0, 1,0]>::from_dlpack(&managed) }.unwrap();
    assert_eq!(back[[2, 3]], 23.0);
    assert_eq!(
        back.to_row_major(),
        (0..12)
            .map(|i| ((i / 4) * 10 + i % 4) as f64)
            .collect::<Vec<_>>()
    );
}

#[test]
fn round_trips_through_both_abis_keep_every_element() {
    for dims in [[1, 3, 2, 5], [2, 17, 3, 1], [1, 16, 1, 1]] {
        let t = Tensor::<f32, onednn::nhwc>::from_fn(dims, value);
        let expected = t.to_row_major();
        let legacy = t.clone().into_dlpack_legacy().unwrap();
        let a = unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack(&legacy) }.unwrap();
        assert_eq!(a.to_row_major(), expected);
        let padding: Vec<usize> = (0..a.storage_len())
            .filter(|&o| a.mapping().is_padding(o))
            .collect();
        assert_eq!(padding.len(), a.storage_len() - a.len());
        assert!(padding.iter().all(|&o| a.as_raw()[o] == 0.0));
        let versioned = t.into_dlpack().unwrap();
        let b = unsafe { Tensor::<f32, htp::R4FlatMemoryLayout>::from_dlpack(&versioned) };
        // R4FlatMemoryLayout's axes are NHWC: the DLPack shape is taken in that order.
        let b = b.unwrap();
        assert_eq!(b.dims(), dims);
        assert_eq!(b.as_raw(), expected.as_slice());
    }
    // A blocked export comes back in its blocked form, padding included.
    let t = Tensor::<f32, onednn::nChw16c>::from_fn([2, 17, 3, 1], value);
    let expected = t.as_raw().to_vec();
    let managed = t.into_dlpack().unwrap();
    let blocks = unsafe { Tensor::<f32, onednn_layout!("abcde")>::from_dlpack(&managed) }.unwrap();
    assert_eq!(blocks.dims(), [2, 2, 3, 1, 16]);
    assert_eq!(blocks.as_raw(), expected.as_slice());
}

/// A blocked export comes back into its layout: with its logical dims given, the same tensor;
/// without, the dims its block counts give (padding slots now elements), the same storage.
fn check_blocked_round_trip<L: Layout<Index = [usize; 4]> + Default>(dims: [usize; 4]) {
    let t = Tensor::<f32, L>::from_fn(dims, value);
    let form = t.mapping().strided_form().unwrap();
    assert!(
        form.shape.len() > 4,
        "{}: a blocked layout",
        t.mapping().layout()
    );
    let legacy = t.clone().into_dlpack_legacy().unwrap();
    let exact = unsafe { Tensor::<f32, L>::from_dlpack_with_dims(&legacy, dims) }.unwrap();
    assert_eq!((exact.dims(), exact.as_raw()), (dims, t.as_raw()));
    let versioned = t.clone().into_dlpack().unwrap();
    let padded = unsafe { Tensor::<f32, L>::from_dlpack(&versioned) }.unwrap();
    assert_eq!(padded.dims(), t.mapping().padded_dims());
    assert_eq!(padded.as_raw(), t.as_raw());
    for index in RowMajorIndices::new(dims) {
        assert_eq!(padded[index], t[index]);
    }
    // The padded tensor's own export is the same blocked form.
    let again = padded.into_dlpack().unwrap();
    assert_eq!(described(&again).0, described(&versioned).0);
}

#[test]
fn blocked_exports_import_back_into_their_layouts() {
    check_blocked_round_trip::<onednn::nChw16c>([2, 17, 3, 1]);
    check_blocked_round_trip::<onednn::nChw8c>([1, 8, 2, 2]);
    check_blocked_round_trip::<onednn::OIhw16i16o>([20, 17, 3, 3]);
    check_blocked_round_trip::<onednn::OIhw4i16o4i>([17, 9, 1, 2]);
    check_blocked_round_trip::<megengine::NCHW4>([1, 5, 2, 3]);
    check_blocked_round_trip::<htp::R4CroutonLayout>([1, 9, 3, 33]);
    check_blocked_round_trip::<htp::R4Crouton2x2Layout>([1, 9, 5, 33]);
    check_blocked_round_trip::<htp::R4Depth32MemoryLayout>([2, 3, 1, 40]);
    // Empty: no strides to check.
    let empty = Tensor::<f32, onednn::nChw16c>::zeros([1, 0, 2, 2])
        .into_dlpack()
        .unwrap();
    let back = unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack(&empty) }.unwrap();
    assert_eq!(back.dims(), [1, 0, 2, 2]);
}

/// Why importing `managed` into `nChw16c` (of `dims` where given) fails.
fn refusal(managed: &versioned::Dlpack, dims: Option<[usize; 4]>) -> String {
    let made = match dims {
        Some(dims) => unsafe {
            Tensor::<f32, onednn::nChw16c>::from_dlpack_with_dims(managed, dims)
        },
        None => unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack(managed) },
    };
    made.unwrap_err().to_string()
}

#[test]
fn blocked_imports_refuse_other_blocks_strides_and_dims() {
    let nchw16c = "ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,16>";
    // nChw8c's blocked form is not nChw16c's: 2 blocks of 16 channels would be [1, 2, 2, 2, 16].
    let t = Tensor::<f32, onednn::nChw8c>::from_fn([1, 16, 2, 2], value);
    let eights = t.into_dlpack().unwrap();
    assert_eq!(
        refusal(&eights, None),
        format!(
            "DLPack: the tensor's shape [1, 2, 2, 2, 8] is not the layout's blocked form: dims \
             [1, 32, 2, 2] (its block counts) have the blocked form [1, 2, 2, 2, 16] in {nchw16c}"
        )
    );
    // nChw16c's shape for [1, 16, 1, 2], its channels outermost in memory (a transposed copy).
    let shape = vec![1, 1, 1, 2, 16];
    let transposed = foreign(vec![0.0; 32], 0, shape, vec![32, 32, 32, 1, 2]);
    assert_eq!(
        refusal(&transposed, None),
        format!(
            "DLPack: the tensor's strides [32, 32, 32, 1, 2] are not those of the layout's \
             blocked form [1, 1, 1, 2, 16], [32, 32, 32, 16, 1] (its storage order in {nchw16c})"
        )
    );
    let compact = foreign(
        vec![0.0; 64],
        0,
        vec![1, 2, 1, 2, 16],
        vec![64, 32, 32, 16, 1],
    );
    assert!(unsafe { Tensor::<f32, onednn::nChw16c>::from_dlpack(&compact) }.is_ok());
    let err = refusal(&compact, Some([1, 8, 1, 2]));
    let want = "dims [1, 8, 1, 2] (asked for) have the blocked form [1, 1, 1, 2, 16]";
    assert!(err.contains(want), "{err}");
    let six = foreign(vec![0.0; 1], 0, vec![1; 6], vec![1; 6]);
    let want = format!(
        "the tensor has 6 dims; the layout ({nchw16c}) takes 4 (its logical dims) or 5 (its \
         blocked form)"
    );
    assert!(
        refusal(&six, None).ends_with(&want),
        "{}",
        refusal(&six, None)
    );
    let plain = foreign(vec![0.0; 4], 0, vec![1, 1, 2, 2], vec![4, 4, 2, 1]);
    assert_eq!(
        refusal(&plain, Some([1, 2, 2, 2])),
        "DLPack: the tensor's shape [1, 1, 2, 2] is not the dims [1, 2, 2, 2] asked for"
    );
}

static DELETED: AtomicUsize = AtomicUsize::new(0);
static ORIGINAL: std::sync::Mutex<Option<unsafe extern "C" fn(*mut DLManagedTensor)>> =
    std::sync::Mutex::new(None);

unsafe extern "C" fn counting(managed: *mut DLManagedTensor) {
    DELETED.fetch_add(1, Ordering::SeqCst);
    let original = ORIGINAL.lock().unwrap().take().unwrap();
    unsafe { original(managed) };
}

#[test]
fn the_deleter_runs_once_when_the_consumer_is_done() {
    let t = Tensor::<u8, onednn::nChw8c>::from_fn([1, 3, 2, 2], |[_, c, h, w]| {
        (c * 4 + h * 2 + w) as u8
    });
    let raw = t.into_dlpack_legacy().unwrap().into_raw();
    // As a C consumer would: keep the pointer, then call the deleter through it.
    unsafe {
        *ORIGINAL.lock().unwrap() = (*raw).deleter;
        (*raw).deleter = Some(counting);
    }
    let owned = unsafe { legacy::Dlpack::from_raw(raw) }.unwrap();
    let view = unsafe { TensorView::<u8, Strided<5>>::from_dlpack(&owned) }.unwrap();
    assert_eq!(view[[0, 0, 1, 1, 2]], 11);
    assert_eq!(DELETED.load(Ordering::SeqCst), 0);
    drop(owned);
    assert_eq!(DELETED.load(Ordering::SeqCst), 1);
}

#[test]
fn views_of_dlpack_memory_do_not_copy() {
    let t = Tensor::<f32, onednn::nhwc>::from_fn([1, 3, 2, 2], value);
    let storage = t.as_raw().as_ptr();
    let managed = t.into_dlpack().unwrap();
    let view = unsafe { TensorView::<f32, Strided<4>>::from_dlpack(&managed) }.unwrap();
    assert_eq!(view.as_raw().as_ptr(), storage);
    assert_eq!(view.mapping().layout().strides(), [12, 1, 6, 3]);
    for index in RowMajorIndices::new([1, 3, 2, 2]) {
        assert_eq!(view[index], value(index));
    }
}

/// A managed tensor over `data` with any shape and strides, as another producer would make it.
fn foreign(data: Vec<f32>, first: usize, shape: Vec<i64>, strides: Vec<i64>) -> versioned::Dlpack {
    let mut data = Box::new(data);
    let pointer = data.as_mut_ptr().cast();
    let mut initialized = Dynamic::new(shape, strides).initialize(data).unwrap();
    initialized
        .set_data(pointer)
        .set_byte_offset((first * size_of::<f32>()) as u64)
        .set_dtype(DLDataType::F32)
        .set_device(DLDevice::CPU);
    unsafe { initialized.finish() }
}

#[test]
fn imports_take_negative_and_zero_strides() {
    // A 2x3 matrix read backwards: element [r, c] at slot 5 - (3r + c).
    let reversed = foreign(
        (0..6).map(|v| v as f32).collect(),
        5,
        vec![2, 3],
        vec![-3, -1],
    );
    let t = unsafe { Tensor::<f32, chunked_layout![2; 1,0, 0,0]>::from_dlpack(&reversed) }.unwrap();
    assert_eq!(t.to_row_major(), [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]);
    let err = unsafe { TensorView::<f32, Strided<2>>::from_dlpack(&reversed) }.unwrap_err();
    assert!(
        err.to_string()
            .contains("stride -3 of dimension 0 is negative"),
        "{err}"
    );

    let broadcast = foreign(vec![1.0, 2.0, 3.0], 0, vec![2, 3], vec![0, 1]);
    let t = unsafe { Tensor::<f32, chunked_layout![2; 0,0, 1,0, 1,2]>::from_dlpack(&broadcast) }
        .unwrap();
    assert_eq!(t.to_row_major(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    let view = unsafe { TensorView::<f32, Strided<2>>::from_dlpack(&broadcast) }.unwrap();
    assert_eq!(view.to_row_major(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
}

#[test]
fn imports_refuse_other_types_ranks_and_devices() {
    let t = Tensor::<f32, onednn::nchw>::from_fn([1, 2, 2, 2], value);
    let managed = t.into_dlpack().unwrap();
    let err = unsafe { Tensor::<i32, onednn::nchw>::from_dlpack(&managed) }.unwrap_err();
    assert!(err.to_string().contains("not i32"), "{err}");
    let err = unsafe { Tensor::<f32, onednn::ncdhw>::from_dlpack(&managed) }.unwrap_err();
    assert!(
        err.to_string()
            .contains("the tensor has 4 dims; the layout (ChunkedMemoryLayout<NCDHW, 0,0, 1,0, 2,0, 3,0, 4,0>) takes 5 (its logical dims)"),
        "{err}"
    );

    let mut data = Box::new(vec![0.0f32; 4]);
    let pointer = data.as_mut_ptr().cast();
    let mut on_gpu = Dynamic::new(vec![2i64, 2], vec![2i64, 1])
        .initialize(data)
        .unwrap();
    on_gpu
        .set_data(pointer)
        .set_dtype(DLDataType::F32)
        .set_device(DLDevice {
            device_type: DLDeviceType::CUDA,
            device_id: 0,
        });
    let on_gpu: versioned::Dlpack = unsafe { on_gpu.finish() };
    let err =
        unsafe { Tensor::<f32, chunked_layout![2; 0,0, 1,0]>::from_dlpack(&on_gpu) }.unwrap_err();
    assert!(err.to_string().contains("not on the CPU"), "{err}");
}

#[test]
fn empty_tensors_and_layouts_without_strided_form() {
    let empty = Tensor::<f32, onednn::nChw16c>::zeros([1, 0, 2, 2]);
    let managed = empty.into_dlpack().unwrap();
    assert_eq!(described(&managed).0, [1, 0, 2, 2, 16]);
    let back = unsafe { Tensor::<f32, onednn_layout!("abcde")>::from_dlpack(&managed) }.unwrap();
    assert!(back.is_empty());

    type Local = tensor_layout::sophgo::Compact<tensor_layout::sophgo::ExampleChip>;
    let mapping = Mapping::with_layout(Local::new(0, 4), [1, 6, 2, 2]).unwrap();
    let local = Tensor::try_filled(mapping, 1.0f32, 0.0).unwrap();
    let Err(err) = local.into_dlpack() else {
        panic!("a Sophgo local tensor with channels round the NPUs has no strided form");
    };
    assert!(matches!(err, LayoutError::NoStridedForm { .. }), "{err}");
}
