"""The nodes of the backward graph.

A tensor made by a recorded operation points to its ``grad_fn``: a :class:`Node` that knows how
to turn the gradient of that tensor into gradients of the operation's inputs, and where to send
them (``next_functions``). Leaves that require grad are reached through an
:class:`AccumulateGrad` node, which adds the gradient into ``leaf.grad``.
"""

from __future__ import annotations

import itertools
import re
import sys
import weakref
from types import MappingProxyType
from typing import TYPE_CHECKING

from .. import backend
from .. import hooks as _hooks

if TYPE_CHECKING:
    from ..tensor import Tensor

_sequence = itertools.count()
# Reference counts are exact in CPython up to 3.13; later versions may borrow references, so a
# count could look too small there: gradients are always copied then.
_STEALS = sys.implementation.name == "cpython" and sys.version_info < (3, 14)
_EMPTY = MappingProxyType({})

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling backward."
)


class Node:
    """One step of the backward pass (what ``tensor.grad_fn`` holds).

    ``next_functions`` is a tuple of ``(node, input_nr)`` pairs, one per input of the operation,
    with ``(None, 0)`` for inputs that need no gradient.
    """

    _name = "Node"
    # Hooks are rare: read-only empty defaults, replaced by a dict on first registration.
    _tensor_hooks: dict[int, dict] = _EMPTY  # output_nr -> hooks of the tensor it made
    _retained: dict[int, weakref.ref] = _EMPTY  # output_nr -> tensor with retain_grad()
    _pre_hooks: dict = _EMPTY
    _post_hooks: dict = _EMPTY
    _hooked = False  # True once any of the above is registered: the engine skips them otherwise

    def __init__(self, next_functions: tuple = ()):
        self.next_functions = next_functions
        self._sequence_nr = next(_sequence)  # later nodes run first, as in PyTorch

    @property
    def metadata(self) -> dict:
        """A dict for your own notes about this node (as PyTorch's ``Node.metadata``)."""
        if "_metadata" not in self.__dict__:
            self._metadata = {}
        return self._metadata

    def _own(self, attr: str) -> dict:
        """The hook dict ``attr`` of this node, created on first use."""
        if attr not in self.__dict__:
            setattr(self, attr, {})
            self._hooked = True
        return self.__dict__[attr]

    def name(self) -> str:
        """The PyTorch name of this node, e.g. ``'MulBackward0'``."""
        return self._name

    def __repr__(self) -> str:
        return f"<{self._name} object at {hex(id(self))}>"

    # --- hooks on the node itself (PyTorch's Node.register_hook / register_prehook) ---
    def register_prehook(self, fn) -> _hooks.RemovableHandle:
        """``fn(grad_outputs) -> grad_outputs or None`` runs before this node."""
        return _hooks.add_hook(self._own("_pre_hooks"), fn)

    def register_hook(self, fn) -> _hooks.RemovableHandle:
        """``fn(grad_inputs, grad_outputs) -> grad_inputs or None`` runs after this node."""
        return _hooks.add_hook(self._own("_post_hooks"), fn)

    # --- what the engine calls ---
    def tensor_hooks(self, output_nr: int):
        """Hooks registered on the tensor this node produced at ``output_nr``."""
        hooks = self._tensor_hooks.get(output_nr)
        return hooks.values() if hooks else ()

    def retained_tensor(self, output_nr: int):
        ref = self._retained.get(output_nr)
        return ref() if ref is not None else None

    def apply(self, grad_outputs: list, create_graph: bool) -> tuple:
        raise NotImplementedError

    def release(self) -> None:
        """Free saved tensors (after a backward without ``retain_graph``)."""

    @property
    def is_freed(self) -> bool:
        return False


