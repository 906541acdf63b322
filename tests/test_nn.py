"""minigrad.nn against torch.nn: modules, parameters, layers, losses and conv2d.

Every numeric test builds the same computation in both libraries from the same NumPy values
and compares values and gradients; structural tests compare reprs, names and graph shapes.
"""

from __future__ import annotations

import copy
import importlib
import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.nn import functional as F

torch = pytest.importorskip("torch")

from oracle import same_error, same_opening  # noqa: E402

tnn, tfun = torch.nn, torch.nn.functional

# Every test runs on each device: on_device makes the factories (and so nn's parameters) create
# tensors there, in minigrad and in PyTorch when it has CUDA.
pytestmark = pytest.mark.usefixtures("on_device")

TOL = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=2e-5, atol=2e-6)}


def arr(t) -> np.ndarray:
    if isinstance(t, minigrad.Tensor):  # minigrad's results stay on the device the test runs on
        assert t.device == minigrad.get_default_device(), t.device
    return t.detach().cpu().numpy() if isinstance(t, torch.Tensor) else np.asarray(t.detach().cpu().numpy())


def torch_prints_like_us(device: str) -> None:
    """Skip a comparison of printed text on the GPU when PyTorch cannot make GPU tensors here."""
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here, so it cannot print a GPU tensor to compare with")


def close(m, t, dtype: str = "float64", what: str = "") -> None:
    assert tuple(m.shape) == tuple(t.shape), f"{what}: shape {tuple(m.shape)} vs torch {tuple(t.shape)}"
    np.testing.assert_allclose(arr(m), arr(t), **TOL[dtype], err_msg=what)


def pair(a: np.ndarray, requires_grad: bool = False):
    """The same values as a minigrad tensor and a torch tensor."""
    return (
        minigrad.tensor(a.copy(), requires_grad=requires_grad),
        torch.tensor(a.copy(), requires_grad=requires_grad),
    )


def copy_params(src: nn.Module, dst: torch.nn.Module) -> None:
    """Give the torch module exactly the minigrad module's parameter values."""
    theirs = dict(dst.named_parameters())
    ours = dict(src.named_parameters())
    assert list(ours) == list(theirs)
    with torch.no_grad():
        for name, p in ours.items():
            theirs[name].copy_(torch.from_numpy(arr(p).copy()))


def graph(fn, depth: int = 3):
    """Node names reachable from ``fn`` to ``depth`` levels, as nested tuples (both libraries)."""
    if fn is None:
        return None
    name = type(fn).__name__ if not hasattr(fn, "_name") else fn.name()
    if depth == 0:
        return name
    return (name, tuple(graph(n, depth - 1) for n, _ in fn.next_functions))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


# ---------------------------------------------------------------------------------------------- Parameter
def test_parameter_is_a_leaf_that_requires_grad_and_shares_storage():
    data = minigrad.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, minigrad.Tensor) and isinstance(p, nn.Parameter)
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    data[0] = 5.0  # storage is shared with the tensor it was made from, as in PyTorch
    assert p.tolist() == [5.0, 2.0]
    out = p * 2
    assert type(out) is minigrad.Tensor and out.grad_fn.name() == "MulBackward0"


def test_parameter_repr_matches_torch(device):
    torch_prints_like_us(device)
    for values, requires_grad in [([1.0, 2.0], True), ([[0.5, -1.25], [3.0, 4.0]], True), (1.0, True), ([1, 2], False)]:
        ours = nn.Parameter(minigrad.tensor(values), requires_grad=requires_grad)
        theirs = tnn.Parameter(torch.tensor(values), requires_grad=requires_grad)
        assert repr(ours) == repr(theirs)
    assert repr(nn.Parameter()) == repr(tnn.Parameter())


def test_parameter_rejects_integer_data_that_requires_grad_and_non_tensors():
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(minigrad.tensor([1, 2]))
    with pytest.raises(TypeError):
        nn.Parameter([1.0, 2.0])


def test_parameter_deepcopy_is_a_parameter_with_its_own_storage():
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    q = copy.deepcopy(p)
    assert isinstance(q, nn.Parameter) and q.requires_grad
    with minigrad.no_grad():
        q[0] = 9.0
    assert p.tolist() == [1.0, 2.0]


# ---------------------------------------------------------------------------------------------- Module basics
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(3, 4)
        self.scale = nn.Parameter(minigrad.tensor(2.0))
        self.body = nn.Sequential(nn.Tanh(), nn.Linear(4, 2, bias=False))
        self.register_buffer("steps", minigrad.tensor(0))
        self.register_buffer("scratch", minigrad.zeros(2), persistent=False)

    def forward(self, x):
        return self.body(self.first(x) * self.scale)


class TorchNet(tnn.Module):
    def __init__(self):
        super().__init__()
        self.first = tnn.Linear(3, 4)
        self.scale = tnn.Parameter(torch.tensor(2.0))
        self.body = tnn.Sequential(tnn.Tanh(), tnn.Linear(4, 2, bias=False))
        self.register_buffer("steps", torch.tensor(0))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.body(self.first(x) * self.scale)


def test_registration_order_names_and_traversal_match_torch():
    ours, theirs = Net(), TorchNet()
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [tuple(p.shape) for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [type(m).__name__ for m in ours.modules()][1:] == [type(m).__name__ for m in theirs.modules()][1:]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters(recurse=False)] == ["scale"]
    assert len(list(ours.children())) == 2


def test_shared_parameters_are_listed_once():
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(model.parameters())) == 2
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias"]


def test_forward_matches_torch_with_copied_weights(rng):
    ours, theirs = Net(), TorchNet()
    copy_params(ours, theirs)
    x = rng.standard_normal((5, 3)).astype("float32")
    mx, tx = pair(x)
    close(ours(mx), theirs(tx), "float32")


