"""minigrad.optim.lr_scheduler against torch.optim.lr_scheduler: the same optimizer, scheduler and
steps give the same learning rates (the same floats: the same formulas in the same order), the
same param groups, state dicts, warnings and errors."""

from __future__ import annotations

import copy
import inspect
import pickle
import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

EPOCHS = 25

# Starting values of the parameters (float64, so that both libraries train identically).
VALUES = [np.array([1.0, -2.0, 0.5]), np.array([[0.3, -0.7], [1.5, 0.2]])]

# name -> (optimizer class, its arguments, whether the second parameter is in a group of its own)
OPTIMIZERS = {
    "sgd": ("SGD", dict(lr=0.1), False),
    "sgd-momentum-2groups": ("SGD", dict(lr=0.1, momentum=0.9), True),
    "adam-2groups": ("Adam", dict(lr=0.05), True),
    "adamw": ("AdamW", dict(lr=0.05, amsgrad=True), False),
}


def make_optimizer(lib, kind: str):
    """The optimizer ``kind`` over fresh parameters with the values of VALUES, in ``lib``."""
    name, kwargs, two_groups = OPTIMIZERS[kind]
    params = [lib.nn.Parameter(lib.tensor(v)) for v in VALUES]
    groups = [{"params": [params[0]]}, {"params": [params[1]], "lr": 0.03}] if two_groups else params
    return getattr(lib.optim, name)(groups, **kwargs)


def both_optimizers(kind: str = "sgd"):
    return make_optimizer(minigrad, kind), make_optimizer(torch, kind)


def train_step(opt) -> None:
    """One optimizer step on a loss of all the parameters (so that the lr in use shows in them)."""
    params = [p for group in opt.param_groups for p in group["params"]]
    opt.zero_grad()
    sum((p * p + p).sum() for p in params).backward()  # the gradients 2p + 1 never vanish
    opt.step()


def groups_of(opt) -> list[dict]:
    """The param groups without their parameters: lr, initial_lr, momentum, betas, ..."""
    return [{k: v for k, v in group.items() if k != "params"} for group in opt.param_groups]


def observe(opt, sched) -> tuple:
    return sched.get_last_lr(), groups_of(opt), getattr(sched, "last_epoch", None)


def params_of(opt) -> list[np.ndarray]:
    return [p.detach().cpu().numpy().copy() for g in opt.param_groups for p in g["params"]]


def run(opt, sched, epochs: int = EPOCHS, metrics=None) -> list[tuple]:
    """``opt.step(); sched.step()`` for ``epochs`` epochs; what is observable after the
    constructor and after each epoch."""
    history = [observe(opt, sched)]
    for epoch in range(epochs):
        train_step(opt)
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[epoch])
        history.append(observe(opt, sched))
    return history


def assert_same_params(opt_m, opt_t) -> None:
    for p, q in zip(params_of(opt_m), params_of(opt_t)):
        np.testing.assert_allclose(p, q, rtol=1e-12, atol=1e-14)


# name -> a function (lr_scheduler module, optimizer) -> scheduler; the same code for both libraries.
SCHEDULERS = {
    "LambdaLR": lambda sch, opt: sch.LambdaLR(opt, lr_lambda=lambda epoch: 0.95**epoch / (1 + epoch % 3)),
    "MultiplicativeLR": lambda sch, opt: sch.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.9 if epoch % 2 else 1.05),
    "StepLR": lambda sch, opt: sch.StepLR(opt, step_size=3),
    "StepLR-gamma": lambda sch, opt: sch.StepLR(opt, step_size=2, gamma=0.7),
    "MultiStepLR": lambda sch, opt: sch.MultiStepLR(opt, milestones=[2, 5, 5, 11], gamma=0.3),
    "ConstantLR": lambda sch, opt: sch.ConstantLR(opt),
    "ConstantLR-args": lambda sch, opt: sch.ConstantLR(opt, factor=0.3, total_iters=7),
    "LinearLR": lambda sch, opt: sch.LinearLR(opt),
    "LinearLR-decay": lambda sch, opt: sch.LinearLR(opt, start_factor=0.9, end_factor=0.1, total_iters=13),
    "ExponentialLR": lambda sch, opt: sch.ExponentialLR(opt, gamma=0.87),
    "PolynomialLR": lambda sch, opt: sch.PolynomialLR(opt),
    "PolynomialLR-power": lambda sch, opt: sch.PolynomialLR(opt, total_iters=17, power=2.3),
    "CosineAnnealingLR": lambda sch, opt: sch.CosineAnnealingLR(opt, T_max=7),  # goes past T_max twice
    "CosineAnnealingLR-eta_min": lambda sch, opt: sch.CosineAnnealingLR(opt, T_max=10, eta_min=0.001),
    "CosineAnnealingWarmRestarts": lambda sch, opt: sch.CosineAnnealingWarmRestarts(opt, T_0=4),
    "CosineAnnealingWarmRestarts-mult": lambda sch, opt: sch.CosineAnnealingWarmRestarts(
        opt, T_0=3, T_mult=2, eta_min=0.002
    ),
    "OneCycleLR": lambda sch, opt: sch.OneCycleLR(opt, max_lr=0.5, total_steps=EPOCHS),
    "OneCycleLR-linear-3phase": lambda sch, opt: sch.OneCycleLR(
        opt,
        max_lr=[0.4, 0.2][: len(opt.param_groups)],
        epochs=5,
        steps_per_epoch=5,
        pct_start=0.25,
        anneal_strategy="linear",
        three_phase=True,
        div_factor=10.0,
        final_div_factor=100.0,
    ),  # fmt: skip
    "OneCycleLR-no-momentum": lambda sch, opt: sch.OneCycleLR(
        opt, max_lr=0.3, total_steps=EPOCHS + 3, cycle_momentum=False, base_momentum=0.5
    ),
    "SequentialLR": lambda sch, opt: sch.SequentialLR(
        opt, [sch.LinearLR(opt, start_factor=0.2, total_iters=4), sch.CosineAnnealingLR(opt, T_max=9)], milestones=[6]
    ),
    "SequentialLR-three": lambda sch, opt: sch.SequentialLR(
        opt,
        [sch.ConstantLR(opt, factor=0.5, total_iters=3), sch.ExponentialLR(opt, 0.8), sch.StepLR(opt, step_size=2)],
        milestones=[4, 12],
    ),
    "ChainedScheduler": lambda sch, opt: sch.ChainedScheduler(
        [
            sch.ConstantLR(opt, factor=0.5, total_iters=4),
            sch.ExponentialLR(opt, gamma=0.9),
            sch.MultiStepLR(opt, [3, 8]),
        ]
    ),
    "ChainedScheduler-with-optimizer": lambda sch, opt: sch.ChainedScheduler(
        [sch.LinearLR(opt, total_iters=6), sch.CosineAnnealingLR(opt, T_max=5)], optimizer=opt
    ),
}

