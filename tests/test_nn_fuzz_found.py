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

A later round found: convolutions expanded an int argument to the weight's dims (so a weight of
other dims got another error), let fewer output channels than groups through (and crashed on none),
checked the dilation and the groups elsewhere in PyTorch's order and named a weight of another dtype
in their own words; ``binary_cross_entropy`` took targets outside [0, 1]; ``interpolate`` refused
uint8 images in the nearest modes and took float16 with ``antialias``; ``batch_norm`` of an empty
input skipped none of its checks; the normalisations named parameters of other dtypes otherwise;
``rms_norm`` neither computed float16 in float32 nor returned the input's dtype; ``bilinear``
promoted mixed dtypes; ``lp_pool`` of an infinite norm type gave ones; unbatched in-place
``dropout1d``/``dropout3d`` recorded other nodes; average pools and reflect/replicate padding gave
results that were not row-major; ``cross_entropy`` with probabilities did not name itself for a
weight of the wrong size; ``Conv1d``/``2d``/``3d`` took an ``output_padding``; ``embedding`` with
``max_norm`` checked the indices before renormalising (PyTorch renormalises first, as its kernel).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

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


# ---------------------------------------------------------------------------------------------- convolutions
def _ones(lib, *shape, dtype: str = "float32"):
    return lib.ones(*shape, dtype=getattr(lib, dtype))


CONV_ERRORS = {
    "an int stride of conv2d is two values": (
        lambda lib: lib.nn.functional.conv2d(_ones(lib, 1, 2, 4, 4), _ones(lib, 2, 2, 3)),
        "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, "
        "but got stride=[1, 1]",
    ),
    "an int padding of conv_transpose2d is two values": (
        lambda lib: lib.nn.functional.conv_transpose2d(_ones(lib, 2, 4, 9, 9), _ones(lib, 4, 4, 3), stride=(1,)),
        "expected padding to be a single integer value or a list of 1 values",
    ),
    "fewer output channels than groups": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 2, 1, 3), groups=4),
        "Given groups=4, expected weight to be at least 4 at dimension 0, but got weight of size [2, 1, 3] instead",
    ),
    "no output channels": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 0, 4, 3)),
        "Given groups=1, expected weight to be at least 1 at dimension 0, but got weight of size [0, 4, 3] instead",
    ),
    "transposed, no input channels in the weight": (
        lambda lib: lib.nn.functional.conv_transpose1d(_ones(lib, 2, 4, 9), _ones(lib, 0, 3, 3)),
        "Given groups=1, expected weight to be at least 1 at dimension 0",
    ),
    "groups are checked before the padding": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 6, 4, 3), groups=0, padding=-1),
        "non-positive groups is not supported",
    ),
    "a negative dilation": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 1, 2, 4), _ones(lib, 2, 2, 3), dilation=-1),
        "dilation should be greater than zero",
    ),
    "a zero dilation, float64": (
        lambda lib: lib.nn.functional.conv2d(
            _ones(lib, 2, 4, 9, 9, dtype="float64"), _ones(lib, 6, 4, 3, 3, dtype="float64"), dilation=0
        ),
        "dilation should be greater than zero, but got [0, 0]",
    ),
    "a zero dilation of conv1d, float64, after the shapes": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 2, dtype="float64"), _ones(lib, 6, 4, 3), dilation=0),
        "dilation should be greater than zero, but got [1, 0]",
    ),
    "a zero dilation, transposed": (
        lambda lib: lib.nn.functional.conv_transpose3d(
            _ones(lib, 2, 4, 5, 5, 5, dtype="float64"), _ones(lib, 4, 4, 3, 3, 3, dtype="float64"), dilation=(1, 0, 1)
        ),
        "dilation should be greater than zero, but got dilation_depth: 1, dilation_height: 0, dilation_width: 1",
    ),
    "a zero dilation, transposed, before the output padding": (
        lambda lib: lib.nn.functional.conv_transpose1d(
            _ones(lib, 2, 4, 9), _ones(lib, 4, 4, 3), dilation=0, output_padding=1
        ),
        "dilation should be greater than zero, but got dilation_height: 1, dilation_width: 0",
    ),
    "a float32 weight of a float64 input": (
        lambda lib: lib.nn.functional.conv2d(_ones(lib, 2, 4, 9, 9, dtype="float64"), _ones(lib, 6, 4, 3, 3)),
        "expected scalar type Double but found Float",
    ),
    "a float64 weight of a float32 input": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 6, 4, 3, dtype="float64")),
        "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a "
        "MKLDNN tensor and weight is a dense tensor",
    ),
    "a float32 weight of an int64 input": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9, dtype="int64"), _ones(lib, 6, 4, 3)),
        "expected scalar type Long but found Float",
    ),
    "transposed, a float32 weight of a float64 input": (
        lambda lib: lib.nn.functional.conv_transpose1d(_ones(lib, 2, 4, 9, dtype="float64"), _ones(lib, 4, 3, 3)),
        "expected scalar type Double but found Float",
    ),
    "the bias's size before the weight's dtype": (
        lambda lib: lib.nn.functional.conv1d(
            _ones(lib, 2, 4, 5, dtype="float64"), _ones(lib, 6, 4, 3), _ones(lib, 5, dtype="float64")
        ),
        "Given weight of size [6, 4, 3], expected bias to be 1-dimensional with 6 elements, but got bias of size [5]",
    ),
    "'same' with two strides for one dim": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 6, 4, 3), padding="same", stride=(1, 1)),
        "stride cannot broadcast to 1 dimensions",
    ),
    "'same' with a weight of other dims": (
        lambda lib: lib.nn.functional.conv2d(_ones(lib, 2, 4, 9, 9), _ones(lib, 6, 4, 3), padding="same"),
        "Expected 3-dimensional input for 3-dimensional weight[6, 4, 3], but got 4-dimensional input of size "
        "[2, 4, 9, 9] instead",
    ),
    "'same' with a negative dilation": (
        lambda lib: lib.nn.functional.conv1d(_ones(lib, 2, 4, 9), _ones(lib, 6, 4, 3), padding="same", dilation=-1),
        "negative padding is not supported",
    ),
}


