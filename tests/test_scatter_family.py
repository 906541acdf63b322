"""scatter(reduce=), scatter_reduce, index_reduce, index_put, masked_scatter, put,
fill_diagonal_, select/slice/diagonal_scatter, split_with_sizes, hsplit/vsplit/dsplit and
Tensor.unfold against PyTorch: values, dtypes, gradients, second derivatives, recorded nodes,
ties, in-place forms with their version counters, views, and errors.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

pytestmark = [
    pytest.mark.usefixtures("on_device"),
    pytest.mark.filterwarnings("ignore:The reduce argument of torch.scatter", "ignore:index_reduce\\(\\) is in beta"),
]

REDUCTIONS = ["sum", "prod", "mean", "amax", "amin"]


def _leaf(lib, shape, seed: int = 0, dtype: str = "float64"):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=getattr(lib, dtype), requires_grad=True)


def _ties(lib):
    """Rows with repeated values and zeros (ties for amax/amin, zeros for prod)."""
    return lib.tensor(
        [[1.0, 3.0, 3.0, 2.0], [2.0, 2.0, 0.0, 0.0], [4.0, 1.0, 4.0, 1.0]], dtype=lib.float64, requires_grad=True
    )


def _ties_src(lib):
    return lib.tensor([[1.0, 3.0, 0.0], [0.0, 5.0, 2.0], [4.0, 4.0, 1.0]], dtype=lib.float64, requires_grad=True)


def _edges(t) -> list:
    node = t.grad_fn
    names = [node] + [n for n, _ in node.next_functions]
    return [None if n is None else n.name().replace("torch::autograd::", "") for n in names]


# ---------------------------------------------------------------------------------------------- scatter_reduce
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCTIONS)
def test_scatter_reduce_values_gradients_second_derivatives_and_nodes(reduce, include_self):
    def run(lib):
        x, src = _leaf(lib, (3, 4)), _leaf(lib, (2, 4), 1)
        index = lib.tensor([[0, 1, 0, 2], [1, 1, 1, 0]])
        return derivatives(lib, x.scatter_reduce(0, index, src, reduce, include_self=include_self), [x, src])

    same(run)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "amax", "amin", "mean"])
def test_scatter_reduce_with_ties_and_zeros_shares_the_gradient_as_torch(reduce, include_self):
    """amax/amin split the gradient evenly among tied values (self's own included); prod skips a
    single zero; two zeros at one place make the second derivative fail, as in PyTorch."""

    def run(lib):
        x, src = _ties(lib), _ties_src(lib)
        index = lib.tensor([[0, 0, 1], [3, 2, 3], [0, 2, 2]])
        out = x.scatter_reduce(1, index, src, reduce, include_self=include_self)
        grads = lib.autograd.grad(
            (out * lib.arange(1.0, 13.0, dtype=lib.float64).view(3, 4)).sum(), [x, src], create_graph=True
        )
        return out, grads

    same(run)


def test_prod_with_two_zeros_at_one_place_cannot_be_differentiated_twice():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        src = lib.tensor([0.0, 0.0, 2.0], requires_grad=True)
        out = x.scatter_reduce(0, lib.tensor([0, 0, 1]), src, "prod")
        grads = lib.autograd.grad(out.sum(), [x, src], create_graph=True)
        assert grads[1].grad_fn.name().replace("torch::autograd::", "") == "Error"
        return lib.autograd.grad(grads[1].sum(), [x, src])

    same_error(run, "scatter_reduce(): Double backward is unsupported for src when >1 zeros")


def test_scatter_reduce_saves_what_torch_saves():
    def run(lib):
        x, src = _leaf(lib, (3, 4)), _leaf(lib, (2, 4), 1)
        node = x.scatter_reduce(0, lib.tensor([[0, 1, 0, 2], [1, 1, 1, 0]]), src, "amax", include_self=False).grad_fn
        return (
            node.name(),
            node._saved_dim,
            node._saved_reduce,
            node._saved_include_self,
            node._saved_index,
            node._saved_self,
            node._saved_src,
            node._saved_result,
        )

    same(run)


@pytest.mark.parametrize("reduce", REDUCTIONS)
def test_scatter_reduce_of_integers_0d_empty_and_nan(reduce):
    def run(lib):
        ints = lib.tensor([[-7, 2, 5], [4, 0, 6]])
        index = lib.tensor([[0, 0, 1], [1, 1, 1]])
        src = lib.tensor([[0, 3, -2], [9, 9, 1]])
        nan = lib.tensor([1.0, float("nan"), 3.0]).scatter_reduce(
            0, lib.tensor([0, 0, 2]), lib.tensor([5.0, float("nan"), -1.0]), reduce
        )
        scalar = lib.tensor(2.0).scatter_reduce(0, lib.tensor([0, 0]), lib.tensor([3.0, 4.0]), reduce)
        empty = lib.zeros(0).scatter_reduce(0, lib.zeros(0, dtype=lib.int64), lib.zeros(0), reduce)
        return (
            ints.scatter_reduce(0, index, src, reduce),
            ints.scatter_reduce(0, index, src, reduce, include_self=False),
            nan,
            scalar,
            empty,
        )

    same(run)


def test_scatter_reduce_in_place_records_bumps_the_version_and_checks_leaves():
    def run(lib):
        x = _leaf(lib, (3, 4))
        y = x * 2
        y.scatter_reduce_(1, lib.tensor([[0, 0], [1, 3], [2, 2]]), _leaf(lib, (3, 2), 1), "amin")
        (g,) = lib.autograd.grad(y.sum(), x)
        return y, y._version, node_names(y), g

    same(run)
    same_error(
        lambda lib: _leaf(lib, (3,)).scatter_reduce_(0, lib.tensor([0]), lib.ones(1, dtype=lib.float64), "sum"),
        "a leaf Variable",
    )


def test_scatter_reduce_of_a_view_in_place_gives_its_base_copyslices():
    def run(lib):
        x = _leaf(lib, (3, 4))
        y = x * 1
        y[:, 1:].t().scatter_reduce_(0, lib.tensor([[0, 2]]), _leaf(lib, (1, 2), 1), "prod")
        (g,) = lib.autograd.grad((y * y).sum(), x)
        return y, node_names(y), g

    same(run)


def test_scatter_reduce_backward_fails_after_its_result_changes_in_place():
    def run(lib):
        x = _leaf(lib, (3,))
        y = x.scatter_reduce(0, lib.tensor([0, 0]), _leaf(lib, (2,), 1), "amax")
        y.mul_(2)
        y.sum().backward()

    same_error(run, "modified by an inplace operation")


SCATTER_REDUCE_ERRORS = {
    "unknown reduce": (
        lambda lib, x, i, s: x.scatter_reduce(0, i, s, "add"),
        "reduce argument must be either sum, prod, mean, amax or amin",
    ),
    "float index": (
        lambda lib, x, i, s: x.scatter_reduce(0, i.float(), s, "sum"),
        "Expected dtype int32/int64 for index",
    ),
    "index out of range": (
        lambda lib, x, i, s: x.scatter_reduce(0, i + 5, s, "sum"),
        "index 5 is out of bounds for dimension 0 with size 3",
    ),
    "negative index": (lambda lib, x, i, s: x.scatter_reduce(0, i - 4, s, "sum"), "out of bounds"),
    "src of another dtype": (
        lambda lib, x, i, s: x.scatter_reduce(0, i, s.float(), "sum"),
        "Expected self.dtype to be equal to src.dtype",
    ),
    "a number as src": (lambda lib, x, i, s: x.scatter_reduce(0, i, 2.0, "sum"), "must be Tensor, not float"),
    "src smaller than index": (
        lambda lib, x, i, s: x.scatter_reduce(0, i, s[:, :2], "sum"),
        "to be no larger size than src",
    ),
    "dim out of range": (lambda lib, x, i, s: x.scatter_reduce(2, i, s, "sum"), "Dimension out of range"),
    "mean of bools": (lambda lib, x, i, s: (x > 0).scatter_reduce(0, i, s > 0, "mean"), "not implemented for 'Bool'"),
    "src larger than index, in backward": (
        lambda lib, x, i, s: x.scatter_reduce(0, i[:, :3], s.requires_grad_(), "sum").sum().backward(),
        "ScatterReduceBackward0 returned an invalid gradient at index 1",
    ),
}


@pytest.mark.parametrize("name", SCATTER_REDUCE_ERRORS)
def test_scatter_reduce_errors_match_torch(name):
    fn, words = SCATTER_REDUCE_ERRORS[name]
    same_error(
        lambda lib: fn(
            lib,
            lib.zeros(3, 4, dtype=lib.float64),
            lib.tensor([[0, 1, 0, 2], [1, 1, 1, 0]]),
            lib.ones(2, 4, dtype=lib.float64),
        ),
        words,
    )


# ---------------------------------------------------------------------------------------------- scatter(reduce=)
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_with_reduce_computes_as_torch_and_cannot_be_differentiated(reduce):
    def run(lib):
        x, src = _leaf(lib, (3, 4)), _leaf(lib, (2, 4), 1)
        index = lib.tensor([[0, 1, 0, 2], [1, 1, 1, 0]])
        out, by_value = x.scatter(0, index, src, reduce=reduce), x.scatter(0, index, 3.0, reduce=reduce)
        ints = lib.tensor([[1, 2], [3, 4]]).scatter(1, lib.tensor([[0, 0], [1, 0]]), 5, reduce=reduce)
        return out, _edges(out), by_value, _edges(by_value), ints

    same(run)
    same_error(
        lambda lib: _leaf(lib, (3,)).scatter(0, lib.tensor([0, 0]), 2.0, reduce=reduce).sum().backward(),
        "derivative for aten::scatter is not implemented",
    )


def test_scatter_with_reduce_warns_for_a_tensor_src_and_refuses_other_reductions():
    """PyTorch's deprecation warning (PyTorch gives it once per process, so only its words are
    compared here); a number as src gives none."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # (the module's filter ignores it elsewhere)
        minigrad.zeros(2).scatter(0, minigrad.tensor([0, 0]), minigrad.ones(2), reduce="add")
        minigrad.zeros(2).scatter(0, minigrad.tensor([0, 0]), 1.0, reduce="add")
    assert [(w.category, w.filename) for w in caught] == [(UserWarning, __file__)]
    assert str(caught[0].message).startswith(
        "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch "
        "release. Use torch.scatter_reduce instead for more reduction options."
    )
    same_error(
        lambda lib: lib.zeros(2).scatter(0, lib.tensor([0]), 1.0, reduce="sum"),
        "reduce argument must be either add or multiply",
    )


