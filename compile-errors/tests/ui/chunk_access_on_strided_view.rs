// Chunk access is for chunked layouts: a strided view has no chunks to number.
use tensor_layout::prelude::*;

fn main() {
    let t = Tensor::<u8, onednn::nchw>::zeros([1, 2, 3, 4]);
    let rows = t.slice(2, 1..3).unwrap();
    println!("{}", rows.chunk_count());
}
