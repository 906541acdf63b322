"""minigrad.optim.AdamW against torch.optim.AdamW: the same model, data and steps give the same
parameters and state; the same defaults, param groups and constructor errors."""

from __future__ import annotations

import copy
import inspect
import pickle
import zlib

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F

torch = pytest.importorskip("torch")

from test_optim import TOL, arr, build_pair  # noqa: E402  (the same tiny MLP in both libraries)

# Every training test runs on each device (see tests/conftest.py), as in test_optim.py.
on_device = pytest.mark.usefixtures("on_device")

CONFIGS = {
    "defaults": dict(),
    "lr": dict(lr=0.01),
    "amsgrad": dict(lr=0.01, amsgrad=True),
    "maximize": dict(lr=0.01, maximize=True),
    "maximize-amsgrad": dict(lr=0.02, maximize=True, amsgrad=True, eps=1e-6),
    "no-weight-decay": dict(lr=0.01, weight_decay=0),
    "strong-weight-decay": dict(lr=0.05, weight_decay=0.5),
    "betas": dict(lr=0.01, betas=(0.8, 0.95), weight_decay=0.1),
    "zero-betas": dict(lr=0.01, betas=(0.0, 0.0)),
    "positional": (0.03, (0.85, 0.99), 1e-7, 0.2, True),  # lr, betas, eps, weight_decay, amsgrad
}


def make_optimizers(name: str, ours, theirs, groups: bool):
    args = CONFIGS[name]
    args, kwargs = (args, {}) if isinstance(args, tuple) else ((), args)

    def params(model):
        if not groups:
            return model.parameters()
        # the second layer in a group of its own, with its own lr and decay
        first, second = list(model.parameters())[:2], list(model.parameters())[2:]
        return [{"params": first}, {"params": second, "lr": 0.004, "weight_decay": 0.3}]

    return minigrad.optim.AdamW(params(ours), *args, **kwargs), torch.optim.AdamW(params(theirs), *args, **kwargs)


def train_both(name: str, dtype: str, steps: int = 7, groups: bool = False):
    """Train both models side by side; compare parameters and state at every step."""
    ours, theirs = build_pair(dtype)
    opt_m, opt_t = make_optimizers(name, ours, theirs, groups)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    tol = TOL[dtype]
    for step in range(steps):
        x = rng.standard_normal((8, 3)).astype(dtype)
        y = rng.standard_normal((8, 2)).astype(dtype)
        opt_m.zero_grad()
        opt_t.zero_grad()
        F.mse_loss(ours(minigrad.tensor(x)), minigrad.tensor(y)).backward()
        torch.nn.functional.mse_loss(theirs(torch.tensor(x)), torch.tensor(y)).backward()
        opt_m.step()
        opt_t.step()
        for (pname, p), q in zip(ours.named_parameters(), theirs.parameters()):
            np.testing.assert_allclose(arr(p), arr(q), **tol, err_msg=f"{pname} after step {step}")
            assert p.is_leaf and p.requires_grad and p.device == minigrad.get_default_device()
    for p_m, p_t in zip(ours.parameters(), theirs.parameters()):
        s_m, s_t = opt_m.state[p_m], opt_t.state[p_t]
        assert list(s_m) == list(s_t) and s_m["step"].item() == s_t["step"].item() == steps
        for key in list(s_m)[1:]:
            np.testing.assert_allclose(arr(s_m[key]), arr(s_t[key]), **tol, err_msg=key)
    return ours, theirs, opt_m, opt_t


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_training_matches_torch_step_by_step(name, dtype):
    train_both(name, dtype)


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_param_groups_with_their_own_decay_match_torch(dtype):
    train_both("amsgrad", dtype, groups=True)


def test_weight_decay_is_decoupled():
    """One step from a zero gradient only shrinks the weight: w * (1 - lr * weight_decay) exactly
    (Adam's coupled decay would move it by about lr instead, through the normalized moments)."""
    w = nn.Parameter(minigrad.tensor([2.0, -4.0], dtype=minigrad.float64))
    opt = minigrad.optim.AdamW([w], lr=0.1, weight_decay=0.5)
    w.grad = minigrad.zeros_like(w)
    opt.step()
    assert w.tolist() == [2.0 * (1 - 0.1 * 0.5), -4.0 * (1 - 0.1 * 0.5)]


def test_adamw_is_adam_with_decoupled_decay():
    ours, _ = build_pair("float64")
    twin = copy.deepcopy(ours)
    opt = minigrad.optim.AdamW(ours.parameters(), lr=0.01)
    adam = minigrad.optim.Adam(twin.parameters(), lr=0.01, weight_decay=1e-2, decoupled_weight_decay=True)
    assert isinstance(opt, minigrad.optim.Adam) and isinstance(opt, minigrad.optim.Optimizer)
    x, y = minigrad.randn(4, 3, dtype=minigrad.float64), minigrad.randn(4, 2, dtype=minigrad.float64)
    for model, optimizer in ((ours, opt), (twin, adam)):
        for _ in range(3):
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()
    for p, q in zip(ours.parameters(), twin.parameters()):
        np.testing.assert_array_equal(arr(p), arr(q))


