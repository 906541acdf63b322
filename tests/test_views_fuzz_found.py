"""Views, in-place changes and version counters where a differential fuzz against PyTorch found
minigrad doing otherwise: views taken under ``no_grad`` or ``inference_mode``, views whose base
changed in place since, the views of ``unbind``/``split``, inference tensors, ``unfold`` and
``copy_``. Each snippet runs with ``lib`` = minigrad and torch.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_opening, values  # noqa: E402


def _name(node) -> str | None:
    return None if node is None else node.name()


same = Oracle(values).same


def _stale_no_grad_view(lib):
    """A view of a leaf taken under no_grad, whose storage then changed (so its node is stale)."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        v = x[:2]
    x.detach().add_(1)  # a change PyTorch's autograd does not see, but the version counter does
    return x, v


def test_a_stale_view_taken_under_no_grad_can_still_be_read_and_flagged():
    # PyTorch reads the node as it is for .grad, requires_grad_(), `requires_grad =` and
    # retain_grad(); only grad_fn (and is_leaf, which asks for it) raise.
    def run(lib):
        x, v = _stale_no_grad_view(lib)
        v.requires_grad_()
        v.requires_grad = True
        v.retain_grad()
        return v.grad, v.requires_grad, v.retains_grad, v.requires_grad_(False) is v, v._version

    assert same(run) == (None, True, False, True, 1)


def _chunk_then_base_changed(lib):
    y = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True) * 1
    _, b = y.chunk(2)
    with lib.no_grad():
        y.add_(1)
    b.zero_()


def _no_grad_view_then_base_changed(lib):
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with lib.no_grad():
        v = x[:2]
    x.detach().add_(1)
    v.zero_()


DIRECT = {
    # PyTorch checks the view itself before it makes its stale node again: "is being modified inplace"
    "split view after its base changed": _chunk_then_base_changed,
    "no_grad view after its base changed": _no_grad_view_then_base_changed,
}


@pytest.mark.parametrize("name", sorted(DIRECT))
def test_in_place_on_a_locked_view_whose_base_changed_says_it_is_being_modified(name):
    error = same_opening(DIRECT[name], 30)
    assert "is being modified inplace" in str(error)


def _views(lib, first: str, then: str, direct: bool):
    """A view taken in mode ``first``, a view of it taken in mode ``then``, and an in-place change
    of the second (``direct``) or of the base, after which the second's node is asked for."""
    modes = {"no_grad": lib.no_grad, "inference_mode": lib.inference_mode, "grad": lib.enable_grad}
    y = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True) * 1
    with modes[first]():
        v = y[:3]
    with modes[then]():
        w = v.view(3)
    if direct:
        w.mul_(2)
    else:
        with lib.no_grad():
            y.mul_(2)
        return w.grad_fn


MODES = [(first, then) for first in ("no_grad", "inference_mode") for then in ("grad", "no_grad", "inference_mode")]


@pytest.mark.parametrize(("first", "then"), [m for m in MODES if m != ("no_grad", "no_grad")])  # (that one was right)
@pytest.mark.parametrize("direct", [True, False])
def test_views_taken_in_no_grad_or_inference_mode_refuse_in_place_changes_in_pytorchs_words(first, then, direct):
    # inference mode has words of its own, and wins over no_grad; a view taken with grad mode on
    # from such a view has a node, which the message names ("Output 0 of View is a view of a view")
    same_opening(lambda lib: _views(lib, first, then, direct), 40)


def test_a_view_of_a_split_view_taken_under_no_grad_is_named_after_its_node():
    def run(lib):
        y = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True) * 1
        with lib.no_grad():
            _, b = y.chunk(2)
        b.view(2).mul_(2)

    assert "Output 0 of View is a view of a view" in str(same_opening(run, 30))


def test_inference_tensors_have_no_views_and_their_data_is_one():
    def run(lib):
        with lib.inference_mode():
            t = lib.tensor([1.0, 2.0, 3.0, 4.0])
            inside = t[:2]
        normal = lib.tensor([1.0, 2.0])
        with lib.inference_mode():
            data_inside = normal.data
            view_inside = normal[:1]
        seen = [inside, t[:2], t.view(2, 2), t.detach(), t.data, data_inside, view_inside]
        return [(s.is_inference(), s._is_view(), s._base is not None) for s in seen]

    expected = [(True, False, False)] * 5 + [(False, False, False), (False, True, True)]
    assert same(run) == expected


def test_unbind_of_a_view_taken_under_no_grad_sends_no_gradient_through_it():
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        with lib.no_grad():
            v = x.t()
        a, b = v.unbind(1)
        c, d = v.split(2)
        edges = [_name(fn) for t in (a, c) for fn, _ in t.grad_fn.next_functions]
        return edges, a.requires_grad, c.requires_grad

    assert same(run) == ([None, None], True, True)


