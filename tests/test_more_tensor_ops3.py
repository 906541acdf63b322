"""einsum, unique/unique_consecutive, bincount, searchsorted/bucketize and addmm's beta and alpha
against PyTorch: values, dtypes, recorded graphs (einsum's node for node), first and second
derivatives, the nodes of the results PyTorch cannot differentiate, errors and edge shapes.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = [
    pytest.mark.usefixtures("on_device"),
    pytest.mark.filterwarnings("ignore:torch.searchsorted.*non-contiguous"),  # PyTorch's performance hint
]

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

NAN = float("nan")


@pytest.mark.parametrize(
    "name",
    "einsum unique unique_consecutive bincount searchsorted bucketize addmm cdist tril_indices triu_indices".split(),
)
def test_the_function_and_the_method_exist_as_in_torch(name):
    assert name in minigrad.functions.__all__
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name)


def _operands(lib, shapes, requires_grad=True):
    """Float64 operands of ``shapes`` with distinct values (the same in both libraries)."""
    out = []
    for n, shape in enumerate(shapes):
        count = 1
        for s in shape:
            count *= s
        x = (lib.arange(count, dtype=lib.float64) * 0.37 - n).sin().reshape(shape)
        out.append(x.requires_grad_(requires_grad))
    return out


def _derivatives(lib, f, inputs):
    """The result, its node names, the gradients (made with create_graph) and the gradients of
    their squared sum (second derivatives)."""
    out = f(*inputs)
    grad_out = lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape).cos()
    grads = lib.autograd.grad(out, inputs, grad_out, create_graph=True, allow_unused=True, materialize_grads=True)
    total = sum((g * g).sum() for g in grads)
    second = lib.autograd.grad(total, inputs, allow_unused=True, materialize_grads=True) if total.requires_grad else ()
    return out, node_names(out), list(grads), list(second)


# ----------------------------------------------------------------------------------------------
# einsum
# ----------------------------------------------------------------------------------------------

EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("i,i->", [(3,), (3,)]),
    ("ij->ji", [(2, 3)]),
    ("...ij,...jk", [(5, 2, 3), (5, 3, 4)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ij", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->i", [(2, 3)]),
    ("ijk,jl->il", [(2, 3, 4), (3, 5)]),
    ("i,i,i->i", [(3,), (3,), (3,)]),
    ("bi,bi->b", [(2, 3), (1, 3)]),  # a batch of one broadcasts
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("kj,jl->l", [(2, 3), (3, 4)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),  # ellipsis dims broadcast
    ("ba,b->a", [(2, 3), (2,)]),
    ("iij->j", [(3, 3, 2)]),
    ("i,j,k->ijk", [(3,), (2,), (2,)]),
    ("...ij->j", [(5, 2, 3)]),
    ("i...j,kj->k", [(5, 2, 3), (4, 3)]),
    ("ii,ij->j", [(3, 3), (3, 4)]),
    ("ij,jkl->i", [(2, 3), (3, 4, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk", [(2, 1), (3, 4)]),  # a subscript of size 1 broadcasts
    ("ij,jk", [(2, 3), (1, 4)]),
    ("", [()]),
    (",->", [(), ()]),
    ("i,i->i", [(1,), (2,)]),
    ("Ba,aC->CB", [(2, 3), (3, 4)]),  # bmm takes the operands the other way round
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("iii->i", [(2, 2, 2)]),
    ("b...,b...->...", [(2, 3, 4), (2, 1, 4)]),
    ("ij,kl->ijkl", [(2, 3), (4, 5)]),
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 2)]),
    ("...", [(2, 3)]),
    ("ij->...ij", [(2, 3)]),
    (" i j , j k -> i k ", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize(("equation", "shapes"), EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_values_graph_and_derivatives_match_torch(equation, shapes):
    same(lambda lib: _derivatives(lib, lambda *ops: lib.einsum(equation, *ops), _operands(lib, shapes)))


def test_einsum_records_the_nodes_torch_records():
    """The layout of the pairwise products (permute, view or reshape alias, bmm, view back)."""

    def run(lib):
        a, b = _operands(lib, [(2, 3), (3, 4)])
        out = lib.einsum("ij,jk->ik", a, b)
        node = out.grad_fn.next_functions[0][0]  # the permute back to the aligned dims
        return node_names(out), node._saved_dims, lib.einsum("Ba,aC->CB", a, b).grad_fn.next_functions[0][0]._saved_dims

    assert same(run)[0][:4] == ["ViewBackward0", "PermuteBackward0", "ViewBackward0", "BmmBackward0"]


def test_einsum_takes_the_operands_as_one_list_and_keeps_integer_dtypes():
    def run(lib):
        a, b = lib.arange(6).reshape(2, 3), lib.arange(12).reshape(3, 4)
        return lib.einsum("ij,jk->ik", [a, b]), lib.einsum("ij,jk->ik", (a, b)), lib.einsum("ii", a[:, :2])

    same(run)


def test_einsum_of_non_contiguous_and_empty_operands():
    def run(lib):
        a, b = _operands(lib, [(3, 2), (4, 3)])
        empty = lib.einsum("ij,jk->ik", lib.zeros(2, 0), lib.zeros(0, 4))
        return _derivatives(lib, lambda x, y: lib.einsum("ji,jk->ik", x.t(), y.t()), [a.t(), b]), empty

    same(run)


EINSUM_ERRORS = [
    ("ij,jk->ik", [(2, 3)], RuntimeError, "fewer operands were provided than specified"),
    ("ij,jk", [(2, 3), (3, 4), (3, 4)], RuntimeError, "more operands were provided than specified"),
    ("ij->ik", [(2, 3)], RuntimeError, "output subscript k does not appear in the equation for any input operand"),
    (
        "ijk",
        [(2, 3)],
        RuntimeError,
        "number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis",
    ),
    (
        "...ijk",
        [(2, 3)],
        RuntimeError,
        "the number of subscripts in the equation (3) is more than the number of dimensions (2) for operand 0",
    ),
    ("ij->ii", [(2, 3)], RuntimeError, "output subscript i appears more than once in the output"),
    (
        "ij,jk->",
        [(2, 3), (4, 4)],
        RuntimeError,
        "subscript j has size 4 for operand 1 which does not broadcast with previously seen size 3",
    ),
    (
        "...i,...i",
        [(2, 3), (4, 3)],
        RuntimeError,
        "dimension 0 covered by ellipsis in operand 1has size 4 which does not broadcast",
    ),
    ("ii", [(2, 3)], RuntimeError, "subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
    (
        "i1",
        [(2, 3)],
        RuntimeError,
        "invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]",
    ),
    ("ij->j->", [(2, 3)], RuntimeError, "invalid subscript given at index 5"),
    ("ij..,jk", [(2, 3), (3, 4)], RuntimeError, "found '.' for operand 0 that is not part of any ellipsis"),
    ("...ij...", [(2, 3)], RuntimeError, "found '.' for operand 0 for which an ellipsis was already found"),
    ("ij->i.", [(2, 3)], RuntimeError, "found '.' for output that is not part of any ellipsis (...)"),
    ("...i->......", [(2, 3)], RuntimeError, "found '.' for output but an ellipsis (...) was already found"),
    ("i", [], ValueError, "must specify the equation string and at least one operand"),
]


@pytest.mark.parametrize(("equation", "shapes", "error", "words"), EINSUM_ERRORS, ids=[e[0] for e in EINSUM_ERRORS])
def test_einsum_rejects_bad_equations_as_torch(equation, shapes, error, words):
    assert type(same_error(lambda lib: lib.einsum(equation, *_operands(lib, shapes)), words)) is error


def test_einsum_rejects_bad_arguments_as_torch():
    same_error(
        lambda lib: lib.einsum(3, lib.zeros(2)), "einsum(): argument 'equation' (position 1) must be str, not int"
    )
    same_error(lambda lib: lib.einsum("ij", [[1.0, 2.0]]), "expected Tensor as element 0 in argument 1, but got float")
    same_error(
        lambda lib: lib.einsum("ij,jk", lib.zeros(2, 3), lib.zeros(3, 4, dtype=lib.float64)),
        "expected scalar type Float but found Double",
    )


# ----------------------------------------------------------------------------------------------
# unique, unique_consecutive
# ----------------------------------------------------------------------------------------------

FLAGS = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize(("inverse", "counts"), FLAGS)
@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
def test_unique_results_match_torch(name, inverse, counts):
    def run(lib):
        fn = getattr(lib, name)
        x = lib.tensor([[3, 1, 3, 2], [2, 2, 5, 1]])
        rows = lib.tensor([[1, 2], [1, 2], [0, 5], [1, 2]])
        floats = lib.tensor([2.0, NAN, 1.0, 1.0, NAN, 2.0])
        return (
            fn(x, return_inverse=inverse, return_counts=counts),
            fn(rows, return_inverse=inverse, return_counts=counts, dim=0),
            fn(rows, return_inverse=inverse, return_counts=counts, dim=-1),
            fn(floats, return_inverse=inverse, return_counts=counts),  # each NaN is its own value
            fn(lib.tensor(7), return_inverse=inverse, return_counts=counts),
            fn(lib.tensor([True, False, False]), return_inverse=inverse, return_counts=counts),
            fn(lib.zeros(0), return_inverse=inverse, return_counts=counts),
            fn(lib.zeros(0, 3), return_inverse=inverse, return_counts=counts, dim=0),
            fn(x.t(), return_inverse=inverse, return_counts=counts, dim=1),  # not contiguous
        )

    same(run)


def test_unique_sorted_false_and_the_methods_match_torch():
    def run(lib):
        x = lib.tensor([5, 3, 9, 3, 1, 7, 5])
        return (
            lib.unique(x, sorted=False, return_inverse=True, return_counts=True),
            x.unique(return_counts=True),
            x.unique(dim=0),
            x.unique_consecutive(return_inverse=True),
            type(lib.unique(x, return_counts=True)).__name__,
        )

    same(run)


@pytest.mark.parametrize(
    ("call", "node", "what"),
    [
        (lambda lib, x: lib.unique(x), "Unique2Backward0", "_unique2"),
        (lambda lib, x: lib.unique(x.view(2, 2), dim=0), "UniqueDimBackward0", "unique_dim"),
        (
            lambda lib, x: lib.unique_consecutive(x, return_counts=True)[0],
            "UniqueConsecutiveBackward0",
            "unique_consecutive",
        ),
    ],
)
def test_unique_of_a_tensor_that_requires_grad_records_a_node_whose_backward_raises(call, node, what):
    def run(lib):
        x = lib.tensor([3.0, 2.0, 2.0, 1.0], requires_grad=True)
        out = call(lib, x)
        return out, node_names(out)

    assert same(run)[1][0] == node
    same_error(
        lambda lib: call(lib, lib.tensor([3.0, 2.0, 2.0, 1.0], requires_grad=True)).sum().backward(),
        what,
        "is not implemented",
    )


def test_unique_errors_match_torch():
    same_error(lambda lib: lib.unique(lib.zeros(2, 3), dim=2), "Dimension out of range")
    same_error(lambda lib: lib.unique(lib.tensor(3), dim=0), "Dimension specified as 0 but tensor has no dimensions")
    same_error(lambda lib: lib.unique(lib.zeros(2, 0), dim=0), "There are 0 sized dimensions, and they aren't selected")
    same_error(lambda lib: lib.unique_consecutive(lib.zeros(2, 3), dim=-3), "Dimension out of range")


# ----------------------------------------------------------------------------------------------
# bincount
# ----------------------------------------------------------------------------------------------


def test_bincount_counts_and_weights_match_torch():
    def run(lib):
        x = lib.tensor([0, 1, 1, 3])
        return (
            lib.bincount(x),
            lib.bincount(x, minlength=6),
            lib.bincount(x, minlength=2),
            x.bincount(),
            lib.bincount(x, lib.tensor([0.5, 1.0, 1.0, 2.0])),  # float32 weights: float32
            lib.bincount(x, lib.tensor([0.5, 1.0, 1.0, 2.0], dtype=lib.float64)),
            lib.bincount(x, lib.tensor([1, 2, 3, 4])),  # other weights: float64
            lib.bincount(x, lib.tensor([1, 2, 3, 4], dtype=lib.float16)),
            lib.bincount(x, lib.tensor([True, False, True, True])),
            lib.bincount(lib.tensor([1, 2], dtype=lib.uint8)),
            lib.bincount(lib.tensor([1, 2], dtype=lib.int32)),
            lib.bincount(lib.tensor([], dtype=lib.int64)),
            lib.bincount(lib.tensor([], dtype=lib.int64), minlength=3),
            lib.bincount(lib.tensor([4, 0, 2, 0, 3, 1])[::2]),
        )

    same(run)


def test_bincount_with_weights_that_require_grad_records_a_node_whose_backward_raises():
    def run(lib):
        w = lib.tensor([0.5, 1.0, 1.0, 2.0], requires_grad=True)
        out = lib.bincount(lib.tensor([0, 1, 1, 3]), w)
        return out, node_names(out), len(out.grad_fn.next_functions)

    same(run)
    same_error(
        lambda lib: lib.bincount(lib.tensor([0, 1]), lib.tensor([1.0, 2.0], requires_grad=True)).sum().backward(),
        "derivative for aten::bincount is not implemented",
    )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda lib: lib.bincount(lib.tensor([-1, 2])), "bincount only supports 1-d non-negative integral inputs."),
        (lambda lib: lib.bincount(lib.tensor([[1, 2]])), "bincount only supports 1-d non-negative integral inputs."),
        (lambda lib: lib.bincount(lib.tensor(3)), "bincount only supports 1-d non-negative integral inputs."),
        (lambda lib: lib.bincount(lib.tensor([1.0, 2.0])), "\"bincount_cpu\" not implemented for 'Float'"),
        (lambda lib: lib.bincount(lib.tensor([True])), "\"bincount_cpu\" not implemented for 'Bool'"),
        (lambda lib: lib.bincount(lib.tensor([[1.0]]), minlength=-1), "not implemented for 'Float'"),
        (lambda lib: lib.bincount(lib.tensor([[1]]), minlength=-1), "minlength should be >= 0"),
        (
            lambda lib: lib.bincount(lib.tensor([1]), lib.ones(3)),
            "weights should be 1-d and have the same length as input",
        ),
        (
            lambda lib: lib.bincount(lib.tensor([1, 2]), lib.ones(2, 1)),
            "weights should be 1-d and have the same length as input",
        ),
        (lambda lib: lib.bincount([1]), "bincount(): argument 'input' (position 1) must be Tensor, not list"),
        (
            lambda lib: lib.bincount(lib.tensor([1]), minlength=2.5),
            "bincount(): argument 'minlength' must be int, not float",
        ),
    ],
)
def test_bincount_errors_match_torch(call, words):
    if "cpu" in words and minigrad.get_default_device().type != "cpu":
        pytest.skip("PyTorch names the CPU kernel")
    same_error(call, words)


# ----------------------------------------------------------------------------------------------
# searchsorted, bucketize
# ----------------------------------------------------------------------------------------------


def test_searchsorted_and_bucketize_match_torch():
    def run(lib):
        s, v = lib.tensor([1, 3, 5, 7, 9]), lib.tensor([3, 6, 9, 0, 10])
        rows, row_values = lib.tensor([[1, 3, 5], [2, 4, 6]]), lib.tensor([[3, 6], [1, 7]])
        floats = lib.tensor([1.0, 2.0, NAN])
        return (
            lib.searchsorted(s, v),
            lib.searchsorted(s, v, right=True),
            lib.searchsorted(s, v, side="right"),
            lib.searchsorted(s, v, side="left"),
            lib.searchsorted(s, v, right=False, side="right"),  # side wins
            lib.searchsorted(s, v, out_int32=True),
            lib.searchsorted(rows, row_values),  # one sorted row per row of values
            lib.searchsorted(rows.t().contiguous().t(), row_values, right=True),
            lib.searchsorted(s, row_values),
            lib.searchsorted(s, 4),
            lib.searchsorted(s, 4.5),
            lib.searchsorted(s, lib.tensor(4)),
            lib.searchsorted(s, lib.tensor([2.5, 3.0])),
            lib.searchsorted(s.double(), lib.tensor([2, 3])),
            lib.searchsorted(lib.tensor([5, 1, 9, 3]), lib.tensor([2, 6]), sorter=lib.tensor([1, 3, 0, 2])),
            lib.searchsorted(lib.tensor([], dtype=lib.int64), v),
            lib.searchsorted(s, lib.tensor([], dtype=lib.int64)),
            lib.searchsorted(floats, lib.tensor([NAN, 1.5, 2.0])),  # PyTorch's comparisons decide where NaN go
            lib.searchsorted(floats, lib.tensor([NAN, 1.5, 2.0]), right=True),
            lib.searchsorted(lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([1.5], requires_grad=True)),
            lib.bucketize(v, s),
            lib.bucketize(v, s, right=True),
            lib.bucketize(v, s, out_int32=True),
            lib.bucketize(4, s),
            lib.bucketize(row_values, s),
            lib.bucketize(lib.tensor([1.5]), lib.tensor([])),
        )

    same(run)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda lib: lib.searchsorted(lib.tensor([1]), lib.tensor([1]), side="middle"),
            "side can only be 'left' or 'right' but got middle",
        ),
        (
            lambda lib: lib.searchsorted(lib.tensor([1]), lib.tensor([1]), right=True, side="left"),
            "side and right can't be set to opposites",
        ),
        (
            lambda lib: lib.searchsorted(lib.tensor(3), lib.tensor([2])),
            "boundaries tensor should have positive dimension, but got 0 dimension",
        ),
        (
            lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5], [2, 4, 6]]), lib.tensor([[3, 6]])),
            "first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor [2, 3] and input value tensor [1, 2]",
        ),
        (
            lambda lib: lib.searchsorted(lib.tensor([[1, 2]]), lib.tensor(1)),
            "input value can be a scalar only when boundaries tensor dimension is 1",
        ),
        (
            lambda lib: lib.searchsorted(
                lib.tensor([1, 2]), lib.tensor([1]), sorter=lib.tensor([0, 1], dtype=lib.int32)
            ),
            "sorter must be a tensor of long dtype but got dtype Int",
        ),
        (
            lambda lib: lib.searchsorted(lib.tensor([5, 1, 9]), lib.tensor([2]), sorter=lib.tensor([1, 0])),
            "boundary and sorter must have the same size, but got boundary tensor [3]and got sorter tensor [2]",
        ),
        (lambda lib: lib.searchsorted(lib.tensor([False, True]), lib.tensor([True])), "not implemented for 'Bool'"),
        (
            lambda lib: lib.bucketize(lib.tensor([1]), lib.tensor([[1, 2]])),
            "boundaries tensor must be 1 dimension, but got dim(2)",
        ),
    ],
)
def test_searchsorted_and_bucketize_errors_match_torch(call, words):
    same_error(call, words)


# ----------------------------------------------------------------------------------------------
# addmm's beta and alpha
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("beta", "alpha"), [(1, 1), (0.5, 2), (0, 1), (2, 0), (-1.5, 0.25)])
def test_addmm_with_beta_and_alpha_values_graph_and_derivatives_match_torch(beta, alpha):
    def run(lib):
        inputs = _operands(lib, [(3, 4), (3, 2), (2, 4)])
        return _derivatives(lib, lambda m, a, b: lib.addmm(m, a, b, beta=beta, alpha=alpha), inputs)

    same(run)


def test_addmm_with_a_bias_row_and_the_method_match_torch():
    def run(lib):
        bias, a, b = _operands(lib, [(4,), (3, 2), (2, 4)])
        return (
            _derivatives(lib, lambda m, x, y: m.addmm(x, y, beta=3, alpha=0.5), [bias, a, b]),
            _derivatives(lib, lambda m, x, y: lib.addmm(m, x, y.t().contiguous().t(), alpha=2), [bias, a, b]),
        )

    same(run)


def test_addmm_saves_beta_and_alpha_as_torch():
    def run(lib):
        m, a, b = _operands(lib, [(3, 4), (3, 2), (2, 4)])
        node = lib.addmm(m, a, b, beta=0.5, alpha=2).grad_fn
        return node._saved_beta, node._saved_alpha, node._saved_mat1, node._saved_mat2

    same(run)


def test_addmm_with_beta_0_does_not_read_input():
    def run(lib):
        m = lib.full((2, 2), NAN, dtype=lib.float64, requires_grad=True)
        a, b = _operands(lib, [(2, 3), (3, 2)])
        out = lib.addmm(m, a, b, beta=0)
        (grad,) = lib.autograd.grad(out.sum(), m)
        return out, grad

    same(run)


def test_addmm_of_integers_takes_whole_coefficients_as_torch():
    def run(lib):
        ones = lib.ones(2, 2, dtype=lib.int64)
        return (
            lib.addmm(ones, ones, ones, beta=0.5),
            lib.addmm(ones, ones, ones, alpha=2.5),
            lib.addmm(ones, ones, ones, beta=3),
        )

    same(run)


def test_addmm_errors_match_torch():
    same_error(lambda lib: lib.addmm(*[lib.ones(2, 2, dtype=lib.bool)] * 3, beta=2), "not implemented for 'Bool'")
    same_error(
        lambda lib: lib.addmm(lib.ones(2, 2), lib.ones(2, 3), lib.ones(2, 2), alpha=2),
        "cannot be multiplied (2x3 and 2x2)",
    )


# ----------------------------------------------------------------------------------------------
# cdist, tril_indices, triu_indices
# ----------------------------------------------------------------------------------------------

CDIST = [
    ((3, 2), (4, 2), {}),
    ((3, 2), (4, 2), {"p": 1.0}),
    ((3, 2), (4, 2), {"p": 0.0}),
    ((3, 2), (4, 2), {"p": float("inf")}),
    ((3, 2), (4, 2), {"p": 3.0}),
    ((3, 2), (4, 2), {"p": 0.5}),
    ((3, 2), (4, 2), {"p": 1.5}),
    ((3, 2), (4, 2), {"compute_mode": "use_mm_for_euclid_dist"}),
    ((30, 2), (4, 2), {}),  # more than 25 rows: through a matrix product
    ((2, 30, 3), (1, 4, 3), {}),
    ((2, 1, 3, 2), (5, 4, 2), {}),  # batch dims broadcast
    ((2, 3, 2), (4, 2), {"p": 1.0}),
    ((30, 2), (4, 2), {"compute_mode": "donot_use_mm_for_euclid_dist"}),
]


@pytest.mark.parametrize(("shape1", "shape2", "kwargs"), CDIST)
def test_cdist_values_graph_and_derivatives_match_torch(shape1, shape2, kwargs):
    """By the differences (CdistBackward0), PyTorch cannot differentiate the gradient again."""

    def run(lib):
        x1, x2 = _operands(lib, [shape1, shape2])
        out = lib.cdist(x1, x2, **kwargs)
        grads = lib.autograd.grad(out, (x1, x2), out.detach().cos(), create_graph=True)
        total = sum((g * g).sum() for g in grads)
        try:
            second = lib.autograd.grad(total, (x1, x2))
        except NotImplementedError as error:
            second = str(error)
        return out, node_names(out), grads, [node_names(g) for g in grads], second

    same(run)


@pytest.mark.parametrize(
    "kwargs", [{}, {"p": 1.0}, {"p": 3.0}, {"p": 0.5}, {"p": float("inf")}, {"compute_mode": "use_mm_for_euclid_dist"}]
)
def test_cdist_of_equal_rows_has_the_gradient_torch_gives(kwargs):
    """A distance of 0 has the subgradient 0 (or sign(0) = 0 for p=1), and so has a difference of 0
    for p < 1; float32 as given."""

    def run(lib):
        x = lib.tensor([[0.0, 0.0], [1.0, 2.0], [1.0, 2.0], [1.0, 0.0]], requires_grad=True)
        out = lib.cdist(x, x, **kwargs)
        out.sum().backward()
        return out, x.grad

    same(run)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda lib: lib.cdist(lib.zeros(3), lib.zeros(3)), "cdist only supports at least 2D tensors, X1 got: 1D"),
        (
            lambda lib: lib.cdist(lib.zeros(3, 2), lib.zeros(3, 3)),
            "X1 and X2 must have the same number of columns. X1: 2 X2: 3",
        ),
        (
            lambda lib: lib.cdist(lib.ones(3, 2, dtype=lib.int64), lib.ones(3, 2)),
            "cdist only supports floating-point dtypes, X1 got: Long",
        ),
        (lambda lib: lib.cdist(lib.zeros(3, 2), lib.zeros(3, 2), p=-1), "cdist only supports non-negative p values"),
        (
            lambda lib: lib.cdist(lib.zeros(3, 2), lib.zeros(3, 2), compute_mode="x"),
            "x is not a valid value for compute_mode",
        ),
        (
            lambda lib: lib.cdist(lib.zeros(3, 2), lib.zeros(3, 2, dtype=lib.float64)),
            "expected scalar type Float but found Double",
        ),
        (
            lambda lib: lib.cdist(lib.zeros(2, 3, 2), lib.zeros(3, 4, 2)),
            "must match the size of tensor b (3) at non-singleton dimension 0",
        ),
    ],
)
def test_cdist_errors_match_torch(call, words):
    same_error(call, words)


def test_cdist_of_empty_inputs_matches_torch():
    same(lambda lib: (lib.cdist(lib.zeros(0, 2), lib.ones(3, 2)), lib.cdist(lib.zeros(2, 0), lib.zeros(3, 0), p=1)))


def test_tril_and_triu_indices_match_torch():
    def run(lib):
        return [
            fn(*args, **kwargs)
            for fn in (lib.tril_indices, lib.triu_indices)
            for args, kwargs in [
                ((3, 3), {}),
                ((3, 4, 1), {}),
                ((4, 3, -1), {}),
                ((3, 3), {"offset": 5}),
                ((3, 3, -5), {}),
                ((0, 3), {}),
                ((3, 3), {"dtype": lib.int32}),
            ]
        ]

    same(run)


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
def test_tril_and_triu_indices_errors_match_torch(name):
    same_error(lambda lib: getattr(lib, name)(-1, 3), "row must be non-negative, got-1")
    same_error(lambda lib: getattr(lib, name)(3, -2), "col must be non-negative, got-2")
    same_error(lambda lib: getattr(lib, name)(3, 3, dtype=lib.float32), f"\"{name}\" not implemented for 'Float'")
    same_error(lambda lib: getattr(lib, name)(3.0, 3), f"{name}(): argument 'row' (position 1) must be int, not float")


@pytest.mark.parametrize("how", ["unsafe_split", "unsafe_chunk"])
def test_unsafe_split_and_chunk_share_one_node_and_may_change_in_place(how):
    def run(lib):
        x = lib.arange(10.0, dtype=lib.float64).reshape(2, 5).requires_grad_()
        pieces = getattr(x * 1, how)(2, 1)
        node = pieces[0].grad_fn
        shared = all(p.grad_fn is node for p in pieces)
        saved = node.name(), node._saved_split_size, node._saved_dim, shared, [p.shape for p in pieces]
        pieces[0].mul_(3)  # chunk's views refuse this; the unsafe ones take it
        (grad,) = lib.autograd.grad((pieces[0].sum() + (pieces[-1] ** 2).sum()), x)
        return saved, grad

    same(run)
