"""Recording a differentiable operation.

An :class:`Op` pairs a forward computation on arrays with one derivative rule per input, written
with minigrad's own tensor operations (so ``create_graph=True`` can differentiate the backward
pass itself). Each rule names, through its parameters, exactly what it reads::

    mul = Op("MulBackward0", lambda xp, self, other: self * other,
             self=lambda grad, other: grad * other,
             other=lambda grad, self: grad * self)

A rule may read ``grad`` (the incoming gradient), ``result`` (the forward output), any input by
name, any keyword parameter of the forward, ``<input>_shape`` and ``<input>_strides`` (the
input's memory layout, for rules that lay their gradient out alike). A rule returns None where
PyTorch's gradient is undefined (nothing flows back). Only the inputs a rule reads
are saved, and only when that rule's input needs a gradient; the result whenever some rule reads
it, as PyTorch saves outputs. So in-place checks fire exactly when PyTorch's do. Gradients are
reduced to each input's shape and dtype in one place (:func:`_fit`), which is where broadcasting
is undone.
"""

from __future__ import annotations

import inspect
import math

from .. import backend, dtypes
from .. import functions as _functions  # the modules: both are defined after this file is imported
from .. import tensor as _tensor
from .anomaly_mode import _state as _anomaly
from .anomaly_mode import record_forward_stack
from .grad_mode import _state as _grad_mode
from .grad_mode import is_grad_enabled
from .graph import FREED_MESSAGE, Node, SavedTensor, _default_hooks, _sequence, gradient_edge

_NO_EDGE = (None, 0)  # where the gradient of an input that needs none goes
UNREAD_RESULT = "result (unread)"  # in Op.wanted: save the result only to check its version
UNPACK_FIRST = "(unpack first)"  # in Op.wanted: two rules read a saved tensor, or none reads the result


