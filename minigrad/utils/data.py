"""``minigrad.utils.data``: datasets and mini-batches, as ``torch.utils.data``.

A :class:`DataLoader` takes samples from a dataset (anything with ``__getitem__`` and ``__len__``)
in order or shuffled, and stacks each batch of them with :func:`default_collate`::

    >>> import minigrad as torch
    >>> from minigrad.utils.data import DataLoader, TensorDataset
    >>> x, y = torch.arange(10.0).reshape(5, 2), torch.arange(5)
    >>> for xb, yb in DataLoader(TensorDataset(x, y), batch_size=2):
    ...     print(xb.tolist(), yb.tolist())
    [[0.0, 1.0], [2.0, 3.0]] [0, 1]
    [[4.0, 5.0], [6.0, 7.0]] [2, 3]
    [[8.0, 9.0]] [4]

Which samples go in which batch is a sampler's choice (:class:`SequentialSampler`,
:class:`RandomSampler`, :class:`WeightedRandomSampler`, ... wrapped in a :class:`BatchSampler`),
as in PyTorch. Shuffling draws from minigrad's random numbers, which are PyTorch's: after the same
``torch.manual_seed`` (or with the same ``generator=``), the order is PyTorch's. Batches are loaded in the calling process: ``num_workers`` is accepted and changes
nothing but speed, and :func:`get_worker_info` is always ``None``.
"""

from __future__ import annotations

import bisect
import collections.abc
import copy
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .. import _warn, dtypes, factories, functions
from ..tensor import Tensor

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]


