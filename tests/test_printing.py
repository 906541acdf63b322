"""``repr``/``str`` of tensors, character for character as PyTorch prints them.

The same values are built in both libraries (from Python lists or NumPy arrays) and the printed
strings compared: formats (integer-looking, fixed, scientific), widths, wrapping at 80 columns,
summarizing past 1000 elements, and the dtype/size/requires_grad/grad_fn suffixes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad  # noqa: E402

_rng = np.random.default_rng(1234)


@pytest.fixture(autouse=True)
def _on_each_device(on_device):
    """Every test prints on each device (the factories create tensors there, in both libraries);
    a GPU tensor can only be compared with PyTorch's when PyTorch has CUDA."""
    if on_device != "cpu" and not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here, so it cannot print a GPU tensor to compare with")


# (id, data, dtype name or None); data is a Python object or a NumPy array, given to both libraries.
VALUES = [
    ("scalar_half", 0.5, None),
    ("scalar_int_like", 3.0, None),
    ("scalar_negative", -2.0, None),
    ("scalar_small", 1e-5, None),
    ("scalar_large", 123456.0, None),
    ("scalar_huge", 1e10, None),
    ("scalar_zero", 0.0, None),
    ("scalar_negative_zero", -0.0, None),
    ("scalar_nan", math.nan, None),
    ("scalar_inf", math.inf, None),
    ("scalar_neg_inf", -math.inf, None),
    ("scalar_int", 7, None),
    ("scalar_negative_int", -12, None),
    ("scalar_bool", True, None),
    ("scalar_float64", 0.1, "float64"),
    ("scalar_float16", 1.5, "float16"),
    ("scalar_int32", 5, "int32"),
    ("vector_ints_as_floats", [1.0, 2.0, 3.0], None),
    ("vector_fractions", [0.1, 0.25, 3.14159], None),
    ("vector_negative", [-1.5, 2.0, -0.25], None),
    ("vector_int", [1, 2, 3], None),
    ("vector_negative_int", [-100, 2, 30], None),
    ("vector_bool", [True, False, True], None),
    ("vector_small_and_one", [1e-5, 1.0], None),
    ("vector_tiny", [1e-10, 2e-10], None),
    ("vector_wide_range", [1e5, 1e-5], None),
    ("vector_ratio_over_1000", [0.001, 2.0], None),
    ("vector_ratio_under_1000", [0.01, 2.0], None),
    ("vector_int_like_wide_range", [100000.0, 1.0], None),
    ("vector_int_like_1e8", [1e8, 1.0], None),
    ("vector_int_like_1e9", [1e9, 1.0], None),
    ("vector_big_fraction", [123456.789, 1.5], None),
    ("vector_1e20", [1e20, -1.0], None),
    ("vector_nan_inf", [1.0, math.nan, math.inf, -math.inf], None),
    ("vector_nan_and_fraction", [0.5, math.nan], None),
    ("vector_only_nan", [math.nan, math.nan], None),
    ("vector_only_inf", [math.inf, -math.inf], None),
    ("vector_zeros", [0.0, 0.0, 0.0], None),
    ("vector_negative_zero", [-0.0, 1.0], None),
    ("vector_float64", [0.1, 0.2], "float64"),
    ("vector_float16", [0.1, 2.5, -3.0], "float16"),
    ("vector_int32", [1, -2, 3], "int32"),
    ("vector_int8", [1, -2, 3], "int8"),
    ("vector_uint8", [1, 200, 3], "uint8"),
    ("vector_int16", [1000, -2, 3], "int16"),
    ("vector_one", [4.25], None),
    ("matrix", [[1.0, 2.5, -3.0], [4.0, 5.0, 6.125]], None),
    ("matrix_int", [[1, -20, 3], [400, 5, 6]], None),
    ("matrix_bool", [[True, False], [False, True]], None),
    ("matrix_float64", [[1.0, 2.0], [3.0, 4.5]], "float64"),
    ("matrix_sci", [[1e-6, 2.0], [3.0, 4e6]], None),
    ("matrix_one_row", [[1.0, 2.0, 3.0]], None),
    ("matrix_one_column", [[1.0], [2.0], [3.0]], None),
    ("cube", np.arange(24, dtype="float32").reshape(2, 3, 4) / 7, None),
    ("cube_int", np.arange(24).reshape(2, 3, 4) - 12, None),
    ("four_d", np.arange(16, dtype="float32").reshape(2, 2, 2, 2), None),
    ("random_normal", _rng.standard_normal((4, 5)).astype("float32"), None),
    ("random_normal_float64", _rng.standard_normal((3, 4)), None),
    ("random_large_scale", (_rng.standard_normal((3, 3)) * 1e6).astype("float32"), None),
    ("random_small_scale", (_rng.standard_normal((3, 3)) * 1e-6).astype("float32"), None),
    ("long_row", np.linspace(-1, 1, 30).astype("float32"), None),
    ("long_row_float64", np.linspace(0, 100, 25), None),
    ("long_row_int", np.arange(40) * 12345, None),
    ("long_rows_matrix", _rng.standard_normal((3, 20)).astype("float32"), None),
    ("long_rows_sci", (_rng.standard_normal((2, 12)) * 1e-7).astype("float32"), None),
    ("long_bool_row", _rng.random(40) < 0.5, None),
    ("summarized_vector", np.arange(2000, dtype="float32"), None),
    ("summarized_vector_int", np.arange(1001), None),
    ("not_summarized_1000", np.arange(1000, dtype="float32") / 3, None),
    ("summarized_matrix", _rng.standard_normal((40, 40)).astype("float32"), None),
    ("summarized_cube", np.arange(10 * 11 * 12, dtype="float32").reshape(10, 11, 12), None),
    ("summarized_wide", _rng.standard_normal((2, 600)).astype("float32"), None),
    ("summarized_tall", _rng.standard_normal((600, 2)).astype("float32"), None),
    ("summarized_float64", _rng.standard_normal(1500), None),
    (
        "summarized_edges_decide_format",
        np.concatenate([[0.5] * 3, np.full(1000, 1e-9), [0.25] * 3]).astype("float32"),
        None,
    ),
    ("empty_list", [], None),
    ("empty_float64", np.zeros(0), None),
    ("empty_matrix", np.zeros((0, 3), dtype="float32"), None),
    ("empty_3d_int", np.zeros((2, 0, 3), dtype="int64"), None),
    ("empty_int32", np.zeros((0,), dtype="int32"), None),
]


