"""Disagreements with PyTorch found by a second round of random programs run in both libraries
(type promotion, indexing, views and in-place ops, reductions, the newer functions and the random
functions).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, shape, values, ``requires_grad``, ``is_leaf``, ``_version`` and the node names of its graph.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(
    lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad, t.is_leaf, t._version, node_names(t))
).same


def _exact(t) -> list:
    return t.detach().cpu().double().flatten().tolist()


same_bits = Oracle(lambda t: (str(t.dtype), tuple(t.shape), _exact(t))).same


def test_floor_divide_assignment_is_in_place():
    def run(lib):
        a = lib.tensor([7, -7, 5])
        alias = a
        a //= lib.tensor([2, 2, -3])
        return a, alias, a is alias

    assert same(run)[-1] is True
    same_error(
        lambda lib: lib.tensor([1, 2]).__ifloordiv__(lib.tensor([1.5, 2.0])), "can't be cast to the desired output type"
    )


def test_negative_numbers_wrap_into_unsigned_tensors():
    u8 = lambda lib: lib.tensor([0, 5, 1], dtype=lib.uint8)  # noqa: E731
    same(
        lambda lib: (
            u8(lib) % -2,
            lib.remainder(u8(lib), -1),
            u8(lib).fmod_(-1),
            u8(lib).clamp(-1, 3),
            u8(lib).fill_(-1),
            lib.full((2,), -1, dtype=lib.uint8),
            lib.tensor([1, 2]).fill_(2.7),
        )
    )


REDUCTIONS_OVER_NO_DIMS = {
    "sum": lambda lib, x: x.sum(dim=()),
    "sum keepdim": lambda lib, x: lib.sum(x, [], keepdim=True),
    "mean": lambda lib, x: x.mean(dim=[]),
    "nansum": lambda lib, x: lib.nansum(x, dim=()),
    "nanmean": lambda lib, x: x.nanmean(dim=(), keepdim=True),
    "var": lambda lib, x: x.var(dim=()),
    "std": lambda lib, x: lib.std(x, dim=[], correction=0),
    "var_mean": lambda lib, x: lib.var_mean(x, dim=())[0],
    "norm": lambda lib, x: x.norm(dim=()),
    "amax": lambda lib, x: x.amax(dim=[]),
    "amin": lambda lib, x: lib.amin(x, [], keepdim=True),
}


@pytest.mark.parametrize("name", REDUCTIONS_OVER_NO_DIMS)
def test_an_empty_dim_list_reduces_every_dim(name):
    def run(lib):
        x = lib.tensor([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]], requires_grad=True)
        out = REDUCTIONS_OVER_NO_DIMS[name](lib, x)
        if name in ("var", "std", "var_mean"):  # PyTorch's backward counts 1 element there (its bug)
            return out
        return out, lib.autograd.grad(out.sum(), x)[0]

    same(run)


def test_count_nonzero_over_no_dims_counts_all():
    same(
        lambda lib: (
            lib.count_nonzero(lib.tensor([[0, 1, 2], [3, 0, 0]]), dim=()),
            lib.tensor([[0, 1]]).count_nonzero([]),
        )
    )


def test_an_integer_dtype_for_sums_and_products_is_kept():
    same(
        lambda lib: (
            lib.ones(2, 3).cumsum(0, dtype=lib.int32),
            lib.tensor([1, 2, 3]).cumprod(0, dtype=lib.int16),
            lib.ones(2, 3).sum(dtype=lib.int32),
            lib.ones(2, 3).sum(1, dtype=lib.int8),
            lib.tensor([2, 3]).prod(dtype=lib.int32),
            lib.ones(2, 3).prod(0, dtype=lib.int32),
            lib.nansum(lib.ones(2), dtype=lib.int16),
        )
    )
    x = lambda lib: lib.ones(2, 3, requires_grad=True)  # noqa: E731
    same_error(lambda lib: x(lib).sum(dtype=lib.int64), "Autograd not support dtype: Long")
    same_error(lambda lib: x(lib).cumsum(0, dtype=lib.int32), "Autograd not support dtype: Int")
    same_error(lambda lib: lib.prod(x(lib), 1, dtype=lib.int16), "Autograd not support dtype: Short")


def test_nanmean_refuses_an_integer_dtype():
    same_error(lambda lib: lib.tensor([1.0, 2.0]).nanmean(dtype=lib.int64), "nanmean(): could not infer output dtype")


def test_one_dim_only_reductions_refuse_dim_tuples():
    x = lambda lib: lib.ones(2, 3)  # noqa: E731
    same_error(lambda lib: x(lib).prod(dim=(0,)), "prod()")
    same_error(
        lambda lib: lib.prod(x(lib), dim=[0, 1], dtype=lib.float64), "prod(): argument 'dim' must be int, not list"
    )
    same_error(lambda lib: x(lib).aminmax(dim=(0,)), "aminmax(): argument 'dim' must be int, not tuple")
    same_error(lambda lib: lib.aminmax(x(lib), dim=[]), "aminmax(): argument 'dim' must be int, not list")


def test_functions_of_two_tensors_refuse_numbers():
    x = lambda lib: lib.tensor([1.0, -2.0])  # noqa: E731
    same_error(lambda lib: lib.maximum(x(lib), 2.0), "maximum(): argument 'other'", "must be Tensor, not float")
    same_error(lambda lib: lib.minimum(x(lib), 1), "minimum(): argument 'other'", "must be Tensor, not int")
    same_error(
        lambda lib: lib.logical_and(x(lib), False), "logical_and(): argument 'other'", "must be Tensor, not bool"
    )
    same_error(lambda lib: lib.logical_or(x(lib), 1), "logical_or(): argument 'other'", "must be Tensor, not int")
    same_error(lambda lib: lib.isclose(x(lib), True), "isclose(): argument 'other'", "must be Tensor, not bool")


def test_isclose_needs_one_dtype():
    same_error(lambda lib: lib.isclose(lib.ones(2), lib.ones(2, dtype=lib.float64)), "Float did not match Double")
    same_error(
        lambda lib: lib.isclose(lib.ones(2, dtype=lib.int16), lib.ones(2, dtype=lib.int64)), "Short did not match Long"
    )
    same(lambda lib: lib.isclose(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.1])).tolist())


def test_a_bare_slice_of_a_0d_tensor():
    same_error(lambda lib: lib.tensor(1.0)[:], "slice() cannot be applied to a 0-dim tensor")
    same_error(lambda lib: lib.tensor(1.0)[1:], "slice() cannot be applied to a 0-dim tensor")

    def assign(lib):
        lib.tensor(1.0)[:] = 2

    same_error(assign, "slice() cannot be applied to a 0-dim tensor")
    same_error(lambda lib: lib.tensor(1.0)[:, None], "too many indices for tensor of dimension 0")


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_uniform_draws_are_pytorchs_bits(dtype):
    def run(lib):
        lib.manual_seed(189)
        d = getattr(lib, dtype)
        out = [lib.empty(40, dtype=d).uniform_(lo, hi) for lo, hi in ((-2, 3), (0.1, 0.3), (-1.3, 2.7), (1e-3, 7.5))]
        return out, lib.rand(20, dtype=d), lib.rand_like(lib.zeros(3, 2, dtype=d))

    same_bits(run)
    # a half draw that rounds up to the upper bound becomes the lower one, as in PyTorch
    same_bits(lambda lib: (lib.manual_seed(68), lib.rand(7, dtype=lib.float16))[1])


def test_bernoulli_results_are_fresh_tensors():
    def run(lib):
        lib.manual_seed(3)
        p = lib.full((5,), 0.4)
        return lib.bernoulli(p), lib.bernoulli(p, 0.7), p.bernoulli()

    same(run)


BOOL_KEYS = {
    "False, then an int": lambda x: x[False, 1],
    "an int, then True": lambda x: x[1, True],
    "True alone": lambda x: x[True],
    "with a list and a slice": lambda x: x[[0, 1], True, 1:3],
    "after an index list": lambda x: x[:, [0], False],
    "with None": lambda x: x[False, None, :2, 1],
    "a 0-d bool tensor": lambda x: x[x[0, 0, 0] > -1, 1],
    "two": lambda x: x[True, True],
}


@pytest.mark.parametrize("name", BOOL_KEYS)
def test_a_bool_in_an_index_is_a_new_dim(name):
    """As in PyTorch: a new dim (UnsqueezeBackward0), indexed by [0] for True or [] for False."""

    def run(lib):
        x = lib.arange(24.0).reshape(2, 3, 4).requires_grad_()
        out = BOOL_KEYS[name](x * 1)
        return out, lib.autograd.grad(out.sum(), x)[0]

    same(run)


def test_assigning_through_a_bool():
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()
        a, b = x * 1, x * 1
        a[1, True] = 7.5
        b[False] = lib.ones(5)  # PyTorch does nothing here: no check, no node
        return a, b

    same(run)


def test_an_index_out_of_bounds_names_the_dimension():
    same_error(lambda lib: lib.ones(2, 3)[[0, 2], [0, 1]], "index 2 is out of bounds for dimension 0 with size 2")

    def assign(lib):
        lib.ones(2, 3)[[0], [5]] = 1.0

    same_error(assign, "index 5 is out of bounds for dimension")


@pytest.mark.parametrize("size", [0, 1])
def test_trapezoids_with_sample_points_of_no_steps(size):
    def run(lib):
        y = lib.zeros(size, dtype=lib.float64, requires_grad=True)
        x = lib.arange(float(size), dtype=lib.float64)
        out = lib.cumulative_trapezoid(y, x=x)
        return out, lib.autograd.grad(out.sum(), y)[0], lib.trapezoid(y, x=x).tolist()

    same(run)


def test_select_out_of_range():
    same_error(
        lambda lib: lib.ones(2, 3).select(1, 5),
        "select(): index 5 out of range for tensor of size [2, 3] at dimension 1",
    )
    same_error(lambda lib: lib.ones(1, 0).select(-1, -1), "select(): index -1 out of range")
    same_error(lambda lib: lib.tensor(1.0).select(0, 0), "select() cannot be applied to a 0-dim tensor")
    same(lambda lib: lib.ones(2, 3).select(-1, -3))


@pytest.mark.parametrize("op", ["add_", "relu_", "exp_"])
def test_leaf_errors_come_before_overlap_errors(op):
    """PyTorch's autograd layer checks leaves and views before its kernels check for overlap."""
    args = [1] if op == "add_" else []
    same_error(
        lambda lib: getattr(lib.ones(1, 4, requires_grad=True).expand(3, 4), op)(*args), "a view of a leaf Variable"
    )
    same_error(lambda lib: lib.ones(1, 4).expand(3, 4).mul_(2), "unsupported operation: more than one element")


def test_index_put_checks_the_shape_before_the_dtype():
    same_error(
        lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0]),), lib.ones(5, dtype=lib.float64)),
        "shape mismatch: value tensor of shape [5] cannot be broadcast to indexing result of shape [1, 4]",
    )
    same_error(
        lambda lib: lib.index_put(lib.zeros(3, 4), (lib.tensor([0, 1]), lib.tensor([1, 2])), lib.ones(2, 2)),
        "shape mismatch: value tensor of shape [2, 2]",
    )
    same_error(
        lambda lib: lib.zeros(3, 4).index_put_((lib.tensor([0]),), lib.ones(4, dtype=lib.float64)),
        "Index put requires the source and destination dtypes match",
    )
