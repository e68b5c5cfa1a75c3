// A generic op over two tensors of one layout, given HTP's flat NHWC and oneDNN's NCHW: one
// chunk list, two layouts, so it does not compile.
use tensor_layout::prelude::*;

fn add<L: Layout>(a: &Tensor<u8, L>, b: &Tensor<u8, L>) -> usize {
    a.len() + b.len()
}

fn main() {
    let a = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 2, 2, 2]);
    let b = Tensor::<u8, onednn::nchw>::zeros([1, 2, 2, 2]);
    add(&a, &b);
}
