"""nn and optim semantics checked against PyTorch: each snippet runs as ``run(lib)`` with ``lib``
torch and then minigrad, and both must give the same result, or raise the same exception type with the
same message.

Covered here: in-place activations whose backward PyTorch refuses, antialiased ``interpolate``,
the result dtype of mixed-dtype losses, ``Optimizer.load_state_dict`` sharing the given tensors,
negative ``label_smoothing``, adaptive pooling to size 0, inputs PyTorch rejects (non-tensors,
stacked LSTM states, integer inputs, float sizes), malformed loss weights and targets, the
printed result of ``Module.load_state_dict`` and the warning of initialising an empty tensor.
"""

import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad  # noqa: E402


def outcome(fn, lib):
    """``fn(lib)``'s result, or the type and message of what it raised."""
    try:
        return "ok", fn(lib)
    except Exception as error:  # the exception itself is what is compared
        return type(error).__name__, str(error)


def same_outcome(fn):
    """``fn`` gives equal results (plain Python values) with torch and minigrad, or raises the same
    exception type with the same message. Returns minigrad's outcome."""
    theirs, ours = outcome(fn, torch), outcome(fn, minigrad)
    assert ours == theirs
    return ours


def raises_alike(fn, words=None):
    """Both libraries raise the same exception type; with ``words``, both messages contain them,
    else the messages are equal."""
    (their_type, theirs), (our_type, ours) = outcome(fn, torch), outcome(fn, minigrad)
    assert their_type != "ok" and our_type == their_type, (theirs, ours)
    if words is None:
        assert ours == theirs
    else:
        assert words in theirs and words in ours, (theirs, ours)


def arr(t):
    return t.detach().numpy()


# ---------------------------------------------------------------------------------------------- 1
INPLACE_NEGATIVE = {
    "leaky_relu_": lambda lib, y: lib.nn.functional.leaky_relu_(y, -0.5),
    "LeakyReLU(inplace)": lambda lib, y: lib.nn.LeakyReLU(-0.5, inplace=True)(y),
    "elu(inplace)": lambda lib, y: lib.nn.functional.elu(y, alpha=-0.5, inplace=True),
    "elu_": lambda lib, y: lib.nn.functional.elu_(y, -0.5),
    "celu_": lambda lib, y: lib.nn.functional.celu_(y, -0.5),
    "celu(inplace)": lambda lib, y: lib.nn.functional.celu(y, -0.5, inplace=True),
}


@pytest.mark.parametrize("name", INPLACE_NEGATIVE)
def test_inplace_activation_with_a_negative_slope_refuses_backward(name):
    """The result of an in-place leaky_relu/elu/celu with a negative slope no longer tells which
    side of 0 the input was on: the forward works, the backward raises (minigrad used to return
    wrong gradients)."""

    def forward(lib):
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        return arr(INPLACE_NEGATIVE[name](lib, x * 1)).tolist()

    assert same_outcome(forward)[0] == "ok"

    def backward(lib):
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        INPLACE_NEGATIVE[name](lib, x * 1).sum().backward()

    raises_alike(backward)
    assert "negative slope which is not supported" in outcome(backward, minigrad)[1]

    def with_zero_slope(lib):  # a slope (alpha) of 0 is fine
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        lib.nn.functional.leaky_relu_(x * 1, 0.0).sum().backward()
        lib.nn.functional.elu_(x * 1, 0.0).sum().backward()
        return arr(x.grad).tolist()

    assert same_outcome(with_zero_slope) == ("ok", [0.0, 2.0])


# ---------------------------------------------------------------------------------------------- 2
@pytest.mark.parametrize(
    "shape, size, scale, align_corners, dtype",
    [
        ((2, 3, 8, 8), (3, 5), None, False, "float32"),
        ((1, 2, 13, 4), (4, 3), None, True, "float64"),
        ((1, 1, 5, 7), (16, 2), None, False, "float64"),  # growing one axis, shrinking the other
        ((1, 2, 11, 9), None, (0.3, 0.6), False, "float32"),
        ((1, 1, 17, 31), (1, 1), None, False, "float64"),
    ],
)
def test_interpolate_antialias_matches_torch(shape, size, scale, align_corners, dtype):
    """``antialias=True`` shrinks with a widened triangle filter: values, gradients and the node
    name are PyTorch's (minigrad used to ignore antialias)."""
    data = np.random.default_rng(0).standard_normal(shape).astype(dtype)

    def run(lib):
        x = lib.tensor(data, requires_grad=True)
        y = lib.nn.functional.interpolate(
            x, size=size, scale_factor=scale, mode="bilinear", align_corners=align_corners, antialias=True
        )
        weights = lib.tensor(np.arange(y.numel(), dtype=dtype).reshape(tuple(y.shape)) / y.numel())
        (y * weights).sum().backward()
        return arr(y), arr(x.grad), str(y.dtype), type(y.grad_fn).__name__

    theirs, ours = run(torch), run(minigrad)
    assert ours[2:] == theirs[2:] == (f"torch.{dtype}", "UpsampleBilinear2DAaBackward0")
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ours[0], theirs[0], rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=tolerance, atol=tolerance)


