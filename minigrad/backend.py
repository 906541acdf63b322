"""The one seam between minigrad and array libraries: NumPy on ``cpu``, CuPy on ``cuda``.

Nothing else in minigrad imports numpy or cupy. Code that needs array functions asks this
module for the array module of a device (``xp(device)``) and calls it inside ``on(device)``,
the context that makes CuPy allocate on the right GPU (and keeps NumPy quiet about inf/nan, as
PyTorch is). Where CuPy and NumPy differ, a function here hides it: moving and converting
(``move``, ``place``, ``convert``, ``to_numpy``, ``asarray``, ``scalar``), writing in place
(``assign``, ``add_into``, ``scatter_add``) and telling a view from a copy (``shares_memory``).

CuPy is optional: it is imported the first time a ``cuda`` device is asked for, and when it
is missing (or sees no GPU) the error says which, and how to install it.
"""

from __future__ import annotations

import contextlib
import re
import sys

import numpy

from . import dtypes

_cupy = None
_cupy_error: str | None = None
# False until CuPy is loaded: before that every array a tensor holds is NumPy's, so operations
# need not ask which device their inputs are on.
cupy_loaded = False

_DEVICE_STRING = re.compile(r"(cpu|cuda)(?::(0|[1-9][0-9]*))?")


class device:  # noqa: N801 - PyTorch's name
    """Where a tensor lives: ``device("cpu")``, ``device("cuda")``, ``device("cuda:1")``,
    ``device("cuda", 1)`` or ``device(1)``, as ``torch.device``.

    ``device("cuda")`` has no index ("the current GPU"); a tensor's ``.device`` always has one
    (``cuda:0``), so, as in PyTorch, ``device("cuda") != device("cuda:0")``.

    >>> import minigrad as torch
    >>> torch.device("cuda:1")
    device(type='cuda', index=1)
    >>> str(torch.device("cuda", 0)), torch.device("cpu").type
    ('cuda:0', 'cpu')
    """

    __slots__ = ("type", "index")

    def __init__(self, type: str | int | device, index: int | None = None):  # noqa: A002 - PyTorch's name
        if isinstance(type, device):
            type, index = type.type, type.index if index is None else index
        elif isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type  # torch.device(1): an accelerator index
        elif not isinstance(type, str):
            raise TypeError(
                f"device() received an invalid combination of arguments - got ({type_name(type)}), but "
                "expected one of: (torch.device device), (str type, int index = -1)"
            )
        else:
            type, parsed = _parse(type, index)
            if parsed is not None:
                index = parsed
        if index is not None:
            if not isinstance(index, int) or isinstance(index, bool):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not {type_name(index)}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
        self.type = type
        self.index = index

    def __eq__(self, other) -> bool:
        # Like torch.device, a device equals only another device (not the string "cuda").
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __reduce__(self):
        return (device, (self.type, self.index))


def type_name(value) -> str:
    """A type as PyTorch's argument errors name it: ``list``, ``NoneType``, ``numpy.ndarray``,
    ``Tensor``."""
    kind = type(value)
    if kind.__name__ == "Tensor" and kind.__module__ == "minigrad.tensor":
        return "Tensor"
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _parse(text: str, index) -> tuple[str, int | None]:
    """``"cuda:1"`` -> ("cuda", 1), with PyTorch's errors for anything else."""
    match = _DEVICE_STRING.fullmatch(text)
    if match is None:
        kind = text.partition(":")[0]
        if kind and kind not in ("cpu", "cuda") and kind.isidentifier():
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {text}")
        raise RuntimeError(f"Invalid device string: '{text}'")
    kind, number = match.group(1), match.group(2)
    if number is not None and index is not None:
        raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {text}")
    return kind, None if number is None else int(number)


CPU = device("cpu")
_CUDA: dict[int, device] = {}  # cuda:N, made once each (device_of is on every GPU op's path)


_default = CPU  # where factories put tensors when no device is given (set_default_device)


def as_device(dev) -> device:
    """Where a new tensor goes for a ``device=`` argument: ``None`` is the default device (the
    CPU unless ``set_default_device`` changed it), ``"cuda"`` is GPU 0.

    A tensor's device is always concrete (``cpu`` or ``cuda:N``), so ``to("cuda")`` on a tensor
    already on ``cuda:0`` is a no-op, as in PyTorch (minigrad's current GPU is always 0).
    """
    if dev is None:
        return _default
    if not isinstance(dev, device):
        dev = device(dev)
    if dev.type == "cpu":
        return CPU
    return _cuda(0 if dev.index is None else dev.index)


def set_default_device(dev) -> None:
    """Make factories without ``device=`` create tensors on ``dev`` (None: back to the CPU)."""
    global _default
    _default = CPU if dev is None else as_device(dev)


def get_default_device() -> device:
    """Where factories without ``device=`` create tensors."""
    return _default


def _cuda(index: int) -> device:
    found = _CUDA.get(index)
    if found is None:
        found = _CUDA[index] = device("cuda", index)
    return found