@pytest.mark.parametrize(
    "chain",
    [
        lambda t: t[1:].unfold(1, 2, 1),
        lambda t: t[1:].unfold(1, 2, 1).unfold(0, 1, 1),
        lambda t: t[1:].expand(2, 2, 4).unfold(2, 2, 2),
        lambda t: t[:, 1:].t().unfold(0, 2, 1)[1],
    ],
)
def test_unfold_views_keep_their_storage_offset(chain):
    same(
        lambda lib: lib.tensor(
            [chain(lib.arange(12.0).reshape(3, 4)).storage_offset(), *chain(lib.arange(12.0).reshape(3, 4)).stride()]
        )
    )


COPY_ERRORS = {
    # PyTorch checks memory overlap before it broadcasts the source
    "transposed onto itself, other shape": lambda lib: (lambda y: y.t().copy_(y))(lib.zeros(2, 3)),
    "into an expanded tensor, other shape": lambda lib: lib.zeros(3).expand(2, 3).copy_(lib.ones(4)),
}


@pytest.mark.parametrize("name", sorted(COPY_ERRORS))
def test_copy_checks_memory_overlap_before_shapes(name):
    same_opening(COPY_ERRORS[name], 12)


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_split_of_a_view_taken_in_no_grad_or_inference_mode_refuses_in_pytorchs_words(mode):
    # with grad mode on, split's multi-view rule replaces no_grad's, but not inference mode's
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with getattr(lib, mode)():
            v = x.view(-1)
        _, b = v.split(2)
        b.add_(1)

    same_opening(run, 30)


def _view_then_base_requires_grad(lib, no_grad: bool):
    """A view that requires grad only because its base does: taken under no_grad, or taken before
    ``requires_grad_()`` made its base require grad."""
    if no_grad:
        x = lib.zeros(2, 3, requires_grad=True)
        with lib.no_grad():
            return x, x[0]
    x = lib.zeros(2, 3)
    v = x[0]
    x.requires_grad_()
    return x, v


@pytest.mark.parametrize("no_grad", [False, True])
def test_a_view_that_requires_grad_only_for_its_bases_sake_passes_no_gradient(no_grad):
    def run(lib):
        x, v = _view_then_base_requires_grad(lib, no_grad)
        y = v * 2

        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        z = Twice.apply(v)
        (y.sum() + z.sum()).backward()
        edges = [_name(fn) for t in (y, z) for fn, _ in t.grad_fn.next_functions]
        return v.requires_grad, y.requires_grad, z.requires_grad, edges, x.grad, v.grad

    assert same(run) == (True, True, True, [None, None, None], None, None)


STARTS = {
    # PyTorch finds no edge to start from, or none to capture, for such a view
    "backward": lambda v, x, lib: v.backward(lib.ones(3)),
    "grad for the view": lambda v, x, lib: lib.autograd.grad((v * 2).sum(), [v]),
    "get_gradient_edge": lambda v, x, lib: lib.autograd.graph.get_gradient_edge(v),
    "in place": lambda v, x, lib: v.mul_(2),
}


@pytest.mark.parametrize(
    ("name", "no_grad"),
    [
        ("backward", True),
        ("grad for the view", False),
        ("get_gradient_edge", False),
        ("get_gradient_edge", True),
        ("in place", False),
    ],  # (the other pairs were right already)
)
def test_a_view_that_requires_grad_only_for_its_bases_sake_is_no_place_to_start_or_end(name, no_grad):
    def run(lib):
        x, v = _view_then_base_requires_grad(lib, no_grad)
        STARTS[name](v, x, lib)

    same_opening(run, 12)


def test_backward_to_a_leaf_that_was_detached_and_then_written_by_a_recorded_op_raises():
    def run(lib):
        x = lib.tensor([0.64, -0.19, 0.96], requires_grad=True)
        s = x.sigmoid()
        x.detach_()
        x[0] = s[0]  # x is no leaf any more: CopySlices
        s.sum().backward()

    same_opening(run, 8)


@pytest.mark.parametrize("op", ["copy_", "add_"])
def test_a_stale_split_view_as_an_operand_raises_before_the_shapes_are_checked(op):
    def run(lib):
        x = lib.tensor([0.57, 0.51, 0.25, 1.48], requires_grad=True)
        a, b = x.split(2)
        with lib.no_grad():
            b.copy_(a)  # a's node is stale now, and may not be made again
        getattr(lib.zeros(2, 3), op)(a)

    same_opening(run, 30)
