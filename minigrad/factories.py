"""Creating tensors: ``tensor``, ``zeros``, ``rand`` and friends, with PyTorch's defaults."""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from numbers import Number

from . import _warn, backend, dtypes
from .tensor import Tensor


def _size(size) -> tuple[int, ...]:
    """Accept ``zeros(2, 3)``, ``zeros((2, 3))`` and ``zeros([2, 3])``."""
    if not size:  # zeros() with no size at all; zeros(()) is a 0-d tensor
        raise TypeError("missing 1 required positional argument: 'size'")
    if len(size) == 1 and (isinstance(size[0], Sequence) or isinstance(size[0], Tensor) and size[0].ndim):
        size = tuple(size[0])
    sizes = []
    for s in size:
        try:
            n = operator.index(s)  # ints, NumPy's, one-element integer tensors; not 2.0, not ones(3)
        except TypeError:
            raise TypeError(f"size must be a sequence of ints, got {backend.type_name(s)} ({s!r})") from None
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(size)}")
        sizes.append(n)
    return tuple(sizes)


def _finish(data, requires_grad: bool) -> Tensor:
    if not data.size and data.base is None:  # NumPy's strides are zeros: PyTorch's, for views of it
        data = backend.with_torch_strides(data)
    t = Tensor._make(data)
    if requires_grad:
        t.requires_grad_(True)  # checks that the dtype is floating point
    return t


def _is_sequence(value) -> bool:
    """Whether PyTorch reads ``value`` as a sequence of elements (Python's sequence protocol):
    lists, tuples, ranges, arrays and strings are; tensors, NumPy scalars, dicts and sets are not."""
    if type(value) is list or type(value) is tuple or isinstance(value, list | tuple):
        return True
    if isinstance(value, Tensor | dict | backend.numpy.generic):
        return False
    return hasattr(type(value), "__getitem__") and hasattr(type(value), "__len__")


def _sizes(data) -> list[int]:
    """The shape of nested sequences, read along their first elements (as PyTorch reads it)."""
    sizes = []
    while _is_sequence(data):
        sizes.append(len(data))
        if len(sizes) > 64:
            raise ValueError(f"too many dimensions '{type(data).__name__}'")
        if not sizes[-1]:
            break
        data = data[0]
    return sizes


_NUMBER_KINDS = {builtins.bool: 0, builtins.int: 1, builtins.float: 2}  # bool < int < float


def _infer_dtype(data) -> dtypes.dtype:
    """PyTorch's rule: promote the types of all elements, where a Python float counts as the
    default dtype, an int as int64, a bool as bool, and a tensor, NumPy scalar or array as its own
    dtype (so ``[np.float64(1.0)]`` gives float64); an empty sequence counts as the default dtype."""
    if isinstance(data, Tensor):
        return data.dtype
    if backend.is_array(data) or isinstance(data, backend.numpy.generic):  # (before float: np.float64 is one)
        return dtypes.from_array_dtype(data.dtype)
    if isinstance(data, builtins.float):
        return dtypes.get_default_dtype()
    if isinstance(data, builtins.bool):
        return dtypes.bool
    if isinstance(data, builtins.int):
        return dtypes.int64
    if isinstance(data, str | bytes):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, complex):
        raise TypeError("minigrad has no complex dtypes: make the tensor from real numbers")
    if not _is_sequence(data):
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    if not len(data):
        return dtypes.get_default_dtype()
    kinds = {_NUMBER_KINDS.get(t) for t in set(map(type, data))}
    if None not in kinds:  # only Python numbers (the common case, read at C speed)
        return (dtypes.bool, dtypes.int64, dtypes.get_default_dtype())[builtins.max(kinds)]
    result = _infer_dtype(data[0])
    for item in data[1:]:
        result = dtypes.promote_types(result, _infer_dtype(item))
    return result


def _elements(data, sizes: list[int], dim: int, out: list) -> None:
    """Append the elements of the nested sequences ``data`` to ``out``, checking that every
    sequence has the length ``sizes`` gives (PyTorch's errors for ragged lists)."""
    if dim == len(sizes):
        out.append(data)
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if len(data) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(data)})")
    if dim == len(sizes) - 1:
        out.extend(data)
    else:
        for item in data:
            _elements(item, sizes, dim + 1, out)


