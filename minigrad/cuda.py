"""``minigrad.cuda``: is there a GPU, and controlling it (backed by CuPy when it is installed).

>>> import minigrad as torch
>>> device = "cuda" if torch.cuda.is_available() else "cpu"
>>> x = torch.ones(3, device=device)
>>> x.device.type == device
True
"""

from __future__ import annotations

from . import backend


def is_available() -> bool:
    """True when CuPy is installed and sees at least one NVIDIA GPU (never raises)."""
    return backend.cuda_available()


def unavailable_reason() -> str | None:
    """Why ``cuda`` cannot be used here (CuPy missing, no GPU, driver problem), or None."""
    return backend.cuda_unavailable_reason()


def device_count() -> int:
    """How many GPUs CuPy sees (0 without CuPy or a GPU)."""
    return backend.cuda_device_count()


def current_device() -> int:
    """The GPU that ``device="cuda"`` means: always 0 in minigrad."""
    return 0


def get_device_name(device: int | str | backend.device | None = None) -> str:
    """The product name of a GPU, e.g. ``'NVIDIA H100 80GB HBM3'``."""
    dev = backend.as_device("cuda" if device is None else device)
    return backend.device_name(dev.index)


def manual_seed(seed: int) -> None:
    """Seed the random numbers of the GPUs (minigrad has one generator for all of them, drawn on
    the host); the CPU's stream is left as it is, as in PyTorch."""
    from . import random

    random.manual_seed_gpu(seed)


manual_seed_all = manual_seed  # (one generator for every GPU)


def synchronize(device: int | str | backend.device | None = None) -> None:
    """Wait until the GPU has finished all queued work (GPU calls return before the work is
    done, so time a GPU program only after this). Does nothing without a GPU."""
    if is_available():
        backend.synchronize(backend.as_device("cuda" if device is None else device))


def empty_cache() -> None:
    """Release the GPU memory CuPy keeps cached for reuse. Does nothing without a GPU."""
    backend.empty_cache()


def memory_allocated(device: int | str | backend.device | None = None) -> int:
    """Bytes of GPU memory that tensors occupy now (0 without a GPU)."""
    return backend.memory_allocated()
