//! `Layout`: a layout read from text at run time, a chunk list or a Sophgo local-memory layout.

use crate::elements::Element;
use crate::errors::{by_x, value_error};
use crate::local_text::{LocalText, local_text, parse_local};
use crate::mapping::Mapping;
use crate::storage::{Placed, axes_of};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tensor_layout::sophgo::{ChipName, DynLocalLayout, StorageModeName};
use tensor_layout::{DynLayout, LayoutError, axes::AxisWord};

/// What a `Layout` holds: a chunked layout, or a layout of a Sophgo chip's local memory.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayoutKind {
    /// Any spelling `DynLayout::parse` reads.
    Chunked(DynLayout),
    /// `sophgo::Compact`, `EuAligned`, `LineAligned`, `FreeStrides` or `Matrix` on a chip.
    Local(DynLocalLayout),
}

impl std::fmt::Display for LayoutKind {
    /// The text `Layout` reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutKind::Chunked(layout) => write!(f, "{layout}"),
            LayoutKind::Local(layout) => f.write_str(&local_text(layout)),
        }
    }
}

impl LayoutKind {
    /// The number of logical dims.
    pub fn rank(&self) -> usize {
        match self {
            LayoutKind::Chunked(layout) => layout.rank(),
            LayoutKind::Local(layout) => layout.rank(),
        }
    }

    /// Checks that `element`s can be stored in this layout: a local layout places elements of
    /// one size (its `dtype`), a chunked one any.
    pub fn check_element(&self, element: Element) -> PyResult<()> {
        match self {
            LayoutKind::Local(layout) if layout.element_bytes != element.width.bytes() => {
                Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "{} places {}-byte elements, and these are {}-byte {}: give the layout \
                     dtype=\"{}\"",
                    local_text(layout),
                    layout.element_bytes,
                    element.width.bytes(),
                    element.name,
                    element.name
                )))
            }
            _ => Ok(()),
        }
    }
}

/// A tensor layout read from text: a catalog name (`"nChw16c"`, `"htp.R4CroutonLayout"`),
/// the long form `ChunkedMemoryLayout<NHWC, 0,0, ...>`, the short form `NHWC: 0,0 1,0 ...`, a
/// oneDNN tag, or a Sophgo local-memory layout with its chip
/// (`Layout("sophgo::EuAligned", chip="BM1684X")`).
#[pyclass(frozen, eq, hash, module = "tensor_layout", name = "Layout")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub kind: LayoutKind,
}

/// The keyword arguments that place a Sophgo local-memory layout.
struct LocalOptions<'a> {
    chip: Option<&'a str>,
    address: Option<usize>,
    mode: Option<&'a str>,
    strides: Option<[usize; 4]>,
    width: Option<usize>,
    element_bytes: Option<usize>,
}

impl LocalOptions<'_> {
    fn any(&self) -> bool {
        self.chip.is_some()
            || self.address.is_some()
            || self.mode.is_some()
            || self.strides.is_some()
            || self.width.is_some()
    }
}

/// `given` from the text or from a keyword, an error when both give different values.
fn one_of<T: PartialEq + std::fmt::Debug>(
    what: &str,
    text: Option<T>,
    keyword: Option<T>,
) -> PyResult<Option<T>> {
    match (text, keyword) {
        (Some(a), Some(b)) if a != b => Err(PyValueError::new_err(format!(
            "the layout's text gives {what} {a:?} and the keyword {what}={b:?}: give one"
        ))),
        (text, keyword) => Ok(text.or(keyword)),
    }
}

impl Layout {
    /// Reads `text` (a chunked layout, or a local layout completed by `options`).
    fn read(text: &str, options: &LocalOptions<'_>) -> PyResult<Self> {
        let parts = parse_local(text).map_err(PyValueError::new_err)?;
        let Some(parts) = parts else {
            let layout = parse_chunked(text)?;
            if options.any() {
                return Err(PyValueError::new_err(format!(
                    "chip, address, mode, strides and width place a Sophgo local-memory layout, \
                     and {text} is not one (sophgo::Compact, EuAligned, LineAligned, FreeStrides \
                     or Matrix)"
                )));
            }
            return Ok(Self {
                kind: LayoutKind::Chunked(layout),
            });
        };
        Self::local(parts, options).map(|layout| Self {
            kind: LayoutKind::Local(layout),
        })
    }