def _as_float(value) -> builtins.float:
    """An element as a float, as PyTorch reads it (numbers and one-element tensors; not strings)."""
    if isinstance(value, str | bytes) or not hasattr(value, "__float__") and not hasattr(value, "__index__"):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return builtins.float(value)


def _as_int(value, dtype: dtypes.dtype) -> builtins.int:
    """An element as an int of ``dtype``, as PyTorch reads it: a float is truncated if it fits;
    anything else must be an integer (``operator.index``: not a NumPy float) in range."""
    info = dtypes.iinfo(dtype)
    if isinstance(value, builtins.float):
        if not info.min <= value <= info.max:  # (also NaN)
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
        return builtins.int(value)
    value = operator.index(value)
    if not -(2**63) <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    # (an unsigned type takes negative numbers down to -max, wrapped, as in PyTorch)
    if value > info.max or value < (info.min if dtype.is_signed else -info.max):
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return value


def _array_of(elements: list, sizes: list[int], dtype: dtypes.dtype):
    """A NumPy array of ``dtype`` and shape ``sizes`` holding ``elements``, converted as PyTorch
    converts each one (its errors for values out of range or of the wrong type)."""
    target = backend.array_dtype(dtype)
    kinds = set(map(type, elements))
    plain = kinds <= _NUMBER_KINDS.keys() and (dtype.is_floating_point or builtins.float not in kinds)
    if dtype is dtypes.bool:
        floats = builtins.float | backend.numpy.bool_
        values = [builtins.bool(v if isinstance(v, floats) else operator.index(v)) for v in elements]
    elif dtype.is_floating_point:
        values = elements if plain else [_as_float(v) for v in elements]
        with backend._QuietCPU():  # a float beyond float16's range is inf, silently
            return backend.numpy.array(values, target).reshape(sizes)
    else:
        if not plain or elements and not -(2**63) <= builtins.min(elements) <= builtins.max(elements) < 2**63:
            elements = [_as_int(v, dtype) for v in elements]  # (one by one: PyTorch's error for the first)
        elif elements:
            _as_int(builtins.min(elements), dtype), _as_int(builtins.max(elements), dtype)
        values = elements
        return backend.numpy.array(values, "int64").astype(target).reshape(sizes)
    return backend.numpy.array(values, target).reshape(sizes)


def _numpy_dtype(array) -> dtypes.dtype:
    """The dtype of a NumPy ``array``, with PyTorch's errors for one it cannot make a tensor of
    (negative strides, an unsupported dtype)."""
    if array.ndim and min(array.strides) < 0:
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative strides are "
            "not currently supported. (You can probably work around this by making a copy of your array  with "
            "array.copy().) "
        )
    try:
        return dtypes.from_array_dtype(array.dtype)
    except TypeError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. The only supported types are: "
            + ", ".join(d.array_name for d in reversed(dtypes.ALL))
            + "."
        ) from None


def tensor(data, *, dtype: dtypes.dtype | None = None, device=None, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists or an array).

    >>> import minigrad as torch
    >>> torch.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    >>> torch.tensor([1, 2]).dtype
    torch.int64
    """
    device = backend.as_device(device)
    if isinstance(data, Tensor):
        _warn.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
            "or sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning,
        )
        return _finish(backend.convert(data._data, device, dtype or data.dtype), requires_grad)
    if dtype is not None:
        backend.array_dtype(dtype)  # a wrong dtype first: it is no fault of the data
    if backend.is_array(data):
        own = _numpy_dtype(data) if type(data) is backend.numpy.ndarray else dtypes.from_array_dtype(data.dtype)
        return _finish(backend.asarray(data, dtype or own, device), requires_grad)
    if isinstance(data, str | bytes):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    # Nested sequences and numbers, read as PyTorch reads them: the shape along the first
    # elements, then the dtype of all elements, then each element converted to that dtype.
    sizes = _sizes(data)
    dtype = dtype or _infer_dtype(data)
    elements = []
    _elements(data, sizes, 0, elements)
    array = _array_of(elements, sizes, dtype)
    return _finish(array if device.type == "cpu" else backend.place(array, device), requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` as a tensor, sharing memory with it when it is a tensor or a NumPy array of that
    dtype and device (else a copy, as ``tensor`` makes one)."""
    if (
        isinstance(data, Tensor)
        and dtype in (None, data.dtype)
        and (device is None or backend.as_device(device) == data.device)
    ):
        return data
    if isinstance(data, Tensor):
        return data.to(dtype=dtype or data.dtype, device=device or data.device)
    if (
        type(data) is backend.numpy.ndarray
        and dtype in (None, _numpy_dtype(data))
        and (device is None or backend.as_device(device).type == "cpu")
    ):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array) -> Tensor:
    """A tensor sharing memory with a NumPy array."""
    if not backend.is_array(array):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if type(array) is backend.numpy.ndarray:
        _numpy_dtype(array)  # PyTorch's errors for negative strides and unsupported dtypes
    return Tensor._make(array)


