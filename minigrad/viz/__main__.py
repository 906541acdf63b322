"""``python -m minigrad.viz script.py --tensor loss --out graph.svg``: draw a script's graph.

The script runs as ``__main__`` (with its folder on ``sys.path`` and any arguments given after
``--``); then the tensor named by ``--tensor`` (default: ``loss``, else the last tensor with a
``grad_fn`` the script assigned) is drawn, its tensors named by the script's variables. The
format comes from the extension of ``--out``: ``.svg``, ``.png``, ``.pdf``, or ``.dot``/``.gv``
for the DOT text (no Graphviz needed). ``--steps steps.html`` also records the backward pass.
"""

from __future__ import annotations

import argparse
import builtins
import sys
from pathlib import Path

from ..tensor import Tensor
from .backward_view import draw_backward
from .drawing import RANKDIRS, GraphvizNotFoundError
from .names import tensors_in
from .tensor_view import DEFAULT_MAX_NODES, draw
from .trace import trace_backward

RENDERED = ("svg", "png", "pdf")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    script_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    out = Path(args.out)
    fmt = out.suffix.lstrip(".").lower()
    if fmt not in (*RENDERED, "dot", "gv"):
        parser.error(f"--out must end in .svg, .png, .pdf, .dot or .gv, got {args.out!r}")
    for flag, value in (("--max-nodes", args.max_nodes), ("--max-depth", args.max_depth)):
        if value is not None and value < 0:
            parser.error(f"{flag} must not be negative, got {value}")
    namespace = run_script(Path(args.script), script_args)
    name, tensor = pick_tensor(namespace, args.tensor)
    if name is None:
        parser.exit(2, f"{parser.prog}: error: {tensor}\n")
    named = tensors_in(namespace)
    named.setdefault(name, tensor)
    options = dict(
        names=named,
        show_values=not args.no_values,
        show_grads=True,
        show_saved=args.show_saved,
        rankdir=args.rankdir,
        legend=not args.no_legend,
        max_nodes=args.max_nodes,
        max_depth=args.max_depth,
    )
    drawing = (draw_backward if args.view == "backward" else draw)(tensor, **options)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)  # as --steps does
        if fmt in RENDERED:
            out.write_bytes(drawing.pipe(format=fmt))
        else:
            out.write_text(drawing.source, encoding="utf-8")
        print(f"wrote the {args.view} view of {name!r} to {out}")
        if args.steps:
            trace = trace_backward(tensor, names=named)
            written = trace.save(args.steps)
            print(f"wrote {trace.steps} steps of its backward pass to {args.steps} ({len(written)} file(s))")
    except GraphvizNotFoundError as exc:
        print(f"{exc}\nTip: --out graph.dot writes the DOT text without Graphviz.", file=sys.stderr)
        return 1
    except RuntimeError as exc:  # e.g. --steps on a tensor that does not require grad
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    return 0


def run_script(path: Path, argv: list[str]) -> dict:
    """Run ``path`` as ``__main__`` and return its global variables (kept on ``sys.exit(0)``)."""
    if not path.is_file():
        raise SystemExit(f"no such script: {path}")
    source = path.read_text(encoding="utf-8")
    namespace = {"__name__": "__main__", "__file__": str(path), "__builtins__": builtins}
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(path), *argv]
    sys.path.insert(0, str(path.resolve().parent))
    try:
        exec(compile(source, str(path), "exec"), namespace)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return namespace


def pick_tensor(namespace: dict, name: str | None) -> tuple[str | None, object]:
    """The tensor to draw: ``name`` (a variable, or ``obj.attr``), else ``loss``, else the last
    tensor with a grad_fn. Returns ``(None, message)`` when there is none."""
    tensors = [k for k, v in namespace.items() if isinstance(v, Tensor) and not k.startswith("_")]
    if name is not None:
        head, *rest = name.split(".")
        obj = namespace.get(head)
        for attr in rest:
            obj = getattr(obj, attr, None)
        if not isinstance(obj, Tensor):
            return None, f"the script has no tensor named {name!r}; its tensors: {', '.join(tensors) or 'none'}"
        return name, obj
    if isinstance(namespace.get("loss"), Tensor):
        return "loss", namespace["loss"]
    made = [k for k in tensors if namespace[k].grad_fn is not None]
    if not made:
        return (
            None,
            f"found no tensor with a grad_fn to draw; name one with --tensor (tensors: {', '.join(tensors) or 'none'})",
        )
    return made[-1], namespace[made[-1]]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m minigrad.viz",
        description="Run a script and draw the computation graph of one of its tensors.",
        epilog="Arguments after -- are passed to the script.",
    )
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("--tensor", help="the variable to draw (default: loss, else the last tensor with a grad_fn)")
    parser.add_argument(
        "--out", default="graph.svg", help="output file: .svg, .png, .pdf, .dot or .gv (default graph.svg)"
    )
    parser.add_argument(
        "--view", choices=("tensor", "backward"), default="tensor", help="tensor view (default) or autograd view"
    )
    parser.add_argument("--show-saved", action="store_true", help="show what each operation saved for backward")
    parser.add_argument("--no-values", action="store_true", help="show shapes instead of small tensors' values")
    parser.add_argument("--no-legend", action="store_true", help="leave out the legend")
    parser.add_argument("--rankdir", choices=RANKDIRS, default="TB", help="layout direction (default TB)")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, help="draw at most this many nodes")
    parser.add_argument("--max-depth", type=int, default=None, help="draw at most this many levels of operations")
    parser.add_argument("--steps", help="also record the backward pass: steps.html, or a folder for one SVG per step")
    return parser


if __name__ == "__main__":
    sys.exit(main())
