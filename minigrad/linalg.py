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

from . import _warn, backend, dtypes
from . import functions as F
from .autograd.grad_mode import is_grad_enabled, no_grad
from .autograd.op import Op
from .factories import eye, full, ones_like, tensor, zeros, zeros_like
from .tensor import Tensor

__all__ = ["LinAlgError", "cross", "inv", "matrix_norm", "matrix_power", "multi_dot", "norm", "solve", "vector_norm"]
matrix_power = F.matrix_power  # torch.matrix_power and torch.linalg.matrix_power are one function


class LinAlgError(RuntimeError):
    """A matrix that cannot be solved or inverted because it is singular (``torch.linalg.LinAlgError``)."""


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """``(sum |x|^ord) ^ (1/ord)`` over ``dim`` (all elements by default); ``ord`` may be inf,
    -inf or 0 too."""
    if isinstance(ord, str):
        raise TypeError(
            f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str; use matrix_norm for {ord!r}"
        )
    _check_norm_dtype("linalg.vector_norm", x, dtype)
    return F.norm(x if dtype is None else x.to(dtype), ord, dim, keepdim)


def _check_norm_dtype(name: str, A: Tensor, dtype) -> None:
    """PyTorch's checks of a norm's input and its ``dtype=``: both floating, and the input's dtype
    converts to ``dtype`` without narrowing."""
    _check_floating(name, A)
    if dtype is None:
        return
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name}: dtype should be floating point or complex, but got {dtype._legacy_name}")
    if dtypes.promote_types(A.dtype, dtype) is not dtype:
        raise RuntimeError(
            f"{name}: the dtype of the input ({A.dtype._legacy_name}) should be convertible without narrowing "
            f"to the specified dtype ({dtype._legacy_name})"
        )


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """The matrix norm over the two dims ``dim``: ``'fro'`` (default), ``'nuc'`` (the sum of the
    singular values), 2 or -2 (the largest or smallest singular value), 1, -1, inf or -inf (the
    largest or smallest column or row sum of absolute values).

    >>> import minigrad as torch
    >>> torch.linalg.matrix_norm(torch.tensor([[3.0, 0.0], [0.0, -4.0]]), 2)
    tensor(4.)
    """
    if ord not in ("fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf):  # checked first, as in PyTorch
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    _check_floating("linalg.matrix_norm", A)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    rows, cols = (F._wrap_dim(d, A.ndim) for d in dim)
    if rows == cols:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({rows}, {cols})")
    _check_norm_dtype("linalg.matrix_norm", A, dtype)
    if dtype is not None:
        A = A.to(dtype)
    if ord == "fro":
        return F.norm(A, 2, (rows, cols), keepdim)
    if ord in ("nuc", 2, -2):  # from the singular values, composed as ATen composes it
        order = [d for d in range(A.ndim) if d not in (rows, cols)] + [rows, cols]
        S = svdvals(A.permute(order))
        result = S.sum(-1, keepdim) if ord == "nuc" else _extreme_norm(S, -1, keepdim, ord)
        return result.unsqueeze(-1).permute([order.index(d) for d in range(A.ndim)]) if keepdim else result
    summed, across = (rows, cols) if abs(ord) == 1 else (cols, rows)  # 1: column sums; inf: row sums
    if not keepdim and summed < across:
        across -= 1  # the first reduction removed a dim before it
    return _extreme_norm(F.norm(A, 1, summed, keepdim), across, keepdim, ord)


def _extreme_norm(norms: Tensor, dim: int, keepdim: bool, ord) -> Tensor:
    """The largest (``ord`` > 0) or smallest of ``norms`` along ``dim``. The largest of none is
    0 in PyTorch (a constant: no gradient), the smallest of none an error (amin's)."""
    if ord > 0 and norms.shape[dim] == 0:
        shape, dim = list(norms.shape), dim % norms.ndim
        shape[dim : dim + 1] = [1] if keepdim else []
        return zeros(shape, dtype=norms.dtype, device=norms.device)
    return norms.amax(dim, keepdim) if ord > 0 else norms.amin(dim, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """A vector norm (``dim`` an int, or a 1-D input) or a matrix norm (``dim`` two ints, or a
    2-D input with ``ord``); without ``ord`` and ``dim``, the 2-norm of all elements."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None and len(dim) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    if dim is None and ord is not None:
        if A.ndim not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D."
            )
        dim = (0, 1) if isinstance(ord, str) else tuple(range(A.ndim))  # a str ord is a matrix norm's
    if dim is not None and len(dim) == 2 or isinstance(ord, str):
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
    F._broadcast_shape(input.shape, other.shape)
    if input.dtype is dtypes.bool:
        raise F._no_kernel("cross")
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
    _check_solve("linalg.solve", A, B, left)
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


def _check_same_dtype(name: str, A: Tensor, B: Tensor, A_name: str = "A") -> None:
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"{name}: Expected {A_name} and B to have the same dtype, but found {A_name} of type "
            f"{A.dtype._legacy_name} and B of type {B.dtype._legacy_name} instead"
        )


def _check_equation(name: str, n: int, B_shape, left: bool) -> None:
    """That B (a matrix of ``B_shape``) fits an n x n A on its side of the equation."""
    if B_shape[-2 if left else -1] != n:
        raise RuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
            f"({n}x{n} and {B_shape[-2]}x{B_shape[-1]})"
        )


def _check_floating(name: str, t: Tensor) -> None:
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {t.dtype._legacy_name}")


def _is_vector_rhs(A_shape, B_shape) -> bool:
    """Whether ``B`` is a vector or a batch of vectors (PyTorch's rule): 1-D, or ``A``'s shape
    without its last dimension."""
    return len(B_shape) == 1 or tuple(B_shape) == tuple(A_shape[:-1])


def _solve_forward(xp, A, B, *, left):
    if _is_vector_rhs(A.shape, B.shape):  # only with left=True (solve checks)
        return _vector_solution(xp, _lapack(xp, "solve", A, B[..., None])[..., 0])
    if left:
        return _column_major(xp, _lapack(xp, "solve", A, B))
    # X A = B is A^T X^T = B^T; X then comes out row-major, as PyTorch's does
    At, Bt = xp.swapaxes(A, -1, -2), xp.swapaxes(B, -1, -2)
    return xp.swapaxes(_lapack(xp, "solve", At, Bt), -1, -2).copy()


def _vector_solution(xp, X):
    """Solutions for vector right-hand sides, laid out as PyTorch's: the last two dims column by
    column, whether they are a batch and a vector or not."""
    return X if X.ndim < 2 else _column_major(xp, X)


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


def _svd_arrays(xp, A, **kwargs):
    """``xp.linalg.svd(A, **kwargs)``; where LAPACK does not converge (NaN in ``A``), PyTorch's
    error, which names the first matrix of a batch with a non-finite value."""
    try:
        with backend.raising_linalg(xp):
            return xp.linalg.svd(A, **kwargs)
    except backend.ArrayLinAlgError:
        bad = ~xp.isfinite(A.reshape(-1, *A.shape[-2:])).all(axis=(-2, -1))
        where = f"(Batch element {int(bad.argmax())}): " if A.ndim > 2 else ""
        cause = (
            "contained non-finite values"
            if bad.any()
            else "is ill-conditioned or has too many repeated singular values"
        )
        raise LinAlgError(
            f"linalg.svd: {where}The algorithm failed to converge because the input matrix {cause}."
        ) from None


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
    """``X`` with each matrix stored column by column, as LAPACK (and so PyTorch) leaves results.
    Always a fresh copy: it has PyTorch's strides for dims of size 1 too."""
    return xp.swapaxes(xp.swapaxes(X, -1, -2).copy(), -1, -2)


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


def _check_kernel_dtype(kernel: str, A: Tensor) -> None:
    """Float32 or float64, or the error of PyTorch's kernel (for the ops that check no dtype before)."""
    if not A.dtype.is_floating_point or A.dtype.itemsize < 4:
        raise F._no_kernel(kernel, A.dtype)


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
    _check_floating("linalg.det", A)
    _check_kernel_dtype("lu_cpu", A)  # (PyTorch computes it from the LU factors)
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
    X = xp.swapaxes(xp.zeros(batch + B.shape[-2:][::-1], dtype=B.dtype), -1, -2)  # column-major, as LAPACK's
    for i in range(n - 1, -1, -1) if upper else range(n):
        row = B[..., i, :] - (A[..., i, :, None] * X).sum(-2)  # rows not yet solved are still 0
        X[..., i, :] = row if unit else row / A[..., i, i, None]
    return X


def _triangular_forward(xp, A, B, *, upper, left, unitriangular):
    B = B.astype(A.dtype, copy=False)  # PyTorch solves in A's dtype, whatever B's is
    if left:
        return _substitute(xp, A, B, upper, unitriangular)
    # X A = B is A^T X^T = B^T, and A^T is triangular the other way
    At, Bt = xp.swapaxes(A, -1, -2), xp.swapaxes(B, -1, -2)
    return _column_major(xp, xp.swapaxes(_substitute(xp, At, Bt, not upper, unitriangular), -1, -2))


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
    _check_equation(name, A.shape[-1], B.shape, left)
    _check_kernel_dtype("triangular_solve_cpu", A)
    F._broadcast_shape(A.shape[:-2], B.shape[:-2])
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
    _warn.warn(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular and will be removed in a "
        "future PyTorch release.",
        UserWarning,
    )
    if b.ndim < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {b.ndim} dimensions instead"
        )
    if A.ndim < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {A.ndim} dimensions instead"
        )
    if A.dtype is not b.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {b.dtype._legacy_name} and A of type "
            f"{A.dtype._legacy_name} instead."
        )
    rows, cols = A.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"A must be batches of square matrices, but they are {rows} by {cols} matrices")
    if b.shape[-2] != cols:
        raise RuntimeError(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {cols} by {cols} but each b matrix is "
            f"{b.shape[-2]} by {b.shape[-1]}"
        )
    F._broadcast_shape(b.shape[:-2], A.shape[:-2])
    _check_kernel_dtype("triangular_solve_cpu", A)
    params = {"upper": upper, "transpose": transpose, "unitriangular": unitriangular, "b_shape": tuple(b.shape)}
    solution, coefficient = TriangularSolveBackward0.record((b, A), _triangular_solve_forward, params, 2)
    return return_types_triangular_solve(solution, coefficient)


