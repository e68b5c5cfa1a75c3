// 4-bit elements are packed wherever they are stored: a `Tensor` of `u4` (one per byte) does not
// compile, and the message names the packed tensor.
use tensor_layout::prelude::*;
use tensor_layout::quantized::u4;

fn main() {
    let t = Tensor::<u4, megengine::NCHW64>::zeros([1, 64, 1, 1]);
    let _ = t.len();
}
