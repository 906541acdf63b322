"""backward(), autograd.grad and higher-order derivatives, checked against real PyTorch.

Every test runs on each device (``on_device``: the factories create tensors there)."""

import gc
import warnings
import weakref

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, Values, same_error, values  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")


# Tensors compare as ("tensor", dtype, shape, values within a float32 tolerance, requires_grad).
same = Oracle(lambda t: ("tensor", str(t.dtype), tuple(t.shape), values(t), t.requires_grad)).same


RNG = np.random.default_rng(1234)


def arrays(*shapes):
    return [RNG.standard_normal(s).astype(np.float32) for s in shapes]


# --------------------------------------------------------------------------- backward()


def test_scalar_backward_chain_rule():
    def run(lib):
        x = lib.tensor(3.0, requires_grad=True)
        a = lib.tensor(4.0, requires_grad=True)
        b = lib.tensor(5.0, requires_grad=True)
        z = a * x + b
        z.backward()
        return x.grad, a.grad, b.grad

    assert same(run)[0][3] == Values(4.0)


def test_non_scalar_backward_needs_gradient():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * 2).backward()

    same_error(run, "grad can be implicitly created only for scalar outputs")


def test_backward_with_gradient_argument_broadcasting_example():
    def run(lib, scale):
        x = lib.tensor(3.0, requires_grad=True)
        a = lib.tensor([4.0, 2.0], requires_grad=True)
        z = x + a
        z.backward(lib.tensor([scale, scale]))
        return z, x.grad, a.grad

    for scale in (1.0, 1000.0):
        result = same(lambda lib, scale=scale: run(lib, scale))
        assert result[1][3] == Values(2 * scale)


@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_reducing_before_backward(reduce):
    def run(lib):
        x = lib.tensor(3.0, requires_grad=True)
        a = lib.tensor([4.0, 2.0], requires_grad=True)
        getattr(x + a, reduce)().backward()
        return x.grad, a.grad

    same(run)


def test_wrongly_shaped_gradient_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * 2).backward(lib.ones(2))

    same_error(run, "Mismatch in shape", "torch.Size([2])", "torch.Size([3])")


def test_backward_on_tensor_without_grad_raises():
    same_error(lambda lib: lib.tensor([1.0, 2.0]).sum().backward(), "does not require grad")


def test_gradients_accumulate_across_calls():
    def run(lib):
        x = lib.tensor([-3.0, 2.0, 5.0]).requires_grad_()
        first = None
        for _ in range(3):
            u = x.pow(3).sum()
            u.backward()
            first = x.grad.clone() if first is None else first
        return first, x.grad

    result = same(run)
    assert result[0][3] == Values([27.0, 12.0, 75.0])
    assert result[1][3] == Values([81.0, 36.0, 225.0])


def test_grad_none_before_backward_and_reset_by_assigning_none():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        before = x.grad
        (x * x).sum().backward()
        x.grad = None
        (x * 3).sum().backward()
        return before, x.grad

    same(run)


def test_paths_that_meet_are_summed():
    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y * y + y.exp() + y.sin() * x + y
        z.sum().backward()
        return x.grad

    same(run)


def test_diamond_node_runs_once_with_summed_gradient():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        (y * 2 + y * 3 + y).sum().backward()
        return len(seen), seen, x.grad

    result = same(run)
    assert result[0] == 1


def test_shared_leaf_used_many_times():
    def run(lib):
        w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        x = lib.tensor([1.0, -1.0])
        out = w @ (w @ (w @ x))
        out.sum().backward()
        return w.grad

    same(run)


def test_lecture_three_layer_graph_gradients():
    w1_np, w2_np, x_np = arrays((5, 5), (5, 5), (5,))

    def run(lib):
        w1 = lib.tensor(w1_np).requires_grad_()
        w2 = lib.tensor(w2_np).requires_grad_()
        x0 = lib.tensor(x_np)
        x1 = w1 @ x0
        x2 = x0 + w2 @ x1
        x3 = w1 @ (x1 + x2)
        q = x3.norm()
        q.backward()
        return q, w1.grad, w2.grad

    same(run)


def test_second_backward_through_freed_graph_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        y.backward()

    same_error(run, "Trying to backward through the graph a second time")


