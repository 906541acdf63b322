"""Regression tests for what a differential fuzzer of the ``nn.Module`` API, the containers,
``nn.init`` and ``nn.utils`` against PyTorch found: each test is a program that disagreed before
its fix.

Found: forward hooks took no ``prepend``/``with_kwargs``/``always_call``, and modules had no
full backward hooks or pre-hooks, no ``state_dict``/``load_state_dict`` hooks, no
``_metadata`` versions (so BatchNorm could not load a dict without ``num_batches_tracked``), no
extra state, ``get_buffer``, ``set_submodule`` or ``nn.Buffer``; ``load_state_dict`` listed
unexpected keys in another order (and missed dotted keys under a parameter), refused a 1-element
vector for a 0-d tensor and ignored the requires_grad of the model's parameter with ``assign``;
``state_dict`` refused positional arguments; ``Sequential.insert`` put a negative index one
place too far, ``del seq[i]`` did not delete as ``delattr`` does, and ``*``, ``+=``, ``*=`` were
missing; ``nn.init`` took no ``generator``, had no ``sparse_`` and none of the deprecated names;
and the registration, lookup and ``to()`` errors had other words.
"""

from __future__ import annotations

import random
import warnings
from collections import OrderedDict

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

_tensors = Oracle(lambda t: (type(t).__name__, str(t.dtype).split(".")[-1], tuple(t.shape), values(t)))


def same(fn):
    """``fn(lib)`` gives the same in both libraries: tensors by type, dtype, shape and values,
    modules by their repr, exceptions by type and message, warnings by category and text (class
    paths in messages without their library: ``linear.Linear``)."""

    def plain(value):
        if isinstance(value, minigrad.nn.Module | torch.nn.Module):
            return repr(value)
        if isinstance(value, dict):
            return [(k, plain(v)) for k, v in value.items()]
        if isinstance(value, tuple | list):
            return type(value).__name__, [plain(v) for v in value]
        return _tensors.plain(value)

    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = plain(fn(lib))
            except Exception as e:  # noqa: BLE001 - the error is the result
                out = type(e).__name__, str(e).replace("torch.nn.modules.", "").replace("minigrad.nn.", "")
        return out, [(w.category.__name__, str(w.message)[:60]) for w in caught]

    ours, theirs = run(minigrad), run(torch)
    assert ours == theirs


def _linear(lib, *sizes):
    lib.manual_seed(0)
    return lib.nn.Linear(*sizes).double()


def _x(lib, grad: bool = True):
    return lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], dtype=lib.float64, requires_grad=grad)


# ---------------------------------------------------------------------------------------------- forward hooks
def test_forward_hooks_prepend_and_with_kwargs():
    def run(lib):
        m, log = _linear(lib, 3, 2), []
        m.register_forward_hook(lambda mod, args, out: log.append("last"))
        m.register_forward_hook(lambda mod, args, out: log.append("first"), prepend=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: log.append(sorted(kwargs)), with_kwargs=True)
        m.register_forward_pre_hook(lambda mod, args: log.append(len(args)))
        m.register_forward_pre_hook(lambda mod, args, kwargs: ((), {"input": kwargs["input"] * 2}), with_kwargs=True)
        return m(input=_x(lib)), log

    same(run)


def test_forward_pre_hook_with_kwargs_must_return_a_pair():
    def run(lib):
        m = _linear(lib, 3, 2)
        m.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
        return m(_x(lib))

    same_error(run, "forward pre-hook must return None or a tuple of (new_args, new_kwargs)")


def test_always_call_forward_hooks_run_when_forward_raises():
    def run(lib):
        class Failing(lib.nn.Module):
            def forward(self, x):
                raise ValueError("boom")

        m, log = Failing(), []
        m.register_forward_hook(lambda mod, args, out: log.append(("always", out)), always_call=True)
        m.register_forward_hook(lambda mod, args, out: log.append("never"))
        m.register_forward_hook(lambda mod, args, out: 1 / 0, always_call=True)  # its error becomes a warning
        try:
            m(1)
        except ValueError as e:
            log.append(str(e))
        return log

    same(run)