def _pair(data, dtype):
    m_dtype = None if dtype is None else getattr(minigrad, dtype)
    t_dtype = None if dtype is None else getattr(torch, dtype)
    return minigrad.tensor(data, dtype=m_dtype), torch.tensor(data, dtype=t_dtype)


@pytest.mark.parametrize(("data", "dtype"), [(d, t) for _, d, t in VALUES], ids=[i for i, _, _ in VALUES])
def test_repr_and_str_match_torch(data, dtype):
    m, t = _pair(data, dtype)
    assert repr(m) == repr(t)
    assert str(m) == str(t)


@pytest.mark.parametrize(
    ("data", "dtype"),
    [(d, t) for _, d, t in VALUES if t in (None, "float64")],
    ids=[i for i, _, t in VALUES if t in (None, "float64")],
)
def test_repr_in_a_list_and_in_format_match_torch(data, dtype):
    m, t = _pair(data, dtype)
    assert repr([m]) == repr([t])
    assert f"{m}" == f"{t}"


# ----------------------------------------------------------------------------------------------
# Autograd suffixes
# ----------------------------------------------------------------------------------------------

_GRAPH = [
    ("leaf_requires_grad", lambda lib, x: x, [1.0, 2.0]),
    ("scalar_leaf", lambda lib, x: x, 0.5),
    ("mul_scalar", lambda lib, x: x * 0.5, 1.0),
    ("sum", lambda lib, x: x.sum(), [0.25, 0.25]),
    ("mean", lambda lib, x: x.mean(), [1.0, 2.0]),
    ("vector_add", lambda lib, x: x + 1, [1.0, 2.5]),
    ("float64_mul", lambda lib, x: x.double() * 2, [1.0, 2.5]),
    ("float64_leaf", lambda lib, x: x.double().detach().requires_grad_(), [1.0, 2.5]),
    ("long_row_wraps_suffix", lambda lib, x: x * 3, np.linspace(-1, 1, 12).tolist()),
    ("numpy_scalars_give_float64", lambda lib, x: x * 3, list(np.linspace(-1, 1, 12))),
    ("suffix_just_fits", lambda lib, x: x + 0, [0.5] * 5),
    ("suffix_just_wraps", lambda lib, x: x + 0, [0.5] * 6),
    ("two_lines_suffix", lambda lib, x: x * 1, [0.5] * 12),
    ("exactly_full_row", lambda lib, x: x.exp(), [0.1 * i for i in range(10)]),
    ("float64_long_both_suffixes", lambda lib, x: x.double() + 1, [0.5 * i for i in range(9)]),
    ("matrix_grad_fn", lambda lib, x: x.reshape(2, 3), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    ("index", lambda lib, x: x[1:], [1.0, 2.0, 3.0]),
    ("copy_slices", lambda lib, x: _set_first(x * 1), [1.0, 2.0, 3.0]),
    ("to_float16", lambda lib, x: x.half(), [1.0, 2.0]),
    ("view", lambda lib, x: x.view(-1), [[1.0, 2.0]]),
    ("empty_requires_grad", lambda lib, x: x, []),
    ("empty_matrix_grad_fn", lambda lib, x: x.reshape(0, 2), []),
    ("summarized_grad_fn", lambda lib, x: x * 2, np.arange(1200, dtype=float).tolist()),
    ("detached", lambda lib, x: (x * 2).detach(), [1.0, 2.0]),
    ("no_grad", lambda lib, x: _no_grad_mul(lib, x), [1.0, 2.0]),
]


def _set_first(z):
    z[0] = 5.0
    return z


def _no_grad_mul(lib, x):
    with lib.no_grad():
        return x * 2


@pytest.mark.parametrize(("fn", "data"), [(f, d) for _, f, d in _GRAPH], ids=[i for i, _, _ in _GRAPH])
def test_autograd_suffixes_match_torch(fn, data):
    m = fn(minigrad, minigrad.tensor(data, requires_grad=True))
    t = fn(torch, torch.tensor(data, requires_grad=True))
    assert repr(m) == repr(t)
    assert str(m) == str(t)


def test_grad_fn_suffix_example_from_the_brief():
    x = minigrad.tensor(1.0, requires_grad=True)
    assert repr(x * 0.5) == "tensor(0.5000, grad_fn=<MulBackward0>)"
    assert repr(x * 0.5) == repr(torch.tensor(1.0, requires_grad=True) * 0.5)


def test_printing_under_float64_default_matches_torch():
    old_m, old_t = minigrad.get_default_dtype(), torch.get_default_dtype()
    minigrad.set_default_dtype(minigrad.float64)
    torch.set_default_dtype(torch.float64)
    try:
        for data in ([1.0, 2.5], [1.0, 2.0], 0.5):
            assert repr(minigrad.tensor(data)) == repr(torch.tensor(data))
            assert repr(minigrad.tensor(data, dtype=minigrad.float32)) == repr(torch.tensor(data, dtype=torch.float32))
    finally:
        minigrad.set_default_dtype(old_m)
        torch.set_default_dtype(old_t)


def test_size_and_dtype_reprs_match_torch():
    m, t = _pair(np.zeros((2, 3, 4)), None)
    assert repr(m.shape) == repr(t.shape)
    assert repr(m.size(1)) == repr(t.size(1))
    for name in ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"):
        assert repr(getattr(minigrad, name)) == repr(getattr(torch, name))
        assert str(getattr(minigrad, name)) == str(getattr(torch, name))


def _random_array(seed: int) -> np.ndarray:
    """Arrays of many magnitudes, shapes and dtypes, sometimes with nan/inf or integer values."""
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(1, 6, size=rng.integers(0, 4)))
    scale = 10.0 ** rng.integers(-9, 10)
    kind = seed % 5
    if kind == 0:
        return rng.integers(-(10 ** rng.integers(1, 12)), 10 ** rng.integers(1, 12), size=shape)
    a = rng.standard_normal(shape) * scale
    if kind == 1:
        a = np.round(a)
    if kind == 2 and a.size > 1:
        a.reshape(-1)[rng.integers(0, a.size)] = rng.choice([np.nan, np.inf, -np.inf])
    return a.astype("float64" if kind == 3 else "float32")


