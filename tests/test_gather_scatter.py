"""gather, scatter, index_select, diagonals, trace, triangles, outer, one_hot, sort, topk and
repeat against PyTorch: errors, graphs, saved values, views, printing and edge shapes.

Values, gradients, second derivatives and gradcheck are in the case table (helpers_torch.py);
these are what the table does not look at.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same


def _x(lib, requires_grad=True):
    return lib.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


def _idx(lib, rows, dtype=None):
    return lib.tensor(rows, dtype=dtype or lib.int64)


ERRORS = {
    "gather with a float index": (
        lambda lib: lib.gather(_x(lib), 1, _idx(lib, [[0.0]], lib.float32)),
        "Expected dtype int32/int64 for index",
    ),
    "gather with an index of other dims": (
        lambda lib: lib.gather(_x(lib), 1, _idx(lib, [0, 1])),
        "same number of dimensions as input tensor",
    ),
    "gather with an index larger than input": (
        lambda lib: lib.gather(_x(lib), 1, lib.zeros(4, 2, dtype=lib.long)),
        "Size does not match at dimension 0 expected index [4, 2] to be no larger than self [3, 4] apart from dimension 1",
    ),
    "gather out of range": (
        lambda lib: lib.gather(_x(lib), 1, _idx(lib, [[4]])),
        "index 4 is out of bounds for dimension 1 with size 4",
    ),
    "gather of a negative index": (
        lambda lib: lib.gather(_x(lib), 1, _idx(lib, [[-1]])),
        "index -1 is out of bounds for dimension 1 with size 4",
    ),
    "gather along a missing dim": (lambda lib: lib.gather(_x(lib), 2, _idx(lib, [[0]])), "Dimension out of range"),
    "gather with a list": (lambda lib: lib.gather(_x(lib), 1, [[0]]), "must be Tensor, not list"),
    "gather of a 0-d tensor out of range": (
        lambda lib: lib.gather(lib.tensor(5.0), 0, _idx(lib, 1)),
        "index 1 is out of bounds for dimension 0 with size 1",
    ),
    "scatter of another dtype": (
        lambda lib: _x(lib, False).scatter(1, _idx(lib, [[0]]), lib.ones(1, 1, dtype=lib.float64)),
        "scatter(): Expected self.dtype to be equal to src.dtype",
    ),
    "scatter from a smaller src": (
        lambda lib: _x(lib).scatter(1, _idx(lib, [[0, 2], [1, 0]]), lib.ones(1, 1)),
        "Expected index [2, 2] to be no larger than self [3, 4] apart from dimension 1 and to be no larger size than src [1, 1]",
    ),
    "scatter of a value with an index too large": (
        lambda lib: _x(lib).scatter(1, lib.zeros(4, 2, dtype=lib.long), 2.0),
        "Expected index [4, 2] to be no larger than self [3, 4] apart from dimension 1",
    ),
    "scatter with an index of other dims": (
        lambda lib: _x(lib).scatter(1, _idx(lib, [0]), lib.ones(1)),
        "same number of dimensions as self tensor",
    ),
    "scatter of a 0-d src": (
        lambda lib: _x(lib).scatter(1, _idx(lib, [[0]]), lib.tensor(3.0)),
        "same number of dimensions as src tensor",
    ),
    "scatter out of range": (
        lambda lib: _x(lib).scatter(1, _idx(lib, [[7]]), lib.ones(1, 1)),
        "index 7 is out of bounds for dimension 1 with size 4",
    ),
    "scatter with a float index": (
        lambda lib: _x(lib).scatter(1, _idx(lib, [[0.0]], lib.float32), 1.0),
        "Expected dtype int32/int64 for index",
    ),
    "scatter_add of a number": (lambda lib: _x(lib).scatter_add(1, _idx(lib, [[0]]), 2.0), "must be Tensor, not float"),
    "scatter_add of another dtype": (
        lambda lib: _x(lib).scatter_add(1, _idx(lib, [[0]]), lib.ones(1, 1, dtype=lib.float64)),
        "Expected self.dtype to be equal to src.dtype",
    ),
    "index_select with a matrix index": (
        lambda lib: lib.index_select(_x(lib), 1, _idx(lib, [[0]])),
        "Index is supposed to be a vector",
    ),
    "index_select with a float index": (
        lambda lib: lib.index_select(_x(lib), 1, _idx(lib, [0.0], lib.float32)),
        "index_select(): Expected dtype int32 or int64 for index",
    ),
    "index_select out of range": (
        lambda lib: lib.index_select(_x(lib), 1, _idx(lib, [5])),
        "out of DATA bounds, id=5 axis_dim=4",
    ),
    "index_select of a negative index": (
        lambda lib: lib.index_select(_x(lib), 1, _idx(lib, [-1])),
        "out of DATA bounds, id=-1 axis_dim=4",
    ),
    "index_select of a 0-d tensor at two places": (
        lambda lib: lib.index_select(lib.tensor(2.0), 0, _idx(lib, [0, 0])),
        "Index to scalar can have only 1 value, got 2 value(s)",
    ),
    "diag of a 3-D tensor": (lambda lib: lib.diag(lib.ones(2, 2, 2)), "diag(): Supports 1D or 2D tensors. Got 3D"),
    "diag of a 0-d tensor": (lambda lib: lib.diag(lib.tensor(1.0)), "Got 0D"),
    "diagonal of a vector": (lambda lib: lib.diagonal(lib.ones(3)), "Dimension out of range"),
    "diagonal of one dim twice": (
        lambda lib: lib.diagonal(_x(lib), 0, 1, 1),
        "diagonal dimensions cannot be identical 1, 1",
    ),
    "diag_embed of a 0-d tensor": (lambda lib: lib.diag_embed(lib.tensor(1.0)), "Dimension out of range"),
    "diag_embed into one dim twice": (
        lambda lib: lib.diag_embed(lib.ones(2, 3), 0, 1, 1),
        "diagonal dimensions cannot be identical",
    ),
    "trace of a 3-D tensor": (
        lambda lib: lib.trace(lib.ones(2, 2, 2)),
        "trace: expected a matrix, but got tensor with dim 3",
    ),
    "trace of bools": (lambda lib: lib.trace(lib.ones(2, 2, dtype=lib.bool)), "\"trace\" not implemented for 'Bool'"),
    "tril of a vector": (lambda lib: lib.tril(lib.ones(3)), "tril: input tensor must have at least 2 dimensions"),
    "triu of a vector": (lambda lib: lib.ones(3).triu(), "triu: input tensor must have at least 2 dimensions"),
    "outer of a matrix": (
        lambda lib: lib.outer(lib.ones(2, 2), lib.ones(3)),
        "outer: Expected 1-D argument self, but got 2-D",
    ),
    "outer of a 0-d tensor": (
        lambda lib: lib.outer(lib.ones(3), lib.tensor(1.0)),
        "Expected 1-D argument vec2, but got 0-D",
    ),
    "outer with a list": (lambda lib: lib.outer(lib.ones(3), [1.0]), "must be Tensor, not list"),
    "one_hot of int32": (
        lambda lib: lib.nn.functional.one_hot(_idx(lib, [0, 1], lib.int32)),
        "one_hot is only applicable to index tensor of type LongTensor.",
    ),
    "one_hot of floats": (
        lambda lib: lib.nn.functional.one_hot(lib.tensor([0.0])),
        "only applicable to index tensor of type LongTensor",
    ),
    "one_hot of a negative class": (
        lambda lib: lib.nn.functional.one_hot(_idx(lib, [-1, 1])),
        "Class values must be non-negative.",
    ),
    "one_hot of a class too large": (
        lambda lib: lib.nn.functional.one_hot(_idx(lib, [3, 1]), 3),
        "Class values must be smaller than num_classes.",
    ),
    "one_hot of nothing, no class count": (
        lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long)),
        "Can not infer total number of classes from empty tensor.",
    ),
    "repeat with fewer sizes than dims": (
        lambda lib: _x(lib).repeat(2),
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
    ),
    "repeat a negative number of times": (lambda lib: _x(lib).repeat(-1, 2), "negative dimension -3: [-3, 8]"),
    "topk of more than there are": (lambda lib: lib.topk(_x(lib), 5), "selected index k out of range"),
    "topk of a negative k": (lambda lib: lib.topk(_x(lib), -1), "selected index k out of range"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


def _grad_graph(lib, out, x):
    """The gradient of ``out.exp().sum()`` with its own graph (of the backward pass)."""
    return lib.autograd.grad(out.exp().sum(), x, create_graph=True)[0]


GRAPHS = {
    "gather": lambda lib, x: lib.gather(x, 1, _idx(lib, [[0, 2], [1, 0]])),
    "scatter of a tensor": lambda lib, x: x.scatter(1, _idx(lib, [[0, 2]]), x[:1, :2] * 2),
    "scatter of a number": lambda lib, x: x.scatter(1, _idx(lib, [[0, 2]]), 2.0),
    "scatter_add": lambda lib, x: x.scatter_add(0, _idx(lib, [[2, 0]]), x[1:2, 2:]),
    "in-place scatter_": lambda lib, x: (x * 1).scatter_(1, _idx(lib, [[0]]), 1.0),
    "in-place scatter_add_": lambda lib, x: x.clone().scatter_add_(1, _idx(lib, [[0]]), lib.ones(1, 1)),
    "index_select": lambda lib, x: x.index_select(0, _idx(lib, [2, 2])),
    "diagonal": lambda lib, x: x.diagonal(1),
    "diag of a vector": lambda lib, x: lib.diag(x[0]),
    "diag of a matrix": lambda lib, x: lib.diag(x),
    "diag_embed": lambda lib, x: lib.diag_embed(x),
    "trace": lambda lib, x: x.trace(),
    "tril and triu": lambda lib, x: x.tril(1).triu(),
    "outer": lambda lib, x: lib.outer(x[0], x[1]),
    "sort": lambda lib, x: x.sort(0, descending=True).values,
    "stable sort": lambda lib, x: x.sort(stable=True).values,
    "topk": lambda lib, x: x.topk(2).values,
    "repeat": lambda lib, x: x.repeat(1, 2),
    "the double backward of topk": lambda lib, x: _grad_graph(lib, x.topk(2).values, x),
    "the double backward of gather": lambda lib, x: _grad_graph(lib, lib.gather(x, 1, _idx(lib, [[0, 0]])), x),
    "the double backward of diagonal": lambda lib, x: _grad_graph(lib, x.diagonal(), x),
    "the double backward of diag": lambda lib, x: _grad_graph(lib, lib.diag(x[0]), x),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_graphs_match_torch(name):
    def run(lib):
        x = _x(lib)
        return node_names(GRAPHS[name](lib, x))

    same(run)


def test_saved_values_match_torch():
    def run(lib):
        x = _x(lib)
        g = lib.gather(x, 1, _idx(lib, [[0, 2]])).grad_fn
        s = x.scatter(1, _idx(lib, [[3]]), 1.0).grad_fn
        i = x.index_select(1, _idx(lib, [1, 1])).grad_fn
        d = x.diagonal(1, 1, 0).grad_fn  # (PyTorch shows a negative offset as an unsigned number)
        e = lib.diag_embed(x, 1, 2, 0).grad_fn  # (PyTorch shows negative dims as unsigned numbers)
        t = x.trace().grad_fn
        return [
            g._saved_dim, g._saved_index, g._saved_sparse_grad, g._saved_self,
            s._saved_dim, s._saved_index,
            i._saved_dim, i._saved_index, list(i._saved_self_sym_sizes),
            d._saved_offset, d._saved_dim1, d._saved_dim2, list(d._saved_self_sym_sizes),
            e._saved_offset, e._saved_dim1, e._saved_dim2,
            list(t._saved_self_sym_sizes),
            x.tril(2).grad_fn._saved_diagonal,
        x.sort(1).values.grad_fn._saved_indices,
        x.topk(1, 0).values.grad_fn._saved_dim,
        list(x.topk(1, 0).values.grad_fn._saved_self_sym_sizes),
        list(x.repeat(2, 1).grad_fn._saved_repeats),
        ]  # fmt: skip

    same(run)


def test_diagonal_is_a_view_that_writes_through():
    def run(lib):
        x = lib.zeros(3, 4)
        d = x.diagonal(1)
        d.fill_(2.0)
        d2 = x.diagonal()
        d2 += 1
        return x, d, d._base is x, x._version, d.is_contiguous(), lib.diag(x)._base is None

    same(run)


def test_changing_a_diagonal_in_place_goes_through_copyslices():
    def run(lib):
        x = _x(lib)
        y = x * 1
        y.diagonal().mul_(10)
        (grad,) = lib.autograd.grad((y * y).sum(), x)
        return y, grad, y.grad_fn.name().replace("torch::autograd::", "")

    same(run)


def test_gather_saves_its_input_so_changing_it_in_place_breaks_backward():
    def run(lib):
        x = _x(lib)
        y = lib.gather(x, 1, _idx(lib, [[0]]))
        with lib.no_grad():
            x.mul_(2)
        y.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_changing_the_index_afterwards_changes_no_gradient():
    """A documented difference (README): PyTorch saved the index and raises; minigrad kept its
    own copy and gives the gradient of the forward pass."""

    def run(lib, change: bool):
        x = _x(lib)
        index = _idx(lib, [[0, 1]])
        y = lib.gather(x, 1, index)
        if change:
            index.fill_(3)
        y.sum().backward()
        return x.grad

    assert values(run(minigrad, True)) == values(run(torch, False))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        run(torch, True)


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_a_src_larger_than_index_fails_in_backward_as_in_torch(op):
    def run(lib):
        x, src = _x(lib), lib.ones(2, 3, requires_grad=True)
        out = getattr(x, op)(1, _idx(lib, [[0, 2], [1, 0]]), src)
        values = out.detach().clone()
        try:
            out.sum().backward()
        except RuntimeError as error:
            return values, str(error)
        return values, "no error"

    same(run)


EDGES = {
    "gather along dim with an index longer than the input": lambda lib: lib.gather(
        _x(lib), 1, lib.zeros(2, 6, dtype=lib.long)
    ),
    "gather of an empty index": lambda lib: lib.gather(_x(lib), 1, lib.zeros(3, 0, dtype=lib.long)),
    "gather of a 0-d tensor with a 0-d index": lambda lib: lib.gather(lib.tensor(5.0), 0, _idx(lib, 0)),
    "gather of a vector with a 0-d index": lambda lib: lib.gather(lib.ones(3), 0, _idx(lib, 1)),
    "gather of integers": lambda lib: lib.gather(lib.arange(12).reshape(3, 4), 1, _idx(lib, [[3], [1]])),
    "scatter into a 0-d tensor": lambda lib: lib.tensor(1.0).scatter(0, _idx(lib, 0), lib.tensor(5.0)),
    "scatter into a 0-d tensor with a vector index": lambda lib: lib.tensor(1.0).scatter(
        0, _idx(lib, [0]), lib.tensor([5.0])
    ),
    "scatter of an int value into floats": lambda lib: _x(lib, False).scatter(1, _idx(lib, [[0]]), 3),
    "scatter of a float value into ints": lambda lib: lib.arange(4).scatter(0, _idx(lib, [1]), 2.7),
    "scatter with an int32 index": lambda lib: _x(lib, False).scatter(
        1, _idx(lib, [[0, 2]], lib.int32), lib.ones(1, 2)
    ),
    "scatter_add of repeated places": lambda lib: lib.zeros(5).scatter_add(0, _idx(lib, [1, 1, 4, 1]), lib.arange(4.0)),
    "scatter_add of integers": lambda lib: lib.zeros(3, dtype=lib.long).scatter_add(
        0, _idx(lib, [0, 0]), lib.tensor([7, 8])
    ),
    "index_select of a 0-d tensor": lambda lib: lib.index_select(lib.tensor(2.0), 0, _idx(lib, [0])),
    "index_select with an empty index": lambda lib: lib.index_select(_x(lib), 0, lib.tensor([], dtype=lib.long)),
    "diag above": lambda lib: lib.diag(lib.tensor([1.0, 2.0]), 1),
    "diagonal far off": lambda lib: lib.diagonal(_x(lib), 9),
    "diagonal of negative dims": lambda lib: lib.diagonal(lib.ones(2, 3, 4), 0, -1, 0),
    "trace of uint8": lambda lib: lib.trace(lib.ones(2, 2, dtype=lib.uint8)),
    "trace of int32": lambda lib: lib.trace(lib.ones(2, 3, dtype=lib.int32)),
    "trace of half": lambda lib: lib.trace(lib.ones(2, 2, dtype=lib.float16)),
    "tril of bools": lambda lib: lib.tril(lib.ones(2, 2, dtype=lib.bool)),
    "outer of int and float": lambda lib: lib.outer(lib.tensor([1, 2]), lib.ones(3)),
    "outer of int64 and int32": lambda lib: lib.outer(lib.tensor([1, 2]), lib.tensor([1, 2], dtype=lib.int32)),
    "sort of ties, NaN and inf": lambda lib: lib.sort(lib.tensor([1.0, float("nan"), 1.0, -float("inf"), 0.0])),
    "sort of ties, NaN and inf, descending": lambda lib: lib.sort(
        lib.tensor([1.0, float("nan"), 1.0, -float("inf"), 0.0]), descending=True
    ),
    "sort of bools descending": lambda lib: lib.sort(lib.tensor([True, False, True]), descending=True),
    "sort of uint8 descending": lambda lib: lib.sort(lib.tensor([3, 200, 7], dtype=lib.uint8), descending=True),
    "sort of a 0-d tensor": lambda lib: lib.sort(lib.tensor(3.0, requires_grad=True)),
    "argsort along dim 0": lambda lib: lib.argsort(_x(lib) % 5, dim=0, descending=True),
    "topk of integers": lambda lib: lib.topk(lib.tensor([1, 3, 2]), 2),
    "topk of nothing": lambda lib: lib.topk(_x(lib), 0),
    "repeat of a 0-d tensor": lambda lib: lib.tensor(2.0).repeat(3),
    "repeat zero times": lambda lib: _x(lib).repeat(0, 2),
    "one_hot": lambda lib: lib.nn.functional.one_hot(_idx(lib, [2, 0, 1])),
    "one_hot of a 0-d tensor": lambda lib: lib.nn.functional.one_hot(_idx(lib, 2)),
    "one_hot of a matrix": lambda lib: lib.nn.functional.one_hot(_idx(lib, [[2, 0]]), 4),
    "one_hot of nothing": lambda lib: lib.nn.functional.one_hot(lib.tensor([], dtype=lib.long), 3),
}


def _as_pair(out):
    """A (values, indices) result as its two tensors, or the tensor itself."""
    return tuple(out) if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("name", EDGES)
def test_edge_shapes_and_dtypes_match_torch(name):
    def run(lib):
        return [(t, t.requires_grad) for t in _as_pair(EDGES[name](lib))]

    same(run)


def test_one_hot_and_gather_pick_the_same_log_probabilities():
    """Two ways students write a cross-entropy by hand give PyTorch's loss and gradient."""

    def run(lib):
        logits = lib.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], requires_grad=True)
        labels = lib.tensor([1, 2])
        log_probs = logits.log_softmax(1)
        by_gather = -log_probs.gather(1, labels.unsqueeze(1)).mean()
        by_one_hot = -(log_probs * lib.nn.functional.one_hot(labels, 3)).sum(1).mean()
        (grad,) = lib.autograd.grad(by_gather + by_one_hot, logits)
        return by_gather, by_one_hot, grad

    same(run)


@pytest.mark.parametrize("name", ["max", "min", "sort", "topk"])
def test_values_and_indices_print_as_in_torch(name):
    def run(lib):
        x = lib.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
        out = getattr(x, name)(*((2,) if name == "topk" else (1,)))
        return repr(out), type(out).__name__, out.values is out[0]

    assert run(minigrad) == run(torch)
