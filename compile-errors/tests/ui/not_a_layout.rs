// A type that is not a layout cannot be a tensor's layout; the message says so.
use tensor_layout::prelude::*;

fn main() {
    let _ = Tensor::<u8, u32>::zeros([1, 2, 3, 4]);
}
