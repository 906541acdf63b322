"""Every differentiable operation against real PyTorch: values, dtype, shape, grad_fn, gradients.

Each case in ``helpers_torch.CASES`` runs the same code in both libraries on the same inputs and
compares the outputs, the name of the backward node, the gradients for a random upstream
gradient, and second derivatives (``create_graph=True``).
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from helpers_torch import (  # noqa: E402
    CASES,
    assert_close,
    compare,
    grad_fn_name,
    make_array,
    rng_for,
    to_numpy,
    torch_device,
)

import minigrad  # noqa: E402

# Cases at singular points (log(0), x / 0) give inf/nan in both; NumPy also warns, PyTorch doesn't.
pytestmark = pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning", "ignore:invalid value:RuntimeWarning")

_BY_ID = {c.id: c for c in CASES}
# Float32 runs first derivatives only, on the cases whose inputs are all floating.
_FLOAT32 = [c.id for c in CASES if all(len(s) == 2 and s[1] not in ("int", "bool") for s in c.inputs)]


@pytest.mark.parametrize("case_id", list(_BY_ID))
def test_float64_matches_torch(case_id, device):
    compare(_BY_ID[case_id], "float64", device=device)


@pytest.mark.parametrize("case_id", _FLOAT32)
def test_float32_matches_torch(case_id, device):
    compare(_BY_ID[case_id], "float32", second=False, device=device)


def test_case_table_covers_the_brief():
    """Guard against the table silently losing an operation."""
    wanted = (
        "add sub mul div pow matmul rsub rdiv rpow neg abs exp log sqrt sin cos tanh sigmoid relu clamp "
        "maximum minimum where sum mean max min norm mm mv dot reshape view t_ transpose permute squeeze "
        "unsqueeze expand flatten T_2d index cat stack softmax log_softmax cmp_ clone to_ double inplace_add "
        "inplace_sub inplace_mul inplace_div inplace_zero inplace_fill inplace_clamp inplace_copy setitem "
        "inplace_augmented"
    ).split()
    missing = [w for w in wanted if not any(c.id.startswith(w) for c in CASES)]
    assert not missing
    assert len(_FLOAT32) > 250


# ----------------------------------------------------------------------------------------------
# In-place operations: version counters, saved-tensor checks, views.
# ----------------------------------------------------------------------------------------------

_VERSION_OPS = {
    "add_": lambda z, y: z.add_(y),
    "sub_": lambda z, y: z.sub_(y, alpha=2),
    "mul_": lambda z, y: z.mul_(y),
    "div_": lambda z, y: z.div_(y + 3),
    "zero_": lambda z, y: z.zero_(),
    "fill_": lambda z, y: z.fill_(1.5),
    "clamp_": lambda z, y: z.clamp_(-0.1, 0.1),
    "copy_": lambda z, y: z.copy_(y),
    "setitem": lambda z, y: z.__setitem__(0, y),
    "iadd": lambda z, y: z.__iadd__(y),
    "isub": lambda z, y: z.__isub__(y),
    "imul": lambda z, y: z.__imul__(y),
    "itruediv": lambda z, y: z.__itruediv__(y + 3),
}


def _both(arrays, requires_grad=True, device="cpu"):
    m = [minigrad.tensor(a.copy(), requires_grad=requires_grad, device=device) for a in arrays]
    t = [torch.tensor(a.copy(), requires_grad=requires_grad, device=torch_device(device)) for a in arrays]
    return m, t


def _on(lib, device: str) -> str:
    """The device ``lib`` computes on in a test run on ``device``."""
    return device if lib is minigrad else torch_device(device)


@pytest.mark.parametrize("name", list(_VERSION_OPS))
def test_inplace_bumps_version_like_torch(name, device):
    rng = rng_for("version/" + name)
    arrays = [make_array(rng, (3, 4)), make_array(rng, (4,), "pos")]
    (mx, my), (tx, ty) = _both(arrays, device=device)
    op = _VERSION_OPS[name]
    versions = []
    for lib_x, lib_y in ((mx, my), (tx, ty)):
        z = lib_x * 2
        view = z[1]  # a view shares the version counter of its base
        before = (z._version, view._version, lib_x._version)
        op(z, lib_y)
        op(z, lib_y)
        versions.append((before, (z._version, view._version, lib_x._version)))
    assert versions[0] == versions[1]
    assert versions[0][1][0] == versions[0][0][0] + 2


@pytest.mark.parametrize("name", list(_VERSION_OPS))
def test_inplace_gradient_flows_like_torch(name, device):
    """The in-place op twice in a row on a non-leaf, then more math, then backward."""
    rng = rng_for("flow/" + name)
    arrays = [make_array(rng, (3, 4)), make_array(rng, (4,), "pos")]
    upstream = make_array(rng, (3, 4))
    (mx, my), (tx, ty) = _both(arrays, device=device)
    op = _VERSION_OPS[name]
    outs = []
    for lib, x, y in ((minigrad, mx, my), (torch, tx, ty)):
        z = x.sin()
        op(z, y)
        op(z, y * 0.5)
        out = z * x
        out.backward(lib.tensor(upstream, device=_on(lib, device)))
        outs.append(out)
    assert_close(outs[0], outs[1], device=device)
    assert grad_fn_name(outs[0]) == grad_fn_name(outs[1])
    assert_close(mx.grad, tx.grad, what="x.grad", device=device)
    assert (my.grad is None) == (ty.grad is None)
    if ty.grad is not None:
        assert_close(my.grad, ty.grad, what="y.grad", device=device)


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x.exp(),  # saves its result
        lambda x: x.sigmoid(),
        lambda x: x * 2,  # does not save x * 2 for its own backward, but mul below saves it
    ],
    ids=["exp", "sigmoid", "mul"],
)
def test_modifying_a_saved_tensor_fails_in_both(make, device):
    rng = rng_for("saved")
    (mx,), (tx,) = _both([make_array(rng, (3,))], device=device)
    for x in (mx, tx):
        y = make(x)
        out = y * y
        y.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()


def test_modifying_an_unsaved_tensor_is_fine_in_both(device):
    (mx,), (tx,) = _both([np.array([0.5, -1.0, 2.0])], device=device)
    grads = []
    for x in (mx, tx):
        y = x + 1  # add saves nothing
        out = y * 3  # mul by a number saves nothing about y
        y.mul_(10)
        out.sum().backward()
        grads.append(x.grad)
    assert_close(grads[0], grads[1], device=device)


def test_inplace_on_leaf_requiring_grad_fails_in_both(device):
    (mx,), (tx,) = _both([np.array([1.0, 2.0])], device=device)
    for x in (mx, tx):
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            x.add_(1)


def test_inplace_on_leaf_under_no_grad_bumps_version_in_both(device):
    (mx,), (tx,) = _both([np.array([1.0, 2.0])], device=device)
    with minigrad.no_grad():
        mx.mul_(2)
        mx[0] = 5.0
    with torch.no_grad():
        tx.mul_(2)
        tx[0] = 5.0
    assert mx._version == tx._version
    assert mx.grad_fn is None and mx.requires_grad
    assert_close(mx.detach(), tx.detach(), device=device)


def test_inplace_makes_leaf_without_grad_part_of_graph_like_torch(device):
    """``z.mul_(w)`` on a tensor that needs no grad, with ``w`` that does."""
    rng = rng_for("adopt")
    arrays = [make_array(rng, (3,)), make_array(rng, (3,))]
    (mz,), (tz,) = _both(arrays[:1], requires_grad=False, device=device)
    (mw,), (tw,) = _both(arrays[1:], device=device)
    mz.mul_(mw)
    tz.mul_(tw)
    assert mz.requires_grad and tz.requires_grad
    assert grad_fn_name(mz) == grad_fn_name(tz)
    mz.sum().backward()
    tz.sum().backward()
    assert_close(mw.grad, tw.grad, device=device)


def test_comparisons_return_bool_without_graph(device):
    (mx, my), (tx, ty) = _both([np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])], device=device)
    for a, b, lib in ((mx, my, minigrad), (tx, ty, torch)):
        for result in (a == b, a != b, a < b, a <= b, a > b, a >= b, a > 2, 2 > a):
            assert result.dtype is lib.bool and result.device == a.device
            assert not result.requires_grad and result.grad_fn is None


def test_second_derivative_of_composite_matches_torch(device):
    """A Hessian-vector product through several ops at once."""
    rng = rng_for("hvp")
    arrays = [make_array(rng, (4, 3)), make_array(rng, (3,)), make_array(rng, (4, 3))]
    (mx, mb, mv), (tx, tb, tv) = _both(arrays, device=device)
    results = []
    for lib, x, b, v in ((minigrad, mx, mb, mv), (torch, tx, tb, tv)):
        y = ((x @ b).tanh() * x.sum(1)).sigmoid().log_softmax(0).sum() + (x.norm(dim=1) ** 3).mean()
        (gx, gb) = lib.autograd.grad(y, (x, b), create_graph=True)
        hvp = lib.autograd.grad((gx * v).sum() + gb.sum(), (x, b, v), allow_unused=True)
        results.append([gx, gb, *hvp])
    for k, (m, t) in enumerate(zip(*results)):
        if t is None:
            assert m is None or not to_numpy(m).any()
            continue
        assert_close(m, t, what=f"result {k}", device=device)


def test_third_derivative_matches_torch(device):
    (mx,), (tx,) = _both([np.array([0.3, -1.2, 2.0])], device=device)
    outs = []
    for lib, x in ((minigrad, mx), (torch, tx)):
        y = (x.sin() * x.exp() + x**4).sum()
        (g1,) = lib.autograd.grad(y, x, create_graph=True)
        (g2,) = lib.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = lib.autograd.grad(g2.sum(), x)
        outs.append((g1, g2, g3))
    for m, t in zip(*outs):
        assert_close(m, t, device=device)


def test_accumulation_over_two_backwards_matches_torch(device):
    (mx, my), (tx, ty) = _both([np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.2, 0.3])], device=device)
    for x, y in ((mx, my), (tx, ty)):
        out = (x * y).exp().sum()
        out.backward(retain_graph=True)
        out.backward()
        (x * x).sum().backward()
    assert_close(mx.grad, tx.grad, device=device)
    assert_close(my.grad, ty.grad, device=device)


@pytest.mark.parametrize("order", ["ancestor_first", "descendant_first"])
def test_grad_of_several_outputs_where_one_feeds_another(order, device):
    """Regression: with inputs given, a root lying below another root used to be skipped."""
    (mx,), (tx,) = _both([np.array([-0.5, 2.0])], device=device)
    results = []
    for lib, x in ((minigrad, mx), (torch, tx)):
        y1 = x.abs()
        y2 = y1 * y1.exp()
        on = _on(lib, device)
        g1 = lib.tensor([1.0, 2.0], dtype=lib.float64, device=on)
        g2 = lib.tensor([10.0, -3.0], dtype=lib.float64, device=on)
        outs, grads = ([y1, y2], [g1, g2]) if order == "ancestor_first" else ([y2, y1], [g2, g1])
        (gx,) = lib.autograd.grad(outs, x, grads, retain_graph=True)
        lib.autograd.backward(outs, grads, inputs=[x])
        results.append((gx, x.grad))
    assert_close(results[0][0], results[1][0], device=device)
    assert_close(results[0][1], results[1][1], device=device)
