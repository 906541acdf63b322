"""Disagreements with PyTorch in autograd's graph utilities, found by a differential fuzzer
(``saved_tensors_hooks`` and their nesting, ``save_on_cpu``, ``disable_saved_tensors_hooks``,
``utils.checkpoint`` in both variants, ``register_multi_grad_hook``, gradient edges and the
``Node`` API; values, gradients, hook calls, errors and warnings compared with PyTorch's).

Each snippet runs with ``lib`` = minigrad and torch.
"""

from __future__ import annotations

import contextlib

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

same = Oracle(lambda t: (str(t.dtype), rounded(t, 4), t.requires_grad)).same


def checkpoint(lib):
    return lib.utils.checkpoint.checkpoint


def recording_hooks(lib, log: list):
    """saved_tensors_hooks that log each pack (with the packed tensor's grad_fn) and unpack."""

    def pack(t):
        log.append(("pack", None if t.grad_fn is None else t.grad_fn.name(), list(t.shape)))
        return t

    def unpack(t):
        log.append(("unpack", list(t.shape)))
        return t

    return lib.autograd.graph.saved_tensors_hooks(pack, unpack)


def test_non_reentrant_checkpoint_saves_its_inputs_under_the_hooks_in_force():
    # PyTorch saves checkpoint's tensor arguments as saved tensors: the hooks around the call pack
    # each once, and every recomputation unpacks them.
    def run(lib):
        log = []
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with recording_hooks(lib, log):
            log.append("forward")
            y = checkpoint(lib)(lambda a, k: a.sin().exp() * k, x, 2.0, use_reentrant=False)
            z = y * y
        log.append("backward")
        z.sum().backward(retain_graph=True)
        log.append("again")
        z.sum().backward()
        return log, x.grad

    same(run)


def test_non_reentrant_checkpoint_recomputes_from_what_the_hooks_unpack():
    # The hooks own the inputs once they packed them: backward recomputes from what unpack gives
    # (here a copy made before the input changed in place), and checks no version.
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
            y = checkpoint(lib)(lambda t: t.exp() * t, a, use_reentrant=False)
        with lib.no_grad():
            a.mul_(10)
        y.sum().backward()
        return x.grad

    same(run)


def test_non_reentrant_checkpoint_input_changed_in_place_gives_the_anomaly_hint():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        y = checkpoint(lib)(lambda t: t.exp(), a, use_reentrant=False)
        a.add_(1)
        y.sum().backward()

    same_error(run, "modified by an inplace operation", "output 0 of Add", "enable anomaly detection")


def test_disable_saved_tensors_hooks_is_a_decorator_too():
    def run(lib):
        @lib.autograd.graph.disable_saved_tensors_hooks("no saved tensor hooks in here")
        def f():
            with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass

        f()

    same_error(run, "no saved tensor hooks in here")

    def after(lib):  # leaving the decorated function enables them again
        x = lib.ones(2, requires_grad=True)
        lib.autograd.graph.disable_saved_tensors_hooks("off")(lambda: None)()
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t):
            y = (x * x).sum()
        y.backward()
        return x.grad

    same(after)


def _logged_layers(lib, log):
    def f(a, w):
        log.append("start")
        b = lib.nn.functional.relu(a @ w)
        log.append("relu")
        c = lib.nn.functional.softmax(b, -1)
        log.append("softmax")
        return c * 3 + 1

    return f


@pytest.mark.parametrize("early_stop", [True, False, None])
@pytest.mark.parametrize("globally", [None, True, False])
def test_non_reentrant_checkpoint_stops_recomputing_once_it_has_what_backward_needs(early_stop, globally):
    # softmax saves its result, the last tensor backward needs: PyTorch stops the recomputation
    # right there (what follows is not run again) unless early stop is off.
    def run(lib):
        log = []
        x = lib.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
        w = lib.tensor([[1.0, -2.0], [0.5, 1.0]], requires_grad=True)
        kwargs = {} if early_stop is None else {"early_stop": early_stop}
        context = lib.utils.checkpoint.set_checkpoint_early_stop(globally) if globally is not None else None
        with context or contextlib.nullcontext():
            y = checkpoint(lib)(_logged_layers(lib, log), x, w, use_reentrant=False, **kwargs)
        log.append("backward")
        y.pow(2).sum().backward(retain_graph=True)
        log.append("again")
        y.sum().backward()
        return log, x.grad, w.grad

    same(run)


def test_non_reentrant_checkpoint_enters_the_contexts_of_context_fn():
    def run(lib):
        log = []

        @contextlib.contextmanager
        def noting(name):
            log.append(name + " in")
            yield
            log.append(name + " out")

        def f(a):
            log.append("f")
            return a.exp().sin()

        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = checkpoint(lib)(f, x, use_reentrant=False, context_fn=lambda: (noting("forward"), noting("again")))
        log.append("backward")
        y.sum().backward()
        return log, x.grad

    same(run)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"use_reentrant": True, "debug": True}, "only supported when use_reentrant=False"),
        ({"use_reentrant": True, "context_fn": lambda: (None, None)}, "only supported when use_reentrant=False"),
        ({"use_reentrant": False, "debug": True, "context_fn": lambda: (None, None)}, "incompatible with non-default"),
    ],
)
def test_checkpoint_refuses_context_fn_and_debug_where_pytorch_does(kwargs, words):
    same_error(lambda lib: checkpoint(lib)(lambda a: a * 2, lib.ones(2, requires_grad=True), **kwargs), words)


def test_checkpoint_keyword_arguments_of_its_own_do_not_go_to_the_function():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = checkpoint(lib)(lambda a: a.exp(), x, use_reentrant=False, debug=True, early_stop=False)
        z = checkpoint(lib)(lambda a: a.exp(), x, use_reentrant=True, early_stop=False)
        (y + z).sum().backward()
        return x.grad

    same(run)


def _save_two(lib):
    class F(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, None, b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            a, _, b = ctx.saved_tensors
            return grad * b, grad * a

    return F


def test_custom_function_nodes_have_raw_saved_tensors_to_hook():
    def run(lib):
        log = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = _save_two(lib).apply(x, lib.tensor([3.0, 4.0]))
        raw = y.grad_fn._raw_saved_tensors
        raw[2].register_hooks(lambda t: log.append("pack") or t * 10, lambda t: log.append("unpack") or t)
        y.sum().backward()
        return log, len(raw), x.grad

    same(run)

    def freed(lib):
        y = _save_two(lib).apply(lib.ones(2, requires_grad=True), lib.ones(2))
        y.sum().backward()
        y.grad_fn._raw_saved_tensors

    same_error(freed, "Trying to backward through the graph a second time")


def test_custom_function_saved_variables_is_deprecated_saved_tensors():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = _save_two(lib).apply(x, lib.tensor([3.0, 4.0]))
        with pytest.warns(DeprecationWarning, match="'saved_variables' is deprecated; use 'saved_tensors'"):
            return list(y.grad_fn.saved_variables)

    same(run)


def test_non_reentrant_checkpoint_without_early_stop_refuses_a_recomputation_that_saves_more():
    def run(lib):
        calls = []

        def f(a):
            calls.append(1)
            return a.exp() if len(calls) == 1 else a.exp().exp()

        y = checkpoint(lib)(f, lib.tensor([1.0, 2.0], requires_grad=True), use_reentrant=False, early_stop=False)
        y.sum().backward()

    same_error(run, "trying to save more tensors during recomputation than during the original forward pass")
