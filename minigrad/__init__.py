"""minigrad: PyTorch's tensors and autograd, small enough to read.

``import minigrad as torch`` runs PyTorch's autograd examples unchanged::

    >>> import minigrad as torch
    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> a = torch.tensor(4.0, requires_grad=True)
    >>> z = a * x + 5
    >>> z.backward()
    >>> x.grad, a.grad
    (tensor(4.), tensor(3.))
"""

import builtins as _builtins

from . import autograd, cuda
from ._arguments import checked as _checked
from ._arguments import one_size as _one_size
from ._printing import set_printoptions
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import _state as _grad_mode
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .backend import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    device,
    get_default_device,
    memory_format,
    preserve_format,
    set_default_device,
)
from .dtypes import (
    bool,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    set_default_dtype,
    uint8,
)
from .factories import (
    BoolTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    arange,
    as_tensor,
    asarray,
    bartlett_window,
    bernoulli,
    blackman_window,
    empty,
    empty_like,
    empty_strided,
    eye,
    from_numpy,
    full,
    full_like,
    hamming_window,
    hann_window,
    kaiser_window,
    linspace,
    manual_seed,
    multinomial,
    normal,
    ones,
    ones_like,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from .functions import *  # noqa: F403 - every differentiable function, PyTorch-style
from .functions import __all__ as _function_names
from .functions import _torch_range as range  # PyTorch's names, private in functions
from .functions import _torch_scalar_tensor as scalar_tensor
from .functions import broadcast_shapes
from .random import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state
from .tensor import Size, Tensor


def is_grad_enabled() -> _builtins.bool:
    """Whether grad mode is on. Inside ``inference_mode`` an ``enable_grad`` turns it on, as in
    PyTorch, yet nothing is recorded there (``autograd.grad_mode.is_grad_enabled()``, which
    minigrad's own code asks, says whether operations are recorded)."""
    return _grad_mode.grad


# A wrong argument gets PyTorch's TypeError, not an AttributeError (or NumPy's error) from inside.
_LIKE = ("zeros", "ones", "empty", "full", "rand", "randn", "randint")  # and their *_like
_FACTORIES = ("tensor", *_LIKE, *(f"{name}_like" for name in _LIKE), "arange", "linspace", "eye", "randperm")
for _name in (*_function_names, *_FACTORIES):
    globals()[_name] = _checked(globals()[_name])
# The methods take a size as numbers one by one (x.reshape(2, 3)); these functions, as one sequence.
for _name, _size in {
    "reshape": "shape",
    "permute": "dims",
    "flip": "dims",
    "broadcast_to": "size",
    "tile": "dims",
}.items():
    globals()[_name] = _one_size(globals()[_name], _size)

float = float32  # noqa: A001 - PyTorch's aliases
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

__version__ = "0.1.0"

from math import e, inf, nan, pi  # noqa: E402 - PyTorch exposes these constants

newaxis = None


from . import linalg, nn, optim, random, special, utils  # noqa: E402  (these build on everything above)
from .linalg import (  # noqa: E402  (torch.* names of torch.linalg functions)
    cholesky_inverse,
    cholesky_solve,
    det,
    logdet,
    lu_unpack,
    matrix_exp,
    pinverse,
    triangular_solve,
)
from .linalg import inv as inverse  # noqa: E402
from .linalg import torch_cholesky as cholesky  # noqa: E402
from .linalg import torch_eig as eig  # noqa: E402
from .linalg import torch_lu as lu  # noqa: E402
from .linalg import torch_lu_solve as lu_solve  # noqa: E402
from .linalg import torch_qr as qr  # noqa: E402
from .linalg import torch_slogdet as slogdet  # noqa: E402
from .linalg import torch_svd as svd  # noqa: E402
from .nn._toplevel import (  # noqa: E402  (functional ops torch also exposes at top level)
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    alpha_dropout,
    avg_pool1d,
    batch_norm,
    bilinear,
    binary_cross_entropy_with_logits,
    celu,
    celu_,
    channel_shuffle,
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    cosine_embedding_loss,
    cosine_similarity,
    dropout,
    embedding,
    group_norm,
    hardshrink,
    hinge_embedding_loss,
    instance_norm,
    kl_div,
    layer_norm,
    margin_ranking_loss,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    pairwise_distance,
    pdist,
    pixel_shuffle,
    pixel_unshuffle,
    poisson_nll_loss,
    prelu,
    rms_norm,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
    triplet_margin_loss,
)
from .nn.functional import _weight_norm, norm_except_dim  # noqa: E402
from .special import digamma, erfc, erfc_, erfinv, i0, i0_, lgamma, mvlgamma, polygamma  # noqa: E402

# PyTorch's dtypes that NumPy (so minigrad) has no type for, or that minigrad leaves out.
_MISSING_DTYPES = {
    "bfloat16": "NumPy has no bfloat16; use float16 or float32",
    **dict.fromkeys(
        ("complex32", "complex64", "complex128", "chalf", "cfloat", "cdouble"),
        "minigrad has no complex dtypes (see README: Differences from PyTorch)",
    ),
    **dict.fromkeys(("uint16", "uint32", "uint64"), "its unsigned integer dtype is uint8; use int32 or int64"),
    **dict.fromkeys(
        ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "qint8", "quint8", "qint32", "quint4x2"),
        "minigrad has no float8 or quantized dtypes",
    ),
}


def __getattr__(name: str):
    """A missing attribute: PyTorch's AttributeError, and for a PyTorch dtype minigrad lacks, why."""
    message = f"module 'minigrad' has no attribute '{name}'"
    if name in _MISSING_DTYPES:
        message += f": minigrad does not implement torch.{name} ({_MISSING_DTYPES[name]})"
    raise AttributeError(message)
