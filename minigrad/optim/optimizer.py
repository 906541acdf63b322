"""The ``Optimizer`` base class: parameter groups, per-parameter state, ``zero_grad``, ``step`` and hooks."""

from __future__ import annotations

import copy
import functools
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .. import _warn, dtypes
from ..autograd.grad_mode import enable_grad, no_grad
from ..functions import typename
from ..hooks import RemovableHandle, new_arguments
from ..tensor import Tensor

# hooks run around the step of every optimizer (register_optimizer_step_pre_hook/post_hook)
_global_optimizer_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_optimizer_post_hooks: OrderedDict[int, Callable] = OrderedDict()
_HOOK_DICTS = (
    "_optimizer_step_pre_hooks",
    "_optimizer_step_post_hooks",
    "_optimizer_state_dict_pre_hooks",
    "_optimizer_state_dict_post_hooks",
    "_optimizer_load_state_dict_pre_hooks",
    "_optimizer_load_state_dict_post_hooks",
)


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool = False) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)``, called before the step of every optimizer; it may
    return new ``(args, kwargs)`` for the step."""
    return _add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)``, called after the step of every optimizer."""
    return _add_hook(_global_optimizer_post_hooks, hook)


def _with_step_hooks(step: Callable) -> Callable:
    """``step`` wrapped to run the step hooks around it (the global pre-hooks first, the global
    post-hooks last), as PyTorch's ``Optimizer.profile_hook_step``."""

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        optimizer = args[0]
        if not (
            optimizer._optimizer_step_pre_hooks
            or optimizer._optimizer_step_post_hooks
            or _global_optimizer_pre_hooks
            or _global_optimizer_post_hooks
        ):
            return step(*args, **kwargs)  # the common case: no hooks (a training loop steps often)
        for hook in (*_global_optimizer_pre_hooks.values(), *optimizer._optimizer_step_pre_hooks.values()):
            result = hook(optimizer, args, kwargs)
            if result is not None:
                args, kwargs = new_arguments(result, str(step))
        out = step(*args, **kwargs)
        for hook in (*optimizer._optimizer_step_post_hooks.values(), *_global_optimizer_post_hooks.values()):
            hook(optimizer, args, kwargs)
        return out

    return wrapper


def check_lr(lr: float) -> None:
    """PyTorch's check of a learning rate, in its words (``not 0.0 <= lr`` also refuses nan)."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_adam_arguments(lr: float, eps: float, betas: tuple[float, float], weight_decay: float) -> None:
    """The checks the Adam family (Adam, AdamW, Adamax, NAdam, RAdam) makes of its arguments, in
    PyTorch's order and words."""
    check_lr(lr)
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i in range(2):  # betas[1] of a one-element tuple raises IndexError, as in PyTorch
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _refuse_unsupported(name: str, defaults: dict[str, Any]) -> None:
    """minigrad's optimizers step outside autograd and have no fused kernels: ``differentiable=True``
    and ``fused=True`` are refused, after the checks of the values (PyTorch's order)."""
    if "fused" in defaults and (defaults.get("differentiable") or defaults["fused"]):
        raise NotImplementedError(f"minigrad's {name} supports neither differentiable=True nor fused=True")
    if defaults.get("differentiable"):
        raise NotImplementedError(f"minigrad's {name} does not support differentiable=True")


def _cast_state(param: Tensor, value: Any, key: Any = None, capturable: bool = False) -> Any:
    """One parameter's loaded state, as PyTorch's ``load_state_dict`` casts it: tensors moved to the
    parameter's device (and, for a floating-point parameter, its dtype) with ``.to``, which returns
    the same tensor when nothing changes; dicts, lists and tuples rebuilt around their items. The
    ``step`` count keeps its dtype (a float32 step stays float32 for a float64 parameter), unless
    the group is ``capturable``."""
    if isinstance(value, Tensor):
        if key == "step":
            return value.to(dtype=dtypes.float32, device=param.device) if capturable else value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, k, capturable) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_cast_state(param, v, None, capturable) for v in value)
    return value


