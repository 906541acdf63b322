"""The Transformer of "Attention Is All You Need": ``nn.TransformerEncoderLayer``,
``TransformerDecoderLayer``, ``TransformerEncoder``, ``TransformerDecoder`` and ``Transformer``,
built as ``torch/nn/modules/transformer.py`` builds them, from ``MultiheadAttention``, ``Linear``,
``LayerNorm`` and ``Dropout``: the same sub-modules, parameter names, initialisation order (so the
same seed gives the same weights) and forward computation (so the same graph).

PyTorch's inference fast paths (``_transformer_encoder_layer_fwd``, nested tensors for padded
batches: in eval mode, with no gradient wanted) are not taken, but where their results differ from
the ordinary computation, minigrad gives theirs: ``TransformerEncoder`` returns zeros at the padded
positions of a batch it would turn into a nested tensor (before its ``norm``), and an encoder layer
returns NaN for a query whose every key is masked.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

from .. import _warn
from .. import functions as _F
from ..autograd.grad_mode import is_grad_enabled
from ..factories import arange, full
from ..tensor import Tensor
from . import functional as F
from . import init
from .activation import GELU, Dropout, ReLU
from .attention import MultiheadAttention, _canonical_mask
from .container import ModuleList
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
    """``-inf`` above the diagonal, 0 elsewhere: position i may attend to positions <= i."""
    return _F.triu(full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)


def _get_seq_len(src: Tensor, batch_first: bool) -> int:
    if src.ndim == 2:  # unbatched: (S, E)
        return src.shape[0]
    return src.shape[1 if batch_first else 0]


def _none_or_dtype(mask: Tensor | None):
    return None if mask is None else mask.dtype


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None = None, size: int | None = None) -> bool:
    """``is_causal`` if given; else whether ``mask`` is the square subsequent mask (PyTorch's)."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.shape[-2]
        causal = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
        make_causal = mask.shape == causal.shape and bool((mask == causal).all())
    return make_causal


def _get_clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _fast_path_tensors(layer: TransformerEncoderLayer, src: Tensor) -> tuple[Tensor, ...]:
    """The tensors PyTorch's encoder fast paths check for ``requires_grad``."""
    attn = layer.self_attn
    return (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
            layer.norm1.weight, layer.norm1.bias, layer.norm2.weight, layer.norm2.bias,
            layer.linear1.weight, layer.linear1.bias, layer.linear2.weight, layer.linear2.bias)  # fmt: skip


def _no_grad_wanted(tensors: tuple[Tensor, ...]) -> bool:
    return not (is_grad_enabled() and any(t.requires_grad for t in tensors))


def _fully_masked_queries(attn_mask: Tensor | None, key_padding_mask: Tensor | None, batch: int) -> Tensor:
    """(N, L): True for a query that may attend to no key (float masks, -inf where masked)."""
    masks = []
    if attn_mask is not None:  # (L, S), or (N * heads, L, S): a query masked in any head
        masks.append(attn_mask if attn_mask.ndim == 2 else attn_mask.unflatten(0, (batch, -1)))
    if key_padding_mask is not None:  # (N, S)
        masks.append(key_padding_mask[:, None, :])
    merged = masks[0] if len(masks) == 1 else masks[0] + masks[1]
    blocked = (merged == float("-inf")).all(-1)
    if blocked.ndim == 3:  # per head
        blocked = blocked.any(1)
    return blocked.expand(batch, blocked.shape[-1])


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward network, each with a residual connection and a
    ``LayerNorm`` (after the residual sum, or before the block with ``norm_first=True``).

    Sub-modules as PyTorch's: ``self_attn``, ``linear1``, ``dropout``, ``linear2``, ``norm1``,
    ``norm2``, ``dropout1``, ``dropout2``; ``activation`` is ``"relu"``, ``"gelu"`` or a callable.

    >>> import minigrad as torch
    >>> layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
    >>> layer(torch.randn(3, 5, 8)).shape
    torch.Size([3, 5, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        # PyTorch's flag for its fast path (1 relu, 2 gelu, 0 other); kept as an attribute
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", _none_or_dtype(src_mask), "src_mask", src.dtype
        )
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        if (src_mask is not None or src_key_padding_mask is not None) and self._takes_fast_path(src):
            # PyTorch's fused kernel takes a softmax over no key at all: NaN, where attention gives 0
            blocked = _fully_masked_queries(src_mask, src_key_padding_mask, src.shape[0])
            x = x.masked_fill(blocked[..., None], math.nan)
        return x

    def _takes_fast_path(self, src: Tensor) -> bool:
        """Whether PyTorch's ``forward`` would call ``_transformer_encoder_layer_fwd`` (its conditions)."""
        attn = self.self_attn
        return (
            src.ndim == 3
            and not self.training
            and attn.batch_first
            and attn.in_proj_bias is not None
            and attn._qkv_same_embed_dim
            and bool(self.activation_relu_or_gelu)
            and self.norm1.eps == self.norm2.eps
            and attn.num_heads % 2 == 0
            and not any(m._forward_hooks or m._forward_pre_hooks for m in self.modules())
            and _no_grad_wanted(_fast_path_tensors(self, src))
        )

    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool = False
    ) -> Tensor:
        x = self.self_attn(
            x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False, is_causal=is_causal
        )[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention, attention to the encoder's output (``memory``) and a feed-forward network,
    each with a residual connection and a ``LayerNorm``.

    Sub-modules as PyTorch's: ``self_attn``, ``multihead_attn``, ``linear1``, ``dropout``,
    ``linear2``, ``norm1``..``norm3``, ``dropout1``..``dropout3``.

    >>> import minigrad as torch
    >>> layer = torch.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> layer(torch.randn(4, 2, 8), torch.randn(6, 2, 8)).shape
    torch.Size([4, 2, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool = False
    ) -> Tensor:
        x = self.self_attn(
            x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal, need_weights=False
        )[0]
        return self.dropout1(x)

    def _mha_block(
        self,
        x: Tensor,
        mem: Tensor,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        x = self.multihead_attn(
            x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal, need_weights=False
        )[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _why_no_nested_tensor(encoder_layer: Module) -> str:
    """Why PyTorch's encoder would not use nested tensors with this layer ('' if it would)."""
    enc = "encoder_layer"
    if not isinstance(encoder_layer, TransformerEncoderLayer):
        return f"{enc} was not TransformerEncoderLayer"
    if encoder_layer.norm_first:
        return f"{enc}.norm_first was True"
    if not encoder_layer.self_attn.batch_first:
        return f"{enc}.self_attn.batch_first was not True(use batch_first for better inference performance)"
    if not encoder_layer.self_attn._qkv_same_embed_dim:
        return f"{enc}.self_attn._qkv_same_embed_dim was not True"
    if encoder_layer.self_attn.in_proj_bias is None:
        return f"{enc}.self_attn was passed bias=False"
    if not encoder_layer.activation_relu_or_gelu:
        return f"{enc}.activation_relu_or_gelu was not True"
    if encoder_layer.norm1.eps != encoder_layer.norm2.eps:
        return f"{enc}.norm1.eps was not equal to {enc}.norm2.eps"
    if encoder_layer.self_attn.num_heads % 2 == 1:
        return f"{enc}.self_attn.num_heads is odd"
    return ""


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` (in ``layers``), applied in turn, then
    ``norm`` if given.

    >>> import minigrad as torch
    >>> layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
    >>> encoder = torch.nn.TransformerEncoder(layer, num_layers=2)
    >>> encoder(torch.randn(3, 5, 8)).shape
    torch.Size([3, 5, 8])
    """

    __constants__ = ["norm"]

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor  # kept for PyTorch's attributes; no effect here
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            _warn.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}")
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", _none_or_dtype(mask), "mask", src.dtype
        )
        mask = _canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        output = src
        padded = self._nested_padding(src, mask, src_key_padding_mask)
        if padded is not None:  # each sequence's first (unpadded) tokens alone, as in a nested tensor
            src_key_padding_mask = _canonical_mask(padded, "", None, "", src.dtype, check_other=False)
        seq_len = _get_seq_len(src, self.layers[0].self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if padded is not None:  # the nested tensor, padded again with zeros
            output = output.masked_fill(padded[..., None], 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _nested_padding(self, src: Tensor, mask: Tensor | None, key_padding_mask: Tensor | None) -> Tensor | None:
        """Where PyTorch would run the layers on a nested tensor (eval mode, no gradient wanted, a
        batch-first layer, a key padding mask and no other mask; see ``use_nested_tensor``): the
        (N, S) positions it pads with zeros, True beyond each sequence's number of unpadded tokens.
        Else None."""
        first = self.layers[0]
        if not (
            getattr(self, "use_nested_tensor", False)
            and not first.training
            and src.ndim == 3
            and key_padding_mask is not None
            and mask is None
        ):
            return None
        given = key_padding_mask != 0  # (the float form: 0 where a token is kept)
        lengths = (~given).sum(1, keepdim=True)
        padded = arange(src.shape[1], device=src.device) >= lengths
        left_aligned = bool((padded == given).all())
        if (getattr(self, "mask_check", True) and not left_aligned) or not _no_grad_wanted(
            _fast_path_tensors(first, src)
        ):
            return None
        return padded


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer`` (in ``layers``), applied in turn, each
    attending to ``memory``, then ``norm`` if given.

    >>> import minigrad as torch
    >>> layer = torch.nn.TransformerDecoderLayer(8, 2, dim_feedforward=16)
    >>> decoder = torch.nn.TransformerDecoder(layer, num_layers=2)
    >>> decoder(torch.randn(4, 2, 8), torch.randn(6, 2, 8)).shape
    torch.Size([4, 2, 8])
    """

    __constants__ = ["norm"]

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        output = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder (``encoder``) and a decoder (``decoder``), each ending in a ``LayerNorm``;
    every parameter of more than one dim is then re-drawn Xavier uniform, as in PyTorch.

    >>> import minigrad as torch
    >>> model = torch.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
    ...                              dim_feedforward=16, batch_first=True)
    >>> src, tgt = torch.randn(2, 5, 8), torch.randn(2, 3, 8)
    >>> model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3)).shape
    torch.Size([2, 3, 8])
    >>> torch.nn.Transformer.generate_square_subsequent_mask(3)
    tensor([[0., -inf, -inf],
            [0., 0., -inf],
            [0., 0., 0.]])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        custom_encoder: Any | None = None,
        custom_decoder: Any | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (
            d_model,
            nhead,
            dim_feedforward,
            dropout,
            activation,
            layer_norm_eps,
            batch_first,
            norm_first,
            bias,
        )
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(*layer_args, **factory)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(*layer_args, **factory)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        is_batched = src.ndim == 3
        if is_batched and src.shape[0 if self.batch_first else 1] != tgt.shape[0 if self.batch_first else 1]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """A float mask with ``-inf`` above the diagonal and 0 elsewhere: each position sees
        itself and the positions before it."""
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)
