"""Scale: the engine walks long and wide graphs without recursion, in roughly linear time, and
frees what a graph holds as soon as the graph goes away."""

import gc
import math
import time
import weakref

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.slow

FACTOR = 1.00001  # 1.00001 ** 100_000 is about e


def chain(n: int):
    """x -> x*c -> (x*c)*c -> ...: a graph n nodes deep."""
    x = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * FACTOR
    return x, y


def timed_backward(y) -> float:
    """CPU seconds spent in backward (CPU time, so other processes on the machine don't count),
    with the cyclic GC paused so its pauses don't skew the ratio."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        y.backward()
        return time.process_time() - start
    finally:
        gc.enable()


@pytest.fixture(scope="module")
def chains():
    """Build a 25k and a 100k chain once; time backward on both, run autograd.grad on the long one."""
    results = {}
    for n in (25_000, 100_000):
        x, y = chain(n)
        grad = minigrad.autograd.grad(y, x, retain_graph=True)[0].item() if n == 100_000 else None
        seconds = timed_backward(y)
        results[n] = {"grad": grad, "leaf_grad": x.grad.item(), "seconds": seconds}
        del x, y  # freeing a 100k-deep graph must not overflow the stack either
        gc.collect()
    return results


def test_backward_through_100k_chain(chains):
    assert chains[100_000]["leaf_grad"] == pytest.approx(FACTOR**100_000, rel=1e-9)
    assert chains[25_000]["leaf_grad"] == pytest.approx(FACTOR**25_000, rel=1e-9)


def test_autograd_grad_on_100k_chain(chains):
    assert chains[100_000]["grad"] == pytest.approx(FACTOR**100_000, rel=1e-9)
    assert chains[100_000]["grad"] == pytest.approx(chains[100_000]["leaf_grad"], rel=1e-6)


def test_backward_time_is_roughly_linear(chains):
    # A complexity check, not a benchmark: 4x the nodes must not cost anywhere near 16x.
    ratio = chains[100_000]["seconds"] / chains[25_000]["seconds"]
    assert ratio < 8, chains


def test_wide_graph_of_100k_nodes():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    parts = [x * float(i % 7) for i in range(100_000)]  # 100k nodes that all feed one leaf
    total = minigrad.stack(parts).sum()
    total.backward()
    expected = sum(i % 7 for i in range(100_000))
    assert x.grad.tolist() == [expected, expected]


def test_create_graph_on_10k_chain_matches_torch():
    def run(lib):
        x = lib.tensor(0.7, dtype=lib.float64, requires_grad=True)
        y = x
        for _ in range(10_000):
            y = y.sin()
        (first,) = lib.autograd.grad(y, x, create_graph=True)
        (second,) = lib.autograd.grad(first, x)
        return first.item(), second.item()

    ours, theirs = run(minigrad), run(torch)
    assert ours == pytest.approx(theirs, rel=1e-9)
    assert ours[1] != 0.0


def test_deleting_the_graph_frees_a_big_intermediate():
    x = minigrad.randn(1_000_000, requires_grad=True)
    big = x.exp()  # 4 MB that sin() and exp() both keep for backward
    out = big.sin().sum()
    ref = weakref.ref(big._data)
    del big
    gc.collect()
    assert ref() is not None  # the graph still holds it
    gc.disable()
    try:
        del out  # no reference cycles: reference counting alone frees the graph
        assert ref() is None
    finally:
        gc.enable()


def test_backward_frees_intermediates_of_a_long_chain_as_it_goes():
    x = minigrad.tensor(np.ones(10_000, dtype=np.float32), requires_grad=True)
    y = x
    refs = []
    for _ in range(200):
        y = y.exp().log()  # each step saves its input array for backward
        refs.append(weakref.ref(y._data))
    last = y.sum()
    del y
    last.backward()
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive == 0
    assert np.allclose(x.grad.numpy(), 1.0, atol=1e-4)


def test_forward_time_is_roughly_linear():
    def build_seconds(n: int) -> float:
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            x, y = chain(n)
            return time.process_time() - start
        finally:
            gc.enable()

    small, large = build_seconds(5_000), build_seconds(20_000)
    assert large / small < 8
    assert math.isfinite(large)
