"""Feedback without the hidden tests.

nbgrader's ``generate_feedback`` renders the autograded notebook, whose test cells hold the
hidden tests again (nbgrader restores them for grading), together with their outputs: the
student would read the hidden tests' code and, in a failure's traceback, the line that failed.
:class:`HideHiddenTests` runs before the HTML export (see ``nbgrader_config.py``) and

* replaces each ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` region with one
  comment line;
* in a cell that had hidden tests, drops every output; a failure is reported with its error
  name and message only when it happened on a visible line (the student can run those tests
  anyway), and otherwise as "a hidden test failed";
* as a last safety net, blanks any output line anywhere in the notebook that quotes a line of a
  hidden test (a submission could print its caller's source).
"""

from __future__ import annotations

import re

from nbconvert.preprocessors import Preprocessor
from nbformat.notebooknode import NotebookNode
from traitlets import Bool, Unicode

from .autograde import GRADER_ERRORS, error_output

HIDDEN_FAILED = "HiddenTestError"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CELL_LINE = re.compile(r"Cell In\s*\[(\d+)\],\s*line (\d+)")
_SHORTEST_SECRET = 12  # shorter lines ("else:", "check(x)") say nothing about a test


class HideHiddenTests(Preprocessor):
    """Remove hidden-test source and everything it printed or raised from the feedback."""

    enabled = Bool(True, help="nbconvert preprocessors are off unless enabled").tag(config=True)
    begin = Unicode("BEGIN HIDDEN TESTS", help="the marker opening a hidden-test region").tag(config=True)
    end = Unicode("END HIDDEN TESTS", help="the marker closing a hidden-test region").tag(config=True)
    placeholder = Unicode(
        "# (hidden tests: not shown; their result is part of this cell's score)",
        help="the line that replaces each hidden-test region",
    ).tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: dict):
        secrets: set[str] = set()
        for cell in nb.cells:
            hidden = self._hidden_lines(cell)
            if hidden:
                lines = cell.source.split("\n")
                secrets.update(s for s in (lines[i - 1].strip() for i in hidden) if len(s) >= _SHORTEST_SECRET)
                cell.outputs = self._outputs(cell, hidden)
                cell.source = self._visible_source(lines, hidden)
        if secrets:
            for cell in nb.cells:
                for output in cell.get("outputs", []):
                    _scrub(output, secrets)
        return nb, resources

    def _hidden_lines(self, cell: NotebookNode) -> set[int]:
        """1-based numbers of the lines in hidden-test regions, markers included."""
        if cell.cell_type != "code" or self.begin not in cell.source:
            return set()
        hidden, inside = set(), False
        for number, line in enumerate(cell.source.split("\n"), start=1):
            if self.begin in line:
                inside = True
            if inside:
                hidden.add(number)
            if self.end in line:
                inside = False
        return hidden

    def _visible_source(self, lines: list[str], hidden: set[int]) -> str:
        out = []
        for number, line in enumerate(lines, start=1):
            if number not in hidden:
                out.append(line)
            elif number - 1 not in hidden:  # the first line of a region
                indent = line[: len(line) - len(line.lstrip())]
                out.append(indent + self.placeholder)
        return "\n".join(out)

    def _outputs(self, cell: NotebookNode, hidden: set[int]) -> list[NotebookNode]:
        kept = []
        for output in cell.get("outputs", []):
            if output.output_type != "error":
                continue  # printed or displayed by visible or hidden code: no telling which
            if output.ename in GRADER_ERRORS:
                kept.append(output)  # written by the grader (timeout, dead kernel): no test code in it
                continue
            line = _failing_line(output, cell.get("execution_count"))
            if line is not None and line not in hidden:
                kept.append(error_output(output.ename, output.evalue))
            else:
                kept.append(
                    error_output(HIDDEN_FAILED, "a hidden test in this cell failed (its code and error are not shown)")
                )
        return kept


def _failing_line(output: NotebookNode, execution_count) -> int | None:
    """The line of the cell itself at which the error was raised, read from its traceback."""
    if execution_count is None:
        return None
    for entry in output.get("traceback", []):
        match = _CELL_LINE.search(_ANSI.sub("", entry))
        if match and int(match.group(1)) == execution_count:
            return int(match.group(2))  # the outermost frame of this cell comes first
    return None


def _scrub(output: NotebookNode, secrets: set[str]) -> None:
    def clean(text: str) -> str:
        lines = text.split("\n")
        plain = [_ANSI.sub("", line) for line in lines]
        return "\n".join(
            "[line of a hidden test removed]" if any(s in p for s in secrets) else line for line, p in zip(lines, plain)
        )

    if output.output_type == "stream":
        output.text = clean(output.text)
    elif output.output_type == "error":
        output.evalue = clean(output.evalue)
        output.traceback = [clean(entry) for entry in output.traceback]
    elif "data" in output:
        for mime, value in list(output.data.items()):
            if isinstance(value, str) and (mime.startswith("text/") or mime.endswith("json")):
                output.data[mime] = clean(value)