def test_retain_graph_allows_second_backward():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad

    same(run)


def test_graph_without_saved_tensors_can_be_walked_twice():
    # Nothing is saved by add/sum, so both libraries allow a second backward.
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        return x.grad

    same(run)


def test_lecture_autograd_grad_frees_graph():
    def run(lib):
        x = lib.tensor([1.0]).requires_grad_()
        z = 1 / x
        first = lib.autograd.grad(z, x)
        return first, lib.autograd.grad(z * z, x)

    same_error(run, "Trying to backward through the graph a second time")

    def keep(lib):
        x = lib.tensor([1.0]).requires_grad_()
        z = 1 / x
        return lib.autograd.grad(z, x, retain_graph=True), lib.autograd.grad(z * z, x)

    result = same(keep)
    assert result[0][0][3] == Values([-1.0]) and result[1][0][3] == Values([-2.0])


def test_saved_tensor_accessible_before_and_freed_after_backward():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        z = x.exp().sin()
        saved = z.grad_fn._saved_self
        z.sum().backward()
        return saved

    same(run)

    def after(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        z = x.exp().sin()
        z.sum().backward()
        return z.grad_fn._saved_self

    same_error(after, "after they have already been freed")


def test_saved_result_freed_after_backward():
    def after(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        y.sum().backward()
        return y.grad_fn._saved_result

    same_error(after, "after they have already been freed")


def test_saved_arrays_are_released_after_backward():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()  # saved by ExpBackward0 (its result) and by SinBackward0 (its input)
    z = y.sin()
    ref = weakref.ref(y._data)
    del y
    gc.collect()
    assert ref() is not None  # the graph still needs it
    z.sum().backward()
    gc.collect()
    assert ref() is None  # backward released what it had saved
    assert z.grad_fn is not None  # the node itself lives on, without its buffers


def test_retain_graph_keeps_saved_arrays():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    z = y.sin()
    ref = weakref.ref(y._data)
    del y
    z.sum().backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
    z.sum().backward()
    gc.collect()
    assert ref() is None


def test_inputs_limits_accumulation_to_leaves_given():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        (x * w).sum().backward(inputs=[x])
        first = (x.grad.clone(), w.grad)
        (x * w * w).sum().backward(inputs=w)
        return first, x.grad, w.grad

    same(run)


def test_inputs_can_be_non_leaf():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = (y * y).sum()
        z.backward(inputs=[y])
        return y.grad, x.grad

    result = same(run)
    assert result[0][3] == Values([4.0, 8.0]) and result[1] is None


def test_empty_inputs_raises():
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        (x * 2).sum().backward(inputs=[])

    same_error(run, "cannot be empty")


def test_autograd_backward_function_with_several_tensors():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([(x * x).sum(), x * 3], [lib.tensor(1.0), lib.tensor([1.0, 2.0])])
        return x.grad

    same(run)


def test_backward_create_graph_gives_differentiable_grad():
    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        y = x**3
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch warns about the reference cycle
            y.backward(create_graph=True)
        first = x.grad
        (second,) = lib.autograd.grad(first, x)
        return first, second

    result = same(run)
    assert result[0][3] == Values(12.0) and result[0][4] is True
    assert result[1][3] == Values(12.0)


def test_backward_through_integer_free_leaf_mixture():
    a_np, b_np = arrays((3, 2), (2, 3))

    def run(lib):
        a = lib.tensor(a_np, requires_grad=True)
        b = lib.tensor(b_np)
        loss = 10 - (a @ b).sum()
        loss.backward()
        return a.grad, b.grad

    same(run)


# --------------------------------------------------------------------------- autograd.grad


def test_grad_returns_tuple_even_for_one_input():
    def run(lib):
        t = lib.tensor([1.0, 2.0, 4.0]).requires_grad_()
        result = lib.autograd.grad(t.pow(2).sum(), t)
        assert isinstance(result, tuple)
        return result

    assert len(same(run)) == 1


def test_lecture_grad_of_two_inputs():
    def run(lib):
        t = lib.tensor([1.0, 2.0, 4.0]).requires_grad_()
        u = lib.tensor([10.0, 20.0]).requires_grad_()
        a = t.pow(2).sum() + u.log().sum()
        return lib.autograd.grad(a, (t, u))

    result = same(run)
    assert result[0][3] == Values([2.0, 4.0, 8.0]) and result[1][3] == Values([0.1, 0.05])
    assert repr(tuple(g.cpu() for g in run(minigrad))) == "(tensor([2., 4., 8.]), tensor([0.1000, 0.0500]))"


def test_grad_sums_over_tuple_of_outputs():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.autograd.grad([(x * x).sum(), (x * 3).sum()], x)

    assert same(run)[0][3] == Values([5.0, 7.0])


def test_grad_of_outputs_where_one_lies_below_another():
    # The first output is also on the path of the second: its node must be counted once.
    def run(lib):
        x = lib.tensor([0.5, -2.0], requires_grad=True)
        y1 = x.abs()
        y2 = (y1 * 3).abs()
        return lib.autograd.grad([y1, y2], [x], [lib.ones(2), lib.ones(2)])

    same(run)


def test_fused_backward_ops_match_pytorch():
    # relu, log_softmax and softmax differentiate through one op each, as PyTorch's
    # threshold_backward, _log_softmax_backward_data and _softmax_backward_data: same values (0,
    # not nan, where relu's input is negative and the gradient is inf), same node names, and they
    # can be differentiated again.
    def run(lib):
        x = lib.tensor([[0.5, -1.0, 2.0], [3.0, -0.2, 0.1]], requires_grad=True)
        w = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
        inf = lib.tensor([[float("inf")] * 3, [1.0] * 3])
        (relu_inf,) = lib.autograd.grad(lib.relu(x), x, inf)
        (g1,) = lib.autograd.grad((lib.relu(x) ** 2 * w).sum(), x, create_graph=True)
        (g2,) = lib.autograd.grad((lib.nn.functional.log_softmax(x, 1) * w).sum(), x, create_graph=True)
        (g3,) = lib.autograd.grad((lib.softmax(x, 0) * w).sum(), x, create_graph=True)
        names = [g.grad_fn.name() for g in (g1, g2, g3)]
        return relu_inf, names, lib.autograd.grad((g1 * g1 + g2 * g2 + g3 * g3 * w).sum(), x)

    same(run)


def test_grad_does_not_touch_dot_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        g = lib.autograd.grad((y * x).sum(), x)
        return g, x.grad, y.grad

    result = same(run)
    assert result[1] is None  # leaves are untouched (a retained non-leaf still sees its grad, as in torch)


def test_grad_unused_input_raises_or_gives_none():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        unused = lib.tensor([1.0], requires_grad=True)
        lib.autograd.grad((x * x).sum(), [x, unused])

    same_error(run, "appears to not have been used in the graph", "allow_unused=True")

    def allowed(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        unused = lib.tensor([1.0], requires_grad=True)
        first = lib.autograd.grad((x * x).sum(), [x, unused], allow_unused=True)
        second = lib.autograd.grad((x * x).sum(), [x, unused], allow_unused=True, materialize_grads=True)
        return first, second

    result = same(allowed)
    assert result[0][1] is None


def test_grad_input_that_does_not_require_grad_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([1.0, 2.0])
        lib.autograd.grad((x * c).sum(), [x, c])

    same_error(run, "does not require grad")


def test_grad_outputs_weight_each_output():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.autograd.grad([x * x, x * 3], x, grad_outputs=[lib.tensor([1.0, 0.0]), lib.ones(2)])

    assert same(run)[0][3] == Values([5.0, 3.0])


def test_grad_non_scalar_without_grad_outputs_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad(x * x, x)

    same_error(run, "grad can be implicitly created only for scalar outputs")


def test_grad_with_respect_to_intermediate():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        z = (y * y).sum()
        return lib.autograd.grad(z, [y, x])

    same(run)


def test_grad_create_graph_result_requires_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (g,) = lib.autograd.grad((x**3).sum(), x, create_graph=True)
        (plain_g,) = lib.autograd.grad((x**3).sum(), x)
        return g, plain_g

    result = same(run)
    assert result[0][4] is True and result[1][4] is False


def test_lecture_gradient_descent_with_grad_and_detach():
    def run(lib, detach):
        eta = 0.1
        a = lib.tensor(0.5).requires_grad_()
        b = lib.tensor(-0.5).requires_grad_()
        for _ in range(100):
            first = a.detach() if detach else a
            loss = (a - 1) ** 2 + (b + 1) ** 2 + (first - b) ** 2
            ga, gb = lib.autograd.grad(loss, (a, b))
            with lib.no_grad():
                a -= eta * ga
                b -= eta * gb
        return a, b

    plain_run = same(lambda lib: run(lib, False))
    assert plain_run[0][3] == Values(1 / 3)
    same(lambda lib: run(lib, True))
    a, b = run(minigrad, False)
    suffix = "" if a.device.type == "cpu" else f", device='{a.device}'"
    assert f"{a!s} {b!s}" == f"tensor(0.3333{suffix}, requires_grad=True) tensor(-0.3333{suffix}, requires_grad=True)"


# --------------------------------------------------------------------------- higher order


def test_lecture_second_order_example():
    def run(lib):
        x = lib.tensor([2.0, 3.0]).requires_grad_()
        psi = x[0].log() + x[1].pow(2)
        (g,) = lib.autograd.grad(psi, x, create_graph=True)
        return g, lib.autograd.grad(g.pow(2).sum(), x)

    result = same(run)
    assert result[1][0][3] == Values([-0.25, 24.0])
    x = minigrad.tensor([2.0, 3.0]).requires_grad_()
    psi = x[0].log() + x[1].pow(2)
    (g,) = minigrad.autograd.grad(psi, x, create_graph=True)
    (gg,) = minigrad.autograd.grad(g.pow(2).sum(), x)
    assert repr((gg.cpu(),)) == "(tensor([-0.2500, 24.0000]),)"


def test_third_derivative():
    def run(lib):
        x = lib.tensor([0.5, 1.5, -2.0], requires_grad=True)
        y = (x**4 + x.sin() * x.exp()).sum()
        (d1,) = lib.autograd.grad(y, x, create_graph=True)
        (d2,) = lib.autograd.grad(d1.sum(), x, create_graph=True)
        (d3,) = lib.autograd.grad(d2.sum(), x)
        return d1, d2, d3

    result = same(run)
    x = np.array([0.5, 1.5, -2.0])
    # d3/dx3 of x^4 + sin(x) e^x = 24x + 2 e^x (cos x - sin x)
    assert result[2][3] == Values(24 * x + 2 * np.exp(x) * (np.cos(x) - np.sin(x)))


@pytest.mark.parametrize(
    "func",
    [
        lambda lib, x: x.tanh().pow(2).sum(),
        lambda lib, x: (x.sigmoid() * x.exp()).sum(),
        lambda lib, x: x.softmax(dim=0).log().sum() + (x / x.norm()).sum(),
        lambda lib, x: (x.reshape(2, 2) @ x.reshape(2, 2)).sum(),
        lambda lib, x: lib.stack([x.sqrt(), x.cos()]).max(dim=0).values.sum(),
    ],
    ids=["tanh", "sigmoid_exp", "softmax_norm", "matmul", "stack_max"],
)
def test_hessian_vector_product(func):
    x_np = np.array([0.3, 1.2, 0.7, 2.1], dtype=np.float64)
    v_np = np.array([1.0, -0.5, 0.25, 2.0])

    def run(lib):
        x = lib.tensor(x_np, requires_grad=True)
        v = lib.tensor(v_np)
        (g,) = lib.autograd.grad(func(lib, x), x, create_graph=True)
        (hv,) = lib.autograd.grad(g, x, grad_outputs=v)
        return g, hv

    same(run)


def test_mixed_second_derivative():
    def run(lib):
        x = lib.tensor(1.5, requires_grad=True)
        y = lib.tensor(-0.5, requires_grad=True)
        f = x * x * y + (x * y).exp()
        (gx,) = lib.autograd.grad(f, x, create_graph=True)
        return lib.autograd.grad(gx, y)

    same(run)


def test_double_backward_through_backward_create_graph_on_leaf_grads():
    def run(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        loss = (w**3).sum()
        (g,) = lib.autograd.grad(loss, w, create_graph=True)
        penalty = g.pow(2).sum()
        penalty.backward()
        return w.grad

    same(run)
