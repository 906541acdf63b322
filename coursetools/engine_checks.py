"""Grading helpers for assignment 07, where students build the pieces of an autograd engine.

The test cells of ``07_build_autograd`` call these functions with the student's code; each one
runs it on cases the student has not seen (fresh random shapes, graphs with diamonds, deep
chains, hooks), compares the result with minigrad's own autograd (and, for derivative rules,
with finite differences) and raises ``AssertionError`` with a message that names what is
wrong: the operation and the input, or the node of the graph.

- :func:`check_unbroadcast` -- ``unbroadcast(grad, shape)``;
- :func:`check_rule` -- a derivative rule such as ``vjp_mul(grad, a, b) -> (grad_a, grad_b)``;
- :func:`graded_alone` -- a check run again with a correct ``unbroadcast`` or
  ``topological_order`` when it fails with the student's, so that one slip is not graded twice
  (assignment 06 uses it too, for its ``hvp`` and ``hessian``, and 08 for its ``make_model`` and
  ``train_step``);
- :func:`check_topological_order` -- ``topological_order(root)`` on the notebook's graphs;
- :func:`check_backward` -- ``backward(root, grad=None)``, leaf by leaf and node by node;
- :func:`within` -- a call that must finish in a few seconds (assignment 01 uses it for graph
  walks that follow every path instead of visiting each node once).

The graphs are made of :class:`Node` objects: the same small structure the notebook defines
(a value, the nodes it was computed from, a ``vjp`` that gives one gradient per input, and the
autograd state ``grad``, ``retains_grad`` and ``hooks``). :func:`to_minigrad` rebuilds such a
graph with minigrad tensors, which is what the answers are compared with, and what
``minigrad.viz`` can draw.

Like :mod:`coursetools.checks`, this module is covered by ``guard()``: a test cell that runs
after the module was patched fails.
"""

from __future__ import annotations

import contextlib
import math
import random
import signal
import threading
from collections.abc import Callable, Iterator

import minigrad as torch
import minigrad.nn.functional as F
from minigrad import nn

__all__ = [
    "Node",
    "apply",
    "check_backward",
    "check_rule",
    "check_topological_order",
    "check_unbroadcast",
    "graded_alone",
    "leaf",
    "reachable",
    "to_minigrad",
    "within",
]

# ---------------------------------------------------------------------------------------------
# The small graph structure of the notebook (the notebook shows the same code)

FORWARD = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "matmul": lambda a, b: a @ b,
    "exp": lambda a: a.exp(),
    "tanh": lambda a: a.tanh(),
    "sum": lambda a, dim=None, keepdim=False: a.sum(dim=dim, keepdim=keepdim),
}


class Node:
    """A value in a small computation graph: a tensor, and how it was computed.

    ``value`` is a minigrad tensor that records nothing itself; ``inputs`` are the nodes it was
    computed from (empty for a leaf); ``vjp(grad)`` returns one gradient per input. ``grad``,
    ``retains_grad`` and ``hooks`` are what a backward pass reads and fills in.
    """

    def __init__(
        self,
        value,
        name: str = "",
        requires_grad: bool = False,
        op: str = "leaf",
        inputs: tuple = (),
        vjp: Callable | None = None,
        params: dict | None = None,
    ):
        self.value = value
        self.name = name
        self.requires_grad = requires_grad
        self.op = op
        self.inputs = inputs
        self.vjp = vjp
        self.params = params or {}
        self.grad = None
        self.retains_grad = False
        self.hooks = []

    @property
    def is_leaf(self) -> bool:
        return not self.inputs

    def named(self, name: str) -> Node:
        """Give this node a name (for drawings and messages) and return it."""
        self.name = name
        return self

    def retain_grad(self) -> None:
        """Ask backward to keep this non-leaf node's gradient in ``.grad``."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on a node that has requires_grad=False")
        if not self.is_leaf:
            self.retains_grad = True

    def register_hook(self, hook: Callable) -> None:
        """``hook(grad)`` runs when this node's gradient is complete; a tensor it returns replaces it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a node that doesn't require gradient")
        self.hooks.append(hook)

    def __add__(self, other: Node) -> Node:
        return apply("add", self, other)

    def __mul__(self, other: Node) -> Node:
        return apply("mul", self, other)

    def __truediv__(self, other: Node) -> Node:
        return apply("div", self, other)

    def __matmul__(self, other: Node) -> Node:
        return apply("matmul", self, other)

    def exp(self) -> Node:
        return apply("exp", self)

    def tanh(self) -> Node:
        return apply("tanh", self)

    def sum(self, dim: int | None = None, keepdim: bool = False) -> Node:
        return apply("sum", self, dim=dim, keepdim=keepdim)

    def __repr__(self) -> str:
        return (
            f"Node({self.name!r}, op={self.op!r}, shape={tuple(self.value.shape)}, requires_grad={self.requires_grad})"
        )


def apply(op: str, *inputs: Node, **params) -> Node:
    """The node of ``op`` applied to ``inputs`` (a leaf when none of them requires grad)."""
    value = FORWARD[op](*[i.value for i in inputs], **params)
    if not any(i.requires_grad for i in inputs):
        return Node(value)  # nothing to differentiate: a leaf, as in PyTorch

    def vjp(grad):
        # The rule of this one operation: minigrad's, applied to fresh copies of the inputs.
        copies = [i.value.detach().requires_grad_() for i in inputs]
        with torch.enable_grad():
            out = FORWARD[op](*copies, **params)
        return torch.autograd.grad(out, copies, grad)

    return Node(value, "", True, op, tuple(inputs), vjp, params)


def leaf(values, name: str, requires_grad: bool = True) -> Node:
    """A leaf node holding ``values`` as a float64 tensor."""
    return Node(torch.tensor(values, dtype=torch.float64), name, requires_grad)


