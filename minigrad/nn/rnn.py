"""Recurrent layers, as ``torch.nn``: ``RNNCell``, ``LSTMCell``, ``GRUCell`` and ``RNN``, ``LSTM``,
``GRU`` (several layers, bidirectional, ``batch_first``, dropout between layers).

They are composites of minigrad's ops in the order of ATen's CPU code (``aten/src/ATen/native/
RNN.cpp``), so they record PyTorch's graph: each step is ``linear(h, w_hh, b_hh) + x_t`` with
``AddmmBackward0`` nodes, then the gates. A layer projects its whole input sequence once
(``linear(input, w_ih, b_ih)``), unbinds it into time steps, and stacks the outputs.

The gates are split with ``unsafe_chunk`` (``UnsafeSplitBackward0``), as in ATen.
Where PyTorch's graph differs: ATen turns a ``batch_first`` output back with ``transpose_`` (``TransposeBackward1``); minigrad
with ``transpose`` (``TransposeBackward0``).
PyTorch runs a float32 ``LSTM`` on the CPU through oneDNN, one ``MkldnnRnnLayerBackward0`` node
per layer and direction; minigrad records the composite graph, as PyTorch does in float64.
"""

from __future__ import annotations

import math
import numbers

from .. import _warn
from .. import functions as _F
from ..factories import empty, zeros
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

_Params = tuple  # (w_ih, w_hh, b_ih or None, b_hh or None, w_hr or None) of one layer and direction


# --------------------------------------------------------------------------------------- the cells
def _simple_cell(x: Tensor, h: Tensor, params: _Params, nonlinearity: str, projected: bool) -> Tensor:
    """``nonlinearity(linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih))`` (``x`` already projected
    when ``projected``)."""
    w_ih, w_hh, b_ih, b_hh = params[:4]
    gates = F.linear(h, w_hh, b_hh) + (x if projected else F.linear(x, w_ih, b_ih))
    return gates.tanh() if nonlinearity == "tanh" else gates.relu()


def _lstm_cell(x: Tensor, hidden: tuple[Tensor, Tensor], params: _Params, projected: bool) -> tuple[Tensor, Tensor]:
    """One LSTM step: the gates (input, forget, cell, output) from one sum, then the new cell and
    hidden state (projected by ``w_hr`` when the layer has one)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = params
    h, c = hidden
    gates = F.linear(h, w_hh, b_hh) + (x if projected else F.linear(x, w_ih, b_ih))
    i, f, g, o = gates.unsafe_chunk(4, 1)
    cy = f.sigmoid() * c + i.sigmoid() * g.tanh()
    hy = o.sigmoid() * cy.tanh()
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def _gru_cell(x: Tensor, h: Tensor, params: _Params, projected: bool) -> Tensor:
    """One GRU step: reset and update gates, the candidate ``n``, and ``(h - n) * z + n``."""
    w_ih, w_hh, b_ih, b_hh = params[:4]
    x_r, x_z, x_n = (x if projected else F.linear(x, w_ih, b_ih)).unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).unsafe_chunk(3, 1)
    reset = (h_r + x_r).sigmoid()
    update = (h_z + x_z).sigmoid()
    new = (x_n + h_n * reset).tanh()
    return (h - new) * update + new


def _check_cell_input(input: Tensor, input_size: int) -> None:
    if input.shape[1] != input_size:
        raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected {input_size}")


def _check_cell_hidden(input: Tensor, hx: Tensor, hidden_size: int, label: int) -> None:
    if input.shape[0] != hx.shape[0]:
        raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{label} batch size {hx.shape[0]}")
    if hx.shape[1] != hidden_size:
        raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {hx.shape[1]}, expected {hidden_size}")


class RNNCellBase(Module):
    """What the three cells share: ``weight_ih``, ``weight_hh`` and (with ``bias``) ``bias_ih``,
    ``bias_hh``, each uniform in ``±1/sqrt(hidden_size)``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self) -> _Params:
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None

    def _batched(self, input: Tensor, name: str) -> bool:
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        return input.dim() == 2

    def _as_batch(self, input: Tensor, hx: Tensor | None, name: str) -> tuple[Tensor, Tensor, bool]:
        """``input`` and the hidden state of an RNN or GRU cell (zeros when not given) as a batch,
        and whether they came as one."""
        batched = self._batched(input, name)
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
        elif not batched:
            hx = hx.unsqueeze(0)
        return input, hx, batched