# ------------------------------------------------------------------------------------------
# Finding CuPy and a GPU
# ------------------------------------------------------------------------------------------

INSTALL_HINT = (
    "Install CuPy for your CUDA version on a machine with an NVIDIA GPU and driver: "
    "pip install cupy-cuda12x (CUDA 12) or pip install cupy-cuda13x (CUDA 13), "
    'or pip install "minigrad[gpu]", or with conda: conda install -c conda-forge cupy '
    '(without a CUDA Toolkit, let pip bring its libraries: pip install "cupy-cuda12x[ctk]"). '
    "Or keep the tensors on 'cpu'."
)


class CudaUnavailableError(RuntimeError, AssertionError):
    """Asking for ``cuda`` without CuPy or without a GPU.

    A RuntimeError, and also an AssertionError: what PyTorch raises when it was built without
    CUDA ("Torch not compiled with CUDA enabled")."""


def _load_cupy():
    """Import CuPy on first use, remembering why it failed so errors can say how to fix it."""
    global _cupy, _cupy_error, cupy_loaded
    if _cupy is None and _cupy_error is None:
        try:
            import cupy
        except ImportError as exc:
            _cupy_error = f"CuPy is not installed ({exc})"
            return None
        except Exception as exc:  # a CuPy that cannot even load its CUDA libraries
            _cupy_error = f"CuPy is installed but could not be imported ({type(exc).__name__}: {exc})"
            return None
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception as exc:  # no driver, a driver too old for this CuPy, no device ...
            _cupy_error = f"CuPy is installed but cannot use an NVIDIA GPU ({type(exc).__name__}: {exc})"
            return None
        if count < 1:
            _cupy_error = "CuPy is installed but sees no NVIDIA GPU"
            return None
        try:  # one tiny kernel: CuPy compiles kernels with the CUDA Toolkit's NVRTC library
            (cupy.zeros(1) + 1).get()
        except Exception as exc:
            _cupy_error = (
                "CuPy sees a GPU but cannot run a kernel on it, usually because the CUDA libraries "
                f"are missing ({type(exc).__name__}: {exc})"
            )
            return None
        _cupy, cupy_loaded = cupy, True
    return _cupy


def cuda_available() -> bool:
    """True when CuPy imports and sees at least one GPU."""
    return _load_cupy() is not None


def cuda_unavailable_reason() -> str | None:
    """Why ``cuda`` cannot be used (None when it can)."""
    return None if _load_cupy() is not None else _cupy_error


def cuda_device_count() -> int:
    cupy = _load_cupy()
    return cupy.cuda.runtime.getDeviceCount() if cupy is not None else 0


_usable: set[int | None] = set()  # GPU indices already checked (every GPU op asks)


def _require_cuda(dev: device):
    if dev.index in _usable:
        return _cupy
    cupy = _load_cupy()
    if cupy is None:
        raise CudaUnavailableError(
            f"Torch not compiled with CUDA enabled: minigrad cannot use device '{dev}' because "
            f"{_cupy_error}. {INSTALL_HINT}"
        )
    count = cupy.cuda.runtime.getDeviceCount()
    if dev.index is not None and dev.index >= count:
        raise RuntimeError(
            f"CUDA error: invalid device ordinal: {dev} was asked for but only {count} GPU(s) are visible "
            f"(cuda:0 to cuda:{count - 1})"
        )
    _usable.add(dev.index)
    return cupy


def xp(dev: device):
    """The array module (numpy or cupy) that computes on ``dev``."""
    if dev.type == "cpu":
        return numpy
    return _require_cuda(dev)


def device_name(index: int = 0) -> str:
    """The GPU's product name, e.g. ``'NVIDIA H100 80GB HBM3'``."""
    cupy = _require_cuda(_cuda(index))
    name = cupy.cuda.runtime.getDeviceProperties(index)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


# ------------------------------------------------------------------------------------------
# Which device, and computing there
# ------------------------------------------------------------------------------------------


def device_of(array) -> device:
    """The device an array lives on."""
    if type(array) is numpy.ndarray or isinstance(array, numpy.generic):
        return CPU
    return _cuda(array.device.id)


def is_array(value) -> bool:
    """True for NumPy and CuPy arrays (a CuPy array made before minigrad used CuPy counts too)."""
    if type(value) is numpy.ndarray:
        return True
    if _cupy is None and (type(value).__module__.partition(".")[0] != "cupy" or _load_cupy() is None):
        return False
    return isinstance(value, _cupy.ndarray)


