"""nn.Transformer* layers, nn.utils.parametrize, weight/spectral normalisation (both forms) and
dropout's mask on transposed inputs, against PyTorch.

Each module is built in both libraries after the same seed: minigrad draws PyTorch's random
numbers, so the parameters must be equal, and so must the outputs, every parameter's gradient,
the recorded nodes, the state dict keys and the repr. In training mode the dropout masks are drawn
in the same order as PyTorch's, so those agree too.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")


def _view(t):
    return str(t.dtype).split(".")[-1], tuple(t.shape), values(t)


same = Oracle(_view).same


def _x(lib, *shape, seed=0):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def _seeded(lib, make):
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # enable_nested_tensor's warning: tested on its own
        return make(lib)


def _module_run(make, run, steps: int = 1, nodes: bool = True):
    """A snippet for ``same``: the module after the seed, its state dict, ``steps`` calls of ``run``
    (seeded: dropout draws alike), their nodes, and the gradients of all parameters.

    ``nodes=False`` where PyTorch's CPU attention takes its fused kernel (no dropout): there
    minigrad records the math path (see test_nn_attention.py), so only values are compared."""

    def snippet(lib):
        module = _seeded(lib, make)
        state = module.state_dict()
        results = [list(state), [state[k] for k in state], repr(module), type(module).__name__]
        for step in range(steps):
            lib.manual_seed(5 + step)
            out = run(lib, module)
            out.sum().backward()
            results += [out, node_names(out) if nodes else None]
        named = list(module.named_parameters())
        results += [[n for n, _ in named], [p.grad for _, p in named]]
        return results

    return snippet


# ---------------------------------------------------------------------------------------------- layers
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer(batch_first, norm_first, activation):
    shape = (2, 5, 8) if batch_first else (5, 2, 8)
    same(
        _module_run(
            lambda lib: lib.nn.TransformerEncoderLayer(
                8, 2, 16, dropout=0.0, activation=activation, batch_first=batch_first, norm_first=norm_first
            ),
            lambda lib, m: m(_x(lib, *shape), src_mask=lib.nn.Transformer.generate_square_subsequent_mask(5)),
            nodes=False,
        )
    )


def test_encoder_layer_masks_and_callable_activation():
    def run(lib, m):
        pad = lib.tensor([[False, False, False, True, True], [False] * 5])
        return m(_x(lib, 2, 5, 8), src_key_padding_mask=pad) + m(
            _x(lib, 2, 5, 8, seed=1), is_causal=True, src_mask=lib.nn.Transformer.generate_square_subsequent_mask(5)
        )

    same(
        _module_run(
            lambda lib: lib.nn.TransformerEncoderLayer(8, 4, 12, 0.0, lib.nn.functional.silu, batch_first=True),
            run,
            nodes=False,
        )
    )


def test_encoder_layer_no_bias_eps_and_unbatched():
    same(
        _module_run(
            lambda lib: lib.nn.TransformerEncoderLayer(6, 3, 10, 0.0, layer_norm_eps=1e-3, bias=False),
            lambda lib, m: m(_x(lib, 4, 6)),
            nodes=False,
        )
    )


@pytest.mark.parametrize("batch_first", [False, True])
def test_encoder_layer_dropout_in_training_draws_as_pytorch(batch_first):
    shape = (2, 5, 8) if batch_first else (5, 2, 8)
    same(
        _module_run(
            lambda lib: lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.3, batch_first=batch_first),
            lambda lib, m: m(_x(lib, *shape)),
            steps=2,
        )
    )


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer(norm_first):
    def run(lib, m):
        tgt, memory = _x(lib, 3, 2, 8), _x(lib, 5, 2, 8, seed=1)
        mask = lib.nn.Transformer.generate_square_subsequent_mask(3)
        pad = lib.tensor([[False] * 4 + [True], [False] * 5])
        return m(tgt, memory, tgt_mask=mask, memory_key_padding_mask=pad, tgt_is_causal=True)

    same(_module_run(lambda lib: lib.nn.TransformerDecoderLayer(8, 2, 16, 0.2, norm_first=norm_first), run, steps=2))


def test_encoder_and_decoder_stacks():
    def make(lib):
        enc = lib.nn.TransformerEncoder(
            lib.nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True), 2, lib.nn.LayerNorm(8)
        )
        dec = lib.nn.TransformerDecoder(lib.nn.TransformerDecoderLayer(8, 2, 16, 0.0, batch_first=True), 2)
        return lib.nn.ModuleList([enc, dec])

    def run(lib, m):
        mask = lib.nn.Transformer.generate_square_subsequent_mask(5)
        memory = m[0](_x(lib, 2, 5, 8), mask=mask)  # detected causal: is_causal=None
        return m[1](_x(lib, 2, 3, 8, seed=1), memory, tgt_mask=lib.nn.Transformer.generate_square_subsequent_mask(3))

    same(_module_run(make, run, nodes=False))


def test_transformer():
    def run(lib, m):
        src, tgt = _x(lib, 2, 5, 8), _x(lib, 2, 3, 8, seed=1)
        pad = lib.tensor([[False] * 4 + [True], [False] * 5])
        return m(
            src,
            tgt,
            tgt_mask=m.generate_square_subsequent_mask(3),
            src_key_padding_mask=pad,
            memory_key_padding_mask=pad,
        )

    same(_module_run(lambda lib: lib.nn.Transformer(8, 2, 2, 1, 16, dropout=0.1, batch_first=True), run, steps=2))


def test_transformer_defaults_and_mask():
    def run(lib):
        m = _seeded(lib, lambda lib: lib.nn.Transformer(num_encoder_layers=1, num_decoder_layers=1))
        p = dict(m.named_parameters())
        return (
            len(p),
            m.d_model,
            m.nhead,
            m.batch_first,
            p["encoder.layers.0.linear1.weight"][:3, :4],
            p["decoder.layers.0.multihead_attn.in_proj_weight"][:2, :5],
            m.encoder.layers[0].dropout.p,
            lib.nn.Transformer.generate_square_subsequent_mask(4, dtype=lib.float64),
        )

    same(run)


def test_nested_tensor_warning():
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = lib.nn.TransformerEncoderLayer(8, 2, 16)
            lib.nn.TransformerEncoder(layer, 1)
            lib.nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
            lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1)
        return [str(w.message) for w in caught]

    assert len(same(run)) == 1


@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
def test_transformer_errors():
    same_error(lambda lib: lib.nn.TransformerEncoderLayer(8, 2, activation="tanh"), "activation should be relu/gelu")
    same_error(
        lambda lib: lib.nn.Transformer(8, 2, 1, 1, 16)(_x(lib, 5, 2, 8), _x(lib, 3, 3, 8)),
        "the batch number of src and tgt must be equal",
    )
    same_error(
        lambda lib: lib.nn.Transformer(8, 2, 1, 1, 16)(_x(lib, 5, 2, 8), _x(lib, 3, 2, 6)),
        "the feature number of src and tgt must be equal to d_model",
    )
    same_error(lambda lib: lib.nn.TransformerEncoderLayer(8, 3), "embed_dim must be divisible by num_heads")


def test_deepcopy_clones_are_independent():
    layer = minigrad.nn.TransformerEncoderLayer(4, 2, 8)
    encoder = minigrad.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    a, b = encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight
    assert a is not b and a is not layer.linear1.weight and bool((a == b).all())
    assert copy.deepcopy(encoder).layers[0].linear1.weight is not a


# ---------------------------------------------------------------------------------------------- dropout
@pytest.mark.parametrize("layout", ["t", "permute", "unit_dim", "strided"])
def test_dropout_mask_follows_memory_order(layout):
    views = {
        "t": lambda x: x.view(3, 4).t(),
        "permute": lambda x: x.view(2, 3, 2).permute(2, 0, 1),
        "unit_dim": lambda x: x.view(2, 1, 6).transpose(0, 2),
        "strided": lambda x: x.view(3, 4)[:, ::2],
    }

    def run(lib):
        x = lib.arange(1.0, 13.0, requires_grad=True)
        lib.manual_seed(3)
        out = lib.nn.functional.dropout(views[layout](x), 0.5)
        out.sum().backward()
        return out, x.grad, node_names(out)

    same(run)


# ---------------------------------------------------------------------------------------------- parametrize
class _Symmetric:
    """A parametrization for both libraries: x.triu() + x.triu(1).mT."""

    @staticmethod
    def make(lib):
        class Symmetric(lib.nn.Module):
            def forward(self, x):
                return x.triu() + x.triu(1).transpose(-1, -2)

        return Symmetric()


def _positive(lib):
    class Positive(lib.nn.Module):
        def forward(self, x):
            return x.exp()

        def right_inverse(self, y):
            return y.log()

    return Positive()


def test_register_parametrization_graph_state_and_repr():
    def run(lib):
        P = lib.nn.utils.parametrize
        layer = _seeded(lib, lambda lib: lib.nn.Linear(3, 3))
        P.register_parametrization(layer, "weight", _Symmetric.make(lib))
        P.register_parametrization(layer, "weight", _positive(lib))  # a second one, after the first
        out = layer(_x(lib, 2, 3))
        out.sum().backward()
        original = layer.parametrizations.weight.original
        return (
            type(layer).__name__,
            repr(layer),
            list(layer.state_dict()),
            layer.weight,
            out,
            node_names(out),
            original.grad,
            P.is_parametrized(layer),
            P.is_parametrized(layer, "bias"),
            P.type_before_parametrizations(layer).__name__,
            [n for n, _ in layer.named_parameters()],
        )

    same(run)


def test_assign_uses_right_inverse_and_remove():
    def run(lib):
        P = lib.nn.utils.parametrize
        layer = _seeded(lib, lambda lib: lib.nn.Linear(2, 2))
        P.register_parametrization(layer, "bias", _positive(lib))
        original = layer.parametrizations.bias.original
        layer.bias = lib.tensor([2.0, 3.0])
        stored = original.detach().clone()
        P.remove_parametrizations(layer, "bias")
        kept = layer.bias is original  # the same Parameter object, now holding exp(log(...))
        P.register_parametrization(layer, "weight", _Symmetric.make(lib))
        before = layer.parametrizations.weight.original.detach().clone()
        P.remove_parametrizations(layer, "weight", leave_parametrized=False)
        return stored, layer.bias, kept, type(layer).__name__, layer.weight, before, list(layer.state_dict())

    same(run)


def test_cached():
    def run(lib):
        P = lib.nn.utils.parametrize
        layer = P.register_parametrization(_seeded(lib, lambda lib: lib.nn.Linear(2, 2)), "weight", _positive(lib))
        with P.cached():
            inside = layer.weight is layer.weight
        return inside, layer.weight is layer.weight

    assert same(run) == (True, False)


def test_parametrization_errors():
    def wrong_shape(lib):
        class Row(lib.nn.Module):
            def forward(self, x):
                return x[0]

        return Row()

    same_error(
        lambda lib: lib.nn.utils.parametrize.register_parametrization(lib.nn.Linear(2, 2), "weight", wrong_shape(lib)),
        "may not change the shape",
    )
    same_error(
        lambda lib: lib.nn.utils.parametrize.register_parametrization(lib.nn.Linear(2, 2), "nope", _positive(lib)),
        "does not have a parameter, a buffer, or a parametrized element with name 'nope'",
    )
    same_error(
        lambda lib: lib.nn.utils.parametrize.remove_parametrizations(lib.nn.Linear(2, 2), "weight"),
        "does not have a parametrization on weight",
    )

    def no_inverse(lib):
        layer = lib.nn.utils.parametrize.register_parametrization(lib.nn.Linear(2, 2), "weight", _Symmetric.make(lib))
        layer.weight = lib.zeros(2, 2)

    same_error(no_inverse, "does not implement right_inverse")


# ---------------------------------------------------------------------------------------------- norms
def _parametrizations(lib):
    return lib.nn.utils.parametrizations


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: _parametrizations(lib).weight_norm(lib.nn.Linear(3, 4)),
        lambda lib: _parametrizations(lib).weight_norm(lib.nn.Linear(3, 4), dim=None),
        lambda lib: _parametrizations(lib).weight_norm(lib.nn.Linear(3, 4), dim=1),
        lambda lib: _parametrizations(lib).spectral_norm(lib.nn.Linear(3, 4)),
        lambda lib: _parametrizations(lib).spectral_norm(lib.nn.Linear(3, 4), n_power_iterations=3).eval(),
        lambda lib: _parametrizations(lib).spectral_norm(lib.nn.Linear(3, 4), "bias"),
        lambda lib: lib.nn.utils.weight_norm(lib.nn.Linear(3, 4)),
        lambda lib: lib.nn.utils.weight_norm(lib.nn.Linear(3, 4), dim=None),
        lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4), n_power_iterations=2),
    ],
    ids=["wn", "wn_all", "wn_dim1", "sn", "sn_eval", "sn_bias", "old_wn", "old_wn_all", "old_sn"],
)
def test_norm_reparametrizations(make):
    same(_module_run(make, lambda lib, m: m(_x(lib, 2, 3)), steps=2))


@pytest.mark.parametrize("which", ["new", "old"])
def test_spectral_norm_conv(which):
    def make(lib):
        conv = lib.nn.Conv2d(2, 3, 2)
        if which == "new":
            return _parametrizations(lib).spectral_norm(conv, dim=1)
        return lib.nn.utils.spectral_norm(conv)

    same(_module_run(make, lambda lib, m: m(_x(lib, 1, 2, 4, 4)), steps=2))


def test_remove_weight_and_spectral_norm():
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = _seeded(lib, lambda lib: lib.nn.utils.weight_norm(lib.nn.Linear(3, 2)))
        b = _seeded(lib, lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(3, 2)))
        b(_x(lib, 1, 3))
        lib.nn.utils.remove_weight_norm(a)
        lib.nn.utils.remove_spectral_norm(b)
        return [w.category.__name__ for w in caught], list(a.state_dict()), a.weight, list(b.state_dict()), b.weight

    same(run)
    same_error(lambda lib: lib.nn.utils.remove_weight_norm(lib.nn.Linear(2, 2)), "weight_norm of 'weight' not found")
    same_error(lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2), n_power_iterations=0), "n_power_iterations")
    same_error(lambda lib: _parametrizations(lib).spectral_norm(lib.nn.Linear(2, 2), dim=2), "Dimension out of range")


@pytest.mark.parametrize("dim,g_shape", [(0, (2, 1, 1)), (2, (1, 1, 4)), (1, (1, 3, 1)), (-1, ())])
def test_weight_norm_function_and_norm_except_dim(dim, g_shape):
    def run(lib):
        rng = np.random.default_rng(1)
        v = lib.tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
        g = lib.tensor(rng.standard_normal(g_shape), requires_grad=True)
        fn = torch._weight_norm if lib is torch else minigrad.nn.functional._weight_norm
        w = fn(v, g, dim)
        grads = lib.autograd.grad(w, (v, g), lib.tensor(rng.standard_normal((2, 3, 4))))
        n = lib.norm_except_dim(v, 2, dim)
        return w, node_names(w), list(grads), n, node_names(n)

    same(run)


def test_spectral_norm_of_a_subclass_of_a_transposed_convolution_keeps_dim_1():
    # PyTorch asks isinstance(module, ConvTranspose*): a subclass's weight is (C_in, C_out, k) too
    class Upsampler(minigrad.nn.ConvTranspose2d):
        pass

    new = minigrad.nn.utils.parametrizations.spectral_norm(Upsampler(4, 3, 2))
    assert new.parametrizations.weight[0].dim == 1 and tuple(new.parametrizations.weight[0]._u.shape) == (3,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = minigrad.nn.utils.spectral_norm(Upsampler(4, 3, 2))
    assert tuple(old.weight_u.shape) == (3,)
