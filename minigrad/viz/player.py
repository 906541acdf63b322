"""``BackwardPlayer(trace)``: step through a recorded backward pass in JupyterLab.

A play button and a slider choose the step; the picture shows the autograd graph at that step
(the node that ran highlighted, each arrow labelled with the gradient it carried) and a caption
says what happened. Pictures are rendered once per step and cached.
"""

from __future__ import annotations

import html

from .export import svg_markup
from .trace import Trace


class BackwardPlayer:
    """An ipywidgets player for a :class:`~minigrad.viz.trace.Trace`.

    Display it as the last expression of a cell (or with ``display(player)``). ``interval`` is
    the time per step in milliseconds when playing; ``options`` go to :meth:`Trace.draw`.

    Attributes: ``play`` and ``slider`` (the controls, linked), ``picture`` (an ``HTML`` widget
    with the SVG of the step shown), ``caption``, and ``widget`` (the whole box).
    """

    def __init__(self, trace: Trace, interval: int = 1200, **options):
        try:
            import ipywidgets as widgets
        except ImportError as exc:  # pragma: no cover - ipywidgets is a notebook extra
            raise ImportError(
                "BackwardPlayer needs ipywidgets: pip install ipywidgets (or minigrad[notebook]); "
                "without it, trace.save('steps.html') writes a page that plays in a browser"
            ) from exc
        if not isinstance(trace, Trace):
            raise TypeError(f"BackwardPlayer expects the result of viz.trace_backward(), got {type(trace).__name__}")
        self.trace = trace
        self.options = options
        self._svgs: dict[int, str] = {}
        last = trace.steps - 1
        self.play = widgets.Play(value=0, min=0, max=last, step=1, interval=interval, description="play")
        self.slider = widgets.IntSlider(value=0, min=0, max=last, step=1, description="step", continuous_update=True)
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.caption = widgets.HTML()
        self.picture = widgets.HTML()
        self.widget = widgets.VBox([widgets.HBox([self.play, self.slider]), self.caption, self.picture])
        self.slider.observe(self._on_step, names="value")
        self.show(0)

    @property
    def step(self) -> int:
        return self.slider.value

    def show(self, step: int) -> None:
        """Show ``step`` (0 is the start, before any node ran)."""
        if self.slider.value != step:
            self.slider.value = step  # the observer redraws
            return
        self._draw(step)

    def svg(self, step: int) -> str:
        """The SVG markup of ``step`` (rendered once)."""
        if step not in self._svgs:
            drawing = self.trace.draw(step, **self.options)
            self._svgs[step] = svg_markup(drawing.pipe(format="svg", encoding="utf-8"))
        return self._svgs[step]

    def _on_step(self, change) -> None:
        self._draw(change["new"])

    def _draw(self, step: int) -> None:
        self.caption.value = f"<b>{html.escape(self.trace.describe(step))}</b>"
        self.picture.value = self.svg(step)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
