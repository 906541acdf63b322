"""Instructions per operation and per training step, counted by valgrind: for A/B comparisons.

Wall-clock times on a shared virtual machine vary by 25% from one minute to the next, which
hides a change of a few percent. The number of machine instructions a piece of Python runs
hardly varies: valgrind's callgrind counts them. The checkout is compiled first (a run that
compiled the modules the other then found compiled once skewed counts by a few percent). Each figure
is the difference between two runs that differ only in how many times the workload repeats, so
Python's start-up and the imports cancel out.

    python benchmarks/bench_instructions.py            # both workloads (about two minutes)
    python benchmarks/bench_instructions.py --base ../other-checkout   # and another checkout's

Needs valgrind (``apt-get install valgrind``); without it, says so and stops. The counts compare
commits on one machine and Python; they are not times, and PyTorch is not counted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (what one repetition is, Python that runs it `n` times with minigrad imported)
WORKLOADS = {
    "op": (
        "one recorded op, forward + backward (a chain of 150 on 3 elements, as bench_ops.py)",
        "import bench_ops\nfor _ in range(n): bench_ops.chain(minigrad, 150)",
        150,
    ),
    "mlp": (
        "one MLP training step, 4-8-3, batch 8 (bench_mlp.py's step with no arithmetic to speak of)",
        "import bench_mlp\nbench_mlp.SIZES, bench_mlp.BATCH = (4, 8, 3), 8\n"
        "step = bench_mlp.library_step(minigrad)\nstep()\nfor _ in range(n): step()",
        1,
    ),
}
COUNTS = (5, 105)  # repetitions in the two runs; their difference is what is counted


def count(checkout: Path, body: str, n: int) -> int:
    """Instructions valgrind counts for a Python process running ``body`` with ``n`` set."""
    code = (
        f"import sys; sys.path[:0] = [{str(checkout)!r}, {str(checkout / 'benchmarks')!r}]\n"
        "import minigrad, scipy.linalg  # (the optimizer imports SciPy's BLAS on its first step)\n"
        f"n = {n}\n{body}\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_repetition(checkout: Path, name: str) -> float:
    """Instructions per repetition of workload ``name`` (divided by its ops per repetition)."""
    _, body, ops = WORKLOADS[name]
    # Compile the checkout's modules first: otherwise whichever run imports a module first also
    # compiles it (and writes its .pyc for the other), which skewed counts by a few percent.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "minigrad"), str(checkout / "benchmarks")],
                   check=True)  # fmt: skip
    with ThreadPoolExecutor(2) as pool:  # the two runs side by side: each is one process
        low, high = pool.map(lambda n: count(checkout, body, n), COUNTS)
    return (high - low) / (COUNTS[1] - COUNTS[0]) / ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout of this repository, to count beside this one")
    parser.add_argument("--only", choices=sorted(WORKLOADS), help="count one workload")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind): nothing counted")
    checkouts = {"this checkout": HERE.parent}
    if args.base is not None:
        checkouts = {"base": args.base.resolve(), **checkouts}
    for name in [args.only] if args.only else WORKLOADS:
        figures = {label: per_repetition(path, name) for label, path in checkouts.items()}
        text = "  ".join(f"{label} {value:,.0f}" for label, value in figures.items())
        if len(figures) == 2:
            base, this = figures.values()
            text += f"  ({(this - base) / base:+.1%})"
        print(f"instructions per {WORKLOADS[name][0]}: {text}")


if __name__ == "__main__":
    main()
