"""More of torch.nn against PyTorch: ModuleDict, ParameterList, ParameterDict (and the rest of
ModuleList), the activations Hardtanh, ReLU6, Threshold, Hardswish, Hardsigmoid, Mish,
LogSigmoid, Softsign, Tanhshrink, GLU, PReLU, the losses SmoothL1Loss, HuberLoss, KLDivLoss, and
normalize, cosine_similarity, pairwise_distance.

Each numeric test runs the same snippet in both libraries (``same``) and compares values, first
and second derivatives (for every input and the upstream gradient) and the recorded nodes; the
edge values (the bounds of hardtanh, |x| = beta for smooth_l1, zeros in a kl_div target, a zero
vector in normalize) are pinned to numbers too, so that the tests say which side gets a gradient.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402
from minigrad import nn  # noqa: E402
from minigrad.nn import functional as F  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

# Every test runs on each device: on_device makes the factories (and so the modules' parameters)
# create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int = 0, low: float | None = None) -> np.ndarray:
    """The same values for both libraries: 3 * standard normal, or uniform in [low, low + 1)."""
    rng = np.random.default_rng(seed)
    return 3 * rng.standard_normal(shape) if low is None else rng.uniform(low, low + 1.0, shape)


def _leaf(lib, values, dtype: str = "float64"):
    return lib.tensor(np.asarray(values), dtype=getattr(lib, dtype), requires_grad=True)


def _derivatives(lib, out, inputs: list, second: bool = True, grad_nodes: bool = True):
    """``out``, its gradients for ``inputs`` under a fixed upstream gradient (made with a graph),
    and the gradients of a weighted sum of those: the second derivatives for the inputs and the
    upstream gradient (zeros where there is none). With ``grad_nodes``, also the nodes of the first
    gradients' graphs (the backward ops' own nodes: GluBackwardBackward0, ...)."""
    upstream = lib.tensor(_array(tuple(out.shape), 7), dtype=out.dtype, requires_grad=True)
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=second, allow_unused=True)
    grads = [lib.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]
    if not second:
        return out, grads
    nodes = [node_names(g) for g in grads] if grad_nodes else None
    total = sum((g * lib.tensor(_array(tuple(g.shape), 8 + k), dtype=g.dtype)).sum() for k, g in enumerate(grads))
    wrt = [*inputs, upstream]
    seconds = lib.autograd.grad(total, wrt, allow_unused=True)
    return out, grads, [lib.zeros_like(x) + (0 if g is None else g) for g, x in zip(seconds, wrt)], nodes


def torch_prints_like_us(device: str) -> None:
    """Skip a comparison of printed tensors on the GPU when PyTorch cannot make GPU tensors here."""
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here, so it cannot print a GPU tensor to compare with")


def _functional(lib):
    return lib.nn.functional


# ---------------------------------------------------------------------------------------------- activations
# Inputs on and around every bend: the bounds of hardtanh and relu6, +-3 of hardswish and
# hardsigmoid, the threshold 1.0 used below; 0 for prelu.
EDGES = [-7.0, -4.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 4.0, 6.0, 7.0]

ACTIVATIONS = {
    "hardtanh": lambda f, x: f.hardtanh(x),
    "hardtanh(-2, 3)": lambda f, x: f.hardtanh(x, -2.0, 3.0),
    "hardtanh(0.5, 0.5)": lambda f, x: f.hardtanh(x, 0.5, 0.5),
    "relu6": lambda f, x: f.relu6(x),
    "threshold": lambda f, x: f.threshold(x, 1.0, -2.0),
    "hardswish": lambda f, x: f.hardswish(x),
    "mish": lambda f, x: f.mish(x),
    "logsigmoid": lambda f, x: f.logsigmoid(x),
    "softsign": lambda f, x: f.softsign(x),
    "tanhshrink": lambda f, x: f.tanhshrink(x),
    "glu": lambda f, x: f.glu(x),
    "glu(dim=0)": lambda f, x: f.glu(x, 0),
}
# Built from elementary ops, as in PyTorch: their gradients' graphs are those ops' own backward
# graphs (abs, tanh), not compared here.
COMPOSITE = {"softsign", "tanhshrink"}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_values_derivatives_and_nodes(name, dtype):
    def run(lib):
        x = _leaf(lib, np.concatenate([EDGES, _array(12, 1)]).reshape(4, 6), dtype)
        out = ACTIVATIONS[name](_functional(lib), x)
        return _derivatives(lib, out, [x], grad_nodes=name not in COMPOSITE), node_names(out)

    same(run)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_hardsigmoid_values_and_gradient(dtype):
    """hardsigmoid's gradient is PyTorch's ``1.0f / 6.0f``: 1/6 rounded to float32, also in float64."""

    def run(lib):
        x = _leaf(lib, EDGES + [math.nan], dtype)
        out = _functional(lib).hardsigmoid(x)
        return _derivatives(lib, out, [x], second=False), node_names(out)

    same(run)
    x = _leaf(minigrad, [0.0])
    (grad,) = minigrad.autograd.grad(F.hardsigmoid(x), x)
    assert grad.item() == float(np.float32(1 / 6)) != 1 / 6


def test_hardsigmoid_gradient_cannot_be_differentiated_again():
    def run(lib):
        x = _leaf(lib, [0.5, -5.0])
        (grad,) = lib.autograd.grad(_functional(lib).hardsigmoid(x).sum(), x, create_graph=True)
        assert node_names(grad)[0] == "NotImplemented"
        grad.sum().backward()

    same_error(run, "derivative for aten::hardsigmoid_backward is not implemented")


def test_gradients_at_the_bends_are_pytorchs():
    """Which side of each bend gets the gradient, as numbers (and as PyTorch has it)."""

    def grad(fn, values):
        def run(lib):
            x = _leaf(lib, values)
            (g,) = lib.autograd.grad(fn(_functional(lib), x).sum(), x)
            return g

        return values_of(same(run))

    def values_of(plain):
        return plain[2].tolist()

    # hardtanh and relu6: nothing at either bound, and a nan lets the gradient through
    assert grad(lambda f, x: f.hardtanh(x), [-1.0, -0.999, 0.999, 1.0, math.nan]) == [0, 1, 1, 0, 1]
    assert grad(lambda f, x: f.relu6(x), [0.0, 1e-9, 6.0, 5.999]) == [0, 1, 0, 1]
    # threshold: nothing where the value was replaced (x <= threshold)
    assert grad(lambda f, x: f.threshold(x, 1.0, 5.0), [1.0, 1.000001, math.nan]) == [0, 1, 1]
    # hardswish: 0 up to -3 included, x/3 + 1/2 below 3, 1 from 3 on
    assert grad(lambda f, x: f.hardswish(x), [-3.0, -2.999999, 0.0, 3.0]) == pytest.approx([0, -0.4999997, 0.5, 1])
    # hardsigmoid: 1/6 strictly inside (-3, 3) only
    assert grad(lambda f, x: f.hardsigmoid(x), [-3.0, 3.0, math.nan]) == [0, 0, 0]
    # prelu: 0 takes the weight's slope
    assert grad(lambda f, x: f.prelu(x, x.new_tensor([0.25])), [0.0, 1e-9, -1e-9]) == [0.25, 1, 0.25]


def test_second_derivatives_at_the_bends_are_pytorchs():
    def second(fn, values):
        def run(lib):
            x = _leaf(lib, values)
            (g,) = lib.autograd.grad(fn(_functional(lib), x).sum(), x, create_graph=True)
            return lib.autograd.grad(g.sum(), x)[0]

        return same(run)[2].tolist()

    assert second(lambda f, x: f.hardswish(x), [-3.0, -1.0, 2.9, 3.0]) == pytest.approx([0, 1 / 3, 1 / 3, 0])
    assert second(lambda f, x: f.hardtanh(x), [-1.0, 0.0, 1.0]) == [0, 0, 0]
    assert second(lambda f, x: f.logsigmoid(x), [0.0]) == [-0.25]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(
    "input_shape, weight_shape",
    [((4, 3), (1,)), ((4, 3), (3,)), ((2, 3, 5), (3,)), ((2, 3, 2, 2), (3,)), ((5,), (1,)), ((), (1,)), ((4, 3), ())],
)
def test_prelu_values_derivatives_and_nodes(input_shape, weight_shape, dtype):
    """The weight is viewed to broadcast along the channel dim (ViewBackward0) unless it already has
    the input's dims, as in PyTorch. Second derivatives away from 0 (see the next test)."""

    def run(lib):
        x = _leaf(lib, _array(input_shape, 2) + 0.1, dtype)
        w = _leaf(lib, _array(weight_shape, 3, low=0.1), dtype)
        out = _functional(lib).prelu(x, w)
        return _derivatives(lib, out, [x, w]), node_names(out)

    same(run)


