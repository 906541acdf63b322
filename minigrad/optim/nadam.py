"""NAdam, Adam with Nesterov momentum, with PyTorch's momentum schedule and order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import tensor, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, check_adam_arguments


class NAdam(Optimizer):
    """NAdam, per step ``t`` and parameter (as ``torch.optim.NAdam``)::

    g = grad (negated if maximize) + weight_decay * p      (or p *= 1 - lr * weight_decay
                                                             with decoupled_weight_decay)
    mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))   (mu_product: the product of mu_1..mu_t)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    denom = sqrt(v / (1 - beta2**t)) + eps
    p -= lr * (1 - mu_t) / (1 - mu_product) * g / denom
    p -= lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom

    ``mu_product`` is kept in the state as a float32 tensor, as in PyTorch.

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.NAdam([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()  # g / denom = m / denom / 0.1 = sign(g): a step of 0.1 + 0.01 * mu_2 / (1 - mu_1 * mu_2)
    >>> w
    Parameter containing:
    tensor([ 0.8944, -1.8944], requires_grad=True)
    >>> opt.state[w]["mu_product"]  # mu_1 = 0.9 * (1 - 0.5 * 0.96**0.004)
    tensor(0.4501)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # float32 tensors, as in PyTorch's state_dict
            state["mu_product"] = tensor(1.0)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        momentum_decay = group["momentum_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        step = state["step"].item()
        bias_correction2 = 1 - beta2**step
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        # the momentum schedule: mu of this step and of the next
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product = state["mu_product"].mul_(mu).item()  # in the tensor's dtype, then as a Python float
        mu_product_next = mu_product * mu_next
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)  # lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad.mul(1 - beta2).mul_(grad))  # addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        # addcdiv_(grad, denom, value=...), then addcdiv_(exp_avg, denom, value=...)
        param.add_(grad.mul(-lr * (1.0 - mu) / (1.0 - mu_product)).div_(denom))
        param.add_(exp_avg.mul((-lr * mu_next) / (1.0 - mu_product_next)).div_(denom))
