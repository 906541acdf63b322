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

Shuffling draws from minigrad's random numbers, so ``torch.manual_seed`` makes it repeatable
(the order differs from PyTorch's, as all of minigrad's random numbers do). Batches are loaded
in the calling process: ``num_workers`` is accepted and changes nothing but speed.
"""

from __future__ import annotations

import bisect
import collections.abc
import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .. import dtypes, factories, functions
from ..tensor import Tensor

__all__ = ["ConcatDataset", "DataLoader", "Dataset", "Subset", "TensorDataset", "default_collate", "random_split"]


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
    _no_generator(generator)
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [math.floor(n * fraction) for fraction in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.", stacklevel=2
                )
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = factories.randperm(n).tolist()
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


def _convert(sample):
    """A sample as a loader without batches returns it: arrays become tensors, tuples lists."""
    if type(sample).__module__ == "numpy":
        return factories.as_tensor(sample)
    if isinstance(sample, collections.abc.Mapping):
        return type(sample)({key: _convert(value) for key, value in sample.items()})
    if isinstance(sample, tuple) and hasattr(sample, "_fields"):
        return type(sample)(*(_convert(value) for value in sample))
    if isinstance(sample, tuple | list):
        return [_convert(value) for value in sample]
    return sample


class DataLoader:
    """Batches of samples from ``dataset``, one pass per ``for`` loop.

    ``batch_size`` samples per batch (the last may be smaller unless ``drop_last``; ``None``
    returns samples one by one, unbatched), taken in order or, with ``shuffle=True``, in a new
    random order every pass; ``sampler`` (indices) or ``batch_sampler`` (lists of indices) choose
    them otherwise. ``collate_fn`` makes a batch from a list of samples (:func:`default_collate`).
    """

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Iterable[int] | None = None,
        batch_sampler: Iterable[list[int]] | None = None,
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
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError(
                "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
            )
        _no_generator(generator)
        self.dataset = dataset
        self.batch_size = None if batch_sampler is not None else batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.drop_last = drop_last
        batched = batch_size is not None or batch_sampler is not None
        self.collate_fn = collate_fn if collate_fn is not None else (default_collate if batched else _convert)

    def _indices(self) -> Iterable[int]:
        if self.sampler is not None:
            return self.sampler
        if self.shuffle:
            return factories.randperm(len(self.dataset)).tolist()
        return range(len(self.dataset))

    def _batches(self) -> Iterator[list[int]]:
        if self.batch_sampler is not None:
            yield from self.batch_sampler
            return
        batch: list[int] = []
        for index in self._indices():
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __iter__(self) -> Iterator:
        if self.batch_size is None and self.batch_sampler is None:
            for index in self._indices():
                yield self.collate_fn(self.dataset[index])
            return
        for indices in self._batches():
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        count = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return count
        return count // self.batch_size if self.drop_last else math.ceil(count / self.batch_size)


def _no_generator(generator) -> None:
    if generator is not None:
        raise NotImplementedError(
            "minigrad has no torch.Generator: leave generator=None and seed with torch.manual_seed(...)"
        )
