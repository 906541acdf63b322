"""In-place operations on views, and views whose base changed in place: minigrad must do what PyTorch does.

An in-place operation on a view of a tensor in a graph gives the base a ``CopySlices`` node, and a
view whose storage changed after its ``grad_fn`` was made gets a new one from its base
(``AsStridedBackward0``). Each snippet runs with ``lib`` = minigrad and torch; every tensor it
returns is compared by dtype, values, ``requires_grad``, ``is_leaf``, grad_fn name and the names
of the grad_fn's ``next_functions``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402


def _name(node) -> str | None:
    return None if node is None else type(node).__name__


def _graph(t):
    fn = t.grad_fn
    return _name(fn), None if fn is None else tuple((_name(n), nr) for n, nr in fn.next_functions)


same = Oracle(lambda t: (str(t.dtype), values(t), t.requires_grad, t.is_leaf, _graph(t))).same


def _x(lib):
    return lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5], [2.0, 1.0, 0.25], [-3.0, 0.75, 1.25]], requires_grad=True)


def _after(lib, change, *, create_graph=False):
    """``change(y, w)`` on ``y = x * 2``; then the base, the gradients of x and w (weighted by
    position, so a gradient in the wrong place shows), and what ``change`` returned."""
    x = _x(lib)
    w = lib.tensor([1.5, -0.5, 2.0], requires_grad=True)
    y = x * 2
    out = change(y, w)
    weights = lib.arange(12.0).reshape(4, 3) + 1
    if create_graph:
        loss = (y * y * weights).sum()  # not linear, so the gradients depend on x and w
        gx, gw = lib.autograd.grad(loss, [x, w], create_graph=True, allow_unused=True)
        (gx.pow(2).sum() + (0 if gw is None else gw.pow(2).sum())).backward()
        return y, out, gx, gw, x.grad, w.grad
    (y * weights).sum().backward()
    return y, out, x.grad, w.grad


CHANGES = {
    # op on a slice, a row, a column, an element, a transpose, a reshaped view, views of views
    "slice mul_": lambda y, w: y[1:3].mul_(3),
    "row add_ tensor": lambda y, w: y[2].add_(w),
    "column sub_ tensor": lambda y, w: y[:, 1].sub_(w[:1].expand(4), alpha=2),
    "element div_": lambda y, w: y[1, 2].div_(w[0]),
    "t mul_ tensor": lambda y, w: y.t().mul_(w.unsqueeze(1)),
    "transpose exp_": lambda y, w: y.transpose(0, 1)[1].exp_(),
    "view pow_": lambda y, w: y.view(12)[::2].pow_(2),
    "reshape sigmoid_": lambda y, w: y.reshape(2, 6)[1].sigmoid_(),
    "unsqueeze tanh_": lambda y, w: y.unsqueeze(0)[0, 0].tanh_(),
    "permute relu_": lambda y, w: y.permute(1, 0)[0].relu_(),
    "narrow clamp_": lambda y, w: y.narrow(0, 1, 2).clamp_(min=0.0, max=5.0),
    "view of view of view": lambda y, w: y[1:].t()[0].mul_(w[:3]),
    "zero_": lambda y, w: y[0].zero_(),
    "fill_": lambda y, w: y[:, 0].fill_(7.0),
    "fill_ tensor": lambda y, w: y[:, 0].fill_(w[1]),
    "copy_ from graph": lambda y, w: y[3].copy_(w * 3),
    "setitem on a view": lambda y, w: y[1:].__setitem__((0, 0), 100.0),
    "setitem tensor on a view": lambda y, w: y[1:].__setitem__((slice(None), 1), w[:3] * 2),
    "two in-place on one view": lambda y, w: y[1:3].mul_(w).add_(1),
    "two views in turn": lambda y, w: (y[0].mul_(w), y[:, 2].mul_(3)),
    "in-place on base then view": lambda y, w: (y.mul_(2), y[1].mul_(w)),
    "iadd through a view": lambda y, w: y[0].__iadd__(w),
    "whole tensor alias": lambda y, w: y[...].mul_(w),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_inplace_on_a_view_matches_torch(name):
    same(lambda lib: _after(lib, CHANGES[name]))


@pytest.mark.parametrize(
    "name", ["slice mul_", "row add_ tensor", "t mul_ tensor", "transpose exp_", "view of view of view"]
)
def test_double_backward_through_copy_slices_matches_torch(name):
    same(lambda lib: _after(lib, CHANGES[name], create_graph=True))


def test_inplace_on_a_view_of_a_base_without_grad_matches_torch():
    # The base does not require grad: CopySlices sends nothing to it, only to the operand.
    def run(lib):
        w = lib.tensor([1.5, -0.5], requires_grad=True)
        b = lib.zeros(4)
        v = b[1:3]
        v.mul_(w).add_(w)
        (b * lib.arange(4.0)).sum().backward()
        return b, v, w.grad, b._version, v._version

    same(run)


def test_view_whose_base_changed_is_taken_again_from_the_base():
    def run(lib):
        x = _x(lib)
        y = x * 1
        v, t = y[0:2], y.t()
        y.mul_(x)  # v and t now show new values: their grad_fn is made again from y's
        v.backward(lib.ones(2, 3))
        return v, t, x.grad, (t * 2).sum()

    same(run)


def test_view_of_a_leaf_after_an_optimizer_step_still_reaches_the_leaf():
    # A view taken in the forward, the leaf updated under no_grad, then the view used again.
    def run(lib):
        w = _x(lib)
        v = w[1]
        with lib.no_grad():
            w.sub_(0.5 * lib.ones(4, 3))
        (v * v).sum().backward()
        return v, w.grad

    same(run)


def test_view_of_a_base_that_later_requires_grad_requires_grad():
    def run(lib):
        b = lib.zeros(3)
        v = b[1:]
        w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b.add_(w)
        v.sum().backward()
        return v, b, w.grad

    same(run)


def test_hooks_and_retain_grad_on_a_view_changed_in_place():
    # They sit on the view's new grad_fn, so they see the gradient that flows through the view.
    def run(lib):
        x = _x(lib)
        y = x * 2
        v = y[1]
        v.mul_(3)
        seen = []
        v.register_hook(lambda g: seen.append(g * 1))
        v.retain_grad()
        ((v * v).sum() + (y * y).sum()).backward()
        return v.grad, seen[0], x.grad

    same(run)


def test_versions_after_inplace_on_a_view():
    def run(lib):
        y = _x(lib) * 2
        v = y[1:]
        w = v[0]
        w.add_(1)
        return y._version, v._version, w._version, w._base is y, v._base is y

    assert same(run) == (1, 1, 1, True, True)


def test_saved_view_changed_in_place_still_raises_at_backward():
    def run(lib):
        y = _x(lib) * 2
        v = y[1]
        z = v * v  # saves v
        y[1:3].mul_(2)  # changes v's values through another view
        z.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_copy_slices_backward_twice_raises_as_torch():
    def run(lib):
        x = _x(lib)
        y = x * 2
        y[1].exp_()
        y.sum().backward()
        y.sum().backward()

    same_error(run, "backward through the graph a second time")


def test_inplace_on_a_view_of_a_leaf_raises_as_torch():
    same_error(lambda lib: _x(lib)[0:2].mul_(2), "a view of a leaf Variable that requires grad")


def _no_grad_view(lib):
    y = _x(lib) * 2
    with lib.no_grad():
        v = y[0]
    return y, v


def test_inplace_on_a_view_taken_in_no_grad_raises_as_torch():
    def run(lib):
        _, v = _no_grad_view(lib)
        v.mul_(2)

    same_error(run, "A view was created in no_grad mode and is being modified inplace")


def test_view_taken_in_no_grad_whose_base_changed_raises_when_used_as_torch():
    def run(lib):
        y, v = _no_grad_view(lib)
        y.add_(1)
        return v * 2

    same_error(run, "A view was created in no_grad mode and its base")


def test_inplace_on_views_without_grad_are_not_recorded():
    def run(lib):
        y = _x(lib) * 2
        with lib.no_grad():
            y[1].mul_(2)  # PyTorch records nothing; the view's grad_fn is made again
        v = y[1]
        w = y[1]
        with lib.no_grad():
            w.add_(1)
        return y, v, w

    same(run)


# ---------------------------------------------------------------------------------------------
# Random programs: views of views, in-place changes through any of them (some under no_grad),
# and uses of views taken before those changes; then a first and a second derivative.
# ---------------------------------------------------------------------------------------------

VIEWS = {
    "slice": lambda t: t[1:] if t.ndim and t.shape[0] > 1 else t[...],
    "select": lambda t: t[-1] if t.ndim and t.shape[0] else t[...],
    "t": lambda t: t.t() if t.ndim <= 2 else t.transpose(0, 1),
    "view": lambda t: t.view(-1) if t.is_contiguous() else t[...],
    "reshape": lambda t: t.reshape(-1),
    "unsqueeze": lambda t: t.unsqueeze(0),
    "every other": lambda t: t[::2] if t.ndim else t[...],
    "permute": lambda t: t.permute(*reversed(range(t.ndim))),
}


def _operand(w, t):
    return w[: t.shape[-1]] if t.ndim else w[0]


INPLACE = {
    "mul_": lambda t, w: t.mul_(-0.5),
    "add_ w": lambda t, w: t.add_(_operand(w, t)),
    "mul_ w": lambda t, w: t.mul_(_operand(w, t)),
    "exp_": lambda t, w: t.exp_(),
    "tanh_": lambda t, w: t.tanh_(),
    "sigmoid_": lambda t, w: t.sigmoid_(),
    "clamp_": lambda t, w: t.clamp_(-1.0, 2.0),
    "zero_": lambda t, w: t.zero_(),
    "copy_ w": lambda t, w: t.copy_(_operand(w, t) * 2),
    "setitem": lambda t, w: t.__setitem__(0 if t.ndim else (), 3.0),
}

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["view", "view", "inplace", "inplace", "inplace_no_grad", "use"]),
        st.integers(0, 50),
        st.sampled_from(sorted(VIEWS)),
        st.sampled_from(sorted(INPLACE)),
    ),
    min_size=1,
    max_size=6,
)


def _program(lib, steps, create_graph):
    x = lib.tensor([[0.5, -1.0, 1.5], [2.0, 0.25, -0.75], [-1.25, 1.0, 0.1], [0.3, -0.6, 0.9]], requires_grad=True)
    w = lib.tensor([1.5, -0.5, 0.75], requires_grad=True)
    y = x * 1.5
    views, used = [y], []
    for kind, pick, view, inplace in steps:
        t = views[pick % len(views)]
        if kind == "view":
            views.append(VIEWS[view](t))
        elif kind == "use":
            used.append(t * t)
        elif kind == "inplace":
            INPLACE[inplace](t, w)
        else:
            with lib.no_grad():
                INPLACE[inplace](t, w)
    weights = lib.arange(12.0).reshape(4, 3) / 7 + 1
    loss = (y * weights).sum() + sum(((v * v).sum() for v in views[1:] + used), lib.tensor(0.0))
    gx, gw = lib.autograd.grad(loss, [x, w], create_graph=create_graph, allow_unused=True)
    out = [*views, *used, gx, gw]
    if create_graph and gx.requires_grad:
        out += lib.autograd.grad((gx * gx).sum(), [x, w], allow_unused=True)
    return out


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(steps=STEPS, create_graph=st.booleans())
def test_random_programs_of_views_and_inplace_match_torch(steps, create_graph):
    def run(lib):
        try:
            return _program(lib, steps, create_graph)
        except RuntimeError as error:  # both must raise alike (e.g. an in-place op on an expanded view)
            return type(error).__name__

    same(run)
