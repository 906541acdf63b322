"""More nn layers and functions against PyTorch: selu, celu, hardshrink, softshrink, rrelu,
Softmax2d, rms_norm, bilinear, pixel_shuffle, interpolate, unfold/fold, local_response_norm,
lp_pool, the new init functions, get_total_norm, and the torch.* aliases of functional ops.

Each numeric case runs the same snippet in both libraries (``same``): values, node names,
gradients and second derivatives. rrelu in training draws minigrad's own slopes, so it is tested
by its properties; so are the random init functions.
"""

from __future__ import annotations

import math
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


def F(lib):
    return lib.nn.functional


# name: (input shape, snippet(lib, x))
CASES = {
    "selu": ((2, 3, 4), lambda lib, x: F(lib).selu(x)),
    "selu in place": ((2, 3, 4), lambda lib, x: F(lib).selu(x * 1, inplace=True)),
    "celu": ((2, 3, 4), lambda lib, x: F(lib).celu(x, 0.7)),
    "celu_": ((2, 3, 4), lambda lib, x: F(lib).celu_(x * 1, 2.0)),
    "elu_": ((2, 3, 4), lambda lib, x: F(lib).elu_(x * 1, 0.5)),
    "hardshrink": ((2, 3, 4), lambda lib, x: F(lib).hardshrink(x, 0.4)),
    "hardshrink method": ((5,), lambda lib, x: x.hardshrink()),
    "softshrink": ((2, 3, 4), lambda lib, x: F(lib).softshrink(x, 0.4)),
    "rrelu eval": ((2, 3, 4), lambda lib, x: F(lib).rrelu(x, 0.1, 0.3)),
    "rrelu_ eval": ((2, 3, 4), lambda lib, x: F(lib).rrelu_(x * 1)),
    "softmax2d": ((2, 3, 2, 2), lambda lib, x: lib.nn.Softmax2d()(x)),
    "rms_norm weight": ((2, 3, 4), lambda lib, x: F(lib).rms_norm(x, (4,), _leaf(lib, (4,), seed=3).to(x.dtype))),
    "rms_norm two dims": ((2, 3, 4), lambda lib, x: F(lib).rms_norm(x, [3, 4], eps=1e-3)),
    "rms_norm float32": ((2, 3, 4), lambda lib, x: F(lib).rms_norm(x.float(), (4,))),
    "bilinear": ((3, 2), lambda lib, x: F(lib).bilinear(x, *[_leaf(lib, s, seed=k).to(x.dtype) for k, s in ((1, (3, 5)), (2, (4, 2, 5)), (3, (4,)))])),
    "bilinear batch dims": ((2, 3, 2), lambda lib, x: F(lib).bilinear(x, _leaf(lib, (2, 3, 5), seed=1).to(x.dtype), _leaf(lib, (4, 2, 5), seed=2).to(x.dtype))),
    "pixel_shuffle": ((2, 8, 3, 3), lambda lib, x: F(lib).pixel_shuffle(x, 2)),
    "pixel_shuffle 5-d": ((2, 1, 9, 2, 2), lambda lib, x: F(lib).pixel_shuffle(x, 3)),
    "pixel_unshuffle": ((2, 2, 4, 6), lambda lib, x: F(lib).pixel_unshuffle(x, 2)),
    "nearest x2": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=2)),
    "nearest 1.7": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=1.7)),
    "nearest size": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, size=(7, 3))),
    "nearest 1-d": ((2, 3, 5), lambda lib, x: F(lib).interpolate(x, size=9)),
    "nearest 1-d down": ((2, 3, 7), lambda lib, x: F(lib).interpolate(x, scale_factor=0.6)),
    "nearest-exact": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, size=(7, 3), mode="nearest-exact")),
    "nearest-exact 1-d": ((2, 3, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=1.3, mode="nearest-exact")),
    "bilinear size": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, size=(7, 3), mode="bilinear")),
    "bilinear corners": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, size=(7, 3), mode="bilinear", align_corners=True)),
    "bilinear scales": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=(1.7, 2.3), mode="bilinear")),
    "bilinear recompute": ((2, 3, 4, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=(1.7, 2.3), mode="bilinear", recompute_scale_factor=True)),
    "bilinear down": ((2, 3, 8, 9), lambda lib, x: F(lib).interpolate(x, scale_factor=0.4, mode="bilinear")),
    "bilinear to 1x1": ((1, 1, 4, 5), lambda lib, x: F(lib).interpolate(x, size=(1, 1), mode="bilinear", align_corners=True)),
    "bilinear transposed input": ((2, 3, 5, 4), lambda lib, x: F(lib).interpolate(x.transpose(2, 3), size=(6, 6), mode="bilinear")),
    "linear": ((2, 3, 5), lambda lib, x: F(lib).interpolate(x, size=8, mode="linear")),
    "linear corners": ((2, 3, 5), lambda lib, x: F(lib).interpolate(x, scale_factor=2.5, mode="linear", align_corners=True)),
    "area": ((2, 3, 6, 5), lambda lib, x: F(lib).interpolate(x, size=(3, 2), mode="area")),
    "Upsample": ((2, 3, 4, 5), lambda lib, x: lib.nn.Upsample(scale_factor=(2, 1.5), mode="bilinear")(x)),
    "UpsamplingBilinear2d": ((2, 3, 4, 5), lambda lib, x: lib.nn.UpsamplingBilinear2d(size=(5, 7))(x)),
    "UpsamplingNearest2d": ((2, 3, 4, 5), lambda lib, x: lib.nn.UpsamplingNearest2d(scale_factor=3)(x)),
    "unfold": ((2, 3, 5, 6), lambda lib, x: F(lib).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))),
    "unfold unbatched": ((3, 5, 6), lambda lib, x: F(lib).unfold(x, 2)),
    "fold": ((2, 12, 10), lambda lib, x: F(lib).fold(x, (4, 5), (2, 2), padding=(1, 0), stride=(1, 2))),
    "fold unbatched": ((8, 9), lambda lib, x: lib.nn.Fold(4, 2)(x)),
    "local_response_norm 3-d": ((2, 5, 6), lambda lib, x: F(lib).local_response_norm(x, 3)),
    "local_response_norm 4-d": ((2, 5, 3, 4), lambda lib, x: lib.nn.LocalResponseNorm(2, 0.1, 0.5, 2.0)(x)),
    "local_response_norm 5-d": ((2, 5, 3, 2, 2), lambda lib, x: F(lib).local_response_norm(x, 4, 0.3)),
    "lp_pool1d": ((2, 3, 7), lambda lib, x: lib.nn.LPPool1d(2, 3)(x.abs() + 0.1)),
    "lp_pool2d": ((2, 3, 6, 5), lambda lib, x: lib.nn.LPPool2d(3, (2, 3), 1, True)(x.abs() + 0.1)),
    "lp_pool2d 1.5": ((2, 3, 6, 5), lambda lib, x: F(lib).lp_pool2d(x.abs() + 0.1, 1.5, 2)),
}  # fmt: skip


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CASES)
def test_values_nodes_gradients_and_second_derivatives(name, dtype):
    shape, snippet = CASES[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        return derivatives(lib, snippet(lib, x), [x])

    same(run)


def test_saved_values_and_backward_nodes_are_pytorchs():
    def run(lib):
        x = _leaf(lib, (3,))
        selu, celu = F(lib).selu(x).grad_fn, F(lib).celu(x, 2.0).grad_fn
        saved = [selu._saved_alpha, selu._saved_scale, selu._saved_input_scale, celu._saved_alpha]
        saved.append(F(lib).hardshrink(x).grad_fn._saved_lambd)
        (g,) = lib.autograd.grad(F(lib).hardshrink(x), x, _leaf(lib, (3,), seed=1), create_graph=True)
        (h,) = lib.autograd.grad(F(lib).rrelu(x), x, _leaf(lib, (3,), seed=1), create_graph=True)
        return saved, node_names(g), node_names(h)

    same(run)


def test_rrelu_in_training_draws_slopes_between_the_bounds():
    x = minigrad.tensor([-2.0] * 1000 + [3.0], requires_grad=True)
    y = minigrad.nn.RReLU(0.1, 0.3)(x)
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"
    slopes = (y[:-1] / -2.0).detach()
    assert 0.1 <= float(slopes.min()) and float(slopes.max()) < 0.3 and float(slopes.std()) > 0.03
    assert float(y[-1]) == 3.0
    y.sum().backward()
    assert minigrad.allclose(x.grad[:-1], slopes) and float(x.grad[-1]) == 1.0  # the same slopes
    module = minigrad.nn.RReLU(0.1, 0.3).eval()
    assert minigrad.allclose(module(minigrad.tensor([-2.0])), minigrad.tensor([-0.4]))
    z = minigrad.tensor([-1.0, 1.0])
    assert F(minigrad).rrelu(z, training=True, inplace=True) is z


def _modules(lib) -> dict:
    nn = lib.nn
    return {
        "SELU": nn.SELU(),
        "SELU inplace": nn.SELU(True),
        "CELU": nn.CELU(2.0, inplace=True),
        "Hardshrink": nn.Hardshrink(),
        "Softshrink": nn.Softshrink(0.3),
        "RReLU": nn.RReLU(),
        "RReLU inplace": nn.RReLU(0.1, 0.2, True),
        "Softmax2d": nn.Softmax2d(),
        "RMSNorm": nn.RMSNorm(4),
        "RMSNorm no affine": nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False),
        "Bilinear": nn.Bilinear(2, 3, 4),
        "Bilinear no bias": nn.Bilinear(2, 3, 4, bias=False),
        "Upsample": nn.Upsample(scale_factor=2),
        "Upsample size": nn.Upsample(size=(3, 4), mode="bilinear", align_corners=False),
        "Upsample tuple": nn.Upsample(scale_factor=(2, 3)),
        "UpsamplingNearest2d": nn.UpsamplingNearest2d(scale_factor=2),
        "UpsamplingBilinear2d": nn.UpsamplingBilinear2d(size=4),
        "PixelShuffle": nn.PixelShuffle(2),
        "PixelUnshuffle": nn.PixelUnshuffle(3),
        "Unfold": nn.Unfold((2, 3), dilation=2, padding=1, stride=2),
        "Fold": nn.Fold((4, 5), (2, 3), 1, 0, 1),
        "LocalResponseNorm": nn.LocalResponseNorm(3),
        "LPPool1d": nn.LPPool1d(2, 3),
        "LPPool2d": nn.LPPool2d(1.5, (2, 3), 1, True),
    }


