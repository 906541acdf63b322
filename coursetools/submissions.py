"""Build test submissions of any assignment from its source and release notebooks.

The grading tests (``tests/test_autograde.py``) autograde these and compare each score with
the score it deserves, for every assignment in ``solutions/`` and with no per-assignment code.
Cells are found by their nbgrader metadata (``grade_id``), never by position or text.

**Which answers a test needs.** Every autograded test cell of a source notebook lists the answer
cells it depends on in its metadata::

    "metadata": {
        "nbgrader": {"grade": true, "locked": true, "points": 3, "grade_id": "test_backward", ...},
        "course": {"needs": ["answer_backward", "answer_leaf"]}
    }

``needs`` holds ``grade_id``\\ s of answer cells (code cells with ``"solution": true``). A test
whose ``needs`` are all solved must pass, and a test needing an unsolved answer must fail, so
the score of a partly solved notebook is the sum of the points of the tests whose ``needs`` are
all solved. A test cell without ``course.needs`` is taken to need every answer cell above it.

The builders take nbformat notebooks and return new ones (their inputs are not changed):

* :func:`full` — the release with every answer cell replaced by the source's answer (solution
  markers dropped): all autograded points;
* :func:`partial` — only the answers named solved: :func:`expected_passes` tells which tests pass;
* :func:`tests_edited`, :func:`tests_deleted` — tampered test cells (nbgrader restores them);
* :func:`infinite_loop`, :func:`swallowed_interrupt`, :func:`kernel_exit`, :func:`huge_output`
  — hostile code in one answer cell;
* :func:`monkeypatched` — fake answers plus patches of ``minigrad`` and the check helpers, so
  that without :func:`coursetools.checks.guard` wrong answers would look right.

:func:`example_source` is a small source notebook with the same conventions, for tests that
need an assignment of their own.
"""

from __future__ import annotations

import copy

import nbformat
from nbformat.notebooknode import NotebookNode

SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")
STUB = "raise NotImplementedError()"


# ---------------------------------------------------------------------------------------------
# Reading a notebook's nbgrader cells


def _nbgrader(cell: NotebookNode) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def is_answer(cell: NotebookNode) -> bool:
    """An autograded answer: a code cell the student writes (``solution`` and not ``grade``)."""
    meta = _nbgrader(cell)
    return cell.cell_type == "code" and bool(meta.get("solution")) and not meta.get("grade")


def is_test(cell: NotebookNode) -> bool:
    """An autograded test: a code cell with points that the student cannot edit."""
    meta = _nbgrader(cell)
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def grade_id(cell: NotebookNode) -> str:
    return _nbgrader(cell)["grade_id"]


def answers(nb: NotebookNode) -> list[str]:
    """The answer cells' grade_ids, in notebook order."""
    return [grade_id(c) for c in nb.cells if is_answer(c)]


def tests(nb: NotebookNode) -> dict[str, float]:
    """``{grade_id: points}`` of the autograded test cells, in notebook order."""
    return {grade_id(c): float(_nbgrader(c)["points"]) for c in nb.cells if is_test(c)}


def needs(source: NotebookNode) -> dict[str, frozenset[str]]:
    """``{test grade_id: the answer grade_ids it needs}`` (see the module docstring)."""
    out, above = {}, []
    for cell in source.cells:
        if is_answer(cell):
            above.append(grade_id(cell))
        elif is_test(cell):
            listed = cell.get("metadata", {}).get("course", {}).get("needs")
            out[grade_id(cell)] = frozenset(above if listed is None else listed)
    return out


def expected_passes(source: NotebookNode, solved) -> set[str]:
    """The tests that pass when exactly the answers in ``solved`` are right."""
    solved = set(solved)
    return {test for test, wanted in needs(source).items() if wanted <= solved}


def passes_before(source: NotebookNode, answer: str) -> set[str]:
    """The tests above answer cell ``answer`` (those that run before it, in a full solution)."""
    out = set()
    for cell in source.cells:
        if is_answer(cell) and grade_id(cell) == answer:
            return out
        if is_test(cell):
            out.add(grade_id(cell))
    raise KeyError(answer)


def points(source: NotebookNode, passed) -> float:
    """The points of the tests in ``passed``."""
    table = tests(source)
    return sum(table[t] for t in passed)


def solution_code(cell: NotebookNode) -> str:
    """An answer cell's source with the solution markers' lines removed."""
    return "\n".join(line for line in cell.source.split("\n") if line.strip() not in SOLUTION_MARKERS)


HIDDEN_MARKERS = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")


