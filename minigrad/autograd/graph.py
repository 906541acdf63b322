"""The nodes of the backward graph.

A tensor made by a recorded operation points to its ``grad_fn``: a :class:`Node` that knows how
to turn the gradient of that tensor into gradients of the operation's inputs, and where to send
them (``next_functions``). Leaves that require grad are reached through an
:class:`AccumulateGrad` node, which adds the gradient into ``leaf.grad``.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
import sys
import weakref
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from .. import backend
from .. import hooks as _hooks
from .anomaly_mode import _state as _anomaly
from .anomaly_mode import record_forward_stack
from .grad_mode import is_grad_enabled, set_grad_enabled

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
INFERENCE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
    "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
    "normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
)
PACK_MODIFIES_MESSAGE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack hook."
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
    # PyTorch runs every node on the way, also one that no gradient reached: its hooks see None,
    # and its own nodes unpack what they saved and give no gradient. Nodes that run their code
    # all the same (a custom Function's backward, AccumulateGrad's post-accumulate hooks) say so.
    _runs_without_gradients = False

    def __init__(self, next_functions: tuple = ()):
        self.next_functions = next_functions
        self._sequence_nr = next(_sequence)  # later nodes run first, as in PyTorch
        if _anomaly.enabled:
            record_forward_stack(self)

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

    @property
    def _n_outputs(self) -> int:
        """How many tensors the forward operation made: the gradients this node takes."""
        return 1

    def name(self) -> str:
        """The PyTorch name of this node, e.g. ``'MulBackward0'``."""
        return self._name

    def __repr__(self) -> str:
        return f"<{self._name} object at {hex(id(self))}>"

    def __call__(self, *grad_outputs):
        """Run this node's backward step by hand, as PyTorch's ``grad_fn(grad)``: the gradients
        for its edges (one tensor when it has one edge; an ``AccumulateGrad`` adds into ``.grad``
        and gives ``()``). Recorded when grad mode is on, as any operation.

        >>> import minigrad as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> (x * 3).grad_fn(torch.ones(2))
        (tensor([3., 3.]), None)
        """
        if not grad_outputs:
            raise TypeError("expected 1 arguments, got 0 instead")
        grads = self.apply(list(grad_outputs), is_grad_enabled())
        return grads[0] if len(grads) == 1 else tuple(grads)

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

    def all_tensor_hooks(self) -> list:
        """``(output_nr, hook)`` for the hooks of all the tensors this node produced: tensor by
        tensor in the order each got its first hook, as PyTorch's one list per node (not by
        output number)."""
        return [(nr, hook) for nr, hooks in self._tensor_hooks.items() for hook in tuple(hooks.values())]

    def retained_tensor(self, output_nr: int):
        ref = self._retained.get(output_nr)
        return ref() if ref is not None else None

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        """The gradients for this node's edges, given those of its outputs. ``wanted``, when given,
        says per edge whether its gradient is needed (``autograd.grad`` asks only for the paths
        to its inputs, and PyTorch's nodes compute only those); None: every edge's."""
        raise NotImplementedError

    def unpack_saved(self) -> None:
        """Unpack what this node saved, as PyTorch's nodes do first when they run: a value that
        was changed in place, or freed by an earlier backward, raises even if no gradient came."""

    def release(self) -> None:
        """Free saved tensors (after a backward without ``retain_graph``)."""

    @property
    def is_freed(self) -> bool:
        return False


class AccumulateGrad(Node):
    """The end of a path: adds the incoming gradient into ``variable.grad`` of a leaf."""

    _name = "AccumulateGrad"
    _runs_without_gradients = True  # its post-accumulate hooks run even then, as in PyTorch

    def __init__(self, variable: Tensor):
        super().__init__(())
        self.variable = variable
        self._sequence_nr = float("inf")  # PyTorch runs accumulation as soon as it is ready
        self._hooked = bool(variable._hooks)  # the leaf's own hooks (register_hook sets it later)

    def tensor_hooks(self, output_nr: int):
        return self.variable._hooks.values()

    def all_tensor_hooks(self) -> list:
        return [(0, hook) for hook in self.variable._hooks.values()]

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        leaf = self.variable
        if not leaf._requires_grad:  # it was detached or switched off since: PyTorch accumulates nothing
            return ()
        new = grad_outputs[0]
        if new is None:  # no gradient reached it
            return _accumulated(leaf)
        if leaf._grad_fn is not None:  # detached, then changed in place by a recorded op: as PyTorch
            raise RuntimeError("leaf variable has been moved into the graph interior")
        if leaf._grad is None:
            # Take the gradient itself when nothing else refers to it (PyTorch "steals" it too);
            # otherwise copy, so that later in-place work on leaf.grad cannot touch another
            # tensor. The references expected: the engine's list, `new`, getrefcount's argument.
            if create_graph:  # a copy, which records CopyBackwards when the gradient has a graph
                from ..functions import contiguous_op, copy_op

                # into an empty tensor laid out as the leaf, as PyTorch
                if backend.dense(leaf._data) or not leaf._data.size:
                    leaf._grad = copy_op(leaf.detach(), new)
                    leaf._grad._data = backend.clone(leaf._grad._data, _grad_strides(leaf))
                else:  # a leaf with gaps: PyTorch's row-major clone (CloneBackward0)
                    leaf._grad = contiguous_op(new)
            elif _STEALS and sys.getrefcount(new) <= 3 and _unshared(new) and _obeys_layout(new, leaf):
                leaf._grad = type(new)._make(new._data)  # detached, and not a view
                leaf._grad._version_counter = new._version_counter  # the same tensor, to PyTorch
                return _accumulated(leaf)
            elif new._data.shape != leaf._data.shape:
                # the leaf changed its shape in place since the forward pass (x.squeeze_() under
                # no_grad): PyTorch copies the gradient into the leaf's shape, broadcasting it
                leaf._grad = leaf.detach().new_empty(leaf.shape).copy_(new)
            else:
                leaf._grad = type(new)._make(backend.clone(new._data, _grad_strides(leaf)))
            leaf._grad._version_counter.value = 1  # PyTorch's copy is an empty tensor and a copy_
        elif create_graph:
            leaf._grad = leaf._grad + new
        elif leaf._grad._requires_grad or leaf._grad._data.shape != new._data.shape:
            # in place too, not recorded (grad mode is off); add_ also says what is wrong when
            # .data was given another shape since the forward pass
            leaf._grad.add_(new)
        else:
            leaf._grad._accumulate_(new)
        return _accumulated(leaf)


def _accumulated(leaf: Tensor) -> tuple:
    """Call the leaf's post-accumulate hooks; AccumulateGrad passes no gradient on."""
    for hook in tuple(leaf._post_accumulate_hooks.values()):
        if hook(leaf) is not None:  # it works on leaf.grad in place; a result would be lost
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")
    return ()


def _grad_strides(leaf: Tensor) -> tuple:
    """PyTorch's gradient layout contract: a leaf's ``.grad`` is laid out as the leaf when the leaf
    is dense (a transposed weight gets a transposed gradient), else row-major."""
    data = leaf._data
    return backend.element_strides(data) if backend.dense(data) else backend.row_major_strides(data.shape)


def _obeys_layout(grad: Tensor, leaf: Tensor) -> bool:
    """Whether ``grad`` may become ``leaf.grad`` as it is (see :func:`_grad_strides`)."""
    if grad._data.shape != leaf._data.shape and backend.dense(leaf._data):
        # the leaf changed its shape in place since the forward pass (x.squeeze_() under no_grad):
        # PyTorch compares the strides dimension by dimension, as far as both have dimensions
        pairs = zip(grad._data.shape, backend.element_strides(grad._data), backend.element_strides(leaf._data))
        return all(own != 0 if size == 1 else own == its for size, own, its in pairs)
    if leaf._data.flags.c_contiguous:  # the common case: a row-major leaf (and a row-major grad, see _unshared)
        return grad._data.flags.c_contiguous
    return backend.same_layout(grad._data.shape, backend.element_strides(grad._data), _grad_strides(leaf))


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
    if tensor._requires_grad:  # (not a view that requires grad only because its base does: no edge, as in PyTorch)
        return (tensor._grad_accumulator(), 0)
    return (None, 0)


_ANOMALY_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
_ANOMALY_HINT_ON = (
    "Hint: the backtrace further above shows the operation that failed to compute its gradient. The "
    "variable in question was changed in there or anywhere later. Good luck!"
)


class SavedTensor:
    """A tensor kept for backward, with the version it had then (to catch in-place changes).

    An operation's own result is stored without a reference to the result tensor, so a tensor
    and its ``grad_fn`` don't keep each other alive; it is rebuilt on unpacking.
    """

    __slots__ = ("tensor", "data", "counter", "version", "output_nr", "view_of", "packed", "unpack_hook", "edge")

    def __init__(self, tensor: Tensor, is_output: bool = False, grad_fn: Node | None = None):
        if tensor._inference:
            raise RuntimeError(INFERENCE_MESSAGE)
        self.counter = tensor._version_counter
        self.version = self.counter.value
        self.output_nr = tensor._output_nr if is_output else None
        self.view_of = None  # for the result of an in-place op on a view: its base's CopySlices
        self.unpack_hook = None
        if is_output:
            self.tensor, self.data = None, tensor._data
        else:
            self.tensor, self.data = tensor, None
        if _default_hooks and not tensor._wrapped_number:  # numbers an op wrapped are not the user's
            if is_output and tensor._grad_fn is None:  # (an op saves its result before setting grad_fn)
                tensor = _tensor.Tensor._make(tensor._data, True, grad_fn, self.output_nr)
                tensor._version_counter = self.counter
            self._pack(tensor, *_default_hooks[-1])

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        """Pack this saved tensor now with ``pack_hook``; its backward gets ``unpack_hook``'s
        result instead (reached as ``grad_fn._raw_saved_<name>``, as in PyTorch)."""
        if self.unpack_hook is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            )
        if self.counter is None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
                "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or if you "
                "need to access saved variables after calling backward."
            )
        tensor = self.tensor if self.tensor is not None else _tensor.Tensor._make(self.data)
        self._pack(tensor, pack_hook, unpack_hook, tensor.detach())

    def _pack(self, tensor: Tensor, pack_hook, unpack_hook, given: Tensor | None = None) -> None:
        """Keep ``pack_hook(tensor)`` instead of the tensor, and where its gradient goes, to
        rebuild it on unpacking (PyTorch then checks no version: the hooks own the values)."""
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError("saved tensor hooks must be callable: pack_hook(tensor) and unpack_hook(packed)")
        version = self.counter.value
        with set_grad_enabled(False):
            packed = pack_hook(tensor if given is None else given)
        if self.counter.value != version:
            raise RuntimeError(PACK_MODIFIES_MESSAGE)
        if self.output_nr is not None:
            self.edge = None  # the owner, known on unpacking
        elif tensor._grad_fn is not None:
            self.edge = (tensor._grad_fn, tensor._output_nr)
        elif tensor._requires_grad:  # a leaf: its gradient goes to its AccumulateGrad
            self.edge = weakref.ref(tensor._grad_accumulator())
        else:
            self.edge = None
        self.packed, self.unpack_hook = packed, unpack_hook
        self.tensor = self.data = None

    def _unpack_hooked(self, owner: Node) -> Tensor:
        value = self.unpack_hook(self.packed)
        if not isinstance(value, _tensor.Tensor):
            raise TypeError(
                f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type {type(value).__name__}"
            )
        t = _tensor.Tensor._make(value._data)
        t._version_counter = value._version_counter
        if self.view_of is not None:  # the result of an in-place op on a view: it stands where the view does
            view = self.view_of().view_result(self.counter)
            t._requires_grad, t._grad_fn, t._output_nr = True, view._grad_fn, view._output_nr
        elif self.output_nr is not None:
            t._requires_grad, t._grad_fn, t._output_nr = True, owner, self.output_nr
        elif type(self.edge) is tuple:
            t._requires_grad, (t._grad_fn, t._output_nr) = True, self.edge
        elif self.edge is not None:
            t._requires_grad, t._accumulator = True, self.edge
        return t

    def unpack(self, owner: Node) -> Tensor:
        if self.counter is None:
            raise RuntimeError(FREED_MESSAGE)
        if self.unpack_hook is not None:
            return self._unpack_hooked(owner)
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
                "y *= 2) or modify a .clone() of it. " + (_ANOMALY_HINT_ON if _anomaly.enabled else _ANOMALY_HINT)
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
        if self.unpack_hook is not None:
            self.packed = self.unpack_hook = None

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


