// Croutons (NHWC) into oneDNN's nChw32c (NCHW): the same names in another order.
use tensor_layout::prelude::*;

fn main() {
    let x = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 5, 6, 40], |[_, h, w, c]| (h + w + c) as u8);
    let y = x.relayout::<onednn::nChw32c>();
    assert_eq!(y.dims(), [1, 40, 5, 6]);
    let positional = Tensor::<f32, chunked_layout![4; 0,0, 1,0, 2,0, 3,0]>::zeros([1, 16, 2, 2]);
    let _named = positional.with_axes::<names::NCHW>().relayout::<onednn::nChw16c>();
}
