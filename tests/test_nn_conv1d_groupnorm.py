"""conv1d, group_norm, instance_norm and channel-wise dropout (functions and modules) against
PyTorch: values, gradients, second derivatives, recorded nodes, saved values, modules and errors.

Each numeric test runs the same snippet in both libraries (``same``). Dropout cannot draw
PyTorch's random bits, so its tests compare what does not depend on them: the graph, the scale,
whole channels dropped, the share dropped, eval mode, ``inplace`` and the warnings and errors.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

# Every test runs on each device: on_device makes the factories (and so the modules' parameters
# and buffers) create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def _leaf(lib, shape, dtype: str = "float64", seed: int = 0):
    return lib.tensor(_array(shape, seed), dtype=getattr(lib, dtype), requires_grad=True)


def _edges(t) -> list:
    """The node's name and where its edges go (node names, or None for an input needing no grad)."""
    node = t.grad_fn
    return [node.name()] + [
        None if n is None else n.name().replace("torch::autograd::", "") for n, _ in node.next_functions
    ]


# ---------------------------------------------------------------------------------------------- conv1d
# name: (input shape, weight shape, bias, keyword arguments)
CONV1D = {
    "plain": ((2, 3, 8), (4, 3, 3), True, {}),
    "stride padding dilation groups": ((2, 4, 9), (6, 2, 3), True, dict(stride=2, padding=1, dilation=2, groups=2)),
    "unbatched": ((3, 8), (4, 3, 2), True, dict(padding=(2,))),
    "no bias, tuples": ((2, 3, 8), (4, 3, 3), False, dict(stride=(3,), dilation=[2])),
    "same, odd reach": ((2, 3, 7), (4, 3, 3), True, dict(padding="same")),
    # an even reach: PyTorch pads one more at the end first (ConstantPadNdBackward0)
    "same, even reach": ((2, 4, 7), (2, 2, 4), True, dict(padding="same", groups=2)),
    "same, dilated": ((1, 3, 9), (2, 3, 2), False, dict(padding="same", dilation=3)),
    "valid": ((2, 3, 6), (5, 3, 6), True, dict(padding="valid")),
    "depthwise": ((2, 3, 6), (6, 1, 2), True, dict(groups=3)),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CONV1D)
def test_conv1d_values_gradients_second_derivatives_and_nodes(name, dtype):
    x_shape, w_shape, has_bias, kwargs = CONV1D[name]

    def run(lib):
        x, w = _leaf(lib, x_shape, dtype), _leaf(lib, w_shape, dtype, 1)
        b = _leaf(lib, w_shape[:1], dtype, 2) if has_bias else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 'same' with an even reach warns (tested below)
            out = lib.nn.functional.conv1d(x, w, b, **kwargs)
        return derivatives(lib, out, [x, w] + ([b] if has_bias else []))

    same(run)


def test_conv1d_records_one_convolution_node_with_pytorchs_saved_values():
    def run(lib):
        x, w, b = _leaf(lib, (2, 4, 9)), _leaf(lib, (6, 2, 3), seed=1), _leaf(lib, (6,), seed=2)
        node = lib.nn.functional.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2).grad_fn
        saved = [tuple(node._saved_stride), tuple(node._saved_padding), tuple(node._saved_dilation)]
        return _edges(lib.nn.functional.conv1d(x, w, b, groups=2)), saved, node._saved_groups, node._saved_weight

    same(run)


def test_conv1d_without_a_bias_has_no_edge_for_it():
    same(lambda lib: _edges(lib.nn.functional.conv1d(_leaf(lib, (1, 2, 5)), _leaf(lib, (3, 2, 2)))))


