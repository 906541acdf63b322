"""Regression tests for what a differential fuzzer of ``minigrad.nn.functional`` against PyTorch
found: each test is a call that disagreed before its fix.

Found: a max pool window wholly in the padding (a dilation can skip the input) read an input
value where PyTorch gives -inf; ``max_pool1d(return_indices=True)`` checked with max_pool1d's
words where PyTorch's max_pool2d checks; the pools checked the input before the parameters and
the dtype before the shapes, ``max_pool3d`` let a padding over half the kernel through and
``avg_pool3d`` a kernel larger than the input; circular, reflect and replicate padding checked in
another order (and refused empty results); constant padding allowed a cut past the input;
``instance_norm`` refused running statistics of another dtype; ``gelu`` of a 0-d tensor failed;
``unfold``/``fold``, ``local_response_norm``, ``batch_norm`` and ``rms_norm`` raised other
errors for bad arguments.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

pytestmark = pytest.mark.usefixtures("on_device")


def _ramp(lib, *shape, grad: bool = True):
    x = lib.tensor(np.arange(np.prod(shape), dtype=np.float64).reshape(shape))
    return x.requires_grad_() if grad else x


# ---------------------------------------------------------------------------------------------- max pools
@pytest.mark.parametrize(
    "pool, shape, args",
    [
        ("max_pool2d", (1, 2, 4, 1), dict(kernel_size=2, stride=3, padding=(0, 1), dilation=2)),
        ("max_pool2d", (2, 4, 1), dict(kernel_size=(1, 2), stride=(2, 3), padding=(0, 1), dilation=(1, 2))),
        ("max_pool3d", (1, 2, 1, 4, 1), dict(kernel_size=(1, 2, 2), stride=3, padding=(0, 0, 1), dilation=2)),
    ],
)
def test_max_pool_window_wholly_in_the_padding(pool, shape, args):
    """Such a window's maximum is -inf, its index the first tap at or after 0 of each dim, and
    the gradient goes there, as PyTorch's kernel has it. (Where that position lies outside the
    plane, PyTorch's backward writes outside the gradient: minigrad keeps it inside, untested.)"""

    def run(lib):
        x = _ramp(lib, *shape)
        out, index = getattr(lib.nn.functional, pool)(x, return_indices=True, **args)
        (grad,) = lib.autograd.grad(out.sum(), x)
        return out, index, grad

    out = same(run)[0]
    assert -np.inf in out[2].array


def test_max_pool_of_integers_in_the_padding_is_the_lowest_integer():
    same(lambda lib: lib.nn.functional.max_pool2d(-lib.arange(1, 9).reshape(1, 2, 4, 1), 2, 3, (0, 1), 2))


@pytest.mark.parametrize(
    "args, words",
    [
        (dict(kernel_size=(1, 2)), "max_pool1d() argument 'kernel_size' should contain one int (got 2)"),
        (dict(kernel_size=2, stride=0), "stride should not be zero"),
        (dict(kernel_size=2, padding=-1), "pad must be non-negative, but got pad: -1"),
        (dict(kernel_size=2, dilation=0), "dilation should be greater than zero, but got dilationH: 1 dilationW: 0"),
        (dict(kernel_size=3, padding=2), "pad should be at most half of effective kernel size"),
        (dict(kernel_size=7), "Given input size: (2x1x6). Calculated output size: (2x1x0). Output size is too small"),
    ],
)
def test_max_pool1d_with_indices_is_checked_by_max_pool2d(args, words):
    same_error(lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 2, 6), return_indices=True, **args), words)


def test_max_pool1d_of_an_empty_input():
    same_error(lambda lib: lib.nn.functional.max_pool1d(lib.ones(2, 0, 6), 2), "max_pool1d: Expected 2D or 3D")


def test_max_pool1d_with_indices_of_integers():
    same(lambda lib: lib.nn.functional.max_pool1d(lib.tensor([[[3, 1, 4, 1, 5, 9]]]), 2, return_indices=True))


POOLS = ["max_pool2d", "avg_pool2d", "max_pool3d", "avg_pool3d"]


