"""More elementwise math against PyTorch: inverse trigonometric and hyperbolic functions, atan2,
hypot, log2, log10, exp2, logaddexp(2), xlogy, lerp, addcmul, addcdiv, frac, fmax, fmin,
nan_to_num, logit, sinc, deg2rad, rad2deg, float_power, heaviside, logical_xor and sgn.

Values, gradients, second derivatives, broadcasting and gradcheck of each are in the case table
(the ``math_`` cases of helpers_torch.py). Here: errors, edge values (and their gradients), type
promotion, graphs, saved values, in-place versions and which names exist.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same


def _negative_zeros(t) -> list:
    """Where ``t`` holds -0.0 (which values() does not tell from 0.0)."""
    a = t.detach().cpu().numpy().astype(np.float64)
    return (np.signbit(a) & (a == 0)).tolist()


# For edge values the signs of zeros count too (NaN, inf and -inf already do in values()).
exactly = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), _negative_zeros(t))).same

UNARY = (
    "asin acos atan sinh cosh asinh acosh atanh arcsin arccos arctan arcsinh arccosh arctanh log2 log10 exp2 frac "
    "sinc deg2rad rad2deg sgn logit nan_to_num"
).split()
BINARY = "atan2 arctan2 hypot logaddexp logaddexp2 xlogy fmax fmin float_power heaviside logical_xor".split()
TERNARY = "lerp addcmul addcdiv".split()
NAN, INF = math.nan, math.inf


def _grads(lib, fn, *rows, dtype=None, upstream=None):
    """``fn(lib, *leaves)`` on leaves made of ``rows`` (float64 unless ``dtype``), and its gradient
    for each leaf (for ``upstream``, ones by default)."""
    leaves = [lib.tensor(r, dtype=dtype or lib.float64, requires_grad=True) for r in rows]
    out = fn(lib, *leaves)
    grad = lib.ones_like(out) if upstream is None else lib.tensor(upstream, dtype=out.dtype)
    return (out, *[_materialized(g) for g in lib.autograd.grad(out, leaves, grad)])


def _materialized(t):
    """``t``, or real zeros for PyTorch's symbolic zero tensor (sgn's gradient), which has no values."""
    return torch.zeros_like(t) if isinstance(t, torch.Tensor) and t._is_zerotensor() else t


# ----------------------------------------------------------------------------------------------
# Names
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", UNARY + BINARY + TERNARY)
def test_function_method_and_inplace_method_exist_as_in_torch(name):
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name)
    assert hasattr(minigrad.Tensor, name + "_") == hasattr(torch.Tensor, name + "_"), name + "_"


def test_the_functions_are_exported():
    for name in UNARY + BINARY + TERNARY:
        assert name in minigrad.functions.__all__, name


# ----------------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------------


def _f(lib, values=(0.5, -0.25, 2.0), dtype=None):
    return lib.tensor(list(values), dtype=dtype)


ERRORS = {
    "atan2 with a number": (
        lambda lib: lib.atan2(_f(lib), 2.0),
        "argument 'other' (position 2) must be Tensor, not float",
    ),
    "atan2 with a number first": (
        lambda lib: lib.atan2(2.0, _f(lib)),
        "argument 'input' (position 1) must be Tensor, not float",
    ),
    "arctan2 of shapes that do not broadcast": (
        lambda lib: lib.arctan2(_f(lib), lib.ones(2)),
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    "hypot of integers": (
        lambda lib: lib.hypot(lib.tensor([3]), lib.tensor([4])),
        "\"hypot_cpu\" not implemented for 'Long'",
    ),
    "hypot of bools": (lambda lib: lib.hypot(lib.tensor([True]), lib.tensor([False])), "not implemented for 'Bool'"),
    "hypot of int32 and int64": (
        lambda lib: lib.hypot(_f(lib, [1], lib.int32), lib.tensor([4])),
        "not implemented for 'Long'",
    ),
    "hypot with a number": (lambda lib: lib.hypot(_f(lib), 1), "argument 'other' (position 2) must be Tensor, not int"),
    "hypot of shapes that do not broadcast, integers": (
        lambda lib: lib.hypot(lib.ones(3, dtype=lib.long), lib.ones(2, dtype=lib.long)),
        "The size of tensor a (3) must match the size of tensor b (2)",
    ),
    "logaddexp of integers": (
        lambda lib: lib.logaddexp(lib.tensor([1]), lib.tensor([2])),
        "\"logaddexp_cpu\" not implemented for 'Long'",
    ),
    "logaddexp2 of integers": (
        lambda lib: lib.logaddexp2(lib.tensor([1]), lib.tensor([2])),
        "\"logaddexp2_cpu\" not implemented for 'Long'",
    ),
    "logaddexp with a number": (lambda lib: lib.logaddexp(_f(lib), 0.0), "must be Tensor, not float"),
    "fmax with a number": (lambda lib: lib.fmax(_f(lib), 0), "argument 'other' (position 2) must be Tensor, not int"),
    "fmin with a number first": (
        lambda lib: lib.fmin(1.0, _f(lib)),
        "argument 'input' (position 1) must be Tensor, not float",
    ),
    "fmax of shapes that do not broadcast": (
        lambda lib: lib.fmax(_f(lib), lib.ones(2)),
        "must match the size of tensor b (2)",
    ),
    "frac of integers": (lambda lib: lib.frac(lib.tensor([1, 2])), "\"frac_cpu\" not implemented for 'Long'"),
    "frac of bools": (lambda lib: lib.tensor([True]).frac(), "\"frac_cpu\" not implemented for 'Bool'"),
    "lerp of float and double": (
        lambda lib: lib.lerp(_f(lib), _f(lib, dtype=lib.float64), 0.5),
        "expected dtype float for `end` but got dtype double",
    ),
    "lerp to a 0-d end of another dtype": (
        lambda lib: lib.lerp(_f(lib), lib.tensor(1.0, dtype=lib.float64), 0.5),
        "expected dtype float for `end` but got dtype double",
    ),
    "lerp to bools": (
        lambda lib: lib.lerp(_f(lib), lib.ones(3, dtype=lib.bool), 0.5),
        "expected dtype float for `end` but got dtype bool",
    ),
    "lerp to halves": (lambda lib: lib.lerp(_f(lib), _f(lib).half(), 0.5), "got dtype c10::Half"),
    "lerp with an integer weight tensor": (
        lambda lib: lib.lerp(_f(lib), _f(lib), lib.tensor([1, 1, 1])),
        "expected dtype float for `weight` but got dtype long int",
    ),
    "lerp of integers": (
        lambda lib: lib.lerp(lib.tensor([1, 2]), lib.tensor([3, 4]), 0.5),
        "\"lerp_kernel_scalar\" not implemented for 'Long'",
    ),
    "lerp of integers with a tensor weight": (
        lambda lib: lib.lerp(lib.tensor([1, 2]), lib.tensor([3, 4]), lib.tensor([1, 2])),
        "\"lerp_kernel_tensor\" not implemented for 'Long'",
    ),
    "lerp of bools": (
        lambda lib: lib.lerp(lib.tensor([True]), lib.tensor([False]), 0.5),
        "\"lerp_kernel_scalar\" not implemented for 'Bool'",
    ),
    "lerp to a number": (
        lambda lib: lib.lerp(_f(lib), 2.0, 0.5),
        "lerp() received an invalid combination of arguments",
    ),
    "lerp of a list": (
        lambda lib: lib.lerp([0.5], _f(lib), 0.5),
        "received an invalid combination of arguments - got (list",
    ),
    "lerp with a weight that is not a number": (
        lambda lib: lib.lerp(_f(lib), _f(lib), "a"),
        "got (Tensor, Tensor, str)",
    ),
    "lerp of integers that do not broadcast": (
        lambda lib: lib.lerp(lib.ones(3, dtype=lib.long), lib.ones(2, dtype=lib.long), 0.5),
        "The size of tensor a (3) must match the size of tensor b (2)",
    ),
    "addcmul of bools": (
        lambda lib: lib.addcmul(lib.tensor([True]), lib.tensor([True]), lib.tensor([False])),
        "\"addcmul_cpu_out\" not implemented for 'Bool'",
    ),
    "addcmul with a number": (
        lambda lib: lib.addcmul(_f(lib), _f(lib), 2.0),
        "addcmul(): argument 'tensor2' (position 3) must be Tensor, not float",
    ),
    "addcmul with a value that is not a number": (
        lambda lib: lib.addcmul(_f(lib), _f(lib), _f(lib), value="a"),
        "addcmul(): argument 'value' must be Number, not str",
    ),
    "addcmul of shapes that do not broadcast": (
        lambda lib: lib.addcmul(lib.ones(3), lib.ones(2), lib.ones(3)),
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    "addcdiv of integers": (
        lambda lib: lib.addcdiv(_f(lib), lib.tensor([1, 2, 3]), lib.tensor([1, 2, 3])),
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform",
    ),
    "addcdiv of bools and integers, before broadcasting": (
        lambda lib: lib.addcdiv(lib.ones(3), lib.ones(2, dtype=lib.bool), lib.ones(3, dtype=lib.long)),
        "(input + value * tensor1 / tensor2), for all dtypes.",
    ),
    "addcdiv with a list": (
        lambda lib: lib.addcdiv([1.0], _f(lib), _f(lib)),
        "argument 'input' (position 1) must be Tensor",
    ),
    "xlogy of two numbers": (
        lambda lib: lib.xlogy(2.0, 3.0),
        "xlogy() received an invalid combination of arguments - got (float, float)",
    ),
    "xlogy with a list": (lambda lib: lib.xlogy(_f(lib), [1.0]), "got (Tensor, list)"),
    "xlogy of shapes that do not broadcast": (
        lambda lib: lib.xlogy(_f(lib), lib.ones(2)),
        "must match the size of tensor b (2)",
    ),
    "float_power of two numbers": (
        lambda lib: lib.float_power(2, 2),
        "float_power() received an invalid combination of arguments - got (int, int)",
    ),
    "float_power with a list": (lambda lib: lib.float_power(_f(lib), [1.0]), "got (Tensor, list)"),
    "float_power_ of float32": (
        lambda lib: _f(lib).float_power_(2),
        "the base given to float_power_ has dtype Float but the operation's result requires dtype Double",
    ),
    "float_power_ of integers": (lambda lib: lib.tensor([2]).float_power_(2), "has dtype Long but"),
    "heaviside of two dtypes": (
        lambda lib: lib.heaviside(_f(lib), lib.tensor(0.5, dtype=lib.float64)),
        "heaviside is not yet implemented for tensors with different dtypes.",
    ),
    "heaviside of two dtypes, before broadcasting": (
        lambda lib: lib.heaviside(lib.ones(3), lib.ones(2, dtype=lib.float64)),
        "heaviside is not yet implemented for tensors with different dtypes.",
    ),
    "heaviside with a number": (
        lambda lib: lib.heaviside(_f(lib), 0.5),
        "heaviside(): argument 'values' (position 2) must be Tensor, not float",
    ),
    "heaviside of shapes that do not broadcast": (
        lambda lib: lib.heaviside(_f(lib), lib.ones(2)),
        "must match the size",
    ),
    "logical_xor with a number": (
        lambda lib: lib.logical_xor(_f(lib), 1.0),
        "logical_xor(): argument 'other' (position 2) must be Tensor, not float",
    ),
    "logical_xor of shapes that do not broadcast": (lambda lib: lib.logical_xor(_f(lib), lib.ones(2)), "must match"),
    "lerp_ that would change the shape": (
        lambda lib: _f(lib).lerp_(lib.ones(2, 3), 0.5),
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
    ),
    "addcmul_ that would change the shape": (
        lambda lib: _f(lib).addcmul_(lib.ones(2, 1), _f(lib)),
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
    ),
    "atan2_ into integers": (
        lambda lib: lib.tensor([1, 2]).atan2_(lib.tensor([1.0, 2.0])),
        "result type Float can't be cast to the desired output type Long",
    ),
    "xlogy_ into integers": (lambda lib: lib.tensor([1, 2]).xlogy_(2), "result type Float can't be cast"),
    "heaviside_ of a leaf that requires grad": (
        lambda lib: _f(lib).requires_grad_().heaviside_(_f(lib)),
        "a leaf Variable that requires grad is being used in an in-place operation",
    ),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


@pytest.mark.parametrize("name", UNARY)
def test_unary_of_a_list_fails_in_both(name):
    alias = name.startswith("arc")  # minigrad's aliases (arcsin = asin) name the function they are
    words = ["argument 'input'", "must be Tensor, not list"] + ([] if alias else [f"{name}(): "])
    same_error(lambda lib: getattr(lib, name)([0.5]), *words)


@pytest.mark.parametrize("name", [n for n in UNARY if n not in ("sgn", "nan_to_num", "frac")])
def test_unary_in_place_into_integers_fails_in_both(name):
    same_error(
        lambda lib: getattr(lib.tensor([1, 2]), name + "_")(),
        "result type Float can't be cast to the desired output type Long",
    )


@pytest.mark.parametrize("name", [n for n in BINARY if n not in ("float_power",)])
def test_binary_with_a_list_fails_in_both(name):
    same_error(lambda lib: getattr(lib, name)(_f(lib), [1.0, 2.0, 3.0]), "list")


@pytest.mark.parametrize("name", ["asinh", "acosh", "atanh", "arcsinh"])
def test_backward_through_asinh_acosh_atanh_in_place_raises_as_in_torch(name):
    """PyTorch records asinh_, acosh_ and atanh_ (AsinhBackward1, ...) but cannot differentiate them."""

    def run(lib):
        x = lib.tensor([1.5, 0.5], requires_grad=True)
        y = x * 0.5 + (1 if "cosh" in name else 0)
        getattr(y, name + "_")()
        assert y.grad_fn.name().endswith("Backward1")
        y.sum().backward()

    same_error(run, "the derivative for 'inplace version of", "' is not implemented.")


@pytest.mark.parametrize("which", ["input", "values", "both"])
def test_backward_through_heaviside_raises_as_in_torch(which):
    def run(lib):
        x = lib.tensor([-1.0, 0.0, 2.0], requires_grad=which != "values")
        v = lib.tensor([0.5], requires_grad=which != "input")
        out = lib.heaviside(x, v)
        assert out.requires_grad and node_names(out)[0] == "NotImplemented"
        (out * 2).sum().backward()

    same_error(run, "derivative for aten::heaviside is not implemented")


@pytest.mark.parametrize("name", ["asin", "log2", "sinc", "logit", "nan_to_num", "exp2", "sgn"])
def test_changing_a_saved_tensor_breaks_backward_in_both(name):
    def run(lib):
        x = lib.tensor([0.25, 0.5], requires_grad=True)
        y = x * 1
        out = getattr(y, name)()
        (out if name == "exp2" else y).mul_(2)  # exp2 saves its result, the others their input
        out.sum().backward()

    same_error(run, "modified by an inplace operation")


@pytest.mark.parametrize("name", ["frac", "deg2rad", "rad2deg", "addcmul_self", "lerp_number"])
def test_changing_an_unsaved_tensor_is_fine_in_both(name):
    def run(lib):
        x = lib.tensor([0.25, 1.5], requires_grad=True)
        y = x * 1
        if name == "addcmul_self":
            out = lib.addcmul(y, x, x)
        elif name == "lerp_number":
            out = lib.lerp(y, x, 0.25)
        else:
            out = getattr(y, name)()
        y.mul_(2)
        out.sum().backward()
        return out, x.grad

    same(run)


# ----------------------------------------------------------------------------------------------
# Edge values and their gradients
# ----------------------------------------------------------------------------------------------

EDGES = {
    # xlogy is 0 where x is 0, also at y = 0 or inf; NaN wherever y is NaN.
    "xlogy": (
        lambda lib, x, y: lib.xlogy(x, y),
        [0.0, 0.0, 1.0, 0.0, 2.0, NAN, 0.0, -0.0, -1.0],
        [0.0, 2.0, 0.0, NAN, -1.0, 1.0, INF, 0.0, INF],
    ),
    "xlogy of a number other, 2": (lambda lib, x: lib.xlogy(x, 2.0), [0.0, 1.0, -1.0]),
    "xlogy of a number other, 0": (lambda lib, x: lib.xlogy(x, 0), [0.0, 1.0, -1.0]),
    "xlogy of a number other, -1": (lambda lib, x: lib.xlogy(x, -1.0), [0.0, 1.0, -1.0]),
    "xlogy of a number other, nan": (lambda lib, x: lib.xlogy(x, NAN), [0.0, 1.0, -1.0]),
    "xlogy of a number self, 2": (lambda lib, y: lib.xlogy(2.0, y), [0.0, 1.0, -1.0, 2.0, NAN]),
    "xlogy of a number self, 0": (lambda lib, y: lib.xlogy(0.0, y), [0.0, 1.0, -1.0, 2.0, NAN]),
    "xlogy of a number self, -1": (lambda lib, y: lib.xlogy(-1, y), [0.0, 1.0, -1.0, 2.0]),
    # atan2 at the origin: the angle depends on the signs of the zeros; the gradient is 0, not NaN.
    "atan2 at zeros": (
        lambda lib, y, x: lib.atan2(y, x),
        [0.0, 0.0, -0.0, -0.0, 1.0, INF, 1.0, 1e-200, 0.0],
        [0.0, -0.0, 0.0, -0.0, 0.0, 1.0, INF, 1e-200, -1.0],
    ),
    "hypot at zeros": (lambda lib, x, y: lib.hypot(x, y), [0.0, 0.0, -0.0, 3.0, INF], [0.0, 4.0, -1.0, 0.0, NAN]),
    "logaddexp of infinities": (
        lambda lib, x, y: lib.logaddexp(x, y),
        [-INF, INF, -INF, 1000.0, 0.0, -1000.0],
        [-INF, INF, 1.0, 1000.0, 0.0, 5.0],
    ),
    "logaddexp2 of infinities": (
        lambda lib, x, y: lib.logaddexp2(x, y),
        [-INF, INF, -INF, 1000.0, 0.0, -1000.0],
        [-INF, INF, 1.0, 1000.0, 0.0, 5.0],
    ),
    # logit: NaN outside [0, 1] without eps; clamped (gradient 0 outside) with it.
    "logit": (lambda lib, x: lib.logit(x), [-0.5, 0.0, 0.05, 0.3, 0.95, 1.0, 1.5, NAN]),
    "logit with eps": (lambda lib, x: lib.logit(x, 0.1), [-0.5, 0.0, 0.05, 0.3, 0.95, 1.0, 1.5, NAN]),
    "logit with eps 0": (lambda lib, x: lib.logit(x, eps=0), [-0.5, 0.0, 0.05, 0.3, 0.95, 1.0, 1.5, NAN]),
    "logit with a negative eps (none)": (lambda lib, x: x.logit(-1.0), [-0.5, 0.0, 0.3, 1.0, 1.5]),
    "logit with eps above one half": (lambda lib, x: x.logit(0.6), [-0.5, 0.0, 0.3, 1.0, 1.5]),
    "nan_to_num": (lambda lib, x: lib.nan_to_num(x), [NAN, INF, -INF, 1.5, -0.0]),
    "nan_to_num with values": (lambda lib, x: lib.nan_to_num(x, 1.0, 2.0, -3.0), [NAN, INF, -INF, 1.5]),
    "nan_to_num with posinf only": (lambda lib, x: x.nan_to_num(posinf=9), [NAN, INF, -INF, 1.5]),
    "fmax with NaN": (lambda lib, x, y: lib.fmax(x, y), [1.0, 2.0, NAN, 3.0, NAN, 1.0], [2.0, 1.0, 1.0, NAN, NAN, 1.0]),
    "fmin with NaN": (lambda lib, x, y: lib.fmin(x, y), [1.0, 2.0, NAN, 3.0, NAN, 1.0], [2.0, 1.0, 1.0, NAN, NAN, 1.0]),
    "sinc": (lambda lib, x: lib.sinc(x), [0.0, -0.0, 1e-200, 0.5, 1.0, -2.5, INF, NAN]),
    "frac": (lambda lib, x: lib.frac(x), [-2.5, 3.75, INF, -INF, -0.0, 1e20, NAN]),
    "sgn": (lambda lib, x: lib.sgn(x), [-2.0, 0.0, 3.0, NAN, -0.0, INF]),
    "asin and acos outside [-1, 1]": (lambda lib, x: lib.asin(x) + lib.acos(x), [-1.0, 1.0, 1.5, -2.0, 0.0]),
    "atanh at and beyond one": (lambda lib, x: lib.atanh(x), [-1.0, 1.0, 1.5, 0.0]),
    "acosh at and below one": (lambda lib, x: lib.acosh(x), [1.0, 0.5, 2.0, INF]),
    "asinh and atan of infinities": (lambda lib, x: lib.asinh(x) * lib.atan(x), [INF, -INF, 0.0]),
    "sinh and cosh of large values": (lambda lib, x: lib.sinh(x) + lib.cosh(x), [800.0, -800.0, 0.0]),
    "log2 and log10 at zero and below": (lambda lib, x: lib.log2(x) + lib.log10(x), [0.0, -1.0, 1.0, 1024.0, INF]),
    "exp2 of large values": (lambda lib, x: lib.exp2(x), [1024.0, -1080.0, 0.5, -INF]),
    "deg2rad and rad2deg": (lambda lib, x: lib.deg2rad(x) * lib.rad2deg(x), [180.0, -90.0, 0.0, INF]),
    "lerp at the ends": (lambda lib, x, y: lib.lerp(x, y, 1.0) + lib.lerp(x, y, 0), [1e16, -3.0], [1.0, 1e-16]),
    "lerp beyond the ends": (lambda lib, x, y: lib.lerp(x, y, -1) * lib.lerp(x, y, 2.5), [1.0, -3.0], [4.0, 2.0]),
    "lerp with weights on both sides of a half": (
        lambda lib, x, y, w: lib.lerp(x, y, w),
        [1.0, 1.0, 1.0, 1.0],
        [3.0, 3.0, 3.0, 3.0],
        [0.49, 0.5, -0.5, NAN],
    ),
    "addcdiv by zero": (lambda lib, x, a, b: lib.addcdiv(x, a, b), [1.0, 1.0, 1.0], [1.0, 0.0, -1.0], [0.0, 0.0, 0.0]),
    "addcmul of infinities": (lambda lib, x, a, b: lib.addcmul(x, a, b, value=2), [INF, 1.0], [0.0, INF], [INF, 0.0]),
    "float_power of zero": (lambda lib, x, y: lib.float_power(x, y), [0.0, 0.0, 0.0, -8.0], [0.0, -1.0, 2.0, 1 / 3]),
}


@pytest.mark.parametrize("name", EDGES)
def test_edge_values_and_gradients_match_torch(name):
    fn, *rows = EDGES[name]
    exactly(lambda lib: _grads(lib, fn, *rows))


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_nan_to_num_defaults_are_the_dtype_limits(dtype):
    def run(lib):
        x = lib.tensor([NAN, INF, -INF, 1.5], dtype=getattr(lib, dtype))
        return lib.nan_to_num(x), lib.nan_to_num(x, nan=1e6), x.nan_to_num(neginf=-1e30), x.clone().nan_to_num_()

    exactly(run)


def test_logit_gradients_with_create_graph_match_torch_inside_the_domain():
    """PyTorch computes logit's gradient another way with create_graph=True; they agree, except
    at NaN inputs with eps (see the README)."""

    def run(lib):
        x = lib.tensor([-0.5, 0.0, 0.05, 0.3, 0.95, 1.0, 1.5], dtype=lib.float64, requires_grad=True)
        grads = [lib.autograd.grad(lib.logit(x, eps).sum(), x, create_graph=True)[0] for eps in (None, 0.1, 0.0)]
        second = [lib.autograd.grad((g * g).sum(), x)[0] for g in grads]
        return grads, second

    exactly(run)


def test_sinc_second_derivative_matches_torch_at_zero():
    def run(lib):
        x = lib.tensor([0.0, 0.5, 1.0, -2.5], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(lib.sinc(x).sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x)[0]

    same(run)


def test_lerp_is_exact_at_the_ends_as_in_torch():
    for lib in (minigrad, torch):
        start, end = lib.tensor([1e8, -3.0, 0.1]), lib.tensor([1.0, 1e-8, 0.7])
        assert bool((lib.lerp(start, end, 1.0) == end).all()) and bool((lib.lerp(start, end, 0.0) == start).all())


EDGE_VALUES = {
    "heaviside at NaN and zeros": lambda lib: lib.heaviside(
        lib.tensor([-1.0, 0.0, 2.0, NAN, -0.0, -INF]), lib.tensor([0.5])
    ),
    "heaviside broadcast": lambda lib: lib.heaviside(lib.tensor([[-1.0], [0.0]]), lib.tensor([0.5, 0.25])),
    "heaviside of ints": lambda lib: lib.heaviside(lib.tensor([-1, 0, 3]), lib.tensor([7])),
    "heaviside of bools": lambda lib: lib.heaviside(lib.tensor([False, True]), lib.tensor([True])),
    "heaviside with a 0-d values": lambda lib: lib.tensor([-1.0, 0.0]).heaviside(lib.tensor(7.0)),
    "heaviside_": lambda lib: lib.tensor([-1.0, 0.0, 3.0]).heaviside_(lib.tensor(7.0)),
    "sgn of bools": lambda lib: lib.sgn(lib.tensor([True, False])),
    "sgn of uint8": lambda lib: lib.sgn(lib.tensor([3, 0], dtype=lib.uint8)),
    "sgn of ints": lambda lib: lib.tensor([-3, 0, 5]).sgn(),
    "sgn_ of ints": lambda lib: lib.tensor([-3, 0, 5]).sgn_(),
    "nan_to_num of ints": lambda lib: lib.nan_to_num(lib.tensor([1, 2]), nan=2.5),
    "nan_to_num of bools": lambda lib: lib.tensor([True, False]).nan_to_num(),
    "nan_to_num_ of ints": lambda lib: lib.tensor([1, 2]).nan_to_num_(),
    "nan_to_num with integer values": lambda lib: lib.nan_to_num(lib.tensor([NAN, INF, -INF]), 1, 2, -3),
    "addcmul of ints with a float value (truncated)": lambda lib: lib.addcmul(
        lib.tensor([1, 2, 3]), lib.tensor([1, 2, 3]), lib.tensor([1, 2, 3]), value=2.5
    ),
    "addcmul of a float and ints with a float value": lambda lib: lib.addcmul(
        lib.tensor([0.5, 1.0]), lib.tensor([1, 2]), lib.tensor([3, 4]), value=2.5
    ),
    "addcmul with a bool value": lambda lib: lib.addcmul(lib.ones(2), lib.ones(2), lib.ones(2), value=True),
    "addcmul with a 0-d double": lambda lib: lib.addcmul(lib.ones(2), lib.tensor(2.0, dtype=lib.float64), lib.ones(2)),
    "addcmul of float and double": lambda lib: lib.addcmul(lib.ones(2), lib.ones(2, dtype=lib.float64), lib.ones(2)),
    "addcdiv of an int numerator": lambda lib: lib.addcdiv(
        lib.tensor([1, 2]), lib.tensor([1, 3]), lib.tensor([2.0, 4.0])
    ),
    "addcdiv onto bools": lambda lib: lib.addcdiv(lib.tensor([True, False]), lib.ones(2), lib.tensor([2.0, 0.0])),
    "lerp with a 0-d double weight": lambda lib: lib.lerp(
        lib.zeros(2), lib.ones(2), lib.tensor(0.25, dtype=lib.float64)
    ),
    "lerp with a 0-d int weight": lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor(2)),
    "lerp with a 0-d bool weight": lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor(True)),
    "lerp with a True weight": lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), True),
    "lerp of halves": lambda lib: lib.lerp(lib.tensor([0.0, 2.0]).half(), lib.tensor([1.0, 4.0]).half(), 0.75),
    "lerp broadcast from the start": lambda lib: lib.lerp(lib.ones(3, 1), lib.tensor([0.0, 2.0]), 0.5),
    "logical_xor": lambda lib: lib.logical_xor(lib.tensor([1.0, 0.0, NAN, 0.0]), lib.tensor([0, 0, 0, 2])),
    "logical_xor_ of floats": lambda lib: lib.tensor([1.0, 0.0, 2.0]).logical_xor_(lib.tensor([True, True, False])),
    "logical_xor_ of bools": lambda lib: lib.tensor([True, False]).logical_xor_(lib.tensor([1.5, 0.0])),
    "float_power of ints to a negative power": lambda lib: lib.float_power(lib.tensor([2, 4, -2]), -1),
    "float_power of int tensors": lambda lib: lib.float_power(lib.tensor([2, 4]), lib.tensor([-1, 2])),
    "float_power of a number": lambda lib: lib.float_power(2, lib.tensor([0.5, -1.0])),
    "float_power of bools": lambda lib: lib.tensor([True, False]).float_power(lib.tensor([False, True])),
    "float_power_ of doubles by floats": lambda lib: lib.tensor([4.0], dtype=lib.float64).float_power_(
        lib.tensor([0.5])
    ),
    "xlogy of ints": lambda lib: lib.xlogy(lib.tensor([0, 1, 2]), lib.tensor([0, 2, 3])),
    "xlogy of bools and a bool": lambda lib: lib.xlogy(lib.tensor([True, False]), True),
    "xlogy of an int and a number": lambda lib: lib.xlogy(2, lib.tensor([1, 2])),
    "xlogy of halves and a number": lambda lib: lib.xlogy(lib.tensor([0.5, 1.0]).half(), 2.0),
    "fmax of bools": lambda lib: lib.fmax(lib.tensor([True, False]), lib.tensor([False, False])),
    "fmin of int32 and int64": lambda lib: lib.fmin(lib.tensor([1, 5], dtype=lib.int32), lib.tensor([3, 2])),
    "fmax of a bool and an int": lambda lib: lib.fmax(lib.tensor([True]), lib.tensor([3])),
    "atan2 of bools": lambda lib: lib.atan2(lib.tensor([True, False]), lib.tensor([True, True])),
    "hypot of halves and floats": lambda lib: lib.hypot(lib.tensor([3.0]).half(), lib.tensor([4.0])),
    "logaddexp of a float and a 0-d double": lambda lib: lib.logaddexp(
        lib.tensor([1.0]), lib.tensor(2.0, dtype=lib.float64)
    ),
    "frac of halves": lambda lib: lib.frac(lib.tensor([2.75, -0.5]).half()),
    "sinc of halves": lambda lib: lib.sinc(lib.tensor([0.0, 0.5, 1.0]).half()),
    "empty atan2": lambda lib: lib.atan2(lib.ones(0, 3), lib.ones(3)),
    "empty lerp": lambda lib: lib.lerp(lib.ones(2, 0), lib.ones(0), 0.5),
}


@pytest.mark.parametrize("name", EDGE_VALUES)
def test_edge_values_match_torch(name):
    def run(lib):
        out = EDGE_VALUES[name](lib)
        return out, out.requires_grad

    same(run)


# ----------------------------------------------------------------------------------------------
# Type promotion
# ----------------------------------------------------------------------------------------------

DTYPES = ["bool", "uint8", "int32", "int64", "float16", "float32", "float64"]


def _outcome(fn):
    """``fn(lib)``, or the name of the exception it raises (so failures must match too)."""

    def run(lib):
        try:
            return fn(lib)
        except Exception as error:
            return type(error).__name__

    return run


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_result_dtypes_match_torch(name, dtype):
    same(_outcome(lambda lib: getattr(lib, name)(lib.tensor([0, 1, 1, 0]).to(getattr(lib, dtype)) * 1)))


@pytest.mark.parametrize("name", ["asin", "exp2", "logit", "deg2rad", "sinc"])
def test_integers_compute_in_the_default_dtype(name):
    def run(lib):
        lib.set_default_dtype(lib.float64)
        try:
            return getattr(lib, name)(lib.tensor([0, 1])), getattr(lib, name)(lib.tensor([True, False]))
        finally:
            lib.set_default_dtype(lib.float32)

    same(run)


PAIRS = [
    ("int64", "int64"),
    ("int32", "int64"),
    ("bool", "bool"),
    ("bool", "uint8"),
    ("int64", "float32"),
    ("float16", "float32"),
    ("float32", "float64"),
    ("float16", "float16"),
    ("uint8", "float16"),
]


@pytest.mark.parametrize("b", ["tensor", "0-d"])
@pytest.mark.parametrize("pair", PAIRS, ids=["-".join(p) for p in PAIRS])
@pytest.mark.parametrize("name", BINARY)
def test_binary_result_dtypes_match_torch(name, pair, b):
    def run(lib):
        x = lib.tensor([1, 0, 2]).to(getattr(lib, pair[0]))
        y = lib.tensor([1, 1, 0] if b == "tensor" else 2).to(getattr(lib, pair[1]))
        return getattr(lib, name)(x, y)

    same(_outcome(run))


NUMBERS = [2, 2.5, True, -1]


@pytest.mark.parametrize("number", NUMBERS, ids=[repr(n) for n in NUMBERS])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["xlogy", "float_power"])
def test_a_number_on_either_side_matches_torch(name, dtype, number):
    def run(lib):
        x = lib.tensor([1, 0, 2]).to(getattr(lib, dtype))
        fn = getattr(lib, name)
        return fn(x, number), fn(number, x)

    same(_outcome(run))


@pytest.mark.parametrize("dtypes", [("int64",) * 3, ("float32", "int64", "int64"), ("int64", "float32", "int64"),
                                    ("float16", "float16", "float32"), ("bool", "float32", "bool"),
                                    ("float64", "float32", "float32"), ("uint8", "int32", "bool")])  # fmt: skip
@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_addcmul_addcdiv_result_dtypes_match_torch(name, dtypes):
    def run(lib):
        x, a, b = (lib.tensor([1, 2, 3]).to(getattr(lib, d)) for d in dtypes)
        return getattr(lib, name)(x, a, b, value=2)

    same(_outcome(run))


def test_gradients_keep_the_input_dtypes_across_promotion():
    def run(lib):
        x = lib.tensor([0.5, 0.25], dtype=lib.float32, requires_grad=True)
        y = lib.tensor([1.5, 2.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor(0.25, dtype=lib.float64, requires_grad=True)
        h = lib.tensor([0.75, 0.5], dtype=lib.float16, requires_grad=True)
        outs = [lib.atan2(x, y), lib.xlogy(x, y), lib.addcmul(h, x, y), lib.lerp(x, x * 2, w), lib.fmax(h, x)]
        outs += [lib.float_power(x, h), lib.hypot(h, y), lib.logaddexp(x, h)]
        return [str(o.dtype) for o in outs], lib.autograd.grad(sum(o.sum().double() for o in outs), (x, y, w, h))

    same(run)


# ----------------------------------------------------------------------------------------------
# Graphs and saved values
# ----------------------------------------------------------------------------------------------


def _x(lib, requires_grad=True):
    return (lib.arange(6.0).reshape(2, 3) / 10 + 0.05).requires_grad_(requires_grad)


def _second(lib, out, x):
    """The gradient of ``out.sum()`` with its own graph (of the backward pass)."""
    return lib.autograd.grad(out.sum(), x, create_graph=True)[0]


GRAPHS = {
    "the inverse functions": lambda lib, x: x.asin() + x.acos() + x.atan() + x.asinh() + (x + 1).acosh() + x.atanh(),
    "the numpy names": lambda lib, x: x.arcsin() * x.arccos() * x.arctan() + lib.arctan2(x, x),
    "sinh and cosh": lambda lib, x: x.sinh() / x.cosh(),
    "logs and powers of two and ten": lambda lib, x: x.log2() + x.log10() + x.exp2(),
    "atan2 and hypot": lambda lib, x: lib.atan2(x, x.flip(0)) + lib.hypot(x, x * 2),
    "logaddexp": lambda lib, x: lib.logaddexp(x, x.t().t()) - lib.logaddexp2(x, x[0]),
    "xlogy, all three": lambda lib, x: lib.xlogy(x, x.flip(1)) + lib.xlogy(x, 2) + lib.xlogy(3.0, x),
    "lerp with a number and a tensor": lambda lib, x: lib.lerp(x, x.flip(0), 0.3) + x.lerp(x * 2, x[0]),
    "addcmul and addcdiv": lambda lib, x: lib.addcmul(x, x, x[1], value=2).addcdiv(x, x + 1),
    "frac, fmax, fmin": lambda lib, x: lib.fmax(x.frac(), x.flip(0)) + lib.fmin(x, x[0]),
    "nan_to_num, logit, sinc": lambda lib, x: x.nan_to_num() + x.logit(1e-3) + x.sinc(),
    "deg2rad and rad2deg": lambda lib, x: x.deg2rad().rad2deg(),
    "float_power of float32": lambda lib, x: lib.float_power(x, 2) + lib.float_power(x, x) + lib.float_power(2, x),
    "float_power of float64": lambda lib, x: lib.float_power(x.double(), 2),
    "sgn": lambda lib, x: x.sgn() * x,
    "heaviside": lambda lib, x: lib.heaviside(x, x[0]),
    "in place": lambda lib, x: (x * 1).asin_().atan2_(x).lerp_(x, 0.5).addcdiv_(x, x).sgn_(),
    "in place, not differentiable": lambda lib, x: (x * 1).asinh_() + (x + 1).acosh_() + (x * 1).arctanh_(),
    "in place on a view": lambda lib, x: _in_place_on_a_view(x),
    "the double backward of sinh and cosh": lambda lib, x: _second(lib, x.sinh() * x.cosh(), x),
    "the double backward of atan2": lambda lib, x: _second(lib, lib.atan2(x, x.flip(0)), x),
    "the double backward of hypot": lambda lib, x: _second(lib, lib.hypot(x, x.flip(0)), x),
    "the double backward of xlogy": lambda lib, x: _second(lib, lib.xlogy(x, x.flip(0)) + lib.xlogy(x, -2.0), x),
    "the double backward of xlogy of a number": lambda lib, x: _second(lib, lib.xlogy(x, 2.0) * x, x),
    "the double backward of nan_to_num": lambda lib, x: _second(lib, x.nan_to_num() * x, x),
}


def _in_place_on_a_view(x):
    y = x * 1
    y[0].xlogy_(x[1]).addcmul_(x[0], x[1])
    return y


@pytest.mark.parametrize("name", GRAPHS)
def test_graphs_match_torch(name):
    same(lambda lib: node_names(GRAPHS[name](lib, _x(lib))))


def test_saved_values_match_torch():
    def run(lib):
        x, y = _x(lib), _x(lib).flip(0)
        w = lib.tensor(0.25, requires_grad=True)
        return [
            x.asin().grad_fn._saved_self, x.acos().grad_fn._saved_self, x.atanh().grad_fn._saved_self,
            x.sinh().grad_fn._saved_self, x.cosh().grad_fn._saved_self, x.log2().grad_fn._saved_self,
            x.exp2().grad_fn._saved_result, x.sinc().grad_fn._saved_self, x.nan_to_num().grad_fn._saved_self,
            x.sgn().grad_fn._saved_self, x.sgn().grad_fn._saved_result,
            x.logit().grad_fn._saved_eps, x.logit(0.25).grad_fn._saved_eps, x.logit(0).grad_fn._saved_eps,
            x.logit(0.25).grad_fn._saved_self,
            lib.atan2(x, y).grad_fn._saved_self, lib.atan2(x, y).grad_fn._saved_other,
            lib.hypot(x, y).grad_fn._saved_result, lib.hypot(x, y).grad_fn._saved_other,
            lib.logaddexp(x, y).grad_fn._saved_other, lib.logaddexp2(x, y).grad_fn._saved_self,
            lib.xlogy(x, y).grad_fn._saved_other, lib.xlogy(x, 2).grad_fn._saved_other,
            lib.xlogy(x, 2.5).grad_fn._saved_self, lib.xlogy(-1.5, y).grad_fn._saved_self,
            lib.xlogy(True, y).grad_fn._saved_self, lib.xlogy(-1.5, y).grad_fn._saved_other,
            lib.fmax(x, y).grad_fn._saved_other, lib.fmin(x, y).grad_fn._saved_self,
            lib.lerp(x, y, 0.3).grad_fn._saved_weight, lib.lerp(x, y, 1).grad_fn._saved_weight,
            lib.lerp(x, y, True).grad_fn._saved_weight,
            lib.lerp(x, y, w).grad_fn._saved_weight, lib.lerp(x, y, w).grad_fn._saved_end,
            lib.lerp(x, y, w).grad_fn._saved_self,
            lib.addcmul(x, x, y, value=2).grad_fn._saved_value, lib.addcmul(x, x, y).grad_fn._saved_tensor2,
            lib.addcdiv(x, x, y, value=0.5).grad_fn._saved_value, lib.addcdiv(x, x, y).grad_fn._saved_tensor1,
            lib.float_power(x, 2).grad_fn._saved_exponent, lib.float_power(x, True).grad_fn._saved_exponent,
        ]  # fmt: skip

    same(run)


def test_unneeded_inputs_are_not_saved_as_in_torch():
    """Only what the rules of the inputs that need a gradient read is saved."""

    def run(lib):
        x, c = _x(lib), _x(lib, requires_grad=False)
        atan2 = lib.atan2(x, c).grad_fn
        lerp = lib.lerp(x, c, c[0]).grad_fn  # only self needs a gradient: its rule reads only weight
        return [hasattr(atan2, "_saved_self"), hasattr(atan2, "_saved_other"), hasattr(lerp, "_saved_weight")]

    ours, theirs = run(minigrad), run(torch)
    assert ours[:2] == theirs[:2] and ours[2] and theirs[2]


# ----------------------------------------------------------------------------------------------
# In place
# ----------------------------------------------------------------------------------------------

IN_PLACE = {
    "asin_": lambda y, x: y.asin_(),
    "arccos_": lambda y, x: y.arccos_(),
    "atan_": lambda y, x: y.atan_(),
    "sinh_": lambda y, x: y.sinh_(),
    "cosh_": lambda y, x: y.cosh_(),
    "atan2_": lambda y, x: y.atan2_(x),
    "arctan2_": lambda y, x: y.arctan2_(x[0]),
    "hypot_": lambda y, x: y.hypot_(x),
    "log2_": lambda y, x: y.log2_(),
    "log10_": lambda y, x: y.log10_(),
    "exp2_": lambda y, x: y.exp2_(),
    "xlogy_": lambda y, x: y.xlogy_(x),
    "xlogy_ of a number": lambda y, x: y.xlogy_(2),
    "lerp_": lambda y, x: y.lerp_(x, 0.25),
    "lerp_ with a tensor weight": lambda y, x: y.lerp_(x.flip(0), x),
    "addcmul_": lambda y, x: y.addcmul_(x, x[0], value=-1),
    "addcdiv_": lambda y, x: y.addcdiv_(x, x + 1, value=2),
    "frac_": lambda y, x: y.frac_(),
    "nan_to_num_": lambda y, x: y.nan_to_num_(),
    "logit_": lambda y, x: y.logit_(0.1),
    "sinc_": lambda y, x: y.sinc_(),
    "deg2rad_": lambda y, x: y.deg2rad_(),
    "rad2deg_": lambda y, x: y.rad2deg_(),
    "float_power_": lambda y, x: y.double().float_power_(x),
    "sgn_": lambda y, x: y.sgn_(),
    "logical_xor_": lambda y, x: y.logical_xor_(x > 0.2),
}


@pytest.mark.parametrize("name", IN_PLACE)
def test_in_place_versions_match_torch(name):
    """Values, the node, the version counter, that the tensor itself comes back, and gradients."""

    def run(lib):
        x = _x(lib)
        y = x * 1
        before = y._version
        out = IN_PLACE[name](y, x)
        grads = lib.autograd.grad(out.sum(), x, allow_unused=True) if out.requires_grad else [None]
        return out, out is y, y._version - before, node_names(out), [_materialized(g) for g in grads if g is not None]

    same(run)


@pytest.mark.parametrize("name", ["asin_", "atan2_", "lerp_", "addcmul_", "logit_", "sgn_"])
def test_in_place_on_a_view_goes_through_copyslices_as_in_torch(name):
    def run(lib):
        x = _x(lib)
        y = x * 1
        IN_PLACE[name](y[1], x[0])
        (grad,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        return y, grad, y.grad_fn.name().replace("torch::autograd::", ""), lib.autograd.grad(grad.sum(), x)[0]

    same(run)


IN_PLACE_WITH_OPERANDS = {
    "atan2_": lambda z, x: z.atan2_(x),
    "hypot_": lambda z, x: z.hypot_(x),
    "xlogy_": lambda z, x: z.xlogy_(x),
    "lerp_ to a tensor": lambda z, x: z.lerp_(x, 0.25),
    "lerp_ by a weight": lambda z, x: z.lerp_(z * 2, x[0]),
    "addcmul_": lambda z, x: z.addcmul_(x, x),
    "addcdiv_": lambda z, x: z.addcdiv_(z + 1, x),
    "float_power_": lambda z, x: z.double().float_power_(x),
    "heaviside_": lambda z, x: z.heaviside_(x),
}


@pytest.mark.parametrize("name", IN_PLACE_WITH_OPERANDS)
def test_in_place_with_an_operand_that_needs_grad_joins_the_graph_as_in_torch(name):
    def run(lib):
        x = _x(lib)
        z = lib.full((2, 3), 0.5)  # needs no gradient itself
        out = IN_PLACE_WITH_OPERANDS[name](z, x)
        return out, out.requires_grad, node_names(out)

    same(run)


def test_nan_to_num_of_integers_is_a_copy_as_in_torch():
    def run(lib):
        x = lib.tensor([1, 2])
        out = lib.nan_to_num(x)
        out.add_(10)
        return x, out, out is x

    same(run)


def test_in_place_without_grad_only_bumps_the_version():
    def run(lib):
        x = lib.tensor([0.25, 0.5])
        x.atanh_().lerp_(lib.ones(2), 0.5).hypot_(lib.ones(2)).frac_()
        return x, x._version, x.requires_grad

    same(run)
