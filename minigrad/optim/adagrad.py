"""Adagrad, with PyTorch's learning-rate decay, accumulator start value and order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import full_like, tensor
from ..tensor import Tensor
from .optimizer import Optimizer, check_lr


class Adagrad(Optimizer):
    """Adagrad, per step ``t`` and parameter (as ``torch.optim.Adagrad``)::

    g = grad (negated if maximize) + weight_decay * p
    sum = sum + g * g                  (sum starts at initial_accumulator_value)
    p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)

    As in PyTorch, the state (``step`` and ``sum``) of every parameter is made by the constructor,
    from its ``initial_accumulator_value`` argument (a group's own value is not used).

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.Adagrad([w], lr=0.5)
    >>> (w * w).sum().backward()
    >>> opt.step()  # sum = g * g: a first step of lr against the gradient's sign
    >>> w
    Parameter containing:
    tensor([ 0.5000, -1.5000], requires_grad=True)
    >>> opt.state[w]["sum"]
    tensor([ 4., 16.])
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        check_lr(lr)
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        for group in self.param_groups:
            for param in group["params"]:
                self._init_state(param, self.state[param], initial_accumulator_value)

    @staticmethod
    def _init_state(param: Tensor, state: dict[str, Any], initial_accumulator_value: float) -> None:
        state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
        state["sum"] = full_like(param, initial_accumulator_value)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:  # a parameter added later (add_param_group): from the defaults, as PyTorch
            self._init_state(param, state, self.defaults["initial_accumulator_value"])
        state["step"].add_(1)
        step = state["step"].item()
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state_sum = state["sum"]
        state_sum.add_(grad * grad)  # addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(group["eps"])
        param.add_(grad.mul(-clr).div_(std))  # addcdiv_(grad, std, value=-clr)
