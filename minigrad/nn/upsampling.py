"""Resizing layers: ``Upsample``, ``UpsamplingNearest2d``, ``UpsamplingBilinear2d``,
``PixelShuffle``, ``PixelUnshuffle``, ``Fold``, ``Unfold`` and ``LPPool1d``/``LPPool2d``, as in
``torch.nn`` (each calls its function in ``nn.functional``)."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


class Upsample(Module):
    """Resize to ``size`` or by ``scale_factor`` (see ``F.interpolate``).

    >>> from minigrad import nn
    >>> nn.Upsample(scale_factor=2, mode="bilinear")
    Upsample(scale_factor=2.0, mode='bilinear')
    """

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample`` with mode 'nearest'.

    >>> from minigrad import nn
    >>> nn.UpsamplingNearest2d(scale_factor=2)
    UpsamplingNearest2d(scale_factor=2.0, mode='nearest')
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample`` with mode 'bilinear' and ``align_corners=True``.

    >>> from minigrad import nn
    >>> nn.UpsamplingBilinear2d(size=4)
    UpsamplingBilinear2d(size=4, mode='bilinear')
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    """(*, C*r*r, H, W) to (*, C, H*r, W*r), ``r = upscale_factor``.

    >>> from minigrad import nn
    >>> nn.PixelShuffle(2)
    PixelShuffle(upscale_factor=2)
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H*r, W*r) to (*, C*r*r, H, W), ``r = downscale_factor``.

    >>> from minigrad import nn
    >>> nn.PixelUnshuffle(3)
    PixelUnshuffle(downscale_factor=3)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Fold(Module):
    """Add columns of sliding blocks back into an image of ``output_size`` (see ``F.fold``).

    >>> from minigrad import nn
    >>> nn.Fold(4, 2)
    Fold(output_size=4, kernel_size=2, dilation=1, padding=0, stride=1)
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    """The sliding blocks of an image as columns (see ``F.unfold``).

    >>> from minigrad import nn
    >>> nn.Unfold(2)
    Unfold(kernel_size=2, dilation=1, padding=0, stride=1)
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, stride={self.stride}"


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """The ``norm_type``-norm of each window of a (N, C, L) input.

    >>> from minigrad import nn
    >>> nn.LPPool1d(2, 3)
    LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The ``norm_type``-norm of each window of a (N, C, H, W) input.

    >>> from minigrad import nn
    >>> nn.LPPool2d(1.5, (2, 3))
    LPPool2d(norm_type=1.5, kernel_size=(2, 3), stride=None, ceil_mode=False)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)
