"""ASGD (averaged stochastic gradient descent), with PyTorch's order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import ones, tensor, zeros, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, check_lr


class ASGD(Optimizer):
    """Averaged SGD, per step ``t`` and parameter (as ``torch.optim.ASGD``)::

    g = grad (negated if maximize) + weight_decay * p
    p = p * (1 - lambd * eta) - eta * g
    ax = p (while mu = 1), else ax + mu * (p - ax)          (the running average, in the state)
    eta = lr / (1 + lambd * lr * t) ** alpha;  mu = 1 / max(1, t - t0)

    ``eta`` and ``mu`` are kept as 0-d tensors of the default dtype, as in PyTorch's state.

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.ASGD([w], lr=0.1, lambd=0.0)
    >>> (w * w).sum().backward()
    >>> opt.step()  # the first step is SGD's (the averaging starts after t0 steps)
    >>> w
    Parameter containing:
    tensor([ 0.8000, -1.6000], requires_grad=True)
    >>> opt.state[w]["ax"]
    tensor([ 0.8000, -1.6000])
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:  # 0-d tensors of the default dtype (float32 unless changed), as in PyTorch
            state["step"] = zeros(())
            state["eta"] = tensor(float(group["lr"]))
            state["mu"] = ones(())
            state["ax"] = zeros_like(param)
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        if group["maximize"]:
            grad = -grad
        eta, mu, ax = state["eta"], state["mu"], state["ax"]
        state["step"].add_(1)
        if group["foreach"] or (group["foreach"] is None and param.device.type == "cuda"):
            self._foreach_update(param, grad, group, state)
            return
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        eta_value = eta.item()
        param.mul_(1 - lambd * eta_value)  # decay term
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = state["step"].item()
        # computed in Python floats, then rounded to the state's dtype, as PyTorch does
        eta.copy_(tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(tensor(1 / max(1, step - t0)))

    @staticmethod
    def _foreach_update(param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        """PyTorch's foreach ASGD (``foreach=True``, the default on CUDA), which arranges the step
        otherwise: ``p -= eta * (g + lambd * p)``, ``ax += mu * (p - ax)`` always, and the next
        ``eta`` computed from the float32 ``step`` tensor in float32."""
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        eta, mu, ax, step = state["eta"], state["mu"], state["ax"], state["step"]
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        intermediate = grad.add(param, alpha=lambd)
        param.sub_(intermediate * eta.item())
        ax.add_(param.sub(ax) * mu.item())
        # in the step's dtype, as PyTorch's tensor arithmetic: lr / t is reciprocal(t) * lr there,
        # and its float32 pow is the correctly rounded one (NumPy's float32 power is not always)
        base = 1 + lambd * lr * step
        exponent = tensor(alpha, dtype=step.dtype).item()
        eta.copy_((base.double() ** exponent).to(step.dtype).reciprocal() * lr)
        mu.copy_(tensor(1 / max(1, step.item() - t0)))
