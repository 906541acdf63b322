"""Recurrent cells and layers (RNNCell, LSTMCell, GRUCell, RNN, LSTM, GRU) against PyTorch.

Both libraries build the module, load the same parameters (NumPy values through
``load_state_dict``) and run the same input; values, gradients of every parameter and input,
second derivatives, node names, parameter names and shapes, ``repr`` and errors must agree.

Known differences in the recorded graph are mapped before comparing: ATen turns a ``batch_first`` output back with ``transpose_`` (``TransposeBackward1``), minigrad
with ``transpose`` (``TransposeBackward0``); and PyTorch runs a float32 ``LSTM`` through oneDNN (one ``MkldnnRnnLayerBackward0``), so float32
LSTM graphs and second derivatives are compared with oneDNN turned off. Dropout between layers
in training draws other random numbers than PyTorch's: it is compared with ``p=1`` (exact), in
eval mode, and by its graph.
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same
pytestmark = pytest.mark.usefixtures("on_device")


def _array(shape, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape) * 0.5


def _leaf(lib, shape, dtype: str, seed: int):
    return lib.tensor(_array(shape, seed), dtype=getattr(lib, dtype), requires_grad=True)


def _module(lib, cls: str, args: tuple, kwargs: dict, dtype: str):
    """``lib.nn.<cls>(*args, **kwargs)`` with parameters drawn from NumPy (the same in both)."""
    module = getattr(lib.nn, cls)(*args, **kwargs)
    state = {
        name: lib.tensor(_array(tuple(p.shape), 100 + k), dtype=getattr(lib, dtype))
        for k, (name, p) in enumerate(module.named_parameters())
    }
    module.load_state_dict(state)
    return module.to(getattr(lib, dtype))


# PyTorch's nodes that minigrad records as the nearest op it has (see the module docstring)
NEAREST = {"TransposeBackward1": "TransposeBackward0"}


def _names(t) -> list[str]:
    return [NEAREST.get(name, name) for name in node_names(t)]


def _graph(t) -> list:
    """``t``'s graph, each node once (``node_names`` lists a node once per path, which grows
    exponentially through the steps of a recurrent layer): in depth-first order, each node's name
    and the positions in this list of the nodes its edges go to (None for no edge)."""
    order: dict = {}
    entries: list = []
    stack = [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in order:
            continue
        order[node] = len(entries)
        entries.append(node)
        stack.extend(n for n, _ in reversed(node.next_functions))
    names = [NEAREST.get(n.name(), n.name()).replace("torch::autograd::", "") for n in entries]
    return [
        (name, [None if n is None else order[n] for n, _ in node.next_functions]) for name, node in zip(names, entries)
    ]


@contextlib.contextmanager
def _composite(lib):
    """PyTorch without oneDNN, so that its float32 LSTM records the composite graph too."""
    if lib is not torch:
        yield
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "TF32 acceleration on top of oneDNN")  # said on each switch
        with torch.backends.mkldnn.flags(enabled=False):
            yield


def _flat(result) -> list:
    """The tensors of ``output``, ``(output, h_n)`` or ``(output, (h_n, c_n))``, in order."""
    if isinstance(result, tuple | list):
        return [t for part in result for t in _flat(part)]
    return [result]


def _derivatives(lib, result, inputs: list, second: bool):
    """The outputs, their node names, the gradients of ``inputs`` under fixed upstream gradients
    and (with ``second``) the gradients of a weighted sum of those gradients: second derivatives."""
    outs = _flat(result)
    total = sum((o * lib.tensor(_array(tuple(o.shape), 7 + k), dtype=o.dtype)).sum() for k, o in enumerate(outs))
    grads = lib.autograd.grad(total, inputs, create_graph=second, allow_unused=True)
    grads = [lib.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]
    found = [outs, [_graph(o) for o in outs], grads]
    if second:
        weighted = sum(
            (g * lib.tensor(_array(tuple(g.shape), 20 + k), dtype=g.dtype)).sum() for k, g in enumerate(grads)
        )
        seconds = lib.autograd.grad(weighted, inputs, allow_unused=True)
        found.append([lib.zeros_like(x) if g is None else g for g, x in zip(seconds, inputs)])
    return found


# ------------------------------------------------------------------------------------------ cells
# name: (class, constructor args, keyword args, input shape, hidden: None, "h" or "hc")
CELLS = {
    "rnn tanh": ("RNNCell", (3, 4), {}, (2, 3), "h"),
    "rnn relu, no bias": ("RNNCell", (3, 4), dict(bias=False, nonlinearity="relu"), (2, 3), "h"),
    "rnn no hx": ("RNNCell", (3, 4), {}, (2, 3), None),
    "rnn unbatched": ("RNNCell", (3, 4), {}, (3,), "h"),
    "lstm": ("LSTMCell", (3, 4), {}, (2, 3), "hc"),
    "lstm no bias, no hx": ("LSTMCell", (3, 4), dict(bias=False), (2, 3), None),
    "lstm unbatched": ("LSTMCell", (3, 2), {}, (3,), "hc"),
    "gru": ("GRUCell", (3, 4), {}, (2, 3), "h"),
    "gru no bias, unbatched, no hx": ("GRUCell", (3, 4), dict(bias=False), (3,), None),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CELLS)
def test_cells_values_gradients_second_derivatives_and_nodes(name, dtype):
    cls, args, kwargs, x_shape, hidden = CELLS[name]

    def run(lib):
        cell = _module(lib, cls, args, kwargs, dtype)
        x = _leaf(lib, x_shape, dtype, 1)
        h_shape = (*x_shape[:-1], args[1])
        hx = None if hidden is None else tuple(_leaf(lib, h_shape, dtype, 2 + k) for k in range(len(hidden)))
        inputs = [x, *(hx or ()), *cell.parameters()]
        out = cell(x, hx if hidden == "hc" else hx and hx[0])
        return _derivatives(lib, out, inputs, second=True)

    same(run)


def test_cells_record_atens_graph():
    """The nodes of each cell, in PyTorch's order (``linear(h)`` first, then ``linear(x)``)."""

    def run(lib):
        x, h, c = (_leaf(lib, (2, 3), "float64", 1), _leaf(lib, (2, 2), "float64", 2), _leaf(lib, (2, 2), "float64", 3))
        rnn = _module(lib, "RNNCell", (3, 2), {}, "float64")
        lstm = _module(lib, "LSTMCell", (3, 2), {}, "float64")
        gru = _module(lib, "GRUCell", (3, 2), {}, "float64")
        return [_names(rnn(x, h)), _names(lstm(x, (h, c))[0]), _names(lstm(x, (h, c))[1]), _names(gru(x, h))]

    names = same(run)
    assert names[0][:3] == ["TanhBackward0", "AddBackward0", "AddmmBackward0"]
    assert "UnsafeSplitBackward0" in names[1]


