"""Tensor factories, dtypes and basic tensor properties, compared with real PyTorch."""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error  # noqa: E402

# Every test runs on each device: on_device makes the factories create tensors there (in
# PyTorch too when it has CUDA), so "the default device" is what both libraries must agree on.
pytestmark = pytest.mark.usefixtures("on_device")


def where(device) -> str:
    """A device as the comparison sees it: "default" for the device the test runs on."""
    lib = minigrad if isinstance(device, minigrad.device) else torch
    return "default" if device.type == lib.get_default_device().type else repr(device)


class FactoryOracle(Oracle):
    """Also makes devices, dtypes and Sizes comparable, which factory tests return."""

    def plain(self, value):
        if isinstance(value, minigrad.device | torch.device):
            return where(value)
        if isinstance(value, minigrad.dtype | torch.dtype):
            return repr(value)
        if isinstance(value, minigrad.Size | torch.Size):  # before super(): a Size is a tuple
            return ("Size", repr(value))
        return super().plain(value)


# Tensors compare as ("tensor", dtype, shape, exact values, requires_grad, is_leaf, device). The
# device is part of the comparison (it may be "default" or another), so it is not asserted to be
# the test's device.
same = FactoryOracle(
    lambda t: ("tensor", str(t.dtype), tuple(t.shape), t.tolist(), t.requires_grad, t.is_leaf, where(t.device)),
    on_test_device=False,
).same


def torch_on_our_device() -> None:
    """Skip a comparison that names devices when PyTorch cannot run on the GPU minigrad uses."""
    if minigrad.get_default_device().type != torch.get_default_device().type:
        pytest.skip("PyTorch has no CUDA here: device names and identities cannot be compared")


# --------------------------------------------------------------------------- size arguments


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
@pytest.mark.parametrize(
    "args",
    [(2, 3), ((2, 3),), ([2, 3],), ((),), (4,), (0, 2)],
    ids=["varargs", "tuple", "list", "empty_tuple", "one", "zero_size"],
)
def test_size_arguments(name, args):
    def run(lib):
        t = getattr(lib, name)(*args)
        return t.shape, str(t.dtype), t.numel(), t.dim()

    same(run)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_size_argument_errors(name):
    same_error(lambda lib: getattr(lib, name)(2.0), "float")
    same_error(lambda lib: getattr(lib, name)(-1))
    same_error(lambda lib: getattr(lib, name)(), "size")


def test_size_object_as_argument():
    same(lambda lib: [lib.zeros(lib.Size([2, 3])), lib.ones(lib.zeros(4, 1).shape)])


@pytest.mark.parametrize("name", ["zeros", "ones"])
def test_zeros_and_ones_values(name):
    same(
        lambda lib: [
            getattr(lib, name)(2, 3),
            getattr(lib, name)(2, dtype=lib.int32),
            getattr(lib, name)(3, dtype=lib.bool),
        ]
    )


def test_full():
    same(
        lambda lib: [
            lib.full((2, 2), 3.0),
            lib.full((2,), 3),
            lib.full((2,), True),
            lib.full([2], 1.5, dtype=lib.float64),
            lib.full((1, 2), 7, dtype=lib.float32),
        ]
    )


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((5,), {}),
        ((1, 4), {}),
        ((0, 1, 0.25), {}),
        ((3.0,), {}),
        ((5, 0, -2), {}),
        ((3,), {"dtype": "float64"}),
        ((0.0, 1.0, 0.1), {}),
    ],
)
def test_arange(args, kwargs):
    def run(lib):
        options = {k: getattr(lib, v) for k, v in kwargs.items()}
        return lib.arange(*args, **options)

    result = same(run)
    assert result[3] == pytest.approx(np.arange(*args).tolist())


def test_eye_and_linspace():
    same(lambda lib: [lib.eye(3), lib.eye(2, 3), lib.eye(2, dtype=lib.int64), lib.linspace(0, 1, 5)])


def test_like_factories():
    def run(lib):
        base = lib.tensor([[1.0, 2.0]], dtype=lib.float64)
        ints = lib.tensor([1, 2])
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        return [
            lib.zeros_like(base),
            lib.ones_like(ints),
            lib.ones_like(leaf),  # requires_grad is not copied
            lib.ones_like(ints, dtype=lib.float32),
            lib.zeros_like(base, requires_grad=True),
            lib.full_like(base, 7),
            lib.empty_like(base).shape,
        ]

    same(run)


