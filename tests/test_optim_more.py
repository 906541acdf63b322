"""minigrad.optim's RMSprop, Adagrad, Adamax, NAdam and RAdam against torch.optim's, and
nn.utils.parameters_to_vector / vector_to_parameters against torch.nn.utils: the same model, data
and steps give the same losses, gradients, parameters and optimizer state at every step; the same
defaults, signatures, param groups, state dicts and errors."""

from __future__ import annotations

import copy
import inspect
import math
import zlib

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402
from test_optim import TOL, arr, build_pair  # noqa: E402  (the same tiny MLP in both libraries)

# Every training test runs on each device (see tests/conftest.py), as in test_optim.py.
on_device = pytest.mark.usefixtures("on_device")

KINDS = ["RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam"]

# name -> (optimizer, its keyword arguments, or a tuple of positional ones after the parameters)
CONFIGS = {
    "rmsprop": ("RMSprop", dict()),
    "rmsprop-alpha-eps": ("RMSprop", dict(lr=0.005, alpha=0.9, eps=1e-3)),
    "rmsprop-small-alpha": ("RMSprop", dict(lr=0.005, alpha=0.3, centered=True)),  # lerp weight above 0.5
    "rmsprop-centered": ("RMSprop", dict(lr=0.005, centered=True)),
    "rmsprop-momentum": ("RMSprop", dict(lr=0.005, momentum=0.9)),
    "rmsprop-centered-momentum": ("RMSprop", dict(lr=0.003, momentum=0.8, centered=True, alpha=0.95)),
    "rmsprop-weight-decay": ("RMSprop", dict(lr=0.005, weight_decay=0.1, momentum=0.5)),
    "rmsprop-maximize": ("RMSprop", dict(lr=0.002, maximize=True, centered=True)),
    "rmsprop-positional": ("RMSprop", (0.004, 0.8, 1e-7, 0.05, 0.3, True)),  # lr, alpha, eps, decay, momentum
    "adagrad": ("Adagrad", dict()),
    "adagrad-lr-decay": ("Adagrad", dict(lr=0.1, lr_decay=0.05)),
    "adagrad-initial-accumulator": ("Adagrad", dict(lr=0.1, initial_accumulator_value=0.5, eps=1e-3)),
    "adagrad-weight-decay": ("Adagrad", dict(lr=0.05, weight_decay=0.2, lr_decay=0.01)),
    "adagrad-maximize": ("Adagrad", dict(lr=0.05, maximize=True)),
    "adagrad-positional": ("Adagrad", (0.07, 0.02, 0.1, 0.25, 1e-8)),  # lr, lr_decay, decay, initial, eps
    "adamax": ("Adamax", dict()),
    "adamax-lr": ("Adamax", dict(lr=0.02)),
    "adamax-betas-eps": ("Adamax", dict(lr=0.02, betas=(0.3, 0.9), eps=1e-2)),
    "adamax-weight-decay": ("Adamax", dict(lr=0.02, weight_decay=0.3)),
    "adamax-maximize": ("Adamax", dict(lr=0.01, maximize=True, betas=(0.8, 0.99))),
    "adamax-positional": ("Adamax", (0.03, (0.85, 0.95), 1e-6, 0.1)),  # lr, betas, eps, weight_decay
    "nadam": ("NAdam", dict()),
    "nadam-lr": ("NAdam", dict(lr=0.02)),
    "nadam-momentum-decay": ("NAdam", dict(lr=0.01, momentum_decay=0.3)),
    "nadam-weight-decay": ("NAdam", dict(lr=0.01, weight_decay=0.1)),
    "nadam-decoupled": ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "nadam-maximize": ("NAdam", dict(lr=0.01, maximize=True, eps=1e-3)),
    "nadam-betas": ("NAdam", dict(lr=0.01, betas=(0.7, 0.95))),
    "nadam-positional": ("NAdam", (0.01, (0.8, 0.99), 1e-7, 0.2, 0.01, True)),  # ..., momentum_decay, decoupled
    "radam": ("RAdam", dict()),
    "radam-lr": ("RAdam", dict(lr=0.02)),
    "radam-betas": ("RAdam", dict(lr=0.01, betas=(0.6, 0.9))),
    "radam-weight-decay": ("RAdam", dict(lr=0.01, weight_decay=0.1, eps=1e-3)),
    "radam-decoupled": ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "radam-maximize": ("RAdam", dict(lr=0.01, maximize=True)),
    "radam-positional": ("RAdam", (0.01, (0.9, 0.99), 1e-6, 0.05, True)),  # lr, betas, eps, decay, decoupled
}