def _triangular_solve_forward(xp, b, A, *, upper, transpose, unitriangular, b_shape):
    At = xp.swapaxes(A, -1, -2) if transpose else A
    copy = xp.broadcast_to(A, xp.broadcast_shapes(A.shape[:-2], b.shape[:-2]) + A.shape[-2:])  # batch dims broadcast
    return _substitute(xp, At, b, upper != transpose, unitriangular), _column_major(xp, copy)


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
        failed = bool(xp.isnan(xp.diagonal(L, 0, -2, -1)).any())  # LAPACK stops at a NaN pivot too
    except backend.ArrayLinAlgError:
        failed = True
    if failed:
        L, info = _cholesky_partial(xp, lower)
        if name:
            flat = info.reshape(-1)
            first = int(xp.argmax(flat != 0))
            where = f"(Batch element {first}): " if A.ndim > 2 else ""
            raise LinAlgError(
                f"{name}: {where}The factorization could not be completed because the input is not positive-definite "
                f"(the leading minor of order {int(flat[first])} is not positive-definite)."
            )
    return xp.conj(xp.swapaxes(L, -1, -2)) if upper else _column_major(xp, L)  # column by column, as LAPACK's


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
    _check_floating(name, A)
    _check_kernel_dtype("cholesky_cpu", A)


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
    _check_cholesky("linalg.cholesky", A)  # (PyTorch's messages name cholesky)
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
    _warn.warn(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
        "release.",
        UserWarning,
    )
    _check_square("cholesky", A)
    _check_kernel_dtype("cholesky_cpu", A)
    return _torch_cholesky_op(A, upper=upper, name="cholesky")


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
    if B.shape[-2] != L.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for cholesky_solve: each A matrix is {L.shape[-1]} by {L.shape[-1]} but "
            f"each b matrix is {B.shape[-2]} by {B.shape[-1]}"
        )
    F._broadcast_shape(B.shape[:-2], L.shape[:-2])
    _check_kernel_dtype("cholesky_solve_cpu", L)
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
    _check_square("cholesky_inverse", L)
    _check_kernel_dtype("cholesky_inverse_out_cpu", L)
    return _cholesky_inverse_op(L, upper=upper)


def _cholesky_inverse_forward(xp, L, *, upper):
    zero = xp.diagonal(L, axis1=-2, axis2=-1) == 0  # LAPACK's potri refuses a zero on the diagonal
    if zero.any():
        batch, i = divmod(int(zero.reshape(-1).argmax()), L.shape[-1])
        where = f"(Batch element {batch}): " if L.ndim > 2 else ""
        raise LinAlgError(
            f"cholesky_inverse: {where}The diagonal element {i + 1} is zero, the inversion could not be completed "
            "because the input matrix is singular."
        )
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
    _check_floating("linalg.qr", A)
    _check_kernel_dtype("geqrf_cpu", A)
    return return_types_linalg_qr(*LinalgQrBackward0.record((A,), _qr_forward, {"mode": mode}, 2))


def _qr_forward(xp, A, *, mode):
    if mode == "r":
        return xp.zeros((0,), dtype=A.dtype), _column_major(xp, xp.linalg.qr(A, mode="r"))
    Q, R = xp.linalg.qr(A, mode=mode)
    return _column_major(xp, Q), _column_major(xp, R)


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
    _warn.warn(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.",
        UserWarning,
    )
    return return_types_qr(*qr(input, "reduced" if some else "complete"))


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def _check_eigh(name: str, A: Tensor, UPLO: str) -> None:
    _check_uplo(UPLO)
    _check_square(name, A)
    _check_kernel_dtype("linalg_eigh_cpu", A)  # (PyTorch's kernel, not its checks, rejects integers here)


def eigh(A: Tensor, UPLO: str = "L") -> tuple[Tensor, Tensor]:
    """The eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix,
    read from its lower triangle (``UPLO='U'``: the upper one). Eigenvectors are unique only up to
    sign (and within repeated eigenvalues).

    >>> import minigrad as torch
    >>> torch.linalg.eigh(torch.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    tensor([1., 3.])
    """
    _check_eigh("linalg.eigh", A, UPLO)
    found = LinalgEighBackward0.record((A,), _eigh_forward, {"UPLO": UPLO}, 2)
    return return_types_linalg_eigh(*found)


def _eigh_forward(xp, A, *, UPLO):
    eigenvalues, eigenvectors = _eigh_arrays(xp, A, UPLO, "eigh")
    return eigenvalues, _column_major(xp, eigenvectors)