@pytest.mark.parametrize("name", list(_modules(minigrad)))
def test_modules_repr_parameters_and_state_dict_match_torch(name):
    def run(lib):
        module = _modules(lib)[name]
        params = [(k, tuple(p.shape), p.requires_grad) for k, p in module.named_parameters()]
        return repr(module), params, list(module.state_dict())

    same(run)


def test_module_parameters_start_as_pytorchs():
    rms = minigrad.nn.RMSNorm(4)
    assert rms.eps is None and rms.weight.tolist() == [1.0] * 4
    bilinear = minigrad.nn.Bilinear(4, 3, 2)
    for p in bilinear.parameters():
        assert float(p.abs().max()) <= 0.5  # uniform in ±1/sqrt(in1_features)
    with pytest.raises(ValueError, match="in1_features must be > 0"):
        minigrad.nn.Bilinear(0, 3, 2)
    x1, x2 = minigrad.randn(5, 4), minigrad.randn(5, 3)
    out = bilinear(x1, x2)
    expected = minigrad.einsum("ni,oij,nj->no", x1, bilinear.weight, x2) + bilinear.bias
    assert out.grad_fn.name() == "AddBackward0" and minigrad.allclose(out, expected, atol=1e-6)


def test_inplace_forms_change_the_input():
    def run(lib):
        x = _leaf(lib, (4,)) * 1
        outs = [F(lib).selu_(x * 1), F(lib).relu_(x * 1), F(lib).leaky_relu_(x * 1, 0.2)]
        outs += [F(lib).hardtanh_(x * 1, -0.5, 0.5), F(lib).threshold_(x * 1, 0.1, 20.0)]
        y = x * 1
        same_object = F(lib).celu(y, inplace=True) is y
        return [(o, node_names(o)) for o in outs], same_object

    same(run)


