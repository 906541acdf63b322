"""Adam (and AMSGrad) and AdamW, with PyTorch's bias correction and order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import tensor, zeros_like
from ..functions import maximum
from ..tensor import Tensor
from .optimizer import Optimizer, check_adam_arguments


class Adam(Optimizer):
    """Adam, per step ``t`` and parameter (as ``torch.optim.Adam``)::

    g = grad (negated if maximize) + weight_decay * p      (or p *= 1 - lr * weight_decay
                                                             with decoupled_weight_decay)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g                     (amsgrad: v_max = max(v_max, v))
    p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        # as PyTorch: betas=(0, 0.9) is refused (ints), as is a float mixed with a tensor
        if not all(isinstance(b, float) for b in betas[:2]) and not all(isinstance(b, Tensor) for b in betas[:2]):
            raise ValueError("betas must be either both floats or both Tensors")
        betas = tuple(betas)  # PyTorch keeps a list given as betas as a tuple
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)  # (as PyTorch: an inf gradient gives nan)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = state["step"].item()
        bias_correction1 = 1 - beta1**step
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        if group["amsgrad"]:
            state["max_exp_avg_sq"].copy_(maximum(state["max_exp_avg_sq"], exp_avg_sq))
            second = state["max_exp_avg_sq"]
        else:
            second = exp_avg_sq
        denom = (second.sqrt() / bias_correction2_sqrt).add_(eps)
        param.add_(exp_avg.mul(-lr / bias_correction1).div_(denom))  # addcdiv_(exp_avg, denom, value=...)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter), as ``torch.optim.AdamW``.

    The decay shrinks the parameter directly, ``p *= 1 - lr * weight_decay``, before the Adam
    step, instead of being added to the gradient: it then does not pass through the moment
    estimates, so every weight decays at the same rate whatever the size of its gradients. It is
    ``Adam(..., decoupled_weight_decay=True)`` with ``weight_decay=1e-2`` by default.

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.AdamW([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()  # w * (1 - 0.1 * 0.01), then the Adam step of 0.1 against the gradient's sign
    >>> w
    Parameter containing:
    tensor([ 0.8990, -1.8980], requires_grad=True)
    >>> opt.param_groups[0]["weight_decay"], opt.param_groups[0]["decoupled_weight_decay"]
    (0.01, True)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def __setstate__(self, state: dict[str, Any]) -> None:
        # An AdamW unpickled (or copied) from any saved state still decays decoupled, as in PyTorch.
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
