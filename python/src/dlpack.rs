//! `Tensor.__dlpack__`: the tensor's storage handed to DLPack consumers (NumPy, PyTorch)
//! without a copy, in its strided form, through dlpark's producer (which reads the protocol's
//! arguments and makes the versioned or legacy capsule the consumer asks for); and the other
//! way, any `__dlpack__` producer's tensor read by dlpark as a NumPy array without a copy.

use crate::arrays::view_of;
use crate::elements::{Element, element_of_dlpack};
use crate::storage::Storage;
use dlpark::ffi::{
    DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned, DLPACK_MAJOR_VERSION,
    DLPACK_MINOR_VERSION,
};
use dlpark::metadata::Dynamic;
use dlpark::python::{DlpackExporter, ExportRequest, ImportedDlpack, export_dlpack, from_dlpack};
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use numpy::PyUntypedArray;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;
use tensor_layout::interop::StridedForm;

/// One tensor's storage as DLPack describes it; each export keeps the storage alive.
pub struct Export {
    storage: Arc<Storage>,
    form: StridedForm,
    element: Element,
}

impl Export {
    /// The export of `storage`, whose strided form is `form`, holding `element`s.
    pub fn new(storage: Arc<Storage>, form: StridedForm, element: Element) -> Self {
        Self {
            storage,
            form,
            element,
        }
    }

    /// A fresh managed tensor of ABI `M` over the storage.
    fn managed<M: ManagedTensorBase>(&self) -> PyResult<Managed<M>> {
        let refused =
            |e: dlpark::metadata::Error| PyBufferError::new_err(format!("DLPack export: {e}"));
        let owner = Box::new(Arc::clone(&self.storage));
        let mut initialized = Dynamic::new(self.form.shape.clone(), self.form.strides.clone())
            .initialize_as::<M>(owner)
            .map_err(refused)?;
        // DLPack asks for a null data pointer when there are no elements.
        let (data, byte_offset) = if self.form.span() == 0 {
            (std::ptr::null_mut(), 0)
        } else {
            let bytes = self.element.dlpack.bits as usize / 8;
            (
                self.storage.data().cast(),
                (self.form.offset * bytes) as u64,
            )
        };
        initialized
            .set_data(data)
            .set_byte_offset(byte_offset)
            .set_dtype(self.element.dlpack)
            .set_device(DLDevice::CPU);
        // SAFETY: `data` is the storage the managed tensor's context (an `Arc` of it) keeps
        // alive until the deleter runs; the strided form stays within the storage (the library
        // checks its reach), and the element type is the storage's.
        Ok(unsafe { initialized.finish() })
    }
}

impl DlpackExporter for Export {
    fn device(&self) -> DLDevice {
        DLDevice::CPU
    }

    fn flags(&self) -> DlpackFlags {
        DlpackFlags::empty()
    }

    fn prepare_export(&self, _py: Python<'_>, _request: &ExportRequest<'_>) -> PyResult<()> {
        // CPU memory, written before the call returned: nothing to wait for.
        Ok(())
    }

    fn export_legacy(&self, _py: Python<'_>) -> PyResult<Managed<DLManagedTensor>> {
        self.managed()
    }

    fn export_versioned(&self, _py: Python<'_>) -> PyResult<Managed<DLManagedTensorVersioned>> {
        self.managed()
    }
}

/// The capsule `__dlpack__` returns for `export`, as the consumer's arguments ask.
pub fn capsule<'py>(
    py: Python<'py>,
    export: &Export,
    stream: Option<&Bound<'py, PyAny>>,
    max_version: Option<(u32, u32)>,
    dl_device: Option<(u32, i32)>,
    copy: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let request = ExportRequest::parse(stream, max_version, dl_device, copy)?;
    export_dlpack(export, py, request)
}

/// A tensor imported from another library's `__dlpack__`, owned here until the NumPy view
/// made of it is gone (then its producer's deleter runs).
#[pyclass(frozen, module = "tensor_layout", name = "_DlpackImport")]
pub struct Imported {
    _tensor: ImportedDlpack,
}

/// The capsule of `object.__dlpack__`, asked for the newest DLPack this package reads (the
/// versioned ABI); a producer whose `__dlpack__` takes no arguments is asked again without.
fn capsule_of<'py>(object: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = object.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_version", (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION))?;
    match object.call_method("__dlpack__", (), Some(&kwargs)) {
        Err(e) if e.is_instance_of::<PyTypeError>(py) => object.call_method0("__dlpack__"),
        other => other,
    }
}

/// `object`'s `__dlpack__` tensor read by dlpark as a NumPy array over the producer's memory,
/// without a copy, which keeps the producer's tensor alive: every supported element type,
/// bfloat16 included (which `numpy.from_dlpack` does not read), on the CPU.
pub fn import<'py>(object: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = object.py();
    let capsule = capsule_of(object)?;
    let imported = from_dlpack(capsule.as_borrowed(), None, None)?;
    let invalid = |e: dlpark::tensor::Error| PyBufferError::new_err(format!("DLPack import: {e}"));
    let (shape, strides, element, data) = {
        let tensor = imported.validate().map_err(invalid)?;
        let device = tensor.device();
        if device.device_type != DLDeviceType::CPU {
            return Err(PyBufferError::new_err(format!(
                "the DLPack tensor lives on device type {} (device {}), not in the CPU's \
                 memory: move it there first (for PyTorch, tensor.cpu())",
                device.device_type.0, device.device_id
            )));
        }
        let element = element_of_dlpack(tensor.dtype())?;
        let shape: Vec<usize> = tensor.shape().iter().map(|&d| d as usize).collect();
        let strides = tensor.strides_or_compact().map_err(invalid)?;
        if strides.iter().any(|&s| s < 0) {
            return Err(PyBufferError::new_err(format!(
                "the DLPack tensor has negative strides {strides:?}: pass a copy"
            )));
        }
        let strides: Vec<usize> = strides.iter().map(|&s| s as usize).collect();
        let bytes = element.width.bytes();
        let data = if tensor.num_elements() == 0 {
            // No element is read: any aligned address will do.
            std::ptr::NonNull::<u32>::dangling().as_ptr().cast::<u8>()
        } else {
            // SAFETY: a non-empty DLPack tensor's data pointer plus its byte offset is its
            // first element's address, within the producer's allocation.
            unsafe { tensor.offset_bytes_ptr() }
                .map_err(invalid)?
                .cast_mut()
        };
        if !(data as usize).is_multiple_of(bytes) {
            return Err(PyBufferError::new_err(format!(
                "the DLPack tensor's first element (address {data:p}) is not aligned to its \
                 {bytes}-byte elements: pass a copy"
            )));
        }
        (shape, strides, element, data)
    };
    let dtype = element.descr(py)?;
    let owner = Bound::new(py, Imported { _tensor: imported })?;
    // SAFETY: the producer's tensor, which `owner` keeps alive (its deleter runs when the
    // array is gone), holds the elements at `data` with these shape and strides (in elements):
    // DLPack's contract; the array is only read.
    let array = unsafe {
        view_of(
            owner.into_any(),
            data,
            element.width,
            (&shape, &strides, 0),
            &dtype,
        )
    }?;
    Ok(array.cast_into::<PyUntypedArray>()?)
}
