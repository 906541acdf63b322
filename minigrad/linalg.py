"""``minigrad.linalg``: norms, linear systems and inverses, as ``torch.linalg``.

Every norm is a vector norm (``LinalgVectorNormBackward0``) or, for the matrix 1- and inf-norms,
a vector norm of each column or row followed by ``amax``/``amin``, as PyTorch computes them.
``solve`` and ``inv`` are one node each (``LinalgSolveExBackward0``, ``LinalgInvExBackward0``)
whose rules are PyTorch's, written with minigrad's own ops (so they differentiate again).

>>> import minigrad as torch
>>> torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))
tensor(5.)
>>> torch.linalg.norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), 1)
tensor(6.)
>>> torch.linalg.solve(torch.tensor([[3.0, 1.0], [1.0, 2.0]]), torch.tensor([9.0, 8.0]))
tensor([2., 3.])
"""

from __future__ import annotations

import math

from . import backend
from . import functions as F
from .autograd.op import Op
from .tensor import Tensor

__all__ = ["LinAlgError", "inv", "matrix_norm", "norm", "solve", "vector_norm"]


class LinAlgError(RuntimeError):
    """A matrix that cannot be solved or inverted because it is singular (``torch.linalg.LinAlgError``)."""


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """``(sum |x|^ord) ^ (1/ord)`` over ``dim`` (all elements by default); ``ord`` may be inf,
    -inf or 0 too."""
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: ord must be a number, got {ord!r}; use matrix_norm for {ord!r}")
    return F.norm(x if dtype is None else x.to(dtype), ord, dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """The matrix norm over the two dims ``dim``: ``'fro'`` (default), 1, -1, inf or -inf (the
    largest or smallest column or row sum of absolute values)."""
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dtype is not None:
        A = A.to(dtype)
    rows, cols = (F._wrap_dim(d, A.ndim) for d in dim)
    if ord == "fro":
        return F.norm(A, 2, (rows, cols), keepdim)
    if ord in ("nuc", 2, -2):
        raise NotImplementedError(
            f"linalg.matrix_norm(ord={ord!r}) needs singular values, which minigrad does not compute; "
            "use ord='fro', 1, -1, inf or -inf"
        )
    if ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    summed, across = (rows, cols) if abs(ord) == 1 else (cols, rows)  # 1: column sums; inf: row sums
    if not keepdim and summed < across:
        across -= 1  # the first reduction removed a dim before it
    sums = F.norm(A, 1, summed, keepdim)
    return sums.amax(across, keepdim) if ord > 0 else sums.amin(across, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """A vector norm (``dim`` an int, or a 1-D input) or a matrix norm (``dim`` two ints, or a
    2-D input with ``ord``); without ``ord`` and ``dim``, the 2-norm of all elements."""
    if dim is None and ord is not None:
        if A.ndim not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D."
            )
        dim = tuple(range(A.ndim))
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None and len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


# ----------------------------------------------------------------------------------------------
# Linear systems and inverses
# ----------------------------------------------------------------------------------------------


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """The solution ``X`` of ``A @ X = B`` (of ``X @ A = B`` with ``left=False``), for a square,
    invertible ``A`` or a batch of them: ``inv(A) @ B``, computed without the inverse.

    ``B`` is a vector (or a batch of vectors) when it is 1-D or has ``A``'s shape without its last
    dimension; otherwise a matrix (or a batch). Batch dimensions broadcast. A singular ``A``
    raises :class:`LinAlgError`.

    >>> import minigrad as torch
    >>> A = torch.tensor([[3.0, 1.0], [1.0, 2.0]], requires_grad=True)
    >>> x = torch.linalg.solve(A, torch.tensor([9.0, 8.0]))
    >>> x
    tensor([2., 3.], grad_fn=<LinalgSolveExBackward0>)
    >>> x.sum().backward()
    >>> A.grad  # -(A^-T 1) x^T
    tensor([[-0.4000, -0.6000],
            [-0.8000, -1.2000]])
    """
    name = "linalg.solve"  # the checks in PyTorch's order
    _check_floating(name, A)
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"{name}: Expected A and B to have the same dtype, but found A of type {A.dtype._legacy_name} "
            f"and B of type {B.dtype._legacy_name} instead"
        )
    _check_square(name, A)
    vector = _is_vector_rhs(A.shape, B.shape)
    matrix = tuple(B.shape) + (1,) if vector else tuple(B.shape)  # B as PyTorch sees it, a matrix
    if len(matrix) < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    if matrix[-2 if left else -1] != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation {equation} ({n}x{n} and "
            f"{'x'.join(map(str, matrix[-2:]))})"
        )
    if vector and not left:
        raise RuntimeError(
            f"{name}: Vector broadcasting of the left hand side is not supported for left=False. In this case "
            "linalg.solve is equivalent to B / A.squeeze(-1)"
        )
    F.broadcast_shapes(matrix[:-2], tuple(A.shape[:-2]))
    if A.dtype.itemsize < 4:  # LAPACK has float32 and float64 only
        raise NotImplementedError(f"\"{name}\" not implemented for '{A.dtype._legacy_name}': use float32 or float64")
    return _solve_op(A, B, left=left)


