"""The margin, ranking and likelihood losses (functions and modules) against PyTorch: values,
dtypes, gradients, second derivatives, recorded nodes, every reduction, broadcasting, the
target rules, errors and warnings.

margin_ranking, hinge_embedding, multilabel_soft_margin, cosine_embedding, the triplet losses,
poisson_nll and gaussian_nll are composites in PyTorch, so their graphs are chains of elementary
nodes; soft_margin, multi_margin and multilabel_margin are kernels with a node of their own (the
last two cannot be differentiated twice).
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

pytestmark = pytest.mark.usefixtures("on_device")

REDUCTIONS = ["none", "mean", "sum"]


def _array(shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def _leaf(lib, shape, seed: int = 0, dtype: str = "float64", positive: bool = False):
    a = _array(shape, seed)
    return lib.tensor(np.abs(a) + 0.2 if positive else a, dtype=getattr(lib, dtype), requires_grad=True)


def _signs(lib, shape, seed: int = 0, dtype: str = "float64"):
    return lib.tensor(np.where(_array(shape, seed) > 0, 1.0, -1.0), dtype=getattr(lib, dtype))


def _labels(lib, rows):
    return lib.tensor(rows)


def _edges(node) -> list:
    return [node.name().replace("torch::autograd::", "")] + [
        None if n is None else n.name().replace("torch::autograd::", "") for n, _ in node.next_functions
    ]


def F(lib):
    return lib.nn.functional


# ---------------------------------------------------------------------------------------------- cases
# name: case(lib, dtype, reduction) -> (loss, the inputs to differentiate, second derivatives?)
def _margin_ranking(lib, dt, red):
    x1, x2, y = _leaf(lib, (5,), 0, dt), _leaf(lib, (5,), 1, dt), _leaf(lib, (5,), 2, dt)  # the target too
    return F(lib).margin_ranking_loss(x1, x2, y, margin=0.3, reduction=red), [x1, x2, y], True


def _margin_ranking_broadcast(lib, dt, red):
    x1, x2 = _leaf(lib, (4, 1), 0, dt), _leaf(lib, (1, 3), 1, dt)
    return F(lib).margin_ranking_loss(x1, x2, _signs(lib, (4, 3), 2, dt), reduction=red), [x1, x2], True


def _hinge(lib, dt, red):
    x = _leaf(lib, (6,), 0, dt)
    return F(lib).hinge_embedding_loss(x, _signs(lib, (6,), 1, dt), margin=0.5, reduction=red), [x], True


def _hinge_other_targets(lib, dt, red):
    """Targets other than 1 and -1 add both parts; an int target broadcasts over the rows."""
    x = _leaf(lib, (2, 4), 0, dt)
    return F(lib).hinge_embedding_loss(x, lib.tensor([1, -1, 0, 2]), reduction=red), [x], True


def _soft_margin(lib, dt, red):
    x = _leaf(lib, (6,), 0, dt)
    return F(lib).soft_margin_loss(x * 2, _signs(lib, (6,), 1, dt), reduction=red), [x], True


def _soft_margin_broadcast(lib, dt, red):
    x = _leaf(lib, (3, 4), 0, dt)
    return F(lib).soft_margin_loss(x, lib.tensor([1, -1, -1, 1]), reduction=red), [x], True


def _multilabel_soft_margin(lib, dt, red):
    x = _leaf(lib, (3, 4), 0, dt)
    target = lib.tensor((_array((3, 4), 1) > 0).astype(float), dtype=getattr(lib, dt))
    return F(lib).multilabel_soft_margin_loss(x, target, reduction=red), [x], True


def _multilabel_soft_margin_weight(lib, dt, red):
    """The composite differentiates the weight and a soft target too."""
    x, w, t = _leaf(lib, (2, 3, 4), 0, dt), _leaf(lib, (4,), 1, dt, True), _leaf(lib, (2, 3, 4), 2, dt)
    return F(lib).multilabel_soft_margin_loss(x, t.sigmoid(), weight=w, reduction=red), [x, w, t], True


def _multilabel_soft_margin_1d(lib, dt, red):
    x = _leaf(lib, (4,), 0, dt)
    return F(lib).multilabel_soft_margin_loss(x, lib.tensor([1, 0, 0, 1]), reduction=red), [x], True


def _cosine_embedding(lib, dt, red):
    x1, x2 = _leaf(lib, (4, 3), 0, dt), _leaf(lib, (4, 3), 1, dt)
    y = lib.tensor([1, -1, 1, -1])
    return F(lib).cosine_embedding_loss(x1, x2, y, margin=-0.2, reduction=red), [x1, x2], True


def _cosine_embedding_1d(lib, dt, red):
    x1, x2 = _leaf(lib, (3,), 0, dt), _leaf(lib, (3,), 1, dt)
    return F(lib).cosine_embedding_loss(x1, x2, lib.tensor(-1.0), margin=-0.5, reduction=red), [x1, x2], True


def _cosine_embedding_broadcast(lib, dt, red):
    x1, x2 = _leaf(lib, (1, 3), 0, dt), _leaf(lib, (4, 3), 1, dt)
    return F(lib).cosine_embedding_loss(x1, x2, lib.tensor([1.0]), reduction=red), [x1, x2], True


def _triplet(lib, dt, red):
    a, p, n = (_leaf(lib, (4, 3), k, dt) for k in range(3))
    return F(lib).triplet_margin_loss(a, p, n, margin=2.0, reduction=red), [a, p, n], True


def _triplet_swap_p1(lib, dt, red):
    a, p, n = (_leaf(lib, (4, 3), k, dt) for k in range(3))
    return F(lib).triplet_margin_loss(a, p, n, margin=1.5, p=1, eps=1e-3, swap=True, reduction=red), [a, p, n], True


def _triplet_3d(lib, dt, red):
    a, p, n = _leaf(lib, (2, 3, 4), 0, dt), _leaf(lib, (1, 3, 4), 1, dt), _leaf(lib, (2, 3, 4), 2, dt)
    return F(lib).triplet_margin_loss(a, p, n, margin=3.0, p=3, swap=True, reduction=red), [a, p, n], True


def _triplet_with_distance(lib, dt, red):
    a, p, n = (_leaf(lib, (4, 3), k, dt) for k in range(3))
    loss = F(lib).triplet_margin_with_distance_loss(a, p, n, margin=2.0, swap=True, reduction=red)
    return loss, [a, p, n], True


def _triplet_with_cosine_distance(lib, dt, red):
    a, p, n = (_leaf(lib, (4, 3), k, dt) for k in range(3))

    def distance(x, y):
        return 1.0 - F(lib).cosine_similarity(x, y)

    loss = F(lib).triplet_margin_with_distance_loss(a, p, n, distance_function=distance, margin=0.8, reduction=red)
    return loss, [a, p, n], True


def _poisson(lib, dt, red):
    x, t = _leaf(lib, (3, 4), 0, dt), _leaf(lib, (3, 4), 1, dt, True)
    return F(lib).poisson_nll_loss(x, t, reduction=red), [x, t], True


def _poisson_full(lib, dt, red):
    """The Stirling term where the target is above 1, 0 elsewhere."""
    x, t = _leaf(lib, (3, 4), 0, dt, True), _leaf(lib, (3, 4), 1, dt, True)
    return F(lib).poisson_nll_loss(x, t * 2, log_input=False, full=True, eps=0.01, reduction=red), [x, t], True


def _poisson_full_log_input_broadcast(lib, dt, red):
    x, t = _leaf(lib, (3, 4), 0, dt), _leaf(lib, (4,), 1, dt, True)
    return F(lib).poisson_nll_loss(x, t * 3, full=True, reduction=red), [x, t], True


def _gaussian(lib, dt, red):
    x, t, v = _leaf(lib, (4, 3), 0, dt), _leaf(lib, (4, 3), 1, dt), _leaf(lib, (4, 3), 2, dt, True)
    return F(lib).gaussian_nll_loss(x, t, v, reduction=red), [x, t, v], True


def _gaussian_full_last_dim_missing(lib, dt, red):
    x, t, v = _leaf(lib, (4, 3), 0, dt), _leaf(lib, (4, 3), 1, dt), _leaf(lib, (4,), 2, dt, True)
    return F(lib).gaussian_nll_loss(x, t, v, full=True, reduction=red), [x, t, v], True


def _gaussian_one_shared_dim(lib, dt, red):
    x, t, v = _leaf(lib, (2, 3, 4), 0, dt), _leaf(lib, (3, 4), 1, dt), _leaf(lib, (2, 1, 4), 2, dt, True)
    return F(lib).gaussian_nll_loss(x, t, v, reduction=red), [x, t, v], True


def _gaussian_float_var(lib, dt, red):
    x, t = _leaf(lib, (4, 3), 0, dt), _leaf(lib, (4, 3), 1, dt)
    return F(lib).gaussian_nll_loss(x, t, 0.7, full=True, reduction=red), [x, t], True


def _gaussian_var_below_eps(lib, dt, red):
    """The clamp is done in place outside autograd: the gradient flows to var as if unclamped."""
    x, t = _leaf(lib, (4,), 0, dt), _leaf(lib, (4,), 1, dt)
    v = lib.tensor([0.0, 1e-4, 0.5, 2.0], dtype=getattr(lib, dt), requires_grad=True)
    return F(lib).gaussian_nll_loss(x, t, v, eps=1e-3, reduction=red), [x, t, v], True


def _multi_margin(lib, dt, red):
    x = _leaf(lib, (4, 5), 0, dt)
    return F(lib).multi_margin_loss(x, lib.tensor([0, 4, 2, 2]), reduction=red), [x], False


def _multi_margin_p2_weight(lib, dt, red):
    x = _leaf(lib, (4, 5), 0, dt)
    w = lib.tensor([1.0, 0.5, 2.0, 3.0, 0.25], dtype=getattr(lib, dt))
    loss = F(lib).multi_margin_loss(x, lib.tensor([0, 4, 2, 2]), p=2, margin=0.6, weight=w, reduction=red)
    return loss, [x], False


def _multi_margin_1d(lib, dt, red):
    x = _leaf(lib, (5,), 0, dt)
    return F(lib).multi_margin_loss(x, lib.tensor(3), margin=2, reduction=red), [x], False


def _multi_margin_1d_target(lib, dt, red):
    """A 1-element target keeps its dim with reduction='none'."""
    x = _leaf(lib, (5,), 0, dt)
    return F(lib).multi_margin_loss(x, lib.tensor([1]), reduction=red), [x], False


def _multilabel_margin(lib, dt, red):
    x = _leaf(lib, (4, 5), 0, dt)
    labels = [[0, 3, -1, 2, 2], [4, 4, 1, -1, 0], [-1, 0, 1, 2, 3], [0, 1, 2, 3, 4]]  # repeats count twice
    return F(lib).multilabel_margin_loss(x, _labels(lib, labels), reduction=red), [x], False


def _multilabel_margin_1d(lib, dt, red):
    x = _leaf(lib, (4,), 0, dt)
    return F(lib).multilabel_margin_loss(x, _labels(lib, [2, 0, -1, 3]), reduction=red), [x], False


CASES = {
    "margin_ranking": _margin_ranking,
    "margin_ranking broadcast": _margin_ranking_broadcast,
    "hinge_embedding": _hinge,
    "hinge_embedding other targets": _hinge_other_targets,
    "soft_margin": _soft_margin,
    "soft_margin broadcast target": _soft_margin_broadcast,
    "multilabel_soft_margin": _multilabel_soft_margin,
    "multilabel_soft_margin weight, soft target": _multilabel_soft_margin_weight,
    "multilabel_soft_margin 1-D": _multilabel_soft_margin_1d,
    "cosine_embedding": _cosine_embedding,
    "cosine_embedding 1-D": _cosine_embedding_1d,
    "cosine_embedding broadcast": _cosine_embedding_broadcast,
    "triplet_margin": _triplet,
    "triplet_margin swap p=1": _triplet_swap_p1,
    "triplet_margin 3-D p=3": _triplet_3d,
    "triplet_margin_with_distance": _triplet_with_distance,
    "triplet_margin_with_distance cosine": _triplet_with_cosine_distance,
    "poisson_nll": _poisson,
    "poisson_nll full": _poisson_full,
    "poisson_nll full log_input broadcast": _poisson_full_log_input_broadcast,
    "gaussian_nll": _gaussian,
    "gaussian_nll full, last dim missing": _gaussian_full_last_dim_missing,
    "gaussian_nll one shared dim": _gaussian_one_shared_dim,
    "gaussian_nll float var": _gaussian_float_var,
    "gaussian_nll var below eps": _gaussian_var_below_eps,
    "multi_margin": _multi_margin,
    "multi_margin p=2 weight": _multi_margin_p2_weight,
    "multi_margin 1-D": _multi_margin_1d,
    "multi_margin 1-D target": _multi_margin_1d_target,
    "multilabel_margin": _multilabel_margin,
    "multilabel_margin 1-D": _multilabel_margin_1d,
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", CASES)
def test_values_nodes_gradients_and_secondderivatives(name, reduction):
    def run(lib):
        out, inputs, second = CASES[name](lib, "float64", reduction)
        return derivatives(lib, out, inputs, second)

    same(run)


@pytest.mark.parametrize("name", CASES)
def test_float32_values_and_gradients(name):
    def run(lib):
        out, inputs, _ = CASES[name](lib, "float32", "mean")
        return derivatives(lib, out, inputs, second=False)

    same(run)


# ---------------------------------------------------------------------------------------------- kernels
def test_soft_margin_backward_is_a_node_of_its_own_whose_rules_give_secondderivatives():
    def run(lib):
        x = _leaf(lib, (5,))
        grad = lib.autograd.grad(F(lib).soft_margin_loss(x, _signs(lib, (5,), 1)), x, create_graph=True)[0]
        return _edges(grad.grad_fn), lib.autograd.grad(grad.sum(), x)[0]

    same(run)


def test_soft_margin_overflows_as_pytorchs_kernel():
    """exp(-target * input) is computed as is: inf past float32's range, and a NaN gradient there."""

    def run(lib):
        x = lib.tensor([-1000.0, 1000.0, 50.0, 0.0], requires_grad=True)
        loss = F(lib).soft_margin_loss(x, lib.ones(4), reduction="none")
        return loss, lib.autograd.grad(loss.sum(), x)[0]

    same(run)


