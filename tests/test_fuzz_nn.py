"""Regression tests for what random programs (models, losses, training loops) found to differ
between minigrad and PyTorch: each test is one program that disagreed before its fix.

Found: SGD without momentum kept an empty state per parameter; `nll_loss`/`cross_entropy` on
(N, C, d) inputs skipped ATen's views; label smoothing and probability targets recorded other
nodes; `mse_loss`/`l1_loss` did not broadcast as `broadcast_tensors` does (and `l1_loss` had no
`weight`); wrong target dtypes were accepted silently; and `init.eye_`, `Sequential.pop`/`+`,
`ConcatDataset` and optimizers over `named_parameters()` were missing.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t))).same

pytestmark = pytest.mark.usefixtures("on_device")


def _tensor(lib, shape, seed: int = 0, dtype: str = "float64", grad: bool = True):
    array = np.random.default_rng(seed).standard_normal(shape)
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=grad)


def _classes(lib, shape, classes: int = 3, seed: int = 1):
    return lib.tensor(np.random.default_rng(seed).integers(0, classes, shape))


# ---------------------------------------------------------------------------------------------- optimizers
@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_sgd_state_dict_has_no_empty_entries(momentum):
    """SGD without momentum keeps nothing per parameter, so its state_dict's state is empty."""

    def run(lib):
        w = lib.nn.Parameter(lib.tensor([1.0, -2.0]))
        opt = lib.optim.SGD([w], lr=0.1, momentum=momentum)
        for _ in range(2):
            (w * w).sum().backward()
            opt.step()
        state = opt.state_dict()["state"]
        return len(opt.state), sorted(state), [sorted(s) for s in state.values()], w

    same(run)


def test_optimizer_over_named_parameters():
    """``SGD(model.named_parameters())`` keeps the names as ``param_names``, as PyTorch 2.13."""

    def run(lib):
        a, b = lib.nn.Parameter(lib.tensor([1.0, 2.0])), lib.nn.Parameter(lib.tensor([3.0]))
        groups = [{"params": [("a", a)], "momentum": 0.5}, {"weight_decay": 0.1, "params": iter([("b", b)])}]
        opt = lib.optim.SGD(groups, lr=0.1)
        ((a * a).sum() + b.sum()).backward()
        opt.step()
        saved = opt.state_dict()
        return [list(g.items()) for g in saved["param_groups"]], sorted(saved["state"]), a, b

    same(run)


def test_optimizer_names_all_or_none():
    def mixed(lib):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(2))
        lib.optim.SGD([("a", a), b], lr=0.1)

    def added_without(lib):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(2))
        lib.optim.Adam([("a", a)]).add_param_group({"params": [b]})

    same_error(mixed, "Some param names are missing")
    same_error(added_without, "cannot add param group without names")


# ---------------------------------------------------------------------------------------------- class losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 3, 2, 1, 2)])
def test_nll_loss_of_3d_and_5d_inputs_records_atens_views(shape, reduction):
    """ATen views an (N, C, d...) input other than 4-d as (N, C, 1, -1): ViewBackward0 nodes."""

    def run(lib):
        x = _tensor(lib, shape)
        return derivatives(
            lib, lib.nn.functional.nll_loss(x, _classes(lib, (shape[0], *shape[2:])), reduction=reduction), [x]
        )

    same(run)


def test_nll_loss_of_a_transposed_input_copies_it():
    def run(lib):
        x = _tensor(lib, (2, 4, 3))
        loss = lib.nn.functional.nll_loss(x.transpose(1, 2), _classes(lib, (2, 4)))
        return node_names(loss), loss

    assert same(run)[0][:4] == ["NllLoss2DBackward0", "ViewBackward0", "CloneBackward0", "TransposeBackward0"]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_of_an_empty_3d_input(reduction):
    def run(lib):
        x = lib.zeros(0, 3, 4, dtype=lib.float64, requires_grad=True)
        loss = lib.nn.functional.nll_loss(x, lib.zeros(0, 4, dtype=lib.int64), reduction=reduction)
        return node_names(loss), loss

    same(run)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(3,), (4, 3), (2, 3, 4)])
def test_cross_entropy_label_smoothing_graph(shape, weighted, reduction):
    """Label smoothing is ATen's composite: ``masked_fill_`` of ignored targets and two C++
    products with numbers (MulBackward1), with their values and derivatives."""

    def run(lib):
        x = _tensor(lib, shape)
        target = _classes(lib, () if len(shape) == 1 else (shape[0], *shape[2:]))
        if target.ndim:
            target[0] = -100  # an ignored target
        weight = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64) if weighted else None
        loss = lib.nn.functional.cross_entropy(x, target, weight=weight, reduction=reduction, label_smoothing=0.2)
        return derivatives(lib, loss, [x])

    same(run)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_probability_targets_graph(weighted, reduction):
    """Probability targets: ``input * target * weight`` summed, the mean divided by a number
    (DivBackward1); label smoothing of the target is MulBackward1 then AddBackward1."""

    def run(lib):
        x, target = _tensor(lib, (2, 3, 4)), _tensor(lib, (2, 3, 4), seed=5).softmax(1)
        weight = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64) if weighted else None
        loss = lib.nn.functional.cross_entropy(x, target, weight=weight, reduction=reduction, label_smoothing=0.1)
        return derivatives(lib, loss, [x, target])

    same(run)


def test_cross_entropy_probability_targets_of_an_empty_batch():
    def run(lib):
        loss = lib.nn.functional.cross_entropy(lib.zeros(0, 3, requires_grad=True), lib.zeros(0, 3))
        return node_names(loss), loss

    assert same(run)[0][:2] == ["NegBackward0", "FillBackward2"]