def common_device(arrays, op_name: str) -> device:
    """The device an operation on ``arrays`` runs on, or PyTorch's error for mixed devices.

    As in PyTorch, a 0-d CPU tensor may join a GPU operation (it counts as a number); the
    caller moves it (see ``Op``). Any other mix is an error.
    """
    for a in arrays:  # the common case, all on the CPU, checked cheaply
        if type(a) is not numpy.ndarray:
            break
    else:
        return CPU
    found = None
    for a in arrays:
        dev = device_of(a)
        if dev.type == "cpu" and a.ndim == 0:
            continue
        if found is None:
            found = dev
        elif dev != found:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two devices, "
                f"{found} and {dev}! (in {op_name}) Put them on one device first, with .to(device), .cuda() or .cpu()."
            )
    if found is None:  # only 0-d tensors; any GPU one decides
        found = next((device_of(a) for a in arrays if type(a) is not numpy.ndarray), CPU)
    return found


CPU_ARRAY = numpy.ndarray  # `type(a) is CPU_ARRAY`: the quickest test, for paths every operation takes


def same_device(arrays) -> bool:
    """True when every array is on the same device."""
    if not cupy_loaded:  # all NumPy's
        return True
    first = device_of(arrays[0])
    for a in arrays:  # a plain loop: an optimizer asks this for every parameter, every step
        dev = device_of(a)
        if dev is not first and dev != first:
            return False
    return True


class _DeviceContext:
    """Makes CuPy allocate and compute on the tensor's GPU."""

    __slots__ = ("ctx",)

    def __init__(self, dev: device):
        self.ctx = _require_cuda(dev).cuda.Device(dev.index)

    def __enter__(self):
        self.ctx.__enter__()

    def __exit__(self, *exc):
        self.ctx.__exit__(*exc)


class _QuietCPU:
    """NumPy without its divide/overflow/invalid warnings: PyTorch gives inf or nan silently.

    ``numpy.errstate`` costs more than a small op itself, so this sets NumPy's error-state
    context variable directly, falling back to ``errstate`` if that internal name moves.
    (CuPy never warns about inf or nan, so the GPU needs nothing like it.)"""

    __slots__ = ("token",)
    try:
        from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

        _state = _make_extobj(all="ignore")
    except ImportError:  # another NumPy layout: the public, slower way
        _extobj_contextvar = None

    def __enter__(self):
        if self._extobj_contextvar is None:
            self.token = numpy.errstate(all="ignore")
            self.token.__enter__()
        else:
            self.token = self._extobj_contextvar.set(self._state)

    def __exit__(self, *exc):
        if self._extobj_contextvar is None:
            self.token.__exit__(*exc)
        else:
            self._extobj_contextvar.reset(self.token)


def on(dev: device):
    """The context an op computes in: its GPU for CuPy, NumPy without float warnings on the CPU."""
    return _QuietCPU() if dev.type == "cpu" else _DeviceContext(dev)


def compute(dev: device, fn, args: list, kwargs: dict):
    """``fn(xp, *args, **kwargs)`` in the context :func:`on` gives ``dev``: how every operation runs.

    On the CPU it sets NumPy's error state itself, without a context-manager object: for small
    tensors that object costs as much as the arithmetic."""
    state = _QuietCPU._extobj_contextvar
    if dev.type != "cpu" or state is None:
        with on(dev):
            return fn(xp(dev), *args, **kwargs)
    token = state.set(_QuietCPU._state)
    try:
        return fn(numpy, *args, **kwargs)
    finally:
        state.reset(token)


ArrayLinAlgError = numpy.linalg.LinAlgError  # what NumPy's and CuPy's linalg raise for a singular matrix


def raising_linalg(array_module):
    """A context in which ``array_module.linalg`` raises ``numpy.linalg.LinAlgError`` for a
    singular matrix: NumPy always does, CuPy only when asked (it skips the check by default)."""
    if array_module is numpy:
        return contextlib.nullcontext()
    import cupyx

    return cupyx.errstate(linalg="raise")


# ------------------------------------------------------------------------------------------
# Dtypes and making arrays
# ------------------------------------------------------------------------------------------

_array_dtypes: dict = {}


def array_dtype(d: dtypes.dtype):
    """The NumPy/CuPy dtype of a minigrad dtype."""
    found = _array_dtypes.get(d)
    if found is None:
        if not isinstance(d, dtypes.dtype):  # (checked here, where a new dtype is met: free for the others)
            hint = ""
            if isinstance(d, str) and hasattr(dtypes, d):
                hint = f" (write torch.{d}, not the string {d!r})"
            elif d in (float, int, bool):  # (PyTorch takes Python's types too; minigrad asks for its dtypes)
                hint = f" (write torch.{ {float: 'float64', int: 'int64', bool: 'bool'}[d] } for Python's {d.__name__})"
            raise TypeError(f"argument 'dtype' must be torch.dtype, not {type_name(d)}{hint}")
        found = _array_dtypes[d] = numpy.dtype(d.array_name)
    return found


def _host(data, target):
    """A new NumPy array from nested lists, numbers or arrays of any device."""
    if is_array(data) or isinstance(data, numpy.generic):
        data = to_numpy(data)
    with _QuietCPU():
        return numpy.array(data, dtype=target)