# ---------------------------------------------------------------------------------------------- backward hooks
def _hooked(lib, grad=True, hook=None, pre_hook=None):
    """A Linear with a full backward hook and pre-hook that log what they see (and may return
    ``hook(gi)``, ``pre_hook(go)``), after one backward pass."""
    m, log = _linear(lib, 3, 2), []

    def backward_hook(mod, grad_input, grad_output):
        log.append(("hook", grad_input, grad_output))
        return None if hook is None else hook(grad_input)

    def backward_pre_hook(mod, grad_output):
        log.append(("pre", grad_output))
        return None if pre_hook is None else pre_hook(grad_output)

    m.register_full_backward_hook(backward_hook)
    m.register_full_backward_pre_hook(backward_pre_hook)
    x = _x(lib, grad)
    y = m(x)
    log.append(y.grad_fn.name())
    (y * y).sum().backward()
    return log, x.grad, m.weight.grad


@pytest.mark.parametrize(
    "case",
    ["plain", "input_without_grad", "new_grad_input", "new_grad_output", "wrong_length", "wrong_pre_length"],
)
def test_full_backward_hooks(case):
    kwargs = {
        "plain": {},
        "input_without_grad": {"grad": False},  # the hook runs at the outputs, with a warning
        "new_grad_input": {"hook": lambda gi: (gi[0] * 2,)},
        "new_grad_output": {"pre_hook": lambda go: (go[0] * 3,)},
        "wrong_length": {"hook": lambda gi: (gi[0], gi[0])},
        "wrong_pre_length": {"pre_hook": lambda go: (go[0], go[0])},
    }[case]
    same(lambda lib: _hooked(lib, **kwargs))


def test_full_backward_hook_sees_none_for_inputs_that_are_not_differentiated():
    def run(lib):
        class Pair(lib.nn.Module):
            def forward(self, a, b, k):
                return a * b, a + k, "label"

        m, log = Pair(), []
        m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
        m.register_full_backward_pre_hook(lambda mod, go: log.append(go))
        a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0])
        out = m(a, b, 5.0)
        out[0].sum().backward()
        return log, a.grad, out[2]

    same(run)


def test_full_backward_hooks_of_nested_modules_run_inside_out():
    def run(lib):
        lib.manual_seed(0)
        model, log = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh(), lib.nn.Linear(2, 1)).double(), []
        for name, module in model.named_modules():
            module.register_full_backward_hook(lambda mod, gi, go, name=name: log.append((name, gi, go)))
        handle = model[1].register_full_backward_pre_hook(lambda mod, go: log.append("removed"))
        handle.remove()
        x = _x(lib)
        model(x).sum().backward()
        return log, x.grad

    same(run)


def test_changing_an_output_of_a_module_with_backward_hooks_in_place_is_an_error():
    def run(lib):
        m = _linear(lib, 3, 2)
        m.register_full_backward_hook(lambda *args: None)
        m(_x(lib)).mul_(2)

    same_error(run, "Output 0 of BackwardHookFunction is a view and is being modified inplace")


# ---------------------------------------------------------------------------------------------- state_dict
def _tree(lib):
    lib.manual_seed(0)
    shared = lib.nn.Linear(2, 2)
    model = lib.nn.Sequential(shared, lib.nn.ReLU(), lib.nn.Sequential(shared, lib.nn.BatchNorm1d(2)))
    model.register_buffer("steps", lib.tensor(3))
    model[2].register_buffer("scratch", lib.zeros(1), persistent=False)
    return model


def test_state_dict_metadata_and_positional_arguments():
    def run(lib):
        model = _tree(lib)
        return dict(model.state_dict()._metadata), list(model.state_dict(None, "p.", True))

    same(run)


