"""optim.Adafactor and optim.swa_utils against torch: the same gradients give the same numbers."""

from __future__ import annotations

import copy
import math
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.usefixtures("on_device")

# Adafactor's lerp, norms and means round differently from PyTorch's vectorised kernels (FMA,
# pairwise sums) in the last bit; over 40 steps the parameters stay within these.
TOL = {"float64": dict(rtol=1e-12, atol=1e-13), "float32": dict(rtol=1e-5, atol=1e-6)}


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def pair(shapes, dtype, seed=0):
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s).astype(dtype) for s in shapes]
    ours = [nn.Parameter(minigrad.tensor(a.copy())) for a in init]
    theirs = [torch.nn.Parameter(torch.tensor(a.copy())) for a in init]
    return ours, theirs, rng


def give_grads(ours, theirs, rng, skip=()):
    for i, (p, q) in enumerate(zip(ours, theirs)):
        if i in skip:
            p.grad = q.grad = None
            continue
        g = rng.standard_normal(p.shape).astype(arr(p).dtype)
        p.grad, q.grad = minigrad.tensor(g.copy()), torch.tensor(g.copy())


def compare_state(opt_m, opt_t, tol):
    for group_m, group_t in zip(opt_m.param_groups, opt_t.param_groups):
        for p, q in zip(group_m["params"], group_t["params"]):
            s_m, s_t = opt_m.state.get(p, {}), opt_t.state.get(q, {})
            assert list(s_m) == list(s_t)
            for key in s_t:
                assert s_m[key].shape == s_t[key].shape and str(s_m[key].dtype) == str(s_t[key].dtype), key
                np.testing.assert_allclose(arr(s_m[key]), arr(s_t[key]), **tol, err_msg=key)


