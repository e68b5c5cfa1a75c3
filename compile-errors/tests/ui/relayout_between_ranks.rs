// Relayout needs a destination layout of the same rank.
use tensor_layout::prelude::*;

type Rank5 = onednn_layout!("ncdhw");

fn main() {
    let t = Tensor::<f32, htp::R4FlatMemoryLayout>::zeros([1, 2, 3, 4]);
    let _ = t.relayout::<Rank5>();
}
