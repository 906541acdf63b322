"""The course's nbgrader setup: configuration, a release that is up to date and keeps secrets."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from coursetools import course
from coursetools import submissions as sub

pytest.importorskip("nbgrader")

ROOT = course.ROOT


def _config():
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader(course.CONFIG, path=str(ROOT)).load_config()


def test_config_maps_the_layout_and_the_grading_rules():
    from nbgrader.preprocessors import GetGrades

    from coursetools.autograde import Execute, LimitOutput, OverwriteCells
    from coursetools.feedback import HideHiddenTests

    c = _config()
    assert c.CourseDirectory.root == str(ROOT)
    assert c.CourseDirectory.source_directory == "solutions"
    assert c.CourseDirectory.release_directory == "course"
    assert isinstance(c.Execute.timeout, int) and 0 < c.Execute.timeout <= 300
    assert c.OverwriteCells.add_missing_cells is True
    assert Execute in c.Autograde.autograde_preprocessors and LimitOutput in c.Autograde.autograde_preprocessors
    assert OverwriteCells in c.Autograde.sanitize_preprocessors
    feedback = c.GenerateFeedback.preprocessors
    assert GetGrades in feedback and HideHiddenTests in feedback
    assert feedback.index(HideHiddenTests) < len(feedback) - 1 or len(feedback) == 2


def test_grading_data_is_ignored_by_git():
    paths = [
        "gradebook.db",
        "submitted/alice/01_graph/01_graph.ipynb",
        "autograded/alice/01_graph/01_graph.ipynb",
        "feedback/alice/01_graph/01_graph.html",
        "downloaded/01_graph/archive/alice_01_graph.ipynb",
        "grades.csv",
    ]
    done = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert sorted(done.stdout.split()) == sorted(paths), done.stdout + done.stderr
    # ... and the release is not
    assert subprocess.run(["git", "check-ignore", "-q", "course/01_graph/01_graph.ipynb"], cwd=ROOT).returncode == 1


def test_release_has_the_same_assignments_as_the_sources():
    released = sorted(p.name for p in (ROOT / course.RELEASE).iterdir() if p.is_dir())
    assert course.assignments(), "no assignment in solutions/"
    assert released == course.assignments()


def test_course_is_what_generate_assignment_makes():
    problems = course.stale()
    assert not problems, "\n".join(problems) + "\nrun: python -m coursetools.course release"


def _student_text(path: Path) -> list[str]:
    """Every line a student can read in a release file (cell sources and outputs of notebooks)."""
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    nb = json.loads(path.read_text(encoding="utf-8"))
    lines = []
    for cell in nb["cells"]:
        lines += "".join(cell["source"]).splitlines()
        for output in cell.get("outputs", []):
            for value in [output.get("text", ""), output.get("evalue", ""), *output.get("traceback", [])]:
                lines += "".join(value).splitlines()
            for value in output.get("data", {}).values():
                if isinstance(value, (str, list)):
                    lines += "".join(value).splitlines()
    lines += json.dumps(nb["metadata"]).splitlines()
    return lines


def leaks(source: nbformat.NotebookNode, folder: Path) -> list[str]:
    """Solution or hidden-test lines of ``source`` found in any file under ``folder``."""
    secrets = sub.secret_lines(source)
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        lines = _student_text(path)
        text = "\n".join(lines)
        for marker in (*sub.SOLUTION_MARKERS, *sub.HIDDEN_MARKERS):
            if marker.lstrip("# ") in text:
                found.append(f"{path.name}: marker {marker!r}")
        stripped = {line.strip() for line in lines}
        found += [f"{path.name}: {line!r}" for line in sorted(secrets & stripped)]
        # a long secret line must not hide inside a longer one either
        found += [f"{path.name}: {line!r}" for line in sorted(secrets - stripped) if len(line) >= 30 and line in text]
    return found


@pytest.mark.parametrize("name", course.assignments())
def test_release_holds_no_solution_and_no_hidden_test(name):
    source = nbformat.read(ROOT / course.SOURCE / name / f"{name}.ipynb", as_version=4)
    assert sub.secret_lines(source, ("solution",)), "the source should have solutions"
    assert sub.secret_lines(source, ("hidden",)), "the source should have hidden tests"
    found = leaks(source, ROOT / course.RELEASE / name)
    assert not found, found[:10]


def test_release_and_check_commands_on_a_course_of_their_own(tmp_path, capsys):
    root = tmp_path / "course_root"
    folder = root / course.SOURCE / "00_example"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / course.CONFIG, root / course.CONFIG)
    nbformat.write(sub.example_source(), folder / "00_example.ipynb")
    (folder / "data.txt").write_text("1 2 3\n")  # files beside the notebook are released too

    assert course.main(["release"], root=root) == 0
    released = root / course.RELEASE / "00_example"
    nb = nbformat.read(released / "00_example.ipynb", as_version=4)
    assert any("raise NotImplementedError()" in c.source for c in nb.cells)
    assert any(c.source.strip() == "YOUR ANSWER HERE" for c in nb.cells if c.cell_type == "markdown")
    assert (released / "data.txt").read_text() == "1 2 3\n"
    assert not leaks(sub.example_source(), released)

    # a hand edit, a stray file and a missing file are all reported ...
    notebook = released / "00_example.ipynb"
    notebook.write_text(notebook.read_text().replace("square", "squared"))
    (released / "notes.txt").write_text("mine")
    (released / "data.txt").unlink()
    capsys.readouterr()
    assert course.main(["check"], root=root) == 1
    out = capsys.readouterr().out
    assert "course/00_example/00_example.ipynb is out of date" in out
    assert "course/00_example/notes.txt is not made by the release" in out
    assert "course/00_example/data.txt is missing" in out
    # ... and a release (with --force) puts everything right
    assert course.main(["release", "00_example"], root=root) == 0
    assert course.main(["check"], root=root) == 0
    assert "course/ is up to date (1 assignments)" in capsys.readouterr().out


def test_the_leak_check_finds_a_leak(tmp_path):
    """The secrecy test above can fail: a release that kept a solution and a hidden test."""
    source = sub.example_source()
    folder = tmp_path / "leaky"
    folder.mkdir()
    leaky = nbformat.v4.new_notebook(cells=[c for c in source.cells if c.cell_type == "code"])
    nbformat.write(leaky, folder / "leaky.ipynb")
    found = leaks(source, folder)
    assert any("return x * x" in f for f in found)
    assert any("square of a vector" in f for f in found)
    assert any("marker" in f for f in found)
