#!/usr/bin/env python3
"""Prints a Markdown table of ratios from criterion's saved estimates.

Usage: python3 benches/table.py GROUP_PREFIX [BASELINE_FUNCTION]

For every criterion group whose name starts with GROUP_PREFIX (`offset`, `relayout`), prints each
function's median time and its ratio to BASELINE_FUNCTION (default `hand-written`) measured in
the same run. Time ratios above 1 mean slower than the baseline. Groups that count bytes
(relayout) also get GB/s and the throughput ratio (above 1 means faster than the baseline).
"""
import json
import pathlib
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    prefix = sys.argv[1]
    baseline = sys.argv[2] if len(sys.argv) > 2 else "hand-written"
    root = pathlib.Path("target/criterion")
    groups = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix.replace("/", "_")))
    if not groups:
        sys.exit(f"no criterion results under {root} for {prefix!r}: run `cargo bench` first")
    print(f"| group | function | median | GB/s | time ratio to {baseline} | throughput ratio to {baseline} |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for group in groups:
        results = {}
        for function in sorted(p for p in group.iterdir() if (p / "new" / "estimates.json").exists()):
            ns = load(function / "new" / "estimates.json")["median"]["point_estimate"]
            bytes_ = (load(function / "new" / "benchmark.json").get("throughput") or {}).get("Bytes")
            results[function.name] = (ns, bytes_)
        base = results.get(baseline)
        title = load(next(iter(group.glob("*/new/benchmark.json"))))["group_id"]
        for name, (ns, bytes_) in results.items():
            gbps = f"{bytes_ / ns:.2f}" if bytes_ else ""
            ratio = f"{ns / base[0]:.3f}" if base else "n/a"
            thr = f"{(bytes_ / ns) / (base[1] / base[0]):.2f}" if base and bytes_ and base[1] else ""
            median = f"{ns / 1e6:.3f} ms" if ns > 1e5 else f"{ns / 1000:.2f} µs"
            print(f"| {title} | {name} | {median} | {gbps} | {ratio} | {thr} |")


if __name__ == "__main__":
    main()
