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

__all__ = ["LinAlgError", "cross", "inv", "matrix_norm", "matrix_power", "multi_dot", "norm", "solve", "vector_norm"]
matrix_power = F.matrix_power  # torch.matrix_power and torch.linalg.matrix_power are one function


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
# Products
# ----------------------------------------------------------------------------------------------


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (the other dims broadcast).

    >>> import minigrad as torch
    >>> torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
    """
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    wrapped = F._wrap_dim(dim, input.ndim)
    if input.shape[wrapped] != 3 or other.shape[wrapped] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[wrapped]} and {other.shape[wrapped]}"
        )
    if input.dtype is not other.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._legacy_name} but found {other.dtype._legacy_name}")
    F.broadcast_shapes(input.shape, other.shape)
    return F.linalg_cross_op(input, other, dim=wrapped)


def multi_dot(tensors) -> Tensor:
    """The product of two or more matrices (the first and last may
    be vectors), multiplied in the order that costs the fewest multiplications, as PyTorch does."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    for i, t in enumerate(tensors):
        end = "first" if i == 0 else "last" if i == len(tensors) - 1 else None
        if end and t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {end} tensor must be 1D or 2D but got {t.ndim}D")
        if not end and t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
        if t.dtype is not first.dtype:
            raise RuntimeError(
                f"multi_dot(): all tensors must have be the same dtype but tensor 0 is {F._cpp_name(first.dtype)} and "
                f"tensor {i} {F._cpp_name(t.dtype)}"
            )
    matrices = [
        first.unsqueeze(0) if first.ndim == 1 else first,
        *tensors[1:-1],
        last.unsqueeze(1) if last.ndim == 1 else last,
    ]
    for i in range(len(matrices) - 1):
        if matrices[i].shape[1] != matrices[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and {list(tensors[i + 1].shape)} "
                "cannot be multiplied"
            )
    product = _chain_product(matrices)
    rows = () if first.ndim == 1 else (product.shape[0],)
    cols = () if last.ndim == 1 else (product.shape[1],)
    return product.view(rows + cols)  # always a view, as in PyTorch (ViewBackward0)


def _chain_product(matrices: list) -> Tensor:
    """The product of ``matrices`` in the cheapest order (PyTorch's dynamic programming; with two
    or three, its direct comparison)."""
    n = len(matrices)
    if n == 2:
        return matrices[0].mm(matrices[1])
    sizes = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
    if n == 3:
        a, b, c, d = sizes
        left_first = a * c * (b + d) <= b * d * (a + c)  # (AB)C against A(BC)
        return (
            matrices[0].mm(matrices[1]).mm(matrices[2]) if left_first else matrices[0].mm(matrices[1].mm(matrices[2]))
        )
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k

    def product(i, j):
        return matrices[i] if i == j else product(i, split[i][j]).mm(product(split[i][j] + 1, j))

    return product(0, n - 1)


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