# Schedulers with a closed form, which step(epoch) uses (the lambda ones have none: they use get_lr).
STEP_TO_AN_EPOCH = [
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR-gamma",
    "MultiStepLR",
    "ConstantLR-args",
    "LinearLR-decay",
    "ExponentialLR",
    "PolynomialLR-power",
    "CosineAnnealingLR-eta_min",
]


def both_schedulers(name: str, kind: str = "sgd"):
    opt_m, opt_t = both_optimizers(kind)
    sched_m = SCHEDULERS[name](minigrad.optim.lr_scheduler, opt_m)
    sched_t = SCHEDULERS[name](torch.optim.lr_scheduler, opt_t)
    return opt_m, opt_t, sched_m, sched_t


# ---------------------------------------------------------------------- the schedules


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_schedule_matches_torch_epoch_by_epoch(name, kind):
    opt_m, opt_t, sched_m, sched_t = both_schedulers(name, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stepping in the right order warns of nothing
        history_m, history_t = run(opt_m, sched_m), run(opt_t, sched_t)
    for epoch, (ours, theirs) in enumerate(zip(history_m, history_t)):
        assert ours == theirs, f"after {epoch} epochs"  # exactly: the same floats
    assert_same_params(opt_m, opt_t)  # the optimizer trained with those learning rates


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_state_dict_matches_torch(name):
    opt_m, opt_t, sched_m, sched_t = both_schedulers(name, "sgd-momentum-2groups")
    run(opt_m, sched_m, 6)
    run(opt_t, sched_t, 6)
    ours, theirs = sched_m.state_dict(), sched_t.state_dict()
    assert list(ours) == list(theirs)  # the same keys, in the same order
    assert ours == theirs
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]  # initial_lr, max_lr, ...


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_state_dict_round_trip_continues_identically(name):
    """Save optimizer and scheduler mid-way; a fresh pair loaded from them goes on as the original,
    and as PyTorch does."""
    results = []
    for lib in (minigrad, torch):
        sch = lib.optim.lr_scheduler
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        sched = SCHEDULERS[name](sch, opt)
        run(opt, sched, 7)
        saved_opt, saved_sched = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
        twin = make_optimizer(lib, "sgd-momentum-2groups")
        twin_sched = SCHEDULERS[name](sch, twin)  # made before loading the optimizer, as PyTorch advises
        twin.load_state_dict(saved_opt)
        snapshot = copy.deepcopy(saved_sched)
        twin_sched.load_state_dict(saved_sched)
        assert saved_sched == snapshot  # loading leaves the saved dict as it was
        assert twin_sched.state_dict() == sched.state_dict()
        with lib.no_grad():
            for p, q in zip(params_of(opt), [p for g in twin.param_groups for p in g["params"]]):
                q.copy_(lib.tensor(p))
        rest, rest_twin = run(opt, sched, 8), run(twin, twin_sched, 8)
        assert rest_twin == rest
        results.append(rest)
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["StepLR-gamma", "LinearLR-decay", "ExponentialLR", "CosineAnnealingLR", "OneCycleLR"])
def test_resuming_with_last_epoch_matches_torch(name):
    """A scheduler made with last_epoch=k over an optimizer loaded from a checkpoint."""
    histories = []
    for lib in (minigrad, torch):
        sch = lib.optim.lr_scheduler
        opt = make_optimizer(lib, "sgd")
        sched = SCHEDULERS[name](sch, opt)
        run(opt, sched, 5)
        resumed = make_optimizer(lib, "sgd")
        resumed.load_state_dict(opt.state_dict())  # with its initial_lr
        sched = type(sched)(resumed, **_resume_kwargs(name, sched), last_epoch=sched.last_epoch)
        histories.append(run(resumed, sched, 8))
    assert histories[0] == histories[1]


