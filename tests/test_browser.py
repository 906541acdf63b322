"""The course in JupyterLab, in a real browser: what a student sees, and the instructor's formgrader.

Headless Chromium from the system's packages (``scripts/test.sh`` installs it), driven by
Playwright's Python package with ``executable_path`` pointing at it: Playwright's own browser
download is not used. Without Chromium or Playwright the tests fail when ``CI`` is set and are
skipped elsewhere, with the reason.

Two JupyterLab servers run on free loopback ports with a token, each with its own temporary
Jupyter config folder (the user's settings are neither read nor changed) switched by
``python -m coursetools.mode``, in a temporary copy of the course:

- student mode, on ``course/`` as ``scripts/start.sh`` opens it: ``01_graph`` runs cell by cell
  from the Run menu; the drawings of ``minigrad.viz`` are SVG on the page with the same node
  labels as in a plain kernel (nbclient); the exercises show ``NotImplementedError`` and no other
  cell shows an error. The backward player steps through a backward pass with its slider and its
  play button. The instructor tools are absent.
- instructor mode, from the course root as ``scripts/start.sh --instructor`` opens it: the
  formgrader lists the assignments.

Screenshots go to ``$MINIGRAD_SCREENSHOTS`` (default: ``<tmp>/minigrad-browser-test``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "01_graph"
SCREENSHOTS = Path(os.environ.get("MINIGRAD_SCREENSHOTS") or Path(tempfile.gettempdir()) / "minigrad-browser-test")
SVG_NS = "{http://www.w3.org/2000/svg}"
SVG = "image/svg+xml"
STARTUP = 180  # seconds for a server to answer (Python imports are slow on a busy 2-core machine)
WAIT_MS = 120_000  # the longest any single page wait may take
CURRENT_FILL = "#ffab91"  # minigrad.viz.style.CURRENT: the node the player highlights

# The player notebook: the expected steps come from running the same code here.
PLAYER_CODE = textwrap.dedent(
    """\
    import minigrad as torch
    from minigrad import viz

    w = torch.tensor(0.5, requires_grad=True)
    x = torch.tensor(-1.5, requires_grad=True)
    loss = (w * x).tanh() + w
    trace = viz.trace_backward(loss)
    """
)
PLAYER_SHOW = "viz.BackwardPlayer(trace, interval=150)"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="the servers are stopped as POSIX process groups"),
]


# ------------------------------------------------------------------------------ availability
def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str):
    """Fail under CI (the browser test must run there), skip elsewhere; either way say why."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so the browser test must run)", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str | None:
    """``$MINIGRAD_CHROMIUM``, else a Chromium or Chrome on PATH or in /Applications."""
    names = [os.environ.get("MINIGRAD_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"]
    names.append("google-chrome-stable")
    for name in filter(None, names):
        found = shutil.which(name)
        if found:
            return found
    for app in (
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ):
        if os.access(app, os.X_OK):
            return app
    return None


# --------------------------------------------------------------------------------- servers
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Lab:
    """One JupyterLab server, started in its own process group so that stopping it also stops
    its kernels."""

    def __init__(self, name: str, cwd: Path, root_dir: Path, config_dir: Path, runtime_dir: Path):
        self.name, self.cwd, self.root_dir = name, cwd, root_dir
        self.token = os.urandom(16).hex()
        self.log_path = runtime_dir.parent / f"{name}-server.log"
        self.env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config_dir), JUPYTER_RUNTIME_DIR=str(runtime_dir))
        # nbgrader runs `alembic` (next to this Python) to make the formgrader's gradebook.
        self.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + self.env.get("PATH", "")
        self.env.pop("JUPYTER_TOKEN", None)
        self.process: subprocess.Popen | None = None
        self.port = 0
        self._ready = False

    def start(self) -> None:
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
        ]
        if os.geteuid() == 0:
            command.append("--allow-root")
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def log_tail(self) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-30:])
        except OSError:
            return "(no log)"

    def ready(self) -> Lab:
        """Wait until the server answers (starting it again on another port if its port was taken)."""
        for _attempt in range(3):
            if self._ready:
                return self
            deadline = time.monotonic() + STARTUP
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break  # it exited: maybe the port was taken between free_port() and its bind
                try:
                    with urllib.request.urlopen(self.url("/api/status"), timeout=5):
                        self._ready = True
                        return self
                except (urllib.error.URLError, OSError):
                    time.sleep(0.3)
            else:
                pytest.fail(f"the {self.name} JupyterLab did not answer within {STARTUP} s:\n{self.log_tail()}")
            self.start()
        pytest.fail(f"the {self.name} JupyterLab could not start:\n{self.log_tail()}")

    def url(self, path: str, **query: str) -> str:
        query = {**query, "token": self.token}
        return f"http://127.0.0.1:{self.port}{path}?{urllib.parse.urlencode(query)}"

    def status(self, path: str) -> int:
        try:
            with urllib.request.urlopen(self.url(path), timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as err:
            return err.code

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)  # the server shuts its kernels down
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        try:  # anything of its group still there (a kernel that ignored the shutdown)
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def player_notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(PLAYER_CODE), nbformat.v4.new_code_cell(PLAYER_SHOW)]
    for number, cell in enumerate(nb.cells):
        cell.id = f"player-{number}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return nb


