"""The examples in minigrad's docstrings run and print what they show (students copy them)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import minigrad

MODULES = [m.name for m in pkgutil.walk_packages(minigrad.__path__, "minigrad.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples in {name} fail"


def test_the_examples_are_found():
    finder = doctest.DocTestFinder()
    found = sum(len(t.examples) for n in MODULES for t in finder.find(importlib.import_module(n)))
    assert found > 100
