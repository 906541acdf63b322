"""layer_norm, batch_norm and embedding (functions and modules) against PyTorch: values,
gradients, second derivatives, running statistics, graphs, saved values, modules and errors.

The case table (helpers_torch.py) also runs these ops through its value, gradient and gradcheck
tests; this file looks at what the table does not: training vs eval, the running statistics,
the nodes' edges and saved values, the modules and the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

# Every test runs on each device: on_device makes the factories (and so the modules' parameters
# and buffers) create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int = 0, low: float | None = None) -> np.ndarray:
    """The same values for both libraries: standard normal, or uniform in [low, low + 1.5)."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) if low is None else rng.uniform(low, low + 1.5, shape)


def _leaf(lib, shape, dtype: str, seed: int = 0, low: float | None = None):
    return lib.tensor(_array(shape, seed, low), dtype=getattr(lib, dtype), requires_grad=True)


def _derivatives(lib, out, inputs: list, second: bool = True):
    """``out``, its gradients for the inputs under a fixed upstream gradient (made with a graph),
    and the gradients of a weighted sum of those (second derivatives, for the inputs and the
    upstream gradient). Second derivatives that do not exist are compared as zeros."""
    upstream = lib.tensor(_array(tuple(out.shape), 7), dtype=out.dtype, requires_grad=True)
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=second)
    if not second:
        return out, grads
    total = sum((g * lib.tensor(_array(tuple(g.shape), 8 + k), dtype=g.dtype)).sum() for k, g in enumerate(grads))
    wrt = [*inputs, upstream]
    seconds = lib.autograd.grad(total, wrt, allow_unused=True)
    return out, grads, [lib.zeros_like(x) if g is None else g for g, x in zip(seconds, wrt)]


def _edges(t) -> list:
    """The node's name and where its edges go (node names, or None for an input needing no grad)."""
    node = t.grad_fn
    return [node.name()] + [
        None if n is None else n.name().replace("torch::autograd::", "") for n, _ in node.next_functions
    ]


