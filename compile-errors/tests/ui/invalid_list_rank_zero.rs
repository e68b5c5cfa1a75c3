// A layout of rank 0 is rejected.
use tensor_layout::prelude::*;

fn main() {
    let _ = Mapping::<ChunkedMemoryLayout<0, (Chunk<0, 0>,)>>::new([]);
}
