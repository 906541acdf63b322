"""The course notebooks, run in real Jupyter kernels (nbclient).

- ``solutions/`` is exactly what ``python -m coursetools.build`` writes, and each notebook has
  the promised shape: fixed ids, no outputs, at least four graded exercises of mixed kinds,
  visible and (more valuable) hidden tests for every exercise.
- Every source notebook runs top to bottom with no error: the solutions pass their own tests.
- Every student notebook in ``course/`` runs with errors exactly where the student has work to
  do: the answer cells (``NotImplementedError``) and the tests that need them; every demo and
  drawing runs, and the drawings come out as SVG.
- Other correct answers (``alternatives`` in the notebook definitions) pass every test, and
  wrong ones (``mistakes``) fail exactly the test cells they are meant to fail, which are the
  hidden ones: the hidden tests check what the visible ones do not.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools import build, notebooks
from coursetools.notebooks import GUARD, Cell

ROOT = Path(__file__).resolve().parent.parent
PART_ONE = ["01_graph", "02_leaves", "03_backward", "04_hooks"]
NAMES = notebooks.names()
CELL_TIMEOUT = 120  # seconds per cell; the slowest cell takes well under one
PARALLEL = 3  # notebooks run at once: kernels mostly wait while they start
SVG = "image/svg+xml"

# Errors a test cell may show in the release, all caused by an answer that is not written yet.
MISSING_ANSWER = ("NotImplementedError", "NameError")


# ------------------------------------------------------------------------------------ helpers
def definitions(name: str) -> list[Cell]:
    return notebooks.cells(name)


def read(folder: str, name: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / folder / name / f"{name}.ipynb", as_version=4)


def client(nb: nbformat.NotebookNode, cwd: Path) -> NotebookClient:
    """A client that runs every cell of ``nb`` in a fresh python3 kernel, carrying on after errors."""
    return NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(cwd)}},
    )


def errors(nb: nbformat.NotebookNode) -> dict[str, tuple[str, str]]:
    """``{cell id: (exception name, message)}`` for the code cells that raised, and for the graded
    test cells that wrote to stderr (a warning, say), which nbgrader scores 0 as well."""
    found = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        grading = cell.metadata.get("nbgrader", {})
        graded_test = grading.get("grade") and not grading.get("solution")
        for output in cell.outputs:
            if output.output_type == "error":
                found[cell.id] = (output.ename, output.evalue)
            elif graded_test and output.output_type == "stream" and output.name == "stderr":
                found.setdefault(cell.id, ("stderr", output.text))
    return found


def describe(found: dict[str, tuple[str, str]]) -> str:
    return "\n".join(f"  cell {cid}: {ename}: {evalue[:400]}" for cid, (ename, evalue) in found.items()) or "  none"


def svg_cells(nb: nbformat.NotebookNode) -> list[str]:
    return [
        cell.id
        for cell in nb.cells
        if cell.cell_type == "code" and any(SVG in output.get("data", {}) for output in cell.outputs)
    ]


def variant(name: str, pick) -> tuple[nbformat.NotebookNode, set[str]]:
    """The source notebook with some answers replaced: ``pick(cell)`` returns ``(source, fails)``
    for an answer cell to replace, or None. Returns the notebook and the union of ``fails``."""
    nb = read("solutions", name)
    by_name = {c.name: c for c in definitions(name)}
    expected: set[str] = set()
    for cell in nb.cells:
        chosen = pick(by_name[cell.id]) if cell.id in by_name else None
        if chosen is not None:
            cell.source, fails = chosen
            expected |= set(fails)
    return nb, expected


def rounds(name: str, attribute: str) -> int:
    return max((len(getattr(c, attribute)) for c in definitions(name)), default=0)


def prepare(kind: str, name: str, round_: int) -> tuple[nbformat.NotebookNode, Path, set[str]]:
    """The notebook to run for ``kind`` (``solutions``, ``course``, ``alternatives`` or
    ``mistakes``), the folder to run it in, and the test cells expected to fail."""
    if kind in ("solutions", "course"):
        return read(kind, name), ROOT / kind / name, set()
    if kind == "alternatives":
        nb, expected = variant(name, lambda c: (c.alternatives[round_], ()) if len(c.alternatives) > round_ else None)
    else:
        nb, expected = variant(
            name, lambda c: (c.mistakes[round_].source, c.mistakes[round_].fails) if len(c.mistakes) > round_ else None
        )
    return nb, ROOT / "solutions" / name, expected


async def run_all(jobs: list[tuple[str, str, int]]) -> dict:
    """Run the notebooks of ``jobs`` a few at a time (each in its own kernel); ``{job: (nb,
    expected failures)}``, or ``{job: exception}`` when a notebook could not be run at all."""
    limit = asyncio.Semaphore(PARALLEL)

    async def one(job):
        nb, cwd, expected = prepare(*job)
        async with limit:
            await client(nb, cwd).async_execute()
        return nb, expected

    results = await asyncio.gather(*(one(job) for job in jobs), return_exceptions=True)
    return dict(zip(jobs, results))


# Which notebook run each test looks at.
KINDS = {
    "test_solution_notebook_runs_and_passes_its_tests": "solutions",
    "test_release_notebook_fails_only_where_the_student_works": "course",
    "test_other_correct_answers_get_full_marks": "alternatives",
    "test_wrong_answers_fail_exactly_their_tests": "mistakes",
}


@pytest.fixture(scope="module")
def runs(request) -> dict:
    """Every notebook run the selected tests need, made once, several kernels at a time."""
    jobs = []
    for item in request.session.items:
        kind = KINDS.get(getattr(item, "originalname", None))
        if kind and item.module is request.module:
            params = item.callspec.params
            jobs.append((kind, params["name"], params.get("round_", 0)))
    return asyncio.run(run_all(list(dict.fromkeys(jobs))))


def executed(runs: dict, kind: str, name: str, round_: int = 0) -> tuple[nbformat.NotebookNode, set[str]]:
    result = runs[(kind, name, round_)]
    if isinstance(result, BaseException):
        raise result
    return result


# ------------------------------------------------------------------------------------ structure
def test_part_one_notebooks_exist():
    missing = [n for n in PART_ONE if n not in NAMES]
    assert not missing, f"no definition in coursetools/notebooks for {missing}"
    for name in PART_ONE:
        assert (ROOT / "solutions" / name / f"{name}.ipynb").is_file(), f"solutions/{name} is missing"
        assert (ROOT / "course" / name / f"{name}.ipynb").is_file(), (
            f"course/{name} is missing: run nbgrader generate_assignment {name} --force"
        )


def test_solutions_are_what_the_builder_writes():
    stale = build.stale()
    assert not stale, f"solutions/ is out of date for {stale}: run python -m coursetools.build"
    for name in NAMES:
        assert build.text(name) == build.text(name), f"building {name} twice gave different notebooks"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_shape(name):
    nb = read("solutions", name)
    cells = definitions(name)
    assert [c.id for c in nb.cells] == [c.name for c in cells], "cell ids must be the fixed names of the definitions"
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"cell {cell.id} has stored outputs"
        grading = cell.metadata.get("nbgrader")
        if grading is not None:
            assert grading["grade_id"] == cell.id and grading["schema_version"] == 3

    answers = [c for c in cells if c.is_answer]
    code_answers = [c for c in answers if c.kind == "code"]
    written = [c for c in answers if c.kind == "markdown"]
    functions = [c for c in code_answers if re.search(r"^(def|class) ", c.source, re.M)]
    predictions = [c for c in code_answers if c not in functions]
    assert len(answers) >= 4, f"{name} has {len(answers)} graded exercises, fewer than 4"
    assert written and functions and predictions, (
        f"{name} should mix written answers ({len(written)}), code to write ({len(functions)}) "
        f"and predictions ({len(predictions)})"
    )
    for answer in written:
        before = cells[cells.index(answer) - 1]
        assert before.kind == "markdown" and before.nbgrader == {
            "grade": False,
            "grade_id": before.name,
            "locked": True,
            "schema_version": 3,
            "solution": False,
        }, f"the question above the written answer {answer.name} must be a read-only markdown cell"
        assert answer.points > 0

    test_cells = [c for c in cells if c.is_test]
    for test in test_cells:
        assert test.source.startswith(GUARD), f"test cell {test.name} must start with the check import and guard()"
        assert test.source.count("### BEGIN HIDDEN TESTS") == test.source.count("### END HIDDEN TESTS") <= 1
    for answer in code_answers:
        mine = [t for t in test_cells if answer.name in t.needs]
        visible = [t for t in mine if "### BEGIN HIDDEN TESTS" not in t.source]
        hidden = [t for t in mine if "### BEGIN HIDDEN TESTS" in t.source]
        assert visible and hidden, f"{answer.name} needs a visible test cell and a hidden test cell"
        assert sum(t.points for t in hidden) > sum(t.points for t in visible), (
            f"the hidden tests of {answer.name} should be worth more than its visible tests"
        )
        assert answer.mistakes, f"{answer.name} has no wrong answer to prove its tests can fail"
        for mistake in answer.mistakes:
            assert set(mistake.fails) <= {t.name for t in mine}, (
                f"a mistake for {answer.name} names test cells of another exercise: {mistake.fails}"
            )
    assert any(c.alternatives for c in functions), f"{name}: no other correct solution is tried"


@pytest.mark.parametrize("name", NAMES)
def test_release_matches_the_source(name):
    source, release = read("solutions", name), read("course", name)
    assert [c.id for c in release.cells] == [c.id for c in source.cells], (
        f"course/{name} has other cells than solutions/{name}: run nbgrader generate_assignment {name} --force"
    )
    for cell in release.cells:
        assert "BEGIN SOLUTION" not in cell.source and "BEGIN HIDDEN TESTS" not in cell.source, (
            f"course/{name}, cell {cell.id}: a solution or hidden test was released"
        )
    answers = {c.name: c for c in definitions(name) if c.is_answer}
    for cell in release.cells:
        if cell.id in answers:
            stub = "raise NotImplementedError()" if cell.cell_type == "code" else "YOUR ANSWER HERE"
            assert stub in cell.source, f"course/{name}, cell {cell.id} should hold {stub!r}"


# Names a test cell may read besides the answers, the setup cell and the check helpers: data
# that a demo cell makes and the exercises are about.
SHARED_DATA = {"08_capstone": {"x_train", "y_train", "x_test", "y_test"}}


def _bound(tree: ast.AST) -> set[str]:
    """The names a piece of code defines (assignments, functions, classes, imports, arguments)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