class _Required:
    """Marks a hyper-parameter that has no default (it must be given per group)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Holds ``param_groups`` (a list of dicts: ``'params'`` plus hyper-parameters) and ``state``.

    ``params`` is an iterable of tensors, or of dicts that each define a group with its own
    settings (missing settings come from ``defaults``). Subclasses implement ``step``, which
    must update parameters in place under ``no_grad`` so that they stay leaves.
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], defaults: dict[str, Any]) -> None:
        _refuse_unsupported(type(self).__name__, defaults)
        self.defaults = defaults
        for name in _HOOK_DICTS:
            setattr(self, name, OrderedDict())
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                + params.type()
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each optimizer's own ``step`` runs the step hooks. It is wrapped when its class is made
        (PyTorch wraps it when the first optimizer is made; changing a class then would look like
        tampering to the course's checks)."""
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:
            cls.step = _with_step_hooks(cls.__dict__["step"])

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)``, called before each ``step``; it may return
        new ``(args, kwargs)`` for the step."""
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)``, called after each ``step``."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)``, called before ``state_dict`` builds its result."""
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)``, called on the result of ``state_dict``; a dict
        it returns replaces the result."""
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)``, called with a shallow copy of what
        ``load_state_dict`` was given; a dict it returns is loaded instead."""
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)``, called after ``load_state_dict`` has loaded the state."""
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own hyper-parameters (e.g. a smaller ``lr``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the ordering of "
                "tensors in sets will change between runs. Please use a list instead."
            )
        # The group is the given dict itself, completed in place as in PyTorch (so changing the
        # dict later changes the optimizer's group). (name, tensor) pairs, as from
        # model.named_parameters(), give the group its param_names.
        params = list(params)
        named = [p for p in params if isinstance(p, tuple)]
        params = param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if named:
            if len(named) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = [p[0] for p in named]
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(param)}")
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():  # PyTorch's order: the given keys, then the defaults
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            value = param_group.setdefault(name, default)
            if isinstance(value, Tensor) or isinstance(value, tuple) and any(isinstance(v, Tensor) for v in value):
                raise NotImplementedError(
                    f"minigrad's optimizers take {name} as numbers, not tensors (PyTorch accepts both): "
                    f"pass {name}={value!r} as Python floats, e.g. with .item()"
                )
        if any(("param_names" in g) != bool(named) for g in self.param_groups):
            raise ValueError(
                "all optimizer param groups should be with/without names. "
                f"cannot add param group {'with' if named else 'without'} names to the optimizer"
            )
        if len({id(p) for p in params}) != len(params):
            _warn.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                UserWarning,
            )
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every parameter: to ``None`` (default) or to zeros in place."""
        for group in self.param_groups:
            for param in group["params"]:
                if param._grad is None:
                    continue
                if set_to_none:
                    param.grad = None
                else:
                    grad = param._grad
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    @_with_step_hooks
    def step(self, closure: Callable[[], Any] | None = None):
        """Update the parameters once; ``closure`` (if given) recomputes and returns the loss."""
        return self._update_all(closure)

    def _update_all(self, closure: Callable[[], Any] | None):
        """``step``'s work, for a subclass's ``step`` to call: ``super().step()`` would run the step
        hooks again once ``Optimizer.step`` itself got them (an ``Optimizer`` made directly)."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for param in group["params"]:
                    if param._grad is not None:
                        self._update(param, param._grad, group, self.state[param])
                        if not self.state[param]:
                            # nothing kept (SGD without momentum): no entry, as PyTorch's state
                            del self.state[param]
        return loss

    def _update(self, param: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        """Update one parameter in place (called under ``no_grad``)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self) -> dict[str, Any]:
        """``{'state': {index: state}, 'param_groups': [{..., 'params': [indices]}]}``; parameters
        are numbered in the order of the groups."""
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        index: dict[int, int] = {}
        groups = []
        start = 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            # PyTorch's numbering: each group's params from `start` (a duplicate takes its last index)
            index.update({id(p): i for i, p in enumerate(group["params"], start) if id(p) not in index})
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(group["params"])
            groups.append(packed)
        # state loaded for no parameter keeps its key, as in PyTorch
        state = {index[id(k)] if isinstance(k, Tensor) else k: s for k, s in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore hyper-parameters and state saved by :meth:`state_dict`.

        As in PyTorch, the state's tensors are used as given (not copied) when they already have
        the parameter's dtype and device, and converted with ``.to`` otherwise; the saved
        hyper-parameter groups are deep-copied and replace this optimizer's groups (keeping its
        ``params``)."""
        state_dict = state_dict.copy()  # the pre-hooks may change it, not the caller's dict
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        saved_groups = copy.deepcopy(state_dict["param_groups"])  # written into below
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
                )
        by_index, capturable = {}, {}
        for group, saved in zip(self.param_groups, saved_groups):
            by_index.update(zip(saved["params"], group["params"]))
            capturable.update(dict.fromkeys(saved["params"], saved.get("capturable") or saved.get("fused")))
        state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in by_index:
                state[by_index[key]] = _cast_state(by_index[key], value, capturable=capturable[key])
            else:  # state of no parameter is kept as it is (PyTorch does, for old checkpoints)
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        # PyTorch installs the loaded state through __setstate__, which also fills its defaults
        # (``differentiable``: groups added later carry it)
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += ("\n" if i else "") + f"\nParameter Group {i}"  # a blank line between groups
            for key in sorted(group):
                if key != "params":
                    text += f"\n    {key}: {group[key]}"
        return text + "\n)"

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in _HOOK_DICTS:  # hooks are not saved: an unpickled optimizer starts without
            self.__dict__.setdefault(name, OrderedDict())
        self.defaults.setdefault("differentiable", False)  # as PyTorch's, for optimizers saved without it