def test_factories_with_requires_grad():
    same(
        lambda lib: [
            lib.zeros(2, requires_grad=True),
            lib.ones(2, 2, requires_grad=True),
            lib.tensor([1.0], requires_grad=True),
            lib.arange(3.0, requires_grad=True),
            lib.eye(2, requires_grad=True),
            lib.full((2,), 1.0, requires_grad=True),
        ]
    )


# --------------------------------------------------------------------------- dtypes


def test_default_dtypes():
    def run(lib):
        return [
            lib.get_default_dtype(),
            lib.tensor(1.5).dtype,
            lib.tensor([1, 2]).dtype,
            lib.tensor([True]).dtype,
            lib.tensor([1, 2.5]).dtype,
            lib.tensor([True, 2]).dtype,
            lib.tensor([]).dtype,
            lib.zeros(1).dtype,
            lib.rand(1).dtype,
            lib.randint(5, (2,)).dtype,
            lib.arange(3).dtype,
            lib.tensor(np.array([1.0, 2.0])).dtype,
            lib.tensor(np.array([1, 2], dtype=np.int32)).dtype,
        ]

    assert same(run)[0] == "torch.float32"


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int32", "int64", "bool"])
def test_dtypes_round_trip(name):
    def run(lib):
        dtype = getattr(lib, name)
        t = lib.tensor([1, 0, 2], dtype=dtype)
        return t, str(dtype), dtype.is_floating_point, t.element_size(), t.cpu().numpy().dtype.name

    same(run)


def test_dtype_aliases():
    def run(lib):
        return [
            lib.float == lib.float32,
            lib.double == lib.float64,
            lib.half == lib.float16,
            lib.long == lib.int64,
            lib.int == lib.int32,
            lib.float32.itemsize,
            lib.float16.itemsize,
        ]

    assert same(run) == [True, True, True, True, True, 4, 2]


@pytest.mark.parametrize("device", ["cpu"])  # torch.FloatTensor and friends are CPU types
def test_legacy_constructors():
    def run(lib):
        t2 = lib.DoubleTensor([1.0, 2.0])
        t2.requires_grad = True
        t3 = lib.HalfTensor([1.0, 2.0])
        t3.requires_grad = True
        return t2, t3, repr(t2), repr(t3), lib.FloatTensor(2, 3).shape, lib.LongTensor([1, 2])

    result = same(run)
    assert result[2] == "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"
    assert result[3] == "tensor([1., 2.], dtype=torch.float16, requires_grad=True)"


# --------------------------------------------------------------------------- random


def test_manual_seed_reproduces_values():
    for fn in (
        lambda: minigrad.rand(3, 4),
        lambda: minigrad.randn(5),
        lambda: minigrad.randint(0, 100, (6,)),
        lambda: minigrad.empty(4).normal_(0, 1e-3),
        lambda: minigrad.empty(4).uniform_(-1, 1),
        lambda: minigrad.randperm(7),
    ):
        minigrad.manual_seed(42)
        first = fn().tolist()
        second = fn().tolist()
        minigrad.manual_seed(42)
        assert fn().tolist() == first
        assert second != first  # the generator advances
        minigrad.manual_seed(43)
        assert fn().tolist() != first


def test_random_ranges_and_statistics():
    minigrad.manual_seed(0)
    u = minigrad.rand(20000).cpu().numpy()
    n = minigrad.randn(20000).cpu().numpy()
    k = minigrad.randint(3, 7, (20000,)).cpu().numpy()
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.02
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1.0) < 0.05
    assert set(np.unique(k).tolist()) == {3, 4, 5, 6}


def test_random_dtype_and_shape_match_torch():
    same(
        lambda lib: [
            (lib.rand(2, 3).shape, lib.rand(2, 3).dtype),
            (lib.randn((4,)).shape, lib.randn(2, dtype=lib.float64).dtype),
            (lib.randint(10, (3,)).shape, lib.randint(0, 10, (3, 2)).dtype),
            lib.rand(2, requires_grad=True).requires_grad,
            sorted(lib.randperm(5).tolist()),
        ]
    )


