"""``minigrad.optim``: optimizers that update parameters from their ``.grad``, as ``torch.optim``.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
>>> opt = torch.optim.SGD([w], lr=0.1)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
Parameter containing:
tensor([ 0.8000, -1.6000], requires_grad=True)
"""

from . import lr_scheduler, swa_utils
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = [
    "SGD",
    "Adam",
    "AdamW",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adamax",
    "ASGD",
    "LBFGS",
    "NAdam",
    "RAdam",
    "RMSprop",
    "Rprop",
    "Optimizer",
    "lr_scheduler",
    "swa_utils",
]
