"""Colours, fonts and the HTML-like labels that every minigrad drawing shares.

Graphviz "HTML-like" labels (``label=<...>``) let one node show a bold name, small grey
attributes and coloured badges; everything a caller supplies (names, values) is escaped here.
"""

from __future__ import annotations

import math
import numbers

from .._printing import tensor_str

FONT = "Helvetica"

# Tensor kinds (the tensor view) -- (fill, border).
LEAF = ("#c8e6c9", "#2e7d32")  # a leaf that requires grad: where .grad is accumulated
INTERMEDIATE = ("#fff59d", "#c49000")  # made by a recorded operation (has a grad_fn)
NO_GRAD = ("#e0e0e0", "#757575")  # requires_grad=False: autograd ignores it
# Autograd nodes.
OPERATION = ("#dbe9f8", "#1f5fa8")  # a grad_fn (e.g. MulBackward0)
SAVED = ("#ffe0b2", "#e65100")  # a tensor an operation saved for its backward
MORE = ("#ffffff", "#9e9e9e")  # "... N more": the part of a huge graph left out

# Badges (fill colour).
RETAINS_GRAD = "#90caf9"
HOOK = "#e1bee7"
VERSION = "#ffcdd2"
FREED = "#eeeeee"

# The backward player.
CURRENT = ("#ffab91", "#d84315")
GRADIENT_EDGE = "#c62828"

SMALL = 9  # point size of secondary text
VALUE_LIMIT = 6  # tensors with at most this many elements show their values
NAME_LIMIT = 40  # longer names (variables, hooks) are cut, so one node does not span the picture


def esc(text: object) -> str:
    """``text`` escaped for an HTML-like label."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def shorten(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def one_line(text: str) -> str:
    """A tensor's printed values on one line: ``[[1., 2.], [3., 4.]]``."""
    return " ".join(line.strip() for line in text.split("\n"))


def multiline(text: str) -> str:
    """Escaped text whose line breaks survive in an HTML-like label (left aligned)."""
    lines = [esc(line) for line in text.split("\n")]
    return '<BR ALIGN="LEFT"/>'.join(lines) + ('<BR ALIGN="LEFT"/>' if len(lines) > 1 else "")


def bold(text: str) -> str:
    return f"<B>{esc(text)}</B>"


def small(text: str, color: str = "#444444") -> str:
    return f'<FONT POINT-SIZE="{SMALL}" COLOR="{color}">{esc(text)}</FONT>'


def badge(text: str, fill: str) -> str:
    return f'<TD BGCOLOR="{fill}" CELLPADDING="2"><FONT POINT-SIZE="{SMALL}">{esc(text)}</FONT></TD>'


def table(rows: list[str], badges: list[str] | None = None) -> str:
    """An HTML-like label: one row per entry of ``rows`` (already marked up), then the badges."""
    body = "".join(f"<TR><TD>{row}</TD></TR>" for row in rows)
    if badges:
        inner = "".join(badges)
        body += f'<TR><TD><TABLE BORDER="0" CELLSPACING="2" CELLPADDING="0"><TR>{inner}</TR></TABLE></TD></TR>'
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{body}</TABLE>>'


def shape_text(shape) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def number_text(value) -> str:
    """A number as a lecture slide shows it: an int exactly, a float to 4 significant digits.

    A float stays recognisably a float (``3.0``, ``-0.0``, ``nan``, ``-inf``); one that needs more
    digits is rounded, keeping its trailing zeros to say so (0.99999 gives ``1.000``, exact 1.0
    gives ``1.0``); tiny and huge ones keep their exponent (``1e-08``, ``1.235e+07``).

    >>> from minigrad.viz.style import number_text
    >>> [number_text(v) for v in (0.7071067811865476, 0.5, 3.0, -0.0, 1e-08, 1234.5678, 2**40)]
    ['0.7071', '0.5', '3.0', '-0.0', '1e-08', '1234.6', '1099511627776']
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    v = float(value)
    # A NumPy float32 prints its own shortest digits (0.1, not 0.10000000149011612).
    text = repr(v) if type(value) is float else str(value)
    if not math.isfinite(v) or v == 0 or (v.is_integer() and abs(v) < 1e15):
        return repr(v)
    digits = text.lstrip("-").split("e")[0].replace(".", "").strip("0")
    if len(digits) <= 4 and _is_number(text):
        return text
    if 1000 <= abs(v) < 1e6:  # 4 digits would drop the point ("1235"): keep one decimal
        return f"{v:.1f}"
    text = f"{v:#.4g}"
    return text + "0" if text.endswith(".") else text  # 999.99 -> "1000." -> "1000.0"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def values_text(tensor, limit: int = VALUE_LIMIT) -> str | None:
    """The values of a small tensor as PyTorch prints them (``3.``, ``[1., 2.]``), else None."""
    if tensor is None or tensor.numel() == 0 or tensor.numel() > limit:
        return None
    return tensor_str(tensor, 0)


def summary(tensor, show_values: bool = True, show_device: bool = True) -> str:
    """Values when small (and wanted), else the shape; the dtype when it is not float32; the
    device when it is not the CPU (``cuda:0``) and ``show_device`` (tensors show it; gradients,
    always on their tensor's device, leave it out)."""
    text = values_text(tensor) if show_values else None
    if text is None:
        text = "shape " + shape_text(tensor.shape)
    if tensor.dtype.name != "float32":
        text += f"  {tensor.dtype.name}"
    if show_device and tensor.device.type != "cpu":
        text += f"  {tensor.device}"
    return text


def end_label(where: str, text: str, index: int) -> dict[str, str]:
    """A small label at one end of an edge (``headlabel``/``taillabel``): unlike ``label`` it
    does not add layout ranks, which keeps big graphs fast to lay out."""
    angle, distance = (25 if index % 2 == 0 else -25), "2.5"
    if where == "taillabel":  # seen from the other end of the edge, on shorter edges
        angle, distance = -angle, "2"
    return {where: text, "labeldistance": distance, "labelangle": str(angle), "fontcolor": "#777777"}


def node_attrs(colors: tuple[str, str], dashed: bool = False, **extra: str) -> dict[str, str]:
    """Graphviz attributes of a filled, rounded box in ``colors`` (fill, border)."""
    style = "filled,rounded,dashed" if dashed else "filled,rounded"
    attrs = {"shape": "box", "style": style, "fillcolor": colors[0], "color": colors[1]}
    attrs.update(extra)
    return attrs