class AccumulateGrad(Node):
    """The end of a path: adds the incoming gradient into ``variable.grad`` of a leaf."""

    _name = "AccumulateGrad"

    def __init__(self, variable: Tensor):
        super().__init__(())
        self.variable = variable
        self._sequence_nr = float("inf")  # PyTorch runs accumulation as soon as it is ready
        self._hooked = bool(variable._hooks)  # the leaf's own hooks (register_hook sets it later)

    def tensor_hooks(self, output_nr: int):
        return self.variable._hooks.values()

    def apply(self, grad_outputs: list, create_graph: bool) -> tuple:
        leaf = self.variable
        new = grad_outputs[0]
        if leaf._grad is None:
            # Take the gradient itself when nothing else refers to it (PyTorch "steals" it too);
            # otherwise copy, so that later in-place work on leaf.grad cannot touch another
            # tensor. The references expected: the engine's list, `new`, getrefcount's argument.
            if create_graph:
                leaf._grad = new
            elif _STEALS and sys.getrefcount(new) <= 3 and _unshared(new):
                leaf._grad = type(new)._make(new._data)  # detached, and not a view
            else:
                leaf._grad = new.detach().clone()
        elif create_graph or leaf._grad.requires_grad:
            leaf._grad = leaf._grad + new
        else:
            leaf._grad._accumulate_(new)
        for hook in tuple(leaf._post_accumulate_hooks.values()):
            hook(leaf)
        return ()


def _unshared(grad: Tensor) -> bool:
    """True when nothing but ``grad`` refers to its memory, nor to the tensor it is a view of
    (a transposed weight gradient is a view of the product computed for it)."""
    base = grad._base
    if base is None:
        return backend.unshared(grad._data)
    # The base is held by `grad._base` (+ `base` and the argument); its array by the base and
    # by the view's array.
    return sys.getrefcount(base) <= 3 and backend.unshared(grad._data, holders=2)


def gradient_edge(tensor: Tensor) -> tuple:
    """Where the gradient of ``tensor`` goes: its grad_fn, its AccumulateGrad, or nowhere."""
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if tensor.requires_grad:
        return (tensor._grad_accumulator(), 0)
    return (None, 0)


class SavedTensor:
    """A tensor kept for backward, with the version it had then (to catch in-place changes).

    An operation's own result is stored without a reference to the result tensor, so a tensor
    and its ``grad_fn`` don't keep each other alive; it is rebuilt on unpacking.
    """

    __slots__ = ("tensor", "data", "counter", "version", "output_nr", "view_of")

    def __init__(self, tensor: Tensor, is_output: bool = False, grad_fn: Node | None = None):
        self.counter = tensor._version_counter
        self.version = self.counter.value
        self.output_nr = tensor._output_nr if is_output else None
        self.view_of = None  # for the result of an in-place op on a view: its base's CopySlices
        if is_output:
            self.tensor, self.data = None, tensor._data
        else:
            self.tensor, self.data = tensor, None

    def unpack(self, owner: Node) -> Tensor:
        if self.counter is None:
            raise RuntimeError(FREED_MESSAGE)
        if self.counter.value != self.version:
            # A saved input is described as it is now (PyTorch names its current grad_fn).
            if self.tensor is None:
                description = _describe(_tensor.Tensor._make(self.data, output_nr=self.output_nr), owner)
            else:
                description = _describe(self.tensor, None)
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: {description} is at version {self.counter.value}; "
                f"expected version {self.version} instead. Hint: {owner.name()} saved this tensor "
                "for its backward; compute the new value out of place (y = y * 2 rather than "
                "y *= 2) or modify a .clone() of it. Hint: enable anomaly detection to find the "
                "operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        if self.view_of is not None:  # (a weak reference: the CopySlices node owns the owner)
            return self.view_of().view_result(self.counter)
        if self.tensor is None:  # the owner's own output, rebuilt
            t = _tensor.Tensor._make(self.data, requires_grad=True, grad_fn=owner, output_nr=self.output_nr)
            t._version_counter = self.counter
            return t
        return self.tensor

    def release(self) -> None:
        self.tensor = self.data = self.counter = None

    @property
    def is_output(self) -> bool:
        return self.output_nr is not None


def _describe(tensor: Tensor, grad_fn: Node | None) -> str:
    text = f"[{_tensor._legacy_type_name(tensor)} [{', '.join(map(str, tensor.shape))}]]"
    grad_fn = grad_fn if grad_fn is not None else tensor.grad_fn
    if grad_fn is not None:
        # PyTorch 2.13 names the forward operation here: "Exp" for ExpBackward0, "Pow1" for PowBackward1.
        text += f", which is output {tensor._output_nr} of {re.sub(r'Backward(0$)?', '', grad_fn.name())},"
    return text


# Last: the tensor module imports the engine, which imports this module's classes.
from .. import tensor as _tensor  # noqa: E402