SHAPES = [(3, 4), (5,), (2, 3, 4), (), (1, 7), (6, 1)]
CONFIGS = {
    "default": dict(),
    "lr-decay": dict(lr=0.3, weight_decay=0.1),
    "maximize-d": dict(maximize=True, d=2.0, beta2_decay=-0.5),
    "eps": dict(eps=(1e-5, 1e-2), lr=0.05),
    "foreach": dict(foreach=False, lr=0.02, weight_decay=0.5),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_adafactor_matches_torch_over_many_steps(name, dtype):
    ours, theirs, rng = pair(SHAPES, dtype)
    opt_m = minigrad.optim.Adafactor(ours, **CONFIGS[name])
    opt_t = torch.optim.Adafactor(theirs, **CONFIGS[name])
    for step in range(40):
        give_grads(ours, theirs, rng, skip=(1,) if step % 7 == 3 else ())
        opt_m.step()
        opt_t.step()
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(arr(p), arr(q), **TOL[dtype])
    compare_state(opt_m, opt_t, TOL[dtype])
    assert opt_m.state[ours[1]]["step"].item() == opt_t.state[theirs[1]]["step"].item() < 40


def test_adafactor_state_and_state_dict_layout():
    ours, theirs, rng = pair([(2, 3, 4), (4,)], "float32")
    opt_m = minigrad.optim.Adafactor([{"params": ours[:1], "lr": 0.1}, {"params": ours[1:]}])
    opt_t = torch.optim.Adafactor([{"params": theirs[:1], "lr": 0.1}, {"params": theirs[1:]}])
    give_grads(ours, theirs, rng)
    opt_m.step()
    opt_t.step()
    s_m, s_t = opt_m.state_dict(), opt_t.state_dict()
    assert s_m["param_groups"] == s_t["param_groups"]
    assert {k: list(v) for k, v in s_m["state"].items()} == {k: list(v) for k, v in s_t["state"].items()}
    assert s_m["state"][0]["row_var"].shape == (2, 3, 1) and s_m["state"][0]["col_var"].shape == (2, 1, 4)
    assert s_m["state"][0]["step"].dtype == minigrad.float32
    assert repr(opt_m) == repr(opt_t)


def test_adafactor_state_dict_round_trip_mid_training():
    ours, theirs, rng = pair([(3, 4), (5,)], "float64")
    opt_m = minigrad.optim.Adafactor(ours, lr=0.2)
    opt_t = torch.optim.Adafactor(theirs, lr=0.2)
    for _ in range(3):
        give_grads(ours, theirs, rng)
        opt_m.step()
        opt_t.step()
    twin = [nn.Parameter(p.detach().clone()) for p in ours]
    twin_opt = minigrad.optim.Adafactor(twin, lr=0.9)
    twin_opt.load_state_dict(copy.deepcopy(opt_m.state_dict()))  # (PyTorch uses a state dict's tensors as they are)
    assert twin_opt.param_groups[0]["lr"] == 0.2
    for _ in range(4):
        give_grads(ours, theirs, rng)
        for p, t in zip(ours, twin):
            t.grad = p.grad.clone()
        opt_m.step()
        opt_t.step()
        twin_opt.step()
    for p, t, q in zip(ours, twin, theirs):
        np.testing.assert_array_equal(arr(p), arr(t))
        np.testing.assert_allclose(arr(p), arr(q), **TOL["float64"])


def test_adafactor_eps1_none_comes_from_the_first_parameter_of_the_group():
    """PyTorch sets eps1 once per group, from the dtype of its first parameter with a grad."""
    for first in ("float32", "float64"):
        rng = np.random.default_rng(1)
        a32 = rng.standard_normal(4).astype("float32") * 1e-5
        a64 = rng.standard_normal(4) * 1e-5
        order = [a32, a64] if first == "float32" else [a64, a32]
        ours = [nn.Parameter(minigrad.tensor(a.copy())) for a in order]
        theirs = [torch.nn.Parameter(torch.tensor(a.copy())) for a in order]
        opt_m, opt_t = minigrad.optim.Adafactor(ours), torch.optim.Adafactor(theirs)
        for p, q in zip(ours, theirs):
            p.grad, q.grad = p.detach() * 1e-6, q.detach() * 1e-6
        opt_m.step()
        opt_t.step()
        for p, q in zip(ours, theirs):
            np.testing.assert_allclose(arr(p), arr(q), rtol=1e-6)
        assert opt_m.param_groups[0]["eps"] == (None, 1e-3)


ADAFACTOR_ERRORS = [
    dict(lr=-1.0),
    dict(beta2_decay=0.5),
    dict(eps=(-1.0, 1e-3)),
    dict(eps=(None, -1.0)),
    dict(d=0.5),
    dict(weight_decay=-0.1),
    dict(lr=float("nan")),
]


@pytest.mark.parametrize("kwargs", ADAFACTOR_ERRORS)
def test_adafactor_bad_arguments_raise_torch_errors(kwargs):
    with pytest.raises(ValueError) as theirs:
        torch.optim.Adafactor([torch.nn.Parameter(torch.rand(2))], **kwargs)
    with pytest.raises(ValueError) as ours:
        minigrad.optim.Adafactor([nn.Parameter(minigrad.rand(2))], **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_adafactor_empty_parameter_fails_as_in_torch():
    for lib in (torch, minigrad):
        p = lib.nn.Parameter(lib.zeros(0, 3))
        p.grad = lib.zeros(0, 3)
        with pytest.raises(ZeroDivisionError):
            lib.optim.Adafactor([p]).step()


# ------------------------------------------------------------------------------------- swa_utils
def build_pair(with_bn: bool = False):
    ours = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4) if with_bn else nn.Tanh(), nn.Linear(4, 2))
    theirs = torch.nn.Sequential(
        torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4) if with_bn else torch.nn.Tanh(), torch.nn.Linear(4, 2)
    )
    with torch.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            q.copy_(torch.from_numpy(arr(p).copy()))
    return ours, theirs


