"""The Tensor: an array on a device plus what autograd needs to know about it.

Autograd state, as in PyTorch:

- ``requires_grad``: record operations on this tensor;
- ``grad_fn``: the backward node of the operation that made it (``None`` for leaves);
- ``grad``: filled by ``backward()`` on leaves that require grad (and on ``retain_grad()`` tensors);
- ``_version``: bumped by every in-place change, so backward can detect a saved tensor that was
  modified after it was saved.
"""

from __future__ import annotations

import builtins
import weakref
from collections.abc import Callable
from types import MappingProxyType

from . import _warn, backend, dtypes
from . import random as _random
from .autograd import engine
from .autograd.grad_mode import _state as _grad_mode
from .autograd.grad_mode import is_grad_enabled, no_grad
from .autograd.graph import AccumulateGrad
from .hooks import RemovableHandle, add_hook


class Size(tuple):
    """A tensor's shape; a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    # Slicing, concatenating and repeating a shape give a shape again, as in PyTorch.
    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other) -> Size:
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other) -> Size:
        return Size(tuple(other) + tuple(self))

    def __mul__(self, times: int) -> Size:
        return Size(tuple(self) * times)

    __rmul__ = __mul__


_NO_HOOKS = MappingProxyType({})
# PyTorch's words after both of its errors about views taken in no_grad mode (and inference mode).
_NO_GRAD_VIEW_ADVICE = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
)
_INFERENCE_VIEW_ADVICE = _NO_GRAD_VIEW_ADVICE.replace("no_grad block", "inference_mode block")
_MULTI_VIEW_ADVICE = (
    "This view is the output of a function that returns multiple views. Such functions do not allow the output "
    "views to be modified inplace. You should replace the inplace operation by an out-of-place one."
)
_CUSTOM_FUNCTION_VIEW_ADVICE = (
    "This view was created inside a custom Function (or because an input was returned as-is) and the autograd "
    "logic to handle view+inplace would override the custom backward associated with the custom Function, "
    "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the "
    "custom Function."
)
_SELF_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single memory "
    "location (it was made by expand()). Please clone() the tensor before performing the operation."
)
_EXPANDED_WARNING = (
    "Use of {} on expanded tensors is deprecated. Please clone() the tensor before performing this operation. "
    "This also applies to advanced indexing e.g. {}"
)
_EXPANDED_EXAMPLE = {
    "index_put_": "tensor[indices] = tensor",
    "masked_fill_": "tensor[mask] = scalar",
    "index_fill_": "tensor[mask] = scalar",
}
_OVERLAP_MESSAGE = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
_DTYPE_OF = dtypes._by_array_dtype  # filled by dtypes.from_array_dtype
_ndarray = backend.CPU_ARRAY


class _VersionCounter:
    """Shared by a tensor and its views/detached aliases: in-place changes to any of them count."""

    value = 0  # a class default, so making a counter (one per tensor) runs no Python code


class Tensor:
    """A multi-dimensional array that can record the operations applied to it.

    >>> import minigrad as torch
    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> y = x * x
    >>> y
    tensor(9., grad_fn=<MulBackward0>)
    >>> y.backward()
    >>> x.grad
    tensor(6.)
    """

    __array_priority__ = 1000  # NumPy defers to our reflected operators (array * tensor)
    # What every tensor has lives in slots (quicker to make); the rest in a dict made on first use.
    __slots__ = ("_data", "_requires_grad", "_version_counter", "__dict__", "__weakref__")

    def __init__(self, *args, dtype=None, device=None):
        # torch.Tensor(data) / torch.Tensor(2, 3): the legacy constructor, float32 by default.
        from .factories import _legacy

        t = _legacy(args, dtype or dtypes.get_default_dtype(), device)
        self._init(t._data)

    # Defaults for what most tensors never set (instances only store what differs).
    _grad_fn = None
    _output_nr = 0
    _grad = None
    _hooks: dict = _NO_HOOKS
    _post_accumulate_hooks: dict = _NO_HOOKS
    _accumulator = None
    _retains_grad = False
    _base = None  # for views: the tensor whose storage this one shows
    _view_steps: tuple = ()  # for views: the view operations that take this view from _base
    _view_version = 0  # the storage's version when this view's grad_fn was made
    # For views taken in no_grad mode (True) or inference mode ("inference"): PyTorch forbids recording through them.
    _view_no_grad: bool | str = False
    # For views whose node cannot be made again for them alone, and views of them: PyTorch's advice
    # for why they may not change in place (_MULTI_VIEW_ADVICE for unbind/split/chunk, whose one
    # node stands for several views; _CUSTOM_FUNCTION_VIEW_ADVICE for a custom Function's output).
    _locked_view: str | None = None
    _wrapped_number = False  # a Python number an operation made a tensor of (x * 2): saved tensor hooks skip it
    _inference = False  # made inside inference_mode (or a view or detach of such a tensor)

    def _init(self, data) -> None:
        """Set up a leaf holding ``data`` (for the constructors; operations use ``_make``)."""
        if not data.size and data.base is None:
            data = backend.with_torch_strides(data)
        self._data = data
        self._requires_grad = False
        self._version_counter = _VersionCounter()
        if _grad_mode.inference:
            self._inference = True

    @classmethod
    def _make(cls, data, requires_grad: bool = False, grad_fn=None, output_nr: int = 0) -> Tensor:
        """Wrap an array without copying or checking (internal fast path: every operation's
        result is made here, so it sets its attributes without calling ``_init``)."""
        t = object.__new__(cls)
        if type(data) is not _ndarray and not backend.is_array(data):  # e.g. a NumPy scalar
            data = backend.xp(backend.device_of(data)).asarray(data)
        t._data = data
        t._requires_grad = requires_grad
        t._version_counter = _VersionCounter()
        if grad_fn is not None:
            t._grad_fn = grad_fn
            t._output_nr = output_nr
        if _grad_mode.inference:
            t._inference = True
        return t

    # ------------------------------------------------------------------ basic properties
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        """The shape, or the size of one dimension."""
        if dim is None:
            return self.shape
        from .functions import _wrap_dim

        return self._data.shape[_wrap_dim(dim, self.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> dtypes.dtype:
        return _DTYPE_OF.get(self._data.dtype) or dtypes.from_array_dtype(self._data.dtype)

    @property
    def device(self) -> backend.device:
        return backend.device_of(self._data)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    def get_device(self) -> builtins.int:
        """The GPU index of a CUDA tensor, -1 for a CPU tensor (as PyTorch)."""
        device = self.device
        return -1 if device.type == "cpu" else device.index

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def element_size(self) -> int:
        return self.dtype.itemsize

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    def contiguous(self, memory_format=backend.contiguous_format) -> Tensor:
        """This tensor if its elements lie in row-major order, else a row-major copy (``CloneBackward0``)."""
        if memory_format is not backend.contiguous_format and memory_format is not backend.preserve_format:
            backend.strides_in(memory_format, self._data, "contiguous")  # the argument's type and rank
            raise NotImplementedError(f"minigrad's contiguous() lays tensors out row-major, not in {memory_format}")
        return self if self.is_contiguous() else F.contiguous_op(self)

    def _is_view(self) -> bool:
        """True for a view: a tensor that shows another's memory (``_base``) and whose in-place
        changes autograd tracks there. ``detach()`` and ``.data`` share memory too but are no views.

        >>> import minigrad as torch
        >>> x = torch.zeros(2, 3)
        >>> x[0]._is_view(), x.clone()._is_view()
        (True, False)
        """
        return self._base is not None

    def _is_stale_view(self) -> bool:
        """True for a view whose storage was changed in place after its grad_fn was made: that
        grad_fn describes the view as it was then, not the values it shows now."""
        return self._base is not None and self._view_version != self._version_counter.value

    def _regenerate_view(self) -> None:
        """Make a stale view's grad_fn again, from its base's current one.

        As in PyTorch, the new node is an ``AsStridedBackward0`` that takes the view from the base
        (so ``y[0]`` after ``y.mul_(2)`` leads to the ``MulBackward0`` of ``y``)."""
        base = self._base
        if self._grad_fn is None and not base._requires_grad:
            return  # never part of a graph, so nothing to make
        if self._view_no_grad:
            raise self._no_grad_view_error("its base or another view of its base has been modified inplace")
        if self._locked_view:
            raise self._locked_view_error("its base or another view of its base has been modified inplace")
        steps = F._steps_now(self)  # (steps from the base's current layout)
        again = F.view_again(base, steps)
        node = again._grad_fn
        if node is None:  # a view of a leaf view whose base needs no gradient: as in PyTorch, the
            # view keeps requiring grad, but its new node leads nowhere (next_functions ((None, 0),))
            node = F.as_strided_op.node_class((base,), {"steps": F.ViewSteps(steps)}, again)
        old_fn, old_nr = self._grad_fn, self._output_nr
        self._grad_fn, self._output_nr, self._requires_grad = node, 0, True
        self._view_version = self._version_counter.value
        self._move_retained_grad(old_fn, old_nr)

    def _no_grad_view_error(self, change: str) -> RuntimeError:
        """PyTorch's error for a view taken in no_grad (or inference) mode that ``change`` while
        grad mode is on."""
        mode, now, advice = "no_grad", "with grad mode enabled", _NO_GRAD_VIEW_ADVICE
        if self._view_no_grad == "inference":
            mode, now, advice = "inference", "in normal mode", _INFERENCE_VIEW_ADVICE
        what = "A view was created"
        if self._grad_fn is not None:  # taken with grad mode on, from a view taken in that mode
            what = f"Output {self._output_nr} of {F.forward_name(self._grad_fn.name())} is a view of a view which was created"
        return RuntimeError(f"{what} in {mode} mode and {change} {now}. {advice}")

    def _locked_view_error(self, change: str) -> RuntimeError:
        """PyTorch's error for a locked view (made by unbind/split/chunk or a custom Function, or a
        view of one) that ``change``."""
        if self._grad_fn is None:
            what = f"A view was created in no_grad mode and {change} with grad mode enabled."
        else:
            what = f"Output {self._output_nr} of {F.forward_name(self._grad_fn.name())} is a view and {change}."
        return RuntimeError(f"{what} {self._locked_view}")

    @property
    def _version(self) -> int:
        """How many in-place changes this tensor (or a view of its storage) has seen."""
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter.value

    def is_inference(self) -> bool:
        """True for a tensor made inside ``inference_mode()`` (or a view or detach of one)."""
        return self._inference

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        if self.ndim == 0:
            _warn.warn(
                "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
                UserWarning,
            )
        elif self.ndim != 2:
            _warn.warn(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices "
                "or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
                UserWarning,
            )
        return self.permute(tuple(reversed(range(self.ndim))))

    @property
    def mT(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped (a batch of matrices transposed)."""
        return self._matrix_transpose("mT")

    @property
    def mH(self) -> Tensor:  # noqa: N802
        """The conjugate transpose of the last two dimensions: ``mT`` for real tensors."""
        return self._matrix_transpose("mH")

    @property
    def H(self) -> Tensor:  # noqa: N802
        """The transpose of a matrix (2-D only; see ``mH`` for batches)."""
        if self.ndim not in (0, 2):
            batches = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
            raise RuntimeError(
                f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.{batches}"
            )
        return self._matrix_transpose("H")

    def _matrix_transpose(self, name: str) -> Tensor:
        if self.ndim == 0:
            _warn.warn(
                f"Tensor.{name} is deprecated on 0-D tensors. This function is the identity in these cases.",
                UserWarning,
            )
            return self
        if self.ndim == 1:
            raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    # ------------------------------------------------------------------ autograd state
    @property
    def grad_fn(self):
        """The backward node of the operation that made this tensor (``None`` for leaves)."""
        if self._is_stale_view():
            self._regenerate_view()
        return self._grad_fn

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is (``unbind`` and ``split`` make several)."""
        return self._output_nr

    @property
    def requires_grad(self) -> bool:
        if self._base is not None:  # as in PyTorch: a view requires grad when its base does
            if not (self._view_no_grad or self._locked_view) and self._is_stale_view():
                self._regenerate_view()  # (its node, from the base's current one)
            return self._requires_grad or self._base._requires_grad
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        # (the node as it is, not made again for a stale view: PyTorch reads it so, and a view
        # taken under no_grad whose base changed since may still be set)
        if self._grad_fn is not None:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                f"var_no_grad = var.detach(). (This tensor was made by {self._grad_fn.name()}.)"
            )
        if value and self._inference and not _grad_mode.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError(
                "only Tensors of floating point dtype can require gradients "
                f"(this tensor is {self.dtype}; make it with a float, e.g. torch.tensor(1.0), or "
                "convert it with .float())"
            )
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return the tensor (a no-op for ``True`` on a result
        of the graph, which requires grad already, as in PyTorch)."""
        if requires_grad and self._grad_fn is not None:
            return self
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors not made by a recorded operation (``grad_fn is None``)."""
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        # (reading .grad never makes a stale view's node again, as in PyTorch)
        if self._grad_fn is not None and not self._retains_grad and self._grad is None:
            _warn.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
                ".grad attribute won't be populated during autograd.backward(). If you indeed want "
                "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
                "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
                f"the leaf Tensor instead. This tensor is not a leaf: it was produced by "
                f"{self._grad_fn.name()}, so its gradient flowed through to that operation's inputs "
                "instead of being stored here.",
                UserWarning,
            )
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                    f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype}' to a tensor with "
                    f"dtype '{self.dtype}'. Convert it with .to({self.dtype})"
                )
            if value.device != self.device:
                raise RuntimeError(
                    f"attempting to assign a gradient on device '{value.device}' to a tensor on '{self.device}'"
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor after backward (a no-op on leaves)."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:  # (a leaf as PyTorch tells one: its node as it is)
            return
        self.grad_fn._own("_retained")[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def _move_retained_grad(self, old_fn, old_nr: int) -> None:
        """After an in-place change gave this tensor a new grad_fn: ``retain_grad()`` keeps the
        gradient of the new version, as in PyTorch (hooks registered before stay where they are)."""
        if self._retains_grad and old_fn is not None and old_fn is not self._grad_fn:
            if old_nr in old_fn._retained:
                del old_fn._retained[old_nr]
            self._grad_fn._own("_retained")[self._output_nr] = weakref.ref(self)

    def _grad_accumulator(self) -> AccumulateGrad:
        """The AccumulateGrad node of this leaf (one per leaf while a graph uses it)."""
        node = self._accumulator() if self._accumulator is not None else None
        if node is None:
            node = AccumulateGrad(self)
            self._accumulator = weakref.ref(node)
        return node

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when the gradient of this tensor is computed.

        Return ``None`` to only look at it, or a tensor of the same shape to replace it. On a leaf,
        what the hooks return is what accumulates into ``.grad``; on a non-leaf it is what flows on.

        >>> import minigrad as torch
        >>> v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
        >>> h = v.register_hook(lambda grad: grad * 2)
        >>> v.backward(torch.tensor([1.0, 2.0, 3.0]))
        >>> v.grad
        tensor([2., 4., 6.])
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            handle = add_hook(self._own_hooks("_hooks"), hook)
            node = self._accumulator() if self._accumulator is not None else None
            if node is not None:  # a graph already leads here: its engine must now look for hooks
                node._hooked = True
            return handle
        hooks = self.grad_fn._own("_tensor_hooks").setdefault(self._output_nr, {})
        return add_hook(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """Call ``hook(tensor)`` after the gradient has been accumulated into ``tensor.grad``."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        return add_hook(self._own_hooks("_post_accumulate_hooks"), hook)

    def _own_hooks(self, attr: str) -> dict:
        if getattr(self, attr) is _NO_HOOKS:
            setattr(self, attr, {})
        return getattr(self, attr)

    def backward(
        self, gradient: Tensor | None = None, retain_graph: bool | None = None, create_graph: bool = False, inputs=None
    ) -> None:
        """Accumulate the gradient of this tensor into ``.grad`` of the graph's leaves."""
        engine.backward(self, gradient, retain_graph, create_graph, inputs)

    def detach(self) -> Tensor:
        """A tensor sharing storage and version counter, cut from the graph."""
        t = Tensor._make(self._data)
        t._version_counter = self._version_counter
        t._inference = self._inference
        return t

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph in place (it becomes a leaf); not for views, as in PyTorch."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead: it makes a new tensor that shares "
                "the storage, cut from the graph."
            )
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """The values as a tensor outside the graph (shares storage; changes are not tracked)."""
        t = Tensor._make(self._data)
        if t._inference != self._inference:  # an inference tensor's data is one, whatever the mode
            t._inference = self._inference
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        self._data = value._data

    # ------------------------------------------------------------------ conversion
    def item(self) -> builtins.float | builtins.int | builtins.bool:
        """The value of a one-element tensor as a Python number."""
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return backend.to_numpy(self._data).reshape(()).item()

    def tolist(self):
        return backend.to_numpy(self._data).tolist()

    def numpy(self, *, force: bool = False):
        """The values as a NumPy array sharing memory with this tensor (CPU only)."""
        if self.requires_grad and not force and is_grad_enabled():  # (PyTorch allows it under no_grad)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            if not force:
                raise TypeError(
                    f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to "
                    "copy the tensor to host memory first."
                )
            return backend.to_numpy(self._data)
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def to(self, *args, **kwargs) -> Tensor:
        """Convert dtype and/or move device: ``to(torch.float64)``, ``to("cuda")``, ``to(other)``.

        A conversion is an operation (``ToCopyBackward0``), so its result is not a leaf; when
        nothing changes the tensor itself is returned.
        """
        dtype, device, copy = kwargs.pop("dtype", None), kwargs.pop("device", None), kwargs.pop("copy", False)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        for a in args:
            if isinstance(a, dtypes.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype, device = a.dtype, a.device
            elif isinstance(a, str | backend.device | builtins.int) and not isinstance(a, builtins.bool):
                device = a
            elif isinstance(a, builtins.bool):
                pass  # non_blocking
            else:
                raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
        dtype = dtype or self.dtype
        device = backend.as_device(device) if device is not None else self.device
        if dtype is self.dtype and device == self.device and not copy:
            return self
        from .functions import to_copy_op

        backend.xp(device)  # a clear error now if that device is unavailable
        return to_copy_op(self, to_dtype=dtype, device=device, source=self.device)

    def type(self, dtype=None, non_blocking: builtins.bool = False):
        """The legacy type name (``'torch.FloatTensor'``) with no argument, else ``self`` converted
        to ``dtype``: a dtype, a legacy name or a legacy constructor (``torch.DoubleTensor``)."""
        if dtype is None:
            return _legacy_type_name(self)
        if isinstance(dtype, str) or callable(dtype) and dtype.__name__.endswith("Tensor"):
            name = dtype if isinstance(dtype, str) else "torch." + dtype.__name__
            found = [
                d for d in dtypes.ALL if name in (f"torch.{d._legacy_name}Tensor", f"torch.cuda.{d._legacy_name}Tensor")
            ]
            if name == "torch.Tensor":
                found = [dtypes.get_default_dtype()]
            if not found:
                raise ValueError(f"invalid type: '{name}'")
            return self.to(found[0], device="cuda" if name.startswith("torch.cuda.") else self.device)
        return self.to(dtype)

    def float(self) -> Tensor:
        return self.to(dtypes.float32)

    def double(self) -> Tensor:
        return self.to(dtypes.float64)

    def half(self) -> Tensor:
        return self.to(dtypes.float16)

    def long(self) -> Tensor:
        return self.to(dtypes.int64)

    def int(self) -> Tensor:
        return self.to(dtypes.int32)

    def bool(self) -> Tensor:
        return self.to(dtypes.bool)

    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, device=None) -> Tensor:
        return self.to(
            backend.device("cuda", device if isinstance(device, builtins.int) else None)
            if not isinstance(device, str | backend.device)
            else device
        )

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def new_tensor(self, data, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        from .factories import tensor

        return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        from .factories import zeros

        return zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        from .factories import ones

        return ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        from .factories import full

        return full(
            size, fill_value, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad
        )

    # ------------------------------------------------------------------ Python protocol
    def __repr__(self) -> str:
        from ._printing import tensor_repr

        return tensor_repr(self)

    def __format__(self, spec: str) -> str:
        # PyTorch formats a 0-d tensor as its number, even with an empty spec (f"{t}" -> "1.0").
        if self.ndim == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)  # str(self); a spec raises PyTorch's TypeError

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(F.unbind(self, 0))  # as PyTorch: the rows share one UnbindBackward0

    def __bool__(self) -> builtins.bool:
        if self.numel() != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with more than one value is ambiguous (this one has "
                f"{self.numel()} values; use .any() or .all())"
            )
        return builtins.bool(self.item())

    def __float__(self) -> builtins.float:
        global _warned_scalar_of_grad
        # once per process, and only in grad mode (L-BFGS reads its loss under no_grad), as PyTorch warns
        if self.requires_grad and not _warned_scalar_of_grad and is_grad_enabled():
            _warned_scalar_of_grad = True
            _warn.warn(
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                "Consider using tensor.detach() first.",
                UserWarning,
            )
        return builtins.float(self._scalar())

    def __int__(self) -> builtins.int:
        return builtins.int(self._scalar())

    def _scalar(self) -> builtins.float | builtins.int | builtins.bool:
        """The value of a one-element tensor, for ``float(t)`` and ``int(t)`` (PyTorch's ValueError)."""
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __contains__(self, element) -> builtins.bool:
        """``element in t``: whether any element of ``t`` equals ``element`` (a number or tensor)."""
        if not isinstance(element, Tensor | builtins.int | builtins.float | backend.numpy.number):
            raise RuntimeError(
                f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}."
            )
        return builtins.bool((self == element).any().item())

    def __reversed__(self) -> Tensor:
        """``reversed(t)``: ``t`` flipped along its first dim (a 0-d tensor itself), as in PyTorch."""
        return self if self.ndim == 0 else F.flip(self, 0)

    def __index__(self) -> builtins.int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    __hash__ = object.__hash__

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment. Use .detach().clone() first."
            )
        t = type(self)._make(backend.copy(self._data), self.requires_grad)
        if isinstance(self, Tensor) and type(self) is not Tensor:
            t.__dict__.update({k: v for k, v in self.__dict__.items() if k not in t.__dict__})
        if self._grad is not None:
            t._grad = self._grad.detach().clone()
        memo[id(self)] = t
        return t

    # ------------------------------------------------------------------ in-place machinery
    def _check_inplace(self) -> None:
        self._check_inference()
        # A leaf (not a no_grad view). The node as it is: a stale view's is made again only after
        # the view checks, so that their errors say the view "is being modified inplace".
        if self._grad_fn is None and self._requires_grad and is_grad_enabled():
            if self._base is not None:  # made a leaf by requires_grad_(): PyTorch names it a view first
                self._check_inplace_on_view()
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation. "
                "Wrap the update in `with torch.no_grad():` (as optimizers do), or use an "
                "out-of-place operation (w = w - ...) if you mean to build a new tensor."
            )

    def _check_inference(self) -> None:
        if self._inference and not _grad_mode.inference:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                "clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details."
            )

    def _apply_inplace(
        self,
        compute: Callable[[Tensor], Tensor],
        operands: tuple = (),
        reads_operands: builtins.bool = True,
        fills: builtins.bool = False,
        differentiable: builtins.bool = True,
        expanded: str | None = None,
    ) -> Tensor:
        """Replace this tensor's values by ``compute(self)`` in place.

        When the change is recorded, the old value is kept as a snapshot that carries this
        tensor's place in the graph; the op runs on it out of place, and this tensor takes over
        the result's ``grad_fn`` (so ``y *= 2`` gives ``y`` a ``MulBackward0``, as in PyTorch).
        On a view, the view's base takes a ``CopySlices`` node instead (its gradient goes through
        the op where the view lies, and straight through elsewhere), and the view's own grad_fn
        is made again from it when next asked for (``AsStridedBackward0``). ``reads_operands``:
        the op reads its tensor operands elementwise (fill_ and masked_fill_ only read a number),
        so none may partly overlap this tensor in memory. ``fills``: every element gets one number
        (fill_, zero_), which PyTorch allows on an ``expand``ed tensor; other ops refuse one, after
        the leaf and view checks (PyTorch's autograd layer checks before its kernels do).
        ``differentiable=False``: an op with no derivative at all (logical_and_, ...), which PyTorch
        lets change even a leaf that requires grad; nothing is recorded. ``expanded``: the name of
        an op that writes only where it indexes (index_put_, masked_fill_, index_fill_), which
        PyTorch still runs on an ``expand``ed tensor, with a deprecation warning.
        """
        if differentiable:
            record = self._check_writable(operands)
        else:
            self._check_inference()
            record = False
        if not fills and backend.overlaps_itself(self._data):
            if expanded is None:
                raise RuntimeError(_SELF_OVERLAP_MESSAGE)
            _warn.warn(_EXPANDED_WARNING.format(expanded, _EXPANDED_EXAMPLE[expanded]), UserWarning)
        if reads_operands:
            for o in operands:
                if isinstance(o, Tensor) and backend.overlap(self._data, o._data) == "partial":
                    raise RuntimeError(_OVERLAP_MESSAGE)
        on_view = record and self._base is not None
        steps = F._steps_now(self, writing=True) if on_view else None  # (before the write: it may refuse)
        source = self._snapshot() if record else self
        with no_grad() if not record else _nullcontext():
            result = compute(source)
        self._write(result, fills, expanded is not None)
        record = record and result._grad_fn is not None  # an integer or bool tensor stays out of the graph
        if record:
            fn = result._grad_fn
            changed = self._base if on_view else self  # the tensor whose grad_fn is replaced
            old_fn, old_nr = changed._grad_fn, changed._output_nr
            if on_view:
                base = self._base
                base._grad_fn = F.CopySlices(base, fn, steps)
                base._output_nr, base._requires_grad = 0, True
            else:
                self._grad_fn, self._output_nr, self._requires_grad = fn, 0, True
            changed._move_retained_grad(old_fn, old_nr)
            saved = getattr(fn, "saved", {}).get("result")
            if saved is not None:  # the node's saved output is now this tensor
                saved.counter, saved.data = self._version_counter, self._data
                if on_view:
                    saved.view_of = weakref.ref(self._base._grad_fn)
        self._version_counter.value += 1
        if record and saved is not None:
            saved.version = self._version_counter.value
        return self

    def _check_writable(self, operands: tuple) -> builtins.bool:
        """PyTorch's errors for writing into a leaf that requires grad (or a view of one); returns
        whether the in-place op with ``operands`` is recorded."""
        self._check_inplace()
        record = is_grad_enabled() and (
            self.requires_grad or builtins.any(isinstance(o, Tensor) and o.requires_grad for o in operands)
        )
        if record and self._base is not None:
            self._check_inplace_on_view()
        if record:  # a stale view among the operands gets its node now, before the kernel's checks (as PyTorch)
            for o in operands:
                if isinstance(o, Tensor) and o._is_stale_view():
                    o._regenerate_view()
        return record

    def _check_inplace_on_view(self) -> None:
        base = self._base
        if self._view_no_grad:
            raise self._no_grad_view_error("is being modified inplace")
        if self._locked_view:
            raise self._locked_view_error("is being modified inplace")
        if base._grad_fn is None and (base._requires_grad or self._requires_grad):  # the base is a leaf
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation. Change the leaf inside `with torch.no_grad():`, or work on a clone "
                "(y = x.clone(); y[0].mul_(2))."
            )

    def _snapshot(self) -> Tensor:
        """A copy of the current values that stands where this tensor stands in the graph."""
        t = Tensor._make(backend.copy(self._data), self.requires_grad, self.grad_fn, self._output_nr)
        if self.requires_grad and self.grad_fn is None:
            t._accumulator = weakref.ref(self._grad_accumulator())
        return t

    def _write(self, result: Tensor, fills: builtins.bool = False, indexes: builtins.bool = False) -> None:
        if result.shape != self.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(result.shape)}"
            )
        if dtypes._category(result.dtype) > dtypes._category(self.dtype):
            raise RuntimeError(
                f"result type {result.dtype._legacy_name} can't be cast to "
                f"the desired output type {self.dtype._legacy_name}"
            )
        dst, src = self._data, result._data
        if fills and backend.overlaps_itself(dst):  # one value everywhere: write each location once
            once = tuple(slice(0, 1) if stride == 0 else slice(None) for stride in dst.strides)
            dst, src = dst[once], src[once]
        elif indexes and backend.overlaps_itself(dst):  # only where the op wrote, in order: the last write wins
            backend.assign_changed(dst, src)
            return
        try:
            backend.assign(dst, src)
        except ValueError as exc:
            raise RuntimeError(f"{_SELF_OVERLAP_MESSAGE} ({exc})") from None

    def _accumulate_(self, other: Tensor) -> None:
        """``self += other`` on the raw values, outside autograd (gradient accumulation)."""
        backend.add_into(self._data, other._data)
        self._version_counter.value += 1

    def _adds_plainly(self, other) -> builtins.bool:
        """True when ``self += other`` needs neither autograd nor a conversion: not recorded, and
        ``other`` a floating tensor of the same shape, dtype and device (an optimizer's step)."""
        return (
            isinstance(other, Tensor)
            and not (is_grad_enabled() and (self._requires_grad or other._requires_grad))
            and self._data.dtype == other._data.dtype
            and self.dtype.is_floating_point
            and self._data.shape == other._data.shape
            and backend.same_device((self._data, other._data))
            and not backend.overlaps_itself(self._data)
            and backend.overlap(self._data, other._data) != "partial"
        )

    # In-place operations: each bumps ``_version``.
    def add_(self, other, *, alpha=1) -> Tensor:
        if self._adds_plainly(other):  # one NumPy update in place, where the general path copies
            backend.add_into(self._data, other._data, alpha)
            self._version_counter.value += 1
            return self
        return self._apply_inplace(lambda s: F.add(s, other, alpha=alpha), (other,))

    def sub_(self, other, *, alpha=1) -> Tensor:
        return self._apply_inplace(lambda s: F.sub(s, other, alpha=alpha), (other,))

    def mul_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.mul(s, other), (other,))

    def div_(self, other, **rounding_mode) -> Tensor:  # (given, even as None: PyTorch's DivBackward2)
        if rounding_mode.get("rounding_mode"):  # (checked first: an integer division by zero raises)
            return self._apply_inplace(lambda s: F.div(F._output_checked(s, other), other, **rounding_mode), (other,))
        return self._apply_inplace(lambda s: F.div(s, other, **rounding_mode), (other,))

    def pow_(self, exponent) -> Tensor:
        return self._apply_inplace(lambda s: F.pow(s, exponent), (exponent,))

    def clamp_(self, min=None, max=None) -> Tensor:  # noqa: A002
        return self._apply_inplace(lambda s: F.clamp(s, min, max), (min, max))

    clip_ = clamp_

    def clamp_min_(self, min) -> Tensor:  # noqa: A002
        return self._apply_inplace(lambda s: F.clamp_min(s, min), (min,))

    def clamp_max_(self, max) -> Tensor:  # noqa: A002
        return self._apply_inplace(lambda s: F.clamp_max(s, max), (max,))

    def logical_and_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.logical_and(s, other), (other,), differentiable=False)

    def logical_or_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.logical_or(s, other), (other,), differentiable=False)

    def masked_fill_(self, mask: Tensor, value) -> Tensor:
        return self._apply_inplace(
            lambda s: F._masked_fill(s, mask, value, in_place=True), (value,), False, expanded="masked_fill_"
        )

    def repeat(self, *sizes) -> Tensor:
        """This tensor tiled ``sizes[i]`` times along dim ``i`` (new leading dims where ``sizes``
        is longer than the shape).

        >>> import minigrad as torch
        >>> torch.tensor([1, 2]).repeat(2, 2)
        tensor([[1, 2, 1, 2],
                [1, 2, 1, 2]])
        """
        if not sizes:  # (no repeats at all is no overload; x.repeat(()) of a 0-d x is one)
            raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
        return F._repeat(self, *sizes)

    def tile(self, *dims) -> Tensor:
        """This tensor repeated ``dims[i]`` times along dim ``i`` (see :func:`minigrad.tile`)."""
        return F.tile(self, F._shape_args(dims))

    def scatter_(self, dim: int, index: Tensor, src=None, *, value=None, reduce: str | None = None) -> Tensor:
        return self._apply_inplace(
            lambda s: self._unshared(src, F.scatter(s, dim, index, src, value=value, reduce=reduce)), (src,)
        )

    def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: self._unshared(src, F.scatter_add(s, dim, index, src)), (src,))

    def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
        return self._apply_inplace(
            lambda s: self._unshared(source, F.index_add(s, dim, index, source, alpha=alpha)), (source,)
        )

    def index_fill_(self, dim: int, index: Tensor, value) -> Tensor:
        return self._apply_inplace(
            lambda s: F._index_fill(s, dim, index, value), (value,), False, expanded="index_fill_"
        )

    def index_copy_(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: self._unshared(source, F.index_copy(s, dim, index, source)), (source,))

    # --- the scatter family ---
    def scatter_reduce_(
        self, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = True
    ) -> Tensor:
        return self._apply_inplace(
            lambda s: self._unshared(src, F.scatter_reduce(s, dim, index, src, reduce, include_self=include_self)),
            (src,),
        )

    def index_reduce_(
        self, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: builtins.bool = True
    ) -> Tensor:
        return self._apply_inplace(
            lambda s: self._unshared(source, F.index_reduce(s, dim, index, source, reduce, include_self=include_self)),
            (source,),
        )

    def index_put_(self, indices, values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        # (accumulate=True on an expanded tensor adds once per alias in PyTorch: refused here)
        expanded = None if accumulate else "index_put_"
        return self._apply_inplace(
            lambda s: self._unshared(values, F._index_put(s, indices, values, accumulate)), (values,), expanded=expanded
        )

    def _unshared(self, operand, result: Tensor) -> Tensor:
        """``result``, unless ``operand`` shares memory with this tensor: the scatter and index ops
        refuse even a full overlap (``x.scatter_(0, i, x)``) after their argument checks, as PyTorch."""
        if isinstance(operand, Tensor) and backend.overlap(self._data, operand._data):
            raise RuntimeError(_OVERLAP_MESSAGE)
        return result

    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: F._masked_scatter(s, mask, source, in_place=True), (source,))

    def put_(self, index: Tensor, source: Tensor, accumulate: builtins.bool = False) -> Tensor:
        return self._apply_inplace(lambda s: self._unshared(source, F.put(s, index, source, accumulate)), (source,))

    def fill_diagonal_(self, fill_value, wrap: builtins.bool = False) -> Tensor:
        """Write ``fill_value`` on the main diagonal in place (every ``columns + 1`` rows of a tall
        matrix again with ``wrap``).

        >>> import minigrad as torch
        >>> torch.zeros(2, 3).fill_diagonal_(7.0)
        tensor([[7., 0., 0.],
                [0., 7., 0.]])
        """
        return F._fill_diagonal_(self, fill_value, wrap)

    def unfold(self, dimension: builtins.int, size: builtins.int, step: builtins.int) -> Tensor:
        """A view of the windows of ``size`` elements every ``step`` along ``dimension`` (a new
        last dim runs along each window; they share memory where they overlap).

        >>> import minigrad as torch
        >>> torch.arange(5.0).unfold(0, 2, 2)
        tensor([[0., 1.],
                [2., 3.]])
        """
        return F._unfold(self, dimension, size, step)

    def tril_(self, diagonal: int = 0) -> Tensor:
        return self._apply_inplace(lambda s: F.tril(s, diagonal))

    def triu_(self, diagonal: int = 0) -> Tensor:
        return self._apply_inplace(lambda s: F.triu(s, diagonal))

    def zero_(self) -> Tensor:
        return self._apply_inplace(lambda s: F.zero_op(s), fills=True)

    def fill_(self, value) -> Tensor:
        if isinstance(value, Tensor):
            if value.ndim:
                raise RuntimeError(
                    f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} dimensions."
                )
            value = value.to(self.device)
            return self._apply_inplace(lambda s: F.fill_tensor_op(s, value, dtype=s.dtype), (value,), False)
        F._check_fits(value, self.dtype)
        return self._apply_inplace(lambda s: F.fill_op(s, value=value), fills=True)

    def copy_(self, src: Tensor, non_blocking: bool = False) -> Tensor:
        kind = _NUMBER_DTYPES.get(type(src))
        if kind is not None:  # a number: a 0-d tensor of its own dtype, as in PyTorch
            src = scalar_tensor(src, kind, self.device)
        if not isinstance(src, Tensor):
            raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
        self._check_writable((src,))  # PyTorch's leaf errors come first, then its overlap checks
        if backend.overlaps_itself(self._data):
            raise RuntimeError(_SELF_OVERLAP_MESSAGE)
        if src.device == self.device and backend.overlap(self._data, src._data) == "partial":
            raise RuntimeError(_OVERLAP_MESSAGE)
        shape = F._broadcast_shape(self.shape, src.shape)
        if shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
        src = src.to(self.device)
        return self._apply_inplace(lambda s: F.copy_op(s, src), (src,))

    def exp_(self) -> Tensor:
        return self._apply_inplace(F.exp)

    def relu_(self) -> Tensor:
        return self._apply_inplace(F.relu)

    def neg_(self) -> Tensor:
        return self._apply_inplace(F.neg)

    def sigmoid_(self) -> Tensor:
        return self._apply_inplace(F.sigmoid)

    def tanh_(self) -> Tensor:
        return self._apply_inplace(F.tanh)

    def tan_(self) -> Tensor:
        return self._apply_inplace(F.tan)

    def asin_(self) -> Tensor:
        return self._apply_inplace(F.asin)

    def acos_(self) -> Tensor:
        return self._apply_inplace(F.acos)

    def atan_(self) -> Tensor:
        return self._apply_inplace(F.atan)

    def sinh_(self) -> Tensor:
        return self._apply_inplace(F.sinh)

    def cosh_(self) -> Tensor:
        return self._apply_inplace(F.cosh)

    def asinh_(self) -> Tensor:  # AsinhBackward1, which PyTorch cannot differentiate
        return self._apply_inplace(lambda s: F.asinh_inplace_op(s, dtype=F._floating(s)))

    def acosh_(self) -> Tensor:  # AcoshBackward1, which PyTorch cannot differentiate
        return self._apply_inplace(lambda s: F.acosh_inplace_op(s, dtype=F._floating(s)))

    def atanh_(self) -> Tensor:  # AtanhBackward1, which PyTorch cannot differentiate
        return self._apply_inplace(lambda s: F.atanh_inplace_op(s, dtype=F._floating(s)))

    arcsin_, arccos_, arctan_ = asin_, acos_, atan_
    arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_

    def atan2_(self, other: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: F.atan2(s, other), (other,))

    arctan2_ = atan2_

    def hypot_(self, other: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: F.hypot(s, other), (other,))

    def log2_(self) -> Tensor:
        return self._apply_inplace(F.log2)

    def log10_(self) -> Tensor:
        return self._apply_inplace(F.log10)

    def exp2_(self) -> Tensor:
        return self._apply_inplace(F.exp2)

    def xlogy_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.xlogy(s, other), (other,))

    def lerp_(self, end: Tensor, weight) -> Tensor:
        return self._apply_inplace(lambda s: F.lerp(s, end, weight), (end, weight))

    def addcmul_(self, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        return self._apply_inplace(lambda s: F.addcmul(s, tensor1, tensor2, value=value), (tensor1, tensor2))

    def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        return self._apply_inplace(lambda s: F.addcdiv(s, tensor1, tensor2, value=value), (tensor1, tensor2))

    def frac_(self) -> Tensor:
        return self._apply_inplace(F.frac)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None) -> Tensor:
        return self._apply_inplace(lambda s: F.nan_to_num(s, nan, posinf, neginf))

    def logit_(self, eps=None) -> Tensor:
        return self._apply_inplace(lambda s: F.logit(s, eps))

    def sinc_(self) -> Tensor:
        return self._apply_inplace(F.sinc)

    def deg2rad_(self) -> Tensor:
        return self._apply_inplace(F.deg2rad)

    def rad2deg_(self) -> Tensor:
        return self._apply_inplace(F.rad2deg)

    def float_power_(self, exponent) -> Tensor:
        if self.dtype is not dtypes.float64:  # the result is always float64, as in PyTorch
            raise RuntimeError(
                f"the base given to float_power_ has dtype {self.dtype._legacy_name} but the operation's "
                "result requires dtype Double"
            )
        return self._apply_inplace(lambda s: F.float_power(s, exponent), (exponent,))

    def heaviside_(self, values: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: F.heaviside(s, values), (values,))

    def logical_xor_(self, other: Tensor) -> Tensor:
        return self._apply_inplace(lambda s: F.logical_xor(s, other), (other,), differentiable=False)

    def sgn_(self) -> Tensor:
        return self._apply_inplace(F.sgn)

    # --- in-place forms and aliases ---
    def abs_(self) -> Tensor:
        return self._apply_inplace(F.abs)

    absolute_ = abs_

    def ceil_(self) -> Tensor:
        return self._apply_inplace(F.ceil)

    def floor_(self) -> Tensor:
        return self._apply_inplace(F.floor)

    def trunc_(self) -> Tensor:
        return self._apply_inplace(F.trunc)

    fix_ = trunc_

    def round_(self, *, decimals: builtins.int | None = None) -> Tensor:
        given = {} if decimals is None else {"decimals": decimals}  # given, even 0, is RoundBackward1
        return self._apply_inplace(lambda s: F.round(s, **given))

    def sign_(self) -> Tensor:
        return self._apply_inplace(F.sign)

    def sin_(self) -> Tensor:
        return self._apply_inplace(F.sin)

    def cos_(self) -> Tensor:
        return self._apply_inplace(F.cos)

    def sqrt_(self) -> Tensor:
        return self._apply_inplace(F.sqrt)

    def rsqrt_(self) -> Tensor:
        return self._apply_inplace(F.rsqrt)

    def square_(self) -> Tensor:
        return self._apply_inplace(F.square)

    def reciprocal_(self) -> Tensor:
        return self._apply_inplace(F.reciprocal)

    def log_(self) -> Tensor:
        return self._apply_inplace(F.log)

    def log1p_(self) -> Tensor:
        return self._apply_inplace(F.log1p)

    def expm1_(self) -> Tensor:
        return self._apply_inplace(F.expm1)

    def erf_(self) -> Tensor:
        return self._apply_inplace(F.erf)

    negative_ = neg_

    def logical_not_(self) -> Tensor:
        # Not differentiable: as in PyTorch, the tensor keeps the grad_fn it had (a leaf may change).
        return self._apply_inplace(F.logical_not, differentiable=False)

    def cumsum_(self, dim: builtins.int, dtype: dtypes.dtype | None = None) -> Tensor:
        return self._apply_inplace(lambda s: F.cumsum(s, dim, dtype=self._same_dtype(dtype)))

    def cumprod_(self, dim: builtins.int, dtype: dtypes.dtype | None = None) -> Tensor:
        return self._apply_inplace(lambda s: F.cumprod(s, dim, dtype=self._same_dtype(dtype)))

    def _same_dtype(self, dtype: dtypes.dtype | None) -> dtypes.dtype | None:
        """The ``dtype=`` of an in-place op, which can only be this tensor's own (as in PyTorch)."""
        if dtype is not None and dtype is not self.dtype:
            raise RuntimeError(
                f"Bad in-place call: input tensor dtype {self.dtype._legacy_name.lower()} and output tensor "
                f"dtype {dtype._legacy_name.lower()} should match"
            )
        return dtype

    # Comparisons write 1 or 0 in this tensor's dtype; on a float tensor in a graph the node is
    # GeBackward0 (a number) or GeBackward1 (a tensor), with a zero gradient, as in PyTorch.
    def eq_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("eq", s, other), (other,))

    def ne_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("ne", s, other), (other,))

    def lt_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("lt", s, other), (other,))

    def le_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("le", s, other), (other,))

    def gt_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("gt", s, other), (other,))

    def ge_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F._compare_inplace("ge", s, other), (other,))

    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_

    def floor_divide_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.floor_divide(F._output_checked(s, other), other), (other,))

    def true_divide_(self, other) -> Tensor:
        return self.div_(other)

    divide_, multiply_, subtract_ = div_, mul_, sub_

    def _matmul_inplace(self, compute: Callable[[Tensor], Tensor], operands: tuple) -> Tensor:
        """addmm_ and the like: the product must have this tensor's shape (no broadcasting back)."""

        def checked(s: Tensor) -> Tensor:
            result = compute(s)
            if result.shape != self.shape:
                raise RuntimeError(
                    f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size "
                    f"{list(result.shape)} should match"
                )
            return result

        return self._apply_inplace(checked, operands)

    def addmm_(self, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
        return self._matmul_inplace(lambda s: F.addmm(s, mat1, mat2, beta=beta, alpha=alpha), (mat1, mat2))

    def addmv_(self, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
        return self._matmul_inplace(lambda s: F.addmv(s, mat, vec, beta=beta, alpha=alpha), (mat, vec))

    def addr_(self, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
        return self._matmul_inplace(lambda s: F.addr(s, vec1, vec2, beta=beta, alpha=alpha), (vec1, vec2))

    def baddbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        return self._matmul_inplace(lambda s: F.baddbmm(s, batch1, batch2, beta=beta, alpha=alpha), (batch1, batch2))

    def addbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        return self._matmul_inplace(lambda s: F.addbmm(s, batch1, batch2, beta=beta, alpha=alpha), (batch1, batch2))

    def short(self) -> Tensor:
        return self.to(dtypes.int16)

    def byte(self) -> Tensor:
        return self.to(dtypes.uint8)

    def char(self) -> Tensor:
        return self.to(dtypes.int8)

    def ndimension(self) -> builtins.int:
        return self.ndim

    @property
    def itemsize(self) -> builtins.int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> builtins.int:
        """Bytes the elements take (``numel() * itemsize``; a view counts only what it shows)."""
        return self.numel() * self.dtype.itemsize

    def stride(self, dim: builtins.int | None = None):
        """How many elements apart neighbours along each dimension lie in memory.

        >>> import minigrad as torch
        >>> x = torch.zeros(2, 3)
        >>> x.stride(), x.t().stride(), x.stride(-1)
        ((3, 1), (1, 3), 1)
        """
        strides = backend.element_strides(self._data)
        if not self._data.size and not any(strides):  # NumPy gives a new array without elements zeros
            strides = backend.row_major_strides(self._data.shape)
        if dim is None:
            return strides
        from .functions import _wrap_dim

        return strides[_wrap_dim(dim, self.ndim)]

    def storage_offset(self) -> builtins.int:
        """How many elements from the start of its memory block this tensor's first element lies
        (non-zero for views such as ``x[1:]``)."""
        root = self._data
        while backend.is_array(root.base):
            root = root.base
        return (backend._address(self._data) - backend._address(root)) // self._data.itemsize

    def data_ptr(self) -> builtins.int:
        """The memory address of the first element (0 for a tensor without elements, as in PyTorch)."""
        return backend._address(self._data) if self._data.size else 0

    def new_empty(self, *size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
        """A tensor of ``size`` with this tensor's dtype and device (zeros here: minigrad's ``empty``)."""
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def is_signed(self) -> builtins.bool:
        return self.dtype.is_signed

    def is_neg(self) -> builtins.bool:
        """Always False: minigrad has no lazy negation bit."""
        return False

    def resolve_neg(self) -> Tensor:
        """This tensor itself (minigrad has no lazy negation to resolve)."""
        return self

    def inverse(self) -> Tensor:
        """The inverse of a square matrix, or of each in a batch (:func:`minigrad.linalg.inv`)."""
        from .linalg import inv

        return inv(self)

    def normal_(self, mean: builtins.float = 0.0, std: builtins.float = 1.0, *, generator=None) -> Tensor:
        """Fill with normal random values (PyTorch's numbers for the same seed)."""
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        contiguous = self.is_contiguous()  # PyTorch draws a non-contiguous tensor one value at a time
        return self._random_fill(
            generator, "normal_kernel_cpu", lambda g, n, dt: _random.normal(g, n, dt, mean, std, contiguous=contiguous)
        )

    def uniform_(self, a: builtins.float = 0.0, b: builtins.float = 1.0, *, generator=None) -> Tensor:
        """Fill with uniform random values in ``[a, b)`` (PyTorch's numbers for the same seed)."""
        if a > b:
            raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}")
        return self._random_fill(generator, "check_uniform_bounds", lambda g, n, dt: _random.uniform(g, n, dt, a, b))

    # --- random fills (PyTorch's CPU streams, minigrad.random) ---

    def _random_fill(self, generator, kernel: str | None, draw: Callable) -> Tensor:
        """Fill in place with ``draw(generator, n, array dtype)``'s values (``minigrad.random``),
        laid out in memory order, as PyTorch's serial kernels draw them (a transposed view gets
        its values along its storage). ``kernel``: the PyTorch kernel named when this tensor is
        not floating point, for fills that need one."""
        if kernel is not None and not self.dtype.is_floating_point:
            raise F._no_kernel(kernel, self.dtype)
        order = self._memory_order()
        values = draw(_random.generator_for(self.device, generator), self.numel(), self._data.dtype)
        values = backend.numpy.asarray(values).reshape([self.shape[d] for d in order])
        return self._fill_from(values.transpose(backend.numpy.argsort(order)) if order else values)

    def _memory_order(self) -> list:
        """The dims from the outermost in memory to the innermost."""
        return sorted(range(self.ndim), key=lambda d: -self._data.strides[d])

    def bernoulli_(self, p: builtins.float | Tensor = 0.5, *, generator=None) -> Tensor:
        """Fill with 1 (probability ``p``, a number or a tensor of probabilities) or 0."""
        if isinstance(p, Tensor):
            probs = backend.to_numpy(p.detach()._data)
            if probs.dtype not in (backend.numpy.float32, backend.numpy.float64):
                probs = probs.astype(backend.numpy.float32)
            probs = backend.numpy.broadcast_to(probs, self.shape)
            flat = probs.transpose(self._memory_order()).ravel()  # in the order the draws are made
            return self._random_fill(generator, None, lambda g, n, dt: _random.bernoulli_tensor(g, flat))
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        return self._random_fill(generator, None, lambda g, n, dt: _random.bernoulli(g, n, p))

    def bernoulli(self, p: builtins.float | None = None, *, generator=None) -> Tensor:
        """0 or 1 with probability ``self`` (each element), or ``p`` when given; drawn row-major
        whatever the layout of ``self``, as ATen's ``bernoulli`` (a contiguous ``empty_like``)."""
        out = Tensor._make(backend.xp(self.device).zeros(self.shape, dtype=self._data.dtype))
        # a new tensor around the drawn values: a fresh result, _version 0 as in PyTorch
        return Tensor._make(out.bernoulli_(self if p is None else p, generator=generator)._data)

    def random_(self, from_: builtins.int = 0, to: builtins.int | None = None, *, generator=None) -> Tensor:
        """Fill with random integers: in ``[0, 2**mantissa]`` (floats) or ``[0, max]`` (ints), in
        ``[0, from_)`` with one bound, in ``[from_, to)`` with two."""
        if to is None and from_ == 0:
            return self._random_fill(generator, None, _random.bits)
        low, high = (0, from_) if to is None else (from_, to)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        return self._random_fill(generator, None, lambda g, n, dt: _random.integers(g, n, dt, low, high))

    def exponential_(self, lambd: builtins.float = 1.0, *, generator=None) -> Tensor:
        if not self.dtype.is_floating_point:
            raise RuntimeError(
                "Exponential distribution is a continuous probability distribution. dtype must be a floating "
                f"point but you specified {self.dtype._legacy_name}"
            )
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
        return self._random_fill(generator, None, lambda g, n, dt: _random.exponential(g, n, lambd))

    def geometric_(self, p: builtins.float, *, generator=None) -> Tensor:
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
        return self._random_fill(generator, None, lambda g, n, dt: _random.geometric(g, n, p))

    def cauchy_(self, median: builtins.float = 0.0, sigma: builtins.float = 1.0, *, generator=None) -> Tensor:
        if not sigma > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
        return self._random_fill(generator, "cauchy_cpu", lambda g, n, dt: _random.cauchy(g, n, median, sigma))

    def log_normal_(self, mean: builtins.float = 1.0, std: builtins.float = 2.0, *, generator=None) -> Tensor:
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
        return self._random_fill(generator, "log_normal_cpu", lambda g, n, dt: _random.log_normal(g, n, mean, std))

    # --- end of random fills ---

    def _fill_from(self, values) -> Tensor:
        source = Tensor._make(backend.place(values.astype(self._data.dtype), self.device))
        return self._apply_inplace(lambda s: F.copy_op(s, source))

    def __setitem__(self, key, value) -> None:
        """``self[key] = value``, as in PyTorch: ``index_put_`` for advanced indices, else a
        ``copy_`` into the view ``self[key]`` when ``value`` has its shape, a ``fill_`` with a
        number or a 0-d CPU value, else a ``copy_`` of ``value`` expanded (on a tensor in a graph
        the view's base gets a ``CopySlices``; ``x[...] = v`` writes into ``x`` itself). The views
        are taken first either way, and a slice over a whole dimension takes none."""
        # PyTorch makes a tensor of a number first, whatever the key (NumPy's floats and bools are
        # no numbers there, but its integers and float64, a float, are)
        if not isinstance(value, Tensor | builtins.int | builtins.float | complex | backend.numpy.integer):
            raise TypeError(f"can't assign a {backend.type_name(value)} to a {self.type()}")
        if isinstance(value, backend.numpy.integer):
            value = builtins.int(value)
        if not isinstance(value, Tensor) and not self.dtype.is_floating_point:
            F._check_fits(value, self.dtype)
        if key is False:  # PyTorch does nothing else here (no check, no node, no new version)
            return
        if key is True:  # PyTorch copies into self.unsqueeze(0) here, as for None (copy_'s casts and words)
            key = None
        on_cpu = not isinstance(value, Tensor) or value.device.type == "cpu"
        if isinstance(value, Tensor):
            value = value.to(self.device)
        byte_mask = F._byte_masks(key)
        key = F._index_key(self, key)
        if not F._is_basic(key):
            basic, advanced = F._split_index(key, self.ndim)
            target = F._take_views(self, basic, bare_slice=False)
            target._check_writable((value,))  # PyTorch's leaf errors come before the index checks
            F._check_index_count(advanced, target.ndim)
            F._check_index_dtypes(key)
            F._check_masks(advanced, target.shape)
            F._check_index_shapes(advanced)
            # index_put_ refuses a value sharing any memory with the target (unless a bool mask
            # picks the places), as PyTorch
            masked = builtins.any(backend.is_array(k) and k.dtype == builtins.bool for k in advanced)
            if not masked and isinstance(value, Tensor) and backend.overlap(target._data, value._data):
                raise RuntimeError(_OVERLAP_MESSAGE)
            target._apply_inplace(
                lambda s: F._setitem_put(s, advanced, value, byte_mask, on_cpu), (value,), expanded="index_put_"
            )
            return
        view = F._take_views(self, key, bare_slice=False)
        value = F._as_tensor(value, self.dtype, self.device)
        if not value.ndim and view.ndim and on_cpu:
            view.fill_(value)
        else:
            view.copy_(F._setitem_value(value, view.shape))

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def __ipow__(self, other):
        return self.pow_(other)

    # ------------------------------------------------------------------ operators
    # x + y, x - y, x * y, x / y (and 2 + x, 2 * x, 2 - x) are the functions add, sub, mul, div
    # and rsub themselves: set at the end of this file, once `functions` is imported.

    def __rtruediv__(self, other):
        return F.reciprocal(self) * other

    def __floordiv__(self, other):
        return F.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return F.floor_divide(other, self)

    def __mod__(self, other):
        return F.remainder(self, other)

    def __rmod__(self, other):
        return F.remainder(other, self)

    def __imod__(self, other):
        return self.remainder_(other)

    def __ifloordiv__(self, other):
        return self.floor_divide_(other)

    def remainder_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.remainder(F._output_checked(s, other), other), (other,))

    def fmod_(self, other) -> Tensor:
        return self._apply_inplace(lambda s: F.fmod(F._output_checked(s, other), other), (other,))

    def __pow__(self, exponent):
        return F.pow(self, exponent)

    def __rpow__(self, base):
        return F.pow(base, self)

    def __matmul__(self, other):
        return F.matmul(self, other)

    def __rmatmul__(self, other):
        return F.matmul(other, self)

    def __neg__(self):
        return F.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return F.abs(self)

    def __getitem__(self, key):
        return F.index(self, key)

    def __eq__(self, other):  # type: ignore[override]
        if not isinstance(other, _COMPARABLE):  # Python's answer, as in PyTorch: t == None is False
            return NotImplemented
        return F.eq(self, other)

    def __ne__(self, other):  # type: ignore[override]
        if not isinstance(other, _COMPARABLE):
            return NotImplemented
        return F.ne(self, other)

    def __lt__(self, other):
        return F.lt(self, other)

    def __le__(self, other):
        return F.le(self, other)

    def __gt__(self, other):
        return F.gt(self, other)

    def __ge__(self, other):
        return F.ge(self, other)

    def __and__(self, other):
        return F._bitwise("bitwise_and", self, other)

    def __or__(self, other):
        return F._bitwise("bitwise_or", self, other)

    def __xor__(self, other):
        return F._bitwise("bitwise_xor", self, other)

    def __invert__(self):
        if self.dtype.is_floating_point:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return F.bitwise_not(self)

    __rand__, __ror__ = __and__, __or__

    # ------------------------------------------------------------------ methods that mirror functions
    def view(self, *shape):
        return F.view(self, *shape)

    def view_as(self, other: Tensor):
        return F.view(self, other.shape)

    def reshape_as(self, other: Tensor):
        return F.reshape(self, other.shape)

    def expand_as(self, other: Tensor):
        return F.expand(self, other.shape)

    def where(self, condition: Tensor, other) -> Tensor:
        """``self`` where ``condition`` holds, else ``other`` (``torch.where(condition, self, other)``)."""
        return F.where(condition, self, other)

    def max(self, dim=None, keepdim: bool = False):
        return F.max(self, dim, keepdim)

    def min(self, dim=None, keepdim: bool = False):
        return F.min(self, dim, keepdim)


_METHODS = {
    "all",
    "any",
    "chunk",
    "unsafe_chunk",
    "unsafe_split",
    "split",
    "unbind",
    "add",
    "sub",
    "mul",
    "div",
    "floor_divide",
    "pow",
    "neg",
    "abs",
    "sign",
    "exp",
    "log",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sigmoid",
    "remainder",
    "fmod",
    "log1p",
    "expm1",
    "rsqrt",
    "square",
    "clamp_min",
    "clamp_max",
    "var",
    "std",
    "prod",
    "cumsum",
    "cumprod",
    "logsumexp",
    "amax",
    "amin",
    "masked_fill",
    "erf",
    "gather",
    "take_along_dim",
    "sort",
    "argsort",
    "topk",
    "scatter",
    "scatter_add",
    "index_select",
    "index_add",
    "diagonal",
    "diag",
    "diag_embed",
    "trace",
    "tril",
    "triu",
    "outer",
    "ger",
    "flip",
    "broadcast_to",
    "relu",
    "clamp",
    "clip",
    "maximum",
    "minimum",
    "sum",
    "mean",
    "norm",
    "argmax",
    "argmin",
    "softmax",
    "log_softmax",
    "matmul",
    "bmm",
    "mm",
    "mv",
    "dot",
    "reshape",
    "flatten",
    "t",
    "transpose",
    "permute",
    "squeeze",
    "unsqueeze",
    "expand",
    "sum_to_size",
    "clone",
    "select",
    "narrow",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "floor",
    "ceil",
    "round",
    "trunc",
    "isnan",
    "isinf",
    "isfinite",
    "reciprocal",
    "allclose",
    "equal",
    "isclose",
    "logical_not",
    "logical_and",
    "logical_or",
    "addmm",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "atan2",
    "arctan2",
    "hypot",
    "log2",
    "log10",
    "exp2",
    "logaddexp",
    "logaddexp2",
    "xlogy",
    "lerp",
    "addcmul",
    "addcdiv",
    "frac",
    "fmax",
    "fmin",
    "nan_to_num",
    "logit",
    "sinc",
    "deg2rad",
    "rad2deg",
    "float_power",
    "heaviside",
    "logical_xor",
    "sgn",
    "roll",
    "rot90",
    "movedim",
    "moveaxis",
    "swapaxes",
    "swapdims",
    "fliplr",
    "flipud",
    "repeat_interleave",
    "tensor_split",
    "unflatten",
    "kron",
    "diff",
    "masked_select",
    "nonzero",
    "argwhere",
    "count_nonzero",
    "take",
    "index_fill",
    "index_copy",
    "nansum",
    "nanmean",
    "median",
    "nanmedian",
    "aminmax",
    "cummax",
    "cummin",
    "logcumsumexp",
    "kthvalue",
    "mode",
    "addmv",
    "addr",
    "baddbmm",
    "addbmm",
    "cross",
    "matrix_power",
    "unique",
    "unique_consecutive",
    "bincount",
    # bitwise, integer and statistics
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "gcd",
    "lcm",
    "gcd_",
    "lcm_",
    "copysign",
    "signbit",
    "isposinf",
    "isneginf",
    "nextafter",
    "ldexp",
    "ldexp_",
    "frexp",
    "histc",
    "histogram",
    "quantile",
    "nanquantile",
    "cov",
    "corrcoef",
    "inner",
    "vdot",
    "dist",
    "diagflat",
    "renorm",
    "igamma",
    "igammac",
    # aliases
    "absolute",
    "divide",
    "multiply",
    "subtract",
    "negative",
    "positive",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "not_equal",
    "fix",
    "true_divide",
    "ravel",
    "msort",
    "adjoint",
    "is_nonzero",
    # scatter and index family
    "scatter_reduce",
    "index_reduce",
    "index_put",
    "masked_scatter",
    "put",
    "select_scatter",
    "slice_scatter",
    "diagonal_scatter",
    "split_with_sizes",
    "hsplit",
    "vsplit",
    "dsplit",
}


class _nullcontext:  # noqa: N801
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


def _legacy_type_name(t: Tensor) -> str:
    """PyTorch's older name for a tensor's type, e.g. ``torch.FloatTensor``."""
    return ("torch.cuda." if t.is_cuda else "torch.") + t.dtype._legacy_name + "Tensor"


_NUMBER_DTYPES = {builtins.bool: dtypes.bool, builtins.int: dtypes.int64, builtins.float: dtypes.float64}
# What == and != compare elementwise; anything else (None, a string, a list) PyTorch leaves to Python.
_COMPARABLE = (Tensor, builtins.int, builtins.float, backend.numpy.generic, backend.numpy.ndarray)
_warned_scalar_of_grad = False  # float(t) of a tensor that requires grad warns once, as in PyTorch


def scalar_tensor(value, dtype: dtypes.dtype, device) -> Tensor:
    """A 0-d tensor holding a Python number (how scalars enter tensor operations)."""
    return wrapped_number(backend.scalar(value, dtype, device))


def wrapped_number(array) -> Tensor:
    """The 0-d ``array`` of a Python number, as a tensor marked as PyTorch marks a "wrapped
    number": saved tensor hooks do not see it, as it is not one of the user's tensors."""
    t = Tensor._make(array)
    t._wrapped_number = True
    return t


def ones_like_tensor(t: Tensor, dtype: dtypes.dtype | None = None) -> Tensor:
    with backend.on(t.device):
        return Tensor._make(backend.xp(t.device).ones(t.shape, dtype=backend.array_dtype(dtype or t.dtype)))


def zeros_like_tensor(t: Tensor, dtype: dtypes.dtype | None = None) -> Tensor:
    with backend.on(t.device):
        return Tensor._make(backend.xp(t.device).zeros(t.shape, dtype=backend.array_dtype(dtype or t.dtype)))


from . import functions as F  # noqa: E402  (functions needs Tensor, so it is imported last)
from ._arguments import checked, dims_one_by_one  # noqa: E402

# Every function in _METHODS is also a method, as in PyTorch: x.exp() is exp(x) (and a wrong
# argument gets PyTorch's TypeError, not an AttributeError from inside).
for _name in _METHODS:
    setattr(Tensor, _name, checked(getattr(F, _name), method=True))
for _name in ("max", "min", "requires_grad_"):  # Tensor's own methods that take a bool
    setattr(Tensor, _name, checked(getattr(Tensor, _name), method=True))
Tensor.squeeze, Tensor.count_nonzero = dims_one_by_one(Tensor.squeeze), dims_one_by_one(Tensor.count_nonzero)
# The commonest operators call no method of their own first (each is one Python call less).
Tensor.__add__ = Tensor.__radd__ = F.add
Tensor.__sub__, Tensor.__rsub__ = F.sub, F.rsub
Tensor.__mul__ = Tensor.__rmul__ = F.mul
Tensor.__truediv__ = F.div

# bitwise, integer and statistics: in-place methods that only Tensor has, and the shifts.
_H3_IN_PLACE = "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_left_shift bitwise_right_shift"
for _name in (_H3_IN_PLACE + " copysign nextafter renorm igamma igammac").split():
    setattr(Tensor, _name + "_", F._in_place_method(getattr(F, _name), _name + "_"))
Tensor.__lshift__, Tensor.__rshift__ = F.bitwise_left_shift, F.bitwise_right_shift
Tensor.__rlshift__ = lambda self, other: F.bitwise_left_shift(other, self)
Tensor.__rrshift__ = lambda self, other: F.bitwise_right_shift(other, self)
Tensor.__rxor__ = Tensor.__xor__
Tensor.__iand__, Tensor.__ior__, Tensor.__ixor__ = Tensor.bitwise_and_, Tensor.bitwise_or_, Tensor.bitwise_xor_
Tensor.__ilshift__, Tensor.__irshift__ = Tensor.bitwise_left_shift_, Tensor.bitwise_right_shift_


# --- nn methods of Tensor ---
def _hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """``x.hardshrink(lambd)``: ``torch.nn.functional.hardshrink(x, lambd)``."""
    from .nn import functional  # (nn is built on this module)

    return functional.hardshrink(self, lambd)


def _prelu(self: Tensor, weight: Tensor) -> Tensor:
    """``x.prelu(weight)``: ``torch.nn.functional.prelu(x, weight)``."""
    from .nn import functional

    return functional.prelu(self, weight)


Tensor.hardshrink, Tensor.prelu = _hardshrink, _prelu


# --- in-place shape changes, as_strided, small functions ---
_H5_METHODS = "t_ transpose_ swapaxes_ swapdims_ squeeze_ unsqueeze_ as_strided as_strided_ as_strided_scatter"
_H5_METHODS += (
    " is_complex is_conj conj resolve_conj conj_physical isreal angle is_same_size nonzero_static resize_ resize_as_"
)
for _name in _H5_METHODS.split():
    setattr(Tensor, _name, getattr(F, _name if hasattr(F, _name) else "_" + _name))  # (t_ and friends: methods only)
Tensor.squeeze_ = dims_one_by_one(Tensor.squeeze_)
Tensor.real = property(F.real, doc="The real part: the tensor itself for a real tensor.")
Tensor.imag = property(F.imag, doc="The imaginary part: PyTorch refuses it for real tensors.")


def _multinomial(self: Tensor, num_samples: int, replacement: builtins.bool = False, *, generator=None) -> Tensor:
    """``torch.multinomial(self, ...)``: indices drawn with the probabilities in each row."""
    from .factories import multinomial

    return multinomial(self, num_samples, replacement, generator=generator)


def _new(self: Tensor, *args, device=None) -> Tensor:
    """The legacy constructor with this tensor's dtype: ``x.new(2, 3)`` (a size: zeros here, not
    uninitialized memory), ``x.new([1, 2])`` (data), ``x.new(t)`` (a view of ``t``, which must have
    this dtype), ``x.new()`` (empty).

    >>> import minigrad as torch
    >>> torch.zeros(1, dtype=torch.float64).new([1, 2])
    tensor([1., 2.], dtype=torch.float64)
    """
    from .factories import _legacy

    device = device if device is not None else self.device
    if len(args) == 1 and isinstance(args[0], Tensor):
        other = args[0]
        if other.dtype is not self.dtype:
            raise TypeError(f"expected {_legacy_type_name(self)} (got {_legacy_type_name(other)})")
        return F.alias_op(other)
    if len(args) == 1 and isinstance(args[0], builtins.float | builtins.bool):
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
    if len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])
    return _legacy(args or (0,), self.dtype, device)