class Dataset:
    """A collection of samples: subclasses define ``__getitem__(index)`` and ``__len__()``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Sample ``i`` is ``tuple(t[i] for t in tensors)``; the tensors share their first dimension."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise AssertionError("Size mismatch between tensors")  # PyTorch's assert
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other (``a + b`` makes one too).

    >>> import minigrad as torch
    >>> from minigrad.utils.data import ConcatDataset, TensorDataset
    >>> both = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 12))])
    >>> len(both), both[3], both.cumulative_sizes
    (5, (tensor(10),), [3, 5])
    """

    def __init__(self, datasets: Iterable) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class IterableDataset(Dataset, collections.abc.Iterable):
    """A stream of samples: subclasses define ``__iter__`` (and may define ``__len__``). A
    :class:`DataLoader` batches the samples in the order the stream gives them.

    >>> import minigrad as torch
    >>> from minigrad.utils.data import DataLoader, IterableDataset
    >>> class Squares(IterableDataset):
    ...     def __iter__(self):
    ...         return iter([i * i for i in range(5)])
    >>> [batch.tolist() for batch in DataLoader(Squares(), batch_size=2)]
    [[0, 1], [4, 9], [16]]
    """

    # (``__iter__`` stays abstract, as in PyTorch: the class itself cannot be instantiated)

    def __add__(self, other: Dataset) -> ChainDataset:
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """The samples of several :class:`IterableDataset`, one stream after the other (``a + b``
    makes one too).

    >>> from minigrad.utils.data import ChainDataset, IterableDataset
    >>> class Count(IterableDataset):
    ...     def __init__(self, n):
    ...         self.n = n
    ...     def __iter__(self):
    ...         return iter(range(self.n))
    >>> list(ChainDataset([Count(2), Count(3)]))
    [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        super().__init__()
        self.datasets = datasets

    def __iter__(self) -> Iterator:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class StackDataset(Dataset):
    """Sample ``i`` gathers sample ``i`` of each dataset: a tuple (datasets given by position)
    or a dict (given by keyword). The datasets must have one length.

    >>> import minigrad as torch
    >>> from minigrad.utils.data import StackDataset
    >>> pairs = StackDataset(image=torch.arange(3), label=["a", "b", "c"])
    >>> len(pairs), pairs[1]
    (3, {'image': tensor(1), 'label': 'b'})
    """

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args:
            if kwargs:
                raise ValueError(
                    "Supported either ``tuple``- (via ``args``) or"
                    "``dict``- (via ``kwargs``) like input/output, but both types are given."
                )
            self._length = len(args[0])
            if any(self._length != len(dataset) for dataset in args):
                raise ValueError("Size mismatch between datasets")
            self.datasets: tuple | dict = args
        elif kwargs:
            values = list(kwargs.values())
            self._length = len(values[0])
            if any(self._length != len(dataset) for dataset in values):
                raise ValueError("Size mismatch between datasets")
            self.datasets = kwargs
        else:
            raise ValueError("At least one dataset should be passed")

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: dataset[index] for k, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices: list) -> list:
        """The samples at ``indices``, asking each dataset that can for all of them at once."""
        named = isinstance(self.datasets, dict)
        items = self.datasets.items() if named else enumerate(self.datasets)
        samples: list = [{} if named else [] for _ in indices]
        for key, dataset in items:
            if callable(getattr(dataset, "__getitems__", None)):
                values = dataset.__getitems__(indices)
                if len(values) != len(indices):
                    raise ValueError(
                        f"Nested dataset's output size mismatch. Expected {len(indices)}, got {len(values)}"
                    )
            else:
                values = [dataset[i] for i in indices]
            for value, sample in zip(values, samples):
                if named:
                    sample[key] = value
                else:
                    sample.append(value)
        return samples if named else [tuple(sample) for sample in samples]

    def __len__(self) -> int:
        return self._length


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths: Sequence[int | float], generator=None) -> list[Subset]:
    """Split ``dataset`` at random into subsets of the given ``lengths`` (counts, or fractions
    that sum to 1: the remainder is given out one by one from the first subset on)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [math.floor(n * fraction) for fraction in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                _warn.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.")
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = factories.randperm(n, generator=generator).tolist()
    starts = [sum(lengths[:i]) for i in range(len(lengths))]
    return [Subset(dataset, order[start : start + length]) for start, length in zip(starts, lengths)]


def default_collate(batch: Sequence):
    """One batch from a list of samples: tensors (and NumPy arrays) are stacked along a new first
    dimension, numbers become a tensor (float64 for floats, as in PyTorch), strings stay a tuple,
    and tuples, lists and dicts are collated field by field."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return functions.stack(batch, 0)
    if type(elem).__module__ == "numpy":  # an array or a NumPy number
        return default_collate([factories.as_tensor(b) for b in batch]) if elem.ndim else factories.as_tensor(batch)
    if isinstance(elem, float):
        return factories.tensor(batch, dtype=dtypes.float64)
    if isinstance(elem, int):  # bool too
        return factories.tensor(batch)
    if isinstance(elem, str | bytes):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return type(elem)({key: default_collate([d[key] for d in batch]) for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple keeps its type
        return type(elem)(*(default_collate(field) for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(field) for field in zip(*batch)]
        return fields if isinstance(elem, tuple) else type(elem)(fields)  # tuples become lists
    raise TypeError(
        f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {type(elem)}"
    )


def default_convert(data):
    """A sample as a loader without batches (``batch_size=None``) returns it: NumPy arrays and
    numbers become tensors (arrays of strings or objects stay), tuples become lists, and mappings
    and sequences are converted item by item; anything else is returned as it is.

    >>> import numpy as np
    >>> from minigrad.utils.data import default_convert
    >>> default_convert((np.arange(3), "a", {"x": np.float64(1.5)}))
    [tensor([0, 1, 2]), 'a', {'x': tensor(1.5000, dtype=torch.float64)}]
    """
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ == "ndarray" and data.dtype.kind in "SaUO":  # strings or objects
            return data
        return factories.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):  # a copy keeps the mapping's own attributes
                clone = copy.copy(data)
                clone.update({key: default_convert(data[key]) for key in data})
                return clone
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:  # a mapping that cannot be copied or made from a dict
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a named tuple keeps its type
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, str | bytes):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(data):
                    clone[i] = default_convert(d)
                return clone
            return elem_type([default_convert(d) for d in data])
        except TypeError:  # e.g. a range
            return [default_convert(d) for d in data]
    return data


def get_worker_info() -> None:
    """Information about the loader's worker process: always ``None`` here, since minigrad loads
    every batch in the calling process (as PyTorch returns in its main process).

    >>> from minigrad.utils.data import get_worker_info
    >>> get_worker_info() is None
    True
    """
    return None


# ---------------------------------------------------------------------- samplers


class Sampler:
    """The order of a dataset's samples: subclasses define ``__iter__``, which yields indices
    (or lists of indices, one per batch), and may define ``__len__``."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``, always in that order.

    >>> from minigrad.utils.data import SequentialSampler
    >>> list(SequentialSampler("abc"))
    [0, 1, 2]
    """

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _fresh_generator():
    """PyTorch's samplers seed a new generator from the global stream at every pass."""
    from ..random import Generator  # (imported late: minigrad.random is loaded after this module)

    generator = Generator()
    generator.manual_seed(int(factories.empty((), dtype=dtypes.int64).random_().item()))
    return generator


class RandomSampler(Sampler):
    """The indices of ``data_source`` in a random order: a new permutation at every pass
    (repeated permutations when ``num_samples`` is larger than the dataset), or, with
    ``replacement=True``, ``num_samples`` independent draws.

    >>> import minigrad as torch
    >>> from minigrad.utils.data import RandomSampler
    >>> sorted(RandomSampler(range(5)))
    [0, 1, 2, 3, 4]
    >>> len(list(RandomSampler(range(5), replacement=True, num_samples=12)))
    12
    """

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = _fresh_generator() if self.generator is None else self.generator
        if self.replacement:
            # in draws of 32, as PyTorch (the same stream gives the same indices)
            for _ in range(self.num_samples // 32):
                yield from factories.randint(0, n, (32,), dtype=dtypes.int64, generator=generator).tolist()
            yield from factories.randint(
                0, n, (self.num_samples % 32,), dtype=dtypes.int64, generator=generator
            ).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from factories.randperm(n, generator=generator).tolist()
            yield from factories.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices``, in a new random order at every pass.

    >>> from minigrad.utils.data import SubsetRandomSampler
    >>> sorted(SubsetRandomSampler([7, 3, 5]))
    [3, 5, 7]
    """

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in factories.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices of ``weights``, each drawn with probability proportional to its
    weight (with replacement by default; without, each index at most once).

    >>> from minigrad.utils.data import WeightedRandomSampler
    >>> list(WeightedRandomSampler([0.0, 1.0, 0.0], 4))
    [1, 1, 1, 1]
    """

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True, generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_tensor = factories.as_tensor(weights, dtype=dtypes.float64)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                f"weights should be a 1d sequence but given weights have shape {tuple(weights_tensor.shape)}"
            )
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        yield from factories.multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        ).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (any iterable of indices); the last,
    shorter list is dropped if ``drop_last``.

    >>> from minigrad.utils.data import BatchSampler, SequentialSampler
    >>> list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False))
    [[0, 1, 2], [3, 4, 5], [6]]
    >>> list(BatchSampler(range(7), batch_size=3, drop_last=True))
    [[0, 1, 2], [3, 4, 5]]
    """

    def __init__(self, sampler: Sampler | Iterable[int], batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        sampler_iter = iter(self.sampler)
        if self.drop_last:
            yield from (list(batch) for batch in zip(*[sampler_iter] * self.batch_size))
        else:
            batch = list(itertools.islice(sampler_iter, self.batch_size))
            while batch:
                yield batch
                batch = list(itertools.islice(sampler_iter, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


class _InfiniteConstantSampler(Sampler):
    """``None`` forever: the loader of an :class:`IterableDataset` asks its stream instead."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


