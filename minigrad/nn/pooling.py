"""Pooling layers, as in ``torch.nn``: ``MaxPool1d/2d/3d``, ``AvgPool1d/2d/3d``,
``AdaptiveAvgPool1d/2d/3d`` and ``AdaptiveMaxPool1d/2d/3d``. They hold no parameters; each calls its function in
:mod:`minigrad.nn.functional`.
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module
from .upsampling import _LPPoolNd


def _single(value) -> tuple:
    """An int as a 1-tuple (a sequence as a tuple), as PyTorch's ``_single``: AvgPool1d stores these."""
    return (value,) if isinstance(value, int) else tuple(value)


class _MaxPoolNd(Module):
    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPoolNd):
    """The largest value of each window along the last dim of a (N, C, L) or (C, L) input
    (:func:`~minigrad.nn.functional.max_pool1d`).

    >>> from minigrad import nn
    >>> nn.MaxPool1d(3, stride=2)
    MaxPool1d(kernel_size=3, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input: Tensor):
        return F.max_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode, self.return_indices
        )


class MaxPool2d(_MaxPoolNd):
    """The largest value of each window of a (N, C, H, W) or (C, H, W) input
    (:func:`~minigrad.nn.functional.max_pool2d`); the stride is the kernel size unless given.

    >>> import minigrad as torch
    >>> pool = torch.nn.MaxPool2d(2)
    >>> pool
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> pool(torch.arange(16.0).reshape(1, 4, 4))
    tensor([[[ 5.,  7.],
             [13., 15.]]])
    """

    def forward(self, input: Tensor):
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode, self.return_indices
        )


class AvgPool1d(Module):
    """The mean of each window along the last dim of a (N, C, L) or (C, L) input
    (:func:`~minigrad.nn.functional.avg_pool1d`).

    >>> from minigrad import nn
    >>> nn.AvgPool1d(3, stride=2)
    AvgPool1d(kernel_size=(3,), stride=(2,), padding=(0,))
    """

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True
    ) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    """The mean of each window of a (N, C, H, W) or (C, H, W) input
    (:func:`~minigrad.nn.functional.avg_pool2d`); the stride is the kernel size unless given.

    >>> import minigrad as torch
    >>> pool = torch.nn.AvgPool2d(2)
    >>> pool
    AvgPool2d(kernel_size=2, stride=2, padding=0)
    >>> pool(torch.arange(16.0).reshape(1, 4, 4))
    tensor([[[ 2.5000,  4.5000],
             [10.5000, 12.5000]]])
    """

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptivePoolNd(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Average a (N, C, L) or (C, L) input down to ``output_size`` positions
    (:func:`~minigrad.nn.functional.adaptive_avg_pool1d`)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Average a (N, C, H, W) or (C, H, W) input down to ``output_size`` (an int, or a pair whose
    None entries keep the input's size): ``AdaptiveAvgPool2d(1)`` is global average pooling.

    >>> import minigrad as torch
    >>> pool = torch.nn.AdaptiveAvgPool2d((None, 1))
    >>> pool
    AdaptiveAvgPool2d(output_size=(None, 1))
    >>> pool(torch.tensor([[[1.0, 3.0], [2.0, 6.0]]]))
    tensor([[[2.],
             [4.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """The largest value of each window of :class:`AdaptiveAvgPool1d`
    (:func:`~minigrad.nn.functional.adaptive_max_pool1d`)."""

    def forward(self, input: Tensor):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """The largest value of each window of :class:`AdaptiveAvgPool2d`
    (:func:`~minigrad.nn.functional.adaptive_max_pool2d`).

    >>> from minigrad import nn
    >>> nn.AdaptiveMaxPool2d((2, 3), return_indices=True)
    AdaptiveMaxPool2d(output_size=(2, 3))
    """

    def forward(self, input: Tensor):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """The largest value of each window of a (N, C, D, H, W) or (C, D, H, W) input
    (:func:`~minigrad.nn.functional.max_pool3d`); the stride is the kernel size unless given.

    >>> from minigrad import nn
    >>> nn.MaxPool3d((1, 2, 2), stride=1)
    MaxPool3d(kernel_size=(1, 2, 2), stride=1, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input: Tensor):
        return F.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode, self.return_indices
        )


class AvgPool3d(AvgPool2d):
    """The mean of each window of a (N, C, D, H, W) or (C, D, H, W) input
    (:func:`~minigrad.nn.functional.avg_pool3d`); the stride is the kernel size unless given.

    >>> from minigrad import nn
    >>> nn.AvgPool3d(2, count_include_pad=False)
    AvgPool3d(kernel_size=2, stride=2, padding=0)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Average a (N, C, D, H, W) or (C, D, H, W) input down to ``output_size`` (an int, or a
    triple whose None entries keep the input's size).

    >>> from minigrad import nn
    >>> nn.AdaptiveAvgPool3d((1, None, 2))
    AdaptiveAvgPool3d(output_size=(1, None, 2))
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """The largest value of each window of :class:`AdaptiveAvgPool3d`
    (:func:`~minigrad.nn.functional.adaptive_max_pool3d`).

    >>> from minigrad import nn
    >>> nn.AdaptiveMaxPool3d(2)
    AdaptiveMaxPool3d(output_size=2)
    """

    def forward(self, input: Tensor):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


def _unpool_tuple(value, n: int) -> tuple:
    """An int as ``n`` of it, a sequence as a tuple (PyTorch's ``_single``, ``_pair``, ``_triple``)."""
    return (value,) * n if isinstance(value, int) else tuple(value)


class _MaxUnpoolNd(Module):
    """What MaxUnpool1d/2d/3d share: kernel_size, stride (the kernel size unless given) and
    padding, stored as tuples, as PyTorch stores them."""

    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        n = self._dims
        self.kernel_size = _unpool_tuple(kernel_size, n)
        self.stride = _unpool_tuple(stride if stride is not None else kernel_size, n)
        self.padding = _unpool_tuple(padding, n)

    def forward(self, input: Tensor, indices: Tensor, output_size: list[int] | None = None) -> Tensor:
        unpool = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._dims - 1]
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool1d`: put each value back where its indices say
    (:func:`~minigrad.nn.functional.max_unpool1d`).

    >>> from minigrad import nn
    >>> nn.MaxUnpool1d(3, stride=2, padding=1)
    MaxUnpool1d(kernel_size=(3,), stride=(2,), padding=(1,))
    """

    _dims = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool2d` (:func:`~minigrad.nn.functional.max_unpool2d`).

    >>> from minigrad import nn
    >>> nn.MaxUnpool2d(2)
    MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    """

    _dims = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """The inverse of :class:`MaxPool3d` (:func:`~minigrad.nn.functional.max_unpool3d`).

    >>> from minigrad import nn
    >>> nn.MaxUnpool3d((1, 2, 2))
    MaxUnpool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2), padding=(0, 0, 0))
    """

    _dims = 3


class ChannelShuffle(Module):
    """Shuffle the channels of a (N, C, *) input in ``groups`` groups
    (:func:`~minigrad.nn.functional.channel_shuffle`).

    >>> from minigrad import nn
    >>> nn.ChannelShuffle(2)
    ChannelShuffle(groups=2)
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class LPPool3d(_LPPoolNd):
    """The ``norm_type``-norm of each window of a (N, C, D, H, W) input
    (:func:`~minigrad.nn.functional.lp_pool3d`).

    >>> from minigrad import nn
    >>> nn.LPPool3d(2, (1, 2, 2), ceil_mode=True)
    LPPool3d(norm_type=2, kernel_size=(1, 2, 2), stride=None, ceil_mode=True)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)
