"""What an autograd node keeps for its backward (``show_saved``), read without unpacking it.

Unpacking a saved tensor raises once it is freed or modified in place; a drawing instead shows
those states: ``freed`` after a backward without ``retain_graph``, ``stale`` when the tensor
changed after it was saved (the backward would fail with the in-place error).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import backend
from ..autograd.graph import SavedTensor
from ..functions import ViewSteps
from ..tensor import Tensor
from . import style

OK, FREED, STALE, PACKED = "ok", "freed", "stale", "packed"  # PACKED: held by a saved tensor hook


@dataclass
class SavedEntry:
    """One saved tensor of a node: its name (``self``, ``result``), the tensor, its state."""

    name: str
    tensor: Tensor | None  # the saved tensor (rebuilt for a saved output), None once freed
    shape: tuple | None
    state: str
    saved_version: int | None = None
    current_version: int | None = None
    output_nr: int | None = None  # which output of its node the tensor is, for a saved output


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


def param_text(value, show_values: bool = True, name: str | None = None) -> str:
    """How a drawing writes a parameter: ints and strings as in Python (``dim = 1``,
    ``reduction = 'mean'``), floats rounded as on a slide (``other = 0.7071``), tuples as tuples,
    an index as the subscript it was (``key = [:, 1:]``), view steps by name (``steps = slice → t``),
    and an array (an index, a mask, class targets, pooling's indices: PyTorch saves those as
    tensors) summarised as a tensor is, so a large one does not stretch its node across the picture.

    >>> from minigrad.viz.saved import param_text
    >>> param_text(0.8408964152537145), param_text((2, 2)), param_text("mean")
    ('0.8409', '(2, 2)', "'mean'")
    >>> param_text((slice(None), slice(1, None), Ellipsis, None, 0), name="key")
    '[:, 1:, ..., None, 0]'
    """
    if backend.is_array(value):  # on one line: a parameter is one row of its node
        return style.one_line(style.summary(Tensor._make(value), show_values))
    if isinstance(value, ViewSteps):  # the views a view is taken again by, by name: 'slice → t'
        return repr(value)
    if name == "key" and isinstance(value, tuple):  # what the tensor was subscripted with
        return "[" + ", ".join(_index_text(v, show_values) for v in value) + "]"
    if isinstance(value, tuple | list):
        items = [param_text(v, show_values) for v in value]
        if isinstance(value, list):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, str):
        return repr(value)  # 'none' must not read as None
    return style.number_text(value)


def _index_text(item, show_values: bool) -> str:
    if isinstance(item, slice):
        parts = ["" if p is None else style.number_text(p) for p in (item.start, item.stop, item.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if item.step is not None else "")
    if item is Ellipsis:
        return "..."
    if backend.is_array(item):  # as it was written: x[tensor([0, 2])]; a big one by its shape
        t = Tensor._make(item)
        values = style.values_text(t) if show_values else None
        if values is not None:
            return _with_suffixes(f"tensor({values}", t)
        kind = "bool mask" if t.dtype.name == "bool" else "index"
        return f"{kind} {style.shape_text(t.shape)}"
    return param_text(item, show_values)


def _with_suffixes(text: str, t: Tensor) -> str:
    return text + ("" if t.dtype.name in ("int64", "bool") else f", dtype=torch.{t.dtype.name}") + ")"


def _entry(name: str, saved: SavedTensor) -> SavedEntry:
    if saved.counter is None:
        return SavedEntry(name, None, None, FREED)
    if saved.unpack_hook is not None:  # what the hook keeps is its own: drawing must not unpack it
        return SavedEntry(name, None, None, PACKED)
    tensor = saved.tensor if saved.tensor is not None else Tensor._make(saved.data)
    state = STALE if saved.counter.value != saved.version else OK
    return SavedEntry(name, tensor, tuple(tensor.shape), state, saved.version, saved.counter.value, saved.output_nr)
