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

``apply`` does what PyTorch's does around the two methods: ``forward`` runs under ``no_grad``,
then each tensor it returns is given the node as its ``grad_fn`` (an input returned as it is
becomes a view of that input first; one marked with ``ctx.mark_dirty`` keeps its identity and
gets the node as an in-place operation would). In backward the node checks what ``backward``
returns: one gradient per input of ``forward``, each a tensor or None, of a shape that can be
summed to its input's, and cast to its input's dtype.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from .. import _warn
from .grad_mode import is_grad_enabled, no_grad
from .graph import FREED_MESSAGE, Node, SavedTensor, gradient_edge

ONCE_DIFFERENTIABLE_MESSAGE = "trying to differentiate twice a function that was marked with @once_differentiable"
DIRTY_VIEW_MESSAGE = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function "
    "cannot return more than one Tensor. This is not supported by the current autograd engine. "
    "You should either make sure the input is not a view (using .clone() for example) or make "
    "your Function only return one Tensor (potentially splitting it into two Functions: one doing "
    "the inplace that returns a single Tensor and a second one that does the other operations)."
)

SAVED_INPUT_MESSAGE = (
    "An input that has been returned as-is as output is being saved for backward. This is not "
    "supported if you override setup_context. You should return and save a view of the input "
    "instead, e.g. with x.view_as(x) or setup ctx inside the forward function itself."
)


class FunctionCtx:
    """What ``forward`` and ``backward`` of a custom Function share (``ctx``)."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors (or None) for ``backward``, read there as ``ctx.saved_tensors``; in-place
        changes to them after ``forward`` are detected there."""
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Say that these outputs have no gradient: they don't require grad, and ``backward``
        gets zeros for them."""
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors) -> None:
        """Say that ``forward`` changed these inputs in place. Each must also be returned: it
        stays the same tensor, its version goes up, and its ``grad_fn`` becomes this Function's
        node (a leaf that requires grad is refused, as for any in-place operation)."""
        self.dirty_tensors = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` gets None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The backward node of one ``Function.apply`` call; it is also the ``ctx``.

    Its ``next_functions`` has one edge per tensor argument of ``forward`` (none for numbers and
    other arguments, as in PyTorch); ``needs_input_grad`` has one entry per argument.
    """

    function: type

    def __init__(self):
        Node.__init__(self)
        self.to_save = ()
        self._saved = None
        self._freed = False
        self.materialize_grads = True
        self.non_differentiable = ()
        self.dirty_tensors = ()

    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if self._saved is None:  # still inside forward: nothing is saved yet, as in PyTorch
            return ()
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in self._saved)

    @property
    def saved_variables(self) -> tuple:
        """The deprecated name of ``saved_tensors``."""
        _warn.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning)
        return self.saved_tensors

    @property
    def _raw_saved_tensors(self) -> tuple:
        """The :class:`SavedTensor` objects behind ``saved_tensors`` (None where None was saved), to
        ``register_hooks`` on, as PyTorch's ``grad_fn._raw_saved_tensors``."""
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        return self._saved or ()

    _runs_without_gradients = True  # backward runs even when no gradient reached the outputs

    @property
    def _n_outputs(self) -> int:
        return len(self._output_meta)

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        # (``backward`` computes what it computes: PyTorch cannot skip parts of a user's function)
        from ..tensor import zeros_like_tensor

        # backward gets one gradient per output, also for outputs no gradient reached (the
        # engine's buffer only extends to the highest output that got one); None for outputs
        # that are not tensors.
        grad_outputs = list(grad_outputs) + [None] * (self._n_outputs - len(grad_outputs))
        grads = [
            zeros_like_tensor(out) if g is None and out is not None and self.materialize_grads else g
            for g, out in zip(grad_outputs, self._output_meta)
        ]
        result = self._user_backward()(self, *grads)
        return self._check_gradients(result if isinstance(result, tuple) else (result,))

    def _user_backward(self):
        """The Function's ``backward``, or its ``vjp`` (another name for it), as PyTorch picks it."""
        backward, vjp = self.function.backward, self.function.vjp
        if backward is not Function.backward and vjp is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You "
                "should only implement one of them."
            )
        return vjp if vjp is not Function.vjp else backward

    def _check_gradients(self, result: tuple) -> tuple:
        """The gradients ``backward`` returned (one per argument of forward), checked as PyTorch
        checks them and fitted to the tensor inputs: one per edge of this node."""
        from ..tensor import Tensor
        from .op import _fit

        expected = len(self._is_tensor_input)
        # Extra results are allowed when they are all None (PyTorch drops them).
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise RuntimeError(
                f"function {self._name} returned an incorrect number of gradients (expected "
                f"{expected}, got {len(result)})"
            )
        per_tensor = []
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor_input)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(
                        f"function {self._name} returned a gradient different than None at position "
                        f"{i + 1}, but the corresponding forward input was not a Variable"
                    )
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            per_tensor.append(g)
        fitted = []
        for i, (g, (nxt, _), meta) in enumerate(zip(per_tensor, self.next_functions, self.input_meta)):
            if g is None or nxt is None:  # no gradient, or an input that needs none: PyTorch passes it
                fitted.append(g)  # on unchecked (node hooks see it), and the engine drops it
                continue
            shape = meta[0]
            # As for any node, a gradient may have the broadcast shape of its input: it is summed
            # back to that shape (and cast to the input's dtype, below).
            if g.shape != shape and not _expandable(shape, g.shape):
                raise RuntimeError(
                    f"Function {self._name} returned an invalid gradient at index {i} - got "
                    f"{list(g.shape)} but expected shape compatible with {list(shape)}"
                )
            if g.device != self._input_devices[i]:
                raise RuntimeError(
                    f"Function {self._name} returned an invalid gradient at index {i} - expected device "
                    f"{self._input_devices[i]} but got {g.device}"
                )
            fitted.append(_fit(g, meta))
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