def asarray(data, d: dtypes.dtype | None, dev: device):
    """A new array on ``dev`` from nested lists, numbers or arrays (always a copy).

    Lists and numbers are read on the host by NumPy on both devices (so the same data gives the
    same dtype and values everywhere), then copied to the GPU."""
    target = array_dtype(d) if d is not None else None
    if dev.type != "cpu" and is_array(data) and device_of(data) == dev:
        with on(dev):
            return data.astype(target if target is not None else data.dtype, copy=True)
    host = _host(data, target)
    return host if dev.type == "cpu" else place(host, dev)


def scalar(value, d: dtypes.dtype, dev: device):
    """A 0-d array holding the Python number ``value`` cast to ``d``.

    Cast rather than construct: an int out of the dtype's range wraps, as in PyTorch (uint8
    tensor + -3), where NumPy's constructor would raise OverflowError."""
    target = _array_dtypes.get(d) or array_dtype(d)
    if type(value) is float:
        host = numpy.asarray(value, dtype=target)
    else:
        with _QuietCPU():
            host = numpy.asarray(value).astype(target, copy=False)
    if dev.type == "cpu":
        return host
    with on(dev):
        # A fill kernel with the number as argument: no synchronous host-to-device copy.
        return xp(dev).full((), host[()], dtype=target)


def scalar_like(value: float, like):
    """:func:`scalar` for a float in the dtype and on the device of the floating array ``like``
    (``x * 0.5``: the quick path every operation with a number takes)."""
    if type(like) is numpy.ndarray:
        return numpy.asarray(value, dtype=like.dtype)
    return scalar(value, dtypes.from_array_dtype(like.dtype), device_of(like))


def to_numpy(array):
    """A NumPy array with the values of ``array`` (a copy when it lives on a GPU)."""
    if isinstance(array, numpy.ndarray | numpy.generic):
        return numpy.asarray(array)
    return array.get()


def place(array, dev: device):
    """``array`` on ``dev``: itself when it is already there, else a copy (for fresh arrays)."""
    if device_of(array) == dev:
        return array
    return move(array, dev)


def move(array, dev: device):
    """A copy of ``array`` on ``dev``.

    Between two GPUs the copy goes through the host: slower than a peer copy, but it works
    on every machine (and moving between GPUs is rare in minigrad's programs)."""
    source = device_of(array)
    if dev.type == "cpu":
        return to_numpy(array).copy() if source.type == "cpu" else array.get()
    with on(dev):
        if source == dev:
            return array.copy()
        return xp(dev).asarray(to_numpy(array))


def convert(array, dev: device, d: dtypes.dtype):
    """A copy of ``array`` on ``dev`` with dtype ``d`` (``Tensor.to``)."""
    target = array_dtype(d)
    if array.dtype != target and device_of(array) == dev:
        return _cast(array, target)  # the cast is the copy
    out = move(array, dev)
    return out if out.dtype == target else _cast(out, target)


def _cast(array, target):
    """``array`` cast to the array dtype ``target``, laid out as PyTorch lays out a cast: as
    ``array`` when it is dense (a transpose stays transposed), else densely in its order of
    dimensions (:func:`preserved_strides`; a slice with a step, an ``expand``)."""
    if dense(array):
        with on(device_of(array)):
            return array.astype(target, order="K")
    return clone(array, preserved_strides(array), target)


