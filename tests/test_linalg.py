"""``linalg.solve``, ``linalg.inv`` and ``inverse`` against PyTorch: errors, layouts, graphs.

Values, gradients, second derivatives and gradcheck are in the case table (helpers_torch.py);
these are what the table does not look at.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(values).same


def _leaf(lib, data, dtype=None):
    return lib.tensor(data, dtype=dtype or lib.float64, requires_grad=True)


A2 = [[3.0, 1.0], [1.0, 2.0]]


ERRORS = {
    "solve of a 1-D A": (lambda lib: lib.linalg.solve(lib.ones(3), lib.ones(3)), "at least 2 dimensions"),
    "solve of a non-square A": (
        lambda lib: lib.linalg.solve(lib.ones(2, 3), lib.ones(2)),
        "must be batches of square matrices, but they are 2 by 3 matrices",
    ),
    "solve of integers": (
        lambda lib: lib.linalg.solve(lib.ones(2, 2, dtype=lib.long), lib.ones(2, dtype=lib.long)),
        "Expected a floating point or complex tensor as input. Got Long",
    ),
    "solve with an integer B": (
        lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2, dtype=lib.long)),
        "Expected A and B to have the same dtype, but found A of type Float and B of type Long instead",
    ),
    "solve of an integer 1-D A: the dtype is checked first": (
        lambda lib: lib.linalg.solve(lib.ones(3, dtype=lib.long), lib.ones(2)),
        "Expected a floating point or complex tensor as input. Got Long",
    ),
    "solve of a 1-D A and another dtype: the dtypes are checked first": (
        lambda lib: lib.linalg.solve(lib.ones(3), lib.ones(2, dtype=lib.float64)),
        "Expected A and B to have the same dtype",
    ),
    "solve of half-precision matrices of wrong shapes: the shapes are checked first": (
        lambda lib: lib.linalg.solve(lib.ones(2, 2, dtype=lib.half), lib.ones(3, dtype=lib.half)),
        "(2x2 and 3x1)",
    ),
    "inv of half precision": (
        lambda lib: lib.linalg.inv(lib.ones(2, 2, dtype=lib.half)),
        "linalg.inv: Low precision dtypes not supported. Got Half",
    ),
    "inv of integers of a wrong shape: the shape is checked first": (
        lambda lib: lib.linalg.inv(lib.ones(2, 3, dtype=lib.long)),
        "but they are 2 by 3 matrices",
    ),
    "solve of two dtypes": (
        lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2, dtype=lib.float64)),
        "Expected A and B to have the same dtype, but found A of type Float and B of type Double instead",
    ),
    "solve with a B of the wrong length": (
        lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(4)),
        "Incompatible shapes of A and B for the equation AX = B (3x3 and 4x1)",
    ),
    "solve with a B of the wrong rows": (
        lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(4, 2)),
        "Incompatible shapes of A and B for the equation AX = B (3x3 and 4x2)",
    ),
    "solve with a matrix B of A's batch shape": (
        lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2, 3)),
        "Incompatible shapes of A and B for the equation AX = B (3x3 and 2x3)",
    ),
    "solve with a 0-d B": (
        lambda lib: lib.linalg.solve(lib.eye(1), lib.tensor(1.0)),
        "linalg.solve: The input tensor B must have at least 2 dimensions.",
    ),
    "solve from the right with a vector": (
        lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(3), left=False),
        "Incompatible shapes of A and B for the equation XA = B (3x3 and 3x1)",
    ),
    "solve from the right, 1 x 1": (
        lambda lib: lib.linalg.solve(lib.eye(1), lib.ones(1), left=False),
        "Vector broadcasting of the left hand side is not supported for left=False",
    ),
    "solve with batches that do not broadcast": (
        lambda lib: lib.linalg.solve(lib.eye(3).expand(2, 3, 3), lib.ones(5, 3, 1)),
        "must match the size of tensor b",
    ),
    "inv of a 1-D tensor": (
        lambda lib: lib.linalg.inv(lib.ones(3)),
        "linalg.inv: The input tensor A must have at least 2",
    ),
    "inv of a non-square matrix": (lambda lib: lib.linalg.inv(lib.ones(2, 3)), "but they are 2 by 3 matrices"),
    "inv of bools": (lambda lib: lib.inverse(lib.ones(2, 2, dtype=lib.bool)), "Got Bool"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


SINGULAR = {
    "solve of a singular matrix": (
        lambda lib: lib.linalg.solve(lib.tensor([[1.0, 2.0], [2.0, 4.0]]), lib.ones(2)),
        "torch.linalg.solve: The solver failed because the input matrix is singular.",
    ),
    "solve of a batch with a singular matrix": (
        lambda lib: lib.linalg.solve(lib.stack([lib.eye(2), lib.zeros(2, 2)]), lib.ones(2, 2)),
        "torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is singular.",
    ),
    "solve of one singular matrix for a batch of B": (
        lambda lib: lib.linalg.solve(lib.zeros(2, 2), lib.ones(3, 2, 1)),
        "torch.linalg.solve: The solver failed because the input matrix is singular.",
    ),
    "solve of a batch of one singular matrix for a batch of B": (
        lambda lib: lib.linalg.solve(lib.zeros(1, 2, 2), lib.ones(3, 2, 1)),
        "torch.linalg.solve: (Batch element 0): The solver failed",
    ),
    # PyTorch also names LAPACK's zero pivot ("The diagonal element 2 is zero, the inversion ..."):
    # NumPy does not tell which it is.
    "inv of a singular matrix": (
        lambda lib: lib.linalg.inv(lib.tensor([[1.0, 2.0], [2.0, 4.0]])),
        "the inversion could not be completed because the input matrix is singular.",
    ),
    "inv of a batch with a singular matrix": (
        lambda lib: lib.stack([lib.eye(2), lib.eye(2), lib.zeros(2, 2)]).inverse(),
        "linalg.inv: (Batch element 2):",
    ),
}


@pytest.mark.parametrize("name", sorted(SINGULAR))
def test_a_singular_matrix_raises_linalg_error_as_in_torch(name):
    # PyTorch's class is torch._C._LinAlgError (as torch.linalg.LinAlgError), so not same_error.
    fn, words = SINGULAR[name]
    for lib in (minigrad, torch):
        with pytest.raises(lib.linalg.LinAlgError) as info:
            fn(lib)
        assert words.lower() in str(info.value).lower(), (lib.__name__, str(info.value))
    assert issubclass(minigrad.linalg.LinAlgError, RuntimeError)


def test_half_precision_is_not_implemented_as_in_torch():
    for lib in (minigrad, torch):
        with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
            lib.linalg.solve(lib.eye(2, dtype=lib.half), lib.ones(2, dtype=lib.half))


def test_results_are_laid_out_as_torch_lays_them_out():
    # LAPACK leaves matrices column by column: PyTorch's X is not contiguous, so view(-1) fails.
    def run(lib):
        A, B = lib.tensor(A2), lib.ones(2, 3)
        results = (
            lib.linalg.solve(A, B),
            lib.linalg.solve(A, lib.ones(2)),
            lib.linalg.solve(A.expand(4, 2, 2), lib.ones(4, 2, 3)),
            lib.linalg.solve(A, B.t(), left=False),
            lib.linalg.inv(A),
            lib.linalg.inv(A.expand(3, 2, 2)),
        )
        return [r.is_contiguous() for r in results], [r.mT.is_contiguous() for r in results if r.ndim > 1]

    assert run(minigrad) == run(torch)
    same_error(lambda lib: lib.linalg.inv(lib.tensor(A2)).view(-1), "view size is not compatible")


def test_empty_matrices_as_torch():
    same(
        lambda lib: (
            lib.linalg.solve(lib.zeros(0, 0), lib.zeros(0)),
            lib.linalg.inv(lib.zeros(0, 0)),
            lib.linalg.inv(lib.zeros(2, 0, 0)),
            lib.linalg.solve(lib.zeros(3, 2, 2) + lib.eye(2), lib.zeros(3, 2, 0)),
        )
    )


def test_double_backward_graphs_are_torchs():
    # gA = -gB X^H with gB = solve(A^H, gX): PyTorch's linalg_solve_backward, node for node.
    def run(lib):
        A, b = _leaf(lib, A2), _leaf(lib, [1.0, 2.0])
        x = lib.linalg.solve(A, b)
        gA, gb = lib.autograd.grad((x * x).sum(), (A, b), create_graph=True)
        (gi,) = lib.autograd.grad(lib.linalg.inv(A).pow(2).sum(), A, create_graph=True)
        return node_names(gA)[:8], node_names(gb)[:4], node_names(gi)[:6]

    ours, theirs = run(minigrad), run(torch)
    assert ours == theirs

    def second(lib):
        A, b = _leaf(lib, A2), _leaf(lib, [1.0, 2.0])
        grads = lib.autograd.grad(lib.linalg.solve(A, b).pow(3).sum(), (A, b), create_graph=True)
        return lib.autograd.grad(sum(g.pow(2).sum() for g in grads), (A, b))

    same(second)


def test_changing_a_saved_input_in_place_fails_in_both():
    # A is saved even when only B needs a gradient (its rule reads A).
    def run(lib):
        A, b = lib.tensor(A2, dtype=lib.float64), _leaf(lib, [1.0, 2.0])
        x = lib.linalg.solve(A, b)
        A.add_(1)
        x.sum().backward()

    same_error(run, "modified by an inplace operation")

    def run_inv(lib):
        A = _leaf(lib, A2)
        inverse = lib.linalg.inv(A)
        inverse.mul_(2)
        inverse.sum().backward()

    same_error(run_inv, "modified by an inplace operation")


def test_gradient_of_a_broadcast_A_is_summed_over_the_batch():
    same(
        lambda lib: lib.autograd.grad(
            lib.linalg.solve(A := _leaf(lib, A2), b := _leaf(lib, [[[1.0], [2.0]], [[0.5], [-1.0]]])).sum(),
            (A, b),
        )
    )


def test_newton_step_with_solve():
    # The course's Newton step, x - H^-1 g, written with linalg.solve.
    def run(lib):
        x = _leaf(lib, [0.0, 0.0])
        f = (x[0] - 1) ** 2 + 2 * (x[1] + 3) ** 2 + x[0] * x[1]
        (g,) = lib.autograd.grad(f, x, create_graph=True)
        H = lib.stack([lib.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)])
        return x.detach() - lib.linalg.solve(H, g.detach())

    assert values(run(minigrad)) == values(torch.tensor([20 / 7, -26 / 7], dtype=torch.float64))
    same(run)