# ---------------------------------------------------------------------------------------------
# Hooks on every saved tensor, and the gradient edge of a tensor (torch.autograd.graph)

_default_hooks: list[tuple] = []  # (pack_hook, unpack_hook) pairs: the innermost is in force
_disabled_message: list[str] = []  # why saved tensor hooks are disabled now, if they are


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Within this context, every tensor an operation saves for backward is handed to
    ``pack_hook``, which returns what to keep instead; backward gets the tensor back from
    ``unpack_hook(packed)``. Use it to see what autograd keeps, or to keep it elsewhere.

    >>> import minigrad as torch
    >>> seen = []
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t.shape) or t, lambda t: t):
    ...     y = (x * x).sum()
    >>> seen
    [torch.Size([2]), torch.Size([2])]
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _disabled_message:
            raise RuntimeError(_disabled_message[-1])
        _default_hooks.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc) -> None:
        _default_hooks.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Saved tensors are kept on the CPU and moved back to their device for backward (a GPU's
    memory then holds no saved activations). ``pin_memory`` is accepted; minigrad has no pinned
    memory."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        super().__init__(lambda t: (t.device, t.cpu()), lambda packed: packed[1].to(packed[0]))


class disable_saved_tensors_hooks(contextlib.ContextDecorator):  # noqa: N801
    """Within this context, entering :class:`saved_tensors_hooks` raises ``RuntimeError(error_message)``
    (for code that cannot work with them); so does entering it while hooks are in force. Also a
    decorator, as PyTorch's (a ``contextlib.contextmanager``)."""

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self) -> None:
        if _default_hooks:
            raise RuntimeError(self.error_message)
        _disabled_message.append(self.error_message)

    def __exit__(self, *exc) -> None:
        _disabled_message.pop()


