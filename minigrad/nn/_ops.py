"""The differentiable operations behind ``nn.functional`` that ``minigrad.functions`` lacks.

``convolution_op`` is one op named as PyTorch names it, ``ConvolutionBackward0``, with inputs
(input, weight, bias). Its forward is plain array code; its rules cut the input into kernel
windows with ``index_op``, multiply with ``matmul`` and add overlapping windows back with
``embed`` -- all minigrad ops, so a convolution can be differentiated twice.
"""

from __future__ import annotations

from .. import backend
from ..autograd.op import Op
from ..functions import embed, index_op, nll_loss_op
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