# A second group of the second layer's parameters with settings of its own.
GROUP_SETTINGS = {
    "RMSprop": dict(lr=0.002, alpha=0.9, momentum=0.5, centered=True),
    "Adagrad": dict(lr=0.03, lr_decay=0.1, initial_accumulator_value=0.7),  # (PyTorch ignores the last)
    "Adamax": dict(lr=0.01, betas=(0.5, 0.99), weight_decay=0.2),
    "NAdam": dict(lr=0.004, momentum_decay=0.01, weight_decay=0.1, decoupled_weight_decay=True),
    "RAdam": dict(lr=0.004, weight_decay=0.05, betas=(0.8, 0.9)),
}

STEPS = 10  # RAdam rectifies from the 6th step on (with beta2 = 0.999 as with 0.9): both branches run


def make_optimizers(kind: str, args, ours, theirs, groups: bool = False):
    args, kwargs = (args, {}) if isinstance(args, tuple) else ((), args)

    def params(model):
        if not groups:
            return model.parameters()
        first, second = list(model.parameters())[:2], list(model.parameters())[2:]
        return [{"params": first}, {"params": second, **GROUP_SETTINGS[kind]}]

    return (
        getattr(minigrad.optim, kind)(params(ours), *args, **kwargs),
        getattr(torch.optim, kind)(params(theirs), *args, **kwargs),
    )


def assert_same_state(opt_m, opt_t, tol, where: str) -> None:
    """The same state keys in the same order, each tensor of the same dtype and shape and values."""
    params_m = [p for g in opt_m.param_groups for p in g["params"]]
    params_t = [p for g in opt_t.param_groups for p in g["params"]]
    assert len(opt_m.state) == len(opt_t.state), where
    for i, (p_m, p_t) in enumerate(zip(params_m, params_t)):
        s_m, s_t = opt_m.state[p_m], opt_t.state[p_t]
        assert list(s_m) == list(s_t), (where, i)
        for key in s_t:
            assert isinstance(s_m[key], minigrad.Tensor) == isinstance(s_t[key], torch.Tensor), (where, key)
            assert str(s_m[key].dtype) == str(s_t[key].dtype) and tuple(s_m[key].shape) == tuple(s_t[key].shape)
            if key in ("step", "mu_product"):  # scalars computed alike in both: the same floats
                assert s_m[key].item() == s_t[key].item(), (where, key)
            else:
                # Gradients may differ in the last bit (each library's BLAS sums in its own order),
                # and a state that divides by a small running average (RMSprop's momentum buffer)
                # carries that difference at the scale of its largest element: atol scales with it.
                expected = arr(s_t[key])
                scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
                np.testing.assert_allclose(
                    arr(s_m[key]), expected, rtol=tol["rtol"], atol=tol["atol"] * scale, err_msg=f"{key} {where}"
                )


def train_both(name: str, dtype: str, steps: int = STEPS, groups: bool = False):
    """Train both models side by side; compare loss, grads, parameters and state at every step."""
    kind, args = CONFIGS[name]
    ours, theirs = build_pair(dtype)
    opt_m, opt_t = make_optimizers(kind, args, ours, theirs, groups)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    tol = TOL[dtype]
    for step in range(steps):
        x = rng.standard_normal((8, 3)).astype(dtype)
        y = rng.standard_normal((8, 2)).astype(dtype)
        opt_m.zero_grad()
        opt_t.zero_grad()
        loss_m = F.mse_loss(ours(minigrad.tensor(x)), minigrad.tensor(y))
        loss_t = torch.nn.functional.mse_loss(theirs(torch.tensor(x)), torch.tensor(y))
        np.testing.assert_allclose(loss_m.item(), loss_t.item(), **tol, err_msg=f"loss at step {step}")
        loss_m.backward()
        loss_t.backward()
        for (pname, p), q in zip(ours.named_parameters(), theirs.parameters()):
            np.testing.assert_allclose(arr(p.grad), arr(q.grad), **tol, err_msg=f"grad {pname} at step {step}")
        opt_m.step()
        opt_t.step()
        for (pname, p), q in zip(ours.named_parameters(), theirs.parameters()):
            np.testing.assert_allclose(arr(p), arr(q), **tol, err_msg=f"{pname} after step {step}")
            assert p.is_leaf and p.requires_grad and p.device == minigrad.get_default_device()
        assert_same_state(opt_m, opt_t, tol, f"after step {step}")
    return ours, theirs, opt_m, opt_t


