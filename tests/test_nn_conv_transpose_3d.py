"""Transposed and 3-d convolutions, 3-d pooling, normalisation, dropout and padding (functions and
modules) against PyTorch: values, gradients, second derivatives, recorded nodes, saved values,
initial parameters, modules and errors.

Each numeric test runs the same snippet in both libraries (``same``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

pytestmark = pytest.mark.usefixtures("on_device")


def _leaf(lib, shape, dtype: str = "float64", seed: int = 0):
    array = np.random.default_rng(seed).standard_normal(shape)
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=True)


def _edges(t) -> list:
    """The node's name and where its edges go (node names, or None for an input needing no grad)."""
    node = t.grad_fn
    return [node.name()] + [
        None if n is None else n.name().replace("torch::autograd::", "") for n, _ in node.next_functions
    ]


# ---------------------------------------------------------------------------------------------- functions
# name: (function, input shape, weight shape, bias, keyword arguments)
CONVS = {
    "transpose1d plain": ("conv_transpose1d", (2, 3, 5), (3, 4, 3), True, {}),
    "transpose1d every option": (
        "conv_transpose1d",
        (2, 4, 5),
        (4, 3, 3),
        True,
        dict(stride=2, padding=1, output_padding=1, groups=2, dilation=2),
    ),
    # output_padding may reach past the stride when below the dilation
    "transpose1d output_padding under dilation": (
        "conv_transpose1d",
        (2, 4, 5),
        (4, 3, 3),
        False,
        dict(dilation=2, output_padding=1),
    ),
    "transpose1d unbatched": ("conv_transpose1d", (3, 4), (3, 2, 2), True, dict(stride=3)),
    "transpose2d": (
        "conv_transpose2d",
        (2, 4, 3, 4),
        (4, 2, 3, 2),
        True,
        dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), dilation=(1, 2), groups=2),
    ),
    "transpose2d unbatched, no bias": ("conv_transpose2d", (2, 3, 3), (2, 3, 2, 2), False, dict(padding=1)),
    "transpose3d": ("conv_transpose3d", (1, 2, 3, 2, 3), (2, 3, 2, 2, 3), True, dict(stride=2, padding=1)),
    "transpose3d empty batch": ("conv_transpose3d", (0, 2, 2, 2, 2), (2, 1, 2, 2, 2), True, {}),
    "conv3d": (
        "conv3d",
        (2, 2, 4, 3, 5),
        (4, 1, 2, 2, 3),
        True,
        dict(stride=(1, 2, 1), padding=1, groups=2, dilation=(2, 1, 1)),
    ),
    "conv3d unbatched, same": ("conv3d", (2, 4, 3, 5), (3, 2, 2, 2, 3), False, dict(padding="same")),
    "conv3d valid": ("conv3d", (1, 1, 3, 3, 3), (2, 1, 3, 1, 2), True, dict(padding="valid")),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CONVS)
def test_convolution_values_gradients_second_derivatives_and_nodes(name, dtype):
    function, x_shape, w_shape, has_bias, kwargs = CONVS[name]
    transposed = function.startswith("conv_transpose")
    bias_size = w_shape[1] * kwargs.get("groups", 1) if transposed else w_shape[0]

    def run(lib):
        x, w = _leaf(lib, x_shape, dtype), _leaf(lib, w_shape, dtype, 1)
        b = _leaf(lib, (bias_size,), dtype, 2) if has_bias else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 'same' with an even reach warns
            out = getattr(lib.nn.functional, function)(x, w, b, **kwargs)
        return derivatives(lib, out, [x, w] + ([b] if has_bias else []))

    same(run)


def test_transposed_convolution_records_one_convolution_node_with_pytorchs_saved_values():
    def run(lib):
        x, w, b = _leaf(lib, (2, 4, 5)), _leaf(lib, (4, 3, 3), seed=1), _leaf(lib, (6,), seed=2)
        out = lib.nn.functional.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1, groups=2)
        node = out.grad_fn
        saved = [tuple(getattr(node, f"_saved_{k}")) for k in ("stride", "padding", "dilation", "output_padding")]
        no_bias = lib.nn.functional.conv_transpose2d(_leaf(lib, (1, 4, 2, 2)), _leaf(lib, (4, 1, 2, 2)))
        conv = lib.nn.functional.conv3d(_leaf(lib, (1, 2, 3, 3, 3)), _leaf(lib, (1, 2, 2, 2, 2)))
        return (
            _edges(out),
            saved,
            node._saved_transposed,
            node._saved_groups,
            node._saved_weight,
            _edges(no_bias),
            conv.grad_fn._saved_transposed,
            tuple(conv.grad_fn._saved_output_padding),
            node_names(lib.conv_transpose1d(x[0], w, b, groups=2)),
        )

    same(run)


