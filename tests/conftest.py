"""Shared test fixtures."""

import pytest

import minigrad


@pytest.fixture(autouse=True)
def _seed():
    minigrad.manual_seed(0)
    yield
