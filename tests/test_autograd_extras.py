"""register_multi_grad_hook, Tensor._is_view, autograd.grad(is_grads_batched=True) and
utils.checkpoint, checked against real PyTorch."""

import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error, same_opening  # noqa: E402

same = Oracle(lambda t: (str(t.dtype), rounded(t, 5), t.requires_grad)).same


def _flags(log: list):
    """A multi-grad hook that records which gradients it got (values, None for missing)."""

    def fn(grads):
        log.append([None if g is None else g.tolist() for g in grads])

    return fn


# --- register_multi_grad_hook --------------------------------------------------------------------


def test_multi_grad_hook_all_mode_waits_for_the_gradients_this_pass_computes():
    def run(lib):
        log = []
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        c, d = a * b, a * b
        handle = lib.autograd.graph.register_multi_grad_hook((a, b, c, d), _flags(log))
        c.sum().backward(retain_graph=True)  # d is not in this graph
        c.sum().backward(inputs=(a,), retain_graph=True)  # b is not on the way to a
        lib.autograd.grad(c.sum(), c, retain_graph=True)  # only c is reached
        handle.remove()
        c.sum().backward()
        return log

    assert same(run) == [
        [[3.0, 4.0], [1.0, 2.0], [1.0, 1.0], None],
        [[3.0, 4.0], None, [1.0, 1.0], None],
        [None, None, [1.0, 1.0], None],
    ]


def test_multi_grad_hook_any_mode_fires_once_per_pass_with_the_first_gradient():
    def run(lib):
        log = []
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        plain = lib.ones(2)  # needs no gradient: skipped
        y = a * 2 + b * 3
        lib.autograd.graph.register_multi_grad_hook((a, b, y, plain), lambda g: log.append(g.tolist()), mode="any")
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        return log

    assert same(run) == [[1.0, 1.0], [1.0, 1.0]]


# --- hooks of outputs that got no gradient ------------------------------------------------------


def _name(g):
    return None if g is None else g.tolist()


def test_tensor_hooks_of_outputs_that_got_no_gradient_see_none():
    def run(lib):
        log = []
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a, b, c = x.unbind()
        c.register_hook(lambda g: log.append(("c", _name(g))))
        b.register_hook(lambda g: log.append(("b", _name(g))))
        b.retain_grad()  # nothing to retain: b.grad stays None
        a.register_hook(lambda g: log.append(("a", _name(g))))  # after b and c: hooks run tensor by tensor
        a.grad_fn.register_prehook(lambda grads: log.append(("pre", [_name(g) for g in grads])))
        (a * 2).backward()
        return log, b.grad, x.grad

    assert same(run) == (
        [("c", None), ("b", None), ("a", 2.0), ("pre", [2.0, None, None])],
        None,
        ("torch.float32", [2.0, 0.0, 0.0], False),
    )


def test_a_hook_cannot_put_a_gradient_where_there_was_none():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        a, b = x.unbind()
        b.register_hook(lambda g: lib.ones(()))
        a.backward()

    same_error(run, "can't replace a None gradient with a non-None value")


def test_multi_grad_hook_all_mode_gets_none_for_an_output_that_got_no_gradient():
    def run(lib):
        log = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, b = x.unbind()
        lib.autograd.graph.register_multi_grad_hook((a, b), _flags(log))
        (a * 3).backward()
        return log

    assert same(run) == [[3.0, None]]


def _custom_functions(lib):
    class FirstOnly(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, grad):
            return grad, None  # no gradient for b

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, materialize):
            ctx.set_materialize_grads(materialize)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            ctx.seen = _name(grad)
            return None if grad is None else grad * 2, None

    return FirstOnly, Double


