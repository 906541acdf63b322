"""tan and torch.special (gamma family, erfc/erfinv, Bessel i0/i1, normal CDF, entr, xlog1py and
the aliases of existing ops) against PyTorch: values, dtypes, nodes, gradients, second
derivatives and the graphs of the first derivatives, poles and infinities, integer inputs,
in-place forms, Tensor methods and errors.
"""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

pytestmark = pytest.mark.usefixtures("on_device")

INF, NAN = math.inf, math.nan

SPECIAL = (
    "digamma entr erf erfc erfinv exp2 expit expm1 gammaln i0 i0e i1 i1e log1p log_ndtr log_softmax logit "
    "logsumexp multigammaln ndtr ndtri polygamma psi round sinc softmax xlog1py xlogy"
).split()
TOP_LEVEL = "tan tan_ lgamma digamma polygamma mvlgamma erfc erfc_ erfinv i0 i0_".split()
METHODS = "tan lgamma digamma polygamma mvlgamma erfc erfinv i0".split()


@pytest.mark.parametrize("name", SPECIAL)
def test_torch_special_names_exist(name):
    assert hasattr(torch.special, name)
    assert name in minigrad.special.__all__
    assert callable(getattr(minigrad.special, name))


@pytest.mark.parametrize("name", TOP_LEVEL)
def test_top_level_functions_exist_as_in_torch(name):
    assert hasattr(torch, name)
    assert hasattr(minigrad, name)


@pytest.mark.parametrize("name", METHODS)
def test_methods_and_in_place_methods_exist_as_in_torch(name):
    for method in (name, name + "_"):
        assert hasattr(minigrad.Tensor, method) == hasattr(torch.Tensor, method), method


# ----------------------------------------------------------------------------------------------
# Values, nodes, gradients and second derivatives
# ----------------------------------------------------------------------------------------------

MIXED = [0.3, -0.7, 1.5, 2.5, 4.0, -2.5]  # no poles
POSITIVE = [0.3, 0.7, 1.5, 2.5, 4.0]
UNIT = [0.1, -0.5, 0.3, 0.9, -0.95, 0.0]  # erfinv's domain
PROBABILITY = [0.1, 0.5, 0.3, 0.9, 0.975]

# name: (run(lib, x), data)
CASES = {
    "tan": (lambda lib, x: lib.tan(x), MIXED),
    "tan method": (lambda lib, x: x.tan(), MIXED),
    "lgamma": (lambda lib, x: lib.lgamma(x), MIXED),
    "gammaln": (lambda lib, x: lib.special.gammaln(x), MIXED),
    "digamma": (lambda lib, x: x.digamma(), MIXED),
    "psi": (lambda lib, x: lib.special.psi(x), MIXED),
    "polygamma 0": (lambda lib, x: lib.polygamma(0, x), MIXED),
    "polygamma 1": (lambda lib, x: x.polygamma(1), MIXED),
    "polygamma 2": (lambda lib, x: lib.special.polygamma(2, x), MIXED),
    "polygamma 5": (lambda lib, x: lib.polygamma(5, x), POSITIVE),
    "mvlgamma p=3": (lambda lib, x: x.mvlgamma(3), [1.5, 2.5, 4.0]),
    "multigammaln p=1": (lambda lib, x: lib.special.multigammaln(x, 1), POSITIVE),
    "multigammaln p=2": (lambda lib, x: lib.special.multigammaln(x, p=2), [0.7, 1.5, 4.0]),
    "erfc": (lambda lib, x: lib.erfc(x), MIXED),
    "erfinv": (lambda lib, x: x.erfinv(), UNIT),
    "i0": (lambda lib, x: lib.i0(x), MIXED + [0.0]),
    "i0e": (lambda lib, x: lib.special.i0e(x), MIXED + [0.0]),
    "i1": (lambda lib, x: lib.special.i1(x), MIXED + [0.0]),
    "i1e": (lambda lib, x: lib.special.i1e(x), MIXED + [0.0]),
    "ndtr": (lambda lib, x: lib.special.ndtr(x), MIXED),
    "ndtri": (lambda lib, x: lib.special.ndtri(x), PROBABILITY),
    "log_ndtr": (lambda lib, x: lib.special.log_ndtr(x), MIXED + [-5.0]),  # (float32 cancels too much further out)
    "entr": (lambda lib, x: lib.special.entr(x), POSITIVE),
    "xlog1py": (lambda lib, x: lib.special.xlog1py(x, x.flip(0) + 3), MIXED),
    "xlog1py, a number first": (lambda lib, x: lib.special.xlog1py(2, x), POSITIVE),
    "xlog1py, a number second": (lambda lib, x: lib.special.xlog1py(x, 3), MIXED),
    "xlog1py, a number second below -1": (lambda lib, x: lib.special.xlog1py(x, -2), MIXED),
    "xlog1py, broadcast": (lambda lib, x: lib.special.xlog1py(x.reshape(2, 3), x[:3] + 2), MIXED),
    "round": (lambda lib, x: lib.special.round(x), MIXED),
    "round, decimals": (lambda lib, x: lib.special.round(x * 3.3, decimals=1), MIXED),
    "expit": (lambda lib, x: lib.special.expit(x), MIXED),
    "logit": (lambda lib, x: lib.special.logit(x), PROBABILITY),
    "erf": (lambda lib, x: lib.special.erf(x), MIXED),
    "exp2": (lambda lib, x: lib.special.exp2(x), MIXED),
    "expm1": (lambda lib, x: lib.special.expm1(x), MIXED),
    "log1p": (lambda lib, x: lib.special.log1p(x), POSITIVE),
    "sinc": (lambda lib, x: lib.special.sinc(x), MIXED),
    "xlogy": (lambda lib, x: lib.special.xlogy(x, x.flip(0) + 3), MIXED),
    "logsumexp": (lambda lib, x: lib.special.logsumexp(x, 0), MIXED),
    "softmax": (lambda lib, x: lib.special.softmax(x, 0), MIXED),
    "log_softmax": (lambda lib, x: lib.special.log_softmax(x, dim=0), MIXED),
}
NO_SECOND = {"round", "round, decimals"}  # piecewise constant: the first derivative has no graph


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", CASES)
def test_values_nodes_gradients_and_second_derivatives(name, dtype):
    run, data = CASES[name]

    def snippet(lib):
        x = lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)
        return derivatives(lib, run(lib, x), [x], second=name not in NO_SECOND)

    same(snippet)


