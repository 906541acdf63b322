"""An argument of the wrong type, given to a ``torch.*`` function or a Tensor method, gets
PyTorch's TypeError naming the argument, its position and the type it must be: not an
AttributeError from minigrad's internals (``'list' object has no attribute 'ndim'``)."""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

from oracle import same_error  # noqa: E402

CALLS = [
    # (what, the call, the message both libraries give)
    (
        "function, second",
        lambda lib: lib.matmul(lib.ones(2, 2), [1.0, 2.0]),
        "matmul(): argument 'other' (position 2) must be Tensor, not list",
    ),
    (
        "function, first",
        lambda lib: lib.softmax(np.ones(3), 0),
        "softmax(): argument 'input' (position 1) must be Tensor, not numpy.ndarray",
    ),
    (
        "function, None",
        lambda lib: lib.tril(None),
        "tril(): argument 'input' (position 1) must be Tensor, not NoneType",
    ),
    (
        "function, number",
        lambda lib: lib.cross(2.0, lib.ones(3), dim=0),
        "cross(): argument 'input' (position 1) must be Tensor, not float",
    ),
    (
        "function, int argument",
        lambda lib: lib.topk(lib.ones(4), lib.ones(4)),
        "topk(): argument 'k' (position 2) must be int, not Tensor",
    ),
    (
        "function, keyword",
        lambda lib: lib.matmul(lib.ones(2, 2), other=(1, 2)),
        "matmul(): argument 'other' must be Tensor, not tuple",
    ),
    (
        "function, list of tensors",
        lambda lib: lib.stack("ab"),
        "stack(): argument 'tensors' (position 1) must be tuple of Tensors, not str",
    ),
    ("factory, number", lambda lib: lib.arange(np.ones(3)), "must be Number, not numpy.ndarray"),
    (
        "factory, list",
        lambda lib: lib.linspace(0.0, [1.0, 2.0], 3),
        "linspace()",
    ),
    ("factory, int", lambda lib: lib.eye(lib.ones(3)), "eye(): argument 'n' (position 1) must be int, not Tensor"),
    (
        "factory, fill",
        lambda lib: lib.full((2,), lib.ones(4)),
        "full(): argument 'fill_value' (position 2) must be Number",
    ),
    ("method", lambda lib: lib.ones(2, 3).matmul(3), "matmul(): argument 'other' (position 1) must be Tensor, not int"),
    ("method, list", lambda lib: lib.ones(3).dot([1.0, 2.0, 3.0]), "must be Tensor, not list"),
    (
        "method, int argument",
        lambda lib: lib.ones(3).topk(lib.ones(3)),
        "topk(): argument 'k' (position 1) must be int, not Tensor",
    ),
]


@pytest.mark.parametrize(("what", "call", "message"), CALLS, ids=[c[0] for c in CALLS])
def test_a_wrong_argument_type_is_named_as_pytorch_names_it(what, call, message):
    same_error(call, message)


def test_factories_take_one_element_tensors_as_numbers_and_refuse_negative_steps():
    for lib in (minigrad, torch):
        assert lib.arange(lib.tensor(3)).tolist() == [0, 1, 2]
        assert lib.full((2,), lib.tensor(3)).tolist() == [3, 3]
        assert lib.eye(lib.tensor(2)).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    same_error(lambda lib: lib.linspace(0, 1, -2), "number of steps must be non-negative")
    same_error(lambda lib: lib.linspace(lib.zeros(1), 1, 3), "0-dimensional start and end tensors", "start with 1")


def test_correct_calls_and_their_own_errors_are_untouched():
    # a one-element integer tensor is a number where an int belongs, as in PyTorch
    assert minigrad.topk(minigrad.arange(5.0), minigrad.tensor(2)).values.tolist() == [4.0, 3.0]
    # an error that is not about an argument's type stays as it was
    same_error(lambda lib: lib.matmul(lib.ones(2, 3), lib.ones(2, 3)), "cannot be multiplied")
    same_error(lambda lib: lib.softmax(lib.ones(2), 3), "Dimension out of range")
    # the wrapped function keeps its name, signature and docstring
    assert minigrad.matmul.__name__ == "matmul" and "other" in str(minigrad.matmul.__wrapped__.__code__.co_varnames)
    assert minigrad.Tensor.matmul.__doc__ == minigrad.functions.matmul.__doc__