@pytest.mark.parametrize("name", ["multi_margin", "multilabel_margin"])
def test_the_margin_kernels_cannot_be_differentiated_twice(name):
    def first(lib):
        x = _leaf(lib, (3, 4))
        target = lib.tensor([0, 3, 1]) if name == "multi_margin" else lib.tensor([[0, -1, 0, 0]] * 3)
        loss = getattr(F(lib), f"{name}_loss")(x, target)
        return x, lib.autograd.grad(loss, x, create_graph=True)[0]

    def run(lib):
        grad = first(lib)[1]
        return node_names(grad), grad

    same(run)

    def second(lib):
        x, grad = first(lib)
        lib.autograd.grad(grad.sum(), x)

    same_error(second, f"derivative for aten::{name}_loss_backward is not implemented")


def test_the_kernels_record_one_node_with_one_edge():
    def run(lib):
        x = _leaf(lib, (3, 4))
        return [
            _edges(F(lib).soft_margin_loss(x, lib.ones(3, 4)).grad_fn),
            _edges(F(lib).multi_margin_loss(x, lib.tensor([0, 1, 2])).grad_fn),
            _edges(F(lib).multilabel_margin_loss(x, lib.tensor([[0, -1, 0, 0]] * 3)).grad_fn),
        ]

    same(run)


