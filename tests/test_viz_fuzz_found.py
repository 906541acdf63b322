"""minigrad.viz: what fuzzing the drawings, the trace and the command line found.

Each program runs in minigrad and in PyTorch; names, values and gradients come from PyTorch,
pictures are rendered with the real ``dot`` program.
"""

from __future__ import annotations

import re
import subprocess

import pytest

import minigrad
from minigrad import viz
from minigrad.viz.__main__ import main as cli_main

torch = pytest.importorskip("torch")


def render(drawing) -> str:
    """The SVG that Graphviz makes of ``drawing`` (it must not warn)."""
    done = subprocess.run(["dot", "-Tsvg"], input=drawing.source, capture_output=True, text=True, check=True)
    assert done.stderr == ""
    return done.stdout


def label_of(drawing, title: str) -> str:
    """The DOT statement of the node whose bold title is ``title``."""
    (line,) = [line for line in drawing.source.split("\n\t") if f"<B>{title}</B>" in line]
    return line


def one_line(t) -> str:
    """PyTorch's printed values of ``t`` on one line: ``[[0], [1]]``."""
    text = re.sub(r"^tensor\((.*)\)$", r"\1", repr(t), flags=re.S)
    return " ".join(part.strip() for part in text.split("\n"))


def test_a_very_long_variable_name_is_shortened():
    name = 'q"uo<te>&{b}|é→ ' + "L" * 200
    x = minigrad.tensor(2.0, requires_grad=True)
    y = x.exp()
    for drawing in (viz.draw(y, names={name: x, "y": y}), viz.draw_backward(y, names={name: x, "y": y})):
        source = drawing.source
        assert "L" * 60 not in source and "\u2026" in source
        assert "q&quot;uo&lt;te&gt;&amp;{b}|é→" in source  # escaped, still readable
        assert "LLL\u2026" in render(drawing)


def test_array_parameters_are_one_line_like_pytorch_prints_them():
    x = minigrad.arange(12.0).reshape(3, 4).requires_grad_()
    index = [[0], [1], [3]]
    c = x.gather(1, minigrad.tensor(index))
    expected = one_line(torch.tensor(index))
    for draw in (viz.draw, viz.draw_backward):
        drawing = draw(c, names={"x": x, "c": c}, show_saved=True)
        line = label_of(drawing, "GatherBackward0")
        assert "\n" not in line
        assert f"index = {expected}  int64" in line
        render(drawing)


def test_max_nodes_and_max_depth_must_be_ints_not_bools():
    y = minigrad.tensor(1.0, requires_grad=True) * 2
    for option in ("max_nodes", "max_depth"):
        with pytest.raises(ValueError, match=f"{option} must be a non-negative int or None"):
            viz.draw(y, **{option: True})
        with pytest.raises(ValueError, match=f"{option} must be a non-negative int or None"):
            viz.draw_backward(y, **{option: False})


def none_for_b(lib):
    class NoneForB(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2 + b

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, None

    a = lib.tensor(1.0, requires_grad=True)
    b = lib.tensor(2.0, requires_grad=True)
    return a, b, NoneForB.apply(a, b)


def test_trace_of_a_none_gradient_says_the_leaf_is_left_alone():
    a, b, out = none_for_b(minigrad)
    trace = viz.trace_backward(out, names={"a": a, "b": b, "out": out})
    ta, tb, tout = none_for_b(torch)
    ran = []
    for node, _ in tout.grad_fn.next_functions:  # PyTorch runs b's AccumulateGrad too, with None
        node.register_prehook(lambda grads, node=node: ran.append((node.variable is tb, grads[0] is None)))
    tout.backward()
    assert [(f.node.variable is b, f.grad_outputs[0] is None) for f in trace.frames[1:]] == ran
    assert b.grad is None and tb.grad is None and a.grad.item() == ta.grad.item()
    last = trace.describe(trace.steps - 1)
    assert last.endswith("AccumulateGrad received None: b.grad is left as it was")
    render(trace.draw())


def double(grad):
    return grad * 2


def after_node(grad_inputs, grad_outputs):
    return None


def after_accumulate(tensor):
    return None


def test_trace_describes_hooks_in_the_order_they_fire():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x.register_post_accumulate_grad_hook(after_accumulate)
    y = x * 3
    y.register_hook(double)
    y.grad_fn.register_hook(after_node)
    trace = viz.trace_backward(y.sum(), names={"x": x, "y": y})
    mul = trace.describe(2)
    assert mul.index("double(") < mul.index("received") < mul.index("sent") < mul.index("node hook after_node")
    acc = trace.describe(3)
    assert acc.index("added") < acc.index("post-accumulate after_accumulate fired")


def test_trace_shows_saved_tensors_until_the_node_frees_them():
    x = minigrad.tensor([0.5, 1.0], requires_grad=True)
    y = x.exp()
    z = y.sum()
    saved = torch.tensor([0.5, 1.0], requires_grad=True).exp().grad_fn._saved_result
    trace = viz.trace_backward(z, names={"x": x, "y": y, "z": z})
    for step in range(trace.steps):
        drawing = trace.draw(step, show_saved=True)
        (result,) = [line for line in drawing.source.split("\n\t") if "<B>result</B>" in line]
        ran = step >= [f.name for f in trace.frames].index("ExpBackward0") + 1
        assert ("freed by backward()" in result) == ran, step
        assert ("= y" in result and one_line(saved.detach()) in result) == (not ran), step
        render(drawing)


def test_a_module_backward_hook_is_shown_by_the_users_name():
    def log_grads(module, grad_input, grad_output):
        return None

    layer = minigrad.nn.Linear(3, 2)
    layer.register_full_backward_hook(log_grads)
    x = minigrad.ones(4, 3, requires_grad=True)
    out = layer(x).sum()
    t_layer = torch.nn.Linear(3, 2)
    t_layer.register_full_backward_hook(log_grads)
    t_out = t_layer(torch.ones(4, 3, requires_grad=True)).sum()
    nodes, stack = [], [t_out.grad_fn]  # PyTorch puts one node after the outputs, one before the inputs
    while stack:
        nodes.append(type(stack[-1]).__name__)
        stack += [n for n, _ in stack.pop().next_functions if n is not None]
    for drawing in (viz.draw_backward(out, names={"x": x}), viz.draw(out, names={"x": x})):
        lines = [line for line in drawing.source.split("\n\t") if "<B>BackwardHookFunctionBackward</B>" in line]
        assert len(lines) == nodes.count("BackwardHookFunctionBackward") == 2
        assert "_run" not in drawing.source
        assert all("node hook: Linear backward hooks (log_grads)" in line for line in lines)
        render(drawing)


def test_a_root_that_needs_no_grad_does_not_say_backward_starts_there():
    x = minigrad.ones(3)
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.ones(3).sum().backward()
    drawing = viz.draw_backward(x, names={"x": x})
    text = drawing.source
    assert "backward() starts here" not in text and "no graph" in text
    assert "requires_grad=False" in label_of(drawing, "Legend")
    render(drawing)


SCRIPT = """
import minigrad as torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
"""


def test_command_line_makes_the_output_folder_and_checks_limits(tmp_path, monkeypatch, capsys):
    (tmp_path / "train.py").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    assert cli_main(["train.py", "--out", "pictures/graph.svg"]) == 0
    assert (tmp_path / "pictures" / "graph.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    for flag in ("--max-nodes", "--max-depth"):
        with pytest.raises(SystemExit) as info:
            cli_main(["train.py", "--out", "graph.dot", flag, "-1"])
        assert info.value.code == 2
        assert f"{flag} must not be negative" in capsys.readouterr().err