class GradientEdge(NamedTuple):
    """Where a tensor's gradient goes: ``node`` and which of its inputs (``output_nr``). Pass it
    to ``autograd.grad`` as an input to get the gradient arriving there."""

    node: Node
    output_nr: int
    ownership_token: object = None


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The :class:`GradientEdge` of ``tensor``: its ``grad_fn``, or its ``AccumulateGrad`` for a leaf.

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0], requires_grad=True)
    >>> torch.autograd.graph.get_gradient_edge(x * 2).node.name()
    'MulBackward0'
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    edge = gradient_edge(tensor)
    if edge[0] is None:  # a view that requires grad only because its base does (PyTorch's assertion)
        raise AssertionError("Expected gradient function to be set")
    # What the tensor was, for an edge later given as an output (PyTorch's nodes keep it for each
    # of their inputs; minigrad's nodes do not, so it is noted here).
    _edge_metadata.setdefault(edge[0], {})[edge[1]] = (tuple(tensor.shape), tensor.dtype, tensor.device)
    return GradientEdge(*edge)


_edge_metadata: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # node -> {output_nr: (shape, dtype, device)}


def edge_metadata(edge: GradientEdge) -> tuple | None:
    """The shape, dtype and device of the tensor whose gradient ``edge`` takes, where known."""
    node, nr = edge[0], edge[1]
    if isinstance(node, AccumulateGrad):
        return tuple(node.variable.shape), node.variable.dtype, node.variable.device
    return _edge_metadata.get(node, {}).get(nr)


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> _hooks.RemovableHandle:
    """Call ``fn`` once per backward pass, when the gradients of ``tensors`` have been computed.

    ``mode="all"``: ``fn(grads)`` runs once the gradient of each of ``tensors`` that this pass
    computes has been computed; ``grads`` is a list with one entry per tensor, None for those the
    pass does not reach (not in its graph, or not on the way to the ``inputs`` it was asked for).
    ``mode="any"``: ``fn(grad)`` runs with the first of their gradients that is computed. ``fn``
    must not change the gradients. ``remove()`` on the returned handle removes the hook.

    >>> import minigrad as torch
    >>> a = torch.ones(2, requires_grad=True)
    >>> b = torch.ones(2, requires_grad=True)
    >>> c = a * b
    >>> h = torch.autograd.graph.register_multi_grad_hook((a, b, c), lambda gs: print([g is not None for g in gs]))
    >>> c.sum().backward(inputs=(a,))
    [True, False, True]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    key = object()  # where this hook keeps its state for a pass, in the pass's notes

    if mode == "any":

        @functools.wraps(fn)
        def first_only(grad):
            notes = _engine.current_graph_task().notes
            if key not in notes:
                notes[key] = True
                fn(grad)

        return _hooks._MultiHandle(tuple(t.register_hook(first_only) for t in tensors if t.requires_grad))

    # "all": ordinary tensor hooks, one per tensor, count down the gradients this pass will
    # compute (known when the first arrives) and call fn when the last has arrived.
    nodes = [gradient_edge(t)[0] for t in tensors]  # (kept: a leaf's AccumulateGrad stays the same)
    if None in nodes:
        raise AssertionError("Expected gradient function to be set")

    def hook_for(index: int):
        def collect(grad) -> None:
            task = _engine.current_graph_task()
            state = task.notes.get(key)
            if state is None:  # the first of the gradients in this pass
                waiting = sum(task.will_execute(node) for node in nodes)
                state = task.notes[key] = {"waiting": waiting, "grads": [None] * len(tensors)}
            state["grads"][index] = grad
            state["waiting"] -= 1
            if state["waiting"] == 0:
                del task.notes[key]
                fn(state["grads"])

        return collect

    return _hooks._MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))


def increment_version(tensor) -> None:
    """Count an in-place change made behind autograd's back (e.g. through ``.numpy()``), so that
    backward refuses saved values that changed. Takes a tensor or an iterable of tensors."""
    for t in (tensor,) if isinstance(tensor, _tensor.Tensor) else tensor:
        t._version_counter.value += 1


# Last: the tensor module imports the engine, which imports this module's classes.
from .. import tensor as _tensor  # noqa: E402
from . import engine as _engine  # noqa: E402
