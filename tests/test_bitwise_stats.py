"""Bitwise, integer and float-bits ops (bitwise_*, shifts, gcd/lcm, copysign, signbit,
isposinf/isneginf, nextafter, ldexp, frexp, isin) and statistics and small products (histc,
histogram, quantile/nanquantile, cov, corrcoef, inner, vdot, dist, diagflat, renorm,
combinations, trapezoid/trapz, cumulative_trapezoid, vander, unravel_index, igamma/igammac)
against PyTorch: values, dtypes, recorded nodes, gradients, second derivatives and errors.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same
NAN, INF = float("nan"), float("inf")


def _leaf(lib, shape, seed: int = 0, dtype: str = "float64"):
    data = np.random.default_rng(seed).standard_normal(shape)
    return lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)


def _ints(lib, dtype="int64"):
    return lib.tensor([5, 3 if dtype == "uint8" else -3, 12, 0, 7], dtype=getattr(lib, dtype))


FUNCTIONS = (
    "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_left_shift bitwise_right_shift gcd lcm gcd_ lcm_ "
    "copysign signbit isposinf isneginf nextafter ldexp ldexp_ frexp isin histc histogram quantile nanquantile "
    "cov corrcoef inner vdot dist diagflat renorm combinations trapezoid trapz cumulative_trapezoid vander "
    "unravel_index igamma igammac"
).split()
IN_PLACE = (
    "bitwise_and_ bitwise_or_ bitwise_xor_ bitwise_not_ bitwise_left_shift_ bitwise_right_shift_ gcd_ lcm_ "
    "copysign_ nextafter_ ldexp_ renorm_ igamma_ igammac_"
).split()


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_function_and_the_method_exist_as_in_torch(name):
    assert name in minigrad.functions.__all__
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name)


@pytest.mark.parametrize("name", IN_PLACE)
def test_the_in_place_methods_exist_as_in_torch(name):
    assert hasattr(minigrad.Tensor, name)
    assert hasattr(minigrad, name) == hasattr(torch, name)


def test_special_gammainc_and_gammaincc():
    assert {"gammainc", "gammaincc"} <= set(minigrad.special.__all__)
    a, x = [0.5, 1.0, 2.0, 0.0, -1.0, 3.0], [1.0, 0.0, 2.5, 2.0, 1.0, INF]
    same(lambda lib: lib.special.gammainc(lib.tensor(a), lib.tensor(x)))
    same(lambda lib: lib.special.gammaincc(lib.tensor(a, dtype=lib.float64), lib.tensor(x)))


# ---------------------------------------------------------------------------------------------- bitwise


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint8"])
def test_bitwise_ops_and_operators_on_integers(dtype):
    def run(lib):
        a, b = _ints(lib, dtype), lib.tensor([6, 1, 3, 9, 2], dtype=getattr(lib, dtype))
        return [
            lib.bitwise_and(a, b), lib.bitwise_or(a, 6), lib.bitwise_xor(a, b), lib.bitwise_not(a),
            a & b, a | b, a ^ b, ~a, 3 & a, 3 | a, 3 ^ a, a.bitwise_xor(b),
            lib.bitwise_left_shift(a, 2), lib.bitwise_right_shift(a, 1), a << b, a >> b, a << 1, 2 << b, 200 >> b,
            a.bitwise_left_shift(3), lib.bitwise_left_shift(3, b),
        ]  # fmt: skip

    same(run)


def test_bitwise_on_bools_and_promotion():
    def run(lib):
        p, q = lib.tensor([True, False, True]), lib.tensor([True, True, False])
        i = lib.tensor([1, 2, 3], dtype=lib.int8)
        return [
            lib.bitwise_and(p, q),
            p | q,
            p ^ q,
            ~p,
            lib.bitwise_not(p),
            p & 3,
            i & lib.tensor(300),
            i | p,
            i.bitwise_and(2),
            p << 1,
        ]

    same(run)


def test_shifts_past_the_width_or_negative_as_pytorch():
    def run(lib):
        a, u = lib.tensor([5, -3, 12]), lib.tensor([5, 3, 200], dtype=lib.uint8)
        return [a << 70, a >> 70, a << -1, a >> -1, u << 3, u >> 9, a << 63, a >> 63]

    same(run)


def test_in_place_bitwise_and_shift_operators_write_into_the_tensor():
    def run(lib):
        a = lib.tensor([5, 3, 12])
        alias = a
        a &= 6
        a |= lib.tensor([8, 0, 1])
        a ^= 1
        a <<= 2
        a >>= lib.tensor([1, 0, 2])
        b = lib.tensor([True, False])
        b.bitwise_not_()
        c = lib.tensor([4, 6]).bitwise_left_shift_(1).bitwise_and_(12)
        return a, alias is a, a._version, b, c

    same(run)


def test_gcd_and_lcm():
    def run(lib):
        a, b = lib.tensor([12, -9, 0, 7, 0]), lib.tensor([18, 6, 5, -21, 0])
        u = lib.tensor([4, 6, 200], dtype=lib.uint8)
        x = a.clone()
        x.gcd_(b)
        return [
            lib.gcd(a, b),
            lib.lcm(a, b),
            a.gcd(b),
            lib.lcm(u, lib.tensor(6, dtype=lib.uint8)),
            lib.gcd(a, b[:1]),
            x,
            lib.lcm_(a.clone(), b),
        ]

    same(run)


def test_bitwise_errors():
    f, i = (lambda lib: lib.tensor([1.5, 2.0])), (lambda lib: lib.tensor([1, 2]))
    same_error(lambda lib: lib.bitwise_and(f(lib), 1), "bitwise_and_cpu", "not implemented for 'Float'")
    same_error(lambda lib: lib.bitwise_or(i(lib), 1.5), "bitwise_or_cpu", "not implemented for 'Float'")
    same_error(lambda lib: lib.bitwise_not(f(lib)), "bitwise_not_cpu", "'Float'")
    same_error(lambda lib: ~f(lib), "~ (operator.invert)", "integer and Boolean")
    same_error(lambda lib: f(lib) << 1, "lshift_cpu", "'Float'")
    same_error(lambda lib: i(lib) >> 0.5, "rshift_cpu", "'Float'")
    same_error(lambda lib: lib.tensor([True]) << lib.tensor([True]), "lshift_cpu", "'Bool'")
    same_error(lambda lib: lib.gcd(f(lib), f(lib)), "gcd_cpu", "'Float'")
    same_error(lambda lib: lib.lcm(lib.tensor([True]), lib.tensor([True])), "lcm_cpu", "'Bool'")
    same_error(lambda lib: lib.gcd(i(lib), 4), "gcd()", "argument 'other'", "must be Tensor")
    same_error(lambda lib: lib.bitwise_and(i(lib), lib.tensor([1, 2, 3])), "must match the size")
    same_error(lambda lib: i(lib).__iand__(lib.tensor([1.0, 2.0])), "result type Float can't be cast", "Long")


# ---------------------------------------------------------------------------------------------- float bits


def test_copysign_values_dtypes_and_scalars():
    def run(lib):
        f, g = lib.tensor([1.5, -2.0, 0.0, -0.0, NAN]), lib.tensor([-0.0, 3.0, -1.0, 2.0, -1.0])
        i = lib.tensor([5, -3, 0, 2, 1])
        return [
            lib.copysign(f, g), lib.copysign(f, -1.0), lib.copysign(i, -1), lib.copysign(i, g), lib.copysign(i, i),
            lib.copysign(lib.tensor([True, False]), lib.tensor([True, False])), f.copysign(0.0), lib.copysign(f.float(), g),
        ]  # fmt: skip

    same(run)


@pytest.mark.parametrize("case", ["tensor", "broadcast", "number"])
def test_copysign_nodes_gradients_and_second_derivatives(case):
    def run(lib):
        x = _leaf(lib, (3, 4))
        with lib.no_grad():
            x[0, 0] = 0.0  # the subgradient at 0 is 0
        if case == "number":
            return derivatives(lib, lib.copysign(x, -1.0), [x])
        y = _leaf(lib, (3, 4) if case == "tensor" else (4,), seed=1)
        return derivatives(lib, lib.copysign(x, y), [x, y])

    same(run)


def test_copysign_in_place():
    def run(lib):
        leaf = _leaf(lib, (2, 3))
        x = leaf * 1
        x.copysign_(_leaf(lib, (3,), 1))
        return x, node_names(x), lib.autograd.grad(x.sum(), [leaf])

    same(run)
    same_error(lambda lib: lib.tensor([1, 2]).copysign_(lib.tensor([-1.0, 1.0])), "result type Float", "Long")


def test_signbit_isposinf_isneginf():
    def run(lib):
        f = lib.tensor([-0.0, 0.0, -2.0, NAN, -NAN, INF, -INF])
        i, u, b = lib.tensor([-1, 0, 3]), lib.tensor([0, 200], dtype=lib.uint8), lib.tensor([True, False])
        return [lib.signbit(f), lib.signbit(i), lib.signbit(u), lib.signbit(b), f.signbit(), lib.isposinf(f),
                lib.isneginf(f), lib.isposinf(i), lib.isneginf(b), f.isneginf(), lib.signbit(lib.tensor(-1.0))]  # fmt: skip

    same(run)


def test_nextafter_values_and_its_backward_raises():
    def run(lib):
        f, g = lib.tensor([1.5, -2.0, 0.0, 1.0]), lib.tensor([2.0, -3.0, 1.0, 1.0])
        return [
            lib.nextafter(f, g),
            lib.nextafter(f.double(), g.double()),
            lib.nextafter(f, g.double()),
            f.nextafter(g),
        ]

    same(run)

    def grads(lib):
        x, y = _leaf(lib, (2, 3)), _leaf(lib, (3,), 1)
        with lib.no_grad():
            x[0] = y  # equal elements: no gradient there
        return derivatives(lib, lib.nextafter(x, y), [x, y])

    same(grads)
    same_error(lambda lib: lib.nextafter(lib.tensor([1, 2]), lib.tensor([1, 2])), "nextafter_cpu", "'Long'")
    same_error(lambda lib: lib.nextafter(lib.tensor([1.0]), 1.0), "nextafter()", "must be Tensor")


def test_ldexp_values_dtypes_nodes_and_derivatives():
    def run(lib):
        x, e = _leaf(lib, (2, 4)), lib.tensor([1, 2, 3, -1])  # (a negative int exponent: PyTorch's gradient is 0)
        y = _leaf(lib, (4,), 1)
        values_ = [lib.ldexp(lib.tensor([1.0, 3.0]), lib.tensor([2, -1])), lib.ldexp(lib.tensor([1, 2]), lib.tensor([3, 1])),
                   lib.ldexp(lib.tensor([1.0]), lib.tensor([1.0], dtype=lib.float64)), lib.tensor([1.0, 2.0]).ldexp(lib.tensor([1, 2]))]  # fmt: skip
        return values_, derivatives(lib, lib.ldexp(x, e), [x]), derivatives(lib, lib.ldexp(x, y), [x, y])

    same(run)
    same(lambda lib: lib.ldexp_(lib.tensor([1.0, 3.0]), lib.tensor([2, -1])))
    same_error(lambda lib: lib.ldexp(lib.tensor([1.0]), 2), "ldexp()", "must be Tensor")


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_frexp(dtype):
    def run(lib):
        t = lib.tensor([8.0, -3.0, 0.0, 0.1, 1e-3, INF, NAN], dtype=getattr(lib, dtype))
        out = lib.frexp(t)
        return [out.mantissa, out.exponent, out[0], t.frexp()[1], type(out).__name__]

    same(run)


def test_frexp_gradient_nodes_and_repr():
    def run(lib):
        x = _leaf(lib, (3, 2))
        out = lib.frexp(x)
        return derivatives(lib, out.mantissa, [x]), out.exponent.requires_grad

    same(run)
    assert repr(minigrad.frexp(minigrad.tensor([8.0]))) == repr(torch.frexp(torch.tensor([8.0])))
    same_error(lambda lib: lib.frexp(lib.tensor([1, 2])), "frexp() only supports floating-point dtypes")


def test_isin():
    def run(lib):
        i, f = lib.tensor([[5, -3], [12, 0]]), lib.tensor([5.0, 0.5, 12.0])
        return [
            lib.isin(i, lib.tensor([5, 12])), lib.isin(i, 5), lib.isin(5, i), lib.isin(f, i), lib.isin(i, f),
            lib.isin(i, lib.tensor([5, 12]), invert=True), lib.isin(elements=i, test_elements=lib.tensor([[0]])),
            lib.isin(i, lib.tensor([0, 5]), assume_unique=True), lib.isin(lib.tensor([]), i), lib.isin(i, lib.tensor([], dtype=lib.int64)),
        ]  # fmt: skip

    same(run)
    same_error(lambda lib: lib.isin(lib.tensor([1]), lib.tensor([True])), "Unsupported input type", "isin()", "Bool")
    same_error(lambda lib: lib.isin(lib.tensor([True]), True), "isin()", "Bool")


# ---------------------------------------------------------------------------------------------- products and norms


@pytest.mark.parametrize(
    "name",
    ["dist", "dist_p1", "dist_p3", "dist_inf", "dist_broadcast", "vdot", "inner", "inner_1d", "inner_0d",
     "diagflat", "diagflat_offset", "renorm", "renorm_p1", "renorm_dim1", "renorm_p3"],
)  # fmt: skip
def test_products_and_norms_nodes_gradients_and_second_derivatives(name):
    def run(lib):
        x, y, v, w = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1), _leaf(lib, (4,), 2), _leaf(lib, (4,), 3)
        cases = {
            "dist": lambda: (lib.dist(x, y), [x, y]),
            "dist_p1": lambda: (lib.dist(x, y, 1), [x, y]),
            "dist_p3": lambda: (x.dist(y, 3), [x, y]),
            "dist_inf": lambda: (lib.dist(x, y, float("inf")), [x, y]),
            "dist_broadcast": lambda: (lib.dist(x, v, 2.5), [x, v]),
            "vdot": lambda: (lib.vdot(v, w), [v, w]),
            "inner": lambda: (lib.inner(x, y[:2]), [x, y]),
            "inner_1d": lambda: (v.inner(w), [v, w]),
            "inner_0d": lambda: (lib.inner(x, v[0]), [x, v]),
            "diagflat": lambda: (lib.diagflat(x), [x]),
            "diagflat_offset": lambda: (v.diagflat(-2), [v]),
            "renorm": lambda: (lib.renorm(x, 2, 0, 1.0), [x]),
            "renorm_p1": lambda: (lib.renorm(x, 1, 0, 2.0), [x]),
            "renorm_dim1": lambda: (x.renorm(2, -1, 1.5), [x]),
            "renorm_p3": lambda: (lib.renorm(x * 2, 3, 0, 1.0), [x]),
        }
        out, inputs = cases[name]()
        return derivatives(lib, out, inputs)

    same(run)


def test_products_and_norms_values_on_integers_and_edge_shapes():
    def run(lib):
        i = lib.tensor([1, 2, 3])
        return [lib.vdot(i, i), lib.inner(i, i), lib.diagflat(i), lib.diagflat(lib.tensor(3.0)), lib.diagflat(lib.tensor([])),
                lib.dist(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 0.0]), 0), lib.dist(lib.tensor([1.0]), lib.tensor([1.0], dtype=lib.float64)),
                lib.renorm(lib.zeros(2, 3), 2, 0, 1.0), lib.dist(lib.zeros(0), lib.zeros(0))]  # fmt: skip

    same(run)


def test_renorm_in_place():
    def run(lib):
        x = _leaf(lib, (3, 4)) * 1
        x.renorm_(2, 1, 0.5)
        return x, node_names(x)

    same(run)


def test_products_and_norms_errors():
    f = lambda lib: lib.tensor([1.0, 2.0, 5.0])  # noqa: E731
    same_error(
        lambda lib: lib.dist(lib.tensor([1, 2]), lib.tensor([1, 2])),
        "norm(): input dtype should be either floating point",
    )
    same_error(lambda lib: lib.dist(f(lib), lib.ones(2)), "must match the size")
    same_error(lambda lib: lib.dist(f(lib), 2.0), "dist()", "must be Tensor")
    same_error(
        lambda lib: lib.vdot(f(lib), f(lib).double()), "expected both vectors to have same dtype", "Float and Double"
    )
    same_error(lambda lib: lib.vdot(f(lib), lib.ones(2)), "inconsistent tensor size", "[3] and src [2]")
    same_error(lambda lib: lib.vdot(f(lib)[None], f(lib)[None]), "1D tensors expected, but got 2D and 2D tensors")
    same_error(lambda lib: lib.inner(f(lib), f(lib).double()), "both inputs should have same dtype")
    same_error(lambda lib: lib.inner(f(lib), lib.ones(2)), "inner() the last dimension must match", "[3] and [2]")
    same_error(lambda lib: lib.renorm(f(lib), 2, 0, 1), "renorm: input needs at least 2 dimensions, got 1 dimensions")
    same_error(lambda lib: lib.renorm(f(lib)[None], -1, 0, 1), "renorm: non-positive-norm not supported")
    same_error(lambda lib: lib.renorm(f(lib)[None], 2, 0, -1), "renorm: expected maxnorm to be >= 0 but got -1")
    same_error(lambda lib: lib.renorm(f(lib)[None], 2, 3, 1), "Dimension out of range")
    same_error(lambda lib: lib.renorm(lib.ones(2, 2, dtype=lib.int64), 2, 0, 1), "Expected a floating point", "Long")


# ---------------------------------------------------------------------------------------------- cov, corrcoef


@pytest.mark.parametrize(
    "name", ["cov", "cov_1d", "cov_correction0", "cov_fweights", "cov_aweights", "cov_both", "corrcoef", "corrcoef_1d"]
)
def test_cov_and_corrcoef_nodes_gradients_and_second_derivatives(name):
    def run(lib):
        x, v = _leaf(lib, (3, 5)), _leaf(lib, (5,), 1)
        fw, aw = lib.tensor([1, 2, 1, 3, 1]), lib.tensor([0.5, 1.0, 2.0, 1.0, 0.25], dtype=lib.float64)
        cases = {
            "cov": lambda: (lib.cov(x), [x]),
            "cov_1d": lambda: (v.cov(), [v]),
            "cov_correction0": lambda: (lib.cov(x, correction=0), [x]),
            "cov_fweights": lambda: (lib.cov(x, fweights=fw), [x]),
            "cov_aweights": lambda: (lib.cov(x, aweights=aw, correction=2), [x]),
            "cov_both": lambda: (lib.cov(x, fweights=fw, aweights=aw), [x]),
            "corrcoef": lambda: (lib.corrcoef(x), [x]),
            "corrcoef_1d": lambda: (v.corrcoef(), [v]),
        }
        out, inputs = cases[name]()
        return derivatives(lib, out, inputs)

    same(run)


def test_cov_values_dtypes_and_warning():
    def run(lib):
        i = lib.tensor([[1, 2, 4], [3, 1, 0]])
        return [lib.cov(i), lib.corrcoef(i), lib.cov(lib.tensor([1.0, 2.0, 5.0]).float()), lib.cov(i, aweights=lib.tensor([1.0, 2.0, 1.0])),
                lib.corrcoef(lib.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])), lib.corrcoef(lib.tensor([2.0, 2.0]))]  # fmt: skip

    same(run)
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
            out = lib.cov(lib.ones(2, 1))
        assert np.isnan(out.numpy()).all() and tuple(out.shape) == (2, 2)


def test_cov_errors():
    f = lambda lib: lib.tensor([1.0, 2.0, 5.0])  # noqa: E731
    same_error(
        lambda lib: lib.cov(lib.ones(2, 2, 2)), "cov(): expected input to have two or fewer dimensions", "3 dimensions"
    )
    same_error(lambda lib: lib.cov(lib.ones(2, 2, dtype=lib.bool)), "cov(): bool dtype is not supported for input")
    same_error(
        lambda lib: lib.cov(f(lib), fweights=lib.tensor([1.0, 2, 3])),
        "expected fweights to have integral dtype",
        "Float",
    )
    same_error(lambda lib: lib.cov(f(lib), fweights=lib.tensor([1, 2])), "fweights to have the same numel", "2 != 3")
    same_error(lambda lib: lib.cov(f(lib), fweights=lib.tensor([-1, 2, 3])), "cov(): fweights cannot be negative")
    same_error(
        lambda lib: lib.cov(f(lib), aweights=lib.tensor([1, 2, 3])),
        "expected aweights to have floating point dtype",
        "Long",
    )
    same_error(lambda lib: lib.cov(f(lib), aweights=lib.tensor([[1.0]])), "aweights to have one or fewer dimensions")
    same_error(lambda lib: lib.cov(f(lib), aweights=lib.tensor([0.0, 0, 0])), "weights sum to zero")
    same_error(
        lambda lib: lib.corrcoef(lib.ones(2, 2, 2)), "corrcoef(): expected input to have two or fewer dimensions"
    )


# ---------------------------------------------------------------------------------------------- quantile

MODES = ["linear", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "case", ["all", "dim_last", "dim_first_keepdim", "dim_middle", "q_tensor", "q_tensor_all_keepdim", "nan"]
)
def test_quantile_nodes_gradients_and_second_derivatives(case, mode):
    def run(lib):
        x = _leaf(lib, (3, 4)) if case != "dim_middle" else _leaf(lib, (2, 3, 4))
        q = lib.tensor([0.1, 0.5, 1.0], dtype=lib.float64)
        cases = {
            "all": lambda: lib.quantile(x, 0.3, interpolation=mode),
            "dim_last": lambda: x.quantile(0.75, dim=-1, interpolation=mode),
            "dim_first_keepdim": lambda: lib.quantile(x, 0.4, 0, True, interpolation=mode),
            "dim_middle": lambda: lib.quantile(x, q, dim=1, interpolation=mode),
            "q_tensor": lambda: lib.quantile(x, q, dim=1, keepdim=True, interpolation=mode),
            "q_tensor_all_keepdim": lambda: lib.quantile(x, q[:2], keepdim=True, interpolation=mode),
            "nan": lambda: lib.nanquantile(lib.where(x > 0.5, float("nan"), x), q, dim=0, interpolation=mode),
        }
        return derivatives(lib, cases[case](), [x], second=False)

    same(run)


def test_quantile_and_nanquantile_values_with_nan_and_edges():
    def run(lib):
        t = lib.tensor([[1.0, NAN, 3.0, 2.0], [NAN, NAN, NAN, NAN], [4.0, 1.0, 2.0, 3.0]])
        q = lib.tensor([0.0, 0.25, 0.5, 1.0])
        return [lib.quantile(t, q, dim=1), lib.nanquantile(t, q, dim=1), lib.nanquantile(t, 0.5), lib.quantile(t, 0.5),
                lib.quantile(lib.tensor(3.0), 0.5), lib.quantile(lib.tensor(3.0), 0.2, dim=0, keepdim=True),
                lib.quantile(lib.tensor([1.0, 2.0]), lib.tensor([])), t.nanquantile(0.5, dim=0, keepdim=True),
                lib.quantile(lib.tensor([1.0, 2.0, 3.0, 4.0]), 0.5, interpolation="nearest")]  # fmt: skip

    same(run)


def test_quantile_errors():
    f = lambda lib: lib.tensor([1.0, 2.0, 5.0])  # noqa: E731
    same_error(
        lambda lib: lib.quantile(lib.tensor([1, 2]), 0.5),
        "quantile() input tensor must be either float or double dtype",
    )
    same_error(lambda lib: lib.quantile(f(lib), 1.5), "quantile() q must be in the range [0, 1] but got 1.5")
    same_error(lambda lib: lib.quantile(f(lib), lib.tensor([0.5], dtype=lib.float64)), "q tensor must be same dtype")
    same_error(lambda lib: lib.quantile(f(lib), lib.tensor([[0.5]])), "q must be a scalar or 1D tensor")
    same_error(lambda lib: lib.nanquantile(f(lib), lib.tensor([1.5])), "q values must be in the range [0, 1]")
    same_error(lambda lib: lib.quantile(lib.ones(0), 0.5), "quantile() input tensor must be non-empty")
    same_error(lambda lib: lib.quantile(f(lib), 0.5, interpolation="foo"), "interpolation must be one of linear", "foo")
    same_error(lambda lib: lib.quantile(f(lib), 0.5, dim=3), "Dimension out of range")


# ---------------------------------------------------------------------------------------------- trapezoid


@pytest.mark.parametrize(
    "name",
    ["plain", "dx", "dx_int_dim0", "x_1d", "x_same", "x_fewer_dims", "trapz_x", "trapz_dx",
     "cumulative", "cumulative_dx", "cumulative_x", "cumulative_x_dim0"],
)  # fmt: skip
def test_trapezoid_nodes_gradients_and_second_derivatives(name):
    def run(lib):
        y, x, v = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1), _leaf(lib, (4,), 2)
        cases = {
            "plain": lambda: (lib.trapezoid(y), [y]),
            "dx": lambda: (lib.trapezoid(y, dx=0.5), [y]),
            "dx_int_dim0": lambda: (lib.trapezoid(y, dx=2, dim=0), [y]),
            "x_1d": lambda: (lib.trapezoid(y, v), [y, v]),
            "x_same": lambda: (lib.trapezoid(y, x, dim=0), [y, x]),
            "x_fewer_dims": lambda: (lib.trapezoid(y, v[None].expand(2, 4)[:1]), [y, v]),
            "trapz_x": lambda: (lib.trapz(y, x), [y, x]),
            "trapz_dx": lambda: (lib.trapz(y, dx=3.0, dim=0), [y]),
            "cumulative": lambda: (lib.cumulative_trapezoid(y), [y]),
            "cumulative_dx": lambda: (lib.cumulative_trapezoid(y, dx=0.25, dim=0), [y]),
            "cumulative_x": lambda: (lib.cumulative_trapezoid(y, v), [y, v]),
            "cumulative_x_dim0": lambda: (lib.cumulative_trapezoid(y, x, dim=0), [y, x]),
        }
        out, inputs = cases[name]()
        return derivatives(lib, out, inputs)

    same(run)


def test_trapezoid_values_on_integers_and_empty():
    def run(lib):
        i = lib.tensor([1, 2, 4])
        return [lib.trapezoid(i), lib.trapezoid(i, dx=2), lib.trapezoid(i, i), lib.cumulative_trapezoid(i),
                lib.cumulative_trapezoid(i, i), lib.trapezoid(lib.ones(2, 0)), lib.cumulative_trapezoid(lib.ones(2, 0)),
                lib.cumulative_trapezoid(lib.ones(1)), lib.trapezoid(lib.ones(1)), lib.trapezoid(lib.ones(2, 0, dtype=lib.int64))]  # fmt: skip

    same(run)


def test_trapezoid_errors():
    f = lambda lib: lib.tensor([1.0, 2.0, 5.0])  # noqa: E731
    same_error(lambda lib: lib.trapezoid(lib.ones(3, dtype=lib.bool)), "trapezoid: received a bool input for `y`")
    same_error(lambda lib: lib.trapezoid(f(lib), lib.ones(2)), "There must be one `x` value for each sample point")
    same_error(lambda lib: lib.trapezoid(f(lib), dx=True), "we only support dx as a real number")
    same_error(lambda lib: lib.trapezoid(f(lib), dim=2), "Dimension out of range")


# ---------------------------------------------------------------------------------------------- vander, combinations


@pytest.mark.parametrize("args", [(), (6,), (3, True), (2,), (1,), (0,)])
def test_vander_records_pytorchs_graph_whose_backward_raises_as_pytorchs(args):
    def run(lib):
        v = _leaf(lib, (4,))
        out = lib.vander(v, *args)
        return out, node_names(out)

    same(run)
    if args[:1] not in ((1,), (0,)):
        # PyTorch's vander overwrites, in place, the input its cumprod saved: its backward raises
        same_error(lambda lib: lib.vander(_leaf(lib, (4,)), *args).sum().backward(), "modified by an inplace operation")


@pytest.mark.parametrize("name", ["combinations", "combinations_r3", "combinations_replacement", "combinations_r1"])
def test_combinations_nodes_gradients_and_second_derivatives(name):
    def run(lib):
        v = _leaf(lib, (4,))
        cases = {
            "combinations": lambda: lib.combinations(v),
            "combinations_r3": lambda: lib.combinations(v, 3),
            "combinations_replacement": lambda: lib.combinations(v, r=2, with_replacement=True),
            "combinations_r1": lambda: lib.combinations(v, 1),
        }
        return derivatives(lib, cases[name](), [v])

    same(run)


def test_vander_and_combinations_values_dtypes_and_errors():
    def run(lib):
        i = lib.tensor([1, 2, 3])
        return [lib.vander(i), lib.vander(i.to(lib.int8), 2), lib.vander(lib.tensor([True, False])), lib.vander(i.float(), 0),
                lib.vander(lib.tensor([], dtype=lib.float64)), lib.combinations(i), lib.combinations(i, 0), lib.combinations(i, 4),
                lib.combinations(lib.ones(0)), lib.combinations(i, 4, with_replacement=True)]  # fmt: skip

    same(run)
    same_error(lambda lib: lib.vander(lib.ones(3), -1), "N must be non-negative.")
    same_error(lambda lib: lib.vander(lib.ones(1, 3)), "x must be a one-dimensional tensor.")
    same_error(lambda lib: lib.combinations(lib.ones(1, 3)), "Expect a 1D vector, but got shape [1, 3]")
    same_error(lambda lib: lib.combinations(lib.ones(3), -1), "Expect a non-negative number, but got -1")


# ---------------------------------------------------------------------------------------------- histograms


def test_histc_values():
    def run(lib):
        x = lib.tensor(np.random.default_rng(0).standard_normal(200))
        return [lib.histc(x, 7), lib.histc(x.float(), 5, -1, 1), x.histc(bins=3, min=0, max=3), lib.histc(lib.tensor([1.0, 1.0]), 2),
                lib.histc(lib.ones(0), 2), lib.histc(lib.tensor([0.0, 1.0, 2.0, 3.0]), 3, 0, 3), lib.histc(_leaf(lib, (5,)), 4),
                lib.histc(lib.tensor([1.0, NAN, 2.0]), 2, 0, 4)]  # fmt: skip

    same(run)


def test_histogram_values():
    def run(lib):
        x = lib.tensor(np.random.default_rng(0).standard_normal(200))
        w = lib.tensor(np.random.default_rng(1).random(200))
        out = [lib.histogram(x, 7), lib.histogram(x, 5, range=(-1.0, 1.0), density=True), x.histogram(4, weight=w),
               lib.histogram(x, lib.tensor([-1.0, 0.0, 0.5, 2.0], dtype=lib.float64), weight=w, density=True),
               lib.histogram(lib.tensor([1.0, 1.0]), 2), lib.histogram(lib.tensor([1.0, 2.0, 3.0, 4.0]), 3)]  # fmt: skip
        return [tuple(h) for h in out] + [type(out[0]).__name__]

    same(run)


def test_histogram_errors():
    same_error(lambda lib: lib.histc(lib.tensor([1, 2]), 4), "histogram_cpu", "'Long'")
    same_error(lambda lib: lib.histc(lib.tensor([1.0]), 4, 2, 1), "torch.histc: max must be larger than min")
    same_error(lambda lib: lib.histc(lib.tensor([1.0]), 0), "bins must be > 0")
    same_error(lambda lib: lib.histc(lib.tensor([NAN]), 2), "torch.histc: range of [nan, nan] is not finite")
    same_error(lambda lib: lib.histogram(lib.tensor([1, 2]), 2), "histogramdd", "'Long'")
    same_error(
        lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([0.0, 1.0], dtype=lib.float64)), "same dtype", "double"
    )
    same_error(lambda lib: lib.histogram(lib.tensor([1.0]), lib.tensor([0.0, 1.0]), range=(0.0, 1.0)), "histogram()")


# ---------------------------------------------------------------------------------------------- unravel_index, igamma


def test_unravel_index():
    def run(lib):
        return [lib.unravel_index(lib.tensor([5, 7, -1, 13]), (3, 4)), lib.unravel_index(lib.tensor(6), (2, 2, 2)),
                lib.unravel_index(lib.tensor([[1, 2]], dtype=lib.int32), [4]), lib.unravel_index(lib.tensor([0]), 5),
                lib.unravel_index(lib.tensor([1]), ())]  # fmt: skip

    same(run)
    same_error(lambda lib: lib.unravel_index(lib.tensor([1.0]), (3, 4)), "expected 'indices' to be integer dtype")
    same_error(
        lambda lib: lib.unravel_index(lib.tensor([1]), (3, -4)), "'shape' cannot have negative values, but got (3, -4)"
    )
    same_error(
        lambda lib: lib.unravel_index(lib.tensor([1]), (3, 1.5)), "expected 'shape' sequence to only contain ints"
    )
    same_error(lambda lib: lib.unravel_index(lib.tensor([1]), 1.5), "expected 'shape' to be int or sequence of ints")
    same_error(lambda lib: lib.unravel_index(lib.tensor([True]), 3), "expected 'indices' to be integer dtype")


def test_igamma_values_edges_and_dtypes():
    a = [0.0, 0.0, 1.0, -1.0, 2.0, 0.0, INF, 1.0, NAN, 3.0, 0.5]
    x = [0.0, 2.0, 0.0, 1.0, -1.0, INF, 1.0, INF, 1.0, NAN, 0.3]

    def run(lib):
        p, q = lib.tensor(a), lib.tensor(x)
        return [lib.igamma(p, q), lib.igammac(p, q), p.igamma(q.double()), lib.igamma(p[:1], q), p.clone().igammac_(q)]

    same(run)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_gradient_in_other_and_error_for_input(name):
    def run(lib):
        a = (_leaf(lib, (2, 3)).detach().abs() + 0.5).requires_grad_(False)
        x = (_leaf(lib, (2, 3), 1).abs() + 0.1).detach().requires_grad_()
        return derivatives(lib, getattr(lib, name)(a, x), [x])

    same(run)

    def first(lib):
        a = lib.tensor([1.5, 2.0], requires_grad=True)
        return getattr(lib, name)(a, lib.tensor([1.0, 2.0])).sum().backward()

    same_error(first, f"the derivative for '{name}: input' is not implemented")
    same_error(lambda lib: getattr(lib, name)(lib.tensor([1, 2]), lib.tensor([1, 2])), f"{name}_cpu", "'Long'")
    same_error(lambda lib: getattr(lib, name)(lib.tensor([1.0]), 2.0), f"{name}()", "must be Tensor")


def test_no_warning_from_quiet_functions():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        minigrad.quantile(minigrad.tensor([1.0, 2.0]), 0.5)
        minigrad.cov(minigrad.tensor([[1.0, 2.0, 4.0]]))
