"""``autograd.grad`` and ``backward(inputs=...)`` compute only the gradients asked for.

PyTorch's nodes skip the formula of an input whose edge leads to nothing that was asked for, but
unpack everything they saved first (once each). Observable: a formula PyTorch cannot compute
(``zeta``'s first argument) does not stop a gradient with respect to the other; node hooks get
None for the skipped edges; saved tensor unpack hooks run once per saved tensor; an in-place
change of a saved tensor raises even when only the other input's gradient is wanted.
"""

import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (torch, minigrad)


def both(fn):
    """``fn(torch)`` and ``fn(minigrad)``, which must be equal."""
    theirs, ours = fn(torch), fn(minigrad)
    assert ours == theirs
    return ours


def test_a_formula_that_cannot_run_is_not_run_when_not_asked_for():
    def run(lib):
        x = lib.tensor([2.0, 3.0, 4.0], requires_grad=True)
        q = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = lib.special.zeta(x, q).sum()
        grad_q = lib.autograd.grad(y, q, retain_graph=True)[0]
        with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented"):
            lib.autograd.grad(y, x, retain_graph=True)
        y.backward(inputs=[q])
        return [round(v, 5) for v in grad_q.tolist()], x.grad, [round(v, 5) for v in q.grad.tolist()]

    both(run)


def test_node_hooks_see_none_for_the_edges_not_asked_for():
    def run(lib):
        a = lib.ones(3, requires_grad=True)
        b = lib.full((3,), 2.0, requires_grad=True)
        y = (a * 2) * (b * 3)
        seen = []
        y.grad_fn.register_hook(lambda grad_inputs, _: seen.append([g is not None for g in grad_inputs]))
        lib.autograd.grad(y.sum(), a, retain_graph=True)
        lib.autograd.grad(y.sum(), [a, b], retain_graph=True)
        lib.autograd.grad(y.sum(), b, retain_graph=True)
        y.sum().backward(inputs=[a], retain_graph=True)
        y.sum().backward()
        return seen, a.grad.tolist(), b.grad.tolist()

    both(run)


@pytest.mark.parametrize(
    "formula",
    [
        lambda lib, a, b: a / b,
        lambda lib, a, b: a * b,
        lambda lib, a, b: a**b,
        lambda lib, a, b: lib.atan2(a, b),
        lambda lib, a, b: lib.sigmoid(a) * lib.exp(b),
        lambda lib, a, b: lib.stack([a, b]).prod(0),
    ],
    ids=["div", "mul", "pow", "atan2", "sigmoid-exp", "stack-prod"],
)
@pytest.mark.parametrize("asked", ["backward", "grad a", "grad b", "inputs b"])
def test_unpack_hooks_run_once_per_saved_tensor(formula, asked):
    def run(lib):
        a = lib.tensor([1.5, 2.0], requires_grad=True)
        b = lib.tensor([0.5, 3.0], requires_grad=True)
        unpacked = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: unpacked.append(t.shape) or t):
            y = formula(lib, a, b).sum()
        if asked == "backward":
            y.backward()
        elif asked == "inputs b":
            y.backward(inputs=[b])
        else:
            lib.autograd.grad(y, a if asked == "grad a" else b)
        return len(unpacked)

    both(run)


@pytest.mark.parametrize("which", ["a", "b"])
def test_a_saved_tensor_changed_in_place_raises_though_its_formula_is_skipped(which):
    def run(lib):
        a, b = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
        a2, b2 = a * 1, b * 1
        y = (a2 * b2).sum()
        b2.add_(1)  # saved for a's gradient only
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            lib.autograd.grad(y, a if which == "a" else b)
        return True

    both(run)


def test_hessian_of_a_function_with_an_unused_cross_term():
    def run(lib):
        x = lib.tensor([0.5, 1.5], dtype=lib.float64)
        q = lib.tensor([2.0, 3.0], dtype=lib.float64)
        h = lib.autograd.functional.hessian(lambda q: lib.special.zeta(x + 2.0, q).sum() + (q**3).sum(), q)
        return [[round(v, 8) for v in row] for row in h.tolist()]

    both(run)
