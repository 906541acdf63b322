"""Devices: ``minigrad.device``, moving tensors, ``minigrad.cuda``, and the GPU lessons.

The first half runs anywhere (CPU, no CuPy needed): device objects against ``torch.device``,
``device=`` on factories, ``.to``/``.cpu`` on CPU tensors, the error that explains how to get a
GPU, ``minigrad.cuda`` without a GPU, and the backend seam. The second half is marked ``gpu``:
it runs where CuPy sees an NVIDIA GPU and is skipped, with the reason, elsewhere. It checks what
PyTorch teaches about devices: a move is an operation (``.cuda()`` of a leaf is not a leaf),
gradients flow back to the source device, devices don't mix, and the rest of minigrad (nn,
optim, autograd.grad, gradcheck, viz) works on GPU tensors.
"""

from __future__ import annotations

import ast
import importlib.util
import pathlib
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn

torch = pytest.importorskip("torch")

HAS_CUPY = importlib.util.find_spec("cupy") is not None
gpu = pytest.mark.gpu


def outcome(fn):
    """What ``fn()`` gives: ("ok", value) or ("error", exception type name, message)."""
    try:
        return ("ok", fn())
    except Exception as exc:  # both libraries' errors are compared by type and words
        return ("error", type(exc).__name__, str(exc))


# ============================================================================ device objects (CPU)

DEVICE_SPECS = [
    ("cpu",),
    ("cuda",),
    ("cuda:0",),
    ("cuda:1",),
    ("cpu:0",),
    ("cuda", 0),
    ("cuda", 2),
    ("cpu", 0),
    ("gpu",),
    ("CUDA",),
    ("cuda:x",),
    ("cuda:-1",),
    ("cuda:01",),
    ("cuda:",),
    (" cuda",),
    ("cuda:0:1",),
    ("cuda", -1),
    ("cuda:1", 2),
    ("cuda", "x"),
    (1.5,),
    (None,),
    (True,),
]


@pytest.mark.parametrize("spec", DEVICE_SPECS, ids=[repr(s) for s in DEVICE_SPECS])
def test_device_objects_parse_and_print_like_torch(spec):
    def describe(lib):
        d = lib.device(*spec)
        return repr(d), str(d), d.type, d.index

    ours, theirs = outcome(lambda: describe(minigrad)), outcome(lambda: describe(torch))
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] == "ok":
        assert ours == theirs
    else:
        assert ours[1] == theirs[1]  # the exception type
        # PyTorch lists more device types; the words that say what is wrong are the same.
        key = theirs[2].split(":")[0] if "Expected one of" not in theirs[2] else "device type at start of device string"
        assert key in ours[2], (ours, theirs)


def test_device_equality_and_hashing_like_torch():
    for lib in (minigrad, torch):
        d = lib.device
        assert d("cuda", 0) == d("cuda:0") and d("cuda:0") == d(d("cuda:0"))
        assert d("cuda") != d("cuda:0")  # "the current GPU" is not GPU 0 until a tensor is made
        assert d("cpu") != d("cpu", 0)
        assert d("cpu") != "cpu"  # a device never equals a string
        assert len({d("cpu"), d("cpu"), d("cuda:1"), d("cuda", 1)}) == 2
    assert minigrad.device(1) == minigrad.device("cuda:1")  # an int is a GPU index


def test_device_pickles_and_is_immutable_enough_to_hash():
    d = minigrad.device("cuda:1")
    assert pickle.loads(pickle.dumps(d)) == d
    assert {d: "x"}[minigrad.device("cuda", 1)] == "x"


FACTORIES = {
    "tensor": lambda lib, dev: lib.tensor([1.0, 2.0], device=dev),
    "zeros": lambda lib, dev: lib.zeros(2, 3, device=dev),
    "ones": lambda lib, dev: lib.ones(2, device=dev),
    "empty": lambda lib, dev: lib.empty(2, device=dev),
    "full": lambda lib, dev: lib.full((2,), 7.0, device=dev),
    "arange": lambda lib, dev: lib.arange(4, device=dev),
    "linspace": lambda lib, dev: lib.linspace(0, 1, 3, device=dev),
    "eye": lambda lib, dev: lib.eye(2, device=dev),
    "rand": lambda lib, dev: lib.rand(2, device=dev),
    "randn": lambda lib, dev: lib.randn(2, device=dev),
    "randint": lambda lib, dev: lib.randint(0, 5, (3,), device=dev),
    "randperm": lambda lib, dev: lib.randperm(3, device=dev),
    "zeros_like": lambda lib, dev: lib.zeros_like(lib.ones(2), device=dev),
    "ones_like": lambda lib, dev: lib.ones_like(lib.ones(2), device=dev),
    "full_like": lambda lib, dev: lib.full_like(lib.ones(2), 3.0, device=dev),
    "as_tensor": lambda lib, dev: lib.as_tensor([1, 2], device=dev),
    "new_zeros": lambda lib, dev: lib.ones(1).new_zeros(2, device=dev),
    "requires_grad": lambda lib, dev: lib.rand(2, device=dev, requires_grad=True),
}


