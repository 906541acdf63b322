"""Edge cases found by running random programs in both libraries: minigrad must do what PyTorch does.

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, values, ``requires_grad``, ``is_leaf`` and grad_fn name, and snippets that backpropagate
return the gradients too.
"""

from __future__ import annotations

import math
import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402


def _grad_fn_name(t) -> str | None:
    return None if t.grad_fn is None else type(t.grad_fn).__name__


same = Oracle(lambda t: (str(t.dtype), values(t), t.requires_grad, t.is_leaf, _grad_fn_name(t))).same


def _leaf(lib, data, **kwargs):
    return lib.tensor(data, requires_grad=True, **kwargs)


def _backward(out, *leaves):
    out.sum().backward()
    return tuple(leaf.grad for leaf in leaves)


CASES = {
    # torch.any / torch.all: functions and methods, dims (tuples too), keepdim, uint8 stays uint8.
    "any and all": lambda lib: (
        lib.any(u := lib.tensor([[1, 0], [0, 0]], dtype=lib.uint8)),
        u.all(1),
        lib.any(u, 0, keepdim=True),
        lib.any(u, dim=(0, 1)),
        lib.all(lib.tensor([])),
        lib.any(lib.tensor(3.0)),
        lib.tensor([0.5, 0.0]).all(),
        lib.tensor([[True]]).any(-1),
        lib.all(_leaf(lib, [1.0, 2.0]) > 0, dim=0),
        lib.any(_leaf(lib, [1.0, 0.0])).requires_grad,
    ),
    # A 0-d tensor takes dim 0 or -1 like a 1-element vector.
    "0-d reductions and dims": lambda lib: (
        (x := _leaf(lib, 2.0)).sum(-1),
        x.sum(0, keepdim=True),
        x.mean(0),
        x.norm(dim=0),
        x.squeeze(0),
        x.transpose(0, 0),
        x.softmax(0),
        x.log_softmax(-1),
        x[()],
    ),
    "0-d softmax double backward": lambda lib: lib.autograd.grad(
        (x := _leaf(lib, 1.5)).softmax(-1) * x, [x], create_graph=True
    )[0],
    "empty softmax": lambda lib: (lib.zeros(0, 3).softmax(0), lib.zeros(0, 3).log_softmax(0)),
    # Indexing one element gives a view of it: writes through it reach the tensor.
    "element views write through": lambda lib: (
        (y := lib.tensor([1.0, 2.0])),
        y[0].fill_(5.0),
        y[1].add_(1.0),
        y,
    ),
    "element views see later writes": lambda lib: (
        (y := lib.tensor([[1.0, 2.0], [3.0, 4.0]])),
        z := y[1, 1],
        y.add_(1.0),
        z,
    ),
    "contiguous copies a transposed tensor": lambda lib: (
        (x := lib.tensor([[1.0, 2.0], [3.0, 4.0]])),
        (y := x.t().contiguous()).mul_(10.0),
        x,
        y.is_contiguous(),
        _leaf(lib, [[1.0, 2.0]]).t().contiguous(),
    ),
    "advanced index results are contiguous": lambda lib: (
        lib.zeros(2, 3)[:, [0, 1]].is_contiguous(),
        lib.arange(6.0).reshape(2, 3)[:, [0, 1]].view(4),
        lib.zeros(3)[[]],
    ),
    "sum_to_size is a sum then a view": lambda lib: (
        (x := _leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum_to_size(1, 3),
        x.sum_to_size(3),
        x.sum_to_size(2, 3) is x,
        x.expand(4, 2, 3).sum_to_size(2, 3),
    ),
    "rounding records a zero gradient": lambda lib: (
        (x := _leaf(lib, [1.5, -2.5, 0.4])).floor(),
        x.ceil(),
        x.round(),
        x.round(decimals=1),
        x.trunc(),
        lib.div(x, 2, rounding_mode="trunc"),
        lib.div(x, 0.7, rounding_mode="floor"),
        _backward(x.floor() * 3 + x.trunc() + lib.div(x, 2, rounding_mode="floor"), x),
    ),
    "rounded division": lambda lib: (
        lib.tensor([1.0, -1.0, 7.5]) // lib.tensor([0.1, 0.1, -2.0]),
        lib.div(lib.tensor([7, -7, 7]), lib.tensor([2, 2, -2]), rounding_mode="trunc"),
        lib.div(lib.tensor([7, -7, 7]), lib.tensor([2, 2, -2]), rounding_mode="floor"),
        lib.floor(lib.tensor([3, -2])),
    ),
    "integer and bool results never require grad": lambda lib: (
        (x := _leaf(lib, [1.5, -2.5])).long(),
        x.int(),
        x.bool(),
        x.to(lib.int64),
    ),
    "narrow with a negative start": lambda lib: lib.arange(4.0).narrow(0, -2, 2),
    "norm with p = -inf and p = 0": lambda lib: (
        (x := _leaf(lib, [0.7, -0.1, 0.0, 2.0])).norm(p=float("-inf")),
        x.norm(p=0),
        _backward(x.norm(p=0) + x[:2].norm(p=float("-inf")), x),
    ),
    "sign of nan is 0": lambda lib: lib.sign(lib.tensor([float("nan"), -0.0, 2.0, -3.0])),
    "in-place on empty tensors": lambda lib: (lib.zeros(0, 2).add_(1.0), (lib.zeros(0, 2) * 2).mul_(2.0)),
    # inf or nan coming from above stays where the gradient is passed on, and is 0 elsewhere.
    "clamp, maximum, minimum, relu pass inf and nan as PyTorch": lambda lib: (
        _backward((x := _leaf(lib, [-1.9, 0.2, 0.7])).clamp(-0.5, 1.0) / 0, x),
        _backward(lib.maximum(y := _leaf(lib, [-1.0, 2.0, 0.0]), lib.tensor(0.0)) / 0, y),
        _backward(lib.minimum(a := _leaf(lib, [float("nan"), 1.0]), b := _leaf(lib, [1.0, float("nan")])), a, b),
        _backward(_leaf(lib, [2.0, 2.0]).maximum(c := _leaf(lib, [2.0, 1.0])), c),
        _backward((d := _leaf(lib, [float("nan"), -1.0, 2.0])).relu(), d),
        _backward((e := _leaf(lib, [-1.0, 0.5])).clamp(lib.tensor([0.0, 0.0]), lib.tensor([1.0, 0.2])) / 0, e),
    ),
    "assigning a value with extra leading 1s": lambda lib: (
        (x := _leaf(lib, [[[0.0] * 3] * 3] * 4) * 1).__setitem__((..., -1), v := _leaf(lib, [[[1.0, 2.0, 3.0]]])),
        _backward(x, v),
    ),
    # A gradient-carrying value written into an integer or bool tensor leaves it out of the graph.
    "in-place writes into integer and bool tensors": lambda lib: (
        (b := lib.tensor([True, True, True])).__setitem__(slice(-2, 5, 2), _leaf(lib, [-1.2])),
        b,
        lib.tensor([[1, 2]]).copy_(_leaf(lib, [[1.0, 0.5]])),
    ),
    # An exponent of 0 has a zero derivative, also where the base is 0 (0 * 0**-1 would be nan).
    "pow with a zero exponent at a zero base": lambda lib: _backward(
        (x := _leaf(lib, [0.0, 2.0, 0.0])) ** lib.tensor([0.0, 1.0, 2.0]), x
    ),
    # The backward of indexing is itself recorded under PyTorch's names (double backward).
    "indexing's backward nodes": lambda lib: tuple(
        lib.autograd.grad((take(z := _leaf(lib, [1.0, 2.0, 3.0, 4.0]) * 1) ** 2).sum(), z, create_graph=True)[0]
        for take in (lambda t: t[1:3], lambda t: t[1], lambda t: t[[1, 2]])
    ),
    # reshape is a view when it can be; PyTorch names it apart when the input is not contiguous.
    "reshape views": lambda lib: (
        (x := _leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) * 1).reshape(6),
        x.t().reshape(3, 2),
        x[:, 1].reshape(2, 1),
        x.t().reshape(6),
    ),
    "sum_to_size to a number is the sum": lambda lib: (
        _leaf(lib, [[1.0, 2.0]]).sum_to_size(()),
        _leaf(lib, 3.0).sum_to_size(()),
    ),
    # Ints, slices and None in a key with index tensors are applied first, as views; the tensors
    # index what is left (NumPy would count the int as an index array and move dims first).
    "ints and index tensors in one key": lambda lib: (
        (x := _leaf(lib, [[[float(i + 4 * j + 12 * k) for i in range(4)] for j in range(3)] for k in range(2)])),
        *(
            out := (
                x[0, :, [0, 3]],
                x[:, 0, lib.tensor([1, 2])],
                x[0, None, [2, 1]],
                x[[0, 1], 1, [2, 3]],
                x[..., 0, [1]],
                x.reshape(2, 3, 2, 2)[:, 0, :, [1, 0]],
            )
        ),
        _backward(sum(o.sum() for o in out), x),
    ),
    "setitem with ints and index tensors": lambda lib: (
        (y := (x := _leaf(lib, [[[1.0] * 4] * 3] * 2)) * 1),
        y.__setitem__((0, slice(None), [0, 3]), (w := _leaf(lib, [[1.0, 2.0]] * 3)) * 2),
        y.__setitem__((1, [2, 0]), 7.0),
        y,
        _backward(y * lib.arange(24.0).reshape(2, 3, 4), x, w),
    ),
    # clamp's result type includes its bounds, as for any binary op: an int tensor with 1.5 is float.
    "clamp of integers with float bounds": lambda lib: (
        lib.clamp(lib.tensor([1, 2, 3]), min=1.5),
        lib.tensor([1, 2, 3]).clamp(max=2.5),
        lib.tensor([1, 2, 3]).clamp(1, 2),
        lib.clamp(lib.tensor([True, False]), 0),
    ),
    # An integer to a negative integer power is computed as in C (NumPy refuses).
    "integer powers with negative exponents": lambda lib: (
        lib.tensor([2, 1, -1, 0, -2, 3, -1]) ** lib.tensor([-1, -1, -1, -1, -2, -2, -2]),
        2 ** lib.tensor([-1, 2]),
        lib.tensor([3], dtype=lib.int32) ** lib.tensor([-1], dtype=lib.int32),
    ),
    # max()/min() send the gradient evenly to the ties, or to the nans when the result is nan.
    "max and min gradients with nan and inf": lambda lib: (
        _backward((x := _leaf(lib, [1.0, float("nan"), 3.0, float("nan")])).max(), x),
        lib.autograd.grad((y := _leaf(lib, [1.0, 3.0, 3.0])).min() * float("inf"), y),
    ),
    "floor division from the left": lambda lib: (
        3 // lib.tensor([-2.0, 2.0, 0.5]),
        False // lib.tensor([-2.0, 2.0]),
        True // lib.tensor([3, 1]),
        lib.tensor([1.0, 2.0]) // True,
    ),
    # cat skips 1-D empty tensors among bigger ones, but they count for the dtype and for
    # requires_grad, and get an empty gradient.
    "cat with 1-D empty tensors": lambda lib: (
        lib.cat([lib.tensor([1, 2]), lib.zeros(0)]),
        lib.cat([lib.zeros(0, dtype=lib.float64), lib.tensor([[1.0, 2.0]])]),
        lib.cat([lib.zeros(0, dtype=lib.int64), lib.zeros(0)]),
        (c := lib.cat([(e := _leaf(lib, [])), (w := _leaf(lib, [[1.0, 2.0]])), e])),
        _backward(c, e, w),
    ),
    # clamp has a (number, number) and a (tensor, tensor) form: a 0-d tensor next to a number is a number.
    "clamp with a number and a 0-d tensor": lambda lib: (
        (x := _leaf(lib, [1.9, 0.0])).clamp(0, lib.tensor(1)),
        x.clamp(lib.tensor(0.5), 1.0),
        x.clip(0.1, lib.tensor(0.5)),
    ),
    "max and min along dim 0 of a number": lambda lib: (
        *(s := _leaf(lib, 2.0)).max(0),
        *s.min(-1, keepdim=True),
        lib.autograd.grad(s.max(0)[0] * 3, s),
    ),
    "add of a bool mask with alpha": lambda lib: (
        lib.add(lib.tensor([1.5, 2.0]), lib.tensor([True, False]), alpha=-1),
        lib.tensor([1.5, 2.0]).add(lib.tensor([True, False]), alpha=2),
    ),
    # Between bools, alpha counts as True or False: the sum stays bool (a logical or).
    "add of bools with alpha": lambda lib: (
        (b := lib.tensor([True, False])).add(b, alpha=2),
        b.add(True, alpha=2),
        lib.tensor([False, False]).add(b, alpha=0),
        lib.tensor([False, True]).add(b, alpha=-1),
        lib.tensor([1, 2]).add(b, alpha=3),
        lib.tensor([1, 2], dtype=lib.int32).add(3, alpha=2),
    ),
    "sign of bools": lambda lib: lib.sign(lib.tensor([True, False])),
    # The 0-norm's gradient is undefined in PyTorch: nothing flows back, .grad stays None.
    "0-norm has no gradient": lambda lib: (
        _backward((x := _leaf(lib, [1.0, 0.0, 2.0])).norm(p=0), x),
        _backward((w := _leaf(lib, [[1.0, 0.0], [2.0, 3.0]])).norm(p=0, dim=1) + w.sum(1), w),
        lib.autograd.grad((v := _leaf(lib, 2.0)).norm(p=0), v, allow_unused=True, materialize_grads=True),
    ),
    "matrix transposes": lambda lib: (
        (x := _leaf(lib, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) * 1).mT,
        x.mH,
        x.H,
        lib.ones(2, 3, 4).mH,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    same(CASES[name])


def test_integer_division_by_zero_raises_as_torch():
    same_error(lambda lib: lib.tensor([3]) // lib.tensor([0]), "ZeroDivisionError")


def test_narrow_out_of_range_raises_as_torch():
    same_error(lambda lib: lib.arange(3.0).narrow(0, 2, 5), "exceeds dimension size")
    same_error(lambda lib: lib.arange(3.0).narrow(0, -4, 1), "start out of range")
    same_error(lambda lib: lib.arange(3.0).narrow(0, 1, -1), "length must be non-negative")


def test_sum_to_size_that_does_not_fit_raises_as_torch():
    same_error(lambda lib: lib.ones(2, 3).sum_to_size(4), "is not expandable to size")


def test_backward_from_a_view_whose_base_changed_uses_the_new_graph():
    # The view's grad_fn is made again from its base's (AsStridedBackward0): the gradient is
    # [4, 0], not the one of the view as it was taken ([1, 0]).
    def run(lib):
        w = _leaf(lib, [2.0, 3.0])
        b = w * 1
        v = b[0:1]
        b.mul_(w)
        v.backward(lib.ones(1))
        return v, w.grad

    assert same(run)[1][1] == values(torch.tensor([4.0, 0.0]))


def _chain(t) -> list[str]:
    """The node types from ``t``'s grad_fn back along first inputs."""
    names, node = [], t.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def test_keys_with_ints_and_index_tensors_record_views_then_the_index():
    def run(lib):
        x = _leaf(lib, [[[1.0] * 4] * 3] * 2)
        y = x * 1
        y[0, [1, 2]] = 5.0  # index_put_ on the view y[0]: CopySlices
        z = x * 1
        z[:, [1, 2]] = 5.0  # no view to take: IndexPutBackward0
        return [_chain(t) for t in (x[0, :, [1]], x[None, 0, [1]], x[1:, [0], 0], y, z)]

    ours, theirs = run(minigrad), run(torch)
    assert ours == theirs
    assert ours[0] == ["IndexBackward0", "SelectBackward0", "AccumulateGrad"]


def test_index_put_value_errors_as_torch():
    same_error(
        lambda lib: lib.zeros(3, dtype=lib.bool).__setitem__([0], lib.tensor(1.5)), "dtypes match", "Bool", "Float"
    )
    same_error(lambda lib: lib.zeros(3).__setitem__([0], lib.tensor(1.5, dtype=lib.float64)), "Double for the source")
    same_error(lambda lib: lib.zeros(2, 3).__setitem__(([0, 1], 0), lib.ones(3)), "shape mismatch", "[3]", "shape [2]")


ERRORS = {
    "any over a dim out of range": (lambda lib: lib.any(lib.ones(2, 2), 2), "Dimension out of range"),
    "cat of 0-d tensors": (
        lambda lib: lib.cat([lib.tensor(1.0), lib.tensor(2.0)]),
        "zero-dimensional tensor (at position 0)",
    ),
    "cat of nothing": (lambda lib: lib.cat([]), "non-empty list"),
    "argmax of nothing": (lambda lib: lib.argmax(lib.zeros(0)), "Expected reduction dim to be specified"),
    "argmin along an empty dim": (lambda lib: lib.zeros(0, 3).argmin(0), "reduction dim 0 to have non-zero size"),
    "max along an empty dim": (lambda lib: lib.zeros(0, 3).max(0), "max(): Expected reduction dim 0"),
    "bitwise of floats": (
        lambda lib: lib.tensor([1.0]) | lib.tensor([1.0]),
        "\"bitwise_or_cpu\" not implemented for 'Float'",
    ),
    "negation of bool": (lambda lib: -lib.tensor([True]), "Negation, the `-` operator, on a bool tensor"),
    "mT of a vector": (lambda lib: lib.ones(3).mT, "only supported on matrices or batches of matrices"),
    "H of a batch": (lambda lib: lib.ones(2, 2, 2).H, "Got 3-D tensor"),
    "permute without dims": (lambda lib: lib.ones(()).permute(), "missing 1 required positional"),
    "softmax of integers": (
        lambda lib: lib.tensor([[1, 2]]).softmax(0),
        "\"softmax_kernel_impl\" not implemented for 'Long'",
    ),
    "log_softmax of integers": (lambda lib: lib.tensor([1, 2]).log_softmax(0), "log_softmax_lastdim_kernel_impl"),
    "integer to a negative power": (lambda lib: lib.tensor([1, 2]) ** -1, "Integers to negative integer powers"),
    "a dim twice": (lambda lib: lib.zeros(2, 3).mean(dim=(1, -1)), "dim 1 appears multiple times"),
    "arange backwards": (lambda lib: lib.arange(3, 0), "inconsistent with step sign"),
    "eye of negative size": (lambda lib: lib.eye(2, -1), "m must be greater or equal to 0, got -1"),
    "randint of an empty range": (lambda lib: lib.randint(3, 3, (2,)), "but got from=3 >= to=3"),
    "clamp with a number and a tensor": (
        lambda lib: lib.ones(2).clamp(min=0.0, max=lib.ones(2)),
        "invalid combination of arguments",
    ),
    "narrow of a number": (lambda lib: lib.tensor(1.0).narrow(0, 0, 1), "cannot be applied to a 0-dim tensor"),
    "expand without sizes": (lambda lib: lib.zeros(2).expand(), 'missing 1 required positional arguments: "size"'),
    "copy_ that would grow the tensor": (
        lambda lib: lib.zeros(2).copy_(lib.ones(2, 2)),
        "output with shape [2] doesn't match the broadcast shape [2, 2]",
    ),
    # The dimension is counted in the broadcast shape (it was counted in the shorter shape).
    "shapes of two ranks that do not broadcast": (
        lambda lib: lib.ones(5, 2, 3) + lib.ones(4, 3),
        "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 1",
    ),
    "bitwise of shapes that do not broadcast": (
        lambda lib: lib.ones(2, 4, dtype=lib.bool) | lib.ones(4, 3, dtype=lib.bool),
        "must match the size",
    ),
    "fro norm over three dims": (
        lambda lib: lib.zeros(2, 3, 4).norm(dim=(0, 1, 2)),
        "dim must be a 2-tuple. Got 0 1 2",
    ),
    "abs of bools": (lambda lib: lib.tensor([True]).abs(), "\"abs_cpu\" not implemented for 'Bool'"),
    "floor of bools": (lambda lib: lib.tensor([True]).floor(), "floor_vml_cpu"),
    "round of bools": (lambda lib: lib.tensor([True]).round(), "round_vml_cpu"),
    "relu of bools": (lambda lib: lib.tensor([True]).relu(), "Boolean inputs not supported for relu"),
    "argmax of bools": (lambda lib: lib.tensor([True]).argmax(), "argmax(): does not support bool input"),
    "bool to a bool power": (lambda lib: lib.tensor([True]) ** lib.tensor([True]), '"pow" not implemented'),
    "amax over an empty dim": (lambda lib: lib.zeros(0, 3).amax(0), "Expected reduction dim 0 to have non-zero size"),
    "amin of nothing": (lambda lib: lib.zeros(0, 3).amin(), "Expected reduction dim to be specified"),
    "var of integers": (lambda lib: lib.tensor([1, 2]).var(), "std and var only support floating point"),
    "masked_fill with a float mask": (
        lambda lib: lib.ones(2).masked_fill(lib.ones(2), 1.0),
        "masked_fill_ only supports boolean masks, but got mask with dtype float",
    ),
    "masked_fill with a vector value": (
        lambda lib: lib.ones(2).masked_fill(lib.ones(2) > 0, lib.ones(1)),
        "only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)",
    ),
    "masked_fill_ that would grow the tensor": (
        lambda lib: lib.ones(3).masked_fill_(lib.ones(2, 3) > 0, 1.0),
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
    ),
    "flip of a dim twice": (lambda lib: lib.ones(2, 3).flip(0, 0), "dim 0 appears multiple times"),
    "binary cross-entropy of a non-probability": (
        lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([1.0])),
        "all elements of input should be between 0 and 1",
    ),
    "binary cross-entropy of other shapes": (
        lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([0.5, 0.5]), lib.tensor([1.0])),
        "that is different to the input size",
    ),
    "binary cross-entropy with logits of other shapes": (
        lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(lib.tensor([0.5, 0.5]), lib.tensor([1.0])),
        "must be the same as input size",
    ),
    "a loss weight that requires grad": (
        lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
            lib.zeros(2), lib.ones(2), pos_weight=lib.ones(2, requires_grad=True)
        ),
        "not differentiable with respect to argument 'pos_weight'",
    ),
    "remainder of bools": (lambda lib: lib.tensor([True]) % lib.tensor([True]), '"remainder_cpu" not implemented'),
    "fmod of bools": (lambda lib: lib.tensor([True]).fmod(True), "\"fmod_cpu\" not implemented for 'Bool'"),
    "integer remainder by zero": (lambda lib: lib.tensor([3, 4]) % lib.tensor([1, 0]), "ZeroDivisionError"),
    "integer fmod by zero": (lambda lib: lib.tensor([3, 4]).fmod(0), "ZeroDivisionError"),
    "backward through a number % a tensor": (
        lambda lib: (7 % lib.tensor([2.0], requires_grad=True)).sum().backward(),
        "derivative for aten::remainder is not implemented",
    ),
    "vector norm of integers": (lambda lib: lib.linalg.vector_norm(lib.tensor([1, 2])), "Expected a floating point"),
    "matrix norm of a vector": (lambda lib: lib.linalg.matrix_norm(lib.ones(3)), "must have at least 2 dimensions"),
    "matrix norm of order 3": (lambda lib: lib.linalg.norm(lib.ones(2, 2), 3), "Order 3 not supported"),
    "norm with ord of a 3-D tensor": (lambda lib: lib.linalg.norm(lib.ones(2, 2, 2), 1), "must be 1D or 2D"),
}