def test_state_dict_hooks():
    def run(lib):
        model, log = _tree(lib), []
        model.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: log.append(("pre", prefix, keep_vars)))
        model[2].register_state_dict_post_hook(lambda mod, sd, prefix, meta: log.append(("post", list(sd), prefix)))

        def drop_steps(mod, sd, prefix, meta):
            del sd[prefix + "steps"]

        model.register_state_dict_post_hook(drop_steps)
        keys = list(model.state_dict(prefix="m."))
        model.register_state_dict_post_hook(lambda mod, sd, prefix, meta: {})
        try:
            model.state_dict()
        except RuntimeError as e:
            log.append(str(e))
        return log, keys

    same(run)


def test_load_state_dict_hooks():
    def run(lib):
        model, log = _tree(lib), []

        def pre(mod, sd, prefix, meta, strict, missing, unexpected, errors):
            log.append(("pre", sorted(sd), prefix, dict(meta), strict, list(missing), list(unexpected)))

        model[2].register_load_state_dict_pre_hook(pre)
        model[2].register_load_state_dict_post_hook(lambda mod, keys: log.append(("post", tuple(keys))))
        model.register_load_state_dict_post_hook(lambda mod, keys: keys.missing_keys.clear())
        sd = model.state_dict()
        del sd["0.bias"]
        sd["x"] = lib.ones(1)
        return log, tuple(model.load_state_dict(sd, strict=False))

    same(run)


def test_load_state_dict_unexpected_keys_module_by_module():
    """Each module names the keys under its prefix that are none of its own (a dotted key must
    lead to a child), in PyTorch's order: the root's first."""

    def run(lib):
        keys = ["2.zz", "zz", "0.weight.x", "2.1.q", "9.w", "1.weight"]
        return tuple(_tree(lib).load_state_dict({k: lib.ones(1) for k in keys}, strict=False))

    same(run)


def test_load_state_dict_value_checks():
    def run(lib):
        model = lib.nn.Module()
        model.register_buffer("scalar", lib.tensor(1.0))
        model.load_state_dict({"scalar": lib.tensor([5.0])})  # an old checkpoint's 0-d tensor
        try:
            model.load_state_dict({"scalar": lib.tensor([5.0, 6.0])})  # but only one of one element
        except RuntimeError as e:
            mismatch = str(e)
        linear = _linear(lib, 2, 2)
        linear.weight.requires_grad_(False)
        new = lib.nn.Parameter(lib.zeros(2, 2, dtype=lib.float64))
        linear.load_state_dict({"weight": new, "bias": lib.ones(2)}, assign=True)
        return model.scalar, mismatch, linear.weight is new, new.requires_grad, linear.bias

    same(run)


