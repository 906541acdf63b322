"""scaled_dot_product_attention, multi_head_attention_forward and nn.MultiheadAttention against
PyTorch: values, gradients, second derivatives, recorded nodes, masks, parameters, state dicts
and errors.

minigrad's attention is PyTorch's "math" path. PyTorch's CPU takes a fused kernel for 4-D inputs
of one head size without dropout (``ScaledDotProductFlashAttentionForCpuBackward0``): there only
the values and gradients are compared. Dropout cannot draw PyTorch's random bits, so its tests
compare the graph, the scale and the share dropped.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402


class Tight:
    """float64 values, compared tightly (float64 results of the same math differ in the last bits only)."""

    def __init__(self, array) -> None:
        self.array = np.asarray(array, dtype=np.float64)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Tight)
            and self.array.shape == other.array.shape
            and bool(np.allclose(self.array, other.array, rtol=1e-10, atol=1e-12, equal_nan=True))
        )

    def __repr__(self) -> str:
        return f"Tight({self.array.tolist()})"


def _view(t):
    numbers = Tight(t.detach().cpu().numpy()) if t.dtype in (minigrad.float64, torch.float64) else values(t)
    return str(t.dtype).split(".")[-1], tuple(t.shape), numbers


same = Oracle(_view).same

pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def _leaf(lib, shape, dtype: str = "float64", seed: int = 0, requires_grad: bool = True):
    return lib.tensor(_array(shape, seed), dtype=getattr(lib, dtype), requires_grad=requires_grad)


def _derivatives(lib, out, inputs: list, second: bool = True):
    """``out``, its nodes, its gradients for ``inputs`` under a fixed upstream gradient, and (with
    ``second``) the gradients of a weighted sum of those (second derivatives)."""
    upstream = lib.tensor(_array(tuple(out.shape), 7), dtype=out.dtype, requires_grad=True)
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=second)
    if not second:
        return out, list(grads)
    total = sum((g * lib.tensor(_array(tuple(g.shape), 8 + k), dtype=g.dtype)).sum() for k, g in enumerate(grads))
    wrt = [*inputs, upstream]
    seconds = lib.autograd.grad(total, wrt, allow_unused=True)
    seconds = [lib.zeros_like(x) if g is None else g for g, x in zip(seconds, wrt)]
    return out, list(grads), seconds


def _sdpa(lib):
    return lib.nn.functional.scaled_dot_product_attention


def _bool_mask(lib, shape, seed: int = 3):
    return lib.tensor(np.random.default_rng(seed).random(shape) > 0.3)


# ---------------------------------------------------------------------------------------------- sdpa
# name: (query, key, value shapes, keyword arguments as a function of lib). Value's head size
# differs from the query's, so PyTorch takes its math path and records the nodes minigrad records.
SDPA = {
    "plain": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), lambda lib: {}),
    "3-D": ((3, 4, 5), (3, 6, 5), (3, 6, 2), lambda lib: {}),
    "unbatched 2-D": ((4, 5), (6, 5), (6, 3), lambda lib: {}),
    "bool mask": ((2, 4, 5), (2, 6, 5), (2, 6, 3), lambda lib: dict(attn_mask=_bool_mask(lib, (4, 6)))),
    "float mask, broadcast": (
        (2, 3, 4, 5),
        (2, 3, 6, 5),
        (2, 3, 6, 3),
        lambda lib: dict(attn_mask=lib.tensor(_array((3, 1, 6), 4), dtype=lib.float32)),
    ),
    "causal, L < S": ((2, 4, 5), (2, 6, 5), (2, 6, 3), lambda lib: dict(is_causal=True)),
    "causal, L > S": ((2, 6, 5), (2, 4, 5), (2, 4, 3), lambda lib: dict(is_causal=True)),
    "scale": ((2, 4, 5), (2, 6, 5), (2, 6, 3), lambda lib: dict(scale=0.3)),
    "negative scale": ((2, 4, 5), (2, 6, 5), (2, 6, 3), lambda lib: dict(scale=-0.7)),
    "batch dims broadcast": ((2, 3, 4, 5), (3, 6, 5), (1, 3, 6, 2), lambda lib: {}),
    "grouped query heads": ((2, 4, 3, 5), (2, 2, 6, 5), (2, 2, 6, 3), lambda lib: dict(enable_gqa=True)),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", SDPA)
def test_sdpa_values_gradients_second_derivatives_and_nodes(name, dtype):
    q_shape, k_shape, v_shape, kwargs = SDPA[name]

    def run(lib):
        q, k, v = _leaf(lib, q_shape, dtype), _leaf(lib, k_shape, dtype, 1), _leaf(lib, v_shape, dtype, 2)
        out = _sdpa(lib)(q, k, v, **kwargs(lib))
        return node_names(out), _derivatives(lib, out, [q, k, v])

    same(run)


def test_sdpa_float_mask_that_needs_a_gradient_gets_one():
    def run(lib):
        q, k, v, m = (
            _leaf(lib, (2, 4, 5)),
            _leaf(lib, (2, 6, 5), seed=1),
            _leaf(lib, (2, 6, 3), seed=2),
            _leaf(lib, (4, 6), seed=3),
        )
        out = _sdpa(lib)(q, k, v, attn_mask=m)
        return node_names(out), _derivatives(lib, out, [q, k, v, m])

    same(run)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("masked", [None, "bool", "causal"])
def test_sdpa_4d_of_one_head_size_matches_pytorchs_fused_kernel_in_values_and_gradients(masked, dtype):
    """PyTorch records ScaledDotProductFlashAttentionForCpuBackward0 here, minigrad the math path."""

    def run(lib):
        q, k, v = (
            _leaf(lib, (2, 3, 4, 8), dtype),
            _leaf(lib, (2, 3, 6, 8), dtype, 1),
            _leaf(lib, (2, 3, 6, 8), dtype, 2),
        )
        kwargs = {"bool": dict(attn_mask=_bool_mask(lib, (4, 6))), "causal": dict(is_causal=True)}.get(masked, {})
        out = _sdpa(lib)(q, k, v, **kwargs)
        name = node_names(out)[0]
        assert name == ("UnsafeViewBackward0" if lib is minigrad else "ScaledDotProductFlashAttentionForCpuBackward0")
        return _derivatives(lib, out, [q, k, v], second=False)

    same(run)


@pytest.mark.parametrize("shapes", [((2, 4, 5), (2, 6, 5), (2, 6, 3)), ((1, 2, 4, 8), (1, 2, 6, 8), (1, 2, 6, 8))])
@pytest.mark.parametrize("mask", ["bool", "float"])
def test_sdpa_a_query_with_nothing_to_attend_to_gives_zeros_and_zero_gradients(mask, shapes):
    def run(lib):
        q, k, v = (_leaf(lib, s, seed=i) for i, s in enumerate(shapes))
        m = np.ones((4, 6), dtype=bool)
        m[1] = False
        m[3, 2:] = False
        attn_mask = lib.tensor(m) if mask == "bool" else lib.tensor(np.where(m, 0.0, -np.inf))
        out = _sdpa(lib)(q, k, v, attn_mask=attn_mask)
        assert not out.isnan().any()
        return _derivatives(lib, out, [q, k, v], second=False)

    same(run)


def test_sdpa_without_gradients_and_on_empty_inputs():
    def run(lib):
        q, k, v = (
            _leaf(lib, s, seed=i, requires_grad=False) for i, s in enumerate([(2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 6, 8)])
        )
        out = _sdpa(lib)(q, k, v, is_causal=True)
        empty_heads = _sdpa(lib)(lib.zeros(2, 0, 4, 5), lib.zeros(2, 0, 6, 5), lib.zeros(2, 0, 6, 5))
        empty_queries = _sdpa(lib)(lib.zeros(2, 1, 0, 5), lib.zeros(2, 1, 6, 5), lib.zeros(2, 1, 6, 5))
        no_keys = _sdpa(lib)(lib.ones(2, 1, 3, 5), lib.zeros(2, 1, 0, 5), lib.zeros(2, 1, 0, 5))
        return out, out.requires_grad, empty_heads, empty_queries, no_keys.detach()

    same(run)


def test_sdpa_default_scale_is_one_over_sqrt_e():
    def run(lib):
        q, k, v = _leaf(lib, (3, 5)), _leaf(lib, (4, 5), seed=1), _leaf(lib, (4, 2), seed=2)
        by_default, given = _sdpa(lib)(q, k, v), _sdpa(lib)(q, k, v, scale=1 / 5**0.5)
        assert np.allclose(by_default.detach().numpy(), given.detach().numpy(), rtol=1e-14, atol=0)
        return by_default

    same(run)


SDPA_ERRORS = {
    "causal and a mask": (
        lambda lib, q, k, v: _sdpa(lib)(q, k, v, attn_mask=lib.ones(4, 6, dtype=lib.bool), is_causal=True),
        ("Explicit attn_mask should not be set when is_causal=True",),
    ),
    "dtypes differ": (lambda lib, q, k, v: _sdpa(lib)(q, k.float(), v), ("same dtype", "key.dtype: float")),
    "int mask": (
        lambda lib, q, k, v: _sdpa(lib)(q, k, v, attn_mask=lib.ones(4, 6, dtype=lib.int64)),
        ("Expected attn_mask dtype to be bool or float or to match query dtype", "long int"),
    ),
    "double mask for float": (
        lambda lib, q, k, v: _sdpa(lib)(q.float(), k.float(), v.float(), attn_mask=lib.ones(4, 6, dtype=lib.float64)),
        ("attn_mask.dtype: double and  query.dtype: float",),
    ),
    "1-D": (lambda lib, q, k, v: _sdpa(lib)(q[0, 0, 0], k[0, 0, 0], v[0, 0, 0]), ("at least 2 dimensional",)),
    "integers": (lambda lib, q, k, v: _sdpa(lib)(q.long(), k.long(), v.long()), ("expected scalar type Float",)),
    "dropout over 1": (lambda lib, q, k, v: _sdpa(lib)(q, k, v, dropout_p=1.5), ("dropout probability", "1.5")),
    "mask does not broadcast": (
        lambda lib, q, k, v: _sdpa(lib)(q, k, v, attn_mask=lib.ones(4, 5)),
        ("must match the size of tensor b (5)",),
    ),
    "heads do not divide": (
        lambda lib, q, k, v: _sdpa(lib)(
            q.expand(2, 3, 4, 5), k.expand(2, 2, 6, 5), v.expand(2, 2, 6, 3), enable_gqa=True
        ),
        ("Number of heads in key and value must divide the number of heads in",),
    ),
}


@pytest.mark.parametrize("name", SDPA_ERRORS)
def test_sdpa_errors_as_pytorch(name):
    run, words = SDPA_ERRORS[name]
    shapes = [(2, 1, 4, 5), (2, 1, 6, 5), (2, 1, 6, 3)]  # the math path (PyTorch's fused one checks less)
    same_error(lambda lib: run(lib, *(_leaf(lib, s, seed=i) for i, s in enumerate(shapes))), *words)


def test_sdpa_dropout_scales_the_kept_weights_and_drops_about_p():
    """q = k = 0 gives uniform weights 1/S; with value = eye(S) the output is the weights."""
    size, p = 40, 0.25

    def graph(lib):
        q, k = lib.zeros(size, 3, requires_grad=True), lib.zeros(size, 3)
        return node_names(_sdpa(lib)(q, k, lib.eye(size), dropout_p=p))

    assert graph(minigrad) == graph(torch)
    out = _sdpa(minigrad)(minigrad.zeros(size, 3), minigrad.zeros(size, 3), minigrad.eye(size), dropout_p=p).numpy()
    kept = out != 0
    assert np.allclose(out[kept], 1 / (size * (1 - p)))
    assert abs(1 - kept.mean() - p) < 0.05
    assert (
        not _sdpa(minigrad)(minigrad.ones(3, 2), minigrad.ones(3, 2), minigrad.ones(3, 2), dropout_p=1.0).numpy().any()
    )


# ---------------------------------------------------------------------------------------------- MultiheadAttention
def _pair(embed_dim=8, num_heads=2, dtype="float64", seed=0, **kwargs):
    """A torch MultiheadAttention and a minigrad one with torch's parameters (through numpy)."""
    torch.manual_seed(seed)
    theirs = torch.nn.MultiheadAttention(embed_dim, num_heads, dtype=getattr(torch, dtype), **kwargs)
    ours = minigrad.nn.MultiheadAttention(embed_dim, num_heads, dtype=getattr(minigrad, dtype), **kwargs)
    ours.load_state_dict({k: minigrad.tensor(v.detach().cpu().numpy()) for k, v in theirs.state_dict().items()})
    return {minigrad: ours, torch: theirs}