def test_var_with_no_degrees_of_freedom_warns_as_torch():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
            assert lib.tensor([1.0]).std().isnan()


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    run, words = ERRORS[name]
    same_error(run, words)


def test_mT_of_a_number_is_itself_with_a_warning():
    for lib in (minigrad, torch):
        x = lib.tensor(2.0)
        with pytest.warns(UserWarning, match="deprecated on 0-D tensors"):
            assert x.mT is x


KEYS = [
    "b[:]",
    "b[0:3]",
    "b[:, 0:4]",
    "b[0, 0:4]",
    "b[...]",
    "b[()]",
    "b[:, :]",
    "b[0:3, 1]",
    "b[:, 0:10]",
    "b[:, -4:]",
    "b[:, ::1]",
    "b[0:3,]",
    "b[..., 0:4]",
    "b[None, :, 0:4]",
    "b[1:, 0:4]",
    "b[0][:]",
    "b[0:3, [1]]",
]


@pytest.mark.parametrize("key", KEYS)
def test_slices_over_a_whole_dimension_take_no_view_inside_a_tuple(key):
    # PyTorch: x[a:b] alone always slices; in a tuple, a slice over the whole dimension is skipped
    # (x[:, :] is AliasBackward0, x[0:3, 1] one SelectBackward0).
    def run(lib):
        return _chain(eval(key, {"b": _leaf(lib, [[1.0] * 4] * 3) * 1}))

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("key", ["()", "...", "slice(None)", "(slice(None), slice(0, 9))", "0", "(slice(0, 3), 1)"])
@pytest.mark.parametrize("value", ["5.0", "w * 3", "(w * 3).reshape(1)", "lib.ones(4)"])
def test_setitem_fills_or_copies_as_torch(key, value):
    # A number or 0-d value is a fill_ (FillBackward3), anything else a copy_ (of a view of it
    # without leading 1s, expanded); x[...] = v and x[:] = v write into x itself, other keys
    # into a view (CopySlices).
    def run(lib):
        b = _leaf(lib, [[1.0] * 4] * 3) * 1
        w = _leaf(lib, 2.0)
        try:
            b[eval(key)] = eval(value, {"w": w, "lib": lib})
        except RuntimeError as error:  # lib.ones(4) into b[0:3, 1]
            return "expand", type(error).__name__
        b.sum().backward()
        return (
            type(b.grad_fn).__name__,
            [type(n).__name__ if n else None for n, _ in b.grad_fn.next_functions],
            b,
            w.grad,
        )

    ours, theirs = run(minigrad), run(torch)
    assert ours[:2] == theirs[:2]
    same(lambda lib: (ours if lib is minigrad else theirs)[2:])


