"""The version counters of gradients, as PyTorch keeps them.

PyTorch sums gradients that meet at a node into the first one in place when nothing else refers
to it (so its ``_version`` counts each sum), hands a gradient nothing else holds to ``.grad``
as it is, and otherwise copies it into a new tensor with ``copy_`` (version 1). A program that
reads ``w.grad._version`` sees the same numbers here.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, values  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import engine  # noqa: E402

same = Oracle(lambda t: (t._version, values(t))).same


def _leaf(lib, *shape):
    return lib.ones(*shape, requires_grad=True)


LEAF_PROGRAMS = {
    "one path, a fresh gradient (kept as it is)": lambda lib, w: (w * 2).sum().backward(),
    "one path through exp": lambda lib, w: w.exp().sum().backward(),
    "two paths that meet (summed in place)": lambda lib, w: (w * w).sum().backward(),
    "three paths (two sums in place)": lambda lib, w: (w * w * w).sum().backward(),
    "two paths, one through exp": lambda lib, w: (w.exp() * 2 + w * 3).sum().backward(),
    "the same gradient on both paths (not owned: summed out of place)": lambda lib, w: (w + w).sum().backward(),
    "an expanded gradient (copied into .grad)": lambda lib, w: w.sum().backward(),
    "mean": lambda lib, w: w.mean().backward(),
    "two sums meeting (expanded gradients)": lambda lib, w: (w.sum() + w.sum()).backward(),
    "a user's gradient (copied)": lambda lib, w: w.backward(lib.ones(3)),
    "a non-scalar product with a gradient": lambda lib, w: (w * w).backward(lib.ones(3)),
    "retain_graph": lambda lib, w: (w * w).sum().backward(retain_graph=True),
    "a second backward accumulates in place": lambda lib, w: [(w.exp()).sum().backward() for _ in range(2)],
    "create_graph copies (CopyBackwards)": lambda lib, w: w.exp().sum().backward(create_graph=True),
    "create_graph, two paths": lambda lib, w: (w * w).sum().backward(create_graph=True),
}


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
@pytest.mark.parametrize("name", LEAF_PROGRAMS)
def test_leaf_gradient_versions(name):
    def run(lib):
        w = _leaf(lib, 3)
        LEAF_PROGRAMS[name](lib, w)
        return w.grad

    same(run)


def test_versions_in_a_small_network():
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 2))
        with lib.no_grad():  # the same weights in both libraries
            for p in model.parameters():
                p.copy_(lib.linspace(-1, 1, p.numel()).reshape(p.shape))
        x = lib.ones(5, 4, requires_grad=True)
        lib.nn.functional.cross_entropy(model(x), lib.tensor([0, 1, 0, 1, 1])).backward()
        return [p.grad for p in model.parameters()] + [x.grad]

    same(run)


def test_versions_of_gradients_through_views_and_in_place_steps():
    def run(lib):
        a, b = _leaf(lib, 2, 3), _leaf(lib, 3)
        total = (a * b).sum() + (a + b).mean() + a.t().sum() + (a[0] * 2).sum() + b.expand(2, 3).sum()
        total.backward()
        c = _leaf(lib, 3)
        y = c.clone()
        y.add_(1)
        (y * y).sum().backward()
        d = _leaf(lib, 2, 2)
        (d @ d).sum().backward()
        e = _leaf(lib, 4)
        p, q = e.split(2)
        (p * q).sum().backward()
        return [a.grad, b.grad, c.grad, d.grad, e.grad]

    same(run)


def test_autograd_grad_returns_the_summed_buffer():
    def run(lib):
        w = _leaf(lib, 3)
        return [lib.autograd.grad((w * w).sum(), w)[0], lib.autograd.grad(w.sum(), w)[0]]

    same(run)


def test_retained_gradients_are_copies():
    def run(lib):
        h = _leaf(lib, 3)
        t = h * 1
        t.retain_grad()
        (t * t).sum().backward()
        return t.grad

    same(run)


def test_summing_in_place_leaves_other_holders_alone():
    # A hook that keeps the gradient it sees makes it shared: later sums must not change it.
    kept = []
    w = minigrad.ones(3, requires_grad=True)
    h = w * 1
    h.register_hook(lambda g: kept.append(g))
    (h * h + h).sum().backward()
    assert kept[0].tolist() == [3.0, 3.0, 3.0]
    assert w.grad.tolist() == [3.0, 3.0, 3.0]


def test_backward_with_create_graph_warns_once_as_pytorch(monkeypatch):
    monkeypatch.setattr(engine, "_warned_about_cycles", False)
    w = minigrad.ones(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (w * w).sum().backward(create_graph=True)
        (w * w).sum().backward(create_graph=True)
        minigrad.autograd.grad((w * w).sum(), w, create_graph=True)  # grad() does not warn
    assert len(caught) == 1
    assert caught[0].category is UserWarning
    assert str(caught[0].message).startswith("Using backward() with create_graph=True will create a reference cycle")
