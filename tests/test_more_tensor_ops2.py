"""var_mean, std_mean, aminmax, cummax/cummin, logcumsumexp, kthvalue, mode, addmv, addr,
baddbmm, addbmm, cross/linalg.cross, matrix_power, linalg.multi_dot/chain_matmul and tensordot
against PyTorch: errors, recorded graphs (one node for both results of var_mean, std_mean and
aminmax), saved values, ties, NaN, warnings, dtypes and edge shapes.

Values, gradients and second derivatives of the common shapes are in the case table
(helpers_torch.py, the ``more2_`` cases).
"""

from __future__ import annotations

import math
import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

# Expected warnings of the edge cases (the tests of the warnings themselves record them).
pytestmark = pytest.mark.filterwarnings(
    "ignore:var_mean.*degrees of freedom",
    "ignore:Using torch.cross without specifying the dim",
    "ignore:torch.chain_matmul is deprecated",
)

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

FUNCTIONS = (
    "var_mean std_mean aminmax cummax cummin logcumsumexp kthvalue mode addmv addr baddbmm addbmm cross "
    "matrix_power chain_matmul tensordot"
).split()

NAN = float("nan")


def _x(lib, requires_grad=True):
    return lib.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


def _ties(lib, requires_grad=True):
    """Rows with repeated values (and a NaN in the last one)."""
    rows = [[1.0, 3.0, 3.0, 2.0, 1.0], [2.0, 2.0, 0.0, 0.0, 5.0], [4.0, NAN, 4.0, 1.0, NAN]]
    return lib.tensor(rows, dtype=lib.float64, requires_grad=requires_grad)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_function_and_the_method_exist_as_in_torch(name):
    assert name in minigrad.functions.__all__
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name)


def test_every_torch_function_of_minigrad_is_one_of_torch():
    # x.view, x.expand and x.sum_to_size are methods only: PyTorch has no torch.view
    assert [name for name in minigrad.functions.__all__ if not hasattr(torch, name)] == []
    assert minigrad.ones(6).view(2, 3).expand(2, 2, 3).sum_to_size(1, 3).tolist() == [[4.0, 4.0, 4.0]]


@pytest.mark.parametrize("name", ["cross", "matrix_power", "multi_dot"])
def test_the_linalg_functions_exist_as_in_torch(name):
    assert name in minigrad.linalg.__all__
    assert not hasattr(minigrad, name) or hasattr(torch, name)


# ----------------------------------------------------------------------------------------------
# var_mean, std_mean, aminmax: two results, one node
# ----------------------------------------------------------------------------------------------


def test_both_results_share_one_node_as_outputs_0_and_1():
    def run(lib):
        x = _x(lib)
        pairs = lib.var_mean(x, 1), lib.std_mean(x), lib.aminmax(x, dim=0)
        return [
            (
                a.grad_fn is b.grad_fn,
                a.output_nr,
                b.output_nr,
                node_names(a)[:2] == node_names(b)[:2],
                node_names(a)[:2],
            )
            for a, b in pairs
        ]

    same(run)


PAIRS = {
    "var_mean": lambda lib, x: lib.var_mean(x, 1),
    "var_mean of all, unbiased=False": lambda lib, x: lib.var_mean(x, False),
    "var_mean with a correction of 2, kept": lambda lib, x: lib.var_mean(x, 0, correction=2, keepdim=True),
    "std_mean": lambda lib, x: lib.std_mean(x, (0, 1)),
    "std_mean of a constant row": lambda lib, x: lib.std_mean(x[1, 2:4], 0),
    "aminmax": lambda lib, x: lib.aminmax(x),
    "aminmax along a dim, kept": lambda lib, x: x.aminmax(dim=1, keepdim=True),
    "aminmax of rows with ties": lambda lib, x: lib.aminmax(x[:2], dim=-1),
    "aminmax of all with NaN": lambda lib, x: lib.aminmax(x[2]),
}


@pytest.mark.parametrize("which", ["both", "first", "second"])
@pytest.mark.parametrize("name", PAIRS)
def test_pairs_and_their_first_and_second_derivatives_match_torch(name, which):
    """Either result alone, or both, carries a gradient; the first derivative is differentiated again."""

    def run(lib):
        x = _ties(lib)
        a, b = PAIRS[name](lib, x)
        parts = {"both": (a * a).sum() + (b * b * 3).sum(), "first": (a * a).sum(), "second": (b * b).sum()}
        (g,) = lib.autograd.grad(parts[which], x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, materialize_grads=True)
        return a, b, g, gg

    same(run)


