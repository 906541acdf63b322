"""The differentiable operations behind ``nn.functional`` that ``minigrad.functions`` lacks.

``convolution_op`` is one op named as PyTorch names it, ``ConvolutionBackward0``, with inputs
(input, weight, bias). Its forward is plain array code; its rules cut the input into kernel
windows with ``index_op``, multiply with ``matmul`` and add overlapping windows back with
``embed`` -- all minigrad ops, so a convolution can be differentiated twice.

The activations and binary cross-entropy losses follow PyTorch's derivatives table: a class
weight is a parameter (PyTorch cannot differentiate with respect to it), the target an input.
"""

from __future__ import annotations

import math

from .. import backend
from ..autograd.op import Op
from ..functions import _reduce, _sigmoid, embed, index_op, nll_loss_op, where, zeros_like_tensor
from ..tensor import Tensor


def _windows(xp, padded_hw, kernel, stride, dilation):
    """Row and column index arrays that pick every kernel window out of a padded image.

    Indexing ``x[:, :, rows, cols]`` gives shape (N, C, kh, kw, out_h, out_w).
    """
    (hp, wp), (kh, kw) = padded_hw, kernel
    oh = (hp - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wp - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    rows = (xp.arange(kh) * dilation[0]).reshape(kh, 1, 1, 1) + (xp.arange(oh) * stride[0]).reshape(1, 1, oh, 1)
    cols = (xp.arange(kw) * dilation[1]).reshape(1, kw, 1, 1) + (xp.arange(ow) * stride[1]).reshape(1, 1, 1, ow)
    return rows, cols


def _padded_hw(shape, padding) -> tuple[int, int]:
    top, bottom, left, right = padding
    return shape[2] + top + bottom, shape[3] + left + right


def _conv_forward(xp, input, weight, bias, stride, padding, dilation, groups):
    n, c = input.shape[:2]
    o, kh, kw = weight.shape[0], weight.shape[2], weight.shape[3]
    top, bottom, left, right = padding
    padded = xp.pad(input, ((0, 0), (0, 0), (top, bottom), (left, right))) if any(padding) else input
    rows, cols = _windows(xp, padded.shape[2:], (kh, kw), stride, dilation)
    windows = padded[:, :, rows, cols]  # (n, c, kh, kw, oh, ow)
    oh, ow = windows.shape[-2:]
    windows = windows.reshape(n, groups, c // groups * kh * kw, oh * ow)
    out = xp.matmul(weight.reshape(groups, o // groups, -1), windows)  # (n, groups, o/groups, oh*ow)
    return out.reshape(n, o, oh, ow) + bias.reshape(1, o, 1, 1)


def _unfold(input: Tensor, kernel, stride, padding, dilation, groups) -> Tensor:
    """The kernel windows of ``input`` as a (N, groups, C/groups*kh*kw, L) tensor (differentiable)."""
    n, c, h, w = input.shape
    top, _, left, _ = padding
    if any(padding):
        shape = (n, c, *_padded_hw(input.shape, padding))
        input = embed(input, shape=shape, key=(slice(None), slice(None), slice(top, top + h), slice(left, left + w)))
    rows, cols = _windows(backend.xp(input.device), input.shape[2:], kernel, stride, dilation)
    windows = index_op(input, key=(slice(None), slice(None), rows, cols))
    return windows.reshape(n, groups, -1, windows.shape[-2] * windows.shape[-1])


def _input_grad(grad: Tensor, weight: Tensor, input_shape, stride, padding, dilation, groups) -> Tensor:
    n, c, h, w = input_shape
    o, kh, kw = weight.shape[0], weight.shape[2], weight.shape[3]
    oh, ow = grad.shape[2], grad.shape[3]
    g = grad.reshape(n, groups, o // groups, oh * ow)
    window_grads = weight.reshape(groups, o // groups, -1).mT.matmul(g).reshape(n, c, kh, kw, oh, ow)
    padded_hw = _padded_hw(input_shape, padding)
    rows, cols = _windows(backend.xp(grad.device), padded_hw, (kh, kw), stride, dilation)
    # embed adds up overlapping windows (it is index's backward): the padded input's gradient
    padded = embed(window_grads, shape=(n, c, *padded_hw), key=(slice(None), slice(None), rows, cols))
    if not any(padding):
        return padded
    top, _, left, _ = padding
    return index_op(padded, key=(slice(None), slice(None), slice(top, top + h), slice(left, left + w)))


def _weight_grad(grad: Tensor, input: Tensor, weight_shape, stride, padding, dilation, groups) -> Tensor:
    n, o = grad.shape[0], weight_shape[0]
    windows = _unfold(input, weight_shape[2:], stride, padding, dilation, groups)
    g = grad.reshape(n, groups, o // groups, grad.shape[2] * grad.shape[3])
    return g.matmul(windows.mT).sum(0).reshape(weight_shape)


convolution_op = Op(
    "ConvolutionBackward0",
    lambda xp, input, weight, bias, *, stride, padding, dilation, groups: _conv_forward(
        xp, input, weight, bias, stride, padding, dilation, groups
    ),
    input=lambda grad, weight, input_shape, stride, padding, dilation, groups: _input_grad(
        grad, weight, input_shape, stride, padding, dilation, groups
    ),
    weight=lambda grad, input, weight_shape, stride, padding, dilation, groups: _weight_grad(
        grad, input, weight_shape, stride, padding, dilation, groups
    ),
    bias=lambda grad: grad.sum((0, 2, 3)),
)

# PyTorch names the class-index loss of a (N, C, d1, ...) input NllLoss2DBackward0; same rule.
nll_loss2d_op = Op("NllLoss2DBackward0", nll_loss_op.forward, **nll_loss_op.rules)


# ---------------------------------------------------------------------------------------------- activations
def _softplus(xp, x, beta, threshold):
    """log(1 + exp(beta x)) / beta, computed without overflow; x itself where beta x > threshold."""
    bx = x * beta
    smooth = (xp.maximum(bx, 0) + xp.log1p(xp.exp(-xp.abs(bx)))) / beta
    return xp.where(bx > threshold, x, smooth).astype(x.dtype, copy=False)


softplus_op = Op(
    "SoftplusBackward0",
    lambda xp, self, *, beta, threshold: _softplus(xp, self, beta, threshold),
    self=lambda grad, self, beta, threshold: softplus_backward_op(grad, self, beta=beta, threshold=threshold),
)
# softplus's derivative, sigmoid(beta x) (1 above the threshold), as one op as in PyTorch.
softplus_backward_op = Op(
    "SoftplusBackwardBackward0",
    lambda xp, grad_output, self, *, beta, threshold: xp.where(
        self * beta > threshold, grad_output, grad_output * _sigmoid(xp, self * beta)
    ),
    grad_output=lambda grad, self, beta, threshold: softplus_backward_op(grad, self, beta=beta, threshold=threshold),
    self=lambda grad, grad_output, self, beta, threshold: _softplus_second(grad * grad_output, self, beta, threshold),
)


def _softplus_second(grad: Tensor, self: Tensor, beta, threshold) -> Tensor:
    s = (self * beta).sigmoid()
    return where(self * beta < threshold, grad * s * (1 - s) * beta, 0.0)


leaky_relu_op = Op(
    "LeakyReluBackward0",
    lambda xp, self, *, negative_slope: xp.where(self > 0, self, self * negative_slope).astype(self.dtype, copy=False),
    self=lambda grad, self, negative_slope: leaky_relu_backward_op(grad, self, negative_slope=negative_slope),
)
# In place, PyTorch reads the result instead of the overwritten input (LeakyReluBackward1).
leaky_relu_inplace_op = Op(
    "LeakyReluBackward1",
    leaky_relu_op.forward,
    self=lambda grad, result, negative_slope: leaky_relu_backward_op(grad, result, negative_slope=negative_slope),
)
leaky_relu_backward_op = Op(
    "LeakyReluBackwardBackward0",
    lambda xp, grad_output, self, *, negative_slope: xp.where(self > 0, grad_output, grad_output * negative_slope),
    grad_output=lambda grad, self, negative_slope: leaky_relu_backward_op(grad, self, negative_slope=negative_slope),
    self=lambda grad: zeros_like_tensor(grad),
)
silu_op = Op(
    "SiluBackward0",
    lambda xp, self: self * _sigmoid(xp, self),
    self=lambda grad, self: grad * self.sigmoid() * (1 + self * (1 - self.sigmoid())),
)

# gelu(x) = x * Phi(x) (Phi the normal CDF; with approximate="tanh", PyTorch's tanh formula).
# Its derivative is one op of its own, as in PyTorch, whose rule for x is the second derivative.
_K = math.sqrt(2 / math.pi)  # the tanh formula's scale


def _gelu(xp, x, approximate):
    if approximate == "tanh":
        return 0.5 * x * (1 + xp.tanh(_K * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + backend.erf(x / math.sqrt(2)))


def _gelu_slope(xp, x, approximate):
    if approximate == "tanh":
        t = xp.tanh(_K * (x + 0.044715 * x**3))
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _K * (1 + 3 * 0.044715 * x * x)
    return 0.5 * (1 + backend.erf(x / math.sqrt(2))) + x * xp.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _gelu_curvature(x: Tensor, approximate) -> Tensor:
    """gelu's second derivative, with minigrad ops (so it can be differentiated once more)."""
    if approximate == "tanh":
        t, slope = (_K * (x + 0.044715 * x**3)).tanh(), _K * (1 + 3 * 0.044715 * x * x)
        return (1 - t * t) * (slope - x * t * slope * slope + 3 * _K * 0.044715 * x * x)
    return (-0.5 * x * x).exp() / math.sqrt(2 * math.pi) * (2 - x * x)


gelu_op = Op(
    "GeluBackward0",
    lambda xp, self, *, approximate: _gelu(xp, self, approximate),
    self=lambda grad, self, approximate: gelu_backward_op(grad, self, approximate=approximate),
)
gelu_backward_op = Op(
    "GeluBackwardBackward0",
    lambda xp, grad_output, self, *, approximate: grad_output * _gelu_slope(xp, self, approximate),
    grad_output=lambda grad, self, approximate: gelu_backward_op(grad, self, approximate=approximate),
    self=lambda grad, grad_output, self, approximate: grad * grad_output * _gelu_curvature(self, approximate),
)
# elu(x) = x where positive, alpha * (exp(x) - 1) elsewhere. Its slope there is alpha * exp(x),
# or result + alpha read from the result (in place, where x is overwritten: EluBackward1).
elu_op = Op(
    "EluBackward0",
    lambda xp, self, *, alpha: xp.where(self > 0, self, alpha * xp.expm1(self)).astype(self.dtype, copy=False),
    self=lambda grad, self, alpha: elu_backward_op(grad, self, alpha=alpha, is_result=False),
)
elu_inplace_op = Op(
    "EluBackward1",
    elu_op.forward,
    self=lambda grad, result, alpha: elu_backward_op(grad, result, alpha=alpha, is_result=True),
)
elu_backward_op = Op(
    "EluBackwardBackward0",
    lambda xp, grad_output, self_or_result, *, alpha, is_result: xp.where(
        self_or_result > 0,
        grad_output,
        grad_output * (self_or_result + alpha if is_result else alpha * xp.exp(self_or_result)),
    ),
    grad_output=lambda grad, self_or_result, alpha, is_result: elu_backward_op(
        grad, self_or_result, alpha=alpha, is_result=is_result
    ),
    self_or_result=lambda grad, grad_output, self_or_result, alpha, is_result: where(
        self_or_result > 0, 0.0, grad * grad_output * (1 if is_result else alpha * self_or_result.exp())
    ),
)


# ---------------------------------------------------------------------------------------------- losses
def _bce(xp, x, target, weight, reduction):
    # PyTorch clamps each log at -100, so a confident wrong answer costs 100, not inf.
    losses = -(target * xp.maximum(xp.log(x), -100) + (1 - target) * xp.maximum(xp.log1p(-x), -100))
    return _reduce(xp, losses if weight is None else losses * weight, reduction)


def _scaled(grad: Tensor, g: Tensor, weight, reduction) -> Tensor:
    """``grad * g``, times the class weight, divided by the count for a mean."""
    g = grad * g if weight is None else grad * g * Tensor._make(weight)
    return g / g.numel() if reduction == "mean" else g


binary_cross_entropy_op = Op(
    "BinaryCrossEntropyBackward0",
    lambda xp, self, target, *, weight, reduction: _bce(xp, self, target, weight, reduction),
    self=lambda grad, self, target, weight, reduction: _scaled(
        grad, (self - target) / ((1 - self) * self).clamp_min(1e-12), weight, reduction
    ),
    target=lambda grad, self, weight, reduction: _scaled(grad, (-self).log1p() - self.log(), weight, reduction),
)


def _bce_logits(xp, x, target, weight, pos_weight, reduction):
    # (1 - t) x + w_t log(1 + exp(-x)), where w_t = 1 + (pos_weight - 1) t, written without overflow
    log_weight = 1 if pos_weight is None else 1 + (pos_weight - 1) * target
    losses = (1 - target) * x + log_weight * (xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, 0))
    return _reduce(xp, (losses if weight is None else losses * weight).astype(x.dtype, copy=False), reduction)


def _bce_logits_input_grad(self: Tensor, target: Tensor, pos_weight) -> Tensor:
    if pos_weight is None:
        return self.sigmoid() - target
    positive = Tensor._make(pos_weight) * target
    return (positive + 1 - target) * self.sigmoid() - positive


def _bce_logits_target_grad(self: Tensor, pos_weight) -> Tensor:
    if pos_weight is None:
        return -self
    return _log_sigmoid(-self) - Tensor._make(pos_weight) * _log_sigmoid(self)  # log(1 - sigmoid) - w log(sigmoid)


def _log_sigmoid(x: Tensor) -> Tensor:
    """log(sigmoid(x)) = -log(1 + exp(-x)), finite for any x."""
    return -((-x).clamp_min(0) + (-x.abs()).exp().log1p())


binary_cross_entropy_with_logits_op = Op(
    "BinaryCrossEntropyWithLogitsBackward0",
    lambda xp, self, target, *, weight, pos_weight, reduction: _bce_logits(
        xp, self, target, weight, pos_weight, reduction
    ),
    self=lambda grad, self, target, weight, pos_weight, reduction: _scaled(
        grad, _bce_logits_input_grad(self, target, pos_weight), weight, reduction
    ),
    target=lambda grad, self, weight, pos_weight, reduction: _scaled(
        grad, _bce_logits_target_grad(self, pos_weight), weight, reduction
    ),
)
