"""Random expressions over random broadcastable shapes agree with PyTorch.

Hypothesis draws a target shape, up to three leaf shapes that broadcast to it (trailing dims, some
set to 1) and a program of operations (a DAG: a value may feed several later steps). The tree is evaluated in minigrad and in PyTorch on the same
values; every step's output and grad_fn name, first derivatives and second derivatives (the gradient of
a random weighted sum of the first derivatives, built with ``create_graph=True``) must agree.

Every step keeps values bounded (``exp`` of a ``tanh``, denominators ``1 + b*b``), so the
comparison never depends on overflow. Reductions keep their dimension (or reduce to 0-d), so every
intermediate shape still broadcasts against every other.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from helpers_torch import Case, compare  # noqa: E402

UNARY = {
    "neg": lambda x: -x,
    "abs": lambda x: x.abs(),
    "relu": lambda x: x.relu(),
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "exp_tanh": lambda x: x.tanh().exp(),
    "log1p_square": lambda x: (x * x + 1).log(),
    "sqrt": lambda x: (x * x + 0.5).sqrt(),
    "square_tanh": lambda x: x.tanh() ** 2,
    "reciprocal": lambda x: 1 / (x * x + 1),
    "rsub": lambda x: 2.5 - x,
    "scale": lambda x: x * 0.5,
    "clamp": lambda x: x.clamp(-0.8, 0.8),
    "clone": lambda x: x.clone(),
}
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "maximum": lambda a, b: a.maximum(b),
    "minimum": lambda a, b: a.minimum(b),
    "where": None,  # needs the library's where: see _evaluate
    "pow": lambda a, b: (a * a + 1) ** b.tanh(),
    "add_alpha": lambda a, b: a.add(b, alpha=-0.5),
}


def _reduce(name: str, x, dim: int):
    if x.ndim == 0:
        return x * 1.0 if name != "sum_all" else x.sum()
    d = dim % x.ndim - x.ndim if dim % 2 else dim % x.ndim  # both positive and negative dims
    if name == "sum":
        return x.sum(d, keepdim=True)
    if name == "mean":
        return x.mean(dim=d, keepdim=True)
    if name == "max":
        return x.max(d, keepdim=True).values
    if name == "norm":
        return (x * x + 0.1).norm(dim=d, keepdim=True)
    if name == "softmax":
        return x.softmax(d)
    if name == "log_softmax":
        return x.log_softmax(d)
    return x.sum()  # sum_all: a 0-d tensor broadcasts with everything


REDUCE = ["sum", "mean", "max", "norm", "softmax", "log_softmax", "sum_all"]


def _evaluate(lib, program, leaves):
    """Run a program: each step applies one operation to earlier values (leaves or steps).

    Operands are picked by index, so a value can feed several later steps (its gradients then
    add up) and the last step is usually a deep tree. Every step's value is an output, so each
    one is compared and receives its own upstream gradient (none can hide behind a later
    reduction whose gradient happens to vanish).
    """
    values = list(leaves)
    for kind, name, i, j, dim in program:
        a, b = values[-1 - i % len(values)], values[-1 - j % len(values)]
        if kind == "unary":
            out = UNARY[name](a)
        elif kind == "binary":
            out = lib.where(a > b, a, b * 0.5) if name == "where" else BINARY[name](a, b)
        else:
            out = _reduce(name, a, dim)
        values.append(out)
    return tuple(values[len(leaves) :])


_STEP = st.one_of(
    st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), st.integers(0, 3), st.just(0), st.just(0)),
    st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, 3), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("reduce"), st.sampled_from(REDUCE), st.integers(0, 3), st.just(0), st.integers(0, 5)),
)
PROGRAMS = st.lists(_STEP, min_size=2, max_size=8)


# Hypothesis draws small integers and short lists far more often than large ones, so targets come
# from a list that is mostly multi-dimensional.
TARGETS = [(2, 3), (3, 2, 4), (2, 3, 2), (4,), (1, 3), (3, 2), (2, 1, 3), (), (3, 4)]


@st.composite
def leaf_shapes(draw):
    """One to three shapes that broadcast together: trailing dims of a target, some set to 1."""
    target = draw(st.sampled_from(TARGETS))
    shapes = []
    for _ in range(draw(st.sampled_from([2, 3, 1, 3]))):
        tail = target[draw(st.sampled_from([0, 0, 1, 2])) :]  # drop leading dims (mostly none)
        ones = [draw(st.sampled_from([False, False, False, True])) for _ in tail]  # mostly kept
        shapes.append(tuple(1 if one else s for s, one in zip(tail, ones)))
    return shapes


def _case(expr, shapes, seed: int) -> Case:
    return Case(
        id=f"property/{seed}/{shapes}/{expr}",
        fn=lambda lib, *leaves: _evaluate(lib, expr, leaves),
        inputs=[(shape, "any") for shape in shapes],
    )


# ``device`` is a plain string fixture (the same for every example), so sharing it is safe.
_HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=250, deadline=None, derandomize=True, database=None, suppress_health_check=_HEALTH)
@given(expr=PROGRAMS, shapes=leaf_shapes(), seed=st.integers(0, 2**16))
def test_random_expression_float64(expr, shapes, seed, device):
    compare(_case(expr, shapes, seed), "float64", tol=(1e-8, 1e-10), device=device)


@settings(max_examples=80, deadline=None, derandomize=True, database=None, suppress_health_check=_HEALTH)
@given(expr=PROGRAMS, shapes=leaf_shapes(), seed=st.integers(0, 2**16))
def test_random_expression_float32(expr, shapes, seed, device):
    compare(_case(expr, shapes, seed), "float32", second=False, tol=(1e-4, 1e-5), device=device)


def test_evaluator_builds_what_it_says():
    """The strategy's building blocks compute what their names promise (checked on numbers)."""
    x = torch.tensor([0.5, -2.0], dtype=torch.float64)
    assert torch.allclose(UNARY["exp_tanh"](x), x.tanh().exp())
    where = [("binary", "where", 1, 0, 0)]  # where(x > -x, x, -x * 0.5)
    assert torch.allclose(_evaluate(torch, where, [x, -x])[0], torch.tensor([0.5, 1.0], dtype=torch.float64))
    two_steps = [("unary", "neg", 0, 0, 0), ("binary", "mul", 0, 1, 0)]  # -x, then -x * x
    outputs = _evaluate(torch, two_steps, [x])
    assert len(outputs) == 2 and torch.allclose(outputs[1], -x * x)
    assert _reduce("sum", torch.ones(2, 3), 1).shape == (2, 1)
    assert _reduce("sum", torch.ones(2, 3), 3).shape == (2, 1)  # 3 % 2 = 1, odd: as -1
    assert _reduce("sum_all", torch.ones(2, 3), 0).shape == ()
