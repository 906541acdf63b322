"""cumprod, take_along_dim, index_add, roll, movedim, swapaxes, the stacks, tile,
repeat_interleave, masked_select, nansum, nanmean, var_mean and std_mean against PyTorch:
errors, graphs, dtypes, edge shapes and gradients the case table does not look at.

Values, gradients and second derivatives of the common shapes are in the case table
(helpers_torch.py, the ``shape_`` cases).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same


def _x(lib, requires_grad=True):
    return lib.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


def _idx(lib, rows, dtype=None):
    return lib.tensor(rows, dtype=dtype or lib.int64)


def _grads(lib, out, x, create_graph=False):
    """``out``, the gradient of ``(out * weights).sum()`` and, with ``create_graph``, the gradient
    of that gradient's squares."""
    weights = lib.arange(float(out.numel()), dtype=out.dtype).reshape(out.shape) - 2
    (g,) = lib.autograd.grad((out * weights).sum(), x, create_graph=create_graph)
    if not create_graph:
        return out, g
    (gg,) = lib.autograd.grad((g * g).sum(), x)
    return out, g, gg


# ----------------------------------------------------------------------------------------------
# cumprod
# ----------------------------------------------------------------------------------------------

ZEROS = [[2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 1.5, -2.0, 4.0, 1.0], [1.0, 2.0, 0.0, 3.0, 0.5]]


@pytest.mark.parametrize("create_graph", [False, True], ids=["first", "second"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumprod_gradient_with_zeros_matches_torch(dim, create_graph):
    """One, two or no zeros along ``dim``: PyTorch's gradient there is the product of the others."""

    def run(lib):
        x = lib.tensor(ZEROS, dtype=lib.float64, requires_grad=True)
        return _grads(lib, x.cumprod(dim), x, create_graph)

    same(run)


def test_cumprod_gradient_of_a_zero_first_and_last():
    def run(lib):
        x = lib.tensor([0.0, 2.0, 3.0, 0.0], requires_grad=True)
        return _grads(lib, lib.cumprod(x, 0), x, True)

    same(run)


def test_cumprod_saves_what_torch_saves():
    def run(lib):
        x = _x(lib)
        node = x.cumprod(1).grad_fn  # (PyTorch shows a negative dim as an unsigned number)
        return node._saved_dim, node._saved_self, node._saved_result

    same(run)


def test_cumprod_saves_its_result_so_changing_it_in_place_breaks_backward():
    def run(lib):
        y = _x(lib).cumprod(0)
        y.mul_(2)
        y.sum().backward()

    same_error(run, "modified by an inplace operation")


ERRORS = {
    "cumprod along a missing dim": (lambda lib: _x(lib).cumprod(2), "Dimension out of range"),
    "cumprod along a negative missing dim": (lambda lib: lib.cumprod(_x(lib), -3), "Dimension out of range"),
}

GRAPHS = {
    "cumprod": lambda lib, x: x.cumprod(1),
}

EDGES = {
    "cumprod of bools": lambda lib: lib.tensor([True, True, False]).cumprod(0),
    "cumprod of uint8": lambda lib: lib.tensor([3, 200], dtype=lib.uint8).cumprod(0),
    "cumprod of int32 to float64": lambda lib: lib.tensor([3, 2], dtype=lib.int32).cumprod(0, dtype=lib.float64),
    "cumprod of float16": lambda lib: lib.tensor([0.5, 3.0, 2.0], dtype=lib.float16).cumprod(0),
    "cumprod of nothing": lambda lib: lib.ones(2, 0, requires_grad=True).cumprod(1),
    "cumprod of a 0-d tensor": lambda lib: lib.tensor(3.0, requires_grad=True).cumprod(-1),
}

# ----------------------------------------------------------------------------------------------
# take_along_dim: an expand (or a view) and gather, as PyTorch records it
# ----------------------------------------------------------------------------------------------


def test_take_along_dim_picks_what_argmax_and_argsort_point_to():
    def run(lib):
        x = lib.tensor([[0.3, -1.0, 2.0, 0.5], [1.5, 0.2, -0.7, 0.1]], requires_grad=True)
        top = lib.take_along_dim(x, x.argmax(1, keepdim=True), 1)
        ordered = x.take_along_dim(x.argsort(0), 0)
        return _grads(lib, top, x), _grads(lib, ordered, x)

    same(run)


def test_take_along_dim_counts_indices_modulo_the_size():
    """PyTorch's take_along_dim takes indices out of range modulo the size along ``dim``
    (``gather`` itself refuses them)."""

    def run(lib):
        x = _x(lib)
        return _grads(lib, lib.take_along_dim(x, _idx(lib, [[8, 9, -1, -7, 100, -101]]), 1), x)

    same(run)


ERRORS |= {
    "take_along_dim with a float index": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [[0.0]], lib.float32), 1),
        "torch.take_along_dim(): dtype of indices should be Long but got Float",
    ),
    "take_along_dim with an int32 index": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [[0]], lib.int32), 1),
        "dtype of indices should be Long but got Int",
    ),
    "take_along_dim with an index of other dims": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [0]), 1),
        "input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 "
        "dimensions for indices",
    ),
    "take_along_dim with shapes that do not broadcast": (
        lambda lib: _x(lib).take_along_dim(_idx(lib, [[0], [0]]), 1),
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    "take_along_dim along a missing dim": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [[0]]), -3),
        "Dimension out of range",
    ),
    "take_along_dim of a 0-d tensor along dim 0": (
        lambda lib: lib.take_along_dim(lib.tensor(3.0), _idx(lib, 0), 0),
        "Dimension specified as 0 but tensor has no dimensions",
    ),
    "take_along_dim along an empty dim": (
        lambda lib: lib.take_along_dim(lib.ones(3, 0), _idx(lib, [[0]]), 1),
        "ZeroDivisionError",
    ),
    "take_along_dim of all elements out of range": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [12])),
        "index 12 is out of bounds for dimension 0 with size 12",
    ),
    "take_along_dim of all elements with a negative index": (
        lambda lib: lib.take_along_dim(_x(lib), _idx(lib, [-1])),
        "index -1 is out of bounds for dimension 0 with size 12",
    ),
    "take_along_dim of all elements of a transposed tensor": (
        lambda lib: lib.take_along_dim(_x(lib).t(), _idx(lib, [0])),
        "view size is not compatible with input tensor's size and stride",
    ),
    "take_along_dim with a list": (lambda lib: lib.take_along_dim(_x(lib), [[0]], 1), "must be Tensor, not list"),
}

