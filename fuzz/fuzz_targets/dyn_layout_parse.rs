//! Any text handed to `DynLayout::parse`: never a panic; a layout that reads prints in the long
//! form and reads back equal; bound to small dims, every offset lies inside the storage.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tensor_layout_fuzz_checks::dyn_layout_parse(data));