def test_a_mask_and_one_value_fill_without_a_dtype_check():
    # PyTorch's index_put_ with one boolean mask and a one-element value is masked_fill_, which
    # converts the value; other advanced keys need the tensor's dtype.
    def run(lib):
        x = lib.zeros(1, 4, 3, dtype=lib.int64)
        x[0, 2:, lib.tensor([True, False, True])] = lib.tensor([[1.6]])
        return x

    same(run)
    same_error(
        lambda lib: lib.zeros(3, dtype=lib.int64).__setitem__(lib.tensor([0]), lib.tensor([1.5])), "dtypes match"
    )


def test_floor_division_records_a_node_without_a_derivative():
    def run(lib):
        x = _leaf(lib, [1.5, -2.5])
        return [
            type((f(x)).grad_fn).__name__ for f in (lambda x: x // 2, lambda x: 2 // x, lambda x: x.floor_divide(x))
        ]

    assert run(minigrad) == run(torch) == ["NotImplemented"] * 3
    same_error(
        lambda lib: (_leaf(lib, [1.5]) // 2).sum().backward(), "derivative for aten::floor_divide is not implemented"
    )
    same_error(lambda lib: lib.tensor([True]) // lib.tensor([True]), "\"div_floor_cpu\" not implemented for 'Bool'")
    same_error(lambda lib: lib.tensor([True]).div(True, rounding_mode="trunc"), "div_trunc_cpu")


NOT_DIFFERENTIABLE = {
    "heaviside(x, v)": lambda lib, x, w, v: lib.heaviside(x, v),
    "heaviside(v, x)": lambda lib, x, w, v: lib.heaviside(v, x),
    "heaviside(x, w)": lambda lib, x, w, v: lib.heaviside(x, w),
    "bincount(weights=w)": lambda lib, x, w, v: lib.bincount(lib.tensor([0, 1, 1]), weights=w),
    "x // v": lambda lib, x, w, v: x // v,
    "v // x": lambda lib, x, w, v: v // x,
    "x // w": lambda lib, x, w, v: x // w,
}


@pytest.mark.parametrize("name", NOT_DIFFERENTIABLE)
def test_a_node_without_a_derivative_has_edges_only_to_inputs_that_require_grad(name):
    def run(lib):
        x, w = _leaf(lib, [1.0, -1.0, 0.0]), _leaf(lib, [2.0, 3.0, 0.5])
        out = NOT_DIFFERENTIABLE[name](lib, x, w, lib.tensor([0.5, 0.5, 0.5]))
        edges = out.grad_fn.next_functions
        return [
            type(out.grad_fn).__name__,
            [(type(n).__name__, nr) for n, nr in edges],
            [n.variable is w for n, _ in edges],
        ]

    assert run(minigrad) == run(torch)


def test_a_saved_result_is_checked_even_when_no_rule_that_runs_reads_it():
    # x ** e saves its result for e's gradient; PyTorch checks it in backward also when only x
    # needs a gradient, and names the operation "Pow1" (PowBackward1).
    def run(lib):
        y = (_leaf(lib, [0.5, 1.5]) * 1) ** lib.tensor([2.0, 3.0])
        y.add_(1)
        y.sum().backward()

    same_error(run, "which is output 0 of Pow1,", "is at version 1; expected version 0")


@pytest.mark.parametrize(
    ("a", "b"), [((3,), (3, 2)), ((5, 2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 5, 2, 3), (3,)), ((3,), (5, 3, 2))]
)
def test_matmul_folds_as_torch(a, b):
    # 1-D @ 2-D squeezes in place (SqueezeBackward4, version 1); a batch times a vector or a
    # matrix is folded into one mv/mm and viewed back (UnsafeViewBackward0).
    def run(lib):
        x, y = lib.ones(a, requires_grad=True) * 1, lib.ones(b, requires_grad=True) * 1
        r = lib.matmul(x, y)
        return _chain(r)[:2], r._version, r, lib.autograd.grad((r * r).sum(), (x, y))

    ours, theirs = run(minigrad), run(torch)
    assert ours[:2] == theirs[:2]
    same(lambda lib: (ours if lib is minigrad else theirs)[2:])


def test_index_put_views_a_value_with_leading_ones():
    # x[idx] = v with v of shape (1, 2, 3) for a (2, 3) result: PyTorch views v as (2, 3) first.
    def run(lib):
        x = _leaf(lib, [[1.0] * 3] * 3) * 1
        w = _leaf(lib, [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]])
        x[[0, 1]] = w * 2
        edges = [type(n).__name__ for n, _ in x.grad_fn.next_functions]
        (x * x).sum().backward()
        return edges, x, w.grad

    ours, theirs = run(minigrad), run(torch)
    assert ours[0] == theirs[0] == ["MulBackward0", "ViewBackward0"]
    same(lambda lib: (ours if lib is minigrad else theirs)[1:])


def _edges(t) -> list:
    """The names of the nodes ``t``'s grad_fn sends gradients to (None for an input without one)."""
    return [None if n is None else n.name().replace("torch::autograd::", "") for n, _ in t.grad_fn.next_functions]


FOUND_BY_RANDOM_PROGRAMS = {
    # NumPy's maximum/minimum give the second operand on ties: relu and clamp kept +0.0 for -0.0.
    "signed zeros through relu, clamp, maximum": lambda lib: (
        1 / (z := lib.tensor([-0.0, 0.0, -1.0])).relu(),
        1 / z.clamp(0, 1),
        1 / z.clamp_min(0),
        1 / lib.maximum(lib.tensor([0.0]), lib.tensor([-0.0])),
        1 / lib.minimum(lib.tensor([-0.0]), lib.tensor([0.0])),
    ),
    # relu's gradient where it is off is +0.0 (a product with the mask gave -0.0 for a negative
    # gradient, printed as "-0."); a nan input lets the gradient through, an infinite one stays out.
    "relu's gradient where it is off": lambda lib: (
        1 / lib.autograd.grad(((x := _leaf(lib, [-1.0, -0.0, 0.0, 2.0, math.nan])).relu() * -1).sum(), x)[0],
        lib.autograd.grad(x.relu(), x, lib.tensor([math.inf, -math.inf, 1.0, -2.0, 3.0]))[0],
        lib.autograd.grad(lib.autograd.grad((x.relu() ** 2 * -1).sum(), x, create_graph=True)[0].sum(), x)[0],
    ),
    # ... and where it is on, the gradient passes bit for bit: -0.0 stays -0.0, nan stays nan.
    "relu's gradient where it is on": lambda lib: (
        1 / lib.autograd.grad((x := _leaf(lib, [1.0, 2.0, 0.0])).relu(), x, lib.tensor([-0.0, math.nan, -0.0]))[0],
        1 / lib.autograd.grad((y := _leaf(lib, [1.0, -2.0]).double()).relu(), y, -lib.zeros(2).double())[0],
    ),
    "bools to bool powers": lambda lib: ((b := lib.tensor([False, True])) ** True, b**False, b.pow(True), b**2),
    "0 to tensor powers": lambda lib: lib.autograd.grad((0.0 ** (x := _leaf(lib, [-2.0, 0.0, 1.0]))).sum(), x),
    "empty integer softmax": lambda lib: (
        lib.zeros(0, 3, dtype=lib.int64).softmax(-1),
        lib.zeros(0, dtype=lib.bool).log_softmax(0),
    ),
    "cast of an expanded tensor is contiguous": lambda lib: (
        lib.ones(1, 3, dtype=lib.float64).expand(2, 3).float().view(6),
    ),
    "empty batched products fold": lambda lib: (
        (a := _leaf(lib, lib.zeros(1, 1, 0).tolist())) @ lib.zeros(0, 3),
        lib.zeros(3) @ lib.zeros(2, 3, 0),
        _backward(a @ lib.zeros(0, 3), a),
    ),
    # PyTorch's order, -grad * (self / other / other), keeps its infs (and its rounding).
    "division's second derivative at zero": lambda lib: lib.autograd.grad(
        (
            lib.autograd.grad(
                ((a := _leaf(lib, [0.0, -1.8, 1.6, 2.0])) / (b := _leaf(lib, [-0.9, -0.0, 0.0, 1.0])) * 0.7).sum(),
                [a, b],
                create_graph=True,
            )[1]
            * 0.3
        ).sum(),
        [a, b],
    ),
    # min(dim)'s gradient goes to the chosen places only (no inf * 0 elsewhere).
    "an infinite gradient through min(dim)": lambda lib: lib.autograd.grad(
        ((m := (x := _leaf(lib, [[-1.8, 1.0], [1.4, 0.0]])).min(dim=0)).values / m.indices).sum(), x
    ),
    # PyTorch's norm_backward branch by branch: 0 at zero elements for p < 1, nan-aware for inf.
    "norm gradients at zeros": lambda lib: [
        lib.autograd.grad((x := _leaf(lib, [[0.0, -1.5], [2.0, 0.0]])).norm(p=p, **kw).sum(), x)[0]
        for p in (0.5, 1.5, 3.0, float("inf"))
        for kw in ({}, {"dim": 1})
    ],
    # grad * where(..., result * log(self)): the zero gradient of the masked branch times log(0) is nan.
    "tensor power's second derivative at a zero base": lambda lib: lib.autograd.grad(
        lib.autograd.grad((lib.tensor([0.0, 2.0]) ** (e := _leaf(lib, [0.4, 0.5]))).sum(), e, create_graph=True)[
            0
        ].sum(),
        e,
    ),
    "gradient of an empty input of cat": lambda lib: lib.autograd.grad(
        lib.cat([(v := _leaf(lib, lib.zeros(0).tolist())), (w := _leaf(lib, [1.0, 2.0]))]).exp().sum(),
        [v, w],
        create_graph=True,
    ),
    "writing into one row of an expanded tensor": lambda lib: (
        (y := (w := _leaf(lib, [1.0, 2.0, 3.0])) * 1).expand(2, 3)[0].mul_(3.0),
        y,
        _backward(y * lib.tensor([1.0, 2.0, 3.0]), w),
    ),
    # Nothing is read from an empty tensor, so PyTorch checks no index bounds.
    "indices out of range into an empty tensor": lambda lib: (
        lib.zeros(2, 0)[lib.tensor([5])],
        (lib.zeros(2, 0) > 3)[lib.tensor([[0], [0], [-2], [2]])],
    ),
    "a bool tensor clamped by one bool tensor": lambda lib: lib.tensor([True, False]).clamp(min=lib.tensor([False])),
    # PyTorch's pow_backward takes a False exponent as not 0: 0 * 0 ** -1 is nan at zero.
    "x ** False": lambda lib: _backward((x := _leaf(lib, [0.0, 2.0])) ** False, x),
    "integer division of nothing by zero": lambda lib: (
        lib.zeros(0, 3, dtype=lib.bool) // lib.tensor([0, 0, 0]),
        lib.zeros(0, dtype=lib.int64) % lib.tensor(0),
    ),
}


@pytest.mark.parametrize("name", sorted(FOUND_BY_RANDOM_PROGRAMS))
def test_found_by_random_programs_matches_torch(name):
    same(FOUND_BY_RANDOM_PROGRAMS[name])


def test_where_has_no_edge_for_its_condition():
    def run(lib):
        x, w = _leaf(lib, [1.0, -2.0, 3.0]), _leaf(lib, 0.5)
        y = lib.where(x > 0, x * 2, w)
        return _edges(y), type(y.grad_fn._saved_condition).__name__

    assert run(minigrad) == run(torch) == (["MulBackward0", "AccumulateGrad"], "Tensor")


def test_backward_stops_at_a_not_implemented_node_before_accumulating():
    # PyTorch's NotImplemented node, like AccumulateGrad, has no sequence number: pushed first, it
    # runs first and raises, so w.grad stays None.
    def run(lib):
        x, w = _leaf(lib, [[-1.5, 0.2, 0.9]]), _leaf(lib, [[1.9]])
        y = lib.where(x > 5, x // x, w)
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
            y.sum().backward()
        return w.grad

    assert run(minigrad) is None and run(torch) is None


@pytest.mark.parametrize("value", ["5.0", "lib.tensor(5.0)", "lib.tensor([5.0])"])
@pytest.mark.parametrize("shape, key", [((), "..."), ((), "()"), ((3,), "0"), ((3,), "..."), ((1,), "...")])
def test_setitem_copies_a_value_of_the_same_shape_and_fills_otherwise(shape, key, value):
    # PyTorch's copy_to: the same shape is a copy_, a 0-d CPU value into more is a fill_.
    def run(lib):
        x = _leaf(lib, lib.ones(shape).tolist()) * 1
        try:
            x[eval(key)] = eval(value, {"lib": lib})
        except RuntimeError as e:
            return str(e).split(" ")[0]
        return x.grad_fn.name().replace("torch::autograd::", ""), _edges(x)

    assert run(minigrad) == run(torch)


def test_setitem_of_a_value_that_requires_grad_into_a_view_of_a_plain_tensor():
    def run(lib):
        v = lib.tensor([-1.0]).max(0)[0]
        v[None] = _leaf(lib, -1.1)
        return v.requires_grad, _edges(v)

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, x: x[x > 0],
        lambda lib, x: x[[1, 0]],
        lambda lib, x: x.max(0)[0],
        lambda lib, x: lib.where(x > 0, x, 0.0),
        lambda lib, x: x.masked_fill(x > 0, 1.0),
        lambda lib, x: x[0],
        lambda lib, x: x.sum(0),
    ],
)
def test_a_second_backward_needs_the_index_tensors_it_freed(make):
    # PyTorch saves index, mask and condition tensors, so they are freed like saved inputs;
    # nodes that keep only sizes (select, sum) can run again.
    def run(lib):
        x = _leaf(lib, [[0.8], [0.0]])
        y = make(lib, x)
        y.sum().backward()
        try:
            lib.autograd.grad(y.sum(), x)
        except RuntimeError as e:
            return "second time" in str(e)
        return "ran"

    assert run(minigrad) == run(torch)


FOUND_ERRORS = {
    "inf norm of nothing": (
        lambda lib: lib.zeros(0).norm(float("inf")),
        "cannot compute the inf norm on an empty tensor",
    ),
    "-inf norm over an empty dim": (
        lambda lib: lib.zeros(2, 0).norm(float("-inf"), dim=1),
        "cannot compute the -inf norm on the dimension 1",
    ),
    "clamp with a number and a 0-d tensor that requires grad": (
        lambda lib: (w := _leaf(lib, -1.3)).clamp(w, -0.5),
        "invalid combination of arguments",
    ),
    "bool to the power of bools": (lambda lib: False ** lib.tensor([True]), '"pow" not implemented'),
    "index tensors that do not broadcast": (
        lambda lib: lib.zeros(3, 4)[lib.tensor([0, 0, 1]), [1, 2]],
        "indexing tensors could not be broadcast together with shapes [3], [2]",
    ),
    "index_put whose indices do not broadcast, before its dtype": (
        lambda lib: lib.zeros(3, 4).__setitem__((lib.tensor([0, 0, 1]), [1, 2]), lib.tensor(1.0, dtype=lib.float64)),
        "indexing tensors could not be broadcast together",
    ),
    "bitwise shapes before dtype": (lambda lib: lib.zeros(2, 4, dtype=lib.bool) & lib.zeros(3, 3, 1), "must match"),
    "floor division shapes before dtype": (
        lambda lib: lib.zeros(2, dtype=lib.bool) // lib.zeros(4, dtype=lib.bool),
        "must match",
    ),
    "power shapes before dtype": (
        lambda lib: lib.zeros(3, dtype=lib.bool) ** lib.zeros(2, dtype=lib.bool),
        "must match",
    ),
}


FOUND_ERRORS.update(
    {
        # matmul's errors are those of the mm, mv or bmm it comes down to
        "a batch times a vector of another size": (
            lambda lib: lib.zeros(2, 1, 3) @ lib.zeros(1),
            "size mismatch, got input (2), mat (2x3), vec (1)",
        ),
        "a batch times a matrix of another size": (
            lambda lib: lib.zeros(2, 1, 3) @ lib.zeros(4, 1),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)",
        ),
        "two batches of other sizes": (
            lambda lib: lib.zeros(2, 2, 3) @ lib.zeros(2, 4, 1),
            "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].",
        ),
        "matrices of two dtypes": (
            lambda lib: lib.zeros(2, 3) @ lib.zeros(3, 2, dtype=lib.float64),
            "expected m1 and m2 to have the same dtype, but got: float != double",
        ),
        "a bool tensor clamped between bool tensors": (
            lambda lib: lib.tensor([True]).clamp(lib.tensor([False]), lib.tensor([True])),
            "\"clamp_cpu\" not implemented for 'Bool'",
        ),
        # PyTorch's leaf errors come before shape and index checks
        "copy_ into a leaf, of another shape": (
            lambda lib: lib.ones(2, 3, requires_grad=True).copy_(lib.ones(2, 2, 3)),
            "a leaf Variable that requires grad is being used in an in-place operation",
        ),
        "index_put into a view of a leaf, with indices that do not broadcast": (
            lambda lib: lib.ones(2, 4, 1, requires_grad=True).__setitem__((slice(1, None), [0, 2, 1], [0, 0]), 1.0),
            "a view of a leaf Variable that requires grad is being used in an in-place operation",
        ),
        "index_put of a value of another shape and dtype": (
            lambda lib: lib.tensor([1, 2, 3]).__setitem__([1, 0, 0], lib.ones(2, 3)),
            "shape mismatch: value tensor of shape [2, 3] cannot be broadcast to indexing result of shape [3]",
        ),
    }
)


