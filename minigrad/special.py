"""``torch.special``: gamma-family, error-function, Bessel and normal-distribution functions.

Each function is an :class:`~minigrad.autograd.op.Op` with PyTorch's node name and derivative
formula (written with minigrad's own ops, so second derivatives work), or, where PyTorch builds
it from other ops (``ndtr``), the same composite. The array math is SciPy's (CuPy's copy on a
GPU), through :func:`minigrad.backend.special`; where PyTorch's kernel gives another value at a
pole or an infinity, the forward says so and follows PyTorch.

>>> import minigrad as torch
>>> torch.special.gammaln(torch.tensor([1.0, 5.0]))  # log(0!), log(4!)
tensor([0.0000, 3.1781])
"""

from __future__ import annotations

import contextlib
import functools
import math
from numbers import Number

from . import backend, dtypes
from .autograd.grad_mode import no_grad
from .autograd.op import Op
from .factories import arange
from .functions import (
    _check_tensor,
    _floating,
    _in_place_method,
    _inplace_function,
    _invalid_arguments,
    _no_kernel,
    _not_implemented,
    _three_overloads,
    add_scalar_op,
    div_scalar_op,
    erf,
    exp2,
    expm1,
    igamma,
    igammac,
    log1p,
    log_softmax,
    logit,
    logsumexp,
    mul_scalar_op,
    round_decimals_op,
    sigmoid,
    sinc,
    softmax,
    sub_scalar_op,
    where,
    xlogy,
)
from .tensor import Tensor

numpy = backend.numpy  # the CPU's array module (only backend imports NumPy)

__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "erfcx",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "spherical_bessel_j0",
    "zeta",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "sinc",
    "softmax",
    "xlog1py",
    "xlogy",
]

_SQRT_2PI = math.sqrt(2 * math.pi)


# ----------------------------------------------------------------------------------------------
# Forwards on arrays
# ----------------------------------------------------------------------------------------------


def _lgamma(xp, x):
    # PyTorch's lgamma(-inf) is +inf (|Gamma| grows without bound); SciPy's gammaln says -inf.
    return xp.where(x == -math.inf, math.inf, backend.special("gammaln", x)).astype(x.dtype, copy=False)


def _trigamma(xp, x):
    """PyTorch's trigamma kernel step for step (reflection below 0.5, six steps up, then the
    asymptotic series): at the poles it gives PyTorch's large finite values, not SciPy's inf."""
    if x.dtype == xp.float16:  # PyTorch's float16 kernel computes in float32 (six float16 sums drift)
        return _trigamma(xp, x.astype(xp.float32)).astype(x.dtype)
    reflect = x < 0.5
    sin_pi_x = xp.sin(math.pi * x)
    result = xp.where(reflect, -(math.pi * math.pi) / (sin_pi_x * sin_pi_x), 0).astype(x.dtype, copy=False)
    x = xp.where(reflect, 1 - x, x)
    for _ in range(6):
        result = result + 1 / (x * x)
        x = x + 1
    ixx = 1 / (x * x)
    result = result + (1 + 1 / (2 * x) + ixx * (1 / 6 - ixx * (1 / 30 - ixx * (1 / 42)))) / x
    return xp.where(reflect, -result, result)


def _polygamma(xp, x, n: int):
    if n == 0:
        return backend.special("psi", x)
    if n == 1:
        return _trigamma(xp, x)
    # PyTorch: (-1)^(n+1) n! zeta(n+1, x); its zeta is NaN at x = inf (SciPy's is 0).
    scale = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))
    out = scale * backend.special("zeta", n + 1.0, x)
    return xp.where(x == math.inf, math.nan, out).astype(x.dtype, copy=False)


def _mvlgamma(xp, x, p: int):
    """PyTorch's sum of p lgammas: sum_i lgamma(x - i/2) + p(p-1)/4 log(pi)."""
    args = xp.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x.dtype) + x[..., None]
    return (_lgamma(xp, args).sum(-1) + p * (p - 1) * math.log(math.pi) / 4).astype(x.dtype, copy=False)


def _erfinv(xp, x):
    return xp.where(x == 0, x, backend.special("erfinv", x))  # keeps -0.0, as PyTorch


def _xlog1py(xp, x, y):
    """``x * log1p(y)``, 0 where ``x`` is 0, and NaN wherever ``y`` is NaN (PyTorch's kernel)."""
    if y.dtype.kind == "b":  # NumPy's log1p of bools is float16
        y = y.astype(x.dtype)
    out = xp.where(x == 0, 0, x * xp.log1p(y))
    return xp.where(xp.isnan(y), y, out).astype(out.dtype, copy=False)


# ----------------------------------------------------------------------------------------------
# The derivative table (PyTorch's derivatives.yaml formulas)
# ----------------------------------------------------------------------------------------------

lgamma_op = Op("LgammaBackward0", lambda xp, self: _lgamma(xp, self),
               self=lambda grad, self: grad * digamma(self))  # fmt: skip
digamma_op = Op("DigammaBackward0", lambda xp, self: backend.special("psi", self),
                self=lambda grad, self: grad * polygamma(1, self))  # fmt: skip
polygamma_op = Op("PolygammaBackward0", lambda xp, self, *, n: _polygamma(xp, self, n),
                  self=lambda grad, self, n: grad * polygamma(n + 1, self))  # fmt: skip
# x.polygamma_(n) is an overload of its own in PyTorch: the same rule, node 1.
polygamma_inplace_op = Op("PolygammaBackward1", polygamma_op.forward, self=polygamma_op.rules["self"])
mvlgamma_op = Op("MvlgammaBackward0", lambda xp, self, *, p: _mvlgamma(xp, self, p),
                 self=lambda grad, self, p: grad * _mvlgamma_terms(self, p).digamma().sum(-1))  # fmt: skip
erfc_op = Op("ErfcBackward0", lambda xp, self: backend.special("erfc", self),
             self=lambda grad, self: mul_scalar_op((-self.pow(2)).exp(), other=-2 / math.sqrt(math.pi)) * grad)  # fmt: skip
erfinv_op = Op("ErfinvBackward0", lambda xp, self: _erfinv(xp, self),
               self=lambda grad, self: mul_scalar_op(erfinv(self).pow(2).exp(), other=0.5 * math.sqrt(math.pi)) * grad)  # fmt: skip
