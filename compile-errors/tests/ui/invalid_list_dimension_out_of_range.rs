// An invalid chunk list (0,0, 1,0, 2,0, 4,0) is rejected, with a message naming the problem, as soon as
// the layout is used.
use tensor_layout::prelude::*;

type Invalid = ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<4, 0>)>;

fn main() {
    let _ = Tensor::<u8, Invalid>::zeros([1, 2, 3, 4]);
}