# ---------------------------------------------------------------------------------------------- layer_norm
# PyTorch's second derivatives are wrong with a bias but no weight (see "where PyTorch errs"
# below): that case is compared to first order here.
LAYER_NORMS = {
    "weight and bias": ((2, 3, 4), (4,), True, True),
    "over two dims": ((2, 3, 4), (3, 4), True, True),
    "weight only": ((5, 4), (4,), True, False),
    "bias only": ((5, 4), (4,), False, True),
    "neither": ((3, 4), (4,), False, False),
    "a vector, whole": ((6,), (6,), True, True),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", LAYER_NORMS)
def test_layer_norm_values_gradients_and_second_derivatives(name, dtype):
    shape, normalized, has_weight, has_bias = LAYER_NORMS[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        w = _leaf(lib, normalized, dtype, 1) if has_weight else None
        b = _leaf(lib, normalized, dtype, 2) if has_bias else None
        out = lib.nn.functional.layer_norm(x, normalized, w, b, eps=1e-3)
        second = has_weight or not has_bias
        return _derivatives(lib, out, [t for t in (x, w, b) if t is not None], second), _edges(out)

    same(run)


def test_layer_norm_saved_values_match_torch():
    def run(lib):
        x, w = _leaf(lib, (2, 3), "float32"), _leaf(lib, (3,), "float32", 1)
        node = lib.nn.functional.layer_norm(x, [3], w).grad_fn
        return node._saved_normalized_shape, node._saved_input, node._saved_weight

    same(run)


def test_layer_norm_saves_its_input_so_changing_it_breaks_backward():
    def run(lib):
        x = _leaf(lib, (2, 3), "float32")
        y = x * 1
        out = lib.nn.functional.layer_norm(y, (3,))
        y.add_(1)
        out.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_layer_norm_of_an_empty_batch():
    same(lambda lib: lib.nn.functional.layer_norm(lib.ones(0, 3), (3,)))


# ---------------------------------------------------------------------------------------------- batch_norm
BATCH_NORMS = {
    "2-D input": ((5, 3), True, True),
    "3-D input": ((4, 3, 2), True, True),
    "4-D input": ((2, 3, 2, 2), True, True),
    "no weight or bias": ((4, 3, 2), False, False),
    "weight only": ((4, 3), True, False),
}


@pytest.mark.parametrize("training", [True, False], ids=["training", "eval"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", BATCH_NORMS)
def test_batch_norm_values_gradients_second_derivatives_and_running_stats(name, dtype, training):
    shape, has_weight, has_bias = BATCH_NORMS[name]

    def run(lib):
        x = _leaf(lib, shape, dtype)
        w = _leaf(lib, (3,), dtype, 1) if has_weight else None
        b = _leaf(lib, (3,), dtype, 2) if has_bias else None
        mean = lib.tensor(_array(3, 3), dtype=getattr(lib, dtype))
        var = lib.tensor(_array(3, 4, low=0.5), dtype=getattr(lib, dtype))
        out = lib.nn.functional.batch_norm(x, mean, var, w, b, training=training, momentum=0.3, eps=1e-3)
        found = _derivatives(lib, out, [t for t in (x, w, b) if t is not None])
        # updated in place (when training) without a version bump, as PyTorch's kernel does
        return found, _edges(out), mean, var, mean._version, var._version

    same(run)


def test_batch_norm_without_running_stats_uses_and_keeps_nothing():
    def run(lib):
        x = _leaf(lib, (4, 3, 2), "float32")
        out = lib.nn.functional.batch_norm(x, None, None, training=True)
        node = out.grad_fn
        return _derivatives(lib, out, [x]), node._saved_running_mean, node._saved_running_var

    same(run)


def test_batch_norm_saved_values_match_torch():
    def run(lib):
        x, w = _leaf(lib, (4, 3), "float32"), _leaf(lib, (3,), "float32", 1)
        mean, var = lib.zeros(3), lib.ones(3)
        found = []
        for training in (True, False):
            node = lib.nn.functional.batch_norm(x, mean, var, w, training=training, eps=0.01).grad_fn
            found += [node._saved_training, node._saved_eps, node._saved_input, node._saved_weight]
            found += [node._saved_running_mean, node._saved_running_var]
        return found

    same(run)


def test_batch_norm_running_stats_after_several_steps():
    def run(lib):
        mean, var = lib.zeros(3), lib.ones(3)
        for step in range(4):
            x = lib.tensor(_array((6, 3, 2), step) * (step + 1) + step, dtype=lib.float32)
            lib.nn.functional.batch_norm(x, mean, var, training=True, momentum=0.2)
        return mean, var

    same(run)


def test_batch_norm_of_an_empty_batch_leaves_the_running_stats():
    def run(lib):
        mean, var = lib.zeros(3), lib.ones(3)
        out = lib.nn.functional.batch_norm(lib.ones(0, 3), mean, var, training=True)
        return out, mean, var

    same(run)


def test_batch_norm_eval_mode_reads_but_does_not_update_the_running_stats():
    def run(lib):
        mean, var = lib.tensor([0.5, -1.0]), lib.tensor([4.0, 0.25])
        out = lib.nn.functional.batch_norm(lib.tensor([[1.0, 2.0]]), mean, var, training=False)
        return out, mean, var

    same(run)


# ---------------------------------------------------------------------------------------------- embedding
# (indices, options, whether PyTorch's second derivatives can be compared: with
# scale_grad_by_freq they are wrong, and of no indices they fail; see further down)
EMBEDDINGS = {
    "matrix of indices": ([[0, 2, 4], [2, 2, 1]], {}, True),
    "one index": (3, {}, True),
    "padding_idx": ([[0, 2, 4], [2, 2, 1]], {"padding_idx": 2}, True),
    "negative padding_idx": ([4, 4, 0], {"padding_idx": -1}, True),
    "scale_grad_by_freq": ([[0, 2, 4], [2, 2, 1]], {"scale_grad_by_freq": True}, False),
    "both": ([[0, 2, 4], [2, 2, 1]], {"padding_idx": 0, "scale_grad_by_freq": True}, False),
    "no indices": ([], {}, False),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", EMBEDDINGS)
def test_embedding_values_gradients_and_second_derivatives(name, dtype):
    indices, options, second = EMBEDDINGS[name]

    def run(lib):
        w = _leaf(lib, (5, 3), dtype)
        out = lib.nn.functional.embedding(lib.tensor(indices, dtype=lib.long), w, **options)
        return _derivatives(lib, out, [w], second), _edges(out)

    same(run)


def test_embedding_takes_int32_indices():
    same(lambda lib: lib.nn.functional.embedding(lib.tensor([[1, 0]], dtype=lib.int32), lib.arange(6.0).reshape(3, 2)))


def test_embedding_saved_values_match_torch():
    def run(lib):
        w = _leaf(lib, (5, 3), "float32")
        node = lib.nn.functional.embedding(lib.tensor([[1, 4]]), w, padding_idx=-2).grad_fn
        found = [node._saved_indices, node._saved_padding_idx, node._saved_scale_grad_by_freq]
        return found + [node._saved_sparse, node._saved_weight_sym_argsize_0]

    same(run)


@pytest.mark.parametrize("norm_type", [2.0, 1.0])
def test_embedding_max_norm_renormalises_the_looked_up_rows_in_place(norm_type):
    def run(lib):
        w = lib.tensor(_array((5, 3)) * 2, dtype=lib.float32, requires_grad=True)
        out = lib.nn.functional.embedding(lib.tensor([[0, 2], [2, 4]]), w, max_norm=1.0, norm_type=norm_type)
        (grad,) = lib.autograd.grad(out.sum(), w)
        return out, w, grad, w._version

    same(run)


def test_embedding_gradient_of_the_padding_row_stays_zero_where_the_others_are_inf():
    def run(lib):
        w = _leaf(lib, (3, 2), "float32")
        out = lib.nn.functional.embedding(lib.tensor([0, 1]), w, padding_idx=0)
        (grad,) = lib.autograd.grad(out, w, lib.tensor([[float("inf"), 1.0], [2.0, 3.0]]))
        return grad

    same(run)


def test_embedding_with_sparse_gradients_is_not_supported():
    w = minigrad.ones(3, 2, requires_grad=True)
    with pytest.raises(NotImplementedError, match="sparse"):
        minigrad.nn.functional.embedding(minigrad.tensor([1]), w, sparse=True)


# ---------------------------------------------------------------------------------------------- where PyTorch errs
# PyTorch 2.13's double backward of layer_norm and batch_norm with a bias but no weight leaves out
# the bias's part (or fails); embedding's ignores scale_grad_by_freq, and fails for no indices.
# minigrad's second derivatives come from its own ops: finite differences check them, and
# PyTorch does too where it can, written another way.
def _bias_but_no_weight(lib, x, b, norm: str):
    F = lib.nn.functional
    if lib is minigrad:  # the call under test
        if norm == "layer":
            return F.layer_norm(x, (4,), None, b)
        return F.batch_norm(x, None, None, None, b, training=True)
    # PyTorch's twin, the bias added outside its norm, where its second derivatives are right
    if norm == "layer":
        return F.layer_norm(x, (4,)) + b
    return F.batch_norm(x, None, None, training=True) + b


@pytest.mark.parametrize("norm", ["layer", "batch"])
def test_second_derivatives_with_a_bias_but_no_weight(norm):
    def run(lib):
        x, b = _leaf(lib, (5, 4), "float64"), _leaf(lib, (4,), "float64", 1)
        return _derivatives(lib, _bias_but_no_weight(lib, x, b, norm), [x, b])

    same(run)


@pytest.mark.parametrize("norm", ["layer", "batch"])
def test_second_derivatives_with_a_bias_but_no_weight_agree_with_finite_differences(norm):
    x = minigrad.tensor(_array((5, 4)), dtype=minigrad.float64, requires_grad=True)
    b = minigrad.tensor(_array(4, 1), dtype=minigrad.float64, requires_grad=True)

    def fn(x, b):
        return _bias_but_no_weight(minigrad, x, b, norm)

    assert minigrad.autograd.gradcheck(fn, (x, b))
    assert minigrad.autograd.gradgradcheck(fn, (x, b))


def test_second_derivatives_of_embedding_scaled_by_frequency_agree_with_finite_differences():
    """Scaled (and padded), the "gradient" is by design no derivative, so gradcheck does not
    apply; gradgradcheck differentiates the backward pass itself (linear in the upstream
    gradient), where PyTorch's leaves out the scaling."""
    w = minigrad.tensor(_array((5, 4)), dtype=minigrad.float64, requires_grad=True)
    indices = minigrad.tensor([[0, 2, 4], [2, 2, 1]])

    def fn(w):
        return minigrad.nn.functional.embedding(indices, w, padding_idx=1, scale_grad_by_freq=True)

    assert minigrad.autograd.gradgradcheck(fn, (w,))


def test_embedding_of_no_indices_has_second_derivatives():
    w = minigrad.ones(3, 2, requires_grad=True)
    out = minigrad.nn.functional.embedding(minigrad.tensor([], dtype=minigrad.long), w)
    (grad,) = minigrad.autograd.grad(out, w, minigrad.ones(0, 2, requires_grad=True), create_graph=True)
    assert grad.tolist() == [[0.0, 0.0]] * 3 and grad.requires_grad


# ---------------------------------------------------------------------------------------------- modules
def _modules(lib) -> dict:
    nn = lib.nn
    return {
        "LayerNorm": nn.LayerNorm(3),
        "LayerNorm of two dims without bias": nn.LayerNorm([2, 3], eps=1e-3, bias=False),
        "LayerNorm without affine": nn.LayerNorm((3,), elementwise_affine=False),
        "BatchNorm1d": nn.BatchNorm1d(3),
        "BatchNorm1d without bias": nn.BatchNorm1d(3, bias=False),
        "BatchNorm1d cumulative, no affine": nn.BatchNorm1d(3, momentum=None, affine=False),
        "BatchNorm2d untracked": nn.BatchNorm2d(4, eps=0.001, track_running_stats=False),
        "Embedding": nn.Embedding(5, 2),
        "Embedding with every option": nn.Embedding(
            5, 2, padding_idx=-1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True
        ),
    }


@pytest.mark.parametrize("name", list(_modules(minigrad)))
def test_modules_repr_parameters_buffers_and_state_dict_match_torch(name):
    def run(lib):
        module = _modules(lib)[name]
        params = [(k, tuple(p.shape), p.requires_grad) for k, p in module.named_parameters()]
        buffers = [(k, tuple(b.shape), str(b.dtype)) for k, b in module.named_buffers()]
        as_double = [(k, str(v.dtype)) for k, v in module.double().state_dict().items()]
        registered = [(k, v is None) for k, v in {**module._parameters, **module._buffers}.items()]
        return repr(module), params, buffers, list(module.state_dict()), as_double, registered

    same(run)


def test_norm_modules_start_as_torch_does():
    def run(lib):
        layer, batch = lib.nn.LayerNorm((2, 3)), lib.nn.BatchNorm2d(3)
        return (
            layer.weight,
            layer.bias,
            batch.weight,
            batch.bias,
            batch.running_mean,
            batch.running_var,
            batch.num_batches_tracked,
        )

    same(run)


def test_embedding_starts_standard_normal_with_a_zero_padding_row():
    def run(lib):
        w = lib.nn.Embedding(4000, 3, padding_idx=1).weight.detach()
        return w[1], round(float(w.mean()), 1), round(float(w.std()), 1)

    same(run)


@pytest.mark.parametrize("momentum", [0.1, None])
@pytest.mark.parametrize("build", ["BatchNorm1d 2-D", "BatchNorm1d 3-D", "BatchNorm2d"])
def test_batch_norm_modules_track_running_stats_and_use_them_in_eval(build, momentum):
    shape = {"BatchNorm1d 2-D": (6, 3), "BatchNorm1d 3-D": (4, 3, 5), "BatchNorm2d": (2, 3, 2, 2)}[build]

    def run(lib):
        module = getattr(lib.nn, build.split()[0])(3, momentum=momentum)
        with lib.no_grad():
            module.weight.copy_(lib.tensor([0.5, 1.0, 2.0]))
        found = []
        for step in range(3):
            x = lib.tensor(_array(shape, step) + step, dtype=lib.float32, requires_grad=True)
            out = module(x)
            loss = (out * lib.tensor(_array(shape, 5), dtype=lib.float32)).sum()
            found += [out, lib.autograd.grad(loss, [x, module.weight])]
        found += [module.running_mean, module.running_var, module.num_batches_tracked]
        module.eval()
        x = lib.tensor(_array(shape, 9), dtype=lib.float32, requires_grad=True)
        out = module(x)
        loss = (out * lib.tensor(_array(shape, 5), dtype=lib.float32)).sum()
        found += [out, lib.autograd.grad(loss, [x, module.weight, module.bias]), module.num_batches_tracked]
        return found

    same(run)


def test_an_untracked_batch_norm_uses_the_batch_in_eval_too():
    def run(lib):
        module = lib.nn.BatchNorm1d(2, track_running_stats=False).eval()
        return module(lib.tensor([[1.0, 2.0], [3.0, 5.0]]))

    same(run)


def test_layer_norm_and_embedding_modules_match_torch():
    def run(lib):
        emb, norm = lib.nn.Embedding(6, 4, padding_idx=0), lib.nn.LayerNorm(4)
        with lib.no_grad():
            emb.weight.copy_(lib.tensor(_array((6, 4)), dtype=lib.float32))
            norm.weight.copy_(lib.tensor(_array(4, 1), dtype=lib.float32))
        out = norm(emb(lib.tensor([[0, 3, 5], [3, 3, 1]])))
        loss = (out * lib.tensor(_array((2, 3, 4), 2), dtype=lib.float32)).sum()
        loss.backward()
        return out, emb.weight.grad, norm.weight.grad, norm.bias.grad

    same(run)


def test_a_small_model_trains_as_in_torch():
    """Embedding -> LayerNorm -> Linear -> BatchNorm1d, with the same starting state, trained by
    SGD for a few steps: the same losses, weights and running statistics."""

    def run(lib):
        nn = lib.nn
        model = nn.Sequential(nn.Embedding(7, 4), nn.LayerNorm(4), nn.Flatten(), nn.Linear(8, 3), nn.BatchNorm1d(3))
        state = {
            k: lib.tensor(_array(tuple(v.shape), i), dtype=v.dtype)
            for i, (k, v) in enumerate(model.state_dict().items())
            if v.dtype.is_floating_point
        }
        model.load_state_dict(state, strict=False)
        optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
        losses = []
        for step in range(4):
            tokens = lib.tensor(np.random.default_rng(step).integers(0, 7, (5, 2)))
            loss = model(tokens).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss)
        return losses, list(model.state_dict().values())

    same(run)


# ---------------------------------------------------------------------------------------------- errors
def _bn(lib, shape=(4, 3), stats=3, training=True, **options):
    mean = None if stats is None else lib.zeros(stats)
    var = None if stats is None else lib.ones(stats)
    return lib.nn.functional.batch_norm(lib.ones(shape), mean, var, training=training, **options)


ERRORS = {
    "layer_norm of a wrong shape": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 4), [3]),
        "Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 4]",
    ),
    "layer_norm of two wrong dims": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(3), (2, 3)),
        "Given normalized_shape=[2, 3], expected input with shape [*, 2, 3], but got input of size[3]",
    ),
    "layer_norm of an int shape": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), 3),
        "argument 'normalized_shape' (position 2) must be tuple of ints, not int",
    ),
    "layer_norm of a float in the shape": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), [3.0]),
        "must be tuple of ints, but found element of type float at pos 0",
    ),
    "layer_norm of no dims": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), ()),
        "Expected normalized_shape to be at least 1-dimensional",
    ),
    "layer_norm with a weight of a wrong shape": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), (3,), lib.ones(4)),
        "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and normalized_shape = [3]",
    ),
    "layer_norm with a bias of a wrong shape": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), (3,), None, lib.ones(2, 3)),
        "Expected bias to be of same shape as normalized_shape, but got bias of shape [2, 3]",
    ),
    "layer_norm of integers": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3, dtype=lib.long), (3,)),
        "\"LayerNormKernelImpl\" not implemented for 'Long'",
    ),
    "layer_norm with a float64 weight": (
        lambda lib: lib.nn.functional.layer_norm(lib.ones(2, 3), (3,), lib.ones(3, dtype=lib.float64)),
        "expect parameter to have scalar type of Float",
    ),
    "LayerNorm module of a wrong input": (
        lambda lib: lib.nn.LayerNorm(3)(lib.ones(2, 4)),
        "expected input with shape [*, 3], but got input of size[2, 4]",
    ),
    "batch_norm of one value per channel": (
        lambda lib: _bn(lib, (1, 3)),
        "Expected more than 1 value per channel when training, got input size torch.Size([1, 3])",
    ),
    "batch_norm of one value per channel, 3-D": (
        lambda lib: _bn(lib, (1, 3, 1), None),
        "Expected more than 1 value per channel when training, got input size torch.Size([1, 3, 1])",
    ),
    "batch_norm with a running mean of a wrong size": (
        lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(4), lib.ones(3), training=True),
        "running_mean should contain 3 elements not 4",
    ),
    "batch_norm with a running var of a wrong size": (
        lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), lib.ones(2)),
        "running_var should contain 3 elements not 2",
    ),
    "batch_norm with a weight of a wrong size": (
        lambda lib: _bn(lib, weight=lib.ones(4)),
        "weight should contain 3 elements not 4",
    ),
    "batch_norm with a bias of a wrong size": (
        lambda lib: _bn(lib, bias=lib.ones(2)),
        "bias should contain 3 elements not 2",
    ),
    "batch_norm in eval without running stats": (
        lambda lib: _bn(lib, stats=None, training=False),
        "running_mean must be defined in evaluation mode",
    ),
    "batch_norm with only a running mean": (
        lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3), lib.zeros(3), None, training=True),
        "running_mean and running_var must either both be None or neither be None",
    ),
    "batch_norm training with eps 0": (
        lambda lib: _bn(lib, eps=0.0),
        "batch_norm eps must be positive during training, but got 0.0",
    ),
    "batch_norm with a negative eps": (
        lambda lib: _bn(lib, training=False, eps=-1.0),
        "batch_norm eps must be non-negative, but got -1.0",
    ),
    "batch_norm with momentum None": (lambda lib: _bn(lib, momentum=None), "must be float, not NoneType"),
    "batch_norm of integers": (
        lambda lib: lib.nn.functional.batch_norm(lib.ones(4, 3, dtype=lib.long), None, None, training=True),
        "\"batch_norm\" not implemented for 'Long'",
    ),
    "batch_norm with float64 running stats": (
        lambda lib: lib.nn.functional.batch_norm(
            lib.ones(4, 3), lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64), training=True
        ),
        "mixed dtype",
    ),
    "batch_norm of a vector": (lambda lib: _bn(lib, (4,), None), "Dimension out of range"),
    "BatchNorm1d of a 4-D input": (
        lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(2, 3, 2, 2)),
        "expected 2D or 3D input (got 4D input)",
    ),
    "BatchNorm1d of a vector": (
        lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(3)),
        "expected 2D or 3D input (got 1D input)",
    ),
    "BatchNorm2d of a 3-D input": (
        lambda lib: lib.nn.BatchNorm2d(3)(lib.ones(2, 3, 2)),
        "expected 4D input (got 3D input)",
    ),
    "BatchNorm1d of the wrong channels": (
        lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(4, 2)),
        "running_mean should contain 2 elements not 3",
    ),
    "BatchNorm1d training on one sample": (
        lambda lib: lib.nn.BatchNorm1d(3)(lib.ones(1, 3)),
        "Expected more than 1 value per channel",
    ),
    "embedding of float indices": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([1.0]), lib.ones(5, 2)),
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
        "but got torch.FloatTensor instead (while checking arguments for embedding)",
    ),
    "embedding of int16 indices": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([1], dtype=lib.int16), lib.ones(5, 2)),
        "but got torch.ShortTensor instead",
    ),
    "embedding of bool indices": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([True]), lib.ones(5, 2)),
        "BoolType instead",
    ),
    "embedding of an index too large": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([[1, 5]]), lib.ones(5, 2)),
        "index out of range in self",
    ),
    "embedding of a negative index": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([-1]), lib.ones(5, 2)),
        "index out of range in self",
    ),
    "embedding of a list": (
        lambda lib: lib.nn.functional.embedding([1], lib.ones(5, 2)),
        "embedding(): argument 'indices' (position 2) must be Tensor, not list",
    ),
    "embedding of a vector weight": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(5)),
        "'weight' must be 2-D",
    ),
    "embedding with padding_idx too large": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(5, 2), padding_idx=5),
        "Padding_idx must be within num_embeddings",
    ),
    "embedding with padding_idx too small": (
        lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(5, 2), padding_idx=-6),
        "Padding_idx must be within num_embeddings",
    ),
    "Embedding module with padding_idx too large": (
        lambda lib: lib.nn.Embedding(5, 2, padding_idx=5),
        "Padding_idx must be within num_embeddings",
    ),
    "Embedding module with a weight of a wrong shape": (
        lambda lib: lib.nn.Embedding(5, 2, _weight=lib.ones(5, 3)),
        "Shape of weight does not match num_embeddings and embedding_dim",
    ),
    "Embedding from a vector": (
        lambda lib: lib.nn.Embedding.from_pretrained(lib.ones(5)),
        "Embeddings parameter is expected to be 2-dimensional",
    ),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


def test_embedding_from_pretrained_is_frozen_unless_asked():
    def run(lib):
        weights = lib.tensor([[1.0, 2.3], [4.0, 5.1]])
        frozen = lib.nn.Embedding.from_pretrained(weights)
        trained = lib.nn.Embedding.from_pretrained(weights, freeze=False, padding_idx=0)
        out = trained(lib.tensor([0, 1, 1]))
        out.sum().backward()
        return frozen(lib.tensor([1])), frozen.weight.requires_grad, repr(trained), out, trained.weight.grad

    same(run)