@pytest.mark.parametrize("name", list(FACTORIES))
@pytest.mark.parametrize("spec", ["cpu", "device", "cpu:0"])
def test_factories_take_a_cpu_device_like_torch(name, spec):
    def make(lib):
        dev = lib.device("cpu") if spec == "device" else spec
        t = FACTORIES[name](lib, dev)
        return repr(t.device), t.is_cuda, t.is_leaf, t.requires_grad

    assert make(minigrad) == make(torch)


def test_moving_a_cpu_tensor_to_the_cpu_returns_itself_like_torch():
    for lib in (minigrad, torch):
        x = lib.rand(3, requires_grad=True)
        for moved in (x.cpu(), x.to("cpu"), x.to(lib.device("cpu")), x.to(device="cpu"), x.to("cpu", lib.float32)):
            assert moved is x and moved.is_leaf
        copy = x.to("cpu", copy=True)  # an explicit copy is an operation
        assert copy is not x and not copy.is_leaf and type(copy.grad_fn).__name__ == "ToCopyBackward0"
        other = lib.zeros(2, dtype=lib.float64)
        assert x.to(other).dtype == lib.float64  # to(tensor): its dtype and device


def test_tensor_device_properties_like_torch():
    def describe(lib):
        x = lib.zeros(2)
        return repr(x.device), str(x.device), x.device.type, x.device.index, x.is_cuda, x.is_cpu, x.get_device()

    assert describe(minigrad) == describe(torch)


def test_module_to_cpu_keeps_its_parameters():
    layer = nn.Linear(2, 2)
    weight = layer.weight
    assert layer.to("cpu") is layer and layer.cpu() is layer
    assert layer.weight is weight and weight.is_leaf and weight.device == minigrad.device("cpu")


def test_default_device_like_torch():
    assert repr(minigrad.get_default_device()) == repr(torch.get_default_device()) == "device(type='cpu')"
    minigrad.set_default_device("cpu")
    try:
        assert minigrad.zeros(2).device == minigrad.device("cpu")
        assert minigrad.nn.Linear(2, 2).weight.device.type == "cpu"
    finally:
        minigrad.set_default_device(None)
    assert minigrad.get_default_device() == minigrad.device("cpu")


def test_writing_into_an_expanded_tensor_fails_like_torch():
    for lib in (minigrad, torch):
        x = lib.ones(1).expand(3)
        with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
            x.add_(1)


# ============================================================================ without a GPU (CPU)

no_gpu = pytest.mark.skipif(minigrad.cuda.is_available(), reason="checks behaviour without a usable GPU")

ASKING_FOR_CUDA = {
    "factory": lambda: minigrad.zeros(2, device="cuda"),
    "factory_index": lambda: minigrad.ones(2, device=minigrad.device("cuda", 0)),
    "tensor": lambda: minigrad.tensor([1.0], device="cuda:0"),
    "dot_cuda": lambda: minigrad.rand(10, requires_grad=True).cuda(),
    "to": lambda: minigrad.rand(2).to("cuda"),
    "module": lambda: nn.Linear(3, 3).cuda(),
    "device_name": lambda: minigrad.cuda.get_device_name(),
}


@no_gpu
@pytest.mark.parametrize("name", list(ASKING_FOR_CUDA))
def test_asking_for_cuda_without_a_gpu_says_what_is_missing_and_how_to_install(name):
    with pytest.raises(RuntimeError) as info:
        ASKING_FOR_CUDA[name]()
    message = str(info.value)
    assert isinstance(info.value, AssertionError)  # what PyTorch without CUDA raises, too
    assert "Torch not compiled with CUDA enabled" in message
    reason = minigrad.cuda.unavailable_reason()
    assert reason and reason in message
    assert ("CuPy is not installed" in reason) == (not HAS_CUPY)
    for words in ("pip install cupy-cuda12x", "cupy-cuda13x", "conda install -c conda-forge cupy", "minigrad[gpu]"):
        assert words in message


