"""``minigrad.nn.utils``: clipping gradients in place between ``backward()`` and ``step()``.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.ones(2))
>>> w.grad = torch.tensor([3.0, 4.0])
>>> torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
tensor(5.)
>>> w.grad
tensor([0.6000, 0.8000])
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import linalg
from ..autograd.grad_mode import no_grad
from ..factories import tensor
from ..functions import stack
from ..tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _grads(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


@no_grad()
def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach=None,
) -> Tensor:
    """Scale the gradients of ``parameters`` together so that their joint ``norm_type``-norm is at
    most ``max_norm``; returns the norm they had before."""
    grads = _grads(parameters)
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return tensor(0.0)
    total = linalg.vector_norm(stack([linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot "
            "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    scale = (max_norm / (total + 1e-6)).clamp(max=1.0)  # the 1e-6 keeps a zero norm finite, as PyTorch
    for g in grads:
        g.mul_(scale.to(g.dtype))
    return total


@no_grad()
def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float, foreach=None) -> None:
    """Clamp every gradient of ``parameters`` to ``[-clip_value, clip_value]``, in place."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        g.clamp_(min=-clip_value, max=clip_value)