def test_assignment_errors_match_torch():
    ours, theirs = nn.Linear(2, 2), tnn.Linear(2, 2)
    for target in (ours, theirs):
        lib = minigrad if target is ours else torch
        value = lib.rand(2, 2)
        kind = "torch.cuda.FloatTensor" if value.is_cuda else "torch.FloatTensor"  # PyTorch's names
        with pytest.raises(TypeError, match=f"cannot assign '{kind}' as parameter 'weight'"):
            target.weight = value
        with pytest.raises(TypeError, match=f"cannot assign '{kind}' object to parameter 'x'"):
            target.register_parameter("x", lib.rand(2))
        with pytest.raises(KeyError):
            target.register_parameter("a.b", None)
        with pytest.raises(AttributeError, match="has no attribute 'nonexistent'"):
            target.nonexistent  # noqa: B018

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(minigrad.rand(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_attributes_change_kind_on_reassignment_and_can_be_deleted():
    m = nn.Module()
    m.thing = nn.Parameter(minigrad.rand(2))
    assert [n for n, _ in m.named_parameters()] == ["thing"]
    for lib in (nn, tnn):  # a parameter name takes only a Parameter (or None) until deleted
        with pytest.raises(TypeError, match="cannot assign '.*Linear' as parameter 'thing'"):
            holder = lib.Module()
            holder.thing = lib.Parameter((minigrad if lib is nn else torch).rand(2))
            holder.thing = lib.Linear(1, 1)
    del m.thing
    m.thing = nn.Linear(1, 1)
    assert [n for n, _ in m.named_parameters()] == ["thing.weight", "thing.bias"]
    del m.thing
    assert list(m.parameters()) == [] and not hasattr(m, "thing")
    m.bias = None  # a plain attribute
    m.register_parameter("p", None)
    assert list(m.parameters()) == [] and m.p is None


def test_missing_forward_raises_like_torch():
    class Empty(nn.Module):
        pass

    with pytest.raises(NotImplementedError, match=r'Module \[Empty\] is missing the required "forward" function'):
        Empty()(1)


def test_zero_grad_set_to_none_and_to_zeros():
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    x = minigrad.randn(4, 3)
    model(x).sum().backward()
    grads = [p.grad for p in model.parameters()]
    assert all(g is not None for g in grads)
    model.zero_grad(set_to_none=False)
    for p, g in zip(model.parameters(), grads):
        assert p.grad is g  # the same tensor, zeroed in place
        assert not arr(p.grad).any()
    model(x).sum().backward()
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_zero_grad_detaches_a_grad_that_has_a_graph():
    w = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    m = nn.Module()
    m.w = w
    (w * w).sum().backward(create_graph=True)
    assert w.grad.requires_grad
    m.zero_grad(set_to_none=False)
    assert not w.grad.requires_grad and w.grad.grad_fn is None and w.grad.tolist() == [0.0, 0.0]


def test_train_eval_apply_and_requires_grad():
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout(), nn.ReLU()))
    assert model.training and all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        model.train("yes")
    seen = []
    assert model.apply(lambda m: seen.append(type(m).__name__)) is model
    assert seen == ["Linear", "Dropout", "ReLU", "Sequential", "Sequential"]  # children first, as torch
    model.requires_grad_(False)
    assert not any(p.requires_grad for p in model.parameters())


def test_forward_hooks_see_and_replace_values():
    layer = nn.Linear(2, 2)
    calls = []
    pre = layer.register_forward_pre_hook(lambda mod, args: (args[0] * 0,))
    post = layer.register_forward_hook(lambda mod, args, out: calls.append((mod, out.shape)))
    out = layer(minigrad.ones(3, 2))
    np.testing.assert_allclose(arr(out), np.broadcast_to(arr(layer.bias), (3, 2)))
    assert calls == [(layer, minigrad.Size([3, 2]))]
    pre.remove()
    post.remove()
    layer(minigrad.ones(3, 2))
    assert len(calls) == 1


# ---------------------------------------------------------------------------------------------- state_dict
def test_state_dict_round_trip_and_detached_values():
    source, target = Net(), Net()
    with minigrad.no_grad():
        source.steps.fill_(7)
    state = source.state_dict()
    assert list(state) == ["scale", "steps", "first.weight", "first.bias", "body.1.weight"]
    assert all(not v.requires_grad and v.is_leaf for v in state.values())
    result = target.load_state_dict(state)
    assert result.missing_keys == [] and result.unexpected_keys == []
    for (name, a), (_, b) in zip(source.state_dict().items(), target.state_dict().items()):
        np.testing.assert_array_equal(arr(a), arr(b), err_msg=name)
    assert target.first.weight.is_leaf and target.first.weight.requires_grad
    kept = source.state_dict(keep_vars=True)
    assert kept["first.weight"] is source.first.weight


def test_state_dict_errors_match_torch():
    def attempt(module, state, **kwargs):
        try:
            return module.load_state_dict(state, **kwargs)
        except RuntimeError as exc:
            return str(exc)

    ours_missing = attempt(nn.Linear(2, 2), {"weight": minigrad.rand(2, 2)})
    theirs_missing = attempt(tnn.Linear(2, 2), {"weight": torch.rand(2, 2)})
    assert ours_missing == theirs_missing
    ours_bad = attempt(
        nn.Linear(2, 2), {"weight": minigrad.rand(3, 2), "bias": minigrad.rand(2), "extra": minigrad.rand(1)}
    )
    theirs_bad = attempt(tnn.Linear(2, 2), {"weight": torch.rand(3, 2), "bias": torch.rand(2), "extra": torch.rand(1)})
    assert ours_bad == theirs_bad
    relaxed = nn.Linear(2, 2).load_state_dict({"weight": minigrad.rand(2, 2), "extra": minigrad.rand(1)}, strict=False)
    assert relaxed.missing_keys == ["bias"] and relaxed.unexpected_keys == ["extra"]