def test_errors_match_pytorchs():
    ints = lambda lib: lib.arange(4)  # noqa: E731
    same_error(lambda lib: F(lib).selu(ints(lib)), "elu_cpu", "Long")
    same_error(lambda lib: F(lib).hardshrink(ints(lib)), "hardshrink_cpu")
    same_error(lambda lib: F(lib).softshrink(lib.ones(2), -1.0), "lambda must be in range", "but found -1")
    same_error(lambda lib: F(lib).rrelu(lib.ones(2), 0.5, 0.2), "Lower bound should be less than or equal")
    same_error(lambda lib: F(lib).rrelu(ints(lib), training=True), "rrelu_with_noise_out_cpu")
    same_error(lambda lib: F(lib).celu(lib.ones(2), 0.0), "alpha cannot be 0 for CELU")
    same_error(lambda lib: lib.nn.Softmax2d()(lib.ones(2, 3)), "expected input to be 3D or 4D, got 2D")
    same_error(lambda lib: F(lib).rms_norm(lib.ones(2, 3), (4,)), "expected input with shape [*4]")
    same_error(lambda lib: F(lib).rms_norm(lib.ones(2, 3), (3,), lib.ones(4)), "Expected weight to be of same shape")
    same_error(lambda lib: F(lib).rms_norm(ints(lib), (4,)), '"rms_norm" not implemented')
    w = lambda lib: lib.ones(4, 2, 3)  # noqa: E731
    same_error(lambda lib: F(lib).bilinear(lib.ones(3, 2), lib.ones(4, 3), w(lib)), "batch dimensions do not match")
    same_error(lambda lib: F(lib).bilinear(lib.ones(3, 3), lib.ones(3, 3), w(lib)), "input1 size does not match")
    same_error(lambda lib: F(lib).bilinear(lib.ones(3, 2), lib.ones(3, 3), w(lib), lib.ones(5)), "bias size")
    same_error(lambda lib: F(lib).pixel_shuffle(lib.ones(1, 4, 2, 2), 3), "divisible by the square", "by 9")
    same_error(lambda lib: F(lib).pixel_shuffle(lib.ones(4, 2), 2), "at least 3 dimensions")
    same_error(lambda lib: F(lib).pixel_unshuffle(lib.ones(1, 1, 6, 6), 4), "height to be divisible")
    x = lambda lib: lib.ones(2, 4, 6, 6)  # noqa: E731
    same_error(lambda lib: F(lib).interpolate(x(lib)), "either size or scale_factor")
    same_error(lambda lib: F(lib).interpolate(x(lib), size=3, scale_factor=2), "only one of size or scale_factor")
    same_error(lambda lib: F(lib).interpolate(x(lib), size=(3,)), "same number of spatial dimensions")
    same_error(lambda lib: F(lib).interpolate(x(lib), scale_factor=(1, 2, 3)), "scale_factor of shape (1, 2, 3)")
    same_error(lambda lib: F(lib).interpolate(x(lib), size=3, align_corners=True), "align_corners option")
    same_error(lambda lib: F(lib).interpolate(x(lib)[0], size=3, mode="bilinear"), "Got 3D input, but bilinear")
    same_error(lambda lib: F(lib).interpolate(x(lib), size=3, mode="linear"), "Got 4D input, but linear")
    same_error(lambda lib: F(lib).interpolate(x(lib).long(), size=3), "upsample_nearest2d_channels_last", "Long")
    same_error(lambda lib: F(lib).interpolate(x(lib), scale_factor=0.1), "sizes should be greater than 0")
    same_error(lambda lib: F(lib).interpolate(x(lib), size=3, recompute_scale_factor=True), "not meaningful")
    same_error(lambda lib: F(lib).unfold(x(lib), 7), "calculated shape of the array of sliding blocks as (0, 0)")
    same_error(lambda lib: F(lib).unfold(x(lib), 2, padding=-1), "padding should be non-negative")
    same_error(lambda lib: F(lib).unfold(x(lib), 0), "kernel size should be greater than zero")
    same_error(lambda lib: F(lib).unfold(x(lib).long(), 2), "im2col_out_cpu")
    same_error(lambda lib: F(lib).fold(lib.ones(2, 7, 9), (4, 4), 2), "divisible by the product of kernel_size")
    same_error(lambda lib: F(lib).fold(lib.ones(2, 8, 8), (4, 4), 2), "sliding blocks 3 * 3 = 9")
    same_error(lambda lib: F(lib).fold(lib.ones(1, 2, 8, 9), (4, 4), 2), "Expected 2D or 3D (batch mode)")
    same_error(lambda lib: F(lib).local_response_norm(lib.ones(2, 3), 2), "Expected 3D or higher")