# ----------------------------------------------------------------------------------------- layers
# name: (class, constructor args, keyword args, input shape, hidden: None, "h" or "hc")
LAYERS = {
    "rnn": ("RNN", (3, 4), {}, (5, 2, 3), None),
    "rnn relu, 2 layers, bidirectional, hx": (
        "RNN",
        (3, 4, 2),
        dict(nonlinearity="relu", bidirectional=True),
        (4, 2, 3),
        "h",
    ),
    "rnn no bias, batch_first, hx": ("RNN", (3, 4), dict(bias=False, batch_first=True), (2, 5, 3), "h"),
    "rnn positional nonlinearity, unbatched": ("RNN", (3, 4, 1, "relu"), {}, (5, 3), "h"),
    "rnn batch_first, one batch": ("RNN", (3, 2), dict(batch_first=True), (1, 4, 3), None),
    # a transposed input with a bias: ATen's linear is a matmul and an add (no addmm)
    "gru batch_first, hx": ("GRU", (3, 4), dict(batch_first=True), (2, 4, 3), "h"),
    "gru 2 layers, hx": ("GRU", (3, 4, 2), {}, (4, 2, 3), "h"),
    "gru bidirectional, batch_first, unbatched": (
        "GRU",
        (3, 2),
        dict(bidirectional=True, batch_first=True),
        (4, 3),
        None,
    ),
    "gru no bias, 2 layers, bidirectional": ("GRU", (3, 2, 2), dict(bias=False, bidirectional=True), (3, 2, 3), "h"),
    "lstm": ("LSTM", (3, 4), {}, (5, 2, 3), None),
    "lstm hx, cx": ("LSTM", (3, 4), {}, (4, 2, 3), "hc"),
    "lstm 2 layers, bidirectional, batch_first, no bias": (
        "LSTM",
        (3, 2, 2),
        dict(bidirectional=True, batch_first=True, bias=False),
        (2, 4, 3),
        "hc",
    ),
    "lstm unbatched": ("LSTM", (3, 4), {}, (4, 3), "hc"),
    "lstm proj_size, 2 layers, bidirectional": (
        "LSTM",
        (3, 4, 2),
        dict(proj_size=2, bidirectional=True),
        (3, 2, 3),
        "hc",
    ),
    "lstm dropout, eval": ("LSTM", (3, 4, 2), dict(dropout=0.5), (3, 2, 3), None),
}


