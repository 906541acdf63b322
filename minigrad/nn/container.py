"""Containers: ``Sequential`` (a pipeline), ``ModuleList`` and ``ModuleDict`` (a list and a dict
whose modules register), ``ParameterList`` and ``ParameterDict`` (whose tensors register as
parameters). What a container holds is registered under its index or key, so
``parameters()``, ``state_dict()``, ``to()`` and ``zero_grad()`` see it, named as in PyTorch
(``'layers.0.weight'``, ``'scales.alpha'``).
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..tensor import Tensor
from .module import Module, _indent
from .parameter import Parameter


def _checked_index(index: int, size: int) -> int:
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


class Sequential(Module):
    """Modules applied one after the other; ``Sequential(a, b)`` or ``Sequential(OrderedDict(...))``.

    Children are named ``'0'``, ``'1'``, ... (so parameters are ``'0.weight'``), or by the keys.

    >>> from minigrad import nn
    >>> net = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    >>> [name for name, _ in net.named_parameters()]
    ['0.weight', '0.bias']
    """

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def _key(self, index: int) -> str:
        keys = list(self._modules)
        return keys[_checked_index(operator.index(index), len(keys))]

    def __getitem__(self, index: int | slice) -> Module | Sequential:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return self._modules[self._key(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, self._key(index), module)

    def __delitem__(self, index: int | slice) -> None:
        doomed = list(self._modules)[index] if isinstance(index, slice) else [self._key(index)]
        for key in doomed:
            delattr(self, key)  # (as PyTorch: a parameter or buffer of the same name goes first)
        # renumber so that names stay 0..n-1, as PyTorch does
        items = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(items):
            self._modules[str(i)] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> Sequential:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Insert ``module`` before ``index``, shifting the later ones up (PyTorch's loop, which
        names them by number, so a Sequential of named modules takes no insert)."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def pop(self, key: int | slice) -> Module:
        """Remove and return the module at ``key`` (the rest are renumbered)."""
        module = self[key]
        del self[key]
        return module

    def __add__(self, other: Sequential) -> Sequential:
        """A new ``Sequential`` of this one's modules followed by ``other``'s."""
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return self.extend(list(other))

    def _check_factor(self, other: int) -> None:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")

    def __mul__(self, other: int) -> Sequential:
        """A new ``Sequential`` of this one's modules, ``other`` times over (the same modules: shared)."""
        self._check_factor(other)
        return Sequential(*(list(self) * other))

    def __rmul__(self, other: int) -> Sequential:
        return self.__mul__(other)

    def __imul__(self, other: int) -> Sequential:
        self._check_factor(other)
        return self.extend(list(self) * (other - 1))

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class ModuleList(Module):
    """A list of modules that are registered (their parameters show in ``parameters()``).

    Like PyTorch's, its repr folds a run of equal modules into one line.

    >>> from minigrad import nn
    >>> nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])
    ModuleList(
      (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)
      (2): ReLU()
    )
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _index_key(self, index: int) -> str:
        return str(_checked_index(operator.index(index), len(self)))

    def __getitem__(self, index: int | slice) -> Module | ModuleList:
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[self._index_key(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, self._index_key(index), module)

    def __delitem__(self, index: int | slice) -> None:
        if isinstance(index, slice):
            for k in range(len(self._modules))[index]:
                delattr(self, str(k))
        else:
            delattr(self, self._index_key(index))
        # renumber so that names stay 0..n-1, as PyTorch does
        modules = list(self._modules.values())
        self._modules.clear()
        self._modules.update((str(i), m) for i, m in enumerate(modules))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        combined = ModuleList()
        for i, module in enumerate([*self, *other]):
            combined.add_module(str(i), module)
        return combined

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append each of ``modules``."""
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got {type(modules).__name__}")
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before ``index``, shifting the later ones up (PyTorch's loop, which
        takes no negative index)."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def pop(self, key: int | slice) -> Module:
        """Remove and return the module at ``key``."""
        module = self[key]
        del self[key]
        return module

    def __repr__(self) -> str:
        reprs = [repr(module) for module in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []  # [first index, last index, repr] of equal neighbours
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = [
            _indent(f"({first}): {text}" if first == last else f"({first}-{last}): {last - first + 1} x {text}", 2)
            for first, last, text in runs
        ]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules that are registered under their keys (which must be strings).

    >>> from minigrad import nn
    >>> heads = nn.ModuleDict({"mean": nn.Linear(4, 1), "scale": nn.Linear(4, 1)})
    >>> [name for name, _ in heads.named_parameters()]
    ['mean.weight', 'mean.bias', 'scale.weight', 'scale.bias']
    """

    def __init__(self, modules: Mapping[str, Module] | Iterable | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove the module under ``key`` and return it."""
        module = self[key]
        del self[key]
        return module

    def keys(self) -> Iterable[str]:
        """The keys, in insertion order."""
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        """(key, module) pairs, in insertion order."""
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        """The modules, in insertion order."""
        return self._modules.values()

    def update(self, modules: Mapping[str, Module] | Iterable) -> None:
        """Add (or replace) modules from a mapping, or from an iterable of (key, module) pairs."""
        for key, module in _pairs(modules, "ModuleDict", "ModuleDict", sort=False):
            self[key] = module


def _pairs(items, kind: str, name: str, sort: bool) -> list[tuple]:
    """The (key, value) pairs of a dict container's ``update`` argument, with PyTorch's errors: a
    mapping's items (sorted by key when ``sort``: PyTorch sorts a plain dict given to a
    ParameterDict), or an iterable of pairs."""
    if not isinstance(items, Iterable):
        raise TypeError(
            f"{name}.update should be called with an iterable of key/value pairs, but got {type(items).__name__}"
        )
    if isinstance(items, OrderedDict | ModuleDict | ParameterDict):
        return list(items.items())
    if isinstance(items, Mapping):
        return sorted(items.items()) if sort else list(items.items())
    pairs = []
    for j, pair in enumerate(items):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{kind} update sequence element #{j} should be Iterable; is{type(pair).__name__}")
        if len(pair) != 2:
            raise ValueError(f"{kind} update sequence element #{j} has length {len(pair)}; 2 is required")
        pairs.append((pair[0], pair[1]))
    return pairs


def _entry(key, value, type_name) -> str:
    """One line of a ParameterList's or ParameterDict's repr; ``type_name(tensor)`` names the
    tensor's type (the dtype in a list, ``torch.FloatTensor`` in a dict, as PyTorch prints them)."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    device = f" ({value.device})" if value.device.type == "cuda" else ""
    return f"  ({key}): {kind} containing: [{type_name(value)} of size {size}{device}]"


class ParameterList(Module):
    """A list of parameters, registered as ``'0'``, ``'1'``, ...; a tensor put in becomes a
    :class:`Parameter` (other objects are kept as they are, unregistered).

    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> scales = nn.ParameterList([torch.ones(2), torch.zeros(3)])
    >>> scales
    ParameterList(
        (0): Parameter containing: [torch.float32 of size 2]
        (1): Parameter containing: [torch.float32 of size 3]
    )
    >>> [name for name, _ in scales.named_parameters()]
    ['0', '1']
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _index_key(self, index: int) -> str:
        return str(_checked_index(operator.index(index), len(self)))

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            out = type(self)()
            for i in range(*index.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._index_key(index))

    def __setitem__(self, index: int, value: Any) -> None:
        key = self._index_key(index)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, key, value)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable[Any]) -> ParameterList:
        return self.extend(values)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value: Any) -> ParameterList:
        """Add ``value`` at the end (a tensor becomes a Parameter)."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Append each of ``values`` (an iterable, not a tensor)."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError(f"ParameterList.extend should be called with an iterable, but got {type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_entry(i, p, lambda t: t.dtype) for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters registered under their keys (strings); a tensor put in becomes a
    :class:`Parameter`. A plain dict given to it is taken in sorted key order, as in PyTorch (an
    ``OrderedDict`` or a list of pairs keeps its order).

    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> d = nn.ParameterDict({"shift": torch.zeros(2), "scale": torch.ones(2)})
    >>> d
    ParameterDict(
        (scale): Parameter containing: [torch.FloatTensor of size 2]
        (shift): Parameter containing: [torch.FloatTensor of size 2]
    )
    >>> list(d.state_dict())
    ['scale', 'shift']
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key_to_attr(key: str) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need non-string keys."
            )
        return key

    def __getitem__(self, key: str) -> Any:
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value: Any) -> None:
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)
        self._keys[key] = None

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters, in the same order."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any | None = None) -> Any:
        """``self[key]``, first set to ``default`` if ``key`` is missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def pop(self, key: str) -> Any:
        """Remove the entry under ``key`` and return it."""
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        """Remove the last entry and return it as ``(key, value)``."""
        if not self._keys:
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(self._keys))
        return key, self.pop(key)

    def get(self, key: str, default: Any | None = None) -> Any:
        """``self[key]``, or ``default`` if ``key`` is missing."""
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default: Any | None = None) -> ParameterDict:
        """A new ParameterDict with each of ``keys`` set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self) -> Iterable[str]:
        """The keys, in insertion order."""
        return self._keys.keys()

    def items(self) -> Iterator[tuple[str, Any]]:
        """(key, value) pairs, in insertion order."""
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterator[Any]:
        """The values, in insertion order."""
        return (self[k] for k in self._keys)

    def update(self, parameters: Mapping[str, Any] | Iterable) -> None:
        """Add (or replace) entries from a mapping (a plain dict in sorted key order), or from an
        iterable of (key, value) pairs."""
        for key, value in _pairs(parameters, "ParameterDict", "ParametersDict", sort=True):
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_entry(k, p, lambda t: t.type()) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self
