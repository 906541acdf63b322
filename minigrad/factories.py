"""Creating tensors: ``tensor``, ``zeros``, ``rand`` and friends, with PyTorch's defaults."""

from __future__ import annotations

import builtins
import warnings
from collections.abc import Sequence

from . import backend, dtypes
from .tensor import Tensor


def _size(size) -> tuple[int, ...]:
    """Accept ``zeros(2, 3)``, ``zeros((2, 3))`` and ``zeros([2, 3])``."""
    if not size:  # zeros() with no size at all; zeros(()) is a 0-d tensor
        raise TypeError("missing 1 required positional argument: 'size'")
    if len(size) == 1 and isinstance(size[0], Sequence | Tensor):
        size = tuple(size[0])
    for s in size:
        if isinstance(s, builtins.float) or not hasattr(s, "__index__"):
            raise TypeError(f"size must be a sequence of ints, got {type(s).__name__} ({s!r})")
        if int(s) < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {int(s)}: {list(size)}")
    return tuple(int(s) for s in size)


def _finish(data, requires_grad: bool) -> Tensor:
    t = Tensor._make(data)
    if requires_grad:
        t.requires_grad_(True)  # checks that the dtype is floating point
    return t


def _infer_dtype(data) -> dtypes.dtype:
    """PyTorch's rule: promote the types of all elements, where a Python float counts as the
    default dtype, an int as int64, a bool as bool, and a tensor, NumPy scalar or array as its own
    dtype (so ``[np.float64(1.0)]`` gives float64)."""
    result = None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Tensor):
            found = item.dtype
        elif backend.is_array(item) or hasattr(item, "dtype"):  # before float: np.float64 is a float
            found = dtypes.from_array_dtype(item.dtype)
        elif isinstance(item, builtins.bool):
            found = dtypes.bool
        elif isinstance(item, builtins.int):
            found = dtypes.int64
        elif isinstance(item, builtins.float):
            found = dtypes.get_default_dtype()
        elif isinstance(item, Sequence) and not isinstance(item, str):
            stack.extend(item)
            continue
        else:
            raise TypeError(f"Could not infer dtype of {type(item).__name__}")
        result = found if result is None else dtypes.promote_types(result, found)
    return result or dtypes.get_default_dtype()  # an empty list


def _plain(data):
    """Nested lists with tensors replaced by their values."""
    if isinstance(data, Tensor):
        return backend.to_numpy(data._data)
    if isinstance(data, list | tuple):
        return [_plain(d) for d in data]
    return data


