"""Draw minigrad's computation graphs with Graphviz, and step through a backward pass.

- :func:`draw` -- the tensor view (tensors as nodes, forward arrows);
- :func:`draw_backward` -- the autograd view (``grad_fn`` nodes, backward arrows);
- :func:`trace_backward` -- run a real backward and record every step;
  :class:`BackwardPlayer` steps through it in JupyterLab, ``trace.save()`` writes it to files.

Every drawing is a ``graphviz.Digraph``: ``.source`` is its DOT text, ``.render()`` writes
SVG/PNG/PDF, and Jupyter displays it inline.
"""

from .backward_view import draw_backward
from .drawing import Drawing, GraphvizNotFoundError
from .player import BackwardPlayer
from .tensor_view import draw
from .trace import Accumulation, Frame, HookCall, Trace, trace_backward

__all__ = [
    "Accumulation",
    "BackwardPlayer",
    "Drawing",
    "Frame",
    "GraphvizNotFoundError",
    "HookCall",
    "Trace",
    "draw",
    "draw_backward",
    "trace_backward",
]