i0_op = Op("I0Backward0", lambda xp, self: backend.special("i0", self),
           self=lambda grad, self: grad * i1(self))  # fmt: skip
i0e_op = Op("SpecialI0EBackward0", lambda xp, self: backend.special("i0e", self),
            self=lambda grad, self, result: grad * (i1e(self) - self.sgn() * result))  # fmt: skip
i1_op = Op("SpecialI1Backward0", lambda xp, self: backend.special("i1", self),
           self=lambda grad, self, result: grad * _bessel_i1_slope(self, result, i0, scaled=False))  # fmt: skip
i1e_op = Op("SpecialI1EBackward0", lambda xp, self: backend.special("i1e", self),
            self=lambda grad, self, result: grad * _bessel_i1_slope(self, result, i0e, scaled=True))  # fmt: skip
ndtri_op = Op("SpecialNdtriBackward0", lambda xp, self: backend.special("ndtri", self),
              self=lambda grad, result: mul_scalar_op(grad, other=_SQRT_2PI) * div_scalar_op(result.pow(2), other=2).exp())  # fmt: skip
log_ndtr_op = Op("SpecialLogNdtrBackward0", lambda xp, self: backend.special("log_ndtr", self),
                 self=lambda grad, self, result: div_scalar_op(grad, other=_SQRT_2PI) * (result + div_scalar_op(self.pow(2), other=2)).neg().exp())  # fmt: skip
entr_op = Op("SpecialEntrBackward0", lambda xp, self: backend.special("entr", self),
             self=lambda grad, self: grad * -add_scalar_op(self.log(), other=1))  # fmt: skip
# xlog1py is 0 where self is 0; PyTorch's gradient for self is 0 there too where other <= -1.
# A number on either side is one of PyTorch's two other overloads (nodes 1 and 2).
xlog1py_op = Op("SpecialXlog1PyBackward0", lambda xp, self, other: _xlog1py(xp, self, other),
                self=lambda grad, self, other: xlog1py(grad, other).masked_fill((self == 0) & (other <= -1.0), 0),
                other=lambda grad, self, other: grad * self / add_scalar_op(other, other=1))  # fmt: skip
xlog1py_scalar_self_op = Op("SpecialXlog1PyBackward1", lambda xp, other, *, self: _xlog1py(xp, xp.asarray(self, dtype=other.dtype), other),
                            other=lambda grad, self, other: mul_scalar_op(grad, other=self) / add_scalar_op(other, other=1))  # fmt: skip
xlog1py_scalar_other_op = Op("SpecialXlog1PyBackward2", lambda xp, self, *, other: _xlog1py(xp, self, xp.asarray(other, dtype=self.dtype)),
                             self=lambda grad, self, other: xlog1py(grad, other) if other > -1 else xlog1py(grad, other).masked_fill(self == 0, 0))  # fmt: skip


def _mvlgamma_terms(self: Tensor, p: int) -> Tensor:
    """The p arguments ``x - i/2`` of mvlgamma's lgammas, along a new last dim (PyTorch's)."""
    return arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=self.dtype, device=self.device) + self.unsqueeze(-1)


_EPS = {dtypes.float16: 2.0**-10, dtypes.float32: 2.0**-23, dtypes.float64: 2.0**-52}


def _bessel_i1_slope(self: Tensor, result: Tensor, i0_function, scaled: bool) -> Tensor:
    """PyTorch's i1_backward / i1e_backward: i0(x) - i1(x)/x (minus sgn(x) i1e(x) when scaled),
    and the limit 0.5 at x = 0, where the formula divides 0 by 0."""
    eps = _EPS[self.dtype]
    not_tiny = self.abs() > eps
    safe = where(not_tiny, self, eps)
    shift = safe.sgn() + safe.reciprocal() if scaled else safe.reciprocal()
    return where(not_tiny, i0_function(safe) - result * shift, 0.5)


# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _unary(op: Op, name: str, input: Tensor, **params) -> Tensor:
    """A float op of one tensor: integers and bools compute in the default float dtype."""
    return op(_check_tensor(input, name), dtype=_floating(input), **params)


def lgamma(input: Tensor) -> Tensor:
    """The log of the absolute value of the gamma function, ``log|Γ(x)|`` (inf at the poles).

    >>> import minigrad as torch
    >>> torch.lgamma(torch.tensor([0.5, 3.0]))
    tensor([0.5724, 0.6931])
    """
    return _unary(lgamma_op, "lgamma", input)


def digamma(input: Tensor) -> Tensor:
    """The digamma function ψ(x), the derivative of lgamma (-inf at 0, NaN at negative integers).

    >>> import minigrad as torch
    >>> torch.digamma(torch.tensor([1.0, 2.0]))
    tensor([-0.5772,  0.4228])
    """
    return _unary(digamma_op, "digamma", input)