def _pool_input(lib, pool: str, shape: tuple, dtype: str = "float32"):
    """A 3-d pool's (N, C, D, H, W) input, or a 2-d pool's (N, C, H, W) without D."""
    return lib.ones(*(shape if pool.endswith("3d") else shape[:2] + shape[3:]), dtype=getattr(lib, dtype))


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize(
    "shape, args, words",
    [
        ((2, 2, 6, 6, 6), dict(kernel_size=-1), "kernel size should be greater than zero, but got k"),
        ((2, 2, 6, 6, 6), dict(kernel_size=-2), "pad should be at most half of effective kernel size"),
        ((2, 0, 6, 6, 6), dict(kernel_size=2, stride=-1), "stride should be greater than zero, but got d"),
        ((2, 0, 6, 6, 6), dict(kernel_size=2, stride=0), "stride should not be zero"),
        ((2, 0, 6, 6, 6), dict(kernel_size=3, padding=2), "pad should be at most half of effective kernel size"),
    ],
)
def test_pools_check_the_parameters_before_the_input(pool, shape, args, words):
    same_error(lambda lib: getattr(lib.nn.functional, pool)(_pool_input(lib, pool, shape), **args), words)


@pytest.mark.parametrize("pool", POOLS)
def test_pools_check_the_dtype_last(pool):
    def run(lib):
        getattr(lib.nn.functional, pool)(_pool_input(lib, pool, (2, 2, 6, 6, 6), "bool"), 7)

    same_error(run, "Output size is too small" if pool != "avg_pool3d" else "smaller than kernel size")


def test_max_pool3d_padding_over_half_the_kernel():
    def run(lib):
        lib.nn.functional.max_pool3d(lib.ones(1, 1, 6, 6, 6), 3, padding=2, dilation=2)

    same_error(run, "pad should be smaller than or equal to half of kernel size, but got kT: 3 kW: 3 kH: 3 padT: 2")


@pytest.mark.parametrize("function", ["avg_pool3d", "lp_pool3d"])
@pytest.mark.parametrize("shape, padding", [((2, 2, 5, 2, 2), 1), ((2, 2, 5, 1, 4), 0)])
def test_avg_pool3d_kernel_larger_than_the_input(function, shape, padding):
    def run(lib):
        F = lib.nn.functional
        if function == "lp_pool3d":
            return F.lp_pool3d(lib.ones(*shape), 2.0, 3, ceil_mode=True)
        return F.avg_pool3d(lib.ones(*shape), 3, padding=padding, ceil_mode=True)

    same_error(run, "input image (T: 5 H:", "smaller than kernel size (kT: 3 kH: 3 kW: 3)")


def test_local_response_norm_of_a_size_below_one():
    same_error(
        lambda lib: lib.nn.functional.local_response_norm(lib.ones(2, 2, 2, 2), -1),
        "kernel size should be greater than zero, but got kT: -1 kH: 1 kW: 1",
    )


# ---------------------------------------------------------------------------------------------- padding
@pytest.mark.parametrize(
    "shape, pad, words",
    [
        ((3, 3, 1, 2, 4), (-1, 2, -1, -2, -2, 3), "Padding value causes wrapping around more than once."),
        ((5, 2, 2), (3, 3, -2, -2), "Negative padding value is resulting in an empty dimension"),
    ],
)
def test_circular_pad_checks_the_first_padded_dim_first(shape, pad, words):
    same_error(lambda lib: lib.nn.functional.pad(lib.ones(*shape), pad, "circular"), words)


@pytest.mark.parametrize("shape, pad", [((4, 3), (-5, 2)), ((1, 3, 3, 4), (0, -2, -2, -1))])
def test_circular_pad_to_an_empty_result(shape, pad):
    same(lambda lib: lib.nn.functional.pad(_ramp(lib, *shape, grad=False), pad, "circular"))


