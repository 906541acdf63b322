"""The object every drawing is: a ``graphviz.Digraph`` that explains a missing Graphviz install.

``.source`` (the DOT text) never needs Graphviz; ``.render()``, ``.pipe()`` and the inline
display in Jupyter run the ``dot`` program, and raise :class:`GraphvizNotFoundError` with the
install commands when it is not there.
"""

from __future__ import annotations

import graphviz

from . import style

INSTALL_HELP = (
    "minigrad.viz needs the Graphviz programs (the `dot` command) to render a drawing, and they "
    "were not found on PATH. Install them with one of:\n"
    "    conda install -c conda-forge graphviz     (conda environments)\n"
    "    sudo apt-get install graphviz             (Debian, Ubuntu)\n"
    "    brew install graphviz                     (macOS)\n"
    "    winget install graphviz                   (Windows; then add its bin folder to PATH)\n"
    "then restart the kernel. The DOT text of the drawing is still available as `.source`."
)

RANKDIRS = ("TB", "LR", "BT", "RL")


class GraphvizNotFoundError(graphviz.ExecutableNotFound):
    """The Graphviz programs are not installed (a ``graphviz.ExecutableNotFound``)."""

    def __init__(self, detail: str = ""):
        RuntimeError.__init__(self, INSTALL_HELP + (f"\n({detail})" if detail else ""))


class Drawing(graphviz.Digraph):
    """A ``graphviz.Digraph`` whose rendering errors say how to install Graphviz."""

    def pipe(self, *args, **kwargs):
        try:
            return super().pipe(*args, **kwargs)
        except graphviz.ExecutableNotFound as exc:
            if isinstance(exc, GraphvizNotFoundError):
                raise
            raise GraphvizNotFoundError(str(exc)) from exc

    def render(self, *args, **kwargs):
        try:
            return super().render(*args, **kwargs)
        except graphviz.ExecutableNotFound as exc:
            if isinstance(exc, GraphvizNotFoundError):
                raise
            raise GraphvizNotFoundError(str(exc)) from exc

    def unflatten(self, *args, **kwargs):
        try:
            return super().unflatten(*args, **kwargs)
        except graphviz.ExecutableNotFound as exc:
            raise GraphvizNotFoundError(str(exc)) from exc


def new_drawing(name: str, rankdir: str) -> Drawing:
    """An empty drawing with minigrad's fonts and spacing, laid out in direction ``rankdir``."""
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {', '.join(RANKDIRS)}, got {rankdir!r}")
    return Drawing(
        name,
        graph_attr={"rankdir": rankdir, "fontname": style.FONT, "nodesep": "0.3", "ranksep": "0.35"},
        node_attr={"fontname": style.FONT, "fontsize": "11", "margin": "0.08,0.04"},
        edge_attr={"fontname": style.FONT, "fontsize": str(style.SMALL), "color": "#555555", "arrowsize": "0.7"},
    )


def legend(dot: Drawing, rows: list[tuple[str, str, str, str]]) -> None:
    """Add the legend node: one ``(fill, border, cell style, text)`` row per colour or mark."""
    cells = ['<TR><TD COLSPAN="2" ALIGN="LEFT"><B>Legend</B></TD></TR>']
    for fill, border, cell_style, text in rows:
        look = f' STYLE="{cell_style}"' if cell_style else ""
        cells.append(
            f'<TR><TD BGCOLOR="{fill}" COLOR="{border}" BORDER="1" WIDTH="26" HEIGHT="14"{look}></TD>'
            f'<TD ALIGN="LEFT">{style.small(text, "#222222")}</TD></TR>'
        )
    label = f'<<TABLE BORDER="1" COLOR="#bdbdbd" CELLBORDER="0" CELLSPACING="3">{"".join(cells)}</TABLE>>'
    dot.node("legend", label=label, shape="plaintext")


def more_node(dot: Drawing, hidden: int, why: str) -> str:
    """Add the "... N more" node that stands for the part of a graph left out; return its id."""
    label = style.table([style.bold(f"\u2026 {hidden} more"), style.small(why)])
    dot.node("more", label=label, **style.node_attrs(style.MORE, dashed=True))
    return "more"