def test_batch_norm_loads_a_state_dict_without_num_batches_tracked():
    def run(lib):
        bn = lib.nn.BatchNorm1d(2)
        bn.num_batches_tracked.fill_(4)
        plain = {k: v for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
        saved = bn.state_dict()
        del saved["num_batches_tracked"]  # with metadata of version 2: now it is missing
        return tuple(bn.load_state_dict(plain)), bn.num_batches_tracked, tuple(bn.load_state_dict(saved, strict=False))

    same(run)


def test_instance_norm_names_running_stats_it_does_not_keep():
    same_error(
        lambda lib: lib.nn.InstanceNorm1d(2).load_state_dict({"running_mean": lib.ones(2)}),
        'Unexpected running stats buffer(s) "running_mean" for InstanceNorm1d with track_running_stats=False',
    )


def test_extra_state():
    def run(lib):
        class Counter(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.count = 1

            def get_extra_state(self):
                return {"count": self.count}

            def set_extra_state(self, state):
                self.count = state["count"]

        model = lib.nn.Sequential(Counter())
        sd = model.state_dict()
        keys = list(sd)
        sd["0._extra_state"] = {"count": 5}
        model.load_state_dict(sd)
        missing = tuple(model.load_state_dict({}, strict=False))
        unexpected = tuple(lib.nn.Sequential(lib.nn.ReLU()).load_state_dict({"0._extra_state": 1}, strict=False))
        return keys, model[0].count, missing, unexpected

    same(run)


# ---------------------------------------------------------------------------------------------- registration and lookup
@pytest.mark.parametrize(
    "call",
    [
        lambda lib, m: m.register_parameter("", None),
        lambda lib, m: m.register_buffer("", None),
        lambda lib, m: m.add_module("", lib.nn.ReLU()),
        lambda lib, m: m.add_module("a.b", lib.nn.ReLU()),
        lambda lib, m: setattr(m, "steps", 3),
        lambda lib, m: m.get_submodule("2.scratch"),
        lambda lib, m: m.get_parameter("steps"),
        lambda lib, m: m.get_parameter("0.w"),
        lambda lib, m: m.get_buffer("2.scratch"),
        lambda lib, m: m.get_buffer("0.weight"),
        lambda lib, m: m.get_buffer("2.zz"),
        lambda lib, m: m.set_submodule("", lib.nn.ReLU()),
        lambda lib, m: m.set_submodule("0", 3),
        lambda lib, m: m.set_submodule("0.weight", lib.nn.ReLU()),
        lambda lib, m: m.set_submodule("2.new", lib.nn.Tanh(), strict=True),
        lambda lib, m: (m.set_submodule("2.new", lib.nn.Tanh()), m)[1],
        lambda lib, m: lib.nn.Module(1),
    ],
)
def test_registration_and_lookup(call):
    same(lambda lib: call(lib, _tree(lib)))


def test_module_to_with_an_unknown_keyword():
    same_error(lambda lib: _tree(lib).to(foo=1), "to() received an invalid combination of arguments - got (foo=int, )")


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, m: m.to(None, None),
        lambda lib, m: m.to(memory_format=lib.contiguous_format),
        lambda lib, m: m.to(lib.float64, copy=True),
        lambda lib, m: m.type("torch.DoubleTensor"),  # integer buffers too
        lambda lib, m: m.to_empty(device="cpu"),
    ],
)
def test_module_to_forms(call):
    def run(lib):
        model = call(lib, _tree(lib))
        return [(name, t.dtype == lib.float64, tuple(t.shape)) for name, t in model.state_dict().items()]

    same(run)


def test_module_to_refuses_two_dtypes():
    same_error(
        lambda lib: _tree(lib).to(lib.float64, lib.float32),
        "to() received an invalid combination of arguments - got (torch.dtype, torch.dtype)",
    )


def test_buffer_assignment():
    def run(lib):
        m = lib.nn.Module()
        m.a = lib.nn.Buffer(lib.ones(2))
        m.b = lib.nn.Buffer(lib.zeros(1), persistent=False)
        m.register_buffer("c", lib.ones(1), persistent=False)
        m.c = lib.nn.Buffer(lib.ones(1))  # persistent now
        marked = isinstance(m.a, lib.nn.Buffer), isinstance(lib.ones(1), lib.nn.Buffer), type(m.a).__name__
        return list(m.state_dict()), [n for n, _ in m.named_buffers()], marked

    same(run)


# ---------------------------------------------------------------------------------------------- containers
def _seq(lib, n=3):
    lib.manual_seed(0)
    return lib.nn.Sequential(*[lib.nn.Linear(i + 1, i + 2) for i in range(n)])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, s: s.insert(-1, lib.nn.ReLU()),
        lambda lib, s: s.insert(-3, lib.nn.ReLU()),
        lambda lib, s: s * 2,
        lambda lib, s: 2 * s,
        lambda lib, s: s * 0,
        lambda lib, s: s * 1.5,
        lambda lib, s: s.__imul__(2),
        lambda lib, s: s.__iadd__(lib.nn.Sequential(lib.nn.Tanh())),
        lambda lib, s: s.__iadd__([lib.nn.Tanh()]),
        lambda lib, s: [name for name in dir(s) if name.isdigit()],
        lambda lib, s: s["0"],
        lambda lib, s: lib.nn.Sequential(OrderedDict(a=lib.nn.ReLU(), b=lib.nn.Tanh())).insert(0, lib.nn.ReLU()),
    ],
)
def test_sequential(call):
    same(lambda lib: call(lib, _seq(lib)))


