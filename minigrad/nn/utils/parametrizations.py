"""``nn.utils.parametrizations``: weight normalisation and spectral normalisation as
parametrizations (:mod:`minigrad.nn.utils.parametrize`), as ``torch.nn.utils.parametrizations``.

``weight_norm`` stores the weight as a magnitude ``original0`` (g) and a direction ``original1``
(v): ``weight = v * g / ||v||`` (``WeightNormInterfaceBackward0``). ``spectral_norm`` divides the
weight by an estimate of its largest singular value, refined by one step of power iteration at
each access in training mode (buffers ``_u`` and ``_v``, first drawn from the seeded generator as
PyTorch draws them, so the same seed gives the same vectors).

>>> import minigrad as torch
>>> from minigrad.nn.utils.parametrizations import weight_norm
>>> layer = weight_norm(torch.nn.Linear(3, 2))
>>> sorted(layer.state_dict())
['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
>>> layer.weight.grad_fn
<WeightNormInterfaceBackward0 object at 0x...>
"""

from __future__ import annotations

from ...autograd.grad_mode import no_grad
from ...functions import mv, vdot
from ...tensor import Tensor
from .. import functional as F
from ..module import Module
from . import parametrize
from ._hooks_norms import spectral_dim

__all__ = ["spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return F._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        weight_g = F.norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||``, the norm over every dim but ``dim``
    (over all of them for ``dim=None``): ``original0`` is g, ``original1`` is v. Returns ``module``.

    Unlike PyTorch, a state dict of the older ``nn.utils.weight_norm`` (keys ``weight_g`` and
    ``weight_v``) is not converted on loading.

    >>> import minigrad as torch
    >>> from minigrad.nn.utils.parametrizations import weight_norm
    >>> layer = weight_norm(torch.nn.Linear(3, 2))
    >>> layer.parametrizations.weight.original0.shape
    torch.Size([2, 1])
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # a 1-d weight is just normalised: no vectors to keep
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = weight_mat.new_empty(h).normal_(0, 1)  # PyTorch's draws, in its order
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)  # start near the top singular vectors

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    @no_grad()
    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        # in place, as PyTorch's out=: the buffers stay the same tensors
        for _ in range(n_power_iterations):
            self._u.copy_(F.normalize(mv(weight_mat, self._v), dim=0, eps=self.eps))
            self._v.copy_(F.normalize(mv(weight_mat.H, self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()  # copies: the next power step changes the buffers in place
        v = self._v.clone()
        sigma = vdot(u, mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(
    module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim: int | None = None
) -> Module:
    """Reparametrize ``module.<name>`` as itself divided by its spectral norm (largest singular
    value of the weight seen as a matrix of rows along ``dim``: 1 for transposed convolutions, else
    0), estimated by power iteration. Returns ``module``.

    >>> import minigrad as torch
    >>> from minigrad.nn.utils.parametrizations import spectral_norm
    >>> layer = spectral_norm(torch.nn.Linear(4, 3))
    >>> sorted(layer.state_dict())
    ['bias', 'parametrizations.weight.0._u', 'parametrizations.weight.0._v', 'parametrizations.weight.original']
    >>> layer.weight.grad_fn  # the weight over sigma = u . (W v)
    <DivBackward0 object at 0x...>
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = spectral_dim(module)
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