# ---------------------------------------------------------------------- training


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_training_matches_torch_step_by_step(name, dtype):
    train_both(name, dtype)


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kind", KINDS)
def test_param_groups_with_their_own_settings_match_torch(kind, dtype):
    name = kind.lower() + "-weight-decay" if kind != "NAdam" else "nadam-decoupled"
    _, _, opt_m, opt_t = train_both(name, dtype, groups=True)
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]


@on_device
def test_training_in_float64_matches_torch_to_1e_12():
    """The same operations in the same order: float64 runs agree far below the shared tolerance."""
    for name in ("rmsprop-centered-momentum", "adagrad-weight-decay", "adamax-maximize", "nadam-betas", "radam"):
        ours, theirs, _, _ = train_both(name, "float64")
        for p, q in zip(ours.parameters(), theirs.parameters()):
            np.testing.assert_allclose(arr(p), arr(q), rtol=1e-12, atol=1e-14, err_msg=name)


def test_radam_runs_both_branches_in_the_steps_compared():
    """The first 5 steps are plain momentum (rho_t <= 5), the later ones rectified."""
    for beta2 in (0.999, 0.9, 0.99):
        rho_inf = 2 / (1 - beta2) - 1
        rho = [rho_inf - 2 * t * beta2**t / (1 - beta2**t) for t in range(1, STEPS + 1)]
        assert max(rho[:5]) <= 5.0 < min(rho[5:])


def test_radam_first_steps_are_sgd_with_momentum():
    w = nn.Parameter(minigrad.tensor([1.0, -2.0], dtype=minigrad.float64))
    opt = minigrad.optim.RAdam([w], lr=0.1)
    (w * w).sum().backward()  # g = [2, -4]; m = 0.1 g; m / (1 - 0.9) = g
    opt.step()
    np.testing.assert_allclose(arr(w), [0.8, -1.6], rtol=1e-14)


def test_adagrad_lr_decay_divides_the_step():
    """Step t moves by lr / (1 + (t - 1) * lr_decay) * g / sqrt(sum of g**2)."""
    w = nn.Parameter(minigrad.tensor([3.0], dtype=minigrad.float64))
    opt = minigrad.optim.Adagrad([w], lr=1.0, lr_decay=0.5, eps=0.0)
    moves = []
    for _ in range(3):
        w.grad = minigrad.ones_like(w)
        before = w.item()
        opt.step()
        moves.append(before - w.item())
    np.testing.assert_allclose(moves, [1.0, 1 / 1.5 / math.sqrt(2), 1 / 2.0 / math.sqrt(3)], rtol=1e-14)


def test_nadam_keeps_mu_product_in_float32_like_torch():
    ours, theirs, opt_m, opt_t = train_both("nadam", "float64", steps=3)
    for p in ours.parameters():
        state = opt_m.state[p]
        assert state["mu_product"].dtype == minigrad.float32 and state["exp_avg"].dtype == minigrad.float64
    mu = [0.9 * (1.0 - 0.5 * 0.96 ** (t * 4e-3)) for t in (1, 2, 3)]
    expected = np.float32(1.0)
    for m in mu:
        expected = np.float32(expected * np.float32(m))
    assert opt_m.state[ours[0].weight]["mu_product"].item() == float(expected)


# ---------------------------------------------------------------------- Adagrad's eager state


def flat(values) -> list[float]:
    """The numbers of nested lists, in order."""
    return [x for v in values for x in flat(v)] if isinstance(values, list) else [values]


@on_device
def test_adagrad_makes_its_state_in_the_constructor_like_torch():
    ours, theirs = build_pair("float64")
    opt_m = minigrad.optim.Adagrad(ours.parameters(), initial_accumulator_value=0.25)
    opt_t = torch.optim.Adagrad(theirs.parameters(), initial_accumulator_value=0.25)
    assert_same_state(opt_m, opt_t, TOL["float64"], "before any step")
    assert opt_m.state[ours[0].weight]["sum"].tolist() == [[0.25] * 3] * 5
    assert sorted(opt_m.state_dict()["state"]) == sorted(opt_t.state_dict()["state"]) == [0, 1, 2, 3]


