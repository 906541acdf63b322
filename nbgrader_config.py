"""nbgrader configuration of the minigrad course. Run every nbgrader command from this folder.

The instructor guide, docs/instructor.md, walks through the whole cycle with the exact commands.
"""

import os

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    ClearOutput,
    DeduplicateIds,
    GetGrades,
    IgnorePattern,
    OverwriteKernelspec,
    SaveAutoGrades,
)

from coursetools.autograde import Execute, LimitOutput, OverwriteCells
from coursetools.feedback import HideHiddenTests

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

# The course lives where this file is, whatever the current folder (the formgrader, the tests'
# temporary copies); gradebook.db is made here too.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "minigrad"
c.CourseDirectory.source_directory = "solutions"  # instructor notebooks, with solutions and hidden tests
c.CourseDirectory.release_directory = "course"  # what students get (committed; never edited by hand)
# submitted/, autograded/ and feedback/ keep nbgrader's default names (all ignored by git).

# Grading. The limit is per cell: a hanging function costs this much for every test that calls it.
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
# A student who deletes a test cell gets it back (and is graded by it); coursetools' OverwriteCells
# also puts back a deleted written answer (nbgrader's fails when a question cell is above it).
c.OverwriteCells.add_missing_cells = True
c.Autograde.sanitize_preprocessors = [
    ClearOutput,
    DeduplicateIds,
    OverwriteKernelspec,
    OverwriteCells,
    CheckCellMetadata,
]
# nbgrader's pipeline, with coursetools' Execute (a dead or unstoppable kernel stops that notebook,
# not the student's whole grade) and LimitOutput (caps characters too, not just lines).
c.Autograde.autograde_preprocessors = [
    Execute,
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    SaveAutoGrades,
    AssignLatePenalties,
    CheckCellMetadata,
]
c.LimitOutput.max_lines = 1000
c.LimitOutput.max_chars = 20_000

# Feedback: nbgrader's default HTML shows the hidden tests and their tracebacks; remove them.
c.GenerateFeedback.preprocessors = [GetGrades, HideHiddenTests, CSSHTMLHeaderPreprocessor]
