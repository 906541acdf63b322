"""The shortcuts taken for speed give exactly what the general paths (and PyTorch) give.

- ``.grad`` takes a gradient without copying it only when nothing else can see its memory:
  a gradient the user passed in, kept from a hook, or sent to two leaves is always copied.
- ``add_`` without autograd updates the array in place (an optimizer's step); with an ``alpha``,
  one fused multiply-add per element gives PyTorch's bits.
- ``nll_loss`` picks and scatters with plain indexing in every input rank, and counts each target
  once without a weight or an ignored target.
"""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import same_opening  # noqa: E402

LIBS = pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])


def shares(a, b) -> bool:
    """True when tensors ``a`` and ``b`` (of one library) overlap in memory."""
    if isinstance(a, minigrad.Tensor):
        return bool(np.shares_memory(a._data, b._data))
    sa, sb = a.untyped_storage(), b.untyped_storage()
    return sa.data_ptr() == sb.data_ptr()


# ---------------------------------------------------------------------------------------------- .grad memory
# PyTorch itself takes a *view* of the caller's gradient as .grad (the last three paths);
# minigrad copies it, so that .grad never shares memory with a tensor the caller holds.
@pytest.mark.parametrize("lib", [minigrad], ids=["minigrad"])
@pytest.mark.parametrize(
    "path",
    [
        lambda x: x,  # backward straight from the leaf
        lambda x: x + 0,  # AddBackward0 hands the incoming gradient on unchanged
        lambda x: x.view(3),  # ViewBackward0 hands on a view of it
        lambda x: x.reshape(1, 3).reshape(3),
        lambda x: x.t(),
    ],
)
def test_a_gradient_passed_in_is_never_the_leafs_grad(lib, path):
    x = lib.ones(3, requires_grad=True)
    g = lib.tensor([1.0, 2.0, 3.0])
    path(x).backward(g)
    assert not shares(x.grad, g)
    x.grad.add_(1)  # and writing into .grad leaves the caller's tensor alone
    assert g.tolist() == [1.0, 2.0, 3.0]


@LIBS
def test_one_gradient_sent_to_two_leaves_gives_two_grads(lib):
    x, y = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
    (x + y).sum().backward()  # both leaves get the very same gradient tensor
    assert not shares(x.grad, y.grad)
    x.grad.add_(1)
    assert y.grad.tolist() == [1.0, 1.0, 1.0]


@LIBS
def test_a_gradient_kept_by_a_hook_is_not_the_leafs_grad(lib):
    x = lib.ones(3, requires_grad=True)
    kept = []
    x.register_hook(kept.append)
    (x * 2).sum().backward()
    assert not shares(x.grad, kept[0])
    y = x * 1
    y.register_hook(kept.append)  # kept on the way, then passed on unchanged by AddBackward0
    x.grad = None
    (y + 0).backward(lib.ones(3))
    assert not shares(x.grad, kept[-1])


@LIBS
def test_a_gradient_with_a_history_becomes_a_detached_grad(lib):
    w, x = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
    (x + 0).backward(w * 2)  # the gradient is a temporary that only the engine holds
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    assert not x.grad.requires_grad and x.grad.grad_fn is None


@LIBS
def test_retained_grad_and_leaf_grad_are_separate(lib):
    x = lib.ones(3, requires_grad=True)
    y = x + 0
    y.retain_grad()
    (y * 1).sum().backward()
    assert not shares(x.grad, y.grad)


def test_a_fresh_gradient_becomes_grad_without_a_copy():
    # The weight gradient of nn.Linear is computed transposed so that it arrives row-major:
    # .grad then takes that very array (a post-hook sees it, through a weak reference).
    import weakref

    layer = minigrad.nn.Linear(3, 2)
    out = layer(minigrad.randn(5, 3))
    transpose = out.grad_fn.next_functions[2][0]
    assert transpose.name() == "TBackward0"
    made = []
    transpose.register_hook(lambda grad_inputs, grad_outputs: made.append(weakref.ref(grad_inputs[0]._data)))
    out.sum().backward()
    assert made[0]() is layer.weight.grad._data
    assert layer.weight.grad._base is None and layer.weight.grad.is_contiguous()
    assert layer.weight.grad._data.flags.writeable