class Op:
    """A differentiable operation: ``forward(xp, *inputs, **params)`` plus one rule per input."""

    def __init__(self, name: str, forward, /, *, view: bool = False, **rules):
        self.name = name
        self.view = view  # the output shares storage (and so the version counter) with the input
        self.forward = forward
        signature = inspect.signature(forward).parameters.values()
        if any(p.name == "dtype" for p in signature):
            raise ValueError(f"{name}: 'dtype' is reserved for type promotion; name the parameter otherwise")
        positional = [p for p in signature if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.inputs = [p.name for p in positional[1:]]  # the first is xp
        self.variadic = next((p.name for p in signature if p.kind == p.VAR_POSITIONAL), None)
        self.rules = rules
        self.reads = {key: tuple(inspect.signature(rule).parameters) for key, rule in rules.items()}
        # (rule, what it reads) per input, in order: what a node runs in backward
        self.steps = tuple((rules.get(name), self.reads.get(name)) for name in self.inputs)
        self.strides = any(key.endswith("_strides") for keys in self.reads.values() for key in keys)
        # PyTorch's generated nodes save their inputs in the order of their names (what saved
        # tensor hooks see): x * y saves ``other``, then ``self``.
        self.save_order = tuple(sorted((name, i) for i, name in enumerate(self.inputs)))
        node_base = NotImplementedNode if name == "NotImplemented" else OpNode
        # grad_fn._saved_<name>, as PyTorch's nodes have them: each tensor a rule reads, each parameter
        read = {key for keys in self.reads.values() for key in keys}
        keeps = [n for n in (*self.inputs, self.variadic, "result") if n in read]
        keeps += [p.name for p in signature if p.kind == p.KEYWORD_ONLY]
        self.node_class = type(name, (node_base,), {"_name": name, "op": self, **_saved_attributes(keeps)})
        self._wanted: dict[tuple, frozenset] = {}  # which inputs to save, per needs-grad pattern

    def wanted(self, needs: tuple) -> frozenset:
        """The names the rules of the inputs that need a gradient read (so must be saved), and
        UNREAD_RESULT when only another rule reads the result: PyTorch saves it anyway and checks
        it in backward (an in-place change of ``x ** e`` raises even when only ``x`` needs a
        gradient). UNPACK_FIRST when the node must unpack what it saved before its rules run (see
        ``OpNode.apply``): then, or when two of the rules read one tensor."""
        found = self._wanted.get(needs)
        if found is None:
            names = [self.variadic] * len(needs) if self.variadic else self.inputs
            found = {r for name, need in zip(names, needs) if need for r in self.reads[name]}
            if any(needs) and any("result" in reads for reads in self.reads.values()) and "result" not in found:
                found.update((UNREAD_RESULT, UNPACK_FIRST))
            tensors = (*self.inputs, "result")  # (a parameter read twice is no saved tensor)
            read_by = [r for name, need in zip(names, needs) if need for r in self.reads[name] if r in tensors]
            if not self.variadic and len(read_by) != len(set(read_by)):
                found.add(UNPACK_FIRST)
            found = self._wanted[needs] = frozenset(found)
        return found

    def __call__(self, /, *inputs, dtype=None, **params):
        recording = _grad_mode.enabled
        arrays, record = [], False
        for t in inputs:  # a plain loop: see OpNode.__init__
            if recording and t._base is not None:
                if t._view_version != t._version_counter.value:
                    t._regenerate_view()  # a view whose base changed in place: its grad_fn is made again
                # A view that does not require grad itself (taken under no_grad, or before its base
                # required grad, or a custom Function's output view without a gradient): the result
                # requires grad when the base does, but no gradient flows through the view.
                record = record or t._base._requires_grad
            arrays.append(t._data)
            record = record or t._requires_grad
        record = record and recording
        device = backend.common_device(arrays, self.name) if backend.cupy_loaded else backend.CPU
        if device.type != "cpu" and not backend.same_device(arrays):
            # PyTorch lets a 0-d CPU tensor join a GPU op; it is copied over (a recorded copy,
            # so its gradient goes back to the CPU).
            inputs = tuple(t if t._data.ndim or t.device == device else t.to(device) for t in inputs)
            arrays = [t._data for t in inputs]
        if dtype is not None:  # compute in the promoted dtype, as PyTorch does, without a node
            arrays = backend.compute(device, _cast, (arrays, backend.array_dtype(dtype)), {})
        out = backend.compute(device, self.forward, arrays, params)
        if record and out.dtype.kind not in "fc":  # integer and bool results never require grad
            record = False
        result = _tensor.Tensor._make(out, requires_grad=record)
        if self.view:
            _record_view(result, inputs[0], (self, params, arrays[0].shape))
        if record:
            result._grad_fn = node = self.node_class(inputs, params, result)
            if _anomaly.enabled:  # (OpNode.__init__ writes Node.__init__ out, without this)
                record_forward_stack(node)
        return result


def _saved_attributes(names) -> dict:
    """``_saved_<name>`` and ``_raw_saved_<name>`` for each name a node may keep, as PyTorch's
    nodes have them: properties (a class with ``__getattr__`` would read all its attributes
    slowly, and every step of backward reads a node's attributes)."""
    attributes = {}
    for name in filter(None, names):
        attributes[f"_saved_{name}"] = property(lambda node, key=name: node._kept_value(key))
        attributes[f"_raw_saved_{name}"] = property(lambda node, key=name: node._kept_raw(key))
    return attributes


def _record_view(result, source, step: tuple) -> None:
    """Mark ``result`` as a view of ``source``'s storage: it shares the version counter, and keeps
    the root base and the view steps from it (to take the view again after an in-place change).
    A view of an inference tensor is an inference tensor and no view (PyTorch tracks no views of them)."""
    result._version_counter = source._version_counter
    if source._inference:
        result._inference = True
        return
    if source._base is None:
        result._base, result._view_steps = source, (step,)
    else:  # a view of a view is a view of the root
        result._base, result._view_steps = source._base, source._view_steps + (step,)
    result._view_version = source._version_counter.value
    # Taken in no_grad or inference mode, or from such a view (where inference mode wins, as in PyTorch).
    mode = "inference" if _grad_mode.inference else not is_grad_enabled()
    if mode and source._view_no_grad != "inference":
        result._view_no_grad = mode
    elif source._view_no_grad:
        result._view_no_grad = source._view_no_grad
    if source._locked_view:
        result._locked_view = source._locked_view
    if result._inference:  # a view of a tensor that is no inference tensor is none, even in inference mode
        result._inference = False


def _cast(xp, arrays: list, target) -> list:
    return [a if a.dtype == target else a.astype(target) for a in arrays]


class OpNode(Node):
    """The backward node of an :class:`Op` (its class is named after the op, e.g. MulBackward0)."""

    op: Op
    _freed = False
    _unpack_first = False  # see Op.wanted

    def __init__(self, inputs: tuple, params: dict, result):
        op = self.op
        # Plain loops: this runs for every recorded operation, and for one or two inputs a loop
        # is faster than comprehensions (each of which is a function call before Python 3.12).
        needs, edges, meta = [], [], []
        for t in inputs:
            needs.append(t._requires_grad)
            if not t._requires_grad:
                edges.append(_NO_EDGE)
            elif t._grad_fn is not None:  # the commonest edge, written out (see gradient_edge)
                edges.append((t._grad_fn, t._output_nr))
            else:
                edges.append(gradient_edge(t))
            meta.append((t._data.shape, t._data.dtype))  # the array's dtype: cheaper to read
        self.next_functions = tuple(edges)
        self._sequence_nr = next(_sequence)  # (Node.__init__, written out)
        self.needs_input_grad = needs = tuple(needs)
        self.params = params
        self.input_meta = tuple(meta)
        if op.strides:  # only the few ops whose rules read a layout pay for recording it
            self.input_strides = tuple([t._data.strides for t in inputs])
        self.saved = saved = {}
        wanted = op._wanted.get(needs)
        if wanted is None:
            wanted = op.wanted(needs)
        if wanted:
            if op.variadic:
                if op.variadic in wanted:
                    saved[op.variadic] = [SavedTensor(t) for t in inputs]
            else:
                order = op.save_order
                if _default_hooks and params:  # hooks see the arrays among the parameters too (PyTorch saves tensors)
                    order = sorted(order + tuple((k, None) for k, v in params.items() if backend.is_array(v)))
                for name, i in order:
                    if name in wanted:
                        saved[name] = SavedTensor(inputs[i] if i is not None else _tensor.Tensor._make(params[name]))
            if "result" in wanted or UNREAD_RESULT in wanted:  # (unread: saved to be checked, see apply)
                saved["result"] = SavedTensor(result, is_output=True, grad_fn=self)
            if UNPACK_FIRST in wanted:
                self._unpack_first = True

    def _read(self, key: str):
        """The value a rule asks for by name (other than ``grad``): a saved tensor, a parameter
        or a shape."""
        saved = self.saved.get(key)
        if type(saved) is SavedTensor:  # (it checks itself whether the graph was freed)
            value = saved.unpack(self)
            return value._data if key in self.params else value  # a parameter that saved tensor hooks packed
        if saved is not None:  # a variadic input: a list
            return self._unpack(saved)
        if key in self.params:
            value = self.params[key]
            if self._freed and _holds_array(value):
                raise RuntimeError(FREED_MESSAGE)  # PyTorch saves an array parameter as a tensor
            return value
        if key == "shapes":
            return [shape for shape, _ in self.input_meta]
        name, _, what = key.rpartition("_")  # "<input>_shape" or "<input>_strides"
        index = self.op.inputs.index(name)
        return self.input_meta[index][0] if what == "shape" else self.input_strides[index]

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        op, grad, read, needs = self.op, grad_outputs[0], self._read, self.needs_input_grad
        if self._unpack_first or wanted is not None:
            read = self._unpacked_reader()
        if wanted is not None:  # (edges are inputs here) skip the rules of gradients nobody asked for
            needs = tuple([need and want for need, want in zip(needs, wanted)])
        if op.variadic:  # one rule gives the gradients of all the inputs
            grads = op.rules[op.variadic](*[grad if k == "grad" else read(k) for k in op.reads[op.variadic]])
            pairs = zip(grads, self.input_meta, needs)
            return tuple([_fit(g, meta) if need and g is not None else None for g, meta, need in pairs])
        grads = []
        for (rule, reads), need, meta in zip(op.steps, needs, self.input_meta):
            if need:
                args = []  # a plain loop, not a comprehension: see __init__
                for k in reads:
                    args.append(grad if k == "grad" else read(k))
                g = rule(*args)
                if g is not None and (g._data.shape != meta[0] or g._data.dtype != meta[1]):
                    g = _fit(g, meta)
                grads.append(g)
            else:
                grads.append(None)
        return tuple(grads)

    def _unpacked_reader(self):
        """``_read``, with everything saved unpacked now, once, as PyTorch's nodes do before their
        formulas run: unpack hooks see each tensor once (also one that two rules read), and an
        in-place change raises also where the rule that reads the tensor does not run."""
        values = {}
        for key in self.saved:
            values[key] = self._read(key)
        return lambda key: values[key] if key in values else self._read(key)

    def _unpack(self, saved):
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if isinstance(saved, list):
            return [s.unpack(self) for s in saved]
        return saved.unpack(self)

    def unpack_saved(self) -> None:
        for key in self.saved:
            self._read(key)

    def release(self) -> None:
        self._freed = True
        for saved in self.saved.values():
            if type(saved) is list:  # a variadic input
                for s in saved:
                    s.release()
            else:
                saved.release()

    @property
    def is_freed(self) -> bool:
        return self._freed and bool(self.saved)

    def _kept_value(self, key: str):
        """``grad_fn._saved_<key>``: a saved tensor (unpacked) or a parameter, as in PyTorch; None
        for a tensor a rule reads that was not saved (its rule does not run: ``x * c`` with only
        ``x`` requiring grad keeps ``other``, not ``self``)."""
        if key in self.saved:
            return self._unpack(self.saved[key])
        if key in self.params:
            value = self._read(key)
            return _tensor.Tensor._make(value) if backend.is_array(value) else value
        if key in self.op.inputs or key in (self.op.variadic, "result"):
            return None
        raise AttributeError(f"'{self._name}' object has no attribute '_saved_{key}'")

    def _kept_raw(self, key: str) -> SavedTensor:
        """``grad_fn._raw_saved_<key>``: the SavedTensor itself (for its ``register_hooks``)."""
        if key not in self.saved:
            raise AttributeError(f"'{self._name}' object has no attribute '_raw_saved_{key}'")
        return self.saved[key]

    def saved_names(self) -> list[str]:
        """Names of what this node keeps for backward (tensors and parameters)."""
        return [*self.saved, *self.params]


class NotImplementedNode(OpNode):
    """The node of an op PyTorch cannot differentiate (``//``): its backward raises. Like
    AccumulateGrad it has no sequence number, so it runs as soon as it is ready, as in PyTorch,
    and it has edges only to the inputs that require grad (PyTorch's ``NotImplemented`` too)."""

    def __init__(self, inputs: tuple, params: dict, result):
        super().__init__(inputs, params, result)
        self._sequence_nr = math.inf
        self.edge_inputs = [i for i, need in enumerate(self.needs_input_grad) if need]  # input of each edge
        self.next_functions = tuple([self.next_functions[i] for i in self.edge_inputs])

    def apply(self, grad_outputs: list, create_graph: bool, wanted: tuple | None = None) -> tuple:
        if wanted is not None:  # per edge: made per input
            per_input = [False] * len(self.needs_input_grad)
            for edge, i in enumerate(self.edge_inputs):
                per_input[i] = wanted[edge]
            wanted = tuple(per_input)
        grads = super().apply(grad_outputs, create_graph, wanted)
        return tuple([grads[i] for i in self.edge_inputs])


def _holds_array(value) -> bool:
    """Whether a parameter is (or holds) an array, which PyTorch keeps as a saved tensor: an index,
    a mask, a condition, class targets."""
    return backend.is_array(value) or (type(value) is tuple and any(backend.is_array(v) for v in value))


def _fit(grad, meta):
    """Reduce a gradient to its input's shape (undoing broadcasting) and dtype."""
    shape, dtype = meta
    if grad._data.shape != shape:
        grad = _functions._sum_to(grad, shape)
    if grad._data.dtype != dtype:
        grad = grad.to(dtypes.from_array_dtype(dtype))
    return grad
