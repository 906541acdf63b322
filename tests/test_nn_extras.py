"""nn extras checked against PyTorch: ``feature_alpha_dropout`` and ``nn.FeatureAlphaDropout``,
``interpolate(mode="bicubic")`` (plain and antialiased: values, gradients, nodes, errors), and
``TransformerEncoder``/``TransformerEncoderLayer`` in eval mode where PyTorch's inference fast
paths give other results than the ordinary computation (zeros at padded positions, NaN for a
query with no key to attend to).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402
from test_random_streams import _intel_cpu  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")


def _view(t):
    return str(t.dtype).split(".")[-1], tuple(t.shape), values(t)


same = Oracle(_view).same

_SELU_ALPHA = 1.7580993408473766


def _x(lib, *shape, seed=0, dtype="float32"):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


# ---------------------------------------------------------------------------------------------- feature_alpha_dropout
def test_feature_alpha_dropout_drops_whole_channels_to_selus_saturation():
    p = 0.4
    a = 1 / np.sqrt((_SELU_ALPHA**2 * p + 1) * (1 - p))
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        x = _x(lib, 30, 20, 3, 2, dtype="float64")
        out = lib.nn.functional.feature_alpha_dropout(x, p, training=True).cpu().numpy()
        dropped = np.isclose(out, -_SELU_ALPHA * a * (1 - p))
        per_channel = dropped.reshape(30, 20, -1)
        assert (per_channel.all(-1) == per_channel.any(-1)).all()  # a channel is dropped whole or kept
        assert abs(per_channel.all(-1).mean() - p) < 0.06
        kept = x.cpu().numpy()[~dropped] * a + _SELU_ALPHA * a * p
        np.testing.assert_allclose(out[~dropped], kept)


def test_feature_alpha_dropout_mask_is_pytorchs_after_a_seed():
    if _intel_cpu() and torch.backends.mkl.is_available():
        pytest.skip("on Intel CPUs PyTorch draws bernoulli_(p) from Intel MKL's stream (see README)")

    def run(lib):
        lib.manual_seed(3)
        return lib.nn.functional.feature_alpha_dropout(_x(lib, 4, 6, 3), 0.3, True), lib.rand(2)

    same(run)


def test_feature_alpha_dropout_graph_inplace_and_eval_as_torch():
    def run(lib):
        f = lib.nn.functional.feature_alpha_dropout
        x = _x(lib, 3, 4, 2).requires_grad_()
        out = f(x, 0.3, True)
        y = _x(lib, 2, 3)
        same_object = f(y, 0.5, True, inplace=True) is y
        return (
            node_names(out),
            f(x) is x,  # training is False by default
            f(x, 0.0, True) is x,
            f(lib.ones(4), 1.0, True),  # p=1 draws no mask, so a 1-D input is fine
            same_object,
            (y == f(y, 0.5, False)).all(),
        )

    same(run)


def test_feature_alpha_dropout_errors_as_torch():
    same_error(lambda lib: lib.nn.functional.feature_alpha_dropout(lib.ones(5), 0.5, True), "Feature dropout requires")
    same_error(lambda lib: lib.nn.functional.feature_alpha_dropout(lib.ones(2, 5), 1.5), "between 0 and 1")
    same_error(lambda lib: lib.nn.functional.feature_alpha_dropout([1.0, 2.0], 0.5), "must be Tensor, not list")
    same_error(lambda lib: lib.nn.functional.feature_alpha_dropout(lib.ones(2, 3, dtype=lib.int64), 0.5, True), "Long")
    assert "feature_alpha_dropout" in minigrad.nn.functional.__all__


def test_feature_alpha_dropout_module_as_torch():
    def run(lib):
        m = lib.nn.FeatureAlphaDropout(0.2)
        x = lib.ones(2, 3, 4)
        lib.manual_seed(1)
        trained = m(x)
        return repr(m), repr(lib.nn.FeatureAlphaDropout(0.3, inplace=True)), m.eval()(x) is x, trained.shape

    same(run)
    same_error(lambda lib: lib.nn.FeatureAlphaDropout(-0.1), "between 0 and 1")


# ---------------------------------------------------------------------------------------------- bicubic
BICUBIC_CASES = list(
    itertools.product(
        [(2, 3, 6, 5), (1, 2, 9, 13), (1, 1, 2, 4)],
        [{"size": (8, 7)}, {"size": (3, 2)}, {"size": (1, 1)}, {"scale_factor": 2}, {"scale_factor": (0.5, 1.7)},
         {"scale_factor": 1.3}],
        [False, True],
    )
)  # fmt: skip


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, sizing, align_corners", BICUBIC_CASES)
def test_interpolate_bicubic_matches_torch(shape, sizing, align_corners, dtype, antialias):
    """Values, gradients (under a fixed upstream gradient) and the node name are PyTorch's, for
    growing and shrinking, align_corners or not, with and without antialias (where an axis keeps
    its size under a scale factor: PyTorch's antialiased forward leaves it alone, its backward not)."""
    data = np.random.default_rng(0).standard_normal(shape).astype(dtype)

    def run(lib):
        x = lib.tensor(data, requires_grad=True)
        y = lib.nn.functional.interpolate(x, mode="bicubic", align_corners=align_corners, antialias=antialias, **sizing)
        weights = lib.tensor(np.arange(y.numel(), dtype=dtype).reshape(tuple(y.shape)) / y.numel())
        (y * weights).sum().backward()
        return y.detach().cpu().numpy(), x.grad.cpu().numpy(), str(y.dtype), type(y.grad_fn).__name__

    theirs, ours = run(torch), run(minigrad)
    name = "UpsampleBicubic2DAaBackward0" if antialias else "UpsampleBicubic2DBackward0"
    assert ours[2:] == theirs[2:] == (f"torch.{dtype}", name)
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ours[0], theirs[0], rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=tolerance, atol=tolerance)


