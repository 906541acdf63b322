"""``minigrad.utils.data`` against ``torch.utils.data``: the same batches, lengths and errors.

Shuffled orders come from each library's own random numbers, so they are compared as what they
must be (every sample once per pass, a new order per pass, repeatable after ``manual_seed``).
"""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402

import minigrad  # noqa: E402


def _plain(value):
    """Batches as plain data: a tensor becomes (dtype name, shape, values); containers keep their type."""
    if isinstance(value, minigrad.Tensor | torch.Tensor):
        return (str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, {k: _plain(v) for k, v in value.items()})
    if isinstance(value, tuple | list):
        return (type(value).__name__, [_plain(v) for v in value])
    return value


def same(fn):
    """``fn(minigrad)`` and ``fn(torch)`` give the same plain data."""
    assert _plain(fn(minigrad)) == _plain(fn(torch))


Point = collections.namedtuple("Point", "x label")


def _xy(lib):
    return lib.arange(14.0).reshape(7, 2), lib.arange(7)


LOADERS = {
    "tensor dataset in batches": lambda lib: lib.utils.data.DataLoader(
        lib.utils.data.TensorDataset(*_xy(lib)), batch_size=3
    ),
    "drop_last": lambda lib: lib.utils.data.DataLoader(_xy(lib)[0], batch_size=3, drop_last=True),
    "one by one (batch_size 1)": lambda lib: lib.utils.data.DataLoader(_xy(lib)[1]),
    "unbatched": lambda lib: lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*_xy(lib)), batch_size=None),
    "python numbers": lambda lib: lib.utils.data.DataLoader([1, 2, 3, 4, 5], batch_size=2),
    "python floats are float64": lambda lib: lib.utils.data.DataLoader([0.5, 1.5, 2.5], batch_size=2),
    "bools": lambda lib: lib.utils.data.DataLoader([True, False, True], batch_size=3),
    "tuples with strings": lambda lib: lib.utils.data.DataLoader([(1, "a"), (2, "b"), (3, "c")], batch_size=2),
    "lists stay lists": lambda lib: lib.utils.data.DataLoader([[1, 2.0], [3, 4.0]], batch_size=2),
    "dicts": lambda lib: lib.utils.data.DataLoader([{"x": lib.ones(2) * i, "y": i} for i in range(3)], batch_size=2),
    "named tuples": lambda lib: lib.utils.data.DataLoader([Point(lib.zeros(2), i) for i in range(3)], batch_size=2),
    "numpy arrays and numbers": lambda lib: lib.utils.data.DataLoader(
        [(np.full(2, i, dtype=np.float32), np.float64(i), np.int64(i)) for i in range(3)], batch_size=2
    ),
    "numpy arrays unbatched": lambda lib: lib.utils.data.DataLoader([np.ones(2), np.zeros(2)], batch_size=None),
    "a sampler": lambda lib: lib.utils.data.DataLoader(_xy(lib)[1], batch_size=2, sampler=[6, 0, 3]),
    "a batch sampler": lambda lib: lib.utils.data.DataLoader(_xy(lib)[1], batch_sampler=[[1, 2], [0], [6, 5, 4]]),
    "a collate_fn": lambda lib: lib.utils.data.DataLoader(_xy(lib)[1], batch_size=3, collate_fn=lambda b: sum(b)),
    "a subset": lambda lib: lib.utils.data.DataLoader(
        lib.utils.data.Subset(lib.utils.data.TensorDataset(*_xy(lib)), [5, 1, 2]), batch_size=2
    ),
    "num_workers is accepted": lambda lib: lib.utils.data.DataLoader(_xy(lib)[1], batch_size=4, num_workers=0),
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_batches_match_torch(name):
    same(lambda lib: (len(LOADERS[name](lib)), list(LOADERS[name](lib))))


