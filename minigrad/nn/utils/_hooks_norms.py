"""The older forms of weight and spectral normalisation, ``nn.utils.weight_norm`` and
``nn.utils.spectral_norm``, as PyTorch's: a forward pre-hook recomputes ``module.weight`` (a plain
attribute) from parameters ``weight_g`` and ``weight_v`` (or ``weight_orig`` and the buffers
``weight_u``, ``weight_v``) before each call. PyTorch deprecates ``weight_norm`` in favour of
:func:`minigrad.nn.utils.parametrizations.weight_norm` (with a FutureWarning, as here).
"""

from __future__ import annotations

from typing import Any

from ... import _warn
from ...autograd.grad_mode import no_grad
from ...functions import dot, mv
from ...tensor import Tensor
from .. import functional as F
from ..conv import _ConvTransposeNd
from ..module import Module
from ..parameter import Parameter

__all__ = ["remove_spectral_norm", "remove_weight_norm", "spectral_norm", "weight_norm"]


class WeightNorm:
    """The forward pre-hook of :func:`weight_norm`."""

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Tensor:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return F._weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        _warn.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of `torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(F.norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Replace parameter ``name`` by ``name_g`` (magnitude) and ``name_v`` (direction); a forward
    pre-hook sets ``module.<name> = v * g / ||v||`` before each call. Deprecated, as in PyTorch.

    >>> import warnings
    >>> import minigrad as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     layer = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> [name for name, _ in layer.named_parameters()]
    ['bias', 'weight_g', 'weight_v']
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Undo :func:`weight_norm`: ``name`` is a parameter again, with the normalised value."""
    return _remove_hook(module, name, WeightNorm, "weight_norm")


class SpectralNorm:
    """The forward pre-hook of :func:`spectral_norm`."""

    _version: int = 1

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.ndim) if d != self.dim])
        return weight_mat.reshape(weight_mat.shape[0], -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():  # in place, as PyTorch's out=: the buffers stay the same tensors
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(mv(weight_mat, v), dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        sigma = dot(u, mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)  # PyTorch's draws
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)  # a plain attribute until the first forward
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module.register_state_dict_post_hook(SpectralNormStateDictHook(fn))
        return fn


class SpectralNormStateDictHook:
    """Notes in ``state_dict``'s metadata which version of :func:`spectral_norm`'s state it holds
    (``metadata['spectral_norm']['weight.version']``), as PyTorch's."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, module: Module, state_dict: dict, prefix: str, local_metadata: dict) -> None:
        versions = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self.fn._version


def spectral_norm(
    module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim: int | None = None
) -> Module:
    """Replace parameter ``name`` by ``name_orig`` and buffers ``name_u``, ``name_v``; a forward
    pre-hook sets ``module.<name>`` to ``name_orig`` over its spectral norm, estimated by
    ``n_power_iterations`` steps of power iteration per call in training mode.

    >>> import minigrad as torch
    >>> layer = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 3))
    >>> sorted(layer.state_dict())
    ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    if dim is None:
        dim = spectral_dim(module)
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def spectral_dim(module: Module) -> int:
    """The dim of the weight that holds the outputs, which spectral norm keeps apart: 1 for a
    transposed convolution (its weight is (C_in, C_out/groups, *kernel)), else 0."""
    return 1 if isinstance(module, _ConvTransposeNd) else 0


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Undo :func:`spectral_norm`: ``name`` is a parameter again, with the normalised value."""
    _remove_hook(module, name, SpectralNorm, "spectral_norm")
    for k, hook in list(module._state_dict_hooks.items()):
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
    return module


def _remove_hook(module: Module, name: str, kind: type, label: str) -> Module:
    """Take the ``kind`` hook of parameter ``name`` off ``module``, putting the parameter back."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"{label} of '{name}' not found in {module}")