def test_pairs_save_what_torch_saves():
    def run(lib):
        x = _x(lib)
        var, std, extremes = lib.var_mean(x, 1)[0].grad_fn, lib.std_mean(x, 0)[1].grad_fn, x.aminmax(dim=1).min.grad_fn
        return (
            var._saved_self,
            var._saved_correction,
            var._saved_keepdim,
            std._saved_self,
            std._saved_result0,
            std._saved_correction,
            extremes._saved_self,
            extremes._saved_min,
            extremes._saved_max,
            extremes._saved_keepdim,
        )

    same(run)


def test_a_pair_changed_in_place_fails_backward_as_in_torch():
    def run(lib):
        x = _x(lib)
        std, mean = lib.std_mean(x, 1)
        std.mul_(2)  # std_mean saved it
        return (mean.sum() + std.sum()).backward()

    same_error(run, "modified by an inplace operation")


def test_a_pair_backward_twice_fails_and_the_mean_alone_needs_no_saved_std():
    def twice(lib):
        v, m = lib.var_mean(_x(lib), 0)
        (v.sum() + m.sum()).backward()
        return v.sum().backward()

    same_error(twice, "backward through the graph a second time")

    def mean_only(lib):
        x = _x(lib)
        v, m = lib.var_mean(x, 0)
        v.add_(1)  # var_mean saves only self: changing its results is fine
        m.sum().backward()
        return x.grad

    same(mean_only)


def test_pairs_are_plain_tuples_or_named_min_max():
    def run(lib):
        x = _x(lib)
        found = lib.aminmax(x, dim=0)
        pair = lib.var_mean(x)
        return (
            type(pair).__name__,
            type(found).__name__,
            found.min,
            found.max,
            repr(found).startswith("torch.return_types.aminmax(\nmin=tensor("),
        )

    same(run)


def test_pairs_need_no_graph_without_grad():
    def run(lib):
        x = _x(lib, False)
        with lib.no_grad():
            inside = lib.std_mean(_x(lib), 0)
        return [t.grad_fn is None for t in (*lib.var_mean(x), *lib.aminmax(x), *inside)]

    same(run)


def test_var_mean_warns_as_torch_when_there_is_nothing_to_divide_by():
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.var_mean(lib.tensor([1.0]))
            lib.std_mean(_x(lib), 1, correction=4)
        assert [str(w.message).split(".")[0] for w in caught] == [
            "var_mean(): degrees of freedom is <= 0",
            "std_mean(): degrees of freedom is <= 0",
        ], lib


ERRORS = {
    "var_mean of integers": (lambda lib: lib.var_mean(lib.arange(3)), "var_mean only support floating point"),
    "std_mean of bools": (lambda lib: lib.std_mean(lib.tensor([True])), "std_mean only support floating point"),
    "var_mean along a missing dim": (lambda lib: lib.var_mean(_x(lib), 2), "Dimension out of range"),
    "std_mean along a dim twice": (
        lambda lib: lib.std_mean(_x(lib), (1, -1)),
        "dim 1 appears multiple times in the list of dims",
    ),
    "aminmax with a positional dim": (
        lambda lib: lib.aminmax(_x(lib), 1),
        "aminmax() takes 1 positional argument but 2 were given",
    ),
    "aminmax of nothing": (
        lambda lib: lib.aminmax(lib.ones(0)),
        "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.",
    ),
    "aminmax along an empty dim": (
        lambda lib: lib.ones(2, 0).aminmax(dim=-1),
        "aminmax: Expected reduction dim 1 to have non-zero size.",
    ),
    "aminmax along a missing dim": (lambda lib: lib.aminmax(_x(lib), dim=2), "Dimension out of range"),
}

GRAPHS = {
    "var_mean": lambda lib, x: lib.var_mean(x, 1)[0],
    "std_mean": lambda lib, x: lib.std_mean(x)[1],
    "aminmax": lambda lib, x: lib.aminmax(x, dim=0).max,
}

