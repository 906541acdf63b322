"""The two README commands and the student/instructor switch, checked without installing anything.

- ``scripts/start.sh`` and ``scripts/test.sh`` parse, print their steps with ``--dry-run`` /
  ``DRY_RUN=1``, pick the Python the README promises (``$MINIGRAD_PYTHON``, ``.venv``, the
  ``python3`` on PATH, a new ``.venv`` for a Python the operating system manages), take the
  conda route through ``environment.yml``, install Graphviz and Chromium with the system's
  package manager when there is one, and say what to run when there is none. Programs the
  scripts must not really run here (``apt-get``, ``conda``, JupyterLab) are stand-ins on PATH.
- ``python -m coursetools.mode`` switches nbgrader's plugins and server extensions in a
  temporary Jupyter config folder, as ``jupyter labextension list`` and ``jupyter server
  extension list`` report them, and keeps every other setting. (``tests/test_browser.py`` checks
  what JupyterLab then shows.)
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from coursetools import mode

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ["scripts/start.sh", "scripts/test.sh", "scripts/common.sh"]
# What the scripts call; everything else is left off PATH so that what they find is up to the test.
TOOLS = ["bash", "sh", "dirname", "awk", "grep", "id", "env", "cat", "rm", "sed", "uname", "tr", "head"]
BASH = shutil.which("bash")

pytestmark = pytest.mark.skipif(BASH is None or sys.platform == "win32", reason="the scripts are bash scripts")


def write_program(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def bare_path(folder: Path, *extra: str) -> str:
    """A PATH with only the basic tools, this Python as python3, and ``extra`` programs."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        if found and not (folder / tool).exists():
            (folder / tool).symlink_to(found)
    if not (folder / "python3").exists():
        # This Python, answering "no" when the scripts ask whether the system manages it (PEP 668).
        write_program(
            folder / "python3",
            f'#!/bin/sh\nif [ "$1" = "-" ]; then cat >/dev/null; exit 1; fi\nexec "{sys.executable}" "$@"\n',
        )
    for name in extra:
        write_program(folder / name, '#!/bin/sh\necho "$0 $*"\n')
    return str(folder)


