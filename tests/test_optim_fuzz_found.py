"""Differences from torch.optim found by a differential fuzzer (random parameters, groups, closures,
state_dict round trips and schedulers); each test runs the same program in both libraries."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def raised(fn, lib):
    """The exception ``fn(lib)`` raises, as (type name, message)."""
    with pytest.raises(Exception) as info:
        fn(lib)
    return type(info.value).__name__, str(info.value)


def test_sgd_foreach_nesterov_adds_the_momentum_into_grad_as_torch():
    """PyTorch's foreach SGD (foreach=True; the default on CUDA) adds momentum * buf into the
    gradient tensors themselves when there is neither weight decay nor maximize (then it works
    on a copy): .grad changes, and a second step with the same .grad moves further."""
    for kwargs in (dict(), dict(weight_decay=0.1), dict(maximize=True)):
        results = []
        for lib in LIBS:
            w = lib.nn.Parameter(lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64))
            opt = lib.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, foreach=True, **kwargs)
            w.grad = lib.tensor([0.5, 0.25, -1.0], dtype=lib.float64)
            trace = []
            for _ in range(3):
                opt.step()
                trace.append((arr(w).copy(), arr(w.grad).copy(), arr(opt.state[w]["momentum_buffer"]).copy()))
            results.append(trace)
        for ours, theirs in zip(*results):
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-14, atol=1e-15, err_msg=str(kwargs))


def test_adam_first_moment_is_a_lerp_as_torch():
    """PyTorch moves exp_avg with lerp_: an infinite gradient makes it nan at the next step
    (inf - inf), where beta1 * m + (1 - beta1) * g stays inf."""
    states = []
    for lib in LIBS:
        w = lib.nn.Parameter(lib.zeros(2))
        opt = lib.optim.Adam([w], lr=0.1)
        for g in ([float("inf"), 1.0], [float("inf"), 2.0]):
            w.grad = lib.tensor(g)
            opt.step()
        states.append((arr(opt.state[w]["exp_avg"]), arr(opt.state[w]["exp_avg_sq"]), arr(w)))
    for a, b in zip(*states):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_keeps_betas_given_as_a_list_as_a_tuple(name):
    groups = [getattr(lib.optim, name)([lib.nn.Parameter(lib.ones(1))], betas=[0.8, 0.9]).param_groups for lib in LIBS]
    assert type(groups[0][0]["betas"]) is type(groups[1][0]["betas"]) is tuple
    assert repr(groups[0][0]["betas"]) == repr(groups[1][0]["betas"])


@pytest.mark.parametrize("name", ["Adam", "AdamW", "Adamax", "NAdam", "RAdam"])
def test_one_beta_raises_index_error_as_torch(name):
    def make(lib):
        getattr(lib.optim, name)([lib.nn.Parameter(lib.ones(1))], betas=(0.9,))

    assert raised(make, minigrad)[0] == raised(make, torch)[0] == "IndexError"


@pytest.mark.parametrize("group", [[1.0], "params"])
def test_add_param_group_names_the_type_as_torch(group):
    def add(lib):
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1))]).add_param_group(group)

    ours, theirs = raised(add, minigrad), raised(add, torch)
    assert ours == theirs


def _state_dict_with_duplicates(lib):
    a, b, c = (lib.nn.Parameter(lib.ones(1)) for _ in range(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate parameters are warned about (checked elsewhere)
        opt = lib.optim.Adam([{"params": [a, b, a]}, {"params": [c]}], lr=0.1)
    for p in (a, b, c):
        p.grad = lib.ones(1)
    opt.step()
    return opt.state_dict()


def test_state_dict_numbers_parameters_as_torch_with_a_duplicate():
    """PyTorch numbers each group's parameters from the count of those before it (duplicates
    included), a repeated parameter taking its last index."""
    ours, theirs = _state_dict_with_duplicates(minigrad), _state_dict_with_duplicates(torch)
    assert [g["params"] for g in ours["param_groups"]] == [g["params"] for g in theirs["param_groups"]]
    assert list(ours["state"]) == list(theirs["state"])


@pytest.mark.parametrize("extra", ["unknown index", "moved indices"])
def test_state_of_no_parameter_survives_a_round_trip_as_torch(extra):
    """State loaded under a key that names no parameter is kept by load_state_dict, and PyTorch's
    state_dict gives it back under the same key (minigrad dropped it)."""
    keys = []
    for lib in LIBS:
        w, v = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([{"params": [w]}, {"params": [v], "lr": 0.5}], lr=0.1, momentum=0.9)
        w.grad = v.grad = lib.ones(2)
        opt.step()
        saved = opt.state_dict()
        if extra == "unknown index":
            saved["state"][7] = {"momentum_buffer": lib.zeros(2)}
        else:  # the groups name indices 5 and 6: the saved state (0 and 1) belongs to no parameter
            saved["param_groups"][0]["params"], saved["param_groups"][1]["params"] = [5], [6]
        opt.load_state_dict(saved)
        packed = opt.state_dict()
        keys.append(
            (list(packed["state"]), {k: arr(s["momentum_buffer"]).tolist() for k, s in packed["state"].items()})
        )
    assert keys[0] == keys[1]


def test_param_groups_are_the_dicts_given_as_torch():
    """PyTorch completes the given group dicts in place and keeps them as its param_groups, so
    that changing one later changes the optimizer (minigrad kept copies)."""
    for lib in LIBS:
        first, later = {"params": [lib.nn.Parameter(lib.ones(1))]}, {"params": (lib.nn.Parameter(lib.ones(1)),)}
        opt = lib.optim.SGD([first], lr=0.1, momentum=0.9)
        opt.add_param_group(later)
        later["lr"] = 0.5
        assert opt.param_groups[0] is first and opt.param_groups[1] is later, lib.__name__
        assert list(first) == ["params", *opt.defaults] and type(later["params"]) is list
        assert opt.param_groups[1]["lr"] == 0.5


def test_a_non_leaf_that_retains_its_grad_can_be_optimized_as_torch():
    values = []
    for lib in LIBS:
        y = lib.ones(2, requires_grad=True) * 2
        y.retain_grad()
        opt = lib.optim.SGD([y], lr=0.1)
        (y * y).sum().backward()
        opt.step()
        values.append(arr(y))
    np.testing.assert_array_equal(*values)


def test_a_parameter_that_is_no_tensor_is_named_as_torch():
    def make(lib):
        lib.optim.SGD([lib.nn.Parameter(lib.ones(1)), np.ones(2)])

    assert raised(make, minigrad) == raised(make, torch)


def test_named_parameters_take_the_first_two_items_of_each_tuple_as_torch():
    groups = []
    for lib in LIBS:
        opt = lib.optim.SGD([("w", lib.nn.Parameter(lib.ones(1)), "extra")], lr=0.1)
        groups.append(opt.state_dict()["param_groups"])
    assert groups[0] == groups[1]


def test_adam_step_is_an_addcdiv_to_the_bit_as_torch():
    """PyTorch's step is param.addcdiv_(exp_avg, denom, value=-step_size), which rounds as
    (value * exp_avg) / denom: dividing first was a float32 rounding off in 3 steps of ones."""
    values = []
    for lib in LIBS:
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.Adam([w], lr=0.1)
        for _ in range(3):
            w.grad = lib.ones(2)
            opt.step()
        values.append(arr(w))
    np.testing.assert_array_equal(*values)


def _hooked_run(lib, name):
    """Every kind of optimizer hook, their order and arguments, and removal."""
    import importlib

    log = []
    w = lib.nn.Parameter(lib.ones(2))
    opt = getattr(lib.optim, name)([w], lr=0.1)
    module = importlib.import_module(f"{lib.__name__}.optim.optimizer")
    handles = [
        opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", type(o).__name__, len(args), *kwargs))),
        opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", len(args), *kwargs))),
        module.register_optimizer_step_pre_hook(lambda o, args, kwargs: log.append("global pre")),
        module.register_optimizer_step_post_hook(lambda o, args, kwargs: log.append("global post")),
        opt.register_state_dict_pre_hook(lambda o: log.append("state_dict pre")),
        opt.register_state_dict_pre_hook(lambda o: log.append("state_dict pre, prepended"), prepend=True),
        opt.register_state_dict_post_hook(lambda o, sd: log.append(("state_dict post", *sd))),
        opt.register_load_state_dict_pre_hook(lambda o, sd: log.append(("load pre", *sd))),
        opt.register_load_state_dict_post_hook(lambda o: log.append("load post")),
    ]

    def closure():
        log.append("closure")
        return lib.tensor(1.0)

    w.grad = lib.ones(2)
    opt.step(closure)
    opt.step(closure=closure)
    opt.load_state_dict(opt.state_dict())
    for handle in handles:
        handle.remove()
    opt.step(closure)
    opt.load_state_dict(opt.state_dict())
    return log


@pytest.mark.parametrize("name", ["SGD", "Adafactor", "LBFGS"])
def test_optimizer_hooks_run_as_torch(name):
    assert _hooked_run(minigrad, name) == _hooked_run(torch, name)


def test_hooks_can_replace_the_step_arguments_and_the_state_dicts_as_torch():
    results = []
    for lib in LIBS:
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([w], lr=0.1)
        opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": lambda: 5.0}))
        opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
        given = opt.state_dict()
        # the pre-hook gets a shallow copy: replacing a key there leaves the caller's dict alone
        opt.register_load_state_dict_pre_hook(
            lambda o, sd: sd.update(param_groups=[{**sd["param_groups"][0], "lr": 7.0}])
        )
        opt.load_state_dict(given)
        w.grad = lib.ones(2)
        results.append((opt.step(), sorted(given), opt.param_groups[0]["lr"], given["param_groups"][0]["lr"]))
    assert results[0] == results[1]


def test_making_an_optimizer_changes_no_class():
    """The step hooks are wrapped around each class's step when the class is made: making an
    optimizer later must not patch a class (the course's tamper check would see a changed
    minigrad), and a step with hooks runs them once."""
    classes = [minigrad.optim.SGD, minigrad.optim.Adam, minigrad.optim.Adafactor, minigrad.optim.Optimizer]
    before = [dict(vars(cls)) for cls in classes]
    w = minigrad.nn.Parameter(minigrad.ones(2))
    for cls in classes[:3]:
        opt = cls([w], lr=0.1)
        calls = []
        opt.register_step_pre_hook(lambda *args, calls=calls: calls.append(1))
        w.grad = minigrad.ones(2)
        opt.step()
        assert calls == [1]
    assert [dict(vars(cls)) for cls in classes] == before
