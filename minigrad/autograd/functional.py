"""``minigrad.autograd.functional``: Jacobians, Hessians and their products with vectors, as
``torch.autograd.functional``.

Everything here is built on one primitive, ``autograd.grad``: one backward pass computes a
vector-Jacobian product ``u^T J`` (the gradient, weighted by ``u``, of the outputs).

- ``vjp`` (``v^T J``) is one backward pass.
- ``jacobian`` is one backward pass per output element: the gradient of element ``k`` is row ``k``.
- ``jvp`` (``J v``) uses the *double backward trick*: ``u -> u^T J`` is itself a function, linear
  in ``u``, and its vector-Jacobian product with ``v`` is ``J v``. So we backpropagate a dummy
  ``u`` with ``create_graph=True``, then differentiate that result with respect to ``u``.
- ``hessian`` is the Jacobian of the gradient; ``vhp`` (``v^T H``) differentiates the gradient
  once more; ``hvp`` (``H v``) is the double backward trick applied to the gradient.

As in PyTorch, ``inputs`` (and ``v``) are a Tensor or a tuple of Tensors, and results come back in
the same form. The function runs on new tensor objects standing for the inputs (``_fresh``), so
the caller's tensors are not changed and get no ``.grad``. With ``create_graph=False`` the
results are detached; with ``create_graph=True`` they can be differentiated again. With
``strict=True`` an output that does not depend on an input is an error; otherwise that part of
the result is zeros, its mathematical value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# The package is still being imported when this module loads (tensor.py needs ``autograd``), so
# names like ``minigrad.stack`` are looked up when a function runs, not here.
import minigrad

from .engine import grad as _autograd_grad
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

if TYPE_CHECKING:
    from ..tensor import Tensor

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_STRATEGIES = ("forward-mode", "reverse-mode")


# ---------------------------------------------------------------------------------------------
# Helpers shared by the six functions


def _as_tuple(value: Any, what: str, fn: str) -> tuple[bool, tuple[Tensor, ...]]:
    """``(was_tuple, value as a tuple of Tensors)``. A list is refused, as in PyTorch."""
    was_tuple = isinstance(value, tuple)
    items = value if was_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, minigrad.Tensor):
            which = f"the value at index {i}" if was_tuple else f"the given {what}"
            raise TypeError(
                f"The {what} given to {fn} must be either a Tensor or a tuple of Tensors but {which} has type {type(item)}."
            )
    return was_tuple, items


def _unpack(result, was_tuple: bool):
    """Undo ``_as_tuple``: a single Tensor given, a single result returned."""
    return result if was_tuple else result[0]


def _unpack_jacobian(rows, outputs_tuple: bool, inputs_tuple: bool):
    """``rows[i][j]`` is the Jacobian of output ``i`` with respect to input ``j``; drop each
    level of nesting that stands for a single Tensor rather than a tuple."""
    if not inputs_tuple:
        rows = tuple(row[0] for row in rows)
    return _unpack(rows, outputs_tuple)


def _fresh(tensors: tuple[Tensor, ...], create_graph: bool, need_graph: bool) -> tuple[Tensor, ...]:
    """New tensor objects standing for ``tensors`` inside the computation.

    Always new objects: ``grad`` with respect to them then sees only what flows through the
    function's arguments (not a use of the same tensor that ``func`` captured from outside), and
    the caller's tensors keep their ``requires_grad`` and get no ``.grad``. With ``create_graph``
    a tensor that requires grad stays connected to the caller's graph (a view), so the results
    can be differentiated with respect to it; otherwise it is detached, and made to require grad
    when we differentiate with respect to it (``need_graph``).
    """
    return tuple(
        t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph) for t in tensors
    )


def _detached(tensors: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
    return tuple(t.detach() for t in tensors)


def _finish(tensors: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    """Results keep their graph only when the caller asked for one."""
    return tensors if create_graph else _detached(tensors)


def _take_v(v, like: tuple[Tensor, ...], like_is_tuple: bool, fn: str, create_graph: bool, none_if: str):
    """Check ``v`` against ``like`` (the tensors it multiplies) and return it as a tuple; None
    stays None (``grad`` then uses ones), allowed only where ``like`` is one single element."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if {none_if} a single Tensor with a single element.")
        return None
    _, v = _as_tuple(v, "v", fn)
    v = _fresh(v, create_graph, need_graph=False)
    if len(v) != len(like):
        if like_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (given, expected) in enumerate(zip(v, like)):
        if given.shape != expected.shape:
            entry = f"Entry {i} in " if like_is_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {expected.shape} but got {given.shape}.")
    return v


