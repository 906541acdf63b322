"""Disagreements with PyTorch in reductions, scans and norms, found by a differential fuzzer
(random tensors with empty dims, ties, zeros, NaN and inf; every form of ``dim``; values,
gradients, second derivatives, warnings and errors compared with PyTorch's).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, shape, values and ``requires_grad``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad)).same
same_indices = Oracle(lambda t: (str(t.dtype), tuple(t.shape), t.detach().cpu().tolist())).same


def _grad(out, x):
    """``out`` and the gradient of a fixed weighted sum of it for ``x``."""
    lib = torch if isinstance(out, torch.Tensor) else minigrad
    weights = lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape) / 7 - 0.5
    return out, lib.autograd.grad((out * weights).sum(), x)[0]


# keepdim=True with dim=None keeps every dim, of size 1.
KEEPDIM_WITH_NONE = {
    "sum": lambda lib, x: lib.sum(x, None, True),
    "sum method": lambda lib, x: x.sum(None, True),
    "sum dtype": lambda lib, x: x.sum(None, True, dtype=lib.float64),
    "mean": lambda lib, x: lib.mean(x, None, True),
    "argmax": lambda lib, x: lib.argmax(x.detach(), None, keepdim=True),
    "argmin": lambda lib, x: x.detach().argmin(keepdim=True),
}


@pytest.mark.parametrize("name", KEEPDIM_WITH_NONE)
def test_keepdim_with_dim_none_keeps_every_dim(name):
    def run(lib):
        x = lib.tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]], requires_grad=True)
        out = KEEPDIM_WITH_NONE[name](lib, x)
        return _grad(out, x) if out.requires_grad else out

    same(run)


@pytest.mark.parametrize("dim", [(), []])
def test_logsumexp_over_no_dims_reduces_every_dim(dim):
    def run(lib):
        x = lib.tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]], requires_grad=True)
        return _grad(lib.logsumexp(x, dim, keepdim=True), x), lib.logsumexp(lib.zeros(0, 3), dim)

    same(run)


def test_median_of_an_empty_integer_or_bool_tensor():
    def run(lib):
        return [lib.median(lib.zeros(0, 3, dtype=d)) for d in (lib.uint8, lib.int64, lib.bool)] + [
            lib.nanmedian(lib.zeros(0, dtype=lib.int32))
        ]

    same_indices(run)


MEDIAN_ERRORS = {
    "bool along a dim": (lambda lib: lib.median(lib.zeros(2, 3, dtype=lib.bool), 0), '"median_out" not'),
    "nanmedian of bools": (lambda lib: lib.nanmedian(lib.zeros(2, 3, dtype=lib.bool)), '"median_cpu" not'),
    "empty bool dim": (
        lambda lib: lib.median(lib.zeros(3, 0, dtype=lib.bool), -1),
        "median(): Expected reduction dim 1",
    ),
    "nanmedian empty dim": (lambda lib: lib.nanmedian(lib.zeros(0, 3), 0), "median(): Expected reduction dim 0"),
}


@pytest.mark.parametrize("name", MEDIAN_ERRORS)
def test_median_errors(name):
    fn, words = MEDIAN_ERRORS[name]
    assert str(same_error(fn, words)).startswith(words)  # median's words, also for nanmedian


def test_nanmedian_of_a_row_of_nan_picks_pytorchs_place():
    def run(lib):
        x = lib.full((3, 11), math.nan)
        x[0, 4] = 1.0
        x = x.requires_grad_()
        out = lib.nanmedian(x, 1)
        return out.indices, *_grad(out.values, x)

    same(run)


CHECK_ORDER = {
    "argmax of bools before the dim": (
        lambda lib: lib.argmax(lib.zeros(3, dtype=lib.bool), 3),
        "does not support bool",
    ),
    "trace of bools before the shape": (
        lambda lib: lib.trace(lib.zeros(3, dtype=lib.bool)),
        "not implemented for 'Bool'",
    ),
    "logcumsumexp's dim before the dtype": (
        lambda lib: lib.logcumsumexp(lib.zeros(3, dtype=lib.int64), 3),
        "out of range",
    ),
    "cummax of a 0-d tensor": (lambda lib: lib.cummax(lib.tensor(1.0), 3), "Expected reduction dim -1 or 0 for scalar"),
    "amin names the dim as given": (lambda lib: lib.amin(lib.zeros(3, 0), -1), "dim -1 to have"),
    "amax over None of nothing": (
        lambda lib: lib.amax(lib.zeros(3, 0), None),
        "Expected reduction dim to be specified",
    ),
}


@pytest.mark.parametrize("name", CHECK_ORDER)
def test_errors_are_checked_in_pytorchs_order(name):
    fn, words = CHECK_ORDER[name]
    same_error(fn, words)


def test_cummax_of_an_empty_tensor_checks_no_dim():
    same_indices(lambda lib: tuple(lib.cummin(lib.zeros(2, 0), 4)))


NO_IDENTITY = {
    "dist inf": (lambda lib: lib.dist(lib.zeros(0, 3), lib.tensor(1.0), math.inf), "inf norm on an empty tensor"),
    "dist -0.5": (lambda lib: lib.dist(lib.zeros(0, 3), lib.tensor(1.0), -0.5), "-0.5 norm on an empty tensor"),
    "renorm inf": (lambda lib: lib.renorm(lib.zeros(3, 0), math.inf, 0, 5.0), "inf norm on the dimension 1because"),
    "vector_norm -1 over an empty dim": (
        lambda lib: lib.linalg.vector_norm(lib.zeros(2, 0, 2), -1.0, -2),
        "-1 norm on the dimension -2because",
    ),
    "vector_norm -2.5 over all": (
        lambda lib: lib.linalg.vector_norm(lib.zeros(2, 0, 2), -2.5),
        "-2.5 norm on an empty tensor",
    ),
    "vector_norm inf over ()": (
        lambda lib: lib.linalg.vector_norm(lib.zeros(2, 0, 2), math.inf, ()),
        "inf norm on an empty tensor",
    ),
    "norm -1": (lambda lib: lib.norm(lib.zeros(2, 0, 2), -1, [2, 1]), "-1 norm on the dimension 1because"),
}


@pytest.mark.parametrize("name", NO_IDENTITY)
def test_norms_without_identity_of_nothing_raise(name):
    fn, words = NO_IDENTITY[name]
    error = same_error(fn, "linalg.vector_norm cannot compute the " + words)
    assert isinstance(error, RuntimeError)


MATRIX_NORMS_OF_NOTHING = {
    "2 of 0x0": lambda lib, x: lib.linalg.matrix_norm(x.new_zeros(0, 0), 2),
    "1 of 3x0": lambda lib, x: lib.linalg.matrix_norm(x.new_zeros(3, 0), 1, keepdim=True),
    "2 over an empty dim": lambda lib, x: lib.linalg.matrix_norm(x.new_zeros(2, 0, 3), 2, dim=(0, 1)),
}


@pytest.mark.parametrize("name", MATRIX_NORMS_OF_NOTHING)
def test_largest_matrix_norm_of_nothing_is_zero(name):
    def run(lib):
        x = lib.zeros(1, requires_grad=True)
        return MATRIX_NORMS_OF_NOTHING[name](lib, x.detach().requires_grad_())

    same(run)


def test_norm_nuc_is_the_matrix_norm():
    def run(lib):
        x = lib.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]], requires_grad=True)
        return _grad(lib.norm(x[0], p="nuc"), x), _grad(lib.norm(x, p="nuc", dim=(0, 2), keepdim=True), x)

    same(run)


MATRIX_NORM_ERRORS = {
    "nuc of a vector": (lambda lib: lib.norm(lib.ones(3), "nuc"), "at least 2 dimensions"),
    "nuc over 3 dims": (lambda lib: lib.norm(lib.ones(2, 3, 2), "nuc"), "dim must be a 2-tuple. Got 0 1 2"),
    "unknown order first": (lambda lib: lib.norm(lib.ones(2, 3, 2), "abc"), "Order abc not supported"),
    "one dim": (lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3), "nuc", (0,)), "dim must be a 2-tuple. Got 0"),
    "same dims": (
        lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3, 2), "nuc", (0, -3)),
        "dims must be different. Got (0, 0)",
    ),
    "integer input": (
        lambda lib: lib.linalg.norm(lib.ones(1, 2, dtype=lib.int64), math.inf),
        "linalg.matrix_norm: Expected a floating",
    ),
    "integer input with dtype": (
        lambda lib: lib.linalg.matrix_norm(lib.ones(1, 2, dtype=lib.int64), 1, dtype=lib.float32),
        "linalg.matrix_norm: Expected a floating",
    ),
    "integer dtype": (
        lambda lib: lib.linalg.matrix_norm(lib.ones(1, 2), dtype=lib.int64),
        "dtype should be floating point",
    ),
    "narrowing dtype": (
        lambda lib: lib.linalg.matrix_norm(lib.ones(1, 2, dtype=lib.float64), 2, dtype=lib.float32),
        "should be convertible without narrowing",
    ),
    "vector_norm narrowing dtype": (
        lambda lib: lib.linalg.vector_norm(lib.ones(2, dtype=lib.float64), dtype=lib.float32),
        "linalg.vector_norm: the dtype of the input (Double)",
    ),
    "vector_norm integer input with dtype": (
        lambda lib: lib.linalg.vector_norm(lib.ones(2, dtype=lib.int64), dtype=lib.float32),
        "linalg.vector_norm: Expected a floating",
    ),
}


@pytest.mark.parametrize("name", MATRIX_NORM_ERRORS)
def test_matrix_norm_errors(name):
    fn, words = MATRIX_NORM_ERRORS[name]
    same_error(fn, words)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: lib.linalg.svd(x),
        lambda lib, x: lib.linalg.svdvals(x),
        lambda lib, x: lib.linalg.pinv(x),
        lambda lib, x: lib.linalg.matrix_norm(x, "nuc"),
        lambda lib, x: lib.linalg.svd(lib.stack([x, x])),
    ],
)
def test_svd_of_nan_raises_linalg_error(fn):
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(lib.linalg.LinAlgError) as info:  # (a RuntimeError in both)
            fn(lib, lib.tensor([[1.0, math.nan], [2.0, 3.0]]))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("shape, dim, correction", [((2, 4, 0), -2, 0), ((0, 4, 3), -1, 1), ((2, 0, 2), (0, 2), 1)])
@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
def test_degrees_of_freedom_warning_for_an_empty_result(name, shape, dim, correction):
    caught = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            getattr(lib, name)(lib.zeros(shape), dim, correction=correction)
        caught.append([str(w.message).split(".")[0] for w in seen])
    assert caught[0] == caught[1] != []


def test_diff_of_order_zero_checks_no_dim():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.diff(x, n=0, dim=-2), lib.diff(lib.tensor([True, False]), n=0, dim=3)

    same(run)


# topk replays PyTorch's std::nth_element / std::partial_sort / std::sort, so among equal values
# (and NaN) it picks, orders and sends the gradient to the places PyTorch does.
TOPK = {
    "ties largest": ([0.0, 1, 1, 0, 1, 0], 3, True, True),
    "all equal": ([1.0] * 5, 2, True, True),
    "all equal smallest": ([1.0] * 5, 2, False, True),
    "unsorted": ([5.0, 1, 7, 3, 9, 2, 8], 3, True, False),
    "unsorted smallest": ([5.0, 1, 7, 3, 9, 2, 8], 4, False, False),
    "NaN and ties": ([1.0, math.nan, 2, 2, math.nan, 1, 2, 0], 4, True, True),
    "partial sort (k * 64 <= n)": ([float(v) for v in np.random.default_rng(0).integers(0, 3, 130)], 2, True, True),
}


@pytest.mark.parametrize("name", TOPK)
def test_topk_picks_pytorchs_places_among_ties(name):
    row, k, largest, is_sorted = TOPK[name]

    def run(lib):
        x = lib.tensor([row, row[::-1]], requires_grad=True)
        out = lib.topk(x, k, dim=1, largest=largest, sorted=is_sorted)
        return out.indices, *_grad(out.values, x)

    same(run)


def test_topk_of_integers_with_ties_along_dim_0():
    same_indices(lambda lib: tuple(lib.topk(lib.tensor([[3, 1, 2], [3, 1, 2], [0, 1, 2], [3, 5, 2]]), 2, dim=0)))
