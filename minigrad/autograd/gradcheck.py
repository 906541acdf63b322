"""Check analytical gradients against finite differences, as ``torch.autograd.gradcheck`` does."""

from __future__ import annotations

from collections.abc import Callable

from .. import _warn, backend
from .engine import grad as _grad
from .grad_mode import enable_grad


class GradcheckError(RuntimeError):
    """Raised by gradcheck/gradgradcheck when gradients disagree."""


def _as_tuple(x):
    from ..tensor import Tensor

    return (x,) if isinstance(x, Tensor) else tuple(x)


def _differentiable(inputs):
    return [t for t in inputs if getattr(t, "requires_grad", False)]


def _shown(jacobian) -> str:
    """A Jacobian (a host array) printed as PyTorch prints it in its messages: as a tensor."""
    from ..tensor import Tensor

    return str(Tensor._make(jacobian))


def _outputs(func, inputs):
    return _as_tuple(func(*inputs))


# Jacobians are built on the host (NumPy), whatever the devices of the inputs and outputs.
_host = backend.xp(backend.CPU)


def _values(t):
    """The values of a tensor as a flat float64 NumPy array (copied from a GPU)."""
    return backend.to_numpy(t._data).astype("float64").reshape(-1)


def _numerical_jacobian(func, inputs, target, output_index, eps):
    """d output / d target by central differences, one column per element of ``target``."""
    flat = target._data.reshape(-1)  # a view: writing it perturbs the input in place
    out0 = _outputs(func, inputs)[output_index]
    jac = _host.zeros((target.numel(), out0.numel()), dtype="float64")

    def put(i, value):
        with backend.on(target.device):  # a write is a kernel on the input's GPU
            flat[i] = value

    for i in range(flat.size):
        orig = flat[i].item()
        # Evaluated in the caller's grad mode, as PyTorch does: a func that differentiates inside
        # (a gradient penalty, a Hessian) needs its graph even here.
        put(i, orig + eps)
        plus = _values(_outputs(func, inputs)[output_index])
        put(i, orig - eps)
        minus = _values(_outputs(func, inputs)[output_index])
        put(i, orig)
        jac[i] = (plus - minus) / (2 * eps)
    return jac


def _analytical_jacobian(func, inputs, targets, output_index):
    """Rows of the Jacobian from one backward pass per output element."""
    from ..tensor import Tensor

    out = _outputs(func, inputs)[output_index]
    jacs = [_host.zeros((t.numel(), out.numel()), dtype="float64") for t in targets]
    for j in range(out.numel()):
        unit = _host.zeros(out.numel(), dtype=out._data.dtype)
        unit[j] = 1
        grad_output = Tensor._make(backend.place(unit.reshape(out.shape), out.device))
        grads = _grad(out, targets, grad_output, retain_graph=True, allow_unused=True)
        for jac, g in zip(jacs, grads):
            if g is not None:
                jac[:, j] = _values(g)
    return jacs


def gradcheck(
    func: Callable,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    **_ignored,
) -> bool:
    """True when the gradients of ``func`` at ``inputs`` match finite differences.

    Use float64 inputs with ``requires_grad=True``.

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(lambda t: (t * t).sin(), (x,))
    True
    """
    inputs = _as_tuple(inputs)
    targets = _differentiable(inputs)
    if not targets:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them have requires_grad=True."
        )
    for t in targets:
        if t.dtype.name != "float64":
            _warn.warn(
                f"Input #{inputs.index(t)} requires gradient and is not a double precision floating "
                "point. This check will likely fail if all the inputs are not of double precision "
                "floating point. ",
                UserWarning,
            )
    outputs = _outputs(func, inputs)
    for oi, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        analytical = _analytical_jacobian(func, inputs, targets, oi)
        for ti, t in enumerate(targets):
            numerical = _numerical_jacobian(func, inputs, t, oi, eps)
            if not _host.allclose(analytical[ti], numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {oi} with respect to input {inputs.index(t)},\n"
                    f"numerical:{_shown(numerical)}\nanalytical:{_shown(analytical[ti])}\n"
                )
    return True


def gradgradcheck(
    func: Callable,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    **_ignored,
) -> bool:
    """Check second derivatives: gradcheck of the (create_graph) gradient of ``func``."""
    from ..factories import randn

    inputs = _as_tuple(inputs)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:
        grad_outputs = tuple(
            randn(o.shape, dtype=o.dtype, device=o.device, requires_grad=True) for o in outputs if o.requires_grad
        )
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_derivative(*args):
        ins, gos = args[:n], args[n:]
        # The first derivative needs a graph even if the caller switched recording off.
        with enable_grad():
            outs = [o for o in _outputs(func, ins) if o.requires_grad]
            diff = _differentiable(ins)
            grads = _grad(outs, diff, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None and g.requires_grad)

    return gradcheck(
        first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception
    )