# ---------------------------------------------------------------------------------------------- moving and casting
def test_double_and_to_dtype_keep_parameters_as_the_same_leaves():
    layer = nn.Linear(3, 3)
    weight = layer.weight
    layer.double()
    assert layer.weight is weight and weight.is_leaf and weight.requires_grad and weight.dtype is minigrad.float64
    layer.to(minigrad.float32)
    assert layer.weight is weight and weight.is_leaf and weight.dtype is minigrad.float32
    layer.to(dtype=minigrad.float64)
    (10 - layer(minigrad.rand(3, dtype=minigrad.float64))).sum().backward()
    assert weight.grad is not None and weight.grad.dtype is minigrad.float64
    layer.float()
    assert weight.grad.dtype is minigrad.float32  # grads follow their parameter
    # the forum thread's contrast: converting a leaf tensor is an operation
    a = minigrad.rand(3, requires_grad=True).double()
    assert not a.is_leaf and a.grad_fn.name() == "ToCopyBackward0"


def test_to_only_casts_floating_tensors_and_rejects_integer_dtypes():
    model = Net()
    model.double()
    assert model.steps.dtype is minigrad.int64  # integer buffers keep their dtype
    assert all(p.dtype is minigrad.float64 for p in model.parameters())
    assert model.to(minigrad.zeros(1)) is model and model.scale.dtype is minigrad.float32
    with pytest.raises(TypeError, match="only accepts floating point"):
        model.to(minigrad.int64)
    with pytest.raises(TypeError, match="only accepts floating point"):
        tnn.Linear(2, 2).to(torch.int64)


def test_optimizer_keeps_working_after_a_cast():
    layer = nn.Linear(2, 1)
    opt = minigrad.optim.SGD(layer.parameters(), lr=0.5)
    layer.double()
    before = layer.weight.detach().clone()
    layer(minigrad.ones(1, 2, dtype=minigrad.float64)).sum().backward()
    opt.step()
    np.testing.assert_allclose(arr(layer.weight), arr(before) - 0.5)


@pytest.mark.skipif(minigrad.cuda.is_available(), reason="checks the error raised without a GPU")
@pytest.mark.parametrize("device", ["cpu"])
def test_cuda_without_a_gpu_explains_itself():
    with pytest.raises(RuntimeError, match="CUDA"):
        nn.Linear(3, 3).cuda()


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cpu"])  # made on the CPU, then moved
def test_cuda_keeps_leaf_weights_and_trains_on_the_gpu():
    layer = nn.Linear(3, 3).cuda()
    assert layer.weight.is_leaf and layer.weight.device.type == "cuda"
    inp = minigrad.rand(3).cuda()
    loss = (10 - layer(inp)).sum()
    loss.backward()
    assert layer.weight.grad is not None and layer.weight.grad.device.type == "cuda"
    conv = nn.Conv2d(1, 2, 2).cuda()
    conv(minigrad.randn(1, 1, 5, 5, device="cuda")).sum().backward()
    assert conv.weight.grad.device.type == "cuda"
    layer.cpu()
    assert layer.weight.is_leaf and layer.weight.device.type == "cpu" and layer.weight.grad.device.type == "cpu"


def test_deepcopy_of_a_module_is_independent():
    model = nn.Sequential(nn.Linear(2, 2))
    clone = copy.deepcopy(model)
    with minigrad.no_grad():
        clone[0].weight.fill_(0.0)
    assert arr(model[0].weight).any()
    assert isinstance(clone[0].weight, nn.Parameter)


# ---------------------------------------------------------------------------------------------- reprs
def _both(build):
    return build(nn), build(tnn)


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.Linear(3, 2),
        lambda m: m.Linear(3, 2, bias=False),
        lambda m: m.Conv2d(1, 3, 2),
        lambda m: m.Conv2d(2, 4, (3, 5), stride=2, padding=1, dilation=2, groups=2, bias=False),
        lambda m: m.Conv2d(2, 4, 3, padding="same"),
        lambda m: m.Sequential(
            m.Linear(3, 4),
            m.ReLU(),
            m.Sequential(m.Linear(4, 1), m.Sigmoid()),
            m.Flatten(),
            m.Softmax(dim=1),
            m.LogSoftmax(1),
            m.Identity(),
            m.Tanh(),
            m.MSELoss(),
            m.CrossEntropyLoss(),
            m.ReLU(inplace=True),
            m.Dropout(0.25),
            m.LeakyReLU(),
            m.LeakyReLU(0.2, inplace=True),
            m.Softplus(beta=2.0),
            m.SiLU(),
            m.GELU(),
            m.GELU("tanh"),
            m.ELU(),
            m.ELU(0.5, inplace=True),
            m.L1Loss(),
            m.BCELoss(),
            m.BCEWithLogitsLoss(),
        ),
        lambda m: m.Sequential(OrderedDict([("hidden", m.Linear(2, 3)), ("act", m.Tanh())])),
        lambda m: m.ModuleList([m.Linear(1, 1), m.ReLU()]),
        lambda m: m.Module(),
    ],
)
def test_module_reprs_match_torch(build):
    ours, theirs = _both(build)
    assert repr(ours) == repr(theirs)


def test_custom_module_repr_nests_children_like_torch():
    ours, theirs = Net(), TorchNet()
    assert repr(ours).replace("Net", "X") == repr(theirs).replace("TorchNet", "X")