def dense(array) -> bool:
    """Whether the elements of ``array`` fill its memory once each, in some order of its dims
    (a transpose does; expand's repeated elements and every-other-element slices do not)."""
    expected = array.itemsize
    for stride, size in sorted((abs(s), n) for s, n in zip(array.strides, array.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def row_major_strides(shape) -> tuple[int, ...]:
    """PyTorch's strides (in elements) for a new tensor of ``shape``: row-major, where a dimension
    of size 0 counts as 1 (``zeros(0, 3).stride() == (3, 1)``; NumPy gives such arrays zeros)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def element_strides(array) -> tuple[int, ...]:
    """``array``'s strides counted in elements, as PyTorch gives them (NumPy's are in bytes)."""
    return tuple(s // array.itemsize for s in array.strides)


def same_layout(shape, strides, others) -> bool:
    """Whether two sets of strides (in elements) lay ``shape`` out alike, as PyTorch compares
    layouts: the stride of a dimension of size 1 does not matter."""
    return all(s == o for s, o, n in zip(strides, others, shape) if n != 1)


def is_row_major(shape, strides) -> bool:
    """Whether ``strides`` (in elements) are row-major, as ``is_contiguous()`` tells."""
    return same_layout(shape, strides, row_major_strides(shape))


def preserved_strides(array) -> tuple[int, ...]:
    """The strides (in elements) PyTorch gives a new tensor made like ``array`` (``empty_like``,
    ``zeros_like``, ``clone``: ``memory_format=torch.preserve_format``): ``array``'s own when its
    elements fill a block, else dense ones in the same order of dimensions, the smallest stride
    innermost. The order is found as PyTorch's ``infer_dense_strides`` finds it: an insertion
    sort in which a stride-0 (expanded) dimension keeps its place."""
    shape, strides = array.shape, element_strides(array)
    if not array.size or dense(array):  # (PyTorch counts a tensor without elements as dense)
        return strides

    def comes_after(inner: int, outer: int) -> int:  # 1: swap them, -1: stop, 0: look further
        if strides[inner] == 0 or strides[outer] == 0:
            return 0
        if strides[inner] != strides[outer]:
            return 1 if strides[inner] > strides[outer] else -1
        return 1 if shape[inner] > shape[outer] else 0

    return _dense_strides(shape, _sorted_dims(len(shape), comes_after))


def _sorted_dims(ndim: int, comes_after) -> list[int]:
    """The dims, innermost first, in the order PyTorch's insertion sort puts them:
    ``comes_after(inner, outer)`` is 1 to swap two neighbours, -1 to stop, 0 (undecided) to
    compare with the next one out."""
    order = list(reversed(range(ndim)))
    for i in range(1, ndim):
        moving = i
        for j in reversed(range(i)):
            verdict = comes_after(order[j], order[moving])
            if verdict > 0:
                order[j], order[moving] = order[moving], order[j]
                moving = j
            elif verdict < 0:
                break
    return order


def elementwise_layout(out, inputs):
    """``out``, the result of an elementwise operation on the arrays ``inputs``, laid out as
    PyTorch lays it out: itself when it already is, else a copy.

    NumPy and PyTorch both order the dimensions of the result by the inputs' strides, but where
    the inputs disagree NumPy falls back to row-major order and PyTorch follows the first input
    that tells two dimensions apart: ``x.t() + y`` is laid out as ``x.t()`` in PyTorch. So when
    the first input is row-major (and, with more than two inputs, every input is), NumPy's layout
    is PyTorch's already; this quick test is all the common case pays."""
    if inputs[0].flags.c_contiguous and (len(inputs) <= 2 or all(a.flags.c_contiguous for a in inputs)):
        return out
    return iterator_layout(out, inputs)


def iterator_layout(out, inputs):
    """``out`` laid out with the strides PyTorch's TensorIterator gives the result of an
    elementwise operation on the arrays ``inputs`` (without :func:`elementwise_layout`'s quick
    test): itself when it already is, else a copy."""
    return relaid(out, _iterator_strides(out.shape, inputs)) if out.size else out


def _iterator_strides(shape, inputs) -> tuple[int, ...]:
    """The strides (in elements) PyTorch's TensorIterator gives the result of shape ``shape``
    (with elements) of an elementwise operation on the arrays ``inputs``."""
    if all(a.shape == shape for a in inputs):  # its fast set-up: inputs of one shape and one layout
        first = element_strides(inputs[0])
        if all(is_row_major(shape, element_strides(a)) for a in inputs):
            return row_major_strides(shape)
        if all(dense(a) and element_strides(a) == first for a in inputs):
            return first
    ndim, operands = len(shape), []
    for a in inputs:  # each input's strides in the result's dims: 0 along those it is broadcast along
        lead = ndim - a.ndim
        own = [0 if n == 1 and shape[lead + i] != 1 else s for i, (n, s) in enumerate(zip(a.shape, element_strides(a)))]
        operands.append([0] * lead + own)
    return iterator_strides_of(shape, operands)


def iterator_strides_of(shape, operands) -> tuple[int, ...]:
    """The strides (in elements) TensorIterator gives a result of ``shape`` from its inputs'
    strides in the result's dims (``operands``, one list per input, 0 where it is broadcast)."""
    ndim = len(shape)

    def comes_after(inner: int, outer: int) -> int:  # 1: swap them, -1: stop, 0: look further
        for strides in operands:  # the first input that tells them apart decides
            if strides[inner] == 0 or strides[outer] == 0:
                continue
            if strides[inner] != strides[outer]:
                return 1 if strides[inner] > strides[outer] else -1
            if shape[inner] > shape[outer]:
                return 1
        return 0

    return _dense_strides(shape, _sorted_dims(ndim, comes_after))


def _dense_strides(shape, order) -> tuple[int, ...]:
    """Strides (in elements) that lay ``shape`` out densely, the dims of ``order`` innermost first."""
    result, step = [0] * len(shape), 1
    for dim in order:
        result[dim] = step
        step *= max(shape[dim], 1)
    return tuple(result)


class memory_format:  # noqa: N801 - PyTorch's name (torch.memory_format)
    """How a new tensor lays out its elements: ``torch.preserve_format`` (as the tensor it is made
    like), ``torch.contiguous_format`` (row-major), ``torch.channels_last`` (N, H, W, C in memory
    for a 4-d tensor) or ``torch.channels_last_3d`` (N, D, H, W, C, for 5-d)."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def strides_in(layout, array, caller: str) -> tuple[int, ...]:
    """The strides (in elements) of a new tensor shaped like ``array`` in the memory format ``layout``."""
    if not isinstance(layout, memory_format):
        raise TypeError(f"{caller}(): argument 'memory_format' must be torch.memory_format, not {type_name(layout)}")
    if layout is preserve_format:
        return preserved_strides(array)
    if layout is contiguous_format:
        return row_major_strides(array.shape)
    rank = 4 if layout is channels_last else 5
    if array.ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {layout._name} format")
    return _dense_strides(array.shape, [1, *reversed(range(2, rank)), 0])  # C innermost, then W, H (D), N


def laid_out(flat, shape, strides: tuple[int, ...]):
    """The elements of the 1-d array ``flat``, in memory order, seen with ``shape`` and
    ``strides`` (in elements, describing a dense block)."""
    if strides == row_major_strides(shape) and flat.size:
        return flat.reshape(shape)
    return view_at(flat, 0, shape, strides)


def view_at(flat, start: int, shape, strides):
    """The view of the 1-d array ``flat`` from element ``start`` with ``shape`` and ``strides``
    (in elements); on the CPU one whose ``base`` is ``flat``'s memory, so it knows its storage
    offset (and ``unshared`` sees whom it belongs to)."""
    byte_strides = tuple(s * flat.itemsize for s in strides)
    if isinstance(flat, numpy.ndarray):
        return numpy.ndarray(tuple(shape), flat.dtype, buffer=flat, offset=start * flat.itemsize, strides=byte_strides)
    return xp(device_of(flat)).lib.stride_tricks.as_strided(flat[start:], tuple(shape), byte_strides)


def with_torch_strides(array):
    """A new array without elements (NumPy gives it all-zero strides) with PyTorch's."""
    return laid_out(array.reshape(-1), array.shape, row_major_strides(array.shape))


def clone(array, strides: tuple[int, ...], dtype=None):
    """A copy of ``array`` laid out with ``strides`` (in elements, see :func:`strides_in`), cast
    to the array dtype ``dtype`` if one is given."""
    module = xp(device_of(array))
    with on(device_of(array)):
        out = laid_out(module.empty(array.size, array.dtype if dtype is None else dtype), array.shape, strides)
        out[...] = array
    return out


def relaid(array, strides: tuple[int, ...]):
    """``array`` itself when it is laid out with ``strides`` (in elements), else a copy that is."""
    return array if element_strides(array) == strides else clone(array, strides)


def copy(array):
    """A copy of ``array`` on its own device."""
    with on(device_of(array)):
        return array.copy()


# ------------------------------------------------------------------------------------------
# Where NumPy and CuPy differ
# ------------------------------------------------------------------------------------------


def shares_memory(a, b) -> bool:
    """Whether ``a`` (a reshape of ``b``) is a view of ``b`` rather than a copy.

    The memory-bounds test decides this exactly here (a copy lives in fresh memory) and is
    cheap on both libraries; CuPy's exact ``shares_memory`` compares every element's address
    on the GPU."""
    return bool(xp(device_of(a)).may_share_memory(a, b))


def overlaps_itself(array) -> bool:
    """True when several elements of ``array`` are one memory location (an ``expand``ed view)."""
    if 0 not in array.strides or not array.size:  # the common case first; empty: no elements at all
        return False
    return any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape))


