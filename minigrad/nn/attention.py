"""Attention: ``scaled_dot_product_attention``, ``multi_head_attention_forward`` and
``nn.MultiheadAttention``, as PyTorch's.

``scaled_dot_product_attention`` is PyTorch's "math" path (``_scaled_dot_product_attention_math``),
written with minigrad ops so it records PyTorch's nodes for that path: the query and the
transposed key each scaled by ``sqrt(scale)`` (``MulBackward1``), the matmul, the mask added
(``AddBackward0``), ``_safe_softmax`` (``SafeSoftmaxBackward0``: a row with nothing to attend to
gives zeros, not NaN), dropout (``MulBackward0``) and the matmul with the value. On the CPU,
PyTorch takes a fused kernel instead for 4-D inputs of one head size without dropout
(``ScaledDotProductFlashAttentionForCpuBackward0``); minigrad always records the math path.

The two ops below are what ``minigrad.functions`` lacks: multiplication by a number as PyTorch's
C++ records it (``mul.Scalar``, ``MulBackward1``; from Python ``x * 0.5`` is ``MulBackward0``) and
``_safe_softmax``, whose backward is softmax's.
"""

from __future__ import annotations

import math

from .. import _warn
from .. import functions as _F
from ..autograd.op import Op
from ..factories import ones, zeros, zeros_like
from ..functions import mul_scalar_op
from ..tensor import Tensor
from . import init
from .functional import dropout, linear, pad, softmax
from .linear import Linear
from .module import Module
from .parameter import Parameter

__all__ = [
    "MultiheadAttention",
    "NonDynamicallyQuantizableLinear",
    "multi_head_attention_forward",
    "scaled_dot_product_attention",
]


def _safe_softmax(xp, a, dim):
    """Softmax along ``dim``, with zeros for a row that is all ``-inf`` (instead of NaN)."""
    empty = xp.all(a == -xp.inf, axis=dim, keepdims=True)
    out = _F._softmax(xp, xp.where(empty, xp.zeros((), a.dtype), a), dim)  # no 0/0 warnings
    return xp.where(empty, xp.zeros((), a.dtype), out)


_safe_softmax_op = Op(
    "SafeSoftmaxBackward0",
    lambda xp, self, *, dim: _safe_softmax(xp, self, dim),
    self=lambda grad, result, dim: _F.softmax_backward_op(grad, result, dim=dim),
)


def _cpp_dtype(t: Tensor) -> str:
    return _F._CPP_NAMES.get(t.dtype, str(t.dtype))


def _check_sdpa_input(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    """PyTorch's ``validate_sdpa_input``: one dtype and device, at least 2-D, a mask of bool,
    float32 or the query's dtype."""
    if not query.dtype is key.dtype is value.dtype:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_cpp_dtype(query)} key.dtype: {_cpp_dtype(key)} and value.dtype: {_cpp_dtype(value)} instead."
        )
    if not query.device == key.device == value.device:
        raise RuntimeError(
            "Expected query, key, and value to have the same device type, but got query.device: "
            f"{query.device} key.device: {key.device} and value.device: {value.device} instead."
        )
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
            f"{query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead."
        )
    if attn_mask is not None and attn_mask.dtype not in (_F.dtypes.bool, _F.dtypes.float32, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
            f"{_cpp_dtype(attn_mask)} and  query.dtype: {_cpp_dtype(query)} instead."
        )
    if not query.dtype.is_floating_point:
        raise RuntimeError(f"expected scalar type Float but found {query.dtype._legacy_name}")


def _additive_mask(mask: Tensor, dtype) -> Tensor:
    """A boolean mask (True: attend) as one to add to the scores: 0 where True, -inf where False."""
    if mask.dtype is not _F.dtypes.bool:
        return mask
    return zeros_like(mask, dtype=dtype).masked_fill_(mask.logical_not(), float("-inf"))


