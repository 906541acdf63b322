"""Course and grading: executing every source notebook, and autograding one full submission.

    python benchmarks/bench_course.py

Each notebook of ``solutions/`` runs in a fresh Jupyter kernel (nbclient), as an instructor's
check or a student's "Run all" does; then one student's full submission of every assignment is
autograded with real nbgrader and the repository's ``nbgrader_config.py``. The floor, measured just
before each notebook, is a kernel that starts and runs ``import minigrad``: the ratio to it shows how
much of a notebook's time is minigrad's work rather than Jupyter's start-up.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coursetools import course  # noqa: E402
from coursetools import submissions as sub  # noqa: E402

STUDENT = "bench_student"


def execute(nb: nbformat.NotebookNode, cwd: Path) -> float:
    """Seconds to run ``nb`` top to bottom in a new python3 kernel (raises if a cell fails)."""
    start = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute()
    return time.perf_counter() - start


def kernel_floor() -> float:
    """A kernel started to run ``import minigrad`` (best of two)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import minigrad")])
    return min(execute(nb, ROOT) for _ in range(2))


def source_notebooks() -> dict[str, tuple[float, float]]:
    """Seconds to execute each source notebook of ``solutions/``, and the kernel floor just before.

    The floor is measured next to each notebook: on a shared machine the load changes within a run."""
    times = {}
    for name in course.assignments():
        path = ROOT / course.SOURCE / name / f"{name}.ipynb"
        floor = kernel_floor()
        try:
            times[name] = execute(nbformat.read(path, as_version=4), path.parent), floor
        except Exception as error:  # a failing cell, a dead kernel, a timeout: say which notebook
            raise SystemExit(f"{path.relative_to(ROOT)} failed: {type(error).__name__}: {error}") from error
    return times


def nbgrader(root: Path, *args: str) -> None:
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"nbgrader {' '.join(args)} failed:\n{done.stderr[-3000:]}")


def autograde_full_submission(root: Path) -> dict[str, float]:
    """Seconds of ``nbgrader autograde`` per assignment for one student who solved everything."""
    shutil.copy(ROOT / course.CONFIG, root / course.CONFIG)
    shutil.copytree(ROOT / course.SOURCE, root / course.SOURCE, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    times = {}
    for name in course.assignments():
        nbgrader(root, "generate_assignment", name, "--force")
        source = nbformat.read(root / course.SOURCE / name / f"{name}.ipynb", as_version=4)
        release = nbformat.read(root / course.RELEASE / name / f"{name}.ipynb", as_version=4)
        folder = root / "submitted" / STUDENT / name
        folder.mkdir(parents=True)
        nbformat.write(sub.full(source, release), folder / f"{name}.ipynb")
        start = time.perf_counter()
        nbgrader(root, "autograde", name)
        times[name] = time.perf_counter() - start
    check_full_marks(root)
    return times


def check_full_marks(root: Path) -> None:
    """A timing of a grading run that lost points would measure the wrong thing."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        for name in course.assignments():
            try:
                graded = gradebook.find_submission(name, STUDENT)
            except MissingEntry:
                raise SystemExit(f"{name}: nbgrader autograde recorded no submission for {STUDENT}") from None
            if graded.code_score != graded.max_code_score:
                raise SystemExit(f"{name}: the full submission got {graded.code_score} of {graded.max_code_score}")


def main() -> None:
    executed = source_notebooks()
    with tempfile.TemporaryDirectory() as folder:
        graded = autograde_full_submission(Path(folder))
    print("| assignment | execute source s | kernel floor s | / kernel floor | autograde full submission s |")
    print("|---|---|---|---|---|")
    for name, (seconds, floor) in executed.items():
        print(f"| {name} | {seconds:.2f} | {floor:.2f} | {seconds / floor:.1f} | {graded[name]:.2f} |")
    total, floors = (sum(t[i] for t in executed.values()) for i in (0, 1))
    print(
        f"| **all {len(executed)}** | {total:.2f} | {floors:.2f} | {total / floors:.1f} | {sum(graded.values()):.2f} |"
    )


if __name__ == "__main__":
    main()
