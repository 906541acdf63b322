"""``minigrad.utils``: helpers around training, as ``torch.utils`` (``data``: datasets and
loaders; ``checkpoint``: activation checkpointing)."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
