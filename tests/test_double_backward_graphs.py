"""The graph a recorded backward pass builds (``create_graph=True``) has PyTorch's nodes: where
PyTorch's derivative formulas call an op of their own (``sigmoid_backward``, ``tanh_backward``),
multiply or divide by a number in C++ (``MulBackward1``, ``DivBackward1``), or unsqueeze a
squeezed gradient back (``unsqueeze_to``), minigrad records the same. Values and the next
derivative are compared too.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, graph_nodes  # noqa: E402

same = Oracle(
    lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), np.round(t.detach().cpu().numpy(), 10).tolist())
).same

pytestmark = pytest.mark.usefixtures("on_device")


def _F(x):
    """The nn.functional of the library ``x`` belongs to."""
    return importlib.import_module(type(x).__module__.split(".")[0] + ".nn.functional")


CASES = {
    # nll_loss's gradient is an op of its own (NllLossBackwardBackward0) that leads back to the
    # input, with a zero gradient for it.
    "nll_loss": lambda x: _F(x).nll_loss(x, x.new_tensor([0, 2]).long()),
    "nll_loss sum, weight": lambda x: _F(x).nll_loss(
        x, x.new_tensor([0, 2]).long(), x.new_tensor([1, 2, 3]), reduction="sum"
    ),
    "nll_loss none": lambda x: _F(x).nll_loss(x, x.new_tensor([0, 2]).long(), reduction="none"),
    "nll_loss 2-d": lambda x: _F(x).nll_loss(x.reshape(1, 3, 2, 1), x.new_tensor([[[0], [2]]]).long()),
    "cross_entropy": lambda x: _F(x).cross_entropy(x, x.new_tensor([1, 0]).long()),
    "squeeze all": lambda x: x.reshape(2, 1, 3, 1).squeeze(),
    "squeeze dim": lambda x: x.reshape(2, 1, 3, 1).squeeze(1),
    "squeeze dim of size 3": lambda x: x.reshape(2, 1, 3, 1).squeeze(2),
    "squeeze dims": lambda x: x.reshape(2, 1, 3, 1).squeeze((1, 3)),
    "mean": lambda x: x.mean(),
    "mean dim": lambda x: x.mean(0),
    "mean keepdim": lambda x: x.mean(1, keepdim=True),
    "abs": lambda x: x.abs(),
    "sigmoid": lambda x: x.sigmoid(),
    "tanh": lambda x: x.tanh(),
    "sqrt": lambda x: x.sqrt(),
    "pow 3": lambda x: x.pow(3),
    "pow 0.5": lambda x: x**0.5,
    "var": lambda x: x.var(),
    "var dim": lambda x: x.var(0),
    "var keepdim": lambda x: x.var(1, keepdim=True),
    "var of a vector": lambda x: x.reshape(6).var(0),
    "std": lambda x: x.std(),
    "std dim": lambda x: x.std(1),
}


@pytest.mark.parametrize("name", CASES)
def test_recorded_backward_records_torchsgraph_nodes(name):
    def run(lib):
        x = lib.tensor([[0.3, -0.6, 0.9], [0.2, 0.7, 0.4]], dtype=lib.float64, requires_grad=True)
        if name in ("sqrt", "pow 0.5"):
            x = lib.tensor([[0.3, 0.6, 0.9], [0.2, 0.7, 0.4]], dtype=lib.float64, requires_grad=True)
        y = CASES[name](x)
        upstream = lib.linspace(0.5, 1.5, y.numel(), dtype=lib.float64).reshape(y.shape).requires_grad_()
        (g,) = lib.autograd.grad(y, x, upstream, create_graph=True)
        second = lib.autograd.grad((g * g).sum(), (x, upstream), materialize_grads=True)
        second = [s + lib.zeros_like(s) for s in second]  # (PyTorch's "ZeroTensor" cannot be read)
        return g, sorted(graph_nodes(g).items()), second

    same(run)
