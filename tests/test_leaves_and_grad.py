"""requires_grad, grad_fn, is_leaf, .grad and printing, checked against real PyTorch."""

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, cpu_repr, same_error, values  # noqa: E402

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")

LIBS = pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])


# Tensors compare as ("tensor", dtype, shape, values within a float32 tolerance, requires_grad,
# is_leaf, the grad_fn's class name).
same = Oracle(
    lambda t: (
        "tensor",
        str(t.dtype),
        tuple(t.shape),
        values(t),
        t.requires_grad,
        t.is_leaf,
        None if t.grad_fn is None else type(t.grad_fn).__name__,
    )
).same


def graph_shape(node, depth=6):
    """The backward graph below ``node`` as nested (class name, input index, children)."""
    if node is None:
        return None
    if depth == 0:
        return type(node).__name__
    return (
        type(node).__name__,
        tuple((graph_shape(n, depth - 1), i) for n, i in node.next_functions),
    )


# --------------------------------------------------------------------------- requires_grad


def test_requires_grad_defaults_to_false():
    same(lambda lib: [lib.tensor([1.0, 2.0]).requires_grad, lib.ones(2).requires_grad, lib.randn(3).requires_grad])


@LIBS
def test_requires_grad_propagates_when_any_input_requires_it(lib):
    x = lib.tensor([1.0, 2.0])
    y = lib.tensor([4.0, 5.0])
    z = lib.tensor([7.0, 3.0])
    assert (x + y).requires_grad is False
    z.requires_grad = True
    assert (x + z).requires_grad is True
    assert (z * 2).requires_grad is True
    assert (x * y * z).sum().requires_grad is True
    assert (x * y).sum().requires_grad is False


def test_requires_grad_propagation_matches_torch():
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0])
        return [a * b, b * b, (a + b).sum(), b.exp(), a.exp(), lib.stack([a, b]), lib.cat([b, b])]

    same(run)


def test_requires_grad_method_returns_self_and_sets_flag():
    def run(lib):
        t = lib.tensor([1.0, 2.0])
        r = t.requires_grad_()
        assert r is t
        u = lib.tensor([1.0]).requires_grad_(False)
        return [t, u]

    same(run)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.tensor([1, 10]),
        lambda lib: lib.arange(3),
        lambda lib: lib.tensor([True, False]),
        lambda lib: lib.zeros(2, dtype=lib.int32),
    ],
    ids=["int64", "arange", "bool", "int32"],
)
def test_only_floating_tensors_can_require_grad(make):
    def set_flag(lib):
        make(lib).requires_grad = True

    same_error(set_flag, "floating point")
    same_error(lambda lib: make(lib).requires_grad_(), "floating point")


def test_factory_requires_grad_on_integers_raises():
    same_error(lambda lib: lib.tensor([1, 2], requires_grad=True), "floating point")
    same_error(lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True), "floating point")


def test_setting_requires_grad_false_on_integer_is_fine():
    same(lambda lib: lib.tensor([1, 2]).requires_grad_(False))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_every_floating_dtype_can_require_grad(dtype):
    same(lambda lib: lib.tensor([1.0, 2.0], dtype=getattr(lib, dtype), requires_grad=True))


# --------------------------------------------------------------------------- grad_fn names

