"""``minigrad.autograd``: gradients of tensors, as ``torch.autograd``."""

from . import functional, grad_mode, graph
from .engine import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import AccumulateGrad, Node


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    """Accepted for compatibility; minigrad's errors already name the operation involved."""


class detect_anomaly:  # noqa: N801
    def __init__(self, check_nan: bool = True):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


__all__ = [
    "AccumulateGrad",
    "Function",
    "FunctionCtx",
    "GradcheckError",
    "Node",
    "backward",
    "detect_anomaly",
    "functional",
    "grad",
    "grad_mode",
    "graph",
    "gradcheck",
    "gradgradcheck",
    "once_differentiable",
    "set_detect_anomaly",
]
