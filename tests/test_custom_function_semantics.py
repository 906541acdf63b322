"""What ``autograd.Function.apply`` does around forward and backward, checked against PyTorch:
mark_dirty, mark_non_differentiable, inputs returned as they are, views made inside forward,
once_differentiable, what backward may return, non-tensor outputs and keyword arguments."""

import warnings

import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

# Tensors compare as (dtype, values rounded to 4 decimals, requires_grad).
same = Oracle(lambda t: (str(t.dtype), rounded(t, 4), t.requires_grad)).same


def function(lib, forward, backward, setup_context=None):
    """A Function subclass named F of ``lib`` with these static methods."""
    methods = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    if setup_context is not None:
        methods["setup_context"] = staticmethod(setup_context)
    return type("F", (lib.autograd.Function,), methods)


def doubling_in_place(lib, outputs: int = 1):
    """F doubles its input in place and says so with mark_dirty."""

    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x if outputs == 1 else (x, x * 3)

    return function(lib, forward, lambda ctx, g, *rest: g * 2)


def identity(lib):
    return function(lib, lambda ctx, x: x, lambda ctx, g: g * 3)


def node_name(t) -> str:
    return None if t.grad_fn is None else type(t.grad_fn).__name__


# --------------------------------------------------------------------------- mark_dirty


def test_mark_dirty_makes_the_function_the_last_operation_on_its_input():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = x * 1
        y = doubling_in_place(lib).apply(w)
        w.sum().backward()
        return y is w, node_name(w), x.grad, w._version, y

    assert same(run)[:2] == (True, "FBackward")


def test_mark_dirty_of_a_leaf_that_requires_grad_raises():
    def run(lib):
        doubling_in_place(lib).apply(lib.tensor([1.0, 2.0], requires_grad=True))

    same_error(run, "a leaf Variable that requires grad has been used in an in-place operation.")


def test_mark_dirty_without_a_graph_returns_the_input_and_counts_the_change():
    def run(lib):
        x = lib.tensor([1.0, 2.0])
        y = doubling_in_place(lib).apply(x)
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            z = doubling_in_place(lib).apply(leaf)
        return y is x, x._version, z is leaf, z, leaf._version

    assert same(run)[0] is True


def test_mark_dirty_of_a_view_gives_its_base_copy_slices():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = x * 1
        v = w[1:]
        y = doubling_in_place(lib).apply(v)
        names = node_name(y), node_name(w)
        w.sum().backward()
        return y is v, names, x.grad

    assert same(run)[1] == ("AsStridedBackward0", "CopySlices")


def test_mark_dirty_of_an_input_without_grad_gives_it_one():
    def run(lib):
        def forward(ctx, a, b):
            a.add_(b)
            ctx.mark_dirty(a)
            return a

        a, b = lib.zeros(3), lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = function(lib, forward, lambda ctx, g: (g, g)).apply(a, b)
        y.sum().backward()
        return y is a, a.requires_grad, node_name(a), b.grad

    same(run)


def test_mark_dirty_keeps_hooks_with_the_old_value_and_moves_retain_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = x * 1
        w.retain_grad()
        seen = []
        w.register_hook(lambda g: seen.append(g.clone()))
        w.sum().backward(retain_graph=True)
        before, x.grad = w.grad, None
        doubling_in_place(lib).apply(w)
        dropped = w.grad is None
        w.sum().backward()
        return before, dropped, w.grad, seen, x.grad

    same(run)


def test_mark_dirty_errors():
    def not_returned(lib):
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x * 1

        function(lib, forward, lambda ctx, g: g).apply(lib.tensor([1.0], requires_grad=True) * 1)

    def view_with_two_outputs(lib):
        w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
        doubling_in_place(lib, outputs=2).apply(w[1:])

    def not_a_tensor(lib):
        def forward(ctx, x):
            ctx.mark_dirty(x, 3)
            return x

        function(lib, forward, lambda ctx, g: g).apply(lib.ones(2, requires_grad=True) * 1)

    same_error(not_returned, "Some elements marked as dirty during the forward method were not returned as output.")
    same_error(view_with_two_outputs, "If your Function modifies inplace an input that is a view of another Tensor")
    same_error(not_a_tensor, "mark_dirty can only accept variables, but argument")