@pytest.mark.parametrize("materialize", [True, False])
def test_a_node_no_gradient_reached_still_runs_its_hooks_and_a_custom_backward(materialize):
    # PyTorch runs every node on the way: its hooks see None, a custom Function's backward gets
    # zeros (or None without materialized gradients), and the leaves then get what it returns.
    def run(lib):
        log = []
        FirstOnly, Double = _custom_functions(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: log.append(("x", _name(g))))
        d = Double.apply(x, materialize)
        d.register_hook(lambda g: log.append(("d", _name(g))))
        d.grad_fn.register_prehook(lambda grads: log.append(("pre", [_name(g) for g in grads])))
        d.grad_fn.register_hook(lambda ins, outs: log.append(("post", [_name(g) for g in ins])))
        e = d.exp()
        e.register_hook(lambda g: log.append(("e", _name(g))))
        y = lib.ones(2, requires_grad=True)
        FirstOnly.apply(y, e).sum().backward()
        return log, d.grad_fn.seen, x.grad

    if materialize:
        expected = ([0.0, 0.0], [0.0, 0.0], ("torch.float32", [0.0, 0.0], False))
    else:
        expected = (None, None, None)
    log, seen, grad = same(run)
    assert (seen, grad) == expected[1:]
    assert log == [("e", None), ("d", None), ("pre", [None]), ("post", [expected[0]]), ("x", expected[0])]


def test_a_node_no_gradient_reached_still_checks_and_frees_what_it_saved():
    def changed_in_place(lib):
        FirstOnly, _ = _custom_functions(lib)
        e = lib.ones(2, requires_grad=True).exp()  # saves its result
        e.add_(1)
        FirstOnly.apply(lib.ones(2, requires_grad=True), e).sum().backward()

    same_error(changed_in_place, "modified by an inplace operation")

    def run_twice(lib):
        FirstOnly, _ = _custom_functions(lib)
        log = []
        x = lib.ones(2, requires_grad=True)
        x.register_post_accumulate_grad_hook(lambda leaf: log.append(_name(leaf.grad)))
        e = x.exp()
        FirstOnly.apply(lib.ones(2, requires_grad=True), e).sum().backward()
        assert log == [None]  # post-accumulate hooks run, with nothing accumulated
        e.sum().backward()  # ExpBackward0 ran in the first pass, and freed its result

    same_error(run_twice, "Trying to backward through the graph a second time")


def test_multi_grad_hook_errors():
    def bad_mode(lib):
        a = lib.ones(2, requires_grad=True)
        lib.autograd.graph.register_multi_grad_hook((a,), print, mode="some")

    same_error(bad_mode, "Expects mode to be one of", "some")

    def no_grad_tensor(lib):
        lib.autograd.graph.register_multi_grad_hook((lib.ones(2, requires_grad=True), lib.ones(2)), print)

    same_error(no_grad_tensor, "Expected gradient function to be set")

    def grad_of_leaf(lib):  # PyTorch cannot tell whether a captured leaf "executes" in autograd.grad
        a = lib.ones(2, requires_grad=True)
        lib.autograd.graph.register_multi_grad_hook((a,), print)
        lib.autograd.grad((a * 2).sum(), a)

    same_error(grad_of_leaf, "A leaf node was passed to _will_engine_execute_node")


# --- Tensor._is_view -----------------------------------------------------------------------------


def test_is_view():
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3)
        leaf = lib.ones(2, 3, requires_grad=True)
        with lib.no_grad():
            under_no_grad = leaf[0]
        tensors = [x, x[0], x.T, x[0][1:], x[lib.tensor([0])], x.clone(), x.T.reshape(6), leaf]
        tensors += [leaf.detach(), leaf.data, leaf.unbind()[0], x.diagonal(), under_no_grad, leaf[0].detach()]
        return [t._is_view() for t in tensors]

    assert same(run) == [True, True, True, True, False, False, False, False] + [False, False, True, True, True, False]


# --- autograd.grad(is_grads_batched=True) --------------------------------------------------------


