"""Adafactor (Shazeer and Stern), with PyTorch's single-tensor arithmetic in its order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import dtypes
from ..factories import tensor, zeros, zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer


class Adafactor(Optimizer):
    """Adafactor, per step ``t`` and parameter (as ``torch.optim.Adafactor``): the second moment
    of a matrix (or of each matrix of a stack) is kept as a row and a column factor only::

    g = grad (negated if maximize);  rho = min(lr, 1 / sqrt(t));  beta2_hat = 1 - t**beta2_decay
    alpha = max(eps2, RMS(p)) * rho;  p *= 1 - lr * weight_decay
    matrix:  row_var = lerp(row_var, mean(g*g, -1), 1 - beta2_hat)   (col_var likewise over -2)
             v = row_var @ col_var / max(mean(row_var, -2), eps1)
    vector:  v = variance = lerp(variance, g*g, 1 - beta2_hat)
    u = g / sqrt(max(v, eps1**2));  p -= alpha / max(1, RMS(u) / d) * u

    ``eps1=None`` is the machine epsilon of the first updated parameter's dtype.

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.tensor([[1.0, -2.0], [3.0, 0.5]]))
    >>> opt = torch.optim.Adafactor([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    Parameter containing:
    tensor([[ 0.9044, -1.7067],
            [ 2.7892,  0.4461]], requires_grad=True)
    >>> sorted(opt.state[w])
    ['col_var', 'row_var', 'step']
    """

    def __init__(
        self,
        params: Iterable[Tensor] | Iterable[dict[str, Any]],
        lr: float = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(
            lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay, foreach=foreach, maximize=maximize
        )
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Update the parameters once; ``closure`` (if given) recomputes and returns the loss."""
        # PyTorch fills a None eps1 from the first updated parameter of each group and keeps it
        # for the group's later parameters (whatever their dtypes).
        self._eps1 = {id(group): group["eps"][0] for group in self.param_groups}
        try:
            return self._update_all(closure)
        finally:
            del self._eps1

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state["step"] = tensor(0.0)  # a float32 tensor, as in PyTorch's state_dict
            if grad.dim() > 1:
                state["row_var"] = zeros(*grad.shape[:-1], 1, dtype=grad.dtype, device=grad.device)
                state["col_var"] = zeros(*grad.shape[:-2], 1, grad.shape[-1], dtype=grad.dtype, device=grad.device)
            else:
                state["variance"] = zeros_like(grad)
        lr, d, weight_decay = group["lr"], group["d"], group["weight_decay"]
        eps2 = group["eps"][1]
        eps1 = self._eps1[id(group)]
        if eps1 is None:
            eps1 = self._eps1[id(group)] = dtypes.finfo(param.dtype).eps
        if group["maximize"]:
            grad = -grad
        state["step"].add_(1)
        step = state["step"].item()
        one_minus_beta2_t = step ** group["beta2_decay"]
        rho_t = min(lr, 1 / (step**0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1)), one_minus_beta2_t)
            col_var.lerp_(grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2)), one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = state["variance"].clone()  # the update must not write into the state
        # eps1 squared, because of the square root after
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        param.add_(update, alpha=-alpha / denom)
