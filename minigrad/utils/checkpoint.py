"""``minigrad.utils.checkpoint``: activation checkpointing, as ``torch.utils.checkpoint``.

Backward needs the tensors that the forward pass saved (the activations), and keeping them is
what fills memory in a deep network. A checkpointed function keeps only its inputs: backward runs
it again to get what it saved. More computation, less memory.

Two ways to do that, as in PyTorch:

* ``use_reentrant=False`` (recommended): the forward pass records its graph as usual, but under
  :class:`~minigrad.autograd.graph.saved_tensors_hooks` whose pack hook keeps a number in place
  of each saved tensor. The first unpack in a backward pass runs the function again, under hooks
  that collect what it saves; each unpack then hands out its tensor.
* ``use_reentrant=True``: a custom :class:`~minigrad.autograd.Function` runs the function under
  ``no_grad`` (no graph inside); its backward runs it again with grad and calls ``backward``
  on that new graph from inside the running backward pass (which is why it is "reentrant").

Both restore the random generators' states before running the function again (with
``preserve_rng_state=True``), so that dropout draws the same mask.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from .. import _warn
from .. import random as _random
from ..autograd import engine
from ..autograd.anomaly_mode import _state as _anomaly
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, is_grad_enabled, no_grad
from ..autograd.graph import _ANOMALY_HINT, _ANOMALY_HINT_ON, SavedTensor, _describe, saved_tensors_hooks
from ..tensor import Tensor

__all__ = [
    "CheckpointError",
    "CheckpointFunction",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "noop_context_fn",
    "set_checkpoint_early_stop",
]

_early_stop: bool | None = None  # what set_checkpoint_early_stop says, if in force


class CheckpointError(RuntimeError):
    """What a recomputation that does not match the forward pass raises."""


def noop_context_fn() -> tuple:
    """The default ``context_fn`` of :func:`checkpoint`: no context around either run."""
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Within this context, ``checkpoint(..., use_reentrant=False)`` calls stop recomputing as soon
    as they have what backward needs (``enable=True``) or run the function to its end (``False``),
    whatever their ``early_stop`` says. Only the forward pass needs to run inside it."""
    global _early_stop
    previous, _early_stop = _early_stop, enable
    try:
        yield
    finally:
        _early_stop = previous


def checkpoint(
    function: Callable,
    *args,
    use_reentrant: bool | None = None,
    preserve_rng_state: bool = True,
    context_fn: Callable[[], tuple] = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs,
) -> Any:
    """Run ``function(*args, **kwargs)`` without keeping what it saves for backward: backward
    runs it again to get it. Returns what ``function`` returns.

    Pass ``use_reentrant`` (``False`` is recommended; without it PyTorch 2.13 warns and uses
    ``True``). ``use_reentrant=True`` takes no ``**kwargs`` for ``function``, supports only
    ``backward()`` without ``inputs`` (not ``autograd.grad``), and gives gradients only when
    some tensor among ``args`` requires grad. ``determinism_check="default"`` (``False`` variant)
    checks that the recomputed tensors have the shapes, dtypes and devices of those the forward
    pass saved; ``"none"`` turns that off. ``function`` must compute the same thing both times.
    The ``False`` variant also takes ``context_fn``, which returns two context managers: one for
    the forward pass and one for each recomputation; ``early_stop`` (or
    :func:`set_checkpoint_early_stop`) stops a recomputation once it has made every tensor that
    backward needs; ``debug`` is accepted (PyTorch then adds a trace of the operators to the
    errors; minigrad's say nothing more).

    >>> import minigrad as torch
    >>> from minigrad.utils.checkpoint import checkpoint
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)  # sin(x), exp(...) not kept
    >>> y.sum().backward()  # computes them again
    >>> x.grad
    tensor([ 1.2534, -1.0331])
    """
    if use_reentrant is None:
        _warn.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
            "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
        )
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in ("default", "none"):
        raise ValueError(f"determinism_check should be one of ['default', 'none'], but got {determinism_check}")
    forward_context, recompute_context = context_fn()
    if not is_grad_enabled():  # nothing is saved for backward: nothing to recompute
        return function(*args, **kwargs)
    early_stop = _early_stop if _early_stop is not None else early_stop
    frame = _Recomputation(function, args, kwargs, preserve_rng_state, determinism_check == "default")
    frame.context, frame.early_stop = recompute_context, early_stop
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


def checkpoint_sequential(functions, segments: int, input: Tensor, use_reentrant: bool | None = None, **kwargs):
    """Run ``functions`` (an ``nn.Sequential`` or a list of modules or functions) one after the
    other on ``input``, in ``segments`` pieces; all but the last are checkpointed. Takes
    ``preserve_rng_state=`` as :func:`checkpoint` does.

    >>> import minigrad as torch
    >>> from minigrad.utils.checkpoint import checkpoint_sequential
    >>> model = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Sigmoid(), torch.nn.Tanh())
    >>> x = torch.ones(2, requires_grad=True)
    >>> checkpoint_sequential(model, 2, x, use_reentrant=False).sum().backward()
    >>> x.grad
    tensor([0.0591, 0.0591])
    """
    if use_reentrant is None:
        _warn.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
            "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))

    def run(start: int, end: int):
        def forward(value):
            for f in functions[start : end + 1]:
                value = f(value)
            return value

        return forward

    from ..nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):  # the last segment is not checkpointed
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)