# ---------------------------------------------------------------------------------------------- containers
def test_sequential_indexing_slicing_and_iteration_like_torch():
    ours, theirs = _both(lambda m: m.Sequential(m.Linear(2, 3), m.ReLU(), m.Linear(3, 1), m.Sigmoid()))
    assert len(ours) == len(theirs) == 4
    assert [type(m).__name__ for m in ours] == [type(m).__name__ for m in theirs]
    assert type(ours[-1]).__name__ == "Sigmoid" and ours[0] is list(ours.children())[0]
    assert repr(ours[1:3]) == repr(theirs[1:3]) and repr(ours[::-1]) == repr(theirs[::-1])
    assert isinstance(ours[1:3], nn.Sequential)
    for seq in (ours, theirs):
        with pytest.raises(IndexError, match="index 4 is out of range"):
            seq[4]
    ours.append(nn.Tanh())
    theirs.append(tnn.Tanh())
    del ours[0], theirs[0]
    assert repr(ours) == repr(theirs)
    ours[0] = nn.Identity()
    theirs[0] = tnn.Identity()
    assert isinstance(ours[0], nn.Identity) and repr(ours) == repr(theirs)  # replaced in place


def test_sequential_with_ordered_dict_names_parameters_by_key():
    model = nn.Sequential(OrderedDict([("hidden", nn.Linear(2, 3)), ("act", nn.ReLU()), ("out", nn.Linear(3, 1))]))
    assert [n for n, _ in model.named_parameters()] == ["hidden.weight", "hidden.bias", "out.weight", "out.bias"]
    assert model.hidden is model[0]
    x = minigrad.randn(4, 2)
    manual = model.out(model.act(model.hidden(x)))
    np.testing.assert_array_equal(arr(model(x)), arr(manual))


def test_module_list_registers_its_modules():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    holder = nn.Module()
    holder.layers = layers
    assert [n for n, _ in holder.named_parameters()][:2] == ["layers.0.weight", "layers.0.bias"]
    assert len(list(holder.parameters())) == 6 and len(layers[1:]) == 2


# ---------------------------------------------------------------------------------------------- Linear
def test_linear_init_is_uniform_within_one_over_sqrt_fan_in_and_seeded():
    minigrad.manual_seed(3)
    layer = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w = arr(layer.weight)
    b = arr(layer.bias)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert abs(w.mean()) < 0.01 * bound and abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound
    assert np.abs(w).max() > 0.99 * bound  # the whole interval is used
    minigrad.manual_seed(3)
    again = nn.Linear(400, 300)
    np.testing.assert_array_equal(arr(again.weight), w)
    assert layer.weight.dtype is minigrad.float32
    assert nn.Linear(2, 2, dtype=minigrad.float64).weight.dtype is minigrad.float64


@pytest.mark.parametrize("shape", [(5, 3), (3,), (2, 4, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_backward_and_graph_match_torch(rng, shape, bias):
    ours, theirs = nn.Linear(3, 2, bias=bias, dtype=minigrad.float64), tnn.Linear(3, 2, bias=bias, dtype=torch.float64)
    copy_params(ours, theirs)
    mx, tx = pair(rng.standard_normal(shape), requires_grad=True)
    my, ty = ours(mx), theirs(tx)
    close(my, ty)
    if len(shape) == 2 or bias:  # without a bias torch's matmul folds other shapes into mm + views
        assert graph(my.grad_fn, 3) == graph(ty.grad_fn, 3)
    up = rng.standard_normal(ty.shape)
    my.backward(minigrad.tensor(up))
    ty.backward(torch.tensor(up))
    close(mx.grad, tx.grad)
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        close(p.grad, q.grad, what=name)


@pytest.mark.parametrize("shape", [(4, 2, 3), (2, 4, 2, 3)])
def test_linear_of_a_transposed_batch_is_matmul_and_in_place_bias_as_in_torch(rng, shape):
    # PyTorch's at::linear folds only a contiguous input into addmm; a transposed batch goes
    # through matmul and then adds the bias in place (AddBackward0 over UnsafeViewBackward0).
    ours, theirs = nn.Linear(3, 2, dtype=minigrad.float64), tnn.Linear(3, 2, dtype=torch.float64)
    copy_params(ours, theirs)
    mx, tx = pair(rng.standard_normal(shape), requires_grad=True)
    my, ty = ours(mx.transpose(0, 1)), theirs(tx.transpose(0, 1))
    close(my, ty)
    assert graph(my.grad_fn, 4) == graph(ty.grad_fn, 4)
    assert my.grad_fn.name() == "AddBackward0"
    up = rng.standard_normal(ty.shape)
    my.backward(minigrad.tensor(up))
    ty.backward(torch.tensor(up))
    close(mx.grad, tx.grad)
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        close(p.grad, q.grad, what=name)


def test_linear_batch_graph_is_addmm_of_bias_input_and_transposed_weight():
    layer = nn.Linear(3, 2)
    y = layer(minigrad.rand(4, 3))
    assert y.grad_fn.name() == "AddmmBackward0"
    bias_edge, input_edge, weight_edge = y.grad_fn.next_functions
    assert bias_edge[0].name() == "AccumulateGrad" and bias_edge[0].variable is layer.bias
    assert input_edge == (None, 0)
    assert weight_edge[0].name() == "TBackward0"
    assert weight_edge[0].next_functions[0][0].variable is layer.weight


def test_linear_shape_error_matches_torch():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 2x2\)"):
        nn.Linear(2, 2)(minigrad.rand(4, 3))
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 2x2\)"):
        tnn.Linear(2, 2)(torch.rand(4, 3))


@pytest.mark.parametrize(
    "shapes, dtypes",
    [
        (((3,), (3,), (3, 3)), ()),
        (((3,), (2, 3), (3,)), ()),
        (((4,), (2, 3), (3, 3)), ()),
        (((2, 1), (2, 3), (3, 3)), ()),
        (((3,), (2, 3), (2, 3)), ()),
        (((3,), (2, 3), (3, 3)), ("float64", "float32", "float32")),
        (((3,), (2, 3), (3, 3)), ("float32", "float64", "float32")),
        (((3,), (2, 3), (3, 3)), ("float32", "float32", "float64")),
        (((3,), (2, 3), (3, 3)), ("int64", "int64", "int64")),
    ],
)
def test_addmm_argument_errors_match_torch(shapes, dtypes):
    """addmm checks its arguments itself (quickly, it runs in every Linear): same errors as PyTorch,
    and no promotion (a float64 bias with float32 matrices is an error)."""
    outcomes = []
    for lib in (minigrad, torch):
        args = [lib.ones(*shape, dtype=getattr(lib, d)) for shape, d in zip(shapes, dtypes or ["float32"] * 3)]
        try:
            outcomes.append(str(lib.addmm(*args).dtype))
        except RuntimeError as exc:
            outcomes.append(str(exc).split(" shapes ")[0].split(" must ")[0])
    if "The size" in outcomes[0] and "The expanded size" in outcomes[1]:
        return  # a bias of the wrong size: PyTorch's words come from expand, ours from broadcasting
    assert outcomes[0] == outcomes[1]


# ---------------------------------------------------------------------------------------------- activations
@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.ReLU(),
        lambda m: m.Tanh(),
        lambda m: m.Sigmoid(),
        lambda m: m.Softmax(dim=1),
        lambda m: m.Softmax(dim=-1),
        lambda m: m.LogSoftmax(dim=0),
        lambda m: m.Flatten(),
        lambda m: m.Flatten(0, 1),
        lambda m: m.Identity(),
        lambda m: m.GELU(),
        lambda m: m.GELU(approximate="tanh"),
        lambda m: m.ELU(alpha=0.3),
    ],
)
def test_activation_modules_match_torch(rng, build):
    ours, theirs = _both(build)
    mx, tx = pair(rng.standard_normal((3, 4, 2)), requires_grad=True)
    my, ty = ours(mx), theirs(tx)
    close(my, ty)
    up = rng.standard_normal(ty.shape)
    (my * minigrad.tensor(up)).sum().backward()
    (ty * torch.tensor(up)).sum().backward()
    close(mx.grad, tx.grad)


