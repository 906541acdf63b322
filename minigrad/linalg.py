"""``minigrad.linalg``: vector and matrix norms, as ``torch.linalg``.

Every norm is a vector norm (``LinalgVectorNormBackward0``) or, for the matrix 1- and inf-norms,
a vector norm of each column or row followed by ``amax``/``amin``, as PyTorch computes them.

>>> import minigrad as torch
>>> torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))
tensor(5.)
>>> torch.linalg.norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), 1)
tensor(6.)
"""

from __future__ import annotations

import math

from . import functions as F
from .tensor import Tensor

__all__ = ["matrix_norm", "norm", "vector_norm"]


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
