"""The package's relayout against NumPy's transposed copy and a memcpy of the same bytes.

Each round calls them in turn: the package's `tensor_layout.relayout` into a tensor made
beforehand (`out=`, as NumPy writes into an array made beforehand) and into a new tensor,
NumPy's `np.copyto(out, a.transpose(...))` into a preallocated array, and `np.copyto` of the
source's bytes into a buffer of their own. All are measured in the same minutes: this
machine's memory speed drifts over minutes, and a ratio of two figures taken one after the
other drifts with it. The table gives the median time of each, and each speed as a fraction of
the memcpy's ("÷ memcpy", as `cargo bench --bench relayout_interleaved` gives the library's
from Rust, which relayouts into a destination made beforehand too).

    python python/bench.py [--calls 21] [--dims 8x256x56x56] [--rust]

With `--rust`, the same four relayouts from Rust follow at once (`cargo bench --bench
relayout_interleaved` on them, run from the repository with cargo), so that "÷ memcpy" of the
package and of Rust come from the same minutes.
"""

import argparse
import pathlib
import statistics
import subprocess
import time

import numpy as np

import tensor_layout as tl

# Storage shape of each plain layout, as a permutation of the logical NCHW dims, and back.
STORAGE_ORDER = {"nchw": (0, 1, 2, 3), "nhwc": (0, 2, 3, 1)}


def timed(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def case(dtype, src, dst, dims, calls):
    """One row: the medians of `calls` rounds of the package (into `out=` and into a new
    tensor), NumPy and memcpy."""
    logical = np.arange(np.prod(dims), dtype=np.uint64).astype(dtype).reshape(dims)
    # The source's storage (C-contiguous in src's order) and its logical view.
    storage = np.ascontiguousarray(logical.transpose(STORAGE_ORDER[src]))
    source = storage.transpose(np.argsort(STORAGE_ORDER[src]))
    # NumPy's relayout: the source's storage transposed into dst's storage order.
    to_dst = [STORAGE_ORDER[src].index(d) for d in STORAGE_ORDER[dst]]
    out = np.empty([storage.shape[p] for p in to_dst], dtype=dtype)
    copy_out = np.empty_like(storage)

    made = tl.relayout(source, src, dst)

    def package():
        tl.relayout(source, src, dst, out=made)

    def package_new():
        return tl.relayout(source, src, dst)

    def numpy_copy():
        np.copyto(out, storage.transpose(to_dst))

    def memcpy():
        np.copyto(copy_out, storage)

    numpy_copy()
    assert np.array_equal(made.storage(), out.reshape(-1)), "package and NumPy differ"
    times = {"package": [], "new": [], "numpy": [], "memcpy": []}
    for _ in range(calls):
        times["package"].append(timed(package))
        times["new"].append(timed(package_new))
        times["numpy"].append(timed(numpy_copy))
        times["memcpy"].append(timed(memcpy))
    return {name: statistics.median(values) for name, values in times.items()}


# The Rust bench's names of the relayouts this script measures (its pairs are 8x256x56x56).
RUST_PAIRS = [
    f"{rust} 8x256x56x56 {src}->{dst}"
    for rust in ("f32", "u8")
    for src, dst in (("nchw", "nhwc"), ("nhwc", "nchw"))
]


def rust_bench():
    """The Rust bench's table of the same relayouts, printed as cargo bench prints it."""
    repository = pathlib.Path(__file__).resolve().parent.parent
    command = ["cargo", "bench", "--bench", "relayout_interleaved", "--", *RUST_PAIRS]
    print(f"\n{' '.join(command[:4])} -- {' '.join(repr(p) for p in RUST_PAIRS)}", flush=True)
    subprocess.run(command, cwd=repository, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=21, help="rounds per case (default 21)")
    parser.add_argument("--dims", default="8x256x56x56", help="N x C x H x W (default 8x256x56x56)")
    parser.add_argument(
        "--rust",
        action="store_true",
        help="then the same relayouts from Rust (cargo bench; 8x256x56x56 only)",
    )
    args = parser.parse_args()
    dims = tuple(int(d) for d in args.dims.split("x"))
    if args.rust and dims != (8, 256, 56, 56):
        parser.error("--rust compares 8x256x56x56, the dims of the Rust bench's pairs")
    print(
        f"| {args.dims} | package ms (out=) | package ms (new) | NumPy ms | memcpy ms "
        "| package ÷ memcpy | NumPy ÷ memcpy | package / NumPy | new / NumPy |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for dtype in ("float32", "uint8"):
        for src, dst in (("nchw", "nhwc"), ("nhwc", "nchw")):
            t = case(np.dtype(dtype), src, dst, dims, args.calls)
            print(
                f"| {dtype} {src}->{dst} | {t['package'] * 1e3:.2f} | {t['new'] * 1e3:.2f} "
                f"| {t['numpy'] * 1e3:.2f} | {t['memcpy'] * 1e3:.2f} "
                f"| {t['memcpy'] / t['package']:.2f} | {t['memcpy'] / t['numpy']:.2f} "
                f"| {t['numpy'] / t['package']:.2f}x | {t['numpy'] / t['new']:.2f}x |"
            )
    if args.rust:
        rust_bench()


if __name__ == "__main__":
    main()