@pytest.mark.parametrize("name", CONV_ERRORS)
def test_convolution_errors(name):
    """PyTorch's checks, in its order: an int argument is expanded to the function's dims before
    the weight's dims are compared, a dilation of 0 is refused by the kernel (after the shapes), and
    a weight of another dtype in the words of the kernel that the input's dtype picks."""
    run, words = CONV_ERRORS[name]
    same_error(run, words)


# ---------------------------------------------------------------------------------------------- losses
@pytest.mark.parametrize("target", [[0.0, 1.5], [-0.25, 0.5], [float("nan"), 0.5]])
def test_binary_cross_entropy_target_outside_0_and_1(target):
    def run(lib):
        lib.nn.functional.binary_cross_entropy(lib.tensor([0.5, 0.5]), lib.tensor(target))

    same_error(run, "all elements of target should be between 0 and 1")


# ---------------------------------------------------------------------------------------------- interpolate
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
@pytest.mark.parametrize("shape, args", [((1, 2, 5), dict(scale_factor=1.7)), ((1, 2, 3, 4), dict(size=(5, 2)))])
def test_interpolate_uint8_nearest(mode, shape, args):
    """PyTorch resizes uint8 images with the nearest modes (a gather, exact in any dtype)."""
    same(lambda lib: lib.nn.functional.interpolate(_ramp(lib, *shape, grad=False).to(lib.uint8), mode=mode, **args))


def test_interpolate_float16_antialias_has_no_kernel():
    def run(lib):
        lib.nn.functional.interpolate(lib.ones(1, 1, 3, 3, dtype=lib.float16), size=2, mode="bilinear", antialias=True)

    same_error(run, "\"compute_index_ranges_weights\" not implemented for 'Half'")


# ---------------------------------------------------------------------------------------------- normalization
@pytest.mark.parametrize("shape", [(0, 3), (2, 3, 0)])
def test_batch_norm_module_of_an_empty_batch(shape):
    """PyTorch's empty-input shortcut: a clone times weight[0] plus bias[0], no statistics taken
    (the running ones stay, num_batches_tracked still counts), and no dtype checks."""

    def run(lib):
        norm = lib.nn.BatchNorm1d(3)
        x = _ramp(lib, *shape)  # float64: the float32 module's parameters are not checked
        out = norm(x)
        return out, node_names(out), lib.autograd.grad(out.sum(), [x, norm.weight, norm.bias]), list(norm.buffers())

    same(run)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_of_an_empty_input_skips_the_checks(training):
    def run(lib):
        x = lib.ones(0, 3)
        out = lib.nn.functional.batch_norm(x, lib.zeros(2), None, lib.ones(2), training=training)
        return out, node_names(out)

    same(run)
    same_error(
        lambda lib: lib.nn.functional.batch_norm(lib.ones(0, 3), None, None, lib.ones(0), training=True),
        "select(): index 0 out of range for tensor of size [0] at dimension 0",
    )


