// `Named<...>` letters that spell a word of `names` are refused: the word has a type of its own,
// so that each word is one type.
use tensor_layout::prelude::*;
use tensor_layout::axes::Named;

type Flat = ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>), Named<'N', 'C', 'H', 'W'>>;

fn main() {
    let _ = Tensor::<u8, Flat>::zeros([1, 2, 3, 4]);
}
