"""Disagreements with PyTorch in linear algebra, found by a differential fuzzer (products, norms,
solves, inverses and decompositions on batched, broadcast, empty, singular, NaN and integer
inputs; values, dtypes, shapes, strides, gradients and errors compared with PyTorch's).

Each snippet runs with ``lib`` = minigrad and torch; every tensor it returns is compared by its
dtype, shape, values and ``requires_grad`` (``same``), or by its shape and strides
(``same_layout``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad)).same
same_layout = Oracle(lambda t: (tuple(t.shape), t.stride())).same

_RNG = np.random.default_rng(0)
SQUARE = _RNG.standard_normal((3, 3))
SPD = SQUARE @ SQUARE.T + 3 * np.eye(3)
BATCH = _RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
RHS = _RNG.standard_normal((2, 3, 4))
TALL = _RNG.standard_normal((4, 3))


def _t(lib, array, requires_grad=False, dtype="float64"):
    return lib.tensor(np.asarray(array, dtype=dtype), requires_grad=requires_grad)


def _quiet(fn):
    """``fn`` without the deprecation warnings of torch.triangular_solve and torch.cholesky."""

    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(lib)

    return run


def _plain(result):
    """A result as a list when it is a named tuple (whose type differs between the libraries)."""
    return list(result) if isinstance(result, tuple) else result


def same_linalg_error(fn, *words):
    """Both libraries raise their LinAlgError (a RuntimeError), with each of ``words``."""
    for lib in (minigrad, torch):
        with pytest.raises(lib.linalg.LinAlgError) as info:
            fn(lib)
        assert isinstance(info.value, RuntimeError)
        for word in words:
            assert word in str(info.value), (word, str(info.value))


# --- triangular_solve (the legacy torch function) with batch dims that broadcast ---


def test_triangular_solve_broadcasts_the_copy_of_A_and_its_gradient():
    @_quiet
    def run(lib):
        A, b = _t(lib, SQUARE + 3 * np.eye(3), requires_grad=True), _t(lib, RHS, requires_grad=True)
        solution, copy = lib.triangular_solve(b, A, upper=False, transpose=True)
        weights = lib.arange(copy.numel(), dtype=copy.dtype).reshape(copy.shape) / 10
        loss = (solution * solution).sum() + (copy * weights).sum()
        return solution, copy, lib.autograd.grad(loss, (A, b))

    same(run)


@pytest.mark.parametrize(
    ("b_shape", "a_shape", "words"),
    [
        ((2, 3), (3, 3), ("Incompatible matrix sizes for triangular_solve", "each b matrix is 2 by 3")),
        ((2, 2, 3), (2, 3, 3), ("Incompatible matrix sizes",)),
        ((5, 3, 3), (2, 3, 3), ("must match the size of tensor b",)),
    ],
)
def test_triangular_solve_checks_shapes_as_torch(b_shape, a_shape, words):
    same_error(_quiet(lambda lib: lib.triangular_solve(lib.ones(b_shape), lib.ones(a_shape))), *words)


# --- results laid out column by column, as LAPACK leaves them ---

LAYOUTS = {
    "qr": lambda lib, m: lib.linalg.qr(m),
    "qr complete": lambda lib, m: lib.linalg.qr(m, "complete"),
    "qr r": lambda lib, m: lib.linalg.qr(m, "r").R,
    "torch.qr": lambda lib, m: lib.qr(m),
    "svd": lambda lib, m: lib.linalg.svd(m),
    "svd reduced": lambda lib, m: lib.linalg.svd(m, full_matrices=False),
    "torch.svd": lambda lib, m: lib.svd(m),
    "torch.svd without uv": lambda lib, m: lib.svd(m, compute_uv=False),
    "eigh": lambda lib, m: lib.linalg.eigh(m[..., :3, :] @ m[..., :3, :].mT),
    "cholesky": lambda lib, m: lib.linalg.cholesky(m.mT @ m),
    "cholesky_ex": lambda lib, m: lib.linalg.cholesky_ex(m.mT @ m).L,
    "torch.cholesky": lambda lib, m: lib.cholesky(m.mT @ m),
    "cholesky_inverse": lambda lib, m: lib.cholesky_inverse(lib.linalg.cholesky(m.mT @ m)),
    "cholesky_solve": lambda lib, m: lib.cholesky_solve(m[..., :3, :2], lib.linalg.cholesky(m.mT @ m)),
    "solve_triangular": lambda lib, m: lib.linalg.solve_triangular(m[..., :3, :], m[..., :3, :2], upper=True),
    "solve_triangular right": lambda lib, m: lib.linalg.solve_triangular(
        m[..., :3, :], m[..., :2, :], upper=True, left=False
    ),
    "triangular_solve": lambda lib, m: lib.triangular_solve(m[..., :3, :2], m[..., :3, :]),
}


@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("shape", [(4, 3), (2, 4, 3)])
def test_lapack_results_are_column_major_as_in_torch(name, shape):
    array = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) % 5 + 4 * np.eye(4, 3)
    same_layout(_quiet(lambda lib: _plain(LAYOUTS[name](lib, lib.tensor(array)))))


def test_solve_of_a_batch_of_vectors_is_laid_out_as_torch():
    def run(lib):
        A, b = _t(lib, BATCH), _t(lib, RHS[:, :, 0])
        return lib.linalg.solve(A, b), lib.linalg.solve_ex(A, b).result, lib.linalg.solve_ex(A * 0, b).result

    same_layout(run)


def test_solutions_broadcast_over_a_batch_of_one_have_torch_strides():
    def run(lib):
        A, B = _t(lib, BATCH[:1]), _t(lib, RHS[:, :, :1])
        LU, pivots = lib.linalg.lu_factor(A)
        return (
            lib.linalg.solve(A, B),
            lib.linalg.solve(A, B.mT, left=False),
            lib.linalg.lu_solve(LU, pivots, B),
            lib.linalg.lu_solve(LU, pivots, B.mT, left=False),
            lib.cholesky_solve(B, lib.linalg.cholesky(A @ A.mT)),
        )

    same_layout(run)


def test_cross_and_matrix_power_zero_are_contiguous():
    def run(lib):
        x, y = _t(lib, SQUARE), _t(lib, SQUARE.T)
        return lib.linalg.cross(x, y, dim=0), lib.cross(x, y, dim=0), lib.linalg.matrix_power(_t(lib, BATCH).mT, 0)

    same_layout(run)


# --- dtypes: the kernels' own errors, and solve_triangular's B in A's dtype ---

KERNEL_ERRORS = {
    "solve_triangular": (lambda lib, m: lib.linalg.solve_triangular(m, m, upper=True), "triangular_solve_cpu"),
    "triangular_solve": (lambda lib, m: lib.triangular_solve(m, m), "triangular_solve_cpu"),
    "cholesky_inverse": (lambda lib, m: lib.cholesky_inverse(m), "cholesky_inverse_out_cpu"),
    "cholesky_solve": (lambda lib, m: lib.cholesky_solve(m, m), "cholesky_solve_cpu"),
    "torch.cholesky": (lambda lib, m: lib.cholesky(m), "cholesky_cpu"),
}


@pytest.mark.parametrize("name", KERNEL_ERRORS)
@pytest.mark.parametrize("dtype", ["int64", "float16"])
def test_integer_and_half_inputs_raise_the_kernels_error(name, dtype):
    fn, kernel = KERNEL_ERRORS[name]
    same_error(_quiet(lambda lib: fn(lib, lib.eye(3, dtype=getattr(lib, dtype)))), kernel)


@pytest.mark.parametrize(("a_dtype", "b_dtype"), [("float64", "float32"), ("float32", "float64"), ("float32", "int64")])
def test_solve_triangular_solves_in_the_dtype_of_A(a_dtype, b_dtype):
    def run(lib):
        A = _t(lib, SQUARE + 3 * np.eye(3), requires_grad=True, dtype=a_dtype)
        B = _t(lib, RHS[0], requires_grad=b_dtype != "int64", dtype=b_dtype)
        X = lib.linalg.solve_triangular(A, B, upper=True)
        inputs = [t for t in (A, B) if t.requires_grad]
        return X, lib.autograd.grad((X * X).sum(), inputs)

    same(run)


# --- singular and non-finite inputs ---


def test_cholesky_inverse_refuses_a_zero_on_the_diagonal():
    same_linalg_error(
        lambda lib: lib.cholesky_inverse(lib.tensor([[0.0, 1.0], [1.0, 0.0]])), "diagonal element 1 is zero"
    )
    batch = lambda lib: lib.stack([lib.eye(2), lib.tensor([[1.0, 0.0], [3.0, 0.0]])])  # noqa: E731
    same_linalg_error(
        lambda lib: lib.cholesky_inverse(batch(lib), upper=True), "(Batch element 1)", "element 2 is zero"
    )


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_of_nan_raises_as_torch(upper):
    same_linalg_error(lambda lib: lib.linalg.cholesky(lib.full((3, 3), math.nan), upper=upper), "positive-definite")
    same(lambda lib: lib.linalg.cholesky_ex(lib.full((2, 2), math.nan)).info)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, m: lib.linalg.eigh(m),
        lambda lib, m: lib.linalg.eigvalsh(m),
        lambda lib, m: lib.linalg.pinv(m, hermitian=True),
        lambda lib, m: lib.linalg.matrix_rank(m, hermitian=True),
    ],
)
def test_eigh_of_nan_raises_torchs_linalg_error(fn):
    words = ("linalg.eigh: (Batch element 0): The algorithm failed to converge",)
    same_linalg_error(lambda lib: fn(lib, lib.full((2, 3, 3), math.nan, dtype=lib.float64)), *words)


def test_cond_checks_a_str_ord_squareness_before_the_empty_case():
    same_error(lambda lib: lib.linalg.cond(lib.zeros(0, 3), "fro"), "linalg.cond(ord=fro): A must be batches of square")
    same(lambda lib: lib.linalg.cond(lib.zeros(0, 3), 1))


# --- lstsq: dims, the vector case and the rank's shape ---


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "words"),
    [
        ((2, 3, 3), (3,), ("input.dim() must be greater or equal to other.dim()",)),
        ((3, 3), (2, 3, 4), ("input.dim() must be greater or equal to other.dim()",)),
        ((1, 4, 3), (2, 4), ("input.size(-2) should match other.size(-2)",)),
        ((2, 4, 3), (4, 2), ("must match the size of tensor b",)),
    ],
)
def test_lstsq_checks_dims_as_torch(a_shape, b_shape, words):
    same_error(lambda lib: lib.linalg.lstsq(lib.ones(a_shape), lib.ones(b_shape)), *words)


@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gelss"])
def test_lstsq_rank_and_singular_values_keep_the_batch_of_A(driver):
    def run(lib):
        found = lib.linalg.lstsq(_t(lib, TALL[None]), _t(lib, np.stack([TALL[:, :2], TALL[:, 1:]])), driver=driver)
        return [found.solution, found.rank, found.singular_values]

    same(run)


# --- norms ---


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"dim": (0, 1, 2)}, ("If dim is specified, it must be of length 1 or 2. Got [0, 1, 2]",)),
        ({"dim": ()}, ("it must be of length 1 or 2. Got []",)),
        ({"ord": "fro", "dim": (0, 1, 2)}, ("it must be of length 1 or 2",)),
        ({"ord": "nuc", "dim": 0}, ("linalg.matrix_norm: dim must be a 2-tuple",)),
    ],
)
def test_linalg_norm_checks_dim_as_torch(kwargs, words):
    same_error(lambda lib: lib.linalg.norm(lib.ones(2, 3, 3), **kwargs), *words)


def test_linalg_norm_of_a_vector_with_a_str_ord_is_a_matrix_norm():
    same_error(lambda lib: lib.linalg.norm(lib.ones(3), "fro"), "linalg.matrix_norm", "at least 2 dimensions")


def test_vector_norm_refuses_a_str_ord_with_a_type_error():
    same_error(lambda lib: lib.linalg.vector_norm(lib.ones(3), "fro"), "argument 'ord' (position 2) must be Number")


@pytest.mark.parametrize("p", ["fro", "nuc", 2, 1, math.inf])
def test_torch_norm_takes_a_dtype(p):
    def run(lib):
        x = _t(lib, SQUARE, requires_grad=True, dtype="float32")
        result = lib.norm(x, p, dtype=lib.float64) if p != 1 else x.norm(p, 1, dtype=lib.float64)
        return result, lib.autograd.grad(result.sum(), x)

    same(run)


# --- tensordot's dims ---


@pytest.mark.parametrize(
    ("dims", "error", "words"),
    [
        ((1, 0), TypeError, "argument 'dims_self' (position 3) must be tuple of ints, not int"),
        (([1], 0), TypeError, "argument 'dims_other' (position 4) must be tuple of ints, not int"),
        (1.0, RuntimeError, "tensordot expects dims to be int or tuple[list[int], list[int]]"),
    ],
)
def test_tensordot_refuses_dims_as_torch(dims, error, words):
    assert same_error(lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(3, 4), dims=dims), words).__class__ is error


def test_tensordot_takes_a_one_element_tensor_as_a_number():
    same(lambda lib: lib.tensordot(_t(lib, SQUARE), _t(lib, SPD), dims=lib.tensor([1])))


# --- graphs and the remaining dtype errors ---


def test_lu_solve_and_lu_unpack_have_no_edge_for_the_pivots():
    def run(lib):
        A = _t(lib, BATCH[0], requires_grad=True)
        LU, pivots = lib.linalg.lu_factor(A)
        X, (_, L, _) = lib.linalg.lu_solve(LU, pivots, A), lib.lu_unpack(LU, pivots)
        edges = [[type(node).__name__ for node, _ in t.grad_fn.next_functions] for t in (X, L)]
        return edges, X.grad_fn._saved_pivots, lib.autograd.grad((X * X).sum() + L.sum(), A)

    same(run)


def test_cross_of_bools_and_cdist_of_halves_raise_the_kernels_error():
    same_error(lambda lib: lib.linalg.cross(lib.ones(3, dtype=lib.bool), lib.ones(3, dtype=lib.bool)), "cross")
    same_error(lambda lib: lib.cdist(lib.ones(2, 3, dtype=lib.float16), lib.ones(2, 3, dtype=lib.float16)), '"cdist"')
    same(
        lambda lib: lib.cdist(
            lib.ones(2, 3, dtype=lib.float16), lib.ones(2, 3, dtype=lib.float16), compute_mode="use_mm_for_euclid_dist"
        )
    )


def test_lstsq_without_right_hand_sides_has_rank_zero():
    same(lambda lib: list(lib.linalg.lstsq(_t(lib, SQUARE), lib.zeros(3, 0, dtype=lib.float64), driver="gelsy")))


# --- messages: the names PyTorch's errors give ---

HALF_KERNELS = {
    "det": (lambda lib, m: lib.linalg.det(m), '"lu_cpu"'),
    "eigh": (lambda lib, m: lib.linalg.eigh(m), '"linalg_eigh_cpu"'),
    "eigvalsh": (lambda lib, m: lib.linalg.eigvalsh(m), '"linalg_eigh_cpu"'),
    "svd": (lambda lib, m: lib.linalg.svd(m), '"linalg_svd_cpu"'),
    "svdvals": (lambda lib, m: lib.linalg.svdvals(m), '"linalg_svd_cpu"'),
    "cond": (lambda lib, m: lib.linalg.cond(m), '"linalg_svd_cpu"'),
    "qr": (lambda lib, m: lib.linalg.qr(m), '"geqrf_cpu"'),
    "cholesky": (lambda lib, m: lib.linalg.cholesky(m), '"cholesky_cpu"'),
    "cholesky_ex": (lambda lib, m: lib.linalg.cholesky_ex(m), '"cholesky_cpu"'),
}


@pytest.mark.parametrize("name", HALF_KERNELS)
def test_half_inputs_raise_the_error_of_torchs_kernel(name):
    fn, kernel = HALF_KERNELS[name]
    same_error(lambda lib: fn(lib, lib.eye(3, dtype=lib.float16)), kernel, "not implemented for 'Half'")


@pytest.mark.parametrize(
    ("fn", "words"),
    [
        (lambda lib: lib.mm(lib.ones(3), lib.ones(3, 4)), "self must be a matrix"),
        (lambda lib: lib.mm(lib.ones(2, 3), lib.ones(2, 3, 4)), "mat2 must be a matrix"),
        (lambda lib: lib.linalg.svdvals(lib.ones(3)), "linalg.svd: The input tensor A must have at least 2 dimensions"),
        (lambda lib: lib.linalg.svdvals(lib.ones(3, 3, dtype=lib.int64)), "linalg.svd: Expected a floating point"),
        (lambda lib: lib.svd(lib.ones(3), compute_uv=False), "linalg.svd: input should have at least 2 dimensions"),
        (lambda lib: lib.linalg.eigvalsh(lib.ones(2, 3)), "linalg.eigh: A must be batches of square matrices"),
        (lambda lib: lib.linalg.cholesky_ex(lib.ones(3)), "linalg.cholesky: The input tensor A must have at least 2"),
        (
            lambda lib: lib.linalg.cond(lib.ones(3), "fro"),
            "linalg.cond(ord=fro): The input tensor A must have at least",
        ),
        (
            lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.int32), lib.ones(3, dtype=lib.int64)),
            "linalg.vecdot: Expected a floating point or complex tensor as input. Got Int",
        ),
    ],
)
def test_errors_name_what_torch_names(fn, words):
    same_error(fn, words)
