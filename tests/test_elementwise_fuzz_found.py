"""Differences from PyTorch in elementwise math and type promotion, found by a differential fuzzer.

Each case is a small program run with ``lib = torch`` and ``lib = minigrad``; its result ``r``
(or the exception it raises: type and PyTorch's first words) must be the same, to the bit: values
are compared by their ``repr``, so ``-0.0`` and ``0.0`` differ, and so do two roundings.
"""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad  # noqa: E402


def _plain(value):
    if isinstance(value, torch.Tensor | minigrad.Tensor):
        array = value.detach().numpy()
        return ("tensor", str(value.dtype), tuple(value.shape), value.requires_grad, repr(array.tolist()))
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _run(source: str, lib):
    namespace = {"lib": lib, "np": np, "math": math}
    try:
        exec(source, namespace)
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return ("raises", type(exc).__name__, str(exc))
    return _plain(namespace["r"])


def same(source: str) -> None:
    expected, got = _run(source, torch), _run(source, minigrad)
    if expected[0] == "raises" and got[0] == "raises":
        assert got[1] == expected[1], (got, expected)
        assert got[2].startswith(expected[2].split("\n")[0][:60].rstrip()), (got, expected)
    else:
        assert got == expected


# Values with PyTorch's edge cases for each float dtype: inf, -inf, nan, -0.0 and ordinary ones.
RANDOM = "rng = np.random.default_rng(0)\nv = (rng.standard_normal(2000) * 10).astype({dtype!r})\n"