GRAPHS |= {
    "take_along_dim": lambda lib, x: lib.take_along_dim(x, _idx(lib, [[1], [0], [3]]), 1),
    "take_along_dim broadcasting the index": lambda lib, x: x.take_along_dim(_idx(lib, [[0, 3, 3, 1]]), 0),
    "take_along_dim broadcasting the input": lambda lib, x: x[:, :1].take_along_dim(_idx(lib, [[0, 0]]), 1),
    "take_along_dim of all elements": lambda lib, x: lib.take_along_dim(x, _idx(lib, [5, 0, 11])),
    "the double backward of take_along_dim": lambda lib, x: lib.autograd.grad(
        lib.take_along_dim(x, _idx(lib, [[2], [2], [0]]), 1).exp().sum(), x, create_graph=True
    )[0],
}

EDGES |= {
    "take_along_dim of integers": lambda lib: lib.take_along_dim(lib.arange(6).reshape(2, 3), _idx(lib, [[2], [0]]), 1),
    "take_along_dim of a 0-d tensor": lambda lib: lib.take_along_dim(lib.tensor(3.0, requires_grad=True), _idx(lib, 0)),
    "take_along_dim of an empty index": lambda lib: lib.take_along_dim(_x(lib), lib.zeros(3, 0, dtype=lib.long), 1),
    "take_along_dim broadcasting both": lambda lib: lib.take_along_dim(
        lib.arange(3.0).reshape(1, 3, 1), _idx(lib, [[[0]], [[2]]]), 1
    ),
}

# ----------------------------------------------------------------------------------------------
# index_add and index_add_
# ----------------------------------------------------------------------------------------------


def test_index_add_saves_what_torch_saves():
    def run(lib):
        x, source = _x(lib), lib.ones(3, 2, requires_grad=True)
        node = lib.index_add(x, 1, _idx(lib, [3, 3]), source, alpha=2).grad_fn
        return node._saved_alpha, node._saved_dim, node._saved_index, node._saved_source

    same(run)


def test_index_add_saves_its_source_so_changing_it_in_place_breaks_backward():
    def run(lib):
        x, source = _x(lib), lib.ones(3, 2, requires_grad=True)
        s = source * 1
        y = x.index_add(1, _idx(lib, [0, 1]), s)
        s.mul_(2)
        y.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_index_add_in_place_on_a_view_goes_through_copyslices():
    def run(lib):
        x, source = _x(lib), lib.ones(2, 2, requires_grad=True)
        y = x * 1
        y[1:].index_add_(1, _idx(lib, [3, 3]), source * source, alpha=-0.5)
        gx, gs = lib.autograd.grad((y * y).sum(), (x, source))
        return y, gx, gs, y.grad_fn.name().replace("torch::autograd::", ""), y._version

    same(run)


def test_changing_the_index_of_index_add_afterwards_changes_no_gradient():
    """As for gather (README): PyTorch saved the index and raises; minigrad kept its own copy."""

    def run(lib, change: bool):
        x, source = _x(lib), lib.ones(3, 2, requires_grad=True)
        index = _idx(lib, [0, 1])
        y = x.index_add(1, index, source)
        if change:
            index.fill_(3)
        (y * y).sum().backward()
        return source.grad

    assert values(run(minigrad, True)) == values(run(torch, False))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        run(torch, True)