# ---------------------------------------------------------------------------------------------- index_reduce
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_values_gradients_second_derivatives_and_nodes(reduce, include_self):
    def run(lib):
        x, source = _leaf(lib, (3, 4)), _leaf(lib, (3, 3), 1)
        out = x.index_reduce(1, lib.tensor([0, 3, 0]), source, reduce, include_self=include_self)
        return derivatives(lib, out, [x, source])

    same(run)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_with_ties_zeros_integers_and_in_place(reduce, include_self):
    def run(lib):
        x, source = _ties(lib), _ties_src(lib)
        out = x.index_reduce(1, lib.tensor([0, 2, 0]), source, reduce, include_self=include_self)
        grads = lib.autograd.grad((out * lib.arange(1.0, 13.0, dtype=lib.float64).view(3, 4)).sum(), [x, source])
        ints = lib.tensor([[-7, 2], [4, 0]]).index_reduce(
            0, lib.tensor([0, 0]), lib.tensor([[0, 3], [9, 1]]), reduce, include_self=include_self
        )
        y = x * 1
        y.index_reduce_(
            0, lib.tensor([2]), source[:1, :].detach().repeat(1, 2)[:, :4], reduce, include_self=include_self
        )
        return out, grads, ints, y, y._version, node_names(y)

    same(run)