OPS = {
    "mul": lambda lib, x, y: x * y,
    "mul_scalar": lambda lib, x, y: x * 0.5,
    "rmul_scalar": lambda lib, x, y: 2 * x,
    "add": lambda lib, x, y: x + y,
    "add_scalar": lambda lib, x, y: x + 1,
    "sub": lambda lib, x, y: x - y,
    "rsub": lambda lib, x, y: 1 - x,
    "div": lambda lib, x, y: x / y,
    "rdiv": lambda lib, x, y: 1 / x,
    "neg": lambda lib, x, y: -x,
    "pow": lambda lib, x, y: x.pow(2),
    "pow_op": lambda lib, x, y: x**3,
    "pow_tensor": lambda lib, x, y: x**y,
    "rpow": lambda lib, x, y: 2**x,
    "sum": lambda lib, x, y: x.sum(),
    "sum_dim": lambda lib, x, y: x.sum(0),
    "mean": lambda lib, x, y: x.mean(),
    "mean_dim": lambda lib, x, y: x.mean(1),
    "abs": lambda lib, x, y: x.abs(),
    "exp": lambda lib, x, y: x.exp(),
    "log": lambda lib, x, y: x.log(),
    "sqrt": lambda lib, x, y: x.sqrt(),
    "sin": lambda lib, x, y: x.sin(),
    "cos": lambda lib, x, y: x.cos(),
    "tanh": lambda lib, x, y: x.tanh(),
    "torch_tanh": lambda lib, x, y: lib.tanh(x),
    "sigmoid": lambda lib, x, y: x.sigmoid(),
    "relu": lambda lib, x, y: x.relu(),
    "clamp": lambda lib, x, y: x.clamp(min=0.5),
    "max": lambda lib, x, y: x.max(),
    "norm": lambda lib, x, y: x.norm(),
    "double": lambda lib, x, y: x.double(),
    "to_dtype": lambda lib, x, y: x.to(lib.float64),
    "half": lambda lib, x, y: x.half(),
    "mm": lambda lib, x, y: x.mm(y.t()),
    "matmul_2d": lambda lib, x, y: x @ y.t(),
    "mv": lambda lib, x, y: x @ y[0],
    "dot": lambda lib, x, y: x[0].dot(y[0]),
    "t": lambda lib, x, y: x.t(),
    "transpose": lambda lib, x, y: x.transpose(0, 1),
    "permute": lambda lib, x, y: x.permute(1, 0),
    "view": lambda lib, x, y: x.view(6),
    "reshape": lambda lib, x, y: x.reshape(3, 2),
    "unsqueeze": lambda lib, x, y: x.unsqueeze(0),
    "squeeze": lambda lib, x, y: x.unsqueeze(0).squeeze(0),
    "expand": lambda lib, x, y: x[:1].expand(4, 3),
    "select": lambda lib, x, y: x[0],
    "slice": lambda lib, x, y: x[:, 1:],
    "index": lambda lib, x, y: x[[0, 1, 0]],
    "clone": lambda lib, x, y: x.clone(),
    "cat": lambda lib, x, y: lib.cat([x, y]),
    "stack": lambda lib, x, y: lib.stack([x, y]),
    "softmax": lambda lib, x, y: x.softmax(dim=1),
    "log_softmax": lambda lib, x, y: x.log_softmax(dim=1),
    "where": lambda lib, x, y: lib.where(x > 1, x, y),
    "maximum": lambda lib, x, y: lib.maximum(x, y),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_grad_fn_class_and_name_match_torch(name):
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = lib.tensor([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]], requires_grad=True)
        out = OPS[name](lib, x, y)
        return out, type(out.grad_fn).__name__, out.grad_fn.name()

    result = same(run)
    assert result[1] == result[2]  # name() is the class name for ordinary nodes


def test_leaves_have_no_grad_fn():
    same(lambda lib: [lib.tensor(1.0).grad_fn, lib.tensor(1.0, requires_grad=True).grad_fn])


def test_lecture_next_functions_example():
    def run(lib):
        x = lib.tensor([1.0, -2.0, 3.0, -4.0]).requires_grad_()
        a = x.abs()
        s = a.sum()
        first = s.grad_fn.next_functions
        second = first[0][0].next_functions
        assert isinstance(first, tuple) and isinstance(first[0], tuple)
        assert second[0][0].variable is x
        return s, graph_shape(s.grad_fn), cpu_repr(s)

    shape = same(run)
    assert shape[1] == ("SumBackward0", ((("AbsBackward0", ((("AccumulateGrad", ()), 0),)), 0),))
    assert shape[2] == "tensor(10., grad_fn=<SumBackward0>)"


def test_next_functions_use_none_for_inputs_that_need_no_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([3.0, 4.0])
        return graph_shape((x * c).grad_fn), graph_shape((c * x).grad_fn), graph_shape((c * x + x).grad_fn)

    result = same(run)
    assert result[0] == ("MulBackward0", ((("AccumulateGrad", ()), 0), (None, 0)))