# ---------------------------------------------------------------------------------------------- 3
MIXED_DTYPE_LOSSES = {
    "bce_with_logits": lambda lib, a, b: lib.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid()),
    "cross_entropy": lambda lib, a, b: lib.nn.functional.cross_entropy(a, b.softmax(1)),
    "cross_entropy_smoothed": lambda lib, a, b: lib.nn.functional.cross_entropy(
        a, b.softmax(1), label_smoothing=0.1, reduction="sum"
    ),
}


def test_mixed_dtype_losses_have_torchs_result_dtype():
    """binary_cross_entropy_with_logits has the target's dtype (PyTorch computes it in place in
    ``1 - target``); cross_entropy with probabilities the promoted one (minigrad's mean used to
    be the input's). Gradients keep each input's dtype."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    for name, loss in MIXED_DTYPE_LOSSES.items():
        for dtypes in (("float32", "float64"), ("float64", "float32")):

            def run(lib, loss=loss, dtypes=dtypes):
                x = lib.tensor(a, dtype=getattr(lib, dtypes[0]), requires_grad=True)
                out = loss(lib, x, lib.tensor(b, dtype=getattr(lib, dtypes[1])))
                out.sum().backward()
                return str(out.dtype), round(out.sum().item(), 5), str(x.grad.dtype)

            assert outcome(run, minigrad) == outcome(run, torch), (name, dtypes)


# ---------------------------------------------------------------------------------------------- 4
def test_optimizer_load_state_dict_uses_the_given_tensors():
    """As PyTorch's: state tensors that already have the parameter's dtype and device are used as
    given (not copied); others are converted; the ``step`` count keeps its dtype; the saved groups
    replace the optimizer's (keeping its parameters)."""

    def run(lib):
        p = lib.nn.Parameter(lib.ones(2))
        sgd = lib.optim.SGD([p], lr=0.1, momentum=0.9)
        p.grad = lib.ones(2)
        sgd.step()
        q = lib.nn.Parameter(lib.ones(2))
        sgd2 = lib.optim.SGD([q], lr=0.5, momentum=0.9)
        sgd2.load_state_dict(sgd.state_dict())
        shared = sgd2.state[q]["momentum_buffer"] is sgd.state[p]["momentum_buffer"]

        adam = lib.optim.Adam([p], lr=0.1)
        adam.step()
        r = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
        adam2 = lib.optim.Adam([r], lr=0.2)
        adam2.param_groups[0]["extra"] = 1
        group = adam2.param_groups[0]
        adam2.load_state_dict(adam.state_dict())
        mine, given = adam2.state[r], adam.state[p]
        return (
            shared,
            sgd2.param_groups[0]["lr"],
            mine["step"] is given["step"],
            str(mine["step"].dtype),
            str(mine["exp_avg"].dtype),
            mine["exp_avg"] is given["exp_avg"],
            adam2.param_groups[0] is group,
            "extra" in adam2.param_groups[0],
            adam2.param_groups[0]["params"][0] is r,
        )

    assert same_outcome(run) == ("ok", (True, 0.1, True, "torch.float32", "torch.float64", False, False, False, True))


# ---------------------------------------------------------------------------------------------- 5
def test_cross_entropy_takes_a_negative_label_smoothing_as_none():
    """PyTorch refuses only label_smoothing above 1; a negative value smooths nothing."""
    for target in ([0], [[0.2, 0.3, 0.5]]):
        for smoothing in (-0.1, -2.0):
            got = same_outcome(
                lambda lib, t=target, s=smoothing: round(
                    lib.nn.functional.cross_entropy(
                        lib.tensor([[1.0, 2.0, 3.0]]), lib.tensor(t), label_smoothing=s
                    ).item(),
                    4,
                )
            )
            assert got[0] == "ok"
    assert same_outcome(
        lambda lib: round(
            lib.nn.functional.cross_entropy(lib.tensor([[1.0, 2, 3]]), lib.tensor([0]), label_smoothing=-0.1).item(), 4
        )
    ) == ("ok", 2.4076)
    raises_alike(
        lambda lib: lib.nn.functional.cross_entropy(lib.tensor([[1.0, 2, 3]]), lib.tensor([0]), label_smoothing=1.5)
    )


