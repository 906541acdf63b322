"""Regressions found by differential fuzzing of minigrad.optim against torch.optim, and a small
seeded sweep of the same kind (random shapes, hyperparameters, groups, missing grads)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.usefixtures("on_device")


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def pair(shapes, dtype, seed):
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s).astype(dtype) for s in shapes]
    return (
        [minigrad.nn.Parameter(minigrad.tensor(a.copy())) for a in init],
        [torch.nn.Parameter(torch.tensor(a.copy())) for a in init],
        rng,
    )


def train(opt_m, opt_t, ours, theirs, rng, steps, skip_every=0):
    for step in range(steps):
        for i, (p, q) in enumerate(zip(ours, theirs)):
            if skip_every and (step + i) % skip_every == 0:
                p.grad = q.grad = None
                continue
            g = rng.standard_normal(p.shape).astype(arr(p).dtype)
            p.grad, q.grad = minigrad.tensor(g.copy()), torch.tensor(g.copy())
        opt_m.step()
        opt_t.step()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs", [dict(), dict(weight_decay=0.05, maximize=True), dict(t0=2, lambd=1e-2, alpha=0.6)])
def test_asgd_foreach_follows_torchs_foreach_arithmetic(kwargs, dtype):
    """PyTorch's foreach ASGD (foreach=True; the default on CUDA) arranges the step otherwise and
    computes eta in float32 from the step tensor: minigrad followed the single-tensor path, 1e-8
    apart in float64 after 20 steps."""
    ours, theirs, rng = pair([(3, 4), (5,)], dtype, 0)
    opt_m = minigrad.optim.ASGD(ours, lr=0.05, foreach=True, **kwargs)
    opt_t = torch.optim.ASGD(theirs, lr=0.05, foreach=True, **kwargs)
    train(opt_m, opt_t, ours, theirs, rng, 20)
    tol = dict(rtol=1e-13, atol=1e-15) if dtype == "float64" else dict(rtol=2e-6, atol=1e-6)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(arr(p), arr(q), **tol)
        for key in ("eta", "mu", "ax"):
            np.testing.assert_allclose(arr(opt_m.state[p][key]), arr(opt_t.state[q][key]), **tol, err_msg=key)


def test_load_state_dict_fills_the_defaults_as_torch():
    """PyTorch's load_state_dict goes through __setstate__, which adds differentiable=False to the
    defaults: a group added afterwards carries it (minigrad's groups lacked it)."""
    groups = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(2))
        w.grad = lib.ones(2)
        opt = lib.optim.Adafactor([w])
        opt.step()
        fresh = lib.optim.Adafactor([w])
        fresh.load_state_dict(opt.state_dict())
        fresh.add_param_group({"params": [lib.nn.Parameter(lib.zeros(1))]})
        groups.append((fresh.defaults, fresh.state_dict()["param_groups"]))
    assert groups[0] == groups[1]
    assert groups[0][1][1]["differentiable"] is False


def _random_case(seed: int):
    """One optimizer with random valid hyperparameters (as the fuzzer draws them)."""
    r = random.Random(seed)
    name = r.choice(
        [
            "SGD",
            "Adam",
            "AdamW",
            "Adadelta",
            "Adagrad",
            "Adamax",
            "ASGD",
            "NAdam",
            "RAdam",
            "RMSprop",
            "Rprop",
            "Adafactor",
        ]
    )
    common = dict(maximize=r.random() < 0.5, foreach=r.choice([None, True, False]))
    wd = r.choice([0, r.uniform(0, 0.1)])
    betas = (r.uniform(0, 0.99), r.uniform(0.5, 0.999))
    kwargs = {
        "SGD": dict(lr=r.uniform(1e-3, 0.5), momentum=0.9, dampening=r.choice([0, 0.3]), weight_decay=wd),
        "Adam": dict(lr=r.uniform(1e-3, 0.1), betas=betas, weight_decay=wd, amsgrad=r.random() < 0.5),
        "AdamW": dict(lr=r.uniform(1e-3, 0.1), betas=betas, weight_decay=wd, amsgrad=r.random() < 0.5),
        "Adadelta": dict(lr=r.uniform(0.1, 2), rho=r.uniform(0, 0.99), weight_decay=wd),
        "Adagrad": dict(
            lr=r.uniform(1e-3, 0.5),
            lr_decay=r.choice([0, 0.05]),
            initial_accumulator_value=r.choice([0, 0.5]),
            weight_decay=wd,
        ),
        "Adamax": dict(lr=r.uniform(1e-3, 0.1), betas=betas, weight_decay=wd),
        "ASGD": dict(lr=r.uniform(1e-3, 0.1), t0=r.choice([1e6, 2]), weight_decay=wd),
        "NAdam": dict(lr=r.uniform(1e-3, 0.1), betas=betas, weight_decay=wd, decoupled_weight_decay=r.random() < 0.5),
        "RAdam": dict(lr=r.uniform(1e-3, 0.1), betas=betas, weight_decay=wd, decoupled_weight_decay=r.random() < 0.5),
        "RMSprop": dict(
            lr=r.uniform(1e-3, 0.1), momentum=r.choice([0, 0.5]), centered=r.random() < 0.5, weight_decay=wd
        ),
        "Rprop": dict(lr=r.uniform(1e-3, 0.1), etas=(r.uniform(0.1, 0.9), r.uniform(1.01, 2))),
        "Adafactor": dict(lr=r.uniform(1e-3, 0.1), beta2_decay=r.uniform(-1, 0), d=r.uniform(1, 3), weight_decay=wd),
    }[name]
    shapes = [tuple(r.choice([1, 2, 3]) for _ in range(r.choice([0, 1, 2, 3]))) for _ in range(r.randint(1, 3))]
    return name, {**kwargs, **common}, shapes, r.choice(["float32", "float64"])


@pytest.mark.parametrize("seed", range(24))
def test_random_optimizer_agrees_with_torch(seed):
    name, kwargs, shapes, dtype = _random_case(seed)
    ours, theirs, rng = pair(shapes, dtype, seed)
    half = len(ours) // 2 or 1
    opt_m = getattr(minigrad.optim, name)(
        [{"params": ours[:half]}, {"params": ours[half:]}] if len(ours) > 1 else ours, **kwargs
    )
    opt_t = getattr(torch.optim, name)(
        [{"params": theirs[:half]}, {"params": theirs[half:]}] if len(theirs) > 1 else theirs, **kwargs
    )
    train(opt_m, opt_t, ours, theirs, rng, 6, skip_every=4)
    # a state saved in the middle of training, loaded into a fresh optimizer, continues alike
    fresh = getattr(minigrad.optim, name)(
        [{"params": ours[:half]}, {"params": ours[half:]}] if len(ours) > 1 else ours, **kwargs
    )
    fresh.load_state_dict(opt_m.state_dict())
    theirs_fresh = getattr(torch.optim, name)(
        [{"params": theirs[:half]}, {"params": theirs[half:]}] if len(theirs) > 1 else theirs, **kwargs
    )
    theirs_fresh.load_state_dict(opt_t.state_dict())
    train(fresh, theirs_fresh, ours, theirs, rng, 6, skip_every=3)
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == "float64" else dict(rtol=1e-5, atol=1e-6)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(arr(p), arr(q), **tol, err_msg=f"{name} {kwargs}")
        assert list(fresh.state.get(p, {})) == list(theirs_fresh.state.get(q, {}))
    assert fresh.state_dict()["param_groups"] == theirs_fresh.state_dict()["param_groups"]
    assert repr(fresh) == repr(theirs_fresh)