def _expandable(shape: tuple, to: tuple) -> bool:
    """Whether ``shape`` broadcasts to ``to`` (PyTorch's ``is_expandable_to``)."""
    if len(shape) > len(to):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(to)))


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(f"{name}Backward", (BackwardCFunction,), {"_name": f"{name}Backward", "function": cls})


class Function(metaclass=_FunctionMeta):
    """Base class for custom operations with a hand-written ``backward``.

    Define ``forward(ctx, *args)`` (or ``forward(*args)`` plus ``setup_context(ctx, inputs,
    output)``) and ``backward(ctx, *grad_outputs)``, then call ``MyFunction.apply(*args)``
    (arguments may also be given by the names of forward's parameters).
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _warn.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # PyTorch's old style, ``MyFunction()(x)``, which it no longer runs: use ``MyFunction.apply(x)``
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        from ..tensor import Tensor

        separate_setup = cls.setup_context is not Function.setup_context
        args = _positional_arguments(cls, separate_setup, args, kwargs)
        node = cls._backward_cls()
        tensors = [a for a in args if isinstance(a, Tensor)]
        node._is_tensor_input = tuple(isinstance(a, Tensor) for a in args)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        # Decided before forward runs, as in PyTorch: forward may change its inputs in place,
        # and the edges must lead to where their values came from.
        record = is_grad_enabled() and any(node.needs_input_grad)
        if record:
            node.next_functions = tuple(gradient_edge(t) for t in tensors)
            node.input_meta = tuple((t._data.shape, t._data.dtype) for t in tensors)
            node._input_devices = tuple(t.device for t in tensors)
        with no_grad():
            if separate_setup:
                output = cls.forward(*args)
                cls.setup_context(node, args, output)
            else:
                output = cls.forward(node, *args)
        is_tuple = isinstance(output, tuple)
        outputs = output if is_tuple else (output,)
        if record:
            _check_saved(node.to_save)
        wrapped, differentiable = _wrap_outputs(node, tensors, outputs, record, separate_setup)
        if record:
            # After wrapping, as PyTorch does: a saved output is kept as the node's own output.
            node._saved = tuple(
                SavedTensor(t, is_output=any(t is o for o in differentiable), grad_fn=node) if t is not None else None
                for t in node.to_save
            )
            node._output_meta = tuple(_Meta(o) if isinstance(o, Tensor) else None for o in wrapped)
        # As PyTorch, let go of what forward marked and saved (backward reads saved_tensors), so
        # that the node keeps no tensor alive once backward has freed it.
        node.to_save = node.dirty_tensors = node.non_differentiable = None
        return tuple(wrapped) if is_tuple else wrapped[0]


def _positional_arguments(cls, separate_setup: bool, args: tuple, kwargs: dict) -> tuple:
    """``apply``'s arguments as positional ones, keyword arguments put where forward's parameter
    of that name is (as PyTorch does; with ``setup_context``, its defaults are filled in too, so
    ``setup_context`` sees every input)."""
    if not kwargs and not separate_setup:  # the common call: nothing to place
        return args
    signature = inspect.signature(cls.forward)
    if separate_setup:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        args, kwargs = bound.args, bound.kwargs
    if not kwargs:
        return args
    names = [p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = names if separate_setup else names[1:]  # (without ctx)
    slots = dict(enumerate(args))
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{key}'")
        if names.index(key) < len(args):
            raise TypeError(f"forward() got multiple values for argument '{key}'")
        slots[names.index(key)] = value
    for i in range(max(slots) + 1):  # keywords may not skip a parameter (forward's defaults are not read)
        if i not in slots:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
    return tuple(slots[i] for i in range(len(slots)))


def _check_saved(to_save: tuple) -> None:
    from ..tensor import Tensor

    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of type {type(t).__name__}"
            )


def _wrap_outputs(
    node: BackwardCFunction, inputs: list, outputs: tuple, record: bool, separate_setup: bool
) -> tuple[list, list]:
    """What ``apply`` returns for ``forward``'s ``outputs`` (PyTorch's ``_wrap_outputs``), and
    which of those tensors are differentiable outputs of ``node``. Values that are not tensors
    are returned untouched. (``separate_setup``: the Function has its own ``setup_context``.)"""
    from ..tensor import _CUSTOM_FUNCTION_VIEW_ADVICE, _MULTI_VIEW_ADVICE, Tensor

    for t in node.non_differentiable:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"mark_non_differentiable only accepts variable arguments, but got {type(t).__name__}")
    for i, t in enumerate(node.dirty_tensors):
        if not isinstance(t, Tensor):
            raise RuntimeError(f"mark_dirty can only accept variables, but argument {i} is of type {type(t).__name__}")
        t._version_counter.value += 1  # PyTorch counts one more change (on top of forward's in-place ops)

    def is_differentiable(out) -> bool:
        return (
            record
            and isinstance(out, Tensor)
            and out.dtype.is_floating_point
            and not any(out is t for t in node.non_differentiable)
        )

    flags = [is_differentiable(out) for out in outputs]
    # Changing an output view in place would route its gradient around the custom backward, so
    # PyTorch forbids it, and forbids it when its base changes (also for outputs without a
    # gradient, and under no_grad); with its advice for several views when there are several
    # differentiable outputs.
    view_advice = _MULTI_VIEW_ADVICE if sum(flags) > 1 else _CUSTOM_FUNCTION_VIEW_ADVICE
    wrapped, differentiable = [], []
    for i, (out, flag) in enumerate(zip(outputs, flags)):
        if not isinstance(out, Tensor):
            wrapped.append(out)
            continue
        is_input = any(out is t for t in inputs)
        is_dirty = any(out is t for t in node.dirty_tensors)
        saved = separate_setup and any(out is t for t in node.to_save)
        if not flag:
            out = _non_differentiable(out, is_input, is_dirty, saved)
        elif is_dirty:
            _rebase_history(out, node, i, is_input, len(outputs))
            differentiable.append(out)
        else:
            if is_input:  # a new tensor is needed to carry the node: a view of the input
                out = _view_of_input(out, saved)
            out._requires_grad, out._grad_fn, out._output_nr = True, node, i
            if out._base is not None:  # its node is this one, made after forward's in-place changes
                out._view_version = out._version_counter.value
            differentiable.append(out)
        if out._base is not None and not (is_input and is_dirty):
            out._view_no_grad, out._locked_view = False, view_advice
        wrapped.append(out)

    for t in node.dirty_tensors:
        if not any(t is o for o in outputs):
            raise RuntimeError(
                "Some elements marked as dirty during the forward method were not returned as output. "
                "The inputs that are modified inplace must all be outputs of the Function."
            )
    return wrapped, differentiable


def _non_differentiable(out, is_input: bool, is_dirty: bool, saved: bool):
    """An output without a gradient: what PyTorch returns for it."""
    if not out.requires_grad:
        # An input returned as it is still becomes a new tensor: a view of it.
        return _view_of_input(out, saved) if is_input and not is_dirty else out
    if is_input:  # a detached alias: the input's own requires_grad is left alone
        return out.detach()
    if out._base is None:
        out.detach_()
    return out  # (a view of an input, taken under no_grad in forward, requires grad as such views do)


def _view_of_input(t, saved: bool):
    """The view that stands for an input returned as it is. ``saved``: ``setup_context`` saved the
    input itself, which PyTorch refuses (the view, not the input, is the output to save)."""
    if saved:
        raise RuntimeError(SAVED_INPUT_MESSAGE)
    return _view_of(t)


def _view_of(t):
    """``t.view_as(t)`` outside the graph: a new tensor that shows ``t``'s memory."""
    with no_grad():
        return t.view_as(t)


