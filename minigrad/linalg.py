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
import warnings

from . import backend
from . import functions as F
from .autograd.grad_mode import is_grad_enabled
from .autograd.op import Op
from .factories import eye, ones_like, zeros_like
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


# ----------------------------------------------------------------------------------------------
# Determinants, factorizations and decompositions
# ----------------------------------------------------------------------------------------------
# Each is one node with PyTorch's name whose rule is PyTorch's (FunctionsManual.cpp), written
# with minigrad's own ops so that it differentiates again. A factorization with several
# differentiable results (slogdet, qr, eigh, svd, triangular_solve) records one _Results node (functions.py) for
# all of them, as PyTorch does (output 0, output 1 ...).


return_types_linalg_slogdet = F._return_type("linalg_slogdet", ("sign", "logabsdet"))
return_types_slogdet = F._return_type("slogdet", ("sign", "logabsdet"))
return_types_linalg_cholesky_ex = F._return_type("linalg_cholesky_ex", ("L", "info"))
return_types_triangular_solve = F._return_type("triangular_solve", ("solution", "cloned_coefficient"))
return_types_linalg_qr = F._return_type("linalg_qr", ("Q", "R"))
return_types_qr = F._return_type("qr", ("Q", "R"))
return_types_linalg_eigh = F._return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
return_types_linalg_svd = F._return_type("linalg_svd", ("U", "S", "Vh"))
return_types_svd = F._return_type("svd", ("U", "S", "V"))


def _check_lapack_dtype(name: str, A: Tensor) -> None:
    """Floating point, and float32 or float64 (LAPACK has no half precision)."""
    _check_floating(name, A)
    if A.dtype.itemsize < 4:
        raise NotImplementedError(f"\"{name}\" not implemented for '{A.dtype._legacy_name}': use float32 or float64")


def _eye_like(A: Tensor) -> Tensor:
    return eye(A.shape[-1], dtype=A.dtype, device=A.device)


def _diag_times_eye(d: Tensor, A: Tensor) -> Tensor:
    """``d`` (one number per matrix of the batch ``A``) times the identity."""
    return d.unsqueeze(-1).unsqueeze(-1) * _eye_like(A)


# --- determinants ---


def det(A: Tensor) -> Tensor:
    """The determinant of a square matrix (or of each in a batch); ``torch.det`` too.

    >>> import minigrad as torch
    >>> torch.linalg.det(torch.tensor([[2.0, 1.0], [0.0, 3.0]]))
    tensor(6.)
    """
    _check_square("linalg.det", A)
    _check_lapack_dtype("linalg.det", A)
    return _det_op(A)


def _prod_safe_zeros_backward(grad: Tensor, S: Tensor) -> Tensor:
    """The gradient of ``S.prod(-1)`` that stays right when entries are 0: the product of all the
    others, from exclusive cumulative products from both ends (PyTorch's prod_safe_zeros_backward)."""
    n = S.shape[-1]
    if n == 0:
        return grad.expand(S.shape)
    ones = ones_like(S.narrow(-1, 0, 1))
    before = F.cat([ones, S.narrow(-1, 0, n - 1)], -1).cumprod(-1)
    after = F.cat([ones, S.narrow(-1, 1, n - 1).flip(-1)], -1).cumprod(-1).flip(-1)
    return grad * before * after


def _det_grad(grad: Tensor, A: Tensor, result: Tensor) -> Tensor:
    """``grad * det * A^-H`` (PyTorch's linalg_det_backward). A singular matrix has no inverse:
    when differentiating again PyTorch goes through the SVD (``det = det(U) det(Vh) prod(S)``);
    a first derivative there is 0, as PyTorch's (its LU solve multiplies by ``det = 0``)."""
    if A.numel() == 0:
        return zeros_like(A)
    singular = result == 0
    if not bool(singular.any()):
        return solve(A.mH, _diag_times_eye(grad * result, A))
    safe = F.where(singular.unsqueeze(-1).unsqueeze(-1), _eye_like(A), A)  # its gradient is 0 * I
    gA = solve(safe.mH, _diag_times_eye(grad * result, A))
    if not is_grad_enabled():
        return gA
    if A.ndim == 2:
        return _det_grad_singular(grad, A)
    gA = gA.clone()  # only the singular matrices go through the SVD, as in PyTorch
    gA[singular] = _det_grad_singular(grad.expand(singular.shape)[singular], A[singular])
    return gA


