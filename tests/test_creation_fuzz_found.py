"""Differences from PyTorch in making and converting tensors, found by a differential fuzzer.

Each case is a small program run with ``lib = torch`` and ``lib = minigrad``; its result ``r``
(or the exception it raises: type and PyTorch's first words) must be the same.
"""

import importlib
import math
import operator
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad  # noqa: E402


def _plain(value):
    if isinstance(value, torch.Tensor | minigrad.Tensor):
        array = value.detach().numpy()
        return ("tensor", str(value.dtype), tuple(value.shape), value.requires_grad, repr(array.tolist()))
    if isinstance(value, np.ndarray):
        return ("array", str(value.dtype), repr(value.tolist()))
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, torch.dtype | minigrad.dtype):
        return str(value)
    return value


def _run(source: str, lib):
    namespace = {"lib": lib, "np": np, "math": math, "operator": operator}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(source, namespace)
        except Exception as exc:  # noqa: BLE001 - the exception is the result
            return ("raises", type(exc).__name__, str(exc)), caught
    return _plain(namespace["r"]), caught


def _raised(result) -> bool:
    return isinstance(result, tuple) and result[0] == "raises"


def same(source: str) -> None:
    expected, _ = _run(source, torch)
    got, _ = _run(source, minigrad)
    if _raised(expected) and _raised(got):
        assert got[1] == expected[1], (got, expected)
        assert got[2].startswith(expected[2][:30].rstrip()), (got, expected)
    else:
        assert got == expected


CASES = [
    # NumPy scalars as operands count as Python numbers of their kind (NumPy's bool as a float)
    "t = lib.tensor([1, 2], dtype=lib.uint8)\nr = np.float32(2) * t",
    "t = lib.tensor([1, 2], dtype=lib.int8)\nr = np.int16(300) + t",
    "t = lib.tensor([1, 2], dtype=lib.uint8)\nr = t * np.bool_(True)",
    "t = lib.tensor([1.5, 2.5])\nr = t < np.int64(2)",
    "t = lib.tensor([4, 9], dtype=lib.uint8)\nr = t ** np.float64(0.5)",
    "r = lib.full((2,), np.float32(1.5))",
    "r = lib.arange(np.float32(1.5), 3)",
    # nested lists are read as PyTorch reads them
    "r = lib.tensor([lib.tensor([1.0]), lib.tensor([3.0])])",
    "r = lib.tensor([lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])])",
    "r = lib.tensor([lib.tensor(1.5), lib.tensor(2.0)], dtype=lib.int64)",
    "r = lib.tensor([[1, 2], [3]])",
    "r = lib.tensor([[1, 2], 3])",
    "r = lib.tensor([1, [2, 3]])",
    "r = lib.tensor([[1], []])",
    "r = lib.tensor([1, 'a'])",
    "r = lib.tensor('ab', dtype=lib.float32)",
    "r = lib.tensor(['ab'], dtype=lib.float32)",
    "r = lib.tensor(None)",
    "r = lib.tensor({1: 2})",
    "r = lib.tensor({1: 2}, dtype=lib.float32)",
    "r = lib.tensor(object(), dtype=lib.int16)",
    "r = lib.tensor([math.nan], dtype=lib.int32)",
    "r = lib.tensor([300], dtype=lib.int8)",
    "r = lib.tensor([-1, -255], dtype=lib.uint8)",
    "r = lib.tensor([-256], dtype=lib.uint8)",
    "r = lib.tensor([-0.5], dtype=lib.uint8)",
    "r = lib.tensor([2**63])",
    "r = lib.tensor(np.float32(1.5), dtype=lib.int32)",
    "r = lib.tensor([np.float32(1.5)], dtype=lib.bool)",
    "r = lib.tensor([np.bool_(True), 2])",
    "r = lib.tensor([np.array([1.5]), 1])",
    # NumPy arrays: negative strides refused, memory shared where PyTorch shares it
    "r = lib.tensor(np.arange(4)[::-1])",
    "r = lib.from_numpy(np.arange(4.0)[::-1])",
    "r = lib.as_tensor(np.arange(4.0).reshape(2, 2)[:, ::-1])",
    "r = lib.tensor(np.array(['a']))",
    "a = np.arange(6.0)[::2]\nt = lib.as_tensor(a)\na[0] = 7\nr = t",
    "a = np.zeros(3, dtype=np.float32)\nt = lib.as_tensor(a, dtype=lib.float32)\na[0] = 7\nr = t",
    "r = lib.asarray(np.float64(3.0), copy=False)",
    "try:\n    lib.asarray(np.zeros(2), dtype=lib.float32, copy=False)\nexcept ValueError as e:\n    r = str(e)",
    "r = lib.linspace(2.5, 7.5, 5, dtype=lib.int32)",
    "r = lib.full((2,), 10**30)",
    "r = lib.randn(2, dtype=lib.int64)",
    "r = lib.rand(2, dtype=lib.int8)",
    # conversions and Python protocols
    "r = float(lib.tensor([1.0, 2.0]))",
    "r = int(lib.tensor([1, 2]))",
    "r = reversed(lib.tensor([1, 2, 3]))",
    "r = reversed(lib.tensor(2.0))",
    "r = lib.tensor([1, 2]).type('torch.DoubleTensor')",
    "r = lib.tensor([1, 2]).type(lib.FloatTensor)",
    "r = lib.tensor([1, 2]).type('float')",
    "r = lib.tensor(3) in lib.tensor(3)",
    "r = None in lib.tensor([1, 2])",
    "t = lib.tensor([1, 2])\nr = (t == None, t != None, t == 'a', t == [1, 2])",
    "r = lib.float16.to_real(), lib.int8.is_complex",
]


@pytest.mark.parametrize("source", CASES)
def test_same_as_torch(source):
    same(source)


def test_float_of_a_tensor_that_requires_grad_warns_once():
    module = importlib.import_module("minigrad.tensor")  # (the module: minigrad.tensor is also the factory)
    module._warned_scalar_of_grad = False
    t = minigrad.tensor(2.5, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert float(t) == 2.5 and math.floor(t) == 2
    assert [str(w.message).split("\n")[0] for w in caught] == [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior."
    ]


def test_minigrad_itself_converts_no_tensor_that_requires_grad():
    # histc read its range with float(input.min()), which warned about the user's tensor
    importlib.import_module("minigrad.tensor")._warned_scalar_of_grad = False
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0, 4.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert lib.histc(x, bins=3).tolist() == [1.0, 1.0, 1.0]


def test_float_of_a_tensor_that_requires_grad_is_quiet_under_no_grad():
    # as in PyTorch, where L-BFGS reads its loss with float() inside its no_grad step
    importlib.import_module("minigrad.tensor")._warned_scalar_of_grad = False
    for lib in (minigrad, torch):
        w = lib.ones(2, requires_grad=True)
        optimizer = lib.optim.LBFGS([w], max_iter=2)

        def closure(lib=lib, w=w, optimizer=optimizer):
            optimizer.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with lib.no_grad():
                assert float(w.sum()) == 2.0
            optimizer.step(closure)