def _apply_(self: Tensor, callable: Callable) -> Tensor:  # noqa: A002 - PyTorch's name
    """Replace each element ``v`` by ``callable(v)`` in place (CPU only, slow: one Python call per
    element; the tensor's version does not change, as in PyTorch).

    >>> import minigrad as torch
    >>> torch.tensor([1, 2]).apply_(lambda v: v * 10)
    tensor([10, 20])
    """
    return _map_elements(self, "apply_", (), callable)


def _map_(self: Tensor, tensor: Tensor, callable: Callable) -> Tensor:  # noqa: A002
    """``self[i] = callable(self[i], tensor[i])`` in place, ``tensor`` broadcast to ``self``."""
    return _map_elements(self, "map_", (tensor,), callable)


def _map2_(self: Tensor, x: Tensor, y: Tensor, callable: Callable) -> Tensor:  # noqa: A002
    """``self[i] = callable(self[i], x[i], y[i])`` in place, ``x`` and ``y`` broadcast to ``self``."""
    return _map_elements(self, "map2_", (x, y), callable)


def _map_elements(self: Tensor, name: str, others: tuple, function: Callable) -> Tensor:
    if self.requires_grad or builtins.any(o.requires_grad for o in others):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    if self.device.type != "cpu":
        raise TypeError(f"{name} is only implemented on CPU tensors")
    arrays = []
    for o in others:
        if o.dtype is not self.dtype:
            raise TypeError(f"{name}: expected {_legacy_type_name(self)} for 'other' (got {_legacy_type_name(o)})")
        arrays.append(o.expand(self.shape)._data)  # (expand's own error for shapes that do not fit)
    data, kind = (
        self._data,
        builtins.bool if self.dtype is dtypes.bool else builtins.float if self.is_floating_point() else builtins.int,
    )
    for index in backend.xp(self.device).ndindex(data.shape):
        value = function(*(a[index].item() for a in (data, *arrays)))
        data[index] = kind(value)
    return self


Tensor.multinomial, Tensor.new = _multinomial, _new
Tensor.apply_, Tensor.map_, Tensor.map2_ = _apply_, _map_, _map2_