def _det_grad_singular(grad: Tensor, A: Tensor) -> Tensor:
    U, S, Vh = svd(A)
    alpha = det(U) * det(Vh) * grad
    return (U * _prod_safe_zeros_backward(alpha.unsqueeze(-1), S).unsqueeze(-2)).matmul(Vh)


_det_op = Op("LinalgDetBackward0", lambda xp, A: xp.linalg.det(A), A=lambda grad, A, result: _det_grad(grad, A, result))


def slogdet(A: Tensor) -> tuple[Tensor, Tensor]:
    """``(sign, logabsdet)``: the sign of the determinant (0 for a singular matrix) and the log of
    its absolute value, without overflow; ``torch.slogdet`` too.

    >>> import minigrad as torch
    >>> torch.linalg.slogdet(torch.tensor([[0.0, 2.0], [3.0, 0.0]]))
    torch.return_types.linalg_slogdet(
    sign=tensor(-1.),
    logabsdet=tensor(1.7918))
    """
    _check_square("linalg.slogdet", A)
    _check_lapack_dtype("linalg.slogdet", A)
    return return_types_linalg_slogdet(*LinalgSlogdetBackward0.record((A,), _slogdet_forward, {}, 2))


def _slogdet_forward(xp, A):
    sign, logabsdet = xp.linalg.slogdet(A)
    return xp.asarray(sign, dtype=A.dtype), xp.asarray(logabsdet, dtype=A.dtype)


def _slogdet_grad(grads, A):
    """``g_logabsdet * A^-H``; a real sign has no gradient. (PyTorch's slogdet_backward.)"""
    g = grads[1]
    if g is None:
        return (None,)
    return (solve(A.mH, _diag_times_eye(g, A)),)


LinalgSlogdetBackward0 = F._results_node("LinalgSlogdetBackward0", _slogdet_grad, inputs=("A",), saves=("A",))


def logdet(A: Tensor) -> Tensor:
    """The log of the determinant: nan when it is negative, -inf when it is 0 (``torch.logdet``).

    >>> import minigrad as torch
    >>> torch.logdet(torch.tensor([[2.0, 0.0], [0.0, 3.0]]))
    tensor(1.7918)
    """
    _check_square("logdet", A)
    _check_lapack_dtype("logdet", A)
    sign, logabsdet = slogdet(A)
    return F.where(sign == -1, math.nan, logabsdet)  # as PyTorch composes it (WhereBackward0)