def test_deleting_from_a_sequential_deletes_as_delattr():
    """``del seq[i]`` deletes the attribute named like the i-th module: a parameter of that name
    goes first (PyTorch's quirk, which renumbering can reach)."""

    def run(lib):
        s = lib.nn.Sequential(OrderedDict(a=lib.nn.ReLU(), b=lib.nn.Tanh(), c=lib.nn.Sigmoid()))
        s.register_parameter("1", lib.nn.Parameter(lib.ones(1)))
        del s[0]  # renumbers the modules to 0, 1: module 1 meets parameter 1
        del s[1]
        return [n for n, _ in s.named_parameters()], [n for n, _ in s.named_modules()]

    same(run)


def _program(lib, seed: int, steps: int = 30):
    """A random program of registrations, assignments, deletions, container edits, casts and
    loads on a model, with everything observable logged after each step."""
    rng = random.Random(seed)
    lib.manual_seed(seed)
    root = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
    modules, log = [root, root[0]], []
    for step in range(steps):
        m, name, op = rng.choice(modules), rng.choice(["a", "b", "w", "0", "1", "weight"]), rng.randrange(14)
        try:
            if op == 0:
                setattr(m, name, lib.nn.Parameter(lib.ones(2)))
            elif op == 1:
                m.register_buffer(name, lib.ones(1), persistent=rng.random() < 0.5)
            elif op == 2:
                leaves = [x for x in modules if not x._modules and x is not m]
                new = rng.choice(leaves) if leaves and rng.random() < 0.5 else lib.nn.Linear(1, 1)
                setattr(m, name, new)
                modules += [new]
            elif op == 3:
                delattr(m, name)
            elif op == 4:
                setattr(m, name, rng.choice([None, lib.zeros(1), 3]))
            elif op == 5:
                setattr(m, name, lib.nn.Buffer(lib.ones(1), persistent=rng.random() < 0.5))
            elif op == 6 and isinstance(m, lib.nn.Sequential):
                m.insert(rng.randrange(-len(m), len(m) + 1), lib.nn.Sigmoid())
            elif op == 7 and isinstance(m, lib.nn.Sequential) and len(m):
                del m[rng.randrange(-len(m), len(m))]
            elif op == 8 and isinstance(m, lib.nn.Sequential) and len(m):
                m.pop(rng.randrange(-len(m), len(m)))
            elif op == 9:
                m.train(rng.random() < 0.5).requires_grad_(rng.random() < 0.5)
            elif op == 10:
                getattr(m, rng.choice(["double", "float", "half"]))()
            elif op == 11:
                sd = root.state_dict()
                if sd and rng.random() < 0.5:
                    del sd[rng.choice(list(sd))]
                sd[rng.choice(["q", "0.q", "0.weight.q"])] = lib.ones(1)
                log.append(tuple(root.load_state_dict(sd, strict=rng.random() < 0.5)))
            elif op == 12:
                log.append(repr(root.get_submodule(rng.choice(["0", "1", "0.w", "a.b"]))))
            elif op == 13:
                lists = lib.nn.ModuleList([lib.nn.Linear(1, 1), lib.nn.ReLU()])
                lists.insert(rng.randrange(3), lib.nn.Tanh())
                setattr(m, name, lists)
                modules += [lists]
            log.append((step, op))
        except Exception as e:  # noqa: BLE001 - the error is part of the log
            log.append((step, op, type(e).__name__, str(e).split()[:2]))
        for remove_duplicate in (True, False):
            log.append([n for n, _ in root.named_parameters(remove_duplicate=remove_duplicate)])
            log.append([n for n, _ in root.named_buffers(remove_duplicate=remove_duplicate)])
            log.append([n for n, _ in root.named_modules(remove_duplicate=remove_duplicate)])
        log += [list(root.state_dict()), repr(root), [repr(getattr(x, "training", None)) for x in root.modules()]]
        log.append([(str(p.dtype), p.requires_grad) for p in root.parameters()])
    return log