def test_randint_without_size_raises():
    same_error(lambda lib: lib.randint(10))


def test_rand_with_integer_dtype_raises():
    for lib in (minigrad, torch):
        with pytest.raises((RuntimeError, NotImplementedError)):
            lib.rand(2, dtype=lib.int64)


# --------------------------------------------------------------------------- properties


def test_shape_properties():
    torch_on_our_device()

    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        return [
            x.shape,
            x.size(),
            x.size(1),
            x.size(-1),
            x.dim(),
            x.ndim,
            x.numel(),
            x.dtype,
            x.device,
            str(x.device),
            x.device.type,
            x.is_cuda,
            len(x),
            repr(x.shape),
            x.shape == (2, 3),
            x.shape[1:],
            x.shape[0],
            x.shape + (1,),
            isinstance(x.shape, tuple),
            lib.Size([2, 3]).numel(),
        ]

    same(run)


def test_transpose_property_and_item():
    def run(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        return [
            x.T,
            x.T.T,
            lib.tensor(3.5).item(),
            type(lib.tensor(3).item()).__name__,
            type(lib.tensor(True).item()).__name__,
            lib.tensor([2.0]).item(),
            x.tolist(),
            lib.tensor(2.0).tolist(),
            lib.tensor([1, 2]).tolist(),
        ]

    same(run)


def test_item_of_many_elements_raises():
    same_error(lambda lib: lib.tensor([1.0, 2.0]).item(), "cannot be converted to Scalar")


@pytest.mark.parametrize("device", ["cpu"])  # numpy() is for CPU tensors (GPU: test_devices.py)
def test_numpy_conversion():
    def run(lib):
        x = lib.tensor([[1.0, 2.0]])
        return x.numpy().dtype.name, lib.tensor([1, 2]).numpy().dtype.name, x.numpy().shape, x.numpy().tolist()

    same(run)


def test_clone_is_independent_copy():
    def run(lib):
        a = lib.tensor([1.0, 2.0])
        b = a.clone()
        b[0] = 9.0
        return a, b

    same(run)


def test_clone_of_grad_tensor_is_in_graph():
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a.clone()
        (b * b).sum().backward()
        return b, type(b.grad_fn).__name__, a.grad

    same(run)


def test_casts():
    torch_on_our_device()

    def run(lib):
        x = lib.tensor([[1.7, -1.7, 0.0]])
        return [
            x.float(),
            x.double(),
            x.half(),
            x.long(),
            x.int(),
            x.bool(),
            x.cpu() is x,
            x.float() is x,
            x.to(lib.float64),
            x.to("cpu") is x,
            x.to(lib.tensor([1])),
            x.to("cpu", lib.int32),
            x.to(dtype=lib.float16),
            x.to(device="cpu", dtype=lib.float64),
            x.to(lib.float32, copy=True) is x,
        ]

    same(run)


def test_detach_in_place_and_requires_grad_after_cast():
    def run(lib):
        leaf = lib.tensor([1.0], requires_grad=True)
        detached = leaf.detach_()
        cast = lib.tensor([1.0, 2.0], requires_grad=True).double()
        return detached is leaf, leaf, cast

    same(run)


def test_tensor_from_tensors_and_numpy():
    def run(lib):
        return [
            lib.tensor([lib.tensor(1.0), lib.tensor(2.0)]),
            lib.tensor(np.array([1.0, 2.0]), requires_grad=True),
            lib.tensor([[1, 2], [3, 4]]).shape,
            lib.tensor([], dtype=lib.int64),
        ]

    same(run)


def test_invalid_tensor_data():
    same_error(lambda lib: lib.tensor([[1, 2], [3]]))
    same_error(lambda lib: lib.tensor("a"))


def test_copy_constructing_from_a_tensor_warns():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="clone"):
            lib.tensor(lib.tensor([1.0]))


@pytest.mark.parametrize("device", ["cpu"])  # explicit "cpu" devices (the rest: test_devices.py)
def test_device_objects():
    def run(lib):
        d = lib.device("cpu")
        return (
            d,
            str(d),
            d.type,
            d == lib.device("cpu"),
            lib.zeros(2, device="cpu").device,
            lib.zeros(2, device=d).device,
        )

    same(run)
