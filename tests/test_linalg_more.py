# ruff: noqa: N803 - PyTorch names the matrix arguments A, B
"""The rest of torch.linalg against PyTorch: inv_ex/solve_ex (and LAPACK's info), matmul,
diagonal, vecdot, vander, matrix_exp (torch.matrix_exp, Tensor.matrix_exp), tensorinv,
tensorsolve, pinv (torch.pinverse), matrix_rank and cond: values, dtypes, recorded nodes,
gradients and second derivatives, return types, empty matrices and errors; eig/eigvals raise.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = [
    pytest.mark.usefixtures("on_device"),
    pytest.mark.filterwarnings("ignore:torch.(lu|lu_solve) is deprecated"),
]

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

_rng = np.random.default_rng(5)
GENERAL = _rng.standard_normal((3, 3))
BATCH = _rng.standard_normal((2, 3, 3))
TALL = _rng.standard_normal((4, 3))
WIDE = _rng.standard_normal((3, 5))
SYMMETRIC = GENERAL + GENERAL.T
RHS = _rng.standard_normal((3, 2))
VECTOR = _rng.standard_normal(3)
SIX = _rng.standard_normal((6, 6)) + 3 * np.eye(6)  # well conditioned, for tensorinv/tensorsolve
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
BROADCAST_RHS = _rng.standard_normal((4, 1, 3, 2))
# P L U with P a 3-cycle (so P != P^T) that partial pivoting finds again (|L| < 1)
CYCLE = (
    np.eye(3)[[2, 0, 1]]
    @ np.array([[1, 0, 0], [0.5, 1, 0], [0.3, 0.4, 1]])
    @ np.array([[4.0, 1, 2], [0, 3, 1], [0, 0, 2]])
)


def _t(lib, array, dtype="float64"):
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=True)


def _derivatives(run, *arrays, second=True):
    """Values, nodes, gradients (and second derivatives) of ``run(lib, *inputs)`` agree."""

    def snippet(lib):
        inputs = [_t(lib, a) for a in arrays]
        return derivatives(lib, run(lib, *inputs), inputs, second)

    plain = Oracle(values, on_test_device=False).plain
    got, want = snippet(minigrad), snippet(torch)
    assert got[1] == want[1]  # node names
    assert plain(got[0]) == plain(want[0])
    assert plain(got[2:]) == plain(want[2:])


CASES = {
    "inv_ex": (lambda lib, A: lib.linalg.inv_ex(A).inverse, GENERAL),
    "inv_ex batch": (lambda lib, A: lib.linalg.inv_ex(A)[0], BATCH),
    "solve_ex": (lambda lib, A, B: lib.linalg.solve_ex(A, B).result, GENERAL, RHS),
    "solve_ex vector": (lambda lib, A, b: lib.linalg.solve_ex(A, b).result, BATCH, VECTOR),
    "solve_ex left=False": (lambda lib, A, B: lib.linalg.solve_ex(A, B, left=False)[0], GENERAL, RHS.T),
    "linalg.matmul": (lambda lib, A, B: lib.linalg.matmul(A, B), GENERAL, RHS),
    "linalg.diagonal": (lambda lib, A: lib.linalg.diagonal(A, offset=1), BATCH),
    "linalg.diagonal dims": (lambda lib, A: lib.linalg.diagonal(A, dim1=0, dim2=2), BATCH),
    "vecdot": (lambda lib, x, y: lib.linalg.vecdot(x, y), BATCH, VECTOR),
    "vecdot dim": (lambda lib, x, y: lib.linalg.vecdot(x, y, dim=0), TALL, TALL),
    "vander": (lambda lib, x: lib.linalg.vander(x), VECTOR),
    "vander N": (lambda lib, x: lib.linalg.vander(x, N=5), TALL),
    "matrix_exp": (lambda lib, A: lib.linalg.matrix_exp(A), GENERAL),
    "matrix_exp large norm": (lambda lib, A: lib.linalg.matrix_exp(A * 4), GENERAL),
    "matrix_exp batch": (lambda lib, A: lib.matrix_exp(A), BATCH),
    "Tensor.matrix_exp": (lambda lib, A: A.matrix_exp(), SYMMETRIC),
    "tensorinv": (lambda lib, A: lib.linalg.tensorinv(A.reshape(2, 3, 6), ind=2), SIX),
    "tensorinv ind=1": (lambda lib, A: lib.linalg.tensorinv(A.reshape(6, 2, 3), ind=1), SIX),
    "tensorsolve": (lambda lib, A, B: lib.linalg.tensorsolve(A.reshape(2, 3, 6), B.reshape(2, 3)), SIX, SIX[0]),
    "tensorsolve dims": (
        lambda lib, A, B: lib.linalg.tensorsolve(A.reshape(2, 6, 3), B.reshape(2, 3), dims=(1,)),
        SIX,
        SIX[1],
    ),
    "pinv": (lambda lib, A: lib.linalg.pinv(A), GENERAL),
    "pinv tall": (lambda lib, A: lib.linalg.pinv(A), TALL),
    "pinv wide": (lambda lib, A: lib.linalg.pinv(A), WIDE),
    "pinv hermitian": (lambda lib, A: lib.linalg.pinv(A + A.mT, hermitian=True), GENERAL),
    "pinverse": (lambda lib, A: lib.pinverse(A), BATCH),
    "Tensor.pinverse": (lambda lib, A: A.pinverse(), TALL),
    **{f"cond {p}": (lambda lib, A, p=p: lib.linalg.cond(A, p), GENERAL) for p in (None, 2, -2, "nuc")},
    "cond batch": (lambda lib, A: lib.linalg.cond(A, -2), BATCH),
    # the singular-value norms: ATen's permute, svdvals, then amax/amin/sum (and back for keepdim)
    "matrix_norm 2": (lambda lib, A: lib.linalg.matrix_norm(A, 2), BATCH),
    "matrix_norm -2 dims": (lambda lib, A: lib.linalg.matrix_norm(A, -2, dim=(2, 0)), BATCH),
    "matrix_norm nuc keepdim": (lambda lib, A: lib.linalg.matrix_norm(A, "nuc", dim=(0, 2), keepdim=True), BATCH),
    "linalg.norm 2": (lambda lib, A: lib.linalg.norm(A, 2, keepdim=True), TALL),
    "linalg.norm nuc": (lambda lib, A: lib.linalg.norm(A, "nuc"), WIDE),
    "lu_factor": (lambda lib, A: lib.linalg.lu_factor(A).LU, GENERAL),
    "lu_factor_ex wide": (lambda lib, A: lib.linalg.lu_factor_ex(A)[0], WIDE),
    "lu_factor tall": (lambda lib, A: lib.linalg.lu_factor(A)[0], TALL),
    "lu L": (lambda lib, A: lib.linalg.lu(A).L, BATCH),
    "lu U": (lambda lib, A: lib.linalg.lu(A).U, GENERAL),
    "lu wide": (lambda lib, A: lib.linalg.lu(A).L @ lib.linalg.lu(A).U, WIDE),
    "lu tall": (lambda lib, A: (lambda P, L, U: L.sum(-1, keepdim=True) * U.sum(-2))(*lib.linalg.lu(A)), TALL),
    "lu_unpack": (lambda lib, A: (lambda P, L, U: L @ U)(*lib.lu_unpack(*lib.linalg.lu_factor(A))), GENERAL),
    "lu_unpack wide U": (lambda lib, A: lib.lu_unpack(*lib.linalg.lu_factor(A)).U, WIDE),
    "lu_unpack tall L": (lambda lib, A: lib.lu_unpack(*lib.linalg.lu_factor(A)).L, TALL),
    **{
        f"lu_solve left={left} adjoint={adjoint}": (
            lambda lib, A, B, left=left, adjoint=adjoint: lib.linalg.lu_solve(
                *lib.linalg.lu_factor(A), B if left else B.mT, left=left, adjoint=adjoint
            ),
            np.stack([CYCLE, GENERAL]),
            RHS,
        )
        for left in (True, False)
        for adjoint in (False, True)
    },
    "torch.lu_solve": (lambda lib, A, B: lib.lu_solve(B, *lib.lu(A)), GENERAL, RHS),
    "Tensor.lu_solve": (lambda lib, A, B: B.lu_solve(*A.lu()), GENERAL, RHS),
    "lstsq": (lambda lib, A, B: lib.linalg.lstsq(A, B).solution, TALL, TALL[:, :2] + 1),
    "lstsq vector": (lambda lib, A, b: lib.linalg.lstsq(A, b, driver="gelsd").solution, TALL, TALL[:, 0] - 1),
    "lstsq wide": (lambda lib, A, B: lib.linalg.lstsq(A, B, driver="gelss").solution, WIDE, RHS),
    "lstsq residuals": (lambda lib, A, B: lib.linalg.lstsq(A, B, driver="gels").residuals, TALL, TALL[:, :2] + 1),
    "lstsq both": (
        lambda lib, A, B: (lambda r: r.solution.sum(0) * r.residuals)(lib.linalg.lstsq(A, B, driver="gelsd")),
        TALL,
        TALL[:, :2] + 1,
    ),
    "cond tall": (lambda lib, A: lib.linalg.cond(A), TALL),
}


@pytest.mark.parametrize("name", CASES)
def test_values_nodes_gradients_and_second_derivatives_match_torch(name):
    run, *arrays = CASES[name]
    _derivatives(run, *arrays)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_results_keep_the_dtype_and_torch_layout(dtype):
    def run(lib):
        A, B = _t(lib, GENERAL, dtype), _t(lib, RHS, dtype)
        inverse, info = lib.linalg.inv_ex(A)
        result = lib.linalg.solve_ex(A, B).result
        made = [inverse, result, lib.linalg.matrix_exp(A), lib.linalg.pinv(A), lib.linalg.cond(A), info]
        return made, [t.stride() for t in made], lib.linalg.matrix_rank(A)

    same(run)


def test_ex_results_are_named_tuples_printed_as_torch():
    for fn in (lambda lib: lib.linalg.inv_ex(lib.eye(2)), lambda lib: lib.linalg.solve_ex(lib.eye(2), lib.ones(2))):
        ours, theirs = fn(minigrad), fn(torch)
        assert repr(ours) == repr(theirs)
        assert ours._fields == tuple(type(theirs).__match_args__)


def test_info_gives_the_first_zero_pivot_of_each_matrix():
    def run(lib):
        A = lib.stack([lib.eye(2), lib.tensor(SINGULAR), lib.zeros(2, 2), lib.tensor([[0.0, 1.0], [0.0, 1.0]])])
        b = lib.ones(3, 4, 2, 1)  # broadcasts the info too
        return lib.linalg.inv_ex(A).info, lib.linalg.solve_ex(A, b).info, lib.linalg.inv_ex(A[:2])[0][0]

    same(run)


def test_singular_inverse_is_not_finite_and_its_info_is_set():
    for lib in (minigrad, torch):
        inverse, info = lib.linalg.inv_ex(lib.tensor(SINGULAR))
        result, info2 = lib.linalg.solve_ex(lib.tensor(SINGULAR), lib.ones(2))
        assert int(info) == int(info2) == 2
        assert not bool(inverse.isfinite().all()) and not bool(result.isfinite().all())


def test_matrix_exp_matches_torch_for_float32_and_growing_norms():
    def run(lib):
        A = lib.tensor(BATCH, dtype=lib.float32)
        return [
            lib.linalg.matrix_exp(A * scale) / lib.linalg.matrix_exp(A * scale).abs().amax() for scale in (0.01, 1, 9)
        ]

    same(run)


def test_matrix_exp_of_commuting_parts_is_the_product():
    A = minigrad.tensor(SYMMETRIC)
    assert minigrad.allclose(
        minigrad.linalg.matrix_exp(2 * A), minigrad.linalg.matrix_exp(A) @ minigrad.linalg.matrix_exp(A)
    )


def test_pinv_and_matrix_rank_tolerances_match_torch():
    def run(lib):
        A = lib.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1e-9]], dtype=lib.float64)
        stacked = lib.stack([A, A.mT])
        return (
            lib.linalg.pinv(A),
            lib.linalg.pinv(A, atol=1e-6),
            lib.linalg.pinv(A, rtol=0.5),
            lib.linalg.pinv(A, 0.5),
            lib.linalg.pinv(A, rcond=1e-12),
            lib.linalg.pinv(stacked, atol=lib.tensor([1e-6, 100.0], dtype=lib.float64)),
            lib.linalg.pinv(A + A.mT, hermitian=True, atol=0.5),
            lib.pinverse(A, rcond=0.5),
            lib.linalg.matrix_rank(A),
            lib.linalg.matrix_rank(A, atol=1e-6),
            lib.linalg.matrix_rank(A, atol=1.0, rtol=0.0),
            lib.linalg.matrix_rank(A, rtol=0.4),
            lib.linalg.matrix_rank(A, 1e-12),
            lib.linalg.matrix_rank(A, tol=5.0),
            lib.linalg.matrix_rank(A + A.mT, hermitian=True),
            lib.linalg.matrix_rank(stacked.float()),
            lib.linalg.matrix_rank(lib.zeros(2, 3, 4)),
        )

    same(run)


def test_empty_matrices_as_torch():
    def run(lib):
        return (
            lib.linalg.matrix_exp(lib.zeros(0, 0)),
            lib.linalg.matrix_exp(lib.zeros(2, 0, 0)),
            lib.linalg.pinv(lib.zeros(0, 3)),
            lib.linalg.pinv(lib.zeros(2, 3, 0)),
            lib.linalg.matrix_rank(lib.zeros(3, 0)),
            lib.linalg.matrix_rank(lib.zeros(2, 0, 3)),
            lib.linalg.cond(lib.zeros(0, 0)),
            lib.linalg.cond(lib.zeros(2, 0, 0), "fro"),
            lib.linalg.vander(lib.zeros(0), N=3),
            lib.linalg.vander(lib.zeros(2, 0), N=2),
            lib.linalg.vecdot(lib.zeros(2, 0), lib.zeros(0)),
        )

    same(run)


@pytest.mark.parametrize("p", ["fro", math.inf, -math.inf, 1, -1])
def test_cond_through_the_inverse_records_torch_nodes_and_fails_backward_as_torch(p):
    """PyTorch fills the inverse in place where it is singular, after LinalgInvExBackward0 saved it:
    its backward always fails. minigrad does the same."""
    assert node_names(minigrad.linalg.cond(_t(minigrad, BATCH), p)) == node_names(
        torch.linalg.cond(_t(torch, BATCH), p)
    )
    same(lambda lib: lib.linalg.cond(_t(lib, BATCH), p))
    same_error(lambda lib: lib.linalg.cond(_t(lib, GENERAL), p).backward(), "modified by an inplace operation")


def test_cond_of_singular_matrices_is_inf_or_nan_as_torch():
    def run(lib):
        A = lib.stack([lib.tensor(SINGULAR), lib.zeros(2, 2), lib.eye(2)])
        through_inverse = [lib.linalg.cond(A, p) for p in ("fro", math.inf, -math.inf, 1, -1)]
        # (the smallest singular value of SINGULAR is rounding noise, which LAPACK drivers differ in)
        return through_inverse, [lib.linalg.cond(A[1:], p) for p in (None, -2, "nuc")]

    same(run)


def test_vander_of_integers_and_scalars_as_torch():
    same(lambda lib: (lib.linalg.vander(lib.tensor([1, 2, 3])), lib.linalg.vander(lib.tensor([2.0]), N=4)))


def test_lu_factors_pivots_and_infos_match_torch():
    def run(lib):
        A = lib.stack(
            [lib.tensor(GENERAL), lib.zeros(3, 3, dtype=lib.float64), lib.tensor([[0.0, 1, 2], [0, 1, 2], [1, 1, 1]])]
        )
        LU, pivots, info = lib.linalg.lu_factor_ex(A)
        P, L, U = lib.linalg.lu(lib.tensor(TALL))
        unpacked = lib.lu_unpack(LU, pivots)
        data_only, pivots_only = lib.lu_unpack(LU, pivots, unpack_pivots=False), lib.lu_unpack(LU, pivots, False)
        made = [LU, pivots, info, P, L, U, *unpacked, *data_only[1:], pivots_only[0]]
        return (
            made,
            [t.stride() for t in made],
            data_only[0].shape,
            pivots_only[1].shape,
            tuple(lib.linalg.lu(lib.tensor(WIDE))),
        )

    same(run)


def test_lu_results_are_named_tuples_and_p_needs_no_gradient():
    def run(lib):
        A = _t(lib, GENERAL)
        factor, ex, plu, unpacked = (
            lib.linalg.lu_factor(A),
            lib.linalg.lu_factor_ex(A),
            lib.linalg.lu(A),
            lib.lu_unpack(*lib.linalg.lu_factor(A)),
        )
        names = [type(r).__name__ for r in (factor, ex, plu, unpacked)]
        return (
            names,
            [r._fields if hasattr(r, "_fields") else type(r).__match_args__ for r in (factor, ex, plu, unpacked)],
            (
                plu.P.requires_grad,
                plu.P.grad_fn,
                unpacked.P.requires_grad,
                ex.pivots.requires_grad,
                plu.U.grad_fn.name(),
            ),
        )

    ours, theirs = run(minigrad), run(torch)
    assert ours == theirs


def test_lu_solve_broadcasts_and_keeps_torch_layout():
    def run(lib):
        LU, pivots = lib.linalg.lu_factor(lib.tensor(BATCH))
        B = lib.tensor(BROADCAST_RHS)
        made = [lib.linalg.lu_solve(LU, pivots, B), lib.linalg.lu_solve(LU, pivots, B.mT, left=False)]
        made.append(lib.linalg.lu_solve(LU, pivots, B, adjoint=True))
        return made, [t.stride() for t in made]

    same(run)


def test_torch_lu_gives_infos_without_raising_as_torch():
    def run(lib):
        A = lib.stack([lib.eye(2), lib.tensor(SINGULAR), lib.zeros(2, 2)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (PyTorch warns once a process)
            found, plain = lib.lu(A, get_infos=True), lib.lu(A)
            solved = lib.lu_solve(lib.ones(2, 1), *lib.linalg.lu_factor(lib.eye(2)))
        return type(found).__name__, tuple(found), type(plain).__name__, len(plain), plain[1], solved

    same(run)


def test_torch_lu_and_lu_solve_warn_that_they_are_deprecated():
    with pytest.warns(UserWarning, match="torch.lu is deprecated in favor of torch.linalg.lu_factor"):
        LU, pivots = minigrad.lu(minigrad.eye(2))
    with pytest.warns(UserWarning, match="torch.lu_solve is deprecated in favor of torch.linalg.lu_solve"):
        minigrad.lu_solve(minigrad.ones(2, 1), LU, pivots)


def test_lstsq_results_of_each_driver_match_torch():
    def run(lib):
        A, B, S = lib.tensor(TALL), lib.tensor(TALL[:, :2] * 2 + 1), lib.tensor([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
        found = [lib.linalg.lstsq(A, B, driver=d) for d in (None, "gels", "gelsy", "gelsd", "gelss")]
        found += [lib.linalg.lstsq(S, lib.ones(3, 1), driver=d) for d in ("gelsy", "gelsd")]
        found += [lib.linalg.lstsq(lib.tensor(WIDE), lib.tensor(RHS), driver=d) for d in ("gels", "gelsd")]
        found.append(lib.linalg.lstsq(A, B, 0.5, driver="gelsd"))
        found.append(lib.linalg.lstsq(lib.tensor(BATCH), lib.tensor(BATCH[:1]), driver="gels"))
        found.append(lib.linalg.lstsq(lib.zeros(0, 3), lib.zeros(0, 2)))
        found.append(lib.linalg.lstsq(lib.tensor(BATCH).float(), lib.tensor(BATCH[:, 0]).float(), driver="gelsd"))
        return [tuple(r) for r in found], [r.solution.stride() for r in found], type(found[0]).__name__

    same(run)


SINGULAR_ERRORS = {
    "inv_ex check_errors": (
        lambda lib: lib.linalg.inv_ex(lib.tensor(SINGULAR), check_errors=True),
        "linalg.inv_ex: The diagonal element 2 is zero, the inversion could not be completed",
    ),
    "inv_ex check_errors batch": (
        lambda lib: lib.linalg.inv_ex(lib.stack([lib.eye(2), lib.tensor(SINGULAR)]), check_errors=True),
        "linalg.inv_ex: (Batch element 1): The diagonal element 2 is zero",
    ),
    "solve_ex check_errors": (
        lambda lib: lib.linalg.solve_ex(lib.tensor(SINGULAR), lib.ones(2), check_errors=True),
        "torch.linalg.solve_ex: The solver failed because the input matrix is singular.",
    ),
    "solve_ex check_errors batch": (
        lambda lib: lib.linalg.solve_ex(
            lib.stack([lib.eye(2), lib.tensor(SINGULAR)]), lib.ones(2, 2), check_errors=True
        ),
        "torch.linalg.solve_ex: (Batch element 1): The solver failed",
    ),
    "tensorinv singular": (
        lambda lib: lib.linalg.tensorinv(lib.zeros(2, 2, 2, 2)),
        "inv: The diagonal element 1 is zero, the inversion could not be completed",
    ),
}


@pytest.mark.parametrize("name", SINGULAR_ERRORS)
def test_singular_matrices_raise_linalg_error_with_torch_words(name):
    # PyTorch's class is torch._C._LinAlgError (as torch.linalg.LinAlgError), so not same_error.
    run, words = SINGULAR_ERRORS[name]
    for lib in (minigrad, torch):
        with pytest.raises(lib.linalg.LinAlgError) as info:
            run(lib)
        assert words in str(info.value), (lib.__name__, str(info.value))


ERRORS = {
    "inv_ex of integers": (
        lambda lib: lib.linalg.inv_ex(lib.eye(2, dtype=lib.int64)),
        "linalg.inv: Expected a floating",
    ),
    "inv_ex not square": (lambda lib: lib.linalg.inv_ex(lib.zeros(2, 3)), "A must be batches of square matrices"),
    "solve_ex of integers": (
        lambda lib: lib.linalg.solve_ex(lib.eye(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64)),
        "linalg.solve: Expected a floating point",
    ),
    "solve_ex shapes": (lambda lib: lib.linalg.solve_ex(lib.eye(2), lib.ones(3, 1)), "Incompatible shapes of A and B"),
    "vecdot dtypes": (lambda lib: lib.linalg.vecdot(lib.ones(3), lib.ones(3, dtype=lib.float64)), "same dtype"),
    "vecdot of integers": (
        lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.int64), lib.ones(3, dtype=lib.int64)),
        "linalg.vecdot: Expected a floating point or complex tensor as input. Got Long",
    ),
    "vander N=1": (lambda lib: lib.linalg.vander(lib.ones(3), N=1), "N must be greater than 1."),
    "vander of a scalar": (lambda lib: lib.linalg.vander(lib.tensor(2.0)), "N must be greater than 1."),
    "vander of bools": (lambda lib: lib.linalg.vander(lib.tensor([True])), "but got Bool"),
    "vander of halves": (lambda lib: lib.linalg.vander(lib.ones(2, dtype=lib.float16)), "but got Half"),
    "matrix_exp not square": (
        lambda lib: lib.linalg.matrix_exp(lib.zeros(2, 3)),
        "square matrices, but they are 2 by 3",
    ),
    "matrix_exp of a vector": (lambda lib: lib.matrix_exp(lib.zeros(3)), "must have at least 2 dimensions"),
    "matrix_exp of integers": (
        lambda lib: lib.linalg.matrix_exp(lib.zeros(2, 2, dtype=lib.int64)),
        "linalg.matrix_exp: Expected a floating point",
    ),
    "tensorinv ind": (lambda lib: lib.linalg.tensorinv(lib.zeros(2, 2), ind=0), "strictly positive integer for 'ind'"),
    "tensorinv shape": (lambda lib: lib.linalg.tensorinv(lib.zeros(2, 2, 4), ind=1), "but got 8 != 2"),
    "tensorsolve shape": (lambda lib: lib.linalg.tensorsolve(lib.zeros(2, 3, 5), lib.zeros(2, 3)), "but got 5 != 6"),
    "tensorsolve dtypes": (
        lambda lib: lib.linalg.tensorsolve(lib.eye(6).reshape(2, 3, 6), lib.zeros(2, 3, dtype=lib.float64)),
        "Expected A and B to have the same dtype",
    ),
    "pinv of a vector": (
        lambda lib: lib.linalg.pinv(lib.zeros(3)),
        "linalg.pinv(Float{[3]}): expected a tensor with 2",
    ),
    "pinv of integers": (lambda lib: lib.linalg.pinv(lib.zeros(2, 2, dtype=lib.int64)), "of float, double"),
    "pinv rcond and atol": (lambda lib: lib.linalg.pinv(lib.eye(2), rcond=0.1, atol=0.1), "pinv"),
    "matrix_rank of a vector": (lambda lib: lib.linalg.matrix_rank(lib.zeros(3)), "must have at least 2 dimensions"),
    "matrix_rank of halves": (
        lambda lib: lib.linalg.matrix_rank(lib.zeros(2, 2, dtype=lib.float16)),
        "doesn't handle types other than float and double",
    ),
    "cond of a vector": (
        lambda lib: lib.linalg.cond(lib.zeros(3)),
        "linalg.cond: The input tensor must have at least 2",
    ),
    "cond order": (lambda lib: lib.linalg.cond(lib.eye(3), 3), "linalg.cond got an invalid norm type: 3"),
    "cond order name": (lambda lib: lib.linalg.cond(lib.eye(3), "abc"), "invalid norm type: abc"),
    **{
        f"cond {p} not square": (lambda lib, p=p: lib.linalg.cond(lib.ones(2, 3), p), f"linalg.cond(ord={shown})")
        for p, shown in (("fro", "fro"), ("nuc", "nuc"), (1, "1"), (-1, "-1"), (math.inf, "inf"), (-math.inf, "-inf"))
    },
    "cond of integers": (
        lambda lib: lib.linalg.cond(lib.eye(3, dtype=lib.int64), 1),
        "linalg.inv: Expected a floating",
    ),
    "lu_factor of a vector": (
        lambda lib: lib.linalg.lu_factor(lib.ones(3)),
        "Expected tensor with 2 or more dimensions",
    ),
    "lu of a vector": (lambda lib: lib.linalg.lu(lib.ones(3)), "linalg.lu: Expected tensor with 2 or more dimensions"),
    "lu_factor of integers": (
        lambda lib: lib.linalg.lu_factor(lib.eye(3, dtype=lib.int64)),
        '"lu_cpu" not implemented',
    ),
    "lu of halves": (lambda lib: lib.linalg.lu(lib.eye(3, dtype=lib.float16)), "not implemented for 'Half'"),
    "lu_factor without pivots": (lambda lib: lib.linalg.lu_factor(lib.eye(3), pivot=False), "LU without pivoting"),
    "lu_factor singular": (
        lambda lib: lib.linalg.lu_factor(lib.tensor(SINGULAR)),
        "torch.linalg.lu_factor: U[2,2] is zero and using it on lu_solve would result in a division by zero",
    ),
    "lu_factor singular batch": (
        lambda lib: lib.linalg.lu_factor(lib.stack([lib.eye(3), lib.zeros(3, 3)])),
        "torch.linalg.lu_factor: (Batch element 1): U[1,1] is zero",
    ),
    "lu_solve shapes": (
        lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.ones(4, 1)),
        "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 4x1)",
    ),
    "lu_solve shapes left=False": (
        lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.ones(4, 1), left=False),
        "for the equation XA = B (3x3 and 4x1)",
    ),
    "lu_solve of a vector": (
        lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.ones(3)),
        "linalg.lu_solve: The input tensor B must have at least 2 dimensions.",
    ),
    "lu_solve pivots dtype": (
        lambda lib: lib.linalg.lu_solve(lib.eye(3), lib.ones(3, dtype=lib.int64), lib.ones(3, 1)),
        "pivots should be a Tensor of scalar type torch.int32",
    ),
    "lu_solve dtypes": (
        lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.ones(3, 1, dtype=lib.float64)),
        "Expected LU and B to have the same dtype, but found LU of type Float and B of type Double instead",
    ),
    "lu_solve not square": (
        lambda lib: lib.linalg.lu_solve(lib.ones(2, 3), lib.ones(2, dtype=lib.int32), lib.ones(2, 1)),
        "torch.linalg.lu_solve: A must be batches of square matrices, but they are 2 by 3 matrices",
    ),
    "lu_unpack pivots dtype": (
        lambda lib: lib.lu_unpack(lib.eye(2), lib.ones(2, dtype=lib.int64)),
        "LU_pivots is expected to be a contiguous tensor of torch.int32 dtype",
    ),
    "lu_unpack of a vector": (
        lambda lib: lib.lu_unpack(lib.ones(2), lib.ones(2, dtype=lib.int32)),
        "torch.lu_unpack: Expected tensor with 2 or more dimensions",
    ),
    "lstsq rows": (
        lambda lib: lib.linalg.lstsq(lib.ones(4, 3), lib.ones(3, 2)),
        "torch.linalg.lstsq: input.size(-2) should match other.size(-2)",
    ),
    "lstsq dtypes": (
        lambda lib: lib.linalg.lstsq(lib.ones(4, 3), lib.ones(4, 2, dtype=lib.float64)),
        "Expected input and other to have the same dtype, but got input's dtype Float and other's dtype Double",
    ),
    "lstsq driver": (
        lambda lib: lib.linalg.lstsq(lib.ones(4, 3), lib.ones(4, 2), driver="foo"),
        "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)",
    ),
    "lstsq of a vector": (
        lambda lib: lib.linalg.lstsq(lib.ones(3), lib.ones(3)),
        "input must have at least 2 dimensions.",
    ),
    "lstsq of a scalar": (lambda lib: lib.linalg.lstsq(lib.ones(3, 3), lib.ones(())), "other must have at least 1 dim"),
    "lstsq of integers": (
        lambda lib: lib.linalg.lstsq(lib.ones(3, 3, dtype=lib.int64), lib.ones(3, 1, dtype=lib.int64)),
        "This function doesn't handle types other than float and double",
    ),
    "torch.eig": (lambda lib: lib.eig(lib.eye(2)), "deprecated since version 1.9", "torch.linalg.eig"),
    "Tensor.eig": (lambda lib: lib.eye(2).eig(), "deprecated since version 1.9"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    run, *words = ERRORS[name]
    same_error(run, *words)


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
def test_eig_needs_complex_numbers_and_says_what_to_use(fn):
    with pytest.raises(NotImplementedError, match="complex dtype.*eigh"):
        getattr(minigrad.linalg, fn)(minigrad.eye(2))
