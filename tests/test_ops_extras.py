"""Tensor operations checked against PyTorch: ``where`` with only a condition, the dimension that
broadcasting errors name, and how results are laid out in memory (``stride()``) when inputs are
transposed or permuted: elementwise ops with several inputs, casts, ``sort`` and the ops PyTorch
gives a row-major or an input-like result.

Each test runs the same code with ``torch`` and with ``minigrad`` (``Oracle.same``) and compares
values, dtypes, shapes and strides, or the errors (type and words).
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), t.stride(), values(t))).same


def _grid(lib, *shape, dtype=None):
    """``arange`` of ``shape``: distinct values, so that a wrong layout or order shows."""
    return lib.arange(int(np.prod(shape)), dtype=dtype or lib.float32).reshape(shape)


# ---------------------------------------------------------------------------------------------
# where(condition)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.tensor([[0, 1], [2, 0]]),
        lambda lib: lib.tensor([True, False, True]),
        lambda lib: lib.tensor(3.0),
        lambda lib: lib.tensor(0.0),
        lambda lib: lib.zeros(0, 2),
        lambda lib: _grid(lib, 2, 3).t() > 2,
    ],
)
def test_where_with_a_condition_alone_is_nonzero_as_tuple(make):
    result = same(lambda lib: lib.where(make(lib)))
    assert isinstance(result, tuple)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda lib: lib.where(lib.tensor([True]), lib.tensor(1.0)), "invalid combination of arguments"),
        (lambda lib: lib.where(lib.tensor([True]), other=lib.tensor(1.0)), "invalid combination of arguments"),
    ],
)
def test_where_with_missing_or_wrong_arguments_raises_as_torch(call, words):
    same_error(call, "where()", words)


# ---------------------------------------------------------------------------------------------
# Which dimension a broadcasting error names
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.ones(2, 3, 4) + lib.ones(3, 2, 5),
        lambda lib: lib.ones(2, 3, 4) * lib.ones(3, 2, 4, dtype=lib.float64),
        lambda lib: lib.where(lib.ones(2, 3, dtype=lib.bool), lib.ones(4, 5), lib.ones(6, 7)),
        lambda lib: lib.ones(2, 3) < lib.ones(4, 5),
        lambda lib: lib.ones(2, 3, dtype=lib.int64) & lib.ones(4, 5, dtype=lib.int64),
        lambda lib: lib.broadcast_tensors(lib.ones(2, 3), lib.ones(4, 5)),
    ],
)
def test_broadcasting_errors_name_the_last_mismatching_dimension(call):
    """PyTorch compares shapes from their last dimension: the first mismatch it meets is the last."""
    ours = same_error(call, "must match the size of tensor b")
    with pytest.raises(RuntimeError) as theirs:
        call(torch)
    assert str(ours) == str(theirs.value)


def test_broadcast_shapes_takes_what_torch_takes():
    same(lambda lib: lib.broadcast_shapes((2,), (3, 1), (1, 1, 1)))
    assert same(lambda lib: lib.broadcast_shapes(3, None, [1])) == minigrad.Size([3])
    assert type(minigrad.broadcast_shapes((2, 1), (3,))) is minigrad.Size
    assert minigrad.broadcast_shapes() == torch.broadcast_shapes() == ()
    same_error(lambda lib: lib.broadcast_shapes((2, -1), (3,)), "negative length")
    same_error(lambda lib: lib.broadcast_shapes("ab"), "")
    # PyTorch's Python function has its own words (tensor operations say "The size of tensor a ...")
    for shapes in [((2, 3, 4), (3, 2, 5)), ((3,), (4,)), ((2, 1), (3, 4, 5)), ((2, 3), 5), ((2,), minigrad.Size([4]))]:
        torch_shapes = [torch.Size(s) if isinstance(s, minigrad.Size) else s for s in shapes]
        same_error(
            lambda lib, shapes=shapes, torch_shapes=torch_shapes: lib.broadcast_shapes(
                *(shapes if lib is minigrad else torch_shapes)
            ),
            "Attempting to broadcast a dimension of length",
            "but expected shape should be broadcastable to",
        )
    ours = pytest.raises(RuntimeError, minigrad.broadcast_shapes, (2, 1), (3, 4, 5)).value
    theirs = pytest.raises(RuntimeError, torch.broadcast_shapes, (2, 1), (3, 4, 5)).value
    assert str(ours) == str(theirs)
    same_error(
        lambda lib: lib.ones(2, 3, 4) + lib.ones(3, 2, 5),
        "The size of tensor a (4) must match the size of tensor b (5)",
    )


# ---------------------------------------------------------------------------------------------
# Layouts of elementwise results: PyTorch's TensorIterator, where the first input that orders
# two dimensions decides (NumPy falls back to row-major order when inputs disagree)
# ---------------------------------------------------------------------------------------------


ELEMENTWISE_LAYOUTS = {
    "t() + contiguous": lambda lib: _grid(lib, 3, 4).t() + _grid(lib, 4, 3),
    "3-d permute + contiguous": lambda lib: _grid(lib, 2, 3, 4).permute(2, 0, 1) + _grid(lib, 4, 2, 3),
    "two permutes": lambda lib: _grid(lib, 2, 3, 4).permute(2, 0, 1) - _grid(lib, 3, 4, 2).permute(1, 2, 0),
    "sliced and transposed": lambda lib: _grid(lib, 4, 6)[:, ::2].t() + _grid(lib, 3, 4),
    "promoting int + float": lambda lib: _grid(lib, 3, 4, dtype=lib.int64).t() + _grid(lib, 4, 3),
    "bool mask * t()": lambda lib: (_grid(lib, 3, 4).t() > 4) * _grid(lib, 4, 3),
    "comparison": lambda lib: _grid(lib, 3, 4).t() < _grid(lib, 4, 3),
    "int comparison": lambda lib: _grid(lib, 3, 4, dtype=lib.int64).t() >= _grid(lib, 4, 3),
    "bitwise": lambda lib: _grid(lib, 3, 4, dtype=lib.int64).t() | _grid(lib, 4, 3, dtype=lib.int64),
    "maximum": lambda lib: lib.maximum(_grid(lib, 3, 4).t(), _grid(lib, 4, 3)),
    "pow": lambda lib: _grid(lib, 3, 4).t() ** _grid(lib, 4, 3).div(10),
    "where, transposed condition": lambda lib: lib.where(_grid(lib, 3, 4).t() > 5, _grid(lib, 4, 3), 0.0),
    "where, 0-d condition": lambda lib: lib.where(lib.tensor(True), _grid(lib, 3, 4).t(), _grid(lib, 4, 3)),
    "clamp with tensors": lambda lib: _grid(lib, 3, 4).t().clamp(_grid(lib, 4, 3), _grid(lib, 4, 3) + 3),
    "clamp_min with a tensor": lambda lib: _grid(lib, 3, 4).t().clamp_min(_grid(lib, 4, 3)),
    "lerp": lambda lib: _grid(lib, 3, 4).t().lerp(_grid(lib, 4, 3), 0.25),
    "lerp with a tensor weight": lambda lib: _grid(lib, 3, 4).t().lerp(_grid(lib, 4, 3), lib.full((4, 3), 0.5)),
}


@pytest.mark.parametrize("name", ELEMENTWISE_LAYOUTS)
def test_elementwise_results_are_laid_out_as_torch(name):
    same(ELEMENTWISE_LAYOUTS[name])


def test_a_transposed_sum_refuses_view_as_in_torch():
    for lib in (minigrad, torch):
        x = lib.ones(3, 4).t() + lib.ones(4, 3)
        assert not x.is_contiguous()
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            x.view(-1)


def test_gradients_through_a_relaid_result():
    def run(lib):
        x = _grid(lib, 3, 4).requires_grad_()
        y = _grid(lib, 4, 3).requires_grad_()
        out = x.t() * y
        (out * out).sum().backward()
        return out, x.grad, y.grad

    same(run)

    def changed_in_place(lib):  # the node saved the result before its array was laid out anew
        x = _grid(lib, 3, 4).requires_grad_()
        out = x.t() ** _grid(lib, 4, 3)
        out.add_(1)
        out.sum().backward()

    same_error(changed_in_place, "modified by an inplace operation")


# ---------------------------------------------------------------------------------------------
# Layouts of casts, sorts and the ops PyTorch lays out row-major or like their input
# ---------------------------------------------------------------------------------------------


LAID_OUT = {
    "cast of a slice": lambda lib: _grid(lib, 2, 3, 4).permute(2, 0, 1)[:, :, ::2].double(),
    "cast of an expand": lambda lib: _grid(lib, 2, 1, 3).expand(2, 4, 3).permute(2, 1, 0).long(),
    "sort": lambda lib: tuple(_grid(lib, 2, 3, 4).permute(2, 0, 1).sort(dim=1, descending=True)),
    "stable sort of a transpose": lambda lib: tuple((-_grid(lib, 3, 4)).t().sort(stable=True)),
    "sort of a slice": lambda lib: tuple(_grid(lib, 4, 6)[:, ::2].t().sort(dim=0)),
    "argsort": lambda lib: _grid(lib, 2, 3, 4).permute(1, 2, 0).argsort(dim=-1, descending=True),
    "msort": lambda lib: lib.msort(_grid(lib, 3, 4).t()),
    "flip": lambda lib: _grid(lib, 2, 3, 4).permute(2, 0, 1).flip(1),
    "roll": lambda lib: _grid(lib, 3, 4).t().roll(1, 0),
    "tril": lambda lib: _grid(lib, 2, 3, 4).permute(2, 1, 0).tril(),
    "triu": lambda lib: _grid(lib, 2, 3, 4).permute(2, 0, 1).triu(1),
    "cummax": lambda lib: tuple(_grid(lib, 3, 4).t().cummax(0)),
    "cummin": lambda lib: tuple(_grid(lib, 2, 3, 4).permute(2, 0, 1).cummin(-1)),
}


@pytest.mark.parametrize("name", LAID_OUT)
def test_results_are_laid_out_as_torch(name):
    same(LAID_OUT[name])


def test_sort_of_a_transpose_keeps_gradients_in_place():
    def run(lib):
        x = lib.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
        values, indices = x.t().sort(dim=0)
        (values * lib.arange(6.0).reshape(3, 2)).sum().backward()
        return values, indices, x.grad

    same(run)


# ---------------------------------------------------------------------------------------------
# Found by fuzzing
# ---------------------------------------------------------------------------------------------


def test_a_zero_remainder_keeps_the_sign_of_the_dividend():
    """PyTorch adjusts ``fmod``'s result, so ``-1.5 % 1.5`` is ``-0.0`` (NumPy's: ``+0.0``); the
    sign shows after a division (``1 / -0.0 == -inf``)."""

    def run(lib):
        a = lib.tensor([-1.5, 1.5, -3.0, 3.0, 0.0, -0.0, 5.0])
        b = lib.tensor([1.5, -1.5, 1.5, -1.5, 2.0, 2.0, lib.inf])
        return 1 / lib.remainder(a, b), 1 / (a % 1.5), 1 / (a.double() % -1.5)

    same(run)


@pytest.mark.parametrize(
    "call, kernel",
    [
        (lambda b: b.clamp(min=True), "clamp_min_scalar_cpu"),
        (lambda b: b.clamp(max=False), "clamp_max_scalar_cpu"),
        (lambda b: b.clamp(True, True), "clamp_scalar_cpu"),
        (lambda b: b.clamp_min(True), "clamp_min_scalar_cpu"),
        (lambda b: b.clamp_(min=True), "clamp_min_scalar_cpu"),
    ],
)
def test_clamping_a_bool_tensor_with_bool_bounds_raises_as_torch(call, kernel):
    same_error(lambda lib: call(lib.tensor([True, False])), kernel, "not implemented for 'Bool'")


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda lib: lib.matmul(lib.ones(2, 3, 3, dtype=lib.bool), lib.ones(2, 3, 3, dtype=lib.uint8)),
            "\"bmm\" not implemented for 'Bool'",
        ),
        (
            lambda lib: lib.mm(lib.ones(3, 3, dtype=lib.bool), lib.ones(3, 3, dtype=lib.uint8)),
            "but got: bool != unsigned char",
        ),
    ],
)
def test_products_of_a_bool_and_a_byte_matrix_raise_as_torch(call, words):
    same_error(call, words)
