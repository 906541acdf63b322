"""Custom autograd.Function, gradcheck and gradgradcheck, checked against real PyTorch."""

import importlib

import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


# Tensors compare as (dtype, values rounded to 4 decimals, requires_grad).
same = Oracle(lambda t: (str(t.dtype), rounded(t, 4), t.requires_grad)).same


# Each library gets its own Function subclasses (a Function belongs to one autograd).


def make_functions(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result

    class ScaledMul(lib.autograd.Function):
        """``x * k * w`` with a Python number ``k``; records needs_input_grad."""

        @staticmethod
        def forward(ctx, x, k, w):
            ctx.k = k
            ctx.seen_needs = ctx.needs_input_grad
            ctx.save_for_backward(x, w)
            return x * k * w

        @staticmethod
        def backward(ctx, grad):
            x, w = ctx.saved_tensors
            gx = grad * ctx.k * w if ctx.needs_input_grad[0] else None
            gw = (grad * ctx.k * x).sum() if ctx.needs_input_grad[2] else None
            return gx, None, gw

    class TwoOutputs(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * x

        @staticmethod
        def backward(ctx, g_double, g_square):
            (x,) = ctx.saved_tensors
            return g_double * 2 + g_square * 2 * x

    class Power(lib.autograd.Function):
        """The ``setup_context`` style: forward does not take ctx."""

        @staticmethod
        def forward(x, p):
            return x**p

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, p = inputs
            ctx.save_for_backward(x)
            ctx.p = p

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * ctx.p * x ** (ctx.p - 1), None

    class WrongSin(lib.autograd.Function):
        """A deliberately wrong derivative (1.5 cos x)."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x.cos() * 1.5

    class DetachedBackward(lib.autograd.Function):
        """sin with a correct first derivative whose backward cannot be differentiated."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x.detach().cos()

    class WrongShape(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return lib.ones(3)

    class TooFewGrads(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, grad):
            return grad

    class WithIndex(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            mask = x > 1
            ctx.mark_non_differentiable(mask)
            return x * 2, mask

        @staticmethod
        def backward(ctx, grad, grad_mask):
            return grad * 2

    class Identity(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    return {k: v for k, v in locals().items() if k != "lib"}


@pytest.fixture(scope="module")
def fns():
    return {lib: make_functions(lib) for lib in (minigrad, torch)}


def test_apply_save_for_backward_and_saved_tensors(fns):
    def run(lib):
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        y = fns[lib]["Exp"].apply(x)
        y.sum().backward()
        on = "" if y.device.type == "cpu" else f", device='{y.device}'"
        assert on in repr(y)  # a GPU tensor says where it is, then the repr reads as on the CPU
        return y, x.grad, type(y.grad_fn).__name__, y.grad_fn.name(), repr(y).replace(on, "")

    result = same(run)
    assert result[2] == result[3] == "ExpBackward"
    assert result[4] == "tensor([1.0000, 2.7183], grad_fn=<ExpBackward>)"


def test_non_tensor_args_and_needs_input_grad(fns):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor(2.0, requires_grad=True)
        y = fns[lib]["ScaledMul"].apply(x, 3.0, w)
        y.sum().backward()
        c = lib.tensor([1.0, 2.0])
        y2 = fns[lib]["ScaledMul"].apply(c, 3.0, w)
        return x.grad, w.grad, y2.grad_fn.needs_input_grad, y2.grad_fn.seen_needs

    result = same(run)
    assert result[2] == result[3] == (False, False, True)


def test_multiple_outputs(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        a, b = fns[lib]["TwoOutputs"].apply(x)
        (a.sum() + b.sum()).backward()
        both = x.grad.clone()
        x.grad = None
        a, b = fns[lib]["TwoOutputs"].apply(x)
        b.sum().backward()  # the unused output's gradient arrives as zeros
        return both, x.grad, a.grad_fn is b.grad_fn, a.grad_fn.name()

    assert same(run)[2:] == (True, "TwoOutputsBackward")


def test_setup_context_style(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = fns[lib]["Power"].apply(x, 3)
        y.sum().backward()
        return x.grad, y.grad_fn.name()

    assert same(run)[1] == "PowerBackward"


def test_wrong_shape_gradient_raises(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        fns[lib]["WrongShape"].apply(x).sum().backward()

    same_error(run, "returned an invalid gradient at index 0", "[3]", "[2]")


def test_wrong_number_of_gradients_raises(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        fns[lib]["TooFewGrads"].apply(x, x).sum().backward()

    same_error(run, "returned an incorrect number of gradients", "expected 2, got 1")


def test_mark_non_differentiable(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        out, mask = fns[lib]["WithIndex"].apply(x)
        out.sum().backward()
        return out.requires_grad, mask.requires_grad, str(mask.dtype), x.grad

    same(run)


def test_input_returned_as_is_becomes_new_tensor(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = fns[lib]["Identity"].apply(x)
        y.sum().backward()
        return y is x, y.is_leaf, x.grad

    assert same(run)[0] is False


def test_apply_under_no_grad_records_nothing(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        with lib.no_grad():
            y = fns[lib]["Exp"].apply(x)
        return y, y.grad_fn

    assert same(run)[1] is None


def test_saved_tensors_freed_after_backward(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = fns[lib]["Exp"].apply(x)
        y.sum().backward()
        return y.grad_fn.saved_tensors

    same_error(run, "after they have already been freed")


def test_saved_input_modified_in_place_raises(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = x * 1
        out = fns[lib]["ScaledMul"].apply(y, 2.0, lib.tensor(1.0))
        y.add_(1)
        out.sum().backward()

    same_error(run, "modified by an inplace operation", "is at version 1; expected version 0")


def test_double_backward_through_custom_function(fns):
    def run(lib):
        x = lib.tensor([1.0, 3.0], requires_grad=True)
        y = fns[lib]["Exp"].apply(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x)

    same(run)


def test_custom_function_inside_larger_graph(fns):
    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        w = lib.tensor(1.5, requires_grad=True)
        h = fns[lib]["Exp"].apply(x * 2)
        out = fns[lib]["ScaledMul"].apply(h, 0.5, w).tanh().sum()
        out.backward()
        return x.grad, w.grad

    same(run)


# --------------------------------------------------------------------------- gradcheck


def double(lib, values):
    return lib.tensor(values, dtype=lib.float64, requires_grad=True)


@pytest.mark.parametrize("name", ["Exp", "TwoOutputs"])
def test_gradcheck_and_gradgradcheck_pass_on_correct_functions(fns, name):
    for lib in (minigrad, torch):
        fn = fns[lib][name].apply
        x = double(lib, [0.3, 1.1, -0.4])
        assert lib.autograd.gradcheck(fn, (x,)) is True
        assert lib.autograd.gradgradcheck(fn, (x,)) is True


def test_gradcheck_with_non_tensor_argument(fns):
    for lib in (minigrad, torch):
        x = double(lib, [0.3, 1.1])
        w = double(lib, 0.7)
        assert lib.autograd.gradcheck(fns[lib]["ScaledMul"].apply, (x, 2.0, w)) is True
        assert lib.autograd.gradcheck(fns[lib]["Power"].apply, (x, 3)) is True


@pytest.mark.parametrize(
    "func",
    [
        lambda lib, x, y: (x * y).sin(),
        lambda lib, x, y: (x / y).exp().sum(),
        lambda lib, x, y: lib.tanh(x @ y.reshape(3, 1)),
        lambda lib, x, y: (x.sigmoid() * y.log()).softmax(dim=0),
        lambda lib, x, y: lib.stack([x, y]).max(dim=0).values,
    ],
    ids=["sin_mul", "exp_div", "tanh_matmul", "softmax", "stack_max"],
)
def test_gradcheck_on_builtin_ops(func):
    for lib in (minigrad, torch):
        x = double(lib, [0.3, 1.1, 0.4])
        y = double(lib, [0.9, 2.0, 1.7])
        assert lib.autograd.gradcheck(lambda a, b, lib=lib: func(lib, a, b), (x, y)) is True
        assert lib.autograd.gradgradcheck(lambda a, b, lib=lib: func(lib, a, b), (x, y)) is True


def test_gradcheck_raises_on_wrong_backward(fns):
    errors = []
    for lib in (minigrad, torch):
        x = double(lib, [0.3, 1.1])
        with pytest.raises(RuntimeError, match="Jacobian mismatch") as info:
            lib.autograd.gradcheck(fns[lib]["WrongSin"].apply, (x,))
        gradcheck_module = importlib.import_module(f"{lib.__name__}.autograd.gradcheck")
        assert isinstance(info.value, gradcheck_module.GradcheckError)
        errors.append(type(info.value).__name__)
    assert errors == ["GradcheckError", "GradcheckError"]
    assert issubclass(minigrad.autograd.GradcheckError, RuntimeError)


def test_gradcheck_without_raising_returns_false(fns):
    def run(lib):
        x = double(lib, [0.3, 1.1])
        return lib.autograd.gradcheck(fns[lib]["WrongSin"].apply, (x,), raise_exception=False)

    assert same(run) is False


def test_gradgradcheck_checks_the_backward_itself(fns):
    # WrongSin's derivative is wrong but its backward is differentiated consistently, so only
    # gradcheck objects; NotDifferentiableBackward has a right first derivative whose backward
    # hides its dependence on x, which only gradgradcheck catches.
    def run(lib):
        x = double(lib, [0.3, 1.1])
        wrong_first = lib.autograd.gradgradcheck(fns[lib]["WrongSin"].apply, (x,), raise_exception=False)
        hidden = fns[lib]["DetachedBackward"].apply
        return (
            wrong_first,
            lib.autograd.gradcheck(hidden, (x,), raise_exception=False),
            lib.autograd.gradgradcheck(hidden, (x,), raise_exception=False),
        )

    assert same(run) == (True, True, False)


def test_gradgradcheck_with_grad_outputs():
    for lib in (minigrad, torch):
        x = double(lib, [0.3, 1.1])
        v = double(lib, [1.0, -2.0])
        assert lib.autograd.gradgradcheck(lambda a: a.pow(3), (x,), (v,)) is True