def test_prelu_second_derivative_at_zero_is_consistent_with_its_gradient():
    """PyTorch's double backward of prelu tests ``x >= 0`` where its gradient tests ``x > 0``, so at
    x = 0 its second derivatives contradict its own first derivative (d grad/d upstream is 1 there,
    yet the gradient is 0.25 * upstream). Ours differentiate the gradient itself."""
    x = _leaf(minigrad, [-1.0, 0.0, 2.0])
    w = _leaf(minigrad, [0.25])
    upstream = _leaf(minigrad, [1.0, 2.0, 3.0])
    gx, gw = minigrad.autograd.grad(F.prelu(x, w), [x, w], upstream, create_graph=True)
    assert gx.tolist() == [0.25, 0.5, 3.0] and gw.tolist() == [-1.0]
    # the gradient is linear in the upstream gradient: its derivative is the slope itself
    assert minigrad.autograd.grad(gx.sum(), upstream, retain_graph=True)[0].tolist() == [0.25, 0.25, 1.0]
    assert minigrad.autograd.grad(gx.sum(), w, retain_graph=True)[0].tolist() == [3.0]  # -1: 1, 0: 2
    assert minigrad.autograd.gradgradcheck(
        lambda a, b: F.prelu(a, b), (_leaf(minigrad, [-1.5, 0.7, 2.0]), _leaf(minigrad, [0.3]))
    )


INPLACE = {
    "hardtanh": lambda f, x: f.hardtanh(x, -0.5, 0.7, inplace=True),
    "relu6": lambda f, x: f.relu6(x, inplace=True),
    "threshold": lambda f, x: f.threshold(x, 0.1, 20.0, inplace=True),
    "hardswish": lambda f, x: f.hardswish(x, inplace=True),
    "hardsigmoid": lambda f, x: f.hardsigmoid(x, inplace=True),
    "mish": lambda f, x: f.mish(x, inplace=True),
}


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_activations_keep_the_input_as_it_was(name):
    """In place, the node saves the input from before the change (PyTorch keeps a copy), so a later
    change of the result does not break backward; the in-place threshold is ThresholdBackward1."""

    def run(lib):
        x = _leaf(lib, [-1.0, 0.05, 0.3, 2.0, 7.0], "float32")
        y = x * 1
        out = INPLACE[name](_functional(lib), y)
        assert out is y and y._version == 1
        nodes = node_names(out)
        out.add_(1)
        out.sum().backward()
        return out, x.grad, nodes

    same(run)


def test_inplace_activation_of_a_leaf_that_requires_grad_fails():
    same_error(lambda lib: _functional(lib).hardtanh(_leaf(lib, [1.0]), inplace=True), "leaf Variable")


@pytest.mark.parametrize(
    "fn",
    [
        lambda f, x: f.hardtanh(x),
        lambda f, x: f.hardtanh(x, -1.5, 1.5),
        lambda f, x: f.relu6(x),
        lambda f, x: f.threshold(x, 1, 5),
        lambda f, x: f.softsign(x),
        lambda f, x: f.tanhshrink(x),
    ],
)
def test_activations_that_take_integers(fn):
    same(lambda lib: fn(_functional(lib), lib.tensor([-3, 0, 1, 3, 7])))


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda f, x: f.mish(x), "\"mish_cpu\" not implemented for 'Long'"),
        (lambda f, x: f.hardswish(x), "\"hardswish_cpu\" not implemented for 'Long'"),
        (lambda f, x: f.hardsigmoid(x), "\"hardsigmoid_cpu\" not implemented for 'Long'"),
        (lambda f, x: f.logsigmoid(x), "\"log_sigmoid_cpu\" not implemented for 'Long'"),
        (lambda f, x: f.glu(x), "\"glu_cpu\" not implemented for 'Long'"),
    ],
)
def test_activations_that_refuse_integers(fn, words):
    same_error(lambda lib: fn(_functional(lib), lib.tensor([[-3, 0], [1, 3]])), words)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib, f: f.hardtanh(lib.zeros(2), 1.0, -1.0), "min_val cannot be greater than max_val"),
        (lambda lib, f: f.glu(lib.zeros(2, 3)), "Halving dimension must be even, but dimension 1 is size 3"),
        (lambda lib, f: f.glu(lib.zeros(3, 2), 0), "Halving dimension must be even, but dimension 0 is size 3"),
        (lambda lib, f: f.glu(lib.tensor(1.0)), "glu does not support scalars because halving size must be even"),
        (lambda lib, f: f.glu(lib.zeros(2, 4), 2), "Dimension out of range (expected to be in range of [-2, 1]"),
        (lambda lib, f: f.prelu(lib.zeros(2, 3), lib.zeros(2)), "Found parameter numbers = 2 and channel size = 3."),
        (lambda lib, f: f.prelu(lib.zeros(3), lib.zeros(3)), "Found parameter numbers = 3 and channel size = 1."),
        (lambda lib, f: f.prelu(lib.tensor(1.0), lib.zeros(2)), "Not allow zero-dim input tensor."),
        (lambda lib, f: f.prelu(lib.zeros(2, 3), lib.zeros(3, 1)), "Expected `weight` to be a scalar or 1D tensor"),
        (
            lambda lib, f: f.prelu(lib.zeros(2, 3), lib.zeros(3, dtype=lib.float64)),
            "prelu: Type promoting not supported. Got Float and Double",
        ),
        (lambda lib, f: f.prelu(lib.tensor([1, 2]), lib.tensor([1])), "\"prelu_cpu\" not implemented for 'Long'"),
    ],
)
def test_activation_argument_errors(fn, words):
    same_error(lambda lib: fn(lib, _functional(lib)), words)


