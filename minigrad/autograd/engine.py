"""The backward engine: walks the graph from the roots to the leaves, without recursion.

1. Count, for every node reachable from the roots, how many edges lead into it (an explicit
   stack, not recursion, so a chain of a million operations is fine).
2. Start with the roots' gradients. A node runs once every edge into it has delivered its
   gradient (gradients arriving along several paths are summed first). Among ready nodes the
   most recently created runs first, which is the order PyTorch uses on the CPU.
3. A node's gradient buffer is dropped as soon as it has run, and its saved tensors are freed
   unless ``retain_graph`` is set.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from .. import _warn, backend
from .anomaly_mode import _state as _anomaly
from .anomaly_mode import call_detecting
from .grad_mode import is_grad_enabled, set_grad_enabled
from .graph import _STEALS, AccumulateGrad, GradientEdge, Node, edge_metadata, gradient_edge

if TYPE_CHECKING:
    from ..tensor import Tensor


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    if isinstance(x, (_tensor.Tensor, GradientEdge)):  # (a GradientEdge is a tuple itself)
        return (x,)
    return tuple(x)


def _inputs_tuple(inputs, fn: str) -> tuple:
    """``inputs`` of ``grad``/``backward``: tensors or GradientEdges, one or a sequence, or a dict
    (its values, as ``dict(model.named_parameters())``), as in PyTorch 2.13."""
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(
            f"`inputs` argument to `{fn}()` must be a dict, not {type(inputs).__name__}. Other Mapping types are not supported."
        )
    return _as_tuple(inputs)


def _edge_grad(out: GradientEdge, grad, i: int):
    """The gradient that starts backward at a GradientEdge given as an output: checked against
    what the edge's tensor was, where minigrad knows it (see ``graph.get_gradient_edge``)."""
    meta = edge_metadata(out)
    if grad is None:
        if meta is None:
            raise RuntimeError(
                "grad can be implicitly created only for scalar outputs: minigrad does not know the shape of "
                "this GradientEdge's tensor (make the edge with torch.autograd.graph.get_gradient_edge, or "
                "pass grad_outputs)"
            )
        shape, dtype, device = meta
        if math.prod(shape) != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if not dtype.is_floating_point:
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {dtype}")
        with backend.on(device):
            return _tensor.Tensor._make(backend.xp(device).ones(shape, dtype=backend.array_dtype(dtype)))
    if not isinstance(grad, _tensor.Tensor):
        raise TypeError(f"gradients can be either Tensors or None, but got {type(grad).__name__}")
    if meta is not None and tuple(grad.shape) != tuple(meta[0]):
        raise RuntimeError(
            f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} and output[{i}] has a shape of "
            f"{_tensor.Size(meta[0])}."
        )
    return grad


def _make_grads(outputs: Sequence[Tensor], grads: Sequence) -> list[Tensor]:
    """Check or create the gradient that starts backward at each output."""
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if isinstance(out, GradientEdge):
            result.append(_edge_grad(out, grad, i))
            continue
        if grad is None:
            if out.numel() != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs. This tensor has "
                    f"shape {list(out.shape)}: pass a gradient of that shape, e.g. "
                    "out.backward(torch.ones_like(out)), or reduce it first (out.sum().backward())."
                )
            if not out.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
            grad = _tensor.ones_like_tensor(out)
        else:
            if not isinstance(grad, _tensor.Tensor):
                raise TypeError(
                    f"gradient must be a Tensor or None, got {type(grad).__name__}; wrap it with torch.tensor(...)"
                )
            if grad.shape != out.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} and "
                    f"output[{i}] has a shape of {out.shape}. The gradient passed to backward must "
                    "have the shape of the tensor backward is called on."
                )
            if grad.device != out.device:
                raise RuntimeError(
                    f"Expected all tensors to be on the same device: the gradient is on "
                    f"{grad.device} but the output is on {out.device}"
                )
        result.append(grad)
    return result


