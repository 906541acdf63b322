"""libstdc++'s sorting algorithms, replayed in Python step for step.

PyTorch's CPU kernels for ``mode`` and ``topk`` sort (value, index) pairs with ``std::sort``,
``std::nth_element`` and ``std::partial_sort``. Which of several equal values (or NaN) ends up
where, and so where a gradient flows, is decided by those algorithms; a stable sort decides
otherwise. minigrad replays them only for rows with ties, which are rare.
"""

from __future__ import annotations

import operator

INSERTION_SORT_MAX = 16  # libstdc++'s std::sort is an insertion sort (stable) up to 16 elements


def std_sort_order(values: list) -> list:
    """The order in which libstdc++'s ``std::sort`` leaves ``values`` when comparing them with
    ``<``, as PyTorch's mode kernel sorts (value, index) pairs. It differs from a stable sort in
    the order of equal values, and with NaN, which compares False."""
    run = Libstdcxx(values)
    run.sort(0, len(values))
    return run.idx


class Libstdcxx:
    """libstdc++'s ``std::sort`` (introsort: median-of-three quicksort down to runs of 16,
    heapsort past a depth of 2 log2 n, then insertion sort), ``std::nth_element`` (the same
    quickselect down to runs of 3) and ``std::partial_sort`` (a heap), replayed on a list of
    values that carry their original places (``idx``) along, comparing with ``less``. PyTorch's
    CPU kernels run them on (value, index) pairs: the places they leave equal values (and NaN)
    in are PyTorch's, which a stable sort's are not."""

    def __init__(self, values: list, less=operator.lt) -> None:
        self.v, self.idx, self.less = list(values), list(range(len(values))), less

    def _lt(self, i: int, j: int) -> bool:
        return self.less(self.v[i], self.v[j])

    def _swap(self, i: int, j: int) -> None:
        v, idx = self.v, self.idx
        v[i], v[j], idx[i], idx[j] = v[j], v[i], idx[j], idx[i]

    def _linear_insert(self, i: int) -> None:  # __unguarded_linear_insert
        v, idx = self.v, self.idx
        value, index = v[i], idx[i]
        while i and self.less(value, v[i - 1]):  # (the bound C++ leaves out, where NaN could run past it)
            v[i], idx[i] = v[i - 1], idx[i - 1]
            i -= 1
        v[i], idx[i] = value, index

    def _insertion_sort(self, first: int, last: int) -> None:
        v, idx = self.v, self.idx
        for i in range(first + 1, last):
            if self._lt(i, first):
                value, index = v[i], idx[i]
                v[first + 1 : i + 1], idx[first + 1 : i + 1] = v[first:i], idx[first:i]
                v[first], idx[first] = value, index
            else:
                self._linear_insert(i)

    def _adjust_heap(self, first: int, hole: int, length: int, value, index) -> None:
        v, idx = self.v, self.idx
        top = second = hole
        while second < (length - 1) // 2:
            second = 2 * (second + 1)
            if self._lt(first + second, first + second - 1):
                second -= 1
            v[first + hole], idx[first + hole] = v[first + second], idx[first + second]
            hole = second
        if length % 2 == 0 and second == (length - 2) // 2:
            second = 2 * (second + 1)
            v[first + hole], idx[first + hole] = v[first + second - 1], idx[first + second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and self.less(v[first + parent], value):
            v[first + hole], idx[first + hole] = v[first + parent], idx[first + parent]
            hole, parent = parent, (parent - 1) // 2
        v[first + hole], idx[first + hole] = value, index

    def _pop_heap(self, first: int, last: int, result: int) -> None:
        v, idx = self.v, self.idx
        value, index = v[result], idx[result]
        v[result], idx[result] = v[first], idx[first]
        self._adjust_heap(first, 0, last - first, value, index)

    def _heap_select(self, first: int, middle: int, last: int) -> None:
        length = middle - first
        for parent in range((length - 2) // 2, -1, -1) if length >= 2 else ():  # make_heap
            self._adjust_heap(first, parent, length, self.v[first + parent], self.idx[first + parent])
        for i in range(middle, last):
            if self._lt(i, first):
                self._pop_heap(first, middle, i)

    def _sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self._pop_heap(first, last, last)

    def _partition(self, first: int, last: int) -> int:
        """The median of three moved to ``first``, then __unguarded_partition around it: the cut."""
        a, b, c = first + 1, first + (last - first) // 2, last - 1
        if self._lt(a, b):
            self._swap(first, b if self._lt(b, c) else c if self._lt(a, c) else a)
        else:
            self._swap(first, a if self._lt(a, c) else c if self._lt(b, c) else b)
        lo, hi = first + 1, last
        while True:
            while lo < last - 1 and self._lt(lo, first):
                lo += 1
            hi -= 1
            while hi > first and self._lt(first, hi):
                hi -= 1
            if lo >= hi:
                return lo
            self._swap(lo, hi)
            lo += 1

    def _introsort(self, first: int, last: int, depth: int) -> None:
        while last - first > INSERTION_SORT_MAX:
            if depth == 0:
                self.partial_sort(first, last, last)
                return
            depth -= 1
            cut = self._partition(first, last)
            self._introsort(cut, last, depth)
            last = cut

    def sort(self, first: int, last: int) -> None:
        """``std::sort(first, last)``."""
        if last - first > 1:
            self._introsort(first, last, 2 * ((last - first).bit_length() - 1))
            self._insertion_sort(first, min(last, first + INSERTION_SORT_MAX))
            for i in range(first + INSERTION_SORT_MAX, last):
                self._linear_insert(i)

    def partial_sort(self, first: int, middle: int, last: int) -> None:
        """``std::partial_sort(first, middle, last)``: the smallest, in order, before ``middle``."""
        self._heap_select(first, middle, last)
        self._sort_heap(first, middle)

    def nth_element(self, nth: int) -> None:
        """``std::nth_element(begin, begin + nth, end)`` (introselect)."""
        first, last = 0, len(self.v)
        if nth >= last:
            return
        depth = 2 * (last.bit_length() - 1)
        while last - first > 3:
            if depth == 0:
                self._heap_select(first, nth + 1, last)
                self._swap(first, nth)
                return
            depth -= 1
            cut = self._partition(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self._insertion_sort(first, last)
