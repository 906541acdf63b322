"""Semantics of single operations checked against PyTorch: rounding division by a number,
numbers that do not fit a dtype, NaN in sorts and in ``mode``, gradients at the edges (``pow``
with a negative base, ``angle``, ``clamp`` with an infinite bound, ``prod`` with zeros,
``var`` with ``correction >= N``), bool masks and several ellipses in indexing, what PyTorch
refuses (bool matrix products, a bool ``alpha``, ...) and the layout of reductions' results.

Each test runs the same code with ``torch`` and with ``minigrad`` and compares the results
(values, dtype, shape, the sign bit of NaN where it matters) or the errors (type and words).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402

import minigrad  # noqa: E402

INF, NAN = math.inf, math.nan


def _plain(value, nan_sign: bool):
    """A result as plain Python data: tensors as (dtype, shape, values, sign bits); the sign bit
    of NaN counts only with ``nan_sign`` (arithmetic on NaN sets it as the CPU pleases)."""
    if isinstance(value, (torch.Tensor, minigrad.Tensor)):
        array = value.detach().numpy()
        signs = None
        if array.dtype.kind == "f":
            signs = np.where(np.isnan(array) & (not nan_sign), False, np.signbit(array)).tolist()
        return (str(value.dtype).split(".")[-1], tuple(value.shape), np.asarray(array).tolist(), signs)
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_plain(v, nan_sign) for v in value]
    return value


def _run(fn, lib, nan_sign):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", _plain(fn(lib), nan_sign)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return "error", type(exc), str(exc).splitlines()[0]


def _nan_equal(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_nan_equal(x, y) for x, y in zip(a, b))
    return a == b


def same(fn, *, words: int = 6, nan_sign: bool = False):
    """``fn(torch)`` and ``fn(minigrad)`` give the same values (NaN equal to NaN, sign bits
    included), or raise the same exception type whose message starts with the same words."""
    theirs, ours = _run(fn, torch, nan_sign), _run(fn, minigrad, nan_sign)
    assert theirs[0] == ours[0], (theirs, ours)
    if theirs[0] == "ok":
        assert _nan_equal(theirs[1], ours[1]), (theirs[1], ours[1])
    else:
        assert theirs[1] is ours[1], (theirs, ours)
        expected = " ".join(theirs[2].split()[:words])
        assert ours[2].startswith(expected), (theirs[2], ours[2])


def grads(fn):
    """``fn(lib)`` returns the leaves; their gradients after it ran are compared."""

    def run(lib):
        leaves = fn(lib)
        return [leaf.grad for leaf in leaves]

    same(run)


# --- 1: division with a rounding mode when the number comes first ---


@pytest.mark.parametrize("mode", ["floor", "trunc"])
@pytest.mark.parametrize(
    "number, values",
    [(-2.5, [-2.0, 4.0]), (5, [2, 3]), (-5, [2, 3]), (5, [2.0, -3.0]), (True, [2, 3]), (7, [2, -3])],
)
def test_div_with_a_rounding_mode_and_a_number_first(mode, number, values):
    same(lambda lib: lib.div(number, lib.tensor(values), rounding_mode=mode))


def test_div_by_a_tensor_of_a_number_records_divbackward0():
    def run(lib):
        x = lib.tensor([2.0, 4.0], requires_grad=True)
        y = lib.div(2.0, x)
        y.sum().backward()
        return type(y.grad_fn).__name__, x.grad

    same(run)


# --- 2: numbers that do not fit the tensor's dtype ---

FILLS = {
    "masked_fill": lambda lib, x, v: x.masked_fill(lib.tensor([True, False]), v),
    "masked_fill_": lambda lib, x, v: x.masked_fill_(lib.tensor([True, False]), v),
    "fill_": lambda lib, x, v: x.fill_(v),
    "index_fill": lambda lib, x, v: x.index_fill(0, lib.tensor([0]), v),
    "index_fill_": lambda lib, x, v: x.index_fill_(0, lib.tensor([0]), v),
    "scatter": lambda lib, x, v: x.scatter(0, lib.tensor([0]), v),
    "scatter_": lambda lib, x, v: x.scatter_(0, lib.tensor([0]), v),
    "clamp": lambda lib, x, v: x.clamp(max=v),
    "clamp_min": lambda lib, x, v: lib.clamp_min(x, v),
}


NOT_FITTING = [
    ("int64", INF),
    ("int64", NAN),
    ("int64", -INF),
    ("int64", 1e30),
    ("int32", 2**40),
    ("int8", 127.5),
    ("uint8", 300),
    ("uint8", -1.0),
    ("float32", 1e300),
    ("float16", 1e10),
]
FITTING = [("uint8", -1), ("int64", 2.7), ("float32", INF), ("int8", -128)]  # (a negative int wraps into uint8)


@pytest.mark.parametrize("name", sorted(FILLS))
def test_a_number_that_does_not_fit_raises(name):
    for dtype, value in NOT_FITTING + FITTING:
        same(lambda lib, dtype=dtype, value=value: FILLS[name](lib, lib.zeros(2, dtype=getattr(lib, dtype)), value))


def test_fill_with_an_imaginary_part_raises():
    same(lambda lib: lib.zeros(2).fill_(1 + 1j))


def test_pow_of_uint8_with_an_exponent_that_does_not_fit():
    for exponent in (300, 2, 255):
        same(lambda lib, exponent=exponent: lib.tensor([1, 2], dtype=lib.uint8) ** exponent)


# --- 3: pow with a negative base ---


def test_gradient_of_a_number_to_a_tensor_power():
    for base in (-2.5, -INF, NAN, 0.0, -0.0, 2.0, INF):

        def run(lib, base=base):
            x = lib.tensor([0.5, 2.0, -1.0, 0.0], requires_grad=True)
            lib.pow(base, x).sum().backward()
            return [x]

        grads(run)


# --- 4: NaN is the largest value in descending sorts ---


def test_descending_sort_argsort_and_topk_put_nan_first():
    same(lambda lib: lib.sort(lib.tensor([INF, NAN, 1.0]), descending=True))
    rng = np.random.default_rng(0)
    for dim in (0, 1, 0, 1, 0, 1):
        data = rng.choice([NAN, INF, -INF, 1.0, 2.0, -0.0, 0.0], size=(3, 9)).tolist()
        same(lambda lib, data=data, dim=dim: lib.sort(lib.tensor(data), dim=dim, descending=True, stable=True))
        same(lambda lib, data=data, dim=dim: lib.argsort(lib.tensor(data), dim=dim, descending=True, stable=True))
        # topk's order among equal values is its own (not a stable sort's): the values only
        same(lambda lib, data=data, dim=dim: lib.topk(lib.tensor(data).abs(), 3, dim=dim).values)


def test_descending_sort_of_extreme_integers():
    same(lambda lib: lib.sort(lib.tensor([-(2**63), 2**63 - 1, 0, -1]), descending=True, stable=True))


# --- 5 to 8: gradients at the edges ---


def test_angle_has_a_zero_gradient_for_real_inputs():
    def run(lib):
        x = lib.tensor([2.0, -1.0, 0.0], requires_grad=True)
        (lib.angle(x) ** 0.5).sum().backward()
        return [x]

    grads(run)


def test_clamp_with_one_tensor_bound_sends_it_its_gradient():
    for which, bound in itertools.product(("min", "max"), (INF, -INF, 1.0, NAN)):

        def run(lib, which=which, bound=bound):
            x = lib.tensor([1.0, 2.0, INF, -INF, NAN], requires_grad=True)
            b = lib.tensor([bound], requires_grad=True)
            lib.clamp(x, **{which: b}).sum().backward()
            return [x, b]

        grads(run)


def test_prod_of_a_0d_tensor_passes_the_gradient_on():
    for value in (INF, NAN, 0.0, 2.0):

        def run(lib, value=value):
            x = lib.tensor(value, requires_grad=True)
            y = lib.tensor(value, requires_grad=True)
            (lib.prod(x) * 3).backward()
            (lib.prod(y, 0) * 3).backward()
            return [x, y]

        grads(run)


def test_prod_gradient_with_zeros():
    for data in (
        [[0.0, 2.0], [INF, NAN]],
        [[0.0, 2.0], [0.0, 3.0]],
        [[0.0, 2.0], [1.0, 3.0]],
        [[5.0, 2.0], [1.0, 3.0]],
    ):

        def run(lib, data=data):
            a, b, c, d = (lib.tensor(data, requires_grad=True) for _ in range(4))
            (lib.prod(a, 1) * 3).sum().backward()
            (lib.prod(b[:, None], 1) * 3).sum().backward()  # a dim of one element
            (lib.prod(c) * 3).backward()
            (g,) = lib.autograd.grad(lib.prod(d, 0).sum(), d, create_graph=True)
            g.sum().backward()
            return [a, b, c, d]

        grads(run)


VAR_INPUTS = [
    (data, dim)
    for data in ([[1.0, 2.0]], [[1.0, 1.0]], [[1.0, 2.0], [3.0, 5.0]], 3.0)
    for dim in ((None, 0, 1, (0, 1)) if isinstance(data, list) else (None, 0))
]


@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
def test_var_gradient_when_correction_reaches_the_count(name):
    for (data, dim), correction in itertools.product(VAR_INPUTS, (0, 1, 2, 5)):

        def run(lib, data=data, dim=dim, correction=correction):
            x = lib.tensor(data, requires_grad=True)
            given = {} if dim is None else {"dim": dim}
            y = getattr(lib, name)(x, correction=correction, **given)
            if isinstance(y, tuple):
                y = y[0] * 2 + y[1] * 3
            (y * 1.5).sum().backward()
            return [x]

        grads(run)


# --- 9: mode sorts as PyTorch's kernel sorts ---


def test_mode_with_nan():
    for data in (
        [NAN, -0.5],
        [NAN, NAN, 1.0],
        [NAN, 1.0, NAN, 1.0],
        [1.0, NAN, 2.0, NAN],
        [INF, NAN, INF, NAN],
        [-0.0, 0.0, NAN],
    ):
        same(lambda lib, data=data: lib.mode(lib.tensor(data)))


@pytest.mark.parametrize("seed", range(20))
def test_mode_of_long_rows_with_ties_and_nan(seed):
    rng = np.random.default_rng(seed)
    data = rng.integers(0, int(rng.integers(2, 8)), size=(3, int(rng.integers(17, 120)))).astype("float32")
    if seed % 2:
        data[rng.random(data.shape) < 0.2] = NAN
    same(lambda lib: lib.mode(lib.tensor(data.tolist()), 1))


# --- 10: indexing with bool masks and several ellipses ---

MASK_KEYS = {
    "empty mask": lambda lib: lib.ones(0, dtype=lib.bool),
    "long mask": lambda lib: lib.tensor([True, False, True]),
    "mask after a slice": lambda lib: (slice(None), lib.tensor([True, False])),
    "2-d mask": lambda lib: lib.ones(3, 2, dtype=lib.bool),
    "2-d mask, second dim": lambda lib: lib.ones(2, 2, dtype=lib.bool),
    "mask after an int": lambda lib: (0, lib.tensor([True, False])),
    "mask after None": lambda lib: (None, slice(None), lib.tensor([True, False])),
}


@pytest.mark.parametrize("name", sorted(MASK_KEYS))
def test_a_mask_of_the_wrong_shape_raises_pytorchs_index_error(name):
    same(lambda lib: lib.ones(2, 3)[MASK_KEYS[name](lib)], words=20)

    def assign(lib):
        x = lib.ones(2, 3)
        x[MASK_KEYS[name](lib)] = 5.0
        return x

    same(assign, words=20)


def test_an_empty_mask_of_a_vector_raises():
    same(lambda lib: lib.arange(4.0)[lib.tensor([], dtype=lib.bool)], words=20)


@pytest.mark.parametrize(
    "key",
    [
        (..., None, ...),
        (..., ...),
        (None, ..., 0, ...),
        (..., 1, ..., None),
        (..., "index", ...),
        (..., ..., "index"),
        (None, ..., "index", ...),
    ],
)
def test_several_ellipses(key):
    def run(lib):
        full = tuple(lib.tensor([0, 2]) if k == "index" else k for k in key)
        return lib.arange(24.0).reshape(2, 3, 4)[full]

    same(run)

    def assign(lib):
        full = tuple(lib.tensor([0, 2]) if k == "index" else k for k in key)
        x = lib.arange(24.0).reshape(2, 3, 4)
        x[full] = -1.0
        return x

    same(assign)


# --- 11: copy_ of a number ---


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "uint8"])
@pytest.mark.parametrize("value", [3, 2.7, True, 0, -1, 1e300])
def test_copy_a_number(dtype, value):
    same(lambda lib: lib.ones(2, dtype=getattr(lib, dtype)).copy_(value))


def test_copy_a_number_into_a_tensor_in_a_graph():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x.clone().copy_(3)
        y.sum().backward()
        return type(y.grad_fn).__name__, y, x.grad

    same(run)


# --- 12: signs ---


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_minus_one_half_is_rsqrt(dtype):
    same(lambda lib: lib.tensor([-0.0, 0.0, -INF, INF, -2.0, 4.0], dtype=getattr(lib, dtype)) ** -0.5)


def test_logit_out_of_its_domain_gives_positive_nan():
    same(lambda lib: lib.tensor([2.0, -1.0, 1.5, 0.3]).logit(), nan_sign=True)
    same(lambda lib: lib.tensor([2.0, -1.0, 1.5, 0.3, INF, -INF], dtype=lib.float64).logit(), nan_sign=True)


# --- 13: take_along_dim with nothing to take ---


def test_take_along_dim_of_empty_tensors():
    for shape, index, dim in [
        ((0, 0, 1), [[[0]]], 0),
        ((0, 3), [[0]], 0),
        ((0, 1), [[0]], 1),
        ((0, 1), [[0]], 0),
        ((2, 3), [[-1]], 1),
    ]:
        same(
            lambda lib, shape=shape, index=index, dim=dim: lib.take_along_dim(
                lib.ones(*shape), lib.tensor(index), dim=dim
            )
        )


# --- 14 to 16: what PyTorch refuses, and what it allows ---

REFUSED = {
    "allclose float int": lambda lib: lib.allclose(lib.tensor([1.0, 2.0]), lib.tensor([1, 2])),
    "allclose float double": lambda lib: lib.allclose(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    "allclose shapes": lambda lib: lib.allclose(lib.ones(2), lib.ones(3)),
    "isclose shapes": lambda lib: lib.isclose(lib.ones(2), lib.ones(3)),
    "topk bool": lambda lib: lib.topk(lib.tensor([True, False]), 1),
    "mm bool": lambda lib: lib.mm(lib.ones(2, 2, dtype=lib.bool), lib.ones(2, 2, dtype=lib.bool)),
    "matmul bool vectors": lambda lib: lib.matmul(lib.ones(2, dtype=lib.bool), lib.ones(2, dtype=lib.bool)),
    "matmul bool batches": lambda lib: lib.ones(1, 2, 2, dtype=lib.bool) @ lib.ones(1, 2, 2, dtype=lib.bool),
    "mv bool": lambda lib: lib.mv(lib.ones(2, 2, dtype=lib.bool), lib.ones(2, dtype=lib.bool)),
    "dot bool": lambda lib: lib.dot(lib.ones(2, dtype=lib.bool), lib.ones(2, dtype=lib.bool)),
    "vdot bool": lambda lib: lib.vdot(lib.ones(2, dtype=lib.bool), lib.ones(2, dtype=lib.bool)),
    "inner bool": lambda lib: lib.inner(lib.ones(2, dtype=lib.bool), lib.ones(2, dtype=lib.bool)),
    "tensordot bool": lambda lib: lib.tensordot(lib.ones(2, 2, dtype=lib.bool), lib.ones(2, 2, dtype=lib.bool), 1),
    "bmm bool": lambda lib: lib.bmm(lib.ones(1, 2, 2, dtype=lib.bool), lib.ones(1, 2, 2, dtype=lib.bool)),
    "addmm bool": lambda lib: lib.addmm(*(lib.ones(2, 2, dtype=lib.bool),) * 3),
    "baddbmm bool": lambda lib: lib.baddbmm(*(lib.ones(1, 2, 2, dtype=lib.bool),) * 3),
    "addbmm bool": lambda lib: lib.addbmm(lib.ones(2, 2, dtype=lib.bool), *(lib.ones(1, 2, 2, dtype=lib.bool),) * 2),
    "matmul long bool": lambda lib: lib.matmul(lib.tensor([1, 2]), lib.tensor([True, False])),
    "add alpha True float": lambda lib: lib.add(lib.ones(2), lib.ones(2), alpha=True),
    "add alpha False int": lambda lib: lib.add(lib.tensor([1]), lib.tensor([1]), alpha=False),
    "sub alpha True float": lambda lib: lib.sub(lib.ones(2), 2, alpha=True),
    "round int decimals": lambda lib: lib.round(lib.tensor([1, 2]), decimals=1),
    "round int decimals 0": lambda lib: lib.round(lib.tensor([1, 2]), decimals=0),
    "round bool decimals": lambda lib: lib.round(lib.tensor([True]), decimals=1),
    "mv 0-d": lambda lib: lib.mv(lib.tensor(1.0), lib.ones(2)),
    "remainder of a negative number by uint8": lambda lib: -3 % lib.tensor([3, 2], dtype=lib.uint8),
    "power of a negative number to uint8": lambda lib: (-3) ** lib.tensor([3, 2], dtype=lib.uint8),
    "power of 300 to int8": lambda lib: 300 ** lib.tensor([3, 2], dtype=lib.int8),
    "remainder of 300 by uint8": lambda lib: lib.remainder(300, lib.tensor([3, 2], dtype=lib.uint8)),
}
ALLOWED = {  # (and the neighbours of the cases above that both allow)
    "add alpha True bool": lambda lib: lib.add(lib.tensor([True]), lib.tensor([False]), alpha=True),
    "round int": lambda lib: lib.round(lib.tensor([1, 2])),
    "inner long bool": lambda lib: lib.inner(lib.tensor([1, 2]), lib.tensor([True, False])),
    "floor division of a negative number by uint8": lambda lib: -3 // lib.tensor([3, 2], dtype=lib.uint8),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_and_allowed_as_in_pytorch(name):
    same(REFUSED[name])
    for case in ALLOWED.values():
        same(case)


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons_take_no_number_first(name):
    same(lambda lib: getattr(lib, name)(2, lib.tensor([2])), words=4)
    same(lambda lib: getattr(lib, name)(lib.tensor([2]), 2))


def test_round_with_decimals_zero_is_the_other_overload():
    def run(lib):
        x = lib.tensor([1.5], requires_grad=True)
        return type(lib.round(x, decimals=0).grad_fn).__name__, type(lib.round(x).grad_fn).__name__

    same(run)


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_", "logical_not_"])
def test_logical_inplace_ops_may_change_a_leaf_that_requires_grad(name):
    def run(lib):
        x = lib.tensor([1.0, 0.0], requires_grad=True)
        out = getattr(x, name)() if name == "logical_not_" else getattr(x, name)(lib.ones(2))
        return out is x, x.requires_grad, x.grad_fn is None, x._version, x

    same(run)

    def on_a_view(lib):
        x = lib.tensor([1.0, 0.0], requires_grad=True)
        v = x[:1]
        getattr(v, name)() if name == "logical_not_" else getattr(v, name)(lib.ones(1))
        return v.requires_grad, x._version

    same(on_a_view)
    # other in-place ops still refuse such a leaf
    same(lambda lib: lib.ones(2, requires_grad=True).eq_(lib.ones(2)))


# --- 17: reductions lay out their results row-major ---

REDUCTIONS = {
    "sum": lambda a: a.sum(1),
    "sum keepdim": lambda a: a.sum(1, keepdim=True),
    "sum dtype": lambda a: a.sum(1, dtype=a.new_ones(()).double().dtype),
    "mean": lambda a: a.mean(1),
    "amax": lambda a: a.amax(1),
    "amin": lambda a: a.amin(1),
    "prod": lambda a: a.prod(1),
    "std": lambda a: a.std(1),
    "var": lambda a: a.var(1),
    "logsumexp": lambda a: a.logsumexp(1),
    "nansum": lambda a: a.nansum(1),
    "nanmean": lambda a: a.nanmean(1),
    "norm": lambda a: a.norm(dim=1),
    "all": lambda a: a.bool().all(1),
    "any": lambda a: a.bool().any(1),
    "count_nonzero": lambda a: a.count_nonzero(1),
    "nanmedian": lambda a: a.nanmedian(1).values,
    "nanmedian indices": lambda a: a.nanmedian(1).indices,
    "logcumsumexp": lambda a: a.logcumsumexp(1),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions_of_other_layouts_are_row_major(name):
    # (not nanmedian of an expanded tensor: PyTorch's reads garbage there, as it sorts in place)
    for layout in ("permuted",) if name.startswith("nanmedian") else ("permuted", "expanded"):

        def run(lib, layout=layout):
            a = lib.ones(3, 4, 5).permute(2, 0, 1) if layout == "permuted" else lib.ones(3, 1, 5).expand(3, 4, 5)
            out = REDUCTIONS[name](a)
            return out.is_contiguous(), out

        same(run)


def test_reductions_with_two_results_are_row_major():
    def run(lib):
        a = lib.ones(3, 4, 5).permute(2, 0, 1)
        results = [*lib.var_mean(a, 1), *lib.std_mean(a, 1), *lib.aminmax(a, dim=1)]
        return [r.is_contiguous() for r in results]

    same(run)


def test_nonzero_as_tuple_gives_contiguous_vectors():
    same(lambda lib: [t.is_contiguous() for t in lib.ones(2, 3).nonzero(as_tuple=True)])


def test_the_gradient_of_a_power_with_a_bool_exponent_refuses_as_pytorchs():
    """pow(x, bool tensor) runs forward; its gradient subtracts 1 from the exponent, which PyTorch
    refuses for bools (minigrad leaked NumPy's TypeError)."""

    def backward(lib):
        x = lib.ones(2, requires_grad=True)
        lib.pow(x, lib.tensor([True, False])).sum().backward()

    same_error(backward, "Subtraction, the `-` operator, with a bool tensor is not supported")
