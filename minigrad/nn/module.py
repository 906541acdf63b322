"""``nn.Module``: a container of parameters, buffers and sub-modules, as ``torch.nn.Module``.

Assigning a :class:`Parameter` or a :class:`Module` to an attribute registers it (in assignment
order); ``parameters()`` walks the tree. Moving or casting a module (``to``, ``double``,
``cuda``) replaces each parameter's *data* in place, so the parameters stay the same leaf
tensors: the optimizer still holds them and their ``grad_fn`` stays ``None``. That is the
difference between ``nn.Linear(3, 3).cuda()`` (leaf weights) and
``torch.rand(3, requires_grad=True).cuda()`` (a non-leaf made by ``ToCopyBackward0``).
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .. import backend, dtypes
from ..autograd.grad_mode import no_grad
from ..hooks import RemovableHandle, add_hook
from ..tensor import Tensor
from .parameter import Parameter


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
    """A type as Module's assignment errors name it (a tensor by its legacy type: ``torch.FloatTensor``)."""
    return value.type() if isinstance(value, Tensor) else type(value).__name__


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

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments beyond self, got {args} {kwargs}")
        # object.__setattr__: our own __setattr__ needs these dicts to exist already
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks):  # the common case: no hooks
            return self.forward(*args, **kwargs)
        for hook in tuple(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        output = self.forward(*args, **kwargs)
        for hook in tuple(self._forward_hooks.values()):
            result = hook(self, args, output)
            if result is not None:
                output = result
        return output

    def register_forward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, args) -> None or new args`` runs before ``forward``."""
        return add_hook(self._forward_pre_hooks, hook)

    def register_forward_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, args, output) -> None or new output`` runs after ``forward``."""
        return add_hook(self._forward_hooks, hook)

    # ------------------------------------------------------------------ registration
    def _check_name(self, name, kind: str) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if name == "" or "." in name:
            raise KeyError(
                f'{kind} name can\'t be empty string "" or contain "."'
                if name == ""
                else f'{kind} name can\'t contain "."'
            )

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
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
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
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_type_name(value)}' as buffer '{name}' (torch.Tensor or None expected)"
                )
            self._buffers[name] = value
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
        module = self
        if target == "":
            return module
        for item in target.split("."):
            if item not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise AttributeError(f"{type(module).__name__} has no parameter `{name}`")
        return module._parameters[name]

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
        device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        for arg in args:
            if isinstance(arg, dtypes.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                device, dtype = arg.device, arg.dtype
            elif isinstance(arg, str | backend.device | int) and not isinstance(arg, bool):
                device = arg
            elif not isinstance(arg, bool):
                raise TypeError(f"to() received an invalid combination of arguments: {arg!r}")
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

    def type(self, dst_type: dtypes.dtype) -> Module:
        return self._apply(lambda t: t.to(dst_type))

    # ------------------------------------------------------------------ saving and loading
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by dotted name (detached unless ``keep_vars``)."""
        if args:
            raise TypeError("state_dict() takes keyword arguments only (destination=, prefix=, keep_vars=)")
        destination = OrderedDict() if destination is None else destination
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False):
        """Copy values from ``state_dict`` into the parameters and buffers (in place, no graph).

        Returns ``(missing_keys, unexpected_keys)``; with ``strict`` those, and any shape mismatch,
        raise a RuntimeError listing every problem.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own: dict[str, tuple[Module, str, str]] = {}
        for module_prefix, module in self.named_modules(remove_duplicate=False):
            dotted = f"{module_prefix}." if module_prefix else ""
            for name, param in module._parameters.items():
                if param is not None:
                    own[dotted + name] = (module, "_parameters", name)
            for name, buf in module._buffers.items():
                if buf is not None and name not in module._non_persistent_buffers_set:
                    own[dotted + name] = (module, "_buffers", name)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        for key, (module, registry, name) in own.items():
            if key not in state_dict:
                continue
            value, current = state_dict[key], getattr(module, registry)[name]
            if not isinstance(value, Tensor):
                errors.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object from checkpoint but received {type(value)}'
                )
                continue
            if value.shape != current.shape:
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                    f"the shape in current model is {current.shape}."
                )
                continue
            with no_grad():
                if assign and registry == "_parameters":
                    module._parameters[name] = (
                        value if isinstance(value, Parameter) else Parameter(value, current.requires_grad)
                    )
                elif assign:
                    module._buffers[name] = value
                else:
                    current.copy_(value)
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
