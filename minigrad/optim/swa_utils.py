"""``torch.optim.swa_utils``: weight averaging (SWA and EMA) of a model over training, the SWA
learning-rate schedule, and recomputing batch-norm statistics for the averaged weights.

>>> import minigrad as torch
>>> from minigrad.optim.swa_utils import AveragedModel
>>> model = torch.nn.Linear(1, 1)
>>> swa = AveragedModel(model)
>>> for w in (1.0, 2.0, 6.0):
...     with torch.no_grad():
...         _ = model.weight.fill_(w)
...     swa.update_parameters(model)
>>> swa.module.weight, swa.n_averaged  # the mean of 1, 2 and 6
(Parameter containing:
tensor([[3.]], requires_grad=True), tensor(3))
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any

from .. import _warn, backend, dtypes
from ..autograd.grad_mode import no_grad
from ..factories import tensor
from ..nn.module import Module
from ..nn.normalization import _BatchNorm, _InstanceNorm
from ..tensor import Tensor
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import Optimizer

__all__ = [
    "AveragedModel",
    "update_bn",
    "SWALR",
    "get_ema_multi_avg_fn",
    "get_swa_multi_avg_fn",
    "get_ema_avg_fn",
    "get_swa_avg_fn",
]


def _is_float(t: Tensor) -> bool:
    return t.dtype.is_floating_point


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[list[Tensor], list[Tensor], Any], None]:
    """An exponential moving average over lists of tensors, in place:
    ``ema = lerp(ema, current, 1 - decay)`` (``ema * decay + current * (1 - decay)`` for integers).

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import get_ema_multi_avg_fn
    >>> ema, now = [torch.tensor([0.0, 1.0])], [torch.tensor([1.0, 1.0])]
    >>> get_ema_multi_avg_fn(0.75)(ema, now, 1)
    >>> ema[0]
    tensor([0.2500, 1.0000])
    """
    _check_decay(decay)

    def ema_update(ema_param_list: list[Tensor], current_param_list: list[Tensor], _: Any) -> None:
        with no_grad():
            if _is_float(ema_param_list[0]):
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.lerp_(p_model, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[[list[Tensor], list[Tensor], Any], None]:
    """The running mean over lists of tensors, in place: ``avg = lerp(avg, current, 1 / (n + 1))``
    after ``n`` averaged models.

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import get_swa_multi_avg_fn
    >>> avg, now = [torch.tensor([1.0])], [torch.tensor([4.0])]
    >>> get_swa_multi_avg_fn()(avg, now, 2)
    >>> avg[0]
    tensor([2.])
    """

    def swa_update(averaged_param_list: list[Tensor], current_param_list: list[Tensor], num_averaged) -> None:
        with no_grad():
            if _is_float(averaged_param_list[0]):
                if isinstance(num_averaged, Tensor):
                    # PyTorch's weight is the tensor 1 / (n + 1): float32, whatever the parameters' dtype
                    weight = float(backend.numpy.float32(1) / backend.numpy.float32(num_averaged.item() + 1))
                else:
                    weight = 1 / (num_averaged + 1)
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    p_avg.lerp_(p_model, weight)
            elif isinstance(num_averaged, Tensor):
                raise RuntimeError(
                    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
                    "will perform a true division of tensor1 and tensor2."
                )
            else:
                raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]:
    """An exponential moving average of one tensor: returns ``decay * ema + (1 - decay) * current``.

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import get_ema_avg_fn
    >>> get_ema_avg_fn(0.5)(torch.tensor([0.0]), torch.tensor([2.0]), 1)
    tensor([1.])
    """
    _check_decay(decay)

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Any], Tensor]:
    """The running mean of one tensor: returns ``avg + (current - avg) / (n + 1)``.

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import get_swa_avg_fn
    >>> get_swa_avg_fn()(torch.tensor([1.0]), torch.tensor([4.0]), 2)
    tensor([2.])
    """

    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters (and, with ``use_buffers=True``, buffers) are the
    average of those of ``model`` at each :meth:`update_parameters` call.

    The first call copies them; later calls apply ``multi_avg_fn`` (to lists of tensors, one
    list per device and dtype) or ``avg_fn`` (per tensor, returning the new value); with neither,
    the running mean (SWA). ``n_averaged`` (an int64 buffer) counts the calls. Without
    ``use_buffers`` the buffers are copied from ``model`` each time (see :func:`update_bn`).

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
    >>> model = torch.nn.Linear(1, 1, bias=False)
    >>> ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.5))
    >>> for w in (4.0, 0.0):
    ...     with torch.no_grad():
    ...         _ = model.weight.fill_(w)
    ...     ema.update_parameters(model)
    >>> ema.module.weight.item()
    2.0
    """

    def __init__(
        self,
        model: Module,
        device=None,
        avg_fn: Callable[[Tensor, Tensor, Any], Tensor] | None = None,
        multi_avg_fn: Callable[[list[Tensor], list[Tensor], Any], None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", tensor(0, dtype=dtypes.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """The averaged copy of the model, called as the model."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Average ``model``'s current parameters into this copy (the first call copies them)."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        self_detached: list[Tensor] = []
        model_detached: list[Tensor] = []
        copy_param = bool(self.n_averaged == 0)
        with no_grad():
            for p_averaged, p_model in zip(self_param, model_param):
                p_model_ = p_model.detach().to(p_averaged.device)
                self_detached.append(p_averaged.detach())
                model_detached.append(p_model_)
                if copy_param:
                    p_averaged.detach().copy_(p_model_)
            if self.n_averaged > 0:
                if self.multi_avg_fn is not None or self.avg_fn is None:
                    # as PyTorch: one call per (device, dtype) group, in the order they first appear
                    groups: dict[tuple[str, Any], tuple[list[Tensor], list[Tensor]]] = {}
                    for p_averaged, p_model in zip(self_detached, model_detached):
                        group = groups.setdefault((str(p_averaged.device), p_averaged.dtype), ([], []))
                        group[0].append(p_averaged)
                        group[1].append(p_model)
                    for (device, _), (self_params, model_params) in groups.items():
                        n_averaged = self.n_averaged.to(device)
                        if self.multi_avg_fn:
                            self.multi_avg_fn(self_params, model_params, n_averaged)
                        elif device.startswith("cuda"):  # PyTorch's foreach kernels: on CUDA only
                            get_swa_multi_avg_fn()(self_params, model_params, n_averaged)
                        else:
                            avg_fn = get_swa_avg_fn()
                            for p_averaged, p_model in zip(self_params, model_params, strict=True):
                                p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))
                else:
                    for p_averaged, p_model in zip(self_detached, model_detached, strict=True):
                        n_averaged = self.n_averaged.to(p_averaged.device)
                        p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model, n_averaged))
            if not self.use_buffers:
                # the buffers (batch-norm statistics) follow the model's; update_bn recomputes them
                for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                    b_swa.detach().copy_(b_model.detach().to(b_swa.device))
            self.n_averaged += 1


