#!/usr/bin/env bash
# The relayouts of an older commit and of the working tree in one process (benches/ab-one-process):
# the way to compare two engines on a virtual machine whose speed for one build moves from
# process to process with where its buffers land. docs/engine-measurements.md says when to use
# it beside benches/ab.sh.
#
#   bash benches/ab_one_process.sh REV [PAIR-FILTER...]     (AB_ROUNDS=N, default 8)
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: bash benches/ab_one_process.sh REV [PAIR-FILTER...]" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
rev=$(git rev-parse --verify "$1^{commit}") || { echo "ab_one_process.sh: no commit '$1'" >&2; exit 1; }
shift
work=target/ab-one-process
old=$work/old
# The older library, its crates renumbered 0.0.1 so that cargo links it beside the working
# tree's (two packages of one name and version cannot share a build).
if [[ ! -f $old/.commit || $(cat "$old/.commit") != "$rev" ]]; then
    rm -rf "$old"
    mkdir -p "$old"
    git archive "$rev" | tar -x -m -C "$old"
    sed -i -E 's/^version = "[0-9.]+"/version = "0.0.1"/; s/(path = "[a-z-]+", version = )"[0-9.]+"/\1"0.0.1"/' "$old/Cargo.toml"
    # Every older commit builds as the same crates 0.0.1 in one target directory: the last
    # one's artifacts go, or cargo may link a crate of that commit into this one's.
    for crate in layout-notation layout-macros layout-core layouts-catalog tensor-layout; do
        cargo clean --release --quiet --manifest-path benches/ab-one-process/Cargo.toml \
            --target-dir "$work/target" -p "$crate@0.0.1" 2>/dev/null || true
    done
    echo "$rev" >"$old/.commit"
fi
cargo build --release --quiet --manifest-path benches/ab-one-process/Cargo.toml \
    --target-dir "$work/target"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); old = ${rev:0:12}, new = working tree"
"$work/target/release/ab-one-process" "$@"