def test_defaults_param_groups_and_repr_match_torch():
    ours, theirs = build_pair("float32")
    opt_m, opt_t = minigrad.optim.AdamW(ours.parameters()), torch.optim.AdamW(theirs.parameters())
    assert opt_m.defaults == opt_t.defaults
    assert opt_m.defaults["weight_decay"] == 1e-2 and opt_m.defaults["decoupled_weight_decay"] is True
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]
    assert repr(opt_m) == repr(opt_t) and repr(opt_m).startswith("AdamW (")


def test_signature_matches_torch():
    def signature(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

    assert signature(minigrad.optim.AdamW.__init__) == signature(torch.optim.AdamW.__init__)
    assert minigrad.optim.AdamW.__name__ == "AdamW" and "AdamW" in minigrad.optim.__all__


def test_loaded_or_copied_state_stays_decoupled_like_torch():
    """AdamW forces decoupled_weight_decay=True when its state is set (unpickling, deepcopy)."""
    for lib in (minigrad, torch):
        opt = lib.optim.AdamW([lib.nn.Parameter(lib.ones(2))], lr=0.1)
        state = opt.__getstate__()
        state["param_groups"][0]["decoupled_weight_decay"] = False
        opt.__setstate__(state)
        assert opt.param_groups[0]["decoupled_weight_decay"] is True
        for copied in (copy.deepcopy(opt), pickle.loads(pickle.dumps(opt))):
            assert type(copied).__name__ == "AdamW" and copied.param_groups[0]["decoupled_weight_decay"] is True


def test_state_dict_round_trip_continues_identically():
    ours, _ = build_pair("float64")
    opt = minigrad.optim.AdamW(ours.parameters(), lr=0.01, amsgrad=True, weight_decay=0.2)
    x, y = minigrad.randn(4, 3, dtype=minigrad.float64), minigrad.randn(4, 2, dtype=minigrad.float64)

    def train(model, optimizer, steps):
        for _ in range(steps):
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()

    train(ours, opt, 2)
    twin = copy.deepcopy(ours)
    twin_opt = minigrad.optim.AdamW(twin.parameters(), lr=0.5)
    twin_opt.load_state_dict(copy.deepcopy(opt.state_dict()))  # (PyTorch uses a state dict's tensors as they are)
    assert twin_opt.param_groups[0]["weight_decay"] == 0.2 and twin_opt.param_groups[0]["amsgrad"] is True
    train(ours, opt, 3)
    train(twin, twin_opt, 3)
    for p, q in zip(ours.parameters(), twin.parameters()):
        np.testing.assert_array_equal(arr(p), arr(q))


CONSTRUCTOR_ERRORS = [
    dict(lr=-0.5),
    dict(lr=float("nan")),  # not 0 <= nan
    dict(eps=float("nan")),
    dict(eps=-1.0),
    dict(betas=(1.0, 0.9)),
    dict(betas=(0.9, 1.0)),
    dict(betas=(-0.1, 0.9)),
    dict(betas=(0.9, 0)),  # not floats
    dict(betas=(0, 0.999)),
    dict(weight_decay=-1e-2),
]


@pytest.mark.parametrize("kwargs", CONSTRUCTOR_ERRORS, ids=str)
def test_bad_hyperparameters_raise_torch_errors(kwargs):
    with pytest.raises(ValueError) as theirs:
        torch.optim.AdamW([torch.nn.Parameter(torch.rand(2))], **kwargs)
    with pytest.raises(ValueError) as ours:
        minigrad.optim.AdamW([nn.Parameter(minigrad.rand(2))], **kwargs)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, p: [],  # empty
        lambda lib, p: p,  # a tensor instead of an iterable
        lambda lib, p: [p * 2],  # a non-leaf
    ],
)
def test_bad_parameter_lists_raise_torch_errors(make):
    with pytest.raises((ValueError, TypeError)) as theirs:
        torch.optim.AdamW(make(torch, torch.nn.Parameter(torch.rand(2))))
    with pytest.raises(type(theirs.value)) as ours:
        minigrad.optim.AdamW(make(minigrad, nn.Parameter(minigrad.rand(2))))
    assert str(ours.value) == str(theirs.value)


def test_decoupled_weight_decay_is_not_an_argument():
    """As in PyTorch, AdamW always decouples: the keyword is Adam's only."""
    for lib in (minigrad, torch):
        with pytest.raises(TypeError, match="decoupled_weight_decay"):
            lib.optim.AdamW([lib.nn.Parameter(lib.rand(2))], decoupled_weight_decay=False)


def test_fused_and_differentiable_are_refused():
    """minigrad has neither (PyTorch has both, on some devices)."""
    for flag in ("fused", "differentiable"):
        with pytest.raises(NotImplementedError):
            minigrad.optim.AdamW([nn.Parameter(minigrad.rand(2))], **{flag: True})


def test_adamw_works_with_a_scheduler_like_torch():
    runs = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.tensor([1.0, -2.0], dtype=lib.float64))
        opt = lib.optim.AdamW([w], lr=0.1)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=6)
        history = []
        for _ in range(6):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
            sched.step()
            history.append((sched.get_last_lr(), opt.param_groups[0]["betas"], w.tolist()))
        runs.append(history)
    for (lr_m, betas_m, w_m), (lr_t, betas_t, w_t) in zip(*runs):
        assert lr_m == lr_t and betas_m == betas_t  # the scheduler cycles beta1 as the momentum
        np.testing.assert_allclose(w_m, w_t, rtol=1e-12)