    fn local(parts: LocalText, options: &LocalOptions<'_>) -> PyResult<DynLocalLayout> {
        let kind = parts.kind.expect("a local text names its layout");
        let chip_keyword = options
            .chip
            .map(ChipName::parse)
            .transpose()
            .map_err(value_error)?;
        let Some(chip) = one_of("chip", parts.chip, chip_keyword)? else {
            return Err(PyValueError::new_err(format!(
                "{kind} lives in the local memory of a chip: give chip=\"BM1684\", \
                 \"BM1684X\", \"BM1688\" or \"ExampleChip\""
            )));
        };
        let address = one_of("address", parts.address, options.address)?.unwrap_or(0);
        let bytes =
            one_of("element size", parts.element_bytes, options.element_bytes)?.unwrap_or(4);
        let mut layout = DynLocalLayout::new(kind, chip, address, bytes);
        let mode_keyword = options
            .mode
            .map(StorageModeName::parse)
            .transpose()
            .map_err(value_error)?;
        if let Some(mode) = one_of("mode", parts.mode, mode_keyword)? {
            layout = layout.with_mode(mode);
        }
        if let Some(strides) = one_of("strides", parts.strides, options.strides)? {
            layout = layout.with_strides(strides);
        }
        if let Some(width) = one_of("width", parts.width, options.width)? {
            layout = layout.with_width(width);
        }
        Ok(layout)
    }

    /// The number of logical dims.
    pub fn rank_of(&self) -> usize {
        match &self.kind {
            LayoutKind::Chunked(layout) => layout.rank(),
            LayoutKind::Local(layout) => layout.rank(),
        }
    }

    /// Dims that show the layout in a drawing: one block of each blocked axis, two of each
    /// other axis, fewer where the drawing would be too large.
    fn example_dims(&self) -> Vec<usize> {
        match &self.kind {
            LayoutKind::Chunked(layout) => {
                let blocks = layout_cli::report::blocks(layout);
                let mut dims: Vec<usize> =
                    blocks.iter().map(|&b| if b > 1 { b } else { 2 }).collect();
                for d in 0..dims.len() {
                    if dims.iter().product::<usize>() <= layout_cli::MAX_CELLS {
                        break;
                    }
                    if blocks[d] == 1 {
                        dims[d] = 1;
                    }
                }
                dims
            }
            LayoutKind::Local(layout) if layout.rank() == 2 => {
                vec![2, layout.width.unwrap_or(1) * 2]
            }
            LayoutKind::Local(_) => vec![1, 3, 2, 2],
        }
    }
}

