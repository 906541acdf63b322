"""Which tensors have names, and which tensor stands behind an edge of the backward graph.

Tensors keep no reference to the tensors they were made from, so a drawing learns about the
tensors between operations from what the caller knows: ``names=`` or, by default, the
variables of the calling frame (``viz.draw(z)`` in a notebook labels ``x``, ``a``, ``y`` ...).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from .. import dtypes
from ..tensor import Tensor
from . import style

MAX_ALIASES = 3  # a tensor bound to several variables shows at most this many names


def caller_namespace(depth: int) -> dict[str, object]:
    """The globals overlaid with the locals of the frame ``depth`` levels above the caller."""
    frame = sys._getframe(depth + 1)
    try:
        return {**frame.f_globals, **frame.f_locals}
    finally:
        del frame  # frames in locals make reference cycles


def tensors_in(namespace: dict) -> dict[str, Tensor]:
    """The tensors a namespace names: its tensor variables and the parameters of its modules
    (``model.weight``). Names starting with ``_`` (IPython's ``_``, ``_1`` ...) are skipped."""
    from ..nn import Module

    found: dict[str, Tensor] = {}
    for key, value in namespace.items():
        if key.startswith("_"):
            continue
        if isinstance(value, Tensor):
            found[key] = value
        elif isinstance(value, Module):
            for name, p in value.named_parameters(prefix=key):
                found.setdefault(name, p)
    return found


class Names:
    """Names of known tensors (by identity) and an index of them by ``(grad_fn, output_nr)``."""

    def __init__(self, named: dict[str, Tensor]):
        self._names: dict[int, list[str]] = {}
        self._tensors: dict[int, Tensor] = {}
        self._outputs: dict[tuple[int, int], Tensor] = {}
        for name, t in named.items():
            self.add(t, name)

    @classmethod
    def resolve(cls, names, depth: int) -> Names:
        """From ``names=`` (``{"x": x}`` or ``{x: "x"}``), or the caller's variables when None.

        ``depth`` counts frames from the caller of ``resolve`` up to the user's code.
        """
        if names is None:
            return cls(tensors_in(caller_namespace(depth + 1)))
        if not isinstance(names, Mapping):
            raise TypeError(f"names must be a dict like {{'x': x}} or None, got {type(names).__name__}")
        pairs = {}
        for key, value in names.items():
            if isinstance(key, str) and isinstance(value, Tensor):
                pairs[key] = value
            elif isinstance(key, Tensor) and isinstance(value, str):
                pairs[value] = key
            else:
                raise TypeError(
                    "names must map names to tensors ({'x': x}) or tensors to names ({x: 'x'}); "
                    f"got a {type(key).__name__} key with a {type(value).__name__} value"
                )
        return cls(pairs)

    def add(self, tensor: Tensor, name: str | None = None) -> None:
        """Know ``tensor`` (so edges can be matched to it), under ``name`` if given."""
        key = id(tensor)
        self._tensors[key] = tensor
        if name is not None:
            aliases = self._names.setdefault(key, [])
            if name not in aliases:
                aliases.append(name)
        if tensor.grad_fn is not None:
            self._outputs.setdefault((id(tensor.grad_fn), tensor._output_nr), tensor)

    def name(self, tensor: Tensor | None) -> str | None:
        """The variable name(s) of ``tensor``: ``'y'``, or ``'y, w'`` for aliases (each cut to
        ``style.NAME_LIMIT`` characters)."""
        if tensor is None:
            return None
        aliases = self._names.get(id(tensor))
        if not aliases:
            return None
        shown = ", ".join(style.shorten(a) for a in aliases[:MAX_ALIASES])
        return shown + (", ..." if len(aliases) > MAX_ALIASES else "")

    def output(self, node, nr: int) -> Tensor | None:
        """The known tensor that ``node`` produced as its output ``nr``, if any."""
        t = self._outputs.get((id(node), nr))
        if t is not None and t.grad_fn is node:  # it may have been detached in place since
            return t
        retained = node.retained_tensor(nr)
        if retained is not None:
            self.add(retained)
            return retained
        return None

    def saved_name(self, node, entry) -> str | None:
        """The name of a tensor ``node`` saved; a saved output is known as that output of ``node``
        (it is kept without the tensor object, as in PyTorch)."""
        name = self.name(entry.tensor)
        if name is None and entry.output_nr is not None:
            name = self.name(self.output(node, entry.output_nr))
        return name

    def named_tensors(self) -> dict[str, Tensor]:
        """Every known tensor under its first name (for callers that name tensors themselves)."""
        return {names[0]: self._tensors[key] for key, names in self._names.items()}


def saved_input(node, index: int) -> Tensor | None:
    """The tensor object behind input ``index`` of ``node`` when the node saved it (else None).

    An operation saves the inputs its derivative reads; those hold the very tensor object, which
    identifies inputs that have no grad_fn of their own (constants, detached tensors).
    """
    saved = getattr(node, "saved", None)
    op = getattr(node, "op", None)
    if not saved or op is None:
        return None
    if op.variadic is not None:
        entries = saved.get(op.variadic)
        entry = entries[index] if isinstance(entries, list) and index < len(entries) else None
    else:
        entry = saved.get(op.inputs[index]) if index < len(op.inputs) else None
    tensor = getattr(entry, "tensor", None)
    return tensor if isinstance(tensor, Tensor) else None


def input_meta(node, index: int):
    """``(shape, dtype)`` of input ``index`` of ``node`` when the node recorded it (else None)."""
    meta = getattr(node, "input_meta", None)
    if meta is not None and index < len(meta):
        shape, array_dtype = meta[index]
        return (shape, dtypes.from_array_dtype(array_dtype))
    shapes = getattr(node, "_input_shapes", None)  # custom autograd.Function nodes
    if shapes is not None and index < len(shapes) and shapes[index] is not None:
        return (shapes[index], None)
    return None


def input_label(node, index: int) -> str | None:
    """The name of input ``index`` in PyTorch's terms (``self``, ``other``, ``tensors[1]``)."""
    op = getattr(node, "op", None)
    if op is None:
        return None
    index = node.edge_inputs[index] if hasattr(node, "edge_inputs") else index  # (a NotImplemented node)
    if op.variadic is not None:
        return f"{op.variadic}[{index}]"
    return op.inputs[index] if index < len(op.inputs) else None