# ---------------------------------------------------------------------------------------------- regression losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
@pytest.mark.parametrize("weighted", [False, True])
def test_mse_and_l1_broadcast_as_broadcast_tensors(name, weighted, reduction):
    """A target that broadcasts is expanded first (ExpandBackward0), as PyTorch's Python code does;
    ``l1_loss`` takes a ``weight`` too."""

    def run(lib):
        x, target = _tensor(lib, (3, 2)), _tensor(lib, (2,), seed=3)
        weight = lib.tensor([[1.0, 2.0], [0.5, 0.0], [3.0, 1.0]], dtype=lib.float64) if weighted else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the target size warning, in both
            loss = getattr(lib.nn.functional, name)(x, target, reduction=reduction, weight=weight)
        return derivatives(lib, loss, [x, target])

    same(run)


def test_weighted_loss_weight_must_match_the_input():
    def run(lib):
        lib.nn.functional.l1_loss(lib.ones(3, 2), lib.ones(3, 2), weight=lib.ones(2))

    same_error(run, "Weights and input must have the same size")


# ---------------------------------------------------------------------------------------------- dtype errors
@pytest.mark.parametrize("dtype", ["int32", "int16", "float32", "bool"])
def test_class_targets_must_be_long_or_byte(dtype):
    def run(lib):
        target = lib.tensor([0, 1]).to(getattr(lib, dtype))
        lib.nn.functional.cross_entropy(lib.ones(2, 3), target)

    same_error(run, "expected target dtype to be Long or Byte")


def test_class_targets_may_be_uint8():
    same(lambda lib: lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 2], dtype=lib.uint8)))


def test_nll_loss_weight_checks():
    def float_weight(lib):
        lib.nn.functional.nll_loss(lib.ones(2, 3, dtype=lib.float64), lib.tensor([0, 1]), weight=lib.ones(3))

    def weight_with_grad(lib):
        lib.nn.functional.nll_loss(lib.ones(2, 3), lib.tensor([0, 1]), weight=lib.ones(3, requires_grad=True))

    same_error(float_weight, "expected scalar type Double but found Float")
    same_error(weight_with_grad, "not differentiable with respect to argument 'weight'")

    def under_no_grad(lib):  # PyTorch checks the weight only while recording
        with lib.no_grad():
            return lib.nn.functional.nll_loss(
                lib.ones(2, 3), lib.tensor([0, 1]), weight=lib.ones(3, requires_grad=True)
            )

    same(under_no_grad)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_mse_loss_of_integers_is_not_implemented(dtype):
    def run(lib):
        lib.nn.functional.mse_loss(lib.ones(2, dtype=getattr(lib, dtype)), lib.ones(2, dtype=getattr(lib, dtype)))

    same_error(run, "mse_cpu", "not implemented for")


def test_binary_cross_entropy_dtype_errors():
    def target_of_other_float(lib):
        lib.nn.functional.binary_cross_entropy(lib.full((2,), 0.5), lib.ones(2, dtype=lib.float64))

    def integer_target(lib):
        lib.nn.functional.binary_cross_entropy(lib.full((2,), 0.5), lib.ones(2, dtype=lib.int64))

    def logits_integer_target(lib):
        lib.nn.functional.binary_cross_entropy_with_logits(lib.ones(2), lib.ones(2, dtype=lib.int64))

    def logits_integer_input(lib):
        lib.nn.functional.binary_cross_entropy_with_logits(lib.ones(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64))

    same_error(target_of_other_float, "Found dtype Double but expected Float")
    same_error(integer_target, "Found dtype Long but expected Float")
    same_error(logits_integer_target, "result type Float can't be cast to the desired output type Long")
    same_error(logits_integer_input, "log_sigmoid_cpu", "not implemented for 'Long'")


# ---------------------------------------------------------------------------------------------- modules, init, data
def test_init_eye_():
    def run(lib):
        w = lib.nn.Parameter(lib.empty(3, 4))
        out = lib.nn.init.eye_(w)
        return out is w, w.requires_grad, w.is_leaf, w, lib.nn.init.eye_(lib.empty(4, 2))

    same(run)
    same_error(lambda lib: lib.nn.init.eye_(lib.empty(2, 3, 4)), "Only tensors with 2 dimensions are supported")


def test_sequential_pop_and_add():
    def run(lib):
        nn = lib.nn
        s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
        popped = s.pop(1)
        joined = s + nn.Sequential(nn.Identity())
        return type(popped).__name__, repr(s), repr(joined), joined[0] is s[0]

    same(run)
    same_error(lambda lib: lib.nn.Sequential() + [lib.nn.ReLU()], "add operator supports only objects of Sequential")


def test_load_state_dict_result_repr():
    def run(lib):
        keys = lib.nn.Linear(2, 2).load_state_dict({"weight": lib.zeros(2, 2)}, strict=False)
        return repr(keys), keys.missing_keys, keys.unexpected_keys

    same(run)


def test_concat_dataset():
    def run(lib):
        data = lib.utils.data
        a = data.TensorDataset(lib.arange(3), lib.arange(3.0))
        b = data.TensorDataset(lib.arange(10, 12), lib.arange(10.0, 12.0))
        both, added = data.ConcatDataset([a, b]), a + b
        batches = list(data.DataLoader(both, batch_size=2))
        return len(both), both.cumulative_sizes, both[3], both[-1], added[4], type(added).__name__, batches

    same(run)
    same_error(lambda lib: lib.utils.data.ConcatDataset([]), "datasets should not be an empty iterable")
    same_error(
        lambda lib: lib.utils.data.ConcatDataset([lib.utils.data.TensorDataset(lib.arange(2))])[-3],
        "absolute value of index should not exceed dataset length",
    )
