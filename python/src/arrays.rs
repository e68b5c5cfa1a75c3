//! NumPy arrays in and out: an array (or a DLPack object) read as a layout's storage, and
//! views of a tensor's storage handed back without a copy.

use crate::elements::{Element, Width, bits_dtype, element_of};
use crate::errors::{by_x, mismatch};
use crate::layout::{LayoutKind, bind_chunked, bind_placed};
use crate::storage::{Elements, Placed};
use numpy::ndarray::{ArrayViewD, IxDyn, ShapeBuilder};
use numpy::{
    PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use tensor_layout::DynLayout;

/// A source array's elements as the engine's unsigned integers, borrowed (read-only) from
/// NumPy for as long as this lives.
pub enum Bits<'py> {
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
}

impl Bits<'_> {
    /// The elements, in storage order.
    pub fn elements(&self) -> PyResult<Elements<'_>> {
        Ok(match self {
            Bits::U8(a) => Elements::U8(a.as_slice()?),
            Bits::U16(a) => Elements::U16(a.as_slice()?),
            Bits::U32(a) => Elements::U32(a.as_slice()?),
        })
    }
}

/// An array read as a layout's storage: its elements, their type and the mapping they follow.
pub struct Source<'py> {
    pub bits: Bits<'py>,
    pub element: Element,
    pub dtype: Bound<'py, numpy::PyArrayDescr>,
    pub placed: Placed,
}

/// `object` as a NumPy array: itself, or a view of an object's `__dlpack__` tensor (read by
/// dlpark, without a copy: every supported dtype, bfloat16 included).
pub fn as_array<'py>(object: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(array) = object.cast::<PyUntypedArray>() {
        return Ok(array.clone());
    }
    if object.hasattr("__dlpack__")? {
        return crate::dlpack::import(object);
    }
    Err(PyTypeError::new_err(format!(
        "expected a NumPy array or an object with __dlpack__, found {}",
        object.get_type().name()?
    )))
}

/// Reads `array` as the storage of `layout`: with `dims`, a C-contiguous array of the storage
/// length (any shape; for a local layout, the chip's whole memory); without, the logical array
/// of a plain layout (one axis per logical dim, in the layout's axis order), whose strides
/// must be the layout's own.
pub fn read_source<'py>(
    array: &Bound<'py, PyUntypedArray>,
    layout: &LayoutKind,
    dims: Option<Vec<usize>>,
) -> PyResult<Source<'py>> {
    let dtype = array.dtype();
    let element = element_of(&dtype)?;
    layout.check_element(element)?;
    let (placed, ordered) = match (dims, layout) {
        (Some(dims), _) => {
            let placed = bind_placed(layout, &dims)?;
            if !array.is_c_contiguous() {
                return Err(mismatch(format!(
                    "the storage of {layout} must be C-contiguous, and this array (shape {:?}, \
                     strides {:?}) is not: pass numpy.ascontiguousarray(array)",
                    array.shape(),
                    array.strides()
                )));
            }
            let len = placed.storage_len();
            if array.len() != len {
                let what = match layout {
                    LayoutKind::Chunked(_) => "padding included",
                    LayoutKind::Local(_) => "the chip's whole local memory",
                };
                return Err(mismatch(format!(
                    "the array holds {} elements but {layout} on dims {} stores {len} ({what})",
                    array.len(),
                    by_x(&dims),
                )));
            }
            (placed, array.clone().into_any())
        }
        (None, LayoutKind::Chunked(layout)) => {
            let (mapping, ordered) = logical_view(array, layout)?;
            (Placed::Chunked(mapping), ordered)
        }
        (None, LayoutKind::Local(_)) => {
            return Err(mismatch(format!(
                "{layout} is a Sophgo local-memory layout: its storage is the chip's whole \
                 local memory, so pass that memory (as elements) with dims= (the logical dims, \
                 axes {})",
                crate::storage::axes_of(layout)
            )));
        }
    };
    let bits = ordered.call_method1("view", (bits_dtype(array.py(), element.width),))?;
    let bits = match element.width {
        Width::One => Bits::U8(bits.cast_into::<PyArrayDyn<u8>>()?.try_readonly()?),
        Width::Two => Bits::U16(bits.cast_into::<PyArrayDyn<u16>>()?.try_readonly()?),
        Width::Four => Bits::U32(bits.cast_into::<PyArrayDyn<u32>>()?.try_readonly()?),
    };
    Ok(Source {
        bits,
        element,
        dtype,
        placed,
    })
}

