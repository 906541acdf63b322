"""Containers: ``Sequential`` (a pipeline) and ``ModuleList`` (a list whose modules register)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator

from .module import Module


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

    def __getitem__(self, index: int | slice) -> Module | Sequential:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        keys = list(self._modules)
        return self._modules[keys[_checked_index(index, len(keys))]]

    def __setitem__(self, index: int, module: Module) -> None:
        keys = list(self._modules)
        setattr(self, keys[_checked_index(index, len(keys))], module)

    def __delitem__(self, index: int | slice) -> None:
        keys = list(self._modules)
        doomed = keys[index] if isinstance(index, slice) else [keys[_checked_index(index, len(keys))]]
        for key in doomed:
            del self._modules[key]
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
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        items = list(self._modules.values())
        items.insert(index % (n + 1) if index < 0 else index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m
        return self


class ModuleList(Module):
    """A list of modules that are registered (their parameters show in ``parameters()``)."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index: int | slice) -> Module | ModuleList:
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        keys = list(self._modules)
        return self._modules[keys[_checked_index(index, len(keys))]]

    def __setitem__(self, index: int, module: Module) -> None:
        keys = list(self._modules)
        setattr(self, keys[_checked_index(index, len(keys))], module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self