# ---------------------------------------------------------------------------------------------- 6
@pytest.mark.parametrize(
    "pool, shape, size",
    [
        ("AdaptiveAvgPool2d", (1, 1, 4, 4), 0),
        ("AdaptiveAvgPool2d", (3, 4, 4), (0, 1)),
        ("AdaptiveAvgPool2d", (1, 1, 4, 4), (None, 0)),
        ("AdaptiveMaxPool2d", (2, 1, 4, 4), (0, 2)),
        ("AdaptiveAvgPool1d", (1, 1, 4), 0),
        ("AdaptiveMaxPool1d", (1, 4), 0),
    ],
)
def test_adaptive_pooling_to_size_zero(pool, shape, size):
    """An output size of 0 gives an empty result; PyTorch's backward then refuses it (minigrad
    used to raise NumPy's reshape error in the forward)."""

    def forward(lib):
        out = getattr(lib.nn, pool)(size)(lib.ones(*shape))
        return tuple(out.shape), out.numel()

    assert same_outcome(forward)[0] == "ok"

    def backward(lib):
        x = lib.ones(*shape, requires_grad=True)
        getattr(lib.nn, pool)(size)(x).sum().backward()

    raises_alike(backward)


# ---------------------------------------------------------------------------------------------- 7
@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib: lib.nn.LSTM(2, 3)(lib.zeros(4, 1, 2), lib.zeros(2, 1, 1, 3)), "lstm()"),
        (
            lambda lib: lib.nn.LSTM(2, 3)(lib.zeros(4, 1, 2), (lib.zeros(1, 1, 3),) * 3),
            "lstm expects two hidden states",
        ),
        (lambda lib: lib.nn.LSTMCell(2, 3)(lib.zeros(1, 2), lib.zeros(2, 1, 3)), None),
        (lambda lib: lib.nn.functional.leaky_relu(lib.tensor([1, 2])), None),
        (lambda lib: lib.nn.functional.leaky_relu(lib.tensor([True])), None),
        (lambda lib: lib.nn.functional.silu(lib.tensor([1, 2])), None),
        (lambda lib: lib.nn.functional.softplus(lib.tensor([1, 2], dtype=lib.int32)), None),
        (lambda lib: lib.nn.functional.hardtanh(lib.tensor([True])), None),
        (lambda lib: lib.nn.functional.relu6(lib.tensor([True])), None),
        (lambda lib: lib.nn.functional.threshold(lib.tensor([True]), 0.5, 0.0), None),
        (lambda lib: lib.nn.functional.dropout(lib.tensor([1, 2, 3]), 0.5), None),
        (lambda lib: lib.nn.functional.interpolate(lib.zeros(1, 1, 4), size=3.0), "interpolate"),
        (lambda lib: lib.nn.functional.interpolate(lib.zeros(1, 1, 4, 4), size=(3.0, 2)), None),
        (lambda lib: lib.nn.Upsample(size=3.0)(lib.zeros(1, 1, 4)), "invalid combination of arguments"),
        (lambda lib: lib.nn.functional.interpolate(lib.zeros(1, 1, 4), scale_factor="2"), "scale_factor"),
    ],
)
def test_rejects_what_torch_rejects(fn, words):
    raises_alike(fn, words if words != "interpolate" else "invalid combination of arguments")


def test_accepts_what_torch_accepts_next_to_the_rejected():
    def run(lib):
        lstm, cell = lib.nn.LSTM(2, 3), lib.nn.LSTMCell(2, 3)
        return (
            tuple(lstm(lib.zeros(4, 2), lib.zeros(2, 1, 3))[0].shape),  # unbatched: hx[0] and hx[1] are read
            tuple(lstm(lib.zeros(4, 1, 2), [lib.zeros(1, 1, 3)] * 2)[0].shape),
            tuple(cell(lib.zeros(2), lib.zeros(2, 3))[0].shape),
            tuple(lib.nn.functional.interpolate(lib.zeros(1, 1, 4), size=np.int64(3)).shape),
            tuple(lib.nn.functional.dropout(lib.tensor([1, 2]), 1.0).shape),
            str(lib.nn.functional.dropout(lib.tensor([1, 2]), 0.5, training=False).dtype),
        )

    assert same_outcome(run)[0] == "ok"
    with pytest.raises(TypeError):  # the old minigrad accepted a stacked state
        minigrad.nn.LSTM(2, 3)(minigrad.zeros(4, 1, 2), minigrad.zeros(2, 1, 1, 3))


