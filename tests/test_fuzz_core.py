"""Disagreements with PyTorch found by running random programs in both libraries (a differential
fuzzer over factories, math, reductions, views, indexing, in-place ops and the autograd API).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, shape, values, ``requires_grad``, ``is_leaf`` and the node names of its graph.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad, t.is_leaf, node_names(t))).same


def _leaf(lib, data, **kwargs):
    return lib.tensor(data, requires_grad=True, **kwargs)


def _grads(out, *leaves):
    """``out``, then the gradients of a fixed weighted sum of it for ``leaves`` (their values, and
    whether they are differentiable again: their own graphs may differ, see the README)."""
    lib = minigrad if isinstance(out, minigrad.Tensor) else torch
    weights = lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape) / 7 - 0.5
    grads = lib.autograd.grad((out * weights).sum(), leaves, create_graph=True)
    return out, *(g.detach() for g in grads), [g.requires_grad for g in grads]


# dtype= of a reduction casts inside its one node, as PyTorch's: no ToCopyBackward0, and the
# gradient comes back in the input's dtype.
DTYPE_REDUCTIONS = {
    "sum": lambda lib, x: x.sum(dtype=lib.float64),
    "sum over a dim": lambda lib, x: lib.sum(x, 1, True, dtype=lib.float64),
    "mean": lambda lib, x: x.mean(dtype=lib.float64),
    "mean over dims": lambda lib, x: x.mean((0, 1), dtype=lib.float64),
    "prod": lambda lib, x: x.prod(dtype=lib.float64),
    "prod over a dim": lambda lib, x: lib.prod(x, 0, dtype=lib.float64),
    "cumsum": lambda lib, x: x.cumsum(1, dtype=lib.float64),
    "cumprod": lambda lib, x: lib.cumprod(x, 0, dtype=lib.float64),
    "nansum": lambda lib, x: x.nansum(1, dtype=lib.float64),
}


@pytest.mark.parametrize("name", DTYPE_REDUCTIONS)
def test_reductions_cast_with_dtype_inside_their_node(name):
    def run(lib):
        x = _leaf(lib, [[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])
        return _grads(DTYPE_REDUCTIONS[name](lib, x), x)

    same(run)


def test_integer_reductions_with_a_floating_dtype():
    same(
        lambda lib: (
            lib.tensor([1, 2, 4]).sum(dtype=lib.float32),
            lib.tensor([1, 2, 4]).mean(dtype=lib.float64),
            lib.tensor([[True, False], [True, True]]).mean(0, dtype=lib.float32),
            lib.tensor([1, 2], dtype=lib.int32).cumsum(0, dtype=lib.float16),
        )
    )
    same_error(lambda lib: lib.tensor([1, 2]).mean(dtype=lib.int64), "mean(): could not infer output dtype")


def test_running_sums_of_0d_integers_are_int64():
    same(
        lambda lib: (
            lib.tensor(True).cumsum(0),
            lib.tensor(3, dtype=lib.int32).cumsum(-1),
            lib.tensor(3, dtype=lib.int32).cumprod(0),
            lib.tensor([1, 2], dtype=lib.int32).cumsum(0),
        )
    )


def test_requires_grad_on_a_result_is_a_no_op():
    def run(lib):
        x = _leaf(lib, [1.0, 2.0])
        y = (x * 2).requires_grad_()
        z = (x * 3).requires_grad_(True)
        (y.sum() + z.sum()).backward()
        return y, z, x.grad

    same(run)
    same_error(
        lambda lib: (_leaf(lib, [1.0]) * 2).requires_grad_(False),
        "you can only change requires_grad flags of leaf variables",
    )
    same_error(
        lambda lib: setattr(_leaf(lib, [1.0]) * 2, "requires_grad", True), "you can only change requires_grad flags"
    )


@pytest.mark.parametrize(
    "view",
    [
        lambda x: x[0],
        lambda x: x.view(3),
        lambda x: x.detach().view(3),
        lambda x: (x * 2)[1:],
        lambda x: x.detach().t(),
    ],
)
def test_detach_in_place_refuses_views(view):
    same_error(lambda lib: view(_leaf(lib, [1.0, 2.0, 3.0])).detach_(), "Can't detach views in-place")


def test_detach_in_place_still_cuts_a_tensor_that_is_not_a_view():
    def run(lib):
        x = _leaf(lib, [1.0, 2.0])
        y = x * 2
        z = y.detach_()
        return y, z is y, x.detach_(), x

    same(run)


def test_fill_and_zero_write_into_an_expanded_tensor():
    def run(lib):
        base = lib.zeros(2, 1)
        base.expand(2, 3).fill_(1.5)
        ints = lib.tensor([[1], [2]], dtype=lib.int32)
        ints.expand(-1, 3).zero_()
        other = lib.ones(1, 3)
        filled = other.expand(4, 3).fill_(-2)
        return base, ints, other, filled

    same(run)


@pytest.mark.parametrize(
    "op",
    [
        lambda lib, e: e.mul_(2),
        lambda lib, e: e.exp_(),  # an int64 tensor: the overlap is told before the dtype
        lambda lib, e: e.div_(e),
        lambda lib, e: e.copy_(lib.ones(2, 3, dtype=e.dtype)),
        lambda lib, e: e.fill_(lib.tensor(2)),  # a tensor value: PyTorch copies it in
    ],
)
def test_other_in_place_ops_refuse_an_expanded_tensor(op):
    same_error(
        lambda lib: op(lib, lib.tensor([[1], [2]]).expand(2, 3)),
        "more than one element of the written-to tensor refers to a single memory location",
    )


LAYOUTS = {
    "cat of a transposed matrix": lambda lib, x: lib.cat([x.t(), x], dim=1),
    "cat along the first dim": lambda lib, x: lib.cat([x.t(), x.t()]),
    "stack of transposed matrices": lambda lib, x: lib.stack([x.t(), x.t()], -1),
    "softmax of a permuted tensor": lambda lib, x: x.reshape(3, 1, 3).permute(2, 1, 0).softmax(-1),
    "log_softmax of a permuted tensor": lambda lib, x: x.reshape(1, 3, 3).permute(0, 2, 1).log_softmax(dim=1),
    "masked_fill of a permuted tensor": lambda lib, x: (p := x.reshape(3, 1, 3).permute(2, 1, 0)).masked_fill(
        p > 0.5, -1.0
    ),
    "masked_fill with a 0-d tensor": lambda lib, x: x.t().masked_fill(x > 0.5, lib.tensor(2.0)),
    "cumsum of a transposed matrix": lambda lib, x: x.t().cumsum(0),
    "cumprod of a transposed matrix": lambda lib, x: x.mT.cumprod(1),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_results_laid_out_row_major_take_views(name):
    """PyTorch's cat, stack, softmax, masked_fill and running sums write a contiguous result
    whatever their inputs' layout, so ``view`` works on it and ``reshape`` records a
    ``ViewBackward0``."""

    def run(lib):
        x = _leaf(lib, [[1.0, -2.0, 0.5], [3.0, 0.25, -1.0], [0.0, 1.0, 2.0]])
        out = LAYOUTS[name](lib, x)
        return out, out.is_contiguous(), out.view(-1), out.reshape(out.numel(), 1), _grads(out.view(-1), x)[1]

    same(run)


@pytest.mark.parametrize(
    "bounds",
    [
        lambda b: {"max": b},
        lambda b: {"min": b},
        lambda b: {"min": b, "max": b + 1},
    ],
)
def test_clamp_with_a_wider_tensor_bound_differentiates(bounds):
    def run(lib):
        x = _leaf(lib, [[0.0, -1.0]])
        b = _leaf(lib, [[[-0.5, 0.0]], [[-0.3, -2.0]]])
        return _grads(lib.clamp(x, **bounds(b)), x, b)

    same(run)


def test_copy_from_another_dtype_records_no_cast():
    def run(lib):
        src = _leaf(lib, [1.5, -2.0, 0.5], dtype=lib.float64)
        into = lib.zeros(2, 3)
        into.copy_(src * 2)
        part = lib.zeros(2, 3)
        part[0, ::2] = src[:1]
        grads = lib.autograd.grad(into.sum() + 3 * part.sum(), src, create_graph=True)
        return into, part, grads[0]

    same(run)


INDEX_SELECT_ERRORS = {
    "past the end of a vector": (
        lambda lib: lib.ones(3).index_select(0, lib.tensor([3])),
        IndexError,
        "index out of range in self",
    ),
    "negative": (lambda lib: lib.ones(3).index_select(0, lib.tensor([-1])), IndexError, "index out of range in self"),
    "the first dim of a matrix": (
        lambda lib: lib.ones(2, 3).index_select(0, lib.tensor([5])),
        IndexError,
        "index out of range in self",
    ),
    "the last dim of a 3-d tensor": (
        lambda lib: lib.ones(2, 3, 4).index_select(2, lib.tensor([4])),
        IndexError,
        "index out of range in self",
    ),
    "the columns of a matrix": (
        lambda lib: lib.ones(2, 3).index_select(1, lib.tensor([3])),
        RuntimeError,
        "INDICES element is out of DATA bounds",
    ),
    "an empty vector": (
        lambda lib: lib.ones(0).index_select(0, lib.tensor([0])),
        IndexError,
        "index out of range in self",
    ),
    "an empty dim": (
        lambda lib: lib.ones(0, 3).index_select(0, lib.tensor([0])),
        RuntimeError,
        "self indexing axis dim should be positive",
    ),
}


@pytest.mark.parametrize("name", INDEX_SELECT_ERRORS)
def test_index_select_out_of_range_raises_as_torch(name):
    run, kind, words = INDEX_SELECT_ERRORS[name]
    assert isinstance(same_error(run, words), kind)


def test_index_select_of_nothing_from_an_empty_dim():
    same(
        lambda lib: (
            lib.ones(3, 0).index_select(0, lib.tensor([0, 2])),
            lib.ones(0, 3).index_select(0, lib.tensor([], dtype=lib.int64)),
        )
    )


@pytest.mark.parametrize(
    "product", [lambda x: x.prod(), lambda x: x.prod(1, keepdim=True), lambda x: x.prod(0, dtype=x.dtype)]
)
def test_a_product_changed_in_place_cannot_be_differentiated(product):
    """PyTorch's ProdBackward nodes save their result, so an in-place change of it raises in backward."""

    def run(lib):
        y = product(_leaf(lib, [[1.5, -2.0], [3.0, 0.5]]))
        y.mul_(2)
        y.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_floor_division_has_an_edge_only_for_inputs_that_require_grad():
    """PyTorch's NotImplemented node leaves out a number, or a tensor that does not require grad."""

    def run(lib):
        x = _leaf(lib, [1.5, -2.5, 7.0])
        ints = lib.tensor([7, -3, 0])
        return (
            x // 2,
            2 // x,
            x // x,
            x // 0.5,
            3.5 // x,
            lib.floor_divide(x, -1),
            ints // 2,
            ints // 2.5,
            9 // lib.tensor([2, -4, 5]),
            lib.tensor([True, False]) // 2,
            [
                len((x // 2).grad_fn.next_functions),
                len((2 // x).grad_fn.next_functions),
                len((x // x).grad_fn.next_functions),
                len((lib.tensor([1, 2, 3]) // x).grad_fn.next_functions),
                len((x // lib.tensor([[1.0], [2.0]])).grad_fn.next_functions),
            ],
            lib.tensor(3) // x,
            x // lib.tensor([[1.0], [-2.0]]),
        )

    same(run)
    same_error(lambda lib: lib.tensor([7, 1]) // 0, "ZeroDivisionError")
    same_error(lambda lib: 5 // lib.tensor([0, 1]), "ZeroDivisionError")
    same_error(
        lambda lib: (_leaf(lib, [1.5]) // 2).sum().backward(), "derivative for aten::floor_divide is not implemented"
    )


def test_a_value_that_does_not_fit_a_masked_place_raises_as_torch():
    def run(lib):
        x = lib.zeros(2, 4)
        x[lib.tensor([True, True]), -1] = lib.ones(2, 2)

    same_error(run, "shape mismatch: value tensor of shape [2, 2] cannot be broadcast to indexing result of shape [2]")


def test_masked_fill_of_a_permuted_tensor_outside_the_graph_is_row_major():
    def run(lib):
        p = lib.arange(9.0).reshape(3, 1, 3).permute(2, 1, 0)
        out = p.masked_fill(p > 4, -1.0)
        return out, out.is_contiguous(), out.view(-1)

    same(run)


def test_index_select_of_a_0d_tensor_is_one_node_and_a_copy():
    def run(lib):
        x = _leaf(lib, 2.0)
        picked = [x.index_select(0, lib.tensor([0])), lib.index_select(x, 0, lib.tensor(0))]
        changed = x.index_select(-1, lib.tensor([0]))
        changed.add_(1.0)  # a copy: x stays as it is
        return (*picked, changed, x, _grads(picked[0] * picked[1], x)[1])

    same(run)


@pytest.mark.parametrize("spec", [".3f", ">10", ""])
def test_format_of_tensors_and_parameters(spec):
    def run(lib):
        out = []
        for t in (lib.tensor([1.0, 2.0]), lib.nn.Parameter(lib.tensor(1.0)), lib.tensor(1.5)):
            try:
                out.append(format(t, spec))
            except TypeError as error:
                out.append(str(error))
        return out

    assert run(minigrad) == run(torch)
