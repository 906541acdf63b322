"""Record a real backward pass step by step: ``trace_backward(loss)``.

The backward runs in minigrad's own engine (``run_backward`` with an observer), so it does
exactly what ``loss.backward()`` does -- same order, same ``.grad`` values, same freeing of saved
tensors. The observer copies what each node received and sent; registered hooks are wrapped
for the duration of the call to record when they fire, and put back afterwards.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..autograd import engine
from ..autograd.graph import AccumulateGrad
from ..tensor import Tensor
from . import marks, style
from .backward_view import BackwardGraph, StepState
from .drawing import Drawing
from .names import Names
from .tensor_view import DEFAULT_MAX_NODES
from .walk import Budget, reachable


@dataclass
class HookCall:
    """One hook that fired: its kind (``tensor``, ``prehook``, ``node hook``,
    ``post-accumulate``), its function's name, the node it belongs to, the gradient it was
    given (tensor hooks) and the gradient it returned instead (None when it returned None)."""

    kind: str
    name: str
    node: object
    output_nr: int
    grad: Tensor | None = None
    returned: Tensor | None = None


@dataclass
class Accumulation:
    """A gradient stored into a tensor's ``.grad``: a leaf (AccumulateGrad) or a retained
    non-leaf (``retain_grad``); ``total`` is the ``.grad`` right after."""

    tensor: Tensor
    name: str | None
    grad: Tensor
    total: Tensor
    retained: bool = False


@dataclass
class Frame:
    """One step of the backward pass: the node that ran, what it received and what it sent."""

    step: int  # 1-based, in the order the engine ran the nodes
    node: object
    name: str  # node.name(), e.g. "MulBackward0"
    grad_outputs: tuple  # the gradient(s) it received (after tensor hooks), one per output
    grad_inputs: tuple = ()  # the gradient it sent along each of node.next_functions
    hooks: list[HookCall] = field(default_factory=list)
    accumulated: list[Accumulation] = field(default_factory=list)

    def sent(self) -> list[tuple[object, Tensor | None]]:
        """``(next node, gradient)`` for each input of the node that needs a gradient."""
        return [(nxt, g) for (nxt, _), g in zip(self.node.next_functions, self.grad_inputs) if nxt is not None]


def trace_backward(root: Tensor, gradient: Tensor | None = None, retain_graph: bool = False, *, names=None) -> Trace:
    """Run ``root.backward(gradient, retain_graph=retain_graph)`` and record every step.

    The tensors end up exactly as after a plain ``backward()``. The returned :class:`Trace`
    lists the :class:`Frame` of each node in the order the engine ran them; draw a step with
    ``trace.draw(k)``, step through it with :class:`BackwardPlayer`, or ``trace.save(path)``.
    ``names`` is as in :func:`minigrad.viz.draw` (by default the caller's variables).

    >>> import minigrad as torch
    >>> from minigrad import viz
    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> trace = viz.trace_backward(x * x)
    >>> [frame.name for frame in trace.frames]
    ['MulBackward0', 'AccumulateGrad']
    >>> x.grad
    tensor(6.)
    """
    if not isinstance(root, Tensor):
        raise TypeError(f"trace_backward() expects a tensor, got {type(root).__name__}")
    known = Names.resolve(names, depth=1)
    engine._check_outputs([root])
    (start,) = engine._make_grads([root], [gradient])
    graph = BackwardGraph((root,), known, Budget(DEFAULT_MAX_NODES, None))
    graph.remember_saved()
    recorder = _Recorder(known)
    starts = [root.grad_fn if root.grad_fn is not None else root._grad_accumulator()]
    wrapped = _wrap_hooks(reachable(starts), recorder)
    try:
        engine.run_backward([root], [start], retain_graph, False, observer=recorder)
    finally:
        _unwrap_hooks(wrapped)
    return Trace(graph, recorder.frames, _copy(start), retain_graph)


class Trace:
    """The recorded steps of one backward pass (``trace.frames``), and how to show them."""

    def __init__(self, graph: BackwardGraph, frames: list[Frame], gradient: Tensor, retain_graph: bool):
        self.graph = graph
        self.frames = frames
        self.gradient = gradient  # the gradient backward started with
        self.retain_graph = retain_graph

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, index: int) -> Frame:
        return self.frames[index]

    def __iter__(self):
        return iter(self.frames)

    def __repr__(self) -> str:
        steps = ", ".join(frame.name for frame in self.frames)
        return f"<Trace of {len(self.frames)} steps: {steps}>"

    @property
    def steps(self) -> int:
        """How many pictures the trace has: the start (step 0) plus one per node that ran."""
        return len(self.frames) + 1

    def state(self, step: int) -> StepState:
        """The graph at ``step`` (0: nothing ran yet; k: the k-th node just ran)."""
        step = self._check(step)
        state = StepState(root_grads={0: self.gradient})
        for frame in self.frames[:step]:
            state.done[frame.node] = frame.step
            state.received[frame.node] = frame.grad_outputs
            for i, g in enumerate(frame.grad_inputs):
                if i < len(frame.node.next_functions) and frame.node.next_functions[i][0] is not None:
                    state.edge_grads[(frame.node, i)] = g
            for acc in frame.accumulated:
                if not acc.retained:
                    state.leaf_grads[frame.node] = acc.total
            if not self.retain_graph and frame.node.is_freed:
                state.freed.add(frame.node)
        state.current = self.frames[step - 1].node if step else None
        return state

    def draw(self, step: int | None = None, **options) -> Drawing:
        """The autograd graph at ``step`` (default: the last): the node that ran highlighted, the
        nodes not reached yet white, each arrow labelled with the gradient it carried.
        ``options`` are those of :func:`minigrad.viz.draw_backward` (``rankdir``, ``legend`` ...)."""
        step = self.steps - 1 if step is None else step
        return self.graph.render(self.state(step), **options)

    def describe(self, step: int) -> str:
        """What happened at ``step``, in one line (the player's caption)."""
        step = self._check(step)
        if step == 0:
            return f"Start: backward() begins with the gradient {_text(self.gradient)} at the output"
        frame = self.frames[step - 1]
        name = self.graph.known.name
        # tensor hooks and prehooks run before the node, node hooks and post-accumulate hooks after
        before = [h for h in frame.hooks if h.kind in ("tensor", "prehook")]
        after = [h for h in frame.hooks if h.kind not in ("tensor", "prehook")]
        parts = [_hook_text(h) for h in before]
        if isinstance(frame.node, AccumulateGrad):
            for acc in frame.accumulated:
                parts.append(
                    f"added {_text(acc.grad)} into {acc.name or 'the leaf'}.grad, which is now {_text(acc.total)}"
                )
            if not frame.accumulated:  # a custom backward returned None for this input
                leaf = name(frame.node.variable) or "the leaf"
                parts.append(f"received None: {leaf}.grad is left as it was")
        else:
            parts.append("received " + ", ".join(_text(g) for g in frame.grad_outputs))
            sent = []
            for nxt, g in frame.sent():
                leaf = name(nxt.variable) if isinstance(nxt, AccumulateGrad) else None
                sent.append(f"{_text(g)} to {nxt.name()}" + (f" ({leaf})" if leaf else ""))
            if sent:
                parts.append("sent " + ", ".join(sent))
            for acc in frame.accumulated:
                parts.append(f"{acc.name or 'its output'}.grad (retained) is now {_text(acc.total)}")
        parts += [_hook_text(h) for h in after]
        return f"Step {step} of {len(self.frames)}: {frame.name} " + "; ".join(parts)

    def save(self, path, format: str = "svg", **options) -> list[str]:  # noqa: A002 - graphviz's name
        """Write every step: one self-contained HTML page when ``path`` ends in ``.html`` (it steps
        through the pictures in a browser, no kernel needed), else a folder with one file per step
        (``step_00.svg``...; ``format`` may be ``svg``, ``png`` or ``pdf``). Returns the paths."""
        from .export import save_steps

        return save_steps(self, path, format, **options)

    def _check(self, step: int) -> int:
        if not isinstance(step, int) or not 0 <= step < self.steps:
            raise IndexError(f"step must be an int from 0 to {self.steps - 1}, got {step!r}")
        return step


class _Recorder:
    """The engine observer: one :class:`Frame` per node that runs."""

    def __init__(self, known: Names):
        self.known = known
        self.frames: list[Frame] = []
        self.pending: list[HookCall] = []
        self.frame: Frame | None = None

    def hook_fired(self, call: HookCall) -> None:
        self.pending.append(call)

    def before(self, node, grads) -> None:
        frame = Frame(len(self.frames) + 1, node, node.name(), tuple(_copy(g) for g in grads))
        frame.hooks, self.pending = self.pending, []
        for nr, g in enumerate(grads):  # retain_grad has stored the gradient before the node runs
            kept = node.retained_tensor(nr)
            if kept is not None and g is not None and kept._grad is not None:
                frame.accumulated.append(Accumulation(kept, self.known.name(kept), _copy(g), _copy(kept._grad), True))
        self.frame = frame

    def after(self, node, grads, grad_inputs) -> None:
        frame = self.frame
        frame.grad_inputs = tuple(_copy(g) for g in grad_inputs)
        frame.hooks += self.pending  # node hooks and post-accumulate hooks run inside the step
        self.pending = []
        if isinstance(node, AccumulateGrad) and grads and grads[0] is not None:
            leaf = node.variable
            frame.accumulated.append(Accumulation(leaf, self.known.name(leaf), _copy(grads[0]), _copy(leaf._grad)))
        self.frames.append(frame)
        self.frame = None


def _wrap_hooks(nodes, recorder: _Recorder) -> list[tuple[dict, object, object, object]]:
    """Wrap every hook registered in the graph so that firing it is recorded."""
    wrapped: list[tuple[dict, object, object, object]] = []
    seen: set[int] = set()

    def wrap(hooks: dict, kind: str, node, nr: int) -> None:
        if id(hooks) in seen:
            return
        seen.add(id(hooks))
        for key, fn in list(hooks.items()):
            replacement = _recording(fn, kind, node, nr, recorder)
            hooks[key] = replacement
            wrapped.append((hooks, key, fn, replacement))

    for node in nodes:
        if isinstance(node, AccumulateGrad):
            wrap(node.variable._hooks, "tensor", node, 0)
            wrap(node.variable._post_accumulate_hooks, "post-accumulate", node, 0)
        else:
            for nr, hooks in node._tensor_hooks.items():
                wrap(hooks, "tensor", node, nr)
        wrap(node._pre_hooks, "prehook", node, 0)
        wrap(node._post_hooks, "node hook", node, 0)
    return wrapped


def _recording(fn, kind: str, node, nr: int, recorder: _Recorder):
    @functools.wraps(fn)
    def recorded(*args):
        result = fn(*args)
        grad = args[0] if kind == "tensor" and args and isinstance(args[0], Tensor) else None
        returned = result if isinstance(result, Tensor) else None
        recorder.hook_fired(HookCall(kind, marks.hook_name(fn), node, nr, _copy(grad), _copy(returned)))
        return result

    return recorded


def _unwrap_hooks(wrapped) -> None:
    for hooks, key, original, replacement in wrapped:
        if hooks.get(key) is replacement:  # a hook may have removed itself meanwhile
            hooks[key] = original


def _copy(t):
    return t.detach().clone() if isinstance(t, Tensor) else None


def _hook_text(h: HookCall) -> str:
    call = f"{h.name}({_text(h.grad)})" if h.grad is not None else h.name
    return f"{h.kind} {call} fired" + (f", returned {_text(h.returned)}" if h.returned is not None else "")


def _text(t) -> str:
    return style.one_line(style.summary(t, show_device=False)) if isinstance(t, Tensor) else "None"