def test_a_dataset_of_ones_own():
    class Squares(minigrad.utils.data.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return minigrad.tensor(float(i)), i * i

    batches = [(x.tolist(), y.tolist()) for x, y in minigrad.utils.data.DataLoader(Squares(), batch_size=2)]
    assert batches == [([0.0, 1.0], [0, 1]), ([2.0, 3.0], [4, 9]), ([4.0], [16])]


def test_shuffled_passes_cover_every_sample_once_and_repeat_after_seeding():
    x, y = _xy(minigrad)
    loader = minigrad.utils.data.DataLoader(minigrad.utils.data.TensorDataset(x, y), batch_size=3, shuffle=True)
    minigrad.manual_seed(0)
    first, second = ([b[1].tolist() for b in loader] for _ in range(2))
    for labels in (first, second):
        assert [len(b) for b in labels] == [3, 3, 1]
        assert sorted(sum(labels, [])) == list(range(7))
    assert first != second  # a new order every pass
    minigrad.manual_seed(0)
    assert [b[1].tolist() for b in loader] == first
    for xb, yb in loader:  # rows stay with their labels
        assert xb.tolist() == [[2.0 * label, 2.0 * label + 1] for label in yb.tolist()]


def test_gradients_flow_through_a_batch():
    def run(lib):
        w = lib.tensor([1.0, -1.0], requires_grad=True)
        for xb, yb in lib.utils.data.DataLoader(lib.utils.data.TensorDataset(*_xy(lib)), batch_size=4):
            ((xb @ w - yb) ** 2).mean().backward()
        return w.grad

    same(run)


def test_random_split_lengths_as_torch():
    for lengths in ([3, 4], [0.5, 0.5], [0.34, 0.33, 0.33]):
        ours = [len(s) for s in minigrad.utils.data.random_split(range(7), lengths)]
        theirs = [len(s) for s in torch.utils.data.random_split(range(7), lengths)]
        assert ours == theirs, lengths
    for lib in (minigrad, torch):  # a fraction too small for one sample: an empty part, with a warning
        with pytest.warns(UserWarning, match="Length of split at index 2 is 0"):
            assert [len(s) for s in lib.utils.data.random_split(range(7), [0.7, 0.2, 0.1])] == [5, 2, 0]
    parts = minigrad.utils.data.random_split(range(10), [0.6, 0.4])
    assert sorted(i for part in parts for i in part) == list(range(10))
    assert all(type(p).__name__ == "Subset" for p in parts)


ERRORS = {
    "tensors of two lengths": (
        lambda lib: lib.utils.data.TensorDataset(lib.ones(3), lib.ones(4)),
        "Size mismatch between tensors",
    ),
    "batch_size 0": (
        lambda lib: lib.utils.data.DataLoader([1], batch_size=0),
        "batch_size should be a positive integer",
    ),
    "shuffle and a sampler": (
        lambda lib: lib.utils.data.DataLoader([1], shuffle=True, sampler=[0]),
        "sampler option is mutually exclusive with shuffle",
    ),
    "batch_sampler and batch_size": (
        lambda lib: lib.utils.data.DataLoader([1], batch_size=2, batch_sampler=[[0]]),
        "batch_sampler option is mutually exclusive with batch_size",
    ),
    "lengths that do not add up": (
        lambda lib: lib.utils.data.random_split(range(10), [3, 3]),
        "Sum of input lengths does not equal the length of the input dataset!",
    ),
    "samples of different sizes": (
        lambda lib: list(lib.utils.data.DataLoader([[1, 2], [3]], batch_size=2)),
        "each element in list of batch should be of equal size",
    ),
    "tensors of different shapes": (
        lambda lib: list(lib.utils.data.DataLoader([lib.ones(2), lib.ones(3)], batch_size=2)),
        "stack expects each tensor to be equal size",
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


def test_capstone_style_training_loop():
    # The loop students write in the capstone, with a loader instead of randperm.
    minigrad.manual_seed(0)
    x = minigrad.randn(64, 3)
    y = (x.sum(1) > 0).long()
    model = minigrad.nn.Linear(3, 2)
    optimizer = minigrad.optim.SGD(model.parameters(), lr=0.5)
    loader = minigrad.utils.data.DataLoader(minigrad.utils.data.TensorDataset(x, y), batch_size=16, shuffle=True)
    for _ in range(20):
        for xb, yb in loader:
            optimizer.zero_grad()
            minigrad.nn.functional.cross_entropy(model(xb), yb).backward()
            optimizer.step()
    accuracy = (model(x).argmax(1) == y).float().mean().item()
    assert accuracy > 0.9 and math.isfinite(accuracy)
