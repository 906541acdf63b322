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
    ],
)
def test_a_warning_from_inside_a_checked_function_points_at_the_caller(call):
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
