"""environment.yml (conda) and pyproject.toml (pip) must name the same packages and versions."""

import re
from pathlib import Path

import pytest
import tomllib

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
# conda-forge names of the same packages; graphviz (the programs) has no pip twin.
CONDA_NAME = {"graphviz": "python-graphviz", "cupy-cuda12x": "cupy", "playwright": "playwright-python"}
CONDA_ONLY = {"python", "pip", "graphviz"}


def _parse(spec: str) -> tuple[str, str | None]:
    match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(?:>=\s*([0-9][0-9.]*))?\s*", spec)
    assert match, f"unexpected requirement {spec!r}: use 'name' or 'name>=version'"
    return match.group(1).lower(), match.group(2)


def _pip_requirements(extras: tuple[str, ...]) -> dict[str, str | None]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = list(project["dependencies"])
    for extra in extras:
        specs += project["optional-dependencies"][extra]
    result = {}
    for spec in specs:
        name, version = _parse(spec)
        result[CONDA_NAME.get(name, name)] = version
    return result


def _conda_requirements(path: Path) -> dict[str, str | None]:
    env = yaml.safe_load(path.read_text())
    assert env["channels"] == ["conda-forge"]
    result = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            assert dep == {"pip": ["--editable ."]}, "minigrad itself comes from the checkout"
            continue
        name, version = _parse(dep)
        if name not in CONDA_ONLY:
            result[name] = version
    return result


@pytest.mark.parametrize(
    ("file", "extras"),
    [("environment.yml", ("notebook", "test")), ("environment-gpu.yml", ("notebook", "test", "gpu"))],
)
def test_conda_and_pip_agree(file, extras):
    conda = _conda_requirements(ROOT / file)
    pip = _pip_requirements(extras)
    assert sorted(conda) == sorted(pip), (
        f"{file} and pyproject.toml name different packages: only in conda {sorted(set(conda) - set(pip))}, "
        f"only in pip {sorted(set(pip) - set(conda))}"
    )
    for name, version in pip.items():
        assert conda[name] == version, f"{name}: pyproject.toml wants >={version}, {file} has >={conda[name]}"


def test_environment_has_the_graphviz_programs():
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    assert "graphviz" in deps, "conda users get the `dot` program from the graphviz package"
