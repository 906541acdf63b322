"""Student or instructor JupyterLab: hide nbgrader's instructor tools, or bring them back.

nbgrader installs its JupyterLab plugins and Jupyter server extensions all enabled. Students
need only the "Validate" button and the assignment list; the formgrader, the "Create
Assignment" sidebar and the course list are instructor tools. Usage::

    python -m coursetools.mode student      # hide the instructor tools (and lock them off)
    python -m coursetools.mode instructor   # show everything nbgrader has
    python -m coursetools.mode status       # which mode this Python's Jupyter is in now

Options: ``--level user`` (default: the user's Jupyter config folder, ``~/.jupyter`` or
``$JUPYTER_CONFIG_DIR``; the highest priority, no admin rights needed), ``--level sys-prefix``
(this Python environment only), ``--level system`` (every user of the machine, e.g. a
JupyterHub), or ``--config-dir DIR`` (any Jupyter config folder); ``--dry-run`` prints what
would be written.

Two files are changed in that folder, keeping every other setting in them:
``labconfig/page_config.json`` (``disabledExtensions`` and ``lockedExtensions``, exactly what
``jupyter labextension disable`` and ``jupyter labextension lock`` write; locked plugins cannot
be switched back on from JupyterLab's plugin manager) and ``jupyter_server_config.json``
(``ServerApp.jpserver_extensions``, what ``jupyter server extension disable`` writes: without
the formgrader server extension its pages do not exist). Restart JupyterLab afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

# JupyterLab plugins of the @jupyter/nbgrader extension.
INSTRUCTOR_PLUGINS = (
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:course-list",
)
STUDENT_PLUGINS = (
    "@jupyter/nbgrader:assignment-list",
    "@jupyter/nbgrader:validate-assignment",
)
# Jupyter server extensions (create-assignment has none: it is a JupyterLab plugin only).
INSTRUCTOR_SERVER_EXTENSIONS = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.course_list",
)
STUDENT_SERVER_EXTENSIONS = (
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.validate_assignment",
)

MODES = ("student", "instructor")
LEVELS = ("user", "sys-prefix", "system")
PAGE_CONFIG = Path("labconfig") / "page_config.json"
SERVER_CONFIG = Path("jupyter_server_config.json")


def config_dir(level: str = "user") -> Path:
    """The Jupyter config folder of ``level``: ``user``, ``sys-prefix`` or ``system``."""
    from jupyter_core.paths import ENV_CONFIG_PATH, SYSTEM_CONFIG_PATH, jupyter_config_dir

    if level == "user":
        return Path(jupyter_config_dir())
    if level == "sys-prefix":
        return Path(ENV_CONFIG_PATH[0])
    if level == "system":
        return Path(SYSTEM_CONFIG_PATH[0])
    raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")


def settings(mode: str) -> tuple[dict[str, dict[str, bool]], dict[str, bool]]:
    """What ``mode`` writes: the page config entries and the server extension switches."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    student = mode == "student"
    # Explicit False (rather than a removed entry) also overrides a lower-priority config folder.
    disabled = {name: student for name in INSTRUCTOR_PLUGINS} | {name: False for name in STUDENT_PLUGINS}
    locked = {name: student for name in INSTRUCTOR_PLUGINS}
    server = {name: not student for name in INSTRUCTOR_SERVER_EXTENSIONS} | {
        name: True for name in STUDENT_SERVER_EXTENSIONS
    }
    return {"disabledExtensions": disabled, "lockedExtensions": locked}, server


def _read_json(path: Path) -> dict:
    if not path.is_file() or path.stat().st_size == 0:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    return data


def _as_mapping(value) -> dict[str, bool]:
    # Older JupyterLab versions wrote these entries as lists of names.
    if isinstance(value, list):
        return dict.fromkeys(value, True)
    return dict(value or {})