# ---------------------------------------------------------------------------------------------- 8
ARRAY = np.zeros((2, 3), dtype=np.float32)
NOT_TENSORS = {
    "Linear": lambda lib: lib.nn.Linear(3, 2)(ARRAY),
    "Linear(list)": lambda lib: lib.nn.Linear(3, 2)([[0.0, 0.0, 0.0]]),
    "Linear(None)": lambda lib: lib.nn.Linear(3, 2)(None),
    "linear weight": lambda lib: lib.nn.functional.linear(lib.zeros(2, 3), ARRAY),
    "LayerNorm": lambda lib: lib.nn.LayerNorm(3)(ARRAY),
    "Dropout": lambda lib: lib.nn.Dropout()(ARRAY),
    "dropout(eval)": lambda lib: lib.nn.functional.dropout(ARRAY, training=False),
    "GELU": lambda lib: lib.nn.GELU()(ARRAY),
    "ReLU": lambda lib: lib.nn.ReLU()(ARRAY),
    "relu(float)": lambda lib: lib.nn.functional.relu(3.0),
    "Sequential": lambda lib: lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.ReLU())(ARRAY),
    "max_pool2d": lambda lib: lib.nn.functional.max_pool2d(np.zeros((1, 1, 2, 2), np.float32), 2),
    "pad": lambda lib: lib.nn.functional.pad(ARRAY, (1, 1)),
    "cross_entropy(list)": lambda lib: lib.nn.functional.cross_entropy(lib.zeros(2, 3), [0, 1]),
    "CrossEntropyLoss": lambda lib: lib.nn.CrossEntropyLoss()(ARRAY, lib.tensor([0, 1])),
    "nll_loss": lambda lib: lib.nn.functional.nll_loss(ARRAY, lib.tensor([0, 1])),
    "nll_loss(list)": lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3), [0, 1]),
    "kl_div": lambda lib: lib.nn.functional.kl_div(lib.zeros(2, 3), ARRAY, reduction="batchmean"),
    "embedding": lambda lib: lib.nn.Embedding(3, 2)(np.array([0])),
    "softmax": lambda lib: lib.nn.functional.softmax(ARRAY, 1),
    "BatchNorm1d": lambda lib: lib.nn.BatchNorm1d(3)(ARRAY),
    "LSTM": lambda lib: lib.nn.LSTM(3, 2)(ARRAY),
}


@pytest.mark.parametrize("name", NOT_TENSORS)
def test_non_tensor_arguments_get_torchs_error(name):
    """``linear(): argument 'input' (position 1) must be Tensor, not numpy.ndarray`` and the like,
    word for word (minigrad used to fail inside, e.g. with an AttributeError on ``_data``)."""
    raises_alike(NOT_TENSORS[name])


@pytest.mark.parametrize(
    "fn, words",
    [
        # PyTorch fails on these with "'int' object is not callable" (it calls target.size()):
        # minigrad names the argument instead
        (lambda lib: lib.nn.functional.binary_cross_entropy(ARRAY, lib.zeros(2, 3)), None),
        (lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(lib.zeros(2, 3), ARRAY), None),
        (lambda lib: lib.nn.functional.huber_loss(ARRAY, lib.zeros(2, 3)), None),
        (lambda lib: lib.nn.MSELoss()(lib.zeros(2, 3), ARRAY), None),
        # PyTorch lists every overload: minigrad names the argument
        (lambda lib: lib.nn.Conv1d(3, 2, 1)(np.zeros((1, 3, 4), np.float32)), "conv1d("),
    ],
)
def test_non_tensor_arguments_raise_a_type_error_naming_them(fn, words):
    raises_alike(fn, words if words else "")
    message = outcome(fn, minigrad)[1]
    assert "must be Tensor, not numpy.ndarray" in message and "position" in message


# ---------------------------------------------------------------------------------------------- 9
def bce(lib, weight=None, **kwargs):
    return lib.nn.functional.binary_cross_entropy(lib.zeros(2, 4) + 0.5, lib.zeros(2, 4), weight, **kwargs)


