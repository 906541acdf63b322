"""The tensor view: tensors as nodes, the operation that made each one between them, arrows in
the forward direction -- the picture students draw by hand.

Colours: leaves that require grad are green, tensors made by an operation yellow, tensors that
need no gradient grey. Tensors met only as edges of the backward graph (no variable names
them) are drawn unnamed, with the shape the consuming operation recorded.
"""

from __future__ import annotations

from collections import deque

from ..autograd.graph import AccumulateGrad
from ..tensor import Tensor
from . import marks, style
from .drawing import Drawing, legend, more_node, new_drawing
from .names import Names, input_label, input_meta, saved_input
from .saved import FREED, PACKED, STALE, param_text, saved_entries, saved_params
from .walk import Budget, reachable

DEFAULT_MAX_NODES = 3000


def draw(
    *roots: Tensor,
    names=None,
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    rankdir: str = "TB",
    legend: bool = True,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    max_depth: int | None = None,
) -> Drawing:
    """Draw the tensors that led to ``roots`` and the operations between them.

    Args:
        roots: the tensors to draw the history of (e.g. the loss).
        names: ``{"x": x, ...}`` (or ``{x: "x"}``); by default the calling frame's variables
            name the tensors they hold.
        show_values: show the values of tensors with at most 6 elements (else their shape).
        show_grads: show ``.grad`` where it is populated.
        show_saved: list what each operation saved for backward, and its parameters.
        rankdir: layout direction, ``"TB"`` (top to bottom), ``"LR"``, ``"BT"`` or ``"RL"``.
        legend: add a legend of the colours and marks.
        max_nodes, max_depth: draw at most this many nodes / levels of operations; the rest
            becomes one "... N more" node.

    Returns:
        a ``graphviz.Digraph`` (``.source``, ``.render()``, inline display in Jupyter).

    >>> import minigrad as torch
    >>> from minigrad import viz
    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> y = x * x
    >>> dot = viz.draw(y)
    >>> "MulBackward0" in dot.source
    True
    """
    known = Names.resolve(names, depth=1)
    view = _TensorView(known, show_values, show_grads, show_saved, Budget(max_nodes, max_depth), rankdir)
    return view.build(_check_roots(roots), legend)


def _check_roots(roots) -> tuple[Tensor, ...]:
    if not roots:
        raise ValueError("give at least one tensor to draw, e.g. viz.draw(loss)")
    for r in roots:
        if not isinstance(r, Tensor):
            raise TypeError(f"expected tensors to draw, got {type(r).__name__}")
    return roots


