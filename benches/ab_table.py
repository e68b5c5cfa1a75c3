"""The table of `benches/ab.sh`: per pair, each build's best relayout GB/s over the rounds and
the range of its per-round bests, memcpy's best GB/s over every run, and the working tree's
ratio to the best of the other builds.

    python3 benches/ab_table.py RAW.tsv LABEL...

RAW.tsv holds the driver's lines (label, round, pair, relayout GB/s, memcpy GB/s, calls, bytes,
destination dims, check); the labels give the columns' order, `work` last. A build whose
destination was wrong in any round shows WRONG and is not ranked; a row whose builds made
destinations of different dims (a relayout by position in older commits, by axis name in
newer ones) is marked and gets no ratio: the builds did different work there.
"""

import sys

MARK_BELOW = 0.95


def main(raw_path, labels):
    runs = {}  # (pair, label) -> [relayout GB/s per round]
    memcpy = {}  # pair -> best memcpy GB/s of any run
    wrong = {}  # (pair, label) -> first check that failed
    dims = {}  # pair -> {label: destination dims}
    pairs = []
    with open(raw_path) as lines:
        for line in lines:
            label, _round, pair, relayout, copy, _calls, _bytes, shape, check = (
                line.rstrip("\n").split("\t")
            )
            if pair not in memcpy:
                pairs.append(pair)
                memcpy[pair] = 0.0
            memcpy[pair] = max(memcpy[pair], float(copy))
            runs.setdefault((pair, label), []).append(float(relayout))
            dims.setdefault(pair, {})[label] = shape
            if check != "ok":
                wrong.setdefault((pair, label), check)

    others = [label for label in labels if label != "work"]
    head = ["pair"] + [f"{label} GB/s (range)" for label in labels] + ["memcpy GB/s"]
    if others and "work" in labels:
        head.append("work ÷ best other")
    rows, notes = [], []
    for pair in pairs:
        best = {}
        row = [pair]
        for label in labels:
            times = runs.get((pair, label))
            if times is None:
                row.append("-")
            elif (pair, label) in wrong:
                row.append("WRONG")
                notes.append(f"{pair}: {label}: {wrong[(pair, label)]}")
            else:
                best[label] = max(times)
                row.append(f"{max(times):.2f} ({min(times):.2f}-{max(times):.2f})")
        row.append(f"{memcpy[pair]:.2f}")
        differ = len(set(dims[pair].values())) > 1
        if len(head) > len(row):
            rivals = [best[label] for label in others if label in best]
            if "work" in best and rivals and not differ:
                ratio = best["work"] / max(rivals)
                row.append(f"{ratio:.2f}x" + (" <" if ratio < MARK_BELOW else ""))
            else:
                row.append("-")
        if differ:
            row[0] += " (dims differ)"
            shapes = ", ".join(f"{label} {shape}" for label, shape in dims[pair].items())
            notes.append(f"{pair}: destination dims {shapes}")
        rows.append(row)

    print("| " + " | ".join(head) + " |")
    print("| --- |" + " ---: |" * (len(head) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print(
        f"Best of the rounds (range: the worst and best per-round best); '<' marks work under "
        f"{MARK_BELOW:.2f}x of the best other build."
    )
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python3 benches/ab_table.py RAW.tsv LABEL...")
    main(sys.argv[1], sys.argv[2:])