INDEX_REDUCE_ERRORS = {
    "sum is not one of them": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, 0]), s, "sum"),
        "Expected reduce to be one of prod, mean, amax or amin",
    ),
    "index out of range": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, 3]), s, "prod"),
        "index out of range in self",
    ),
    "negative index": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, -1]), s, "prod"),
        "index out of range in self",
    ),
    "float index": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0.0, 1.0]), s, "prod"),
        "Expected dtype int32/int64 for index",
    ),
    "a matrix of indices": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([[0, 1]]), s, "prod"),
        "Index is supposed to be a vector",
    ),
    "too many indices": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, 1, 2]), s, "prod"),
        "Number of indices (3) should be equal to source.size(dim)",
    ),
    "source of another dtype": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, 1]), s.double(), "prod"),
        "must have the same scalar type",
    ),
    "source of another shape": (
        lambda lib, x, s: x.index_reduce(0, lib.tensor([0, 1]), s[:, :3], "prod"),
        "source tensor shape must match self tensor shape",
    ),
}


@pytest.mark.parametrize("name", INDEX_REDUCE_ERRORS)
def test_index_reduce_errors_match_torch(name):
    fn, words = INDEX_REDUCE_ERRORS[name]
    same_error(lambda lib: fn(lib, lib.zeros(3, 4), lib.ones(2, 4)), words)