def _rebase_history(t, node: BackwardCFunction, output_nr: int, is_input: bool, num_outputs: int) -> None:
    """Make ``node`` the last operation on ``t``, which forward changed in place (mark_dirty), as
    an in-place operation does: ``t`` keeps its identity and gets ``node`` as its ``grad_fn``; a
    view's base gets a ``CopySlices`` node instead."""
    from .. import functions as F

    if t._grad_fn is None and t._requires_grad:  # (a leaf that is a view too: x = a.view(2).requires_grad_())
        raise RuntimeError(
            "a leaf Variable that requires grad has been used in an in-place operation. (The "
            "Function marked it with ctx.mark_dirty; give it a clone of the leaf instead.)"
        )
    if not is_input:
        _warn.warn(
            "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
            "been mutated should be passed to ctx.mark_dirty().",
            UserWarning,
        )
    if t._base is None:
        t._grad = None  # a retained gradient belonged to the old value
        old_fn, old_nr = t._grad_fn, t._output_nr
        t._grad_fn, t._output_nr, t._requires_grad = node, output_nr, True
        t._move_retained_grad(old_fn, old_nr)
        return
    if num_outputs > 1:  # CopySlices passes on the gradient of a single output
        raise RuntimeError(DIRTY_VIEW_MESSAGE)
    t._check_inplace_on_view()  # a view of a leaf, or a view that may not be changed in place
    t._grad = None  # (only now: a refused change leaves the view's gradient alone)
    base = t._base
    old_fn, old_nr = base._grad_fn, base._output_nr
    base._grad_fn = F.CopySlices(base, node, F._steps_now(t, writing=True))
    base._output_nr, base._requires_grad = 0, True
    base._move_retained_grad(old_fn, old_nr)
    t._regenerate_view()  # the view's own grad_fn, taken again from its base's new one