def polygamma(n: int, input: Tensor, *, _op: Op = polygamma_op) -> Tensor:
    """The n-th derivative of the digamma function (``n = 0`` is digamma itself).

    >>> import minigrad as torch
    >>> torch.polygamma(1, torch.tensor([1.0, 2.0]))  # π²/6, π²/6 - 1
    tensor([1.6449, 0.6449])
    """
    if type(n) is not int:
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if not isinstance(input, Tensor):
        raise TypeError(f"polygamma(): argument 'input' (position 2) must be Tensor, not {type(input).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _op(input, n=n, dtype=_floating(input))


def multigammaln(input: Tensor, p: int) -> Tensor:
    """The log of the multivariate gamma function of dimension ``p``:
    ``p(p-1)/4 log(π) + Σ_{i<p} lgamma(x - i/2)``.

    >>> import minigrad as torch
    >>> torch.special.multigammaln(torch.tensor([2.0, 3.0]), 2)
    tensor([0.4516, 1.5502])
    """
    _check_tensor(input, "mvlgamma")
    if type(p) is not int:
        raise TypeError(f"mvlgamma(): argument 'p' (position 2) must be int, not {type(p).__name__}")
    if input.dtype is dtypes.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return mvlgamma_op(input, p=p, dtype=_floating(input))


def erfc(input: Tensor) -> Tensor:
    """The complementary error function ``1 - erf(x)``, accurate where erf is close to 1.

    >>> import minigrad as torch
    >>> torch.erfc(torch.tensor([0.0, 3.0]))
    tensor([1.0000e+00, 2.2090e-05])
    """
    return _unary(erfc_op, "erfc", input)


def erfinv(input: Tensor) -> Tensor:
    """The inverse of erf on (-1, 1): ±inf at ±1, NaN outside.

    >>> import minigrad as torch
    >>> torch.erfinv(torch.tensor([0.0, 0.5, 1.0]))
    tensor([0.0000, 0.4769,    inf])
    """
    return _unary(erfinv_op, "erfinv", input)


def i0(input: Tensor) -> Tensor:
    """The modified Bessel function of the first kind, of order 0.

    >>> import minigrad as torch
    >>> torch.i0(torch.tensor([0.0, 1.0]))
    tensor([1.0000, 1.2661])
    """
    return _unary(i0_op, "i0", input)


def i0e(input: Tensor) -> Tensor:
    """``exp(-|x|) * i0(x)``, which does not overflow for large ``|x|``.

    >>> import minigrad as torch
    >>> torch.special.i0e(torch.tensor([0.0, 100.0]))
    tensor([1.0000, 0.0399])
    """
    return _unary(i0e_op, "special_i0e", input)


def i1(input: Tensor) -> Tensor:
    """The modified Bessel function of the first kind, of order 1.

    >>> import minigrad as torch
    >>> torch.special.i1(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 0.5652])
    """
    return _unary(i1_op, "special_i1", input)


def i1e(input: Tensor) -> Tensor:
    """``exp(-|x|) * i1(x)``, which does not overflow for large ``|x|``.

    >>> import minigrad as torch
    >>> torch.special.i1e(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 0.2079])
    """
    return _unary(i1e_op, "special_i1e", input)


def ndtr(input: Tensor) -> Tensor:
    """The standard normal CDF, ``(1 + erf(x / √2)) / 2``: PyTorch's composite, so its graph
    records those ops.

    >>> import minigrad as torch
    >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
    tensor([0.5000, 0.8413])
    """
    x = _check_tensor(input, "special_ndtr")
    if not x.dtype.is_floating_point:  # (an integer tensor never requires grad: no node)
        x = x.to(dtypes.get_default_dtype())
    return mul_scalar_op(add_scalar_op(erf(mul_scalar_op(x, other=math.sqrt(0.5))), other=1), other=0.5)


def ndtri(input: Tensor) -> Tensor:
    """The inverse of the standard normal CDF: -inf at 0, inf at 1, NaN outside [0, 1].

    >>> import minigrad as torch
    >>> torch.special.ndtri(torch.tensor([0.5, 0.975]))
    tensor([0.0000, 1.9600])
    """
    return _unary(ndtri_op, "special_ndtri", input)


def log_ndtr(input: Tensor) -> Tensor:
    """``log(ndtr(x))``, accurate far into the lower tail.

    >>> import minigrad as torch
    >>> torch.special.log_ndtr(torch.tensor([0.0, -10.0]))
    tensor([ -0.6931, -53.2313])
    """
    return _unary(log_ndtr_op, "special_log_ndtr", input)


def entr(input: Tensor) -> Tensor:
    """The elementwise entropy ``-x log(x)``: 0 at 0, -inf for negative ``x``.

    >>> import minigrad as torch
    >>> torch.special.entr(torch.tensor([0.0, 0.5, -1.0]))
    tensor([0.0000, 0.3466,   -inf])
    """
    return _unary(entr_op, "special_entr", input)


def xlog1py(input, other) -> Tensor:
    """``input * log1p(other)``, but 0 where ``input`` is 0; NaN where ``other`` is NaN. Either
    side may be a number; integers give floats.

    >>> import minigrad as torch
    >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0]))
    tensor([0.0000, 1.3863])
    """
    return _three_overloads(
        "special_xlog1py", (xlog1py_op, xlog1py_scalar_self_op, xlog1py_scalar_other_op), input, other
    )


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001
    """``torch.round`` with ``decimals`` always passed on: PyTorch records RoundBackward1, and
    has no such kernel for integers.

    >>> import minigrad as torch
    >>> torch.special.round(torch.tensor([0.5, 1.26]), decimals=1)
    tensor([0.5000, 1.3000])
    """
    if not _check_tensor(input, "special_round").dtype.is_floating_point:  # unlike torch.round
        raise _no_kernel("round_vml_cpu", input.dtype)
    return round_decimals_op(input, decimals=decimals)


# torch.special's other names for functions minigrad has.
gammaln, psi, mvlgamma, expit = lgamma, digamma, multigammaln, sigmoid
gammainc, gammaincc = igamma, igammac  # defined in functions (torch.igamma is public too)


# torch.erfc_ and torch.i0_: the in-place methods as functions, as functions.py makes the others.
erfc_, i0_ = _inplace_function("erfc_"), _inplace_function("i0_")


# The Tensor methods PyTorch has for these (x.lgamma(), x.polygamma(n), x.erfc_() ...), attached
# here rather than in tensor.py so that this module is the one place for them.
for _function in (lgamma, digamma, multigammaln, erfc, erfinv, i0):
    _name = "mvlgamma" if _function is multigammaln else _function.__name__
    setattr(Tensor, _name, _function)
    setattr(Tensor, _name + "_", _in_place_method(_function, _name + "_"))
Tensor.polygamma = lambda self, n: polygamma(n, self)  # the method takes n first too
Tensor.polygamma_ = _in_place_method(lambda input, n: polygamma(n, input, _op=polygamma_inplace_op), "polygamma_")


# ----------------------------------------------------------------------------------------------
# The rest of torch.special: erfcx, zeta, Bessel and Airy functions, orthogonal polynomials
# ----------------------------------------------------------------------------------------------


def _quiet(xp):
    """NumPy's warnings off for kernels that pass through inf and NaN on purpose (CuPy has none)."""
    return numpy.errstate(all="ignore") if xp is numpy else contextlib.nullcontext()


def _on_host(function, x):
    """A SciPy function that CuPy lacks: computed on the CPU, the result put back on the device."""
    if isinstance(x, numpy.ndarray):
        return numpy.asarray(function(x), dtype=x.dtype)
    return backend.place(numpy.asarray(function(backend.to_numpy(x)), dtype=x.dtype), backend.device_of(x))


def _zeta(xp, x, q):
    # PyTorch's kernel is NaN at q = inf for x > 1 (SciPy's limit there is 0).
    out = backend.special("zeta", x, q)
    return xp.where((q == math.inf) & (x != 1), math.nan, out).astype(out.dtype, copy=False)


def _libm(xp, function, a):
    """``function`` of a float32 array through float64, rounded once: the correctly rounded
    value that PyTorch's kernels get from the C library (NumPy's float32 loops can be an ulp off)."""
    if a.dtype == numpy.float32:
        return function(a.astype(numpy.float64)).astype(numpy.float32)
    return function(a)


_c_acos = numpy.frompyfunc(math.acos, 1, 1)


def _acos(xp, a):
    """arccos as the C library computes it, which PyTorch's kernels call (NumPy's float64 loop
    differs from it in the last bit for about a tenth of the inputs); NaN outside [-1, 1]."""
    if xp is not numpy:
        return xp.arccos(a)
    inside = numpy.abs(a) <= 1
    wide = numpy.where(inside, a, 0).astype(numpy.float64)
    out = numpy.where(inside, numpy.asarray(_c_acos(wide), dtype=numpy.float64), numpy.nan)
    return out.astype(a.dtype)


def _fma(xp, a, b, c):
    """``a * b + c`` rounded once, as in PyTorch's CPU kernels (its compiler fuses these into FMA
    instructions). float32 goes through float64 (exact products); float64 adds the exact error
    of the product (Dekker's split) to Knuth's two-sum."""
    if c.dtype == numpy.float32:
        wide = numpy.float64
        return (xp.asarray(a, dtype=wide) * xp.asarray(b, dtype=wide) + c.astype(wide)).astype(numpy.float32)
    a, b = xp.asarray(a, dtype=c.dtype), xp.asarray(b, dtype=c.dtype)
    product = a * b

    def halves(v):
        t = 134217729.0 * v  # 2**27 + 1
        high = t - (t - v)
        return high, v - high

    a_high, a_low = halves(a)
    b_high, b_low = halves(b)
    product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    total = product + c
    back = total - product
    sum_error = (product - (total - back)) + (c - back)
    fused = total + (sum_error + product_error)
    return xp.where(xp.isfinite(fused), fused, total)


def _spherical_j0(xp, x):
    """PyTorch's kernel: its Taylor series (in fused steps) below 0.5, sin(x)/x above, 0 at the
    infinities."""
    one = x.dtype.type(1)
    with _quiet(xp):
        xx = x * x
        series = xp.asarray(one / x.dtype.type(6227020800.0), dtype=x.dtype)
        for term in (-39916800.0, 362880.0, -5040.0, 120.0, -6.0):
            series = _fma(xp, xx, series, xp.asarray(one / x.dtype.type(term), dtype=x.dtype))
        series = _fma(xp, xx, series, xp.ones_like(x))
        out = xp.where(xp.abs(x) < 0.5, series, _libm(xp, xp.sin, x) / x)
        return xp.where(xp.isinf(x), 0, out).astype(x.dtype, copy=False)


# PyTorch's own Bessel J0, J1, Y0, Y1 kernels (Cephes' rational approximations, its tables and
# its compiler's fused multiply-adds): SciPy's values are more accurate, but differ from
# PyTorch's by up to 3e-7 just above x = 5, where the kernels switch formulas.
# Y0 and Y1 share J0's and J1's tables for large x (the asymptotic P and Q).
_BESSEL0_LARGE_X = {
    "PP": (
        0.0007969367292973471,
        0.08283523921074408,
        1.239533716464143,
        5.447250030587687,
        8.74716500199817,
        5.303240382353949,
        1.0,
    ),
    "PQ": (
        0.0009244088105588637,
        0.08562884743544745,
        1.2535274390105895,
        5.470977403304171,
        8.761908832370695,
        5.306052882353947,
        1.0,
    ),
    "QP": (
        -0.011366383889846916,
        -1.2825271867050931,
        -19.553954425773597,
        -93.20601521237683,
        -177.68116798048806,
        -147.07750515495118,
        -51.41053267665993,
        -6.050143506007285,
    ),
    "QQ": (
        64.3178256118178,
        856.4300259769806,
        3882.4018360540163,
        7240.467741956525,
        5930.727011873169,
        2062.0933166032783,
        242.0057402402914,
    ),
}
_BESSEL1_LARGE_X = {
    "PP": (
        0.0007621256162081731,
        0.07313970569409176,
        1.1271960812968493,
        5.112079511468076,
        8.424045901417724,
        5.214515986823615,
        1.0,
    ),
    "PQ": (
        0.0005713231280725487,
        0.06884559087544954,
        1.105142326340617,
        5.073863861286015,
        8.399855543276042,
        5.209828486823619,
        1.0,
    ),
    "QP": (
        0.05108625947501766,
        4.982138729512334,
        75.82382841325453,
        366.7796093601508,
        710.8563049989261,
        597.4896124006136,
        211.68875710057213,
        25.207020585802372,
    ),
    "QQ": (
        74.23732770356752,
        1056.4488603826283,
        4986.410583376536,
        9562.318924047562,
        7997.041604473507,
        2826.1927851763908,
        336.0936078106983,
    ),
}
_BESSEL_TABLES = {
    "bessel_j0": {
        **_BESSEL0_LARGE_X,
        "RP": (-4794432209.782018, 1956174919465.5657, -249248344360967.72, 9708622510473064.0),
        "RQ": (
            499.563147152651,
            173785.4016763747,
            48440965.83399621,
            11185553704.535683,
            2112775201154.892,
            310518229857422.56,
            3.1812195594320496e16,
            1.7108629408104315e18,
        ),
    },
    "bessel_j1": {
        **_BESSEL1_LARGE_X,
        "RP": (-899971225.7055594, 452228297998.19403, -72749424522181.83, 3682957328638529.0),
        "RQ": (
            620.8364781180543,
            256987.25675774884,
            83514679.14319493,
            22151159547.97925,
            4749141220799.914,
            784369607876235.9,
            8.952223361846274e16,
            5.322786203326801e18,
        ),
    },
    "bessel_y0": {
        **_BESSEL0_LARGE_X,
        "YP": (
            15592.436785523574,
            -14663929.59039716,
            5435264770.518765,
            -982136065717.9115,
            87590639439536.7,
            -3466283033847297.0,
            4.4273326857256984e16,
            -1.8495080043698668e16,
        ),
        "YQ": (
            1041.2835366425984,
            626107.330137135,
            268919633.39381415,
            86400248710.3935,
            20297961275010.555,
            3171577528429750.5,
            2.5059625617265306e17,
        ),
    },
    "bessel_y1": {
        **_BESSEL1_LARGE_X,
        "YP": (
            1263204747.9017804,
            -647355876379.1603,
            114509511541823.73,
            -8127702555013251.0,
            2.024394757135949e17,
            -7.788771962659501e17,
        ),
        "YQ": (
            594.3015923461282,
            235564.09294306856,
            73481194.44597217,
            18760131610.870617,
            3882312774962.3857,
            620557727146953.8,
            6.871410873553005e16,
            3.9727060811656064e18,
        ),
    },
}


def _horner(xp, coefficients, z):
    """A polynomial in ``z`` by Horner's rule, each step one fused multiply-add."""
    acc = xp.zeros_like(z)
    for c in coefficients:
        acc = _fma(xp, acc, z, xp.full_like(z, c))
    return acc


def _bessel_asymptotic(xp, x, table: dict, z, phase: float, sign: int):
    """The kernels' large-x form: (P cos(x - phase) -+ 5/x Q sin(x - phase)) sqrt(2/pi) / sqrt(x)
    (sign -1, for J), or with sin and cos swapped and + (sign +1, for Y)."""
    d = x.dtype.type
    p = _horner(xp, table["PP"], z) / _horner(xp, table["PQ"], z)
    q = d(5) / x * (_horner(xp, table["QP"], z) / _horner(xp, table["QQ"], z))
    shifted = x - d(phase)
    first, second = (xp.cos, xp.sin) if sign < 0 else (xp.sin, xp.cos)
    core = _fma(xp, p, _libm(xp, first, shifted), sign * (q * _libm(xp, second, shifted)))
    return core * d(0.797884560802865355879892119868763737) / _libm(xp, xp.sqrt, x)


_TWO_OVER_PI = 0.636619772367581343075535053490057448


def _bessel_j0(xp, x):
    d, table = x.dtype.type, _BESSEL_TABLES["bessel_j0"]
    with _quiet(xp):
        x = xp.abs(x)
        xx = x * x
        small = (xx - d(5.78318596294678452118e00)) * (xx - d(3.04712623436620863991e01))
        small = small * _horner(xp, table["RP"], xx) / _horner(xp, table["RQ"], xx)
        small = xp.where(x < d(1e-5), d(1) - xx / d(4), small)
        large = _bessel_asymptotic(xp, x, table, d(25) / xx, 0.785398163397448309615660845819875721, -1)
        return xp.where(x <= 5, small, large).astype(x.dtype, copy=False)


def _bessel_j1(xp, x):
    d, table = x.dtype.type, _BESSEL_TABLES["bessel_j1"]
    with _quiet(xp):
        negative, x = x < 0, xp.abs(x)  # J1 is odd
        xx = x * x
        rational = _horner(xp, table["RP"], xx) / _horner(xp, table["RQ"], xx)
        small = rational * x * (xx - d(1.46819706421238932572e01)) * (xx - d(4.92184563216946036703e01))
        large = _bessel_asymptotic(xp, x, table, d(5) / x * (d(5) / x), 2.356194490192344928846982537459627163, -1)
        out = xp.where(x <= 5, small, large)
        return xp.where(negative, -out, out).astype(x.dtype, copy=False)


def _bessel_y0(xp, x):
    d, table = x.dtype.type, _BESSEL_TABLES["bessel_y0"]
    with _quiet(xp):
        xx = x * x
        rational = _horner(xp, table["YP"], xx) / _horner(xp, table["YQ"], xx)
        small = _fma(xp, d(_TWO_OVER_PI) * _libm(xp, xp.log, x), _bessel_j0(xp, x), rational)
        small = xp.where(x == 0, -math.inf, xp.where(x < 0, math.nan, small))
        large = _bessel_asymptotic(xp, x, table, d(25) / xx, 0.785398163397448309615660845819875721, 1)
        return xp.where(x <= 5, small, large).astype(x.dtype, copy=False)


def _bessel_y1(xp, x):
    d, table = x.dtype.type, _BESSEL_TABLES["bessel_y1"]
    with _quiet(xp):
        xx = x * x
        rational = _horner(xp, table["YP"], xx) / _horner(xp, table["YQ"], xx)
        log_term = _fma(xp, _bessel_j1(xp, x), _libm(xp, xp.log, x), -(d(1) / x))
        small = _fma(xp, x, rational, d(_TWO_OVER_PI) * log_term)
        small = xp.where(x == 0, -math.inf, xp.where(x <= 0, math.nan, small))
        large = _bessel_asymptotic(xp, x, table, d(5) / x * (d(5) / x), 2.356194490192344928846982537459627163, 1)
        return xp.where(x <= 5, small, large).astype(x.dtype, copy=False)


def _airy_ai(x):
    import scipy.special

    return scipy.special.airy(x)[0]


_UNARY_KERNELS = {
    "bessel_j0": _bessel_j0,
    "bessel_j1": _bessel_j1,
    "bessel_y0": _bessel_y0,
    "bessel_y1": _bessel_y1,
    "modified_bessel_i0": lambda xp, x: backend.special("i0", x),
    "modified_bessel_i1": lambda xp, x: backend.special("i1", x),
    "modified_bessel_k0": lambda xp, x: backend.special("k0", x),
    "modified_bessel_k1": lambda xp, x: backend.special("k1", x),
    "scaled_modified_bessel_k0": lambda xp, x: backend.special("k0e", x),
    "scaled_modified_bessel_k1": lambda xp, x: backend.special("k1e", x),
    "spherical_bessel_j0": _spherical_j0,
    "airy_ai": lambda xp, x: _on_host(_airy_ai, x),
}


# PyTorch's kernels truncate the degree n to an integer (static_cast<int64_t>); a NaN or infinite
# n (which x86 turns into INT64_MIN) counts as negative, and so gives 0.
def _degree(xp, n):
    with _quiet(xp):
        return xp.where(xp.isfinite(n) & (xp.abs(n) < 2.0**63), n, -1).astype(numpy.int64)


def _recurrence(xp, x, n, first, update, start: int, stop, nan_stops: bool = True):
    """PyTorch's loop ``p, q = 1, first; for k in start..stop(n): p, q = q, update(k, p, q)``,
    elementwise: each element stops at its own degree (or where ``q`` turned NaN)."""
    p, q = xp.ones_like(x), first
    last = stop(n)
    top = int(last.max()) if last.size else 0
    with _quiet(xp):
        for k in range(start, top + 1):
            active = k <= last
            if nan_stops:
                active &= ~xp.isnan(q)
            if not bool(active.any()):
                break
            r = update(k, p, q)
            p, q = xp.where(active, q, p), xp.where(active, r, q)
    return q


def _chebyshev(xp, x, n, kind: str, shifted: bool):
    """PyTorch's chebyshev_polynomial_{t,u,v,w} and shifted_chebyshev_polynomial_* kernels, with
    their special values at the ends of the interval, their closed forms inside it (above a
    degree) and the three-term recurrence elsewhere."""
    dtype = x.dtype
    with _quiet(xp):
        k = _degree(xp, n)
        nf = k.astype(dtype)
        if shifted:  # the shifted polynomials are the plain ones at y = 2x - 1
            y = x + x - 1
            at_one, at_minus_one, closed_above = x == 1, x == 0, 4 if kind == "w" else 6
            two_y = y + y
        else:
            y = x
            at_one, at_minus_one, closed_above = (
                (xp.abs(x) == 1) & (x > 0),
                (xp.abs(x) == 1) & ~(x > 0),
                6 if kind == "t" else 8,
            )
            two_y = x + x
        even = k % 2 == 0
        theta = _acos(xp, y)
        inside = (k > closed_above) & (xp.abs(y) < 1)
        if kind == "t":
            ends = [(at_one, 1), (at_minus_one, xp.where(even, 1, -1))]
            closed = [(inside, _libm(xp, xp.cos, nf * theta))]
            first = y
        elif kind == "u":
            n1 = (k + 1).astype(dtype)
            ends = [(at_one, n1), (at_minus_one, xp.where(even, n1, -n1))]
            sine = _libm(xp, xp.sin, theta)
            closed = [
                (inside & (sine != 0), _libm(xp, xp.sin, n1 * theta) / sine),
                (inside, n1 * _libm(xp, xp.cos, n1 * theta) / y),
            ]
            first = two_y if not shifted else y + y
        elif kind == "v":
            odd_value = (k + k + 1).astype(dtype)
            ends = [(at_one, 1), (at_minus_one, xp.where(even, odd_value, -odd_value))]
            closed = [
                (
                    inside & (_libm(xp, xp.sin, theta / 2) != 1),
                    _libm(xp, xp.cos, (nf + dtype.type(0.5)) * theta) / _libm(xp, xp.cos, theta / 2),
                ),
                (inside, xp.where(even, odd_value, -odd_value)),
            ]
            first = (x + x - 1) if not shifted else y + y - 1
        else:
            odd_value = (k + k + 1).astype(dtype)
            ends = [(at_one, odd_value), (at_minus_one, xp.where(even, 1, -1))]
            closed = [
                (
                    inside & (_libm(xp, xp.cos, theta / 2) != 1),
                    _libm(xp, xp.sin, (nf + dtype.type(0.5)) * theta) / _libm(xp, xp.sin, theta / 2),
                ),
                (inside & (y > 0), odd_value),
                (inside, xp.where(even, 1, -1)),
            ]
            first = (x + x + 1) if not shifted else y + y + 1
        first = first.astype(dtype, copy=False)
        loop = _recurrence(xp, y, xp.where((k >= 2) & ~at_one & ~at_minus_one & ~inside, k, 0), first,
                           lambda _, p, q: _fma(xp, two_y, q, -p), 2, lambda last: last)  # fmt: skip
        conditions = [k < 0] + [c for c, _ in ends] + [c for c, _ in closed] + [k == 0, k == 1]
        values = [0] + [v for _, v in ends] + [v for _, v in closed] + [1, first]
        return xp.select(conditions, [xp.asarray(v, dtype=dtype) for v in values], loop).astype(dtype, copy=False)


def _hermite(xp, x, n, physicists: bool):
    """PyTorch's hermite_polynomial_h/he kernels: NaN above degree 128 (float32) or 512 (float64)."""
    dtype = x.dtype
    k = _degree(xp, n)
    limit = 128 if dtype == numpy.float32 else 512
    first = (x + x) if physicists else x
    runs = xp.where((k >= 2) & (k <= limit), k, 0)
    if physicists:  # for k = 2, 4, ..., 2n - 2: r = 2x q - k p
        loop = _recurrence(
            xp, x, runs, first, lambda j, p, q: _fma(xp, x + x, q, -((2 * j) * p)), 1, lambda n: n - 1, False
        )
    else:  # for k = 1 .. n - 1: r = x q - k p
        loop = _recurrence(xp, x, runs, first, lambda j, p, q: _fma(xp, x, q, -(j * p)), 1, lambda n: n - 1, False)
    conditions = [k < 0, k == 0, k == 1, k > limit]
    values = [0, 1, first, math.nan]
    return xp.select(conditions, [xp.asarray(v, dtype=dtype) for v in values], loop).astype(dtype, copy=False)


def _laguerre(xp, x, n):
    dtype = x.dtype
    k = _degree(xp, n)
    with _quiet(xp):
        first = (1 - x).astype(dtype, copy=False)
        loop = _recurrence(xp, x, xp.where((k >= 2) & (x != 0), k, 0), first,
                           lambda j, p, q: _fma(xp, (j + j) + (1 - x), q, -(j * p)) / (j + 1), 1, lambda n: n - 1)  # fmt: skip
    conditions = [k < 0, xp.abs(x) == 0, k == 0, k == 1]
    return xp.select(conditions, [xp.asarray(v, dtype=dtype) for v in (0, 1, 1, first)], loop).astype(dtype, copy=False)


def _legendre(xp, x, n):
    dtype = x.dtype
    k = _degree(xp, n)
    end = xp.abs(x) == 1
    with _quiet(xp):
        loop = _recurrence(xp, x, xp.where((k >= 2) & ~end, k, 0), x,
                           lambda j, p, q: _fma(xp, (j + j + 1) * x, q, -(j * p)) / (j + 1), 1, lambda n: n - 1)  # fmt: skip
    end_value = xp.where((x > 0) | (k % 2 == 0), 1, -1)
    conditions = [k < 0, end, k == 0, k == 1]
    return xp.select(conditions, [xp.asarray(v, dtype=dtype) for v in (0, end_value, 1, x)], loop).astype(
        dtype, copy=False
    )


_POLYNOMIAL_KERNELS = {
    **{f"chebyshev_polynomial_{kind}": functools.partial(_chebyshev, kind=kind, shifted=False) for kind in "tuvw"},
    **{f"shifted_chebyshev_polynomial_{kind}": functools.partial(_chebyshev, kind=kind, shifted=True) for kind in "tuvw"},
    "hermite_polynomial_h": functools.partial(_hermite, physicists=True),
    "hermite_polynomial_he": functools.partial(_hermite, physicists=False),
    "laguerre_polynomial_l": _laguerre,
    "legendre_polynomial_p": _legendre,
}  # fmt: skip

erfcx_op = Op("SpecialErfcxBackward0", lambda xp, self: backend.special("erfcx", self),
              self=lambda grad, self, result: sub_scalar_op(mul_scalar_op(self, other=2.0) * result, other=2.0 / math.sqrt(math.pi)) * grad)  # fmt: skip
# zeta(x, q): PyTorch differentiates it for q only, -x zeta(x + 1, q); for x it raises.
zeta_op = Op("SpecialZetaBackward0", _zeta,
             x=lambda grad: _not_implemented("zeta"),
             q=lambda grad, x, q: grad * x.neg() * zeta_op(add_scalar_op(x, other=1.0), q))  # fmt: skip
zeta_scalar_self_op = Op("SpecialZetaBackward1", lambda xp, q, *, self: _zeta(xp, xp.asarray(self, dtype=q.dtype), q),
                         q=lambda grad, q, self: mul_scalar_op(grad, other=-self) * zeta_scalar_self_op(q, self=self + 1.0))  # fmt: skip
zeta_scalar_other_op = Op("SpecialZetaBackward2", lambda xp, x, *, other: _zeta(xp, x, xp.asarray(other, dtype=x.dtype)),
                          x=lambda grad: _not_implemented("zeta"))  # fmt: skip
# The Bessel, Airy and polynomial functions are not differentiable in PyTorch: their results never
# require grad. These ops run under no_grad and have no rules.
_unary_ops = {name: Op("NotDifferentiable", kernel) for name, kernel in _UNARY_KERNELS.items()}


def _polynomial_overloads(kernel) -> tuple[Op, Op, Op]:
    """Ops for (tensor, tensor), (number, tensor) and (tensor, number), as _three_overloads takes."""
    return (
        Op("NotDifferentiable", lambda xp, x, n: kernel(xp, *xp.broadcast_arrays(x, n))),
        Op("NotDifferentiable", lambda xp, n, *, self: kernel(xp, xp.full(n.shape, self, dtype=n.dtype), n)),
        Op("NotDifferentiable", lambda xp, x, *, other: kernel(xp, x, xp.full(x.shape, other, dtype=x.dtype))),
    )


_polynomial_ops = {name: _polynomial_overloads(kernel) for name, kernel in _POLYNOMIAL_KERNELS.items()}


def _float_unary(op: Op, name: str, argument: str, input: Tensor) -> Tensor:
    """One tensor in, floats out (integers and bools compute in the default dtype); PyTorch has
    float32 and float64 kernels only."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"special_{name}(): argument '{argument}' (position 1) must be Tensor, not {type(input).__name__}"
        )
    if input.dtype is dtypes.float16:
        raise _no_kernel(f"{name}_{input.device.type}", dtypes.float16)
    return op(input, dtype=_floating(input))


def _check_pair(name: str, input, other) -> None:
    """PyTorch's errors for two arguments of which one at least must be a tensor."""
    tensors = [v for v in (input, other) if isinstance(v, Tensor)]
    if not tensors or not all(isinstance(v, (Tensor, Number)) for v in (input, other)):
        raise _invalid_arguments(f"special_{name}", input, other)
    if any(t.dtype is dtypes.float16 for t in tensors):
        raise _no_kernel(f"{name}_{tensors[0].device.type}", dtypes.float16)


def erfcx(input: Tensor) -> Tensor:
    """The scaled complementary error function ``exp(x²) erfc(x)``, which neither overflows nor
    underflows for large ``x`` (where erfc does).

    >>> import minigrad as torch
    >>> torch.special.erfcx(torch.tensor([0.0, 10.0]))
    tensor([1.0000, 0.0561])
    """
    return _float_unary(erfcx_op, "erfcx", "input", input)


def zeta(input, other) -> Tensor:
    """The Hurwitz zeta function ``Σ_{k≥0} (k + q)^-x`` of ``x = input`` and ``q = other``
    (``q = 1`` is Riemann's zeta); either may be a number. As in PyTorch, the derivative for
    ``q`` is ``-x zeta(x + 1, q)``, and the one for ``x`` raises ``NotImplementedError``.

    >>> import minigrad as torch
    >>> torch.special.zeta(torch.tensor([2.0, 4.0]), 1.0)  # π²/6, π⁴/90
    tensor([1.6449, 1.0823])
    """
    _check_pair("zeta", input, other)
    return _three_overloads("special_zeta", (zeta_op, zeta_scalar_self_op, zeta_scalar_other_op), input, other)


def _make_unary(name: str, argument: str, summary: str, example: str, shown: str):
    op = _unary_ops[name]

    def function(input: Tensor) -> Tensor:
        with no_grad():
            return _float_unary(op, name, argument, input)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"{summary} Not differentiable, as in PyTorch (the result never requires grad).\n\n"
        f"    >>> import minigrad as torch\n    >>> torch.special.{name}(torch.tensor({example}))\n    {shown}\n"
    )
    return function


