// A tensor with named axes is reordered by name, not by number.
use tensor_layout::prelude::*;

fn main() {
    let x = Tensor::<f32, onednn::nchw>::zeros([1, 16, 2, 2]);
    let _y = x.permute([0, 2, 3, 1]);
}
