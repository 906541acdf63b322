"""``minigrad.nn``: modules, parameters and losses, as ``torch.nn``.

>>> import minigrad as torch
>>> from minigrad import nn
>>> model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
>>> model
Sequential(
  (0): Linear(in_features=3, out_features=2, bias=True)
  (1): ReLU()
)
>>> model[0].weight.is_leaf, model[0].weight.requires_grad
(True, True)
"""

from . import functional, init, utils
from .activation import ELU, GELU, Dropout, Flatten, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .container import ModuleList, Sequential
from .conv import Conv2d
from .embedding import Embedding
from .linear import Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .parameter import Parameter

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "BatchNorm2d",
    "Conv2d",
    "CrossEntropyLoss",
    "Dropout",
    "ELU",
    "Embedding",
    "Flatten",
    "GELU",
    "Identity",
    "L1Loss",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "LogSoftmax",
    "MSELoss",
    "Module",
    "ModuleList",
    "NLLLoss",
    "Parameter",
    "ReLU",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "Tanh",
    "functional",
    "init",
    "utils",
]