ERRORS |= {
    "index_add with a float index": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0.0], lib.float32), lib.ones(3, 1)),
        "index_add_(): Expected dtype int32/int64 for index but got: Float",
    ),
    "index_add with a matrix index": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [[0, 1]]), lib.ones(3, 2)),
        "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 2]",
    ),
    "index_add with more indices than source": (
        lambda lib: lib.index_add(_x(lib), 1, _idx(lib, [0, 1, 2]), lib.ones(3, 2)),
        "index_add_(): Number of indices (3) should be equal to source.size(dim): (2), for dim: 1",
    ),
    "index_add out of range": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0, 4]), lib.ones(3, 2)),
        "index 4 is out of bounds for dimension 1 with size 4",
    ),
    "index_add of a negative index": (
        lambda lib: _x(lib).index_add(-1, _idx(lib, [0, -1]), lib.ones(3, 2)),
        "index -1 is out of bounds for dimension 1 with size 4",
    ),
    "index_add along a missing dim": (
        lambda lib: _x(lib).index_add(2, _idx(lib, [0]), lib.ones(3, 1)),
        "Dimension out of range",
    ),
    "index_add of another dtype": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0]), lib.ones(3, 1, dtype=lib.float64)),
        "index_add_(): self (Float) and source (Double) must have the same scalar type",
    ),
    "index_add of a source of another shape": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0, 1]), lib.ones(2, 2)),
        "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = "
        "[3, 4] source.shape = [2, 2]",
    ),
    "index_add of a source of more dims": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0, 1]), lib.ones(3, 2, 1)),
        "source tensor shape must match self tensor shape",
    ),
    "index_add of a 0-d source into a vector": (
        lambda lib: lib.ones(2).index_add(0, _idx(lib, [0]), lib.tensor(1.0)),
        "source tensor shape must match self tensor shape",
    ),
    "index_add of a vector into a 0-d tensor": (
        lambda lib: lib.tensor(1.0).index_add(0, _idx(lib, [0]), lib.ones(1)),
        "source tensor shape must match self tensor shape",
    ),
    "index_add of a number": (
        lambda lib: _x(lib).index_add(1, _idx(lib, [0]), 2.0),
        "argument 'source' (position 3) must be Tensor, not float",
    ),
    "index_add_ into a leaf": (
        lambda lib: _x(lib).index_add_(1, _idx(lib, [0]), lib.ones(3, 1)),
        "a leaf Variable that requires grad is being used in an in-place operation",
    ),
}

GRAPHS |= {
    "index_add": lambda lib, x: lib.index_add(x, 0, _idx(lib, [2, 2]), x[:2] * 2, alpha=3),
    "index_add_": lambda lib, x: x.clone().index_add_(1, _idx(lib, [0]), lib.ones(3, 1)),
    "the double backward of index_add": lambda lib, x: lib.autograd.grad(
        x.index_add(1, _idx(lib, [1, 1]), x[:, :2].sin()).exp().sum(), x, create_graph=True
    )[0],
}

EDGES |= {
    "index_add of repeated places": lambda lib: lib.zeros(2, 3).index_add(
        1, _idx(lib, [2, 0, 2]), _x(lib, False)[:2, :3]
    ),
    "index_add of integers with alpha": lambda lib: lib.tensor([1, 2]).index_add(
        0, _idx(lib, [0, 0]), lib.tensor([2, 3]), alpha=2
    ),
    "index_add of integers with a float alpha": lambda lib: lib.tensor([1, 2]).index_add(
        0, _idx(lib, [0]), lib.tensor([3]), alpha=1.5
    ),
    "index_add of bools": lambda lib: lib.tensor([True, False]).index_add(0, _idx(lib, [1]), lib.tensor([True])),
    "index_add into a 0-d tensor": lambda lib: lib.tensor(1.0).index_add(0, _idx(lib, [0]), lib.tensor(2.0)),
    "index_add with a 0-d index": lambda lib: lib.ones(2, 3).index_add(0, _idx(lib, 1), lib.ones(1, 3)),
    "index_add with an int32 index": lambda lib: lib.ones(2, 3).index_add(1, _idx(lib, [2], lib.int32), lib.ones(2, 1)),
    "index_add of nothing": lambda lib: _x(lib).index_add(0, lib.tensor([], dtype=lib.long), lib.ones(0, 4)),
}

# ----------------------------------------------------------------------------------------------
# The tables, run against PyTorch (each section above adds its rows).
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


@pytest.mark.parametrize("name", GRAPHS)
def test_graphs_match_torch(name):
    def run(lib):
        return node_names(GRAPHS[name](lib, _x(lib)))

    same(run)


@pytest.mark.parametrize("name", EDGES)
def test_edge_shapes_and_dtypes_match_torch(name):
    def run(lib):
        out = EDGES[name](lib)
        return list(out) if isinstance(out, tuple) else out

    same(run)