def _eigh_arrays(xp, A, UPLO: str, fn: str):
    """``xp.linalg.<fn>(A, UPLO)`` (eigh or eigvalsh); where LAPACK does not converge (NaN in
    ``A``), PyTorch's error (NumPy's own is not a RuntimeError)."""
    try:
        with backend.raising_linalg(xp):
            return getattr(xp.linalg, fn)(A, UPLO)
    except backend.ArrayLinAlgError:
        bad = ~xp.isfinite(A.reshape(-1, *A.shape[-2:])).all(axis=(-2, -1))
        where = f"(Batch element {int(bad.argmax())}): " if A.ndim > 2 else ""
        raise LinAlgError(
            f"linalg.eigh: {where}The algorithm failed to converge because the input matrix is ill-conditioned or has "
            "too many repeated eigenvalues."
        ) from None


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues (ascending) of a symmetric matrix (see :func:`eigh`).

    >>> import minigrad as torch
    >>> torch.linalg.eigvalsh(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))
    tensor([1., 2.])
    """
    _check_eigh("linalg.eigh", A, UPLO)  # (PyTorch's messages name eigh)
    if A.requires_grad and is_grad_enabled():  # the gradient needs the eigenvectors (one node, as PyTorch)
        return eigh(A, UPLO).eigenvalues
    with backend.on(A.device):
        return Tensor._make(_eigh_arrays(backend.xp(A.device), A._data, UPLO, "eigvalsh"))


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
    _check_floating("linalg.svd", A)
    _check_kernel_dtype("linalg_svd_cpu", A)
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
    U, S, Vh = _svd_arrays(xp, A, full_matrices=full_matrices)
    return _column_major(xp, U), S, _column_major(xp, Vh)


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
    if A.ndim < 2:  # (PyTorch's messages name svd)
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_floating("linalg.svd", A)
    _check_kernel_dtype("linalg_svd_cpu", A)
    if A.requires_grad and is_grad_enabled():  # the gradient needs U and Vh (one node, as PyTorch)
        return svd(A, full_matrices=False).S
    with backend.on(A.device):
        xp = backend.xp(A.device)
        if A._data.size == 0:
            return Tensor._make(xp.zeros(A.shape[:-2] + (min(A.shape[-2:]),), dtype=A._data.dtype))
        return Tensor._make(_svd_arrays(xp, A._data, compute_uv=False))


def torch_svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """``torch.svd``: ``(U, S, V)`` with ``V`` (not ``Vh``), reduced unless ``some=False``; with
    ``compute_uv=False``, ``U`` and ``V`` are zeros.

    >>> import minigrad as torch
    >>> torch.svd(torch.tensor([[3.0, 0.0], [0.0, -4.0]])).S
    tensor([4., 3.])
    """
    if input.ndim < 2:
        raise RuntimeError(
            f"linalg.svd: input should have at least 2 dimensions, but has {input.ndim} dimensions instead"
        )
    if not compute_uv:  # U and V are zeros, square as PyTorch gives them
        S = svdvals(input)
        m, n = input.shape[-2:]
        U, V = (input.new_zeros(input.shape[:-2] + (k, k)) for k in (m, n))
        return return_types_svd(U, S, V.mT)  # (PyTorch's V is laid out column by column)
    U, S, Vh = svd(input, full_matrices=not some)
    return return_types_svd(U, S, Vh.mH)


# The Tensor methods PyTorch has for these (A.det(), A.cholesky() ...), attached here rather
# than in tensor.py so that this module is the one place for them.
Tensor.det, Tensor.logdet, Tensor.slogdet = det, logdet, torch_slogdet
Tensor.cholesky, Tensor.cholesky_solve, Tensor.cholesky_inverse = torch_cholesky, cholesky_solve, cholesky_inverse
Tensor.triangular_solve = triangular_solve
Tensor.qr, Tensor.svd = torch_qr, torch_svd


# ----------------------------------------------------------------------------------------------
# --- the rest of torch.linalg ---
# inv_ex/solve_ex (with LAPACK's info), matmul, diagonal, vecdot, vander, matrix_exp, tensorinv,
# tensorsolve, pinv, matrix_rank and cond; eig/eigvals raise (minigrad has no complex dtype).
# Composites are composed as ATen composes them, so they record PyTorch's nodes.
# ----------------------------------------------------------------------------------------------

return_types_linalg_inv_ex = F._return_type("linalg_inv_ex", ("inverse", "info"))
return_types_linalg_solve_ex = F._return_type("linalg_solve_ex", ("result", "info"))


def _lu_factor_arrays(xp, A):
    """LAPACK's getrf on each matrix of ``A``: ``A[perm] = L @ U`` with partial pivoting, L (unit
    diagonal) and U packed in one array; the pivots (1-based, int32: row i was swapped with row
    pivots[i]) and ``info``, the (1-based) first zero on U's diagonal, 0 if none."""
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = A.shape[:-2]
    LU = A.reshape((math.prod(batch), m, n)).copy()
    every = xp.arange(LU.shape[0])
    pivots = xp.zeros((LU.shape[0], k), dtype=xp.int32)
    info = xp.zeros(LU.shape[0], dtype=xp.int32)
    for j in range(k):
        p = j + xp.argmax(xp.abs(LU[:, j:, j]), -1)
        pivots[:, j] = p + 1
        row_j, row_p = LU[:, j, :].copy(), LU[every, p, :].copy()
        LU[every, p, :], LU[:, j, :] = row_j, row_p
        pivot = LU[:, j, j]
        zero = pivot == 0
        info = xp.where((info == 0) & zero, j + 1, info).astype(xp.int32)
        LU[:, j + 1 :, j] /= xp.where(zero, 1, pivot)[:, None]  # LAPACK skips the scaling then (the column is 0)
        LU[:, j + 1 :, j + 1 :] -= LU[:, j + 1 :, j, None] * LU[:, j, None, j + 1 :]
    return LU.reshape(batch + (m, n)), pivots.reshape(batch + (k,)), info.reshape(batch)


def _lu_solve_arrays(xp, LU, pivots, B):
    """``A^-1 B`` from :func:`_lu_factor_arrays`'s factors (a zero pivot gives inf or nan)."""
    batch = xp.broadcast_shapes(LU.shape[:-2], B.shape[:-2])
    B = xp.broadcast_to(B, batch + B.shape[-2:]).reshape((math.prod(batch),) + B.shape[-2:]).copy()
    pivots = xp.broadcast_to(pivots, batch + pivots.shape[-1:]).reshape(math.prod(batch), pivots.shape[-1])
    every = xp.arange(B.shape[0])
    for i in range(pivots.shape[-1]):  # the row swaps, in order
        p = pivots[:, i].astype(xp.int64) - 1
        row_i, row_p = B[:, i, :].copy(), B[every, p, :].copy()
        B[every, p, :], B[:, i, :] = row_i, row_p
    B = B.reshape(batch + B.shape[-2:])
    with xp.errstate(divide="ignore", invalid="ignore") if xp.__name__ == "numpy" else _nothing():
        Y = _substitute(xp, LU, B, upper=False, unit=True)
        return _substitute(xp, LU, Y, upper=True, unit=False)


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def _inv_ex_forward(xp, A):
    info = xp.zeros(A.shape[:-2], dtype=xp.int32)
    try:
        with backend.raising_linalg(xp):
            return _column_major(xp, xp.linalg.inv(A)), info
    except backend.ArrayLinAlgError:  # singular somewhere: LAPACK's LU gives the info (and inf/nan)
        LU, pivots, info = _lu_factor_arrays(xp, A)
        eye_ = xp.broadcast_to(xp.eye(A.shape[-1], dtype=A.dtype), A.shape)
        return _column_major(xp, _lu_solve_arrays(xp, LU, pivots, eye_)), info


def _check_info(info: Tensor, message: str, batched: bool) -> None:
    """PyTorch's _linalg_check_errors: ``message`` (formatted with ``where`` and ``info``) for the
    first matrix whose ``info`` is not 0."""
    flat = info.reshape(-1)
    bad = (flat != 0).nonzero()
    if bad.numel():
        first = int(bad[0, 0])
        where = f"(Batch element {first}): " if batched else ""
        raise LinAlgError(message.format(where=where, info=int(flat[first])))


_INV_EX_SINGULAR = (
    "{name}: {where}The diagonal element {info} is zero, the inversion could not be completed because the input "
    "matrix is singular."
)


