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

import math

from . import backend, dtypes
from .autograd.op import Op
from .factories import arange
from .functions import (
    _check_tensor,
    _floating,
    _in_place_method,
    _inplace_function,
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
    where,
    xlogy,
)
from .tensor import Tensor

__all__ = [
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
                self=lambda grad, self, other: xlog1py(grad, other).masked_fill((self == 0) & (other <= -1), 0),
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
        raise NotImplementedError(f"\"round_vml_cpu\" not implemented for '{input.dtype._legacy_name}'")
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
