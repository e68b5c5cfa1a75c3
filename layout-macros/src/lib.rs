//! Procedural macros of tensor-layout.
