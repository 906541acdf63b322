"""coursetools.engine_checks: the grading helpers of assignment 07 (build your own autograd).

A correct implementation of every piece passes every check, visible and hidden; typical wrong
ones fail, with a message that names the operation and input, or the node, that is wrong. The
graph structure the notebook shows behaves like the one the checks build their graphs with, and
guard() notices when the module is patched.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import minigrad as torch
from coursetools import engine_checks as ec

# ------------------------------------------------------------------------------ correct pieces


def unbroadcast(grad, shape):
    shape = tuple(shape)
    while grad.dim() > len(shape):
        grad = grad.sum(dim=0)
    for dim, size in enumerate(shape):
        if size == 1 and grad.shape[dim] != 1:
            grad = grad.sum(dim=dim, keepdim=True)
    return grad


RULES = {
    "add": lambda grad, a, b: (unbroadcast(grad, a.shape), unbroadcast(grad, b.shape)),
    "mul": lambda grad, a, b: (unbroadcast(grad * b, a.shape), unbroadcast(grad * a, b.shape)),
    "div": lambda grad, a, b: (unbroadcast(grad / b, a.shape), unbroadcast(-grad * a / (b * b), b.shape)),
    "exp": lambda grad, a: grad * a.exp(),  # a bare tensor: accepted for a rule of one input
    "tanh": lambda grad, a: (grad * (1 - a.tanh() ** 2),),
    "sum": lambda grad, a, dim=None, keepdim=False: (
        (grad if dim is None or keepdim else grad.unsqueeze(dim)).expand(*a.shape),
    ),
    "matmul": lambda grad, a, b: (grad @ b.T, a.T @ grad),
}


def topological_order(root):
    users = {root: 0}
    stack = [root]
    while stack:
        node = stack.pop()
        for inp in node.inputs:
            if inp not in users:
                users[inp] = 0
                stack.append(inp)
            users[inp] += 1
    order, ready = [], [root]
    while ready:
        node = ready.pop()
        order.append(node)
        for inp in node.inputs:
            users[inp] -= 1
            if users[inp] == 0:
                ready.append(inp)
    return order


def make_backward(order=topological_order, *, hooks=True, retain=True, accumulate=True, only_needed=True):
    """A backward pass over the checks' nodes; the switches make the usual mistakes."""

    def backward(root, grad=None):
        if not root.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad")
        pending = {root: torch.ones_like(root.value) if grad is None else grad}
        for node in order(root):
            g = pending.pop(node, None)
            if g is None:
                continue
            for hook in node.hooks if hooks else ():
                new = hook(g)
                if new is not None:
                    g = new
            if node.is_leaf or (retain and node.retains_grad):
                node.grad = g if node.grad is None or not accumulate else node.grad + g
            if node.is_leaf:
                continue
            for inp, g_inp in zip(node.inputs, node.vjp(g)):
                if inp.requires_grad or not only_needed:
                    pending[inp] = g_inp if inp not in pending else pending[inp] + g_inp

    return backward


def recursive_order(root):
    done, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        for inp in node.inputs:
            visit(inp)
        done.append(node)

    visit(root)
    return done[::-1]


def breadth_first_order(root):
    order, seen, queue = [], {root}, [root]
    while queue:
        node = queue.pop(0)
        order.append(node)
        for inp in node.inputs:
            if inp not in seen:
                seen.add(inp)
                queue.append(inp)
    return order


# ------------------------------------------------------------------------------ right answers pass


def test_unbroadcast_passes_visible_and_hidden():
    ec.check_unbroadcast(unbroadcast)
    ec.check_unbroadcast(unbroadcast, seed=701, trials=40)


@pytest.mark.parametrize("op", sorted(RULES))
def test_each_correct_rule_passes(op):
    ec.check_rule(op, RULES[op])
    ec.check_rule(op, RULES[op], seed=3, trials=25)


def test_correct_engine_passes_everything():
    ec.check_topological_order(topological_order)
    ec.check_topological_order(topological_order, hidden=True)
    backward = make_backward()
    for part in ("visible", "graphs", "hooks"):
        ec.check_backward(backward, part)


def test_unknown_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown operation"):
        ec.check_rule("pow", RULES["mul"])
    with pytest.raises(ValueError, match="part must be"):
        ec.check_backward(make_backward(), "everything")


# ------------------------------------------------------------------------------ wrong answers fail


