"""``minigrad.nn.functional``: the stateless functions behind the layers, as ``torch.nn.functional``.

Each function records the same backward nodes PyTorch records where that is instructive:
``linear`` on a batch is one ``AddmmBackward0``, ``cross_entropy`` with class indices is
``NllLossBackward0`` after ``LogSoftmaxBackward0``, ``conv2d`` is ``ConvolutionBackward0``.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers

from .. import _warn, backend, dtypes
from .. import functions as _F
from ..autograd.grad_mode import is_grad_enabled, no_grad
from ..factories import arange, full_like, ones, ones_like, zeros, zeros_like
from ..tensor import Tensor
from . import _ops

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "alpha_dropout",
    "avg_pool1d",
    "avg_pool2d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "conv1d",
    "conv2d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "dropout",
    "dropout1d",
    "dropout2d",
    "elu",
    "elu_",
    "embedding",
    "feature_alpha_dropout",
    "fold",
    "gaussian_nll_loss",
    "gelu",
    "glu",
    "group_norm",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "linear",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "lp_pool1d",
    "lp_pool2d",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "selu",
    "selu_",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "unfold",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]


# ---------------------------------------------------------------------------------------------- argument checks
_ABSENT = object()


def _takes_tensors(*names: str, kernel: str | None = None, attribute: str | None = None):
    """Decorate a function so that each call first checks that its arguments ``names`` are tensors
    (or None, where the signature allows it), as PyTorch's argument parser does:

        linear(): argument 'input' (position 1) must be Tensor, not numpy.ndarray

    Without the check a NumPy array or a list would fail deep inside, with an AttributeError on
    minigrad's internals. ``kernel`` is the name PyTorch's message gives, where it is not the
    function's (``cross_entropy_loss``). Where PyTorch's own Python code first calls a tensor
    method (``softmax`` calls ``input.dim()``), a non-tensor fails there instead, with an
    AttributeError naming that method: ``attribute`` gives it, and the error is PyTorch's.
    """

    def decorate(function):
        parameters = list(inspect.signature(function).parameters.values())
        # None is accepted where the signature says so: a default of None, or ``Tensor | None``
        checks = [
            (i, p.name, p.default is None or "None" in str(p.annotation))
            for i, p in enumerate(parameters)
            if p.name in names
        ]
        label = kernel or function.__name__

        @functools.wraps(function)
        def checked(*args, **kwargs):
            for index, name, optional in checks:
                value = args[index] if index < len(args) else kwargs.get(name, _ABSENT)
                if isinstance(value, Tensor) or value is _ABSENT or (optional and value is None):
                    continue  # (a missing argument is Python's TypeError, raised by the call)
                if attribute is not None:
                    raise AttributeError(f"'{backend.type_name(value)}' object has no attribute '{attribute}'")
                raise TypeError(
                    f"{label}(): argument '{name}' (position {index + 1}) must be Tensor, not {backend.type_name(value)}"
                )
            return function(*args, **kwargs)

        return checked

    return decorate


# ---------------------------------------------------------------------------------------------- layers
@_takes_tensors("input", "weight", "bias")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: the affine map of ``nn.Linear``.

    A 2-D input with a bias is one ``addmm`` (``AddmmBackward0``, whose inputs are the bias, the
    input and ``weight.t()``), as in PyTorch; other contiguous shapes are flattened to 2-D and
    viewed back. A non-contiguous input of more than 2 dims (a transposed batch) is, as in
    PyTorch's ``at::linear``, a ``matmul`` and an in-place add of the bias.
    """
    if bias is None:
        return input.matmul(weight.t())
    if input.ndim == 2:
        return _F.addmm(bias, input, weight.t())
    if input.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D and 2D")
    if input.ndim > 2 and not input.is_contiguous():
        return input.matmul(weight.t()).add_(bias)
    flat = input.reshape(-1, input.shape[-1])
    return _F.addmm(bias, flat, weight.t()).view(*input.shape[:-1], weight.shape[0])


def _ntuple(value, name: str, n: int) -> tuple[int, ...]:
    """An int, or a sequence of one or ``n`` ints, as ``n`` ints (one per spatial dim)."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return (int(value[0]),) * n
    if len(value) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the convolution "
            f"dimensions, but got {name}={list(value)}"
        )
    return tuple(int(v) for v in value)


def _pair(value, name: str) -> tuple[int, int]:
    return _ntuple(value, name, 2)


def _conv_padding(padding, kernel: tuple, stride: tuple, dilation: tuple) -> tuple[tuple, tuple]:
    """Per spatial dim, the zero padding on both sides, and the extra one at the end that
    ``'same'`` needs where the kernel's reach is even (PyTorch pads the input for that first)."""
    n = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return (0,) * n, (0,) * n
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for d, k in zip(dilation, kernel)]
        pads, extra = tuple(t // 2 for t in total), tuple(t % 2 for t in total)
    else:
        pads, extra = _ntuple(padding, "padding", n), (0,) * n
    if min(pads) < 0:  # (also 'same' with a negative dilation)
        raise RuntimeError("negative padding is not supported")
    return pads, extra


def _as_given(value, dims: int):
    """An int as PyTorch's argument parser passes it on to a ``dims``-d convolution: ``dims`` copies
    (so a weight with another number of dims is refused by the length check of :func:`_ntuple`)."""
    return (value,) * dims if isinstance(value, int) else value


def _conv_dtype_error(input: Tensor, other: Tensor, what: str) -> RuntimeError:
    """A weight or bias of another dtype than the input: PyTorch's oneDNN path (float32 and float16
    inputs) says it one way, its other kernels another."""
    if input.dtype in (dtypes.float32, dtypes.float16):
        return RuntimeError(
            f"Input type ({_tensor_type(input)}) and {what} type ({_tensor_type(other)}) should be the same or "
            f"input should be a MKLDNN tensor and {what} is a dense tensor"
        )
    return RuntimeError(f"expected scalar type {input.dtype._legacy_name} but found {other.dtype._legacy_name}")


def _convolution(input: Tensor, weight: Tensor, bias, stride, padding, dilation, groups: int, dims: int) -> Tensor:
    """conv1d (``dims`` 1) or conv2d (2): PyTorch's checks, in its order, then one
    ``ConvolutionBackward0`` (after ``ConstantPadNdBackward0`` where ``'same'`` pads one more at the
    end, and between an unsqueeze and a squeeze for an unbatched input, as PyTorch records them)."""
    name = f"conv{dims}d"
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(
            f"Input type ({input.dtype._legacy_name.lower()}) and bias type ({bias.dtype._legacy_name.lower()}) "
            "should be the same"
        )
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got input of size: "
            f"{list(input.shape)}"
        )
    if input.ndim == dims + 1:
        return _convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, dims).squeeze(0)
    if isinstance(padding, str) and padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    n = weight.ndim - 2  # PyTorch reads the number of spatial dims off the weight
    if padding == "same":  # (PyTorch's own path for 'same', with its own checks)
        if weight.ndim != input.ndim:
            raise RuntimeError(
                f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight{list(weight.shape)}, "
                f"but got {input.ndim}-dimensional input of size {list(input.shape)} instead"
            )
        for name, value in (("stride", stride), ("dilation", dilation)):
            if not isinstance(value, int) and len(value) not in (1, n):
                raise RuntimeError(f"{name} cannot broadcast to {n} dimensions")
    stride, dilation = _ntuple(_as_given(stride, dims), "stride", n), _ntuple(_as_given(dilation, dims), "dilation", n)
    kernel = tuple(weight.shape[2:])
    pads, extra = _conv_padding(_as_given(padding, dims), kernel, stride, dilation)
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) < 0:
        raise RuntimeError("dilation should be greater than zero")
    if weight.ndim != input.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight {list(weight.shape)}, "
            f"but got {input.ndim}-dimensional input of size {list(input.shape)} instead"
        )
    out_channels, channels = weight.shape[0], input.shape[1]
    if out_channels < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size "
            f"{list(weight.shape)} instead"
        )
    if out_channels % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size [{list(weight.shape)}] instead"
        )
    if channels != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(input.shape)} to have "
            f"{weight.shape[1] * groups} channels, but got {channels} channels instead"
        )
    padded = [size + 2 * p + e for size, p, e in zip(input.shape[2:], pads, extra)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
    if any(r > s for r, s in zip(reach, padded)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, reach))}). Kernel size can't be greater than actual input size"
        )
    if bias is not None and bias.shape != (out_channels,):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with {out_channels} "
            f"elements, but got bias of size {list(bias.shape)} instead"
        )
    if min(dilation) == 0:  # refused by the kernel: oneDNN's (float32) or the others' words
        if input.dtype is not dtypes.float64:
            raise RuntimeError("non-positive dilation is not supported")
        raise RuntimeError(f"dilation should be greater than zero, but got {[1] * (n == 1) + list(dilation)}")
    if input.dtype is not weight.dtype:
        raise _conv_dtype_error(input, weight, "weight")
    if bias is None:
        bias = zeros(out_channels, dtype=weight.dtype, device=weight.device)  # needs no grad: no edge
    if any(extra):
        _warn.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the "
            "input be created",
            UserWarning,
        )
        input = pad(input, tuple(v for e in reversed(extra) for v in (0, e)))  # F.pad lists the last dim first
    return _ops.convolution_op(
        input,
        weight,
        bias,
        stride=stride,
        padding=pads,
        dilation=dilation,
        transposed=False,
        output_padding=(0,) * n,
        groups=groups,
    )


@_takes_tensors("input", "weight", "bias")
def conv1d(
    input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1, groups: int = 1
) -> Tensor:
    """1-D cross-correlation of a (N, C, L) or (C, L) input with (O, C/groups, k) weights.

    ``padding`` is an int, ``'valid'`` or ``'same'``. As in PyTorch the result is one
    ``ConvolutionBackward0`` node whose inputs are (input, weight, bias); minigrad computes it as a
    conv2d of rows one high.

    >>> import minigrad as torch
    >>> x = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]])
    >>> torch.nn.functional.conv1d(x, torch.tensor([[[1.0, -1.0]]]))
    tensor([[[-1., -1., -1.]]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


@_takes_tensors("input", "weight", "bias")
def conv2d(
    input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1, groups: int = 1
) -> Tensor:
    """2-D cross-correlation of a (N, C, H, W) or (C, H, W) input with (O, C/groups, kh, kw) weights.

    ``padding`` is an int, a pair, ``'valid'`` or ``'same'``. The result is one
    ``ConvolutionBackward0`` node whose inputs are (input, weight, bias).
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


# ---------------------------------------------------------------------------------------------- pooling
_POOL_ARGUMENT = {
    "kernel_size": "must either be a single int",
    "stride": "must either be omitted, a single int",
    "padding": "must either be a single int",
    "dilation": "must be either a single int",
}


def _pool_pair(value, function: str, name: str) -> tuple[int, int]:
    """An int or a sequence of one or two ints as (h, w), with PyTorch's error for anything else."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) not in (1, 2):
        raise RuntimeError(f"{function}: {name} {_POOL_ARGUMENT[name]}, or a tuple of two ints")
    return (int(value[0]), int(value[-1]))


def _check_pool_input(input: Tensor, function: str) -> None:
    """The checks of a 2-d pool's input that PyTorch makes before those of the parameters."""
    if input.ndim not in (3, 4) and function == "max_pool2d":
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input.ndim < 3:  # avg_pool2d reads dim -3 first
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-input.ndim}, {input.ndim - 1}], but got -3)"
        )