def test_gradients_of_matmul_match_torch_in_every_layout():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))
    results = []
    for lib in (minigrad, torch):
        x, w = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        bias = lib.zeros(5, dtype=lib.float64, requires_grad=True)
        (lib.addmm(bias, x, w.t()) ** 2).sum().backward()  # column-major mat2
        (x @ w.t().contiguous()).sum().backward()  # row-major mat2
        results.append((x.grad.numpy().copy(), w.grad.numpy().copy(), bias.grad.numpy().copy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


# ---------------------------------------------------------------------------------------------- add_
@LIBS
def test_add_in_place_without_autograd_matches_torch(lib):
    w = lib.ones(2, 3, requires_grad=True)
    g = lib.full((2, 3), 0.5)
    before = w._version
    with lib.no_grad():
        out = w.add_(g, alpha=-0.1)
    assert out is w and w._version == before + 1
    np.testing.assert_allclose(w.detach().numpy(), np.full((2, 3), 0.95), rtol=1e-7)
    assert w.is_leaf and w.requires_grad and w.grad_fn is None


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [1, 7, 8, 33, 1001, 200_711])  # vector widths and their remainders
def test_add_in_place_with_alpha_gives_torchs_bits(size, dtype):
    # One fused multiply-add per element, as PyTorch's kernel (BLAS axpy): x * alpha rounded
    # first and then added would differ in the last bit here and there. An SGD step is this add_.
    rng = np.random.default_rng(size)
    w, g = (rng.standard_normal((size,)).astype(dtype) for _ in range(2))
    ours, theirs = minigrad.tensor(w), torch.tensor(w)
    for alpha in (-0.01, 1 / 3, 2):
        ours.add_(minigrad.tensor(g), alpha=alpha)
        theirs.add_(torch.tensor(g), alpha=alpha)
        assert ours.numpy().tobytes() == theirs.numpy().tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "shapes", [((1,), (1,)), ((7,),) * 2, ((33,),) * 2, ((1001,),) * 2, ((6, 4), (4,)), ((2, 40), (40,)), ((40,), ())]
)
def test_add_and_sub_with_alpha_give_torchs_bits(shapes, dtype):
    # Out of place too, PyTorch rounds a + alpha * b once (the fused multiply-add of add_),
    # and sub is add with -alpha; also with the second operand broadcast along the rows.
    rng = np.random.default_rng(len(shapes[0]) * 100 + shapes[0][-1])
    a, b = (rng.standard_normal(shape).astype(dtype) for shape in shapes)
    for alpha in (-0.01, 1 / 3, 2.5):
        for name in ("add", "sub"):
            ours = getattr(minigrad, name)(minigrad.tensor(a), minigrad.tensor(b), alpha=alpha)
            theirs = getattr(torch, name)(torch.tensor(a), torch.tensor(b), alpha=alpha)
            assert ours.numpy().tobytes() == theirs.numpy().tobytes(), (name, alpha)


@pytest.mark.parametrize(
    ("dtype", "alpha"), [("uint8", 3), ("uint8", -3), ("int8", 7), ("int64", -2), ("float16", 0.3), ("float16", -0.3)]
)
def test_add_and_sub_with_alpha_wrap_and_round_as_torch_for_other_dtypes(dtype, alpha):
    a, b = np.array([1, 2, 250 % 128, 0]), np.array([3, 4, 5, 100])
    for name in ("add", "sub"):
        ours = getattr(minigrad, name)(
            minigrad.tensor(a, dtype=getattr(minigrad, dtype)),
            minigrad.tensor(b, dtype=getattr(minigrad, dtype)),
            alpha=alpha,
        )
        theirs = getattr(torch, name)(
            torch.tensor(a, dtype=getattr(torch, dtype)), torch.tensor(b, dtype=getattr(torch, dtype)), alpha=alpha
        )
        assert ours.tolist() == theirs.tolist(), name


def test_an_sgd_step_with_nesterov_momentum_gives_torchs_bits():
    # The Nesterov step adds the momentum buffer to the gradient with an alpha, out of place.
    rng = np.random.default_rng(3)
    start, grads = rng.standard_normal(1000), [rng.standard_normal(1000) for _ in range(4)]
    results = []
    for lib in (minigrad, torch):
        w = lib.tensor(start, requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
        for g in grads:
            w.grad = lib.tensor(g)
            opt.step()
        results.append(w.detach().numpy().tobytes())
    assert results[0] == results[1]


def test_an_sgd_step_gives_torchs_bits():
    weights = np.random.default_rng(0).standard_normal((2, 64, 33)).astype("float32")
    params = {lib: [lib.tensor(w, requires_grad=True) for w in weights] for lib in (minigrad, torch)}
    for lib, (w, v) in params.items():
        opt = lib.optim.SGD([w, v], lr=0.037)
        for _ in range(3):
            opt.zero_grad()
            ((w * v).sin().sum() * 1e-3).backward()  # a gradient of each library's own, made alike
            w.grad.copy_(lib.tensor(weights[1]))
            v.grad.copy_(lib.tensor(weights[0]))
            opt.step()
    for ours, theirs in zip(params[minigrad], params[torch]):
        assert ours.detach().numpy().tobytes() == theirs.detach().numpy().tobytes()


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.ones(3, dtype=lib.int64).add_(lib.ones(3, dtype=lib.int64), alpha=0.5),
        lambda lib: lib.ones(3, dtype=lib.int64).add_(lib.ones(3)),
        lambda lib: lib.ones(1).expand(3).add_(lib.ones(3)),
        lambda lib: lib.ones(3).add_(lib.ones(2, 3)),
        lambda lib: lib.ones(3, requires_grad=True).add_(lib.ones(3)),
    ],
)
def test_add_in_place_errors_match_torch(call):
    same_opening(call)