def test_unbroadcast_mistakes_are_named():
    def leading_only(grad, shape):
        while grad.dim() > len(shape):
            grad = grad.sum(dim=0)
        return grad

    with pytest.raises(AssertionError, match=r"should return shape \(1, 3\), got \(2, 3\).*keepdim=True"):
        ec.check_unbroadcast(leading_only)

    def steps_swapped(grad, shape):  # right whenever the ranks match: caught by the hidden cases
        for dim, size in enumerate(shape):
            if size == 1 and grad.shape[dim] != 1:
                grad = grad.sum(dim=dim, keepdim=True)
        while grad.dim() > len(shape):
            grad = grad.sum(dim=0)
        return grad

    ec.check_unbroadcast(steps_swapped)
    with pytest.raises(
        AssertionError, match=r"unbroadcast\(grad of shape \(4, 2, 3\), \(2, 1\)\) should return shape \(2, 1\)"
    ):
        ec.check_unbroadcast(steps_swapped, seed=701, trials=40)

    def in_place(grad, shape):
        grad.mul_(1.0)
        grad.add_(1.0)
        return unbroadcast(grad - 1.0, shape)

    with pytest.raises(AssertionError, match="changed grad in place"):
        ec.check_unbroadcast(in_place)

    with pytest.raises(AssertionError, match="should return a minigrad tensor, got list"):
        ec.check_unbroadcast(lambda grad, shape: unbroadcast(grad, shape).tolist())


def test_rule_without_unbroadcast_names_the_op_and_the_input():
    def mul(grad, a, b):
        return grad * b, grad * a

    pattern = (
        r"your rule for `mul` returns the wrong gradient for input 1 \(b\) when shapes broadcast: "
        r"a has shape \(2, 3\), b has shape \(3,\); expected shape \(3,\) got \(2, 3\)"
    )
    with pytest.raises(AssertionError, match=pattern):
        ec.check_rule("mul", mul)


def test_rule_that_forgets_input_0_passes_visible_fails_hidden():
    def mul(grad, a, b):
        return grad * b, unbroadcast(grad * a, b.shape)

    ec.check_rule("mul", mul)
    with pytest.raises(AssertionError, match=r"for input 0 \(a\) when shapes broadcast"):
        ec.check_rule("mul", mul, seed=702, trials=30)


def test_wrong_values_are_shown():
    def div(grad, a, b):  # the sign of the second gradient is wrong
        return unbroadcast(grad / b, a.shape), unbroadcast(grad * a / (b * b), b.shape)

    with pytest.raises(
        AssertionError, match=r"(?s)`div` returns the wrong gradient for input 1 \(b\).*expected:.*got:"
    ):
        ec.check_rule("div", div)


def test_rule_errors_and_forms_are_reported_with_the_case():
    def sum_rule(grad, a, dim=None, keepdim=False):  # fine while grad broadcasts against a
        return (grad * torch.ones_like(a),)

    ec.check_rule("sum", sum_rule)
    with pytest.raises(
        AssertionError, match=r"your rule for `sum` raised RuntimeError on the case a has shape \(2, 3, 4\), dim=-1"
    ):
        ec.check_rule("sum", sum_rule, seed=705, trials=40)

    with pytest.raises(AssertionError, match=r"should return a tuple \(grad_a, grad_b\)"):
        ec.check_rule("matmul", lambda grad, a, b: grad @ b.T)
    with pytest.raises(AssertionError, match="returns a list for input 0"):
        ec.check_rule("exp", lambda grad, a: ((grad * a.exp()).tolist(),))

    def in_place(grad, a, b):
        a.mul_(2.0)
        return RULES["add"](grad, a, b)

    with pytest.raises(AssertionError, match="changed grad or an input in place"):
        ec.check_rule("add", in_place)


def test_not_implemented_passes_through_unchanged():
    """A release notebook's stub must fail with its own NotImplementedError, not a wrapped error."""

    def stub(*args, **kwargs):
        raise NotImplementedError()

    for run in (
        lambda: ec.check_unbroadcast(stub),
        lambda: ec.check_rule("mul", stub),
        lambda: ec.check_topological_order(stub),
        lambda: ec.check_backward(stub),
    ):
        with pytest.raises(NotImplementedError):
            run()


def test_recursive_order_fails_on_the_deep_chain_only():
    ec.check_topological_order(recursive_order)
    with pytest.raises(AssertionError, match="RecursionError on a chain of 50,000 nodes"):
        ec.check_topological_order(recursive_order, hidden=True)
    with pytest.raises(AssertionError, match="RecursionError on a chain of 3,500 nodes"):
        ec.check_backward(make_backward(recursive_order), "graphs")


def test_breadth_first_order_names_the_nodes_in_the_wrong_order():
    ec.check_topological_order(breadth_first_order)
    pattern = r"on an uneven diamond: 'a' \(mul of 'x' and 'w'\) comes before 'b' \(exp of 'a'\), but 'b' uses 'a'"
    with pytest.raises(AssertionError, match=pattern):
        ec.check_topological_order(breadth_first_order, hidden=True)
    with pytest.raises(AssertionError, match="on an uneven diamond: node 'w'.*wrong gradient"):
        ec.check_backward(make_backward(breadth_first_order), "graphs")


