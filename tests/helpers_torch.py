"""Run the same computation in minigrad and in PyTorch and compare everything observable.

A computation is written once as ``fn(lib, *inputs)`` where ``lib`` is either ``minigrad`` or
``torch``, so a single lambda drives both libraries. Inputs are NumPy arrays, turned into
tensors of each library with identical values, on a device: ``compare(..., device="cuda")``
runs minigrad on the GPU and PyTorch on the GPU too when it has CUDA (else on the CPU).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

import minigrad

try:  # the case table and tensors() also serve test_gradcheck, which needs no PyTorch
    import torch
except ImportError:  # pragma: no cover - the differential tests skip themselves then
    torch = None

# (rtol, atol) per dtype; float32 allows for NumPy's and PyTorch's math libraries rounding apart.
TOL = {"float64": (1e-10, 1e-12), "float32": (2e-5, 1e-5), "float16": (2e-3, 1e-3)}


def rng_for(name: str) -> np.random.Generator:
    """A generator seeded from a test's name, so every case is reproducible on its own."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def make_array(rng: np.random.Generator, shape, kind: str = "any", dtype: str = "float64") -> np.ndarray:
    """Values for one input; ``kind`` keeps them inside an op's domain and away from kinks.

    any: standard normal; pos: in [0.5, 2]; away: |x| in [0.3, 1.5] (away from 0, for abs/relu);
    unit: in (-0.9, 0.9); ties: floats from {-1, 0, 1} (many equal values); int: small integers;
    bool: random mask.
    """
    shape = tuple(shape)
    if kind == "any":
        a = rng.standard_normal(shape)
    elif kind == "pos":
        a = rng.uniform(0.5, 2.0, shape)
    elif kind == "away":
        a = rng.uniform(0.3, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    elif kind == "unit":
        a = rng.uniform(-0.9, 0.9, shape)
    elif kind == "ties":
        a = rng.integers(-1, 2, shape)
    elif kind == "int":
        return rng.integers(-5, 6, shape).astype(dtype if dtype.startswith(("int", "uint")) else "int64")
    elif kind == "bool":
        return rng.random(shape) < 0.5
    else:
        raise ValueError(kind)
    return np.asarray(a, dtype=dtype)


def torch_device(device: str) -> str:
    """Where PyTorch runs the twin of a minigrad computation on ``device``: the same device,
    except that a PyTorch without CUDA checks minigrad-on-GPU from the CPU."""
    if device != "cpu" and torch is not None and torch.cuda.is_available():
        return device
    return "cpu"


def to_numpy(t) -> np.ndarray:
    """Values of a minigrad or torch tensor (or a Python number) as a NumPy array (from any device)."""
    if torch is not None and isinstance(t, torch.Tensor):
        if t._is_zerotensor():  # torch's symbolic zeros (e.g. the second derivative of abs)
            return np.zeros(tuple(t.shape), dtype=str(t.dtype).split(".")[-1])
        return t.detach().cpu().numpy()
    if isinstance(t, minigrad.Tensor):
        return np.asarray(t.detach().cpu().numpy())
    return np.asarray(t)


def assert_close(m, t, what: str = "value", tol: tuple[float, float] | None = None, device: str | None = None) -> None:
    """Same shape, dtype name and values (NaNs in the same places); ``tol`` is (rtol, atol).

    With ``device``, minigrad's tensor must also live there (``"cpu"`` or ``"cuda"``)."""
    assert isinstance(m, minigrad.Tensor), f"{what}: minigrad gave {type(m).__name__}"
    assert isinstance(t, torch.Tensor)
    if device is not None:
        assert m.device.type == device, f"{what}: on {m.device}, expected {device}"
    assert tuple(m.shape) == tuple(t.shape), f"{what}: shape {tuple(m.shape)} != torch {tuple(t.shape)}"
    assert str(m.dtype) == str(t.dtype), f"{what}: dtype {m.dtype} != torch {t.dtype}"
    a, b = to_numpy(m), to_numpy(t)
    if t.dtype.is_floating_point:
        rtol, atol = tol or TOL[str(t.dtype).split(".")[-1]]
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(a, b, err_msg=what)


def grad_fn_name(t) -> str | None:
    """``grad_fn.name()`` in minigrad, ``type(grad_fn).__name__`` in torch.

    (torch's own ``name()`` says ``torch::autograd::CopySlices`` for the C++-only nodes.)
    """
    if t.grad_fn is None:
        return None
    return type(t.grad_fn).__name__ if isinstance(t, torch.Tensor) else t.grad_fn.name()


@dataclass
class Case:
    """One operation to compare: ``fn(lib, *inputs)`` on inputs of the given shapes and kinds.

    ``grad`` lists which inputs require grad (default: every floating input). ``smooth`` says
    whether the inputs stay away from non-differentiable points (so finite differences apply).
    ``name_ok`` is False where minigrad's node has a different (documented) name than PyTorch's.
    """

    id: str
    fn: Callable
    inputs: Sequence[tuple]  # (shape, kind) or (shape, kind, dtype)
    grad: Sequence[bool] | None = None
    smooth: bool = True
    second: bool = True
    name_ok: bool = True
    extra: dict = field(default_factory=dict)

    def arrays(self, dtype: str = "float64") -> list[np.ndarray]:
        rng = rng_for(self.id)
        out = []
        for spec in self.inputs:
            shape, kind = spec[0], spec[1]
            d = spec[2] if len(spec) > 2 else dtype
            out.append(make_array(rng, shape, kind, d))
        return out

    def requires(self, arrays) -> list[bool]:
        if self.grad is not None:
            return list(self.grad)
        return [a.dtype.kind == "f" for a in arrays]


def tensors(arrays, requires, lib, device: str | None = None):
    """Leaf tensors of ``lib`` holding copies of ``arrays``, made on ``device`` (leaves there;
    None: the library's default device)."""
    if lib is not minigrad and device is not None:
        device = torch_device(device)
    out = []
    for a, r in zip(arrays, requires):
        t = lib.tensor(a.copy(), device=device)
        if r:
            t.requires_grad_(True)
        out.append(t)
    return out


def _outputs(value) -> list:
    if isinstance(value, tuple | list):
        return [v for v in value if isinstance(v, minigrad.Tensor | torch.Tensor)]
    return [value]


def _materialize(grads, like):
    """Treat an unused input's ``None`` gradient as zeros (torch returns zeros in some cases)."""
    out = []
    for g, x in zip(grads, like):
        out.append(np.zeros(tuple(x.shape)) if g is None else g if isinstance(g, np.ndarray) else to_numpy(g))
    return out


def compare(
    case: Case,
    dtype: str = "float64",
    second: bool | None = None,
    tol: tuple[float, float] | None = None,
    device: str = "cpu",
) -> None:
    """Forward values, dtype, shape, grad_fn name, first and (optionally) second derivatives.

    ``tol`` (rtol, atol) replaces the dtype's default tolerance (for long chains of operations).
    Every input is made on ``device`` and every output and gradient must stay there.
    """
    arrays = case.arrays(dtype)
    requires = case.requires(arrays)
    tdev = torch_device(device)
    m_in = tensors(arrays, requires, minigrad, device)
    t_in = tensors(arrays, requires, torch, device)
    m_out = _outputs(case.fn(minigrad, *m_in))
    t_out = _outputs(case.fn(torch, *t_in))
    assert len(m_out) == len(t_out)
    for k, (m, t) in enumerate(zip(m_out, t_out)):
        assert_close(m, t, what=f"{case.id} output {k}", tol=tol, device=device)
        assert m.requires_grad == t.requires_grad, f"{case.id}: requires_grad differs"
        if case.name_ok:
            assert grad_fn_name(m) == grad_fn_name(t), f"{case.id}: {grad_fn_name(m)} != torch {grad_fn_name(t)}"
    # Which inputs to differentiate: those requiring grad, for the outputs that carry a graph.
    diff_out = [i for i, t in enumerate(t_out) if t.requires_grad]
    if not diff_out:
        return
    m_x = [x for x, r in zip(m_in, requires) if r]
    t_x = [x for x, r in zip(t_in, requires) if r]
    rng = rng_for(case.id + "/upstream")
    ups = [make_array(rng, t_out[i].shape, "any", str(t_out[i].dtype).split(".")[-1]) for i in diff_out]
    m_g = [minigrad.tensor(u, requires_grad=True, device=device) for u in ups]
    t_g = [torch.tensor(u, requires_grad=True, device=tdev) for u in ups]
    want_second = case.second if second is None else second
    m_grads = minigrad.autograd.grad(
        [m_out[i] for i in diff_out], m_x, m_g, create_graph=want_second, allow_unused=True
    )
    t_grads = torch.autograd.grad([t_out[i] for i in diff_out], t_x, t_g, create_graph=want_second, allow_unused=True)
    for k, (mg, tg) in enumerate(zip(m_grads, t_grads)):
        if tg is None:
            assert mg is None or not to_numpy(mg).any(), f"{case.id}: grad {k} should be None/zero"
            continue
        assert mg is not None, f"{case.id}: minigrad gave no gradient for input {k}"
        assert_close(mg, tg, what=f"{case.id} grad {k}", tol=tol, device=device)
    if not want_second:
        return
    # Second order: differentiate sum_k <grad_k, w_k> w.r.t. the inputs and the upstream grads.
    # A first derivative that carries no graph (a constant, like the zero gradient of pow(x, 0))
    # contributes nothing, so each library keeps only its own differentiable terms.
    ws = [make_array(rng, x.shape, "any", str(x.dtype).split(".")[-1]) for x in t_x]
    m_terms = [
        (g * minigrad.tensor(w, device=device)).sum() for g, w in zip(m_grads, ws) if g is not None and g.requires_grad
    ]
    t_terms = [
        (g * torch.tensor(w, device=tdev)).sum() for g, w in zip(t_grads, ws) if g is not None and g.requires_grad
    ]
    if not m_terms and not t_terms:
        return
    zeros = [np.zeros(tuple(x.shape)) for x in t_x + t_g]
    m_gg = minigrad.autograd.grad(sum(m_terms[1:], m_terms[0]), m_x + m_g, allow_unused=True) if m_terms else zeros
    t_gg = torch.autograd.grad(sum(t_terms[1:], t_terms[0]), t_x + t_g, allow_unused=True) if t_terms else zeros
    for k, g in enumerate(m_gg):
        assert not isinstance(g, minigrad.Tensor) or g.device.type == device, (
            f"{case.id}: second derivative {k} on {g.device}"
        )
    for k, (a, b) in enumerate(zip(_materialize(m_gg, t_x + t_g), _materialize(t_gg, t_x + t_g))):
        rtol, atol = tol or TOL[dtype]
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"{case.id} second derivative {k}")


# ----------------------------------------------------------------------------------------------
# The case table, shared by the differential tests and the gradcheck tests.
# ----------------------------------------------------------------------------------------------

CASES: list[Case] = []


def case(id: str, fn: Callable, *inputs, **options) -> None:  # noqa: A002 - pytest's word
    """Add a case; each input is ``(shape, kind)`` or ``(shape, kind, dtype)``."""
    assert all(c.id != id for c in CASES), f"duplicate case id {id}"
    CASES.append(Case(id, fn, inputs, **options))


def _inplace(method: str, *args, **kwargs):
    """``z = x * 1`` (a non-leaf), then ``z.<method>(...)`` in place; returns ``z``."""

    def fn(lib, x, *others):
        z = x * 1
        getattr(z, method)(*(others + args), **kwargs)
        return z

    return fn


def _setitem(key_fn, value_from_input: bool = True, value=None):
    def fn(lib, x, *others):
        z = x * 1
        z[key_fn(lib, x)] = others[0] if value_from_input else value
        return z

    return fn


