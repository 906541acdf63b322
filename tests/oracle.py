"""Run one snippet under minigrad and under PyTorch, and compare what comes out.

A test writes its snippet once as ``run(lib)``, where ``lib`` is ``minigrad`` or ``torch``, and
calls ``same(run)``: the snippet runs with each library, both results are turned into
library-independent values (``Oracle.plain``: every tensor, also inside tuples and lists, becomes
what the test file's *view* makes of it, e.g. its dtype and values), and those must be equal.
``same_error(run, *words)`` checks a snippet that must raise in both libraries.

Each test file builds its ``same`` from the fields it compares::

    same = Oracle(lambda t: (str(t.dtype), rounded(t, 5))).same

Import this module after ``torch = pytest.importorskip("torch")``, so that the tests skip
without PyTorch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minigrad

Snippet = Callable[[Any], Any]  # run(lib), with lib = minigrad or torch


class Values:
    """Tensor values compared with a float32-sized tolerance (libraries may differ in the last bit)."""

    def __init__(self, array) -> None:
        self.array = np.asarray(array, dtype=np.float64)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Values) or self.array.shape != other.array.shape:
            return False
        return bool(np.allclose(self.array, other.array, rtol=1e-5, atol=1e-6, equal_nan=True))

    def __repr__(self) -> str:
        return f"Values({self.array.tolist()})"

    def tolist(self):
        return self.array.tolist()


def values(t) -> Values:
    """The values of tensor ``t`` (on any device), compared with a float32-sized tolerance."""
    return Values(t.detach().cpu().numpy())


def rounded(t, decimals: int) -> list:
    """The values of tensor ``t`` (on any device) as nested lists of floats rounded to ``decimals``."""
    return np.round(t.detach().cpu().numpy().astype(np.float64), decimals).tolist()


class Oracle:
    """Compares minigrad's and torch's results of a snippet, each tensor seen as ``view(tensor)``.

    With ``on_test_device`` (the default), every minigrad tensor in a result must also be on the
    device the test runs on (the default device that the ``on_device`` fixture sets).
    """

    def __init__(self, view: Callable[[Any], Any], *, on_test_device: bool = True) -> None:
        self.view = view
        self.on_test_device = on_test_device

    def plain(self, value: Any) -> Any:
        """A library-independent form of a result: tensors (also in tuples and lists) become their view."""
        if isinstance(value, minigrad.Tensor | torch.Tensor):
            if self.on_test_device and isinstance(value, minigrad.Tensor):
                assert value.device == minigrad.get_default_device(), value.device
            return self.view(value)
        if isinstance(value, tuple | list):
            return type(value)(self.plain(v) for v in value)
        return value

    def same(self, fn: Snippet) -> Any:
        """Run ``fn(minigrad)`` and ``fn(torch)``, assert their plain forms are equal, and return minigrad's."""
        ours, theirs = self.plain(fn(minigrad)), self.plain(fn(torch))
        assert ours == theirs
        return ours


def same_error(fn: Snippet, *words: str) -> BaseException:
    """Both ``fn(minigrad)`` and ``fn(torch)`` raise, the same exception type, with each of ``words`` in
    both messages. Returns minigrad's exception."""
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:
            fn(lib)
        errors.append(info.value)
    assert type(errors[0]).__name__ == type(errors[1]).__name__, errors
    for word in words:
        for error in errors:
            assert word in str(error), (word, str(error))
    return errors[0]


def same_opening(fn: Snippet, words: int = 3) -> BaseException:
    """``fn(torch)`` raises; ``fn(minigrad)`` raises that exception type too, and its message holds
    the first ``words`` words of PyTorch's (minigrad may add a hint after them). Returns minigrad's."""
    with pytest.raises(Exception) as theirs:
        fn(torch)
    with pytest.raises(type(theirs.value)) as ours:
        fn(minigrad)
    assert " ".join(str(theirs.value).split()[:words]) in str(ours.value)
    return ours.value


def cpu_repr(t, text: str | None = None) -> str:
    """``repr(t)`` (or ``text``) as it reads on the CPU: a one-line GPU repr without its device, so
    a GPU run can be compared with PyTorch's CPU output. The device must be shown, as PyTorch does."""
    text = repr(t) if text is None else text
    on = "" if t.device.type == "cpu" else f", device='{t.device}'"
    assert on in text, text
    return text.replace(on, "")


def node_names(t) -> list[str]:
    """The node names of ``t``'s graph, depth first along ``next_functions`` (a node reached twice
    is listed twice; ``torch::autograd::`` dropped), to compare recorded graphs."""
    names, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        names.append(node.name().replace("torch::autograd::", ""))
        stack.extend(n for n, _ in reversed(node.next_functions))
    return names


def derivatives(lib, out, inputs: list, second: bool = True) -> tuple:
    """``out``, its nodes, its gradients for ``inputs`` under a fixed upstream gradient (made with a
    graph), and (with ``second``) the gradients of a weighted sum of those: the second derivatives
    for the inputs and the upstream gradient (zeros where there is none)."""

    def fixed(shape, seed: int):
        return lib.tensor(np.random.default_rng(seed).standard_normal(tuple(shape)), dtype=out.dtype)

    upstream = fixed(out.shape, 7).requires_grad_()
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=second)
    if not second:
        return out, node_names(out), list(grads)
    total = sum((g * fixed(g.shape, 8 + k)).sum() for k, g in enumerate(grads))
    wrt = [*inputs, upstream]
    seconds = lib.autograd.grad(total, wrt, allow_unused=True)
    # (clone: PyTorch gives a ZeroTensor for a second derivative known to be 0, e.g. p=1 norms)
    seconds = [lib.zeros_like(x) if g is None else g.clone() for g, x in zip(seconds, wrt)]
    return out, node_names(out), list(grads), seconds


def graph_nodes(t) -> Counter:
    """Every node of the graph behind ``t`` (each once), by name: a graph of PyTorch's and one of
    minigrad's compare equal when they record the same nodes."""
    names, stack, seen = Counter(), [t.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names[node.name().replace("torch::autograd::", "")] += 1
        stack.extend(n for n, _ in node.next_functions)
    return names
