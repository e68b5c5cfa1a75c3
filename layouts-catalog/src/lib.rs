//! Named layouts of the systems tensor-layout serves, one module per system.
//!
//! Logical dimension order is the owning system's convention; the module says which system.
//!
//! ```
//! use layouts_catalog::htp;
//! use layout_core::Mapping;
//! let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
//! assert_eq!(m.padded_dims(), [1, 8, 8, 32]);
//! ```
#![no_std]
#![warn(missing_docs)]

///
/// ```
/// assert_eq!(layouts_catalog::htp::R4CroutonLayout::CHUNK_VOLUME, 2048);
/// ```
pub mod htp;
pub mod megengine;
pub mod onednn;
pub mod registry;
pub mod sophgo;

extern crate alloc;

/// The README's example, compiled and run as a doctest so the README stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
