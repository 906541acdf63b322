"""Per-op overhead: a chain of small elementwise ops, forward and backward, minigrad vs PyTorch.

python benchmarks/bench_ops.py
"""

from __future__ import annotations

import time

import minigrad


def chain(lib, n_ops: int, repeats: int) -> float:
    """Best time per op (µs) of forward + backward through ``n_ops`` ops on a 3-element tensor."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        y = x
        for _ in range(n_ops // 2):
            y = y * 1.0001 + 0.001
        y.sum().backward()
        best = min(best, time.perf_counter() - start)
        x.grad = None
    return best / n_ops * 1e6


def run(n_ops: int = 150, repeats: int = 50) -> list[tuple[str, float, float]]:
    import torch

    torch.set_num_threads(1)
    rows = []
    for _ in range(2):  # interleave the two libraries so noise hits both alike
        rows.append((chain(minigrad, n_ops, repeats), chain(torch, n_ops, repeats)))
    mg, pt = min(r[0] for r in rows), min(r[1] for r in rows)
    return [(f"per-op overhead, {n_ops} ops on 3 elements (µs/op)", mg, pt)]


if __name__ == "__main__":
    for name, mg, pt in run():
        print(f"{name}: minigrad {mg:.2f}  pytorch {pt:.2f}  ratio minigrad/pytorch {mg / pt:.2f}")