def _group_query_heads(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> tuple[Tensor, Tensor]:
    """With ``enable_gqa``, key and value heads repeated to the query's number of heads (dim -3)."""
    if not enable_gqa:
        return key, value
    heads, key_heads, value_heads = query.shape[-3], key.shape[-3], value.shape[-3]
    if heads == key_heads == value_heads:
        return key, value
    if heads % key_heads or heads % value_heads:
        raise RuntimeError(  # PyTorch's words stop after "in "; the rest says which numbers
            "Number of heads in key and value must divide the number of heads in "
            f"query: got {heads} query heads, {key_heads} key heads and {value_heads} value heads"
        )
    return key.repeat_interleave(heads // key_heads, -3), value.repeat_interleave(heads // value_heads, -3)


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """``softmax(query @ key.mT * scale + mask) @ value`` over the last two dims, batch dims broadcast.

    ``attn_mask`` is boolean (True: take part) or added to the scores; ``is_causal`` masks as
    ``ones(L, S).tril()`` (aligned at the top left). ``scale`` defaults to ``1/sqrt(E)``. A query
    row with nothing to attend to gives zeros. Dropout (``dropout_p``) always applies, with
    minigrad's random numbers.

    >>> import minigrad as torch
    >>> q = k = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    >>> v = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    tensor([[1.0000, 2.0000],
            [2.3395, 3.3395]])
    """
    _check_sdpa_input(query, key, value, attn_mask)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError(
                "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
            )
        attn_mask = ones(query.shape[-2], key.shape[-2], dtype=_F.dtypes.bool, device=query.device).tril()
    if attn_mask is not None:
        attn_mask = _additive_mask(attn_mask, query.dtype)
    # q and k are each scaled by sqrt(scale) before the product, for stability (as PyTorch)
    factor = math.sqrt(abs(scale) if scale is not None else 1.0 / math.sqrt(query.shape[-1]))
    query = mul_scalar_op(query, other=-factor if scale is not None and scale < 0 else factor)
    key, value = _group_query_heads(query, key, value, enable_gqa)
    attn = query.matmul(mul_scalar_op(key.transpose(-2, -1), other=factor))
    if attn_mask is not None:
        attn = attn.add_(attn_mask)  # in place, as PyTorch (so the mask cannot grow the scores)
    attn = _safe_softmax_op(attn, dim=attn.ndim - 1)
    if dropout_p > 0.0:
        if dropout_p > 1.0:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
        attn = dropout(attn, dropout_p)
    return attn.matmul(value)


# ---------------------------------------------------------------------------------------------- multi-head
def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """PyTorch's checks of the input dims; whether the input is batched."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                f" but found {key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                f" but found {key_padding_mask.ndim}-D tensor instead"
            )
        if attn_mask is not None and attn_mask.ndim not in (2, 3):
            raise AssertionError(
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                f" but found {attn_mask.ndim}-D tensor instead"
            )
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
                f" but found {key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                f" but found {key_padding_mask.ndim}-D tensor instead"
            )
        if attn_mask is not None:
            if attn_mask.ndim not in (2, 3):
                raise AssertionError(
                    "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                    f" but found {attn_mask.ndim}-D tensor instead"
                )
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.ndim == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D query tensor")


def _canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type, check_other: bool = True):
    """A bool mask (True: masked out) as a float one (-inf there); a float one as it is."""
    if mask is None:
        return None
    if mask.dtype is not _F.dtypes.bool and not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        _warn.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both instead.",
        )
    if not mask.dtype.is_floating_point:
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None) -> list[Tensor]:
    """q, k, v through the packed (3E, E) weight: one linear for self-attention, two when key is
    value, three otherwise (PyTorch's choice, so the graph is PyTorch's)."""
    embed = q.shape[-1]
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return [proj[0], proj[1], proj[2]]
        w_q, w_kv = w.split([embed, embed * 2])
        b_q, b_kv = (None, None) if b is None else b.split([embed, embed * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return [linear(q, w_q, b_q), kv[0], kv[1]]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q, b_k, b_v) -> tuple[Tensor, Tensor, Tensor]:
    """q, k, v through separate weights (when key and value have their own sizes)."""
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for name, w, shape in (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)), ("value", w_v, (eq, ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got {b.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Tensor | None,
    in_proj_bias: Tensor | None,
    bias_k: Tensor | None,
    bias_v: Tensor | None,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | None,
    training: bool = True,
    key_padding_mask: Tensor | None = None,
    need_weights: bool = True,
    attn_mask: Tensor | None = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None,
    v_proj_weight: Tensor | None = None,
    static_k: Tensor | None = None,
    static_v: Tensor | None = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """The forward of ``nn.MultiheadAttention`` on (L, N, E) inputs (or unbatched (L, E)), as
    PyTorch's: the same steps, so the same graph. With ``need_weights`` the scores are a
    ``baddbmm`` (or ``bmm``) and a softmax, and the weights come back (averaged over heads with
    ``average_attn_weights``); without, attention is ``scaled_dot_product_attention``.

    >>> import minigrad as torch
    >>> x = torch.ones(2, 1, 4)
    >>> w, b = torch.eye(4).repeat(3, 1), torch.zeros(12)
    >>> out, weights = torch.nn.functional.multi_head_attention_forward(
    ...     x, x, x, 4, 2, w, b, None, None, False, 0.0, torch.eye(4), torch.zeros(4))
    >>> out.shape, weights
    (torch.Size([2, 1, 4]), tensor([[[0.5000, 0.5000],
             [0.5000, 0.5000]]]))
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:  # as a batch of one, squeezed again at the end
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(
        key_padding_mask, "key_padding_mask", None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
            "`generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the is_causal hint goes to scaled_dot_product_attention instead
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}"
            )
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    if attn_mask is not None:  # as (1 or N * heads, L, S)
        if attn_mask.ndim == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.ndim == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                    f"{(bsz * num_heads, tgt_len, src_len)}."
                )
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")

    if bias_k is not None and bias_v is not None:  # one more key and value, for every batch
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _F.cat([k, bias_k.repeat(1, bsz, 1)])
        v = _F.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # heads to the batch: (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (
        _static(static_k, bsz * num_heads, head_dim, "k")
        if static_k is not None
        else _heads(k, bsz * num_heads, head_dim)
    )
    v = (
        _static(static_v, bsz * num_heads, head_dim, "v")
        if static_v is not None
        else _heads(v, bsz * num_heads, head_dim)
    )

    if add_zero_attn:  # one more key and value of zeros
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = _F.cat([k, zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = _F.cat([v, zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]

    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(
                f"Expected key_padded_mask.shape[1] to be {src_len}, but got {key_padding_mask.shape[1]}"
            )
        key_padding_mask = (
            key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = _F.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = _F.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        attn_output = _F.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.shape[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            attn_output, weights = attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights

    if attn_mask is not None:  # (1, L, S) -> (1, 1, L, S), or (N, heads, L, S)
        if attn_mask.shape[0] == 1 and attn_mask.ndim == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.shape[1])
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


def _heads(t: Tensor, batch_heads: int, head_dim: int) -> Tensor:
    return t.view(t.shape[0], batch_heads, head_dim).transpose(0, 1)


def _static(t: Tensor, batch_heads: int, head_dim: int, name: str) -> Tensor:
    if t.shape[0] != batch_heads:
        raise AssertionError(f"expecting static_{name}.size(0) of {batch_heads}, but got {t.shape[0]}")
    if t.shape[2] != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got {t.shape[2]}")
    return t


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under another name: ``MultiheadAttention.out_proj``, as in PyTorch."""


class MultiheadAttention(Module):
    """Attention from ``num_heads`` heads, each on ``embed_dim // num_heads`` features.

    Parameters as PyTorch's: ``in_proj_weight`` (3E, E) (or ``q_proj_weight``, ``k_proj_weight``,
    ``v_proj_weight`` where ``kdim`` or ``vdim`` differ from E), ``in_proj_bias`` (3E),
    ``out_proj`` (a ``Linear``), ``bias_k`` and ``bias_v`` (1, 1, E) with ``add_bias_kv``; so a
    PyTorch state dict loads. Initialised as PyTorch's ``_reset_parameters`` (Xavier uniform for
    the projections in, zeros for the biases), with minigrad's own random numbers.
    ``forward`` returns ``(attn_output, attn_weights)``; PyTorch's fast path for inference is not
    taken (the same values, another graph; no graph is recorded there anyway).

    >>> import minigrad as torch
    >>> mha = torch.nn.MultiheadAttention(4, 2, batch_first=True)
    >>> x = torch.randn(3, 5, 4)
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape
    (torch.Size([3, 5, 4]), torch.Size([3, 5, 5]))
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                f"num_heads={num_heads} instead"
            )
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(zeros((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(zeros((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(zeros((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(zeros((3 * embed_dim, embed_dim), **factory))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(zeros(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)
        if add_bias_kv:
            self.bias_k = Parameter(zeros((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(zeros((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        is_batched = query.dim() == 3  # (a NumPy query fails here, as in PyTorch)
        key_padding_mask = _canonical_mask(
            key_padding_mask,
            "key_padding_mask",
            None if attn_mask is None else attn_mask.dtype,
            "attn_mask",
            query.dtype,
        )
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if self.batch_first and is_batched:  # to (L, N, E), keeping which of them are the same tensor
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {}
        if not self._qkv_same_embed_dim:
            separate = dict(
                use_separate_proj_weight=True,
                q_proj_weight=self.q_proj_weight,
                k_proj_weight=self.k_proj_weight,
                v_proj_weight=self.v_proj_weight,
            )
        attn_output, attn_output_weights = multi_head_attention_forward(
            query,
            key,
            value,
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            self.dropout,
            self.out_proj.weight,
            self.out_proj.bias,
            training=self.training,
            key_padding_mask=key_padding_mask,
            need_weights=need_weights,
            attn_mask=attn_mask,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
            **separate,
        )
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        return attn_output, attn_output_weights