def test_a_target_changed_in_place_after_the_loss_keeps_the_forward_gradient():
    """PyTorch saved the target and raises; minigrad kept a copy (a documented difference)."""

    def losses(lib, change: bool):
        x = _leaf(lib, (3, 4))
        target, labels = lib.ones(3, 4), lib.tensor([0, 1, 2])
        made = [F(lib).soft_margin_loss(x, target), F(lib).multi_margin_loss(x, labels)]
        if change:
            with lib.no_grad():
                target.mul_(-1)
                labels.fill_(3)
        return x, made

    x, made = losses(torch, change=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        torch.autograd.grad(made[0], x)
    ours = losses(minigrad, change=True)
    theirs = losses(torch, change=False)
    for mine, pytorchs in zip(ours[1], theirs[1]):
        expected = torch.autograd.grad(pytorchs, theirs[0])[0]
        assert values(minigrad.autograd.grad(mine, ours[0])[0]) == values(expected)


# ---------------------------------------------------------------------------------------------- dtypes
def test_integer_and_float_target_rules():
    def run(lib):
        x32 = lib.tensor([0.5, -1.0, 2.0])
        x2d = lib.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -2.0]])
        return [
            F(lib).soft_margin_loss(x32, lib.tensor([1, -1, 1])),  # int target: the input's dtype
            F(lib).soft_margin_loss(x32, lib.tensor([1.0, -1.0, 1.0], dtype=lib.float64)),
            F(lib).soft_margin_loss(x32.double(), lib.tensor([1.0, -1.0, 1.0])),
            F(lib).hinge_embedding_loss(x32, lib.tensor([True, False, True]), reduction="none"),
            F(lib).margin_ranking_loss(x32, x32.flip(0), lib.tensor([1, -1, 1])),
            F(lib).margin_ranking_loss(x32, x32.flip(0), lib.tensor([1.0, -1.0, 1.0], dtype=lib.float64)),
            F(lib).cosine_embedding_loss(x2d, x2d.flip(1), lib.tensor([1, -1])),
            F(lib).multilabel_soft_margin_loss(x2d, lib.tensor([[1, 0, 1], [0, 0, 1]])),
            F(lib).poisson_nll_loss(x32, lib.tensor([0, 1, 3]), full=True, reduction="none"),
            F(lib).gaussian_nll_loss(x32, lib.tensor([0, 1, 3]), lib.ones(3, dtype=lib.float64)),
        ]

    same(run)