def inv_ex(A: Tensor, *, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`inv` without the error: ``(inverse, info)``, ``info`` (int32) LAPACK's: the first
    zero pivot of ``A``'s LU factorization (0: invertible; otherwise ``inverse`` holds inf/nan).
    With ``check_errors``, a singular matrix raises :class:`LinAlgError` as :func:`inv` does.

    >>> import minigrad as torch
    >>> torch.linalg.inv_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]])).info
    tensor(2, dtype=torch.int32)
    """
    name = "linalg.inv"
    _check_square(name, A)
    _check_floating(name, A)
    if A.dtype.itemsize < 4:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got {A.dtype._legacy_name}")
    inverse, info = LinalgInvExBackward0.record((A,), _inv_ex_forward, {}, 1)
    if check_errors:
        _check_info(info, _INV_EX_SINGULAR.replace("{name}", "linalg.inv_ex"), A.ndim > 2)
    return return_types_linalg_inv_ex(inverse, info)


LinalgInvExBackward0 = F._results_node(
    "LinalgInvExBackward0",
    lambda grads, inverse: (-inverse.mH.matmul(grads[0].matmul(inverse.mH)),),
    inputs=("A",),
    saves=(),
    results=("inverse",),
)


def _check_solve(name: str, A: Tensor, B: Tensor, left: bool) -> None:
    """linalg.solve's checks, in PyTorch's order."""
    _check_floating(name, A)
    _check_same_dtype(name, A, B)
    _check_square(name, A)
    vector = _is_vector_rhs(A.shape, B.shape)
    matrix = tuple(B.shape) + (1,) if vector else tuple(B.shape)  # B as PyTorch sees it, a matrix
    if len(matrix) < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _check_equation(name, A.shape[-1], matrix, left)
    if vector and not left:
        raise RuntimeError(
            f"{name}: Vector broadcasting of the left hand side is not supported for left=False. In this case "
            "linalg.solve is equivalent to B / A.squeeze(-1)"
        )
    F._broadcast_shape(matrix[:-2], tuple(A.shape[:-2]))
    if A.dtype.itemsize < 4:  # LAPACK has float32 and float64 only
        raise NotImplementedError(f"\"{name}\" not implemented for '{A.dtype._legacy_name}': use float32 or float64")


def _solve_ex_forward(xp, A, B, *, left, B_shape):
    try:  # info has A's batch shape (B's batch dims do not broadcast it), as PyTorch's
        return _solve_forward(xp, A, B, left=left), xp.zeros(A.shape[:-2], dtype=xp.int32)
    except LinAlgError:  # singular somewhere: LAPACK's LU gives the info (and inf/nan)
        LU, pivots, info = _lu_factor_arrays(xp, A if left else xp.swapaxes(A, -1, -2))
        if _is_vector_rhs(A.shape, B.shape):
            return _vector_solution(xp, _lu_solve_arrays(xp, LU, pivots, B[..., None])[..., 0]), info
        if left:
            return _column_major(xp, _lu_solve_arrays(xp, LU, pivots, B)), info
        X = _lu_solve_arrays(xp, LU, pivots, xp.swapaxes(B, -1, -2))
        return xp.swapaxes(X, -1, -2).copy(), info


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """:func:`solve` without the error: ``(result, info)``, ``info`` (int32) LAPACK's: the first
    zero pivot of ``A``'s LU factorization (0: solved; otherwise ``result`` holds inf/nan). With
    ``check_errors``, a singular matrix raises :class:`LinAlgError` as :func:`solve` does.

    >>> import minigrad as torch
    >>> torch.linalg.solve_ex(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), torch.tensor([2.0, 2.0])).result
    tensor([1.0000, 0.5000])
    """
    _check_solve("linalg.solve", A, B, left)
    params = {"left": left, "B_shape": tuple(B.shape)}
    result, info = LinalgSolveExBackward0.record((A, B), _solve_ex_forward, params, 1)
    if check_errors:
        message = "torch.linalg.solve_ex: {where}The solver failed because the input matrix is singular."
        _check_info(info, message, A.ndim > 2)
    return return_types_linalg_solve_ex(result, info)


def _solve_ex_grad(grads, A, result, left, B_shape):
    g = grads[0]
    return _solve_grad_A(g, A, B_shape, result, left), _solve_grad_B(g, A, B_shape, left)


LinalgSolveExBackward0 = F._results_node(
    "LinalgSolveExBackward0", _solve_ex_grad, inputs=("A", "B"), saves=("A",), results=("result",)
)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """``torch.linalg.matmul``: :func:`torch.matmul`.

    >>> import minigrad as torch
    >>> torch.linalg.matmul(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0], [4.0]]))
    tensor([[11.]])
    """
    return F.matmul(input, other)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """``torch.linalg.diagonal``: :func:`torch.diagonal` over the last two dims by default (a view).

    >>> import minigrad as torch
    >>> torch.linalg.diagonal(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([1., 4.])
    """
    return F.diagonal(A, offset, dim1, dim2)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot product of the vectors along ``dim`` (the other dims broadcast): ``(x * y).sum(dim)``,
    as PyTorch composes it.

    >>> import minigrad as torch
    >>> torch.linalg.vecdot(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, 1.0]))
    tensor([3., 7.])
    """
    _check_floating("linalg.vecdot", x)
    if x.dtype is not y.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type {x.dtype._legacy_name} "
            f"and y of type {y.dtype._legacy_name} instead"
        )
    return (x * y).sum(dim)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of ``x``: columns ``x**0, x**1, ..., x**(N-1)`` (``N`` defaults to
    ``x.shape[-1]``), for each vector of a batch; cumulative products, as PyTorch composes it.

    >>> import minigrad as torch
    >>> torch.linalg.vander(torch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [1, 2, 4],
            [1, 3, 9]])
    """
    if x.dtype.is_floating_point and x.dtype.itemsize < 4 or x.dtype.name == "bool":
        raise RuntimeError(
            f"linalg.vander supports floating point, complex, and integer tensors, but got {x.dtype._legacy_name}"
        )
    x = x.unsqueeze(-1) if x.ndim == 0 else x
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = x.unsqueeze(-1).expand(tuple(x.shape) + (n - 1,)).cumprod(-1)
    return F.cat([powers.new_ones(tuple(x.shape) + (1,)), powers], -1)


# Padé approximant of degree 13 (Higham 2005, "The scaling and squaring method ... revisited"):
# exact to double precision when the 1-norm is at most theta_13, after scaling by 2^-s.
_PADE13 = (
    64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
    10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0,
)  # fmt: skip
_THETA13 = 5.371920351148152


def _matrix_exp_forward(xp, A):
    if A.size == 0:
        return A.copy()
    X = A.astype(xp.float64)  # in double precision, then rounded back (float32 and float16 too)
    norm = xp.abs(X).sum(-2).max(-1)
    with xp.errstate(divide="ignore", invalid="ignore") if xp.__name__ == "numpy" else _nothing():
        s = xp.ceil(xp.log2(norm / _THETA13))
    s = xp.where(xp.isfinite(s) & (s > 0), s, 0).astype(xp.int64)  # each matrix its own scaling
    X = X / (2.0**s)[..., None, None]
    b = _PADE13
    eye_ = xp.eye(A.shape[-1])
    X2 = X @ X
    X4 = X2 @ X2
    X6 = X4 @ X2
    U = X @ (X6 @ (b[13] * X6 + b[11] * X4 + b[9] * X2) + b[7] * X6 + b[5] * X4 + b[3] * X2 + b[1] * eye_)
    V = X6 @ (b[12] * X6 + b[10] * X4 + b[8] * X2) + b[6] * X6 + b[4] * X4 + b[2] * X2 + b[0] * eye_
    R = xp.linalg.solve(V - U, V + U)
    for i in range(int(s.max())):  # square back, each matrix s times
        R = xp.where((i < s)[..., None, None], R @ R, R)
    return R.astype(A.dtype)


def _matrix_exp_grad(grad: Tensor, self: Tensor) -> Tensor:
    """PyTorch's linalg_matrix_exp_differential: the top-right block of
    ``exp([[A^H, G], [0, A^H]])``."""
    Ah = self.mH
    n = Ah.shape[-1]
    top = F.cat([Ah, grad], -1)
    bottom = F.cat([zeros_like(Ah), Ah], -1)
    return matrix_exp(F.cat([top, bottom], -2)).narrow(-2, 0, n).narrow(-1, n, n)


_matrix_exp_op = Op("LinalgMatrixExpBackward0", lambda xp, self: _matrix_exp_forward(xp, self), self=_matrix_exp_grad)


def matrix_exp(A: Tensor) -> Tensor:
    """The matrix exponential ``sum_k A^k / k!`` of a square matrix (or each of a batch);
    ``torch.matrix_exp`` and ``Tensor.matrix_exp`` too.

    >>> import minigrad as torch
    >>> torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [0.0, 0.0]]))
    tensor([[1., 1.],
            [0., 1.]])
    """
    name = "linalg.matrix_exp"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    _check_square(name, A)
    _check_floating(name, A)
    return _matrix_exp_op(A)


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` seen as a linear map from its first ``ind`` dims to the others, shaped
    ``A.shape[ind:] + A.shape[:ind]`` (so that ``tensordot(tensorinv(A), A, ind)`` is the identity).

    >>> import minigrad as torch
    >>> torch.linalg.tensorinv(torch.eye(6).reshape(2, 3, 6), ind=2).shape
    torch.Size([6, 2, 3])
    """
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    start, end = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    if math.prod(end) != math.prod(start):
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got "
            f"{math.prod(end)} != {math.prod(start)}"
        )
    inverse, info = inv_ex(A.reshape(math.prod(start), math.prod(end)))
    _check_info(info, _INV_EX_SINGULAR.replace("{name}", "inv"), False)
    return inverse.reshape(end + start)


