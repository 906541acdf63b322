"""Differences a differential fuzzer of higher-order autograd found against PyTorch, one test
each: random programs of a few ops, differentiated two and three times with ``create_graph``,
compared by values, by the nodes of the recorded gradient graph and by the grad modes around
them.

- A recorded backward pass builds PyTorch's nodes: where PyTorch's formula multiplies, adds or
  divides by a number in C++ (``MulBackward1``, ``AddBackward1``, ...), scatters a picked value
  back (``ScatterBackward0`` for max, kthvalue, sort, ...), or fills and views (``trace``).
- Second derivatives agree at the special points: elu at 0, nan and inf, softplus at nan, clamp
  with an infinite tensor bound.
- ``set_grad_enabled`` takes only a bool, re-enters its mode, and the modes have ``clone()``.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, graph_nodes, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same  # nan equals nan


def _recorded(lib, fn, x):
    """The gradient of ``fn(x)`` under an upstream gradient that requires grad, recorded
    (``create_graph=True``), and the second derivatives of its square, recorded too: their
    values and nodes."""
    y = fn(x)
    upstream = lib.linspace(0.5, 1.5, y.numel(), dtype=lib.float64).reshape(y.shape).requires_grad_()
    (g,) = lib.autograd.grad(y, x, upstream, create_graph=True)
    second = lib.autograd.grad((g * g).sum(), (x, upstream), create_graph=True, materialize_grads=True)
    nodes = [sorted(graph_nodes(t).items()) for t in (g, *second)]
    return g, [s + lib.zeros_like(s) for s in second], nodes  # (PyTorch's "ZeroTensor" cannot be read)


def _t(lib, data, requires_grad=True):
    return lib.tensor(data, dtype=lib.float64, requires_grad=requires_grad)


X = [[0.3, -0.6, 0.9], [0.2, 0.7, -0.4]]
POSITIVE = [[0.3, 0.6, 0.9], [0.2, 0.7, 0.4]]

RECORDED = {
    # derivative formulas with a number: PyTorch's Scalar overloads in C++
    "atan": (lambda x: x.atan(), X),
    "asin": (lambda x: x.asin(), X),
    "acos": (lambda x: x.acos(), X),
    "acosh": (lambda x: (x + 2).acosh(), X),
    "asinh": (lambda x: x.asinh(), X),
    "expm1": (lambda x: x.expm1(), X),
    "log1p": (lambda x: x.log1p(), X),
    "erf": (lambda x: x.erf(), X),
    "rsqrt": (lambda x: x.rsqrt(), POSITIVE),
    "log2": (lambda x: x.log2(), POSITIVE),
    "log10": (lambda x: x.log10(), POSITIVE),
    "exp2": (lambda x: x.exp2(), X),
    "number ** tensor": (lambda x: 2.0**x, X),
    "tensor ** tensor": (lambda x: x.pow(x.flip(0) + 1.5), POSITIVE),
    "lerp": (lambda x: x.lerp(x.detach().flip(0), 0.3), X),
    "addcmul": (lambda x: x.addcmul(x, x.flip(0), value=0.5), X),
    "logaddexp": (lambda x: x.logaddexp(x.detach().flip(1)), X),
    "logaddexp2": (lambda x: x.logaddexp2(x.detach().flip(1)), X),
    "reciprocal": (lambda x: x.reciprocal(), X),
    "cos": (lambda x: x.cos(), X),
    # the shape of a formula: broadcasting instead of an expand, outer, scatter, index_fill
    "logsumexp": (lambda x: x.logsumexp(1), X),
    "mv": (lambda x: x.mv(x[0].detach()), X),
    "norm p=1": (lambda x: x.norm(p=1), X),
    "norm p=inf": (lambda x: x.norm(p=float("inf")), X),
    "norm p=inf dim": (lambda x: x.norm(p=float("inf"), dim=1), X),
    "maximum": (lambda x: x.maximum(x.detach().flip(1)), [[0.3, -0.6, 0.3], [0.2, 0.7, 0.7]]),
    "minimum with a tie": (lambda x: x.minimum(x.detach().flip(1)), [[0.3, -0.6, 0.3], [0.2, 0.7, 0.7]]),
    "max dim": (lambda x: x.max(1)[0], X),
    "min dim keepdim": (lambda x: x.min(0, keepdim=True)[0], X),
    "kthvalue": (lambda x: x.kthvalue(2, 1)[0], X),
    "median dim": (lambda x: x.median(1)[0], X),
    "max of a 0-d": (lambda x: x[0, 0].max(0)[0], X),
    "sort of a 0-d": (lambda x: x[0, 0].sort()[0], X),
    "topk of a 0-d": (lambda x: x[1, 1].topk(1)[0], X),
    "trace": (lambda x: x.trace(), X),
    "trace of a column": (lambda x: x.t()[:, :1].trace(), X),
    "repeat": (lambda x: x.repeat(2, 1), X),
    "repeat with new dims": (lambda x: x.repeat(2, 1, 3), X),
    "repeat once": (lambda x: x.repeat(1, 1), X),
    "softplus": (lambda x: _F(x).softplus(x * 3, beta=2.0, threshold=1.0), X),
    "elu": (lambda x: _F(x).elu(x), X),
}


def _F(x):
    """The nn.functional of the library ``x`` belongs to."""
    return minigrad.nn.functional if isinstance(x, minigrad.Tensor) else torch.nn.functional


@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_backward_has_torchsgraph_nodes(name):
    fn, data = RECORDED[name]
    same(lambda lib: _recorded(lib, fn, _t(lib, data)))


@pytest.mark.parametrize("name", ["elu", "celu", "selu", "elu_"])
def test_elu_derivatives_at_zero_nan_and_inf(name):
    # The second derivative is kept where x < 0 only (0 at x = 0), nan takes the positive side's
    # slope, and the third derivative at inf is 0, not 0 * exp(inf) = nan.
    def run(lib):
        x = _t(lib, [0.0, float("nan"), float("inf"), -float("inf"), -1.0, 2.0])
        y = getattr(lib.nn.functional, name)(x * 1)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x, create_graph=True)
        (ggg,) = lib.autograd.grad(gg.sum(), x)
        return g, gg, ggg

    same(run)


def test_softplus_second_derivative_at_nan_is_nan():
    def run(lib):
        x = _t(lib, [float("nan"), 1.0, 30.0, -30.0])
        (g,) = lib.autograd.grad(lib.nn.functional.softplus(x).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)

    same(run)


@pytest.mark.parametrize("bounds", [(float("inf"), None), (float("inf"), 3.0), (1.0, -float("inf"))])
def test_clamp_by_an_infinite_tensor_bound_takes_the_gradient(bounds):
    # A 0-d bound of +inf for min (or -inf for max) is a bound, not a missing one: the input
    # gets no gradient where the bound is taken.
    def run(lib):
        x = _t(lib, [2.0, -1.0])
        lo, hi = (None if b is None else _t(lib, b) for b in bounds)
        y = x.clamp(lo, hi)
        return y, lib.autograd.grad(y.sum(), [t for t in (x, lo, hi) if t is not None])

    same(run)


def test_the_gradient_of_a_picked_0d_value_is_a_new_tensor():
    # PyTorch scatters it into zeros: a ScatterBackward0 node, not the grad_outputs tensor itself.
    def run(lib):
        x = _t(lib, 1.5)
        result = []
        for y in (x.max(0)[0], x.kthvalue(1)[0], x.sort()[0], x.topk(1)[0], x.mode()[0]):
            upstream = _t(lib, 2.0)
            (g,) = lib.autograd.grad(y, x, upstream, create_graph=True)
            result.append((g, g is upstream, g.is_leaf, type(g.grad_fn).__name__))
        return result

    same(run)


# ---------------------------------------------------------------------------------------------
# Grad modes


@pytest.mark.parametrize("mode", ["no", 0, None, 1.0])
def test_set_grad_enabled_takes_only_a_bool(mode):
    for lib in (minigrad, torch):
        with pytest.raises(TypeError, match="must be bool"):
            lib.set_grad_enabled(mode)
        assert lib.is_grad_enabled()


def test_set_grad_enabled_as_a_decorator_needs_its_mode():
    for lib in (minigrad, torch):
        with pytest.raises(TypeError, match="must be bool"):

            @lib.set_grad_enabled
            def f():  # pragma: no cover - never defined
                pass


def test_set_grad_enabled_switches_again_when_entered():
    def run(lib):
        mode = lib.set_grad_enabled(False)
        lib.set_grad_enabled(True)
        with mode:
            inside = lib.is_grad_enabled()
        return inside, lib.is_grad_enabled()

    assert same(run) == (False, True)


def test_modes_clone_themselves():
    def run(lib):
        result = []
        for mode in (lib.no_grad(), lib.enable_grad(), lib.set_grad_enabled(True), lib.inference_mode(False)):
            copy = mode.clone()
            with lib.no_grad(), copy:
                result.append(
                    (type(copy).__name__, copy is mode, lib.is_grad_enabled(), lib.is_inference_mode_enabled())
                )
        return result

    same(run)


def test_decorating_a_class_warns_and_runs_its_construction_in_the_mode():
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")

            @lib.no_grad()
            class Doubled:
                def __init__(self, x):
                    self.y = x * 2
                    self.mode = lib.is_grad_enabled()

        made = Doubled(_t(lib, [1.0]))
        messages = [(w.category.__name__, str(w.message)[:40]) for w in caught]
        return messages, made.y, made.y.requires_grad, made.mode, isinstance(Doubled, type)

    same(run)


def test_inference_mode_decorates_anything_but_a_bool():
    # PyTorch's inference_mode(0) is inference_mode()(0): a decorated "function", not a mode
    for lib in (minigrad, torch):
        with pytest.raises(TypeError, match="context manager"):
            with lib.inference_mode(0):
                pass