def test_mark_dirty_of_a_new_tensor_warns():
    def run(lib):
        def forward(ctx, x):
            y = x * 2
            ctx.mark_dirty(y)
            return y

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = function(lib, forward, lambda ctx, g: g * 2).apply(lib.tensor([1.0, 2.0], requires_grad=True))
        messages = [str(w.message) for w in caught]
        return (
            y,
            y._version,
            node_name(y),
            any("ctx.mark_dirty() received a tensor that was not an input" in m for m in messages),
        )

    assert same(run)[3] is True


def test_mark_dirty_saved_output_of_a_view_differentiates_twice():
    def run(lib):
        def forward(ctx, a):
            a.exp_()
            ctx.mark_dirty(a)
            ctx.save_for_backward(a)
            return a

        def backward(ctx, g):
            (result,) = ctx.saved_tensors
            return g * result

        x = lib.tensor([0.0, 1.0, 2.0], requires_grad=True)
        w = x * 1
        function(lib, forward, backward).apply(w[1:])
        (g,) = lib.autograd.grad(w.sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x)

    same(run)


# --------------------------------------------------------------------------- outputs


def test_input_returned_as_is_becomes_a_view_of_it():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = x * 1
        y = identity(lib).apply(w)
        c = lib.tensor([1.0, 2.0])
        z = identity(lib).apply(c)  # no graph: still a view
        return y._base is w, node_name(y), y.is_leaf, z._base is c, z.requires_grad

    assert same(run)[0] is True


@pytest.mark.parametrize("change", ["output", "base"])
def test_view_output_of_a_function_cannot_be_changed_in_place(change):
    def run(lib, make):
        w = lib.tensor([1.0, 2.0], requires_grad=True) * 1
        y = make(lib).apply(w)
        if change == "output":
            y.mul_(2)
        else:
            w.mul_(2)
            y.grad_fn  # noqa: B018 - taking the view's grad_fn again is what raises

    def returned_as_is(lib):
        return identity(lib)

    def sliced(lib):
        return function(lib, lambda ctx, x: x[0:1], lambda ctx, g: lib.cat([g, lib.zeros(1)]))

    opening = (
        "is being modified inplace."
        if change == "output"
        else "its base or another view of its base has been modified inplace."
    )
    advice = "This view was created inside a custom Function (or because an input was returned as-is)"
    for make in (returned_as_is, sliced):
        same_error(lambda lib, make=make: run(lib, make), f"Output 0 of F is a view and {opening} {advice}")


@pytest.mark.parametrize(
    ("second", "advice"),
    [
        ("tensor", "This view is the output of a function that returns multiple views."),
        ("detached", "This view is the output of a function that returns multiple views."),
        ("marked non-differentiable", "This view was created inside a custom Function"),
        ("integer", "This view was created inside a custom Function"),
        ("number", "This view was created inside a custom Function"),
    ],
)
def test_view_among_several_outputs_cannot_be_changed_in_place(second, advice):
    # PyTorch's advice counts the differentiable outputs: floating-point tensors not marked
    # non-differentiable (a detached one counts).
    def run(lib):
        def forward(ctx, x):
            rest = {
                "tensor": x * 2,
                "detached": x.detach(),
                "marked non-differentiable": x[1:],
                "integer": x.long(),
                "number": 5,
            }[second]
            if second == "marked non-differentiable":
                ctx.mark_non_differentiable(rest)
            return x[0:1], rest

        w = lib.tensor([1.0, 2.0], requires_grad=True) * 1
        y, _ = function(lib, forward, lambda ctx, g, h: g).apply(w)
        y.mul_(2)

    same_error(run, f"Output 0 of F is a view and is being modified inplace. {advice}")


