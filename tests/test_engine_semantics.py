"""The backward engine's finer points, compared with real PyTorch: when gradients are captured
relative to hooks, what hooks may return, the layout of a leaf's ``.grad``, accumulation into a
``.grad`` that has a graph, ``materialize_grads``, and anomaly detection."""

import warnings

import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402


def both(fn):
    """``fn(torch)`` and ``fn(minigrad)``, which must be equal."""
    theirs, ours = fn(torch), fn(minigrad)
    assert ours == theirs
    return ours


def error_of(fn) -> tuple:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__, str(e)
    return None


def test_autograd_grad_captures_as_torch_relative_to_hooks():
    """A node that only captures does so after its tensor hooks; one that also runs captures the
    gradient as it arrived. Node pre-hooks never change what is captured."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = x * 2
        w.register_hook(lambda g: g * 100)
        w.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
        y = (w * w).sum()
        only_w = lib.autograd.grad(y, w, retain_graph=True)
        w_and_x = lib.autograd.grad(y, [w, x], retain_graph=True)
        only_x = lib.autograd.grad(y, x)
        return [[t.tolist() for t in found] for found in (only_w, w_and_x, only_x)]

    both(run)


def test_hooks_must_return_the_right_number_of_values():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        found = []
        y = x * 2
        handle = y.grad_fn.register_prehook(lambda grads: (grads[0], grads[0]))
        found.append(error_of(lambda: y.sum().backward(retain_graph=True)))
        handle.remove()
        z = x * x
        z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 10,))
        found.append(error_of(lambda: z.sum().backward()))
        leaf = lib.ones(2, requires_grad=True)
        leaf.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(10))
        found.append(error_of(lambda: (leaf * 2).sum().backward()))
        return found, leaf.grad.tolist()

    found, _ = both(run)
    assert all(found[0])


def test_leaf_grad_follows_the_gradient_layout_contract():
    def run(lib):
        found = []
        z = lib.ones(2, 3, requires_grad=True)  # row-major leaf, transposed gradient
        (z.t() * lib.arange(6.0).reshape(3, 2)).sum().backward()
        found.append((z.grad.stride(), z.grad.view(-1).tolist()))
        x = lib.ones(3, 2).t().detach().requires_grad_()  # transposed leaf, row-major gradient
        (x * 2).sum().backward()
        found.append((x.grad.stride(), x.grad.tolist()))
        e = lib.ones(3, 1).expand(3, 4).detach().requires_grad_()  # not dense: row-major
        (e * 2).sum().backward()
        found.append(e.grad.stride())
        return found

    both(run)


def test_accumulating_into_a_grad_with_a_graph_is_in_place():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x**3).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the create_graph reference-cycle warning
            y.backward(create_graph=True, retain_graph=True)
        first, version = x.grad, x.grad._version
        y.backward()
        return x.grad is first, x.grad.requires_grad, x.grad.tolist(), x.grad._version - version

    both(run)


def test_materialize_grads():
    def run(lib):
        x, unused = lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True)
        refused = error_of(
            lambda: lib.autograd.grad((x * 3).sum(), [x, unused], allow_unused=False, materialize_grads=True)
        )
        grads = lib.autograd.grad((x * 3).sum(), [x, unused], materialize_grads=True, create_graph=True)
        return refused, [(g.tolist(), g.requires_grad, g.is_leaf) for g in grads]

    both(run)


def test_argument_errors_say_what_torch_says():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        return [
            error_of(lambda: lib.autograd.grad(x.sum(), [])),
            error_of(lambda: lib.autograd.grad([x.sum(), x.sum()], [x], [lib.tensor(1.0)])),
            error_of(lambda: lib.autograd.backward([x.sum(), x.sum()], [lib.tensor(1.0)])),
        ]

    both(run)


def test_numpy_of_a_tensor_that_requires_grad_under_no_grad():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            allowed = (x * 2).numpy().tolist()
        return allowed, error_of(lambda: x.numpy())

    both(run)


def caught(fn) -> tuple:
    """``fn()``'s error and the warnings it gave."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        error = error_of(fn)
    return error, [str(w.message).split(" (Triggered internally")[0] for w in seen]