def bce_logits(lib, **kwargs):
    return lib.nn.functional.binary_cross_entropy_with_logits(lib.zeros(2, 4), lib.ones(2, 4), **kwargs)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib: bce(lib, lib.ones(3)),
        lambda lib: bce(lib, lib.ones(1, 2, 4), reduction="none"),
        lambda lib: lib.nn.BCELoss(weight=lib.ones(3, 1))(lib.zeros(2, 4) + 0.5, lib.zeros(2, 4)),
        lambda lib: bce_logits(lib, weight=lib.ones(3)),
        lambda lib: bce_logits(lib, pos_weight=lib.ones(3)),
        lambda lib: lib.nn.BCEWithLogitsLoss(pos_weight=lib.ones(3, 4))(lib.zeros(2, 4), lib.zeros(2, 4)),
        lambda lib: bce_logits(lib, weight=lib.ones(4), pos_weight=lib.ones(5)),
        lambda lib: bce_logits(lib, weight=lib.ones(3, 1, 4)),
    ],
)
def test_bce_weight_of_the_wrong_shape(fn):
    """PyTorch's RuntimeError, word for word (minigrad used to raise NumPy's ValueError), while
    weights that broadcast to the input's shape still work."""
    raises_alike(fn)
    assert outcome(fn, minigrad)[0] == "RuntimeError"

    def broadcasting(lib):
        return [
            round(bce_logits(lib, weight=lib.ones(2, 1), pos_weight=lib.ones(4) * 2).item(), 5),
            round(bce(lib, lib.ones(4)).item(), 5),
        ]

    assert same_outcome(broadcasting)[0] == "ok"


# ---------------------------------------------------------------------------------------------- 10
def test_malformed_class_targets_raise_torchs_errors():
    """The three reported cases, then every pairing of a few input and target shapes and dtypes:
    the same exception type and message as PyTorch, or the same loss."""
    raises_alike(lambda lib: lib.nn.functional.nll_loss(lib.zeros(4), lib.tensor([0, 1])), "For 1D input, 1D target")
    raises_alike(
        lambda lib: lib.nn.functional.cross_entropy(lib.tensor(1.0), lib.tensor(0)),
        "Expected floating point type for target with class probabilities",
    )
    raises_alike(
        lambda lib: lib.nn.functional.cross_entropy(lib.zeros(5, 3), lib.zeros(5, 1, dtype=lib.long)),
        "0D or 1D target tensor expected, multi-target not supported",
    )
    inputs = [(), (4,), (2, 4), (2, 4, 3), (2, 4, 3, 5), (0, 4)]
    targets = [(), (1,), (2,), (4,), (2, 1), (2, 3), (2, 4), (2, 3, 4), (2, 3, 5), (3, 3, 5)]
    for loss, shape, target_shape, dtype in itertools.product(
        ("nll_loss", "cross_entropy"), inputs, targets, ("long", "float")
    ):

        def run(lib, loss=loss, shape=shape, target_shape=target_shape, dtype=dtype):
            target = lib.zeros(target_shape, dtype=getattr(lib, dtype))
            out = getattr(lib.nn.functional, loss)(lib.zeros(shape), target)
            return tuple(out.shape), round(out.sum().item(), 5)

        theirs, ours = outcome(run, torch), outcome(run, minigrad)
        assert ours == theirs, (loss, shape, target_shape, dtype)


# ---------------------------------------------------------------------------------------------- 11
def test_module_load_state_dict_result_prints_like_torch():
    def run(lib):
        m = lib.nn.Linear(2, 2)
        matched = m.load_state_dict(m.state_dict())
        partial = m.load_state_dict({"weight": m.weight.detach()}, strict=False)
        return str(matched), repr(matched), str(partial), matched.missing_keys, partial.missing_keys

    assert same_outcome(run) == (
        "ok",
        (
            "<All keys matched successfully>",
            "<All keys matched successfully>",
            "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=[])",
            [],
            ["bias"],
        ),
    )


# ---------------------------------------------------------------------------------------------- 12
@pytest.mark.parametrize("init", ["kaiming_uniform_", "kaiming_normal_"])
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0,)])
def test_kaiming_init_of_an_empty_tensor_warns(init, shape):
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(lib.nn.init, init)(lib.ones(shape))
        return tuple(out.shape), [str(w.message) for w in caught], [w.filename for w in caught]

    theirs, ours = outcome(run, torch), outcome(run, minigrad)
    assert ours == theirs
    assert ours[1][1] == ["Initializing zero-element tensors is a no-op"] and ours[1][2] == [__file__]