def inv(A: Tensor) -> Tensor:
    """The inverse of a square, invertible matrix (or of each in a batch); a singular one raises
    :class:`LinAlgError`. To solve ``A @ X = B``, :func:`solve` is faster and more accurate.

    >>> import minigrad as torch
    >>> torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    name = "linalg.inv"
    _check_square(name, A)
    _check_floating(name, A)
    if A.dtype.itemsize < 4:  # LAPACK has float32 and float64 only
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got {A.dtype._legacy_name}")
    return _inv_op(A)


def _check_square(name: str, A: Tensor) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    rows, cols = A.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {rows} by {cols} matrices")


def _check_floating(name: str, t: Tensor) -> None:
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {t.dtype._legacy_name}")


def _is_vector_rhs(A_shape, B_shape) -> bool:
    """Whether ``B`` is a vector or a batch of vectors (PyTorch's rule): 1-D, or ``A``'s shape
    without its last dimension."""
    return len(B_shape) == 1 or tuple(B_shape) == tuple(A_shape[:-1])


def _solve_forward(xp, A, B, *, left):
    if _is_vector_rhs(A.shape, B.shape):  # only with left=True (solve checks)
        return _lapack(xp, "solve", A, B[..., None])[..., 0]
    if left:
        return _column_major(xp, _lapack(xp, "solve", A, B))
    # X A = B is A^T X^T = B^T; X then comes out row-major, as PyTorch's does
    At, Bt = xp.swapaxes(A, -1, -2), xp.swapaxes(B, -1, -2)
    return xp.ascontiguousarray(xp.swapaxes(_lapack(xp, "solve", At, Bt), -1, -2))


def _inv_forward(xp, A):
    return _column_major(xp, _lapack(xp, "inv", A))


_SINGULAR = {
    "solve": "torch.linalg.solve: {}The solver failed because the input matrix is singular.",
    "inv": "linalg.inv: {}The inversion could not be completed because the input matrix is singular.",
}


def _lapack(xp, fn: str, A, *rest):
    """``xp.linalg.<fn>(A, *rest)``; a singular matrix raises PyTorch's error, which names the
    first singular matrix of a batch."""
    try:
        with backend.raising_linalg(xp):
            return getattr(xp.linalg, fn)(A, *rest)
    except backend.ArrayLinAlgError:
        where = f"(Batch element {_first_singular(xp, A)}): " if A.ndim > 2 else ""
        raise LinAlgError(_SINGULAR[fn].format(where)) from None


def _first_singular(xp, A) -> int:
    """The index of the first singular matrix in the batch ``A``."""
    for i, matrix in enumerate(A.reshape(-1, *A.shape[-2:])):
        try:
            with backend.raising_linalg(xp):
                xp.linalg.inv(matrix)
        except backend.ArrayLinAlgError:
            return i
    return 0


def _column_major(xp, X):
    """``X`` with each matrix stored column by column, as LAPACK (and so PyTorch) leaves results."""
    return xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(X, -1, -2)), -1, -2)


def _adjoint_solve(grad: Tensor, A: Tensor, B_shape, left: bool) -> tuple[Tensor, bool]:
    """``A^-H grad`` (PyTorch's gB in linalg_solve_backward), as a matrix, and whether B is a vector."""
    vector = _is_vector_rhs(A.shape, B_shape)
    return solve(A.mH, grad.unsqueeze(-1) if vector else grad, left=left), vector


def _solve_grad_A(grad: Tensor, A: Tensor, B_shape, X: Tensor, left: bool) -> Tensor:
    gB, vector = _adjoint_solve(grad, A, B_shape, left)
    X = X.unsqueeze(-1) if vector else X
    return -gB.matmul(X.mH) if left else -X.mH.matmul(gB)


def _solve_grad_B(grad: Tensor, A: Tensor, B_shape, left: bool) -> Tensor:
    gB, vector = _adjoint_solve(grad, A, B_shape, left)
    return gB.squeeze(-1) if vector else gB


_solve_op = Op(
    "LinalgSolveExBackward0",
    lambda xp, A, B, *, left: _solve_forward(xp, A, B, left=left),
    A=lambda grad, A, B_shape, result, left: _solve_grad_A(grad, A, B_shape, result, left),
    B=lambda grad, A, B_shape, left: _solve_grad_B(grad, A, B_shape, left),
)
_inv_op = Op(
    "LinalgInvExBackward0",
    _inv_forward,
    A=lambda grad, result: -result.mH.matmul(grad.matmul(result.mH)),
)
