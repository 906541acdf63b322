"""``nn.Module``: a container of parameters, buffers and sub-modules, as ``torch.nn.Module``.

Assigning a :class:`Parameter` or a :class:`Module` to an attribute registers it (in assignment
order); ``parameters()`` walks the tree. Moving or casting a module (``to``, ``double``,
``cuda``) replaces each parameter's *data* in place, so the parameters stay the same leaf
tensors: the optimizer still holds them and their ``grad_fn`` stays ``None``. That is the
difference between ``nn.Linear(3, 3).cuda()`` (leaf weights) and
``torch.rand(3, requires_grad=True).cuda()`` (a non-leaf made by ``ToCopyBackward0``).

Hooks: forward pre-hooks and hooks run around ``forward``; full backward hooks see the gradients
of the module's inputs and outputs, caught by identity nodes around ``forward``
(``_backward_hooks.py``); ``state_dict`` and ``load_state_dict`` have hooks too, and work module
by module through ``_save_to_state_dict``/``_load_from_state_dict``, which a subclass may override.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .. import _warn, backend, dtypes
from ..autograd.grad_mode import no_grad
from ..factories import empty_like
from ..hooks import RemovableHandle, add_hook, new_arguments
from ..tensor import Tensor
from ._backward_hooks import BackwardHook
from .parameter import Buffer, Parameter


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and those it did not expect, printed
    as PyTorch prints them (``<All keys matched successfully>`` when both are empty)."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _type_name(value) -> str:
    """A type as Module's errors name it (``torch.typename``): a tensor by its legacy type
    (``torch.FloatTensor``), another object by its class's dotted path (``int``, ``minigrad.nn.module.Module``)."""
    if isinstance(value, Tensor):
        return value.type()
    module = getattr(value, "__module__", "") or ""
    if hasattr(value, "__qualname__"):
        qualname = value.__qualname__
    elif hasattr(value, "__name__"):
        qualname = value.__name__
    else:
        module, qualname = type(value).__module__ or "", type(value).__qualname__
    return qualname if module in {"", "builtins"} else f"{module}.{qualname}"


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool) -> RemovableHandle:
    """Register ``hook`` last, or first with ``prepend``."""
    handle = add_hook(hooks, hook)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def _indent(text: str, spaces: int) -> str:
    """Indent every line but the first (how nested module reprs line up)."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


class Module:
    """Base class of every layer and model.

    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> class Affine(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.scale = nn.Parameter(torch.tensor(2.0))
    ...     def forward(self, x):
    ...         return self.scale * x
    >>> m = Affine()
    >>> [name for name, _ in m.named_parameters()]
    ['scale']
    >>> m(torch.tensor(3.0))
    tensor(6., grad_fn=<MulBackward0>)
    """

    training: bool
    _version: int = 1  # saved in state_dict's metadata; a subclass bumps it when its state_dict layout changes

    def __init__(self, *args, **kwargs) -> None:
        if kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            )
        if args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        # object.__setattr__: our own __setattr__ needs these dicts to exist already
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        for hooks in (
            "_forward_pre_hooks",
            "_forward_hooks",
            "_backward_pre_hooks",
            "_backward_hooks",
            "_state_dict_pre_hooks",
            "_state_dict_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
        ):
            object.__setattr__(self, hooks, OrderedDict())
        # the ids of the forward hooks registered with_kwargs=True or always_call=True
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_hooks_always_called", set())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)  # the common case: no hooks
        result, called = None, set()  # (called: the always_call hooks that ran before an error)
        try:
            for hook_id, hook in tuple(self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    new = hook(self, args, kwargs)
                    if new is not None:
                        args, kwargs = new_arguments(new, "forward pre-hook")
                else:
                    new = hook(self, args)
                    if new is not None:
                        args = new if isinstance(new, tuple) else (new,)
            backward_hook = None
            if self._backward_hooks or self._backward_pre_hooks:
                # identity nodes around forward catch the gradients of its inputs and outputs
                backward_hook = BackwardHook(
                    self, list(self._backward_hooks.values()), list(self._backward_pre_hooks.values())
                )
                args = backward_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in tuple(self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called:
                    called.add(hook_id)
                result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
            if backward_hook is not None:
                if not isinstance(result, Tensor | tuple):
                    _warn.warn(
                        "For backward hooks to be called, module output should be a Tensor or a tuple of Tensors "
                        f"but received {type(result)}",
                    )
                result = backward_hook.setup_output_hook(result)
            return result
        except Exception:
            # forward hooks registered with always_call=True run even when forward (or a hook) raised
            for hook_id, hook in tuple(self._forward_hooks.items()):
                if hook_id not in self._forward_hooks_always_called or hook_id in called:
                    continue
                try:
                    result = self._run_forward_hook(hook_id, hook, args, kwargs, result)
                except Exception as e:
                    _warn.warn(
                        "module forward hook with ``always_call=True`` raised an exception that was silenced "
                        f"as another error was raised in forward: {e}",
                    )
            raise

    def _run_forward_hook(self, hook_id: int, hook: Callable, args: tuple, kwargs: dict, result):
        """``result``, or what the forward hook returns instead of it."""
        if hook_id in self._forward_hooks_with_kwargs:
            new = hook(self, args, kwargs, result)
        else:
            new = hook(self, args, result)
        return result if new is None else new

    def register_forward_pre_hook(
        self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """``hook(module, args) -> None or new args`` runs before ``forward``; with ``with_kwargs``,
        ``hook(module, args, kwargs) -> None or (new args, new kwargs)``. ``prepend`` runs it first."""
        handle = _add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        return handle

    def register_forward_hook(
        self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False, always_call: bool = False
    ) -> RemovableHandle:
        """``hook(module, args, output) -> None or new output`` runs after ``forward`` (with
        ``with_kwargs``: ``hook(module, args, kwargs, output)``). ``prepend`` runs it first;
        ``always_call`` runs it also when ``forward`` raises."""
        handle = _add_hook(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        if always_call:
            self._forward_hooks_always_called.add(handle.id)
        return handle

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_output) -> None or new grad_output`` runs when the gradients of the
        module's outputs are known, before those of its inputs are computed."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_input, grad_output) -> None or new grad_input`` runs when the
        gradients of the module's inputs have been computed (``None`` for an input that is not a
        tensor or does not require grad).

        >>> import minigrad as torch
        >>> layer = torch.nn.Linear(2, 1)
        >>> def show(module, grad_input, grad_output):
        ...     print([g.shape for g in grad_input], [g.shape for g in grad_output])
        >>> handle = layer.register_full_backward_hook(show)
        >>> layer(torch.ones(3, 2, requires_grad=True)).sum().backward()
        [torch.Size([3, 2])] [torch.Size([3, 1])]
        """
        return _add_hook(self._backward_hooks, hook, prepend)

    # ------------------------------------------------------------------ registration
    def _check_name(self, name, kind: str) -> None:
        """PyTorch's checks of a new parameter's or buffer's name, in its order."""
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_type_name(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` (or ``None``, a declared but absent parameter) under ``name``."""
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_type_name(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created explicitly. "
                f"To express '{name}' as a function of another Tensor, compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (saved in ``state_dict`` when persistent)."""
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' (torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        if "_modules" not in self.__dict__:
            raise AttributeError("cannot assign module before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_type_name(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_type_name(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)"
                )
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = value
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_type_name(value)}' as child module '{name}' (torch.nn.Module or None expected)"
                )
            self._modules[name] = None
        elif params is not None and (name in self._buffers or isinstance(value, Buffer)):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            persistent = value.persistent if isinstance(value, Buffer) else name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: dict) -> None:
        """Drop ``name`` from the other registries (``keep`` holds it in place, keeping its order)."""
        self.__dict__.pop(name, None)
        for registry in (self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: parameters, buffers and children live in dicts.
        for registry in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(registry)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    # ------------------------------------------------------------------ traversal
    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """This module and every descendant, depth first, with dotted names ('' for this one)."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct sub-modules with their attribute names."""
        seen = set()
        for name, child in self._modules.items():
            if child is not None and child not in seen:
                seen.add(child)
                yield name, child

    def children(self) -> Iterator[Module]:
        for _, child in self.named_children():
            yield child

    def _named_members(self, registry: str, prefix: str, recurse: bool, remove_duplicate: bool):
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        seen = set()
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                seen.add(value)
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Each parameter with its dotted name (``'0.weight'`` in a Sequential), shared ones once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters in registration order, depth first (what you hand to an optimizer)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target: str) -> Module:
        """The sub-module at the dotted path ``target`` (``''``: this module)."""
        module = self
        if target == "":
            return module
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put ``module`` at the dotted path ``target``; with ``strict``, only in place of an existing one."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        path, _, name = target.rpartition(".")
        parent = self.get_submodule(path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def _get_member(self, target: str, registry: str, kind: str) -> Tensor:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        if name not in getattr(module, registry):
            raise AttributeError(f"`{name}` is not {kind}")
        return getattr(module, name)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target`` (``'0.weight'``)."""
        return self._get_member(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target`` (``'bn.running_mean'``)."""
        return self._get_member(target, "_buffers", "a buffer")

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every sub-module (children first) and then on this module."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True) -> Module:
        """Set training mode here and in every sub-module (it changes e.g. Dropout)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to ``None`` (default), or to zeros in place."""
        for param in self.parameters():
            _zero_grad(param, set_to_none)

    # ------------------------------------------------------------------ moving and casting
    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        """Replace every parameter's (and grad's) data by ``fn(data)``; buffers are replaced."""
        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                with no_grad():
                    param.data = fn(param.data)  # the same Parameter object: still a leaf
                    if param._grad is not None:
                        param._grad.data = fn(param._grad.data)
            for name, buf in module._buffers.items():
                if buf is not None:
                    module._buffers[name] = fn(buf)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Move and/or cast the parameters and buffers: ``to(device)``, ``to(dtype)``, ``to(tensor)``.

        Only floating point tensors change dtype. Returns ``self``.
        """
        device, dtype = _parse_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}"
            )
        device = None if device is None else backend.as_device(device)

        def convert(t: Tensor) -> Tensor:
            return t.to(
                device=device or t.device, dtype=dtype if dtype is not None and t.is_floating_point() else t.dtype
            )

        return self._apply(convert)

    def cuda(self, device=None) -> Module:
        return self.to(backend.device("cuda", device) if isinstance(device, int) or device is None else device)

    def cpu(self) -> Module:
        return self.to("cpu")

    def _cast(self, dtype: dtypes.dtype) -> Module:
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._cast(dtypes.float64)

    def float(self) -> Module:
        return self._cast(dtypes.float32)

    def half(self) -> Module:
        return self._cast(dtypes.float16)

    def type(self, dst_type: dtypes.dtype | str) -> Module:
        """Cast every parameter and buffer (integer ones too) to ``dst_type``: a dtype or a type
        name such as ``'torch.DoubleTensor'``."""
        return self._apply(lambda t: t.type(dst_type))

    def to_empty(self, *, device, recurse: bool = True) -> Module:
        """Give the parameters and buffers new, uninitialised storage on ``device``."""
        modules = self.modules() if recurse else [self]
        for module in modules:
            for param in module._parameters.values():
                if param is not None:
                    param.data = empty_like(param.data, device=device)
            for name, buf in module._buffers.items():
                if buf is not None:
                    module._buffers[name] = empty_like(buf, device=device)
        return self

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by dotted name (detached unless ``keep_vars``).

        The result's ``_metadata`` holds each module's ``_version`` (``load_state_dict`` reads it).
        """
        if args:  # PyTorch still takes (destination, prefix, keep_vars) by position, with a warning
            _warn.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict for details.",
                FutureWarning,
            )
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in tuple(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        for hook in tuple(self._state_dict_hooks.values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """Put this module's own state (not its children's) into ``destination``; a subclass may
        override it to save something else."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def get_extra_state(self) -> Any:
        """Override it (and :meth:`set_extra_state`) to save more than tensors in ``state_dict``."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug."
        )

    def set_extra_state(self, state: Any) -> None:
        """Take back what :meth:`get_extra_state` saved."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug."
        )

    def register_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict`` saves this module."""
        return add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` runs after ``state_dict`` saved this
        module and its children; it may change ``state_dict`` in place and must return None."""
        return add_hook(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` runs before ``load_state_dict`` loads this module (it may edit ``state_dict``)."""
        return add_hook(self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, incompatible_keys)`` runs after ``load_state_dict`` loaded this module and
        its children; it may edit the missing and unexpected keys in place and must return None."""
        return add_hook(self._load_state_dict_post_hooks, hook)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False):
        """Copy values from ``state_dict`` into the parameters and buffers (in place, no graph;
        with ``assign``, put the given tensors in their places).

        Returns ``(missing_keys, unexpected_keys)``; with ``strict`` those, and any shape mismatch,
        raise a RuntimeError listing every problem.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)

        def load(module: Module, local_state_dict: dict, prefix: str) -> None:
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = f"{prefix}{name}."
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in tuple(module._load_state_dict_post_hooks.values()):
                if hook(module, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return "
                        "new values, if incompatible_keys need to be modified, it should be done inplace."
                    )

        load(self, OrderedDict(state_dict), "")
        if strict:
            if unexpected:
                errors.insert(
                    0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected))
                )
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(
        self,
        state_dict: dict,
        prefix: str,
        local_metadata: dict,
        strict: bool,
        missing_keys: list,
        unexpected_keys: list,
        error_msgs: list,
    ) -> None:
        """Load this module's own state (not its children's) from the keys of ``state_dict`` that
        start with ``prefix``, noting what is missing, unexpected or wrong; a subclass may override it."""
        for hook in tuple(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = {name: p for name, p in self._parameters.items() if p is not None}
        local_state.update(
            (name, b)
            for name, b in self._buffers.items()
            if b is not None and name not in self._non_persistent_buffers_set
        )
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, current in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object from '
                    f"checkpoint but received {type(value)}"
                )
                continue
            if current.dim() == 0 and value.shape == (1,):
                value = value[0]  # (checkpoints of old PyTorch versions saved scalars as one-element vectors)
            if value.shape != current.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                    f"the shape in current model is {current.shape}."
                )
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(current, Parameter):
                            if isinstance(value, Parameter):
                                value.requires_grad_(current.requires_grad)
                            else:
                                value = Parameter(value, requires_grad=current.requires_grad)
                        setattr(self, name, value)
                    else:
                        current.copy_(value)
            except Exception as ex:
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model are {current.size()} '
                    f"and whose dimensions in the checkpoint are {value.size()}, an exception occurred : {ex.args}."
                )
        extra_state_key = prefix + "_extra_state"
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    name, *rest = key[len(prefix) :].split(".", 1)
                    if name not in (self._modules if rest else local_state):  # a dotted name must lead to a child
                        unexpected_keys.append(key)

    # ------------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """The arguments shown inside this module's parentheses; subclasses override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_indent(repr(child), 2)}" for name, child in self._modules.items()]
        lines = extra_lines + child_lines
        if not lines:
            return f"{self._get_name()}()"
        if len(extra_lines) == 1 and not child_lines:
            return f"{self._get_name()}({extra_lines[0]})"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