@on_device
def test_adagrad_state_of_a_group_and_a_parameter_added_later_matches_torch():
    """The constructor's initial_accumulator_value is used for every group (a group's own value is
    not), and a parameter added later gets its state at its first step from the defaults."""
    histories = []
    for lib in (minigrad, torch):
        a = lib.nn.Parameter(lib.tensor([1.0, -2.0], dtype=lib.float64))
        b = lib.nn.Parameter(lib.tensor([0.5], dtype=lib.float64))
        c = lib.nn.Parameter(lib.tensor([[2.0, 3.0]], dtype=lib.float64))
        opt = lib.optim.Adagrad([{"params": [a]}, {"params": [b], "initial_accumulator_value": 3.0}], lr=0.1)
        opt.add_param_group({"params": [c], "initial_accumulator_value": 5.0, "lr": 0.2})
        assert c not in opt.state
        history = []
        for _ in range(3):
            opt.zero_grad()
            ((a * a).sum() + (b * b * b).sum() + (c * a).sum()).backward()
            opt.step()
            history.append([p.tolist() for p in (a, b, c)] + [opt.state[p]["sum"].tolist() for p in (a, b, c)])
        assert opt.state[b]["sum"].tolist() != [3.0] and opt.param_groups[1]["initial_accumulator_value"] == 3.0
        histories.append(history)
    np.testing.assert_allclose(flat(histories[0]), flat(histories[1]), rtol=1e-13)


# ---------------------------------------------------------------------- saving and loading


ROUND_TRIPS = ["rmsprop-centered-momentum", "adagrad-lr-decay", "adamax-weight-decay", "nadam-decoupled", "radam"]


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_state_dict_round_trip_continues_like_the_original_and_torch(name, dtype):
    """Save mid-way, load into a fresh optimizer (made with other settings) over a copy of the
    model; both go on identically, and as PyTorch's pair does (which casts loaded state, NAdam's
    mu_product included, to the parameter's dtype)."""
    kind, args = CONFIGS[name]
    ours, theirs, opt_m, opt_t = train_both(name, dtype, steps=3)
    # (deep copies, as a checkpoint file is: PyTorch's load_state_dict keeps the tensors it is given)
    saved_m, saved_t = copy.deepcopy(opt_m.state_dict()), copy.deepcopy(opt_t.state_dict())
    assert saved_m["param_groups"] == saved_t["param_groups"]
    assert sorted(saved_m["state"]) == sorted(saved_t["state"]) == [0, 1, 2, 3]
    twin_m, twin_t = copy.deepcopy(ours), copy.deepcopy(theirs)
    new_m, new_t = (
        getattr(minigrad.optim, kind)(twin_m.parameters(), lr=0.5),
        getattr(torch.optim, kind)(twin_t.parameters(), lr=0.5),
    )
    new_m.load_state_dict(saved_m)
    new_t.load_state_dict(saved_t)
    assert (
        new_m.param_groups[0]["lr"] == opt_m.param_groups[0]["lr"]
        and new_m.param_groups[0]["params"][0] is twin_m[0].weight
    )
    assert_same_state(new_m, new_t, TOL[dtype], "after loading")
    for key, value in new_m.state[twin_m[0].weight].items():
        assert value is not opt_m.state[ours[0].weight][key]  # copies
    x = minigrad.randn(4, 3, dtype=getattr(minigrad, dtype))
    y = minigrad.randn(4, 2, dtype=getattr(minigrad, dtype))
    xt, yt = torch.tensor(arr(x)), torch.tensor(arr(y))
    for _ in range(4):
        for model, opt, lib, inputs in (
            (ours, opt_m, minigrad, (x, y)),
            (twin_m, new_m, minigrad, (x, y)),
            (theirs, opt_t, torch, (xt, yt)),
            (twin_t, new_t, torch, (xt, yt)),
        ):
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(inputs[0]), inputs[1]).backward()
            opt.step()
    # A float64 NAdam's loaded mu_product is float64, the original's float32: in both libraries the
    # twin then drifts from the original by float32 roundings (about 1e-11 here); else they are equal.
    recast = kind == "NAdam" and dtype == "float64"
    for p, q, r, s in zip(ours.parameters(), twin_m.parameters(), twin_t.parameters(), theirs.parameters()):
        assert np.array_equal(arr(p), arr(q)) != recast
        assert np.array_equal(arr(r), arr(s)) != recast
        np.testing.assert_allclose(arr(q), arr(r), **TOL[dtype])
        np.testing.assert_allclose(arr(p), arr(q), rtol=1e-9)
    assert_same_state(new_m, new_t, TOL[dtype], "after loading and training")
    assert_same_state(opt_m, opt_t, TOL[dtype], "the originals after training")