def test_next_functions_of_larger_graph_match_torch():
    def run(lib):
        w1 = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b1 = lib.tensor([0.5, -0.5], requires_grad=True)
        x = lib.tensor([1.0, -1.0])
        h = lib.tanh(w1 @ x + b1)
        loss = (h - x).pow(2).mean()
        return loss, graph_shape(loss.grad_fn, depth=10)

    same(run)


def test_one_accumulate_grad_node_per_leaf():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        left, right = y.grad_fn.next_functions
        assert left[0] is right[0]  # the same leaf reaches the graph through one node
        z = x.exp()
        assert z.grad_fn.next_functions[0][0] is left[0]
        return graph_shape(y.grad_fn)

    same(run)


def test_multi_output_index_in_next_functions():
    def run(lib):
        x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
        m = x.reshape(3, 1).max(dim=1)
        return graph_shape((m.values * 2).grad_fn)

    same(run)


# --------------------------------------------------------------------------- is_leaf


def test_is_leaf_rules_match_torch():
    def run(lib):
        a = lib.tensor([1.0, 2.0])
        b = lib.tensor([1.0, 2.0], requires_grad=True)
        c = a * 2  # no input requires grad: still a leaf
        d = b * 2
        e = b.double()
        f = b.to(lib.float64)
        g = b.float()  # nothing to convert: b itself
        h = b.detach()
        with lib.no_grad():
            i = b * 2
        return [x.is_leaf for x in (a, b, c, d, e, f, g, h, i)], g is b

    assert same(run) == ([True, True, True, False, False, False, True, True, True], True)


def test_forum_leaf_examples():
    def run(lib):
        a = lib.randn(2, 4)
        b = lib.randn(4, 2)
        c = a.mm(b)
        first = tuple(t.is_leaf for t in (a, b, c))
        a = lib.randn(2, 4).requires_grad_()
        c = a.mm(b)
        second = tuple(t.is_leaf for t in (a, b, c))
        return first, second

    assert same(run) == ((True, True, True), (True, True, False))


@pytest.mark.parametrize("value", [True, False])
def test_changing_requires_grad_of_non_leaf_raises(value):
    def run(lib):
        y = lib.tensor([1.0], requires_grad=True) * 2
        y.requires_grad = value

    same_error(run, "you can only change requires_grad flags of leaf variables")


def test_cast_result_is_not_leaf_and_gets_no_grad():
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True).double()
        loss = (a * a).sum()
        loss.backward()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return a.is_leaf, a.grad, a.grad_fn.name()

    assert same(run) == (False, None, "ToCopyBackward0")


def test_cast_gradient_flows_back_in_original_dtype():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x.double() * 3).sum().backward()
        return x.grad

    assert same(run)[1] == "torch.float32"


# --------------------------------------------------------------------------- .grad


def test_backward_fills_grad_only_on_leaves_that_require_it():
    def run(lib):
        x = lib.tensor(1.0, requires_grad=True)
        y = lib.tensor(2.0)
        z = x * y
        w = lib.tensor(3.0).requires_grad_(False)
        o = z * w
        o.backward()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [x.grad, y.grad, z.grad, w.grad]

    result = same(run)
    assert result[0][3].tolist() == 6.0
    assert result[1:] == [None, None, None]


def test_reading_grad_of_non_leaf_warns_and_names_the_op():
    messages = {}
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        y.sum().backward()
        with pytest.warns(UserWarning, match=r"retain_grad\(\)") as record:
            assert y.grad is None
        messages[lib.__name__] = str(record[0].message)
    # ours also names the operation that produced the tensor
    assert "ExpBackward0" in messages["minigrad"]
    assert "not a leaf Tensor" in messages["minigrad"] and "not a leaf Tensor" in messages["torch"]


def test_reading_grad_of_leaf_does_not_warn():
    x = minigrad.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None
        assert minigrad.tensor([1.0]).grad is None


