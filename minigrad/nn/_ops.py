"""The differentiable operations behind ``nn.functional`` that ``minigrad.functions`` lacks.

``convolution_op`` is one op named as PyTorch names it, ``ConvolutionBackward0``, with inputs
(input, weight, bias), for every convolution: 1-, 2- or 3-d, plain or transposed (``transposed``,
as PyTorch's node saves it). Its forward is plain array code; its rules cut the input into kernel
windows with ``index_op``, multiply with ``matmul`` and add overlapping windows back with
``embed`` -- all minigrad ops, so a convolution can be differentiated twice. A convolution's
input gradient is a transposed convolution and the other way round, so the rules serve both.

The activations and binary cross-entropy losses follow PyTorch's derivatives table: a class
weight is a parameter (PyTorch cannot differentiate with respect to it), the target an input.
Where PyTorch's backward is a kernel of its own (hardtanh, hardswish, logsigmoid, glu, prelu,
smooth_l1, huber, ...), so is minigrad's (``HardtanhBackwardBackward0``, ...), and its rules give
the second derivatives; hardsigmoid's backward, like PyTorch's, cannot be differentiated.

``layer_norm_op``, ``batch_norm_op`` and ``group_norm_op`` (``NativeLayerNormBackward0``, ...)
have inputs (input, weight, bias); their rules recompute the standardised input from the saved
input. ``embedding_op`` (``EmbeddingBackward0``) has one input, the weight; the indices are a
parameter, as are batch_norm's running statistics.

Pooling reads each (H, W) plane through a table of flat positions, one row of K positions per
output element, and a mask of those inside the input (padding, ceil_mode's overhang and the
shorter windows of adaptive pooling fall outside). Max pooling picks one position per window (the
``indices`` PyTorch returns): its op reads the input there and its backward adds the gradient back
there. Average pooling sums each window and divides. The non-constant paddings read the input at
reflected, clamped or wrapped positions. Each backward is an op of its own, named as PyTorch's
(``MaxPool2DWithIndicesBackwardBackward0``, ...), whose rule for the incoming gradient is the
forward op again (or, for max pooling, a gather at the indices): they are linear in it.
"""

from __future__ import annotations

import itertools
import math

from .. import backend
from ..autograd.op import Op
from ..functions import (
    _embed,
    _nll_ops,
    _no_derivative,
    _not_implemented,
    _reduce,
    _sigmoid,
    cat,
    embed,
    index_op,
    mul_scalar_op,
    norm_op,
    sigmoid_backward_op,
    threshold_backward_op,
    where,
    zeros_like_tensor,
)
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


def _taps(xp, kernel, out, stride, dilation) -> tuple:
    """Per spatial dim, the positions every kernel tap of every output position reads in the
    padded input: dim i's array varies along axis i (its taps) and n + i (its outputs), so that
    ``x[:, :, *taps]`` has shape (N, C, k1, ..., kn, o1, ..., on)."""
    n = len(kernel)
    taps = []
    for i, (k, o, s, d) in enumerate(zip(kernel, out, stride, dilation)):
        along_k, along_o = [1] * (2 * n), [1] * (2 * n)
        along_k[i], along_o[n + i] = k, o
        taps.append((xp.arange(k) * d).reshape(along_k) + (xp.arange(o) * s).reshape(along_o))
    return tuple(taps)


def _conv_out(sizes, kernel, stride, padding, dilation) -> tuple:
    """A convolution's output size per spatial dim."""
    return tuple(
        (i + 2 * p - d * (k - 1) - 1) // s + 1 for i, k, s, p, d in zip(sizes, kernel, stride, padding, dilation)
    )


def _transposed_out(sizes, kernel, stride, padding, dilation, output_padding) -> tuple:
    """A transposed convolution's output size per spatial dim (the input size of the convolution
    it transposes, plus ``output_padding`` at the end, which no window reaches)."""
    return tuple(
        (i - 1) * s - 2 * p + d * (k - 1) + op + 1
        for i, k, s, p, d, op in zip(sizes, kernel, stride, padding, dilation, output_padding)
    )