CASES = [
    # rounding_mode='trunc' on integers: abs(-128) overflows int8, abs(-2**31) int32
    "a = lib.tensor([-128, -8, 7, -7, 0, 127], dtype=lib.int8)\nr = lib.div(a, lib.tensor([7], dtype=lib.int8), rounding_mode='trunc')",
    "a = lib.tensor([-1, -8, 5, 2**31 - 1], dtype=lib.int32)\nr = lib.div(a, lib.tensor([-2**31], dtype=lib.int32), rounding_mode='trunc')",
    "a = lib.tensor([[-1], [-8]], dtype=lib.int8)\nr = a.div_(lib.tensor([[-1], [-2**31]], dtype=lib.int32), rounding_mode='trunc')",
    # clamp with tensor bounds computes in the dtype of all three, not pairwise (0-d -4 is not uint8)
    "r = lib.clamp(lib.tensor(-4), min=lib.tensor([[1, 5, 0]], dtype=lib.uint8), max=lib.tensor([[3], [100]]))",
    "r = lib.clip(lib.tensor(-100, dtype=lib.int8), lib.tensor([True, True, False]), lib.tensor([6, 0, 0], dtype=lib.uint8))",
    # ldexp: exact for a floating input and an integer exponent, else input * 2**other as PyTorch
    # computes the power (in float32 for integers: 0 * inf is nan; a float16 exponent in float16)
    "r = lib.ldexp(lib.tensor([1, 0, 3]), lib.tensor([2, 200, -150]))",
    "r = lib.ldexp(lib.tensor([0.7123456789, 2.5], dtype=lib.float64), lib.tensor([0.7, 1.5], dtype=lib.float16))",
    "r = lib.ldexp(lib.tensor([0.3, 1.7]), lib.tensor([0.7, -1.5], dtype=lib.float16))",
    "r = lib.ldexp(lib.tensor([1.5]), lib.tensor([True]))",
    "r = lib.tensor([1, 2], dtype=lib.uint8).ldexp_(lib.tensor([1, 2]))",
    # xlog1py of a float and a bool tensor: log1p(True) in the float's precision (NumPy's is float16)
    "r = lib.special.xlog1py(lib.tensor([-1.0, 3.0, 0.5], dtype=lib.float64), lib.tensor(True))",
    "r = lib.special.xlog1py(lib.tensor([0.3, -2.25]), lib.tensor([True, False]))",
    # its gradient at self == 0 is xlog1py(grad, other) unless other <= -1.0: uint8 200 is not
    "x = lib.tensor([0.7, -1.5, 0.0], dtype=lib.float64, requires_grad=True)\n"
    "r = lib.autograd.grad(lib.special.xlog1py(x, lib.tensor([3, 0, 200], dtype=lib.uint8)).sum(), x)",
    # two numbers: add, sub, mul, div, true_divide and floor_divide take the first as a tensor
    "r = [lib.add(2, 3.5), lib.add(True, True), lib.mul(True, 2), lib.sub(7, -2), lib.add(2, 3, alpha=2)]",
    "r = [lib.div(2, 3), lib.true_divide(2.5, True), lib.floor_divide(7, -2), lib.floor_divide(2, 3.5)]",
    "r = [lib.div(7, 2, rounding_mode='floor'), lib.div(7.5, 2, rounding_mode='trunc'), lib.div(1.0, 0)]",
    "r = lib.floor_divide(True, True)",
    "r = lib.sub(True, True)",
    "r = lib.sub(lib.tensor([True]), lib.tensor([False]))",
    # ... the others refuse two numbers with a TypeError (not an AttributeError from inside)
    "r = lib.remainder(2, 3.5)",
    "r = lib.pow(2, 3)",
    "r = lib.bitwise_and(True, 2)",
    "r = lib.bitwise_left_shift(1, 2)",
    "r = lib.bitwise_right_shift(-0.0, -2.5)",
    "r = lib.sin(2)",
    # an in-place method checks the shape first, then the result type (copysign's is floating)
    "r = lib.tensor([1, 2, 3]).copysign_(lib.tensor([[1.5, 2.0, 3.0], [1.0, 1.0, 1.0]]))",
    "r = lib.tensor([True, False]).bitwise_and_(lib.tensor([[1, 2], [3, 4]], dtype=lib.uint8))",
    "r = lib.tensor([True, False]).copysign_(lib.tensor([1, 2], dtype=lib.uint8))",
    # ... also before an integer division or remainder by zero raises
    "x = lib.tensor([True, False])\nx //= 0\nr = x",
    "r = lib.tensor([True]).fmod_(0)",
    "r = lib.tensor([1, 2]).remainder_(lib.tensor([[1, 0], [2, 0]]))",
    "r = lib.tensor([1, 2], dtype=lib.int8).div_(lib.tensor([[1, 0], [2, 0]]), rounding_mode='floor')",
    # round(decimals=) of float16 scales in float32 (in float16, -7.1484375 * 10 rounds to -71.5)
    RANDOM.format(dtype="float16") + "r = [lib.round(lib.tensor(v), decimals=d) for d in (-1, 1, 2)]",
    "r = lib.tensor([-7.1484375, -1.134765625], dtype=lib.float16).round_(decimals=1)",
    # trigamma and sigmoid of float16 compute in float32, as PyTorch's kernels
    "r = lib.polygamma(1, lib.tensor([-3.078125, -7.1, 1.962890625, -0.5], dtype=lib.float16))",
    "r = lib.sigmoid(lib.tensor([-11.25, -15.0, 12.0], dtype=lib.float16))",
    # x ** 0.5 and x ** -0.5: sqrt/rsqrt for a number on float32/float64 (-inf: nan, -0.0: -0.0),
    # but pow itself for float16 and for a tensor exponent (-inf: inf, -0.0: 0.0)
    "x = lib.tensor([-math.inf, -0.0, 4.0, math.inf], dtype=lib.float16)\nr = [x ** 0.5, x ** -0.5, x.pow(0.5)]",
    "x = lib.tensor([-math.inf, -0.0, 4.0])\nr = [x ** 0.5, x ** -0.5, x ** lib.tensor(0.5), x ** lib.tensor(-0.5)]",
    "x = lib.tensor([-math.inf, -0.0, 4.0], dtype=lib.float64)\n"
    "r = [x ** lib.tensor([0.5], dtype=lib.float64), x[0] ** lib.tensor(0.5, dtype=lib.float64)]",
    # lerp with a number weight: one fused multiply-add per element, as PyTorch's kernel
    RANDOM.format(dtype="float32")
    + "r = [lib.lerp(lib.tensor(v), lib.tensor(v[::-1].copy()), w) for w in (0.3, 0.7, -0.2, 2.5)]",
    RANDOM.format(dtype="float64") + "r = [lib.lerp(lib.tensor(v), lib.tensor(v[::-1].copy()), w) for w in (0.3, 0.7)]",
    RANDOM.format(dtype="float16") + "r = [lib.lerp(lib.tensor(v), lib.tensor(v[::-1].copy()), w) for w in (0.3, 0.7)]",
    RANDOM.format(dtype="float32") + "x = lib.tensor(v)\nr = x.lerp_(lib.tensor(v[::-1].copy()), 0.1)",
    # addcmul/addcdiv: float16 in float32 rounded once; float32 addcmul as PyTorch's fused kernel
    RANDOM.format(dtype="float16") + "t = lib.tensor(v)\n"
    "r = [lib.addcmul(t, t.flip(0), t.roll(1), value=0.3), lib.addcdiv(t, t.flip(0), t.roll(1), value=0.3)]",
    RANDOM.format(dtype="float32")
    + "t = lib.tensor(v)\nr = [lib.addcmul(t, t.flip(0), t.roll(1), value=v) for v in (1, -2.5)]",
    "r = lib.addcmul(lib.tensor(-5.87890625, dtype=lib.float16), lib.tensor(1.751953125, dtype=lib.float16), lib.tensor(3, dtype=lib.int16))",
    # addcmul's gradient for tensor2 is grad * tensor1 * value, promoted: a bool tensor1 times 2 is 2
    "t = lib.ones(2, dtype=lib.float16, requires_grad=True)\n"
    "lib.addcmul(lib.zeros(2, dtype=lib.float16), lib.tensor([True, False]), t, value=2).sum().backward()\nr = t.grad",
]


@pytest.mark.parametrize("source", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_elementwise_matches_torch(source):
    same(source)
