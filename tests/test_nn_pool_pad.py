"""Pooling and padding against PyTorch: max_pool1d/2d, avg_pool1d/2d, adaptive_avg_pool1d/2d,
adaptive_max_pool1d/2d, pad (all four modes) and their modules.

Each numeric test runs the same snippet in both libraries (``same``) and compares values, the
indices max pooling returns, first and second derivatives (for the input and the upstream
gradient), the recorded nodes of the result and of its gradient (the backward ops' own nodes:
MaxPool2DWithIndicesBackwardBackward0, ...). Ties, NaNs, all -inf windows and padding taps pin
which element gets the gradient. Errors are compared by type and key words.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int = 0) -> np.ndarray:
    """The same values for both libraries (distinct, so that no window has a tie)."""
    return 3 * np.random.default_rng(seed).standard_normal(shape)


def _leaf(lib, values, dtype: str = "float64"):
    return lib.tensor(np.asarray(values), dtype=getattr(lib, dtype), requires_grad=True)


def _derivatives(lib, out, inputs: list, grad_nodes: bool = True):
    """``out``, its nodes, its gradients for ``inputs`` under a fixed upstream gradient (made with a
    graph) and (with ``grad_nodes``) their nodes, and the gradients of a weighted sum of those: the
    second derivatives for the inputs and the upstream gradient (zeros where there is none)."""
    upstream = lib.tensor(_array(tuple(out.shape), 7), dtype=out.dtype, requires_grad=True)
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=True)
    total = sum((g * lib.tensor(_array(tuple(g.shape), 8 + k), dtype=g.dtype)).sum() for k, g in enumerate(grads))
    wrt = [*inputs, upstream]
    seconds = lib.autograd.grad(total, wrt, allow_unused=True)
    seconds = [lib.zeros_like(x) + (0 if g is None else g) for g, x in zip(seconds, wrt)]
    nodes = [node_names(g) for g in grads] if grad_nodes else None
    return out, node_names(out), list(grads), nodes, seconds


def _functional(lib):
    return lib.nn.functional


# ---------------------------------------------------------------------------------------------- pooling
# name: (input shape, call); inputs of odd sizes so that ceil_mode and the adaptive windows overlap.
POOLS = {
    "max 2x2": ((2, 3, 6, 7), lambda f, x: f.max_pool2d(x, 2)),
    "max unbatched": ((3, 6, 7), lambda f, x: f.max_pool2d(x, 2)),
    "max stride padding": ((2, 2, 7, 6), lambda f, x: f.max_pool2d(x, 3, stride=2, padding=1)),
    "max ceil_mode": ((2, 2, 7, 6), lambda f, x: f.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)),
    "max pairs dilation": (
        (1, 2, 9, 8),
        lambda f, x: f.max_pool2d(x, (3, 2), (2, 1), (1, 1), dilation=(2, 3), ceil_mode=True),
    ),
    # a last window that would start in the padding is dropped
    "max ceil_mode dropped window": ((1, 2, 5, 5), lambda f, x: f.max_pool2d(x, 2, 2, 1, ceil_mode=True)),
    "avg ceil_mode dropped window": ((1, 2, 5, 5), lambda f, x: f.avg_pool2d(x, 2, 2, 1, ceil_mode=True)),
    "max overlapping": ((1, 2, 5, 5), lambda f, x: f.max_pool2d(x, 3, stride=1)),
    "avg 2x2": ((2, 3, 6, 7), lambda f, x: f.avg_pool2d(x, 2)),
    "avg unbatched": ((3, 6, 7), lambda f, x: f.avg_pool2d(x, 3, 2)),
    "avg padding counted": ((2, 2, 7, 6), lambda f, x: f.avg_pool2d(x, 3, 2, 1)),
    "avg padding not counted": ((2, 2, 7, 6), lambda f, x: f.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
    "avg ceil_mode": ((2, 2, 7, 6), lambda f, x: f.avg_pool2d(x, 3, 2, 1, ceil_mode=True)),
    "avg ceil_mode not counted": (
        (2, 2, 7, 6),
        lambda f, x: f.avg_pool2d(x, (3, 2), (2, 3), (1, 1), ceil_mode=True, count_include_pad=False),
    ),
    "avg divisor_override": ((1, 2, 7, 6), lambda f, x: f.avg_pool2d(x, 3, 2, 1, ceil_mode=True, divisor_override=5)),
    "adaptive avg smaller": ((2, 3, 7, 6), lambda f, x: f.adaptive_avg_pool2d(x, (3, 4))),
    "adaptive avg larger": ((2, 3, 4, 3), lambda f, x: f.adaptive_avg_pool2d(x, (6, 5))),
    "adaptive avg None": ((3, 7, 6), lambda f, x: f.adaptive_avg_pool2d(x, (None, 4))),
    "adaptive avg to 1": ((2, 3, 7, 6), lambda f, x: f.adaptive_avg_pool2d(x, 1)),
    "adaptive avg unbatched to 1": ((3, 7, 6), lambda f, x: f.adaptive_avg_pool2d(x, (1, 1))),
    "adaptive max": ((2, 3, 7, 6), lambda f, x: f.adaptive_max_pool2d(x, (3, 4))),
    "adaptive max larger": ((1, 2, 4, 3), lambda f, x: f.adaptive_max_pool2d(x, 5)),
    "adaptive max to 1": ((3, 7, 6), lambda f, x: f.adaptive_max_pool2d(x, 1)),
    "max 1d": ((2, 3, 9), lambda f, x: f.max_pool1d(x, 3, 2, 1, dilation=2, ceil_mode=True)),
    "max 1d unbatched": ((3, 8), lambda f, x: f.max_pool1d(x, 2)),
    "avg 1d": ((2, 3, 9), lambda f, x: f.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)),
    "avg 1d unbatched": ((3, 8), lambda f, x: f.avg_pool1d(x, 2)),
    "adaptive avg 1d": ((2, 3, 9), lambda f, x: f.adaptive_avg_pool1d(x, 4)),
    "adaptive avg 1d to 1": ((3, 9), lambda f, x: f.adaptive_avg_pool1d(x, 1)),
    "adaptive max 1d": ((2, 3, 9), lambda f, x: f.adaptive_max_pool1d(x, 4)),
}


# The gradients' nodes are not compared where they come from other ops' rules, which record other
# nodes than PyTorch's: pooled to size 1, adaptive_avg_pool is a mean (MeanBackward1 in both), whose
# gradient minigrad divides by a tensor (DivBackward0; PyTorch: DivBackward1); the 1-d pools squeeze
# the 2-d pool's result, and squeeze's gradient is a view in minigrad (PyTorch: an unsqueeze).
OTHER_RULES = {"adaptive avg to 1", "adaptive avg unbatched to 1"} | {name for name in POOLS if " 1d" in name}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", POOLS)
def test_pool_values_gradients_second_derivatives_and_nodes(name, dtype):
    shape, call = POOLS[name]

    def run(lib):
        x = _leaf(lib, _array(shape), dtype)
        return _derivatives(lib, call(_functional(lib), x), [x], grad_nodes=name not in OTHER_RULES)

    same(run)


INDEXED = {
    "max_pool2d": lambda f, x: f.max_pool2d(x, 3, 2, 1, dilation=1, ceil_mode=True, return_indices=True),
    "max_pool2d dilated": lambda f, x: f.max_pool2d(x, 2, 1, 1, dilation=2, return_indices=True),
    "adaptive_max_pool2d": lambda f, x: f.adaptive_max_pool2d(x, (3, 2), return_indices=True),
    "max_pool1d": lambda f, x: f.max_pool1d(x[0], 3, 2, 1, ceil_mode=True, return_indices=True),
    "adaptive_max_pool1d": lambda f, x: f.adaptive_max_pool1d(x[0], 3, True),
}


@pytest.mark.parametrize("name", INDEXED)
def test_max_pools_return_the_indices_torch_returns(name):
    def run(lib):
        x = _leaf(lib, _array((2, 3, 7, 6)))
        out, indices = INDEXED[name](_functional(lib), x)
        return out, indices, node_names(out)

    same(run)


# Which element a window's gradient goes to: the first of equal maxima, the last NaN, and for
# a window of -inf only its first element inside the input (never a padding tap).
EDGE_PLANES = {
    "ties": [[1.0, 2.0, 2.0, 0.0], [2.0, 2.0, 0.0, 2.0], [5.0, 5.0, 5.0, 5.0], [5.0, 5.0, 1.0, 1.0]],
    "nans": [[1.0, np.nan, 3.0, 0.0], [np.nan, 2.0, np.nan, np.nan], [0.0, 1.0, 2.0, 3.0], [4.0, np.nan, 5.0, 6.0]],
    "-inf": [[-np.inf] * 4, [-np.inf] * 4, [1.0, -np.inf, -np.inf, 2.0], [-np.inf] * 4],
}


@pytest.mark.parametrize("plane", EDGE_PLANES)
@pytest.mark.parametrize(
    "call",
    [
        lambda f, x: f.max_pool2d(x, 2, return_indices=True),
        lambda f, x: f.max_pool2d(x, 3, 1, 1, return_indices=True),
        lambda f, x: f.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True),
        lambda f, x: f.adaptive_max_pool2d(x, 3, return_indices=True),
    ],
    ids=["2x2", "padded", "ceil_mode", "adaptive"],
)
def test_max_pool_picks_the_element_torch_picks(plane, call):
    def run(lib):
        x = _leaf(lib, [EDGE_PLANES[plane]])
        out, indices = call(_functional(lib), x)
        out.backward(lib.ones_like(out))
        return out, indices, x.grad

    same(run)


def test_gradgradcheck_of_the_pools():
    def run(lib):
        f, x = _functional(lib), _leaf(lib, _array((1, 2, 5, 6)))
        check = lib.autograd.gradgradcheck
        return [
            check(lambda a: f.max_pool2d(a, 3, 2, 1, ceil_mode=True), (x,)),
            check(lambda a: f.avg_pool2d(a, 3, 2, 1, ceil_mode=True, count_include_pad=False), (x,)),
            check(lambda a: f.adaptive_avg_pool2d(a, (4, 3)), (x,)),
            check(lambda a: f.adaptive_max_pool2d(a, (2, 4)), (x,)),
            check(lambda a: f.max_pool1d(a[0], 2), (x,)),
        ]

    assert same(run) == [True] * 5


def test_integer_inputs_pool_as_in_torch():
    # max pooling keeps the dtype; average pooling divides with truncation
    def run(lib):
        f = _functional(lib)
        x = lib.tensor([[[-1, -6, 3], [3, 2, -7], [4, 4, 9]]])
        return (
            f.max_pool2d(x, 2, 1, return_indices=True),
            f.avg_pool2d(x, 2, 1),
            f.avg_pool2d(x, 2, 1, 1, divisor_override=3),
        )

    same(run)


@pytest.mark.parametrize(
    "call",
    [
        lambda f, x: f.adaptive_avg_pool2d(x, 2),
        lambda f, x: f.adaptive_max_pool2d(x, 2),
        lambda f, x: f.adaptive_avg_pool1d(x[0], 2),
        lambda f, x: f.max_pool1d(x[0], 2),
        lambda f, x: f.avg_pool2d(x > 0, 2),
        lambda f, x: f.pad(x > 0, (1, 1), mode="reflect"),
    ],
    ids=["adaptive avg", "adaptive max", "adaptive avg 1d", "max 1d", "avg bool", "reflect bool"],
)
def test_pools_refuse_the_dtypes_torch_refuses(call):
    error = same_error(lambda lib: call(_functional(lib), lib.arange(24).reshape(2, 3, 4)), "not implemented for")
    assert type(error) is NotImplementedError


def test_an_empty_batch_pools_to_an_empty_batch():
    def run(lib):
        f, x = _functional(lib), _leaf(lib, np.zeros((0, 2, 4, 4)))
        outs = [f.max_pool2d(x, 2), f.avg_pool2d(x, 2), f.adaptive_avg_pool2d(x, 3), f.adaptive_max_pool2d(x, 3)]
        sum(o.sum() for o in outs).backward()
        return outs, x.grad

    same(run)


def test_max_pool_saves_what_torch_saves():
    def run(lib):
        x = _leaf(lib, _array((1, 1, 4, 5)))
        node = _functional(lib).max_pool2d(x, 2, 1, 1, 1, True).grad_fn
        return (
            node._saved_kernel_size,
            node._saved_stride,
            node._saved_padding,
            node._saved_dilation,
            node._saved_ceil_mode,
            node._saved_result1,
            node._saved_self,
        )

    same(run)


def test_avg_pool_saves_what_torch_saves():
    def run(lib):
        x = _leaf(lib, _array((1, 1, 4, 5)))
        node = _functional(lib).avg_pool2d(x, (2, 3), 1, 1, False, False, 4).grad_fn
        return (
            node._saved_kernel_size,
            node._saved_stride,
            node._saved_padding,
            node._saved_ceil_mode,
            node._saved_count_include_pad,
            node._saved_divisor_override,
            node._saved_self,
        )

    same(run)


def test_pools_save_their_input_so_changing_it_breaks_backward():
    for call in (lambda f, y: f.max_pool2d(y, 2), lambda f, y: f.avg_pool2d(y, 2)):

        def run(lib, call=call):
            y = _leaf(lib, _array((1, 4, 4))) * 1
            out = call(_functional(lib), y)
            y.add_(1)
            out.sum().backward()

        same_error(run, "modified by an inplace operation")


POOL_ERRORS = {
    "pad over half the kernel": (lambda f, x: f.max_pool2d(x, 2, padding=2), "pad should be at most half"),
    "pad over half the undilated kernel": (
        lambda f, x: f.max_pool2d(x, 2, padding=2, dilation=3),
        "pad should be smaller than or equal to half of kernel size",
    ),
    "output too small": (lambda f, x: f.max_pool2d(x, 8), "Output size is too small"),
    "avg output too small": (lambda f, x: f.avg_pool2d(x, (2, 8)), "Output size is too small"),
    "avg pad over half": (lambda f, x: f.avg_pool2d(x, 3, padding=2), "pad should be at most half"),
    "2-D input": (lambda f, x: f.max_pool2d(x[0, 0], 2), "3D or 4D"),
    "5-D input": (lambda f, x: f.max_pool2d(x[None], 2), "3D or 4D"),
    "empty channels": (lambda f, x: f.max_pool2d(x[:, :0], 2), "optional 0 dim batch size"),
    "avg empty channels": (lambda f, x: f.avg_pool2d(x[:, :0], 2), "optional 0 dim batch size"),
    "zero stride": (lambda f, x: f.max_pool2d(x, 2, 0), "stride should not be zero"),
    "zero kernel": (lambda f, x: f.avg_pool2d(x, 0, 1), "kernel size should be greater than zero"),
    "zero dilation": (lambda f, x: f.max_pool2d(x, 2, dilation=0), "dilation should be greater than zero"),
    "negative padding": (lambda f, x: f.avg_pool2d(x, 2, padding=-1), "pad must be non-negative"),
    "three kernel sizes": (lambda f, x: f.max_pool2d(x, (2, 2, 2)), "kernel_size must either be a single int"),
    "three strides": (lambda f, x: f.avg_pool2d(x, 2, (1, 1, 1)), "stride must either be omitted"),
    "zero divisor": (lambda f, x: f.avg_pool2d(x, 2, divisor_override=0), "divisor must be not zero"),
    "bool input": (lambda f, x: f.max_pool2d(x > 0, 2), "not implemented for 'Bool'"),
    "adaptive avg 2-D input": (lambda f, x: f.adaptive_avg_pool2d(x[0, 0], 2), "Expected 3D or 4D tensor"),
    "adaptive avg three sizes": (lambda f, x: f.adaptive_avg_pool2d(x, (1, 2, 3)), "output_size must be 2"),
    "adaptive avg negative": (lambda f, x: f.adaptive_avg_pool2d(x, -1), "greater than or equal to 0"),
    "adaptive avg empty plane": (lambda f, x: f.adaptive_avg_pool2d(x[:, :, :0], 2), "non-zero size"),
    "adaptive max 2-D input": (lambda f, x: f.adaptive_max_pool2d(x[0, 0], 2), "Expected 3D or 4D tensor"),
    "adaptive max empty channels": (lambda f, x: f.adaptive_max_pool2d(x[:, :0], 2), "non-zero size"),
    "max 1d 1-D input": (lambda f, x: f.max_pool1d(x[0, 0, 0], 2), "Expected 2D or 3D"),
    "max 1d padding": (lambda f, x: f.max_pool1d(x[0], 2, padding=2), "at most half of kernel size"),
    "max 1d output": (lambda f, x: f.max_pool1d(x[0], 9), "Invalid computed output size: 0"),
    "max 1d zero kernel": (lambda f, x: f.max_pool1d(x[0], 0), "kernel_size must be greater than zero"),
    "max 1d two kernel sizes": (lambda f, x: f.max_pool1d(x[0], (2, 2)), "tuple of ints of size 1"),
    "avg 1d 4-D input": (lambda f, x: f.avg_pool1d(x, 2), "Expected 2 to 3 dimensions"),
    "avg 1d two kernel sizes": (lambda f, x: f.avg_pool1d(x[0], (2, 2)), "should contain one int"),
    "avg 1d output": (lambda f, x: f.avg_pool1d(x[0], 9), "Output size is too small"),
    "adaptive avg 1d 1-D input": (lambda f, x: f.adaptive_avg_pool1d(x[0, 0, 0], 2), "Expected 2 to 3 dimensions"),
    "adaptive max 1d two sizes": (lambda f, x: f.adaptive_max_pool1d(x[0], (2, 2)), "should contain one int"),
}


@pytest.mark.parametrize("name", POOL_ERRORS)
def test_pool_errors_match_torch(name):
    call, words = POOL_ERRORS[name]
    same_error(lambda lib: call(_functional(lib), lib.tensor(_array((2, 3, 6, 7)))), words)


def test_avg_pool2d_of_a_2d_input_is_an_index_error_as_in_torch():
    same_error(lambda lib: _functional(lib).avg_pool2d(lib.ones(6, 7), 2), "Dimension out of range")


# ---------------------------------------------------------------------------------------------- padding
PADS = {
    "constant": ((2, 3, 4, 5), lambda f, x: f.pad(x, (1, 2))),
    "constant value, 3 dims": ((2, 3, 4, 5), lambda f, x: f.pad(x, (1, 0, 2, 1, 0, 1), value=-2.5)),
    "constant negative": ((2, 3, 4, 5), lambda f, x: f.pad(x, (-1, 2, 1, -2))),
    "constant to empty": ((2, 3, 4, 5), lambda f, x: f.pad(x, (-2, -3))),
    "constant every dim": ((2, 3), lambda f, x: f.pad(x, [1, 1, 0, 2])),
    "reflect 1d": ((2, 3, 5), lambda f, x: f.pad(x, (2, 4), mode="reflect")),
    "reflect 1d unbatched": ((3, 5), lambda f, x: f.pad(x, (4, 1), mode="reflect")),
    "reflect 2d": ((2, 3, 4, 5), lambda f, x: f.pad(x, (1, 2, 3, 1), mode="reflect")),
    "reflect 2d unbatched negative": ((3, 4, 5), lambda f, x: f.pad(x, (-1, 2, 3, -2), mode="reflect")),
    "reflect 3d": ((1, 2, 3, 4, 5), lambda f, x: f.pad(x, (1, 2, 2, 1, 1, 2), mode="reflect")),
    "replicate 1d": ((2, 3, 5), lambda f, x: f.pad(x, (7, 1), mode="replicate")),
    "replicate 2d": ((2, 3, 4, 5), lambda f, x: f.pad(x, (1, 6, 2, 0), mode="replicate")),
    "replicate 2d negative": ((3, 4, 5), lambda f, x: f.pad(x, (-2, 1, 1, -1), mode="replicate")),
    "replicate 3d unbatched": ((2, 3, 4, 5), lambda f, x: f.pad(x, (1, 1, 0, 2, 3, 0), mode="replicate")),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", PADS)
def test_pad_values_gradients_second_derivatives_and_nodes(name, dtype):
    shape, call = PADS[name]

    def run(lib):
        x = _leaf(lib, _array(shape), dtype)
        return _derivatives(lib, call(_functional(lib), x), [x])

    same(run)


@pytest.mark.parametrize(
    "shape, padding",
    [
        ((3, 5), (1, 2)),
        ((2, 3, 5), (2, -1)),
        ((2, 3, 5), (-1, 3)),
        ((2, 3, 4, 5), (1, 2, 2, 1)),
        ((3, 4, 5), (3, -2, -1, 2)),
    ],
    ids=["1d", "1d cut", "cut 1d", "2d", "2d cut"],
)
def test_circular_pad_values_and_gradients(shape, padding):
    # PyTorch copies slices (CopySlices nodes); minigrad reads wrapped positions (IndexBackward0)
    def run(lib):
        x = _leaf(lib, _array(shape))
        out, _, grads, _, seconds = _derivatives(lib, _functional(lib).pad(x, padding, mode="circular"), [x], False)
        return out, grads, seconds

    same(run)


def test_constant_pad_of_an_integer_tensor_casts_the_value():
    same(lambda lib: _functional(lib).pad(lib.arange(6).reshape(2, 3), (1, 1, 1, 0), value=2.7))


def test_non_constant_pads_of_integer_tensors():
    def run(lib):
        x = lib.arange(12).reshape(1, 3, 4)
        return [_functional(lib).pad(x, (2, 1, 1, 2), mode=mode) for mode in ("reflect", "replicate", "circular")]

    same(run)


def test_gradgradcheck_of_the_pads():
    def run(lib):
        f, x = _functional(lib), _leaf(lib, _array((1, 2, 4, 5)))
        check = lib.autograd.gradgradcheck
        return [
            check(lambda a: f.pad(a, (1, -2, 0, 3), value=1.5), (x,)),
            check(lambda a: f.pad(a, (1, 3, 2, 0), mode="reflect"), (x,)),
            check(lambda a: f.pad(a[0], (4, 1), mode="replicate"), (x,)),
        ]

    assert same(run) == [True] * 3


def test_pad_saves_what_torch_saves():
    def run(lib):
        x = _leaf(lib, _array((1, 3, 4)))
        f = _functional(lib)
        return f.pad(x, (1, 2)).grad_fn._saved_pad, f.pad(x, (1, 2, 0, 1), mode="reflect").grad_fn._saved_padding

    same(run)


PAD_ERRORS = {
    "odd length": (lambda f, x: f.pad(x, (1,)), RuntimeError, "Padding length must be divisible by 2"),
    "too long": (lambda f, x: f.pad(x, (1,) * 10), RuntimeError, "less than or equal to two times"),
    "float width": (lambda f, x: f.pad(x, (1.5, 1)), TypeError, "must be tuple of ints"),
    "negative size": (lambda f, x: f.pad(x, (-4, -4)), RuntimeError, "length must be non-negative"),
    "unknown mode": (lambda f, x: f.pad(x, (1, 1), mode="wrap"), NotImplementedError, "Unrecognised padding mode"),
    "value with reflect": (
        lambda f, x: f.pad(x, (1, 1, 1, 1), mode="reflect", value=1.0),
        RuntimeError,
        "doesn't take in value argument",
    ),
    "reflect 2 on 4-D": (lambda f, x: f.pad(x, (1, 1), mode="reflect"), NotImplementedError, "Padding size 2"),
    "replicate 4 on 2-D": (
        lambda f, x: f.pad(x[0, 0], (1, 1, 1, 1), mode="replicate"),
        NotImplementedError,
        "not supported for 2D input",
    ),
    "circular 2 on 1-D": (lambda f, x: f.pad(x[0, 0, 0], (1, 1), mode="circular"), NotImplementedError, "1D input"),
    "reflect as wide as the input": (
        lambda f, x: f.pad(x, (7, 0, 0, 0), mode="reflect"),
        RuntimeError,
        "Padding size should be less than the corresponding input dimension",
    ),
    "reflect 1d too small": (lambda f, x: f.pad(x[0], (-4, -3), mode="reflect"), RuntimeError, "is too small"),
    "replicate negative size": (
        lambda f, x: f.pad(x, (0, 0, -4, -3), mode="replicate"),
        RuntimeError,
        "negative dimension -1",
    ),
    "reflect empty": (lambda f, x: f.pad(x[:, :0], (1, 1, 1, 1), mode="reflect"), RuntimeError, "non-zero dimensions"),
    "circular wraps twice": (
        lambda f, x: f.pad(x, (8, 0, 0, 0), mode="circular"),
        RuntimeError,
        "wrapping around more than once",
    ),
}


@pytest.mark.parametrize("name", PAD_ERRORS)
def test_pad_errors_match_torch(name):
    call, kind, words = PAD_ERRORS[name]
    error = same_error(lambda lib: call(_functional(lib), lib.tensor(_array((2, 3, 6, 7)))), words)
    assert type(error) is kind


def test_reflect_pad_error_names_the_dim_and_argument():
    same_error(
        lambda lib: _functional(lib).pad(lib.ones(2, 3, 6, 7), (0, 0, 6, 0), mode="reflect"),
        "Argument #6",
        "padding (6, 0) at dimension 2 of input [2, 3, 6, 7]",
    )


# ---------------------------------------------------------------------------------------------- modules
MODULES = {
    "MaxPool2d": lambda nn: nn.MaxPool2d(2),
    "MaxPool2d full": lambda nn: nn.MaxPool2d((2, 3), 1, 1, 2, True, True),
    "MaxPool1d": lambda nn: nn.MaxPool1d(3, 2, 1, 2, False, True),
    "AvgPool2d": lambda nn: nn.AvgPool2d(2),
    "AvgPool2d full": lambda nn: nn.AvgPool2d((2, 3), 1, 1, True, False, 3),
    "AvgPool1d": lambda nn: nn.AvgPool1d(3, 2, 1, True, False),
    "AdaptiveAvgPool2d": lambda nn: nn.AdaptiveAvgPool2d((None, 2)),
    "AdaptiveAvgPool2d to 1": lambda nn: nn.AdaptiveAvgPool2d(1),
    "AdaptiveMaxPool2d": lambda nn: nn.AdaptiveMaxPool2d((2, 3), return_indices=True),
    "AdaptiveAvgPool1d": lambda nn: nn.AdaptiveAvgPool1d(3),
    "AdaptiveMaxPool1d": lambda nn: nn.AdaptiveMaxPool1d(3),
    "ZeroPad1d": lambda nn: nn.ZeroPad1d(2),
    "ZeroPad2d": lambda nn: nn.ZeroPad2d((1, 2, 0, 1)),
    "ConstantPad1d": lambda nn: nn.ConstantPad1d((1, 2), 3.5),
    "ConstantPad2d": lambda nn: nn.ConstantPad2d(1, -1),
    "ReflectionPad1d": lambda nn: nn.ReflectionPad1d(2),
    "ReflectionPad2d": lambda nn: nn.ReflectionPad2d((1, 0, 2, 3)),
    "ReplicationPad1d": lambda nn: nn.ReplicationPad1d((3, 1)),
    "ReplicationPad2d": lambda nn: nn.ReplicationPad2d(1),
    "CircularPad1d": lambda nn: nn.CircularPad1d(1),
    "CircularPad2d": lambda nn: nn.CircularPad2d((1, 2, 2, 1)),
}


@pytest.mark.parametrize("name", MODULES)
def test_modules_print_store_and_compute_as_torch(name):
    def run(lib):
        module = MODULES[name](lib.nn)
        x = _leaf(lib, _array((2, 4, 5, 6) if "1d" not in name else (2, 4, 6)))
        out = module(x)
        outs = list(out) if isinstance(out, tuple) else [out]
        attributes = {k: v for k, v in vars(module).items() if not k.startswith("_") and k != "training"}
        return repr(module), list(module.state_dict()), attributes, outs, lib.autograd.grad(outs[0].sum(), x)

    same(run)


def test_a_small_cnn_trains_the_same():
    def run(lib):
        lib.manual_seed(0)
        nn = lib.nn
        model = nn.Sequential(
            nn.ReflectionPad2d(1),
            nn.Conv2d(1, 2, 3),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.ZeroPad2d((0, 1, 0, 1)),
            nn.AvgPool2d(2, ceil_mode=True),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        with lib.no_grad():
            for k, p in enumerate(model.parameters()):
                p.copy_(lib.tensor(_array(tuple(p.shape), 20 + k), dtype=p.dtype))
        loss = model(lib.tensor(_array((2, 1, 8, 8)), dtype=lib.float32)).square().sum()
        loss.backward()
        return loss, [p.grad for p in model.parameters()], repr(model)

    same(run)


# ---------------------------------------------------------------------------------------------- softmin, unflatten
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_softmin_values_gradients_and_nodes(dtype):
    def run(lib):
        x = _leaf(lib, _array((3, 4)), dtype)
        return _derivatives(lib, _functional(lib).softmin(x, 1), [x]), lib.nn.Softmin(0)(x), repr(lib.nn.Softmin(0))

    same(run)


def test_softmin_without_dim_warns_as_torch_and_takes_a_dtype():
    def run(lib):
        x = lib.tensor(_array((2, 3)))
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
            implicit = lib.nn.Softmin()(x)
        return implicit, _functional(lib).softmin(x, -1, dtype=lib.float32), repr(lib.nn.Softmin())

    same(run)


def test_unflatten_module():
    def run(lib):
        module = lib.nn.Unflatten(1, (2, -1))
        x = _leaf(lib, _array((3, 6, 2)))
        out = module(x)
        return repr(module), out, node_names(out), list(module.state_dict())

    same(run)


@pytest.mark.parametrize(
    "size, words",
    [(6, "but found type int"), ((2, 3.0), "found element of type float at pos 1")],
    ids=["not a tuple", "a float size"],
)
def test_unflatten_checks_its_sizes_as_torch(size, words):
    error = same_error(lambda lib: lib.nn.Unflatten(1, size), words)
    assert type(error) is TypeError