def reachable(root) -> list:
    """Every node reachable from ``root`` through ``inputs``, each once (no recursion)."""
    found, seen, stack = [], {id(root)}, [root]
    while stack:
        node = stack.pop()
        found.append(node)
        for i in node.inputs:
            if id(i) not in seen:
                seen.add(id(i))
                stack.append(i)
    return found


def _forward_order(nodes) -> list:
    """``nodes`` and everything they depend on, each after all its inputs (no recursion)."""
    order, done = [], set()
    for start in nodes:
        if id(start) in done:
            continue
        stack = [(start, iter(start.inputs))]
        done.add(id(start))
        while stack:
            node, pending = stack[-1]
            for i in pending:
                if id(i) not in done:
                    done.add(id(i))
                    stack.append((i, iter(i.inputs)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


def _twins(nodes) -> dict:
    """``{id(node): tensor}``: the graph of ``nodes`` rebuilt with minigrad tensors that record."""
    twins = {}
    for node in _forward_order(nodes):
        if node.is_leaf:
            t = node.value.detach().clone().requires_grad_(bool(node.requires_grad))
        else:
            t = FORWARD[node.op](*[twins[id(i)] for i in node.inputs], **node.params)
            if node.retains_grad:
                t.retain_grad()
        twins[id(node)] = t
    return twins


def to_minigrad(root) -> tuple:
    """Rebuild the graph below ``root`` with minigrad tensors: ``(tensor, {name: tensor})``.

    The names are those of the named nodes, so ``viz.draw(tensor, names=names)`` draws the
    graph a hand-written engine walks, labelled as in the notebook, and ``tensor.backward()``
    computes what that engine should.
    """
    nodes = reachable(root)
    twins = _twins([root])
    names = {}
    for node in nodes:
        if node.name and node.name not in names:
            names[node.name] = twins[id(node)]
    return twins[id(root)], names


# ---------------------------------------------------------------------------------------------
# Small helpers


def _shape(t) -> tuple:
    return tuple(int(d) for d in t.shape)


def _values(rng: random.Random, shape: tuple, low: float = -1.5, high: float = 1.5, away: float = 0.0):
    """A float64 tensor of ``shape`` with values in [low, high], at least ``away`` from zero."""
    count = math.prod(shape)
    flat = []
    for _ in range(count):
        v = rng.uniform(low, high)
        if away and abs(v) < away:
            v = math.copysign(away + abs(v), v if v else 1.0)
        flat.append(round(v, 3))
    data = torch.tensor(flat, dtype=torch.float64)
    return data.reshape(shape)


def _is_tensor(value) -> bool:
    return isinstance(value, torch.Tensor)


def _close(a, b, atol: float = 1e-8, rtol: float = 1e-6) -> bool:
    return bool(((a - b).abs() <= atol + rtol * b.abs()).all().item())


def _show(t) -> str:
    text = repr(t.tolist()) if _is_tensor(t) else repr(t)
    return text if len(text) <= 240 else text[:240] + " ..."


def _describe(node) -> str:
    """How a message names a node: ``'h' (mul of 'a' and 'x')`` or ``'x' (a leaf)``."""
    name = f"'{node.name}'" if node.name else f"a {node.op} node"
    if node.is_leaf:
        kind = "a leaf that requires grad" if node.requires_grad else "a leaf that does not require grad"
        return f"{name} ({kind})"
    ins = " and ".join(f"'{i.name}'" if i.name else "?" for i in node.inputs)
    return f"{name} ({node.op} of {ins})"


# ---------------------------------------------------------------------------------------------
# unbroadcast

_UNBROADCAST_VISIBLE = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (2, 1)), ((2, 3), ())]
_UNBROADCAST_HIDDEN = [
    ((4, 2, 3), (1, 2, 1)),
    ((4, 2, 3), (2, 1)),
    ((5, 1, 4), (1,)),
    ((3,), (1,)),
    ((), ()),
    ((2, 3), (1, 1)),
    ((2, 3, 4), (3, 1)),
    ((3, 4), (4,)),
]


def _reduced_shape(rng: random.Random, shape: tuple) -> tuple:
    """A shape that broadcasts to ``shape``: a suffix of it, with some sizes set to 1."""
    keep = rng.randint(0, len(shape))
    suffix = shape[len(shape) - keep :]
    return tuple(1 if rng.random() < 0.4 else d for d in suffix)


def _random_shape(rng: random.Random, rank_max: int = 3) -> tuple:
    return tuple(rng.randint(2, 4) for _ in range(rng.randint(1, rank_max)))


@contextlib.contextmanager
def _forbidden_sum_to_size() -> Iterator[None]:
    """Within the block, ``sum_to_size`` raises: exercise 1 asks to rebuild it from ``sum``.

    Only the public method and function are replaced (minigrad's own rules use an internal
    helper), and both are put back when the block ends, so ``guard()`` sees nothing changed.
    """

    def refuse(*args, **kwargs):
        raise AssertionError(
            "unbroadcast called sum_to_size, which is what it should rebuild: "
            "use grad.sum(dim=..., keepdim=...) instead"
        )

    owners = [owner for owner in (torch.Tensor, torch) if "sum_to_size" in vars(owner)]
    saved = [(owner, vars(owner)["sum_to_size"]) for owner in owners]
    try:
        for owner in owners:
            owner.sum_to_size = refuse
        yield
    finally:
        for owner, original in saved:
            owner.sum_to_size = original


