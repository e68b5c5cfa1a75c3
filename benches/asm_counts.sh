#!/usr/bin/env bash
# Builds examples/offset_asm.rs and counts, for each layout, the instructions of the library's
# offset function and of the hand-written formula, and the divisions and branches in each; then
# the same for two loops over one chunk read through the layout's in-chunk offsets.
# Usage: bash benches/asm_counts.sh   (needs objdump, from binutils)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --example offset_asm --quiet
bin=target/release/examples/offset_asm
asm=$(mktemp)
objdump -d --no-show-raw-insn -M intel "$bin" > "$asm"
printf '| function | instructions | divisions | branches |\n| --- | ---: | ---: | ---: |\n'
for f in crouton_offset crouton_by_hand crouton2x2_offset crouton2x2_by_hand conv_weight_offset conv_weight_by_hand \
         crouton_chunk_column_sum crouton2x2_chunk_column_sum; do
  body=$(awk "/<$f>:/,/ret/" "$asm" | grep -P '^\s+[0-9a-f]+:' || true)
  n=$(printf '%s\n' "$body" | grep -c . || true)
  div=$(printf '%s\n' "$body" | grep -cE '\si?div\s' || true)
  br=$(printf '%s\n' "$body" | grep -cE '\sj[a-z]+\s' || true)
  printf '| `%s` | %s | %s | %s |\n' "$f" "$n" "$div" "$br"
done
rm -f "$asm"
