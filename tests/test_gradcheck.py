"""Finite differences agree with every derivative rule, first and second order (float64).

Every case of the shared table whose inputs stay away from kinks (``smooth``) and whose output
is differentiable goes through ``minigrad.autograd.gradcheck`` and ``gradgradcheck``. The last
tests make sure the checkers themselves notice wrong derivatives.
"""

from __future__ import annotations

import pytest
from helpers_torch import CASES, tensors

import minigrad
from minigrad.autograd import GradcheckError, gradcheck, gradgradcheck

# Every check runs on each device: on_device makes the factories create the inputs there.
pytestmark = pytest.mark.usefixtures("on_device")


def _is_differentiable(case) -> bool:
    arrays = case.arrays("float64")
    inputs = tensors(arrays, case.requires(arrays), minigrad)
    out = case.fn(minigrad, *inputs)
    outs = out if isinstance(out, tuple | list) else (out,)
    return any(isinstance(o, minigrad.Tensor) and o.requires_grad for o in outs)


_SMOOTH = [c for c in CASES if c.smooth and _is_differentiable(c)]
_BY_ID = {c.id: c for c in _SMOOTH}


def _inputs(case):
    arrays = case.arrays("float64")
    inputs = tensors(arrays, case.requires(arrays), minigrad)
    assert all(t.device == minigrad.get_default_device() for t in inputs)
    return inputs


def _function(case):
    return lambda *xs: case.fn(minigrad, *xs)


@pytest.mark.parametrize("case_id", list(_BY_ID))
def test_gradcheck(case_id):
    case = _BY_ID[case_id]
    assert gradcheck(_function(case), _inputs(case), eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("case_id", list(_BY_ID))
def test_gradgradcheck(case_id):
    case = _BY_ID[case_id]
    assert gradgradcheck(_function(case), _inputs(case), eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("device", ["cpu"])  # about the table, not a device
def test_table_is_mostly_checked():
    """Most differentiable cases are smooth; losing them would silently weaken this file."""
    assert len(_SMOOTH) > 250
    prefixes = "add_op div_op pow_op rpow rsub matmul_op norm_ clamp_tensor index_ setitem_ inplace_ softmax log_softmax cat_ stack_ where_"
    for prefix in prefixes.split():
        assert any(c.id.startswith(prefix) for c in _SMOOTH), prefix


# ----------------------------------------------------------------------------------------------
# The checkers catch wrong derivatives.
# ----------------------------------------------------------------------------------------------


class _CubeWrongFirst(minigrad.autograd.Function):
    """x**3 whose backward forgets the factor 3."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x * x


class _CubeWrongSecond(minigrad.autograd.Function):
    """x**3 with a right first derivative that is a constant for autograd (detached)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x.detach() ** 2


def _x():
    return minigrad.tensor([0.5, -1.25, 2.0], dtype=minigrad.float64, requires_grad=True)


def test_gradcheck_catches_a_wrong_first_derivative():
    with pytest.raises(GradcheckError):
        gradcheck(_CubeWrongFirst.apply, (_x(),))
    assert gradcheck(_CubeWrongFirst.apply, (_x(),), raise_exception=False) is False


def test_gradgradcheck_catches_a_wrong_second_derivative():
    assert gradcheck(_CubeWrongSecond.apply, (_x(),))
    with pytest.raises(GradcheckError):
        gradgradcheck(_CubeWrongSecond.apply, (_x(),))
    assert gradgradcheck(lambda x: x**3, (_x(),))


def test_gradcheck_flags_a_kink():
    """At relu's kink the rule says 0 and the central difference 1/2."""
    x = minigrad.tensor([0.0, 1.0], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(lambda t: t.relu(), (x,), raise_exception=False) is False


def test_messages_are_pytorchs():
    """The Jacobians in the message print as tensors, and the no-input message reads as PyTorch's."""
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (minigrad, torch):

        class Wrong(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 3

        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        with pytest.raises(Exception) as mismatch:
            lib.autograd.gradcheck(Wrong.apply, (x,))
        with pytest.raises(ValueError) as no_input:
            lib.autograd.gradcheck(lambda t: t * 2, (x.detach(),))
        messages.append((str(mismatch.value), str(no_input.value)))
    (mismatch, no_input), (their_mismatch, their_no_input) = messages
    assert no_input == their_no_input
    assert mismatch.splitlines()[0] == their_mismatch.splitlines()[0]
    assert "analytical:tensor([[3., 0.],\n        [0., 3.]], dtype=torch.float64)" in mismatch
    assert "analytical:tensor([[3., 0.],\n        [0., 3.]], dtype=torch.float64)" in their_mismatch