def _line_kinds(source: NotebookNode) -> dict[str, set[str]]:
    """Stripped lines of the source notebook, sorted into ``solution``, ``hidden`` and ``public``."""
    kinds: dict[str, set[str]] = {"solution": set(), "hidden": set(), "public": set()}
    for cell in source.cells:
        # nbgrader blanks a whole solution cell that has no solution region (e.g. a written answer)
        whole = bool(_nbgrader(cell).get("solution")) and SOLUTION_MARKERS[0] not in cell.source
        region = "solution" if whole else "public"
        for line in cell.source.split("\n"):
            text = line.strip()
            if text in (SOLUTION_MARKERS[0], HIDDEN_MARKERS[0]):
                region = "solution" if text == SOLUTION_MARKERS[0] else "hidden"
            elif text in (SOLUTION_MARKERS[1], HIDDEN_MARKERS[1]):
                region = "public"
            elif text:
                kinds[region].add(text)
    return kinds


def public_lines(source: NotebookNode) -> set[str]:
    """The stripped lines of ``source`` outside solution and hidden-test regions (what students see)."""
    return _line_kinds(source)["public"]


def secret_lines(source: NotebookNode, what: tuple[str, ...] = ("solution", "hidden")) -> set[str]:
    """Lines a student must never see: the solution and/or hidden-test lines of ``source``.

    Stripped lines inside ``### BEGIN SOLUTION`` or ``### BEGIN HIDDEN TESTS`` regions (and the
    whole of a solution cell without a region, such as a written answer, which nbgrader blanks),
    minus any line that the open part of the notebook shows too (``guard()``, an import, code
    quoted in an explanation).
    """
    kinds = _line_kinds(source)
    secret = set().union(*(kinds[k] for k in what))
    return {line for line in secret if not any(line in public for public in kinds["public"])}


# ---------------------------------------------------------------------------------------------
# Builders


def _by_id(nb: NotebookNode) -> dict[str, NotebookNode]:
    return {grade_id(c): c for c in nb.cells if _nbgrader(c).get("grade_id")}


def _replace_answers(source: NotebookNode, release: NotebookNode, solved) -> NotebookNode:
    sub = copy.deepcopy(release)
    originals = _by_id(source)
    for cell in sub.cells:
        if is_answer(cell) and grade_id(cell) in solved:
            cell.source = solution_code(originals[grade_id(cell)])
    return sub


def full(source: NotebookNode, release: NotebookNode) -> NotebookNode:
    """The release with every answer solved as in the source."""
    return _replace_answers(source, release, set(answers(source)))


def partial(source: NotebookNode, release: NotebookNode, solved) -> NotebookNode:
    """The release with only the answers in ``solved`` solved."""
    unknown = set(solved) - set(answers(source))
    if unknown:
        raise KeyError(f"not answer cells: {sorted(unknown)}")
    return _replace_answers(source, release, set(solved))


def some_answers(source: NotebookNode) -> set[str]:
    """A proper, non-empty subset of the answers whose tests give a score between 0 and full.

    The answers needed by the first test, when that leaves some test failing; otherwise the
    first answer alone.
    """
    all_answers = answers(source)
    for wanted in needs(source).values():
        if wanted and set(wanted) != set(all_answers):
            return set(wanted)
    return set(all_answers[:1])


def tests_edited(nb: NotebookNode, new_source: str = "pass") -> NotebookNode:
    """Every autograded test cell's code replaced by ``new_source``."""
    sub = copy.deepcopy(nb)
    for cell in sub.cells:
        if is_test(cell):
            cell.source = new_source
    return sub


def tests_deleted(nb: NotebookNode) -> NotebookNode:
    """Every autograded test cell removed."""
    sub = copy.deepcopy(nb)
    sub.cells = [c for c in sub.cells if not is_test(c)]
    return sub


def _prepend(nb: NotebookNode, answer: str, code: str) -> NotebookNode:
    sub = copy.deepcopy(nb)
    for cell in sub.cells:
        if is_answer(cell) and grade_id(cell) == answer:
            cell.source = code.rstrip("\n") + "\n" + cell.source
            return sub
    raise KeyError(answer)


def infinite_loop(nb: NotebookNode, answer: str) -> NotebookNode:
    """A loop that never ends (but can be interrupted) at the top of answer cell ``answer``.

    It sleeps in the loop, so that waiting for the timeout does not take a CPU from the tests
    that run beside it; to the grader it is the same as a busy loop.
    """
    return _prepend(nb, answer, "import time\nwhile True:\n    time.sleep(0.01)")


def swallowed_interrupt(nb: NotebookNode, answer: str) -> NotebookNode:
    """A loop that catches ``KeyboardInterrupt``, so the grader cannot interrupt it."""
    code = "import time\nwhile True:\n    try:\n        time.sleep(0.05)\n    except KeyboardInterrupt:\n        pass"
    return _prepend(nb, answer, code)


def kernel_exit(nb: NotebookNode, answer: str) -> NotebookNode:
    """``os._exit(1)`` at the top of answer cell ``answer``: the kernel dies."""
    return _prepend(nb, answer, "import os\nos._exit(1)")


