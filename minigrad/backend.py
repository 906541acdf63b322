"""The one seam between minigrad and array libraries: NumPy on ``cpu``, CuPy on ``cuda``.

Nothing else in minigrad imports numpy or cupy. Code that needs array functions asks this
module for the array module of a device (``xp(device)``) and calls it.
"""

from __future__ import annotations

import numpy

from . import dtypes

_cupy = None
_cupy_error: str | None = None


class device:  # noqa: N801 - PyTorch's name
    """Where a tensor lives: ``device("cpu")``, ``device("cuda")`` or ``device("cuda", 1)``."""

    __slots__ = ("type", "index")

    def __init__(self, type: str | device, index: int | None = None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int):
            type, index = "cuda", type
        elif ":" in type:
            type, _, number = type.partition(":")
            if not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}:{number}'")
            index = int(number)
        if type not in ("cpu", "cuda"):
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {type}")
        if type == "cuda" and index is None:
            index = 0
        self.type = type
        self.index = index

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"


CPU = device("cpu")


def _load_cupy():
    """Import CuPy on first use, remembering why it failed so errors can say how to fix it."""
    global _cupy, _cupy_error
    if _cupy is None and _cupy_error is None:
        try:
            import cupy

            if cupy.cuda.runtime.getDeviceCount() < 1:
                _cupy_error = "CuPy is installed but sees no NVIDIA GPU"
            else:
                _cupy = cupy
        except ImportError:
            _cupy_error = "CuPy is not installed"
        except Exception as exc:  # a driver or runtime problem, reported as such
            _cupy_error = f"CuPy is installed but cannot use a GPU ({exc})"
    return _cupy


def cuda_available() -> bool:
    return _load_cupy() is not None


def cuda_device_count() -> int:
    cupy = _load_cupy()
    return cupy.cuda.runtime.getDeviceCount() if cupy is not None else 0


def _require_cuda(dev: device):
    cupy = _load_cupy()
    if cupy is None:
        raise RuntimeError(
            f"Torch not compiled with CUDA enabled: minigrad cannot use device '{dev}' because "
            f"{_cupy_error}. Install CuPy for your CUDA version (pip install cupy-cuda12x or "
            "cupy-cuda13x, or conda install -c conda-forge cupy) on a machine with an NVIDIA GPU, "
            "or keep the tensors on 'cpu'."
        )
    if dev.index >= cupy.cuda.runtime.getDeviceCount():
        raise RuntimeError(
            f"CUDA error: invalid device ordinal: cuda:{dev.index} requested but only "
            f"{cupy.cuda.runtime.getDeviceCount()} GPU(s) are visible"
        )
    return cupy


def as_device(dev) -> device:
    if dev is None:
        return CPU
    return dev if isinstance(dev, device) else device(dev)


def xp(dev: device):
    """The array module (numpy or cupy) that computes on ``dev``."""
    if dev.type == "cpu":
        return numpy
    return _require_cuda(dev)


def common_device(arrays, op_name: str) -> device:
    """The device all ``arrays`` live on, or PyTorch's error when they are on different ones."""
    for a in arrays:  # the common case, all on the CPU, checked cheaply
        if type(a) is not numpy.ndarray:
            break
    else:
        return CPU
    devices = [device_of(a) for a in arrays]
    for other in devices[1:]:
        if other != devices[0]:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two devices, "
                f"{devices[0]} and {other}! (in {op_name}) Move them with .to(device) first."
            )
    return devices[0]


class _DeviceContext:
    """Makes CuPy allocate on the tensor's GPU; does nothing on the CPU."""

    def __init__(self, dev: device):
        self.ctx = _require_cuda(dev).cuda.Device(dev.index) if dev.type == "cuda" else None

    def __enter__(self):
        if self.ctx is not None:
            self.ctx.__enter__()

    def __exit__(self, *exc):
        if self.ctx is not None:
            self.ctx.__exit__(*exc)


class _QuietCPU:
    """NumPy without its divide/overflow/invalid warnings: PyTorch gives inf or nan silently.

    ``numpy.errstate`` costs more than a small op itself, so this sets NumPy's error-state
    context variable directly, falling back to ``errstate`` if that internal name moves."""

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
    """The context an op computes in: its device (for CuPy), without NumPy's float warnings."""
    return _QuietCPU() if dev.type == "cpu" else _DeviceContext(dev)


def device_of(array) -> device:
    if isinstance(array, numpy.ndarray | numpy.generic):
        return CPU
    return device("cuda", array.device.id)


_array_dtypes: dict = {}


def array_dtype(d: dtypes.dtype):
    """The NumPy/CuPy dtype of a minigrad dtype."""
    found = _array_dtypes.get(d)
    if found is None:
        found = _array_dtypes[d] = numpy.dtype(d.array_name)
    return found


def is_array(value) -> bool:
    if type(value) is numpy.ndarray:
        return True
    return _cupy is not None and isinstance(value, _cupy.ndarray)


def asarray(data, d: dtypes.dtype | None, dev: device):
    """An array on ``dev`` from nested lists, scalars or arrays (copied when they are already arrays)."""
    module = xp(dev)
    target = array_dtype(d) if d is not None else None
    with on(dev):
        if is_array(data) and device_of(data) != dev:
            data = to_numpy(data) if dev.type == "cpu" else data
        return module.array(data, dtype=target)


def to_numpy(array):
    """A NumPy array with the values of ``array`` (a copy when it lives on a GPU)."""
    if isinstance(array, numpy.ndarray | numpy.generic):
        return numpy.asarray(array)
    return array.get()


def move(array, dev: device):
    """A copy of ``array`` on ``dev``."""
    if dev.type == "cpu":
        return to_numpy(array).copy()
    with on(dev):
        return xp(dev).asarray(array).copy() if device_of(array) == dev else xp(dev).asarray(array)


def synchronize(dev: device | None = None) -> None:
    cupy = _load_cupy()
    if cupy is not None:
        cupy.cuda.Device(dev.index if dev is not None and dev.index is not None else 0).synchronize()


# Random numbers come from one NumPy generator for every device (then moved), so a seed gives
# the same values on the CPU and on a GPU.
_seed = 0x5EED
_generator = None


def generator():
    """The generator behind rand, randn, randint and the in-place random fills."""
    global _generator
    if _generator is None:
        _generator = numpy.random.default_rng(_seed)
    return _generator


def manual_seed(seed: int) -> None:
    global _seed, _generator
    _seed, _generator = int(seed), None


def scatter_add(out, key, values) -> None:
    """``out[key] += values`` where repeated indices add up (index backward)."""
    if isinstance(out, numpy.ndarray):
        numpy.add.at(out, key, values)
    else:
        import cupyx

        cupyx.scatter_add(out, key, values)
