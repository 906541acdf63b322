"""The autograd view: the nodes ``backward()`` really walks -- ``grad_fn`` objects linked by
``next_functions``, ending in ``AccumulateGrad`` boxes that name their leaf -- with arrows in the
backward direction, as in lecture slides and torchviz.

:class:`BackwardGraph` is the graph once walked; :meth:`BackwardGraph.render` draws it, either
as is (``draw_backward``) or at one step of a recorded backward pass (the player).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..autograd.graph import AccumulateGrad
from ..tensor import Tensor
from . import marks, style
from .drawing import Drawing, more_node, new_drawing
from .drawing import legend as add_legend
from .names import Names, input_label
from .saved import FREED, PACKED, STALE, param_text, saved_entries, saved_params
from .tensor_view import DEFAULT_MAX_NODES, _check_roots, _kind, legend_marks
from .walk import Budget, reachable

KIND_COLORS = {"leaf": style.LEAF, "intermediate": style.INTERMEDIATE, "no_grad": style.NO_GRAD}


def draw_backward(
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
    """Draw the autograd graph of ``roots``: the nodes ``backward()`` walks, arrows backward.

    Each ``grad_fn`` node is a blue box (``MulBackward0``, with the tensor it made when a
    variable names it); each leaf's ``AccumulateGrad`` is a green box naming the leaf. The
    options are those of :func:`minigrad.viz.draw`; ``show_saved`` adds the saved tensors as
    orange boxes (as torchviz does) and the node's parameters.

    >>> import minigrad as torch
    >>> from minigrad import viz
    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> dot = viz.draw_backward(x * x)
    >>> "AccumulateGrad" in dot.source
    True
    """
    known = Names.resolve(names, depth=1)
    graph = BackwardGraph(_check_roots(roots), known, Budget(max_nodes, max_depth))
    return graph.render(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved, rankdir=rankdir, legend=legend
    )


@dataclass
class StepState:
    """What the graph looks like at one step of a recorded backward pass."""

    current: object = None  # the node running now
    done: dict = field(default_factory=dict)  # node -> the step it ran at
    edge_grads: dict = field(default_factory=dict)  # (node, input index) -> gradient sent
    root_grads: dict = field(default_factory=dict)  # root index -> gradient backward started with
    leaf_grads: dict = field(default_factory=dict)  # AccumulateGrad node -> leaf .grad by then
    freed: set = field(default_factory=set)  # nodes whose saved tensors are freed by then
    received: dict = field(default_factory=dict)  # node -> the gradients it received (after hooks)


class BackwardGraph:
    """The autograd graph below ``roots``, walked once (breadth first, within ``budget``)."""

    def __init__(self, roots: tuple[Tensor, ...], known: Names, budget: Budget):
        self.roots = roots
        self.known = known
        self.budget = budget
        self.ids: dict = {}  # autograd node -> node id, in the order they were met
        self.edges: list[tuple] = []  # (node, input index, next node)
        self.cut: list = []  # drawn nodes with undrawn next functions
        self.outputs: dict = {}  # node -> {output_nr} its drawn consumers or roots use
        for root in roots:
            known.add(root)
        queue: deque = deque()
        for root in roots:
            start = (
                root.grad_fn if root.grad_fn is not None else (root._grad_accumulator() if root.requires_grad else None)
            )
            if start is not None and start not in self.ids:
                self.ids[start] = f"n{len(self.ids)}"
                queue.append((start, 0))
            if start is not None:
                self.outputs.setdefault(start, set()).add(root._output_nr if root.grad_fn is not None else 0)
        while queue:
            node, depth = queue.popleft()
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                if nxt not in self.ids:
                    if not budget.allows(len(self.ids) + 1, depth + 1):
                        if not self.cut or self.cut[-1] is not node:
                            self.cut.append(node)
                        continue
                    self.ids[nxt] = f"n{len(self.ids)}"
                    queue.append((nxt, depth + 1))
                self.outputs.setdefault(nxt, set()).add(nr)
                self.edges.append((node, i, nxt))
        self.hidden = len(reachable(self._starts()) - set(self.ids)) if budget.cut else 0
        self.saved_before: dict = {}  # node -> its saved tensors before a traced backward freed them

    def remember_saved(self) -> None:
        """Keep what each node saved, so the steps of a trace before a node ran still show it."""
        self.saved_before = {node: saved_entries(node) for node in self.ids if not isinstance(node, AccumulateGrad)}

    def _starts(self):
        for root in self.roots:
            if root.grad_fn is not None:
                yield root.grad_fn
            elif root.requires_grad:
                yield root._grad_accumulator()

    def nodes(self) -> list:
        """The drawn autograd nodes, in the order they were met."""
        return list(self.ids)

    # ---------------------------------------------------------------- drawing
    def render(
        self,
        state: StepState | None = None,
        show_values: bool = True,
        show_grads: bool = True,
        show_saved: bool = False,
        rankdir: str = "TB",
        legend: bool = True,
    ) -> Drawing:
        """Draw the graph as it is now, or as it was at a step of a trace (``state``)."""
        dot = new_drawing("backward", rankdir)
        used: set[str] = {"operation"}
        for i, root in enumerate(self.roots):
            kind = _kind(root)
            used.add(kind)
            rows = [style.bold(self.known.name(root) or "output"), style.multiline(style.summary(root, show_values))]
            rows.append(style.small("backward() starts here" if root.requires_grad else "no graph: needs no grad"))
            dot.node(f"r{i}", label=style.table(rows), **style.node_attrs(KIND_COLORS[kind]))
            start = (
                root.grad_fn if root.grad_fn is not None else (root._grad_accumulator() if root.requires_grad else None)
            )
            if start is not None:
                attrs = {}
                if state is not None and i in state.root_grads:
                    attrs = _gradient_edge(state.root_grads[i], show_values, current=not state.done)
                dot.edge(f"r{i}", self.ids[start], **attrs)
        for node, nid in self.ids.items():
            if isinstance(node, AccumulateGrad):
                self._leaf_node(dot, node, nid, state, show_values, show_grads, used)
            else:
                self._op_node(dot, node, nid, state, show_saved, show_values, used)
        for node, i, nxt in self.edges:
            label = input_label(node, i) if len(node.next_functions) > 1 else None
            attrs = style.end_label("taillabel", label, i) if label else {}
            if state is not None and (node, i) in state.edge_grads:
                attrs = _gradient_edge(state.edge_grads[(node, i)], show_values, node is state.current, label)
            dot.edge(self.ids[node], self.ids[nxt], **attrs)
        if self.cut:
            more = more_node(dot, self.hidden, "autograd nodes " + self.budget.reason())
            for node in self.cut:
                dot.edge(self.ids[node], more, style="dashed")
            used.add("more")
        if legend:
            dot_legend = [
                (*style.OPERATION, "", "grad_fn node: turns the grad of its output into grads of its inputs"),
                (*style.LEAF, "rounded", "AccumulateGrad: adds the grad into the leaf's .grad"),
            ]
            if "intermediate" in used:
                dot_legend.append((*style.INTERMEDIATE, "rounded", "the tensor backward() starts from"))
            if "no_grad" in used:
                dot_legend.append((*style.NO_GRAD, "rounded", "needs no grad (requires_grad=False): no graph"))
            if state is not None:
                dot_legend.append((*style.CURRENT, "", "the node running at this step"))
                dot_legend.append(("#ffffff", style.OPERATION[1], "", "white: not reached yet"))
                dot_legend.append(("#ffffff", style.GRADIENT_EDGE, "", "red arrow: the gradient it carried"))
            add_legend(dot, dot_legend + legend_marks(used))
        return dot

    def _fill(self, node, colors, state: StepState | None, used: set[str]) -> dict:
        freed = node.is_freed if state is None else node in state.freed
        if freed:
            used.add("freed")
        attrs = style.node_attrs(colors, dashed=freed)
        if state is not None:
            if node is state.current:
                attrs.update(fillcolor=style.CURRENT[0], color=style.CURRENT[1], penwidth="3")
            elif node not in state.done:
                attrs.update(fillcolor="#ffffff")
        return attrs

    def _op_node(
        self, dot: Drawing, node, nid: str, state, show_saved: bool, show_values: bool, used: set[str]
    ) -> None:
        rows = [style.bold(node.name())]
        made = [self.known.name(self.known.output(node, nr)) for nr in sorted(self.outputs.get(node, ()))]
        made = [m for m in made if m]
        if made:
            rows.append(style.small("for " + ", ".join(made)))
        if show_saved:
            for name, value in saved_params(node).items():
                rows.append(style.small(f"{name} = {param_text(value, show_values, name)}", "#555555"))
            entries = saved_entries(node)
            if state is not None and node not in state.freed:  # a step of a trace before it freed them
                entries = self.saved_before.get(node, entries)
            self._saved_nodes(dot, node, entries, nid, show_values, used)
        if state is not None and node in state.done:
            got = ", ".join(_grad_text(g, show_values) for g in state.received.get(node, ()))
            rows.append(style.esc(f"received {got}"))
            rows.append(style.small(f"ran at step {state.done[node]}", "#1b5e20"))
        found = marks.output_marks(node) + marks.node_marks(node)
        used.update(kind for kind, _ in found)
        attrs = self._fill(node, style.OPERATION, state, used)
        attrs["style"] = attrs["style"].replace("rounded", "").replace(",,", ",").strip(",")
        dot.node(nid, label=style.table(rows, marks.badges(found)), **attrs)

    def _leaf_node(
        self, dot: Drawing, node, nid: str, state, show_values: bool, show_grads: bool, used: set[str]
    ) -> None:
        leaf = node.variable
        rows = [style.bold("AccumulateGrad")]
        rows.append(style.esc(f"into {self.known.name(leaf) or 'leaf'}.grad"))
        rows.append(style.small(style.one_line(style.summary(leaf, show_values))))
        grad = leaf._grad if state is None else state.leaf_grads.get(node)
        if state is not None or (show_grads and grad is not None):
            rows.append(style.esc(f"grad: {_grad_text(grad, show_values)}"))
        if state is not None and node in state.done:
            rows.append(style.small(f"ran at step {state.done[node]}", "#1b5e20"))
        found = marks.tensor_marks(leaf) + marks.node_marks(node)
        used.update(kind for kind, _ in found)
        dot.node(nid, label=style.table(rows, marks.badges(found)), **self._fill(node, style.LEAF, state, used))

    def _saved_nodes(self, dot: Drawing, node, entries: list, nid: str, show_values: bool, used: set[str]) -> None:
        for k, entry in enumerate(entries):
            sid = f"{nid}_s{k}"
            used.add("saved")
            rows = [style.bold(entry.name)]
            dashed = entry.state == FREED
            colors = style.SAVED
            if entry.state == FREED:
                rows.append(style.small("freed by backward()"))
                used.add("freed")
            elif entry.state == PACKED:
                rows.append(style.small("kept by a saved tensor hook"))
            else:
                name = self.known.saved_name(node, entry)
                if name:
                    rows.append(style.esc(f"= {name}"))
                rows.append(style.small(style.one_line(style.summary(entry.tensor, show_values))))
                if entry.state == STALE:
                    used.add("stale")
                    colors = (style.SAVED[0], "#c62828")
                    rows.append(
                        style.small(
                            f"changed in place: v{entry.saved_version} \u2192 v{entry.current_version}", "#c62828"
                        )
                    )
            attrs = style.node_attrs(colors, dashed=dashed)
            if entry.state == STALE:
                attrs["penwidth"] = "2"
            dot.node(sid, label=style.table(rows), **attrs)
            dot.edge(sid, nid, style="dotted", dir="none")


def _grad_text(grad, show_values: bool) -> str:
    return style.one_line(style.summary(grad, show_values, show_device=False)) if grad is not None else "None"


def _gradient_edge(grad, show_values: bool, current: bool, label: str | None = None) -> dict:
    text = _grad_text(grad, show_values)
    if label:
        text = f"{label}: {text}"
    attrs = {"label": text, "color": style.GRADIENT_EDGE, "fontcolor": style.GRADIENT_EDGE}
    attrs["penwidth"] = "2.5" if current else "1.5"
    return attrs
