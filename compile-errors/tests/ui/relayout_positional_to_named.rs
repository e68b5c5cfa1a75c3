// A positional tensor does not become a named one by relayout: name its axes with `with_axes`.
use tensor_layout::prelude::*;

fn main() {
    let x = Tensor::<f32, chunked_layout![4; 0,0, 1,0, 2,0, 3,0]>::zeros([1, 16, 2, 2]);
    let _y = x.relayout::<onednn::nChw16c>();
}