def tensor(data, dtype: dtypes.dtype | None = None, device=None, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists or an array).

    >>> import minigrad as torch
    >>> torch.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    >>> torch.tensor([1, 2]).dtype
    torch.int64
    """
    device = backend.as_device(device)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
            "or sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        return _finish(backend.convert(data._data, device, dtype or data.dtype), requires_grad)
    if dtype is None:
        if backend.is_array(data) or (hasattr(data, "dtype") and hasattr(data, "shape")):
            dtype = dtypes.from_array_dtype(data.dtype)
        else:
            dtype = _infer_dtype(data)
    try:
        array = backend.asarray(_plain(data), dtype, device)
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"could not make a tensor from this data: {exc}. Nested lists must be rectangular and hold numbers."
        ) from None
    return _finish(array, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    if (
        isinstance(data, Tensor)
        and dtype in (None, data.dtype)
        and (device is None or backend.as_device(device) == data.device)
    ):
        return data
    if isinstance(data, Tensor):
        return data.to(dtype=dtype or data.dtype, device=device or data.device)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array) -> Tensor:
    """A tensor sharing memory with a NumPy array."""
    if not backend.is_array(array):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return Tensor._make(array)


def _filled(size, fill, dtype, device, requires_grad) -> Tensor:
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    with backend.on(device):
        data = backend.xp(device).full(_size(size), fill, dtype=backend.array_dtype(dtype))
    return _finish(data, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    return _filled(size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones."""
    return _filled(size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor (zeros here, for reproducibility)."""
    return _filled(size, 0, dtype, device, requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (float, int or bool)."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    dtype = dtype or dtypes.scalar_dtype(fill_value)
    return _filled((size,) if isinstance(size, int) else (tuple(size),), fill_value, dtype, device, requires_grad)


def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    return zeros(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    return ones(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def full_like(input: Tensor, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    return full(
        input.shape, fill_value, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad
    )


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Evenly spaced values in ``[start, end)``; int64 unless a bound or step is a float."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    values = (start, end, step)
    if dtype is None:
        dtype = dtypes.get_default_dtype() if any(isinstance(v, builtins.float) for v in values) else dtypes.int64
    device = backend.as_device(device)
    with backend.on(device):
        data = backend.xp(device).arange(start, end, step).astype(backend.array_dtype(dtype))
    return _finish(data, requires_grad)


def linspace(start, end, steps: int, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    with backend.on(device):
        data = backend.xp(device).linspace(start, end, steps).astype(backend.array_dtype(dtype))
    return _finish(data, requires_grad)


def eye(n: int, m: int | None = None, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """The identity matrix (``n`` x ``m``)."""
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    with backend.on(device):
        data = backend.xp(device).eye(n, m, dtype=backend.array_dtype(dtype))
    return _finish(data, requires_grad)


def _random(size, dtype, device, requires_grad, draw) -> Tensor:
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"random values from this distribution need a floating dtype, got {dtype}")
    data = draw(backend.generator(), _size(size)).astype(backend.array_dtype(dtype))
    return _finish(backend.place(data, device), requires_grad)


def rand(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Uniform random values in ``[0, 1)`` (seeded by ``manual_seed``)."""
    return _random(size, dtype, device, requires_grad, lambda g, s: g.random(s))


def randn(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Standard normal random values (seeded by ``manual_seed``)."""
    return _random(size, dtype, device, requires_grad, lambda g, s: g.standard_normal(s))


def randint(low, high=None, size=None, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Random integers in ``[low, high)``: ``randint(10, (3,))`` or ``randint(0, 10, (3,))``."""
    if size is None:
        if high is None or not isinstance(high, Sequence):
            raise TypeError("randint() missing required argument 'size' (pos 2)")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    device = backend.as_device(device)
    dtype = dtype or dtypes.int64
    data = backend.generator().integers(low, high, _size((size,))).astype(backend.array_dtype(dtype))
    return _finish(backend.place(data, device), requires_grad)


def randperm(n: int, *, dtype=None, device=None) -> Tensor:
    device = backend.as_device(device)
    data = backend.generator().permutation(n).astype(backend.array_dtype(dtype or dtypes.int64))
    return Tensor._make(backend.place(data, device))


def manual_seed(seed: int):
    """Seed the random number generators of every device (``rand``, ``randn``, ``nn`` init, ...)."""
    backend.manual_seed(seed)
    return seed


def _legacy(args, dtype: dtypes.dtype, device) -> Tensor:
    """``torch.FloatTensor([1, 2])`` or ``torch.FloatTensor(2, 3)`` (legacy constructors)."""
    if len(args) == 1 and not isinstance(args[0], int):
        return tensor(args[0], dtype=dtype, device=device)
    return zeros(*args, dtype=dtype, device=device)


def _legacy_constructor(name: str, dtype: dtypes.dtype):
    def make(*args, device=None) -> Tensor:
        return _legacy(args, dtype, device)

    make.__name__ = name
    make.__doc__ = f"Legacy constructor: a {dtype} tensor from data or a size."
    return make


FloatTensor = _legacy_constructor("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_constructor("DoubleTensor", dtypes.float64)
HalfTensor = _legacy_constructor("HalfTensor", dtypes.float16)
LongTensor = _legacy_constructor("LongTensor", dtypes.int64)
IntTensor = _legacy_constructor("IntTensor", dtypes.int32)
BoolTensor = _legacy_constructor("BoolTensor", dtypes.bool)