def _parse_to(args: tuple, kwargs: dict) -> tuple:
    """The device and dtype of ``Module.to``'s arguments, taken as PyTorch's three forms:
    ``(device=None, dtype=None, non_blocking=False, copy=False, *, memory_format=None)``, and
    ``(dtype, ...)`` or ``(tensor, ...)`` followed by ``non_blocking``, ``copy``."""
    if args and isinstance(args[0], dtypes.dtype):
        names = ("dtype", "non_blocking", "copy")
    elif args and isinstance(args[0], Tensor):
        names = ("tensor", "non_blocking", "copy")
    else:
        names = ("device", "dtype", "non_blocking", "copy")
    given = dict(zip(names, args))
    kinds = {
        "device": str | backend.device | int | None,
        "dtype": dtypes.dtype | None,
        "non_blocking": bool,
        "copy": bool,
        "memory_format": object,
        "tensor": Tensor,
    }
    valid = len(args) <= len(names) and all(k in kinds and k not in given for k in kwargs)
    given.update(kwargs)
    valid = valid and all(isinstance(v, kinds[k]) for k, v in given.items())
    if not valid or isinstance(given.get("device"), bool):

        def name(value) -> str:
            return "torch.dtype" if isinstance(value, dtypes.dtype) else type(value).__name__

        got = ", ".join([name(a) for a in args] + [f"{k}={name(v)}" for k, v in kwargs.items()])
        raise TypeError(f"to() received an invalid combination of arguments - got ({got}{'' if args else ', '})")
    if given.get("copy"):
        raise RuntimeError(".to() does not accept copy argument")
    if "tensor" in given:
        return given["tensor"].device, given["tensor"].dtype
    return given.get("device"), given.get("dtype")


def _zero_grad(param: Tensor, set_to_none: bool) -> None:
    """Forget ``param.grad`` or zero it in place (detaching it first if it has a graph)."""
    if param._grad is None:
        return
    if set_to_none:
        param.grad = None
        return
    grad = param._grad
    if grad.grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    grad.zero_()
