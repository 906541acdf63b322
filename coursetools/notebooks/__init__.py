"""The course notebooks, written as Python: one module per notebook, its cells in order.

Each module ``coursetools/notebooks/NN_name.py`` defines ``CELLS``, a list made with the
constructors below. ``python -m coursetools.build`` turns it into the nbgrader source notebook
``solutions/NN_name/NN_name.ipynb``. Every cell has a stable ``name``: it is the cell's id in the
notebook and, for graded cells, its nbgrader ``grade_id``, so rebuilding never changes a cell
that was not edited.

The kinds of cells:

- :func:`md` and :func:`code`: explanation and runnable demos (students may edit them);
- :func:`answer`: a code cell the student fills in, with the solution between
  ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (the release replaces that region with
  ``raise NotImplementedError()``);
- :func:`tests`: an autograded, read-only test cell worth ``points``, listing in ``needs`` the
  answer cells it depends on; hidden tests sit between ``### BEGIN HIDDEN TESTS`` and
  ``### END HIDDEN TESTS``;
- :func:`question` and :func:`written`: a read-only question and the hand-graded markdown cell
  under it, whose source here is the model answer (the release shows ``YOUR ANSWER HERE``).

:func:`answer` also carries, for ``tests/test_notebooks.py`` only, other correct solutions
(``alternatives``) and wrong ones (``mistakes``, each with the test cells it must fail): they are
never written to a notebook.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import textwrap
from dataclasses import dataclass, field

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@dataclass(frozen=True)
class Mistake:
    """A wrong answer and the names of the test cells that must fail with it (all others pass)."""

    source: str
    fails: tuple[str, ...]


@dataclass(frozen=True)
class Cell:
    """One notebook cell: ``kind`` is ``"markdown"`` or ``"code"``."""

    kind: str
    name: str
    source: str
    nbgrader: dict | None = None
    needs: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = field(default=(), compare=False)
    mistakes: tuple[Mistake, ...] = field(default=(), compare=False)

    @property
    def is_answer(self) -> bool:
        return bool(self.nbgrader and self.nbgrader["solution"])

    @property
    def is_test(self) -> bool:
        return bool(self.nbgrader and self.nbgrader["grade"] and not self.nbgrader["solution"])

    @property
    def points(self) -> float:
        return self.nbgrader.get("points", 0) if self.nbgrader else 0


def _text(source: str) -> str:
    """Source as written in a module: dedented, without the blank first and last lines."""
    return textwrap.dedent(source).strip("\n")


def _nbgrader(name: str, *, solution: bool, grade: bool, locked: bool, points: float | None = None) -> dict:
    meta = {"grade": grade, "grade_id": name, "locked": locked, "schema_version": 3, "solution": solution}
    if points is not None:
        meta["points"] = points
    return meta


def md(name: str, *parts: str) -> Cell:
    """An explanation (markdown) cell: ``parts`` are paragraphs, each dedented on its own."""
    return Cell("markdown", name, "\n\n".join(_text(p) for p in parts))


def code(name: str, source: str) -> Cell:
    """A demo code cell the student runs (and may change)."""
    return Cell("code", name, _text(source))


def how_to_work(minutes: int) -> str:
    """The paragraph that ends a notebook's introduction (from the second notebook on)."""
    return f"""
        **Time:** about {minutes} minutes. Run the cells in order; replace each
        `raise NotImplementedError()` with your answer; the test cell after it gives feedback, and
        hidden tests check more cases when the notebook is graded. Finish with
        *Kernel → Restart Kernel and Run All Cells*.
        """


def setup(*imports: str) -> Cell:
    """The first code cell: minigrad as ``torch``, ``viz``, any further ``imports``, a fixed seed."""
    seed = ['torch.manual_seed(0)  # the same "random" numbers on every run', 'print("minigrad", torch.__version__)']
    return code("setup", "\n".join(["import minigrad as torch", "from minigrad import viz", *imports, "", *seed]))


def answer(name: str, source: str, *, alternatives: tuple[str, ...] = (), mistakes: tuple[Mistake, ...] = ()) -> Cell:
    """A code cell the student completes; ``source`` holds the solution region."""
    body = _text(source)
    if "### BEGIN SOLUTION" not in body or "### END SOLUTION" not in body:
        raise ValueError(f"answer cell {name!r} needs a ### BEGIN SOLUTION / ### END SOLUTION region")
    return Cell(
        "code",
        name,
        body,
        _nbgrader(name, solution=True, grade=False, locked=False),
        alternatives=tuple(_text(a) for a in alternatives),
        mistakes=tuple(Mistake(_text(m.source), tuple(m.fails)) for m in mistakes),
    )


GUARD = "from coursetools.checks import *\n\nguard()"


def tests(name: str, *parts: str, points: float, needs: tuple[str, ...] | list[str]) -> Cell:
    """An autograded, read-only test cell worth ``points``; ``needs`` are the answers it uses.

    The cell starts with the import of the check helpers and ``guard()``; then come ``parts``,
    each dedented on its own (so a part may be generated code that starts at column 0).
    """
    body = "\n\n".join([GUARD] + [_text(p) for p in parts])
    return Cell(
        "code",
        name,
        body,
        _nbgrader(name, solution=False, grade=True, locked=True, points=points),
        needs=tuple(needs),
    )


def question(name: str, text: str) -> Cell:
    """A read-only markdown cell: the question of a written answer."""
    return Cell("markdown", name, _text(text), _nbgrader(name, solution=False, grade=False, locked=True))


def written(name: str, model_answer: str, *, points: float) -> Cell:
    """A hand-graded markdown answer cell; its source is the model answer."""
    return Cell(
        "markdown", name, _text(model_answer), _nbgrader(name, solution=True, grade=True, locked=False, points=points)
    )


def mistake(source: str, fails: tuple[str, ...] | list[str]) -> Mistake:
    """A wrong answer for the tests: it must fail exactly the test cells in ``fails``."""
    return Mistake(source, tuple(fails))


def names() -> list[str]:
    """The notebooks defined in this package, e.g. ``["01_graph", "02_leaves"]``, in order."""
    found = [m.name for m in pkgutil.iter_modules(__path__) if re.match(r"^\d\d_\w+$", m.name)]
    return sorted(found)


def cells(notebook: str) -> list[Cell]:
    """The checked cells of ``notebook`` (e.g. ``"01_graph"``)."""
    module = importlib.import_module(f"{__name__}.{notebook}")
    found = list(module.CELLS)
    validate(notebook, found)
    return found


def validate(notebook: str, found: list[Cell]) -> None:
    """Raise ``ValueError`` when names clash or a test needs an answer cell that does not exist."""
    seen: set[str] = set()
    answers = {c.name for c in found if c.is_answer and c.kind == "code"}
    for c in found:
        if not NAME.match(c.name):
            raise ValueError(f"{notebook}: cell name {c.name!r} must match {NAME.pattern}")
        if c.name in seen:
            raise ValueError(f"{notebook}: two cells are named {c.name!r}")
        seen.add(c.name)
        if c.is_test:
            if not c.needs:
                raise ValueError(f"{notebook}: test cell {c.name!r} lists no answer cell in needs")
            unknown = [n for n in c.needs if n not in answers]
            if unknown:
                raise ValueError(f"{notebook}: test cell {c.name!r} needs unknown answer cells {unknown}")
        for m in c.mistakes:
            unknown = [n for n in m.fails if n not in {t.name for t in found if t.is_test}]
            if unknown:
                raise ValueError(f"{notebook}: a mistake of {c.name!r} names unknown test cells {unknown}")