def test_transposed_convolution_is_the_input_gradient_of_a_convolution():
    x, w = _leaf(minigrad, (2, 3, 7, 6)), _leaf(minigrad, (4, 3, 3, 2), seed=1)
    out = minigrad.nn.functional.conv2d(x, w, stride=2, padding=1, dilation=(1, 2))
    g = _leaf(minigrad, tuple(out.shape), seed=3)
    (expected,) = minigrad.autograd.grad(out, x, g)
    got = minigrad.nn.functional.conv_transpose2d(g, w, stride=2, padding=1, output_padding=(0, 1), dilation=(1, 2))
    np.testing.assert_allclose(got.detach().numpy(), expected.numpy(), atol=1e-12)


def test_conv_transpose_gradcheck_and_gradgradcheck_in_float64():
    x, w, b = _leaf(minigrad, (1, 4, 3, 2)), _leaf(minigrad, (4, 1, 2, 3), seed=1), _leaf(minigrad, (2,), seed=2)

    def conv(*args):
        return minigrad.nn.functional.conv_transpose2d(*args, stride=2, padding=(1, 0), output_padding=1, groups=2)

    assert minigrad.autograd.gradcheck(conv, (x, w, b))
    assert minigrad.autograd.gradgradcheck(conv, (x, w, b))


CONV_ERRORS = {
    "output_padding not below stride or dilation": (
        "conv_transpose1d",
        (2, 4, 5),
        (4, 3, 3),
        dict(output_padding=1),
        ("output padding must be smaller than either stride or dilation",),
    ),
    "output_padding 3d": (
        "conv_transpose3d",
        (1, 4, 2, 2, 2),
        (4, 3, 3, 3, 3),
        dict(output_padding=(0, 1, 0), stride=(1, 1, 2)),
        ("output padding must be smaller than either stride or dilation", "output_padding_depth: 0"),
    ),
    "groups do not divide the weight": ("conv_transpose1d", (2, 4, 5), (4, 3, 3), dict(groups=3), ("Given groups=3",)),
    "channels": ("conv_transpose1d", (2, 4, 5), (3, 3, 3), {}, ("Given transposed=1", "to have 3 channels")),
    "negative padding": ("conv_transpose1d", (2, 4, 5), (4, 3, 3), dict(padding=-1), ("negative padding",)),
    "negative output_padding": (
        "conv_transpose1d",
        (2, 4, 5),
        (4, 3, 3),
        dict(output_padding=-1),
        ("negative output_padding",),
    ),
    "stride": ("conv_transpose2d", (1, 4, 3, 3), (4, 3, 2, 2), dict(stride=0), ("non-positive stride",)),
    "groups": ("conv_transpose2d", (1, 4, 3, 3), (4, 3, 2, 2), dict(groups=0), ("non-positive groups",)),
    "input dims": ("conv_transpose3d", (2, 3, 3), (3, 2, 2, 2, 2), {}, ("Expected 4D (unbatched) or 5D (batched)",)),
    "too many values": (
        "conv_transpose1d",
        (2, 4, 5),
        (4, 3, 3),
        dict(output_padding=(1, 2)),
        ("expected output_padding to be a single integer value or a list of 1 values",),
    ),
    "empty length": ("conv_transpose1d", (2, 4, 0), (4, 3, 3), {}, ("Only zero batch or zero channel inputs",)),
    "weight dims": ("conv_transpose1d", (2, 4, 5), (4, 3), {}, ("weight should have at least three dimensions",)),
    "conv3d input dims": ("conv3d", (2, 3, 3), (3, 2, 2, 2, 2), {}, ("Expected 4D (unbatched) or 5D (batched)",)),
    "conv3d kernel too large": ("conv3d", (1, 1, 2, 2, 2), (1, 1, 3, 1, 1), {}, ("Kernel size can't be greater",)),
}