def test_retain_grad_keeps_non_leaf_gradient():
    def run(lib):
        x = lib.tensor(3.0, requires_grad=True)
        a = lib.tensor(4.0, requires_grad=True)
        b = lib.tensor(5.0, requires_grad=True)
        y = a * x
        y.retain_grad()
        z = y * y + b
        z.backward()
        return [x.grad, a.grad, b.grad, y.grad, y.retains_grad, x.retains_grad]

    result = same(run)
    assert result[3][3].tolist() == 24.0


def test_retain_grad_on_leaf_is_a_noop():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.retain_grad()
        (x * x).sum().backward()
        return x.grad, x.retains_grad

    same(run)


def test_retain_grad_without_requires_grad_raises():
    same_error(lambda lib: lib.tensor([1.0]).retain_grad(), "retain_grad", "requires_grad=False")


def test_retained_grad_accumulates_across_backward_calls():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.retain_grad()
        z = (y * y).sum()
        z.backward(retain_graph=True)
        z.backward()
        return y.grad, x.grad

    same(run)


@pytest.mark.parametrize("hook_first", [True, False])
def test_retained_grad_reflects_hooks_in_either_order(hook_first):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        if hook_first:
            y.register_hook(lambda g: g * 10)
            y.retain_grad()
        else:
            y.retain_grad()
            y.register_hook(lambda g: g * 10)
        (y * y).sum().backward()
        return y.grad, x.grad

    result = same(run)
    assert result[0][3].tolist() == [40.0, 80.0]


def test_classic_non_leaf_update_bug_raises_type_error():
    def run(lib):
        a = lib.tensor(5.0, requires_grad=True) * 0.1
        b = lib.tensor(2.0, requires_grad=True)
        c = a + b
        c.backward()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a += +0.1 * a.grad

    same_error(run, "unsupported operand type(s) for *: 'float' and 'NoneType'")


def test_classic_bug_fixed_by_setting_requires_grad_after_the_op():
    def run(lib):
        a = lib.tensor(5.0) * 0.1
        b = lib.tensor(2.0, requires_grad=True)
        a.requires_grad = True
        c = a + b
        c.backward()
        with lib.no_grad():
            a += +0.1 * a.grad
        return a, a.grad, b.grad, a.is_leaf

    same(run)


def test_assigning_grad_checks_shape_and_can_clear():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.grad = lib.tensor([3.0, 4.0])
        kept = x.grad.clone()
        x.grad = None
        return kept, x.grad

    same(run)

    def bad(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.grad = lib.tensor([1.0, 2.0, 3.0])

    same_error(bad, "size")


# --------------------------------------------------------------------------- printing


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.tensor(5.0, requires_grad=True),
        lambda lib: lib.tensor(1.0, requires_grad=True) * 0.5,
        lambda lib: lib.tensor(3.0, requires_grad=True) + lib.tensor([4.0, 2.0], requires_grad=True),
        lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True),
        lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float16, requires_grad=True),
        lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True) * 2,
        lambda lib: lib.tensor([1, 2], dtype=lib.int32),
        lambda lib: lib.tensor([1, 2]),
        lambda lib: lib.tensor([True, False]),
        lambda lib: lib.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True).abs().sum(),
        lambda lib: lib.tensor([[1.0, 2.5], [3.0, 4.0]], requires_grad=True).mean(),
        lambda lib: lib.tensor([0.1, 0.2], requires_grad=True).exp(),
        lambda lib: lib.tensor([1.0, 2.0], requires_grad=True).double(),
        lambda lib: lib.tensor([1.0, 2.0], requires_grad=True).detach(),
        lambda lib: lib.tensor(-8.2480e-08, requires_grad=True),
        lambda lib: lib.tensor([1.0e-5, 1.0], requires_grad=True) * 1,
        lambda lib: lib.tensor(np.linspace(-3, 3, 12).reshape(3, 4).astype(np.float32), requires_grad=True) * 2,
        lambda lib: lib.arange(30.0, requires_grad=True) * 1.5,  # wraps over several lines
        lambda lib: lib.tensor(np.arange(20.0) / 7, dtype=lib.float64, requires_grad=True).exp(),
        lambda lib: lib.zeros(0, 3, requires_grad=True),
        lambda lib: lib.tensor(float("nan"), requires_grad=True),
        lambda lib: lib.ones(2, 2, requires_grad=True).sum(0),
        lambda lib: lib.ones(1100).reshape(2, 550) * 1,  # summarized with ...
    ],
)
def test_printing_matches_torch(make, device):
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here, so it cannot print a GPU tensor to compare with")
    ours, theirs = repr(make(minigrad)), repr(make(torch))
    assert ours == theirs
    assert str(make(minigrad)) == theirs


