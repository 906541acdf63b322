"""One MLP training step (784-256-10, batch 128, float32, one thread): minigrad, PyTorch, NumPy.

The NumPy version is the same math written by hand with no autograd at all: the floor.

    python benchmarks/bench_mlp.py
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import minigrad  # noqa: E402

BATCH, SIZES, LR = 128, (784, 256, 10), 0.01


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, SIZES[0])).astype("float32")
    y = rng.integers(0, SIZES[-1], BATCH)
    weights = []
    for i, o in zip(SIZES[:-1], SIZES[1:]):
        bound = 1 / np.sqrt(i)
        weights.append(
            (rng.uniform(-bound, bound, (o, i)).astype("float32"), rng.uniform(-bound, bound, o).astype("float32"))
        )
    return x, y, weights


def library_step(lib):
    x_np, y_np, weights = data()
    model = lib.nn.Sequential(lib.nn.Linear(*SIZES[:2]), lib.nn.ReLU(), lib.nn.Linear(*SIZES[1:]))
    with lib.no_grad():
        for layer, (w, b) in zip((model[0], model[2]), weights):
            layer.weight.copy_(lib.tensor(w))
            layer.bias.copy_(lib.tensor(b))
    opt = lib.optim.SGD(model.parameters(), lr=LR)
    x, y = lib.tensor(x_np), lib.tensor(y_np)

    def step():
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def numpy_step():
    x, y, weights = data()
    (w1, b1), (w2, b2) = [(w.copy(), b.copy()) for w, b in weights]
    onehot = np.eye(SIZES[-1], dtype="float32")[y]

    def step():
        nonlocal w1, b1, w2, b2
        h = x @ w1.T + b1
        a = np.maximum(h, 0)
        logits = a @ w2.T + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        p = e / e.sum(axis=1, keepdims=True)
        loss = -np.log(p[np.arange(BATCH), y]).mean()
        dlogits = (p - onehot) / BATCH
        dw2, db2 = dlogits.T @ a, dlogits.sum(0)
        da = dlogits @ w2
        dh = da * (h > 0)
        dw1, db1 = dh.T @ x, dh.sum(0)
        w1 -= LR * dw1
        b1 -= LR * db1
        w2 -= LR * dw2
        b2 -= LR * db2
        return loss

    return step


def block(step, steps: int) -> float:
    """Mean seconds per step over ``steps`` steps in a row (as a training loop runs them)."""
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps


def run(rounds: int = 7, steps: int = 30) -> list[tuple[str, float, float, float]]:
    import torch

    torch.set_num_threads(1)
    libraries = {"minigrad": library_step(minigrad), "pytorch": library_step(torch), "numpy": numpy_step()}
    times: dict[str, list[float]] = {name: [] for name in libraries}
    for _ in range(rounds):  # alternate block by block, so noise hits all three alike
        for name, step in libraries.items():
            step()  # after the others ran, its weights come back into the caches
            times[name].append(block(step, steps))
    median = {name: sorted(t)[len(t) // 2] * 1e3 for name, t in times.items()}
    return [("MLP step 784-256-10, batch 128 (ms)", median["minigrad"], median["pytorch"], median["numpy"])]


if __name__ == "__main__":
    for name, mg, pt, npy in run():
        print(
            f"{name}: minigrad {mg:.3f}  pytorch {pt:.3f}  numpy {npy:.3f}  "
            f"ratio minigrad/pytorch {mg / pt:.2f}  minigrad/numpy {mg / npy:.2f}"
        )
