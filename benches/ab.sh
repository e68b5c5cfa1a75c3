#!/usr/bin/env bash
# A/B of relayout engine builds: the driver in benches/ab-driver/ built against each given
# commit and against the working tree, the binaries run in turn, round after round, on this
# machine, then a table of each build's best GB/s per pair. docs/performance.md ("A/B of engine
# builds") says how to read it.
#
# Memory speed on a shared machine drifts over minutes, so builds are only compared when they
# ran interleaved in the same minutes: a slow stretch then hits every build alike.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bash benches/ab.sh REV...        (from the repository root)

Builds benches/ab-driver against each REV (any commit name git knows) and against the
working tree as it is, uncommitted changes included (labelled "work"), each in its own
checkout and target directory, then runs the binaries in turn, round after round, and
prints per pair each build's best GB/s, memcpy's, and work's ratio to the best other build.

Environment:
  AB_ROUNDS=N        rounds (default 5; fewer is a smoke test, not a result)
  AB_FILTER=TEXT     only the pairs whose name contains TEXT
  AB_FEATURES=LIST   features of tensor-layout for every build, comma-separated (parallel)
  AB_MIB=N           MiB each contender moves per pair and run (default 512)
  AB_DIR=PATH        checkouts, builds, results (default target/ab, git-ignored)

Example: bash benches/ab.sh c4b881b 5493fb8
EOF
    exit "${1:-0}"
}

die() {
    echo "ab.sh: $*" >&2
    exit 1
}