def apply(mode: str, directory: str | os.PathLike, dry_run: bool = False) -> list[tuple[Path, dict]]:
    """Write ``mode`` into the Jupyter config folder ``directory``; return ``(file, new content)``.

    Every other setting in the two files is kept. With ``dry_run`` nothing is written.
    """
    directory = Path(directory)
    page, server = settings(mode)

    page_path = directory / PAGE_CONFIG
    page_data = _read_json(page_path)
    for key, entries in page.items():
        page_data[key] = _as_mapping(page_data.get(key)) | entries

    server_path = directory / SERVER_CONFIG
    server_data = _read_json(server_path)
    server_app = server_data.setdefault("ServerApp", {})
    server_app["jpserver_extensions"] = dict(server_app.get("jpserver_extensions") or {}) | server

    changes = [(page_path, page_data), (server_path, server_data)]
    if not dry_run:
        for path, data in changes:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Write then rename: a half-written config would stop JupyterLab from starting.
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
            tmp.replace(path)
    return changes


def effective() -> dict[str, bool]:
    """Whether each nbgrader plugin and server extension is on, all config folders together.

    Reads the folders the way JupyterLab and Jupyter Server do (``jupyter --paths``, the first
    one winning; ``*.d/*.json`` files before the main file of each folder).
    """
    from jupyter_core.paths import jupyter_config_path

    disabled: dict[str, bool] = {}
    extensions: dict[str, bool] = {}
    for folder in reversed([Path(p) for p in jupyter_config_path()]):
        pages = sorted((folder / "labconfig" / "page_config.d").glob("*.json")) + [folder / PAGE_CONFIG]
        for path in pages:
            disabled |= _as_mapping(_read_json(path).get("disabledExtensions"))
        servers = sorted((folder / "jupyter_server_config.d").glob("*.json")) + [folder / SERVER_CONFIG]
        for path in servers:
            extensions |= _read_json(path).get("ServerApp", {}).get("jpserver_extensions", {}) or {}
    state = {name: not disabled.get(name, False) for name in INSTRUCTOR_PLUGINS + STUDENT_PLUGINS}
    state |= {
        name: bool(extensions.get(name, False)) for name in INSTRUCTOR_SERVER_EXTENSIONS + STUDENT_SERVER_EXTENSIONS
    }
    return state


def current_mode(state: dict[str, bool] | None = None) -> str:
    """``student``, ``instructor`` or ``mixed``, from :func:`effective`."""
    state = effective() if state is None else state
    instructor = [state[name] for name in INSTRUCTOR_PLUGINS + INSTRUCTOR_SERVER_EXTENSIONS]
    student_tools = all(state[name] for name in STUDENT_PLUGINS + STUDENT_SERVER_EXTENSIONS)
    if student_tools and all(instructor):
        return "instructor"
    if student_tools and not any(instructor):
        return "student"
    return "mixed"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.mode",
        description="Hide nbgrader's instructor tools from students, or bring them back.",
    )
    parser.add_argument("mode", choices=(*MODES, "status"), help="student, instructor, or status (show the mode)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--level", choices=LEVELS, default="user", help="which Jupyter config folder (default: user)")
    where.add_argument("--config-dir", help="a Jupyter config folder to write into instead")
    parser.add_argument("--dry-run", action="store_true", help="print what would be written, write nothing")
    args = parser.parse_args(argv)

    if args.mode == "status":
        state = effective()
        for name, on in state.items():
            print(f"  {name:48} {'enabled' if on else 'disabled'}")
        print(f"mode: {current_mode(state)}")
        return 0

    directory = Path(args.config_dir) if args.config_dir else config_dir(args.level)
    changes = apply(args.mode, directory, dry_run=args.dry_run)
    verb = "would write" if args.dry_run else "wrote"
    for path, data in changes:
        print(f"{verb} {path}")
        if args.dry_run:
            print(json.dumps(data, indent=2))
    hidden = "hidden and locked" if args.mode == "student" else "enabled"
    print(f"{args.mode} mode: formgrader, create-assignment and course-list {hidden}; restart JupyterLab to see it.")
    if not args.dry_run and not args.config_dir:
        now = current_mode()
        if now != args.mode:  # a folder of higher priority (or JUPYTER_CONFIG_DIR) says otherwise
            print(f"warning: Jupyter's configuration as a whole is still in {now} mode; see `jupyter --paths`")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
