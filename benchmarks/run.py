"""Run every benchmark and print one table of figures and ratios.

    python benchmarks/run.py            # everything (about ten minutes)
    python benchmarks/run.py --quick    # smaller graphs, no course timing, no instruction counts

Each benchmark measures minigrad and its reference side by side in the same run, so the ratios
hold on a noisy machine. Record a run in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    import bench_mlp  # sets single-thread BLAS before NumPy loads
    import bench_ops
    import numpy
    import torch

    import minigrad

    print(
        f"minigrad {minigrad.__version__}, PyTorch {torch.__version__}, NumPy {numpy.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, one thread each"
    )
    print()
    print("| benchmark | minigrad | PyTorch | NumPy | minigrad / PyTorch | minigrad / NumPy |")
    print("|---|---|---|---|---|---|")
    for name, mg, pt in bench_ops.run():
        print(f"| {name} | {mg:.2f} | {pt:.2f} | – | {mg / pt:.2f} | – |")
    for name, mg, pt, npy in bench_mlp.run():
        print(f"| {name} | {mg:.3f} | {pt:.3f} | {npy:.3f} | {mg / pt:.2f} | {mg / npy:.2f} |")
    print()
    sys.stdout.flush()
    scale = ["--max", "5", "--memory-max", "4"] if args.quick else []
    subprocess.run([sys.executable, str(HERE / "bench_scale.py"), *scale], check=True)
    if not args.quick and (HERE / "bench_course.py").exists():
        print()
        sys.stdout.flush()
        subprocess.run([sys.executable, str(HERE / "bench_course.py")], check=True)
    if not args.quick:  # instruction counts (with valgrind): what to compare between commits
        print()
        sys.stdout.flush()
        subprocess.run([sys.executable, str(HERE / "bench_instructions.py")], check=False)


if __name__ == "__main__":
    main()
