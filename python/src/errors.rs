//! The library's errors as Python exceptions: `ValueError` with the library's message.

use pyo3::PyErr;
use pyo3::exceptions::PyValueError;
use tensor_layout::LayoutError;

/// A `ValueError` carrying the library's message (for a parse error: the text, the position
/// and what was expected there).
pub fn value_error(error: LayoutError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A `ValueError` with a message of this package (one naming both sides of a mismatch).
pub fn mismatch(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// Dims as `2x3x4x5`, as the `layout` command prints them.
pub fn by_x(dims: &[usize]) -> String {
    let parts: Vec<String> = dims.iter().map(ToString::to_string).collect();
    if parts.is_empty() {
        "()".to_string()
    } else {
        parts.join("x")
    }
}