def _pool_output(input: Tensor, function: str, kernel, stride, padding, dilation, ceil_mode: bool) -> tuple:
    """The output sizes of a 2-d or 3-d sliding-window pool, after PyTorch's checks of its
    parameters and of the input's shape and dtype, in PyTorch's order."""
    n = len(kernel)
    for k, s, p, d in zip(kernel, stride, padding, dilation):  # pooling_output_shape's, dim by dim
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int((d * (k - 1) + 1) / 2):  # (int(): C++'s division, which rounds towards zero)
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={d}"
            )
    axes = "THW"[-n:]
    positive = (("kernel size", kernel, "k"), ("stride", stride, "d"), ("dilation", dilation, "dilation"))
    for what, values, letter in positive:
        if min(values) <= 0:
            got = " ".join(f"{letter}{axis}: {v}" for axis, v in zip(axes, values))
            raise RuntimeError(f"{what} should be greater than zero, but got {got}")
    sizes = input.shape[-n:]
    if n == 2:
        if input.ndim > 4 or 0 in input.shape[-3:]:
            raise RuntimeError(
                "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                f"{list(input.shape)}"
            )
        if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
            raise RuntimeError(
                "pad should be smaller than or equal to half of kernel size, but got "
                f"padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}"
            )
    else:
        if 0 in input.shape[-4:]:
            name = "avg_pool3d" if function == "avg_pool3d" else "max_pool3d_with_indices_out_cpu_template"
            raise RuntimeError(
                f"{name}(): Expected input's non-batch dimensions to have positive length, but input has a shape of "
                f"{list(input.shape)} and non-batch dimension 0 has length zero!"
            )
        if function == "avg_pool3d" and any(s < k for s, k in zip(sizes, kernel)):  # (padding not counted)
            raise RuntimeError(
                f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller than kernel size "
                f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})"
            )
        if any(p > k // 2 for p, k in zip(padding, kernel)):
            (kt, kh, kw), (pt, ph, pw) = kernel, padding
            raise RuntimeError(
                "pad should be smaller than or equal to half of kernel size, but got "
                f"kT: {kt} kW: {kw} kH: {kh} padT: {pt} padW: {pw} padH: {ph}"
            )
    out = tuple(_ops.pooled_size(*args, ceil_mode) for args in zip(sizes, kernel, stride, padding, dilation))
    if min(out) < 1:
        channels = input.shape[-n - 1]
        raise RuntimeError(
            f"Given input size: ({'x'.join(map(str, (channels, *sizes)))}). Calculated output size: "
            f"({'x'.join(map(str, (channels, *out)))}). Output size is too small"
        )
    if input.dtype is dtypes.bool:
        kernel_name = "avg_pool3d_out_frame" if function == "avg_pool3d" else function
        raise _F._no_kernel(kernel_name)
    return out


def _with_indices(op, input: Tensor, indices, return_indices: bool, **params):
    """The max pool ``op`` at ``indices`` (an array), and the indices as an int64 tensor if asked."""
    if not return_indices:
        return op(input, result1=indices, **params)
    index = Tensor._make(indices)
    return op(input, result1=_F._kept(index, input), **params), index  # (a copy for the node)


@_takes_tensors("input")
def max_pool2d(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """The largest value of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input, the
    windows ``stride`` apart (by default ``kernel_size``), ``dilation`` apart inside, over an input
    padded with ``padding`` -inf on each side; ``ceil_mode`` keeps a last partial window.

    One ``MaxPool2DWithIndicesBackward0`` node: the gradient goes to each window's maximum (the
    first one, or the last NaN). With ``return_indices`` also each maximum's flat position in its
    (H, W) plane, as int64 (what ``nn.MaxUnpool2d`` takes in PyTorch).

    >>> import minigrad as torch
    >>> x = torch.tensor([[[1.0, 2.0, 0.0], [4.0, 3.0, 8.0], [5.0, 7.0, 6.0]]])
    >>> torch.nn.functional.max_pool2d(x, 2, stride=1, return_indices=True)
    (tensor([[[4., 8.],
             [7., 8.]]]), tensor([[[3, 5],
             [7, 5]]]))
    """
    kernel = _pool_pair(kernel_size, "max_pool2d", "kernel_size")
    stride = kernel if stride is None or stride == [] else _pool_pair(stride, "max_pool2d", "stride")
    padding = _pool_pair(padding, "max_pool2d", "padding")
    dilation = _pool_pair(dilation, "max_pool2d", "dilation")
    _check_pool_input(input, "max_pool2d")
    _pool_output(input, "max_pool2d", kernel, stride, padding, dilation, ceil_mode)
    params = {"kernel_size": kernel, "stride": stride, "padding": padding, "dilation": dilation, "ceil_mode": ceil_mode}
    indices = backend.compute(input.device, _ops.sliding_max_indices, [input._data], params)
    return _with_indices(_ops.max_pool2d_op, input, indices, return_indices, **params)


@_takes_tensors("input")
def avg_pool2d(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each ``kernel_size`` window of a (N, C, H, W) or (C, H, W) input, the windows
    ``stride`` apart (by default ``kernel_size``), over an input padded with ``padding`` zeros;
    ``ceil_mode`` keeps a last partial window. A window's sum is divided by ``divisor_override``
    if given, else by its size: counting the padding it covers (``count_include_pad``) or not.

    One ``AvgPool2DBackward0`` node.

    >>> import minigrad as torch
    >>> x = torch.tensor([[[1.0, 2.0], [3.0, 6.0]]])
    >>> torch.nn.functional.avg_pool2d(x, 2)
    tensor([[[3.]]])
    >>> torch.nn.functional.avg_pool2d(x, 2, padding=1, count_include_pad=False)
    tensor([[[1., 2.],
             [3., 6.]]])
    """
    kernel = _pool_pair(kernel_size, "avg_pool2d", "kernel_size")
    stride = kernel if stride is None or stride == [] else _pool_pair(stride, "avg_pool2d", "stride")
    padding = _pool_pair(padding, "avg_pool2d", "padding")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _check_pool_input(input, "avg_pool2d")
    _pool_output(input, "avg_pool2d", kernel, stride, padding, (1, 1), ceil_mode)
    return _ops.avg_pool2d_op(
        input,
        kernel_size=kernel,
        stride=stride,
        padding=padding,
        ceil_mode=ceil_mode,
        count_include_pad=count_include_pad,
        divisor_override=divisor_override,
    )


def _adaptive_size(input: Tensor, output_size, function: str) -> tuple[int, int]:
    """``output_size`` (an int, or a pair whose None entries keep the input's size) as (h, w)."""
    if input.ndim not in (3, 4):
        got = list(input.shape) if function == "adaptive_avg_pool2d" else f": {list(input.shape)}"
        raise RuntimeError(
            f"{function}(): Expected 3D or 4D tensor, but got{' ' if function == 'adaptive_avg_pool2d' else ''}{got}"
        )
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2:
        if function == "adaptive_avg_pool2d":
            raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    size = tuple(input.shape[d] if n is None else int(n) for d, n in zip((-2, -1), size))
    if min(size) < 0:
        if function == "adaptive_avg_pool2d":
            raise RuntimeError(
                "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received "
                f"{{{size[0]}, {size[1]}}}"
            )
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {[*input.shape[:-2], *size]}")
    first = input.ndim - (3 if function == "adaptive_max_pool2d" else 2)  # max pooling: the channels too
    for d in range(first, input.ndim):
        if input.shape[d] == 0:
            raise RuntimeError(
                f"{function}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
                f"{list(input.shape)} with dimension {d} being empty"
            )
    return size


@_takes_tensors("input")
def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average a (N, C, H, W) or (C, H, W) input down to ``output_size`` (an int, or a pair whose
    None entries keep the input's size): output row i averages input rows
    ``floor(i H / h)`` to ``ceil((i + 1) H / h)`` (excluded), and likewise for the columns.

    One ``AdaptiveAvgPool2DBackward0`` node; to a size of 1 it is a ``mean`` over (H, W), as in PyTorch.

    >>> import minigrad as torch
    >>> x = torch.arange(6.0).reshape(1, 2, 3)
    >>> torch.nn.functional.adaptive_avg_pool2d(x, (1, 2))
    tensor([[[2., 3.]]])
    """
    size = _adaptive_size(input, output_size, "adaptive_avg_pool2d")
    _check_floating(input, "adaptive_avg_pool2d")
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return _ops.adaptive_avg_pool2d_op(input, output_size=size)


@_takes_tensors("input")
def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The largest value of each window of :func:`adaptive_avg_pool2d` (``AdaptiveMaxPool2DBackward0``);
    with ``return_indices`` also each maximum's flat position in its (H, W) plane.

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_max_pool2d(torch.tensor([[[1.0, 5.0, 2.0]]]), (1, 2))
    tensor([[[5., 5.]]])
    """
    size = _adaptive_size(input, output_size, "adaptive_max_pool2d")
    _check_floating(input, "adaptive_max_pool2d")
    indices = backend.compute(input.device, _ops.adaptive_max_indices, [input._data], {"output_size": size})
    return _with_indices(_ops.adaptive_max_pool2d_op, input, indices, return_indices)


def _one(value, function: str, name: str, own_message: bool = False) -> int:
    """An int or a sequence of one int, for the 1-d pools (``own_message``: with ATen max_pool1d's
    words, else with those of its check1d)."""
    if isinstance(value, int):
        return value
    value = tuple(value)
    if len(value) != 1:
        if own_message:
            raise RuntimeError(
                f"max_pool1d() {name} must be an int, list of ints or tuple of ints of size 1 but got size {len(value)}"
            )
        raise RuntimeError(f"{function}() argument '{name}' should contain one int (got {len(value)})")
    return int(value[0])


def _check_1d_input(input: Tensor, function: str) -> None:
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 'self' "
            f"(while checking arguments for {function})"
        )


@_takes_tensors("input")
def max_pool1d(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """:func:`max_pool2d` along the last dim of a (N, C, L) or (C, L) input. As in PyTorch it is
    the 2-d pool of ``input.unsqueeze(-2)``, squeezed back (``SqueezeBackward1`` after
    ``MaxPool2DWithIndicesBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.max_pool1d(torch.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
    tensor([[3., 2.]])
    """
    if return_indices:  # PyTorch's max_pool1d_with_indices: max_pool2d checks the values
        _check_1d_input(input, "max_pool1d")
        kernel = _one(kernel_size, "max_pool1d", "kernel_size")
        stride = kernel if stride is None or stride == [] else _one(stride, "max_pool1d", "stride")
        padding, dilation = _one(padding, "max_pool1d", "padding"), _one(dilation, "max_pool1d", "dilation")
        pooled = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding), (1, dilation), ceil_mode, True)
        return pooled[0].squeeze(-2), pooled[1].squeeze(-2)
    if input.ndim not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:"
            f"{list(input.shape)}"
        )
    kernel = _one(kernel_size, "max_pool1d", "kernel_size", True)
    stride = kernel if stride is None or stride == [] else _one(stride, "max_pool1d", "stride", True)
    padding, dilation = _one(padding, "max_pool1d", "padding", True), _one(dilation, "max_pool1d", "dilation", True)
    for name, value in (("kernel_size", kernel), ("stride", stride), ("dilation", dilation)):
        if value <= 0:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {value}")
    if padding < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {padding}")
    if padding > kernel // 2:
        raise RuntimeError(
            f"max_pool1d() padding should be at most half of kernel size, but got padding={padding} and kernel_size={kernel}"
        )
    out = _ops.pooled_size(input.shape[-1], kernel, stride, padding, dilation, ceil_mode)
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    _check_floating(input, "max_pool1d_impl")
    return max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding), (1, dilation), ceil_mode).squeeze(-2)


@_takes_tensors("input")
def avg_pool1d(
    input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True
) -> Tensor:
    """:func:`avg_pool2d` along the last dim of a (N, C, L) or (C, L) input (through the 2-d pool
    of ``input.unsqueeze(-2)``, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.nn.functional.avg_pool1d(torch.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
    tensor([[2., 1.]])
    """
    _check_1d_input(input, "avg_pool1d")
    kernel = _one(kernel_size, "avg_pool1d", "kernel_size")
    stride = kernel if stride is None or stride == [] else _one(stride, "avg_pool1d", "stride")
    padding = _one(padding, "avg_pool1d", "padding")
    return avg_pool2d(
        input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding), ceil_mode, count_include_pad
    ).squeeze(-2)


@_takes_tensors("input")
def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """:func:`adaptive_avg_pool2d` along the last dim of a (N, C, L) or (C, L) input.

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_avg_pool1d(torch.tensor([[1.0, 3.0, 2.0]]), 2)
    tensor([[2.0000, 2.5000]])
    """
    _check_1d_input(input, "adaptive_avg_pool1d")
    size = _one(output_size, "adaptive_avg_pool1d", "output_size")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


@_takes_tensors("input")
def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """:func:`adaptive_max_pool2d` along the last dim of a (N, C, L) or (C, L) input.

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_max_pool1d(torch.tensor([[1.0, 3.0, 2.0]]), 2)
    tensor([[3., 3.]])
    """
    _check_1d_input(input, "adaptive_max_pool1d")
    size = _one(output_size, "adaptive_max_pool1d", "output_size")
    pooled = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), return_indices)
    if return_indices:
        return pooled[0].squeeze(-2), pooled[1].squeeze(-2)
    return pooled.squeeze(-2)


# ---------------------------------------------------------------------------------------------- padding
_PAD_MODES = ("constant", "reflect", "replicate", "circular")


@_takes_tensors("input")
def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """``input`` padded: ``pad`` gives (before, after) widths for the last dims, last dim first
    (``(left, right, top, bottom)`` for an image). ``mode`` ``'constant'`` fills with ``value``
    (0 by default; a negative width cuts instead, ``ConstantPadNdBackward0``); ``'reflect'``
    mirrors the input at its edges (without repeating the edge), ``'replicate'`` repeats the edge,
    ``'circular'`` wraps around. Those pad the last 1, 2 or 3 dims of a batched or unbatched
    input (``ReflectionPad2DBackward0``, ``ReplicationPad1DBackward0``, ...).

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, 2.0, 3.0]])
    >>> torch.nn.functional.pad(x, (2, 1), mode="reflect")
    tensor([[3., 2., 1., 2., 3., 2.]])
    >>> torch.nn.functional.pad(x, (1, -1), value=9.0)
    tensor([[9., 1., 2.]])
    """
    pad = _int_tuple(pad, "pad", "pad", 2)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but got padding length "
            f"{len(pad)} and input of dimension {input.ndim}"
        )
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    dims = len(pad) // 2
    sizes = input.shape[input.ndim - dims :][::-1]  # last dim first, as pad
    if mode == "constant":
        for k, size in enumerate(sizes):  # PyTorch cuts (narrows) first, then pads
            if size + min(pad[2 * k], 0) + min(pad[2 * k + 1], 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
        return _ops.constant_pad_nd_op(input, pad=pad, value=0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if dims not in (1, 2, 3) or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    if mode == "circular":
        return _circular_pad(input, pad, sizes)
    if input.dtype is dtypes.bool:
        kind = "reflection" if mode == "reflect" else "replication"
        raise _F._no_kernel(f"{kind}_pad{dims}d")
    if 0 in input.shape[input.ndim - dims - 1 :] or (input.ndim == dims + 1 and 0 in input.shape):
        raise RuntimeError(
            f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(input.shape)}"
        )
    shape = list(input.shape)
    for k, size in enumerate(sizes):
        before, after = pad[2 * k], pad[2 * k + 1]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(
                f"Argument #{4 + 2 * k}: Padding size should be less than the corresponding input dimension, but got: "
                f"padding ({before}, {after}) at dimension {input.ndim - 1 - k} of input {list(input.shape)}"
            )
        shape[input.ndim - 1 - k] = size + before + after
    outs = shape[input.ndim - dims :]
    if max(outs) < 1:  # (PyTorch's kernels refuse only an output empty in every padded dim)
        sizes = input.shape[input.ndim - dims :]
        given = {1: "W: {}", 2: "H: {}, W: {}" + (" " if mode == "replicate" else ""), 3: "D: {} H: {}, W: {}"}[dims]
        got = " ".join(f"{axis}: {n}" for axis, n in zip("DHW"[-dims:], outs))
        raise RuntimeError(f"input ({given.format(*sizes)}) is too small. Calculated output {got}")
    if min(outs) < 0:
        negative = next(n for n in outs if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative}: {shape}")
    return _ops.pad_ops[mode, dims](input, padding=pad)


def _circular_pad(input: Tensor, pad: tuple, sizes) -> Tensor:
    """Circular padding as one read at wrapped positions (``IndexBackward0``; PyTorch copies slices)."""
    for k in reversed(range(len(sizes))):  # PyTorch checks the first padded dim first
        size, before, after = sizes[k], pad[2 * k], pad[2 * k + 1]
        if before > size or after > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + before + after < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    for k, size in enumerate(sizes):
        # (where nothing is left after cutting, PyTorch would wrap around uninitialised memory)
        if size + min(pad[2 * k], 0) + min(pad[2 * k + 1], 0) <= 0 < size + pad[2 * k] + pad[2 * k + 1]:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    key = backend.compute(input.device, _ops.pad_key, [input.shape, pad, "circular"], {})
    return _F.index_op(input, key=key)


# ---------------------------------------------------------------------------------------------- normalization
def _check_normalized_shape(input: Tensor, shape: tuple, tensors: dict, star: str) -> None:
    """PyTorch's checks that ``input`` ends in ``normalized_shape`` and that the given weight (and
    bias) have that shape; ``star`` begins the expected shape in the message (layer_norm's has
    ``[*, 3]``, rms_norm's ``[*3]``)."""
    if not shape:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
            "normalized_shape = []"
        )
    for name, t in tensors.items():
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"{list(t.shape)} and normalized_shape = {list(shape)}"
            )
    if star == "*" and input.ndim < len(shape):  # rms_norm counts the dims first
        raise ValueError(f"Input tensor must have at least {len(shape)} dimensions, but got {input.ndim}")
    if input.ndim < len(shape) or tuple(input.shape[input.ndim - len(shape) :]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [{star}{str(list(shape))[1:-1]}], "
            f"but got input of size{list(input.shape)}"
        )


@_takes_tensors("input", "weight", "bias")
def layer_norm(
    input: Tensor,
    normalized_shape: list[int] | tuple[int, ...],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
) -> Tensor:
    """Standardise ``input`` over its last dims (those of ``normalized_shape``) to mean 0 and
    variance 1 (the biased variance, plus ``eps``), then ``* weight + bias`` elementwise.

    One ``NativeLayerNormBackward0`` node with inputs (input, weight, bias), as in PyTorch.

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])
    >>> torch.nn.functional.layer_norm(x, (3,))
    tensor([[-1.2247,  0.0000,  1.2247],
            [-1.2247,  0.0000,  1.2247]])
    """
    shape = _int_tuple(normalized_shape, "layer_norm", "normalized_shape", 2)
    if not shape:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
            "but got normalized_shape = []"
        )
    _check_normalized_shape(input, shape, {"weight": weight, "bias": bias}, "*, ")
    _check_floating(input, "LayerNormKernelImpl")
    _check_same_dtype(input, weight, bias)
    weight, bias = _constants_if_absent(weight, bias, shape, input)
    return _ops.layer_norm_op(input, weight, bias, normalized_shape=shape, eps=eps)


def _constants_if_absent(weight: Tensor | None, bias: Tensor | None, shape, input: Tensor) -> tuple[Tensor, Tensor]:
    """A normalisation's weight and bias, an absent one as a constant (ones, zeros) that needs no
    gradient: the node's edge for it is then (None, 0)."""
    if weight is None:
        weight = ones(shape, dtype=input.dtype, device=input.device)
    if bias is None:
        bias = zeros(shape, dtype=input.dtype, device=input.device)
    return weight, bias