def lab_config(folder: Path, mode: str) -> Path:
    """A Jupyter config folder in ``mode``, switched by the course's own command."""
    folder.mkdir(parents=True)
    subprocess.run(
        [sys.executable, "-m", "coursetools.mode", mode, "--config-dir", str(folder)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    # No "official Jupyter news?" toast over the page: it is not what the test looks at.
    settings = folder / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    return folder


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    """A temporary copy of the course, and a student and an instructor JupyterLab on it."""
    base = tmp_path_factory.mktemp("browser")
    repo = base / "repo"
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    for folder in ("course", "solutions"):
        shutil.copytree(ROOT / folder, repo / folder, ignore=ignore)
    shutil.copy(ROOT / "nbgrader_config.py", repo)
    nbformat.write(player_notebook(), repo / "course" / "backward_player.ipynb")

    student = Lab(
        "student", repo, repo / "course", lab_config(base / "student-config", "student"), base / "student-runtime"
    )
    instructor = Lab("instructor", repo, repo, lab_config(base / "instructor-config", "instructor"), base / "runtime")
    labs = {"student": student, "instructor": instructor, "repo": repo}
    try:
        student.start()  # both start at once; each test waits for the one it uses
        instructor.start()
        yield labs
    finally:
        student.stop()
        instructor.stop()
        shutil.rmtree(base, ignore_errors=True)


# --------------------------------------------------------------------------------- browser
@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable(
            "Playwright's Python package is not installed: pip install -e '.[test]' (bash scripts/test.sh does)"
        )
    executable = chromium_path()
    if executable is None:
        unavailable(
            "no Chromium found for the browser test: bash scripts/test.sh installs it, or install it yourself "
            "(sudo apt-get install chromium; brew install --cask chromium) or set MINIGRAD_CHROMIUM"
        )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        # --no-sandbox: containers and CI often run as root, where Chromium's sandbox cannot start.
        args = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
        chromium = playwright.chromium.launch(executable_path=executable, args=args)
        yield chromium
        chromium.close()


class Problems:
    """Uncaught page errors and console errors, collected while a test runs."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None)

    def about(self, pattern: str) -> list[str]:
        return [e for e in self.errors if re.search(pattern, e, re.IGNORECASE)]


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.problems = Problems(page)
    yield page
    context.close()


# ------------------------------------------------------------------------------ page actions
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def open_lab(page, lab: Lab, path: str = "") -> None:
    """Open ``path`` (a notebook, or nothing) in a fresh JupyterLab workspace."""
    page.goto(lab.ready().url(f"/lab/tree/{path}" if path else "/lab", reset=""))
    # Loaded: the menus, the files, and the right sidebar's panels (the plugins have started).
    page.wait_for_selector(".lm-MenuBar-item")
    page.locator(".jp-DirListing-item").first.wait_for()
    page.locator(".jp-SideBar.jp-mod-right .lm-TabBar-tab").first.wait_for()


def open_notebook(page, lab: Lab, path: str):
    open_lab(page, lab, path)
    panel = page.locator(PANEL)
    panel.locator(".jp-Cell").first.wait_for()
    wait_idle(page)
    return panel


def wait_idle(page) -> None:
    """Wait until the notebook's kernel is started and idle, and no cell waits to run."""
    page.wait_for_function(
        """(panel) => {
            const bar = document.querySelector('.jp-StatusBar-Widget');
            const p = document.querySelector(panel);
            if (!bar || !p) return false;
            const kernel = p.querySelector('.jp-Toolbar-kernelName');
            const busy = [...p.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].some(e => e.textContent.includes('*'));
            return !busy && /\\|\\s*Idle/.test(bar.textContent) && kernel && !/No Kernel/.test(kernel.textContent);
        }""",
        arg=PANEL,
        polling=250,
    )


def menu(page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-item", has_text=top).first.click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))
    page.locator(".lm-Menu .lm-Menu-item", has=label).click()


def menu_items(page, top: str) -> list[str]:
    page.locator(".lm-MenuBar-item", has_text=top).first.click()
    page.locator(".lm-Menu-item").first.wait_for()
    items = page.locator(".lm-Menu .lm-Menu-item .lm-Menu-itemLabel").all_inner_texts()
    page.keyboard.press("Escape")
    return [item for item in items if item]


CELLS_JS = """(panel) => [...document.querySelectorAll(panel + ' .jp-Notebook .jp-Cell')].map(c => ({
    code: c.classList.contains('jp-CodeCell'),
    prompt: (c.querySelector('.jp-InputPrompt') || {textContent: ''}).textContent.trim(),
    outputs: [...c.querySelectorAll('.jp-OutputArea-output')].map(o => ({
        mime: o.dataset.mimeType || '',
        text: o.textContent,
        images: [...o.querySelectorAll('img')].map(i => ({src: i.src, width: i.naturalWidth})),
    })),
}))"""


def select_cell(page, index: int) -> None:
    """Click cell ``index`` until it is the active one. A click can land on a neighbour when
    outputs above it (drawings) finish rendering and shift the page; running "and all below"
    from there would run cells a second time."""
    cell = page.locator(PANEL).locator(".jp-Notebook .jp-Cell").nth(index)
    for _ in range(20):
        cell.locator(".jp-InputPrompt").click()
        if "jp-mod-active" in (cell.get_attribute("class") or "").split():
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"cell {index} could not be selected: clicks kept landing elsewhere")


def run_every_cell(page) -> int:
    """Run All Cells from the Run menu; after each error (which stops the run, as for a
    student) select the next cell and use "Run Selected Cell and All Below". Returns the rounds."""
    menu(page, "Run", "Run All Cells")
    for rounds in range(1, 200):
        page.wait_for_timeout(300)  # let the kernel take the queued cells
        wait_idle(page)
        cells = page.evaluate(CELLS_JS, PANEL)
        assert cells, "no cells found on the page"
        waiting = [i for i, c in enumerate(cells) if c["code"] and not re.fullmatch(r"\[\d+\]:", c["prompt"])]
        if not waiting:
            return rounds
        select_cell(page, waiting[0])
        menu(page, "Run", "Run Selected Cell and All Below")
    raise AssertionError("the notebook kept stopping: gave up after 200 rounds")


def save(page) -> None:
    menu(page, "File", "Save Notebook")
    page.wait_for_function(
        "(panel) => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')", arg=PANEL, polling=250
    )


def settled(read, done, seconds: float = 30):
    """``read()`` again until ``done(value)`` or the time is up; the last value either way."""
    deadline = time.monotonic() + seconds
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.2)
        value = read()
    return value


# ---------------------------------------------------------------------------- notebook facts
def svg_nodes(svg: str) -> Counter:
    """The text lines of every node of a Graphviz SVG (the legend left out), as a multiset."""
    root = ET.fromstring(svg.encode())
    nodes = Counter()
    for group in root.iter(f"{SVG_NS}g"):
        if group.get("class") != "node":
            continue
        title = group.find(f"{SVG_NS}title")
        if title is not None and title.text == "legend":
            continue
        nodes[tuple((t.text or "").strip() for t in group.iter(f"{SVG_NS}text"))] += 1
    return nodes


def data_uri_svg(src: str) -> str:
    assert src.startswith("data:image/svg+xml"), f"the drawing is an image of another kind: {src[:60]}"
    header, _, payload = src.partition(",")
    return urllib.parse.unquote(payload)


def errors(nb) -> dict[str, str]:
    return {
        cell.id: output.ename
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    }


def nbgrader(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


@pytest.fixture(scope="module")
def reference(labs):
    """01_graph run in a plain kernel (nbclient), while the servers start: the same code, no browser."""
    path = labs["repo"] / "course" / NOTEBOOK / f"{NOTEBOOK}.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    return nb


# ----------------------------------------------------------------------------------- tests
# `page` comes first: without a browser the tests stop before any server starts.
def test_student_runs_the_first_notebook_in_jupyterlab(page, labs, reference):
    lab = labs["student"]
    path = labs["repo"] / "course" / NOTEBOOK / f"{NOTEBOOK}.ipynb"
    original = nbformat.read(path, as_version=4)
    panel = open_notebook(page, lab, f"{NOTEBOOK}/{NOTEBOOK}.ipynb")

    # Students keep nbgrader's Validate button.
    assert panel.locator(".jp-Toolbar").get_by_text("Validate", exact=True).count() == 1
    rounds = run_every_cell(page)
    save(page)
    cells = page.evaluate(CELLS_JS, PANEL)
    saved = nbformat.read(path, as_version=4)

    # The kernel ran every cell once, top to bottom.
    assert len(cells) == len(original.cells), "the page does not show every cell of the notebook"
    code = [cell for cell in saved.cells if cell.cell_type == "code"]
    counts = [cell.execution_count for cell in code]
    assert all(isinstance(n, int) for n in counts), f"cells that never ran: {counts}"
    assert counts == sorted(set(counts)), f"cells did not run once each, in order: {counts}"
    for cell, shown in zip(saved.cells, cells):
        if cell.cell_type == "code":
            assert shown["prompt"] == f"[{cell.execution_count}]:"

    # Errors exactly where the student has work to do, the same as in a plain kernel.
    found = errors(saved)
    assert found == errors(reference), "the browser's errors differ from those of a plain kernel"
    kinds = {cell.id: nbgrader(cell) for cell in saved.cells}
    stray = [cid for cid in found if not (kinds[cid].get("solution") or kinds[cid].get("grade"))]
    assert not stray, f"errors outside the exercises and their tests: { {c: found[c] for c in stray} }"
    exercises = [i for i, c in enumerate(saved.cells) if c.cell_type == "code" and nbgrader(c).get("solution")]
    assert len(exercises) >= 2, "the notebook should have exercises"
    for start in exercises:
        group = [saved.cells[start].id]  # the answer cell and the test cells after it
        for cell in saved.cells[start + 1 :]:
            if cell.cell_type != "code":
                continue
            if not nbgrader(cell).get("grade"):
                break
            group.append(cell.id)
        assert any(found.get(cid) == "NotImplementedError" for cid in group), (
            f"exercise {saved.cells[start].id} does not show NotImplementedError: {[found.get(c) for c in group]}"
        )
    for cell, shown in zip(saved.cells, cells):
        tracebacks = [o["text"] for o in shown["outputs"] if "Traceback" in o["text"]]
        stderr = [o["text"] for o in shown["outputs"] if o["mime"] == "application/vnd.jupyter.stderr"]
        if cell.id in found:
            assert any(found[cell.id] in text for text in tracebacks), f"{cell.id}: the error is not on the page"
        else:
            assert not stderr, f"{cell.id} shows error output on the page: {stderr[0][-300:]}"

    # The drawings: SVG images on the page, decoded by the browser, with the expected nodes.
    drawings = [
        c for c in reference.cells if c.cell_type == "code" and any(SVG in o.get("data", {}) for o in c.outputs)
    ]
    assert drawings, "the notebook should draw graphs with minigrad.viz"
    for ref_cell, cell, shown in zip(reference.cells, saved.cells, cells):
        expected = [svg_nodes(o["data"][SVG]) for o in ref_cell.get("outputs", []) if SVG in o.get("data", {})]
        images = [img for o in shown["outputs"] if o["mime"] == SVG for img in o["images"]]
        assert len(images) == len(expected), (
            f"{cell.id}: {len(images)} SVG images on the page, expected {len(expected)}"
        )
        for image, nodes in zip(images, expected):
            assert image["width"] > 0, f"{cell.id}: the browser could not render the SVG"
            assert svg_nodes(data_uri_svg(image["src"])) == nodes, f"{cell.id}: the drawing has other nodes"
        called = re.search(r"viz\.draw\(\s*([A-Za-z_]\w*)", cell.source)
        if called and expected:  # the tensor view names the tensor drawn after its variable
            assert any(lines[0] == called.group(1) for lines in expected[0]), (
                f"{cell.id}: no node named {called.group(1)!r} in {sorted(expected[0])}"
            )

    # Screenshots (looked at by eye when this test was written): a drawing, an exercise, the page.
    first = next(i for i, c in enumerate(saved.cells) if c.id == drawings[0].id)
    panel.locator(".jp-Notebook .jp-Cell").nth(first).scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS / "01_graph-drawing.png")
    answer = panel.locator(".jp-Notebook .jp-Cell").nth(exercises[0])
    answer.scroll_into_view_if_needed()
    answer.screenshot(path=SCREENSHOTS / "01_graph-exercise.png")
    print(f"{rounds} Run rounds; screenshots in {SCREENSHOTS}; browser console errors: {page.problems.errors}")
    assert not page.problems.about(r"widget|render|kernel"), page.problems.errors


def test_backward_player_steps_through_backward(page, labs):
    namespace: dict = {}
    exec(PLAYER_CODE, namespace)  # the expected steps: the same code, here
    trace = namespace["trace"]
    steps = trace.steps - 1
    assert steps >= 4

    panel = open_notebook(page, labs["student"], "backward_player.ipynb")
    menu(page, "Run", "Run All Cells")
    player = panel.locator(".widget-vbox").first
    player.wait_for()
    wait_idle(page)
    handle = player.locator("[role=slider]")
    caption, picture = player.locator(".widget-html-content").nth(0), player.locator(".widget-html-content").nth(1)

    highlighted_js = """(root, fill) => [...root.querySelectorAll('g.node')]
        .filter(g => g.querySelector('title').textContent !== 'legend')
        .filter(g => [...g.querySelectorAll('path, polygon')].some(s => (s.getAttribute('fill') || '').toLowerCase() === fill))
        .map(g => ({id: g.querySelector('title').textContent, lines: [...g.querySelectorAll('text')].map(t => t.textContent)}))"""

    def shown() -> tuple[str, list[dict]]:
        return caption.inner_text(), picture.evaluate(highlighted_js, CURRENT_FILL)

    text, lit = shown()
    assert text == trace.describe(0) and lit == [], "step 0 is the start: nothing ran, nothing highlighted"
    ids = []
    handle.focus()
    for step in range(1, steps + 1):
        handle.press("ArrowRight")  # one step, as with the keyboard
        page.wait_for_function(
            "([h, v]) => Number(document.querySelector(h).getAttribute('aria-valuenow')) === v",
            arg=[f"{PANEL} .widget-vbox [role=slider]", step],
        )
        page.wait_for_function(
            "([c, t]) => document.querySelectorAll(c)[0].innerText === t",
            arg=[f"{PANEL} .widget-vbox .widget-html-content", trace.describe(step)],
        )
        # The caption and the picture arrive as two widget updates: give the picture its moment.
        text, lit = settled(shown, lambda seen: len(seen[1]) == 1 and seen[1][0]["id"] not in ids)
        assert len(lit) == 1, f"step {step}: {len(lit)} highlighted nodes"
        assert lit[0]["lines"][0] == trace.frames[step - 1].name, f"step {step} highlights {lit[0]['lines']}"
        ids.append(lit[0]["id"])
        if step == 2:
            page.screenshot(path=SCREENSHOTS / "backward-player-step2.png")
    assert len(set(ids)) == steps, f"the highlighted node should change at every step: {ids}"

    # The play button runs to the end by itself (the link to the slider lives in the browser).
    player.locator(".widget-play button").nth(1).click()  # stop: back to the start
    page.wait_for_function(
        "(h) => Number(document.querySelector(h).getAttribute('aria-valuenow')) === 0",
        arg=f"{PANEL} .widget-vbox [role=slider]",
    )
    player.locator(".widget-play button").first.click()
    page.wait_for_function(
        "([h, v]) => Number(document.querySelector(h).getAttribute('aria-valuenow')) === v",
        arg=[f"{PANEL} .widget-vbox [role=slider]", steps],
    )
    last = trace.describe(steps)
    assert settled(caption.inner_text, lambda text: text == last) == last, "the caption did not follow the play button"

    outputs = page.evaluate(CELLS_JS, PANEL)
    texts = " ".join(o["text"] for cell in outputs for o in cell["outputs"])
    assert "Error displaying widget" not in texts and "Traceback" not in texts, texts[-500:]
    assert not page.problems.about(r"widget|model|comm"), page.problems.errors


def test_student_lab_hides_the_instructor_tools(page, labs):
    lab = labs["student"]
    open_lab(page, lab)
    items = menu_items(page, "Nbgrader")
    assert "Assignment List" in items
    for tool in ("Formgrader", "Course List", "Create assignment"):
        assert tool not in items, f"students see {tool!r} in the Nbgrader menu: {items}"
    sidebar = page.locator(".jp-SideBar .lm-TabBar-tab").all_inner_texts()
    assert not any("Create Assignment" in t for t in sidebar), sidebar
    config = json.loads(page.locator("#jupyter-config-data").text_content())
    assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment"} <= set(config["disabledExtensions"])
    assert lab.status("/formgrader") == 404, "the formgrader's pages should not exist for students"
    page.screenshot(path=SCREENSHOTS / "student-lab.png")


def test_instructor_lab_formgrader_lists_the_assignments(page, labs):
    lab = labs["instructor"]
    open_lab(page, lab)
    items = menu_items(page, "Nbgrader")
    assert {"Formgrader", "Create assignment", "Assignment List"} <= set(items), items
    sidebar = page.locator(".jp-SideBar .lm-TabBar-tab").all_inner_texts()
    assert any("Create Assignment" in t for t in sidebar), sidebar

    menu(page, "Nbgrader", "Formgrader")
    frame = page.frame_locator("iframe").first
    rows = frame.locator("table tbody tr")
    rows.first.locator("td a").first.wait_for()
    names = sorted(text.strip() for text in frame.locator("table tbody tr td:first-child").all_inner_texts())
    expected = sorted(p.name for p in (labs["repo"] / "solutions").iterdir() if (p / f"{p.name}.ipynb").is_file())
    assert expected and names == expected, f"the formgrader lists {names}, the course has {expected}"
    page.screenshot(path=SCREENSHOTS / "instructor-formgrader.png")
