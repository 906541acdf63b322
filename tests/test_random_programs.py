"""Short programs where a differential fuzz of random whole programs (views, in-place changes,
leaves made with ``reshape(...).requires_grad_()``, custom Functions, several backward passes,
``retain_grad`` with ``create_graph``, writes into ``expand``ed tensors) found minigrad doing
otherwise than PyTorch. Each program runs with ``lib`` = minigrad and torch,
and returns what a user could observe: values, ``requires_grad``, node names, gradients, strides.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, values  # noqa: E402


def _name(node) -> str | None:
    return None if node is None else node.name()


def _view(t):
    return (str(t.dtype), tuple(t.shape), t.requires_grad, t.is_leaf, _name(t.grad_fn), values(t))


same = Oracle(_view).same


def _leaf_view(lib, shape=(1, 1, 4)):
    """A leaf that is itself a view (of the tensor that ``tensor()`` made), as random programs and
    users write them: ``torch.tensor(data).reshape(shape).requires_grad_()``."""
    return lib.tensor([1.0, -2.0, 3.0, 0.5]).reshape(shape).requires_grad_()


def _then_leaf_changed_under_no_grad(view):
    def run(lib):
        x = _leaf_view(lib)
        v = view(x)
        with lib.no_grad():
            x.mul_(2)  # an optimizer's step: v is a stale view now, of a base needing no gradient
        node = v.grad_fn
        edges = [(_name(fn), nr) for fn, nr in node.next_functions]
        w = v * 3  # recorded: v still requires grad
        w.sum().backward()  # the new node leads nowhere: PyTorch loses the gradient, silently
        return v, edges, w, x.grad

    return run


@pytest.mark.parametrize(
    "view",
    [
        lambda x: x.squeeze(),
        lambda x: x[0],
        lambda x: x.view(-1),
        lambda x: x.permute(2, 1, 0),
        lambda x: x.expand(2, 1, 1, 4),
        lambda x: x[..., 1:],
    ],
    ids=["squeeze", "select", "view", "permute", "expand", "slice"],
)
def test_a_view_of_a_leaf_view_keeps_requiring_grad_after_the_leaf_changes_in_place(view):
    assert same(_then_leaf_changed_under_no_grad(view))[0][2] is True


def test_a_view_of_a_leaf_view_changed_through_detach_keeps_requiring_grad():
    def run(lib):
        x = _leaf_view(lib)
        v = x.permute(2, 1, 0)
        x.detach()[...].fill_(2)  # a change autograd does not see; the version counter does
        return v, v[0], x.requires_grad

    same(run)


def test_retain_grad_on_a_stale_view_of_a_leaf_view():
    def run(lib):
        x = _leaf_view(lib, (4,))
        v = x[1]
        v.retain_grad()
        with lib.no_grad():
            v.clamp_(-1, 1)
        (v * 2).backward()
        return v, v.grad, x.grad

    same(run)


def test_a_refused_mark_dirty_on_a_leaf_view_leaves_its_gradient_alone():
    def run(lib):
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                return x.mul_(2)

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        x = _leaf_view(lib, (4,))
        x.backward(lib.ones_like(x), retain_graph=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used in an in-place"):
            Double.apply(x)
        first = x.grad.clone()
        x.sum().backward()  # accumulates into the gradient of the first backward
        return first, x.grad, x._version

    same(run)


@pytest.mark.parametrize(
    "change",
    [lambda x: x.unsqueeze_(0), lambda x: x.t_()],
    ids=["unsqueeze_", "t_"],
)
def test_a_leaf_that_changed_shape_in_place_after_the_forward_pass(change):
    # The gradient (of the old shape) is copied into .grad (the graph keeps it as well, so it is
    # not taken as it is): PyTorch broadcasts it to the leaf's new shape, or says it cannot.
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        y = x.exp()
        y.retain_grad()
        with lib.no_grad():
            change(x)
        try:
            y.backward(lib.ones_like(y))
        except RuntimeError as e:
            return str(e)
        return x.grad

    same(run)


@pytest.mark.parametrize(
    ("shape", "size"),
    [
        ((3,), (1, 3)),
        ((3,), (2, 1, 3)),
        ((3, 1), (3, 1)),
        ((2, 1), (1, 2, 1)),
        ((3,), (1, 1, 3)),
    ],
)
def test_expand_strides_where_a_size_is_one(shape, size):
    def run(lib):
        x = lib.zeros(shape)
        e = x.expand(size)
        stride = e.stride()
        if x.numel() == e.numel():  # nothing expanded: it may be written into
            e.fill_(2)
            e.add_(1)
        return stride, e, x

    same(run)


def test_expand_of_a_result_laid_out_as_its_permuted_input():
    # the array that owns the memory is a transposed block (NumPy lays out a product as its
    # input): the expanded view still sees it, and a write into the expanded part is allowed
    def run(lib):
        a = lib.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1) * 2
        e = a[:, :1].expand(4, 1, 3)
        stride = e.stride()
        e.mul_(3)
        return stride, e, a

    same(run)


def test_setitem_of_a_tensor_into_its_own_unsqueezed_view():
    # x broadcast to (1, 3) lies where x.unsqueeze(0) lies, in the same layout: PyTorch's copy is
    # allowed (a full overlap), where a copy_ of x itself is refused (a partial one).
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0])
        v = x.unsqueeze(0)
        v[...] = x
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            v.copy_(x)
        return v

    same(run)


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_a_rounded_division_saves_its_operands(mode):
    # Its gradients are zeros, yet PyTorch's DivBackward2 saves self and other: a later in-place
    # change of them makes backward raise.
    def run(lib):
        y = lib.tensor([1.5, -2.5, 4.0], requires_grad=True) * 1
        q = lib.div(y, y, rounding_mode=mode)
        saved = [k for k in ("_saved_self", "_saved_other") if hasattr(q.grad_fn, k)]
        y[0] = 7.0
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            q.sum().backward()
        return saved

    assert same(run) == ["_saved_self", "_saved_other"]


def test_the_double_backward_of_index_select_adds_into_zeros():
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=lib.float64, requires_grad=True)
        y = x.index_select(0, lib.tensor([0, 0, 2]))
        (g,) = lib.autograd.grad(y.pow(3).sum(), x, create_graph=True)
        g.sum().backward()
        return g, x.grad

    same(run)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_retain_grad_keeps_a_recorded_copy_with_create_graph():
    # PyTorch's retain_grad hook clones the gradient (CloneBackward0) and adds the next one
    # (AddBackward0), in the grad mode of the backward pass; the copy is row-major.
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = x.neg().t()
        y.retain_grad()
        z = y * y
        z.backward(lib.ones_like(z), create_graph=True)
        first = y.grad
        z.backward(lib.ones_like(z), create_graph=True)
        y.grad.sum().backward()
        return first, y.grad, x.grad, y.grad.stride()

    same(run)


@pytest.mark.parametrize(
    "write",
    [
        lambda g, lib: g.__setitem__(lib.tensor([0]), 1.5),
        lambda g, lib: g.__setitem__(g > 0, lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])),
        lambda g, lib: g.__setitem__(([0, 1], [0, 1]), lib.tensor([5.0, 6.0])),
        lambda g, lib: g.index_put_((lib.tensor([0]),), lib.tensor(3.0)),
        lambda g, lib: g.masked_fill_(lib.tensor([[True, False, False], [False, False, True]]), 2.5),
        lambda g, lib: g.index_fill_(1, lib.tensor([1]), -1.0),
    ],
    ids=["index", "mask", "pairs", "index_put_", "masked_fill_", "index_fill_"],
)
def test_writes_that_index_into_an_expanded_gradient(write):
    # The gradient of a sum is an expand()ed tensor; PyTorch's index_put_, masked_fill_ and
    # index_fill_ still write into it (only where they index, the last write winning), with a
    # deprecation warning.
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        (g,) = lib.autograd.grad(x.sum(), x)
        with pytest.warns(UserWarning, match="on expanded tensors is deprecated"):
            write(g, lib)
        return g, g.stride()

    same(run)