def test_glu_of_an_empty_batch():
    same(lambda lib: _functional(lib).glu(lib.zeros(0, 4)))


MODULES = [
    lambda m: m.Hardtanh(),
    lambda m: m.Hardtanh(-2, 3),
    lambda m: m.Hardtanh(-2.0, 3.0, True),
    lambda m: m.ReLU6(),
    lambda m: m.ReLU6(inplace=True),
    lambda m: m.Threshold(0.1, 20),
    lambda m: m.Threshold(0.1, 20.0, inplace=True),
    lambda m: m.Hardswish(),
    lambda m: m.Hardswish(inplace=True),
    lambda m: m.Hardsigmoid(inplace=True),
    lambda m: m.Mish(),
    lambda m: m.Mish(inplace=True),
    lambda m: m.LogSigmoid(),
    lambda m: m.Softsign(),
    lambda m: m.Tanhshrink(),
    lambda m: m.GLU(),
    lambda m: m.GLU(0),
    lambda m: m.PReLU(),
    lambda m: m.PReLU(3, init=0.1),
    lambda m: m.SmoothL1Loss(),
    lambda m: m.SmoothL1Loss(reduction="sum", beta=0.5),
    lambda m: m.HuberLoss(delta=2.0),
    lambda m: m.KLDivLoss(),
    lambda m: m.KLDivLoss(reduction="batchmean", log_target=True),
    lambda m: m.CosineSimilarity(),
    lambda m: m.CosineSimilarity(0, 1e-6),
    lambda m: m.PairwiseDistance(),
    lambda m: m.PairwiseDistance(1, 1e-3, True),
]


@pytest.mark.parametrize("build", MODULES)
def test_module_reprs_and_attributes_match_torch(build):
    ours, theirs = build(nn), build(torch.nn)
    assert repr(ours) == repr(theirs)

    def public(module):  # its own attributes, with their types (0.0 is not 0 here)
        return {k: (type(v), v) for k, v in vars(module).items() if not k.startswith("_") and k != "training"}

    assert public(ours) == public(theirs)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]


def test_modules_print_inside_a_sequential_like_torch():
    def build(m):
        return m.Sequential(m.Linear(4, 4), m.PReLU(4), m.Hardswish(), m.GLU(), m.ReLU6(True), m.Threshold(0, 1))

    assert repr(build(nn)) == repr(build(torch.nn))


@pytest.mark.parametrize(
    "build, shape",
    [
        (lambda m: m.Hardtanh(-2.0, 3.0), (3, 4)),
        (lambda m: m.ReLU6(), (3, 4)),
        (lambda m: m.Threshold(0.5, -1.0), (3, 4)),
        (lambda m: m.Hardswish(), (3, 4)),
        (lambda m: m.Hardsigmoid(), (3, 4)),
        (lambda m: m.Mish(), (3, 4)),
        (lambda m: m.LogSigmoid(), (3, 4)),
        (lambda m: m.Softsign(), (3, 4)),
        (lambda m: m.Tanhshrink(), (3, 4)),
        (lambda m: m.GLU(1), (3, 4)),
        (lambda m: m.PReLU(), (3, 4)),
        (lambda m: m.PReLU(4, init=0.1), (3, 4, 2)),
    ],
)
def test_modules_compute_their_functional(build, shape):
    def run(lib):
        x = lib.tensor(_array(shape, 4), dtype=lib.float32, requires_grad=True)
        module = build(lib.nn)
        out = module(x)
        out.backward(lib.ones_like(out))
        return out, x.grad, [p.grad for p in module.parameters()], node_names(out)

    same(run)


def test_module_argument_errors_and_warnings():
    same_error(lambda lib: lib.nn.Hardtanh(1.0, -1.0), "max_val (-1.0) must be greater than min_val (1.0)")
    same_error(lambda lib: lib.nn.Hardtanh(1.0, 1.0), "max_val (1.0) must be greater than min_val (1.0)")
    same_error(lambda lib: lib.nn.HuberLoss(delta="1"), "delta must be a float or int, got: <class 'str'>")
    for lib in (nn, torch.nn):
        with pytest.warns(FutureWarning, match="keyword argument `min_value` is deprecated and renamed to `min_val`"):
            module = lib.Hardtanh(min_value=-2.0)
        assert module.min_val == -2.0


def test_prelu_module_learns_its_weight_like_torch():
    def run(lib):
        module = lib.nn.PReLU(3, init=0.1, dtype=lib.float64)
        assert list(module.state_dict()) == ["weight"] and module.weight.is_leaf
        optimizer = lib.optim.SGD(module.parameters(), lr=0.5)
        x = lib.tensor(_array((4, 3, 2), 5), dtype=lib.float64)
        for _ in range(2):
            optimizer.zero_grad()
            module(x).pow(2).sum().backward()
            optimizer.step()
        return module.weight, module.weight.grad, node_names(module(x))

    same(run)
    module = nn.PReLU(2, init=0.3)
    with minigrad.no_grad():
        module.weight.fill_(1.0)
    module.reset_parameters()
    assert module.weight.tolist() == pytest.approx([0.3, 0.3])


def test_gradcheck_and_gradgradcheck_activations():
    x = _leaf(minigrad, _array((3, 4), 6) + 0.01)
    for fn in [F.hardswish, F.mish, F.logsigmoid, F.softsign, F.tanhshrink, F.glu, lambda a: F.glu(a[:2], 0)]:
        assert minigrad.autograd.gradcheck(fn, (x,))
        assert minigrad.autograd.gradgradcheck(fn, (x,))
    inside = _leaf(minigrad, [-0.9, -0.2, 0.4, 0.8])
    for fn in [F.hardtanh, lambda a: F.threshold(a, -0.5, 3.0), F.hardsigmoid]:
        assert minigrad.autograd.gradcheck(fn, (inside,))


# ---------------------------------------------------------------------------------------------- smooth_l1, huber
REDUCTIONS = ["mean", "sum", "none"]
# The differences input - target: on both sides of the bend at 1 (for beta = delta = 1), exactly
# on it, and far out; and random ones.
BENDS = np.array([-3.0, -1.0, -0.999, -0.2, 0.0, 0.3, 0.999, 1.0, 1.001, 4.0])


def _pair_of_inputs(lib, dtype, shape=(2, 10)):
    target = _array(shape, 9)
    input = target + np.resize(np.concatenate([BENDS, _array(10, 10)]), shape)
    return _leaf(lib, input, dtype), _leaf(lib, target, dtype)


