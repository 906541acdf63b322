"""minigrad.optim's Rprop, Adadelta, ASGD and LBFGS against torch.optim's.

The gradients (and LBFGS's losses) are computed with NumPy from the parameters' values, the same
in both libraries, so that any difference comes from the optimizers: Rprop and ASGD agree with
PyTorch to the bit over many steps in float32 and float64. Adadelta agrees to a few roundings
(PyTorch's ``sqrt`` and fused ``addcmul`` round differently from NumPy's), and LBFGS to its
dot products and sums (BLAS orders); with one number to optimize, LBFGS agrees to the bit.
"""

from __future__ import annotations

import copy
import inspect

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

SHAPES = [(5, 3), (7,), ()]  # a matrix, a vector and a 0-d parameter

EXACT = {
    "rprop": ("Rprop", {}),
    "rprop-etas-step-sizes": ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2))),
    "rprop-maximize": ("Rprop", dict(lr=0.02, maximize=True)),
    "rprop-positional": ("Rprop", (0.03, (0.4, 1.1), (1e-4, 1.0))),
    "asgd": ("ASGD", {}),
    "asgd-averaging": ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.6, t0=10, weight_decay=0.1)),
    "asgd-maximize": ("ASGD", dict(lr=0.02, t0=3, maximize=True)),
    "asgd-positional": ("ASGD", (0.03, 1e-3, 0.5, 5.0, 0.05)),
}
CLOSE = {
    "adadelta": ("Adadelta", {}),
    "adadelta-settings": ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1)),
    "adadelta-maximize": ("Adadelta", dict(maximize=True, rho=0.95)),
    "adadelta-positional": ("Adadelta", (0.7, 0.85, 1e-5, 0.02)),
}
KINDS = ["Rprop", "Adadelta", "ASGD"]


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def gradient(p: np.ndarray, noise: np.ndarray, maximize: bool) -> np.ndarray:
    """A gradient that pulls towards the roots of p**3 - p/2 (pushes away when maximizing), plus noise."""
    g = p**3 - 0.5 * p + noise
    return (-g if maximize else g).astype(p.dtype)


def make(lib, kind, args, params):
    args, kwargs = (args, {}) if isinstance(args, tuple) else ((), args)
    return getattr(lib.optim, kind)(params, *args, **kwargs)


def train(configs, name, dtype, steps, compare, opts=None):
    """Run minigrad's and PyTorch's optimizer side by side; ``compare(ours, theirs)`` the parameters
    after every step. Returns the two (params, optimizer) pairs."""
    kind, args = configs[name]
    maximize = isinstance(args, dict) and args.get("maximize", False)
    rng = np.random.default_rng(len(name))
    if opts is None:
        init = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
        opts = []
        for lib in (minigrad, torch):
            params = [lib.nn.Parameter(lib.tensor(a.copy())) for a in init]
            opts.append((params, make(lib, kind, args, params)))
    for step in range(steps):
        noise = [0.3 * rng.standard_normal(s).astype(dtype) for s in SHAPES]
        for lib, (params, opt) in zip((minigrad, torch), opts):
            opt.zero_grad()
            for p, n in zip(params, noise):
                p.grad = lib.tensor(gradient(arr(p), n, maximize))
            opt.step()
        for p, q in zip(opts[0][0], opts[1][0]):
            assert p.is_leaf and p.requires_grad and p.dtype == getattr(minigrad, dtype)
            compare(arr(p), arr(q), f"{name} {dtype} after step {step}")
    return opts


def exact(a, b, where):
    np.testing.assert_array_equal(a, b, err_msg=where)


def close(dtype):
    tol = dict(rtol=1e-12, atol=1e-14) if dtype == "float64" else dict(rtol=1e-4, atol=1e-5)
    return lambda a, b, where: np.testing.assert_allclose(a, b, **tol, err_msg=where)


def assert_same_state(opt_m, opt_t, compare):
    """The same state keys in the same order, tensors of the same dtypes, shapes and values."""
    sm, st = opt_m.state_dict(), opt_t.state_dict()
    assert sm["param_groups"] == st["param_groups"]
    assert sorted(sm["state"]) == sorted(st["state"])
    for index, state in st["state"].items():
        assert list(sm["state"][index]) == list(state)
        for key, value in state.items():
            ours = sm["state"][index][key]
            assert str(ours.dtype) == str(value.dtype) and tuple(ours.shape) == tuple(value.shape), key
            compare(arr(ours), arr(value), f"state {index} {key}")


