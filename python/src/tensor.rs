//! `Tensor`: storage in a layout, owned by the package; and `relayout`, which makes one from
//! a NumPy array (or a DLPack object) with the library's engine, the GIL released.

use crate::arrays::{as_array, read_source, view_of};
use crate::dlpack::{Export, capsule};
use crate::elements::Element;
use crate::errors::{by_x, mismatch, value_error};
use crate::layout::{Layout, LayoutKind, layout_argument};
use crate::mapping::Mapping;
use crate::storage::{Placed, Storage};
use numpy::PyArrayDescr;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;
use tensor_layout::{DynLayout, axes::AxisWord, layouts::ChunkEntry};

/// A tensor in a layout: storage the package owns (aligned, padding included), its layout,
/// its dims and its element type.
#[pyclass(frozen, module = "tensor_layout", name = "Tensor")]
pub struct Tensor {
    storage: Arc<Storage>,
    element: Element,
    dtype: Py<PyArrayDescr>,
}

impl Tensor {
    fn from_storage(storage: Storage, element: Element, dtype: &Bound<'_, PyArrayDescr>) -> Self {
        Self {
            storage: Arc::new(storage),
            element,
            dtype: dtype.clone().unbind(),
        }
    }

    /// The layout on the dims.
    fn placed(&self) -> &Placed {
        self.storage.place()
    }

    /// The layout.
    fn layout_value(&self) -> LayoutKind {
        self.placed().kind()
    }

    /// A new tensor of `layout` with these elements, moved by axis name, the GIL released.
    fn relayout_to(&self, py: Python<'_>, layout: &LayoutKind) -> PyResult<Self> {
        layout.check_element(self.element)?;
        let storage = Arc::clone(&self.storage);
        let out = py
            .detach(|| storage.relayout(layout))
            .map_err(|e| relayout_error(&self.layout_value(), layout, e))?;
        Ok(Self::from_storage(out, self.element, self.dtype.bind(py)))
    }
}

/// A failed relayout's error, naming both layouts.
fn relayout_error(src: &LayoutKind, dst: &LayoutKind, error: tensor_layout::LayoutError) -> PyErr {
    mismatch(format!("cannot relayout {src} into {dst}: {error}"))
}

/// The layout of these axes stored in row-major order (NumPy's C order of the logical dims).
fn row_major(axes: AxisWord) -> LayoutKind {
    let entries: Vec<ChunkEntry> = (0..axes.rank())
        .map(|dim| ChunkEntry { dim, size: 0 })
        .collect();
    let made = if axes.is_positional() {
        DynLayout::new(axes.rank(), &entries)
    } else {
        DynLayout::named(axes, &entries)
    };
    LayoutKind::Chunked(made.expect("one rest entry per dimension is a valid chunk list"))
}

#[pymethods]
impl Tensor {
    /// A tensor of `layout` on logical `dims` holding a copy of `array`, the storage in storage
    /// order (C-contiguous, the storage length, padding included; for a Sophgo local layout,
    /// the chip's whole local memory as elements).
    #[new]
    fn new(
        py: Python<'_>,
        layout: &Bound<'_, PyAny>,
        dims: Vec<usize>,
        array: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let layout = layout_argument(layout)?.kind;
        let source = read_source(&as_array(array)?, &layout, Some(dims.clone()))?;
        let elements = source.bits.elements()?;
        let storage = py
            .detach(|| Storage::copied(&layout, &dims, elements))
            .map_err(value_error)?;
        Ok(Self::from_storage(storage, source.element, &source.dtype))
    }