LOSSES = {
    "smooth_l1": lambda f, x, t, r: f.smooth_l1_loss(x, t, reduction=r),
    "smooth_l1(beta=0.5)": lambda f, x, t, r: f.smooth_l1_loss(x, t, reduction=r, beta=0.5),
    "smooth_l1(beta=0)": lambda f, x, t, r: f.smooth_l1_loss(x, t, reduction=r, beta=0.0),
    "huber": lambda f, x, t, r: f.huber_loss(x, t, reduction=r),
    "huber(delta=2.5)": lambda f, x, t, r: f.huber_loss(x, t, reduction=r, delta=2.5),
}
COMPOSITE_LOSSES = {"smooth_l1(beta=0)"}  # l1_loss: abs and mean, whose backward graphs are not compared


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", LOSSES)
def test_bend_losses_values_derivatives_and_nodes(name, reduction, dtype):
    def run(lib):
        x, t = _pair_of_inputs(lib, dtype)
        out = LOSSES[name](_functional(lib), x, t, reduction)
        return _derivatives(lib, out, [x, t], grad_nodes=name not in COMPOSITE_LOSSES), node_names(out)

    same(run)


@pytest.mark.parametrize("name", LOSSES)
def test_bend_losses_broadcast_their_target_with_a_warning(name):
    def run(lib):
        x, t = _pair_of_inputs(lib, "float64")
        with pytest.warns(UserWarning, match="Using a target size .* that is different to the input size"):
            out = LOSSES[name](_functional(lib), x, t[0], "sum")
        # the target is expanded: ExpandBackward0
        return _derivatives(lib, out, [x, t], grad_nodes=name not in COMPOSITE_LOSSES), node_names(out)

    same(run)
    with pytest.warns(UserWarning, match="Using a target size"):
        same_error(
            lambda lib: _functional(lib).smooth_l1_loss(lib.zeros(2, 3), lib.zeros(2, 4)),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
        )


def test_smooth_l1_at_the_bend():
    """At |input - target| = beta: value beta / 2 from either formula, slope +-1, and a second
    derivative of 0 (1/beta only strictly inside)."""

    def run(lib):
        x = _leaf(lib, [0.5, -0.5, 0.25])
        out = _functional(lib).smooth_l1_loss(x, lib.zeros(3, dtype=lib.float64), reduction="none", beta=0.5)
        (g,) = lib.autograd.grad(out.sum(), x, create_graph=True)
        return out, g, lib.autograd.grad(g.sum(), x)[0]

    out, g, gg = same(run)
    assert out[2].tolist() == [0.25, 0.25, 0.0625] and g[2].tolist() == [1, -1, 0.5] and gg[2].tolist() == [0, 0, 2]


def test_huber_is_delta_times_smooth_l1():
    x, t = _pair_of_inputs(minigrad, "float64")
    for delta in (0.5, 1.0, 3.0):
        huber = F.huber_loss(x, t, reduction="none", delta=delta)
        smooth = F.smooth_l1_loss(x, t, reduction="none", beta=delta)
        np.testing.assert_allclose(huber.detach().cpu().numpy(), delta * smooth.detach().cpu().numpy(), rtol=1e-12)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_huber_loss_with_a_weight(reduction):
    def run(lib):
        x, t = _pair_of_inputs(lib, "float64")
        w = lib.tensor(_array(x.shape, 11, low=0.5), dtype=lib.float64)
        out = _functional(lib).huber_loss(x, t, reduction=reduction, delta=0.7, weight=w)
        return _derivatives(lib, out, [x, t], grad_nodes=False), node_names(out)

    same(run)


def _mixed(lib, dtypes):
    x, t = _pair_of_inputs(lib, "float64")
    return (a.detach().to(getattr(lib, d)).requires_grad_() for a, d in zip((x, t), dtypes))


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32")])
def test_smooth_l1_of_mixed_dtypes_is_promoted(dtypes):
    def run(lib):
        x, t = _mixed(lib, dtypes)
        out = _functional(lib).smooth_l1_loss(x, t, reduction="none")
        out.sum().backward()
        return out, x.grad, t.grad

    same(run)


def test_huber_of_mixed_dtypes_has_the_inputs_dtype():
    """PyTorch's huber_loss of a float32 input and a float64 target is float32; its backward then
    fails ("Found dtype Double but expected Float"). minigrad's gives each input its gradient."""
    same(lambda lib: _functional(lib).huber_loss(*_mixed(lib, ("float32", "float64"))))
    x, t = _mixed(minigrad, ("float32", "float64"))
    F.huber_loss(x, t).backward()
    assert x.grad.dtype is minigrad.float32 and t.grad.dtype is minigrad.float64
    np.testing.assert_allclose(x.grad.cpu().numpy(), -t.grad.cpu().numpy(), rtol=1e-6)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib, f: f.smooth_l1_loss(lib.zeros(2), lib.zeros(2), beta=-1.0), "does not support negative values"),
        (lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), delta=0.0), "does not support non-positive values"),
        (lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), delta=-1.0), "does not support non-positive values"),
        (lambda lib, f: f.smooth_l1_loss(lib.zeros(2), lib.zeros(2), reduction="bad"), "bad is not a valid value"),
        (lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), reduction="bad"), "bad is not a valid value"),
        (
            lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), reduction="bad", weight=lib.ones(2)),
            "Invalid reduction mode: bad. Expected one of 'none', 'mean', 'sum'.",
        ),
        (lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), weight=lib.ones(3)), "Weights and input must have"),
        (lambda lib, f: f.smooth_l1_loss(lib.tensor([1]), lib.tensor([2])), '"smooth_l1_cpu" not implemented for'),
        (lambda lib, f: f.huber_loss(lib.tensor([1]), lib.tensor([2])), "\"huber_cpu\" not implemented for 'Long'"),
        (lambda lib, f: f.smooth_l1_loss(lib.tensor([1]), lib.tensor([2]), beta=0.0), "mean(): could not infer"),
    ],
)
def test_bend_loss_errors(fn, words):
    same_error(lambda lib: fn(lib, _functional(lib)), words)


def test_smooth_l1_legacy_reduction_arguments_warn():
    def run(lib):
        x, t = _pair_of_inputs(lib, "float64")
        with pytest.warns(
            UserWarning, match="size_average and reduce args will be deprecated, please use reduction='sum'"
        ):
            return _functional(lib).smooth_l1_loss(x, t, size_average=False)

    same(run)


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.SmoothL1Loss(beta=0.5),
        lambda m: m.SmoothL1Loss(reduction="none"),
        lambda m: m.SmoothL1Loss(size_average=False),
        lambda m: m.HuberLoss(reduction="sum", delta=0.5),
    ],
)
def test_bend_loss_modules(build):
    def run(lib):
        x, t = _pair_of_inputs(lib, "float32")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # size_average's deprecation
            module = build(lib.nn)
        out = module(x, t)
        out.backward(lib.ones_like(out))
        return out, x.grad, t.grad, module.reduction

    same(run)


# ---------------------------------------------------------------------------------------------- kl_div
def _log_probabilities(lib, shape, seed, dtype="float64"):
    p = _array(shape, seed, low=0.1)
    return _leaf(lib, np.log(p / p.sum(-1, keepdims=True)), dtype)


