// A function whose signature names a layout accepts a tensor of that layout.
use tensor_layout::prelude::*;

fn conv_input(x: &Tensor<u8, htp::R4CroutonLayout>) -> usize {
    x.chunks().count()
}

fn main() {
    let x = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 16, 8, 32]);
    assert_eq!(conv_input(&x), 2);
}