def check_unbroadcast(unbroadcast: Callable, seed: int | None = None, trials: int = 0) -> None:
    """``unbroadcast(grad, shape)`` must sum ``grad`` down to ``shape`` (undo broadcasting).

    Without ``seed``: a few fixed cases. With it: harder fixed cases plus ``trials`` random ones.
    """
    rng = random.Random(seed if seed is not None else 0)
    cases = list(_UNBROADCAST_VISIBLE if seed is None else _UNBROADCAST_HIDDEN)
    for _ in range(trials):
        grad_shape = _random_shape(rng)
        cases.append((grad_shape, _reduced_shape(rng, grad_shape)))
    for grad_shape, shape in cases:
        grad = _values(rng, grad_shape)
        before = grad.tolist()
        target = torch.Size(shape) if rng.random() < 0.5 else tuple(shape)
        call = f"unbroadcast(grad of shape {grad_shape}, {tuple(shape)})"
        with _forbidden_sum_to_size():
            result = _call(unbroadcast, call, "this case", grad, target)
        if not _is_tensor(result):
            raise AssertionError(f"{call} should return a minigrad tensor, got {type(result).__name__}")
        if grad.tolist() != before:
            raise AssertionError(f"{call} changed grad in place: compute a new tensor (grad.sum(...)) instead")
        got = _shape(result)
        if got != tuple(shape):
            if len(got) != len(shape):
                hint = (
                    f"sum over the {len(grad_shape) - len(shape)} leading dimension(s) that {tuple(shape)} does not have"
                    if len(got) > len(shape)
                    else "the result lost dimensions: keep the dimensions where shape has size 1 (keepdim=True)"
                )
            else:
                hint = "where shape has size 1 and grad does not, sum over that dimension with keepdim=True"
            raise AssertionError(f"{call} should return shape {tuple(shape)}, got {got}: {hint}")
        expected = grad.sum_to_size(shape) if shape else grad.sum()
        if not _close(result.double(), expected):
            raise AssertionError(
                f"{call} has the right shape but wrong values: each element must be the sum of the "
                f"elements of grad that were broadcast from it\n  expected: {_show(expected)}\n  got:      {_show(result)}"
            )


# ---------------------------------------------------------------------------------------------
# Derivative rules

_INPUT_NAMES = ("a", "b")
_RULE_INPUTS = {"add": 2, "mul": 2, "div": 2, "matmul": 2, "exp": 1, "tanh": 1, "sum": 1}
_PAIR_VISIBLE = [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 2), (2,))]
_PAIR_HIDDEN = [
    ((1,), (2, 3)),
    ((2, 1, 3), (4, 1)),
    ((), ()),
    ((4,), (3, 1)),
    ((2, 3), ()),
    ((), (2, 2)),
    ((3, 1), (1, 4)),
]
_MATMUL_VISIBLE = [(2, 3, 4), (3, 3, 3)]
_MATMUL_HIDDEN = [(1, 4, 2), (3, 1, 5), (4, 2, 1), (1, 1, 1)]
_SUM_VISIBLE = [((2, 3), None, False), ((2, 3), 0, False), ((2, 3), 1, True)]
_SUM_HIDDEN = [
    ((2, 3, 4), -1, False),
    ((2, 3, 4), 1, True),
    ((5,), 0, False),
    ((3, 2), -2, True),
    ((2, 2, 2), None, False),
]


def _rule_cases(op: str, rng: random.Random, seed: int | None, trials: int) -> list[tuple[tuple, dict]]:
    """``[(input shapes, params), ...]`` for rule ``op``."""
    visible = seed is None
    if op == "matmul":
        dims = list(_MATMUL_VISIBLE if visible else _MATMUL_HIDDEN)
        dims += [(rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)) for _ in range(trials)]
        return [(((n, k), (k, m)), {}) for n, k, m in dims]
    if op == "sum":
        cases = list(_SUM_VISIBLE if visible else _SUM_HIDDEN)
        for _ in range(trials):
            shape = _random_shape(rng)
            dim = None if rng.random() < 0.25 else rng.randint(-len(shape), len(shape) - 1)
            cases.append((shape, dim, dim is not None and rng.random() < 0.5))
        return [((shape,), {"dim": dim, "keepdim": keepdim}) for shape, dim, keepdim in cases]
    if _RULE_INPUTS[op] == 1:
        shapes = [(2, 3), (4,), ()] if visible else [(2, 3, 2), (1,), (5, 1)]
        shapes += [_random_shape(rng) for _ in range(trials)]
        return [((s,), {}) for s in shapes]
    pairs = list(_PAIR_VISIBLE if visible else _PAIR_HIDDEN)
    for _ in range(trials):
        out = _random_shape(rng)
        a, b = _reduced_shape(rng, out), _reduced_shape(rng, out)
        if rng.random() < 0.5:
            a = out  # often one operand has the full shape
        pairs.append((a, b))
    return [((a, b), {}) for a, b in pairs]


def _case_text(shapes: tuple, params: dict) -> str:
    """The case in words: ``a has shape (2, 3), b has shape (3,)``."""
    parts = [f"{n} has shape {s}" for n, s in zip(_INPUT_NAMES, shapes)]
    parts += [f"{k}={v!r}" for k, v in params.items()]
    return ", ".join(parts)


def _where(op: str, shapes: tuple, params: dict) -> str:
    """The case, as the end of a message: `` when shapes broadcast: a has shape ...``."""
    broadcast = len(shapes) == 2 and op != "matmul" and shapes[0] != shapes[1]
    return (" when shapes broadcast" if broadcast else "") + ": " + _case_text(shapes, params)