@pytest.mark.parametrize("name", ["CosineAnnealingLR", "ExponentialLR", "PolynomialLR", "LinearLR"])
def test_get_lr_by_hand_after_resuming_matches_torch(name):
    """(It warns; CosineAnnealingLR answers with its closed form then.)"""
    args = {"CosineAnnealingLR": (10,), "ExponentialLR": (0.5,)}
    answers = []
    for lib in (minigrad, torch):
        p = lib.nn.Parameter(lib.zeros(1))
        opt = lib.optim.SGD([{"params": [p], "initial_lr": 1.0}], lr=0.3)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, *args.get(name, ()), last_epoch=2)
        with pytest.warns(UserWarning, match="get_last_lr"):
            answers.append((sched.get_last_lr(), sched.get_lr()))
    assert answers[0] == answers[1]


def _resume_kwargs(name: str, sched) -> dict:
    return {
        "StepLR-gamma": lambda: dict(step_size=sched.step_size, gamma=sched.gamma),
        "LinearLR-decay": lambda: dict(start_factor=0.9, end_factor=0.1, total_iters=13),
        "ExponentialLR": lambda: dict(gamma=sched.gamma),
        "CosineAnnealingLR": lambda: dict(T_max=sched.T_max),
        "OneCycleLR": lambda: dict(max_lr=0.5, total_steps=sched.total_steps),
    }[name]()


@pytest.mark.parametrize("name", STEP_TO_AN_EPOCH)
def test_step_with_an_epoch_uses_the_closed_form_and_warns_like_torch(name):
    opt_m, opt_t, sched_m, sched_t = both_schedulers(name, "sgd-momentum-2groups")
    for epoch in [3, 4, 10, 2, 9, 20, 0, 7]:
        for opt, sched in ((opt_m, sched_m), (opt_t, sched_t)):
            train_step(opt)
            with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
                sched.step(epoch)
        assert sched_m.last_epoch == sched_t.last_epoch == epoch
        assert sched_m.get_last_lr() == sched_t.get_last_lr()
        assert groups_of(opt_m) == groups_of(opt_t)
    for opt, sched in ((opt_m, sched_m), (opt_t, sched_t)):  # and on from there, chainable again
        run(opt, sched, 4)
    assert sched_m.get_last_lr() == sched_t.get_last_lr()


def test_warm_restarts_take_fractional_epochs_like_torch():
    for T_mult in (1, 2):
        opt_m, opt_t = both_optimizers("sgd-momentum-2groups")
        sched_m = minigrad.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt_m, T_0=3, T_mult=T_mult)
        sched_t = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt_t, T_0=3, T_mult=T_mult)
        for epoch in range(12):
            for i in range(4):
                for opt, sched in ((opt_m, sched_m), (opt_t, sched_t)):
                    train_step(opt)
                    with warnings.catch_warnings():
                        warnings.simplefilter("error")  # no deprecation warning for this one
                        sched.step(epoch + i / 4)
                assert observe(opt_m, sched_m) == observe(opt_t, sched_t)
                assert (sched_m.T_cur, sched_m.T_i) == (sched_t.T_cur, sched_t.T_i)
        for opt, sched in ((opt_m, sched_m), (opt_t, sched_t)):
            sched.step(26)
            run(opt, sched, 5)
        assert observe(opt_m, sched_m) == observe(opt_t, sched_t)


def test_two_schedulers_on_one_optimizer_chain_like_torch():
    """Chainable schedulers stepped one after the other multiply their factors."""
    histories = []
    for lib in (minigrad, torch):
        sch = lib.optim.lr_scheduler
        opt = make_optimizer(lib, "adam-2groups")
        first = sch.ExponentialLR(opt, gamma=0.9)
        second = sch.MultiStepLR(opt, milestones=[3, 7], gamma=0.5)
        third = sch.CosineAnnealingLR(opt, T_max=6)
        assert opt.param_groups[0]["initial_lr"] == 0.05  # kept from the first scheduler
        history = []
        for _ in range(15):
            train_step(opt)
            for sched in (first, second, third):
                sched.step()
            history.append((first.get_last_lr(), second.get_last_lr(), third.get_last_lr(), groups_of(opt)))
        histories.append(history)
    assert histories[0] == histories[1]


def test_initial_lr_and_base_lrs():
    opt = make_optimizer(minigrad, "sgd-momentum-2groups")
    sched = minigrad.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.03] == sched.base_lrs
    assert sched.last_epoch == 0 and sched._step_count == 1 and sched.get_last_lr() == [0.1, 0.03]
    train_step(opt)
    sched.step()
    assert [g["lr"] for g in opt.param_groups] == [0.05, 0.015] and sched.last_epoch == 1
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.03]
    assert sched.get_last_lr() == [0.05, 0.015]


# ---------------------------------------------------------------------- ReduceLROnPlateau

METRICS = [5.0, 4.0, 4.5, 4.2, 4.1, 4.0, 3.9996, 4.3, 4.4, 3.0, 3.0, 3.0, 3.0, 2.9, 5.0, 5.0, 5.0, 6.0, 7.0, 7.0]

PLATEAUS = {
    "defaults": dict(),
    "patience": dict(patience=1),
    "patience-0": dict(patience=0, factor=0.5),
    "max": dict(mode="max", patience=1, factor=0.5),
    "abs": dict(threshold_mode="abs", threshold=0.05, patience=1),
    "max-abs": dict(mode="max", threshold_mode="abs", threshold=0.5, patience=0),
    "cooldown": dict(patience=0, cooldown=2, factor=0.7),
    "min_lr": dict(patience=0, factor=0.3, min_lr=0.004),
    "min_lr-per-group": dict(patience=0, factor=0.3, min_lr=[0.01, 0.0001]),
    "eps": dict(patience=0, factor=0.9, eps=0.005),
}


