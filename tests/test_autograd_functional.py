"""``minigrad.autograd.functional`` against ``torch.autograd.functional``.

``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``vhp`` and ``hvp`` run as one snippet in both
libraries. Each result must match PyTorch's: nesting (tuples, or lists where PyTorch's forward mode
gives lists), dtypes, values, ``requires_grad`` and whether a ``grad_fn`` is recorded; with
``create_graph=True`` the second derivatives too. The caller's inputs must come back unchanged,
without ``.grad``. Errors must have PyTorch's type and key words.
"""

from __future__ import annotations

import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

# PyTorch's vectorized forward mode warns from inside torch.jit; nothing minigrad can change.
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")


def _view(t):
    """What must match in a tensor: dtype, values (and shape), requires_grad, a recorded grad_fn."""
    return (str(t.dtype), values(t), t.requires_grad, t.grad_fn is not None)


same = Oracle(_view).same

X = [[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]]
ROW = [0.5, -1.0, 2.0]
COL = [[1.0], [-2.0], [0.5]]


def _t(lib, data, requires_grad=False, dtype="float32"):
    return lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=requires_grad)


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _flat(result) -> list:
    """The tensors of a (possibly nested) result, in order."""
    if isinstance(result, tuple | list):
        return [t for r in result for t in _flat(r)]
    return [result]


def _callers_inputs(inputs):
    """The caller's tensors after the call: their values, flags, and no ``.grad`` left behind."""
    return tuple((t, t.grad is None) for t in _as_tuple(inputs))


def _weighted_sum(lib, tensors):
    """A scalar in which every element of every tensor has its own weight (for second derivatives)."""
    total = 0
    for t in tensors:
        weights = (lib.arange(t.numel(), dtype=t.dtype).reshape(t.shape) % 7 + 1) / 4
        total = total + (t * weights).sum()
    return total


def _second_derivatives(lib, result, inputs):
    """Gradients of a weighted sum of ``result`` with respect to the caller's inputs, or
    "constant" when the result does not require grad (no graph to differentiate)."""
    total = _weighted_sum(lib, _flat(result))
    if not total.requires_grad:
        return "constant"
    return lib.autograd.grad(total, _as_tuple(inputs), allow_unused=True)


# ---------------------------------------------------------------------------------------------
# the API


def test_the_module_is_exported_with_torchs_names():
    import minigrad.autograd.functional as imported

    assert minigrad.autograd.functional is imported
    assert "functional" in minigrad.autograd.__all__
    assert sorted(minigrad.autograd.functional.__all__) == sorted(torch.autograd.functional.__all__)


@pytest.mark.parametrize("name", sorted(torch.autograd.functional.__all__))
def test_signatures_and_defaults_match_torch(name):
    def signature(fn) -> list[tuple]:
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

    ours, theirs = getattr(minigrad.autograd.functional, name), getattr(torch.autograd.functional, name)
    assert signature(ours) == signature(theirs)


# ---------------------------------------------------------------------------------------------
# jacobian