def _correlate_arrays(xp, input, weight, stride, padding, dilation, groups):
    """Cross-correlation of (N, C, *sizes) with (O, C/groups, *kernel), on arrays."""
    n, c, o, kernel = input.shape[0], input.shape[1], weight.shape[0], weight.shape[2:]
    padded = xp.pad(input, [(0, 0), (0, 0)] + [(p, p) for p in padding]) if any(padding) else input
    out = _conv_out(input.shape[2:], kernel, stride, padding, dilation)
    windows = padded[(slice(None), slice(None), *_taps(xp, kernel, out, stride, dilation))]
    windows = windows.reshape(n, groups, c // groups * math.prod(kernel), math.prod(out))
    return xp.matmul(weight.reshape(groups, o // groups, -1), windows).reshape(n, o, *out)


def _transpose_arrays(xp, input, weight, stride, padding, dilation, output_padding, groups):
    """Transposed convolution of (N, C_in, *sizes) with (C_in, C_out/groups, *kernel), on arrays:
    each input position's kernel-sized patch of products added into the (padded) output, one
    strided slice per kernel tap, then the padding cut off."""
    n, c_in, kernel, sizes = input.shape[0], input.shape[1], weight.shape[2:], input.shape[2:]
    c_out = weight.shape[1] * groups
    out = _transposed_out(sizes, kernel, stride, padding, dilation, output_padding)
    g = input.reshape(n, groups, c_in // groups, math.prod(sizes))
    cols = xp.matmul(xp.swapaxes(weight.reshape(groups, c_in // groups, -1), -1, -2), g)
    cols = cols.reshape(n, c_out, math.prod(kernel), *sizes)
    padded = xp.zeros((n, c_out, *(o + 2 * p for o, p in zip(out, padding))), dtype=cols.dtype)
    for t, tap in enumerate(itertools.product(*(range(k) for k in kernel))):
        key = tuple(slice(j * d, j * d + (i - 1) * s + 1, s) for j, d, i, s in zip(tap, dilation, sizes, stride))
        padded[(slice(None), slice(None), *key)] += cols[:, :, t]
    return padded[(slice(None), slice(None), *(slice(p, p + o) for p, o in zip(padding, out)))]


def _unfold(input: Tensor, kernel, out, stride, padding, dilation, groups) -> Tensor:
    """The kernel windows of ``input`` as a (N, groups, C/groups*prod(kernel), prod(out)) tensor
    (differentiable); ``out`` is the number of windows per spatial dim."""
    n, c, sizes = input.shape[0], input.shape[1], input.shape[2:]
    if any(padding):
        shape = (n, c, *(i + 2 * p for i, p in zip(sizes, padding)))
        key = (slice(None), slice(None), *(slice(p, p + i) for p, i in zip(padding, sizes)))
        input = embed(input, shape=shape, key=key)
    taps = _taps(backend.xp(input.device), kernel, out, stride, dilation)
    windows = index_op(input, key=(slice(None), slice(None), *taps))
    return windows.reshape(n, groups, c // groups * math.prod(kernel), math.prod(out))


def _correlate(input: Tensor, weight: Tensor, out, stride, padding, dilation, groups) -> Tensor:
    """A cross-correlation without bias in minigrad ops, with ``out`` windows per spatial dim:
    a transposed convolution's input gradient."""
    o = weight.shape[0]
    windows = _unfold(input, weight.shape[2:], out, stride, padding, dilation, groups)
    return weight.reshape(groups, o // groups, -1).matmul(windows).reshape(input.shape[0], o, *out)


def _spread_windows(grad: Tensor, weight: Tensor, shape, stride, padding, dilation, groups) -> Tensor:
    """A convolution's input gradient (of ``shape``) in minigrad ops: each output position's
    gradient times the kernel, added back over its window -- a transposed convolution."""
    n, c, sizes = shape[0], shape[1], shape[2:]
    o, kernel, out = weight.shape[0], weight.shape[2:], grad.shape[2:]
    g = grad.reshape(n, groups, o // groups, math.prod(out))
    window_grads = weight.reshape(groups, o // groups, -1).mT.matmul(g).reshape(n, c, *kernel, *out)
    padded_sizes = tuple(i + 2 * p for i, p in zip(sizes, padding))
    taps = _taps(backend.xp(grad.device), kernel, out, stride, dilation)
    # embed adds up overlapping windows (it is index's backward): the padded input's gradient
    padded = embed(window_grads, shape=(n, c, *padded_sizes), key=(slice(None), slice(None), *taps))
    if not any(padding):
        return padded
    return index_op(padded, key=(slice(None), slice(None), *(slice(p, p + i) for p, i in zip(padding, sizes))))


def _weight_grad(grad: Tensor, input: Tensor, weight_shape, stride, padding, dilation, groups) -> Tensor:
    """A convolution's weight gradient: each output position's gradient times its input window."""
    n, o, out = grad.shape[0], weight_shape[0], grad.shape[2:]
    windows = _unfold(input, weight_shape[2:], out, stride, padding, dilation, groups)
    g = grad.reshape(n, groups, o // groups, math.prod(out))
    return g.matmul(windows.mT).sum(0).reshape(weight_shape)


def _convolution(xp, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    if transposed:
        out = _transpose_arrays(xp, input, weight, stride, padding, dilation, output_padding, groups)
    else:
        out = _correlate_arrays(xp, input, weight, stride, padding, dilation, groups)
    return out + bias.reshape((1, -1) + (1,) * (out.ndim - 2))


def _convolution_input_grad(grad, weight, input_shape, stride, padding, dilation, transposed, groups) -> Tensor:
    # a convolution's input gradient is a transposed convolution, and a transposed one's a convolution
    if transposed:
        return _correlate(grad, weight, input_shape[2:], stride, padding, dilation, groups)
    return _spread_windows(grad, weight, input_shape, stride, padding, dilation, groups)


def _convolution_weight_grad(grad, input, weight_shape, stride, padding, dilation, transposed, groups) -> Tensor:
    # (a transposed convolution's output plays the convolution's input, its input the output)
    if transposed:
        return _weight_grad(input, grad, weight_shape, stride, padding, dilation, groups)
    return _weight_grad(grad, input, weight_shape, stride, padding, dilation, groups)


# One op for every convolution, 1-, 2- or 3-d, plain or transposed, as PyTorch's one
# ConvolutionBackward0: the input (N, C, *sizes), the weight with as many dims ((O, C/groups,
# *kernel), or (C, O/groups, *kernel) transposed), and per spatial dim the stride, the (symmetric)
# padding, the dilation and (transposed) the output padding -- the node's saved values in PyTorch.
convolution_op = Op(
    "ConvolutionBackward0",
    lambda xp, input, weight, bias, *, stride, padding, dilation, transposed, output_padding, groups: _convolution(
        xp, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    ),
    input=lambda grad, weight, input_shape, stride, padding, dilation, transposed, groups: _convolution_input_grad(
        grad, weight, input_shape, stride, padding, dilation, transposed, groups
    ),
    weight=lambda grad, input, weight_shape, stride, padding, dilation, transposed, groups: _convolution_weight_grad(
        grad, input, weight_shape, stride, padding, dilation, transposed, groups
    ),
    bias=lambda grad: grad.sum((0, *range(2, grad.ndim))),
)


# PyTorch names the class-index loss of a (N, C, d1, ...) input NllLoss2DBackward0; same rule.
nll_loss2d_op = _nll_ops("NllLoss2D")


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
    """PyTorch's softplus_double_backward: sigmoid's slope at beta x, times beta, and times a 0/1
    mask of beta x < threshold (a product, not a select: a nan input gives nan, as in PyTorch)."""
    x = mul_scalar_op(self, other=beta)
    return mul_scalar_op(sigmoid_backward_op(grad, x.sigmoid()) * (x < threshold).to(grad.dtype), other=beta)


leaky_relu_op = Op(
    "LeakyReluBackward0",
    lambda xp, self, *, negative_slope: xp.where(self > 0, self, self * negative_slope).astype(self.dtype, copy=False),
    self=lambda grad, self, negative_slope: leaky_relu_backward_op(grad, self, negative_slope=negative_slope),
)


def _leaky_relu_inplace_rule(grad: Tensor, result: Tensor, negative_slope) -> Tensor:
    # With a negative slope the result's sign no longer tells which side of 0 the input was on,
    # so the gradient cannot be read from the result: PyTorch refuses, when backward runs.
    if negative_slope < 0:
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
            "supported. This is caused by calling in-place forward function with a negative slope, "
            "please call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch "
            "if you do require supporting in-place leakRelu backward calculation with negative slope"
        )
    return leaky_relu_backward_op(grad, result, negative_slope=negative_slope)


# In place, PyTorch reads the result instead of the overwritten input (LeakyReluBackward1).
leaky_relu_inplace_op = Op("LeakyReluBackward1", leaky_relu_op.forward, self=_leaky_relu_inplace_rule)
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


# elu(x) = scale * x where positive, scale * alpha * (exp(input_scale * x) - 1) elsewhere (selu
# and celu are elu with other scales, as in ATen). Its slope there is input_scale * scale * alpha
# * exp(input_scale * x), or input_scale * (result + scale * alpha) read from the result (in
# place, where x is overwritten: EluBackward1).
def _elu(xp, x, alpha, scale, input_scale):
    out = xp.where(x > 0, x * scale, xp.expm1(x * input_scale) * (alpha * scale))
    return out.astype(x.dtype, copy=False)


def _elu_slope(xp, grad_output, x, alpha, scale, input_scale, is_result):
    negative = (x + alpha * scale) if is_result else xp.exp(x * input_scale) * (alpha * scale)
    # x <= 0 picks the negative side, as PyTorch's kernel: nan takes the positive side's slope
    return xp.where(x <= 0, grad_output * (negative * input_scale), grad_output * scale).astype(
        grad_output.dtype, copy=False
    )


def _elu_rule(grad: Tensor, x: Tensor, alpha, scale, input_scale, is_result: bool) -> Tensor:
    # From the result, a negative alpha makes the negative side's values positive, indistinguishable
    # from the positive side's: PyTorch refuses (elu_, celu_ with alpha < 0), when backward runs.
    if is_result and alpha < 0:
        raise RuntimeError(
            "In-place elu backward calculation is triggered with a negative slope which is not supported. "
            "This is caused by calling in-place forward function with a negative slope, please call "
            "out-of-place version instead."
        )
    return elu_backward_op(grad, x, alpha=alpha, scale=scale, input_scale=input_scale, is_result=is_result)


def _elu_second(grad: Tensor, x: Tensor, alpha, scale, input_scale, is_result: bool) -> Tensor:
    """The derivative of elu's slope, PyTorch's elu_double_backward: the slope of ``input_scale *
    grad`` (from the result: that alone), kept only where x < 0. So it is 0 at x = 0, and its own
    derivative is 0 (not nan) where x is inf, as in PyTorch."""
    scaled = mul_scalar_op(grad, other=input_scale)
    if not is_result:
        scaled = elu_backward_op(scaled, x, alpha=alpha, scale=scale, input_scale=input_scale, is_result=False)
    return scaled * (x < 0).to(grad.dtype)


elu_op = Op(
    "EluBackward0",
    lambda xp, self, *, alpha, scale, input_scale: _elu(xp, self, alpha, scale, input_scale),
    self=lambda grad, self, alpha, scale, input_scale: _elu_rule(grad, self, alpha, scale, input_scale, False),
)
elu_inplace_op = Op(
    "EluBackward1",
    elu_op.forward,
    self=lambda grad, result, alpha, scale, input_scale: _elu_rule(grad, result, alpha, scale, input_scale, True),
)
# celu is elu with input_scale 1/alpha, recorded under its own name (its backward is elu's)
celu_op = Op("CeluBackward0", elu_op.forward, **elu_op.rules)
celu_inplace_op = Op("CeluBackward1", elu_op.forward, **elu_inplace_op.rules)
elu_backward_op = Op(
    "EluBackwardBackward0",
    lambda xp, grad_output, self_or_result, *, alpha, scale, input_scale, is_result: _elu_slope(
        xp, grad_output, self_or_result, alpha, scale, input_scale, is_result
    ),
    grad_output=lambda grad, self_or_result, alpha, scale, input_scale, is_result: _elu_rule(
        grad, self_or_result, alpha, scale, input_scale, is_result
    ),
    self_or_result=lambda grad, grad_output, self_or_result, alpha, scale, input_scale, is_result: _elu_second(
        grad * grad_output, self_or_result, alpha, scale, input_scale, is_result
    ),
)


# hardshrink zeroes [-lambd, lambd]; softshrink also moves the rest lambd towards 0. Both pass
# the gradient outside that band only; their backward is an op of its own (linear in the
# gradient, flat in x: its derivative for x is zero), as in PyTorch.
def _outside(xp, x, lambd):
    return (x < -lambd) | (x > lambd)


hardshrink_op = Op(
    "HardshrinkBackward0",
    lambda xp, self, *, lambd: xp.where(_outside(xp, self, lambd), self, xp.zeros((), self.dtype)),
    self=lambda grad, self, lambd: hardshrink_backward_op(grad, self, lambd=lambd),
)
hardshrink_backward_op = Op(
    "HardshrinkBackwardBackward0",
    lambda xp, grad_out, self, *, lambd: xp.where(_outside(xp, self, lambd), grad_out, xp.zeros((), grad_out.dtype)),
    grad_out=lambda grad, self, lambd: hardshrink_backward_op(grad, self, lambd=lambd),
    self=lambda grad: zeros_like_tensor(grad),
)
softshrink_op = Op(
    "SoftshrinkBackward0",
    lambda xp, self, *, lambd: xp.where(
        self > lambd, self - lambd, xp.where(self < -lambd, self + lambd, xp.zeros((), self.dtype))
    ).astype(self.dtype, copy=False),
    self=lambda grad, self, lambd: softshrink_backward_op(grad, self, lambd=lambd),
)
softshrink_backward_op = Op(
    "SoftshrinkBackwardBackward0",
    lambda xp, grad_output, self, *, lambd: hardshrink_backward_op.forward(xp, grad_output, self, lambd=lambd),
    grad_output=lambda grad, self, lambd: softshrink_backward_op(grad, self, lambd=lambd),
    self=lambda grad: zeros_like_tensor(grad),
)


# rrelu multiplies by ``noise``: 1 where x > 0, elsewhere a slope drawn in [lower, upper) when
# training, or their mean in eval mode (PyTorch's rrelu_with_noise). Its backward multiplies by
# the same noise and is flat in x.
rrelu_op = Op(
    "RreluWithNoiseBackward0",
    lambda xp, self, *, noise: (self * noise).astype(self.dtype, copy=False),
    self=lambda grad, self, noise: rrelu_backward_op(grad, self, noise=noise),
)
rrelu_inplace_op = Op(
    "RreluWithNoiseBackward1",
    rrelu_op.forward,
    self=lambda grad, result, noise: rrelu_backward_op(grad, result, noise=noise),
)
rrelu_backward_op = Op(
    "RreluWithNoiseBackwardBackward0",
    lambda xp, grad_output, self, *, noise: (grad_output * noise).astype(grad_output.dtype, copy=False),
    grad_output=lambda grad, self, noise: rrelu_backward_op(grad, self, noise=noise),
    self=lambda grad: zeros_like_tensor(grad),
)


# hardtanh clamps to [min_val, max_val] (relu6 is hardtanh(0, 6)). Its gradient passes strictly
# inside: at either bound it is 0, as in PyTorch's kernel; a nan input lets it through.
hardtanh_op = Op(
    "HardtanhBackward0",
    lambda xp, self, *, min_val, max_val: xp.clip(self, min_val, max_val).astype(self.dtype, copy=False),
    self=lambda grad, self, min_val, max_val: hardtanh_backward_op(grad, self, min_val=min_val, max_val=max_val),
)
hardtanh_backward_op = Op(
    "HardtanhBackwardBackward0",
    lambda xp, grad_output, self, *, min_val, max_val: xp.where(
        (self <= min_val) | (self >= max_val), xp.zeros((), grad_output.dtype), grad_output
    ),
    grad_output=lambda grad, self, min_val, max_val: hardtanh_backward_op(grad, self, min_val=min_val, max_val=max_val),
    self=lambda grad: zeros_like_tensor(grad),
)

# threshold(x) = value where x <= threshold, else x. The in-place form saves the input as it was
# (ThresholdBackward1), as PyTorch does.
threshold_op = Op(
    "ThresholdBackward0",
    lambda xp, self, *, threshold, value: xp.where(self <= threshold, value, self).astype(self.dtype, copy=False),
    self=lambda grad, self, threshold: threshold_backward_op(grad, self, threshold=threshold),
)
threshold_inplace_op = Op("ThresholdBackward1", threshold_op.forward, **threshold_op.rules)


# hardswish(x) = x * clamp(x + 3, 0, 6) / 6. PyTorch's slope is 0 up to -3 (included), x/3 + 1/2
# below 3, and 1 from 3 on; its second derivative 1/3 strictly between -3 and 3.
def _hardswish_slope(xp, grad_output, x):
    inner = grad_output * (x / 3 + 0.5)
    return xp.where(x <= -3, xp.zeros((), grad_output.dtype), xp.where(x < 3, inner, grad_output))


hardswish_op = Op(
    "HardswishBackward0",
    lambda xp, self: self * xp.minimum(xp.maximum(self + 3, 0), 6) / 6,
    self=lambda grad, self: hardswish_backward_op(grad, self),
)
hardswish_backward_op = Op(
    "HardswishBackwardBackward0",
    lambda xp, grad_output, self: _hardswish_slope(xp, grad_output, self),
    grad_output=lambda grad, self: hardswish_backward_op(grad, self),
    self=lambda grad, grad_output, self: where((self > -3) & (self < 3), grad * grad_output / 3, 0.0),
)


# hardsigmoid(x) = clamp(x + 3, 0, 6) / 6. PyTorch's backward multiplies by 1/6 rounded to float32
# (``1.0f / 6.0f`` in its kernel, also for float64), and cannot itself be differentiated.
def _hardsigmoid_slope(xp, grad_output, x):
    sixth = xp.asarray(1 / 6, dtype=xp.float32).astype(grad_output.dtype)
    return xp.where((x > -3) & (x < 3), grad_output * sixth, xp.zeros((), grad_output.dtype))


hardsigmoid_op = Op(
    "HardsigmoidBackward0",
    lambda xp, self: xp.minimum(xp.maximum(self + 3, 0), 6) / 6,
    self=lambda grad, self: hardsigmoid_backward_op(grad, self),
)
hardsigmoid_backward_op = Op(
    "NotImplemented",
    lambda xp, grad_output, self: _hardsigmoid_slope(xp, grad_output, self),
    grad_output=lambda grad: _no_derivative("hardsigmoid_backward"),
    self=lambda grad: _no_derivative("hardsigmoid_backward"),
)


# logsigmoid(x) = min(x, 0) - log(1 + exp(-|x|)), finite for any x. Its slope is sigmoid(-x),
# written as PyTorch's kernel writes it with z = exp(-|x|): 1 - z/(1+z) below 0, z/(1+z) above.
def _log_sigmoid_slope(xp, grad_output, x):
    z = xp.exp(-xp.abs(x))
    share = z / (1 + z)
    return xp.where(x < 0, 1 - share, share) * grad_output


log_sigmoid_op = Op(
    "LogSigmoidBackward0",
    lambda xp, self: xp.minimum(self, 0) - xp.log1p(xp.exp(-xp.abs(self))),
    self=lambda grad, self: log_sigmoid_backward_op(grad, self),
)
log_sigmoid_backward_op = Op(
    "LogSigmoidBackwardBackward0",
    lambda xp, grad_output, self: _log_sigmoid_slope(xp, grad_output, self),
    grad_output=lambda grad, self: log_sigmoid_backward_op(grad, self),
    self=lambda grad, grad_output, self: grad * grad_output * (self.sigmoid() - 1) * self.sigmoid(),
)


# mish(x) = x * tanh(softplus(x)). Its rule is PyTorch's composite formula (what PyTorch uses when
# the backward pass is recorded), so second derivatives match, also where exp(x) overflows.
def _mish_slope(x: Tensor) -> Tensor:
    t = x.exp().log1p().tanh()
    return t + x * x.sigmoid() * (t.new_ones(()) - t * t)  # PyTorch's C++ 1 - t*t: SubBackward0


mish_op = Op(
    "MishBackward0",
    lambda xp, self: self * xp.tanh(xp.log1p(xp.exp(self))),
    self=lambda grad, self: grad * _mish_slope(self),
)


# glu(x) = a * sigmoid(b), with a and b the two halves of x along dim. Its backward is one op of
# its own (GluBackwardBackward0), as in PyTorch.
def _halves(x, dim: int):
    half = x.shape[dim] // 2
    if isinstance(x, Tensor):
        return x.narrow(dim, 0, half), x.narrow(dim, half, half)
    first = (slice(None),) * (dim % x.ndim)
    return x[first + (slice(0, half),)], x[first + (slice(half, None),)]


def _glu(xp, x, dim):
    a, b = _halves(x, dim)
    return a * _sigmoid(xp, b)


def _glu_backward(xp, grad_output, x, dim):
    a, b = _halves(x, dim)
    s = _sigmoid(xp, b)
    return xp.concatenate([grad_output * s, grad_output * a * s * (1 - s)], axis=dim)


def _glu_grad_output_grad(grad: Tensor, x: Tensor, dim: int) -> Tensor:
    """How glu's backward changes with its incoming gradient: the two halves' slopes."""
    (ga, gb), (a, b) = _halves(grad, dim), _halves(x, dim)
    s = b.sigmoid()
    return ga * s + gb * a * s * (1 - s)


def _glu_second(grad: Tensor, grad_output: Tensor, x: Tensor, dim: int) -> Tensor:
    """glu's second derivative, with minigrad ops (PyTorch's glu_double_backward)."""
    (ga, gb), (a, b) = _halves(grad, dim), _halves(x, dim)
    s = b.sigmoid()
    ds = s * (1 - s)
    first = gb * grad_output * ds
    second = gb * a * grad_output * (ds * (1 - s) - s * ds) + ga * grad_output * ds
    return cat([first, second], dim)


glu_op = Op(
    "GluBackward0",
    lambda xp, self, *, dim: _glu(xp, self, dim),
    self=lambda grad, self, dim: glu_backward_op(grad, self, dim=dim),
)
glu_backward_op = Op(
    "GluBackwardBackward0",
    lambda xp, grad_output, self, *, dim: _glu_backward(xp, grad_output, self, dim),
    grad_output=lambda grad, self, dim: _glu_grad_output_grad(grad, self, dim),
    self=lambda grad, grad_output, self, dim: _glu_second(grad, grad_output, self, dim),
)


# prelu(x) = x where positive, weight * x elsewhere; ``weight`` comes shaped to broadcast along
# the channel dim. PyTorch's kernel gives x = 0 the weight's slope, and the weight the gradient of
# the elements that are not positive (summed to its shape by broadcasting's undoing). Its backward
# is one op, PreluKernelBackwardBackward0, whose node in PyTorch gives both gradients; an Op gives
# one, so each gradient has its own node of that name (``output`` 0: the input's, 1: the weight's).
# Its rules differentiate those gradients as they are computed (PyTorch's own double backward takes
# x = 0 as positive, so at 0 it disagrees with its first derivative).
def _prelu_backward(xp, grad_output, x, weight, output):
    if output == 0:
        return xp.where(x > 0, grad_output, weight * grad_output)
    return xp.where(x > 0, xp.zeros((), grad_output.dtype), x * grad_output)


prelu_op = Op(
    "PreluKernelBackward0",
    lambda xp, self, weight: xp.where(self > 0, self, weight * self),
    self=lambda grad, self, weight: prelu_backward_op(grad, self, weight, output=0),
    weight=lambda grad, self, weight: prelu_backward_op(grad, self, weight, output=1),
)
prelu_backward_op = Op(
    "PreluKernelBackwardBackward0",
    lambda xp, grad_output, self, weight, *, output: _prelu_backward(xp, grad_output, self, weight, output),
    grad_output=lambda grad, self, weight, output: (
        where(self > 0, grad, grad * weight) if output == 0 else where(self > 0, 0.0, grad * self)
    ),
    self=lambda grad, grad_output, self, output: (
        zeros_like_tensor(grad) if output == 0 else where(self > 0, 0.0, grad_output * grad)
    ),
    weight=lambda grad, grad_output, self, output: (
        where(self > 0, 0.0, grad_output * grad) if output == 0 else zeros_like_tensor(grad)
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
    # The loss has the target's dtype: PyTorch computes it in place in ``1 - target``.
    return _reduce(xp, (losses if weight is None else losses * weight).astype(target.dtype, copy=False), reduction)


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


# smooth_l1 and huber: quadratic near 0, linear beyond beta (delta). Each backward is an op of
# its own, as in PyTorch, whose rules give the second derivatives: 1/beta (1) strictly inside,
# 0 from the bend on. The target's rules are the input's with the two swapped.
def _smooth_l1(xp, x, target, beta):
    z = xp.abs(x - target)
    return xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)


def _huber(xp, x, target, delta):
    z = xp.abs(x - target)
    return xp.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))


def _norm_factor(x, reduction) -> float:
    """1/N for a mean over the N elements of ``x`` (an array or a tensor), else 1."""
    n = x.size if not isinstance(x, Tensor) else x.numel()
    return 1 / n if reduction == "mean" and n else 1.0


def _smooth_l1_slope(xp, grad_output, x, target, reduction, beta):
    d, norm = x - target, _norm_factor(x, reduction)
    return xp.where(
        d <= -beta, -norm * grad_output, xp.where(d >= beta, norm * grad_output, norm * d * grad_output / beta)
    )


def _huber_slope(xp, grad_output, x, target, reduction, delta):
    d, norm = x - target, _norm_factor(x, reduction)
    step = norm * grad_output * delta
    return xp.where(d <= -delta, -step, xp.where(d >= delta, step, norm * d * grad_output))


def _bend_second(grad: Tensor, x: Tensor, target: Tensor, reduction, width, scale) -> Tensor:
    """The second derivative of smooth_l1 (scale 1/beta) or huber (scale 1): ``scale`` where
    ``|x - target| < width``, 0 from the bend on, divided by N for a mean. (smooth_l1 with beta 0
    runs as l1_loss, so width is positive.)"""
    inside = ((x - target).abs() < width).to(grad.dtype)
    return grad * inside * (scale * _norm_factor(x, reduction))


smooth_l1_loss_op = Op(
    "SmoothL1LossBackward0",
    lambda xp, self, target, *, reduction, beta: _reduce(xp, _smooth_l1(xp, self, target, beta), reduction),
    self=lambda grad, self, target, reduction, beta: smooth_l1_backward_op(
        grad, self, target, reduction=reduction, beta=beta
    ),
    target=lambda grad, self, target, reduction, beta: smooth_l1_backward_op(
        grad, target, self, reduction=reduction, beta=beta
    ),
)
smooth_l1_backward_op = Op(
    "SmoothL1LossBackwardBackward0",
    lambda xp, grad_output, self, target, *, reduction, beta: _smooth_l1_slope(
        xp, grad_output, self, target, reduction, beta
    ),
    grad_output=lambda grad, self, target, reduction, beta: smooth_l1_backward_op(
        grad, self, target, reduction=reduction, beta=beta
    ),
    self=lambda grad, grad_output, self, target, reduction, beta: _bend_second(
        grad * grad_output, self, target, reduction, beta, 1 / beta
    ),
    target=lambda grad, grad_output, self, target, reduction, beta: (
        -_bend_second(grad * grad_output, self, target, reduction, beta, 1 / beta)
    ),
)
huber_loss_op = Op(
    "HuberLossBackward0",
    lambda xp, self, target, *, reduction, delta: _reduce(xp, _huber(xp, self, target, delta), reduction),
    self=lambda grad, self, target, reduction, delta: huber_backward_op(
        grad, self, target, reduction=reduction, delta=delta
    ),
    target=lambda grad, self, target, reduction, delta: huber_backward_op(
        grad, target, self, reduction=reduction, delta=delta
    ),
)
huber_backward_op = Op(
    "HuberLossBackwardBackward0",
    lambda xp, grad_output, self, target, *, reduction, delta: _huber_slope(
        xp, grad_output, self, target, reduction, delta
    ),
    grad_output=lambda grad, self, target, reduction, delta: huber_backward_op(
        grad, self, target, reduction=reduction, delta=delta
    ),
    self=lambda grad, grad_output, self, target, reduction, delta: _bend_second(
        grad * grad_output, self, target, reduction, delta, 1.0
    ),
    target=lambda grad, grad_output, self, target, reduction, delta: (
        -_bend_second(grad * grad_output, self, target, reduction, delta, 1.0)
    ),
)


# pairwise_distance is ``norm(x1 - x2 + eps, p, dim)`` in PyTorch's C++: the addition of a number
# there is AddBackward1 (``functions.add_scalar_op``), and that norm NormBackward1 (torch.norm
# with a dim), whose rule is the vector norm's.
norm_dim_op = Op("NormBackward1", norm_op.forward, **norm_op.rules)


# soft_margin_loss: log(1 + exp(-target * x)), computed as PyTorch's kernel does (so it overflows
# to inf where PyTorch's does). The target is a parameter: PyTorch cannot differentiate it. The
# backward is an op of its own, as in PyTorch, whose rules give the second derivatives.
def _soft_margin_slope(xp, grad_output, x, target, reduction):
    z = xp.exp(-target * x)
    return (target * z * -_norm_factor(x, reduction) / (1 + z) * grad_output).astype(x.dtype, copy=False)


def _soft_margin_second(grad: Tensor, x: Tensor, target, reduction) -> Tensor:
    """The second derivative ``target**2 z / (1 + z)**2`` with ``z = exp(-target x)``, per element."""
    target = Tensor._make(target)
    z = (x * -target).exp()
    return target * target * z / ((z + 1) * (z + 1)) * grad * _norm_factor(x, reduction)


def _soft_margin(xp, x, target, reduction):
    losses = xp.log1p(xp.exp(-x * target)).astype(x.dtype, copy=False)
    if reduction == "mean" and not losses.size:  # NaN, without NumPy's warning about an empty mean
        return xp.asarray(xp.nan, dtype=x.dtype)
    return _reduce(xp, losses, reduction)


soft_margin_loss_op = Op(
    "SoftMarginLossBackward0",
    lambda xp, self, *, target, reduction: _soft_margin(xp, self, target, reduction),
    self=lambda grad, self, target, reduction: soft_margin_backward_op(grad, self, target=target, reduction=reduction),
)
soft_margin_backward_op = Op(
    "SoftMarginLossBackwardBackward0",
    lambda xp, grad_output, self, *, target, reduction: _soft_margin_slope(xp, grad_output, self, target, reduction),
    grad_output=lambda grad, self, target, reduction: soft_margin_backward_op(
        grad, self, target=target, reduction=reduction
    ),
    self=lambda grad, grad_output, self, target, reduction: _soft_margin_second(
        grad * grad_output, self, target, reduction
    ),
)


# multi_margin_loss: per sample, the mean over the classes i other than the target y of
# max(0, margin - x[y] + x[i]) ** p (times weight[y]). PyTorch's backward is a kernel that cannot
# be differentiated again; so is this one (a NotImplemented node).
def _rows(xp, x, target):
    """``x`` as (N, C) rows (a 0-d input is one row of one class) and the target as (N,)."""
    return x.reshape(-1, x.shape[-1] if x.ndim else 1), target.reshape(-1)


def _margins(xp, x, target, p, margin, weight):
    """The (N, C) terms of each sample's sum (0 at the target), their margins ``z``, the targets."""
    rows, target = _rows(xp, x, target)
    z = (margin - xp.take_along_axis(rows, target[:, None], 1)) + rows  # in the kernel's order
    terms = xp.where(z > 0, z if p == 1 else z * z, 0)
    if weight is not None:
        terms = terms * weight[target][:, None]
    return xp.where(xp.arange(rows.shape[1]) == target[:, None], 0, terms), z, target


def _multi_margin(xp, x, target, p, margin, weight, reduction):
    terms, _, _ = _margins(xp, x, target, p, margin, weight)
    losses = terms.sum(1) / terms.shape[1]
    if reduction == "none":
        return losses.astype(x.dtype, copy=False).reshape(-1 if target.ndim else ())
    total = losses.sum() / losses.shape[0] if reduction == "mean" else losses.sum()
    return xp.asarray(total, dtype=x.dtype)


def _per_sample(xp, grad, grad_output, reduction):
    """The (N, C) gradient times the incoming gradient: one number, or one per sample."""
    if reduction != "none" or grad_output.ndim == 0:
        return grad * grad_output
    return grad * grad_output.reshape(-1, 1)


def _multi_margin_grad(xp, grad_output, x, target, p, margin, weight, reduction):
    _, z, target = _margins(xp, x, target, p, margin, None)
    n, c = z.shape
    g = 1 / (n * c) if reduction == "mean" and n else 1 / c  # (no samples: an empty gradient)
    h = xp.where(z > 0, g if p == 1 else 2 * g * z, 0)
    if weight is not None:
        h = h * weight[target][:, None]
    at_target = xp.arange(c) == target[:, None]
    h = xp.where(at_target, 0, h)
    h = xp.where(at_target, -h.sum(1, keepdims=True), h)  # the target's score moves against the others
    return _per_sample(xp, h, grad_output, reduction).astype(x.dtype, copy=False).reshape(x.shape)


multi_margin_loss_op = Op(
    "MultiMarginLossBackward0",
    lambda xp, self, *, target, p, margin, weight, reduction: _multi_margin(
        xp, self, target, p, margin, weight, reduction
    ),
    self=lambda grad, self, target, p, margin, weight, reduction: multi_margin_backward_op(
        grad, self, target=target, p=p, margin=margin, weight=weight, reduction=reduction
    ),
)
multi_margin_backward_op = Op(
    "NotImplemented",
    lambda xp, grad_output, self, *, target, p, margin, weight, reduction: _multi_margin_grad(
        xp, grad_output, self, target, p, margin, weight, reduction
    ),
    grad_output=lambda grad: _no_derivative("multi_margin_loss_backward"),
    self=lambda grad: _no_derivative("multi_margin_loss_backward"),
)


# multilabel_margin_loss: each sample's target lists its classes, up to the first -1; the loss is
# the sum over those classes j and the other classes i of max(0, 1 - x[j] + x[i]), divided by C.
def _label_margins(xp, x, target):
    """The (N, J, C) mask of the terms that count (label j listed, class i not a label, margin
    positive), their margins, and the (N, J) labels and which of them are listed."""
    rows, labels = (
        x.reshape(-1, x.shape[-1] if x.ndim else 1),
        target.reshape(-1, target.shape[-1] if target.ndim else 1),
    )
    listed = xp.cumprod(labels >= 0, axis=1).astype(bool)  # the labels before the first -1
    labels = xp.where(listed, labels, 0)
    is_label = ((labels[:, :, None] == xp.arange(rows.shape[1])) & listed[:, :, None]).any(1)
    z = (1 - xp.take_along_axis(rows, labels, 1))[:, :, None] + rows[:, None, :]
    counts = listed[:, :, None] & ~is_label[:, None, :] & (z > 0)
    return counts, z, labels, listed


def _multilabel_margin(xp, x, target, reduction):
    counts, z, _, _ = _label_margins(xp, x, target)
    losses = xp.where(counts, z, 0).sum((1, 2)) / counts.shape[2]
    if reduction == "none":
        return losses.astype(x.dtype, copy=False).reshape(-1 if target.ndim > 1 else ())
    total = losses.sum() / losses.shape[0] if reduction == "mean" else losses.sum()
    return xp.asarray(total, dtype=x.dtype)


def _multilabel_margin_grad(xp, grad_output, x, target, reduction):
    counts, _, labels, listed = _label_margins(xp, x, target)
    n, _, c = counts.shape
    g = 1 / (n * c) if reduction == "mean" and n else 1 / c  # (no samples: an empty gradient)
    # +g for class i per label it is within the margin of; -g for label j per such class i
    against = ((labels[:, :, None] == xp.arange(c)) & listed[:, :, None]) * counts.sum(2, keepdims=True)
    grad = g * (counts.sum(1) - against.sum(1))
    return _per_sample(xp, grad, grad_output, reduction).astype(x.dtype, copy=False).reshape(x.shape)


multilabel_margin_loss_op = Op(
    "MultilabelMarginLossBackward0",
    lambda xp, self, *, target, reduction: _multilabel_margin(xp, self, target, reduction),
    self=lambda grad, self, target, reduction: multilabel_margin_backward_op(
        grad, self, target=target, reduction=reduction
    ),
)
multilabel_margin_backward_op = Op(
    "NotImplemented",
    lambda xp, grad_output, self, *, target, reduction: _multilabel_margin_grad(
        xp, grad_output, self, target, reduction
    ),
    grad_output=lambda grad: _no_derivative("multilabel_margin_loss_backward"),
    self=lambda grad: _no_derivative("multilabel_margin_loss_backward"),
)


# ---------------------------------------------------------------------------------------------- normalization
# layer_norm and batch_norm standardise the input over some dims, then scale and shift it:
# (x - mean) * invstd * weight + bias. PyTorch also saves the mean and invstd; these rules
# recompute them from the saved input with minigrad ops instead, so that every gradient can be
# differentiated again. A weight or bias that was not given comes in as a constant that needs no
# gradient: the node keeps its three edges, (None, 0) for those, as PyTorch's does.
def _standardized(xp, x, axes, eps):
    """``(x - mean) / sqrt(var + eps)`` over ``axes``, with the biased variance (arrays)."""
    if not x.size:  # nothing to average (an empty batch): NumPy would warn
        return x.copy()
    centered = x - x.mean(axis=axes, keepdims=True)
    return centered / xp.sqrt((centered * centered).mean(axis=axes, keepdims=True) + eps)


def _standardize(x: Tensor, dims: tuple, eps: float) -> tuple[Tensor, Tensor]:
    """The standardised input and invstd, as the forward computes them (differentiable)."""
    centered = x - x.mean(dims, keepdim=True)
    invstd = ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    return centered * invstd, invstd


def _standardize_backward(grad: Tensor, x: Tensor, weight: Tensor, dims: tuple, eps: float) -> Tensor:
    """The input's gradient through standardising over ``dims`` and scaling by ``weight``:
    ``invstd * (g - mean(g) - xhat * mean(g * xhat))`` with ``g = grad * weight``. Each element
    moves the mean and the variance too; the two means take that back out."""
    xhat, invstd = _standardize(x, dims, eps)
    g = grad if weight is None else grad * weight
    return invstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def _last(normalized_shape: tuple) -> tuple[int, ...]:
    """The dims layer_norm standardises over: the last ``len(normalized_shape)``."""
    return tuple(range(-len(normalized_shape), 0))


layer_norm_op = Op(
    "NativeLayerNormBackward0",
    lambda xp, input, weight, bias, *, normalized_shape, eps: (
        _standardized(xp, input, _last(normalized_shape), eps) * weight + bias
    ),
    input=lambda grad, input, weight, normalized_shape, eps: _standardize_backward(
        grad, input, weight, _last(normalized_shape), eps
    ),
    # grad * xhat has the input's shape: _fit sums it over the leading dims to the weight's shape
    weight=lambda grad, input, normalized_shape, eps: grad * _standardize(input, _last(normalized_shape), eps)[0],
    bias=lambda grad: grad,
)


def _channel_dims(ndim: int) -> tuple[int, ...]:
    """The dims batch_norm averages over: every dim but the channel dim 1."""
    return (0, *range(2, ndim))


def _per_channel(values, ndim: int):
    """A (C,) array or tensor as (1, C, 1, ...), to broadcast against a (N, C, ...) input."""
    return values.reshape((1, -1) + (1,) * (ndim - 2))


def _batch_norm(xp, input, weight, bias, running_mean, running_var, training, eps):
    if training:
        xhat = _standardized(xp, input, _channel_dims(input.ndim), eps)
    else:
        mean, var = _per_channel(running_mean, input.ndim), _per_channel(running_var, input.ndim)
        xhat = (input - mean) / xp.sqrt(var + eps)
    return xhat * _per_channel(weight, input.ndim) + _per_channel(bias, input.ndim)


def _batch_normalized(input: Tensor, running_mean, running_var, training: bool, eps: float) -> Tensor:
    """The standardised input as the forward made it: with the batch's statistics (which depend
    on the input) when training, else with the running ones (constants: arrays)."""
    if training:
        return _standardize(input, _channel_dims(input.ndim), eps)[0]
    mean, var = (_per_channel(Tensor._make(a), input.ndim) for a in (running_mean, running_var))
    return (input - mean) * (var + eps).rsqrt()


def _batch_norm_input_grad(grad: Tensor, input: Tensor, weight: Tensor, running_var, training: bool, eps: float):
    weight = _per_channel(weight, input.ndim)
    if training:
        return _standardize_backward(grad, input, weight, _channel_dims(input.ndim), eps)
    # in eval mode the statistics are constants: the map is affine, its slope weight * invstd
    return grad * weight * (_per_channel(Tensor._make(running_var), input.ndim) + eps).rsqrt()


# One op for training and eval, as in PyTorch (its node records ``training``). The running
# statistics are parameters, not inputs: PyTorch's node has no edges for them.
batch_norm_op = Op(
    "NativeBatchNormBackward0",
    lambda xp, input, weight, bias, *, running_mean, running_var, training, eps: _batch_norm(
        xp, input, weight, bias, running_mean, running_var, training, eps
    ),
    input=lambda grad, input, weight, running_var, training, eps: _batch_norm_input_grad(
        grad, input, weight, running_var, training, eps
    ),
    weight=lambda grad, input, running_mean, running_var, training, eps: (
        grad * _batch_normalized(input, running_mean, running_var, training, eps)
    ).sum(_channel_dims(grad.ndim)),
    bias=lambda grad: grad.sum(_channel_dims(grad.ndim)),
)


# group_norm standardises each sample's channels in ``group`` groups (each group with its
# positions), then scales and shifts per channel. The op's parameters are named as PyTorch's node
# saves them: N, C, HxW (the positions per channel) and group.
def _grouped(x, n: int, c: int, hxw: int, group: int):
    """``x`` (N, C, ...) as (N, group, C/group * HxW), an array or a tensor (sizes spelled out:
    N may be 0)."""
    return x.reshape(n, group, c // group * hxw)


def _group_norm(xp, input, weight, bias, sizes, eps):
    xhat = _standardized(xp, _grouped(input, *sizes), (-1,), eps).reshape(input.shape)
    return xhat * _per_channel(weight, input.ndim) + _per_channel(bias, input.ndim)


def _group_normalized(input: Tensor, sizes, eps) -> Tensor:
    """The standardised input, as the forward made it (differentiable)."""
    return _standardize(_grouped(input, *sizes), (-1,), eps)[0].reshape(input.shape)


def _group_norm_input_grad(grad: Tensor, input: Tensor, weight: Tensor, sizes, eps) -> Tensor:
    g = _grouped(grad * _per_channel(weight, grad.ndim), *sizes)
    return _standardize_backward(g, _grouped(input, *sizes), None, (-1,), eps).reshape(input.shape)


group_norm_op = Op(
    "NativeGroupNormBackward0",
    lambda xp, input, weight, bias, *, N, C, HxW, group, eps: _group_norm(  # noqa: N803 (PyTorch's names)
        xp, input, weight, bias, (N, C, HxW, group), eps
    ),
    input=lambda grad, input, weight, N, C, HxW, group, eps: _group_norm_input_grad(  # noqa: N803
        grad, input, weight, (N, C, HxW, group), eps
    ),
    weight=lambda grad, input, N, C, HxW, group, eps: (  # noqa: N803
        grad * _group_normalized(input, (N, C, HxW, group), eps)
    ).sum(_channel_dims(grad.ndim)),
    bias=lambda grad: grad.sum(_channel_dims(grad.ndim)),
)


def update_running_stats(xp, input, running_mean, running_var, *, momentum: float) -> None:
    """Blend the batch's mean and unbiased variance into the running statistics, in place and
    outside autograd, as PyTorch's kernel does while it normalises (their version counters do not
    change). ``batch_norm`` calls it through ``backend.compute``."""
    count = input.shape[0] * math.prod(input.shape[2:])  # values per channel
    if not count:  # an empty batch leaves them as they are, as in PyTorch
        return
    axes = _channel_dims(input.ndim)
    mean = input.mean(axis=axes)
    var = ((input - _per_channel(mean, input.ndim)) ** 2).sum(axis=axes) / (count - 1)
    backend.assign(running_mean, (1 - momentum) * running_mean + momentum * mean)
    backend.assign(running_var, (1 - momentum) * running_var + momentum * var)


# ---------------------------------------------------------------------------------------------- embedding
def _embedding_backward(grad: Tensor, indices, padding_idx: int, scale_grad_by_freq: bool, num_weights: int):
    """Each looked-up row's gradient added into its weight row (repeated indices add up), none
    into row ``padding_idx``; with ``scale_grad_by_freq`` each divided by its index's count."""
    flat = indices.reshape(-1)
    rows = grad.reshape(flat.size, grad.shape[-1])
    if scale_grad_by_freq:
        counts = backend.xp(grad.device).bincount(flat, minlength=num_weights)[flat]
        rows = rows / Tensor._make(counts.reshape(-1, 1)).to(rows.dtype)
    if padding_idx >= 0:  # where, not a product: an inf in a padding row must not become nan
        rows = where(Tensor._make((flat != padding_idx).reshape(-1, 1)), rows, 0.0)
    return embed(rows, shape=(num_weights, rows.shape[1]), key=(flat,))


# The indices are a parameter (an array), not an input: PyTorch's node has one edge, the weight.
# The weight's gradient is embed (index's backward); embed's own rule reads the rows out again.
embedding_op = Op(
    "EmbeddingBackward0",
    lambda xp, weight, *, indices, padding_idx, scale_grad_by_freq, sparse, weight_sym_argsize_0: xp.take(
        weight, indices, axis=0
    ),
    weight=lambda grad, indices, padding_idx, scale_grad_by_freq, weight_sym_argsize_0: _embedding_backward(
        grad, indices, padding_idx, scale_grad_by_freq, weight_sym_argsize_0
    ),
)


# ---------------------------------------------------------------------------------------------- pooling
def pooled_size(size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool) -> int:
    """The output length of a sliding-window pool along one dim, as PyTorch's pooling_output_shape:
    with ``ceil_mode`` a last partial window counts, unless it would start in the right padding."""
    reach = size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = reach // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _sliding_axis(xp, size, kernel, stride, padding, dilation, ceil_mode):
    """(positions, inside) of shape (out, kernel) for one dim: where each window's taps fall."""
    out = pooled_size(size, kernel, stride, padding, dilation, ceil_mode)
    taps = (xp.arange(out, dtype=xp.int64) * stride - padding).reshape(-1, 1) + xp.arange(kernel) * dilation
    return taps, (taps >= 0) & (taps < size)


def _adaptive_axis(xp, size, out):
    """(positions, inside) for one dim of adaptive pooling: window i covers
    [floor(i size / out), ceil((i + 1) size / out)), padded on the right to the longest window."""
    i = xp.arange(out, dtype=xp.int64).reshape(-1, 1)
    start, end = i * size // out, ((i + 1) * size + out - 1) // out
    taps = start + xp.arange(min(size, -(-size // out) + 1) if out else 1)  # no window is longer
    return taps, taps < end


def _plane(xp, rows, cols, width):
    """Flat positions (out_h, out_w, K) into an (H, W) plane from each dim's (positions, inside),
    and which of them lie inside it; those outside point at 0, so they can be read safely."""
    (r, r_in), (c, c_in) = rows, cols
    positions = r[:, None, :, None] * width + c[None, :, None, :]
    inside = r_in[:, None, :, None] & c_in[None, :, None, :]
    shape = positions.shape[:2] + (positions.shape[2] * positions.shape[3],)  # not -1: out_h may be 0
    return xp.where(inside, positions, 0).reshape(shape), inside.reshape(shape)


def _windows_of(xp, x, geometry):
    """The windows of ``x`` (..., H, W) as (..., out_h, out_w, K), the positions and the mask."""
    positions, inside = geometry
    return x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))[..., positions], positions, inside


def _sliding_axes(xp, shape, kernel_size, stride, padding, dilation, ceil_mode):
    """Each of the two pooled dims' (positions, inside) for windows sliding over ``shape``'s plane."""
    return [
        _sliding_axis(xp, shape[d], kernel_size[i], stride[i], padding[i], dilation[i], ceil_mode)
        for i, d in enumerate((-2, -1))
    ]


def _adaptive_axes(xp, shape, output_size):
    """Each of the two pooled dims' (positions, inside) for adaptive windows over ``shape``'s plane."""
    return [_adaptive_axis(xp, shape[d], n) for d, n in zip((-2, -1), output_size)]


def _empty_windows(xp, sizes, kernel_size, stride, padding, dilation, ceil_mode):
    """Which windows of a max pool over dims of ``sizes`` lie wholly in the padding (a dilation
    can skip the input), and for each window the flat position PyTorch's kernel starts from: each
    dim's first tap at or after 0. PyTorch gives an empty window -inf, and that position as index."""
    n, empty, start = len(sizes), False, 0
    for k, (size, kernel, s, p, d) in enumerate(zip(sizes, kernel_size, stride, padding, dilation)):
        taps, inside = _sliding_axis(xp, size, kernel, s, p, d, ceil_mode)
        first = taps[:, 0] + (xp.maximum(-taps[:, 0], 0) + d - 1) // d * d
        shape = (-1,) + (1,) * (n - 1 - k)  # this dim's place in the grid of windows
        empty = empty | ~inside.any(-1).reshape(shape)
        start = start * size + first.reshape(shape)
    return empty, start


def _sliding_max_indices(xp, indices, sizes, params: dict):
    """``indices`` with PyTorch's index in each empty window (kept inside the plane or volume:
    beyond it PyTorch's backward would write outside the gradient)."""
    empty, start = _empty_windows(xp, sizes, **params)
    return xp.where(empty, xp.minimum(start, math.prod(sizes) - 1), indices) if empty.any() else indices


def _sliding_max(xp, self, *, kernel_size, stride, padding, dilation, ceil_mode, result1):
    """max_pool2d's or max_pool3d's forward: ``self`` read at the indices ``result1``, and the
    lowest value in the windows wholly in the padding, as PyTorch's kernel gives them."""
    n = len(kernel_size)
    values = _gather_flat(xp, self, result1) if n == 2 else _gather_volume(xp, self, result1)
    empty, _ = _empty_windows(xp, self.shape[-n:], kernel_size, stride, padding, dilation, ceil_mode)
    if not empty.any():
        return values
    return xp.where(empty, -xp.inf if values.dtype.kind == "f" else xp.iinfo(values.dtype).min, values)


def max_indices(xp, x, geometry):
    """The flat position in its plane of each window's maximum, as PyTorch's kernels choose it:
    the first largest value, or the last NaN when the window holds one."""
    windows, positions, inside = _windows_of(xp, x, geometry)
    lowest = -xp.inf if windows.dtype.kind == "f" else xp.iinfo(windows.dtype).min
    masked = xp.where(inside, windows, lowest)
    if windows.dtype.kind == "f":
        nan = xp.isnan(masked)
        masked = xp.where(nan, lowest, masked)
    # among the taps inside that hold the largest value, the first (not a padding tap, when all are -inf)
    pick = (inside & (masked == masked.max(-1, keepdims=True))).argmax(-1)
    if windows.dtype.kind == "f":
        last_nan = nan.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
        pick = xp.where(nan.any(-1), last_nan, pick)
    return xp.take_along_axis(xp.broadcast_to(positions, windows.shape), pick[..., None], -1)[..., 0]


def _gather_flat(xp, x, indices):
    """``x`` (..., H, W) read at flat plane positions ``indices`` (..., out_h, out_w)."""
    # (sizes spelled out, not -1: a dim may be 0)
    flat = x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))
    index = indices.reshape(indices.shape[:-2] + (indices.shape[-2] * indices.shape[-1],))
    return xp.take_along_axis(flat, index, -1).reshape(indices.shape)


def _scatter_flat(xp, values, shape, positions):
    """Zeros of ``shape`` (..., H, W) with ``values`` added at flat plane ``positions`` (which
    broadcast to ``values``); repeated positions add up."""
    lead = math.prod(shape[:-2])
    out = xp.zeros((lead, shape[-2] * shape[-1]), dtype=values.dtype)
    per_plane = math.prod(values.shape[len(shape) - 2 :])  # (spelled out, not -1: lead may be 0)
    where = xp.broadcast_to(positions, values.shape).reshape(lead, per_plane)
    backend.scatter_add(out, (xp.arange(lead).reshape(-1, 1), where), values.reshape(lead, per_plane))
    return out.reshape(shape)


def _nonempty(grad: Tensor, function: str) -> Tensor:
    """``grad``, checked as PyTorch's adaptive pooling backward kernels check it: an output_size of
    0 gives an empty result, but its backward refuses it."""
    for d in range(1, grad.ndim):
        if grad.shape[d] == 0:
            raise RuntimeError(
                f"{function}(): Expected grad_output to have non-zero size for non-batch dimensions, but "
                f"grad_output has sizes {list(grad.shape)} with dimension {d} being empty"
            )
    return grad


def _max_pool_double_backward(grad: Tensor, indices, dims: int) -> Tensor:
    """The gradient read back at the indices (flat positions in the last ``dims`` dims), as
    PyTorch's max_pool_double_backward (a gather)."""
    index = Tensor._make(indices)
    return grad.flatten(-dims).gather(-1, index.flatten(-dims)).view(index.shape)


def _indices_backward_op(name: str, dims: int = 2) -> Op:
    """A max pooling's backward op: the gradient added back at the indices (of a plane, or with
    ``dims`` 3 of a volume, seen as a (..., D, H*W) plane). Its rule for the incoming gradient
    reads it at the indices again; the input's values play no part."""
    return Op(
        name,
        lambda xp, grad_output, self, *, indices: _scatter_flat(
            xp, grad_output, self.shape if dims == 2 else _as_plane(self).shape, indices
        ).reshape(self.shape),
        grad_output=lambda grad, indices: _max_pool_double_backward(grad, indices, dims),
        self=lambda grad: zeros_like_tensor(grad),
    )


# The indices are a parameter named as PyTorch saves them (``_saved_result1``); the forward
# reads the input there, the other parameters are kept as PyTorch's node keeps them.
max_pool2d_op = Op(
    "MaxPool2DWithIndicesBackward0",
    _sliding_max,
    self=lambda grad, self, result1: max_pool2d_backward_op(grad, self, indices=result1),
)
max_pool2d_backward_op = _indices_backward_op("MaxPool2DWithIndicesBackwardBackward0")
adaptive_max_pool2d_op = Op(
    "AdaptiveMaxPool2DBackward0",
    lambda xp, self, *, result1: _gather_flat(xp, self, result1),
    self=lambda grad, self, result1: adaptive_max_pool2d_backward_op(
        _nonempty(grad, "adaptive_max_pool2d_backward"), self, indices=result1
    ),
)
adaptive_max_pool2d_backward_op = _indices_backward_op("AdaptiveMaxPool2DBackwardBackward0")


def _avg_geometry(xp, shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Positions, mask and the divisor of each window (out_h, out_w) of avg_pool2d. Counting the
    padding, a window is cut only where it overhangs the padding (ceil_mode), as in PyTorch."""
    axes = _sliding_axes(xp, shape, kernel_size, stride, padding, (1, 1), ceil_mode)
    positions, inside = _plane(xp, *axes, shape[-1])
    if divisor_override:
        return positions, inside, divisor_override
    if count_include_pad:
        counts = [
            xp.minimum(taps[:, 0] + k, n + p) - taps[:, 0]
            for (taps, _), k, n, p in zip(axes, kernel_size, shape[-2:], padding)
        ]
    else:
        counts = [taps_in.sum(-1) for _, taps_in in axes]
    return positions, inside, counts[0].reshape(-1, 1) * counts[1]


def _adaptive_geometry(xp, shape, output_size):
    """Positions, mask and the divisor (the window's size) of adaptive average pooling."""
    axes = _adaptive_axes(xp, shape, output_size)
    positions, inside = _plane(xp, *axes, shape[-1])
    return positions, inside, axes[0][1].sum(-1).reshape(-1, 1) * axes[1][1].sum(-1)


def _average(xp, x, geometry):
    windows, positions, inside = _windows_of(xp, x, geometry[:2])
    # (the gather lays the windows out with the batch dims innermost: the result is made row-major, as PyTorch's)
    total = xp.ascontiguousarray(xp.where(inside, windows, 0).sum(-1, dtype=windows.dtype))
    if x.dtype.kind != "f":  # integers: PyTorch's integer division, which truncates
        return xp.trunc(total / geometry[2]).astype(x.dtype)
    return (total / geometry[2]).astype(x.dtype, copy=False)


def _spread(xp, grad_output, shape, geometry):
    """The backward of :func:`_average`: each window's gradient, divided by its divisor, added back
    at the window's positions inside the input."""
    positions, inside, divisor = geometry
    share = (grad_output / divisor).astype(grad_output.dtype, copy=False)
    return _scatter_flat(xp, xp.where(inside, share[..., None], 0), shape, positions)


avg_pool2d_op = Op(
    "AvgPool2DBackward0",
    lambda xp, self, *, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: _average(
        xp,
        self,
        _avg_geometry(xp, self.shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override),
    ),
    self=lambda grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        avg_pool2d_backward_op(
            grad,
            self,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
        )
    ),
)
# Linear in the incoming gradient: its rule for it is avg_pool2d itself, as in PyTorch.
avg_pool2d_backward_op = Op(
    "AvgPool2DBackwardBackward0",
    lambda xp, grad_output, self, *, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        _spread(
            xp,
            grad_output,
            self.shape,
            _avg_geometry(xp, self.shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override),
        )
    ),
    grad_output=lambda grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        avg_pool2d_op(
            grad,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
            divisor_override=divisor_override,
        )
    ),
    self=lambda grad: zeros_like_tensor(grad),
)
adaptive_avg_pool2d_op = Op(
    "AdaptiveAvgPool2DBackward0",
    lambda xp, self, *, output_size: _average(xp, self, _adaptive_geometry(xp, self.shape, output_size)),
    self=lambda grad, self: adaptive_avg_pool2d_backward_op(_nonempty(grad, "adaptive_avg_pool2d_backward"), self),
)
adaptive_avg_pool2d_backward_op = Op(
    "AdaptiveAvgPool2DBackwardBackward0",
    lambda xp, grad_output, self: _spread(
        xp, grad_output, self.shape, _adaptive_geometry(xp, self.shape, grad_output.shape[-2:])
    ),
    grad_output=lambda grad, grad_output_shape: adaptive_avg_pool2d_op(grad, output_size=tuple(grad_output_shape[-2:])),
    self=lambda grad: zeros_like_tensor(grad),
)


# ---------------------------------------------------------------------------------------------- padding
def pad_key(xp, shape, padding, mode):
    """The index that reads a padded tensor out of one of ``shape``: per padded dim (the last
    ``len(padding) // 2``, ``padding`` given last dim first, as F.pad takes it), the source of each
    output position -- reflected at the edges, clamped to them, or wrapped around."""
    dims = len(padding) // 2
    key = [slice(None)] * (len(shape) - dims)
    for k in range(dims):
        size, before, after = shape[len(shape) - dims + k], *padding[2 * (dims - 1 - k) : 2 * (dims - k)]
        if mode == "circular":  # negative padding crops first; the rest wraps around what is left
            start, size = max(-before, 0), size - max(-before, 0) - max(-after, 0)
            source = (xp.arange(-max(before, 0), size + max(after, 0)) % size) + start
        else:
            source = xp.arange(-before, size + after)
            if mode == "reflect":
                source = (size - 1) - xp.abs((size - 1) - xp.abs(source))  # mirrored at 0 and at size - 1
            else:
                source = xp.clip(source, 0, size - 1)
        key.append(source.reshape((-1,) + (1,) * (dims - 1 - k)))
    return tuple(key)


def _pad_ops(name: str, mode: str) -> Op:
    """A non-constant padding op (``{name}Backward0``) and its backward op, which adds each output
    position's gradient back at its source (``{name}BackwardBackward0``, linear in the gradient)."""
    forward = Op(
        f"{name}Backward0",
        lambda xp, self, *, padding: xp.ascontiguousarray(self[pad_key(xp, self.shape, padding, mode)]),  # row-major
        self=lambda grad, self, padding: backward(grad, self, padding=padding),
    )
    backward = Op(
        f"{name}BackwardBackward0",
        lambda xp, grad_output, self, *, padding: _embed(
            xp, grad_output, self.shape, pad_key(xp, self.shape, padding, mode)
        ),
        grad_output=lambda grad, padding: forward(grad, padding=padding),
        self=lambda grad: zeros_like_tensor(grad),
    )
    return forward


# by mode and the number of padded dims
pad_ops = {
    (mode, dims): _pad_ops(f"{kind}Pad{dims}D", mode)
    for mode, kind in (("reflect", "Reflection"), ("replicate", "Replication"))
    for dims in (1, 2, 3)
}


def _constant_pad(xp, x, pad, value):
    """``x`` with ``pad`` (last dim first) added around: positive parts filled with ``value``,
    negative parts cut off."""
    widths = [(0, 0)] * x.ndim
    crop = [slice(None)] * x.ndim
    for k in range(len(pad) // 2):
        before, after = pad[2 * k], pad[2 * k + 1]
        widths[x.ndim - 1 - k] = (max(before, 0), max(after, 0))
        crop[x.ndim - 1 - k] = slice(max(-before, 0), x.shape[x.ndim - 1 - k] - max(-after, 0))
    cropped = x[tuple(crop)]
    fill = xp.asarray(value).astype(x.dtype).item()  # the value in x's dtype (2.7 pads an int tensor with 2)
    return xp.pad(cropped, widths, constant_values=fill)


# Its gradient is the same op with the padding negated: what was added is cut off again.
constant_pad_nd_op = Op(
    "ConstantPadNdBackward0",
    lambda xp, self, *, pad, value: _constant_pad(xp, self, pad, value),
    self=lambda grad, pad: constant_pad_nd_op(grad, pad=tuple(-p for p in pad), value=0),
)


def sliding_max_indices(xp, x, *, kernel_size, stride, padding, dilation, ceil_mode):
    """max_pool2d's indices (flat positions in each plane of ``x``)."""
    axes = _sliding_axes(xp, x.shape, kernel_size, stride, padding, dilation, ceil_mode)
    params = dict(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil_mode)
    return _sliding_max_indices(xp, max_indices(xp, x, _plane(xp, *axes, x.shape[-1])), x.shape[-2:], params)


def adaptive_max_indices(xp, x, *, output_size):
    """adaptive_max_pool2d's indices (flat positions in each plane of ``x``)."""
    return max_indices(xp, x, _plane(xp, *_adaptive_axes(xp, x.shape, output_size), x.shape[-1]))


# ---------------------------------------------------------------------------------------------- bilinear
def _trilinear_grad(spec: str, k: int):
    """The einsum spec of the gradient for operand ``k`` of ``spec``: the incoming gradient takes
    the result's place, operand ``k``'s indices become the result's."""
    operands, result = spec.split("->")
    parts = operands.split(",")
    target, parts[k] = parts[k], result
    return ",".join(parts) + "->" + target


# ``i1 (x) i2 (x) i3`` summed as ``spec`` says: bilinear's kernel (PyTorch's _trilinear). Each
# gradient is the same kind of product of the incoming gradient with the other two.
trilinear_op = Op(
    "TrilinearBackward0",
    lambda xp, i1, i2, i3, *, spec: xp.einsum(spec, i1, i2, i3),
    i1=lambda grad, i2, i3, spec: trilinear_op(grad, i2, i3, spec=_trilinear_grad(spec, 0)),
    i2=lambda grad, i1, i3, spec: trilinear_op(i1, grad, i3, spec=_trilinear_grad(spec, 1)),
    i3=lambda grad, i1, i2, spec: trilinear_op(i1, i2, grad, spec=_trilinear_grad(spec, 2)),
)


# ---------------------------------------------------------------------------------------------- resampling
# pixel_shuffle moves blocks of r*r channels into r x r patches of the plane; pixel_unshuffle
# undoes it. Each is the other's backward, as in PyTorch.
def _pixel_shuffle(xp, x, r):
    *batch, c, h, w = x.shape
    n = len(batch)
    blocks = x.reshape(*batch, c // (r * r), r, r, h, w)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return xp.ascontiguousarray(blocks.transpose(order)).reshape(*batch, c // (r * r), h * r, w * r)


def _pixel_unshuffle(xp, x, r):
    *batch, c, h, w = x.shape
    n = len(batch)
    patches = x.reshape(*batch, c, h // r, r, w // r, r)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return xp.ascontiguousarray(patches.transpose(order)).reshape(*batch, c * r * r, h // r, w // r)


pixel_shuffle_op = Op(
    "PixelShuffleBackward0",
    lambda xp, self, *, upscale_factor: _pixel_shuffle(xp, self, upscale_factor),
    self=lambda grad, upscale_factor: pixel_unshuffle_op(grad, downscale_factor=upscale_factor),
)
pixel_unshuffle_op = Op(
    "PixelUnshuffleBackward0",
    lambda xp, self, *, downscale_factor: _pixel_unshuffle(xp, self, downscale_factor),
    self=lambda grad, downscale_factor: pixel_shuffle_op(grad, upscale_factor=downscale_factor),
)


# interpolate: each spatial axis is resampled by an (out, in) matrix of weights, built with
# PyTorch's index arithmetic (in float32 for float32 inputs, as its kernels compute): one 1 per
# row for 'nearest', two neighbours' weights for 'linear', four for 'cubic', a wider filter for
# the antialiased modes ('linear-aa', 'cubic-aa'). The 2-d result is R_h @ x @ R_w.T (along W
# first, as PyTorch sums); the gradient R_h.T @ g @ R_w.
def _nearest_sources(xp, size, out, scale, exact, ftype):
    i = xp.arange(out)
    if not exact and out == size:
        return i
    if not exact and out == 2 * size:
        return i >> 1
    step = ftype(1.0 / scale) if scale is not None and scale > 0 else ftype(size) / ftype(out)
    position = (i.astype(ftype) + ftype(0.5)) * step if exact else i.astype(ftype) * step
    return xp.minimum(xp.floor(position).astype(i.dtype), size - 1)


def _axis_weights(xp, size, out, scale, mode, align_corners, dtype):
    """The (out, size) matrix that resamples one axis."""
    ftype = xp.float64 if dtype == xp.float64 else xp.float32
    rows = xp.arange(out)
    if mode.endswith("-aa"):
        return _antialias_weights(xp, size, out, scale, align_corners, mode, ftype).astype(dtype, copy=False)
    weights = xp.zeros((out, size), dtype=dtype)
    if mode == "cubic":
        return _cubic_weights(xp, weights, size, out, scale, align_corners, ftype)
    if mode != "linear":
        weights[rows, _nearest_sources(xp, size, out, scale, mode == "nearest-exact", ftype)] = 1
        return weights
    if out == size:
        weights[rows, rows] = 1
        return weights
    if align_corners:
        step = ftype(size - 1) / ftype(out - 1) if out > 1 else ftype(0)
        real = rows.astype(ftype) * step
    else:
        step = ftype(1.0 / scale) if scale is not None and scale > 0 else ftype(size) / ftype(out)
        real = xp.maximum((rows.astype(ftype) + ftype(0.5)) * step - ftype(0.5), ftype(0))
    low = xp.minimum(xp.floor(real).astype(rows.dtype), size - 1)
    far = xp.clip(real - low.astype(ftype), 0, 1).astype(ftype)
    high = low + (low < size - 1)
    backend.scatter_add(weights, (rows, low), (1 - far).astype(dtype))  # low == high at the last index
    backend.scatter_add(weights, (rows, high), far.astype(dtype))
    return weights


def _cubic(xp, distance, a):
    """Keys' cubic convolution kernel at ``distance`` (nonzero below 2), with the parameter ``a``."""
    x = xp.abs(distance)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return xp.where(x <= 1, near, xp.where(x < 2, far, 0)).astype(x.dtype, copy=False)


def _cubic_weights(xp, weights, size, out, scale, align_corners, ftype):
    """PyTorch's bicubic weights (``upsample_bicubic2d``, a = -0.75): the four input pixels
    around each output's source position, their indices clamped to the axis (so a border pixel
    may take several weights)."""
    rows = xp.arange(out)
    if align_corners:
        real = rows.astype(ftype) * (ftype(size - 1) / ftype(out - 1) if out > 1 else ftype(0))
    else:  # unlike 'linear', the source position is not clamped at 0
        step = ftype(1.0 / scale) if scale is not None and scale > 0 else ftype(size) / ftype(out)
        real = (rows.astype(ftype) + ftype(0.5)) * step - ftype(0.5)
    index = xp.minimum(xp.floor(real).astype(rows.dtype), size - 1)
    t = xp.clip(real - index.astype(ftype), 0, 1).astype(ftype)
    for offset in (-1, 0, 1, 2):
        tap = xp.clip(index + offset, 0, size - 1)
        backend.scatter_add(weights, (rows, tap), _cubic(xp, t - ftype(offset), ftype(-0.75)).astype(weights.dtype))
    return weights


def _antialias_weights(xp, size, out, scale, align_corners, mode, ftype):
    """PyTorch's antialiased weights (``_upsample_bilinear2d_aa``, ``_upsample_bicubic2d_aa``):
    when shrinking by a factor s, the filter (a triangle for 'linear-aa', Keys' cubic with
    a = -0.5, as Pillow's, for 'cubic-aa') is stretched s times, so every input pixel contributes
    (plain bilinear reads only the two nearest and skips the rest). Each row is normalised to sum
    to 1. Growing (s < 1) keeps the filter as it is."""
    if align_corners:  # align_corners changes only the step, not the centres
        step = ftype(size - 1) / ftype(out - 1) if out > 1 else ftype(0)
    else:
        step = ftype(1.0 / scale) if scale is not None and scale > 0 else ftype(size) / ftype(out)
    reach = 1 if mode == "linear-aa" else 2  # the filter's half-width, unstretched
    support = reach * step if step >= 1 else ftype(reach)  # ... and in input pixels
    invscale = ftype(1 / step) if step >= 1 else ftype(1)
    center = (step * (xp.arange(out) + 0.5)).astype(ftype)[:, None]
    # The window of input pixels each output reads, as PyTorch truncates it (at most 2 ceil(support) + 1)
    first = xp.maximum((center - support + 0.5).astype(xp.int64), 0)
    last = xp.minimum((center + support + 0.5).astype(xp.int64), size)
    last = xp.minimum(last, first + 2 * math.ceil(support) + 1)
    cols = xp.arange(size)[None, :]
    distance = ((cols - center + 0.5) * invscale).astype(ftype)
    if mode == "linear-aa":
        weights = xp.maximum(1 - xp.abs(distance), 0).astype(ftype)
    else:
        weights = _cubic(xp, distance, ftype(-0.5))
    weights = xp.where((cols >= first) & (cols < last), weights, ftype(0))
    total = weights.sum(axis=1, keepdims=True)
    return weights / xp.where(total == 0, ftype(1), total)


def _resample_weights(xp, in_sizes, out_sizes, scales, mode, align_corners, dtype):
    return [_axis_weights(xp, n, o, s, mode, align_corners, dtype) for n, o, s in zip(in_sizes, out_sizes, scales)]


def _resample(xp, x, mode, output_size, scales, align_corners):
    sizes = x.shape[2:]
    if mode in ("nearest", "nearest-exact"):  # a gather, exact for any value (inf included)
        axes = [
            _nearest_sources(xp, n, o, s, mode == "nearest-exact", xp.float32)
            for n, o, s in zip(sizes, output_size, scales)
        ]
        if len(axes) == 1:
            return xp.ascontiguousarray(x[..., axes[0]])
        return xp.ascontiguousarray(x[..., axes[0][:, None], axes[1][None, :]])
    weights = _resample_weights(xp, sizes, output_size, scales, mode, align_corners, x.dtype)
    if mode.endswith("-aa"):  # PyTorch's antialiased forward leaves alone an axis that keeps its size, whatever
        # the scale factor (its backward does not: there the gradient is not quite the forward's transpose)
        weights = [xp.eye(n, dtype=x.dtype) if n == o else w for w, n, o in zip(weights, sizes, output_size)]
    out = xp.matmul(x, weights[-1].T)
    if len(weights) == 2:
        out = xp.matmul(weights[0], out)
    return out.astype(x.dtype, copy=False)


def _resample_backward(xp, g, mode, input_size, output_size, scales, align_corners):
    weights = _resample_weights(xp, input_size, output_size, scales, mode, align_corners, g.dtype)
    out = xp.matmul(g, weights[-1])
    if len(weights) == 2:
        out = xp.matmul(weights[0].T, out)
    return out.astype(g.dtype, copy=False)


_RESAMPLE_OPS: dict[str, tuple[Op, Op]] = {}


def resample_ops(name: str) -> tuple[Op, Op]:
    """The op ``Upsample<name>Backward0`` and its backward ``Upsample<name>BackwardBackward0``
    (e.g. name "Bilinear2D"): each is linear, so each one's rule is the other."""
    if name not in _RESAMPLE_OPS:
        forward = Op(
            f"Upsample{name}Backward0",
            lambda xp, self, *, mode, output_size, scales, align_corners: _resample(
                xp, self, mode, output_size, scales, align_corners
            ),
            self=lambda grad, self_shape, mode, output_size, scales, align_corners: backward(
                grad,
                mode=mode,
                input_size=tuple(self_shape[2:]),
                output_size=output_size,
                scales=scales,
                align_corners=align_corners,
            ),
        )
        backward = Op(
            f"Upsample{name}BackwardBackward0",
            lambda xp, grad_output, *, mode, input_size, output_size, scales, align_corners: _resample_backward(
                xp, grad_output, mode, input_size, output_size, scales, align_corners
            ),
            grad_output=lambda grad, mode, output_size, scales, align_corners: forward(
                grad, mode=mode, output_size=output_size, scales=scales, align_corners=align_corners
            ),
        )
        _RESAMPLE_OPS[name] = (forward, backward)
    return _RESAMPLE_OPS[name]


# unfold (im2col) lays every kernel window of a (N, C, H, W) input out as a column of
# (N, C*kh*kw, L); fold (col2im) adds columns back into an image. Each is the other's backward.
def _fold_geometry(xp, hw, kernel_size, dilation, padding, stride):
    padded = (hw[0] + 2 * padding[0], hw[1] + 2 * padding[1])
    return padded, _windows(xp, padded, kernel_size, stride, dilation)


def _im2col(xp, x, kernel_size, dilation, padding, stride):
    batched = x.ndim == 4
    x = x if batched else x[None]
    (ph, pw) = padding
    padded = xp.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x
    _, (rows, cols) = _fold_geometry(xp, x.shape[2:], kernel_size, dilation, padding, stride)
    windows = padded[:, :, rows, cols]  # (N, C, kh, kw, oh, ow)
    n, c, kh, kw, oh, ow = windows.shape
    out = xp.ascontiguousarray(windows).reshape(n, c * kh * kw, oh * ow)
    return out if batched else out[0]


def _col2im(xp, cols_in, output_size, kernel_size, dilation, padding, stride):
    batched = cols_in.ndim == 3
    cols_in = cols_in if batched else cols_in[None]
    (kh, kw), (ph, pw) = kernel_size, padding
    (hp, wp), (rows, cols) = _fold_geometry(xp, output_size, kernel_size, dilation, padding, stride)
    n, ckk = cols_in.shape[:2]
    values = cols_in.reshape(n, ckk // (kh * kw), kh, kw, rows.shape[2], cols.shape[3])
    out = xp.zeros((n, ckk // (kh * kw), hp, wp), dtype=cols_in.dtype)
    backend.scatter_add(out, (slice(None), slice(None), rows, cols), values)
    out = out[:, :, ph : ph + output_size[0], pw : pw + output_size[1]]
    out = xp.ascontiguousarray(out)
    return out if batched else out[0]


im2col_op = Op(
    "Im2ColBackward0",
    lambda xp, self, *, kernel_size, dilation, padding, stride: _im2col(
        xp, self, kernel_size, dilation, padding, stride
    ),
    self=lambda grad, self_shape, kernel_size, dilation, padding, stride: col2im_op(
        grad,
        output_size=tuple(self_shape[-2:]),
        kernel_size=kernel_size,
        dilation=dilation,
        padding=padding,
        stride=stride,
    ),
)
col2im_op = Op(
    "Col2ImBackward0",
    lambda xp, self, *, output_size, kernel_size, dilation, padding, stride: _col2im(
        xp, self, output_size, kernel_size, dilation, padding, stride
    ),
    self=lambda grad, kernel_size, dilation, padding, stride: im2col_op(
        grad, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride
    ),
)


# local_response_norm averages squares over a window of channels: PyTorch pools a 5-d view with
# avg_pool3d over (size, 1, 1), stride 1, which is this: the mean along dim 2 of (N, 1, C', H, W).
def _channel_mean(xp, x, size):
    n, _, c, h, w = x.shape
    flat = x.reshape(n, 1, c, h * w)
    geometry = _avg_geometry(xp, flat.shape, (size, 1), (1, 1), (0, 0), False, True, None)
    return _average(xp, flat, geometry).reshape(n, 1, -1, h, w)


def _channel_mean_backward(xp, grad_output, shape, size):
    n, _, c, h, w = shape
    geometry = _avg_geometry(xp, (n, 1, c, h * w), (size, 1), (1, 1), (0, 0), False, True, None)
    g = grad_output.reshape(n, 1, -1, h * w)
    return _spread(xp, g, (n, 1, c, h * w), geometry).reshape(shape)


avg_pool3d_channels_op = Op(
    "AvgPool3DBackward0",
    lambda xp, self, *, size: _channel_mean(xp, self, size),
    self=lambda grad, self_shape, size: avg_pool3d_channels_backward_op(grad, shape=tuple(self_shape), size=size),
)
avg_pool3d_channels_backward_op = Op(
    "AvgPool3DBackwardBackward0",
    lambda xp, grad_output, *, shape, size: _channel_mean_backward(xp, grad_output, shape, size),
    grad_output=lambda grad, size: avg_pool3d_channels_op(grad, size=size),
)


# --- weight norm ---
# _weight_norm's fused kernel (dim 0 or the last): w = v * g / ||v|| with the norm over every dim
# but ``dim``. Its rules are PyTorch's _weight_norm_differentiable_backward, in minigrad ops.
def _norms_except(v, dim):
    """||v|| over every dim but ``dim`` (kept as size 1), of a tensor; ``|v|`` when it has no
    other dim (a 1-d ``v``: an empty dim list would reduce over all of them)."""
    dims = [d for d in range(v.ndim) if d != dim]
    return v.norm(2, dims, keepdim=True) if dims else v.abs()


def _weight_norm_forward(xp, v, g, dim):
    axes = tuple(d for d in range(v.ndim) if d != dim)
    return v * (g / xp.sqrt((v * v).sum(axis=axes, keepdims=True)))


def _weight_norm_grad_g(grad, v, dim):
    """The gradient of ``g``: the projection of ``grad`` on ``v / ||v||``, per slice along ``dim``."""
    dims = [d for d in range(v.ndim) if d != dim]
    return ((grad * v).sum(dims, keepdim=True) if dims else grad * v) / _norms_except(v, dim)


def _weight_norm_grad_v(grad, v, g, dim):
    """The gradient of ``v``: ``g / ||v||`` times what of ``grad`` is not along ``v``."""
    norm = _norms_except(v, dim)
    return g / norm * (grad - v * _weight_norm_grad_g(grad, v, dim) / norm)


weight_norm_interface_op = Op(
    "WeightNormInterfaceBackward0",
    lambda xp, v, g, *, dim: _weight_norm_forward(xp, v, g, dim),
    v=lambda grad, v, g, dim: _weight_norm_grad_v(grad, v, g, dim),
    g=lambda grad, v, dim: _weight_norm_grad_g(grad, v, dim),
)


norm_all_op = Op("NormBackward0", norm_op.forward, **norm_op.rules)  # ATen's norm(p) of all elements


# --- 3-d and transposed convolutions ---
# 3-d pooling reuses the 2-d pooling's array helpers on a (..., D, H*W) view of the volume: a flat
# position in that "plane" is the flat position in the (D, H, W) volume, which is what PyTorch's
# 3-d indices are. Only the geometry (which positions each window reads) is 3-d.
def _volume(xp, axes, sizes):
    """Flat positions (o1, o2, o3, K) into a volume of ``sizes`` from each dim's (positions,
    inside), and which of them lie inside it; those outside point at 0, so they read safely."""
    n = len(axes)
    full = tuple(taps.shape[0] for taps, _ in axes) + tuple(taps.shape[1] for taps, _ in axes)
    positions, inside = xp.zeros(full, dtype=xp.int64), xp.ones(full, dtype=bool)
    for d, (taps, taps_in) in enumerate(axes):
        shape = [1] * (2 * n)
        shape[d], shape[n + d] = taps.shape
        positions = positions + taps.reshape(shape) * math.prod(sizes[d + 1 :])
        inside = inside & taps_in.reshape(shape)
    out = full[:n] + (math.prod(full[n:]),)
    return xp.where(inside, positions, 0).reshape(out), inside.reshape(out)


def _as_plane(x):
    """A (..., D, H, W) array as (..., D, H*W)."""
    return x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))


def _sliding_volume(xp, shape, kernel_size, stride, padding, dilation, ceil_mode):
    axes = [
        _sliding_axis(xp, shape[d], kernel_size[i], stride[i], padding[i], dilation[i], ceil_mode)
        for i, d in enumerate((-3, -2, -1))
    ]
    return axes, _volume(xp, axes, shape[-3:])


def sliding_max_indices3d(xp, x, *, kernel_size, stride, padding, dilation, ceil_mode):
    """max_pool3d's indices (flat positions in each (D, H, W) volume of ``x``)."""
    _, geometry = _sliding_volume(xp, x.shape, kernel_size, stride, padding, dilation, ceil_mode)
    params = dict(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil_mode)
    return _sliding_max_indices(xp, max_indices(xp, _as_plane(x), geometry), x.shape[-3:], params)


def adaptive_max_indices3d(xp, x, *, output_size):
    """adaptive_max_pool3d's indices (flat positions in each (D, H, W) volume of ``x``)."""
    axes = [_adaptive_axis(xp, x.shape[d], n) for d, n in zip((-3, -2, -1), output_size)]
    return max_indices(xp, _as_plane(x), _volume(xp, axes, x.shape[-3:]))


def _gather_volume(xp, x, indices):
    """``x`` (..., D, H, W) read at flat volume positions ``indices`` (..., o1, o2, o3)."""
    return _gather_flat(xp, _as_plane(x), _as_plane(indices)).reshape(indices.shape)


max_pool3d_op = Op(
    "MaxPool3DWithIndicesBackward0",
    _sliding_max,
    self=lambda grad, self, result1: max_pool3d_backward_op(grad, self, indices=result1),
)
max_pool3d_backward_op = _indices_backward_op("MaxPool3DWithIndicesBackwardBackward0", 3)
adaptive_max_pool3d_op = Op(
    "AdaptiveMaxPool3DBackward0",
    lambda xp, self, *, result1: _gather_volume(xp, self, result1),
    self=lambda grad, self, result1: adaptive_max_pool3d_backward_op(
        _nonempty(grad, "adaptive_max_pool3d_backward"), self, indices=result1
    ),
)
adaptive_max_pool3d_backward_op = _indices_backward_op("AdaptiveMaxPool3DBackwardBackward0", 3)


def _avg_geometry3d(xp, shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Positions, mask and the divisor of each window (o1, o2, o3) of avg_pool3d (as avg_pool2d's)."""
    axes, (positions, inside) = _sliding_volume(xp, shape, kernel_size, stride, padding, (1, 1, 1), ceil_mode)
    if divisor_override:
        return positions, inside, divisor_override
    if count_include_pad:
        counts = [
            xp.minimum(taps[:, 0] + k, n + p) - taps[:, 0]
            for (taps, _), k, n, p in zip(axes, kernel_size, shape[-3:], padding)
        ]
    else:
        counts = [taps_in.sum(-1) for _, taps_in in axes]
    return positions, inside, counts[0].reshape(-1, 1, 1) * counts[1].reshape(-1, 1) * counts[2]


def _adaptive_geometry3d(xp, shape, output_size):
    axes = [_adaptive_axis(xp, shape[d], n) for d, n in zip((-3, -2, -1), output_size)]
    counts = [taps_in.sum(-1) for _, taps_in in axes]
    return (*_volume(xp, axes, shape[-3:]), counts[0].reshape(-1, 1, 1) * counts[1].reshape(-1, 1) * counts[2])


def _avg_params(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) -> dict:
    """avg_pool3d's parameters as keywords."""
    return dict(
        kernel_size=kernel_size,
        stride=stride,
        padding=padding,
        ceil_mode=ceil_mode,
        count_include_pad=count_include_pad,
        divisor_override=divisor_override,
    )


def _avg3d(xp, self, params):
    return _average(xp, _as_plane(self), _avg_geometry3d(xp, self.shape, **params))


def _spread3d(xp, grad_output, self, geometry):
    return _spread(xp, grad_output, _as_plane(self).shape, geometry).reshape(self.shape)


avg_pool3d_op = Op(
    "AvgPool3DBackward0",
    lambda xp, self, *, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: _avg3d(
        xp, self, _avg_params(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    ),
    self=lambda grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        avg_pool3d_backward_op(
            grad, self, **_avg_params(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        )
    ),
)
# Linear in the incoming gradient: its rule for it is avg_pool3d itself, as in PyTorch.
avg_pool3d_backward_op = Op(
    "AvgPool3DBackwardBackward0",
    lambda xp, grad_output, self, *, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        _spread3d(
            xp,
            grad_output,
            self,
            _avg_geometry3d(
                xp, self.shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
            ),
        )
    ),
    grad_output=lambda grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override: (
        avg_pool3d_op(grad, **_avg_params(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override))
    ),
    self=lambda grad: zeros_like_tensor(grad),
)


adaptive_avg_pool3d_op = Op(
    "AdaptiveAvgPool3DBackward0",
    lambda xp, self, *, output_size: _average(xp, _as_plane(self), _adaptive_geometry3d(xp, self.shape, output_size)),
    self=lambda grad, self: adaptive_avg_pool3d_backward_op(_nonempty(grad, "adaptive_avg_pool3d_backward"), self),
)
adaptive_avg_pool3d_backward_op = Op(
    "AdaptiveAvgPool3DBackwardBackward0",
    lambda xp, grad_output, self: _spread3d(
        xp, grad_output, self, _adaptive_geometry3d(xp, self.shape, grad_output.shape[-3:])
    ),
    grad_output=lambda grad, grad_output_shape: adaptive_avg_pool3d_op(grad, output_size=tuple(grad_output_shape[-3:])),
    self=lambda grad: zeros_like_tensor(grad),
)


def _unpool(xp, x, indices, size):
    """Zeros of ``x``'s leading dims and the spatial ``size``, with ``x`` put at the flat
    positions ``indices`` of each plane (or volume), as max_unpool's forward."""
    k = len(size)
    lead = x.shape[: x.ndim - k]
    rows, per = math.prod(lead), math.prod(x.shape[x.ndim - k :])  # (spelled out: a dim may be 0)
    out = xp.zeros((rows, math.prod(size)), dtype=x.dtype)
    out[xp.arange(rows).reshape(-1, 1), indices.reshape(rows, per)] = x.reshape(rows, per)
    return out.reshape(lead + tuple(size))


def _unpool_grad(grad: Tensor, indices, k: int) -> Tensor:
    """max_unpool's input gradient: the gradient read at the indices (a gather), as PyTorch's
    max_pool_double_backward."""
    index = Tensor._make(indices)
    return grad.flatten(-k).gather(-1, index.flatten(-k)).view(index.shape)


# The indices are a parameter (PyTorch saves them; they get no gradient), as is the output size.
max_unpool2d_op = Op(
    "MaxUnpool2DBackward0",
    lambda xp, self, *, indices, output_size: _unpool(xp, self, indices, output_size),
    self=lambda grad, indices: _unpool_grad(grad, indices, 2),
)
max_unpool3d_op = Op(
    "MaxUnpool3DBackward0",
    lambda xp, self, *, indices, output_size, stride, padding: _unpool(xp, self, indices, output_size),
    self=lambda grad, indices: _unpool_grad(grad, indices, 3),
)


def _shuffle(xp, x, groups):
    n, c = x.shape[:2]
    return xp.swapaxes(x.reshape((n, groups, c // groups) + x.shape[2:]), 1, 2).reshape(x.shape)


# Its gradient shuffles back: a shuffle with the other factor of the channels.
channel_shuffle_op = Op(
    "ChannelShuffleBackward0",
    lambda xp, self, *, groups: _shuffle(xp, self, groups),
    self=lambda grad, groups: channel_shuffle_op(grad, groups=grad.shape[1] // groups),
)


def _pairs(xp, n: int):
    return xp.triu_indices(n, 1)  # (i, j), i < j, row by row: pdist's order


def _pdist(xp, x, p):
    i, j = _pairs(xp, x.shape[0])
    diff = xp.abs(x[i] - x[j])
    if p == 0:
        return (diff != 0).sum(-1).astype(x.dtype)
    if p == math.inf:
        return diff.max(-1) if diff.shape[-1] else xp.zeros(diff.shape[0], dtype=x.dtype)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return xp.sqrt((diff * diff).sum(-1))
    return ((diff**p).sum(-1) ** (1.0 / p)).astype(x.dtype, copy=False)


def _pdist_backward(xp, grad, x, pdist, p):
    """PyTorch's _pdist_backward: each pair's gradient times the norm's slope, added to the first
    row and taken from the second (0 where a distance is 0)."""
    i, j = _pairs(xp, x.shape[0])
    diff, dist = x[i] - x[j], pdist[:, None]
    size = xp.abs(diff)
    dist_or_1, size_or_1 = xp.where(dist == 0, 1, dist), xp.where(size == 0, 1, size)  # (no 0 ** -k)
    if p == 0:
        slope = xp.zeros_like(diff)
    elif p == 1:
        slope = xp.sign(diff)
    elif p == math.inf:
        slope = xp.sign(diff) * (size == dist)
    elif p < 2:
        slope = xp.where(diff == 0, 0, xp.sign(diff) * size_or_1 ** (p - 1) / dist_or_1 ** (p - 1))
    else:
        slope = diff * size ** (p - 2) / dist_or_1 ** (p - 1)
    part = xp.where(dist == 0, 0, grad[:, None] * slope).astype(x.dtype, copy=False)
    out = xp.zeros_like(x)
    backend.scatter_add(out, (i,), part)
    backend.scatter_add(out, (j,), -part)
    return out


pdist_op = Op(
    "PdistBackward0",
    lambda xp, self, *, p: _pdist(xp, self, p),
    self=lambda grad, self, result, p: pdist_backward_op(grad, self, result, p=p),
)
# As in PyTorch, the backward cannot be differentiated.
pdist_backward_op = Op(
    "PdistBackwardBackward0",
    lambda xp, grad, self, pdist, *, p: _pdist_backward(xp, grad, self, pdist, p),
    grad=lambda grad: _not_implemented("_pdist_backward"),
    self=lambda grad: _not_implemented("_pdist_backward"),
    pdist=lambda grad: _not_implemented("_pdist_backward"),
)