def _norm(lib, name: str, x, weight, bias):
    F = lib.nn.functional
    if name == "layer_norm":
        return F.layer_norm(x, (3,), weight, bias)
    if name == "group_norm":
        return F.group_norm(x, 1, weight, bias)
    return F.batch_norm(x, None, None, weight, bias, training=True)


@pytest.mark.parametrize("name", ["layer_norm", "group_norm", "batch_norm"])
@pytest.mark.parametrize(
    "dtypes, words",
    [
        (("float32", "float32", "float64"), "expected scalar type Float but found Double"),
        (("float64", "float64", "float32"), "expected scalar type Double but found Float"),
        (("float64", "float32", "float64"), "mixed dtype (CPU): expect parameter to have scalar type of Float"),
        (("float16", "float32", "float16"), "mixed dtype (CPU): expect parameter to have scalar type of Float"),
    ],
)
def test_normalization_parameters_of_another_dtype(name, dtypes, words):
    """The first parameter given decides: of the input's dtype, another one is read as that dtype
    (and refused); of another dtype, the kernel tries mixed precision, which needs float32
    parameters and a float16 input."""

    def run(lib):
        x, weight, bias = (
            None if d is None else lib.ones(*shape, dtype=getattr(lib, d))
            for d, shape in zip(dtypes, ((4, 3), (3,), (3,)))
        )
        _norm(lib, name, x, weight, bias)

    same_error(run, words)