def _parameter_grads(module) -> list:
    return [p.grad for _, p in module.named_parameters()]


# name: (constructor arguments, how key and value relate to query, forward arguments as a function of lib)
MHA = {
    "self, seq first": (dict(), "self", lambda lib: {}),
    "self, batch first": (dict(batch_first=True), "self", lambda lib: {}),
    "cross (key is value)": (dict(), "kv", lambda lib: {}),
    "all different, not averaged": (dict(), "all", lambda lib: dict(average_attn_weights=False)),
    "kdim and vdim": (dict(kdim=3, vdim=5), "all", lambda lib: {}),
    "no bias": (dict(bias=False), "self", lambda lib: {}),
    "bias_kv and zero attn": (dict(add_bias_kv=True, add_zero_attn=True), "kv", lambda lib: {}),
    "bool padding mask": (dict(batch_first=True), "kv", lambda lib: dict(key_padding_mask=_padding(lib, bool))),
    "float padding mask": (dict(), "all", lambda lib: dict(key_padding_mask=_padding(lib, float))),
    "2-D bool attn_mask and padding": (
        dict(add_zero_attn=True),
        "kv",
        lambda lib: dict(attn_mask=_bool_mask(lib, (4, 6)), key_padding_mask=_padding(lib, bool)),
    ),
    "3-D float attn_mask": (dict(), "all", lambda lib: dict(attn_mask=lib.tensor(_array((6, 4, 6), 5)))),
    "no weights": (dict(), "all", lambda lib: dict(need_weights=False, attn_mask=_bool_mask(lib, (4, 6)))),
    "no weights, causal hint": (
        dict(),
        "self-square",
        lambda lib: dict(need_weights=False, is_causal=True, attn_mask=lib.ones(4, 4, dtype=lib.bool).triu(1)),
    ),
    "no weights, padding mask": (
        dict(batch_first=True),
        "kv",
        lambda lib: dict(need_weights=False, key_padding_mask=_padding(lib, bool)),
    ),
}