def test_relu_inplace_and_implicit_softmax_dim_warn_like_torch():
    x = minigrad.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x and x.tolist() == [0.0, 2.0]
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        out = F.softmax(minigrad.tensor([[1.0, 2.0], [3.0, 5.0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = tfun.softmax(torch.tensor([[1.0, 2.0], [3.0, 5.0]]))
    close(out, expected, "float32")


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda lib: lib.nn.functional.gelu(lib.tensor([1.0]), approximate="exact"),
            "approximate argument must be either none or tanh.",
        ),
        (lambda lib: lib.nn.functional.gelu(lib.tensor([1, 2])), "\"GeluKernelImpl\" not implemented for 'Long'"),
        (lambda lib: lib.nn.functional.elu(lib.tensor([True])), "\"elu_cpu\" not implemented for 'Bool'"),
    ],
)
def test_gelu_and_elu_errors_match_torch(call, words):
    same_error(call, words)


def test_dropout_scales_kept_values_and_is_identity_in_eval():
    minigrad.manual_seed(0)
    drop = nn.Dropout(p=0.25)
    x = minigrad.ones(200, 100, requires_grad=True)
    y = drop(x)
    values = arr(y)
    kept = values != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(values[kept], 1 / 0.75, rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(arr(x.grad), values)  # the gradient goes through the same mask
    drop.eval()
    assert drop(x) is x
    assert not arr(F.dropout(x, p=1.0)).any()
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(1.5)


# ---------------------------------------------------------------------------------------------- losses
REDUCTIONS = ["mean", "sum", "none"]


def _loss_pair(ours_fn, theirs_fn, inputs, grad_index=(0,)):
    """Run a loss in both libraries on the same arrays; compare value and input gradients."""
    m_in = [minigrad.tensor(a.copy(), requires_grad=i in grad_index) for i, a in enumerate(inputs)]
    t_in = [torch.tensor(a.copy(), requires_grad=i in grad_index) for i, a in enumerate(inputs)]
    m_out, t_out = ours_fn(*m_in), theirs_fn(*t_in)
    dtype = str(t_out.dtype).split(".")[-1]
    close(m_out, t_out, dtype, "loss")
    up = np.random.default_rng(7).standard_normal(tuple(t_out.shape)).astype(dtype)
    m_out.backward(minigrad.tensor(up))
    t_out.backward(torch.tensor(up))
    for i in grad_index:
        close(m_in[i].grad, t_in[i].grad, dtype, f"grad of input {i}")
    return m_out, t_out


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_mse_loss_matches_torch(rng, reduction, dtype):
    x, y = rng.standard_normal((4, 3)).astype(dtype), rng.standard_normal((4, 3)).astype(dtype)
    m_out, t_out = _loss_pair(
        lambda a, b: F.mse_loss(a, b, reduction=reduction),
        lambda a, b: tfun.mse_loss(a, b, reduction=reduction),
        [x, y],
        grad_index=(0, 1),
    )
    assert m_out.grad_fn.name() == type(t_out.grad_fn).__name__ == "MseLossBackward0"
    module = nn.MSELoss(reduction=reduction)(minigrad.tensor(x), minigrad.tensor(y))
    close(module, t_out.detach(), dtype)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_weighted_and_broadcast_mse_loss_match_torch(rng, reduction):
    x, y, w = rng.standard_normal((4, 3)), rng.standard_normal((4, 3)), rng.uniform(0.5, 2, (4, 3))
    _loss_pair(
        lambda a, b, c: F.mse_loss(a, b, reduction=reduction, weight=c),
        lambda a, b, c: tfun.mse_loss(a, b, reduction=reduction, weight=c),
        [x, y, w],
        grad_index=(0, 1),
    )
    with pytest.warns(UserWarning, match="different to the input size"):
        ours = F.mse_loss(minigrad.tensor(x, requires_grad=True), minigrad.tensor(y[0]), reduction=reduction)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = tfun.mse_loss(torch.tensor(x), torch.tensor(y[0]), reduction=reduction)
    close(ours, theirs)
    with pytest.raises(ValueError, match="Weights and input must have the same size"):
        F.mse_loss(minigrad.tensor(x), minigrad.tensor(y), weight=minigrad.ones(3))


def _targets(rng, shape, classes, ignore=False):
    t = rng.integers(0, classes, shape)
    if ignore:
        t.reshape(-1)[::3] = -100
    return t


CE_CASES = {
    "2d": ((6, 4), (6,)),
    "4d": ((3, 4, 2, 2), (3, 2, 2)),
    "3d": ((3, 4, 5), (3, 5)),
    "1d": ((5,), ()),
}


@pytest.mark.parametrize("case", sorted(CE_CASES))
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("variant", ["plain", "weight", "ignore", "smoothing", "all"])
def test_cross_entropy_with_class_indices_matches_torch(rng, case, reduction, variant):
    in_shape, t_shape = CE_CASES[case]
    classes = in_shape[0] if len(in_shape) == 1 else in_shape[1]
    x = rng.standard_normal(in_shape)
    ignore = variant in ("ignore", "all") and case != "1d"
    target = _targets(rng, t_shape, classes, ignore)
    weight = rng.uniform(0.5, 2.0, classes) if variant in ("weight", "all") else None
    smoothing = 0.2 if variant in ("smoothing", "all") else 0.0

    def run(lib, fn):
        def call(a):
            w = None if weight is None else lib.tensor(weight)
            return fn(a, lib.tensor(target), weight=w, reduction=reduction, label_smoothing=smoothing)

        return call

    m_out, t_out = _loss_pair(run(minigrad, F.cross_entropy), run(torch, tfun.cross_entropy), [x])
    if smoothing == 0 and case != "3d":  # torch views a 3-D input as 4-D around its NllLoss2D node
        assert graph(m_out.grad_fn, 2) == graph(t_out.grad_fn, 2)  # NllLossBackward0 <- LogSoftmaxBackward0


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.3])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4), (3,)])
def test_cross_entropy_with_probability_targets_matches_torch(rng, reduction, smoothing, weighted, shape):
    x = rng.standard_normal(shape)
    p = rng.uniform(0.1, 1.0, shape)
    class_dim = 0 if len(shape) == 1 else 1
    p = p / p.sum(axis=class_dim, keepdims=True)
    weight = rng.uniform(0.5, 2.0, shape[class_dim]) if weighted else None

    def run(lib, fn):
        return lambda a, b: fn(
            a, b, weight=None if weight is None else lib.tensor(weight), reduction=reduction, label_smoothing=smoothing
        )

    _loss_pair(run(minigrad, F.cross_entropy), run(torch, tfun.cross_entropy), [x, p], grad_index=(0, 1))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_and_module_losses_match_torch(rng, reduction):
    logp = np.log(rng.dirichlet(np.ones(4), size=5))
    target = np.array([0, 3, -100, 1, 3])
    weight = rng.uniform(0.5, 2.0, 4)
    _loss_pair(
        lambda a: F.nll_loss(a, minigrad.tensor(target), weight=minigrad.tensor(weight), reduction=reduction),
        lambda a: tfun.nll_loss(a, torch.tensor(target), weight=torch.tensor(weight), reduction=reduction),
        [logp],
    )
    x = rng.standard_normal((5, 4))
    ours = nn.CrossEntropyLoss(weight=minigrad.tensor(weight), ignore_index=3, reduction=reduction, label_smoothing=0.1)
    theirs = tnn.CrossEntropyLoss(weight=torch.tensor(weight), ignore_index=3, reduction=reduction, label_smoothing=0.1)
    close(
        ours(minigrad.tensor(x), minigrad.tensor(target.clip(0))), theirs(torch.tensor(x), torch.tensor(target.clip(0)))
    )
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()] == ["weight"]
    close(
        nn.NLLLoss()(minigrad.tensor(logp), minigrad.tensor(target)),
        tnn.NLLLoss()(torch.tensor(logp), torch.tensor(target)),
    )