@pytest.mark.parametrize("input, weight", [("float32", "float64"), ("float16", "float32"), ("float16", "float16")])
def test_rms_norm_computes_float16_in_float32_and_returns_the_inputs_dtype(input, weight):
    def run(lib):
        x = _ramp(lib, 3, 4).to(getattr(lib, input)).detach().requires_grad_()
        w = lib.tensor([0.5, -1.0, 2.0, 1.5], dtype=getattr(lib, weight), requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (a mismatch warns once per process)
            out = lib.nn.functional.rms_norm(x, (4,), w)
        return out, node_names(out), lib.autograd.grad(out.sum(), [x, w])

    same(run)


def test_rms_norm_of_float16_without_weight():
    same(lambda lib: lib.nn.functional.rms_norm(_ramp(lib, 2, 3, grad=False).to(lib.float16) / 7, (3,)))


# ---------------------------------------------------------------------------------------------- others
@pytest.mark.parametrize(
    "dtypes, words",
    [
        (("float32", "float64", "float32", None), "got input1: float, input2: double, weight: float"),
        (("float32", "float32", "float32", "float64"), "got input1: float, input2: float, weight: float, bias: double"),
        (("int64", "float32", "float32", None), "got input1: long int, input2: float, weight: float"),
    ],
)
def test_bilinear_tensors_of_other_dtypes(dtypes, words):
    def run(lib):
        shapes = ((2, 3), (2, 2), (4, 3, 2), (4,))
        tensors = [None if d is None else lib.ones(*s, dtype=getattr(lib, d)) for d, s in zip(dtypes, shapes)]
        lib.nn.functional.bilinear(*tensors)

    same_error(run, "All tensors must have the same dtype, " + words)


@pytest.mark.parametrize("norm_type", [float("inf"), -float("inf")])
@pytest.mark.parametrize(
    "pool, shape", [("lp_pool1d", (1, 2, 5)), ("lp_pool2d", (1, 2, 4, 5)), ("lp_pool3d", (1, 1, 4, 4, 3))]
)
def test_lp_pool_of_an_infinite_norm_type_is_a_max_pool(pool, shape, norm_type):
    """PyTorch takes the largest (or smallest) absolute value of each window by a max pool; the
    power average gave ones."""

    def run(lib):
        x = (_ramp(lib, *shape, grad=False) - 10).requires_grad_()
        out = getattr(lib.nn.functional, pool)(x, norm_type, 2, ceil_mode=True)
        return out, node_names(out), lib.autograd.grad(out.sum(), x)

    same(run)


def test_cross_entropy_probability_targets_name_the_function_for_a_wrong_weight():
    def run(lib):
        lib.nn.functional.cross_entropy(lib.zeros(2, 3), lib.full((2, 3), 1 / 3), weight=lib.ones(2))

    error = same_error(run, "weight tensor should be defined either for all 3 classes or no classes")
    assert str(error).startswith("cross_entropy: weight tensor")


@pytest.mark.parametrize(
    "function, shape", [("dropout1d", (3, 4)), ("dropout3d", (2, 3, 4, 2)), ("dropout3d", (2, 3, 4))]
)
@pytest.mark.parametrize("p, training", [(0.0, True), (0.5, False), (1.0, True)])
def test_dropout_in_place_of_an_unbatched_input(function, shape, p, training):
    """PyTorch unsqueezes the input itself in place, drops in place and squeezes it back, so the
    input's node is ``SqueezeBackward4`` after ``UnsqueezeBackward1``, even where nothing is dropped."""

    def run(lib):
        x = _ramp(lib, *shape)
        y = x * 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (a 3-d input to dropout3d warns)
            out = getattr(lib.nn.functional, function)(y, p, training, True)
        return out, out is y, y._version, node_names(out), lib.autograd.grad(out.sum(), x)

    same(run)


LAID_OUT = {
    "avg_pool1d": lambda f, x: f.avg_pool1d(x[0], 3, 1, 1, count_include_pad=False),
    "avg_pool2d": lambda f, x: f.avg_pool2d(x[1], 2, divisor_override=3),
    "avg_pool3d": lambda f, x: f.avg_pool3d(x[2], 2),
    "adaptive_avg_pool2d": lambda f, x: f.adaptive_avg_pool2d(x[1], 3),
    "adaptive_avg_pool3d": lambda f, x: f.adaptive_avg_pool3d(x[2], 3),
    "lp_pool2d": lambda f, x: f.lp_pool2d(x[1], 2, 2),
    "interpolate area": lambda f, x: f.interpolate(x[1], scale_factor=0.5, mode="area"),
    "reflect pad": lambda f, x: f.pad(x[1], (1, 1, 1, 2), mode="reflect"),
    "replicate pad": lambda f, x: f.pad(x[2], (1, 0, 0, 2, 1, 1), mode="replicate"),
}


@pytest.mark.parametrize("name", LAID_OUT)
def test_average_pools_and_pads_are_row_major(name):
    """Their gather laid the batch dims innermost (a ``view`` of the result then failed, and
    ``Flatten`` recorded ``UnsafeViewBackward0``); PyTorch's results are contiguous."""

    def run(lib):
        x = _ramp(lib, 2, 2, 6), _ramp(lib, 2, 2, 6, 6), _ramp(lib, 1, 2, 4, 4, 4)
        out = LAID_OUT[name](lib.nn.functional, x)
        return out.is_contiguous(), out.stride(), out.flatten(1), node_names(out.flatten(1))[0]

    same(run)


@pytest.mark.parametrize("layer", ["Conv1d", "Conv2d", "Conv3d"])
def test_convolution_layers_take_no_output_padding(layer):
    """Only the transposed layers have one."""
    same_error(lambda lib: getattr(lib.nn, layer)(1, 1, 3, output_padding=1), "got an unexpected keyword argument")


@pytest.mark.parametrize("indices", [[0, -1], [3, -2, 4, 9, -9], [0, 9]])
def test_embedding_max_norm_renormalises_before_the_lookup_checks(indices):
    """PyTorch's ``embedding_renorm_`` runs first and reads each row as ``weight[i]`` in increasing
    order: a negative index scales a row from the end (then the lookup refuses it), an index out of
    range fails with ``select()``'s words after the rows before it were scaled."""

    def run(lib):
        weight = _ramp(lib, 5, 3, grad=False)
        with pytest.raises(IndexError) as info:
            lib.nn.functional.embedding(lib.tensor(indices), weight, max_norm=3.0)
        return str(info.value), weight

    same(run)


@pytest.mark.parametrize(
    "weight, indices, words",
    [
        ((5,), [0, 1], "Expected 2-dimensional tensor, but got 1-dimensional tensor for argument #1 'self'"),
        ((5, 3), [0.0, 1.0], "Expected tensor for argument #2 'indices' to have one of the following scalar types"),
    ],
)
def test_embedding_max_norm_checks_as_embedding_renorm_(weight, indices, words):
    def run(lib):
        lib.nn.functional.embedding(lib.tensor(indices), lib.ones(*weight), max_norm=1.0)

    same_error(run, words, "(while checking arguments for embedding_renorm_)")


@pytest.mark.parametrize(
    "input, stats, words",
    [
        ("float32", "float64", "expected scalar type Float but found Double"),
        ("float64", "float32", "expected scalar type Double but found Float"),
    ],
)
def test_batch_norm_reads_the_weight_before_the_statistics(input, stats, words):
    """The weight, of the input's dtype, decides that statistics of another are not mixed precision."""

    def run(lib):
        mean, var = lib.zeros(3, dtype=getattr(lib, stats)), lib.ones(3, dtype=getattr(lib, stats))
        x, weight = lib.ones(4, 3, dtype=getattr(lib, input)), lib.ones(3, dtype=getattr(lib, input))
        lib.nn.functional.batch_norm(x, mean, var, weight, training=True)

    same_error(run, words)