def _hidden_shapes(module, x_shape: tuple, batch_first: bool) -> list[tuple]:
    rows = module.num_layers * (2 if module.bidirectional else 1)
    batch = () if len(x_shape) == 2 else (x_shape[0 if batch_first else 1],)
    h = module.proj_size if getattr(module, "proj_size", 0) else module.hidden_size
    return [(rows, *batch, h), (rows, *batch, module.hidden_size)]


def _run_layer(name: str, dtype: str, second: bool):
    cls, args, kwargs, x_shape, hidden = LAYERS[name]

    def run(lib):
        module = _module(lib, cls, args, kwargs, dtype)
        if "eval" in name:
            module.eval()
        x = _leaf(lib, x_shape, dtype, 1)
        shapes = _hidden_shapes(module, x_shape, module.batch_first)
        hx = None if hidden is None else tuple(_leaf(lib, s, dtype, 2 + k) for k, s in enumerate(shapes[: len(hidden)]))
        inputs = [x, *(hx or ()), *module.parameters()]
        with _composite(lib):
            out = module(x, hx if hidden == "hc" else hx and hx[0])
            return _derivatives(lib, out, inputs, second)

    return run


@pytest.mark.parametrize("name", LAYERS)
def test_layers_values_gradients_second_derivatives_and_nodes_float64(name):
    same(_run_layer(name, "float64", second=True))


@pytest.mark.parametrize("name", LAYERS)
def test_layers_values_gradients_and_nodes_float32(name):
    same(_run_layer(name, "float32", second=False))


def test_float32_lstm_agrees_with_pytorchs_onednn_path():
    """PyTorch's default float32 LSTM (one MkldnnRnnLayerBackward0 per layer and direction) gives
    the values and gradients of minigrad's composite graph."""

    def run(lib):
        lstm = _module(lib, "LSTM", (3, 4, 2), dict(bidirectional=True), "float32")
        x = _leaf(lib, (4, 2, 3), "float32", 1)
        out, (h, c) = lstm(x)
        grads = lib.autograd.grad((out * out).sum() + h.sum() + (c * c).sum(), [x, *lstm.parameters()])
        return out, h, c, list(grads)

    same(run)
    x = torch.zeros(4, 2, 3, requires_grad=True)
    assert "MkldnnRnnLayerBackward0" in node_names(torch.nn.LSTM(3, 4)(x)[0])


def test_layer_graph_is_atens():
    """The input projected once per layer (a view of an addmm), unbound into steps; each step an
    addmm of the hidden state plus that step; the outputs stacked, directions joined by cat."""

    def run(lib):
        rnn = _module(lib, "RNN", (3, 2), dict(bidirectional=True), "float64")
        out, h = rnn(_leaf(lib, (2, 1, 3), "float64", 1))
        return _names(out), _names(h)

    out, h = same(run)
    assert out[:3] == ["CatBackward0", "StackBackward0", "TanhBackward0"]
    assert "UnbindBackward0" in out and h[0] == "StackBackward0"


# -------------------------------------------------------------------------------------- dropout
def test_dropout_one_between_layers_zeroes_the_next_layers_input():
    """With p=1 in training, layer 2 sees zeros: an exact comparison (other p draw other masks).
    ``weight_ih_l1`` then gets a zero gradient in both."""

    def run(lib):
        gru = _module(lib, "GRU", (3, 4, 2), dict(dropout=1.0), "float64")
        assert gru.training
        x = _leaf(lib, (3, 2, 3), "float64", 1)
        return _derivatives(lib, gru(x), [x, *gru.parameters()], second=False)

    outs, _, grads = same(run)
    assert not np.any(grads[5][2].array) and np.any(grads[0][2].array)  # weight_ih_l1, x (through h_n)