def perturb(ours, theirs, rng, scale=0.3):
    for p, q in zip(ours.parameters(), theirs.parameters()):
        d = rng.standard_normal(p.shape).astype("float32") * scale
        with minigrad.no_grad():
            p.add_(minigrad.tensor(d))
        with torch.no_grad():
            q.add_(torch.tensor(d))


def make_avg(lib, kind):
    su = lib.optim.swa_utils
    return {
        "swa": dict(),
        "swa-multi": dict(multi_avg_fn=su.get_swa_multi_avg_fn()),
        "swa-avg": dict(avg_fn=su.get_swa_avg_fn()),
        "ema-multi": dict(multi_avg_fn=su.get_ema_multi_avg_fn(0.9)),
        "ema-avg": dict(avg_fn=su.get_ema_avg_fn(0.8)),
        "buffers": dict(use_buffers=True),
        "buffers-ema": dict(use_buffers=True, multi_avg_fn=su.get_ema_multi_avg_fn(0.5)),
    }[kind]


@pytest.mark.parametrize("kind", ["swa", "swa-multi", "swa-avg", "ema-multi", "ema-avg", "buffers", "buffers-ema"])
def test_averaged_model_matches_torch(kind):
    ours, theirs = build_pair(with_bn=kind.startswith("buffers"))
    avg_m = minigrad.optim.swa_utils.AveragedModel(ours, **make_avg(minigrad, kind))
    avg_t = torch.optim.swa_utils.AveragedModel(theirs, **make_avg(torch, kind))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 3)).astype("float32")
    for _ in range(4):
        perturb(ours, theirs, rng)
        ours(minigrad.tensor(x))  # (training mode: the batch norm's running statistics move)
        theirs(torch.tensor(x))
        avg_m.update_parameters(ours)
        avg_t.update_parameters(theirs)
    sd_m, sd_t = avg_m.state_dict(), avg_t.state_dict()
    assert list(sd_m) == list(sd_t)
    for key in sd_t:
        assert str(sd_m[key].dtype) == str(sd_t[key].dtype), key
        np.testing.assert_allclose(arr(sd_m[key]), arr(sd_t[key]), rtol=1e-6, atol=1e-7, err_msg=key)
    assert avg_m.n_averaged.item() == 4
    for p in avg_m.parameters():
        assert p.requires_grad and p.is_leaf and p.grad_fn is None
    out_m, out_t = avg_m(minigrad.tensor(x)), avg_t(torch.tensor(x))
    np.testing.assert_allclose(arr(out_m), arr(out_t), rtol=1e-5, atol=1e-6)


def test_averaged_model_is_a_copy_and_rejects_two_functions():
    ours, _ = build_pair()
    avg = minigrad.optim.swa_utils.AveragedModel(ours)
    assert avg.module is not ours and avg.module[0].weight is not ours[0].weight
    su = minigrad.optim.swa_utils
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        su.AveragedModel(ours, avg_fn=su.get_swa_avg_fn(), multi_avg_fn=su.get_swa_multi_avg_fn())


def test_multi_avg_fns_weights_and_integer_tensors_as_torch():
    for lib in (minigrad, torch):
        su = lib.optim.swa_utils
        a, b = [lib.zeros(3, dtype=lib.float64)], [lib.ones(3, dtype=lib.float64)]
        su.get_swa_multi_avg_fn()(a, b, lib.tensor(2))  # the weight 1/3 is a float32 tensor in PyTorch
        assert a[0][0].item() == float(np.float32(1 / 3))
        a = [lib.zeros(3, dtype=lib.float64)]
        su.get_swa_multi_avg_fn()(a, b, 2)
        assert a[0][0].item() == 1 / 3
        ints = [lib.tensor([4, 8])]
        su.get_ema_multi_avg_fn(0.5)(ints, [lib.tensor([0, 0])], 1)
        assert ints[0].tolist() == [2, 4]
        with pytest.raises(RuntimeError, match="Integer division with addcdiv"):
            su.get_swa_multi_avg_fn()([lib.tensor([1])], [lib.tensor([2])], lib.tensor(1))
        with pytest.raises(RuntimeError, match="alpha must not be a floating point"):
            su.get_swa_multi_avg_fn()([lib.tensor([1])], [lib.tensor([2])], 1)
        for make in (su.get_ema_avg_fn, su.get_ema_multi_avg_fn):
            with pytest.raises(
                ValueError, match=r"Invalid decay value 1.5 provided. Please provide a value in \[0,1\]"
            ):
                make(1.5)