def test_integer_inputs_follow_pytorch():
    """A float margin or eps makes the composites float (the default dtype); hinge computes
    ``margin - input`` in the input's dtype (the margin truncated), as PyTorch fills a tensor like it."""

    def run(lib):
        i, j = lib.tensor([[0, 1, 3], [2, 2, 1]]), lib.tensor([[1, 1, 0], [0, 2, 2]])
        return [
            F(lib).margin_ranking_loss(i[0], j[0], lib.tensor([1, -1, 1]), margin=0.5),
            F(lib).hinge_embedding_loss(i[0], lib.tensor([1, -1, -1]), margin=1.5, reduction="none"),
            F(lib).cosine_embedding_loss(i, j, lib.tensor([1, -1])),
            F(lib).triplet_margin_loss(i, j, j.flip(1)),
            F(lib).poisson_nll_loss(i, j),
            F(lib).poisson_nll_loss(i, j, log_input=False, full=True),
        ]

    same(run)


@pytest.mark.parametrize(
    "run, words",
    [
        (lambda lib: F(lib).soft_margin_loss(lib.tensor([1, 2]), lib.tensor([1.0, -1.0])), ["can't be cast", "Long"]),
        (lambda lib: F(lib).soft_margin_loss(lib.tensor([1, 2], dtype=lib.int32), lib.ones(2)), ["Int"]),
        (lambda lib: F(lib).hinge_embedding_loss(lib.tensor([1, 2]), lib.tensor([1, -1])), ["mean()", "Long"]),
        (lambda lib: F(lib).margin_ranking_loss(lib.ones(2), lib.ones(2), lib.tensor([True, False])), ["bool"]),
        (lambda lib: F(lib).multilabel_soft_margin_loss(lib.tensor([[1, 2]]), lib.ones(1, 2)), ["log_sigmoid_cpu"]),
        (lambda lib: F(lib).multilabel_soft_margin_loss(lib.ones(1, 2), lib.ones(1, 2).bool()), ["bool"]),
        (lambda lib: F(lib).gaussian_nll_loss(lib.ones(2), lib.ones(2), lib.ones(2).long()), ["can't be cast"]),
        (lambda lib: F(lib).multi_margin_loss(lib.ones(2, 3).long(), lib.tensor([0, 1])), ["multi_margin_loss_cpu"]),
        (lambda lib: F(lib).multi_margin_loss(lib.ones(2, 3), lib.tensor([0.0, 1.0])), ["Long but found Float"]),
        (lambda lib: F(lib).multi_margin_loss(lib.ones(2, 3), lib.tensor([0, 1], dtype=lib.int32)), ["found Int"]),
        (
            lambda lib: F(lib).multi_margin_loss(lib.ones(2, 3), lib.tensor([0, 1]), weight=lib.ones(3).double()),
            ["expected scalar type Float but found Double"],
        ),
        (
            lambda lib: F(lib).multilabel_margin_loss(lib.ones(1, 2).long(), lib.tensor([[0, 1]])),
            ["multilabel_margin_loss_forward_out_frame", "Long"],
        ),
        (lambda lib: F(lib).multilabel_margin_loss(lib.ones(1, 2), lib.ones(1, 2)), ["Long but found Float"]),
    ],
)
def test_dtype_errors(run, words):
    same_error(run, *words)


