"""RAdam, Adam with a rectified adaptive learning rate, with PyTorch's order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import tensor, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, check_adam_arguments


class RAdam(Optimizer):
    """RAdam, per step ``t`` and parameter (as ``torch.optim.RAdam``)::

    g = grad (negated if maximize) + weight_decay * p      (or p *= 1 - lr * weight_decay
                                                             with decoupled_weight_decay)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    rho_inf = 2 / (1 - beta2) - 1,  rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)
    if rho_t > 5:  p -= lr * m / (1 - beta1**t) * sqrt(1 - beta2**t) / (sqrt(v) + eps) * r_t, where
                   r_t = sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
    else:          p -= lr * m / (1 - beta1**t)         (the variance is not yet tractable: SGD with momentum)

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.RAdam([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()  # the first steps are not rectified: p -= lr * m / (1 - beta1), lr * g here
    >>> w
    Parameter containing:
    tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        step = state["step"].item()
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)  # lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad.mul(1 - beta2).mul_(grad))  # addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1  # the maximum length of the approximated SMA
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2  # its length at this step
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = (bias_correction2**0.5) / exp_avg_sq.sqrt().add_(eps)  # reciprocal() * number
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
