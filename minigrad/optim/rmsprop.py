"""RMSprop, with PyTorch's centered variant, momentum and order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import tensor, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, check_lr


class RMSprop(Optimizer):
    """RMSprop, per step and parameter (as ``torch.optim.RMSprop``)::

    g = grad (negated if maximize) + weight_decay * p
    v = alpha * v + (1 - alpha) * g * g
    avg = sqrt(v - g_avg * g_avg) + eps, with g_avg = alpha * g_avg + (1 - alpha) * g  (centered)
          sqrt(v) + eps                                                               (otherwise)
    p -= lr * buf, with buf = momentum * buf + g / avg     (momentum > 0)
    p -= lr * g / avg                                      (otherwise)

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.RMSprop([w], lr=0.01)
    >>> (w * w).sum().backward()
    >>> opt.step()  # v = 0.01 * g * g: a first step of lr / sqrt(0.01) = 0.1 against the gradient's sign
    >>> w
    Parameter containing:
    tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            state["square_avg"] = zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).add_(grad.mul(1 - alpha).mul_(grad))  # addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.add_(grad - grad_avg, alpha=1 - alpha)  # lerp_(grad, 1 - alpha)
            avg = (square_avg - grad_avg * grad_avg).sqrt()
        else:
            avg = square_avg.sqrt()
        avg.add_(eps)
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(momentum).add_(grad / avg)  # addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.add_(grad.mul(-lr).div_(avg))  # addcdiv_(grad, avg, value=-lr)