def _check_outputs(outputs: Sequence[Tensor]) -> None:
    for i, out in enumerate(outputs):
        # (nothing to start from: also for a view that requires grad only because its base does)
        if isinstance(out, GradientEdge):
            continue
        if out.grad_fn is None and not out._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn. "
                "Nothing recorded how it was computed: set requires_grad=True on the inputs "
                "before computing it, and make sure it was not computed under torch.no_grad()."
            )


def _dependencies(roots: Iterable[Node]) -> dict[Node, int]:
    """How many edges lead into each node reachable from ``roots``."""
    deps: dict[Node, int] = {}
    stack = [n for n in roots if n is not None]
    seen = set(stack)  # a root may also lie below another root
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _needed(roots: list[Node], targets: set[Node]) -> set[Node]:
    """The nodes that lie on some path from ``roots`` to one of ``targets``."""
    order: list[Node] = []
    seen: set[Node] = set()
    for root in roots:  # one DFS per root: a root can lie below another root
        if root in seen:
            continue
        seen.add(root)
        stack = [root]
        while stack:  # iterative DFS recording a post-order
            node = stack[-1]
            pushed = False
            for nxt, _ in node.next_functions:
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
                    pushed = True
                    break
            if not pushed:
                order.append(stack.pop())
    needed: set[Node] = set()
    for node in order:  # children come before parents in a post-order
        if node in targets or any(n in needed for n, _ in node.next_functions if n is not None):
            needed.add(node)
    return needed


class GraphTask:
    """One backward pass while it runs (PyTorch's graph task): what hooks called during it may
    ask about it. ``notes`` keeps per-pass state of such hooks, and goes when the pass ends."""

    __slots__ = ("roots", "deps", "needed", "accumulate", "notes")

    def __init__(self, roots: list[Node], deps: dict, needed: set | None, accumulate: bool):
        self.roots, self.deps, self.needed, self.accumulate = roots, deps, needed, accumulate
        self.notes: dict = {}

    def will_execute(self, node: Node) -> bool:
        """Whether ``node`` runs (or has its gradient captured) in this pass, as PyTorch's
        ``torch._C._will_engine_execute_node``."""
        if self.needed is None:  # every node reachable from the roots runs
            return node in self.deps or node in self.roots
        if node in self.needed and not self.accumulate and isinstance(node, AccumulateGrad):
            raise RuntimeError(
                "A leaf node was passed to _will_engine_execute_node but we are currently running "
                "autograd.grad(). This is currently not supported."
            )
        return node in self.needed

    def __enter__(self) -> GraphTask:
        _graph_tasks.append(self)
        return self

    def __exit__(self, *exc) -> None:
        _graph_tasks.pop()

    @property
    def is_plain_backward(self) -> bool:
        """A ``backward()`` without ``inputs``: every node runs (what the reentrant checkpoint needs)."""
        return self.needed is None and self.accumulate


_graph_tasks: list[GraphTask] = []  # the passes running now, innermost last (a hook may run backward)


def current_graph_task() -> GraphTask | None:
    """The backward pass running now, or None outside backward."""
    return _graph_tasks[-1] if _graph_tasks else None


