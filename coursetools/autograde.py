"""Preprocessors that keep ``nbgrader autograde`` going through hostile submissions.

nbgrader's own :class:`~nbgrader.preprocessors.Execute` gives up on a whole student when the
kernel dies (``os._exit``) or cannot be interrupted (a loop that swallows
``KeyboardInterrupt``): the student's autograded notebook is deleted and no test is scored.
:class:`Execute` instead stops that notebook at the cell that broke the kernel, marks every
later code cell as not run (so their tests score 0) and keeps the scores of the tests that ran
before; it also retries a kernel that dies while starting. :class:`OverwriteCells` puts a
deleted test or written-answer cell back where it belongs (nbgrader's own version fails with
``KeyError`` when the cell above it is a read-only cell without points, such as a question).
:class:`LimitOutput` also caps the size of outputs, not only their number of lines, so one
``print`` of 50 MB cannot bloat the autograded notebook or the feedback.

All three are configured in the repository's ``nbgrader_config.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from queue import Empty

import nbformat
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import NotebookNode
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import Execute as NbgraderExecute
from nbgrader.preprocessors import LimitOutput as NbgraderLimitOutput
from nbgrader.preprocessors import OverwriteCells as NbgraderOverwriteCells
from traitlets import Integer

# Error names this module writes into outputs; the feedback keeps them (they hold no test code).
KERNEL_UNRESPONSIVE = "KernelUnresponsiveError"
KERNEL_DIED = "KernelDiedError"
NOT_RUN = "CellNotRunError"
OUTPUT_TIMEOUT = "OutputTimeoutError"
TIMEOUT = "CellTimeoutError"  # nbgrader's own name for an interrupted cell
GRADER_ERRORS = frozenset((KERNEL_UNRESPONSIVE, KERNEL_DIED, NOT_RUN, OUTPUT_TIMEOUT, TIMEOUT))


def error_output(ename: str, evalue: str) -> NotebookNode:
    """An ``error`` output, as the kernel would write it (nbgrader scores a test with one as 0)."""
    return NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


class Execute(NbgraderExecute):
    """nbgrader's ``Execute``, which stops one notebook, not the whole student, on a broken kernel.

    It also keeps at most ``max_output_chars`` of a cell's printed text while it runs (the rest
    is dropped as it arrives), and hands each kernel the reference fingerprint that
    :func:`coursetools.checks.guard` compares with (computed once per grading run).
    """

    max_output_chars = Integer(
        1_000_000, help="characters of printed text kept per cell while it runs (-1: no limit)"
    ).tag(config=True)
    start_attempts = Integer(3, help="how many times to try starting a kernel that dies at once").tag(config=True)
    probe_seconds = Integer(
        5, help="after an output timeout, how long the kernel has to answer before it counts as unresponsive"
    ).tag(config=True)

    def preprocess(self, nb, resources=None, km=None):
        for attempt in range(1, self.start_attempts + 1):
            self._stopped: str | None = None
            self._seeded = False
            self._started = False  # whether a cell was sent to the kernel
            self._printed: dict[int, int] = {}
            try:
                return super().preprocess(nb, resources, km)
            except Exception as error:
                # A kernel can die while starting, e.g. when another process took one of the
                # ports it was given (kernels started side by side); nothing ran yet, so retry.
                if self._started or attempt == self.start_attempts:
                    raise
                self.log.warning("The kernel did not start (%s); trying again", error)
            finally:
                self.shutdown_kernel = "graceful"

    def preprocess_cell(self, cell, resources, index):
        if self._stopped is not None:
            if cell.cell_type == "code":
                cell.outputs = [error_output(NOT_RUN, self._stopped)]
            return cell, self.resources
        if not self._seeded and cell.cell_type == "code":
            self._seeded = True
            self._seed_guard()
        self._started = True
        try:
            return super().preprocess_cell(cell, resources, index)
        except CellTimeoutError:
            if self._responsive():
                # The kernel finished the cell but its output (megabytes of it) came in too slowly.
                # What is missing might be an error, so a test here must not pass; the kernel
                # is fine, so the notebook goes on.
                message = "this cell finished, but its output kept coming for too long (too much printing?)"
                cell.outputs.append(error_output(OUTPUT_TIMEOUT, message))
                self.log.warning("Cell %d: %s", index, message)
                return cell, self.resources
            # The kernel ignored the interrupt sent at the timeout: its state is unknown, so
            # nothing after this cell can be trusted or even run.
            message = (
                f"the code in this cell did not stop within {self.timeout} s, not even when interrupted "
                "(does a loop catch KeyboardInterrupt?)"
            )
            cell.outputs.append(error_output(KERNEL_UNRESPONSIVE, message))
        except Exception as error:
            # DeadKernelError, or whatever else the client raises once the kernel process is gone
            if not isinstance(error, DeadKernelError) and self._alive():
                raise
            message = "the Python kernel died while running this cell (os._exit, a crash, or out of memory)"
            cell.outputs.append(error_output(KERNEL_DIED, message))
        self._stopped = f"not run: the notebook stopped at an earlier cell, whose {cell.outputs[-1]['evalue']}"
        self.shutdown_kernel = "immediate"  # kill it; a polite shutdown request would wait in vain
        self.log.warning("Notebook stopped at cell %d: %s", index, cell.outputs[-1]["evalue"])
        return cell, self.resources

    def output(self, outs, msg, display_id, cell_index):
        if msg["msg_type"] == "stream" and self.max_output_chars >= 0:
            text = msg["content"]["text"]
            used = self._printed.get(cell_index, 0)
            self._printed[cell_index] = used + len(text)
            if used > self.max_output_chars:
                return None
            if used + len(text) > self.max_output_chars:
                kept = text[: self.max_output_chars - used]
                msg["content"]["text"] = kept + "\n... Output truncated by the grader ...\n"
                self._printed[cell_index] = self.max_output_chars + 1
        return super().output(outs, msg, display_id, cell_index)

    def _alive(self) -> bool:
        try:
            return self.km is not None and bool(run_sync(self.km.is_alive)())
        except Exception:
            return False

    def _responsive(self) -> bool:
        """Whether the kernel answers a ``kernel_info`` request within ``probe_seconds``."""
        if self.kc is None:
            return False
        msg_id = self.kc.kernel_info()

        async def answered() -> bool:
            deadline = time.monotonic() + self.probe_seconds
            while (left := deadline - time.monotonic()) > 0:
                try:
                    msg = await self.kc.shell_channel.get_msg(timeout=left)
                except Empty:
                    return False
                if msg["parent_header"].get("msg_id") == msg_id:
                    return True
            return False

        return run_sync(answered)()

    def _seed_guard(self) -> None:
        """Give the kernel guard()'s reference fingerprint (if the kernel can import the helpers)."""
        reference = _REFERENCE.get("fingerprint")
        if reference is None or _changed(reference):
            done = subprocess.run(
                [sys.executable, "-c", "from coursetools.checks import reference; print(reference())"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            reference = _REFERENCE["fingerprint"] = done.stdout.strip() if done.returncode == 0 else ""
        if reference:
            code = f"__import__('coursetools.checks', fromlist=['seed']).seed({reference!r})"
            try:
                self.wait_for_reply(self.kc.execute(code, silent=True, store_history=False))
            except Exception as error:  # the notebook then pays for guard()'s own fresh import
                self.log.warning("Could not hand guard()'s reference to the kernel: %s", error)


# coursetools.checks.reference() of a fresh process, computed once per grading run. A dict
# filled in place (not a class attribute that is reassigned), so guard() in this process does not
# take the cache for tampering.
_REFERENCE: dict[str, str] = {}


def _changed(reference: str) -> bool:
    """Whether a source file recorded in ``reference`` changed since (then it is out of date)."""
    if not reference:
        return True
    for file, (mtime, size) in json.loads(reference)["stamps"].items():
        try:
            info = os.stat(file)
        except OSError:
            return True
        if [info.st_mtime_ns, info.st_size] != [mtime, size]:
            return True
    return False


class LimitOutput(NbgraderLimitOutput):
    """nbgrader's ``LimitOutput`` (lines per cell), plus a cap on the characters of each output."""

    max_chars = Integer(20_000, help="maximum number of characters kept of each output's text (-1 means no limit)").tag(
        config=True
    )

    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if self.max_chars == -1 or cell.cell_type != "code":
            return cell, resources
        for output in cell.outputs:
            if output.output_type == "stream":
                output.text = self._cut(output.text)
            elif output.output_type == "error":
                output.evalue = self._cut(output.evalue)
                output.traceback = [self._cut(line) for line in output.traceback]
            elif "data" in output:
                for mime, value in list(output.data.items()):
                    text = value if isinstance(value, str) else "".join(value) if isinstance(value, list) else None
                    if text is not None and len(text) > self.max_chars:
                        if mime == "text/plain":
                            output.data[mime] = self._cut(text)
                        else:  # half an image or half an HTML page is worse than none
                            del output.data[mime]
                if not output.data:
                    output.data["text/plain"] = "... Output too large, removed ..."
        return cell, resources

    def _cut(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        return text[: self.max_chars] + f"\n... Output truncated ({len(text)} characters) ..."


class OverwriteCells(NbgraderOverwriteCells):
    """nbgrader's ``OverwriteCells``, which re-adds a deleted graded cell after its nearest kept neighbour."""

    def add_missing_grade_cells(self, nb, resources):
        source = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        stored = {cell.name: cell for cell in source.source_cells}
        solutions = {cell.name for cell in source.solution_cells}
        order = self._source_order() or list(stored)
        for name, grade_cell in ((c.name, c) for c in source.grade_cells):
            present = _grade_ids(nb)
            if name in present:
                continue
            self.log.warning("Missing grade cell %s encountered, adding to notebook", name)
            cell = self.missing_cell_transform(stored[name], grade_cell.max_score, is_solution=name in solutions)
            if name not in {c.get("id") for c in nb.cells}:
                cell["id"] = name  # a stable id, like the course's own cells (else nbformat draws one)
            at = order.index(name) if name in order else len(order)
            before = [present[n] for n in reversed(order[:at]) if n in present]
            after = [present[n] for n in order[at + 1 :] if n in present]
            index = before[0] + 1 if before else after[0] if after else len(nb.cells)
            nb.cells.insert(index, cell)
        return nb, resources

    def _source_order(self) -> list[str]:
        """The graded and read-only cells' grade_ids in the order of the source notebook on disk."""
        coursedir = CourseDirectory(config=self.config)
        folder = coursedir.format_path(coursedir.source_directory, ".", self.assignment_id)
        path = os.path.join(folder, f"{self.notebook_id}.ipynb")
        if not os.path.exists(path):
            return []
        return list(_grade_ids(nbformat.read(path, as_version=4)))


def _grade_ids(nb) -> dict[str, int]:
    return {
        cell.metadata["nbgrader"]["grade_id"]: index
        for index, cell in enumerate(nb.cells)
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    }