def test_update_bn_recomputes_the_running_statistics_as_torch():
    ours, theirs = build_pair(with_bn=True)
    rng = np.random.default_rng(3)
    batches = [rng.standard_normal((6, 3)).astype("float32") for _ in range(3)]
    ours.eval()
    theirs.eval()
    ours[1].momentum = theirs[1].momentum = 0.3
    minigrad.optim.swa_utils.update_bn([(minigrad.tensor(b), 0) for b in batches], ours)
    torch.optim.swa_utils.update_bn([(torch.tensor(b), 0) for b in batches], theirs)
    assert not ours.training and ours[1].momentum == 0.3
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(arr(getattr(ours[1], name)), arr(getattr(theirs[1], name)), rtol=1e-5, err_msg=name)
    # no batch norm: nothing to do, and the loader is not read
    minigrad.optim.swa_utils.update_bn(iter(()), nn.Linear(2, 2))


def test_update_bn_leaves_instance_norms_alone():
    model = nn.Sequential(nn.InstanceNorm1d(2, track_running_stats=True, momentum=0.5))
    model[0].running_mean.fill_(3.0)
    minigrad.optim.swa_utils.update_bn([minigrad.randn(4, 2, 5)], model)
    assert model[0].running_mean.tolist() == [3.0, 3.0] and model[0].momentum == 0.5


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(swa_lr=0.05),
        dict(swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear"),
        dict(swa_lr=[0.05, 0.5], anneal_epochs=0),
        dict(swa_lr=0.01, anneal_epochs=1, anneal_strategy="cos"),
    ],
)
def test_swalr_learning_rates_match_torch(kwargs):
    lrs = {}
    for lib in (minigrad, torch):
        a, b = lib.nn.Parameter(lib.zeros(1)), lib.nn.Parameter(lib.zeros(1))
        opt = lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.2}], lr=1.0)
        sched = lib.optim.swa_utils.SWALR(opt, **kwargs)
        seen = [sched.get_last_lr()]
        for _ in range(12):
            opt.step()
            sched.step()
            seen.append(sched.get_last_lr())
        seen.append([g["swa_lr"] for g in opt.param_groups])
        state = sched.state_dict()
        assert "anneal_func" not in state and "optimizer" not in state
        lrs[lib.__name__] = seen, sorted(state)
    assert lrs["minigrad"] == lrs["torch"]


def test_swalr_state_dict_round_trip_and_errors():
    opt = minigrad.optim.SGD([nn.Parameter(minigrad.zeros(1))], lr=1.0)
    sched = minigrad.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy="linear")
    opt.step()
    sched.step()
    saved = copy.deepcopy(sched.state_dict())
    other = minigrad.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=4)  # cos
    other.load_state_dict(saved)
    assert other.anneal_func(0.5) == 0.5 and other._step_count == sched._step_count
    with pytest.warns(UserWarning, match="get_last_lr"):
        sched.get_lr()
    for lib in (minigrad, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=1.0)
        with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear', instead got exp"):
            lib.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
        with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0, got -1"):
            lib.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
        with pytest.raises(ValueError, match="swa_lr must have the same length as optimizer.param_groups"):
            lib.optim.swa_utils.SWALR(opt, swa_lr=[0.1, 0.2])


def test_swalr_warns_when_stepped_before_the_optimizer():
    for lib in (minigrad, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=1.0)
        sched = lib.optim.swa_utils.SWALR(opt, swa_lr=0.1)
        with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
            sched.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isclose(sched.get_last_lr()[0], sched.get_last_lr()[0])