@pytest.mark.parametrize(
    "mode, shape, pad, words",
    [
        ("replicate", (5, 4, 1, 1), (-2, 1, -2, -1), "input (H: 1, W: 1 ) is too small. Calculated output H: -2 W: 0"),
        ("reflect", (1, 2, 2, 5), (-3, -3, 0, -2), "input (H: 2, W: 5) is too small. Calculated output H: 0 W: -1"),
        ("replicate", (1, 2, 3, 3, 3), (-2, -2, -3, 0, -3, 0), "input (D: 3 H: 3, W: 3) is too small."),
        ("replicate", (2, 4, 2, 1), (2, 1, -5, -5, -2, 3), "negative dimension -8: [2, 5, -8, 4]"),
        ("replicate", (4, 3, 4, 3), (-2, -5, 0, 4, -5, 0), "negative dimension -2: [4, -2, 8, -4]"),
        ("reflect", (4, 2, 3, 4, 3), (-4, -3, 4, -5, 3, 1), "Argument #6: Padding size should be less than"),
    ],
)
def test_reflect_and_replicate_pad_errors(mode, shape, pad, words):
    same_error(lambda lib: lib.nn.functional.pad(lib.ones(*shape), pad, mode), words)


def test_constant_pad_cuts_before_it_pads():
    same_error(lambda lib: lib.nn.functional.pad(lib.ones(4, 1), (-2, 2)), "narrow(): length must be non-negative.")


# ---------------------------------------------------------------------------------------------- normalization
@pytest.mark.parametrize("stats", ["float32", "float64"])
@pytest.mark.parametrize("use_input_stats", [True, False])
def test_instance_norm_statistics_of_another_dtype(stats, use_input_stats):
    """PyTorch computes with the statistics in the input's dtype and writes them back in theirs."""

    def run(lib):
        x = lib.tensor([[[1.0, 2.0, 4.0, 3.0], [0.0, 5.0, 2.0, 1.0]]])
        x = x.to(lib.float64 if stats == "float32" else lib.float32).requires_grad_()
        mean, var = lib.zeros(2, dtype=getattr(lib, stats)), lib.ones(2, dtype=getattr(lib, stats))
        out = lib.nn.functional.instance_norm(x, mean, var, use_input_stats=use_input_stats)
        return out, lib.autograd.grad(out.sum() + (out * out).sum(), x)[0], mean, var

    same(run)


def test_instance_norm_module_of_another_dtype():
    def run(lib):
        norm = lib.nn.InstanceNorm1d(2, track_running_stats=True)
        out = norm(lib.tensor([[[1.0, 2.0, 4.0], [0.0, 5.0, 2.0]]], dtype=lib.float64))
        return out, norm.running_mean, norm.running_var

    same(run)


def test_batch_norm_of_a_0d_input():
    same_error(lambda lib: lib.nn.functional.batch_norm(lib.ones(()), None, None, training=True), "tuple index")


def test_rms_norm_normalized_shape_errors():
    def empty(lib):
        lib.nn.functional.rms_norm(lib.ones(3, 3), ())

    def too_long(lib):
        lib.nn.functional.rms_norm(lib.ones(3, 3), (2, 1, 3))

    same_error(empty, "Expected normalized_shape to be at least 1-dimensional")
    same_error(too_long, "Input tensor must have at least 3 dimensions, but got 2")


# ---------------------------------------------------------------------------------------------- others
def test_gelu_of_a_0d_tensor():
    def run(lib):
        x = lib.tensor(0.3, requires_grad=True)
        out = lib.nn.functional.gelu(x)
        (grad,) = lib.autograd.grad(out, x, create_graph=True)
        return out, grad, lib.autograd.grad(grad, x)[0]

    same(run)


@pytest.mark.parametrize(
    "shape, kernel, words",
    [
        ((3,), 1, "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
        ((2, 3), 1, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
        ((1, 3, 2, 2, 3), 1, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size"),
        ((2, 0, 3, 3), 1, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size"),
        ((3,), 0, "kernel size should be greater than zero"),
    ],
)
def test_unfold_errors(shape, kernel, words):
    same_error(lambda lib: lib.nn.functional.unfold(lib.ones(*shape), kernel), words)


def test_fold_checks_the_kernel_first():
    same_error(lambda lib: lib.nn.functional.fold(lib.ones(3), (3, 3), 0), "kernel size should be greater than zero")