def detach_variable(inputs: tuple) -> tuple:
    """``inputs`` with each tensor detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    return tuple(x.detach().requires_grad_(x.requires_grad) if isinstance(x, Tensor) else x for x in inputs)


def _rng_states() -> list:
    """The states of the random generators in use (the CPU's, and the GPU's once made)."""
    return [(g, g.get_state()) for g in (_random.default_generator, _random._gpu_generator) if g is not None]


def _run_again(function: Callable, args: tuple, kwargs: dict, rng_states: list | None):
    """Run ``function`` as the forward pass did: with its random states (then put back as they
    were), recording (backward may run with grad off)."""
    with _random.fork_rng(enabled=rng_states is not None), enable_grad():
        for generator, state in rng_states or ():
            generator.set_state(state)
        return function(*args, **kwargs)


class CheckpointFunction(Function):
    """``checkpoint(..., use_reentrant=True)``: forward without a graph, backward by running
    ``function`` again with one and differentiating that."""

    @staticmethod
    def forward(ctx, run_function: Callable, preserve_rng_state: bool, *args):
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            _warn.warn("None of the inputs have requires_grad=True. Gradients will be None")
        ctx.run_function = run_function
        ctx.rng_states = _rng_states() if preserve_rng_state else None
        # Tensors are saved (so in-place changes are caught); other arguments kept as they are.
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        task = engine.current_graph_task()
        if task is None or task.needed is not None:  # only a backward() that runs every node will do
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing "
                "an `inputs` parameter to .backward(). To resolve this error, you can either set "
                "use_reentrant=False, or call .backward() without passing the `inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        inputs = detach_variable(tuple(inputs))  # the new graph starts at these
        outputs = _run_again(ctx.run_function, inputs, {}, ctx.rng_states)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        # Parameters used inside get their .grad here; the inputs' gradients are handed on.
        engine.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *(x.grad if isinstance(x, Tensor) else None for x in inputs))


class _Recomputation:
    """One ``checkpoint(..., use_reentrant=False)`` call: its pack hook keeps a number in place
    of each tensor the forward pass saves; its unpack hook gives the tensor of that number from
    running the function again, once per backward pass (kept in the pass's notes)."""

    def __init__(self, function: Callable, args: tuple, kwargs: dict, preserve_rng_state: bool, check: bool):
        self.function, self.kwargs = function, kwargs
        # The tensor arguments are saved for backward as any operation's inputs: the saved tensor
        # hooks in force around checkpoint pack them (save_on_cpu moves them), each recomputation
        # unpacks them, and an in-place change is caught (as PyTorch's frame.save_inputs).
        self.args = [SavedTensor(a) if isinstance(a, Tensor) else a for a in args]
        self.rng_states = _rng_states() if preserve_rng_state else None
        self.check = check
        self.saved: list[dict] = []  # the metadata of each tensor the forward pass saved
        self.context = contextlib.nullcontext()  # entered around each recomputation (context_fn's)
        self.early_stop = True

    def pack(self, tensor: Tensor) -> int:
        self.saved.append(_metadata(tensor))
        return len(self.saved) - 1

    def unpack(self, index: int) -> Tensor:
        task = engine.current_graph_task()
        notes = task.notes if task is not None else {}  # (outside backward: recompute each time)
        values = notes.get(self)
        if values is None:
            values = notes[self] = self.recompute()
        value = values[index]
        if value is None:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked "
                "once. If you are calling ctx.saved_tensors in backward, make sure to do so only once. "
                "Otherwise please open an issue with details on your use case."
            )
        values[index] = None  # handed out: the node that asked holds it until it has run
        return value

    def recompute(self) -> list[Tensor]:
        """Run the function again; what it saves, in order (the same order as the forward pass)."""
        for saved in self.args:
            # Recomputing would use the new values (tensors that hooks packed are theirs to keep).
            if isinstance(saved, SavedTensor) and saved.unpack_hook is None and saved.counter.value != saved.version:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: {_describe(saved.tensor, None)} is at version {saved.counter.value}; expected "
                    f"version {saved.version} instead. " + (_ANOMALY_HINT_ON if _anomaly.enabled else _ANOMALY_HINT)
                )
        args = [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.args]
        values: list[Tensor] = []

        def keep(t: Tensor) -> None:
            if len(values) == len(self.saved):  # (only without early stop)
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation than during "
                    "the original forward pass."
                )
            values.append(t.detach())
            if self.early_stop and len(values) == len(self.saved):  # all there: the rest is not needed
                raise _StopRecomputationError

        try:
            with saved_tensors_hooks(keep, _unused), self.context:
                _run_again(self.function, args, self.kwargs, self.rng_states)
        except _StopRecomputationError:
            pass
        if len(values) < len(self.saved):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original "
                f"forward and recomputation.\nNumber of tensors saved during forward: {len(self.saved)}\n"
                f"Number of tensors saved during recomputation: {len(values)}.\n"
            )
        if self.check:
            different = [
                f"tensor at position {i}:\nsaved metadata: {saved}\nrecomputed metadata: {_metadata(value)}\n"
                for i, (saved, value) in enumerate(zip(self.saved, values))
                if saved != _metadata(value)
            ]
            if different:
                raise CheckpointError(
                    "torch.utils.checkpoint: Recomputed values for the following tensors have different "
                    f"metadata than during the forward pass.\n{''.join(different)}.\n"
                )
        return values


class _StopRecomputationError(Exception):
    """Raised inside a recomputation once it has every tensor backward needs, to stop it there."""


def _metadata(t: Tensor) -> dict:
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


def _unused(packed) -> None:
    """The unpack hook of the recomputation's own graph, which nothing differentiates."""
