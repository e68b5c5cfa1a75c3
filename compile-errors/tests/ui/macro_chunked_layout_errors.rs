// Every mistake in a chunked_layout! spelling is reported, each on its token, all at once.
use tensor_layout::prelude::*;

type RankZero = chunked_layout![0; 0,0];
type OutOfRange = chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 4,8];
type NoRest = chunked_layout![4; 0,0, 1,0, 3,0, 3,32];
type TwoRests = chunked_layout![4; 0,0, 1,0, 1,0, 2,0, 3,0];
type RestAfterFixed = chunked_layout![2; 0,0, 1,8, 1,0];
type OddCount = chunked_layout![2; 0,0, 1];
type NotAnInteger = chunked_layout![2; 0,0, 1,x];
type TooMany = chunked_layout![2; 0,0, 1,0, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1];
type Several = chunked_layout![3; 0,0, 5,0, 1,4];
type RepeatedAxis = chunked_layout![NHWN; 0,0, 1,0, 2,0, 3,0];
type MixedCase = chunked_layout![NhWC; 0,0, 1,0, 2,0, 3,0];
type WordTooShort = chunked_layout![NHW; 0,0, 1,0, 2,0, 3,0];

fn main() {}