def test_init_dirac_trunc_normal_and_orthogonal():
    def run(lib):
        return lib.nn.init.dirac_(lib.empty(4, 2, 3, 3), 2), lib.nn.init.dirac_(lib.empty(2, 3, 5))

    same(run)
    same_error(lambda lib: lib.nn.init.dirac_(lib.empty(2, 2)), "Only tensors with 3, 4, or 5 dimensions")
    same_error(lambda lib: lib.nn.init.dirac_(lib.empty(3, 2, 2), 2), "dim 0 must be divisible by groups")
    minigrad.manual_seed(0)
    w = minigrad.nn.init.trunc_normal_(minigrad.empty(20000), mean=1.0, std=2.0, a=-1.0, b=4.0)
    assert float(w.min()) >= -1.0 and float(w.max()) <= 4.0
    # the truncated normal's mean: mean + std * (pdf(alpha) - pdf(beta)) / (cdf(beta) - cdf(alpha))
    alpha, beta = -1.0, 1.5
    pdf = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda z: (1 + math.erf(z / math.sqrt(2))) / 2  # noqa: E731
    assert abs(float(w.mean()) - (1 + 2 * (pdf(alpha) - pdf(beta)) / (cdf(beta) - cdf(alpha)))) < 0.05
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        minigrad.nn.init.trunc_normal_(minigrad.empty(3), mean=10.0)
    for shape in [(3, 5), (5, 3), (4, 2, 3)]:
        q = minigrad.nn.init.orthogonal_(minigrad.empty(*shape), gain=2.0).flatten(1)
        small = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
        assert minigrad.allclose(small, 4 * minigrad.eye(small.shape[0]), atol=1e-5)
    same_error(lambda lib: lib.nn.init.orthogonal_(lib.empty(3)), "Only tensors with 2 or more dimensions")