def run_backward(
    outputs: Sequence[Tensor],
    grad_outputs: Sequence[Tensor],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Tensor] = (),
    accumulate: bool = True,
    observer=None,
) -> list:
    """Propagate ``grad_outputs`` from ``outputs`` through the graph.

    With ``accumulate`` (``backward``) leaves get ``.grad``; when ``inputs`` are given only they
    do. Without it (``autograd.grad``) the gradients reaching ``inputs`` are returned instead.
    ``observer``, if given, is told about each step (used by ``minigrad.viz.trace_backward``).
    """
    roots = [out.node if isinstance(out, GradientEdge) else out.grad_fn or gradient_edge(out)[0] for out in outputs]
    buffers: dict[Node, list] = {}
    for out, root, grad in zip(outputs, roots, grad_outputs):
        nr = out.output_nr if isinstance(out, GradientEdge) else out._output_nr if out.grad_fn else 0
        _add_to_buffer(buffers, root, nr, grad)

    # Where gradients are captured (autograd.grad) or which leaves accumulate (backward(inputs=)).
    capture: dict[tuple[Node, int], list[int]] = {}
    for i, t in enumerate(inputs):
        edge = tuple(t[:2]) if isinstance(t, GradientEdge) else gradient_edge(t)
        if edge[0] is None and not isinstance(t, GradientEdge) and t.requires_grad:
            continue  # a view that requires grad only because its base does: no gradient reaches it
        if edge[0] is None:
            raise RuntimeError(
                f"One of the differentiated Tensors (input {i}) does not require grad; "
                "set requires_grad=True on it before the forward pass."
            )
        capture.setdefault(edge, []).append(i)
    captured: list = [None] * len(inputs)
    runs = needed = None  # None: every reachable node runs
    if inputs:
        targets = {edge[0] for edge in capture}
        needed = _needed(list(dict.fromkeys(roots)), targets)
        runs = {n for n in needed if any(c in needed for c, _ in n.next_functions)}
        if accumulate:
            runs |= {n for n in targets if isinstance(n, AccumulateGrad)}
    elif not accumulate:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")

    deps = _dependencies(dict.fromkeys(roots))
    # Ties (AccumulateGrad nodes share one sequence number) run in the order they became
    # ready, as PyTorch's queue does; id() would make the order depend on memory addresses.
    arrival = itertools.count()
    ready = [(-r._sequence_nr, next(arrival), r) for r in dict.fromkeys(roots) if deps.get(r, 0) == 0]
    heapq.heapify(ready)

    pop, push = heapq.heappop, heapq.heappush
    call = functools.partial(call_detecting, _call_node) if _anomaly.enabled else _call_node
    with set_grad_enabled(bool(create_graph)), GraphTask(roots, deps, needed, accumulate):
        while ready:
            node = pop(ready)[2]
            grads = buffers.pop(node, None)
            if grads is None and (needed is None or node in needed):
                grads = [None]  # no gradient reached it: PyTorch runs it all the same (see Node)
            grad_inputs = ()
            if grads is not None:
                runs_now = runs is None or node in runs
                if capture or node._hooked:
                    grads = _hooks_and_capture(
                        node, grads, runs_now, capture, captured, inputs if accumulate else None, create_graph
                    )
                if runs_now:
                    wanted = None if needed is None else _wanted_edges(node, needed)
                    if observer is None:
                        grad_inputs = call(node, grads, create_graph, wanted)
                    else:
                        observer.before(node, grads)
                        grad_inputs = call(node, grads, create_graph, wanted)
                        observer.after(node, grads, grad_inputs)
                    grad_inputs = list(grad_inputs)  # handed on one by one, so each has one owner
                    if not retain_graph:
                        node.release()
                grads = None  # keep no gradient past its step (AccumulateGrad may take it, see graph.py)
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                if grad_inputs:
                    g, grad_inputs[i] = grad_inputs[i], None
                    if g is not None and (needed is None or nxt in needed):
                        if nr == 0 and nxt not in buffers:  # the first gradient to reach nxt: the common case
                            buffers[nxt] = [g]
                        else:
                            _add_to_buffer(buffers, nxt, nr, g)
                    g = None
                waiting = deps[nxt] - 1
                deps[nxt] = waiting
                if not waiting:
                    push(ready, (-nxt._sequence_nr, next(arrival), nxt))
            grad_inputs = None
    return captured


def _hooks_and_capture(
    node: Node, grads: list, runs_now: bool, capture: dict, captured: list, inputs, create_graph: bool
) -> list:
    """A node's tensor hooks, the gradients ``autograd.grad`` captures there and, when the node
    runs, its pre-hooks, in PyTorch's order: a node that runs captures its gradient as it
    arrived; one that only captures does so after its tensor hooks (and runs no node hooks)."""
    if capture and runs_now:
        _capture(node, grads, capture, captured, inputs, create_graph)
    if node._hooked and len(grads) < node._n_outputs:  # hooks see None for outputs that got no gradient
        grads = grads + [None] * (node._n_outputs - len(grads))
    if node._hooked:
        grads = _call_tensor_hooks(node, grads)
    if capture and not runs_now:
        _capture(node, grads, capture, captured, inputs, create_graph)
    if runs_now and node._pre_hooks:
        grads = _call_pre_hooks(node, grads)
    return grads


