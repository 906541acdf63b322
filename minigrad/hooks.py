"""Handles returned by ``register_hook`` and friends."""

from __future__ import annotations

import itertools

_ids = itertools.count()


class RemovableHandle:
    """Returned by every ``register_*hook``; ``remove()`` unregisters the hook.

    >>> import minigrad as torch
    >>> v = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> h = v.register_hook(lambda grad: grad * 2)
    >>> h.remove()
    """

    def __init__(self, hooks: dict):
        self.id = next(_ids)
        self._hooks = hooks

    def remove(self) -> None:
        self._hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class _MultiHandle(RemovableHandle):
    """One handle for several hooks (``register_multi_grad_hook``): ``remove()`` removes them all."""

    def __init__(self, handles: tuple[RemovableHandle, ...]):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def add_hook(hooks: dict, fn) -> RemovableHandle:
    """Store ``fn`` in ``hooks`` (kept in registration order) and return its handle."""
    if not callable(fn):
        raise TypeError(f"hook must be callable, got {type(fn).__name__}")
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def new_arguments(result, hook_kind: str) -> tuple:
    """What a pre-hook that sees keyword arguments returned in place of them: ``(new_args,
    new_kwargs)``, or PyTorch's error (module forward pre-hooks, optimizer step pre-hooks)."""
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(f"{hook_kind} must return None or a tuple of (new_args, new_kwargs), but got {result}.")
    return result