@_takes_tensors("input", "running_mean", "running_var", "weight", "bias")
def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-05,
) -> Tensor:
    """Standardise each channel (dim 1) of ``input`` over every other dim, then ``* weight + bias``
    per channel.

    With ``training=True`` the batch's mean and biased variance are used, and the running
    statistics (when given) move ``momentum`` of the way to the batch's mean and *unbiased*
    variance, in place and outside autograd. Otherwise ``running_mean`` and ``running_var`` are
    used. Either way one ``NativeBatchNormBackward0`` node with inputs (input, weight, bias).

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, 10.0], [3.0, 30.0]])
    >>> mean, var = torch.zeros(2), torch.ones(2)
    >>> torch.nn.functional.batch_norm(x, mean, var, training=True)
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    >>> mean, var
    (tensor([0.2000, 2.0000]), tensor([ 1.1000, 20.9000]))
    """
    if training:
        if input.ndim == 0:  # (PyTorch's Python code reads size[0] first)
            raise IndexError("tuple index out of range")
        count = input.shape[0] * math.prod(input.shape[2:])
        if count == 1:  # the variance of one value is 0: nothing would be left of it
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
        if eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if momentum is None:  # nn.BatchNorm's momentum=None becomes 1/num_batches_tracked before this
        raise TypeError("batch_norm(): argument 'momentum' (position 7) must be float, not NoneType")
    if input.numel() == 0:  # PyTorch's shortcut, before its other checks: no statistics to take or update
        out = input.clone()  # (a new tensor, not a view, so that the graph goes on)
        out = out if weight is None else out * weight.select(0, 0)
        return out if bias is None else out + bias.select(0, 0)
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if running_mean is None and not training:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    _check_floating(input, "batch_norm")
    channels = input.shape[1] if input.ndim > 1 else 0
    stats = {"running_mean": running_mean, "running_var": running_var, "weight": weight, "bias": bias}
    for name, t in stats.items():
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if input.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    _check_same_dtype(input, weight, bias, running_mean, running_var)  # (in the order PyTorch reads them)
    if running_mean is not None:
        _F._one_device("batch_norm", input, running_mean, running_var)
        if training:
            running = [input._data, running_mean._data, running_var._data]
            backend.compute(input.device, _ops.update_running_stats, running, {"momentum": momentum})
        running_mean, running_var = (_F._kept(t, input, weight, bias) for t in (running_mean, running_var))
    weight, bias = _constants_if_absent(weight, bias, channels, input)
    return _ops.batch_norm_op(
        input, weight, bias, running_mean=running_mean, running_var=running_var, training=training, eps=eps
    )


@_takes_tensors("input", attribute="dim")
def group_norm(
    input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-05
) -> Tensor:
    """Standardise each sample's channels (dim 1) in ``num_groups`` groups, each over its channels
    and every position (mean 0, biased variance 1, plus ``eps``), then ``* weight + bias`` per
    channel.

    One ``NativeGroupNormBackward0`` node with inputs (input, weight, bias), as in PyTorch.

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, 3.0, 10.0, 30.0]])
    >>> torch.nn.functional.group_norm(x, 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    sizes = [input.shape[0] * input.shape[1] // num_groups, num_groups, *input.shape[2:]]
    if sizes[0] * math.prod(sizes[2:]) == 1:  # as PyTorch's _verify_batch_size (it shows this list)
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {sizes}")
    n, c = input.shape[:2]
    if c % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.shape[0] != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but got {name} "
                f"of shape {list(t.shape)} and input of shape {list(input.shape)}"
            )
    _check_floating(input, "GroupNormKernelImpl")
    _check_same_dtype(input, weight, bias)
    weight, bias = _constants_if_absent(weight, bias, c, input)
    sizes = {"N": n, "C": c, "HxW": math.prod(input.shape[2:]), "group": num_groups}  # as PyTorch's node keeps them
    # PyTorch's kernel reads a contiguous input: a strided one is copied first (CloneBackward0)
    return _ops.group_norm_op(input.contiguous(), weight, bias, **sizes, eps=eps)


@_takes_tensors("input", "running_mean", "running_var", "weight", "bias")
def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-05,
) -> Tensor:
    """Standardise each channel of each sample over its positions, then ``* weight + bias`` per
    channel. With ``use_input_stats=False`` the running statistics are used instead; given, they
    move ``momentum`` of the way to the mean over the batch of each sample's statistics.

    As in PyTorch it is :func:`batch_norm` of the input viewed as one sample of N*C channels, with
    the weight, bias and statistics repeated N times (``ViewBackward0``, ``NativeBatchNormBackward0``,
    ``ViewBackward0``; ``RepeatBackward0`` for a weight and a bias).

    >>> import minigrad as torch
    >>> torch.nn.functional.instance_norm(torch.tensor([[[1.0, 3.0], [10.0, 30.0]]]))
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    """
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[:2]
    weight, bias = (None if t is None else t.repeat(b) for t in (weight, bias))
    # the statistics in the input's dtype, which PyTorch allows them to differ from
    mean, var = (None if t is None else t.repeat(b).to(input.dtype) for t in (running_mean, running_var))
    flat = input.contiguous().view(1, b * c, *input.shape[2:])
    out = batch_norm(flat, mean, var, weight, bias, use_input_stats, momentum, eps)
    with no_grad():  # each channel's statistics: the mean over the batch of the repeated ones
        for running, repeated in ((running_mean, mean), (running_var, var)):
            if running is not None:
                running.copy_(repeated.view(b, c).mean(0))
    return out.view(input.shape)


def _int_tuple(value, function: str, name: str, position: int) -> tuple[int, ...]:
    """A list, tuple or Size of ints as a tuple, with PyTorch's error for anything else."""
    if not isinstance(value, list | tuple):
        raise TypeError(
            f"{function}(): argument '{name}' (position {position}) must be tuple of ints, not {type(value).__name__}"
        )
    for i, item in enumerate(value):
        if not isinstance(item, int) or isinstance(item, bool):
            raise TypeError(
                f"{function}(): argument '{name}' (position {position}) must be tuple of ints, but found element "
                f"of type {type(item).__name__} at pos {i}"
            )
    return tuple(value)


def _check_same_dtype(input: Tensor, *others: Tensor | None) -> None:
    """PyTorch's normalisation kernels refuse a weight, bias or statistic of another dtype. The first
    one given decides how: of the input's dtype, the others are read as that dtype (and refused);
    of another, the kernel tries mixed precision (float32 parameters, a float16 input)."""
    given = [t for t in others if t is not None]
    if not given:
        return
    if given[0].dtype is input.dtype:
        for other in given:
            if other.dtype is not input.dtype:
                raise RuntimeError(
                    f"expected scalar type {input.dtype._legacy_name} but found {other.dtype._legacy_name}"
                )
        return
    where = input.device.type.upper()
    if any(t.dtype is not dtypes.float32 for t in given):
        raise RuntimeError(f"mixed dtype ({where}): expect parameter to have scalar type of Float")
    if input.dtype is not dtypes.float16:
        raise RuntimeError(f"mixed dtype ({where}): all inputs must share same datatype.")
    raise NotImplementedError(
        f"mixed dtype ({where}): a float16 input with float32 parameters (PyTorch's mixed precision) is not "
        "implemented in minigrad; give both the same dtype (module.half() or input.float())"
    )


# ---------------------------------------------------------------------------------------------- embedding
def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """The rows of ``weight`` (num_embeddings, embedding_dim) at the integer indices ``input``
    (of any shape): the result's shape is ``input.shape + (embedding_dim,)``.

    Row ``padding_idx`` gets no gradient. With ``max_norm``, each looked-up row whose
    ``norm_type``-norm exceeds it is first scaled down to that norm, in place in ``weight``.
    ``scale_grad_by_freq`` divides each row's gradient by how often its index occurs in
    ``input``. One ``EmbeddingBackward0`` node whose one input is ``weight``.

    >>> import minigrad as torch
    >>> weight = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
    >>> torch.nn.functional.embedding(torch.tensor([[2, 1], [1, 1]]), weight)
    tensor([[[3., 4.],
             [1., 2.]],
    <BLANKLINE>
            [[1., 2.],
             [1., 2.]]])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"embedding(): argument 'indices' (position 2) must be Tensor, not {backend.type_name(input)}")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= weight.shape[0]
    if sparse:
        raise NotImplementedError(
            "embedding(sparse=True) gives a sparse gradient, and minigrad has no sparse tensors; "
            "use sparse=False (the default), whose gradient is dense"
        )
    if max_norm is not None:  # PyTorch renormalises first, with the checks of its own kernel
        if weight.ndim != 2:
            raise RuntimeError(
                f"Expected 2-dimensional tensor, but got {weight.ndim}-dimensional tensor for argument #1 'self' "
                "(while checking arguments for embedding_renorm_)"
            )
        _check_indices(input, "#2", "embedding_renorm_")
        _embedding_renorm_(weight, _F._one_device("embedding", weight, input)[1][1], max_norm, norm_type)
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(input, "#1", "embedding")
    input = _F._one_device("embedding", weight, input)[1][1]  # (a 0-d CPU index moves to weight's GPU)
    indices = input._data
    if indices.size and (indices.min() < 0 or indices.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return _ops.embedding_op(
        weight,
        indices=_F._kept(input, weight),
        padding_idx=-1 if padding_idx is None else padding_idx,  # PyTorch's -1: no padding row
        scale_grad_by_freq=scale_grad_by_freq,
        sparse=sparse,
        weight_sym_argsize_0=weight.shape[0],
    )


def _check_indices(input: Tensor, argument: str, function: str) -> None:
    """Embedding indices are int64 or int32 (PyTorch's words name the argument and the function)."""
    if input.dtype not in (dtypes.int64, dtypes.int32):
        legacy = input.dtype._legacy_name  # PyTorch's names: torch.FloatTensor, CPUBoolType
        name = f"{input.device.type.upper()}BoolType" if legacy == "Bool" else f"torch.{legacy}Tensor"
        raise RuntimeError(
            f"Expected tensor for argument {argument} 'indices' to have one of the following scalar types: Long, "
            f"Int; but got {name} instead (while checking arguments for {function})"
        )


def _embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    """Scale each row of ``weight`` that ``indices`` picks and whose norm exceeds ``max_norm``
    down to ``max_norm`` (PyTorch's ``embedding_renorm_``: in place, not recorded). Its kernel
    reads each row as ``weight[i]``, in increasing order: a negative index picks a row from the end,
    one out of range fails there, after the rows before it were scaled."""
    xp, n = backend.xp(weight.device), weight.shape[0]
    picked = xp.unique(indices._data)  # (sorted)
    outside = (picked < -n) | (picked >= n)
    visited = int(outside.argmax()) if outside.any() else picked.size
    with no_grad():
        rows = Tensor._make(xp.unique(picked[:visited] % n))
        norms = _F.norm(weight[rows], norm_type, dim=1, keepdim=True)
        weight[rows] = weight[rows] * _F.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    if visited < picked.size:
        raise IndexError(
            f"select(): index {int(picked[visited])} out of range for tensor of size {list(weight.shape)} at dimension 0"
        )


# ---------------------------------------------------------------------------------------------- activations
@_takes_tensors("input")
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(input, 0)`` (``ReluBackward0``); ``inplace=True`` overwrites ``input``."""
    return input.relu_() if inplace else _F.relu(input)


@_takes_tensors("input")
def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``negative_slope * input`` elsewhere (``LeakyReluBackward0``)."""
    _check_floating(input, "leaky_relu_cpu")
    if inplace:
        return input._apply_inplace(lambda s: _ops.leaky_relu_inplace_op(s, negative_slope=negative_slope))
    return _ops.leaky_relu_op(input, negative_slope=negative_slope)


@_takes_tensors("input")
def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``, a smooth ``relu``; ``input`` itself where
    ``beta * input > threshold`` (``SoftplusBackward0``)."""
    _check_floating(input, "softplus_cpu")
    return _ops.softplus_op(input, beta=beta, threshold=threshold)


@_takes_tensors("input")
def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)`` (``SiluBackward0``)."""
    _check_floating(input, "silu_cpu")
    if inplace:
        return input._apply_inplace(_ops.silu_op)
    return _ops.silu_op(input)


@_takes_tensors("input")
def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``input * Phi(input)``, where Phi is the standard normal CDF (``GeluBackward0``); with
    ``approximate="tanh"``, ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3)))``.

    >>> import minigrad as torch
    >>> torch.nn.functional.gelu(torch.tensor([-1.0, 0.0, 1.0]))
    tensor([-0.1587,  0.0000,  0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_floating(input, "GeluKernelImpl")
    return _ops.gelu_op(input, approximate=approximate)


@_takes_tensors("input")
def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere (``EluBackward0``)."""
    _check_floating(input, "elu_cpu")
    if inplace:
        return input._apply_inplace(lambda s: _ops.elu_inplace_op(s, alpha=alpha, scale=1, input_scale=1))
    return _ops.elu_op(input, alpha=alpha, scale=1, input_scale=1)


def _check_floating(input: Tensor, kernel: str) -> None:
    if not input.dtype.is_floating_point:
        raise _F._no_kernel(kernel, input.dtype)


@_takes_tensors("input", attribute="sigmoid")
def sigmoid(input: Tensor) -> Tensor:
    return _F.sigmoid(input)


@_takes_tensors("input", attribute="tanh")
def tanh(input: Tensor) -> Tensor:
    return _F.tanh(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    _warn.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        UserWarning,
    )
    return 0 if ndim in (0, 1, 3) else 1


@_takes_tensors("input", attribute="softmax")  # PyTorch calls input.softmax(dim)
def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """Normalised exponentials along ``dim`` (``SoftmaxBackward0``)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    return _F.softmax(input, dim, dtype=dtype)


@_takes_tensors("input", attribute="softmax")  # PyTorch calls input.softmax(dim)
def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``softmax(-input, dim)``: the smallest entries get the largest weights (``SoftmaxBackward0``
    after ``NegBackward0``, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.nn.functional.softmin(torch.tensor([0.0, 0.6931471805599453]), 0)
    tensor([0.6667, 0.3333])
    """
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim, _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


@_takes_tensors("input", attribute="log_softmax")  # PyTorch calls input.log_softmax(dim)
def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``log(softmax(input, dim))`` computed stably (``LogSoftmaxBackward0``)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    return _F.log_softmax(input, dim, dtype=dtype)


def _check_probability(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(input: Tensor, p: float, feature: bool) -> Tensor:
    """1 where an element (with ``feature``: a whole channel, dims 0 and 1) is kept, else 0, in
    the input's dtype; each kept with probability 1 - p, drawn as PyTorch draws them."""
    if not feature:  # laid out like the input (PyTorch's empty_like), so drawn in its memory order
        return Tensor._make(backend.xp(input.device).zeros_like(input._data)).bernoulli_(1 - p)
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = (*input.shape[:2], *(1,) * (input.ndim - 2))  # broadcast along each channel
    return zeros(shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p)


def _check_float_result(input: Tensor) -> None:
    """Dropout scales by 1 / (1 - p): PyTorch refuses to write that float into an integer tensor."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {input.dtype._legacy_name}")


def _dropout(input: Tensor, p: float, training: bool, inplace: bool, feature: bool = False) -> Tensor:
    """Elementwise or channel-wise dropout: ``input * mask / (1 - p)`` (``MulBackward0``)."""
    _check_probability(p)
    if not training or p == 0.0 or not input.numel():
        return input
    if p == 1.0:  # no mask drawn, as in PyTorch
        scale = zeros((), dtype=input.dtype, device=input.device)
    else:
        _check_float_result(input)
        scale = _keep_mask(input, p, feature) / (1.0 - p)
    return input.mul_(scale) if inplace else input * scale


@_takes_tensors("input")
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` (when training)."""
    return _dropout(input, p, training, inplace)


@_takes_tensors("input", attribute="dim")
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each whole channel of a (N, C, L) or (C, L) input with probability ``p`` and scale the
    rest by ``1/(1-p)`` (when training).

    The mask is PyTorch's after the same seed (on CPUs where PyTorch does not use Intel's MKL
    stream); the channels kept scale alike, and the graph is PyTorch's (``MulBackward0``; an unbatched input between
    ``UnsqueezeBackward0`` and ``SqueezeBackward1``).
    """
    _check_probability(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional "
            "batch dimension (i.e. 2D or 3D inputs)."
        )
    if input.ndim == 2:  # as a batch of one (in place: the input itself, unsqueezed and squeezed back)
        if inplace:
            return _dropout(input.unsqueeze_(0), p, training, inplace, feature=True).squeeze_(0)
        return _dropout(input.unsqueeze(0), p, training, inplace, feature=True).squeeze(0)
    return _dropout(input, p, training, inplace, feature=True)


@_takes_tensors("input", attribute="dim")
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each whole channel (dim 1) of a (N, C, H, W) or (C, H, W) input with probability ``p``
    and scale the rest by ``1/(1-p)`` (when training; ``MulBackward0``).

    As in PyTorch, a 3-D input is taken as (N, C, L), with a warning, and other dims warn too.
    """
    _check_probability(p)
    if input.ndim not in (3, 4):
        _warn.warn(
            f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
        )
    if input.ndim == 3:
        _warn.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
        )
    return _dropout(input, p, training, inplace, feature=True)