def overlap(a, b) -> str | None:
    """How ``a`` and ``b`` share memory, as PyTorch tells before an in-place op: ``"full"`` (the
    same elements in the same layout, ``x.mul_(x)``), ``"partial"`` (``y[1:]`` and ``y[:-1]``,
    ``x`` and ``x.t()``) or None (nothing shared, or too hard to tell: PyTorch compares only
    dense arrays)."""
    if not a.size or not b.size or not xp(device_of(a)).may_share_memory(a, b):
        return None
    if not (dense(a) and dense(b)):
        return None
    a_begin, b_begin = _address(a), _address(b)
    a_end, b_end = a_begin + a.nbytes, b_begin + b.nbytes
    if a_begin == b_begin and a_end == b_end:
        return "full" if a.strides == b.strides else "partial"
    return "partial" if a_begin < b_end and b_begin < a_end else None


def _address(array) -> int:
    """Where the first element of ``array`` lies in memory (the lowest address: no negative strides)."""
    return array.__array_interface__["data"][0] if isinstance(array, numpy.ndarray) else array.data.ptr


def assign(dst, src) -> None:
    """``dst[...] = src`` (the in-place write of every in-place op).

    NumPy refuses to write into an expanded (stride 0) view; CuPy would write silently, so the
    check is made here for both (and raises ValueError, as NumPy does)."""
    if overlaps_itself(dst):
        raise ValueError("the destination has elements that share one memory location")
    if isinstance(dst, numpy.ndarray) and not dst.flags.writeable:
        if not dst.size:  # nothing to write (an expanded empty tensor: PyTorch allows it)
            return
        dst = _writable(dst)
    with on(device_of(dst)):
        dst[...] = src