def run(args: list[str], *, path: str | None = None, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **env)
    environment.pop("MINIGRAD_PYTHON", None)
    environment.pop("MINIGRAD_CHROMIUM", None)
    environment.update(env)
    if path is not None:
        environment["PATH"] = path
        environment.pop("CONDA_PREFIX", None)
    return subprocess.run([BASH, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=120)


def steps(result: subprocess.CompletedProcess) -> list[str]:
    """The commands a dry run printed."""
    return [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the scripts and environment files: a checkout whose .venv the test decides."""
    copy = tmp_path / "repo"
    (copy / "scripts").mkdir(parents=True)
    for script in SCRIPTS:
        shutil.copy(ROOT / script, copy / script)
    for name in ("environment.yml", "environment-gpu.yml"):
        shutil.copy(ROOT / name, copy / name)
    (copy / "course").mkdir()
    return copy


# ---------------------------------------------------------------------------------- scripts
@pytest.mark.parametrize("script", SCRIPTS)
def test_script_parses(script):
    result = subprocess.run([BASH, "-n", str(ROOT / script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_start_help_describes_both_modes_and_conda():
    result = run(["scripts/start.sh", "--help"])
    assert result.returncode == 0, result.stderr
    for word in ("--instructor", "student", "formgrader", "--conda", "environment.yml", "--dry-run", "--gpu"):
        assert word in result.stdout


def test_start_dry_run_student_changes_nothing(tmp_path):
    config = tmp_path / "jupyter-config"
    result = run(
        [str(ROOT / "scripts" / "start.sh"), "--dry-run", "--port", "8899"],
        cwd=tmp_path,  # from anywhere: the script works in the repository
        JUPYTER_CONFIG_DIR=str(config),
        MINIGRAD_PYTHON=sys.executable,
    )
    assert result.returncode == 0, result.stderr
    python = sys.executable
    done = steps(result)
    assert f"{python} -m pip install -q -e .[notebook]" in done
    assert f"{python} -m coursetools.mode student" in done
    lab = [s for s in done if " -m jupyterlab " in s]
    assert len(lab) == 1 and "--ServerApp.root_dir=course" in lab[0] and lab[0].endswith("--port 8899"), done
    assert done.index(f"{python} -m coursetools.mode student") < done.index(lab[0])
    assert not config.exists(), "a dry run must not switch the mode"


def test_start_dry_run_instructor_starts_from_the_repository_root():
    result = run(["scripts/start.sh", "--instructor", "--dry-run", "--no-install"], MINIGRAD_PYTHON=sys.executable)
    assert result.returncode == 0, result.stderr
    done = steps(result)
    assert not any("pip install" in s for s in done), "--no-install installs nothing"
    assert f"{sys.executable} -m coursetools.mode instructor" in done
    assert any(" -m jupyterlab --ServerApp.root_dir=. " in s + " " for s in done), done


def test_start_switches_the_mode_and_starts_jupyterlab(tmp_path):
    """Not a dry run: the real mode switch, with JupyterLab replaced by a stand-in that prints."""
    fake = write_program(
        tmp_path / "python",
        f'#!/bin/sh\nif [ "$1 $2" = "-m jupyterlab" ]; then echo "JUPYTERLAB $*"; exit 0; fi\nexec "{sys.executable}" "$@"\n',
    )
    config = tmp_path / "jupyter-config"
    env = {"MINIGRAD_PYTHON": str(fake), "JUPYTER_CONFIG_DIR": str(config)}
    student = run(["scripts/start.sh", "--no-install", "--no-browser"], **env)
    assert student.returncode == 0, student.stderr
    assert "JUPYTERLAB -m jupyterlab --ServerApp.root_dir=course" in student.stdout
    assert student.stdout.rstrip().endswith("--no-browser")
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert all(page["disabledExtensions"][name] for name in mode.INSTRUCTOR_PLUGINS)

    instructor = run(["scripts/start.sh", "--no-install", "--instructor"], **env)
    assert instructor.returncode == 0, instructor.stderr
    assert "JUPYTERLAB -m jupyterlab --ServerApp.root_dir=." in instructor.stdout
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert not any(page["disabledExtensions"][name] for name in mode.INSTRUCTOR_PLUGINS)


def test_python_choice_env_then_venv_then_path(repo, tmp_path):
    path = bare_path(tmp_path / "bin")
    chosen = run(["scripts/start.sh", "--dry-run"], path=path, cwd=repo, MINIGRAD_PYTHON="/opt/py/bin/python")
    assert "/opt/py/bin/python -m coursetools.mode student" in steps(chosen)

    plain = run(["scripts/start.sh", "--dry-run"], path=path, cwd=repo)
    # The interpreter itself (sys.executable), not the launcher found on PATH.
    assert f"{sys.executable} -m pip install -q -e .[notebook]" in steps(plain), plain.stdout + plain.stderr

    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "python").symlink_to(sys.executable)
    venv = run(["scripts/start.sh", "--dry-run"], path=path, cwd=repo)
    assert f"{repo}/.venv/bin/python -m pip install -q -e .[notebook]" in steps(venv)


def test_python_managed_by_the_system_gets_a_venv(repo, tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    # A python3 that reports itself EXTERNALLY-MANAGED (PEP 668), as Debian's and Homebrew's do:
    # the scripts ask by piping a check into `python3 -`.
    write_program(
        folder / "python3",
        f'#!/bin/sh\nif [ "$1" = "-" ]; then cat >/dev/null; exit 0; fi\nexec "{sys.executable}" "$@"\n',
    )
    result = run(["scripts/test.sh"], path=bare_path(folder, "dot", "chromium"), cwd=repo, DRY_RUN="1")
    assert result.returncode == 0, result.stderr
    done = steps(result)
    assert done[0] == f"{folder}/python3 -m venv .venv", done
    assert f"{repo}/.venv/bin/python -m pip install -q -e .[test,notebook]" in done
    assert "virtual environment" in result.stderr


def test_missing_graphviz_and_chromium_without_a_package_manager(repo, tmp_path):
    path = bare_path(tmp_path / "bin")
    tests = run(["scripts/test.sh", "-q"], path=path, cwd=repo, DRY_RUN="1")
    assert tests.returncode == 1, "the tests cannot run without Graphviz"
    assert "sudo apt-get install graphviz" in tests.stderr and "brew install graphviz" in tests.stderr
    assert not any("pytest" in s for s in steps(tests))

    start = run(["scripts/start.sh", "--dry-run"], path=path, cwd=repo)
    assert start.returncode == 0, "the course starts without Graphviz: the drawings say what is missing"
    assert "Continuing without Graphviz" in start.stderr

    no_browser = run(["scripts/test.sh", "-q"], path=bare_path(tmp_path / "bin", "dot"), cwd=repo, DRY_RUN="1")
    assert no_browser.returncode == 0
    assert "MINIGRAD_CHROMIUM" in no_browser.stderr and "sudo apt-get install chromium" in no_browser.stderr
    assert steps(no_browser)[-1].endswith("-m pytest -q"), "the browser test itself reports the missing Chromium"


def test_package_manager_installs_graphviz_and_chromium(repo, tmp_path):
    path = bare_path(tmp_path / "bin", "apt-get", "sudo")
    result = run(["scripts/test.sh", "-q", "-k", "setup"], path=path, cwd=repo, DRY_RUN="1")
    assert result.returncode == 0, result.stderr
    done = [s.removeprefix("sudo ") for s in steps(result)]
    assert done[0] == "apt-get update -qq"
    assert "env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz" in done
    assert "env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium" in done
    assert done.count("apt-get update -qq") == 1
    assert done[-1].endswith("-m pytest -q -k setup")
    assert any(s.endswith("-m ruff format --check .") for s in done)


def test_conda_route(repo, tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    envs = tmp_path / "envs"
    envs.write_text("base  /opt/conda\n")
    # A stand-in conda: `env list` prints the environments in $ENVS, `run` prints the env's Python.
    write_program(
        folder / "conda",
        '#!/bin/sh\ncase "$1 $2" in\n  "env list") cat "$ENVS" ;;\n'
        '  "run -n") echo "/opt/conda/envs/$3/bin/python" ;;\n  *) echo "unexpected: $*" >&2; exit 2 ;;\nesac\n',
    )
    path = bare_path(folder, "dot")
    fresh = run(["scripts/start.sh", "--conda", "--dry-run"], path=path, cwd=repo, ENVS=str(envs))
    assert fresh.returncode == 0, fresh.stderr
    done = steps(fresh)
    assert done[0] == "conda env create -q -f environment.yml"
    assert not any("pip install" in s for s in done), "environment.yml installs minigrad itself"
    assert any(s.endswith("-m coursetools.mode student") for s in done)

    envs.write_text("base  /opt/conda\nminigrad-course-gpu  /opt/conda/envs/minigrad-course-gpu\n")
    gpu = run(
        ["scripts/start.sh", "--conda", "--gpu", "--dry-run", "--instructor"], path=path, cwd=repo, ENVS=str(envs)
    )
    assert gpu.returncode == 0, gpu.stderr
    done = steps(gpu)
    assert done[0] == "conda env update -q -n minigrad-course-gpu -f environment-gpu.yml"
    assert "/opt/conda/envs/minigrad-course-gpu/bin/python -m coursetools.mode instructor" in done

    missing = run(["scripts/start.sh", "--conda", "--dry-run"], path=bare_path(tmp_path / "plain"), cwd=repo)
    assert missing.returncode == 1 and "conda was not found" in missing.stderr


# ------------------------------------------------------------------------------ course mode
def jupyter(*args: str, config: Path) -> str:
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    result = subprocess.run(
        [sys.executable, "-m", "jupyter", *args], env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


def disabled_lab_plugins(listing: str) -> set[str]:
    """The names under "Disabled extensions:" in `jupyter labextension list`."""
    lines = listing.splitlines()
    if not any(line.strip() == "Disabled extensions:" for line in lines):
        return set()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Disabled extensions:")
    names = set()
    for line in lines[start + 1 :]:
        if not line.startswith("    ") or not line.strip():
            break
        names.add(line.split()[0])
    return names


def server_states(listing: str, config: Path) -> dict[str, str]:
    """``{extension: enabled|disabled}`` listed under ``config`` by `jupyter server extension list`."""
    states, inside = {}, False
    for line in listing.splitlines():
        if line.startswith("Config dir:"):
            inside = line.split(":", 1)[1].strip() == str(config)
        elif inside and line.startswith("    ") and not line.startswith("     ") and line.strip()[:1] != "-":
            parts = line.replace("\x1b[32m", "").replace("\x1b[31m", "").replace("\x1b[0m", "").split()
            if len(parts) == 2:
                states[parts[0]] = parts[1]
    return states


def test_mode_switches_nbgrader_as_jupyter_reports_it(tmp_path, monkeypatch):
    pytest.importorskip("nbgrader")
    config = tmp_path / "jupyter-config"
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(config))

    assert mode.main(["student"]) == 0  # the default level: the user's folder, here JUPYTER_CONFIG_DIR
    assert disabled_lab_plugins(jupyter("labextension", "list", config=config)) == set(mode.INSTRUCTOR_PLUGINS)
    servers = server_states(jupyter("server", "extension", "list", config=config), config)
    assert servers == {
        "nbgrader.server_extensions.formgrader": "disabled",
        "nbgrader.server_extensions.course_list": "disabled",
        "nbgrader.server_extensions.assignment_list": "enabled",
        "nbgrader.server_extensions.validate_assignment": "enabled",
    }
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert all(page["lockedExtensions"][name] for name in mode.INSTRUCTOR_PLUGINS), "students cannot re-enable them"
    assert mode.current_mode() == "student"

    assert mode.main(["instructor"]) == 0
    assert not disabled_lab_plugins(jupyter("labextension", "list", config=config)) & set(mode.INSTRUCTOR_PLUGINS)
    assert mode.current_mode() == "instructor"
    assert all(mode.effective().values())


def test_mode_keeps_other_settings_and_dry_run_writes_nothing(tmp_path, capsys):
    config = tmp_path / "config"
    (config / "labconfig").mkdir(parents=True)
    (config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": ["@example/other:plugin"], "theme": "dark"})
    )
    server = {"ServerApp": {"jpserver_extensions": {"example_ext": True}, "port": 9000}}
    (config / "jupyter_server_config.json").write_text(json.dumps(server))
    before = {p: p.read_text() for p in config.rglob("*.json")}

    assert mode.main(["student", "--config-dir", str(config), "--dry-run"]) == 0
    assert {p: p.read_text() for p in config.rglob("*.json")} == before
    assert "would write" in capsys.readouterr().out

    assert mode.main(["student", "--config-dir", str(config)]) == 0
    page = json.loads((config / "labconfig" / "page_config.json").read_text())
    assert page["theme"] == "dark" and page["disabledExtensions"]["@example/other:plugin"] is True
    assert page["disabledExtensions"]["@jupyter/nbgrader:formgrader"] is True
    assert page["disabledExtensions"]["@jupyter/nbgrader:validate-assignment"] is False
    written = json.loads((config / "jupyter_server_config.json").read_text())["ServerApp"]
    assert written["port"] == 9000 and written["jpserver_extensions"]["example_ext"] is True
    assert written["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is False


def test_mode_status_and_levels(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path / "user"))
    assert mode.config_dir("user") == tmp_path / "user"
    assert mode.config_dir("sys-prefix") == Path(sys.prefix) / "etc" / "jupyter"
    with pytest.raises(ValueError, match="level"):
        mode.config_dir("everywhere")
    with pytest.raises(ValueError, match="mode"):
        mode.settings("teacher")
    mode.apply("student", tmp_path / "user")
    assert mode.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "mode: student" in out and "nbgrader.server_extensions.formgrader" in out
    state = dict.fromkeys(mode.effective(), True)
    state["@jupyter/nbgrader:formgrader"] = False
    assert mode.current_mode(state) == "mixed"
