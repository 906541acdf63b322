"""Convolution layers, as in ``torch.nn``: ``Conv1d``, ``Conv2d`` and ``Conv3d``, built on
:func:`minigrad.nn.functional.conv1d` and its kin, and ``ConvTranspose1d``/``2d``/``3d``, built on
:func:`~minigrad.nn.functional.conv_transpose1d` and its kin."""

from __future__ import annotations

import math

from ..factories import empty
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """What the convolutions share; ``_dims`` is the number of spatial dims, ``_transposed`` says
    whether the layer is a transposed convolution (whose weight is (C_in, C_out/groups, *kernel))."""

    _dims = 2
    _transposed = False

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
        *,
        _output_padding=0,  # (the transposed layers' alone: PyTorch's Conv2d takes no output_padding)
    ) -> None:
        super().__init__()
        n = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        self.kernel_size = F._ntuple(kernel_size, "kernel_size", n)
        self.stride = F._ntuple(stride, "stride", n)
        self.dilation = F._ntuple(dilation, "dilation", n)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = F._ntuple(padding, "padding", n)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {set(_PADDING_MODES)}, but got padding_mode={padding_mode!r}"
            )
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.padding_mode = padding_mode
        self.transposed, self.output_padding = self._transposed, F._ntuple(_output_padding, "output_padding", n)
        # F.pad's widths for the other padding modes: last dim first, (before, after) each
        self._reversed_padding_repeated_twice = _reversed_padding(self.padding, self.kernel_size, self.dilation)
        shape = (in_channels, out_channels // groups) if self.transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(empty((*shape, *self.kernel_size), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # as nn.Linear: uniform in ±1/sqrt(fan_in), fan_in = in_channels/groups * prod(kernel_size)
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._dims - 1]
        if self.padding_mode != "zeros":  # padded first, then convolved without padding, as in PyTorch
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        n = self._dims
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * n:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


def _reversed_padding(padding, kernel_size: tuple, dilation: tuple) -> tuple | list:
    """(before, after) per spatial dim, last dim first; ``'same'`` puts an odd extra one after."""
    if padding == "valid":  # (a list for a padding string, a tuple otherwise, as in PyTorch)
        return [0, 0] * len(kernel_size)
    if padding == "same":
        totals = [d * (k - 1) for d, k in zip(dilation, kernel_size)]
        return [v for t in reversed(totals) for v in (t // 2, t - t // 2)]
    return tuple(p for p in reversed(padding) for _ in range(2))


class Conv1d(_ConvNd):
    """Cross-correlate (N, C_in, L) sequences with ``out_channels`` learned (C_in/groups, k) kernels.

    >>> from minigrad import nn
    >>> nn.Conv1d(4, 6, 3, padding=1, groups=2)
    Conv1d(4, 6, kernel_size=(3,), stride=(1,), padding=(1,), groups=2)
    """

    _dims = 1


class Conv2d(_ConvNd):
    """Cross-correlate (N, C_in, H, W) images with ``out_channels`` learned (C_in/groups, kh, kw) kernels.

    >>> from minigrad import nn
    >>> nn.Conv2d(1, 3, 2)
    Conv2d(1, 3, kernel_size=(2, 2), stride=(1, 1))
    """

    _dims = 2


class Conv3d(_ConvNd):
    """Cross-correlate (N, C_in, D, H, W) volumes with ``out_channels`` learned
    (C_in/groups, kd, kh, kw) kernels.

    >>> from minigrad import nn
    >>> nn.Conv3d(2, 4, (1, 2, 3), stride=2)
    Conv3d(2, 4, kernel_size=(1, 2, 3), stride=(2, 2, 2))
    """

    _dims = 3


class _ConvTransposeNd(_ConvNd):
    """What the transposed convolutions share: PyTorch's argument order, only zero padding, and
    ``output_size=`` in forward, which picks the output padding."""

    _transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups: int = 1,
        bias: bool = True,
        dilation=1,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
            _output_padding=output_padding,
        )

    def _output_padding(self, input: Tensor, output_size) -> tuple:
        """``output_padding``, or (given ``output_size``, with or without the batch and channel
        dims) the padding that makes the output that size, as PyTorch checks and computes it."""
        n = self._dims
        if output_size is None:
            return self.output_padding
        lead = 2 if input.ndim == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(
                f"ConvTranspose{n}D: for {input.ndim}D input, output_size must have {n} or {lead + n} elements "
                f"(got {len(output_size)})"
            )
        sizes = input.shape[lead:]
        low = [
            (i - 1) * s - 2 * p + d * (k - 1) + 1
            for i, s, p, d, k in zip(sizes, self.stride, self.padding, self.dilation, self.kernel_size)
        ]
        high = [m + s - 1 for m, s in zip(low, self.stride)]
        if any(not a <= size <= b for size, a, b in zip(output_size, low, high)):
            raise ValueError(
                f"requested an output size of {output_size}, but valid sizes range from {low} to {high} "
                f"(for an input of {input.shape[2:]})"
            )
        return tuple(size - m for size, m in zip(output_size, low))

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._dims - 1]
        output_padding = self._output_padding(input, output_size)
        return conv(
            input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups, self.dilation
        )


class ConvTranspose1d(_ConvTransposeNd):
    """The transposed convolution of (N, C_in, L) sequences (the input gradient of a Conv1d):
    a learned (C_in, C_out/groups, k) weight.

    >>> from minigrad import nn
    >>> nn.ConvTranspose1d(4, 6, 3, stride=2, output_padding=1, groups=2)
    ConvTranspose1d(4, 6, kernel_size=(3,), stride=(2,), output_padding=(1,), groups=2)
    """

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """The transposed convolution of (N, C_in, H, W) images (the input gradient of a Conv2d):
    a learned (C_in, C_out/groups, kh, kw) weight; ``forward(input, output_size=...)`` picks the
    output padding that gives that size.

    >>> import minigrad as torch
    >>> up = torch.nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1)
    >>> up(torch.ones(1, 1, 4, 4), output_size=(8, 8)).shape
    torch.Size([1, 1, 8, 8])
    """

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    """The transposed convolution of (N, C_in, D, H, W) volumes (the input gradient of a Conv3d):
    a learned (C_in, C_out/groups, kd, kh, kw) weight.

    >>> from minigrad import nn
    >>> nn.ConvTranspose3d(2, 3, 2, padding=1, bias=False)
    ConvTranspose3d(2, 3, kernel_size=(2, 2, 2), stride=(1, 1, 1), padding=(1, 1, 1), bias=False)
    """

    _dims = 3