# ---------------------------------------------------------------------- the API


def signature(fn) -> list[tuple]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("kind", KINDS)
def test_signature_defaults_and_repr_match_torch(kind):
    assert signature(getattr(minigrad.optim, kind).__init__) == signature(getattr(torch.optim, kind).__init__)
    assert kind in minigrad.optim.__all__ and issubclass(getattr(minigrad.optim, kind), minigrad.optim.Optimizer)
    ours, theirs = build_pair("float32")
    opt_m, opt_t = getattr(minigrad.optim, kind)(ours.parameters()), getattr(torch.optim, kind)(theirs.parameters())
    assert opt_m.defaults == opt_t.defaults and list(opt_m.defaults) == list(opt_t.defaults)
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]
    assert repr(opt_m) == repr(opt_t) and repr(opt_m).startswith(kind + " (")


@pytest.mark.parametrize("kind", KINDS)
def test_parameters_without_grad_are_skipped(kind):
    used, unused = nn.Parameter(minigrad.tensor([1.0])), nn.Parameter(minigrad.tensor([3.0]))
    opt = getattr(minigrad.optim, kind)([used, unused], lr=0.1)
    (used * 2).sum().backward()
    opt.step()
    assert unused.item() == 3.0 and used.item() != 1.0
    assert opt.state[used]["step"].item() == 1.0
    assert (unused in opt.state) == (kind == "Adagrad")  # Adagrad's state is made up front


@pytest.mark.parametrize("kind", KINDS)
def test_step_with_closure_returns_the_loss(kind):
    w = nn.Parameter(minigrad.tensor([1.0]))
    opt = getattr(minigrad.optim, kind)([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with minigrad.no_grad():  # the closure still records its graph
        loss = opt.step(closure)
    assert loss.item() == 1.0 and w.item() < 1.0 and w.is_leaf


CONSTRUCTOR_ERRORS = [
    ("RMSprop", dict(lr=-0.1)),
    ("RMSprop", dict(lr=float("nan"))),
    ("RMSprop", dict(eps=-1e-8)),
    ("RMSprop", dict(momentum=-0.9)),
    ("RMSprop", dict(weight_decay=-1)),
    ("RMSprop", dict(alpha=-0.5)),
    ("Adagrad", dict(lr=-0.1)),
    ("Adagrad", dict(lr_decay=-1)),
    ("Adagrad", dict(weight_decay=-1)),
    ("Adagrad", dict(initial_accumulator_value=-0.5)),
    ("Adagrad", dict(eps=-1.0)),
    ("Adamax", dict(lr=-0.1)),
    ("Adamax", dict(eps=-1.0)),
    ("Adamax", dict(betas=(1.0, 0.9))),
    ("Adamax", dict(betas=(0.9, 1.0))),
    ("Adamax", dict(betas=(-0.1, 0.9))),
    ("Adamax", dict(weight_decay=-1)),
    ("NAdam", dict(lr=-0.1)),
    ("NAdam", dict(eps=-1.0)),
    ("NAdam", dict(betas=(1.0, 0.9))),
    ("NAdam", dict(betas=(0.9, -0.1))),
    ("NAdam", dict(weight_decay=-1)),
    ("NAdam", dict(momentum_decay=-4e-3)),
    ("RAdam", dict(lr=-0.1)),
    ("RAdam", dict(eps=-1.0)),
    ("RAdam", dict(betas=(1.0, 0.9))),
    ("RAdam", dict(betas=(0.9, 1.5))),
    ("RAdam", dict(weight_decay=-1)),
]


@pytest.mark.parametrize("kind, kwargs", CONSTRUCTOR_ERRORS, ids=str)
def test_bad_hyperparameters_raise_torch_errors(kind, kwargs):
    def make(lib):
        getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2))], **kwargs)

    error = same_error(make, "Invalid")
    with pytest.raises(ValueError) as theirs:
        make(torch)
    assert type(error) is ValueError and str(error) == str(theirs.value)