_NOT_DIFFERENTIABLE = {  # strict mode: what a tensor that does not require grad means, by kind
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be "
    "computed in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
    "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with "
    "respect to input {i} is independent of the input. This is not allowed in strict mode. You should "
    "ensure that your function is twice differentiable and that the jacobian depends on the inputs "
    "(this would be violated by a linear function for example).",
}


def _check_differentiable(tensors: tuple[Tensor | None, ...], kind: str, strict: bool) -> None:
    """In strict mode, every one of ``tensors`` must exist and require grad (see ``_NOT_DIFFERENTIABLE``)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:  # a gradient with respect to an input the outputs do not use
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This is not allowed in strict mode."
            )
        if not t.requires_grad:
            raise RuntimeError(_NOT_DIFFERENTIABLE[kind].format(i=i))


def _check_single_element(outputs: tuple[Tensor, ...], is_tuple: bool, fn: str) -> None:
    """Hessians are of scalar functions: ``func`` must return one Tensor with one element."""
    if is_tuple:
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain a single element")


def _grad(
    outputs: tuple[Tensor | None, ...],
    inputs: tuple[Tensor, ...],
    grad_outputs: tuple[Tensor, ...] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Tensor | None, ...]:
    """``autograd.grad`` that skips outputs which are None or do not require grad (nothing to
    differentiate), and gives None for an input that no output uses."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out is not None and out.requires_grad]
    if not pairs:  # no output depends on anything: no backward pass at all
        return (None,) * len(inputs)
    outs, grads = zip(*pairs)
    return _autograd_grad(outs, inputs, grads, create_graph=create_graph, retain_graph=retain_graph, allow_unused=True)


_INDEPENDENT = {  # strict mode: what a gradient of None means, by the step that found it
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
    "using the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
    "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
    "grad_jacobian. This is not allowed in strict mode as it prevents from using the double backward trick to "
    "replace forward mode AD.",
}