def _padding(lib, kind):
    """(N=3, S=6): True (or -inf) where a key is padding."""
    m = np.zeros((3, 6), dtype=bool)
    m[0, 4:] = m[2, 1] = True
    return lib.tensor(m) if kind is bool else lib.tensor(np.where(m, -np.inf, 0.0))


def _inputs(lib, relation, batch_first, dtype, kdim=8, vdim=8):
    """query (L=4), key and value (S=6) of a batch of 3, seq first unless ``batch_first``."""
    lead = (lambda n: (3, n)) if batch_first else (lambda n: (n, 3))
    if relation == "self-square":
        q = _leaf(lib, (*lead(4), 8), dtype)
        return q, q, q
    q = _leaf(lib, (*lead(4 if relation != "self" else 6), 8), dtype)
    if relation == "self":
        return q, q, q
    k = _leaf(lib, (*lead(6), kdim), dtype, 1)
    return q, k, k if relation == "kv" else _leaf(lib, (*lead(6), vdim), dtype, 2)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", MHA)
def test_multihead_attention_outputs_weights_nodes_and_gradients(name, dtype):
    config, relation, kwargs = MHA[name]
    modules = _pair(dtype=dtype, **config)

    def run(lib):
        module = modules[lib]
        q, k, v = _inputs(
            lib, relation, config.get("batch_first", False), dtype, config.get("kdim", 8), config.get("vdim", 8)
        )
        masks = {
            key: m.to(q.dtype) if isinstance(m, lib.Tensor) and m.is_floating_point() else m
            for key, m in kwargs(lib).items()
        }  # float: as q
        out, weights = module(q, k, v, **masks)
        inputs = list(dict.fromkeys([q, k, v]))  # each distinct input once
        params = [p for _, p in module.named_parameters()]
        grads = _derivatives(lib, out, inputs + params, second=False)
        # without weights PyTorch's CPU takes its fused attention kernel (minigrad: the math path)
        return node_names(out) if kwargs(lib).get("need_weights", True) else None, weights, grads

    same(run)


