"""Warnings that point at the user's line of code, as PyTorch's do.

PyTorch warns from C++, so Python shows the line that called the operation. minigrad warns from
deep inside its own modules, through wrappers and helpers; counting those frames by hand at each
warning breaks whenever a call path changes. :func:`warn` finds the first caller outside
minigrad instead.
"""

from __future__ import annotations

import sys
import warnings

_PACKAGE = __name__.rpartition(".")[0]  # "minigrad"


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)``, shown at the first line outside minigrad that led
    here (a user's call, or a user's hook or backward that minigrad called)."""
    frame, level = sys._getframe(1), 2  # stacklevel 2: warn's caller
    while frame.f_back is not None and _inside_minigrad(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def _inside_minigrad(frame) -> bool:
    name = frame.f_globals.get("__name__", "")
    return name == _PACKAGE or name.startswith(_PACKAGE + ".")
