//! `RelayoutPlan` on random relayouts (ranks 1 to 4, named axes in two orders, elements of 1 to
//! 8 bytes): planned by the cache model, with random choices through wisdom, and measured on
//! small tensors; every result checked element by element against both mappings.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tensor_layout_fuzz_checks::relayout_plan(data));