def restrided(array, strides: tuple):
    """``array`` seen with other byte ``strides``, ones that lay out the same elements (those of
    dimensions of size 1); a view of the same memory, read-only when ``array`` is."""
    if not isinstance(array, numpy.ndarray) or not array.size:  # (no memory to find the owner of)
        return xp(device_of(array)).lib.stride_tricks.as_strided(array, array.shape, strides)
    out = _from_owner(array, strides)  # (so that _writable finds the owner again)
    if out is None:  # (an owner with gaps: NumPy's own strided view)
        return numpy.lib.stride_tricks.as_strided(array, array.shape, strides)
    out.flags.writeable = array.flags.writeable
    return out


def assign_changed(dst, src) -> None:
    """Write into ``dst`` the elements of ``src`` that differ from it (NaN for NaN is no change),
    one by one in row-major order, also where elements of ``dst`` share one memory location: how
    PyTorch's index_put_ and masked_fill_ write only where they index, on an ``expand``ed tensor."""
    changed = (dst != src) & ~((dst != dst) & (src != src))
    if isinstance(dst, numpy.ndarray) and not dst.flags.writeable:
        dst = _writable(dst)
    with on(device_of(dst)):
        dst[changed] = src[changed]


def _writable(view):
    """``view`` made writable when it is part of an ``expand``ed array whose own elements are
    distinct (``e[0]`` of ``e = y.expand(2, 3)``): NumPy marks every view of a broadcast read-only,
    PyTorch writes into such a part. The same memory, seen from the array that owns it."""
    out = _from_owner(view, view.strides)
    if out is None or not out.flags.writeable:
        return view  # really read-only: the write raises
    return out


def _from_owner(array, strides: tuple):
    """The elements of ``array`` (a NumPy array) seen with byte ``strides`` straight from the
    array that owns their memory, not through the views between (a broadcast view is read-only);
    None where that memory is not one block."""
    owner = array
    while isinstance(owner.base, numpy.ndarray):
        owner = owner.base
    memory = _memory_of(owner)
    if memory is None:
        return None
    offset = _address(array) - _address(memory)
    return numpy.ndarray(array.shape, array.dtype, buffer=memory, offset=offset, strides=strides)


def _memory_of(owner):
    """The memory of the array ``owner`` as one row-major array, to be seen with other strides:
    ``owner`` itself, or its dims put in the order of its strides (NumPy lays out a result as its
    inputs, so an array that owns its memory may be a transposed block); None if it has gaps."""
    if owner.flags.c_contiguous:
        return owner
    block = owner.transpose(sorted(range(owner.ndim), key=lambda d: -owner.strides[d]))
    return block if block.flags.c_contiguous else None


def unshared(array, holders: int = 1) -> bool:
    """True when ``array`` is a writable, row-major block that nothing else sees: it is referenced
    once (by its tensor) and its memory, if it is a view, by ``holders`` objects at most (the
    view and the tensor it was made from). It can then be handed on without a copy."""
    if sys.getrefcount(array) > 3 or not array.flags.c_contiguous:  # + `array` and the argument
        return False
    if isinstance(array, numpy.ndarray) and not array.flags.writeable:  # e.g. an expand()ed view
        return False
    owner = array.base
    return owner is None or (
        type(owner) is type(array) and owner.nbytes == array.nbytes and sys.getrefcount(owner) <= holders + 2
    )


def add_into(dst, src, alpha=1) -> None:
    """``dst += alpha * src`` on the destination's device (gradient accumulation, an optimizer's
    step). With an ``alpha`` it is one fused multiply-add per element, as in PyTorch's ``add_``:
    on the CPU, BLAS ``axpy`` gives PyTorch's bits, without a temporary array."""
    axpy = _axpy(dst, src) if alpha != 1 else None
    if axpy is None:
        compute(device_of(dst), _add_into, (dst, src, alpha), {})
        return
    flat = dst.reshape(-1)  # a view: dst is one row-major block
    out = axpy(src.reshape(-1), flat, a=alpha)
    if out is not flat:  # (BLAS wrote into a copy: cannot happen for the arrays _axpy accepts)
        flat[...] = out


def _add_into(xp, dst, src, alpha) -> None:
    dst += src if alpha == 1 else src * alpha


def add_scaled(a, b, alpha):
    """``a + alpha * b`` as a new array (the forward of ``add``/``sub`` with an ``alpha``),
    rounded once per element as PyTorch's fused multiply-add rounds it: BLAS ``axpy`` into a copy
    of ``a`` for float32/float64 NumPy arrays (see :func:`add_into`), ``alpha * b`` first elsewhere."""
    if type(a) is type(b) is numpy.ndarray and a.dtype == b.dtype and a.dtype.char in "fd":
        shape = a.shape if a.shape == b.shape else numpy.broadcast_shapes(a.shape, b.shape)
        out = numpy.empty(shape, a.dtype)
        out[...] = a
        add_into(out, numpy.broadcast_to(b, shape), alpha)
        return out
    # ``alpha * b`` keeps b's dtype (for bools alpha counts as True or False, as in PyTorch);
    # unsigned integers subtract ``-alpha * b`` instead, so that they wrap rather than overflow.
    if alpha < 0 and b.dtype.kind == "u":
        return a - (-alpha * b).astype(b.dtype, copy=False)
    return a + (alpha * b).astype(b.dtype, copy=False)