def _zeros_where_none(
    grads: tuple[Tensor | None, ...], like: tuple[Tensor, ...], strict: bool, create_graph: bool, step: str
) -> tuple[Tensor, ...]:
    """Replace each missing gradient by zeros shaped like ``like`` (its mathematical value), or
    raise in strict mode. With ``strict`` and ``create_graph`` a gradient must also require grad."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, like)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[step].format(i=i))
            g = minigrad.zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if step.startswith("double") else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. "
                "This is not allowed in strict mode when create_graph=True."
            )
        result.append(g)
    return tuple(result)


# ---------------------------------------------------------------------------------------------
# Products with a vector


def vjp(
    func: Callable[..., Tensor | tuple[Tensor, ...]],
    inputs: Tensor | tuple[Tensor, ...],
    v: Tensor | tuple[Tensor, ...] | None = None,
    create_graph: bool = False,
    strict: bool = False,
):
    """``(func(*inputs), v^T J)``: the outputs, and the vector-Jacobian product (one backward pass).

    ``v`` has the outputs' shapes (it may be None when the output is a single element); the
    product has the inputs' shapes.

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import vjp
    >>> x = torch.tensor([1.0, 2.0, 3.0])
    >>> vjp(lambda t: t ** 2, x, torch.tensor([1.0, 0.0, 10.0]))
    (tensor([1., 4., 9.]), tensor([ 2.,  0., 60.]))
    >>> vjp(lambda a, b: (a * b).sum(), (x, torch.ones(3)))  # a single element: v may be None
    (tensor(6.), (tensor([1., 1., 1.]), tensor([1., 2., 3.])))
    """
    with enable_grad():  # record the function's graph even inside no_grad
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        _check_differentiable(outputs, "outputs", strict)
        v = _take_v(v, outputs, is_outputs_tuple, "vjp", create_graph, "the user-provided function returns")

    # With create_graph the product is recorded even inside no_grad; otherwise grad mode stays as it is.
    with set_grad_enabled(bool(create_graph) or is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        grads = _zeros_where_none(grads, inputs, strict, create_graph, "back")
    outputs, grads = _finish(outputs, create_graph), _finish(grads, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(grads, is_inputs_tuple)


def jvp(
    func: Callable[..., Tensor | tuple[Tensor, ...]],
    inputs: Tensor | tuple[Tensor, ...],
    v: Tensor | tuple[Tensor, ...] | None = None,
    create_graph: bool = False,
    strict: bool = False,
):
    """``(func(*inputs), J v)``: the outputs, and the Jacobian-vector product.

    ``v`` has the inputs' shapes (it may be None when the input is a single element); the product
    has the outputs' shapes. Computed, as PyTorch does, by the double backward trick (two
    backward passes), not by forward-mode AD.

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import jvp
    >>> x = torch.tensor([1.0, 2.0, 3.0])
    >>> jvp(lambda t: t ** 2, x, torch.tensor([1.0, 0.0, 10.0]))
    (tensor([1., 4., 9.]), tensor([ 2.,  0., 60.]))
    >>> jvp(lambda a, b: a * b, (x, torch.ones(3)), (torch.ones(3), torch.zeros(3)))
    (tensor([1., 2., 3.]), tensor([1., 1., 1.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _take_v(v, inputs, is_inputs_tuple, "jvp", create_graph, "the input to the user-provided function is")
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        _check_differentiable(outputs, "outputs", strict)
        # u^T J is linear in u, so u's value never shows in the result: zeros will do (they
        # contain no inf or nan). It must require grad: we differentiate with respect to it.
        u = tuple(minigrad.zeros_like(out, requires_grad=True) for out in outputs)
        u_jac = _grad(outputs, inputs, u, create_graph=True)
        _check_differentiable(u_jac, "grad_inputs", strict)

    with set_grad_enabled(bool(create_graph) or is_grad_enabled()):
        jac_v = _grad(u_jac, u, v, create_graph=create_graph)  # d(u^T J v)/du = J v
        jac_v = _zeros_where_none(jac_v, outputs, strict, create_graph, "back_trick")
    outputs, jac_v = _finish(outputs, create_graph), _finish(jac_v, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(jac_v, is_outputs_tuple)


def vhp(
    func: Callable[..., Tensor],
    inputs: Tensor | tuple[Tensor, ...],
    v: Tensor | tuple[Tensor, ...] | None = None,
    create_graph: bool = False,
    strict: bool = False,
):
    """``(func(*inputs), v^T H)`` for a ``func`` returning a single element: the output, and the
    vector-Hessian product, the gradient of ``grad(func) . v``.

    ``v`` has the inputs' shapes (it may be None when the input is a single element).

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import vhp
    >>> x = torch.tensor([1.0, 2.0])
    >>> vhp(lambda t: (t ** 3).sum(), x, torch.tensor([1.0, 1.0]))  # H = diag(6 t)
    (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _take_v(v, inputs, is_inputs_tuple, "vhp", create_graph, "the input to the user-provided function is")
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "vhp")
        _check_differentiable(outputs, "outputs", strict)
        _check_single_element(outputs, is_outputs_tuple, "vhp")
        gradient = _grad(outputs, inputs, create_graph=True)  # with a graph: we differentiate it again
        _check_differentiable(gradient, "jacobian", strict)

    with set_grad_enabled(bool(create_graph) or is_grad_enabled()):
        v_hess = _grad(gradient, inputs, v, create_graph=create_graph)
        v_hess = _zeros_where_none(v_hess, inputs, strict, create_graph, "double_back")
    outputs, v_hess = _finish(outputs, create_graph), _finish(v_hess, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(v_hess, is_inputs_tuple)


def hvp(
    func: Callable[..., Tensor],
    inputs: Tensor | tuple[Tensor, ...],
    v: Tensor | tuple[Tensor, ...] | None = None,
    create_graph: bool = False,
    strict: bool = False,
):
    """``(func(*inputs), H v)`` for a ``func`` returning a single element: the output, and the
    Hessian-vector product, by the double backward trick applied to the gradient.

    For a twice continuously differentiable ``func`` the Hessian is symmetric and ``hvp`` equals
    ``vhp``, which needs one backward pass fewer.

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import hvp
    >>> x = torch.tensor([1.0, 2.0])
    >>> hvp(lambda t: t[0] ** 2 * t[1], x, torch.tensor([1.0, 0.0]))  # H = [[2 t1, 2 t0], [2 t0, 0]]
    (tensor(2.), tensor([4., 2.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _take_v(v, inputs, is_inputs_tuple, "hvp", create_graph, "the input to the user-provided function is")
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "hvp")
        _check_differentiable(outputs, "outputs", strict)
        _check_single_element(outputs, is_outputs_tuple, "hvp")
        gradient = _grad(outputs, inputs, create_graph=True)
        _check_differentiable(gradient, "jacobian", strict)
        # As in jvp: u -> u^T H is linear in u, and its vector-Jacobian product with v is H v.
        u = tuple(minigrad.zeros_like(t, requires_grad=True) for t in inputs)
        u_hess = _grad(gradient, inputs, u, create_graph=True)

    with set_grad_enabled(bool(create_graph) or is_grad_enabled()):
        hess_v = _grad(u_hess, u, v, create_graph=create_graph)
        hess_v = _zeros_where_none(hess_v, inputs, strict, create_graph, "double_back_trick")
    outputs, hess_v = _finish(outputs, create_graph), _finish(hess_v, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(hess_v, is_inputs_tuple)


# ---------------------------------------------------------------------------------------------
# Whole Jacobians and Hessians


def _gradient_rows(
    outputs: tuple[Tensor, ...], inputs: tuple[Tensor, ...], create_graph: bool, strict: bool
) -> list[list[list[Tensor]]]:
    """``rows[i][j][k]``: the gradient of element ``k`` of output ``i`` with respect to input ``j``,
    one backward pass per output element. Row ``k`` of the Jacobian of output ``i``."""
    rows = []
    for i, out in enumerate(outputs):
        rows_i: list[list[Tensor]] = [[] for _ in inputs]
        flat = out.reshape(-1)
        for k in range(out.numel()):
            # retain_graph: every element's backward pass goes through the same graph
            grads = _grad((flat[k],), inputs, create_graph=create_graph, retain_graph=True)
            for j, (g, inp) in enumerate(zip(grads, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(
                            f"Output {i} of the user-provided function is independent of input {j}. "
                            "This is not allowed in strict mode."
                        )
                    g = minigrad.zeros_like(inp)
                elif strict and create_graph and not g.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input {j}. "
                        "This is not allowed in strict mode when create_graph=True."
                    )
                rows_i[j].append(g)
        rows.append(rows_i)
    return rows


# The rows are the same whatever the options; how PyTorch assembles them shows in which entries
# share one graph (with create_graph, an entry requires grad when any part of it does). Each
# result is ``jac[i][j]``, of shape ``outputs[i].shape + inputs[j].shape``.


def _assemble_by_pair(rows, outputs, inputs) -> tuple[tuple[Tensor, ...], ...]:
    """The default: one stack per (output, input). An output without elements fails in ``stack``,
    as in PyTorch."""
    return tuple(
        tuple(minigrad.stack(rows[i][j]).view(out.shape + inp.shape) for j, inp in enumerate(inputs))
        for i, out in enumerate(outputs)
    )


def _assemble_by_input(rows, outputs, inputs) -> tuple[tuple[Tensor, ...], ...]:
    """``vectorize=True``: PyTorch gets all the rows for one input from one batched backward
    pass, then splits them by output."""
    by_input = []
    for j, inp in enumerate(inputs):
        all_rows = minigrad.stack([row for rows_i in rows for row in rows_i[j]])
        parts = all_rows.split([out.numel() for out in outputs])
        by_input.append([part.view(out.shape + inp.shape) for part, out in zip(parts, outputs)])
    return tuple(zip(*by_input))  # [input][output] -> [output][input]


def _assemble_by_output(rows, outputs, inputs) -> list[list[Tensor]]:
    """``strategy="forward-mode"``: PyTorch carries, for each output, the derivatives with respect
    to all inputs at once, then splits them by input. They take the output's dtype (derivatives
    flow forward through the function), and come in lists, as PyTorch's do."""
    jac = []
    for i, out in enumerate(outputs):
        n = out.numel()
        blocks = [
            minigrad.stack(rows[i][j]).reshape(n, inp.numel()).to(out.dtype)
            if n
            else minigrad.zeros(0, inp.numel(), dtype=out.dtype, device=out.device)  # no rows to stack
            for j, inp in enumerate(inputs)
        ]
        parts = minigrad.cat(blocks, dim=1).split([inp.numel() for inp in inputs], dim=1)
        jac.append([part.reshape(out.shape + inp.shape) for part, inp in zip(parts, inputs)])
    return jac


def _jacobian_forward_mode(func: Callable, inputs, create_graph: bool, strict: bool, vectorize: bool):
    """``strategy="forward-mode"``: PyTorch's errors and results, but minigrad has no forward-mode
    AD, so the values come from backward passes (the same values)."""
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are not '
            'supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not supported '
            'together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
        )
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is only implemented for "
            "`vectorize=True`."
        )
    # Forward mode computes the derivatives alongside the values, so they are recorded in a graph
    # when the inputs are. Keep the graph then: results require grad where they depend on an input
    # that does (PyTorch's exact rule follows its forward formulas, which minigrad does not have).
    keep_graph = is_grad_enabled() and any(t.requires_grad for t in inputs)
    with enable_grad():
        inputs = _fresh(inputs, keep_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        jac = _assemble_by_output(_gradient_rows(outputs, inputs, keep_graph, strict=False), outputs, inputs)
    if not keep_graph:
        jac = [list(_detached(row)) for row in jac]
    return _unpack_jacobian(jac, is_outputs_tuple, is_inputs_tuple)


def jacobian(
    func: Callable[..., Tensor | tuple[Tensor, ...]],
    inputs: Tensor | tuple[Tensor, ...],
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
):
    """The Jacobian of ``func`` at ``inputs``: one backward pass per output element.

    For one input and one output, a Tensor of shape ``output.shape + input.shape``. For a tuple of
    inputs or outputs, a tuple over that one; for both, ``result[i][j]`` is the Jacobian of output
    ``i`` with respect to input ``j``.

    minigrad has no vmap: ``vectorize=True`` computes the same values row by row (and, as in
    PyTorch, refuses ``strict=True``). ``strategy="forward-mode"``, valid only with
    ``vectorize=True`` as in PyTorch, also computes by reverse mode: the same values, in the
    output's dtype, returned in lists as PyTorch's forward mode does.

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import jacobian
    >>> x = torch.tensor([1.0, 2.0])
    >>> jacobian(lambda t: t ** 2, x)
    tensor([[2., 0.],
            [0., 4.]])
    >>> J = jacobian(lambda a, b: (a * b, a.sum()), (x, torch.tensor([3.0, 4.0])))
    >>> J[0][1]  # d(a * b) / db
    tensor([[1., 0.],
            [0., 2.]])
    >>> J[1][0]  # d(a.sum()) / da
    tensor([1., 1.])
    """
    if strategy not in _STRATEGIES:
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        return _jacobian_forward_mode(func, inputs, create_graph, strict, vectorize)

    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", "jacobian")
        _check_differentiable(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                "together. Please either set `strict=False` or `vectorize=False`."
            )
        rows = _gradient_rows(outputs, inputs, create_graph, strict)
        jac = (_assemble_by_input if vectorize else _assemble_by_pair)(rows, outputs, inputs)
    if not create_graph:
        jac = tuple(_detached(row) for row in jac)
    return _unpack_jacobian(jac, is_outputs_tuple, is_inputs_tuple)


def hessian(
    func: Callable[..., Tensor],
    inputs: Tensor | tuple[Tensor, ...],
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
):
    """The Hessian of ``func`` (which returns a single element) at ``inputs``: the Jacobian of
    its gradient.

    For one input, a Tensor of shape ``input.shape + input.shape``; for a tuple of inputs,
    ``result[i][j]`` holds the second derivatives with respect to inputs ``i`` and ``j``.
    ``vectorize`` and ``outer_jacobian_strategy`` are passed to the outer ``jacobian`` (see there:
    the values are the same either way).

    >>> import minigrad as torch
    >>> from minigrad.autograd.functional import hessian
    >>> x = torch.tensor([1.0, 2.0])
    >>> hessian(lambda t: t[0] ** 2 * t[1], x)
    tensor([[4., 2.],
            [2., 0.]])
    >>> hessian(lambda a, b: (a * b).sum(), (x, x))[0][1]
    tensor([[1., 0.],
            [0., 1.]])
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*args: Tensor) -> Tensor:
        out = func(*args)
        is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_differentiable(outs, "outputs", strict)
        _check_single_element(outs, is_tuple, "hessian")
        return out.squeeze()  # 0-d, so that the gradient with respect to an input has its shape

    def gradient(*args: Tensor) -> tuple[Tensor, ...]:
        # create_graph=True: the outer jacobian differentiates the gradient again
        grads = jacobian(scalar_func, args, create_graph=True)
        _check_differentiable(grads, "jacobian", strict)
        return grads

    if outer_jacobian_strategy == "forward-mode":
        # PyTorch's forward-over-reverse Hessian marks its inputs as requiring grad, so its result
        # is recorded in a graph even for inputs that did not require grad. Same here, on copies.
        inputs = tuple(t if t.requires_grad else t.detach().requires_grad_(True) for t in inputs)
    hess = jacobian(gradient, inputs, create_graph, strict, vectorize, outer_jacobian_strategy)
    return _unpack_jacobian(hess, is_inputs_tuple, is_inputs_tuple)
