"""torch.autograd.graph: saved tensor hooks, gradient edges and increment_version; the legacy
autograd.Variable and inference_mode, checked against real PyTorch."""

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), rounded(t, 5))).same


def _graph(lib):
    return lib.autograd.graph


def _who(t, named: dict) -> str:
    """How a pack hook's log names a tensor: the variable it is, else its grad_fn and shape."""
    for name, known in named.items():
        if t is known:
            return name
    return f"{t.grad_fn.name() if t.grad_fn is not None else 'leaf' if t.requires_grad else 'plain'}{list(t.shape)}"


# Each program: what to compute from x, y (leaves) and m, n (matrices); the pack log must match.
PROGRAMS = {
    "mul": lambda lib, x, y, m, n: x * y,
    "div": lambda lib, x, y, m, n: x / y,
    "pow": lambda lib, x, y, m, n: x**y,
    "mm": lambda lib, x, y, m, n: m.mm(n),
    "addmm": lambda lib, x, y, m, n: lib.addmm(x, m, n),
    "linear": lambda lib, x, y, m, n: lib.nn.functional.linear(m, n, x),
    "lerp": lambda lib, x, y, m, n: lib.lerp(x, y, x * 0.5),
    "addcmul": lambda lib, x, y, m, n: lib.addcmul(x, y, x),
    "exp_chain": lambda lib, x, y, m, n: (x.exp() * y).sum(),
    "number": lambda lib, x, y, m, n: x * 2.0 + x.pow(2) + x * lib.tensor(3.0),
    "where": lambda lib, x, y, m, n: lib.where(x > 1.5, x, y * y),
    "gather": lambda lib, x, y, m, n: x.gather(0, lib.tensor([1, 0])),
    "matmul_vector": lambda lib, x, y, m, n: x @ m,
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_pack_hook_sees_what_pytorch_saves_in_its_order(name):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        m = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        n = lib.tensor([[1.0, 0.0], [2.0, 4.0]], requires_grad=True)
        log = []
        named = {"x": x, "y": y, "m": m, "n": n}
        with _graph(lib).saved_tensors_hooks(lambda t: log.append(_who(t, named)) or t, lambda t: t):
            out = PROGRAMS[name](lib, x, y, m, n)
        out.sum().backward()
        return log, x.grad, y.grad

    same(run)


def test_backward_uses_what_unpack_returns_and_checks_no_version():
    # The hooks keep copies: changing y in place afterwards does not reach backward (PyTorch
    # checks no version when hooks hold the values).
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        calls = []

        def pack(t):
            calls.append("pack")
            return t.clone() * 1

        def unpack(p):
            calls.append("unpack")
            return p

        with _graph(lib).saved_tensors_hooks(pack, unpack):
            y = x.exp()
            z = (y * x).sum()
        with lib.no_grad():
            y.mul_(2)
        z.backward()
        return calls, x.grad

    same(run)


def test_double_backward_through_hooked_tensors_reaches_the_leaves():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with _graph(lib).saved_tensors_hooks(lambda t: ("kept", t), lambda p: p[1]):
            y = (x**3).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        g.sum().backward()
        return g, x.grad

    same(run)


def test_unpacked_tensors_stand_where_the_saved_ones_did():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with _graph(lib).saved_tensors_hooks(lambda t: t, lambda p: p):
            y = x.exp()
            w = x * x
        result, own = y.grad_fn._saved_result, w.grad_fn._saved_self
        return [
            result is y,
            result.grad_fn is y.grad_fn,
            result.requires_grad,
            own is x,
            own.is_leaf,
            own.requires_grad,
        ]

    assert same(run) == [False, True, True, False, True, True]


def test_innermost_hooks_are_in_force():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        hooks = _graph(lib).saved_tensors_hooks
        with hooks(lambda t: log.append("outer") or t, lambda p: p):
            with hooks(lambda t: log.append("inner") or t, lambda p: p):
                x.exp()
            x.exp()
        x.exp()
        return log

    assert same(run) == ["inner", "outer"]


def test_save_on_cpu_gives_the_same_gradients():
    def run(lib):
        x = lib.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        with _graph(lib).save_on_cpu():
            loss = (x.sigmoid() @ x).tanh().sum()
        loss.backward()
        return loss, x.grad

    same(run)


def test_raw_saved_tensor_register_hooks():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        seen = []
        raw = y.grad_fn._raw_saved_result
        raw.register_hooks(lambda t: seen.append((t.requires_grad, t.grad_fn is None)) or t * 1, lambda p: p)
        y.sum().backward()
        return seen, x.grad

    same(run)


def test_hook_errors_are_pytorchs():
    def non_tensor(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with _graph(lib).saved_tensors_hooks(lambda t: t, lambda p: 3):
            y = x.exp().sum()
        y.backward()

    same_error(non_tensor, "unpack_hook expected to be a Tensor", "int")

    def modifies(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with _graph(lib).saved_tensors_hooks(lambda t: t.detach().mul_(1), lambda p: p):
            (x * 2).exp()

    same_error(modifies, "pack hook is modifying its input in place")

    def twice(lib):
        y = lib.tensor([1.0, 2.0], requires_grad=True).exp()
        raw = y.grad_fn._raw_saved_result
        raw.register_hooks(lambda t: t, lambda p: p)
        raw.register_hooks(lambda t: t, lambda p: p)

    same_error(twice, "hooks have already been set")

    def freed(lib):
        y = lib.tensor([1.0, 2.0], requires_grad=True).exp()
        raw = y.grad_fn._raw_saved_result
        y.sum().backward()
        raw.register_hooks(lambda t: t, lambda p: p)

    same_error(freed, "register_hooks on a saved tensor after it has been freed")

    def backward_twice(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with _graph(lib).saved_tensors_hooks(lambda t: t, lambda p: p):
            y = x.exp().sum()
        y.backward()
        y.backward()

    same_error(backward_twice, "backward through the graph a second time")


def test_disable_saved_tensors_hooks():
    def inside(lib):
        graph = _graph(lib)
        with graph.disable_saved_tensors_hooks("no hooks in this block"):
            with graph.saved_tensors_hooks(lambda t: t, lambda p: p):
                pass

    same_error(inside, "no hooks in this block")

    def around(lib):
        graph = _graph(lib)
        with graph.saved_tensors_hooks(lambda t: t, lambda p: p):
            with graph.disable_saved_tensors_hooks("hooks are on"):
                pass

    same_error(around, "hooks are on")

    def after(lib):  # leaving the block allows hooks again
        graph = _graph(lib)
        with graph.disable_saved_tensors_hooks("not now"):
            pass
        x = lib.tensor([1.0], requires_grad=True)
        log = []
        with graph.saved_tensors_hooks(lambda t: log.append(1) or t, lambda p: p):
            x.exp()
        return log

    assert same(after) == [1]


def test_gradient_edges():
    def run(lib):
        graph = _graph(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        leaf, inner = graph.get_gradient_edge(x), graph.get_gradient_edge(y)
        grads = lib.autograd.grad((y * y).sum(), [inner, x])
        return type(leaf.node).__name__, leaf.output_nr, inner.node is y.grad_fn, inner.ownership_token, grads

    same(run)
    same_error(lambda lib: _graph(lib).get_gradient_edge(lib.ones(2)), "does not require gradients")


def test_increment_version_makes_backward_refuse_a_changed_saved_tensor():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        before = y._version
        _graph(lib).increment_version(y)
        after = y._version
        try:
            y.sum().backward()
        except RuntimeError as error:
            return before, after, "modified by an inplace operation" in str(error)

    assert same(run) == (0, 1, True)  # exp's backward reads its result, y

    def saved_input(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        b = a.sin()
        _graph(lib).increment_version([a])
        b.sum().backward()

    same_error(saved_input, "modified by an inplace operation")


def test_variable_is_a_detached_tensor():
    def run(lib):
        v = lib.ones(2)
        x = lib.autograd.Variable(v, requires_grad=True)
        x.sum().backward()
        y = lib.autograd.Variable(x * 2)
        return x, x.grad, v.requires_grad, y.requires_grad, y.grad_fn is None, isinstance(v, lib.autograd.Variable)

    same(run)
    same_error(lambda lib: lib.autograd.Variable([1, 2]), "Variable data has to be a tensor")


def test_autograd_namespace_has_the_grad_modes():
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        with lib.autograd.no_grad():
            a = x * 2
        with lib.autograd.set_grad_enabled(False):
            with lib.autograd.enable_grad():
                b = x * 2
        return a.requires_grad, b.requires_grad

    assert same(run) == (False, True)


def test_inference_mode_makes_inference_tensors():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.inference_mode():
            a = lib.ones(2)
            b = x * 2
            view_of_normal = x[:1]
            a.add_(1)  # allowed inside the mode
            inside = (lib.is_inference_mode_enabled(), lib.is_grad_enabled())
        return [
            inside,
            lib.is_inference_mode_enabled(),
            a.is_inference(),
            b.is_inference(),
            b.requires_grad,
            view_of_normal.is_inference(),
            x.is_inference(),
            a[0].is_inference(),
            a.detach().is_inference(),
            a.clone().is_inference(),
            (x + a).requires_grad,
            a,
        ]

    same(run)


def test_inference_mode_false_records_and_decorates():
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        with lib.no_grad():
            with lib.inference_mode(False):
                recorded = (x * 2).requires_grad

        @lib.inference_mode
        def bare():
            return lib.ones(1).is_inference(), lib.is_grad_enabled()

        @lib.inference_mode(mode=False)
        def off():
            return lib.ones(1).is_inference(), lib.is_grad_enabled()

        return recorded, bare(), off(), lib.autograd.inference_mode is lib.inference_mode

    assert same(run) == (True, (True, False), (False, True), True)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("save", ("Inference tensors cannot be saved for backward",)),
        ("inplace", ("Inplace update to inference tensor outside InferenceMode",)),
        ("version", ("Inference tensors do not track version counter",)),
        ("requires_grad", ("Setting requires_grad=True on inference tensor outside InferenceMode",)),
        ("inplace_view", ("Inplace update to inference tensor outside InferenceMode",)),
    ],
)
def test_inference_tensors_refuse_autograd_outside_the_mode(name, words):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.inference_mode():
            a = lib.ones(2)
        if name == "save":
            (x * a).sum()
        elif name == "inplace":
            a.add_(1)
        elif name == "version":
            a._version
        elif name == "requires_grad":
            a.requires_grad_()
        else:
            a[0].zero_()

    same_error(run, *words)