_AXPY: dict = {}


def _axpy(dst, src):
    """BLAS ``axpy`` (``y += a * x`` in place) for ``dst``, or None where it does not apply: not
    NumPy, not float32/float64, not one writable row-major block, or ``src`` of another shape
    or dtype."""
    if not (
        type(dst) is numpy.ndarray
        and dst.dtype.char in "fd"
        and dst.flags.c_contiguous
        and dst.flags.writeable
        and 0 < dst.size < 2**31
        and src.dtype == dst.dtype
        and src.shape == dst.shape
        and type(src) is numpy.ndarray
    ):
        return None
    axpy = _AXPY.get(dst.dtype.char)
    if axpy is None:
        from scipy.linalg import blas  # imported on the first use: SciPy's linalg is slow to import

        axpy = _AXPY[dst.dtype.char] = blas.get_blas_funcs("axpy", dtype=dst.dtype)
    return axpy


def special(name: str, *args):
    """``scipy.special.<name>(*args)`` on NumPy arrays, or CuPy's copy of it on GPU arrays, in
    the dtype of the first array among ``args`` (SciPy computes float16, and some functions
    float32, in float64). ``args`` may mix arrays and numbers (``polygamma(n, x)``)."""
    # (a NumPy scalar too: NumPy makes one of a 0-d array's arithmetic, as in x / sqrt(2))
    first = next(a for a in args if is_array(a) or isinstance(a, numpy.generic))
    if isinstance(first, numpy.ndarray | numpy.generic):
        import scipy.special

        # (asarray: SciPy gives a 0-d array back as a NumPy scalar)
        return numpy.asarray(getattr(scipy.special, name)(*args), dtype=first.dtype)
    import cupyx.scipy.special

    with on(device_of(first)):
        return getattr(cupyx.scipy.special, name)(*args).astype(first.dtype, copy=False)


def erf(a):
    """The error function of an array (NumPy has none)."""
    return special("erf", a)


def diagonal(a, offset: int, axis1: int, axis2: int):
    """The diagonal of ``a`` as a view that writes through (NumPy's own view is read-only; CuPy's
    is not), so that ``x.diagonal().zero_()`` changes ``x`` as in PyTorch."""
    view = a.diagonal(offset, axis1, axis2)
    if isinstance(view, numpy.ndarray) and a.flags.writeable and not view.flags.writeable:
        view.flags.writeable = True
    return view


# CuPy's scatter_add uses CUDA's atomicAdd, which exists for these dtypes only.
_SCATTER_DTYPES = frozenset("iILQefd")


def scatter_add(out, key, values) -> None:
    """``out[key] += values`` where repeated indices add up (the backward of indexing)."""
    if isinstance(out, numpy.ndarray):
        numpy.add.at(out, key, values)
    elif out.dtype.char in _SCATTER_DTYPES:
        import cupyx

        with on(device_of(out)):
            cupyx.scatter_add(out, key, values)
    else:  # e.g. int64: no atomic add on the GPU, so add on the host and copy back
        host = out.get()
        numpy.add.at(host, _host_key(key), to_numpy(values) if is_array(values) else values)
        assign(out, place(host, device_of(out)))


def _host_key(key):
    if isinstance(key, tuple):
        return tuple(to_numpy(k) if is_array(k) else k for k in key)
    return to_numpy(key) if is_array(key) else key


def synchronize(dev: device | None = None) -> None:
    """Wait for the GPU ``dev`` (GPU 0 by default) to finish its queued work."""
    cupy = _load_cupy()
    if cupy is not None:
        cupy.cuda.Device(dev.index if dev is not None and dev.index is not None else 0).synchronize()


def empty_cache() -> None:
    """Give the GPU memory CuPy keeps for reuse back to the driver (``nvidia-smi`` shows it)."""
    cupy = _load_cupy()
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()


def memory_allocated() -> int:
    """Bytes of GPU memory held by tensors now (CuPy's memory pool, in use)."""
    cupy = _load_cupy()
    return cupy.get_default_memory_pool().used_bytes() if cupy is not None else 0


# ------------------------------------------------------------------------------------------
# Random numbers: minigrad.random holds PyTorch's Mersenne Twister generators, one for the CPU and
# one for the GPUs (drawn on the host, then copied), so drawing on a GPU leaves the CPU's stream.
# ------------------------------------------------------------------------------------------


def generator(dev: device | None = None):
    """The default generator of ``dev``'s kind (a :class:`minigrad.random.Generator`)."""
    from . import random

    return random.generator_for(dev)


def manual_seed(seed: int) -> None:
    """Seed the default generators of every device."""
    from . import random

    random.manual_seed(seed)