def torch_slogdet(A: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.slogdet``: :func:`slogdet`, as a ``torch.return_types.slogdet``.

    >>> import minigrad as torch
    >>> torch.slogdet(torch.eye(2)).logabsdet
    tensor(0.)
    """
    _check_square("linalg.slogdet", A)
    _check_lapack_dtype("linalg.slogdet", A)
    return return_types_slogdet(*slogdet(A))


# --- triangular systems ---


def _substitute(xp, A, B, upper: bool, unit: bool):
    """``A^-1 B`` for triangular ``A`` by substitution, row by row, as LAPACK's trsm: a zero on
    the diagonal gives inf/nan, not an error, as in PyTorch. Batch dimensions broadcast."""
    n = A.shape[-1]
    A = xp.triu(A) if upper else xp.tril(A)  # the other triangle is never read
    batch = xp.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    X = xp.zeros(batch + B.shape[-2:], dtype=B.dtype)
    for i in range(n - 1, -1, -1) if upper else range(n):
        row = B[..., i, :] - (A[..., i, :, None] * X).sum(-2)  # rows not yet solved are still 0
        X[..., i, :] = row if unit else row / A[..., i, i, None]
    return X


def _triangular_forward(xp, A, B, *, upper, left, unitriangular):
    if left:
        return _substitute(xp, A, B, upper, unitriangular)
    # X A = B is A^T X^T = B^T, and A^T is triangular the other way
    At, Bt = xp.swapaxes(A, -1, -2), xp.swapaxes(B, -1, -2)
    return xp.ascontiguousarray(xp.swapaxes(_substitute(xp, At, Bt, not upper, unitriangular), -1, -2))


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False) -> Tensor:
    """The solution ``X`` of ``A @ X = B`` (``X @ A = B`` with ``left=False``) for a triangular
    ``A`` (upper or lower, as ``upper`` says; the other triangle is not read; ``unitriangular``:
    ones on the diagonal, which is not read either). A zero on the diagonal gives inf or nan.

    >>> import minigrad as torch
    >>> A = torch.tensor([[2.0, 0.0], [1.0, 1.0]])
    >>> torch.linalg.solve_triangular(A, torch.tensor([[2.0], [3.0]]), upper=False)
    tensor([[1.],
            [2.]])
    """
    name = "linalg.solve_triangular"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if B.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _check_square(name, A)
    _check_lapack_dtype(name, A)
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"{name}: Expected A and B to have the same dtype, but found A of type {A.dtype._legacy_name} "
            f"and B of type {B.dtype._legacy_name} instead"
        )
    n = A.shape[-1]
    if B.shape[-2 if left else -1] != n:
        raise RuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
            f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})"
        )
    F.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    return _solve_triangular_op(A, B, upper=upper, left=left, unitriangular=unitriangular)


def _triangle(G: Tensor, upper: bool, unitriangular: bool) -> Tensor:
    """The part of a gradient that reaches a triangular input: its triangle (without the
    diagonal when that is taken as ones)."""
    return G.triu(int(unitriangular)) if upper else G.tril(-int(unitriangular))


def _solve_triangular_grad_B(grad, A, upper, left, unitriangular):
    return solve_triangular(A.mH, grad, upper=not upper, left=left, unitriangular=unitriangular)


def _solve_triangular_grad_A(grad, A, result, upper, left, unitriangular):
    gB = _solve_triangular_grad_B(grad, A, upper, left, unitriangular)
    return _triangle(-gB.matmul(result.mH) if left else -result.mH.matmul(gB), upper, unitriangular)


_solve_triangular_op = Op(
    "LinalgSolveTriangularBackward0",
    lambda xp, A, B, *, upper, left, unitriangular: _triangular_forward(
        xp, A, B, upper=upper, left=left, unitriangular=unitriangular
    ),
    A=_solve_triangular_grad_A,
    B=lambda grad, A, upper, left, unitriangular: _solve_triangular_grad_B(grad, A, upper, left, unitriangular),
)


def triangular_solve(
    b: Tensor, A: Tensor, upper: bool = True, transpose: bool = False, unitriangular: bool = False
) -> tuple[Tensor, Tensor]:
    """``torch.triangular_solve`` (deprecated in PyTorch for :func:`solve_triangular`): the solution
    of ``A X = b`` (``A^T X = b`` with ``transpose``) and a copy of ``A``.

    >>> import minigrad as torch
    >>> torch.triangular_solve(torch.tensor([[4.0], [3.0]]), torch.tensor([[2.0, 0.0], [0.0, 3.0]])).solution
    tensor([[2.],
            [1.]])
    """
    warnings.warn(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular and will be removed in a "
        "future PyTorch release.",
        UserWarning,
        stacklevel=2,
    )
    if b.ndim < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {b.ndim} dimensions instead"
        )
    if A.ndim < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {A.ndim} dimensions instead"
        )
    _check_square("torch.triangular_solve", A)
    _check_lapack_dtype("triangular_solve", A)
    if A.dtype is not b.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {b.dtype._legacy_name} and A of type "
            f"{A.dtype._legacy_name} instead."
        )
    params = {"upper": upper, "transpose": transpose, "unitriangular": unitriangular, "b_shape": tuple(b.shape)}
    solution, coefficient = TriangularSolveBackward0.record((b, A), _triangular_solve_forward, params, 2)
    return return_types_triangular_solve(solution, coefficient)


def _triangular_solve_forward(xp, b, A, *, upper, transpose, unitriangular, b_shape):
    At = xp.swapaxes(A, -1, -2) if transpose else A
    return _substitute(xp, At, b, upper != transpose, unitriangular), A.copy()


def _triangular_solve_grad(grads, A, solution, upper, transpose, unitriangular, b_shape):
    """PyTorch's triangular_solve_backward: ``A`` gets its triangle of ``-gb X^T`` plus the
    gradient of its copy."""
    g_solution, g_copy = grads
    gb = gA = None
    if g_solution is not None:
        At = A.mT if not transpose else A  # solve with A^T (A when transposed): the other triangle
        gb = solve_triangular(At, g_solution, upper=upper == transpose, unitriangular=unitriangular)
        gA = _triangle(-solution.matmul(gb.mH) if transpose else -gb.matmul(solution.mH), upper, unitriangular)
    if g_copy is not None:
        gA = g_copy if gA is None else gA + g_copy
        gb = g_copy.new_zeros(b_shape) if gb is None else gb  # as PyTorch: zeros, not None
    return gb, gA


TriangularSolveBackward0 = F._results_node(
    "TriangularSolveBackward0", _triangular_solve_grad, inputs=("self", "A"), saves=("A",), results=("solution",)
)


# --- Cholesky ---


def _cholesky_partial(xp, A):
    """The lower Cholesky factor, column by column (LAPACK's potf2, vectorised over the batch),
    stopping in each matrix at the first non-positive pivot, which is left in place, as LAPACK
    leaves it; and the order of that leading minor (0: positive-definite)."""
    n = A.shape[-1]
    L = xp.tril(A).copy()
    info = xp.zeros(A.shape[:-2], dtype=xp.int32)
    for j in range(n):
        live = info == 0
        pivot = L[..., j, j] - (L[..., j, :j] ** 2).sum(-1)
        failed = live & ~(pivot > 0)
        info = xp.where(failed, j + 1, info)
        ok = live & ~failed
        root = xp.sqrt(xp.where(ok, pivot, 1))
        L[..., j, j] = xp.where(ok, root, xp.where(failed, pivot, L[..., j, j]))
        below = (L[..., j + 1 :, j] - (L[..., j + 1 :, :j] * L[..., j, None, :j]).sum(-1)) / root[..., None]
        L[..., j + 1 :, j] = xp.where(ok[..., None], below, L[..., j + 1 :, j])
    return L, info


def _cholesky_forward(xp, A, *, upper, name):
    """The Cholesky factor (upper: of the upper triangle, as PyTorch reads it); with ``name``,
    a matrix that is not positive-definite raises PyTorch's error, otherwise the partial factor."""
    lower = xp.conj(xp.swapaxes(A, -1, -2)) if upper else A
    try:
        with backend.raising_linalg(xp):
            L = xp.linalg.cholesky(lower)
    except backend.ArrayLinAlgError:
        L, info = _cholesky_partial(xp, lower)
        if name:
            flat = info.reshape(-1)
            first = int(xp.argmax(flat != 0))
            where = f"(Batch element {first}): " if A.ndim > 2 else ""
            raise LinAlgError(
                f"{name}: {where}The factorization could not be completed because the input is not positive-definite "
                f"(the leading minor of order {int(flat[first])} is not positive-definite)."
            ) from None
    return xp.conj(xp.swapaxes(L, -1, -2)) if upper else L


def _cholesky_grad(grad: Tensor, L: Tensor, upper: bool) -> Tensor:
    """PyTorch's cholesky_backward: ``L^-H phi(L^H gL) L^-1``, made symmetric, where phi takes
    the lower triangle with half the diagonal."""
    if upper:
        L, grad = L.mH, grad.mH
    phi = L.mH.matmul(grad).tril()
    phi = phi - 0.5 * phi.diagonal(0, -2, -1).diag_embed()
    gA = solve_triangular(L, solve_triangular(L.mH, phi, upper=True), upper=False, left=False)
    return 0.5 * (gA + gA.mH)


def _cholesky_op(node_name: str) -> Op:
    return Op(
        node_name,
        lambda xp, A, *, upper, name: _cholesky_forward(xp, A, upper=upper, name=name),
        A=lambda grad, result, upper: _cholesky_grad(grad, result, upper),
    )


_linalg_cholesky_op = _cholesky_op("LinalgCholeskyExBackward0")
_torch_cholesky_op = _cholesky_op("CholeskyBackward0")


def _check_cholesky(name: str, A: Tensor) -> None:
    _check_square(name, A)
    _check_lapack_dtype(name, A)


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """The Cholesky factor ``L`` of a symmetric positive-definite matrix, ``A = L @ L.mH`` (only
    the lower triangle of ``A`` is read); ``upper=True`` gives ``U = L.mH`` from the upper
    triangle. A matrix that is not positive-definite raises :class:`LinAlgError`.

    >>> import minigrad as torch
    >>> torch.linalg.cholesky(torch.tensor([[4.0, 2.0], [2.0, 5.0]]))
    tensor([[2., 0.],
            [1., 2.]])
    """
    _check_cholesky("linalg.cholesky", A)
    return _linalg_cholesky_op(A, upper=upper, name="linalg.cholesky")


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`cholesky` without the error: ``(L, info)``, ``info`` (int32) the order of the first
    leading minor that is not positive-definite (0: none), ``L`` then LAPACK's partial factor.

    >>> import minigrad as torch
    >>> torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])).info
    tensor(2, dtype=torch.int32)
    """
    _check_cholesky("linalg.cholesky_ex", A)
    L = _linalg_cholesky_op(A, upper=upper, name="linalg.cholesky_ex" if check_errors else None)
    with backend.on(L.device):
        xp = backend.xp(L.device)
        good = L._data.diagonal(0, -2, -1) > 0  # a failed pivot is left in place, <= 0 (or nan)
        first = xp.argmin(good, -1) if good.shape[-1] else xp.zeros(good.shape[:-1], dtype=xp.int64)
        info = xp.where(good.all(-1), 0, first + 1).astype(xp.int32)
    return return_types_linalg_cholesky_ex(L, Tensor._make(xp.asarray(info)))


def torch_cholesky(A: Tensor, upper: bool = False) -> Tensor:
    """``torch.cholesky`` (deprecated in PyTorch for :func:`cholesky`): ``upper`` is positional.

    >>> import minigrad as torch
    >>> torch.cholesky(torch.tensor([[4.0, 2.0], [2.0, 5.0]]), upper=True)
    tensor([[2., 1.],
            [0., 2.]])
    """
    warnings.warn(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
        "release.",
        UserWarning,
        stacklevel=2,
    )
    _check_cholesky("cholesky", A)
    return _torch_cholesky_op(A, upper=upper, name="cholesky")


def _check_factor(name: str, L: Tensor) -> None:
    if L.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    _check_square(name, L)
    _check_lapack_dtype(name, L)


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False) -> Tensor:
    """The solution of ``A X = B`` given the Cholesky factor ``L`` of ``A`` (``A = L L^H``, or
    ``U^H U`` with ``upper``). Batch dimensions broadcast.

    >>> import minigrad as torch
    >>> L = torch.tensor([[2.0, 0.0], [1.0, 2.0]])
    >>> torch.cholesky_solve(torch.tensor([[4.0], [2.0]]), L)  # A = [[4, 2], [2, 5]]
    tensor([[1.],
            [0.]])
    """
    if B.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {B.ndim} dimensions instead")
    if L.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {L.ndim} dimensions instead")
    if B.dtype is not L.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {B.dtype._legacy_name} and A of type "
            f"{L.dtype._legacy_name} instead."
        )
    _check_square("cholesky_solve", L)
    _check_lapack_dtype("cholesky_solve", L)
    if B.shape[-2] != L.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {L.shape[-1]} by {L.shape[-1]} but "
            f"each b matrix is {B.shape[-2]} by {B.shape[-1]}"
        )
    F.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    return _cholesky_solve_op(B, L, upper=upper)


def _cholesky_solve_forward(xp, B, L, *, upper):
    Lh = xp.conj(xp.swapaxes(L, -1, -2))
    lower, upper_ = (Lh, L) if upper else (L, Lh)  # A = lower @ upper_
    return _substitute(xp, upper_, _substitute(xp, lower, B, upper=False, unit=False), upper=True, unit=False)


def _cholesky_solve_grad_L(grad, L, result, upper):
    """PyTorch's cholesky_solve_backward: ``-(gB X^H + X gB^H)`` times the factor."""
    gB = cholesky_solve(grad, L, upper)
    common = gB.matmul(result.mH)
    common = common + common.mH
    return -L.matmul(common) if upper else -common.matmul(L)