@pytest.mark.parametrize("seed", [0, 2, 3, 4, 5, 6, 7, 8])
def test_random_module_programs(seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _program(minigrad, seed), _program(torch, seed)
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        # (errors name each library's own classes: compare their first two words)
        assert str(a).replace("minigrad.nn.", "") == str(b).replace("torch.nn.modules.", ""), i


# ---------------------------------------------------------------------------------------------- nn.init
@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.init.uniform_(lib.empty(3, 4), generator=lib.Generator().manual_seed(1)),
        lambda lib: lib.nn.init.normal_(lib.empty(3, 4), generator=lib.Generator().manual_seed(1)),
        lambda lib: lib.nn.init.xavier_normal_(lib.empty(3, 4), generator=lib.Generator().manual_seed(1)),
        lambda lib: lib.nn.init.kaiming_uniform_(lib.empty(3, 4), generator=lib.Generator().manual_seed(1)),
        lambda lib: lib.nn.init.orthogonal_(lib.empty(3, 4), generator=lib.Generator().manual_seed(1)),
        lambda lib: lib.nn.init.kaiming_normal_(lib.empty(3, 4), mode="FAN_OUT"),
        lambda lib: lib.nn.init.kaiming_normal_(lib.empty(3, 4), mode="fan_avg"),
        lambda lib: lib.nn.init.sparse_(lib.empty(6, 4), 0.5),
        lambda lib: lib.nn.init.sparse_(lib.empty(6, 4, 2), 0.5),
        lambda lib: lib.nn.init.normal(lib.empty(3)),
        lambda lib: lib.nn.init.xavier_uniform(lib.empty(2, 3)),
        lambda lib: lib.nn.init.constant(lib.empty(2), 1.5),
    ],
)
def test_init(call):
    """Seeded draws are PyTorch's (on the CPU, whose stream minigrad follows)."""

    def run(lib):
        lib.manual_seed(3)
        return call(lib)

    same(run)


# ---------------------------------------------------------------------------------------------- nn.utils.rnn
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("trailing", [(), (2,)])
def test_pad_sequence(batch_first, padding_side, trailing):
    def run(lib):
        rng = np.random.default_rng(0)
        seqs = [lib.tensor(rng.standard_normal((n, *trailing)), requires_grad=True) for n in (3, 1, 2)]
        out = lib.nn.utils.rnn.pad_sequence(seqs, batch_first, -1.5, padding_side)
        weights = lib.arange(float(out.numel()), dtype=lib.float64).view(out.shape)
        (out * weights).sum().backward()
        lengths = lib.tensor([3, 1, 2])
        unpadded = lib.nn.utils.rnn.unpad_sequence(out.detach().clone(), lengths, batch_first)
        return out, node_names(out), [s.grad for s in seqs], unpadded

    same(run)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.utils.rnn.pad_sequence([]),
        lambda lib: lib.nn.utils.rnn.pad_sequence(3),
        lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2, 3)], padding_side="middle"),
        lambda lib: lib.nn.utils.rnn.pad_sequence(lib.ones(2, 3)),  # a tensor is a sequence of its rows
        lambda lib: lib.nn.utils.rnn.pad_sequence([lib.tensor([1, 2]), lib.tensor([3])], padding_value=7),
    ],
)
def test_pad_sequence_arguments(call):
    same(call)


def test_spectral_norm_notes_its_version_in_the_metadata():
    def run(lib):
        layer = lib.nn.utils.spectral_norm(_linear(lib, 3, 2))
        noted = dict(lib.nn.Sequential(layer).state_dict()._metadata)
        lib.nn.utils.remove_spectral_norm(layer)
        return noted, dict(layer.state_dict()._metadata)

    same(run)
