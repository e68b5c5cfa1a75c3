#!/usr/bin/env bash
# What the first relayouts cost a user's build: generates a small crate that builds tensors of
# one element type in a few oneDNN and HTP layouts, builds it without any relayout call and then
# with N relayouts between different pairs, and prints how long the crate's own build took each
# way (dependencies built beforehand, so only the crate itself compiles), for a dev build and a
# release build, incremental (the crate rebuilt after an edit) and clean (its own artefacts
# removed first).
# Usage: bash benches/relayout_build_time.sh [N=1] [TYPE=f32] [LIBRARY=.]
set -euo pipefail
n=${1:-1}
ty=${2:-f32}
source "$(dirname "$0")/support/user_crate.sh"
user_crate first-relayout "${3:-}"

# Source and destination of each relayout, all of NCHW axes so any pair converts.
pairs=(
  "onednn::nchw onednn::nChw16c"
  "onednn::nhwc onednn::nChw8c"
  "onednn::nChw16c onednn::nchw"
  "onednn::nchw onednn::nhwc"
  "onednn::nChw8c onednn::nChw16c"
  "onednn::nhwc onednn::nchw"
  "onednn::nChw16c onednn::nhwc"
  "onednn::nChw32c onednn::nchw"
)
if (( n > ${#pairs[@]} )); then
  echo "at most ${#pairs[@]} pairs" >&2
  exit 2
fi

# `with_relayouts` 0 or 1: the crate's main.rs, the same tensors either way.
write_main() {
  {
    echo 'use tensor_layout::prelude::*;'
    echo 'fn main() {'
    echo '    let mut total = 0usize;'
    for i in $(seq 0 $(( n - 1 ))); do
      read -r src dst <<< "${pairs[$i]}"
      echo "    {"
      echo "        let x = Tensor::<$ty, $src>::from_fn([2, 19, 5, 7], |[a, b, c, d]| (a + b + c + d) as u8 as $ty);"
      echo "        let y = Tensor::<$ty, $dst>::from_fn([2, 19, 5, 7], |[a, b, c, d]| (a * b + c * d) as u8 as $ty);"
      if (( $1 )); then
        echo "        let z = x.relayout::<$dst>();"
        echo "        total += (z[[1, 2, 3, 4]] == y[[1, 2, 3, 4]]) as usize;"
      fi
      echo "        total += x.to_row_major().len() + y.to_row_major().len();"
      echo "    }"
    done
    echo '    println!("{total}");'
    echo '}'
  } > "$work/src/main.rs"
}

cd "$work"
export CARGO_TARGET_DIR="$work/target"
millis() {
  local start end
  start=$(date +%s%N)
  cargo build --quiet "$@"
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

echo "$n relayout pair(s) of $ty, library at $library"
printf '%-8s %-12s %10s %10s %10s\n' profile build without with added
for profile in dev release; do
  flag=()
  [[ $profile == release ]] && flag=(--release)
  write_main 0
  cargo build --quiet "${flag[@]}" # dependencies, once
  touch src/main.rs
  incr_without=$(millis "${flag[@]}")
  write_main 1
  incr_with=$(millis "${flag[@]}")
  write_main 0
  cargo clean --quiet -p first-relayout "${flag[@]}"
  clean_without=$(millis "${flag[@]}")
  write_main 1
  cargo clean --quiet -p first-relayout "${flag[@]}"
  clean_with=$(millis "${flag[@]}")
  printf '%-8s %-12s %8s ms %8s ms %8s ms\n' "$profile" incremental "$incr_without" "$incr_with" $(( incr_with - incr_without ))
  printf '%-8s %-12s %8s ms %8s ms %8s ms\n' "$profile" clean "$clean_without" "$clean_with" $(( clean_with - clean_without ))
done
