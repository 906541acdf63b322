"""What an autograd node keeps for its backward (``show_saved``), read without unpacking it.

Unpacking a saved tensor raises once it is freed or modified in place; a drawing instead shows
those states: ``freed`` after a backward without ``retain_graph``, ``stale`` when the tensor
changed after it was saved (the backward would fail with the in-place error).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import backend
from ..autograd.graph import SavedTensor
from ..tensor import Tensor
from . import style

OK, FREED, STALE = "ok", "freed", "stale"


@dataclass
class SavedEntry:
    """One saved tensor of a node: its name (``self``, ``result``), the tensor, its state."""

    name: str
    tensor: Tensor | None  # the saved tensor (rebuilt for a saved output), None once freed
    shape: tuple | None
    state: str
    saved_version: int | None = None
    current_version: int | None = None


def saved_entries(node) -> list[SavedEntry]:
    """The saved tensors of ``node`` in the order it saved them."""
    pairs: list[tuple[str, object]] = []
    saved = getattr(node, "saved", None)
    if isinstance(saved, dict):
        for name, value in saved.items():
            if isinstance(value, list):
                pairs += [(f"{name}[{i}]", v) for i, v in enumerate(value)]
            else:
                pairs.append((name, value))
    elif hasattr(node, "_saved"):  # a custom autograd.Function
        pairs = [(f"saved_tensors[{i}]", v) for i, v in enumerate(node._saved or ()) if isinstance(v, SavedTensor)]
    return [_entry(name, s) for name, s in pairs]


def saved_params(node) -> dict:
    """Non-tensor arguments a node keeps (``dim``, ``alpha`` ...), as torchviz shows them."""
    params = getattr(node, "params", None)
    return dict(params) if isinstance(params, dict) else {}


def param_text(value, show_values: bool = True) -> str:
    """How a drawing writes a parameter: as it is (``dim = 1``, ``shape = (2, 3)``), but an array
    (an index, a mask, class targets, pooling's indices: PyTorch saves those as tensors) as a
    tensor is summarised, so a large one does not stretch its node across the picture."""
    if backend.is_array(value):
        return style.summary(Tensor._make(value), show_values)
    if type(value) is tuple and any(backend.is_array(v) for v in value):
        return "(" + ", ".join(param_text(v, show_values) for v in value) + ")"
    return str(value)


def _entry(name: str, saved: SavedTensor) -> SavedEntry:
    if saved.counter is None:
        return SavedEntry(name, None, None, FREED)
    tensor = saved.tensor if saved.tensor is not None else Tensor._make(saved.data)
    state = STALE if saved.counter.value != saved.version else OK
    return SavedEntry(name, tensor, tuple(tensor.shape), state, saved.version, saved.counter.value)