@pytest.mark.parametrize("name", CONV_ERRORS)
def test_convolution_errors_match_torch(name):
    function, x_shape, w_shape, kwargs, words = CONV_ERRORS[name]
    same_error(
        lambda lib: getattr(lib.nn.functional, function)(_leaf(lib, x_shape), _leaf(lib, w_shape), **kwargs), *words
    )


def test_conv_transpose_errors_on_bias_and_dtypes():
    same_error(
        lambda lib: lib.nn.functional.conv_transpose1d(_leaf(lib, (2, 4, 5)), _leaf(lib, (4, 3, 3)), _leaf(lib, (4,))),
        "Given transposed=1",
        "expected bias to be 1-dimensional with 3 elements",
    )
    same_error(
        lambda lib: lib.nn.functional.conv_transpose1d(_leaf(lib, (2, 4, 5), "float32"), _leaf(lib, (4, 3, 3))),
        "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same",
    )
    with pytest.raises(RuntimeError, match="Output size is too small"):  # (PyTorch's oneDNN message differs)
        minigrad.nn.functional.conv_transpose1d(_leaf(minigrad, (2, 4, 5)), _leaf(minigrad, (4, 3, 3)), padding=5)
    with pytest.raises(TypeError, match="must be tuple of ints, not str"):
        minigrad.nn.functional.conv_transpose1d(_leaf(minigrad, (2, 4, 5)), _leaf(minigrad, (4, 3, 3)), padding="same")


# ---------------------------------------------------------------------------------------------- modules
def _modules(lib) -> dict:
    nn = lib.nn
    return {
        "ConvTranspose1d": nn.ConvTranspose1d(2, 3, 2),
        "ConvTranspose1d every option": nn.ConvTranspose1d(
            4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=2
        ),
        "ConvTranspose2d": nn.ConvTranspose2d(4, 6, (3, 2), stride=2, output_padding=1, groups=2, dilation=2),
        "ConvTranspose3d": nn.ConvTranspose3d(2, 3, 2, padding=1, bias=False),
        "Conv3d": nn.Conv3d(2, 4, (1, 2, 3), stride=2, padding=(0, 1, 1)),
        "Conv3d replicate": nn.Conv3d(2, 2, 3, padding=1, padding_mode="replicate", groups=2),
    }


@pytest.mark.parametrize("name", list(_modules(minigrad)))
def test_modules_repr_parameters_state_dict_and_initial_values_match_torch(name):
    def run(lib):
        lib.manual_seed(11)
        module = _modules(lib)[name]
        params = [(k, p, p.requires_grad) for k, p in module.named_parameters()]
        attributes = (module.kernel_size, module.stride, module.padding, module.dilation, module.output_padding)
        return repr(module), params, list(module.state_dict()), attributes, module.transposed

    same(run)


# name: (module, constructor arguments, input shape, forward's keyword arguments)
MODULE_RUNS = {
    "ConvTranspose1d": ("ConvTranspose1d", (4, 6, 3), dict(stride=2, groups=2), (2, 4, 5), {}),
    "ConvTranspose2d output_size": (
        "ConvTranspose2d",
        (2, 3, 3),
        dict(stride=2, padding=1),
        (1, 2, 4, 3),
        dict(output_size=(8, 6)),
    ),
    "ConvTranspose2d output_size with batch": (
        "ConvTranspose2d",
        (2, 3, 3),
        dict(stride=3),
        (1, 2, 2, 2),
        dict(output_size=[1, 3, 8, 7]),
    ),
    "ConvTranspose3d unbatched output_size": (
        "ConvTranspose3d",
        (2, 2, 2),
        dict(stride=2),
        (2, 2, 1, 2),
        dict(output_size=(2, 5, 2, 4)),
    ),
    "Conv3d reflect": ("Conv3d", (2, 3, 2), dict(padding=1, padding_mode="reflect"), (1, 2, 3, 3, 4), {}),
    "Conv3d circular": (
        "Conv3d",
        (2, 2, (3, 2, 2)),
        dict(padding=(1, 1, 0), padding_mode="circular"),
        (1, 2, 3, 3, 4),
        {},
    ),
}


@pytest.mark.parametrize("name", MODULE_RUNS)
def test_modules_forward_matches_torch(name):
    kind, args, kwargs, shape, forward = MODULE_RUNS[name]

    def run(lib):
        lib.manual_seed(5)
        module = getattr(lib.nn, kind)(*args, **kwargs).double()
        x = _leaf(lib, shape)
        out, nodes, grads, _ = derivatives(lib, module(x, **forward), [x, module.weight, module.bias])
        # circular padding is one read at wrapped positions in minigrad (IndexBackward0; see F.pad)
        return out, None if "circular" in name else nodes, grads

    same(run)