# ---------------------------------------------------------------------------------------------- index_put
INDEX_PUTS = {
    "rows": lambda lib, x, v: x.index_put((lib.tensor([0, 2, 0]),), v[:3]),
    "rows, accumulated": lambda lib, x, v: x.index_put((lib.tensor([0, 2, 0]),), v[:3], accumulate=True),
    "points, broadcast value": lambda lib, x, v: x.index_put((lib.tensor([0, 2, 0]), lib.tensor([1])), v[0, 0]),
    "points, accumulated": lambda lib, x, v: x.index_put(
        [lib.tensor([[0], [2]]), lib.tensor([1, 1, 3])], v[:2, :3], accumulate=True
    ),
    "a 0-d index and negative ones": lambda lib, x, v: x.index_put((lib.tensor(-1), lib.tensor([-4, 3])), v[0, :2]),
    "a mask": lambda lib, x, v: x.index_put((x > 0,), v[1, 1]),
    "a mask, accumulated": lambda lib, x, v: x.index_put((lib.tensor([True, False, True]),), v[1], accumulate=True),
    "in place": lambda lib, x, v: (x * 1).index_put_((lib.tensor([1, 1]),), v[:2], accumulate=True),
    "the function in place": lambda lib, x, v: lib.index_put_(x * 1, (lib.tensor([1]),), v[2:3]),
}


@pytest.mark.parametrize("name", INDEX_PUTS)
def test_index_put_values_gradients_second_derivatives_and_nodes(name):
    def run(lib):
        x, v = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1)
        return derivatives(lib, INDEX_PUTS[name](lib, x, v), [x, v])

    same(run)


def test_index_put_saves_its_indices_and_keeps_setitem_working():
    def run(lib):
        x = _leaf(lib, (3, 4))
        out = x.index_put((lib.tensor([0, 2]),), lib.ones(4, dtype=lib.float64), accumulate=True)
        y = x * 1
        y[lib.tensor([0, 0])] = lib.ones(1, 1, 4, dtype=lib.float64)  # setitem views away the leading 1s
        ints = lib.tensor([1, 2, 3]).index_put((lib.tensor([True, False, True]),), lib.tensor(9))
        mixed = lib.zeros(3).index_put((lib.tensor([True, False, True]),), lib.tensor(9))  # a mask converts one value
        return out.grad_fn._saved_accumulate, _edges(out), y, node_names(y), ints, mixed

    same(run)


INDEX_PUT_ERRORS = {
    "an index out of range": (
        lambda lib, x: x.index_put((lib.tensor([0, 5]),), lib.tensor(1.0)),
        "index 5 is out of bounds for dimension 0 with size 3",
    ),
    "a negative index out of range": (
        lambda lib, x: x.index_put((lib.tensor([0]), lib.tensor([-5])), lib.tensor(1.0)),
        "index -5 is out of bounds for dimension 1 with size 4",
    ),
    "a float index": (
        lambda lib, x: x.index_put((lib.tensor([0.0, 1.0]),), lib.tensor(1.0)),
        "tensors used as indices must be long, int, byte or bool tensors",
    ),
    "a number as value": (
        lambda lib, x: x.index_put((lib.tensor([0]),), 1.0),
        "argument 'values' (position 2) must be Tensor, not float",
    ),
    "a value of another dtype": (
        lambda lib, x: x.index_put((lib.tensor([0]),), lib.tensor(1)),
        "Index put requires the source and destination dtypes match",
    ),
    "too many indices": (
        lambda lib, x: x.index_put((lib.tensor([0]),) * 3, lib.tensor(1.0)),
        "too many indices for tensor of dimension 2",
    ),
    "a value that does not broadcast": (
        lambda lib, x: x.index_put((lib.tensor([0, 1]),), lib.ones(3)),
        "shape mismatch: value tensor of shape [3] cannot be broadcast",
    ),
    "a value with leading 1s": (
        lambda lib, x: x.index_put((lib.tensor([0, 1]),), lib.ones(1, 2, 4)),
        "cannot be broadcast to indexing result of shape [2, 4]",
    ),
    "indices that do not broadcast": (
        lambda lib, x: x.index_put((lib.tensor([0, 1]), lib.tensor([0, 1, 2])), lib.ones(1)),
        "shape mismatch: indexing tensors could not be broadcast",
    ),
    "a tensor, not a tuple": (
        lambda lib, x: x.index_put(lib.tensor([0, 1]), lib.ones(4)),
        "must be tuple of Tensors, not Tensor",
    ),
    "None among the indices": (
        lambda lib, x: x.index_put((None, lib.tensor([1])), lib.ones(1)),
        "expected Tensor as element 0",
    ),
    "a mask of another shape": (
        lambda lib, x: x.index_put((lib.tensor([True, False]),), lib.ones(4)),
        "The shape of the mask [2] at index 0 does not match",
    ),
    "into a leaf": (lambda lib, x: x.requires_grad_().index_put_((lib.tensor([0]),), lib.ones(4)), "a leaf Variable"),
}


