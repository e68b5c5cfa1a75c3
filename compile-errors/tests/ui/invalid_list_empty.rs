// An empty chunk list is rejected.
use tensor_layout::prelude::*;

fn main() {
    let _ = Mapping::<ChunkedMemoryLayout<2, ()>>::new([1, 2]);
}