@LIBS
def test_add_in_place_through_a_view_and_with_broadcasting(lib):
    with lib.no_grad():
        base = lib.zeros(2, 3)
        base[0].add_(lib.ones(3), alpha=2)  # a view: the base sees the change
        base.add_(lib.ones(3))  # broadcast: the general path
    assert base.tolist() == [[3.0, 3.0, 3.0], [1.0, 1.0, 1.0]]


# ---------------------------------------------------------------------------------------------- nll_loss
@pytest.mark.parametrize("weighted", [True, False], ids=["weight", "no-weight"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize(
    "shape, target",
    [
        ((4,), 2),  # one sample: a 0-d target
        ((3, 4), [0, 3, -100]),
        ((3, 4), [0, 3, 3]),  # none ignored: without a weight, every target counts once (quicker)
        ((0, 4), []),  # an empty batch
        ((2, 4, 3), [[0, 1, 3], [2, -100, 0]]),
        ((2, 4, 3), [[0, 1, 3], [2, 2, 0]]),
    ],
)
def test_nll_loss_in_every_rank_matches_torch(shape, target, reduction, weighted):
    logp = np.log(np.random.default_rng(1).dirichlet(np.ones(4), size=int(np.prod(shape)) // 4))
    logp = np.moveaxis(logp.reshape(*shape[:1], *shape[2:], 4), -1, 1) if len(shape) > 1 else logp.reshape(4)
    weight = np.array([0.5, 1.0, 2.0, 1.5])
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(logp, requires_grad=True)
        w = lib.tensor(weight) if weighted else None
        loss = lib.nn.functional.nll_loss(x, lib.tensor(target, dtype=lib.int64), weight=w, reduction=reduction)
        loss.backward(lib.ones_like(loss) * 1.5)
        results.append((loss.detach().numpy(), x.grad.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@LIBS
def test_nll_loss_names_the_target_out_of_bounds(lib):
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        lib.nn.functional.nll_loss(lib.zeros(3, 4), lib.tensor([0, -100, 7]))


# ---------------------------------------------------------------------------------------------- promotion shortcuts
def _both(expression: str):
    """``expression`` evaluated with minigrad and with torch as ``T`` (each result, or its error)."""
    out = []
    for lib in (minigrad, torch):
        env = {"T": lib, "f": lib.tensor([0.5, -1.0, float("nan")]), "h": lib.tensor(1.5, dtype=lib.float64)}
        env["b"] = lib.tensor([True, False, True])
        try:
            value = eval(expression, env)
            out.append((str(value.dtype), repr(value.tolist())))  # repr: nan equals nan
        except RuntimeError as exc:
            out.append(("error", str(exc).split(".")[0]))
    return out


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
@pytest.mark.parametrize("number", ["0", "1", "-1", "0.5", "2**40", "1e30", "float('nan')", "float('inf')", "True"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_comparing_a_floating_tensor_with_a_number_matches_torch(op, number, dtype):
    ours, theirs = _both(f"f.to(T.{dtype}) {op} {number}")
    assert ours == theirs


@pytest.mark.parametrize(
    "expression",
    ["f * b", "b * f", "f + b", "f / b", "h * b", "b * h", "f.half() * b", "f - b", "b - f", "1 - b", "f - True"],
)
def test_floating_with_bool_matches_torch(expression):
    ours, theirs = _both(expression)
    assert ours == theirs


# ---------------------------------------------------------------------------------------------- saved attributes
@pytest.mark.parametrize(
    "make",
    [
        lambda lib, x, c: x * c,  # only self needs a gradient: other is saved, self is not
        lambda lib, x, c: x * x,
        lambda lib, x, c: x + c,  # nothing saved but alpha
        lambda lib, x, c: x.exp(),  # the result
        lambda lib, x, c: x.sum(0, keepdim=True),
        lambda lib, x, c: lib.atan2(x, c),
    ],
)
def test_saved_attributes_are_torchs(make):
    """``grad_fn._saved_<name>`` are attributes of the node, as PyTorch's: listed by dir(), and
    what they give (None for an input that was not saved)."""

    def run(lib):
        x = lib.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        c = lib.tensor([[2.0, 1.0], [-1.0, 4.0]])
        node = make(lib, x, c).grad_fn
        names = {a for a in dir(node) if a.startswith("_saved_") and "_sym_" not in a}  # (not the sizes)
        values = {name: getattr(node, name) for name in names}
        return {k: v.tolist() if hasattr(v, "tolist") else v for k, v in values.items()}

    ours, theirs = run(minigrad), run(torch)
    assert set(ours) == set(theirs)
    for name, value in ours.items():
        if value is None or theirs[name] is None:
            assert value is theirs[name], name
        else:
            np.testing.assert_allclose(value, theirs[name], rtol=1e-6, err_msg=name)