def test_non_differentiable_input_returned_as_is():
    def run(lib):
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x

        F = function(lib, forward, lambda ctx, g: g)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = x * 1
        y, z = F.apply(w), F.apply(x)
        return y, node_name(y), y is w, z, z.is_leaf, z is x

    same(run)


def test_non_tensor_outputs_are_returned_untouched():
    def run(lib):
        def forward(ctx, x, n):
            return x * n, n, None, (x > 1)

        def backward(ctx, g, g_n, g_none, g_mask):
            return g * 2 + g_mask, None

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, n, none, mask = function(lib, forward, backward).apply(x, 2)
        a.sum().backward()
        as_list = function(lib, lambda ctx, x: [x * 2], lambda ctx, g: g).apply(x)
        nothing = function(lib, lambda ctx, x: None, lambda ctx, g: g).apply(x)
        return a, n, none, mask, x.grad, type(as_list).__name__, as_list, nothing

    assert same(run)[1:3] == (2, None)


def test_keyword_arguments():
    def forward(ctx, x, k=3.0, j=1.0):
        return x * k * j

    def backward(ctx, g):
        return g * 3, None, None

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        F = function(lib, forward, backward)
        y = F.apply(x=x)
        y.sum().backward()
        z = F.apply(x, j=2.0, k=1.0)
        return y, x.grad, z, z.grad_fn.needs_input_grad, len(z.grad_fn.next_functions)

    def with_setup_context(lib):
        def setup_context(ctx, inputs, output):
            ctx.inputs = inputs

        F = function(lib, lambda x, k=3.0: x * k, lambda ctx, g: (g * 3, None), setup_context)
        y = F.apply(x=lib.tensor([1.0], requires_grad=True))
        return y, y.grad_fn.inputs

    assert same(run)[3] == (True, False, False)
    same(with_setup_context)
    F = {lib: function(lib, forward, backward) for lib in (minigrad, torch)}
    same_error(lambda lib: F[lib].apply(lib.ones(1), z=1), "forward() got an unexpected keyword argument 'z'")
    same_error(lambda lib: F[lib].apply(lib.ones(1), x=1), "forward() got multiple values for argument 'x'")
    same_error(lambda lib: F[lib].apply(lib.ones(1), j=2.0), "forward() missing required argument: 'k' (position 1)")


# --------------------------------------------------------------------------- backward's results


def test_gradient_is_cast_to_the_input_dtype():
    def run(lib):
        F = function(lib, lambda ctx, x: x * 2, lambda ctx, g: g.double())
        Long = function(lib, lambda ctx, x: x * 2, lambda ctx, g: (g * 2).long())
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        F.apply(x).sum().backward()
        w = x * 1
        (g,) = lib.autograd.grad(Long.apply(w).sum(), w)
        return x.grad, g

    same(run)


def test_gradient_of_a_broadcast_input_is_summed_to_its_shape():
    def run(lib):
        F = function(lib, lambda ctx, x, y: x + y, lambda ctx, g: (g, g))
        x = lib.ones(2, 3, requires_grad=True)
        number = lib.tensor(1.0, requires_grad=True)
        column = lib.ones(2, 1, requires_grad=True)
        row = lib.ones(3, requires_grad=True)
        for y in (number, column, row):
            F.apply(x, y).sum().backward()
        return x.grad, number.grad, column.grad, row.grad

    def not_expandable(lib):
        F = function(lib, lambda ctx, x, y: x * 1, lambda ctx, g: (g, g))
        F.apply(lib.ones(2, 3, requires_grad=True), lib.ones(2, 1, 3, requires_grad=True)).sum().backward()

    same(run)
    same_error(
        not_expandable,
        "returned an invalid gradient at index 1 - got [2, 3] but expected shape compatible with [2, 1, 3]",
    )


