"""Weight initialisation, as ``torch.nn.init``: fill a tensor in place, without recording it.

Values come from minigrad's seeded generator (``minigrad.manual_seed``), so they are reproducible
but not the same numbers as PyTorch's.
"""

from __future__ import annotations

import math

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale of the weights for a nonlinearity (PyTorch's table)."""
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, int | float):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)``."""
    with no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """Fill with values drawn from ``N(mean, std**2)``."""
    with no_grad():
        return tensor.normal_(mean, std)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.zero_()


def ones_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.fill_(1.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-d tensor with the identity matrix (ones on the diagonal, zeros elsewhere).

    >>> import minigrad as torch
    >>> torch.nn.init.eye_(torch.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.zero_().diagonal().fill_(1)
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """Glorot: uniform in ``±gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> Tensor:
    """He: uniform in ``±gain * sqrt(3 / fan)``. With ``a=sqrt(5)`` (what ``nn.Linear`` and
    ``nn.Conv2d`` use) the bound is ``1 / sqrt(fan_in)``."""
    fan = _fan(tensor, mode)
    if fan == 0:
        return tensor  # PyTorch warns and leaves a zero-element tensor alone
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / fan)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> Tensor:
    fan = _fan(tensor, mode)
    if fan == 0:
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan))
