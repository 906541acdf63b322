"""Disagreements with PyTorch in custom ``autograd.Function``s, found by a differential fuzzer
(random Functions in both styles, with tensor and other arguments, several outputs, inputs
returned as they are, views, ``mark_dirty``, ``mark_non_differentiable``, what backward returns,
hooks, double backward and ``gradcheck``; outputs, graphs, gradients, warnings and errors compared
with PyTorch's).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, values and ``requires_grad``.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), rounded(t, 4), t.requires_grad)).same


def function(lib, forward, backward=None, setup_context=None, vjp=None):
    """A Function subclass named F of ``lib`` with these static methods."""
    methods = {"forward": staticmethod(forward)}
    for name, method in (("backward", backward), ("setup_context", setup_context), ("vjp", vjp)):
        if method is not None:
            methods[name] = staticmethod(method)
    return type("F", (lib.autograd.Function,), methods)


def node_name(t) -> str | None:
    return None if t.grad_fn is None else t.grad_fn.name().replace("torch::autograd::", "")


def test_saved_tensors_is_empty_until_forward_is_over():
    def run(lib):
        seen = []

        def forward(ctx, x):
            ctx.save_for_backward(x)
            seen.append(len(ctx.saved_tensors))
            return x * 2

        def forward_alone(x):
            return x * 2

        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output)
            seen.append(len(ctx.saved_tensors))

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = function(lib, forward, lambda ctx, g: g).apply(x)
        z = function(lib, forward_alone, lambda ctx, g: g, setup_context).apply(x)
        return seen, len(y.grad_fn.saved_tensors), len(z.grad_fn.saved_tensors)

    assert same(run) == ([0, 0], 1, 2)


def test_instantiating_a_function_warns_and_calling_it_raises():
    def run(lib):
        F = function(lib, lambda ctx, x: x * 2, lambda ctx, g: g)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f = F()
        assert [w.category for w in caught] == [DeprecationWarning]
        assert "should not be instantiated" in str(caught[0].message)
        f(lib.tensor([1.0]))

    same_error(run, "Legacy autograd function with non-static forward method is deprecated.")


def test_vjp_is_another_name_for_backward():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = function(lib, lambda ctx, x: x * 2, vjp=lambda ctx, g: g * 5).apply(x)
        y.sum().backward()
        return y, x.grad

    same(run)


def test_backward_and_vjp_together_raise():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        F = function(lib, lambda ctx, x: x * 2, lambda ctx, g: g, vjp=lambda ctx, g: g)
        F.apply(x).sum().backward()

    same_error(run, "Implementing both 'backward' and 'vjp' for a custom Function is not allowed.")


# (With requires_grad=True and grad mode off, the output is a detached alias: nothing to refuse.)
@pytest.mark.parametrize("requires_grad, grad_mode", [(True, True), (False, True), (False, False)])
def test_setup_context_may_not_save_an_input_returned_as_it_is(requires_grad, grad_mode):
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=requires_grad)
        with lib.set_grad_enabled(grad_mode):
            y = function(lib, lambda x: x, lambda ctx, g: g, setup_context).apply(x)
        return y

    same_error(run, "An input that has been returned as-is as output is being saved for backward.")


def view_without_gradient(lib):
    """F returns ``x.view(-1)``, marked non-differentiable."""

    def forward(ctx, x):
        v = x.view(-1)
        ctx.mark_non_differentiable(v)
        return v

    return function(lib, forward, lambda ctx, g: g)


@pytest.mark.parametrize("grad_mode", [True, False])
@pytest.mark.parametrize("change", ["view", "base"])
def test_a_view_output_without_gradient_may_not_change_in_place(grad_mode, change):
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 1
        with lib.set_grad_enabled(grad_mode):
            v = view_without_gradient(lib).apply(x)
        # (It requires grad, as its base does, and operations on it are recorded.)
        assert v.requires_grad and v.grad_fn is None and (v * 2).requires_grad
        if change == "view":
            v.mul_(2)
        else:
            with lib.no_grad():
                v._base.mul_(2)
            v.grad_fn

    words = "is being modified inplace" if change == "view" else "its base or another view of its base has been"
    same_error(run, "A view was created in no_grad mode and", words, "created inside a custom Function")


def test_a_view_of_a_dirty_input_made_after_the_change_has_the_node():
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x, x[0]

    def run(lib):
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        x = a * 1
        y, row = function(lib, forward, lambda ctx, g, g_row: g * 3).apply(x)
        (y.sum() + row.sum()).backward()
        return y, row, node_name(row), row.output_nr, x._version, a.grad

    assert same(run)[2] == "FBackward"


def test_once_differentiable_backward_may_return_only_tensors_and_none():
    def run(lib):
        @lib.autograd.function.once_differentiable
        def backward(ctx, g):
            return 1.0

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = function(lib, lambda ctx, x: x * 2, backward).apply(x)
        lib.autograd.grad(y, x, lib.ones(2, requires_grad=True), create_graph=True)

    same_error(run, "'float' object has no attribute 'detach'")


def test_node_hooks_see_the_gradient_of_an_input_that_needs_none():
    def run(lib):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        k = lib.tensor([3.0, 4.0])
        y = function(lib, lambda ctx, x, k: x * k, lambda ctx, g: (g * 2, g.double())).apply(x, k)
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.extend(grad_inputs))
        y.sum().backward()
        return seen, x.grad

    same(run)


def test_the_context_lets_go_of_what_forward_marked():
    def forward(ctx, x, y):
        y.mul_(2)
        ctx.mark_dirty(y)
        out = x * 2
        ctx.save_for_backward(x, out)
        ctx.mark_non_differentiable(out)
        return out, y, x * 3

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        outputs = function(lib, forward, lambda ctx, *g: (g[2], g[1])).apply(x, lib.tensor([1.0, 2.0]) * 1)
        node = outputs[2].grad_fn
        return node.to_save, node.dirty_tensors, node.non_differentiable, len(node.saved_tensors)

    assert same(run) == (None, None, None, 2)


def test_no_gradient_for_a_dirty_view_gives_its_base_none():
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    def run(lib):
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        base = a * 1
        y = function(lib, forward, lambda ctx, g: None).apply(base[0])
        return y, node_name(base), lib.autograd.grad(y.sum(), a, allow_unused=True)

    same(run)