# SELU's fixed point: alpha_dropout sets a dropped element to SELU's negative saturation
_SELU_ALPHA = 1.7580993408473766  # scale * alpha of SELU


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool, feature: bool) -> Tensor:
    """Alpha dropout of elements (or, with ``feature``, of whole channels): ``input * (keep * a) + b``."""
    _check_probability(p)
    if not training or p == 0.0 or not input.numel():
        return input
    if p == 1.0:  # no mask drawn (so no check of the dims either), as in PyTorch
        return input.mul_(0.0) if inplace else input * zeros((), dtype=input.dtype, device=input.device)
    _check_float_result(input)
    keep = _keep_mask(input, p, feature)
    a = 1.0 / math.sqrt((_SELU_ALPHA**2 * p + 1) * (1 - p))
    shift = (keep - 1) * (_SELU_ALPHA * a) + _SELU_ALPHA * a * p
    return input.mul_(keep * a).add_(shift) if inplace else input * (keep * a) + shift


@_takes_tensors("input")
def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements become SELU's negative saturation, and an
    affine map ``a * x + b`` keeps the mean and variance (``AddBackward0`` after ``MulBackward0``,
    as in PyTorch). Note ``training`` is False by default, as in PyTorch.
    """
    return _alpha_dropout(input, p, training, inplace, feature=False)


@_takes_tensors("input")
def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """:func:`alpha_dropout` of whole channels: each (sample, channel) pair of an input of at least
    2 dims is dropped with probability ``p`` (one mask value per channel, drawn as PyTorch draws
    it), every element of a dropped channel becoming SELU's negative saturation before the affine
    map. ``training`` is False by default, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.nn.functional.feature_alpha_dropout(torch.ones(2, 3, 4), 0.5).shape  # not training
    torch.Size([2, 3, 4])
    """
    return _alpha_dropout(input, p, training, inplace, feature=True)


@_takes_tensors("input")
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` clamped to ``[min_val, max_val]`` (``HardtanhBackward0``). The gradient passes
    strictly between the bounds: it is 0 at ``min_val`` and ``max_val`` themselves.

    >>> import minigrad as torch
    >>> torch.nn.functional.hardtanh(torch.tensor([-2.0, -0.5, 3.0]))
    tensor([-1.0000, -0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype == dtypes.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if inplace:
        return input._apply_inplace(lambda s: _ops.hardtanh_op(s, min_val=min_val, max_val=max_val))
    return _ops.hardtanh_op(input, min_val=min_val, max_val=max_val)


@_takes_tensors("input")
def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``: ``hardtanh(input, 0, 6)``, so its node is ``HardtanhBackward0``."""
    return hardtanh(input, 0, 6, inplace)


@_takes_tensors("input")
def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``value`` where ``input <= threshold``, else ``input`` (``ThresholdBackward0``; in place
    ``ThresholdBackward1``). The gradient is 0 where the value was replaced."""
    if input.dtype == dtypes.bool:
        raise _F._no_kernel("threshold_cpu")
    if inplace:
        return input._apply_inplace(lambda s: _ops.threshold_inplace_op(s, threshold=threshold, value=value))
    return _ops.threshold_op(input, threshold=threshold, value=value)


@_takes_tensors("input")
def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * clamp(input + 3, 0, 6) / 6`` (``HardswishBackward0``)."""
    _check_floating(input, "hardswish_cpu")
    if inplace:
        return input._apply_inplace(_ops.hardswish_op)
    return _ops.hardswish_op(input)


@_takes_tensors("input")
def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``clamp(input + 3, 0, 6) / 6`` (``HardsigmoidBackward0``). As in PyTorch, its gradient
    cannot be differentiated again."""
    _check_floating(input, "hardsigmoid_cpu")
    if inplace:
        return input._apply_inplace(_ops.hardsigmoid_op)
    return _ops.hardsigmoid_op(input)


@_takes_tensors("input")
def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * tanh(softplus(input))`` (``MishBackward0``)."""
    _check_floating(input, "mish_cpu")
    if inplace:
        return input._apply_inplace(_ops.mish_op)
    return _ops.mish_op(input)


