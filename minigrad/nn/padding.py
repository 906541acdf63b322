"""Padding layers, as in ``torch.nn``: ``ZeroPad1d/2d/3d``, ``ConstantPad1d/2d/3d``,
``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d`` and ``CircularPad1d/2d/3d``, each
:func:`minigrad.nn.functional.pad` with its mode. An int pads every side by it; a tuple gives
(left, right), (left, right, top, bottom) or (left, right, top, bottom, front, back).
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


def _sides(padding, count: int) -> tuple:
    """An int repeated ``count`` times; a sequence as a tuple (PyTorch's ``_pair``, ``_quadruple``)."""
    return (padding,) * count if isinstance(padding, int) else tuple(padding)


class _PadNd(Module):
    mode = "constant"
    _sides = 2

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _sides(padding, self._sides)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value`` (``ConstantPadNdBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.ConstantPad1d((1, 2), 3.5)
    ConstantPad1d(padding=(1, 2), value=3.5)
    """


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dims with ``value``.

    >>> import minigrad as torch
    >>> torch.nn.ConstantPad2d(1, 0.5)(torch.ones(1, 1))
    tensor([[0.5000, 0.5000, 0.5000],
            [0.5000, 1.0000, 0.5000],
            [0.5000, 0.5000, 0.5000]])
    """

    _sides = 4


class ZeroPad1d(ConstantPad1d):
    """Pad the last dim with zeros.

    >>> from minigrad import nn
    >>> nn.ZeroPad1d(2)
    ZeroPad1d((2, 2))
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last two dims with zeros.

    >>> from minigrad import nn
    >>> nn.ZeroPad2d((1, 2, 0, 1))
    ZeroPad2d((1, 2, 0, 1))
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pad the last dim with its reflection at the edges (``ReflectionPad1DBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.ReflectionPad1d(2)(torch.tensor([[1.0, 2.0, 3.0]]))
    tensor([[3., 2., 1., 2., 3., 2., 1.]])
    """

    mode = "reflect"


class ReflectionPad2d(ReflectionPad1d):
    """Pad the last two dims with their reflection at the edges (``ReflectionPad2DBackward0``)."""

    _sides = 4


class ReplicationPad1d(_PadNd):
    """Pad the last dim by repeating its edge values (``ReplicationPad1DBackward0``).

    >>> import minigrad as torch
    >>> torch.nn.ReplicationPad1d((2, 1))(torch.tensor([[1.0, 2.0, 3.0]]))
    tensor([[1., 1., 1., 2., 3., 3.]])
    """

    mode = "replicate"


class ReplicationPad2d(ReplicationPad1d):
    """Pad the last two dims by repeating their edge values (``ReplicationPad2DBackward0``)."""

    _sides = 4


class CircularPad1d(_PadNd):
    """Pad the last dim by wrapping it around (recorded as one ``IndexBackward0``; PyTorch
    records the slices it copies)."""

    mode = "circular"


class CircularPad2d(CircularPad1d):
    """Pad the last two dims by wrapping them around."""

    _sides = 4


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with ``value``.

    >>> import minigrad as torch
    >>> torch.nn.ConstantPad3d((1, 0, 0, 0, 0, 1), 2.0)(torch.ones(1, 1, 1)).shape
    torch.Size([2, 1, 2])
    """

    _sides = 6


class ZeroPad3d(ConstantPad3d):
    """Pad the last three dims with zeros.

    >>> from minigrad import nn
    >>> nn.ZeroPad3d(1)
    ZeroPad3d((1, 1, 1, 1, 1, 1))
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad3d(ReflectionPad1d):
    """Pad the last three dims with their reflection at the edges (``ReflectionPad3DBackward0``)."""

    _sides = 6


class ReplicationPad3d(ReplicationPad1d):
    """Pad the last three dims by repeating their edge values (``ReplicationPad3DBackward0``)."""

    _sides = 6


class CircularPad3d(CircularPad1d):
    """Pad the last three dims by wrapping them around."""

    _sides = 6
