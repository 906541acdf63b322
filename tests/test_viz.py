"""minigrad.viz: the DOT of known graphs, real rendering, the backward trace, player, CLI.

Expected structure comes from the maths of each example (which tensor feeds which operation);
names, flags, values and gradients come from running the same code in PyTorch.
"""

from __future__ import annotations

import html
import math
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import graphviz
import pytest

import minigrad
from minigrad import viz

torch = pytest.importorskip("torch")

# The graph tests run on each device (on_device: the factories create tensors there, in
# PyTorch too when it has CUDA); rendering, the CLI and the notebook are about files: CPU only.
pytestmark = pytest.mark.usefixtures("on_device")
CPU_ONLY = pytest.mark.parametrize("device", ["cpu"])


# --------------------------------------------------------------------------- reading DOT
def _split_attrs(text: str) -> dict[str, str]:
    """Attributes of a DOT statement: key=value with quoted, <HTML> or bare values."""
    attrs, i, n = {}, 0, len(text)
    while i < n:
        while i < n and text[i] in " ,\t":
            i += 1
        if i >= n:
            break
        j = text.index("=", i)
        key = text[i:j].strip()
        i = j + 1
        if text[i] == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            value, i = text[i + 1 : j], j + 1
        elif text[i] == "<":
            depth, j = 0, i
            while True:
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            value, i = text[i:j], j
        else:
            j = i
            while j < n and text[j] not in " ,]":
                j += 1
            value, i = text[i:j], j
        attrs[key] = value
    return attrs


class Dot:
    """The nodes and edges of a drawing's DOT source, with readable label text."""

    def __init__(self, drawing):
        assert isinstance(drawing, graphviz.Digraph)
        self.nodes: dict[str, dict] = {}
        self.edges: list[tuple[str, str, dict]] = []
        for line in drawing.source.splitlines():
            line = line.strip()
            edge = re.match(r'^("[^"]*"|\S+) -> ("[^"]*"|\S+)(?: \[(.*)\])?$', line)
            node = re.match(r"^(\S+) \[(.*)\]$", line)
            if edge:
                self.edges.append((edge[1], edge[2], _split_attrs(edge[3] or "")))
            elif node and node[1] not in ("graph", "node", "edge"):
                self.nodes[node[1]] = _split_attrs(node[2])

    def text(self, nid: str) -> str:
        label = self.nodes[nid].get("label", "")
        plain = html.unescape(re.sub(r"<[^>]*>", " ", label[1:-1] if label.startswith("<") else label))
        return " ".join(plain.split())

    def title(self, nid: str) -> str:
        """The bold first line: a tensor's name, an operation's name."""
        bold = re.search(r"<B>(.*?)</B>", self.nodes[nid].get("label", ""))
        return html.unescape(bold[1]) if bold else ""

    def graph_nodes(self) -> list[str]:
        return [n for n in self.nodes if n not in ("legend", "more")]

    def colour(self, nid: str) -> str:
        return hue(self.nodes[nid].get("fillcolor", "#ffffff"))

    def by_title(self, title: str) -> str:
        (found,) = [n for n in self.graph_nodes() if self.title(n) == title]
        return found

    def named_edges(self) -> Counter:
        return Counter((self._who(a), self._who(b)) for a, b, _ in self.edges if "legend" not in (a, b))

    def _who(self, nid: str) -> str:
        title = self.title(nid)
        if title == "AccumulateGrad":
            return "AccumulateGrad(" + re.search(r"into (\S+)\.grad", self.text(nid))[1] + ")"
        return title or "?" + self.colour(nid)


def hue(color: str) -> str:
    """A colour's everyday name, from its RGB values (so tests don't copy the palette)."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    if max(r, g, b) - min(r, g, b) < 16:
        return "white" if r > 245 else "grey"
    if g > r and g > b:
        return "green"
    if b > r and b >= g:
        return "blue"
    if r > g > b:
        return "yellow" if r - g < 25 else "orange"
    return color


def torch_values(t) -> str:
    """How PyTorch prints a tensor's values (``tensor(4.)`` -> ``4.``)."""
    text = repr(t.detach())
    return re.sub(r"^tensor\((.*?)(, dtype=.*)?\)$", r"\1", text, flags=re.S)


def flags(t) -> str:
    return f"requires_grad={t.requires_grad}, is_leaf={t.is_leaf}"


# --------------------------------------------------------------------------- examples, in both libraries
def affine(lib):
    x = lib.tensor(3.0, requires_grad=True)
    a = lib.tensor(4.0, requires_grad=True)
    b = lib.tensor(5.0, requires_grad=True)
    y = a * x
    z = y + b
    return dict(x=x, a=a, b=b, y=y, z=z)


def used_twice(lib):
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    y = x * x
    s = y.sum()
    return dict(x=x, y=y, s=s)


def double(grad):
    return grad * 2


def watch(grad):
    return None


def hooked(lib):
    x = lib.tensor(3.0, requires_grad=True)
    y = x * x
    y.retain_grad()
    y.register_hook(double)
    x.register_hook(watch)
    z = y.exp()
    return dict(x=x, y=y, z=z)


