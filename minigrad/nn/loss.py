"""Loss modules: ``MSELoss``, ``L1Loss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``,
``BCEWithLogitsLoss``, ``SmoothL1Loss``, ``HuberLoss``, ``KLDivLoss``, the margin and ranking
losses (``MarginRankingLoss``, ``HingeEmbeddingLoss``, ``SoftMarginLoss``,
``MultiLabelSoftMarginLoss``, ``CosineEmbeddingLoss``, ``TripletMarginLoss``,
``TripletMarginWithDistanceLoss``, ``MultiMarginLoss``, ``MultiLabelMarginLoss``), the
likelihoods ``PoissonNLLLoss`` and ``GaussianNLLLoss``; and the distances ``CosineSimilarity``,
``PairwiseDistance`` (see :mod:`minigrad.nn.functional`)."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = (
            F._reduction(size_average, reduce, reduction)
            if size_average is not None or reduce is not None
            else reduction
        )


class MSELoss(_Loss):
    """Mean squared error: ``mean((input - target) ** 2)`` (or ``'sum'``, or ``'none'``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error: ``mean(|input - target|)`` (or ``'sum'``, or ``'none'``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)  # a buffer: it moves with .to() and is saved


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices, given log-probabilities."""

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits against class indices or class probabilities.

    >>> import minigrad as torch
    >>> loss = torch.nn.CrossEntropyLoss()(torch.tensor([[2.0, 0.0]]), torch.tensor([0]))
    >>> round(loss.item(), 4)
    0.1269
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities ``input`` against targets in [0, 1]."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy of ``sigmoid(input)``, computed from the logits without overflow.

    >>> import minigrad as torch
    >>> loss = torch.nn.BCEWithLogitsLoss()(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 1.0]))
    >>> round(loss.item(), 4)
    0.41
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class SmoothL1Loss(_Loss):
    """Quadratic below ``beta`` (``0.5 * d**2 / beta``), linear above (``d - 0.5 * beta``)."""

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Quadratic below ``delta`` (``0.5 * d**2``), linear above (``delta * (d - 0.5 * delta)``)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        if not isinstance(delta, float | int):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of ``target`` from log-probabilities ``input``
    (``reduction='batchmean'`` gives the true divergence per sample).

    >>> import minigrad as torch
    >>> loss = torch.nn.KLDivLoss(reduction="batchmean")
    >>> round(loss(torch.tensor([[0.5, 0.5]]).log(), torch.tensor([[1.0, 0.0]])).item(), 4)
    0.6931
    """

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class CosineSimilarity(Module):
    """The cosine of the angle between two inputs along ``dim`` (see ``F.cosine_similarity``)."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dim (``p`` is kept as ``norm``, as in PyTorch)."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class MarginRankingLoss(_Loss):
    """``max(0, -target * (x1 - x2) + margin)`` (see ``F.margin_ranking_loss``)."""

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """``input`` where the target is 1, ``max(0, margin - input)`` where it is -1 (see ``F.hinge_embedding_loss``)."""

    def __init__(self, margin: float = 1.0, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))`` for targets of 1 or -1 (see ``F.soft_margin_loss``).

    >>> import minigrad as torch
    >>> loss = torch.nn.SoftMarginLoss()(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 1.0]))
    >>> round(loss.item(), 4)
    0.41
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Binary cross-entropy of ``sigmoid(input)`` per class, averaged over the classes (see
    ``F.multilabel_soft_margin_loss``); ``weight`` (a buffer) weighs each class."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` where the target is 1, ``max(0, cos - margin)`` where it is -1 (see
    ``F.cosine_embedding_loss``)."""

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with the ``p``-norm
    distance (see ``F.triplet_margin_loss``)."""

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-6,
        swap: bool = False,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(
            anchor,
            positive,
            negative,
            margin=self.margin,
            p=self.p,
            eps=self.eps,
            swap=self.swap,
            reduction=self.reduction,
        )


class TripletMarginWithDistanceLoss(_Loss):
    """``TripletMarginLoss`` with any distance function (by default a ``PairwiseDistance()``
    submodule, as in PyTorch; see ``F.triplet_margin_with_distance_loss``).

    >>> import minigrad as torch
    >>> torch.nn.TripletMarginWithDistanceLoss()
    TripletMarginWithDistanceLoss(
      (distance_function): PairwiseDistance()
    )
    """

    def __init__(
        self, *, distance_function=None, margin: float = 1.0, swap: bool = False, reduction: str = "mean"
    ) -> None:
        super().__init__(reduction=reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin, self.swap = margin, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


class PoissonNLLLoss(_Loss):
    """The Poisson negative log-likelihood of ``target`` given the (log-)rate ``input`` (see
    ``F.poisson_nll_loss``)."""

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average=None,
        eps: float = 1e-8,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(
            log_input, target, log_input=self.log_input, full=self.full, eps=self.eps, reduction=self.reduction
        )


class GaussianNLLLoss(_Loss):
    """The Gaussian negative log-likelihood of ``target`` given the mean ``input`` and variance
    ``var`` (see ``F.gaussian_nll_loss``)."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss (see ``F.multi_margin_loss``); ``weight`` (a buffer) weighs each
    sample by its target class.

    >>> import minigrad as torch
    >>> torch.nn.MultiMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
    tensor(0.3250)
    """

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.ndim}D instead")
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multi_margin_loss(
            input, target, p=self.p, margin=self.margin, weight=self.weight, reduction=self.reduction
        )


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss, each row of ``target`` listing its classes up to the first -1
    (see ``F.multilabel_margin_loss``)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)