@no_gpu
def test_minigrad_cuda_without_a_gpu():
    assert minigrad.cuda.is_available() is False
    assert minigrad.cuda.device_count() == 0
    assert minigrad.cuda.synchronize() is None  # nothing to wait for
    assert minigrad.cuda.empty_cache() is None
    assert minigrad.cuda.memory_allocated() == 0


def test_cuda_seeds_leave_the_cpu_stream_alone_as_pytorchs():
    import torch

    def draws(lib):
        lib.manual_seed(5)
        first = lib.rand(2).tolist()
        lib.cuda.manual_seed(6)  # (a CPU-only PyTorch accepts these too)
        lib.cuda.manual_seed_all(7)
        return first + lib.rand(2).tolist()

    assert draws(minigrad) == draws(torch)


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_minigrad_does_not_import_cupy():
    out = _run("import sys, minigrad; minigrad.ones(2) * 2; print('cupy' in sys.modules)")
    assert out.strip() == "False"  # CuPy is imported only when a cuda device is asked for


def test_minigrad_works_when_cupy_cannot_be_imported():
    out = _run(
        "import sys; sys.modules['cupy'] = None\n"  # as if CuPy were not installed
        "import minigrad\n"
        "x = minigrad.tensor([1.0, 2.0], requires_grad=True); (x * x).sum().backward()\n"
        "print(x.grad.tolist(), minigrad.cuda.is_available(), minigrad.cuda.device_count())\n"
        "try:\n    minigrad.zeros(1, device='cuda')\n"
        "except RuntimeError as e:\n    print('CuPy is not installed' in str(e))\n"
    )
    assert out.split("\n")[:2] == ["[2.0, 4.0] False 0", "True"]


def test_only_the_backend_imports_numpy_or_cupy():
    """The seam: every other module asks ``backend`` for the array module of a device."""
    package = pathlib.Path(minigrad.__file__).parent
    offenders = []
    for path in package.rglob("*.py"):
        if path.name == "backend.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [
                f"{path.relative_to(package)}: {n}" for n in names if n.split(".")[0] in ("numpy", "cupy", "cupyx")
            ]
    assert offenders == []


# ============================================================================ on a GPU

CUDA = "cuda"


def torch_cuda():
    """PyTorch on the GPU, to compare with, or a skip when this PyTorch has no CUDA."""
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here (install a CUDA build of PyTorch to compare on the GPU)")
    return torch


@gpu
def test_minigrad_cuda_on_a_gpu():
    assert minigrad.cuda.is_available() and minigrad.cuda.unavailable_reason() is None
    assert minigrad.cuda.device_count() >= 1 and minigrad.cuda.current_device() == 0
    assert isinstance(minigrad.cuda.get_device_name(), str) and minigrad.cuda.get_device_name(0)
    x = minigrad.ones(1000, device=CUDA)
    assert minigrad.cuda.memory_allocated() >= x.numel() * 4
    minigrad.cuda.synchronize()
    minigrad.cuda.synchronize("cuda:0")
    del x
    minigrad.cuda.empty_cache()


@gpu
def test_dot_cuda_of_a_leaf_is_not_a_leaf_the_lesson():
    """The forum question: ``.cuda()`` is an operation, so its result is not a leaf."""
    b = minigrad.rand(10, requires_grad=True).cuda()
    assert not b.is_leaf and b.requires_grad and b.grad_fn.name() == "ToCopyBackward0"
    assert b.device == minigrad.device("cuda:0") and b.is_cuda
    (b * b).sum().backward()
    with pytest.warns(UserWarning, match="not a leaf"):
        assert b.grad is None  # the gradient went through ToCopyBackward0 to the CPU leaf


@gpu
def test_device_cuda_at_creation_is_a_leaf():
    f = minigrad.rand(10, requires_grad=True, device=CUDA)
    assert f.is_leaf and f.grad_fn is None and f.device == minigrad.device("cuda", 0)
    (f * f).sum().backward()
    assert f.grad.device == f.device and np.allclose(f.grad.cpu().numpy(), 2 * f.detach().cpu().numpy())