def _augmented(op: str):
    def fn(lib, x, y):
        z = x * 1
        if op == "+":
            z += y
        elif op == "-":
            z -= y
        elif op == "*":
            z *= y
        else:
            z /= y
        return z

    return fn


A, B, C = ((3, 4), "any"), ((3, 4), "any"), ((2, 3, 4), "any")
BROADCAST_PAIRS = {
    "same": ((3, 4), (3, 4)),
    "col_row": ((3, 1), (1, 4)),
    "3d_1d": ((2, 3, 4), (4,)),
    "0d_1d": ((), (3,)),
    "2d_0d": ((3, 4), ()),
    "1d_3d": ((4,), (2, 1, 4)),
}

# Binary arithmetic: operator, function and method, with broadcasting.
_BINARY = {
    "add": (lambda lib, x, y: x + y, lambda lib, x, y: lib.add(x, y), lambda lib, x, y: x.add(y), "any"),
    "sub": (lambda lib, x, y: x - y, lambda lib, x, y: lib.sub(x, y), lambda lib, x, y: x.sub(y), "any"),
    "mul": (lambda lib, x, y: x * y, lambda lib, x, y: lib.mul(x, y), lambda lib, x, y: x.mul(y), "any"),
    "div": (lambda lib, x, y: x / y, lambda lib, x, y: lib.div(x, y), lambda lib, x, y: x.div(y), "away"),
    "pow": (lambda lib, x, y: x**y, lambda lib, x, y: lib.pow(x, y), lambda lib, x, y: x.pow(y), "any"),
}
for _name, (_op, _fun, _meth, _kind) in _BINARY.items():
    _xkind = "pos" if _name == "pow" else "any"
    for _shapes_id, (_sa, _sb) in BROADCAST_PAIRS.items():
        case(f"{_name}_op_{_shapes_id}", _op, (_sa, _xkind), (_sb, _kind))
    case(f"{_name}_fn", _fun, ((3, 1), _xkind), ((4,), _kind))
    case(f"{_name}_method", _meth, ((3, 4), _xkind), ((1, 4), _kind))
    case(f"{_name}_one_input_needs_grad", _op, ((3, 4), _xkind), ((4,), _kind), grad=[True, False])
    case(f"{_name}_other_input_needs_grad", _op, ((3, 4), _xkind), ((4,), _kind), grad=[False, True])

# Python scalars on either side (reflected operators).
_SCALAR = {
    "add_scalar": (lambda lib, x: x + 2.5, "any"),
    "radd_scalar": (lambda lib, x: 2.5 + x, "any"),
    "add_int": (lambda lib, x: x + 2, "any"),
    "sub_scalar": (lambda lib, x: x - 2.5, "any"),
    "rsub_scalar": (lambda lib, x: 2.5 - x, "any"),
    "rsub_int": (lambda lib, x: 3 - x, "any"),
    "mul_scalar": (lambda lib, x: x * 3.5, "any"),
    "rmul_int": (lambda lib, x: 3 * x, "any"),
    "div_scalar": (lambda lib, x: x / 4.0, "any"),
    "rdiv_scalar": (lambda lib, x: 2.0 / x, "away"),
    "rdiv_int": (lambda lib, x: 2 / x, "away"),
    "add_alpha": (lambda lib, x: lib.add(x, x * 2, alpha=3), "any"),
    "sub_alpha": (lambda lib, x: x.sub(x * x, alpha=0.5), "any"),
    "sub_fn_scalar_left": (lambda lib, x: lib.sub(2.0, x), "any"),
    "pow_2": (lambda lib, x: x**2, "any"),
    "pow_3_int": (lambda lib, x: x**3, "any"),
    "pow_half": (lambda lib, x: x**0.5, "pos"),
    "pow_neg": (lambda lib, x: x**-1.5, "pos"),
    "pow_zero": (lambda lib, x: x**0, "any"),
    "pow_one": (lambda lib, x: x**1, "any"),
    "pow_fn_scalar": (lambda lib, x: lib.pow(x, 2), "any"),
    "pow_method_scalar": (lambda lib, x: x.pow(3.0), "any"),
    "rpow_scalar": (lambda lib, x: 2.0**x, "any"),
    "rpow_int": (lambda lib, x: 3**x, "any"),
    "rpow_fn": (lambda lib, x: lib.pow(1.5, x), "any"),
    "pow_tensor_0d_exponent": (lambda lib, x: x ** lib.tensor(2.0, dtype=x.dtype), "pos"),
}
for _name, (_fn, _kind) in _SCALAR.items():
    case(_name, _fn, ((3, 4), _kind))
case("add_alpha_two_inputs", lambda lib, x, y: lib.add(x, y, alpha=-2), ((3, 4), "any"), ((4,), "any"))
case("sub_alpha_method_two_inputs", lambda lib, x, y: x.sub(y, alpha=2), ((3, 4), "any"), ((3, 1), "any"))
case(
    "pow_tensor_tensor_neg_base_int_exp",
    lambda lib, x, y: x ** (y * 0 + 2),
    ((3, 4), "any"),
    ((3, 4), "any"),
    grad=[True, False],
)

# Unary functions, as function and method, and on 0-d tensors.
_UNARY = dict(
    neg="any",
    abs="away",
    exp="any",
    log="pos",
    sqrt="pos",
    sin="any",
    cos="any",
    tanh="any",
    sigmoid="any",
    relu="away",
)
for _name, _kind in _UNARY.items():
    case(f"{_name}_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x), ((3, 4), _kind))
    case(f"{_name}_method", lambda lib, x, _n=_name: getattr(x, _n)(), ((2, 3, 2), _kind))
    case(f"{_name}_0d", lambda lib, x, _n=_name: getattr(x, _n)(), ((), _kind))
case("neg_operator", lambda lib, x: -x, A)
case("abs_builtin", lambda lib, x: abs(x), ((3, 4), "away"))
case("sigmoid_large_values", lambda lib, x: (x * 30).sigmoid(), A)
case("tanh_large_values", lambda lib, x: (x * 30).tanh(), A)

# clamp: scalar bounds, tensor bounds.
case("clamp_min", lambda lib, x: x.clamp(min=-0.5), A)
case("clamp_max", lambda lib, x: x.clamp(max=0.5), A)
case("clamp_both", lambda lib, x: lib.clamp(x, -0.5, 0.5), A)
case("clamp_min_int", lambda lib, x: lib.clamp(x, min=0), ((3, 4), "away"))
case("clip_both", lambda lib, x: x.clip(-0.5, 0.5), A)
case("clamp_tensor_both", lambda lib, x, lo, hi: lib.clamp(x, lo - 0.5, hi + 0.5), A, ((4,), "any"), ((3, 1), "any"))
case("clamp_tensor_min", lambda lib, x, lo: x.clamp(min=lo), A, ((4,), "any"))
case("clamp_tensor_max", lambda lib, x, hi: x.clamp(max=hi), A, ((3, 4), "any"))
case(
    "clamp_tensor_ties",
    lambda lib, x, lo, hi: lib.clamp(x, lo, hi),
    ((3, 4), "ties"),
    ((3, 4), "ties"),
    ((3, 4), "ties"),
    smooth=False,
)
case("clamp_tensor_broadcast_out", lambda lib, x, lo: lib.clamp(x, min=lo), ((4,), "any"), ((3, 4), "any"))
case("clamp_scalar_ties", lambda lib, x: x.clamp(-1.0, 1.0), ((3, 4), "ties"), smooth=False)

# maximum / minimum (ties split the gradient in half in both libraries).
for _name in ("maximum", "minimum"):
    case(f"{_name}_fn", lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y), ((3, 1), "any"), ((1, 4), "any"))
    case(f"{_name}_method", lambda lib, x, y, _n=_name: getattr(x, _n)(y), A, ((4,), "any"))
    case(
        f"{_name}_ties",
        lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
        ((3, 4), "ties"),
        ((3, 4), "ties"),
        smooth=False,
    )
    case(f"{_name}_self_tie", lambda lib, x, _n=_name: getattr(lib, _n)(x, x), A, smooth=False)
case("max_binary", lambda lib, x, y: lib.max(x, y), A, ((4,), "any"))
case("min_binary", lambda lib, x, y: lib.min(x, y), A, ((3, 1), "any"))

# where
case("where_tensors", lambda lib, c, x, y: lib.where(c, x, y), ((3, 1), "bool"), ((1, 4), "any"), ((3, 4), "any"))
case("where_from_comparison", lambda lib, x, y: lib.where(x > y, x, y), A, ((4,), "any"))
case("where_scalar_other", lambda lib, x: lib.where(x > 0, x, 0.0), A)
case("where_scalar_input", lambda lib, c, y: lib.where(c, 1.5, y), ((3, 4), "bool"), ((4,), "any"))
case("where_method", lambda lib, c, x, y: x.where(c, y), ((3, 4), "bool"), A, ((3, 1), "any"))