# ---------------------------------------------------------------------- training


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(EXACT))
def test_rprop_and_asgd_match_torch_to_the_bit(name, dtype):
    (_, opt_m), (_, opt_t) = train(EXACT, name, dtype, 60, exact)
    assert_same_state(opt_m, opt_t, exact)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CLOSE))
def test_adadelta_matches_torch(name, dtype):
    (_, opt_m), (_, opt_t) = train(CLOSE, name, dtype, 40, close(dtype))
    assert_same_state(opt_m, opt_t, close(dtype))


def test_asgd_averages_after_t0_steps():
    """ax copies the parameter while mu is 1 (the first t0 steps), then averages."""
    w = minigrad.nn.Parameter(minigrad.tensor([1.0], dtype=minigrad.float64))
    opt = minigrad.optim.ASGD([w], lr=0.1, lambd=0.0, t0=2)
    values = []
    for _ in range(4):
        w.grad = minigrad.ones_like(w)
        opt.step()
        values.append(w.item())
    state = opt.state[w]
    assert state["mu"].item() == 0.5 and state["eta"].item() == pytest.approx(0.1)
    # steps 1-3 copy (mu is 1 after steps 1 and 2, then 1 / (3 - 2)); step 4 averages with mu = 1
    assert state["ax"].item() == pytest.approx(values[3])
    w.grad = minigrad.ones_like(w)
    opt.step()  # mu = 1/2: ax halfway from the old average to the new parameter
    assert state["ax"].item() == pytest.approx((values[3] + w.item()) / 2)


def test_rprop_grows_and_shrinks_each_step_size():
    w = minigrad.nn.Parameter(minigrad.tensor([1.0, 1.0], dtype=minigrad.float64))
    opt = minigrad.optim.Rprop([w], lr=0.1, step_sizes=(0.01, 0.15))
    for grad in ([1.0, 1.0], [1.0, -1.0], [1.0, 1.0], [1.0, 1.0]):
        w.grad = minigrad.tensor(grad, dtype=minigrad.float64)
        opt.step()
    # first element: 0.1, then 0.12, 0.144, 0.15 (capped); second: 0.1, 0.05 (no move), 0.05, 0.06
    np.testing.assert_allclose(opt.state[w]["step_size"].tolist(), [0.15, 0.06])
    np.testing.assert_allclose(w.tolist(), [1.0 - 0.1 - 0.12 - 0.144 - 0.15, 1.0 - 0.1 - 0.05 - 0.06])


@pytest.mark.parametrize("name", ["rprop", "asgd-averaging", "adadelta-settings"])
def test_scalar_state_follows_the_default_dtype_like_torch(name):
    """PyTorch keeps step (and ASGD's eta and mu) in float64 when that is the default dtype."""
    minigrad.set_default_dtype(minigrad.float64)
    torch.set_default_dtype(torch.float64)
    try:
        compare = exact if name in EXACT else close("float64")
        (_, opt_m), (_, opt_t) = train({**EXACT, **CLOSE}, name, "float64", 5, compare)
        assert_same_state(opt_m, opt_t, compare)
        assert all(str(s["step"].dtype) == "torch.float64" for s in opt_m.state.values())
    finally:
        minigrad.set_default_dtype(minigrad.float32)
        torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["rprop-etas-step-sizes", "asgd-averaging", "adadelta-settings"])
def test_state_dict_round_trip_continues_like_torch(name, dtype):
    """Save after some steps, load into fresh optimizers (made with other settings) over copies of
    the parameters, and go on: as PyTorch's pair does (loading casts eta and mu to the
    parameter's dtype in both)."""
    configs = {**EXACT, **CLOSE}
    compare = exact if name in EXACT else close(dtype)
    pairs = train(configs, name, dtype, 5, compare)
    kind = configs[name][0]
    fresh = []
    for lib, (params, opt) in zip((minigrad, torch), pairs):
        saved = copy.deepcopy(opt.state_dict())
        twins = [lib.nn.Parameter(p.detach().clone()) for p in params]
        new = getattr(lib.optim, kind)(twins, lr=0.5)
        new.load_state_dict(saved)
        assert new.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
        fresh.append((twins, new))
    assert_same_state(fresh[0][1], fresh[1][1], compare)
    train(configs, name, dtype, 5, compare, opts=fresh)
    assert_same_state(fresh[0][1], fresh[1][1], compare)


