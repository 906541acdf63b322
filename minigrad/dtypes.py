"""Data types, named and promoted as PyTorch names and promotes them."""

from __future__ import annotations


class dtype:  # noqa: N801 - PyTorch's name
    """A tensor element type such as ``minigrad.float32``.

    It prints as ``torch.float32`` so that printed tensors read exactly like PyTorch's.
    """

    __slots__ = ("name", "array_name", "_legacy_name", "is_floating_point", "is_signed", "itemsize", "_rank")

    def __init__(
        self, name: str, array_name: str, legacy_name: str, floating: bool, signed: bool, itemsize: int, rank: int
    ):
        self.name = name
        self.array_name = array_name  # the NumPy/CuPy name, used only by the backend
        self._legacy_name = legacy_name  # PyTorch's older name, in messages: "Float", "FloatTensor"
        self.is_floating_point = floating
        self.is_signed = signed
        self.itemsize = itemsize
        self._rank = rank

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    is_complex = False  # (minigrad has no complex dtypes)

    def to_real(self) -> dtype:
        """The real dtype of this one: itself (only complex dtypes have another)."""
        return self

    def __reduce__(self):
        return self.name


bool = dtype("bool", "bool", "Bool", False, False, 1, 0)  # noqa: A001 - PyTorch's name
uint8 = dtype("uint8", "uint8", "Byte", False, False, 1, 1)
int8 = dtype("int8", "int8", "Char", False, True, 1, 2)
int16 = dtype("int16", "int16", "Short", False, True, 2, 3)
int32 = dtype("int32", "int32", "Int", False, True, 4, 4)
int64 = dtype("int64", "int64", "Long", False, True, 8, 5)
float16 = dtype("float16", "float16", "Half", True, True, 2, 6)
float32 = dtype("float32", "float32", "Float", True, True, 4, 7)
float64 = dtype("float64", "float64", "Double", True, True, 8, 8)

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_ARRAY_NAME = {d.array_name: d for d in ALL}

_default_float = float32


def get_default_dtype() -> dtype:
    """The dtype of tensors made from Python floats (``float32`` unless changed)."""
    return _default_float


def set_default_dtype(d: dtype) -> None:
    """Set the dtype used for Python floats; only ``float32`` and ``float64`` are allowed."""
    global _default_float
    if d not in (float32, float64):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default_float = d


_by_array_dtype: dict = {}  # array dtype object -> dtype, filled on first sight (str() is slow)


def from_array_dtype(array_dtype) -> dtype:
    """The minigrad dtype of a NumPy/CuPy dtype."""
    found = _by_array_dtype.get(array_dtype)
    if found is not None:
        return found
    try:
        found = _by_array_dtype[array_dtype] = _BY_ARRAY_NAME[str(array_dtype)]
        return found
    except KeyError:
        raise TypeError(
            f"can't convert an array of type {array_dtype}: minigrad supports " + ", ".join(d.name for d in ALL)
        ) from None


def _category(d: dtype) -> int:
    return 2 if d.is_floating_point else (0 if d is bool else 1)


def _promote_pair(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if _category(a) != _category(b):
        return a if _category(a) > _category(b) else b
    if {a, b} == {uint8, int8}:
        return int16
    return a if a._rank > b._rank else b


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to (``torch.promote_types``)."""
    return _promote_pair(a, b)


def scalar_dtype(value) -> dtype:
    """The dtype PyTorch gives a Python scalar on its own."""
    import builtins

    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return _default_float
    # NumPy's scalars count as Python's numbers of their kind, as in PyTorch: np.int16(3) as an
    # int, np.float32(2) as a float; PyTorch reads NumPy's bool as a float number too.
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if kind in ("i", "u"):
        return int64
    if kind in ("f", "b"):
        return _default_float
    raise TypeError(f"expected a number, got {type(value).__name__}")


def result_type(dims: list[dtype], zero_dims: list[dtype], scalars: list) -> dtype:
    """PyTorch's promotion: dimensioned tensors win over 0-dim tensors, which win over Python
    scalars, unless the lower-priority operand is of a higher category (bool < int < float)."""
    result = None
    for group in (dims, zero_dims):
        if not group:
            continue
        promoted = group[0]
        for d in group[1:]:
            promoted = _promote_pair(promoted, d)
        if result is None or _category(promoted) > _category(result):
            result = promoted
    for value in scalars:
        d = scalar_dtype(value)
        if result is None:
            result = d
        elif _category(d) > _category(result):
            result = _default_float if d.is_floating_point else d
    return result


# ------------------------------------------------------------------ finfo / iinfo
# (mantissa bits, largest exponent) of each floating type: every limit follows from these two.
_FLOAT_LAYOUT = {"float16": (10, 15), "float32": (23, 127), "float64": (52, 1023)}


class finfo:  # noqa: N801 - PyTorch's name
    """The limits of a floating dtype (the default dtype when none is given).

    >>> import minigrad as torch
    >>> torch.finfo(torch.float16).max, torch.finfo(torch.float32).eps
    (65504.0, 1.1920928955078125e-07)
    """

    def __init__(self, type: dtype | None = None):  # noqa: A002 - PyTorch's parameter name
        type = _default_float if type is None else type
        if not isinstance(type, dtype) or not type.is_floating_point:
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'"
            )
        mantissa, top = _FLOAT_LAYOUT[type.name]
        self.bits = type.itemsize * 8
        self.eps = 2.0**-mantissa
        self.max = (2.0 - self.eps) * 2.0**top
        self.min = -self.max
        self.tiny = self.smallest_normal = 2.0 ** (1 - top)
        self.resolution = 10.0 ** -int(mantissa * 0.30102999566398120)  # 10**-(decimal digits), as NumPy
        self.dtype = type.name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})"
        )


class iinfo:  # noqa: N801 - PyTorch's name
    """The limits of an integer dtype.

    >>> import minigrad as torch
    >>> torch.iinfo(torch.int8).min, torch.iinfo(torch.uint8).max
    (-128, 255)
    """

    def __init__(self, type: dtype):  # noqa: A002 - PyTorch's parameter name
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not isinstance(type, dtype) or type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits = type.itemsize * 8
        self.min = -(2 ** (self.bits - 1)) if type.is_signed else 0
        self.max = 2 ** (self.bits - 1) - 1 if type.is_signed else 2**self.bits - 1
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
