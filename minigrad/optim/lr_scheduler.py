"""``minigrad.optim.lr_scheduler``: change the learning rate as training goes, as ``torch.optim.lr_scheduler``.

A scheduler wraps an optimizer and rewrites ``group["lr"]`` in each of its ``param_groups``
each time ``scheduler.step()`` is called: once per epoch (once per batch for ``OneCycleLR`` and
``CyclicLR``),
*after* ``optimizer.step()``. Creating the scheduler already sets the learning rate of epoch 0.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.zeros(2))
>>> opt = torch.optim.SGD([w], lr=1.0)
>>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> for epoch in range(5):
...     print(epoch, sched.get_last_lr())  # the lr this epoch trains with
...     opt.step()  # (the training of one epoch)
...     sched.step()
0 [1.0]
1 [1.0]
2 [0.5]
3 [0.5]
4 [0.25]

Most schedulers are *chainable*: a step multiplies the current ``group["lr"]`` by a factor
instead of recomputing it from the initial one, so that two schedulers on one optimizer
combine (and an lr changed by hand stays changed). The factors are computed with PyTorch's own
formulas, in its order of operations, so the learning rates are the same floats as PyTorch's,
last bit included. ``step(epoch)`` (deprecated) uses the closed form instead, where one exists.
"""

from __future__ import annotations

import functools
import math
import types
import weakref
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from .. import _warn
from .optimizer import Optimizer