@pytest.mark.parametrize("name", INDEX_PUT_ERRORS)
def test_index_put_errors_match_torch(name):
    fn, words = INDEX_PUT_ERRORS[name]
    same_error(lambda lib: fn(lib, lib.zeros(3, 4)), words)


# ---------------------------------------------------------------------------------------------- masked_scatter, put
MASKED_SCATTERS = {
    "rows of a broadcast mask": lambda lib, x, s: x.masked_scatter(lib.tensor([True, False, True, True]), s),
    "a mask that broadcasts self": lambda lib, x, s: x[0].masked_scatter(x > 0, s),
    "a mask of all False": lambda lib, x, s: x.masked_scatter(lib.zeros(3, 4, dtype=lib.bool), s),
    "in place on a view": lambda lib, x, s: (
        lambda y: (
            y[1:].t().masked_scatter_(lib.tensor([[True, False], [False, True], [True, True], [False, False]]), s),
            y,
        )[1]
    )(x * 1),
}


@pytest.mark.parametrize("name", MASKED_SCATTERS)
def test_masked_scatter_values_gradients_second_derivatives_and_nodes(name):
    def run(lib):
        x, s = _leaf(lib, (3, 4)), _leaf(lib, (4, 4), 1)
        out = MASKED_SCATTERS[name](lib, x, s)
        result = derivatives(lib, out, [x, s])
        return result, out.grad_fn.name() != "MaskedScatterBackward0" or out.grad_fn._saved_source_sym_sizes

    same(run)


PUTS = {
    "negative places": lambda lib, x, s: x.put(lib.tensor([0, -1, 5]), s[:3]),
    "repeated places": lambda lib, x, s: x.put(lib.tensor([[0, 0], [5, 11]]), s.view(2, 2)),
    "accumulated": lambda lib, x, s: x.put(lib.tensor([[0, 0], [5, -1]]), s.view(2, 2), accumulate=True),
    "in place": lambda lib, x, s: (x * 1).put_(lib.tensor([3, 3, 3, 1]), s, accumulate=True),
    "a 0-d tensor": lambda lib, x, s: x[1, 1].put(lib.tensor([0, 0]), s[:2], accumulate=True),
}


@pytest.mark.parametrize("name", PUTS)
def test_put_values_gradients_second_derivatives_and_nodes(name):
    def run(lib):
        x, s = _leaf(lib, (3, 4)), _leaf(lib, (4,), 1)
        out = PUTS[name](lib, x, s)
        return derivatives(lib, out, [x, s]), out.grad_fn.name() != "PutBackward0" or out.grad_fn._saved_accumulate

    same(run)


