"""Differentiable operations and their derivative rules.

Each operation is an :class:`~minigrad.autograd.op.Op`: a forward on arrays and one derivative
rule per input, written with minigrad's own operations so that ``create_graph=True`` works for
every op. Broadcasting is undone in one place (``Op`` reduces each gradient to its input's shape),
so rules are written as if shapes matched. The public functions below add what PyTorch adds
around the raw op: type promotion, Python scalars, argument checks and clear errors.
"""

from __future__ import annotations

import builtins
import collections
import math
import numbers
import operator
import re
from collections.abc import Sequence

from . import _warn, backend, dtypes
from ._libstdcxx import INSERTION_SORT_MAX, Libstdcxx, std_sort_order
from .autograd.grad_mode import enable_grad, is_grad_enabled
from .autograd.graph import Node, SavedTensor, gradient_edge
from .autograd.op import Op, _fit
from .tensor import _MULTI_VIEW_ADVICE, Size, Tensor, ones_like_tensor, scalar_tensor, wrapped_number, zeros_like_tensor

Number = int | float | bool


# ----------------------------------------------------------------------------------------------
# The derivative table: one op and one rule per input. ``grad`` is the incoming gradient,
# ``result`` the op's output; every other name is an input or parameter of the op.
# ----------------------------------------------------------------------------------------------

# With an alpha, floats are rounded once per element (a fused multiply-add), as in PyTorch.
add_op = Op("AddBackward0", lambda xp, self, other, *, alpha: backend.add_scaled(self, other, alpha) if alpha != 1 else self + other,
            self=lambda grad: grad,
            other=lambda grad, alpha: _times(grad, alpha))
sub_op = Op("SubBackward0", lambda xp, self, other, *, alpha: backend.add_scaled(self, other, -alpha) if alpha != 1 else self - other,
            self=lambda grad: grad,
            other=lambda grad, alpha: -grad * alpha if alpha != 1 else -grad)
# The number is cast first, so an int out of range wraps as in PyTorch (3 - uint8 tensor).
rsub_op = Op("RsubBackward1", lambda xp, self, *, other: xp.asarray(other).astype(self.dtype) - self,
             self=lambda grad: -grad)
rsub_tensor_op = Op("RsubBackward0", lambda xp, self, other, *, alpha: backend.add_scaled(other, self, -alpha) if alpha != 1 else other - self,
                    self=lambda grad, alpha: -grad * alpha if alpha != 1 else -grad,
                    other=lambda grad: grad)
# A tensor and a number inside PyTorch's C++ (derivative formulas, composite ops): from Python
# ``x * 2`` is MulBackward0; ``mul(Tensor, Scalar)`` in C++ is MulBackward1 (and so on).
add_scalar_op = Op("AddBackward1", lambda xp, self, *, other: self + xp.asarray(other, dtype=self.dtype),
                   self=lambda grad: grad)
sub_scalar_op = Op("SubBackward1", lambda xp, self, *, other: self - xp.asarray(other, dtype=self.dtype),
                   self=lambda grad: grad)
mul_scalar_op = Op("MulBackward1", lambda xp, self, *, other: self * xp.asarray(other, dtype=self.dtype),
                   self=lambda grad, other: mul_scalar_op(grad, other=other))
div_scalar_op = Op("DivBackward1", lambda xp, self, *, other: self / xp.asarray(other, dtype=self.dtype),
                   self=lambda grad, other: div_scalar_op(grad, other=other))
mul_op = Op("MulBackward0", lambda xp, self, other: self * other,
            self=lambda grad, other: grad * other,
            other=lambda grad, self: grad * self)
div_op = Op("DivBackward0", lambda xp, self, other: self / other,
            self=lambda grad, other: grad / other,
            other=lambda grad, self, other: -grad * (self / other / other))  # PyTorch's order (the same infs and rounding)
reciprocal_op = Op("ReciprocalBackward0", lambda xp, self: 1 / self,
                   self=lambda grad, result: -grad * (result * result))
pow_op = Op("PowBackward0", lambda xp, self, *, exponent: self**exponent if exponent != 0.5 and exponent != -0.5 else _pow_half(xp, self, exponent),
            self=lambda grad, self, exponent: grad * mul_scalar_op(self ** (exponent - 1), other=exponent) if exponent != 0 or exponent is False else zeros_like_tensor(grad))  # PyTorch: False is not 0 here
pow_tensor_op = Op("PowBackward1", lambda xp, self, exponent: _power(xp, self, exponent),
                   self=lambda grad, self, exponent: where(exponent == 0, 0.0, grad * (exponent * self ** _minus_one(exponent))),
                   exponent=lambda grad, self, exponent, result: grad * where((self == 0) & (exponent >= 0), 0.0, result * self.log()))
rpow_op = Op("PowBackward2", lambda xp, exponent, *, base: _power(xp, _wrap_number(xp, base, exponent.dtype), exponent),
             exponent=lambda grad, result, base, exponent: grad * mul_scalar_op(result, other=math.log(base) if base > 0 else math.nan) if base != 0 else grad * where(exponent >= 0, 0.0, -result * math.inf))
neg_op = Op("NegBackward0", lambda xp, self: -self,
            self=lambda grad: -grad)
abs_op = Op("AbsBackward0", lambda xp, self: xp.abs(self),
            self=lambda grad, self: grad * self.sgn())
sign_op = Op("SignBackward0", lambda xp, self: xp.nan_to_num(xp.sign(self)),  # sign(nan) is 0, as in PyTorch
             self=lambda grad: zeros_like_tensor(grad))
# Rounding is piecewise constant: recorded, with a zero gradient, as in PyTorch.
floor_op = Op("FloorBackward0", lambda xp, self: xp.floor(self),
              self=lambda grad: zeros_like_tensor(grad))
ceil_op = Op("CeilBackward0", lambda xp, self: xp.ceil(self),
             self=lambda grad: zeros_like_tensor(grad))
round_op = Op("RoundBackward0", lambda xp, self: xp.round(self),
              self=lambda grad: zeros_like_tensor(grad))
round_decimals_op = Op("RoundBackward1", lambda xp, self, *, decimals: _round_decimals(xp, self, decimals),
                       self=lambda grad: zeros_like_tensor(grad))
trunc_op = Op("TruncBackward0", lambda xp, self: xp.trunc(self),
              self=lambda grad: zeros_like_tensor(grad))
# ``//`` has no derivative in PyTorch: its node is NotImplemented, and backward through it raises.
floor_divide_op = Op("NotImplemented", lambda xp, self, other: _div_rounded(xp, self, other, "floor"),
                     self=lambda grad: _no_derivative("floor_divide"),
                     other=lambda grad: _no_derivative("floor_divide"))
# PyTorch's NotImplemented node has an edge only for an input that requires grad: a number, or a
# tensor that does not, is a parameter here.
floor_divide_scalar_op = Op("NotImplemented", lambda xp, self, *, other: _div_rounded(xp, self, xp.asarray(other, dtype=self.dtype), "floor"),
                            self=lambda grad: _no_derivative("floor_divide"))
rfloor_divide_op = Op("NotImplemented", lambda xp, other, *, base: _div_rounded(xp, _wrap_number(xp, base, other.dtype), other, "floor"),
                      other=lambda grad: _no_derivative("floor_divide"))
# Remainders: ``%`` takes the sign of the divisor (Python's), fmod the sign of the dividend (C's).
remainder_op = Op("RemainderBackward1", lambda xp, self, other: _modulo(xp, self, other, xp.remainder),
                  self=lambda grad: grad,
                  other=lambda grad, self, other: -grad * self.div(other, rounding_mode="floor"))
remainder_scalar_op = Op("RemainderBackward0", lambda xp, self, *, other: _modulo(xp, self, other, xp.remainder),
                         self=lambda grad: grad)
# A number % a tensor has no derivative in PyTorch, like ``//``.
rremainder_op = Op("NotImplemented", lambda xp, other, *, base: _modulo(xp, _wrap_number(xp, base, other.dtype), other, xp.remainder),
                   other=lambda grad: _no_derivative("remainder"))
fmod_op = Op("FmodBackward1", lambda xp, self, other: _modulo(xp, self, other, xp.fmod),
             self=lambda grad: grad,
             other=lambda grad, self, other: -grad * self.div(other, rounding_mode="trunc"))
fmod_scalar_op = Op("FmodBackward0", lambda xp, self, *, other: _modulo(xp, self, other, xp.fmod),
                    self=lambda grad: grad)
# The gradients are zeros, but PyTorch's node saves what true division's would read (so an
# in-place change of ``other`` raises in backward).
div_rounded_op = Op("DivBackward2", lambda xp, self, other, *, rounding_mode: _div_rounded(xp, self, other, rounding_mode),
                    self=lambda grad, other: zeros_like_tensor(grad),
                    other=lambda grad, self, other: zeros_like_tensor(grad))
exp_op = Op("ExpBackward0", lambda xp, self: xp.exp(self),
            self=lambda grad, result: grad * result)
log_op = Op("LogBackward0", lambda xp, self: xp.log(self),
            self=lambda grad, self: grad / self)
log1p_op = Op("Log1PBackward0", lambda xp, self: xp.log1p(self),
              self=lambda grad, self: grad / add_scalar_op(self, other=1))
expm1_op = Op("Expm1Backward0", lambda xp, self: xp.expm1(self),
              self=lambda grad, result: grad * add_scalar_op(result, other=1))
sqrt_op = Op("SqrtBackward0", lambda xp, self: xp.sqrt(self),
             self=lambda grad, result: grad / mul_scalar_op(result, other=2))
rsqrt_op = Op("RsqrtBackward0", lambda xp, self: 1 / xp.sqrt(self),
              self=lambda grad, result: mul_scalar_op(grad, other=-0.5) * result.pow(3))
sin_op = Op("SinBackward0", lambda xp, self: xp.sin(self),
            self=lambda grad, self: grad * self.cos())
cos_op = Op("CosBackward0", lambda xp, self: xp.cos(self),
            self=lambda grad, self: grad * -self.sin())
# PyTorch's rule reads the result: d tan = 1 + tan².
tan_op = Op("TanBackward0", lambda xp, self: xp.tan(self),
            self=lambda grad, result: grad * add_scalar_op(result.pow(2), other=1))
erf_op = Op("ErfBackward0", lambda xp, self: backend.erf(self),
            self=lambda grad, self: mul_scalar_op((-self.pow(2)).exp(), other=2 / math.sqrt(math.pi)) * grad)
tanh_op = Op("TanhBackward0", lambda xp, self: xp.tanh(self),
             self=lambda grad, result: tanh_backward_op(grad, result))
sigmoid_op = Op("SigmoidBackward0", lambda xp, self: _sigmoid(xp, self),
                self=lambda grad, result: sigmoid_backward_op(grad, result))
# Their backward as ops of their own, as in PyTorch (one node instead of three, and PyTorch's
# nodes when the backward pass is itself recorded).
tanh_backward_op = Op("TanhBackwardBackward0", lambda xp, grad_output, output: grad_output * (1 - output * output),
                      grad_output=lambda grad, output: tanh_backward_op(grad, output),
                      output=lambda grad, grad_output, output: grad * (mul_scalar_op(output, other=-2) * grad_output))
sigmoid_backward_op = Op("SigmoidBackwardBackward0", lambda xp, grad_output, output: grad_output * (1 - output) * output,
                         grad_output=lambda grad, output: sigmoid_backward_op(grad, output),
                         output=lambda grad, grad_output, output: grad * grad_output * add_scalar_op(mul_scalar_op(output, other=-2), other=1))
# NumPy's maximum/minimum give their second operand on ties, PyTorch keeps the first (so relu
# and clamp keep -0.0): the operands are written the other way round.
relu_op = Op("ReluBackward0", lambda xp, self: xp.maximum(0, self).astype(self.dtype, copy=False),
             self=lambda grad, result: threshold_backward_op(grad, result, threshold=0))
# The backward of relu as one op of its own, as in PyTorch (so double backward works too): the
# gradient where ``self`` is above the threshold, 0 elsewhere (also where the gradient is inf).
threshold_backward_op = Op("ThresholdBackwardBackward0", lambda xp, grad_output, self, *, threshold: _threshold_backward(xp, grad_output, self, threshold),
                           grad_output=lambda grad, self, threshold: threshold_backward_op(grad, self, threshold=threshold),
                           self=lambda grad: zeros_like_tensor(grad))
clamp_op = Op("ClampBackward1", lambda xp, self, *, min, max: _clamp(xp, self, min, max),
              self=lambda grad, self, min, max: where(_within(self, min, max), grad, 0.0))
clamp_min_op = Op("ClampMinBackward0", lambda xp, self, *, min: _clamp(xp, self, min, None),
                  self=lambda grad, self, min: where(self >= min, grad, 0.0))
clamp_max_op = Op("ClampMaxBackward0", lambda xp, self, *, max: _clamp(xp, self, None, max),
                  self=lambda grad, self, max: where(self <= max, grad, 0.0))
clamp_min_tensor_op = Op("ClampMinBackward1", lambda xp, self, min: xp.maximum(min, self),
                         self=lambda grad, self, min: where(self >= min, grad, 0.0),
                         min=lambda grad, self, min: where(self < min, grad, 0.0))
clamp_max_tensor_op = Op("ClampMaxBackward1", lambda xp, self, max: xp.minimum(max, self),
                         self=lambda grad, self, max: where(self <= max, grad, 0.0),
                         max=lambda grad, self, max: where(self > max, grad, 0.0))
# Tensor bounds (a missing one is +-inf); PyTorch's rules: the input's gradient passes inside
# [min, max] including the ends, a bound's gradient where it is the value taken. The masks are
# combined in place as PyTorch does, so bounds of other shapes fail in backward where its do.
clamp_tensor_op = Op("ClampBackward0", lambda xp, self, min, max: xp.minimum(max, xp.maximum(min, self)),
                     self=lambda grad, self, min, max: where(_inside(self, min, max), grad, 0.0),
                     min=lambda grad, self, min, max: where(_below(self, min, max), grad, 0.0),
                     max=lambda grad, self, min, max: where(_above(self, min, max), grad, 0.0))


def _inside(self: Tensor, min: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    """``min <= self <= max``, the masks combined in place as PyTorch does; a bound not given
    (a 0-d -inf for min, +inf for max: a given min of +inf does bound) is left out, as
    PyTorch's one-bound rule does, so it cannot fail there."""
    if _unbounded(min, -1):
        return self <= max
    if _unbounded(max, 1):
        return self >= min
    return (self >= min).logical_and_(self <= max)


def _unbounded(bound: Tensor, sign: int) -> bool:
    """Whether ``bound`` is the 0-d infinity that stands for a bound not given."""
    return bound.ndim == 0 and bound.item() == sign * math.inf


def _below(self: Tensor, min: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    """Where ``min`` is the value taken; with no max, PyTorch's one-bound rule (so a min of +inf
    still takes the gradient)."""
    return self < min if _unbounded(max, 1) else (self < min).logical_and_(min < max)


def _above(self: Tensor, min: Tensor, max: Tensor) -> Tensor:  # noqa: A002
    """Where ``max`` is the value taken (``max < min`` too); with no min, ``self > max``."""
    return self > max if _unbounded(min, -1) else (self > max).logical_or_(max < min)


# A tie halves the gradient; PyTorch's formula, where(...).masked_fill_(...), so its nodes too.
maximum_op = Op("MaximumBackward0", lambda xp, self, other: xp.maximum(other, self),
                self=lambda grad, self, other: where(self == other, div_scalar_op(grad, other=2), grad).masked_fill_(self < other, 0),
                other=lambda grad, self, other: where(self == other, div_scalar_op(grad, other=2), grad).masked_fill_(self > other, 0))
minimum_op = Op("MinimumBackward0", lambda xp, self, other: xp.minimum(other, self),
                self=lambda grad, self, other: where(self == other, div_scalar_op(grad, other=2), grad).masked_fill_(self > other, 0),
                other=lambda grad, self, other: where(self == other, div_scalar_op(grad, other=2), grad).masked_fill_(self < other, 0))
# The condition is a parameter (an array), not an input: PyTorch's node has no edge for it.
where_op = Op("WhereBackward0", lambda xp, self, other, *, condition: xp.where(condition, self, other),
              self=lambda grad, condition: where(Tensor._make(condition), grad, 0.0),
              other=lambda grad, condition: where(Tensor._make(condition), 0.0, grad))
# The mask is a parameter (an array), not an input: PyTorch's node has no edge for it.
masked_fill_op = Op("MaskedFillBackward0", lambda xp, self, *, mask, value: _row_major(xp, xp.where(mask, xp.asarray(value).astype(self.dtype), self)),
                    self=lambda grad, mask: masked_fill(grad, Tensor._make(mask), 0))
masked_fill_tensor_op = Op("MaskedFillBackward1", lambda xp, self, value, *, mask: _row_major(xp, xp.where(mask, value.astype(self.dtype), self)),
                           self=lambda grad, mask: masked_fill(grad, Tensor._make(mask), 0),
                           value=lambda grad, mask: where(Tensor._make(mask), grad, 0.0).sum())

# More elementwise math, with PyTorch's derivative formulas (so double backward matches too).
asin_op = Op("AsinBackward0", lambda xp, self: xp.arcsin(self),
             self=lambda grad, self: grad * add_scalar_op(-self * self, other=1).rsqrt())
acos_op = Op("AcosBackward0", lambda xp, self: xp.arccos(self),
             self=lambda grad, self: grad * -add_scalar_op(-self * self, other=1).rsqrt())
atan_op = Op("AtanBackward0", lambda xp, self: xp.arctan(self),
             self=lambda grad, self: grad / add_scalar_op(self * self, other=1))
sinh_op = Op("SinhBackward0", lambda xp, self: xp.sinh(self),
             self=lambda grad, self: grad * self.cosh())
cosh_op = Op("CoshBackward0", lambda xp, self: xp.cosh(self),
             self=lambda grad, self: grad * self.sinh())
asinh_op = Op("AsinhBackward0", lambda xp, self: xp.arcsinh(self),
              self=lambda grad, self: grad * add_scalar_op(self.pow(2), other=1).rsqrt())
acosh_op = Op("AcoshBackward0", lambda xp, self: xp.arccosh(self),
              self=lambda grad, self: grad * sub_scalar_op(self * self, other=1).rsqrt())
atanh_op = Op("AtanhBackward0", lambda xp, self: xp.arctanh(self),
              self=lambda grad, self: grad / (1 - self.pow(2)))
# PyTorch has no derivative for the in-place asinh_, acosh_ and atanh_: their own nodes raise.
asinh_inplace_op = Op("AsinhBackward1", asinh_op.forward, self=lambda grad: _not_implemented("inplace version of asinh"))
acosh_inplace_op = Op("AcoshBackward1", acosh_op.forward, self=lambda grad: _not_implemented("inplace version of acosh"))
atanh_inplace_op = Op("AtanhBackward1", atanh_op.forward, self=lambda grad: _not_implemented("inplace version of atanh"))
# atan2(y, x) is the angle of the point (x, y): d/dy = x / (x² + y²), d/dx = -y / (x² + y²).
atan2_op = Op("Atan2Backward0", lambda xp, self, other: xp.arctan2(self, other),
              self=lambda grad, self, other: grad * other * _inverse_square_radius(self, other),
              other=lambda grad, self, other: grad * -self * _inverse_square_radius(self, other))
hypot_op = Op("HypotBackward0", lambda xp, self, other: xp.hypot(self, other),
              self=lambda grad, self, result: grad * self / result,
              other=lambda grad, other, result: grad * other / result)
log2_op = Op("Log2Backward0", lambda xp, self: xp.log2(self),
             self=lambda grad, self: grad / mul_scalar_op(self, other=math.log(2)))
log10_op = Op("Log10Backward0", lambda xp, self: xp.log10(self),
              self=lambda grad, self: grad / mul_scalar_op(self, other=math.log(10)))
exp2_op = Op("Exp2Backward0", lambda xp, self: xp.exp2(self),
             self=lambda grad, result: mul_scalar_op(grad * result, other=math.log(2)))
logaddexp_op = Op("LogaddexpBackward0", lambda xp, self, other: xp.logaddexp(self, other),
                  self=lambda grad, self, other: grad / add_scalar_op((other - self).exp(), other=1),
                  other=lambda grad, self, other: grad / add_scalar_op((self - other).exp(), other=1))
logaddexp2_op = Op("Logaddexp2Backward0", lambda xp, self, other: xp.logaddexp2(self, other),
                   self=lambda grad, self, other: grad / add_scalar_op(pow(2, other - self), other=1),
                   other=lambda grad, self, other: grad / add_scalar_op(pow(2, self - other), other=1))
# xlogy is 0 where self is 0 (0 * log(0) = 0); PyTorch's gradient for self is 0 there too
# where other <= 0. A number on either side is one of PyTorch's two other overloads.
xlogy_op = Op("XlogyBackward0", lambda xp, self, other: _xlogy(xp, self, other),
              self=lambda grad, self, other: xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0),
              other=lambda grad, self, other: grad * self / other)
xlogy_scalar_self_op = Op("XlogyBackward1", lambda xp, other, *, self: _xlogy(xp, xp.asarray(self, dtype=other.dtype), other),
                          other=lambda grad, self, other: grad * self / other)
xlogy_scalar_other_op = Op("XlogyBackward2", lambda xp, self, *, other: _xlogy(xp, self, xp.asarray(other, dtype=self.dtype)),
                           self=lambda grad, self, other: xlogy(grad, other) if other > 0 else xlogy(grad, other).masked_fill(self == 0, 0))
# lerp with a number as weight (LerpBackward0) or a tensor (LerpBackward1).
lerp_op = Op("LerpBackward0", lambda xp, self, end, *, weight: _lerp(xp, self, end, weight),
             self=lambda grad, weight: mul_scalar_op(grad, other=1 - weight),
             end=lambda grad, weight: mul_scalar_op(grad, other=weight))
lerp_tensor_op = Op("LerpBackward1", lambda xp, self, end, weight: _lerp(xp, self, end, weight),
                    self=lambda grad, weight: grad * (1 - weight),
                    end=lambda grad, weight: grad * weight,
                    weight=lambda grad, self, end: grad * (end - self))
addcmul_op = Op("AddcmulBackward0", lambda xp, self, tensor1, tensor2, *, value: _addcmul(xp, self, tensor1, tensor2, value, False),
                self=lambda grad: grad,
                tensor1=lambda grad, tensor2, value: grad * _times_number(tensor2, value, mul_scalar_op),
                tensor2=lambda grad, tensor1, value: grad * _times_number(tensor1, value, mul_scalar_op))
addcdiv_op = Op("AddcdivBackward0", lambda xp, self, tensor1, tensor2, *, value: _addcmul(xp, self, tensor1, tensor2, value, True),
                self=lambda grad: grad,
                tensor1=lambda grad, tensor2, value: grad * (value / tensor2),
                tensor2=lambda grad, tensor1, tensor2, value: -grad * (value * tensor1 / (tensor2 * tensor2)))
frac_op = Op("FracBackward0", lambda xp, self: self - xp.trunc(self),
             self=lambda grad: grad)
# fmax and fmin ignore NaN (the other value is taken); a tie gives self the whole gradient.
fmax_op = Op("FmaxBackward0", lambda xp, self, other: xp.fmax(self, other),
             self=lambda grad, self, other: grad.masked_fill(~((self >= other) | other.isnan()), 0),
             other=lambda grad, self, other: grad.masked_fill((self >= other) | other.isnan(), 0))
fmin_op = Op("FminBackward0", lambda xp, self, other: xp.fmin(self, other),
             self=lambda grad, self, other: grad.masked_fill(~((self <= other) | other.isnan()), 0),
             other=lambda grad, self, other: grad.masked_fill((self <= other) | other.isnan(), 0))
nan_to_num_op = Op("NanToNumBackward0", lambda xp, self, *, nan, posinf, neginf: xp.nan_to_num(self, nan=nan, posinf=posinf, neginf=neginf),
                   self=lambda grad, self: grad * self.isfinite())
logit_op = Op("LogitBackward0", lambda xp, self, *, eps: _logit(xp, self, eps),
              self=lambda grad, self, eps: _logit_backward(grad, self, eps))
sinc_op = Op("SincBackward0", lambda xp, self: _sinc(xp, self),
             self=lambda grad, self: _sinc_backward(grad, self))
deg2rad_op = Op("Deg2RadBackward0", lambda xp, self: self * (math.pi / 180),
                self=lambda grad: grad * (math.pi / 180))
rad2deg_op = Op("Rad2DegBackward0", lambda xp, self: self * (180 / math.pi),
                self=lambda grad: grad * (180 / math.pi))
# sgn is sign for real numbers, with a zero gradient; PyTorch saves self and result (which its
# rule for complex numbers reads), so this rule names them too.
sgn_op = Op("SgnBackward0", lambda xp, self: xp.nan_to_num(xp.sign(self)),  # sgn(nan) is 0, as in PyTorch
            self=lambda grad, self, result: zeros_like_tensor(grad))
# heaviside has no derivative in PyTorch: its node is NotImplemented, and backward through it raises.
heaviside_op = Op("NotImplemented", lambda xp, self, values: xp.where(self == 0, values, self > 0).astype(self.dtype, copy=False),
                  self=lambda grad: _no_derivative("heaviside"),
                  values=lambda grad: _no_derivative("heaviside"))

sum_op = Op("SumBackward0", lambda xp, self: _sum(xp, self, None, False),
            self=lambda grad, self_shape: grad.expand(self_shape))
sum_dim_op = Op("SumBackward1", lambda xp, self, *, dim, keepdim: _sum(xp, self, dim, keepdim),
                self=lambda grad, self_shape, dim, keepdim: _unreduce(grad, self_shape, dim, keepdim))
mean_op = Op("MeanBackward0", lambda xp, self: xp.asarray(_mean(self, None, False), dtype=self.dtype),
             self=lambda grad, self_shape: div_scalar_op(grad.expand(self_shape), other=math.prod(self_shape)))
mean_dim_op = Op("MeanBackward1", lambda xp, self, *, dim, keepdim: _reduced(xp, _mean(self, dim, keepdim)),
                 self=lambda grad, self_shape, dim, keepdim: div_scalar_op(_unreduce(grad, self_shape, dim, keepdim), other=_count(self_shape, dim)))
# PyTorch's variance and standard deviation divide by N - correction (N - 1 by default).
var_op = Op("VarBackward0", lambda xp, self, *, dim, correction, keepdim: _var(xp, self, dim, correction, keepdim),
            self=lambda grad, self, dim, correction, keepdim: _var_backward(grad, self, dim, correction, keepdim))
std_op = Op("StdBackward0", lambda xp, self, *, dim, correction, keepdim: _var(xp, self, dim, correction, keepdim, root=True),
            self=lambda grad, self, result, dim, correction, keepdim: _var_backward((grad / mul_scalar_op(result, other=2)).masked_fill_(result == 0, 0), self, dim, correction, keepdim))
# The rules name ``result`` (unused) so that it is saved, as PyTorch's nodes save it: changing a
# product in place before backward raises there.
prod_op = Op("ProdBackward0", lambda xp, self: _prod(xp, self, None, False),
             self=lambda grad, self, result: _prod_backward(grad, self, result, None))
prod_dim_op = Op("ProdBackward1", lambda xp, self, *, dim, keepdim: _prod(xp, self, dim, keepdim),
                 self=lambda grad, self, result, dim, keepdim: _prod_backward(grad, self, result, dim, keepdim))
cumsum_op = Op("CumsumBackward0", lambda xp, self, *, dim: _row_major(xp, xp.cumsum(self, axis=dim, dtype=_accumulated(self))) if self.ndim else self.astype(_accumulated(self)),
               self=lambda grad, dim: grad.flip(dim).cumsum(dim).flip(dim) if grad.ndim and grad.shape[dim] > 1 else grad)
# PyTorch's cumprod_backward: sum_j>=k grad_j * result_j / self_k without zeros; with zeros, the
# products that leave out self_k, written out (so the second derivative is right there too).
cumprod_op = Op("CumprodBackward0", lambda xp, self, *, dim: _row_major(xp, xp.cumprod(self, axis=dim, dtype=_accumulated(self))) if self.ndim else self.astype(_accumulated(self)),
                self=lambda grad, self, result, dim: _cumprod_backward(grad, self, result, dim))
logsumexp_op = Op("LogsumexpBackward0", lambda xp, self, *, dim, keepdim: _logsumexp(xp, self, dim, keepdim),
                  self=lambda grad, self, result, dim, keepdim: _unsqueeze_reduced(grad, self.ndim, dim, keepdim) * (self - _unsqueeze_reduced(result, self.ndim, dim, keepdim)).exp())
amax_op = Op("MaxBackward1", lambda xp, self: self.max(),
             self=lambda grad, self, result: _evenly(grad, self, result))
amin_op = Op("MinBackward1", lambda xp, self: self.min(),
             self=lambda grad, self, result: _evenly(grad, self, result))
amax_dim_op = Op("AmaxBackward0", lambda xp, self, *, dim, keepdim: _reduced(xp, self.max(axis=dim, keepdims=keepdim)),
                 self=lambda grad, self, result, dim, keepdim: _evenly_along(grad, self, result, dim, keepdim))
amin_dim_op = Op("AminBackward0", lambda xp, self, *, dim, keepdim: _reduced(xp, self.min(axis=dim, keepdims=keepdim)),
                 self=lambda grad, self, result, dim, keepdim: _evenly_along(grad, self, result, dim, keepdim))
max_dim_op = Op("MaxBackward0", lambda xp, self, *, dim, keepdim, indices: _gather(xp, self, dim, keepdim, indices),
                self=lambda grad, self_shape, dim, keepdim, indices: _scatter(grad, self_shape, dim, keepdim, indices))
min_dim_op = Op("MinBackward0", lambda xp, self, *, dim, keepdim, indices: _gather(xp, self, dim, keepdim, indices),
                self=lambda grad, self_shape, dim, keepdim, indices: _scatter(grad, self_shape, dim, keepdim, indices))
# nansum counts NaN as 0: its gradient is 0 there (the mask multiplies, as in PyTorch).
nansum_op = Op("NansumBackward0", lambda xp, self, *, dim, keepdim: _reduced(xp, xp.nansum(self, axis=dim, keepdims=keepdim, dtype=_accumulated(self))),
               self=lambda grad, self, dim, keepdim: _unreduce(grad, self.shape, dim, keepdim) * self.isnan().logical_not())
# The median of all elements shares its gradient among the elements equal to it (as amax);
# along a dim it goes to the element the index picked (as max).
median_op = Op("MedianBackward0", lambda xp, self: _median(xp, self, ignore_nan=False),
               self=lambda grad, self, result: _evenly(grad, self, result))
nanmedian_op = Op("NanmedianBackward0", lambda xp, self: _median(xp, self, ignore_nan=True),
                  self=lambda grad, self, result: _evenly(grad, self, result))
median_dim_op = Op("MedianBackward1", max_dim_op.forward, **max_dim_op.rules)
nanmedian_dim_op = Op("NanmedianBackward1", max_dim_op.forward, **max_dim_op.rules)
# kthvalue and mode pick one element along dim (indices found first), as max does; PyTorch
# saves the input's sizes by name here.
kthvalue_op = Op("KthvalueBackward0", lambda xp, self, *, dim, keepdim, indices, self_sym_sizes: _gather(xp, self, dim, keepdim, indices),
                 self=lambda grad, dim, keepdim, indices, self_sym_sizes: _scatter(grad, self_sym_sizes, dim, keepdim, indices))
mode_op = Op("ModeBackward0", kthvalue_op.forward, **kthvalue_op.rules)
# cummax/cummin read self where the running extreme was found; the gradient adds up there
# (PyTorch's cummaxmin_backward, a scatter_add, so the second derivative is a gather).
cummax_op = Op("CummaxBackward0", lambda xp, self, *, dim, indices: _gather_at(xp, self, dim, indices),
               self=lambda grad, self, dim, indices: scatter_add_op(zeros_like_tensor(self), grad, dim=dim, index=indices))
cummin_op = Op("CumminBackward0", cummax_op.forward, **cummax_op.rules)
logcumsumexp_op = Op("LogcumsumexpBackward0", lambda xp, self, *, dim: _row_major(xp, _scan(xp, xp.logaddexp, self, dim)) if self.ndim else self.copy(),
                     self=lambda grad, self, result, dim: _logcumsumexp_backward(grad, self, result, dim))
norm_op = Op("LinalgVectorNormBackward0", lambda xp, self, *, p, dim, keepdim: _norm(xp, self, p, dim, keepdim),
             self=lambda grad, self, result, p, dim, keepdim: _norm_backward(grad, self, result, p, dim, keepdim))
softmax_op = Op("SoftmaxBackward0", lambda xp, self, *, dim: _softmax(xp, self, dim),
                self=lambda grad, result, dim: softmax_backward_op(grad, result, dim=dim))
# output * (grad - (grad * output).sum(dim)): softmax's backward as one op, as PyTorch's
# _softmax_backward_data; its own rules are PyTorch's (softmax_double_backward for output).
softmax_backward_op = Op("SoftmaxBackwardDataBackward0", lambda xp, grad_output, output, *, dim: output * (grad_output - (grad_output * output).sum(axis=_axis(output, dim), keepdims=True)),
                         grad_output=lambda grad, output, dim: softmax_backward_op(grad, output, dim=dim),
                         output=lambda grad, grad_output, output, dim: grad_output * grad - (output * grad_output).sum(dim, keepdim=True) * grad - grad_output * (output * grad).sum(dim, keepdim=True))
log_softmax_op = Op("LogSoftmaxBackward0", lambda xp, self, *, dim: _log_softmax(xp, self, dim),
                    self=lambda grad, result, dim: log_softmax_backward_op(grad, result, dim=dim))
# grad - exp(output) * grad.sum(dim): the backward of log_softmax as one op, as PyTorch's
# _log_softmax_backward_data (four small ops would cost four times the bookkeeping).
log_softmax_backward_op = Op("LogSoftmaxBackwardDataBackward0", lambda xp, grad_output, output, *, dim: grad_output - xp.exp(output) * grad_output.sum(axis=_axis(output, dim), keepdims=True),
                             grad_output=lambda grad, output, dim: grad - (grad * output.exp()).sum(dim, keepdim=True),
                             output=lambda grad, grad_output, output, dim: -grad_output.sum(dim, keepdim=True) * output.exp() * grad)

mm_op = Op("MmBackward0", lambda xp, self, mat2: self @ mat2,
           self=lambda grad, mat2: grad.mm(mat2.t()),
           mat2=lambda grad, self, mat2_strides: _mm_mat2_grad(grad, self, mat2_strides))
mv_op = Op("MvBackward0", lambda xp, self, vec: self @ vec,
           self=lambda grad, vec: grad.outer(vec),
           vec=lambda grad, self: self.t().mv(grad))
dot_op = Op("DotBackward0", lambda xp, self, tensor: xp.asarray(self @ tensor),
            self=lambda grad, tensor: grad * tensor,
            tensor=lambda grad, self: grad * self)
bmm_op = Op("BmmBackward0", lambda xp, self, mat2: xp.matmul(self, mat2),
            self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2)),
            mat2=lambda grad, self: self.transpose(1, 2).bmm(grad))
addmm_op = Op("AddmmBackward0", lambda xp, self, mat1, mat2: self + mat1 @ mat2,
              self=lambda grad: grad,
              mat1=lambda grad, mat2: grad.mm(mat2.t()),
              mat2=lambda grad, mat1, mat2_strides: _mm_mat2_grad(grad, mat1, mat2_strides))
# beta * self + alpha * (a product), PyTorch's rules: each gradient scaled by beta or alpha.
addmv_op = Op("AddmvBackward0", lambda xp, self, mat, vec, *, beta, alpha: _scaled_sum(self, mat @ vec, beta, alpha),
              self=lambda grad, beta: _times(grad, beta),
              mat=lambda grad, vec, alpha: _times(outer(grad, vec), alpha),
              vec=lambda grad, mat, alpha: _times(mat.t().mv(grad), alpha))
addr_op = Op("AddrBackward0", lambda xp, self, vec1, vec2, *, beta, alpha: _scaled_sum(self, xp.multiply.outer(vec1, vec2), beta, alpha),
             self=lambda grad, beta: _times(grad, beta),
             vec1=lambda grad, vec2, alpha: _times(grad.mv(vec2), alpha),
             vec2=lambda grad, vec1, alpha: _times(grad.t().mv(vec1), alpha))
baddbmm_op = Op("BaddbmmBackward0", lambda xp, self, batch1, batch2, *, beta, alpha: _scaled_sum(self, xp.matmul(batch1, batch2), beta, alpha),
                self=lambda grad, beta: _times(grad, beta),
                batch1=lambda grad, batch2, alpha: _times(grad.bmm(batch2.transpose(1, 2)), alpha),
                batch2=lambda grad, batch1, alpha: _times(batch1.transpose(1, 2).bmm(grad), alpha))
# addbmm sums the batch of products: each product's gradient is grad, repeated over the batch.
addbmm_op = Op("AddbmmBackward0", lambda xp, self, batch1, batch2, *, beta, alpha: _scaled_sum(self, xp.matmul(batch1, batch2).sum(axis=0), beta, alpha),
               self=lambda grad, beta: _times(grad, beta),
               batch1=lambda grad, batch1_shape, batch2, alpha: _times(grad.expand((batch1_shape[0], *grad.shape)).bmm(batch2.transpose(1, 2)), alpha),
               batch2=lambda grad, batch1, alpha: _times(batch1.transpose(1, 2).bmm(grad.expand((batch1.shape[0], *grad.shape))), alpha))
# addmm with a beta or an alpha other than 1 (the plain op above is nn.Linear's hot path: it pays nothing for them).
addmm_scaled_op = Op("AddmmBackward0", lambda xp, self, mat1, mat2, *, beta, alpha: _scaled_sum(self, mat1 @ mat2, beta, alpha),
                     self=lambda grad, beta: _times(grad, beta),
                     mat1=lambda grad, mat2, alpha: _times(grad.mm(mat2.t()), alpha),
                     mat2=lambda grad, mat1, mat2_strides, alpha: _times(_mm_mat2_grad(grad, mat1, mat2_strides), alpha))
linalg_cross_op = Op("LinalgCrossBackward0", lambda xp, self, other, *, dim: xp.ascontiguousarray(xp.cross(self, other, axis=dim)),
                     self=lambda grad, other, dim: linalg_cross_op(other, grad, dim=dim),
                     other=lambda grad, self, dim: linalg_cross_op(grad, self, dim=dim))

# Shape ops: the gradient is reshaped, transposed or re-expanded back.
view_op = Op("ViewBackward0", lambda xp, self, *, shape: _view(xp, self, shape),
             view=True, self=lambda grad, self_shape: grad.reshape(self_shape))
reshape_alias_op = Op("ReshapeAliasBackward0", lambda xp, self, *, shape: _view(xp, self, shape),
                     view=True, self=lambda grad, self_shape: grad.reshape(self_shape))
squeeze_inplace_op = Op("SqueezeBackward4", lambda xp, self, *, dims: xp.squeeze(self, dims),  # squeeze_(dims)
                        self=lambda grad, self_shape: grad.reshape(self_shape))
unsafe_view_op = Op("UnsafeViewBackward0", lambda xp, self, *, shape: self.reshape(shape),
                    self=lambda grad, self_shape: grad.reshape(self_shape))
alias_op = Op("AliasBackward0", lambda xp, self: self[...],
              view=True, self=lambda grad: grad)
t_op = Op("TBackward0", lambda xp, self: self.T,
          view=True, self=lambda grad: grad.t())
transpose_op = Op("TransposeBackward0", lambda xp, self, *, dim0, dim1: xp.swapaxes(self, dim0, dim1) if self.ndim else self[...],
                  view=True, self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
permute_op = Op("PermuteBackward0", lambda xp, self, *, dims: xp.transpose(self, dims),
                view=True, self=lambda grad, dims: grad.permute(_inverse_permutation(dims)))
squeeze_op = Op("SqueezeBackward0", lambda xp, self: xp.squeeze(self),  # (the other dims keep their strides)
                view=True, self=lambda grad, self_shape: _unsqueeze_to(grad, self_shape, range(len(self_shape))))
squeeze_dim_op = Op("SqueezeBackward1", lambda xp, self, *, dim: xp.squeeze(self, dim) if self.ndim and self.shape[dim] == 1 else self[...],
                    view=True, self=lambda grad, self_shape, dim: _unsqueeze_to(grad, self_shape, (dim,)))
squeeze_dims_op = Op("SqueezeBackward2", lambda xp, self, *, dims: xp.squeeze(self, tuple(d for d in dims if self.shape[d] == 1)),
                     view=True, self=lambda grad, self_shape, dims: _unsqueeze_to(grad, self_shape, dims))
unsqueeze_op = Op("UnsqueezeBackward0", lambda xp, self, *, dim: _unsqueezed(xp, self, dim),
                  view=True, self=lambda grad, dim: grad.squeeze(dim))
expand_op = Op("ExpandBackward0", lambda xp, self, *, shape: _expanded(xp, self, shape),
               view=True, self=lambda grad, self_shape: _sum_to(grad, self_shape))
# A copy, not a view, laid out as its input (PyTorch's flip writes into an empty_like of it).
flip_op = Op("FlipBackward0", lambda xp, self, *, dims: backend.clone(xp.flip(self, dims), backend.preserved_strides(self)),
             self=lambda grad, dims: grad.flip(dims))
# roll with no dims rolls the flattened tensor; its gradient rolls back the other way.
roll_op = Op("RollBackward0", lambda xp, self, *, shifts, dims: _row_major(xp, xp.roll(self, shifts, dims) if dims else xp.roll(self, shifts[0])),
             self=lambda grad, shifts, dims: roll_op(grad, shifts=tuple(-s for s in shifts), dims=dims))
# rot90 flips one dim and swaps the two (a copy laid out as PyTorch's: transposed for odd k).
rot90_op = Op("Rot90Backward0", lambda xp, self, *, k, dims: _rot90(xp, self, k, dims),
              self=lambda grad, k, dims: rot90_op(grad, k=-k, dims=dims))

# Indexing: select/slice/index all read ``self[key]``; their rule puts the gradient back into
# zeros at ``key`` (PyTorch's select_backward, slice_backward and index_put), and that op's own
# rule reads it out again.
# (select's trailing ... makes NumPy return a 0-d view where it would return a copied number.)
select_op = Op("SelectBackward0", lambda xp, self, *, key: self[key + (...,)],
               view=True, self=lambda grad, self_shape, key: select_backward_op(grad, shape=self_shape, key=key))
slice_op = Op("SliceBackward0", lambda xp, self, *, key: _sliced(self, key),
              view=True, self=lambda grad, self_shape, key: slice_backward_op(grad, shape=self_shape, key=key))
index_op = Op("IndexBackward0", lambda xp, self, *, key: _index_read(xp, self, key),
              self=lambda grad, self_shape, key: embed(grad, shape=self_shape, key=key))
select_backward_op = Op("SelectBackwardBackward0", lambda xp, values, *, shape, key: _embed(xp, values, shape, key),
                        values=lambda grad, key: select_op(grad, key=key))
slice_backward_op = Op("SliceBackwardBackward0", lambda xp, values, *, shape, key: _embed(xp, values, shape, key),
                       values=lambda grad, key: slice_op(grad, key=key))
embed = Op("IndexPutImplBackward0", lambda xp, values, *, shape, key: _embed(xp, values, shape, key),
           values=lambda grad, key: index_op(grad, key=key))
# ``x[indices] = v`` with advanced indices is PyTorch's index_put_ (basic indices copy into a view).
index_put_op = Op("IndexPutBackward0", lambda xp, self, values, *, key: _put(self, key, values),
                  self=lambda grad, key: grad * _mask_out(grad, key),
                  values=lambda grad, key: index_op(grad, key=key))
# gather reads self where index points along dim (and at each element's own place along the other
# dims); scatter writes there. So each one's gradient is the other, as in PyTorch.
gather_op = Op("GatherBackward0", lambda xp, self, *, dim, index, sparse_grad: _gather_at(xp, self, dim, index),
               self=lambda grad, self, dim, index: scatter_add_op(zeros_like_tensor(self), grad, dim=dim, index=index))
scatter_op = Op("ScatterBackward0", lambda xp, self, src, *, dim, index: _scatter_at(xp, self, dim, index, src, add=False),
                self=lambda grad, dim, index: scatter_value_op(grad, dim=dim, index=index, value=0),
                src=lambda grad, dim, index, src_shape: _src_grad("ScatterBackward0", grad, dim, index, src_shape))
scatter_value_op = Op("ScatterBackward1", lambda xp, self, *, dim, index, value: _scatter_at(xp, self, dim, index, value, add=False),
                      self=lambda grad, dim, index: scatter_value_op(grad, dim=dim, index=index, value=0))
scatter_add_op = Op("ScatterAddBackward0", lambda xp, self, src, *, dim, index: _scatter_at(xp, self, dim, index, src, add=True),
                    self=lambda grad: grad,
                    src=lambda grad, dim, index, src_shape: _src_grad("ScatterAddBackward0", grad, dim, index, src_shape))
# index_select(x, 1, i) is x[:, i]: its gradient is added back at i into zeros (repeats add up),
# with index_add as PyTorch's (IndexAddBackward0 in a double backward).
# (a 0-d tensor is one element, which index 0 selects: a copy of it, as PyTorch's node gives)
index_select_op = Op("IndexSelectBackward0", lambda xp, self, *, dim, index, self_sym_sizes: xp.take(self, index, axis=dim) if self.ndim else self.copy(),
                     self=lambda grad, dim, index, self_sym_sizes: index_add_op(grad.new_zeros(self_sym_sizes), grad, dim=dim, index=index, alpha=1) if self_sym_sizes else grad)
# index_add(x, 1, i, s) adds s[:, k] into x[:, i[k]] (repeats add up): its gradient for source
# reads grad back at i, as index_select does.
index_add_op = Op("IndexAddBackward0", lambda xp, self, source, *, dim, index, alpha: _index_add(xp, self, source, dim, index, alpha),
                  self=lambda grad: grad,
                  source=lambda grad, dim, index, source, alpha: _times(index_select(grad, dim, Tensor._make(index)).expand(source.shape), alpha))
# masked_select reads self (broadcast with the mask) where the mask is True, as a vector; take
# reads the flattened self at index. Each one's gradient is put back there (repeats add up).
masked_select_op = Op("MaskedSelectBackward0", lambda xp, self, *, mask: _broadcast_flat(xp, self, mask)[_broadcast_flat(xp, mask, self)],
                      self=lambda grad, self, mask: _masked_select_backward(grad, self, mask))
take_op = Op("TakeBackward0", lambda xp, self, *, index: self.reshape(-1)[index],
             self=lambda grad, self, index: embed(grad, shape=(self.numel(),), key=(index,)).reshape(self.shape))
# index_fill writes a value at index along dim: no gradient flows there to self; a 0-d tensor
# value gets the gradient of each place it was written (once per place, as PyTorch's unique).
index_fill_op = Op("IndexFillBackward0", lambda xp, self, *, dim, index, value: _index_write(_torch_clone(self), dim, index, xp.asarray(value).astype(self.dtype)),
                   self=lambda grad, dim, index: index_fill_op(grad, dim=dim, index=index, value=0))
index_fill_tensor_op = Op("IndexFillBackward1", lambda xp, self, value, *, dim, index: _index_write(_torch_clone(self), dim, index, value.astype(self.dtype)),
                          self=lambda grad, dim, index: index_fill_op(grad, dim=dim, index=index, value=0),
                          value=lambda grad, dim, index: index_select(grad, dim, _unique(grad, index)).sum())
# index_copy writes source's slices at index along dim: the gradient there goes to source.
index_copy_op = Op("IndexCopyBackward0", lambda xp, self, source, *, dim, index: _index_write(self.copy(), dim, index, source),
                   self=lambda grad, dim, index: index_fill_op(grad, dim=dim, index=index, value=0),
                   source=lambda grad, dim, index, source_shape: index_select(grad, dim, Tensor._make(index)).reshape(source_shape))
# diagonal is a view; diag_embed writes a diagonal into zeros: each one's gradient is the other.
diagonal_op = Op("DiagonalBackward0", lambda xp, self, *, offset, dim1, dim2, self_sym_sizes: backend.diagonal(self, offset, dim1, dim2),
                 view=True, self=lambda grad, offset, dim1, dim2, self_sym_sizes: diagonal_backward_op(grad, shape=self_sym_sizes, offset=offset, dim1=dim1, dim2=dim2))
diagonal_copy_op = Op("DiagonalBackward0_copy", lambda xp, self, *, offset, dim1, dim2, self_sym_sizes: backend.diagonal(self, offset, dim1, dim2).copy(),  # diag() of a matrix: a copy
                      self=lambda grad, offset, dim1, dim2, self_sym_sizes: diagonal_backward_op(grad, shape=self_sym_sizes, offset=offset, dim1=dim1, dim2=dim2))
diagonal_backward_op = Op("DiagonalBackwardBackward0", lambda xp, grad_output, *, shape, offset, dim1, dim2: _diagonal_embed(xp, grad_output, shape, offset, dim1, dim2),
                          grad_output=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))
diag_embed_op = Op("DiagEmbedBackward0", lambda xp, self, *, offset, dim1, dim2: _diagonal_embed(xp, self, _embedded_shape(self.shape, offset, dim1, dim2), offset, dim1, dim2),
                   self=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))
trace_op = Op("TraceBackward0", lambda xp, self, *, self_sym_sizes: xp.asarray(xp.trace(self, dtype=_accumulated(self))),
              self=lambda grad, self_sym_sizes: _trace_backward(grad, self_sym_sizes))
# sort and topk pick values along dim: their gradient goes back to where each value was taken.
# sort's results are laid out as its input (PyTorch's sort writes into an empty_like of it), topk's row-major.
sort_op = Op("SortBackward0", lambda xp, self, *, dim, indices, self_sym_sizes: _laid_out_as(_gather_at(xp, self, dim, indices), self),
             self=lambda grad, dim, indices, self_sym_sizes: _put_back(grad, self_sym_sizes, dim, indices))
stable_sort_op = Op("SortBackward1", sort_op.forward, **sort_op.rules)  # sort(stable=True), PyTorch's other overload
topk_op = Op("TopkBackward0", lambda xp, self, *, dim, indices, self_sym_sizes: _fresh_layout(_gather_at(xp, self, dim, indices)), **sort_op.rules)
# repeat tiles self; each copy's gradient adds up (summed over the axes of the copies).
repeat_op = Op("RepeatBackward0", lambda xp, self, *, repeats, self_sym_sizes: xp.tile(self.reshape(_padded(self.shape, repeats)), repeats),
               self=lambda grad, repeats, self_sym_sizes: _sum_copies(grad, repeats, self_sym_sizes))
tril_op = Op("TrilBackward0", lambda xp, self, *, diagonal: _row_major(xp, xp.tril(self, diagonal)),
             self=lambda grad, diagonal: grad.tril(diagonal))
triu_op = Op("TriuBackward0", lambda xp, self, *, diagonal: _row_major(xp, xp.triu(self, diagonal)),
             self=lambda grad, diagonal: grad.triu(diagonal))
# A view taken again from its base (after an in-place change): it replays the view's steps, each
# an (op, params, input shape) recorded when the view was taken, so it works for every view op;
# its gradient goes back through each step's own rule.
as_strided_op = Op("AsStridedBackward0", lambda xp, self, *, steps: _take_view(xp, self, steps),
                   view=True, self=lambda grad, steps: _untake_view(grad, steps))
# PyTorch's cat skips 1-D empty tensors among tensors of more dimensions (they still count for
# the dtype and for requires_grad, and get an empty gradient).
# NumPy keeps the inputs' column-major layout (x.t()); PyTorch's result is row-major, so views of it work.
cat_op = Op("CatBackward0", lambda xp, *tensors, dim: _row_major(xp, xp.concatenate(_joined(tensors), axis=dim)),
            tensors=lambda grad, shapes, dim: _split(grad, shapes, dim))
stack_op = Op("StackBackward0", lambda xp, *tensors, dim: _row_major(xp, xp.stack(tensors, axis=dim)),
              tensors=lambda grad, shapes, dim: [grad.select(dim, i) for i in range(len(shapes))])
# block_diag puts each input (a 0-d tensor as 1x1, a vector as a row) on the diagonal of zeros;
# each one's gradient is its block of the gradient.
block_diag_op = Op("BlockDiagBackward0", lambda xp, *tensors: _block_diag(xp, tensors),
                   tensors=lambda grad, shapes: _block_grads(grad, shapes))

# clone keeps a dense layout (a transpose stays transposed), as PyTorch's preserve_format does;
# contiguous() and a copying reshape make a row-major copy.
clone_op = Op("CloneBackward0", lambda xp, self: _torch_clone(self),
              self=lambda grad: grad)
contiguous_op = Op("CloneBackward0", lambda xp, self: backend.clone(self, backend.row_major_strides(self.shape)),
                   self=lambda grad: grad)
to_copy_op = Op("ToCopyBackward0", lambda xp, self, *, to_dtype, device, source: backend.convert(self, device, to_dtype),
                self=lambda grad, source: grad.to(source))
fill_op = Op("FillBackward2", lambda xp, self, *, value: xp.full_like(self, backend.numpy.asarray(value).astype(self.dtype)[()]),
             self=lambda grad: zeros_like_tensor(grad))
# fill_ with a 0-d tensor: every element is that value, so its gradient is the sum.
fill_tensor_op = Op("FillBackward3", lambda xp, self, value: xp.full_like(self, value),
                    self=lambda grad: zeros_like_tensor(grad),
                    value=lambda grad: grad.sum())
zero_op = Op("ZeroBackward0", lambda xp, self: xp.zeros_like(self),
             self=lambda grad: zeros_like_tensor(grad))
copy_op = Op("CopyBackwards", lambda xp, self, src: xp.broadcast_to(src, self.shape).astype(self.dtype),
             self=lambda grad: zeros_like_tensor(grad),
             src=lambda grad: grad)
# cdist by the differences; PyTorch cannot differentiate its gradient (CdistBackwardBackward0 raises).
cdist_op = Op("CdistBackward0", lambda xp, x1, x2, *, p: _cdist(xp, x1, x2, p),
              x1=lambda grad, x1, x2, p, result: cdist_backward_op(grad, x1, x2, result, p=p),
              x2=lambda grad, x1, x2, p, result: cdist_backward_op(grad.mT.contiguous(), x2, x1, result.mT.contiguous(), p=p))
cdist_backward_op = Op("CdistBackwardBackward0", lambda xp, grad, x1, x2, cdist, *, p: _cdist_grad(xp, grad, x1, x2, cdist, p),
                       grad=lambda grad: _not_implemented("_cdist_backward"),
                       x1=lambda grad: _not_implemented("_cdist_backward"),
                       x2=lambda grad: _not_implemented("_cdist_backward"),
                       cdist=lambda grad: _not_implemented("_cdist_backward"))
# cdist through a matrix product (p=2, many rows): its gradient is made of differentiable ops.
euclidean_dist_op = Op("EuclideanDistBackward0", lambda xp, x1, x2: _euclidean_dist(xp, x1, x2),
                       x1=lambda grad, x1, x2, result: _euclidean_grad(grad, result, x1, x2, first=True),
                       x2=lambda grad, x1, x2, result: _euclidean_grad(grad, result, x1, x2, first=False))
# Not differentiable in PyTorch: the float result gets a node whose backward raises.
unique2_op = Op("Unique2Backward0", lambda xp, self: _unique_arrays(xp, self, None, False)[0],
                self=lambda grad: _not_implemented("_unique2"))
unique_dim_op = Op("UniqueDimBackward0", lambda xp, self, *, dim: _unique_arrays(xp, self, dim, False)[0],
                   self=lambda grad: _not_implemented("unique_dim"))
unique_consecutive_op = Op("UniqueConsecutiveBackward0", lambda xp, self, *, dim: _unique_arrays(xp, self, dim, True)[0],
                           self=lambda grad: _not_implemented("unique_consecutive"))
bincount_op = Op("NotImplemented", lambda xp, weights, *, indices, minlength: _bincount(xp, indices, weights, minlength),
                 weights=lambda grad: _no_derivative("bincount"))
mse_loss_op = Op("MseLossBackward0", lambda xp, self, target, *, reduction: _reduce(xp, (self - target) ** 2, reduction),
                 self=lambda grad, self, target, reduction: _mse_grad(grad, self, target, reduction),
                 target=lambda grad, self, target, reduction: -_mse_grad(grad, self, target, reduction))


def _nll_ops(name: str) -> Op:
    """nll_loss's op, named ``<name>Backward0`` (NllLoss, or NllLoss2D for images), whose gradient
    is an op of its own, ``<name>BackwardBackward0``, as in PyTorch: its gradient for the loss's
    gradient is nll_loss again, and for ``self`` zeros (so a recorded backward pass still leads
    back to ``self``)."""
    backward = Op(f"{name}BackwardBackward0", lambda xp, grad_output, self, *, target, weight, reduction, ignore_index: _nll_backward(xp, grad_output, self.shape, target, weight, reduction, ignore_index),
                  grad_output=lambda grad, target, weight, reduction, ignore_index: forward(grad, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index),
                  self=lambda grad: zeros_like_tensor(grad))
    forward = Op(f"{name}Backward0", lambda xp, self, *, target, weight, reduction, ignore_index: _nll(xp, self, target, weight, reduction, ignore_index),
                 self=lambda grad, self, target, weight, reduction, ignore_index: backward(grad, self, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index))
    return forward


nll_loss_op = _nll_ops("NllLoss")


# ----------------------------------------------------------------------------------------------
# Array helpers for the forwards above (arrays in, arrays out).
# ----------------------------------------------------------------------------------------------

def _unsqueeze_to(grad: Tensor, shape: tuple, dims) -> Tensor:
    """The gradient of a squeeze: ``grad`` unsqueezed again at each of ``dims`` that had size 1
    (PyTorch's ``unsqueeze_to``: one UnsqueezeBackward0 per dim when recorded)."""
    for d in sorted(dims):
        if d < len(shape) and shape[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


def _sigmoid(xp, a):
    if a.dtype == xp.float16:  # in float32, as PyTorch: exp(11.1) is inf in float16
        return _sigmoid(xp, a.astype(xp.float32)).astype(a.dtype)
    return (1 / (1 + xp.exp(-a))).astype(a.dtype, copy=False)


def _wrap_number(xp, value, dtype):
    """A Python number as a 0-d array of ``dtype``; an int out of its range wraps, as PyTorch's
    cast does (``300 ** uint8`` computes with 44), where NumPy raises."""
    try:
        return xp.asarray(value, dtype=dtype)
    except OverflowError:
        return xp.asarray(value).astype(dtype)


def _pow_half(xp, self, exponent):
    """``self ** ±0.5`` as PyTorch's kernel for a number: sqrt and rsqrt (-0.0 gives -0.0 and
    -inf, -inf nan), but on float16 pow itself (-0.0 gives 0.0 and inf, -inf inf and 0.0), where
    NumPy would take sqrt for 0.5."""
    if self.dtype == xp.float16:
        return xp.power(self, xp.full(self.shape, exponent, dtype=self.dtype))
    return self**exponent if exponent == 0.5 else 1 / xp.sqrt(self)


def _power(xp, base, exponent):
    """``base ** exponent``; an integer to a negative integer power as in C, as PyTorch does:
    1 for 1, -1 or 1 for -1 (odd or even power), else 0 (NumPy refuses)."""
    if exponent.size == 1 and exponent.dtype.kind == "f" and builtins.abs(float(exponent.reshape(()))) == 0.5:
        # a tensor exponent goes through pow, where NumPy takes sqrt for one 0.5 (-inf: nan, not inf)
        shape = backend.numpy.broadcast_shapes(base.shape, exponent.shape)
        flat = xp.broadcast_to(base, shape).reshape(-1)
        return (flat ** xp.full(flat.shape, exponent.reshape(()), dtype=exponent.dtype)).reshape(shape)
    if exponent.dtype.kind not in "iub" or base.dtype.kind not in "iub" or not (exponent < 0).any():
        return base**exponent
    negative = exponent < 0
    result = base ** xp.where(negative, 0, exponent)
    inverse = xp.where(base == 1, 1, xp.where(base == -1, 1 - 2 * (exponent % 2), 0))
    return xp.where(negative, inverse, result).astype(result.dtype)


def _mean(a, axis, keepdims):
    if not a.size:  # NumPy warns "Mean of empty slice"; PyTorch gives nan without a word
        return a.sum(axis=axis, keepdims=keepdims) / 0
    return a.mean(axis=axis, keepdims=keepdims)


def _xlogy(xp, x, y):
    """``x * log(y)``, 0 where ``x`` is 0, and NaN wherever ``y`` is NaN (PyTorch's kernel)."""
    out = xp.where(x == 0, 0, x * xp.log(y))
    return xp.where(xp.isnan(y), y, out).astype(out.dtype, copy=False)


def _lerp(xp, start, end, weight):
    """PyTorch's formula: from ``start`` for small weights, from ``end`` for the others, so that
    weights 0 and 1 give ``start`` and ``end`` exactly."""
    if not backend.is_array(weight):  # a number: one fused multiply-add per element, as PyTorch's kernel
        if start.dtype == xp.float16:  # (in float32, rounded once)
            return _lerp(xp, start.astype(xp.float32), end.astype(xp.float32), weight).astype(start.dtype)
        diff = end - start
        if builtins.abs(weight) < 0.5:
            return backend.add_scaled(start, diff, weight)
        return backend.add_scaled(end, diff, float(backend.numpy.asarray(weight, dtype=diff.dtype)) - 1)
    return xp.where(xp.abs(weight) < 0.5, start + weight * (end - start), end - (end - start) * (1 - weight))


def _addcmul(xp, self, tensor1, tensor2, value, divide: bool):
    """``self + value * tensor1 * tensor2`` (``/ tensor2`` with ``divide``); float16 in float32,
    rounded once, as PyTorch's kernel."""
    if self.dtype == xp.float16:
        wide = (a.astype(xp.float32) for a in (self, tensor1, tensor2))
        return _addcmul(xp, *wide, value, divide).astype(self.dtype)
    scaled = _as_dtype_of(xp, value, self) * tensor1
    if self.dtype == xp.float32 and not divide:  # PyTorch's fma(scaled, tensor2, self): exact in float64
        return (self + scaled.astype(xp.float64) * tensor2).astype(self.dtype)
    return self + (scaled / tensor2 if divide else scaled * tensor2)


def _as_dtype_of(xp, number, like):
    """A number as a 0-d array of ``like``'s dtype (a float becomes an int for integers, as in PyTorch)."""
    return xp.asarray(number).astype(like.dtype)


def _logit(xp, a, eps):
    if eps is not None and eps >= 0:  # a negative eps is no eps, as in PyTorch
        lo, hi = xp.asarray(eps, dtype=a.dtype), xp.asarray(1 - eps, dtype=a.dtype)
        a = xp.where(a < lo, lo, xp.where(a > hi, hi, a))  # PyTorch's order (eps > 0.5 included); NaN stays
    ratio = a / (1 - a)
    # NumPy's log of a negative number is a NaN with its sign bit set; PyTorch's is +nan
    return xp.where(ratio < 0, xp.asarray(math.nan, dtype=ratio.dtype), xp.log(ratio))


def _sinc(xp, a):
    x = a.astype("float32") if a.dtype == "float16" else a  # half computes in float32, as in PyTorch
    scaled = x * math.pi
    return xp.where(x == 0, 1, xp.sin(scaled) / scaled).astype(a.dtype, copy=False)


def _clamp(xp, a, lo, hi):
    if lo is not None:  # cast: an int out of range wraps (uint8 clamp(-1, 3)), as in PyTorch
        a = xp.maximum(xp.asarray(lo).astype(a.dtype, copy=False), a)
    if hi is not None:
        a = xp.minimum(xp.asarray(hi).astype(a.dtype, copy=False), a)
    return a


def _accumulated(a):
    """The dtype sums, products and running sums of ``a`` are in: int64 for integers and bools."""
    return a.dtype if a.dtype.kind == "f" else "int64"


def _reduced(xp, out):
    """A reduction's result as an array laid out row-major, as PyTorch lays out every reduction's
    result (NumPy's follows a permuted or expanded input's layout), also along kept dims of size 1;
    a NumPy scalar becomes 0-d."""
    out = _row_major(xp, xp.asarray(out))
    if 1 in out.shape:  # NumPy's contiguity ignores the strides there; reshaped, they are row-major's
        return out.reshape(-1).reshape(out.shape) if out.ndim > 1 else out.reshape(()).reshape(1)
    return out


def _sum(xp, a, dim, keepdim):
    return _reduced(xp, a.sum(axis=dim, keepdims=keepdim, dtype=_accumulated(a)))


def _prod(xp, a, dim, keepdim):
    return _reduced(xp, a.prod(axis=dim, keepdims=keepdim, dtype=_accumulated(a)))


def _var(xp, a, dim, correction, keepdim, root=False):
    """Written out rather than NumPy's var: N - correction <= 0 gives inf or nan without NumPy's
    warning (the public function warns as PyTorch does). As in PyTorch's CPU kernels, the squares
    are summed in a wider type (float32 for float16, float64 for float32, around float32's own
    mean) and ``root`` (std) is taken before the cast back: the std of float16 [0, 2000] is finite."""
    if a.dtype == "float16":
        wide = a.astype("float32")
        mean = _mean(wide, dim, True)
    else:
        wide = a.astype("float64") if a.dtype == "float32" else a
        mean = _mean(a, dim, True)
    squares = ((wide - mean) ** 2).sum(axis=dim, keepdims=keepdim)
    spread = squares / builtins.max(0, _count(a.shape, dim) - correction)
    return _reduced(xp, xp.asarray(xp.sqrt(spread) if root else spread, dtype=a.dtype))


def _logsumexp(xp, a, dim, keepdim):
    """log(sum(exp(a))) along ``dim`` without overflow: the maximum is taken out first."""
    if not a.size:
        return _reduced(xp, xp.log(xp.exp(a).sum(axis=dim, keepdims=keepdim)))
    top = a.max(axis=dim, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0)  # all -inf (or an inf): nothing to take out
    out = xp.log(xp.exp(a - top).sum(axis=dim, keepdims=True)) + top
    return _reduced(xp, out if keepdim else xp.squeeze(out, dim))


def _gather(xp, a, dim, keepdim, indices):
    if not a.ndim:  # a 0-d tensor is its own max along dim 0
        return a.copy()
    out = xp.take_along_axis(a, xp.expand_dims(indices, dim), axis=dim)
    return out if keepdim else xp.squeeze(out, dim)


def _median_indices(xp, a, dim, ignore_nan):
    """Where the lower median of ``a`` along ``dim`` is (a stable sort's choice among ties): the
    first NaN where there is one (unless ``ignore_nan``, which takes the median of the others)."""
    order = xp.argsort(a, axis=dim, kind="stable")  # NaN last
    nan = xp.isnan(a) if a.dtype.kind == "f" else xp.zeros(a.shape, dtype=bool)
    if ignore_nan:
        count = a.shape[dim] - nan.sum(axis=dim, keepdims=True)
        found = xp.take_along_axis(order, xp.maximum(count - 1, 0) // 2, axis=dim).squeeze(dim)
        if not count.all():  # a row of NaN only: where PyTorch's nth_element, comparing nothing as less, leaves them
            run = Libstdcxx([math.nan] * a.shape[dim], lambda x, y: False)
            run.nth_element(0)
            found = xp.where(count.squeeze(dim) == 0, run.idx[0], found)
        return _reduced(xp, found)
    middle = xp.take(order, (a.shape[dim] - 1) // 2, axis=dim)
    return _reduced(xp, xp.where(nan.any(axis=dim), nan.argmax(axis=dim), middle))


def _scan(xp, ufunc, a, axis):
    """``ufunc.accumulate(a, axis)``: running maxima, minima, logaddexp. CuPy's accumulate does
    not take every ufunc, so on a GPU the scan doubles its reach each step (log2(n) steps)."""
    if type(a) is backend.CPU_ARRAY:
        return ufunc.accumulate(a, axis=axis)
    out, n, step = a, a.shape[axis], 1
    while step < n:
        out = xp.concatenate([out.take(xp.arange(step), axis), ufunc(out.take(xp.arange(step, n), axis), out.take(xp.arange(n - step), axis))], axis)
        step *= 2
    return out


def _cumulative_extreme_indices(xp, a, dim, largest):
    """Where the running max (``largest``) or min of ``a`` along ``dim`` was found: the last place
    that reached it (ties move it on), and NaN, once met, stays the extreme (PyTorch's rule)."""
    running = _scan(xp, xp.maximum if largest else xp.minimum, a, dim)
    reached = running == a
    if a.dtype.kind == "f":
        reached |= xp.isnan(a)
    places = xp.arange(a.shape[dim]).reshape([-1 if d == dim else 1 for d in range(a.ndim)])
    return _row_major(xp, _scan(xp, xp.maximum, xp.where(reached, places, 0), dim))  # (the values follow their layout)


def _kthvalue_indices(a, dim: int, k: int):
    """Where PyTorch's CPU kthvalue finds the k-th smallest (k from 0) of ``a`` along ``dim``: its
    quickselect replayed on each row, so that among equal values the same one is picked (and gets
    the gradient). A loop in Python: linear in each row's length."""
    host = backend.to_numpy(a)
    rows = host.reshape(-1, 1) if not host.ndim else backend.xp(backend.CPU).moveaxis(host, dim, -1).reshape(-1, host.shape[dim])
    found = backend.xp(backend.CPU).asarray([_quickselect(row.tolist(), k) for row in rows], dtype="int64")
    return backend.place(found.reshape(tuple(n for d, n in enumerate(host.shape) if d != dim)), backend.device_of(a))


def _quickselect(values: list, k: int) -> int:
    """The original place of the k-th smallest of ``values`` (NaN the largest) after PyTorch's
    quick_select_template: median-of-three pivots, partitions swapping values and places alike."""
    places = list(range(len(values)))
    above = lambda x, y: x > y or (x != x and y == y)  # noqa: E731 - greater, or NaN against a number

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        places[i], places[j] = places[j], places[i]

    left, right = 0, len(values) - 1
    while right > left:
        if right == left + 1:
            if above(values[left], values[right]):
                swap(left, right)
            break
        swap(left + (right - left) // 2, left + 1)
        for i, j in ((left + 1, right), (left, right), (left + 1, left)):
            if above(values[i], values[j]):
                swap(i, j)
        i, j, pivot = left + 1, right, values[left]
        while True:
            i += 1
            while above(pivot, values[i]):
                i += 1
            j -= 1
            while above(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1
    return places[k]


def _mode_indices(xp, a, dim):
    """Where the mode of ``a`` along ``dim`` is: the most frequent value (the smallest of equally
    frequent ones), at its last place (PyTorch's CPU kernel: runs of a sorted copy; NaN never equals
    itself, so each NaN is a run of one). That copy is sorted by C++'s std::sort, which is not
    stable past 16 elements and leaves NaN where its comparisons put them: such rows are sorted
    as it sorts them (:func:`std_sort_order`), the others by a stable sort, which is the same."""
    if a.shape[dim] > INSERTION_SORT_MAX or (a.dtype.kind == "f" and xp.isnan(a).any()):
        rows = backend.to_numpy(xp.moveaxis(a, dim, -1))
        found = backend.numpy.empty(rows.shape[:-1], dtype="int64")
        for at in backend.numpy.ndindex(*rows.shape[:-1]):
            row = rows[at].tolist()
            order = std_sort_order(row)
            found[at] = _last_of_longest_run([row[k] for k in order], order)
        return xp.asarray(found)
    order = xp.moveaxis(xp.argsort(a, axis=dim, kind="stable"), dim, -1)
    values = xp.take_along_axis(xp.moveaxis(a, dim, -1), order, -1)
    n = values.shape[-1]
    starts = xp.ones(values.shape, dtype=bool)
    starts[..., 1:] = values[..., 1:] != values[..., :-1]
    ends = xp.ones(values.shape, dtype=bool)
    ends[..., :-1] = starts[..., 1:]
    positions = xp.arange(n)
    run_start = _scan(xp, xp.maximum, xp.where(starts, positions, 0), -1)
    counts = xp.where(ends, positions - run_start + 1, 0)
    best = xp.expand_dims(counts.argmax(axis=-1), -1)  # the first of the longest runs: the smallest value
    return xp.take_along_axis(order, best, -1).squeeze(-1)


def _last_of_longest_run(values: list, order: list) -> int:
    """PyTorch's CPU mode kernel on a sorted row: the place of the last element of the first
    longest run of equal values (``!=`` ends a run, so each NaN is one of its own)."""
    best = count = 0
    found = order[0]
    for i, value in enumerate(values):
        count += 1
        if i == len(values) - 1 or value != values[i + 1]:
            if count > best:
                best, found = count, order[i]
            count = 0
    return found


def _scaled_sum(self, product, beta, alpha):
    """``beta * self + alpha * product``; with beta 0, ``self`` is not read (its NaN do not
    spread), as in PyTorch."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return (self if beta == 1 else self * beta) + product


def _median(xp, a, ignore_nan):
    if not a.size:  # PyTorch's median of nothing is nan, cast to the dtype (True, 0 or the lowest int)
        return xp.asarray(xp.nan).astype(a.dtype)
    flat = a.reshape(-1)
    return flat[_median_indices(xp, flat, 0, ignore_nan)][...]


def _norm(xp, a, p, dim, keepdim):
    absolute = xp.abs(a)
    if p == math.inf:
        out = absolute.max(axis=dim, keepdims=keepdim)
    elif p == -math.inf:
        out = absolute.min(axis=dim, keepdims=keepdim)
    elif p == 0:  # how many elements are not zero
        out = (absolute != 0).sum(axis=dim, keepdims=keepdim)
    elif p == 2:
        out = xp.sqrt((absolute * absolute).sum(axis=dim, keepdims=keepdim))
    elif p == 1:
        out = absolute.sum(axis=dim, keepdims=keepdim)
    else:
        out = (absolute**p).sum(axis=dim, keepdims=keepdim) ** (1.0 / p)
    return _reduced(xp, xp.asarray(out, dtype=a.dtype))


def _threshold_backward(xp, grad_output, self, threshold):
    # PyTorch's kernel is self <= threshold ? 0 : grad (so a nan input lets the gradient through).
    # As a bit mask, the fastest exact form: all ones where the gradient passes, all zeros (the
    # bits of +0.0) where it does not. AND keeps the gradient's bits as they are (-0.0, inf, nan),
    # where a product with a 0/1 mask would give -0.0 for a negative gradient and nan for inf.
    bits = xp.dtype(f"i{grad_output.itemsize}")
    keep = (self <= threshold).astype(bits)
    keep -= 1  # 1 (blocked) -> 0, 0 (passes) -> -1, all ones
    out = keep if keep.ndim and keep.shape == grad_output.shape else None  # (a 0-d result is a NumPy scalar)
    return xp.bitwise_and(keep, grad_output.view(bits), out=out).view(grad_output.dtype)


def _no_derivative(name: str):
    raise RuntimeError(f"derivative for aten::{name} is not implemented")


def _not_implemented(what: str):
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")


def _check_divisor(a, b) -> None:
    if a.dtype.kind in "iub" and a.size and not b.all():
        raise RuntimeError("ZeroDivisionError")  # PyTorch's error for an integer division by zero


def _modulo(xp, a, b, remainder):
    b = xp.asarray(b).astype(a.dtype, copy=False)  # cast: an int out of range wraps (uint8 % -2), as in PyTorch
    _check_divisor(a, b)
    out = remainder(a, b)
    if remainder is xp.remainder and out.dtype.kind == "f":
        # PyTorch adjusts fmod's result, so a zero keeps the dividend's sign (NumPy's: the divisor's)
        out = xp.where(out == 0, xp.copysign(out, a), out)
    return out


def _round_decimals(xp, a, decimals):
    if a.dtype == xp.float16:  # PyTorch scales a float16 in float32: x * 10**d rounded to float16 moves the tie
        return xp.round(a.astype(xp.float32), decimals).astype(a.dtype)
    return xp.round(a, decimals)


def _div_rounded(xp, a, b, mode):
    _check_divisor(a, b)
    if mode == "floor":
        return xp.floor_divide(a, b)  # Python's a // b: 1.0 // 0.1 is 9.0, not floor(1.0 / 0.1)
    if a.dtype.kind in "iub":
        # the floor quotient, one up where it was rounded down below zero (abs(-128) overflows int8)
        out = xp.floor_divide(a, b)
        return out + ((out < 0) & (xp.remainder(a, b) != 0))
    return xp.trunc(a / b)


def _rot90(xp, a, k, dims):
    """PyTorch's rot90 (its memory layout too): a flip of ``dims[1]`` then a swap of the two dims
    for k = 1, both dims flipped for k = 2, a flip of ``dims[0]`` then the swap for k = 3."""
    d0, d1 = dims
    k %= 4
    if k == 0:
        return a.copy()  # row-major
    if k == 2:
        return xp.flip(a, dims).copy()
    return xp.swapaxes(xp.flip(a, d1 if k == 1 else d0).copy(), d0, d1)


def _block_diag(xp, arrays):
    shapes = [a.shape for a in arrays]
    blocks = _blocks(shapes)
    out = xp.zeros((blocks[-1][0].stop, blocks[-1][1].stop), dtype=arrays[0].dtype)
    for (rows, cols), a, shape in zip(blocks, arrays, shapes):
        out[rows, cols] = a.reshape(_as_matrix(shape))
    return out


def _as_matrix(shape) -> tuple[int, int]:
    """block_diag's view of a shape: a 0-d tensor is 1x1, a vector one row."""
    return tuple(shape) if len(shape) == 2 else (1, shape[0]) if shape else (1, 1)


def _blocks(shapes) -> list[tuple[slice, slice]]:
    """Where each of ``shapes`` lies in block_diag's result: (rows, columns)."""
    out, row, col = [], 0, 0
    for shape in shapes:
        rows, cols = _as_matrix(shape)
        out.append((slice(row, row + rows), slice(col, col + cols)))
        row, col = row + rows, col + cols
    return out


def _take_view(xp, a, steps):
    for op, params, _ in steps:
        # view() refuses layouts it cannot view; a gradient replayed here may have one, and a
        # copy is fine for it (the base the view was taken from always allows the view).
        a = a.reshape(params["shape"]) if op is view_op or op is reshape_alias_op else op.forward(xp, a, **params)
    return a


def _untake_view(grad, steps):
    """A view's gradient taken back to its base: each step's own rule, the last step first."""
    for op, params, shape in reversed(steps):
        grad = op.rules["self"](*[grad if k == "grad" else shape if k == "self_shape" else params[k] for k in op.reads["self"]])
    return grad


def _laid_out_as(a, like):
    """``a`` (shaped like the array ``like``) laid out as ``empty_like`` lays out a copy of ``like``,
    as PyTorch lays out the results of sort (NumPy's are row-major)."""
    return backend.relaid(a, backend.preserved_strides(like))


def _fresh_layout(a):
    """``a`` laid out as a new PyTorch tensor of its shape: row-major, also along dims of size 1
    (which NumPy's contiguity ignores), as topk's results are."""
    return backend.relaid(a, backend.row_major_strides(a.shape))


def _row_major(xp, a):
    """``a`` laid out row-major (contiguous), as PyTorch lays out the results of cat, stack,
    softmax, masked_fill and running sums whatever the inputs' layout (NumPy would follow a
    transposed input's)."""
    return a if a.flags.c_contiguous else xp.ascontiguousarray(a)  # (ascontiguousarray makes 0-d 1-d)


def _softmax(xp, a, dim):
    e = xp.exp(_shifted(a, dim))
    return _row_major(xp, e / e.sum(axis=_axis(a, dim), keepdims=True))


def _log_softmax(xp, a, dim):
    shifted = _shifted(a, dim)
    return _row_major(xp, shifted - xp.log(xp.exp(shifted).sum(axis=_axis(a, dim), keepdims=True)))


def _axis(a, dim):
    """NumPy's axis for ``dim`` (already wrapped): a 0-d tensor's dim 0 is the whole tensor."""
    return dim if a.ndim else None


def _shifted(a, dim):
    """``a`` minus its maximum along ``dim``, so that no exponential overflows."""
    return a - a.max(axis=_axis(a, dim), keepdims=True) if a.size else a  # an empty max fails


def _view(xp, a, shape):
    out = a.reshape(shape)
    if out.size and not backend.shares_memory(out, a):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    if 1 in shape or 1 in a.shape or not out.size:  # NumPy strides dims of size 1 (and empty views) its own way
        if out.size and a.flags.c_contiguous and a.ndim and a.strides[-1] == a.itemsize and out.shape != a.shape:
            return out  # one block, a new shape: row-major strides, NumPy's and PyTorch's alike
        strides = _view_strides(a.shape, a.strides, shape, a.itemsize)
        return out if out.strides == strides else backend.restrided(out, strides)
    return out


def _unsqueezed(xp, a, dim):
    """``a`` with a new dim of size 1 at ``dim``, strided as PyTorch's unsqueeze: the next dim's
    size times its stride (1 at the end); NumPy's ``expand_dims`` also restrides the dims of size 1
    that ``a`` has."""
    shape, strides = a.shape, a.strides
    out = a.reshape(shape[:dim] + (1,) + shape[dim:])
    strides = strides[:dim] + (shape[dim] * strides[dim] if dim < len(shape) else a.itemsize,) + strides[dim:]
    return out if out.strides == strides else backend.restrided(out, strides)


def _sliced(a, key):
    """``a[key]`` (ints and slices), strided as PyTorch slices: the input's stride times the step
    also along a dim left empty (NumPy drops the step there)."""
    out = a[key]
    if out.size:
        return out
    strides = list(out.strides)
    for i, k in enumerate(key):
        if isinstance(k, slice) and k.step not in (None, 1) and not out.shape[i]:
            strides[i] = a.strides[i] * k.step
    return backend.restrided(out, tuple(strides))


def _embed(xp, values, shape, key):
    out = xp.zeros(shape, dtype=values.dtype)
    if _is_basic(key):
        out[key] = values
    elif values.size:  # (nothing to add from an empty result, whose indices may lie outside)
        backend.scatter_add(out, key, values)  # repeated indices add up
    return out


def _index_read(xp, a, key):
    """``a[key]`` (advanced), laid out as PyTorch lays it out (row-major unless ``a`` or an index
    is not); an empty result even where an index lies outside its dimension (PyTorch reads
    nothing then, and checks nothing)."""
    try:
        out = a[key]
    except IndexError:
        shape = _advanced_shape(a.shape, key)
        if math.prod(shape):
            raise
        return xp.empty(shape, dtype=a.dtype)
    if out.ndim < 2 or not out.size or builtins.all(_row_major_exactly(k) for k in (a,) + key if backend.is_array(k)):
        return _fresh_layout(out)  # (PyTorch's layout then, as TensorIterator orders it)
    return backend.relaid(out, _index_strides(a, key, out.shape))


def _row_major_exactly(a) -> bool:
    """Whether ``a``'s strides are row-major also along its dims of size 1 (which TensorIterator
    reads in ordering a result's dims, though they never move an element)."""
    return a.flags.c_contiguous and backend.element_strides(a) == backend.row_major_strides(a.shape)


def _index_strides(a, key: tuple, shape: tuple) -> tuple:
    """The strides PyTorch's index kernel gives ``a[key]`` (of ``shape``): a TensorIterator over
    ``a`` restrided (the indexed dims replaced by the indices' broadcast dims, stride 0; moved to
    the front when not adjacent) and each index tensor broadcast to them, so the kept dims follow
    ``a``'s order and the indexed dims the indices' own."""
    items = []  # per dim of a: None (kept) or an index's (shape, strides)
    for k in key:
        if not backend.is_array(k):
            items.append(None)
        elif k.dtype == bool:  # a mask is one vector of positions per dim it covers
            items += [((int(k.sum()),), (1,))] * k.ndim
        else:
            items.append((k.shape, backend.element_strides(k)))
    items += [None] * (a.ndim - len(items))
    places = [d for d, item in enumerate(items) if item is not None]
    indexed = _broadcast_shape(*(item[0] for item in items if item is not None))
    strides = backend.element_strides(a)
    kept = [d for d, item in enumerate(items) if item is None]
    before = [d for d in kept if d < places[0]] if places[-1] - places[0] == len(places) - 1 else []
    after = [d for d in kept if d not in before]
    operands = [[strides[d] for d in before] + [0] * len(indexed) + [strides[d] for d in after]]
    for item in items:
        if item is not None:  # broadcast (expand_outplace), then viewed with 1s around (reshape_indexer)
            index_shape, index_strides = item
            lead = len(indexed) - len(index_shape)
            own = [0] * lead + [0 if n == 1 and indexed[lead + i] != 1 else st for i, (n, st) in enumerate(zip(index_shape, index_strides))]
            viewed = _view_strides(indexed, own, (1,) * len(before) + tuple(indexed) + (1,) * len(after))
            # (TensorIterator: 0 along a dim of size 1 the result does not have)
            operands.append([0 if n == 1 and m != 1 else st for n, m, st in zip((1,) * len(before) + tuple(indexed) + (1,) * len(after), shape, viewed)])
    return backend.iterator_strides_of(shape, operands)


def _view_strides(shape, strides, new_shape, unit: int = 1) -> tuple:
    """The strides PyTorch's ``view`` gives a tensor of ``shape`` and ``strides`` seen as
    ``new_shape`` (its ``computeStride``, for a view that exists), in elements, or in bytes where
    ``unit`` is the element's size."""
    if not shape:
        return (unit,) * len(new_shape)
    if 0 in shape:  # no elements: the strides kept, or a new tensor's (sizes 0 counted as 1)
        if tuple(shape) == tuple(new_shape):
            return tuple(strides)
        return tuple(s * unit for s in backend.row_major_strides(new_shape))
    out = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base, tensor_numel, view_numel = strides[-1], 1, 1
    for d in reversed(range(len(shape))):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base):  # the end of a chunk
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if d > 0:
                base, tensor_numel, view_numel = strides[d - 1], 1, 1
    return tuple(out)


def _torch_clone(a):
    """A copy of ``a`` laid out as PyTorch's ``a.clone()`` (preserve_format) is: ``clone`` itself,
    and the ops that PyTorch writes into such a clone (put, index_put, index_fill, the ``*_scatter`` ops) give
    their result its layout (``x.t().index_fill(...)`` is column-major)."""
    return backend.clone(a, backend.preserved_strides(a))


def _put(a, key, src):
    """A copy of ``a`` (as PyTorch clones it) with ``src`` written at ``key``."""
    out = _torch_clone(a)
    try:
        out[key] = src
    except IndexError:
        if not _empty_result(a.shape, key):
            raise
    return out


def _positions(xp, index, dim):
    """Where gather reads and scatter writes: ``index`` along ``dim``, and each element's own
    place along every other dim (out[i][j] = self[i][index[i][j]] for dim 1)."""
    key = [xp.arange(n).reshape([-1 if d == k else 1 for d in range(index.ndim)]) for k, n in enumerate(index.shape)]
    key[dim] = index
    return tuple(key)


def _gather_at(xp, a, dim, index):
    if not index.size:  # (of any shape or dtype: PyTorch checks neither)
        return xp.empty(index.shape, dtype=a.dtype)
    if not a.ndim or not index.ndim:  # a 0-d tensor or index is one element along dim 0
        return a.reshape(-1)[index.reshape(-1)].reshape(index.shape)
    return a[_positions(xp, index, dim)]


def _scatter_at(xp, a, dim, index, src, add):
    """A copy of ``a`` with ``src`` (an array, or a number for every place) written, or with
    ``add`` added, where ``index`` points; repeated places add up."""
    out = a.copy()
    if not index.size:
        return out
    target = out
    if not a.ndim or not index.ndim:  # a 0-d tensor or index is one element along dim 0
        target, index = out.reshape(-1), index.reshape(-1)  # a view of the copy
        src = src.reshape(-1) if backend.is_array(src) else src
    if backend.is_array(src):
        values = src[tuple(slice(0, n) for n in index.shape)]
    else:
        values = xp.asarray(src).astype(a.dtype)  # cast first: an int out of range wraps, as in PyTorch
    key = _positions(xp, index, dim)
    if add:
        backend.scatter_add(target, key, values)
    else:
        target[key] = values
    return out


def _index_add(xp, self, source, dim, index, alpha):
    out = self.copy()
    if not out.size:  # (PyTorch adds nothing to an empty tensor, nor checks the indices)
        return out
    if alpha != 1:
        source = (source * (int(alpha) if self.dtype.kind in "iu" else alpha)).astype(self.dtype)
    target = out if out.ndim else out.reshape(1)  # a view of the copy
    backend.scatter_add(target, (slice(None),) * dim + (index,), source.reshape(target.shape[:dim] + (index.size,) + target.shape[dim + 1 :]))
    return out


def _broadcast_flat(xp, a, other):
    """``a`` broadcast against ``other``, flattened (masked_select's operands)."""
    return xp.broadcast_to(a, xp.broadcast_shapes(a.shape, other.shape)).reshape(-1)


def _index_write(out, dim, index, values):
    """``out`` (a new copy) with ``values`` (a 0-d value or slices) written at ``index`` along
    ``dim`` (nothing, and no index looked at, where nothing is written)."""
    if not out.size or not index.size:
        return out
    target = out if out.ndim else out.reshape(1)  # a view of the copy
    target[(slice(None),) * dim + (index,)] = values.reshape(target.shape[:dim] + (index.size,) + target.shape[dim + 1 :]) if values.ndim else values
    return out


def _times(grad: Tensor, alpha) -> Tensor:
    """``grad * alpha``, without an op when ``alpha`` is 1 (the gradient of ``alpha * x``)."""
    return grad * alpha if alpha != 1 else grad


def _masked_select_backward(grad: Tensor, self: Tensor, mask) -> Tensor:
    """masked_select's gradient: ``grad`` put back where the mask (broadcast) was True."""
    shape = _broadcast_shape(self.shape, mask.shape)
    xp = backend.xp(grad.device)
    with backend.on(grad.device):
        places = xp.flatnonzero(xp.broadcast_to(mask, shape))
    return embed(grad, shape=(math.prod(shape),), key=(places,)).reshape(shape)


def _unique(like: Tensor, index) -> Tensor:
    """The distinct values of the array ``index`` (on ``like``'s device), as a tensor."""
    with backend.on(like.device):
        return Tensor._make(backend.xp(like.device).unique(index))


def _trace_backward(grad: Tensor, sizes) -> Tensor:
    """PyTorch's trace_backward: ``grad`` filled into the diagonal places of flat zeros, viewed
    as the matrix (so its nodes when recorded: IndexFillBackward1, ViewBackward0)."""
    rows, cols = sizes
    xp = backend.xp(grad.device)
    zeros = Tensor._make(xp.zeros(rows * cols, dtype=grad._data.dtype))
    return zeros.index_fill_(0, Tensor._make(xp.arange(builtins.min(rows, cols)) * (cols + 1)), grad).view(rows, cols)


def _put_back(grad: Tensor, shape, dim: int, indices) -> Tensor:
    """Zeros of ``shape`` with ``grad`` written where ``indices`` took it along ``dim``."""
    zeros = Tensor._make(backend.xp(grad.device).zeros(shape, dtype=grad._data.dtype))
    return scatter_op(zeros, grad, dim=dim, index=indices)  # also for a 0-d input: a new tensor, as PyTorch's


def _padded(shape, repeats) -> tuple:
    """``shape`` with leading 1s, to as many dims as ``repeats`` has."""
    return (1,) * (len(repeats) - len(shape)) + tuple(shape)


def _sum_copies(grad: Tensor, repeats, shape) -> Tensor:
    """repeat's gradient, as PyTorch's repeat_backward (so its nodes): the leading copies summed
    away, then each repeated dim seen as (copies, size) and summed over the copies."""
    if 0 in repeats:
        return Tensor._make(backend.xp(grad.device).zeros(shape, dtype=grad._data.dtype))
    for _ in range(len(repeats) - len(shape)):
        grad = grad.sum(0)
    sizes, copies = [], []
    for r, s in zip(repeats[len(repeats) - len(shape):], shape):
        if r != 1:
            sizes.append(r)
            copies.append(len(sizes) - 1)
        sizes.append(s)
    grad = grad if tuple(grad.shape) == tuple(sizes) else grad.reshape(sizes)
    return grad.sum(copies) if copies else grad


def _src_grad(node: str, grad: Tensor, dim: int, index, src_shape) -> Tensor:
    """scatter's gradient for ``src``, ``grad.gather(dim, index)``: the shape of ``index``, so
    PyTorch refuses it when ``src`` is larger than ``index`` (unless ``src``'s shape broadcasts to
    it, as a 1 to an empty index's 0: then it is summed back, as for any node)."""
    _check_grad_shape(node, index.shape, src_shape)
    return gather_op(grad, dim=dim, index=index, sparse_grad=False)


def _check_grad_shape(node: str, got: tuple, shape: tuple) -> None:
    """PyTorch's check of a gradient of shape ``got`` for an input of ``shape``: the same shape, or
    one that input's broadcasts to (the gradient is then summed back to it)."""
    got, shape = tuple(got), tuple(shape)
    if got != shape and (len(shape) > len(got) or builtins.any(s not in (1, g) for s, g in zip(reversed(shape), reversed(got)))):
        raise RuntimeError(
            f"Function {node} returned an invalid gradient at index 1 - got {list(got)} but expected "
            f"shape compatible with {list(shape)}"
        )


def _embedded_shape(shape, offset, dim1, dim2):
    """The shape of diag_embed's result: the last dim of ``shape`` becomes a diagonal in two new
    dims ``dim1`` and ``dim2``."""
    size, ndim = shape[-1] + builtins.abs(offset), len(shape) + 1
    out = list(shape[:-1])
    for d in sorted((dim1 % ndim, dim2 % ndim)):
        out.insert(d, size)
    return tuple(out)


def _diagonal_embed(xp, values, shape, offset, dim1, dim2):
    out = xp.zeros(shape, dtype=values.dtype)
    backend.diagonal(out, offset, dim1, dim2)[...] = values
    return out


def _reduce(xp, a, reduction):
    if reduction == "mean":
        return xp.asarray(a.mean(), dtype=a.dtype)
    if reduction == "sum":
        return xp.asarray(a.sum(), dtype=a.dtype)
    return a


def _nll(xp, logp, target, weight, reduction, ignore_index):
    w = _nll_weights(xp, target, weight, ignore_index, logp.dtype)
    if w is None:  # every target counts once
        losses, total = -_pick(xp, logp, target), target.size
    else:
        safe = xp.where(w != 0, target, 0)  # an ignored target picks class 0, with weight 0
        losses, total = -_pick(xp, logp, safe) * w, w.sum()
    if reduction == "none":
        return losses
    if reduction == "sum":
        return xp.asarray(losses.sum(), dtype=logp.dtype)
    # total is 0 when every target is ignored: the mean is nan, as in PyTorch (no 0/0 warning)
    return xp.asarray(losses.sum() / total if total != 0 else xp.nan, dtype=logp.dtype)


def _nll_weights(xp, target, weight, ignore_index, dtype):
    """Each target's weight: its class's ``weight`` (1 without one), 0 where it is ``ignore_index``;
    None when every target counts once (no ``weight``, none ignored: the common case, kept quick)."""
    kept = target != ignore_index
    if weight is None:
        return None if kept.all() else kept.astype(dtype)
    return xp.where(kept, weight[xp.where(kept, target, 0)], 0).astype(dtype)


def _pick(xp, logp, target):
    """``logp`` at each target's class (the class dimension is 1, or 0 for a 1-D ``logp``)."""
    if logp.ndim == 2:  # the common case: plain fancy indexing is the fastest
        return logp[xp.arange(len(target)), target]
    axis = _class_axis(logp.ndim)
    return xp.take_along_axis(logp, xp.expand_dims(target, axis), axis).squeeze(axis)


def _class_axis(ndim: int) -> int:
    return 0 if ndim == 1 else 1


# ----------------------------------------------------------------------------------------------
# Tensor helpers for the derivative rules (tensors in, tensors out, differentiable).
# ----------------------------------------------------------------------------------------------

def _within(self: Tensor, lo, hi) -> Tensor:
    mask = ones_like_tensor(self, dtypes.bool)
    if lo is not None:
        mask = mask & (self >= lo)
    if hi is not None:
        mask = mask & (self <= hi)
    return mask


def _inverse_square_radius(self: Tensor, other: Tensor) -> Tensor:
    """``1 / (self² + other²)`` for atan2's gradient, 0 where that is infinite (at the origin
    the gradient is 0, as in PyTorch, not NaN)."""
    inverse = (self * self + other * other).reciprocal()
    return inverse.masked_fill(inverse.isinf(), 0)


def _logit_backward(grad: Tensor, self: Tensor, eps) -> Tensor:
    """PyTorch's logit_backward: ``grad / (self * (1 - self))``; outside [0, 1] NaN without
    ``eps``, and 0 outside [eps, 1 - eps] with it (where the forward clamped)."""
    if eps is None or eps < 0:
        return where((self < 0) | (self > 1), math.nan, grad / (self * (1 - self)))
    return where((self < eps) | (self > 1 - eps), 0.0, grad / (self * (1 - self)))


def _sinc_backward(grad: Tensor, self: Tensor) -> Tensor:
    """d/dx sin(pi x) / (pi x) = (pi x cos(pi x) - sin(pi x)) / (pi x²), 0 at x = 0 (PyTorch's)."""
    scaled, denominator = mul_scalar_op(self, other=math.pi), mul_scalar_op(self * self, other=math.pi)
    return where(denominator == 0, 0.0, grad * (scaled * scaled.cos() - scaled.sin()) / denominator)


def _unreduce(grad: Tensor, shape, dim, keepdim) -> Tensor:
    """Undo a reduction over ``dim``: put back the reduced axes and expand to ``shape``."""
    return _unsqueeze_reduced(grad, len(shape), dim, keepdim).expand(shape)


def _unsqueeze_reduced(grad: Tensor, ndim: int, dim, keepdim) -> Tensor:
    """``grad`` with the axes a reduction over ``dim`` removed put back, of size 1."""
    if not keepdim:
        for d in sorted(_dims(dim, ndim)):
            grad = grad.unsqueeze(d)
    return grad


def _count(shape, dim) -> int:
    return math.prod(shape[d] for d in _dims(dim, len(shape)))


def _evenly(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    """Spread ``grad`` evenly over the elements of ``self`` equal to ``result`` (ties of max/min;
    its nans when it is nan), zero elsewhere (PyTorch's evenly_distribute_backward)."""
    mask = (self != self) if bool(result._data != result._data) else (self == result)
    return masked_fill(zeros_like_tensor(self), mask, grad / mask.sum())  # PyTorch's CPU formula


def _scatter(grad: Tensor, shape, dim, keepdim, indices) -> Tensor:
    """Send ``grad`` to the positions ``indices`` picked along ``dim``: a scatter into zeros, as
    PyTorch's value_selecting_reduction_backward (not a product: inf * 0 would be nan)."""
    if shape:  # the indices lack the reduced dim (and grad too, without keepdim); a 0-d input has none
        grad, indices = grad if keepdim else grad.unsqueeze(dim), backend.xp(grad.device).expand_dims(indices, dim)
    return _put_back(grad, shape, dim, indices)


def _norm_backward(grad, self, result, p, dim, keepdim):
    """PyTorch's norm_backward, branch by branch (with its zeros at the origin and, for p < 1, at
    the zero elements), with its ops (``sgn``, so SgnBackward0 when the backward is recorded)."""
    norm = result
    if not keepdim and dim is not None and self.ndim:
        for d in sorted(dim):
            grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
    if p == 0:
        return None  # PyTorch's gradient here is undefined: nothing flows back (.grad stays None)
    if p == 1:
        return self.sgn() * grad
    if p == 2:
        return grad * (self / norm).masked_fill(norm == 0, 0)
    if math.isinf(p):  # shared among the elements that reach the norm (or are nan)
        magnitude = self.abs()
        mask = (magnitude == norm) | magnitude.isnan()
        return self.sgn() * ((grad / mask.sum(() if dim is None else dim, keepdim=True)) * mask)  # () is every dim
    if p < 1:
        return self.sgn() * (self.abs() ** (p - 1)).masked_fill(self == 0, 0) * grad * norm ** (1 - p)
    scaled = self.sgn() * self.abs() ** (p - 1) if p < 2 else self * self.abs() ** (p - 2)
    return scaled * (grad / norm ** (p - 1)).masked_fill(norm == 0, 0)


def _evenly_along(grad, self, result, dim, keepdim):
    """amax/amin: ``grad`` shared evenly among the elements equal to the result along ``dim``."""
    mask = _unreduce(result, self.shape, dim, keepdim) == self
    return _unreduce(grad, self.shape, dim, keepdim) / mask.sum(dim, keepdim=True) * mask


def _var_backward(grad, self, dim, correction, keepdim):
    """PyTorch's ``2 / (N - correction) * grad * (self - mean)``; broadcasting spreads ``grad``
    (PyTorch unsqueezes it only for a ``dim`` given and inputs of more than one dim)."""
    if dim is None or self.ndim == 0:
        freedom = self.numel() - correction
        if freedom <= 0:  # 2 / 0 (or less) is inf: inf * 0 is nan where self is its mean
            return grad * where(self == self.mean(), math.nan, math.inf)
        return mul_scalar_op(grad, other=2.0 / freedom) * (self - self.mean())
    freedom = _count(self.shape, dim) - correction  # with dim, 2 / (N - correction) even when negative
    grad = _unsqueeze_reduced(grad, self.ndim, dim, keepdim or self.ndim <= 1)
    return mul_scalar_op(grad, other=2.0 / freedom if freedom else math.inf) * (self - self.mean(dim, keepdim=True))


def _prod_backward(grad, self, result, dim, keepdim=False):
    """The product of the other elements, PyTorch's rule: the gradient itself for a 0-d input;
    result / self where ``self`` has no zero; else the products before and after each element,
    by running products (0 everywhere, for all elements, when two zeros and no graph is made)."""
    if self.ndim == 0:
        return grad
    if dim is not None and not keepdim:
        grad, result = grad.unsqueeze(dim), result.unsqueeze(dim)
    zero = self == 0
    if not zero.any().item():
        return grad * (result / self)
    if dim is None:
        if not is_grad_enabled() and zero.sum().item() > 1:
            return zeros_like_tensor(self)
        if self.numel() == 1:  # (PyTorch's rule gives the gradient itself: it does not depend on self)
            return grad.view_as(self)
        return (grad * _exclusive_products(self.reshape(-1), 0)).view_as(self)
    return grad if self.shape[dim] == 1 else grad * _exclusive_products(self, dim)


def _exclusive_products(self, dim):
    """Each element's product of the others along ``dim``: the running product before it times
    the one after it (no division, so right with zeros), PyTorch's prod_safe_zeros_backward."""
    if self.numel() == 0:
        return self
    n = self.shape[dim]
    ones = ones_like_tensor(self.narrow(dim, 0, 1))
    before = cat([ones, self.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = cat([ones, self.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return before * after


def _cumprod_backward(grad, self, result, dim):
    if self.numel() <= 1 or self.shape[dim] == 1:
        return grad
    zero = self == 0
    if not bool(zero.any()):
        return (grad * result).flip(dim).cumsum(dim).flip(dim) / self
    if not is_grad_enabled():  # no graph to make: PyTorch's faster rule, whose inf and nan differ
        return _cumprod_backward_zeros(grad, self, result, dim, zero)
    size, pieces = self.shape[dim], []
    along = lambda start, stop=None: (slice(None),) * dim + (slice(start, stop),)  # noqa: E731
    for k in range(size):  # d result_j / d self_k for j >= k: the product of self_i, i <= j, i != k
        after = self[along(k + 1)].cumprod(dim)
        before = self[along(0, k)].prod(dim, keepdim=True) if k else ones_like_tensor(self[along(0, 1)])
        omitted = cat([before, before * after], dim) if k < size - 1 else before
        pieces.append((grad[along(k)] * omitted).sum(dim))
    return stack(pieces, dim)


def _cumprod_backward_zeros(grad, self, result, dim, zero):
    """PyTorch's O(n) cumprod_backward for an input with zeros, step by step (an inf or nan
    spreads as in its masks): before the first zero, the sum of ``grad * result`` from the
    end divided by ``self``; at the first zero, the products up to the second zero times the
    gradients there, times the product before it; zero after it."""
    zeros_seen = zero.cumsum(dim)
    before = zeros_seen == 0
    first = zero & (zeros_seen == 1)
    between = (zeros_seen == 1) & first.logical_not()
    head = (grad * result).masked_fill(before.logical_not(), 0).flip(dim).cumsum(dim).flip(dim) / self
    ones = ones_like_tensor(result.narrow(dim, 0, 1))
    previous = cat([ones, result.narrow(dim, 0, self.shape[dim] - 1)], dim)  # the product before each element
    at_first = (self.masked_fill(between.logical_not(), 1).cumprod(dim) * grad.masked_fill(zeros_seen != 1, 0)).sum(dim, keepdim=True)
    at_first = at_first * where(first, previous, 0).sum(dim, keepdim=True)
    return where(before, head, where(first, at_first, 0))


def _logcumsumexp_backward(grad, self, result, dim):
    """PyTorch's formula, which cannot overflow: sum over j >= k of grad_j * exp(self_k - result_j),
    the positive and the negative parts of ``grad`` each summed from the end in log space."""
    if not grad.ndim or not grad.numel():
        return grad
    lowest = float(backend.xp(grad.device).finfo(grad._data.dtype).min)  # log(0), kept finite
    log_size = grad.abs().log()
    from_end = lambda x: x.flip(dim).logcumsumexp(dim).flip(dim)  # noqa: E731
    positive = from_end(where(grad > 0, log_size, lowest) - result)
    negative = from_end(where(grad < 0, log_size, lowest) - result)
    return (positive + self).exp() - (negative + self).exp()


def _var_mean_backward(grads, self, dim, correction, keepdim, std=None):
    """var_mean's and std_mean's rule: var's (or std's) gradient plus mean's, for the results
    that got a gradient (PyTorch's var_mean_backward and std_mean_backward)."""
    grad_spread, grad_mean = grads
    out = None
    if grad_spread is not None:
        if std is not None:
            grad_spread = where(std == 0, 0.0, grad_spread / (2 * std))
        out = _var_backward(grad_spread, self, dim, correction, keepdim)
    if grad_mean is not None:
        part = div_scalar_op(_unreduce(grad_mean, self.shape, dim, keepdim), other=_count(self.shape, dim))  # (DivBackward1)
        out = part if out is None else out + part
    return out


def _aminmax_backward(grads, self, min, max, dim, keepdim):  # noqa: A002
    """Each of min's and max's gradients shared evenly among the elements equal to it."""
    parts = [_evenly_along(g, self, r, dim, keepdim) for g, r in zip(grads, (min, max)) if g is not None]
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


def _block_grads(grad: Tensor, shapes) -> list[Tensor]:
    """block_diag's gradients: each input's block, squeezed as PyTorch squeezes it (a vector's
    row keeps its 1, so _fit sums it away, as PyTorch's engine does)."""
    grads = []
    for (rows, cols), shape in zip(_blocks(shapes), shapes):
        block = grad[rows, cols]
        for _ in range(2 - len(shape)):
            block = block.squeeze(-1)
        grads.append(block)
    return grads


def _joined(arrays) -> list:
    ndim = builtins.max(a.ndim for a in arrays)
    return [a for a in arrays if a.ndim == ndim or a.shape != (0,)]


def _split(grad: Tensor, shapes, dim) -> list[Tensor]:
    """The pieces of ``grad`` for the tensors cat joined along ``dim``."""
    pieces, start = [], 0
    for shape in shapes:
        if shape == (0,):  # a 1-D empty tensor (which cat skips when the others have more dims)
            pieces.append(Tensor._make(backend.xp(grad.device).zeros((0,), dtype=grad._data.dtype)))
            continue
        size = shape[dim]
        key = (slice(None),) * dim + (slice(start, start + size),)
        pieces.append(slice_op(grad, key=key))
        start += size
    return pieces


def _mask_out(grad: Tensor, key) -> Tensor:
    xp = backend.xp(grad.device)
    with backend.on(grad.device):
        mask = xp.ones(grad.shape, dtype=bool)
        if not _empty_result(grad.shape, key):
            mask[key] = False
    return Tensor._make(mask)


def _mm_mat2_grad(grad: Tensor, mat1: Tensor, mat2_strides) -> Tensor:
    """``mat1.T @ grad``, laid out in memory as ``mat2`` was (as PyTorch does).

    ``nn.Linear`` multiplies by ``weight.t()``, a column-major view: its gradient is computed
    transposed so that ``TBackward0``'s transpose gives the weight a row-major gradient, which
    ``.grad`` then holds without a slow transposing copy.
    """
    if mat2_strides[0] < mat2_strides[1]:  # column-major
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)


def _mse_grad(grad, self, target, reduction):
    diff = 2 * (self - target)
    if reduction == "mean":
        return grad * diff / diff.numel()
    return grad * diff


def _nll_backward(xp, grad_output, shape, target, weight, reduction, ignore_index):
    """The gradient of nll_loss for an input of ``shape``: ``-weight`` at each target's class, 0
    elsewhere, times the loss's gradient (divided by the total weight for the mean)."""
    dtype = grad_output.dtype
    w = _nll_weights(xp, target, weight, ignore_index, dtype)
    if w is None:  # every target counts once
        w = xp.full(target.shape, 1 / target.size if reduction == "mean" and target.size else 1, dtype=dtype)
    else:
        if reduction == "mean":
            total = w.sum()
            if total != 0:  # all ignored: zero gradient, as in PyTorch
                w = w / total
        target = xp.where(w != 0, target, 0)  # an ignored target marks class 0, with weight 0
    axis = _class_axis(len(shape))
    if len(shape) == 2:  # the common case: plain indexing is the fastest (as in _pick)
        scale = xp.zeros(shape, dtype=dtype)
        scale[xp.arange(shape[0]), target] = -w
    else:
        classes = xp.arange(shape[axis]).reshape([-1 if d == axis else 1 for d in range(len(shape))])
        scale = (classes == xp.expand_dims(target, axis)) * -xp.expand_dims(w, axis)
    return (xp.expand_dims(grad_output, axis) if reduction == "none" else grad_output) * scale


# ----------------------------------------------------------------------------------------------
# Argument handling shared by the public functions.
# ----------------------------------------------------------------------------------------------

def _dims(dim, ndim: int) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dims = (_wrap_dim(dim, ndim),)
    else:  # (PyTorch's parser checks the type of the first dim only: a True after it is 1)
        dims = tuple(_wrap_dim(builtins.int(d) if i and type(d) is bool else d, ndim) for i, d in enumerate(dim))
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims if ndim else ()  # a 0-d tensor takes dim 0 or -1, as in PyTorch: it has nothing to reduce


def _all_if_empty(dim):
    """``dim`` of a reduction, where an empty tuple or list means every dim, as in PyTorch."""
    return None if isinstance(dim, tuple | list) and not dim else dim


def _in_dtype(out: Tensor, dtype, input: Tensor) -> Tensor:
    """A sum or product ``out`` of ``input`` in the integer ``dtype`` asked for (its op accumulates
    integers in int64); integer results never require grad, so no node is added."""
    if dtype is not None and not dtype.is_floating_point and input.requires_grad and is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {dtype._legacy_name}")
    return out.to(dtype) if dtype is not None and out.dtype is not dtype else out


def _wrap_dim(dim: int, ndim: int) -> int:
    size = builtins.max(ndim, 1)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"dim must be an int, got {type(dim).__name__}")
    if not -size <= dim < size:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})"
        )
    return dim % size


def _is_basic(key) -> bool:
    return builtins.all(k is None or k is Ellipsis or isinstance(k, int | slice) for k in key)


def _operand_dtype(values) -> dtypes.dtype:
    dims, zero_dims, scalars = [], [], []
    for v in values:
        if isinstance(v, Tensor):
            (dims if v.ndim else zero_dims).append(v.dtype)
        else:
            scalars.append(v)
    return dtypes.result_type(dims, zero_dims, scalars)


def _kept(t: Tensor, *inputs, array=None) -> object:
    """The array of ``t`` (an index, mask or condition; ``array`` if given, e.g. moved to another
    device) for a node's parameters: when the node is recorded, never ``t``'s own memory, so that
    changing ``t`` in place later cannot change the gradient. The copy keeps the order of the
    dims in memory, which PyTorch's kernels read (``x[i]`` is laid out as a transposed ``i``)."""
    array = t._data if array is None else array
    recorded = is_grad_enabled() and builtins.any(isinstance(i, Tensor) and i.requires_grad for i in inputs)
    if recorded and array is t._data:
        with backend.on(backend.device_of(array)):
            return array.copy(order="K")
    return array


def _as_tensor(value, dtype: dtypes.dtype, device) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, Number):
        return scalar_tensor(value, dtype, device)
    if isinstance(value, backend.numpy.number | backend.numpy.bool_):  # np.float32(2) * x, as a number
        return scalar_tensor(value.item(), dtype, device)
    raise TypeError(
        f"unsupported operand type: expected a Tensor or a number, got {type(value).__name__}"
    )


def _one_device(name: str, *tensors: Tensor):
    """The device of ``tensors`` and the tensors on it, for code outside an ``Op``: a 0-d CPU
    tensor follows a GPU one (as in PyTorch); any other mix raises PyTorch's error."""
    device = backend.common_device([t._data for t in tensors], name)
    if device.type != "cpu":
        tensors = tuple(t if t.device == device else t.to(device) for t in tensors)
    return device, tensors


def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` (each a sequence of ints, or an int for a vector)
    broadcast to.

    >>> import minigrad as torch
    >>> torch.broadcast_shapes((2,), (3, 1), (1, 1, 1))
    torch.Size([1, 3, 2])
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for s in shapes:
        if not isinstance(s, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    return Size(_broadcast_shape(*shapes, mismatch=_broadcast_shapes_mismatch))


def _broadcast_shapes_mismatch(index: int, shape, size: int, dim: int, so_far: list) -> RuntimeError:
    # PyTorch's Python function has its own words, not a tensor operation's (see _broadcast_shape)
    return RuntimeError(
        f"Attempting to broadcast a dimension of length {size} at {dim}! Mismatching argument at "
        f"index {index} had {shape}; but expected shape should be broadcastable to {so_far}"
    )


def _broadcast_shape(*shapes, mismatch=None) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to, or the error of a PyTorch op whose tensors'
    shapes do not broadcast (``mismatch(index, shape, size, dim, so_far)`` makes another). As in
    PyTorch, each shape is met in turn and compared from its last dimension, the dimension
    counted in the result."""
    ndim = builtins.max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for index, s in enumerate(shapes):
        for j in reversed(range(ndim - len(s), ndim)):
            size = s[j - ndim]
            if result[j] == 1:
                if size < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[j] = size
            elif size not in (1, result[j]):
                if mismatch is not None:
                    raise mismatch(index, s, size, j - ndim, result)
                raise RuntimeError(
                    f"The size of tensor a ({result[j]}) must match the size of tensor b ({size}) at "
                    f"non-singleton dimension {j}"
                )
    return tuple(result)


def _binary(op: Op, a, b, float_result: bool = False, **params) -> Tensor:
    """Apply an elementwise op with PyTorch's promotion and broadcasting rules."""
    if isinstance(a, Tensor):  # fast paths for the commonest cases: x * 2.0 and x * y
        dtype = a.dtype
        if type(b) is float or type(b) is int:
            if dtype.is_floating_point:  # the number takes the tensor's dtype
                if type(b) is float:
                    return op(a, wrapped_number(backend.scalar_like(b, a._data)), **params)
                return op(a, scalar_tensor(b, dtype, a.device), **params)
            promoted = dtypes.get_default_dtype() if float_result or type(b) is float else dtype
            if promoted is dtypes.bool:
                promoted = dtypes.int64
            return op(a, scalar_tensor(b, promoted, a.device), dtype=promoted if promoted is not dtype else None, **params)
        # x * y of one dtype, or a floating x times a bool mask (NumPy keeps x's dtype, as PyTorch).
        if isinstance(b, Tensor):
            other = b.dtype
            if (dtype is other and (dtype.is_floating_point or not float_result)) or (
                other is dtypes.bool and dtype.is_floating_point and params.get("alpha", 1) == 1
            ):
                if a._data.shape != b._data.shape and a._data.ndim and b._data.ndim:
                    _broadcast_shape(a._data.shape, b._data.shape)
                result = op(a, b, **params)
                if not b._data.ndim or a._data.flags.c_contiguous:  # (see _lay_out_as_torch)
                    return result
                return _lay_out_as_torch(result, a, b)
    elif not isinstance(b, Tensor) and isinstance(a, Number):  # add(2, 3.5): PyTorch makes the first a tensor
        a = scalar_tensor(a, _operand_dtype((a,)), backend.get_default_device())
    dtype = _operand_dtype((a, b))
    if float_result and not dtype.is_floating_point:
        dtype = dtypes.get_default_dtype()
    device = a.device if isinstance(a, Tensor) else b.device
    a, b = _as_tensor(a, dtype, device), _as_tensor(b, dtype, device)
    if a.shape != b.shape:
        _broadcast_shape(a.shape, b.shape)
    result = op(a, b, dtype=dtype, **params)
    if not b._data.ndim or (a._data.flags.c_contiguous and (a.dtype is b.dtype or b._data.flags.c_contiguous)):
        return result
    # (b, cast inside the op, was made dense in its own order, an expanded b column-major:
    # NumPy's layout then is not PyTorch's, even after a row-major a)
    return _lay_out_as_torch(result, a, b, always=a._data.flags.c_contiguous)


def _lay_out_as_torch(result: Tensor, *inputs: Tensor, always: bool = False) -> Tensor:
    """``result``, just made by an elementwise op on ``inputs``, laid out as PyTorch lays it out
    (``x.t() + y`` as ``x.t()``, where NumPy's result is row-major; see
    ``backend.elementwise_layout``). ``_binary`` skips it when the first input is row-major or
    the second is 0-d: NumPy's layout is PyTorch's then (checking costs the hot path). The array is replaced, if at all, before anyone but the result's
    node has seen it (a saved result keeps the same values in NumPy's layout). ``always`` skips
    the quick test, for the results whose layout NumPy gets wrong even after a row-major input."""
    arrays = [t._data for t in inputs]
    layout = backend.iterator_layout if always else backend.elementwise_layout
    result._data = layout(result._data, arrays)
    return result


def _floating(a: Tensor) -> dtypes.dtype | None:
    """Unary math on integer tensors computes in the default float dtype, as in PyTorch."""
    return None if a.dtype.is_floating_point else dtypes.get_default_dtype()


def _check_tensor(value, name: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(value).__name__}")
    return value


# ----------------------------------------------------------------------------------------------
# Public functions (also reached as Tensor methods).
# ----------------------------------------------------------------------------------------------

def add(input, other, *, alpha: Number = 1) -> Tensor:
    """``input + alpha * other`` with broadcasting."""
    _check_alpha(input, other, alpha)
    return _binary(add_op, input, other, alpha=alpha)


def sub(input, other, *, alpha: Number = 1) -> Tensor:
    """``input - alpha * other`` with broadcasting."""
    _check_subtraction(input, other)
    _check_alpha(input, other, alpha)
    # A number on the left becomes a 0-d tensor, as in PyTorch (SubBackward0, not RsubBackward1).
    return _binary(sub_op, input, other, alpha=alpha)


def _minus_one(exponent: Tensor) -> Tensor:
    """``exponent - 1`` in pow's gradient (SubBackward1, as in PyTorch's formula), which refuses a
    bool exponent as PyTorch's subtraction does."""
    _check_subtraction(exponent, 1)
    return sub_scalar_op(exponent, other=1)


def _check_subtraction(input, other) -> None:
    if builtins.any(x is True or x is False or isinstance(x, Tensor) and x.dtype is dtypes.bool for x in (input, other)):
        if builtins.all(x is True or x is False or isinstance(x, Tensor) and x.dtype is dtypes.bool for x in (input, other)):
            raise RuntimeError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. "
                "Use the `^` or `logical_xor()` operator instead."
            )
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def _check_alpha(input, other, alpha) -> None:
    if type(alpha) is bool and _operand_dtype((input, other)) is not dtypes.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if type(alpha) is float and not _operand_dtype((input, other)).is_floating_point:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number. "
            f"Pass an integer alpha, or make the tensors floating point first (alpha={alpha})."
        )


def rsub(input: Tensor, other, *, alpha: Number = 1) -> Tensor:
    """``other - alpha * input``."""
    if not isinstance(input, Tensor):  # PyTorch has no overload with a number first
        raise _invalid_arguments("rsub", input, other)
    if isinstance(other, Tensor):  # its own node, RsubBackward0 (not SubBackward0)
        _check_subtraction(input, other)
        _check_alpha(input, other, alpha)
        return _binary(rsub_tensor_op, input, other, alpha=alpha)
    _check_subtraction(input, other)
    dtype = _operand_dtype((input, other))
    base = input if alpha == 1 else input * alpha
    return rsub_op(base, other=other, dtype=dtype)


def mul(input, other) -> Tensor:
    """Elementwise product with broadcasting."""
    return _binary(mul_op, input, other)


class _NotGiven:
    """The default of an argument whose being left out differs from its being given as None."""

    def __repr__(self) -> str:
        return "None"


_NOT_GIVEN = _NotGiven()


def div(input, other, *, rounding_mode: str | None = _NOT_GIVEN) -> Tensor:
    """True division (integers give floats), or ``rounding_mode='floor'|'trunc'`` (zero gradient).
    As in PyTorch, ``rounding_mode=None`` given is recorded as ``DivBackward2`` (left out:
    ``DivBackward0``).

    >>> import minigrad as torch
    >>> x = torch.tensor([3.0], requires_grad=True)
    >>> torch.div(x, 2), torch.div(x, 2, rounding_mode=None)
    (tensor([1.5000], grad_fn=<DivBackward0>), tensor([1.5000], grad_fn=<DivBackward2>))
    """
    if rounding_mode is None:
        return _binary(div_none_op, input, other, float_result=True, rounding_mode=None)
    if rounding_mode is not _NOT_GIVEN:
        if rounding_mode not in ("floor", "trunc"):
            raise ValueError(
                f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
            )
        _check_division(input, other, f"div_{rounding_mode}")
        return _binary(div_rounded_op, input, other, rounding_mode=rounding_mode)
    return _binary(div_op, input, other, float_result=True)


def floor_divide(input, other) -> Tensor:
    """``input // other``: the quotient rounded down, as Python's ``//``. Not differentiable, as
    in PyTorch: its grad_fn is ``NotImplemented``, and backward through it raises."""
    _check_division(input, other, "div_floor")
    input_grad, other_grad = (isinstance(t, Tensor) and t.requires_grad for t in (input, other))
    if input_grad == other_grad:  # no edge to leave out
        return _binary(floor_divide_op, input, other)
    dtype = _operand_dtype((input, other))
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        _broadcast_shape(input.shape, other.shape)
        _, (input, other) = _one_device("floor_divide", input, other)
    if input_grad:
        return floor_divide_scalar_op(input, other=other._data if isinstance(other, Tensor) else other, dtype=dtype)
    return rfloor_divide_op(other, base=input._data if isinstance(input, Tensor) else input, dtype=dtype)


def remainder(input, other) -> Tensor:
    """``input % other``: what is left after dividing, with the sign of ``other`` (as Python's
    ``%``). Its gradient is 1 for ``input`` and ``-floor(input / other)`` for ``other``."""
    return _modulo_of(input, other, remainder_op, remainder_scalar_op, "remainder")


def fmod(input, other) -> Tensor:
    """The remainder of ``input / other`` with the sign of ``input`` (as C's ``fmod``)."""
    return _modulo_of(_check_tensor(input, "fmod"), other, fmod_op, fmod_scalar_op, "fmod")


def _modulo_of(input, other, tensor_op: Op, number_op: Op, name: str) -> Tensor:
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise _invalid_arguments(name, input, other)
    _check_division(input, other, name)
    if not isinstance(input, Tensor):  # a number % a tensor: not differentiable, as in PyTorch
        return rremainder_op(other, base=input, dtype=_modulo_dtype(input, other))
    if isinstance(other, Tensor):
        return _binary(tensor_op, input, other)
    return number_op(input, other=other, dtype=_modulo_dtype(input, other))


def _modulo_dtype(input, other) -> dtypes.dtype | None:
    dtype = _operand_dtype((input, other))
    tensor = input if isinstance(input, Tensor) else other
    return dtype if dtype is not tensor.dtype else None


def _check_division(input, other, kernel: str) -> None:
    """PyTorch's errors before a rounded division or remainder: shapes first, then bools (which
    the ``kernel`` has no version for)."""
    _broadcast_first(input, other)
    if _operand_dtype((input, other)) is dtypes.bool:
        device = input.device if isinstance(input, Tensor) else getattr(other, "device", backend.get_default_device())
        raise _no_kernel(f"{kernel}_{device.type}")


def reciprocal(input: Tensor) -> Tensor:
    return reciprocal_op(input, dtype=_floating(input))


def pow(input, exponent) -> Tensor:  # noqa: A001
    """``input ** exponent`` for a tensor or a number on either side."""
    if isinstance(exponent, backend.numpy.number):  # a NumPy scalar counts as a Python number
        exponent = exponent.item()
    if not isinstance(input, Tensor):
        if not isinstance(exponent, Tensor):
            raise _invalid_arguments("pow", input, exponent)
        if isinstance(input, bool) and exponent.dtype is dtypes.bool:
            raise _no_kernel("pow")
        dtype = _operand_dtype((input, exponent))
        return rpow_op(exponent, base=input, dtype=dtype)
    if input.dtype is dtypes.bool and isinstance(exponent, bool):
        return input.clone() if exponent else ones_like_tensor(input)  # bools stay bools, as in PyTorch
    if isinstance(exponent, Tensor):
        _broadcast_first(input, exponent)
        if input.dtype is dtypes.bool and exponent.dtype is dtypes.bool:
            raise _no_kernel("pow")
        return _binary(pow_tensor_op, input, exponent)
    if not isinstance(exponent, numbers.Number):
        raise _invalid_arguments("pow", input, exponent)
    dtype = _operand_dtype((input, exponent))
    if not dtype.is_floating_point and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if not dtype.is_floating_point:
        _check_fits(exponent, dtype)
    return pow_op(input, exponent=exponent, dtype=dtype)


def neg(input: Tensor) -> Tensor:
    if input.dtype is dtypes.bool:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return neg_op(input)


def abs(input: Tensor) -> Tensor:  # noqa: A001
    _no_bool_kernel(input, "abs_cpu")
    return abs_op(input)


def _no_bool_kernel(input: Tensor, kernel: str) -> None:
    """Raise PyTorch's error when ``input`` is bool and the kernel has no bool version."""
    if input.dtype is dtypes.bool:
        raise _no_kernel(kernel)


def _no_kernel(kernel: str, dtype: dtypes.dtype = dtypes.bool) -> NotImplementedError:
    """PyTorch's error for a kernel that has no version for ``dtype``."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{dtype._legacy_name}'")


def sign(input: Tensor) -> Tensor:
    return input.clone() if input.dtype is dtypes.bool else sign_op(input)


def exp(input: Tensor) -> Tensor:
    return exp_op(_check_tensor(input, "exp"), dtype=_floating(input))


def log(input: Tensor) -> Tensor:
    return log_op(_check_tensor(input, "log"), dtype=_floating(input))


def log1p(input: Tensor) -> Tensor:
    """``log(1 + input)``, accurate for small ``input``."""
    return log1p_op(_check_tensor(input, "log1p"), dtype=_floating(input))


def expm1(input: Tensor) -> Tensor:
    """``exp(input) - 1``, accurate for small ``input``."""
    return expm1_op(_check_tensor(input, "expm1"), dtype=_floating(input))


def sqrt(input: Tensor) -> Tensor:
    return sqrt_op(_check_tensor(input, "sqrt"), dtype=_floating(input))


def rsqrt(input: Tensor) -> Tensor:
    """``1 / sqrt(input)``."""
    return rsqrt_op(_check_tensor(input, "rsqrt"), dtype=_floating(input))


def square(input: Tensor) -> Tensor:
    """``input ** 2`` (``PowBackward0``, as in PyTorch)."""
    return pow(input, 2)


def sin(input: Tensor) -> Tensor:
    return sin_op(_check_tensor(input, "sin"), dtype=_floating(input))


def cos(input: Tensor) -> Tensor:
    return cos_op(_check_tensor(input, "cos"), dtype=_floating(input))


def tan(input: Tensor) -> Tensor:
    """The tangent of each element (integers give floats).

    >>> import minigrad as torch
    >>> torch.tan(torch.tensor([0.0, 0.5]))
    tensor([0.0000, 0.5463])
    """
    return tan_op(_check_tensor(input, "tan"), dtype=_floating(input))


def tan_(input: Tensor) -> Tensor:
    """``input.tan_()``: the tangent in place."""
    return _check_tensor(input, "tan_").tan_()


def erf(input: Tensor) -> Tensor:
    """The error function, ``2/sqrt(pi)`` times the integral of ``exp(-t**2)`` from 0 to ``input``
    (integers give floats).

    >>> import minigrad as torch
    >>> torch.erf(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 0.8427])
    """
    return erf_op(_check_tensor(input, "erf"), dtype=_floating(input))


def tanh(input: Tensor) -> Tensor:
    return tanh_op(_check_tensor(input, "tanh"), dtype=_floating(input))


def sigmoid(input: Tensor) -> Tensor:
    return sigmoid_op(_check_tensor(input, "sigmoid"), dtype=_floating(input))


def asin(input: Tensor) -> Tensor:
    """The inverse sine, in radians (NaN outside [-1, 1]; integers give floats)."""
    return asin_op(_check_tensor(input, "asin"), dtype=_floating(input))


def acos(input: Tensor) -> Tensor:
    """The inverse cosine, in radians (NaN outside [-1, 1]; integers give floats)."""
    return acos_op(_check_tensor(input, "acos"), dtype=_floating(input))


def atan(input: Tensor) -> Tensor:
    """The inverse tangent, in radians, in (-pi/2, pi/2) (integers give floats)."""
    return atan_op(_check_tensor(input, "atan"), dtype=_floating(input))


def sinh(input: Tensor) -> Tensor:
    """The hyperbolic sine, ``(exp(x) - exp(-x)) / 2`` (integers give floats)."""
    return sinh_op(_check_tensor(input, "sinh"), dtype=_floating(input))


def cosh(input: Tensor) -> Tensor:
    """The hyperbolic cosine, ``(exp(x) + exp(-x)) / 2`` (integers give floats)."""
    return cosh_op(_check_tensor(input, "cosh"), dtype=_floating(input))


def asinh(input: Tensor) -> Tensor:
    """The inverse hyperbolic sine (integers give floats)."""
    return asinh_op(_check_tensor(input, "asinh"), dtype=_floating(input))


def acosh(input: Tensor) -> Tensor:
    """The inverse hyperbolic cosine (NaN below 1; integers give floats)."""
    return acosh_op(_check_tensor(input, "acosh"), dtype=_floating(input))


def atanh(input: Tensor) -> Tensor:
    """The inverse hyperbolic tangent (+-inf at +-1, NaN beyond; integers give floats).

    >>> import minigrad as torch
    >>> torch.atanh(torch.tensor([0.0, 0.5, 1.0]))
    tensor([0.0000, 0.5493,    inf])
    """
    return atanh_op(_check_tensor(input, "atanh"), dtype=_floating(input))


arcsin, arccos, arctan = asin, acos, atan  # NumPy's names, which PyTorch has too
arcsinh, arccosh, arctanh = asinh, acosh, atanh


def _check_tensors(name: str, *arguments: tuple[str, object]) -> None:
    """PyTorch's TypeError for an argument that must be a tensor: ``arguments`` are (name, value)
    pairs in the order of the signature."""
    for position, (argument, value) in enumerate(arguments, 1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{argument}' (position {position}) must be Tensor, not {type(value).__name__}"
            )


def _invalid_arguments(name: str, *values) -> TypeError:
    """PyTorch's TypeError when no overload of ``name`` takes the types of ``values``."""
    got = ", ".join(backend.type_name(v) for v in values)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got})")


def atan2(input: Tensor, other: Tensor) -> Tensor:
    """The angle of the point (``other``, ``input``) in radians, in [-pi, pi]: the quadrant is
    known, unlike ``atan(input / other)`` (integers give floats).

    >>> import minigrad as torch
    >>> torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([0.0, -1.0]))
    tensor([ 1.5708, -2.3562])
    """
    _check_tensors("atan2", ("input", input), ("other", other))
    return _binary(atan2_op, input, other, float_result=True)


arctan2 = atan2


def _floating_binary(op: Op, name: str, input: Tensor, other: Tensor) -> Tensor:
    """An elementwise op of two tensors that PyTorch has floating kernels only for."""
    _check_tensors(name, ("input", input), ("other", other))
    _broadcast_first(input, other)
    dtype = _operand_dtype((input, other))
    if not dtype.is_floating_point:
        raise _no_kernel(f"{name}_{input.device.type}", dtype)
    return _binary(op, input, other)


def hypot(input: Tensor, other: Tensor) -> Tensor:
    """``sqrt(input**2 + other**2)``, the length of the hypotenuse, without overflow on the way
    (floating tensors only, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.hypot(torch.tensor([3.0, 1e30]), torch.tensor([4.0, 1e30]))
    tensor([5.0000e+00, 1.4142e+30])
    """
    return _floating_binary(hypot_op, "hypot", input, other)


def log2(input: Tensor) -> Tensor:
    """The base-2 logarithm (integers give floats)."""
    return log2_op(_check_tensor(input, "log2"), dtype=_floating(input))


def log10(input: Tensor) -> Tensor:
    """The base-10 logarithm (integers give floats)."""
    return log10_op(_check_tensor(input, "log10"), dtype=_floating(input))


def exp2(input: Tensor) -> Tensor:
    """``2 ** input`` (integers give floats).

    >>> import minigrad as torch
    >>> torch.exp2(torch.tensor([0, 3, -1]))
    tensor([1.0000, 8.0000, 0.5000])
    """
    return exp2_op(_check_tensor(input, "exp2"), dtype=_floating(input))


def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """``log(exp(input) + exp(other))`` without overflow (floating tensors only).

    >>> import minigrad as torch
    >>> torch.logaddexp(torch.tensor([1000.0, 1.0]), torch.tensor([1000.0, 1.0]))  # exp(1000) is inf
    tensor([1000.6932,    1.6931])
    """
    return _floating_binary(logaddexp_op, "logaddexp", input, other)


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """``log2(2**input + 2**other)`` without overflow (floating tensors only)."""
    return _floating_binary(logaddexp2_op, "logaddexp2", input, other)


def xlogy(input, other) -> Tensor:
    """``input * log(other)``, but 0 where ``input`` is 0 (so 0 * log(0) is 0, as entropies
    need); NaN where ``other`` is NaN. Either side may be a number; integers give floats.

    >>> import minigrad as torch
    >>> p = torch.tensor([0.0, 0.5, 0.5])
    >>> -torch.xlogy(p, p).sum()  # the entropy, with no NaN from the zero
    tensor(0.6931)
    """
    return _three_overloads("xlogy", (xlogy_op, xlogy_scalar_self_op, xlogy_scalar_other_op), input, other)


def _three_overloads(name: str, ops: tuple, input, other) -> Tensor:
    """PyTorch's three overloads of xlogy-like ops, each its own node: tensor and tensor,
    number and tensor, tensor and number (a number is a parameter there, not an input)."""
    tensors, self_number, other_number = ops
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        return _binary(tensors, input, other, float_result=True)
    number_self = isinstance(input, Number) and isinstance(other, Tensor)
    if not number_self and not (isinstance(input, Tensor) and isinstance(other, Number)):
        raise _invalid_arguments(name, input, other)
    dtype = _operand_dtype((input, other))
    if not dtype.is_floating_point:
        dtype = dtypes.get_default_dtype()
    if number_self:
        return self_number(other, self=input, dtype=dtype)
    return other_number(input, other=other, dtype=dtype)


def lerp(input: Tensor, end: Tensor, weight) -> Tensor:
    """``input + weight * (end - input)``: the straight line from ``input`` (weight 0) to
    ``end`` (weight 1). ``weight`` is a number or a tensor; the tensors must have one floating
    dtype (a 0-d ``weight`` may have another), as in PyTorch.

    >>> import minigrad as torch
    >>> torch.lerp(torch.tensor([0.0, 10.0]), torch.tensor([10.0, 20.0]), 0.25)
    tensor([ 2.5000, 12.5000])
    """
    weighted_by_tensor = isinstance(weight, Tensor)
    if not isinstance(input, Tensor) or not isinstance(end, Tensor) or not (weighted_by_tensor or isinstance(weight, Number)):
        raise _invalid_arguments("lerp", input, end, weight)
    for name, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t.dtype is not input.dtype and (name == "end" or t.ndim):
            raise RuntimeError(
                f"expected dtype {_cpp_name(input.dtype)} for `{name}` but got dtype {_cpp_name(t.dtype)}"
            )
    _broadcast_shape(input.shape, end.shape, *([weight.shape] if weighted_by_tensor else []))
    if not input.dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if weighted_by_tensor else "lerp_kernel_scalar"
        raise _no_kernel(kernel, input.dtype)
    if weighted_by_tensor:  # a 0-d weight of another dtype is converted, as in PyTorch
        result = lerp_tensor_op(input, end, weight, dtype=None if weight.dtype is input.dtype else input.dtype)
        return _lay_out_as_torch(result, input, end, weight)
    return _lay_out_as_torch(lerp_op(input, end, weight=weight), input, end)


def _cpp_name(dtype: dtypes.dtype) -> str:
    return _CPP_NAMES.get(dtype, dtype.name)


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``, with broadcasting and type promotion.

    >>> import minigrad as torch
    >>> torch.addcmul(torch.ones(2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), value=0.5)
    tensor([2.5000, 5.0000])
    """
    return _add_combined(addcmul_op, "addcmul", input, tensor1, tensor2, value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``, with broadcasting and type promotion; ``tensor1``
    and ``tensor2`` may not both be integers (PyTorch refuses the old integer division)."""
    return _add_combined(addcdiv_op, "addcdiv", input, tensor1, tensor2, value)


def _add_combined(op: Op, name: str, input: Tensor, tensor1: Tensor, tensor2: Tensor, value) -> Tensor:
    _check_tensors(name, ("input", input), ("tensor1", tensor1), ("tensor2", tensor2))
    if not isinstance(value, Number):
        raise TypeError(f"{name}(): argument 'value' must be Number, not {type(value).__name__}")
    if name == "addcdiv" and not tensor1.dtype.is_floating_point and not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes."
        )
    _broadcast_shape(input.shape, tensor1.shape, tensor2.shape)
    dtype = _operand_dtype((input, tensor1, tensor2))
    if dtype is dtypes.bool:
        kernel = f"{name}_cpu_out" if input.device.type == "cpu" else f"{name}_cuda"
        raise _no_kernel(kernel)
    return op(input, tensor1, tensor2, value=value, dtype=dtype)


def frac(input: Tensor) -> Tensor:
    """The fractional part, ``input - trunc(input)``, with the sign of ``input`` (floating
    tensors only, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.frac(torch.tensor([2.75, -2.75]))
    tensor([ 0.7500, -0.7500])
    """
    if not _check_tensor(input, "frac").dtype.is_floating_point:
        raise _no_kernel(f"frac_{input.device.type}", input.dtype)
    return frac_op(input)


def fmax(input: Tensor, other: Tensor) -> Tensor:
    """The larger of each pair of elements, ignoring NaN: where one of them is NaN the other
    is taken (``maximum`` gives NaN there). A tie gives ``input`` the whole gradient.

    >>> import minigrad as torch
    >>> torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([2.0, 3.0]))
    tensor([2., 3.])
    """
    _check_tensors("fmax", ("input", input), ("other", other))
    return _binary(fmax_op, input, other)


def fmin(input: Tensor, other: Tensor) -> Tensor:
    """The smaller of each pair of elements, ignoring NaN (see :func:`fmax`)."""
    _check_tensors("fmin", ("input", input), ("other", other))
    return _binary(fmin_op, input, other)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Tensor:
    """``input`` with NaN replaced by ``nan``, inf by ``posinf`` and -inf by ``neginf`` (by
    default the largest and the lowest finite value of its dtype). The gradient is 0 at the
    replaced elements.

    >>> import minigrad as torch
    >>> torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -1.5]), posinf=9.0)
    tensor([ 0.0000,  9.0000, -1.5000])
    """
    if not _check_tensor(input, "nan_to_num").dtype.is_floating_point:
        return clone(input)  # integers and bools have nothing to replace
    return nan_to_num_op(input, nan=nan, posinf=posinf, neginf=neginf)


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(input / (1 - input))``, the inverse of sigmoid (NaN outside [0, 1]). With ``eps``,
    ``input`` is first clamped to ``[eps, 1 - eps]``, and the gradient is 0 where it was clamped.

    >>> import minigrad as torch
    >>> torch.logit(torch.tensor([0.5, 0.0, 1.0]), eps=0.25)
    tensor([ 0.0000, -1.0986,  1.0986])
    """
    return logit_op(_check_tensor(input, "logit"), eps=None if eps is None else float(eps), dtype=_floating(input))


def sinc(input: Tensor) -> Tensor:
    """The normalized sinc function, ``sin(pi * x) / (pi * x)``, and 1 at 0 (integers give floats)."""
    return sinc_op(_check_tensor(input, "sinc"), dtype=_floating(input))


def deg2rad(input: Tensor) -> Tensor:
    """Degrees to radians: ``input * pi / 180`` (integers give floats).

    >>> import minigrad as torch
    >>> torch.deg2rad(torch.tensor([180, 90]))
    tensor([3.1416, 1.5708])
    """
    return deg2rad_op(_check_tensor(input, "deg2rad"), dtype=_floating(input))


def rad2deg(input: Tensor) -> Tensor:
    """Radians to degrees: ``input * 180 / pi`` (integers give floats)."""
    return rad2deg_op(_check_tensor(input, "rad2deg"), dtype=_floating(input))


def float_power(input, exponent) -> Tensor:
    """``input ** exponent`` in double precision: tensors are converted to float64 first
    (``ToCopyBackward0``, then ``pow``'s node, as in PyTorch), so an integer to a negative
    power is fine.

    >>> import minigrad as torch
    >>> torch.float_power(torch.tensor([2, 4]), -1)
    tensor([0.5000, 0.2500], dtype=torch.float64)
    """
    if isinstance(input, Tensor) and isinstance(exponent, Tensor):
        return pow(input.to(dtypes.float64), exponent.to(dtypes.float64))
    if isinstance(input, Tensor) and isinstance(exponent, Number):
        return pow(input.to(dtypes.float64), float(exponent))
    if isinstance(input, Number) and isinstance(exponent, Tensor):
        return pow(float(input), exponent.to(dtypes.float64))
    raise _invalid_arguments("float_power", input, exponent)


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """The step function: 0 where ``input`` is negative (or NaN), 1 where it is positive and
    ``values`` where it is 0. Both tensors must have one dtype. Not differentiable, as in
    PyTorch: its grad_fn is ``NotImplemented``, and backward through it raises.

    >>> import minigrad as torch
    >>> torch.heaviside(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor(0.5))
    tensor([0.0000, 0.5000, 1.0000])
    """
    _check_tensors("heaviside", ("input", input), ("values", values))
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    _broadcast_first(input, values)
    return heaviside_op(input, values)


def sgn(input: Tensor) -> Tensor:
    """The sign of each element, -1, 0 or 1 (0 for NaN); PyTorch's sgn extends :func:`sign` to
    complex numbers, which minigrad does not have. Its gradient is 0 (``SgnBackward0``)."""
    if _check_tensor(input, "sgn").dtype is dtypes.bool:
        return input.clone()  # bools stay bools, as in PyTorch
    return sgn_op(input)


def relu(input: Tensor) -> Tensor:
    if _check_tensor(input, "relu").dtype is dtypes.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    return relu_op(input)


def clamp(input: Tensor, min=None, max=None) -> Tensor:  # noqa: A002
    """Limit values to ``[min, max]``; tensors as bounds are allowed too."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) != isinstance(max, Tensor) and min is not None and max is not None:
        # PyTorch has clamp(Scalar, Scalar) and clamp(Tensor, Tensor): a 0-d tensor is a number
        # there, unless it requires grad (PyTorch's argument parser takes no such number).
        bound = min if isinstance(min, Tensor) else max
        if bound.ndim or bound.requires_grad:
            raise TypeError(
                f"clamp() received an invalid combination of arguments - got (min={type(min).__name__}, "
                f"max={type(max).__name__}): give both bounds as numbers or both as tensors"
            )
        min, max = (m.item() if isinstance(m, Tensor) else m for m in (min, max))
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        dtype = _operand_dtype([v for v in (input, min, max) if v is not None])
        if dtype is dtypes.bool and min is not None and max is not None:
            raise _no_kernel(f"clamp_{input.device.type}")
        if dtype.is_floating_point:
            lo = _as_tensor(-math.inf if min is None else min, dtype, input.device)
            hi = _as_tensor(math.inf if max is None else max, dtype, input.device)
            _broadcast_shape(input.shape, lo.shape, hi.shape)
            return _lay_out_as_torch(clamp_tensor_op(input, lo, hi, dtype=dtype), input, lo, hi)
        # all three in the common dtype first: a pairwise maximum would promote otherwise
        input, min, max = (None if v is None else v.to(dtype) for v in (input, min, max))
        out = input if min is None else maximum(input, min)
        return out if max is None else minimum(out, max)
    dtype = _operand_dtype([v for v in (input, min, max) if v is not None])  # an int tensor with 1.5 is float
    if dtype is dtypes.bool:  # (bool bounds of a bool tensor: PyTorch's kernels for numbers have no bool version)
        name = "clamp" if min is not None and max is not None else "clamp_min" if min is not None else "clamp_max"
        _no_bool_kernel(input, f"{name}_scalar_{input.device.type}")
    for bound in (min, max):
        if bound is not None:
            _check_fits(bound, dtype)
    return clamp_op(input, min=min, max=max, dtype=dtype if dtype is not input.dtype else None)


clip = clamp


def clamp_min(input: Tensor, min) -> Tensor:  # noqa: A002
    """``clamp(input, min=min)`` as its own op (``ClampMinBackward0``/``1``, as in PyTorch)."""
    return _clamp_one(input, min, clamp_min_op, clamp_min_tensor_op, "min")


def clamp_max(input: Tensor, max) -> Tensor:  # noqa: A002
    """``clamp(input, max=max)`` as its own op (``ClampMaxBackward0``/``1``, as in PyTorch)."""
    return _clamp_one(input, max, clamp_max_op, clamp_max_tensor_op, "max")


def _clamp_one(input: Tensor, bound, number_op: Op, tensor_op: Op, name: str) -> Tensor:
    dtype = _operand_dtype((input, bound))  # an int tensor with 2.5 is float, as in clamp
    if isinstance(bound, Tensor):
        _broadcast_shape(input.shape, bound.shape)
        return _lay_out_as_torch(tensor_op(input, bound, dtype=dtype), input, bound)
    if dtype is dtypes.bool:
        _no_bool_kernel(input, f"clamp_{name}_scalar_{input.device.type}")
    _check_fits(bound, dtype)
    return number_op(input, dtype=dtype if dtype is not input.dtype else None, **{name: bound})


def maximum(input: Tensor, other: Tensor) -> Tensor:
    _check_tensors("maximum", ("input", input), ("other", other))
    return _binary(maximum_op, input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    _check_tensors("minimum", ("input", input), ("other", other))
    return _binary(minimum_op, input, other)


_UINT8_CONDITION_WARNING = (
    "where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future version of "
    "PyTorch. Use a boolean condition instead."
)
_warned_uint8_condition = False


def where(condition: Tensor, input=_NOT_GIVEN, other=_NOT_GIVEN):
    """``input`` where ``condition`` holds, else ``other`` (numbers allowed for either); with
    ``condition`` alone, ``nonzero(condition, as_tuple=True)``: where it holds.

    >>> import minigrad as torch
    >>> torch.where(torch.tensor([[0, 1], [2, 0]]))
    (tensor([0, 1]), tensor([1, 0]))
    """
    _check_tensors("where", ("condition", condition))
    if input is _NOT_GIVEN and other is _NOT_GIVEN:
        return nonzero(condition, as_tuple=True)
    if input is _NOT_GIVEN or other is _NOT_GIVEN:  # PyTorch has no overload for one of them alone
        raise _invalid_arguments("where", condition, input if other is _NOT_GIVEN else other)
    dtype = _operand_dtype((input, other))
    device = condition.device
    for value in (input, other):  # an integer number must fit an integer result (PyTorch casts it with a check)
        if isinstance(value, int) and not dtype.is_floating_point:
            _check_fits(value, dtype)
    input, other = _as_tensor(input, dtype, device), _as_tensor(other, dtype, device)
    if condition.dtype is dtypes.uint8:  # still read as a mask, with PyTorch's warning (once per process)
        global _warned_uint8_condition
        if not _warned_uint8_condition:
            _warned_uint8_condition = True
            _warn.warn(_UINT8_CONDITION_WARNING, UserWarning)
        condition = condition != 0
    if condition.dtype is not dtypes.bool:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {condition.dtype._legacy_name}")
    _broadcast_shape(condition.shape, input.shape, other.shape)
    _, (condition, input, other) = _one_device("where", condition, input, other)
    result = where_op(input, other, condition=_kept(condition, input, other), dtype=dtype)
    return _lay_out_as_torch(result, condition, input, other)


# The C++ names PyTorch's messages give some dtypes.
_CPP_NAMES = {dtypes.bool: "bool", dtypes.float32: "float", dtypes.float64: "double", dtypes.float16: "c10::Half", dtypes.int64: "long int",
              dtypes.int32: "int", dtypes.int16: "short int", dtypes.int8: "signed char", dtypes.uint8: "unsigned char"}


# The C++ type of each dtype in PyTorch's "value cannot be converted" message.
_LIMIT_NAMES = {dtypes.int8: "int8_t", dtypes.int16: "int16_t", dtypes.int32: "int", dtypes.int64: "int64_t",
                dtypes.uint8: "uint8_t", dtypes.float16: "c10::Half", dtypes.float32: "float"}


def _check_fits(value, dtype) -> None:
    """Raise PyTorch's error when the number ``value`` has no value of ``dtype`` (inf, nan or an
    out-of-range number into integers; a finite number past a float's range; an imaginary part
    into a real dtype), where NumPy's cast would store garbage. A negative int wraps into uint8,
    as in PyTorch (``-1`` is 255)."""
    name = _LIMIT_NAMES.get(dtype)
    if name is None or type(value) is bool or not isinstance(value, (int, float, complex)):
        return
    if isinstance(value, complex):
        fits = value.imag == 0 and value.real == value.real
        value = value.real
    else:
        fits = True
    if dtype.is_floating_point:
        fits = fits and (math.isinf(value) or value != value or builtins.abs(value) <= float(backend.numpy.finfo(dtype.array_name).max))
    else:
        info = backend.numpy.iinfo(dtype.array_name)
        low = -info.max if dtype is dtypes.uint8 and isinstance(value, int) else info.min
        fits = fits and low <= value <= info.max  # False for nan
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def masked_fill(input: Tensor, mask: Tensor, value) -> Tensor:
    """``input`` with ``value`` (a number or a 0-d tensor) where the bool ``mask`` is True."""
    out = _masked_fill(input, mask, value)
    _check_differentiable_result(input, value)
    return out


def _masked_fill(input: Tensor, mask: Tensor, value, in_place: bool = False) -> Tensor:
    """masked_fill, and masked_fill_'s step (``in_place``: where an integer tensor may take a
    value that requires grad, and the mask may not grow the shape). PyTorch's order of checks:
    the shapes broadcast (out of place), the value's dims, the mask's dtype, then (in place) the
    shape of the result."""
    if isinstance(mask, Tensor) and not in_place:
        _broadcast_shape(mask.shape, input.shape)
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(
            f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.ndim} dimension(s)."
        )
    if not isinstance(mask, Tensor) or mask.dtype is not dtypes.bool:
        got = _CPP_NAMES.get(mask.dtype, str(mask.dtype)) if isinstance(mask, Tensor) else type(mask).__name__
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {got}; make one with a "
            "comparison (x > 0) or .bool()"
        )
    if in_place:
        shape = _broadcast_shape(input.shape, mask.shape)
        if shape != tuple(input.shape):
            raise RuntimeError(
                f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}: "
                "an in-place op cannot change the shape"
            )
    device, (input, mask) = _one_device("masked_fill", input, mask)
    if not isinstance(value, Tensor):
        _check_fits(value, input.dtype)
        return masked_fill_op(input, mask=_kept(mask, input), value=value)
    _check_fits(value._data.item(), input.dtype)  # (PyTorch fills with value.item())
    return masked_fill_tensor_op(input, value, mask=_kept(mask, input, value))


def sum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtypes.dtype | None = None) -> Tensor:  # noqa: A001
    """Sum of all elements, or over ``dim`` (an int or a tuple of ints); ``dtype`` casts the input
    first, inside the one node (no ``ToCopyBackward0``), as in PyTorch.

    >>> import minigrad as torch
    >>> torch.tensor([1, 2]).sum(dtype=torch.float64)
    tensor(3., dtype=torch.float64)
    """
    if dim is None and not keepdim:
        return _in_dtype(sum_op(input, dtype=dtype), dtype, input)
    dims = None if dim is None else _dims(_all_if_empty(dim), input.ndim)  # None with keepdim: every dim, kept
    return _in_dtype(sum_dim_op(input, dim=dims, keepdim=keepdim, dtype=dtype), dtype, input)


def mean(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """Mean of all elements, or over ``dim``; floating tensors only (or a floating ``dtype`` to
    compute in), as in PyTorch."""
    if not (dtype or input.dtype).is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {(dtype or input.dtype)._legacy_name}. Convert it first, e.g. x.float().mean()"
        )
    if dim is None and not keepdim:
        return mean_op(input, dtype=dtype)
    dims = None if dim is None else _dims(_all_if_empty(dim), input.ndim)  # None with keepdim: every dim, kept
    return mean_dim_op(input, dim=dims, keepdim=keepdim, dtype=dtype)


def var(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool = _NOT_GIVEN, keepdim: bool = False, *, correction=None) -> Tensor:
    """Variance over ``dim`` (all elements by default), dividing by N - ``correction``; the
    default correction is 1 (``unbiased=False`` makes it 0)."""
    return _spread(var_op, "var", input, dim, unbiased, keepdim, correction)


def std(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool = _NOT_GIVEN, keepdim: bool = False, *, correction=None) -> Tensor:
    """Standard deviation: the square root of :func:`var`, with the same arguments."""
    return _spread(std_op, "std", input, dim, unbiased, keepdim, correction)


def var_mean(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool = _NOT_GIVEN, keepdim: bool = False, *, correction=None) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` over ``dim`` in one go, with :func:`var`'s arguments; both results share
    one backward node (``VarMeanBackward0``), as in PyTorch.

    >>> import minigrad as torch
    >>> torch.var_mean(torch.tensor([1.0, 2.0, 6.0]))
    (tensor(7.), tensor(3.))
    """
    return _spread(VarMeanBackward0, "var_mean", input, dim, unbiased, keepdim, correction)


def std_mean(input: Tensor, dim: int | Sequence[int] | None = None, unbiased: bool = _NOT_GIVEN, keepdim: bool = False, *, correction=None) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` over ``dim`` in one go, with :func:`std`'s arguments (one ``StdMeanBackward0`` node)."""
    return _spread(StdMeanBackward0, "std_mean", input, dim, unbiased, keepdim, correction)


def _spread_and_mean(xp, a, *, dim, correction, keepdim, std):
    return _var(xp, a, dim, correction, keepdim, root=std), _reduced(xp, xp.asarray(_welford_mean(xp, a, dim, keepdim), dtype=a.dtype))


def _welford_mean(xp, a, dim, keepdim):
    """The mean of var_mean/std_mean as PyTorch's running (Welford) update leaves it where the
    input has an inf: nan (inf - inf), unless the only inf comes last in the reduced elements."""
    mean = _mean(a, dim, keepdim)
    if xp.isfinite(mean).all() or not a.size:
        return mean
    axes = tuple(range(a.ndim)) if dim is None else tuple(dim)
    rows = xp.moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
    rows = rows.reshape(rows.shape[: a.ndim - len(axes)] + (-1,))  # the reduced elements of each result, in order
    inf = xp.isinf(rows)
    lone_last = (inf.sum(axis=-1) == 1) & inf[..., -1]
    return xp.where((inf.any(axis=-1) & ~lone_last).reshape(mean.shape), xp.nan, mean)


def _spread(op, name: str, input: Tensor, dim, unbiased, keepdim, correction):
    """var, std (``op`` an Op), var_mean and std_mean (``op`` their node class)."""
    if isinstance(dim, bool):  # var(x, False): the old unbiased-only form
        dim, unbiased = None, dim
    if not input.dtype.is_floating_point:
        which = "std and var" if name in ("var", "std") else name
        raise RuntimeError(
            f"{which} only support floating point and complex dtypes; convert first, e.g. x.float().{name.split('_')[0]}()"
        )
    if correction is None:
        correction = 0 if unbiased is False else 1
    elif unbiased is not _NOT_GIVEN:  # (PyTorch has no signature that takes both)
        raise TypeError(f"{name}() received an invalid combination of arguments: give unbiased or correction, not both")
    elif isinstance(correction, Tensor) and correction.numel() == 1:  # a number in a tensor, as PyTorch takes it
        correction = correction.item()
    elif not isinstance(correction, numbers.Number):
        raise TypeError(f"{name}(): argument 'correction' must be Number, not {backend.type_name(correction)}")
    dims = _dims(_all_if_empty(dim), input.ndim)
    kept = math.prod(n for d, n in enumerate(input.shape) if d not in dims)
    if (_count(input.shape, dims) if kept else 0) - correction <= 0:  # PyTorch counts 0 for an empty result
        _warn.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
        )
    dims = None if dim is None else dims  # kept as given: the gradient's graph depends on it, as in PyTorch
    if isinstance(op, Op):
        return op(input, dim=dims, correction=correction, keepdim=keepdim)
    forward = lambda xp, a, **params: _spread_and_mean(xp, a, std=op is StdMeanBackward0, **params)  # noqa: E731
    return op.record((input,), forward, {"dim": dims, "correction": correction, "keepdim": keepdim}, 2)


def prod(input: Tensor, dim: int | None = _NOT_GIVEN, keepdim: bool = False, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """Product of all elements, or along one ``dim`` (integers and bools give int64; ``dtype``
    casts inside the node, as in PyTorch)."""
    if isinstance(dim, tuple | list) or dim is None:  # one dim only, and a None given is refused, as in PyTorch
        raise TypeError(f"prod(): argument 'dim' must be int, not {type(dim).__name__}")
    if dim is _NOT_GIVEN:
        return _in_dtype(prod_op(input, dtype=dtype), dtype, input)
    return _in_dtype(prod_dim_op(input, dim=_wrap_dim(dim, input.ndim), keepdim=keepdim, dtype=dtype), dtype, input)


def cumsum(input: Tensor, dim: int, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """Running sums along ``dim`` (integers and bools give int64; ``dtype`` casts inside the node)."""
    if dtype is dtypes.bool and input.ndim and input.numel():  # PyTorch's kernel has no bool version (0-d, empty: not run)
        raise _no_kernel(f"cumsum_out_{input.device.type}")
    return _in_dtype(cumsum_op(input, dim=_wrap_dim(dim, input.ndim), dtype=dtype), dtype, input)


def cumprod(input: Tensor, dim: int, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """Running products along ``dim`` (integers and bools give int64).

    >>> import minigrad as torch
    >>> torch.cumprod(torch.tensor([1.0, 2.0, 0.0, 4.0]), 0)
    tensor([1., 2., 0., 0.])
    """
    if dtype is dtypes.bool and input.ndim and input.numel():  # PyTorch's kernel has no bool version (0-d, empty: not run)
        raise _no_kernel(f"cumprod_out_{input.device.type}")
    return _in_dtype(cumprod_op(input, dim=_wrap_dim(dim, input.ndim), dtype=dtype), dtype, input)


def cummax(input: Tensor, dim: int):
    """``(values, indices)``: the running maximum along ``dim`` and where it was found (the
    latest place among equal values; NaN, once met, stays the maximum).

    >>> import minigrad as torch
    >>> torch.cummax(torch.tensor([1, 3, 2, 3]), 0)
    torch.return_types.cummax(
    values=tensor([1, 3, 3, 3]),
    indices=tensor([0, 1, 1, 3]))
    """
    return _cumulative_extreme(input, dim, True, cummax_op, return_types_cummax)


def cummin(input: Tensor, dim: int):
    """``(values, indices)``: the running minimum along ``dim``, as :func:`cummax`."""
    return _cumulative_extreme(input, dim, False, cummin_op, return_types_cummin)


def _cumulative_extreme(input: Tensor, dim: int, largest: bool, op: Op, result_type):
    if not input.ndim and dim not in (0, -1):
        raise IndexError(f"cum{'max' if largest else 'min'}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    dim = _wrap_dim(dim, input.ndim) if input.numel() else dim % input.ndim  # PyTorch checks no dim of an empty tensor
    xp = backend.xp(input.device)
    with backend.on(input.device):
        if input.ndim and input.numel():
            indices = _cumulative_extreme_indices(xp, input._data, dim, largest)
        else:
            indices = xp.zeros(input.shape, dtype="int64")
    values = op(input, dim=dim, indices=_kept(Tensor._make(indices), input))
    return result_type(values, Tensor._make(indices))


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(input), dim))``, computed without overflow (floating tensors only).

    >>> import minigrad as torch
    >>> torch.logcumsumexp(torch.tensor([0.0, 0.0, 3.0]), 0)
    tensor([0.0000, 0.6931, 3.0949])
    """
    dim = _wrap_dim(dim, input.ndim)  # (before the dtype check, as in PyTorch)
    if not input.dtype.is_floating_point:
        raise _no_kernel(f"logcumsumexp_out_{input.device.type}", input.dtype)
    return logcumsumexp_op(input, dim=dim)


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow."""
    if dim is None:  # the dims must be given (an empty list: all of them)
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    if isinstance(dim, tuple | list) and not dim and input.numel() and input.ndim and not keepdim:
        # PyTorch adds the kept maxima (all dims kept) into a 0-d result, and refuses
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * input.ndim}")
    return logsumexp_op(input, dim=_dims(_all_if_empty(dim), input.ndim), keepdim=keepdim, dtype=_floating(input))


def amax(input: Tensor, dim: int | Sequence[int] | None = (), keepdim: bool = False) -> Tensor:
    """The largest values over ``dim`` (all dims by default); ties share the gradient evenly."""
    return _reduce_extreme(amax_dim_op, "amax", input, dim, keepdim)


def amin(input: Tensor, dim: int | Sequence[int] | None = (), keepdim: bool = False) -> Tensor:
    """The smallest values over ``dim`` (all dims by default); ties share the gradient evenly."""
    return _reduce_extreme(amin_dim_op, "amin", input, dim, keepdim)


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False):
    """``(min, max)`` of all elements, or along ``dim``, as ``torch.return_types.aminmax``; like
    amin and amax, ties share each gradient evenly (one ``AminmaxBackward0`` node for both).

    >>> import minigrad as torch
    >>> torch.aminmax(torch.tensor([[3, 1], [2, 5]]), dim=0)
    torch.return_types.aminmax(
    min=tensor([2, 1]),
    max=tensor([3, 5]))
    """
    if isinstance(dim, tuple | list):  # one dim only, as in PyTorch
        raise TypeError(f"aminmax(): argument 'dim' must be int, not {type(dim).__name__}")
    if dim is None and not input.numel():
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
    dims = _dims(dim, input.ndim)
    if dim is not None and input.ndim and input.shape[dims[0]] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {dims[0]} to have non-zero size.")
    forward = lambda xp, a, *, dim, keepdim: (_reduced(xp, a.min(axis=dim, keepdims=keepdim)), _reduced(xp, a.max(axis=dim, keepdims=keepdim)))  # noqa: E731
    return return_types_aminmax(*AminmaxBackward0.record((input,), forward, {"dim": dims, "keepdim": keepdim}, 2))


def _reduce_extreme(op: Op, name: str, input: Tensor, dim, keepdim) -> Tensor:
    dim = () if isinstance(dim, list) and not dim else dim  # [] is () there, as in PyTorch
    dims = _dims(dim if dim != () else None, input.ndim)
    if not input.numel():
        if dim is None or dim == ():
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        given = dims if dim is None else (dim,) if isinstance(dim, int) else dim  # named as given, as in PyTorch
        for d, named in zip(dims, given):
            if input.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {named} to have non-zero size.")
    return op(input, dim=dims, keepdim=keepdim)


def _return_type(name: str, fields: tuple[str, ...] = ("values", "indices")) -> type:
    """A named tuple (``values, indices`` by default) that prints as PyTorch's ``torch.return_types.<name>``."""
    base = collections.namedtuple(name, fields)

    def printed(self) -> str:
        return f"torch.return_types.{name}(\n" + ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"

    return type(name, (base,), {"__slots__": (), "__repr__": printed})


return_types_max, return_types_min = _return_type("max"), _return_type("min")
return_types_aminmax = _return_type("aminmax", ("min", "max"))
return_types_sort, return_types_topk = _return_type("sort"), _return_type("topk")
return_types_cummax, return_types_cummin = _return_type("cummax"), _return_type("cummin")
return_types_kthvalue, return_types_mode = _return_type("kthvalue"), _return_type("mode")


def _extremum(input: Tensor, dim, keepdim, other, full_op, dim_op, binary, arg, result_type, name):
    if isinstance(dim, Tensor):
        return binary(input, dim)
    if other is not None:
        return binary(input, other)
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return full_op(input)
    dim = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim(input, dim, name)
    xp = backend.xp(input.device)
    with backend.on(input.device):
        indices = getattr(xp, arg)(input._data, axis=dim) if input.ndim else xp.zeros((), dtype="int64")
    values = dim_op(input, dim=dim, keepdim=keepdim, indices=indices)
    with backend.on(input.device):
        idx = Tensor._make(xp.expand_dims(indices, dim) if keepdim and input.ndim else indices)
    return result_type(values, idx)


def max(input: Tensor, dim=None, keepdim: bool = False, *, other=None):  # noqa: A001
    """The largest element; with ``dim``, ``(values, indices)`` along it; with a tensor, ``maximum``."""
    return _extremum(input, dim, keepdim, other, amax_op, max_dim_op, maximum, "argmax", return_types_max, "max")


def min(input: Tensor, dim=None, keepdim: bool = False, *, other=None):  # noqa: A001
    """The smallest element; with ``dim``, ``(values, indices)`` along it; with a tensor, ``minimum``."""
    return _extremum(input, dim, keepdim, other, amin_op, min_dim_op, minimum, "argmin", return_types_min, "min")


def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool | None = _NOT_GIVEN):
    """``(values, indices)``: ``input`` sorted along ``dim`` (NaN counts as the largest), and
    where each value came from. Equal values keep their order. Giving ``stable`` at all (False
    or True) is PyTorch's other overload (``SortBackward1``).

    >>> import minigrad as torch
    >>> torch.sort(torch.tensor([3.0, 1.0, 2.0]), descending=True).indices
    tensor([0, 2, 1])
    """
    dim = _wrap_dim(dim, input.ndim)
    indices = _laid_out_as(_sorting_indices(input, dim, descending), input._data)
    op = sort_op if stable is _NOT_GIVEN else stable_sort_op
    values = op(input, dim=dim, indices=_kept(Tensor._make(indices), input), self_sym_sizes=tuple(input.shape))
    return return_types_sort(values, Tensor._make(indices))


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (``sort(...).indices``)."""
    return Tensor._make(_laid_out_as(_sorting_indices(input, _wrap_dim(dim, input.ndim), descending), input._data))


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (``largest=False``: smallest) entries along
    ``dim``, largest first.

    >>> import minigrad as torch
    >>> torch.topk(torch.tensor([[0.1, 0.7, 0.2]]), 2).indices
    tensor([[1, 2]])
    """
    dim = _wrap_dim(dim, input.ndim)
    if not 0 <= k <= (input.shape[dim] if input.ndim else 1):
        raise RuntimeError("selected index k out of range")
    if input.dtype is dtypes.bool:
        raise RuntimeError(f"topk does not support bool dtypes on {input.device.type.upper()}")
    indices = _topk_indices(input._data, dim, k, largest, sorted) if input.ndim else _sorting_indices(input, dim, largest)
    values = topk_op(input, dim=dim, indices=_kept(Tensor._make(indices), input), self_sym_sizes=tuple(input.shape))
    return return_types_topk(values, Tensor._make(indices))


def _topk_indices(a, dim: int, k: int, largest: bool, sorted: bool):  # noqa: A002
    """Where PyTorch's CPU topk finds the ``k`` largest (or smallest) of ``a`` along ``dim``, NaN
    the largest: std::partial_sort where k * 64 <= n, else std::nth_element and, if ``sorted``,
    std::sort of the first k - 1 (:class:`Libstdcxx`). A row of distinct values comes out as a
    sort gives it; rows with equal values, and every row when not ``sorted``, are replayed in
    Python, so that the same places are picked (and get the gradient) as in PyTorch."""
    xp, n = backend.xp(backend.device_of(a)), a.shape[dim]
    with backend.on(backend.device_of(a)):
        order = xp.moveaxis(_sorting_indices(Tensor._make(a), dim, largest), dim, -1)
        ranked = xp.take_along_axis(xp.moveaxis(a, dim, -1), order, -1)
        ties = (ranked[..., 1:] == ranked[..., :-1]) | (ranked[..., 1:] != ranked[..., 1:]) & (ranked[..., :-1] != ranked[..., :-1])
        unsorted = not sorted and k * 64 > n  # nth_element's own order, not a sort's
        replay = xp.ones(order.shape[:-1], dtype=bool) if unsorted else ties.any(-1)
        if k and n > 1 and replay.any():
            host, places = backend.to_numpy(xp.moveaxis(a, dim, -1)), backend.to_numpy(order).copy()
            if largest:
                less = lambda x, y: (x != x and y == y) or x > y  # noqa: E731 - NaN first
            else:
                less = lambda x, y: (x == x and y != y) or x < y  # noqa: E731 - NaN last
            replay = backend.to_numpy(replay)
            for at in backend.numpy.ndindex(*replay.shape):
                if not replay[at]:
                    continue
                run = Libstdcxx(host[at].tolist(), less)
                if k * 64 <= n:
                    run.partial_sort(0, k, n)
                else:
                    run.nth_element(k - 1)
                    if sorted:
                        run.sort(0, k - 1)
                places[at][:k] = run.idx[:k]
            order = backend.place(places, backend.device_of(a))
        return _fresh_layout(xp.moveaxis(order[..., :k], -1, dim).astype("int64", copy=False))


def _sorting_indices(input: Tensor, dim: int, descending: bool):
    """The int64 array of positions that sort ``input`` along ``dim`` (a stable sort; NaN last,
    or first when descending, as in PyTorch)."""
    xp, a = backend.xp(input.device), input._data
    if not a.ndim:
        return xp.zeros((), dtype="int64")
    with backend.on(input.device):
        if not descending:
            return xp.argsort(a, axis=dim, kind="stable").astype("int64", copy=False)
        # sort the negated values, keeping ties in order (~x = -x - 1 for integers: no overflow)
        if a.dtype.kind != "f":
            return xp.argsort(~a.astype("int64") if a.dtype.kind in "bu" else ~a, axis=dim, kind="stable")
        nan = xp.isnan(a)
        order = xp.argsort(xp.where(nan, -xp.inf, -a), axis=dim, kind="stable")
        if nan.any():  # NaN ahead of +inf (both -inf above): a second stable sort, NaN first
            order = xp.take_along_axis(order, xp.argsort(~xp.take_along_axis(nan, order, dim), axis=dim, kind="stable"), dim)
        return order.astype("int64", copy=False)


def _repeat(input: Tensor, *sizes) -> Tensor:
    """``Tensor.repeat`` (PyTorch has no ``torch.repeat``)."""
    repeats = _shape_args(sizes)
    if len(repeats) < input.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shape = [s * r for s, r in zip(_padded(input.shape, repeats), repeats)]
    if builtins.any(n < 0 for n in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {builtins.min(shape)}: {shape}")
    return repeat_op(input, repeats=repeats, self_sym_sizes=tuple(input.shape))


def _check_nonempty_dim(input: Tensor, dim: int | None, name: str) -> None:
    """PyTorch's IndexError for an argmax-like reduction with nothing to choose from (and its
    error for bool input)."""
    if name.startswith("arg") and input.dtype is dtypes.bool:
        raise RuntimeError(f"{name}(): does not support bool input")
    dim = None if dim is None else _wrap_dim(dim, input.ndim)  # (after the bool check, as in PyTorch)
    if dim is None and input.numel() == 0:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
    if dim is not None and input.ndim and input.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


return_types_median, return_types_nanmedian = _return_type("median"), _return_type("nanmedian")


def median(input: Tensor, dim: int | None = _NOT_GIVEN, keepdim: bool = False):
    """The lower median of all elements (the smaller middle value of an even count; NaN where
    there is one); with ``dim``, ``(values, indices)`` along it.

    >>> import minigrad as torch
    >>> torch.median(torch.tensor([4.0, 1.0, 3.0, 2.0]))
    tensor(2.)
    """
    return _median_of(input, dim, keepdim, "median", median_op, median_dim_op, return_types_median)


def nanmedian(input: Tensor, dim: int | None = _NOT_GIVEN, keepdim: bool = False):
    """:func:`median` leaving out NaN (which it gives only where every element is NaN)."""
    return _median_of(input, dim, keepdim, "nanmedian", nanmedian_op, nanmedian_dim_op, return_types_nanmedian)


def _median_of(input: Tensor, dim, keepdim, name, full_op, dim_op, result_type):
    # PyTorch's kernels and messages are median's for nanmedian too; with no dim, an empty bool
    # tensor gets its median (True) before the dtype is checked. Only a dim left out means all
    # elements: a None given is refused, as in PyTorch.
    if dim is None:
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    if dim is _NOT_GIVEN:
        if input.dtype is dtypes.bool and input.numel():
            raise _no_kernel(f"median_{input.device.type}")
        return full_op(input)
    dim = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim(input, dim, "median")
    if input.dtype is dtypes.bool:
        raise _no_kernel("median_out")
    xp = backend.xp(input.device)
    with backend.on(input.device):
        indices = _median_indices(xp, input._data, dim, name == "nanmedian") if input.ndim else xp.zeros((), dtype="int64")
    values = dim_op(input, dim=dim, keepdim=keepdim, indices=indices)
    with backend.on(input.device):
        return result_type(values, Tensor._make(xp.expand_dims(indices, dim) if keepdim and input.ndim else indices))


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """``(values, indices)``: the ``k``-th smallest element along ``dim`` (k counts from 1; NaN
    counts as the largest) and where it is (among equal values, the one PyTorch's CPU kernel picks).

    >>> import minigrad as torch
    >>> torch.kthvalue(torch.tensor([[4.0, 1.0, 3.0], [0.0, 2.0, 5.0]]), 2)
    torch.return_types.kthvalue(
    values=tensor([3., 2.]),
    indices=tensor([2, 1]))
    """
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"kthvalue(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    dim = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim(input, dim, "kthvalue")
    if not 1 <= k <= (input.shape[dim] if input.ndim else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if input.dtype is dtypes.bool and input.ndim:  # (a 0-d input is copied, no kernel runs)
        raise _no_kernel(f"kthvalue_{input.device.type}")
    indices = _kthvalue_indices(input._data, dim, k - 1)
    return _picked_along(kthvalue_op, return_types_kthvalue, input, dim, keepdim, indices)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    """``(values, indices)``: the most frequent value along ``dim`` (the smallest of equally
    frequent ones) and its last place.

    >>> import minigrad as torch
    >>> torch.mode(torch.tensor([3, 1, 3, 1, 2]))
    torch.return_types.mode(
    values=tensor(1),
    indices=tensor(3))
    """
    dim = _wrap_dim(dim, input.ndim)
    _check_nonempty_dim(input, dim, "mode")
    xp = backend.xp(input.device)
    with backend.on(input.device):
        if input.ndim and input.numel():
            indices = _mode_indices(xp, input._data, dim)
        else:
            indices = xp.zeros(tuple(n for d, n in enumerate(input.shape) if d != dim), dtype="int64")
    return _picked_along(mode_op, return_types_mode, input, dim, keepdim, indices)


def _picked_along(op: Op, result_type, input: Tensor, dim: int, keepdim: bool, indices):
    """``(values, indices)`` of one element picked at ``indices`` (an array) along ``dim``."""
    values = op(input, dim=dim, keepdim=keepdim, indices=_kept(Tensor._make(indices), input), self_sym_sizes=tuple(input.shape))
    with backend.on(input.device):
        return result_type(values, Tensor._make(backend.xp(input.device).expand_dims(indices, dim) if keepdim and input.ndim else indices))


def nansum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """The sum of the elements that are not NaN (over ``dim``, an int or a tuple; all by default).

    >>> import minigrad as torch
    >>> torch.nansum(torch.tensor([1.0, float("nan"), 2.0]))
    tensor(3.)
    """
    return _in_dtype(nansum_op(input, dim=None if dim is None else _dims(_all_if_empty(dim), input.ndim), keepdim=keepdim, dtype=dtype), dtype, input)


def nanmean(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtypes.dtype | None = None) -> Tensor:
    """The mean of the elements that are not NaN: their ``nansum`` divided by their count, as
    PyTorch computes it (NaN where there are none)."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got {input.dtype._legacy_name}")
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(
            "nanmean(): could not infer output dtype. Optional dtype must be either a floating point or "
            f"complex dtype. Got: {dtype._legacy_name}"
        )
    count = input.isnan().logical_not().sum(dim, keepdim=keepdim) if dim is not None else input.isnan().logical_not().sum()
    return nansum(input, dim, keepdim, dtype=dtype) / count


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        _check_nonempty_dim(input, None, "argmax")
        with backend.on(input.device):  # keepdim keeps every dim, of size 1
            return Tensor._make(backend.xp(input.device).asarray(input._data.argmax()).reshape((1,) * input.ndim if keepdim else ()))
    _check_nonempty_dim(input, dim, "argmax")
    return max(input, dim, keepdim).indices


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        _check_nonempty_dim(input, None, "argmin")
        with backend.on(input.device):  # keepdim keeps every dim, of size 1
            return Tensor._make(backend.xp(input.device).asarray(input._data.argmin()).reshape((1,) * input.ndim if keepdim else ()))
    _check_nonempty_dim(input, dim, "argmin")
    return min(input, dim, keepdim).indices


def norm(
    input: Tensor,
    p: Number | str | None = "fro",
    dim: int | Sequence[int] | None = None,
    keepdim: bool = False,
    *,
    dtype: dtypes.dtype | None = None,
) -> Tensor:
    """The vector norm (2-norm by default) over all elements or over ``dim`` (computed in ``dtype``
    when given)."""
    if not isinstance(p, str | numbers.Number | None):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {backend.type_name(p)}")
    if isinstance(p, str) and not (p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2)):
        from .linalg import matrix_norm  # 'nuc', or 'fro' over more dims, is a matrix norm (its errors too)

        dims = list(range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else dim
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    if p in ("fro", None):
        p = 2
    if dtype is not None:  # linalg.vector_norm checks and converts it, then comes back here
        from .linalg import vector_norm

        return vector_norm(input, p, dim, keepdim, dtype=dtype)
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {input.dtype._legacy_name}"
        )
    dims = None if dim is None else _dims(_all_if_empty(dim), input.ndim)
    _check_norm_identity(p, input.shape, dims, dim)
    return norm_op(input, p=p, dim=dims, keepdim=keepdim)


def _check_norm_identity(p, shape, dims, given) -> None:
    """PyTorch's error for a p-norm of nothing where it has no value: a max (inf) or, for p < 0,
    a sum of infinities. ``dims`` are wrapped (None: all), ``given`` as the caller named them."""
    if not (p == math.inf or p < 0) or math.prod(shape):
        return
    if dims is None or not isinstance(given, int) and not given:  # every dim (dim=() too)
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the operation "
            "does not have an identity"
        )
    for d, named in zip(dims, (given,) if isinstance(given, int) else given):
        if shape[d] == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p:g} norm on the dimension {named}because this "
                "dimension is empty and the operation does not have an identity"
            )


def softmax(input: Tensor, dim: int, dtype: dtypes.dtype | None = None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably."""
    x = input if dtype is None else input.to(dtype)
    if not x.numel() and not x.dtype.is_floating_point:
        _wrap_dim(dim, x.ndim)  # (the dim is still checked)
        return x.clone()  # no kernel runs on nothing: PyTorch gives an empty tensor of x's dtype
    return softmax_op(x, dim=_softmax_dim(x, dim, "softmax"))


def log_softmax(input: Tensor, dim: int, dtype: dtypes.dtype | None = None) -> Tensor:
    """``log(softmax(x, dim))``, computed stably."""
    x = input if dtype is None else input.to(dtype)
    if not x.numel() and not x.dtype.is_floating_point:
        _wrap_dim(dim, x.ndim)  # (the dim is still checked)
        return x.clone()
    return log_softmax_op(x, dim=_softmax_dim(x, dim, "log_softmax"))


def _softmax_dim(x: Tensor, dim: int, name: str) -> int:
    """``dim`` wrapped; an integer ``x`` raises PyTorch's error (pass ``dtype=`` to convert)."""
    dim = _wrap_dim(dim, x.ndim)
    if not x.dtype.is_floating_point:
        kernel = f"{name}_lastdim_kernel_impl" if dim >= x.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype._legacy_name}\'')
    return dim


_BOOL_ARRAY = backend.numpy.dtype(bool)
# The kernel each product names when it refuses bool tensors (PyTorch has no bool products).
_PRODUCT_KERNELS = {"mm": "addmm_impl_cpu_", "mv": "addmv_impl_cpu", "dot": "dot", "bmm": "bmm",
                    "baddbmm": "baddbmm", "addbmm": "addmm_impl_cpu_", "addmm": "addmm_impl_cpu_"}


def _check_matmul_dtype(a: Tensor, b: Tensor, name: str) -> None:
    if a._data.dtype != b._data.dtype:  # (the arrays' dtypes: quicker to compare, every step)
        if name == "dot":
            raise RuntimeError(
                f"dot : expected both vectors to have same dtype, but found {a.dtype._legacy_name} and {b.dtype._legacy_name}"
            )
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_CPP_NAMES.get(a.dtype, a.dtype)} != "
            f"{_CPP_NAMES.get(b.dtype, b.dtype)} (in {name}); convert one of them with .to(dtype)"
        )
    if a._data.dtype is _BOOL_ARRAY:
        raise _no_kernel(_PRODUCT_KERNELS[name])


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Matrix product of two 2-D tensors."""
    if input._data.ndim != 2 or mat2._data.ndim != 2:
        name = "self" if input.ndim != 2 else "mat2"
        raise RuntimeError(
            f"{name} must be a matrix (mm takes 2-D tensors, got {input.ndim}-D and {mat2.ndim}-D; use matmul for others)"
        )
    _check_product(input, mat2)
    _check_matmul_dtype(input, mat2, "mm")
    return mm_op(input, mat2)


def _check_product(mat1: Tensor, mat2: Tensor) -> tuple[int, int]:
    """The shape of ``mat1 @ mat2`` (two 2-D tensors), or PyTorch's error when they don't fit."""
    a, b = mat1._data.shape, mat2._data.shape  # plain tuples: cheaper than .shape, read every step
    if a[1] != b[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})")
    return (a[0], b[1])


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix (2-D) times vector (1-D)."""
    if input.ndim == 0:  # PyTorch reads its size first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}-D matrix and {vec.ndim}-D vector")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0]}), mat ({input.shape[0]}x{input.shape[1]}), vec ({vec.shape[0]})"
        )
    _check_matmul_dtype(input, vec, "mv")
    return mv_op(input, vec)


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """Inner product of two 1-D tensors."""
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{tensor.shape[0]}] to have the same number of "
            f"elements, but got {input.shape[0]} and {tensor.shape[0]} elements respectively"
        )
    _check_matmul_dtype(input, tensor, "dot")
    return dot_op(input, tensor)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """PyTorch's ``@``: dot, matrix-vector, matrix-matrix or batched, by the inputs' dimensions."""
    a, b = input, other
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D")
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:  # PyTorch: a.unsqueeze(0).mm(b).squeeze_(0), an in-place squeeze
        out = squeeze_inplace_op(mm(a.unsqueeze(0), b), dims=(0,))
        out._version_counter.value += 1
        return out
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    # Sizes and dtypes are checked by the mm, mv or bmm each case comes down to, as in PyTorch.
    if a.ndim == 3 and b.ndim == 3:  # PyTorch drops a batch of one that needs a gradient, then folds
        if b.shape[0] == 1 and a.shape[0] != 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
        if a.shape[0] == 1 and b.shape[0] != 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    # A batch of products: both sides expanded to the common batch, flattened to one batch dim
    # (a copy where the batch was broadcast), one bmm, viewed back.
    batch = _broadcast_shape(a.shape[:-2], b.shape[:-2])
    k_a, k_b = a.shape[-1], b.shape[-2] if b.ndim > 1 else b.shape[0]
    n, p = a.shape[-2] if a.ndim > 1 else 1, b.shape[-1] if b.ndim > 1 else 1
    count = math.prod(batch)
    left = a.expand(batch + (n, k_a)).reshape(count, n, k_a)
    if b.ndim == 1:
        right = b.expand(batch + (k_b,)).reshape(count, k_b).unsqueeze(2)
        product = bmm(left, right).squeeze(-1)
    else:
        product = bmm(left, b.expand(batch + (k_b, p)).reshape(count, k_b, p))
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return unsafe_view_op(product, shape=shape)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """PyTorch's choice: fold the batch of the larger tensor into the rows of one mm or mv when
    that needs no copy (or the smaller one needs a gradient)."""
    larger, smaller = (a, b) if a.ndim >= b.ndim else (b.mT, a)
    if not (larger.ndim >= 3 and smaller.ndim <= 2):
        return False
    if smaller.requires_grad:
        return True
    if a.ndim == 2:  # 2-D @ batch: the folded result would need a transposed copy
        return False
    if larger.numel() == 0:
        return True
    shape, strides = larger._data.shape, larger._data.strides  # PyTorch's test: strides as they are
    return builtins.all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(larger.ndim - 2))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    """A batch times a matrix or vector as one mm or mv (a matrix or vector times a batch through
    transposes), viewed back to the batch's shape."""
    transpose = b.ndim > a.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a.ndim == 2 else a) if transpose else b
    shape = t1.shape[:-1]
    rows = t1.reshape(math.prod(shape), t1.shape[-1])  # not -1: the last size may be 0
    if t2.ndim == 1:
        return unsafe_view_op(rows.mv(t2), shape=shape)
    output = unsafe_view_op(rows.mm(t2), shape=shape + (t2.shape[1],))
    return output.mT.contiguous() if transpose else output


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Matrix products of two batches of matrices of the same batch size (3-D tensors)."""
    for name, t in (("batch1", input), ("batch2", mat2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    expected = [input.shape[0], input.shape[2]]
    if list(mat2.shape[:2]) != expected:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: {expected} but got: {list(mat2.shape[:2])}."
        )
    _no_bool_kernel(input, _PRODUCT_KERNELS["bmm"])  # (PyTorch's kernel is chosen by the first dtype before the second is checked)
    if input.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._legacy_name} but found {mat2.dtype._legacy_name}")
    return bmm_op(input, mat2)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` (what ``nn.Linear`` computes for a batch); with
    ``beta=0``, ``input`` is not read (its NaN do not spread).

    >>> import minigrad as torch
    >>> torch.addmm(torch.ones(1, 2), torch.eye(2), torch.eye(2), beta=0.5, alpha=2)
    tensor([[2.5000, 0.5000],
            [0.5000, 2.5000]])
    """
    if mat1._data.ndim != 2 or mat2._data.ndim != 2:  # (the arrays: quicker to read, every step)
        name, mat = ("mat1", mat1) if mat1.ndim != 2 else ("mat2", mat2)
        raise RuntimeError(f"{name} must be a matrix, got {mat.ndim}-D tensor")
    if not input._data.dtype == mat1._data.dtype == mat2._data.dtype:  # no promotion here, as in PyTorch
        name, other = ("self", input) if input.dtype is not mat2.dtype else ("mat1", mat1)
        raise RuntimeError(
            f"{name} and mat2 must have the same dtype, but got {other.dtype._legacy_name} "
            f"and {mat2.dtype._legacy_name}"
        )
    out_shape = _check_product(mat1, mat2)
    if input._data.shape not in (out_shape, out_shape[1:]):  # neither the full shape nor a bias row
        _broadcast_shape(input._data.shape, out_shape)
    if input._data.dtype is _BOOL_ARRAY:
        raise _no_kernel(f"addmm_impl_{input.device.type}_")
    if beta == 1 and alpha == 1:  # nn.Linear's hot path: no scaling to record
        return addmm_op(input, mat1, mat2)
    return addmm_scaled_op(input, mat1, mat2, **_coefficients(input, beta, alpha))


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``; with ``beta=0``, ``input`` is not read (its NaN do not spread).

    >>> import minigrad as torch
    >>> torch.addmv(torch.tensor([1.0, 1.0]), torch.eye(2), torch.tensor([2.0, 3.0]), alpha=10)
    tensor([21., 31.])
    """
    _check_tensors("addmv", ("input", input), ("mat", mat), ("vec", vec))
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}")
    rows = mat.shape[0]
    if mat.shape[1] != vec.shape[0] or input.shape not in ((), (1,), (rows,)):
        size = input.shape[0] if input.ndim else 1
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({rows}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if not input.dtype is mat.dtype is vec.dtype:
        names = ", ".join(t.dtype._legacy_name for t in (input, mat))
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names}, and {vec.dtype._legacy_name}")
    if input.dtype is dtypes.bool:
        raise _no_kernel(f"addmv_impl_{input.device.type}")
    return addmv_op(input, mat, vec, **_coefficients(input, beta, alpha))


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)`` (dtypes promote); with ``beta=0``, ``input`` is not read."""
    _check_tensors("addr", ("input", input), ("vec1", vec1), ("vec2", vec2))
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.ndim}-D")
    _expanded_shape(input, (vec1.shape[0], vec2.shape[0]))
    dtype = _operand_dtype((input, vec1, vec2))
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, bool) and dtype is not dtypes.bool:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if isinstance(value, float) and not dtype.is_floating_point:
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
    promoted = None if input.dtype is vec1.dtype is vec2.dtype else dtype
    return addr_op(input, vec1, vec2, beta=beta, alpha=alpha, dtype=promoted)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` for batches of matrices (3-D tensors)."""
    _check_tensors("baddbmm", ("input", input), ("batch1", batch1), ("batch2", batch2))
    _expanded_shape(input, (batch1.size(0), batch1.size(1), batch2.size(2)))  # PyTorch's order of checks
    _check_batches(batch1, batch2, sizes_first=False)
    _check_batches(batch1, batch2, sizes_first=True)
    if not input.dtype is batch1.dtype is batch2.dtype:
        if input.dtype is not batch1.dtype:
            raise RuntimeError(
                f"Input dtypes must be the same, got: input {_cpp_name(input.dtype)}, batch1: {_cpp_name(batch1.dtype)}, "
                f"batch2: {_cpp_name(batch2.dtype)}"
            )
        raise RuntimeError(f"expected scalar type {batch1.dtype._legacy_name} but found {batch2.dtype._legacy_name}")
    _no_bool_kernel(input, _PRODUCT_KERNELS["baddbmm"])
    return baddbmm_op(input, batch1, batch2, **_coefficients(input, beta, alpha))


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2).sum(0)``: the products of a batch, added up."""
    _check_tensors("addbmm", ("input", input), ("batch1", batch1), ("batch2", batch2))
    _check_batches(batch1, batch2, sizes_first=False)
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and {batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})"
        )
    _expanded_shape(input, (batch1.shape[1], batch2.shape[2]))
    for other in (input, batch1):
        if other.dtype is not batch2.dtype:
            raise RuntimeError(
                f"self and mat2 must have the same dtype, but got {other.dtype._legacy_name} and {batch2.dtype._legacy_name}"
            )
    _no_bool_kernel(input, _PRODUCT_KERNELS["addbmm"])
    return addbmm_op(input, batch1, batch2, **_coefficients(input, beta, alpha))


def _check_batches(batch1: Tensor, batch2: Tensor, sizes_first: bool) -> None:
    """bmm's checks (PyTorch checks the dims, expands ``input``, then checks the sizes)."""
    if not sizes_first:
        for name, t in (("batch1", batch1), ("batch2", batch2)):
            if t.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        return
    expected = [batch1.shape[0], batch1.shape[2]]
    if list(batch2.shape[:2]) != expected:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: {expected} but got: {list(batch2.shape[:2])}."
        )


def _coefficients(input: Tensor, beta, alpha) -> dict:
    """beta and alpha as the kernel uses them: whole numbers for an integer ``input``."""
    if input.dtype.is_floating_point:
        return {"beta": beta, "alpha": alpha}
    return {"beta": int(beta), "alpha": int(alpha)}


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim``; without ``dim`` (deprecated, with PyTorch's
    warning), along the first dim of size 3. :func:`minigrad.linalg.cross` takes the last dim."""
    if dim is None:
        _warn.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or "
            "simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in "
            "a future release.",
            UserWarning,
        )
        dim = next((d for d, n in enumerate(input.shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    from .linalg import cross  # (linalg builds on this module)

    return cross(input, other, dim=dim)


def chain_matmul(*matrices) -> Tensor:
    """The product of the 2-D ``matrices`` (deprecated in PyTorch for :func:`minigrad.linalg.multi_dot`)."""
    _warn.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
        "instead, which accepts a list of two or more tensors rather than multiple parameters.",
        UserWarning,
    )
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t.ndim}, expected 2 instead.")
    from .linalg import multi_dot

    return matrices[0].clone() if len(matrices) == 1 else multi_dot(list(matrices))


def matrix_power(input: Tensor, n: int) -> Tensor:
    """``input`` (a square matrix, or a batch) to the integer power ``n``, by repeated squaring as
    PyTorch computes it; ``n = 0`` gives identities, a negative ``n`` powers of the inverse."""
    name = "linalg.matrix_power"
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    if input.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {input.shape[-2]} by {input.shape[-1]} matrices"
        )
    if n == 0:  # identities, copied into a contiguous clone (CopyBackwards, as PyTorch)
        xp = backend.xp(input.device)
        with backend.on(input.device):
            eye = xp.broadcast_to(xp.eye(input.shape[-1], dtype=input._data.dtype), input.shape)
        return input.clone(memory_format=backend.contiguous_format).copy_(Tensor._make(eye))
    if n < 0:
        from .linalg import inv  # (linalg builds on this module)

        if n == -1:
            return inv(input)
        input, n = inv(input), -n
    if n == 1:
        return input.clone()
    if n == 2:
        return input.matmul(input)
    if n == 3:
        return input.matmul(input).matmul(input)
    # Repeated squaring: the result collects the squares where n has a 1 bit (PyTorch's order).
    z = result = None
    while n > 0:
        z = input if z is None else z.matmul(z)
        if n % 2:
            result = z if result is None else result.matmul(z)
        n //= 2
    return result


def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Sum of products over ``dims``: the last ``dims`` dims of ``a`` with the first of ``b`` (an
    int), or the dims listed in a pair of lists; computed as PyTorch does (permutes, reshapes, one mm).

    >>> import minigrad as torch
    >>> torch.tensordot(torch.arange(6.0).reshape(2, 3), torch.ones(3, 2), dims=([1], [0]))
    tensor([[ 3.,  3.],
            [12., 12.]])
    """
    if not isinstance(dims, tuple | list | Tensor | int):
        raise RuntimeError(
            "tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] containing two lists, "
            f"but got dims={dims}"
        )
    if isinstance(dims, Tensor):  # one number, or the two lists
        dims = int(dims.item()) if dims.numel() <= 1 else dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        dims_a, dims_b = dims
        for name, position, d in (("dims_self", 3, dims_a), ("dims_other", 4, dims_b)):
            if not isinstance(d, tuple | list):  # each must be a list of dims, even of one
                raise TypeError(
                    f"tensordot(): argument '{name}' (position {position}) must be tuple of ints, not {type(d).__name__}"
                )
        dims_a, dims_b = list(dims_a), list(dims_b)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    contracted = 1
    for da, db in zip(dims_a, dims_b):
        sa, sb = a.shape[_wrap_dim(da, a.ndim)], b.shape[_wrap_dim(db, b.ndim)]
        if sb == 1:  # a broadcast dim is summed right away (in its dtype: an int16 sum stays int16)
            a = a.sum(da, keepdim=True, dtype=a.dtype)
        elif sa == 1:
            b = b.sum(db, keepdim=True, dtype=b.dtype)
        elif sa != sb:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {sa} in dim {da} and second has size {sb} in dim {db}"
            )
        else:
            contracted *= sa
    if a.ndim == b.ndim == len(dims_a) == 1:  # two vectors: PyTorch takes their dot product
        return a.permute(dims_a).dot(b.permute(dims_b)).reshape(())
    kept_a = [d for d in range(a.ndim) if d not in _dims(dims_a, a.ndim)]
    kept_b = [d for d in range(b.ndim) if d not in _dims(dims_b, b.ndim)]
    left = a.permute(kept_a + dims_a).reshape(math.prod(a.shape[d] for d in kept_a), contracted)
    right = b.permute(dims_b + kept_b).reshape(contracted, math.prod(b.shape[d] for d in kept_b))
    return left.mm(right).reshape([a.shape[d] for d in kept_a] + [b.shape[d] for d in kept_b])


def _infer_shape(shape, numel: int) -> tuple[int, ...]:
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _shape_args(shape) -> tuple:
    """A shape given as ``f(2, 3)`` or as ``f((2, 3))`` (a tuple, list, Size or tensor): ints."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Sequence, Tensor)):  # the builtins first: quicker
        shape = shape[0]
    return tuple(map(operator.index, shape))  # (as PyTorch: 2.0 or a float tensor is no size)


def reshape(input: Tensor, *shape) -> Tensor:
    """The same elements in a new shape (a view when possible, a copy otherwise)."""
    if not shape:  # (a 0-d shape is given as ())
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    shape = _infer_shape(_shape_args(shape), input.numel())
    if input.numel() == 0 or backend.shares_memory(input._data.reshape(shape), input._data):
        # A view either way; PyTorch names it apart when the input is not contiguous.
        return (view_op if input.is_contiguous() else reshape_alias_op)(input, shape=shape)
    return unsafe_view_op(contiguous_op(input), shape=shape)  # a row-major copy, then its view


def view(input: Tensor, *shape) -> Tensor:
    """The same storage seen in a new shape; fails when the layout does not allow it."""
    if not shape:  # (a 0-d shape is given as ())
        raise _invalid_arguments("view")
    if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
        raise NotImplementedError("view(dtype) is not supported by minigrad; use .to(dtype)")
    return view_op(input, shape=_infer_shape(_shape_args(shape), input.numel()))


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if input.ndim == 0:
        return reshape(input, 1)
    start, end = _wrap_dim(start_dim, input.ndim), _wrap_dim(end_dim, input.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = input.shape[:start] + (math.prod(input.shape[start : end + 1]),) + input.shape[end + 1 :]
    return reshape(input, shape)


def t(input: Tensor) -> Tensor:
    """Transpose of a tensor of at most 2 dimensions."""
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return t_op(input)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    return transpose_op(input, dim0=_wrap_dim(dim0, input.ndim), dim1=_wrap_dim(dim1, input.ndim))


def permute(input: Tensor, *dims) -> Tensor:
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = _shape_args(dims)
    if len(dims) != input.ndim:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length "
            f"of the desired ordering of dimensions i.e. input.dim() = {input.ndim} is not equal to len(dims) = {len(dims)}"
        )
    dims = tuple(_wrap_dim(d, input.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return permute_op(input, dims=dims)


def _inverse_permutation(dims):
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return tuple(inverse)


def squeeze(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    if dim is None:
        return squeeze_op(input)
    if isinstance(dim, tuple | list):
        return squeeze_dims_op(input, dims=_dims(dim, input.ndim))
    return squeeze_dim_op(input, dim=_wrap_dim(dim, input.ndim))


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    size = input.ndim + 1
    if not -size <= dim < size:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})")
    return unsqueeze_op(input, dim=dim % size)


def flip(input: Tensor, *args, dims=None) -> Tensor:
    """A copy with the order of elements reversed along ``dims``."""
    return flip_op(input, dims=_dims(_shape_args(args if dims is None else (dims,)), input.ndim))


def fliplr(input: Tensor) -> Tensor:
    """``input`` flipped left to right: reversed along dim 1 (a copy)."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip_op(input, dims=(1,))


def flipud(input: Tensor) -> Tensor:
    """``input`` flipped upside down: reversed along dim 0 (a copy)."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip_op(input, dims=(0,))


def roll(input: Tensor, shifts, dims=None) -> Tensor:
    """``input`` shifted by ``shifts`` places along ``dims`` (an int or a tuple of ints each),
    elements pushed off one end coming back at the other; without ``dims``, the flattened
    tensor is shifted and its shape restored.

    >>> import minigrad as torch
    >>> torch.roll(torch.tensor([[1, 2, 3], [4, 5, 6]]), 1, 1)
    tensor([[3, 1, 2],
            [6, 4, 5]])
    """
    shifts = _int_tuple("roll", "shifts", 2, shifts)
    dims = () if dims is None else _int_tuple("roll", "dims", 3, dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if dims and not input.ndim:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return roll_op(input, shifts=shifts, dims=tuple(_wrap_dim(d, input.ndim) for d in dims))


def _int_tuple(name: str, argument: str, position: int, value) -> tuple[int, ...]:
    """An int or a sequence of ints (or an integer tensor) as a tuple, with PyTorch's TypeError."""
    if isinstance(value, Tensor) and not value.dtype.is_floating_point:
        value = value.tolist()
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, tuple | list) and builtins.all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be tuple of ints, not {type(value).__name__}")


def rot90(input: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    """``input`` rotated by ``k`` quarter turns in the plane of ``dims``, from the first dim
    towards the second (a copy).

    >>> import minigrad as torch
    >>> torch.rot90(torch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 4],
            [1, 3]])
    """
    dims = _int_tuple("rot90", "dims", 3, dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    wrapped = tuple(_wrap_dim(d, input.ndim) for d in dims)
    if wrapped[0] == wrapped[1]:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    return rot90_op(input, k=k, dims=wrapped)


def movedim(input: Tensor, source, destination) -> Tensor:
    """``input`` with its dims ``source`` moved to the places ``destination`` (ints or tuples),
    the other dims keeping their order: a view (``PermuteBackward0``).

    >>> import minigrad as torch
    >>> torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape
    torch.Size([3, 4, 2])
    """
    source = _int_tuple("movedim", "source", 2, source)
    destination = _int_tuple("movedim", "destination", 3, destination)
    if len(source) != len(destination):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(source)} dims) should contain the same "
            f"number of dims as destination ({list(destination)} dims)"
        )
    src = [_wrap_dim(d, input.ndim) for d in source]
    dst = [_wrap_dim(d, input.ndim) for d in destination]
    for name, given, wrapped in (("source", source, src), ("destination", destination, dst)):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    if not input.ndim:  # PyTorch returns an alias of a 0-d tensor
        return alias_op(input)
    order = [None] * input.ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(input.ndim) if d not in src)
    return permute_op(input, dims=tuple(next(rest) if o is None else o for o in order))


moveaxis = movedim


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input.transpose(axis0, axis1)`` (NumPy's name)."""
    return transpose(input, axis0, axis1)


def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``input.transpose(dim0, dim1)``."""
    return transpose(input, dim0, dim1)


def _expanded(xp, array, shape: tuple):
    """``array`` broadcast to ``shape``, with PyTorch's strides where ``shape`` has a 1 (NumPy
    gives those 0): the input's own, or for a new leading dimension, the next one's size times
    its stride. Stride is what tells copies into the same memory apart: ``x.unsqueeze(0)[...] = x``."""
    out = xp.broadcast_to(array, shape)
    if 1 not in shape:
        return out
    lead, strides = len(shape) - array.ndim, list(out.strides)
    for i in reversed(builtins.range(len(shape))):
        if shape[i] == 1 and i >= lead:
            strides[i] = array.strides[i - lead]
        elif shape[i] == 1:  # (0 after the last dimension: a 0-d tensor expanded)
            strides[i] = shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else 0
    return backend.restrided(out, tuple(strides))


def broadcast_to(input: Tensor, *size) -> Tensor:
    """``input.expand(size)`` (``ExpandBackward0``, as in PyTorch)."""
    return expand(input, *size)


def expand(input: Tensor, *sizes) -> Tensor:
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    sizes = _shape_args(sizes)
    if len(sizes) < input.ndim:
        raise RuntimeError(
            f"expand({_type_string(input)}{{{list(input.shape)}}}, size=[{', '.join(map(str, sizes))}]): the number of "
            f"sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({input.ndim})"
        )
    return expand_op(input, shape=_expanded_shape(input, sizes))


def _type_string(t: Tensor) -> str:
    """How PyTorch names a tensor's type in expand's error: ``torch.FloatTensor``, but
    ``CPUBoolType`` for bool."""
    if t.dtype is dtypes.bool:
        return f"{'CUDA' if t.is_cuda else 'CPU'}BoolType"
    return ("torch.cuda." if t.is_cuda else "torch.") + t.dtype._legacy_name + "Tensor"


def _expanded_shape(input: Tensor, sizes: tuple) -> tuple[int, ...]:
    """The shape ``input.expand(*sizes)`` has (-1 keeps a size), or PyTorch's error."""
    lead = len(sizes) - input.ndim
    shape, own_shape = [], input._data.shape
    for i, s in enumerate(sizes):
        own = own_shape[i - lead] if i >= lead else None
        if s == -1:
            if own is None:
                raise RuntimeError("expand: -1 is not allowed in a leading, non-existing dimension")
            s = own
        elif own is not None and own != 1 and own != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({own}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: {list(input.shape)}"
            )
        shape.append(s)
    return tuple(shape)


def sum_to_size(input: Tensor, *size) -> Tensor:
    """Sum ``input`` down to ``size``, the reverse of ``expand`` (how broadcasting is undone).

    As in PyTorch: a sum over the expanded dims that keeps them (``SumBackward1``), then a view
    without the leading ones (``ViewBackward0``); ``input`` itself when it already has that size,
    and the plain sum to size ``()``.
    """
    shape, own = _shape_args(size), input._data.shape
    lead = len(own) - len(shape)
    if lead < 0 or builtins.any(s != 1 and s != o for s, o in zip(shape, own[lead:])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(own)}}}.")
    return _sum_to(input, shape)


def _sum_to(input: Tensor, shape: tuple) -> Tensor:
    """``sum_to_size`` for a ``shape`` known to expand to ``input``'s (a tuple of ints): how a
    derivative rule's gradient is fitted to its input's shape, without checking it again."""
    own = input._data.shape
    if not shape:  # to a number: the plain sum (SumBackward0), even of a 0-d tensor
        return sum_op(input)
    if shape == own:
        return input
    lead = len(own) - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and own[lead + i] != 1)
    out = sum_dim_op(input, dim=dims, keepdim=True) if dims else input
    return view_op(out, shape=shape) if lead else out


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension."""
    tensors = _tensor_sequence("cat", tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not t.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = next((t for t in tensors if t.shape != (0,)), tensors[0])
    dim = _wrap_dim(dim, ref.ndim)
    for i, t in enumerate(tensors):
        if t.shape == (0,) and t.ndim != ref.ndim:
            continue  # skipped, as in PyTorch (see cat_op)
        if t.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}")
        for d in range(ref.ndim):
            if d != dim and t.shape[d] != ref.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size {ref.shape[d]} "
                    f"but got size {t.shape[d]} for tensor number {i} in the list."
                )
    return cat_op(*tensors, dim=dim, dtype=_operand_dtype(tensors))


concat = cat


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join tensors of the same shape along a new dimension."""
    tensors = _tensor_sequence("stack", tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors):
        if t.shape != tensors[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} at entry 0 "
                f"and {list(t.shape)} at entry {i}"
            )
    size = tensors[0].ndim + 1
    if not -size <= dim < size:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})")
    return stack_op(*tensors, dim=dim % size, dtype=_operand_dtype(tensors))


def _tensor_sequence(name: str, tensors) -> list[Tensor]:
    """A list or tuple of tensors, with PyTorch's TypeError for anything else."""
    if not isinstance(tensors, list | tuple):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not {type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return list(tensors)


def _tensors_given(name: str, tensors: tuple) -> tuple[list[Tensor], bool]:
    """The tensors of ``f(a, b)`` or ``f([a, b])`` (``atleast_1d``, ``meshgrid``...), and whether
    they came as one tensor (so one result, not a tuple, is returned)."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return [tensors[0]], True
    if len(tensors) == 1 and isinstance(tensors[0], list | tuple):
        tensors = tensors[0]
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got ({type(t).__name__}), but expected "
                "one of: (Tensor input) or (tuple of Tensors tensors)"
            )
    return list(tensors), False


def _at_least(name: str, tensors: tuple, make):
    given, one = _tensors_given(name, tensors)
    out = tuple(make(t) for t in given)
    return out[0] if one else out


def atleast_1d(*tensors):
    """Each tensor with at least one dim (a 0-d tensor viewed as a vector of one element); the
    tensor itself when it has one already. Several tensors (or a list): a tuple.

    >>> import minigrad as torch
    >>> torch.atleast_1d(torch.tensor(2.0))
    tensor([2.])
    """
    return _at_least("atleast_1d", tensors, lambda t: t.reshape(1) if not t.ndim else t)


def atleast_2d(*tensors):
    """Each tensor with at least two dims: a 0-d tensor viewed as 1x1, a vector as one row."""
    return _at_least("atleast_2d", tensors, lambda t: t.reshape(1, 1) if not t.ndim else t.unsqueeze(0) if t.ndim == 1 else t)


def atleast_3d(*tensors):
    """Each tensor with at least three dims: 0-d as 1x1x1, a vector of n as 1xnx1, a matrix
    of (m, n) as (m, n, 1), as NumPy does."""
    def make(t):
        if t.ndim == 0:
            return t.reshape(1, 1, 1)
        if t.ndim == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        return t.unsqueeze(-1) if t.ndim == 2 else t

    return _at_least("atleast_3d", tensors, make)


def _stacked(name: str, tensors, prepare, dim) -> Tensor:
    """``cat`` of the ``tensors`` each made ready with ``prepare``, along ``dim`` (a function of
    the prepared tensors): vstack, hstack, dstack and column_stack, as PyTorch composes them."""
    tensors = _tensor_sequence(name, tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    ready = [prepare(t) for t in tensors]
    return cat(ready, dim(ready))


def vstack(tensors) -> Tensor:
    """The tensors stacked row-wise: each made at least 2-d (a vector becomes a row), joined
    along dim 0.

    >>> import minigrad as torch
    >>> torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[1, 2],
            [3, 4]])
    """
    return _stacked("vstack", tensors, atleast_2d, lambda ready: 0)


row_stack = vstack


def hstack(tensors) -> Tensor:
    """The tensors stacked column-wise: joined along dim 1, or along dim 0 for vectors."""
    return _stacked("hstack", tensors, atleast_1d, lambda ready: 0 if ready[0].ndim == 1 else 1)


def dstack(tensors) -> Tensor:
    """The tensors stacked depth-wise: each made at least 3-d, joined along dim 2."""
    return _stacked("dstack", tensors, atleast_3d, lambda ready: 2)


def column_stack(tensors) -> Tensor:
    """The tensors as the columns of a matrix: vectors (and 0-d tensors) each become one column,
    the others are joined as they are, along dim 1."""
    return _stacked("column_stack", tensors, lambda t: t.reshape(t.numel(), 1) if t.ndim <= 1 else t, lambda ready: 1)


def tile(input: Tensor, dims) -> Tensor:
    """``input`` repeated ``dims[i]`` times along dim ``i``; with fewer ``dims`` than dims, the
    leading ones are repeated once (``Tensor.repeat`` pads the other way, with new dims).

    >>> import minigrad as torch
    >>> torch.tile(torch.tensor([[1, 2]]), (2,))
    tensor([[1, 2, 1, 2]])
    """
    return _repeat(input, _padded(_int_tuple("tile", "dims", 2, dims), input.shape))  # 1s for the leading dims


def repeat_interleave(input: Tensor, repeats=None, dim: int | None = None, *, output_size: int | None = None) -> Tensor:
    """Each element of ``input`` repeated ``repeats`` times (an int, or a tensor of one count
    per element along ``dim``), the copies next to each other; the flattened input without
    ``dim``. ``repeat_interleave(counts)`` alone gives each index ``counts[i]`` times.

    >>> import minigrad as torch
    >>> torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0)
    tensor([[1, 2],
            [1, 2],
            [3, 4],
            [3, 4]])
    >>> torch.repeat_interleave(torch.tensor([1, 0, 2]))
    tensor([0, 2, 2])
    """
    if repeats is None:  # repeat_interleave(repeats): the indices, each as often as it says
        return _repeated_indices(input, output_size)
    if dim is None:
        input, dim = flatten(input), 0
    dim = _wrap_dim(dim, input.ndim)
    if isinstance(repeats, Tensor):
        if repeats.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        size = input.shape[dim] if input.ndim else 1
        if repeats.numel() == 1:
            repeats = repeats.reshape(1).expand(size)
        elif repeats.shape[0] != size:
            raise RuntimeError(
                f"repeats must have the same size as input along dim, but got repeats.size(0) = {repeats.shape[0]} "
                f"and input.size(0) = {size}"
            )
        return index_select(input, dim, _repeated_indices(repeats, output_size))
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise TypeError(
            "repeat_interleave() received an invalid combination of arguments - got "
            f"(Tensor, {type(repeats).__name__}), but expected one of: (Tensor input, Tensor repeats, int dim), "
            "(Tensor input, int repeats, int dim)"
        )
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    expected = (input.shape[dim] if input.ndim else 1) * repeats
    if output_size is not None and output_size != expected:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {expected} but got {output_size}")
    # As PyTorch: a new dim after ``dim`` expanded to the copies, made contiguous, then merged.
    copies = input.unsqueeze(dim + 1)
    shape = list(copies.shape)
    shape[dim + 1] = repeats
    merged = shape[:dim] + [shape[dim] * repeats] + shape[dim + 2 :]
    return view_op(contiguous_op(copies.expand(shape)), shape=tuple(merged))


def _repeated_indices(repeats: Tensor, output_size: int | None) -> Tensor:
    """0, 1, 2... each repeated as often as ``repeats`` (a vector of counts) says."""
    if repeats.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.dtype not in (dtypes.int64, dtypes.int32):
        raise _no_kernel(f"repeat_interleave_{repeats.device.type}", repeats.dtype)
    counts = repeats._data
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != int(counts.sum()):
        raise RuntimeError("allocated size does not match required size")
    xp = backend.xp(repeats.device)
    with backend.on(repeats.device):
        return Tensor._make(xp.repeat(xp.arange(len(counts), dtype=counts.dtype), counts))


def tensor_split(input: Tensor, indices_or_sections=None, dim: int = 0, *, indices=None, sections=None) -> tuple[Tensor, ...]:
    """``input`` cut along ``dim`` into views: into ``sections`` pieces as equal as can be (the
    first ones one longer), or before each of ``indices``, as NumPy's array_split.

    >>> import minigrad as torch
    >>> torch.tensor_split(torch.arange(7), 3)
    (tensor([0, 1, 2]), tensor([3, 4]), tensor([5, 6]))
    >>> torch.tensor_split(torch.arange(7), [1, 5])
    (tensor([0]), tensor([1, 2, 3, 4]), tensor([5, 6]))
    """
    split = next((v for v in (indices_or_sections, indices, sections) if v is not None), None)
    if isinstance(split, Tensor):
        if split.dtype is not dtypes.int64:
            raise RuntimeError(
                f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got {split.dtype._legacy_name}"
            )
        if split.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, "
                f"but got a tensor with {split.ndim} dims"
            )
        split = split.item() if split.ndim == 0 else split.tolist()
    if input.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if isinstance(split, int) and not isinstance(split, bool):
        if split <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {split}")
        small, extra = divmod(size, split)
        bounds = [i * small + builtins.min(i, extra) for i in range(1, split)]
    elif isinstance(split, list | tuple) and builtins.all(isinstance(i, int) and not isinstance(i, bool) for i in split):
        bounds = list(split)
    else:
        raise TypeError(
            f"tensor_split() received an invalid combination of arguments - got (Tensor, {type(split).__name__}), but "
            "expected one of: (Tensor input, tuple of ints indices, int dim), (Tensor input, Tensor "
            "tensor_indices_or_sections, int dim), (Tensor input, int sections, int dim)"
        )
    # Each piece is a view of its own (SliceBackward0), from the last bound to the next, as Python
    # slices count them (negative bounds from the end; a bound before the last gives nothing).
    starts, stops = [0, *bounds], [*bounds, size]
    keys = [(slice(None),) * dim + (slice(*slice(a, b).indices(size)[:2]),) for a, b in zip(starts, stops)]
    return tuple(slice_op(input, key=key) for key in keys)


def unflatten(input: Tensor, dim: int, sizes) -> Tensor:
    """``input`` with dim ``dim`` viewed as several dims of ``sizes`` (one may be -1).

    >>> import minigrad as torch
    >>> torch.unflatten(torch.zeros(2, 6), 1, (2, 3)).shape
    torch.Size([2, 2, 3])
    """
    sizes = _int_tuple("unflatten", "sizes", 3, sizes)
    if not input.ndim:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions")
    dim = _wrap_dim(dim, input.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    if -1 not in sizes and math.prod(sizes) != input.shape[dim]:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} ({input.shape[dim]}) "
            "in the input tensor"
        )
    sizes = _infer_shape(sizes, input.shape[dim])
    return view(input, input.shape[:dim] + sizes + input.shape[dim + 1 :])


def broadcast_tensors(*tensors) -> tuple[Tensor, ...]:
    """The tensors expanded to the one shape they broadcast to (each itself where it has it).

    >>> import minigrad as torch
    >>> a, b = torch.broadcast_tensors(torch.zeros(2, 1), torch.tensor([1, 2, 3]))
    >>> b
    tensor([[1, 2, 3],
            [1, 2, 3]])
    """
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    shape = _broadcast_shape(*(t.shape for t in tensors))
    return tuple(t if t.shape == shape else expand(t, shape) for t in tensors)


def meshgrid(*tensors, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids of vectors (or 0-d tensors): the ``i``-th grid repeats ``tensors[i]``
    along its own dim. ``indexing='ij'`` gives a grid of shape (len(t0), len(t1), ...);
    ``'xy'`` swaps the first two dims, as NumPy's. Give ``indexing``: without it PyTorch warns
    (and uses ``'ij'``).

    >>> import minigrad as torch
    >>> rows, cols = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
    >>> cols
    tensor([[3, 4, 5],
            [3, 4, 5]])
    """
    tensors, _ = _tensors_given("meshgrid", tensors)
    if indexing is None:
        _warn.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.", UserWarning)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t!r}")
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != tensors[0].device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    swap = indexing == "xy" and len(tensors) >= 2  # PyTorch's xy: ij of the first two swapped, swapped back
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    shape = tuple(t.numel() for t in tensors)
    grids = [t.view([-1 if d == i else 1 for d in range(len(tensors))]).expand(shape) for i, t in enumerate(tensors)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each vector, as the rows of a matrix (the vector
    itself for one vector).

    >>> import minigrad as torch
    >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    tensors, _ = _tensors_given("cartesian_prod", tensors)
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([grid.flatten() for grid in meshgrid(tensors, indexing="ij")], 1)


def block_diag(*tensors) -> Tensor:
    """A matrix with the tensors as blocks along its diagonal (a 0-d tensor as 1x1, a vector as
    one row) and zeros elsewhere.

    >>> import minigrad as torch
    >>> torch.block_diag(torch.tensor([[1, 2]]), torch.tensor(3))
    tensor([[1, 2, 0],
            [0, 0, 3]])
    """
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {t.ndim} dimensions")
    if not tensors:  # PyTorch's result for nothing: one empty row
        device = backend.get_default_device()
        with backend.on(device):
            return Tensor._make(backend.xp(device).zeros((1, 0), dtype=backend.array_dtype(dtypes.get_default_dtype())))
    _one_device("block_diag", *tensors)
    return block_diag_op(*tensors, dtype=_operand_dtype(tensors))


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: ``other`` scaled by each element of ``input``, laid out as a
    grid of blocks (the dims of the smaller tensor padded with leading 1s).

    >>> import minigrad as torch
    >>> torch.kron(torch.tensor([1, 10]), torch.tensor([1, 2, 3]))
    tensor([ 1,  2,  3, 10, 20, 30])
    """
    _check_tensors("kron", ("input", input), ("other", other))
    ndim = builtins.max(input.ndim, other.ndim)
    a, b = (1,) * (ndim - input.ndim) + input.shape, (1,) * (ndim - other.ndim) + other.shape
    # As PyTorch: input's dims interleaved with 1s, other's the other way, multiplied, merged.
    pairs = unsafe_view_op(input, shape=tuple(n for s in a for n in (s, 1))) * unsafe_view_op(other, shape=tuple(n for s in b for n in (1, s)))
    return unsafe_view_op(pairs, shape=tuple(s * t for s, t in zip(a, b)))


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim``: ``out[i] = input[i + 1] - input[i]``,
    applied ``n`` times (``logical_xor`` for bools), after joining ``prepend`` and ``append``.

    >>> import minigrad as torch
    >>> torch.diff(torch.tensor([1, 4, 9, 16]))
    tensor([3, 5, 7])
    """
    if input.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    if n == 0 and prepend is None and append is None:  # PyTorch's copy (CopyBackwards), with no dim checked
        return copy_op(zeros_like_tensor(input), input)
    dim = _wrap_dim(dim, input.ndim)
    for other in (prepend, append):
        if other is None:
            continue
        if other.ndim != input.ndim:
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for d in range(input.ndim):
            if d != dim and other.shape[d] != input.shape[d]:
                raise RuntimeError(
                    "diff expects the shape of tensor to prepend or append to match that of input except along the "
                    f"differencing dimension; input.size({d}) = {input.shape[d]}, but got tensor.size({d}) = {other.shape[d]}"
                )
    if n == 0:  # the copy, leaving out prepend and append (after checking them)
        return copy_op(zeros_like_tensor(input), input)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], dim)
    out, length = input, input.shape[dim] - 1
    for _ in range(builtins.min(n, input.shape[dim])):
        later, earlier = narrow(out, dim, 1, length), narrow(out, dim, 0, length)
        out = logical_xor(later, earlier) if input.dtype is dtypes.bool else later - earlier
        length -= 1
    return out


def clone(input: Tensor, *, memory_format=backend.preserve_format) -> Tensor:
    """A copy of ``input`` (``CloneBackward0``), laid out in memory as ``input`` is by default
    (``x.t().clone().stride() == (1, 2)`` for a 2×2 ``x``), row-major with
    ``memory_format=torch.contiguous_format``."""
    if memory_format is backend.preserve_format:  # the default: clone_op lays the copy out as input
        return clone_op(input)
    if backend.strides_in(memory_format, input._data, "clone") != backend.preserved_strides(input._data):
        if memory_format is not backend.contiguous_format:
            raise NotImplementedError(f"minigrad's clone() lays a copy out row-major or as its input, not in {memory_format}")
        return contiguous_op(input)
    return clone_op(input)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


# ----------------------------------------------------------------------------------------------
# Indexing
# ----------------------------------------------------------------------------------------------

def _index_key(input: Tensor, key) -> tuple:
    """Turn a Python index into a tuple of ints, slices, None, Ellipsis and arrays (on the
    input's device). A tensor of a dtype that cannot index stands there as zeros, and the tuple's
    ``bad_index`` is set: PyTorch refuses it only after the ints and slices (see
    :func:`_check_index_dtypes`)."""
    with backend.on(input.device):
        return _index_key_here(input, key)


class _Key(tuple):
    """A converted index that held a tensor of a dtype that cannot index (``bad_index``)."""

    bad_index = False


def _check_index_dtypes(key) -> None:
    if getattr(key, "bad_index", False):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _sequence_as_tuple(key) -> bool:
    """PyTorch's (and old NumPy's) rule for a key that is a sequence but not a tuple: a short one
    (under 32 items) holding a tensor, a sequence, a slice, ``...`` or None is a tuple of indices
    (``x[[[0, 1], [1, 0]]]`` is ``x[[0, 1], [1, 0]]``); any other is one index."""
    if not isinstance(key, list) or len(key) >= 32:
        return False
    return builtins.any(
        isinstance(k, Tensor | Sequence | slice) and not isinstance(k, str) or backend.is_array(k) or k is None or k is Ellipsis
        for k in key
    )


_INDEX_DTYPES = (dtypes.int64, dtypes.int32, dtypes.uint8, dtypes.bool)
_SEQUENCE_KEY_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; use "
    "x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], "
    "which will result either in an error or a different result"
)
_UINT8_INDEX_WARNING = "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead."


def _byte_masks(key) -> bool:
    """Whether a key (as given) holds a uint8 tensor or array of one or more dims: PyTorch reads
    it as a bool mask (with a deprecation warning)."""
    if not isinstance(key, tuple):
        key = tuple(key) if _sequence_as_tuple(key) else (key,)
    return builtins.any(
        (isinstance(k, Tensor) and k.dtype is dtypes.uint8 and k.ndim) or (backend.is_array(k) and k.dtype == "uint8" and k.ndim)
        for k in key
    )


def _index_key_here(input: Tensor, key) -> tuple:
    if not input.ndim:
        if isinstance(key, slice):
            _check_slice(key)
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):  # PyTorch's select of a bare int
            if key == 0:
                raise IndexError(
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to "
                    "convert a 0-dim tensor to a number"
                )
            raise IndexError(f"index {int(key)} is out of bounds for dimension 0 with size 0")
    if not isinstance(key, tuple):
        if _sequence_as_tuple(key):
            _warn.warn(_SEQUENCE_KEY_WARNING, UserWarning)
            key = tuple(key)
        else:
            key = (key,)
    xp = backend.xp(input.device)
    out, bad_index = [], False
    for k in key:
        if isinstance(k, Tensor):
            if k.dtype not in _INDEX_DTYPES:  # PyTorch says so once the ints and slices are applied
                bad_index = True
                out.append(xp.zeros(k.shape, dtype="int64"))
                continue
            if k.dtype is dtypes.uint8:  # a mask, as in PyTorch (a 0-d one is a bool)
                if k.ndim:
                    _warn.warn(_UINT8_INDEX_WARNING, UserWarning)
                    out.append(backend.place(k._data, input.device).astype(builtins.bool))
                else:
                    out.append(xp.asarray(builtins.bool(k.item())))
            elif k.ndim or k.dtype is dtypes.bool:
                out.append(_kept(k, input, array=backend.place(k._data, input.device)))
            else:
                out.append(int(k.item()))
        elif isinstance(k, bool):
            out.append(xp.asarray(k))
        elif isinstance(k, int | slice) or k is None or k is Ellipsis:
            out.append(k)
        elif backend.is_array(k) and not k.ndim and k.dtype.kind in "iu":  # a NumPy 0-d integer array: an int
            out.append(int(k))
        elif isinstance(k, list | tuple) or backend.is_array(k):
            arr = xp.asarray(k)
            if arr.dtype == "uint8" and arr.ndim:  # a mask, as a uint8 tensor
                _warn.warn(_UINT8_INDEX_WARNING, UserWarning)
                arr = arr.astype(builtins.bool)
            elif arr.dtype.kind in "iuf" and arr.dtype != "int64":  # PyTorch makes an int64 index of it (floats cut to ints)
                arr = arr.astype("int64")
            elif arr.dtype.kind not in "bi":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            out.append(arr)
        elif hasattr(k, "__index__"):
            out.append(k.__index__())
        else:
            raise IndexError(
                f"only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                f"valid indices (got {type(k).__name__})"
            )
    if bad_index:
        out = _Key(out)
        out.bad_index = True
        return out
    return tuple(out)


def index(input: Tensor, key) -> Tensor:
    """``input[key]``: basic indexing is a chain of select/slice/unsqueeze, as in PyTorch; with
    arrays in the key, those views come first and the arrays index what they leave
    (``IndexBackward0``), so ``x[0, :, idx]`` has PyTorch's shape, not NumPy's."""
    bare_slice = isinstance(key, slice)
    key = _index_key(input, key)
    if not _is_basic(key):
        basic, advanced = _split_index(key, input.ndim)
        viewed = _take_views(input, basic, bare_slice=False)  # PyTorch's order: the views, the dtypes, the masks, the shapes
        _check_index_count(advanced, viewed.ndim)
        _check_index_dtypes(key)
        _check_masks(advanced, viewed.shape)
        _check_index_shapes(advanced)
        if math.prod(_advanced_shape(viewed.shape, advanced, check_empty_dims=True)):  # else nothing read, nothing checked
            _check_places(advanced, viewed.shape, f" (indexing a tensor of shape {list(viewed.shape)})")
        return index_op(viewed, key=advanced)
    out = _take_views(input, key, bare_slice)
    return out if out is not input else alias_op(input)  # x[()], x[...], x[:, :]


def _take_views(input: Tensor, key: tuple, bare_slice: bool) -> Tensor:
    """The select/slice/unsqueeze chain of a basic key; ``input`` itself when it takes no view.
    As in PyTorch, a slice over a whole dimension takes none inside a tuple (``x[:, 0:n]``),
    but ``x[a:b]`` alone always slices."""
    used = builtins.sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim}")
    out, dim = input, 0
    for k in key:
        if k is Ellipsis:  # each one skips the dims the others leave (PyTorch allows several)
            dim += input.ndim - used
        elif k is None:
            out, dim = unsqueeze(out, dim), dim + 1
        elif isinstance(k, int):
            size = out.shape[dim] if dim < out.ndim else 0  # past the end after two ellipses: PyTorch's words
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for dimension {dim} with size {size}")
            out = select_op(out, key=(slice(None),) * dim + (k % size,))
        else:
            _check_slice(k)
            _wrap_dim(dim, out.ndim)
            whole = k.start in (None, 0) and k.step in (None, 1) and (k.stop is None or k.stop >= out.shape[dim])
            if bare_slice or not whole:
                out = slice_op(out, key=(slice(None),) * dim + (k,))
            dim += 1
    return out


def _check_slice(k: slice) -> None:
    """PyTorch's checks of a slice in a key: its parts are read as Python reads them (integers or
    None, a step not 0: Python's own errors), then the step must be positive."""
    k.indices(0)
    if k.step is not None and k.step <= 0:
        raise ValueError("step must be greater than zero")


def _split_index(key: tuple, ndim: int) -> tuple[tuple, tuple]:
    """A key with arrays, split as PyTorch applies it: the basic key (ints, slices, None; full
    slices where the arrays are) and the arrays' key for the view it takes. (NumPy instead
    counts ints as arrays: ``x[0, :, idx]`` would put idx's dimension first.)"""
    used = builtins.sum(k.ndim if backend.is_array(k) and k.dtype == bool else k is not None and k is not Ellipsis for k in key)
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    basic, advanced = [], []
    for k in key:
        if k is Ellipsis:
            basic += [slice(None)] * (ndim - used)
            advanced += [slice(None)] * (ndim - used)
        elif isinstance(k, int):
            basic.append(k)  # the dimension is gone from the view
        elif k is None or isinstance(k, slice):
            basic.append(k)
            advanced.append(slice(None))
        elif not k.ndim and k.dtype == bool:  # as PyTorch: a new dim, indexed by [0] (True) or [] (False)
            basic.append(None)
            advanced.append(backend.xp(backend.device_of(k)).arange(1 if k else 0))
        else:  # an array: a bool mask stands for as many dimensions as it has
            basic += [slice(None)] * (k.ndim if k.dtype == bool else 1)
            advanced.append(k)
    whole = slice(None)
    while basic and isinstance(basic[-1], slice) and basic[-1] == whole:  # no-ops (past the end with several ellipses)
        basic.pop()
    while advanced and isinstance(advanced[-1], slice) and advanced[-1] == whole:
        advanced.pop()
    return tuple(basic), tuple(advanced)


def _check_index_count(advanced: tuple, ndim: int) -> None:
    """index's and index_put's error for more indices than the view has dims (an index past the
    end after several ellipses); PyTorch checks it once the views are taken (and for index_put,
    once its leaf errors are raised)."""
    got = builtins.sum(k.ndim if backend.is_array(k) and k.dtype == bool else 1 for k in advanced)
    if got > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim} (got {got})")


def _check_masks(key: tuple, shape: tuple, past_end: bool = False) -> None:
    """PyTorch's error for a bool mask whose shape is not that of the dims it indexes (and, with
    ``past_end``, index_put's error for a mask that reaches past the last dim)."""
    dim = 0
    for k in key:
        if backend.is_array(k) and k.dtype == bool:
            for j, n in enumerate(k.shape):
                if past_end and dim + j >= len(shape):
                    raise IndexError(
                        f"Dimension out of range (expected to be in range of [{-len(shape)}, {len(shape) - 1}], but got {dim + j})"
                    )
                if dim + j < len(shape) and n != shape[dim + j]:
                    raise IndexError(
                        f"The shape of the mask {list(k.shape)} at index {j} does not match the shape of "
                        f"the indexed tensor {list(shape)} at index {dim + j}"
                    )
            dim += k.ndim
        else:
            dim += 1


def _advanced_shape(shape: tuple, key: tuple, check_empty_dims: bool = False) -> tuple:
    """The shape of ``a[key]`` for an array ``a`` of ``shape`` and a key of whole slices and index
    arrays (bool masks among them), worked out without reading (or bounds-checking) anything:
    the index arrays' broadcast shape where they stand when they are adjacent, else in front.
    With ``check_empty_dims``, PyTorch's IndexError for indices into a dimension of size 0 that
    pick something (even where another dimension leaves the result empty)."""
    kept_before, kept_after, index_shapes, places, indexed_sizes = [], [], [], [], []
    dim = 0
    for i, k in enumerate(key):
        if backend.is_array(k):
            index_shapes.append((int(k.sum()),) if k.dtype == bool else tuple(k.shape))
            places.append(i)
            step = k.ndim if k.dtype == bool else 1
            indexed_sizes += shape[dim : dim + step]
            dim += step
        else:  # slice(None)
            (kept_after if places else kept_before).append(shape[dim])
            dim += 1
    kept_after += list(shape[dim:])
    indexed = list(_broadcast_shape(*index_shapes)) if index_shapes else []
    if check_empty_dims and 0 in indexed_sizes and 0 not in indexed:  # PyTorch's check, before any other of places
        raise IndexError("index is out of bounds for dimension with size 0")
    if places and places[-1] - places[0] != len(places) - 1:  # not adjacent: NumPy's and PyTorch's rule
        return tuple(indexed + kept_before + kept_after)
    return tuple(kept_before + indexed + kept_after)


def _check_places(key: tuple, shape: tuple, suffix: str = "") -> None:
    """PyTorch's IndexError for an integer index array of ``key`` (slices and arrays) with an
    entry outside its dimension of ``shape`` (negative ones count from the end)."""
    dim = 0
    for k in key:
        if backend.is_array(k) and k.dtype != bool:
            n = shape[dim]
            bad = (k < -n) | (k >= n)
            if bad.any():
                raise IndexError(f"index {int(k[bad].reshape(-1)[0])} is out of bounds for dimension {dim} with size {n}{suffix}")
        dim += k.ndim if backend.is_array(k) and k.dtype == bool else 1


def _empty_result(shape: tuple, key: tuple, check_empty_dims: bool = False) -> bool:
    """Whether ``a[key]`` (advanced) for an array of ``shape`` has no elements: then PyTorch
    reads and writes nothing, and checks no index, where NumPy may still refuse one."""
    return not math.prod(_advanced_shape(shape, key, check_empty_dims))


def _check_index_shapes(key: tuple) -> None:
    """PyTorch's error when index tensors do not broadcast together (a bool mask counts as one
    index of its True positions per dimension)."""
    shapes = []
    for k in key:
        if backend.is_array(k):
            shapes += [(int(k.sum()),)] * k.ndim if k.dtype == bool else [k.shape]
    try:
        _broadcast_shape(*shapes)
    except RuntimeError:
        listed = ", ".join(str(list(shape)) for shape in shapes)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {listed}") from None


def select(input: Tensor, dim: int, index: int) -> Tensor:
    if not input.ndim:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    if not -input.shape[dim] <= index < input.shape[dim]:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at dimension {dim}")
    return globals()["index"](input, (slice(None),) * dim + (index,))


def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    if not input.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_op(input, key=(slice(None),) * dim + (slice(start, start + length),))


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``input`` along ``dim``, as views that share one ``UnbindBackward0`` node
    (which is also what iterating over a tensor gives)."""
    dim = _wrap_dim(dim, input.ndim)
    if not input.ndim:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    keys = [(slice(None),) * dim + (i,) for i in range(input.shape[dim])]
    return _views_of_one_node(UnbindBackward0, select_op, input, keys, {"dim": dim})


def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple[Tensor, ...]:
    """``tensor`` cut along ``dim`` into views of ``split_size`` elements each (the last may be
    smaller), or of the sizes in a list, sharing one ``SplitBackward0`` (or
    ``SplitWithSizesBackward0``) node.

    >>> import minigrad as torch
    >>> torch.arange(5).split(2)
    (tensor([0, 1]), tensor([2, 3]), tensor([4]))
    """
    if not tensor.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if isinstance(split_size_or_sections, int) and not isinstance(split_size_or_sections, bool):
        return _split_evenly(tensor, split_size_or_sections, dim)
    sizes = split_size_or_sections
    if not isinstance(sizes, list | tuple) or not builtins.all(type(s) is int for s in sizes):
        raise TypeError(
            f"split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not {type(sizes).__name__}"
        )
    dim = _wrap_dim(dim, tensor.ndim)
    if builtins.any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={list(sizes)}")
    if builtins.sum(sizes) != tensor.shape[dim]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {tensor.shape[dim]} (input tensor's size at "
            f"dimension {dim}), but got split_sizes={list(sizes)}"
        )
    params = {"dim": dim, "self_sym_sizes": tuple(tensor.shape), "split_sizes": tuple(sizes)}
    return _views_of_one_node(SplitWithSizesBackward0, slice_op, tensor, _pieces(dim, sizes), params)


def unsafe_split(tensor: Tensor, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
    """:func:`split` into pieces of ``split_size``, sharing one ``UnsafeSplitBackward0`` node,
    whose pieces may be changed in place (what PyTorch's C++ uses, e.g. for an LSTM's gates).

    >>> import minigrad as torch
    >>> torch.arange(4.0, requires_grad=True).unsafe_split(2)[0].grad_fn.name()
    'UnsafeSplitBackward0'
    """
    if not tensor.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    return _split_evenly(tensor, split_size, dim, UnsafeSplitBackward0)


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """:func:`chunk` through :func:`unsafe_split` (one ``UnsafeSplitBackward0``)."""
    return _chunk(input, chunks, dim, UnsafeSplitBackward0)


def _split_evenly(tensor: Tensor, split_size: int, dim: int, node=None) -> tuple[Tensor, ...]:
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    dim = _wrap_dim(dim, tensor.ndim)
    size = tensor.shape[dim]
    if split_size == 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    count = builtins.max(-(-size // split_size), 1) if split_size else 1  # one piece, also when split_size > size
    sizes = [split_size] * (count - 1) + [size - split_size * (count - 1)]
    params = {"dim": dim, "self_sym_sizes": tuple(tensor.shape), "split_size": split_size}
    return _views_of_one_node(node or SplitBackward0, slice_op, tensor, _pieces(dim, sizes), params)


def _pieces(dim: int, sizes) -> list[tuple]:
    """The keys that cut consecutive pieces of ``sizes`` along ``dim``."""
    starts = [builtins.sum(sizes[:i]) for i in range(len(sizes))]
    return [(slice(None),) * dim + (slice(start, start + size),) for start, size in zip(starts, sizes)]


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut along ``dim`` into at most ``chunks`` views of equal size (the last may be
    smaller): ``split`` with ``ceil(size / chunks)``."""
    return _chunk(input, chunks, dim, SplitBackward0)


def _chunk(input: Tensor, chunks: int, dim: int, node) -> tuple[Tensor, ...]:
    if not input.ndim:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input.shape[_wrap_dim(dim, input.ndim)]
    if size == 0:  # split would make one empty piece; PyTorch makes `chunks` of them
        return split(input, [0] * chunks, dim)
    return _split_evenly(input, -(-size // chunks), dim, node)


def _views_of_one_node(node_class, view_op: Op, input: Tensor, keys: list, params: dict) -> tuple[Tensor, ...]:
    """Views of ``input`` at ``keys`` whose grad_fn is one shared node (output ``i`` is view ``i``),
    as PyTorch records functions that return several views. Such views may not be changed in
    place while autograd records (Tensor._check_inplace_on_view)."""
    views = tuple(view_op(input, key=key) for key in keys)  # storage, version counter and base, as any view
    node = node_class(input, params, [v._data.shape for v in views]) if views and views[0]._grad_fn else None
    for i, view in enumerate(views):
        if node_class is not UnsafeSplitBackward0:  # the unsafe pieces may change in place
            view._locked_view = _MULTI_VIEW_ADVICE
            if view._view_no_grad is True and is_grad_enabled():  # of a no_grad view: PyTorch's
                view._view_no_grad = False  # multi-view rule replaces the no_grad one (not inference mode's)
        if node is not None:
            view._grad_fn, view._output_nr = node, i
    return views


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """The values of ``input`` that ``index`` points to along ``dim``: for ``dim=1``,
    ``out[i][j] = input[i][index[i][j]]`` (so ``index`` has ``input``'s number of dims).

    >>> import minigrad as torch
    >>> log_probs = torch.tensor([[-0.1, -2.0, -3.0], [-4.0, -5.0, -0.2]])
    >>> torch.gather(log_probs, 1, torch.tensor([[0], [2]]))  # each row's log-probability of its label
    tensor([[-0.1000],
            [-0.2000]])
    """
    dim = _check_index_along("gather", input, dim, index)
    if sparse_grad:
        raise NotImplementedError("gather(sparse_grad=True): minigrad has no sparse tensors; leave sparse_grad=False")
    _, (input, index) = _one_device("gather", input, index)
    return gather_op(input, dim=dim, index=_kept(index, input), sparse_grad=False)


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """The values of ``input`` at ``indices`` along ``dim``, the two broadcast against each other
    apart from ``dim`` (as PyTorch: an expand, then :func:`gather`; indices count modulo the
    size of ``dim``); with ``dim=None``, at ``indices`` into the flattened ``input``.

    >>> import minigrad as torch
    >>> x = torch.tensor([[10.0, 30.0, 20.0], [60.0, 40.0, 50.0]])
    >>> torch.take_along_dim(x, x.argmax(1, keepdim=True), 1)
    tensor([[30.],
            [60.]])
    """
    if not isinstance(indices, Tensor):
        raise TypeError(f"take_along_dim(): argument 'indices' (position 2) must be Tensor, not {type(indices).__name__}")
    if dim is None:  # (a gather of the flattened tensors, with gather's checks)
        return gather(input.view(-1), 0, indices.view(-1))
    if input.ndim != indices.ndim:  # (PyTorch's order: the dims, the dtype, then dim)
        raise RuntimeError(
            f"torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{input.ndim} dimensions for input, and {indices.ndim} dimensions for indices"
        )
    if indices.dtype is not dtypes.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got {indices.dtype._legacy_name}")
    dim = _wrap_dim(dim, input.ndim)
    if not input.ndim:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    size = input.shape[dim]
    along = lambda shape, n: tuple(shape[:dim]) + (n,) + tuple(shape[dim + 1 :])  # noqa: E731
    shape = _broadcast_shape(along(input.shape, indices.shape[dim]), indices.shape)
    if math.prod(shape):  # nothing to take: no remainder by an empty dim's 0 (PyTorch's empty result)
        indices = indices.remainder(size)
    indices = indices.broadcast_to(shape)
    input = input.broadcast_to(_broadcast_shape(along(indices.shape, size), input.shape))
    return gather(input, dim, indices)


def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None, reduce: str | None = None) -> Tensor:
    """A copy of ``input`` with ``src``'s values (or the number ``value``) written where
    ``index`` points along ``dim``: for ``dim=1``, ``out[i][index[i][j]] = src[i][j]``.

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).scatter(1, torch.tensor([[2], [0]]), 1.0)  # one-hot rows
    tensor([[0., 0., 1.],
            [1., 0., 0.]])
    """
    src = value if src is None else src
    if reduce is not None:  # PyTorch's deprecated form (see scatter_reduce)
        return _scatter_reduce_by(input, dim, index, src, reduce)
    if isinstance(src, Tensor):
        dim = _check_index_along("scatter", input, dim, index, src)
        _, (input, index, src) = _one_device("scatter", input, index, src)
        return scatter_op(input, src, dim=dim, index=_kept(index, input, src))
    if not isinstance(src, Number):
        raise TypeError(f"scatter(): argument 'src' must be Tensor or a number, not {type(src).__name__}")
    dim = _check_index_along("scatter", input, dim, index)
    _check_fits(src, input.dtype)
    _, (input, index) = _one_device("scatter", input, index)
    return scatter_value_op(input, dim=dim, index=_kept(index, input), value=src)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src``'s values added where ``index`` points along ``dim``
    (repeated places add up): for ``dim=1``, ``out[i][index[i][j]] += src[i][j]``.

    >>> import minigrad as torch
    >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0]))
    tensor([4., 0., 2.])
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add(): argument 'src' (position 4) must be Tensor, not {type(src).__name__}")
    dim = _check_index_along("scatter", input, dim, index, src)
    _, (input, index, src) = _one_device("scatter_add", input, index, src)
    return scatter_add_op(input, src, dim=dim, index=_kept(index, input, src))


def _check_index_along(name: str, input: Tensor, dim: int, index, src: Tensor | None = None, bounds: bool = True) -> int:
    """PyTorch's checks of gather's and scatter's ``index`` (and ``src``; then, with ``bounds``,
    its kernel's of the places); returns ``dim`` wrapped."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' (position 3) must be Tensor, not {type(index).__name__}")
    dim = _wrap_dim(dim, input.ndim)
    if index.numel() and index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype is not input.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
    if not index.numel():  # as PyTorch: an empty index is neither checked nor used
        return dim
    if builtins.max(index.ndim, 1) != builtins.max(input.ndim, 1):
        role = "input" if name == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {role} tensor")
    if src is not None and builtins.max(src.ndim, 1) != builtins.max(index.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shape, sizes = index.shape or (1,), input.shape or (1,)
    if builtins.any(shape[d] > sizes[d] for d in range(len(shape)) if d != dim) or (
        src is not None and builtins.any(n > s for n, s in zip(shape, src.shape or (1,)))
    ):
        if name == "gather":
            d = next(d for d in range(len(shape)) if d != dim and shape[d] > sizes[d])
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be no larger than "
                f"self {list(input.shape)} apart from dimension {dim}"
            )
        larger = "" if src is None else f" and to be no larger size than src {list(src.shape)}"
        raise RuntimeError(
            f"Expected index {list(index.shape)} to be no larger than self {list(input.shape)} apart from "
            f"dimension {dim}{larger}"
        )
    if bounds:
        _check_in_range(index, sizes[dim], lambda v: f"index {v} is out of bounds for dimension {dim} with size {sizes[dim]}")
    return dim


def _check_in_range(index: Tensor, size: int, message, *, low: int = 0, error=RuntimeError) -> None:
    """Raise ``error(message(first bad value))`` unless every index is in [low, size): NumPy
    would count negative ones from the end, and PyTorch refuses them where ``low`` is 0."""
    data = index._data
    bad = (data < low) | (data >= size)
    if bad.any():
        raise error(message(int(data[bad].reshape(-1)[0])))


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The entries of ``input`` at the positions ``index`` (a vector) along ``dim``, in that
    order and with repeats: ``index_select(x, 1, i)`` is ``x[:, i]``.

    >>> import minigrad as torch
    >>> torch.index_select(torch.tensor([[1, 2, 3], [4, 5, 6]]), 1, torch.tensor([2, 0]))
    tensor([[3, 1],
            [6, 4]])
    """
    if not isinstance(index, Tensor):
        raise TypeError(f"index_select(): argument 'index' (position 3) must be Tensor, not {type(index).__name__}")
    dim = _wrap_dim(dim, input.ndim)
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if not input.ndim and index.numel() != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.numel()} value(s)")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if not input.ndim:  # a 0-d tensor is one element: only index 0, once
        _check_in_range(index, 1, lambda v: "index out of range in self", error=IndexError)
        return index_select_op(input, dim=0, index=_kept(index, input, array=index._data.reshape(-1)), self_sym_sizes=())
    if not input.shape[dim] and index.numel() and input.ndim > 1:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if input.ndim > 1 and (dim == 1 or not input.numel()):  # PyTorch's CPU kernels for these have their own words
        _check_in_range(index, input.shape[dim], lambda v: f"INDICES element is out of DATA bounds, id={v} axis_dim={input.shape[dim]}")
    else:
        _check_in_range(index, input.shape[dim], lambda v: f"index out of range in self (index {v}, size {input.shape[dim]})", error=IndexError)
    _, (input, index) = _one_device("index_select", input, index)
    flat = _kept(index, input, array=index._data.reshape(-1))  # a 0-d index selects one entry, keeping the dim
    return index_select_op(input, dim=dim, index=flat, self_sym_sizes=tuple(input.shape))


def _check_index_source(name: str, input: Tensor, dim: int, index: Tensor, source: Tensor) -> int:
    """PyTorch's checks of ``name(input, dim, index, source)`` (index_add, index_reduce): a vector
    of int indices, one per slice of ``source`` along ``dim``, whose other sizes are ``input``'s.
    Returns ``dim`` wrapped."""
    dim = _wrap_dim(dim, input.ndim)
    if index.ndim > 1:
        raise IndexError(
            f"{name}_(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
            f"{index.dtype._legacy_name} and size: {list(index.shape)}"
        )
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"{name}_(): Expected dtype int32/int64 for index but got: {index.dtype._legacy_name}")
    if source.dtype is not input.dtype:
        raise RuntimeError(
            f"{name}_(): self ({input.dtype._legacy_name}) and source ({source.dtype._legacy_name}) must have "
            "the same scalar type"
        )
    if dim and dim >= source.ndim:
        raise RuntimeError(f"{name}_(): Indexing dim {dim} is out of bounds of the source tensor with dim {source.ndim}")
    along = source.shape[dim] if dim < source.ndim else 1
    if index.numel() != along:
        if not source.ndim:  # PyTorch's message asks a 0-d source for its size along dim
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(
            f"{name}_(): Number of indices ({index.numel()}) should be equal to source.size(dim): ({along}), for dim: {dim}"
        )
    others = lambda shape: [n for d, n in enumerate(shape or (1,)) if d != dim]  # noqa: E731
    if source.ndim != input.ndim or others(input.shape) != others(source.shape):
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified dimension. Got "
            f"self.shape = {list(input.shape)} source.shape = {list(source.shape)}"
        )
    return dim


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
    """A copy of ``input`` with ``alpha * source`` added at the positions ``index`` (a vector)
    along ``dim``; repeated positions add up: ``index_add(x, 1, i, s)`` adds ``s[:, k]`` into
    ``x[:, i[k]]``.

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).index_add(1, torch.tensor([2, 0, 2]), torch.ones(2, 3), alpha=10)
    tensor([[10.,  0., 20.],
            [10.,  0., 20.]])
    """
    if not isinstance(source, Tensor):
        raise TypeError(f"index_add(): argument 'source' (position 3) must be Tensor, not {type(source).__name__}")
    if not isinstance(index, Tensor):
        raise TypeError(f"index_add(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    dim = _check_index_source("index_add", input, dim, index, source)
    size = input.shape[dim] if input.ndim else 1
    if input.ndim <= 1:  # PyTorch's CPU kernels: a loop here
        _check_in_range(index, size, lambda v: "index out of range in self", error=IndexError)
    elif index.numel() and input.numel():  # (else nothing is added, and nothing checked)
        if dim in (0, input.ndim - 1) and alpha == 1 and index.dtype is dtypes.int64:  # a scatter_add there
            _check_in_range(index, size, lambda v: f"index {v} is out of bounds for dimension {dim} with size {size}")
        else:
            _check_in_range(index, size, lambda v: "index out of range in self", error=IndexError)
    _, (input, index, source) = _one_device("index_add", input, index, source)
    return index_add_op(input, source, dim=dim, index=_kept(index, input, source).reshape(-1), alpha=alpha)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where the bool ``mask`` is True (the two broadcast), as a vector.

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, -2.0], [-3.0, 4.0]])
    >>> torch.masked_select(x, x > 0)
    tensor([1., 4.])
    """
    _check_tensor(input, "masked_select")
    if not isinstance(mask, Tensor):
        raise TypeError(f"masked_select(): argument 'mask' (position 2) must be Tensor, not {type(mask).__name__}")
    if mask.dtype is not dtypes.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    _broadcast_shape(mask.shape, input.shape)  # (PyTorch names the mask first)
    _, (input, mask) = _one_device("masked_select", input, mask)
    return masked_select_op(input, mask=_kept(mask, input))


def nonzero(input: Tensor, *, as_tuple: bool = False):
    """The indices of the non-zero elements of ``input``: one row per element (an ``(n, ndim)``
    int64 tensor), or with ``as_tuple=True`` one vector per dim (what indexing takes).

    >>> import minigrad as torch
    >>> torch.nonzero(torch.tensor([[0, 3], [5, 0]]))
    tensor([[0, 1],
            [1, 0]])
    """
    xp, a = backend.xp(input.device), input._data
    with backend.on(input.device):
        if as_tuple:  # a 0-d tensor counts as a vector of one element here, as in PyTorch
            # each a contiguous vector, as PyTorch's (columns of a column-major (n, ndim) result)
            found = (i.astype("int64", copy=False) for i in xp.nonzero(a.reshape(-1) if not a.ndim else a))
            return tuple(Tensor._make(_row_major(xp, i) if i.size else backend.with_torch_strides(i)) for i in found)
        return Tensor._make(xp.argwhere(a).astype("int64", copy=False))


def argwhere(input: Tensor) -> Tensor:
    """``nonzero(input)``: the indices of the non-zero elements, one row per element."""
    return nonzero(input)


def count_nonzero(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """How many elements are not zero, in all of ``input`` or along ``dim`` (an int or a tuple).

    >>> import minigrad as torch
    >>> torch.count_nonzero(torch.tensor([[0, 1, 2], [3, 0, 0]]), dim=1)
    tensor([2, 1])
    """
    axis = None if dim is None else _dims(_all_if_empty(dim), input.ndim)
    with backend.on(input.device):
        return Tensor._make(_reduced(backend.xp(input.device), (input._data != 0).sum(axis=axis, dtype="int64")))


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements of the flattened ``input`` at ``index`` (negative ones from the end), in the
    shape of ``index``.

    >>> import minigrad as torch
    >>> torch.take(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, -1]]))
    tensor([[1, 4]])
    """
    _check_tensor(input, "take")
    if not isinstance(index, Tensor):
        raise TypeError(f"take(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {index.dtype._legacy_name}")
    size = input.numel()
    if index.numel() and not size:
        raise IndexError("take(): tried to take from an empty tensor")
    message = lambda v: f"out of range: tried to access index {v} on a tensor of {size} elements."  # noqa: E731
    _check_in_range(index, size, message, low=-size, error=IndexError)
    _, (input, index) = _one_device("take", input, index)
    return take_op(input, index=_kept(index, input, array=index._data % builtins.max(size, 1)))


def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:
    """A copy of ``input`` with ``value`` (a number or a 0-d tensor) written at the positions
    ``index`` (a vector) along ``dim``.

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), -1.0)
    tensor([[-1.,  0., -1.],
            [-1.,  0., -1.]])
    """
    out = _index_fill(input, dim, index, value)
    _check_differentiable_result(input, value)
    return out


def _index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:
    """index_fill, and index_fill_'s step (where an integer tensor may take a value that requires
    grad). PyTorch's order of checks: the value's dims, the index's dtype, dim, the index's dims,
    then (where something is written) the places."""
    if not isinstance(index, Tensor):
        raise TypeError(f"index_fill(): argument 'index' (position 3) must be Tensor, not {type(index).__name__}")
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(
            f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.ndim} dimension(s)."
        )
    if index.dtype is not dtypes.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    dim = _wrap_dim(dim, input.ndim)
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = input.shape[dim] if input.ndim else 1
    if index.numel() and math.prod(input.shape[:dim] + input.shape[dim + 1 :]):  # (else nothing is written, nor checked)
        _places_along(index, size, dim, negative=True)
    # (the index itself, negative entries too: PyTorch's gradient for a value tensor reads the
    # places again with index_select, which refuses those)
    at = backend.copy(index._data.reshape(-1))
    if not isinstance(value, Tensor):
        _check_fits(value, input.dtype)
        return index_fill_op(input, dim=dim, index=at, value=value)
    _check_fits(value._data.item(), input.dtype)  # (PyTorch fills with value.item())
    _, (input, index, value) = _one_device("index_fill", input, index, value)
    return index_fill_tensor_op(input, value, dim=dim, index=at)


def _places_along(index: Tensor, size: int, dim: int, *, negative: bool, prefix: str = ""):
    """``index`` as a new flat array of positions in [0, size), with PyTorch's IndexError for one
    outside it (or, where ``negative`` ones count from the end, outside [-size, size))."""
    message = lambda v: f"{prefix}index {v} is out of bounds for dimension {dim} with size {size}"  # noqa: E731
    _check_in_range(index, size, message, low=-size if negative else 0, error=IndexError)
    return index._data.reshape(-1) % builtins.max(size, 1)  # (a new array: the node keeps it, not the caller's index)


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` with the slices of ``source`` along ``dim`` written at the positions
    ``index`` along ``dim``: ``index_copy(x, 1, i, s)`` sets ``x[:, i[k]] = s[:, k]``.

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).index_copy(1, torch.tensor([2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[2., 0., 1.],
            [4., 0., 3.]])
    """
    if not isinstance(source, Tensor):
        raise TypeError(f"index_copy(): argument 'source' (position 4) must be Tensor, not {type(source).__name__}")
    if not isinstance(index, Tensor):
        raise TypeError(f"index_copy(): argument 'index' (position 3) must be Tensor, not {type(index).__name__}")
    dim = _wrap_dim(dim, input.ndim)
    # PyTorch's order: the index's dims, the source's, the dtypes, the slices, the count
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    count = index.numel()
    if not source.ndim and count != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {count})")
    if source.ndim and input.ndim and source.ndim != input.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
            f"dimensionality ({source.ndim}), destination dimensionality ({input.ndim})"
        )
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {index.dtype._legacy_name}")
    if source.dtype is not input.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{input.dtype._legacy_name} and (source) {source.dtype._legacy_name}"
        )
    sliced = lambda shape: " ".join(str(n) for d, n in enumerate(shape) if d != dim)  # noqa: E731
    if input.ndim and sliced(input.shape) != sliced(source.shape):
        raise RuntimeError(
            f"index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
            f"{sliced(input.shape)} at dimension {dim} and source slice shape: {sliced(source.shape)} at dimension 0."
        )
    along = source.shape[dim] if source.ndim else 1
    if count != along:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to source.size(dim) ({along})")
    _, (input, index, source) = _one_device("index_copy", input, index, source)
    size = input.shape[dim] if input.ndim else 1
    if index.numel() and math.prod(input.shape[:dim] + input.shape[dim + 1 :]):  # (else nothing is written, nor checked)
        _places_along(index, size, dim, negative=False, prefix="index_copy_(): ")
    return index_copy_op(input, source, dim=dim, index=backend.copy(index._data.reshape(-1)))


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of ``input`` in dims ``dim1`` and ``dim2`` (above it for
    ``offset > 0``, below for ``offset < 0``), appended as the last dim.

    >>> import minigrad as torch
    >>> torch.diagonal(torch.tensor([[1, 2, 3], [4, 5, 6]]), 1)
    tensor([2, 6])
    """
    dim1, dim2 = _diagonal_dims(input.ndim, dim1, dim2)
    return diagonal_op(input, offset=offset, dim1=dim1, dim2=dim2, self_sym_sizes=tuple(input.shape))


def _diagonal_dims(ndim: int, dim1: int, dim2: int) -> tuple[int, int]:
    dim1, dim2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return dim1, dim2


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Tensors whose diagonals (in the new dims ``dim1`` and ``dim2``) are the last dim of
    ``input``, zero elsewhere: a batch of diagonal matrices.

    >>> import minigrad as torch
    >>> torch.diag_embed(torch.tensor([[1, 2], [3, 4]]))
    tensor([[[1, 0],
             [0, 2]],
    <BLANKLINE>
            [[3, 0],
             [0, 4]]])
    """
    _diagonal_dims(input.ndim + 1, dim1, dim2)
    return diag_embed_op(input, offset=offset, dim1=dim1, dim2=dim2)  # the dims as given, as PyTorch saves them


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A vector made into a diagonal matrix, or a matrix's diagonal as a vector (a copy):
    ``diagonal`` picks the diagonal above (> 0) or below (< 0) the main one.

    >>> import minigrad as torch
    >>> torch.diag(torch.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    if input.ndim == 1:
        return diag_embed_op(input, offset=diagonal, dim1=0, dim2=1)
    if input.ndim == 2:
        return diagonal_copy_op(input, offset=diagonal, dim1=0, dim2=1, self_sym_sizes=tuple(input.shape))
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (integers give int64).

    >>> import minigrad as torch
    >>> torch.trace(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor(5.)
    """
    if input.dtype is dtypes.bool:  # checked first, as in PyTorch
        raise _no_kernel("trace")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return trace_op(input, self_sym_sizes=tuple(input.shape))


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dims of ``input`` (on and below the ``diagonal``-th
    diagonal), zeros above.

    >>> import minigrad as torch
    >>> torch.tril(torch.ones(3, 3))
    tensor([[1., 0., 0.],
            [1., 1., 0.],
            [1., 1., 1.]])
    """
    if input.ndim < 2:
        raise RuntimeError("tril: input tensor must have at least 2 dimensions")
    return tril_op(input, diagonal=diagonal)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dims of ``input`` (on and above the ``diagonal``-th
    diagonal), zeros below."""
    if input.ndim < 2:
        raise RuntimeError("triu: input tensor must have at least 2 dimensions")
    return triu_op(input, diagonal=diagonal)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two vectors: ``out[i][j] = input[i] * vec2[j]``.

    >>> import minigrad as torch
    >>> torch.outer(torch.tensor([1, 2]), torch.tensor([1, 10, 100]))
    tensor([[  1,  10, 100],
            [  2,  20, 200]])
    """
    for name, t in (("self", input), ("vec2", vec2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"outer(): argument '{name}' must be Tensor, not {type(t).__name__}")
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return input.reshape(-1, 1) * vec2  # as PyTorch computes it (ViewBackward0 into MulBackward0)


ger = outer


def _setitem_put(input: Tensor, key: tuple, value, byte_mask: bool = False, on_cpu: bool = True) -> Tensor:
    """The value of ``input`` after ``input[key] = value`` for advanced indices (IndexPutBackward0).
    As PyTorch's index_put_: the value's shape, then its dtype, then the indices (only where some
    element is written); one mask and a one-element value is a masked fill, which converts the
    value (and refuses a uint8 mask, ``byte_mask``)."""
    dtype = input.dtype
    _advanced_shape(input.shape, key, check_empty_dims=True)
    if _fills_masked(key, value, on_cpu):
        if byte_mask:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
        if isinstance(value, Tensor):
            _check_fits(value._data.item(), dtype)  # (PyTorch fills with value.item())
    elif isinstance(value, Tensor):
        _check_index_put_shape(input, key, value.shape[_leading_ones(value.shape) :], value.shape)
        if value.dtype is not dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{dtype._legacy_name} for the destination and {value.dtype._legacy_name} for the source."
            )
    if not _empty_result(input.shape, key):
        _check_places(key, input.shape)
    value = _as_tensor(value, dtype, input.device)
    lead = _leading_ones(value.shape)
    if lead:  # viewed without its leading 1s, as PyTorch's setitem does (ViewBackward0)
        value = value.view(value.shape[lead:])
    return index_put_op(input, value, key=key, dtype=dtype)


def _fills_masked(key: tuple, value, on_cpu: bool = True) -> bool:
    """Whether PyTorch's index_put_ (without accumulate) runs ``key`` and ``value`` as a masked
    fill: one bool mask among whole slices, and a one-element value (a number, or a tensor that
    was on the CPU, ``on_cpu``)."""
    arrays = [k for k in key if backend.is_array(k)]
    if len(arrays) != 1 or arrays[0].dtype != bool or not arrays[0].ndim:
        return False
    return not isinstance(value, Tensor) or (value.numel() == 1 and on_cpu)


def _check_index_put_shape(input: Tensor, key: tuple, shape: tuple, shown: tuple | None = None) -> tuple:
    """PyTorch's error when a value of ``shape`` (``shown`` in the message) does not broadcast to
    the shape ``input[key]`` has; returns that shape."""
    indexed = _advanced_shape(input.shape, key)
    try:
        fits = _broadcast_shape(shape, indexed) == indexed
    except RuntimeError:
        fits = False
    if not fits:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(shape if shown is None else shown)} cannot be broadcast to "
            f"indexing result of shape {list(indexed)}"
        )
    return indexed


def _leading_ones(shape: tuple) -> int:
    """How many 1s ``shape`` starts with (PyTorch's setitem views its value without them)."""
    count = 0
    while count < len(shape) and shape[count] == 1:
        count += 1
    return count


def _setitem_value(value: Tensor, shape: tuple) -> Tensor:
    """``value`` ready to copy into a view of ``shape`` (``x[key] = value``), as PyTorch makes it:
    itself when it has that shape, else a view without its leading 1s (``ViewBackward0``),
    expanded to ``shape``."""
    if value._data.shape == shape:
        return value
    value = value.view(value.shape[_leading_ones(value.shape) :])
    return value if value.shape == shape else value.expand(shape)


def view_again(base: Tensor, steps: tuple) -> Tensor:
    """The view that ``steps`` take from ``base``, recorded from the base's current grad_fn
    (``AsStridedBackward0``), also inside a backward pass or under no_grad."""
    with enable_grad():
        return as_strided_op(base, steps=ViewSteps(steps))


class ViewSteps(tuple):
    """The view operations that take a view from its base; shown by name (``slice → t``)."""

    def __repr__(self) -> str:
        return " → ".join(forward_name(op.name).lower() for op, _, _ in self)


def forward_name(node_name: str) -> str:
    """The operation a backward node is named after: ``'Slice'`` for ``'SliceBackward0'``."""
    return re.sub(r"Backward[0-9]*$", "", node_name)


class CopySlices(Node):
    """The base's ``grad_fn`` after an in-place operation on one of its views, as in PyTorch.

    ``fn`` is the in-place operation's own node. The base's gradient passes unchanged where the
    view does not lie; where it lies, it goes through ``fn``. ``next_functions`` are the base's
    previous ``grad_fn`` and then ``fn``'s other inputs.

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> y = x * 1
    >>> y[1:].mul_(10)
    tensor([20., 30.], grad_fn=<AsStridedBackward0>)
    >>> y.grad_fn
    <CopySlices object at ...>
    >>> y.sum().backward()
    >>> x.grad
    tensor([ 1., 10., 10.])
    """

    _name = "CopySlices"

    def __init__(self, base: Tensor, fn: Node, steps: tuple):
        super().__init__((gradient_edge(base), *fn.next_functions[1:]))
        self.fn, self.steps = fn, ViewSteps(steps)
        self.base_data = base._data  # to give fn its saved result as a view of the base again
        self.input_meta = ((base._data.shape, base._data.dtype), *fn.input_meta[1:])  # for drawings

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        # PyTorch's formula, with minigrad's own operations (so create_graph works): the base's
        # gradient, with the part where the view lies replaced by what fn makes of that part.
        result = grad_outputs[0].clone()
        grad_slice = as_strided_op(result, steps=self.steps)
        grads = self.fn.apply([grad_slice.clone()], create_graph, wanted and (True, *wanted[1:]))
        if self.next_functions[0][0] is None or grads[0] is None:  # the base needs none, or fn gave
            return (None, *grads[1:])  # None (a custom Function's backward may): so does the base
        grad_slice.copy_(grads[0])
        return (result, *grads[1:])

    def view_result(self, counter) -> Tensor:
        """fn's saved result: the view it changed, taken again from the base this node made."""
        base = Tensor._make(self.base_data, requires_grad=True, grad_fn=self)
        base._version_counter = counter
        return view_again(base, self.steps)

    def release(self) -> None:
        self.fn.release()

    @property
    def is_freed(self) -> bool:
        return self.fn.is_freed


class _JoinViews(Node):
    """The node behind the views that ``unbind``, ``split`` and ``chunk`` return: its backward
    joins their gradients again along ``dim`` (with ``join``: ``stack`` or ``cat``), zeros
    standing in for the views that got none, as PyTorch's ``unbind_backward``/``split_backward``."""

    join = staticmethod(cat)

    def __init__(self, input: Tensor, params: dict, shapes: list):
        super().__init__((gradient_edge(input),))
        self.params, self.shapes = params, shapes
        self.input_meta = ((input._data.shape, input._data.dtype),)  # for drawings

    @property
    def _n_outputs(self) -> int:
        return len(self.shapes)

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        grads = list(grad_outputs) + [None] * (self._n_outputs - len(grad_outputs))
        like = next(g for g in grads if g is not None)
        grads = [like.new_zeros(shape) if g is None else g for g, shape in zip(grads, self.shapes)]
        return (self.join(grads, self.params["dim"]),)

    def __getattr__(self, attr: str):
        # grad_fn._saved_dim, ._saved_split_size, ... as in PyTorch
        params = self.__dict__.get("params", {})
        if attr.startswith("_saved_") and attr[len("_saved_") :] in params:
            return params[attr[len("_saved_") :]]
        raise AttributeError(f"'{self._name}' object has no attribute '{attr}'")


class UnbindBackward0(_JoinViews):
    _name = "UnbindBackward0"
    join = staticmethod(stack)


class SplitBackward0(_JoinViews):
    _name = "SplitBackward0"


class SplitWithSizesBackward0(_JoinViews):
    _name = "SplitWithSizesBackward0"


class UnsafeSplitBackward0(_JoinViews):
    _name = "UnsafeSplitBackward0"


class _Results(Node):
    """The one node PyTorch records for all the results of an operation (var_mean, aminmax, the
    linalg decompositions: output 0, output 1 ...). ``rule(grads, **saved,
    **params)`` gets each result's gradient (None for one that got none) and returns one gradient
    per input (None where none flows). It saves the inputs named in ``saves`` and the results
    named in ``results`` (by output number; None: not saved), so an in-place change of any of them
    fails backward, as in PyTorch."""

    inputs: tuple = ("self",)  # the input names, in PyTorch's order
    saves: tuple = ("self",)
    results: tuple = ()
    rule = None

    def __init__(self, inputs: tuple, outputs: tuple, params: dict):
        super().__init__(tuple(gradient_edge(t) for t in inputs))
        self.needs_input_grad = tuple(t.requires_grad for t in inputs)
        self.params, self.outputs = params, len(outputs)
        self.input_meta = tuple((t._data.shape, t._data.dtype) for t in inputs)  # (for _fit and drawings)
        self.saved = {name: SavedTensor(t) for name, t in zip(self.inputs, inputs) if name in self.saves}
        for i, out in enumerate(outputs):
            out._requires_grad, out._grad_fn, out._output_nr = True, self, i
            if i < len(self.results) and self.results[i]:
                self.saved[self.results[i]] = SavedTensor(out, is_output=True)

    @classmethod
    def record(cls, inputs: tuple, forward, params: dict, differentiable: int) -> tuple:
        """``forward(xp, *arrays, **params)``'s arrays as tensors; the first ``differentiable``
        of them are recorded when an input needs a gradient."""
        device = backend.common_device([t._data for t in inputs], cls._name)
        arrays = backend.compute(device, forward, [t._data for t in inputs], params)
        outputs = tuple(Tensor._make(a) for a in arrays)
        if is_grad_enabled() and builtins.any(t.requires_grad for t in inputs) and outputs[0].dtype.is_floating_point:
            cls(inputs, outputs[:differentiable], params)
        return outputs

    @property
    def _n_outputs(self) -> int:
        return self.outputs

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        grads = list(grad_outputs) + [None] * (self.outputs - len(grad_outputs))
        saved = {name: s.unpack(self) for name, s in self.saved.items()}
        found = type(self).rule(grads, **saved, **self.params)
        return tuple(
            _fit(g, meta) if need and g is not None else None
            for g, meta, need in zip(found, self.input_meta, self.needs_input_grad)
        )

    def unpack_saved(self) -> None:
        for s in self.saved.values():
            s.unpack(self)

    def release(self) -> None:
        for s in self.saved.values():
            s.release()

    @property
    def is_freed(self) -> bool:
        return builtins.any(s.counter is None for s in self.saved.values())

    def __getattr__(self, attr: str):
        # grad_fn._saved_A, ._saved_U ... as in PyTorch
        name = attr[len("_saved_") :]
        if attr.startswith("_saved_") and name in self.__dict__.get("saved", {}):
            return self.saved[name].unpack(self)
        if attr.startswith("_saved_") and name in self.__dict__.get("params", {}):
            return self.params[name]
        raise AttributeError(f"'{self._name}' object has no attribute '{attr}'")


def _results_node(name: str, rule, inputs=("self",), saves=("self",), results=()) -> type:
    """A :class:`_Results` node class named ``name`` with its ``rule``."""
    return type(
        name,
        (_Results,),
        {"_name": name, "rule": staticmethod(rule), "inputs": inputs, "saves": saves, "results": results},
    )


VarMeanBackward0 = _results_node("VarMeanBackward0", lambda grads, self, **params: (_var_mean_backward(grads, self, **params),))
StdMeanBackward0 = _results_node(
    "StdMeanBackward0",
    lambda grads, self, result0, **params: (_var_mean_backward(grads, self, std=result0, **params),),
    results=("result0",),
)
AminmaxBackward0 = _results_node(
    "AminmaxBackward0", lambda grads, self, **params: (_aminmax_backward(grads, self, **params),), results=("min", "max")
)


# ----------------------------------------------------------------------------------------------
# --- scatter and index family ---
# scatter(reduce=), scatter_reduce, index_put, index_reduce, masked_scatter, put, fill_diagonal_,
# select/slice/diagonal_scatter, split_with_sizes, hsplit/vsplit/dsplit and unfold. The reducing
# ops differentiate as PyTorch's scatter_reduce_backward/index_reduce_backward do (ties of amax
# and amin share the gradient evenly).
# ----------------------------------------------------------------------------------------------

_REDUCE_UFUNCS = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum"}


def _reduce_at(xp, a, key, values, reduce, include_self):
    """A copy of ``a`` with ``values`` reduced into the places ``key`` points to (repeated places
    reduce together); without ``include_self`` the old values there take no part. A mean divides
    by how many took part (rounding down for integers, as PyTorch)."""
    if type(a) is not backend.CPU_ARRAY:  # CuPy has no multiply.at/maximum.at for every dtype: on the host
        host = lambda v: backend.to_numpy(v) if backend.is_array(v) else v  # noqa: E731
        out = _reduce_at(backend.xp(backend.CPU), host(a), tuple(host(k) for k in key), host(values), reduce, include_self)
        return backend.place(out, backend.device_of(a))
    out = a.copy()
    if not include_self:
        out[key] = _reduce_identity(xp, a.dtype, reduce)
    getattr(xp, _REDUCE_UFUNCS[reduce]).at(out, key, values)
    if reduce != "mean":
        return out
    count = xp.full(a.shape, int(include_self), dtype="int64")
    xp.add.at(count, key, 1)
    count = xp.maximum(count, 1)
    return out // count.astype(out.dtype) if out.dtype.kind in "iu" else out / count.astype(out.dtype)


def _reduce_identity(xp, dtype, reduce):
    """The value that takes no part in ``reduce`` (the start of a place without its old value)."""
    if reduce in ("sum", "mean", "prod"):
        return int(reduce == "prod")
    low = reduce == "amax"
    if dtype.kind == "b":
        return not low
    if dtype.kind == "f":
        return -math.inf if low else math.inf
    return xp.iinfo(dtype).min if low else xp.iinfo(dtype).max


def _scatter_reduced(xp, a, dim, index, src, reduce, include_self):
    if not index.size:
        return a.copy()
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # (PyTorch's kernel takes these too)
    shape = a.shape
    if not a.ndim or not index.ndim:  # a 0-d tensor or index is one element along dim 0
        a, index, src = a.reshape(-1), index.reshape(-1), src.reshape(-1)
    values = src[tuple(slice(0, n) for n in index.shape)]
    return _reduce_at(xp, a, _positions(xp, index, dim), values, reduce, include_self).reshape(shape)


def _index_reduced(xp, a, dim, index, source, reduce, include_self):
    if not index.size:
        return a.copy()
    target = a if a.ndim else a.reshape(1)
    values = source.reshape(target.shape[:dim] + (index.size,) + target.shape[dim + 1 :])
    return _reduce_at(xp, target, (slice(None),) * dim + (index,), values, reduce, include_self).reshape(a.shape)


def _scatter_reduced_by(xp, a, dim, index, src, reduce):
    """scatter(..., reduce='add'|'multiply'), with a tensor or a number ``src``."""
    if not backend.is_array(src):
        src = xp.full(index.shape, src, dtype=a.dtype)  # cast first: an int out of range wraps, as in PyTorch
    return _scatter_reduced(xp, a, dim, index, src, {"add": "sum", "multiply": "prod"}[reduce], True)


def _index_put_values(xp, a, indices, values, accumulate):
    if not accumulate:
        return _put(a, indices, values)
    out = _torch_clone(a)
    if not _empty_result(a.shape, indices):
        backend.scatter_add(out, indices, values)  # repeated places add up
    return out


def _put_flat(xp, a, index, source, accumulate):
    """put: ``source`` written (or added) at the row-major places ``index`` of a clone of ``a``."""
    out = _torch_clone(a)
    target = out if out.ndim else out.reshape(1)  # (a view of the copy)
    places = xp.unravel_index(index, target.shape)  # (a flat view would be a copy unless row-major)
    if accumulate:
        backend.scatter_add(target, places, source.reshape(-1))
    else:
        target[places] = source.reshape(-1)
    return out


def _masked_scattered(xp, a, mask, source):
    shape = xp.broadcast_shapes(a.shape, mask.shape)
    out = xp.broadcast_to(a, shape).copy()
    mask = xp.broadcast_to(mask, shape)
    out[mask] = source.reshape(-1)[: int(mask.sum())]  # in row-major order, as PyTorch
    return out


def _diagonal_put(xp, a, src, offset, dim1, dim2):
    out = _torch_clone(a)
    backend.diagonal(out, offset, dim1, dim2)[...] = src
    return out


def _unfolded(xp, a, dimension, size, step):
    """The windows of ``size`` every ``step`` along ``dimension``, as a view: that dim counts the
    windows, and a new last dim runs along each window."""
    if not a.ndim:
        return a.reshape(1)
    count = (a.shape[dimension] - size) // step + 1
    shape = a.shape[:dimension] + (count,) + a.shape[dimension + 1 :] + (size,)
    strides = a.strides[:dimension] + (a.strides[dimension] * step,) + a.strides[dimension + 1 :] + (a.strides[dimension],)
    flat, start = _storage(xp, a)
    if not xp.may_share_memory(flat, a):  # (memory NumPy did not lay out itself: see _storage)
        return xp.lib.stride_tricks.as_strided(a, shape, strides)
    # a view of a's memory block, not of NumPy's as_strided wrapper: it knows its storage offset
    return backend.view_at(flat, start, shape, tuple(s // a.itemsize for s in strides))


def _folded(xp, grad, shape, dimension, size, step):
    """unfold's gradient: each window's values added back where the window lay."""
    if not len(shape):
        return grad.reshape(()).copy()
    out = xp.zeros(shape, dtype=grad.dtype)
    starts = xp.arange(grad.shape[dimension]) * step
    places = starts[:, None] + xp.arange(size)[None, :]  # (windows, size)
    backend.scatter_add(xp.moveaxis(out, dimension, 0), (places,), xp.moveaxis(grad, (dimension, grad.ndim - 1), (0, 1)))
    return out


class _Along:
    """How the reducing ops read and write along ``dim``: scatter_reduce where ``index`` points
    (gather/scatter_add), index_reduce at the slices ``index`` names (index_select/index_add).
    The gradients of both are one formula written with these (PyTorch's are two alike)."""

    def __init__(self, dim: int, index, by_slices: bool):
        self.dim, self.index, self.by_slices = dim, index, by_slices

    def read(self, t: Tensor) -> Tensor:
        if self.by_slices:
            return index_select_op(t, dim=self.dim, index=self.index, self_sym_sizes=tuple(t.shape))
        return gather_op(t, dim=self.dim, index=self.index, sparse_grad=False)

    def add(self, t: Tensor, values: Tensor) -> Tensor:
        if self.by_slices:
            return index_add_op(t, values, dim=self.dim, index=self.index, alpha=1)
        return scatter_add_op(t, values, dim=self.dim, index=self.index)

    def zero(self, t: Tensor) -> Tensor:
        if self.by_slices:
            return index_fill_op(t, dim=self.dim, index=self.index, value=0)
        return scatter_value_op(t, dim=self.dim, index=self.index, value=0)

    def reduce(self, t: Tensor, values: Tensor, reduce: str, include_self: bool) -> Tensor:
        op = index_reduce_op if self.by_slices else scatter_reduce_op
        return op(t, values, dim=self.dim, index=self.index, reduce=reduce, include_self=include_self)


def _count_along(grad: Tensor, src: Tensor, along: _Along, include_self: bool) -> Tensor:
    """How many values each place of a mean took (at least 1), as a constant."""
    start = (ones_like_tensor if include_self else zeros_like_tensor)(grad)
    count = along.add(start, ones_like_tensor(src))
    return count.masked_fill(count == 0, 1)


def _check_backward_reduce(reduce: str, along: _Along | None = None, include_self: bool = True) -> None:
    """PyTorch's backward of scatter_reduce refuses the 'max' and 'min' its forward took; that
    of index_reduce without include_self refuses an int32 index (its index_fill takes int64)."""
    if reduce in ("max", "min"):
        raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {reduce}.")
    if along is not None and along.by_slices and not include_self and along.index.dtype != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")


def _reduced_self_grad(grad, self, src, result, reduce, include_self, along: _Along) -> Tensor:
    """The gradient of scatter_reduce/index_reduce for ``self`` (PyTorch's formula)."""
    _check_backward_reduce(reduce, along, include_self)
    if not along.by_slices and reduce in ("prod", "amax", "amin") and tuple(along.index.shape) != tuple(src.shape):
        _broadcast_shape(src.shape, along.index.shape)  # PyTorch's one formula for both mixes them: it may raise
    if reduce == "sum":
        out = grad
    elif reduce == "mean":
        out = grad / _count_along(grad, src, along, include_self)
    elif reduce == "prod":  # the product of the others, also where self is 0
        masked = self.masked_fill(self == 0, 1)
        out = grad * along.reduce(masked, src, reduce, include_self) / masked
    else:  # amax/amin: ties share the gradient evenly
        out = (self == result) * (grad / _ties_along(self, src, result, along))
    return out if include_self else along.zero(out)


def _reduced_src_grad(grad, self, src, result, reduce, include_self, along: _Along, node: str) -> Tensor:
    """The gradient of scatter_reduce/index_reduce for ``src`` (PyTorch's formula)."""
    _check_backward_reduce(reduce, along, include_self)
    if not along.by_slices and tuple(along.index.shape) != tuple(src.shape):
        # PyTorch's formulas then mix src with index-shaped values: they broadcast or raise
        if reduce in ("sum", "mean"):
            _check_grad_shape(node, along.index.shape, src.shape)
        else:
            _check_grad_shape(node, _broadcast_shape(src.shape, along.index.shape), src.shape)
    if reduce == "sum":
        return along.read(grad)
    if reduce == "mean":
        return along.read(grad) / along.read(_count_along(grad, src, along, include_self))
    if reduce == "prod":
        return _prod_src_grad(grad, self, src, result, include_self, along)
    return (src == along.read(result)) * along.read(grad / _ties_along(self, src, result, along))


def _ties_along(self, src, result, along: _Along) -> Tensor:
    """How many values equal each place's max (min): self's own and the src values reduced there."""
    dtype = self.dtype
    return along.add((self == result).to(dtype), (src == along.read(result)).to(dtype))


def _prod_src_grad(grad, self, src, result, include_self, along: _Along) -> Tensor:
    """A product's gradient for each src value: the product of the others at its place. A single
    zero there is left out of the product instead of divided by; with two or more zeros at one
    place, this gradient cannot be differentiated again (PyTorch's DelayedError)."""
    zero = src == 0
    zeros_there = along.read(along.add(zeros_like_tensor(self), zero.to(self.dtype)))
    single = logical_and(zero, zeros_there == 1)
    without_it = along.reduce(self, src.masked_fill(single, 1), "prod", include_self)
    out = where(single, along.read(grad * without_it), along.read(grad * result) / src.masked_fill(zero, 1))
    if bool((zeros_there > 1).any()):
        name, what = ("index_reduce", "source") if along.by_slices else ("scatter_reduce", "src")
        message = f"{name}(): Double backward is unsupported for {what} when >1 zeros in {what} are scattered to the same position in self"
        return delayed_error_op(out, message=message)
    return out


def _blank(like: Tensor, shape) -> Tensor:
    """Zeros of ``shape`` in ``like``'s dtype and device (a constant)."""
    with backend.on(like.device):
        return Tensor._make(backend.xp(like.device).zeros(tuple(shape), dtype=like._data.dtype))


def _raise(error: Exception):
    raise error


def _masked_scatter_source_grad(grad: Tensor, mask, source_sym_sizes) -> Tensor:
    """The gradient of masked_scatter's source: the gradient where the mask is True, in order,
    then zeros for the source values the mask did not take."""
    taken = masked_select_op(grad, mask=mask)
    rest = math.prod(source_sym_sizes) - taken.numel()
    if rest > 0:
        taken = cat([taken, _blank(grad, (rest,))])
    return taken.view(source_sym_sizes)


scatter_reduce_op = Op("ScatterReduceBackward0", lambda xp, self, src, *, dim, index, reduce, include_self: _scatter_reduced(xp, self, dim, index, src, reduce, include_self),
                       self=lambda grad, self, src, result, dim, index, reduce, include_self: _reduced_self_grad(grad, self, src, result, reduce, include_self, _Along(dim, index, False)),
                       src=lambda grad, self, src, result, dim, index, reduce, include_self: _reduced_src_grad(grad, self, src, result, reduce, include_self, _Along(dim, index, False), "ScatterReduceBackward0"))
index_reduce_op = Op("IndexReduceBackward0", lambda xp, self, source, *, dim, index, reduce, include_self: _index_reduced(xp, self, dim, index, source, reduce, include_self),
                     self=lambda grad, self, source, result, dim, index, reduce, include_self: _reduced_self_grad(grad, self, source, result, reduce, include_self, _Along(dim, index, True)),
                     source=lambda grad, self, source, result, dim, index, reduce, include_self: _reduced_src_grad(grad, self, source, result, reduce, include_self, _Along(dim, index, True), "IndexReduceBackward0"))
# scatter(reduce='add'|'multiply') is PyTorch's deprecated form, which it cannot differentiate.
scatter_reduce_by_op = Op("NotImplemented", lambda xp, self, src, *, dim, index, reduce: _scatter_reduced_by(xp, self, dim, index, src, reduce),
                          self=lambda grad: _no_derivative("scatter"), src=lambda grad: _no_derivative("scatter"))
scatter_value_reduce_by_op = Op("NotImplemented", lambda xp, self, *, dim, index, value, reduce: _scatter_reduced_by(xp, self, dim, index, value, reduce),
                                self=lambda grad: _no_derivative("scatter"))
# A gradient that cannot be differentiated again: the node (PyTorch's DelayedError) raises.
delayed_error_op = Op("Error", lambda xp, self, *, message: self.copy(),
                      self=lambda grad, message: _raise(RuntimeError(message)))
# index_put(x, indices, v): v written (or added, with accumulate) at the advanced indices.
index_put_values_op = Op("IndexPutBackward0", lambda xp, self, values, *, indices, accumulate: _index_put_values(xp, self, indices, values, accumulate),
                         self=lambda grad, indices, accumulate: grad if accumulate else grad * _mask_out(grad, indices),
                         values=lambda grad, indices: index_op(grad, key=indices))
masked_scatter_op = Op("MaskedScatterBackward0", lambda xp, self, source, *, mask, source_sym_sizes: _masked_scattered(xp, self, mask, source),
                       self=lambda grad, mask: masked_fill_op(grad, mask=mask, value=0),
                       source=lambda grad, mask, source_sym_sizes: _masked_scatter_source_grad(grad, mask, source_sym_sizes))
put_op = Op("PutBackward0", lambda xp, self, source, *, index, accumulate: _put_flat(xp, self, index, source, accumulate),
            self=lambda grad, index, accumulate, source_shape: grad if accumulate else put_op(grad, _blank(grad, source_shape), index=index, accumulate=False),
            source=lambda grad, index, source_shape: take_op(grad, index=index).reshape(source_shape))
# select_scatter, slice_scatter, diagonal_scatter: a copy with src written into that view. The
# gradient there goes to src (the view of grad); self's is grad with zeros written there.
select_scatter_op = Op("SelectScatterBackward0", lambda xp, self, src, *, dim, index: _put(self, (slice(None),) * dim + (index,), src),
                       self=lambda grad, src_shape, dim, index: select_scatter_op(grad, _blank(grad, src_shape), dim=dim, index=index),
                       src=lambda grad, dim, index: select_op(grad, key=(slice(None),) * dim + (index,)))
slice_scatter_op = Op("SliceScatterBackward0", lambda xp, self, src, *, dim, start, end, step: _put(self, (slice(None),) * dim + (slice(start, end, step),), src),
                      self=lambda grad, src_shape, dim, start, end, step: slice_scatter_op(grad, _blank(grad, src_shape), dim=dim, start=start, end=end, step=step),
                      src=lambda grad, dim, start, end, step: slice_op(grad, key=(slice(None),) * dim + (slice(start, end, step),)))
diagonal_scatter_op = Op("DiagonalScatterBackward0", lambda xp, self, src, *, offset, dim1, dim2: _diagonal_put(xp, self, src, offset, dim1, dim2),
                         self=lambda grad, src_shape, offset, dim1, dim2: diagonal_scatter_op(grad, _blank(grad, src_shape), offset=offset, dim1=dim1, dim2=dim2),
                         src=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))
# unfold is a view of overlapping windows; its gradient adds each window back where it lay.
unfold_op = Op("UnfoldBackward0", lambda xp, self, *, dimension, size, step, self_sym_sizes: _unfolded(xp, self, dimension, size, step),
               view=True, self=lambda grad, dimension, size, step, self_sym_sizes: unfold_backward_op(grad, shape=self_sym_sizes, dimension=dimension, size=size, step=step))
unfold_backward_op = Op("UnfoldBackwardBackward0", lambda xp, grad_in, *, shape, dimension, size, step: _folded(xp, grad_in, shape, dimension, size, step),
                        grad_in=lambda grad, dimension, size, step, shape: unfold_op(grad, dimension=dimension, size=size, step=step, self_sym_sizes=tuple(shape)))


def _check_reduce(name: str, reduce, allowed: tuple) -> None:
    if reduce not in allowed:
        if name == "index_reduce":
            raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    """A copy of ``input`` with the values of ``src`` reduced (``'sum'``, ``'prod'``, ``'mean'``,
    ``'amax'``, ``'amin'``) into the places ``index`` points to along ``dim``, as scatter
    writes; ``include_self=False`` leaves ``input``'s own values there out of the reduction.

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, 2.0, 3.0])
    >>> x.scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5.0, 7.0, 1.0]), "amax")
    tensor([7., 2., 3.])
    >>> x.scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5.0, 7.0, 1.0]), "mean", include_self=False)
    tensor([6., 2., 1.])
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_reduce(): argument 'src' (position 3) must be Tensor, not {type(src).__name__}")
    dim = _check_index_along("scatter", input, dim, index, src, bounds=False)
    # (PyTorch's kernel also takes 'max' and 'min' for 'amax' and 'amin', but its backward does not)
    _check_reduce("scatter_reduce", {"max": "amax", "min": "amin"}.get(reduce, reduce), ("sum", "prod", "mean", "amax", "amin"))
    if not include_self:  # PyTorch first scatters the reduction's start value there (a check of the places)
        _check_index_along("scatter", input, dim, index, src)
    if reduce == "mean" and input.dtype is dtypes.bool:
        raise _no_kernel("scatter_gather_tensor_cpu_reduce_mean")
    _check_index_along("scatter", input, dim, index, src)  # (then its kernel's check of the places)
    _, (input, index, src) = _one_device("scatter_reduce", input, index, src)
    return scatter_reduce_op(input, src, dim=dim, index=_kept(index, input, src), reduce=reduce, include_self=bool(include_self))


def _scatter_reduce_by(input: Tensor, dim: int, index: Tensor, src, reduce: str) -> Tensor:
    """scatter's deprecated ``reduce=`` ('add' or 'multiply'), which PyTorch cannot differentiate."""
    if reduce not in ("add", "multiply"):
        _check_index_along("scatter", input, dim, index, src if isinstance(src, Tensor) else None, bounds=False)  # (PyTorch's order)
        raise RuntimeError("reduce argument must be either add or multiply.")
    if isinstance(src, Tensor):
        _warn.warn(
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
            "PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
            UserWarning,
        )
        dim = _check_index_along("scatter", input, dim, index, src)
        _, (input, index, src) = _one_device("scatter", input, index, src)
        return scatter_reduce_by_op(input, src, dim=dim, index=_kept(index, input, src), reduce=reduce)
    if not isinstance(src, Number):
        raise TypeError(f"scatter(): argument 'value' must be Number, not {type(src).__name__}")
    dim = _check_index_along("scatter", input, dim, index)
    _, (input, index) = _one_device("scatter", input, index)
    return scatter_value_reduce_by_op(input, dim=dim, index=_kept(index, input), value=src, reduce=reduce)


def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    """A copy of ``input`` with the slices of ``source`` along ``dim`` reduced (``'prod'``,
    ``'mean'``, ``'amax'``, ``'amin'``) into the slices ``index`` names: ``index_reduce(x, 1, i,
    s, 'prod')`` multiplies ``x[:, i[k]]`` by ``s[:, k]``.

    >>> import minigrad as torch
    >>> torch.ones(2, 3).index_reduce(1, torch.tensor([2, 0, 2]), torch.full((2, 3), 2.0), "prod")
    tensor([[2., 1., 4.],
            [2., 1., 4.]])
    """
    if not isinstance(source, Tensor):
        raise TypeError(f"index_reduce(): argument 'source' (position 3) must be Tensor, not {type(source).__name__}")
    if not isinstance(index, Tensor):
        raise TypeError(f"index_reduce(): argument 'index' (position 2) must be Tensor, not {type(index).__name__}")
    _check_reduce("index_reduce", reduce, ("prod", "mean", "amax", "amin"))
    dim = _check_index_source("index_reduce", input, dim, index, source)
    if input.dtype is dtypes.bool:  # PyTorch's CPU kernels that have no bool version
        if not include_self:
            raise _no_kernel("index_reduce_func_exclude_input_init")
        if input.ndim <= 1:
            raise _no_kernel("index_func_")
    size = input.shape[dim] if input.ndim else 1
    if not include_self:  # PyTorch first fills those places (index_fill, which takes negative indices)
        message = lambda v: f"index {v} is out of bounds for dimension {dim} with size {size}"  # noqa: E731
        _check_in_range(index, size, message, low=-size, error=IndexError)
    _check_in_range(index, size, lambda v: "index out of range in self", error=IndexError)
    if input.dtype is dtypes.bool and reduce == "mean" and index.numel():
        raise _no_kernel("div_floor_cpu")
    _, (input, index, source) = _one_device("index_reduce", input, index, source)
    at = _kept(index, input, source).reshape(-1)
    return index_reduce_op(input, source, dim=dim, index=at, reduce=reduce, include_self=bool(include_self))


def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` written at ``input[indices]`` (``indices`` a tuple of
    index tensors, one per leading dim, or bool masks); with ``accumulate=True`` they are added,
    repeated places adding up.

    >>> import minigrad as torch
    >>> torch.zeros(4).index_put((torch.tensor([0, 2, 0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
    tensor([4., 0., 2., 0.])
    """
    return _index_put(input, indices, values, accumulate, out_of_place=True)


def _index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False, out_of_place: bool = False) -> Tensor:
    """index_put, and index_put_'s step (``out_of_place=False``: an integer tensor may then take a
    value that requires grad, which PyTorch refuses only for a new result)."""
    if not isinstance(indices, tuple | list):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not {type(indices).__name__}")
    for i, k in enumerate(indices):
        if not isinstance(k, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(k).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    byte_mask = _byte_masks(tuple(indices))
    key = _index_key(input, tuple(indices))
    _check_index_dtypes(key)
    key = tuple(backend.xp(input.device).asarray(k) if isinstance(k, int) else k for k in key)  # a 0-d index stays an index tensor
    if len(key) > input.ndim:  # (a mask counts once here)
        raise IndexError(f"too many indices for tensor of dimension {input.ndim} (got {len(key)})")
    _check_masks(key, input.shape, past_end=True)
    # PyTorch's order: a masked fill (one mask, a one-element value, no accumulate) converts the
    # value; else the indices broadcast, the value's shape, its dtype, then (where something is
    # written) the places
    masked_fill = not accumulate and _fills_masked(key, values, values.device.type == "cpu")
    if masked_fill and byte_mask:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    _check_index_shapes(key)
    used = builtins.sum(k.ndim if k.dtype == bool else 1 for k in key)
    if used > input.ndim:  # PyTorch asks for the size of a dim past the end
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.ndim}, {input.ndim - 1}], but got {input.ndim})")
    _advanced_shape(input.shape, key, check_empty_dims=True)
    if not masked_fill:
        _check_index_put_shape(input, key, values.shape)
        if values.dtype is not input.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{input.dtype._legacy_name} for the destination and {values.dtype._legacy_name} for the source."
            )
    if not _empty_result(input.shape, key, check_empty_dims=True):
        _check_places(key, input.shape)
    if out_of_place:
        _check_differentiable_result(input, values)
    _, (input, values) = _one_device("index_put", input, values)
    key = tuple(_kept(Tensor._make(k), input, values) for k in key)
    return index_put_values_op(input, values, indices=key, accumulate=bool(accumulate), dtype=input.dtype)


def _check_differentiable_result(input: Tensor, value) -> None:
    """PyTorch's error for an out-of-place op whose integer (or bool) result would need a
    gradient: ``value`` (a tensor written into ``input``'s copy) requires grad."""
    if (
        isinstance(value, Tensor)
        and value.requires_grad
        and is_grad_enabled()
        and not input.dtype.is_floating_point
        and not input.requires_grad
    ):
        raise RuntimeError(f"Autograd not support dtype: {input.dtype._legacy_name}")


def index_put_(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """:func:`index_put` in place."""
    return input.index_put_(indices, values, accumulate)


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` (broadcast with the bool ``mask``) with the values of ``source``, in
    order, written where ``mask`` is True.

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.arange(1.0, 7.0))
    tensor([[1., 0., 2.],
            [3., 0., 4.]])
    """
    return _masked_scatter(input, mask, source)


def _masked_scatter(input: Tensor, mask: Tensor, source: Tensor, in_place: bool = False) -> Tensor:
    """masked_scatter, and masked_scatter_'s step (``in_place``: the mask expands to ``input``'s
    shape). PyTorch's order of checks: the shapes broadcast (out of place), the dtypes, the mask
    expands (in place), the mask's dtype, then the count of source values."""
    _check_tensor(input, "masked_scatter")
    if not isinstance(source, Tensor):
        raise TypeError(f"masked_scatter(): argument 'source' (position 2) must be Tensor, not {type(source).__name__}")
    if not isinstance(mask, Tensor):
        raise TypeError(f"masked_scatter(): argument 'mask' (position 1) must be Tensor, not {type(mask).__name__}")
    if not in_place:
        _broadcast_shape(mask.shape, input.shape)
    if source.dtype is not input.dtype:
        raise RuntimeError(
            f"masked_scatter: expected self and source to have same dtypes but got{input.dtype._legacy_name} and "
            f"{source.dtype._legacy_name}"
        )
    if in_place and tuple(mask.shape) != tuple(input.shape):
        expand(mask, tuple(input.shape))  # PyTorch expands the mask to the shape changed in place: its errors
    if mask.dtype is not dtypes.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype._legacy_name}")
    shape = _broadcast_shape(input.shape, mask.shape)
    if source.numel() < int(backend.xp(mask.device).broadcast_to(mask._data, shape).sum()):
        raise RuntimeError("Number of elements of source < number of ones in mask")
    _, (input, mask, source) = _one_device("masked_scatter", input, mask, source)
    return masked_scatter_op(input, source, mask=_kept(mask, input, source), source_sym_sizes=tuple(source.shape))


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with the values of ``source`` written (or, with ``accumulate``, added)
    at the places ``index`` names in the flattened ``input`` (negative ones from the end).

    >>> import minigrad as torch
    >>> torch.zeros(2, 2).put(torch.tensor([0, -1]), torch.tensor([5.0, 6.0]))
    tensor([[5., 0.],
            [0., 6.]])
    """
    _check_tensor(input, "put")
    for name, t in (("index", index), ("source", source)):
        if not isinstance(t, Tensor):
            raise TypeError(f"put(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if index.dtype is not dtypes.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {index.dtype._legacy_name}")
    if source.dtype is not input.dtype:
        raise RuntimeError(
            f"put_(): self and source expected to have the same dtype, but got self.dtype = {input.dtype._legacy_name} "
            f"and source.dtype = {source.dtype._legacy_name}"
        )
    if source.numel() != index.numel():
        raise IndexError(
            f"put_(): Expected source and index to have the same number of elements, but got source.numel() = "
            f"{source.numel()}, index.numel() = {index.numel()}"
        )
    size = input.numel()
    if index.numel() and not size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    message = lambda v: f"out of range: tried to access index {v} on a tensor of {size} elements."  # noqa: E731
    _check_in_range(index, size, message, low=-size, error=IndexError)
    _, (input, index, source) = _one_device("put", input, index, source)
    at = index._data.reshape(-1) % builtins.max(size, 1)  # (a new array: the node keeps it, not the caller's index)
    return put_op(input, source, index=at, accumulate=bool(accumulate))


def _fill_diagonal_(input: Tensor, value, wrap: bool = False) -> Tensor:
    """Tensor.fill_diagonal_: ``value`` on the main diagonal (of a matrix, or of a tensor whose
    dims are all equal), each step an in-place fill of a view (CopySlices), as in PyTorch; with
    ``wrap``, a tall matrix's diagonal starts again every ``columns + 1`` rows."""
    if input.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if input.ndim > 2 and builtins.any(n != input.shape[0] for n in input.shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    if isinstance(value, Tensor):
        value = value.item()
    diag = input.diagonal()
    for _ in range(input.ndim - 2):
        diag = diag.diagonal(0, 0, -1)
    diag.fill_(value)
    height, width = input.shape[:2]
    if wrap and input.ndim == 2 and height > width + 1:
        # the places (width + 1) * k of the flattened matrix after the first block, as PyTorch's
        # as_strided view (with a layout that is not row-major, row by row, block by block)
        if input.is_contiguous():
            input.view(-1)[width * (width + 1) :: width + 1].fill_(value)
        else:
            for start in range(width + 1, height, width + 1):
                input[start:].diagonal().fill_(value)
    return input


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` written into ``input.select(dim, index)``.

    >>> import minigrad as torch
    >>> torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 0)
    tensor([[1., 1.],
            [0., 0.]])
    """
    src = _scatter_src("select_scatter", input, src)
    if not input.ndim:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at dimension {dim}")
    index %= size
    _check_scatter_size(src, input._data[(slice(None),) * dim + (index,)].shape)
    return select_scatter_op(input, src, dim=dim, index=index, dtype=input.dtype)


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written into the slice ``start:end:step`` along ``dim``.

    >>> import minigrad as torch
    >>> torch.slice_scatter(torch.zeros(2, 4), torch.ones(2, 2), 1, start=1, end=3)
    tensor([[0., 1., 1., 0.],
            [0., 1., 1., 0.]])
    """
    src = _scatter_src("slice_scatter", input, src)
    dim = _wrap_dim(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    _check_scatter_size(src, input._data[(slice(None),) * dim + (slice(start, end, step),)].shape)
    return slice_scatter_op(input, src, dim=dim, start=start, end=end, step=step, dtype=input.dtype)


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written into ``input.diagonal(offset, dim1, dim2)``.

    >>> import minigrad as torch
    >>> torch.diagonal_scatter(torch.zeros(2, 2), torch.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    src = _scatter_src("diagonal_scatter", input, src)
    dim1, dim2 = _diagonal_dims(input.ndim, dim1, dim2)
    _check_scatter_size(src, backend.diagonal(input._data, offset, dim1, dim2).shape)
    return diagonal_scatter_op(input, src, offset=offset, dim1=dim1, dim2=dim2, dtype=input.dtype)


def _scatter_src(name: str, input: Tensor, src) -> Tensor:
    _check_tensor(input, name)
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}(): argument 'src' (position 2) must be Tensor, not {type(src).__name__}")
    return src.to(input.device)


def _check_scatter_size(src: Tensor, shape: tuple) -> None:
    if tuple(src.shape) != tuple(shape):
        raise RuntimeError(
            f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, slice size = "
            f"{list(shape)}"
        )


def split_with_sizes(input: Tensor, split_sizes, dim: int = 0) -> tuple[Tensor, ...]:
    """``input`` cut along ``dim`` into views of the lengths ``split_sizes``, sharing one
    ``SplitWithSizesBackward0`` node.

    >>> import minigrad as torch
    >>> torch.arange(5).split_with_sizes([2, 3])
    (tensor([0, 1]), tensor([2, 3, 4]))
    """
    if not isinstance(split_sizes, list | tuple) or not builtins.all(type(s) is int for s in split_sizes):
        raise TypeError(
            f"split_with_sizes(): argument 'split_sizes' (position 1) must be tuple of ints, not {type(split_sizes).__name__}"
        )
    return split(input, list(split_sizes), dim)


def _split_at(name: str, dim: int, least: int, input: Tensor, indices_or_sections) -> tuple[Tensor, ...]:
    """hsplit, vsplit and dsplit: tensor_split along ``dim``, into equal sections only."""
    if input.ndim < least:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor with {input.ndim} dimensions!"
        )
    if len(indices_or_sections) == 1 and isinstance(indices_or_sections[0], list | tuple | int):
        indices_or_sections = indices_or_sections[0]
    if not isinstance(indices_or_sections, int | list | tuple) or isinstance(indices_or_sections, bool) or (
        not isinstance(indices_or_sections, int) and not builtins.all(type(i) is int for i in indices_or_sections)
    ):
        got = ", ".join(type(v).__name__ for v in (indices_or_sections if isinstance(indices_or_sections, tuple) else (indices_or_sections,)))
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, {got}), but expected one of: "
            "(Tensor input, int sections), (Tensor input, tuple of ints indices)"
        )
    if isinstance(indices_or_sections, int):
        size = input.shape[dim]
        if not indices_or_sections or size % indices_or_sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} is not "
                f"divisible by the split_size {indices_or_sections}!"
            )
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input: Tensor, *indices_or_sections) -> tuple[Tensor, ...]:
    """``input`` split into columns (dim 1; dim 0 of a vector): into equal sections, or before
    each of a list of indices (views, as :func:`tensor_split`).

    >>> import minigrad as torch
    >>> torch.hsplit(torch.arange(6).reshape(2, 3), [1])
    (tensor([[0],
            [3]]), tensor([[1, 2],
            [4, 5]]))
    """
    return _split_at("hsplit", 1 if input.ndim > 1 else 0, 1, input, indices_or_sections)


def vsplit(input: Tensor, *indices_or_sections) -> tuple[Tensor, ...]:
    """``input`` split into rows (dim 0) of a tensor of 2 or more dims, as :func:`hsplit`."""
    return _split_at("vsplit", 0, 2, input, indices_or_sections)


def dsplit(input: Tensor, *indices_or_sections) -> tuple[Tensor, ...]:
    """``input`` split along its depth (dim 2) of a tensor of 3 or more dims, as :func:`hsplit`."""
    return _split_at("dsplit", 2, 3, input, indices_or_sections)


def _unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Tensor.unfold: a view of the windows of ``size`` every ``step`` along ``dimension``."""
    dimension = _wrap_dim(dimension, input.ndim)
    length = input.shape[dimension] if input.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dimension} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return unfold_op(input, dimension=dimension, size=size, step=step, self_sym_sizes=tuple(input.shape))


# ----------------------------------------------------------------------------------------------
# Comparisons and logic: results are bool tensors, never part of the graph.
# ----------------------------------------------------------------------------------------------

def _compare(name: str, a, b) -> Tensor:
    if isinstance(a, Tensor) and (type(b) is float or type(b) is int) and a.dtype.is_floating_point:
        # x > 0, the common case: NumPy compares in x's dtype, as PyTorch does after promotion.
        with backend.on(a.device):
            return Tensor._make(getattr(backend.xp(a.device), name)(a._data, b))
    dtype = _operand_dtype((a, b))
    device = a.device if isinstance(a, Tensor) else b.device
    a, b = _as_tensor(a, dtype, device), _as_tensor(b, dtype, device)
    _broadcast_shape(a.shape, b.shape)
    device, (a, b) = _one_device(name, a, b)
    xp = backend.xp(device)
    target = backend.array_dtype(dtype)
    with backend.on(device):
        out = xp.asarray(getattr(xp, name)(a._data.astype(target, copy=False), b._data.astype(target, copy=False)))
    return Tensor._make(backend.elementwise_layout(out, [a._data, b._data]))


# The comparisons, each a bool tensor: torch.eq, ne, lt, le, gt, ge and the NumPy ufunc of each.
_COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}


def _comparison(name: str):
    """``torch.<name>(input, other)``: ``input`` compared with a tensor or a number, elementwise.
    A number first has no overload, as in PyTorch (``0 < x`` comes here as ``x > 0``)."""
    ufunc = _COMPARISONS[name]

    def compare(input, other) -> Tensor:
        if not isinstance(input, Tensor):
            raise _invalid_arguments(name, input, other)
        return _compare(ufunc, input, other)

    compare.__name__ = compare.__qualname__ = name
    compare.__doc__ = f"``input`` compared with ``other`` elementwise (NumPy's ``{ufunc}``): a bool tensor."
    return compare


eq, ne, lt, le, gt, ge = (_comparison(name) for name in _COMPARISONS)


def logical_and(input, other) -> Tensor:
    _check_tensors("logical_and", ("input", input), ("other", other))
    return _compare("logical_and", input, other)


def logical_or(input, other) -> Tensor:
    _check_tensors("logical_or", ("input", input), ("other", other))
    return _compare("logical_or", input, other)


def logical_xor(input: Tensor, other: Tensor) -> Tensor:
    """Whether exactly one of each pair of elements is non-zero (a bool tensor).

    >>> import minigrad as torch
    >>> torch.logical_xor(torch.tensor([True, True, False]), torch.tensor([1.0, 0.0, 0.0]))
    tensor([False,  True, False])
    """
    _check_tensors("logical_xor", ("input", input), ("other", other))
    return _compare("logical_xor", input, other)


def logical_not(input: Tensor) -> Tensor:
    with backend.on(input.device):
        return Tensor._make(backend.xp(input.device).logical_not(input._data))


def _broadcast_first(a, b) -> None:
    """PyTorch checks that two tensors broadcast before it looks for a kernel of their dtype."""
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.shape != b._data.shape:
        _broadcast_shape(a.shape, b.shape)


def _bitwise(name: str, a, b) -> Tensor:
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise _invalid_arguments(name, a, b)
    _broadcast_first(a, b)
    dtype = _operand_dtype((a, b))
    device = a.device if isinstance(a, Tensor) else b.device
    if dtype.is_floating_point:  # PyTorch's words: the kernel has no floating version
        raise NotImplementedError(f'"{name}_{device.type}" not implemented for \'{dtype._legacy_name}\'')
    a, b = _as_tensor(a, dtype, device), _as_tensor(b, dtype, device)
    _broadcast_shape(a.shape, b.shape)  # PyTorch's error when they do not broadcast
    device, (a, b) = _one_device(name, a, b)
    xp = backend.xp(device)
    target = backend.array_dtype(dtype)
    with backend.on(device):
        out = getattr(xp, name)(a._data.astype(target, copy=False), b._data.astype(target, copy=False))
    return Tensor._make(backend.elementwise_layout(out, [a._data, b._data]))


def any(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:  # noqa: A001 - PyTorch's name
    """Whether some element (along ``dim``, an int or a tuple) is non-zero: a bool tensor, or
    uint8 for a uint8 input, as in PyTorch. Never differentiable."""
    return _logical_reduction(input, dim, keepdim, "any")


def all(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:  # noqa: A001 - PyTorch's name
    """Whether every element (along ``dim``, an int or a tuple) is non-zero: a bool tensor, or
    uint8 for a uint8 input, as in PyTorch. Never differentiable."""
    return _logical_reduction(input, dim, keepdim, "all")


def _logical_reduction(input: Tensor, dim, keepdim: bool, name: str) -> Tensor:
    axis = _dims(dim, input.ndim)
    with backend.on(input.device):
        out = getattr(input._data.astype(bool), name)(axis=axis, keepdims=keepdim)
        if input._data.dtype == backend.array_dtype(dtypes.uint8):
            out = out.astype(input._data.dtype)
        return Tensor._make(_reduced(backend.xp(input.device), out))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    _check_close("allclose", input, other)
    device, (input, other) = _one_device("allclose", input, other)
    with backend.on(device):
        return bool(backend.xp(device).allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def equal(input: Tensor, other: Tensor) -> bool:
    return input.shape == other.shape and bool((input == other).all())


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    _check_close("isclose", input, other)
    device, (input, other) = _one_device("isclose", input, other)
    with backend.on(device):
        return Tensor._make(backend.xp(device).isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _check_close(name: str, input, other) -> None:
    """PyTorch's checks of isclose and allclose: two tensors of one dtype that broadcast."""
    _check_tensors(name, ("input", input), ("other", other))
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype._legacy_name} did not match {other.dtype._legacy_name}")
    _broadcast_shape(input.shape, other.shape)


def _elementwise_nograd(name: str):
    """A non-differentiable elementwise function (isnan, isinf, isfinite)."""

    def fn(input: Tensor) -> Tensor:
        return Tensor._make(xp_call(input, name))

    fn.__name__ = name
    return fn


def xp_call(input: Tensor, name: str):
    xp = backend.xp(input.device)
    with backend.on(input.device):
        return xp.asarray(getattr(xp, name)(input._data))


def floor(input: Tensor) -> Tensor:
    _no_bool_kernel(input, "floor_vml_cpu")
    return floor_op(input)


def ceil(input: Tensor) -> Tensor:
    _no_bool_kernel(input, "ceil_vml_cpu")
    return ceil_op(input)


def round(input: Tensor, *, decimals: int = _NOT_GIVEN) -> Tensor:  # noqa: A001
    """To the nearest integer (half to even), or to ``decimals`` places. As in PyTorch, integer
    tensors are rounded only without ``decimals`` (given, even 0, it is the other overload,
    ``RoundBackward1``, which has no integer kernel)."""
    if decimals is _NOT_GIVEN:
        _no_bool_kernel(input, "round_vml_cpu")
        return round_op(input)
    if not input.dtype.is_floating_point:
        kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
        raise _no_kernel(kernel, input.dtype)
    return round_decimals_op(input, decimals=decimals)


def trunc(input: Tensor) -> Tensor:
    _no_bool_kernel(input, "trunc_vml_cpu")
    return trunc_op(input)


isnan = _elementwise_nograd("isnan")
isinf = _elementwise_nograd("isinf")
isfinite = _elementwise_nograd("isfinite")


# ----------------------------------------------------------------------------------------------
# einsum: a composite of diagonal, unsqueeze, permute, sum, mul and bmm, laid out as PyTorch's.
# ----------------------------------------------------------------------------------------------


def einsum(equation: str | Tensor, *operands) -> Tensor:
    """Sums of products of the operands' elements, named by subscripts: ``'ij,jk->ik'`` is a
    matrix product, ``'ii->i'`` a diagonal, ``'...ij->...ji'`` a batch of transposes. The operands
    may also be given as one list. Without ``->`` the output holds the subscripts that appear once,
    in alphabetical order (after the ellipsis dims). Like PyTorch, it is a composite: it records
    diagonal, unsqueeze, permute, sum, mul and bmm nodes, so it differentiates twice.

    >>> import minigrad as torch
    >>> torch.einsum('ij,jk->ik', torch.tensor([[1., 2.]]), torch.tensor([[3.], [4.]]))
    tensor([[11.]])
    >>> torch.einsum('ii', torch.tensor([[1, 2], [3, 4]]))
    tensor(5)
    >>> torch.einsum(torch.tensor([[1, 2], [3, 4]]), [0, 0])  # the sublist form: 'AA'
    tensor(5)
    """
    if isinstance(equation, Tensor):  # the sublist form: operand, its subscripts (ints), ..., [output]
        equation, operands = _einsum_sublists((equation, *operands))
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not {type(equation).__name__}")
    while len(operands) == 1 and isinstance(operands[0], list | tuple):  # one list of operands (unpacked as PyTorch does)
        operands = tuple(operands[0])
    if not operands:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, or at least one operand and its "
            "subscripts list"
        )
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(t).__name__}")
    terms, output = _einsum_subscripts(equation, operands)
    # Every dim gets a label: a letter, or the ellipsis dim's place counted from the right (an int).
    sizes, aligned_terms, tensors = {}, [], []
    for n, (term, t) in enumerate(zip(terms, operands)):
        labels, current = _einsum_labels(term, t.ndim), []
        for label in labels:
            dim = len(current)  # this label's dim in t now (diagonals before it were taken)
            if label in current:  # a repeated subscript: take the diagonal, back where it first was
                first = current.index(label)
                if t.shape[dim] != t.shape[first]:
                    raise RuntimeError(
                        f"einsum(): subscript {label} is repeated for operand {n} but the sizes don't match, "
                        f"{t.shape[dim]} != {t.shape[first]}"
                    )
                t = movedim(diagonal(t, 0, first, dim), -1, first)
                continue
            current.append(label)
            _einsum_size(sizes, label, t.shape[dim], n, dim)
        aligned_terms.append(current)
        tensors.append(t)
    if output is None:  # implicit: the ellipsis dims, then the letters seen once, in order
        counts = collections.Counter(label for term in terms for label in term if label != ".")
        ellipsis = builtins.sorted((x for x in sizes if isinstance(x, int)), reverse=True)
        once = builtins.sorted(x for x in counts if isinstance(x, str) and counts[x] == 1)
        output = ellipsis + once
    else:
        covered = builtins.max([x + 1 for x in sizes if isinstance(x, int)], default=0)  # the ellipsis dims
        output = _einsum_labels(output, covered + len(output.replace("...", "")))
    # PyTorch's layout: the output's labels, then the summed ones (the ellipsis first, letters in order).
    summed = builtins.sorted((x for x in sizes if x not in output), key=lambda x: (isinstance(x, str), x if isinstance(x, str) else -x))
    order = list(output) + summed
    aligned = []
    for term, t in zip(aligned_terms, tensors):
        term = list(term)
        for label in order:
            if label not in term:
                t = unsqueeze_op(t, dim=t.ndim)
                term.append(label)
        aligned.append(permute_op(t, dims=tuple(term.index(label) for label in order)))
    start = len(output)
    if len(aligned) == 1:
        result = aligned[0]
        return sum(result, tuple(range(start, len(order)))) if summed else result
    # How many operands have each summed dim (of a size other than 1): the last pair that has it sums it.
    counts = [builtins.sum(t.shape[d] != 1 for t in aligned) for d in range(len(order))]
    result = aligned[0]
    for operand in aligned[1:]:  # left to right, as PyTorch without a contraction path
        sum_dims, own_a, own_b = [], [], []
        for d in range(start, len(order)):
            in_a, in_b = result.shape[d] != 1, operand.shape[d] != 1
            if in_a and in_b:
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1 and (in_a or in_b):  # only this side has it: summed on its own
                (own_a if in_a else own_b).append(d)
                counts[d] = 0
        if own_a:
            result = sum(result, tuple(own_a), keepdim=True)
        if own_b:
            operand = sum(operand, tuple(own_b), keepdim=True)
        result = _sumproduct_pair(result, operand, sum_dims)
    return view(result, tuple(sizes[label] for label in output)) if summed else result


def _einsum_sublists(args: tuple) -> tuple[str, tuple]:
    """The equation and operands of einsum's sublist form, as PyTorch converts them: subscripts 0 to
    25 are ``A`` to ``Z``, 26 to 51 ``a`` to ``z``, ``Ellipsis`` is ``...``; a last odd list is
    the output's."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, or at least one operand and its "
            "subscripts list"
        )

    def letter(n) -> str:
        if n is Ellipsis:
            return "..."
        if 0 <= n < 26:
            return chr(ord("A") + n)
        if 26 <= n < 52:
            return chr(ord("a") + n - 26)
        raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")

    equation = ",".join("".join(letter(n) for n in term) for term in args[1::2])
    if len(args) % 2:
        return equation + "->" + "".join(letter(n) for n in args[-1]), args[:-1:2]
    return equation, args[::2]


def _einsum_subscripts(equation: str, operands: tuple) -> tuple[list[str], str | None]:
    """The subscripts of each operand (``...`` kept as it is) and of the output (None when the
    equation has no ``->``), with PyTorch's checks and messages."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    terms, term, i = [], "", 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if "..." in term:
                raise RuntimeError(f"einsum(): found '.' for operand {len(terms)} for which an ellipsis was already found")
            if lhs[i : i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for operand {len(terms)} that is not part of any ellipsis")
            term, i = term + "...", i + 3
            continue
        if c == ",":
            terms.append(term)
            term = ""
            if len(terms) >= len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
        elif c != " ":
            _einsum_letter(c, i)
            term += c
        i += 1
    terms.append(term)
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    for n, (term, t) in enumerate(zip(terms, operands)):
        count = len(term.replace("...", ""))
        if "..." in term and count > t.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({count}) is more than the number of dimensions "
                f"({t.ndim}) for operand {n}"
            )
        if "..." not in term and count != t.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({count}) does not match the number of dimensions "
                f"({t.ndim}) for operand {n} and no ellipsis was given"
            )
    if arrow < 0:
        return terms, None
    output, i, rhs = "", arrow + 2, equation
    seen = set("".join(terms))
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if "..." in output:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
            if rhs[i : i + 3] != "...":
                raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
            output, i = output + "...", i + 3
            continue
        if c != " ":
            _einsum_letter(c, i)
            if c not in seen:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input operand")
            if c in output:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            output += c
        i += 1
    return terms, output


def _einsum_letter(c: str, index: int) -> None:
    if not ("a" <= c <= "z" or "A" <= c <= "Z"):
        raise RuntimeError(
            f"einsum(): invalid subscript given at index {index} in the equation string, subscripts must be in [a-zA-Z]"
        )


def _einsum_labels(term: str, ndim: int) -> list:
    """One label per dim: the letters, and for ``...`` the ints counting its dims from the right
    (so that ellipsis dims broadcast as in NumPy)."""
    head, dots, tail = term.partition("...")
    if not dots:
        return list(term)
    covered = ndim - len(head) - len(tail)
    return [*head, *range(covered - 1, -1, -1), *tail]


def _einsum_size(sizes: dict, label, size: int, operand: int, dim: int) -> None:
    """Record a label's size: sizes of 1 broadcast, any other must agree (PyTorch's messages)."""
    seen = sizes.get(label)
    if seen is None or seen == 1:
        sizes[label] = size
    elif size not in (1, seen):
        if isinstance(label, int):
            raise RuntimeError(
                f"einsum(): dimension {dim} covered by ellipsis in operand {operand}has size {size} which does not broadcast "
                f"with previously seen ellipsis with size {seen} for the respective dimension"
            )
        raise RuntimeError(
            f"einsum(): subscript {label} has size {size} for operand {operand} which does not broadcast with previously "
            f"seen size {seen}"
        )


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """``(left * right).sum(sum_dims, keepdim=True)`` for two aligned tensors that both have the
    ``sum_dims``, as PyTorch computes it: one bmm, whose batch is the dims both have, rows the
    dims only the left has, columns those only the right has (the two swapped when that puts the
    product's dims in order)."""
    if not sum_dims:
        return _outer_product(left, right)
    lro, lo, ro = [], [], []
    for d in range(left.ndim):
        if d not in sum_dims:
            left_has, right_has = left.shape[d] != 1, right.shape[d] != 1
            (lro if left_has and right_has else lo if left_has else ro).append(d)
    if lo and ro and ro[-1] < lo[0]:
        left, right, lo, ro = right, left, ro, lo
    lro_size, lo_size, ro_size = (math.prod(left.shape[d] for d in lro), math.prod(left.shape[d] for d in lo),
                                  math.prod(right.shape[d] for d in ro))
    sum_size = math.prod(left.shape[d] for d in sum_dims)
    layout = lro + lo + sum_dims + ro
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    left = reshape(permute_op(left, dims=tuple(layout)), (lro_size, lo_size, sum_size))
    right = reshape(permute_op(right, dims=tuple(lro + sum_dims + ro + lo)), (lro_size, sum_size, ro_size))
    return permute_op(view(bmm(left, right), tuple(out_size)), dims=_inverse_permutation(layout))


def _outer_product(left: Tensor, right: Tensor) -> Tensor:
    """``left * right`` for two aligned tensors, laid out as PyTorch's mul lays it out: its
    TensorIterator orders the dims by the inputs' strides, also those of dims of size 1 in the
    result (which mul's own layout, as NumPy's, ignores)."""
    return _lay_out_as_torch(mul(left, right), left, right, always=True)


# ----------------------------------------------------------------------------------------------
# unique, bincount, searchsorted: integer results (or a float one PyTorch cannot differentiate).
# ----------------------------------------------------------------------------------------------


def _slice_less(a: list, b: list) -> bool:
    """PyTorch's order of two slices in unique(dim=): the first element that differs decides
    (NaN differs from nothing, so it decides nothing)."""
    for x, y in zip(a, b):
        if x < y:
            return True
        if x > y:
            return False
    return False


def _std_sorted_slices(rows):
    """The order in which PyTorch's std::sort leaves the rows of ``rows`` (2-D) with NaN in them,
    where no sort by value agrees with it (NaN compares False: an inconsistent order)."""
    run = Libstdcxx(backend.to_numpy(rows).tolist(), _slice_less)
    run.sort(0, len(run.v))
    return backend.place(backend.numpy.array(run.idx, dtype="int64"), backend.device_of(rows))


def _unique_arrays(xp, a, dim, consecutive: bool):
    """The distinct values (or slices along ``dim``), sorted, or the runs of equal neighbours when
    ``consecutive``; the index of each element's (or slice's) value in them; their counts. NaN are
    each distinct, as in PyTorch."""
    moved = a.reshape(-1, 1) if dim is None else xp.moveaxis(a, dim, 0).reshape(a.shape[dim], a.size // a.shape[dim] if a.size else 0)
    n = moved.shape[0]
    if consecutive:
        starts = xp.ones(n, dtype=bool)
        starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
        inverse = xp.cumsum(starts) - 1
        first = xp.flatnonzero(starts)
        values = moved[first]
        counts = xp.diff(xp.append(first, n))
    else:
        order = xp.lexsort(moved.T[::-1]) if moved.shape[1] else xp.arange(n)
        if dim is not None and moved.dtype.kind == "f" and xp.isnan(moved).any():
            order = _std_sorted_slices(moved)
        ordered = moved[order]
        starts = xp.ones(n, dtype=bool)
        starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
        group = xp.cumsum(starts) - 1
        inverse = xp.empty(n, dtype=xp.int64)
        inverse[order] = group
        first = xp.flatnonzero(starts)
        values = ordered[first]
        counts = xp.diff(xp.append(first, n))
    if dim is None:
        values, inverse = xp.ascontiguousarray(values.reshape(-1)), inverse.reshape(a.shape)
    else:  # laid out as PyTorch's: the slices row-major, moved back into place
        values = xp.ascontiguousarray(values.reshape((len(first),) + tuple(xp.moveaxis(a, dim, 0).shape[1:])))
        values = xp.moveaxis(values, 0, dim) if values.size else xp.moveaxis(values, 0, dim).copy()
    return values, inverse.astype(xp.int64), counts.astype(xp.int64)


def _unique_of(op: Op, input: Tensor, dim, consecutive: bool, return_inverse: bool, return_counts: bool):
    if dim is not None:
        if not input.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        dim = _wrap_dim(dim, input.ndim)
        if input.numel() == 0 and input.shape[dim] != 0:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    output = op(input) if op is unique2_op else op(input, dim=dim)
    if not (return_inverse or return_counts):
        return output
    with backend.on(input.device):
        _, inverse, counts = _unique_arrays(backend.xp(input.device), input._data, dim, consecutive)
    return (output, *([Tensor._make(inverse)] if return_inverse else []), *([Tensor._make(counts)] if return_counts else []))


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None):  # noqa: A002
    """The distinct elements of ``input`` (flattened), or its distinct slices along ``dim``, in
    ascending order (as PyTorch on the CPU gives them, ``sorted`` or not); with
    ``return_inverse``, where each element (slice) went; with ``return_counts``, how often each
    value occurs. Not differentiable (a float result's node raises in backward).

    >>> import minigrad as torch
    >>> torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)
    (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    _check_tensors("unique", ("input", input))
    return _unique_of(unique2_op if dim is None else unique_dim_op, input, dim, False, return_inverse, return_counts)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None):
    """``input`` with each run of equal neighbours (elements, or slices along ``dim``) kept once;
    ``return_inverse`` and ``return_counts`` as in :func:`unique`.

    >>> import minigrad as torch
    >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]))
    tensor([1, 2, 1])
    """
    _check_tensors("unique_consecutive", ("input", input))
    return _unique_of(unique_consecutive_op, input, dim, True, return_inverse, return_counts)


def _bincount(xp, indices, weights, minlength):
    counts = xp.bincount(indices, weights=weights, minlength=minlength)
    return counts.astype(weights.dtype if weights.dtype in (xp.float32, xp.float64) else xp.float64, copy=False)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value ``0, 1, ..., max(input)`` occurs in the non-negative integers
    ``input`` (1-D), at least ``minlength`` counts; with ``weights``, the sum of the weights of
    each value's elements (float64, or float32 for float32 weights).

    >>> import minigrad as torch
    >>> torch.bincount(torch.tensor([0, 1, 1, 3]))
    tensor([1, 2, 0, 1])
    """
    _check_tensors("bincount", ("input", input))
    if not isinstance(minlength, int) or isinstance(minlength, builtins.bool):
        raise TypeError(f"bincount(): argument 'minlength' must be int, not {type(minlength).__name__}")
    if input.dtype.is_floating_point or input.dtype is dtypes.bool:
        raise _no_kernel(f"bincount_{input.device.type}", input.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.ndim != 1 or (input.numel() and int(input._data.min()) < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None:
        if weights.ndim != 1 or weights.shape[0] != input.shape[0]:
            raise RuntimeError("weights should be 1-d and have the same length as input")
        _, (input, weights) = _one_device("bincount", input, weights)
    if weights is not None and input.numel():  # (no values: PyTorch counts int64 zeros, weights or not)
        return bincount_op(weights, indices=_kept(input, weights), minlength=minlength)
    with backend.on(input.device):
        return Tensor._make(backend.xp(input.device).bincount(input._data, minlength=minlength).astype("int64", copy=False))


def _binary_search(xp, boundaries, values, right: bool):
    """PyTorch's binary search, row by row (``boundaries`` and ``values`` 2-D, one row each per
    search), comparison for comparison: so NaN land where PyTorch puts them."""
    n = boundaries.shape[-1]
    start = xp.zeros(values.shape, dtype=xp.int64)
    end = xp.full(values.shape, n, dtype=xp.int64)
    while True:
        active = start < end
        if not active.any():
            return start
        mid = (start + end) // 2
        at_mid = xp.take_along_axis(boundaries, xp.minimum(mid, n - 1), axis=-1)
        after = ~(values < at_mid) if right else ~(at_mid >= values)
        start = xp.where(active & after, mid + 1, start)
        end = xp.where(active & ~after, mid, end)


def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False, right: bool = False, side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """Where each value of ``input`` would go in ``sorted_sequence`` (its last dim) to keep it
    sorted: before equal elements, or after them with ``right=True`` or ``side='right'``. A 1-D
    sequence serves every value; otherwise its leading dims match ``input``'s. With ``sorter``,
    the sequence is ``sorted_sequence`` taken in that order.

    >>> import minigrad as torch
    >>> torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([3, 6]))
    tensor([1, 3])
    """
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"
            )
        right = side == "right"
    return _search("torch.searchsorted()", sorted_sequence, input, out_int32, right, sorter)


def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """The bucket of each value of ``input`` among the sorted 1-D ``boundaries``: the index ``i``
    with ``boundaries[i-1] < x <= boundaries[i]``, or ``boundaries[i-1] <= x < boundaries[i]`` with
    ``right=True`` (:func:`searchsorted` with the arguments the other way round).

    >>> import minigrad as torch
    >>> torch.bucketize(torch.tensor([1, 5, 9]), torch.tensor([1, 5, 9]))
    tensor([0, 1, 2])
    """
    if isinstance(boundaries, Tensor) and boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return _search("torch.searchsorted()", boundaries, input, out_int32, right, None)


def _search(name: str, boundaries: Tensor, values, out_int32: bool, right: bool, sorter: Tensor | None) -> Tensor:
    _check_tensors("searchsorted", ("sorted_sequence", boundaries))
    if not isinstance(values, Tensor):
        if not isinstance(values, Number):
            raise TypeError(f"searchsorted(): argument 'input' must be Tensor or Number, not {type(values).__name__}")
        values = scalar_tensor(values, dtypes.result_type([boundaries.dtype], [], [values]), boundaries.device)
    if boundaries.ndim == 0:
        raise RuntimeError(f"{name}: boundaries tensor should have positive dimension, but got 0 dimension")
    if boundaries.ndim > 1:
        if values.ndim == 0:
            raise RuntimeError(
                f"{name}: input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries "
                f"tensor dim({boundaries.ndim}) and input value's dim(0) numel(1)"
            )
        if boundaries.ndim != values.ndim or boundaries.shape[:-1] != values.shape[:-1]:
            raise RuntimeError(
                f"{name}: boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and "
                f"input value tensor must match, but we got boundaries tensor {list(boundaries.shape)} and input value "
                f"tensor {list(values.shape)}"
            )
    if sorter is not None:
        if sorter.dtype is not dtypes.int64:
            raise RuntimeError(f"{name}: sorter must be a tensor of long dtype but got dtype {sorter.dtype._legacy_name}")
        if sorter.shape != boundaries.shape:
            raise RuntimeError(
                f"{name}: boundary and sorter must have the same size, but got boundary tensor {list(boundaries.shape)}"
                f"and got sorter tensor {list(sorter.shape)}"
            )
        if sorter.numel() and not (0 <= int(sorter._data.min()) and int(sorter._data.max()) < boundaries.shape[-1]):
            raise RuntimeError(f"{name}: sorter index out of range")
    if dtypes.promote_types(boundaries.dtype, values.dtype) is dtypes.bool:
        raise _no_kernel(f"searchsorted_out_{boundaries.device.type}")
    device, tensors = _one_device("searchsorted", boundaries, values, *([sorter] if sorter is not None else []))
    xp, seq, vals = backend.xp(device), tensors[0]._data, tensors[1]._data
    with backend.on(device):
        if sorter is not None:
            seq = xp.take_along_axis(seq, tensors[2]._data, axis=-1)
        rows = seq.reshape(math.prod(seq.shape[:-1]), seq.shape[-1])  # (-1 cannot be inferred when rows are empty)
        flat = vals.reshape(rows.shape[0], vals.shape[-1]) if seq.ndim > 1 else vals.reshape(1, -1)
        found = _binary_search(xp, rows, flat, right).reshape(vals.shape)
        return Tensor._make(found.astype(xp.int32 if out_int32 else xp.int64, copy=False))


# ----------------------------------------------------------------------------------------------
# cdist, tril_indices, triu_indices
# ----------------------------------------------------------------------------------------------

_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of ``x1`` (``(..., P, M)``) and each row of ``x2``
    (``(..., R, M)``): a ``(..., P, R)`` tensor, batch dims broadcast. As in PyTorch, the
    Euclidean distance of more than 25 rows (or with ``compute_mode='use_mm_for_euclid_dist'``)
    is computed through a matrix product (``EuclideanDistBackward0``, differentiable twice);
    otherwise by the differences (``CdistBackward0``, whose gradient PyTorch cannot differentiate).

    >>> import minigrad as torch
    >>> torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
    tensor([[5., 1.]])
    """
    _check_tensors("cdist", ("x1", x1), ("x2", x2))
    for t in (x1, x2):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, X{1 if t is x1 else 2} got: {t.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for t in (x1, x2):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, X{1 if t is x1 else 2} got: {t.dtype._legacy_name}")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype._legacy_name} but found {x2.dtype._legacy_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode, rows1, rows2 = _CDIST_MODES[compute_mode], x1.shape[-2], x2.shape[-2]
    batch = _broadcast_shape(x1.shape[:-2], x2.shape[:-2])
    if p == 2 and (mode == 1 or (mode == 0 and (rows1 > 25 or rows2 > 25))):
        if x1.ndim == 2 and x2.ndim == 2:
            return view(euclidean_dist_op(x1, x2), (rows1, rows2))
        count, columns = math.prod(batch), x1.shape[-1]
        a = view(expand(x1, batch + (rows1, columns)).contiguous(), (count, rows1, columns))
        b = view(expand(x2, batch + (rows2, columns)).contiguous(), (count, rows2, columns))
        return view(euclidean_dist_op(a, b), batch + (rows1, rows2))
    if x1.dtype.itemsize < 4 and x1.numel() and x2.numel():  # PyTorch's kernel has no half precision (its mm has)
        raise _no_kernel("cdist", x1.dtype)
    return cdist_op(x1, x2, p=float(p))


def _cdist(xp, x1, x2, p: float):
    diff = xp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return (diff != 0).sum(axis=-1).astype(x1.dtype)
    if p == math.inf:
        return diff.max(axis=-1) if diff.shape[-1] else xp.zeros(diff.shape[:-1], dtype=diff.dtype)
    if p == 1:
        return diff.sum(axis=-1)
    if p == 2:
        return xp.sqrt((diff * diff).sum(axis=-1))
    return (diff**p).sum(axis=-1) ** (1 / p)


def _cdist_grad(xp, grad, x1, x2, dist, p: float):
    """PyTorch's ``_cdist_backward``: the gradient for ``x1`` (0 where a distance is 0, for p > 1)."""
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    dist, grad = dist[..., None], grad[..., None]
    if p == 0:
        each = xp.zeros_like(diff)
    elif p == 1:
        each = grad * xp.sign(diff)
    elif p == math.inf:
        each = grad * xp.sign(diff) * (xp.abs(diff) == dist)
    elif p < 2:
        each = xp.sign(diff) * xp.abs(diff) ** (p - 1) * grad / dist ** (p - 1)
        each = xp.where((dist == 0) | ((diff == 0) & (p < 1)), 0, each)
    elif p == 2:
        each = xp.where(dist == 0, 0, grad * diff / dist)
    else:
        each = xp.where(dist == 0, 0, diff * xp.abs(diff) ** (p - 2) * grad / dist ** (p - 1))
    return each.sum(axis=-2).astype(x1.dtype, copy=False)


def _euclidean_dist(xp, x1, x2):
    """PyTorch's ``_euclidean_dist``: ``sqrt(|a|² - 2 a·b + |b|²)`` through one matrix product."""
    norm1, norm2 = (x1 * x1).sum(axis=-1, keepdims=True), (x2 * x2).sum(axis=-1, keepdims=True)
    left = xp.concatenate([x1 * -2, norm1, xp.ones_like(norm1)], axis=-1)
    right = xp.concatenate([x2, xp.ones_like(norm2), norm2], axis=-1)
    return xp.sqrt(xp.maximum(xp.matmul(left, xp.swapaxes(right, -1, -2)), 0))


def _euclidean_grad(grad: Tensor, result: Tensor, x1: Tensor, x2: Tensor, first: bool) -> Tensor:
    """PyTorch's ``_euclidean_dist_backward``, for ``x1`` or (not ``first``) ``x2``: ``grad / result``
    is taken as 0 where the distance is 0 (a subgradient)."""
    ratio = masked_fill(grad / result, result == 0, 0)
    if first:
        return x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2)
    return x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The indices (a ``2 x N`` tensor: rows, then columns) of the lower triangle of a
    ``row x col`` matrix, on and below the diagonal ``offset``, in row-major order.

    >>> import minigrad as torch
    >>> torch.tril_indices(3, 3)
    tensor([[0, 1, 1, 2, 2, 2],
            [0, 0, 1, 0, 1, 2]])
    """
    return _triangle_indices("tril", row, col, offset, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The indices (a ``2 x N`` tensor) of the upper triangle of a ``row x col`` matrix, on and
    above the diagonal ``offset``, in row-major order.

    >>> import minigrad as torch
    >>> torch.triu_indices(2, 3, 1)
    tensor([[0, 0, 1],
            [1, 2, 2]])
    """
    return _triangle_indices("triu", row, col, offset, dtype, device)


def _triangle_indices(name: str, row: int, col: int, offset: int, dtype, device) -> Tensor:
    for position, (argument, value) in enumerate((("row", row), ("col", col), ("offset", offset)), 1):
        if not isinstance(value, int) or isinstance(value, builtins.bool):
            raise TypeError(
                f"{name}_indices(): argument '{argument}' (position {position}) must be int, not {type(value).__name__}"
            )
    for argument, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{argument} must be non-negative, got{value}")
    dtype = dtypes.int64 if dtype is None else dtype
    if dtype not in (dtypes.int64, dtypes.int32):
        raise NotImplementedError(f'"{name}_indices" not implemented for \'{dtype._legacy_name}\'')
    device = backend.device(device) if device is not None else backend.get_default_device()
    xp = backend.xp(device)
    with backend.on(device):
        rows, cols = xp.indices((row, col)).reshape(2, -1)
        keep = cols - rows <= offset if name == "tril" else cols - rows >= offset
        return Tensor._make(xp.stack([rows[keep], cols[keep]]).astype(backend.array_dtype(dtype)))


# --- bitwise, integer and statistics functions ---
# Bitwise and integer ops never join the graph (their results are integers or bools); copysign,
# ldexp and frexp's mantissa are differentiable, nextafter has a node whose backward raises.

copysign_op = Op("CopysignBackward0", lambda xp, self, other: xp.copysign(self, other),
                 self=lambda grad, self, result: grad * _sign_ratio(self, result),
                 other=lambda grad, other_shape: grad.new_zeros(other_shape))
copysign_scalar_op = Op("CopysignBackward1", lambda xp, self, *, other: xp.copysign(self, xp.asarray(other, dtype=self.dtype)),
                        self=lambda grad, self, result: grad * _sign_ratio(self, result))
# (PyTorch's rule: the gradient passes to ``self`` where it differs from ``other``, none to ``other``)
nextafter_op = Op("NextafterBackward0", lambda xp, self, other: xp.nextafter(self, other),
                  self=lambda grad, self, other: where(self != other, grad, zeros_like_tensor(grad)),
                  other=lambda grad, other_shape: grad.new_zeros(other_shape))
# (pow(2, other) is an integer power for an integer ``other``: 0 for negative exponents, as in PyTorch)
ldexp_op = Op("LdexpBackward0", lambda xp, self, other, *, to: _ldexp(xp, self, other, to),
              self=lambda grad, other: grad * pow(2, other),
              other=lambda grad, self, other: grad * self * pow(2, other) * math.log(2))
frexp_op = Op("FrexpBackward0", lambda xp, self, *, exponent: xp.frexp(self)[0],
              self=lambda grad, exponent: grad / _exp2_of(exponent, grad))


def _sign_ratio(self: Tensor, result: Tensor) -> Tensor:
    """``copysign(x, y) / x``: +1 or -1, and 0 where ``x`` is 0 (PyTorch's subgradient)."""
    return (result / self).masked_fill(self == 0, 0)


def _ldexp(xp, self, other, to):
    if other.dtype.kind in "iu" and self.dtype.kind == "f":  # exact: only the exponent changes
        return xp.ldexp(self.astype(to, copy=False), other.astype(xp.int32)).astype(to, copy=False)
    # PyTorch's other case: self * 2**other, with the power in other's dtype (for an integer other:
    # the default float), or, for a float16/float64 self and a 0-d other, in the dtype of the two
    power = other.dtype if other.dtype.kind == "f" else backend.array_dtype(dtypes.get_default_dtype())
    if self.dtype.kind == "f" and self.dtype != xp.float32 and not other.ndim:
        power = backend.numpy.promote_types(self.dtype, other.dtype)
    return self.astype(to, copy=False) * xp.exp2(other.astype(power, copy=False)).astype(to, copy=False)


def _exp2_of(exponent, like: Tensor) -> Tensor:
    return Tensor._make(backend.xp(like.device).exp2(exponent.astype(like._data.dtype)))


return_types_frexp = _return_type("frexp", ("mantissa", "exponent"))


def _integer_binary(kernel: str, a, b, compute, *, bools: bool = True) -> Tensor:
    """An elementwise op of integer (and, with ``bools``, bool) tensors or numbers, in their
    promoted dtype; floats raise PyTorch's missing-kernel error."""
    _broadcast_first(a, b)
    dtype = _operand_dtype((a, b))
    device = a.device if isinstance(a, Tensor) else b.device
    if dtype.is_floating_point or (dtype is dtypes.bool and not bools):
        raise _no_kernel(f"{kernel}_{device.type}", dtype)
    a, b = _as_tensor(a, dtype, device), _as_tensor(b, dtype, device)
    _broadcast_shape(a.shape, b.shape)
    device, (a, b) = _one_device(kernel, a, b)
    target = backend.array_dtype(dtype)
    with backend.on(device):
        xp = backend.xp(device)
        return Tensor._make(xp.asarray(compute(xp, a._data.astype(target, copy=False), b._data.astype(target, copy=False))))


def bitwise_and(input, other) -> Tensor:
    """The bitwise AND of integers, the logical AND of bools (``input & other``).

    >>> import minigrad as torch
    >>> torch.bitwise_and(torch.tensor([12, -1]), 10)
    tensor([ 8, 10])
    """
    return _bitwise("bitwise_and", input, other)


def bitwise_or(input, other) -> Tensor:
    """The bitwise OR of integers, the logical OR of bools (``input | other``).

    >>> import minigrad as torch
    >>> torch.bitwise_or(torch.tensor([12, 1]), 10)
    tensor([14, 11])
    """
    return _bitwise("bitwise_or", input, other)


def bitwise_xor(input, other) -> Tensor:
    """The bitwise XOR of integers, the logical XOR of bools (``input ^ other``).

    >>> import minigrad as torch
    >>> torch.bitwise_xor(torch.tensor([12, 1]), 10)
    tensor([ 6, 11])
    """
    return _bitwise("bitwise_xor", input, other)


def bitwise_not(input: Tensor) -> Tensor:
    """The bitwise NOT of integers (``-x - 1``), the logical NOT of bools (``~input``).

    >>> import minigrad as torch
    >>> torch.bitwise_not(torch.tensor([0, 5]))
    tensor([-1, -6])
    """
    _check_tensor(input, "bitwise_not")
    if input.dtype.is_floating_point:
        raise _no_kernel(f"bitwise_not_{input.device.type}", input.dtype)
    with backend.on(input.device):
        return Tensor._make(backend.xp(input.device).invert(input._data))


def _shift(xp, a, b, left: bool):
    """``a << b`` or ``a >> b`` as PyTorch's kernels: a shift by a negative amount or by the
    width or more gives 0 (or -1 for a negative ``a`` shifted right). NumPy 2 does so itself;
    the guard is for CuPy, whose C shifts leave those undefined."""
    bits = a.dtype.itemsize * 8
    fits = (b >= 0) & (b < bits)
    amount = xp.where(fits, b, 0).astype(a.dtype, copy=False)
    if left:
        return xp.where(fits, xp.left_shift(a, amount), 0).astype(a.dtype, copy=False)
    return xp.where(fits, xp.right_shift(a, amount), xp.where(a < 0, -1, 0)).astype(a.dtype, copy=False)


def bitwise_left_shift(input, other) -> Tensor:
    """``input << other``: integers shifted left by ``other`` bits (0 once all bits are gone).

    >>> import minigrad as torch
    >>> torch.bitwise_left_shift(torch.tensor([1, 3]), 2)
    tensor([ 4, 12])
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise _invalid_arguments("bitwise_left_shift", input, other)
    return _integer_binary("lshift", input, other, lambda xp, a, b: _shift(xp, a, b, True), bools=False)


def bitwise_right_shift(input, other) -> Tensor:
    """``input >> other``: integers shifted right by ``other`` bits, keeping the sign.

    >>> import minigrad as torch
    >>> torch.bitwise_right_shift(torch.tensor([16, -16]), 2)
    tensor([ 4, -4])
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise _invalid_arguments("bitwise_right_shift", input, other)
    return _integer_binary("rshift", input, other, lambda xp, a, b: _shift(xp, a, b, False), bools=False)


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor of each pair of integers (never negative).

    >>> import minigrad as torch
    >>> torch.gcd(torch.tensor([12, -9, 0]), torch.tensor([18, 6, 0]))
    tensor([6, 3, 0])
    """
    _check_tensors("gcd", ("input", input), ("other", other))
    return _integer_binary("gcd", input, other, lambda xp, a, b: xp.gcd(a, b), bools=False)


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple of each pair of integers (never negative; 0 if one is 0).

    >>> import minigrad as torch
    >>> torch.lcm(torch.tensor([4, -3, 5]), torch.tensor([6, 4, 0]))
    tensor([12, 12,  0])
    """
    _check_tensors("lcm", ("input", input), ("other", other))
    return _integer_binary("lcm", input, other, lambda xp, a, b: xp.lcm(a, b), bools=False)


def gcd_(input: Tensor, other: Tensor) -> Tensor:
    """``input.gcd_(other)``: gcd in place."""
    return _check_tensor(input, "gcd_")._apply_inplace(lambda s: gcd(s, other), (other,))


def lcm_(input: Tensor, other: Tensor) -> Tensor:
    """``input.lcm_(other)``: lcm in place."""
    return _check_tensor(input, "lcm_")._apply_inplace(lambda s: lcm(s, other), (other,))


def copysign(input: Tensor, other) -> Tensor:
    """``|input|`` with the sign of ``other`` (a tensor or a number; ``-0.0`` counts as
    negative). Integers give floats.

    >>> import minigrad as torch
    >>> torch.copysign(torch.tensor([1.5, -2.0]), torch.tensor([-0.0, 3.0]))
    tensor([-1.5000,  2.0000])
    """
    _check_tensor(input, "copysign")
    if isinstance(other, Tensor):
        return _binary(copysign_op, input, other, float_result=True)
    if not isinstance(other, Number):
        raise _invalid_arguments("copysign", input, other)
    return copysign_scalar_op(input, other=other, dtype=_floating(input))


def signbit(input: Tensor) -> Tensor:
    """Whether each element's sign bit is set (True for ``-0.0``; never for unsigned or bool).

    >>> import minigrad as torch
    >>> torch.signbit(torch.tensor([-0.0, 0.0, -2.0]))
    tensor([ True, False,  True])
    """
    _check_tensor(input, "signbit")
    xp = backend.xp(input.device)
    with backend.on(input.device):
        data = input._data if input.dtype is not dtypes.bool else input._data.astype(xp.int8)
        return Tensor._make(xp.asarray(xp.signbit(data)))


def _infinity_test(input: Tensor, name: str, sign: int) -> Tensor:
    _check_tensor(input, name)
    xp = backend.xp(input.device)
    with backend.on(input.device):
        if not input.dtype.is_floating_point:  # integers and bools are never infinite
            return Tensor._make(xp.zeros(input._data.shape, dtype=bool))
        return Tensor._make(xp.asarray(input._data == sign * math.inf))


def isposinf(input: Tensor) -> Tensor:
    """Whether each element is +inf.

    >>> import minigrad as torch
    >>> torch.isposinf(torch.tensor([1.0, float("inf"), -float("inf")]))
    tensor([False,  True, False])
    """
    return _infinity_test(input, "isposinf", 1)


def isneginf(input: Tensor) -> Tensor:
    """Whether each element is -inf.

    >>> import minigrad as torch
    >>> torch.isneginf(torch.tensor([1.0, float("inf"), -float("inf")]))
    tensor([False, False,  True])
    """
    return _infinity_test(input, "isneginf", -1)


def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next floating-point value after each element of ``input`` towards ``other``
    (floating tensors only). As PyTorch's, its gradient passes to ``input`` where the two differ.

    >>> import minigrad as torch
    >>> torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1  # float32's epsilon
    tensor([1.1921e-07])
    """
    return _floating_binary(nextafter_op, "nextafter", input, other)


def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2**other``, in floating point (integers give floats).

    >>> import minigrad as torch
    >>> torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([2, -1]))
    tensor([4.0000, 1.5000])
    """
    _check_tensors("ldexp", ("input", input), ("other", other))
    _broadcast_shape(input.shape, other.shape)
    if input.dtype.is_floating_point and other.dtype is dtypes.bool:  # PyTorch's kernel for integer exponents
        raise _no_kernel(f"ldexp_{input.device.type}_exp")
    to = _operand_dtype((input, other))
    to = to if to.is_floating_point else dtypes.get_default_dtype()
    return ldexp_op(input, other, to=backend.array_dtype(to))


def ldexp_(input: Tensor, other: Tensor) -> Tensor:
    """``input.ldexp_(other)``: ldexp in place."""
    if isinstance(input, Tensor) and not input.dtype.is_floating_point:
        raise RuntimeError(f"ldexp can't be cast to the desired output type {input.dtype._legacy_name}")
    return _check_tensor(input, "ldexp_")._apply_inplace(lambda s: ldexp(s, other), (other,))


def frexp(input: Tensor):
    """``(mantissa, exponent)`` with ``input = mantissa * 2**exponent`` and ``0.5 <= |mantissa| < 1``
    (``exponent`` is int32), as ``torch.return_types.frexp``. Only the mantissa has a gradient.

    >>> import minigrad as torch
    >>> torch.frexp(torch.tensor([8.0, -3.0]))
    torch.return_types.frexp(
    mantissa=tensor([ 0.5000, -0.7500]),
    exponent=tensor([4, 2], dtype=torch.int32))
    """
    _check_tensor(input, "frexp")
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    with backend.on(input.device):
        exponent = backend.xp(input.device).frexp(input._data)[1].astype(backend.array_dtype(dtypes.int32))
    return return_types_frexp(frexp_op(input, exponent=exponent), Tensor._make(exponent))


def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Whether each of ``elements`` occurs in ``test_elements`` (either may be a number; both
    are compared in their promoted dtype). ``invert=True`` gives the opposite.

    >>> import minigrad as torch
    >>> torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]))
    tensor([False,  True, False])
    """
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise _invalid_arguments("isin", elements, test_elements)
    for t in (elements, test_elements):
        if (isinstance(t, Tensor) and t.dtype is dtypes.bool) or type(t) is bool:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    dtype = _operand_dtype((elements, test_elements))
    device = elements.device if isinstance(elements, Tensor) else test_elements.device
    a, b = _as_tensor(elements, dtype, device), _as_tensor(test_elements, dtype, device)
    device, (a, b) = _one_device("isin", a, b)
    target = backend.array_dtype(dtype)
    with backend.on(device):
        xp = backend.xp(device)
        found = xp.isin(a._data.astype(target, copy=False), b._data.astype(target, copy=False), invert=invert)
        return Tensor._make(xp.asarray(found))


def _in_place_method(function, name: str):
    """``x.f_(*args)``: ``f(x, *args)`` written into ``x`` (the Tensor-only in-place methods)."""

    def method(self: Tensor, *args, **kwargs) -> Tensor:
        def compute(s: Tensor) -> Tensor:
            if args and isinstance(args[0], Tensor | Number):  # PyTorch's checks before the kernel's
                _check_output(s, args[0], name)
            return function(s, *args, **kwargs)

        operands = tuple(a for a in args if isinstance(a, Tensor))
        return self._apply_inplace(compute, operands)

    method.__name__ = name
    return method


def _output_checked(self: Tensor, other) -> Tensor:
    """``self``, after :func:`_check_output` for ``self.f_(other)`` (an integer division or
    remainder would raise its ZeroDivisionError before PyTorch's checks otherwise)."""
    if isinstance(other, Tensor | Number):
        _check_output(self, other, "")
    return self


def _check_output(self: Tensor, other, name: str) -> None:
    """PyTorch's errors for ``self.f_(other)`` (after the leaf check): ``other`` must broadcast
    to ``self``'s shape, then the result type must be one ``self`` can hold."""
    if isinstance(other, Tensor) and other.shape != self.shape:
        shape = _broadcast_shape(self.shape, other.shape)
        if shape != tuple(self.shape):
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    dtype = _operand_dtype((self, other))
    if name == "copysign_" and not dtype.is_floating_point:  # (its result is never an integer)
        dtype = dtypes.get_default_dtype()
    if dtypes._category(dtype) > dtypes._category(self.dtype):
        raise RuntimeError(
            f"result type {dtype._legacy_name} can't be cast to the desired output type {self.dtype._legacy_name}"
        )


# Statistics and small products. Most are composites in PyTorch, built here from the same ops
# so that the graph has PyTorch's nodes; dist, vdot and renorm are single nodes.

dist_op = Op("DistBackward0", lambda xp, self, other, *, p: _norm(xp, self - other, p, None, False),
             self=lambda grad, self, other, result, p: _norm_backward(grad, self - other, result, p, None, False),
             other=lambda grad, self, other, result, p: _negated(_norm_backward(grad, self - other, result, p, None, False)))
vdot_op = Op("VdotBackward0", lambda xp, self, other: xp.asarray(xp.dot(self, other)),
             self=lambda grad, other: grad * other,
             other=lambda grad, self: grad * self)
renorm_op = Op("RenormBackward0", lambda xp, self, *, p, dim, maxnorm: self * _renorm_factor(xp, self, p, dim, maxnorm),
               self=lambda grad, self, p, dim, maxnorm: _renorm_backward(grad, self, p, dim, maxnorm))
# the in-place view steps of PyTorch's quantile (unsqueeze_, transpose_), as nodes of their own
unsqueeze_inplace_op = Op("UnsqueezeBackward1", lambda xp, self, *, dim: xp.expand_dims(self, dim),
                          self=lambda grad, dim: grad.squeeze(dim))
transpose_inplace_op = Op("TransposeBackward1", lambda xp, self, *, dim0, dim1: xp.swapaxes(self, dim0, dim1),
                          self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
igamma_op = Op("IgammaBackward0", lambda xp, self, other: backend.special("gammainc", self, other),
               self=lambda grad: _not_implemented("igamma: input"),
               other=lambda grad, self, other: grad * _gamma_density(self, other))
igammac_op = Op("IgammacBackward0", lambda xp, self, other: backend.special("gammaincc", self, other),
                self=lambda grad: _not_implemented("igammac: input"),
                other=lambda grad, self, other: -grad * _gamma_density(self, other))


def _negated(grad):
    return None if grad is None else -grad


def _reduced_dims(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(d for d in range(ndim) if d != dim)


def _renorm_factor(xp, a, p, dim, maxnorm):
    norm = _norm(xp, a, p, _reduced_dims(a.ndim, dim), True)
    return xp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1).astype(a.dtype, copy=False)


def _renorm_backward(grad: Tensor, self: Tensor, p, dim: int, maxnorm) -> Tensor:
    """PyTorch's renorm_backward: the scale's own derivative where the slice was scaled down."""
    dims = _reduced_dims(self.ndim, dim)
    norm = norm_op(self, p=p, dim=dims, keepdim=True)
    spread = _norm_backward((self * grad).sum(dims, keepdim=True), self, norm, p, dims, True)
    inverse = (norm + 1e-7).reciprocal()
    return where(norm > maxnorm, inverse * maxnorm * grad - (maxnorm * inverse * inverse) * spread, grad)


def _gamma_density(self: Tensor, other: Tensor) -> Tensor:
    """``x**(a-1) e**-x / Γ(a)``, the derivative of the regularized incomplete gamma in ``x``."""
    from .special import lgamma  # (special builds on this module)

    return exp((self - 1) * log(other) - other - lgamma(self))


def dist(input: Tensor, other: Tensor, p: Number = 2) -> Tensor:
    """The p-norm of ``input - other`` (broadcast), one node (``DistBackward0``).

    >>> import minigrad as torch
    >>> torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]))
    tensor(5.)
    """
    _check_tensors("dist", ("input", input), ("other", other))
    _broadcast_shape(input.shape, other.shape)
    dtype = _operand_dtype((input, other))
    if not dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {dtype._legacy_name} instead.")
    _check_norm_identity(p, _broadcast_shape(input.shape, other.shape), None, None)
    return dist_op(input, other, p=p, dtype=dtype)


def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of two 1-D tensors of one dtype (``VdotBackward0``).

    >>> import minigrad as torch
    >>> torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
    tensor(11.)
    """
    _check_tensors("vdot", ("input", input), ("other", other))
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.dtype is not other.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {input.dtype._legacy_name} and {other.dtype._legacy_name}"
        )
    if input.shape != other.shape:
        n, m = input.shape[0], other.shape[0]
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number of elements, "
            f"but got {n} and {m} elements respectively"
        )
    _no_bool_kernel(input, _PRODUCT_KERNELS["dot"])
    return vdot_op(input, other)


def inner(input: Tensor, other: Tensor) -> Tensor:
    """Sums of products over the last dims of ``input`` and ``other`` (a product when one is 0-d):
    ``tensordot(input, other, dims=([-1], [-1]))``, as PyTorch records it.

    >>> import minigrad as torch
    >>> torch.inner(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0, 4.0], [1.0, 1.0]]))
    tensor([[11.,  3.]])
    """
    _check_tensors("inner", ("input", input), ("other", other))
    if input.ndim == 0 or other.ndim == 0:
        return mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input.shape)} and {list(other.shape)}"
        )
    if input.dtype is not other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    return tensordot(input, other, dims=([-1], [-1]))


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A square matrix with the flattened ``input`` on diagonal ``offset`` (above the main one
    for ``offset > 0``).

    >>> import minigrad as torch
    >>> torch.diagflat(torch.tensor([[1, 2]]))
    tensor([[1, 0],
            [0, 2]])
    """
    _check_tensor(input, "diagflat")
    return diag_embed(input.contiguous().view(-1), offset)


def renorm(input: Tensor, p: Number, dim: int, maxnorm: Number) -> Tensor:
    """Each slice along ``dim`` scaled down to p-norm ``maxnorm`` where its norm exceeds it
    (``RenormBackward0``).

    >>> import minigrad as torch
    >>> torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
    tensor([[0.6000, 0.8000],
            [0.3000, 0.4000]])
    """
    _check_tensor(input, "renorm")
    if input.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    dim = _wrap_dim(dim, input.ndim)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {input.dtype._legacy_name}")
    dims = _reduced_dims(input.ndim, dim)
    _check_norm_identity(p, input.shape, dims, dims)
    return renorm_op(input, p=p, dim=dim, maxnorm=maxnorm)


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), optionally weighted by integer frequencies ``fweights`` and float ``aweights``;
    ``correction=1`` divides by N - 1. PyTorch's composite (sums, ``mm``, a division).

    >>> import minigrad as torch
    >>> torch.cov(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    tensor([[ 1., -1.],
            [-1.,  1.]])
    """
    _check_tensor(input, "cov")
    if input.ndim > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with {input.ndim} dimensions"
        )
    if input.dtype is dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    rows = input.view(1, -1) if input.ndim < 2 else input
    observations = rows.shape[1]
    weights = None
    for name, w in (("fweights", fweights), ("aweights", aweights)):
        if w is None:
            continue
        if w.ndim > 1:
            raise RuntimeError(
                f"cov(): expected {name} to have one or fewer dimensions but got {name} with {w.ndim} dimensions"
            )
        integral = name == "fweights"
        if w.dtype.is_floating_point == integral or w.dtype is dtypes.bool:
            kind = "integral" if integral else "floating point"
            raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with {w.dtype._legacy_name} dtype")
        if w.numel() != observations:
            raise RuntimeError(
                f"cov(): expected {name} to have the same numel as there are observations in the input but got "
                f"{w.numel()} != {observations}"
            )
        if observations and bool(w.min() < 0):
            raise RuntimeError(f"cov(): {name} cannot be negative")
        weights = w if weights is None else weights * w
    if weights is None:
        total = scalar_tensor(observations, dtypes.int64, input.device)
    else:
        total = weights.sum()
        if not bool(total != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    average = (rows if weights is None else rows * weights).sum(1) / total
    if weights is not None and aweights is not None and correction != 0:
        normalizer = total - correction * (weights * aweights).sum() / total
    else:
        normalizer = total - correction
    if bool(normalizer <= 0):
        _warn.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.",
            UserWarning,
        )
        normalizer = zeros_like_tensor(normalizer)
    centred = rows - average.unsqueeze(1)
    return div(mm(centred, (centred if weights is None else centred * weights).t()), normalizer).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """Pearson's correlation coefficients of the variables in the rows of ``input``: ``cov``
    divided by the standard deviations, clipped to [-1, 1].

    >>> import minigrad as torch
    >>> torch.corrcoef(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    tensor([[ 1., -1.],
            [-1.,  1.]])
    """
    _check_tensor(input, "corrcoef")
    if input.ndim > 2:
        raise RuntimeError(
            f"corrcoef(): expected input to have two or fewer dimensions but got an input with {input.ndim} dimensions"
        )
    c = cov(input)
    if c.ndim == 0:  # one variable: 1, or NaN where its variance is 0, NaN or inf
        return c / c
    spread = c.diagonal().sqrt()
    return (c / spread.view(-1, 1) / spread.view(1, -1)).clip(-1, 1)


_QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles (``q`` a number or a 1-D tensor in [0, 1]) of all elements, or
    along ``dim``; between two data points ``interpolation`` picks ``linear``, ``lower``,
    ``higher``, ``midpoint`` or ``nearest``. NaN anywhere gives NaN. PyTorch's composite: a
    sort, gathers and a lerp.

    >>> import minigrad as torch
    >>> torch.quantile(torch.tensor([1.0, 2.0, 4.0, 8.0]), torch.tensor([0.25, 0.5]))
    tensor([1.7500, 3.0000])
    """
    return _quantile("quantile", input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:
    """``quantile`` that ignores NaNs (NaN only where a reduced row is all NaN).

    >>> import minigrad as torch
    >>> torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5)
    tensor(2.)
    """
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, ignore_nan=True)


def _quantile(name: str, input: Tensor, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool) -> Tensor:
    _check_tensor(input, name)
    if not isinstance(q, Tensor):
        if not isinstance(q, Number) or isinstance(q, bool):
            raise _invalid_arguments(name, input, q)
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor) and q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if not isinstance(q, Tensor):
        q = scalar_tensor(q, input.dtype, input.device)
    elif q.dtype is not input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if interpolation not in _QUANTILE_MODES:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )
    if q.numel() and not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    # The output shape: the quantiles first, then what the reduction leaves.
    if dim is not None and input.ndim:
        dim = _wrap_dim(dim, input.ndim)
        shape = list(input.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
    else:
        if dim is not None:
            _wrap_dim(dim, 0)
        shape = [1] * input.ndim if keepdim else []
    if dim is None:
        ordered = sort(input.flatten())[0]
    elif dim == builtins.max(input.ndim - 1, 0) and input.ndim:
        ordered = sort(input)[0]
    else:
        ordered = sort(input.unsqueeze(-1).transpose(dim, -1))[0]
    ordered = ordered.view(*shape, ordered.shape[-1])
    # The rank of each quantile among the sorted values (the last one where a row holds NaN).
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not().sum(-1, keepdim=True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:
        last = ordered.shape[-1] - 1
        ranks = (q * last).expand(_broadcast_shape(q.shape, (*ordered.shape[:-1], 1)))
        ranks = ranks.masked_fill(ordered.isnan().any(-1, keepdim=True), last)
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": floor, "higher": ceil, "nearest": round}[interpolation](ranks)
    below = ranks.to(dtypes.int64)
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks.new_full(tuple(ranks.shape), 0.5) if interpolation == "midpoint" else ranks - below
        values = values.lerp_(ordered.gather(-1, ceil(ranks).to(dtypes.int64)), weights)
    if q.ndim == 0:
        return squeeze_inplace_op(values, dims=(values.ndim - 1,))
    values = transpose_inplace_op(unsqueeze_inplace_op(values, dim=0), dim0=0, dim1=values.ndim)
    return squeeze_inplace_op(values, dims=(values.ndim - 1,))


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: Number | None = None, dim: int = -1) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, with the samples at ``x``
    (a tensor) or ``dx`` apart (1 by default).

    >>> import minigrad as torch
    >>> torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]), dx=0.5)
    tensor(2.)
    """
    return _trapezoid("trapezoid", y, x, dx, dim, cumulative=False)


def trapz(y: Tensor, x: Tensor | None = None, *, dx: Number | None = None, dim: int = -1) -> Tensor:
    """``trapezoid`` under its older name.

    >>> import minigrad as torch
    >>> torch.trapz(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.0, 1.0, 3.0]))
    tensor(6.5000)
    """
    return _trapezoid("trapz", y, x, dx, dim, cumulative=False)


def cumulative_trapezoid(y: Tensor, x: Tensor | None = None, *, dx: Number | None = None, dim: int = -1) -> Tensor:
    """The running integrals of ``y`` along ``dim`` by the trapezoidal rule (one value fewer than
    ``y`` has samples).

    >>> import minigrad as torch
    >>> torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0]))
    tensor([1.5000, 4.0000])
    """
    return _trapezoid("cumulative_trapezoid", y, x, dx, dim, cumulative=True)


def _trapezoid(name: str, y: Tensor, x, dx, dim: int, cumulative: bool) -> Tensor:
    if not isinstance(y, Tensor) or (x is not None and (dx is not None or not isinstance(x, Tensor))):
        raise _invalid_arguments(name, *[v for v in (y, x, dx) if v is not None])
    dim = _wrap_dim(dim, y.ndim)
    size = y.shape[dim]
    if size == 0 and not cumulative:  # no samples: 0, as NumPy
        return y.new_zeros(tuple(s for d, s in enumerate(y.shape) if d != dim))
    base = "cumulative_trapezoid" if cumulative else "trapezoid"
    if y.dtype is dtypes.bool or (x is not None and x.dtype is dtypes.bool):
        what = "`y`" if x is None else "`x` or `y`"
        raise RuntimeError(f"{base}: received a bool input for {what}, but bool is not supported")
    if x is None and dx is not None and (isinstance(dx, bool) or not isinstance(dx, int | float)):
        raise RuntimeError(f"{base}: Currently, we only support dx as a real number.")
    inner_length = builtins.max(size - 1, 0)
    left, right = narrow(y, dim, 0, inner_length), narrow(y, dim, builtins.min(size, 1), inner_length)
    if x is None:
        step = 1 if dx is None else dx
        if cumulative:
            return cumsum(_times_number(left + right, step / 2.0, mul_scalar_op), dim)
        ends = _times_number(y.select(dim, 0) + y.select(dim, -1), 0.5, mul_scalar_op)
        return _times_number(y.sum(dim) - ends, step, mul_scalar_op)
    # x is not broadcast to y: its differences are (NumPy's rule), after lining its dims up with y's.
    if x.ndim == 1:
        if x.shape[0] != size:
            raise RuntimeError(f"{base}: There must be one `x` value for each sample point")
        x = x.view(*[size if d == dim else 1 for d in range(y.ndim)])
    elif x.ndim < y.ndim:
        x = x.view(*([1] * (y.ndim - x.ndim)), *x.shape)
    length = x.shape[dim]
    inner = builtins.max(length - 1, 0)  # no samples: no steps
    steps = narrow(x, dim, builtins.min(length, 1), inner) - narrow(x, dim, 0, inner)
    if cumulative:
        return _times_number(cumsum((right + left) * steps, dim), 2.0, div_scalar_op)
    return _times_number(((right + left) * steps).sum(dim), 2.0, div_scalar_op)


def _times_number(t: Tensor, number: Number, op: Op) -> Tensor:
    """``t * number`` or ``t / number`` as PyTorch's C++ composites record it (``MulBackward1``,
    ``DivBackward1``: the Scalar overloads), in the promoted dtype."""
    dtype = _operand_dtype((t, number))
    if op is div_scalar_op and not dtype.is_floating_point:
        dtype = dtypes.get_default_dtype()
    return op(t, other=number, dtype=dtype if dtype is not t.dtype else None)


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803 - PyTorch's name
    """The Vandermonde matrix of the 1-D ``x``: columns ``x**(N-1), ..., x, 1`` (the other way
    round with ``increasing=True``); integers give int64. PyTorch's composite (a cumprod).

    >>> import minigrad as torch
    >>> torch.vander(torch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [4, 2, 1],
            [9, 3, 1]])
    """
    _check_tensor(x, "vander")
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    result = x.new_zeros((x.shape[0], n), dtype=dtypes.promote_types(x.dtype, dtypes.int64))
    if n > 0:
        result.fill_(1)
        if n > 1:
            narrow(result, 1, 1, n - 1).copy_(x.unsqueeze(1))
            narrow(result, 1, 1, n - 1).copy_(cumprod(narrow(result, 1, 1, n - 1), 1))
    return result if increasing else flip(result, (1,))


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` combinations of the elements of the 1-D ``input`` (one per row), as
    ``itertools.combinations`` (or ``combinations_with_replacement``).

    >>> import minigrad as torch
    >>> torch.combinations(torch.tensor([1, 2, 3]))
    tensor([[1, 2],
            [1, 3],
            [2, 3]])
    """
    _check_tensor(input, "combinations")
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_zeros((0,))
    grids = meshgrid(*([input] * r), indexing="ij")
    xp, n = backend.xp(input.device), input.shape[0]
    with backend.on(input.device):
        index = xp.indices((n,) * r)
        keep = xp.ones((n,) * r, dtype=bool)
        for k in range(r - 1):  # each index after the one before it
            keep &= index[k] <= index[k + 1] if with_replacement else index[k] < index[k + 1]
    mask = Tensor._make(keep)
    return stack([masked_select(g, mask) for g in grids], 1)


def histc(input: Tensor, bins: int = 100, min: Number = 0, max: Number = 0) -> Tensor:  # noqa: A002
    """A histogram of ``bins`` equal bins over [``min``, ``max``] (the data's own range when
    both are 0); elements outside are not counted. Never differentiable.

    >>> import minigrad as torch
    >>> torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    _check_tensor(input, "histc")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = float(min), float(max)
    if lo == hi and input.numel():
        lo, hi = float(input.min().item()), float(input.max().item())  # (float() would warn for a tensor that requires grad)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")  # (as C++ prints doubles)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    # PyTorch checks the range first, then makes the bin edges in the input's dtype (linspace),
    # then finds it has no integer kernel
    _check_fits(lo, input.dtype)
    _check_fits(hi, input.dtype)
    if not input.dtype.is_floating_point:
        raise _no_kernel(f"{'linspace' if input.dtype is dtypes.bool else 'histogram'}_{input.device.type}", input.dtype)
    xp = backend.xp(input.device)
    with backend.on(input.device):
        data = input._data.reshape(-1)
        data = data[(data >= lo) & (data <= hi)]
        # the bin of each value, computed as PyTorch's kernel (in the input's dtype)
        edge, width = xp.asarray(lo, dtype=data.dtype), xp.asarray(hi - lo, dtype=data.dtype)
        position = xp.minimum(((data - edge) / width * bins).astype(xp.int64), bins - 1)
        return Tensor._make(xp.bincount(position, minlength=bins).astype(input._data.dtype))


return_types_histogram = _return_type("histogram", ("hist", "bin_edges"))


def histogram(input: Tensor, bins=100, *, range=None, weight: Tensor | None = None, density: bool = False):  # noqa: A002
    """``(hist, bin_edges)``: a histogram of ``input`` over ``bins`` (a count of equal bins over
    ``range``, by default the data's range, or a 1-D tensor of increasing edges), optionally
    weighted; ``density=True`` scales it to integrate to 1. The last bin includes its right edge.

    >>> import minigrad as torch
    >>> torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=2).hist
    tensor([2., 1.])
    """
    _check_tensor(input, "histogram")
    if isinstance(bins, Tensor) and range is not None:
        raise _invalid_arguments("histogram", input, bins, range)
    if not input.dtype.is_floating_point:
        raise _no_kernel("histogramdd", input.dtype)
    if isinstance(bins, Tensor) and bins.dtype is not input.dtype:
        raise RuntimeError(
            "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype "
            f"{_cpp_name(input.dtype)} and bins for dimension 0 with dtype {_cpp_name(bins.dtype)}"
        )
    xp = backend.xp(input.device)
    dtype = input._data.dtype
    with backend.on(input.device):
        data = input._data.reshape(-1)
        if isinstance(bins, Tensor):
            if bins.ndim != 1:
                raise RuntimeError(f"torch.histogram(): bins tensor should have one dimension, but got {bins.ndim} dimensions")
            edges = bins._data.astype(dtype)
        else:
            if bins <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
            if range is not None:
                lo, hi = float(range[0]), float(range[1])
            elif data.size:
                lo, hi = float(data.min()), float(data.max())
            else:
                lo, hi = 0.0, 0.0
            if lo > hi:
                raise RuntimeError(f"torch.histogram(): min should not exceed max, but got min {lo} max {hi} for dimension 0")
            if not (math.isfinite(lo) and math.isfinite(hi)):
                raise RuntimeError(f"torch.histogram(): range of [{lo}, {hi}] is not finite")
            if lo == hi:  # one value: a bin of width 1 around it
                lo, hi = lo - 0.5, hi + 0.5
            edges = xp.linspace(lo, hi, bins + 1).astype(dtype)
        count = edges.shape[0] - 1
        inside = (data >= edges[0]) & (data <= edges[-1])
        position = xp.minimum(xp.searchsorted(edges, data[inside], side="right") - 1, count - 1)
        weights = None if weight is None else weight._data.reshape(-1)[inside].astype(dtype)
        hist = xp.bincount(position, weights=weights, minlength=count).astype(dtype) if count > 0 else xp.zeros(0, dtype)
        if density:
            hist = hist / (hist.sum() * xp.diff(edges))
        return return_types_histogram(Tensor._make(hist.astype(dtype)), Tensor._make(edges))


def unravel_index(indices: Tensor, shape) -> tuple[Tensor, ...]:
    """The coordinates in an array of ``shape`` of each flat (row-major) index, one tensor per
    dimension.

    >>> import minigrad as torch
    >>> torch.unravel_index(torch.tensor([5, 7]), (3, 4))
    (tensor([1, 1]), tensor([1, 3]))
    """
    if not isinstance(indices, Tensor):
        raise TypeError(f"expected 'indices' to be a tensor, but got {type(indices).__name__}")
    if indices.dtype.is_floating_point or indices.dtype is dtypes.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    elif isinstance(shape, Sequence):
        for size in shape:
            if not isinstance(size, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(size)}")
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got shape of type {type(shape)}")
    shape = tuple(shape)
    if builtins.any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    strides = [math.prod(shape[d + 1 :]) for d in builtins.range(len(shape))]
    xp = backend.xp(indices.device)
    with backend.on(indices.device):
        flat = indices._data.astype(xp.int64)
        if 0 in shape and flat.size:
            raise RuntimeError("ZeroDivisionError")
        return tuple(Tensor._make(xp.asarray(flat // s % n)) for s, n in zip(strides, shape))


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularized lower incomplete gamma function P(``input``, ``other``) (floating tensors;
    also ``torch.special.gammainc``). Differentiable only in ``other``, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.igamma(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    tensor([0.6321, 0.2642])
    """
    return _floating_binary(igamma_op, "igamma", input, other)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularized upper incomplete gamma function Q = 1 - P (``torch.special.gammaincc``).

    >>> import minigrad as torch
    >>> torch.igammac(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    tensor([0.3679, 0.7358])
    """
    return _floating_binary(igammac_op, "igammac", input, other)


# ----------------------------------------------------------------------------------------------
# --- aliases and in-place functions ---
# ----------------------------------------------------------------------------------------------

# PyTorch's other names for the same functions (each records the same node).
absolute = abs
divide = div
multiply = mul
subtract = sub
negative = neg
greater = gt
greater_equal = ge
less = lt
less_equal = le
not_equal = ne
fix = trunc

# x.ge_(y) and the like on a float tensor in a graph: 1 or 0 in x's dtype, recorded with a zero
# gradient (GeBackward0 for a number, GeBackward1 for a tensor), as in PyTorch.
_COMPARE_INPLACE_OPS = {
    name: (Op(f"{name.capitalize()}Backward0", lambda xp, self, *, other, ufunc=ufunc: getattr(xp, ufunc)(self, other).astype(self.dtype),
              self=lambda grad: zeros_like_tensor(grad)),
           Op(f"{name.capitalize()}Backward1", lambda xp, self, other, *, ufunc=ufunc: getattr(xp, ufunc)(self, other).astype(self.dtype),
              self=lambda grad: zeros_like_tensor(grad),
              other=lambda grad: zeros_like_tensor(grad)))
    for name, ufunc in _COMPARISONS.items()
}


def _compare_inplace(name: str, input: Tensor, other) -> Tensor:
    """What ``input.<name>_(other)`` writes: the comparison, recorded when ``input`` is a float
    tensor and the change is recorded (else a plain bool result, cast on writing)."""
    recorded = is_grad_enabled() and (input.requires_grad or isinstance(other, Tensor) and other.requires_grad)
    if not (recorded and input.dtype.is_floating_point):
        return _compare(_COMPARISONS[name], input, other)
    number_op, tensor_op = _COMPARE_INPLACE_OPS[name]
    if isinstance(other, Tensor):
        return _binary(tensor_op, input, other)
    return number_op(input, other=other)


def true_divide(input, other) -> Tensor:
    """``div(input, other)``: true division (integers give floats)."""
    return div(input, other)


def positive(input: Tensor) -> Tensor:
    """``+input``: the tensor itself (not for bool tensors, as in PyTorch).

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, -2.0])
    >>> torch.positive(x) is x
    True
    """
    if input.dtype is dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def ravel(input: Tensor) -> Tensor:
    """The elements in one dimension, in row-major order (a view when ``input`` is contiguous,
    else a copy first: ``CloneBackward0`` under ``ViewBackward0``).

    >>> import minigrad as torch
    >>> torch.tensor([[1, 2], [3, 4]]).t().ravel()
    tensor([1, 3, 2, 4])
    """
    return view(input.contiguous(), -1)


def msort(input: Tensor) -> Tensor:
    """``input`` sorted along its first dimension (``sort(input, dim=0).values``).

    >>> import minigrad as torch
    >>> torch.msort(torch.tensor([[3, 1], [2, 4]]))
    tensor([[2, 1],
            [3, 4]])
    """
    return sort(input, 0)[0]


def concatenate(tensors: Sequence[Tensor], axis: int = 0, *, dim: int | None = None) -> Tensor:
    """NumPy's name for :func:`cat` (``axis`` or ``dim`` is the dimension).

    >>> import minigrad as torch
    >>> torch.concatenate([torch.tensor([1]), torch.tensor([2, 3])])
    tensor([1, 2, 3])
    """
    return cat(tensors, axis if dim is None else dim)


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dimensions: a transpose for real tensors.

    >>> import minigrad as torch
    >>> torch.tensor([[1, 2]]).adjoint()
    tensor([[1],
            [2]])
    """
    if input.ndim == 0:
        _warn.warn("adjoint() is deprecated on 0-D tensors. Consider using x.conj().", UserWarning)
        return input
    if input.ndim == 1:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return transpose(input, -2, -1)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input``'s dtype is a floating point one."""
    return input.is_floating_point()


def is_signed(input: Tensor) -> bool:
    """Whether ``input``'s dtype holds negative numbers (not uint8 or bool)."""
    return input.is_signed()


def is_nonzero(input: Tensor) -> bool:
    """Whether the one element of ``input`` is not zero.

    >>> import minigrad as torch
    >>> torch.is_nonzero(torch.tensor([0.5])), torch.tensor(0).is_nonzero()
    (True, False)
    """
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return builtins.bool(input.item())


def is_neg(input: Tensor) -> bool:
    """Always False: minigrad has no lazy negation bit."""
    return input.is_neg()


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` itself (minigrad has no lazy negation to resolve)."""
    return input.resolve_neg()


def is_inference(input: Tensor) -> bool:
    """Whether ``input`` was made inside ``inference_mode()``."""
    return input.is_inference()


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same storage, cut from the graph."""
    return _check_tensor(input, "detach").detach()


def result_type(tensor1, tensor2) -> dtypes.dtype:
    """The dtype an elementwise operation on ``tensor1`` and ``tensor2`` (tensors or numbers) gives.

    >>> import minigrad as torch
    >>> torch.result_type(torch.tensor([1, 2]), 1.5), torch.result_type(torch.tensor([1.0]), 2)
    (torch.float32, torch.float32)
    """
    return _operand_dtype((tensor1, tensor2))


def can_cast(from_: dtypes.dtype, to: dtypes.dtype) -> bool:
    """Whether PyTorch's casting rules allow ``from_`` to become ``to`` in an operation with an
    output: never from float to an integer, nor from a number to bool.

    >>> import minigrad as torch
    >>> torch.can_cast(torch.int32, torch.float16), torch.can_cast(torch.float64, torch.int8)
    (True, False)
    """
    return dtypes._category(to) >= dtypes._category(from_)


def typename(obj) -> str:
    """The type of ``obj`` as a string: a tensor's legacy type (``torch.FloatTensor``), else the
    qualified class or function name.

    >>> import minigrad as torch
    >>> torch.typename(torch.tensor([1.0])), torch.typename(3)
    ('torch.FloatTensor', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qualname is None:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent.

    >>> import minigrad as torch
    >>> torch.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    from .factories import _c_cast, _computed_in, _in

    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    backend.array_dtype(dtype)  # (a dtype that is none gets PyTorch's TypeError)
    numpy = backend.numpy
    if steps <= 1:  # PyTorch fills in base ** start, start as given (or nothing)
        power = _in(float(base) ** float(start), dtype) if steps else 0
        return Tensor._make(backend.asarray(numpy.full(steps, power), dtype, device)).requires_grad_(requires_grad)
    if dtype is dtypes.bool:
        raise NotImplementedError("\"logspace_cpu\" not implemented for 'Bool'")
    else:  # PyTorch's kernel: the bounds in the dtype (integers truncated), the exponents in double
        first, last = _in(start, dtype), _in(end, dtype)
        if dtype.is_floating_point:
            first, last = numpy.asarray([first, last], _computed_in(dtype))
        step = float(last - first) / builtins.max(steps - 1, 1)
        i = numpy.arange(steps)  # (no fused multiply-add here: this kernel is compiled without)
        exponents = numpy.where(i < steps // 2, float(first) + step * i, float(last) - step * (steps - 1 - i))
    powers = numpy.array([_c_pow(float(base), e) for e in exponents.tolist()])  # (NumPy's power rounds otherwise)
    data = powers.astype(backend.array_dtype(dtype)) if dtype.is_floating_point or dtype is dtypes.bool else _c_cast(powers, dtype)
    data = backend.asarray(data, dtype, device)
    return Tensor._make(data).requires_grad_(requires_grad) if requires_grad else Tensor._make(data)


def _c_pow(base: float, exponent: float) -> float:
    """C's ``pow`` (Python's ``math.pow`` calls it), with C's nan and inf where Python raises."""
    try:
        return math.pow(base, exponent)
    except ValueError:  # a negative base and a fractional exponent
        return math.nan
    except OverflowError:
        odd = exponent.is_integer() and exponent % 2 == 1
        return -math.inf if base < 0 and odd else math.inf


def _torch_range(start, end, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``torch.range``, deprecated: values from ``start`` to ``end`` inclusive, float by default.
    (Its Python name is private here: ``range`` is the builtin inside this module.)

    >>> import warnings, minigrad as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.range(1, 3)
    tensor([1., 2., 3.])
    """
    _warn.warn(
        "torch.range is deprecated and will be removed in a future release because its behavior is inconsistent "
        "with Python's range builtin. Instead, use torch.arange, which produces values in [start, end).",
        UserWarning,
    )
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    count = math.floor((end - start) / step) + 1
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    with backend.on(device):
        data = (start + backend.xp(device).arange(count, dtype="float64") * step).astype(backend.array_dtype(dtype))
    return Tensor._make(data).requires_grad_(requires_grad) if requires_grad else Tensor._make(data)


_torch_range.__name__ = _torch_range.__qualname__ = "range"


def _torch_scalar_tensor(s, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``torch.scalar_tensor``: a 0-d tensor of the number ``s``, in the default float dtype unless
    ``dtype`` says otherwise. (Private here: ``scalar_tensor`` is an internal helper in this module.)

    >>> import minigrad as torch
    >>> torch.scalar_tensor(3), torch.scalar_tensor(2, dtype=torch.int64)
    (tensor(3.), tensor(2))
    """
    device = backend.as_device(device)
    t = Tensor._make(backend.scalar(s, dtype or dtypes.get_default_dtype(), device))
    return t.requires_grad_(requires_grad) if requires_grad else t


_torch_scalar_tensor.__name__ = _torch_scalar_tensor.__qualname__ = "scalar_tensor"

# torch.fill (out of place): FillBackward0 for a number, FillBackward1 for a 0-d tensor.
fill_out_op = Op("FillBackward0", lambda xp, self, *, value: xp.full_like(self, value),
                 self=lambda grad: zeros_like_tensor(grad))
fill_tensor_out_op = Op("FillBackward1", lambda xp, self, value: xp.full_like(self, value),
                        self=lambda grad: zeros_like_tensor(grad),
                        value=lambda grad: grad.sum())


def fill(input: Tensor, value) -> Tensor:
    """A new tensor shaped and typed like ``input``, every element ``value`` (a number or a 0-d tensor).

    >>> import minigrad as torch
    >>> torch.fill(torch.zeros(2), 3)
    tensor([3., 3.])
    """
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} dimensions.")
        return fill_tensor_out_op(input, value.to(input.device))
    return fill_out_op(input, value=value)


_num_threads = None  # what set_num_threads asked for


def get_num_threads() -> int:
    """The number of threads set by :func:`set_num_threads`, else the CPU cores this process may use.

    >>> import minigrad as torch
    >>> torch.get_num_threads() >= 1
    True
    """
    if _num_threads is not None:
        return _num_threads
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def set_num_threads(int: int) -> None:  # noqa: A002 - PyTorch's parameter name
    """Ask for ``int`` threads in CPU math. NumPy's BLAS threads can only change at run time with
    ``threadpoolctl``: where it is installed it is used; otherwise only the number is kept (what
    :func:`get_num_threads` returns) and the math runs as before."""
    global _num_threads
    if builtins.isinstance(int, builtins.bool) or not builtins.isinstance(int, builtins.int) or int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        pass
    else:
        threadpool_limits(int)
    _num_threads = int


# ----------------------------------------------------------------------------------------------
# --- in-place shape changes, as_strided, small functions ---
# ----------------------------------------------------------------------------------------------
# The in-place shape changes (x.t_(), x.unsqueeze_(0)) are PyTorch's other overloads of the view
# ops: the same forward and rule, their own node names.
t_inplace_view_op = Op("TBackward1", t_op.forward, view=True, **t_op.rules)
transpose_inplace_view_op = Op("TransposeBackward1", transpose_op.forward, view=True, **transpose_op.rules)
squeeze_inplace_all_op = Op("SqueezeBackward3", squeeze_op.forward, view=True, **squeeze_op.rules)
squeeze_inplace_dim_op = Op("SqueezeBackward4", squeeze_dim_op.forward, view=True, **squeeze_dim_op.rules)
squeeze_inplace_dims_op = Op("SqueezeBackward5", squeeze_dims_op.forward, view=True, **squeeze_dims_op.rules)
unsqueeze_inplace_view_op = Op("UnsqueezeBackward1", unsqueeze_op.forward, view=True, **unsqueeze_op.rules)


def _change_shape_(input: Tensor, op: Op, inverse: tuple | None, **params) -> Tensor:
    """``input`` given the shape and strides ``op`` makes of it, in place (PyTorch's ``t_``,
    ``squeeze_``...): the same tensor object shows its memory anew, takes ``op``'s node when
    recorded (``TBackward1``) and bumps its version. ``inverse``: the view step that takes the new
    layout back to the old one, logged on a base so that the views taken of it before can still
    be taken again (see :func:`_steps_now`)."""
    from .autograd.grad_mode import no_grad

    record = input._check_writable(())
    with enable_grad() if record else no_grad():
        changed = op(input, **params)
    input._data = changed._data
    if input._base is not None:
        input._view_steps = changed._view_steps
    elif inverse is not None:
        input._layout_log = (*getattr(input, "_layout_log", ()), (*inverse, changed._data.shape))
    if record:
        # (a retained gradient stays with the old node, as in PyTorch)
        input._grad_fn, input._output_nr = changed._grad_fn, 0
    input._version_counter.value += 1
    if record and input._base is not None:
        input._view_version = input._version_counter.value  # its new node is current: no AsStridedBackward0
    return input


def _steps_now(view: Tensor, writing: bool = False) -> tuple:
    """The view steps that take ``view`` from its base's current layout: its own, unless the base
    changed its shape in place since (``base.t_()``); then the base's logged inverse steps lead
    back to the layout the view was taken from (found by where the view lies in memory).
    ``writing``: for an in-place change of the view, which is refused where its gradient would be
    wrong (``CopySlices`` works on a gradient laid out without the gaps of an ``as_strided_``)."""
    log = getattr(view._base, "_layout_log", ())
    steps = view._view_steps
    if not log:
        return steps
    xp, base = backend.xp(view.device), view._base._data
    for k in builtins.range(len(log) + 1):
        candidate = tuple(reversed(log[len(log) - k :])) + steps
        replayed = _replay(xp, base, candidate)
        if replayed is not None and replayed.shape == view._data.shape and replayed.strides == view._data.strides and (
            not view._data.size or backend._address(replayed) == backend._address(view._data)
        ):
            view._view_steps = steps = candidate  # found once: it holds until the base changes again
            break
    relaid = builtins.any(step is entry and entry[0] is as_strided_view_op for step in steps for entry in log)
    if writing and relaid and not backend.dense(base):
        raise NotImplementedError(
            "minigrad cannot differentiate an in-place change of a view taken before its base was given a "
            "layout with gaps by as_strided_(); take the view again after as_strided_(), or clone the base"
        )
    return steps


def _replay(xp, base, steps):
    """The view ``steps`` take from ``base``, or None where a step meets another shape than the
    one it was recorded on: its parameters (a diagonal's sizes, a view's shape) would be wrong,
    even where the memory it picks happens to match."""
    for step in steps:
        if base.shape != tuple(step[2]):
            return None
        try:
            base = _take_view(xp, base, (step,))
        except (ValueError, IndexError):
            return None
    return base


def _t_(input: Tensor) -> Tensor:
    """Transpose ``input`` (at most 2-D) in place: it shows its memory with the strides swapped
    (``TBackward1``).

    >>> import minigrad as torch
    >>> x = torch.zeros(2, 3)
    >>> x.t_().shape, x.stride()
    (torch.Size([3, 2]), (1, 3))
    """
    if input.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _change_shape_(input, t_inplace_view_op, (t_op, {}) if input.ndim == 2 else None)


def _transpose_(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap dimensions ``dim0`` and ``dim1`` of ``input`` in place (``TransposeBackward1``).

    >>> import minigrad as torch
    >>> torch.zeros(2, 3, 4).transpose_(0, 2).shape
    torch.Size([4, 3, 2])
    """
    dim0, dim1 = _wrap_dim(dim0, input.ndim), _wrap_dim(dim1, input.ndim)
    inverse = (transpose_op, {"dim0": dim0, "dim1": dim1}) if input.ndim else None
    return _change_shape_(input, transpose_inplace_view_op, inverse, dim0=dim0, dim1=dim1)


def _swapaxes_(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input.transpose_(axis0, axis1)`` (NumPy's name)."""
    return _transpose_(input, axis0, axis1)


def _swapdims_(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``input.transpose_(dim0, dim1)``."""
    return _transpose_(input, dim0, dim1)


def _squeeze_(input: Tensor, dim=None) -> Tensor:
    """Remove dimensions of size 1 from ``input`` in place: all of them, ``dim`` or the dims of a
    tuple (``SqueezeBackward3``/``4``/``5``).

    >>> import minigrad as torch
    >>> x = torch.zeros(1, 2, 1)
    >>> x.squeeze_(0).shape, x.squeeze_().shape
    (torch.Size([2, 1]), torch.Size([2]))
    """
    shape = input.shape
    inverse = (view_op, {"shape": shape})
    if dim is None:
        return _change_shape_(input, squeeze_inplace_all_op, inverse)
    if isinstance(dim, tuple | list):
        return _change_shape_(input, squeeze_inplace_dims_op, inverse, dims=_dims(tuple(dim), input.ndim))
    return _change_shape_(input, squeeze_inplace_dim_op, inverse, dim=_wrap_dim(dim, input.ndim))


def _unsqueeze_(input: Tensor, dim: int) -> Tensor:
    """Insert a dimension of size 1 at ``dim`` of ``input`` in place (``UnsqueezeBackward1``).

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).unsqueeze_(-1).shape
    torch.Size([2, 3, 1])
    """
    size = input.ndim + 1
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"unsqueeze_(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
    if not -size <= dim < size:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-size}, {size - 1}], but got {dim})")
    dim %= size
    return _change_shape_(input, unsqueeze_inplace_view_op, (squeeze_dim_op, {"dim": dim}), dim=dim)


# as_strided: a view of the input's memory block with any sizes, strides and offset (in
# elements). The step replays on an array laid out like the input (the base, or a gradient
# shaped like it), relative to the input's first element; the gradient sums what lands on each
# memory location (PyTorch's as_strided_backward), divided among the input's elements that
# share a location.
as_strided_view_op = Op("AsStridedBackward0", lambda xp, self, *, size, stride, storage_offset, origin: _strided(xp, self, size, stride, storage_offset, origin),
                        view=True, self=lambda grad, size, stride, storage_offset, origin: _as_strided_backward(grad, size, stride, storage_offset, origin))
as_strided_inplace_op = Op("AsStridedBackward1", as_strided_view_op.forward, view=True, **as_strided_view_op.rules)
as_strided_copy_op = Op("AsStridedBackward0_copy", lambda xp, self, *, size, stride, storage_offset, origin: _strided(xp, self, size, stride, storage_offset, origin).copy(),
                        **as_strided_view_op.rules)
as_strided_scatter_op = Op("AsStridedScatterBackward0", lambda xp, self, src, *, size, stride, storage_offset, origin: _strided_scattered(xp, self, src, size, stride, storage_offset, origin),
                           self=lambda grad, size, stride, storage_offset, origin: _strided_scatter_self_grad(grad, size, stride, storage_offset, origin),
                           src=lambda grad, size, stride, storage_offset, origin: _strided_copy(grad, size, stride, storage_offset, origin))


def _storage(xp, a):
    """``a``'s whole memory block as a 1-D array (a view), and where ``a`` starts in it."""
    root = a
    while backend.is_array(root.base) and root.base.dtype == a.dtype:
        root = root.base
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        root = a  # (memory NumPy did not lay out itself: take the array as its own block)
    flat = root.reshape(-1, order="A")
    return flat, (backend._address(a) - backend._address(root)) // a.itemsize if a.size and root is not a else 0


def _strided(xp, a, size, stride, storage_offset, origin):
    in_shape, in_strides, in_offset = origin
    if a.shape != tuple(in_shape) or (a.ndim and backend.element_strides(a) != tuple(in_strides)):
        return _strided_in_own_layout(xp, a, size, stride, storage_offset, origin)  # (a gradient laid out otherwise)
    flat, start = _storage(xp, a)
    return backend.view_at(flat, start + storage_offset - in_offset, size, stride)


def _strided_in_own_layout(xp, a, size, stride, storage_offset, origin):
    """The strided view, taken from an array ``a`` shaped like the input but laid out otherwise:
    a view of ``a`` when the elements it shows are the input's and lie evenly spaced in ``a``
    too, else a copy."""
    in_at, out_at = _strided_positions(xp, *origin), _strided_positions(xp, size, stride, storage_offset)
    if in_at.size and out_at.size:
        low = builtins.min(int(in_at.min()), int(out_at.min()))
        which = xp.full(builtins.max(int(in_at.max()), int(out_at.max())) + 1 - low, -1, dtype="int64")
        which[(in_at - low).reshape(-1)] = xp.arange(in_at.size)  # the input's element at each location
        picked = which[out_at - low]
        steps = backend.element_strides(a)
        at = _strided_positions(xp, a.shape, steps, 0).reshape(-1)[xp.maximum(picked, 0)]  # where they lie in a
        start = int(at.reshape(-1)[0])
        a_stride = tuple(int(at[(0,) * k + (1,) + (0,) * (len(size) - k - 1)]) - start if n > 1 else 0 for k, n in enumerate(size))
        if int(picked.min()) >= 0 and bool((at == _strided_positions(xp, size, a_stride, start)).all()):
            flat, begin = _storage(xp, a)
            return backend.view_at(flat, begin + start, size, a_stride)
    return _in_block(xp, a, size, stride, storage_offset, origin)[1]


def _in_block(xp, a, size, stride, storage_offset, origin):
    """``a``'s elements put where the input's (``origin``: shape, strides, offset) lie in a fresh
    memory block; the block, the strided view of it, and where ``a``'s elements are in it."""
    in_at, out_at = _strided_positions(xp, *origin), _strided_positions(xp, size, stride, storage_offset)
    low = builtins.min([int(p.min()) for p in (in_at, out_at) if p.size], default=0)
    extent = builtins.max([int(p.max()) for p in (in_at, out_at) if p.size], default=-1) + 1 - low
    block = xp.zeros(extent, dtype=a.dtype)
    block[in_at - low] = a
    view = backend.view_at(block, storage_offset - low, size, stride)
    return block, view, in_at - low


def _strided_positions(xp, size, stride, offset):
    """Where each element of the strided layout lies in memory (element offsets), as an array."""
    at = xp.asarray(offset, dtype="int64")
    for d, (n, s) in enumerate(zip(size, stride)):
        at = at + (xp.arange(n, dtype="int64") * s).reshape((n,) + (1,) * (len(size) - d - 1))
    return xp.broadcast_to(at, tuple(size))


def _as_strided_backward(grad: Tensor, size, stride, storage_offset, origin) -> Tensor:
    in_shape, in_strides, in_offset = origin
    xp = backend.xp(grad.device)
    out_at, in_at = _strided_positions(xp, size, stride, storage_offset), _strided_positions(xp, in_shape, in_strides, in_offset)
    if not in_at.size:
        return grad.new_zeros(tuple(in_shape))
    low = builtins.min(int(in_at.min()), int(out_at.min()) if out_at.size else 0)
    extent = builtins.max(int(in_at.max()), int(out_at.max()) if out_at.size else 0) + 1 - low
    block = index_add_op(grad.new_zeros((extent,)), grad.reshape(-1), dim=0, index=(out_at - low).reshape(-1), alpha=1)
    result = take_op(block, index=in_at - low)
    shared = xp.bincount((in_at - low).reshape(-1), minlength=extent)
    if int(shared.max()) > 1:  # input elements sharing one location share its gradient
        result = result / Tensor._make(shared[in_at - low].astype(grad._data.dtype))
    return result


def _strided_copy(grad: Tensor, size, stride, storage_offset, origin) -> Tensor:
    """The values of ``grad`` (laid out like the input) that the strided view reads (a copy)."""
    return as_strided_copy_op(grad, size=size, stride=stride, storage_offset=storage_offset, origin=origin)


def _strided_scattered(xp, a, src, size, stride, storage_offset, origin):
    block, view, at = _in_block(xp, a, size, stride, storage_offset, origin)
    view[...] = src
    return block[at]


def _strided_scatter_self_grad(grad: Tensor, size, stride, storage_offset, origin) -> Tensor:
    """``grad`` with zeros where the scattered source went."""
    return as_strided_scatter_op(grad, grad.new_zeros(tuple(size)), size=size, stride=stride, storage_offset=storage_offset, origin=origin)


def _strided_args(name: str, input: Tensor, size, stride, storage_offset) -> dict:
    """PyTorch's checks of as_strided's arguments, and the op's parameters."""
    _check_tensor(input, name)
    size, stride = tuple(_shape_args((size,))), tuple(_shape_args((stride,)))
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if builtins.any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if builtins.any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    offset = input.storage_offset() if storage_offset is None else storage_offset
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    flat, start = _storage(backend.xp(input.device), input._data)
    needed = 0 if not builtins.all(size) else offset + 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride))
    available = flat.size - start + input.storage_offset()
    if needed > available:
        itemsize = input.dtype.itemsize
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and itemsize "
            f"{itemsize} requiring a storage size of {needed * itemsize} are out of bounds for storage of size "
            f"{available * itemsize}"
        )
    origin = (tuple(input.shape), input.stride(), input.storage_offset())
    return {"size": size, "stride": stride, "storage_offset": offset, "origin": origin}


def as_strided(input: Tensor, size, stride, storage_offset: int | None = None) -> Tensor:
    """A view of ``input``'s memory with the given ``size``, ``stride`` and ``storage_offset``
    (in elements; the input's own offset when not given). Elements may overlap; the gradient
    adds up what reaches each memory location (``AsStridedBackward0``).

    >>> import minigrad as torch
    >>> torch.arange(6.).as_strided((2, 2), (1, 2), 1)
    tensor([[1., 3.],
            [2., 4.]])
    """
    return as_strided_view_op(input, **_strided_args("as_strided", input, size, stride, storage_offset))


def as_strided_(input: Tensor, size, stride, storage_offset: int | None = None) -> Tensor:
    """``input`` changed in place to show its memory with ``size``, ``stride`` and
    ``storage_offset`` (``AsStridedBackward1``).

    >>> import minigrad as torch
    >>> torch.arange(6.).as_strided_((3,), (2,))
    tensor([0., 2., 4.])
    """
    params = _strided_args("as_strided_", input, size, stride, storage_offset)
    back = {"size": tuple(input.shape), "stride": input.stride(), "storage_offset": input.storage_offset()}
    back["origin"] = (params["size"], params["stride"], params["storage_offset"])  # (from the new layout)
    return _change_shape_(input, as_strided_inplace_op, (as_strided_view_op, back), **params)


def as_strided_copy(input: Tensor, size, stride, storage_offset: int | None = None) -> Tensor:
    """A copy of ``as_strided(input, size, stride, storage_offset)`` (``AsStridedBackward0_copy``).

    >>> import minigrad as torch
    >>> torch.as_strided_copy(torch.arange(4.), (2,), (2,))
    tensor([0., 2.])
    """
    return as_strided_copy_op(input, **_strided_args("as_strided_copy", input, size, stride, storage_offset))


def as_strided_scatter(input: Tensor, src: Tensor, size, stride, storage_offset: int | None = None) -> Tensor:
    """A copy of ``input`` with ``src`` written where ``input.as_strided(size, stride,
    storage_offset)`` lies (``AsStridedScatterBackward0``).

    >>> import minigrad as torch
    >>> torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,))
    tensor([1., 0., 1., 0.])
    """
    params = _strided_args("as_strided_scatter", input, size, stride, storage_offset)
    if not isinstance(src, Tensor):
        raise TypeError(f"as_strided_scatter(): argument 'src' (position 2) must be Tensor, not {type(src).__name__}")
    if tuple(src.shape) != params["size"]:
        raise RuntimeError(
            f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, slice size = {list(params['size'])}"
        )
    if src.dtype is not input.dtype:
        src = src.to(input.dtype)
    return as_strided_scatter_op(input, src, **params)


# torch.div(x, y, rounding_mode=None): true division, PyTorch's other overload (DivBackward2).
div_none_op = Op("DivBackward2", lambda xp, self, other, *, rounding_mode: self / other, **div_op.rules)


# The *_copy functions: the view functions' results as new row-major tensors, each recorded as
# its view op's node with ``_copy`` added (``TBackward0_copy``); narrow_copy has its own node.
_COPY_OPS: dict = {}


def _copy_op(op: Op, name: str | None = None) -> Op:
    """The op that runs the view ``op`` and copies its result (same rules, its own node name)."""
    key = (op, name)
    if key not in _COPY_OPS:
        forward = op.forward
        _COPY_OPS[key] = Op(name or op.name + "_copy", lambda xp, self, **params: forward(xp, self, **params).copy(), **op.rules)
    return _COPY_OPS[key]


def _copied_view(name: str, view_function, node_name: str | None = None):
    """``torch.<name>``: ``view_function``'s result copied, recorded as one ``..._copy`` node."""

    def function(input: Tensor, *args, **kwargs) -> Tensor:
        _check_tensor(input, name)
        view = view_function(input, *args, **kwargs)
        node = view._grad_fn
        if node is None or not is_grad_enabled():
            return Tensor._make(view._data.copy())
        return _copy_op(node.op, node_name)(input, **node.params)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"A copy of what ``{view_function.__name__}`` shows (not a view), recorded as one node.\n\n"
        f"    >>> import minigrad as torch\n    >>> torch.t_copy(torch.tensor([[1, 2]])).is_contiguous()\n    True\n"
    )
    return function


def _copied_views(name: str, views_function):
    """``torch.<name>``: the views ``views_function`` returns, copied, sharing one ``..._copy`` node."""

    def function(input: Tensor, *args, **kwargs) -> tuple[Tensor, ...]:
        _check_tensor(input, name)
        views = views_function(input, *args, **kwargs)
        node = views[0]._grad_fn if views else None
        if node is not None:
            node_class = _COPY_OPS.get(type(node))
            if node_class is None:
                node_class = _COPY_OPS[type(node)] = type(node._name + "_copy", (type(node),), {"_name": node._name + "_copy"})
            node = node_class(input, node.params, node.shapes)
        return tuple(Tensor._make(v._data.copy(), node is not None, node, i) for i, v in enumerate(views))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"Copies of the views ``{views_function.__name__}`` returns, sharing one node."
    return function


def _slice(input: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    dim = _wrap_dim(dim, input.ndim)
    return slice_op(input, key=(slice(None),) * dim + (slice(start, end, step),))


alias_copy = _copied_view("alias_copy", lambda input: alias_op(input))
diagonal_copy = _copied_view("diagonal_copy", diagonal)
expand_copy = _copied_view("expand_copy", lambda input, size, *, implicit=False: expand(input, size))
narrow_copy = _copied_view("narrow_copy", narrow, "NarrowCopyBackward0")
permute_copy = _copied_view("permute_copy", permute)
select_copy = _copied_view("select_copy", select)
slice_copy = _copied_view("slice_copy", _slice)
squeeze_copy = _copied_view("squeeze_copy", squeeze)
t_copy = _copied_view("t_copy", t)
transpose_copy = _copied_view("transpose_copy", transpose)
unfold_copy = _copied_view("unfold_copy", _unfold)
unsqueeze_copy = _copied_view("unsqueeze_copy", unsqueeze)
view_copy = _copied_view("view_copy", view)
split_copy = _copied_views("split_copy", split)
split_with_sizes_copy = _copied_views("split_with_sizes_copy", split_with_sizes)
unbind_copy = _copied_views("unbind_copy", unbind)
detach_copy_op = Op("NotImplemented", lambda xp, self: self.copy(), self=lambda grad: _raise(RuntimeError("derivative for aten::detach_copy is not implemented")))


def detach_copy(input: Tensor) -> Tensor:
    """A copy of ``input`` outside the graph; as in PyTorch, recorded (when ``input`` requires grad)
    as a node whose backward raises.

    >>> import minigrad as torch
    >>> torch.detach_copy(torch.tensor([1.0, 2.0]))
    tensor([1., 2.])
    """
    return detach_copy_op(_check_tensor(input, "detach_copy"))


# Complex-number queries on real tensors (minigrad has no complex dtypes): what PyTorch answers
# for real tensors.
def is_complex(input: Tensor) -> bool:
    """False: minigrad's tensors are real.

    >>> import minigrad as torch
    >>> torch.is_complex(torch.zeros(2))
    False
    """
    return _check_tensor(input, "is_complex") is None


def is_conj(input: Tensor) -> bool:
    """False: a real tensor is never a lazily conjugated view."""
    return _check_tensor(input, "is_conj") is None


def conj(input: Tensor) -> Tensor:
    """The complex conjugate: ``input`` itself for a real tensor (as in PyTorch).

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, -2.0])
    >>> torch.conj(x) is x, torch.resolve_conj(x) is x, torch.conj_physical(x) is x
    (True, True, True)
    """
    return _check_tensor(input, "conj")


def resolve_conj(input: Tensor) -> Tensor:
    """``input`` with a lazy conjugation applied: itself for a real tensor."""
    return _check_tensor(input, "resolve_conj")


def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, computed: ``input`` itself for a real tensor (as in PyTorch)."""
    return _check_tensor(input, "conj_physical")


def real(input: Tensor) -> Tensor:
    """The real part: ``input`` itself for a real tensor."""
    return _check_tensor(input, "real")


def imag(input: Tensor) -> Tensor:
    """The imaginary part: PyTorch refuses it for real tensors."""
    _check_tensor(input, "imag")
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def isreal(input: Tensor) -> Tensor:
    """True where the imaginary part is 0: everywhere for a real tensor (a bool tensor).

    >>> import minigrad as torch
    >>> torch.isreal(torch.tensor([1.0, float("nan")]))
    tensor([True, True])
    """
    _check_tensor(input, "isreal")
    return Tensor._make(backend.xp(input.device).ones(input._data.shape, dtype=bool))


angle_op = Op("AngleBackward0", lambda xp, self: _angle(xp, self),
              self=lambda grad, self: _angle_backward(grad, self))


def _angle(xp, a):
    """pi for negative numbers, 0 otherwise, nan kept (PyTorch's angle of a real number)."""
    dtype = a.dtype if a.dtype.kind == "f" else backend.array_dtype(dtypes.get_default_dtype())
    return xp.where(a < 0, xp.asarray(math.pi, dtype=dtype), xp.where(a != a, a, 0)).astype(dtype, copy=False)


def _angle_backward(grad: Tensor, self: Tensor) -> Tensor:
    return zeros_like_tensor(grad)  # a step function: exact zeros (even for a nan or inf grad), as PyTorch's


def angle(input: Tensor) -> Tensor:
    """The angle of each element as a complex number: pi for negative numbers, 0 for the others
    (nan stays nan); integers give floats (``AngleBackward0``, whose gradient is 0).

    >>> import minigrad as torch
    >>> torch.angle(torch.tensor([-1.0, 0.0, 2.0]))
    tensor([3.1416, 0.0000, 0.0000])
    """
    return angle_op(_check_tensor(input, "angle"))


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """Whether ``input`` and ``other`` have the same shape.

    >>> import minigrad as torch
    >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3))
    True
    """
    _check_tensor(input, "is_same_size")
    if not isinstance(other, Tensor):
        raise TypeError(f"is_same_size(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return input.shape == other.shape


def cudnn_is_acceptable(input: Tensor) -> bool:
    """Whether cuDNN could take ``input``: never in minigrad (it does not use cuDNN)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"cudnn_is_acceptable(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return False


def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """``nonzero(input)`` with exactly ``size`` rows: cut off, or filled up with ``fill_value``.

    >>> import minigrad as torch
    >>> torch.nonzero_static(torch.tensor([0, 3, 5]), size=3)
    tensor([[ 1],
            [ 2],
            [-1]])
    """
    _check_tensor(input, "nonzero_static")
    if not isinstance(size, int) or size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = nonzero(input)._data[:size]
    xp = backend.xp(input.device)
    fill = xp.full((size - found.shape[0], input.ndim), fill_value, dtype="int64")
    return Tensor._make(xp.concatenate([found, fill]))


def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1) -> tuple[Tensor, ...]:
    """Estimates of the derivatives of ``input`` along each dim (or ``dim``) by central
    differences inside and one-sided ones (first or second order, ``edge_order``) at the ends.
    ``spacing``: the distance between samples (a number, one per dim) or their coordinates (one
    tensor per dim). A composite of slices, subtractions, divisions and cat, as PyTorch's.

    >>> import minigrad as torch
    >>> torch.gradient(torch.tensor([1.0, 2.0, 4.0, 7.0]))
    (tensor([1.0000, 1.5000, 2.5000, 3.0000]),)
    """
    _check_tensor(input, "gradient")
    dims = list(range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if isinstance(spacing, list | tuple):
        if len(spacing) != len(dims):
            given = "since dim argument was not given" if dim is None else "to match dim argument"
            expected = f"'self.dim() = {input.ndim}'" if dim is None else f"'len(dim) = {len(dims)}'"
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to {expected}, "
                f"{given}, but got a list of length {len(spacing)}"
            )
        spacings = list(spacing)
    else:
        spacings = [spacing] * len(dims)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = [_wrap_dim(d, input.ndim) for d in dims]
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    return tuple(_gradient_along(input, d, h, edge_order) for d, h in zip(dims, spacings))


def _gradient_along(input: Tensor, dim: int, h, edge_order: int) -> Tensor:
    """PyTorch's ``gradient_helper``: one dim, with a number or coordinates for the spacing."""
    at = lambda start, end=None: _slice(input, dim, start, end)  # noqa: E731
    if isinstance(h, Tensor):
        dx = diff(h)
        dx1, dx2 = dx[:-1], dx[1:]
        shape = [1] * input.ndim
        shape[dim] = -1
        a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
        b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
        c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
        center = a * at(0, -2) + b * at(1, -1) + c * at(2)
        if edge_order == 1:
            first = (at(1, 2) - at(0, 1)) / dx[0]
            last = (at(-1) - at(-2, -1)) / dx[-1]
        else:
            a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
            b = (dx[0] + dx[1]) / (dx[0] * dx[1])
            c = -dx[0] / (dx[1] * (dx[0] + dx[1]))
            first = a * at(0, 1) + b * at(1, 2) + c * at(2, 3)
            a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
            b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
            c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
            first, last = first, a * at(-3, -2) + b * at(-2, -1) + c * at(-1)
        return cat([first, center, last], dim)
    # (ATen divides and multiplies by Scalars: DivBackward1 and MulBackward1 nodes)
    by = lambda t, number: div_scalar_op(t, other=number) if t.is_floating_point() else t / number  # noqa: E731
    times = lambda t, number: mul_scalar_op(t, other=number) if t.is_floating_point() else t * number  # noqa: E731
    center = by(at(2) - at(0, -2), h)
    if edge_order == 1:
        first = by(at(1, 2) - at(0, 1), h)
        last = by(at(-1) - at(-2, -1), h)
    else:
        first = by(times(at(0, 1), -1.5) + times(at(1, 2), 2) - times(at(2, 3), 0.5), h)
        last = by(times(at(-3, -2), 0.5) - times(at(-2, -1), 2) + times(at(-1), 1.5), h)
    return cat([first, by(center, 2), last], dim)


def _check_resizable(input: Tensor) -> None:
    if input.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")


def _resize_(input: Tensor, *size) -> Tensor:
    """``input`` given ``size`` in place, keeping its elements in row-major order: cut off when
    smaller, filled up with zeros when larger (PyTorch leaves those uninitialized). PyTorch
    refuses it for tensors that require grad.

    >>> import minigrad as torch
    >>> torch.arange(6.).resize_(2, 2)
    tensor([[0., 1.],
            [2., 3.]])
    """
    _check_resizable(input)
    shape = tuple(_shape_args(size))
    if builtins.any(s < 0 for s in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    input._check_inplace()
    if shape == input._data.shape:  # as PyTorch: nothing changes, not even the layout or the version
        return input
    numel = math.prod(shape)
    xp, data = backend.xp(input.device), input._data
    if numel <= data.size and data.flags.c_contiguous:  # a view of the same memory, as PyTorch keeps it
        input._data = data.reshape(-1)[:numel].reshape(shape)
    else:  # new memory, the old elements first (views of the old memory no longer see it)
        grown = xp.zeros(numel, dtype=data.dtype)
        kept = builtins.min(numel, data.size)
        grown[:kept] = data.reshape(-1)[:kept]
        input._data = grown.reshape(shape)
    input._version_counter.value += 1
    return input


def resize_as_(input: Tensor, the_template: Tensor) -> Tensor:
    """``input.resize_(the_template.shape)``."""
    _check_resizable(input)
    return _resize_(input, _check_tensor(the_template, "resize_as_").shape)


def _inplace_function(name: str):
    """``torch.<name>(input, ...)``: ``input.<name>(...)``, which changes ``input`` and returns it."""

    def function(input: Tensor, *args, **kwargs) -> Tensor:
        return getattr(_check_tensor(input, name), name)(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``input.{name}(...)``: changes ``input`` in place and returns it (see ``Tensor.{name}``)."
    return function


# The torch.X_ functions whose method X_ exists (tan_ is defined above).
for _name in ("abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_ "
              "ceil_ clamp_ clamp_max_ clamp_min_ clip_ cos_ cosh_ deg2rad_ detach_ erf_ exp2_ exp_ expm1_ fill_ fix_ "
              "floor_ frac_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ relu_ "
              "round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tanh_ trunc_ xlogy_ zero_").split():
    globals()[_name] = _inplace_function(_name)


# What ``import minigrad`` exposes: the public functions defined here (not ops or helpers).
__all__ = [
    name
    for name, value in list(globals().items())
    if callable(value)
    and not name.startswith("_")
    and not isinstance(value, Op | type)
    and getattr(value, "__module__", None) == __name__
    and name not in ("index", "view_again", "xp_call", "forward_name")
    and name not in ("view", "expand", "sum_to_size")  # Tensor methods only, in PyTorch
]