@pytest.mark.parametrize(
    "call",
    [
        lambda: minigrad.cross(minigrad.ones(3, 3), minigrad.ones(3, 3)),
        lambda: minigrad.ones(3, 3).cross(minigrad.ones(3, 3)),
        lambda: minigrad.ones(1).std(),
        lambda: minigrad.meshgrid(minigrad.ones(2), minigrad.ones(2)),
        lambda: minigrad.cov(minigrad.ones(2, 1)),
        lambda: minigrad.tensor(minigrad.ones(2)),
        lambda: minigrad.nn.functional.softmax(minigrad.ones(2, 2)),
        lambda: minigrad.nn.functional.mse_loss(minigrad.ones(2, 1), minigrad.ones(2)),
        lambda: minigrad.nn.Softmax()(minigrad.ones(2, 2)),
        lambda: minigrad.zeros(3).scatter_(0, minigrad.tensor([0]), minigrad.ones(1), reduce="add"),
        lambda: minigrad.ones(3)[minigrad.tensor([1, 0, 1], dtype=minigrad.uint8)],
        lambda: (minigrad.ones(2, requires_grad=True) * 2).grad,
        lambda: minigrad.autograd.gradcheck(lambda t: t * 2, (minigrad.ones(2, requires_grad=True),), atol=1),
    ],
)
def test_a_warning_from_inside_a_checked_function_points_at_the_caller(call):
    """Warnings show the user's line (PyTorch warns from C++, so Python shows the caller's line)."""
    with pytest.warns(UserWarning) as caught:
        call()
    assert caught[0].filename == __file__


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.zeros(2, dtype="float32"),
        lambda lib: lib.tensor([1.0], dtype="int64"),
        lambda lib: lib.ones(2).to(dtype="float16"),
        lambda lib: lib.arange(3, dtype="float32"),
    ],
)
def test_a_dtype_given_as_a_string_is_a_type_error_that_says_what_to_write(make):
    error = same_error(make, "dtype")
    assert "must be torch.dtype, not str" in str(error) and "write torch." in str(error)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.zeros(lib.ones(3)),  # float elements are no sizes (minigrad made a (1, 1, 1) tensor)
        lambda lib: lib.zeros(2, lib.ones(3)),
        lambda lib: lib.zeros(2.0),
        lambda lib: lib.ones(6).reshape((2.0, 3)),
    ],
)
def test_a_size_that_is_not_made_of_integers_is_a_type_error(make):
    same_error(make)


def test_integer_tensors_and_numpy_integers_are_sizes():
    import numpy as np

    def run(lib):
        return [
            tuple(lib.zeros(lib.tensor(2)).shape),
            tuple(lib.zeros((lib.tensor(2), 3)).shape),
            tuple(lib.zeros(np.int64(2)).shape),
            tuple(lib.ones(6).reshape(np.int32(2), -1).shape),
        ]

    assert run(minigrad) == run(torch)


