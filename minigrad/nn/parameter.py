"""``nn.Parameter``: a tensor that a :class:`~minigrad.nn.Module` registers as one of its weights."""

from __future__ import annotations

from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad by default and that modules list in ``parameters()``.

    It shares storage (and the version counter) with ``data``, as PyTorch's does; operations on it
    give plain tensors.

    >>> import minigrad as torch
    >>> torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            from ..factories import empty

            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}")
        self._init(data._data)
        self._version_counter = data._version_counter
        self.requires_grad = requires_grad  # checks the dtype (only floats can require grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        # pickle/copy as a Parameter of the same values (the graph state is not kept)
        return (_rebuild_parameter, (Tensor._make(self._data), self.requires_grad))


def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter:
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # isinstance(t, Buffer) holds for the tensors that Buffer(...) marked
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor marked to become a buffer when assigned to a module's attribute (``Parameter``'s
    counterpart for state that is not trained); ``persistent=False`` keeps it out of ``state_dict``.

    ``Buffer(data)`` returns a plain tensor (``data`` detached) carrying the mark, as PyTorch's.

    >>> import minigrad as torch
    >>> m = torch.nn.Module()
    >>> m.steps = torch.nn.Buffer(torch.tensor(0))
    >>> list(m.state_dict())
    ['steps']
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Tensor:
        if data is None:
            from ..factories import empty

            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
