"""Per-op overhead: a chain of small elementwise ops, forward and backward, minigrad vs PyTorch.

python benchmarks/bench_ops.py
"""

from __future__ import annotations

import time

import minigrad


def chain(lib, n_ops: int) -> float:
    """Seconds for forward + backward through ``n_ops`` ops on a 3-element tensor."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    start = time.perf_counter()
    y = x
    for _ in range(n_ops // 2):
        y = y * 1.0001 + 0.001
    y.sum().backward()
    return time.perf_counter() - start


def run(n_ops: int = 150, repeats: int = 200) -> list[tuple[str, float, float]]:
    import torch

    torch.set_num_threads(1)
    best = {minigrad: float("inf"), torch: float("inf")}
    for _ in range(repeats):  # alternate the libraries run by run, so noise hits both alike
        for lib in best:
            best[lib] = min(best[lib], chain(lib, n_ops))
    mg, pt = (best[lib] / n_ops * 1e6 for lib in (minigrad, torch))
    return [(f"per-op overhead, {n_ops} ops on 3 elements (µs/op, forward + backward)", mg, pt)]


if __name__ == "__main__":
    for name, mg, pt in run():
        print(f"{name}: minigrad {mg:.2f}  pytorch {pt:.2f}  ratio minigrad/pytorch {mg / pt:.2f}")