def test_number_of_gradients():
    def too_many(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        function(lib, lambda ctx, x: x * 2, lambda ctx, g: (g, g)).apply(x).sum().backward()

    def extra_nones(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        function(lib, lambda ctx, x: x * 2, lambda ctx, g: (g, None, None)).apply(x).sum().backward()
        return x.grad

    same_error(too_many, "function FBackward returned an incorrect number of gradients (expected 1, got 2)")
    same(extra_nones)


def test_edges_only_for_tensor_inputs():
    def run(lib):
        F = function(lib, lambda ctx, k, x, y: x * k, lambda ctx, g: (None, g, lib.ones(5)))
        out = F.apply(2.0, lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True))
        assert len(out.grad_fn.next_functions) == 2
        out.sum().backward()

    same_error(run, "returned an invalid gradient at index 1 - got [5] but expected shape compatible with [2]")


@pytest.mark.parametrize("bad", ["number", "list", "non_tensor_input"])
def test_backward_must_return_tensors_or_none(bad):
    def run(lib):
        if bad == "non_tensor_input":
            F = function(lib, lambda ctx, x, k: x * k, lambda ctx, g: (g, g))
            F.apply(lib.ones(2, requires_grad=True), 2.0).sum().backward()
        result = 3.0 if bad == "number" else [None]
        F = function(lib, lambda ctx, x: x * 2, lambda ctx, g: result)
        F.apply(lib.ones(2, requires_grad=True)).sum().backward()

    words = {
        "number": "expected Variable or None (got float)",
        "list": "expected Variable or None (got list)",
        "non_tensor_input": "function FBackward returned a gradient different than None at position 2, but the "
        "corresponding forward input was not a Variable",
    }
    same_error(run, words[bad])


# --------------------------------------------------------------------------- saving


def test_save_for_backward_takes_only_tensors_and_none():
    def run(lib, grad: bool):
        def forward(ctx, x):
            ctx.save_for_backward(x, None, 3)
            return x * 2

        return function(lib, forward, lambda ctx, g: g).apply(lib.ones(2, requires_grad=grad))

    def in_setup_context(lib):
        F = function(lib, lambda x: x * 2, lambda ctx, g: g, lambda ctx, inputs, output: ctx.save_for_backward("a"))
        F.apply(lib.ones(2, requires_grad=True))

    same_error(lambda lib: run(lib, True), "save_for_backward can only save variables, but argument 2 is of type int")
    same_error(in_setup_context, "save_for_backward can only save variables, but argument 0 is of type str")
    same(lambda lib: run(lib, False))  # nothing is saved without a graph: nothing is checked


# --------------------------------------------------------------------------- once_differentiable


def squaring(lib):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @lib.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x

    return function(lib, forward, backward)


def test_once_differentiable_backward_runs_without_recording():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (g,) = lib.autograd.grad(squaring(lib).apply(x).sum(), x, create_graph=True)
        return g, g.grad_fn

    assert same(run)[1] is None


def test_once_differentiable_gradients_cannot_be_differentiated():
    def nodes(lib):
        F = function(lib, lambda ctx, x, y: x * y, lib.autograd.function.once_differentiable(lambda ctx, g: (g, None)))
        x, upstream = lib.tensor([1.0, 2.0], requires_grad=True), lib.ones(2, requires_grad=True)
        (g,) = lib.autograd.grad(F.apply(x, lib.ones(2)), x, upstream, create_graph=True)
        return g, [type(n).__name__ if n is not None else None for n, _ in g.grad_fn.next_functions]

    def twice(lib):
        x, upstream = lib.tensor([1.0, 2.0], requires_grad=True), lib.ones(2, requires_grad=True)
        (g,) = lib.autograd.grad(squaring(lib).apply(x), x, upstream, create_graph=True)
        g.sum().backward()

    assert same(nodes)[1] == ["AccumulateGrad", None]
    same_error(twice, "trying to differentiate twice a function that was marked with @once_differentiable")