# The new ops' first derivatives, recorded with create_graph=True: PyTorch's formulas, node for
# node (a formula written another way gives other nodes here).
FIRST_DERIVATIVE_GRAPHS = [
    "tan",
    "lgamma",
    "digamma",
    "polygamma 2",
    "mvlgamma p=3",
    "erfc",
    "erfinv",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "ndtri",
    "log_ndtr",
    "entr",
    "xlog1py",
    "xlog1py, a number first",
    "xlog1py, a number second",
    "xlog1py, a number second below -1",
]


@pytest.mark.parametrize("name", FIRST_DERIVATIVE_GRAPHS)
def test_first_derivatives_record_pytorchs_graph(name):
    run, data = CASES[name]

    def snippet(lib):
        x = lib.tensor(data, dtype=lib.float64, requires_grad=True)
        upstream = lib.ones(len(data), dtype=lib.float64, requires_grad=True)
        out = run(lib, x)
        (g,) = lib.autograd.grad(out, x, upstream.reshape(out.shape), create_graph=True)
        return node_names(g)

    same(snippet)


def _name(node) -> str | None:
    return None if node is None else node.name().replace("torch::autograd::", "")


def test_edges_and_saved_values_of_the_nodes():
    def snippet(lib):
        x = lib.tensor([0.5, 1.5], requires_grad=True)
        y = lib.tensor([2.0, 3.0], requires_grad=True)
        mv = lib.mvlgamma(x + 2, 2).grad_fn
        both = lib.special.xlog1py(x, y).grad_fn
        return (
            [_name(f) for f, _ in mv.next_functions],
            mv._saved_p,
            mv._saved_self,
            lib.polygamma(3, x).grad_fn._saved_n,
            lib.tan(x).grad_fn._saved_result,
            [_name(f) for f, _ in both.next_functions],
            [_name(f) for f, _ in lib.special.xlog1py(2.0, y).grad_fn.next_functions],
            [_name(f) for f, _ in lib.special.xlog1py(x.detach(), y).grad_fn.next_functions],
            lib.special.i1(x).grad_fn._saved_result,
        )

    same(snippet)


# ----------------------------------------------------------------------------------------------
# Poles, infinities, NaN and domains
# ----------------------------------------------------------------------------------------------

