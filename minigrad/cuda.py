"""``minigrad.cuda``: GPU availability and control, backed by CuPy when it is installed."""

from __future__ import annotations

from . import backend


def is_available() -> bool:
    """True when CuPy is installed and sees at least one NVIDIA GPU."""
    return backend.cuda_available()


def device_count() -> int:
    return backend.cuda_device_count()


def current_device() -> int:
    return 0


def manual_seed(seed: int) -> None:
    backend.manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    """Seed the generators of every GPU (and the CPU: minigrad seeds all devices together)."""
    backend.manual_seed(seed)


def synchronize(device=None) -> None:
    """Wait until the GPU has finished all queued work (for timing)."""
    if is_available():
        backend.synchronize(backend.as_device(device) if device is not None else None)
