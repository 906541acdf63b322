"""minigrad.optim against torch.optim: the same model, data and steps give the same numbers."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F

torch = pytest.importorskip("torch")

# Every test runs on each device: on_device makes the factories (and so the models and the
# optimizer state) create tensors there, in minigrad and in PyTorch when it has CUDA.
pytestmark = pytest.mark.usefixtures("on_device")

# float32: a few roundings apart per step (NumPy and PyTorch order some operations differently).
TOL = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=2e-5, atol=2e-6)}


def arr(t) -> np.ndarray:
    if isinstance(t, minigrad.Tensor):  # parameters, grads and state stay on the device
        assert t.device == minigrad.get_default_device(), t.device
    return t.detach().cpu().numpy()


def build_pair(dtype: str):
    """A tiny MLP in each library with identical weights."""
    ours = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
    with torch.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            q.copy_(torch.from_numpy(arr(p).copy()))
    if dtype == "float64":
        ours.double()
        theirs.double()
    return ours, theirs


CONFIGS = {
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd-momentum": ("SGD", dict(lr=0.1, momentum=0.9)),
    "sgd-dampening": ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3)),
    "sgd-nesterov": ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
    "sgd-weight-decay": ("SGD", dict(lr=0.1, momentum=0.5, weight_decay=0.01)),
    "sgd-maximize": ("SGD", dict(lr=0.01, momentum=0.9, maximize=True)),
    "sgd-default-lr": ("SGD", dict()),
    "adam": ("Adam", dict(lr=0.01)),
    "adam-amsgrad": ("Adam", dict(lr=0.01, amsgrad=True)),
    "adam-weight-decay": ("Adam", dict(lr=0.01, weight_decay=0.1, betas=(0.8, 0.99))),
    "adam-decoupled": ("Adam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "adam-maximize-amsgrad": ("Adam", dict(lr=0.01, amsgrad=True, maximize=True, eps=1e-6)),
}


def run_both(name: str, dtype: str, steps: int = 6, zero_to_none: bool = True):
    """Train both models side by side; compare loss, grads and parameters at every step."""
    kind, kwargs = CONFIGS[name]
    ours, theirs = build_pair(dtype)
    opt_m = getattr(minigrad.optim, kind)(ours.parameters(), **kwargs)
    opt_t = getattr(torch.optim, kind)(theirs.parameters(), **kwargs)
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    tol = TOL[dtype]
    for step in range(steps):
        x = rng.standard_normal((8, 3)).astype(dtype)
        y = rng.standard_normal((8, 2)).astype(dtype)
        opt_m.zero_grad(set_to_none=zero_to_none)
        opt_t.zero_grad(set_to_none=zero_to_none)
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
            assert p.is_leaf and p.requires_grad
    return ours, theirs, opt_m, opt_t


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_training_matches_torch_step_by_step(name, dtype):
    run_both(name, dtype)


def test_zeroing_grads_in_place_gives_the_same_training():
    run_both("sgd-momentum", "float64", steps=3, zero_to_none=False)


def test_state_holds_what_torch_holds():
    _, _, opt_m, opt_t = run_both("adam-amsgrad", "float64", steps=2)
    for p_m, p_t in zip(opt_m.param_groups[0]["params"], opt_t.param_groups[0]["params"]):
        s_m, s_t = opt_m.state[p_m], opt_t.state[p_t]
        assert list(s_m) == list(s_t)
        assert s_m["step"].item() == s_t["step"].item() == 2.0
        for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
            np.testing.assert_allclose(arr(s_m[key]), arr(s_t[key]), **TOL["float64"])
    _, _, opt_m, opt_t = run_both("sgd-momentum", "float64", steps=2)
    p_m, p_t = opt_m.param_groups[0]["params"][0], opt_t.param_groups[0]["params"][0]
    np.testing.assert_allclose(arr(opt_m.state[p_m]["momentum_buffer"]), arr(opt_t.state[p_t]["momentum_buffer"]))


def test_momentum_buffer_starts_as_the_first_gradient():
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    opt = minigrad.optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.5)
    (w * w).sum().backward()  # grad = 2w = [2, 4]
    opt.step()
    assert opt.state[w]["momentum_buffer"].tolist() == [2.0, 4.0]  # no dampening on the first step
    np.testing.assert_allclose(arr(w), [0.8, 1.6])


def test_state_dict_round_trip_continues_identically():
    ours, _ = build_pair("float64")
    opt = minigrad.optim.Adam(ours.parameters(), lr=0.01, amsgrad=True)
    x, y = minigrad.randn(4, 3, dtype=minigrad.float64), minigrad.randn(4, 2, dtype=minigrad.float64)

    def train(model, optimizer, steps):
        for _ in range(steps):
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()

    train(ours, opt, 2)
    twin = copy.deepcopy(ours)
    twin_opt = minigrad.optim.Adam(twin.parameters(), lr=0.5)
    saved = opt.state_dict()
    assert saved["param_groups"][0]["params"] == [0, 1, 2, 3]
    assert sorted(saved["state"]) == [0, 1, 2, 3] and saved["state"][0]["step"].item() == 2.0
    twin_opt.load_state_dict(copy.deepcopy(saved))  # (as in PyTorch, a state dict's tensors are used as they are)
    assert twin_opt.param_groups[0]["lr"] == 0.01 and twin_opt.param_groups[0]["params"][0] is twin[0].weight
    train(ours, opt, 3)
    train(twin, twin_opt, 3)
    for p, q in zip(ours.parameters(), twin.parameters()):
        np.testing.assert_array_equal(arr(p), arr(q))


def test_state_dict_layout_matches_torch():
    ours, theirs = build_pair("float32")
    opt_m = minigrad.optim.SGD(
        [{"params": list(ours.parameters())[:2], "lr": 0.5}, {"params": list(ours.parameters())[2:]}],
        lr=0.1,
        momentum=0.9,
    )
    opt_t = torch.optim.SGD(
        [{"params": list(theirs.parameters())[:2], "lr": 0.5}, {"params": list(theirs.parameters())[2:]}],
        lr=0.1,
        momentum=0.9,
    )
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]
    assert repr(opt_m) == repr(opt_t)
    assert repr(minigrad.optim.Adam(ours.parameters())) == repr(torch.optim.Adam(theirs.parameters()))


def test_param_groups_use_their_own_hyperparameters():
    a, b = nn.Parameter(minigrad.tensor([1.0])), nn.Parameter(minigrad.tensor([1.0]))
    opt = minigrad.optim.SGD([{"params": [a], "lr": 0.5}, {"params": b}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.5, 0.1]
    assert opt.param_groups[1]["params"] == [b] and opt.param_groups[1]["momentum"] == 0
    (a + b).sum().backward()
    opt.step()
    assert a.item() == pytest.approx(0.5) and b.item() == pytest.approx(0.9)
    c = nn.Parameter(minigrad.tensor([1.0]))
    opt.add_param_group({"params": [c], "momentum": 0.9})
    assert opt.param_groups[2]["lr"] == 0.1 and opt.param_groups[2]["momentum"] == 0.9


def test_parameters_without_grad_are_skipped():
    used, unused = nn.Parameter(minigrad.tensor([1.0])), nn.Parameter(minigrad.tensor([3.0]))
    opt = minigrad.optim.Adam([used, unused], lr=0.1)
    (used * 2).sum().backward()
    opt.step()
    assert unused.item() == 3.0 and unused not in opt.state and used in opt.state


def test_zero_grad_to_none_and_to_zeros():
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    opt = minigrad.optim.SGD([w])
    (w * w).sum().backward()
    g = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is g and w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_step_with_closure_returns_the_loss_and_runs_with_grad():
    w = nn.Parameter(minigrad.tensor([1.0]))
    opt = minigrad.optim.SGD([w], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with minigrad.no_grad():  # the closure still records its graph
        loss = opt.step(closure)
    assert loss.item() == 1.0 and w.item() == pytest.approx(0.5)


def test_step_is_an_in_place_change_that_invalidates_saved_tensors_like_torch():
    """Stepping between forward and backward modifies a weight that backward still needs."""
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
        opt = lib.optim.SGD([w], lr=0.1)
        (w * w).sum().backward()
        loss = (w * w).sum()
        version = w._version
        opt.step()
        assert w._version > version and w.is_leaf and w.grad_fn is None
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            loss.backward()


CONSTRUCTOR_ERRORS = [
    ("SGD", dict(lr=-1)),
    ("SGD", dict(lr=0.1, momentum=-0.5)),
    ("SGD", dict(lr=0.1, weight_decay=-1)),
    ("SGD", dict(lr=0.1, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
    ("Adam", dict(lr=-0.5)),
    ("Adam", dict(eps=-1.0)),
    ("Adam", dict(betas=(1.0, 0.9))),
    ("Adam", dict(betas=(0.9, -0.1))),
    ("Adam", dict(weight_decay=-1)),
]


@pytest.mark.parametrize("kind, kwargs", CONSTRUCTOR_ERRORS)
def test_bad_hyperparameters_raise_torch_errors(kind, kwargs):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, kind)([torch.nn.Parameter(torch.rand(2))], **kwargs)
    with pytest.raises(ValueError) as ours:
        getattr(minigrad.optim, kind)([nn.Parameter(minigrad.rand(2))], **kwargs)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, p: [],  # empty
        lambda lib, p: p,  # a tensor instead of an iterable
        lambda lib, p: [p * 2],  # a non-leaf
        lambda lib, p: [1],  # not a tensor
        lambda lib, p: [{"params": [p]}, {"params": [p]}],  # in two groups
    ],
)
def test_bad_parameter_lists_raise_torch_errors(make):
    with pytest.raises((ValueError, TypeError)) as theirs:
        torch.optim.SGD(make(torch, torch.nn.Parameter(torch.rand(2))), lr=0.1)
    with pytest.raises(type(theirs.value)) as ours:
        minigrad.optim.SGD(make(minigrad, nn.Parameter(minigrad.rand(2))), lr=0.1)
    # a GPU tensor is a torch.cuda.FloatTensor; PyTorch may be on the CPU while minigrad is not
    assert str(ours.value).replace("torch.cuda.", "torch.") == str(theirs.value).replace("torch.cuda.", "torch.")


def test_duplicate_parameters_warn_like_torch():
    p = nn.Parameter(minigrad.rand(2))
    with pytest.warns(UserWarning, match="duplicate parameters"):
        minigrad.optim.SGD([p, p], lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        minigrad.optim.SGD([p], lr=0.1)


def test_base_optimizer_needs_a_step_rule():
    w = nn.Parameter(minigrad.tensor([1.0]))
    opt = minigrad.optim.Optimizer([w], {"lr": 0.1})
    (w * 2).sum().backward()
    with pytest.raises(NotImplementedError):
        opt.step()


@pytest.mark.parametrize(
    "make",
    [
        lambda w: minigrad.optim.SGD([w], lr=minigrad.tensor(0.1)),
        lambda w: minigrad.optim.Adam([w], betas=(minigrad.tensor(0.9), minigrad.tensor(0.99))),
        lambda w: minigrad.optim.SGD([{"params": [w], "lr": minigrad.tensor(0.1)}], lr=0.1),
    ],
)
def test_tensor_hyperparameters_are_refused_clearly(make):
    """PyTorch accepts tensor learning rates; minigrad says so and how to pass numbers instead
    (it used to fail inside the first step with a NumPy TypeError)."""
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="as numbers, not tensors"):
        make(w)
