"""Short programs where a differential fuzz of random whole programs (views, in-place changes,
leaves made with ``reshape(...).requires_grad_()``, custom Functions, several backward passes,
``retain_grad`` with ``create_graph``, writes into ``expand``ed tensors) found minigrad doing
otherwise than PyTorch. Each program runs with ``lib`` = minigrad and torch,
and returns what a user could observe: values, ``requires_grad``, node names, gradients, strides.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402


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


# --- a second round: dtype promotion, reductions over dim lists and empty tensors, grad bookkeeping ---


@pytest.mark.parametrize(
    ("data", "dtype", "reduce"),
    [
        ([0.0, 2000.0], "float16", lambda lib, x: x.std()),  # the variance overflows float16, its root does not
        ([[1.5, 2.25, 7.0], [0.1, -1.66, 3.0]], "float16", lambda lib, x: x.var(1)),  # rounded once, not twice
        ([[1.0, 2000.0], [0.5, 3.0]], "float16", lambda lib, x: list(lib.std_mean(x, 1))),
        ([1e31, -1e31, 5e30], "float32", lambda lib, x: x.std()),  # squares beyond float32, summed in float64
    ],
)
def test_std_and_var_sum_their_squares_in_a_wider_type(data, dtype, reduce):
    # PyTorch's CPU kernels sum float16 squares in float32 and float32 squares in float64 (around
    # the float32 mean), and take std's square root before the cast back: exact results.
    def run(lib):
        out = reduce(lib, lib.tensor(data, dtype=getattr(lib, dtype)))
        return [t.tolist() for t in out] if isinstance(out, list) else out.tolist()

    same(run)


@pytest.mark.parametrize(
    "product",
    [
        lambda lib: lib.tensordot(lib.tensor([7], dtype=lib.int16), lib.tensor([3], dtype=lib.int16), dims=1),
        lambda lib: lib.inner(lib.tensor([[100]], dtype=lib.int32), lib.tensor([[3]], dtype=lib.int32)),
        lambda lib: lib.tensordot(lib.tensor([3], dtype=lib.uint8), lib.tensor([200], dtype=lib.uint8), dims=1),
    ],
    ids=["int16", "int32", "uint8"],
)
def test_tensordot_over_a_dim_of_one_keeps_a_small_integer_dtype(product):
    same(product)


def test_rsub_of_two_tensors_is_its_own_node_and_a_number_first_is_refused():
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        y = lib.tensor([[4.0], [5.0]], requires_grad=True)
        z = lib.rsub(x, y, alpha=2)
        z.sum().backward()
        return z, x.grad, y.grad, lib.rsub(x, lib.tensor(2.0))

    same(run)
    same_error(lambda lib: lib.rsub(2, lib.ones(2)), "rsub()", "invalid combination of arguments")


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda x: x.prod(None), ("prod()", "NoneType")),
        (lambda x: x.median(None), ("median()", "'dim'", "NoneType")),
        (lambda x: x.nanmedian(dim=None), ("'dim'", "NoneType")),
        (lambda x: x.logsumexp(None), ("logsumexp()", "tuple of ints", "NoneType")),
    ],
    ids=["prod", "median", "nanmedian", "logsumexp"],
)
def test_a_dim_given_as_none_is_refused_where_pytorch_has_no_such_overload(call, words):
    same_error(lambda lib: call(lib.ones(2, 3)), *words)
    same(lambda lib: [lib.ones(2, 3).prod(), lib.ones(2, 3).median(), lib.ones(2, 3).logsumexp([], keepdim=True)])


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_a_running_sum_or_product_into_bool_has_no_kernel(name):
    same_error(lambda lib: getattr(lib.tensor([1, 2]), name)(0, dtype=lib.bool), f'"{name}_out_cpu" not implemented')
    # on a 0-d or an empty tensor no kernel runs
    same(lambda lib: [getattr(t, name)(0, dtype=lib.bool) for t in (lib.tensor(5), lib.zeros(0, 2))])


def test_logsumexp_over_an_empty_list_of_dims_fails_as_in_pytorch():
    # PyTorch reduces every dim but adds the maxima kept with all dims: a shape mismatch
    same_error(
        lambda lib: lib.ones(2, 3).logsumexp([]), "output with shape [] doesn't match the broadcast shape [1, 1]"
    )
    same(
        lambda lib: [
            lib.ones(2, 3).logsumexp([], keepdim=True),
            lib.tensor(2.0).logsumexp([]),
            lib.ones(0, 3).logsumexp(()),
        ]
    )


def test_softmax_of_an_empty_integer_tensor_still_checks_its_dim():
    same_error(lambda lib: lib.zeros(0, 3, dtype=lib.int8).softmax((0, 1)), "softmax()", "must be int, not tuple")
    same_error(lambda lib: lib.zeros(0, 3, dtype=lib.int8).log_softmax(2), "Dimension out of range")


def test_an_in_place_op_on_an_expanded_empty_tensor_writes_nothing():
    def run(lib):
        e = lib.zeros(0, 3).expand(1, 0, 3)
        return e.mul_(lib.ones(3)), e.add_(1), e.copy_(lib.ones(3))

    same(run)


@pytest.mark.parametrize(
    "write",
    [
        lambda x, lib: x.scatter_(0, lib.tensor([0, 0, 1]), x.detach()),
        lambda x, lib: x.scatter_add_(0, lib.tensor([0, 0, 1]), x),
        lambda x, lib: x.scatter_reduce_(0, lib.tensor([0, 0, 1]), x, "sum"),
        lambda x, lib: x.index_add_(0, lib.tensor([0, 1, 2]), x),
        lambda x, lib: x.index_copy_(0, lib.tensor([2, 1, 0]), x),
        lambda x, lib: x.index_reduce_(0, lib.tensor([0, 1, 2]), x, "prod"),
        lambda x, lib: x.index_put_((lib.tensor([0, 1, 2]),), x),
        lambda x, lib: x.put_(lib.tensor([2, 1, 0]), x),
    ],
    ids=[
        "scatter_",
        "scatter_add_",
        "scatter_reduce_",
        "index_add_",
        "index_copy_",
        "index_reduce_",
        "index_put_",
        "put_",
    ],
)
def test_scatter_and_index_writes_refuse_a_source_that_is_the_target(write):
    # a full overlap too (not only a partial one, as elementwise in-place ops refuse)
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0])
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            write(x, lib)
        return x, x._version

    same(run)


def test_the_mean_part_of_var_mean_backward_divides_by_a_number():
    # PyTorch's formula divides by the count in C++ (DivBackward1), as mean's does
    def run(lib):
        x = lib.tensor([0.898, -1.137, -0.829], requires_grad=True)
        m = lib.var_mean(x, None, keepdim=True)[1]
        (g,) = lib.autograd.grad((lib.tensor([1.0, 2.0]) / m).sum(), x, create_graph=True)
        return g

    same(run)


@pytest.mark.parametrize(
    "call",
    [lambda x: x.view(), lambda x: x.reshape(), lambda x: x.repeat(), lambda x: x.view(*x.shape)],
    ids=["view", "reshape", "repeat", "view-of-no-dims"],
)
def test_a_shape_left_out_is_refused(call):
    same_error(lambda lib: call(lib.tensor(2.0)), "()")
    same(lambda lib: [lib.tensor(2.0).view(()), lib.tensor(2.0).reshape([]), lib.tensor(2.0).repeat(())])


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.arange(24.0).reshape(2, 3, 4).transpose(0, 2),
        lambda lib: lib.arange(6.0).reshape(2, 3).t(),
        lambda lib: lib.ones(3, 4)[:, ::2],
    ],
    ids=["transposed", "t", "with-gaps"],
)
def test_a_gradient_made_with_create_graph_follows_the_layout_contract(make):
    # PyTorch copies it into an empty tensor laid out as the leaf (CopyBackwards), or clones it
    # row-major where the leaf has gaps (CloneBackward0); the gradient that arrives is row-major
    def run(lib):
        x = make(lib).detach().requires_grad_()
        y = x.contiguous()
        (y * y).sum().backward(create_graph=True)
        return x.grad.detach(), x.grad.stride(), x.grad.grad_fn.name().replace("torch::autograd::", "")

    same(run)


@pytest.mark.parametrize(("left", "right"), [("int64", "int8"), ("float32", "int64")])
def test_a_mixed_dtype_product_with_an_expanded_operand_is_row_major(left, right):
    # the expanded operand is cast inside the op: its cast is dense, column-major, yet PyTorch's
    # layout follows the operands as given
    def run(lib):
        a = lib.tensor([[3], [-3]], dtype=getattr(lib, left))
        b = lib.tensor([100, 0, -2], dtype=getattr(lib, right)).expand(2, 3)
        return a * b, (a * b).stride(), lib.add(a, b).stride()

    same(run)
