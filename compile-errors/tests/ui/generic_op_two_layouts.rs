// A generic element-wise op over one layout rejects two tensors of different layouts.
use tensor_layout::prelude::*;
use tensor_layout::tensors::Element;

fn add<T: Element + std::ops::Add<Output = T>, L: Layout>(a: &Tensor<T, L>, b: &Tensor<T, L>) -> usize {
    a.len() + b.len()
}

fn main() {
    let a = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    let b = Tensor::<u8, htp::R4Crouton2x2Layout>::zeros([1, 8, 8, 32]);
    add(&a, &b);
}