def huge_output(nb: NotebookNode, answer: str, megabytes: int = 50) -> NotebookNode:
    """``answer`` prints ``megabytes`` MB: half on one line, half as 100-character lines."""
    half = megabytes * 500_000
    code = f"print('x' * {half})\nfor _ in range({half // 100}):\n    print('y' * 99)"
    return _prepend(nb, answer, code)


PATCHES = """\
# Make wrong answers look right: silence the checks, make every tensor equal every other one.
import minigrad, minigrad.autograd
import coursetools.checks as _checks
for _name in ("check", "check_close", "check_equal", "check_raises"):
    vars(_checks)[_name] = lambda *args, **kwargs: None
minigrad.Tensor.__eq__ = lambda self, other: True
minigrad.Tensor.allclose = lambda self, other, *args, **kwargs: True
minigrad.autograd.grad = lambda outputs, inputs, *args, **kwargs: tuple(minigrad.ones_like(i) for i in inputs)
"""


def monkeypatched(release: NotebookNode) -> NotebookNode:
    """Every answer faked (the stub's ``raise`` removed) and :data:`PATCHES` in the first one."""
    sub = copy.deepcopy(release)
    first = True
    for cell in sub.cells:
        if is_answer(cell):
            cell.source = cell.source.replace(STUB, "pass")
            if first:
                cell.source = PATCHES + cell.source
                first = False
    return sub


# ---------------------------------------------------------------------------------------------
# A small assignment with the course's conventions


def _cell(kind: str, name: str, source: str, nbgrader: dict | None = None, needs=None) -> NotebookNode:
    metadata = {}
    if nbgrader is not None:
        metadata["nbgrader"] = {"grade_id": name, "schema_version": 3, **nbgrader}
    if needs is not None:
        metadata["course"] = {"needs": list(needs)}
    make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    return make(source, id=name, metadata=metadata)


ANSWER = {"solution": True, "grade": False, "locked": False}


def _test(points: float) -> dict:
    return {"solution": False, "grade": True, "locked": True, "points": points}


def example_source(guarded: bool = True) -> NotebookNode:
    """A small nbgrader source notebook: two answers, three tests (hidden parts), one written answer.

    With ``guarded=False`` the tests do not call ``guard()`` (to show what it prevents).
    """
    head = "from coursetools.checks import *\n" + ("guard()\n" if guarded else "")
    cells = [
        _cell("markdown", "intro", "# Example\nA tiny assignment for the grading pipeline's tests."),
        _cell("code", "setup", "import minigrad as torch"),
        _cell(
            "code",
            "answer_square",
            'def square(x):\n    """x * x, as a tensor operation."""\n'
            "    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION",
            ANSWER,
        ),
        _cell(
            "code",
            "test_square",
            head + "check_close(square(torch.tensor([3.0])), [9.0], 'square(3) should be 9')\n"
            "### BEGIN HIDDEN TESTS\n"
            "check_close(square(torch.tensor([-1.5, 0.25])), [2.25, 0.0625], 'hidden: square of a vector')\n"
            "### END HIDDEN TESTS",
            _test(3),
            needs=["answer_square"],
        ),
        _cell(
            "code",
            "answer_grad",
            'def grad_of_cube(value):\n    """d(x**3)/dx at x = value, computed by minigrad\'s backward."""\n'
            "    ### BEGIN SOLUTION\n    x = torch.tensor(value, requires_grad=True)\n"
            "    (x * x * x).backward()\n    return x.grad\n    ### END SOLUTION",
            ANSWER,
        ),
        _cell(
            "code",
            "test_grad",
            head + "### BEGIN HIDDEN TESTS\n"
            "check_close(grad_of_cube(2.0), 12.0, 'hidden: the derivative of x**3 at 2 is 12')\n"
            "check_close(grad_of_cube(-1.0), 3.0, 'hidden: the derivative of x**3 at -1 is 3')\n"
            "### END HIDDEN TESTS",
            _test(4),
            needs=["answer_grad"],
        ),
        _cell(
            "code",
            "test_both",
            head + "check_close(grad_of_cube(1.0) + square(torch.tensor(1.0)), 4.0, '3 + 1 = 4')\n"
            "check(torch.tensor([1.0]).equal(torch.tensor([1.0])), 'equal tensors')",
            _test(2),
            needs=["answer_square", "answer_grad"],
        ),
        _cell(
            "markdown",
            "question",
            "Why does `x.grad` stay `None` for a tensor made without `requires_grad=True`?",
            {"solution": False, "grade": False, "locked": True},
        ),
        _cell(
            "markdown",
            "written",
            "### BEGIN SOLUTION\nAutograd only records operations on tensors that require grad.\n### END SOLUTION",
            {"solution": True, "grade": True, "locked": False, "points": 2},
        ),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.nbformat_minor = 5
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    nbformat.validate(nb)
    return nb