def detached(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x * 3
    d = y.detach()
    z = y * d
    return dict(x=x, y=y, d=d, z=z)


def no_grad_block(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.no_grad():
        s = x * 2
    z = (s * x).sum()
    return dict(x=x, s=s, z=z)


def in_place(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.add_(1)
    z = y.sum()
    return dict(x=x, y=y, z=z)


def both(example):
    return example(minigrad), example(torch)


# --------------------------------------------------------------------------- the tensor view
def check_tensor_nodes(dot: Dot, mg: dict, th: dict, colours: dict[str, str]) -> None:
    """Every named tensor once, in its colour, with PyTorch's values and flags."""
    for name, colour in colours.items():
        nid = dot.by_title(name)
        assert dot.colour(nid) == colour, (name, dot.nodes[nid])
        text = dot.text(nid)
        assert torch_values(th[name]) in text, text
        assert flags(th[name]) in text, text
        assert flags(mg[name]) in text


def test_affine_tensor_view_nodes_colours_edges():
    mg, th = both(affine)
    dot = Dot(viz.draw(mg["z"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "a": "green", "b": "green", "y": "yellow", "z": "yellow"})
    ops = [n for n in dot.graph_nodes() if dot.colour(n) == "blue"]
    assert sorted(dot.title(n) for n in ops) == sorted([th["y"].grad_fn.name(), th["z"].grad_fn.name()])
    assert len(dot.graph_nodes()) == 7
    assert dot.named_edges() == Counter(
        {
            ("a", "MulBackward0"): 1,
            ("x", "MulBackward0"): 1,
            ("MulBackward0", "y"): 1,
            ("y", "AddBackward0"): 1,
            ("b", "AddBackward0"): 1,
            ("AddBackward0", "z"): 1,
        }
    )
    # which input is which, in PyTorch's words
    mul = dot.by_title("MulBackward0")
    inputs = {dot.title(a): e.get("headlabel") for a, b, e in dot.edges if b == mul}
    assert inputs == {"a": "self", "x": "other"}


def test_affine_grads_shown_after_backward_match_torch():
    mg, th = both(affine)
    before = Dot(viz.draw(mg["z"], names=mg))
    assert "grad:" not in before.text(before.by_title("x"))
    mg["z"].backward()
    th["z"].backward()
    dot = Dot(viz.draw(mg["z"], names=mg))
    for leaf in "xab":
        assert f"grad: {torch_values(th[leaf].grad)}" in dot.text(dot.by_title(leaf))
    assert "grad:" not in dot.text(dot.by_title("y"))  # a non-leaf keeps no .grad
    hidden = Dot(viz.draw(mg["z"], names=mg, show_grads=False))
    assert "grad:" not in hidden.text(hidden.by_title("x"))


def test_names_come_from_the_calling_frame():
    x = minigrad.tensor(3.0, requires_grad=True)
    a = minigrad.tensor(4.0, requires_grad=True)
    b = minigrad.tensor(5.0, requires_grad=True)
    y = a * x
    z = y + b
    dot = Dot(viz.draw(z))
    assert {dot.title(n) for n in dot.graph_nodes() if dot.colour(n) != "blue"} == {"x", "a", "b", "y", "z"}
    backward = Dot(viz.draw_backward(z))
    assert "AccumulateGrad(x)" in {w for pair in backward.named_edges() for w in pair}
    del x, a, b, y


def test_names_given_as_a_dict_either_way_and_unnamed_tensors():
    x = minigrad.tensor(2.0, requires_grad=True)
    out = (x * 3).exp()
    dot = Dot(viz.draw(out, names={"weight": x}))
    titles = {dot.title(n) for n in dot.graph_nodes()}
    assert "weight" in titles and "x" not in titles and "out" not in titles
    dot = Dot(viz.draw(out, names={x: "w"}))
    assert "w" in {dot.title(n) for n in dot.graph_nodes()}
    # out and the tensor between the ops are drawn unnamed; so is the constant 3, in grey
    unnamed = [n for n in dot.graph_nodes() if not dot.title(n)]
    assert sorted(dot.colour(n) for n in unnamed) == ["grey", "yellow", "yellow"]
    with pytest.raises(TypeError, match="names must"):
        viz.draw(out, names={"x": 1.0})
    with pytest.raises(TypeError, match="names must be a dict"):
        viz.draw(out, names=["x"])


def test_tensor_used_twice_is_one_node_with_two_edges():
    mg, th = both(used_twice)
    dot = Dot(viz.draw(mg["s"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "y": "yellow", "s": "yellow"})
    assert dot.named_edges()[("x", "MulBackward0")] == 2
    assert len(dot.graph_nodes()) == 5  # x, y, s and two operations
    backward = Dot(viz.draw_backward(mg["s"], names=mg))
    assert backward.named_edges() == torch_edges(th["s"], th)


def test_hooked_and_retained_non_leaf_has_badges():
    mg, th = both(hooked)
    dot = Dot(viz.draw(mg["z"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "y": "yellow", "z": "yellow"})
    y_text, x_text = dot.text(dot.by_title("y")), dot.text(dot.by_title("x"))
    assert th["y"].retains_grad and "retains_grad" in y_text
    assert "hook: double" in y_text and "hook: watch" not in y_text
    assert "hook: watch" in x_text and "retains_grad" not in x_text
    assert "retains_grad" not in dot.text(dot.by_title("z"))
    legend = dot.text("legend")
    assert "retains_grad" in legend and "hook" in legend
    # in the autograd view the marks sit on the node that made y, and on x's AccumulateGrad
    backward = Dot(viz.draw_backward(mg["z"], names=mg))
    assert backward.named_edges() == torch_edges(th["z"], th)
    (mul,) = [n for n in backward.graph_nodes() if backward.title(n) == "MulBackward0"]
    assert "retains_grad" in backward.text(mul) and "hook: double" in backward.text(mul)
    (acc,) = [n for n in backward.graph_nodes() if backward.title(n) == "AccumulateGrad"]
    assert "hook: watch" in backward.text(acc)
    mg["z"].backward()
    th["z"].backward()
    dot = Dot(viz.draw(mg["z"], names=mg))
    assert f"grad: {torch_values(th['y'].grad)}" in dot.text(dot.by_title("y"))  # the retained grad


def test_detached_branch_is_grey_with_a_dotted_detach_arrow():
    mg, th = both(detached)
    dot = Dot(viz.draw(mg["z"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "y": "yellow", "d": "grey", "z": "yellow"})
    y, d = dot.by_title("y"), dot.by_title("d")
    (cut,) = [e for a, b, e in dot.edges if (a, b) == (y, d)]
    assert cut["style"] == "dotted" and cut["label"] == "detach()"
    # d feeds the multiplication but no operation made it
    assert not [a for a, b, _ in dot.edges if b == d and a != y]
    backward = Dot(viz.draw_backward(mg["z"], names=mg))
    assert backward.named_edges() == torch_edges(th["z"], th)


def test_no_grad_block_makes_a_grey_leaf_without_operation():
    mg, th = both(no_grad_block)
    dot = Dot(viz.draw(mg["z"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "s": "grey", "z": "yellow"})
    s = dot.by_title("s")
    assert not [a for a, b, _ in dot.edges if b == s]  # nothing recorded how s was made
    ops = sorted(dot.title(n) for n in dot.graph_nodes() if dot.colour(n) == "blue")
    assert ops == ["MulBackward0", "SumBackward0"]
    assert Dot(viz.draw_backward(mg["z"], names=mg)).named_edges() == torch_edges(th["z"], th)


def test_in_place_modified_tensor_shows_its_version():
    mg, th = both(in_place)
    dot = Dot(viz.draw(mg["z"], names=mg))
    check_tensor_nodes(dot, mg, th, {"x": "green", "y": "yellow", "z": "yellow"})
    assert th["y"]._version == mg["y"]._version == 1
    assert f"version {th['y']._version}" in dot.text(dot.by_title("y"))
    assert "version" not in dot.text(dot.by_title("x"))
    # y's grad_fn is now the in-place op; the value before it is an unnamed intermediate
    y = dot.by_title("y")
    (maker,) = [a for a, b, _ in dot.edges if b == y]
    assert dot.title(maker) == th["y"].grad_fn.name()
    before = [a for a, b, _ in dot.edges if b == maker and dot.colour(a) == "yellow"]
    assert len(before) == 1 and dot.title(before[0]) == ""
    assert "version" in dot.text("legend")
    assert Dot(viz.draw_backward(mg["z"], names=mg)).named_edges() == torch_edges(th["z"], th)


def test_legend_on_by_default_and_off_on_request():
    mg = affine(minigrad)
    for draw in (viz.draw, viz.draw_backward):
        dot = Dot(draw(mg["z"], names=mg))
        assert "legend" in dot.nodes and "Legend" in dot.text("legend")
        assert "legend" not in Dot(draw(mg["z"], names=mg, legend=False)).nodes
    text = Dot(viz.draw(mg["z"], names=mg)).text("legend")
    assert "leaf" in text and "requires_grad=False" in text and "operation" in text
    assert "hook" not in text  # only marks that appear are explained


def test_rankdir_and_values_options():
    mg = affine(minigrad)
    assert "rankdir=LR" in viz.draw(mg["z"], names=mg, rankdir="LR").source
    assert "rankdir=BT" in viz.draw_backward(mg["z"], names=mg, rankdir="BT").source
    with pytest.raises(ValueError, match="rankdir"):
        viz.draw(mg["z"], rankdir="sideways")
    dot = Dot(viz.draw(mg["z"], names=mg, show_values=False))
    assert "shape ()" in dot.text(dot.by_title("x")) and "3." not in dot.text(dot.by_title("x"))
    big = minigrad.ones(3, 4, requires_grad=True)
    dot = Dot(viz.draw(big.sum(), names={"big": big}))
    assert "shape (3, 4)" in dot.text(dot.by_title("big"))
    with pytest.raises(ValueError, match="at least one tensor"):
        viz.draw()
    with pytest.raises(TypeError, match="expected tensors"):
        viz.draw(3.0)


def test_leaf_and_no_grad_roots_draw_alone():
    leaf = minigrad.tensor([1.0], requires_grad=True)
    plain = minigrad.tensor([1.0])
    dot = Dot(viz.draw(leaf, plain, names={"leaf": leaf, "plain": plain}))
    assert [dot.colour(n) for n in dot.graph_nodes()] == ["green", "grey"]
    backward = Dot(viz.draw_backward(leaf, names={"leaf": leaf}))
    assert backward.named_edges() == Counter({("leaf", "AccumulateGrad(leaf)"): 1})


# --------------------------------------------------------------------------- the autograd view
def torch_edges(root, named: dict) -> Counter:
    """(node, next node) pairs of PyTorch's own graph, AccumulateGrad named by its leaf."""
    names = {id(t): k for k, t in named.items()}

    def who(node):
        if node.name() == "torch::autograd::AccumulateGrad":
            return f"AccumulateGrad({names[id(node.variable)]})"
        return node.name()

    edges, stack, seen = Counter(), [root.grad_fn], {root.grad_fn}
    edges[(names[id(root)], who(root.grad_fn))] += 1
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            edges[(who(node), who(nxt))] += 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return edges


def test_affine_autograd_view_matches_torch_graph():
    mg, th = both(affine)
    dot = Dot(viz.draw_backward(mg["z"], names=mg))
    assert dot.named_edges() == torch_edges(th["z"], th)
    for nid in dot.graph_nodes():
        if dot.title(nid) == "AccumulateGrad":
            assert dot.colour(nid) == "green"
        elif dot.title(nid).endswith("Backward0"):
            assert dot.colour(nid) == "blue"
    assert "for y" in dot.text(dot.by_title("MulBackward0"))


def test_show_saved_and_the_freed_look():
    mg = affine(minigrad)
    dot = Dot(viz.draw_backward(mg["z"], names=mg, show_saved=True))
    mul = dot.by_title("MulBackward0")
    saved = {dot.title(a): dot.text(a) for a, b, e in dot.edges if b == mul and e.get("style") == "dotted"}
    assert set(saved) == set(mg["y"].grad_fn.saved_names())  # self and other
    assert "= a" in saved["self"] and "= x" in saved["other"]
    assert all(dot.colour(dot.by_title(name)) == "orange" for name in saved)
    assert "dashed" not in dot.nodes[mul]["style"]
    assert "alpha = 1" in dot.text(dot.by_title("AddBackward0"))  # parameters, as torchviz shows
    mg["z"].backward()
    for draw in (viz.draw, viz.draw_backward):
        after = Dot(draw(mg["z"], names=mg, show_saved=True))
        node = after.by_title("MulBackward0")
        assert "dashed" in after.nodes[node]["style"]
        assert "freed" in after.text(node) or any("freed" in after.text(a) for a, b, _ in after.edges if b == node)
        assert "freed" in after.text("legend")
        add = after.by_title("AddBackward0")  # saved nothing, so nothing was freed
        assert "dashed" not in after.nodes[add]["style"]


def test_array_parameters_are_summarised_as_tensors():
    # Class targets and pooling's indices are arrays the node keeps (PyTorch saves them as
    # tensors): a small one shows its values, a large one its shape, never a page of numbers.
    x = minigrad.randn(2, 1, 8, 8, requires_grad=True)
    loss = minigrad.nn.functional.cross_entropy(
        minigrad.nn.functional.max_pool2d(x, 2).flatten(1), minigrad.tensor([0, 2])
    )
    for draw in (viz.draw, viz.draw_backward):
        dot = Dot(draw(loss, show_saved=True))
        assert "target = [0, 2] int64" in dot.text(dot.by_title("NllLossBackward0"))
        pool = dot.text(dot.by_title("MaxPool2DWithIndicesBackward0"))
        assert "result1 = shape (2, 1, 4, 4) int64" in pool and "[[" not in pool
        assert "kernel_size = (2, 2)" in pool


def test_retain_graph_keeps_the_solid_look():
    mg = affine(minigrad)
    mg["z"].backward(retain_graph=True)
    dot = Dot(viz.draw_backward(mg["z"], names=mg))
    assert "dashed" not in dot.nodes[dot.by_title("MulBackward0")]["style"]


def test_saved_tensor_changed_in_place_is_marked():
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c = minigrad.ones(2)
    q = (w * c).sum()
    c.add_(1)
    dot = Dot(viz.draw_backward(q, names={"w": w, "c": c, "q": q}, show_saved=True))
    (saved,) = [n for n in dot.graph_nodes() if dot.title(n) == "other"]
    assert "changed in place: v0 \u2192 v1" in dot.text(saved)
    assert dot.nodes[saved]["color"] != dot.nodes[dot.by_title("q")]["color"]
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        q.backward()  # what the mark warns about
    tensor_view = Dot(viz.draw(q, names={"w": w, "c": c, "q": q}, show_saved=True))
    assert "changed in place" in tensor_view.text(tensor_view.by_title("MulBackward0"))
    assert "version 1" in tensor_view.text(tensor_view.by_title("c"))


def test_node_hooks_are_badges_in_both_views():
    x = minigrad.tensor(2.0, requires_grad=True)
    y = x.exp()

    def before_exp(grads):
        return None

    def after_exp(grad_inputs, grad_outputs):
        return None

    y.grad_fn.register_prehook(before_exp)
    y.grad_fn.register_hook(after_exp)
    for draw in (viz.draw, viz.draw_backward):
        dot = Dot(draw(y, names={"x": x, "y": y}))
        text = dot.text(dot.by_title("ExpBackward0"))
        assert "prehook: before_exp" in text and "node hook: after_exp" in text


# --------------------------------------------------------------------------- big graphs
def chain(n: int):
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    return x, y


def test_max_depth_and_max_nodes_cut_with_a_more_node():
    x, y = chain(50)  # 50 MulBackward0 and one AccumulateGrad
    dot = Dot(viz.draw(y, names={}, max_depth=3))
    ops = [n for n in dot.graph_nodes() if dot.title(n) == "MulBackward0"]
    assert len(ops) == 3
    assert "\u2026 48 more" in dot.text("more")
    assert [b for a, b, _ in dot.edges if a == "more"]  # it points at the tensor it stands for
    dot = Dot(viz.draw_backward(y, names={}, max_depth=3))
    assert len([n for n in dot.graph_nodes() if n.startswith("n")]) == 3
    assert "\u2026 48 more" in dot.text("more")
    assert [a for a, b, _ in dot.edges if b == "more"]
    dot = Dot(viz.draw_backward(y, names={}, max_nodes=10))
    assert len([n for n in dot.graph_nodes() if n.startswith("n")]) == 10
    assert "\u2026 41 more" in dot.text("more")
    dot = Dot(viz.draw(y, names={}, max_nodes=40))
    drawn_ops = len([n for n in dot.graph_nodes() if dot.title(n) == "MulBackward0"])
    assert 10 <= drawn_ops < 50 and len(dot.graph_nodes()) <= 40
    assert f"\u2026 {51 - drawn_ops} more" in dot.text("more")
    assert "more" not in Dot(viz.draw(y, names={})).nodes
    with pytest.raises(ValueError, match="max_nodes"):
        viz.draw(y, max_nodes=-1)


@CPU_ONLY
def test_a_2000_node_graph_renders():
    x, y = chain(700)  # 700 operations, 701 tensors, 700 constants
    drawing = viz.draw(y, names={"x": x, "y": y})
    dot = Dot(drawing)
    assert len(dot.graph_nodes()) == 2101 and "more" not in dot.nodes
    svg = drawing.pipe(format="svg", encoding="utf-8")
    assert svg.count('class="node"') == 2101 + 1  # and the legend


@pytest.mark.slow
@CPU_ONLY
def test_deep_graphs_need_no_recursion():
    depth = 5 * sys.getrecursionlimit()
    x, y = chain(depth)
    dot = Dot(viz.draw(y, names={}))
    assert "more" in dot.nodes and "more" in Dot(viz.draw_backward(y, names={})).nodes
    trace = viz.trace_backward(y, names={})
    assert len(trace) == depth + 1 and trace.frames[-1].name == "AccumulateGrad"
    assert x.grad is not None


# --------------------------------------------------------------------------- rendering
def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@CPU_ONLY
def test_render_svg_png_pdf_with_the_real_dot(tmp_path):
    mg = affine(minigrad)
    y = mg["y"]
    y.retain_grad()
    y.register_hook(double)
    mg["z"].backward()
    drawing = viz.draw(mg["z"], names=mg)
    svg_path = drawing.render(tmp_path / "affine", format="svg")
    root = ET.parse(svg_path).getroot()
    texts = {el.text for el in root.iter() if el.text}
    assert {"x", "a", "b", "y", "z", "MulBackward0", "AddBackward0", "Legend"} <= texts
    png_path = drawing.render(tmp_path / "affine", format="png")
    width, height = png_size(open(png_path, "rb").read())
    assert 300 < width < 2000 and 300 < height < 2000  # a readable, slide-sized picture
    assert drawing.pipe(format="pdf")[:4] == b"%PDF"
    bundle = drawing._repr_mimebundle_()  # what JupyterLab displays
    assert "<svg" in bundle["image/svg+xml"]
    backward = viz.draw_backward(mg["z"], names=mg, show_saved=True)
    width, height = png_size(backward.pipe(format="png"))
    assert width > 200 and height > 200


@CPU_ONLY
def test_missing_graphviz_binaries_give_install_help(tmp_path, monkeypatch):
    mg = affine(minigrad)
    drawing = viz.draw(mg["z"], names=mg)
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without the dot program
    assert "MulBackward0" in drawing.source  # the DOT text needs no binaries
    for attempt in (
        lambda: drawing.pipe(format="svg"),
        lambda: drawing.render(tmp_path / "g", format="png"),
        lambda: drawing._repr_mimebundle_(),
    ):
        with pytest.raises(viz.GraphvizNotFoundError) as info:
            attempt()
        message = str(info.value)
        assert "apt-get install graphviz" in message and "brew install graphviz" in message
        assert "conda install" in message and ".source" in message
        assert isinstance(info.value, graphviz.ExecutableNotFound)


# --------------------------------------------------------------------------- trace_backward
def everything(lib):
    x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = lib.tensor([1.5, 0.25, -0.5], requires_grad=True)
    b = lib.tensor(0.1, requires_grad=True)
    h = (x * w).tanh()
    h.retain_grad()
    h.register_hook(double)
    s = h.sum() + b * h.mean()
    loss = s * s
    return dict(x=x, w=w, b=b, h=h, s=s, loss=loss)


def grad_values(named: dict) -> dict:
    return {k: t._grad.tolist() for k, t in named.items() if t._grad is not None}


@pytest.mark.parametrize("example", [affine, used_twice, hooked, detached, no_grad_block, in_place, everything])
def test_trace_leaves_the_same_grads_as_backward(example):
    traced, plain = example(minigrad), example(minigrad)
    root = list(traced)[-1]
    trace = viz.trace_backward(traced[root], names=traced)
    plain[root].backward()
    assert grad_values(traced) == grad_values(plain)
    th = example(torch)
    th[root].backward()
    for name, grad in grad_values(traced).items():
        assert torch.allclose(torch.tensor(grad, dtype=torch.float32), th[name].grad.float(), rtol=1e-5)
    assert len(trace) > 0


def test_trace_frames_follow_the_engine_and_torch_order():
    mg, th = both(everything)

    def record(nodes, out, who):
        for node in nodes:
            node.register_prehook(lambda grads, node=node: out.append(who(node)))

    def graph_nodes(root):
        stack, seen = [root.grad_fn], {root.grad_fn}
        while stack:
            for nxt, _ in stack.pop().next_functions:
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def who(named):
        names = {id(t): k for k, t in named.items()}
        return lambda node: names[id(node.variable)] if hasattr(node, "variable") else node.name()

    engine_order: list = []
    record(graph_nodes(mg["loss"]), engine_order, lambda n: n)
    torch_order: list = []
    record(graph_nodes(th["loss"]), torch_order, who(th))
    trace = viz.trace_backward(mg["loss"], names=mg)
    th["loss"].backward()
    assert [f.node for f in trace.frames] == engine_order
    assert [who(mg)(f.node) for f in trace.frames] == torch_order
    assert [f.step for f in trace.frames] == list(range(1, len(trace) + 1))


def test_trace_records_gradients_hooks_and_accumulation():
    mg, th = both(hooked)
    th["z"].backward()
    trace = viz.trace_backward(mg["z"], names=mg)
    exp, mul, acc = trace.frames
    assert (exp.name, mul.name, acc.name) == ("ExpBackward0", "MulBackward0", "AccumulateGrad")
    assert exp.grad_outputs[0].tolist() == 1.0
    # y's hook doubled the gradient before MulBackward0 ran; the retained grad saw the result
    (hook,) = mul.hooks
    assert (hook.kind, hook.name) == ("tensor", "double")
    assert hook.grad.tolist() == pytest.approx(exp.grad_inputs[0].tolist())
    assert hook.returned.tolist() == pytest.approx(2 * exp.grad_inputs[0].tolist())
    assert mul.grad_outputs[0].tolist() == pytest.approx(hook.returned.tolist())
    (kept,) = mul.accumulated
    assert kept.retained and kept.name == "y" and kept.total.tolist() == pytest.approx(th["y"].grad.item())
    (watched,) = acc.hooks
    assert watched.name == "watch" and watched.returned is None
    (leaf,) = acc.accumulated
    assert leaf.tensor is mg["x"] and leaf.total.tolist() == pytest.approx(th["x"].grad.item())
    assert [g.tolist() for _, g in mul.sent()] == pytest.approx([th["x"].grad.item() / 2] * 2)
    # the hooks are the user's functions again, and can still be removed
    assert list(mg["y"].grad_fn._tensor_hooks[0].values()) == [double]
    assert list(mg["x"]._hooks.values()) == [watch]
    text = trace.describe(2)
    assert "double" in text and "MulBackward0" in text and "y.grad (retained)" in text
    assert "into x.grad" in trace.describe(3)
    assert trace.describe(0).startswith("Start")


def test_trace_frees_like_backward_unless_retain_graph():
    mg = affine(minigrad)
    viz.trace_backward(mg["z"], names=mg)
    assert mg["y"].grad_fn.is_freed
    with pytest.raises(RuntimeError, match="second time"):
        mg["z"].backward()
    mg = affine(minigrad)
    viz.trace_backward(mg["z"], retain_graph=True, names=mg)
    mg["z"].backward()  # the graph is still there
    assert mg["x"].grad.item() == 2 * 4.0


def test_trace_with_a_gradient_and_its_errors():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    trace = viz.trace_backward(y, minigrad.tensor([1.0, 0.5]))
    assert x.grad.tolist() == [2.0, 2.0]
    assert trace.frames[0].grad_outputs[0].tolist() == [1.0, 0.5]
    with pytest.raises(RuntimeError, match="implicitly created only for scalar outputs"):
        viz.trace_backward(x * 2)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        viz.trace_backward(x * 2, minigrad.ones(3))
    with pytest.raises(RuntimeError, match="does not require grad"):
        viz.trace_backward(minigrad.ones(1).sum())
    with pytest.raises(TypeError):
        viz.trace_backward([x])


def test_trace_puts_hooks_back_when_backward_fails():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2

    def broken(grad):
        raise ValueError("boom")

    y.register_hook(broken)
    with pytest.raises(ValueError, match="boom"):
        viz.trace_backward(y.sum(), names={})
    assert list(y.grad_fn._tensor_hooks[0].values()) == [broken]


def test_trace_of_a_leaf():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    trace = viz.trace_backward(x, minigrad.tensor([3.0, 4.0]), names={"x": x})
    assert [f.name for f in trace.frames] == ["AccumulateGrad"] and x.grad.tolist() == [3.0, 4.0]
    dot = Dot(trace.draw(1))
    assert dot.named_edges() == Counter({("x", "AccumulateGrad(x)"): 1})


def test_trace_pictures_highlight_each_step():
    mg, th = both(affine)
    trace = viz.trace_backward(mg["z"], names=mg)
    th["z"].backward()
    assert trace.steps == len(trace.frames) + 1 == 6
    start = Dot(trace.draw(0))
    assert not [n for n in start.graph_nodes() if start.colour(n) == "orange"]
    for step in range(1, trace.steps):
        dot = Dot(trace.draw(step))
        current = [n for n in dot.graph_nodes() if dot.colour(n) == "orange"]
        assert len(current) == 1 and dot.title(current[0]) == trace.frames[step - 1].name
        ops = [n for n in dot.graph_nodes() if n.startswith("n")]
        assert len([n for n in ops if dot.colour(n) == "white"]) == len(ops) - step
    end = Dot(trace.draw())
    labels = {(end._who(a), end._who(b)): e.get("label") for a, b, e in end.edges if "legend" not in (a, b)}
    assert labels[("MulBackward0", "AccumulateGrad(x)")] == f"other: {torch_values(th['x'].grad)}"
    assert labels[("AddBackward0", "AccumulateGrad(b)")] == f"other: {torch_values(th['b'].grad)}"
    assert labels[("z", "AddBackward0")] == "1."
    (acc_a,) = [n for n in end.graph_nodes() if "into a.grad" in end.text(n)]
    assert f"grad: {torch_values(th['a'].grad)}" in end.text(acc_a)
    first = Dot(trace.draw(1))  # a's AccumulateGrad has not run yet at step 1
    (acc_a,) = [n for n in first.graph_nodes() if "into a.grad" in first.text(n)]
    assert "grad: None" in first.text(acc_a)
    with pytest.raises(IndexError):
        trace.draw(trace.steps)


@CPU_ONLY
def test_trace_save_writes_svgs_and_a_page(tmp_path):
    mg = everything(minigrad)
    trace = viz.trace_backward(mg["loss"], names=mg)
    files = trace.save(tmp_path / "steps")
    assert len(files) == trace.steps
    for path in files:
        assert ET.parse(path).getroot().tag.endswith("svg")
    pngs = trace.save(tmp_path / "pngs", format="png")
    assert all(open(p, "rb").read(4) == b"\x89PNG" for p in pngs)
    (page,) = trace.save(tmp_path / "steps.html")
    text = open(page, encoding="utf-8").read()
    assert text.count('<figure class="step"') == trace.steps and text.count("<svg") == trace.steps
    assert "<script" in text and "http" not in re.sub(
        r'xmlns(:xlink)?="[^"]*"|"-//W3C[^"]*"|"http://www.w3.org[^"]*"', "", text
    )
    assert html.escape(trace.describe(1)) in text
    script = text[text.index("<script>") + len("<script>") : text.index("</script>")]
    node = shutil.which("node")
    if node:  # run the page's script against a minimal stand-in for the browser's DOM
        (tmp_path / "page.js").write_text(PAGE_HARNESS.replace("COUNT", str(trace.steps)).replace("SCRIPT", script))
        done = subprocess.run([node, str(tmp_path / "page.js")], capture_output=True, text=True, check=True)
        last = trace.steps - 1
        assert done.stdout.split() == ["0", "1", str(last), str(last - 1), "2", "0"]
    with pytest.raises(ValueError, match="format"):
        trace.save(tmp_path / "bad", format="gif")


PAGE_HARNESS = """
const steps = Array.from({length: COUNT}, () => ({hidden: true}));
const els = {};
for (const id of ["first", "prev", "play", "next", "last", "slider", "counter"]) els[id] = {value: "0"};
let onKey = null;
global.document = {
  querySelectorAll: () => steps,
  getElementById: (id) => els[id],
  addEventListener: (type, fn) => { onKey = fn; },
};
SCRIPT
const shown = () => steps.findIndex((s) => !s.hidden) + (steps.filter((s) => !s.hidden).length === 1 ? 0 : 1000);
console.log(shown());
els.next.onclick(); console.log(shown());
els.last.onclick(); els.next.onclick(); console.log(shown());
onKey({key: "ArrowLeft", preventDefault() {}}); console.log(shown());
els.slider.value = "2"; els.slider.oninput(); console.log(shown());
els.first.onclick(); els.prev.onclick(); console.log(shown());
"""


@CPU_ONLY
def test_backward_player_steps_through_the_trace():
    mg = affine(minigrad)
    trace = viz.trace_backward(mg["z"], names=mg)
    player = viz.BackwardPlayer(trace)
    assert player.slider.max == player.play.max == len(trace.frames)
    assert "Start" in player.caption.value and "<svg" in player.picture.value
    for step in (3, 1, 5):
        player.slider.value = step
        assert trace.frames[step - 1].name in player.caption.value
        assert f"ran at step {step}" in player.picture.value
    player.show(2)
    assert player.step == 2 and "ran at step 2" in player.picture.value
    assert "application/vnd.jupyter.widget-view+json" in player._repr_mimebundle_()
    with pytest.raises(TypeError):
        viz.BackwardPlayer(mg["z"])


# --------------------------------------------------------------------------- command line
SCRIPT = """
import sys
import minigrad as torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
pred = (x * w).sum()
loss = (pred - float(sys.argv[1])) ** 2
"""


def run_cli(tmp_path, *args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "minigrad.viz", *args], cwd=tmp_path, capture_output=True, text=True, env=env
    )


@CPU_ONLY
def test_command_line_draws_a_scripts_tensor(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    done = run_cli(tmp_path, "train.py", "--tensor", "loss", "--out", "graph.svg", "--steps", "steps.html", "--", "4")
    assert done.returncode == 0, done.stderr
    texts = {el.text for el in ET.parse(tmp_path / "graph.svg").getroot().iter() if el.text}
    assert {"x", "w", "pred", "loss", "PowBackward0"} <= texts
    # the start, then PowBackward0, SubBackward0, SumBackward0, MulBackward0 and two AccumulateGrad
    assert (tmp_path / "steps.html").read_text().count('<figure class="step"') == 1 + 6
    done = run_cli(tmp_path, "train.py", "--tensor", "pred", "--view", "backward", "--out", "pred.dot", "--", "4")
    assert done.returncode == 0, done.stderr
    source = (tmp_path / "pred.dot").read_text()
    assert source.startswith("digraph") and "SumBackward0" in source and "PowBackward0" not in source
    done = run_cli(tmp_path, "train.py", "--tensor", "nothing", "--", "4")
    assert done.returncode == 2 and "no tensor named 'nothing'" in done.stderr and "pred" in done.stderr


@CPU_ONLY
def test_command_line_without_graphviz(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    env = {"PATH": str(tmp_path), "PYTHONPATH": ":".join(sys.path)}
    done = run_cli(tmp_path, "train.py", "--out", "graph.png", "--", "1", env=env)
    assert done.returncode == 1 and "apt-get install graphviz" in done.stderr
    done = run_cli(tmp_path, "train.py", "--out", "graph.dot", "--", "1", env=env)
    assert done.returncode == 0 and "loss" in (tmp_path / "graph.dot").read_text()


# --------------------------------------------------------------------------- in a real notebook kernel
@pytest.mark.slow
@CPU_ONLY
def test_in_a_notebook_names_come_from_the_cells():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import minigrad as torch\nfrom minigrad import viz",
        "x = torch.tensor(3.0, requires_grad=True)\na = torch.tensor(4.0, requires_grad=True)\n"
        "b = torch.tensor(5.0, requires_grad=True)\ny = a * x\nz = y + b",
        "viz.draw(z)",
        "viz.BackwardPlayer(viz.trace_backward(z))",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    (picture,) = nb.cells[2].outputs
    svg = picture["data"]["image/svg+xml"]
    texts = {el.text for el in ET.fromstring(svg).iter() if el.text}
    assert {"x", "a", "b", "y", "z", "MulBackward0", "AddBackward0"} <= texts
    (player,) = nb.cells[3].outputs
    assert "application/vnd.jupyter.widget-view+json" in player["data"]


@pytest.mark.gpu
@CPU_ONLY  # the default device; the tensors are made on the GPU explicitly
def test_cuda_tensors_draw_and_trace():
    x = minigrad.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    y = (x * x).sum()
    dot = Dot(viz.draw(y, names={"x": x, "y": y}))
    assert "[1., 2.] cuda:0" in dot.text(dot.by_title("x"))  # the drawing says where a tensor lives
    trace = viz.trace_backward(y, names={"x": x, "y": y})
    assert x.grad.device.type == "cuda" and x.grad.tolist() == [2.0, 4.0]
    assert "<svg" in trace.draw(1).pipe(format="svg", encoding="utf-8")


# --------------------------------------------------------------------------- numbers in labels
@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.8408964152537145, "0.8409"),  # attention's scale, 1 / sqrt(sqrt(2))
        (0.7071067811865476, "0.7071"),
        (0.5, "0.5"),
        (0.01, "0.01"),
        (2.5, "2.5"),
        (3.0, "3.0"),  # an integer-valued float stays a float
        (20.0, "20.0"),
        (123456.0, "123456.0"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (math.nan, "nan"),
        (math.inf, "inf"),
        (-math.inf, "-inf"),
        (1e-8, "1e-08"),
        (1e-5, "1e-05"),
        (1.0000001e-8, "1.000e-08"),  # rounded: the trailing zeros say so
        (0.99999, "1.000"),
        (0.1 + 0.2, "0.3000"),
        (3.14159, "3.142"),
        (-2.7182818, "-2.718"),
        (1234.5678, "1234.6"),  # never "1235", which would read as an int
        (1234567.8, "1.235e+06"),
        (1e20, "1e+20"),
        (7, "7"),
        (-100, "-100"),
        (2**62, str(2**62)),  # an int is shown exactly
        (True, "True"),
        (None, "None"),
    ],
)
def test_numbers_in_node_labels_read_like_a_slide(value, shown):
    from minigrad.viz.style import number_text

    assert number_text(value) == shown
    if isinstance(value, float) and math.isfinite(value):
        assert float(shown) == pytest.approx(value, rel=1e-3)  # rounded, never changed


def test_float_parameters_of_nodes_are_rounded_in_both_views():
    # Attention scales q and k each by 1 / sqrt(sqrt(head_dim)): 0.8408964152537145 for 2.
    q, k, v = (minigrad.randn(1, 2, 3, 2, requires_grad=True) for _ in range(3))
    out = minigrad.nn.functional.scaled_dot_product_attention(q, k, v).sum()
    for draw in (viz.draw, viz.draw_backward):
        drawing = draw(out, show_saved=True)
        dot = Dot(drawing)
        scales = [dot.text(n) for n in dot.graph_nodes() if dot.title(n) == "MulBackward1"]
        assert len(scales) == 2 and all("other = 0.8409" in s for s in scales), scales
        assert "0.84089" not in drawing.source


def test_parameters_keep_their_python_look():
    x = minigrad.randn(2, 3, 4, 4, requires_grad=True)
    F = minigrad.nn.functional
    y = F.elu(F.leaky_relu(x, 0.01), 1.5).pow(2.5)
    loss = F.cross_entropy(F.avg_pool2d(y, 2).flatten(1)[:, :5], minigrad.tensor([0, 4]), reduction="none").sum()
    dot = Dot(viz.draw_backward(loss, show_saved=True))
    text = lambda title: dot.text(dot.by_title(title))  # noqa: E731
    assert "negative_slope = 0.01" in text("LeakyReluBackward0")
    assert "alpha = 1.5" in text("EluBackward0")
    assert "exponent = 2.5" in text("PowBackward0")
    assert "kernel_size = (2, 2)" in text("AvgPool2DBackward0")  # a tuple stays a tuple
    assert "ceil_mode = False" in text("AvgPool2DBackward0")
    # a string is quoted, so reduction='none' does not read as weight=None
    assert "reduction = 'none'" in text("NllLossBackward0") and "weight = None" in text("NllLossBackward0")
    assert "ignore_index = -100" in text("NllLossBackward0")
    one = Dot(viz.draw_backward(F.layer_norm(x, (4,)).sum(), show_saved=True))
    assert "normalized_shape = (4,)" in one.text(one.by_title("NativeLayerNormBackward0"))
    assert "eps = 1e-05" in one.text(one.by_title("NativeLayerNormBackward0"))


@pytest.mark.parametrize(
    ("index", "title", "shown"),
    [
        (lambda lib, x: x[1:], "SliceBackward0", "key = [1:]"),
        (lambda lib, x: x[:, 1:3], "SliceBackward0", "key = [:, 1:3]"),
        (lambda lib, x: x[..., ::2], "SliceBackward0", "key = [:, :, ::2]"),
        (lambda lib, x: x[-2:], "SliceBackward0", "key = [-2:]"),
        (lambda lib, x: x[0], "SelectBackward0", "key = [0]"),
        (lambda lib, x: x[lib.tensor([0, 2])], "IndexBackward0", "key = [tensor([0, 2])]"),
        (lambda lib, x: x[:, lib.tensor([1, 0])], "IndexBackward0", "key = [:, tensor([1, 0])]"),
        (lambda lib, x: x[x > 0], "IndexBackward0", "key = [bool mask (3, 4, 5)]"),
    ],
)
def test_an_index_is_shown_as_the_subscript_it_was(index, title, shown):
    x = minigrad.randn(3, 4, 5, requires_grad=True)
    y = index(minigrad, x)
    for draw in (viz.draw, viz.draw_backward):
        dot = Dot(draw(y, show_saved=True))
        assert shown in dot.text(dot.by_title(title))
        assert "slice(" not in dot.text(dot.by_title(title))


def test_a_view_taken_again_shows_its_steps_by_name():
    # A view whose base changed in place gets an AsStridedBackward0 that takes it from the base
    # again; the drawing names the view operations, not the objects that perform them.
    x = minigrad.randn(2, 3, requires_grad=True)
    base = x * 1
    view = base[1:].t()
    base.mul_(2)
    for draw in (viz.draw, viz.draw_backward):
        dot = Dot(draw(view.sum(), show_saved=True))
        text = dot.text(dot.by_title("AsStridedBackward0"))
        assert "steps = slice → t" in text and "object at" not in text


def test_saved_scalars_show_their_value_in_the_tensor_view():
    x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    y = (x * 0.25 * minigrad.ones(4, 2)).sum()
    dot = Dot(viz.draw(y, names={"x": x, "y": y}, show_saved=True))
    muls = [dot.text(n) for n in dot.graph_nodes() if dot.title(n) == "MulBackward0"]
    assert any("saved other = 0.2500" in t for t in muls), muls  # was "shape ()"
    assert any("saved other = shape (4, 2)" in t for t in muls), muls  # 8 values: the shape
    assert not any("shape ()" in t for t in muls)


def test_saved_tensors_kept_by_hooks_are_drawn_without_unpacking():
    unpacked = []
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: unpacked.append(1) or p):
        y = (x.exp() * x).sum()
    both = viz.draw_backward(y, show_saved=True).source + viz.draw(y, show_saved=True).source
    assert both.count("kept by a saved tensor hook") == 6  # exp's result, mul's self and other, in each view
    assert unpacked == []  # drawing must not run the user's unpack hook
    y.backward()
    assert len(unpacked) == 3 and x.grad is not None