def test_cross_entropy_mean_of_all_ignored_targets_is_nan_like_torch():
    x = np.zeros((2, 3))
    target = np.array([-100, -100])
    mx, tx = pair(x, requires_grad=True)
    ours = F.cross_entropy(mx, minigrad.tensor(target))
    theirs = tfun.cross_entropy(tx, torch.tensor(target))
    assert math.isnan(ours.item()) and math.isnan(theirs.item())
    ours.backward()
    theirs.backward()
    close(mx.grad, tx.grad)  # zeros, not nan


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 2, 5])),  # out of bounds
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 2, -1])),
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0.0, 1.0, 2.0])),  # float indices
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1])),  # batch mismatch
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.zeros(3, 4, dtype=lib.int64)),  # int probabilities
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1, 2]), weight=lib.ones(3)),
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1, 2]), label_smoothing=1.5),
        lambda lib, f: f.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 1, 2]), reduction="average"),
        lambda lib, f: f.nll_loss(lib.zeros(3, 4), lib.tensor([0, 1, 2]), reduction="bad"),
        lambda lib, f: f.mse_loss(lib.zeros(3), lib.zeros(3), reduction="bad"),
    ],
)
def test_loss_argument_errors_have_torch_types_and_messages(call):
    same_opening(lambda lib: call(lib, F if lib is minigrad else tfun))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bool"])
def test_nll_loss_target_dtype_error_names_the_dtype_as_torch(dtype):
    messages = []
    for lib, f in ((minigrad, F), (torch, tfun)):
        with pytest.raises(RuntimeError) as error:
            f.nll_loss(lib.zeros(2, 3), lib.zeros(2, dtype=getattr(lib, dtype)))
        messages.append(str(error.value))
    assert messages[0] == messages[1]  # "... but got Float", not "Float32"


