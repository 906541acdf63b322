"""Write the nbgrader source notebooks from their definitions in ``coursetools/notebooks``.

Usage, from the repository root::

    python -m coursetools.build              # write solutions/NN_name/NN_name.ipynb for every notebook
    python -m coursetools.build 02_leaves    # only that one
    python -m coursetools.build --check      # exit 1 if a notebook in solutions/ is not what the build makes

The output is deterministic: fixed cell ids (the cells' names), no outputs, no execution counts,
sorted JSON keys. After a build, make the student version with
``nbgrader generate_assignment NN_name --force`` (also from the repository root).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

from . import notebooks
from .notebooks import Cell

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "solutions"

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python", "pygments_lexer": "ipython3"}


def to_cell(cell: Cell) -> nbformat.NotebookNode:
    """The nbformat cell of a :class:`~coursetools.notebooks.Cell` (id = its name)."""
    metadata = {}
    if cell.nbgrader is not None:
        metadata["nbgrader"] = dict(cell.nbgrader)
    if cell.needs:
        # Which answer cells a test depends on: the grading pipeline predicts partial scores from it.
        metadata["course"] = {"needs": list(cell.needs)}
    if cell.kind == "markdown":
        return nbformat.v4.new_markdown_cell(cell.source, id=cell.name, metadata=metadata)
    return nbformat.v4.new_code_cell(cell.source, id=cell.name, metadata=metadata)


def notebook(name: str) -> nbformat.NotebookNode:
    """The source notebook ``name`` (e.g. ``"01_graph"``) as an nbformat node."""
    nb = nbformat.v4.new_notebook()
    nb.nbformat_minor = 5  # cell ids
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": dict(LANGUAGE_INFO)}
    nb.cells = [to_cell(c) for c in notebooks.cells(name)]
    nbformat.validate(nb)
    return nb


def text(name: str) -> str:
    """The exact file content of notebook ``name``."""
    return nbformat.writes(notebook(name)) + "\n"


def path(name: str, root: Path = SOURCE_DIR) -> Path:
    return root / name / f"{name}.ipynb"


def build(names: list[str] | None = None, root: Path = SOURCE_DIR) -> list[Path]:
    """Write the notebooks (all by default) under ``root``; returns the paths written."""
    written = []
    for name in names or notebooks.names():
        target = path(name, root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text(name), encoding="utf-8")
        written.append(target)
    return written


def stale(names: list[str] | None = None, root: Path = SOURCE_DIR) -> list[str]:
    """The notebooks whose file under ``root`` differs from what :func:`build` would write."""
    out = []
    for name in names or notebooks.names():
        target = path(name, root)
        if not target.exists() or target.read_text(encoding="utf-8") != text(name):
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursetools.build", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks to build, e.g. 01_graph (default: all)")
    parser.add_argument("--check", action="store_true", help="only report notebooks that are out of date")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(notebooks.names()))
    if unknown:
        parser.error(f"unknown notebooks {unknown}; known: {notebooks.names()}")
    if args.check:
        out_of_date = stale(args.names or None)
        for name in out_of_date:
            print(f"{path(name).relative_to(ROOT)} is out of date: run python -m coursetools.build {name}")
        return 1 if out_of_date else 0
    for target in build(args.names or None):
        print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