def _wanted_edges(node: Node, needed: set[Node]) -> tuple | None:
    """Which of ``node``'s edges lead to a gradient that was asked for (None: all that lead
    anywhere), so that its rules for the others do not run, as in PyTorch."""
    wanted = tuple([nxt is not None and nxt in needed for nxt, _ in node.next_functions])
    if all(want or nxt is None for want, (nxt, _) in zip(wanted, node.next_functions)):
        return None
    return wanted


def _capture(node: Node, grads: list, capture: dict, captured: list, inputs, create_graph: bool) -> None:
    """Record the gradients that reach ``inputs`` (and accumulate into non-leaf ones for backward)."""
    for nr, grad in enumerate(grads):
        for i in capture.get((node, nr), ()):
            captured[i] = grad
            if inputs is not None and grad is not None and not isinstance(node, AccumulateGrad):
                if not isinstance(inputs[i], GradientEdge):  # (an edge has no .grad to fill)
                    _accumulate_into_nonleaf(inputs[i], grad, create_graph)


def _add_to_buffer(buffers: dict, node: Node, nr: int, grad: Tensor) -> None:
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * (nr + 1)
    elif len(slots) <= nr:
        slots.extend([None] * (nr + 1 - len(slots)))
    old = slots[nr]
    if old is None:
        slots[nr] = grad
    elif _owned(old) and old._data.shape == grad._data.shape and not is_grad_enabled():
        old._accumulate_(grad)  # paths that meet are summed: into the first gradient, as PyTorch
    else:
        slots[nr] = old + grad


def _owned(grad: Tensor) -> bool:
    """Whether only the engine's buffer refers to ``grad`` and its memory, so it may be summed
    into in place (PyTorch's ``can_accumulate_inplace``; its version counter then counts it)."""
    # The references expected: the buffer's list, the caller's `old`, `grad`, getrefcount's argument.
    return _STEALS and grad._base is None and sys.getrefcount(grad) <= 4 and backend.unshared(grad._data)


def _call_tensor_hooks(node: Node, grads: list) -> list:
    """Tensor hooks in registration order (None for an output that got no gradient), then
    retain_grad (which sees their result)."""
    grads = list(grads)
    for nr, hook in node.all_tensor_hooks():
        new = hook(grads[nr])
        if new is not None:
            _check_hook_result(new, grads[nr], hook)
            grads[nr] = new
    for nr, grad in enumerate(grads):
        retained = node.retained_tensor(nr)
        if retained is not None and grad is not None:
            _retain(retained, grad)
    return grads


def _retain(tensor: Tensor, grad: Tensor) -> None:
    """retain_grad()'s hook, as PyTorch's: a row-major copy of the gradient, or the sum with the
    one kept before; recorded with create_graph=True (grad mode is on then)."""
    if tensor._grad is None:
        tensor._grad = grad.clone(memory_format=backend.contiguous_format)
    else:
        tensor._grad = tensor._grad + grad


def _call_pre_hooks(node: Node, grads: list) -> list:
    """The node's own pre-hooks (``grad_fn.register_prehook``), just before it runs."""
    for hook in tuple(node._pre_hooks.values()):
        new = hook(tuple(grads))
        if new is not None:
            grads = _checked_hook_values(new, grads, hook)
    return grads


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", repr(hook))


