// A chunk seen as an array must have the layout's chunk volume: a crouton chunk holds 2048
// slots, so an array of 1024 does not build.
use tensor_layout::prelude::*;

fn main() {
    let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    let chunk = t.chunk_view(0).unwrap();
    let slots: &[u8; 1024] = chunk.as_array();
    println!("{}", slots[0]);
}