@pytest.mark.parametrize("kind", ["sgd-momentum-2groups", "adam-2groups"])
@pytest.mark.parametrize("name", sorted(PLATEAUS))
def test_reduce_on_plateau_matches_torch(name, kind):
    opt_m, opt_t = both_optimizers(kind)
    sched_m = minigrad.optim.lr_scheduler.ReduceLROnPlateau(opt_m, **PLATEAUS[name])
    sched_t = torch.optim.lr_scheduler.ReduceLROnPlateau(opt_t, **PLATEAUS[name])
    metrics = METRICS + [m + 0.001 for m in METRICS]
    history_m = run(opt_m, sched_m, len(metrics), metrics)
    history_t = run(opt_t, sched_t, len(metrics), metrics)
    assert history_m == history_t
    assert len({h[0][0] for h in history_m}) > 1 or name == "eps"  # the lr did change
    assert sched_m.state_dict() == sched_t.state_dict()
    assert_same_params(opt_m, opt_t)
    assert "initial_lr" not in opt_m.param_groups[0]


def test_reduce_on_plateau_takes_a_tensor_metric_and_round_trips():
    opt_m, opt_t = both_optimizers("sgd")
    sched_m = minigrad.optim.lr_scheduler.ReduceLROnPlateau(opt_m, patience=1, mode="max")
    sched_t = torch.optim.lr_scheduler.ReduceLROnPlateau(opt_t, patience=1, mode="max")
    for metric in METRICS[:8]:
        sched_m.step(minigrad.tensor(metric))
        sched_t.step(torch.tensor(metric))
    assert sched_m.state_dict() == sched_t.state_dict()
    twin = minigrad.optim.lr_scheduler.ReduceLROnPlateau(make_optimizer(minigrad, "sgd"))
    twin.load_state_dict(sched_m.state_dict())
    assert twin.state_dict() == sched_m.state_dict() and twin.mode == "max"
    for lib, sched in ((minigrad, sched_m), (torch, sched_t)):  # loading checks the mode as the constructor does
        bad = dict(sched.state_dict(), threshold_mode="relative")
        with pytest.raises(ValueError, match="threshold mode relative is unknown!"):
            lib.optim.lr_scheduler.ReduceLROnPlateau(make_optimizer(lib, "sgd")).load_state_dict(bad)
    with pytest.warns(UserWarning, match="epoch parameter"):
        sched_m.step(1.0, epoch=20)
    assert sched_m.last_epoch == 20


def test_reduce_on_plateau_default_min_lr_covers_a_group_added_later():
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd")
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=0.02)
        opt.add_param_group({"params": [lib.nn.Parameter(lib.zeros(1))], "lr": 0.05})
        for metric in (1.0, 2.0, 3.0):
            sched.step(metric)
        assert sched.get_last_lr() == [0.02, 0.02] and sched.min_lrs == [0.02, 0.02]


# ---------------------------------------------------------------------- warnings


def record_warnings(fn) -> list[str]:
    """The warnings that ``fn()`` gives, with the file they point at when it is not this one."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [
        f"{w.category.__name__}: {w.message}" + ("" if w.filename == __file__ else f" ({w.filename})") for w in caught
    ]


def test_stepping_the_scheduler_first_warns_like_torch():
    messages = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd")
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1)

        def wrong_order(opt=opt, sched=sched):
            for _ in range(3):
                sched.step()
                train_step(opt)

        messages.append(record_warnings(wrong_order))
    assert messages[0] == messages[1]
    assert (
        len(messages[0]) == 1 and "Detected call of `lr_scheduler.step()` before `optimizer.step()`" in messages[0][0]
    )


def test_the_order_warning_points_at_the_callers_line():
    opt = make_optimizer(minigrad, "sgd")
    sched = minigrad.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`") as caught:
        sched.step()
    assert caught[0].filename == __file__


def test_right_order_with_two_schedulers_and_no_training_step_warns_like_torch():
    """The optimizer's step is wrapped once however many schedulers watch it; a step of the
    optimizer before the first scheduler step silences the warning even without gradients."""
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd")
        first = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        wrapped = opt.step
        second = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        assert opt.step is wrapped and opt.step._wrapped_by_lr_sched
        assert record_warnings(lambda opt=opt, a=first, b=second: (opt.step(), a.step(), b.step())) == []


def test_replacing_the_optimizer_step_afterwards_warns_like_torch():
    messages = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd")
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1)
        opt.step = lambda closure=None: None  # e.g. a hand-made wrapper
        messages.append(record_warnings(lambda opt=opt, sched=sched: (opt.step(), sched.step(), sched.step())))
    assert messages[0] == messages[1]
    assert len(messages[0]) == 1 and "`optimizer.step()` has been overridden" in messages[0][0]


def test_calling_get_lr_directly_warns_like_torch():
    """(PyTorch's warning points at its get_lr, minigrad's at the caller's line.)"""
    messages = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd")
        sched = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)
        train_step(opt)
        sched.step()
        messages.append(record_warnings(lambda sched=sched: sched.get_lr()))
        assert sched.get_last_lr() == [opt.param_groups[0]["lr"]]
    assert messages[0][0] == messages[1][0].split(" (")[0]
    assert messages[0] == [
        "UserWarning: To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
    ]


