// Axis names spelled by hand must name every dimension of the layout.
use tensor_layout::prelude::*;
use tensor_layout::axes::Named;

type Flat = ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>), Named<'N', 'C', 'H'>>;

fn main() {
    let _ = Mapping::<Flat>::new([1, 2, 3, 4]);
}
