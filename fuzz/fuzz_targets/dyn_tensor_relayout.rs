//! Two chunk lists and dims from the input: a tensor built in one, relaid out into the other
//! and back, keeps every element, and the destination's padding holds its pad value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tensor_layout_fuzz_checks::dyn_tensor_relayout(data));