@gpu
def test_the_lesson_matches_torch_on_the_gpu():
    torch_cuda()
    for lib in (minigrad, torch):
        moved = lib.rand(10, requires_grad=True).cuda()
        made = lib.rand(10, requires_grad=True, device="cuda")
        assert (moved.is_leaf, made.is_leaf) == (False, True)
        assert type(moved.grad_fn).__name__ == "ToCopyBackward0"


@gpu
def test_gradients_flow_back_to_the_source_device():
    a = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.cuda()
    (b * b).sum().backward()
    assert a.grad.device.type == "cpu" and a.grad.tolist() == [2.0, 4.0, 6.0]
    # and back: a GPU leaf, a loss computed on the CPU
    w = minigrad.tensor([1.0, -1.0], device=CUDA, requires_grad=True)
    loss = (w.cpu() * minigrad.tensor([3.0, 4.0])).sum()
    assert loss.grad_fn.next_functions[0][0].next_functions[0][0].name() == "ToCopyBackward0"
    loss.backward()
    assert w.grad.device == w.device and w.grad.tolist() == [3.0, 4.0]
    # a round trip with a dtype change on the way
    x = minigrad.tensor([0.5, 2.0], requires_grad=True)
    y = x.to(CUDA, minigrad.float64).exp().to("cpu").sum()
    y.backward()
    assert x.grad.dtype == minigrad.float32 and x.grad.device.type == "cpu"
    assert np.allclose(x.grad.numpy(), np.exp([0.5, 2.0]))


@gpu
def test_moving_to_the_device_a_tensor_is_on_returns_itself():
    x = minigrad.rand(3, device=CUDA, requires_grad=True)
    for moved in (x.cuda(), x.cuda(0), x.to("cuda"), x.to("cuda:0"), x.to(minigrad.device("cuda")), x.to(x)):
        assert moved is x and moved.is_leaf
    assert x.cpu() is not x and x.cpu().grad_fn.name() == "ToCopyBackward0"


@gpu
def test_mixing_devices_raises_torchs_error():
    cpu, gpu_ = minigrad.ones(3), minigrad.ones(3, device=CUDA)
    mixes = [
        lambda: cpu + gpu_,
        lambda: gpu_ * cpu,
        lambda: minigrad.matmul(cpu, gpu_),
        lambda: minigrad.cat([cpu, gpu_]),
        lambda: minigrad.where(gpu_ > 0, gpu_, cpu),
        lambda: cpu < gpu_,
        lambda: minigrad.allclose(cpu, gpu_),
        lambda: gpu_.add_(cpu),
        lambda: nn.Linear(3, 1)(gpu_),
    ]
    for mix in mixes:
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            mix()


@gpu
def test_a_zero_dim_cpu_tensor_joins_a_gpu_op_like_torch():
    """PyTorch treats a 0-d CPU tensor as a number in a GPU operation; its gradient goes home."""
    s = minigrad.tensor(2.0, requires_grad=True)
    x = minigrad.tensor([1.0, 2.0], device=CUDA, requires_grad=True)
    y = x * s
    assert y.device == x.device and y.tolist() == [2.0, 4.0]
    y.sum().backward()
    assert s.grad.device.type == "cpu" and s.grad.item() == 3.0
    assert x.grad.device == x.device and x.grad.tolist() == [2.0, 2.0]
    assert (x > minigrad.tensor(1.5)).tolist() == [False, True]


@gpu
def test_numpy_of_a_gpu_tensor_raises_and_suggests_cpu():
    x = minigrad.tensor([1.0, 2.0], device=CUDA)
    with pytest.raises(TypeError, match=r"can't convert cuda:0 device type tensor to numpy\. Use Tensor\.cpu\(\)"):
        x.numpy()
    with pytest.raises(TypeError, match=r"Tensor\.cpu\(\)"):
        np.asarray(x)
    assert x.cpu().numpy().tolist() == [1.0, 2.0] and x.tolist() == [1.0, 2.0] and x[1].item() == 2.0
    assert x.numpy(force=True).tolist() == [1.0, 2.0]  # force=True copies, as in PyTorch