def check_rule(op: str, rule: Callable, seed: int | None = None, trials: int = 0) -> None:
    """A derivative rule ``rule(grad, *inputs, **params)`` for operation ``op``.

    ``op`` is one of ``add``, ``mul``, ``div``, ``matmul``, ``exp``, ``tanh``, ``sum`` (whose rule
    takes ``dim`` and ``keepdim``). The rule must return one gradient per input, each with its
    input's shape (a rule of one input may return the tensor alone). Results are compared with
    minigrad's autograd and with central finite differences. Without ``seed``: a few fixed cases
    (broadcasting included); with it: harder fixed cases plus ``trials`` random ones.
    """
    if op not in FORWARD:
        raise ValueError(f"unknown operation {op!r}; known: {sorted(FORWARD)}")
    rng = random.Random(seed if seed is not None else 1)
    forward = FORWARD[op]
    for shapes, params in _rule_cases(op, rng, seed, trials):
        away = 0.5 if op == "div" else 0.0
        inputs = [_values(rng, s, away=away if i == 1 else 0.0) for i, s in enumerate(shapes)]
        out_shape = _shape(forward(*inputs, **params))
        grad = _values(rng, out_shape)
        saved = [t.tolist() for t in (grad, *inputs)]
        where = _where(op, shapes, params)
        result = _call(rule, f"your rule for `{op}`", f"the case {_case_text(shapes, params)}", grad, *inputs, **params)
        if [t.tolist() for t in (grad, *inputs)] != saved:
            raise AssertionError(f"your rule for `{op}` changed grad or an input in place{where}; compute new tensors")
        if _is_tensor(result) and len(shapes) == 1:
            result = (result,)
        if type(result) not in (tuple, list) or len(result) != len(shapes):
            wanted = "(grad_a, grad_b)" if len(shapes) == 2 else "(grad_a,)"
            raise AssertionError(
                f"your rule for `{op}` should return a tuple {wanted}, one gradient per input; got {_show(result)}"
            )
        copies = [t.detach().requires_grad_() for t in inputs]
        expected = torch.autograd.grad(forward(*copies, **params), copies, grad)
        for i, (got, want, x) in enumerate(zip(result, expected, inputs)):
            label = f"input {i} ({_INPUT_NAMES[i]})"
            if not _is_tensor(got):
                raise AssertionError(
                    f"your rule for `{op}` returns a {type(got).__name__} for {label}{where}; expected a minigrad tensor"
                )
            if _shape(got) != _shape(x):
                raise AssertionError(
                    f"your rule for `{op}` returns the wrong gradient for {label}{where}; "
                    f"expected shape {_shape(x)} got {_shape(got)}. A gradient has the shape of its input: "
                    "undo the broadcasting by summing."
                )
            if not _close(got.double(), want):
                raise AssertionError(
                    f"your rule for `{op}` returns the wrong gradient for {label}{where}\n"
                    f"  expected: {_show(want)}\n  got:      {_show(got)}"
                )
            # A second witness, independent of minigrad's rules: a central difference along a
            # random direction d, <grad, f(x + eps d) - f(x - eps d)> / 2 eps = <grad_x, d>.
            direction = _values(rng, _shape(x))
            eps = 1e-6
            plus = [t + eps * direction if j == i else t for j, t in enumerate(inputs)]
            minus = [t - eps * direction if j == i else t for j, t in enumerate(inputs)]
            numeric = ((forward(*plus, **params) - forward(*minus, **params)) * grad).sum().item() / (2 * eps)
            analytic = (got.double() * direction).sum().item()
            if abs(numeric - analytic) > 1e-5 + 1e-4 * abs(numeric):
                raise AssertionError(
                    f"your rule for `{op}` disagrees with finite differences for {label}{where}: "
                    f"along a random direction the rule gives {analytic:.6g}, the difference quotient {numeric:.6g}"
                )


# ---------------------------------------------------------------------------------------------
# Graphs for the engine


def _scalar(v: float = 0.5):
    return torch.tensor(v, dtype=torch.float64)


def _diamond():
    """x feeds two branches that meet again; a constant c takes part but gets no gradient."""
    x = leaf([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]], "x")
    w = leaf([0.8, -1.2, 0.4], "w")
    c = leaf([[1.0, 2.0, 0.5], [0.7, 1.1, 1.3]], "c", requires_grad=False)
    a = (x * w).named("a")
    b = (x / c).named("b")
    h = (a + b).named("h")
    loss = h.tanh().named("t").sum().named("loss")
    return loss, []


def _uneven_diamond():
    """'a' is used directly and through a longer path: a breadth-first order is wrong here."""
    x = leaf([0.3, -0.4, 0.9], "x")
    w = leaf([1.1, 0.6, -0.8], "w")
    a = (x * w).named("a")
    b = a.exp().named("b")
    c = b.tanh().named("c")
    d = (c * x).named("d")
    h = (d + a).named("h")
    return h.sum().named("loss"), []


def _square():
    """One input used twice by the same node."""
    x = leaf([[1.0, -2.0], [0.5, 3.0]], "x")
    y = (x * x).named("y")
    z = (y * x).named("z")
    return z.sum().named("loss"), []


def _matmul():
    x = leaf([[0.2, -0.5, 1.0], [0.7, 0.1, -0.3]], "x")
    weight = leaf([[0.5, -1.0, 0.3, 0.8], [1.2, 0.4, -0.6, 0.1], [-0.2, 0.9, 0.7, -1.1]], "W")
    bias = leaf([0.1, -0.2, 0.3, 0.0], "b")
    scale = leaf([[2.0], [0.5]], "s")
    z = (x @ weight).named("xW")
    z = (z + bias).named("z")
    a = z.tanh().named("a")
    rows = a.sum(dim=1, keepdim=True).named("rows")
    out = (rows * scale).named("out")
    return out.sum().named("loss"), []


def _constants():
    """A branch made only of constants is a leaf (nothing recorded), as in PyTorch."""
    x = leaf([1.0, -1.0, 0.5], "x")
    c = leaf([2.0, 3.0, 4.0], "c", requires_grad=False)
    k = (c * c).named("k")  # no input requires grad: a leaf that does not require grad
    y = (x * k).named("y")
    unused = (x * x).named("unused")  # not below the root: backward must leave it alone
    return (y + x).named("s").sum().named("loss"), [unused]