def update_bn(loader: Iterable[Any], model: Module, device=None) -> None:
    """Recompute the running statistics of every batch norm of ``model`` in one pass over
    ``loader`` (the first element of a list or tuple batch is the input), as a plain average.

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import update_bn
    >>> model = torch.nn.BatchNorm1d(1)
    >>> update_bn([torch.tensor([[1.0], [3.0]]), torch.tensor([[5.0], [7.0]])], model)
    >>> model.running_mean
    tensor([4.])
    """
    momenta = {}
    for module in model.modules():
        # (minigrad's instance norms derive from _BatchNorm; PyTorch's do not)
        if isinstance(module, _BatchNorm) and not isinstance(module, _InstanceNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with no_grad():
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
    for bn_module in momenta:
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's learning rate to ``swa_lr`` over ``anneal_epochs`` steps (by a cosine
    or linearly), then keeps it there, as ``torch.optim.swa_utils.SWALR``.

    >>> import minigrad as torch
    >>> from minigrad.optim.swa_utils import SWALR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = SWALR(opt, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
    >>> lrs = []
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    >>> lrs  # from 1.0 halfway to 0.1, then there
    [0.55, 0.1, 0.1]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: float | list[float],
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        swa_lrs = _per_group("swa_lr", optimizer, swa_lr)
        for swa_lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = swa_lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float]:
        """The learning rates of this step: the previous step's rate recovered from the group's
        ``lr``, moved on to this step's point of the anneal."""
        if not self._get_lr_called_within_step:
            _warn.warn(
                "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                UserWarning,
            )
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha) for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)
        ]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer and the anneal function (restored from its name)."""
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