class _Meta:
    """Shape/dtype/device of an output, enough to make zeros for an unused output's gradient."""

    def __init__(self, t):
        self.shape, self.dtype, self.device = t.shape, t.dtype, t.device


class _DelayedError(Node):
    """The node behind the gradients of a ``@once_differentiable`` backward in a recorded
    backward pass: differentiating them again raises (PyTorch's ``DelayedError``). Its edges
    lead to detached copies of those gradients, so the graph ends there."""

    _name = "Error"

    def __init__(self, message: str, next_functions: tuple):
        super().__init__(next_functions)
        self.message = message

    @property
    def _n_outputs(self) -> int:
        return len(self.next_functions)  # one result per gradient it was made for

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        raise RuntimeError(self.message)


def once_differentiable(fn):
    """Mark a ``backward`` that cannot itself be differentiated, as PyTorch's decorator does.

    ``backward`` runs under ``no_grad``. When a graph is recorded (``create_graph=True``) and a
    gradient it gets requires grad, the gradients it returns lead to a node that raises
    ``RuntimeError`` if a later backward pass reaches it.
    """

    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        from ..tensor import Tensor

        with no_grad():
            outputs = fn(ctx, *args, **kwargs)
        if not is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        # Stand-ins that require grad, so that the results have a node: the error. (Like PyTorch,
        # it takes every result but None for a tensor: a number fails here with AttributeError.)
        stand_ins = [o.detach().requires_grad_() if o is not None else None for o in outputs]
        node = _DelayedError(
            ONCE_DIFFERENTIABLE_MESSAGE,
            tuple(gradient_edge(s) if s is not None else (None, 0) for s in stand_ins),
        )
        results = tuple(
            Tensor._make(o._data, requires_grad=True, grad_fn=node, output_nr=i) if isinstance(o, Tensor) else o
            for i, o in enumerate(outputs)
        )
        return results[0] if single else results

    return wrapper
