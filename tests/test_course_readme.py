"""course/README.md, the students' first page: it survives a release and matches the course."""

from __future__ import annotations

import re
import shutil

import pytest

from coursetools import course

ROOT = course.ROOT
README = ROOT / course.RELEASE / "README.md"


def test_readme_survives_generate_assignment_force(tmp_path):
    """generate_assignment --force deletes course/<assignment>/ only: a file beside it stays."""
    pytest.importorskip("nbgrader")
    name = course.assignments()[0]
    root = tmp_path / "course_root"
    root.mkdir()
    shutil.copy(ROOT / course.CONFIG, root / course.CONFIG)
    shutil.copytree(ROOT / course.SOURCE / name, root / course.SOURCE / name)
    (root / course.RELEASE).mkdir()
    shutil.copy(README, root / course.RELEASE / "README.md")
    for _ in range(2):  # the second time over an existing release, as --force does
        course.release([name], root)
        assert (root / course.RELEASE / name / f"{name}.ipynb").is_file()
        assert (root / course.RELEASE / "README.md").read_bytes() == README.read_bytes()


def test_readme_lists_every_assignment_in_order():
    text = README.read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\d\d_\w+)` \|", text, flags=re.M)
    assert listed == course.assignments(), "the table of notebooks should list course.assignments() in order"


def test_readme_commands_exist():
    text = README.read_text(encoding="utf-8")
    assert "bash scripts/start.sh" in text and (ROOT / "scripts" / "start.sh").is_file()
    assert "--no-install" in (ROOT / "scripts" / "start.sh").read_text(encoding="utf-8")
    first = course.assignments()[0]
    assert f"nbgrader validate course/{first}/{first}.ipynb" in text
    assert (ROOT / course.RELEASE / first / f"{first}.ipynb").is_file()
    for words in ("Validate", "Restart Kernel and Run All Cells", "Hidden tests", "stuck", "viz.draw"):
        assert words in text, words