# ---------------------------------------------------------------------------------------------- edges
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_empty_inputs(reduction):
    """An empty batch: NaN for a mean, 0 for a sum, an empty loss with 'none'."""

    def run(lib):
        e, e2, t = lib.ones(0), lib.ones(0, 3), lib.ones(0)
        return [
            F(lib).margin_ranking_loss(e, e, t, reduction=reduction),
            F(lib).hinge_embedding_loss(e, t, reduction=reduction),
            F(lib).soft_margin_loss(e, t, reduction=reduction),
            F(lib).multilabel_soft_margin_loss(e2, e2, reduction=reduction),
            F(lib).cosine_embedding_loss(e2, e2, t, reduction=reduction),
            F(lib).triplet_margin_loss(e2, e2, e2, reduction=reduction),
            F(lib).poisson_nll_loss(e, t, full=True, reduction=reduction),
            F(lib).gaussian_nll_loss(e2, e2, lib.ones(0), reduction=reduction),
        ] + (
            # PyTorch's kernels leave a reduced empty loss unwritten: only 'none' is defined
            [
                F(lib).multi_margin_loss(e2, lib.zeros(0).long(), reduction=reduction),
                F(lib).multilabel_margin_loss(e2, lib.zeros(0, 3).long(), reduction=reduction),
            ]
            if reduction == "none"
            else []
        )

    same(run)


@pytest.mark.parametrize("name", ["multi_margin_loss", "multilabel_margin_loss"])
def test_the_margin_kernels_on_an_empty_batch(name):
    """'none' as PyTorch; a reduced loss PyTorch leaves unwritten is NaN (mean) or 0 (sum) here."""

    def target(lib):
        return lib.zeros(0).long() if name == "multi_margin_loss" else lib.zeros(0, 3).long()

    def run(lib):
        x = lib.ones(0, 3, requires_grad=True)
        loss = getattr(F(lib), name)(x, target(lib), reduction="none")
        return loss, lib.autograd.grad(loss.sum(), x)[0]

    same(run)
    x = minigrad.ones(0, 3, requires_grad=True)
    mean, total = (getattr(F(minigrad), name)(x, target(minigrad), reduction=r) for r in ("mean", "sum"))
    assert math.isnan(mean.item()) and total.item() == 0
    assert minigrad.autograd.grad(mean, x)[0].shape == (0, 3)


def test_zero_dim_inputs():
    def run(lib):
        x, y = lib.tensor(0.3, requires_grad=True), lib.tensor(-0.4, requires_grad=True)
        losses = [
            F(lib).margin_ranking_loss(x, y, lib.tensor(-1.0), margin=0.2),
            F(lib).hinge_embedding_loss(x, lib.tensor(-1)),
            F(lib).soft_margin_loss(x, lib.tensor(-1.0), reduction="none"),
            F(lib).poisson_nll_loss(x, lib.tensor(3.0), full=True),
            F(lib).gaussian_nll_loss(x, y, lib.tensor(0.5, requires_grad=True), reduction="none"),
            F(lib).multi_margin_loss(x, lib.tensor(0), reduction="none"),
            F(lib).multi_margin_loss(x, lib.tensor([0]), reduction="none"),
            F(lib).multilabel_margin_loss(x, lib.tensor(0), reduction="none"),
            F(lib).multilabel_margin_loss(x, lib.tensor([-1]), reduction="none"),
        ]
        return losses, [lib.autograd.grad(loss, x, allow_unused=True)[0] for loss in losses]

    same(run)


def test_non_contiguous_inputs():
    def run(lib):
        x = _leaf(lib, (5, 4)).t()  # (4, 5), transposed
        y = _leaf(lib, (5, 4), 1).t()
        losses = [
            F(lib).soft_margin_loss(x, _signs(lib, (5, 4), 2).t()),
            F(lib).multi_margin_loss(x, lib.tensor([0, 4, 2, 1]), p=2),
            F(lib).multilabel_margin_loss(x, lib.tensor([[0, 3, -1, 2, 2]] * 4)),
            F(lib).cosine_embedding_loss(x, y, lib.tensor([1, -1, 1, -1])),
            F(lib).triplet_margin_loss(x, y, x.flip(0)),
            F(lib).gaussian_nll_loss(x, y, y.abs().t().t()),
        ]
        return losses, [lib.autograd.grad(loss, x)[0] for loss in losses]

    same(run)


def test_poisson_full_adds_stirling_only_above_one():
    def run(lib):
        x = lib.tensor([0.5, 0.5, 0.5, 0.5], requires_grad=True)
        t = lib.tensor([0.0, 1.0, 1.5, 4.0], requires_grad=True)
        loss = F(lib).poisson_nll_loss(x, t, full=True, reduction="none")
        return loss, lib.autograd.grad(loss.sum(), [x, t])

    same(run)