EDGES = {
    "var_mean of nothing": lambda lib: lib.var_mean(lib.ones(0)),
    "var_mean of a 0-d tensor": lambda lib: lib.var_mean(lib.tensor(2.0), 0),
    "std_mean with a fractional correction": lambda lib: lib.std_mean(_x(lib), correction=0.5),
    "var_mean along an empty dim": lambda lib: lib.var_mean(lib.ones(2, 0, requires_grad=True), 1),
    "aminmax of integers": lambda lib: lib.aminmax(lib.tensor([[3, -1], [2, 7]]), dim=0),
    "aminmax of bools": lambda lib: lib.aminmax(lib.tensor([True, False])),
    "aminmax of a 0-d tensor, kept": lambda lib: lib.aminmax(lib.tensor(3.0), dim=0, keepdim=True),
    "aminmax of all, kept": lambda lib: lib.aminmax(_x(lib), keepdim=True),
    "aminmax across an empty tensor": lambda lib: lib.aminmax(lib.ones(2, 0), dim=0),
    "aminmax of float16": lambda lib: lib.aminmax(lib.tensor([1.5, -2.0], dtype=lib.float16)),
}

# ----------------------------------------------------------------------------------------------
# cummax, cummin, logcumsumexp
# ----------------------------------------------------------------------------------------------