# ---------------------------------------------------------------------- the loader


class DataLoader:
    """Batches of samples from ``dataset``, one pass per ``for`` loop.

    ``batch_size`` samples per batch (the last may be smaller unless ``drop_last``; ``None``
    returns samples one by one, unbatched, through :func:`default_convert`), taken in order
    (:class:`SequentialSampler`) or, with ``shuffle=True``, in a new random order every pass
    (:class:`RandomSampler`, with ``generator``); ``sampler`` (indices) or ``batch_sampler``
    (lists of indices) choose them otherwise. An :class:`IterableDataset` is read as the stream
    it is. ``collate_fn`` makes a batch from a list of samples (:func:`default_collate`).
    """

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler | Iterable | None = None,
        batch_sampler: Sampler | Iterable[list] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[[list], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if batch_size is not None and (
            isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0
        ):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if isinstance(dataset, IterableDataset):
            if shuffle not in {False, None}:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                    f"but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
                )
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:  # PyTorch's default samplers
            if isinstance(dataset, IterableDataset):
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator:
        # PyTorch draws a base seed for its workers from the stream at every pass: so does this
        # loader, so that the random numbers that follow are the same.
        factories.empty((), dtype=dtypes.int64).random_(generator=self.generator)
        return self._iterate()

    def _iterate(self) -> Iterator:
        if isinstance(self.dataset, IterableDataset):
            stream = iter(self.dataset)
            if not self._auto_collation:
                for sample in stream:
                    yield self.collate_fn(sample)
                return
            for indices in self._index_sampler:  # only its batch size matters
                batch = list(itertools.islice(stream, len(indices)))
                if not batch or self.drop_last and len(batch) < len(indices):
                    return
                yield self.collate_fn(batch)
                if len(batch) < len(indices):
                    return
            return
        for index in self._index_sampler:
            if not self._auto_collation:
                yield self.collate_fn(self.dataset[index])
            elif callable(getattr(self.dataset, "__getitems__", None)):
                yield self.collate_fn(self.dataset.__getitems__(index))
            else:
                yield self.collate_fn([self.dataset[i] for i in index])

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)
