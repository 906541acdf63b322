"""Writing a backward trace to disk for slides and lecture notes.

Either one file per step (SVG, PNG or PDF), or one self-contained HTML page: every step's SVG
inline plus a few lines of JavaScript (buttons, a slider, arrow keys, play), so it works from
a file, offline, without a kernel.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .trace import Trace

FORMATS = ("svg", "png", "pdf")


def svg_markup(svg: str) -> str:
    """An SVG document without its XML prolog, ready to sit inside HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def save_steps(trace: Trace, path, format: str = "svg", **options) -> list[str]:  # noqa: A002
    """See :meth:`Trace.save`."""
    path = Path(path)
    if path.suffix.lower() in (".html", ".htm"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html_page(trace, **options), encoding="utf-8")
        return [str(path)]
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    path.mkdir(parents=True, exist_ok=True)
    width = len(str(trace.steps - 1))
    written = []
    for step in range(trace.steps):
        data = trace.draw(step, **options).pipe(format=format)
        target = path / f"step_{step:0{max(2, width)}d}.{format}"
        target.write_bytes(data)
        written.append(str(target))
    return written


def html_page(trace: Trace, title: str = "Backward pass, step by step", **options) -> str:
    """One HTML page that steps through every picture of ``trace``."""
    frames = []
    for step in range(trace.steps):
        svg = svg_markup(trace.draw(step, **options).pipe(format="svg", encoding="utf-8"))
        hidden = "" if step == 0 else " hidden"
        caption = html.escape(trace.describe(step))
        frames.append(f'<figure class="step"{hidden}>{svg}<figcaption>{caption}</figcaption></figure>')
    last = trace.steps - 1
    return _PAGE.format(
        title=html.escape(title),
        last=last,
        frames=os.linesep.join(frames),
        count=json.dumps(trace.steps),
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }}
  .controls {{ display: flex; gap: .5em; align-items: center; margin-bottom: 1em; }}
  .controls input[type=range] {{ width: 20em; }}
  figure {{ margin: 0; }}
  figcaption {{ margin-top: .5em; font-size: 1.05em; max-width: 60em; }}
  svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="controls">
  <button id="first" title="first step">&#x23EE;</button>
  <button id="prev" title="previous step (left arrow)">&#x25C0;</button>
  <button id="play" title="play / pause (space)">&#x25B6; play</button>
  <button id="next" title="next step (right arrow)">&#x25B6;</button>
  <button id="last" title="last step">&#x23ED;</button>
  <input id="slider" type="range" min="0" max="{last}" value="0">
  <span id="counter">step 0 / {last}</span>
</div>
{frames}
<script>
(function () {{
  var count = {count}, current = 0, timer = null;
  var steps = document.querySelectorAll("figure.step");
  var slider = document.getElementById("slider"), counter = document.getElementById("counter");
  var play = document.getElementById("play");
  function show(k) {{
    current = Math.max(0, Math.min(count - 1, k));
    steps.forEach(function (el, i) {{ el.hidden = i !== current; }});
    slider.value = current;
    counter.textContent = "step " + current + " / " + (count - 1);
  }}
  function stop() {{ if (timer) {{ clearInterval(timer); timer = null; play.innerHTML = "&#x25B6; play"; }} }}
  function toggle() {{
    if (timer) {{ stop(); return; }}
    if (current === count - 1) show(0);
    play.innerHTML = "&#x23F8; pause";
    timer = setInterval(function () {{ if (current >= count - 1) stop(); else show(current + 1); }}, 1200);
  }}
  document.getElementById("first").onclick = function () {{ stop(); show(0); }};
  document.getElementById("prev").onclick = function () {{ stop(); show(current - 1); }};
  document.getElementById("next").onclick = function () {{ stop(); show(current + 1); }};
  document.getElementById("last").onclick = function () {{ stop(); show(count - 1); }};
  play.onclick = toggle;
  slider.oninput = function () {{ stop(); show(parseInt(slider.value, 10)); }};
  document.addEventListener("keydown", function (e) {{
    if (e.key === "ArrowRight") {{ stop(); show(current + 1); }}
    else if (e.key === "ArrowLeft") {{ stop(); show(current - 1); }}
    else if (e.key === " ") {{ e.preventDefault(); toggle(); }}
  }});
  show(0);
}})();
</script>
</body>
</html>
"""