def test_multihead_attention_unbatched_and_3d_mask_of_heads():
    modules = _pair(add_bias_kv=True)

    def run(lib):
        q, k = _leaf(lib, (4, 8)), _leaf(lib, (6, 8), seed=1)
        mask = _bool_mask(lib, (2, 4, 6))
        out, weights = modules[lib](q, k, k, attn_mask=mask, key_padding_mask=_padding(lib, bool)[0])
        return out, weights, _derivatives(lib, out, [q, k], second=False)

    same(run)


def test_multihead_attention_parameters_state_dict_and_repr_as_pytorch():
    def run(lib):
        kinds = [
            lib.nn.MultiheadAttention(8, 2),
            lib.nn.MultiheadAttention(8, 4, bias=False, add_bias_kv=True, kdim=3, vdim=5, batch_first=True),
        ]
        described = []
        for m in kinds:
            shapes = [(k, tuple(v.shape)) for k, v in m.state_dict().items()]
            extra = (m.in_proj_weight is None, m.bias_k is None, m.head_dim, m._qkv_same_embed_dim, m.batch_first)
            described.append((shapes, extra, repr(m), type(m.out_proj).__name__))
        return described

    same(run)
    assert isinstance(minigrad.nn.MultiheadAttention(4, 2).out_proj, minigrad.nn.Linear)


