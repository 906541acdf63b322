"""Printing tensors exactly as PyTorch prints them (same widths, precision and suffixes)."""

from __future__ import annotations

import math

from . import backend, dtypes

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80


class _Formatter:
    """Chooses one format for all elements: integer-looking floats, fixed point or scientific."""

    def __init__(self, values: list, floating: bool):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            self.max_width = max((len(str(v)) for v in values), default=1)
            return
        finite = [abs(v) for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return
        lo, hi = min(finite), max(finite)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                self.max_width = max(len(f"{v:.{PRECISION}e}") for v in _signed(values))
            else:
                self.max_width = max(len(f"{v:.0f}") + 1 for v in _signed(values))
        elif hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
            self.sci_mode = True
            self.max_width = max(len(f"{v:.{PRECISION}e}") for v in _signed(values))
        else:
            self.max_width = max(len(f"{v:.{PRECISION}f}") for v in _signed(values))

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{PRECISION}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{PRECISION}f}"
        elif isinstance(value, bool):
            text = str(value)
        else:
            text = str(value)
        return " " * (self.max_width - len(text)) + text


def _signed(values):
    # PyTorch measures widths over the finite nonzero values, keeping their signs.
    return [v for v in values if math.isfinite(v) and v != 0]


def _summarized(array, summarize: bool):
    """The values that will be shown (edges only when the tensor is large)."""
    if not summarize:
        return array.reshape(-1).tolist()
    out = []

    def walk(a):
        if a.ndim == 0:
            out.append(a.item())
        elif a.shape[0] > 2 * EDGEITEMS:
            for i in list(range(EDGEITEMS)) + list(range(a.shape[0] - EDGEITEMS, a.shape[0])):
                walk(a[i])
        else:
            for i in range(a.shape[0]):
                walk(a[i])

    walk(array)
    return out


def _vector(array, indent: int, summarize: bool, fmt: _Formatter) -> str:
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((LINEWIDTH - indent) / element_length)))
    values = array.tolist()
    if summarize and len(values) > 2 * EDGEITEMS:
        data = [fmt.format(v) for v in values[:EDGEITEMS]] + [" ..."] + [fmt.format(v) for v in values[-EDGEITEMS:]]
    else:
        data = [fmt.format(v) for v in values]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(array, indent: int, summarize: bool, fmt: _Formatter) -> str:
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _vector(array, indent, summarize, fmt)
    n = array.shape[0]
    if summarize and n > 2 * EDGEITEMS:
        rows = [_body(array[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)]
        rows += ["..."] + [_body(array[i], indent + 1, summarize, fmt) for i in range(n - EDGEITEMS, n)]
    else:
        rows = [_body(array[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_str(t, indent: int) -> str:
    """The bracketed values of ``t`` as PyTorch shows them."""
    array = backend.to_numpy(t._data)
    if t.dtype is dtypes.float16:
        array = array.astype("float64")
    summarize = array.size > THRESHOLD
    fmt = _Formatter(_summarized(array, summarize), t.dtype.is_floating_point)
    return _body(array, indent, summarize, fmt)


def tensor_repr(t, prefix: str = "tensor(") -> str:
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if t.numel() == 0:
        body = "[]"
        if t.shape != (0,):
            suffixes.append(f"size={tuple(t.shape)}")
    else:
        body = tensor_str(t, indent)
    # An empty tensor has no values to show that it holds integers or bools, so only the default
    # float dtype goes unnamed there.
    implied = (
        (dtypes.get_default_dtype(),) if t.numel() == 0 else (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool)
    )
    if t.dtype not in implied:
        suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + body, suffixes, indent)


def _with_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
