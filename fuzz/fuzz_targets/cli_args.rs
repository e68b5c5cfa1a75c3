//! The `layout` command's readers of LAYOUT, DIMS, INDEX and AXIS on any text: an answer or a
//! one-line error, never a panic; what reads prints back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tensor_layout_fuzz_checks::cli_args(data));
