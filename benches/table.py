#!/usr/bin/env python3
"""Prints a Markdown table of ratios from criterion's saved estimates.

Usage: python3 benches/table.py GROUP_PREFIX [BASELINE_FUNCTION]

For every criterion group whose name starts with GROUP_PREFIX (e.g. `offset`), prints each
function's median time and its ratio to BASELINE_FUNCTION (default `hand-written`) measured in
the same run. Ratios above 1 mean slower than the baseline.
"""
import json
import pathlib
import sys


def median_ns(path):
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def main():
    prefix = sys.argv[1]
    baseline = sys.argv[2] if len(sys.argv) > 2 else "hand-written"
    root = pathlib.Path("target/criterion")
    groups = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix.replace("/", "_")))
    if not groups:
        sys.exit(f"no criterion results under {root} for {prefix!r}: run `cargo bench` first")
    print(f"| group | function | median | ratio to {baseline} |")
    print("| --- | --- | ---: | ---: |")
    for group in groups:
        results = {}
        for function in sorted(p for p in group.iterdir() if (p / "new" / "estimates.json").exists()):
            results[function.name] = median_ns(function / "new" / "estimates.json")
        base = results.get(baseline)
        for name, ns in results.items():
            ratio = f"{ns / base:.3f}" if base else "n/a"
            print(f"| {group.name} | {name} | {ns / 1000:.2f} µs | {ratio} |")


if __name__ == "__main__":
    main()