def test_verbose_is_gone_as_in_torch():
    """PyTorch 2.13 has no ``verbose`` argument any more (it was deprecated in 2.2)."""
    for name in ("StepLR", "ExponentialLR", "ReduceLROnPlateau", "OneCycleLR"):
        errors = []
        for lib in (minigrad, torch):
            cls = getattr(lib.optim.lr_scheduler, name)
            with pytest.raises(TypeError, match="unexpected keyword argument 'verbose'") as info:
                cls(make_optimizer(lib, "sgd"), 0.5, verbose=True)
            errors.append(str(info.value))
        assert errors[0] == errors[1]


# ---------------------------------------------------------------------- errors


def other_optimizer(lib, opt):
    return lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=0.1)


def one_cycle_stepped_too_far(lib, opt):
    sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)
    for _ in range(3):
        train_step(opt)
        sched.step()


def plateau_with_a_new_group(lib, opt):
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=[0.001])
    opt.add_param_group({"params": [lib.nn.Parameter(lib.zeros(1))]})
    sched.step(1.0)
    sched.step(2.0)


def step_after_training(sched, opt):
    train_step(opt)
    sched.step()


def warm_restart_to_a_negative_epoch(lib, opt):
    lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2).step(-1)


ERRORS = {
    "not an optimizer": lambda lib, opt: lib.optim.lr_scheduler.StepLR(object(), 2),
    "plateau: not an optimizer": lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau([1]),
    "one cycle: not an optimizer": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(None, 0.1, 10),
    "base class has no rule": lambda lib, opt: lib.optim.lr_scheduler.LRScheduler(opt),
    "resuming without initial_lr": lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3),
    "lambdas: wrong count": lambda lib, opt: lib.optim.lr_scheduler.LambdaLR(opt, [abs, abs]),
    "multiplicative: wrong count": lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, (abs, abs)),
    "multiplicative: not callable": lambda lib, opt: lib.optim.lr_scheduler.MultiplicativeLR(opt, 0.9),
    "lambda: not callable": lambda lib, opt: lib.optim.lr_scheduler.LambdaLR(opt, 0.9),
    "constant: factor > 1": lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=1.5),
    "constant: factor < 0": lambda lib, opt: lib.optim.lr_scheduler.ConstantLR(opt, factor=-0.1),
    "linear: start 0": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=0),
    "linear: start > 1": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, start_factor=1.5),
    "linear: end > 1": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, end_factor=1.01),
    "linear: end < 0": lambda lib, opt: lib.optim.lr_scheduler.LinearLR(opt, end_factor=-1),
    "cosine: T_max 0": lambda lib, opt: step_after_training(lib.optim.lr_scheduler.CosineAnnealingLR(opt, 0), opt),
    "restarts: T_0 0": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0),
    "restarts: T_0 float": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2.0),
    "restarts: T_mult 0": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=0),
    "restarts: T_mult float": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, 1.5),
    "restarts: eta_min str": lambda lib, opt: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, 1, "0"),
    "restarts: negative epoch": warm_restart_to_a_negative_epoch,
    "plateau: factor 1": lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0),
    "plateau: mode": lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="avg"),
    "plateau: threshold mode": lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="x"),
    "plateau: min_lrs count": lambda lib, opt: lib.optim.lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]),
    "plateau: group added": plateau_with_a_new_group,
    "one cycle: no length": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1),
    "one cycle: epochs only": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, epochs=3),
    "one cycle: total 0": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=0),
    "one cycle: total float": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5.0),
    "one cycle: epochs 0": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=3),
    "one cycle: steps -1": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-1),
    "one cycle: pct int": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 10, pct_start=1),
    "one cycle: pct > 1": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 10, pct_start=1.5),
    "one cycle: strategy": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 10, anneal_strategy="exp"),
    "one cycle: max_lr count": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(opt, [0.1, 0.2], 10),
    "one cycle: momenta count": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(
        opt, 0.1, 10, max_momentum=[0.9] * 3
    ),
    "one cycle: no momentum": lambda lib, opt: lib.optim.lr_scheduler.OneCycleLR(
        lib.optim.Optimizer(opt.param_groups[0]["params"], {"lr": 0.1}), 0.1, 10
    ),
    "one cycle: too many steps": one_cycle_stepped_too_far,
    "sequential: none": lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(opt, [], []),
    "sequential: not a scheduler": lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(opt, [object()], []),
    "sequential: plateau": lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.ReduceLROnPlateau(opt)], []
    ),
    "sequential: other optimizer": lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.StepLR(other_optimizer(lib, opt), 2)], []
    ),
    "sequential: milestones": lambda lib, opt: lib.optim.lr_scheduler.SequentialLR(
        opt, [lib.optim.lr_scheduler.StepLR(opt, 2), lib.optim.lr_scheduler.StepLR(opt, 3)], [2, 4]
    ),
    "chained: none": lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler([]),
    "chained: plateau": lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.ReduceLROnPlateau(opt)]
    ),
    "chained: other optimizer": lambda lib, opt: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.StepLR(opt, 2)], optimizer=other_optimizer(lib, opt)
    ),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_match_torch(case):
    with pytest.raises(Exception) as theirs:
        ERRORS[case](torch, make_optimizer(torch, "sgd"))
    with pytest.raises(type(theirs.value)) as ours:
        ERRORS[case](minigrad, make_optimizer(minigrad, "sgd"))
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


# ---------------------------------------------------------------------- the API