@_takes_tensors("input", kernel="log_sigmoid")
def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``, finite for any input (``LogSigmoidBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.logsigmoid(torch.tensor([-200.0, 0.0]))
    tensor([-200.0000,   -0.6931])
    """
    _check_floating(input, "log_sigmoid_cpu")
    return _ops.log_sigmoid_op(input)


@_takes_tensors("input", attribute="abs")
def softsign(input: Tensor) -> Tensor:
    """``input / (1 + |input|)``, from elementary ops as in PyTorch."""
    return input / (input.abs() + 1)


@_takes_tensors("input", attribute="tanh")
def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``, from elementary ops as in PyTorch."""
    return input - input.tanh()


@_takes_tensors("input", attribute="dim")
def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the first and second
    half of ``input`` along ``dim`` (``GluBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.glu(torch.tensor([2.0, 4.0, 0.0, 100.0]))
    tensor([1., 4.])
    """
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    wrapped = _F._wrap_dim(dim, input.ndim)
    if input.shape[wrapped] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {wrapped} is size {input.shape[wrapped]}")
    _check_floating(input, "glu_cpu")
    return _ops.glu_op(input, dim=dim)


@_takes_tensors("input", "weight")
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where positive, ``weight * input`` elsewhere (``PreluKernelBackward0``).

    ``weight`` has one element, or one per channel (dim 1 of ``input``); it is viewed to broadcast
    along that dim (``ViewBackward0``), as in PyTorch.
    """
    if input.dtype is not weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {input.dtype._legacy_name} and {weight.dtype._legacy_name}"
        )
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(
                f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                f"{weight.numel()} and channel size = {channels}."
            )
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    _check_floating(input, "prelu_cpu")
    return _ops.prelu_op(input, weight)


# ---------------------------------------------------------------------------------------------- more activations
_SELU_ALPHA_ARG, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805  # SELU's fixed point


@_takes_tensors("input")
def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(input, alpha)`` with SELU's fixed ``alpha`` and ``scale``: as in ATen, elu
    with a scale, so its node is ``EluBackward0``.

    >>> import minigrad as torch
    >>> torch.nn.functional.selu(torch.tensor([-1.0, 0.0, 1.0]))
    tensor([-1.1113,  0.0000,  1.0507])
    """
    _check_floating(input, "elu_cpu")
    params = dict(alpha=_SELU_ALPHA_ARG, scale=_SELU_SCALE, input_scale=1)
    if inplace:
        return input._apply_inplace(lambda s: _ops.elu_inplace_op(s, **params))
    return _ops.elu_op(input, **params)


@_takes_tensors("input")
def selu_(input: Tensor) -> Tensor:
    """:func:`selu` in place (``EluBackward1``)."""
    return selu(input, inplace=True)


@_takes_tensors("input")
def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`` (``CeluBackward0``: elu with
    ``input_scale = 1 / alpha``).

    >>> import minigrad as torch
    >>> torch.nn.functional.celu(torch.tensor([-1.0, 2.0]), alpha=2.0)
    tensor([-0.7869,  2.0000])
    """
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _check_floating(input, "elu_cpu")
    params = dict(alpha=alpha, scale=1.0, input_scale=1.0 / alpha)
    if inplace:
        return input._apply_inplace(lambda s: _ops.celu_inplace_op(s, **params))
    return _ops.celu_op(input, **params)


@_takes_tensors("input")
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """:func:`celu` in place (``CeluBackward1``)."""
    return celu(input, alpha, inplace=True)


@_takes_tensors("input")
def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """:func:`elu` in place (``EluBackward1``)."""
    return elu(input, alpha, inplace=True)


@_takes_tensors("input")
def relu_(input: Tensor) -> Tensor:
    """:func:`relu` in place."""
    return input.relu_()


@_takes_tensors("input")
def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """:func:`leaky_relu` in place."""
    return leaky_relu(input, negative_slope, inplace=True)


@_takes_tensors("input")
def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """:func:`hardtanh` in place."""
    return hardtanh(input, min_val, max_val, inplace=True)


@_takes_tensors("input")
def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """:func:`threshold` in place (``ThresholdBackward1``)."""
    return input._apply_inplace(lambda s: _ops.threshold_inplace_op(s, threshold=threshold, value=value))


@_takes_tensors("input")
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0 (``HardshrinkBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.hardshrink(torch.tensor([-1.0, 0.3, 0.5, 2.0]))
    tensor([-1.,  0.,  0.,  2.])
    """
    _check_floating(input, "hardshrink_cpu")
    return _ops.hardshrink_op(input, lambd=lambd)


@_takes_tensors("input")
def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` moved ``lambd`` towards 0, and 0 where ``|input| <= lambd`` (``SoftshrinkBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.softshrink(torch.tensor([-1.0, 0.3, 2.0]))
    tensor([-0.5000,  0.0000,  1.5000])
    """
    _check_floating(input, "softshrink_check")
    top = float(backend.xp(input.device).finfo(input._data.dtype).max)
    if not 0 <= lambd <= top:
        raise RuntimeError(
            f"lambda must be in range [0, {top:g}] for input dtype {input.dtype._legacy_name}, but found {lambd:g}"
        )
    return _ops.softshrink_op(input, lambd=lambd)


@_takes_tensors("input")
def rrelu(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, inplace: bool = False
) -> Tensor:
    """Randomized leaky ReLU (``RreluWithNoiseBackward0``): values ``<= 0`` are scaled by a slope
    drawn uniformly from ``[lower, upper)`` for each of them when training (PyTorch's draws: one
    double per such element, in memory order), by ``(lower + upper) / 2`` otherwise.

    >>> import minigrad as torch
    >>> torch.nn.functional.rrelu(torch.tensor([-1.0, 2.0]), 0.2, 0.4)
    tensor([-0.3000,  2.0000])
    """
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    _check_floating(input, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    xp = backend.xp(input.device)
    x = input._data
    if training:
        at_most_zero = x <= 0
        draws = zeros(int(at_most_zero.sum()), dtype=dtypes.float64, device=input.device).uniform_(lower, upper)
        noise = xp.ones_like(x)
        noise[at_most_zero] = draws._data.astype(x.dtype)
    else:
        slopes = xp.asarray((lower + upper) / 2, dtype=x.dtype)
        noise = xp.where(x > 0, xp.ones((), x.dtype), slopes).astype(x.dtype, copy=False)
    if inplace:
        return input._apply_inplace(lambda s: _ops.rrelu_inplace_op(s, noise=noise))
    return _ops.rrelu_op(input, noise=noise)


@_takes_tensors("input")
def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """:func:`rrelu` in place (``RreluWithNoiseBackward1``)."""
    return rrelu(input, lower, upper, training, inplace=True)


# ---------------------------------------------------------------------------------------------- rms_norm, bilinear
_WARNED: set[str] = set()  # the warnings given once per process


@_takes_tensors("input", "weight")
def rms_norm(
    input: Tensor, normalized_shape: list[int] | tuple[int, ...], weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    """``input / sqrt(mean(input**2) + eps) * weight`` over the last dims (``normalized_shape``);
    ``eps=None`` is the dtype's machine epsilon. From elementary ops, as PyTorch's CPU composite
    (``PowBackward0``, ``MeanBackward1``, ``AddBackward1``, ``RsqrtBackward0``, ``MulBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.rms_norm(torch.tensor([[3.0, 4.0]]), (2,))
    tensor([[0.8485, 1.1314]])
    """
    shape = _int_tuple(normalized_shape, "rms_norm", "normalized_shape", 2)
    _check_normalized_shape(input, shape, {"weight": weight}, "*")
    _check_floating(input, "rms_norm")
    if weight is not None and weight.dtype is not input.dtype and "rms_norm" not in _WARNED:
        _WARNED.add("rms_norm")  # (PyTorch warns once per process)
        _warn.warn(
            f"Mismatch dtype between input and weight: input dtype = {_F._CPP_NAMES[input.dtype]}, weight dtype = "
            f"{_F._CPP_NAMES[weight.dtype]}, Cannot dispatch to fused implementation."
        )
    x = input.float() if input.dtype is dtypes.float16 else input  # PyTorch computes float16 in float32
    if eps is None:
        eps = float(backend.xp(x.device).finfo(x._data.dtype).eps)
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    scale = _F.add_scalar_op(x.pow(2).mean(dims, keepdim=True), other=eps).rsqrt()
    out = x * scale
    out = out if weight is None else out * weight
    return out.type_as(input)  # (ToCopyBackward0 where the dtype changed)


@_takes_tensors("input1", "input2", "weight", "bias")
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input1^T weight[o] input2 + bias[o]`` for each output ``o``: ``weight`` is (out, in1, in2).
    One ``TrilinearBackward0`` between views, then ``AddBackward0`` for the bias, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.nn.functional.bilinear(torch.ones(1, 2), torch.ones(1, 3), torch.ones(4, 2, 3))
    tensor([[6., 6., 6., 6.]])
    """
    named = {"input1": input1, "input2": input2, "weight": weight, "bias": bias}
    named = {name: t for name, t in named.items() if t is not None}
    if len({t.dtype for t in named.values()}) > 1:  # (no type promotion here)
        got = ", ".join(f"{name}: {_F._CPP_NAMES.get(t.dtype, t.dtype)}" for name, t in named.items())
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} and "
                f"{input2.shape[i]}"
            )
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got {weight.ndim} dimensions")
    for k, t in ((1, input1), (2, input2)):
        if t.shape[-1] != weight.shape[k]:
            raise RuntimeError(
                f"bilinear(): input{k} size does not match weight size: got {t.shape[-1]} but expected "
                f"{weight.shape[k]}"
            )
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[-1]} but expected {weight.shape[0]}"
        )
    flat1 = input1.reshape(-1, input1.shape[-1])
    flat2 = input2.reshape(-1, input2.shape[-1])
    out = _ops.trilinear_op(flat1, weight, flat2, spec="ni,oij,nj->no").reshape(*input1.shape[:-1], weight.shape[0])
    return out if bias is None else out + bias


# ---------------------------------------------------------------------------------------------- resampling
@_takes_tensors("input")
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Rearrange (*, C*r*r, H, W) into (*, C, H*r, W*r), ``r = upscale_factor`` (``PixelShuffleBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.pixel_shuffle(torch.arange(4.0).reshape(1, 4, 1, 1), 2)
    tensor([[[[0., 1.],
              [2., 3.]]]])
    """
    if input.ndim < 3:
        raise RuntimeError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with {input.ndim} dimension(s)"
        )
    if upscale_factor <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {upscale_factor}")
    c = input.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
            f"but input.size(-3)={c} is not divisible by {upscale_factor * upscale_factor}"
        )
    return _ops.pixel_shuffle_op(input, upscale_factor=upscale_factor)


@_takes_tensors("input")
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """Rearrange (*, C, H*r, W*r) into (*, C*r*r, H, W), ``r = downscale_factor``: the inverse of
    :func:`pixel_shuffle` (``PixelUnshuffleBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.pixel_unshuffle(torch.arange(4.0).reshape(1, 1, 2, 2), 2).flatten()
    tensor([0., 1., 2., 3.])
    """
    if input.ndim < 3:
        raise RuntimeError(
            f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with {input.ndim} dimension(s)"
        )
    if downscale_factor <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {downscale_factor}")
    for dim, name in ((-2, "height"), (-1, "width")):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but input.size({dim})="
                f"{input.shape[dim]} is not divisible by {downscale_factor}"
            )
    return _ops.pixel_unshuffle_op(input, downscale_factor=downscale_factor)


_INTERPOLATION_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def _spatial(value, dims: int, what: str, input: Tensor, cast) -> tuple:
    if isinstance(value, list | tuple):
        if len(value) != dims:
            raise ValueError(
                f"Input and {what} must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {list(input.shape[2:])} and {what} of {'shape ' if what == 'scale_factor' else ''}"
                f"{tuple(value)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and {what} in "
                f"{'(s1, s2, ...,sK)' if what == 'scale_factor' else '(o1, o2, ...,oK)'} format."
            )
        return tuple(cast(v) for v in value)
    return (cast(value),) * dims


def _is_integer(x) -> bool:
    """An int (NumPy's too) or an integer tensor: what PyTorch takes as an output size."""
    return isinstance(x, numbers.Integral) or (isinstance(x, Tensor) and not x.is_floating_point())


def _check_interpolate_sizes(size, scale_factor) -> None:
    """PyTorch refuses a float size (3.0 is not rounded for you) and a scale factor that is no number."""
    if isinstance(size, list | tuple) and not all(_is_integer(n) for n in size):
        raise TypeError(
            "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], "
            f"but got size with types {[type(n) for n in size]}"
        )
    if size is not None and not isinstance(size, list | tuple) and (isinstance(size, bool) or not _is_integer(size)):
        raise TypeError(
            "interpolate() received an invalid combination of arguments - got size of type "
            f"{type(size).__name__}, but expected int or tuple of ints"
        )
    factors = scale_factor if isinstance(scale_factor, list | tuple) else [scale_factor]
    if scale_factor is not None and not all(isinstance(f, numbers.Real) for f in factors):
        raise TypeError(
            "interpolate() received an invalid combination of arguments - got scale_factor with types "
            f"{[type(f) for f in factors]}, but expected a float or tuple of floats"
        )


@_takes_tensors("input", attribute="dim")
def interpolate(
    input: Tensor,
    size: int | tuple[int, ...] | None = None,
    scale_factor: float | tuple[float, ...] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial dims of a (N, C, W) or (N, C, H, W) input to ``size``, or by
    ``scale_factor``, with PyTorch's index arithmetic: ``mode`` 'nearest', 'nearest-exact',
    'linear' (3-d), 'bilinear' or 'bicubic' (4-d, with or without ``align_corners``) or 'area'
    (adaptive average pooling). One ``UpsampleNearest2DBackward0`` (..., ``UpsampleBicubic2DBackward0``).
    'bicubic' reads the 4 nearest input pixels along each axis (Keys' cubic, a = -0.75, indices
    clamped at the borders, so it may overshoot the input's range), as PyTorch does. 'bilinear' or
    'bicubic' with ``antialias=True`` (``UpsampleBilinear2DAaBackward0``, ``UpsampleBicubic2DAaBackward0``)
    averages, when shrinking, over every input pixel an output pixel covers, where the plain modes
    read only the nearest 2 or 4.

    >>> import minigrad as torch
    >>> torch.nn.functional.interpolate(torch.tensor([[[1.0, 3.0]]]), scale_factor=2, mode="linear")
    tensor([[[1.0000, 1.5000, 2.5000, 3.0000]]])
    """
    dims = input.ndim - 2
    linear = mode in ("linear", "bilinear", "bicubic", "trilinear")
    if not linear and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"
        )
    if align_corners is None:
        align_corners = False
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input"
        )
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if dims < 1:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the modes: "
            f"{_INTERPOLATION_MODES} (got {mode})"
        )
    _check_interpolate_sizes(size, scale_factor)
    scales: tuple = (None,) * dims
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        output_size = _spatial(size, dims, "output size", input, int)
    else:
        factors = _spatial(scale_factor, dims, "scale_factor", input, float)
        output_size = tuple(int(n * f) for n, f in zip(input.shape[2:], factors))  # PyTorch truncates
        if not recompute_scale_factor:
            scales = factors
    kinds = {("nearest", 1): "Nearest1D", ("nearest", 2): "Nearest2D", ("nearest-exact", 1): "NearestExact1D",
             ("nearest-exact", 2): "NearestExact2D", ("linear", 1): "Linear1D", ("bilinear", 2): "Bilinear2D",
             ("bicubic", 2): "Bicubic2D"}  # fmt: skip
    if mode == "area" and dims in (1, 2):
        return (adaptive_avg_pool1d if dims == 1 else adaptive_avg_pool2d)(input, output_size)
    if (mode, dims) not in kinds:
        needed = {"linear": 3, "bilinear": 4, "trilinear": 5}.get(mode, input.ndim)  # (bicubic: the error below)
        if needed != input.ndim:
            raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {needed}D input")
        if mode in ("nearest", "nearest-exact", "area", "trilinear", "lanczos"):
            raise NotImplementedError(
                f"interpolate: mode {mode!r} on a {input.ndim}-D input is not implemented in minigrad"
            )
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the modes: "
            f"{_INTERPOLATION_MODES} (got {mode})"
        )
    if antialias and input.dtype is dtypes.float16:
        raise _F._no_kernel("compute_index_ranges_weights", input.dtype)
    if input.dtype is dtypes.uint8 and linear and dims == 2:
        raise NotImplementedError(
            f"interpolate: mode {mode!r} on a uint8 input is not implemented in minigrad (PyTorch rounds it with "
            "fixed-point weights of its own); interpolate input.float() and round"
        )
    if not input.dtype.is_floating_point and not (input.dtype is dtypes.uint8 and not linear):  # (a gather)
        kernel = {1: f"compute_indices_weights_{'linear' if linear else 'nearest'}", 2: ""}[dims] or (
            f"upsample_{'bilinear' if linear else 'nearest'}2d_channels_last"
        )
        if mode == "bicubic" or antialias:  # (2-d only)
            kernel = "compute_index_ranges_weights" if antialias else "compute_indices_weights_cubic"
        raise _F._no_kernel(kernel, input.dtype)
    if min(input.shape[2:]) <= 0 or min(output_size) <= 0:
        names = ("W",) if dims == 1 else ("H", "W")
        given = ", ".join(f"{n}: {v}" for n, v in zip(names, input.shape[2:]))
        wanted = ", ".join(f"{n}: {v}" for n, v in zip(names, output_size))
        joint = " and output" if dims == 1 else " output"
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({given}){joint} ({wanted})"
        )
    kind = "cubic" if mode == "bicubic" else "linear" if linear else mode
    if antialias:  # bilinear or bicubic on a 4-d input (checked above)
        kinds[mode, dims], kind = kinds[mode, dims] + "Aa", kind + "-aa"
    op, _ = _ops.resample_ops(kinds[mode, dims])
    return op(input, mode=kind, output_size=output_size, scales=scales, align_corners=align_corners)


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:
    """Deprecated name of :func:`interpolate` (PyTorch warns; so does minigrad)."""
    _warn.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: :func:`interpolate` with mode 'nearest'."""
    _warn.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: :func:`interpolate` with mode 'bilinear' and ``align_corners=True``."""
    _warn.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _fold_pairs(kernel_size, dilation, padding, stride) -> tuple:
    return tuple(_ntuple(v, n, 2) for v, n in ((kernel_size, "kernel_size"), (dilation, "dilation"),
                                               (padding, "padding"), (stride, "stride")))  # fmt: skip


def _check_fold_args(kernel, dilation, padding, stride) -> None:
    for name, (a, b), low in (("kernel size", kernel, 1), ("stride", stride, 1), ("dilation", dilation, 1)):
        if a < low or b < low:
            label = name.split()[0]
            raise RuntimeError(f"{name} should be greater than zero, but got {label}_height: {a} {label}_width: {b}")
    if padding[0] < 0 or padding[1] < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: {padding[1]}")


def _blocks(hw, kernel, dilation, padding, stride) -> tuple[int, int]:
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, d, p, s in zip(hw, kernel, dilation, padding, stride))


@_takes_tensors("input", kernel="im2col")
def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """The sliding ``kernel_size`` blocks of a (N, C, H, W) or (C, H, W) input as columns: (N,
    C*kh*kw, L) with L blocks (``Im2ColBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.unfold(torch.arange(9.0).reshape(1, 1, 3, 3), 2)
    tensor([[[0., 1., 3., 4.],
             [1., 2., 4., 5.],
             [3., 4., 6., 7.],
             [4., 5., 7., 8.]]])
    """
    kernel, dilation, padding, stride = _fold_pairs(kernel_size, dilation, padding, stride)
    _check_fold_args(kernel, dilation, padding, stride)
    if input.ndim < 3:  # (PyTorch reads the size of dim 1 and 2 first)
        n = input.ndim
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {n})")
    if input.ndim > 4 or 0 in input.shape[-3:]:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
            f"but got: {list(input.shape)}"
        )
    hw = tuple(input.shape[-2:])
    blocks = _blocks(hw, kernel, dilation, padding, stride)
    if min(blocks) < 1:
        raise RuntimeError(
            f"Given input with spatial size {hw}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
            f"calculated shape of the array of sliding blocks as {blocks}, but its components must be at least one."
        )
    _check_floating(input, "im2col_out_cpu")
    return _ops.im2col_op(input, kernel_size=kernel, dilation=dilation, padding=padding, stride=stride)


@_takes_tensors("input", kernel="col2im")
def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Add (N, C*kh*kw, L) columns of sliding blocks back into a (N, C, *output_size) image
    (overlaps add up): the adjoint of :func:`unfold` (``Col2ImBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.fold(torch.ones(1, 4, 4), (3, 3), 2)
    tensor([[[[1., 2., 1.],
              [2., 4., 2.],
              [1., 2., 1.]]]])
    """
    size = _ntuple(output_size, "output_size", 2)
    kernel, dilation, padding, stride = _fold_pairs(kernel_size, dilation, padding, stride)
    _check_fold_args(kernel, dilation, padding, stride)
    if input.ndim not in (2, 3) or any(n == 0 for n in input.shape[input.ndim - 2 :]):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
            f"input, but got: {list(input.shape)}"
        )
    columns, length = input.shape[-2:]
    if columns % (kernel[0] * kernel[1]):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            f"input.size(1)={columns} and kernel_size={kernel}."
        )
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != length:
        raise RuntimeError(
            f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
            f"stride={stride}, expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got input.size(2)={length}."
        )
    _check_floating(input, "col2im_out_cpu")
    return _ops.col2im_op(
        input, output_size=size, kernel_size=kernel, dilation=dilation, padding=padding, stride=stride
    )


@_takes_tensors("input", attribute="dim")
def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """Divide each value by ``(k + alpha * mean of squares over size neighbouring channels) ** beta``
    (the window padded with zeros at the ends); from elementary ops and an average pool, as
    PyTorch's composite.

    >>> import minigrad as torch
    >>> torch.nn.functional.local_response_norm(torch.ones(1, 3, 1), 3, alpha=3.0, beta=1.0, k=0.0)
    tensor([[[0.5000],
             [0.3333],
             [0.5000]]])
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        _pool_output(div, "avg_pool3d", (size, 1, 1), (1, 1, 1), (0, 0, 0), (1, 1, 1), False)  # its checks
        div = _ops.avg_pool3d_channels_op(div, size=size).squeeze(1)  # avg_pool3d over (size, 1, 1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def _lp_root(out: Tensor, norm_type: float, count: int) -> Tensor:
    return (out.sign() * relu(out.abs())).mul(count).pow(1.0 / norm_type)


@_takes_tensors("input", attribute="pow")
def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride=None, ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each window: ``(sum of x**p) ** (1/p)`` through an average pool,
    as PyTorch's composite.

    >>> import minigrad as torch
    >>> torch.nn.functional.lp_pool1d(torch.tensor([[3.0, 4.0]]), 2, 2)
    tensor([[5.]])
    """
    if isinstance(norm_type, int | float) and math.isinf(norm_type):
        return _lp_pool_infinite(max_pool1d, input, norm_type, kernel_size, stride, ceil_mode)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_root(out, norm_type, kernel_size)


def _lp_pool_infinite(max_pool, input: Tensor, norm_type: float, kernel_size, stride, ceil_mode: bool) -> Tensor:
    """``norm_type`` inf (-inf): the largest (smallest) absolute value of each window, a max pool, as
    PyTorch computes it (the power average would overflow)."""
    if norm_type > 0:
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)


@_takes_tensors("input", attribute="pow")
def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each ``kernel_size`` window (see :func:`lp_pool1d`).

    >>> import minigrad as torch
    >>> torch.nn.functional.lp_pool2d(torch.tensor([[[3.0, 4.0]]]), 1, (1, 2))
    tensor([[[7.]]])
    """
    kw, kh = _pool_pair(kernel_size, "lp_pool2d", "kernel_size")
    if isinstance(norm_type, int | float) and math.isinf(norm_type):
        return _lp_pool_infinite(max_pool2d, input, norm_type, kernel_size, stride, ceil_mode)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_root(out, norm_type, kw * kh)


# ---------------------------------------------------------------------------------------------- losses
def _reduced(losses: Tensor, reduction: str) -> Tensor:
    """Each loss, their sum or their mean (a loss made of elementary ops)."""
    return losses if reduction == "none" else losses.sum() if reduction == "sum" else losses.mean()


def _reduction(size_average, reduce, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else ("mean" if size_average else "sum")
        _warn.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.",
            UserWarning,
        )
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


@_takes_tensors("input", "target", "weight")
def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean (or sum, or each) of ``(input - target) ** 2`` (``MseLossBackward0``).

    With ``weight`` (same shape as ``input``) the mean is ``sum(weight * err**2) / sum(weight)``.
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_if_shapes_differ(input, target)
    shape = input.shape
    input, target = _broadcast_pair(input, target)  # as PyTorch: ExpandBackward0 where they differ
    if weight is not None:
        return _weighted(input.sub(target).pow(2), weight, reduction, shape)
    dtype = _F._operand_dtype((input, target))
    if not dtype.is_floating_point:
        raise _F._no_kernel("mse_cpu", dtype)
    return _F.mse_loss_op(input, target, reduction=reduction, dtype=dtype)


def _weighted(errors: Tensor, weight: Tensor, reduction: str, input_shape) -> Tensor:
    """``errors * weight``, summed, or divided by the sum of the weights for ``'mean'`` (the
    weighted forms of ``mse_loss`` and ``l1_loss``, composed as in PyTorch's Python code)."""
    if weight.shape != input_shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = errors * weight
    if reduction == "none":
        return weighted
    return weighted.sum() if reduction == "sum" else weighted.sum() / weight.sum()


@_takes_tensors("input", "target", "weight")
def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean (or sum, or each) of ``|input - target|``, from elementary ops as in PyTorch.

    With ``weight`` (same shape as ``input``) the mean is ``sum(weight * |err|) / sum(weight)``.

    >>> import minigrad as torch
    >>> torch.nn.functional.l1_loss(torch.tensor([1.0, 4.0]), torch.tensor([2.0, 2.0]))
    tensor(1.5000)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_if_shapes_differ(input, target)
    shape = input.shape
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted((input - target).abs(), weight, reduction, shape)
    return _reduced((input - target).abs(), reduction)


@_takes_tensors("input", "target", "weight")
def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``-(target * log(input) + (1 - target) * log(1 - input))`` for probabilities ``input``
    (``BinaryCrossEntropyBackward0``); each log is clamped at -100, as in PyTorch."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size."
        )
    if target.dtype != input.dtype:
        raise RuntimeError(
            f"Found dtype {target.dtype._legacy_name} but expected {input.dtype._legacy_name} "
            "(the target must have the dtype of the input)"
        )
    values = input.detach()
    if input.numel() and bool(((values < 0) | (values > 1) | values.isnan()).any()):
        raise RuntimeError(
            "all elements of input should be between 0 and 1; pass probabilities (e.g. x.sigmoid()), "
            "or logits to binary_cross_entropy_with_logits"
        )
    labels = target.detach()
    if target.numel() and not bool(((labels >= 0) & (labels <= 1)).all()):  # (NaN included)
        raise RuntimeError("all elements of target should be between 0 and 1")
    _check_weight_shapes(input, weight)
    return _ops.binary_cross_entropy_op(
        input, target, weight=_weight_array(weight, input, "binary_cross_entropy"), reduction=reduction
    )


@_takes_tensors("input", "target", "weight", "pos_weight")
def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Binary cross-entropy of ``sigmoid(input)``, computed from the logits without overflow
    (``BinaryCrossEntropyWithLogitsBackward0``); ``pos_weight`` weighs the positive class."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if not input.dtype.is_floating_point:
        raise _F._no_kernel("log_sigmoid_cpu", input.dtype)
    if not target.dtype.is_floating_point:
        raise RuntimeError(
            f"result type {input.dtype._legacy_name} can't be cast to the desired output type "
            f"{target.dtype._legacy_name} (pass a floating-point target, e.g. target.float())"
        )
    _check_weight_shapes(input, weight, pos_weight, logits=True)
    return _ops.binary_cross_entropy_with_logits_op(
        input,
        target,
        weight=_weight_array(weight, input, "binary_cross_entropy_with_logits"),
        pos_weight=_weight_array(pos_weight, input, "binary_cross_entropy_with_logits", "pos_weight"),
        reduction=reduction,
    )


def _check_weight_shapes(input: Tensor, weight: Tensor | None, pos_weight=None, logits: bool = False) -> None:
    """A binary cross-entropy's ``weight`` and ``pos_weight`` must broadcast to the input's shape,
    checked in PyTorch's order and words (NumPy's ValueError would name neither tensor)."""
    if pos_weight is not None:  # (pos_weight - 1) * target, multiplied into the loss in place
        _check_fits(input, _F._broadcast_shape(pos_weight.shape, input.shape))
    if weight is None:
        return
    if not logits:  # PyTorch's Python code first runs torch.broadcast_shapes(target, weight)
        _F.broadcast_shapes(input.shape, weight.shape)
    _check_fits(input, _F._broadcast_shape(input.shape, weight.shape))  # the loss times weight, in place


def _check_fits(input: Tensor, shape) -> None:
    if tuple(shape) != tuple(input.shape):  # a weight with more dims would make the loss bigger
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}")


