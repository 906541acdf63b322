"""How a module's backward hooks see the gradients of its inputs and outputs, as PyTorch's
``torch.utils.hooks.BackwardHook``.

A module is no node of the graph: its forward may record many. So ``Module.__call__`` passes the
tensors going in, and then those coming out, through an identity :class:`Function`
(``BackwardHookFunctionBackward`` in the graph). The node after the outputs receives their
gradients first (``grad_output``: the backward pre-hooks run there); the node before the inputs
receives the inputs' gradients last (``grad_input``: the backward hooks run there, with both).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _warn
from ..autograd.function import Function
from ..autograd.grad_mode import is_grad_enabled
from ..tensor import Tensor


class BackwardHookFunction(Function):
    """The identity on any number of tensors: a node on which hooks can be put."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


def _pack_with_none(indices: list[int], values, size: int) -> tuple:
    """``values`` at ``indices`` of a tuple of ``size``, ``None`` elsewhere (the non-tensor places)."""
    packed = [None] * size
    for i, value in zip(indices, values, strict=True):
        packed[i] = value
    return tuple(packed)


class BackwardHook:
    """The backward hooks of one call of ``module``."""

    def __init__(self, module, user_hooks: list[Callable], user_pre_hooks: list[Callable]) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None  # set by the node after the outputs, read by the one before the inputs
        self.n_inputs = self.n_outputs = -1
        self.input_tensors_index = self.output_tensors_index = None

    def _apply_on_tensors(self, on_node: Callable, args: tuple) -> tuple[tuple, list[int] | None]:
        """``args`` with its tensors passed through one :class:`BackwardHookFunction`, whose node
        goes to ``on_node``; and the places of the tensors (None when no graph is recorded)."""
        indices = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in indices]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        on_node(next(t.grad_fn for t in new_tensors if t.grad_fn is not None))
        out = list(args)
        for i, t in zip(indices, new_tensors, strict=True):
            out[i] = t
        return tuple(out), indices

    def setup_input_hook(self, args: tuple) -> tuple:
        def on_node(node) -> None:
            node.register_hook(self._run_hooks)

        args, self.input_tensors_index = self._apply_on_tensors(on_node, args)
        self.n_inputs = len(args)
        return args

    def _run_hooks(self, grad_input: tuple, _) -> tuple | None:
        if self.grad_outputs is None:
            return None  # the gradient reached the inputs without passing the outputs (double backward)
        grads = _pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, grads, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(grads):
                raise RuntimeError(
                    f"Backward hook returned an invalid number of grad_input, got {len(out)}, but expected {len(grads)}"
                )
            grads = out
        self.grad_outputs = None
        return tuple(grads[i] for i in self.input_tensors_index)

    def setup_output_hook(self, result):
        def on_node(node) -> None:
            node.register_hook(self._run_pre_hooks)

        is_tuple = isinstance(result, tuple)
        outputs, self.output_tensors_index = self._apply_on_tensors(on_node, result if is_tuple else (result,))
        self.n_outputs = len(outputs)
        return outputs if is_tuple else outputs[0]

    def _run_pre_hooks(self, _, grad_output: tuple) -> tuple:
        self.grad_outputs = _pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
        for hook in self.user_pre_hooks:
            out = hook(self.module, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(self.grad_outputs):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, "
                    f"got {len(out)}, but expected {len(self.grad_outputs)}"
                )
            self.grad_outputs = out
        grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            # no input requires grad: the backward hooks run here, with no input gradients
            _warn.warn(
                "Full backward hook is firing when gradients are computed with respect to module outputs since "
                "no inputs require gradients. See "
                "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
                "for more details.",
            )
            grad_inputs = (None,) * self.n_inputs
            for hook in self.user_hooks:
                out = hook(self.module, grad_inputs, self.grad_outputs)
                if out is not None and not (isinstance(out, tuple) and all(g is None for g in out)):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should always return None "
                        "or None for all gradients."
                    )
            self.grad_outputs = None
        return tuple(grad_outputs[i] for i in self.output_tensors_index)