def test_order_with_repeats_or_gaps_is_named():
    def every_path(root):
        order, stack = [], [root]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(node.inputs)
        return order

    with pytest.raises(AssertionError, match="node 'x' .* appears 2 times"):
        ec.check_topological_order(every_path)
    with pytest.raises(AssertionError, match=r"node\(s\) reachable from the root are missing"):
        ec.check_topological_order(lambda root: topological_order(root)[:-1])
    with pytest.raises(AssertionError, match="the first node must be the root"):
        ec.check_topological_order(lambda root: topological_order(root)[::-1] if root.inputs else [root])
    with pytest.raises(AssertionError, match="returned None"):
        ec.check_topological_order(lambda root: None)


@pytest.mark.parametrize(
    ("switches", "part", "pattern"),
    [
        ({"accumulate": False}, "graphs", r"after two backward\(\) calls: node 'x'.*wrong gradient.*adds to \.grad"),
        ({"only_needed": False}, "visible", r"node 'c' \(a leaf that does not require grad\) has \.grad"),
        ({"hooks": False}, "hooks", r"node 'x'.*wrong gradient.*Check the hooks"),
        ({"retain": False}, "hooks", r"node 'h' .* has no \.grad \(retain_grad\(\) was called on it\)"),
    ],
)
def test_engine_mistakes_name_the_node(switches, part, pattern):
    backward = make_backward(**switches)
    if part != "visible":
        ec.check_backward(backward)  # the visible graphs do not show these mistakes
    with pytest.raises(AssertionError, match=pattern):
        ec.check_backward(backward, part)


def test_engine_that_sums_paths_wrongly_or_keeps_every_grad():
    def overwrite(root, grad=None):  # paths that meet: the last share wins
        pending = {root: torch.ones_like(root.value)}
        for node in topological_order(root):
            g = pending.pop(node, None)
            if g is None:
                continue
            if node.is_leaf:
                node.grad = g
                continue
            for inp, g_inp in zip(node.inputs, node.vjp(g)):
                if inp.requires_grad:
                    pending[inp] = g_inp
        return None

    with pytest.raises(AssertionError, match=r"node 'x'.*wrong gradient\. It is used by .*must be added up"):
        ec.check_backward(overwrite)

    def everywhere(root, grad=None):
        make_backward()(root, grad)
        for node in topological_order(root):
            if node.grad is None and node.requires_grad:
                node.grad = torch.zeros_like(node.value)

    with pytest.raises(AssertionError, match=r"node 'loss' .* minigrad leaves it None: only leaves keep"):
        ec.check_backward(everywhere)


def test_hooks_called_per_share_are_counted():
    def per_share(root, grad=None):
        pending = {root: torch.ones_like(root.value)}
        for node in topological_order(root):
            g = pending.pop(node, None)
            if g is None:
                continue
            if node.is_leaf or node.retains_grad:
                node.grad = g if node.grad is None else node.grad + g
            if node.is_leaf:
                continue
            for inp, g_inp in zip(node.inputs, node.vjp(g)):
                if not inp.requires_grad:
                    continue
                for hook in inp.hooks:  # on every share instead of on the total
                    new = hook(g_inp)
                    g_inp = g_inp if new is None else new
                pending[inp] = g_inp if inp not in pending else pending[inp] + g_inp

    with pytest.raises(AssertionError, match="the hook on 'x' ran 2 time"):
        ec.check_backward(per_share, "hooks")


def test_backward_must_refuse_a_root_without_grad():
    def lenient(root, grad=None):
        if root.requires_grad:
            make_backward()(root, grad)

    with pytest.raises(AssertionError, match="should raise RuntimeError"):
        ec.check_backward(lenient, "graphs")


# ------------------------------------------------------------------------------ the graph structure


def _notebook_namespace() -> dict:
    """The Node code exactly as the notebook shows it, run on its own."""
    from coursetools.notebooks import cells

    (cell,) = [c for c in cells("07_build_autograd") if c.name == "node_class"]
    namespace = {"torch": torch}
    exec(compile(cell.source, "node_class", "exec"), namespace)
    return namespace


def _build(leaf):
    x = leaf([[0.5, -1.0], [2.0, 0.3]], "x")
    w = leaf([1.5, -0.5], "w")
    c = leaf([[1.0, 2.0], [0.5, 4.0]], "c", requires_grad=False)
    k = (c * c).named("k")
    a = (x @ (x / c)).named("a")
    h = (a * w + k).named("h").tanh().named("t")
    return h.sum(dim=1, keepdim=True).named("r").exp().named("e").sum().named("loss"), k


