// HTP's flat NHWC tensor handed to code written for oneDNN's NCHW: the same chunk list, other
// axis names, so it does not compile.
use tensor_layout::prelude::*;

fn takes_nchw(x: &Tensor<u8, onednn::nchw>) -> usize {
    x.len()
}

fn main() {
    let flat = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 8, 8, 32]);
    takes_nchw(&flat);
}
