// A read-only view cannot be written into; the message says what storage the call needs.
use tensor_layout::prelude::*;

fn main() {
    let src = Tensor::<u8, onednn::nchw>::zeros([1, 2, 3, 4]);
    let dst = Tensor::<u8, onednn::nhwc>::zeros([1, 2, 3, 4]);
    let mut view = dst.view();
    src.relayout_into(&mut view).unwrap();
}