@pytest.mark.parametrize("kind", KINDS)
def test_bad_parameter_lists_and_lr_tensors_raise_torch_errors(kind):
    same_error(lambda lib: getattr(lib.optim, kind)([]), "empty parameter list")
    same_error(lambda lib: getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2)) * 2]), "non-leaf")
    same_error(
        lambda lib: getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2))], lr=lib.tensor([0.1, 0.2])),
        "Tensor lr must be 1-element",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_tensor_hyperparameters_are_refused_clearly(kind):
    """PyTorch accepts a tensor lr; minigrad says it wants numbers (as its other optimizers do)."""
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="as numbers, not tensors"):
        getattr(minigrad.optim, kind)([w], lr=minigrad.tensor(0.01))
    with pytest.raises(NotImplementedError, match="as numbers, not tensors"):
        getattr(minigrad.optim, kind)([{"params": [w], "lr": minigrad.tensor(0.01)}])


@pytest.mark.parametrize("kind, flag", [(kind, "differentiable") for kind in KINDS] + [("Adagrad", "fused")])
def test_differentiable_and_fused_are_refused(kind, flag):
    with pytest.raises(NotImplementedError, match=flag):
        getattr(minigrad.optim, kind)([nn.Parameter(minigrad.rand(2))], **{flag: True})


@pytest.mark.parametrize("kind", KINDS)
def test_foreach_and_capturable_are_kept_as_settings(kind):
    """As in minigrad's Adam: the flags are stored in the groups and the step is the same."""
    flags = {"foreach": False}
    if "capturable" in inspect.signature(getattr(torch.optim, kind)).parameters:
        flags["capturable"] = True
    results = []
    for extra in ({}, flags):
        w = nn.Parameter(minigrad.tensor([1.0, -2.0], dtype=minigrad.float64))
        opt = getattr(minigrad.optim, kind)([w], lr=0.1, **extra)
        assert all(opt.param_groups[0][k] == v for k, v in extra.items())
        for _ in range(3):
            opt.zero_grad()
            (w * w * w).sum().backward()
            opt.step()
        results.append(w.tolist())
    assert results[0] == results[1]


def test_works_with_a_scheduler_like_torch():
    """StepLR changes group["lr"]; every optimizer reads it at its next step."""
    for kind in KINDS:
        runs = []
        for lib in (minigrad, torch):
            w = lib.nn.Parameter(lib.tensor([1.0, -2.0], dtype=lib.float64))
            opt = getattr(lib.optim, kind)([w], lr=0.1)
            sched = lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
            history = []
            for _ in range(6):
                opt.zero_grad()
                (w * w).sum().backward()
                opt.step()
                sched.step()
                history.append((sched.get_last_lr(), w.tolist()))
            runs.append(history)
        for (lr_m, w_m), (lr_t, w_t) in zip(*runs):
            assert lr_m == lr_t
            np.testing.assert_allclose(w_m, w_t, rtol=1e-12, err_msg=kind)


# ---------------------------------------------------------------------- nn.utils


@on_device
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_parameters_to_vector_matches_torch(dtype):
    ours, theirs = build_pair(dtype)
    vec_m = minigrad.nn.utils.parameters_to_vector(ours.parameters())  # a generator
    vec_t = torch.nn.utils.parameters_to_vector(theirs.parameters())
    assert vec_m.shape == vec_t.shape == (15 + 5 + 10 + 2,) and str(vec_m.dtype) == str(vec_t.dtype)
    np.testing.assert_array_equal(arr(vec_m), arr(vec_t))
    assert vec_m.requires_grad and vec_m.grad_fn.name() == vec_t.grad_fn.name() == "CatBackward0"
    weights = np.linspace(-1.0, 1.0, 32).astype(dtype)
    (vec_m * minigrad.tensor(weights)).sum().backward()
    (vec_t * torch.tensor(weights)).sum().backward()
    for p, q in zip(ours.parameters(), theirs.parameters()):  # each parameter gets its slice of the weights
        np.testing.assert_array_equal(arr(p.grad), arr(q.grad))


