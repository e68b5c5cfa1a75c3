//! `Wisdom::parse` of any text: an error, or wisdom that reads back equal and, used for a small
//! relayout, plans one that gives exactly the reference result.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tensor_layout_fuzz_checks::wisdom_parse(data));