@pytest.mark.parametrize("name", NAMES)
def test_tests_read_only_answers_setup_and_check_helpers(name):
    """A test cell that reads a name a demo cell defines (``leaf``, ``vjp_add``) fails for a right
    answer that happens to define a helper of that name, or for a student who edited the demo."""
    from coursetools import checks

    cells = definitions(name)
    allowed = set(dir(builtins)) | set(checks.__all__) | SHARED_DATA.get(name, set())
    for cell in cells:
        if cell.kind == "code" and (cell.is_answer or cell.name == "setup"):
            allowed |= _bound(ast.parse(cell.source))
    for cell in cells:
        if cell.is_test:
            tree = ast.parse(cell.source)
            read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            outside = sorted(read - _bound(tree) - allowed)
            assert not outside, f"{name}, test cell {cell.name} reads {outside}, defined by neither an answer nor setup"


# ------------------------------------------------------------------------------------ execution
@pytest.mark.parametrize("name", NAMES)
def test_solution_notebook_runs_and_passes_its_tests(runs, name):
    nb, _ = executed(runs, "solutions", name)
    found = errors(nb)
    assert not found, f"solutions/{name} should run without errors; these cells raised:\n{describe(found)}"
    assert svg_cells(nb), f"solutions/{name} shows no minigrad.viz drawing (no {SVG} output)"