_cholesky_solve_op = Op(
    "CholeskySolveBackward0",
    lambda xp, self, input2, *, upper: _cholesky_solve_forward(xp, self, input2, upper=upper),
    self=lambda grad, input2, upper: cholesky_solve(grad, input2, upper),
    input2=lambda grad, input2, result, upper: _cholesky_solve_grad_L(grad, input2, result, upper),
)


def cholesky_inverse(L: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A`` given its Cholesky factor ``L`` (``A = L L^H``, or ``U^H U`` with
    ``upper``).

    >>> import minigrad as torch
    >>> torch.cholesky_inverse(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))
    tensor([[0.2500, 0.0000],
            [0.0000, 1.0000]])
    """
    _check_factor("cholesky_inverse", L)
    return _cholesky_inverse_op(L, upper=upper)


def _cholesky_inverse_forward(xp, L, *, upper):
    eye_ = xp.broadcast_to(xp.eye(L.shape[-1], dtype=L.dtype), L.shape)
    return _cholesky_solve_forward(xp, eye_, L, upper=upper)


def _cholesky_inverse_grad(grad, L, result, upper):
    """PyTorch's cholesky_inverse_backward: ``-inv (G + G^H) inv`` times the factor."""
    common = result.matmul((grad + grad.mH).matmul(result))
    return -L.matmul(common) if upper else -common.matmul(L)