def test_the_module_is_exported_with_torchs_names():
    ours, theirs = minigrad.optim.lr_scheduler, torch.optim.lr_scheduler
    assert minigrad.optim.lr_scheduler is __import__("minigrad.optim.lr_scheduler").optim.lr_scheduler
    assert set(ours.__all__) <= set(theirs.__all__)
    assert set(theirs.__all__) == set(ours.__all__)
    assert ours._LRScheduler.__name__ == "_LRScheduler" and issubclass(ours._LRScheduler, ours.LRScheduler)
    for name in ours.__all__:
        assert issubclass(getattr(ours, name), ours.LRScheduler)


def signature(fn) -> list[tuple]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", sorted(minigrad.optim.lr_scheduler.__all__))
def test_signatures_and_defaults_match_torch(name):
    ours, theirs = getattr(minigrad.optim.lr_scheduler, name), getattr(torch.optim.lr_scheduler, name)
    for method in ("__init__", "step", "state_dict", "load_state_dict", "get_last_lr"):
        assert signature(getattr(ours, method)) == signature(getattr(theirs, method)), method


def test_state_dicts_pickle_and_lambdas_are_not_saved():
    opt = make_optimizer(minigrad, "sgd")

    class Factor:  # a callable object: its attributes are saved
        def __init__(self, base):
            self.base = base

        def __call__(self, epoch):
            return self.base**epoch

    sched = minigrad.optim.lr_scheduler.LambdaLR(opt, lr_lambda=Factor(0.5))
    saved = pickle.loads(pickle.dumps(sched.state_dict()))
    assert saved["lr_lambdas"] == [{"base": 0.5}]
    other = minigrad.optim.lr_scheduler.LambdaLR(make_optimizer(minigrad, "sgd"), lr_lambda=Factor(0.9))
    other.load_state_dict(saved)
    assert other.lr_lambdas[0].base == 0.5 and "lr_lambdas" in saved
    sched = minigrad.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.5)
    assert sched.state_dict()["lr_lambdas"] == [None]
    copy.deepcopy(opt)  # the optimizer, its step wrapped, still copies


# ---------------------------------------------------------------------- CyclicLR


class Halving:
    """A scale_fn that is a callable object: CyclicLR's state_dict saves its attributes."""

    def __init__(self, base: float) -> None:
        self.base = base

    def __call__(self, x: float) -> float:
        return self.base ** (x - 1)


# name -> a function (lr_scheduler module, optimizer) -> CyclicLR; the same code for both libraries.
CYCLIC = {
    "triangular": lambda sch, opt: sch.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "triangular-up-down": lambda sch, opt: sch.CyclicLR(
        opt, [0.01, 0.002][: len(opt.param_groups)], [0.1, 0.05][: len(opt.param_groups)], 3, 5
    ),
    "triangular2": lambda sch, opt: sch.CyclicLR(opt, 0.02, 0.2, step_size_up=2, step_size_down=4, mode="triangular2"),
    "exp_range": lambda sch, opt: sch.CyclicLR(opt, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.93),
    "exp_range-cycle-mode-ignored": lambda sch, opt: sch.CyclicLR(
        opt, 0.01, 0.1, 5, 1, mode="exp_range", gamma=0.8, scale_mode="cycle"
    ),
    "scale_fn-cycle": lambda sch, opt: sch.CyclicLR(opt, 0.01, 0.1, 2, scale_fn=lambda x: 0.8**x, mode="nonsense"),
    "scale_fn-iterations": lambda sch, opt: sch.CyclicLR(
        opt, 0.005, 0.05, 3, 2, scale_fn=lambda x: 1 / (1.0 + x), scale_mode="iterations"
    ),
    "scale_fn-object": lambda sch, opt: sch.CyclicLR(opt, 0.01, 0.3, 2, scale_fn=Halving(0.7)),
    "momentum-bounds": lambda sch, opt: sch.CyclicLR(
        opt, 0.01, 0.1, 3, base_momentum=[0.5, 0.6][: len(opt.param_groups)], max_momentum=0.95
    ),
    "no-momentum-cycle": lambda sch, opt: sch.CyclicLR(opt, 0.01, 0.1, 3, cycle_momentum=False, base_momentum=0.1),
    "default-step-size": lambda sch, opt: sch.CyclicLR(opt, 0.001, 0.006),
}

# Optimizers of the CyclicLR tests: those of the other tests, and ones with a momentum of their own.
CYCLIC_OPTIMIZERS = {
    "rmsprop-2groups": ("RMSprop", dict(lr=0.01), True),
    "nadam": ("NAdam", dict(lr=0.01), False),
    "adagrad": ("Adagrad", dict(lr=0.1), False),  # neither momentum nor betas
}


def make_cyclic_optimizer(lib, kind: str):
    if kind in OPTIMIZERS:
        return make_optimizer(lib, kind)
    name, kwargs, two_groups = CYCLIC_OPTIMIZERS[kind]
    params = [lib.nn.Parameter(lib.tensor(v)) for v in VALUES]
    groups = [{"params": [params[0]]}, {"params": [params[1]], "lr": 0.03}] if two_groups else params
    return getattr(lib.optim, name)(groups, **kwargs)