@pytest.mark.parametrize("seed", range(60))
def test_random_arrays_print_like_torch(seed):
    a = _random_array(seed)
    m, t = minigrad.tensor(a), torch.tensor(a)
    assert repr(m) == repr(t)


# ----------------------------------------------------------------------------------------------
# set_printoptions (torch.set_printoptions): precision, threshold, edgeitems, linewidth, sci_mode,
# profile, and how they reset
# ----------------------------------------------------------------------------------------------

from minigrad import _printing  # noqa: E402

# minigrad.set_printoptions once the package exports it; the module's function until then.
_set_printoptions = minigrad.set_printoptions


@pytest.fixture
def _printoptions():
    """Set options in both libraries for one test, then put PyTorch's defaults back in both."""

    def set_both(**options):
        _set_printoptions(**options)
        torch.set_printoptions(**options)

    yield set_both
    _set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


_OPTION_VALUES = [
    ("matrix", [[1.123456, -2.5, 3.0], [4.0, 1e-3, 6.125]], None),
    ("sci", [1e-6, 2.0, 4e6], None),
    ("int_like", [1.0, -2.0, 300.0], None),
    ("int_like_wide", [1e9, 1.0], None),
    ("nan_inf_zero", [math.nan, math.inf, -0.0, 0.5], None),
    ("only_nan", [math.nan, 0.0], None),
    ("scalar", 3.14159265, None),
    ("scalar_int", 7, None),
    ("ints", np.arange(24).reshape(2, 3, 4) - 5, None),
    ("bools", np.arange(12).reshape(3, 4) % 3 == 0, None),
    ("long_row", np.linspace(-1, 1, 30).astype("float32"), None),
    ("cube", np.arange(60, dtype="float32").reshape(3, 4, 5) / 7, None),
    ("float64", [0.1, 0.2, 1 / 3], "float64"),
    ("float16", [0.1, 2.5, -3.0], "float16"),
    ("int8", np.arange(12, dtype="int8").reshape(3, 4), "int8"),
    ("big", np.arange(2000, dtype="float32") / 3, None),
    ("empty", np.zeros((0, 3), dtype="float32"), None),
]

