"""The relayout releases the GIL: Python threads run while it copies."""

import sys
import threading
import time

import numpy as np

import tensor_layout as tl


def test_a_python_thread_runs_during_a_relayout():
    # The other thread waits on an event between increments (which releases the GIL) and is
    # never forced to yield by the interpreter's switch interval (set far beyond the call), so
    # its counter moves during the call only if the call lets go of the GIL.
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
            stop.wait(0.001)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    thread = threading.Thread(target=count, daemon=True)
    thread.start()
    try:
        time.sleep(0.05)
        dims, moved = [4, 64, 64, 64], []
        for _ in range(6):
            x = np.ones(dims, np.float32)
            before = counter[0]
            start = time.perf_counter()
            tl.relayout(x, "nchw", "nChw16c")
            elapsed = time.perf_counter() - start
            moved.append((counter[0] - before, elapsed))
            if elapsed > 0.1 and counter[0] > before:
                break
            if elapsed <= 0.1:
                dims[0] *= 2  # too quick to show anything: a larger tensor
        assert any(m > 0 and e > 0.1 for m, e in moved), moved
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        thread.join()