def test_batched_grads_give_one_gradient_per_row():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = lib.tensor([1.0], requires_grad=True)
        y = x * x * w
        jac = lib.autograd.grad(y, x, lib.eye(3), is_grads_batched=True, retain_graph=True)
        unused, zeros = (
            lib.autograd.grad(
                y,
                (x, lib.ones(1, requires_grad=True)),
                lib.ones(2, 3),
                is_grads_batched=True,
                retain_graph=True,
                **option,
            )
            for option in ({"allow_unused": True}, {"materialize_grads": True})
        )
        second = lib.autograd.grad(y, (x, w), lib.eye(3), is_grads_batched=True, create_graph=True)
        return jac, unused, zeros, second

    jac, unused, zeros, second = same(run)
    assert jac[0][1] == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    assert unused[1] is None and zeros[1][1] == [0.0]  # (PyTorch's zeros are not batched)
    assert second[0][2] is True  # requires grad, with create_graph


def test_batched_grads_free_the_graph_unless_retained():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        lib.autograd.grad(y, x, lib.eye(2), is_grads_batched=True)
        lib.autograd.grad(y, x, lib.ones(2))

    same_error(run, "Trying to backward through the graph a second time")


@pytest.mark.parametrize(
    ("grads", "error", "words"),
    [
        (lambda lib: lib.ones(2, 2), RuntimeError, ("If `is_grads_batched=True`", "a mismatch was detected")),
        (lambda lib: lib.ones(3), RuntimeError, ("If `is_grads_batched=True`", "consider using vmap")),
        (lambda lib: lib.ones(0, 3), IndexError, ("index 0 is out of bounds",)),
        (lambda lib: None, RuntimeError, ("grad can be implicitly created only for scalar outputs",)),
    ],
)
def test_batched_grads_of_the_wrong_shape(grads, error, words):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        lib.autograd.grad(x * x, x, grads(lib), is_grads_batched=True)

    assert isinstance(same_error(run, *words), error)