def test_bilinear_antialias_keeps_an_axis_whose_size_stays_as_torch():
    """PyTorch's antialiased forward copies an axis whose size a scale factor leaves as it is."""

    def run(lib):
        x = _x(lib, 1, 2, 2, 5, dtype="float64").requires_grad_()
        y = lib.nn.functional.interpolate(x, scale_factor=(1.3, 0.6), mode="bilinear", antialias=True)
        y.backward(_x(lib, *y.shape, seed=1, dtype="float64"))
        return y, x.grad

    same(run)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("antialias", [False, True])
def test_interpolate_bicubic_gradcheck(align_corners, antialias):
    x = minigrad.tensor(np.random.default_rng(1).standard_normal((1, 2, 4, 5)), requires_grad=True)
    for size in [(7, 3), (2, 9)]:

        def f(x, size=size):
            return minigrad.nn.functional.interpolate(
                x, size=size, mode="bicubic", align_corners=align_corners, antialias=antialias
            )

        assert minigrad.autograd.gradcheck(f, (x,))
        assert minigrad.autograd.gradgradcheck(f, (x,))


def test_interpolate_bicubic_clamps_at_the_borders_and_overshoots_as_torch():
    def run(lib):
        x = lib.tensor([[[[0.0, 0.0, 1.0, 1.0]]]])
        return lib.nn.functional.interpolate(x, size=(1, 9), mode="bicubic", align_corners=True)

    out = same(run)
    assert out[2].array.min() < 0 and out[2].array.max() > 1  # Keys' cubic overshoots


def test_interpolate_bicubic_errors_as_torch():
    same_error(
        lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 3), size=4, mode="bicubic"), "Only 3D, 4D and 5D"
    )
    same_error(
        lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 2, 2, 2), size=4, mode="bicubic"), "(got bicubic)"
    )
    same_error(
        lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 3, 3, dtype=lib.int64), size=4, mode="bicubic"),
        "\"compute_indices_weights_cubic\" not implemented for 'Long'",
    )
    for mode in ("bicubic", "bilinear"):
        same_error(
            lambda lib, mode=mode: lib.nn.functional.interpolate(
                lib.ones(1, 1, 3, 3, dtype=lib.int64), size=4, mode=mode, antialias=True
            ),
            '"compute_index_ranges_weights" not implemented',
        )
    same_error(
        lambda lib: lib.nn.functional.interpolate(lib.ones(1, 1, 3, 3), size=(0, 2), mode="bicubic"),
        "Input and output sizes should be greater than 0",
    )


def test_upsample_module_bicubic_as_torch():
    def run(lib):
        m = lib.nn.Upsample(scale_factor=1.5, mode="bicubic", align_corners=False)
        return repr(m), m(_x(lib, 1, 2, 4, 4))

    same(run)


# ---------------------------------------------------------------------------------------------- transformer fast paths
def _encoder(lib, layers=2, norm=False, **layer_kwargs):
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # enable_nested_tensor's warning: tested elsewhere
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, **layer_kwargs)
        encoder = lib.nn.TransformerEncoder(layer, layers, lib.nn.LayerNorm(8) if norm else None)
    if norm:
        with lib.no_grad():
            encoder.norm.bias.fill_(0.5)  # the norm of the zeros the nested path pads with
    return encoder.eval()


def _padding(lib, rows):
    """A (N, 5) key padding mask, True at the padded positions given per row."""
    mask = np.zeros((len(rows), 5), dtype=bool)
    for i, padded in enumerate(rows):
        mask[i, list(padded)] = True
    return lib.tensor(mask)


