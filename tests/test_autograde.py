"""End to end: release, autograde a batch of honest and hostile submissions, feedback, export.

For every assignment in ``solutions/`` (and a small example assignment of the tests' own), in a
temporary copy of the course with the repository's ``nbgrader_config.py``: generate the release,
build the submissions of :mod:`coursetools.submissions`, run ``nbgrader autograde`` on all of them
as one batch (real kernels), and compare each test cell's score with the score it deserves,
predicted from the ``course.needs`` metadata of the source notebook. Then generate the feedback
and check that no hidden test leaks into it.
"""

from __future__ import annotations

import csv
import html
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from coursetools import course
from coursetools import submissions as sub

nbgrader = pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook  # noqa: E402

EXAMPLE = "00_example"
# Small, so the hostile submissions cost little; the course's cells each take well under a second.
TIMEOUT = 8
MB = 1_000_000
# Batches graded at the same time: much of a batch waits on timeouts, which overlap.
WORKERS = 4


@dataclass
class Batch:
    """One assignment autograded in a temporary course."""

    name: str
    root: Path
    source: nbformat.NotebookNode
    expected: dict[str, set[str]]  # student -> the tests that must pass
    autograde: subprocess.CompletedProcess
    seconds: float
    scores: dict[str, dict[str, float]] = field(default_factory=dict)  # student -> test -> score
    feedback: subprocess.CompletedProcess | None = None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # nbgrader runs `alembic` to create gradebook.db: it must be on PATH.
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def _nbgrader(root: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _submissions(source, release) -> tuple[dict, dict[str, set[str]]]:
    """The batch: ``{student: notebook}`` and ``{student: tests that must pass}``."""
    answers = sub.answers(source)
    everything = set(sub.tests(source))
    solved = sub.some_answers(source)
    partly = sub.partial(source, release, solved)
    first, middle, last = answers[0], answers[len(answers) // 2], answers[-1]
    solution = sub.full(source, release)
    # Students are graded in the order of their names: the ordinary ones after the hostile ones
    # show that one submission cannot change another's grade.
    built = {
        "a_full": (solution, everything),
        # interrupted at the timeout: only that answer is lost
        "b_infinite_loop": (
            sub.infinite_loop(solution, first),
            sub.expected_passes(source, set(answers) - {first}),
        ),
        # cannot be interrupted: the notebook stops there, the tests above it keep their points
        "c_swallows_interrupt": (sub.swallowed_interrupt(solution, last), sub.passes_before(source, last)),
        # the kernel dies: the same
        "d_os_exit": (sub.kernel_exit(solution, middle), sub.passes_before(source, middle)),
        "e_prints_50mb": (sub.huge_output(solution, first, megabytes=50), everything),
        # faked answers with minigrad and the check helpers patched: guard() fails every test
        "f_monkeypatched": (sub.monkeypatched(release), set()),
        "w_release": (release, set()),
        "x_partial": (partly, sub.expected_passes(source, solved)),
        # nbgrader restores edited and deleted test cells from the gradebook: graded as partial
        "y_tests_edited": (sub.tests_edited(partly), sub.expected_passes(source, solved)),
        "z_tests_deleted": (sub.tests_deleted(partly), sub.expected_passes(source, solved)),
    }
    return {k: nb for k, (nb, _) in built.items()}, {k: exp for k, (_, exp) in built.items()}


def _errors(log: str) -> str:
    """The parts of an nbgrader log that explain a failure (tracebacks and errors)."""
    lines = log.splitlines()
    keep = set()
    for i, line in enumerate(lines):
        if "ERROR" in line or "Traceback" in line:
            keep.update(range(i, min(i + 40, len(lines))))
    return "\n".join(lines[i] for i in sorted(keep))[-20000:]


def _scores(root: Path, name: str) -> dict[str, dict[str, float]]:
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        out = {}
        for student in gradebook.students:
            notebook = gradebook.find_submission_notebook(name, name, student.id)
            out[student.id] = {g.name: g.score for g in notebook.grades if g.cell_type == "code"}
        return out


def _example_extras(source, release) -> tuple[dict, dict[str, set[str]]]:
    """For the example only: right for the visible check, wrong for the hidden one."""
    nb = sub.full(source, release)
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "answer_square":
            cell.source = "def square(x):\n    return x * 3  # right for 3 only"
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "answer_grad":
            cell.source = "def grad_of_cube(value):\n    return 1.0 / 0  # raises in the visible test"
    return {"g_hidden_fails": nb}, {"g_hidden_fails": set()}


def grade(root: Path, name: str, source: nbformat.NotebookNode | Path, builder=_submissions) -> Batch:
    """Release ``name`` (a source folder, or a notebook) in a new course at ``root``; grade a batch.

    ``builder(source, release)`` gives the submissions and the tests each must pass.
    """
    root.mkdir(parents=True)
    shutil.copy(course.ROOT / course.CONFIG, root / course.CONFIG)
    target = root / course.SOURCE / name
    if isinstance(source, Path):
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    else:
        target.mkdir(parents=True)
        nbformat.write(source, target / f"{name}.ipynb")
    released = _nbgrader(root, "generate_assignment", name, "--force")
    assert released.returncode == 0, released.stderr[-3000:]
    source = nbformat.read(target / f"{name}.ipynb", as_version=4)
    release = nbformat.read(root / course.RELEASE / name / f"{name}.ipynb", as_version=4)
    notebooks, expected = builder(source, release)
    if name == EXAMPLE:
        extra_notebooks, extra_expected = _example_extras(source, release)
        notebooks.update(extra_notebooks)
        expected.update(extra_expected)
    for student, nb in notebooks.items():
        folder = root / "submitted" / student / name
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{name}.ipynb")
    start = time.monotonic()
    done = _nbgrader(root, "autograde", name, f"--Execute.timeout={TIMEOUT}", "--Execute.probe_seconds=3")
    (root / "autograde.log").write_text(done.stdout + done.stderr)
    batch = Batch(name, root, source, expected, done, time.monotonic() - start)
    batch.scores = _scores(root, name)
    batch.feedback = _nbgrader(root, "generate_feedback", name)
    return batch


# MINIGRAD_GRADE_ASSIGNMENTS="01_graph 04_hooks" narrows the run to those (all by default).
_CHOSEN = os.environ.get("MINIGRAD_GRADE_ASSIGNMENTS", "").replace(",", " ").split()
CASES = [EXAMPLE] + [a for a in course.assignments() if not _CHOSEN or a in _CHOSEN]
UNGUARDED = "00_unguarded"  # the example without guard(): what a monkeypatched submission gets then


def _only_monkeypatched(source, release):
    return {"faker": sub.monkeypatched(release)}, {"faker": {"test_square", "test_grad"}}


@pytest.fixture(scope="module")
def batches(tmp_path_factory) -> dict[str, Batch]:
    """Every case graded once; the cases run side by side (much of a batch waits on timeouts)."""
    base = tmp_path_factory.mktemp("courses")
    jobs = {name: (course.ROOT / course.SOURCE / name, _submissions) for name in reversed(CASES[1:])}
    jobs[EXAMPLE] = (sub.example_source(), _submissions)
    jobs[UNGUARDED] = (sub.example_source(guarded=False), _only_monkeypatched)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {name: pool.submit(grade, base / name, name, *job) for name, job in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


def test_there_are_assignments_to_grade():
    assert course.assignments(), "no assignment in solutions/"


@pytest.mark.parametrize("name", CASES)
def test_batch_finishes_for_every_student(batches, name):
    batch = batches[name]
    assert batch.autograde.returncode == 0, _errors(batch.autograde.stderr)
    for student in batch.expected:
        assert (batch.root / "autograded" / student / name / f"{name}.ipynb").is_file(), student
    assert set(batch.scores) == set(batch.expected)
    assert all(v is not None for scores in batch.scores.values() for v in scores.values())


@pytest.mark.parametrize("name", CASES)
def test_each_submission_gets_the_score_it_deserves(batches, name):
    batch = batches[name]
    points = sub.tests(batch.source)
    assert batch.expected["a_full"] == set(points) and batch.expected["w_release"] == set()
    assert 0 < len(batch.expected["x_partial"]) < len(points), "the partial submission should earn some points"
    wrong = {}
    for student, expected in batch.expected.items():
        scores = batch.scores[student]
        assert set(scores) == set(points), student
        passed = {test for test, score in scores.items() if score == points[test]}
        assert all(scores[t] == 0 for t in set(scores) - passed), (student, scores)  # all or nothing
        if passed != expected:
            wrong[student] = {"should pass": sorted(expected - passed), "should fail": sorted(passed - expected)}
    assert not wrong, wrong
    total = {s: sum(v.values()) for s, v in batch.scores.items()}
    assert total["a_full"] == sum(points.values())
    assert total["w_release"] == total["f_monkeypatched"] == 0


@pytest.mark.parametrize("name", CASES)
def test_hostile_submissions_are_stopped_and_reported(batches, name):
    batch = batches[name]
    folder = batch.root / "autograded"

    def errors(student):
        nb = nbformat.read(folder / student / name / f"{name}.ipynb", as_version=4)
        return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]

    assert any(e.ename == "KernelUnresponsiveError" for e in errors("c_swallows_interrupt"))
    assert any(e.ename == "KernelDiedError" for e in errors("d_os_exit"))
    assert any(e.ename == "CellNotRunError" for e in errors("d_os_exit"))
    assert any(e.ename == "CellTimeoutError" for e in errors("b_infinite_loop"))
    assert any("were modified in this notebook" in e.evalue for e in errors("f_monkeypatched"))
    # 50 MB of output is cut to a few kB, in the notebook and in the feedback
    assert (folder / "e_prints_50mb" / name / f"{name}.ipynb").stat().st_size < MB
    assert (batch.root / "feedback" / "e_prints_50mb" / name / f"{name}.html").stat().st_size < 2 * MB


def _text_of_html(page: str) -> str:
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", page)
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def _quoted(lines) -> set[str]:
    """The string literals (12+ characters) on ``lines``: the messages of hidden checks."""
    return {m.group(2) for line in lines for m in re.finditer(r"(['\"])(.{12,}?)\1", line)}


@pytest.mark.parametrize("name", CASES)
def test_feedback_hides_hidden_tests(batches, name):
    batch = batches[name]
    assert batch.feedback.returncode == 0, batch.feedback.stderr[-5000:]
    # What only the hidden tests contain: not in the open notebook, not in a solution (which a
    # student's own answer may repeat)
    hidden = sub.secret_lines(batch.source, ("hidden",)) - sub.secret_lines(batch.source, ("solution",))
    assert hidden, "the source notebook should have hidden tests"
    known = sub.public_lines(batch.source) | sub.secret_lines(batch.source, ("solution",))
    messages = {m for m in _quoted(hidden) if not any(m in line for line in known)}
    for student in batch.expected:
        page = (batch.root / "feedback" / student / name / f"{name}.html").read_text(encoding="utf-8")
        text = _text_of_html(page)
        lines = {line.strip() for line in text.splitlines()}
        assert not hidden & lines, (student, sorted(hidden & lines)[:3])
        assert not [m for m in messages if m in text], (student, [m for m in messages if m in text][:3])
        assert "BEGIN HIDDEN TESTS" not in text and "hidden tests: not shown" in text
    # the release fails every hidden test: each is reported, without its code
    text = _text_of_html((batch.root / "feedback" / "w_release" / name / f"{name}.html").read_text(encoding="utf-8"))
    assert "HiddenTestError" in text or "NotImplementedError" in text


def test_feedback_keeps_visible_failures_and_hides_a_hidden_one(batches):
    """An answer that passes the visible check but fails the hidden one, in the same cell."""
    batch = batches[EXAMPLE]
    assert batch.scores["g_hidden_fails"] == {"test_square": 0.0, "test_grad": 0.0, "test_both": 0.0}
    page = batch.root / "feedback" / "g_hidden_fails" / EXAMPLE / f"{EXAMPLE}.html"
    text = _text_of_html(page.read_text(encoding="utf-8"))
    assert "HiddenTestError" in text  # test_square failed on its hidden line
    assert "square of a vector" not in text and "2.25" not in text and "0.0625" not in text
    assert "ZeroDivisionError" in text  # test_both failed on a visible line: that error is shown
    assert "Score: 0.0 / 11.0" in text

    # nbgrader's default feedback (without HideHiddenTests) shows all of it: what this guards against
    default = _nbgrader(
        batch.root,
        "generate_feedback",
        EXAMPLE,
        "--student=g_hidden_fails",
        "--CourseDirectory.feedback_directory=feedback_default",
        "--GenerateFeedback.preprocessors=['nbgrader.preprocessors.GetGrades']",
    )
    assert default.returncode == 0, default.stderr[-3000:]
    page = batch.root / "feedback_default" / "g_hidden_fails" / EXAMPLE / f"{EXAMPLE}.html"
    text = _text_of_html(page.read_text(encoding="utf-8"))
    assert "square of a vector" in text and "BEGIN HIDDEN TESTS" in text


def test_guard_is_what_stops_the_monkeypatched_submission(batches):
    """Without guard() in the tests, the monkeypatched submission's faked answers earn points."""
    batch = batches[UNGUARDED]
    assert batch.autograde.returncode == 0, batch.autograde.stderr[-3000:]
    # test_square and test_grad only call the (silenced) check helpers; test_both adds None + None
    assert batch.scores["faker"] == {"test_square": 3.0, "test_grad": 4.0, "test_both": 0.0}
    assert sum(batches[EXAMPLE].scores["f_monkeypatched"].values()) == 0


def test_export_writes_the_grades_csv(batches):
    batch = batches[EXAMPLE]
    done = _nbgrader(batch.root, "export", "--to", "grades.csv")
    assert done.returncode == 0, done.stderr[-3000:]
    with open(batch.root / "grades.csv", newline="") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == set(batch.expected)
    assert float(rows["a_full"]["raw_score"]) == sum(sub.tests(batch.source).values())
    assert float(rows["w_release"]["raw_score"]) == 0
    assert float(rows["x_partial"]["raw_score"]) == sub.points(batch.source, batch.expected["x_partial"])


def test_timing(batches, capsys):
    """Report what the batches cost (run with -s to see it)."""
    with capsys.disabled():
        for batch in batches.values():
            print(f"\n{batch.name}: {len(batch.expected)} submissions autograded in {batch.seconds:.1f} s", end="")


# ---------------------------------------------------------------------------------------------
# The preprocessors on their own


def _run(cells: list[str], tmp_path: Path, **traits) -> nbformat.NotebookNode:
    from coursetools.autograde import Execute

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c, id=f"c{i}") for i, c in enumerate(cells)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executor = Execute(timeout=TIMEOUT, **traits)
    executor.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    return nb


def test_execute_hands_guard_its_reference_and_caps_printing(tmp_path):
    nb = _run(
        [
            "import coursetools.checks as c\nprint(len(c._fresh))",  # before any guard() call
            "from coursetools.checks import *\nguard()\nprint('guarded')",
            "print('z' * 3_000_000)",
            "for i in range(200_000):\n    print(i)",
        ],
        tmp_path,
        max_output_chars=100_000,
    )
    text = ["".join(o.get("text", "") for o in c.outputs) for c in nb.cells]
    assert text[0] == "1\n" and text[1] == "guarded\n"
    for printed in text[2:]:
        assert 100_000 < len(printed) < 100_100 and printed.endswith("... Output truncated by the grader ...\n")


def test_hide_hidden_tests_on_its_own():
    from coursetools.feedback import HideHiddenTests

    cell = nbformat.v4.new_code_cell(
        "from coursetools.checks import *\n"
        "check(f(1) == 1, 'visible')\n"
        "### BEGIN HIDDEN TESTS\n"
        "check(f(2) == 4, 'secret message about f(2)')\n"
        "### END HIDDEN TESTS",
        id="t",
        execution_count=7,
    )
    hidden_error = nbformat.v4.new_output(
        "error",
        ename="AssertionError",
        evalue="secret message about f(2)",
        traceback=["\x1b[0;31mAssertionError\x1b[0m Traceback", "Cell \x1b[0;32mIn[7], line 4\x1b[0m", "secret"],
    )
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="printed by the hidden test"), hidden_error]
    visible = nbformat.v4.new_code_cell(cell.source, id="v", execution_count=8)
    visible.outputs = [
        nbformat.v4.new_output(
            "error",
            ename="NameError",
            evalue="name 'f' is not defined",
            traceback=[
                "Cell In[8], line 2",
                "----> 2 check(f(1) == 1, 'visible')\n      4 check(f(2) == 4, 'secret message about f(2)')",
            ],
        )
    ]
    spy = nbformat.v4.new_code_cell("print(stolen)", id="s")
    spy.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="check(f(2) == 4, 'secret message about f(2)')\nok")
    ]
    nb = nbformat.v4.new_notebook(cells=[cell, visible, spy])
    nb, _ = HideHiddenTests().preprocess(nb, {})
    assert "BEGIN HIDDEN" not in cell.source and "f(2)" not in cell.source and "hidden tests: not shown" in cell.source
    assert [o.ename for o in cell.outputs] == ["HiddenTestError"]
    assert [(o.ename, o.evalue, o.traceback) for o in visible.outputs] == [
        ("NameError", "name 'f' is not defined", ["NameError: name 'f' is not defined"])
    ]
    assert spy.outputs[0].text == "[line of a hidden test removed]\nok"