def both_cyclic(name: str, kind: str = "sgd-momentum-2groups"):
    opt_m, opt_t = make_cyclic_optimizer(minigrad, kind), make_cyclic_optimizer(torch, kind)
    sched_m = CYCLIC[name](minigrad.optim.lr_scheduler, opt_m)
    sched_t = CYCLIC[name](torch.optim.lr_scheduler, opt_t)
    return opt_m, opt_t, sched_m, sched_t


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS) + ["rmsprop-2groups", "nadam"])
@pytest.mark.parametrize("name", sorted(CYCLIC))
def test_cyclic_schedule_matches_torch_step_by_step(name, kind):
    """The same lrs and momenta (or beta1), the same floats, over several cycles."""
    opt_m, opt_t, sched_m, sched_t = both_cyclic(name, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history_m, history_t = run(opt_m, sched_m, 30), run(opt_t, sched_t, 30)
    for step, (ours, theirs) in enumerate(zip(history_m, history_t)):
        assert ours == theirs, f"after {step} steps"
    assert len({h[0][0] for h in history_m}) > 3  # the lr did cycle
    assert_same_params(opt_m, opt_t)


def test_cyclic_triangular_goes_up_and_down_between_the_bounds():
    opt = make_optimizer(minigrad, "sgd-momentum-2groups")
    sched = minigrad.optim.lr_scheduler.CyclicLR(opt, [0.1, 1.0], [0.5, 3.0], step_size_up=2, step_size_down=1)
    lrs, momenta = [], []
    for _ in range(7):
        lrs.append([round(lr, 12) for lr in sched.get_last_lr()])
        momenta.append(round(opt.param_groups[0]["momentum"], 12))
        train_step(opt)
        sched.step()
    assert lrs == [[0.1, 1.0], [0.3, 2.0], [0.5, 3.0], [0.1, 1.0], [0.3, 2.0], [0.5, 3.0], [0.1, 1.0]]
    assert momenta == [0.9, 0.85, 0.8, 0.9, 0.85, 0.8, 0.9]
    assert sched.base_lrs == [0.1, 1.0] and [g["initial_lr"] for g in opt.param_groups] == [0.1, 1.0]


def test_cyclic_after_another_scheduler_behaves_like_torch():
    """An initial_lr already set stays; the constructor's step computes from it (as PyTorch does:
    base_lrs become base_lr only after that step), the next steps from base_lr."""
    histories = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2)
        assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.03] and sched.base_lrs == [0.01, 0.01]
        assert sched.get_last_lr() == [0.1, 0.03]
        histories.append(run(opt, sched, 6))
    assert histories[0] == histories[1] and histories[0][1][0] == [0.05500000000000001] * 2


@pytest.mark.parametrize("name", sorted(CYCLIC))
def test_cyclic_state_dict_matches_torch(name):
    opt_m, opt_t, sched_m, sched_t = both_cyclic(name)
    run(opt_m, sched_m, 7)
    run(opt_t, sched_t, 7)
    ours, theirs = sched_m.state_dict(), sched_t.state_dict()
    assert list(ours) == list(theirs) and ours == theirs
    assert "_scale_fn_ref" not in ours and list(ours)[-1] == "_scale_fn_custom"
    assert ours["_scale_fn_custom"] == ({"base": 0.7} if name == "scale_fn-object" else None)
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert opt_m.state_dict()["param_groups"] == opt_t.state_dict()["param_groups"]


@pytest.mark.parametrize("name", sorted(CYCLIC))
def test_cyclic_state_dict_round_trip_continues_like_torch(name):
    """A fresh optimizer and CyclicLR loaded from a checkpoint go on as the original, and as PyTorch's
    pair (which loads from a copy: its load_state_dict takes _scale_fn_custom out of the dict given)."""
    results = []
    for lib in (minigrad, torch):
        sch = lib.optim.lr_scheduler
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        sched = CYCLIC[name](sch, opt)
        run(opt, sched, 9)
        saved_opt, saved_sched = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
        twin = make_optimizer(lib, "sgd-momentum-2groups")
        twin_sched = CYCLIC[name](sch, twin)  # made before loading the optimizer, as PyTorch advises
        twin.load_state_dict(saved_opt)
        if name == "scale_fn-object":
            twin_sched._scale_fn_custom.base = 0.1  # restored from the checkpoint
        snapshot = copy.deepcopy(saved_sched)
        twin_sched.load_state_dict(saved_sched if lib is minigrad else copy.deepcopy(saved_sched))
        if lib is minigrad:
            assert saved_sched == snapshot  # minigrad's loading leaves the saved dict as it was
        assert twin_sched.state_dict() == sched.state_dict()
        with lib.no_grad():
            for p, q in zip(params_of(opt), [p for g in twin.param_groups for p in g["params"]]):
                q.copy_(lib.tensor(p))
        rest, rest_twin = run(opt, sched, 10), run(twin, twin_sched, 10)
        assert rest_twin == rest
        results.append(rest)
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["triangular2", "exp_range", "momentum-bounds"])
def test_cyclic_resuming_with_last_epoch_matches_torch(name):
    kwargs = {
        "triangular2": dict(base_lr=0.02, max_lr=0.2, step_size_up=2, step_size_down=4, mode="triangular2"),
        "exp_range": dict(base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.93),
        "momentum-bounds": dict(base_lr=0.01, max_lr=0.1, step_size_up=3, base_momentum=0.5, max_momentum=0.95),
    }[name]
    histories = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        sched = lib.optim.lr_scheduler.CyclicLR(opt, **kwargs)
        run(opt, sched, 5)
        resumed = make_optimizer(lib, "sgd-momentum-2groups")
        resumed.load_state_dict(opt.state_dict())  # with its initial_lr, lr and momentum
        sched = lib.optim.lr_scheduler.CyclicLR(resumed, **kwargs, last_epoch=sched.last_epoch)
        histories.append(run(resumed, sched, 8))
    assert histories[0] == histories[1]