/// The logical array of a plain layout, transposed into storage order (a view, which must then
/// be C-contiguous), and the layout bound to the array's shape.
fn logical_view<'py>(
    array: &Bound<'py, PyUntypedArray>,
    layout: &DynLayout,
) -> PyResult<(tensor_layout::dynamic::DynMapping, Bound<'py, PyAny>)> {
    let word = layout.axis_word();
    if layout.entries().iter().any(|e| e.size > 0) {
        return Err(mismatch(format!(
            "{layout} stores blocks, so an array's shape does not give its logical dims: pass \
             its storage with dims= (the logical dims, axes {word})"
        )));
    }
    if array.ndim() != layout.rank() {
        return Err(mismatch(format!(
            "the array has {} axes (shape {:?}) but {layout} has rank {} (axes {word}): pass \
             the logical array, one axis per layout axis, or the storage with dims=",
            array.ndim(),
            array.shape(),
            layout.rank()
        )));
    }
    let dims = array.shape().to_vec();
    let mapping = bind_chunked(layout, &dims)?;
    let order: Vec<usize> = layout.entries().iter().map(|e| e.dim).collect();
    let ordered = array.call_method1("transpose", (order.clone(),))?;
    let contiguous = ordered.cast::<PyUntypedArray>()?.is_c_contiguous();
    if !contiguous {
        let memory: String = order.iter().map(|&d| word.letter(d)).collect();
        return Err(mismatch(format!(
            "the array (shape {:?}, strides {:?} bytes) is not {layout}'s storage on dims {}: \
             its axes {word} must lie in memory in the order {memory}, without gaps; pass \
             numpy.ascontiguousarray of that order transposed back, or the storage with dims=",
            array.shape(),
            array.strides(),
            by_x(&dims)
        )));
    }
    Ok((mapping, ordered))
}

/// A NumPy array of `dtype` over `storage`'s memory (shape and strides in elements, from
/// `offset`), which keeps `owner` (the tensor) alive.
///
/// # Safety
/// `data` points at `len` elements of `width` that stay allocated while `owner` lives, and the
/// shape, strides and offset stay within them.
pub unsafe fn view_of<'py>(
    owner: Bound<'py, PyAny>,
    data: *mut u8,
    width: Width,
    form: (&[usize], &[usize], usize),
    dtype: &Bound<'py, numpy::PyArrayDescr>,
) -> PyResult<Bound<'py, PyAny>> {
    let (shape, strides, offset) = form;
    let dim = IxDyn(shape).strides(IxDyn(strides));
    // SAFETY (each arm): the caller promises the memory and that the form stays within it;
    // `owner` becomes the array's base, so the memory outlives the array.
    let array = unsafe {
        match width {
            Width::One => {
                let view = ArrayViewD::from_shape_ptr(dim, data.add(offset));
                PyArrayDyn::<u8>::borrow_from_array(&view, owner).into_any()
            }
            Width::Two => {
                let view = ArrayViewD::from_shape_ptr(dim, data.cast::<u16>().add(offset));
                PyArrayDyn::<u16>::borrow_from_array(&view, owner).into_any()
            }
            Width::Four => {
                let view = ArrayViewD::from_shape_ptr(dim, data.cast::<u32>().add(offset));
                PyArrayDyn::<u32>::borrow_from_array(&view, owner).into_any()
            }
        }
    };
    array.call_method1("view", (dtype,))
}