def _weight_array(weight: Tensor | None, input: Tensor, function: str, name: str = "weight"):
    """A loss weight as an array of the input's dtype: PyTorch does not differentiate it."""
    if weight is None:
        return None
    _not_differentiable(weight, function, name)
    return weight.to(input.dtype)._data


def _warn_if_shapes_differ(input: Tensor, target: Tensor) -> None:
    if target.shape != input.shape:
        _warn.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            UserWarning,
        )


def _check_class_target(input: Tensor, target: Tensor) -> None:
    """PyTorch's checks of class indices ``target`` for log-probabilities ``input``, in its order and
    words: first ``nll_loss_nd``'s (the input's dims, the batch size), then its kernels' (the
    target's dims, its dtype, its size)."""
    shape, target_shape = input._data.shape, target._data.shape  # plain tuples: read every step
    if not shape:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    batch = target_shape[0] if target_shape else 0
    if len(shape) != 1 and shape[0] != batch:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target batch_size ({batch}).")
    expected = (shape[0], *shape[2:])  # (N, d1, ...)
    if len(shape) <= 2 and len(target_shape) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if len(shape) == 4 and len(target_shape) != 3:
        raise RuntimeError(
            f"only batches of spatial targets supported (3D tensors) but got targets of dimension: {len(target_shape)}"
        )
    if (len(shape) == 3 or len(shape) > 4) and target_shape != expected:
        raise RuntimeError(f"Expected target size {list(expected)}, got {list(target_shape)}")
    if target.dtype.name not in ("int64", "uint8"):  # PyTorch's kernels take these two only
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._legacy_name}")
    if len(shape) == 1 and target_shape and target_shape != (1,):
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target_shape[0]}")
    if len(shape) == 2 and not target_shape:  # (reached only with an empty batch)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if len(shape) == 4 and target_shape != expected:
        raise RuntimeError(f"size mismatch (got input: {list(shape)} , target: {list(target_shape)}")


@_takes_tensors("input", "target", "weight", kernel="nll_loss_nd")
def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The negative log-likelihood of class indices ``target`` under log-probabilities ``input``.

    ``input`` is (C,), (N, C) or (N, C, d1, ...); ``target`` holds class indices of shape (),
    (N,) or (N, d1, ...). With ``reduction='mean'`` the sum is divided by the total weight of the
    targets that are not ``ignore_index``.
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_class_target(input, target)
    if input.ndim == 1 and target.ndim == 1:  # one sample's class, given as [c]: as c
        target = target.view(())
    classes = input._data.shape[_F._class_axis(input.ndim)]
    if weight is not None and weight.shape != (classes,):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes but got weight tensor of shape: {list(weight.shape)}"
        )
    if not backend.same_device((input._data, target._data)):
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, {input.device} and {target.device}!"
        )
    values = target._data  # checked on the raw array: a loss is computed every step
    if values.size and (values.min() < 0 or values.max() >= classes):  # out of range, unless ignored
        bad = (values != ignore_index) & ((values < 0) | (values >= classes))
        if bad.any():
            raise IndexError(f"Target {int(values[bad].reshape(-1)[0])} is out of bounds.")
    if is_grad_enabled():  # PyTorch checks only while recording
        _not_differentiable(weight, "nll_loss2d_forward" if input.ndim >= 3 else "nll_loss_forward", "weight")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype._legacy_name} but found {weight.dtype._legacy_name} "
            "(the weight must have the dtype of the input)"
        )
    weights = None if weight is None else weight.detach()._data
    if input.ndim == 3 or input.ndim > 4:
        # ATen's nll_loss_nd: the 2-d loss of views (N, C, 1, -1) and (N, 1, -1), viewed back
        n, c = input.shape[:2]
        flat = input.contiguous().view(n, c, 1, -1) if input.numel() else input.view(n, c, 0, 0)
        flat_target = target.contiguous().view(n, 1, -1) if target.numel() else target.view(n, 0, 0)
        out = _ops.nll_loss2d_op(
            flat, target=_F._kept(flat_target, flat), weight=weights, reduction=reduction, ignore_index=ignore_index
        )
        return out.view(n, *input.shape[2:]) if reduction == "none" else out
    op = _ops.nll_loss2d_op if input.ndim == 4 else _F.nll_loss_op
    return op(input, target=_F._kept(target, input), weight=weights, reduction=reduction, ignore_index=ignore_index)


@_takes_tensors("input", "target", "weight", kernel="cross_entropy_loss")
def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross entropy between logits ``input`` and ``target``.

    ``target`` is either class indices (as for :func:`nll_loss`; the result is
    ``nll_loss(log_softmax(input, class_dim), target)``) or class probabilities with the shape of
    ``input``. The class dimension is 0 for a 1-D input and 1 otherwise.
    """
    reduction = _reduction(size_average, reduce, reduction)
    # PyTorch refuses only values above 1; a negative (or nan) label_smoothing means no smoothing
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if input.ndim == 0:  # PyTorch's class dim is then 1, which a 0-d input lacks
        if target.ndim == 0 and not target.dtype.is_floating_point:
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got {target.dtype._legacy_name}"
            )
        if target.ndim == 0:
            raise IndexError("Dimension specified as 1 but tensor has no dimensions")
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    class_dim = _F._class_axis(input.ndim)
    classes = input._data.shape[class_dim]
    if weight is not None and weight.shape != (classes,):
        where = "cross_entropy: " if target._data.shape == input._data.shape else ""  # (probabilities' own check)
        raise RuntimeError(
            f"{where}weight tensor should be defined either for all {classes} classes or no classes but got weight tensor of shape: {list(weight.shape)}"
        )
    # the weight reshaped to broadcast along the class dimension of ``input``
    class_weight = (
        None if weight is None else weight.reshape([classes if d == class_dim else 1 for d in range(input.ndim)])
    )
    logp = log_softmax(input, class_dim)
    if target._data.shape == input._data.shape:
        if not target.dtype.is_floating_point:
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got {target.dtype._legacy_name}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if label_smoothing > 0:  # C++ arithmetic with numbers: MulBackward1, AddBackward1
            smoothed = _F.mul_scalar_op(target, other=1 - label_smoothing, dtype=target.dtype)
            target = _F.add_scalar_op(smoothed, other=label_smoothing / classes, dtype=target.dtype)
        terms = logp * target if class_weight is None else logp * target * class_weight
        if reduction == "none":
            return -terms.sum(class_dim)
        if reduction == "sum":
            return -terms.sum()
        if not input.numel():
            return -terms.sum().fill_(math.nan)
        # terms has the promoted dtype (a float64 target makes a float64 loss, as in PyTorch)
        return _F.div_scalar_op(-terms.sum(), other=input.numel() // classes, dtype=terms.dtype)
    loss = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing > 0:
        return loss
    # Label smoothing mixes in the loss against the uniform distribution over classes, composed
    # as ATen composes it (masked_fill_ of the ignored targets, C++ products with numbers).
    ignored = target == ignore_index
    smooth = -(logp if class_weight is None else logp * class_weight).sum(class_dim)
    smooth.masked_fill_(ignored, 0.0)
    if reduction == "sum":
        smooth = smooth.sum()
    elif reduction == "mean" and weight is None:
        smooth = smooth.sum() / (~ignored).sum()
    elif reduction == "mean":
        smooth = smooth.sum() / weight.gather(0, target.masked_select(~ignored).flatten()).sum()
    kept_part = _F.mul_scalar_op(loss, other=1 - label_smoothing, dtype=loss.dtype)
    return kept_part + _F.mul_scalar_op(smooth, other=label_smoothing / classes, dtype=smooth.dtype)


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors(input, target)``: each expanded (``ExpandBackward0``) only where its
    shape differs from the common one."""
    shape = _F._broadcast_shape(input.shape, target.shape)
    return tuple(t if t.shape == shape else t.expand(shape) for t in (input, target))


@_takes_tensors("input", "target")
def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """``0.5 * d**2 / beta`` where ``d = |input - target| < beta``, else ``d - 0.5 * beta``
    (``SmoothL1LossBackward0``); with ``beta=0`` it is ``l1_loss``, from elementary ops.

    >>> import minigrad as torch
    >>> torch.nn.functional.smooth_l1_loss(torch.tensor([0.5, 3.0]), torch.zeros(2), reduction="none")
    tensor([0.1250, 2.5000])
    """
    _warn_if_shapes_differ(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    input, target = _broadcast_pair(input, target)
    if beta == 0.0:
        return _reduced((input - target).abs(), reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    dtype = _F._operand_dtype((input, target))
    if not dtype.is_floating_point:
        raise _F._no_kernel("smooth_l1_cpu", dtype)
    return _ops.smooth_l1_loss_op(input, target, reduction=reduction, beta=beta, dtype=dtype)


@_takes_tensors("input", "target", "weight")
def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0, weight: Tensor | None = None
) -> Tensor:
    """``0.5 * d**2`` where ``d = |input - target| < delta``, else ``delta * (d - 0.5 * delta)``
    (``HuberLossBackward0``): ``delta`` times ``smooth_l1_loss`` with ``beta=delta``.

    With ``weight`` (the shape of ``input``) each loss is multiplied by it before reducing.
    """
    _warn_if_shapes_differ(input, target)
    shape = input.shape
    input, target = _broadcast_pair(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if not input.dtype.is_floating_point:
        raise _F._no_kernel("huber_cpu", input.dtype)
    if weight is None:
        reduction = _reduction(None, None, reduction)
        return _ops.huber_loss_op(input, target, reduction=reduction, delta=delta, dtype=input.dtype)
    if weight.shape != shape:
        raise ValueError("Weights and input must have the same size.")
    losses = _ops.huber_loss_op(input, target, reduction="none", delta=delta, dtype=input.dtype) * weight
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    return _reduced(losses, reduction)


@_takes_tensors("input", "target")
def kl_div(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """The Kullback-Leibler divergence of ``target`` from log-probabilities ``input``, elementwise
    ``target * (log(target) - input)`` (``xlogy(target, target) - target * input``, so a zero
    target adds 0); with ``log_target`` the target is given as log-probabilities too.

    Built from elementary ops, as in PyTorch. ``reduction='batchmean'`` divides the sum by
    ``input.size(0)`` (the true KL divergence per sample); ``'mean'`` divides by every element and
    warns about it.
    """
    if size_average is not None or reduce is not None:
        used = _reduction(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            _warn.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                UserWarning,
            )
        used = "sum" if reduction == "batchmean" else _reduction(None, None, reduction)
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = _F.xlogy(target, target) - target * input
    loss = _reduced(losses, used)
    if reduction == "batchmean" and input.ndim != 0:
        loss = loss / input.shape[0]
    return loss


def _check_same_dims(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative {negative.ndim}D inputs"
        )


def _number_dtype(input: Tensor, number) -> dtypes.dtype:
    """The dtype of ``input`` with a number (a float makes an integer tensor the default float)."""
    return _F._operand_dtype((input, number))


def _not_differentiable(t: Tensor | None, function: str, name: str) -> None:
    """PyTorch's error for an argument it has no derivative for that requires grad."""
    if t is not None and t.requires_grad:
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument '{name}'. This input "
            f"cannot have requires_grad True; pass {name}.detach()."
        )


@_takes_tensors("input1", "input2", "target", attribute="dim")
def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``: a target of 1 asks ``input1`` to rank
    higher by ``margin``, -1 lower. Composite, as in PyTorch (``ClampMinBackward0`` after
    ``AddBackward1``); the three inputs broadcast, but must have as many dims.

    >>> import minigrad as torch
    >>> x1, x2 = torch.tensor([1.0, 0.2]), torch.tensor([0.5, 0.0])
    >>> torch.nn.functional.margin_ranking_loss(x1, x2, torch.tensor([1.0, -1.0]), margin=0.1, reduction="none")
    tensor([0.0000, 0.3000])
    """
    reduction = _reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    unclamped = -target * (input1 - input2)
    unclamped = _F.add_scalar_op(unclamped, other=margin, dtype=_number_dtype(unclamped, margin))
    return _reduced(unclamped.clamp_min(0), reduction)


@_takes_tensors("input", "target")
def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1 (any other
    target adds both parts), from elementary ops as in PyTorch. ``margin - input`` is computed
    in ``input``'s dtype (PyTorch fills a tensor like ``input`` with the margin).

    >>> import minigrad as torch
    >>> torch.nn.functional.hinge_embedding_loss(torch.tensor([0.3, 0.4]), torch.tensor([1, -1]), reduction="none")
    tensor([0.3000, 0.6000])
    """
    reduction = _reduction(size_average, reduce, reduction)
    zeros = zeros_like(input)
    margin_clamp = (full_like(input, margin) - input).clamp_min(0)
    output_margin = _F.where(target != 1, margin_clamp, zeros)
    output_self = _F.where(target != -1, input, zeros)
    return _reduced(output_margin + output_self, reduction)


@_takes_tensors("input", "target")
def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))`` for targets of 1 or -1 (``SoftMarginLossBackward0``,
    a kernel in PyTorch); ``target`` broadcasts to ``input``'s shape and is not differentiable.

    >>> import minigrad as torch
    >>> torch.nn.functional.soft_margin_loss(torch.tensor([0.0, 2.0]), torch.tensor([1.0, -1.0]), reduction="none")
    tensor([0.6931, 2.1269])
    """
    reduction = _reduction(size_average, reduce, reduction)
    _not_differentiable(target, "soft_margin_loss", "target")
    shape = _F._broadcast_shape(input.shape, target.shape)
    if shape != input.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {input.dtype._legacy_name}")
    target = target.to(input.dtype)
    return _ops.soft_margin_loss_op(input, target=_F._kept(target, input), reduction=reduction)


@_takes_tensors("input", "target", "weight")
def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Binary cross-entropy of ``sigmoid(input)`` per class against 0/1 ``target``, averaged over
    the classes (the last dim), from ``logsigmoid`` as in PyTorch; ``weight`` weighs each class.

    >>> import minigrad as torch
    >>> loss = torch.nn.functional.multilabel_soft_margin_loss(torch.tensor([[0.0, 2.0]]), torch.tensor([[1.0, 0.0]]))
    >>> round(loss.item(), 4)
    1.41
    """
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    if input.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    return _reduced(loss.sum(dim=class_dim) / input.shape[class_dim], reduction)