# Reductions
for _name in ("sum", "mean"):
    case(f"{_name}_all", lambda lib, x, _n=_name: getattr(x, _n)(), C)
    case(f"{_name}_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x), C)
    case(f"{_name}_dim", lambda lib, x, _n=_name: getattr(x, _n)(1), C)
    case(f"{_name}_neg_dim", lambda lib, x, _n=_name: getattr(x, _n)(-1), C)
    case(f"{_name}_tuple_dim", lambda lib, x, _n=_name: getattr(x, _n)((0, 2)), C)
    case(f"{_name}_keepdim", lambda lib, x, _n=_name: getattr(x, _n)(dim=1, keepdim=True), C)
    case(f"{_name}_tuple_keepdim", lambda lib, x, _n=_name: getattr(lib, _n)(x, (0, -1), keepdim=True), C)
    case(f"{_name}_0d", lambda lib, x, _n=_name: getattr(x, _n)(), ((), "any"))
    case(f"{_name}_dim_fn_kw", lambda lib, x, _n=_name: getattr(lib, _n)(x, dim=0), A)
for _name in ("max", "min"):
    case(f"{_name}_all", lambda lib, x, _n=_name: getattr(x, _n)(), C)
    case(f"{_name}_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x), A)
    case(f"{_name}_dim", lambda lib, x, _n=_name: getattr(x, _n)(1), C)
    case(f"{_name}_dim_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x, 0), A)
    case(f"{_name}_dim_keepdim", lambda lib, x, _n=_name: getattr(x, _n)(dim=-1, keepdim=True), C)
    case(f"{_name}_dim_values", lambda lib, x, _n=_name: getattr(x, _n)(1).values, A)
    case(f"{_name}_all_ties", lambda lib, x, _n=_name: getattr(x, _n)(), ((3, 4), "ties"), smooth=False)
    case(f"{_name}_all_constant", lambda lib, x, _n=_name: getattr(x * 0 + 1, _n)(), A, smooth=False)
    case(f"{_name}_dim_ties", lambda lib, x, _n=_name: getattr(x, _n)(1), ((4, 5), "ties"), smooth=False)
    case(
        f"{_name}_dim_ties_keepdim",
        lambda lib, x, _n=_name: getattr(x, _n)(0, keepdim=True),
        ((4, 5), "ties"),
        smooth=False,
    )
case("argmax_dim", lambda lib, x: x.argmax(1), A)
case("argmin_all", lambda lib, x: x.argmin(), A)

# norm
case("norm_default", lambda lib, x: x.norm(), A)
case("norm_fn", lambda lib, x: lib.norm(x), C)
case("norm_p1", lambda lib, x: x.norm(1), ((3, 4), "away"))
case("norm_inf", lambda lib, x: x.norm(float("inf")), A)
case("norm_p3", lambda lib, x: x.norm(3), ((3, 4), "away"))
case("norm_dim", lambda lib, x: x.norm(dim=1), A)
case("norm_dim_keepdim", lambda lib, x: x.norm(dim=-1, keepdim=True), C)
case("norm_tuple_dim", lambda lib, x: lib.norm(x, p=2, dim=(0, 2)), C)
case("norm_p1_dim", lambda lib, x: x.norm(p=1, dim=0), ((3, 4), "away"))
case("norm_inf_dim", lambda lib, x: x.norm(p=float("inf"), dim=1), A)
case("norm_vector", lambda lib, x: x.norm(), ((5,), "any"))

# Matrix products
_MATMUL = {
    "1d_1d": ((4,), (4,)),
    "2d_1d": ((3, 4), (4,)),
    "1d_2d": ((4,), (4, 3)),
    "2d_2d": ((3, 4), (4, 2)),
    "3d_3d": ((2, 3, 4), (2, 4, 5)),
    "3d_2d": ((2, 3, 4), (4, 5)),
    "2d_3d": ((3, 4), (2, 4, 5)),
    "4d_3d_broadcast": ((2, 1, 3, 4), (3, 4, 2)),
    "3d_1d": ((2, 3, 4), (4,)),
    "1d_3d": ((4,), (2, 4, 3)),
}
# PyTorch names these after its internal reshapes (SqueezeBackward4, CloneBackward0); minigrad
# squeezes with SqueezeBackward1 and records 2d @ 3d as one UnsafeViewBackward0.
_MATMUL_NAME_DIFFERS = {"1d_2d", "3d_1d", "1d_3d", "2d_3d"}
for _shapes_id, (_sa, _sb) in _MATMUL.items():
    _ok = _shapes_id not in _MATMUL_NAME_DIFFERS
    case(f"matmul_op_{_shapes_id}", lambda lib, x, y: x @ y, (_sa, "any"), (_sb, "any"), name_ok=_ok)
    case(f"matmul_fn_{_shapes_id}", lambda lib, x, y: lib.matmul(x, y), (_sa, "any"), (_sb, "any"), name_ok=_ok)
case("matmul_method", lambda lib, x, y: x.matmul(y), ((2, 3, 4), "any"), ((4, 2), "any"))
case("matmul_one_side", lambda lib, x, y: x @ y, ((2, 3, 4), "any"), ((4, 2), "any"), grad=[False, True])
case("mm_fn", lambda lib, x, y: lib.mm(x, y), ((3, 4), "any"), ((4, 2), "any"))
case("mm_method", lambda lib, x, y: x.mm(y), ((3, 4), "any"), ((4, 2), "any"))
case("mv_fn", lambda lib, x, y: lib.mv(x, y), ((3, 4), "any"), ((4,), "any"))
case("mv_method", lambda lib, x, y: x.mv(y), ((3, 4), "any"), ((4,), "any"))
case("dot_fn", lambda lib, x, y: lib.dot(x, y), ((5,), "any"), ((5,), "any"))
case("dot_method", lambda lib, x, y: x.dot(y), ((5,), "any"), ((5,), "any"))
case("matmul_transposed", lambda lib, x, y: x.t() @ y.transpose(0, 1), ((4, 3), "any"), ((2, 4), "any"))

# Shape operations
case("reshape_method", lambda lib, x: x.reshape(4, 3), A)
case("reshape_minus_one", lambda lib, x: x.reshape(-1), A)
case("reshape_fn_tuple", lambda lib, x: lib.reshape(x, (2, -1, 2)), A)
case("reshape_non_contiguous", lambda lib, x: x.t().reshape(12), A)
case("view", lambda lib, x: x.view(2, 6), A)
case("view_minus_one", lambda lib, x: x.view(-1, 2), C)
case("t_method", lambda lib, x: x.t(), A)
case("t_fn", lambda lib, x: lib.t(x), A)
case("t_1d", lambda lib, x: x.t(), ((4,), "any"))
case("transpose_method", lambda lib, x: x.transpose(0, 1), A)
case("transpose_fn_neg", lambda lib, x: lib.transpose(x, 0, -1), C)
case("permute_method", lambda lib, x: x.permute(2, 0, 1), C)
case("permute_fn_tuple", lambda lib, x: lib.permute(x, (1, 2, 0)), C)
case("permute_neg", lambda lib, x: x.permute(-1, 0, 1), C)
case("squeeze_all", lambda lib, x: x.squeeze(), ((3, 1, 4, 1), "any"))
case("squeeze_dim", lambda lib, x: x.squeeze(1), ((3, 1, 4, 1), "any"))
case("squeeze_neg_dim", lambda lib, x: x.squeeze(-1), ((3, 1, 4, 1), "any"))
case("squeeze_fn", lambda lib, x: lib.squeeze(x, 1), ((3, 1, 4), "any"))
case("squeeze_not_one", lambda lib, x: x.squeeze(0), ((3, 1, 4), "any"))
case("squeeze_tuple", lambda lib, x: x.squeeze((1, 3)), ((3, 1, 4, 1), "any"))
case("squeeze_tuple_fn_not_one", lambda lib, x: lib.squeeze(x, (0, -1)), ((3, 1, 4, 1), "any"))
case("unsqueeze_0", lambda lib, x: x.unsqueeze(0), A)
case("unsqueeze_neg", lambda lib, x: x.unsqueeze(-1), A)
case("unsqueeze_fn", lambda lib, x: lib.unsqueeze(x, 1), A)
case("expand", lambda lib, x: x.expand(2, 3, 4), ((3, 1), "any"))
case("expand_minus_one", lambda lib, x: x.expand(-1, 4), ((3, 1), "any"))
case("expand_fn_tuple", lambda lib, x: lib.Tensor.expand(x, (2, 4)), ((4,), "any"))
case("expand_as", lambda lib, x, y: x.expand_as(y), ((1, 4), "any"), A)
case("flatten_all", lambda lib, x: x.flatten(), C)
case("flatten_fn_start", lambda lib, x: lib.flatten(x, 1), C)
case("flatten_range", lambda lib, x: x.flatten(0, 1), C)
case("T_2d", lambda lib, x: x.T, A)
case("mT_3d", lambda lib, x: x.mT, C)
case("view_as", lambda lib, x, y: x.view_as(y), A, ((4, 3), "any"))

# Indexing
_INDEX = {
    "int": lambda lib, x: x[1],
    "neg_int": lambda lib, x: x[-1],
    "two_ints": lambda lib, x: x[1, 2],
    "two_neg_ints": lambda lib, x: x[-1, -2],
    "slice": lambda lib, x: x[1:3],
    "slice_step": lambda lib, x: x[::2],
    "slice_both_steps": lambda lib, x: x[1::2, ::3],
    "slice_negative_bounds": lambda lib, x: x[-3:-1, :-2],
    "none": lambda lib, x: x[None],
    "ellipsis_int": lambda lib, x: x[..., 1],
    "ellipsis_only": lambda lib, x: x[...],
    "mixed_basic": lambda lib, x: x[:, None, 1:],
    "list": lambda lib, x: x[[0, 2]],
    "list_repeated": lambda lib, x: x[[0, 0, 3, 0]],
    "int_tensor": lambda lib, x: x[lib.tensor([2, 0])],
    "int_tensor_2d": lambda lib, x: x[lib.tensor([[1, 2], [3, 3]])],
    "bool_mask": lambda lib, x: x[x > 0],
    "row_mask": lambda lib, x: x[lib.tensor([True, False, True, True])],
    "int_and_list": lambda lib, x: x[1, [0, 2]],
    "two_lists": lambda lib, x: x[[0, 1, 1], [2, 3, 2]],
    "slice_and_tensor": lambda lib, x: x[:, lib.tensor([1, 1, 4])],
    "tensor_0d_index": lambda lib, x: x[lib.tensor(2)],
}
for _name, _fn in _INDEX.items():
    case(f"index_{_name}", _fn, ((4, 5), "any"))
case("index_3d_ellipsis", lambda lib, x: x[0, ..., 1], ((2, 3, 4), "any"))
case("index_3d_mixed", lambda lib, x: x[:, 1:, None, ::2], ((2, 3, 4), "any"))
case("index_3d_list_middle", lambda lib, x: x[:, [2, 0]], ((2, 3, 4), "any"))
case("index_3d_mask_2d", lambda lib, x: x[x.sum(-1) > 0], ((3, 2, 4), "any"))
case("index_chain", lambda lib, x: x[1:][0][::2], ((4, 5), "any"))

# cat / stack
case("cat_dim0", lambda lib, x, y: lib.cat([x, y]), ((2, 3), "any"), ((4, 3), "any"))
case("cat_dim1", lambda lib, x, y: lib.cat((x, y), 1), ((2, 3), "any"), ((2, 1), "any"))
case(
    "cat_neg_dim_three",
    lambda lib, x, y, z: lib.cat([x, y, z], dim=-1),
    ((2, 3), "any"),
    ((2, 2), "any"),
    ((2, 1), "any"),
)
case(
    "cat_one_input_needs_grad", lambda lib, x, y: lib.cat([x, y]), ((2, 3), "any"), ((1, 3), "any"), grad=[False, True]
)
case("stack_dim0", lambda lib, x, y: lib.stack([x, y]), A, B)
case("stack_dim1", lambda lib, x, y: lib.stack((x, y), 1), A, B)
case("stack_neg_dim", lambda lib, x, y, z: lib.stack([x, y, z], dim=-1), A, B, A)
case("stack_neg_first", lambda lib, x, y: lib.stack([x, y], dim=-3), A, B)

# softmax / log_softmax
for _name in ("softmax", "log_softmax"):
    case(f"{_name}_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x, 1), A)
    case(f"{_name}_method_neg", lambda lib, x, _n=_name: getattr(x, _n)(-1), C)
    case(f"{_name}_dim0", lambda lib, x, _n=_name: getattr(x, _n)(dim=0), A)
    case(f"{_name}_large", lambda lib, x, _n=_name: getattr(x * 100, _n)(1), A)

# Comparisons (bool results, never part of the graph)
_CMP = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}
for _name, _dunder in _CMP.items():
    case(f"cmp_{_name}_op", lambda lib, x, y, _d=_dunder: getattr(x, _d)(y), ((3, 4), "ties"), ((3, 4), "ties"))
    case(f"cmp_{_name}_broadcast", lambda lib, x, y, _d=_dunder: getattr(x, _d)(y), ((3, 1), "ties"), ((4,), "ties"))
    case(f"cmp_{_name}_scalar", lambda lib, x, _d=_dunder: getattr(x, _d)(0.0), ((3, 4), "ties"))
    case(f"cmp_{_name}_fn", lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y), ((3, 4), "ties"), ((3, 4), "ties"))
    case(f"cmp_{_name}_method", lambda lib, x, _n=_name: getattr(x, _n)(1), ((3, 4), "ties"))
    case(f"cmp_{_name}_int", lambda lib, x, y, _d=_dunder: getattr(x, _d)(y), ((3, 4), "int"), ((4,), "int"))
case("cmp_reflected_scalar", lambda lib, x: 0.5 < x, A)
case("cmp_int_float", lambda lib, x, y: x <= y, ((3, 4), "int"), ((3, 4), "any"))

# clone and conversions (ToCopyBackward0)
case("clone_method", lambda lib, x: x.clone(), A)
case("clone_fn", lambda lib, x: lib.clone(x), A)
case("to_float32", lambda lib, x: x.to(lib.float32) * 2, A, smooth=False)
case("to_same_dtype", lambda lib, x: x.to(lib.float64) * 2, A)
case("to_dtype_kw", lambda lib, x: x.to(dtype=lib.float32), A, smooth=False)
case("float_method", lambda lib, x: x.float(), A, smooth=False)
case("double_of_float", lambda lib, x: x.float().double(), A, smooth=False)
case("half_method", lambda lib, x: x.half() * 2, A, smooth=False)
case("double_same", lambda lib, x: x.double() + 1, A)
case("int_to_float", lambda lib, x: x.to(lib.float64), ((3, 4), "int"))

# In-place operations on non-leaves: the gradient flows through, grad_fn is the op's node.
case("inplace_add", _inplace("add_"), A, ((4,), "any"))
case("inplace_add_alpha", _inplace("add_", alpha=2.0), A, ((3, 1), "any"))
case("inplace_add_scalar", _inplace("add_", 2.0), A)
case("inplace_sub", _inplace("sub_"), A, ((4,), "any"))
case("inplace_mul", _inplace("mul_"), A, ((4,), "any"))
case("inplace_mul_scalar", _inplace("mul_", 3.0), A)
case("inplace_div", _inplace("div_"), A, ((3, 1), "away"))
case("inplace_div_scalar", _inplace("div_", 4.0), A)
case("inplace_zero", lambda lib, x: _inplace("zero_")(lib, x) + x, A)
case("inplace_fill", lambda lib, x: _inplace("fill_", 2.0)(lib, x) * x, A)
case("inplace_zero_alone", _inplace("zero_"), A)
case("inplace_fill_alone", _inplace("fill_", -1.5), A)
case("inplace_fill_tensor", _inplace("fill_"), A, ((), "any"))
case("inplace_fill_tensor_then_use", lambda lib, x, v: _inplace("fill_")(lib, x, v) * x, A, ((), "any"))
case("inplace_clamp", _inplace("clamp_", -0.5, 0.5), A)
case("inplace_clamp_min", _inplace("clamp_", min=0.0), ((3, 4), "away"))
case("inplace_copy", _inplace("copy_"), A, ((4,), "any"))
case("inplace_copy_same_shape", _inplace("copy_"), A, B)
case("inplace_pow", _inplace("pow_", 2), A)
case("inplace_exp", _inplace("exp_"), A)
case("inplace_relu", _inplace("relu_"), ((3, 4), "away"))
case("inplace_neg", _inplace("neg_"), A)
case("inplace_sigmoid", _inplace("sigmoid_"), A)
case("inplace_tanh", _inplace("tanh_"), A)
case("inplace_exp_then_use", lambda lib, x: _inplace("exp_")(lib, x) * x, A)
case("inplace_twice", lambda lib, x, y: _inplace("mul_")(lib, x, y).add_(y), A, B)
for _op in "+-*/":
    case(f"inplace_augmented_{_op}", _augmented(_op), A, ((4,), "away" if _op == "/" else "any"))
case("inplace_augmented_scalar", lambda lib, x: _augmented("*")(lib, x, 2.5), A)
case("setitem_row", _setitem(lambda lib, x: 0), A, ((4,), "any"))
case("setitem_column_scalar", _setitem(lambda lib, x: (slice(None), 1), False, 0.0), A)
case("setitem_slice_block", _setitem(lambda lib, x: (slice(1, None), slice(None, None, 2))), A, ((2, 2), "any"))
case("setitem_broadcast", _setitem(lambda lib, x: slice(0, 2)), A, ((4,), "any"))
case("setitem_mask_scalar", _setitem(lambda lib, x: x > 0, False, 1.0), A)
case("setitem_list", _setitem(lambda lib, x: [0, 2]), A, ((2, 4), "any"))
case("setitem_int_tensor", _setitem(lambda lib, x: lib.tensor([2, 1])), A, ((4,), "any"))
case("setitem_value_no_grad", _setitem(lambda lib, x: 1), A, ((4,), "any"), grad=[True, False])
case("setitem_only_value_grad", _setitem(lambda lib, x: 1), A, ((4,), "any"), grad=[False, True])

# Non-differentiable points: both libraries must pick the same subgradient (or inf/nan). Second
# derivatives are skipped where PyTorch's are nan at the singular point (0 * inf inside its
# masked formulas) and minigrad's are 0: neither is meaningful there.
case("abs_at_zero", lambda lib, x: x.abs(), ((3, 4), "ties"), smooth=False)
case("relu_at_zero", lambda lib, x: x.relu(), ((3, 4), "ties"), smooth=False)
case("clamp_at_bounds", lambda lib, x: x.clamp(min=0.0), ((3, 4), "ties"), smooth=False)
case("sqrt_at_zero", lambda lib, x: (x * 0).sqrt(), A, smooth=False)
case("log_at_zero", lambda lib, x: (x * 0).log(), A, smooth=False)
case("pow_zero_base_tensor_exponent", lambda lib, x, y: (x * 0) ** y, A, ((4,), "pos"), smooth=False, second=False)
case("pow_zero_base_half", lambda lib, x: (x * 0) ** 0.5, A, smooth=False)
case("pow_zero_base_square", lambda lib, x: (x * 0) ** 2, A, smooth=False)
case("rpow_zero_base", lambda lib, x: 0.0**x, ((3, 4), "pos"), smooth=False, second=False)
case("norm_of_zeros", lambda lib, x: (x * 0).norm(), A, smooth=False, second=False)
case("norm_of_zeros_dim", lambda lib, x: (x * 0).norm(dim=1), A, smooth=False, second=False)
case("norm_inf_ties", lambda lib, x: x.norm(float("inf")), ((3, 4), "ties"), smooth=False)
case("norm_p1_at_zero", lambda lib, x: x.norm(1), ((3, 4), "ties"), smooth=False)
case("div_by_zero", lambda lib, x, y: x / (y * 0), A, B, smooth=False)
case("softmax_constant", lambda lib, x: (x * 0).softmax(1), A, smooth=False)

# Beyond the brief: operations a student's own solution may reach for.
for _name, _kind in dict(log1p="pos", expm1="any", rsqrt="pos", square="any").items():
    case(f"{_name}_fn", lambda lib, x, _n=_name: getattr(lib, _n)(x), ((3, 4), _kind))
    case(f"{_name}_0d", lambda lib, x, _n=_name: getattr(x, _n)(), ((), _kind))
case("log1p_int", lambda lib, x: (x.abs() + 1).log1p(), ((3,), "int"))
case("square_int", lambda lib, x: x.square(), ((3,), "int"))
case("clamp_min_op", lambda lib, x: x.clamp_min(-0.5), A)
case("clamp_max_op", lambda lib, x: lib.clamp_max(x, 0.5), A)
case("clamp_min_op_int_float_bound", lambda lib, x: x.clamp_min(0.5), ((3, 4), "int"))
case("clamp_min_op_tensor", lambda lib, x, lo: x.clamp_min(lo), A, ((4,), "any"))
case("clamp_max_op_tensor", lambda lib, x, hi: lib.clamp_max(x, hi), A, ((3, 1), "any"))
case("clamp_min_op_ties", lambda lib, x, lo: x.clamp_min(lo), ((3, 4), "ties"), ((3, 4), "ties"), smooth=False)
case("inplace_clamp_min_op", _inplace("clamp_min_", -0.5), A)
case("inplace_clamp_max_tensor", _inplace("clamp_max_"), A, ((4,), "any"))
case("var_all", lambda lib, x: x.var(), A)
case("var_dim", lambda lib, x: x.var(1), A)
case("var_dims_keepdim_correction", lambda lib, x: lib.var(x, (0, 2), keepdim=True, correction=0), ((2, 3, 4), "any"))
case("var_unbiased_false", lambda lib, x: x.var(0, False), A)
case("std_all", lambda lib, x: x.std(), A)
case("std_dim", lambda lib, x: lib.std(x, dim=1, unbiased=False, keepdim=True), A)
case("std_of_constant", lambda lib, x: (x * 0).std(1), A, smooth=False, second=False)
case("prod_all", lambda lib, x: x.prod(), A)
case("prod_dim", lambda lib, x: lib.prod(x, 1), A)
case("prod_dim_keepdim", lambda lib, x: x.prod(0, keepdim=True), A)
# Second derivatives at zeros differ: minigrad treats the zero product of the others as constant.
case("prod_with_zeros", lambda lib, x: x.prod(1), ((4, 3), "ties"), smooth=False, second=False)
case(
    "prod_with_zeros_all", lambda lib, x: (x * lib.tensor([0.0, 1.0, 1.0, 2.0], dtype=x.dtype)).prod(), A, second=False
)
case("prod_int", lambda lib, x: x.prod(0), ((3, 2), "int"))
case("prod_dtype", lambda lib, x: x.prod(dtype=lib.float64), ((3,), "int"))
case("cumsum_dim", lambda lib, x: x.cumsum(1), A)
case("cumsum_fn_dim0", lambda lib, x: lib.cumsum(x, dim=0), A)
case("cumsum_0d", lambda lib, x: x.cumsum(0), ((), "any"))
case("cumsum_int", lambda lib, x: x.cumsum(-1), ((2, 3), "int", "int32"))
case("logsumexp_dim", lambda lib, x: x.logsumexp(1), A)
case("logsumexp_dims_keepdim", lambda lib, x: lib.logsumexp(x * 300, (0, 1), keepdim=True), A)
case("logsumexp_int", lambda lib, x: x.logsumexp(0), ((4,), "int"))
case("amax_all", lambda lib, x: x.amax(), A)
case("amax_dim", lambda lib, x: lib.amax(x, 1), A)
case("amin_dims_keepdim", lambda lib, x: x.amin((0, 2), keepdim=True), ((2, 3, 4), "any"))
case("amax_ties", lambda lib, x: x.amax(0), ((4, 3), "ties"), smooth=False)
case("amin_ties_all", lambda lib, x: x.amin(), ((4, 3), "ties"), smooth=False)
case("masked_fill_number", lambda lib, x: x.masked_fill(x > 0.2, 0.5), A, smooth=False)
case("masked_fill_tensor", lambda lib, x, v: lib.masked_fill(x, x < 0, v.sum()), A, ((2,), "any"), smooth=False)
case("masked_fill_broadcast", lambda lib, x, m: x.masked_fill(m, -1.0), ((4,), "any"), ((3, 4), "bool"))
case("masked_fill_int", lambda lib, x, m: x.masked_fill(m, 2.7), ((3, 4), "int"), ((4,), "bool"))
case("inplace_masked_fill", lambda lib, x, m: (x * 1).masked_fill_(m, 3.0), A, ((3, 1), "bool"))
case("erf", lambda lib, x: lib.erf(x * 2), A)
case("erf_method_int", lambda lib, x: x.erf(), ((3, 4), "int"))
case("flip_dim", lambda lib, x: x.flip(0), A)
case("flip_dims", lambda lib, x: lib.flip(x, dims=(0, 2)), ((2, 3, 4), "any"))
case("flip_varargs", lambda lib, x: x.flip(1, 0), A)
case("broadcast_to", lambda lib, x: x.broadcast_to(2, 3, 4), ((3, 1), "any"))
case("broadcast_to_fn", lambda lib, x: lib.broadcast_to(x, (3, 4)), ((4,), "any"))

# nn.functional beyond the brief: activations and losses, by name as in PyTorch.
for _name, _call in {
    "softplus": lambda f, x: f.softplus(x),
    "softplus_beta_threshold": lambda f, x: f.softplus(x * 8, beta=2.0, threshold=5.0),
    "leaky_relu": lambda f, x: f.leaky_relu(x),
    "leaky_relu_slope": lambda f, x: f.leaky_relu(x, 0.2),
    "leaky_relu_inplace": lambda f, x: f.leaky_relu(x * 1, 0.3, inplace=True),
    "silu": lambda f, x: f.silu(x),
    "gelu": lambda f, x: f.gelu(x),
    "gelu_tanh": lambda f, x: f.gelu(x * 2, approximate="tanh"),
    "elu": lambda f, x: f.elu(x),
    "elu_alpha": lambda f, x: f.elu(x, 0.4),
    "elu_inplace": lambda f, x: f.elu(x * 1, 2.0, inplace=True),
    "l1_loss": lambda f, x: f.l1_loss(x, x * 0 + 0.1),
    "l1_loss_sum": lambda f, x: f.l1_loss(x, x.detach() * 0 - 0.1, reduction="sum"),
}.items():
    case(f"nn_{_name}", lambda lib, x, _c=_call: _c(lib.nn.functional, x), ((3, 4), "away"))
for _reduction in ("mean", "sum", "none"):
    case(
        f"nn_binary_cross_entropy_{_reduction}",
        lambda lib, x, t, _r=_reduction: lib.nn.functional.binary_cross_entropy(x.sigmoid(), (t + 1) / 2, reduction=_r),
        ((3, 4), "any"),
        ((3, 4), "unit"),
        # Second derivatives come from elementary ops here: PyTorch's differ in the 10th digit.
        second=_reduction != "none",
    )
    case(
        f"nn_bce_with_logits_{_reduction}",
        lambda lib, x, t, _r=_reduction: lib.nn.functional.binary_cross_entropy_with_logits(
            x, (t + 1) / 2, reduction=_r
        ),
        ((3, 4), "any"),
        ((3, 4), "unit"),
    )
case(
    "nn_binary_cross_entropy_weight",
    lambda lib, x, t, w: lib.nn.functional.binary_cross_entropy(x.sigmoid(), (t + 1) / 2, weight=w.detach()),
    ((3, 4), "any"),
    ((3, 4), "unit"),
    ((4,), "pos"),
    grad=[True, True, False],
)
case(
    "nn_bce_with_logits_weights",
    lambda lib, x, t, w: lib.nn.functional.binary_cross_entropy_with_logits(
        x * 40, (t + 1) / 2, weight=w.detach(), pos_weight=w.detach() * 3
    ),
    ((3, 4), "any"),
    ((3, 4), "unit"),
    ((3, 4), "pos"),
    grad=[True, True, False],
)
case(
    "nn_binary_cross_entropy_certain",
    lambda lib, x: lib.nn.functional.binary_cross_entropy((x > 0).to(x.dtype), (x < 0).to(x.dtype)),
    A,
    smooth=False,
    second=False,
)

# torch.linalg norms.
case("linalg_vector_norm", lambda lib, x: lib.linalg.vector_norm(x), A)
case("linalg_vector_norm_ord_dim", lambda lib, x: lib.linalg.vector_norm(x, 3, dim=1, keepdim=True), A)
case("linalg_norm_default", lambda lib, x: lib.linalg.norm(x), ((2, 3, 4), "any"))
case("linalg_norm_dim", lambda lib, x: lib.linalg.norm(x, dim=1), A)
for _ord in ("fro", 1, -1, float("inf"), float("-inf")):
    case(f"linalg_matrix_norm_{_ord}", lambda lib, x, _o=_ord: lib.linalg.norm(x, _o), A)
    case(
        f"linalg_matrix_norm_{_ord}_dims",
        lambda lib, x, _o=_ord: lib.linalg.matrix_norm(x, _o, dim=(2, 0)),
        ((2, 3, 4), "any"),
    )
    case(f"linalg_matrix_norm_{_ord}_keepdim", lambda lib, x, _o=_ord: lib.linalg.matrix_norm(x, _o, keepdim=True), A)


# Several views made by one node (UnbindBackward0, SplitBackward0, SplitWithSizesBackward0).
case("unbind_restack", lambda lib, x: lib.stack(x.unbind(1)[::-1], 0) * x.unbind(0)[0][:, None], A)
case("unbind_some_unused", lambda lib, x: x.unbind(0)[1] ** 2, A)
case("iterate_rows", lambda lib, x: sum(row * (i + 1) for i, row in enumerate(x)), A)
case("split_even", lambda lib, x: x.split(3, 1)[1] * x.split(3, 1)[0][:, :1], ((3, 5), "any"))
case("split_sizes", lambda lib, x: lib.split(x, [1, 2], dim=0)[1].exp(), A)
case("chunk", lambda lib, x: x.chunk(2, -1)[0] * x.chunk(2, -1)[1], A)


# torch.linalg.solve / inv: a random matrix plus 4 I is well conditioned.
def _invertible(lib, a):
    return a + 4 * lib.eye(a.shape[-1], dtype=a.dtype)


case(
    "linalg_solve_matrix", lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b), ((3, 3), "any"), ((3, 2), "any")
)
case("linalg_solve_vector", lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b), ((3, 3), "any"), ((3,), "any"))
case(
    "linalg_solve_batch_of_vectors",
    lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b),
    ((2, 3, 3), "any"),
    ((2, 3), "any"),
)
case(
    "linalg_solve_broadcast",
    lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b),
    ((2, 1, 3, 3), "any"),
    ((4, 3, 2), "any"),
)
case(
    "linalg_solve_vector_batched_A",
    lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b),
    ((2, 3, 3), "any"),
    ((3,), "any"),
)
case(
    "linalg_solve_right",
    lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b, left=False),
    ((3, 3), "any"),
    ((2, 3), "any"),
)
case(
    "linalg_solve_only_B",
    lambda lib, a, b: lib.linalg.solve(_invertible(lib, a), b),
    ((3, 3), "any"),
    ((3, 2), "any"),
    grad=[False, True],
)
case("linalg_inv", lambda lib, a: lib.linalg.inv(_invertible(lib, a)), ((3, 3), "any"))
case("linalg_inv_batch", lambda lib, a: lib.linalg.inv(_invertible(lib, a)), ((2, 3, 3), "any"))
case("inverse", lambda lib, a: lib.inverse(_invertible(lib, a)).sum(0), ((4, 4), "any"))
case("inverse_method", lambda lib, a: _invertible(lib, a).inverse() @ a, ((3, 3), "any"))