def test_conv_transpose_modules_errors_match_torch():
    same_error(lambda lib: lib.nn.ConvTranspose2d(2, 3, 2, padding_mode="reflect"), 'Only "zeros" padding mode')
    up = {lib: lib.nn.ConvTranspose2d(2, 3, 3, stride=2) for lib in (torch, minigrad)}
    same_error(
        lambda lib: up[lib](_leaf(lib, (1, 2, 4, 4)), output_size=(3, 3)),
        "requested an output size of (3, 3)",
        "valid sizes range from [9, 9] to [10, 10] (for an input of torch.Size([4, 4]))",
    )
    same_error(
        lambda lib: up[lib](_leaf(lib, (1, 2, 4, 4)), output_size=(9,)),
        "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 1)",
    )
    same_error(lambda lib: lib.nn.ConvTranspose1d(4, 6, 3, groups=4), "out_channels must be divisible by groups")


# ---------------------------------------------------------------------------------------------- 3-d layers
def test_dropout3d_draws_pytorchs_channel_mask_and_records_its_graph():
    def run(lib):
        lib.manual_seed(0)
        x = _leaf(lib, (2, 6, 2, 1, 2))
        out = lib.nn.functional.dropout3d(x, 0.5)
        unbatched = lib.nn.functional.dropout3d(_leaf(lib, (5, 1, 2, 1)), 0.4)
        module = lib.nn.Dropout3d(0.3)
        evaluated = module.eval()(x)
        return out, node_names(out), unbatched, node_names(unbatched), repr(module), evaluated is x

    same(run)


def test_dropout3d_warns_on_other_dims_and_checks_p():
    same_error(lambda lib: lib.nn.functional.dropout3d(_leaf(lib, (2, 3, 1, 1, 1)), 1.5), "dropout probability")
    for lib in (torch, minigrad):
        with pytest.warns(UserWarning, match="dropout3d: Received a 3-D input to dropout3d"):
            lib.nn.functional.dropout3d(_leaf(lib, (2, 3, 4)), 0.5)


@pytest.mark.parametrize("train", [True, False])
def test_batch_norm3d_and_instance_norm3d_match_torch(train):
    def run(lib):
        lib.manual_seed(0)
        bn, inn = lib.nn.BatchNorm3d(3).double(), lib.nn.InstanceNorm3d(3, affine=True).double()
        bn.train(train)
        x = _leaf(lib, (2, 3, 2, 3, 2))
        out, nodes, grads, seconds = derivatives(lib, bn(x), [x, bn.weight, bn.bias])
        unbatched = inn(x[1])
        return (out, nodes, grads, seconds, bn.running_mean, bn.running_var, repr(bn), repr(inn), list(bn.state_dict()),
                derivatives(lib, unbatched, [x, inn.weight, inn.bias]))  # fmt: skip

    same(run)


def test_batch_norm3d_and_instance_norm3d_check_dims():
    same_error(lambda lib: lib.nn.BatchNorm3d(3)(_leaf(lib, (2, 3, 4, 4))), "expected 5D input (got 4D input)")
    same_error(lambda lib: lib.nn.InstanceNorm3d(3)(_leaf(lib, (3, 4, 4))), "expected 4D or 5D input (got 3D input)")


PADS_3D = {
    "ConstantPad3d": ((1, 0, 2, 1, 0, 1), 1.5),
    "ZeroPad3d": (1,),
    "ReflectionPad3d": ((1, 0, 1, 1, 0, 1),),
    "ReplicationPad3d": (2,),
    "CircularPad3d": ((1, 0, 0, 1, 1, 0),),
}


@pytest.mark.parametrize("name", PADS_3D)
@pytest.mark.parametrize("batched", [True, False])
def test_3d_padding_modules_match_torch(name, batched):
    def run(lib):
        module = getattr(lib.nn, name)(*PADS_3D[name])
        x = _leaf(lib, (2, 2, 3, 3, 2) if batched else (2, 3, 3, 2))
        out, nodes, grads, seconds = derivatives(lib, module(x), [x])
        # circular padding is one read at wrapped positions in minigrad (IndexBackward0; see F.pad)
        return repr(module), out, None if "Circular" in name else nodes, grads, seconds

    same(run)


