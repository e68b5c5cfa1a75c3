//! `tensor_layout` for Python: tensor layouts read by name at run time (oneDNN, Qualcomm HTP,
//! MegEngine, Sophgo), relayouts of NumPy arrays by the library's engine, DLPack in and out,
//! and the `layout` command's explanations and drawings.

mod arrays;
mod dlpack;
mod elements;
mod errors;
mod layout;
mod local;
mod local_text;
mod mapping;
mod storage;
mod tensor;

use pyo3::prelude::*;

/// Every catalog layout's name, `module::Name` (`htp::R4CroutonLayout`, `onednn::nChw16c`).
#[pyfunction]
fn catalog() -> Vec<String> {
    tensor_layout::registry::all()
        .iter()
        .map(|entry| entry.qualified_name())
        .collect()
}

/// The NumPy names of the element types `relayout` moves.
#[pyfunction]
fn dtypes() -> Vec<&'static str> {
    elements::ELEMENTS.iter().map(|e| e.name).collect()
}

#[pymodule(name = "tensor_layout")]
fn python_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<layout::Layout>()?;
    m.add_class::<mapping::Mapping>()?;
    m.add_class::<tensor::Tensor>()?;
    m.add_function(wrap_pyfunction!(tensor::relayout, m)?)?;
    m.add_function(wrap_pyfunction!(catalog, m)?)?;
    m.add_function(wrap_pyfunction!(dtypes, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