# ---------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "name, call",
    [
        ("margin_ranking_loss", lambda f, x: f(x, x, x, reduction="bad")),
        ("hinge_embedding_loss", lambda f, x: f(x, x, reduction="bad")),
        ("soft_margin_loss", lambda f, x: f(x, x, reduction="bad")),
        ("cosine_embedding_loss", lambda f, x: f(x, x, x[:, 0], reduction="bad")),
        ("triplet_margin_loss", lambda f, x: f(x, x, x, reduction="bad")),
        ("triplet_margin_with_distance_loss", lambda f, x: f(x, x, x, reduction="bad")),
        ("poisson_nll_loss", lambda f, x: f(x, x, reduction="bad")),
        ("multi_margin_loss", lambda f, x: f(x, x[:, 0].long(), reduction="bad")),
        ("multilabel_margin_loss", lambda f, x: f(x, x.long(), reduction="bad")),
    ],
)
def test_an_unknown_reduction_is_a_value_error(name, call):
    same_error(lambda lib: call(getattr(F(lib), name), lib.ones(2, 3)), "bad is not a valid value for reduction")


@pytest.mark.parametrize("name", ["multilabel_soft_margin_loss", "gaussian_nll_loss"])
def test_an_unknown_reduction_of_the_python_losses(name):
    same_error(
        lambda lib: getattr(F(lib), name)(lib.ones(2, 3), lib.ones(2, 3), lib.ones(2, 3), reduction="x"),
        "x is not valid",
    )


@pytest.mark.parametrize(
    "name, call",
    [
        ("margin_ranking_loss", lambda f, x, t: f(x, x, t, size_average=False)),
        ("hinge_embedding_loss", lambda f, x, t: f(x, t, reduce=False)),
        ("soft_margin_loss", lambda f, x, t: f(x, t, size_average=True, reduce=True)),
        ("multilabel_soft_margin_loss", lambda f, x, t: f(x, t, reduce=False)),
        ("cosine_embedding_loss", lambda f, x, t: f(x, x, t[:, 0], size_average=False)),
        ("triplet_margin_loss", lambda f, x, t: f(x, x, x, reduce=False)),
        ("poisson_nll_loss", lambda f, x, t: f(x, t, size_average=False)),
        ("multi_margin_loss", lambda f, x, t: f(x, t[:, 0].long(), size_average=False)),
        ("multilabel_margin_loss", lambda f, x, t: f(x, t.long(), reduce=False)),
    ],
)
def test_the_legacy_arguments_warn_and_choose_the_reduction(name, call):
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = call(getattr(F(lib), name), lib.tensor([[0.5, -1.0, 2.0]]), lib.tensor([[1.0, -1.0, 0.0]]))
        return loss, [str(w.message) for w in caught]

    same(run)


def test_shape_errors_and_broadcasting():
    r = np.random.default_rng(0)

    def t(lib, *shape):
        return lib.tensor(r.standard_normal(shape))

    same_error(lambda lib: F(lib).margin_ranking_loss(t(lib, 4), t(lib, 4, 1), t(lib, 4)), "should have same dimension")
    same_error(lambda lib: F(lib).margin_ranking_loss(t(lib, 4), t(lib, 3), t(lib, 4)), "must match the size")
    same_error(lambda lib: F(lib).hinge_embedding_loss(t(lib, 4), t(lib, 3)), "must match the size")
    same_error(lambda lib: F(lib).soft_margin_loss(t(lib, 4), t(lib, 3)), "must match the size")
    same_error(lambda lib: F(lib).soft_margin_loss(t(lib, 3), t(lib, 4, 3)), "doesn't match the broadcast shape")
    same_error(lambda lib: F(lib).multilabel_soft_margin_loss(t(lib, 2, 3), t(lib, 2, 3), t(lib, 2)), "must match")
    same_error(lambda lib: F(lib).multilabel_soft_margin_loss(t(lib), t(lib)), "Dimension specified as -1")
    same_error(
        lambda lib: F(lib).cosine_embedding_loss(t(lib, 2, 3, 1), t(lib, 2, 3, 1), t(lib, 2)),
        "1D target tensor expects 2D input",
    )
    same_error(
        lambda lib: F(lib).cosine_embedding_loss(t(lib, 2, 3), t(lib, 2, 3), t(lib)),
        "0D target tensor expects 1D input",
    )
    same_error(
        lambda lib: F(lib).cosine_embedding_loss(t(lib, 2, 3), t(lib, 2, 3), t(lib, 2, 1)), "multi-target not supported"
    )
    same_error(lambda lib: F(lib).cosine_embedding_loss(t(lib, 2, 3), t(lib, 3, 3), t(lib, 2)), "must match the size")
    for name in ("triplet_margin_loss", "triplet_margin_with_distance_loss"):
        same_error(
            lambda lib, name=name: getattr(F(lib), name)(t(lib, 2, 3), t(lib, 2, 3), t(lib, 3)),
            "anchor 2D, positive 2D, and negative 1D",
        )
        same_error(
            lambda lib, name=name: getattr(F(lib), name)(t(lib, 2, 3), t(lib, 2, 3), t(lib, 2, 3), margin=0),
            "margin must be greater than 0, got 0",
        )
    same_error(lambda lib: F(lib).poisson_nll_loss(t(lib, 2, 3), t(lib, 4)), "must match the size")
    # a target broadcast to the input warns in PyTorch's other losses, not in these
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same(lambda lib: F(lib).poisson_nll_loss(lib.ones(2, 3), lib.ones(3), reduction="none"))