_cholesky_inverse_op = Op(
    "CholeskyInverseBackward0",
    lambda xp, L, *, upper: _cholesky_inverse_forward(xp, L, upper=upper),
    L=_cholesky_inverse_grad,
)


# --- QR, eigh, SVD ---


def qr(A: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    """``A = Q @ R`` with orthonormal columns in ``Q`` and an upper triangular ``R``: ``mode``
    ``'reduced'`` (``Q`` is m x k, k = min(m, n)), ``'complete'`` (``Q`` is m x m) or ``'r'``
    (``R`` only; ``Q`` is empty).

    >>> import minigrad as torch
    >>> Q, R = torch.linalg.qr(torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> (Q @ R).round(decimals=4)
    tensor([[3., 1.],
            [4., 2.]])
    """
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
        )
    if A.ndim < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    _check_lapack_dtype("linalg.qr", A)
    return return_types_linalg_qr(*LinalgQrBackward0.record((A,), _qr_forward, {"mode": mode}, 2))


def _qr_forward(xp, A, *, mode):
    if mode == "r":
        return xp.zeros((0,), dtype=A.dtype), xp.linalg.qr(A, mode="r")
    Q, R = xp.linalg.qr(A, mode=mode)
    return Q, R


def _tril_im_inv_adj_skew(X: Tensor) -> Tensor:
    return (X - X.mH).tril()


