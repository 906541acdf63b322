"""PyTorch's TypeError for an argument of the wrong type, for ``torch.*`` functions and methods.

PyTorch's argument parser refuses a list where a tensor belongs, before anything runs::

    matmul(): argument 'other' (position 2) must be Tensor, not list

minigrad's functions would instead fail somewhere inside, with an AttributeError about an
attribute of minigrad's internals. :func:`checked` wraps a function so that, when a call fails,
its arguments are compared with the function's type hints, and a wrong one is reported as
PyTorch reports it. The check runs only after a failure, so a correct call pays for one
function call and nothing else.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import re
from collections.abc import Callable

from . import backend, dtypes
from .tensor import Size, Tensor


def _is_integer(value) -> bool:
    if isinstance(value, Tensor):  # a one-element integer tensor stands for its number, as in PyTorch
        return value.numel() == 1 and not value.dtype.is_floating_point
    return isinstance(value, numbers.Integral | backend.numpy.integer)


def _is_number(value) -> bool:
    if isinstance(value, Tensor):
        return value.numel() == 1
    return isinstance(value, numbers.Number | backend.numpy.number | backend.numpy.bool_)


def _is_sequence_of(check: Callable) -> Callable:
    return lambda value: isinstance(value, list | tuple) and all(check(v) for v in value)


# The kinds a type hint names: (PyTorch's word for it, the check). A hint naming anything else
# is not checked.
_KINDS = {
    "Tensor": ("Tensor", lambda v: isinstance(v, Tensor)),
    "int": ("int", _is_integer),
    "bool": ("bool", lambda v: type(v) is bool),
    "float": ("float", _is_number),
    "Number": ("Number", _is_number),
    "str": ("str", lambda v: isinstance(v, str)),
    "dtype": ("torch.dtype", lambda v: isinstance(v, dtypes.dtype)),
    "None": (None, lambda v: v is None),
    "Size": ("tuple of ints", lambda v: isinstance(v, Size) or _is_sequence_of(_is_integer)(v)),
    "Sequence[Tensor]": ("tuple of Tensors", _is_sequence_of(lambda v: isinstance(v, Tensor))),
    "Sequence[int]": ("tuple of ints", lambda v: _is_integer(v) or _is_sequence_of(_is_integer)(v)),
}
_ALIASES = {
    "dtypes.dtype": "dtype",
    "list[Tensor]": "Sequence[Tensor]",
    "tuple[Tensor, ...]": "Sequence[Tensor]",
    "list[int]": "Sequence[int]",
    "tuple[int, ...]": "Sequence[int]",
    "builtins.int": "int",
    "builtins.bool": "bool",
    "builtins.float": "float",
}


def _kinds(annotation) -> list | None:
    """The kinds a type hint allows, or None when it names one this module does not know."""
    if not isinstance(annotation, str):
        return None
    kinds = []
    for alternative in re.split(r"\s*\|\s*", annotation.strip()):
        kind = _KINDS.get(_ALIASES.get(alternative, alternative))
        if kind is None:
            return None
        kinds.append(kind)
    return kinds


def wrong_argument(function: Callable, args: tuple, kwargs: dict, method: bool = False) -> TypeError | None:
    """PyTorch's TypeError for the first argument of this call whose type its hint does not
    allow, or None. ``method``: called as a method, so positions do not count ``self``."""
    signature = inspect.signature(function)
    try:
        bound = signature.bind_partial(*args, **kwargs)
    except TypeError:
        return None  # too many or unknown arguments: Python's own error says so
    for index, parameter in enumerate(signature.parameters.values()):
        if parameter.name not in bound.arguments or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        kinds = _kinds(parameter.annotation)
        value = bound.arguments[parameter.name]
        if kinds is None or any(check(value) for _, check in kinds):
            continue
        expected = next(word for word, _ in kinds if word is not None)
        position = index if method else index + 1  # (a method's positions do not count self)
        # PyTorch gives the position of an argument passed by position only
        where = f" (position {position})" if index < len(args) and position >= 1 else ""
        return TypeError(
            f"{function.__name__}(): argument '{parameter.name}'{where} must be {expected}, not {backend.type_name(value)}"
        )
    return None


def checked(function: Callable, method: bool = False) -> Callable:
    """``function``, reporting a wrong argument as PyTorch does when a call of it fails.

    >>> import minigrad as torch
    >>> torch.matmul(torch.ones(2, 2), [1.0, 2.0])
    Traceback (most recent call last):
    TypeError: matmul(): argument 'other' (position 2) must be Tensor, not list
    """
    parameters = list(inspect.signature(function).parameters.values())
    if method and len(parameters) == 1:
        return function  # x.t(): self alone is always a tensor, and the backward rules call such methods often
    # PyTorch's parser takes only True or False for a bool (not 1, not a NumPy bool), and a call
    # that gives another would succeed here: these are checked before the call.
    flags, positional = [], True  # (position, or None where only a name can give it; name; None allowed)
    for i, p in enumerate(parameters):
        positional = positional and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        if p.annotation in ("bool", "bool | None"):
            flags.append((i if positional else None, p.name, p.annotation == "bool | None"))

    @functools.wraps(function)
    def call(*args, **kwargs):
        for index, name, or_none in flags:
            given = index is not None and index < len(args)  # (by position)
            value = args[index] if given else kwargs.get(name, False)
            if type(value) is not bool and not (or_none and value is None):
                where = f" (position {index if method else index + 1})" if given else ""
                raise TypeError(
                    f"{function.__name__}(): argument '{name}'{where} must be bool, not {backend.type_name(value)}"
                )
        try:
            return function(*args, **kwargs)
        except Exception as error:
            if isinstance(error, TypeError) and re.match(
                r"\w+\(\)(:| received)|expected Tensor as element", str(error)
            ):
                raise  # already a parser's error ("lerp() received ..."), from the function's own check
            if isinstance(error, TypeError) and str(error).startswith("argument '"):  # one without the name
                raise TypeError(f"{function.__name__}(): {error}") from None
            problem = wrong_argument(function, args, kwargs, method)
            if problem is None:
                raise
            raise problem from None

    return call


def one_size(function: Callable, parameter: str) -> Callable:
    """``torch.reshape`` and the like: the function takes the size as one sequence
    (``torch.reshape(x, (2, 3))``), where the method also takes its numbers one by one
    (``x.reshape(2, 3)``).

    >>> import minigrad as torch
    >>> torch.reshape(torch.ones(6), 2, 3)
    Traceback (most recent call last):
    TypeError: reshape() takes 2 positional arguments but 3 were given
    """
    name = function.__name__

    @functools.wraps(function)
    def call(input, *args, **kwargs):
        if not args and parameter not in kwargs:
            raise TypeError(f'{name}() missing 1 required positional arguments: "{parameter}"')
        if len(args) > 1:
            raise TypeError(f"{name}() takes 2 positional arguments but {len(args) + 1} were given")
        by_keyword = parameter in kwargs and not args
        if by_keyword:
            args = (kwargs.pop(parameter),)
        if args and not (isinstance(args[0], Size) or _is_sequence_of(_is_integer)(args[0])):
            where = "" if by_keyword else " (position 2)"
            raise TypeError(
                f"{name}(): argument '{parameter}'{where} must be tuple of ints, not {backend.type_name(args[0])}"
            )
        return function(input, *args, **kwargs)

    return call


def dims_one_by_one(method: Callable) -> Callable:
    """The methods whose one argument is a list of dims take the dims one by one too, as
    PyTorch's (``x.squeeze(0, 2)`` is ``x.squeeze((0, 2))``; ``torch.squeeze(x, 0, 2)`` is refused).

    >>> import minigrad as torch
    >>> torch.zeros(1, 3, 1).squeeze(0, 2).shape
    torch.Size([3])
    """

    @functools.wraps(method)
    def call(self, *dims, **kwargs):
        return method(self, dims, **kwargs) if len(dims) > 1 else method(self, *dims, **kwargs)

    return call
