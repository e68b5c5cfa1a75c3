//! `Mapping`: a layout bound to logical dims, its offsets, and the `layout` command's text and
//! picture of it.

use crate::errors::value_error;
use crate::layout::{Layout, LayoutKind, bind_chunked};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;
use tensor_layout::sophgo::DynLocalMapping;
use tensor_layout::{dynamic::DynMapping, mappings::AnyMapping};

/// A layout bound to logical dims (in the layout's axis order): padded dims, storage length,
/// offsets, and the `layout` command's explanation and drawing.
#[pyclass(frozen, module = "tensor_layout", name = "Mapping")]
pub struct Mapping {
    layout: Layout,
    dims: Vec<usize>,
    /// The chunked layout bound to the dims; `None` for a local layout, which is bound again
    /// when asked (the typed local mapping it wraps is not shared between threads).
    chunked: Option<DynMapping>,
}

impl Mapping {
    /// `layout` bound to `dims`, or a `ValueError` with the library's reason.
    pub fn new(layout: Layout, dims: Vec<usize>) -> PyResult<Self> {
        let chunked = match &layout.kind {
            LayoutKind::Chunked(chunked) => Some(bind_chunked(chunked, &dims)?),
            LayoutKind::Local(_) => {
                // Checked now, so that a mapping exists only for dims that fit.
                drop(local_mapping(&layout, &dims)?);
                None
            }
        };
        Ok(Self {
            layout,
            dims,
            chunked,
        })
    }

    /// Runs `f` on the mapping as the `layout` command sees it.
    fn with_any<R>(&self, f: impl FnOnce(&dyn AnyMapping) -> R) -> PyResult<R> {
        match &self.chunked {
            Some(m) => Ok(f(m)),
            None => Ok(f(local_mapping(&self.layout, &self.dims)?.mapping())),
        }
    }

    /// The `layout explain` text, byte counts for `element_bytes`-byte elements (chunked
    /// layouts; a local layout's elements have their own size).
    pub fn explain_text(&self, element_bytes: usize) -> PyResult<String> {
        match &self.chunked {
            Some(m) => Ok(layout_cli::explain(m, element_bytes)),
            None => Ok(layout_cli::explain_local(&local_mapping(
                &self.layout,
                &self.dims,
            )?)),
        }
    }

    /// The axis `color_by` names (letter or position), the last one (channels for a local
    /// layout) by default.
    fn color_dim(&self, color_by: Option<&str>) -> PyResult<usize> {
        let word = self.with_any(|m| m.axis_word())?;
        match color_by {
            Some(text) => layout_cli::args::axis(text, &word)
                .map_err(|e| PyValueError::new_err(format!("color_by {e}"))),
            None if self.chunked.is_none() => Ok(1),
            None => Ok(word.rank() - 1),
        }
    }

    /// The `layout draw` picture as SVG text.
    pub fn svg(&self, color_by: Option<&str>) -> PyResult<String> {
        let dim = self.color_dim(color_by)?;
        let drawn = match &self.chunked {
            Some(m) => layout_cli::svg_drawing(m, dim),
            None => layout_cli::svg_drawing_local(&local_mapping(&self.layout, &self.dims)?, dim),
        };
        drawn.map_err(PyValueError::new_err)
    }

    /// Writes the `layout draw` picture to `path`.
    pub fn draw_to(&self, path: &Path, color_by: Option<&str>) -> PyResult<String> {
        let dim = self.color_dim(color_by)?;
        let written = match &self.chunked {
            Some(m) => layout_cli::draw(m, dim, path),
            None => layout_cli::draw_local(&local_mapping(&self.layout, &self.dims)?, dim, path),
        };
        written.map_err(PyValueError::new_err)
    }
}

/// A local layout bound to dims, or a `ValueError` with the library's reason.
fn local_mapping(layout: &Layout, dims: &[usize]) -> PyResult<DynLocalMapping> {
    match &layout.kind {
        LayoutKind::Local(local) => local.bind(dims).map_err(value_error),
        LayoutKind::Chunked(_) => unreachable!("only local layouts are rebound"),
    }
}

#[pymethods]
impl Mapping {
    /// The layout.
    #[getter]
    fn layout(&self) -> Layout {
        self.layout.clone()
    }

    /// The logical dims, in the layout's axis order.
    #[getter]
    fn dims(&self) -> Vec<usize> {
        self.dims.clone()
    }

    /// The dims rounded up to whole blocks (for a local layout: its dummy elements included).
    #[getter]
    fn padded_dims(&self) -> PyResult<Vec<usize>> {
        self.with_any(|m| m.padded_dims())
    }

    /// Storage slots, padding included (for a local layout: elements of the chip's memory up
    /// to the tensor's last one).
    #[getter]
    fn storage_len(&self) -> PyResult<usize> {
        self.with_any(|m| m.storage_len())
    }

    /// The storage offset, in elements, of the logical `index`.
    fn offset(&self, index: Vec<usize>) -> PyResult<usize> {
        self.with_any(|m| m.try_offset(&index))?
            .map_err(value_error)
    }

    /// The `layout explain` text, bytes counted for `dtype` (float32 by default).
    #[pyo3(signature = (dtype=None))]
    fn explain(&self, py: Python<'_>, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        self.explain_text(crate::layout::element_bytes(py, dtype)?.unwrap_or(4))
    }

    /// Writes the `layout draw` picture to `path` (see `Layout.draw`).
    #[pyo3(signature = (path, color_by=None))]
    fn draw(&self, path: std::path::PathBuf, color_by: Option<&str>) -> PyResult<String> {
        self.draw_to(&path, color_by)
    }

    /// The `layout draw` picture, as SVG (what Jupyter shows); `None` when it is too large.
    fn _repr_svg_(&self) -> Option<String> {
        self.svg(None).ok()
    }

    fn __repr__(&self) -> String {
        format!("{}.bind({:?})", self.layout.__repr__(), self.dims)
    }
}