_OPTIONS = [
    ("precision_2", {"precision": 2}),
    ("precision_0", {"precision": 0}),
    ("precision_8", {"precision": 8}),
    ("threshold_5", {"threshold": 5}),
    ("threshold_0", {"threshold": 0}),
    ("threshold_5_edgeitems_1", {"threshold": 5, "edgeitems": 1}),
    ("threshold_5_edgeitems_0", {"threshold": 5, "edgeitems": 0}),  # "[...]" and a size= suffix
    ("edgeitems_0", {"edgeitems": 0}),  # a size= suffix even when nothing is summarized
    ("edgeitems_5_threshold_10", {"edgeitems": 5, "threshold": 10}),
    ("linewidth_20", {"linewidth": 20}),
    ("linewidth_200", {"linewidth": 200}),
    ("sci_mode_true", {"sci_mode": True}),
    ("sci_mode_false", {"sci_mode": False}),
    ("sci_mode_true_precision_1", {"sci_mode": True, "precision": 1}),
    ("profile_short", {"profile": "short"}),
    ("profile_full", {"profile": "full"}),  # no summarizing at all
    ("profile_short_precision_6", {"profile": "short", "precision": 6}),
    ("unknown_profile", {"profile": "no such profile"}),  # PyTorch ignores it
]


@pytest.mark.parametrize(("options",), [(o,) for _, o in _OPTIONS], ids=[i for i, _ in _OPTIONS])
@pytest.mark.parametrize(
    ("data", "dtype"), [(d, t) for _, d, t in _OPTION_VALUES], ids=[i for i, _, _ in _OPTION_VALUES]
)
def test_printoptions_match_torch(_printoptions, options, data, dtype):
    _printoptions(**options)
    m, t = _pair(data, dtype)
    assert repr(m) == repr(t)
    assert str(m) == str(t)


