"""Make and check the student release, ``course/``, from the instructor notebooks in ``solutions/``.

Usage, from the repository root::

    python -m coursetools.course release              # nbgrader generate_assignment --force, every assignment
    python -m coursetools.course release 02_leaves    # only that one
    python -m coursetools.course check                # exit 1 when course/ is not what release makes

``release`` runs nbgrader's ``generate_assignment`` with ``--force`` through its Python API and
the repository's ``nbgrader_config.py``, exactly like ``nbgrader generate_assignment NN_name
--force``. ``check`` makes a fresh release in a temporary folder and compares it, file by file,
with the committed ``course/``.
"""

from __future__ import annotations

import argparse
import atexit
import filecmp
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = "nbgrader_config.py"
SOURCE = "solutions"
RELEASE = "course"
_IGNORED = {".ipynb_checkpoints", "__pycache__"}


def assignments(root: Path = ROOT) -> list[str]:
    """The assignments in ``root/solutions``: folders ``NN_name`` holding ``NN_name.ipynb``."""
    source = root / SOURCE
    if not source.is_dir():
        return []
    return sorted(p.name for p in source.iterdir() if (p / f"{p.name}.ipynb").is_file())


def _with_tools_on_path() -> None:
    # nbgrader creates gradebook.db by running `alembic`, which lives beside this Python.
    bindir = os.path.dirname(sys.executable)
    if bindir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")


def api(root: Path = ROOT, **overrides):
    """An ``NbGraderAPI`` for the course at ``root``, configured by ``root/nbgrader_config.py``.

    ``overrides`` maps ``"Section.name"`` to a value (e.g. ``{"Execute.timeout": 10}``).
    """
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    _with_tools_on_path()
    config = PyFileConfigLoader(CONFIG, path=str(root)).load_config()
    for key, value in overrides.items():
        section, name = key.split(".")
        config[section][name] = value
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def release(names: list[str] | None = None, root: Path = ROOT) -> list[str]:
    """Run ``nbgrader generate_assignment NAME --force`` for each assignment (all by default).

    Returns the release folders written; raises ``RuntimeError`` with nbgrader's log on failure.
    """
    grader = api(root)
    written = []
    for name in names or assignments(root):
        result = grader.generate_assignment(name, force=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{result['log']}\n{result['error']}")
        written.append(f"{RELEASE}/{name}")
    return written


def _files(folder: Path) -> set[str]:
    if not folder.is_dir():
        return set()
    return {
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and not _IGNORED & set(p.relative_to(folder).parts)
    }


_EMPTY_GRADEBOOK: list[Path] = []


def _empty_gradebook() -> Path:
    """An empty gradebook.db, made once per process (making one runs ``alembic``, which is slow)."""
    if not _EMPTY_GRADEBOOK:
        from nbgrader.api import Gradebook

        _with_tools_on_path()
        folder = tempfile.mkdtemp(prefix="minigrad-gradebook-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = Path(folder) / "gradebook.db"
        with Gradebook(f"sqlite:///{path}"):
            pass
        _EMPTY_GRADEBOOK.append(path)
    return _EMPTY_GRADEBOOK[0]


def stale(root: Path = ROOT) -> list[str]:
    """What differs between ``root/course`` and a fresh release of ``root/solutions``.

    Returns one line per problem (empty when ``course/`` is up to date).
    """
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        shutil.copy(root / CONFIG, fresh / CONFIG)
        shutil.copy(_empty_gradebook(), fresh / "gradebook.db")
        if (root / SOURCE).is_dir():
            shutil.copytree(root / SOURCE, fresh / SOURCE, ignore=shutil.ignore_patterns(*_IGNORED))
        release(assignments(fresh), fresh)
        # A file directly in course/ (its README.md) is no assignment's: generate_assignment keeps it.
        made, committed = _files(fresh / RELEASE), {f for f in _files(root / RELEASE) if len(Path(f).parts) > 1}
        problems = [f"{RELEASE}/{f} is missing" for f in sorted(made - committed)]
        problems += [f"{RELEASE}/{f} is not made by the release (remove it)" for f in sorted(committed - made)]
        problems += [
            f"{RELEASE}/{f} is out of date"
            for f in sorted(made & committed)
            if not filecmp.cmp(fresh / RELEASE / f, root / RELEASE / f, shallow=False)
        ]
    return problems


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursetools.course", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("release", help="write course/ from solutions/ (nbgrader generate_assignment --force)")
    make.add_argument("names", nargs="*", help="assignments, e.g. 01_graph (default: all in solutions/)")
    commands.add_parser("check", help="exit 1 when course/ differs from a fresh release")
    args = parser.parse_args(argv)
    if args.command == "release":
        unknown = sorted(set(args.names) - set(assignments(root)))
        if unknown:
            parser.error(f"unknown assignments {unknown}; in {SOURCE}/: {assignments(root)}")
        for folder in release(args.names or None, root):
            print(f"wrote {folder}")
        return 0
    problems = stale(root)
    for line in problems:
        print(line)
    if problems:
        print("run: python -m coursetools.course release")
        return 1
    print(f"{RELEASE}/ is up to date ({len(assignments(root))} assignments)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