def test_get_total_norm_and_clip_grads_with_norm():
    def run(lib):
        a, b = lib.nn.Parameter(lib.ones(3)), lib.nn.Parameter(lib.ones(2, 2))
        a.grad, b.grad = lib.tensor([3.0, 0.0, 4.0]), lib.tensor([[1.0, -2.0], [0.0, 2.0]])
        total = lib.nn.utils.get_total_norm([a.grad, b.grad])
        inf = lib.nn.utils.get_total_norm([a.grad, b.grad], norm_type=math.inf)
        lib.nn.utils.clip_grads_with_norm_([a, b], 1.0, total)
        return total, inf, a.grad, b.grad

    same(run)
    same_error(lambda lib: lib.nn.utils.get_total_norm([lib.tensor([math.inf])], error_if_nonfinite=True), "non-finite")


def test_torch_aliases_take_pytorchs_signatures():
    def run(lib):
        x, w = _leaf(lib, (2, 3, 6)), _leaf(lib, (4, 3, 2), seed=1)
        target = lib.tensor([1.0, -1.0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outs = [
                lib.selu(x), lib.celu(x, 0.5), lib.hardshrink(x), lib.rrelu(x), lib.threshold(x, 0.1, 2.0),
                lib.conv1d(x, w, None, 1, 1), lib.layer_norm(x, (6,)), lib.group_norm(x, 3),
                lib.batch_norm(x, None, None, lib.zeros(3).double(), lib.ones(3).double(), False, 0.1, 1e-5, False),
                lib.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
                lib.dropout(x, 0.5, False), lib.alpha_dropout(x, 0.5, False),
                lib.embedding(x[0], lib.tensor([2, 0])), lib.cosine_similarity(x, x * 2),
                lib.pairwise_distance(x[0], x[1]), lib.kl_div(x, x.exp()), lib.kl_div(x, x, 0),
                lib.prelu(x, lib.tensor([0.2], dtype=x.dtype)), lib.avg_pool1d(x, 2), lib.max_pool1d(x, 3, 2),
                lib.max_pool2d(x, 2), lib.adaptive_avg_pool1d(x, 4), *lib.adaptive_max_pool1d(x, 4),
                lib.binary_cross_entropy_with_logits(x, x.sigmoid().detach(), None, None, 2),
                lib.cosine_embedding_loss(x[:, 0], x[:, 1], target),
                lib.hinge_embedding_loss(x[0, 0], lib.tensor([1.0, -1, 1, -1, 1, -1])),
                lib.margin_ranking_loss(x[:, 0, 0], x[:, 1, 0], target, 0.1, 0),
                lib.poisson_nll_loss(x, x.exp().detach(), True, False, 1e-8, 1),
                lib.triplet_margin_loss(x[0], x[1], x[0] * 2), lib.rms_norm(x, (6,)),
                lib.pixel_shuffle(x.reshape(1, 4, 3, 3), 2), lib.pixel_unshuffle(x.reshape(1, 1, 6, 6), 3),
            ]  # fmt: skip
        return [(o, node_names(o) if o.grad_fn is not None else None) for o in outs]

    same(run)
    same_error(lambda lib: lib.dropout(lib.ones(2)), "dropout()")


def test_shrinks_at_the_band_edges_and_on_empty_and_0_d_inputs():
    def run(lib):
        x = lib.tensor([-0.5, 0.5, -0.25, 0.75, 0.0], requires_grad=True)
        outs = [F(lib).hardshrink(x), F(lib).softshrink(x), F(lib).hardshrink(x, 0.25), F(lib).softshrink(x, 0.0)]
        grads = [lib.autograd.grad(o.sum(), x)[0] for o in outs]
        empty, scalar = lib.ones(0, 3), lib.tensor(-2.0)
        others = [F(lib).selu(empty), F(lib).celu(scalar), F(lib).hardshrink(scalar), F(lib).rrelu(scalar, 0.2, 0.4)]
        return outs, grads, others

    same(run)