def _make_polynomial(name: str, summary: str, example: str, shown: str):
    ops = _polynomial_ops[name]

    def function(input, n) -> Tensor:
        _check_pair(name, input, n)
        with no_grad():
            return _three_overloads(f"special_{name}", ops, input, n)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"{summary} ``n`` (a tensor or a number) is truncated to an integer; a negative degree "
        "gives 0. Not differentiable, as in PyTorch.\n\n"
        f"    >>> import minigrad as torch\n    >>> torch.special.{name}(torch.tensor({example}), 3)\n    {shown}\n"
    )
    return function


bessel_j0 = _make_unary(
    "bessel_j0", "input", "The Bessel function of the first kind of order 0.", "[0.0, 1.0]", "tensor([1.0000, 0.7652])"
)
bessel_j1 = _make_unary(
    "bessel_j1", "input", "The Bessel function of the first kind of order 1.", "[0.0, 1.0]", "tensor([0.0000, 0.4401])"
)
bessel_y0 = _make_unary(
    "bessel_y0",
    "input",
    "The Bessel function of the second kind of order 0 (-inf at 0, NaN below).",
    "[1.0, 2.0]",
    "tensor([0.0883, 0.5104])",
)
bessel_y1 = _make_unary(
    "bessel_y1",
    "input",
    "The Bessel function of the second kind of order 1 (-inf at 0, NaN below).",
    "[1.0, 2.0]",
    "tensor([-0.7812, -0.1070])",
)
modified_bessel_i0 = _make_unary(
    "modified_bessel_i0",
    "input",
    "The modified Bessel function of the first kind of order 0.",
    "[0.0, 1.0]",
    "tensor([1.0000, 1.2661])",
)
modified_bessel_i1 = _make_unary(
    "modified_bessel_i1",
    "input",
    "The modified Bessel function of the first kind of order 1.",
    "[0.0, 1.0]",
    "tensor([0.0000, 0.5652])",
)
modified_bessel_k0 = _make_unary(
    "modified_bessel_k0",
    "input",
    "The modified Bessel function of the second kind of order 0 (inf at 0).",
    "[1.0, 2.0]",
    "tensor([0.4210, 0.1139])",
)
modified_bessel_k1 = _make_unary(
    "modified_bessel_k1",
    "input",
    "The modified Bessel function of the second kind of order 1 (inf at 0).",
    "[1.0, 2.0]",
    "tensor([0.6019, 0.1399])",
)
scaled_modified_bessel_k0 = _make_unary(
    "scaled_modified_bessel_k0",
    "x",
    "``exp(x) * modified_bessel_k0(x)``, which does not underflow for large ``x``.",
    "[1.0, 100.0]",
    "tensor([1.1445, 0.1252])",
)
scaled_modified_bessel_k1 = _make_unary(
    "scaled_modified_bessel_k1",
    "x",
    "``exp(x) * modified_bessel_k1(x)``, which does not underflow for large ``x``.",
    "[1.0, 100.0]",
    "tensor([1.6362, 0.1258])",
)
spherical_bessel_j0 = _make_unary(
    "spherical_bessel_j0",
    "x",
    "The spherical Bessel function of the first kind of order 0, ``sin(x) / x``.",
    "[0.0, 3.0]",
    "tensor([1.0000, 0.0470])",
)
airy_ai = _make_unary("airy_ai", "x", "The Airy function Ai.", "[0.0, 1.0]", "tensor([0.3550, 0.1353])")