def test_soft_margin_target_cannot_require_grad():
    same_error(
        lambda lib: F(lib).soft_margin_loss(lib.ones(2), lib.ones(2, requires_grad=True)),
        "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'",
    )


@pytest.mark.parametrize(
    "var, words",
    [
        (lambda lib: -1.0, ["var has negative entry/entries"]),
        (lambda lib: -lib.ones(2, 3), ["var has negative entry/entries"]),
        (lambda lib: lib.ones(3), ["var is of incorrect size"]),
        (lambda lib: lib.ones(1, 1), ["var is of incorrect size"]),
        (lambda lib: lib.ones(2, 3, 1), ["var is of incorrect size"]),
        (lambda lib: lib.ones(2, 2), ["var is of incorrect size"]),
        (lambda lib: 1, ["any()"]),  # an int var: PyTorch's torch.any(var < 0) gets a bool
    ],
)
def test_gaussian_nll_var_errors(var, words):
    same_error(lambda lib: F(lib).gaussian_nll_loss(lib.ones(2, 3), lib.ones(2, 3), var(lib)), *words)


def test_gaussian_nll_var_shapes_that_broadcast():
    def run(lib):
        x = lib.tensor(_array((4, 3, 5)))
        return [
            F(lib).gaussian_nll_loss(x, x.flip(0), lib.ones(4, 1, 5) * 2, reduction="none"),
            F(lib).gaussian_nll_loss(x, x.flip(0), lib.ones(4, 3) * 2, reduction="none"),
            F(lib).gaussian_nll_loss(x[0, 0], x[1, 1], lib.tensor(3.0), reduction="none"),  # unsqueezed to (1,)
            F(lib).gaussian_nll_loss(x[0, 0], x[1, 1], lib.ones(1) * 3),
        ]

    same(run)
    same_error(
        lambda lib: F(lib).gaussian_nll_loss(lib.ones(4, 3, 5), lib.ones(4, 3, 5), lib.ones(4, 1, 1)), "incorrect size"
    )
    same_error(
        lambda lib: F(lib).gaussian_nll_loss(lib.ones(4, 1, 5), lib.ones(4, 1, 5), lib.ones(4, 2, 5)), "incorrect size"
    )


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 1]), p=3), "only p == 1 and p == 2 supported"),
        (
            lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 1]), weight=lib.ones(1, 3)),
            "weight must be one-dimensional",
        ),
        (
            lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 1]), weight=lib.ones(2)),
            "inconsistent weight size, expected 3 but got [2]",
        ),
        (
            lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 1]), weight=lib.ones(3, requires_grad=True)),
            "not differentiable with respect to argument 'weight'",
        ),
        (
            lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 1, 2])),
            "Expected target size [2], but got [3]. Input has shape [2, 3]",
        ),
        (lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([[0, 1]])), "Expected target size [2], but got [1, 2]"),
        (
            lambda lib, x: F(lib).multi_margin_loss(x[0], lib.tensor([0, 1])),
            "Expected target size [1], but got [2]. Input has shape [3]",
        ),
        (lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([0, 3])), "target out of range"),
        (lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([-1, 0])), "target out of range"),
        (
            lambda lib, x: F(lib).multi_margin_loss(x.reshape(1, 2, 3), lib.tensor([0])),
            "Expected non-empty vector or matrix",
        ),
        (lambda lib, x: F(lib).multi_margin_loss(x[:, :0], lib.tensor([0, 0])), "but got: [2, 0]"),
        (
            lambda lib, x: F(lib).multilabel_margin_loss(x, lib.tensor([[0, 1]] * 2)),
            "inconsistent target size: [2, 2] for input of size: [2, 3]",
        ),
        (lambda lib, x: F(lib).multilabel_margin_loss(x, lib.tensor([0, 1, -1])), "inconsistent target size: [3]"),
        (
            lambda lib, x: F(lib).multilabel_margin_loss(x[0], lib.tensor([0, 1])),
            "inconsistent target size: [2] for input of size: [3]",
        ),
        (lambda lib, x: F(lib).multilabel_margin_loss(x, lib.tensor([[0, 3, -1]] * 2)), "'target' is out of range"),
        (lambda lib, x: F(lib).multilabel_margin_loss(x, lib.tensor([[-2, 0, -1]] * 2)), "'target' is out of range"),
        (lambda lib, x: F(lib).multilabel_margin_loss(x, lib.tensor([[0, -1, 7]] * 2)), "'target' is out of range"),
        (
            lambda lib, x: F(lib).multilabel_margin_loss(x.reshape(1, 2, 3), lib.zeros(1, 2, 3).long()),
            "Expected non-empty",
        ),
    ],
)
def test_margin_kernel_errors(call, error):
    same_error(lambda lib: call(lib, lib.tensor([[0.1, 0.5, -0.3], [1.0, 0.0, 0.3]])), error)