def _probabilities(lib, shape, seed, dtype="float64", zeros: bool = True):
    p = _array(shape, seed, low=0.1)
    if zeros:
        p[..., 0] = 0.0  # a zero probability: its term is 0, not 0 * log 0 = nan
    return _leaf(lib, p / p.sum(-1, keepdims=True), dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("reduction", ["batchmean", "sum", "none", "mean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_values_derivatives_and_nodes(reduction, log_target, dtype):
    """With a target that requires grad too: XlogyBackward0 (and a nan gradient for a zero target
    probability, d/dt xlogy(t, t) = log t + 1, as in PyTorch)."""

    def run(lib):
        x = _log_probabilities(lib, (3, 4), 12, dtype)
        t = _log_probabilities(lib, (3, 4), 13, dtype) if log_target else _probabilities(lib, (3, 4), 13, dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the 'mean' warning, tested below
            out = _functional(lib).kl_div(x, t, reduction=reduction, log_target=log_target)
        # (built from elementary ops: the gradients' graphs are theirs, not compared here)
        return _derivatives(lib, out, [x, t], grad_nodes=False), node_names(out)

    same(run)


def test_kl_div_with_zeros_in_the_target():
    def run(lib):
        x = _log_probabilities(lib, (2, 3), 14)
        t = lib.tensor([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]], dtype=lib.float64)
        out = _functional(lib).kl_div(x, t, reduction="none")
        out.sum().backward()
        return out, x.grad

    out, grad = same(run)
    assert out[2].tolist()[0][0] == 0.0 and out[2].tolist()[1][1:] == [0.0, 0.0]  # no nan from 0 * log 0
    assert grad[2].tolist() == [[-0.0, -0.5, -0.5], [-1.0, -0.0, -0.0]]


def test_xlogy_behind_kl_div_matches_torch_xlogy():
    """kl_div's ``xlogy(x, y)``: 0 where x is 0 (unless y is nan); its derivative for x is
    ``xlogy(grad, y)``, 0 where x is 0 and y <= 0, for y ``x / y``; the nodes are PyTorch's."""
    x = [[0.0, 0.0, 0.3, 0.5], [0.0, 2.0, -1.0, 0.0]]
    y = [[0.2, 0.0, 0.0, -0.5], [3.0, math.nan, 0.0, 0.0]]

    def run(lib):
        a, b = _leaf(lib, x), _leaf(lib, y)
        out = lib.xlogy(a, b)
        return _derivatives(lib, out, [a, b]), node_names(out)

    same(run)


def test_kl_div_batchmean_is_the_divergence_per_sample():
    p = minigrad.tensor([[0.5, 0.5], [0.9, 0.1]], dtype=minigrad.float64)
    q = minigrad.tensor([[0.25, 0.75], [0.5, 0.5]], dtype=minigrad.float64)
    expected = sum((a * math.log(a / b)) for row_p, row_q in zip(p.tolist(), q.tolist()) for a, b in zip(row_p, row_q))
    loss = F.kl_div(q.log(), p, reduction="batchmean")
    assert loss.item() == pytest.approx(expected / 2, rel=1e-12)
    assert F.kl_div(q.log(), p.log(), reduction="batchmean", log_target=True).item() == pytest.approx(expected / 2)
    # a 1-D input is one sample of its first dim's size: batchmean divides by that
    same(lambda lib: lib.nn.functional.kl_div(lib.tensor([-1.0, -2.0]), lib.tensor([0.5, 0.5]), reduction="batchmean"))


def test_kl_div_warnings():
    def run(lib):
        x, t = _log_probabilities(lib, (2, 3), 15), _probabilities(lib, (2, 3), 16)
        f = _functional(lib)
        with pytest.warns(UserWarning, match="reduction: 'mean' divides the total loss by both the batch size"):
            mean = f.kl_div(x, t)
        with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
            legacy = f.kl_div(x, t, size_average=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            quiet = f.kl_div(x, t, reduction="batchmean"), f.kl_div(x, t, reduction="sum")
        return mean, legacy, quiet

    same(run)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib, f: f.kl_div(lib.tensor([1, 2]), lib.tensor([1, 2]), reduction="sum"), "Integral inputs"),
        (lambda lib, f: f.kl_div(lib.zeros(2), lib.tensor([1, 2]), reduction="sum"), "Integral inputs not supported"),
        (lambda lib, f: f.kl_div(lib.zeros(2), lib.zeros(2), reduction="bad"), "bad is not a valid value"),
    ],
)
def test_kl_div_errors(fn, words):
    same_error(lambda lib: fn(lib, _functional(lib)), words)


def test_kl_div_broadcasts_and_the_module_matches():
    def run(lib):
        x = _log_probabilities(lib, (2, 3), 17)
        t = _probabilities(lib, (4, 1, 3), 18, zeros=False)
        broadcast = _functional(lib).kl_div(x, t, reduction="none")
        module = lib.nn.KLDivLoss(reduction="batchmean", log_target=True)
        return broadcast, module(x, _log_probabilities(lib, (2, 3), 19)), module.log_target

    same(run)


# ---------------------------------------------------------------------------------------------- distances
NORMALIZE = {
    "default": lambda f, x: f.normalize(x),
    "p=1, dim=0": lambda f, x: f.normalize(x, p=1, dim=0),
    "p=inf": lambda f, x: f.normalize(x, p=math.inf),
    "p=3, dim=-1, eps": lambda f, x: f.normalize(x, 3, -1, 0.5),
}
# The norm's backward for p = 1 and inf goes through sign(), whose own backward node is not
# PyTorch's (SgnBackward0): their gradients' graphs are not compared.
SIGNED = {"p=1, dim=0", "p=inf", "p=1"}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", NORMALIZE)
def test_normalize_values_derivatives_and_nodes(name, dtype):
    def run(lib):
        x = _leaf(lib, _array((3, 4), 20), dtype)
        out = NORMALIZE[name](_functional(lib), x)
        return _derivatives(lib, out, [x], grad_nodes=name not in SIGNED), node_names(out)

    same(run)


def test_normalize_of_a_zero_vector():
    """The norm is kept at least eps: a zero row stays zero, and its gradient is grad / eps."""

    def run(lib):
        x = _leaf(lib, [[0.0, 0.0], [3.0, 4.0]])
        out = _functional(lib).normalize(x)
        out.backward(lib.tensor([[1.0, 2.0], [1.0, 1.0]], dtype=lib.float64))
        return out, x.grad

    out, grad = same(run)
    assert out[2].tolist() == [[0.0, 0.0], [0.6, 0.8]]
    assert grad[2].tolist()[0] == [1e12, 2e12]


def test_normalize_errors():
    same_error(lambda lib: _functional(lib).normalize(lib.tensor([[1, 2]])), "Expected a floating point")
    same_error(lambda lib: _functional(lib).normalize(lib.tensor([3.0, 4.0])), "Dimension out of range")
    same(lambda lib: _functional(lib).normalize(lib.tensor([3.0, 4.0]), dim=0))


COSINE = {
    "rows": ((3, 4), (3, 4), {}),
    "dim=0": ((3, 4), (3, 4), {"dim": 0}),
    "broadcast": ((3, 4), (4,), {"dim": -1}),
    "broadcast both": ((3, 1, 4), (2, 4), {"dim": 2}),
    "eps": ((2, 3), (2, 3), {"eps": 0.5}),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", COSINE)
def test_cosine_similarity_values_derivatives_and_nodes(name, dtype):
    """Both inputs are expanded when their shapes differ, and the norms are cloned then clamped
    outside autograd, as in PyTorch: CloneBackward0 after LinalgVectorNormBackward0."""
    shape1, shape2, kwargs = COSINE[name]

    def run(lib):
        x1, x2 = _leaf(lib, _array(shape1, 21), dtype), _leaf(lib, _array(shape2, 22), dtype)
        out = _functional(lib).cosine_similarity(x1, x2, **kwargs)
        return _derivatives(lib, out, [x1, x2]), node_names(out)

    same(run)


def test_cosine_similarity_of_a_zero_vector_and_small_norms():
    """The norms are clamped to eps in place, not through autograd: the gradient flows as if unclamped."""

    def run(lib):
        x1 = _leaf(lib, [[0.0, 0.0, 0.0], [1e-9, 0.0, 0.0], [1.0, 2.0, 2.0]])
        x2 = _leaf(lib, [[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [2.0, 1.0, -2.0]])
        out = _functional(lib).cosine_similarity(x1, x2)
        out.sum().backward()
        return out, x1.grad, x2.grad

    out, grad1, _ = same(run)
    assert out[2].tolist()[:2] == [0.0, pytest.approx(0.1)]  # 1e-9 / max(1e-9, 1e-8)
    assert grad1[2].tolist()[0] == pytest.approx([1e8 / math.sqrt(3)] * 3)


def test_cosine_similarity_dtypes_and_errors():
    same(lambda lib: _functional(lib).cosine_similarity(lib.tensor([[1, 2, 3]]), lib.tensor([[1.0, 0.5, -1.0]])))
    same(lambda lib: _functional(lib).cosine_similarity(lib.ones(2, 3), lib.ones(2, 3, dtype=lib.float64)))
    same(lambda lib: _functional(lib).cosine_similarity(lib.tensor(2.0), lib.tensor(-3.0), dim=0))
    same_error(
        lambda lib: _functional(lib).cosine_similarity(lib.tensor([[1, 2]]), lib.tensor([[1, 2]])),
        "expected common dtype to be floating point, yet common dtype is Long",
    )
    same_error(lambda lib: _functional(lib).cosine_similarity(lib.ones(3), lib.ones(3)), "Dimension out of range")
    same_error(
        lambda lib: _functional(lib).cosine_similarity(lib.ones(2, 3), lib.ones(2, 4)),
        "The size of tensor a (3) must match the size of tensor b (4)",
    )


PAIRWISE = {
    "rows": ((3, 4), (3, 4), {}),
    "broadcast": ((3, 4), (4,), {}),
    "p=1": ((3, 4), (3, 4), {"p": 1}),
    "p=3, keepdim": ((3, 4), (1, 4), {"p": 3, "keepdim": True}),
    "p=inf": ((3, 4), (3, 4), {"p": math.inf}),
    "vectors": ((5,), (5,), {}),
    "numbers": ((), (), {"eps": 0.0}),
    "eps": ((2, 3), (2, 3), {"eps": 0.5}),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", PAIRWISE)
def test_pairwise_distance_values_derivatives_and_nodes(name, dtype):
    """PyTorch's C++ ``norm(x1 - x2 + eps, p, -1)``: NormBackward1 after AddBackward1."""
    shape1, shape2, kwargs = PAIRWISE[name]

    def run(lib):
        x1, x2 = _leaf(lib, _array(shape1, 23), dtype), _leaf(lib, _array(shape2, 24), dtype)
        out = _functional(lib).pairwise_distance(x1, x2, **kwargs)
        return _derivatives(lib, out, [x1, x2], grad_nodes=name not in SIGNED | {"p=inf"}), node_names(out)

    same(run)


def test_pairwise_distance_of_integers_and_equal_points():
    same(lambda lib: _functional(lib).pairwise_distance(lib.tensor([[1, 2, 3]]), lib.tensor([[2, 2, 2]])))

    def run(lib):
        x = _leaf(lib, [[1.0, 2.0]])
        out = _functional(lib).pairwise_distance(x, x.detach())
        out.sum().backward()
        return out, x.grad

    out, grad = same(run)  # eps keeps the distance of equal points off 0, so the gradient is finite
    assert out[2].tolist() == pytest.approx([math.sqrt(2) * 1e-6])
    assert grad[2].tolist()[0] == pytest.approx([0.5**0.5] * 2)
    same_error(
        lambda lib: _functional(lib).pairwise_distance(lib.ones(2, 3), lib.ones(2, 4)),
        "The size of tensor a (3) must match the size of tensor b (4)",
    )


@pytest.mark.parametrize(
    "build",
    [lambda m: m.CosineSimilarity(), lambda m: m.CosineSimilarity(0, 0.5), lambda m: m.PairwiseDistance(1, 0.1, True)],
)
def test_distance_modules(build):
    def run(lib):
        x1, x2 = _leaf(lib, _array((3, 4), 25)), _leaf(lib, _array((3, 4), 26))
        out = build(lib.nn)(x1, x2)
        out.sum().backward()
        return out, x1.grad, x2.grad

    same(run)


def test_gradcheck_and_gradgradcheck_losses_and_distances():
    x, t = _pair_of_inputs(minigrad, "float64", (2, 5))
    x = (x + 0.01).detach().requires_grad_()  # off the bends, where finite differences are smooth
    check, checktwice = minigrad.autograd.gradcheck, minigrad.autograd.gradgradcheck
    for fn in [
        lambda a, b: F.smooth_l1_loss(a, b, beta=0.8),
        lambda a, b: F.huber_loss(a, b, reduction="none", delta=1.3),
        lambda a, b: F.cosine_similarity(a, b),
        lambda a, b: F.pairwise_distance(a, b, p=3),
        lambda a, b: F.normalize(a) * b,
    ]:
        assert check(fn, (x, t)) and checktwice(fn, (x, t))
    logp = _log_probabilities(minigrad, (2, 3), 27)
    p = _probabilities(minigrad, (2, 3), 28, zeros=False)
    assert check(lambda a, b: F.kl_div(a, b, reduction="batchmean"), (logp, p))
    assert checktwice(lambda a, b: F.kl_div(a, b, reduction="sum"), (logp, p))


# ---------------------------------------------------------------------------------------------- ModuleDict
def _module_dict(m):
    return m.ModuleDict({"encode": m.Linear(3, 4), "act": m.ReLU(), "decode": m.Linear(4, 2, bias=False)})


class Holder:
    """A module holding a container, built the same way in both libraries."""

    @staticmethod
    def build(m, container):
        holder = m.Module()
        holder.stem = m.Linear(2, 3)
        holder.parts = container
        return holder


def test_module_dict_registers_its_modules_like_torch():
    ours, theirs = Holder.build(nn, _module_dict(nn)), Holder.build(torch.nn, _module_dict(torch.nn))
    assert repr(ours) == repr(theirs)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert (
        list(ours.state_dict())
        == list(theirs.state_dict())
        == [
            "stem.weight",
            "stem.bias",
            "parts.encode.weight",
            "parts.encode.bias",
            "parts.decode.weight",
        ]
    )


def test_module_dict_as_a_dict_like_torch():
    def run(lib):
        d = _module_dict(lib.nn)
        seen = [len(d), list(d), list(d.keys()), [type(m).__name__ for m in d.values()]]
        seen.append([(k, type(m).__name__) for k, m in d.items()])
        seen.append(["act" in d, "other" in d, d["act"] is d.act])
        d["act"] = lib.nn.Tanh()  # replaced where it was
        d.update([("norm", lib.nn.Identity()), ("act", lib.nn.Sigmoid())])
        d.update(OrderedDict([("z", lib.nn.ReLU()), ("a", lib.nn.ReLU())]))
        seen.append(repr(d))
        popped = d.pop("encode")
        del d["z"]
        seen.append([type(popped).__name__, list(d), [n for n, _ in d.named_parameters()]])
        other = lib.nn.ModuleDict(d)  # from another ModuleDict
        d.clear()
        seen.append([len(d), list(other), repr(lib.nn.ModuleDict())])
        return seen

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda m: m.ModuleDict({1: m.ReLU()}), "module name should be a string. Got int"),
        (lambda m: m.ModuleDict({"a": 5}), "int is not a Module subclass"),
        (lambda m: m.ModuleDict().update(5), "ModuleDict.update should be called with an iterable"),
        (lambda m: m.ModuleDict().update([5]), "ModuleDict update sequence element #0 should be Iterable; isint"),
        (lambda m: m.ModuleDict([("a", m.ReLU(), 1)]), "ModuleDict update sequence element #0 has length 3"),
        (lambda m: m.ModuleDict()["missing"], "missing"),
        (lambda m: m.ModuleDict().pop("missing"), "missing"),
        (lambda m: m.ModuleDict({"a.b": m.ReLU()}), 'contain "."'),
        (lambda m: m.ModuleDict({"keys": m.ReLU()}), "attribute 'keys' already exists"),
        (lambda m: m.ModuleDict({"a": m.ReLU()})(1), 'Module [ModuleDict] is missing the required "forward"'),
    ],
)
def test_module_dict_errors(fn, words):
    same_error(lambda lib: fn(lib.nn), *words.split("|"))


def test_module_dict_moves_casts_saves_loads_and_zeroes_its_modules():
    source, target = _module_dict(nn), _module_dict(nn)
    assert source.to(minigrad.float64) is source
    assert all(p.dtype is minigrad.float64 and p.is_leaf for p in source.parameters())
    source["encode"](minigrad.ones(1, 3, dtype=minigrad.float64)).sum().backward()
    assert source["encode"].weight.grad is not None
    source.zero_grad()
    assert all(p.grad is None for p in source.parameters())
    target.double().load_state_dict(source.state_dict())
    for (name, a), b in zip(source.named_parameters(), target.parameters()):
        assert a.tolist() == b.tolist(), name
    clone = copy.deepcopy(source)
    assert list(clone.keys()) == list(source.keys()) and clone["encode"].weight is not source["encode"].weight


# ---------------------------------------------------------------------------------------------- ParameterList
def _parameter_list(lib):
    return lib.nn.ParameterList([lib.zeros(2, 3), lib.nn.Parameter(lib.tensor(1.0)), lib.ones(4, dtype=lib.float64)])


def test_parameter_list_registers_tensors_as_parameters_like_torch(device):
    torch_prints_like_us(device)

    def run(lib):
        params = _parameter_list(lib)
        params.append(lib.ones(1))
        params.extend([lib.zeros(2)])
        params += [lib.ones(2, 2)]
        return [
            repr(params),
            len(params),
            [n for n, _ in params.named_parameters()],
            list(params.state_dict()),
            [type(p).__name__ for p in params],
            all(p.is_leaf and p.requires_grad for p in params),
            repr(params[::2]),
            repr(params[-1:]),
            repr(lib.nn.ParameterList()),
            repr(lib.nn.ParameterList([lib.zeros(2)])),
        ]

    assert run(minigrad) == run(torch)


def test_parameter_list_holds_other_objects_and_modules_like_torch():
    def run(lib):
        params = lib.nn.ParameterList([lib.zeros(2), 5, lib.nn.Linear(1, 1), None])
        params[0] = lib.ones(3)  # a tensor is made a Parameter
        return [repr(params), [n for n, _ in params.named_parameters()], list(params.state_dict()), params[1]]

    assert run(minigrad) == run(torch)


def test_parameter_list_shares_the_tensors_storage():
    data = minigrad.zeros(3)
    params = nn.ParameterList([data])
    data[0] = 7.0
    assert params[0].tolist() == [7.0, 0.0, 0.0] and isinstance(params[0], nn.Parameter)
    p = nn.Parameter(minigrad.ones(1))
    params.append(p)
    assert params[1] is p and params[-1] is p


def test_parameter_list_trains_moves_saves_and_loads():
    params = nn.ParameterList([minigrad.ones(2), minigrad.full((3,), 2.0)])
    optimizer = minigrad.optim.SGD(params.parameters(), lr=0.1)
    (params[0].sum() * params[1].sum()).backward()
    optimizer.step()
    assert params[0].tolist() == pytest.approx([0.4, 0.4]) and params[1].tolist() == pytest.approx([1.8] * 3)
    params.zero_grad()
    assert all(p.grad is None for p in params)
    leaf = params[0]
    params.double()
    assert params[0] is leaf and leaf.dtype is minigrad.float64 and leaf.is_leaf
    other = nn.ParameterList([minigrad.zeros(2), minigrad.zeros(3)])
    other.load_state_dict(params.state_dict())
    assert other[1].tolist() == pytest.approx([1.8] * 3)
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "1"'):
        nn.ParameterList([minigrad.zeros(2), minigrad.zeros(3)]).load_state_dict({"0": minigrad.zeros(2)})


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib: lib.nn.ParameterList(lib.zeros(2)), "ParameterList.extend should be called with an iterable"),
        (lambda lib: lib.nn.ParameterList().extend(5), "but got int"),
        (lambda lib: lib.nn.ParameterList([lib.tensor([1, 2])]), "floating point"),
        (lambda lib: lib.nn.ParameterList([lib.zeros(1)])[3], "index 3 is out of range"),
        (lambda lib: lib.nn.ParameterList([lib.zeros(1)])[-2], "index -2 is out of range"),
        (lambda lib: lib.nn.ParameterList([lib.zeros(1)])["a"], "'str' object cannot be interpreted as an integer"),
        (lambda lib: lib.nn.ParameterList().__setitem__(0, lib.zeros(1)), "index 0 is out of range"),
        (lambda lib: lib.nn.ParameterList([lib.zeros(1)]).__setitem__(0, 5), "cannot assign 'int' as parameter '0'"),
        (lambda lib: lib.nn.ParameterList()(lib.zeros(1)), "ParameterList should not be called."),
    ],
)
def test_parameter_list_errors(fn, words):
    same_error(fn, words)


