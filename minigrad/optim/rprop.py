"""Rprop (resilient backpropagation), with PyTorch's order of operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..factories import full_like, tensor, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, check_lr


class Rprop(Optimizer):
    """Rprop, per step and element of each parameter (as ``torch.optim.Rprop``): only the sign of
    the gradient is used, and each element has its own step size (starting at ``lr``)::

    g = grad (negated if maximize)
    if g * prev > 0:  step_size = min(step_size * etaplus, step_sizes[1])
    if g * prev < 0:  step_size = max(step_size * etaminus, step_sizes[0]), and g = 0
    p -= sign(g) * step_size;  prev = g

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    >>> opt = torch.optim.Rprop([w], lr=0.5)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (w * w).sum().backward()
    ...     opt.step()  # the same signs twice: the second step is 1.2 times the first
    >>> w
    Parameter containing:
    tensor([-0.1000, -0.9000], requires_grad=True)
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            state["prev"] = zeros_like(param)
            state["step_size"] = full_like(grad, group["lr"])
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        prev, step_size = state["prev"], state["step_size"]
        state["step"].add_(1)
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        # where the gradient changed sign, this step does not move and the next one counts as a first
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