# Calls that minigrad could carry out, so only a check before the call refuses them as PyTorch does.
REFUSED_BEFORE = [
    (
        "keepdim int, method",
        lambda lib: lib.ones(2, 3).sum(0, 1),
        "sum(): argument 'keepdim' (position 2) must be bool, not int",
    ),
    (
        "keepdim int, function",
        lambda lib: lib.amax(lib.ones(2, 3), 0, 1),
        "amax(): argument 'keepdim' (position 3) must be bool, not int",
    ),
    (
        "keepdim by name",
        lambda lib: lib.ones(2, 3).mean(dim=0, keepdim=1),
        "mean(): argument 'keepdim' must be bool, not int",
    ),
    ("keepdim NumPy bool", lambda lib: lib.ones(2, 3).sum(0, keepdim=np.True_), "must be bool, not numpy.bool"),
    (
        "keepdim of max",
        lambda lib: lib.ones(2, 3).max(0, 1),
        "max(): argument 'keepdim' (position 2) must be bool, not int",
    ),
    ("largest", lambda lib: lib.ones(4).topk(1, largest=0), "topk(): argument 'largest' must be bool, not int"),
    (
        "requires_grad of a factory",
        lambda lib: lib.ones(2, requires_grad=1),
        "ones(): argument 'requires_grad' must be bool, not int",
    ),
    (
        "requires_grad of tensor()",
        lambda lib: lib.tensor([1.0], requires_grad=1),
        "tensor(): argument 'requires_grad' must be bool",
    ),
    (
        "requires_grad_",
        lambda lib: lib.ones(2).requires_grad_(1),
        "requires_grad_(): argument 'requires_grad' (position 1) must be bool",
    ),
    (
        "dtype of softmax",
        lambda lib: lib.ones(2).softmax(0, 1),
        "softmax(): argument 'dtype' (position 2) must be torch.dtype, not int",
    ),
    (
        "torch.reshape, numbers",
        lambda lib: lib.reshape(lib.ones(6), 2, 3),
        "reshape() takes 2 positional arguments but 3 were given",
    ),
    (
        "torch.reshape, int",
        lambda lib: lib.reshape(lib.ones(6), 6),
        "reshape(): argument 'shape' (position 2) must be tuple of ints, not int",
    ),
    (
        "torch.permute, numbers",
        lambda lib: lib.permute(lib.ones(2, 3), 1, 0),
        "permute() takes 2 positional arguments but 3 were given",
    ),
    (
        "torch.flip, int",
        lambda lib: lib.flip(lib.ones(2), 0),
        "flip(): argument 'dims' (position 2) must be tuple of ints, not int",
    ),
    (
        "torch.flip, by name",
        lambda lib: lib.flip(lib.ones(2), dims=0),
        "flip(): argument 'dims' must be tuple of ints, not int",
    ),
    (
        "torch.broadcast_to, numbers",
        lambda lib: lib.broadcast_to(lib.ones(3), 2, 3),
        "broadcast_to() takes 2 positional arguments but 3 were given",
    ),
    (
        "torch.flip, no dims",
        lambda lib: lib.flip(lib.ones(2)),
        'flip() missing 1 required positional arguments: "dims"',
    ),
    (
        "cat of a tensor",
        lambda lib: lib.cat(lib.ones(2, 3)),
        "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
    ),
    ("cat of a generator", lambda lib: lib.cat(t for t in [lib.ones(2)]), "must be tuple of Tensors, not generator"),
    (
        "stack of a tensor",
        lambda lib: lib.stack(lib.ones(2, 3)),
        "stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
    ),
    (
        "cat, an element",
        lambda lib: lib.cat([lib.ones(2), 1]),
        "expected Tensor as element 1 in argument 0, but got int",
    ),
    (
        "tensor, dtype by position",
        lambda lib: lib.tensor([1.0], lib.float64),
        "tensor() takes 1 positional argument but 2 were given",
    ),
    (
        "pow, an array",
        lambda lib: lib.pow(lib.ones(3), np.ones(3)),
        "pow() received an invalid combination of arguments - got (Tensor, numpy.ndarray)",
    ),
    (
        "norm, an array",
        lambda lib: lib.norm(lib.ones(3), np.ones(3)),
        "argument 'ord' (position 2) must be Number, not numpy.ndarray",
    ),
]


@pytest.mark.parametrize(("what", "call", "message"), REFUSED_BEFORE, ids=[c[0] for c in REFUSED_BEFORE])
def test_a_call_pytorch_refuses_is_refused_even_where_minigrad_could_carry_it_out(what, call, message):
    same_error(call, message)


def test_the_methods_and_the_sequence_forms_still_take_sizes():
    for lib in (minigrad, torch):
        x = lib.arange(6.0).reshape(2, 3)
        assert lib.reshape(x, shape=(3, 2)).shape == x.reshape(3, 2).shape == (3, 2)
        assert lib.permute(x, dims=[1, 0]).shape == x.permute(1, 0).shape == (3, 2)
        assert lib.flip(x, (0, 1)).tolist() == x.flip(0, 1).tolist()
        assert lib.broadcast_to(x[0], x.shape).shape == x[0].broadcast_to(2, 3).shape
        assert x.sum(0, True).shape == lib.zeros(2, 3, 4, 5, requires_grad=True).sum((0, 1), keepdim=False).shape[
            :0
        ] + (1, 3)
        assert x.std(0, unbiased=True).shape == (3,)
