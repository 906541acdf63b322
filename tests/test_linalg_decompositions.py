# ruff: noqa: N803 - PyTorch names the matrix arguments A, B, L, U
"""linalg.det/slogdet, torch.det/logdet/slogdet, Cholesky (linalg.cholesky, cholesky_ex,
torch.cholesky, cholesky_solve, cholesky_inverse), triangular systems (linalg.solve_triangular,
torch.triangular_solve), linalg.qr/torch.qr, linalg.eigh/eigvalsh and linalg.svd/svdvals/torch.svd
against PyTorch: values, dtypes, recorded nodes, gradients and second derivatives, return types
and errors.

Eigenvectors and singular vectors are unique only up to sign, so they are compared through
quantities that do not depend on it (absolute values, reconstructions, sign-free losses), as
PyTorch's own tests do.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = [
    pytest.mark.usefixtures("on_device"),
    pytest.mark.filterwarnings("ignore:torch.(cholesky|qr|triangular_solve) is deprecated"),
]

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

_rng = np.random.default_rng(3)
GENERAL = _rng.standard_normal((3, 3))
BATCH = _rng.standard_normal((2, 3, 3))
TALL = _rng.standard_normal((4, 3))
WIDE = _rng.standard_normal((3, 5))
SPD = GENERAL @ GENERAL.T + np.eye(3)
FACTOR = np.linalg.cholesky(SPD)
RHS = _rng.standard_normal((3, 2))


def _t(lib, array, dtype="float64"):
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=True)


def _derivatives(run, *arrays, second=True):
    """Values, nodes, gradients (and second derivatives) of ``run(lib, *inputs)`` agree."""

    def snippet(lib):
        inputs = [_t(lib, a) for a in arrays]
        return derivatives(lib, run(lib, *inputs), inputs, second)

    ours, theirs = Oracle(values, on_test_device=False).plain, Oracle(values, on_test_device=False).plain
    got, want = snippet(minigrad), snippet(torch)
    assert got[1] == want[1]  # node names
    assert ours(got[0]) == theirs(want[0])
    assert ours(got[2:]) == theirs(want[2:])


CASES = {
    "det": (lambda lib, A: lib.linalg.det(A), GENERAL),
    "det_batch": (lambda lib, A: lib.det(A), BATCH),
    "det_method": (lambda lib, A: A.det(), GENERAL),
    "det_singular": (lambda lib, A: lib.linalg.det(A), np.array([[1.0, 2.0], [2.0, 4.0]])),
    "det_singular_in_batch": (lambda lib, A: lib.linalg.det(A), np.stack([[[1.0, 2.0], [2.0, 4.0]], np.eye(2)])),
    "slogdet": (lambda lib, A: lib.linalg.slogdet(A).logabsdet, GENERAL),
    "slogdet_torch": (lambda lib, A: lib.slogdet(A)[1] * 2, BATCH),
    "logdet": (lambda lib, A: lib.logdet(A), SPD),
    "logdet_method": (lambda lib, A: A.logdet(), SPD),
    "cholesky": (lambda lib, A: lib.linalg.cholesky(A), SPD),
    "cholesky_upper": (lambda lib, A: lib.linalg.cholesky(A, upper=True), SPD),
    "cholesky_ex": (lambda lib, A: lib.linalg.cholesky_ex(A).L, SPD),
    "cholesky_torch": (lambda lib, A: lib.cholesky(A, True), SPD),
    "cholesky_solve": (lambda lib, B, L: lib.cholesky_solve(B, L), RHS, FACTOR),
    "cholesky_solve_upper": (lambda lib, B, U: lib.cholesky_solve(B, U, upper=True), RHS, FACTOR.T.copy()),
    "cholesky_inverse": (lambda lib, L: lib.cholesky_inverse(L), FACTOR),
    "cholesky_inverse_upper": (lambda lib, U: U.cholesky_inverse(True), FACTOR.T.copy()),
    "solve_triangular": (lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=False), SPD, RHS),
    "solve_triangular_right_unit": (
        lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=True, left=False, unitriangular=True),
        SPD,
        RHS.T.copy(),
    ),
    "solve_triangular_batch": (lambda lib, A, B: lib.linalg.solve_triangular(A, B, upper=True), BATCH, RHS),
    "triangular_solve": (lambda lib, b, A: lib.triangular_solve(b, A).solution, RHS, SPD),
    "triangular_solve_transpose": (lambda lib, b, A: lib.triangular_solve(b, A, False, True)[0], RHS, SPD),
    "qr_tall": (lambda lib, A: (lambda q: q.Q.abs() * 2 + q.R.abs().sum())(lib.linalg.qr(A)), TALL),
    "qr_product": (lambda lib, A: (lambda q: q.Q @ q.R)(lib.linalg.qr(A)), TALL),
    "qr_wide": (lambda lib, A: (lambda q: q.Q.abs().sum() + (q.R * q.R).sum())(lib.linalg.qr(A)), WIDE),
    "qr_complete_square": (lambda lib, A: lib.linalg.qr(A, "complete").R.abs(), GENERAL),
    "qr_torch": (lambda lib, A: lib.qr(A)[1].abs(), TALL),
    "eigvalsh": (lambda lib, A: lib.linalg.eigvalsh(A), SPD),
    "eigh_vectors": (lambda lib, A: lib.linalg.eigh(A).eigenvectors.abs(), SPD),
    "eigh_upper": (
        lambda lib, A: (lambda e: e.eigenvalues.sum() + e.eigenvectors.abs().sum())(lib.linalg.eigh(A, "U")),
        SPD,
    ),
    "svdvals": (lambda lib, A: lib.linalg.svdvals(A), TALL),
    "svd_u": (lambda lib, A: lib.linalg.svd(A, full_matrices=False).U.abs(), TALL),
    "svd_vh_wide": (lambda lib, A: lib.linalg.svd(A, full_matrices=False).Vh.abs(), WIDE),
    "svd_full": (lambda lib, A: lib.linalg.svd(A).U[:, :3].abs(), TALL),
    "svd_reconstruction": (lambda lib, A: (lambda s: (s.U * s.S.unsqueeze(-2)) @ s.Vh)(lib.linalg.svd(A, False)), WIDE),
    "svd_torch_v": (lambda lib, A: lib.svd(A).V.abs(), TALL),
}


@pytest.mark.parametrize("name", CASES)
def test_values_nodes_and_derivatives(name):
    run, *arrays = CASES[name]
    _derivatives(run, *arrays)


def test_the_nodes_as_pytorch_records_them():
    def graph(lib):
        A = _t(lib, SPD)
        outs = [
            lib.linalg.det(A),
            lib.linalg.slogdet(A).sign,
            lib.logdet(A),
            lib.linalg.cholesky(A),
            lib.cholesky_solve(_t(lib, RHS), A),
            lib.linalg.eigvalsh(A),
            lib.linalg.svdvals(A),
            lib.svd(A).V,
            lib.triangular_solve(_t(lib, RHS), A).cloned_coefficient,
        ]
        return [node_names(o) for o in outs] + [[o.output_nr for o in lib.linalg.svd(A)]]

    assert graph(minigrad) == graph(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_forward_values_and_dtypes(dtype):
    def run(lib):
        A, S = lib.tensor(GENERAL, dtype=getattr(lib, dtype)), lib.tensor(SPD, dtype=getattr(lib, dtype))
        B = lib.tensor(RHS, dtype=getattr(lib, dtype))
        q, e, s = lib.linalg.qr(A), lib.linalg.eigh(S), lib.linalg.svd(A)
        return [
            lib.linalg.det(A), *lib.linalg.slogdet(A), lib.logdet(S), lib.linalg.cholesky(S),
            lib.cholesky_inverse(lib.linalg.cholesky(S)), lib.linalg.solve_triangular(S, B, upper=True),
            q.R.abs(), q.Q.abs(), e.eigenvalues, e.eigenvectors.abs(), s.S, s.U.abs(), s.Vh.abs(),
        ]  # fmt: skip

    same(run)


def test_return_types_print_as_pytorch():
    def run(lib):
        A = lib.tensor([[4.0, 2.0], [2.0, 5.0]])
        return [
            repr(lib.linalg.slogdet(A)),
            repr(lib.slogdet(A)),
            repr(lib.linalg.cholesky_ex(A)),
            repr(lib.triangular_solve(lib.tensor([[1.0], [2.0]]), A)),
            repr(lib.linalg.qr(lib.eye(2))),
            repr(lib.qr(lib.eye(2))),
            repr(lib.linalg.eigh(lib.eye(2))),
            repr(lib.linalg.svd(lib.eye(2))),
            repr(lib.svd(lib.eye(2))),
            [type(r).__name__ for r in (lib.linalg.slogdet(A), lib.linalg.svd(A), lib.svd(A), lib.linalg.eigh(A))],
            str([lib.linalg.qr(A).Q.shape, lib.linalg.cholesky_ex(A).info.dtype, lib.svd(A).V.shape]),
        ]

    assert run(minigrad) == run(torch)


def test_edge_values():
    def run(lib):
        singular, negative = lib.tensor([[0.0, 1.0], [0.0, 0.0]]), lib.tensor([[0.0, 1.0], [1.0, 0.0]])
        not_pd = lib.tensor([[1.0, 2.0], [2.0, 1.0]])
        return [
            lib.linalg.det(lib.zeros(0, 0)), lib.linalg.det(lib.zeros(2, 0, 0)), lib.linalg.det(singular),
            *lib.linalg.slogdet(singular), lib.logdet(singular), lib.logdet(negative),
            *lib.linalg.cholesky_ex(not_pd), *lib.linalg.cholesky_ex(lib.stack([lib.eye(2), not_pd, lib.eye(2)])),
            lib.linalg.solve_triangular(lib.tensor([[0.0, 0.0], [1.0, 1.0]]), lib.ones(2, 1), upper=False),
            lib.linalg.qr(TALL_T(lib), mode="r")[0], lib.linalg.qr(TALL_T(lib), mode="r")[1].abs(),
            lib.linalg.qr(TALL_T(lib), mode="complete")[0].abs(),
            *lib.linalg.svd(lib.zeros(0, 3)), lib.linalg.svdvals(lib.zeros(2, 0)),
            *lib.svd(TALL_T(lib), compute_uv=False), lib.det(lib.eye(3).expand(2, 3, 3)),
        ]  # fmt: skip

    same(run)


def TALL_T(lib):  # noqa: N802 - a constant-like helper
    return lib.tensor(TALL, dtype=lib.float32)


def test_errors():
    not_pd = [[1.0, 2.0], [2.0, 1.0]]
    # PyTorch's class is torch._C._LinAlgError (as torch.linalg.LinAlgError), so not same_error.
    for run in (
        lambda lib: lib.linalg.cholesky(lib.tensor(not_pd)),
        lambda lib: lib.linalg.cholesky(lib.stack([lib.eye(2), lib.tensor(not_pd)])),
        lambda lib: lib.cholesky(lib.tensor(not_pd)),
        lambda lib: lib.linalg.cholesky_ex(lib.tensor(not_pd), check_errors=True),
    ):
        messages = []
        for lib in (minigrad, torch):
            with pytest.raises(lib.linalg.LinAlgError) as info:
                run(lib)
            messages.append(str(info.value))
        assert messages[0] == messages[1]
    same_error(lambda lib: lib.linalg.eigh(lib.ones(2, 2, dtype=lib.int64)), "linalg_eigh_cpu", "'Long'")
    for name in ("det", "slogdet", "cholesky", "eigh", "svd", "qr"):
        if name != "eigh":
            same_error(
                lambda lib, name=name: getattr(lib.linalg, name)(lib.ones(2, 2, dtype=lib.int64)),
                "floating point",
                "Long",
            )
        same_error(lambda lib, name=name: getattr(lib.linalg, name)(lib.ones(3)), "at least 2 dimensions")
    for name in ("det", "slogdet", "cholesky", "eigh"):
        same_error(
            lambda lib, name=name: getattr(lib.linalg, name)(lib.ones(2, 3)), "batches of square matrices", "2 by 3"
        )
    same_error(lambda lib: lib.logdet(lib.ones(2, 2, dtype=lib.int64)), "logdet", "floating point")
    same_error(lambda lib: lib.linalg.qr(lib.ones(2, 2), mode="bad"), "unrecognized mode 'bad'")
    same_error(lambda lib: lib.linalg.eigh(lib.eye(2), UPLO="X"), "UPLO argument to be 'L' or 'U'")
    same_error(lambda lib: lib.cholesky_solve(lib.ones(2), lib.eye(2)), "b should have at least 2 dimensions")
    same_error(
        lambda lib: lib.cholesky_solve(lib.ones(2, 1, dtype=lib.float64), lib.eye(2)), "Expected b and A", "Double"
    )
    same_error(lambda lib: lib.linalg.solve_triangular(lib.eye(2), lib.ones(2), upper=False), "B must have at least 2")
    same_error(
        lambda lib: lib.linalg.solve_triangular(lib.eye(2), lib.ones(3, 1), upper=False), "Incompatible shapes", "2x2"
    )
    R = TALL
    same_error(lambda lib: lib.linalg.qr(_t(lib, R), mode="r")[1].sum().backward(), "not computed when mode='r'")
    same_error(
        lambda lib: lib.linalg.qr(_t(lib, R), mode="complete")[0].sum().backward(), "mode='complete' and nrows > ncols"
    )
    assert issubclass(minigrad.linalg.LinAlgError, RuntimeError)


def test_deprecated_forms_warn():
    # (PyTorch warns once per process, so only minigrad's warnings are checked here)
    for run, new in (
        (lambda lib: lib.cholesky(lib.eye(2)), "torch.linalg.cholesky"),
        (lambda lib: lib.qr(lib.eye(2)), "torch.linalg.qr"),
        (lambda lib: lib.triangular_solve(lib.ones(2, 1), lib.eye(2)), "torch.linalg.solve_triangular"),
    ):
        with pytest.warns(UserWarning, match=f"deprecated in favor of {new}"):
            run(minigrad)


def test_in_place_change_of_a_result_fails_backward():
    def run(lib):
        A = _t(lib, SPD)
        e = lib.linalg.eigh(A)
        e.eigenvalues.mul_(2)
        e.eigenvectors.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_no_graph_without_grad():
    def run(lib):
        A = lib.tensor(SPD)
        with lib.no_grad():
            x = _t(lib, SPD)
            rg = [lib.linalg.svd(x).U.requires_grad, lib.linalg.det(x).requires_grad]
        return rg + [lib.linalg.eigh(A).eigenvalues.requires_grad, lib.linalg.cholesky_ex(A).info.dtype]

    assert [str(v) for v in run(minigrad)] == [str(v) for v in run(torch)]
