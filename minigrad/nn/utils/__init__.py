"""``minigrad.nn.utils``: clipping gradients in place between ``backward()`` and ``step()``, and
the parameters of a model as one vector and back.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.ones(2))
>>> w.grad = torch.tensor([3.0, 4.0])
>>> torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
tensor(5.)
>>> w.grad
tensor([0.6000, 0.8000])
"""

from __future__ import annotations

import types
from collections.abc import Iterable

from ... import _warn, linalg
from ...autograd.grad_mode import no_grad
from ...factories import tensor
from ...functions import cat, stack
from ...tensor import Tensor

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "parameters_to_vector",
    "vector_to_parameters",
]


def _grads(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


@no_grad()
def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach=None,
) -> Tensor:
    """Scale the gradients of ``parameters`` together so that their joint ``norm_type``-norm is at
    most ``max_norm``; returns the norm they had before (PyTorch's two halves:
    :func:`get_total_norm`, then :func:`clip_grads_with_norm_`)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)  # a generator can be read only once
        if is_generator and not parameters:  # (e.g. model.parameters() of a model without any)
            _warn.warn("`parameters` is an empty generator, no gradient clipping will occur.")
    total = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grad_norm(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach=None,
) -> Tensor:
    """Deprecated: use :func:`clip_grad_norm_` (PyTorch's old name, with its FutureWarning)."""
    _warn.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float, foreach=None) -> None:
    """Clamp every gradient of ``parameters`` to ``[-clip_value, clip_value]``, in place."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        g.clamp_(min=-clip_value, max=clip_value)


def _check_param_device(param: Tensor, old_param_device: int | None) -> int:
    """The GPU index of ``param`` (-1 on the CPU); a TypeError if it differs from ``old_param_device``."""
    on_gpu = param.device.type == "cuda"
    if old_param_device is None:
        return param.get_device() if on_gpu else -1
    if (param.get_device() != old_param_device) if on_gpu else (old_param_device != -1):
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device


def _typename(obj: object) -> str:
    """The type name PyTorch's messages give (``torch.typename``): ``list``, ``numpy.ndarray``, ..."""
    if isinstance(obj, Tensor):
        return obj.type()
    if hasattr(obj, "__qualname__"):
        module, name = getattr(obj, "__module__", "") or "", obj.__qualname__
    elif hasattr(obj, "__name__"):
        module, name = getattr(obj, "__module__", "") or "", obj.__name__
    else:
        module, name = type(obj).__module__ or "", type(obj).__qualname__
    return name if module in {"", "builtins"} else f"{module}.{name}"


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters, flattened and joined into one vector (in the graph: it has a ``grad_fn``).

    >>> import minigrad as torch
    >>> weight, bias = torch.nn.Parameter(torch.tensor([[1.0, 2.0]])), torch.nn.Parameter(torch.tensor([3.0]))
    >>> torch.nn.utils.parameters_to_vector([weight, bias])
    tensor([1., 2., 3.], grad_fn=<CatBackward0>)
    """
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)  # all on one device
        vec.append(param.view(-1))
    return cat(vec)


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Give the parameters, in order, the values of consecutive slices of ``vec``.

    As in PyTorch, each parameter's ``.data`` becomes a view of ``vec`` (no copy, not recorded by
    autograd); a ``vec`` longer than the parameters is not an error.

    >>> import minigrad as torch
    >>> model = torch.nn.Linear(2, 1)
    >>> torch.nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), model.parameters())
    >>> model.weight, model.bias
    (Parameter containing:
    tensor([[1., 2.]], requires_grad=True), Parameter containing:
    tensor([3.], requires_grad=True))
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    param_device = None
    pointer = 0  # where the next parameter's slice starts
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer : pointer + num_param].view_as(param).data
        pointer += num_param


@no_grad()
def get_total_norm(
    tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None
) -> Tensor:
    """The ``norm_type``-norm of all of ``tensors`` together (the norm of their norms): the first
    half of :func:`clip_grad_norm_`.

    >>> import minigrad as torch
    >>> torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
    tensor(5.)
    """
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    total = linalg.vector_norm(stack([linalg.vector_norm(t, norm_type) for t in tensors]), norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot "
            "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    return total


@no_grad()
def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor], max_norm: float, total_norm: Tensor, foreach=None
) -> None:
    """Scale the gradients of ``parameters`` by ``max_norm / (total_norm + 1e-6)``, at most 1: the
    second half of :func:`clip_grad_norm_`, with a norm from :func:`get_total_norm`.

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.ones(2))
    >>> w.grad = torch.tensor([3.0, 4.0])
    >>> torch.nn.utils.clip_grads_with_norm_([w], 1.0, torch.tensor(5.0))
    >>> w.grad
    tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters)
    if not grads:
        return
    scale = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(scale.to(g.dtype))


# --- parametrizations, and the weight and spectral norms ---
# isort: split
from . import parametrizations, parametrize, rnn  # noqa: E402
from ._hooks_norms import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm  # noqa: E402

__all__ += [
    "parametrizations",
    "parametrize",
    "rnn",
    "remove_spectral_norm",
    "remove_weight_norm",
    "spectral_norm",
    "weight_norm",
]