def test_same_padding_with_an_even_reach_pads_first_and_warns_as_torch():
    """conv1d and conv2d: the extra zero goes after, through a pad node, with PyTorch's warning
    (which PyTorch gives once per process, so only minigrad's is checked)."""

    def run(lib):
        x1, w1 = _leaf(lib, (1, 2, 6)), _leaf(lib, (3, 2, 2), seed=1)
        x2, w2 = _leaf(lib, (1, 2, 5, 6)), _leaf(lib, (3, 2, 2, 3), seed=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            one = lib.nn.functional.conv1d(x1, w1, padding="same")
            two = lib.nn.functional.conv2d(x2, w2, padding="same")
        if lib is minigrad:
            assert len(caught) == 2
            assert all("padding='same' with even kernel lengths and odd dilation" in str(w.message) for w in caught)
        return one, node_names(one), two, node_names(two), tuple(two.grad_fn._saved_padding)

    same(run)


def test_conv1d_gradgradcheck_in_float64():
    x, w, b = _leaf(minigrad, (1, 4, 6)), _leaf(minigrad, (2, 2, 3), seed=1), _leaf(minigrad, (2,), seed=2)

    def conv(*args):
        return minigrad.nn.functional.conv1d(*args, stride=2, padding=1, dilation=1, groups=2)

    assert minigrad.autograd.gradcheck(conv, (x, w, b))
    assert minigrad.autograd.gradgradcheck(conv, (x, w, b))


def _conv_modules(lib) -> dict:
    nn = lib.nn
    return {
        "Conv1d": nn.Conv1d(2, 3, 2),
        "Conv1d with every option": nn.Conv1d(4, 6, 3, stride=2, padding=1, dilation=2, groups=2, bias=False),
        "Conv1d same": nn.Conv1d(2, 4, 3, padding="same"),
        "Conv1d valid": nn.Conv1d(2, 4, (3,), padding="valid"),
        "Conv1d reflect": nn.Conv1d(2, 4, 3, padding=1, padding_mode="reflect"),
        "Conv2d circular": nn.Conv2d(2, 4, (2, 3), padding=(1, 2), padding_mode="circular"),
    }


@pytest.mark.parametrize("name", list(_conv_modules(minigrad)))
def test_conv_modules_repr_parameters_and_state_dict_match_torch(name):
    def run(lib):
        module = _conv_modules(lib)[name]
        params = [(k, tuple(p.shape), p.requires_grad) for k, p in module.named_parameters()]
        attributes = (module.kernel_size, module.stride, module.padding, module.dilation, module.output_padding)
        return repr(module), params, list(module.state_dict()), attributes, module._reversed_padding_repeated_twice

    same(run)


# name: (module arguments, input shape); the weights are copied over from PyTorch's
PADDED_CONVS = {
    "Conv1d zeros": ("Conv1d", (2, 4, 3), dict(padding=2, dilation=2), (2, 2, 7)),
    "Conv1d unbatched": ("Conv1d", (2, 4, 3), dict(stride=2), (2, 7)),
    "Conv1d reflect": ("Conv1d", (2, 4, 3), dict(padding=2, padding_mode="reflect"), (2, 2, 7)),
    "Conv1d replicate same": ("Conv1d", (2, 4, 4), dict(padding="same", padding_mode="replicate"), (2, 2, 7)),
    "Conv1d circular": ("Conv1d", (2, 4, 3), dict(padding=1, padding_mode="circular", groups=2), (2, 2, 7)),
    "Conv2d reflect": ("Conv2d", (2, 3, (2, 3)), dict(padding=(1, 2), padding_mode="reflect"), (1, 2, 5, 6)),
    "Conv2d circular same": ("Conv2d", (2, 3, 3), dict(padding="same", padding_mode="circular"), (1, 2, 4, 5)),
}


@pytest.mark.parametrize("name", PADDED_CONVS)
def test_conv_modules_with_each_padding_mode_match_torch(name):
    kind, args, kwargs, shape = PADDED_CONVS[name]
    theirs = getattr(torch.nn, kind)(*args, **kwargs).double()

    def run(lib):
        module = getattr(lib.nn, kind)(*args, **kwargs).double()
        with lib.no_grad():
            for mine, source in zip(module.parameters(), theirs.parameters()):
                mine.copy_(lib.tensor(source.detach().cpu().numpy()))
        x = _leaf(lib, shape)
        out, nodes, *grads = derivatives(lib, module(x), [x, module.weight, module.bias])
        # circular padding is one read at wrapped positions in minigrad (IndexBackward0; see F.pad)
        return out, None if "circular" in name else nodes, grads

    same(run)


def test_conv1d_module_starts_uniform_within_torchs_bounds():
    conv = minigrad.nn.Conv1d(4, 6, 5, groups=2)
    bound = 1 / np.sqrt(2 * 5)  # fan_in = in_channels / groups * kernel_size
    for p in (conv.weight, conv.bias):
        assert np.abs(p.detach().cpu().numpy()).max() <= bound
    assert conv.weight.detach().cpu().numpy().std() > bound / 3  # spread out, not zeros


# ---------------------------------------------------------------------------------------------- group_norm
# name: (input shape, groups, weight, bias, eps)
GROUP_NORMS = {
    "weight and bias": ((3, 6, 5), 2, True, True, 1e-5),
    "images": ((2, 6, 3, 2), 3, True, True, 1e-3),
    "no spatial dims": ((3, 8), 2, True, False, 1e-5),
    "one group (layer norm)": ((2, 4, 3), 1, False, False, 1e-5),
    "a group per channel (instance norm)": ((2, 4, 3), 4, True, False, 1e-5),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", GROUP_NORMS)
def test_group_norm_values_gradients_second_derivatives_and_nodes(name, dtype):
    shape, groups, has_weight, has_bias, eps = GROUP_NORMS[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        w = _leaf(lib, shape[1:2], dtype, 1) if has_weight else None
        b = _leaf(lib, shape[1:2], dtype, 2) if has_bias else None
        out = lib.nn.functional.group_norm(x, groups, w, b, eps)
        return (_edges(out), *derivatives(lib, out, [t for t in (x, w, b) if t is not None]))

    same(run)


def test_group_norm_with_a_bias_but_no_weight():
    """PyTorch 2.13's backward fails there on the CPU ("tensor does not have a device"); minigrad's
    gradients are those of PyTorch's with a constant weight of ones, and check numerically."""

    def run(lib):
        x, b = _leaf(lib, (2, 4, 3)), _leaf(lib, (4,), seed=2)
        weight = None if lib is minigrad else lib.ones(4, dtype=lib.float64)
        return derivatives(lib, lib.nn.functional.group_norm(x, 2, weight, b), [x, b])[2:]

    same(run)
    x, b = _leaf(minigrad, (2, 4, 3)), _leaf(minigrad, (4,), seed=2)
    assert minigrad.autograd.gradgradcheck(lambda x, b: minigrad.nn.functional.group_norm(x, 2, None, b), (x, b))


def test_group_norm_saved_values_and_a_strided_input_match_torch():
    def run(lib):
        x = _leaf(lib, (3, 6, 5, 2))
        node = lib.nn.functional.group_norm(x, 3, eps=1e-3).grad_fn
        saved = [node._saved_N, node._saved_C, node._saved_HxW, node._saved_group, node._saved_eps]
        strided = lib.nn.functional.group_norm(x[:, :, 0], 2)  # copied first (CloneBackward0)
        return saved, strided, node_names(strided)

    same(run)


def test_group_norm_of_an_empty_batch():
    def run(lib):
        x = _leaf(lib, (0, 4, 3))
        return derivatives(lib, lib.nn.functional.group_norm(x, 2), [x])

    same(run)


def test_group_norm_gradgradcheck_in_float64():
    x, w, b = _leaf(minigrad, (2, 4, 3)), _leaf(minigrad, (4,), seed=1), _leaf(minigrad, (4,), seed=2)
    norm = lambda *args: minigrad.nn.functional.group_norm(args[0], 2, *args[1:])  # noqa: E731
    assert minigrad.autograd.gradcheck(norm, (x, w, b))
    assert minigrad.autograd.gradgradcheck(norm, (x, w, b))


# ---------------------------------------------------------------------------------------------- instance_norm
# name: (input shape, weight and bias)
INSTANCE_NORMS = {
    "sequences": ((3, 4, 5), False),
    "images, affine": ((2, 3, 4, 2), True),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", INSTANCE_NORMS)
def test_instance_norm_values_gradients_second_derivatives_and_nodes(name, dtype):
    shape, affine = INSTANCE_NORMS[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        w, b = (_leaf(lib, shape[1:2], dtype, k) if affine else None for k in (1, 2))
        out = lib.nn.functional.instance_norm(x, weight=w, bias=b, eps=1e-3)
        return derivatives(lib, out, [t for t in (x, w, b) if t is not None])

    same(run)


@pytest.mark.parametrize("use_input_stats", [True, False])
def test_instance_norm_uses_and_updates_the_running_stats_as_torch(use_input_stats):
    def run(lib):
        mean, var = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64), lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64)
        x = _leaf(lib, (4, 3, 5))
        out = lib.nn.functional.instance_norm(x, mean, var, use_input_stats=use_input_stats, momentum=0.3)
        return derivatives(lib, out, [x]), mean, var

    same(run)


def _norm_modules(lib) -> dict:
    nn = lib.nn
    return {
        "GroupNorm": nn.GroupNorm(2, 6),
        "GroupNorm no affine": nn.GroupNorm(3, 6, eps=1e-3, affine=False),
        "GroupNorm no bias": nn.GroupNorm(1, 4, bias=False),
        "InstanceNorm1d": nn.InstanceNorm1d(3),
        "InstanceNorm1d tracked": nn.InstanceNorm1d(3, momentum=None, track_running_stats=True),
        "InstanceNorm2d affine": nn.InstanceNorm2d(3, eps=1e-3, affine=True),
        "InstanceNorm2d affine, no bias": nn.InstanceNorm2d(3, affine=True, bias=False),
    }


@pytest.mark.parametrize("name", list(_norm_modules(minigrad)))
def test_norm_modules_repr_parameters_buffers_and_state_dict_match_torch(name):
    def run(lib):
        module = _norm_modules(lib)[name]
        params = [(k, tuple(p.shape), p.requires_grad) for k, p in module.named_parameters()]
        buffers = [(k, tuple(b.shape), str(b.dtype)) for k, b in module.named_buffers()]
        starts = [v for v in module.state_dict().values()]
        return repr(module), params, buffers, list(module.state_dict()), starts

    same(run)


# name: (module, input shape)
NORM_MODULE_RUNS = {
    "GroupNorm": (lambda nn: nn.GroupNorm(2, 4), (3, 4, 5)),
    "GroupNorm unbatched-looking 2-d": (lambda nn: nn.GroupNorm(2, 4), (3, 4)),
    "InstanceNorm1d": (lambda nn: nn.InstanceNorm1d(3), (2, 3, 5)),
    "InstanceNorm1d unbatched": (lambda nn: nn.InstanceNorm1d(3, affine=True), (3, 5)),
    "InstanceNorm2d unbatched": (lambda nn: nn.InstanceNorm2d(3), (3, 4, 2)),
    "InstanceNorm2d tracked": (lambda nn: nn.InstanceNorm2d(3, affine=True, track_running_stats=True), (2, 3, 4, 2)),
}


@pytest.mark.parametrize("name", NORM_MODULE_RUNS)
def test_norm_modules_train_and_eval_as_torch(name):
    build, shape = NORM_MODULE_RUNS[name]

    def run(lib):
        module = build(lib.nn).double()
        x = _leaf(lib, shape)
        trained = derivatives(lib, module(x), [x, *module.parameters()])
        module.eval()
        evaluated = module(_leaf(lib, shape, seed=3))
        return trained, evaluated, node_names(evaluated), list(module.state_dict().values())

    same(run)


def test_instance_norm_module_warns_when_the_channels_do_not_match_without_affine():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
            lib.nn.InstanceNorm1d(4)(lib.ones(2, 3, 5))


# ---------------------------------------------------------------------------------------------- dropout
DROPOUTS = {
    "dropout1d": ((40, 50, 6), lambda f, x, p, **kw: f.dropout1d(x, p, **kw)),
    "dropout1d unbatched": ((2000, 6), lambda f, x, p, **kw: f.dropout1d(x, p, **kw)),
    "dropout2d": ((40, 50, 3, 2), lambda f, x, p, **kw: f.dropout2d(x, p, **kw)),
}


@pytest.mark.parametrize("name", DROPOUTS)
def test_channel_dropout_drops_whole_channels_scales_the_rest_and_records_torchs_graph(name):
    shape, call = DROPOUTS[name]
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        x = lib.ones(shape, dtype=lib.float64, requires_grad=True)
        out = call(lib.nn.functional, x, 0.3)
        out.backward(lib.ones_like(out))
        channels = shape[0] if len(shape) == 2 else shape[0] * shape[1]
        per_channel = out.detach().cpu().numpy().reshape(channels, -1)
        assert (per_channel == per_channel[:, :1]).all()  # a whole channel is kept or dropped
        assert set(np.unique(per_channel).round(6)) == {0.0, round(1 / 0.7, 6)}
        assert abs((per_channel[:, 0] == 0).mean() - 0.3) < 0.03  # 2000 channels: about 4 sigma
        np.testing.assert_array_equal(x.grad.cpu().numpy(), out.detach().cpu().numpy())
    same(lambda lib: node_names(call(lib.nn.functional, lib.ones(shape, requires_grad=True), 0.3)))


@pytest.mark.parametrize("name", DROPOUTS)
def test_channel_dropout_in_eval_with_p_0_and_p_1_as_torch(name):
    shape, call = DROPOUTS[name]

    def run(lib):
        x = _leaf(lib, shape)
        kept = [call(lib.nn.functional, x, 0.4, training=False), call(lib.nn.functional, x, 0.0)]
        gone = call(lib.nn.functional, x, 1.0)
        return kept, [k is x for k in kept], gone, node_names(gone)

    same(run)


@pytest.mark.parametrize("name", DROPOUTS)
def test_channel_dropout_in_place_changes_and_returns_the_input(name):
    shape, call = DROPOUTS[name]
    for lib in (minigrad, torch):
        x = lib.ones(shape)
        out = call(lib.nn.functional, x, 0.5, inplace=True)
        assert out is x
        assert set(np.unique(x.cpu().numpy())) == {0.0, 2.0}


def test_dropout2d_warns_as_torch_for_three_and_other_dims():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
            lib.nn.functional.dropout2d(lib.ones(2, 3, 4))
        with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d, which is deprecated"):
            lib.nn.functional.dropout2d(lib.ones(2, 3))


def test_alpha_dropout_keeps_mean_and_variance_and_records_torchs_graph():
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        x = lib.randn(500, 400, dtype=lib.float64)
        out = lib.nn.functional.alpha_dropout(x, 0.2, training=True).cpu().numpy()
        assert abs(out.mean()) < 0.02 and abs(out.std() - 1) < 0.02
        a = 1 / np.sqrt((1.7580993408473766**2 * 0.2 + 1) * 0.8)
        dropped = np.isclose(out, -1.7580993408473766 * a * 0.8)
        assert abs(dropped.mean() - 0.2) < 0.01
        kept = x.cpu().numpy()[~dropped] * a + 1.7580993408473766 * a * 0.2
        np.testing.assert_allclose(out[~dropped], kept)

    def run(lib):
        x = _leaf(lib, (3, 4))
        return node_names(lib.nn.functional.alpha_dropout(x, 0.3, True)), lib.nn.functional.alpha_dropout(x) is x

    same(run)


def test_dropout_modules_repr_and_train_eval_as_torch():
    def run(lib):
        nn = lib.nn
        modules = [nn.Dropout1d(), nn.Dropout2d(0.3, inplace=True), nn.AlphaDropout(0.2), nn.Dropout(0.1)]
        x = lib.ones(4, 3, 5)
        in_eval = [m.eval()(x) is x for m in modules[:1] + modules[2:]]
        return [repr(m) for m in modules], in_eval, modules[0].train()(x).shape

    same(run)


# ---------------------------------------------------------------------------------------------- errors
ERRORS = {
    "conv1d of a 4-D input": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(1, 2, 4, 9), lib.ones(6, 2, 3)),
        "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [1, 2, 4, 9]",
    ),
    "conv1d with a 4-D weight": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3, 1)),
        "Expected 4-dimensional input for 4-dimensional weight [6, 4, 3, 1], but got 3-dimensional input",
    ),
    "conv1d with a 2-D weight": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4)),
        "weight should have at least three dimensions",
    ),
    "conv2d with a 3-D weight": (
        lambda lib: lib.nn.functional.conv2d(lib.ones(2, 4, 9, 9), lib.ones(6, 4, 3), stride=(1, 1)),
        "expected stride to be a single integer value or a list of 1 values",
    ),
    "conv1d of the wrong channels": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 3, 3)),
        "Given groups=1, weight of size [6, 3, 3], expected input[2, 4, 9] to have 3 channels, but got 4",
    ),
    "conv1d groups not dividing": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 2, 3), groups=4),
        "expected weight to be divisible by 4 at dimension 0",
    ),
    "conv1d stride 0": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), stride=0),
        "non-positive stride is not supported",
    ),
    "conv1d two strides": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), stride=(1, 2)),
        "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, "
        "but got stride=[1, 2]",
    ),
    "conv1d dilation 0": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), dilation=0),
        "non-positive dilation is not supported",
    ),
    "conv1d negative padding": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), padding=-1),
        "negative padding is not supported",
    ),
    "conv1d padding string": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), padding="full"),
        "Invalid padding string: 'full'",
    ),
    "conv1d same and strided": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), padding="same", stride=2),
        "padding='same' is not supported for strided convolutions",
    ),
    "conv1d kernel too large": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 12)),
        "Calculated padded input size per channel: (9). Kernel size: (12). Kernel size can't be greater",
    ),
    "conv1d bias of another dtype": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(4, 9), lib.ones(6, 4, 3), lib.ones(6, dtype=lib.float64)),
        "Input type (float) and bias type (double) should be the same",
    ),
    "conv1d bias of the wrong size": (
        lambda lib: lib.nn.functional.conv1d(lib.ones(2, 4, 9), lib.ones(6, 4, 3), lib.ones(5)),
        "expected bias to be 1-dimensional with 6 elements, but got bias of size [5]",
    ),
    "Conv1d groups": (lambda lib: lib.nn.Conv1d(4, 6, 3, groups=4), "out_channels must be divisible by groups"),
    "Conv1d no groups": (lambda lib: lib.nn.Conv1d(4, 6, 3, groups=0), "groups must be a positive integer"),
    "Conv1d same and strided": (
        lambda lib: lib.nn.Conv1d(4, 6, 3, padding="same", stride=2),
        "padding='same' is not supported for strided convolutions",
    ),
    "Conv1d padding string": (
        lambda lib: lib.nn.Conv1d(4, 6, 3, padding="full"),
        "Invalid padding string 'full', should be one of",
    ),
    "Conv1d padding_mode": (lambda lib: lib.nn.Conv1d(4, 6, 3, padding_mode="foo"), "but got padding_mode='foo'"),
    "group_norm groups not dividing": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(3, 6, 5), 4),
        "Expected number of channels in input to be divisible by num_groups, but got input of shape [3, 6, 5] "
        "and num_groups=4",
    ),
    "group_norm of a vector": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(6), 2),
        "Expected at least 2 dimensions for input tensor but received 1",
    ),
    "group_norm weight of the wrong size": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(3, 6, 5), 2, lib.ones(5)),
        "Expected weight to be a vector of size equal to the number of channels in input, but got weight of "
        "shape [5] and input of shape [3, 6, 5]",
    ),
    "group_norm bias of the wrong size": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(3, 6, 5), 2, None, lib.ones(6, 1)),
        "Expected bias to be a vector of size equal to the number of channels",
    ),
    "group_norm of one value per group": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(1, 6), 6),
        "Expected more than 1 value per channel when training, got input size [1, 6]",
    ),
    "group_norm of integers": (
        lambda lib: lib.nn.functional.group_norm(lib.ones(3, 6, 5, dtype=lib.int64), 2),
        "\"GroupNormKernelImpl\" not implemented for 'Long'",
    ),
    "GroupNorm groups not dividing": (
        lambda lib: lib.nn.GroupNorm(4, 6),
        "num_channels (6) must be divisible by num_groups (4)",
    ),
    "GroupNorm of the wrong channels": (
        lambda lib: lib.nn.GroupNorm(2, 6)(lib.ones(3, 4, 5)),
        "Expected weight to be a vector of size equal to the number of channels in input",
    ),
    "instance_norm of one position": (
        lambda lib: lib.nn.functional.instance_norm(lib.ones(3, 6, 1)),
        "Expected more than 1 spatial element when training, got input size torch.Size([3, 6, 1])",
    ),
    "instance_norm without stats": (
        lambda lib: lib.nn.functional.instance_norm(lib.ones(3, 6, 5), use_input_stats=False),
        "Expected running_mean and running_var to be defined when use_input_stats is false",
    ),
    "InstanceNorm1d of a 4-D input": (
        lambda lib: lib.nn.InstanceNorm1d(6)(lib.ones(3, 6, 5, 5)),
        "expected 2D or 3D input (got 4D input)",
    ),
    "InstanceNorm2d of a 2-D input": (
        lambda lib: lib.nn.InstanceNorm2d(6)(lib.ones(6, 5)),
        "expected 3D or 4D input (got 2D input)",
    ),
    "InstanceNorm1d affine of the wrong channels": (
        lambda lib: lib.nn.InstanceNorm1d(4, affine=True)(lib.ones(3, 6, 5)),
        "expected input's size at dim=1 to match num_features (4), but got: 6.",
    ),
    "dropout1d of a 4-D input": (
        lambda lib: lib.nn.functional.dropout1d(lib.ones(2, 3, 4, 5)),
        "dropout1d: Expected 2D or 3D input, but received a 4D input.",
    ),
    "dropout1d p": (
        lambda lib: lib.nn.functional.dropout1d(lib.ones(2, 3, 4), 1.5),
        "dropout probability has to be between 0 and 1, but got 1.5",
    ),
    "dropout2d p": (
        lambda lib: lib.nn.functional.dropout2d(lib.ones(2, 3, 4, 5), -0.5),
        "dropout probability has to be between 0 and 1, but got -0.5",
    ),
    "Dropout2d p": (lambda lib: lib.nn.Dropout2d(-0.1), "dropout probability has to be between 0 and 1"),
    "AlphaDropout p": (lambda lib: lib.nn.AlphaDropout(2), "dropout probability has to be between 0 and 1"),
    "dropout2d of a vector": (
        lambda lib: lib.nn.functional.dropout2d(lib.ones(3)),
        "Feature dropout requires at least 2 dimensions in the input",
    ),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dropout2d of a vector warns before it raises
        same_error(fn, words)
