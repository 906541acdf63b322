"""Differences from PyTorch found by earlier sessions, each checked against PyTorch itself:
GradientEdges and dicts given to ``autograd.grad``/``backward``, dims given one by one,
``var``/``std`` argument checks, ``cumprod``/``prod`` gradients next to inf and nan,
``var_mean`` of infinite values, integer ``linspace``/``logspace``/``arange``, and ``enable_grad``
inside ``inference_mode``."""

import collections
import itertools
import math
import platform
import random
import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


def outcome(fn, lib):
    """What ``fn(lib)`` gives, comparable across the libraries: values as lists, or the type of
    the exception raised."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(lib)
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return type(error).__name__
    if isinstance(result, tuple | list):
        return [outcome(lambda _, r=r: r, lib) for r in result]
    if isinstance(result, dict):
        return {k: outcome(lambda _, v=v: v, lib) for k, v in result.items()}
    if isinstance(result, minigrad.Tensor | torch.Tensor):
        return (str(result.dtype).split(".")[-1], tuple(result.shape), result.detach().tolist())
    return result


def same(fn, *args):
    """``fn(lib, *args)`` gives the same in minigrad and in PyTorch."""
    assert outcome(lambda lib: fn(lib, *args), minigrad) == outcome(lambda lib: fn(lib, *args), torch)


def close(ours, theirs):
    """Equal to rounding, with nan in the same places (and inf of the same sign)."""
    a, b = np.asarray(ours, dtype="float64"), np.asarray(theirs, dtype="float64")
    assert a.shape == b.shape
    assert np.array_equal(np.isnan(a), np.isnan(b)), (a, b)
    assert np.allclose(a, b, rtol=1e-9, atol=0, equal_nan=True), (a, b)


# -- 1. GradientEdges (and dicts) as outputs and inputs of autograd.grad and backward ------------


def edges(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y**2).sum()
    edge = lib.autograd.graph.get_gradient_edge
    return x, y, z, edge(y), edge(z)


@pytest.mark.parametrize(
    "case",
    [
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(ez, x),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad([ez, ey], [x], [None, lib.ones(2)]),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(ey, x, lib.ones(3)),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(ey, x),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(z, {"x": x, "y": ey}),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(ey, x, lib.eye(2), is_grads_batched=True),
        lambda lib, x, y, z, ey, ez: lib.autograd.grad(ey, x, lib.ones(2, 3), is_grads_batched=True),
    ],
    ids=["edge out", "edges out", "wrong shape", "non-scalar", "dict in", "batched", "batched wrong shape"],
)
def test_gradient_edges_and_dicts_in_grad(case):
    same(lambda lib: case(lib, *edges(lib)))


def test_unused_gradient_edge_cannot_be_materialized():
    def fn(lib):
        _, _, z, _, _ = edges(lib)
        w = lib.ones(1, requires_grad=True) * 3
        return lib.autograd.grad(z, lib.autograd.graph.get_gradient_edge(w), materialize_grads=True)

    same(fn)
    with pytest.raises(RuntimeError, match="materialize_grads cannot be used when the given input is a GradientEdge"):
        fn(minigrad)


@pytest.mark.parametrize(
    "case",
    [
        lambda lib, x, y, z, ey, ez: z.backward(inputs=[ey]),
        lambda lib, x, y, z, ey, ez: z.backward(inputs=ey),
        lambda lib, x, y, z, ey, ez: lib.autograd.backward(ez, inputs=[x]),
        lambda lib, x, y, z, ey, ez: lib.autograd.backward([ey], [lib.ones(2)], inputs={"x": x}),
        lambda lib, x, y, z, ey, ez: z.backward(inputs=collections.OrderedDict(x=x)),
    ],
    ids=["non-leaf edge", "one edge", "edge out", "dict", "OrderedDict"],
)
def test_gradient_edges_and_dicts_in_backward(case):
    def fn(lib):
        x, y, z, ey, ez = edges(lib)
        case(lib, x, y, z, ey, ez)
        return x.grad

    same(fn)


# -- 2. dims one by one: methods take them, torch.* functions do not ------------------------------

ONE_BY_ONE = {
    "squeeze": ["x.squeeze(0, 2)", "x.squeeze(0, 2, 3)", "x.squeeze(-4, -2)", "x.squeeze(0, True)", "x.squeeze(0, 4)",
                "x.squeeze(0, 0)", "x.squeeze(0, 2.0)", "x.squeeze(0, None)", "x.squeeze(0, dim=2)", "x.squeeze(True)",
                "lib.squeeze(x, 0, 2)", "x.unsqueeze(0, 1)"],
    "squeeze_": ["x.clone().squeeze_(0, 2)", "x.clone().squeeze_(0, 0)", "x.clone().squeeze_((0, True))"],
    "count_nonzero": ["x.count_nonzero(0, 1)", "x.count_nonzero(0, True)", "x.count_nonzero(0, 0)", "x.count_nonzero(0, 4)",
                      "x.count_nonzero(0, None)", "lib.count_nonzero(x, 0, 1)"],
    "reductions": ["x.sum((0, True))", "x.mean([0, True])", "x.mean([True, 2])", "x.amax((True, 0))", "x.sum(0, 1)", "x.mean(0, 1, True)", "x.amax(0, 1)", "x.std(0, 1)",
                   "x.permute(3, 2, 1, 0)", "lib.permute(x, 3, 2, 1, 0)", "x.flip(0, 1)", "lib.flip(x, 0, 1)"],
}  # fmt: skip


@pytest.mark.parametrize("name", ONE_BY_ONE)
def test_dims_one_by_one(name):
    for expression in ONE_BY_ONE[name]:
        same(lambda lib, e: eval(e, {"lib": lib, "x": lib.arange(6.0).reshape(1, 3, 1, 2)}), expression)


# -- 3. var/std/var_mean/std_mean: what their arguments may be ------------------------------------

SPREAD_ARGUMENTS = ["unbiased=None", "0, unbiased=None", "0, None", "0, unbiased=False, correction=1",
                    "unbiased=True, correction=0", "0, correction=lib.tensor(0)", "correction=lib.tensor(2.0)",
                    "0, correction='a'", "correction=[1]", "correction=None", "correction=1.5", "0, True", "True",
                    "0, 1", "0, keepdim=1", "0, True, True"]  # fmt: skip


@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
def test_spread_arguments(name):
    for arguments in SPREAD_ARGUMENTS:
        same(lambda lib, a: eval(f"lib.{name}(x, {a})", {"lib": lib, "x": lib.arange(6.0).reshape(2, 3)}), arguments)


def test_an_explicit_none_is_refused_only_where_pytorch_refuses_it():
    # var's unbiased is a bool (None is a TypeError); sort's stable is an optional bool
    for expression in ["lib.sort(x, stable=None)", "x.sort(stable=None)", "x.var(unbiased=None)"]:
        same(lambda lib, e: eval(e, {"lib": lib, "x": lib.tensor([3.0, 1.0, 2.0])}), expression)
    x = minigrad.tensor([3.0, 1.0], requires_grad=True)
    assert type(x.sort(stable=None).values.grad_fn).__name__ == "SortBackward1"


# -- 4. cumprod and prod gradients next to zeros, inf and nan --------------------------------------

SPECIAL = [0.0, 1.0, -2.0, math.inf, -math.inf, math.nan, 0.5]


def product_cases():
    draw = random.Random(4)
    cases = []
    for _ in range(120):
        shape = draw.choice([(1,), (2,), (3,), (4,), (2, 1), (2, 3), (2, 4)])
        values = [draw.choice(SPECIAL) for _ in range(math.prod(shape))]
        dim = draw.randrange(len(shape))
        cases.append((shape, values, draw.choice(["cumprod", "prod", "prod dim", "prod keepdim"]), dim))
    return cases


def product_grads(lib, shape, values, kind, dim):
    x = lib.tensor(values, dtype=lib.float64).reshape(shape).requires_grad_()
    y = {
        "cumprod": lambda: lib.cumprod(x, dim),
        "prod": lambda: lib.prod(x),
        "prod dim": lambda: lib.prod(x, dim),
        "prod keepdim": lambda: lib.prod(x, dim, True),
    }[kind]()
    weights = lib.arange(y.numel(), dtype=lib.float64).reshape(y.shape) % 3 + 0.5
    (first,) = lib.autograd.grad(y, x, weights, create_graph=True)
    (plain,) = lib.autograd.grad(y, x, weights, retain_graph=True)  # (no graph: PyTorch's faster rule)
    try:
        (second,) = lib.autograd.grad((first * first.detach().nan_to_num(0, 0, 0)).sum(), x)
    except RuntimeError:  # PyTorch's first derivative of a dim of one element does not depend on x
        second = "RuntimeError"
    return y, first, plain, second


def test_cumprod_and_prod_gradients_with_zeros_inf_and_nan():
    for case in product_cases():
        ours, theirs = product_grads(minigrad, *case), product_grads(torch, *case)
        for mine, real in zip(ours, theirs):
            if isinstance(real, str) or isinstance(mine, str):
                assert mine == real, case
            else:
                close(mine.detach().numpy(), real.detach().numpy())


# -- 5. var_mean, std_mean, var and std of infinite values ----------------------------------------


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_spread_of_infinite_values(name):
    draw = random.Random(name)
    for _ in range(60):
        shape = draw.choice([(3,), (4,), (2, 3), (2, 2)])
        values = [draw.choice(SPECIAL) for _ in range(math.prod(shape))]
        dim = draw.choice([None, 0, -1] + ([(0, 1), (1, 0)] if len(shape) == 2 else []))
        keepdim, correction = draw.random() < 0.5, draw.choice([0, 1, 2])
        results = []
        for lib in (minigrad, torch):
            x = lib.tensor(values, dtype=lib.float64).reshape(shape).requires_grad_()
            out = []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for fn in (name, name.split("_")[0]):  # var_mean and var alike
                    result = getattr(lib, fn)(x, dim, correction=correction, keepdim=keepdim)
                    out += result if isinstance(result, tuple) else (result,)
            (grad,) = lib.autograd.grad(sum((o * (i + 1.5)).sum() for i, o in enumerate(out)), x)
            results.append([o.detach().numpy() for o in out] + [grad.numpy()])
        for mine, real in zip(*results):
            close(mine, real)


# -- 6. linspace, logspace and arange with integer dtypes and float ends ---------------------------

ENDS = [0, 1, -3, 7, 255, 2.5, -2.5, 9.99, -7.5, 300]
INTEGERS = ["int64", "int32", "int16", "int8", "uint8"]


def factory(lib, name, dtype, *args):
    return getattr(lib, name)(*args, dtype=getattr(lib, dtype))


@pytest.mark.parametrize("dtype", [*INTEGERS, "bool", "float32", "float64"])
def test_linspace(dtype):
    # (up to 7 steps: PyTorch's vectorized loop, whose width depends on the CPU, is not reached)
    for start, end, steps in itertools.product(ENDS, ENDS, [0, 1, 2, 3, 4, 7]):
        same(factory, "linspace", dtype, start, end, steps)
    if dtype in INTEGERS:  # longer integer ranges
        for start, end in [(0, 1), (-3, 1), (-3, 7), (10, -2.5), (255, -3), (0, 100)]:
            same(factory, "linspace", dtype, start, end, 50)


@pytest.mark.parametrize("dtype", [*INTEGERS, "float64"])
def test_logspace(dtype):
    for start, end, steps in itertools.product(
        [0, 1, -3, 2.5, -2.5, 3, 0.5], [0, 2, -1, 2.5, 7, 9.99], [0, 1, 2, 3, 7]
    ):
        for base in (10, 2.0, 0.5):
            same(factory, "logspace", dtype, start, end, steps, base)


@pytest.mark.parametrize("dtype", [*INTEGERS, "bool"])
def test_arange(dtype):
    for start, end, step in itertools.product(ENDS, ENDS, [1, 3, -1, -2, 0.5, 1.5, -0.7, 0.3, -0.3]):
        if (end - start) / step <= 200:
            same(factory, "arange", dtype, start, end, step)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="PyTorch's vectors are AVX2's here")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arange_of_floats_vectorized(dtype):
    # PyTorch fills two vectors at a time, each stepping from its first value: last bits differ
    for start, end, step in [(0, 7, 0.3), (0, 100, 0.3), (-7.5, 9.99, 0.07), (1.5, 80, 1.3), (2.5, -3, -0.013)]:
        same(factory, "arange", dtype, start, end, step)


# -- 8. enable_grad inside inference_mode: grad mode on, nothing recorded -------------------------


@pytest.mark.parametrize(
    "switch",
    [lambda lib: lib.enable_grad(), lambda lib: lib.set_grad_enabled(True)],
    ids=["enable_grad", "set_grad_enabled"],
)
def test_enable_grad_inside_inference_mode(switch):
    def fn(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.inference_mode(), switch(lib):
            y = x * 2
            seen = [
                lib.is_grad_enabled(),
                lib.is_inference_mode_enabled(),
                y.requires_grad,
                y.grad_fn,
                y.is_inference(),
            ]
            with lib.inference_mode(False):
                z = x.exp()
                seen += [z.requires_grad, z.is_inference()]
        return [*seen, lib.is_grad_enabled(), lib.is_inference_mode_enabled()]

    same(fn)