def test_printoptions_reach_grad_fn_suffixes_parameters_and_grads(_printoptions):
    _printoptions(precision=2, linewidth=30)

    def shown(lib):
        x = lib.tensor([0.123456, 1.5, -2.25, 3.0], requires_grad=True)
        (x * x).sum().backward()
        return [repr(x), repr(x * 1.5), repr(x.grad), repr(lib.nn.Parameter(lib.tensor([1.23456, 2.0])))]

    assert shown(minigrad) == shown(torch)


def test_sci_mode_goes_back_to_automatic_unless_given(_printoptions):
    # Like PyTorch, every call resets sci_mode (None: chosen from the values) unless it is passed.
    _printoptions(sci_mode=True)
    _printoptions(precision=3)
    m, t = _pair([1.5, 2.25], None)
    assert repr(m) == repr(t) == "tensor([1.500, 2.250])"
    _printoptions(sci_mode=False)
    m, t = _pair([1e-6, 1e6], None)
    assert repr(m) == repr(t) == "tensor([      0.000, 1000000.000])"


def test_profile_default_restores_everything(_printoptions):
    _printoptions(precision=1, threshold=3, edgeitems=1, linewidth=10, sci_mode=True)
    _printoptions(profile="default")
    assert _printing.get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }
    m, t = _pair(np.arange(1001), None)
    assert repr(m) == repr(t)
    assert repr(minigrad.tensor(1.123456)) == "tensor(1.1235)"


def test_printoptions_used_by_drawings_too(_printoptions):
    # A drawing shows values as the tensor prints them, so the same options apply.
    from minigrad.viz.style import values_text

    _printoptions(precision=2)
    assert values_text(minigrad.tensor([0.123456, 2.0])) == "[0.12, 2.00]"


# ----------------------------------------------------------------------------------------------
# Random tensors and options, as the outside harness draws them
# ----------------------------------------------------------------------------------------------

_DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]


def _random_case(seed: int):
    """A random array (any dtype, 0-d to 4-d, sometimes empty or large, with nan/inf/-0.0 and
    many magnitudes) and random print options."""
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(0, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(ndim)]
    if ndim and rng.random() < 0.1:
        shape[int(rng.integers(0, ndim))] = 0
    if ndim == 1 and rng.random() < 0.3:
        shape = [int(rng.integers(10, 1500))]
    dtype = _DTYPES[int(rng.integers(0, len(_DTYPES)))]
    if dtype == "bool":
        a = rng.random(shape) < 0.5
    elif dtype[0] in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -(10 ** int(rng.integers(1, 12)))), min(info.max, 10**9), size=shape)
    else:
        a = rng.standard_normal(shape) * 10.0 ** int(rng.integers(-10, 12))
        if rng.random() < 0.3:
            a = np.round(a)
        if a.size and rng.random() < 0.4:
            a.reshape(-1)[rng.integers(0, a.size, size=2)] = rng.choice([np.nan, np.inf, -np.inf, -0.0], size=2)
    with np.errstate(all="ignore"):
        a = a.astype(dtype)
    options = {}
    for name, values in (
        ("precision", [0, 1, 2, 6]),
        ("threshold", [0, 5, 20]),
        ("edgeitems", [0, 1, 2, 4]),
        ("linewidth", [15, 40, 120]),
        ("sci_mode", [True, False]),
        ("profile", ["short", "full"]),
    ):
        if rng.random() < 0.25:
            options[name] = values[int(rng.integers(0, len(values)))]
    return a, dtype, options


@pytest.mark.parametrize("seed", range(150))
def test_random_tensors_and_options_print_like_torch(_printoptions, seed):
    a, dtype, options = _random_case(seed)
    _printoptions(**options)
    m, t = _pair(a, dtype)
    assert repr(m) == repr(t), options
    if dtype.startswith("float"):
        m, t = minigrad.nn.Parameter(m), torch.nn.Parameter(t)
        assert repr(m) == repr(t), options
        assert repr(m * 2) == repr(t * 2), options