def test_dropout_between_layers_in_training_records_a_mul_and_drops_about_p(monkeypatch):
    """PyTorch's nodes, and (minigrad alone, as the masks differ) about p of layer 0's output
    zeroed, the rest scaled by 1 / (1 - p); the last layer's output is not dropped."""

    def run(lib):
        rnn = _module(lib, "RNN", (3, 400, 2), dict(dropout=0.5), "float64")
        return rnn, _graph(rnn(_leaf(lib, (2, 1, 3), "float64", 1))[0])

    (rnn, ours), (_, theirs) = run(minigrad), run(torch)
    assert ours == theirs and "MulBackward0" in [name for name, _ in ours]
    calls = []
    real = minigrad.nn.functional.dropout
    monkeypatch.setattr(minigrad.nn.functional, "dropout", lambda t, *a: calls.append((t, real(t, *a))) or calls[-1][1])
    rnn(minigrad.ones(3, 50, 3, dtype=minigrad.float64))
    assert len(calls) == 1
    before, after = (t.detach().cpu().numpy() for t in calls[0])
    dropped = after == 0
    assert 0.45 < dropped.mean() < 0.55
    assert np.allclose(after[~dropped], 2 * before[~dropped])


# ------------------------------------------------------------------------- parameters and modules
@pytest.mark.parametrize(
    "cls, args, kwargs",
    [
        ("RNN", (3, 4), {}),
        ("RNN", (3, 4, 2, "relu", False, True, 0.0, True), {}),
        ("LSTM", (3, 4, 2), dict(bidirectional=True, proj_size=2)),
        ("LSTM", (3, 4), dict(bias=False, proj_size=1)),
        ("GRU", (5, 2, 3), dict(batch_first=True, dropout=0.25)),
        ("RNNCell", (3, 4), dict(nonlinearity="relu")),
        ("LSTMCell", (3, 4), dict(bias=False)),
        ("GRUCell", (3, 4), {}),
    ],
)
def test_parameter_names_shapes_state_dict_and_repr(cls, args, kwargs):
    def run(lib):
        module = getattr(lib.nn, cls)(*args, **kwargs)
        params = [(n, tuple(p.shape), p.requires_grad) for n, p in module.named_parameters()]
        state = [(k, tuple(v.shape), v.requires_grad) for k, v in module.state_dict().items()]
        flat = list(getattr(module, "_flat_weights_names", []))
        all_weights = [[tuple(p.shape) for p in ps] for ps in getattr(module, "all_weights", [])]
        return params, state, flat, all_weights, repr(module)

    same(run)