def test_cyclic_step_with_an_epoch_warns_and_matches_torch():
    """CyclicLR has no closed form: step(epoch) sets last_epoch and uses get_lr."""
    opt_m, opt_t, sched_m, sched_t = both_cyclic("triangular2")
    for epoch in [3, 7, 2, 11, 0, 5]:
        for opt, sched in ((opt_m, sched_m), (opt_t, sched_t)):
            train_step(opt)
            with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
                sched.step(epoch)
        assert sched_m.last_epoch == sched_t.last_epoch == epoch
        assert observe(opt_m, sched_m) == observe(opt_t, sched_t)


def test_cyclic_get_lr_by_hand_warns_and_moves_the_momentum_like_torch():
    results = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 4)
        train_step(opt)
        sched.step()
        with pytest.warns(UserWarning, match="get_last_lr"):
            lrs = sched.get_lr()
        results.append((lrs, sched.get_last_lr(), groups_of(opt), sched.scale_fn(3)))
    assert results[0] == results[1]


def test_cyclic_without_momentum_cycling_leaves_the_momentum_like_torch():
    for kind in ("adagrad", "sgd-momentum-2groups", "adam-2groups"):
        opt_m, opt_t, sched_m, sched_t = both_cyclic("no-momentum-cycle", kind)
        before = groups_of(opt_m)
        assert run(opt_m, sched_m, 12) == run(opt_t, sched_t, 12)
        assert [{k: v for k, v in g.items() if k not in ("lr", "initial_lr")} for g in groups_of(opt_m)] == [
            {k: v for k, v in g.items() if k not in ("lr", "initial_lr")} for g in before
        ]
        assert_same_params(opt_m, opt_t)
        assert not hasattr(sched_m, "use_beta1") and not hasattr(sched_t, "use_beta1")


CYCLIC_ERRORS = {
    "not an optimizer": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR("sgd", 0.01, 0.1),
    "mode": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="triangle"),
    "no momentum (Adagrad)": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        lib.optim.Adagrad(opt.param_groups[0]["params"]), 0.01, 0.1
    ),
    "no momentum (Optimizer)": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(
        lib.optim.Optimizer(opt.param_groups[0]["params"], {"lr": 0.1}), 0.01, 0.1
    ),
    "base_lr count": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, [0.01, 0.02], 0.1),
    "max_lr count": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, (0.1, 0.2, 0.3)),
    "base_momentum count": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, base_momentum=[0.8] * 2),
    "max_momentum count": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, max_momentum=[0.9] * 3),
    "resuming without initial_lr": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, last_epoch=4),
    "verbose": lambda lib, opt: lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, verbose=True),
}


@pytest.mark.parametrize("case", sorted(CYCLIC_ERRORS))
def test_cyclic_errors_match_torch(case):
    with pytest.raises(Exception) as theirs:
        CYCLIC_ERRORS[case](torch, make_optimizer(torch, "sgd"))
    with pytest.raises(type(theirs.value)) as ours:
        CYCLIC_ERRORS[case](minigrad, make_optimizer(minigrad, "sgd"))
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_cyclic_refusing_an_optimizer_without_momentum_changes_nothing_and_no_cycling_is_fine():
    for lib in (minigrad, torch):
        opt = make_cyclic_optimizer(lib, "adagrad")
        with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
            lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1)
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2, cycle_momentum=False)
        assert sched.get_last_lr() == [0.01] and "momentum" not in opt.param_groups[0]


def test_cyclic_loading_another_mode_picks_its_scaling_like_torch():
    """load_state_dict picks the built-in scaling of the loaded mode (here exp_range into triangular)."""
    histories = []
    for lib in (minigrad, torch):
        opt = make_optimizer(lib, "sgd-momentum-2groups")
        saved = CYCLIC["exp_range"](lib.optim.lr_scheduler, opt)
        run(opt, saved, 4)
        sched = lib.optim.lr_scheduler.CyclicLR(make_optimizer(lib, "sgd-momentum-2groups"), 0.01, 0.1, 3)
        sched.optimizer.load_state_dict(opt.state_dict())
        sched.load_state_dict(copy.deepcopy(saved.state_dict()))
        assert sched.mode == "exp_range" and sched.scale_mode == "iterations" and sched.scale_fn(2) == 0.93**2
        histories.append(run(sched.optimizer, sched, 8))
    assert histories[0] == histories[1]


def test_cyclic_cycles_beta1_of_an_optimizer_with_both_momentum_and_betas_like_torch():
    """With both settings in the defaults, beta1 is the one that cycles (PyTorch's rule)."""
    results = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.zeros(2))]
        opt = lib.optim.Optimizer(params, {"lr": 0.1, "momentum": 0.5, "betas": (0.7, 0.99)})
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2)
        history = [groups_of(opt)]
        for _ in range(3):
            opt._opt_called = True  # (the base class has no step rule: no optimizer step here)
            sched.step()
            history.append(groups_of(opt))
        assert (
            sched.use_beta1
            and history[-1][0]["momentum"] == 0.5
            and history[1][0]["betas"] == (0.8500000000000001, 0.99)
        )
        results.append(history)
    assert results[0] == results[1]