def test_batched_grads_of_different_batch_sizes_and_of_a_scalar():
    def sizes(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        lib.autograd.grad((x * 2, x * 3), x, (lib.ones(2, 3), lib.ones(3, 3)), is_grads_batched=True)

    same_error(sizes, "vmap: Expected all tensors to have the same size in the mapped dimension", "[2, 3]")

    def implicit(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        lib.autograd.grad(x.sum(), x, is_grads_batched=True)

    same_error(implicit, "Got in_dim=0 for some input")

    def zero_dim(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        lib.autograd.grad(x.sum(), x, lib.tensor(1.0), is_grads_batched=True)

    same_error(zero_dim, "invalid index of a 0-dim tensor")


# --- utils.checkpoint ----------------------------------------------------------------------------


def test_checkpoint_module_imports_as_torchs():
    import minigrad.utils.checkpoint as module

    assert module.checkpoint is module.__dict__["checkpoint"] and callable(module.checkpoint_sequential)


def _block(lib, x, w, scale, *, p=0.5):
    """A function with a parameter, a non-tensor argument, dropout and a tuple output."""
    h = lib.nn.functional.dropout((x @ w).tanh(), p=p, training=True) * scale
    return h.sin(), h.sum()


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_gives_the_gradients_of_the_plain_function(use_reentrant):
    def run(lib, checkpointed):
        lib.manual_seed(0)
        x = lib.randn(3, 4, requires_grad=True)
        w = lib.randn(4, 5, requires_grad=True)
        if checkpointed:
            out, total = lib.utils.checkpoint.checkpoint(_block, lib, x, w, 2.0, use_reentrant=use_reentrant)
        else:
            out, total = _block(lib, x, w, 2.0)
        (out.sum() + total).backward()
        return out, x.grad, w.grad, lib.rand(2)  # (the generator goes on as without checkpoint)

    plain = same(lambda lib: run(lib, False))
    assert same(lambda lib: run(lib, True)) == plain


def test_checkpoint_without_preserve_rng_state_draws_another_mask():
    def run(lib):
        lib.manual_seed(0)
        x = lib.ones(20, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(
            lambda t: lib.nn.functional.dropout(t, 0.5) * t, x, use_reentrant=False, preserve_rng_state=False
        )
        y.sum().backward()
        return x.grad, lib.rand(2)

    same(run)


def test_checkpoint_keeps_no_activations_and_recomputes_them_per_backward():
    def run(lib):
        calls = []

        def f(t):
            calls.append(1)
            return t.exp().sin()

        x = lib.tensor([0.5, 1.0], requires_grad=True)
        seen = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t) or t, lambda t: t):
            y = lib.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        y.sum().backward(retain_graph=True)
        (grad,) = lib.autograd.grad(y.sum(), x)  # works with autograd.grad, and recomputes again
        activations = [t for t in seen if not lib.equal(t, x)]  # (PyTorch saves the input itself)
        return len(activations), len(calls), x.grad, grad

    assert same(run)[:2] == (0, 3)


def test_checkpoint_use_reentrant_not_passed_warns_and_reentrant_refuses_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.utils.checkpoint.checkpoint(lambda t: t * t, x)
        assert "use_reentrant parameter should be passed explicitly" in str(caught[0].message)
        assert caught[0].category is UserWarning
        lib.autograd.grad(y.sum(), x)

    same_error(run, "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad()")

    def kwargs(lib):
        lib.utils.checkpoint.checkpoint(lambda t, k: t * k, lib.ones(1), k=2, use_reentrant=True)

    same_error(kwargs, "Unexpected keyword arguments: k")


def test_checkpoint_reentrant_warns_when_no_input_requires_grad():
    def run(lib):
        w = lib.tensor([2.0], requires_grad=True)
        with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
            y = lib.utils.checkpoint.checkpoint(lambda t: t * w, lib.ones(1), use_reentrant=True)
        return y.requires_grad

    assert same(run) is False


def test_checkpoint_non_reentrant_passes_keyword_arguments_and_checks_the_recomputation():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t, k: (t * k).exp(), x, k=3.0, use_reentrant=False)
        y.sum().backward()
        return x.grad

    same(run)

    def changes_shape(lib):
        sizes = iter([2, 1])
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: t[: next(sizes)].exp().sum(), x, use_reentrant=False)
        y.backward()

    same_error(changes_shape, "Recomputed values for the following tensors have different metadata")


def test_checkpoint_non_reentrant_refuses_an_input_changed_in_place():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        y = lib.utils.checkpoint.checkpoint(lambda t: t.exp(), a, use_reentrant=False)
        a.mul_(2)
        y.sum().backward()

    same_error(run, "one of the variables needed for gradient computation has been modified by an inplace operation")


def test_checkpoint_sequential():
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 4), lib.nn.Sigmoid())
        x = lib.randn(2, 3, requires_grad=True)
        lib.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=False).sum().backward()
        return x.grad, model[0].weight.grad

    same(run)


NODE_HOOK_RESULTS = {
    "pre-hook, another size": lambda lib, y: y.grad_fn.register_prehook(lambda go: (lib.ones(3),)),
    "pre-hook, another dtype": lambda lib, y: y.grad_fn.register_prehook(lambda go: (go[0].double(),)),
    "hook, another size": lambda lib, y: y.grad_fn.register_hook(lambda gi, go: (lib.ones(3), None)),
    "hook, a gradient for an input without one": lambda lib, y: y.grad_fn.register_hook(
        lambda gi, go: (gi[0], lib.ones(2))
    ),
    "hook, a list": lambda lib, y: y.grad_fn.register_hook(lambda gi, go: list(gi)),
}


@pytest.mark.parametrize("register", NODE_HOOK_RESULTS.values(), ids=NODE_HOOK_RESULTS)
def test_what_a_node_hook_returns_is_checked_value_by_value(register):
    """As a tensor hook's result: the same size and type as the gradient it replaces, and nothing
    where no gradient was (here ``x * 2``: the number has none)."""

    def backward(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        register(lib, y)
        y.sum().backward()

    same_opening(backward, words=5)