# name: (lib, requires_grad) -> (func, inputs)
JACOBIANS = {
    "one input, one output": lambda lib, rg: (lambda x: x.exp() * x.sum(), _t(lib, X, rg)),
    "a scalar output": lambda lib, rg: (lambda x: (x**3).sum(), _t(lib, X, rg)),
    "a 0-d input": lambda lib, rg: (lambda x: x * lib.tensor([1.0, 2.0, 3.0]) + x * x, _t(lib, 0.5, rg)),
    "a tuple of inputs": lambda lib, rg: (lambda a, b: a * b.sum() + b[0], (_t(lib, ROW, rg), _t(lib, X[1], rg))),
    "a tuple of outputs": lambda lib, rg: (lambda x: (x.sin(), x.sum(), x[:2] * x[1:]), _t(lib, ROW, rg)),
    "tuples of both": lambda lib, rg: (lambda a, b: (a @ b, a.tanh()), (_t(lib, X, rg), _t(lib, COL, rg))),
    "a one-tuple of inputs": lambda lib, rg: (lambda x: x**2, (_t(lib, ROW, rg),)),
    "a one-tuple of outputs": lambda lib, rg: (lambda x: (x**2,), _t(lib, ROW, rg)),
    "an unused input gives zeros": lambda lib, rg: (lambda a, b: a * a, (_t(lib, ROW, rg), _t(lib, X, rg))),
    "an output independent of the input gives zeros": lambda lib, rg: (
        lambda x: (x * x, lib.ones(2)),
        _t(lib, ROW, rg),
    ),
    "the identity": lambda lib, rg: (lambda x: x, _t(lib, X, rg)),
    "a linear function": lambda lib, rg: (lambda x: 3 * x - 1, _t(lib, ROW, rg)),
    "float64": lambda lib, rg: (lambda x: x.exp().sum(1), _t(lib, X, rg, "float64")),
    "mixed dtypes: the input's dtype": lambda lib, rg: (lambda x: x.float() * 2, _t(lib, ROW, rg, "float64")),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain inputs", "inputs requiring grad"])
@pytest.mark.parametrize("vectorize", [False, True], ids=["loop", "vectorize"])
@pytest.mark.parametrize("create_graph", [False, True], ids=["detached", "create_graph"])
@pytest.mark.parametrize("case", JACOBIANS.values(), ids=JACOBIANS.keys())
def test_jacobian(case, create_graph, vectorize, requires_grad, on_device):
    def run(lib):
        func, inputs = case(lib, requires_grad)
        jac = lib.autograd.functional.jacobian(func, inputs, create_graph=create_graph, vectorize=vectorize)
        return jac, _callers_inputs(inputs)

    same(run)


@pytest.mark.parametrize("vectorize", [False, True], ids=["loop", "vectorize"])
@pytest.mark.parametrize("case", JACOBIANS.values(), ids=JACOBIANS.keys())
def test_jacobian_with_create_graph_differentiates_again(case, vectorize):
    def run(lib):
        func, inputs = case(lib, True)
        jac = lib.autograd.functional.jacobian(func, inputs, create_graph=True, vectorize=vectorize)
        return _second_derivatives(lib, jac, inputs)

    same(run)


def test_jacobian_without_create_graph_is_not_differentiable():
    """The inputs of the function are detached copies: the result records no graph."""

    def run(lib):
        x = _t(lib, ROW, True)
        jac = lib.autograd.functional.jacobian(lambda t: t**3, x)
        return jac.requires_grad, jac.grad_fn is None

    assert same(run) == (False, True)


def test_a_captured_tensor_is_a_constant():
    """``func`` gets new tensor objects: a use of the caller's tensor inside ``func`` (not through
    the argument) is not differentiated, so this is diag(x), not diag(2x)."""

    def run(lib):
        x = _t(lib, ROW, True)
        return lib.autograd.functional.jacobian(lambda t: t * x, x, create_graph=True)

    same(run)


def test_jacobian_inside_no_grad():
    def run(lib):
        x = _t(lib, ROW, True)
        with lib.no_grad():
            plain = lib.autograd.functional.jacobian(lambda t: t.sin(), x)
            graph = lib.autograd.functional.jacobian(lambda t: t.sin(), x, create_graph=True)
        return plain, graph, _second_derivatives(lib, graph, x)

    same(run)


@pytest.mark.parametrize("case", JACOBIANS.values(), ids=JACOBIANS.keys())
def test_jacobian_forward_mode(case):
    """Same values as reverse mode, in the output's dtype, in lists where PyTorch gives lists."""

    def run(lib):
        func, inputs = case(lib, False)
        jac = lib.autograd.functional.jacobian(func, inputs, vectorize=True, strategy="forward-mode")
        return jac, _callers_inputs(inputs)

    same(run)


@pytest.mark.parametrize("case", JACOBIANS.values(), ids=JACOBIANS.keys())
def test_jacobian_forward_mode_of_inputs_requiring_grad(case):
    """The values match; whether the result records a graph follows PyTorch's forward formulas
    (the Jacobian of ``3 * x - 1`` requires grad there), which minigrad has not: see below."""

    def run(lib):
        func, inputs = case(lib, True)
        jac = lib.autograd.functional.jacobian(func, inputs, vectorize=True, strategy="forward-mode")
        return jac, _callers_inputs(inputs)

    Oracle(lambda t: (str(t.dtype), values(t))).same(run)


def test_forward_mode_of_a_nonlinear_function_keeps_the_graph():
    """Derivatives that depend on inputs requiring grad are recorded, as in PyTorch, and can be
    differentiated again."""

    def run(lib):
        x, y = _t(lib, ROW, True), _t(lib, X[1], True)
        jac = lib.autograd.functional.jacobian(
            lambda a, b: (a * b, (a**3).sum()), (x, y), vectorize=True, strategy="forward-mode"
        )
        return jac, _second_derivatives(lib, jac, (x, y))

    same(run)


def test_forward_mode_gives_lists_for_a_tuple_of_inputs():
    def run(lib):
        x = _t(lib, ROW)
        jacobian = lib.autograd.functional.jacobian
        kw = dict(vectorize=True, strategy="forward-mode")
        return [
            type(jacobian(lambda a: (a, a), (x,), **kw)).__name__,
            type(jacobian(lambda a: (a, a), (x,), **kw)[0]).__name__,
            type(jacobian(lambda a: (a, a), x, **kw)).__name__,
            type(jacobian(lambda a: a, (x,), **kw)).__name__,
            type(jacobian(lambda a: (a, a), (x,))).__name__,
        ]

    assert same(run) == ["list", "list", "tuple", "list", "tuple"]


def test_an_output_without_elements():
    """Forward mode gives an empty Jacobian; reverse mode fails in stack, as PyTorch's does."""
    same(
        lambda lib: lib.autograd.functional.jacobian(
            lambda t: t[:0], _t(lib, ROW), vectorize=True, strategy="forward-mode"
        )
    )
    same_error(lambda lib: lib.autograd.functional.jacobian(lambda t: t[:0], _t(lib, ROW)), "stack expects a non-empty")


# ---------------------------------------------------------------------------------------------
# hessian

# name: (lib, requires_grad) -> (func returning one element, inputs)
HESSIANS = {
    "a cubic": lambda lib, rg: (lambda x: (x**3).sum(), _t(lib, X, rg)),
    "mixed terms": lambda lib, rg: (lambda x: (x.sin() * x[0]).sum() + x[0, 0] * x[1, 2], _t(lib, X, rg)),
    "a tuple of inputs": lambda lib, rg: (lambda a, b: (a.exp() * b).sum(), (_t(lib, ROW, rg), _t(lib, X[1], rg))),
    "a one-tuple of inputs": lambda lib, rg: (lambda x: (x**4).sum(), (_t(lib, ROW, rg),)),
    "a linear function gives zeros": lambda lib, rg: (lambda x: (2 * x).sum(), _t(lib, ROW, rg)),
    "an unused input gives zeros": lambda lib, rg: (lambda a, b: (a**3).sum(), (_t(lib, ROW, rg), _t(lib, X, rg))),
    "an output of shape (1, 1)": lambda lib, rg: (lambda x: (x.tanh() ** 2).sum().reshape(1, 1), _t(lib, ROW, rg)),
    "a 0-d input": lambda lib, rg: (lambda x: x.exp() * x, _t(lib, 0.5, rg)),
    "float64": lambda lib, rg: (lambda x: (x.sigmoid() * x).sum(), _t(lib, X, rg, "float64")),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain inputs", "inputs requiring grad"])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"create_graph": True},
        {"vectorize": True},
        {"vectorize": True, "create_graph": True},
        {"vectorize": True, "outer_jacobian_strategy": "forward-mode"},
    ],
    ids=["default", "create_graph", "vectorize", "vectorize, create_graph", "forward-mode"],
)
@pytest.mark.parametrize("case", HESSIANS.values(), ids=HESSIANS.keys())
def test_hessian(case, options, requires_grad, on_device):
    def run(lib):
        func, inputs = case(lib, requires_grad)
        return lib.autograd.functional.hessian(func, inputs, **options), _callers_inputs(inputs)

    same(run)