def _checked_hook_values(new, old, hook) -> list:
    """What a node's pre-hook or hook returned in place of the gradients ``old``, checked value by
    value as PyTorch checks it (a returned None keeps nothing: it stands for no gradient)."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(old):
        raise RuntimeError(
            f"hook '{_hook_name(hook)}' has returned an incorrect number of values (got {len(new)}, but expected {len(old)})"
        )
    for value, given in zip(new, old):
        if value is not None:
            _check_hook_result(value, given, hook)
    return list(new)


def _gpu_of(grads: list):
    """The GPU of the first gradient, or None on the CPU."""
    for grad in grads:  # a node with several outputs may have no gradient for some
        if grad is not None:
            return None if type(grad._data) is backend.CPU_ARRAY else backend.device_of(grad._data)
    return None


def _call_node(node: Node, grads: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
    # The common case, a CPU gradient, is checked without a call. (No local name for the
    # gradient: AccumulateGrad counts references to it.)
    if grads[0] is not None and type(grads[0]._data) is backend.CPU_ARRAY:
        grad_inputs = node.apply(grads, create_graph, wanted)
    else:
        grad_inputs = _apply_rarely(node, grads, create_graph, wanted)
    if node._post_hooks:
        for hook in tuple(node._post_hooks.values()):
            new = hook(grad_inputs, tuple(grads))
            if new is not None:
                grad_inputs = tuple(_checked_hook_values(new, grad_inputs, hook))
    return grad_inputs


def _apply_rarely(node: Node, grads: list, create_graph: bool, wanted: tuple | None) -> tuple:
    """``node.apply`` in the rarer cases: gradients on a GPU, or no gradient at all."""
    gpu = _gpu_of(grads)
    if gpu is not None:  # arrays a derivative rule makes go to its gradient's GPU (which need not be GPU 0)
        with backend.on(gpu):
            return node.apply(grads, create_graph, wanted)
    if node._runs_without_gradients or any(g is not None for g in grads):
        return node.apply(grads, create_graph, wanted)
    node.unpack_saved()  # no gradient at all: PyTorch's own nodes check what they saved, and give none
    return (None,) * len(node.next_functions)


def _check_hook_result(new, old, hook) -> None:
    from ..tensor import Tensor

    name = _hook_name(hook)
    if old is None:
        raise RuntimeError(f"can't replace a None gradient with a non-None value (hook '{name}' got None: return None)")
    if not isinstance(new, Tensor):
        raise TypeError(f"hook '{name}' returned a {type(new).__name__}; a tensor hook must return a Tensor or None")
    if new.shape != old.shape:
        raise RuntimeError(
            f"hook '{name}' has changed the size of value: expected {old.shape} but got "
            f"{new.shape}. A hook must return a gradient of the same shape as the one it got."
        )
    if new.dtype is not old.dtype or new.device != old.device:
        # A leaf's .grad must keep the leaf's dtype and device, so PyTorch rejects this too.
        from ..tensor import _legacy_type_name

        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was {_legacy_type_name(old)} got "
            f"{_legacy_type_name(new)}). Return a gradient of the dtype and device it came with."
        )


def _accumulate_into_nonleaf(tensor: Tensor, grad: Tensor, create_graph: bool) -> None:
    if tensor._grad is None:
        tensor._grad = grad if create_graph else grad.detach().clone()
    else:
        tensor._grad = tensor._grad + grad if create_graph else tensor._grad + grad.detach()


def backward(
    tensors,
    grad_tensors=None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs=None,
) -> None:
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors`` (``torch.autograd.backward``).

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> torch.autograd.backward((x * x).sum())
    >>> x.grad
    tensor([2., 4.])
    """
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    if inputs is not None:
        inputs = _inputs_tuple(inputs, "backward")
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _check_outputs(tensors)
    grads = _make_grads(tensors, grads)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        _warn_about_cycles()
    run_backward(tensors, grads, retain_graph, create_graph, inputs or (), accumulate=True)


_warned_about_cycles = False


