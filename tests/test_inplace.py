"""In-place operations, version counters, detach and .data, checked against real PyTorch."""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import Oracle, rounded, same_error  # noqa: E402

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")

MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace operation"
LEAF = "leaf Variable that requires grad is being used in an in-place operation"


# Tensors compare as (dtype, values rounded to 4 decimals, requires_grad, is_leaf).
same = Oracle(lambda t: (str(t.dtype), rounded(t, 4), t.requires_grad, t.is_leaf)).same


# --------------------------------------------------------------------------- leaves

INPLACE_ON_LEAF = {
    "add_": lambda lib, x: x.add_(1),
    "iadd": lambda lib, x: x.__iadd__(1),
    "isub": lambda lib, x: x.__isub__(1),
    "mul_": lambda lib, x: x.mul_(2),
    "div_": lambda lib, x: x.div_(2),
    "zero_": lambda lib, x: x.zero_(),
    "fill_": lambda lib, x: x.fill_(3.0),
    "copy_": lambda lib, x: x.copy_(lib.ones(3)),
    "clamp_": lambda lib, x: x.clamp_(0, 1),
    "exp_": lambda lib, x: x.exp_(),
}


@pytest.mark.parametrize("name", sorted(INPLACE_ON_LEAF))
def test_inplace_on_leaf_requiring_grad_raises(name):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        INPLACE_ON_LEAF[name](lib, x)

    same_error(run, LEAF)


def test_setitem_on_leaf_requiring_grad_raises():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        x[0] = 5.0

    # x[0] = v writes into the view x[0], as in PyTorch
    same_error(run, "a view of a " + LEAF)


@pytest.mark.parametrize("name", sorted(INPLACE_ON_LEAF))
def test_inplace_on_leaf_allowed_under_no_grad(name):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with lib.no_grad():
            out = INPLACE_ON_LEAF[name](lib, x)
        assert out is x
        return x, x._version, x.grad_fn

    result = same(run)
    assert result[1] == 1 and result[2] is None


def test_weight_update_under_no_grad_keeps_leaf():
    def run(lib):
        a = lib.tensor(2.0)
        w = lib.tensor(3.0, requires_grad=True)
        b = lib.tensor(2.0, requires_grad=True)
        for _ in range(10):
            c = a * w + b
            c.backward()
            with lib.no_grad():
                w += 0.1 * w.grad
                b += 0.1 * b.grad
            w.grad.zero_()
            b.grad.zero_()
        return w, b, w.is_leaf, w._version

    same(run)


def test_out_of_place_weight_update_makes_non_leaf():
    def run(lib):
        a = lib.tensor(2.0)
        w = lib.tensor(3.0, requires_grad=True)
        b = lib.tensor(2.0, requires_grad=True)
        c = a * w + b
        c.backward()
        w = w + 0.1 * w.grad
        return w, w.is_leaf, type(w.grad_fn).__name__

    assert same(run)[1] is False


def test_lecture_linear_regression_loop():
    rng = np.random.default_rng(7)
    x_np = rng.standard_normal((8, 6)).astype(np.float32)
    y_np = rng.standard_normal((8, 3)).astype(np.float32)
    w_np = (rng.standard_normal((3, 6)) * 1e-3).astype(np.float32)

    def run(lib):
        x, y = lib.tensor(x_np), lib.tensor(y_np)
        w = lib.tensor(w_np).requires_grad_()
        b = lib.zeros(3).requires_grad_()
        eta = 0.1
        for _ in range(50):
            y_hat = x @ w.t() + b
            loss = (y_hat - y).pow(2).mean()
            w.grad, b.grad = None, None
            loss.backward()
            with lib.no_grad():
                w -= eta * w.grad
                b -= eta * b.grad
        return loss, w, b

    same(run)


# --------------------------------------------------------------------------- saved tensors


def test_lecture_inplace_error_names_versions():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0]).requires_grad_()
        y = x.sin()
        y *= y
        loss = y.sum()
        loss.backward()

    message = str(same_error(run, MODIFIED, ", which is output 0 of Mul,", "is at version 1; expected version 0"))
    # PyTorch names a GPU tensor's type torch.cuda.FloatTensor
    kind = "torch.FloatTensor" if minigrad.get_default_device().type == "cpu" else "torch.cuda.FloatTensor"
    assert f"[{kind} [3]], which is output 0 of Mul," in message
    # minigrad also names the node that saved the tensor
    assert "MulBackward0" in message


@pytest.mark.parametrize(
    "case",
    [
        # (forward, in-place, what the backward needs)
        lambda lib, x: (x.exp(), lambda y: y.add_(1), lambda y, z: y),  # exp saves its result
        lambda lib, x: (x.sigmoid(), lambda y: y.mul_(2), lambda y, z: y),
        lambda lib, x: (x * 2, lambda y: y.add_(1), lambda y, z: y * y),  # mul saves its inputs
        lambda lib, x: (x * 2, lambda y: y.detach().mul_(5), lambda y, z: y.sin()),  # detach shares version
        lambda lib, x: (x * 2, lambda y: y.__setitem__(0, 0.0), lambda y, z: y.log()),
        lambda lib, x: (x.tanh(), lambda y: y.zero_(), lambda y, z: y),
    ],
    ids=["exp_result", "sigmoid_result", "mul_input", "detach_alias", "setitem", "tanh_zero"],
)
def test_modified_saved_tensor_makes_backward_raise(case):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y, modify, use = case(lib, x)
        z = use(y, None)
        modify(y)
        z.sum().backward()

    same_error(run, MODIFIED, "expected version 0")