@pytest.mark.parametrize("case", HESSIANS.values(), ids=HESSIANS.keys())
def test_hessian_with_create_graph_differentiates_again(case):
    def run(lib):
        func, inputs = case(lib, True)
        hess = lib.autograd.functional.hessian(func, inputs, create_graph=True)
        return _second_derivatives(lib, hess, inputs)

    same(run)


# ---------------------------------------------------------------------------------------------
# vjp, jvp, vhp, hvp

# name: (lib, requires_grad) -> (function name, func, inputs, v)
PRODUCTS = {
    "vjp": lambda lib, rg: ("vjp", lambda x: x.exp() * x[0], _t(lib, X, rg), _t(lib, [[1.0, 2, 3], [-1, 0, 0.5]])),
    "vjp with tuples": lambda lib, rg: (
        "vjp",
        lambda a, b: (a * b, (a**2).sum()),
        (_t(lib, ROW, rg), _t(lib, X[1], rg)),
        (_t(lib, [1.0, -1.0, 2.0]), _t(lib, 3.0)),
    ),
    "vjp of a single element, v=None": lambda lib, rg: ("vjp", lambda x: (x**3).sum(), _t(lib, X, rg), None),
    "vjp with a one-tuple v": lambda lib, rg: ("vjp", lambda x: (x.sin(),), _t(lib, ROW, rg), (_t(lib, ROW),)),
    "vjp: an unused input gives zeros": lambda lib, rg: (
        "vjp",
        lambda a, b: a.cos(),
        (_t(lib, ROW, rg), _t(lib, X, rg)),
        _t(lib, [1.0, 1.0, 2.0]),
    ),
    "vjp of a linear function": lambda lib, rg: ("vjp", lambda x: 2 * x, _t(lib, ROW, rg), _t(lib, ROW)),
    "jvp": lambda lib, rg: ("jvp", lambda x: x.exp().sum(1), _t(lib, X, rg), _t(lib, [[1.0, 2, 3], [-1, 0, 0.5]])),
    "jvp with tuples": lambda lib, rg: (
        "jvp",
        lambda a, b: (a * b, (a**2).sum()),
        (_t(lib, ROW, rg), _t(lib, X[1], rg)),
        (_t(lib, [1.0, -1.0, 2.0]), _t(lib, [0.0, 1.0, 0.5])),
    ),
    "jvp of a 0-d input, v=None": lambda lib, rg: ("jvp", lambda x: x * lib.tensor(ROW) + x**2, _t(lib, 1.5, rg), None),
    "jvp: an output independent of the inputs gives zeros": lambda lib, rg: (
        "jvp",
        lambda x: (x**2, lib.ones(2)),
        _t(lib, ROW, rg),
        _t(lib, [1.0, 2.0, 3.0]),
    ),
    "jvp of the identity": lambda lib, rg: ("jvp", lambda x: x, _t(lib, ROW, rg), _t(lib, [1.0, 2.0, 3.0])),
    "vhp": lambda lib, rg: (
        "vhp",
        lambda x: (x**3).sum() * x[0, 0],
        _t(lib, X, rg),
        _t(lib, [[1.0, 2, 3], [-1, 0, 0.5]]),
    ),
    "vhp with tuples": lambda lib, rg: (
        "vhp",
        lambda a, b: (a.exp() * b).sum(),
        (_t(lib, ROW, rg), _t(lib, X[1], rg)),
        (_t(lib, [1.0, -1.0, 2.0]), _t(lib, [0.0, 1.0, 0.5])),
    ),
    "vhp of a 0-d input, v=None": lambda lib, rg: ("vhp", lambda x: x.sin() * x, _t(lib, 1.5, rg), None),
    "vhp of a linear function gives zeros": lambda lib, rg: (
        "vhp",
        lambda x: (2 * x).sum(),
        _t(lib, ROW, rg),
        _t(lib, ROW),
    ),
    "vhp: an unused input gives zeros": lambda lib, rg: (
        "vhp",
        lambda a, b: (a**3).sum(),
        (_t(lib, ROW, rg), _t(lib, X, rg)),
        (_t(lib, ROW), _t(lib, X)),
    ),
    "hvp": lambda lib, rg: (
        "hvp",
        lambda x: (x**3).sum() * x[0, 0],
        _t(lib, X, rg),
        _t(lib, [[1.0, 2, 3], [-1, 0, 0.5]]),
    ),
    "hvp with tuples": lambda lib, rg: (
        "hvp",
        lambda a, b: (a.exp() * b).sum(),
        (_t(lib, ROW, rg), _t(lib, X[1], rg)),
        (_t(lib, [1.0, -1.0, 2.0]), _t(lib, [0.0, 1.0, 0.5])),
    ),
    "hvp of a 0-d input, v=None": lambda lib, rg: ("hvp", lambda x: x.sin() * x, _t(lib, 1.5, rg), None),
    "hvp of a linear function gives zeros": lambda lib, rg: (
        "hvp",
        lambda x: (2 * x).sum(),
        _t(lib, ROW, rg),
        _t(lib, ROW),
    ),
    "hvp: an unused input gives zeros": lambda lib, rg: (
        "hvp",
        lambda a, b: (a**3).sum(),
        (_t(lib, ROW, rg), _t(lib, X, rg)),
        (_t(lib, ROW), _t(lib, X)),
    ),
    "hvp in float64": lambda lib, rg: (
        "hvp",
        lambda x: (x.tanh() * x).sum(),
        _t(lib, X, rg, "float64"),
        _t(lib, X, dtype="float64"),
    ),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain inputs", "inputs requiring grad"])
@pytest.mark.parametrize("create_graph", [False, True], ids=["detached", "create_graph"])
@pytest.mark.parametrize("case", PRODUCTS.values(), ids=PRODUCTS.keys())
def test_products(case, create_graph, requires_grad, on_device):
    def run(lib):
        name, func, inputs, v = case(lib, requires_grad)
        result = getattr(lib.autograd.functional, name)(func, inputs, v, create_graph=create_graph)
        return result, _callers_inputs(inputs)

    same(run)


@pytest.mark.parametrize("case", PRODUCTS.values(), ids=PRODUCTS.keys())
def test_products_with_create_graph_differentiate_again(case):
    def run(lib):
        name, func, inputs, v = case(lib, True)
        _, product = getattr(lib.autograd.functional, name)(func, inputs, v, create_graph=True)
        return _second_derivatives(lib, product, inputs)

    same(run)


def test_v_that_requires_grad_is_differentiated_with_create_graph():
    """With ``create_graph=True`` the product is also a function of ``v``."""

    def run(lib):
        x, v = _t(lib, ROW, True), _t(lib, [1.0, 2.0, -1.0], True)
        results = [
            getattr(lib.autograd.functional, n)(lambda t: (t**3).sum(), x, v, create_graph=True) for n in ("vhp", "hvp")
        ]
        results.append(lib.autograd.functional.jvp(lambda t: t**3, x, v, create_graph=True))
        results.append(lib.autograd.functional.vjp(lambda t: t**3, x, v, create_graph=True))
        return [lib.autograd.grad(_weighted_sum(lib, [r[1]]), (x, v)) for r in results]

    same(run)


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_products_inside_no_grad(name):
    """The function's graph is recorded even inside no_grad; with create_graph the product is too."""

    def run(lib):
        x = _t(lib, ROW, True)
        func = (lambda t: (t**3).sum()) if name in ("vhp", "hvp") else (lambda t: t**3)
        with lib.no_grad():
            plain = getattr(lib.autograd.functional, name)(func, x, _t(lib, ROW))
            graph = getattr(lib.autograd.functional, name)(func, x, _t(lib, ROW), create_graph=True)
        return plain, graph, _second_derivatives(lib, graph[1], x)

    same(run)


def test_hvp_equals_vhp_and_the_hessian_times_v():
    def run(lib):
        x = _t(lib, ROW, dtype="float64")
        v = _t(lib, [1.0, 2.0, -1.0], dtype="float64")
        f = lambda t: (t.sin() * t.sum()).sum()  # noqa: E731
        _, hv = lib.autograd.functional.hvp(f, x, v)
        _, vh = lib.autograd.functional.vhp(f, x, v)
        return hv, vh, lib.autograd.functional.hessian(f, x) @ v

    hv, vh, h_v = same(run)
    assert hv[1] == vh[1] == h_v[1]


# ---------------------------------------------------------------------------------------------
# strict mode


STRICT_ERRORS = {
    "jacobian: an unused input": (
        lambda lib: lib.autograd.functional.jacobian(lambda a, b: a * 2, (_t(lib, ROW), _t(lib, ROW)), strict=True),
        ["Output 0 of the user-provided function is independent of input 1", "strict mode"],
    ),
    "jacobian: an output that does not require grad": (
        lambda lib: lib.autograd.functional.jacobian(lambda x: (x * x, lib.ones(2)), _t(lib, ROW), strict=True),
        ["Output 1 of the user-provided function does not require gradients", "strict mode"],
    ),
    "jacobian: create_graph and a constant derivative": (
        lambda lib: lib.autograd.functional.jacobian(lambda x: x * 2, _t(lib, ROW), strict=True, create_graph=True),
        ["The jacobian of the user-provided function is independent of input 0", "when create_graph=True"],
    ),
    "jacobian: strict with vectorize": (
        lambda lib: lib.autograd.functional.jacobian(lambda x: x * x, _t(lib, ROW), strict=True, vectorize=True),
        ["`strict=True` and `vectorized=True` are not supported together"],
    ),
    "jacobian: strict with vectorize checks the outputs first": (
        lambda lib: lib.autograd.functional.jacobian(lambda x: lib.ones(2), _t(lib, ROW), strict=True, vectorize=True),
        ["Output 0 of the user-provided function does not require gradients"],
    ),
    "jacobian: create_graph and a constant derivative of output 1": (
        lambda lib: lib.autograd.functional.jacobian(
            lambda x: (x * x, x * 2), _t(lib, ROW), strict=True, create_graph=True
        ),
        # PyTorch names the output's index (1) as the input's; minigrad names input 0 (see below)
        ["The jacobian of the user-provided function is independent of input", "when create_graph=True"],
    ),
    "hessian: strict with vectorize": (
        lambda lib: lib.autograd.functional.hessian(lambda x: (x**3).sum(), _t(lib, ROW), strict=True, vectorize=True),
        ["`strict=True` and `vectorized=True` are not supported together"],
    ),
    "vjp: an unused input": (
        lambda lib: lib.autograd.functional.vjp(
            lambda a, b: a * 2, (_t(lib, ROW), _t(lib, ROW)), _t(lib, ROW), strict=True
        ),
        ["The output of the user-provided function is independent of input 1", "strict mode"],
    ),
    "vjp: an output that does not require grad": (
        lambda lib: lib.autograd.functional.vjp(lambda x: x.detach(), _t(lib, ROW), _t(lib, ROW), strict=True),
        ["Output 0 of the user-provided function does not require gradients"],
    ),
    "vjp: create_graph and a constant derivative": (
        lambda lib: lib.autograd.functional.vjp(
            lambda x: x * 2, _t(lib, ROW), _t(lib, ROW), strict=True, create_graph=True
        ),
        ["The jacobian of the user-provided function is independent of input 0", "when create_graph=True"],
    ),
    "jvp: an unused input": (
        lambda lib: lib.autograd.functional.jvp(
            lambda a, b: a * a, (_t(lib, ROW), _t(lib, ROW)), (_t(lib, ROW), _t(lib, ROW)), strict=True
        ),
        ["The output of the user-provided function is independent of input 1"],
    ),
    "jvp: a gradient that does not depend on the inputs (sign's is zeros)": (
        lambda lib: lib.autograd.functional.jvp(lambda x: x.sign(), _t(lib, ROW), _t(lib, ROW), strict=True),
        ["The gradient with respect to input 0 is independent of the inputs of the user-provided function"],
    ),
    "jvp: an output computed from a captured tensor only": (
        lambda lib: (
            lambda w: lib.autograd.functional.jvp(lambda x: (x * x, w * 3), _t(lib, ROW), _t(lib, ROW), strict=True)
        )(_t(lib, ROW, True)),
        ["independent of entry 1 in the grad_outputs", "double backward trick"],
    ),
    "hessian: a linear function": (
        lambda lib: lib.autograd.functional.hessian(lambda x: (x * 3).sum(), _t(lib, ROW), strict=True),
        ["While computing the hessian, found that the jacobian", "with respect to input 0", "linear function"],
    ),
    "hessian: an unused input": (
        lambda lib: lib.autograd.functional.hessian(
            lambda a, b: (a**3).sum(), (_t(lib, ROW), _t(lib, ROW)), strict=True
        ),
        ["the jacobian of the user-provided function with respect to input 1 is independent of the input"],
    ),
    "hessian: a constant": (
        lambda lib: lib.autograd.functional.hessian(lambda x: lib.tensor(1.0), _t(lib, ROW), strict=True),
        ["Output 0 of the user-provided function does not require gradients"],
    ),
    "hessian: create_graph and a quadratic (the third derivative is a constant)": (
        lambda lib: lib.autograd.functional.hessian(
            lambda x: (x * x).sum() * 2, _t(lib, ROW), strict=True, create_graph=True
        ),
        ["The jacobian of the user-provided function is independent of input 0", "when create_graph=True"],
    ),
    "vhp: a linear function": (
        lambda lib: lib.autograd.functional.vhp(lambda x: (x * 3).sum(), _t(lib, ROW), _t(lib, ROW), strict=True),
        ["While computing the hessian, found that the jacobian", "independent of the input"],
    ),
    "vhp: an unused input": (
        lambda lib: lib.autograd.functional.vhp(
            lambda a, b: (a**3).sum(), (_t(lib, ROW), _t(lib, ROW)), (_t(lib, ROW), _t(lib, ROW)), strict=True
        ),
        ["The output of the user-provided function is independent of input 1"],
    ),
    "vhp: create_graph and a quadratic": (
        lambda lib: lib.autograd.functional.vhp(
            lambda x: (x * x).sum(), _t(lib, ROW), _t(lib, ROW), strict=True, create_graph=True
        ),
        ["The hessian of the user-provided function is independent of input 0", "when create_graph=True"],
    ),
    "hvp: a linear function": (
        lambda lib: lib.autograd.functional.hvp(lambda x: (x * 3).sum(), _t(lib, ROW), _t(lib, ROW), strict=True),
        ["While computing the hessian, found that the jacobian", "independent of the input"],
    ),
    "hvp: create_graph and a quadratic": (
        lambda lib: lib.autograd.functional.hvp(
            lambda x: (x * x).sum(), _t(lib, ROW), _t(lib, ROW), strict=True, create_graph=True
        ),
        ["The hessian of the user-provided function is independent of input 0", "when create_graph=True"],
    ),
}


@pytest.mark.parametrize("case", STRICT_ERRORS.values(), ids=STRICT_ERRORS.keys())
def test_strict_errors(case):
    snippet, words = case
    error = same_error(snippet, *words)
    assert isinstance(error, RuntimeError)


def test_strict_names_the_input_whose_jacobian_is_constant():
    """Where PyTorch's message gives the output's index in place of the input's, minigrad's names the input."""
    func = lambda x, y: (x * y, y * y + x * 2)  # noqa: E731 - output 1's derivative in x is constant
    inputs = (_t(minigrad, ROW), _t(minigrad, ROW))
    with pytest.raises(RuntimeError, match="independent of input 0. This is not allowed in strict mode when"):
        minigrad.autograd.functional.jacobian(func, inputs, strict=True, create_graph=True)


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_strict_passes_where_everything_depends_on_everything(name):
    def run(lib):
        x = _t(lib, ROW, True)
        func = (lambda t: (t**3).sum()) if name in ("vhp", "hvp") else (lambda t: t**3)
        return getattr(lib.autograd.functional, name)(func, x, _t(lib, ROW), strict=True, create_graph=True)

    same(run)
    same(lambda lib: lib.autograd.functional.jacobian(lambda t: t**3, _t(lib, ROW), strict=True, create_graph=True))
    same(
        lambda lib: lib.autograd.functional.hessian(
            lambda t: (t**3).sum(), _t(lib, ROW), strict=True, create_graph=True
        )
    )


# ---------------------------------------------------------------------------------------------
# other errors

ERRORS = {
    "inputs as a list": (
        lambda lib: lib.autograd.functional.jacobian(lambda t: t, [_t(lib, ROW)]),
        TypeError,
        ["The inputs given to jacobian must be either a Tensor or a tuple of Tensors", "has type <class 'list'>"],
    ),
    "a number among the inputs": (
        lambda lib: lib.autograd.functional.vjp(lambda a, b: a, (_t(lib, ROW), 2.0), _t(lib, ROW)),
        TypeError,
        ["The inputs given to vjp", "the value at index 1 has type <class 'float'>"],
    ),
    "jacobian of a function returning a number": (
        lambda lib: lib.autograd.functional.jacobian(lambda t: 3.0, _t(lib, ROW)),
        TypeError,
        ["The outputs of the user-provided function given to jacobian must be either a Tensor or a tuple of Tensors"],
    ),
    "vjp of a function returning a list": (
        lambda lib: lib.autograd.functional.vjp(lambda t: [t], _t(lib, ROW), _t(lib, ROW)),
        TypeError,
        ["The outputs of the user-provided function given to vjp", "has type <class 'list'>"],
    ),
    "jvp of a function returning a tuple holding a number": (
        lambda lib: lib.autograd.functional.jvp(lambda t: (t, 1), _t(lib, ROW), _t(lib, ROW)),
        TypeError,
        ["given to jvp", "the value at index 1 has type <class 'int'>"],
    ),
    "hessian of a function returning a number": (
        lambda lib: lib.autograd.functional.hessian(lambda t: 1.0, _t(lib, ROW)),
        TypeError,
        ["The outputs of the user-provided function given to hessian"],
    ),
    "hessian of a vector": (
        lambda lib: lib.autograd.functional.hessian(lambda t: t**2, _t(lib, ROW)),
        RuntimeError,
        ["The Tensor returned by the function given to hessian should contain a single element"],
    ),
    "hessian of a tuple": (
        lambda lib: lib.autograd.functional.hessian(lambda t: ((t**2).sum(),), _t(lib, ROW)),
        RuntimeError,
        ["The function given to hessian should return a single Tensor"],
    ),
    "vhp of a vector": (
        lambda lib: lib.autograd.functional.vhp(lambda t: t**2, _t(lib, ROW), _t(lib, ROW)),
        RuntimeError,
        ["The Tensor returned by the function given to vhp should contain a single element"],
    ),
    "hvp of a tuple": (
        lambda lib: lib.autograd.functional.hvp(lambda t: ((t**2).sum(),), _t(lib, ROW), _t(lib, ROW)),
        RuntimeError,
        ["The function given to hvp should return a single Tensor"],
    ),
    "vjp: v of the wrong shape": (
        lambda lib: lib.autograd.functional.vjp(lambda t: t**2, _t(lib, ROW), lib.ones(4)),
        RuntimeError,
        ["v has invalid size: should be torch.Size([3]) but got torch.Size([4])"],
    ),
    "jvp: v of the wrong shape in a tuple": (
        lambda lib: lib.autograd.functional.jvp(
            lambda a, b: a * b, (_t(lib, ROW), _t(lib, ROW)), (lib.ones(3), lib.ones(3, 1))
        ),
        RuntimeError,
        ["Entry 1 in v has invalid size: should be torch.Size([3]) but got torch.Size([3, 1])"],
    ),
    "hvp: v of the wrong shape": (
        lambda lib: lib.autograd.functional.hvp(lambda t: (t**3).sum(), _t(lib, ROW), lib.ones(2)),
        RuntimeError,
        ["v has invalid size"],
    ),
    "vjp: a tuple v of the wrong length": (
        lambda lib: lib.autograd.functional.vjp(lambda t: (t, t), _t(lib, ROW), (lib.ones(3),)),
        RuntimeError,
        ["v is a tuple of invalid length: should be 2 but got 1"],
    ),
    "vhp: two v for one input": (
        lambda lib: lib.autograd.functional.vhp(lambda t: (t**3).sum(), _t(lib, ROW), (lib.ones(3), lib.ones(3))),
        RuntimeError,
        ["The given v should contain a single Tensor"],
    ),
    "vjp: v as a list": (
        lambda lib: lib.autograd.functional.vjp(lambda t: t, _t(lib, ROW), [lib.ones(3)]),
        TypeError,
        ["The v given to vjp must be either a Tensor or a tuple of Tensors"],
    ),
    "vjp: v=None for an output of several elements": (
        lambda lib: lib.autograd.functional.vjp(lambda t: t**2, _t(lib, ROW)),
        RuntimeError,
        ["The vector v can only be None if the user-provided function returns a single Tensor with a single element"],
    ),
    "vjp: v=None for two outputs of one element": (
        lambda lib: lib.autograd.functional.vjp(lambda t: (t.sum(), t.sum()), _t(lib, ROW)),
        RuntimeError,
        ["The vector v can only be None"],
    ),
    "jvp: v=None for an input of several elements": (
        lambda lib: lib.autograd.functional.jvp(lambda t: t.sum(), _t(lib, ROW)),
        RuntimeError,
        [
            "The vector v can only be None if the input to the user-provided function is a single Tensor with a single element"
        ],
    ),
    "vhp: v=None for two inputs": (
        lambda lib: lib.autograd.functional.vhp(lambda a, b: a * b, (_t(lib, 1.0), _t(lib, 2.0))),
        RuntimeError,
        ["The vector v can only be None if the input"],
    ),
    "hvp: v=None for an input of several elements": (
        lambda lib: lib.autograd.functional.hvp(lambda t: (t**3).sum(), _t(lib, ROW)),
        RuntimeError,
        ["The vector v can only be None"],
    ),
    "an unknown strategy": (
        lambda lib: lib.autograd.functional.jacobian(lambda t: t, _t(lib, ROW), strategy="forward"),
        AssertionError,
        ['Expected strategy to be either "forward-mode" or "reverse-mode"', "Hint"],
    ),
    "an unknown outer strategy": (
        lambda lib: lib.autograd.functional.hessian(lambda t: t.sum(), _t(lib, ROW), outer_jacobian_strategy="fwd"),
        AssertionError,
        ['Expected strategy to be either "forward-mode" or "reverse-mode".'],
    ),
    "forward mode without vectorize": (
        lambda lib: lib.autograd.functional.jacobian(lambda t: t, _t(lib, ROW), strategy="forward-mode"),
        NotImplementedError,
        ["only implemented for `vectorize=True`"],
    ),
    "forward mode with create_graph": (
        lambda lib: lib.autograd.functional.jacobian(
            lambda t: t, _t(lib, ROW), create_graph=True, vectorize=True, strategy="forward-mode"
        ),
        NotImplementedError,
        ['`create_graph=True` and `strategy="forward-mode"` are not supported together'],
    ),
    "forward mode with strict": (
        lambda lib: lib.autograd.functional.jacobian(
            lambda t: t, _t(lib, ROW), strict=True, vectorize=True, strategy="forward-mode"
        ),
        RuntimeError,
        ['`strict=True` and `strategy="forward-mode"` are not supported together'],
    ),
    "forward-over-reverse hessian without vectorize": (
        lambda lib: lib.autograd.functional.hessian(
            lambda t: t.sum(), _t(lib, ROW), outer_jacobian_strategy="forward-mode"
        ),
        NotImplementedError,
        ["only implemented for `vectorize=True`"],
    ),
    "forward-over-reverse hessian with create_graph": (
        lambda lib: lib.autograd.functional.hessian(
            lambda t: t.sum(), _t(lib, ROW), create_graph=True, vectorize=True, outer_jacobian_strategy="forward-mode"
        ),
        NotImplementedError,
        ["`create_graph=True`"],
    ),
    "integer inputs": (
        lambda lib: lib.autograd.functional.jacobian(lambda t: t * t, lib.tensor([1, 2])),
        RuntimeError,
        ["only Tensors of floating point dtype can require gradients"],
    ),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors(case):
    snippet, kind, words = case
    error = same_error(snippet, *words)
    assert type(error) is kind


# ---------------------------------------------------------------------------------------------
# Properties: random compositions of elementwise operations

UNARY = {
    "sin": lambda x: x.sin(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "square": lambda x: x * x,
    "exp_tanh": lambda x: x.tanh().exp(),
    "log1p_square": lambda x: (x * x + 1).log(),
    "reciprocal": lambda x: 1 / (x * x + 1),
    "scale": lambda x: x * 0.5 - 1,
}
BINARY = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "sub": lambda a, b: a - b,
}

_values = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=32)


@st.composite
def _programs(draw):
    """Two inputs of the same length, and a chain of steps each combining the latest value with
    an earlier one (or changing it alone)."""
    n = draw(st.integers(1, 4))
    a = draw(st.lists(_values, min_size=n, max_size=n))
    b = draw(st.lists(_values, min_size=n, max_size=n))
    steps = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), st.integers(0, 10)),
                st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, 10)),
            ),
            min_size=1,
            max_size=5,
        )
    )
    return a, b, steps


def _program_func(steps):
    def func(a, b):
        seen = [a, b]
        for kind, name, other in steps:
            x = seen[-1]
            seen.append(UNARY[name](x) if kind == "unary" else BINARY[name](x, seen[other % len(seen)]))
        return seen[-1]

    return func


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_programs())
def test_jacobian_and_jvp_of_random_programs(program):
    a, b, steps = program
    func = _program_func(steps)

    def run(lib):
        inputs = (_t(lib, a, dtype="float64"), _t(lib, b, dtype="float64"))
        F = lib.autograd.functional
        v = (lib.ones_like(inputs[0]), inputs[1] * 0.5)
        return (
            F.jacobian(func, inputs),
            F.jacobian(func, inputs, create_graph=True, vectorize=True),
            F.jvp(func, inputs, v),
            F.vjp(func, inputs, inputs[0].cos()),
        )

    same(run)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_programs())
def test_hessian_and_hvp_of_random_programs(program):
    a, b, steps = program
    func = _program_func(steps)
    scalar = lambda x, y: func(x, y).sum()  # noqa: E731

    def run(lib):
        inputs = (_t(lib, a, True, "float64"), _t(lib, b, True, "float64"))
        F = lib.autograd.functional
        v = (inputs[0].detach().sin(), lib.ones_like(inputs[1]))
        hess = F.hessian(scalar, inputs, create_graph=True)
        return hess, F.hvp(scalar, inputs, v), F.vhp(scalar, inputs, v), _second_derivatives(lib, hess, inputs)

    same(run)