@pytest.mark.parametrize("name", sorted(FOUND_ERRORS))
def test_found_errors_match_torch(name):
    run, words = FOUND_ERRORS[name]
    same_error(run, words)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3, 4)])
def test_T_of_other_than_a_matrix_warns_and_permutes(shape):
    for lib in (minigrad, torch):
        x = lib.ones(shape, requires_grad=True) * 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = x.T
        # PyTorch warns about other shapes once per process; minigrad every time (Python's filter decides)
        assert lib is torch or "deprecated" in str(caught[0].message)
        assert y.grad_fn.name() == "PermuteBackward0" and y.shape == tuple(reversed(shape))


def _graph(t) -> list:
    """Every node name below ``t``, depth first along next_functions."""
    names, stack, seen = [], [t.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name().replace("torch::autograd::", ""))
        stack.extend(n for n, _ in reversed(node.next_functions))
    return names


_LEFT = [(3,), (2, 3), (4, 2, 3), (1, 2, 3), (2, 1, 2, 3)]
_RIGHT = [(3,), (3, 2), (4, 3, 2), (1, 3, 2), (2, 1, 3, 2), (3, 1)]


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("right", _RIGHT)
@pytest.mark.parametrize("left", _LEFT)
def test_matmul_records_pytorchs_graph(left, right, needs):
    # Folded into one mm/mv when that needs no copy (or the smaller side needs a gradient), a batch
    # of one dropped first, else expand + reshape + bmm + view: node for node as PyTorch.
    def run(lib):
        a = lib.arange(math.prod(left), dtype=lib.float64).reshape(left).requires_grad_(needs[0])
        b = lib.arange(math.prod(right), dtype=lib.float64).reshape(right).requires_grad_(needs[1])
        out = (a * 1) @ (b * 1)
        grads = lib.autograd.grad(out.sum(), [t for t in (a, b) if t.requires_grad])
        return _graph(out), out.is_contiguous(), values(out), [values(g) for g in grads]

    assert run(minigrad) == run(torch)


def test_bmm_and_copying_reshapes_record_pytorchs_nodes():
    def run(lib):
        x = _leaf(lib, [[[1.0, 2.0], [3.0, 4.0]]] * 2)
        y = lib.bmm(x, x.transpose(1, 2))
        z = x.transpose(1, 2).reshape(2, 4)  # must copy: UnsafeViewBackward0 over CloneBackward0
        c = x.transpose(1, 2).clone()  # keeps the transposed layout, as preserve_format
        return _graph(y), _graph(z), c.is_contiguous(), c.contiguous().is_contiguous(), values(y)

    assert run(minigrad) == run(torch)


BMM_ERRORS = {
    "bmm of matrices": (lambda lib: lib.bmm(lib.ones(2, 3), lib.ones(3, 2)), "batch1 must be a 3D tensor"),
    "bmm of other batches": (
        lambda lib: lib.bmm(lib.ones(2, 3, 4), lib.ones(3, 4, 5)),
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].",
    ),
    "bmm of two dtypes": (
        lambda lib: lib.bmm(lib.ones(2, 3, 4), lib.ones(2, 4, 5, dtype=lib.float64)),
        "expected scalar type Float but found Double",
    ),
}


@pytest.mark.parametrize("name", sorted(BMM_ERRORS))
def test_bmm_errors_match_torch(name):
    run, words = BMM_ERRORS[name]
    same_error(run, words)


OVERLAPS = [
    "y[1:].add_(y[:-1])",
    "y[1:] += y[:-1]",
    "y[1:] = y[:-1]",
    "y[1:].copy_(y[:-1])",
    "y[1:].pow_(y[:-1])",
    "y[1:].clamp_(min=y[:-1])",
    "y[1:].mul_(y[1])",
    "y.add_(y[0])",
    "x.add_(x.t())",
    "x.copy_(x.t())",
    "x[1:].add_(x[:2])",
    "y.view(2, 3).add_(y.view(3, 2).t())",
    "y[[0, 1]] = y[1:3]",
    "y[[0, 1]] = y[:2]",  # index_put_ refuses any shared memory, full overlap too
    "x[[0, 1]] = x[2:]",
    "x[0:2, lib.tensor([False, True, False])] = x[0:2, 1:2]",  # a bool mask: not checked, as PyTorch
    "x[0:2, [1]] = x[0:1, 1:2]",
    "x.expand(2, 3, 3)[0].add_(1.0)",  # a part of an expanded tensor without repeats: written
    "x.expand(2, 3, 3).add_(1.0)",  # repeated elements: refused
    # allowed: the same elements alike, no shared elements, strided (PyTorch's "too hard"), fills
    "x.mul_(x)",
    "y[0].add_(y[0])",
    "y[:3].add_(y[3:])",
    "y[::2].add_(y[1::2])",
    "x[0].add_(x[:, 0])",
    "y[1:].fill_(y[0])",
    "y[1:].masked_fill_(y[:-1] > 2, y[0])",
    "x[1:] = x[0]",
    "y[1:].copy_(y[:-1].clone())",
]