def test_parameter_list_dir_hides_the_indices():
    for lib in (minigrad, torch):
        names = dir(lib.nn.ParameterList([lib.zeros(1)]))
        assert "append" in names and not any(name.isdigit() for name in names)


# ---------------------------------------------------------------------------------------------- ParameterDict
def test_parameter_dict_registers_tensors_as_parameters_like_torch(device):
    torch_prints_like_us(device)

    def run(lib):
        d = lib.nn.ParameterDict({"shift": lib.zeros(2), "scale": lib.ones(2, 2, dtype=lib.float64), "n": 3})
        seen = [repr(d), list(d), list(d.keys()), [n for n, _ in d.named_parameters()], list(d.state_dict())]
        d["bias"] = lib.nn.Parameter(lib.zeros(1))
        d.update([("z", lib.ones(1)), ("a", lib.ones(1))])  # pairs keep their order
        d.update(OrderedDict([("y", lib.ones(1)), ("b", lib.ones(1))]))
        seen += [list(d), repr(d), "bias" in d, "nothing" in d, len(d)]
        seen += [repr(lib.nn.ParameterDict()), repr(lib.nn.ParameterDict({"one": lib.zeros(3)}))]
        return seen

    assert run(minigrad) == run(torch)


def test_parameter_dict_as_a_dict_like_torch():
    def run(lib):
        d = lib.nn.ParameterDict({"a": lib.zeros(1), "b": lib.ones(1), "c": lib.full((1,), 2.0)})
        key, value = d.popitem()
        seen = [key, value.tolist(), list(d), list(reversed(d))]
        seen.append(d.pop("a").tolist())
        seen.append([d.get("b").tolist(), d.get("missing", "default")])
        seen.append(d.setdefault("new", lib.full((2,), 5.0)).tolist())
        seen.append(d.setdefault("b", lib.zeros(9)).tolist())
        seen.append([(k, v.tolist()) for k, v in d.items()])
        seen.append([v.tolist() for v in d.values()])
        copied = d.copy()
        seen.append([list(copied), copied["b"] is d["b"]])
        merged = d | lib.nn.ParameterDict({"x": lib.zeros(1)})
        seen.append([list(merged), list(d)])
        d |= lib.nn.ParameterDict({"y": lib.zeros(1)})
        seen.append(list(d))
        made = d.fromkeys(["p", "q"], lib.ones(2))
        seen.append([list(made), [n for n, _ in made.named_parameters()]])
        del d["b"]
        seen.append([list(d), [n for n, _ in d.named_parameters()]])
        d.clear()
        seen.append([len(d), list(d.parameters())])
        return seen

    assert run(minigrad) == run(torch)