@gpu
def test_gpu_tensors_print_their_device_like_torch():
    on = "device='cuda:0'"
    assert repr(minigrad.tensor([1.0, 2.0, 3.0], device=CUDA)) == f"tensor([1., 2., 3.], {on})"
    x = minigrad.tensor([1.0, 2.0], device=CUDA, requires_grad=True)
    assert repr(x) == f"tensor([1., 2.], {on}, requires_grad=True)"
    assert repr(x * 2) == f"tensor([2., 4.], {on}, grad_fn=<MulBackward0>)"
    assert (
        repr(minigrad.tensor([1, 2], dtype=minigrad.int32, device=CUDA)) == f"tensor([1, 2], {on}, dtype=torch.int32)"
    )
    assert repr(minigrad.zeros(0, 3, device=CUDA)) == f"tensor([], {on}, size=(0, 3))"
    assert repr(minigrad.rand(3, requires_grad=True).cuda()).endswith(f"], {on}, grad_fn=<ToCopyBackward0>)")
    assert "grad_fn" not in repr(minigrad.rand(3).cuda())  # nothing to record without requires_grad
    assert f"{minigrad.tensor(2.5, device=CUDA):.1f}" == "2.5"
    assert x.type() == "torch.cuda.FloatTensor" and str(x.device) == "cuda:0"
    assert x.is_cuda and not x.is_cpu and x.get_device() == 0


@gpu
def test_gpu_printing_matches_torch():
    torch_cuda()
    for make in (
        lambda lib: lib.arange(30.0, device="cuda", requires_grad=True) * 1.5,  # wraps its suffixes
        lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64, device="cuda", requires_grad=True),
        lambda lib: lib.ones(1100, device="cuda").reshape(2, 550) * 1,
        lambda lib: lib.tensor([0.25, 4.0], requires_grad=True).cuda(),
        lambda lib: lib.zeros(0, 2, dtype=lib.int64, device="cuda"),
    ):
        assert repr(make(minigrad)) == repr(make(torch))


@gpu
def test_module_cuda_keeps_leaves_and_trains():
    torch_ = minigrad
    ll = nn.Linear(3, 3)
    weight = ll.weight
    opt = minigrad.optim.SGD(ll.parameters(), lr=0.1)  # made before the move: the same Parameters
    assert ll.cuda() is ll
    assert ll.weight is weight and weight.is_leaf and weight.device == torch_.device("cuda:0")
    inp = torch_.rand(3).cuda()
    loss = (10 - ll(inp)).sum()
    loss.backward()
    assert ll.weight.grad.shape == (3, 3) and ll.weight.grad.device == weight.device
    before = weight.detach().clone()
    opt.step()
    assert not minigrad.equal(before, weight) and weight.is_leaf
    state = ll.state_dict()
    assert all(v.device.type == "cuda" for v in state.values())
    ll.cpu()
    assert weight.device.type == "cpu" and weight.grad.device.type == "cpu" and weight.is_leaf
    ll.to(minigrad.device("cuda", 0))
    assert weight.device.type == "cuda"


@gpu
def test_autograd_grad_and_create_graph_on_the_gpu():
    x = minigrad.tensor([0.5, 1.5, -2.0], device=CUDA, requires_grad=True)
    y = (x**4 + x.sin() * x.exp()).sum()
    (d1,) = minigrad.autograd.grad(y, x, create_graph=True)
    (d2,) = minigrad.autograd.grad(d1.sum(), x, create_graph=True)
    (d3,) = minigrad.autograd.grad(d2.sum(), x)
    v = np.array([0.5, 1.5, -2.0])
    assert all(d.device == x.device for d in (d1, d2, d3))
    assert d1.requires_grad and d2.requires_grad and not d3.requires_grad
    np.testing.assert_allclose(d3.cpu().numpy(), 24 * v + 2 * np.exp(v) * (np.cos(v) - np.sin(v)), rtol=1e-5)
    y2 = (x * x).sum()
    y2.backward(create_graph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (gg,) = minigrad.autograd.grad(x.grad.sum(), x)
    assert gg.tolist() == [2.0, 2.0, 2.0]


@gpu
def test_gradcheck_on_the_gpu():
    x = minigrad.tensor([0.3, -1.2, 2.0], dtype=minigrad.float64, device=CUDA, requires_grad=True)
    w = minigrad.randn(3, 3, dtype=minigrad.float64, device=CUDA, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda a, b: (b @ a).tanh() * a.exp(), (x, w))
    assert minigrad.autograd.gradgradcheck(lambda a, b: (b @ a).sigmoid().sum() * a, (x, w))


@gpu
def test_hooks_and_inplace_checks_on_the_gpu():
    x = minigrad.tensor([1.0, 2.0], device=CUDA, requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.device) or g * 2)
    (x * x).sum().backward()
    assert seen == [x.device] and x.grad.tolist() == [4.0, 8.0]
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x.add_(1)
    y = x.exp()
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as info:
        z.sum().backward()
    assert "[torch.cuda.FloatTensor [2]]" in str(info.value)  # PyTorch's name for a GPU tensor
    h = minigrad.tensor([1.0], device=CUDA, requires_grad=True)
    h.register_hook(lambda g: g.cpu())  # a hook may not move the gradient
    with pytest.raises(RuntimeError, match="changed the type of value"):
        (h * 2).sum().backward()
    with pytest.raises(RuntimeError, match="device"):
        h.grad = minigrad.zeros(1)
    with pytest.raises(RuntimeError, match="same device"):
        (h * 2).backward(minigrad.ones(1))
    e = minigrad.ones(1, device=CUDA).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(1)  # CuPy would write silently; minigrad checks, as PyTorch does