__all__ = [
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
    "PolynomialLR",
    "LRScheduler",
]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """``value`` for each parameter group: a list or tuple gives one per group, anything else is shared."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {len(optimizer.param_groups)}."
            )
        return list(value)
    return [value] * len(optimizer.param_groups)


def _current_lrs(optimizer: Optimizer) -> list[float]:
    return [group["lr"] for group in optimizer.param_groups]


def _record_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap ``optimizer.step`` (once per optimizer) so that it sets ``optimizer._opt_called``.

    ``LRScheduler.step`` reads it to warn when the scheduler is stepped before the optimizer, the
    usual mistake since PyTorch 1.1 changed the order (it skips the first learning rate).
    """
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step = optimizer.step.__func__  # the class's function, called on the optimizer below
    # The wrapper is stored on the optimizer: a weak reference back to it makes no reference cycle.
    optimizer_ref = weakref.ref(optimizer)

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        opt = optimizer_ref()
        opt._opt_called = True
        return step(opt, *args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    """The base class: it keeps ``last_epoch`` and ``base_lrs`` and writes the learning rates that
    the subclass's ``get_lr()`` computes into the optimizer.

    ``last_epoch`` counts the calls of ``step()``; the constructor makes the first one, from
    ``last_epoch=-1`` (a fresh start: each group's ``lr`` is recorded as its ``'initial_lr'``)
    to epoch 0. Give ``last_epoch >= 0`` only to resume, with an optimizer whose groups hold
    ``'initial_lr'`` (loaded from a checkpoint).

    >>> import minigrad as torch
    >>> class Halving(torch.optim.lr_scheduler.LRScheduler):
    ...     def get_lr(self):
    ...         return [base_lr / 2**self.last_epoch for base_lr in self.base_lrs]
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.8)
    >>> sched = Halving(opt)
    >>> opt.step(); sched.step()
    >>> sched.last_epoch, sched.base_lrs, sched.get_last_lr(), opt.param_groups[0]["initial_lr"]
    (1, [0.8], [0.4], 0.8)
    """

    # Set on the instance during a step (and so saved by state_dict, as in PyTorch).
    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                # setdefault: a second scheduler on the same optimizer keeps the first one's value
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
                        "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)"
                    )
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _record_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """The constructor's step, to ``last_epoch + 1``; it does not count as a call of ``step()``."""
        self._step_count = 0
        self._is_initial = True  # some schedulers keep the lr as it is on this step
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer (which is saved with its own ``state_dict``)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[float]:
        """The learning rates (one per parameter group) that the last step set."""
        return self._last_lr

    def get_lr(self) -> list[float]:
        """The learning rates of epoch ``last_epoch`` (subclasses compute them; ``step`` calls this)."""
        raise NotImplementedError

    def _get_closed_form_lr(self) -> list[float]:
        """The learning rates of epoch ``last_epoch`` from ``base_lrs`` alone, for ``step(epoch)``;
        schedulers without a closed form use their chainable ``get_lr``."""
        return self.get_lr()

    def _warn_if_not_stepping(self) -> None:
        # get_lr is the rule of one step (it may depend on the lr now): reading it is not reading the lr.
        if not self._get_lr_called_within_step:
            _warn.warn(
                "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                UserWarning,
            )

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch and set its learning rates (call it after ``optimizer.step()``)."""
        if self._step_count == 1:  # the first call after the constructor's own step
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                _warn.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                    "initialization. Please, make sure to call `optimizer.step()` before "
                    "`lr_scheduler.step()`. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                )
            elif not getattr(self.optimizer, "_opt_called", False):
                _warn.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                    "will result in PyTorch skipping the first value of the learning rate schedule. "
                    "See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                )
        self._step_count += 1
        if epoch is not None:
            _warn.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                lrs = self.get_lr()
            else:
                self.last_epoch = epoch
                lrs = self._get_closed_form_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = _current_lrs(self.optimizer)


class _LRScheduler(LRScheduler):
    """The old name of :class:`LRScheduler`, kept by PyTorch for compatibility (a subclass, so that
    its ``__name__`` stays ``_LRScheduler``).

    >>> from minigrad.optim.lr_scheduler import LRScheduler, _LRScheduler
    >>> _LRScheduler.__name__, issubclass(_LRScheduler, LRScheduler)
    ('_LRScheduler', True)
    """


# ---------------------------------------------------------------------- schedulers given a function


def _lambdas_per_group(optimizer: Optimizer, lr_lambda: Any) -> list[Callable[[int], float]]:
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != len(optimizer.param_groups):
            raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * len(optimizer.param_groups)


def _state_dict_with_lambdas(scheduler: LRScheduler) -> dict[str, Any]:
    # Functions and lambdas cannot be saved (pickled) reliably: only a callable object's attributes are.
    state = {key: value for key, value in scheduler.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
    state["lr_lambdas"] = [
        None if isinstance(fn, types.FunctionType) else fn.__dict__.copy() for fn in scheduler.lr_lambdas
    ]
    return state


def _load_state_dict_with_lambdas(scheduler: LRScheduler, state_dict: dict[str, Any]) -> None:
    state = dict(state_dict)  # the caller's dict is left as it is
    saved_lambdas = state.pop("lr_lambdas")
    scheduler.__dict__.update(state)
    for fn, saved in zip(scheduler.lr_lambdas, saved_lambdas):
        if saved is not None:
            fn.__dict__.update(saved)


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``: one function for all groups, or a list of one per group.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import LambdaLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
    >>> sched = LambdaLR(opt, lr_lambda=lambda epoch: 1 / (epoch + 1))
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    >>> lrs
    [0.1, 0.05, 0.0333, 0.025]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """As :meth:`LRScheduler.state_dict`; of the lambdas, only callable objects' attributes are saved."""
        return _state_dict_with_lambdas(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As :meth:`LRScheduler.load_state_dict`; saved callable objects' attributes are restored."""
        _load_state_dict_with_lambdas(self, state_dict)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(LRScheduler):
    """``lr *= lr_lambda(epoch)`` at each step (not at the constructor's): the factors accumulate.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import MultiplicativeLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.5)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """As :meth:`LRScheduler.state_dict`; of the lambdas, only callable objects' attributes are saved."""
        return _state_dict_with_lambdas(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As :meth:`LRScheduler.load_state_dict`; saved callable objects' attributes are restored."""
        _load_state_dict_with_lambdas(self, state_dict)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self._is_initial:
            return _current_lrs(self.optimizer)
        return [
            group["lr"] * lmbda(self.last_epoch)
            for lmbda, group in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)
        ]


# ---------------------------------------------------------------------- decays by steps


class StepLR(LRScheduler):
    """``lr *= gamma`` every ``step_size`` epochs (at epochs ``step_size``, ``2 * step_size``, ...).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import StepLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = StepLR(opt, step_size=2, gamma=0.1)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(5):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 1.0, 0.1, 0.1, 0.010000000000000002, 0.010000000000000002]
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _current_lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``lr *= gamma`` at each epoch listed in ``milestones`` (``gamma**n`` at one listed ``n`` times).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import MultiStepLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.milestones = Counter(milestones)  # epoch -> how many times it is listed
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self.last_epoch not in self.milestones:
            return _current_lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """``lr * factor`` for the first ``total_iters`` epochs, then ``lr`` again (a warm-up).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import ConstantLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = ConstantLR(opt, factor=0.5, total_iters=2)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [0.5, 0.5, 1.0, 1.0]
    """

    def __init__(
        self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5, last_epoch: int = -1
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _current_lrs(self.optimizer)
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]  # undo the factor

    def _get_closed_form_lr(self) -> list[float]:
        return [
            base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
            for base_lr in self.base_lrs
        ]


class LinearLR(LRScheduler):
    """The factor of the lr goes linearly from ``start_factor`` to ``end_factor`` in ``total_iters``
    epochs, then stays (a linear warm-up or decay).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import LinearLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = LinearLR(opt, start_factor=0.25, total_iters=3)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [0.25, 0.5, 0.75, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _current_lrs(self.optimizer)
        # The ratio of this epoch's factor to the last one's (their difference is (end - start) / total_iters).
        change = self.end_factor - self.start_factor
        ratio = 1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [
            base_lr
            * (
                self.start_factor
                + (self.end_factor - self.start_factor) * min(self.total_iters, self.last_epoch) / self.total_iters
            )
            for base_lr in self.base_lrs
        ]


class ExponentialLR(LRScheduler):
    """``lr *= gamma`` every epoch.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import ExponentialLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = ExponentialLR(opt, gamma=0.5)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self._is_initial:  # resuming at last_epoch: the loaded lr is already that epoch's
            return _current_lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """``lr = initial_lr * (1 - epoch / total_iters) ** power`` until ``total_iters``, then 0.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import PolynomialLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = PolynomialLR(opt, total_iters=4, power=2.0)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(5):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 0.5625, 0.25, 0.0625, 0.0, 0.0]
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        if self._is_initial or self.last_epoch > self.total_iters:
            return _current_lrs(self.optimizer)
        # chainable: the ratio of this epoch's factor to the last one's
        decay = ((1.0 - self.last_epoch / self.total_iters) / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** (
            self.power
        )
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [
            base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
            for base_lr in self.base_lrs
        ]


# ---------------------------------------------------------------------- cosine schedules


class CosineAnnealingLR(LRScheduler):
    """The lr follows half a cosine from ``initial_lr`` down to ``eta_min`` in ``T_max`` epochs
    (and back up in the next ``T_max``, and so on)::

        lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2

    computed, as in PyTorch, step by step from the current lr (so that it is chainable).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import CosineAnnealingLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = CosineAnnealingLR(opt, T_max=4, eta_min=0.2)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(6):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    >>> lrs
    [1.0, 0.8828, 0.6, 0.3172, 0.2, 0.3172, 0.6]
    """

    # T_max: PyTorch's name (the period's symbol in the SGDR paper)
    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:  # noqa: N803
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        epoch, eta_min, period = self.last_epoch, self.eta_min, self.T_max
        if self._is_initial:
            return _current_lrs(self.optimizer)
        if self._step_count == 1 and epoch > 0:  # get_lr() called by hand after resuming: the closed form
            return [
                eta_min + (base_lr - eta_min) * (1 + math.cos(epoch * math.pi / period)) / 2
                for base_lr in self.base_lrs
            ]
        if (epoch - 1 - period) % (2 * period) == 0:
            # Leaving the bottom (lr == eta_min), where the ratio below would divide by 0: add the rise instead.
            return [
                group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / period)) / 2
                for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups, strict=True)
            ]
        # The distance to eta_min is scaled by the ratio of the cosine factors of this epoch and the last.
        ratio = (1 + math.cos(math.pi * epoch / period)) / (1 + math.cos(math.pi * (epoch - 1) / period))
        return [ratio * (group["lr"] - eta_min) + eta_min for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [
            self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base_lr in self.base_lrs
        ]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from ``initial_lr`` to ``eta_min`` over ``T_0`` epochs, then a restart at
    ``initial_lr``; each period is ``T_mult`` times longer than the last (SGDR)::

        lr = eta_min + (initial_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2

    where ``T_cur`` counts the epochs since the last restart. It can also be stepped to a
    fractional epoch, ``step(epoch + batch / batches)``, without a deprecation warning.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import CosineAnnealingWarmRestarts
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(6):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    >>> lrs
    [1.0, 0.5, 1.0, 0.8536, 0.5, 0.1464, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,  # noqa: N803 (PyTorch's names)
        T_mult: int = 1,  # noqa: N803
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0  # the length of the current period
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch  # epochs since the last restart
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_if_not_stepping()
        return [
            self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
            for base_lr in self.base_lrs
        ]

    def step(self, epoch: float | None = None) -> None:
        """Move to the next epoch, or to ``epoch`` (which may be fractional: a point within an epoch)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:  # a restart
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch < self.T_0:
                self.T_i = self.T_0
                self.T_cur = epoch
            elif self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                # the periods T_0, T_0 * T_mult, ... sum to T_0 * (T_mult**n - 1) / (T_mult - 1): find n
                n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult**n
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            lrs = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            group["lr"] = lr
        self._last_lr = _current_lrs(self.optimizer)


# ---------------------------------------------------------------------- schedulers of schedulers


def _check_schedulers(owner: str, optimizer: Optimizer, schedulers: Sequence[LRScheduler]) -> None:
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{owner} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be "
                f"specified when calling `step`, but got one at index {i} in the given schedulers sequence."
            )
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{owner} expects all schedulers to belong to the same optimizer, but got scheduler "
                f"{type(scheduler).__name__} at index {i} has {scheduler.optimizer}, which is different from "
                f"{type(optimizer).__name__}."
            )


class SequentialLR(LRScheduler):
    """Runs ``schedulers[0]`` until epoch ``milestones[0]``, then ``schedulers[1]`` (restarted at
    its epoch 0), and so on: e.g. a warm-up followed by a decay.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import ConstantLR, ExponentialLR, SequentialLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> warmup = ConstantLR(opt, factor=0.1, total_iters=2)
    >>> decay = ExponentialLR(opt, gamma=0.5)
    >>> sched = SequentialLR(opt, schedulers=[warmup, decay], milestones=[2])
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [0.1, 0.1, 1.0, 0.5, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, schedulers: list[LRScheduler], milestones: list[int], last_epoch: int = -1
    ) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_schedulers(name, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                f"milestone points, but got number of schedulers {len(schedulers)} and the number of milestones to "
                f"be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Each scheduler stepped the lr when it was made: start again from the initial lr, and take
        # back their constructor steps, then make the initial step of the first one only.
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Take one epoch back from every scheduler held (in nested ones too)."""
        sched = self if sched is None else sched
        if hasattr(sched, "_schedulers"):
            for inner in sched._schedulers:
                self.recursive_undo(inner)
        elif hasattr(sched, "last_epoch"):
            sched.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        """Step the scheduler of the current epoch; at a milestone, start the next one at its epoch 0."""
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        """As :meth:`LRScheduler.state_dict`, with the schedulers' own state dicts."""
        return _state_dict_with_schedulers(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As :meth:`LRScheduler.load_state_dict`, loading the schedulers' state dicts into them."""
        _load_state_dict_with_schedulers(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Steps all its (chainable) schedulers at each ``step()``: their factors multiply.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import ChainedScheduler, ConstantLR, ExponentialLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=2), ExponentialLR(opt, gamma=0.5)])
    >>> lrs = [sched.get_last_lr()[0]]
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [0.5, 0.25, 0.25, 0.125]
    """

    def __init__(self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler to be chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _current_lrs(self._schedulers[-1].optimizer)

    def step(self) -> None:  # type: ignore[override]
        """Step every scheduler, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _current_lrs(self._schedulers[-1].optimizer)

    def state_dict(self) -> dict[str, Any]:
        """As :meth:`LRScheduler.state_dict`, with the schedulers' own state dicts."""
        return _state_dict_with_schedulers(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As :meth:`LRScheduler.load_state_dict`, loading the schedulers' state dicts into them."""
        _load_state_dict_with_schedulers(self, state_dict)


def _state_dict_with_schedulers(owner: LRScheduler) -> dict[str, Any]:
    state = {key: value for key, value in owner.__dict__.items() if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [scheduler.state_dict() for scheduler in owner._schedulers]
    return state


def _load_state_dict_with_schedulers(owner: LRScheduler, state_dict: dict[str, Any]) -> None:
    state = dict(state_dict)  # the caller's dict is left as it is
    saved = state.pop("_schedulers")
    owner.__dict__.update(state)
    for scheduler, scheduler_state in zip(owner._schedulers, saved):
        scheduler.load_state_dict(scheduler_state)


# ---------------------------------------------------------------------- driven by a metric


class ReduceLROnPlateau(LRScheduler):
    """``lr *= factor`` when a metric (e.g. the validation loss, given to ``step(metric)``) has not
    improved for more than ``patience`` epochs; then waits ``cooldown`` epochs before counting again.

    An epoch improves on the best value so far when it is better by more than ``threshold``
    (relative: ``best * (1 - threshold)`` in ``'min'`` mode; absolute with ``threshold_mode='abs'``).
    The lr never goes below ``min_lr``, and changes smaller than ``eps`` are skipped.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import ReduceLROnPlateau
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    >>> sched = ReduceLROnPlateau(opt, factor=0.5, patience=1)
    >>> lrs = []
    >>> for val_loss in [3.0, 2.0, 2.5, 2.5, 1.0, 1.5, 1.5]:
    ...     opt.step()
    ...     sched.step(val_loss)
    ...     lrs.append(sched.get_last_lr()[0])
    >>> lrs
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: Literal["min", "max"] = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: Literal["rel", "abs"] = "rel",
        cooldown: int = 0,
        min_lr: list[float] | float = 0,
        eps: float = 1e-8,
    ) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr  # also used for the groups added later
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _current_lrs(optimizer)
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()
        # No constructor step, no 'initial_lr' and no check of the order of the steps: the lr
        # changes only when the metric says so.

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        """Record this epoch's metric (a number or a one-element tensor) and reduce the lr if it is time."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            _warn.warn(EPOCH_DEPRECATION_WARNING, UserWarning)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs during the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _current_lrs(self.optimizer)

    def _reduce_lr(self, epoch: int) -> None:
        if len(self.optimizer.param_groups) != len(self.min_lrs):  # a group was added since
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(self.optimizer.param_groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new "
                    "param group being added to the optimizer. Please modify the `min_lrs` field to match the "
                    "length of the `optimizer` param groups."
                )
            self.min_lrs = [self.default_min_lr] * len(self.optimizer.param_groups)
        for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    @property
    def in_cooldown(self) -> bool:
        """Whether the scheduler is still waiting after a reduction."""
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf  # the start value of best
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by :meth:`state_dict` (and check the mode)."""
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode)


# ---------------------------------------------------------------------- per batch


class OneCycleLR(LRScheduler):
    """The 1cycle policy, stepped after every batch: the lr rises from ``max_lr / div_factor`` to
    ``max_lr`` over the first ``pct_start`` of the ``total_steps``, then falls to
    ``max_lr / div_factor / final_div_factor`` (cosine or linear). The momentum (or Adam's
    ``beta1``) moves the opposite way between ``max_momentum`` and ``base_momentum``.
    ``three_phase=True`` falls back to the start lr first, then to the minimum.

    It sets ``initial_lr``, ``max_lr`` and ``min_lr`` (and ``max_momentum``, ``base_momentum``)
    in each parameter group, and the group's ``lr`` is not used.

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import OneCycleLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
    >>> sched = OneCycleLR(
    ...     opt, max_lr=1.0, total_steps=6, pct_start=0.5, anneal_strategy="linear", div_factor=10, final_div_factor=10
    ... )
    >>> lrs, momenta = [sched.get_last_lr()[0]], [opt.param_groups[0]["momentum"]]
    >>> for _ in range(5):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    ...     momenta.append(round(opt.param_groups[0]["momentum"], 4))
    >>> lrs
    [0.1, 0.55, 1.0, 0.67, 0.34, 0.01]
    >>> momenta
    [0.95, 0.9, 0.85, 0.8833, 0.9167, 0.95]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        cycle_momentum: bool = True,
        base_momentum: float | list[float] = 0.85,
        max_momentum: float | list[float] = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

        # Each phase goes, up to its end step, from a group's start value to its end value (group keys).
        up = float(pct_start * self.total_steps) - 1
        if three_phase:
            self._schedule_phases = [
                _phase(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(
                    float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"
                ),
                _phase(self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
            ]
        else:
            self._schedule_phases = [
                _phase(up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy

        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:  # (when resuming, the loaded groups hold these already)
            for group, group_max_lr in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = group_max_lr / div_factor
                group["max_lr"] = group_max_lr
                group["min_lr"] = group["initial_lr"] / final_div_factor

        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults  # Adam's beta1 plays the momentum's part
            max_momenta = _per_group("max_momentum", optimizer, max_momentum)
            base_momenta = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for group, group_max, group_base in zip(optimizer.param_groups, max_momenta, base_momenta, strict=True):
                    _set_momentum(group, group_max, self.use_beta1)
                    group["max_momentum"] = group_max
                    group["base_momentum"] = group_base
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _annealing_cos(start: float, end: float, pct: float) -> float:
        """From ``start`` (``pct = 0``) to ``end`` (``pct = 1``) along half a cosine."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start: float, end: float, pct: float) -> float:
        """From ``start`` (``pct = 0``) to ``end`` (``pct = 1``) along a line."""
        return (end - start) * pct + start

    def _anneal_func(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    def get_lr(self) -> list[float]:
        """The lr of step ``last_epoch`` for each group; also sets each group's momentum (or beta1)."""
        self._warn_if_not_stepping()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. The specified number of total steps is {self.total_steps}"
            )
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:  # the last phase runs on
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        momentum = self._anneal_func(group[phase["start_momentum"]], group[phase["end_momentum"]], pct)
                        _set_momentum(group, momentum, self.use_beta1)
                    break
                start_step = end_step
        return lrs


def _phase(end_step: float, start_lr: str, end_lr: str, start_momentum: str, end_momentum: str) -> dict[str, Any]:
    return {
        "end_step": end_step,
        "start_lr": start_lr,
        "end_lr": end_lr,
        "start_momentum": start_momentum,
        "end_momentum": end_momentum,
    }


def _set_momentum(group: dict[str, Any], momentum: float, use_beta1: bool) -> None:
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


class CyclicLR(LRScheduler):
    """A cyclical learning rate (Smith's CLR), stepped after every batch: the lr goes linearly from
    ``base_lr`` up to ``max_lr`` in ``step_size_up`` steps and back down in ``step_size_down``
    (default: as many), over and over. The height of each cycle is scaled by ``scale_fn``:

    - ``mode="triangular"``: 1 (every cycle the same);
    - ``mode="triangular2"``: ``1 / 2**(cycle - 1)`` (halved each cycle);
    - ``mode="exp_range"``: ``gamma**step`` (shrinking with every step);
    - or a function of your own ``scale_fn(x)``, of the cycle number (``scale_mode="cycle"``, from 1)
      or of the step (``scale_mode="iterations"``); ``mode`` is then not used.

    With ``cycle_momentum`` (the default) the momentum (or Adam's ``beta1``) moves the opposite way,
    from ``max_momentum`` at ``base_lr`` to ``base_momentum`` at ``max_lr``; an optimizer with
    neither is refused. The constructor sets each group's ``lr`` to ``base_lr`` (and its
    ``max_momentum`` and ``base_momentum``).

    >>> import minigrad as torch
    >>> from minigrad.optim.lr_scheduler import CyclicLR
    >>> opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0, momentum=0.9)
    >>> sched = CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2, mode="triangular2")
    >>> lrs, momenta = [sched.get_last_lr()[0]], [opt.param_groups[0]["momentum"]]
    >>> for _ in range(8):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 4))
    ...     momenta.append(round(opt.param_groups[0]["momentum"], 4))
    >>> lrs
    [0.1, 0.3, 0.5, 0.3, 0.1, 0.2, 0.3, 0.2, 0.1]
    >>> momenta
    [0.9, 0.85, 0.8, 0.85, 0.9, 0.875, 0.85, 0.875, 0.9]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr: float | list[float],
        max_lr: float | list[float],
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: Literal["triangular", "triangular2", "exp_range"] = "triangular",
        gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: Literal["cycle", "iterations"] = "cycle",
        cycle_momentum: bool = True,
        base_momentum: float = 0.8,
        max_momentum: float = 0.9,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:  # (when resuming, the loaded groups hold their lr already)
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down  # the length of a cycle
        self.step_ratio = step_size_up / self.total_size  # the part of it going up
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()

        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            self.use_beta1 = "betas" in self.optimizer.defaults  # Adam's beta1 plays the momentum's part
            self.base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for group_max, group_base, group in zip(
                    self.max_momentums, self.base_momentums, optimizer.param_groups, strict=True
                ):
                    _set_momentum(group, group_max, self.use_beta1)
                    group["max_momentum"] = group_max
                    group["base_momentum"] = group_base
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs  # the cycles' lower bounds (not the groups' initial_lr)

    def _init_scale_fn(self) -> None:
        """Pick the built-in scaling of ``mode`` (and its ``scale_mode``), unless ``scale_fn`` was given."""
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = functools.partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The scale of the cycle's height at ``x`` (the cycle number or the step, per ``scale_mode``)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x: float) -> float:
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma: float, x: float) -> float:
        return gamma**x

    def get_lr(self) -> list[float]:
        """The lr of step ``last_epoch`` for each group; also sets each group's momentum (or beta1)."""
        self._warn_if_not_stepping()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle  # where in the cycle, from 0 to 1
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale_x = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = []
        for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True):
            base_height = (max_lr - base_lr) * scale_factor
            lrs.append(base_lr + base_height * self.scale_fn(scale_x))
        if self.cycle_momentum:
            momenta = []
            for base_momentum, max_momentum in zip(self.base_momentums, self.max_momentums, strict=True):
                base_height = (max_momentum - base_momentum) * scale_factor
                momenta.append(max_momentum - base_height * self.scale_fn(scale_x))
            for group, momentum in zip(self.optimizer.param_groups, momenta, strict=True):
                _set_momentum(group, momentum, self.use_beta1)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """As :meth:`LRScheduler.state_dict`; of ``scale_fn``, only a callable object's attributes are saved."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)  # a built-in scaling is picked again from the mode
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None if fn is None or isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """As :meth:`LRScheduler.load_state_dict`; a saved callable object's attributes are restored."""
        state = dict(state_dict)  # the caller's dict is left as it is
        fn = state.pop("_scale_fn_custom")
        super().load_state_dict(state)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()
