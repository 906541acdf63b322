"""Disagreements with PyTorch in indexing (``x[key]``, ``x[key] = v``) and the gather, scatter,
index_* , masked_*, take and put family, found by a differential fuzzer (random tensors of 0 to 4
dims with empty dims, non-contiguous views, keys mixing ints, slices, None, ``...``, masks and
index tensors; values, dtypes, strides, views, gradients and errors compared with PyTorch's).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, shape, values and ``requires_grad``; ``same_error`` wants the same exception type and the
given words in both messages.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = [
    pytest.mark.usefixtures("on_device"),
    pytest.mark.filterwarnings(
        "ignore:indexing with dtype torch.uint8",
        "ignore:Using a non-tuple sequence for multidimensional indexing",
        "ignore:The reduce argument of torch.scatter",
        "ignore:index_reduce\\(\\) is in beta",
        "ignore:Use of index_put_ on expanded tensors",
    ),
]

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad)).same
same_layout = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.stride())).same


def _x(lib, *shape, requires_grad=False):
    n = int(np.prod(shape))
    return lib.arange(float(n)).reshape(shape).requires_grad_(requires_grad)


def _grad(out, x):
    """``out`` and the gradient of a fixed weighted sum of it for ``x``."""
    lib = torch if isinstance(out, torch.Tensor) else minigrad
    weights = lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape) / 7 - 0.5
    return out, lib.autograd.grad((out * weights).sum(), x)[0]


def _set(x, key, value):
    x[key] = value
    return x


# ---------------------------------------------------------------------------------------------- keys
KEYS = {
    # a uint8 tensor is a mask (PyTorch warns that this is deprecated); a 0-d one is a bool
    "uint8 mask": lambda lib: _x(lib, 3)[lib.tensor([1, 0, 1], dtype=lib.uint8)],
    "uint8 mask of two dims": lambda lib: _x(lib, 2, 3)[lib.tensor([[1, 0, 1], [0, 0, 1]], dtype=lib.uint8)],
    "uint8 0-d true": lambda lib: _x(lib, 3)[lib.tensor(1, dtype=lib.uint8)],
    "uint8 0-d false": lambda lib: _x(lib, 3)[lib.tensor(0, dtype=lib.uint8)],
    "NumPy uint8 array": lambda lib: _x(lib, 3)[np.array([1, 0, 1], dtype=np.uint8)],
    # lists and NumPy arrays of numbers become int64 indices, floats cut toward zero
    "list of floats": lambda lib: _x(lib, 6)[[1.5, 2.7, -1.5]],
    "NumPy floats": lambda lib: _x(lib, 6)[np.array([1.0, 2.7])],
    "NumPy int16": lambda lib: _x(lib, 6)[np.array([1, 0], dtype=np.int16)],
    "NumPy 0-d int": lambda lib: _x(lib, 6)[np.array(1)],
    # a short list holding a sequence, a tensor, a slice, None or ... is a tuple of indices
    "nested list": lambda lib: _x(lib, 2, 3)[[[0, 1], [1, 0]]],
    "list of tuples": lambda lib: _x(lib, 2, 3)[[(0, 1), (1, 0)]],
    "list with a slice": lambda lib: _x(lib, 2, 3)[[0, slice(None)]],
    "list with None": lambda lib: _x(lib, 2, 3)[[0, None]],
    "list with ...": lambda lib: _x(lib, 2, 3)[[Ellipsis, 0]],
    "list of 0-d tensors": lambda lib: _x(lib, 2, 3)[[lib.tensor(0), lib.tensor(1)]],
    "NumPy 2-d array stays one index": lambda lib: _x(lib, 2, 3)[np.array([[0, 1], [1, 0]])],
    # nothing is read from an empty result, and no index is checked (PyTorch's kernel)
    "out of range, empty result": lambda lib: _x(lib, 1, 1, 1)[:, 2:3, lib.tensor([[0, 5], [2, -1]])],
    "out of range, empty slices": lambda lib: _x(lib, 2, 0)[lib.tensor([1, 5])],
    "empty index into an empty dim": lambda lib: _x(lib, 2, 0)[:, lib.tensor([], dtype=lib.long)],
}


@pytest.mark.parametrize("case", KEYS)
def test_keys_read_as_pytorch_reads_them(case):
    same(KEYS[case])


GRAD_KEYS = {
    "uint8 mask": lambda lib: lib.tensor([1, 0, 1, 1], dtype=lib.uint8),
    "nested list": [[0, 1, 1], [2, 0, 2]],
    "empty result": (slice(1, 1), [0, 2, 2]),
}


@pytest.mark.parametrize("case", GRAD_KEYS)
def test_gradients_through_such_keys(case):
    def run(lib):
        key = GRAD_KEYS[case]
        x = _x(lib, 4, 3, requires_grad=True)
        return _grad(x[key(lib) if callable(key) else key], x)

    same(run)


KEY_ERRORS = {
    "int16 tensor": (
        lambda lib: _x(lib, 3)[lib.tensor([1, 0], dtype=lib.int16)],
        "tensors used as indices must be long, int, byte or bool",
    ),
    "int8 tensor in setitem": (
        lambda lib: _set(_x(lib, 3), lib.tensor([1], dtype=lib.int8), 7.0),
        "tensors used as indices must be long, int, byte or bool",
    ),
    "bare 0 on a 0-d tensor": (lambda lib: lib.tensor(2.0)[0], "invalid index of a 0-dim tensor"),
    "bare 1 on a 0-d tensor": (lambda lib: lib.tensor(2.0)[1], "index 1 is out of bounds for dimension 0 with size 0"),
    "bare -1 set on a 0-d tensor": (
        lambda lib: _set(lib.tensor(2.0), -1, 1.0),
        "index -1 is out of bounds for dimension 0 with size 0",
    ),
    "bare 0 set on a 0-d tensor": (lambda lib: _set(lib.tensor(2.0), 0, 1.0), "invalid index of a 0-dim tensor"),
    "nested list of three on 2 dims": (
        lambda lib: _x(lib, 2, 3)[[[0, 1], [1, 0], [0, 0]]],
        "too many indices for tensor of dimension 2",
    ),
    "nested bool lists": (
        lambda lib: _x(lib, 2, 3)[[[True, False, True], [False, False, True]]],
        "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0",
    ),
    # the count of indexed dims comes first, then the slicing, the masks, then the broadcasting
    "too many before a float index": (
        lambda lib: _set(_x(lib, 4), (2, lib.tensor([0.0])), 1.0),
        "too many indices for tensor of dimension 1",
    ),
    "a mask before the broadcasting": (
        lambda lib: _x(lib, 1, 2).expand(2, 2)[lib.tensor([], dtype=lib.long), lib.tensor([True, True, False])],
        "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 2] at index 1",
    ),
    "the slicing before the broadcasting": (
        lambda lib: _x(lib, 4, 0, 2)[lib.tensor([0, 1, 2]), -1, ..., lib.tensor([True, False])],
        "index -1 is out of bounds for dimension 1 with size 0",
    ),
    "indices into an empty dim picking something": (
        lambda lib: _x(lib, 2, 0)[None, :, lib.tensor([0, 0, 0])],
        "index is out of bounds for dimension with size 0",
    ),
    "set into an empty dim": (
        lambda lib: _set(_x(lib, 0), lib.tensor([[0, 0]]), lib.ones(3)),
        "index is out of bounds for dimension with size 0",
    ),
    # setitem: the value's shape, then its dtype, then the places
    "set: the value's shape before the places": (
        lambda lib: _set(_x(lib, 4), (lib.tensor([-1, 4]), None), lib.ones(3)),
        "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 1]",
    ),
    "set: the value's dtype before the places": (
        lambda lib: _set(_x(lib, 4), lib.tensor([1, 4]), lib.ones(2, dtype=lib.int64)),
        "Index put requires the source and destination dtypes match",
    ),
    "set: a uint8 mask with one value is a masked fill": (
        lambda lib: _set(_x(lib, 3), lib.tensor([1, 0, 1], dtype=lib.uint8), 7.0),
        "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char",
    ),
    "set: a uint8 mask among slices": (
        lambda lib: _set(_x(lib, 2, 3), (slice(None), lib.tensor([1, 0, 1], dtype=lib.uint8)), lib.tensor(7.0)),
        "masked_fill_ only supports boolean masks",
    ),
}


@pytest.mark.parametrize("case", KEY_ERRORS)
def test_key_errors_as_pytorch(case):
    fn, words = KEY_ERRORS[case]
    same_error(fn, words)


SETS = {
    "uint8 mask, several values": lambda lib: _set(
        _x(lib, 3), lib.tensor([1, 0, 1], dtype=lib.uint8), lib.tensor([7.0, 8.0])
    ),
    "uint8 0-d key": lambda lib: _set(_x(lib, 3), lib.tensor(1, dtype=lib.uint8), 7.0),
    "uint8 mask with an index": lambda lib: _set(
        _x(lib, 2, 3), (lib.tensor([1, 0], dtype=lib.uint8), lib.tensor([2])), 7.0
    ),
    "out of range, nothing written": lambda lib: _set(
        _x(lib, 1, 1, 1), (slice(None), slice(2, 3), lib.tensor([[0, 5]])), lib.ones(2)
    ),
    "into an empty dim, nothing written": lambda lib: _set(
        _x(lib, 0, 1).t(), (lib.tensor([-1, 1]), slice(None)), lib.ones(2, 0)
    ),
    "nested list": lambda lib: _set(_x(lib, 2, 3), [[0, 1], [1, 0]], lib.tensor([5.0, 6.0])),
}


@pytest.mark.parametrize("case", SETS)
def test_setitem_as_pytorch(case):
    same(SETS[case])


def test_setitem_with_an_empty_result_keeps_the_gradients():
    def run(lib):
        x = _x(lib, 3, 2, requires_grad=True)
        v = lib.ones(2, 0, requires_grad=True)
        y = x * 1
        y[lib.tensor([-1, 5]), 2:] = v
        return _grad(y, x)

    same(run)


# ---------------------------------------------------------------------------------------------- layouts
LAYOUTS = {
    # the kept dims follow the input's order, as PyTorch's index kernel (a TensorIterator) lays them
    "mask on a permuted tensor": lambda lib: _x(lib, 3, 4, 2).permute(1, 2, 0)[
        lib.tensor([True, False, True, True]), :4
    ],
    "index on a permuted tensor": lambda lib: _x(lib, 2, 3, 4).permute(2, 0, 1)[:, lib.tensor([1, 0, 1])],
    "two indices apart": lambda lib: _x(lib, 2, 3, 4, 5).permute(3, 1, 0, 2)[lib.tensor([0, 4]), :, lib.tensor([1, 0])],
    "index on a transposed matrix": lambda lib: _x(lib, 3, 4).t()[lib.tensor([2, 0])],
    # put, index_put and index_fill write into a clone of the input (preserve_format)
    "put on a transposed matrix": lambda lib: _x(lib, 4, 3).t().put(lib.tensor([1, 6]), lib.tensor([-1.0, -2.0])),
    "index_put on a transposed matrix": lambda lib: _x(lib, 3, 2).t().index_put((lib.tensor(0),), lib.tensor([1.5])),
    "index_fill on a transposed matrix": lambda lib: _x(lib, 3, 2).t().index_fill(1, lib.tensor([1]), 1.5),
    "index_put on a permuted tensor": lambda lib: (
        _x(lib, 4, 4, 4)
        .permute(1, 2, 0)
        .index_put((lib.tensor(2), lib.tensor([[1]]), lib.tensor([[0]])), lib.tensor([[0.0]]), accumulate=True)
    ),
    # the out-of-place forms that PyTorch writes into a new row-major tensor stay row-major
    "index_copy on a transposed matrix": lambda lib: _x(lib, 3, 2).t().index_copy(1, lib.tensor([1]), lib.ones(2, 1)),
    "masked_fill on a transposed matrix": lambda lib: (
        _x(lib, 3, 2).t().masked_fill(lib.tensor([True, False, True]), 0.0)
    ),
}


@pytest.mark.parametrize("case", LAYOUTS)
def test_results_are_laid_out_as_pytorch(case):
    same_layout(LAYOUTS[case])


def test_gradient_through_an_index_of_a_permuted_tensor():
    def run(lib):
        x = _x(lib, 3, 4, 2, requires_grad=True)
        return _grad(x.permute(1, 2, 0)[lib.tensor([True, False, True, True])], x)

    same(run)


# ---------------------------------------------------------------------------------------------- gather / scatter
def _empty_index(lib, dtype=None, shape=(0, 1, 4, 2)):
    return lib.zeros(shape, dtype=dtype or lib.long)


SCATTER = {
    # an empty index is neither checked (dtype, dims, sizes) nor used
    "gather, empty float index": lambda lib: _x(lib, 1, 1, 3, 4).gather(-1, _empty_index(lib, lib.float32)),
    "gather, empty index larger than input": lambda lib: _x(lib, 2, 1, 2).gather(
        -1, _empty_index(lib, shape=(3, 0, 0))
    ),
    "scatter, empty bool index": lambda lib: _x(lib, 4, 3, 2).scatter(
        0, _empty_index(lib, lib.bool, (0,)), lib.ones(0)
    ),
    "scatter_add, empty index of other dims": lambda lib: _x(lib, 2, 2).scatter_add(
        0, _empty_index(lib, shape=(0, 2, 5)), lib.ones(1)
    ),
    "scatter_reduce, empty index": lambda lib: _x(lib, 2, 2).scatter_reduce(
        1, _empty_index(lib, shape=(0,)), lib.ones(3), "amax"
    ),
    "scatter value, empty index": lambda lib: _x(lib, 1, 1).scatter_(0, _empty_index(lib, shape=(0, 2)), 0.0),
    # scatter_reduce's kernel takes 'max' and 'min'
    "scatter_reduce 'max'": lambda lib: _x(lib, 3).scatter_reduce(0, lib.tensor([0, 0]), lib.tensor([5.0, 7.0]), "max"),
    "take_along_dim, flat, int32": lambda lib: lib.take_along_dim(_x(lib, 4), lib.tensor([[1]], dtype=lib.int32)),
}


@pytest.mark.parametrize("case", SCATTER)
def test_scatter_family_as_pytorch(case):
    same(SCATTER[case])


def test_scatter_src_gradient_summed_where_src_broadcasts_to_the_index():
    # PyTorch's engine sums a gradient whose input's shape broadcasts to it: a (1,) src for an
    # empty index gets zeros
    def run(lib):
        src = lib.tensor([-1.5], requires_grad=True)
        out = _x(lib, 3).scatter(0, _empty_index(lib, shape=(0,)), src)
        return _grad(out, src)

    same(run)


SCATTER_ERRORS = {
    "scatter src grad of another shape": (
        lambda lib: (lambda src: _grad(_x(lib, 2, 3).scatter(0, _empty_index(lib, shape=(0, 2)), src), src))(
            lib.ones(1, 3, requires_grad=True)
        ),
        "returned an invalid gradient at index 1 - got [0, 2] but expected shape compatible with [1, 3]",
    ),
    "scatter_reduce 'max' backward": (
        lambda lib: (lambda s: lib.autograd.grad(_x(lib, 3).scatter_reduce(0, lib.tensor([0]), s, "max").sum(), s))(
            lib.ones(2, requires_grad=True)
        ),
        "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got max.",
    ),
    "scatter_reduce amax backward, index smaller than src": (
        lambda lib: (
            lambda x: lib.autograd.grad(
                x.scatter_reduce(1, lib.zeros(2, 4, dtype=lib.long), lib.ones(3, 1).expand(3, 4), "amax").sum(), x
            )
        )(_x(lib, 3, 1, requires_grad=True)),
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    "scatter(reduce=): index dtype before the reduce name": (
        lambda lib: _x(lib, 1, 3).scatter(-1, lib.tensor([[3.0]]), -2.0, reduce="sum"),
        "scatter(): Expected dtype int32/int64 for index",
    ),
    "scatter(reduce=): src dtype before the reduce name": (
        lambda lib: _x(lib, 2, 2).scatter(
            1, lib.zeros(2, 0, dtype=lib.long), lib.ones(2, 1, dtype=lib.long), reduce="sum"
        ),
        "scatter(): Expected self.dtype to be equal to src.dtype",
    ),
    "scatter(reduce=): the reduce name before the places": (
        lambda lib: _x(lib, 2, 2).scatter(1, lib.tensor([[2], [0]]), lib.ones(2, 1), reduce="mean"),
        "reduce argument must be either add or multiply.",
    ),
    "scatter_reduce: the reduce name before the places": (
        lambda lib: _x(lib, 2).scatter_reduce(0, lib.tensor([5]), lib.ones(1), "add"),
        "reduce argument must be either sum, prod, mean, amax or amin, got add",
    ),
    "scatter_reduce mean of bools without include_self: the places first": (
        lambda lib: lib.ones(2, 2, dtype=lib.bool).scatter_reduce(
            1, lib.tensor([[-1]]), lib.ones(1, 1, dtype=lib.bool), "mean", include_self=False
        ),
        "index -1 is out of bounds for dimension 1 with size 2",
    ),
    "take_along_dim: dims before dtype": (
        lambda lib: lib.take_along_dim(_x(lib, 3, 2), lib.zeros(3, 0, 1, dtype=lib.int32), 1),
        "input and indices should have the same number of dimensions",
    ),
    "take_along_dim: 0-d input": (
        lambda lib: lib.take_along_dim(lib.tensor(3.0), lib.tensor([0, -1]), 0),
        "input and indices should have the same number of dimensions",
    ),
}


@pytest.mark.parametrize("case", SCATTER_ERRORS)
def test_scatter_family_errors_as_pytorch(case):
    fn, words = SCATTER_ERRORS[case]
    same_error(fn, words)


# ---------------------------------------------------------------------------------------------- index_*
INDEX_OPS = {
    # PyTorch adds nothing to, and checks no index of, an empty tensor of 2 or more dims
    "index_add, empty self": lambda lib: lib.zeros(0, 3).index_add(0, lib.tensor([-1]), lib.ones(1, 3)),
    "index_add, empty slices": lambda lib: lib.zeros(3, 0).index_add(0, lib.tensor([5]), lib.ones(1, 0)),
    "index_fill, empty self": lambda lib: lib.zeros(1, 2, 0, 0).index_fill(2, lib.tensor([-1, 0]), lib.tensor(-1.0)),
    "index_copy, empty source": lambda lib: lib.zeros(0, 1, 4).index_copy(
        2, lib.tensor([], dtype=lib.long), lib.zeros(0, 1, 0)
    ),
    "index_copy_, empty": lambda lib: lib.zeros(0, 2).index_copy_(-2, lib.tensor([], dtype=lib.long), lib.zeros(0, 2)),
    "index_reduce, empty": lambda lib: lib.zeros(4, 0).index_reduce(
        0, lib.tensor([0, 1, 3, 1]), lib.zeros(4, 0), "amin"
    ),
    "index_reduce mean of bools, no index": lambda lib: lib.ones(4, 1, 3, dtype=lib.bool).index_reduce(
        2, lib.tensor([], dtype=lib.long), lib.ones(4, 1, 0, dtype=lib.bool), "mean"
    ),
    "index_reduce of bools, 2 dims": lambda lib: lib.zeros(2, 2, dtype=lib.bool).index_reduce(
        0, lib.tensor([1]), lib.ones(1, 2, dtype=lib.bool), "amax"
    ),
}


@pytest.mark.parametrize("case", INDEX_OPS)
def test_index_ops_as_pytorch(case):
    same(INDEX_OPS[case])


INDEX_ERRORS = {
    # index_add: PyTorch's CPU kernels loop (IndexError) but for dim 0 or the last dim with
    # alpha 1 and an int64 index, which run as a scatter_add (RuntimeError)
    "index_add 1-d": (
        lambda lib: lib.zeros(3).index_add(0, lib.tensor([5]), lib.ones(1)),
        IndexError,
        "index out of range in self",
    ),
    "index_add 1-d negative": (
        lambda lib: lib.zeros(3).index_add(0, lib.tensor([-1]), lib.ones(1)),
        IndexError,
        "index out of range in self",
    ),
    "index_add middle dim": (
        lambda lib: lib.zeros(2, 3, 3).index_add(1, lib.tensor([0, 3]), lib.ones(2, 2, 3)),
        IndexError,
        "index out of range in self",
    ),
    "index_add with alpha": (
        lambda lib: lib.zeros(2, 3).index_add(-1, lib.tensor([-4, 0]), lib.ones(2, 2), alpha=-1.5),
        IndexError,
        "index out of range in self",
    ),
    "index_add dim 0, as a scatter_add": (
        lambda lib: lib.zeros(3, 2).index_add(0, lib.tensor([-1]), lib.ones(1, 2)),
        RuntimeError,
        "index -1 is out of bounds for dimension 0 with size 3",
    ),
    "index_add, 0-d source and no index": (
        lambda lib: lib.tensor(1.0).index_add(0, lib.tensor([], dtype=lib.long), lib.tensor(2.0)),
        IndexError,
        "Dimension specified as 0 but tensor has no dimensions",
    ),
    "index_add, dim past the source's": (
        lambda lib: lib.zeros(2, 3).index_add(1, lib.tensor([0]), lib.ones(2)),
        RuntimeError,
        "index_add_(): Indexing dim 1 is out of bounds of the source tensor with dim 1",
    ),
    # index_reduce: bools, and index_fill's checks first without include_self
    "index_reduce of bools, 1-d": (
        lambda lib: lib.zeros(2, dtype=lib.bool).index_reduce(0, lib.tensor([1]), lib.ones(1, dtype=lib.bool), "prod"),
        NotImplementedError,
        "\"index_func_\" not implemented for 'Bool'",
    ),
    "index_reduce of bools, without include_self": (
        lambda lib: lib.zeros(2, 2, dtype=lib.bool).index_reduce(
            0, lib.tensor([1]), lib.ones(1, 2, dtype=lib.bool), "amax", include_self=False
        ),
        NotImplementedError,
        "\"index_reduce_func_exclude_input_init\" not implemented for 'Bool'",
    ),
    "index_reduce mean of bools": (
        lambda lib: lib.zeros(2, 2, dtype=lib.bool).index_reduce(
            0, lib.tensor([1]), lib.ones(1, 2, dtype=lib.bool), "mean"
        ),
        NotImplementedError,
        "\"div_floor_cpu\" not implemented for 'Bool'",
    ),
    "index_reduce without include_self: index_fill's bounds": (
        lambda lib: lib.zeros(4, 1).index_reduce(0, lib.tensor([2, -5]), lib.ones(2, 1), "amin", include_self=False),
        IndexError,
        "index -5 is out of bounds for dimension 0 with size 4",
    ),
    "index_reduce backward without include_self, int32 index": (
        lambda lib: (
            lambda x: lib.autograd.grad(
                x.index_reduce(0, lib.tensor([1], dtype=lib.int32), lib.ones(1, 2), "prod", include_self=False).sum(), x
            )
        )(_x(lib, 2, 2, requires_grad=True)),
        IndexError,
        "index_fill_(): Expected dtype int64 for index.",
    ),
    # index_copy, index_fill, index_select: PyTorch's order of checks and its kernels' words
    "index_copy: index dtype before count": (
        lambda lib: lib.zeros(0, 1, dtype=lib.long).index_copy(
            0, lib.tensor([], dtype=lib.int32), lib.ones(1, 1, dtype=lib.long)
        ),
        RuntimeError,
        "index_copy_(): Expected a long tensor for index, but got Int",
    ),
    "index_copy: scalar source": (
        lambda lib: lib.tensor(1.0).index_copy(0, lib.tensor([], dtype=lib.long), lib.tensor(2.0)),
        IndexError,
        "index_copy_(): When source is scalar, index should have one element (got 0)",
    ),
    "index_fill: value dims first": (
        lambda lib: lib.zeros(2, 3).index_fill(1, lib.tensor([0], dtype=lib.int32), lib.zeros(2)),
        RuntimeError,
        "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
    ),
    "index_select: a scalar's count before dtype": (
        lambda lib: lib.tensor(1.0).index_select(0, lib.tensor([False, True])),
        RuntimeError,
        "index_select(): Index to scalar can have only 1 value, got 2 value(s)",
    ),
    "index_select along dim 1 of 4 dims": (
        lambda lib: lib.zeros(2, 3, 4, 5).index_select(1, lib.tensor([5])),
        RuntimeError,
        "INDICES element is out of DATA bounds, id=5 axis_dim=3",
    ),
    "index_select of an empty tensor": (
        lambda lib: lib.zeros(3, 0).index_select(0, lib.tensor([5])),
        RuntimeError,
        "INDICES element is out of DATA bounds, id=5 axis_dim=3",
    ),
    # an out-of-place result of integers cannot take a value that requires grad
    "masked_fill of integers": (
        lambda lib: lib.zeros(2, dtype=lib.long).masked_fill(
            lib.tensor([True, False]), lib.tensor(1.0, requires_grad=True)
        ),
        RuntimeError,
        "Autograd not support dtype: Long",
    ),
    "index_fill of bools": (
        lambda lib: lib.zeros(2, dtype=lib.bool).index_fill(0, lib.tensor([1]), lib.tensor(1.0, requires_grad=True)),
        RuntimeError,
        "Autograd not support dtype: Bool",
    ),
}


@pytest.mark.parametrize("case", INDEX_ERRORS)
def test_index_op_errors_as_pytorch(case):
    fn, kind, words = INDEX_ERRORS[case]
    error = same_error(fn, words)
    assert type(error) is kind


def test_in_place_fills_of_integers_with_a_value_that_requires_grad_still_run():
    def run(lib):
        x = lib.zeros(3, dtype=lib.long)
        x.masked_fill_(lib.tensor([True, False, True]), lib.tensor(2.0, requires_grad=True))
        x.index_fill_(0, lib.tensor([1]), lib.tensor(3.0, requires_grad=True))
        return x.detach()

    same(run)


# ---------------------------------------------------------------------------------------------- index_put / masked_*
PUT_ERRORS = {
    "index_put: value's shape before the places": (
        lambda lib: _x(lib, 4).index_put((lib.tensor([[4], [0], [-1]]),), lib.ones(2)),
        "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of shape [3, 1]",
    ),
    "index_put: indices into an empty dim first": (
        lambda lib: _x(lib, 0).index_put((lib.tensor([[0, 0]]),), lib.ones(0)),
        "index is out of bounds for dimension with size 0",
    ),
    "index_put: a mask past the last dim": (
        lambda lib: _x(lib, 1, 2).index_put(
            (lib.tensor([[False, True]]), lib.tensor([0, -1])), lib.ones(2), accumulate=True
        ),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    "index_put: masks broadcast before the count": (
        lambda lib: _x(lib, 4, 4).index_put(
            (lib.ones(4, 4, dtype=lib.bool), lib.tensor([0, -1])), lib.ones(1), accumulate=True
        ),
        "shape mismatch: indexing tensors could not be broadcast together with shapes [16], [16], [2]",
    ),
    "index_put: accumulate converts no dtype": (
        lambda lib: _x(lib, 3).index_put(
            (lib.tensor([True, False, True]),), lib.tensor(1, dtype=lib.long), accumulate=True
        ),
        "Index put requires the source and destination dtypes match",
    ),
    "index_put: a uint8 mask and one value": (
        lambda lib: _x(lib, 3).index_put((lib.tensor([1, 0, 1], dtype=lib.uint8),), lib.tensor(9.0)),
        "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char",
    ),
    "masked_fill: shapes before the value's dims": (
        lambda lib: _x(lib, 3).masked_fill(lib.ones(2, dtype=lib.bool), lib.ones(2)),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
    ),
    "masked_fill_: the value's dims before the shape": (
        lambda lib: lib.tensor(-1).masked_fill_(lib.tensor([False]), lib.tensor([5])),
        "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
    ),
    "masked_scatter: shapes before the mask's dtype": (
        lambda lib: _x(lib, 4, 4).masked_scatter(lib.ones(3, 5, dtype=lib.long), lib.ones(5)),
        "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 1",
    ),
    "masked_scatter_: a mask of more dims": (
        lambda lib: _x(lib, 2, 3).masked_scatter_(lib.ones(1, 2, 3, dtype=lib.bool), lib.ones(6)),
        "expand(CPUBoolType{[1, 2, 3]}, size=[2, 3]): the number of sizes provided (2) must be greater or equal",
    ),
    "masked_scatter_: a mask of more dims on a 0-d tensor": (
        lambda lib: lib.tensor(1.5).masked_scatter_(lib.tensor([False, True]), lib.ones(4)),
        "expand(CPUBoolType{[2]}, size=[]): the number of sizes provided (0)",
    ),
    "masked_scatter_: a larger mask": (
        lambda lib: _x(lib, 1).masked_scatter_(lib.tensor([False, True]), lib.ones(2)),
        "The expanded size of the tensor (1) must match the existing size (2) at non-singleton dimension 0.",
    ),
    "expand names a bool tensor's type as PyTorch": (
        lambda lib: lib.ones(1, 2, dtype=lib.bool).expand(2),
        "expand(CPUBoolType{[1, 2]}, size=[2])",
    ),
}


@pytest.mark.parametrize("case", PUT_ERRORS)
def test_put_and_masked_errors_as_pytorch(case, on_device):
    if on_device != "cpu" and "CPUBoolType" in PUT_ERRORS[case][1]:
        pytest.skip("PyTorch names the device in the type (CUDABoolType)")
    fn, words = PUT_ERRORS[case]
    same_error(fn, words)


def test_index_put_masked_fill_converts_the_value():
    same(lambda lib: _x(lib, 3).index_put((lib.tensor([True, False, True]),), lib.tensor(7, dtype=lib.long)))


WARNINGS = {
    "uint8 mask": (
        lambda lib: _x(lib, 3)[lib.tensor([1, 0, 1], dtype=lib.uint8)],
        "indexing with dtype torch.uint8 is now deprecated",
    ),
    "list read as a tuple": (
        lambda lib: _x(lib, 2, 3)[[0, slice(None)]],
        "Using a non-tuple sequence for multidimensional indexing is deprecated",
    ),
    "list read as a tuple in setitem": (
        lambda lib: _set(_x(lib, 2, 3), [[0, 1], [1, 0]], 5.0),
        "Using a non-tuple sequence",
    ),
}


@pytest.mark.parametrize("case", WARNINGS)
def test_warnings_as_pytorch(case):
    fn, words = WARNINGS[case]
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn(lib)
        assert [w.category for w in caught if words in str(w.message)] == [UserWarning], (
            lib,
            [str(w.message) for w in caught],
        )


# ------------------------------------------------- search, sort and selection ops (a second fuzz)
# The same kind of fuzzer over sort/argsort/topk/kthvalue/median/mode/unique/searchsorted/
# bucketize/histc/bincount/max/min/cummax/where/nonzero and the setitem values (numbers of every
# kind into every dtype), with ties, NaN, empty and 0-d tensors.
nan = float("nan")

SEARCH_LAYOUTS = {
    # topk's results are new row-major tensors, also along dims of size 1
    "topk along dim 0, with ties": lambda lib: tuple(
        lib.tensor([[1.0, 1, 2, 2], [1, 1, 2, 2], [0, 3, 3, 0]]).topk(2, 0)
    ),
    "topk of one along the last dim": lambda lib: tuple(_x(lib, 3, 4).topk(1)),
    # unique(dim=) lays the distinct slices out row-major, then moves them back into place
    "unique along the last dim": lambda lib: lib.tensor([[1.0, 1, 2, 2], [0, 2, 0, 1], [2, 2, 0, 2]]).unique(dim=-1),
    "unique_consecutive along the last dim": lambda lib: lib.unique_consecutive(_x(lib, 2, 3, 4).remainder(2), dim=-1),
    "unique along an empty dim": lambda lib: _x(lib, 2, 0, 4).unique(dim=1),
    # an index read gives a new row-major tensor, also along dims of size 1
    "a bool key after a slice": lambda lib: _x(lib, 2)[0:, True],
    "an index after a slice of one": lambda lib: _x(lib, 3, 1, 4)[1, -1:, [3, -1]],
}


@pytest.mark.parametrize("case", SEARCH_LAYOUTS)
def test_search_results_laid_out_as_pytorch(case):
    same_layout(SEARCH_LAYOUTS[case])


SEARCHES = {
    # NaN compares False: PyTorch's std::sort of the slices leaves them (and equal ones) apart
    "unique slices with NaN": lambda lib: lib.tensor([[1.0], [nan], [0.0], [2.0], [nan], [1.0], [0.0]]).unique(
        dim=0, return_inverse=True, return_counts=True
    ),
    "unique rows with NaN": lambda lib: lib.tensor([[1.0, nan], [0.0, 1.0], [1.0, 0.0], [1.0, nan]]).unique(dim=0),
    "searchsorted in empty rows": lambda lib: lib.searchsorted(lib.zeros(3, 0), _x(lib, 3, 4)),
    "bincount of nothing, weighted: int64 zeros": lambda lib: lib.bincount(
        lib.tensor([], dtype=lib.long), weights=lib.ones(0), minlength=3
    ),
    "kthvalue of a 0-d bool": lambda lib: tuple(lib.tensor(True).kthvalue(1)),
    "where with a uint8 condition": lambda lib: lib.where(lib.tensor([2, 0], dtype=lib.uint8), _x(lib, 2), -1.0),
}


@pytest.mark.filterwarnings("ignore:where received a uint8 condition tensor")
@pytest.mark.parametrize("case", SEARCHES)
def test_searches_as_pytorch(case):
    same(SEARCHES[case])


def test_sort_given_stable_is_the_stable_overload():
    def run(lib):
        x = _x(lib, 3, requires_grad=True)
        return [type(x.sort(**stable).values.grad_fn).__name__ for stable in ({}, {"stable": False}, {"stable": True})]

    assert same(run) == ["SortBackward0", "SortBackward1", "SortBackward1"]


def test_where_warns_of_a_uint8_condition(monkeypatch):
    monkeypatch.setattr(minigrad.functions, "_warned_uint8_condition", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.where(minigrad.tensor([1, 0], dtype=minigrad.uint8), 1.0, 2.0)
        minigrad.where(minigrad.tensor([1, 0], dtype=minigrad.uint8), 1.0, 2.0)  # (once, as PyTorch)
    assert [str(w.message) for w in caught] == [
        "where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future "
        "version of PyTorch. Use a boolean condition instead."
    ]


def _uint8(lib, *values):
    return lib.tensor(list(values), dtype=lib.uint8)


SEARCH_ERRORS = {
    # histc checks its bins and range before it finds no kernel for integers
    "histc: bins of an integer tensor": (lambda lib: lib.histc(lib.tensor([1, 2]), 0), "bins must be > 0"),
    "histc: range of an integer tensor": (
        lambda lib: lib.histc(lib.tensor([1, 2]), 3, 2, 1),
        "max must be larger than min",
    ),
    "histc: a range past uint8": (
        lambda lib: lib.histc(_uint8(lib, 1, 2), 3, -1, 1),
        "value cannot be converted to type uint8_t",
    ),
    "histc: an empty uint8 tensor widens its range below 0": (
        lambda lib: lib.histc(_uint8(lib), 4),
        "value cannot be converted to type uint8_t without overflow",
    ),
    "histc: a bool tensor": (lambda lib: lib.histc(lib.tensor([True]), 3, 0, 2), "linspace_"),  # (before histogram's)
    "histc: a range not finite comes first": (
        lambda lib: lib.histc(_x(lib, 2), 3, float("inf"), 1),
        "range of [inf, 1] is not finite",
    ),
    "searchsorted: a sorter index out of range": (
        lambda lib: lib.searchsorted(_x(lib, 3), _x(lib, 2), sorter=lib.tensor([0, 1, 3])),
        "torch.searchsorted(): sorter index out of range",
    ),
    "where: an int8 condition": (
        lambda lib: lib.where(lib.tensor([1, 0], dtype=lib.int8), 1.0, 2.0),
        "where expected condition to be a boolean tensor, but got a tensor with dtype Char",
    ),
    # a slice is read as Python reads it, then its step checked, before the 0-d error
    "a reversed slice of a 0-d tensor": (lambda lib: lib.tensor(1.0)[::-1], "step must be greater than zero"),
    "a slice step of 0 on a 0-d tensor": (lambda lib: lib.tensor(1.0)[::0], "slice step cannot be zero"),
    "a float slice step": (lambda lib: _x(lib, 3)[::-1.5], "slice indices must be integers or None"),
    # index_put's leaf error comes before its count of indices
    "set: a leaf, an index past the end after two ellipses": (
        lambda lib: _set(_x(lib, 3, 1, requires_grad=True), (..., ..., lib.tensor([0])), 0.0),
        "a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    # numbers that do not fit the dtype, where PyTorch converts them with a check
    "where: an int past uint8": (
        lambda lib: lib.where(lib.tensor([True, False]), _uint8(lib, 1, 0), 300),
        "uint8_t without overflow",
    ),
    "where: an int past int8 first": (
        lambda lib: lib.where(lib.tensor([True]), -129, lib.tensor([1], dtype=lib.int8)),
        "int8_t",
    ),
    "masked_fill: a 0-d tensor past uint8": (
        lambda lib: _uint8(lib, 1, 0).masked_fill(lib.tensor([True, False]), lib.tensor(300)),
        "value cannot be converted to type uint8_t without overflow",
    ),
    "masked_fill_: a float past float16": (
        lambda lib: lib.zeros(2, dtype=lib.float16).masked_fill_(lib.tensor([True, False]), lib.tensor(1e10)),
        "value cannot be converted to type c10::Half without overflow",
    ),
    "index_fill: a 0-d tensor past int8": (
        lambda lib: lib.zeros(2, dtype=lib.int8).index_fill(0, lib.tensor([1]), lib.tensor(255)),
        "value cannot be converted to type int8_t without overflow",
    ),
    "set: a number past uint8": (lambda lib: _set(_uint8(lib, 1, 0), 0, 256), "uint8_t without overflow"),
    "set: a number past uint8, even with a False key": (lambda lib: _set(_uint8(lib, 1, 0), False, 256), "uint8_t"),
    "set: inf into int32 under a mask": (
        lambda lib: _set(lib.zeros(2, dtype=lib.int32), lib.tensor([True, False]), float("inf")),
        "value cannot be converted to type int without overflow",
    ),
    "set: a big float into uint8": (lambda lib: _set(_uint8(lib, 1), [0], 1e10), "uint8_t without overflow"),
    "set: a NumPy integer past uint8": (lambda lib: _set(_uint8(lib, 1), 0, np.int64(300)), "uint8_t without overflow"),
    "set: a 0-d tensor past int8 under a mask": (
        lambda lib: _set(lib.zeros(2, dtype=lib.int8), lib.tensor([True, False]), lib.tensor(200)),
        "value cannot be converted to type int8_t without overflow",
    ),
    # values that are neither tensors nor numbers
    "set: a list": (
        lambda lib: _set(_x(lib, 3), lib.tensor([True, False, True]), [1.0, 2.0]),
        "can't assign a list to a",
    ),
    "set: a NumPy array": (lambda lib: _set(_x(lib, 3), 0, np.ones(1)), "can't assign a numpy.ndarray to a"),
    "set: a NumPy bool": (lambda lib: _set(_x(lib, 3), 0, np.bool_(True)), "can't assign a numpy.bool to a"),
    "set: a NumPy float32": (
        lambda lib: _set(_x(lib, 3), slice(None), np.float32(1)),
        "can't assign a numpy.float32 to a",
    ),
    "set: None, even with a False key": (lambda lib: _set(_x(lib, 3), False, None), "can't assign a NoneType to a"),
}


@pytest.mark.parametrize("case", SEARCH_ERRORS)
def test_search_and_value_errors_as_pytorch(case):
    fn, words = SEARCH_ERRORS[case]
    same_error(fn, words)


def test_an_index_saved_for_backward_keeps_its_layout():
    # (a node keeps a copy of its index or condition; PyTorch's kernels read the layout of the original)
    def run(lib):
        leaf = _x(lib, 3, 4, requires_grad=True)
        x = leaf.t()
        picked = x[x.detach().argsort(-1)]
        kept = lib.where(x > 5, x, 0.0)
        (grad,) = lib.autograd.grad((kept * _x(lib, 4, 3)).sum(), x)
        return picked, grad

    same_layout(run)