def _with_grads(lib, fn):
    """``fn(lib, x)`` (values, or ``(values, indices)``) on a leaf holding ties and NaN, the gradient
    of its values' squares summed, and the gradient of that gradient's sum (double backward)."""
    x = _ties(lib)
    out = fn(lib, x)
    picked = out[0] if isinstance(out, tuple) else out
    (g,) = lib.autograd.grad((picked * picked).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad(g.sum(), x, materialize_grads=True)
    return (*(out if isinstance(out, tuple) else (out,)), g, gg)


SCANS = {
    "cummax along rows with ties and NaN": lambda lib, x: tuple(lib.cummax(x, 1)),
    "cummin along rows with ties and NaN": lambda lib, x: tuple(x.cummin(-1)),
    "cummax down the columns": lambda lib, x: tuple(lib.cummax(x, 0)),
    "cummin of a 0-d tensor": lambda lib, x: tuple(lib.cummin(x[0, 0], -1)),
    "logcumsumexp with NaN": lambda lib, x: lib.logcumsumexp(x, 1),
    "logcumsumexp of large values": lambda lib, x: lib.logcumsumexp(x * 400 - 1000, 1),
    "logcumsumexp down the columns": lambda lib, x: x.logcumsumexp(0),
}


@pytest.mark.parametrize("name", SCANS)
def test_running_extremes_and_logcumsumexp_with_their_derivatives_match_torch(name):
    same(lambda lib: _with_grads(lib, SCANS[name]))


def test_running_extremes_and_logcumsumexp_save_what_torch_saves():
    def run(lib):
        x = _x(lib)
        running, logs = lib.cummax(x, 1).values.grad_fn, lib.logcumsumexp(x, 0).grad_fn
        return running._saved_self, running._saved_dim, running._saved_indices, logs._saved_self, logs._saved_result

    same(run)


def test_logcumsumexp_of_zero_gradients_gives_zeros_without_warnings():
    """Only the last sum is used: the other gradients are 0, whose log PyTorch's formula takes."""

    def run(lib):
        x = _x(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lib.logcumsumexp(x, 1)[:, -1].sum().backward()
        return x.grad

    same(run)


ERRORS |= {
    "cummax without a dim": (lambda lib: lib.cummax(_x(lib)), "missing 1 required positional argument"),
    "cummin along a missing dim": (lambda lib: _x(lib).cummin(2), "Dimension out of range"),
    "logcumsumexp of integers": (
        lambda lib: lib.logcumsumexp(lib.arange(3), 0),
        "\"logcumsumexp_out_cpu\" not implemented for 'Long'",
    ),
    "logcumsumexp of bools": (
        lambda lib: lib.tensor([True]).logcumsumexp(0),
        "\"logcumsumexp_out_cpu\" not implemented for 'Bool'",
    ),
    "logcumsumexp along a missing dim": (lambda lib: lib.logcumsumexp(_x(lib), -3), "Dimension out of range"),
}

GRAPHS |= {
    "cummax": lambda lib, x: lib.cummax(x, 1).values,
    "cummin": lambda lib, x: x.cummin(0).values,
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x, -1),
    "the double backward of cummax": lambda lib, x: lib.autograd.grad(
        lib.cummax(x, 1).values.exp().sum(), x, create_graph=True
    )[0],
}

EDGES |= {
    "cummax of integers": lambda lib: list(lib.cummax(lib.tensor([[1, 3, 3, 2], [0, -1, 4, 4]]), 1)),
    "cummin of integers": lambda lib: list(lib.tensor([3, 1, 1, 2]).cummin(0)),
    "cummax of bools": lambda lib: list(lib.cummax(lib.tensor([True, False, True, True]), 0)),
    "cummax of float16": lambda lib: list(lib.cummax(lib.tensor([1.0, 3.0, 3.0], dtype=lib.float16), 0)),
    "cummax of nothing": lambda lib: list(lib.cummax(lib.ones(0, 2, requires_grad=True), 0)),
    "cummin across nothing": lambda lib: list(lib.cummin(lib.ones(0, 2), 1)),
    "cummax of a 0-d tensor": lambda lib: list(lib.cummax(lib.tensor(3.0, requires_grad=True), 0)),
    "logcumsumexp with infinities": lambda lib: lib.logcumsumexp(
        lib.tensor([-float("inf"), 0.0, float("inf"), 1.0]), 0
    ),
    "logcumsumexp of nothing": lambda lib: lib.logcumsumexp(lib.ones(0, requires_grad=True), 0),
    "logcumsumexp of float16": lambda lib: lib.logcumsumexp(lib.tensor([1.0, 2.0], dtype=lib.float16), 0),
}

# ----------------------------------------------------------------------------------------------
# kthvalue, mode
# ----------------------------------------------------------------------------------------------

PICKS = {
    "kthvalue": lambda lib, x: tuple(lib.kthvalue(x, 2)),
    "kthvalue of the largest, NaN first": lambda lib, x: tuple(x.kthvalue(5, 1)),
    "kthvalue down the columns, kept": lambda lib, x: tuple(lib.kthvalue(x, 3, 0, True)),
    "kthvalue of a 0-d tensor": lambda lib, x: tuple(lib.kthvalue(x[1, 1], 1, 0)),
    "mode": lambda lib, x: tuple(lib.mode(x[:2])),
    "mode of ties, kept": lambda lib, x: tuple(x[:2].mode(-1, True)),
    "mode down the columns": lambda lib, x: tuple(lib.mode(x[:2], 0)),
}


@pytest.mark.parametrize("name", PICKS)
def test_kthvalue_and_mode_with_their_derivatives_match_torch(name):
    same(lambda lib: _with_grads(lib, PICKS[name]))


def test_kthvalue_and_mode_save_what_torch_saves():
    def run(lib):
        x = _x(lib)
        kth, common = lib.kthvalue(x, 2, 1).values.grad_fn, x.mode(0).values.grad_fn
        return (
            kth._saved_indices,
            kth._saved_keepdim,
            kth._saved_self_sym_sizes,
            kth._saved_dim,
            common._saved_indices,
        )

    same(run)


def test_mode_picks_the_smallest_most_frequent_value_at_its_last_place():
    def run(lib):
        rows = lib.tensor([[3.0, 1.0, 3.0, 1.0, 1.0, 3.0], [0.0, -0.0, 1.0, 2.0, 2.0, 0.0]])
        return list(lib.mode(rows)), list(lib.mode(lib.tensor([2, 7, 7, 2, 9]))), list(lib.mode(rows.t(), 0))

    same(run)


def test_kthvalue_among_ties_picks_the_element_torch_picks():
    """PyTorch's quickselect leaves ties in no sorted order: k = 2 of [1, 3, 3, 2, 1] is the 1.0
    at 0 (not the one at 4), k = 4 of [2, 1, 2, 1, 2] the 2.0 at 0. minigrad replays it."""

    def run(lib):
        rows = lib.tensor([[1.0, 3.0, 3.0, 2.0, 1.0], [2.0, 1.0, 2.0, 1.0, 2.0]])
        return [list(lib.kthvalue(rows, k)) for k in range(1, 6)] + [list(lib.kthvalue(rows.t(), 4, 0))]

    same(run)


def test_kthvalue_matches_torch_on_many_rows_of_ties_and_nan():
    def run(lib):
        x = lib.tensor([[float(v) for v in row] for row in _MANY_ROWS])
        x[x == 3] = NAN
        return [list(lib.kthvalue(x, k)) for k in (1, 5, 9, 16, 17)]

    same(run)


_MANY_ROWS = [[(7 * i + 3 * j * j + i * j) % (2 + i % 4) for j in range(17)] for i in range(40)]


def test_mode_with_nan_as_torch():
    """PyTorch sorts with ``<``, which NaN breaks, so its runs of equal values are split where NaN
    lands; minigrad sorts as PyTorch's kernel does, so the mode and its place agree."""
    x = [NAN, 4.0, 1.0, NAN]
    ours, theirs = minigrad.mode(minigrad.tensor(x)), torch.mode(torch.tensor(x))
    assert ours.indices.item() == theirs.indices.item() == 0 and ours.values.isnan() and theirs.values.isnan()


ERRORS |= {
    "kthvalue with k 0": (
        lambda lib: lib.kthvalue(_x(lib), 0),
        "kthvalue(): selected number k out of range for dimension 1",
    ),
    "kthvalue with k too large": (
        lambda lib: _x(lib).kthvalue(4, 0),
        "kthvalue(): selected number k out of range for dimension 0",
    ),
    "kthvalue of a 0-d tensor with k 2": (
        lambda lib: lib.kthvalue(lib.tensor(1.0), 2),
        "selected number k out of range for dimension 0",
    ),
    "kthvalue with a float k": (
        lambda lib: lib.kthvalue(_x(lib), 2.0),
        "kthvalue(): argument 'k' (position 2) must be int, not float",
    ),
    "kthvalue of bools": (
        lambda lib: lib.kthvalue(lib.tensor([True]), 1),
        "\"kthvalue_cpu\" not implemented for 'Bool'",
    ),
    "kthvalue along an empty dim": (
        lambda lib: lib.kthvalue(lib.ones(0, 2), 1, 0),
        "kthvalue(): Expected reduction dim 0 to have non-zero size.",
    ),
    "kthvalue along a missing dim": (lambda lib: lib.kthvalue(_x(lib), 1, 2), "Dimension out of range"),
    "mode along an empty dim": (
        lambda lib: lib.mode(lib.ones(2, 0)),
        "mode(): Expected reduction dim 1 to have non-zero size.",
    ),
    "mode along a missing dim": (lambda lib: _x(lib).mode(-3), "Dimension out of range"),
}

GRAPHS |= {
    "kthvalue": lambda lib, x: lib.kthvalue(x, 1).values,
    "mode": lambda lib, x: x.mode(0).values,
}

EDGES |= {
    "kthvalue of integers": lambda lib: list(lib.kthvalue(lib.tensor([[5, 1, 3], [2, 2, 0]]), 2)),
    "kthvalue with NaN": lambda lib: list(lib.kthvalue(lib.tensor([2.0, NAN, 1.0, NAN]), 3)),
    "kthvalue across nothing": lambda lib: list(lib.kthvalue(lib.ones(0, 2), 1)),
    "kthvalue of float16": lambda lib: list(lib.tensor([3.0, 1.0], dtype=lib.float16).kthvalue(1)),
    "mode of integers, kept": lambda lib: list(lib.mode(lib.tensor([[1, 2, 2], [4, 4, 3]]), 1, True)),
    "mode of bools": lambda lib: list(lib.mode(lib.tensor([True, False, True]))),
    "mode of a 0-d tensor": lambda lib: list(lib.mode(lib.tensor(3.0, requires_grad=True))),
    "mode across nothing": lambda lib: list(lib.mode(lib.ones(0, 2))),
    "mode with NaN among others": lambda lib: list(lib.mode(lib.tensor([2.0, NAN, 1.0, NAN]))),
}

# ----------------------------------------------------------------------------------------------
# addmv, addr, baddbmm, addbmm, cross, matrix_power, multi_dot, tensordot
# ----------------------------------------------------------------------------------------------


def _m(lib, *shape, dtype=None):
    return lib.arange(float(math.prod(shape)), dtype=dtype).reshape(shape)


def test_beta_0_does_not_read_the_input_as_in_torch():
    def run(lib):
        nan = lib.full((3,), NAN)
        return lib.addmv(nan, _m(lib, 3, 4), _m(lib, 4), beta=0), lib.addr(nan, _m(lib, 2), _m(lib, 3), beta=0)

    same(run)


def test_integer_products_round_beta_and_alpha_as_torch():
    def run(lib):
        i = lib.arange(12).reshape(3, 4)
        return (
            lib.addmv(lib.arange(3), i, lib.arange(4), alpha=2),
            lib.addmv(lib.arange(3), i, lib.arange(4), beta=0.5),
            lib.baddbmm(lib.ones(1, 3, 2, dtype=lib.long), i.reshape(1, 3, 4), i.reshape(1, 4, 3)[..., :2], alpha=0.5),
            lib.addr(lib.tensor([True]), lib.tensor([True, False]), lib.tensor([True])),
            lib.addr(lib.tensor([1.0]), lib.tensor([1, 2]), lib.tensor([3])),
        )

    same(run)


def test_cross_without_dim_warns_and_takes_the_first_dim_of_size_3():
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = lib.cross(_m(lib, 3, 3), _m(lib, 3, 3).exp())
        assert str(caught[0].message).startswith("Using torch.cross without specifying the dim arg is deprecated."), lib
        assert out.tolist() == lib.linalg.cross(_m(lib, 3, 3), _m(lib, 3, 3).exp(), dim=0).tolist()


def test_chain_matmul_warns_as_torch():
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.chain_matmul(_m(lib, 2, 3), _m(lib, 3, 2))
        assert str(caught[0].message).startswith("torch.chain_matmul is deprecated"), lib


def test_matrix_power_of_integers_and_batches_matches_torch():
    def run(lib):
        i = lib.arange(4).reshape(2, 2)
        return [lib.linalg.matrix_power(i, n) for n in range(7)] + [_m(lib, 2, 2, 2).matrix_power(4)]

    same(run)


def test_multi_dot_multiplies_in_the_cheapest_order_as_torch():
    def run(lib):
        a, b, c = _m(lib, 10, 2).requires_grad_(), _m(lib, 2, 10).requires_grad_(), _m(lib, 10, 3).requires_grad_()
        return node_names(lib.linalg.multi_dot([a, b, c])), node_names(lib.linalg.multi_dot([c.t(), a, b]))

    same(run)


ERRORS |= {
    "addmv of a matrix and a matrix": (
        lambda lib: lib.addmv(_v3(lib), _x(lib), _x(lib)),
        "vector + matrix @ vector expected, got 1, 2, 2",
    ),
    "addmv with an input of the wrong size": (
        lambda lib: lib.addmv(lib.ones(2), _x(lib), lib.ones(4)),
        "size mismatch, got input (2), mat (3x4), vec (4)",
    ),
    "addmv with a vector of the wrong size": (
        lambda lib: _v3(lib).addmv(_x(lib), lib.ones(5)),
        "size mismatch, got input (3), mat (3x4), vec (5)",
    ),
    "addmv of mixed dtypes": (
        lambda lib: lib.addmv(_v3(lib), _x(lib), lib.ones(4, dtype=lib.float64)),
        "addmv input tensors must have the same dtype, but got Float, Float, and Double",
    ),
    "addmv of bools": (
        lambda lib: lib.addmv(lib.ones(3, dtype=lib.bool), lib.ones(3, 4, dtype=lib.bool), lib.ones(4, dtype=lib.bool)),
        "\"addmv_impl_cpu\" not implemented for 'Bool'",
    ),
    "addmv with a list": (
        lambda lib: lib.addmv(_v3(lib), _x(lib), [1.0] * 4),
        "argument 'vec' (position 3) must be Tensor",
    ),
    "addr of a matrix": (
        lambda lib: lib.addr(_x(lib), _x(lib), lib.ones(4)),
        "addr: Expected 1-D argument vec1, but got 2-D",
    ),
    "addr with an input that does not expand": (
        lambda lib: lib.addr(lib.ones(2, 4), _v3(lib), lib.ones(4)),
        "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0",
    ),
    "addr of integers with a float beta": (
        lambda lib: lib.addr(lib.tensor([1]), lib.tensor([1, 2]), lib.tensor([3]), beta=0.5),
        "For integral input tensors, argument beta must not be a floating point number.",
    ),
    "addr of floats with a bool alpha": (
        lambda lib: lib.addr(_x(lib), _v3(lib), lib.ones(4), alpha=True),
        "Boolean alpha only supported for Boolean results.",
    ),
    "baddbmm of matrices": (
        lambda lib: lib.baddbmm(lib.ones(3, 5), _x(lib), lib.ones(4, 5)),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    "baddbmm of a 4-d batch": (
        lambda lib: lib.baddbmm(lib.ones(3, 5), lib.ones(2, 3, 4, 1), lib.ones(2, 4, 5)),
        "batch1 must be a 3D tensor",
    ),
    "baddbmm with an input that does not expand": (
        lambda lib: lib.baddbmm(lib.ones(4, 3, 5), lib.ones(2, 3, 4), lib.ones(2, 4, 5)),
        "The expanded size of the tensor (2) must match the existing size (4) at non-singleton dimension 0",
    ),
    "baddbmm of batches that do not fit": (
        lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(2, 3, 4), lib.ones(3, 4, 5)),
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].",
    ),
    "baddbmm of mixed dtypes": (
        lambda lib: lib.baddbmm(lib.ones(2, 3, 5, dtype=lib.float64), lib.ones(2, 3, 4), lib.ones(2, 4, 5)),
        "Input dtypes must be the same, got: input double, batch1: float, batch2: float",
    ),
    "addbmm of different batch counts": (
        lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(2, 3, 4), lib.ones(3, 4, 5)),
        "batch1 and batch2 must have same number of batches, got 2 and 3",
    ),
    "addbmm of matrices that do not fit": (
        lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(2, 3, 4), lib.ones(2, 3, 5)),
        "Incompatible matrix sizes for bmm (3x4 and 3x5)",
    ),
    "addbmm of mixed dtypes": (
        lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(2, 3, 4), lib.ones(2, 4, 5, dtype=lib.float64)),
        "self and mat2 must have the same dtype, but got Float and Double",
    ),
    "linalg.cross of 4-vectors": (
        lambda lib: lib.linalg.cross(_x(lib), _x(lib)),
        "linalg.cross: inputs dimension -1 must have length 3. Got 4 and 4",
    ),
    "linalg.cross of a matrix and a vector": (
        lambda lib: lib.linalg.cross(_m(lib, 3, 3), _v3(lib)),
        "linalg.cross: inputs must have the same number of dimensions.",
    ),
    "linalg.cross of mixed dtypes": (
        lambda lib: lib.linalg.cross(lib.arange(3), _v3(lib)),
        "expected scalar type Long but found Float",
    ),
    "linalg.cross along a missing dim": (
        lambda lib: lib.linalg.cross(_v3(lib), _v3(lib), dim=1),
        "Dimension out of range",
    ),
    "cross without a dim of size 3": (
        lambda lib: lib.cross(lib.ones(2, 4), lib.ones(2, 4)),
        "no dimension of size 3 in input",
    ),
    "matrix_power of a vector": (
        lambda lib: lib.linalg.matrix_power(_v3(lib), 2),
        "linalg.matrix_power: The input tensor A must have at least 2 dimensions.",
    ),
    "matrix_power of a non-square matrix": (
        lambda lib: lib.matrix_power(_x(lib), 2),
        "linalg.matrix_power: A must be batches of square matrices, but they are 3 by 4 matrices",
    ),
    "matrix_power by a float": (
        lambda lib: lib.linalg.matrix_power(_m(lib, 2, 2), 2.0),
        "linalg_matrix_power(): argument 'n' (position 2) must be int, not float",
    ),
    "matrix_power of integers by -1": (
        lambda lib: lib.linalg.matrix_power(lib.arange(4).reshape(2, 2), -1),
        "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
    ),
    "multi_dot of one matrix": (
        lambda lib: lib.linalg.multi_dot([_x(lib)]),
        "multi_dot(): expected at least 2 tensors but got 1",
    ),
    "multi_dot of matrices that do not fit": (
        lambda lib: lib.linalg.multi_dot([_x(lib), _x(lib)]),
        "multi_dot(): tensors 0 and 1 with shapes [3, 4] and [3, 4] cannot be multiplied",
    ),
    "multi_dot ending with a 3-d tensor": (
        lambda lib: lib.linalg.multi_dot([_x(lib), lib.ones(2, 4, 1)]),
        "multi_dot(): the last tensor must be 1D or 2D but got 3D",
    ),
    "multi_dot with a vector inside": (
        lambda lib: lib.linalg.multi_dot([_x(lib), lib.ones(4), lib.ones(4, 2)]),
        "multi_dot(): tensor 1 must be 2D but got 1D",
    ),
    "multi_dot of mixed dtypes": (
        lambda lib: lib.linalg.multi_dot([_x(lib), lib.ones(4, 2, dtype=lib.float64)]),
        "multi_dot(): all tensors must have be the same dtype but tensor 0 is float and tensor 1 double",
    ),
    "chain_matmul of nothing": (lambda lib: lib.chain_matmul(), "chain_matmul(): Expected one or more matrices"),
    "chain_matmul of a vector": (
        lambda lib: lib.chain_matmul(_x(lib), lib.ones(4)),
        "Tensor dimension is 1, expected 2 instead.",
    ),
    "tensordot by a negative count": (
        lambda lib: lib.tensordot(_x(lib), _x(lib), -1),
        "tensordot expects dims >= 0, but got dims=-1",
    ),
    "tensordot by too many dims": (
        lambda lib: lib.tensordot(_x(lib), _x(lib), 3),
        "tensordot expects dims < ndim_a or ndim_b, but got dims=3",
    ),
    "tensordot of dims that do not match": (
        lambda lib: lib.tensordot(_x(lib), _x(lib), 1),
        "contracted dimensions need to match, but first has size 4 in dim -1 and second has size 3 in dim 0",
    ),
    "tensordot of lists of other lengths": (
        lambda lib: lib.tensordot(_x(lib), _x(lib), ([0, 1], [0])),
        "both dimension lists should have same length",
    ),
    "tensordot of mixed dtypes": (
        lambda lib: lib.tensordot(lib.arange(6).reshape(2, 3), lib.ones(3), 1),
        "both inputs should have same dtype",
    ),
}