def test_version_in_message_counts_every_change():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        z = y * y
        y.add_(1)
        y.mul_(2)
        y.sub_(1)
        z.sum().backward()

    same_error(run, "is at version 3; expected version 0")


# --------------------------------------------------------------------------- safe in-place


def test_safe_inplace_chain_on_non_leaf():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.add_(1)
        y.mul_(3)
        y.sum().backward()
        return x.grad, type(y.grad_fn).__name__, y._version, y

    result = same(run)
    assert result[0][1] == [6.0, 6.0, 6.0] and result[1] == "MulBackward0" and result[2] == 2


def test_inplace_when_saved_values_are_not_needed():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        z = y + y  # add saves nothing
        y.add_(1)
        z.sum().backward()
        return x.grad

    same(run)


def test_relu_inplace_on_non_leaf():
    def run(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = x * 1
        y.relu_()
        (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return x.grad, y

    same(run)


def test_inplace_on_plain_tensor_with_grad_operand_records():
    def run(lib):
        a = lib.tensor([1.0, 2.0, 3.0])
        w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a.mul_(w)
        a.add_(w)
        a.sum().backward()
        return w.grad, a, type(a.grad_fn).__name__

    result = same(run)
    assert result[1][3] is False  # no longer a leaf


def test_inplace_chain_matches_torch_with_many_ops():
    def run(lib):
        x = lib.tensor([0.5, 1.0, 1.5], requires_grad=True)
        w = lib.tensor([2.0, -1.0, 0.5], requires_grad=True)
        y = x.exp()
        y = y * 1  # a fresh tensor: exp's saved result stays untouched
        y.mul_(w)
        y.sub_(x, alpha=2)
        y.div_(lib.tensor([1.0, 2.0, 4.0]))
        y.pow_(2)
        y.clamp_(max=3.0)
        y.sum().backward()
        return x.grad, w.grad, y

    same(run)


# --------------------------------------------------------------------------- CopySlices


def test_setitem_gradients():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.clone()
        y[0] = x[1] * 5
        y.sum().backward()
        return x.grad, type(y.grad_fn).__name__, y._version

    result = same(run)
    assert result[0][1] == [0.0, 6.0, 1.0] and result[1] == "CopySlices"


def test_setitem_2d_slices_and_rows():
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        y = x * 1
        y[:, 0] = 0
        y[1] = lib.tensor([7.0, 8.0])
        (y * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return x.grad, y

    same(run)


def test_setitem_value_requires_grad():
    def run(lib):
        base = lib.zeros(2, 3)
        v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        base[1] = v * 2
        (base * base).sum().backward()
        return v.grad, base

    same(run)


def test_setitem_with_mask_and_index_list():
    def run(lib):
        x = lib.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
        y = x * 2
        y[y < 0] = 0.0
        y[[0, 2]] = y[[0, 2]] * 3
        y.sum().backward()
        return x.grad, y

    same(run)


# --------------------------------------------------------------------------- versions, detach, .data


def test_version_counts_match_torch():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0])
        versions = [x._version]
        for step in (
            lambda: x.add_(1),
            lambda: x.__setitem__(0, 5.0),
            lambda: x.__iadd__(1),
            lambda: x.zero_(),
            lambda: x.fill_(2.0),
            lambda: x.copy_(lib.ones(3)),
            lambda: x.clamp_(0, 1),
            lambda: x.mul_(2),
        ):
            step()
            versions.append(x._version)
        y = x + 1
        return versions, y._version

    assert same(run) == ([0, 1, 2, 3, 4, 5, 6, 7, 8], 0)


def test_detach_shares_storage_and_version():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        d = x.detach()
        d.add_(1)
        d[0] = 10.0
        return x, x._version, d._version, d.requires_grad, d.is_leaf

    assert same(run)[1:3] == (2, 2)


def test_data_shares_storage_but_not_version():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        d = x.data
        d.add_(1)
        return x, x._version, d._version, d.requires_grad

    assert same(run)[1:] == (0, 1, False)


def test_data_inplace_is_invisible_to_autograd():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.exp()
        y.data.mul_(0)  # not tracked: backward silently uses the changed values
        y.sum().backward()
        return x.grad

    assert same(run)[1] == [0.0, 0.0, 0.0]


def test_data_assignment_replaces_values():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.data = lib.tensor([5.0, 6.0])
        (x * x).sum().backward()
        return x, x.grad, x.is_leaf

    same(run)


def test_detach_inplace_cuts_from_graph():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        out = y.detach_()
        assert out is y
        return y, y.grad_fn

    assert same(run)[1] is None


def test_grad_buffer_inplace_zero():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        x.grad.zero_()
        (x * 3).sum().backward()
        return x.grad

    assert same(run)[1] == [3.0, 3.0]