def _filled(size, fill, dtype, device, requires_grad, like=None) -> Tensor:
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    with backend.on(device):
        data = backend.xp(device).full(_size(size), fill, dtype=backend.array_dtype(dtype))
    return _finish(_laid_out_like(data, like), requires_grad)


def _laid_out_like(data, strides):
    """``data`` (a new row-major array, its elements in the order they were made) laid out in
    memory with ``strides`` (in elements, from :func:`_like`; None: row-major, as it is)."""
    return data if strides is None else backend.laid_out(data.reshape(-1), data.shape, strides)


def _like(input: Tensor, memory_format, caller: str) -> tuple[int, ...]:
    """The strides of a tensor made like ``input`` in ``memory_format``, for ``_laid_out_like``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{caller}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return backend.strides_in(memory_format, input._data, caller)


def zeros(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    return _filled(size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones."""
    return _filled(size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor (zeros here, for reproducibility)."""
    return _filled(size, 0, dtype, device, requires_grad)


def full(size: Sequence[int], fill_value: Number, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (float, int or bool)."""
    return _full(size, fill_value, dtype, device, requires_grad)


def _full(size, fill_value, dtype, device, requires_grad, like=None) -> Tensor:
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    from .functions import _check_fits

    if type(fill_value) is int and not -(2**63) <= fill_value < 2**64:
        raise OverflowError("int too big to convert")
    dtype = dtype or dtypes.scalar_dtype(fill_value)
    _check_fits(fill_value, dtype)  # inf into an integer dtype raises, as in PyTorch
    if type(fill_value) is int and not dtype.is_floating_point:  # in range: -1 wraps into uint8, as in PyTorch
        fill_value = backend.scalar(fill_value, dtype, backend.as_device("cpu")).item()
    size = (size,) if isinstance(size, int) else (tuple(size),)
    return _filled(size, fill_value, dtype, device, requires_grad, like)


def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
               memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """Zeros with the shape, dtype and device of ``input`` (by default), laid out in memory as
    ``input`` is (``memory_format=torch.preserve_format``, as in PyTorch)."""
    like = _like(input, memory_format, "zeros_like")
    return _filled((input.shape,), 0, dtype or input.dtype, device or input.device, requires_grad, like)


def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
              memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """Ones with the shape, dtype and device of ``input`` (by default), laid out as ``input``."""
    like = _like(input, memory_format, "ones_like")
    return _filled((input.shape,), 1, dtype or input.dtype, device or input.device, requires_grad, like)


def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
               memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """An uninitialised tensor like ``input`` (zeros here, for reproducibility)."""
    like = _like(input, memory_format, "empty_like")
    return _filled((input.shape,), 0, dtype or input.dtype, device or input.device, requires_grad, like)


def full_like(input: Tensor, fill_value: Number, *, dtype=None, device=None, requires_grad: bool = False,
              memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """``fill_value`` everywhere, with the shape, dtype and device of ``input`` (by default),
    laid out as ``input``."""
    like = _like(input, memory_format, "full_like")
    return _full(input.shape, fill_value, dtype or input.dtype, device or input.device, requires_grad, like)


def arange(
    start: Number, end: Number | None = None, step: Number = 1, *, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """Evenly spaced values in ``[start, end)``; int64 unless a bound or step is a float."""
    if end is None:
        start, end = 0, start
    values = (start, end, step)
    if dtype is None:
        floats = builtins.float | backend.numpy.floating
        dtype = dtypes.get_default_dtype() if any(isinstance(v, floats) for v in values) else dtypes.int64
    backend.array_dtype(dtype)  # (a dtype that is none gets PyTorch's TypeError)
    if dtype is dtypes.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    device = backend.as_device(device)
    if dtype.is_floating_point:
        if not (math.isfinite(start) and math.isfinite(end)):
            raise RuntimeError(f"unsupported range: {start} -> {end}")
        count = math.ceil((end - start) / step)
        computed = dtypes.float32 if dtype is dtypes.float16 else dtypes.float64  # (PyTorch's accumulate type)
        first, by = backend.numpy.asarray([start, step], _computed_in(computed))
        formula = lambda i: _fma(i.astype("float64"), by, first, computed)  # noqa: E731 - the value at index i
        values = _vectorized(count, formula, by, dtype, computed, grain=32768)  # (PyTorch's GRAIN_SIZE)
        return _finish(backend.place(values.astype(backend.array_dtype(dtype), copy=False), device), requires_grad)
    if dtype is dtypes.int64 and all(type(v) is builtins.int and -(2**63) <= v < 2**63 for v in values):
        return _finish(backend.place(backend.numpy.arange(start, end, step, dtype="int64"), device), requires_grad)
    # Integers as PyTorch's kernel makes them: start and step truncated to integers, so
    # arange(0, 7, 1.5) steps by 1; int64 truncates the end too, the others count the values
    # from the numbers as given.
    first, last, by = (_integer(v, dtypes.int64) for v in values)
    if dtype is dtypes.int64:
        if by == 0:
            raise ValueError("step must be nonzero")
        span = last - first + by - (1 if by > 0 else -1)
        count = builtins.abs(span) // builtins.abs(by) if (span > 0) == (by > 0) else 0  # (C++ division)
    else:
        count = math.ceil((end - start) / step)
    data = backend.numpy.arange(count, dtype="int64")
    data *= by  # (by may be 0 here)
    data += first
    return _finish(backend.place(data.astype(backend.array_dtype(dtype), copy=False), device), requires_grad)


def linspace(start: Number, end: Number, steps: int, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    start, end = _bound("start", start), _bound("end", end)  # (NumPy would broadcast arrays)
    device = backend.as_device(device)
    dtype = dtype or dtypes.get_default_dtype()
    backend.array_dtype(dtype)  # (a dtype that is none gets PyTorch's TypeError)
    if steps <= 1:  # (no step: PyTorch fills in start, or nothing, without its kernel)
        values = backend.numpy.full(steps, _in(start, dtype) if steps else 0)
        return _finish(backend.asarray(values, dtype, device), requires_grad)
    if dtype is dtypes.bool:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    first, last = _in(start, dtype), _in(end, dtype)
    if dtype.is_floating_point:  # the step in the dtype itself (float16: float32), as PyTorch's kernel
        computed = dtypes.float64 if dtype is dtypes.float64 else dtypes.float32
        first, last = backend.numpy.asarray([first, last], _computed_in(computed))
        step = (last - first) / _computed_in(computed)(builtins.max(steps - 1, 1))
        values = _from_both_ends(first, last, step, steps, computed)
    else:  # the step in double, each value truncated
        step = (builtins.float(last) - builtins.float(first)) / builtins.max(steps - 1, 1)
        values = backend.numpy.trunc(_from_both_ends(first, last, step, steps, dtypes.float64))
    return _finish(backend.asarray(values, dtype, device), requires_grad)


def _computed_in(dtype):
    """The NumPy type PyTorch's range kernels compute a floating ``dtype`` in (float16 in float32)."""
    return backend.numpy.float64 if dtype is dtypes.float64 else backend.numpy.float32


def _from_both_ends(first, last, step, steps: int, computed):
    """PyTorch's linspace kernel: the first half stepped up from ``first``, the second half down
    from ``last``, each value one fused multiply-add in ``computed`` (float64 or float32)."""
    numpy = backend.numpy
    i = numpy.arange(steps)
    up = i < steps // 2
    values = numpy.empty(steps, _computed_in(computed))
    values[up] = _fma(i[up].astype("float64"), step, first, computed)
    values[~up] = _fma((steps - 1 - i[~up]).astype("float64"), -step, last, computed)
    return values


# The elements of one 256-bit (AVX2) vector of each floating dtype, as PyTorch's arange fills them
_LANES = {dtypes.float64: 4, dtypes.float32: 8, dtypes.float16: 16}


def _vectorized(count: int, formula, step, dtype, computed, grain: int):
    """PyTorch's loop that fills ``count`` values, ``formula(indices)`` giving the kernel's value
    at each index: split among the threads as its ``parallel_for`` splits them (pieces of at
    least ``grain``), and in each piece, as long as two whole vectors remain, a vector takes the
    formula's value at its first element and steps from there (one fused multiply-add a value,
    in ``computed``); the remaining values take the formula."""
    from .functions import get_num_threads

    numpy = backend.numpy
    values = numpy.empty(count, _computed_in(dtype))
    lanes = _LANES[dtype]
    threads = builtins.min(get_num_threads(), -(-count // grain)) if count > grain else 1
    piece = -(-count // threads) if count else 1
    for begin in range(0, count, piece):
        stop = builtins.min(begin + piece, count)
        whole = (stop - begin) // (2 * lanes) * 2 * lanes
        if whole:
            firsts = formula(numpy.arange(begin, begin + whole, lanes)).astype(values.dtype)
            j = numpy.tile(numpy.arange(lanes, dtype="float64"), whole // lanes)
            values[begin : begin + whole] = _fma(j, step, numpy.repeat(firsts, lanes), computed)
        values[begin + whole : stop] = formula(numpy.arange(begin + whole, stop))
    return values


def _fma(a, b, c, dtype):
    """``a * b + c`` rounded once to ``dtype`` (float64, or float32 through an exact float64
    product), as the fused multiply-add PyTorch's compiler emits in its range kernels."""
    from .random import _fma64

    numpy = backend.numpy
    if dtype is dtypes.float64:
        return a + c if b == 1.0 else _fma64(a, numpy.float64(b), numpy.asarray(c, "float64"))
    out = numpy.multiply(a, numpy.float32(b), dtype="float64")
    out += numpy.asarray(c, "float32")
    return out.astype("float32")


def _c_cast(values, dtype):
    """Doubles converted to an integer ``dtype`` as PyTorch's C++ casts them on x86: truncated,
    through int32 for the smaller types (so they wrap), and the lowest integer where a value does
    not fit (or is nan)."""
    numpy = backend.numpy
    limit = 2.0**63 if dtype is dtypes.int64 else 2.0**31
    inside = (values > -limit - 1) & (values < limit)
    return numpy.where(inside, numpy.trunc(values), -limit).astype("int64").astype(backend.array_dtype(dtype))


def _in(value, dtype):
    """A bound converted to ``dtype`` as PyTorch converts a number: refused where it does not fit,
    truncated into integers (a negative int wraps into uint8)."""
    if dtype is dtypes.bool:
        return builtins.bool(value)
    if dtype.is_floating_point:
        from .functions import _check_fits

        _check_fits(value, dtype)
        return builtins.float(value)
    return _integer(value, dtype)


def _integer(value, dtype) -> int:
    """A number converted to an integer ``dtype`` as PyTorch converts it (see :func:`_in`)."""
    from .functions import _check_fits

    _check_fits(value, dtype)
    value = builtins.int(value)  # (toward zero, as C++)
    return value % 256 if dtype is dtypes.uint8 else value


def _bound(name: str, value):
    """A bound of ``linspace``: a number, or a 0-d tensor that stands for one (as in PyTorch)."""
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                f"linspace only supports 0-dimensional start and end tensors, but got {name} with {value.ndim} dimension(s)."
            )
        return value.item()
    if not isinstance(value, Number | backend.numpy.number):
        raise TypeError(f"linspace(): argument '{name}' must be Number, not {backend.type_name(value)}")
    return value


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


def _random(size, dtype, device, requires_grad, generator, draw, floating: bool | str = True, like=None) -> Tensor:
    """A new tensor of ``size`` filled by ``draw(gen, n, array_dtype)`` from PyTorch's stream, in
    memory order (``like``: see :func:`_laid_out_like`). ``floating``: the draw needs a floating
    dtype (a string: the name of PyTorch's kernel, for its error)."""
    from . import random

    device = backend.as_device(device)
    dtype = dtype or (dtypes.get_default_dtype() if floating else dtypes.int64)
    if floating and not dtype.is_floating_point:
        kernel = floating if isinstance(floating, str) else "check_uniform_bounds"
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtype._legacy_name}' (random values from this distribution need "
            "a floating dtype)"
        )
    shape = _size(size)
    array_dtype = backend.array_dtype(dtype)
    data = draw(random.generator_for(device, generator), math.prod(shape), array_dtype)
    data = backend.place(data.astype(array_dtype).reshape(shape), device)
    return _finish(_laid_out_like(data, like), requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Uniform random values in ``[0, 1)``: PyTorch's numbers for the same seed.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2, 2)
    tensor([[0.4963, 0.7682],
            [0.0885, 0.1320]])
    """
    from . import random

    return _random(size, dtype, device, requires_grad, generator, random.uniform)


def randn(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Standard normal random values: PyTorch's numbers for the same seed.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randn(3)
    tensor([ 1.5410, -0.2934, -2.1788])
    """
    from . import random

    return _random(size, dtype, device, requires_grad, generator, random.normal, "normal_kernel_cpu")


def rand_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False, generator=None,
              memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """``rand`` with the shape (and by default the dtype, device and memory layout) of ``input``."""
    from . import random

    like = _like(input, memory_format, "rand_like")
    return _random((input.shape,), dtype or input.dtype, device or input.device, requires_grad, generator,
                   random.uniform, like=like)  # fmt: skip


def randn_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False, generator=None,
               memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """``randn`` with the shape (and by default the dtype, device and memory layout) of ``input``."""
    from . import random

    like = _like(input, memory_format, "randn_like")
    row_major = backend.is_row_major(input.shape, like)  # else PyTorch draws one value at a time
    return _random((input.shape,), dtype or input.dtype, device or input.device, requires_grad, generator,
                   lambda g, n, t: random.normal(g, n, t, contiguous=row_major), "normal_kernel_cpu", like=like)  # fmt: skip


def _randint_bounds(low, high) -> tuple[int, int]:
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return int(low), int(high)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:  # fmt: skip
    """Random integers in ``[low, high)``: ``randint(10, (3,))`` or ``randint(0, 10, (3,))``.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randint(0, 10, (5,))
    tensor([4, 9, 3, 0, 3])
    """
    from . import random

    if size is None:
        if high is None or not isinstance(high, Sequence):
            raise TypeError("randint() missing required argument 'size' (pos 2)")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    low, high = _randint_bounds(low, high)
    return _random((size,), dtype, device, requires_grad, generator,
                   lambda g, n, t: random.integers(g, n, t, low, high), floating=False)  # fmt: skip


def randint_like(input: Tensor, low, high=None, *, dtype=None, device=None, requires_grad: bool = False,
                 generator=None, memory_format=backend.preserve_format) -> Tensor:  # fmt: skip
    """``randint`` with the shape (and by default the dtype and device) of ``input``."""
    from . import random

    like = _like(input, memory_format, "randint_like")
    if high is None:
        low, high = 0, low
    low, high = _randint_bounds(low, high)
    return _random((input.shape,), dtype or input.dtype, device or input.device, requires_grad, generator,
                   lambda g, n, t: random.integers(g, n, t, low, high), floating=False, like=like)  # fmt: skip


def randperm(n: int, *, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0..n-1``: PyTorch's for the same seed.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randperm(5)
    tensor([4, 0, 1, 3, 2])
    """
    from . import random

    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    return _random((n,), dtype, device, requires_grad, generator, lambda g, k, t: random.permutation(g, k),
                   floating=False)  # fmt: skip


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:  # fmt: skip
    """Normal random values: ``normal(mean_tensor, std_tensor)`` (broadcast), ``normal(mean_tensor,
    2.0)``, ``normal(0.0, std_tensor)`` or ``normal(0.0, 1.0, size)``.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.normal(2.0, 3.0, (2,))
    tensor([6.6230, 1.1197])
    """
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() missing required argument 'size'")
        out = zeros(size if isinstance(size, Sequence) else (size,), dtype=dtype, device=device)
        return _finish(out.normal_(mean, std, generator=generator)._data, requires_grad)
    if isinstance(std, Tensor) and (std < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    like = mean if isinstance(mean, Tensor) else std
    both = isinstance(mean, Tensor) and isinstance(std, Tensor)
    shape = backend.numpy.broadcast_shapes(mean.shape, std.shape) if both else like.shape
    # PyTorch draws standard normals in the output and then scales them: out * std + mean
    out = zeros(shape, dtype=like.dtype, device=like.device).normal_(0.0, 1.0, generator=generator)
    return (out * std + mean).detach()


def bernoulli(input: Tensor, p: float | None = None, *, generator=None) -> Tensor:
    """0 or 1 with probability ``input`` (each element), or ``p`` when given.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.bernoulli(torch.tensor([0.1, 0.9, 0.5]))
    tensor([0., 1., 1.])
    """
    return input.bernoulli(p, generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices drawn from the categories weighted by ``input`` (a row, or a batch of rows).

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.multinomial(torch.tensor([0.1, 0.7, 0.2]), 4, replacement=True)
    tensor([2, 1, 1, 2])
    """
    from . import random

    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {input.dtype._legacy_name}"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    weights = backend.to_numpy(input._data).reshape(-1, categories)
    if (weights < 0).any() or not backend.numpy.isfinite(weights).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (weights.sum(1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = random.generator_for(input.device, generator)
    if not replacement or num_samples == 1:
        # PyTorch's fast path: the top num_samples of p / q with q ~ Exponential(1) (Gumbel trick)
        q = random.exponential(gen, weights.size, 1.0).astype(weights.dtype).reshape(weights.shape)
        keys = weights / q
        picked = backend.numpy.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    else:
        picked = random.categorical(gen, weights, num_samples)
    picked = picked.reshape(*input.shape[:-1], num_samples).astype(backend.numpy.int64)
    return Tensor._make(backend.place(picked, input.device))


def poisson(input: Tensor, generator=None) -> Tensor:
    """Poisson counts with rates ``input`` (in ``input``'s dtype)."""
    from . import random

    rates = backend.to_numpy(input._data)
    if (rates < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    counts = random.poisson(random.generator_for(input.device, generator), rates.ravel())
    return Tensor._make(backend.place(counts.astype(rates.dtype).reshape(rates.shape), input.device))


def manual_seed(seed: int):
    """Seed the random number generators of every device (``rand``, ``randn``, ``nn`` init, ...);
    returns the CPU's generator, as PyTorch."""
    from . import random

    return random.manual_seed(seed)


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


# --- window functions, empty_strided, asarray ---
def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad: bool, values) -> Tensor:
    """A window of ``window_length`` samples from ``values(n)`` (the symmetric window of ``n``
    samples, as float64 NumPy values); a periodic one is the symmetric one of ``n + 1`` without
    its last sample, as PyTorch makes it."""
    dtype = dtype or dtypes.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    device = backend.as_device(device)
    numpy = backend.xp(backend.CPU)
    if window_length <= 1:
        host = numpy.ones(window_length)
    else:
        n = window_length + 1 if periodic else window_length
        host = values(numpy, numpy.arange(n, dtype="float64"), n)[:window_length]
    return _finish(backend.asarray(host, dtype, device), requires_grad)


def hann_window(
    window_length: int, periodic: bool = True, *, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """The Hann window: ``0.5 - 0.5 cos(2 pi k / (N - 1))``.

    >>> import minigrad as torch
    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return hamming_window(
        window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad, name="hann_window"
    )


def hamming_window(
    window_length: int,
    periodic: bool = True,
    alpha: float = 0.54,
    beta: float = 0.46,
    *,
    dtype=None,
    device=None,
    requires_grad: bool = False,
    name: str = "hamming_window",
) -> Tensor:
    """The generalized Hamming window: ``alpha - beta cos(2 pi k / (N - 1))``.

    >>> import minigrad as torch
    >>> torch.hamming_window(3, periodic=False)
    tensor([0.0800, 1.0000, 0.0800])
    """
    return _window(
        name,
        window_length,
        periodic,
        dtype,
        device,
        requires_grad,
        lambda np, k, n: alpha - beta * np.cos(k * (2 * math.pi / (n - 1))),
    )


def blackman_window(
    window_length: int, periodic: bool = True, *, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """The Blackman window: ``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``.

    >>> import minigrad as torch
    >>> torch.blackman_window(3, periodic=False).abs()
    tensor([0., 1., 0.])
    """
    return _window(
        "blackman_window",
        window_length,
        periodic,
        dtype,
        device,
        requires_grad,
        lambda np, k, n: 0.08 * np.cos(k * (4 * math.pi / (n - 1))) - 0.5 * np.cos(k * (2 * math.pi / (n - 1))) + 0.42,
    )


def bartlett_window(
    window_length: int, periodic: bool = True, *, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """The Bartlett (triangular) window: rising from 0 to 1 and falling back.

    >>> import minigrad as torch
    >>> torch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """

    def triangle(np, k, n):
        w = k * (2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = 2 - w[half:]
        return w

    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, triangle)


def kaiser_window(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype=None,
    device=None,
    requires_grad: bool = False,
) -> Tensor:
    """The Kaiser window: ``I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)``.

    >>> import minigrad as torch
    >>> torch.kaiser_window(3, periodic=False, beta=0.0)
    tensor([1., 1., 1.])
    """

    def kaiser(np, k, n):
        alpha = (n - 1) / 2.0
        return np.i0(beta * np.sqrt(np.clip(1 - ((k - alpha) / alpha) ** 2, 0, None))) / np.i0(beta)

    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, kaiser)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ``size`` laid out with ``stride`` (in elements) in new memory (zeros here).

    >>> import minigrad as torch
    >>> torch.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides ({len(stride)})"
        )
    if any(s < 0 for s in stride) or any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    dtype = dtype or dtypes.get_default_dtype()
    device = backend.as_device(device)
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    with backend.on(device):
        block = backend.xp(device).zeros(extent, dtype=backend.array_dtype(dtype))
    if not all(size):
        return _finish(backend.xp(device).zeros(size, dtype=block.dtype), requires_grad)
    return _finish(backend.view_at(block, 0, size, stride), requires_grad)


def asarray(obj, *, dtype=None, device=None, copy: bool | None = None, requires_grad: bool | None = None) -> Tensor:
    """``obj`` as a tensor, sharing its memory when it can (a tensor or an array of the right dtype
    and device) unless ``copy=True``; ``copy=False`` refuses to copy. The result is a leaf that
    requires grad as ``requires_grad`` says (a tensor's own setting by default).

    >>> import minigrad as torch
    >>> import numpy as np
    >>> a = np.zeros(2)
    >>> t = torch.asarray(a)
    >>> t[0] = 1.0
    >>> a
    array([1., 0.])
    """
    target = backend.as_device(device) if device is not None else None
    if isinstance(obj, Tensor) or backend.is_array(obj):
        t = obj if isinstance(obj, Tensor) else from_numpy(obj)
        other_dtype = dtype is not None and dtype is not t.dtype
        other_device = target is not None and target != t.device
        if copy is False and (other_dtype or other_device):
            if other_dtype:
                raise ValueError(
                    f"can't alias tensor with dtype '{t.dtype._legacy_name}' into dtype '{dtype._legacy_name}'."
                )
            raise ValueError(f"can't alias tensor from device '{t.device}' to '{target}'.")
        if other_dtype or other_device:  # (recorded, as PyTorch's: ToCopyBackward0)
            t = t.to(device=target or t.device, dtype=dtype or t.dtype, copy=bool(copy))
        elif copy:
            t = t.clone()  # (CloneBackward0)
        # As PyTorch: requires_grad is set on a leaf (the object given too); a non-leaf is detached
        # for requires_grad=False and kept as it is for True.
        if requires_grad is None:
            if obj.requires_grad if isinstance(obj, Tensor) else False:
                _warn.warn(
                    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. "
                    "Pass requires_grad=False explicitly to get the old behavior and silence this warning.",
                    UserWarning,
                )
        elif t.is_leaf:
            t.requires_grad_(requires_grad)
        elif not requires_grad:
            t = t.detach()
        return t
    if copy is False:
        if isinstance(obj, backend.numpy.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or transform it in a ndarray. ")
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    return tensor(obj, dtype=dtype, device=device, requires_grad=bool(requires_grad))
