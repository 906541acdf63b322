"""Recording a differentiable operation.

An :class:`Op` pairs a forward computation on arrays with one derivative rule per input, written
with minigrad's own tensor operations (so ``create_graph=True`` can differentiate the backward
pass itself). Each rule names, through its parameters, exactly what it reads::

    mul = Op("MulBackward0", lambda xp, self, other: self * other,
             self=lambda grad, other: grad * other,
             other=lambda grad, self: grad * self)

A rule may read ``grad`` (the incoming gradient), ``result`` (the forward output), any input by
name, any keyword parameter of the forward, and ``<input>_shape``. Only the tensors a rule reads
are saved, and only when that rule's input needs a gradient, so in-place checks fire exactly
when PyTorch's do. Gradients are reduced to each input's shape and dtype in one place
(:func:`_fit`), which is where broadcasting is undone.
"""

from __future__ import annotations

import inspect

from .. import backend
from .grad_mode import is_grad_enabled
from .graph import FREED_MESSAGE, Node, SavedTensor, gradient_edge


class Op:
    """A differentiable operation: ``forward(xp, *inputs, **params)`` plus one rule per input."""

    def __init__(self, name: str, forward, /, *, view: bool = False, **rules):
        self.name = name
        self.view = view  # the output shares storage (and so the version counter) with the input
        self.forward = forward
        signature = inspect.signature(forward).parameters.values()
        positional = [p for p in signature if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.inputs = [p.name for p in positional[1:]]  # the first is xp
        if "dtype" in inspect.signature(forward).parameters:
            raise ValueError(f"{name}: 'dtype' is reserved for type promotion; name the parameter otherwise")
        self.variadic = next((p.name for p in signature if p.kind == p.VAR_POSITIONAL), None)
        self.rules = rules
        self.reads = {key: tuple(inspect.signature(rule).parameters) for key, rule in rules.items()}
        self.node_class = type(name, (OpNode,), {"_name": name, "op": self})

    def __call__(self, /, *inputs, dtype=None, **params):
        from ..tensor import Tensor

        device = inputs[0].device
        for t in inputs[1:]:
            if t.device != device:
                raise RuntimeError(
                    "Expected all tensors to be on the same device, but found at least two "
                    f"devices, {device} and {t.device}! (in {self.name}) Move them with "
                    ".to(device) first."
                )
        xp = backend.xp(device)
        arrays = [t._data for t in inputs]
        if dtype is not None:  # compute in the promoted dtype, as PyTorch does, without a node
            target = backend.array_dtype(dtype)
            arrays = [a if a.dtype == target else a.astype(target) for a in arrays]
        with backend.on(device):
            out = self.forward(xp, *arrays, **params)
        record = is_grad_enabled() and any(t.requires_grad for t in inputs)
        result = Tensor._make(out, requires_grad=record)
        if self.view:
            source = inputs[0]
            result._base = source._base if source._base is not None else source
            result._version_counter = source._version_counter
            result._view_version = source._version_counter.value
        if record:
            for t in inputs:
                if t._base is not None and t.requires_grad and t._view_version != t._version_counter.value:
                    raise RuntimeError(
                        "a view of a tensor that was later modified in place is used in a new "
                        "operation; minigrad cannot rebuild the view's graph. Take the view again "
                        "after the in-place operation (e.g. index the tensor again)."
                    )
            result.grad_fn = self.node_class(inputs, params, result)
        return result


class OpNode(Node):
    """The backward node of an :class:`Op` (its class is named after the op, e.g. MulBackward0)."""

    op: Op

    def __init__(self, inputs: tuple, params: dict, result):
        op = self.op
        needs = tuple(t.requires_grad for t in inputs)
        super().__init__(tuple(gradient_edge(t) if n else (None, 0) for t, n in zip(inputs, needs)))
        self.needs_input_grad = needs
        self.params = params
        self.input_meta = tuple((t.shape, t.dtype) for t in inputs)
        names = [op.variadic] * len(inputs) if op.variadic else op.inputs
        wanted: set[str] = set()
        for name, need in zip(names, needs):
            if need:
                wanted.update(op.reads[name])
        self.saved = {name: SavedTensor(t) for name, t in zip(names, inputs) if name in wanted}
        if "result" in wanted:
            self.saved["result"] = SavedTensor(result, is_output=True, grad_fn=self)
        if op.variadic and op.variadic in self.saved:
            self.saved[op.variadic] = [SavedTensor(t) for t in inputs]
        self._freed = False

    def apply(self, grad_outputs: list, create_graph: bool) -> tuple:
        op = self.op
        env = {"grad": grad_outputs[0], **self.params}
        for i, name in enumerate(op.inputs):
            env[f"{name}_shape"] = self.input_meta[i][0]
        if op.variadic:
            env["shapes"] = [shape for shape, _ in self.input_meta]
        for name, saved in self.saved.items():
            env[name] = self._unpack(saved)
        if op.variadic:
            grads = op.rules[op.variadic](**{k: env[k] for k in op.reads[op.variadic]})
            return tuple(
                _fit(g, meta) if need else None
                for g, meta, need in zip(grads, self.input_meta, self.needs_input_grad)
            )
        return tuple(
            _fit(op.rules[name](**{k: env[k] for k in op.reads[name]}), meta) if need else None
            for name, meta, need in zip(op.inputs, self.input_meta, self.needs_input_grad)
        )

    def _unpack(self, saved):
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if isinstance(saved, list):
            return [s.unpack(self) for s in saved]
        return saved.unpack(self)

    def release(self) -> None:
        self._freed = True
        for saved in self.saved.values():
            for s in saved if isinstance(saved, list) else (saved,):
                s.release()

    @property
    def is_freed(self) -> bool:
        return self._freed and bool(self.saved)

    def __getattr__(self, attr: str):
        # grad_fn._saved_self, grad_fn._saved_other, grad_fn._saved_result, as in PyTorch.
        if attr.startswith("_saved_"):
            key = attr[len("_saved_") :]
            saved = self.__dict__.get("saved", {})
            if key in saved:
                return self._unpack(saved[key])
            if key in self.__dict__.get("params", {}):
                return self.params[key]
        raise AttributeError(f"'{self._name}' object has no attribute '{attr}'")

    def saved_names(self) -> list[str]:
        """Names of what this node keeps for backward (tensors and parameters)."""
        return [*self.saved, *self.params]


def _fit(grad, meta):
    """Reduce a gradient to its input's shape (undoing broadcasting) and dtype."""
    shape, dtype = meta
    if grad.shape != shape:
        grad = grad.sum_to_size(shape)
    if grad.dtype is not dtype:
        grad = grad.to(dtype)
    return grad
