"""Custom differentiable operations: subclass :class:`Function`, as in PyTorch.

>>> import minigrad as torch
>>> class Exp(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         result = x.exp()
...         ctx.save_for_backward(result)
...         return result
...     @staticmethod
...     def backward(ctx, grad_output):
...         (result,) = ctx.saved_tensors
...         return grad_output * result
>>> x = torch.tensor([0.0, 1.0], requires_grad=True)
>>> y = Exp.apply(x)
>>> y.grad_fn.name()
'ExpBackward'
>>> y.sum().backward()
>>> x.grad
tensor([1.0000, 2.7183])
"""

from __future__ import annotations

from typing import Any

from .grad_mode import is_grad_enabled, no_grad
from .graph import FREED_MESSAGE, Node, SavedTensor, gradient_edge


class FunctionCtx:
    """What ``forward`` and ``backward`` of a custom Function share (``ctx``)."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for ``backward``; in-place changes to them are detected there."""
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors) -> None:
        self.dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The backward node of one ``Function.apply`` call; it is also the ``ctx``."""

    function: type

    def __init__(self):
        Node.__init__(self)
        self.to_save = ()
        self._saved = None
        self._freed = False
        self.materialize_grads = True
        self.non_differentiable = ()

    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if self._saved is None:  # still inside forward
            return tuple(self.to_save)
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in self._saved)

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        # (``backward`` computes what it computes: PyTorch cannot skip parts of a user's function)
        from ..tensor import zeros_like_tensor

        # backward gets one gradient per output, also for outputs no gradient reached (the
        # engine's buffer only extends to the highest output that got one).
        grad_outputs = list(grad_outputs) + [None] * (len(self._output_meta) - len(grad_outputs))
        grads = [
            g if g is not None or not self.materialize_grads else zeros_like_tensor(out)
            for g, out in zip(grad_outputs, self._output_meta)
        ]
        result = self.function.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) < len(self.needs_input_grad):
            raise RuntimeError(
                f"function {self._name} returned an incorrect number of gradients (expected "
                f"{len(self.needs_input_grad)}, got {len(result)})"
            )
        result = result[: len(self.needs_input_grad)]
        fitted = []
        for i, (g, need, shape) in enumerate(zip(result, self.needs_input_grad, self._input_shapes)):
            if g is None or not need:
                fitted.append(None)
                continue
            if g.shape != shape:
                raise RuntimeError(
                    f"Function {self._name} returned an invalid gradient at index {i} - got "
                    f"{list(g.shape)} but expected shape compatible with {list(shape)}"
                )
            if g.device != self._input_devices[i]:
                raise RuntimeError(
                    f"Function {self._name} returned an invalid gradient at index {i} - expected device "
                    f"{self._input_devices[i]} but got {g.device}"
                )
            fitted.append(g)
        return tuple(fitted)

    def release(self) -> None:
        self._freed = True
        if self._saved:
            for s in self._saved:
                if isinstance(s, SavedTensor):
                    s.release()

    @property
    def is_freed(self) -> bool:
        return self._freed and bool(self._saved)


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(f"{name}Backward", (BackwardCFunction,), {"_name": f"{name}Backward", "function": cls})


class Function(metaclass=_FunctionMeta):
    """Base class for custom operations with a hand-written ``backward``.

    Define ``forward(ctx, *args)`` (or ``forward(*args)`` plus ``setup_context(ctx, inputs,
    output)``) and ``backward(ctx, *grad_outputs)``, then call ``MyFunction.apply(*args)``.
    """

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx: FunctionCtx, inputs: tuple, output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @classmethod
    def apply(cls, *args):
        from ..tensor import Tensor

        node = cls._backward_cls()
        tensors = [a for a in args if isinstance(a, Tensor)]
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        separate_setup = cls.setup_context is not Function.setup_context
        with no_grad():
            output = cls.forward(*args) if separate_setup else cls.forward(node, *args)
        if separate_setup:
            cls.setup_context(node, args, output)
        is_tuple = isinstance(output, tuple)
        outputs = output if is_tuple else (output,)
        record = is_grad_enabled() and any(t.requires_grad for t in tensors)
        wrapped = []
        for i, out in enumerate(outputs):
            if not isinstance(out, Tensor):
                wrapped.append(out)
                continue
            if any(out is a for a in args):  # an input returned as is becomes a new tensor
                out = out.detach()
            differentiable = (
                record and out.dtype.is_floating_point and not any(out is n for n in node.non_differentiable)
            )
            if differentiable:
                out._requires_grad, out._grad_fn, out._output_nr = True, node, i
            wrapped.append(out)
        if record:
            node.next_functions = tuple(
                gradient_edge(a) if isinstance(a, Tensor) and a.requires_grad else (None, 0) for a in args
            )
            node._input_shapes = tuple(a.shape if isinstance(a, Tensor) else None for a in args)
            node._input_devices = tuple(a.device if isinstance(a, Tensor) else None for a in args)
            node._saved = tuple(
                SavedTensor(t, is_output=t.grad_fn is node, grad_fn=node) if isinstance(t, Tensor) else t
                for t in node.to_save
            )
            node._output_meta = tuple(_Meta(o) for o in wrapped)
        return tuple(wrapped) if is_tuple else wrapped[0]


class _Meta:
    """Shape/dtype/device of an output, enough to make zeros for an unused output's gradient."""

    def __init__(self, t):
        self.shape, self.dtype, self.device = t.shape, t.dtype, t.device


def once_differentiable(fn):
    """Marks a backward that cannot itself be differentiated (accepted for compatibility)."""
    return fn
