"""Train the same MLP on minigrad (CuPy) and PyTorch (CUDA); print the time per step and the ratio.

    python benchmarks/gpu_mlp.py                 # 4096-wide, batch 4096, float32, on cuda
    python benchmarks/gpu_mlp.py --device cpu --width 256 --batch 128 --steps 20   # a smoke run

Both libraries start from the same weights and data, so the losses they print should agree. The
last line is a row for the results table in tests/GPU.md. A PyTorch without CUDA is left out of a
GPU run (minigrad's time is still printed).
"""

from __future__ import annotations

import argparse
import datetime
import time

import numpy as np

import minigrad


def build(lib, weights, device):
    layers = []
    for i, (w, b) in enumerate(weights):
        linear = lib.nn.Linear(w.shape[1], w.shape[0])
        with lib.no_grad():
            linear.weight.copy_(lib.tensor(w))
            linear.bias.copy_(lib.tensor(b))
        layers.append(linear)
        if i < len(weights) - 1:
            layers.append(lib.nn.ReLU())
    return lib.nn.Sequential(*layers).to(device)


def train(lib, model, x, y, steps, sync):
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss = None
    for step in range(steps + 5):
        if step == 5:  # warm-up steps (allocator, kernels) are not timed
            sync()
            start = time.perf_counter()
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    sync()
    return (time.perf_counter() - start) / steps, loss.item()


def describe(device: str, torch) -> str:
    """The hardware and library versions, for the record."""
    text = f"minigrad {minigrad.__version__}, PyTorch {torch.__version__}"
    if device.startswith("cuda"):
        try:
            import cupy

            text += f", CuPy {cupy.__version__}"
        except ImportError:  # pragma: no cover - minigrad.cuda.is_available() said yes
            pass
        text += f", GPU: {minigrad.cuda.get_device_name()}"
        text += f", PyTorch CUDA {torch.version.cuda}" if torch.cuda.is_available() else ", PyTorch without CUDA"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--width", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()

    import torch

    rng = np.random.default_rng(0)
    sizes = [args.width] * args.layers + [args.classes]
    weights = [
        (rng.uniform(-1, 1, (o, i)).astype("float32") / np.sqrt(i), np.zeros(o, "float32"))
        for i, o in zip(sizes[:-1], sizes[1:])
    ]
    x_np = rng.standard_normal((args.batch, args.width)).astype("float32")
    y_np = rng.integers(0, args.classes, args.batch)

    on_gpu = args.device.startswith("cuda")
    if on_gpu and not minigrad.cuda.is_available():
        raise SystemExit(
            f"minigrad cannot use the GPU: {minigrad.cuda.unavailable_reason()}. "
            "See tests/GPU.md, or use --device cpu for a smoke run."
        )
    runs = [("minigrad", minigrad, lambda: minigrad.cuda.synchronize())]
    if on_gpu and not torch.cuda.is_available():
        print("PyTorch has no CUDA here: timing minigrad only (install a CUDA build of PyTorch to compare)")
    else:
        runs.append(("pytorch", torch, lambda: torch.cuda.synchronize() if on_gpu else None))

    print(describe(args.device, torch))
    results = {}
    for name, lib, sync in runs:
        model = build(lib, weights, args.device)
        x = lib.tensor(x_np, device=args.device)
        y = lib.tensor(y_np, device=args.device)
        results[name] = train(lib, model, x, y, args.steps, sync)
        del model, x, y
        if lib is minigrad:
            minigrad.cuda.empty_cache()  # leave the GPU's memory to PyTorch's allocator

    shape = f"MLP {args.layers}x{args.width}, batch {args.batch}, float32"
    print(f"{shape}, {args.steps} steps on {args.device}")
    for name, (seconds, loss) in results.items():
        print(f"{name:>9}: {seconds * 1e3:8.2f} ms/step   final loss {loss:.4f}")
    ours = results["minigrad"][0] * 1e3
    theirs = results["pytorch"][0] * 1e3 if "pytorch" in results else None
    ratio = f"{ours / theirs:.2f}x" if theirs else "-"
    if theirs:
        print(f"ratio minigrad/pytorch: {ratio}")
    where = minigrad.cuda.get_device_name() if on_gpu else "CPU"
    row = [datetime.date.today().isoformat(), where, shape, f"{ours:.2f}", f"{theirs:.2f}" if theirs else "-", ratio]
    print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