def test_parameters_without_grad_are_skipped_and_closures_return_the_loss():
    for kind in KINDS:
        used, unused = minigrad.nn.Parameter(minigrad.tensor([1.0])), minigrad.nn.Parameter(minigrad.tensor([3.0]))
        opt = getattr(minigrad.optim, kind)([used, unused], lr=0.1)

        def closure(opt=opt, used=used):
            opt.zero_grad()
            loss = (used * used).sum()
            loss.backward()
            return loss

        with minigrad.no_grad():  # the closure still records its graph
            loss = opt.step(closure)
        assert loss.item() == 1.0 and used.item() < 1.0 and used.is_leaf, kind
        assert unused.item() == 3.0 and unused not in opt.state, kind


# ---------------------------------------------------------------------- the API


def signature(fn) -> list[tuple]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("kind", KINDS + ["LBFGS"])
def test_signature_defaults_and_repr_match_torch(kind):
    assert signature(getattr(minigrad.optim, kind).__init__) == signature(getattr(torch.optim, kind).__init__)
    assert kind in minigrad.optim.__all__ and issubclass(getattr(minigrad.optim, kind), minigrad.optim.Optimizer)
    opt_m = getattr(minigrad.optim, kind)([minigrad.nn.Parameter(minigrad.ones(2))])
    opt_t = getattr(torch.optim, kind)([torch.nn.Parameter(torch.ones(2))])
    assert opt_m.defaults == opt_t.defaults and list(opt_m.defaults) == list(opt_t.defaults)
    assert opt_m.state_dict() == opt_t.state_dict()
    assert repr(opt_m) == repr(opt_t)


CONSTRUCTOR_ERRORS = [
    ("Rprop", dict(lr=-0.1)),
    ("Rprop", dict(lr=float("nan"))),
    ("Rprop", dict(etas=(1.5, 2.0))),
    ("Rprop", dict(etas=(0.0, 1.2))),
    ("Rprop", dict(etas=(0.5, 0.9))),
    ("Rprop", dict(etas=(0.5, 1.0))),
    ("Adadelta", dict(lr=-1.0)),
    ("Adadelta", dict(rho=1.5)),
    ("Adadelta", dict(rho=-0.1)),
    ("Adadelta", dict(eps=-1e-6)),
    ("Adadelta", dict(weight_decay=-0.1)),
    ("ASGD", dict(lr=-0.1)),
    ("ASGD", dict(weight_decay=-1)),
    ("LBFGS", dict(lr=-1.0)),
]


@pytest.mark.parametrize("kind, kwargs", CONSTRUCTOR_ERRORS, ids=str)
def test_bad_hyperparameters_raise_torch_errors(kind, kwargs):
    def make(lib):
        getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2))], **kwargs)

    error = same_error(make, "Invalid")
    with pytest.raises(ValueError) as theirs:
        make(torch)
    assert type(error) is ValueError and str(error) == str(theirs.value)


