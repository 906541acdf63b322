"""Weight initialisation, as ``torch.nn.init``: fill a tensor in place, without recording it.

Values come from minigrad's seeded generator (``minigrad.manual_seed``, or the ``generator=``
given), whose streams are PyTorch's, drawn as PyTorch's functions draw them: the same seed gives
the same weights. The old names without the trailing underscore (``init.normal``) still work, with
PyTorch's FutureWarning.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .. import _warn, backend, dtypes
from ..autograd.grad_mode import no_grad
from ..factories import empty_like, randperm
from ..functions import where
from ..tensor import Tensor


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale of the weights for a nonlinearity (PyTorch's table; the int ``1`` for
    the linear ones, as PyTorch returns)."""
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, int | float):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)``."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn from ``N(mean, std**2)``."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.zero_()


def ones_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.fill_(1.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-d tensor with the identity matrix (ones on the diagonal, zeros elsewhere).

    >>> import minigrad as torch
    >>> torch.nn.init.eye_(torch.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.zero_().diagonal().fill_(1)
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot: uniform in ``±gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std  # PyTorch's order of operations: the same bound, last bit included
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _is_empty(tensor: Tensor) -> bool:
    """True (with PyTorch's warning, pointing at the caller's line) for a tensor with no elements,
    which the Kaiming initialisations leave alone: its fan may be 0."""
    if 0 in tensor.shape:
        _warn.warn("Initializing zero-element tensors is a no-op")
        return True
    return False


def kaiming_uniform_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
) -> Tensor:
    """He: uniform in ``±gain * sqrt(3 / fan)``. With ``a=sqrt(5)`` (what ``nn.Linear`` and
    ``nn.Conv2d`` use) the bound is ``1 / sqrt(fan_in)``."""
    if _is_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std  # PyTorch's order of operations: the same bound, last bit included
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
) -> Tensor:
    if _is_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-d convolution weight with the Dirac delta: each of the first input
    channels of each group passes through unchanged (a 1 at the kernel's centre).

    >>> import minigrad as torch
    >>> torch.nn.init.dirac_(torch.empty(2, 2, 3))
    tensor([[[0., 1., 0.],
             [0., 0., 0.]],
    <BLANKLINE>
            [[0., 0., 0.],
             [0., 1., 0.]]])
    """
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    centre = tuple(size // 2 for size in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, generator=None
) -> Tensor:
    """Fill with values from ``N(mean, std**2)`` truncated to ``[a, b]``, drawn as PyTorch draws
    them (the same numbers for the same seed): when most of the normal lies in ``[a, b]`` (more
    than 0.3 of it), normal draws, redrawing those outside; else uniform draws in ``[a, b]``, each
    kept with probability ``pdf(x) / pdf(peak)`` (rejection sampling), redrawing the others.

    >>> import minigrad as torch
    >>> w = torch.nn.init.trunc_normal_(torch.empty(1000), a=-0.5, b=0.5)
    >>> bool(w.min() >= -0.5 and w.max() <= 0.5)
    True
    """
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        _warn.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
        )
    with no_grad():
        if _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3:
            # the bounds rounded to the tensor's dtype, so that a value equal to one is kept
            low, high = tensor.new_tensor(a, device="cpu").item(), tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while (rejected := (result < low) | (result > high)).any():
                result = where(rejected, empty_like(result).normal_(mean, std, generator=generator), result)
        else:
            peak = max(a, min(mean, b))  # where the pdf is highest within [a, b]
            log_peak = -0.5 * ((peak - mean) / std) ** 2

            def pending_of(candidates: Tensor) -> Tensor:
                """Which candidates are rejected: log(u) > log(pdf(x) / pdf(peak)), u uniform in [0, 1)."""
                log_ratio = candidates.sub(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                return empty_like(tensor).uniform_(generator=generator).log_().gt(log_ratio)

            result = tensor.uniform_(a, b, generator=generator)
            pending = pending_of(result)
            while pending.any():
                candidates = empty_like(tensor).uniform_(a, b, generator=generator)
                result = where(pending, candidates, result)
                pending = where(pending, pending_of(candidates), pending)
        if result is not tensor:
            tensor.copy_(result)
    return tensor


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix times ``gain``: the Q of the QR factorisation of a
    normal random matrix (dims after the first flattened), its signs made uniform as PyTorch does.

    >>> import minigrad as torch
    >>> w = torch.nn.init.orthogonal_(torch.empty(3, 5))
    >>> torch.allclose(w @ w.T, torch.eye(3), atol=1e-6)
    True
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with no_grad():
        flat = tensor.new_zeros((rows, cols)).normal_(0, 1, generator=generator)._data
        if tensor.dtype is dtypes.float16:  # (after the draw, as PyTorch's QR refuses it)
            raise NotImplementedError("\"geqrf_cpu\" not implemented for 'Half'")
        xp = backend.xp(tensor.device)
        if rows < cols:
            flat = flat.T
        q, r = xp.linalg.qr(flat)
        q = q * xp.sign(xp.diagonal(r))
        if rows < cols:
            q = q.T
        tensor.copy_(Tensor._make(xp.ascontiguousarray(q).reshape(tensor.shape)))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Fill a 2-d tensor with values from ``N(0, std**2)``, then zero a ``sparsity`` fraction of
    each column (rows picked by ``randperm``, from the global generator as in PyTorch).

    >>> import minigrad as torch
    >>> w = torch.nn.init.sparse_(torch.empty(4, 3), sparsity=0.5)
    >>> (w == 0).sum(0)
    tensor([2, 2, 2])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[randperm(rows, device=tensor.device)[:num_zeros], col] = 0
    return tensor


def _make_deprecate(method: Callable) -> Callable:
    """The old name of ``method`` (``normal`` for ``normal_``), which warns that it is deprecated."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        _warn.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning)
        return method(*args, **kwargs)

    deprecated_init.__doc__ = f"Deprecated: use :func:`{new_name}`."
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
