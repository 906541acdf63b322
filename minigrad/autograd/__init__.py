"""``minigrad.autograd``: gradients of tensors, as ``torch.autograd``."""

from . import anomaly_mode, functional, grad_mode, graph
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import AccumulateGrad, Node


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        from ..tensor import Tensor

        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """The wrapper of PyTorch before 0.4, kept for old code: ``Variable(t, requires_grad=True)``
    is a tensor sharing ``t``'s data, cut from the graph, with ``requires_grad`` set
    (``volatile`` is ignored, as in PyTorch). Every tensor is a Variable.

    >>> import minigrad as torch
    >>> torch.autograd.Variable(torch.ones(2), requires_grad=True)
    tensor([1., 1.], requires_grad=True)
    """

    def __new__(cls, data, requires_grad: bool = False, volatile: bool = False):
        from ..tensor import Tensor

        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)


__all__ = [
    "AccumulateGrad",
    "anomaly_mode",
    "Variable",
    "Function",
    "FunctionCtx",
    "GradcheckError",
    "Node",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "functional",
    "grad",
    "grad_mode",
    "graph",
    "gradcheck",
    "gradgradcheck",
    "inference_mode",
    "no_grad",
    "once_differentiable",
    "set_grad_enabled",
    "set_detect_anomaly",
]