def tensorsolve(A: Tensor, B: Tensor, dims=None) -> Tensor:
    """The ``X`` with ``tensordot(A, X, X.ndim) == B``: ``A``'s first ``B.ndim`` dims (after moving
    ``dims`` to the end) index ``B``, the others ``X``.

    >>> import minigrad as torch
    >>> torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3)).shape
    torch.Size([6])
    """
    if dims is not None:
        dims = (dims,) if isinstance(dims, int) else tuple(dims)
        A = A.movedim(dims, tuple(range(A.ndim - len(dims), A.ndim)))
    result_shape = tuple(A.shape[B.ndim :])
    size, other = math.prod(result_shape), B.numel()
    if size != other:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
            f"but got {size} != {other}"
        )
    return solve(A.reshape(size, size), B.flatten()).reshape(result_shape)


# --- pseudo-inverse, rank, condition number ---


def _atol_rtol(A: Tensor, atol, rtol) -> tuple[Tensor, Tensor]:
    """PyTorch's get_atol_rtol: float64 tolerances; without ``rtol``, eps * max(m, n), unless a
    positive ``atol`` is given (then 0)."""
    to = dict(dtype=dtypes.float64, device=A.device)
    atol_t = zeros((), **to) if atol is None else (atol.to(**to) if isinstance(atol, Tensor) else tensor(atol, **to))
    if rtol is not None:
        rtol_t = rtol.to(**to) if isinstance(rtol, Tensor) else tensor(rtol, **to)
        return atol_t, rtol_t
    default = dtypes.finfo(A.dtype).eps * max(A.shape[-2:])
    if atol is None:
        return atol_t, tensor(default, **to)
    return atol_t, F.where(atol_t > 0, 0.0, full((), default, **to))


def _pinv_forward(xp, A, *, atol, rtol, hermitian):
    m, n = A.shape[-2:]
    if A.size == 0:
        return xp.zeros(A.shape[:-2] + (n, m), dtype=A.dtype)
    if hermitian:  # eigenvalues, ascending: the largest in absolute value is at either end
        S, U = _eigh_arrays(xp, A, "L", "eigh")
        big = xp.abs(S).max(-1, keepdims=True)
        Vh, U = xp.swapaxes(U, -1, -2), U
        kept = xp.abs(S) > xp.maximum(atol[..., None], rtol[..., None] * big)
    else:
        U, S, Vh = _svd_arrays(xp, A, full_matrices=False)
        kept = S > xp.maximum(atol[..., None], rtol[..., None] * S[..., :1])
    Sinv = xp.where(kept, 1 / xp.where(kept, S, 1), 0).astype(A.dtype)
    return xp.swapaxes(Vh, -1, -2) * Sinv[..., None, :] @ xp.swapaxes(U, -1, -2)


