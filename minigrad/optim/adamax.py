"""Adamax, Adam's variant on the infinity norm, with PyTorch's order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import tensor, zeros_like
from ..functions import maximum
from ..tensor import Tensor
from .optimizer import Optimizer, check_adam_arguments


class Adamax(Optimizer):
    """Adamax, per step ``t`` and parameter (as ``torch.optim.Adamax``)::

    g = grad (negated if maximize) + weight_decay * p
    m = beta1 * m + (1 - beta1) * g
    u = max(beta2 * u, |g| + eps)
    p -= lr / (1 - beta1**t) * m / u

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.Adamax([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()  # m / (1 - beta1) = g and u = |g|: a first step of lr against the gradient's sign
    >>> w
    Parameter containing:
    tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            state["exp_avg"] = zeros_like(param)
            state["exp_inf"] = zeros_like(param)
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)  # lerp_(grad, 1 - beta1)
        exp_inf.copy_(maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
        clr = lr / (1 - beta1 ** state["step"].item())
        param.add_(exp_avg.mul(-clr).div_(exp_inf))  # addcdiv_(exp_avg, exp_inf, value=-clr)