def test_printing_examples_from_the_brief(device):
    on = "" if device == "cpu" else f", device='{minigrad.get_default_device()}'"  # PyTorch: the device first
    assert repr(minigrad.tensor(5.0, requires_grad=True)) == f"tensor(5.{on}, requires_grad=True)"
    half = minigrad.tensor(1.0, requires_grad=True) * 0.5
    assert repr(half) == f"tensor(0.5000{on}, grad_fn=<MulBackward0>)"
    x = minigrad.tensor(3.0, requires_grad=True)
    a = minigrad.tensor([4.0, 2.0], requires_grad=True)
    assert repr(x + a) == f"tensor([7., 5.]{on}, grad_fn=<AddBackward0>)"


def test_grad_fn_repr_looks_like_torch():
    x = minigrad.tensor([1.0], requires_grad=True)
    text = repr((x * 2).grad_fn)
    assert text.startswith("<MulBackward0 object at 0x")
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert repr(acc).startswith("<AccumulateGrad object at 0x")
    assert f"{(x * 2).grad_fn}".startswith("<MulBackward0 object at 0x")


@pytest.mark.parametrize("spec", ["", ".2f", ".3e", ">12"])
def test_format_of_zero_dim_tensor_is_its_number(spec):
    # f"{t}" shows a 0-d tensor as a Python number in PyTorch; larger tensors use their repr.
    def run(lib):
        scalar = lib.tensor(2.5, requires_grad=True)
        return (
            format(scalar, spec),
            format(scalar * 2, spec),
            cpu_repr(lib.tensor([1.0, 2.0]), f"{lib.tensor([1.0, 2.0])}"),
        )

    same(run)


def test_grad_kept_with_create_graph_is_a_copy_recorded_as_copybackwards():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        given = lib.tensor([1.0, 1.0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch warns about the reference cycle this makes
            (x**3).sum().backward(create_graph=True)
            first = x.grad
            edges = [type(n).__name__ if n is not None else None for n, _ in first.grad_fn.next_functions]
            (x**3).sum().backward(create_graph=True)
            second = x.grad
            x.grad = None
            x.backward(given, create_graph=True)
        return first, edges, second, x.grad is given, x.grad

    same(run)


@pytest.mark.parametrize("switch_off", ["requires_grad_", "detach_"])
def test_a_leaf_switched_off_after_the_forward_gets_no_grad(switch_off):
    def run(lib):
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        y = (x.relu() * 3).sum()
        if switch_off == "detach_":
            x.detach_()
        else:
            x.requires_grad_(False)
        y.backward()
        return x.grad is None

    assert same(run) is True


RETAIN_THEN_CHANGE = {
    "in place on the tensor": lambda h, v: h.mul_(2),
    "through a view of it": lambda h, v: h[0].fill_(5),
    "an indexed assignment": lambda h, v: h.__setitem__(0, 5.0),
    "on its base, read through the view": lambda h, v: h.mul_(2),
    "used before the change": lambda h, v: h.add_(1),
}


@pytest.mark.parametrize("name", RETAIN_THEN_CHANGE)
def test_retain_grad_follows_an_in_place_change(name):
    # PyTorch moves a tensor's retain_grad() to the grad_fn an in-place change gives it, so .grad
    # is the gradient of the new version (tensor hooks registered before stay on the old one).
    def run(lib):
        w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        h = w * 1
        v = h[:2]
        kept = v if name == "on its base, read through the view" else h
        kept.retain_grad()
        early = h * 3
        RETAIN_THEN_CHANGE[name](h, v)
        loss = (kept * kept).sum() + (early.sum() if name == "used before the change" else 0)
        loss.backward()
        return kept.grad, w.grad

    Oracle(values).same(run)