[[ $# -eq 0 ]] && usage 2
[[ $1 == -h || $1 == --help ]] && usage 0

root=$(git rev-parse --show-toplevel 2>/dev/null) || die "run it inside the repository"
[[ -f $root/benches/ab-driver/Cargo.toml ]] || die "no benches/ab-driver under $root"
cd "$root"

rounds=${AB_ROUNDS:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "AB_ROUNDS must be a positive whole number, not '$rounds'"
filter=${AB_FILTER:-}
export AB_MIB=${AB_MIB:-512}
[[ $AB_MIB =~ ^[1-9][0-9]*$ ]] || die "AB_MIB must be a positive whole number, not '$AB_MIB'"
features=()
if [[ -n ${AB_FEATURES:-} ]]; then
    IFS=, read -ra wanted <<<"$AB_FEATURES"
    for f in "${wanted[@]}"; do features+=(--features "tensor-layout/$f"); done
fi
mkdir -p "${AB_DIR:-$root/target/ab}"
ab_dir=$(cd "${AB_DIR:-$root/target/ab}" && pwd)

# Resolve every REV before building anything, so a typo fails at once. Checkouts and builds
# are keyed by commit, so each commit may be named once.
labels=() commits=()
for rev in "$@"; do
    [[ $rev == work ]] && die "'work' is the working tree's label; it is always included"
    [[ $rev =~ [[:space:]] ]] && die "a REV with spaces: '$rev'"
    commit=$(git rev-parse --verify --quiet "$rev^{commit}") || die "no such commit: '$rev'"
    for seen in "${commits[@]}"; do
        [[ $seen == "$commit" ]] && die "'$rev' names a commit given before"
    done
    labels+=("$rev") commits+=("$commit")
done

# One checkout per commit: git archive into checkouts/COMMIT, reused by later runs (the
# marker file is written last, so an interrupted extraction is redone).
checkout() {
    local commit=$1 dir=$ab_dir/checkouts/$1
    if [[ ! -f $dir/.ab-complete ]]; then
        echo "ab.sh: checking out $commit into $dir" >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        git archive --format=tar "$commit" | tar -x -C "$dir"
        touch "$dir/.ab-complete"
    fi
    echo "$dir"
}

# Builds the driver against the library in $2, in builds/$1 with target directory targets/$1;
# prints the binary's path. The manifest is the driver's own with the library's path and the
# driver's source and build script made absolute: every build compiles the working tree's driver with the same
# profile. The lock file is the library's own, so each build gets the dependency versions its
# commit was tested with.
build() {
    local key=$1 library=$2 dir=$ab_dir/builds/$1 target=$ab_dir/targets/$1
    mkdir -p "$dir"
    sed -e "s|^path = \"src/main.rs\" # ab.sh:.*|path = \"$root/benches/ab-driver/src/main.rs\"|" \
        -e "s|^build = \"build.rs\" # ab.sh:.*|build = \"$root/benches/ab-driver/build.rs\"|" \
        -e "s|^tensor-layout = { path = \"../..\" } # ab.sh:.*|tensor-layout = { path = \"$library\" }|" \
        "$root/benches/ab-driver/Cargo.toml" >"$dir/Cargo.toml.new"
    grep -q "^tensor-layout = { path = \"$library\" }" "$dir/Cargo.toml.new" ||
        die "benches/ab-driver/Cargo.toml lost its 'ab.sh:' lines"
    # Rewritten only when it changed, so cargo's fingerprints stay valid between runs.
    if cmp -s "$dir/Cargo.toml.new" "$dir/Cargo.toml"; then
        rm "$dir/Cargo.toml.new"
    else
        mv "$dir/Cargo.toml.new" "$dir/Cargo.toml"
        rm -f "$dir/Cargo.lock"
    fi
    [[ -f $dir/Cargo.lock || ! -f $library/Cargo.lock ]] || cp "$library/Cargo.lock" "$dir/Cargo.lock"
    echo "ab.sh: building $key against $library" >&2
    (cd "$dir" && cargo build --release --quiet --target-dir "$target" "${features[@]}") >&2 ||
        die "the build of $key failed"
    echo "$target/release/ab-driver"
}

binaries=()
for commit in "${commits[@]}"; do
    dir=$(checkout "$commit")
    binaries+=("$(build "$commit" "$dir")")
done
labels+=(work)
binaries+=("$(build work "$root")")

# Run the binaries in turn, round after round; each round starts one build later, so no
# build always runs right after the same other one.
stamp=$(date +%Y%m%d-%H%M%S)
mkdir -p "$ab_dir/results"
raw=$ab_dir/results/ab-$stamp-$$.tsv
report=$ab_dir/results/ab-$stamp-$$.txt
: >"$raw"
builds=${#binaries[@]}
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
start=$SECONDS
for ((round = 1; round <= rounds; round++)); do
    for ((turn = 0; turn < builds; turn++)); do
        i=$(((round - 1 + turn) % builds))
        echo "ab.sh: round $round/$rounds, ${labels[$i]} ($((SECONDS - start)) s so far)" >&2
        "${binaries[$i]}" "${labels[$i]}" "$round" "$filter" >>"$raw" ||
            die "${labels[$i]}'s driver failed in round $round (lines so far: $raw)"
    done
done
[[ -s $raw ]] || die "no pair's name contains '$filter'"

# The machine, before the table: figures from another CPU are not comparable.
machine() {
    field() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true; }
    echo "CPU: $(field 'model name') (cpu family $(field 'cpu family'), model $(field model))," \
        "$(nproc) cores"
    local caches=() index kind ways
    for index in /sys/devices/system/cpu/cpu0/cache/index*; do
        [[ -r $index/size ]] || continue
        case $(cat "$index/type") in
            Instruction) continue ;;
            Data) kind=d ;;
            *) kind= ;;
        esac
        ways=$(cat "$index/ways_of_associativity" 2>/dev/null || echo '?')
        caches+=("L$(cat "$index/level")$kind $(cat "$index/size") ($ways-way)")
    done
    (IFS=, && echo "caches (cpu0): ${caches[*]:-unknown}")
    echo "date: $(date '+%Y-%m-%d %H:%M %Z'), $rounds rounds in $((SECONDS - start)) s," \
        "features: ${AB_FEATURES:-none}, AB_MIB=$AB_MIB, filter: '$filter'"
    # Other work on the machine (a build, another benchmark) widens the ranges below.
    echo "load average (1, 5, 15 min): $load_before before the runs," \
        "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') after"
    local i names=()
    for i in "${!labels[@]}"; do
        if [[ ${labels[$i]} == work ]]; then
            names+=("work = working tree $root")
        else
            names+=("${labels[$i]} = ${commits[$i]:0:12}")
        fi
    done
    echo "builds: ${names[*]}"
}

{
    machine
    echo
    python3 "$root/benches/ab_table.py" "$raw" "${labels[@]}"
} | tee "$report"
echo "ab.sh: table in $report, raw lines in $raw" >&2
