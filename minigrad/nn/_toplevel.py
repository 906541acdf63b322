"""The ``torch.*`` forms of functional ops that PyTorch also exposes at top level, with the
signatures of its native functions (which differ from ``torch.nn.functional``'s: ``dropout``'s
``train`` is required, ``embedding`` takes the weight first, a loss's ``reduction`` is an int:
0 none, 1 mean, 2 sum). Without one, PyTorch's top-level losses do not reduce (0, though its
schema says mean): so do these."""

from __future__ import annotations

import warnings

from ..tensor import Tensor
from . import functional as F

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_max_pool1d",
    "alpha_dropout",
    "avg_pool1d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "conv1d",
    "conv2d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "dropout",
    "embedding",
    "group_norm",
    "hardshrink",
    "hinge_embedding_loss",
    "instance_norm",
    "kl_div",
    "layer_norm",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "pairwise_distance",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "selu",
    "selu_",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
]

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}

# the same signature as F's
conv1d, conv2d, cosine_similarity, pairwise_distance = F.conv1d, F.conv2d, F.cosine_similarity, F.pairwise_distance
prelu, bilinear, pixel_shuffle, pixel_unshuffle = F.prelu, F.bilinear, F.pixel_shuffle, F.pixel_unshuffle
adaptive_avg_pool1d, rms_norm = F.adaptive_avg_pool1d, F.rms_norm
selu_, celu_, rrelu_, threshold_ = F.selu_, F.celu_, F.rrelu_, F.threshold_


def _reduction(reduction: int) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def selu(input: Tensor) -> Tensor:
    """``torch.selu``: :func:`torch.nn.functional.selu`, out of place."""
    return F.selu(input)


def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``torch.celu``: :func:`torch.nn.functional.celu`, out of place."""
    return F.celu(input, alpha)


def rrelu(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None
) -> Tensor:
    """``torch.rrelu`` (eval mode by default)."""
    return F.rrelu(input, lower, upper, training)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``torch.hardshrink``."""
    return F.hardshrink(input, lambd)


def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``torch.threshold``."""
    return F.threshold(input, threshold, value)


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``torch.dropout``: ``p`` and ``train`` are required."""
    return F.dropout(input, p, train)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``torch.alpha_dropout``: ``p`` and ``train`` are required."""
    return F.alpha_dropout(input, p, train)


def layer_norm(
    input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-05, cudnn_enable: bool = True
) -> Tensor:
    """``torch.layer_norm``."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(
    input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-05, cudnn_enabled: bool = True
) -> Tensor:
    """``torch.group_norm``."""
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled) -> Tensor:
    """``torch.batch_norm``: every argument is required, the weight and bias come first."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(
    input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled
) -> Tensor:
    """``torch.instance_norm``: every argument is required."""
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(
    weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False
) -> Tensor:
    """``torch.embedding``: the weight first; ``padding_idx=-1`` means none."""
    return F.embedding(
        indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0, scale_grad_by_freq, sparse
    )


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, log_target: bool = False) -> Tensor:
    """``torch.kl_div``: ``reduction`` an int (1, mean, averages over every element; by default 0, none)."""
    with warnings.catch_warnings():  # F's warning about 'mean' is F's own: torch.kl_div gives none
        warnings.simplefilter("ignore")
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode: bool = False, count_include_pad: bool = True):
    """``torch.avg_pool1d``."""
    return F.avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``torch.max_pool1d`` (no indices)."""
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``torch.max_pool2d`` (no indices)."""
    return F.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def adaptive_max_pool1d(input: Tensor, output_size) -> tuple[Tensor, Tensor]:
    """``torch.adaptive_max_pool1d``: the values and their indices."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction: int = 0) -> Tensor:
    """``torch.binary_cross_entropy_with_logits``."""
    return F.binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0) -> Tensor:
    """``torch.cosine_embedding_loss``."""
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin: float = 1.0, reduction: int = 0) -> Tensor:
    """``torch.hinge_embedding_loss``."""
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0) -> Tensor:
    """``torch.margin_ranking_loss``."""
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction) -> Tensor:
    """``torch.poisson_nll_loss``: every argument is required."""
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


def triplet_margin_loss(
    anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-06, swap: bool = False,
    reduction: int = 0,
) -> Tensor:  # fmt: skip
    """``torch.triplet_margin_loss``."""
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction))


# --- 3-d and transposed convolutions ---
__all__ += [
    "channel_shuffle",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "max_pool3d",
    "pdist",
]
conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d = (
    F.conv3d,
    F.conv_transpose1d,
    F.conv_transpose2d,
    F.conv_transpose3d,
)
channel_shuffle, pdist = F.channel_shuffle, F.pdist


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False) -> Tensor:
    """``torch.max_pool3d`` (no indices)."""
    return F.max_pool3d(input, kernel_size, stride or None, padding, dilation, ceil_mode)