# Remainders: % (sign of the divisor) and fmod (sign of the dividend).
case("remainder_number", lambda lib, x: x % 0.7, A)
case("remainder_negative_number", lambda lib, x: lib.remainder(x, -0.7), A)
case("remainder_tensor", lambda lib, x, y: x % (y + 3), A, ((4,), "pos"))
case("remainder_int_by_float", lambda lib, x: x % 2.5, ((3, 4), "int"))
case("remainder_ints", lambda lib, x, y: x.remainder(y.abs() + 1), ((3, 4), "int"), ((4,), "int"))
case("remainder_of_a_number", lambda lib, x: 7 % x, ((3, 4), "pos"), grad=[False])
case("remainder_bool_by_number", lambda lib, x: (x > 0) % 2, A)
case("inplace_remainder", _inplace("remainder_", 0.7), A)
case("inplace_imod", lambda lib, x: x.__mul__(1).__imod__(0.7), A)
case("fmod_number", lambda lib, x: x.fmod(0.7), A)
case("fmod_tensor", lambda lib, x, y: lib.fmod(x, y - 3), A, ((3, 1), "pos"))
case("fmod_ints", lambda lib, x: x.fmod(-3), ((3, 4), "int"))
case("inplace_fmod", _inplace("fmod_", -0.7), A)

# Gathering and scattering along a dim (indices made inside, so both libraries get the same).
_IDX = [[0, 3, 3], [2, 1, 0], [1, 1, 2]]  # repeats, so that scatter_add and gather's gradient add up
case("gather", lambda lib, x: lib.gather(x, 1, lib.tensor(_IDX)), A)
case("gather_dim0_int32_index", lambda lib, x: x.gather(0, lib.tensor([[2, 0, 1, 1]], dtype=lib.int32)), A)
case("gather_negative_dim_3d", lambda lib, x: x.gather(-1, lib.tensor([[[3], [0]]])), C)
case("gather_0d", lambda lib, x: lib.gather(x, 0, lib.tensor([0, 0])), ((), "any"))
case("scatter", lambda lib, x, s: x.scatter(1, lib.tensor([[0, 3], [2, 1], [1, 0]]), s), A, ((3, 2), "any"))
case("scatter_value", lambda lib, x: lib.scatter(x, 0, lib.tensor([[2, 0, 1, 1]]), 2.5), A)
case("scatter_add", lambda lib, x, s: lib.scatter_add(x, 1, lib.tensor(_IDX), s), A, ((3, 3), "any"))
case(
    "scatter_add_only_src",
    lambda lib, x, s: x.scatter_add(1, lib.tensor(_IDX), s),
    A,
    ((3, 3), "any"),
    grad=[False, True],
)
case("inplace_scatter", lambda lib, x: (x * 1).scatter_(1, lib.tensor(_IDX), value=-1.0), A)
case(
    "inplace_scatter_add", lambda lib, x, s: (x * 1).scatter_add_(0, lib.tensor([[2, 0, 0, 1]]), s), A, ((1, 4), "any")
)
case("index_select", lambda lib, x: lib.index_select(x, 1, lib.tensor([3, 0, 3])), A)
case("index_select_0d_index", lambda lib, x: x.index_select(1, lib.tensor(2)), C)
# Diagonals, traces and triangles.
case("diagonal", lambda lib, x: lib.diagonal(x), A)
case("diagonal_offset_dims", lambda lib, x: x.diagonal(1, 2, 0), C)
case("diagonal_below", lambda lib, x: x.diagonal(-1) * 2, A)
case("diag_of_vector", lambda lib, x: lib.diag(x), ((3,), "any"))
case("diag_of_vector_offset", lambda lib, x: lib.diag(x, -2), ((3,), "any"))
case("diag_of_matrix", lambda lib, x: x.diag(1), A)
case("diag_embed", lambda lib, x: lib.diag_embed(x), ((2, 3), "any"))
case("diag_embed_offset_dims", lambda lib, x: lib.diag_embed(x, 1, 0, 2), ((2, 3), "any"))
case("trace", lambda lib, x: lib.trace(x), A)
case("trace_method_square", lambda lib, x: x.trace() * x.sum(), ((3, 3), "any"))
case("tril", lambda lib, x: lib.tril(x), A)
case("triu_offset_3d", lambda lib, x: x.triu(-1), C)
case("inplace_tril", _inplace("tril_", 1), A)
case("inplace_triu", _inplace("triu_"), A)
# Sorting, top-k and repeat.
case("sort", lambda lib, x: lib.sort(x).values, A)
case("sort_descending_dim0", lambda lib, x: x.sort(0, descending=True)[0] * lib.arange(4.0), A)
case("sort_ties", lambda lib, x: lib.sort(x.round(), stable=True).values, ((3, 4), "ties"))
case("topk", lambda lib, x: lib.topk(x, 2).values, A)
case("topk_smallest_dim0", lambda lib, x: x.topk(2, 0, largest=False).values, A)
case("argsort_picks", lambda lib, x: x.gather(1, x.argsort(1, descending=True)), A)
case("repeat", lambda lib, x: x.repeat(2, 3), A)
case("repeat_new_dims", lambda lib, x: x.repeat(2, 1, 2), ((3,), "any"))
case("repeat_list", lambda lib, x: x.repeat([1, 2, 1]) * 2, C)
case("outer", lambda lib, x, y: lib.outer(x, y), ((3,), "any"), ((4,), "any"))
case("ger", lambda lib, x, y: x.ger(y), ((3,), "any"), ((2,), "any"))


# Normalization and embeddings: running statistics and integer indices are made inside, on the
# input's device, so both libraries get the same (batch_norm updates the statistics in place).
def _running(lib, x):
    """batch_norm's running mean and variance for the 3 channels of ``x``."""
    mean = lib.linspace(-0.5, 0.5, 3, dtype=x.dtype, device=x.device)
    return mean, lib.linspace(0.5, 2.0, 3, dtype=x.dtype, device=x.device)


case(
    "nn_layer_norm",
    lambda lib, x, w, b: lib.nn.functional.layer_norm(x, (4,), w, b),
    C,
    ((4,), "any"),
    ((4,), "any"),
)
case("nn_layer_norm_two_dims", lambda lib, x: lib.nn.functional.layer_norm(x, [3, 4], eps=1e-3), C)
case("nn_layer_norm_weight_only", lambda lib, x, w: lib.nn.functional.layer_norm(x, (4,), w), A, ((4,), "any"))
case(
    "nn_batch_norm_training",
    lambda lib, x, w, b: lib.nn.functional.batch_norm(x, *_running(lib, x), w, b, training=True),
    ((4, 3, 2), "any"),
    ((3,), "any"),
    ((3,), "any"),
)
case(
    "nn_batch_norm_training_4d_no_stats",
    lambda lib, x: lib.nn.functional.batch_norm(x, None, None, training=True, eps=1e-3),
    ((2, 3, 2, 2), "any"),
)
case(
    "nn_batch_norm_eval",
    lambda lib, x, w, b: lib.nn.functional.batch_norm(x, *_running(lib, x), w, b),
    ((4, 3), "any"),
    ((3,), "any"),
    ((3,), "any"),
)
case(
    "nn_embedding",
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([[0, 2], [4, 2]], device=w.device), w),
    ((5, 3), "any"),
)
case(
    "nn_embedding_padding_idx",
    lambda lib, w: lib.nn.functional.embedding(
        lib.tensor([3, 1, 3, 0], dtype=lib.int32, device=w.device), w, padding_idx=3
    ),
    ((4, 2), "any"),
    smooth=False,  # the padding row gets no gradient by design: finite differences disagree
)


# More elementwise math (tests/test_math_ops.py has their errors, edge values and graphs): each
# as function and method, broadcast, with integer inputs promoted, and in place.
_MATH_UNARY = {  # name: (input kind, what the input goes through first to stay in the domain)
    "asin": ("unit", None),
    "acos": ("unit", None),
    "atan": ("any", None),
    "sinh": ("any", None),
    "cosh": ("any", None),
    "asinh": ("any", None),
    "acosh": ("pos", lambda x: x + 1),
    "atanh": ("unit", None),
    "arcsin": ("unit", None),
    "arccos": ("unit", None),
    "arctan": ("any", None),
    "arcsinh": ("any", None),
    "arccosh": ("pos", lambda x: x + 1),
    "arctanh": ("unit", None),
    "log2": ("pos", None),
    "log10": ("pos", None),
    "exp2": ("any", None),
    "frac": ("any", None),
    "sinc": ("any", None),
    "deg2rad": ("any", None),
    "rad2deg": ("any", None),
    "sgn": ("away", None),
    "logit": ("pos", lambda x: x * 0.4),
    "nan_to_num": ("any", None),
}
for _name, (_kind, _prep) in _MATH_UNARY.items():
    _in = _prep or (lambda x: x)
    case(f"math_{_name}_fn", lambda lib, x, _n=_name, _p=_in: getattr(lib, _n)(_p(x)), ((3, 4), _kind))
    case(f"math_{_name}_method", lambda lib, x, _n=_name, _p=_in: getattr(_p(x), _n)(), ((2, 3, 2), _kind))
    case(f"math_{_name}_0d", lambda lib, x, _n=_name, _p=_in: getattr(lib, _n)(_p(x)), ((), _kind))
    if _name not in ("frac", "sgn", "nan_to_num"):  # these keep integers (or refuse them)
        case(f"math_{_name}_of_int", lambda lib, x, _n=_name: getattr(lib, _n)(x), ((3, 4), "int"))
    if _name not in ("frac", "sgn", "nan_to_num"):
        case(f"math_{_name}_of_bool", lambda lib, x, _n=_name: getattr(lib, _n)(x), ((3, 4), "bool"))
    # PyTorch cannot differentiate asinh_, acosh_ and atanh_ (test_math_ops.py checks that backward raises).
    _grad = [False] if _name in ("asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh") else None
    case(
        f"math_inplace_{_name}",
        lambda lib, x, _n=_name, _p=_in: getattr(_p(x) * 1, _n + "_")(),
        ((3, 4), _kind),
        grad=_grad,
    )
case("math_logit_eps", lambda lib, x: lib.logit(x, eps=0.25), ((3, 4), "unit"), smooth=False)
case("math_logit_eps_method", lambda lib, x: x.logit(0.1) * 2, ((2, 3), "pos"), smooth=False)
case("math_inplace_logit_eps", lambda lib, x: (x * 1).logit_(eps=0.2), ((3, 4), "unit"), smooth=False)
case("math_nan_to_num_args", lambda lib, x: lib.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-3.0), A)
case("math_inplace_nan_to_num_args", lambda lib, x: (x * 1).nan_to_num_(posinf=2.0), A)
case("math_sgn_of_int", lambda lib, x: lib.sgn(x), ((3, 4), "int"))
case("math_nan_to_num_of_int", lambda lib, x: lib.nan_to_num(x, nan=2.5), ((3, 4), "int"))

_MATH_BINARY = {  # name: (kind of input, kind of other)
    "atan2": ("any", "any"),
    "arctan2": ("any", "any"),
    "hypot": ("away", "away"),
    "logaddexp": ("any", "any"),
    "logaddexp2": ("any", "any"),
    "xlogy": ("any", "pos"),
    "fmax": ("any", "any"),
    "fmin": ("any", "any"),
    "float_power": ("pos", "any"),
}
for _name, (_ka, _kb) in _MATH_BINARY.items():
    case(f"math_{_name}_fn", lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y), ((3, 4), _ka), ((3, 4), _kb))
    case(f"math_{_name}_method_broadcast", lambda lib, x, y, _n=_name: getattr(x, _n)(y), ((3, 1), _ka), ((4,), _kb))
    case(f"math_{_name}_3d_1d", lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y), ((2, 3, 4), _ka), ((4,), _kb))
    case(f"math_{_name}_0d_other", lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y), ((3,), _ka), ((), _kb))
    case(
        f"math_{_name}_one_input_needs_grad",
        lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
        ((3, 4), _ka),
        ((4,), _kb),
        grad=[True, False],
    )
    case(
        f"math_{_name}_other_input_needs_grad",
        lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
        ((3, 4), _ka),
        ((4,), _kb),
        grad=[False, True],
    )
    if _name not in ("hypot", "logaddexp", "logaddexp2"):  # PyTorch has no integer kernels for these
        _smooth = _name != "float_power"  # negative integers to fractional powers: NaN, no finite differences
        case(
            f"math_{_name}_int_and_float",
            lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
            ((3, 4), "int"),
            ((4,), _kb),
            smooth=_smooth,
        )
        case(
            f"math_{_name}_of_ints",
            lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
            ((3, 4), "int"),
            ((3, 4), "int"),
        )
        case(
            f"math_{_name}_of_bools",
            lambda lib, x, y, _n=_name: getattr(lib, _n)(x, y),
            ((3, 4), "bool"),
            ((4,), "bool"),
        )
    if _name not in ("fmax", "fmin", "logaddexp", "logaddexp2", "float_power"):  # PyTorch has no such method
        case(
            f"math_inplace_{_name}", lambda lib, x, y, _n=_name: getattr(x * 1, _n + "_")(y), ((3, 4), _ka), ((4,), _kb)
        )
case("math_fmax_ties", lambda lib, x, y: lib.fmax(x, y), ((3, 4), "ties"), ((3, 4), "ties"), smooth=False)
case("math_fmin_ties", lambda lib, x, y: lib.fmin(x, y), ((3, 4), "ties"), ((3, 4), "ties"), smooth=False)
case(
    "math_hypot_half_and_float",
    lambda lib, x, y: lib.hypot(x.half(), y),
    ((3, 4), "away"),
    ((4,), "away"),
    smooth=False,
)
case("math_xlogy_number_other", lambda lib, x: lib.xlogy(x, 2.5), A)
case("math_xlogy_number_self", lambda lib, y: lib.xlogy(-1.5, y), ((3, 4), "pos"))
case("math_xlogy_method_number", lambda lib, x: x.xlogy(3), ((2, 3), "any"))
case("math_xlogy_of_int_and_number", lambda lib, x: lib.xlogy(x, 2), ((3, 4), "int"))
case("math_inplace_xlogy_number", lambda lib, x: (x * 1).xlogy_(0.5), A)
case("math_xlogy_zeros", lambda lib, x, y: lib.xlogy(x * 0, y), A, ((4,), "pos"), smooth=False)
case("math_float_power_number", lambda lib, x: lib.float_power(x, 3), A)
case("math_float_power_method_negative", lambda lib, x: x.float_power(-1.5), ((3, 4), "pos"))
case("math_float_power_number_base", lambda lib, x: lib.float_power(2, x), A)
case("math_float_power_of_int", lambda lib, x: lib.float_power(x, -2), ((3, 4), "int"))
case("math_inplace_float_power", lambda lib, x, y: (x.double() * 1).float_power_(y), ((3, 4), "pos"), ((4,), "any"))

case("math_lerp_number", lambda lib, x, y: lib.lerp(x, y, 0.3), A, ((4,), "any"))
case("math_lerp_number_above_half", lambda lib, x, y: x.lerp(y, 0.75), ((3, 1), "any"), ((1, 4), "any"))
case("math_lerp_int_weight", lambda lib, x, y: lib.lerp(x, y, 2), A, B)
case("math_lerp_tensor", lambda lib, x, y, w: lib.lerp(x, y, w), A, ((4,), "any"), ((3, 1), "unit"))
case("math_lerp_tensor_method", lambda lib, x, y, w: x.lerp(y, w * 2), C, ((4,), "any"), ((3, 4), "unit"))
case("math_lerp_0d_weight", lambda lib, x, y, w: lib.lerp(x, y, w), A, B, ((), "unit"))
case("math_lerp_weight_only", lambda lib, x, y, w: lib.lerp(x, y, w), A, B, A, grad=[False, False, True])
case("math_inplace_lerp", lambda lib, x, y: (x * 1).lerp_(y, 0.6), A, ((4,), "any"))
case("math_inplace_lerp_tensor", lambda lib, x, y, w: (x * 1).lerp_(y, w), A, B, ((4,), "unit"))
case("math_addcmul", lambda lib, x, a, b: lib.addcmul(x, a, b), A, ((4,), "any"), ((3, 1), "any"))
case(
    "math_addcmul_value",
    lambda lib, x, a, b: x.addcmul(a, b, value=-2.5),
    ((4,), "any"),
    ((3, 1), "any"),
    ((3, 4), "any"),
)
case(
    "math_addcmul_int_tensors", lambda lib, x, a, b: lib.addcmul(x, a, b, value=0.5), A, ((3, 4), "int"), ((4,), "int")
)
case(
    "math_addcmul_of_ints",
    lambda lib, x, a, b: lib.addcmul(x, a, b, value=2),
    ((3, 4), "int"),
    ((3, 4), "int"),
    ((4,), "int"),
)
case("math_addcdiv", lambda lib, x, a, b: lib.addcdiv(x, a, b), A, ((4,), "any"), ((3, 1), "away"))
case(
    "math_addcdiv_value", lambda lib, x, a, b: x.addcdiv(a, b, value=3), ((4,), "any"), ((3, 1), "any"), ((3, 4), "pos")
)
case(
    "math_addcdiv_int_numerator",
    lambda lib, x, a, b: lib.addcdiv(x, a, b),
    ((3, 4), "int"),
    ((3, 4), "int"),
    ((4,), "pos"),
)
case("math_inplace_addcmul", lambda lib, x, a, b: (x * 1).addcmul_(a, b, value=0.5), A, ((4,), "any"), ((3, 1), "any"))
case("math_inplace_addcdiv", lambda lib, x, a, b: (x * 1).addcdiv_(a, b, value=2), A, ((4,), "any"), ((3, 1), "pos"))
case(
    "math_heaviside",
    lambda lib, x, v: lib.heaviside(x.round(), v),
    ((3, 4), "ties"),
    ((4,), "any"),
    grad=[False, False],
)
case("math_heaviside_of_ints", lambda lib, x, v: x.heaviside(v), ((3, 4), "int"), ((3, 1), "int"))
case("math_logical_xor", lambda lib, x, y: lib.logical_xor(x, y), ((3, 4), "ties"), ((4,), "bool"))
case("math_logical_xor_method", lambda lib, x, y: x.logical_xor(y), ((3, 4), "int"), ((3, 4), "ties"))
case(
    "math_inplace_logical_xor",
    lambda lib, x, y: (x * 1).logical_xor_(y),
    ((3, 4), "ties"),
    ((3, 4), "ties"),
    smooth=False,
)
# Chains: second derivatives through several of them at once.
case("math_chain", lambda lib, x, y: lib.logaddexp(x.sinh(), lib.atan2(y, x)).hypot(x.exp2()), A, B)
case("math_chain_xlogy_entropy", lambda lib, p: -lib.xlogy(p.softmax(1), p.softmax(1)).sum(1), A)
# Shape ops (tests/test_shape_ops.py): cumprod, take_along_dim, index_add.
case("shape_cumprod", lambda lib, x: lib.cumprod(x, 1), ((3, 4), "any"))
case("shape_cumprod_negative_dim", lambda lib, x: x.cumprod(-3), ((3, 2, 4), "any"))
case("shape_cumprod_zeros", lambda lib, x: x.cumprod(1), ((4, 6), "ties"))
case("shape_cumprod_zeros_dim0", lambda lib, x: lib.cumprod(x, 0) * 2, ((5, 3), "ties"))
case("shape_cumprod_0d", lambda lib, x: x.cumprod(0), ((), "any"))
case("shape_cumprod_ints", lambda lib, x: lib.cumprod(x, 0), ((4, 2), "int", "int32"))
case("shape_cumprod_dtype", lambda lib, x: lib.cumprod(x, 1, dtype=lib.float64), ((2, 3), "int"))
case(
    "shape_take_along_dim",
    lambda lib, x: lib.take_along_dim(x, lib.tensor([[0, 3, 3], [2, 1, 0], [1, 1, 2]]), 1),
    ((3, 4), "any"),
)
case(
    "shape_take_along_dim_broadcast",
    lambda lib, x: x.take_along_dim(lib.tensor([[[1]], [[0]]]), -2),
    ((1, 3, 4), "any"),
)
case("shape_take_along_dim_flat", lambda lib, x: lib.take_along_dim(x, lib.tensor([[11, 0], [3, 3]])), ((3, 4), "any"))
case(
    "shape_index_add", lambda lib, x, s: lib.index_add(x, 1, lib.tensor([3, 0, 3]), s), ((3, 4), "any"), ((3, 3), "any")
)
case(
    "shape_index_add_alpha",
    lambda lib, x, s: x.index_add(-2, lib.tensor([1, 1]), s * s, alpha=-2.5),
    ((3, 4), "any"),
    ((2, 4), "any"),
)
case(
    "shape_index_add_source_only",
    lambda lib, x, s: x.index_add(0, lib.tensor([2]), s.exp()),
    ((3, 4), "any"),
    ((1, 4), "any"),
    grad=[False, True],
)
case("shape_index_add_0d", lambda lib, x, s: lib.index_add(x, 0, lib.tensor([0]), s, alpha=3), ((), "any"), ((), "any"))
case(
    "shape_inplace_index_add",
    lambda lib, x, s: (x * 1).index_add_(1, lib.tensor([0, 2]), s, alpha=2),
    ((3, 4), "any"),
    ((3, 2), "any"),
)
# More tensor ops (tests/test_more_tensor_ops.py): roll, rot90, movedim, swapaxes, fliplr/flipud,
# atleast_*d, the stacks, tile, repeat_interleave, tensor_split, unflatten, broadcast_tensors,
# meshgrid, cartesian_prod, block_diag, kron, diff.
case("more_roll", lambda lib, x: lib.roll(x, (1, -5), (0, 1)), ((3, 4), "any"))
case("more_roll_flat", lambda lib, x: x.roll(5), ((3, 4), "any"))
case("more_roll_same_dim_twice", lambda lib, x: x.roll((2, 3), (-1, -1)) * x, ((2, 3, 4), "any"))
case("more_roll_0d", lambda lib, x: lib.roll(x, 2), ((), "any"))
case("more_rot90", lambda lib, x: lib.rot90(x), ((3, 4), "any"))
case("more_rot90_k2", lambda lib, x: x.rot90(2, (1, 2)), ((2, 3, 4), "any"))
case("more_rot90_k3_dims_swapped", lambda lib, x: x.rot90(-1, [-1, 0]) * 2, ((3, 4), "any"))
case("more_rot90_k0", lambda lib, x: lib.rot90(x, 4), ((3, 4), "any"))
case("more_movedim", lambda lib, x: lib.movedim(x, 0, -1), ((2, 3, 4), "any"))
case("more_moveaxis_tuple", lambda lib, x: x.moveaxis((0, 1), (2, 0)), ((2, 3, 4), "any"))
case("more_movedim_0d", lambda lib, x: lib.movedim(x, 0, 0), ((), "any"))
case("more_swapaxes", lambda lib, x: lib.swapaxes(x, 0, -1), ((2, 3, 4), "any"))
case("more_swapdims", lambda lib, x: x.swapdims(1, 0).exp(), ((3, 4), "any"))
case("more_fliplr", lambda lib, x: lib.fliplr(x), ((3, 4), "any"))
case("more_flipud", lambda lib, x: x.flipud(), ((2, 3, 4), "any"))
case("more_atleast_1d", lambda lib, x, y: lib.atleast_1d(x, y), ((), "any"), ((3,), "any"))
case("more_atleast_2d", lambda lib, x, y: lib.atleast_2d([x, y]), ((), "any"), ((3,), "any"))
case("more_atleast_3d", lambda lib, x, y, z: lib.atleast_3d(x, y, z), ((), "any"), ((3,), "any"), ((3, 4), "any"))
case("more_vstack", lambda lib, x, y: lib.vstack([x, y]), ((3, 4), "any"), ((4,), "any"))
case("more_row_stack", lambda lib, x, y: lib.row_stack((x, y)), ((4,), "any"), ((4,), "any"))
case("more_hstack", lambda lib, x, y, z: lib.hstack([x, y, z]), ((3,), "any"), ((), "any"), ((2,), "any"))
case("more_hstack_2d", lambda lib, x, y: lib.hstack([x, y]), ((3, 4), "any"), ((3, 2), "any"))
case("more_dstack", lambda lib, x, y: lib.dstack([x, y]), ((3, 4), "any"), ((3, 4), "any"))
case("more_dstack_vectors", lambda lib, x, y: lib.dstack([x, y]), ((4,), "any"), ((4,), "any"))
case("more_column_stack", lambda lib, x, y: lib.column_stack([x, y]), ((4,), "any"), ((4, 2), "any"))
case("more_stack_int_and_float", lambda lib, x, y: lib.vstack([x, y]), ((4,), "int"), ((4,), "any"))
case("more_tile", lambda lib, x: lib.tile(x, (2,)), ((3, 4), "any"))
case("more_tile_more_dims", lambda lib, x: x.tile(2, 1, 3), ((3, 4), "any"))
case("more_repeat_interleave", lambda lib, x: lib.repeat_interleave(x, 2), ((3, 4), "any"))
case("more_repeat_interleave_dim", lambda lib, x: x.repeat_interleave(3, dim=-1), ((2, 3, 2), "any"))
case("more_repeat_interleave_0d", lambda lib, x: lib.repeat_interleave(x, 3), ((), "any"))
case(
    "more_repeat_interleave_tensor",
    lambda lib, x: lib.repeat_interleave(x, lib.tensor([1, 3, 0]), dim=0),
    ((3, 4), "any"),
)
case("more_repeat_interleave_tensor_flat", lambda lib, x: x.repeat_interleave(lib.tensor([2])), ((2, 3), "any"))
case("more_tensor_split", lambda lib, x: lib.tensor_split(x, 3, dim=1), ((3, 4), "any"))
case("more_tensor_split_indices", lambda lib, x: x.tensor_split([1, -1, 2]), ((5, 2), "any"))
case("more_unflatten", lambda lib, x: lib.unflatten(x, 1, (2, -1)), ((3, 4), "any"))
case(
    "more_broadcast_tensors",
    lambda lib, x, y, z: lib.broadcast_tensors(x, y, z),
    ((3, 1), "any"),
    ((4,), "any"),
    ((), "any"),
)
case("more_meshgrid_ij", lambda lib, x, y: lib.meshgrid(x, y, indexing="ij"), ((3,), "any"), ((4,), "any"))
case(
    "more_meshgrid_xy",
    lambda lib, x, y, z: lib.meshgrid([x, y, z], indexing="xy"),
    ((3,), "any"),
    ((4,), "any"),
    ((), "any"),
)
case("more_cartesian_prod", lambda lib, x, y: lib.cartesian_prod(x, y), ((3,), "any"), ((2,), "any"))
case("more_cartesian_prod_three", lambda lib, x, y: lib.cartesian_prod(x, y, x), ((1,), "any"), ((2,), "any"))
case("more_block_diag", lambda lib, x, y, z: lib.block_diag(x, y, z), ((3, 2), "any"), ((4,), "any"), ((), "any"))
case(
    "more_block_diag_one_needs_grad",
    lambda lib, x, y: lib.block_diag(x, y),
    ((3, 2), "any"),
    ((2, 2), "any"),
    grad=[False, True],
)
case("more_block_diag_int_and_float", lambda lib, x, y: lib.block_diag(x, y), ((2, 2), "int"), ((1, 3), "any"))
case("more_kron", lambda lib, x, y: lib.kron(x, y), ((2, 3), "any"), ((3, 2), "any"))
case("more_kron_other_dims", lambda lib, x, y: x.kron(y), ((3,), "any"), ((2, 1, 2), "any"))
case("more_kron_0d", lambda lib, x, y: lib.kron(x, y), ((), "any"), ((2, 2), "any"))
case("more_diff", lambda lib, x: lib.diff(x), ((3, 4), "any"))
case("more_diff_twice_dim0", lambda lib, x: x.diff(2, 0), ((4, 3), "any"))
case(
    "more_diff_prepend_append",
    lambda lib, x, p, a: lib.diff(x, dim=0, prepend=p, append=a),
    ((3, 2), "any"),
    ((1, 2), "any"),
    ((2, 2), "any"),
)
case("more_diff_n0", lambda lib, x: lib.diff(x, 0), ((3, 4), "any"))
# masked_select, take, index_fill, index_copy (tests/test_more_tensor_ops.py).
case("more_masked_select", lambda lib, x, m: lib.masked_select(x, m), ((3, 4), "any"), ((3, 4), "bool"))
case("more_masked_select_broadcast_input", lambda lib, x, m: x.masked_select(m), ((4,), "any"), ((3, 4), "bool"))
case("more_masked_select_broadcast_mask", lambda lib, x, m: lib.masked_select(x, m), ((2, 3, 4), "any"), ((4,), "bool"))
case("more_masked_select_0d", lambda lib, x: lib.masked_select(x, x == x), ((), "any"))
case("more_take", lambda lib, x: lib.take(x, lib.tensor([[0, 11, 5], [-1, 5, -12]])), ((3, 4), "any"))
case("more_take_0d", lambda lib, x: x.take(lib.tensor(0)), ((), "any"))
case("more_index_fill", lambda lib, x: lib.index_fill(x, 1, lib.tensor([0, -1, 0]), -1.5), ((3, 4), "any"))
case(
    "more_index_fill_tensor", lambda lib, x, v: x.index_fill(0, lib.tensor([2, 0, 2]), v), ((3, 4), "any"), ((), "any")
)
case(
    "more_index_fill_value_only",
    lambda lib, x, v: lib.index_fill(x, -1, lib.tensor(1), v * 2),
    ((3, 4), "any"),
    ((), "any"),
    grad=[False, True],
)
case(
    "more_inplace_index_fill",
    lambda lib, x, v: (x * 1).index_fill_(1, lib.tensor([3]), v),
    ((3, 4), "any"),
    ((), "any"),
)
case("more_index_copy", lambda lib, x, s: lib.index_copy(x, 1, lib.tensor([2, 0]), s), ((3, 4), "any"), ((3, 2), "any"))
case(
    "more_index_copy_source_only",
    lambda lib, x, s: x.index_copy(0, lib.tensor([1]), s.exp()),
    ((3, 4), "any"),
    ((1, 4), "any"),
    grad=[False, True],
)
case("more_index_copy_0d", lambda lib, x, s: lib.index_copy(x, 0, lib.tensor([0]), s), ((), "any"), ((), "any"))
case(
    "more_inplace_index_copy",
    lambda lib, x, s: (x * 1).index_copy_(-1, lib.tensor([3, 1]), s * s),
    ((3, 4), "any"),
    ((3, 2), "any"),
)
# nansum, nanmean, median, nanmedian (NaN inputs and ties: tests/test_more_tensor_ops.py).
case("more_nansum", lambda lib, x: lib.nansum(x), ((3, 4), "any"))
case("more_nansum_dim", lambda lib, x: x.nansum((0, 2), keepdim=True), ((2, 3, 4), "any"))
case("more_nanmean_dim", lambda lib, x: lib.nanmean(x, 1), ((3, 4), "any"))
case("more_median", lambda lib, x: lib.median(x), ((3, 4), "any"))
case("more_median_dim", lambda lib, x: lib.median(x, 1), ((3, 5), "any"))
case("more_nanmedian_dim_kept", lambda lib, x: x.nanmedian(0, keepdim=True), ((4, 3), "any"))
# var_mean, std_mean, aminmax (one node for both results), cummax/cummin, logcumsumexp, kthvalue,
# mode (ties, NaN, errors and edge shapes: tests/test_more_tensor_ops2.py).
case("more2_var_mean", lambda lib, x: lib.var_mean(x), ((3, 4), "any"))
case("more2_var_mean_dim", lambda lib, x: lib.var_mean(x, 1, keepdim=True), ((3, 4), "any"))
case("more2_var_mean_dims_correction", lambda lib, x: lib.var_mean(x, (0, -1), correction=0), ((2, 3, 4), "any"))
case("more2_var_mean_var_only", lambda lib, x: lib.var_mean(x, 0)[0].exp(), ((3, 4), "any"))
case("more2_var_mean_mean_only", lambda lib, x: lib.var_mean(x, 0)[1] ** 2, ((3, 4), "any"))
case("more2_std_mean", lambda lib, x: lib.std_mean(x, -1), ((3, 4), "any"))
case("more2_std_mean_unbiased_false", lambda lib, x: lib.std_mean(x, unbiased=False), ((3, 4), "any"))
case("more2_std_mean_std_only", lambda lib, x: lib.std_mean(x, 0, keepdim=True)[0] * x, ((3, 4), "any"))
case("more2_aminmax", lambda lib, x: lib.aminmax(x), ((3, 4), "any"))
case("more2_aminmax_dim", lambda lib, x: x.aminmax(dim=-1, keepdim=True), ((3, 4), "any"))
case("more2_aminmax_ties", lambda lib, x: lib.aminmax(x, dim=0), ((5, 4), "ties"), smooth=False)
case("more2_aminmax_max_only", lambda lib, x: lib.aminmax(x, dim=1).max.exp(), ((3, 4), "any"))
case("more2_aminmax_0d", lambda lib, x: lib.aminmax(x, dim=0), ((), "any"))
case("more2_cummax", lambda lib, x: lib.cummax(x, 1), ((3, 5), "any"))
case("more2_cummax_ties", lambda lib, x: x.cummax(0), ((6, 3), "ties"), smooth=False)
case("more2_cummin", lambda lib, x: lib.cummin(x, -1), ((2, 3, 4), "any"))
case("more2_cummin_ties", lambda lib, x: x.cummin(1), ((3, 6), "ties"), smooth=False)
case("more2_cummax_0d", lambda lib, x: lib.cummax(x, 0), ((), "any"))
case("more2_logcumsumexp", lambda lib, x: lib.logcumsumexp(x, 1), ((3, 4), "any"))
case("more2_logcumsumexp_dim0", lambda lib, x: x.logcumsumexp(-3), ((3, 2, 2), "any"))
case("more2_logcumsumexp_0d", lambda lib, x: lib.logcumsumexp(x, 0), ((), "any"))
case("more2_kthvalue", lambda lib, x: lib.kthvalue(x, 2), ((3, 4), "any"))
case("more2_kthvalue_dim_kept", lambda lib, x: x.kthvalue(3, 0, True), ((4, 3), "any"))
case("more2_kthvalue_0d", lambda lib, x: lib.kthvalue(x, 1), ((), "any"))
case("more2_mode", lambda lib, x: lib.mode(x), ((3, 6), "ties"), smooth=False)
case("more2_mode_dim_kept", lambda lib, x: x.mode(0, keepdim=True), ((7, 3), "ties"), smooth=False)
case("more2_mode_distinct", lambda lib, x: lib.mode(x, 1), ((3, 4), "any"))
# addmv, addr, baddbmm, addbmm (beta, alpha), cross/linalg.cross, matrix_power, multi_dot,
# tensordot (errors and edge shapes: tests/test_more_tensor_ops2.py).
case("more2_addmv", lambda lib, b, m, v: lib.addmv(b, m, v), ((3,), "any"), ((3, 4), "any"), ((4,), "any"))
case(
    "more2_addmv_beta_alpha",
    lambda lib, b, m, v: b.addmv(m, v, beta=0.5, alpha=-2),
    ((), "any"),
    ((3, 4), "any"),
    ((4,), "any"),
)
case(
    "more2_addmv_beta_0", lambda lib, b, m, v: lib.addmv(b, m, v, beta=0), ((1,), "any"), ((3, 4), "any"), ((4,), "any")
)
case("more2_addr", lambda lib, a, u, v: lib.addr(a, u, v, alpha=3), ((3, 4), "any"), ((3,), "any"), ((4,), "any"))
case("more2_addr_broadcast", lambda lib, a, u, v: a.addr(u, v, beta=2), ((4,), "any"), ((3,), "any"), ((4,), "any"))
case(
    "more2_baddbmm",
    lambda lib, c, x, y: lib.baddbmm(c, x, y, beta=-1, alpha=0.5),
    ((2, 3, 5), "any"),
    ((2, 3, 4), "any"),
    ((2, 4, 5), "any"),
)
case(
    "more2_baddbmm_broadcast",
    lambda lib, c, x, y: c.baddbmm(x, y),
    ((3, 1), "any"),
    ((2, 3, 4), "any"),
    ((2, 4, 5), "any"),
)
case("more2_addbmm", lambda lib, c, x, y: lib.addbmm(c, x, y), ((3, 5), "any"), ((2, 3, 4), "any"), ((2, 4, 5), "any"))
case(
    "more2_addbmm_beta_alpha",
    lambda lib, c, x, y: c.addbmm(x, y, beta=3, alpha=2),
    ((5,), "any"),
    ((2, 3, 4), "any"),
    ((2, 4, 5), "any"),
)
case("more2_linalg_cross", lambda lib, x, y: lib.linalg.cross(x, y), ((4, 3), "any"), ((4, 3), "any"))
case("more2_linalg_cross_broadcast", lambda lib, x, y: lib.linalg.cross(x, y, dim=0), ((3, 4), "any"), ((3, 1), "any"))
case("more2_cross_dim", lambda lib, x, y: x.cross(y, dim=1), ((2, 3, 2), "any"), ((2, 3, 2), "any"))
case("more2_matrix_power_2", lambda lib, a: lib.linalg.matrix_power(a, 2), ((3, 3), "any"))
case("more2_matrix_power_5", lambda lib, a: lib.matrix_power(a, 5), ((3, 3), "any"))
case("more2_matrix_power_0", lambda lib, a: a.matrix_power(0), ((3, 3), "any"))
case("more2_matrix_power_1", lambda lib, a: a.matrix_power(1), ((3, 3), "any"))
case("more2_matrix_power_batch", lambda lib, a: lib.linalg.matrix_power(a, 3), ((2, 3, 3), "any"))
case(
    "more2_matrix_power_inverse",
    lambda lib, a: lib.linalg.matrix_power(a + 3 * lib.eye(3, dtype=a.dtype), -2),
    ((3, 3), "any"),
)
case(
    "more2_multi_dot",
    lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]),
    ((3, 4), "any"),
    ((4, 2), "any"),
    ((2, 5), "any"),
)
case(
    "more2_multi_dot_vectors",
    lambda lib, u, a, b, v: lib.linalg.multi_dot((u, a, b, v)),
    ((3,), "any"),
    ((3, 4), "any"),
    ((4, 2), "any"),
    ((2,), "any"),
)
case(
    "more2_multi_dot_chain",
    lambda lib, a, b, c, d: lib.linalg.multi_dot([a, b, c, d]),
    ((5, 2), "any"),
    ((2, 6), "any"),
    ((6, 3), "any"),
    ((3, 4), "any"),
)
case("more2_tensordot", lambda lib, a, b: lib.tensordot(a, b), ((2, 3, 4), "any"), ((3, 4, 5), "any"))
case(
    "more2_tensordot_lists",
    lambda lib, a, b: lib.tensordot(a, b, ([0, 2], [2, 0])),
    ((2, 3, 4), "any"),
    ((4, 5, 2), "any"),
)
case(
    "more2_tensordot_copying",
    lambda lib, a, b: lib.tensordot(a, b, dims=([1], [0])),
    ((2, 3, 4), "any"),
    ((3, 5), "any"),
)
case(
    "more2_tensordot_broadcast_dim",
    lambda lib, a, b: lib.tensordot(a, b, ([0, 2], [0, 1])),
    ((2, 3, 4), "any"),
    ((1, 4), "any"),
)
case("more2_tensordot_outer", lambda lib, a, b: lib.tensordot(a, b, 0), ((3,), "any"), ((2, 2), "any"))
case("more2_tensordot_vectors", lambda lib, a, b: lib.tensordot(a, b, 1), ((4,), "any"), ((4,), "any"))
