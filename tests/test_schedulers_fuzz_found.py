"""Differences from PyTorch found by differential fuzzing of ``optim.lr_scheduler``,
``optim.swa_utils``, ``nn.utils`` (gradient clipping, weight and spectral norms, rnn) and
``nn.init``; each test runs the same program in both libraries and compares what they give."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def arr(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def recorded_warnings(fn) -> list[tuple[str, str, str]]:
    """The warnings ``fn()`` gives: (category, message, file name)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message), w.filename) for w in caught]


# ---------------------------------------------------------------------- nn.init


def test_calculate_gain_of_the_linear_functions_is_the_int_1():
    for nonlinearity in ("linear", "conv1d", "conv_transpose3d", "sigmoid"):
        gains = [lib.nn.init.calculate_gain(nonlinearity) for lib in LIBS]
        assert repr(gains[0]) == repr(gains[1])


def test_calculate_correct_fan_has_pytorchs_name_results_and_errors():
    for shape in [(4, 3), (5, 2, 3, 3), (2, 3, 0)]:
        for mode in ("fan_in", "Fan_Out"):
            fans = [lib.nn.init._calculate_correct_fan(lib.empty(shape), mode) for lib in LIBS]
            assert fans[0] == fans[1]
    for shape, mode in [((3,), "fan_in"), ((4, 3), "fan_avg")]:
        errors = []
        for lib in LIBS:
            with pytest.raises(ValueError) as info:
                lib.nn.init._calculate_correct_fan(lib.empty(shape), mode)
            errors.append(str(info.value))
        assert errors[0] == errors[1]


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("xavier_uniform_", dict(gain=2.5)),
        ("kaiming_uniform_", dict()),
    ],
)
def test_uniform_inits_compute_the_bound_in_pytorchs_order(name, kwargs):
    """The bound is sqrt(3) * std, as PyTorch rounds it: float64 weights are PyTorch's to the bit."""
    weights = []
    for lib in LIBS:
        gen = lib.Generator().manual_seed(3)
        w = getattr(lib.nn.init, name)(lib.empty(17, 5, dtype=lib.float64), generator=gen, **kwargs)
        weights.append(arr(w))
    np.testing.assert_array_equal(weights[0], weights[1])


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(),  # most of the normal is inside [a, b]: normal draws, redrawing the ones outside
        dict(a=-0.5, b=0.5),
        dict(mean=0.1, std=0.02, a=-0.04, b=0.04),  # far in the tail: uniform draws, rejection sampling
        dict(a=1.0, b=3.0),
        dict(mean=-3.0, std=0.5, a=0.0, b=1.0),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trunc_normal_draws_pytorchs_numbers(kwargs, dtype):
    for seed in range(3):
        for shape in [(7,), (33, 3)]:
            values = []
            for lib in LIBS:
                gen = lib.Generator().manual_seed(seed)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # (mean far from [a, b])
                    w = lib.nn.init.trunc_normal_(lib.empty(shape, dtype=getattr(lib, dtype)), generator=gen, **kwargs)
                values.append(arr(w))
            np.testing.assert_array_equal(values[0], values[1])
            assert values[0].min() >= kwargs.get("a", -2.0) and values[0].max() <= kwargs.get("b", 2.0)


def test_trunc_normal_with_the_global_generator_and_a_leaf_requiring_grad():
    results = []
    for lib in LIBS:
        lib.manual_seed(0)
        w = lib.empty(4, 3, requires_grad=True)
        out = lib.nn.init.trunc_normal_(w, std=0.5)
        results.append((arr(w), out is w, w.grad_fn is None, w.requires_grad))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    assert results[0][1:] == results[1][1:] == (True, True, True)


# ---------------------------------------------------------------------- nn.utils


def test_clip_grad_norm_warns_on_an_empty_generator():
    results = []
    for lib in LIBS:
        caught = recorded_warnings(lambda lib=lib: lib.nn.utils.clip_grad_norm_((p for p in []), 1.0))
        results.append(caught)
    assert results[0] == results[1]
    assert results[0][0][0] == "UserWarning" and results[0][0][2] == __file__
    # an empty list is not a generator: no warning
    assert [recorded_warnings(lambda lib=lib: lib.nn.utils.clip_grad_norm_([], 1.0)) for lib in LIBS] == [[], []]


def test_clip_grad_norm_without_underscore_is_the_deprecated_alias():
    results = []
    for lib in LIBS:
        w = lib.nn.Parameter(lib.ones(2))
        w.grad = lib.tensor([3.0, 4.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            total = lib.nn.utils.clip_grad_norm(w, 1.0)
        results.append(([(c.category.__name__, str(c.message)) for c in caught], total.item(), arr(w.grad).tolist()))
    assert results[0] == results[1]
    assert "clip_grad_norm" in dir(minigrad.nn.utils) and "clip_grad_norm" in minigrad.nn.utils.__all__


@pytest.mark.filterwarnings("ignore:.*weight_norm. is deprecated:FutureWarning")
@pytest.mark.parametrize("how", ["parametrizations", "hook"])
def test_weight_norm_of_a_1d_parameter_has_pytorchs_gradients(how):
    """weight_norm of a bias (dim=0: each element is its own slice): the gradient of g was summed
    over all elements (an empty list of dims reduced them all) instead of one per element."""
    results = []
    for lib in LIBS:
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 4)
        if how == "hook":
            lib.nn.utils.weight_norm(layer, name="bias")
        else:
            lib.nn.utils.parametrizations.weight_norm(layer, name="bias")
        (layer(lib.ones(2, 3)) * lib.tensor([1.0, -2.0, 3.0, 0.5])).sum().backward()
        grads = {name: arr(p.grad) for name, p in layer.named_parameters()}
        results.append(grads)
    assert results[0].keys() == results[1].keys()
    for name in results[0]:
        assert results[0][name].shape == results[1][name].shape, name
        np.testing.assert_allclose(results[0][name], results[1][name], rtol=1e-6, atol=1e-6, err_msg=name)


def test_weight_norm_interface_of_a_1d_tensor_gradients():
    results = []
    for lib in LIBS:
        v = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
        g = lib.tensor([2.0, 0.5, -1.0], dtype=lib.float64, requires_grad=True)
        w = lib._weight_norm(v, g, 0)
        w.backward(lib.tensor([1.0, 2.0, -3.0], dtype=lib.float64))
        results.append((arr(w), arr(v.grad), arr(g.grad)))
    for mine, theirs in zip(results[0], results[1]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-12)


def test_orthogonal_of_float16_raises_not_implemented_after_drawing():
    results = []
    for lib in LIBS:
        lib.manual_seed(0)
        with pytest.raises(NotImplementedError) as info:
            lib.nn.init.orthogonal_(lib.empty(3, 3, dtype=lib.float16))
        results.append((str(info.value), lib.rand(2).tolist()))  # the draw happened, as in PyTorch
    assert results[0] == results[1]