class RNNCell(RNNCellBase):
    """An Elman cell: ``h' = tanh(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)`` (or ``relu``).

    >>> import minigrad as torch
    >>> cell = torch.nn.RNNCell(3, 2)
    >>> cell(torch.zeros(4, 3)).shape
    torch.Size([4, 2])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device=None,
        dtype=None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._as_batch(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        _check_cell_input(input, self.weight_ih.shape[1])
        _check_cell_hidden(input, hx, self.weight_hh.shape[1], 0)
        out = _simple_cell(input, hx, self._params(), self.nonlinearity, projected=False)
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """A long short-term memory cell: ``(h', c') = cell(x, (h, c))``, gates in the order input,
    forget, cell, output along ``weight_ih``'s rows.

    >>> import minigrad as torch
    >>> h, c = torch.nn.LSTMCell(3, 2)(torch.zeros(4, 3))
    >>> h.shape, c.shape
    (torch.Size([4, 2]), torch.Size([4, 2]))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        batched = self._batched(input, "LSTMCell")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zero = zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zero, zero)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        if isinstance(hx, Tensor):  # one stacked tensor (a batched input's hx is used as given)
            raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor")
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        _check_cell_input(input, self.weight_ih.shape[1])
        _check_cell_hidden(input, hx[0], self.weight_hh.shape[1], 0)
        _check_cell_hidden(input, hx[1], self.weight_hh.shape[1], 1)
        h, c = _lstm_cell(input, tuple(hx), self._params(), projected=False)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """A gated recurrent unit cell, gates in the order reset, update, new along ``weight_ih``'s rows.

    >>> import minigrad as torch
    >>> torch.nn.GRUCell(3, 2)(torch.zeros(3)).shape
    torch.Size([2])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._as_batch(input, hx, "GRUCell")
        _check_cell_input(input, self.weight_ih.shape[1])
        _check_cell_hidden(input, hx, self.weight_hh.shape[1], 0)
        out = _gru_cell(input, hx, self._params(), projected=False)
        return out if batched else out.squeeze(0)


# -------------------------------------------------------------------------------------- the layers
def _layer(step, input: Tensor, hidden, params: _Params, reverse: bool) -> tuple[Tensor, object]:
    """One layer in one direction over a (seq, batch, features) input, as ATen's ``FullLayer``:
    the input projected once, unbound into steps, the step outputs stacked."""
    steps = F.linear(input, params[0], params[2]).unbind(0)
    if not steps:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    outputs = []
    for x in reversed(steps) if reverse else steps:
        hidden = step(x, hidden, params)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    if reverse:
        outputs.reverse()
    return _F.stack(outputs, 0), hidden


class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: the parameters of each layer and direction,
    named ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (and for an
    LSTM with ``proj_size``, ``weight_hr_l{k}``), with ``_reverse`` for the backward direction,
    each uniform in ``±1/sqrt(hidden_size)``."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            _warn.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
            )
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
            if not isinstance(value, int):
                raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gate_size is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size *= hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size

        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, "_reverse" if direction == 1 else "") for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(empty(shape, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor | None]:
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters, one list per layer and direction."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """Does nothing: PyTorch packs the weights for cuDNN here; minigrad keeps them apart."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # the checks of PyTorch's Python module
    def check_input(self, input: Tensor, batch_sizes=None) -> None:
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})"
            )
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.shape[-1]:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.shape[-1]}"
            )

    def get_expected_hidden_size(self, input: Tensor, batch_sizes=None) -> tuple[int, int, int]:
        mini_batch = input.shape[0] if self.batch_first else input.shape[1]
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(
        self, hx: Tensor, expected_hidden_size: tuple[int, int, int], msg: str = "Expected hidden size {}, got {}"
    ) -> None:
        if tuple(hx.shape) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.shape)))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes=None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def _prepare(self, input: Tensor, name: str, unit: str) -> tuple[Tensor, bool, int]:
        """The input as (seq, batch, features) or (batch, seq, features): an unbatched one gets
        a batch dim."""
        if type(input).__name__ == "PackedSequence":
            raise NotImplementedError(f"{name}: minigrad has no PackedSequence; pass a padded tensor")
        # (anything else that is no tensor, a NumPy array, fails at input.dim(), as in PyTorch)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{unit} instead")
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        return (input if batched else input.unsqueeze(batch_dim)), batched, batch_dim

    def _hidden(self, input: Tensor, hx: Tensor | None, batched: bool) -> Tensor:
        """The initial hidden state of an RNN or GRU: ``hx`` checked (and batched), or zeros."""
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        else:
            if not batched and hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
            if batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            hx = hx if batched else hx.unsqueeze(1)
        self.check_forward_args(input, hx)
        return hx

    def _zeros(self, input: Tensor, size: int) -> Tensor:
        num_directions = 2 if self.bidirectional else 1
        batch = input.shape[0] if self.batch_first else input.shape[1]
        return zeros(self.num_layers * num_directions, batch, size, dtype=input.dtype, device=input.device)

    def _run(self, step, input: Tensor, hiddens: list) -> tuple[Tensor, list]:
        """ATen's layer stack: each layer (both directions, outputs joined along the features),
        dropout between layers when training; returns the output and the final hiddens, in the
        order of ``h_0``'s rows."""
        if self.batch_first:
            input = input.transpose(0, 1)
        params = [tuple(getattr(self, n, None) for n in self._param_names(k)) for k in range(len(hiddens))]
        finals = []
        directions = 2 if self.bidirectional else 1
        for layer in range(self.num_layers):
            k = layer * directions
            output, final = _layer(step, input, hiddens[k], params[k], reverse=False)
            finals.append(final)
            if self.bidirectional:
                backward, final = _layer(step, input, hiddens[k + 1], params[k + 1], reverse=True)
                finals.append(final)
                output = _F.cat([output, backward], output.dim() - 1)
            input = output
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout, True)
        return (input.transpose(0, 1) if self.batch_first else input), finals

    def _param_names(self, k: int) -> list[str]:
        layer, direction = divmod(k, 2 if self.bidirectional else 1)
        suffix = f"l{layer}{'_reverse' if direction else ''}"
        return [f"{w}_{suffix}" for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]