def _pinv_grad(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    """PyTorch's pinv_backward (the products ordered to keep the matrices small)."""
    A, pinvA = self, result
    pinvAh, gradh = pinvA.mH, grad.mH
    if A.shape[-2] <= A.shape[-1]:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        return (
            -pinvA.matmul(K).mH + KpinvAh - A.matmul(pinvA).matmul(KpinvAh)
            + pinvAh.matmul(pinvA).matmul(gradh - K.matmul(A))
        )  # fmt: skip
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    return (
        -K.matmul(pinvA).mH
        + (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh)
        + pinvAhK
        - pinvAhK.matmul(pinvA).matmul(A)
    )


_pinv_op = Op(
    "LinalgPinvBackward0",
    lambda xp, self, *, atol, rtol, hermitian: _pinv_forward(xp, self, atol=atol, rtol=rtol, hermitian=hermitian),
    self=_pinv_grad,
)


def pinv(A: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse, from the SVD (the eigendecomposition with
    ``hermitian``): singular values at most ``max(atol, rtol * largest)`` count as 0. Without
    tolerances ``rtol`` is eps * max(m, n); ``rcond`` is the older name of ``rtol``.

    >>> import minigrad as torch
    >>> torch.linalg.pinv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
    tensor([[0.0400, 0.0800],
            [0.0800, 0.1600]])
    """
    if rcond is not None:
        if rtol is not None or atol is not None:
            raise TypeError("linalg.pinv: rcond cannot be given with atol or rtol; rcond is the older name of rtol")
        rtol = rcond
    if A.ndim < 2 or A.dtype.name not in ("float32", "float64"):
        raise RuntimeError(
            f"linalg.pinv({A.dtype._legacy_name}{{{list(A.shape)}}}): expected a tensor with 2 or more dimensions "
            "of float, double, cfloat or cdouble types"
        )
    atol_t, rtol_t = _atol_rtol(A, atol, rtol)
    return _pinv_op(A, atol=atol_t._data, rtol=rtol_t._data, hermitian=hermitian)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """``torch.pinverse``: :func:`pinv` with ``rtol=rcond``.

    >>> import minigrad as torch
    >>> torch.pinverse(torch.tensor([[2.0, 0.0], [0.0, 0.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.0000]])
    """
    return pinv(input, rtol=rcond)


def matrix_rank(A: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:
    """The number of singular values (absolute eigenvalues with ``hermitian``) above
    ``max(atol, rtol * largest)`` (defaults as :func:`pinv`; ``tol`` is an older ``atol`` with
    ``rtol=0``), as int64.

    >>> import minigrad as torch
    >>> torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
    tensor(1)
    """
    if tol is not None:
        atol, rtol = tol, 0.0
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A.dtype.name not in ("float32", "float64"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    atol_t, rtol_t = _atol_rtol(A, atol, rtol)
    with no_grad():
        S = eigvalsh(A).abs() if hermitian else svdvals(A)
        if S.numel() == 0:
            return zeros(S.shape[:-1], dtype=dtypes.int64, device=A.device)
        bound = F.maximum(atol_t.unsqueeze(-1), rtol_t.unsqueeze(-1) * S.amax(-1, keepdim=True))
        return (S > bound).sum(-1)


def cond(A: Tensor, p=None) -> Tensor:
    """The condition number ``norm(A, p) * norm(inv(A), p)``: by default (``p=None``, 2, -2) the
    ratio of the largest and smallest singular values; ``'fro'``, ``'nuc'``, inf, -inf, 1 and -1
    need square matrices, and a singular one gives inf.

    >>> import minigrad as torch
    >>> torch.linalg.cond(torch.tensor([[2.0, 0.0], [0.0, 0.5]]))
    tensor(4.)
    """
    if isinstance(p, str):  # PyTorch checks these squareness first
        _check_square(f"linalg.cond(ord={p})", A)
    if A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    ord = 2 if p is None else p
    if ord not in (2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc") or isinstance(ord, bool):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {ord}")
    if A.numel() == 0:  # 0 for each matrix, as NumPy has no condition number for them
        return zeros(A.shape[:-2], dtype=A.dtype if A.dtype.is_floating_point else None, device=A.device)
    if ord in (2, -2):
        _check_floating("linalg.svd", A)
        S = svdvals(A)
        largest, smallest = S.narrow(-1, 0, 1), S.narrow(-1, S.shape[-1] - 1, 1)
        return (smallest / largest if ord == -2 else largest / smallest).squeeze(-1)
    shown = ord if isinstance(ord, str) else ("inf" if ord == math.inf else "-inf" if ord == -math.inf else int(ord))
    _check_square(f"linalg.cond(ord={shown})", A)
    if ord == "nuc":
        S = svdvals(A)
        return S.sum(-1) * S.reciprocal().sum(-1)
    inverse, info = inv_ex(A)
    # in place, as PyTorch: the inverse LinalgInvExBackward0 saved changes, so backward fails there too
    inverse.masked_fill_((info > 0).unsqueeze(-1).unsqueeze(-1), math.inf)
    return (matrix_norm(A, ord) * matrix_norm(inverse, ord)).nan_to_num(math.inf, math.inf, -math.inf)


# --- LU: lu_factor(_ex), lu, lu_unpack, lu_solve and the legacy torch.lu/lu_solve ---

return_types_linalg_lu_factor = F._return_type("linalg_lu_factor", ("LU", "pivots"))
return_types_linalg_lu_factor_ex = F._return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
return_types_linalg_lu = F._return_type("linalg_lu", ("P", "L", "U"))
return_types_lu_unpack = F._return_type("lu_unpack", ("P", "L", "U"))
return_types__lu_with_info = F._return_type("_lu_with_info", ("LU", "pivots", "info"))


def _check_lu_input(name: str, A: Tensor, pivot: bool) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead")
    _check_kernel_dtype("lu_cpu", A)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def _lu_factor_forward(xp, A, *, pivot):
    LU, pivots, info = _lu_factor_arrays(xp, A)
    return _column_major(xp, LU), pivots, info


def _permutation(xp, pivots, m: int):
    """The row order ``perm`` (``A[perm] = L @ U``) that LAPACK's sequential row swaps make."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    swaps = pivots.reshape(math.prod(batch), k).astype(xp.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (swaps.shape[0], m)).copy()
    every = xp.arange(swaps.shape[0])
    for i in range(k):
        row_i, row_p = perm[:, i].copy(), perm[every, swaps[:, i]].copy()
        perm[every, swaps[:, i]], perm[:, i] = row_i, row_p
    return perm.reshape(batch + (m,))


def _unpack_arrays(xp, LU, pivots, unpack_data: bool = True, unpack_pivots: bool = True):
    """``(P, L, U)`` with ``A = P @ L @ U``: P from the pivots, L (unit diagonal, m x k) and U
    (k x n) from the packed factors; an empty array for each part not asked for."""
    m, n = LU.shape[-2:]
    k = min(m, n)
    empty = xp.zeros((0,), dtype=LU.dtype)
    P = L = U = empty
    if unpack_pivots:
        perm = _permutation(xp, pivots, m)
        P = (perm[..., None, :] == xp.arange(m)[:, None]).astype(LU.dtype)  # P[perm[i], i] = 1
    if unpack_data:
        L = xp.ascontiguousarray(xp.tril(LU[..., :, :k], -1) + xp.eye(m, k, dtype=LU.dtype))
        U = xp.ascontiguousarray(xp.triu(LU[..., :k, :]))
    return P, L, U


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """LAPACK's LU factorization with partial pivoting (getrf): ``(LU, pivots, info)``, ``L``
    (unit diagonal, not stored) and ``U`` packed in ``LU``, ``pivots`` (int32, 1-based) the row
    swaps, ``info`` (int32) the first zero on U's diagonal (0: none). Any shape m x n.

    >>> import minigrad as torch
    >>> torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
    tensor([2, 2], dtype=torch.int32)
    """
    _check_lu_input("torch.lu_factor", A, pivot)
    LU, pivots, info = LinalgLuFactorExBackward0.record((A,), _lu_factor_forward, {"pivot": pivot}, 1)
    if LU.grad_fn is not None:
        LU.grad_fn.params["pivots"] = pivots  # (PyTorch saves them: an output that is not differentiable)
    if check_errors:
        _check_lu_info(info, A.ndim > 2)
    return return_types_linalg_lu_factor_ex(LU, pivots, info)


def _check_lu_info(info: Tensor, batched: bool) -> None:
    try:
        _check_info(
            info,
            "torch.linalg.lu_factor: {where}U[{info},{info}] is zero and using it on lu_solve would result in a "
            "division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) "
            "or linalg.lu_factor_ex(A, pivot)",
            batched,
        )
    except LinAlgError as error:  # PyTorch raises a plain RuntimeError here
        raise RuntimeError(str(error)) from None


def lu_factor(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor]:
    """:func:`lu_factor_ex` that raises when U has a zero on its diagonal: ``(LU, pivots)``, for
    :func:`lu_solve`.

    >>> import minigrad as torch
    >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> torch.linalg.lu_solve(LU, pivots, torch.tensor([[5.0], [11.0]]))
    tensor([[1.],
            [2.]])
    """
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    _check_lu_info(info, A.ndim > 2)
    return return_types_linalg_lu_factor(LU, pivots)


def _lu_backward(gL, gU, P: Tensor, L: Tensor, U: Tensor, pivot: bool) -> Tensor | None:
    """PyTorch's linalg_lu_backward: square, wide (m < n) and tall (m > n) matrices."""
    if gL is None and gU is None:
        return None
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = None if gL is None else L.mH.matmul(gL).tril(-1)
        if gU is not None:
            gA = gU.matmul(U.mH).triu() if gA is None else gA + gU.matmul(U.mH).triu()
        gA = solve_triangular(U.mH, gA, upper=False, left=False)
        gA = solve_triangular(L.mH, gA, upper=True, unitriangular=True)
    elif m < n:  # wide: U = [U1 U2]
        U1 = U.narrow(-1, 0, k)
        gA = None if gL is None else L.mH.matmul(gL)
        if gU is not None:
            gA = -gU.triu().matmul(U.mH) if gA is None else gA - gU.triu().matmul(U.mH)
        gA = solve_triangular(U1.mH, gA.tril(-1), upper=False, left=False)
        if gU is not None:
            gA = F.cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = solve_triangular(L.mH, gA, upper=True, unitriangular=True)
        if gU is None:
            gA = F.cat([gA, zeros_like(U.narrow(-1, k, n - k))], -1)
    else:  # tall: L = [L1; L2]
        L1 = L.narrow(-2, 0, k)
        gA = None if gU is None else gU.matmul(U.mH)
        if gL is not None:
            gA = -L.mH.matmul(gL.tril(-1)) if gA is None else gA - L.mH.matmul(gL.tril(-1))
        gA = solve_triangular(L1.mH, gA.triu(), upper=True, unitriangular=True)
        if gL is not None:
            gA = F.cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
        gA = solve_triangular(U.mH, gA, upper=False, left=False)
        if gL is None:
            gA = F.cat([gA, zeros_like(L.narrow(-2, k, m - k))], -2)
    return P.matmul(gA) if pivot else gA


def _lu_factor_grad(grads, LU, pivot, pivots):
    """PyTorch's lu_factor_ex_backward: unpack (recorded, for double backward), then as linalg.lu."""
    P, L, U = lu_unpack(LU, pivots, unpack_pivots=pivot)
    k = min(LU.shape[-2:])
    g = grads[0]
    return (_lu_backward(g.narrow(-1, 0, k), g.narrow(-2, 0, k), P, L, U, pivot),)


LinalgLuFactorExBackward0 = F._results_node(
    "LinalgLuFactorExBackward0", _lu_factor_grad, inputs=("A",), saves=(), results=("LU",)
)


def _only_differentiable(P: Tensor, node_params: dict) -> None:
    """``P`` is output 0 of the node but, as in PyTorch, not differentiable: it keeps no grad_fn
    (the rule reads it from the node's parameters)."""
    if P.grad_fn is not None:
        node_params["P"] = P
        P._requires_grad, P._grad_fn, P._output_nr = False, None, 0


def lu(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """``A = P @ L @ U``: a permutation ``P``, ``L`` lower triangular with a unit diagonal
    (m x k) and ``U`` upper triangular (k x n), k = min(m, n).

    >>> import minigrad as torch
    >>> P, L, U = torch.linalg.lu(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> P @ L @ U
    tensor([[1., 2.],
            [3., 4.]])
    """
    _check_lu_input("linalg.lu", A, pivot)

    def forward(xp, A, *, pivot):
        LU, pivots, _ = _lu_factor_arrays(xp, A)
        return _unpack_arrays(xp, LU, pivots)

    P, L, U = LinalgLuBackward0.record((A,), forward, {"pivot": pivot}, 3)
    if L.grad_fn is not None:
        _only_differentiable(P, L.grad_fn.params)
    return return_types_linalg_lu(P, L, U)


LinalgLuBackward0 = F._results_node(
    "LinalgLuBackward0",
    lambda grads, L, U, pivot, P: (_lu_backward(grads[1], grads[2], P, L, U, pivot),),
    inputs=("A",),
    saves=(),
    results=(None, "L", "U"),
)


def _lu_unpack_grad(grads, LU_data_shape, unpack_data, unpack_pivots, P=None):
    """PyTorch's lu_unpack_backward: each factor's triangle goes back where it was packed."""
    gL, gU = grads[1], grads[2]
    if gL is None and gU is None:
        return (None,)
    m, n = LU_data_shape[-2:]
    k = min(m, n)
    parts = []
    if m <= n:
        if gL is not None:
            parts.append(gL.tril(-1))
        if gU is not None:
            parts.append(gU.narrow(-1, 0, k).triu())
        square = parts[0] if len(parts) == 1 else parts[0] + parts[1]
        if m == n:
            return (square,)
        rest = gU.narrow(-1, k, n - k) if gU is not None else square.new_zeros(square.shape[:-1] + (n - k,))
        return (F.cat([square, rest], -1),)
    if gU is not None:
        parts.append(gU.triu())
    if gL is not None:
        parts.append(gL.narrow(-2, 0, k).tril(-1))
    square = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    rest = gL.narrow(-2, k, m - k) if gL is not None else square.new_zeros(square.shape[:-2] + (m - k, k))
    return (F.cat([square, rest], -2),)


# The integer pivots are no input of the node: PyTorch gives it an edge for LU_data only.
LuUnpackBackward0 = F._results_node("LuUnpackBackward0", _lu_unpack_grad, inputs=("LU_data",), saves=(), results=())


def lu_unpack(
    LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True
) -> tuple[Tensor, Tensor, Tensor]:
    """``(P, L, U)`` from :func:`lu_factor`'s ``(LU, pivots)`` (``torch.lu_unpack``); a part not
    unpacked is an empty tensor.

    >>> import minigrad as torch
    >>> torch.lu_unpack(*torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))).P
    tensor([[0., 1.],
            [1., 0.]])
    """
    if LU_data.ndim < 2:
        raise RuntimeError(
            f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {list(LU_data.shape)} instead"
        )
    if LU_pivots.dtype.name != "int32":
        raise RuntimeError(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
            "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor"
        )
    params = {"LU_data_shape": tuple(LU_data.shape), "unpack_data": unpack_data, "unpack_pivots": unpack_pivots}
    P, L, U = LuUnpackBackward0.record(
        (LU_data,),
        lambda xp, LU, **kw: _unpack_arrays(xp, LU, LU_pivots._data, unpack_data, unpack_pivots),
        params,
        3,
    )
    if L.grad_fn is not None:
        _only_differentiable(P, L.grad_fn.params)
    return return_types_lu_unpack(P, L, U)


def _lu_solve_forward(xp, LU, pivots, B, *, left, adjoint):
    if not left:  # X A = B is A^H X^H = B^H (and X A^H = B is A X^H = B^H)
        X = _lu_solve_forward(xp, LU, pivots, xp.swapaxes(B, -1, -2), left=True, adjoint=not adjoint)
        return xp.swapaxes(X, -1, -2).copy()
    if not adjoint:
        return _column_major(xp, _lu_solve_arrays(xp, LU, pivots, B))
    # A^H X = B with A = P L U: X = P L^-H U^-H B
    P, _, _ = _unpack_arrays(xp, LU, pivots, unpack_data=False)
    LUh = xp.swapaxes(LU, -1, -2)
    with xp.errstate(divide="ignore", invalid="ignore") if xp.__name__ == "numpy" else _nothing():
        Y = _substitute(xp, LUh, B, upper=False, unit=False)
        return _column_major(xp, P @ _substitute(xp, LUh, Y, upper=True, unit=True))


def _lu_solve_grad_LU(gX: Tensor, LU: Tensor, pivots: Tensor, X: Tensor, left: bool, adjoint: bool) -> Tensor:
    """PyTorch's linalg_lu_solve_LU."""
    P, L, U = lu_unpack(LU, pivots, unpack_pivots=left == adjoint)
    if left != adjoint:
        gR = solve_triangular(U.mH, -(gX if left else gX.mH).matmul(X.mH if left else X), upper=False)
        gL = solve_triangular(L.mH, gR.matmul(U.mH), upper=True, unitriangular=True).tril(-1)
        return gL + gR.triu()
    gR = -P.mT.matmul(X if left else X.mH).matmul(gX.mH if left else gX).matmul(P)
    gR = solve_triangular(L.mH, gR, upper=True, left=False, unitriangular=True)
    gU = solve_triangular(U.mH, L.mH.matmul(gR), upper=False, left=False).triu()
    return gR.tril(-1) + gU


# The integer pivots are a saved parameter, not an input: PyTorch's node has edges for LU and B only.
_lu_solve_op = Op(
    "LinalgLuSolveBackward0",
    lambda xp, LU, B, *, pivots, left, adjoint: _lu_solve_forward(xp, LU, pivots, B, left=left, adjoint=adjoint),
    LU=lambda grad, LU, pivots, result, left, adjoint: _lu_solve_grad_LU(
        grad, LU, Tensor._make(pivots), result, left, adjoint
    ),
    B=lambda grad, LU, pivots, left, adjoint: lu_solve(LU, Tensor._make(pivots), grad, left=left, adjoint=not adjoint),
)


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False) -> Tensor:
    """The solution of ``A X = B`` from :func:`lu_factor`'s ``(LU, pivots)`` of ``A`` (``X A = B``
    with ``left=False``; ``A^H`` for ``A`` with ``adjoint``). Batch dimensions broadcast.

    >>> import minigrad as torch
    >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))
    >>> torch.linalg.lu_solve(LU, pivots, torch.tensor([[2.0], [2.0]]))
    tensor([[1.0000],
            [0.5000]])
    """
    name = "linalg.lu_solve"
    if LU.ndim < 2:
        raise RuntimeError(f"torch.{name}: The input tensor A must have at least 2 dimensions.")
    _check_square(f"torch.{name}", LU)
    if B.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    if pivots.dtype.name != "int32":
        raise RuntimeError(f"{name}: pivots should be a Tensor of scalar type torch.int32")
    _check_same_dtype(name, LU, B, "LU")
    _check_equation(name, LU.shape[-1], B.shape, left)
    F._broadcast_shape(LU.shape[:-2], B.shape[:-2])
    return _lu_solve_op(LU, B, pivots=pivots._data, left=left, adjoint=adjoint)


def torch_lu(A: Tensor, pivot: bool = True, get_infos: bool = False):
    """``torch.lu`` (deprecated in PyTorch for :func:`lu_factor`): ``(LU, pivots)``, and ``infos``
    with ``get_infos``; a zero pivot does not raise (as in PyTorch, whatever ``get_infos``).

    >>> import minigrad as torch
    >>> torch.lu(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))[1]
    tensor([2, 2], dtype=torch.int32)
    """
    _warn.warn(
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed "
        "in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
        "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
        "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
        "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)",
        UserWarning,
    )
    LU, pivots, infos = lu_factor_ex(A, pivot=pivot)
    return return_types__lu_with_info(LU, pivots, infos) if get_infos else (LU, pivots)


def torch_lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """``torch.lu_solve`` (deprecated in PyTorch): :func:`lu_solve` with its arguments reversed.

    >>> import minigrad as torch
    >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))
    >>> torch.lu_solve(torch.tensor([[2.0], [4.0]]), LU, pivots)
    tensor([[1.],
            [1.]])
    """
    _warn.warn(
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch "
        "release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\n"
        "should be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)",
        UserWarning,
    )
    return lu_solve(LU_data, LU_pivots, b)


Tensor.lu, Tensor.lu_solve = torch_lu, torch_lu_solve


# --- least squares ---

return_types_linalg_lstsq = F._return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_forward(xp, A, B, *, rcond, driver, vector):
    """LAPACK's least squares through the SVD: the minimum-norm solution among the singular values
    above ``rcond * largest`` (gels: all of them), and the extra results each driver gives."""
    Bm = B[..., None] if vector else B
    m, n = A.shape[-2:]
    batch = xp.broadcast_shapes(A.shape[:-2], Bm.shape[:-2])
    nrhs, k = Bm.shape[-1], min(m, n)
    Bm = xp.broadcast_to(Bm, batch + (m, nrhs))
    if A.size == 0 or nrhs == 0:  # LAPACK is not called: no rank, no singular values
        S = xp.zeros(A.shape[:-2] + (k,), dtype=A.dtype)
        X = xp.zeros(batch + (n, nrhs), dtype=A.dtype)
    else:  # the rank and singular values are A's own (its batch shape), the solution broadcasts
        U, S, Vh = _svd_arrays(xp, A, full_matrices=False)
        kept = S > rcond * S[..., :1] if driver != "gels" else S != 0
        Sinv = xp.where(kept, 1 / xp.where(kept, S, 1), 0).astype(A.dtype)
        X = xp.swapaxes(Vh, -1, -2) @ (Sinv[..., None] * (xp.swapaxes(U, -1, -2) @ Bm))
    rank = (S > rcond * S[..., :1]).sum(-1) if S.shape[-1] else xp.zeros(A.shape[:-2], dtype=xp.int64)
    empty = xp.zeros((0,), dtype=A.dtype)
    residuals = empty
    if m > n and A.size and (driver == "gels" or (driver != "gelsy" and bool((rank == n).all()))):
        residuals = ((A @ X - Bm) ** 2).sum(-2)
    # LAPACK writes the solution into B's buffer, max(m, n) rows by column: PyTorch returns a view of it
    buffer = xp.zeros(batch + (nrhs, max(m, n)), dtype=A.dtype)
    buffer[..., :n] = xp.swapaxes(X, -1, -2)
    X = xp.swapaxes(buffer, -1, -2)[..., :n, :]
    X = X[..., 0] if vector else X
    rank = xp.zeros((0,), dtype=xp.int64) if driver == "gels" else rank.astype(xp.int64)
    singular_values = S if driver in ("gelsd", "gelss") else empty
    return X, residuals, rank, singular_values


def _lstsq_grad(grads, self, b, solution, vector):
    """PyTorch's linalg_lstsq_backward (through the pseudo-inverse), plus the gradient of the
    residuals ``|A X - B|^2``, in which X's own change does not count (it is optimal)."""
    gX, gR = grads
    A, B = self, (b.unsqueeze(-1) if vector else b)
    gA = gB = None
    if gX is not None:
        gX = gX.unsqueeze(-1) if vector else gX
        pinvA = pinv(A)
        gA = _pinv_grad(gX.matmul(B.mH), A, pinvA)
        gB = pinvA.mH.matmul(gX)
    if gR is not None and gR.numel():
        X = solution.unsqueeze(-1) if vector else solution
        weighted = (A.matmul(X) - B) * gR.unsqueeze(-2)
        gA = 2 * weighted.matmul(X.mH) if gA is None else gA + 2 * weighted.matmul(X.mH)
        gB = -2 * weighted if gB is None else gB - 2 * weighted
    return gA, (gB.squeeze(-1) if vector and gB is not None else gB)


LinalgLstsqBackward0 = F._results_node(
    "LinalgLstsqBackward0", _lstsq_grad, inputs=("self", "b"), saves=("self", "b"), results=("solution",)
)


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None):
    """The least-squares solution of ``A X = B``: ``(solution, residuals, rank, singular_values)``.
    ``driver`` as LAPACK's: ``'gelsy'`` (default: rank), ``'gels'`` (full rank assumed; residuals),
    ``'gelsd'``/``'gelss'`` (rank, singular values; residuals when of full rank). Residuals (the
    squared error of each column) come only for tall matrices (m > n). Singular values up to
    ``rcond * largest`` (default eps * max(m, n)) count as 0.

    >>> import minigrad as torch
    >>> A = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> torch.linalg.lstsq(A, torch.tensor([[1.0], [1.0], [3.0]]), driver="gels").residuals
    tensor([0.3333])
    """
    name = "torch.linalg.lstsq"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError(f"{name}: other must have at least 1 dimension.")
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"{name}: Expected input and other to have the same dtype, but got input's dtype "
            f"{A.dtype._legacy_name} and other's dtype {B.dtype._legacy_name}"
        )
    if not 0 <= A.ndim - B.ndim <= 1:
        raise RuntimeError(
            f"{name}: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1"
        )
    vector = _is_vector_rhs(A.shape, B.shape)
    if A.shape[-2] != B.shape[-1 if vector else -2]:
        raise RuntimeError(f"{name}: input.size(-2) should match other.size({-1 if vector else -2})")
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError(f"{name}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.dtype.name not in ("float32", "float64"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    F._broadcast_shape(A.shape[:-2], B.shape[: A.ndim - 2])  # PyTorch's batch dims of B: as many as A's
    rcond = dtypes.finfo(A.dtype).eps * max(A.shape[-2:]) if rcond is None or rcond < 0 else rcond
    params = {"rcond": rcond, "driver": driver, "vector": vector}
    found = LinalgLstsqBackward0.record((A, B), _lstsq_forward, params, 2)
    if found[0].grad_fn is not None:
        for key in ("rcond", "driver"):  # the rule does not read them
            found[0].grad_fn.params.pop(key)
    return return_types_linalg_lstsq(*found)


# --- eig: complex results ---


def _no_complex(name: str):
    raise NotImplementedError(
        f"{name} returns complex tensors in PyTorch, and minigrad has no complex dtype. For a symmetric "
        "matrix use torch.linalg.eigh or torch.linalg.eigvalsh, which return real tensors."
    )


def eig(A: Tensor) -> tuple[Tensor, Tensor]:
    """Not available: the eigenvalues of a general matrix are complex, and minigrad has no complex
    dtype. For a symmetric matrix, use :func:`eigh`.

    >>> import minigrad as torch
    >>> torch.linalg.eigh(torch.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    tensor([1., 3.])
    """
    _no_complex("torch.linalg.eig")


def eigvals(A: Tensor) -> Tensor:
    """Not available (complex results); for a symmetric matrix, use :func:`eigvalsh`.

    >>> import minigrad as torch
    >>> torch.linalg.eigvalsh(torch.tensor([[2.0, 1.0], [1.0, 2.0]]))
    tensor([1., 3.])
    """
    _no_complex("torch.linalg.eigvals")


def torch_eig(input: Tensor, eigenvectors: bool = False):
    """``torch.eig``, removed from PyTorch (1.9): raises its error, pointing to ``torch.linalg.eig``.

    >>> import minigrad as torch
    >>> torch.linalg.eigvalsh(torch.eye(2))
    tensor([1., 1.])
    """
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed. `torch.linalg.eig` returns complex "
        "tensors of dtype `cfloat` or `cdouble` rather than real tensors mimicking complex tensors. (minigrad has "
        "no complex dtype: for a symmetric matrix use torch.linalg.eigh.)"
    )


Tensor.matrix_exp, Tensor.pinverse, Tensor.eig = matrix_exp, pinverse, torch_eig