GRAPHS |= {
    "addmv": lambda lib, x: lib.addmv(x[:, 0], x, x[0], beta=2),
    "addr": lambda lib, x: lib.addr(x, x[:, 0], x[0]),
    "baddbmm": lambda lib, x: lib.baddbmm(x[:, :3], x.unsqueeze(0), x.t().unsqueeze(0), alpha=0.5)[0],
    "addbmm": lambda lib, x: lib.addbmm(x[:, :3], x.unsqueeze(0), x.t().unsqueeze(0)),
    "linalg.cross": lambda lib, x: lib.linalg.cross(x[:, :3], x[:, 1:]),
    "matrix_power": lambda lib, x: lib.linalg.matrix_power(x[:, :3], 6),
    "matrix_power 0": lambda lib, x: x[:, :3].matrix_power(0),
    "matrix_power -1": lambda lib, x: lib.matrix_power(x[:, :3] + lib.eye(3), -1),
    "multi_dot of vectors": lambda lib, x: lib.linalg.multi_dot([x[:, 0], x, x[0]]),
    "chain_matmul of one matrix": lambda lib, x: lib.chain_matmul(x),
    "tensordot": lambda lib, x: lib.tensordot(x, x, ([0], [0])),
    "tensordot of vectors": lambda lib, x: lib.tensordot(x[0], x[1], 1),
    "the double backward of cross": lambda lib, x: lib.autograd.grad(
        lib.linalg.cross(x[:, :3], x[:, 1:]).exp().sum(), x, create_graph=True
    )[0],
}

