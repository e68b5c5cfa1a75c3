//! `Tensor.__dlpack__`: the tensor's storage handed to DLPack consumers (NumPy, PyTorch)
//! without a copy, in its strided form, through dlpark's producer (which reads the protocol's
//! arguments and makes the versioned or legacy capsule the consumer asks for).

use crate::elements::Element;
use crate::storage::Storage;
use dlpark::ffi::{DLDevice, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::metadata::Dynamic;
use dlpark::python::{DlpackExporter, ExportRequest, export_dlpack};
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;
use std::sync::Arc;
use tensor_layout::StridedForm;

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
