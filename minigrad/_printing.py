"""Printing tensors exactly as PyTorch prints them (same widths, precision and suffixes)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from . import backend, dtypes


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

# PyTorch's profiles: (precision, threshold, edgeitems, linewidth).
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set how tensors print, as ``torch.set_printoptions`` does.

    ``profile`` (``"default"``, ``"short"``, ``"full"``) sets the first four options, which the
    others then override; ``sci_mode`` is reset to automatic (None) unless given, as in PyTorch.

    >>> import minigrad as torch
    >>> torch.set_printoptions(precision=2)
    >>> torch.tensor([1.12345])
    tensor([1.12])
    >>> torch.set_printoptions(threshold=5)
    >>> torch.arange(10)
    tensor([0, 1, 2,  ..., 7, 8, 9])
    >>> torch.set_printoptions(profile="default")
    >>> torch.tensor([1.12345])
    tensor([1.1235])
    """
    if profile in _PROFILES:  # PyTorch ignores an unknown profile
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current options, as keyword arguments for :func:`set_printoptions`.

    >>> from minigrad._printing import get_printoptions
    >>> get_printoptions()["precision"]
    4
    """
    return asdict(PRINT_OPTS)


class _Formatter:
    """Chooses one format for all elements: integer-looking floats, fixed point or scientific."""

    def __init__(self, values: list, floating: bool):
        self.floating = floating
        self.precision = PRINT_OPTS.precision
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            self.max_width = max((len(str(v)) for v in values), default=1)
            return
        # PyTorch measures only the finite nonzero values, keeping their signs.
        finite = [v for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return
        lo, hi = min(abs(v) for v in finite), max(abs(v) for v in finite)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        if self.sci_mode:
            self.max_width = max(len(f"{v:.{self.precision}e}") for v in finite)
        elif self.int_mode:
            self.max_width = max(len(f"{v:.0f}") + 1 for v in finite)  # + 1 for the "."
        else:
            self.max_width = max(len(f"{v:.{self.precision}f}") for v in finite)

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{self.precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{self.precision}f}"
        else:
            text = str(value)
        return " " * (self.max_width - len(text)) + text


def _summarized(array) -> list:
    """The values that will be shown (edges only when the tensor is large): the format is
    chosen from these alone, as PyTorch's ``get_summarized_data`` does."""
    edge = PRINT_OPTS.edgeitems
    if array.ndim == 0:
        return [array.item()]
    if array.ndim == 1:
        if array.shape[0] > 2 * edge:
            return array[:edge].tolist() + array[-edge:].tolist()
        return array.tolist()
    if not edge:
        return []
    n = array.shape[0]
    rows = list(range(edge)) + list(range(n - edge, n)) if n > 2 * edge else range(n)
    return [v for i in rows for v in _summarized(array[i])]


def _vector(array, indent: int, summarize: bool, fmt: _Formatter) -> str:
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and array.shape[0] > 2 * edge:
        data = [fmt.format(v) for v in array[:edge].tolist()] + [" ..."]
        data += [fmt.format(v) for v in array[-edge:].tolist()]
    else:
        data = [fmt.format(v) for v in array.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(array, indent: int, summarize: bool, fmt: _Formatter) -> str:
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _vector(array, indent, summarize, fmt)
    n, edge = array.shape[0], PRINT_OPTS.edgeitems
    if summarize and n > 2 * edge:
        rows = [_body(array[i], indent + 1, summarize, fmt) for i in range(edge)]
        rows += ["..."] + [_body(array[i], indent + 1, summarize, fmt) for i in range(n - edge, n)]
    else:
        rows = [_body(array[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_str(t, indent: int) -> str:
    """The bracketed values of ``t`` as PyTorch shows them."""
    array = backend.to_numpy(t._data)
    if array.size == 0:
        return "[]"
    if t.dtype is dtypes.float16:
        array = array.astype("float64")
    summarize = array.size > PRINT_OPTS.threshold
    values = _summarized(array) if summarize else array.reshape(-1).tolist()
    fmt = _Formatter(values, t.dtype.is_floating_point)
    return _body(array, indent, summarize, fmt)


def tensor_repr(t, prefix: str = "tensor(") -> str:
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if t.numel() == 0:
        body = "[]"
        if t.ndim != 1:  # as NumPy, the shape is shown unless it is (0,)
            suffixes.append(f"size={tuple(t.shape)}")
    else:
        body = tensor_str(t, indent)
        if not PRINT_OPTS.edgeitems:  # no values shown, so the shape is
            suffixes.append(f"size={tuple(t.shape)}")
    # An empty tensor has no values to show that it holds integers or bools, so only the default
    # float dtype goes unnamed there.
    implied = (
        (dtypes.get_default_dtype(),) if t.numel() == 0 else (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool)
    )
    if t.dtype not in implied:
        suffixes.append(f"dtype={t.dtype}")
    try:
        grad_fn = t.grad_fn
    except RuntimeError:  # a view of unbind/split whose base changed in place has none: PyTorch shows it
        suffixes.append("grad_fn=<Invalid>")
    else:
        if grad_fn is not None:
            suffixes.append(f"grad_fn=<{grad_fn.name()}>")
        elif t.requires_grad:
            suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + body, suffixes, indent)


def _with_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