def _warn_about_cycles() -> None:
    """PyTorch's warning, once per process, that a ``.grad`` with a graph keeps its leaf alive."""
    global _warned_about_cycles
    if not _warned_about_cycles:
        _warned_about_cycles = True
        _warn.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.",
            UserWarning,
        )


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple:
    """The gradients of ``outputs`` with respect to ``inputs``, returned as a tuple (``.grad`` is
    not touched). Several outputs are summed.

    With ``is_grads_batched=True`` the first dimension of each of ``grad_outputs`` is a batch: the
    result has one gradient per row, stacked (a vector-Jacobian product per row; a Jacobian,
    when the rows are those of an identity matrix).

    >>> import minigrad as torch
    >>> t = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    >>> torch.autograd.grad(t.pow(2).sum(), t)
    (tensor([2., 4., 8.]),)
    >>> torch.autograd.grad(t * t, t, torch.eye(3), is_grads_batched=True)
    (tensor([[2., 0., 0.],
            [0., 4., 0.],
            [0., 0., 8.]]),)
    """
    from ..tensor import Tensor, zeros_like_tensor

    if not only_inputs:
        _warn.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
            "gradient for other parts of the graph, please use torch.autograd.backward.",
            FutureWarning,
        )
    outputs = _as_tuple(outputs)
    keys = tuple(inputs) if type(inputs) is dict else None  # a dict in, a dict out
    inputs = _inputs_tuple(inputs, "grad")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    for t in inputs:
        if not isinstance(t, (Tensor, GradientEdge)):
            raise TypeError(f"inputs must be Tensors or GradientEdges, got {type(t).__name__}")
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    _check_outputs(outputs)
    grads = _check_batched_grads(outputs, grads) if is_grads_batched else _make_grads(outputs, grads)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_grads_batched:
        result = _batched_grad(outputs, inputs, grads, retain_graph, create_graph)
    else:
        result = run_backward(outputs, grads, retain_graph, create_graph, inputs, accumulate=False)
    for i, g in enumerate(result):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior."
                )
            if materialize_grads and isinstance(inputs[i], GradientEdge):
                raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
            if materialize_grads:  # (with create_graph, a leaf that requires grad, as PyTorch's)
                result[i] = zeros_like_tensor(inputs[i]).requires_grad_(create_graph)
    return tuple(result) if keys is None else dict(zip(keys, result))


def _check_batched_grads(outputs: Sequence[Tensor], grads: Sequence) -> list[Tensor]:
    """Check batched ``grad_outputs``: every row has its output's shape, all have one batch size."""
    grads = list(grads)
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if grad is None:  # (an implicit gradient, of a scalar: it has no batch dimension, see below)
            grads[i] = _make_grads([out], [None])[0]
        elif isinstance(grad, _tensor.Tensor):
            if grad.dim() == 0:
                raise IndexError(
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
                )
            if grad.shape[0] == 0:
                raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
            if isinstance(out, GradientEdge):  # (PyTorch checks its shape, and has no message for it)
                meta = edge_metadata(out)
                if meta is not None and tuple(grad.shape[1:]) != tuple(meta[0]):
                    raise RuntimeError("Batched grads are not supported with GradientEdge")
            elif grad.shape[1:] != out.shape:
                raise RuntimeError(
                    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                    "as the batch dimension. The sizes of the remaining dimensions are expected to "
                    f"match the shape of corresponding output, but a mismatch was detected: "
                    f"grad_output[{i}] has a shape of {grad.shape[1:]} and output[{i}] has a shape "
                    f"of {out.shape}. If you only want some tensors in `grad_output` to be "
                    "considered batched, consider using vmap."
                )
            _make_grads([out], [grad[0]])  # the other checks, on one row
        else:
            _make_grads([out], [grad])  # (raises PyTorch's TypeError)
    if any(g.dim() == 0 for g in grads):
        raise ValueError(
            "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a "
            "Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0."
        )
    sizes = [g.shape[0] for g in grads]
    if len(set(sizes)) > 1:
        raise ValueError(
            f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sizes} "
            "for the mapped dimension"
        )
    return grads


def _batched_grad(outputs, inputs, grads: list[Tensor], retain_graph: bool, create_graph: bool) -> list:
    """``autograd.grad`` for each row of the batched ``grads``, the results stacked. PyTorch runs
    one backward pass over all rows at once (with vmap); this runs one per row, keeping the graph
    for the next, so hooks run once per row."""
    from ..functions import stack

    batch = grads[0].shape[0]
    rows = []
    for b in range(batch):
        row = [g[b] for g in grads]
        rows.append(run_backward(outputs, row, retain_graph or b < batch - 1, create_graph, inputs, accumulate=False))
    return [None if grad is None else stack([r[i] for r in rows]) for i, grad in enumerate(rows[0])]


# Last: the tensor module imports this one (and graph.py, which this one imports).
from .. import tensor as _tensor  # noqa: E402
