"""``nn.utils.rnn``: sequences of different lengths as one padded tensor and back, as PyTorch's
``pad_sequence`` and ``unpad_sequence`` (``PackedSequence`` is not implemented).

>>> import minigrad as torch
>>> a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0])
>>> torch.nn.utils.rnn.pad_sequence([a, b], batch_first=True)
tensor([[1., 2., 3.],
        [4., 0., 0.]])
"""

from __future__ import annotations

from collections.abc import Iterable

from ...factories import arange, full
from ...tensor import Tensor

__all__ = ["pad_sequence", "unpad_sequence"]


def pad_sequence(
    sequences: Tensor | Iterable[Tensor],
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """Stack ``sequences`` (each ``(L_i, *)``) into one ``(L_max, B, *)`` tensor (``(B, L_max, *)``
    with ``batch_first``), filled up with ``padding_value`` on the ``padding_side``.

    As ATen's kernel, it fills a tensor and copies each sequence into its slice, so the graph is a
    chain of ``CopySlices`` nodes.
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            f"pad_sequence: Expected iterable for input sequences, but got arg of type: {type(sequences)}"
        )
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0 (a sequence needs a first dimension: its length)")
    max_len = max(seq.size(0) for seq in sequences)
    out_dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = full(out_dims + tuple(first.shape[1:]), padding_value, dtype=first.dtype, device=first.device)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list[Tensor]:
    """The sequences of a padded tensor, cut to their ``lengths``: :func:`pad_sequence` undone.

    As PyTorch's, it transposes ``padded_sequences`` in place when not ``batch_first``.
    """
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]
