"""Normalization layers: ``LayerNorm``, ``BatchNorm1d``, ``BatchNorm2d``, ``GroupNorm``,
``InstanceNorm1d``, ``InstanceNorm2d``, ``RMSNorm`` and ``LocalResponseNorm``, as in ``torch.nn``.

``LayerNorm`` standardises each sample over its last dims, ``GroupNorm`` over groups of channels,
``InstanceNorm`` each channel of each sample over its positions; ``BatchNorm`` standardises each
channel over the batch (and the positions), and keeps running statistics in buffers for
evaluation: ``model.eval()`` switches it to them.
"""

from __future__ import annotations

from .. import _warn, dtypes
from ..factories import empty, ones, tensor, zeros
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


def _register_scale_and_shift(module: Module, shape: tuple, affine: bool, bias: bool, device, dtype) -> None:
    """The learnable ``weight`` (and ``bias``, unless ``bias=False``) of ``shape``, or None for
    each when not ``affine``: registered as PyTorch's normalization layers register them."""
    for name, wanted in (("weight", affine), ("bias", affine and bias)):
        module.register_parameter(name, Parameter(empty(shape, device=device, dtype=dtype)) if wanted else None)


def _reset_scale_and_shift(module: Module) -> None:
    """Start as the identity: weight 1, bias 0."""
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Standardise over the last dims (``normalized_shape``), then scale and shift elementwise by
    ``weight`` and ``bias`` of that shape (ones and zeros to start with).

    >>> import minigrad as torch
    >>> norm = torch.nn.LayerNorm(3)
    >>> norm
    LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
    >>> norm(torch.tensor([[1.0, 2.0, 3.0]]))
    tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(
        self,
        normalized_shape: int | list[int] | tuple[int, ...],
        eps: float = 1e-05,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _register_scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
            f"bias={self.bias is not None}"
        )


class _BatchNorm(Module):
    """What BatchNorm1d and BatchNorm2d share; they differ only in the input dims they accept.

    ``momentum=None`` makes the running statistics a plain (cumulative) average of all batches so
    far: each batch then counts ``1 / num_batches_tracked``.
    """

    _version = 2  # (of its state_dict) version 2 added num_batches_tracked

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _register_scale_and_shift(self, (num_features,), affine, bias, device, dtype)
        if track_running_stats:
            # buffers: state saved in state_dict and moved by .to(), but not trained
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, *args) -> None:
        # a state_dict from before version 2 (or a plain dict, with no metadata) may lack
        # num_batches_tracked: it is not missing, it keeps its value
        key = prefix + "num_batches_tracked"
        if local_metadata.get("version", 0) < 2 and self.track_running_stats and key not in state_dict:
            state_dict[key] = self.num_batches_tracked if self.num_batches_tracked is not None else tensor(0)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        _reset_scale_and_shift(self)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average: this batch counts 1/n
                momentum = 1.0 / float(self.num_batches_tracked.item())
        # The batch's statistics when training, or in eval mode when there are no running ones.
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        # The running statistics are passed only to be used (eval) or updated (tracked training).
        given = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if given else None,
            self.running_var if given else None,
            self.weight,
            self.bias,
            use_batch,
            momentum,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalization of a (N, C) or (N, C, L) input, per channel C.

    >>> import minigrad as torch
    >>> bn = torch.nn.BatchNorm1d(2)
    >>> bn
    BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> bn(torch.tensor([[1.0, 10.0], [3.0, 30.0]]))
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.2000, 2.0000]), tensor(1))
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) images, per channel C (over N, H and W).

    >>> import minigrad as torch
    >>> bn = torch.nn.BatchNorm2d(3).eval()  # eval: normalise with the running statistics
    >>> bn(torch.ones(1, 3, 2, 2))[0, 0]
    tensor([[1.0000, 1.0000],
            [1.0000, 1.0000]], grad_fn=<SelectBackward0>)
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class GroupNorm(Module):
    """Standardise each sample's ``num_channels`` channels in ``num_groups`` groups (each over its
    channels and positions), then scale and shift per channel (ones and zeros to start with).

    >>> import minigrad as torch
    >>> torch.nn.GroupNorm(2, 4)
    GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-05,
        affine: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        _register_scale_and_shift(self, (num_channels,), affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, bias={self.bias is not None}"


class _InstanceNorm(_BatchNorm):
    """What InstanceNorm1d and InstanceNorm2d share: batch norm's parameters and buffers (by
    default neither), each sample normalised on its own. ``_unbatched`` is the number of dims of an
    input without a batch dim."""

    _unbatched = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float | None = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        # before PyTorch 0.4 instance norms kept running statistics by default: a checkpoint (or a
        # plain dict, with no metadata) that has them for one that keeps none gets a message of its own
        stats = [prefix + name for name in ("running_mean", "running_var") if prefix + name in state_dict]
        if "version" not in local_metadata and not self.track_running_stats and stats:
            klass = type(self).__name__
            error_msgs.append(
                "Unexpected running stats buffer(s) {} for {} with track_running_stats=False. If state_dict is a "
                "checkpoint saved before 0.4.0, this may be expected because {} does not track running stats by "
                "default since 0.4.0. Please remove these keys from state_dict. If the running stats are actually "
                "needed, instead set track_running_stats=True in {} to enable them. See the documentation of {} "
                "for details.".format(" and ".join(f'"{k}"' for k in stats), klass, klass, klass, klass)
            )
            for key in stats:
                state_dict.pop(key)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in (self._unbatched, self._unbatched + 1):
            raise ValueError(f"expected {self._unbatched}D or {self._unbatched + 1}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            0.0 if self.momentum is None else self.momentum,
            self.eps,
        )

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        feature_dim = input.ndim - self._unbatched
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features ({self.num_features}), "
                    f"but got: {input.shape[feature_dim]}."
                )
            _warn.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can silence this warning by "
                "not passing in num_features, which is not used because affine=False",
            )
        if input.ndim == self._unbatched:  # one sample: as a batch of one
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of a (N, C, L) or (C, L) input: each channel of each sample over L.

    >>> import minigrad as torch
    >>> torch.nn.InstanceNorm1d(3)
    InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """

    _unbatched = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) images: each channel of each sample
    over H and W."""

    _unbatched = 3


class RMSNorm(Module):
    """Divide by the root mean square over the last dims (``normalized_shape``), then scale by a
    learnable ``weight`` (ones to start with; none without ``elementwise_affine``). ``eps=None``
    is the input dtype's machine epsilon.

    >>> import minigrad as torch
    >>> torch.nn.RMSNorm(3)
    RMSNorm((3,), eps=None, elementwise_affine=True)
    """

    def __init__(
        self,
        normalized_shape: int | list[int] | tuple[int, ...],
        eps: float | None = None,
        elementwise_affine: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype)) if elementwise_affine else None
        self.register_parameter("weight", weight)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    """Divide each value by ``(k + alpha * mean of squares over size neighbouring channels) ** beta``.

    >>> from minigrad import nn
    >>> nn.LocalResponseNorm(3)
    LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1.0)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


# --- 3-d and transposed convolutions ---
class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) volumes, per channel C (over N, D, H and W).

    >>> import minigrad as torch
    >>> torch.nn.BatchNorm3d(3, momentum=None)
    BatchNorm3d(3, eps=1e-05, momentum=None, affine=True, bias=True, track_running_stats=True)
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) volumes: each channel of each
    sample over D, H and W.

    >>> import minigrad as torch
    >>> torch.nn.InstanceNorm3d(2, affine=True)
    InstanceNorm3d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    """

    _unbatched = 4