def _wide():
    """One leaf used by many nodes."""
    x = leaf([0.1, 0.2, -0.3], "x")
    total = x.tanh().named("t0")
    for i in range(1, 8):
        total = (total + (x * leaf([0.1 * i, -0.2, 0.3], f"k{i}", requires_grad=False)).named(f"p{i}")).named(f"s{i}")
    return total.sum().named("loss"), []


def _ladder(levels: int = 20):
    """Each node uses the two before it: about 10,000 paths from the root to x (levels 20)."""
    x = leaf([0.5, -0.5], "x")
    w = leaf([0.9, 1.1], "w")
    before, last = x, (x * w).named("n1")
    for i in range(2, levels + 1):
        before, last = last, (last + before).tanh().named(f"n{i}") if i % 2 else (last * before).named(f"n{i}")
    return last.sum().named("loss"), []


def _chain(length: int, cheap: bool):
    """A chain of ``length`` nodes: cheap ones (no values worth computing) for ordering only."""
    if cheap:
        value = _scalar()
        node = Node(value, "x", True)
        for i in range(1, length):
            node = Node(value, f"n{i}", True, "tanh", (node,), None)
        return node, []
    x = leaf([0.4, -0.2, 0.9], "x")
    s = leaf([1.2, 0.9, 1.1], "s")
    node = x
    for i in range(1, length):
        node = (node * s).named(f"n{i}") if i % 2 else node.tanh().named(f"n{i}")
    return node.sum().named("loss"), []


def _random_graph(seed: int, size: int = 16):
    """A random graph of elementwise operations with broadcasting, sums along a dimension and
    constants; values stay moderate (tanh), divisors stay positive."""
    rng = random.Random(seed)
    pool = [
        (leaf(_values(rng, (2, 3)).tolist(), "x"), False),
        (leaf(_values(rng, (3,)).tolist(), "w"), False),
        (leaf(_values(rng, (2, 1), 0.5, 1.5).tolist(), "v"), True),
        (leaf(_values(rng, (2, 3), 0.5, 1.5).tolist(), "c", requires_grad=False), True),
    ]
    for k in range(size):
        kind = rng.choice(["add", "mul", "mul", "div", "exp", "tanh", "tanh", "sum"])
        a, a_pos = pool[max(0, len(pool) - 1 - int(rng.expovariate(0.4)) % len(pool))]
        if kind == "exp":
            node, positive = a.tanh().exp(), True
        elif kind == "tanh":
            node, positive = a.tanh(), False
        elif kind == "sum":
            if _shape(a.value) != (2, 3):
                node, positive = a.tanh(), False
            else:
                dim = rng.choice([0, 1])
                node, positive = a.sum(dim=dim, keepdim=dim == 1), a_pos
        else:
            b, b_pos = rng.choice(pool)
            if kind == "div":
                if not b_pos:
                    b, b_pos = b.exp(), True
                node, positive = a / b, a_pos
            elif kind == "add":
                node, positive = a + b, a_pos and b_pos
            else:
                node, positive = (a * b).tanh(), False
        if not node.name:
            node.named(f"n{k}")
        for inner in node.inputs:  # helper nodes made on the way (a.tanh(), b.exp()) get names too
            if not inner.name:
                inner.named(f"n{k}_in")
        pool.append((node, positive))
    top = [n for n, _ in pool[-3:]]
    root = (top[0] + top[1]).named("top").sum().named("loss")
    extras = [n for n, _ in pool]
    return root, extras


_VISIBLE_ORDER = {
    "a diamond": lambda: _diamond()[0],
    "x * x": lambda: _square()[0],
    "a single leaf": lambda: leaf([1.0], "x"),
    "a chain of 500 nodes": lambda: _chain(500, cheap=True)[0],
}
_HIDDEN_ORDER = {
    "an uneven diamond": lambda: _uneven_diamond()[0],
    "a matrix product": lambda: _matmul()[0],
    "a graph with constants": lambda: _constants()[0],
    "a leaf used by many nodes": lambda: _wide()[0],
    "a ladder (each node uses the two before it)": lambda: _ladder()[0],
    "random graph 1": lambda: _random_graph(11)[0],
    "random graph 2": lambda: _random_graph(12)[0],
    "random graph 3": lambda: _random_graph(13, 30)[0],
    "a chain of 50,000 nodes": lambda: _chain(50_000, cheap=True)[0],
}


def _correct_unbroadcast(grad, shape):
    return grad.sum_to_size(tuple(shape)) if tuple(shape) else grad.sum()


def _correct_topological_order(root) -> list:
    return _forward_order([root])[::-1]


def _correct_hvp(f, x, v):
    """Assignment 06, exercise 1: the Hessian of ``f`` at ``x`` times ``v`` (zeros for a linear ``f``)."""
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    if not g.requires_grad:
        return torch.zeros_like(x)
    (hv,) = torch.autograd.grad((g * v).sum(), x, allow_unused=True, materialize_grads=True)
    return hv


def _correct_hessian(f, x):
    """Assignment 06, exercise 2: the (n, n) Hessian of ``f`` at ``x``, one ``hvp`` per unit vector."""
    unit = torch.eye(x.numel(), dtype=x.dtype)
    return torch.stack([_correct_hvp(f, x, unit[i]) for i in range(x.numel())])


def _correct_make_model():
    """Assignment 08, exercise 1: a new model, (n, 64) pixels -> (n, 10) logits, its starting
    weights drawn from minigrad's random numbers (so ``torch.manual_seed`` fixes them)."""
    return nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))


def _correct_train_step(model, optimizer, x, y):
    """Assignment 08, exercise 3: one step with the optimizer given; the loss before it, as a float."""
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


_CORRECT = {
    "unbroadcast": _correct_unbroadcast,
    "topological_order": _correct_topological_order,
    "hvp": _correct_hvp,
    "hessian": _correct_hessian,
    "make_model": _correct_make_model,
    "train_step": _correct_train_step,
}


