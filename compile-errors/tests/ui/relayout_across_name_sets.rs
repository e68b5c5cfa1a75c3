// Activations relayouted into a weight layout: the axis names differ, so there is no element
// to move by name, and it does not compile.
use tensor_layout::prelude::*;

fn main() {
    let x = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    let _w = x.relayout::<onednn::OIhw16i16o>();
}
