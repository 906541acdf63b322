"""The marks no other tool draws: retains_grad, registered hooks, in-place versions.

Each mark is a ``(kind, text)`` pair; the kind picks the badge colour and the legend row.
"""

from __future__ import annotations

from ..nn._backward_hooks import BackwardHook
from . import style

RETAINS_GRAD = "retains_grad"
HOOK = "hook"
VERSION = "version"

BADGE_COLORS = {RETAINS_GRAD: style.RETAINS_GRAD, HOOK: style.HOOK, VERSION: style.VERSION}


def hook_name(fn) -> str:
    """The name a hook is shown by: its function's ``__name__`` (``<lambda>`` for lambdas); for
    the hook ``register_full_backward_hook`` puts on a node, the module's and its hooks' names."""
    module_hook = getattr(fn, "__self__", None)
    if isinstance(module_hook, BackwardHook):
        hooks = module_hook.user_pre_hooks + module_hook.user_hooks
        inner = ", ".join(hook_name(h) for h in hooks)
        return style.shorten(f"{type(module_hook.module).__name__} backward hooks ({inner})")
    name = getattr(fn, "__name__", None)
    if name is None:
        name = getattr(getattr(fn, "func", None), "__name__", None)  # functools.partial
    return style.shorten(name or type(fn).__name__)


def tensor_marks(tensor, node=None, output_nr: int = 0) -> list[tuple[str, str]]:
    """Marks of a tensor, known (``tensor``) or known only as output ``output_nr`` of ``node``."""
    marks: list[tuple[str, str]] = []
    if tensor is not None and tensor.grad_fn is None:  # a leaf keeps its own hooks
        if tensor.retains_grad:
            marks.append((RETAINS_GRAD, RETAINS_GRAD))
        marks += [(HOOK, f"hook: {hook_name(h)}") for h in tensor._hooks.values()]
        marks += [(HOOK, f"post-accumulate hook: {hook_name(h)}") for h in tensor._post_accumulate_hooks.values()]
    else:
        if tensor is not None:
            node, output_nr = tensor.grad_fn, tensor._output_nr
        if node is not None:
            if node.retained_tensor(output_nr) is not None:
                marks.append((RETAINS_GRAD, RETAINS_GRAD))
            marks += [(HOOK, f"hook: {hook_name(h)}") for h in node.tensor_hooks(output_nr)]
    if tensor is not None and tensor._version > 0:
        marks.append((VERSION, f"version {tensor._version} (changed in place)"))
    return marks


def node_marks(node) -> list[tuple[str, str]]:
    """Hooks registered on an autograd node itself (``register_prehook`` / ``register_hook``)."""
    marks = [(HOOK, f"prehook: {hook_name(h)}") for h in node._pre_hooks.values()]
    marks += [(HOOK, f"node hook: {hook_name(h)}") for h in node._post_hooks.values()]
    return marks


def output_marks(node) -> list[tuple[str, str]]:
    """In the autograd view: the marks of the tensors a node produced (their hooks run first)."""
    marks: list[tuple[str, str]] = []
    outputs = set(node._tensor_hooks) | set(node._retained)
    for nr in sorted(outputs):
        suffix = f" [{nr}]" if nr else ""
        if node.retained_tensor(nr) is not None:
            marks.append((RETAINS_GRAD, RETAINS_GRAD + suffix))
        marks += [(HOOK, f"hook{suffix}: {hook_name(h)}") for h in node.tensor_hooks(nr)]
    return marks


def badges(marks: list[tuple[str, str]]) -> list[str]:
    return [style.badge(text, BADGE_COLORS[kind]) for kind, text in marks]