# name: (function, input shape, keyword arguments)
POOLS_3D = {
    "max": ("max_pool3d", (2, 3, 4, 5, 6), dict(kernel_size=2)),
    "max every option, unbatched": (
        "max_pool3d",
        (3, 4, 5, 6),
        dict(kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=(1, 1, 0), dilation=(1, 1, 2), ceil_mode=True),
    ),
    "avg": ("avg_pool3d", (2, 3, 4, 5, 6), dict(kernel_size=2)),
    "avg ceil_mode padding": (
        "avg_pool3d",
        (3, 4, 5, 6),
        dict(kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=(1, 1, 0), ceil_mode=True),
    ),
    "avg without the padding": (
        "avg_pool3d",
        (3, 4, 5, 6),
        dict(kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=(1, 1, 0), ceil_mode=True, count_include_pad=False),
    ),
    "avg divisor_override": (
        "avg_pool3d",
        (1, 3, 4, 5, 6),
        dict(kernel_size=3, stride=2, padding=1, divisor_override=5),
    ),
    "adaptive avg": ("adaptive_avg_pool3d", (2, 3, 4, 5, 6), dict(output_size=(2, None, 4))),
    "adaptive avg unbatched": ("adaptive_avg_pool3d", (3, 5, 5, 7), dict(output_size=3)),
    "adaptive avg to 1 (a mean)": ("adaptive_avg_pool3d", (3, 5, 5, 7), dict(output_size=1)),
    "adaptive max": ("adaptive_max_pool3d", (2, 3, 4, 5, 6), dict(output_size=(2, 3, 4))),
    "adaptive max larger": ("adaptive_max_pool3d", (3, 5, 5, 7), dict(output_size=(6, 2, 3))),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", POOLS_3D)
def test_3d_pools_values_gradients_second_derivatives_and_nodes(name, dtype):
    function, shape, kwargs = POOLS_3D[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        result = derivatives(lib, getattr(lib.nn.functional, function)(x, **kwargs), [x])
        if "max" in function:
            return result, getattr(lib.nn.functional, function)(x, return_indices=True, **kwargs)
        return result

    same(run)


def _pool_modules(lib) -> dict:
    nn = lib.nn
    return {
        "MaxPool3d": nn.MaxPool3d((1, 2, 2), stride=1, padding=(0, 1, 0), ceil_mode=True),
        "MaxPool3d indices": nn.MaxPool3d(2, return_indices=True),
        "AvgPool3d": nn.AvgPool3d((1, 2, 3), stride=1, padding=(0, 1, 1), count_include_pad=False, divisor_override=2),
        "AdaptiveAvgPool3d": nn.AdaptiveAvgPool3d((1, None, 2)),
        "AdaptiveMaxPool3d": nn.AdaptiveMaxPool3d(2, return_indices=True),
    }


@pytest.mark.parametrize("name", list(_pool_modules(minigrad)))
def test_3d_pool_modules_match_torch(name):
    def run(lib):
        module = _pool_modules(lib)[name]
        return repr(module), module(_leaf(lib, (2, 2, 3, 4, 5)))

    same(run)


POOL_ERRORS_3D = {
    "kernel pair": (
        "max_pool3d",
        (1, 2, 3, 3, 3),
        dict(kernel_size=(2, 2)),
        ("kernel_size must either be a single int",),
    ),
    "input dims": ("avg_pool3d", (3, 3, 3), dict(kernel_size=2), ("non-empty 4D or 5D (batch mode) tensor expected",)),
    "padding": ("max_pool3d", (1, 2, 3, 3, 3), dict(kernel_size=2, padding=2), ("pad should be at most half",)),
    "too small": ("max_pool3d", (1, 2, 3, 3, 3), dict(kernel_size=4), ("Output size is too small", "(2x3x3x3)")),
    "stride": ("max_pool3d", (1, 2, 3, 3, 3), dict(kernel_size=2, stride=0), ("stride should not be zero",)),
    "divisor": ("avg_pool3d", (1, 2, 3, 3, 3), dict(kernel_size=2, divisor_override=0), ("divisor must be not zero",)),
    "adaptive dims": (
        "adaptive_avg_pool3d",
        (3, 3, 3),
        dict(output_size=2),
        ("Expected 4D or 5D tensor, but got [3, 3, 3]",),
    ),
    "adaptive max dims": (
        "adaptive_max_pool3d",
        (3, 3, 3),
        dict(output_size=2),
        ("Expected 4D or 5D tensor, but got: [3, 3, 3]",),
    ),
    "adaptive size": ("adaptive_avg_pool3d", (2, 3, 3, 3), dict(output_size=(2, 2)), ("output_size must be 3",)),
}


@pytest.mark.parametrize("name", POOL_ERRORS_3D)
def test_3d_pool_errors_match_torch(name):
    function, shape, kwargs, words = POOL_ERRORS_3D[name]
    same_error(lambda lib: getattr(lib.nn.functional, function)(_leaf(lib, shape), **kwargs), *words)


# ---------------------------------------------------------------------------------------------- unpooling
# name: (pool, unpool, input shape, pool's and unpool's keyword arguments)
UNPOOLS = {
    "1d": ("max_pool1d", "max_unpool1d", (2, 3, 8), dict(kernel_size=2), dict(kernel_size=2)),
    "1d unbatched, output_size": (
        "max_pool1d",
        "max_unpool1d",
        (3, 9),
        dict(kernel_size=3, stride=2, padding=1),
        dict(kernel_size=3, stride=2, padding=1, output_size=[10]),
    ),
    "2d output_size": (
        "max_pool2d",
        "max_unpool2d",
        (2, 3, 5, 4),
        dict(kernel_size=2),
        dict(kernel_size=2, output_size=(5, 5)),
    ),
    "2d overlapping windows": (
        "max_pool2d",
        "max_unpool2d",
        (3, 5, 4),
        dict(kernel_size=3, stride=1),
        dict(kernel_size=3, stride=1),
    ),
    "3d output_size with batch": (
        "max_pool3d",
        "max_unpool3d",
        (2, 2, 4, 4, 5),
        dict(kernel_size=2),
        dict(kernel_size=2, output_size=[2, 2, 4, 4, 5]),
    ),
    "3d unbatched": (
        "max_pool3d",
        "max_unpool3d",
        (2, 4, 4, 4),
        dict(kernel_size=(1, 2, 2)),
        dict(kernel_size=(1, 2, 2)),
    ),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", UNPOOLS)
def test_max_unpool_values_gradients_second_derivatives_and_nodes(name, dtype):
    pool, unpool, shape, pool_kwargs, unpool_kwargs = UNPOOLS[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        out, indices = getattr(lib.nn.functional, pool)(x, return_indices=True, **pool_kwargs)
        return derivatives(lib, getattr(lib.nn.functional, unpool)(out, indices, **unpool_kwargs), [x])

    same(run)


def test_max_unpool_modules_and_the_with_indices_forms_match_torch():
    def run(lib):
        x = _leaf(lib, (1, 2, 4, 4, 4))
        F = lib.nn.functional
        pooled, indices = F.max_pool3d_with_indices(x, 2)
        modules = [lib.nn.MaxUnpool1d(3, stride=2, padding=1), lib.nn.MaxUnpool2d(2), lib.nn.MaxUnpool3d((2, 2, 2))]
        return (
            [repr(m) for m in modules],
            modules[2](pooled, indices),
            lib.nn.MaxUnpool2d(2)(*F.max_pool2d_with_indices(x[0], 2), output_size=(5, 4)),
            modules[0](*F.max_pool1d_with_indices(x[0, 0], 3, 2, 1), output_size=[4]),
            F.adaptive_max_pool1d_with_indices(x[0, 0], 3),
            F.adaptive_max_pool2d_with_indices(x[0], (3, 2)),
            F.adaptive_max_pool3d_with_indices(x, 3),
            lib.max_pool3d(x, 2, [], 1),
        )

    same(run)


UNPOOL_ERRORS = {
    "invalid index": (lambda i: i * 10, {}, ("Found an invalid max index", "(output volumes are of size 4x4)")),
    "float indices": (lambda i: i.double(), {}, ("elements in indices should be type int64 but got: Double",)),
    "shape": (lambda i: i[:, :1], {}, ("Expected shape of indices to be same as that of the input tensor",)),
    "output_size out of range": (
        lambda i: i,
        dict(output_size=(9, 9)),
        ('invalid output_size "(9, 9)"', "between 2 and 6"),
    ),
    "output_size length": (
        lambda i: i,
        dict(output_size=(4,)),
        ("output_size should be a sequence containing 2 or 4",),
    ),
}


@pytest.mark.parametrize("name", UNPOOL_ERRORS)
def test_max_unpool_errors_match_torch(name):
    change, kwargs, words = UNPOOL_ERRORS[name]

    def run(lib):
        out, indices = lib.nn.functional.max_pool2d(_leaf(lib, (1, 2, 4, 4)), 2, return_indices=True)
        return lib.nn.functional.max_unpool2d(out, change(indices), 2, **kwargs)

    same_error(run, *words)
    same_error(
        lambda lib: lib.nn.functional.max_unpool3d(_leaf(lib, (2, 2, 2)), lib.zeros(2, 2, 2, dtype=lib.long), 2),
        "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with 3 dimensions.",
    )


# ---------------------------------------------------------------------------------------------- channel_shuffle, pdist
@pytest.mark.parametrize("shape, groups", [((2, 6, 3), 3), ((1, 4, 2, 2), 2), ((2, 6, 1, 1, 2), 6)])
def test_channel_shuffle_matches_torch(shape, groups):
    def run(lib):
        x = _leaf(lib, shape)
        module = lib.nn.ChannelShuffle(groups)
        return (
            derivatives(lib, lib.nn.functional.channel_shuffle(x, groups), [x]),
            lib.channel_shuffle(x, 2),
            repr(module),
            module(x),
        )

    same(run)


def test_channel_shuffle_errors_match_torch():
    same_error(
        lambda lib: lib.nn.functional.channel_shuffle(_leaf(lib, (4, 2)), 2),
        "channel_shuffle expects input with > 2 dims",
    )
    same_error(
        lambda lib: lib.channel_shuffle(_leaf(lib, (1, 4, 3)), 3),
        "Number of channels must be divisible by groups. Got 4 channels and 3 groups.",
    )
    same_error(
        lambda lib: lib.nn.functional.channel_shuffle(_leaf(lib, (1, 4, 3)), 0),
        "Number of groups to divide channels in must be positive",
    )


@pytest.mark.parametrize("p", [2, 1, 0, 3, float("inf"), 0.5, 1.5])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_pdist_values_gradients_and_nodes_match_torch(p, dtype):
    def run(lib):
        x = lib.tensor(
            [[0.0, 0.0], [0.0, 0.0], [1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]],
            dtype=getattr(lib, dtype),
            requires_grad=True,
        )
        out = lib.pdist(x, p)
        g = lib.arange(out.shape[0], dtype=out.dtype)
        (grad,) = lib.autograd.grad(out, x, g, create_graph=True)
        return (
            out,
            node_names(out),
            grad,
            lib.nn.functional.pdist(x[:2, :1] * 2, p),
            grad.grad_fn.name(),
            out.grad_fn._saved_p,
        )

    same(run)


def test_pdist_cannot_be_differentiated_twice_and_checks_its_input_as_torch():
    def run(lib):
        x = _leaf(lib, (4, 3))
        (grad,) = lib.autograd.grad(lib.pdist(x).sum(), x, create_graph=True)
        return lib.autograd.grad(grad.sum(), x)

    same_error(run, "the derivative for '_pdist_backward' is not implemented.")
    same_error(lambda lib: lib.pdist(_leaf(lib, (3,))), "pdist only supports 2D tensors, got: 1D")
    same_error(lambda lib: lib.pdist(_leaf(lib, (3, 2)), p=-1), "pdist only supports non-negative p values")
    same_error(lambda lib: lib.pdist(lib.ones(3, 2, dtype=lib.long)), "pdist only supports floating-point dtypes")
    same(lambda lib: (lib.pdist(_leaf(lib, (1, 2))), lib.pdist(_leaf(lib, (0, 2))), lib.pdist(_leaf(lib, (3, 0)))))


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2), dict(kernel_size=(1, 2, 2), stride=(1, 1, 2), ceil_mode=True)])
def test_lp_pool3d_matches_torch(kwargs):
    def run(lib):
        x = _leaf(lib, (2, 2, 3, 4, 5))
        module = lib.nn.LPPool3d(1.5, **kwargs)
        out = lib.nn.functional.lp_pool3d(x.abs(), 2.0, **kwargs)
        return derivatives(lib, out, [x]), repr(module), module(x.abs() + 0.1)

    same(run)
