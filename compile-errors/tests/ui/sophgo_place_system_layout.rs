// Local memory holds tensors in its own layouts; a system-memory layout is refused with a hint.
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{ExampleChip, LocalMemory};

fn main() {
    let memory = LocalMemory::<ExampleChip>::new();
    let _ = memory.place::<f32, _>(onednn::nchw::default(), [1, 2, 3, 4]);
}