MASK_AND_PUT_ERRORS = {
    "masked_scatter, too small a source": (
        lambda lib, x: x.masked_scatter(x == 0, lib.ones(2)),
        "Number of elements of source < number of ones in mask",
    ),
    "masked_scatter, an integer mask": (
        lambda lib, x: x.masked_scatter(lib.ones(3, 4, dtype=lib.int64), lib.ones(12)),
        "masked_scatter_ only supports boolean masks",
    ),
    "masked_scatter, a source of another dtype": (
        lambda lib, x: x.masked_scatter(x == 0, lib.ones(12, dtype=lib.float64)),
        "expected self and source to have same dtypes",
    ),
    "masked_scatter, a number": (lambda lib, x: x.masked_scatter(x == 0, 1.0), "must be Tensor, not float"),
    "masked_scatter_, a mask that would grow self": (
        lambda lib, x: x[0].masked_scatter_(x == 0, lib.ones(12)),
        "expand",
    ),
    "put, out of range": (
        lambda lib, x: x.put(lib.tensor([0, 12]), lib.ones(2)),
        "out of range: tried to access index 12 on a tensor of 12 elements.",
    ),
    "put, negative out of range": (lambda lib, x: x.put(lib.tensor([-13]), lib.ones(1)), "tried to access index -13"),
    "put, counts differ": (
        lambda lib, x: x.put(lib.tensor([0, 1]), lib.ones(3)),
        "Expected source and index to have the same number of elements",
    ),
    "put, an int32 index": (
        lambda lib, x: x.put(lib.tensor([0], dtype=lib.int32), lib.ones(1)),
        "Expected a long tensor for index",
    ),
    "put, a source of another dtype": (
        lambda lib, x: x.put(lib.tensor([0]), lib.ones(1, dtype=lib.float64)),
        "self and source expected to have the same dtype",
    ),
    "put, into an empty tensor": (
        lambda lib, x: x[:0].put(lib.tensor([0]), lib.ones(1)),
        "Tried to put elements into an empty tensor",
    ),
}


@pytest.mark.parametrize("name", MASK_AND_PUT_ERRORS)
def test_masked_scatter_and_put_errors_match_torch(name):
    fn, words = MASK_AND_PUT_ERRORS[name]
    same_error(lambda lib: fn(lib, lib.zeros(3, 4)), words)


# ---------------------------------------------------------------------------------------------- fill_diagonal_
@pytest.mark.parametrize(
    "shape, wrap",
    [((3, 4), False), ((7, 3), False), ((7, 3), True), ((8, 2), True), ((3, 3, 3), False), ((2, 2, 2, 2), True)],
)
def test_fill_diagonal_writes_through_views_as_torch(shape, wrap):
    def run(lib):
        x = _leaf(lib, shape)
        y = x * 2
        out = y.fill_diagonal_(-1.5, wrap=wrap)
        (g,) = lib.autograd.grad((y * y).sum(), x)
        ints = lib.zeros(shape, dtype=lib.int64).fill_diagonal_(lib.tensor(7), wrap=wrap)
        return out is y, y, y._version, node_names(y), g, ints

    same(run)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib: lib.zeros(3).fill_diagonal_(1), "dimensions must larger than 1"),
        (lambda lib: lib.zeros(2, 3, 2).fill_diagonal_(1), "all dimensions of input must be of equal length"),
        (lambda lib: lib.zeros(2, 2, requires_grad=True).fill_diagonal_(1), "a leaf Variable"),
    ],
)
def test_fill_diagonal_errors_match_torch(fn, words):
    same_error(fn, words)


# ---------------------------------------------------------------------------------------------- *_scatter
SCATTERS = {
    "select_scatter": lambda lib, x, s: lib.select_scatter(x, s[:, 0], 1, -1),
    "select_scatter of a row": lambda lib, x, s: lib.select_scatter(x, s[1], 0, 2),
    "slice_scatter": lambda lib, x, s: lib.slice_scatter(x, s[:, :2], 1, 1, 3),
    "slice_scatter with a step and no end": lambda lib, x, s: x.slice_scatter(s[:, :2], dim=1, start=-3, step=2),
    "slice_scatter of all": lambda lib, x, s: lib.slice_scatter(x, s),
    "slice_scatter past the end": lambda lib, x, s: lib.slice_scatter(x, s[:2], 0, 1, 100),
    "diagonal_scatter": lambda lib, x, s: lib.diagonal_scatter(x, s[0, :3]),
    "diagonal_scatter above": lambda lib, x, s: x.diagonal_scatter(s[0, :3], 1),
    "diagonal_scatter below, dims swapped": lambda lib, x, s: lib.diagonal_scatter(x, s[0, :3], -1, 1, 0),
}


@pytest.mark.parametrize("name", SCATTERS)
def test_scatters_into_views_values_gradients_second_derivatives_and_nodes(name):
    def run(lib):
        x, s = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1)
        out = SCATTERS[name](lib, x, s)
        return derivatives(lib, out, [x, s]), _edges(out)

    same(run)