def test_a_pytorch_state_dict_loads_and_gives_pytorchs_output():
    theirs = torch.nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
    ours = minigrad.nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
    ours.load_state_dict({k: minigrad.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    out, (h, c) = ours(minigrad.tensor(x))
    expected, (h_t, c_t) = theirs(torch.tensor(x))
    for a, b in ((out, expected), (h, h_t), (c, c_t)):
        assert np.allclose(a.detach().cpu().numpy(), b.detach().numpy(), atol=1e-6)


@pytest.mark.parametrize("cls, args", [("RNN", (3, 4, 2)), ("LSTM", (3, 16)), ("GRUCell", (2, 9)), ("RNNCell", (3, 0))])
def test_initialisation_is_pytorchs_uniform_in_one_over_sqrt_hidden(cls, args):
    # The random streams are PyTorch's: after the same seed, the same weights.
    def parameters(lib):
        lib.manual_seed(3)
        return [p.detach().cpu().numpy() for p in getattr(lib.nn, cls)(*args).parameters()]

    ours, theirs = parameters(minigrad), parameters(torch)
    bound = 1 / math.sqrt(args[1]) if args[1] else 0
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == np.float32 and np.array_equal(a, b)
        assert np.all(np.abs(a) <= bound)


def test_dtype_argument_to_and_flatten_parameters():
    lstm = minigrad.nn.LSTM(3, 2, dtype=minigrad.float64)
    assert all(p.dtype == minigrad.float64 for p in lstm.parameters())
    assert lstm.flatten_parameters() is None
    gru = minigrad.nn.GRU(3, 2).double()
    out, h = gru(minigrad.zeros(4, 1, 3, dtype=minigrad.float64))
    assert out.dtype == h.dtype == minigrad.float64
    assert gru._flat_weights[0] is gru.weight_ih_l0


def test_non_contiguous_inputs():
    def run(lib):
        cell = _module(lib, "LSTMCell", (3, 2), {}, "float64")
        gru = _module(lib, "GRU", (3, 2), {}, "float64")
        x = _leaf(lib, (3, 4), "float64", 1)
        h = _leaf(lib, (2, 4), "float64", 2)
        seq = _leaf(lib, (3, 2, 5), "float64", 3)
        out = [*cell(x.t(), (h.t(), h.t())), *gru(seq.permute(2, 1, 0))]
        return out, list(lib.autograd.grad(sum(o.sum() for o in out), [x, h, seq]))

    same(run)


def test_empty_batch():
    def run(lib):
        rnn = _module(lib, "GRU", (3, 2), dict(bidirectional=True), "float64")
        cell = _module(lib, "LSTMCell", (3, 2), {}, "float64")
        return list(rnn(lib.zeros(4, 0, 3, dtype=lib.float64))) + list(cell(lib.zeros(0, 3, dtype=lib.float64)))

    same(run)


# ------------------------------------------------------------------------------------------ errors
ERRORS = {
    "cell input size": (lambda lib: lib.nn.RNNCell(3, 2)(lib.zeros(4, 5)), "inconsistent input_size: got 5 expected 3"),
    "cell batch": (
        lambda lib: lib.nn.GRUCell(3, 2)(lib.zeros(4, 3), lib.zeros(5, 2)),
        "Input batch size 4 doesn't match hidden0 batch size 5",
    ),
    "cell hidden size": (
        lambda lib: lib.nn.RNNCell(3, 2)(lib.zeros(4, 3), lib.zeros(4, 3)),
        "hidden0 has inconsistent hidden_size: got 3, expected 2",
    ),
    "lstm cell c": (
        lambda lib: lib.nn.LSTMCell(3, 2)(lib.zeros(4, 3), (lib.zeros(4, 2), lib.zeros(4, 3))),
        "hidden1 has inconsistent hidden_size",
    ),
    "cell 3-D input": (
        lambda lib: lib.nn.GRUCell(3, 2)(lib.zeros(4, 3, 1)),
        "GRUCell: Expected input to be 1D or 2D, got 3D",
    ),
    "cell 3-D hidden": (
        lambda lib: lib.nn.RNNCell(3, 2)(lib.zeros(3), lib.zeros(4, 3, 2)),
        "RNNCell: Expected hidden to be 1D or 2D, got 3D instead",
    ),
    "lstm cell 0-D hx": (
        lambda lib: lib.nn.LSTMCell(3, 2)(lib.zeros(3), (lib.zeros(2), lib.zeros(()))),
        "LSTMCell: Expected hx[1] to be 1D or 2D, got 0D instead",
    ),
    "cell nonlinearity": (
        lambda lib: lib.nn.RNNCell(3, 2, nonlinearity="foo")(lib.zeros(2, 3)),
        "Unknown nonlinearity: foo",
    ),
    "cell dtype": (
        lambda lib: lib.nn.GRUCell(3, 2)(lib.zeros(4, 3, dtype=lib.float64)),
        "mat1 and mat2 must have the same dtype, but got Double and Float",
    ),
    "cell int input": (lambda lib: lib.nn.RNNCell(3, 2)(lib.zeros(4, 3, dtype=lib.int64)), "same dtype"),
    "lstm cell hx dtype": (
        lambda lib: lib.nn.LSTMCell(3, 2)(lib.zeros(4, 3), (lib.zeros(4, 2, dtype=lib.float64),) * 2),
        "mat1 and mat2 must have the same dtype",
    ),
    "seq length 0": (lambda lib: lib.nn.RNN(3, 2)(lib.zeros(0, 2, 3)), "Expected sequence length to be larger than 0"),
    "input size": (
        lambda lib: lib.nn.GRU(3, 2)(lib.zeros(4, 2, 4)),
        "input.size(-1) must be equal to input_size. Expected 3, got 4",
    ),
    "hidden size": (
        lambda lib: lib.nn.RNN(3, 2)(lib.zeros(4, 2, 3), lib.zeros(1, 2, 3)),
        "Expected hidden size (1, 2, 2), got [1, 2, 3]",
    ),
    "lstm cell size": (
        lambda lib: lib.nn.LSTM(3, 2)(lib.zeros(4, 2, 3), (lib.zeros(1, 2, 2), lib.zeros(1, 2, 3))),
        "Expected hidden[1] size (1, 2, 2), got [1, 2, 3]",
    ),
    "batched hx": (
        lambda lib: lib.nn.GRU(3, 2)(lib.zeros(4, 2, 3), lib.zeros(2, 2)),
        "For batched 3-D input, hx should also be 3-D but got 2-D tensor",
    ),
    "unbatched hx": (
        lambda lib: lib.nn.RNN(3, 2)(lib.zeros(4, 3), lib.zeros(1, 2, 2)),
        "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor",
    ),
    "lstm batched hx": (
        lambda lib: lib.nn.LSTM(3, 2)(lib.zeros(4, 2, 3), (lib.zeros(1, 2, 2), lib.zeros(2, 2))),
        "For batched 3-D input, hx and cx should also be 3-D but got (3-D, 2-D) tensors",
    ),
    "lstm unbatched hx": (
        lambda lib: lib.nn.LSTM(3, 2)(lib.zeros(4, 3), (lib.zeros(1, 2, 2), lib.zeros(1, 2))),
        "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) tensors",
    ),
    "dtype": (
        lambda lib: lib.nn.RNN(3, 2)(lib.zeros(4, 3, dtype=lib.float64)),
        "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input",
    ),
    "rnn 1-D": (
        lambda lib: lib.nn.RNN(3, 2)(lib.zeros(3)),
        "RNN: Expected input to be 2D or 3D, got 1D tensor instead",
    ),
    "lstm 4-D": (
        lambda lib: lib.nn.LSTM(3, 2)(lib.zeros(1, 1, 1, 3)),
        "LSTM: Expected input to be 2D or 3D, got 4D instead",
    ),
    "nonlinearity": (lambda lib: lib.nn.RNN(3, 2, nonlinearity="foo"), "Unknown nonlinearity 'foo'. Select from"),
    "dropout": (lambda lib: lib.nn.GRU(3, 2, dropout=2), "dropout should be a number in range [0, 1]"),
    "dropout bool": (lambda lib: lib.nn.GRU(3, 2, dropout=True), "dropout should be a number"),
    "proj_size rnn": (lambda lib: lib.nn.RNN(3, 2, proj_size=1), "proj_size argument is only supported for LSTM"),
    "proj_size gru": (lambda lib: lib.nn.GRU(3, 2, proj_size=1), "proj_size argument is only supported for LSTM"),
    "proj_size large": (lambda lib: lib.nn.LSTM(3, 2, proj_size=2), "proj_size has to be smaller than hidden_size"),
    "proj_size negative": (
        lambda lib: lib.nn.LSTM(3, 2, proj_size=-1),
        "proj_size should be a positive integer or zero",
    ),
    "hidden_size": (lambda lib: lib.nn.RNN(3, 0), "hidden_size must be greater than zero"),
    "input_size": (lambda lib: lib.nn.LSTM(0, 2), "input_size must be greater than zero"),
    "num_layers": (lambda lib: lib.nn.GRU(3, 2, 0), "num_layers must be greater than zero"),
    "float size": (lambda lib: lib.nn.RNN(3.0, 2), "input_size should be of type int, got: float"),
    "bias type": (lambda lib: lib.nn.RNN(3, 2, bias=1), "bias should be of type bool, got: int"),
    "batch_first type": (lambda lib: lib.nn.LSTM(3, 2, batch_first=1), "batch_first should be of type bool, got: int"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_as_pytorch(name):
    run, message = ERRORS[name]
    same_error(run, message)


def test_dropout_with_one_layer_warns_as_pytorch():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1, but got dropout=0.5"):
            lib.nn.LSTM(3, 2, dropout=0.5)
