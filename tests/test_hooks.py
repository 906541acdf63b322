"""Tensor hooks, node hooks and post-accumulate-grad hooks, checked against real PyTorch."""

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")


# Tensors compare as (dtype, values rounded to 5 decimals).
same = Oracle(lambda t: (str(t.dtype), rounded(t, 5))).same


def test_notebook_hook_example_doubles_gradient():
    def run(lib):
        v = lib.tensor([0.0, 0.0, 0.0], requires_grad=True)
        h = v.register_hook(lambda grad: grad * 2)
        v.backward(lib.tensor([1.0, 2.0, 3.0]))
        result = v.grad.clone()
        h.remove()
        v.grad = None
        v.backward(lib.tensor([1.0, 2.0, 3.0]))
        return result, v.grad

    assert same(run) == (("torch.float32", [2.0, 4.0, 6.0]), ("torch.float32", [1.0, 2.0, 3.0]))


def test_hooks_run_in_registration_order_and_chain():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_hook(lambda g: log.append(("first", g.tolist())))
        x.register_hook(lambda g: g * 10)
        x.register_hook(lambda g: log.append(("third", g.tolist())))
        x.register_hook(lambda g: g + 1)
        (x * x).sum().backward()
        return x.grad, log

    result = same(run)
    assert result[1] == [("first", [2.0, 4.0]), ("third", [20.0, 40.0])]


def test_hook_on_leaf_changes_what_accumulates():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 0 + 5)
        (x * x).sum().backward()
        (x * x).sum().backward()
        return x.grad

    assert same(run)[1] == [10.0, 10.0]


def test_hook_on_leaf_registered_after_the_forward_runs():
    """The graph (and the leaf's AccumulateGrad) exists before the hook does: it still runs."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()  # builds x's AccumulateGrad node
        x.register_hook(lambda g: g * 10)
        y.backward()
        return x.grad

    assert same(run)[1] == [20.0, 40.0]


def test_hook_on_non_leaf_changes_what_flows_on():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        z = y * 2
        y.register_hook(lambda g: g + 100)
        z.sum().backward()
        return x.grad

    assert same(run)[1] == [204.0, 408.0]


def test_observing_hook_returns_none_and_sees_gradient():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        seen = []
        y.register_hook(lambda g: seen.append(g.clone()))
        (y * 3).sum().backward()
        return seen, x.grad

    same(run)


def test_handle_remove_unregisters_hook():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        log = []
        handle = y.register_hook(lambda g: g * 0 + 7)
        y.register_hook(lambda g: log.append(g.tolist()))
        y.sum().backward(retain_graph=True)
        first = x.grad.clone()
        handle.remove()
        handle.remove()  # removing twice is harmless
        x.grad = None
        y.sum().backward()
        return first, x.grad, log

    assert same(run)[2] == [[7.0, 7.0], [1.0, 1.0]]


def test_handle_as_context_manager():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with x.register_hook(lambda g: g * 2):
            (x * 1).sum().backward()
        (x * 1).sum().backward()
        return x.grad

    assert same(run)[1] == [3.0, 3.0]


@pytest.mark.parametrize("leaf", [True, False])
def test_shape_changing_hook_raises(leaf):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        target = x if leaf else x * 2
        target.register_hook(lambda g: lib.ones(3))
        (target * target).sum().backward()

    same_error(run, "has changed the size of value")


def test_dtype_changing_hook_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g.double())
        (x * x).sum().backward()

    same_error(run, "has changed the type of value")


def test_hook_returning_non_tensor_raises_type_error():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: "not a tensor")
        (x * x).sum().backward()

    same_error(run)


def test_register_hook_on_tensor_without_grad_raises():
    same_error(
        lambda lib: lib.tensor([1.0]).register_hook(lambda g: g),
        "cannot register a hook on a tensor that doesn't require gradient",
    )


def test_hook_runs_for_autograd_grad_too():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_hook(lambda g: log.append(g.tolist()))
        y = x * 2
        y.register_hook(lambda g: g * 3)
        result = lib.autograd.grad((y * y).sum(), x)
        return log, result, x.grad

    same(run)


def test_post_accumulate_grad_hook_sees_accumulated_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_post_accumulate_grad_hook(lambda t: log.append((t is x, t.grad.tolist())))
        (x * x).sum().backward()
        (x * x).sum().backward()
        return log

    assert same(run) == [(True, [2.0, 4.0]), (True, [4.0, 8.0])]


def test_post_accumulate_grad_hook_runs_after_tensor_hooks():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_post_accumulate_grad_hook(lambda t: log.append(("post", t.grad.tolist())))
        x.register_hook(lambda g: log.append(("hook", g.tolist())))
        (x * x).sum().backward()
        return log

    same(run)


def test_post_accumulate_grad_hook_can_update_the_parameter():
    # The pattern optimizers use to step a parameter as soon as its gradient is ready.
    def run(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)

        def step(p):
            with lib.no_grad():
                p -= 0.1 * p.grad
            p.grad = None

        w.register_post_accumulate_grad_hook(step)
        (w * w).sum().backward()
        return w, w.grad

    same(run)


def test_post_accumulate_grad_hook_not_run_by_autograd_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_post_accumulate_grad_hook(lambda t: log.append(1))
        lib.autograd.grad((x * x).sum(), x)
        return log

    assert same(run) == []


def test_post_accumulate_grad_hook_only_on_leaves():
    same_error(
        lambda lib: (lib.tensor([1.0], requires_grad=True) * 2).register_post_accumulate_grad_hook(lambda t: None),
        "post accumulate grad hooks cannot be registered on non-leaf tensors",
    )
    same_error(
        lambda lib: lib.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None),
        "cannot register a hook on a tensor that doesn't require gradient",
    )


def test_node_pre_and_post_hooks():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        log = []
        y.grad_fn.register_prehook(lambda grad_outputs: log.append(("pre", grad_outputs[0].tolist())))
        y.grad_fn.register_hook(lambda gi, go: log.append(("post", gi[0].tolist(), go[0].tolist())))
        (y * 3).sum().backward()
        return log

    assert same(run) == [("pre", [3.0, 3.0]), ("post", [6.0, 6.0], [3.0, 3.0])]


def test_node_prehook_can_replace_gradient():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        y.sum().backward()
        return x.grad

    assert same(run)[1] == [20.0, 20.0]


def test_hooks_on_non_leaf_with_two_consumers_see_the_sum_once():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.sin()
        calls = []
        y.register_hook(lambda g: calls.append(g.clone()))
        (y * 2 + y.exp()).sum().backward()
        return calls

    assert len(same(run)) == 1