    /// This tensor in layout `dst` (a `Layout` or its text): elements move by axis name, so
    /// `dst`'s axes are these axes in any order, and its dims are these dims in that order.
    /// With `out` (a tensor of layout `dst` and those dims), the result is written there.
    #[pyo3(signature = (dst, *, out=None))]
    fn relayout<'py>(
        slf: &Bound<'py, Self>,
        dst: &Bound<'py, PyAny>,
        out: Option<Bound<'py, Tensor>>,
    ) -> PyResult<Bound<'py, Tensor>> {
        let dst = layout_argument(dst)?.kind;
        let this = slf.get();
        dst.check_element(this.element)?;
        match out {
            Some(out) => {
                check_out(out.get(), &dst, this.element)?;
                if Arc::ptr_eq(&this.storage, &out.get().storage) {
                    return Err(mismatch(
                        "out is the tensor itself: a relayout writes elsewhere".to_string(),
                    ));
                }
                let (from, into) = (Arc::clone(&this.storage), Arc::clone(&out.get().storage));
                slf.py()
                    .detach(|| into.relayout_from_storage(&from))
                    .map_err(|e| relayout_error(&this.layout_value(), &dst, e))?;
                Ok(out)
            }
            None => Bound::new(slf.py(), this.relayout_to(slf.py(), &dst)?),
        }
    }

    /// The logical elements as a new NumPy array of shape `dims` (the layout's axis order).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let logical = Bound::new(py, self.relayout_to(py, &row_major(self.placed().axes()))?)?;
        let dims = self.placed().dims().to_vec();
        logical
            .call_method0("storage")?
            .call_method1("reshape", (dims,))
    }

    /// The storage as a one-dimensional NumPy array (padding included; for a local layout,
    /// the chip's whole local memory), without a copy: writing it writes the tensor.
    fn storage<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let len = this.storage.len();
        let (data, width) = (this.storage.data(), this.storage.width());
        // SAFETY: `data` points at the storage's `len` elements of `width`, owned by the
        // tensor, which the array keeps alive as its base; shape [len] with stride 1 stays
        // within them.
        unsafe {
            view_of(
                slf.clone().into_any(),
                data,
                width,
                (&[len], &[1], 0),
                this.dtype.bind(slf.py()),
            )
        }
    }

    /// The DLPack capsule of the storage in its strided form (the logical dims for a plain
    /// layout, the blocked form with padding for a blocked one, the whole memory as one
    /// dimension for a local one), without a copy.
    #[pyo3(signature = (*, stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<&Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(u32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let form = self.storage.mapping().strided_form().map_err(value_error)?;
        let export = Export::new(Arc::clone(&self.storage), form, self.element);
        capsule(py, &export, stream, max_version, dl_device, copy)
    }

    /// `(1, 0)`: DLPack's CPU, device 0.
    fn __dlpack_device__(&self) -> (u32, i32) {
        (1, 0)
    }

    /// The layout.
    #[getter]
    fn layout(&self) -> Layout {
        Layout {
            kind: self.layout_value(),
        }
    }

    /// The logical dims, in the layout's axis order.
    #[getter]
    fn dims<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.placed().dims())
    }

    /// The dims rounded up to whole blocks (a local layout: with its dummies).
    #[getter]
    fn padded_dims<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.placed().with_any(|m| m.padded_dims()))
    }

    /// Storage slots, padding included (a local layout: the chip's memory, as elements).
    #[getter]
    fn storage_len(&self) -> usize {
        self.storage.len()
    }

    /// The NumPy dtype of the elements.
    #[getter]
    fn dtype(&self, py: Python<'_>) -> Py<PyArrayDescr> {
        self.dtype.clone_ref(py)
    }

    /// The layout bound to the dims.
    #[getter]
    fn mapping(&self) -> PyResult<Mapping> {
        Mapping::new(self.layout(), self.placed().dims().to_vec())
    }

    fn __repr__(&self) -> String {
        format!(
            "Tensor({}, dims={}, dtype={})",
            self.layout().__repr__(),
            by_x(self.placed().dims()),
            self.element.name
        )
    }
}

/// Checks that `out` can take a relayout into `dst` of `element`s.
fn check_out(out: &Tensor, dst: &LayoutKind, element: Element) -> PyResult<()> {
    if out.layout_value() != *dst {
        return Err(mismatch(format!(
            "out's layout is {} but dst is {dst}",
            out.layout_value()
        )));
    }
    if out.element != element {
        return Err(PyTypeError::new_err(format!(
            "out holds {} but the source holds {}",
            out.element.name, element.name
        )));
    }
    Ok(())
}

/// Converts `array` from layout `src` into layout `dst` (each a `Layout` or its text) with the
/// library's engine, the GIL released, and returns the tensor that holds the result: a new one,
/// or `out` (a tensor of layout `dst`, the dims and the element type of the result), written
/// over.
///
/// `array` is a NumPy array or any object with `__dlpack__`, holding either the logical array
/// of a plain `src` (its shape gives the dims, its strides must be `src`'s), or, with `dims`,
/// `src`'s storage (C-contiguous, padding included). A `Tensor` is converted from its own
/// layout, which `src` must name.
#[pyfunction]
#[pyo3(signature = (array, src, dst, *, dims=None, out=None))]
pub fn relayout<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    src: &Bound<'py, PyAny>,
    dst: &Bound<'py, PyAny>,
    dims: Option<Vec<usize>>,
    out: Option<Bound<'py, Tensor>>,
) -> PyResult<Bound<'py, Tensor>> {
    let (src_layout, dst) = (layout_argument(src)?.kind, layout_argument(dst)?.kind);
    if let Ok(tensor) = array.cast::<Tensor>() {
        let own = tensor.get().placed();
        if own.kind() != src_layout {
            return Err(mismatch(format!(
                "the tensor's layout is {} but src is {src_layout}",
                own.kind()
            )));
        }
        if let Some(dims) = dims.filter(|d| d.as_slice() != own.dims()) {
            return Err(mismatch(format!(
                "the tensor's dims are {} but dims= gives {}",
                by_x(own.dims()),
                by_x(&dims)
            )));
        }
        let dst = Bound::new(py, Layout { kind: dst })?;
        return Tensor::relayout(tensor, dst.as_any(), out);
    }
    let source = read_source(&as_array(array)?, &src_layout, dims)?;
    dst.check_element(source.element)?;
    let elements = source.bits.elements()?;
    let placed = &source.placed;
    let failed = |e| relayout_error(&src_layout, &dst, e);
    let Some(out) = out else {
        let storage = py
            .detach(|| Storage::convert(placed, elements, &dst))
            .map_err(failed)?;
        return Bound::new(
            py,
            Tensor::from_storage(storage, source.element, &source.dtype),
        );
    };
    check_out(out.get(), &dst, source.element)?;
    let into = &out.get().storage;
    if into.overlaps(elements) {
        return Err(mismatch(
            "the array is out's own storage: a relayout writes elsewhere".to_string(),
        ));
    }
    py.detach(|| into.relayout_into(placed, elements))
        .map_err(failed)?;
    Ok(out)
}