@_takes_tensors("input1", "input2", "target")
def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``1 - cos(input1, input2)`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1
    (0 for any other target), for rows of 2-D inputs and a 1-D target (or 1-D inputs and a 0-d
    target). Composite, as in PyTorch: the cosine is ``sum(x1 * x2) / sqrt((|x1|² + 1e-12) (|x2|² + 1e-12))``.

    >>> import minigrad as torch
    >>> x1, x2 = torch.tensor([[1.0, 0.0], [1.0, 0.0]]), torch.tensor([[1.0, 1.0], [1.0, 1.0]])
    >>> torch.nn.functional.cosine_embedding_loss(x1, x2, torch.tensor([1, -1]), reduction="none")
    tensor([0.2929, 0.7071])
    """
    reduction = _reduction(size_average, reduce, reduction)
    targ_dim = target.ndim
    if targ_dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != targ_dim + 1 or input2.ndim != targ_dim + 1:
        raise RuntimeError(
            f"{targ_dim}D target tensor expects {targ_dim + 1}D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    eps = 1e-12  # PyTorch's EPSILON, added to each squared magnitude
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1, mag_square2 = ((x * x).sum(targ_dim) for x in (input1, input2))
    mag_square1, mag_square2 = (
        _F.add_scalar_op(m, other=eps, dtype=_number_dtype(m, eps)) for m in (mag_square1, mag_square2)
    )
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = zeros_like(cos)
    pos = full_like(cos, 1) - cos  # PyTorch's ``1 - cos``: a tensor of ones minus cos
    neg = _F.sub_scalar_op(cos, other=margin, dtype=_number_dtype(cos, margin)).clamp_min(0)
    output = _F.where(target == 1, pos, zeros) + _F.where(target == -1, neg, zeros)
    return _reduced(output, reduction)


@_takes_tensors("anchor", "positive", "negative")
def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` the
    ``pairwise_distance`` (``p``, ``eps``); with ``swap`` the negative's distance is the smaller
    of its distances to the anchor and to the positive. Composite, as in PyTorch.

    >>> import minigrad as torch
    >>> a, pos, neg = torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), torch.tensor([[1.0, 0.0]])
    >>> torch.nn.functional.triplet_margin_loss(a, pos, neg, eps=0.0)
    tensor(5.)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_same_dims(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = _F.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    shifted = _F.add_scalar_op(dist_pos, other=margin, dtype=_number_dtype(dist_pos, margin))  # C++'s margin + d
    return _reduced((shifted - dist_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function=None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """``triplet_margin_loss`` with any ``distance_function(x1, x2)`` (by default
    ``pairwise_distance``), written in Python as in PyTorch.

    >>> import minigrad as torch
    >>> a, pos, neg = torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), torch.tensor([[1.0, 0.0]])
    >>> l1 = lambda x, y: (x - y).abs().sum(-1)
    >>> torch.nn.functional.triplet_margin_with_distance_loss(a, pos, neg, distance_function=l1)
    tensor(7.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_same_dims(anchor, positive, negative)
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = _F.minimum(dist_neg, distance_function(positive, negative))
    return _reduced((margin + dist_pos - dist_neg).clamp_min(0), reduction)


@_takes_tensors("input", "target")
def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average=None,
    eps: float = 1e-8,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The negative log-likelihood of ``target`` under a Poisson distribution of rate
    ``exp(input)`` (``log_input``, the default: ``exp(input) - target * input``) or ``input``
    (``input - target * log(input + eps)``). With ``full`` the Stirling term
    ``target * log(target) - target + 0.5 * log(2 pi target)`` is added where ``target > 1``.
    Composite, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.nn.functional.poisson_nll_loss(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]), reduction="none")
    tensor([1.0000, 0.7183])
    """
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * _F.add_scalar_op(input, other=eps, dtype=_number_dtype(input, eps)).log()
    if full:
        # PyTorch's C++ ``0.5 * log(2 * pi * target)``: two multiplications by a number (MulBackward1)
        scaled = _F.mul_scalar_op(target, other=2 * math.pi, dtype=_number_dtype(target, 2 * math.pi)).log()
        half = _F.mul_scalar_op(scaled, other=0.5, dtype=scaled.dtype)
        stirling = target * target.log() - target + half
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


@_takes_tensors("input", "target")
def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var: Tensor | float,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """The negative log-likelihood of ``target`` under a Gaussian of mean ``input`` and variance
    ``var``: ``0.5 * (log(var) + (input - target)**2 / var)`` (plus ``0.5 * log(2 pi)`` with
    ``full``), written in Python as in PyTorch.

    ``var`` is a float, a tensor of ``input``'s shape, or one with a single dim of size 1 (or the
    last dim missing) for one variance shared along that dim. It is clamped at ``eps`` in place
    on a clone, outside autograd: its gradient flows as if unclamped (``CloneBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.gaussian_nll_loss(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]), 1.0, reduction="none")
    tensor([0.5000, 0.0000])
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif not isinstance(var, Tensor):
        # PyTorch runs torch.any(var < 0), which takes only a tensor
        raise TypeError(f"any() received an invalid combination of arguments - got ({type(var < 0).__name__})")
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:  # one variance per row of the last dim
            var = var.unsqueeze(-1)
        elif not (  # or a size-1 dim where input has more: one variance shared along it
            input.ndim == var.ndim and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    if not var.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {var.dtype._legacy_name}")
    var = var.clone()
    with no_grad():
        var.clamp_min_(eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def _check_margin_input(input: Tensor) -> tuple[int, int]:
    """The number of samples and classes of a (C,) or (N, C) input (a 0-d input is one of one)."""
    ndim, shape = input.ndim, input.shape
    if not ((ndim == 2 and shape[1] != 0) or (ndim == 1 and shape[0] != 0) or ndim == 0):
        raise RuntimeError(
            f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(shape)}"
        )
    return (1, shape[0] if ndim else 1) if ndim <= 1 else shape


def _check_margin_dtypes(input: Tensor, target: Tensor, kernel: str) -> None:
    if input.dtype not in (dtypes.float32, dtypes.float64):
        raise _F._no_kernel(kernel, input.dtype)
    if target.dtype is not dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._legacy_name}")


@_takes_tensors("input", "target", "weight")
def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The multi-class hinge loss of scores ``input`` (C,) or (N, C) and class indices ``target``:
    per sample, ``sum over i != y of max(0, margin - input[y] + input[i]) ** p / C`` (times
    ``weight[y]``). ``MultiMarginLossBackward0``, a kernel in PyTorch, whose backward cannot be
    differentiated again.

    >>> import minigrad as torch
    >>> torch.nn.functional.multi_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
    tensor(0.3250)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    _not_differentiable(weight, "multi_margin_loss", "weight")
    nframe, dim = _check_margin_input(input)
    if target.ndim > 1 or target.numel() != nframe:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
            f"(batch size). Expected target size [{nframe}], but got {list(target.shape)}. "
            f"Input has shape {list(input.shape)}."
        )
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    _check_margin_dtypes(input, target, "multi_margin_loss_cpu_kernel")
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._legacy_name} but found {weight.dtype._legacy_name}")
    values = target._data
    if values.size and bool(((values < 0) | (values >= dim)).any()):
        raise RuntimeError("target out of range")
    return _ops.multi_margin_loss_op(
        input,
        target=_F._kept(target, input),
        p=p,
        margin=margin,
        weight=None if weight is None else _F._kept(weight, input),
        reduction=reduction,
    )


@_takes_tensors("input", "target")
def multilabel_margin_loss(
    input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean"
) -> Tensor:
    """The multi-label hinge loss of scores ``input`` (C,) or (N, C): each row of ``target`` (of
    ``input``'s shape) lists the sample's classes, ended by the first -1; the loss is the sum over
    listed classes j and other classes i of ``max(0, 1 - input[j] + input[i])``, divided by C.
    ``MultilabelMarginLossBackward0``, a kernel in PyTorch, whose backward cannot be
    differentiated again.

    >>> import minigrad as torch
    >>> torch.nn.functional.multilabel_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """
    reduction = _reduction(size_average, reduce, reduction)
    nframe, dim = _check_margin_input(input)
    fits = target.ndim <= 1 and target.numel() == dim if input.ndim <= 1 else target.shape == (nframe, dim)
    if not fits:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    _check_margin_dtypes(input, target, "multilabel_margin_loss_forward_out_frame")
    values = target._data
    if values.size and bool(((values < -1) | (values >= dim)).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    return _ops.multilabel_margin_loss_op(input, target=_F._kept(target, input), reduction=reduction)


# ---------------------------------------------------------------------------------------------- distances
@_takes_tensors("input", attribute="norm")
def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim``, the norm kept at least ``eps`` (so a zero
    vector stays zero): ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``.

    >>> import minigrad as torch
    >>> torch.nn.functional.normalize(torch.tensor([[3.0, 4.0], [0.0, 0.0]]))
    tensor([[0.6000, 0.8000],
            [0.0000, 0.0000]])
    """
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


@_takes_tensors("x1", "x2")
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (they broadcast), as
    PyTorch computes it: each divided by its 2-norm, kept at least ``eps``, then the products
    summed along ``dim``.

    The norms are cloned and clamped in place outside autograd, so their gradient flows as if
    unclamped (``CloneBackward0`` after ``LinalgVectorNormBackward0``), as in PyTorch.

    >>> import minigrad as torch
    >>> torch.nn.functional.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]]))
    tensor([0.7071])
    """
    dtype = _F._operand_dtype((x1, x2))
    if not dtype.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {dtype._legacy_name}")
    x1, x2 = (x if x.dtype.is_floating_point else x.to(dtype) for x in (x1, x2))
    if x1.shape != x2.shape:  # both expanded, as PyTorch's expand_outplace does
        shape = _F._broadcast_shape(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    norm1, norm2 = (x.norm(2, dim, keepdim=True).clone() for x in (x1, x2))
    with no_grad():
        norm1.clamp_min_(eps)
        norm2.clamp_min_(eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


@_takes_tensors("x1", "x2")
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dim (they broadcast), as PyTorch
    computes it (``NormBackward1`` after ``AddBackward1``).

    >>> import minigrad as torch
    >>> torch.nn.functional.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), eps=0.0)
    tensor([5.])
    """
    diff = x1 - x2
    dtype = diff.dtype if diff.dtype.is_floating_point else dtypes.get_default_dtype()
    shifted = _F.add_scalar_op(diff, other=eps, dtype=dtype)
    dim = (max(x1.ndim, x2.ndim) - 1,) if diff.ndim else None
    return _ops.norm_dim_op(shifted, p=p, dim=dim, keepdim=keepdim)


# ---------------------------------------------------------------------------------------------- encoding
def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices (int64) as one-hot rows: a new last dim of ``num_classes`` (by default one
    more than the largest index) that is 1 at the index and 0 elsewhere, as int64.

    >>> import minigrad as torch
    >>> torch.nn.functional.one_hot(torch.tensor([2, 0]), 3)
    tensor([[0, 0, 1],
            [1, 0, 0]])
    """
    if not isinstance(tensor, Tensor) or tensor.dtype is not dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if not tensor.numel():
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    elif tensor.min().item() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = tensor.max().item() + 1
    elif tensor.max().item() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == arange(num_classes, device=tensor.device)).long()


from .attention import multi_head_attention_forward, scaled_dot_product_attention  # noqa: E402, F401 (exported)


# --- weight norm ---
def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept, the others of size 1); over all
    of ``v`` for ``dim=-1``. PyTorch's ``torch.norm_except_dim``, with its nodes.

    >>> import minigrad as torch
    >>> torch.norm_except_dim(torch.tensor([[3.0, 4.0], [0.0, 1.0]]), 2, 0)
    tensor([[5.],
            [1.]])
    """
    if dim == -1:  # ATen's norm (NormBackward0/1), not linalg.vector_norm as Tensor.norm records
        return _ops.norm_all_op(v, p=pow, dim=None, keepdim=False)
    if dim == 0:
        rows = _ops.norm_dim_op(v.contiguous().view(v.shape[0], -1), p=pow, dim=(1,), keepdim=False)
        return rows.view(v.shape[0], *(1,) * (v.ndim - 1))
    if dim == v.ndim - 1:
        cols = _ops.norm_dim_op(v.contiguous().view(-1, v.shape[-1]), p=pow, dim=(0,), keepdim=False)
        return cols.view(*(1,) * (v.ndim - 1), v.shape[-1])
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """``v * g / norm_except_dim(v, 2, dim)``: one fused node (``WeightNormInterfaceBackward0``)
    for ``dim`` 0 or the last, as PyTorch's CPU kernel; else its composite ops."""
    v, g = v.contiguous(), g.contiguous()
    if dim in (0, v.ndim - 1) and v.dtype is not dtypes.float16 and g.dtype is not dtypes.float16:
        return _ops.weight_norm_interface_op(v, g, dim=dim)
    return v * (g / norm_except_dim(v, 2, dim))


