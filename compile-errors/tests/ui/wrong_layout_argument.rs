// A flat tensor handed to code written for croutons does not compile.
use tensor_layout::prelude::*;

fn conv_input(x: &Tensor<u8, htp::R4CroutonLayout>) -> usize {
    x.len()
}

fn main() {
    let flat = Tensor::<u8, htp::R4FlatMemoryLayout>::zeros([1, 8, 8, 32]);
    conv_input(&flat);
}