class _TensorView:
    def __init__(self, known: Names, show_values, show_grads, show_saved, budget: Budget, rankdir: str):
        self.known = known
        self.show_values, self.show_grads, self.show_saved = show_values, show_grads, show_saved
        self.budget = budget
        self.dot = new_drawing("tensors", rankdir)
        self.tensors: dict[tuple, str] = {}  # tensor key -> node id
        self.drawn_tensors: dict[str, Tensor] = {}  # node id -> tensor, where the tensor is known
        self.ops: dict = {}  # autograd node -> node id
        self.queue: deque = deque()
        self.used: set[str] = set()  # what the legend must explain
        self.more_edges: list[str] = []  # tensors whose history was cut

    # ---------------------------------------------------------------- building
    def build(self, roots: tuple[Tensor, ...], with_legend: bool) -> Drawing:
        for root in roots:
            self.known.add(root)
            if root.grad_fn is None:
                self._tensor(("obj", id(root)), root, None)
            else:
                tid, new = self._tensor(("out", id(root.grad_fn), root._output_nr), root, None, producer=root.grad_fn)
                if new:
                    self._producer(root.grad_fn, root._output_nr, tid, 0)
        while self.queue:  # breadth first, so max_depth counts levels
            node, depth = self.queue.popleft()
            self._inputs(node, depth)
        self._detach_edges()
        if self.budget.cut:
            leaves = (t._accumulator() for t in self.drawn_tensors.values() if t._accumulator is not None)
            drawn = set(self.ops) | {node for node in leaves if node is not None}
            hidden = len(reachable(r.grad_fn for r in roots) - drawn)
            more = more_node(self.dot, hidden, "autograd nodes " + self.budget.reason())
            for tid in self.more_edges:
                self.dot.edge(more, tid, style="dashed")
            self.used.add("more")
        if with_legend:
            legend(self.dot, self._legend_rows())
        return self.dot

    def _inputs(self, node, depth: int) -> None:
        op_id = self.ops[node]
        edges = node.next_functions
        for i, (nxt, nr) in enumerate(edges):
            if nxt is None:
                tensor = saved_input(node, i)
                key = ("obj", id(tensor)) if tensor is not None else ("anon", id(node), i)
            elif isinstance(nxt, AccumulateGrad):
                tensor = nxt.variable
                key = ("obj", id(tensor))
            else:
                tensor = self.known.output(nxt, nr)
                if tensor is None:
                    candidate = saved_input(node, i)
                    tensor = candidate if candidate is not None and candidate.grad_fn is nxt else None
                key = ("out", id(nxt), nr)
            producer = nxt if key[0] == "out" else None
            tid, new = self._tensor(key, tensor, input_meta(node, i), no_grad=nxt is None, producer=producer)
            label = input_label(node, i) if len(edges) > 1 else None
            self.dot.edge(tid, op_id, **(style.end_label("headlabel", label, i) if label else {}))
            if new and nxt is not None and not isinstance(nxt, AccumulateGrad):
                self._producer(nxt, nr, tid, depth + 1)

    def _producer(self, node, nr: int, tid: str, depth: int) -> None:
        """Draw the operation that made tensor ``tid`` (or note that the drawing stops here)."""
        op_id = self.ops.get(node)
        if op_id is None:
            # room for the operation and, at most, one new node per input
            if not self.budget.allows(len(self.ops) + len(self.tensors) + 1 + len(node.next_functions), depth):
                self.more_edges.append(tid)
                return
            op_id = self._op(node)
            self.queue.append((node, depth))
        self.dot.edge(op_id, tid)

    # ---------------------------------------------------------------- nodes
    def _tensor(
        self, key: tuple, tensor: Tensor | None, meta, no_grad: bool = False, producer=None
    ) -> tuple[str, bool]:
        tid = self.tensors.get(key)
        if tid is not None:
            return tid, False
        tid = self.tensors[key] = f"t{len(self.tensors)}"
        if tensor is not None:
            self.known.add(tensor)
            self.drawn_tensors[tid] = tensor
            kind = _kind(tensor)
        else:
            kind = "no_grad" if no_grad else "intermediate"
        self.used.add(kind)
        rows = []
        name = self.known.name(tensor)
        if name:
            rows.append(style.bold(name))
        if tensor is not None:
            rows.append(style.multiline(style.summary(tensor, self.show_values)))
            flags = f"requires_grad={tensor.requires_grad}, is_leaf={tensor.is_leaf}"
        else:
            shape, dtype = meta if meta is not None else ((), None)
            text = "shape " + style.shape_text(shape)
            if dtype is not None and dtype.name != "float32":
                text += f"  {dtype.name}"
            rows.append(style.esc(text))
            flags = "requires_grad=False, is_leaf=True" if no_grad else "requires_grad=True, is_leaf=False"
        rows.append(style.small(flags))
        if self.show_grads and tensor is not None and tensor._grad is not None:
            grad = style.summary(tensor._grad, self.show_values, show_device=False)
            rows.append(style.multiline("grad: " + grad) if "\n" in grad else style.esc("grad: " + grad))
        if tensor is not None:
            found = marks.tensor_marks(tensor)
        elif producer is not None:
            found = marks.tensor_marks(None, producer, key[2])
        else:
            found = []
        self.used.update(kind for kind, _ in found)
        colors = {"leaf": style.LEAF, "intermediate": style.INTERMEDIATE, "no_grad": style.NO_GRAD}[kind]
        self.dot.node(tid, label=style.table(rows, marks.badges(found)), **style.node_attrs(colors))
        return tid, True

    def _op(self, node) -> str:
        op_id = self.ops[node] = f"op{len(self.ops)}"
        rows = [style.bold(node.name())]
        if self.show_saved:
            rows += self._saved_rows(node)
        found = marks.node_marks(node)
        self.used.update(kind for kind, _ in found)
        freed = node.is_freed
        if freed:
            self.used.add("freed")
            if not self.show_saved:  # with show_saved each saved tensor says "freed"
                rows.append(style.small("saved tensors freed", "#666666"))
        attrs = style.node_attrs(style.OPERATION, dashed=freed)
        attrs["style"] = attrs["style"].replace("rounded", "").replace(",,", ",").strip(",")
        attrs["shape"] = "ellipse"
        self.used.add("operation")
        self.dot.node(op_id, label=style.table(rows, marks.badges(found)), **attrs)
        return op_id

    def _saved_rows(self, node) -> list[str]:
        rows = []
        for entry in saved_entries(node):
            # custom Functions name theirs saved_tensors[i] already
            what = entry.name if entry.name.startswith("saved") else f"saved {entry.name}"
            if entry.state in (FREED, PACKED):
                state = "freed" if entry.state == FREED else "kept by a saved tensor hook"
                rows.append(style.small(f"{what}: {state}", "#666666"))
                continue
            who = self.known.saved_name(node, entry) or self._saved_value(entry)
            if entry.state == STALE:
                self.used.add("stale")
                text = f"{what} = {who}: changed in place (v{entry.saved_version} \u2192 v{entry.current_version})"
                rows.append(style.small(text, "#c62828"))
            else:
                rows.append(style.small(f"{what} = {who}", "#8a4b00"))
        for name, value in saved_params(node).items():
            rows.append(style.small(f"{name} = {param_text(value, self.show_values, name)}", "#555555"))
        return rows

    def _saved_value(self, entry) -> str:
        """An unnamed saved tensor: a few values on one line (a scalar reads ``0.5``, not
        ``shape ()``), else its shape, which keeps the operation's ellipse narrow."""
        t = entry.tensor
        values = style.values_text(t, limit=3) if self.show_values and t.ndim <= 1 else None
        return values or "shape " + style.shape_text(entry.shape)

    def _detach_edges(self) -> None:
        """A dotted arrow from a tensor to a grey tensor sharing its data (``detach()``)."""
        with_grad = {id(t._version_counter): tid for tid, t in self.drawn_tensors.items() if t.requires_grad}
        for tid, t in self.drawn_tensors.items():
            if t.requires_grad:
                continue
            source = with_grad.get(id(t._version_counter))
            if source is not None:
                text = "view (no grad)" if t._base is not None else "detach()"
                self.dot.edge(source, tid, label=text, style="dotted", fontcolor="#777777", constraint="false")
                self.used.add("detach")

    def _legend_rows(self) -> list[tuple[str, str, str, str]]:
        rows = [
            (*style.LEAF, "rounded", "leaf that requires grad (.grad is filled)"),
            (*style.INTERMEDIATE, "rounded", "made by an operation (non-leaf)"),
            (*style.NO_GRAD, "rounded", "needs no grad (requires_grad=False)"),
            (*style.OPERATION, "", "operation: the grad_fn of the tensor it makes"),
        ]
        return rows + legend_marks(self.used)


