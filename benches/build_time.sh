#!/usr/bin/env bash
# How long a user's crate that uses many layouts takes to build: generates a crate with N
# layout types (named by an axis word, with different blocks), each used for a mapping, an
# offset, a tensor and a row-major copy, against the library at LIBRARY (default: this checkout),
# builds its dependencies once, then times the crate's own dev build R times (touching its
# source in between) and prints each time in milliseconds.
# Usage: bash benches/build_time.sh [N=50] [R=3] [LIBRARY=.]
set -euo pipefail
n=${1:-50}
runs=${2:-3}
source "$(dirname "$0")/support/user_crate.sh"
user_crate many-layouts "${3:-}"
{
  echo 'use tensor_layout::prelude::*;'
  echo 'fn main() {'
  echo '    let mut total = 0usize;'
  for i in $(seq 1 "$n"); do
    block=$(( (i % 7) + 2 ))
    dim=$(( i % 4 ))
    inner=$(( (i / 7) % 4 + 1 ))
    # Plain chunk lists need no axis word in the old library: use the rank there.
    echo "    {"
    echo "        type L = chunked_layout![WORD; 0,0, 1,0, 2,0, 3,0, $dim,$block, $(( (dim + 1) % 4 )),$inner];"
    echo "        let m = Mapping::<L>::new([2, 9, 7, 33]).unwrap();"
    echo "        let t = Tensor::<u16, L>::from_fn([2, 9, 7, 33], |[a, b, c, d]| (a + b + c + d) as u16);"
    echo "        total += m.offset([1, 2, 3, 4]) + t.to_row_major().len();"
    echo "    }"
  done
  echo '    println!("{total}");'
  echo '}'
} > "$work/src/main.rs"
if grep -q "fn axis_word" "$library/layout-core/src/layout.rs" 2>/dev/null; then
  sed -i 's/WORD;/NHWC;/' "$work/src/main.rs"
else
  sed -i 's/WORD;/4;/' "$work/src/main.rs"
fi
cd "$work"
CARGO_TARGET_DIR="$work/target" cargo build --quiet 2>/dev/null || CARGO_TARGET_DIR="$work/target" cargo build
for _ in $(seq 1 "$runs"); do
  touch src/main.rs
  start=$(date +%s%N)
  CARGO_TARGET_DIR="$work/target" cargo build --quiet
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 )) ms"

done