/// Reads a chunked layout; a catalog name may name its module with a dot
/// (`htp.R4CroutonLayout`, as Python spells a module) as well as with `::`. Parse errors
/// quote the text as given, positions counted in it.
fn parse_chunked(text: &str) -> PyResult<DynLayout> {
    let dotted = text.trim_start().split_once('.').filter(|(module, name)| {
        layout_notation::is_module(module)
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    let Some((module, name)) = dotted else {
        return DynLayout::parse(text).map_err(value_error);
    };
    let blanks = text.len() - text.trim_start().len();
    DynLayout::parse(&format!("{module}::{name}")).map_err(|error| match error {
        LayoutError::Parse {
            position, expected, ..
        } => value_error(LayoutError::Parse {
            what: "layout",
            input: text.to_string(),
            // `::` is one character longer than the dot.
            position: blanks
                + if position > module.len() {
                    position - 1
                } else {
                    position
                },
            expected,
        }),
        other => value_error(other),
    })
}

/// Bytes per element of a NumPy dtype (anything `numpy.dtype` takes), 4 when none is given.
pub fn element_bytes(py: Python<'_>, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    dtype
        .map(|d| {
            py.import("numpy")?
                .call_method1("dtype", (d,))?
                .getattr("itemsize")?
                .extract()
        })
        .transpose()
}

#[pymethods]
impl Layout {
    /// Reads a layout. A Sophgo local-memory layout takes its chip, start address (bytes),
    /// storage mode (`"4N"`, `"2N"`, `"2IC"`), free strides, matrix width and element type
    /// as keywords, or in the text as `Layout` prints it.
    #[new]
    #[pyo3(signature = (text, *, chip=None, address=None, mode=None, strides=None, width=None, dtype=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: &str,
        chip: Option<&str>,
        address: Option<usize>,
        mode: Option<&str>,
        strides: Option<[usize; 4]>,
        width: Option<usize>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let element_bytes = element_bytes(py, dtype)?;
        let options = LocalOptions {
            chip,
            address,
            mode,
            strides,
            width,
            element_bytes,
        };
        if dtype.is_some() && parse_local(text).ok().flatten().is_none() {
            return Err(PyValueError::new_err(format!(
                "dtype places a Sophgo local-memory layout's elements, and {text} is not one: a \
                 chunked layout counts elements, whatever their type"
            )));
        }
        Self::read(text, &options)
    }

    /// The axis names in logical order, e.g. `"NCHW"` (`"abcd"` for positional axes).
    #[getter]
    fn axes(&self) -> String {
        match &self.kind {
            LayoutKind::Chunked(layout) => layout.axis_word().as_str().to_string(),
            LayoutKind::Local(layout) => crate::local::local_axes(layout).as_str().to_string(),
        }
    }

    /// The number of logical dims.
    #[getter]
    fn rank(&self) -> usize {
        self.rank_of()
    }

    /// The chunk list, most major first, as `(dim, size)` pairs (size 0: the rest of the
    /// dimension); `None` for a Sophgo local-memory layout.
    #[getter]
    fn entries(&self) -> Option<Vec<(usize, usize)>> {
        match &self.kind {
            LayoutKind::Chunked(layout) => {
                Some(layout.entries().iter().map(|e| (e.dim, e.size)).collect())
            }
            LayoutKind::Local(_) => None,
        }
    }

    /// Whether this is a Sophgo local-memory layout.
    #[getter]
    fn is_local(&self) -> bool {
        matches!(self.kind, LayoutKind::Local(_))
    }

    /// The layout bound to logical `dims` (in the layout's axis order).
    fn bind(&self, dims: Vec<usize>) -> PyResult<Mapping> {
        Mapping::new(self.clone(), dims)
    }

    /// The `layout explain` text of this layout on `dims`, bytes counted for `dtype`
    /// (float32 by default; a local layout's element size is its own).
    #[pyo3(signature = (dims, dtype=None))]
    fn explain(
        &self,
        py: Python<'_>,
        dims: Vec<usize>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        self.bind(dims)?
            .explain_text(element_bytes(py, dtype)?.unwrap_or(4))
    }

    /// Writes the `layout draw` picture of this layout on `dims` to `path` (`.svg`; `.png` only
    /// where the extension was built with PNG support), cells coloured by `color_by` (an axis
    /// letter or position; the last axis by default).
    #[pyo3(signature = (dims, path, color_by=None))]
    fn draw(
        &self,
        dims: Vec<usize>,
        path: std::path::PathBuf,
        color_by: Option<&str>,
    ) -> PyResult<String> {
        self.bind(dims)?.draw_to(&path, color_by)
    }

    /// The `layout draw` picture on small example dims, as SVG (what Jupyter shows).
    fn _repr_svg_(&self) -> Option<String> {
        Mapping::new(self.clone(), self.example_dims())
            .ok()?
            .svg(None)
            .ok()
    }

    pub fn __str__(&self) -> String {
        match &self.kind {
            LayoutKind::Chunked(layout) => layout.to_string(),
            LayoutKind::Local(layout) => local_text(layout),
        }
    }

    pub fn __repr__(&self) -> String {
        format!("Layout({:?})", self.__str__())
    }
}

/// A layout given as a `Layout` or as text.
pub fn layout_argument(value: &Bound<'_, PyAny>) -> PyResult<Layout> {
    if let Ok(layout) = value.cast::<Layout>() {
        return Ok(layout.get().clone());
    }
    let text: String = value.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "expected a Layout or its text, found {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))
    })?;
    Layout::read(
        &text,
        &LocalOptions {
            chip: None,
            address: None,
            mode: None,
            strides: None,
            width: None,
            element_bytes: None,
        },
    )
}

/// `layout` bound to `dims` (a local layout: placed on its chip), a `ValueError` naming both
/// when the dims have another length, or with the library's reason.
pub fn bind_placed(layout: &LayoutKind, dims: &[usize]) -> PyResult<Placed> {
    check_rank(dims, layout, layout.rank(), axes_of(layout))?;
    Placed::bind(layout, dims).map_err(value_error)
}

/// `layout` bound to `dims`, a `ValueError` naming both when the dims have another length.
pub fn bind_chunked(
    layout: &DynLayout,
    dims: &[usize],
) -> PyResult<tensor_layout::dynamic::DynMapping> {
    check_rank(dims, layout, layout.rank(), layout.axis_word())?;
    layout.bind(dims).map_err(value_error)
}

/// A `ValueError` naming `dims` and `layout` (of rank `rank`, axes `axes`) when the dims have
/// another length than the rank.
fn check_rank(
    dims: &[usize],
    layout: &dyn std::fmt::Display,
    rank: usize,
    axes: AxisWord,
) -> PyResult<()> {
    if dims.len() == rank {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "dims {} have {} coordinates but {layout} has rank {rank} (axes {axes})",
        by_x(dims),
        dims.len(),
    )))
}