def test_the_notebook_shows_the_structure_the_checks_use():
    notebook = _notebook_namespace()
    ours, ours_k = _build(ec.leaf)
    theirs, theirs_k = _build(notebook["leaf"])
    assert theirs_k.is_leaf and not theirs_k.requires_grad and ours_k.is_leaf and not ours_k.requires_grad
    a, b = ec.reachable(ours), ec.reachable(theirs)
    assert [(n.name, n.op, n.is_leaf, n.requires_grad, n.params) for n in a] == [
        (n.name, n.op, n.is_leaf, n.requires_grad, n.params) for n in b
    ]
    for mine, shown in zip(a, b):
        assert mine.value.tolist() == shown.value.tolist()
        assert (mine.grad, mine.retains_grad, mine.hooks) == (shown.grad, shown.retains_grad, shown.hooks)
        if not mine.is_leaf:
            g = torch.ones_like(mine.value)
            assert [t.tolist() for t in mine.vjp(g)] == [t.tolist() for t in shown.vjp(g)]
    assert set(vars(ec.Node)) == set(vars(notebook["Node"]))
    assert ec.FORWARD.keys() == notebook["FORWARD"].keys()
    for node_class in (ec.Node, notebook["Node"]):
        constant = node_class(torch.ones(2))
        with pytest.raises(RuntimeError, match="requires_grad=False"):
            constant.retain_grad()
        with pytest.raises(RuntimeError, match="doesn't require gradient"):
            constant.register_hook(print)


def test_the_correct_engine_matches_minigrad_on_the_notebook_nodes():
    notebook = _notebook_namespace()
    root, _ = _build(notebook["leaf"])
    twin, names = ec.to_minigrad(root)
    assert set(names) == {"x", "w", "c", "k", "a", "h", "t", "r", "e", "loss"}
    make_backward()(root)
    twin.backward()
    nodes = {n.name: n for n in ec.reachable(root)}
    for name in ("x", "w"):
        assert (nodes[name].grad - names[name].grad).abs().max().item() < 1e-12
    assert nodes["c"].grad is None and nodes["a"].grad is None


def test_to_minigrad_gives_a_graph_viz_can_draw():
    from minigrad import viz

    root, _ = _build(ec.leaf)
    root.inputs[0].retain_grad()
    twin, names = ec.to_minigrad(root)
    assert twin.grad_fn is not None and names["e"].retains_grad and names["x"].is_leaf
    assert not names["k"].requires_grad  # made from constants only: a leaf without grad
    source = viz.draw(twin, names=names).source
    for name in ("x", "w", "loss", "TanhBackward0"):
        assert name in source


def test_hidden_cases_are_the_same_every_time():
    first = [(n.name, n.op, n.value.tolist()) for n in ec.reachable(ec._random_graph(11)[0])]
    again = [(n.name, n.op, n.value.tolist()) for n in ec.reachable(ec._random_graph(11)[0])]
    other = [(n.name, n.op, n.value.tolist()) for n in ec.reachable(ec._random_graph(12)[0])]
    assert first == again and first != other


# ------------------------------------------------------------------------------ guard()


def test_guard_covers_the_engine_checks():
    """guard() (coursetools.checks) also fingerprints this module: patching it fails the tests."""
    script = textwrap.dedent(
        """
        import coursetools.engine_checks as ec
        from coursetools.checks import guard

        guard()
        ec.check_rule = lambda *args, **kwargs: None  # a "passing" check
        try:
            guard()
        except AssertionError as error:
            print("caught:", error)
        else:
            print("not caught")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "caught:" in done.stdout and "coursetools.engine_checks.check_rule was replaced" in done.stdout, done.stdout


# ------------------------------------------------------------------------------ graded_alone and hangs


def test_graded_alone_lends_the_helper_when_the_students_one_hangs(monkeypatch):
    """A helper that never returns costs only its own exercise: the first run is cut off at
    FIRST_RUN_SECONDS and the check runs again with a correct helper (a student's
    ``except Exception`` cannot swallow the limit)."""
    import time

    monkeypatch.setattr(ec, "FIRST_RUN_SECONDS", 0.5)

    def hangs(*args):
        while True:
            try:
                time.sleep(0.01)
            except Exception:  # noqa: BLE001, S110 (the student's code)
                pass

    ns = {"hvp": hangs}
    start = time.monotonic()
    ec.graded_alone(ns, "hvp", lambda: ns["hvp"] is hangs and ns["hvp"]())
    assert time.monotonic() - start < 5
    assert ns["hvp"] is hangs, "the student's helper is put back"


def test_graded_alone_reports_a_timeout_when_the_lent_run_fails_too(monkeypatch):
    import time

    monkeypatch.setattr(ec, "FIRST_RUN_SECONDS", 0.2)
    ns = {"hvp": None}

    def check():
        if ns["hvp"] is None:
            time.sleep(5)
        raise AssertionError("wrong with the lent helper too")

    with pytest.raises(AssertionError, match="did not finish within"):
        ec.graded_alone(ns, "hvp", check)