def _syminvadj(X: Tensor) -> Tensor:
    sym = X + X.mH
    return sym - 0.5 * sym.diagonal(0, -2, -1).diag_embed()


def _qr_grad(grads, Q, R, mode):
    """PyTorch's linalg_qr_backward (Walter and Lehmann; arXiv 2009.10071)."""
    gQ, gR = grads
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
        )
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if gQ is None:
        MH = gR.matmul(R.mH)
    else:
        MH = -Q.mH.matmul(gQ) if gR is None else gR.matmul(R.mH) - Q.mH.matmul(gQ)
    if m >= n:
        b = Q.matmul(_syminvadj(MH.triu()))
        if gQ is not None:
            b = b + gQ
        return (solve_triangular(R.mH, b, upper=False, left=False),)
    b = Q.matmul(_tril_im_inv_adj_skew(-MH))
    gA = solve_triangular(R.narrow(-1, 0, m).mH, b, upper=False, left=False)
    gA = F.cat([gA, zeros_like(R.narrow(-1, m, n - m))], -1)
    return (gA if gR is None else gA + Q.matmul(gR),)


LinalgQrBackward0 = F._results_node("LinalgQrBackward0", _qr_grad, inputs=("A",), saves=(), results=("Q", "R"))


def torch_qr(input: Tensor, some: bool = True) -> tuple[Tensor, Tensor]:
    """``torch.qr`` (deprecated in PyTorch for :func:`qr`): ``some=False`` is mode ``'complete'``.

    >>> import minigrad as torch
    >>> torch.qr(torch.eye(2)).R
    tensor([[1., 0.],
            [0., 1.]])
    """
    warnings.warn(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.",
        UserWarning,
        stacklevel=2,
    )
    return return_types_qr(*qr(input, "reduced" if some else "complete"))


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def _check_eigh(name: str, A: Tensor, UPLO: str) -> None:
    _check_uplo(UPLO)
    _check_square(name, A)
    if not A.dtype.is_floating_point:  # (PyTorch's kernel, not its checks, rejects integers here)
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for '{A.dtype._legacy_name}'")
    _check_lapack_dtype(name, A)