class RNN(RNNBase):
    """A multi-layer Elman RNN: ``h_t = tanh(x_t @ W_ih.T + b_ih + h_{t-1} @ W_hh.T + b_hh)`` (or
    ``relu``). Returns ``(output, h_n)``.

    >>> import minigrad as torch
    >>> rnn = torch.nn.RNN(3, 2, num_layers=2)
    >>> output, h_n = rnn(torch.zeros(5, 4, 3))
    >>> output.shape, h_n.shape
    (torch.Size([5, 4, 2]), torch.Size([2, 4, 2]))
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        input, batched, batch_dim = self._prepare(input, "RNN", " tensor")
        hx = self._hidden(input, hx, batched)
        nonlinearity = "tanh" if self.mode == "RNN_TANH" else "relu"

        def step(x, h, params):
            return _simple_cell(x, h, params, nonlinearity, projected=True)

        output, finals = self._run(step, input, list(hx.unbind(0)))
        hidden = _F.stack(finals, 0)
        if not batched:
            return output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


class LSTM(RNNBase):
    """A multi-layer long short-term memory RNN. Returns ``(output, (h_n, c_n))``; with
    ``proj_size > 0`` each hidden state is projected by ``weight_hr_l{k}``.

    >>> import minigrad as torch
    >>> lstm = torch.nn.LSTM(3, 2, batch_first=True, bidirectional=True)
    >>> output, (h_n, c_n) = lstm(torch.zeros(4, 5, 3))
    >>> output.shape, h_n.shape, c_n.shape
    (torch.Size([4, 5, 4]), torch.Size([2, 4, 2]), torch.Size([2, 4, 2]))
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes=None) -> tuple[int, int, int]:
        mini_batch = input.shape[0] if self.batch_first else input.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: tuple[Tensor, Tensor], batch_sizes=None) -> None:  # type: ignore[override]
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input), "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input), "Expected hidden[1] size {}, got {}")

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        input, batched, batch_dim = self._prepare(input, "LSTM", "")
        if hx is None:
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zeros(input, real_hidden_size), self._zeros(input, self.hidden_size))
        else:
            dims = (hx[0].dim(), hx[1].dim())
            if batched and dims != (3, 3):
                raise RuntimeError(
                    f"For batched 3-D input, hx and cx should also be 3-D but got ({dims[0]}-D, {dims[1]}-D) tensors"
                )
            if not batched:
                if dims != (2, 2):
                    raise RuntimeError(
                        "For unbatched 2-D input, hx and cx should also be 2-D but got "
                        f"({dims[0]}-D, {dims[1]}-D) tensors"
                    )
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx)
        # PyTorch's kernel takes the pair (h_0, c_0) itself: one stacked tensor (whose hx[0] and
        # hx[1] pass the checks above) or a third state are refused there
        if isinstance(hx, Tensor):
            raise TypeError(
                "lstm() received an invalid combination of arguments - got a Tensor for hx, but expected "
                "tuple of Tensors hx: pass the pair (h_0, c_0)"
            )
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")

        def step(x, hidden, params):
            return _lstm_cell(x, hidden, params, projected=True)

        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        output, finals = self._run(step, input, hiddens)
        h_n = _F.stack([h for h, _ in finals], 0)
        c_n = _F.stack([c for _, c in finals], 0)
        if not batched:
            return output.squeeze(batch_dim), (h_n.squeeze(1), c_n.squeeze(1))
        return output, (h_n, c_n)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit RNN. Returns ``(output, h_n)``.

    >>> import minigrad as torch
    >>> output, h_n = torch.nn.GRU(3, 2)(torch.zeros(5, 3))
    >>> output.shape, h_n.shape
    (torch.Size([5, 2]), torch.Size([1, 2]))
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        input, batched, batch_dim = self._prepare(input, "GRU", "")
        hx = self._hidden(input, hx, batched)

        def step(x, h, params):
            return _gru_cell(x, h, params, projected=True)

        output, finals = self._run(step, input, list(hx.unbind(0)))
        hidden = _F.stack(finals, 0)
        if not batched:
            return output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden
