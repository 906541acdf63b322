"""Grad mode: whether operations are recorded for backward.

Each class works as a context manager and as a decorator, and restores the previous mode
even when the body raises, as in PyTorch.
"""

from __future__ import annotations

import functools
import inspect
import threading

from .. import _warn


class _State(threading.local):
    enabled = True  # recording: every thread starts recording, as in PyTorch
    grad = True  # PyTorch's grad mode (torch.is_grad_enabled()): recording, unless in inference mode
    inference = False  # inside inference_mode: new tensors are inference tensors


_state = _State()


def is_grad_enabled() -> bool:
    """True when new operations are recorded in the graph (``torch.is_grad_enabled()`` also
    reports an ``enable_grad`` inside ``inference_mode``, where nothing is recorded)."""
    return _state.enabled


def _set(mode: bool) -> None:
    _state.grad = bool(mode)
    _state.enabled = _state.grad and not _state.inference  # inference mode records nothing, as in PyTorch


class _GradMode:
    """Shared machinery: subclasses set ``mode``; entering switches to it, leaving restores."""

    mode = True

    def __enter__(self) -> None:
        self.prev = _state.grad
        _set(self.mode)

    def __exit__(self, *exc) -> None:
        _set(self.prev)

    def __call__(self, func):
        context = self.clone  # a fresh instance per call, so recursion and threads are safe
        if inspect.isclass(func):
            _warn.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You should only "
                "decorate functions or methods. To preserve the current behavior of class decoration, you can "
                "directly decorate the `__init__` method and nothing else.",
                FutureWarning,
            )
            cls = func
            func = lambda *args, **kwargs: cls(*args, **kwargs)  # PyTorch decorates a call of the class
        if inspect.isgeneratorfunction(func):
            return _generator_wrapper(func, context)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with context():
                return func(*args, **kwargs)

        return wrapper

    def clone(self):
        """A new context manager of this mode (one for each call of a decorated function)."""
        return type(self)()


class no_grad(_GradMode):  # noqa: N801 - PyTorch's name
    """Stop recording: results are leaves without ``grad_fn``.

    >>> import minigrad as torch
    >>> w = torch.tensor(1.0, requires_grad=True)
    >>> with torch.no_grad():
    ...     y = w * 2
    >>> y.requires_grad, y.grad_fn
    (False, None)
    """

    mode = False

    def __new__(cls, orig_func=None):
        self = super().__new__(cls)
        # ``@no_grad`` without parentheses passes the function straight here.
        return self(orig_func) if callable(orig_func) else self

    def __init__(self, orig_func=None):
        pass


class enable_grad(no_grad):  # noqa: N801
    """Record operations again, e.g. inside a ``no_grad`` block."""

    mode = True


class set_grad_enabled(_GradMode):  # noqa: N801
    """Switch recording on or off: ``set_grad_enabled(False)`` as a call, a context manager or a
    decorator. As a call it takes effect at once (like PyTorch)."""

    def __init__(self, mode: bool):
        if not isinstance(mode, bool):  # PyTorch's argument parser: not even 0 or None
            raise TypeError(
                f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self.prev = _state.grad
        self.mode = mode
        _set(self.mode)

    def __enter__(self) -> None:
        _set(self.mode)  # again: the mode may have changed since __init__ switched it

    def __call__(self, func):
        _set(self.prev)  # used as a decorator: undo the switch made by __init__
        return super().__call__(func)

    def clone(self):
        return set_grad_enabled(self.mode)


class inference_mode(_GradMode):  # noqa: N801
    """``no_grad``, and more: tensors made inside are *inference tensors*, which autograd can
    never use later (saving one for backward or changing one in place outside the mode raises).
    ``inference_mode(False)`` records again. A context manager and a decorator, as in PyTorch.

    >>> import minigrad as torch
    >>> w = torch.tensor(1.0, requires_grad=True)
    >>> with torch.inference_mode():
    ...     y = w * 2
    >>> y.requires_grad, y.is_inference()
    (False, True)
    """

    def __new__(cls, mode=True):
        self = super().__new__(cls)
        # ``@inference_mode`` without parentheses passes the function straight here (PyTorch takes
        # anything but a bool for a function to decorate).
        return self if isinstance(mode, bool) else self(mode)

    def __init__(self, mode: bool = True):
        self.mode = mode if isinstance(mode, bool) else True

    def __enter__(self) -> None:
        self.prev = (_state.enabled, _state.grad, _state.inference)
        _state.enabled, _state.grad, _state.inference = not self.mode, not self.mode, self.mode

    def __exit__(self, *exc) -> None:
        _state.enabled, _state.grad, _state.inference = self.prev

    def clone(self):
        return inference_mode(self.mode)


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return _state.inference


def _generator_wrapper(func, context):
    """Decorate a generator function: its body runs lazily, step by step, so each step (not the
    call that merely creates the generator) must run under the grad mode, as in PyTorch."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with context():
                response = next(gen)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with context():
                        gen.close()
                    raise
                except BaseException as exc:  # thrown in by the caller: pass it on
                    with context():
                        response = gen.throw(exc)
                else:
                    with context():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper
