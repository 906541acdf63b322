"""``minigrad.utils.data``'s samplers, iterable datasets, StackDataset, default_convert and
get_worker_info against ``torch.utils.data``.

Random orders are compared with PyTorch's (the random streams are PyTorch's); elsewhere they are
checked for what they must be: lengths, coverage, repeatability after ``manual_seed``.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

Point = collections.namedtuple("Point", "x label")


def plain(value):
    """Batches as plain data: a tensor becomes (dtype name, shape, values); containers keep their type."""
    if isinstance(value, minigrad.Tensor | torch.Tensor):
        return ("tensor", str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, {k: plain(v) for k, v in value.items()})
    if isinstance(value, tuple | list):
        return (type(value).__name__, [plain(v) for v in value])
    if isinstance(value, np.ndarray):
        return ("ndarray", value.tolist())
    return value


def same(fn):
    ours, theirs = plain(fn(minigrad)), plain(fn(torch))
    assert ours == theirs
    return ours


def data(lib):
    return lib.utils.data


# ---------------------------------------------------------------------- deterministic samplers


def test_sequential_and_batch_samplers_match_torch():
    for n, size, drop in ((10, 3, False), (10, 3, True), (9, 3, True), (2, 5, False), (2, 5, True), (0, 2, False)):
        same(lambda lib, n=n, size=size, drop=drop: list(data(lib).BatchSampler(range(n), size, drop)))
        same(
            lambda lib, n=n, size=size, drop=drop: len(
                data(lib).BatchSampler(data(lib).SequentialSampler(range(n)), size, drop)
            )
        )
    same(lambda lib: (list(data(lib).SequentialSampler("abcd")), len(data(lib).SequentialSampler("abcd"))))
    same(lambda lib: list(data(lib).BatchSampler([5, 1, 4, 2], 3, False)))  # any iterable of indices
    assert issubclass(minigrad.utils.data.BatchSampler, minigrad.utils.data.Sampler)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(batch_size=0, drop_last=False), ["batch_size should be a positive integer value"]),
        (dict(batch_size=True, drop_last=False), ["batch_size=True"]),
        (dict(batch_size=2.0, drop_last=False), ["batch_size=2.0"]),
        (dict(batch_size=2, drop_last=1), ["drop_last should be a boolean value"]),
    ],
)
def test_batch_sampler_errors_match_torch(kwargs, words):
    same_error(lambda lib: data(lib).BatchSampler(range(3), **kwargs), *words)


def test_the_base_sampler_must_be_subclassed():
    same_error(lambda lib: iter(data(lib).Sampler()), "")

    class Evens(minigrad.utils.data.Sampler):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(0, self.n, 2))

        def __len__(self):
            return (self.n + 1) // 2

    loader = minigrad.utils.data.DataLoader(minigrad.arange(10) * 10, batch_size=2, sampler=Evens(10))
    assert [b.tolist() for b in loader] == [[0, 20], [40, 60], [80]] and len(loader) == 3


# ---------------------------------------------------------------------- random samplers


def test_random_sampler_gives_each_index_once_per_pass_and_repeats_after_a_seed():
    sampler = minigrad.utils.data.RandomSampler(range(20))
    minigrad.manual_seed(3)
    first, second = list(sampler), list(sampler)
    assert sorted(first) == sorted(second) == list(range(20)) and first != second
    minigrad.manual_seed(3)
    assert list(sampler) == first and len(sampler) == 20
    assert sampler.num_samples == 20 and sampler.replacement is False and sampler.generator is None


def test_random_sampler_num_samples_without_and_with_replacement():
    many = list(minigrad.utils.data.RandomSampler(range(4), num_samples=10))
    counts = np.bincount(many, minlength=4)
    assert len(many) == 10 and sorted(counts) == [2, 2, 3, 3]  # two full permutations, then two more
    assert sorted(many[:4]) == sorted(many[4:8]) == [0, 1, 2, 3] and len(set(many[8:])) == 2
    few = list(minigrad.utils.data.RandomSampler(range(50), num_samples=7))
    assert len(few) == len(set(few)) == 7
    drawn = list(minigrad.utils.data.RandomSampler(range(3), replacement=True, num_samples=70))
    assert len(drawn) == 70 and set(drawn) == {0, 1, 2}  # 70 = 2 draws of 32 and one of 6
    assert len(minigrad.utils.data.RandomSampler(range(3), replacement=True, num_samples=70)) == 70


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(replacement=1), "replacement should be a boolean value"),
        (dict(num_samples=0), "num_samples should be a positive integer value, but got num_samples=0"),
        (dict(num_samples=2.5), "num_samples=2.5"),
        (dict(num_samples=-1, replacement=True), "num_samples=-1"),
    ],
)
def test_random_sampler_errors_match_torch(kwargs, error):
    same_error(lambda lib: data(lib).RandomSampler(range(3), **kwargs), error)
    same_error(lambda lib: data(lib).RandomSampler([]), "num_samples=0")


def test_subset_random_sampler_shuffles_the_given_indices():
    sampler = minigrad.utils.data.SubsetRandomSampler([10, 30, 20, 50])
    passes = [list(sampler) for _ in range(6)]
    assert all(sorted(p) == [10, 20, 30, 50] for p in passes) and len({tuple(p) for p in passes}) > 1
    assert len(sampler) == 4 and list(minigrad.utils.data.SubsetRandomSampler([])) == []


def test_weighted_random_sampler_draws_in_proportion_to_the_weights():
    minigrad.manual_seed(0)
    weights = [1.0, 0.0, 3.0, 4.0]
    drawn = list(minigrad.utils.data.WeightedRandomSampler(weights, 8000))
    counts = np.bincount(drawn, minlength=4) / 8000
    assert counts[1] == 0 and np.allclose(counts, [0.125, 0.0, 0.375, 0.5], atol=0.03)
    once = list(minigrad.utils.data.WeightedRandomSampler(weights, 3, replacement=False))
    assert sorted(once) == [0, 2, 3]  # the zero weight comes only after every other index
    everything = list(minigrad.utils.data.WeightedRandomSampler(weights, 4, replacement=False))
    assert sorted(everything) == [0, 1, 2, 3] and everything[-1] == 1
    sampler = minigrad.utils.data.WeightedRandomSampler((2, 1), 5)
    assert sampler.weights.dtype == minigrad.float64 and len(sampler) == 5 and len(list(sampler)) == 5


@pytest.mark.parametrize(
    "args, kwargs, kind, words",
    [
        (([1.0, 2.0], 0), {}, "ValueError", ["num_samples should be a positive integer value"]),
        (([1.0, 2.0], True), {}, "ValueError", ["num_samples=True"]),
        (([1.0, 2.0], 2), dict(replacement=0), "ValueError", ["replacement should be a boolean value"]),
        (([[1.0, 2.0]], 2), {}, "ValueError", ["weights should be a 1d sequence", "(1, 2)"]),
    ],
)
def test_weighted_random_sampler_argument_errors_match_torch(args, kwargs, kind, words):
    error = same_error(lambda lib: data(lib).WeightedRandomSampler(*args, **kwargs), *words)
    assert type(error).__name__ == kind


@pytest.mark.parametrize(
    "weights, n, replacement, words",
    [
        ([1.0, -1.0], 1, True, ["probability tensor contains either `inf`, `nan` or element < 0"]),
        ([1.0, float("inf")], 1, True, ["`inf`, `nan`"]),
        ([1.0, float("nan")], 1, False, ["`inf`, `nan`"]),
        ([0.0, 0.0], 1, True, ["invalid multinomial distribution (sum of probabilities <= 0)"]),
        ([1.0, 1.0], 3, False, ["cannot sample n_sample > prob_dist.size(-1) samples without replacement"]),
    ],
)
def test_weighted_random_sampler_bad_weights_raise_torch_errors_when_drawn(weights, n, replacement, words):
    same_error(lambda lib: list(data(lib).WeightedRandomSampler(weights, n, replacement)), *words)


def test_random_orders_match_torch_after_the_same_seed():
    def orders(lib):
        lib.manual_seed(7)
        d = data(lib)
        return (
            list(d.RandomSampler(range(10))),
            list(d.RandomSampler(range(5), replacement=True, num_samples=40)),
            list(d.RandomSampler(range(4), num_samples=9)),
            list(d.SubsetRandomSampler([3, 1, 4, 1, 5])),
            list(d.WeightedRandomSampler([0.2, 0.5, 0.3], 12)),
            list(d.WeightedRandomSampler([0.2, 0.5, 0.3, 0.1], 3, replacement=False)),
            [b.tolist() for b in d.DataLoader(lib.arange(10), batch_size=3, shuffle=True)],
            [list(s) for s in d.random_split(range(10), [0.3, 0.7])],
            [list(s) for s in d.random_split(range(6), [2, 4], generator=lib.Generator().manual_seed(5))],
            list(d.RandomSampler(range(8), generator=lib.Generator().manual_seed(3))),
        )

    same(orders)


# ---------------------------------------------------------------------- the loader's samplers


def test_loader_makes_torchs_default_samplers():
    ds = minigrad.arange(7)
    loader = minigrad.utils.data.DataLoader(ds, batch_size=3, drop_last=True)
    assert type(loader.sampler).__name__ == "SequentialSampler" and loader.sampler.data_source is ds
    assert type(loader.batch_sampler).__name__ == "BatchSampler"
    assert loader.batch_sampler.batch_size == 3 and loader.batch_sampler.drop_last is True and len(loader) == 2
    shuffled = minigrad.utils.data.DataLoader(ds, batch_size=2, shuffle=True)
    assert isinstance(shuffled.sampler, minigrad.utils.data.RandomSampler) and shuffled.generator is None
    assert sorted(x for b in shuffled for x in b.tolist()) == list(range(7)) and len(shuffled) == 4
    unbatched = minigrad.utils.data.DataLoader(ds, batch_size=None)
    assert unbatched.batch_sampler is None and unbatched.collate_fn is minigrad.utils.data.default_convert
    given = minigrad.utils.data.DataLoader(ds, batch_sampler=[[0, 1], [5]])
    assert given.batch_size is None and given.drop_last is False and len(given) == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: data(lib).DataLoader(
            lib.arange(10) * 2, sampler=data(lib).SequentialSampler(range(5)), batch_size=2
        ),
        lambda lib: data(lib).DataLoader(
            lib.arange(10), batch_sampler=data(lib).BatchSampler(range(9, -1, -1), 4, False)
        ),
        lambda lib: data(lib).DataLoader(lib.arange(10), batch_sampler=data(lib).BatchSampler(range(10), 4, True)),
        lambda lib: data(lib).DataLoader(lib.arange(6).reshape(3, 2), batch_size=None, sampler=[2, 0]),
    ],
    ids=["sampler", "batch-sampler", "batch-sampler-drop-last", "unbatched-sampler"],
)
def test_loaders_with_samplers_match_torch(make):
    same(lambda lib: ([b for b in make(lib)], len(make(lib))))


def test_batch_size_none_with_drop_last_is_refused_like_torch():
    same_error(lambda lib: data(lib).DataLoader([1, 2], batch_size=None, drop_last=True), "mutually exclusive")


# ---------------------------------------------------------------------- iterable datasets


def make_stream(lib, n, *, with_len=True):
    """An IterableDataset of n (index, tensor) samples, with or without ``__len__``."""

    class Stream(data(lib).IterableDataset):
        def __iter__(self):
            return iter([(i, lib.tensor([float(i), -float(i)])) for i in range(n)])

    if with_len:
        Stream.__len__ = lambda self: n
    return Stream()


@pytest.mark.parametrize(
    "kwargs",
    [dict(batch_size=3), dict(batch_size=3, drop_last=True), dict(batch_size=5), dict(batch_size=None), {}],
    ids=["batches", "drop-last", "exact", "unbatched", "default"],
)
def test_iterable_datasets_load_like_torch(kwargs):
    for n in (0, 5, 6):
        same(lambda lib, n=n: [b for b in data(lib).DataLoader(make_stream(lib, n), **kwargs)])
        same(lambda lib, n=n: len(data(lib).DataLoader(make_stream(lib, n), **kwargs)))
    # the stream is read anew at every pass
    loader = minigrad.utils.data.DataLoader(make_stream(minigrad, 4), batch_size=2)
    assert [len(list(loader)) for _ in range(2)] == [2, 2]


def test_iterable_dataset_without_len_and_its_errors_match_torch():
    same(lambda lib: [b for b in data(lib).DataLoader(make_stream(lib, 4, with_len=False), batch_size=3)])
    same_error(lambda lib: len(data(lib).DataLoader(make_stream(lib, 4, with_len=False))), "len()")
    same_error(lambda lib: data(lib).DataLoader(make_stream(lib, 4), shuffle=True), "expected unspecified shuffle")
    same_error(lambda lib: data(lib).DataLoader(make_stream(lib, 4), sampler=[0]), "expected unspecified sampler")
    same_error(
        lambda lib: data(lib).DataLoader(make_stream(lib, 4), batch_sampler=[[0]]),
        "expected unspecified batch_sampler",
    )
    same_error(lambda lib: data(lib).IterableDataset(), "abstract")
    same_error(lambda lib: data(lib).ConcatDataset([make_stream(lib, 2)]), "does not support IterableDataset")


def test_chain_dataset_matches_torch():
    same(lambda lib: [s for s in data(lib).ChainDataset([make_stream(lib, 2), make_stream(lib, 3)])])
    same(lambda lib: len(data(lib).ChainDataset([make_stream(lib, 2), make_stream(lib, 3)])))
    same(lambda lib: [s for s in make_stream(lib, 1) + make_stream(lib, 2)])  # + chains
    same(lambda lib: [b for b in data(lib).DataLoader(make_stream(lib, 2) + make_stream(lib, 3), batch_size=2)])
    same_error(lambda lib: list(data(lib).ChainDataset([make_stream(lib, 1), [1, 2]])), "only supports IterableDataset")
    same_error(lambda lib: len(data(lib).ChainDataset([make_stream(lib, 1), [1, 2]])), "only supports IterableDataset")


# ---------------------------------------------------------------------- StackDataset


def test_stack_dataset_matches_torch():
    def tuple_form(lib):
        return data(lib).StackDataset(lib.arange(4), ["a", "b", "c", "d"], data(lib).TensorDataset(lib.ones(4, 2)))

    def dict_form(lib):
        return data(lib).StackDataset(x=lib.arange(4.0), label=[0, 1, 0, 1])

    for form in (tuple_form, dict_form):
        same(lambda lib, form=form: (len(form(lib)), form(lib)[2], form(lib)[-1]))
        same(lambda lib, form=form: form(lib).__getitems__([3, 0]))
        same(lambda lib, form=form: [b for b in data(lib).DataLoader(form(lib), batch_size=3)])


def test_stack_dataset_asks_datasets_for_batches_where_they_can():
    class Batched(minigrad.utils.data.Dataset):
        calls = 0

        def __getitems__(self, indices):
            Batched.calls += 1
            return [i * 100 for i in indices]

        def __len__(self):
            return 5

    stacked = minigrad.utils.data.StackDataset(Batched(), range(5))
    assert [[t.tolist() for t in b] for b in minigrad.utils.data.DataLoader(stacked, batch_size=2)] == [
        [[0, 100], [0, 1]],
        [[200, 300], [2, 3]],
        [[400], [4]],
    ]
    assert Batched.calls == 3

    class Short(Batched):
        def __getitems__(self, indices):
            return [0]

    same_error(lambda lib: data(lib).StackDataset(Short(), range(5)).__getitems__([1, 2]), "output size mismatch")


def test_stack_dataset_errors_match_torch():
    same_error(lambda lib: data(lib).StackDataset(), "At least one dataset should be passed")
    same_error(lambda lib: data(lib).StackDataset([1, 2], [1]), "Size mismatch between datasets")
    same_error(lambda lib: data(lib).StackDataset(a=[1, 2], b=[1]), "Size mismatch between datasets")
    same_error(lambda lib: data(lib).StackDataset([1], b=[1]), "but both types are given")


# ---------------------------------------------------------------------- default_convert, get_worker_info


@pytest.mark.parametrize(
    "sample",
    [
        lambda lib: np.arange(3),
        lambda lib: np.float32(2.5),
        lambda lib: np.array(["a", "b"]),
        lambda lib: np.array([1, "x"], dtype=object),
        lambda lib: np.str_("text"),
        lambda lib: (np.zeros(2), 3, "s"),
        lambda lib: [np.ones(2), [np.int64(4)]],
        lambda lib: {"a": np.arange(2), "b": (1.5, np.float64(2))},
        lambda lib: Point(np.arange(2), "p"),
        lambda lib: collections.OrderedDict(z=np.ones(1)),
        lambda lib: range(3),
        lambda lib: lib.tensor([1, 2]),
        lambda lib: 7,
        lambda lib: None,
    ],
)
def test_default_convert_matches_torch(sample):
    same(lambda lib: data(lib).default_convert(sample(lib)))
    same(lambda lib: type(data(lib).default_convert(sample(lib))).__name__)


def test_default_convert_keeps_the_input_tensor_and_mutable_containers_types():
    t = minigrad.ones(2)
    assert minigrad.utils.data.default_convert(t) is t
    converted = minigrad.utils.data.default_convert(collections.OrderedDict(a=np.ones(1)))
    assert isinstance(converted, collections.OrderedDict) and isinstance(converted["a"], minigrad.Tensor)


def test_get_worker_info_is_none_like_in_torchs_main_process():
    same(lambda lib: data(lib).get_worker_info())


def test_the_names_are_exported_like_torch():
    for name in minigrad.utils.data.__all__:
        assert name in torch.utils.data.__all__ and hasattr(minigrad.utils.data, name), name
