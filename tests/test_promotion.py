"""Type promotion against PyTorch: which dtype an operation returns, for every combination.

PyTorch's rule has three tiers: dimensioned tensors, then 0-dim tensors, then Python scalars; a
lower tier only changes the result when it is of a higher category (bool < integer < floating),
and a Python float then gives the default dtype. Values are compared too.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from helpers_torch import assert_close  # noqa: E402

import minigrad  # noqa: E402

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]

# Every test runs on each device (on_device: the factories create tensors there): CuPy computes
# with its own type rules, so the GPU results are checked against PyTorch's too.
pytestmark = pytest.mark.usefixtures("on_device")


def _values(name: str, zero_dim: bool) -> np.ndarray:
    if name == "bool":
        a = np.array([True, False, True])
    else:
        a = np.array([1, 2, 3]).astype(name)
    return a[1] if zero_dim else a


def _pair(name: str, zero_dim: bool = False):
    a = _values(name, zero_dim)
    return (
        minigrad.tensor(a, dtype=getattr(minigrad, name)),
        torch.tensor(a, dtype=getattr(torch, name)),
    )


@pytest.mark.parametrize("device", ["cpu"])  # dtypes only, no tensors
@pytest.mark.parametrize(("a", "b"), list(itertools.product(DTYPES, DTYPES)))
def test_promote_types_matches_torch(a, b):
    result = minigrad.promote_types(getattr(minigrad, a), getattr(minigrad, b))
    assert str(result) == str(torch.promote_types(getattr(torch, a), getattr(torch, b)))


_LAYOUTS = {"dim_dim": (False, False), "dim_0d": (False, True), "0d_dim": (True, False), "0d_0d": (True, True)}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize(("a", "b"), list(itertools.product(DTYPES, DTYPES)))
def test_tensor_tensor_add_and_mul_match_torch(a, b, layout):
    za, zb = _LAYOUTS[layout]
    (ma, ta), (mb, tb) = _pair(a, za), _pair(b, zb)
    assert_close(ma + mb, ta + tb, what="add")
    assert_close(ma * mb, ta * tb, what="mul")
    assert_close(minigrad.maximum(ma, mb), torch.maximum(ta, tb), what="maximum")


# Dividing by a False/0 element gives inf/nan in both; NumPy also warns about it, PyTorch doesn't.
@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning", "ignore:invalid value:RuntimeWarning")
@pytest.mark.parametrize("layout", ["dim_dim", "dim_0d", "0d_dim"])
@pytest.mark.parametrize(("a", "b"), list(itertools.product(DTYPES, DTYPES)))
def test_true_division_matches_torch(a, b, layout):
    za, zb = _LAYOUTS[layout]
    (ma, ta), (mb, tb) = _pair(a, za), _pair(b, zb)
    assert_close(ma / mb, ta / tb, what="div")


@pytest.mark.parametrize("scalar", [True, 2, 2.5, -3])
@pytest.mark.parametrize("name", DTYPES)
def test_tensor_python_scalar_matches_torch(name, scalar):
    m, t = _pair(name)
    ops = [operator.add, operator.mul, operator.truediv]
    if name != "bool" and not isinstance(scalar, bool):
        ops.append(operator.sub)  # PyTorch refuses bool subtraction
    for op in ops:
        assert_close(op(m, scalar), op(t, scalar), what=f"{op.__name__} right")
        if op is not operator.truediv or name != "bool":
            assert_close(op(scalar, m), op(scalar, t), what=f"{op.__name__} left")
    for op in (operator.eq, operator.lt, operator.ge):
        assert_close(op(m, scalar), op(t, scalar), what=op.__name__)


@pytest.mark.parametrize("name", DTYPES)
def test_where_with_scalars_matches_torch(name):
    m, t = _pair(name)
    mc, tc = minigrad.tensor([True, False, True]), torch.tensor([True, False, True])
    for other in (0, 1.5, True):
        assert_close(minigrad.where(mc, m, other), torch.where(tc, t, other), what=f"where {other!r}")
        assert_close(minigrad.where(mc, other, m), torch.where(tc, other, t), what=f"where {other!r} first")


@pytest.mark.parametrize(
    ("a", "b"), list(itertools.product(["int32", "int64", "float16", "float32", "float64", "bool"], repeat=2))
)
def test_cat_and_where_of_two_tensors_match_torch(a, b):
    (ma, ta), (mb, tb) = _pair(a), _pair(b)
    assert_close(minigrad.cat([ma, mb]), torch.cat([ta, tb]), what="cat")
    mc, tc = minigrad.tensor([True, False, False]), torch.tensor([True, False, False])
    assert_close(minigrad.where(mc, ma, mb), torch.where(tc, ta, tb), what="where")


def test_specific_rules_from_the_course():
    """The promotions students meet first, spelled out."""
    f32 = (minigrad.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
    i64 = (minigrad.tensor([1, 2]), torch.tensor([1, 2]))
    f16 = (minigrad.tensor([1.0, 2.0], dtype=minigrad.float16), torch.tensor([1.0, 2.0], dtype=torch.float16))
    f64_0d = (minigrad.tensor(2.0, dtype=minigrad.float64), torch.tensor(2.0, dtype=torch.float64))
    cases = {
        "float32 * python float stays float32": lambda x: x[0] * 2.5,
        "int / int gives float32": lambda x: x[1] / x[1],
        "int / python int gives float32": lambda x: x[1] / 2,
        "int * python float gives float32": lambda x: x[1] * 0.5,
        "float16 with float64 0-dim stays float16": lambda x: x[2] + x[3],
        "int64 with float64 0-dim gives float64": lambda x: x[1] * x[3],
        "float32 with float64 0-dim stays float32": lambda x: x[0] - x[3],
        "int // int stays int": lambda x: x[1] // 2,
        "float // int": lambda x: x[0] // 2,
        "int ** int stays int": lambda x: x[1] ** 2,
        "int ** float gives float32": lambda x: x[1] ** 0.5,
        "int scalar ** int tensor": lambda x: 2 ** x[1],
        "float scalar ** int tensor": lambda x: 1.5 ** x[1],
        "float32 ** float64 0-dim": lambda x: x[0] ** x[3],
        "neg of int": lambda x: -x[1],
        "abs of int": lambda x: x[1].abs(),
        "exp of int gives float32": lambda x: x[1].exp(),
        "sqrt of int gives float32": lambda x: x[1].sqrt(),
        "sigmoid of int gives float32": lambda x: x[1].sigmoid(),
        "sum of int64": lambda x: x[1].sum(),
        "sum of bool gives int64": lambda x: (x[1] > 1).sum(),
        "max of int": lambda x: x[1].max(),
        "int comparison with float": lambda x: x[1] < 1.5,
        "float16 * python float": lambda x: x[2] * 1e-3,
        "float16 * python int": lambda x: x[2] * 3,
        "bool + bool": lambda x: (x[1] > 1) + (x[1] > 0),
        "bool * python float": lambda x: (x[1] > 1) * 2.5,
        "bool + python int": lambda x: (x[1] > 1) + 1,
        "softmax of float16 (dtype=float32)": lambda x: x[2].softmax(0, dtype=x[0].dtype),
        "clamp of int with python float bounds keeps int": lambda x: x[1].clamp(0, 1),
    }
    for what, fn in cases.items():
        m = fn((f32[0], i64[0], f16[0], f64_0d[0]))
        t = fn((f32[1], i64[1], f16[1], f64_0d[1]))
        assert_close(m, t, what=what)


def test_default_dtype_float64_changes_python_float_promotion():
    old_m, old_t = minigrad.get_default_dtype(), torch.get_default_dtype()
    minigrad.set_default_dtype(minigrad.float64)
    torch.set_default_dtype(torch.float64)
    try:
        for fn in (
            lambda lib: lib.tensor([1, 2]) / 2,
            lambda lib: lib.tensor([1, 2]) * 0.5,
            lambda lib: lib.tensor([1.0]),
            lambda lib: lib.tensor([1.0], dtype=lib.float32) * 2.5,
            lambda lib: lib.tensor([1, 2]).exp(),
        ):
            assert_close(fn(minigrad), fn(torch))
    finally:
        minigrad.set_default_dtype(old_m)
        torch.set_default_dtype(old_t)


@pytest.mark.parametrize(
    "data",
    [
        [1, 2],
        [1.0, 2],
        [True, False],
        [True, 2],
        [],
        [[1, 2], [3.5, 4]],
        [np.float64(1.0), 2.0],
        [np.float32(1.0), 2.0],
        [np.int32(1), 2],
        [np.int64(1), np.float16(2.0)],
        np.float64(0.5),
        np.array([1, 2], dtype="int32"),
        np.array([1.0], dtype="float16"),
        [np.array([1, 2], dtype="int32"), np.array([3, 4], dtype="int32")],
    ],
    ids=lambda d: repr(d)[:40],
)
@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy.ndarrays:UserWarning")
def test_dtype_inferred_from_data_matches_torch(data):
    assert str(minigrad.tensor(data).dtype) == str(torch.tensor(data).dtype)


@pytest.mark.parametrize(
    ("target", "value"),
    [("int64", 1.5), ("int32", 2.5), ("bool", 1), ("int64", "float_tensor"), ("uint8", 0.5)],
)
def test_inplace_result_that_cannot_be_cast_fails_in_both(target, value):
    m, t = _pair(target)
    mv = minigrad.tensor([0.5, 1.5, 2.5]) if value == "float_tensor" else value
    tv = torch.tensor([0.5, 1.5, 2.5]) if value == "float_tensor" else value
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        t.add_(tv)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        m.add_(mv)


@pytest.mark.parametrize(
    ("target", "other"),
    [("float32", "float64"), ("float16", "float32"), ("float64", "int64"), ("int32", "int64"), ("float32", "bool")],
)
def test_inplace_keeps_the_target_dtype_like_torch(target, other):
    (m, t), (mo, to) = _pair(target), _pair(other)
    m.mul_(mo)
    t.mul_(to)
    assert_close(m, t)


def test_matmul_of_mixed_dtypes_fails_in_both():
    for lib in (minigrad, torch):
        a = lib.ones(2, 3)
        b = lib.ones(3, 2, dtype=lib.float64)
        with pytest.raises(RuntimeError):
            a @ b


def test_mean_of_int_fails_in_both():
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError, match="mean"):
            lib.tensor([1, 2]).mean()


def test_gradient_keeps_the_input_dtype_across_promotion():
    """float32 leaf * float64 tensor: the result is float64, the leaf's gradient float32."""
    a = np.array([1.0, 2.0], dtype="float32")
    b = np.array([0.5, 0.25], dtype="float64")
    grads = []
    for lib in (minigrad, torch):
        x = lib.tensor(a, requires_grad=True)
        y = lib.tensor(b, requires_grad=True)
        out = x * y
        assert str(out.dtype).endswith("float64")
        out.sum().backward()
        grads.append((x.grad, y.grad))
    assert_close(grads[0][0], grads[1][0])
    assert_close(grads[0][1], grads[1][1])