EDGES |= {
    "addmv of nothing": lambda lib: lib.addmv(lib.zeros(0), lib.ones(0, 4), lib.ones(4)),
    "addmv of a 0-d input": lambda lib: lib.addmv(lib.tensor(1.0), _x(lib), lib.ones(4)),
    "addr of a 0-d input": lambda lib: lib.addr(lib.tensor(2.0), lib.ones(2), lib.ones(3)),
    "addbmm of no batches": lambda lib: lib.addbmm(lib.ones(3, 5), lib.ones(0, 3, 4), lib.ones(0, 4, 5)),
    "linalg.cross of integers": lambda lib: lib.linalg.cross(lib.tensor([1, 2, 3]), lib.tensor([4, 5, 6])),
    "linalg.cross broadcast": lambda lib: lib.linalg.cross(_m(lib, 4, 3), lib.tensor([[1.0, 0.0, 0.0]])),
    "tensordot of integers": lambda lib: lib.tensordot(lib.arange(6).reshape(2, 3), lib.arange(3), 1),
    "tensordot by a tensor of dims": lambda lib: lib.tensordot(_x(lib), _x(lib), lib.tensor([[0], [0]])),
    "tensordot by zero dims": lambda lib: lib.tensordot(_v3(lib), lib.ones(2), 0),
    "matrix_power of an empty batch": lambda lib: lib.linalg.matrix_power(lib.ones(0, 2, 2), 3),
}


def _v3(lib):
    return lib.tensor([1.0, -2.0, 0.5], requires_grad=True)


# ----------------------------------------------------------------------------------------------
# The tables, run against PyTorch.
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