@pytest.mark.parametrize("statement", OVERLAPS)
def test_in_place_ops_refuse_partly_overlapping_inputs_as_torch(statement):
    def run(lib):
        x, y = lib.arange(9.0).reshape(3, 3), lib.arange(6.0)
        try:
            exec(statement, {"lib": lib, "x": x, "y": y})
        except RuntimeError as e:
            assert "single memory location" in str(e)
            return "refused"
        return values(x), values(y)

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize(
    "make",
    [lambda lib, x, i: x[i], lambda lib, x, i: lib.where(i > 0, x, 0.0), lambda lib, x, i: x.masked_fill(i > 1, 0.0)],
)
def test_an_index_changed_after_the_forward_pass_does_not_change_the_gradient(make):
    # PyTorch raises (it saved the index); minigrad keeps its own copy: never a silently wrong gradient.
    x, i = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True), minigrad.tensor([1, 0])
    y = make(minigrad, x, i)
    expected = minigrad.autograd.grad(y.sum(), x, retain_graph=True)[0].clone()
    i.add_(5)
    assert minigrad.autograd.grad(y.sum(), x)[0].tolist() == expected.tolist()


@pytest.mark.parametrize(
    "bounds",
    [
        lambda lib, a, b, c: a.clamp(c, b),  # 0-d clamped between (1,) and 0-d bounds
        lambda lib, a, b, c: a.clamp(b, c),
        lambda lib, a, b, c: (a * lib.ones(1, 2)).clamp(c, b),
        lambda lib, a, b, c: lib.clamp(a * lib.ones(2, 1), c * lib.ones(1, 2), b),
    ],
)
def test_clamp_with_bounds_of_other_shapes_backpropagates_as_torch(bounds):
    # PyTorch combines its masks in place, so some shapes fail in backward: the same ones here.
    def run(lib):
        a, b, c = _leaf(lib, -0.7), _leaf(lib, 0.2), _leaf(lib, [-0.1])
        try:
            bounds(lib, a, b, c).sum().backward()
        except RuntimeError as e:
            return str(e).split(",")[0]
        return [values(t.grad) for t in (a, b, c)]

    assert run(minigrad) == run(torch)


def test_the_gradient_of_max_is_recorded_as_pytorchs_masked_fill():
    def run(lib):
        x, w = _leaf(lib, [[1.0, 3.0], [3.0, float("nan")]]), _leaf(lib, 2.0)
        out = []
        for f in (lambda t: t.max(), lambda t: t[0].max(), lambda t: t.min()):
            g = lib.autograd.grad(f(x) * w, x, create_graph=True)[0]
            out.append((values(g), _edges(g), _grad_fn_name(g), values(lib.autograd.grad((g * g).sum(), w)[0])))
        return out

    assert run(minigrad) == run(torch)


def test_mean_of_nothing_is_nan_without_a_warning():
    # PyTorch gives nan silently; NumPy's mean warns "Mean of empty slice".
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            x = lib.zeros(0, 3, requires_grad=True)
            return x.mean(), x.mean(0), x.mean(1, keepdim=True), lib.autograd.grad(x.mean(), x)[0]

    same(run)