def test_scatters_into_views_convert_src_and_save_what_torch_saves():
    def run(lib):
        x = _leaf(lib, (2, 3))
        a = lib.select_scatter(x, lib.tensor([1, 2, 3]), 0, -1)
        b = lib.slice_scatter(x, lib.ones(2, 2, dtype=lib.float32), 1, 1)
        c = lib.diagonal_scatter(lib.zeros(2, 3, 4, dtype=lib.int64), lib.ones(4, 2, dtype=lib.int64), 0, 0, 1)
        saved = b.grad_fn._saved_dim, b.grad_fn._saved_start, b.grad_fn._saved_end, b.grad_fn._saved_step
        return a, b, c, a.grad_fn._saved_dim, saved

    same(run)


SCATTER_ERRORS = {
    "select_scatter, wrong size": (
        lambda lib, x: lib.select_scatter(x, lib.ones(3), 0, 0),
        "expected src to have a size equal to the slice of self. src size = [3], slice size = [4]",
    ),
    "select_scatter, index out of range": (
        lambda lib, x: lib.select_scatter(x, lib.ones(4), 0, 3),
        "select(): index 3 out of range for tensor of size [3, 4] at dimension 0",
    ),
    "select_scatter, 0-d": (
        lambda lib, x: lib.select_scatter(lib.tensor(1.0), lib.tensor(2.0), 0, 0),
        "select() cannot be applied to a 0-dim tensor.",
    ),
    "select_scatter, a number": (
        lambda lib, x: lib.select_scatter(x, 1.0, 0, 0),
        "argument 'src' (position 2) must be Tensor, not float",
    ),
    "slice_scatter, wrong size": (
        lambda lib, x: lib.slice_scatter(x, lib.ones(3, 3), 1, 1, 3),
        "src size = [3, 3], slice size = [3, 2]",
    ),
    "slice_scatter, zero step": (
        lambda lib, x: lib.slice_scatter(x, lib.ones(3, 2), 1, 1, 3, 0),
        "slice step must be positive",
    ),
    "slice_scatter, dim out of range": (
        lambda lib, x: lib.slice_scatter(x, lib.ones(3, 2), 2),
        "Dimension out of range",
    ),
    "diagonal_scatter, wrong size": (
        lambda lib, x: lib.diagonal_scatter(x, lib.ones(4)),
        "src size = [4], slice size = [3]",
    ),
    "diagonal_scatter, same dims": (
        lambda lib, x: lib.diagonal_scatter(x, lib.ones(3), 0, 0, 0),
        "diagonal dimensions cannot be identical 0, 0",
    ),
}


@pytest.mark.parametrize("name", SCATTER_ERRORS)
def test_scatters_into_views_errors_match_torch(name):
    fn, words = SCATTER_ERRORS[name]
    same_error(lambda lib: fn(lib, lib.zeros(3, 4)), words)


# ---------------------------------------------------------------------------------------------- splits
SPLITS = {
    "split_with_sizes": lambda lib, x: x.split_with_sizes([1, 3], 1),
    "split_with_sizes, the function, an empty piece": lambda lib, x: lib.split_with_sizes(x, (0, 2, 1)),
    "hsplit into sections": lambda lib, x: lib.hsplit(x, 2),
    "hsplit at indices": lambda lib, x: x.hsplit([1, 3]),
    "hsplit at indices given one by one": lambda lib, x: x.hsplit(1, 3),
    "hsplit past the end": lambda lib, x: lib.hsplit(x, (5,)),
    "hsplit of a vector": lambda lib, x: lib.hsplit(x[0], 2),
    "vsplit": lambda lib, x: x.vsplit(3),
    "vsplit at indices": lambda lib, x: lib.vsplit(x, [2]),
    "dsplit": lambda lib, x: lib.dsplit(x.view(3, 1, 4), [1, 1]),
}


@pytest.mark.parametrize("name", SPLITS)
def test_splits_are_views_with_torchs_nodes_and_gradients(name):
    def run(lib):
        x = _leaf(lib, (3, 4))
        y = x * 1
        pieces = SPLITS[name](lib, y)
        loss = sum(((p * (i + 1)) ** 2).sum() for i, p in enumerate(pieces))
        (g,) = lib.autograd.grad(loss, x)
        return [(p, p._base is y, node_names(p)) for p in pieces], g

    same(run)


