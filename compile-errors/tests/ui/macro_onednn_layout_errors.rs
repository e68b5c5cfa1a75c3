// Invalid oneDNN tags are compile errors that say where and why.
use tensor_layout::prelude::*;

type UnknownLetter = onednn_layout!("nchx");
type BlockedWithoutBlock = onednn_layout!("nChw");
type BlockOnLowerCase = onednn_layout!("nchw16c");
type RepeatedLetter = onednn_layout!("ncchw");
type NotAString = onednn_layout!(nchw);

fn main() {}
