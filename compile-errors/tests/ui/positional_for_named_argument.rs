// A tensor whose layout states no axis names (oneDNN's positional `abcd`) handed to code written
// for NCHW: name its axes with `with_axes` first, so it does not compile as it is.
use tensor_layout::prelude::*;

fn takes_nchw(x: &Tensor<f32, onednn::nchw>) -> usize {
    x.len()
}

fn main() {
    let abcd = Tensor::<f32, onednn_layout!("abcd")>::zeros([1, 16, 4, 4]);
    takes_nchw(&abcd);
}