SPLIT_ERRORS = {
    "split_with_sizes, wrong sum": (
        lambda lib, x: x.split_with_sizes([1, 1]),
        "split_with_sizes expects split_sizes to sum exactly to 3",
    ),
    "split_with_sizes, an int": (
        lambda lib, x: x.split_with_sizes(1),
        "argument 'split_sizes' (position 1) must be tuple of ints, not int",
    ),
    "hsplit, not divisible": (
        lambda lib, x: lib.hsplit(x, 3),
        "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 is not divisible by the split_size 3!",
    ),
    "hsplit, zero sections": (lambda lib, x: lib.hsplit(x, 0), "not divisible by the split_size 0!"),
    "hsplit, 0-d": (
        lambda lib, x: lib.hsplit(lib.tensor(1.0), 2),
        "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!",
    ),
    "hsplit, a float": (lambda lib, x: lib.hsplit(x, 2.0), "hsplit() received an invalid combination of arguments"),
    "vsplit, a vector": (
        lambda lib, x: lib.vsplit(x[0], 2),
        "torch.vsplit requires a tensor with at least 2 dimension",
    ),
    "vsplit, not divisible": (
        lambda lib, x: lib.vsplit(x, 2),
        "the size of the dimension 3 is not divisible by the split_size 2!",
    ),
    "dsplit, a matrix": (
        lambda lib, x: lib.dsplit(x, 2),
        "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!",
    ),
}


@pytest.mark.parametrize("name", SPLIT_ERRORS)
def test_split_errors_match_torch(name):
    fn, words = SPLIT_ERRORS[name]
    same_error(lambda lib: fn(lib, lib.zeros(3, 4)), words)


# ---------------------------------------------------------------------------------------------- unfold
UNFOLDS = {
    "overlapping windows": lambda x: x.unfold(1, 2, 1),
    "windows with gaps": lambda x: x.unfold(1, 2, 3),
    "the first dim, a window per step": lambda x: x.unfold(0, 2, 2),
    "one window, a negative dim": lambda x: x.unfold(-1, 4, 1),
    "empty windows": lambda x: x.unfold(1, 0, 1),
    "a transposed input": lambda x: x.t().unfold(0, 3, 1),
    "a 0-d input": lambda x: x[0, 0].unfold(0, 1, 1),
    "twice": lambda x: x.unfold(1, 2, 1).unfold(0, 2, 1),
}


@pytest.mark.parametrize("name", UNFOLDS)
def test_unfold_values_gradients_second_derivatives_and_nodes(name):
    def run(lib):
        x = _leaf(lib, (3, 4))
        return derivatives(lib, UNFOLDS[name](x) * 1, [x])

    same(run)


def test_unfold_is_a_view_sharing_storage_and_the_version_counter():
    def run(lib):
        x = _leaf(lib, (3, 4))
        y = x * 1
        u = y.unfold(1, 2, 2)
        node = u.grad_fn
        saved = (
            node.name(),
            node._saved_dimension,
            node._saved_size,
            node._saved_step,
            tuple(node._saved_self_sym_sizes),
        )
        u.mul_(10)  # windows that do not overlap may change in place
        (g,) = lib.autograd.grad(y.sum(), x)
        return saved, u._base is y, y._version, u._version, y, node_names(y), g, u.is_contiguous(), u.shape

    same(run)


@pytest.mark.parametrize(
    "fn, words",
    [
        (lambda lib: lib.zeros(3, 4).unfold(1, 5, 1), "maximum size for tensor at dimension 1 is 4 but size is 5"),
        (lambda lib: lib.zeros(3, 4).unfold(1, 2, 0), "step is 0 but must be > 0"),
        (lambda lib: lib.zeros(3, 4).unfold(1, -1, 1), "size is -1 but must be >= 0"),
        (lambda lib: lib.zeros(3, 4).unfold(2, 2, 1), "Dimension out of range"),
        (lambda lib: lib.tensor(5.0).unfold(0, 2, 1), "maximum size for tensor at dimension 0 is 1 but size is 2"),
    ],
)
def test_unfold_errors_match_torch(fn, words):
    same_error(fn, words)


# ---------------------------------------------------------------------------------------------- names
@pytest.mark.parametrize(
    "name",
    "scatter_reduce index_reduce index_put index_put_ masked_scatter put select_scatter slice_scatter diagonal_scatter "
    "split_with_sizes hsplit vsplit dsplit scatter_reduce_ index_reduce_ masked_scatter_ put_ fill_diagonal_ unfold".split(),
)
def test_the_functions_and_methods_exist_as_in_torch(name):
    assert hasattr(minigrad, name) == hasattr(torch, name), name
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name), name