EDGES = [0.0, -0.0, -1.0, -2.0, -2.5, 1e-30, 200.0, INF, -INF, NAN]
EDGE_CASES = {
    "lgamma": lambda lib, x: lib.lgamma(x),
    "digamma": lambda lib, x: lib.digamma(x),
    "polygamma 1": lambda lib, x: lib.polygamma(1, x),  # PyTorch's large finite values at the poles
    "polygamma 2": lambda lib, x: lib.polygamma(2, x),
    "polygamma 3": lambda lib, x: lib.polygamma(3, x),
    "erfc": lambda lib, x: lib.erfc(x),
    "i0": lambda lib, x: lib.i0(x),
    "i0e": lambda lib, x: lib.special.i0e(x),
    "i1": lambda lib, x: lib.special.i1(x),
    "i1e": lambda lib, x: lib.special.i1e(x),
    "log_ndtr": lambda lib, x: lib.special.log_ndtr(x),
    "ndtr": lambda lib, x: lib.special.ndtr(x),
    "entr": lambda lib, x: lib.special.entr(x),
    "erfinv": lambda lib, x: lib.erfinv(x),
    "ndtri": lambda lib, x: lib.special.ndtri(x),
    "tan": lambda lib, x: lib.tan(x),
    "mvlgamma": lambda lib, x: lib.mvlgamma(x, 2),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", EDGE_CASES)
def test_poles_infinities_and_nan(name, dtype):
    data = EDGES + [-1.0, 1.0, 1.5, -1.5, 0.3, 0.975]  # also erfinv's and ndtri's domain edges

    def snippet(lib):
        x = lib.tensor(data, dtype=getattr(lib, dtype))
        out = EDGE_CASES[name](lib, x)
        return out, 1 / out  # (1 / out tells -0.0 from 0.0)

    same(snippet)


def test_gradients_at_the_poles_and_domain_edges():
    def snippet(lib):
        x = lib.tensor([0.0, -1.0, 1.0, -INF], requires_grad=True)
        u = lib.tensor([-1.0, 1.0, 0.0, 2.0], requires_grad=True)
        parts = [lib.lgamma(x), lib.digamma(x), lib.erfinv(u), lib.special.entr(x), lib.special.ndtri(u.abs())]
        parts.append(lib.special.xlog1py(lib.tensor([0.0, 0.0, 1.0, 2.0]), u - 1))
        return [lib.autograd.grad(p.sum(), (x, u), allow_unused=True, materialize_grads=True) for p in parts]

    same(snippet)


def test_i1_and_i1e_take_the_limit_at_zero_in_their_gradients():
    def snippet(lib):
        x = lib.tensor([0.0, 1e-20, -1e-20, 1.0], requires_grad=True)
        return [lib.autograd.grad(f(x).sum(), x) for f in (lib.special.i1, lib.special.i1e)]

    same(snippet)


# ----------------------------------------------------------------------------------------------
# Integers, bools, shapes and layouts
# ----------------------------------------------------------------------------------------------

INTEGER_CASES = {
    "tan": lambda lib, x: lib.tan(x),
    "lgamma": lambda lib, x: lib.lgamma(x),
    "digamma": lambda lib, x: lib.digamma(x),
    "polygamma": lambda lib, x: lib.polygamma(1, x),
    "mvlgamma": lambda lib, x: lib.mvlgamma(x, 2),
    "erfc": lambda lib, x: lib.erfc(x),
    "erfinv": lambda lib, x: lib.erfinv(x),
    "i0": lambda lib, x: lib.i0(x),
    "i1e": lambda lib, x: lib.special.i1e(x),
    "ndtr": lambda lib, x: lib.special.ndtr(x),
    "ndtri": lambda lib, x: lib.special.ndtri(x),
    "log_ndtr": lambda lib, x: lib.special.log_ndtr(x),
    "entr": lambda lib, x: lib.special.entr(x),
    "xlog1py": lambda lib, x: lib.special.xlog1py(x, x + 1),
    "xlog1py, numbers": lambda lib, x: (lib.special.xlog1py(2, x), lib.special.xlog1py(x, 2.5)),
}


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
@pytest.mark.parametrize("name", INTEGER_CASES)
def test_integers_give_the_default_float_dtype(name, dtype):
    same(lambda lib: INTEGER_CASES[name](lib, lib.tensor([0, 1, 2, 3], dtype=getattr(lib, dtype))))


@pytest.mark.parametrize("name", ["lgamma", "erfinv", "i0", "entr", "ndtr", "tan"])
def test_bools_give_floats(name):
    same(lambda lib: INTEGER_CASES[name](lib, lib.tensor([True, False])))


@pytest.mark.parametrize("name", ["lgamma", "polygamma", "mvlgamma", "i1e", "ndtr", "xlog1py", "tan"])
def test_zero_d_empty_and_non_contiguous_inputs(name):
    def snippet(lib):
        x = (lib.arange(12.0).reshape(3, 4) / 4 + 0.6).requires_grad_()
        outs = [INTEGER_CASES[name](lib, t) for t in (x[1, 2], x[:0], x.t(), x[:, ::2])]
        (g,) = lib.autograd.grad(sum(o.sum() for o in outs), x)
        return outs, g

    same(snippet)


def test_float16_keeps_its_dtype():
    same(
        lambda lib: [
            f(lib.tensor([0.3, 1.5], dtype=lib.float16)) for f in (lib.lgamma, lib.erfc, lib.special.i1e, lib.tan)
        ]
    )


# ----------------------------------------------------------------------------------------------
# In place
# ----------------------------------------------------------------------------------------------

IN_PLACE = {
    "tan_": lambda lib, x: x.tan_(),
    "torch.tan_": lambda lib, x: lib.tan_(x),
    "lgamma_": lambda lib, x: x.lgamma_(),
    "digamma_": lambda lib, x: x.digamma_(),
    "polygamma_": lambda lib, x: x.polygamma_(2),
    "mvlgamma_": lambda lib, x: x.mvlgamma_(2),
    "erfc_": lambda lib, x: x.erfc_(),
    "torch.erfc_": lambda lib, x: lib.erfc_(x),
    "erfinv_": lambda lib, x: x.erfinv_(),
    "i0_": lambda lib, x: x.i0_(),
    "torch.i0_": lambda lib, x: lib.i0_(x),
}


@pytest.mark.parametrize("name", IN_PLACE)
def test_in_place_forms_change_the_tensor_and_record_the_node(name):
    def snippet(lib):
        leaf = lib.tensor([0.2, 0.45, 0.7], dtype=lib.float64, requires_grad=True)
        y = leaf * 2
        out = IN_PLACE[name](lib, y)
        (g,) = lib.autograd.grad(y.sum(), leaf, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), leaf)
        return out is y, y._version, node_names(y), g, gg

    same(snippet)