def test_parameter_dict_moves_saves_loads_and_zeroes():
    d = nn.ParameterDict({"w": minigrad.ones(2, 2), "b": minigrad.zeros(2)})
    holder = nn.Module()
    holder.params = d
    assert list(holder.state_dict()) == ["params.b", "params.w"]  # a plain dict: sorted keys
    (d["w"].sum() + d["b"].sum()).backward()
    holder.zero_grad(set_to_none=False)
    assert d["w"].grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    holder.to(dtype=minigrad.float64)
    assert d["w"].dtype is minigrad.float64 and d["w"] is d.w
    other = nn.Module()
    other.params = nn.ParameterDict({"w": minigrad.zeros(2, 2), "b": minigrad.ones(2)})
    other.double().load_state_dict(holder.state_dict())
    assert other.params["w"].tolist() == [[1.0, 1.0], [1.0, 1.0]] and other.params["b"].tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib: lib.nn.ParameterDict({1: lib.zeros(1)}), "not a string (type is 'int')|Open an issue"),
        (lambda lib: lib.nn.ParameterDict()[1], "Index given to ParameterDict cannot be used as a key"),
        (lambda lib: lib.nn.ParameterDict()["missing"], "'ParameterDict' object has no attribute 'missing'"),
        (lambda lib: lib.nn.ParameterDict().__delitem__("missing"), "missing"),
        (lambda lib: lib.nn.ParameterDict().popitem(), "popitem(): dictionary is empty"),
        (lambda lib: lib.nn.ParameterDict().update(5), "ParametersDict.update should be called with an iterable"),
        (lambda lib: lib.nn.ParameterDict().update([5]), "ParameterDict update sequence element #0 should be"),
        (lambda lib: lib.nn.ParameterDict([("a",)]), "ParameterDict update sequence element #0 has length 1"),
        (lambda lib: lib.nn.ParameterDict({"a.b": lib.zeros(1)}), 'parameter name can|contain "."'),
        (lambda lib: lib.nn.ParameterDict({"update": lib.zeros(1)}), "attribute 'update' already exists"),
        (lambda lib: lib.nn.ParameterDict({"a": lib.tensor([1])}), "floating point"),
        (lambda lib: lib.nn.ParameterDict()(lib.zeros(1)), "ParameterDict should not be called."),
    ],
)
def test_parameter_dict_errors(fn, words):
    same_error(fn, *words.split("|"))