@gpu
def test_random_numbers_are_the_same_on_both_devices():
    minigrad.manual_seed(3)
    a = minigrad.randn(5, device=CUDA)
    minigrad.manual_seed(3)
    b = minigrad.randn(5)
    assert a.device.type == "cuda" and a.tolist() == b.tolist()


@gpu
def test_invalid_gpu_index_raises():
    count = minigrad.cuda.device_count()
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        minigrad.zeros(1, device=f"cuda:{count}")


@gpu
def test_repeated_indices_add_up_on_the_gpu_for_every_dtype():
    from minigrad import backend  # the seam's own helper, where CuPy and NumPy differ

    for dtype in (minigrad.float32, minigrad.float64, minigrad.int64, minigrad.int32):
        out = minigrad.zeros(4, dtype=dtype, device=CUDA)._data
        index = minigrad.tensor([1, 1, 3], device=CUDA)._data
        values = minigrad.tensor([2, 3, 4], dtype=dtype, device=CUDA)._data
        backend.scatter_add(out, index, values)
        assert minigrad.Tensor._make(out).tolist() == [0, 5, 0, 4], dtype
    x = minigrad.tensor([1.0, 2.0, 3.0], device=CUDA, requires_grad=True)
    x[[0, 0, 2, 0]].sum().backward()
    assert x.grad.tolist() == [3.0, 0.0, 1.0]


@gpu
def test_viz_of_a_gpu_graph_shows_the_device():
    from minigrad import viz

    x = minigrad.tensor([1.0, 2.0], device=CUDA, requires_grad=True)
    y = (x.exp() * 2).sum()
    tensor_view = viz.draw(y, names={"x": x, "y": y}).source
    backward_view = viz.draw_backward(y, names={"x": x, "y": y}).source
    assert "cuda:0" in tensor_view and "cuda:0" in backward_view
    trace = viz.trace_backward(y, names={"x": x, "y": y})
    assert len(trace) > 0 and x.grad.device.type == "cuda"
    assert "<svg" in trace.draw(1).pipe(format="svg", encoding="utf-8")


@gpu
def test_default_device_cuda_makes_factories_and_modules_use_the_gpu():
    minigrad.set_default_device("cuda")
    try:
        assert minigrad.get_default_device() == minigrad.device("cuda:0")
        assert minigrad.zeros(2).device.type == "cuda" and minigrad.tensor([1.0]).is_cuda
        layer = nn.Linear(2, 2)
        assert layer.weight.device.type == "cuda" and layer.weight.is_leaf
        assert minigrad.from_numpy(np.ones(2)).device.type == "cpu"  # from_numpy shares host memory
    finally:
        minigrad.set_default_device(None)
    assert minigrad.zeros(2).device.type == "cpu"


@gpu
def test_a_custom_function_must_return_gradients_on_the_inputs_device():
    class Leaky(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return (grad * 2).cpu()  # the wrong device

    x = minigrad.ones(2, device=CUDA, requires_grad=True)
    with pytest.raises(RuntimeError, match="invalid gradient at index 0 - expected device cuda:0 but got cpu"):
        Leaky.apply(x).sum().backward()


@gpu
def test_cupy_arrays_become_tensors():
    cupy = pytest.importorskip("cupy")
    a = cupy.asarray([1.0, 2.0])
    on_gpu = minigrad.tensor(a, device=CUDA)
    assert on_gpu.device.type == "cuda" and on_gpu.dtype == minigrad.float64 and on_gpu.tolist() == [1.0, 2.0]
    a[0] = 5.0  # tensor() copies
    assert on_gpu.tolist() == [1.0, 2.0] and minigrad.tensor(a).device.type == "cpu"