# ---------------------------------------------------------------------------------------------- gradcheck
def _double(rng, *shape):
    return minigrad.tensor(rng.standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_gradcheck_losses_in_float64(rng, reduction):
    gradcheck = minigrad.autograd.gradcheck
    x, y = _double(rng, 3, 4), _double(rng, 3, 4)
    target = minigrad.tensor([0, 3, 1])
    weight = minigrad.tensor([1.0, 2.0, 0.5, 1.5], dtype=minigrad.float64)
    assert gradcheck(lambda a, b: F.mse_loss(a, b, reduction=reduction), (x, y))
    assert gradcheck(
        lambda a: F.cross_entropy(a, target, weight=weight, reduction=reduction, label_smoothing=0.1), (x,)
    )
    assert gradcheck(lambda a, b: F.cross_entropy(a, b.softmax(1), reduction=reduction), (x, y))
    assert gradcheck(lambda a: F.nll_loss(a.log_softmax(1), target, ignore_index=3, reduction=reduction), (x,))
    four_d = _double(rng, 2, 3, 2, 2)
    assert gradcheck(
        lambda a: F.cross_entropy(a, minigrad.tensor([[[0, 2], [1, 1]], [[2, 0], [0, -100]]]), reduction=reduction),
        (four_d,),
    )


def test_gradgradcheck_cross_entropy(rng):
    x = _double(rng, 3, 4)
    target = minigrad.tensor([0, 3, 1])
    assert minigrad.autograd.gradgradcheck(lambda a: F.cross_entropy(a, target), (x,))


# ---------------------------------------------------------------------------------------------- conv2d
CONV_CASES = [
    dict(n=2, c=3, h=7, w=6, o=4, k=(3, 2)),
    dict(n=1, c=2, h=6, w=6, o=2, k=3, stride=2, padding=1),
    dict(n=2, c=4, h=8, w=9, o=6, k=3, stride=(2, 1), padding=(1, 2), dilation=(2, 1), groups=2),
    dict(n=1, c=2, h=5, w=6, o=3, k=(2, 3), padding="same", dilation=2),
    dict(n=1, c=2, h=5, w=5, o=3, k=2, padding="valid", bias=False),
    dict(n=None, c=2, h=5, w=5, o=3, k=3, padding=1),  # unbatched (C, H, W) input
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_conv2d_forward_backward_match_torch(rng, case, dtype):
    case = dict(case)
    n, c, h, w, o, k = (case.pop(key) for key in ("n", "c", "h", "w", "o", "k"))
    bias = case.pop("bias", True)
    groups = case.get("groups", 1)
    kh, kw = (k, k) if isinstance(k, int) else k
    x = rng.standard_normal((c, h, w) if n is None else (n, c, h, w)).astype(dtype)
    weight = rng.standard_normal((o, c // groups, kh, kw)).astype(dtype)
    b = rng.standard_normal(o).astype(dtype) if bias else None
    arrays = [x, weight] + ([b] if bias else [])
    m_in = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    m_out = F.conv2d(*m_in, **case) if bias else F.conv2d(*m_in, None, **case)
    t_out = tfun.conv2d(*t_in, **case) if bias else tfun.conv2d(*t_in, None, **case)
    close(m_out, t_out, dtype, "conv2d output")
    assert graph(m_out.grad_fn, 1) == graph(t_out.grad_fn, 1)
    up = rng.standard_normal(tuple(t_out.shape)).astype(dtype)
    m_out.backward(minigrad.tensor(up))
    t_out.backward(torch.tensor(up))
    for name, a, b_ in zip(["input", "weight", "bias"], m_in, t_in):
        close(a.grad, b_.grad, dtype, f"grad of {name}")


def test_conv2d_module_matches_torch_and_has_torch_init_bounds(rng):
    ours = nn.Conv2d(2, 3, 3, stride=2, padding=1)
    theirs = tnn.Conv2d(2, 3, 3, stride=2, padding=1)
    bound = 1 / math.sqrt(2 * 3 * 3)
    assert np.abs(arr(ours.weight)).max() <= bound and np.abs(arr(ours.bias)).max() <= bound
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in theirs.named_parameters()
    ]
    copy_params(ours, theirs)
    mx, tx = pair(rng.standard_normal((2, 2, 7, 7)).astype("float32"), requires_grad=True)
    my, ty = ours(mx), theirs(tx)
    close(my, ty, "float32")
    my.sum().backward()
    ty.sum().backward()
    close(mx.grad, tx.grad, "float32")
    close(ours.weight.grad, theirs.weight.grad, "float32")


def test_course_conv_example_runs_unchanged(capsys):
    torch_ = minigrad
    conv = nn.Conv2d(1, 3, 2)
    print(conv.weight.requires_grad)
    print(conv.weight.is_leaf)
    z = conv(torch_.randn(1, 1, 10, 10)).sum()
    print(z.is_leaf)
    z.backward()
    print(conv.weight.grad_fn)
    print(z.grad_fn)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == ["True", "True", "False", "None"]
    assert lines[4].startswith("<SumBackward0 object at 0x")
    assert conv.weight.grad.shape == (3, 1, 2, 2) and conv.bias.grad.shape == (3,)
    np.testing.assert_allclose(arr(conv.bias.grad), 81.0)  # 9 x 9 output positions each


def test_gradcheck_and_gradgradcheck_conv2d_in_float64(rng):
    x, w, b = _double(rng, 1, 2, 5, 4), _double(rng, 4, 1, 2, 3), _double(rng, 4)
    assert minigrad.autograd.gradcheck(lambda *a: F.conv2d(*a, stride=(2, 1), padding=(1, 0), groups=2), (x, w, b))
    with pytest.warns(UserWarning, match="zero-padded copy"):  # an even kernel: PyTorch's warning
        assert minigrad.autograd.gradcheck(
            lambda *a: F.conv2d(*a, padding="same", dilation=(1, 2)), (x, _double(rng, 2, 2, 2, 2))
        )
    small_x, small_w = _double(rng, 1, 1, 3, 3), _double(rng, 2, 1, 2, 2)
    assert minigrad.autograd.gradgradcheck(lambda a, c: F.conv2d(a, c, padding=1), (small_x, small_w))


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (((1, 2, 5, 5), (3, 1, 2, 2)), {}),  # channel mismatch
        (((1, 2, 5, 5), (3, 2, 6, 2)), {}),  # kernel larger than the input
        (((2, 5, 5, 5, 5), (3, 2, 2, 2)), {}),  # 5-D input
        (((1, 2, 5, 5), (3, 2, 2, 2)), {"stride": 0}),
        (((1, 2, 5, 5), (3, 2, 2, 2)), {"padding": "same", "stride": 2}),
        (((1, 2, 5, 5), (3, 1, 2, 2)), {"groups": 2}),  # out channels not divisible by groups
    ],
)
def test_conv2d_errors_match_torch(args, kwargs):
    x_shape, w_shape = args
    with pytest.raises(RuntimeError) as theirs:
        tfun.conv2d(torch.zeros(x_shape), torch.zeros(w_shape), **kwargs)
    with pytest.raises(RuntimeError) as ours:
        F.conv2d(minigrad.zeros(x_shape), minigrad.zeros(w_shape), **kwargs)
    assert " ".join(str(theirs.value).split()[:4]) in str(ours.value)


def test_small_cnn_trains_like_torch(rng):
    """Conv2d -> ReLU -> Flatten -> Linear with cross entropy and SGD: same losses for 3 steps."""

    def build(m):
        return m.Sequential(m.Conv2d(1, 2, 3, padding=1), m.ReLU(), m.Flatten(), m.Linear(2 * 5 * 5, 3))

    ours, theirs = _both(build)
    copy_params(ours, theirs)
    ours.double()
    theirs.double()
    x, y = rng.standard_normal((4, 1, 5, 5)), np.array([0, 2, 1, 2])
    opt_m = minigrad.optim.SGD(ours.parameters(), lr=0.1, momentum=0.9)
    opt_t = torch.optim.SGD(theirs.parameters(), lr=0.1, momentum=0.9)
    for _ in range(3):
        lm = F.cross_entropy(ours(minigrad.tensor(x)), minigrad.tensor(y))
        lt = tfun.cross_entropy(theirs(torch.tensor(x)), torch.tensor(y))
        close(lm, lt)
        opt_m.zero_grad()
        opt_t.zero_grad()
        lm.backward()
        lt.backward()
        opt_m.step()
        opt_t.step()
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        close(p, q, what=name)


# ---------------------------------------------------------------------------------------------- init
def test_init_gains_and_bounds_match_torch():
    for name, param in [("linear", None), ("relu", None), ("tanh", None), ("leaky_relu", 0.2), ("selu", None)]:
        assert nn.init.calculate_gain(name, param) == pytest.approx(tnn.init.calculate_gain(name, param))
    w = minigrad.empty(30, 20, 3)
    for fill, bound in [
        (lambda t: nn.init.xavier_uniform_(t, gain=2.0), 2.0 * math.sqrt(6 / (20 * 3 + 30 * 3))),
        (lambda t: nn.init.kaiming_uniform_(t, nonlinearity="relu"), math.sqrt(2) * math.sqrt(3 / (20 * 3))),
        (lambda t: nn.init.kaiming_uniform_(t, mode="fan_out"), math.sqrt(2) * math.sqrt(3 / (30 * 3))),
        (lambda t: nn.init.uniform_(t, -0.5, 0.5), 0.5),
    ]:
        assert fill(w) is w
        values = np.abs(arr(w))
        assert values.max() <= bound and values.max() > 0.95 * bound
    p = nn.Parameter(minigrad.empty(3, 4))
    nn.init.normal_(p, 1.0, 0.01)
    assert p.is_leaf and p.grad_fn is None and abs(arr(p).mean() - 1.0) < 0.02
    nn.init.zeros_(p)
    assert not arr(p).any()
    nn.init.constant_(p, 0.5)
    assert (arr(p) == 0.5).all()
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.xavier_uniform_(minigrad.empty(3))


@pytest.mark.parametrize(
    "clip",
    [
        lambda u, ps: u.clip_grad_norm_(ps, 1.0),
        lambda u, ps: u.clip_grad_norm_(ps[0], max_norm=2, norm_type=1),
        lambda u, ps: u.clip_grad_norm_(ps, 0.5, norm_type="inf"),
        lambda u, ps: u.clip_grad_norm_(ps, 100.0),
        lambda u, ps: u.clip_grad_norm_([], 1.0),
        lambda u, ps: u.clip_grad_value_(ps, 0.25),
    ],
)
def test_gradient_clipping_matches_torch(clip):
    def run(lib):
        ps = [lib.nn.Parameter(lib.ones(2, 3)), lib.nn.Parameter(lib.ones(3)), lib.nn.Parameter(lib.ones(1))]
        ps[0].grad = lib.tensor([[0.5, -1.0, 2.0], [0.0, 0.25, -0.75]])
        ps[1].grad = lib.tensor([3.0, -4.0, 0.1])  # ps[2] has no gradient: it is left alone
        total = clip(importlib.import_module(lib.__name__ + ".nn.utils"), ps)
        return total, *(p.grad for p in ps)

    ours, theirs = run(minigrad), run(torch)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_clip_grad_norm_refuses_a_non_finite_norm_when_asked():
    for lib in (minigrad, torch):
        p = lib.nn.Parameter(lib.ones(2))
        p.grad = lib.tensor([float("nan"), 1.0])
        with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
            lib.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