def legend_marks(used: set[str]) -> list[tuple[str, str, str, str]]:
    """Legend rows for the marks present in a drawing."""
    rows = []
    if "retains_grad" in used:
        rows.append((style.RETAINS_GRAD, style.RETAINS_GRAD, "", "retains_grad(): keeps .grad of a non-leaf"))
    if "hook" in used:
        rows.append((style.HOOK, style.HOOK, "", "registered hook (its function's name)"))
    if "version" in used:
        rows.append((style.VERSION, style.VERSION, "", "version N: modified in place N times"))
    if "freed" in used:
        rows.append((*style.OPERATION, "dashed", "dashed: saved tensors freed by backward()"))
    if "stale" in used:
        rows.append(("#ffffff", "#c62828", "", "red: saved tensor changed in place (backward will fail)"))
    if "saved" in used:
        rows.append((*style.SAVED, "rounded", "tensor saved for backward"))
    if "detach" in used:
        rows.append(("#ffffff", "#ffffff", "", "dotted arrow: shares data, no graph (detach)"))
    if "more" in used:
        rows.append((*style.MORE, "dashed", "part of the graph not drawn"))
    return rows


def _kind(tensor: Tensor) -> str:
    if tensor.grad_fn is not None:
        return "intermediate"
    return "leaf" if tensor.requires_grad else "no_grad"
