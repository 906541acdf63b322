"""Shared test fixtures: the seed, and the device every GPU-capable test runs on.

A test that takes the ``device`` fixture runs twice: on ``"cpu"``, and on ``"cuda"`` marked
``gpu``. A test that uses ``on_device`` also gets that device as minigrad's default device (and
PyTorch's, when PyTorch has CUDA), so its ``tensor(...)``, ``zeros(...)`` and ``nn.Linear(...)``
need no ``device=``. Tests marked ``gpu`` (by the ``cuda`` parameter or ``@pytest.mark.gpu``) are
skipped, with the reason, when ``minigrad.cuda.is_available()`` is False, so CI without a GPU
skips them at once; with an NVIDIA GPU and CuPy they run (see tests/GPU.md).
"""

import os
import sys

import pytest

import minigrad

GPU_REASON = "needs an NVIDIA GPU with CuPy (minigrad.cuda.is_available() is False)"
# The GPU that on_device tests use for "cuda" (e.g. MINIGRAD_TEST_GPU=cuda:1 on a machine with two).
TEST_GPU = os.environ.get("MINIGRAD_TEST_GPU", "cuda")


@pytest.fixture(autouse=True)
def _seed():
    minigrad.manual_seed(0)
    yield


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def device(request) -> str:
    """The device to run on: ``"cpu"``, then ``"cuda"`` (skipped without a GPU)."""
    return request.param


@pytest.fixture
def on_device(device):
    """Run the test with ``device`` as the default device of every factory (``set_default_device``),
    in minigrad and, when the test uses PyTorch and PyTorch has CUDA, in PyTorch too. Yields the
    device."""
    torch = sys.modules.get("torch")
    torch_too = torch is not None and device != "cpu" and torch.cuda.is_available()
    minigrad.set_default_device(TEST_GPU if device == "cuda" else device)
    if torch_too:
        torch.set_default_device(device)
    try:
        yield device
    finally:
        minigrad.set_default_device(None)
        if torch_too:
            torch.set_default_device(None)


def pytest_collection_modifyitems(config, items):
    """Skip the ``gpu`` tests when minigrad cannot use a GPU here."""
    if minigrad.cuda.is_available():
        return
    skip = pytest.mark.skip(reason=GPU_REASON)
    for item in items:
        if item.get_closest_marker("gpu") is not None:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Report every GPU skip at one place, so ``-ra`` prints one line for them, not one per test."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and isinstance(report.longrepr, tuple) and report.longrepr[2].endswith(GPU_REASON):
        report.longrepr = (__file__, None, report.longrepr[2])