@pytest.mark.parametrize("kind", KINDS + ["LBFGS"])
def test_bad_parameter_lists_raise_torch_errors(kind):
    same_error(lambda lib: getattr(lib.optim, kind)([]), "empty parameter list")
    same_error(lambda lib: getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2)) * 2]), "non-leaf")
    same_error(
        lambda lib: getattr(lib.optim, kind)([lib.nn.Parameter(lib.rand(2))], lr=lib.tensor([0.1, 0.2])),
        "Tensor lr must be 1-element",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_differentiable_is_refused_and_foreach_capturable_are_kept(kind):
    with pytest.raises(NotImplementedError, match="differentiable"):
        getattr(minigrad.optim, kind)([minigrad.nn.Parameter(minigrad.rand(2))], differentiable=True)
    results = []
    for extra in ({}, {"foreach": False, "capturable": True}):
        w = minigrad.nn.Parameter(minigrad.tensor([1.0, -2.0], dtype=minigrad.float64))
        opt = getattr(minigrad.optim, kind)([w], lr=0.1, **extra)
        assert all(opt.param_groups[0][k] == v for k, v in extra.items())
        for _ in range(3):
            opt.zero_grad()
            (w * w * w).sum().backward()
            opt.step()
        results.append(w.tolist())
    assert results[0] == results[1]


def test_param_groups_with_their_own_settings_match_torch():
    for kind, settings in (("Rprop", dict(lr=0.03, etas=(0.2, 1.3))), ("ASGD", dict(lr=0.05, t0=2, lambd=0.1))):
        histories = []
        for lib in (minigrad, torch):
            a = lib.nn.Parameter(lib.tensor([1.0, -2.0], dtype=lib.float64))
            b = lib.nn.Parameter(lib.tensor([0.5], dtype=lib.float64))
            opt = getattr(lib.optim, kind)([{"params": [a]}, {"params": [b], **settings}], lr=0.1)
            history = []
            for _ in range(6):
                opt.zero_grad()
                ((a * a * a).sum() + (b * b).sum() * (a.sum())).backward()
                opt.step()
                history.append([a.tolist(), b.tolist()])
            histories.append((history, opt.state_dict()["param_groups"]))
        assert histories[0] == histories[1], kind


# ---------------------------------------------------------------------- LBFGS


def rosenbrock(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f = np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    g = np.zeros_like(x)
    g[:-1] += -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
    g[1:] += 200 * (x[1:] - x[:-1] ** 2)
    return f.astype(x.dtype), g.astype(x.dtype)


def one_dimensional(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A non-quadratic function of one number: the line search interpolates for real."""
    return (x**4 - 3 * x**2 + x).sum().astype(x.dtype), (4 * x**3 - 6 * x + 1).astype(x.dtype)


def lbfgs_both(fn, x0: np.ndarray, steps: int, split: int, **kwargs):
    """LBFGS over two parameters (x0[:split] and x0[split:]) in each library; per step the loss
    returned, the parameters, the closure calls and the state's counters."""
    runs = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.tensor(part.copy())) for part in (x0[:split], x0[split:]) if part.size]
        opt = lib.optim.LBFGS(params, **kwargs)
        calls = [0]

        def closure(lib=lib, params=params, calls=calls):
            calls[0] += 1
            x = np.concatenate([arr(p).reshape(-1) for p in params])
            f, g = fn(x)
            offset = 0
            for p in params:
                p.grad = lib.tensor(g[offset : offset + p.numel()].reshape(tuple(p.shape)))
                offset += p.numel()
            return lib.tensor(f)

        history = []
        for _ in range(steps):
            loss = opt.step(closure)
            state = opt.state[params[0]]
            x = np.concatenate([arr(p).reshape(-1) for p in params])
            history.append((float(loss), x, calls[0], state["func_evals"], state["n_iter"]))
        runs.append((history, opt, params))
    return runs


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_on_one_number_matches_torch_to_the_bit(line_search_fn, dtype):
    x0 = np.array([2.5], dtype=dtype)
    (ours, opt_m, _), (theirs, opt_t, _) = lbfgs_both(
        one_dimensional, x0, 4, 1, lr=0.3, max_iter=6, line_search_fn=line_search_fn
    )
    for (loss_m, x_m, *counts_m), (loss_t, x_t, *counts_t) in zip(ours, theirs):
        assert loss_m == loss_t and counts_m == counts_t
        np.testing.assert_array_equal(x_m, x_t)
    sm, st = opt_m.state_dict()["state"][0], opt_t.state_dict()["state"][0]
    assert list(sm) == list(st)
    for key, value in st.items():
        if isinstance(value, torch.Tensor):
            assert str(sm[key].dtype) == str(value.dtype) and np.array_equal(arr(sm[key]), arr(value)), key
        elif isinstance(value, list):
            assert [None if v is None else v.tolist() for v in sm[key]] == [
                None if v is None else v.tolist() for v in value
            ], key
        else:
            assert type(sm[key]) is type(value) and sm[key] == value, key


@pytest.mark.parametrize(
    "kwargs",
    [{}, dict(line_search_fn="strong_wolfe"), dict(lr=0.5, history_size=3, max_iter=7, line_search_fn="strong_wolfe")],
    ids=["fixed-step", "strong-wolfe", "short-history"],
)
def test_lbfgs_on_rosenbrock_matches_torch_in_float64(kwargs):
    x0 = np.linspace(-1.2, 1.0, 6)
    (ours, opt_m, _), (theirs, opt_t, _) = lbfgs_both(rosenbrock, x0, 3, 2, **kwargs)
    for (loss_m, x_m, *counts_m), (loss_t, x_t, *counts_t) in zip(ours, theirs):
        assert counts_m == counts_t
        np.testing.assert_allclose(loss_m, loss_t, rtol=1e-8)
        np.testing.assert_allclose(x_m, x_t, rtol=1e-7, atol=1e-9)
    sm, st = opt_m.state_dict()["state"][0], opt_t.state_dict()["state"][0]
    assert list(sm) == list(st)
    for key, value in st.items():
        assert type(sm[key]).__name__ == type(value).__name__, key
        if isinstance(value, list):
            assert len(sm[key]) == len(value), key


def test_lbfgs_on_a_quadratic_converges_like_torch_in_float32():
    target = np.arange(1.0, 9.0, dtype=np.float32)

    def quadratic(x):
        r = (x - target) * np.arange(1.0, 9.0, dtype=np.float32)
        return (r * r).sum().astype(np.float32), (2 * r * np.arange(1.0, 9.0, dtype=np.float32)).astype(np.float32)

    (ours, _, _), (theirs, _, _) = lbfgs_both(quadratic, np.zeros(8, np.float32), 2, 3, line_search_fn="strong_wolfe")
    np.testing.assert_allclose(ours[-1][1], target, rtol=1e-5)
    np.testing.assert_allclose(ours[-1][1], theirs[-1][1], rtol=1e-5)
    assert ours[0][2:] == theirs[0][2:]


def test_lbfgs_stops_at_once_where_the_gradient_is_zero():
    (ours, opt_m, _), (theirs, opt_t, _) = lbfgs_both(rosenbrock, np.ones(4), 2, 2)
    assert ours[-1][2:] == theirs[-1][2:] == (2, 2, 0)
    assert list(opt_m.state_dict()["state"][0]) == ["func_evals", "n_iter"]


def test_lbfgs_state_dict_round_trip_continues_like_torch():
    x0 = np.array([2.5, -1.0, 0.5])
    runs = lbfgs_both(rosenbrock, x0, 1, 2, line_search_fn="strong_wolfe", max_iter=4)
    results = []
    for lib, (_, opt, params) in zip((minigrad, torch), runs):
        saved = copy.deepcopy(opt.state_dict())
        twins = [lib.nn.Parameter(p.detach().clone()) for p in params]
        new = lib.optim.LBFGS(twins, line_search_fn="strong_wolfe", max_iter=4)
        new.load_state_dict(saved)

        def closure(lib=lib, twins=twins):
            x = np.concatenate([arr(p).reshape(-1) for p in twins])
            f, g = rosenbrock(x)
            twins[0].grad, twins[1].grad = lib.tensor(g[:2]), lib.tensor(g[2:])
            return lib.tensor(f)

        new.step(closure)
        results.append((np.concatenate([arr(p) for p in twins]), new.state[twins[0]]["n_iter"]))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-9)
    assert results[0][1] == results[1][1] == 8