chebyshev_polynomial_t = _make_polynomial(
    "chebyshev_polynomial_t", "The Chebyshev polynomial of the first kind T_n(x).", "[0.5, 2.0]", "tensor([-1., 26.])"
)
chebyshev_polynomial_u = _make_polynomial(
    "chebyshev_polynomial_u", "The Chebyshev polynomial of the second kind U_n(x).", "[0.5, 2.0]", "tensor([-1., 56.])"
)
chebyshev_polynomial_v = _make_polynomial(
    "chebyshev_polynomial_v", "The Chebyshev polynomial of the third kind V_n(x).", "[0.5, 2.0]", "tensor([-1., 41.])"
)
chebyshev_polynomial_w = _make_polynomial(
    "chebyshev_polynomial_w", "The Chebyshev polynomial of the fourth kind W_n(x).", "[0.5, 2.0]", "tensor([-1., 71.])"
)
shifted_chebyshev_polynomial_t = _make_polynomial(
    "shifted_chebyshev_polynomial_t",
    "The shifted Chebyshev polynomial of the first kind T*_n(x) = T_n(2x - 1).",
    "[0.5, 2.0]",
    "tensor([-0., 99.])",
)
shifted_chebyshev_polynomial_u = _make_polynomial(
    "shifted_chebyshev_polynomial_u",
    "The shifted Chebyshev polynomial of the second kind U*_n(x) = U_n(2x - 1).",
    "[0.5, 2.0]",
    "tensor([ -0., 204.])",
)
shifted_chebyshev_polynomial_v = _make_polynomial(
    "shifted_chebyshev_polynomial_v",
    "The shifted Chebyshev polynomial of the third kind V*_n(x) = V_n(2x - 1).",
    "[0.5, 2.0]",
    "tensor([  1., 169.])",
)
shifted_chebyshev_polynomial_w = _make_polynomial(
    "shifted_chebyshev_polynomial_w",
    "The shifted Chebyshev polynomial of the fourth kind W*_n(x) = W_n(2x - 1).",
    "[0.5, 2.0]",
    "tensor([ -1., 239.])",
)
hermite_polynomial_h = _make_polynomial(
    "hermite_polynomial_h",
    "The physicists' Hermite polynomial H_n(x) (NaN above degree 128 in float32, 512 in float64).",
    "[0.5, 2.0]",
    "tensor([-5., 40.])",
)
hermite_polynomial_he = _make_polynomial(
    "hermite_polynomial_he",
    "The probabilists' Hermite polynomial He_n(x) (NaN above degree 128 in float32, 512 in float64).",
    "[0.5, 2.0]",
    "tensor([-1.3750,  2.0000])",
)
laguerre_polynomial_l = _make_polynomial(
    "laguerre_polynomial_l", "The Laguerre polynomial L_n(x).", "[0.5, 2.0]", "tensor([-0.1458, -0.3333])"
)
legendre_polynomial_p = _make_polynomial(
    "legendre_polynomial_p", "The Legendre polynomial P_n(x).", "[0.5, 2.0]", "tensor([-0.4375, 17.0000])"
)
