#!/usr/bin/env bash
# Builds examples/offset_asm.rs and counts, for each layout, the instructions of the library's
# offset function and of the hand-written formula, and the divisions and branches in each; then
# the same for two loops over one chunk read through the layout's in-chunk offsets.
#
# Then, where the aarch64 target and binutils-aarch64-linux-gnu are installed, cross-builds
# layout-core for aarch64 with its NEON blocks as plain symbols (`--cfg layout_asm_probes`,
# relayout/kernels/aarch64/probes.rs) and counts in each: vector loads; permutes (zip, trn, uzp,
# ext, tbl); vector stores, and of them the interleaving `st2` (LLVM folds a last zip round
# into it) and the non-temporal `stnp`; moves of single elements; backward branches (loops).
# A block of 16 rows by 4 columns of f32 is four 4x4 transposes of 4 loads, 8 permutes (fewer
# where `st2` does the last round) and 4 stores each; a 16x16 block of bytes 16 loads, 64
# permutes, 16 stores; neither moves an element on its own or loops. The streamed block of 16
# f32 columns loops over its four groups of 4 rows (each 16 loads, 32 permutes, four 64-byte
# lines of two `stnp`, or two `stp` off the line grid). Last, the portable copy of a 64-byte
# row: two 32-byte `ldp`/`stp` pairs, as wide as a NEON copy would be.
# Usage: bash benches/asm_counts.sh   (needs objdump, from binutils)
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
cargo build --release --example offset_asm --quiet
bin="$target_dir/release/examples/offset_asm"
asm=$(mktemp)
trap 'rm -f "$asm"' EXIT
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

aarch64=aarch64-unknown-linux-gnu
if ! rustup target list --installed 2>/dev/null | grep -qx "$aarch64" \
    || ! command -v aarch64-linux-gnu-objdump >/dev/null 2>&1; then
  echo "NOTICE: the $aarch64 target or aarch64-linux-gnu-objdump (binutils-aarch64-linux-gnu) is missing; aarch64 counts skipped"
  exit 0
fi
# The library only (an rlib: nothing to link), so no aarch64 linker is needed.
RUSTFLAGS="--cfg layout_asm_probes" cargo build --release -p layout-core --target "$aarch64" --quiet
rlib=$(ls -t "$target_dir/$aarch64"/release/deps/liblayout_core-*.rlib | head -1)
aarch64-linux-gnu-objdump -d --no-show-raw-insn "$rlib" > "$asm"
printf '\n| aarch64 function | instructions | vector loads | permutes | vector stores | of them `st2` | of them `stnp` | element moves | backward branches |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for f in neon_block_f32_4x4 neon_block_u8_16x16 neon_block_f32_16x16_streamed portable_row_copy_64_bytes; do
  # The function's instructions: from its label to the blank line after it.
  body=$(awk "/^[0-9a-f]+ <$f>:/{on=1; next} on && /^\$/{exit} on" "$asm" | grep -P '^\s+[0-9a-f]+:' || true)
  if [ -z "$body" ]; then
    echo "$f: not found in $rlib"; exit 1
  fi
  count() { printf '%s\n' "$body" | grep -cP "$1" || true; }
  n=$(printf '%s\n' "$body" | grep -c .)
  # Loads and stores of q registers (one or a pair), or of whole vectors by ld1/st1.
  loads=$(count '\t(ldr|ldur|ldp|ldnp)\tq|\tld[1-4]\t\{v[0-9]+\.[0-9]+[bhsd]')
  stores=$(count '\t(str|stur|stp|stnp)\tq|\tst[1-4]\t\{v[0-9]+\.[0-9]+[bhsd]')
  st2=$(count '\tst2\t\{v')
  stnp=$(count '\tstnp\tq')
  permutes=$(count '\t(zip[12]|trn[12]|uzp[12]|ext|tbl|tbx|rev(16|32|64))\tv')
  # One element at a time: loads and stores of a w, b, h or s register, or of a vector lane.
  elements=$(count '\t(ldr|ldur|str|stur)[bh]?\t[wbhs][0-9]+,|\t(ld|st)[1-4]\t\{v[0-9]+\.[bhsd]\}\[')
  # A loop is a branch back to an earlier address of the function.
  loops=$(printf '%s\n' "$body" | awk '
    function hex(s,  i, n) {
      for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return n
    }
    match($0, /[0-9a-f]+:/) {
      at = hex(substr($0, RSTART, RLENGTH - 1))
      if ($0 ~ /\t(b|b\.[a-z]+|cbn?z|tbn?z)\t/ && match($0, /[0-9a-f]+ </)) {
        if (hex(substr($0, RSTART, RLENGTH - 2)) <= at) n++
      }
    }
    END { print n + 0 }')
  printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$f" "$n" "$loads" "$permutes" "$stores" "$st2" "$stnp" "$elements" "$loops"
done