def _quiet(run):
    """``run`` with PyTorch's prototype warning about nested tensors silenced."""

    def snippet(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run(lib)

    return snippet


LEFT_ALIGNED = [(), (3, 4), (1, 2, 3, 4)]


@pytest.mark.parametrize("norm", [False, True])
def test_encoder_gives_zeros_at_padded_positions_in_eval_without_grad(norm):
    def run(lib):
        enc = _encoder(lib, norm=norm)
        with lib.no_grad():
            return enc(_x(lib, 3, 5, 8), src_key_padding_mask=_padding(lib, LEFT_ALIGNED))

    out = same(_quiet(run))
    padded = out[2].array[1, 3:]
    assert np.allclose(padded, 0.5 if norm else 0.0)


def test_encoder_without_grad_on_params_needs_no_no_grad():
    """The fast path also holds under grad mode when nothing requires grad."""

    def run(lib):
        enc = _encoder(lib).requires_grad_(False)
        return enc(_x(lib, 3, 5, 8), src_key_padding_mask=_padding(lib, LEFT_ALIGNED))

    same(_quiet(run))


NESTED_CASES = ("training", "grad", "mask_too", "not_left_aligned", "no_nested", "float_mask", "unchecked", "all_padded")  # fmt: skip


def test_encoder_nested_path_conditions_as_torch():
    """Where PyTorch's conditions fail (training, grad wanted, another mask, a mask not left
    aligned, no nested tensors), the padded positions hold computed values; where they hold (float
    mask, mask_check off with a mask that is not left aligned, a fully padded sequence), the
    positions a nested tensor would not hold are zeros."""

    def one(lib, case):
        enc = _encoder(lib)
        src = _x(lib, 3, 5, 8)
        padding = _padding(lib, LEFT_ALIGNED)
        kwargs = {}
        if case == "training":
            enc.train()
        if case == "mask_too":
            kwargs["mask"] = lib.zeros(5, 5, dtype=lib.bool)
        if case in ("not_left_aligned", "unchecked"):
            padding = _padding(lib, [(0,), (3, 4), (1, 2, 3, 4)])
        if case == "unchecked":
            enc.mask_check = False
        if case == "no_nested":
            enc.use_nested_tensor = False
        if case == "float_mask":
            padding = lib.zeros(3, 5).masked_fill(padding, -1.0)  # any nonzero counts as padding
        if case == "all_padded":
            padding = _padding(lib, [(), (3, 4), (0, 1, 2, 3, 4)])
        if case in ("training", "grad"):
            out = enc(src, src_key_padding_mask=padding, **kwargs)
            out.sum().backward()
            return out, [p.grad for p in enc.parameters()]
        with lib.no_grad():
            return enc(src, src_key_padding_mask=padding, **kwargs)

    same(_quiet(lambda lib: [one(lib, case) for case in NESTED_CASES]))


def test_encoder_layer_gives_nan_for_a_query_with_no_key_in_eval_without_grad():
    def run(lib):
        layer = _encoder(lib, layers=1).layers[0]
        src = _x(lib, 3, 5, 8)
        padding = _padding(lib, [(), (3, 4), (0, 1, 2, 3, 4)])
        causal_blocked = lib.zeros(5, 5, dtype=lib.bool)
        causal_blocked[1] = True  # query 1 sees no key
        heads = lib.zeros(6, 5, 5, dtype=lib.bool)
        heads[3, 2] = True  # query 2 of sample 1 sees no key in its head 1
        with lib.no_grad():
            results = [
                layer(src, src_key_padding_mask=padding),
                layer(src, src_mask=causal_blocked),
                layer(src, src_mask=heads),
                layer(src, src_mask=causal_blocked, src_key_padding_mask=padding),
                layer(src, src_key_padding_mask=_padding(lib, LEFT_ALIGNED)),  # values as computed
            ]
        results.append(layer(src, src_key_padding_mask=padding))  # grad wanted: the ordinary path
        layer.norm_first = True
        with lib.no_grad():
            results.append(layer(src, src_key_padding_mask=padding))
        return results

    out = same(run)
    assert np.isnan(out[0][2].array[2]).all() and not np.isnan(out[0][2].array[:2]).any()
    assert not np.isnan(out[5][2].array).any()


def test_encoder_layer_fast_path_conditions_as_torch():
    """No NaN where PyTorch's layer takes its ordinary path: odd heads, hooks, not batch first,
    unbatched (and NaN where it takes its fast path: no change)."""
    padding_rows = [(), (3, 4), (0, 1, 2, 3, 4)]

    def run(lib):
        results = []
        for change in ("none", "odd_heads", "hook", "not_batch_first", "unbatched"):
            lib.manual_seed(0)
            heads = 1 if change == "odd_heads" else 2
            layer = lib.nn.TransformerEncoderLayer(
                8, heads, 16, dropout=0.0, batch_first=change != "not_batch_first"
            ).eval()
            src, padding = _x(lib, 3, 5, 8), _padding(lib, padding_rows)
            if change == "hook":
                layer.linear1.register_forward_hook(lambda *args: None)
            if change == "not_batch_first":
                src, padding = src.transpose(0, 1), padding
            if change == "unbatched":
                src, padding = src[2], padding[2]
            with lib.no_grad():
                results.append(layer(src, src_key_padding_mask=padding))
        return results

    same(run)