def test_lbfgs_errors_match_torch():
    same_error(lambda lib: lib.optim.LBFGS([lib.nn.Parameter(lib.ones(2))]).step(), "missing", "closure")

    def groups(lib):
        lib.optim.LBFGS([{"params": [lib.nn.Parameter(lib.ones(2))]}, {"params": [lib.nn.Parameter(lib.ones(1))]}])

    same_error(groups, "LBFGS doesn't support per-parameter options (parameter groups)")

    def bad_line_search(lib):
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.LBFGS([w], line_search_fn="armijo")

        def closure():
            opt.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss

        opt.step(closure)

    same_error(bad_line_search, "only 'strong_wolfe' is supported")


def test_lbfgs_closure_runs_with_grad_enabled_and_the_parameters_stay_leaves():
    w = minigrad.nn.Parameter(minigrad.tensor([3.0, -1.0], dtype=minigrad.float64))
    opt = minigrad.optim.LBFGS([w], line_search_fn="strong_wolfe")
    enabled = []

    def closure():
        enabled.append(minigrad.is_grad_enabled())
        opt.zero_grad()
        loss = ((w - 1.0) ** 2).sum()
        loss.backward()
        return loss

    with minigrad.no_grad():
        first = opt.step(closure)
    assert first.item() == 8.0 and all(enabled) and w.is_leaf and w.grad_fn is None
    np.testing.assert_allclose(w.tolist(), [1.0, 1.0])
