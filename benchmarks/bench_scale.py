"""Backward through chains and wide graphs of 10^3 ... 10^6 nodes: time, peak memory, and what is
left after backward (saved tensors must be released, so memory returns to where it started).

    python benchmarks/bench_scale.py                 # up to 10^6 nodes (a few minutes)
    python benchmarks/bench_scale.py --memory-max 6  # memory at 10^6 too (about 10 minutes)
    python benchmarks/bench_scale.py --max 5    # up to 10^5
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import minigrad


def chain(n: int):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0
    return x, y.sum()


def wide(n: int):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    parts = [x * 1.0 for _ in range(n)]  # n nodes that all feed one sum
    return x, minigrad.stack(parts).sum()


def timed(build, n: int) -> tuple[float, float]:
    gc.collect()
    start = time.perf_counter()
    x, out = build(n)
    built = time.perf_counter()
    out.backward()
    assert x.grad is not None
    return built - start, time.perf_counter() - built


def memory(build, n: int) -> tuple[float, float]:
    """Peak MiB during forward + backward, and MiB still held once the output is dropped.

    tracemalloc slows Python down a lot, so this is a separate run from the timing."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    x, out = build(n)
    out.backward()
    peak = tracemalloc.get_traced_memory()[1] - base
    del out
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return peak / 2**20, left / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max", type=int, default=6, help="largest graph: 10**max nodes")
    parser.add_argument("--memory-max", type=int, default=5, help="measure memory up to 10**this nodes (slow)")
    args = parser.parse_args()
    print(
        f"{'graph':>6} {'nodes':>9} {'forward s':>10} {'backward s':>11} {'µs/node':>8} {'peak MiB':>9} {'left MiB':>9}"
    )
    for name, build in (("chain", chain), ("wide", wide)):
        for k in range(3, args.max + 1):
            n = 10**k
            fwd, bwd = timed(build, n)
            peak, left = memory(build, n) if k <= args.memory_max else (float("nan"), float("nan"))
            print(f"{name:>6} {n:>9} {fwd:>10.3f} {bwd:>11.3f} {bwd / n * 1e6:>8.2f} {peak:>9.1f} {left:>9.3f}")


if __name__ == "__main__":
    main()