# --- 3-d and transposed convolutions ---
@_takes_tensors("input", "weight", "bias")
def conv3d(
    input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1, groups: int = 1
) -> Tensor:
    """3-D cross-correlation of a (N, C, D, H, W) or (C, D, H, W) input with (O, C/groups, kd, kh, kw)
    weights; ``padding`` is an int, a triple, ``'valid'`` or ``'same'``. One ``ConvolutionBackward0``.

    >>> import minigrad as torch
    >>> x = torch.ones(1, 1, 2, 2, 2)
    >>> torch.nn.functional.conv3d(x, torch.ones(1, 1, 2, 2, 2))
    tensor([[[[[8.]]]]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3)


def _tensor_type(t: Tensor) -> str:
    return f"torch.{t.dtype._legacy_name}Tensor"


def _conv_transpose(input: Tensor, weight: Tensor, bias, stride, padding, output_padding, groups, dilation, dims: int):
    """conv_transpose1d/2d/3d: PyTorch's checks, then one ``ConvolutionBackward0`` (transposed),
    between an unsqueeze and a squeeze for an unbatched input, as PyTorch records it."""
    name = f"conv_transpose{dims}d"
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got input of size: "
            f"{list(input.shape)}"
        )
    if input.ndim == dims + 1:
        args = (weight, bias, stride, padding, output_padding, groups, dilation, dims)
        return _conv_transpose(input.unsqueeze(0), *args).squeeze(0)
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    n = weight.ndim - 2  # PyTorch reads the number of spatial dims off the weight
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride, padding = _ntuple(_as_given(stride, dims), "stride", n), _ntuple(_as_given(padding, dims), "padding", n)
    dilation = _ntuple(_as_given(dilation, dims), "dilation", n)
    output_padding = _ntuple(_as_given(output_padding, dims), "output_padding", n)
    if min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(output_padding) < 0:
        raise RuntimeError("negative output_padding is not supported")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) < 0:
        raise RuntimeError("dilation should be greater than zero")
    if weight.ndim != input.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight {list(weight.shape)}, "
            f"but got {input.ndim}-dimensional input of size {list(input.shape)} instead"
        )
    if weight.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size "
            f"{list(weight.shape)} instead"
        )
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of "
            f"size [{list(weight.shape)}] instead"
        )
    if input.shape[1] != weight.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input{list(input.shape)} to have "
            f"{weight.shape[0]} channels, but got {input.shape[1]} channels instead"
        )
    out_channels = weight.shape[1] * groups
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{out_channels} elements, but got bias of size {list(bias.shape)} instead"
        )
    axes = ("depth", "height", "width")[-max(n, 2) :]  # PyTorch's kernel names each dim (1-d: as 2-d)
    if min(dilation) == 0:
        words = [f"dilation_{axis}: {v}" for axis, v in zip(axes, (1,) * (len(axes) - n) + dilation)]
        raise RuntimeError(f"dilation should be greater than zero, but got {', '.join(words)}")
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)):
        full = [(0,) * (len(axes) - n) + tuple(v) for v in (output_padding, stride, dilation)]
        names = ("output_padding", "stride", "dilation")
        words = [f"{what}_{axis}: {v}" for what, vs in zip(names, full) for axis, v in zip(axes, vs)]
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {' '.join(words)}")
    if 0 in input.shape[2:]:
        raise RuntimeError(
            f"Only zero batch or zero channel inputs are supported, but got input shape: {list(input.shape)}"
        )
    out = _ops._transposed_out(input.shape[2:], weight.shape[2:], stride, padding, dilation, output_padding)
    if min(out) < 1:  # (PyTorch's oneDNN kernel fails here with a less telling message)
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, input.shape[2:]))}). Calculated output size "
            f"per channel: ({' x '.join(map(str, out))}). Output size is too small"
        )
    for other, what in ((weight, "weight"), (bias, "bias")):
        if other is not None and other.dtype is not input.dtype:
            raise _conv_dtype_error(input, other, what)
    if bias is None:
        bias = zeros(out_channels, dtype=weight.dtype, device=weight.device)  # needs no grad: no edge
    return _ops.convolution_op(
        input,
        weight,
        bias,
        stride=stride,
        padding=padding,
        dilation=dilation,
        transposed=True,
        output_padding=output_padding,
        groups=groups,
    )


@_takes_tensors("input", "weight", "bias")
def conv_transpose1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """1-D transposed convolution of a (N, C_in, L) or (C_in, L) input with (C_in, C_out/groups, k)
    weights: each input position adds its value times the kernel into the output, ``stride``
    apart (the input gradient of :func:`conv1d`). The output has length
    ``(L - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1``. One
    ``ConvolutionBackward0`` node (transposed), as in PyTorch.

    >>> import minigrad as torch
    >>> x = torch.tensor([[[1.0, 2.0]]])
    >>> torch.nn.functional.conv_transpose1d(x, torch.tensor([[[1.0, 10.0]]]), stride=2)
    tensor([[[ 1., 10.,  2., 20.]]])
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


@_takes_tensors("input", "weight", "bias")
def conv_transpose2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """2-D transposed convolution of a (N, C_in, H, W) or (C_in, H, W) input with
    (C_in, C_out/groups, kh, kw) weights (the input gradient of :func:`conv2d`).

    >>> import minigrad as torch
    >>> torch.nn.functional.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2))
    tensor([[[[1., 2., 1.],
              [2., 4., 2.],
              [1., 2., 1.]]]])
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


@_takes_tensors("input", "weight", "bias")
def conv_transpose3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """3-D transposed convolution of a (N, C_in, D, H, W) or (C_in, D, H, W) input with
    (C_in, C_out/groups, kd, kh, kw) weights (the input gradient of :func:`conv3d`).

    >>> import minigrad as torch
    >>> torch.nn.functional.conv_transpose3d(torch.ones(1, 1, 1, 1, 1), torch.ones(1, 2, 1, 1, 2)).shape
    torch.Size([1, 2, 1, 1, 2])
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


@_takes_tensors("input", attribute="dim")
def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each whole channel (dim 1) of a (N, C, D, H, W) or (C, D, H, W) input with probability
    ``p`` and scale the rest by ``1/(1-p)`` (when training; ``MulBackward0``). The mask is drawn
    from PyTorch's stream, as :func:`dropout1d`'s; other dims warn, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.nn.functional.dropout3d(torch.ones(1, 2, 1, 1, 1), 0.5, training=False).shape
    torch.Size([1, 2, 1, 1, 1])
    """
    _check_probability(p)
    if input.ndim not in (4, 5):
        _warn.warn(
            f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is deprecated and will result in an "
            "error in a future release. To retain the behavior and silence this warning, please use dropout "
            "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
            "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
        )
    if input.ndim != 5:  # as a batch of one (in place: the input itself, unsqueezed and squeezed back)
        if inplace:
            return _dropout(input.unsqueeze_(0), p, training, inplace, feature=True).squeeze_(0)
        return _dropout(input.unsqueeze(0), p, training, inplace, feature=True).squeeze(0)
    return _dropout(input, p, training, inplace, feature=True)


def _triple(value, function: str, name: str) -> tuple[int, int, int]:
    """An int or a sequence of one or three ints as (d, h, w), with PyTorch's error otherwise."""
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(value)
    if len(value) not in (1, 3):
        raise RuntimeError(f"{function}: {name} {_POOL_ARGUMENT[name]}, or a tuple of three ints")
    return tuple(int(v) for v in value) * (3 // len(value))


def _pool3d_geometry(input: Tensor, function: str, kernel_size, stride, padding, dilation, ceil_mode: bool):
    """kernel, stride, padding and dilation as triples, after PyTorch's checks of them and of the
    (N, C, D, H, W) or (C, D, H, W) input."""
    kernel = _triple(kernel_size, function, "kernel_size")
    stride = kernel if stride is None or stride == [] else _triple(stride, function, "stride")
    padding, dilation = _triple(padding, function, "padding"), _triple(dilation, function, "dilation")
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    _pool_output(input, function, kernel, stride, padding, dilation, ceil_mode)
    return {"kernel_size": kernel, "stride": stride, "padding": padding, "dilation": dilation, "ceil_mode": ceil_mode}


@_takes_tensors("input")
def max_pool3d(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """:func:`max_pool2d` over the last three dims of a (N, C, D, H, W) or (C, D, H, W) input
    (``MaxPool3DWithIndicesBackward0``); the indices are flat positions in each (D, H, W) volume.

    >>> import minigrad as torch
    >>> torch.nn.functional.max_pool3d(torch.arange(8.0).reshape(1, 2, 2, 2), 2, return_indices=True)
    (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """
    params = _pool3d_geometry(input, "max_pool3d", kernel_size, stride, padding, dilation, ceil_mode)
    indices = backend.compute(input.device, _ops.sliding_max_indices3d, [input._data], params)
    return _with_indices(_ops.max_pool3d_op, input, indices, return_indices, **params)


@_takes_tensors("input")
def avg_pool3d(
    input: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """:func:`avg_pool2d` over the last three dims of a (N, C, D, H, W) or (C, D, H, W) input
    (``AvgPool3DBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.functional.avg_pool3d(torch.arange(8.0).reshape(1, 2, 2, 2), 2)
    tensor([[[[3.5000]]]])
    """
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    params = _pool3d_geometry(input, "avg_pool3d", kernel_size, stride, padding, 1, ceil_mode)
    del params["dilation"]
    return _ops.avg_pool3d_op(input, count_include_pad=count_include_pad, divisor_override=divisor_override, **params)


def _adaptive_size3d(input: Tensor, output_size, function: str) -> tuple[int, int, int]:
    """``output_size`` (an int, or a triple whose None entries keep the input's size) as (d, h, w)."""
    if input.ndim not in (4, 5):
        space = " " if function == "adaptive_avg_pool3d" else ": "
        raise RuntimeError(f"{function}(): Expected 4D or 5D tensor, but got{space}{list(input.shape)}")
    size = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 3:
        if function == "adaptive_avg_pool3d":
            raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
        raise RuntimeError("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    size = tuple(input.shape[d] if n is None else int(n) for d, n in zip((-3, -2, -1), size))
    if min(size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {[*input.shape[:-3], *size]}")
    first = input.ndim - (4 if function == "adaptive_max_pool3d" else 3)  # max pooling: the channels too
    for d in range(first, input.ndim):
        if input.shape[d] == 0:
            raise RuntimeError(
                f"{function}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
                f"{list(input.shape)} with dimension {d} being empty"
            )
    return size


@_takes_tensors("input")
def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average a (N, C, D, H, W) or (C, D, H, W) input down to ``output_size``, as
    :func:`adaptive_avg_pool2d` does in 2-d (``AdaptiveAvgPool3DBackward0``; to a size of 1 a
    ``mean``, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_avg_pool3d(torch.arange(8.0).reshape(1, 2, 2, 2), (1, 1, 2))
    tensor([[[[3., 4.]]]])
    """
    size = _adaptive_size3d(input, output_size, "adaptive_avg_pool3d")
    _check_floating(input, "adaptive_avg_pool3d_cpu")
    if size == (1, 1, 1):
        return input.mean((-1, -2, -3), keepdim=True)
    return _ops.adaptive_avg_pool3d_op(input, output_size=size)


@_takes_tensors("input")
def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The largest value of each window of :func:`adaptive_avg_pool3d` (``AdaptiveMaxPool3DBackward0``);
    with ``return_indices`` also each maximum's flat position in its (D, H, W) volume.

    >>> import minigrad as torch
    >>> torch.nn.functional.adaptive_max_pool3d(torch.arange(8.0).reshape(1, 2, 2, 2), (1, 1, 2))
    tensor([[[[6., 7.]]]])
    """
    size = _adaptive_size3d(input, output_size, "adaptive_max_pool3d")
    _check_floating(input, "adaptive_max_pool3d_cpu")
    indices = backend.compute(input.device, _ops.adaptive_max_indices3d, [input._data], {"output_size": size})
    return _with_indices(_ops.adaptive_max_pool3d_op, input, indices, return_indices)


# max_unpool, the *_with_indices forms, channel_shuffle
def _unpool_output_size(input: Tensor, kernel: tuple, stride: tuple, padding: tuple, output_size) -> list[int]:
    """The unpooled spatial size: the pooled input's, or ``output_size`` (with or without the
    batch and channel dims) within a stride of it, as PyTorch checks it."""
    k = len(kernel)
    default = [(input.shape[input.ndim - k + d] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(k)]
    if output_size is None:
        return default
    if len(output_size) == k + 2:
        output_size = output_size[2:]
    if len(output_size) != k:
        raise ValueError(
            f"output_size should be a sequence containing {k} or {k + 2} elements, but it has a length of "
            f"'{len(output_size)}'"
        )
    for d in range(k):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return list(output_size)


def _max_unpool(input: Tensor, indices: Tensor, kernel_size, stride, padding, output_size, dims: int) -> Tensor:
    """max_unpool1d/2d/3d: a 1-d unpool is the 2-d one of ``input.unsqueeze(-1)``, as in PyTorch."""
    kernel = _ntuple(kernel_size, "kernel_size", dims)
    stride = kernel if stride is None else _ntuple(stride, "stride", dims)
    padding = _ntuple(padding, "padding", dims)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    if dims == 1:
        return _unpool_checked(input.unsqueeze(-1), indices.unsqueeze(-1), [*size, 1], 2, (0, 0), (0, 0)).squeeze(-1)
    return _unpool_checked(input, indices, size, dims, stride, padding)


def _unpool_checked(input: Tensor, indices: Tensor, size: list, dims: int, stride, padding) -> Tensor:
    if indices.dtype is not dtypes.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype._legacy_name}")
    if input.ndim not in (dims + 1, dims + 2):
        low, high = (3, 4) if dims == 2 else (4, 5)
        raise RuntimeError(
            f"Input to max_unpooling{dims}d should be a {low}d or {high}d Tensor, but got a tensor with "
            f"{input.ndim} dimensions."
        )
    if indices.shape != input.shape:
        raise RuntimeError(
            f"Expected shape of indices to be same as that of the input tensor ({list(input.shape)}) but got indices "
            f"tensor with shape: {list(indices.shape)}"
        )
    positions = indices._data
    bad = backend.compute(input.device, lambda xp, a: a[(a < 0) | (a >= math.prod(size))][:1], [positions], {})
    if bad.size:
        raise RuntimeError(
            f"Found an invalid max index: {int(bad[0])} (output volumes are of size {'x'.join(map(str, size))})"
        )
    size = tuple(int(s) for s in size)
    if dims == 2:
        return _ops.max_unpool2d_op(input, indices=positions, output_size=size)
    return _ops.max_unpool3d_op(input, indices=positions, output_size=size, stride=stride, padding=padding)


@_takes_tensors("input", "indices")
def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of :func:`max_pool1d`: zeros, with each value of ``input`` put back where
    ``indices`` (from ``max_pool1d(..., return_indices=True)``) says its maximum was
    (``MaxUnpool2DBackward0`` between an unsqueeze and a squeeze, as in PyTorch).

    >>> import minigrad as torch
    >>> x = torch.tensor([[1.0, 3.0, 2.0, 0.0]])
    >>> out, indices = torch.nn.functional.max_pool1d(x, 2, return_indices=True)
    >>> torch.nn.functional.max_unpool1d(out, indices, 2)
    tensor([[0., 3., 2., 0.]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


@_takes_tensors("input", "indices")
def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of :func:`max_pool2d` (``MaxUnpool2DBackward0``): ``output_size`` picks among
    the sizes that pool to the input's.

    >>> import minigrad as torch
    >>> x = torch.tensor([[[1.0, 2.0], [4.0, 3.0]]])
    >>> out, indices = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
    >>> torch.nn.functional.max_unpool2d(out, indices, 2, output_size=(3, 2))
    tensor([[[0., 0.],
             [4., 0.],
             [0., 0.]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


@_takes_tensors("input", "indices")
def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of :func:`max_pool3d` (``MaxUnpool3DBackward0``).

    >>> import minigrad as torch
    >>> x = torch.arange(8.0).reshape(1, 2, 2, 2)
    >>> out, indices = torch.nn.functional.max_pool3d(x, 2, return_indices=True)
    >>> torch.nn.functional.max_unpool3d(out, indices, 2).flatten()
    tensor([0., 0., 0., 0., 0., 0., 0., 7.])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def _always_with_indices(pool):
    """``pool`` giving ``(values, indices)`` whatever ``return_indices`` says: PyTorch's
    ``F.max_pool2d_with_indices`` and the like, with ``pool``'s signature."""
    signature = inspect.signature(pool)

    def with_indices(*args, **kwargs) -> tuple[Tensor, Tensor]:
        bound = signature.bind(*args, **kwargs)
        bound.arguments["return_indices"] = True
        return pool(*bound.args, **bound.kwargs)

    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = f":func:`{pool.__name__}` and its indices, whatever ``return_indices`` says."
    with_indices.__signature__ = signature
    return with_indices


max_pool1d_with_indices = _always_with_indices(max_pool1d)
max_pool2d_with_indices = _always_with_indices(max_pool2d)
max_pool3d_with_indices = _always_with_indices(max_pool3d)
adaptive_max_pool1d_with_indices = _always_with_indices(adaptive_max_pool1d)
adaptive_max_pool2d_with_indices = _always_with_indices(adaptive_max_pool2d)
adaptive_max_pool3d_with_indices = _always_with_indices(adaptive_max_pool3d)


@_takes_tensors("input")
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Shuffle the channels (dim 1) of a (N, C, *) input: split into ``groups`` groups of C/groups
    channels, and interleave them (channel ``g * C/groups + i`` goes to ``i * groups + g``), as
    ShuffleNet does. One ``ChannelShuffleBackward0`` node.

    >>> import minigrad as torch
    >>> torch.nn.functional.channel_shuffle(torch.arange(4.0).reshape(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    if input.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if input.shape[1] % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {input.shape[1]} channels and {groups} groups."
        )
    return _ops.channel_shuffle_op(input, groups=groups)


@_takes_tensors("input")
def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distance between each pair of rows of an (N, M) input, rows i < j in order:
    the upper triangle of ``torch.cdist(input, input)``, N(N-1)/2 values. One ``PdistBackward0``
    node, whose backward, as in PyTorch, cannot be differentiated again.

    >>> import minigrad as torch
    >>> torch.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
    tensor([5.0000, 1.0000, 4.2426])
    """
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return _ops.pdist_op(input, p=float(p))


def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each ``kernel_size`` window of a (N, C, D, H, W) or (C, D, H, W)
    input, through :func:`avg_pool3d` (see :func:`lp_pool1d`).

    >>> import minigrad as torch
    >>> torch.nn.functional.lp_pool3d(torch.tensor([[[[3.0, 4.0]]]]), 2, (1, 1, 2))
    tensor([[[[5.]]]])
    """
    kd, kh, kw = _triple(kernel_size, "lp_pool3d", "kernel_size")
    if isinstance(norm_type, int | float) and math.isinf(norm_type):
        return _lp_pool_infinite(max_pool3d, input, norm_type, kernel_size, stride, ceil_mode)
    if stride is not None:
        out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool3d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_root(out, norm_type, kd * kh * kw)