# ---------------------------------------------------------------------------------------------- ModuleList
def test_module_list_folds_repeated_modules_in_its_repr_like_torch():
    def build(m):
        return m.ModuleList([m.Linear(2, 2), m.Linear(2, 2), m.Linear(2, 2), m.ReLU(), m.Linear(2, 2), m.ReLU()])

    assert repr(build(nn)) == repr(build(torch.nn))
    nested = [lambda m: m.ModuleList([m.Sequential(m.Linear(1, 1), m.Tanh())] * 2), lambda m: m.ModuleList()]
    for make in nested:
        assert repr(make(nn)) == repr(make(torch.nn))


def test_module_list_insert_pop_delete_and_add_like_torch():
    def run(lib):
        m = lib.nn
        layers = m.ModuleList([m.Linear(1, 2), m.ReLU(), m.Tanh()])
        layers.insert(1, m.Sigmoid())
        layers.insert(4, m.Identity())
        seen = [repr(layers)]
        seen.append(type(layers.pop(0)).__name__)
        seen.append(type(layers.pop(-1)).__name__)
        del layers[0:2]
        seen.append(repr(layers))
        layers += [m.Linear(2, 1)]
        combined = layers + m.ModuleList([m.ReLU()])
        seen += [repr(combined), type(combined).__name__, [n for n, _ in combined.named_parameters()]]
        return seen

    assert run(minigrad) == run(torch)
    same_error(lambda lib: lib.nn.ModuleList().extend(5), "ModuleList.extend should be called with an iterable")
    same_error(lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[1], "index 1 is out of range")
