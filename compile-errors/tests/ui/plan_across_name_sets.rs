// A plan from activations into a weight layout: the axis names differ, so, as for `relayout`,
// it does not compile.
use tensor_layout::prelude::*;

fn main() {
    let x = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
    let w = Tensor::<u8, onednn::OIhw16i16o>::zeros([1, 8, 8, 32]);
    let _plan = RelayoutPlan::new(&x, &w);
}