@contextlib.contextmanager
def _lent(namespace: dict, names: tuple[str, ...]) -> Iterator[None]:
    """Within the block, ``namespace[name]`` is the correct function for each of ``names``; the
    student's are put back."""
    missing = object()
    theirs = {name: namespace.get(name, missing) for name in names}
    namespace.update({name: _CORRECT[name] for name in names})
    try:
        yield
    finally:
        for name, value in theirs.items():
            if value is missing:
                namespace.pop(name, None)
            else:
                namespace[name] = value


# The first run of a graded_alone check may take this long (the course's checks take well under a
# second; the grader interrupts a cell after 60 s, which leaves the run with the lent helper 40 s).
FIRST_RUN_SECONDS = 20


class _TooSlow(BaseException):
    """Raised in the first run of :func:`graded_alone` at its time limit (a BaseException, so that
    a student's ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_TooSlow` in the block after ``seconds`` (only where SIGALRM works: the main
    thread on Unix, as in a Jupyter kernel; elsewhere no limit)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise _TooSlow

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def within(seconds: float, run: Callable[[], object], message: str):
    """``run()``'s result, or ``AssertionError(message)`` when it takes longer than ``seconds``.

    For work that is instant when done right and never ends when done wrong (a walk that follows
    every path of a graph whose nodes are shared has exponentially many paths), so that the test
    fails with a message instead of waiting for the grader's timeout of the whole cell. A
    student's ``except Exception`` cannot swallow the interruption.

    >>> within(5, lambda: 6 * 7, "too slow")
    42
    """
    try:
        with _time_limit(seconds):
            return run()
    except _TooSlow:
        raise AssertionError(message) from None


def graded_alone(namespace: dict, name: str | tuple[str, ...], run: Callable[[], object]) -> None:
    """Run the check ``run()``; if it fails, run it again with a correct ``name`` lent to the notebook.

    ``name`` is ``"unbroadcast"`` (which the rules of exercise 2 of 07 call) or
    ``"topological_order"`` (which ``backward`` calls); in 06, ``"hvp"`` (which ``hessian`` may
    call) or ``("hessian", "hvp")`` (which ``newton_step`` calls); in 08,
    ``("make_model", "train_step")`` (which ``train`` calls): a tuple lends several at once.
    ``namespace`` is the notebook's ``globals()``. The check passes if either run passes, so a
    slip in the helper costs the points of the helper's own exercise once, and an answer that
    only works with its own helper still counts. When both runs fail, the first error is raised
    (the second when the first only says the helper is not written yet).
    A first run that takes more than ``FIRST_RUN_SECONDS`` counts as failed, so that a helper
    that hangs also costs only its own exercise.

    >>> ns = {"unbroadcast": lambda grad, shape: grad}  # a wrong one: it sums nothing
    >>> graded_alone(ns, "unbroadcast", lambda: check_rule("add", lambda g, a, b: (ns["unbroadcast"](g, a.shape), ns["unbroadcast"](g, b.shape))))
    >>> ns["unbroadcast"](torch.ones(2, 3), (3,)).shape  # the student's is back
    torch.Size([2, 3])
    """
    names = (name,) if isinstance(name, str) else tuple(name)
    unknown = [n for n in names if n not in _CORRECT]
    if unknown or not names:
        raise ValueError(f"name must be one of {sorted(_CORRECT)}, or a tuple of them; got {name!r}")
    try:
        # A helper that hangs is a slip in the helper too: the first run gets a time limit, so
        # that the run with the lent helper still fits in the grader's per-cell timeout.
        with _time_limit(FIRST_RUN_SECONDS):
            run()
        return
    except _TooSlow:
        first = AssertionError(
            f"your code did not finish within {FIRST_RUN_SECONDS} s (an endless loop?), and it fails "
            "or is as slow with a correct helper lent"
        )
    except Exception as error:  # noqa: BLE001 (any failure of the student's code gets a second run)
        first = error
    with _lent(namespace, names):
        try:
            run()
        except Exception:
            if isinstance(first, NotImplementedError):
                raise
            raise first from None
    return


def _call(fn: Callable, what: str, where: str, *args, **kwargs):
    """Call the student's ``fn``. An error it raises becomes a message that says on which case
    (a RecursionError: that the graph is too deep for recursion); ``NotImplementedError`` (an
    exercise not done yet) passes through unchanged."""
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        raise
    except RecursionError:
        raise AssertionError(
            f"{what} raised RecursionError on {where}: Python cannot recurse that deep. Walk the "
            "graph with a list as your own stack (or queue) instead of a recursive function."
        ) from None
    except Exception as error:
        raise AssertionError(f"{what} raised {type(error).__name__} on {where}: {error}") from error


def _check_order(result, root, graph: str) -> None:
    nodes = reachable(root)
    ids = {id(n) for n in nodes}
    if result is None:
        raise AssertionError(f"topological_order(root) returned None on {graph}: return the list of nodes")
    if _is_tensor(result) or isinstance(result, (str, bytes, dict, Node)):
        raise AssertionError(f"topological_order(root) should return a list of nodes, got {type(result).__name__}")
    try:
        order = list(result)
    except TypeError:
        raise AssertionError(
            f"topological_order(root) should return a list of nodes, got {type(result).__name__}"
        ) from None
    position: dict[int, int] = {}
    for i, node in enumerate(order):
        if id(node) not in ids:
            raise AssertionError(
                f"topological_order(root) on {graph}: item {i} of the list is {_show(node)}, which is not a node "
                "of the graph below root"
            )
        if id(node) in position:
            times = sum(1 for n in order if n is node)
            raise AssertionError(
                f"topological_order(root) on {graph}: node {_describe(node)} appears {times} times; every node "
                "must appear once (remember which nodes you have already visited)"
            )
        position[id(node)] = i
    missing = [n for n in nodes if id(n) not in position]
    if missing:
        shown = ", ".join(_describe(n) for n in missing[:3])
        raise AssertionError(
            f"topological_order(root) on {graph}: {len(missing)} node(s) reachable from the root are missing, "
            f"e.g. {shown}"
        )
    if order[0] is not root:
        raise AssertionError(
            f"topological_order(root) on {graph}: the first node must be the root, got {_describe(order[0])}"
        )
    for node in nodes:
        for inp in node.inputs:
            if position[id(inp)] < position[id(node)]:
                raise AssertionError(
                    f"topological_order(root) on {graph}: {_describe(inp)} comes before {_describe(node)}, "
                    f"but '{node.name}' uses '{inp.name}'. Every node must come after all the nodes that use "
                    "it, or backward would use its gradient before all of it has arrived."
                )


def check_topological_order(topological_order: Callable, hidden: bool = False) -> None:
    """``topological_order(root)``: every node below ``root`` once, root first, each node after
    all the nodes that use it. ``hidden`` adds uneven diamonds, ladders, random graphs and a chain
    of 50,000 nodes."""
    graphs = dict(_VISIBLE_ORDER)
    if hidden:
        graphs.update(_HIDDEN_ORDER)
    for graph, make in graphs.items():
        root = make()
        result = _call(topological_order, "topological_order(root)", graph, root)
        _check_order(result, root, graph)


# ---------------------------------------------------------------------------------------------
# backward


def _hook(kind: str, log: list, name: str) -> Callable:
    def hook(grad):
        log.append((name, grad.tolist() if _is_tensor(grad) else grad))
        if kind == "double":
            return grad * 2
        if kind == "add_one":
            return grad + 1
        return None  # "look": only records

    hook.__name__ = f"{kind}_hook_on_{name}"
    return hook


class _Case:
    """A graph to run backward on, with what to set up (retain_grad, hooks) and how often."""

    def __init__(self, title: str, make, grad=None, retain=(), hooks=(), calls: int = 1, fresh_leaves=False):
        self.title, self.make, self.grad = title, make, grad
        self.retain, self.hooks, self.calls = retain, hooks, calls
        # With calls > 1: set every leaf's .grad back to None before the next call (on both
        # graphs), so that the case grades what else a second call does (retained gradients add
        # up, hooks run again) and not the leaves' accumulation, which "graphs" grades.
        self.fresh_leaves = fresh_leaves


def _by_name(nodes) -> dict:
    return {n.name: n for n in nodes if n.name}


def _run_case(backward: Callable, case: _Case) -> None:
    root, extras = case.make()
    below = {id(n) for n in reachable(root)}
    nodes = list({id(n): n for n in reachable(root) + list(extras)}.values())
    named = _by_name(nodes)
    twins = _twins(nodes)
    mine_log, their_log = [], []
    for name in case.retain:
        named[name].retain_grad()
        twins[id(named[name])].retain_grad()
    for name, kind in case.hooks:
        named[name].register_hook(_hook(kind, mine_log, name))
        twins[id(named[name])].register_hook(_hook(kind, their_log, name))
    runs: dict[int, int] = {}  # id(node) -> how many times backward called its vjp
    for node in nodes:
        if node.vjp is not None:
            node.vjp = _counted(node.vjp, runs, id(node))
    grad = case.grad(root) if case.grad else None
    what = f"backward(root{', grad' if grad is not None else ''})"
    twin_root = twins[id(root)]
    for call in range(case.calls):
        if call and case.fresh_leaves:
            for node in nodes:
                if node.is_leaf:
                    node.grad = twins[id(node)].grad = None
        _call(backward, what, case.title, *((root,) if grad is None else (root, grad.clone())))
        twin_root.backward(None if grad is None else grad.clone(), retain_graph=True)
    again = " after two backward() calls" if case.calls > 1 else ""
    for node in nodes:
        twin = twins[id(node)]
        want = twin.grad if (twin.is_leaf or twin.retains_grad) else None
        got = node.grad
        where = f"backward(root) on {case.title}{again}: node {_describe(node)}"
        if want is None and got is not None:
            if not node.requires_grad:
                why = "a node that does not require grad gets no gradient"
            elif id(node) not in below:
                why = "it is not below the root, so backward must not touch it"
            else:
                why = "only leaves keep their gradient in .grad (and nodes on which retain_grad() was called)"
            raise AssertionError(f"{where} has .grad = {_show(got)}, but minigrad leaves it None: {why}")
        if want is not None and got is None:
            hint = " (retain_grad() was called on it)" if node.retains_grad else ""
            raise AssertionError(f"{where} has no .grad{hint}; minigrad's backward gives {_show(want)}")
        if want is None:
            continue
        if not _is_tensor(got):
            raise AssertionError(f"{where}: .grad should be a minigrad tensor, got {type(got).__name__}")
        if _shape(got) != _shape(want):
            raise AssertionError(
                f"{where} got a gradient of shape {_shape(got)}; minigrad's has shape {_shape(want)} "
                "(the shape of the node's value)"
            )
        if not _close(got.double(), want):
            users = [n for n in nodes if id(n) in below and any(i is node for i in n.inputs)]
            hint = ""
            if len(users) > 1 or any(sum(1 for i in u.inputs if i is node) > 1 for u in users):
                hint = (
                    f" It is used by {', '.join(repr(u.name) for u in users)}: the gradients arriving from "
                    "every use must be added up before the node's gradient is used."
                )
            elif users:
                hint = (
                    f" Its gradient comes from {', '.join(repr(u.name) for u in users)}: each of them must have had "
                    "its complete gradient when it ran (a node waits until every node that uses it has run)."
                )
            if case.calls > 1:
                hint += (
                    " A second backward() adds to .grad, as minigrad and PyTorch do; store a new tensor "
                    "(node.grad = node.grad + g), since += would change a tensor that other nodes may share."
                )
            if case.hooks:
                hint += " Check the hooks: each runs once on the node's complete gradient, in the order registered."
            raise AssertionError(
                f"{where} got the wrong gradient.{hint}\n  expected: {_show(want)}\n  got:      {_show(got)}"
            )
    for name, _ in case.hooks:
        mine = [g for n, g in mine_log if n == name]
        theirs = [g for n, g in their_log if n == name]
        if len(mine) != len(theirs):
            raise AssertionError(
                f"backward(root) on {case.title}{again}: the hook on '{name}' ran {len(mine)} time(s); minigrad "
                f"runs it {len(theirs)} time(s): once per backward, when the gradient of '{name}' is complete"
            )
        for g_mine, g_theirs in zip(mine, theirs):
            if not _same_values(g_mine, g_theirs):
                raise AssertionError(
                    f"backward(root) on {case.title}: the hook on '{name}' received {_show(g_mine)}; minigrad "
                    f"gives it {_show(g_theirs)}: the complete gradient of '{name}', after the hooks registered "
                    "before it"
                )
    for node in nodes:
        if runs.get(id(node), 0) > case.calls:
            raise AssertionError(
                f"backward(root) on {case.title}{again}: node {_describe(node)} ran its vjp {runs[id(node)]} "
                f"times in {case.calls} backward pass(es). The .grad values are right, but a node must run "
                "once per pass: wait until every node that uses it has sent its share, add the shares up, "
                "then call vjp once on the sum (a graph with shared nodes has far more paths than nodes)"
            )


def _counted(vjp: Callable, runs: dict, key: int) -> Callable:
    """``vjp`` that counts its calls in ``runs[key]``."""

    def counted(grad):
        runs[key] = runs.get(key, 0) + 1
        return vjp(grad)

    return counted


def _same_values(got, want) -> bool:
    """Nested lists of numbers (what the hooks recorded) that agree to rounding."""
    if type(got) is list and type(want) is list:
        return len(got) == len(want) and all(_same_values(g, w) for g, w in zip(got, want))
    if type(got) in (int, float) and type(want) in (int, float):
        return abs(got - want) <= 1e-8 + 1e-6 * abs(want)
    return False


def _sum_of_leaves():
    """Two leaves added: the add node passes the same gradient to both."""
    x = leaf([1.0, 2.0, -1.0], "x")
    y = leaf([0.5, -0.5, 2.0], "y")
    return (x + y).named("s").sum().named("loss"), []


def _nonscalar():
    x = leaf([[0.5, -1.0], [2.0, 0.25]], "x")
    w = leaf([1.5, -0.5], "w")
    y = (x * w).named("y")
    return (y * y.exp()).named("out"), []


_VISIBLE_BACKWARD = [_Case("a diamond", _diamond), _Case("x * x", _square)]
_HIDDEN_GRAPHS = [
    _Case("an uneven diamond", _uneven_diamond),
    _Case("a matrix product", _matmul),
    _Case("a graph with constants", _constants),
    _Case("a leaf used by many nodes", _wide),
    _Case("a ladder (each node uses the two before it)", lambda: _ladder(12)),
    _Case("random graph 1", lambda: _random_graph(21)),
    _Case("random graph 2", lambda: _random_graph(22)),
    _Case("random graph 3", lambda: _random_graph(23, 24)),
    _Case(
        "a non-scalar root with grad given",
        _nonscalar,
        grad=lambda root: torch.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=torch.float64),
    ),
    _Case("a diamond", _diamond, calls=2),
    _Case("x + y (two leaves)", _sum_of_leaves, calls=2),
    _Case("a chain of 3,500 nodes", lambda: _chain(3_500, cheap=False)),
]
_HIDDEN_HOOKS = [
    _Case("a diamond", _diamond, retain=("h",)),
    _Case("a diamond", _diamond, retain=("a", "t"), calls=2, fresh_leaves=True),
    _Case("a diamond", _diamond, hooks=(("x", "double"),)),
    _Case("a diamond", _diamond, hooks=(("a", "look"),)),
    _Case("a diamond", _diamond, hooks=(("a", "double"),), retain=("a",)),
    _Case("an uneven diamond", _uneven_diamond, hooks=(("a", "add_one"), ("a", "double")), retain=("b",)),
    _Case("an uneven diamond", _uneven_diamond, hooks=(("x", "look"), ("c", "double"))),
    _Case("x * x", _square, hooks=(("x", "add_one"),), retain=("y",), calls=2, fresh_leaves=True),
    _Case("a matrix product", _matmul, hooks=(("a", "double"), ("W", "look")), retain=("z", "rows")),
]


def check_backward(backward: Callable, part: str = "visible") -> None:
    """``backward(root, grad=None)`` compared with minigrad's ``backward()``, node by node.

    ``part`` is ``"visible"`` (two small graphs), ``"graphs"`` (uneven diamonds, constants,
    random graphs, a given ``grad``, two calls in a row, a chain of 3,500 nodes, and a root that
    does not require grad) or ``"hooks"`` (``retain_grad`` and hooks on leaves and non-leaves).
    """
    cases = {"visible": _VISIBLE_BACKWARD, "graphs": _HIDDEN_GRAPHS, "hooks": _HIDDEN_HOOKS}.get(part)
    if cases is None:
        raise ValueError(f"part must be 'visible', 'graphs' or 'hooks', got {part!r}")
    for case in cases:
        _run_case(backward, case)
    if part == "graphs":
        constant = leaf([1.0, 2.0], "c", requires_grad=False)
        root = (constant * constant).named("k")
        try:
            backward(root)
        except RuntimeError:
            pass
        else:
            raise AssertionError(
                "backward(root) on a node that does not require grad should raise RuntimeError "
                "(PyTorch: element 0 of tensors does not require grad and does not have a grad_fn)"
            )