def test_top_level_in_place_functions():
    def snippet(lib):
        x, y, z = lib.tensor([0.5, 1.0]), lib.tensor([0.5, 1.0]), lib.tensor([0.5, 1.0])
        return lib.tan_(x) is x, lib.erfc_(y) is y, lib.i0_(z) is z, x, y, z

    same(snippet)


@pytest.mark.parametrize("name", ["lgamma_", "erfinv_", "tan_", "mvlgamma_"])
def test_in_place_on_integers_raises(name):
    same_error(lambda lib: IN_PLACE[name](lib, lib.tensor([1, 2])), "can't be cast to the desired output type")


@pytest.mark.parametrize("name", ["lgamma_", "polygamma_", "torch.i0_"])
def test_in_place_on_a_leaf_that_requires_grad_raises(name):
    same_error(
        lambda lib: IN_PLACE[name](lib, lib.tensor([0.5], requires_grad=True)), "a leaf Variable that requires grad"
    )


# ----------------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------------


def test_polygamma_argument_errors():
    same_error(lambda lib: lib.polygamma(-1, lib.tensor([1.0])), "does not support negative n")
    same_error(lambda lib: lib.polygamma(1.5, lib.tensor([1.0])), "argument 'n'", "must be int, not float")
    same_error(lambda lib: lib.polygamma(True, lib.tensor([1.0])), "argument 'n'", "must be int, not bool")
    same_error(lambda lib: lib.polygamma(1, 2.0), "argument 'input'", "must be Tensor, not float")
    same_error(lambda lib: lib.tensor([1.0]).polygamma_(-2), "does not support negative n")


def test_mvlgamma_argument_errors():
    same_error(lambda lib: lib.mvlgamma(lib.tensor([2.0]), 0), "p has to be greater than or equal to 1")
    same_error(lambda lib: lib.special.multigammaln(lib.tensor([2.0]), 1.5), "argument 'p'", "must be int, not float")
    same_error(lambda lib: lib.mvlgamma(lib.tensor([True]), 1), "may not be a boolean tensor")


@pytest.mark.parametrize("name", ["tan", "lgamma", "digamma", "erfc", "erfinv", "i0"])
def test_numbers_are_not_tensors(name):
    same_error(lambda lib: getattr(lib, name)(0.5), "argument 'input'", "must be Tensor, not float")


def test_xlog1py_of_two_numbers_raises():
    same_error(lambda lib: lib.special.xlog1py(2, 3), "received an invalid combination of arguments")


def test_mvlgamma_below_its_domain_gives_inf_as_in_torch():
    same(lambda lib: lib.mvlgamma(lib.tensor([0.5, 2.0, -3.0]), 2))


@pytest.mark.parametrize("dtype", ["bool", "int64", "uint8"])
def test_special_round_of_integers_and_bools_raises(dtype):
    same_error(
        lambda lib: lib.special.round(lib.tensor([1], dtype=getattr(lib, dtype))),
        "round_vml_cpu",
        "not implemented for",
    )