@pytest.mark.parametrize("name", NAMES)
def test_release_notebook_fails_only_where_the_student_works(runs, name):
    nb, _ = executed(runs, "course", name)
    cells = definitions(name)
    answers = {c.name for c in cells if c.is_answer and c.kind == "code"}
    tests_ = {c.name for c in cells if c.is_test}
    found = errors(nb)

    unexpected = {cid: e for cid, e in found.items() if cid not in answers | tests_}
    assert not unexpected, f"course/{name}: cells that are not exercises raised errors:\n{describe(unexpected)}"
    wrong_answer_errors = {cid: e for cid, e in found.items() if cid in answers and e[0] != "NotImplementedError"}
    assert not wrong_answer_errors, (
        f"course/{name}: answer cells should fail only with NotImplementedError:\n{describe(wrong_answer_errors)}"
    )
    passing_tests = sorted(tests_ - set(found))
    assert not passing_tests, f"course/{name}: test cells pass although their answer is not written: {passing_tests}"
    wrong_test_errors = {
        cid: e
        for cid, e in found.items()
        if cid in tests_ and e[0] not in MISSING_ANSWER and not (e[0] == "AssertionError" and "is not defined" in e[1])
    }
    assert not wrong_test_errors, (
        f"course/{name}: test cells should fail because the answer is missing, not for another reason:\n"
        f"{describe(wrong_test_errors)}"
    )
    assert svg_cells(nb), f"course/{name} shows no minigrad.viz drawing (no {SVG} output)"


@pytest.mark.parametrize(("name", "round_"), [(n, r) for n in NAMES for r in range(rounds(n, "alternatives"))], ids=str)
def test_other_correct_answers_get_full_marks(runs, name, round_):
    nb, _ = executed(runs, "alternatives", name, round_)
    found = errors(nb)
    assert not found, (
        f"{name}: with other correct answers (round {round_} of the alternatives), these cells failed:\n"
        f"{describe(found)}"
    )


@pytest.mark.parametrize(("name", "round_"), [(n, r) for n in NAMES for r in range(rounds(n, "mistakes"))], ids=str)
def test_wrong_answers_fail_exactly_their_tests(runs, name, round_):
    nb, expected = executed(runs, "mistakes", name, round_)
    found = errors(nb)
    answers = {c.name for c in definitions(name) if c.is_answer}
    crashed = {cid: e for cid, e in found.items() if cid in answers}
    assert not crashed, f"{name}: the wrong answers themselves should run:\n{describe(crashed)}"
    missed = sorted(expected - set(found))
    assert not missed, f"{name}: these test cells should catch the wrong answers but passed: {missed}"
    extra = {cid: e for cid, e in found.items() if cid not in expected}
    assert not extra, f"{name}: these cells failed although their answers are right:\n{describe(extra)}"
