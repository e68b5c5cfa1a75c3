// oneDNN's channels-last tensor handed to code written for its plain NCHW: the same axes, another
// memory order, so it does not compile.
use tensor_layout::prelude::*;

fn takes_nchw(x: &Tensor<f32, onednn::nchw>) -> usize {
    x.len()
}

fn main() {
    let nhwc = Tensor::<f32, onednn::nhwc>::zeros([1, 16, 4, 4]);
    takes_nchw(&nhwc);
}