# ---------------------------------------------------------------------------------------------- modules
MODULES = {
    "MarginRankingLoss": (dict(margin=0.3), lambda lib, x, y: (x[:, 0], y[:, 0], lib.tensor([1.0, -1.0, 1.0]))),
    "HingeEmbeddingLoss": (dict(margin=0.5), lambda lib, x, y: (x, y.sign())),
    "SoftMarginLoss": ({}, lambda lib, x, y: (x, y.sign().detach())),
    "MultiLabelSoftMarginLoss": (dict(weight=[1.0, 2.0, 0.5, 1.0]), lambda lib, x, y: (x, (y > 0).double())),
    "CosineEmbeddingLoss": (dict(margin=0.1), lambda lib, x, y: (x, y, lib.tensor([1, -1, 1]))),
    "TripletMarginLoss": (dict(margin=2.0, p=1.0, swap=True), lambda lib, x, y: (x, y, y.flip(0))),
    "TripletMarginWithDistanceLoss": (dict(margin=2.0, swap=True), lambda lib, x, y: (x, y, y.flip(0))),
    "PoissonNLLLoss": (dict(log_input=False, full=True), lambda lib, x, y: (x.abs(), y.abs() * 3)),
    "GaussianNLLLoss": (dict(full=True, eps=0.1), lambda lib, x, y: (x, y, x.abs())),
    "MultiMarginLoss": (
        dict(p=2, margin=0.5, weight=[1.0, 2.0, 0.5, 1.0]),
        lambda lib, x, y: (x, lib.tensor([0, 3, 1])),
    ),
    "MultiLabelMarginLoss": ({}, lambda lib, x, y: (x, lib.tensor([[0, 3, -1, 1], [1, -1, 0, 0], [3, 2, 1, 0]]))),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", MODULES)
def test_modules_match_pytorch(name, reduction):
    kwargs, inputs = MODULES[name]

    def run(lib):
        options = {k: lib.tensor(v, dtype=lib.float64) if k == "weight" else v for k, v in kwargs.items()}
        module = getattr(lib.nn, name)(**options, reduction=reduction)
        x, y = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1)
        loss = module(*inputs(lib, x, y))
        return repr(module), module.reduction, loss, node_names(loss), lib.autograd.grad(loss.sum(), x)[0]

    same(run)


@pytest.mark.parametrize("name", MODULES)
def test_module_signatures_match_pytorch(name):
    ours, theirs = (inspect.signature(getattr(lib.nn, name).__init__).parameters for lib in (minigrad, torch))
    assert [(p.name, p.kind, p.default) for p in ours.values()] == [
        (p.name, p.kind, p.default) for p in theirs.values()
    ]


FUNCTIONS = [
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "soft_margin_loss",
    "multilabel_soft_margin_loss",
    "cosine_embedding_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "poisson_nll_loss",
    "gaussian_nll_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_signatures_match_pytorch(name):
    assert name in minigrad.nn.functional.__all__
    ours, theirs = (inspect.signature(getattr(lib.nn.functional, name)).parameters for lib in (minigrad, torch))
    assert [(p.name, p.kind, p.default) for p in ours.values()] == [
        (p.name, p.kind, p.default) for p in theirs.values()
    ]


def test_module_legacy_arguments_and_buffers():
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reductions = [
                lib.nn.MarginRankingLoss(size_average=False).reduction,
                lib.nn.MultiMarginLoss(reduce=False).reduction,
                lib.nn.PoissonNLLLoss(size_average=True, reduce=True).reduction,
            ]
        weighted = lib.nn.MultiMarginLoss(weight=lib.ones(3))
        return reductions, len(caught), list(weighted.state_dict()), lib.nn.MultiLabelSoftMarginLoss().weight

    same(run)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda lib: lib.nn.TripletMarginLoss(margin=0.0), ["TripletMarginLoss: expected margin to be greater than 0"]),
        (lambda lib: lib.nn.TripletMarginWithDistanceLoss(margin=-1), ["got -1 instead"]),
        (lambda lib: lib.nn.MultiMarginLoss(p=3), ["only p == 1 and p == 2 supported"]),
        (
            lambda lib: lib.nn.MultiMarginLoss(weight=lib.ones(2, 2)),
            ["expected weight to be None or 1D tensor, got 2D"],
        ),
        (lambda lib: lib.nn.GaussianNLLLoss(True), ["positional argument"]),
    ],
)
def test_module_argument_errors(make, words):
    same_error(make, *words)


def test_triplet_module_keeps_its_distance_function():
    def run(lib):
        module = lib.nn.TripletMarginWithDistanceLoss(distance_function=lib.nn.PairwiseDistance(p=1.0))
        x, y = _leaf(lib, (3, 4)), _leaf(lib, (3, 4), 1)
        return repr(module), module(x, y, y.flip(0)), [name for name, _ in module.named_modules()]

    same(run)


def test_docstring_formula_of_gaussian_nll():
    """The loss is 0.5 * (log var + (x - t)**2 / var) (+ 0.5 log 2 pi with full)."""
    x, t, v = minigrad.tensor([1.0]), minigrad.tensor([3.0]), minigrad.tensor([2.0])
    expected = 0.5 * (math.log(2.0) + 4.0 / 2.0) + 0.5 * math.log(2 * math.pi)
    assert minigrad.nn.functional.gaussian_nll_loss(x, t, v, full=True).item() == pytest.approx(expected)
