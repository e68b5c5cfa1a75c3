// A kernel written for quantized activations (scale and offset) given plain bytes of the same
// layout: the interface is part of the type, so it does not compile.
use tensor_layout::prelude::*;

fn requantize(x: &Tensor<u8, htp::R4CroutonLayout, ScaleOffset>) -> f32 {
    x.real([0, 0, 0, 0])
}

fn main() {
    let plain = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    requantize(&plain);
}
