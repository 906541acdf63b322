"""Anomaly detection, as ``torch.autograd.detect_anomaly``: for debugging a backward pass.

While it is on, every node recorded keeps the stack of the forward call that made it (in
``grad_fn.metadata["traceback_"]``); when a node fails in backward, a warning shows that stack,
so the error points at the line of *your* forward code. With ``check_nan`` (the default), a
node that returns NaN in a gradient raises at once, naming itself.

>>> import warnings
>>> import minigrad as torch
>>> x = torch.tensor([0.0, 1.0], requires_grad=True)
>>> with warnings.catch_warnings(), torch.autograd.detect_anomaly():
...     warnings.simplefilter("ignore")
...     y = (x.sqrt() * 0) / x
...     y.sum().backward()
Traceback (most recent call last):
  ...
RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.
"""

from __future__ import annotations

import os
import traceback

from .. import _warn


class _State:  # one switch for the whole process, as PyTorch's (not per thread)
    enabled = False
    check_nan = True


_state = _State()


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on."""
    return _state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection checks gradients for NaN."""
    return _state.check_nan


def _set(enabled: bool, check_nan: bool) -> None:
    _state.enabled, _state.check_nan = bool(enabled), bool(check_nan)


class detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on inside a ``with`` block.

    It warns that it is on, as PyTorch does: it makes every operation slower."""

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan
        self.prev, self.prev_check_nan = is_anomaly_enabled(), is_anomaly_check_nan_enabled()
        _warn.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
            "enabled for debugging.",
        )

    def __enter__(self) -> None:
        _set(True, self.check_nan)

    def __exit__(self, *exc) -> None:
        _set(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """Turn anomaly detection on or off: at once, or for a ``with`` block (the previous setting
    comes back at its end)."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.prev, self.prev_check_nan = is_anomaly_enabled(), is_anomaly_check_nan_enabled()
        _set(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _set(self.prev, self.prev_check_nan)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # minigrad/


def record_forward_stack(node) -> None:
    """Keep where in the forward code ``node`` was recorded (called when anomaly detection is on):
    the stack up to the call into minigrad."""
    stack = traceback.extract_stack()
    while stack and stack[-1].filename.startswith(_PACKAGE):
        stack.pop()
    node.metadata["traceback_"] = traceback.format_list(stack)


def call_detecting(call, node, *args):
    """``call(node, *args)`` (running ``node`` in backward) with anomaly detection's checks."""
    try:
        grad_inputs = call(node, *args)
        if _state.check_nan:
            for i, grad in enumerate(grad_inputs):
                if grad is not None and grad.dtype.is_floating_point and bool(grad.isnan().any()):
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
        return grad_inputs
    except Exception:
        stack = node.metadata.get("traceback_") if "_metadata" in vars(node) else None
        if stack:
            where = f"Traceback of forward call that caused the error:\n{''.join(stack)}"
        else:  # recorded before anomaly detection was turned on
            where = (
                "No forward pass information available. Enable detect anomaly during forward pass for more information."
            )
        _warn.warn(f"Error detected in {node.name()}. {where}")
        raise