def test_multihead_attention_initialisation():
    m = minigrad.nn.MultiheadAttention(6, 3, add_bias_kv=True)
    bound = (6 / (18 + 6)) ** 0.5  # xavier_uniform_ of the (3E, E) weight
    w = m.in_proj_weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert not m.in_proj_bias.detach().numpy().any() and not m.out_proj.bias.detach().numpy().any()
    assert m.bias_k.detach().numpy().any() and m.bias_k.shape == (1, 1, 6)
    separate = minigrad.nn.MultiheadAttention(6, 3, kdim=2)
    assert [name for name, _ in separate.named_parameters()] == [
        name for name, _ in torch.nn.MultiheadAttention(6, 3, kdim=2).named_parameters()
    ]


def test_multihead_attention_dropout_only_when_training():
    m = minigrad.nn.MultiheadAttention(8, 2, dropout=0.5)
    x = minigrad.randn(5, 2, 8)
    _, weights = m(x, x, x, average_attn_weights=False)
    assert (weights.detach().numpy() == 0).mean() > 0.2
    m.eval()
    _, weights = m(x, x, x)
    assert np.allclose(weights.detach().numpy().sum(-1), 1)


MHA_ERRORS = {
    "4-D query": (
        lambda lib, m, x: m(x.unsqueeze(0), x.unsqueeze(0), x.unsqueeze(0)),
        ("query should be unbatched 2D or batched 3D",),
    ),
    "2-D key for 3-D query": (lambda lib, m, x: m(x, x[0], x[0]), ("expected `key` and `value` to be 3-D",)),
    "embed dim": (lambda lib, m, x: m(x[..., :4], x[..., :4], x[..., :4]), ("was expecting embedding dimension of 8",)),
    "key and value shapes": (lambda lib, m, x: m(x, x, x[:3]), ("does not match value shape",)),
    "2-D attn_mask shape": (
        lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(4, 3)),
        ("The shape of the 2D attn_mask is",),
    ),
    "3-D attn_mask shape": (
        lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(2, 4, 4)),
        ("The shape of the 3D attn_mask is",),
    ),
    "padding mask shape": (
        lambda lib, m, x: m(x, x, x, key_padding_mask=lib.zeros(3, 5, dtype=lib.bool)),
        ("Expected key_padded_mask.shape[1] to be 4",),
    ),
    "int mask": (
        lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(4, 4, dtype=lib.int64)),
        ("only bool and floating types of attn_mask",),
    ),
    "causal without mask": (
        lambda lib, m, x: m(x, x, x, is_causal=True),
        ("Need attn_mask if specifying the is_causal hint",),
    ),
}


@pytest.mark.parametrize("name", MHA_ERRORS)
def test_multihead_attention_errors_as_pytorch(name):
    run, words = MHA_ERRORS[name]
    modules = _pair()
    same_error(lambda lib: run(lib, modules[lib], _leaf(lib, (4, 3, 8))), *words)


def test_multihead_attention_constructor_errors_and_mismatched_mask_warning():
    same_error(lambda lib: lib.nn.MultiheadAttention(0, 2), "embed_dim and num_heads must be greater than 0")
    same_error(lambda lib: lib.nn.MultiheadAttention(6, 4), "embed_dim must be divisible by num_heads")
    m = minigrad.nn.MultiheadAttention(4, 2)
    x = minigrad.randn(3, 2, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(x, x, x, key_padding_mask=minigrad.zeros(2, 3, dtype=minigrad.bool), attn_mask=minigrad.zeros(3, 3))
    assert any("Support for mismatched key_padding_mask and attn_mask is deprecated" in str(w.message) for w in caught)