def eigh(A: Tensor, UPLO: str = "L") -> tuple[Tensor, Tensor]:
    """The eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix,
    read from its lower triangle (``UPLO='U'``: the upper one). Eigenvectors are unique only up to
    sign (and within repeated eigenvalues).

    >>> import minigrad as torch
    >>> torch.linalg.eigh(torch.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    tensor([1., 3.])
    """
    _check_eigh("linalg.eigh", A, UPLO)
    found = LinalgEighBackward0.record((A,), lambda xp, A, *, UPLO: tuple(xp.linalg.eigh(A, UPLO)), {"UPLO": UPLO}, 2)
    return return_types_linalg_eigh(*found)


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues (ascending) of a symmetric matrix (see :func:`eigh`).

    >>> import minigrad as torch
    >>> torch.linalg.eigvalsh(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))
    tensor([1., 2.])
    """
    _check_eigh("linalg.eigvalsh", A, UPLO)
    if A.requires_grad and is_grad_enabled():  # the gradient needs the eigenvectors (one node, as PyTorch)
        return eigh(A, UPLO).eigenvalues
    with backend.on(A.device):
        return Tensor._make(backend.xp(A.device).linalg.eigvalsh(A._data, UPLO))


def _eigh_grad(grads, eigenvalues, eigenvectors, UPLO):
    """PyTorch's linalg_eig_backward for a Hermitian matrix: ``V (diag(gL) + skew(V^H gV) / E) V^H``
    with ``E[i, j] = L[j] - L[i]``."""
    (gL, gV), L, V = grads, eigenvalues, eigenvectors
    if gV is None:
        return (V.matmul(gL.unsqueeze(-1) * V.mH),)
    VhgV = V.mH.matmul(gV)
    VhgV = 0.5 * (VhgV - VhgV.mH)
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    E = E + _eye_like(V)  # 1 on the diagonal, where the skew part is 0
    gA = VhgV / E
    if gL is not None:
        gA = gA + gL.diag_embed()
    return (V.matmul(gA.matmul(V.mH)),)


LinalgEighBackward0 = F._results_node(
    "LinalgEighBackward0", _eigh_grad, inputs=("A",), saves=(), results=("eigenvalues", "eigenvectors")
)


def svd(A: Tensor, full_matrices: bool = True, *, driver=None) -> tuple[Tensor, Tensor, Tensor]:
    """``A = U @ diag(S) @ Vh``: singular values ``S`` descending; ``U`` and ``Vh`` (each unique
    only up to sign) are square with ``full_matrices``, otherwise m x k and k x n.

    >>> import minigrad as torch
    >>> torch.linalg.svd(torch.tensor([[3.0, 0.0], [0.0, -4.0]])).S
    tensor([4., 3.])
    """
    if A.ndim < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_lapack_dtype("linalg.svd", A)
    params = {"full_matrices": full_matrices}
    return return_types_linalg_svd(*LinalgSvdBackward0.record((A,), _svd_forward, params, 3))


def _svd_forward(xp, A, *, full_matrices):
    m, n = A.shape[-2:]
    if A.size == 0:  # LAPACK is not called: identities where a dimension is left
        k = min(m, n)
        batch = A.shape[:-2]
        U = xp.broadcast_to(xp.eye(m, m if full_matrices else k, dtype=A.dtype), batch + (m, m if full_matrices else k))
        Vh = xp.broadcast_to(
            xp.eye(n if full_matrices else k, n, dtype=A.dtype), batch + (n if full_matrices else k, n)
        )
        return U.copy(), xp.zeros(batch + (k,), dtype=A.dtype), Vh.copy()
    U, S, Vh = xp.linalg.svd(A, full_matrices=full_matrices)
    return U, S, Vh


def _svd_grad(grads, U, S, Vh, full_matrices):
    """PyTorch's svd_backward (with full_matrices, only the first k columns of U and rows of Vh
    get a gradient)."""
    gU, gS, gVh = grads
    k = S.shape[-1]
    if full_matrices:
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = gU.narrow(-1, 0, k) if gU is not None else None
        gVh = gVh.narrow(-2, 0, k) if gVh is not None else None
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        return (U.matmul(gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)).matmul(Vh),)
    UhgU = None if gU is None else _skew(U.mH.matmul(gU))
    VhgV = None if gVh is None else _skew(Vh.matmul(gVh.mH))
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye(k, dtype=S.dtype, device=S.device)  # 1 on the diagonal
    if gU is not None and gVh is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is None:
        gA = S.unsqueeze(-1) * VhgV / E
    else:
        gA = UhgU * S.unsqueeze(-2) / E
    if gS is not None:
        gA = gA + gS.diag_embed()
    if m > n and gU is not None:
        gA = U.matmul(gA)
        gUSinv = gU / S.unsqueeze(-2)
        gA = (gA + gUSinv - U.matmul(U.mH.matmul(gUSinv))).matmul(Vh)
    elif m < n and gVh is not None:
        gA = gA.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = U.matmul(gA + SinvgVh - SinvgVh.matmul(Vh.mH).matmul(Vh))
    else:
        gA = U.matmul(gA.matmul(Vh)) if m >= n else U.matmul(gA).matmul(Vh)
    return (gA,)


def _skew(X: Tensor) -> Tensor:
    return X - X.mH


LinalgSvdBackward0 = F._results_node("LinalgSvdBackward0", _svd_grad, inputs=("A",), saves=(), results=("U", "S", "Vh"))


def svdvals(A: Tensor, *, driver=None) -> Tensor:
    """The singular values of ``A``, descending.

    >>> import minigrad as torch
    >>> torch.linalg.svdvals(torch.tensor([[3.0, 0.0], [0.0, -4.0]]))
    tensor([4., 3.])
    """
    if A.ndim < 2:
        raise RuntimeError("linalg.svdvals: The input tensor A must have at least 2 dimensions.")
    _check_lapack_dtype("linalg.svdvals", A)
    if A.requires_grad and is_grad_enabled():  # the gradient needs U and Vh (one node, as PyTorch)
        return svd(A, full_matrices=False).S
    with backend.on(A.device):
        xp = backend.xp(A.device)
        if A._data.size == 0:
            return Tensor._make(xp.zeros(A.shape[:-2] + (min(A.shape[-2:]),), dtype=A._data.dtype))
        return Tensor._make(xp.linalg.svd(A._data, compute_uv=False))


def torch_svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """``torch.svd``: ``(U, S, V)`` with ``V`` (not ``Vh``), reduced unless ``some=False``; with
    ``compute_uv=False``, ``U`` and ``V`` are zeros.

    >>> import minigrad as torch
    >>> torch.svd(torch.tensor([[3.0, 0.0], [0.0, -4.0]])).S
    tensor([4., 3.])
    """
    if not compute_uv:  # U and V are zeros, square as PyTorch gives them
        S = svdvals(input)
        m, n = input.shape[-2:]
        U, V = (input.new_zeros(input.shape[:-2] + (k, k)) for k in (m, n))
        return return_types_svd(U, S, V)
    U, S, Vh = svd(input, full_matrices=not some)
    return return_types_svd(U, S, Vh.mH)


# The Tensor methods PyTorch has for these (A.det(), A.cholesky() ...), attached here rather
# than in tensor.py so that this module is the one place for them.
Tensor.det, Tensor.logdet, Tensor.slogdet = det, logdet, torch_slogdet
Tensor.cholesky, Tensor.cholesky_solve, Tensor.cholesky_inverse = torch_cholesky, cholesky_solve, cholesky_inverse
Tensor.triangular_solve = triangular_solve
Tensor.qr, Tensor.svd = torch_qr, torch_svd