def test_detect_anomaly_names_the_node_that_returned_nan_and_where_it_was_recorded():
    def run(lib):
        x = lib.tensor([0.0, 1.0], requires_grad=True)

        def body():
            with lib.autograd.detect_anomaly():
                assert lib.is_anomaly_enabled()
                y = (x.sqrt() * 0) / x  # recorded here
                y.sum().backward()

        error, said = caught(body)
        assert "y = (x.sqrt() * 0) / x  # recorded here" in said[1]
        return error, said[0], said[1].splitlines()[0], lib.is_anomaly_enabled()

    both(run)


def test_detect_anomaly_without_nan_checks():
    def run(lib):
        x = lib.tensor([0.0, 1.0], requires_grad=True)

        def body():
            with lib.autograd.detect_anomaly(check_nan=False):
                ((x.sqrt() * 0) / x).sum().backward()

        return caught(body), str(x.grad.tolist())

    both(run)


def test_set_detect_anomaly_and_the_in_place_error_it_explains():
    def run(lib):
        a = lib.ones(2, requires_grad=True)
        b = a.exp()
        with lib.autograd.set_detect_anomaly(True):
            inside = lib.is_anomaly_enabled()
            d = b.exp()
            b.add_(1)
            error, said = caught(lambda: d.sum().backward())
        lib.autograd.set_detect_anomaly(True, check_nan=False)
        switched = lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()
        lib.autograd.set_detect_anomaly(False)
        return inside, error[0], error[1][-140:], said, switched, lib.is_anomaly_enabled()

    both(run)


def test_detect_anomaly_is_not_a_decorator():
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return error_of(lambda: lib.autograd.detect_anomaly()(print))

    both(run)


@pytest.mark.parametrize("case", ["leaf view", "view of a leaf view", "detached leaf view", "base changed"])
def test_in_place_on_a_view_whose_base_is_a_leaf(case):
    """PyTorch refuses an in-place change of a view that requires grad when its base is a leaf,
    also when only the view was made to require grad (``requires_grad_()`` on a view)."""

    def run(lib):
        base = lib.ones(3)
        view = (base if case != "detached leaf view" else lib.ones(3, requires_grad=True).detach())[:2]
        view.requires_grad_()

        def change():
            if case in ("leaf view", "detached leaf view"):
                view.add_(1)
            elif case == "view of a leaf view":
                view[:1].mul_(2)
            else:
                base.add_(1)  # the base itself requires no grad: allowed
                (view * view).sum().backward()

        found = error_of(change)
        return found and (found[0], found[1].split(".")[0]), base.tolist()

    both(run)


def test_accumulating_after_data_got_another_shape_says_so():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        x.data = lib.tensor([5.0, 6.0, 7.0])
        return error_of(lambda: (x * x).sum().backward())

    both(run)


def test_calling_a_node_runs_its_backward_step():
    def run(lib):
        x, w = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
        found = [(x * w * 2).grad_fn(lib.ones(3))]
        exp = x.exp().grad_fn(lib.ones(3))
        found.append(([round(v, 5) for v in exp.tolist()], type(exp.grad_fn).__name__))
        found.append((x * 2).grad_fn.next_functions[0][0](lib.ones(3)))  # AccumulateGrad
        found.append(x.grad.tolist())
        found.append(error_of(lambda: x.exp().grad_fn()))
        return repr(found[0]), *found[1:]

    both(run)


def test_a_view_of_unbind_whose_base_changed_prints_an_invalid_grad_fn():
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = x * 1
        first = y.unbind(0)[0]
        y.mul_(2)
        return repr(first), error_of(lambda: first.grad_fn)[0]

    both(run)


def test_a_gradient_of_the_wrong_shape_is_named_by_its_index():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        # (PyTorch finds the index with list.index, which compares the gradients: kept comparable)
        lib.autograd.grad([x.sum(), (x * 2).sum()], x, [lib.tensor(5.0), lib.ones(1)])

    same_error(run, "Mismatch in shape: grad_output[1] has a shape of torch.Size([1]) and output[1]")


def test_only_inputs_is_taken_and_deprecated():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = lib.autograd.grad((x * x).sum(), x, None, None, False, False)  # only_inputs, by position
        return found[0].tolist(), [(w.category.__name__, str(w.message)[:40], w.filename == __file__) for w in caught]

    assert run(minigrad) == run(torch)
