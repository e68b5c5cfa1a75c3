//! The element types the package moves: which NumPy dtypes, how wide, and how DLPack names them.
//!
//! A relayout moves elements without looking at their values, and every supported type's zero
//! is all zero bits; so the engine runs on unsigned integers of the element's width (three
//! instantiations instead of nine), and the dtype travels beside the storage.

use dlpark::ffi::{DLDataType, DLDataTypeCode};
use numpy::{PyArrayDescr, PyArrayDescrMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// How many bytes an element has: the unsigned integer the engine moves it as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// int8, uint8: moved as `u8`.
    One,
    /// float16, bfloat16, int16, uint16: moved as `u16`.
    Two,
    /// float32, int32, uint32: moved as `u32`.
    Four,
}

impl Width {
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Width::One => 1,
            Width::Two => 2,
            Width::Four => 4,
        }
    }
}

/// One supported element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    /// NumPy's name of the dtype (`"float32"`, `"bfloat16"`).
    pub name: &'static str,
    /// The width the engine moves it at.
    pub width: Width,
    /// DLPack's type code and bits.
    pub dlpack: DLDataType,
}

const fn element(name: &'static str, width: Width, code: DLDataTypeCode, bits: u8) -> Element {
    Element {
        name,
        width,
        dlpack: DLDataType {
            code,
            bits,
            lanes: 1,
        },
    }
}

/// Every supported element type, by NumPy's name.
pub const ELEMENTS: [Element; 9] = [
    element("float32", Width::Four, DLDataTypeCode::FLOAT, 32),
    element("int32", Width::Four, DLDataTypeCode::INT, 32),
    element("uint32", Width::Four, DLDataTypeCode::UINT, 32),
    element("float16", Width::Two, DLDataTypeCode::FLOAT, 16),
    element("bfloat16", Width::Two, DLDataTypeCode::BFLOAT, 16),
    element("int16", Width::Two, DLDataTypeCode::INT, 16),
    element("uint16", Width::Two, DLDataTypeCode::UINT, 16),
    element("int8", Width::One, DLDataTypeCode::INT, 8),
    element("uint8", Width::One, DLDataTypeCode::UINT, 8),
];

/// The element type of `dtype`, or a `TypeError` naming it and the supported ones.
pub fn element_of(dtype: &Bound<'_, PyArrayDescr>) -> PyResult<Element> {
    let name: String = dtype.getattr("name")?.extract()?;
    ELEMENTS
        .iter()
        .find(|e| e.name == name && dtype.itemsize() == e.dlpack.bits as usize / 8)
        .copied()
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "unsupported dtype {name}: expected float32, float16, bfloat16 (ml_dtypes), \
                 int8, uint8, int16, uint16, int32 or uint32"
            ))
        })
}

/// The unsigned integer dtype of `width`, the engine's view of the elements.
pub fn bits_dtype<'py>(py: Python<'py>, width: Width) -> Bound<'py, PyArrayDescr> {
    match width {
        Width::One => numpy::dtype::<u8>(py),
        Width::Two => numpy::dtype::<u16>(py),
        Width::Four => numpy::dtype::<u32>(py),
    }
}

/// A DLPack type's name as NumPy spells its dtypes (`float64`, `bfloat16`, `bool`).
fn dlpack_name(dtype: DLDataType) -> String {
    let kind = match dtype.code {
        DLDataTypeCode::INT => "int",
        DLDataTypeCode::UINT => "uint",
        DLDataTypeCode::FLOAT => "float",
        DLDataTypeCode::BFLOAT => "bfloat",
        DLDataTypeCode::COMPLEX => "complex",
        DLDataTypeCode::BOOL => return "bool".to_string(),
        other => return format!("DLPack type code {}, {} bits", other.0, dtype.bits),
    };
    match dtype.lanes {
        1 => format!("{kind}{}", dtype.bits),
        lanes => format!("{kind}{}x{lanes}", dtype.bits),
    }
}

/// The element type of a DLPack tensor's `dtype`, or a `TypeError` naming it.
pub fn element_of_dlpack(dtype: DLDataType) -> PyResult<Element> {
    ELEMENTS
        .iter()
        .find(|e| e.dlpack == dtype)
        .copied()
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "unsupported dtype {}: expected float32, float16, bfloat16 (ml_dtypes), \
                 int8, uint8, int16, uint16, int32 or uint32",
                dlpack_name(dtype)
            ))
        })
}

impl Element {
    /// NumPy's dtype of these elements; bfloat16 is `ml_dtypes.bfloat16`, a `TypeError` where
    /// `ml_dtypes` is not installed.
    pub fn descr<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDescr>> {
        let dtype = if self.dlpack.code == DLDataTypeCode::BFLOAT {
            let ml_dtypes = py.import("ml_dtypes").map_err(|_| {
                PyTypeError::new_err(
                    "bfloat16 elements need NumPy's bfloat16 dtype, which the ml_dtypes \
                     package provides: pip install ml_dtypes",
                )
            })?;
            ml_dtypes.getattr("bfloat16")?
        } else {
            py.import("numpy")?.getattr(self.name)?
        };
        PyArrayDescr::new(py, &dtype)
    }
}