@on_device
def test_vector_to_parameters_matches_torch():
    ours, theirs = build_pair("float64")
    values = np.arange(40, dtype=np.float64) / 7  # longer than the 32 parameters: the rest is not used
    results = []
    for lib, model in ((minigrad, ours), (torch, theirs)):
        vec = lib.tensor(values)
        params = list(model.parameters())
        versions = [p._version for p in params]
        lib.nn.utils.vector_to_parameters(vec, model.parameters())
        assert all(isinstance(p, lib.nn.Parameter) and p.is_leaf and p.requires_grad for p in params)
        assert [p._version for p in params] == versions  # .data is replaced, not written in place
        results.append([p.detach().cpu().numpy().copy() for p in params])
        with lib.no_grad():
            vec.mul_(2)  # the parameters share the vector's memory, as in PyTorch
        assert np.array_equal(params[-1].detach().cpu().numpy(), 2 * results[-1][-1])
        assert model(lib.ones(1, 3, dtype=lib.float64)).shape == (1, 2)
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(results[0][1], values[15:20])


def test_vector_to_parameters_takes_the_vectors_dtype_and_stays_out_of_the_graph_like_torch():
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.zeros(2, 2))
        source = lib.arange(4.0, dtype=lib.float64, requires_grad=True)
        lib.nn.utils.vector_to_parameters(source * 3, [w])
        assert w.dtype == lib.float64 and w.is_leaf and w.grad_fn is None and w.requires_grad
        assert w.tolist() == [[0.0, 3.0], [6.0, 9.0]]


def test_round_trip_through_a_vector():
    model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1))
    before = [arr(p).copy() for p in model.parameters()]
    vec = nn.utils.parameters_to_vector(model.parameters())
    nn.utils.vector_to_parameters(vec.detach() * 2, model.parameters())
    for p, b in zip(model.parameters(), before):
        np.testing.assert_array_equal(arr(p), 2 * b)


@pytest.mark.parametrize(
    "run, words",
    [
        (lambda lib: lib.nn.utils.vector_to_parameters([1.0, 2.0], [lib.nn.Parameter(lib.zeros(2))]), ["list"]),
        (
            lambda lib: lib.nn.utils.vector_to_parameters(np.zeros(2), [lib.nn.Parameter(lib.zeros(2))]),
            ["numpy.ndarray"],
        ),
        (lambda lib: lib.nn.utils.vector_to_parameters(3.0, [lib.nn.Parameter(lib.zeros(2))]), ["float"]),
        (
            lambda lib: lib.nn.utils.vector_to_parameters(lib.zeros(5), [lib.nn.Parameter(lib.zeros(2, 3))]),
            ["shape '[2, 3]' is invalid for input of size 5"],
        ),
        (
            lambda lib: lib.nn.utils.vector_to_parameters(
                lib.zeros(7), [lib.nn.Parameter(lib.zeros(4)), lib.nn.Parameter(lib.zeros(2, 2))]
            ),
            ["shape '[2, 2]' is invalid for input of size 3"],
        ),
        (lambda lib: lib.nn.utils.parameters_to_vector([1.0]), ["'float' object has no attribute 'device'"]),
        (lambda lib: lib.nn.utils.parameters_to_vector([]), ["expected a non-empty list of Tensors"]),
        (
            lambda lib: lib.nn.utils.parameters_to_vector([lib.nn.Parameter(lib.zeros(3, 2)).t()]),
            ["view size is not compatible"],
        ),
    ],
)
def test_nn_utils_errors_match_torch(run, words):
    error = same_error(run, *words)
    with pytest.raises(Exception) as theirs:
        run(torch)
    assert str(error) == str(theirs.value)


def test_vector_to_parameters_names_the_type_as_torch():
    """As torch.typename: an object's class, or a class's (qualified) or a module's own name."""

    class Box:
        pass

    for value in (Box(), Box, np, np.ndarray, (1,)):
        messages = []
        for lib in (minigrad, torch):
            with pytest.raises(TypeError) as info:
                lib.nn.utils.vector_to_parameters(value, [lib.nn.Parameter(lib.zeros(1))])
            messages.append(str(info.value))
        assert messages[0] == messages[1] and messages[0].startswith("expected torch.Tensor, but got: ")
    assert messages[0].endswith(": tuple")


@pytest.mark.gpu
def test_parameters_on_two_devices_are_refused():
    params = [nn.Parameter(minigrad.zeros(2)), nn.Parameter(minigrad.zeros(2, device="cuda"))]
    for fn in (
        lambda: nn.utils.parameters_to_vector(params),
        lambda: nn.utils.vector_to_parameters(minigrad.zeros(4), params),
    ):
        with pytest.raises(TypeError, match="Found two parameters on different devices"):
            fn()
