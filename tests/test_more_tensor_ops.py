"""roll, rot90, movedim/moveaxis, swapaxes/swapdims, fliplr/flipud, atleast_1d/2d/3d, vstack/
row_stack, hstack, dstack, column_stack, tile, repeat_interleave, tensor_split, unflatten,
broadcast_tensors, meshgrid, cartesian_prod, block_diag, kron and diff against PyTorch: errors,
masked_select, nonzero/argwhere, count_nonzero, take, index_fill(_), index_copy(_), nansum,
nanmean, median and nanmedian against PyTorch: errors, recorded graphs, saved values, dtypes and
edge shapes.

Values, gradients and second derivatives of the common shapes are in the case table
(helpers_torch.py, the ``more_`` cases).
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(lambda t: (str(t.dtype).split(".")[-1], tuple(t.shape), values(t), t.requires_grad)).same

FUNCTIONS = (
    "roll rot90 movedim moveaxis swapaxes swapdims fliplr flipud atleast_1d atleast_2d atleast_3d vstack row_stack "
    "hstack dstack column_stack tile repeat_interleave tensor_split unflatten broadcast_tensors meshgrid "
    "cartesian_prod block_diag kron diff masked_select nonzero argwhere count_nonzero take index_fill index_copy "
    "nansum nanmean median nanmedian"
).split()


def _x(lib, requires_grad=True):
    return lib.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


def _v(lib, n=4, requires_grad=True):
    return lib.arange(float(n)).requires_grad_(requires_grad)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_function_and_the_method_exist_as_in_torch(name):
    assert name in minigrad.functions.__all__
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name)


# ----------------------------------------------------------------------------------------------
# Errors (each section adds its rows; run against PyTorch at the end)
# ----------------------------------------------------------------------------------------------

ERRORS = {
    "roll without shifts": (lambda lib: lib.roll(_x(lib), (), ()), "`shifts` required"),
    "roll with more shifts than dims": (
        lambda lib: lib.roll(_x(lib), (1, 2), (0,)),
        "shifts and dimensions must align. shifts: 2, dims:1",
    ),
    "roll with two shifts and no dims": (lambda lib: _x(lib).roll([1, 2]), "shifts and dimensions must align"),
    "roll along a missing dim": (lambda lib: lib.roll(_x(lib), 1, 2), "Dimension out of range"),
    "roll of a 0-d tensor along dim 0": (
        lambda lib: lib.roll(lib.tensor(2.0), 1, 0),
        "Dimension specified as 0 but tensor has no dimensions",
    ),
    "roll by a float": (
        lambda lib: lib.roll(_x(lib), 1.5),
        "argument 'shifts' (position 2) must be tuple of ints, not float",
    ),
    "rot90 of a vector": (lambda lib: lib.rot90(_v(lib)), "expected total dims >= 2, but got total dims = 1"),
    "rot90 with one dim": (
        lambda lib: lib.rot90(_x(lib), 1, [0]),
        "expected total rotation dims == 2, but got dims = 1",
    ),
    "rot90 in the same dim": (
        lambda lib: lib.rot90(_x(lib), 1, [0, -2]),
        "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2",
    ),
    "rot90 along a missing dim": (lambda lib: _x(lib).rot90(1, [0, 2]), "Dimension out of range"),
    "movedim of unequal lists": (
        lambda lib: lib.movedim(_x(lib), (0, 1), (0,)),
        "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as "
        "destination ([0] dims)",
    ),
    "movedim of a repeated source": (
        lambda lib: lib.movedim(_x(lib), (0, -2), (0, 1)),
        "movedim: repeated dim in `source` ([0, -2])",
    ),
    "movedim to a repeated destination": (
        lambda lib: _x(lib).moveaxis((0, 1), (1, 1)),
        "movedim: repeated dim in `destination` ([1, 1])",
    ),
    "movedim of a missing dim": (lambda lib: lib.movedim(_x(lib), 2, 0), "Dimension out of range"),
    "swapaxes of a missing dim": (lambda lib: lib.swapaxes(_x(lib), 0, 2), "Dimension out of range"),
    "fliplr of a vector": (lambda lib: lib.fliplr(_v(lib)), "Input must be >= 2-d."),
    "flipud of a 0-d tensor": (lambda lib: lib.flipud(lib.tensor(1.0)), "Input must be >= 1-d."),
}

GRAPHS = {
    "roll": lambda lib, x: lib.roll(x, (1, 2), (0, 1)),
    "roll of the flattened tensor": lambda lib, x: x.roll(-7),
    "rot90": lambda lib, x: x.rot90(3, [1, 0]),
    "movedim": lambda lib, x: lib.movedim(x, 1, 0),
    "movedim of a 0-d tensor": lambda lib, x: lib.movedim(x.sum(), 0, 0),
    "movedim to the same place": lambda lib, x: x.movedim(0, 0),
    "swapaxes": lambda lib, x: lib.swapaxes(x, 0, 1),
    "swapaxes of a 0-d tensor": lambda lib, x: x.sum().swapaxes(0, -1),
    "fliplr": lambda lib, x: lib.fliplr(x),
    "the double backward of roll": lambda lib, x: lib.autograd.grad(x.roll(1, 1).exp().sum(), x, create_graph=True)[0],
    "the double backward of rot90": lambda lib, x: lib.autograd.grad(x.rot90().exp().sum(), x, create_graph=True)[0],
}

EDGES = {
    "roll of integers": lambda lib: lib.roll(lib.arange(6).reshape(2, 3), 1, 1),
    "roll by a shift larger than the size": lambda lib: lib.roll(lib.arange(5), 12),
    "roll by an integer tensor": lambda lib: lib.roll(lib.arange(5), lib.tensor(2)),
    "roll of nothing": lambda lib: lib.roll(lib.ones(0, 3, requires_grad=True), 1, 0),
    "roll of a 0-d tensor": lambda lib: lib.roll(lib.tensor(2.0, requires_grad=True), 3),
    "rot90 of bools": lambda lib: lib.rot90(lib.tensor([[True, False]]), -1),
    "rot90 of a 3-d tensor": lambda lib: lib.arange(24).reshape(2, 3, 4).rot90(1, (2, 0)),
    "movedim of bools": lambda lib: lib.ones(2, 3, 1, dtype=lib.bool).movedim((2, 0), (0, 1)),
    "flipud of integers": lambda lib: lib.arange(6).reshape(3, 2).flipud(),
}


def test_rot90_is_laid_out_in_memory_as_in_torch():
    """PyTorch's rot90 is a flip then a transpose for odd quarter turns: a transposed layout."""

    def run(lib):
        return [lib.rot90(_x(lib), k).is_contiguous() for k in range(4)]

    assert run(minigrad) == run(torch) == [True, False, True, False]


def test_roll_and_rot90_copy_and_movedim_views():
    def run(lib):
        x = _x(lib, False)
        rolled, rotated, moved, swapped = x.roll(1), x.rot90(), x.movedim(0, 1), x.swapaxes(0, 1)
        x.add_(100)
        return rolled, rotated, moved, swapped, moved._base is x, swapped._base is x

    same(run)


def test_roll_rot90_and_movedim_save_what_torch_saves():
    def run(lib):
        x = _x(lib)
        roll, flat, rot = x.roll((1, 2), (0, 1)).grad_fn, x.roll(3).grad_fn, x.rot90(5, [1, 0]).grad_fn
        swap = x.swapdims(1, 0).grad_fn
        return (
            roll._saved_shifts,
            roll._saved_dims,
            flat._saved_dims,
            rot._saved_k,
            rot._saved_dims,
            x.movedim(0, 1).grad_fn._saved_dims,
            swap._saved_dim0,
            swap._saved_dim1,
        )

    same(run)


# ----------------------------------------------------------------------------------------------
# atleast_*d, the stacks, tile
# ----------------------------------------------------------------------------------------------


def test_atleast_returns_a_tensor_that_has_the_dims_itself():
    def run(lib):
        x, v = _x(lib), _v(lib)
        return lib.atleast_1d(v) is v, lib.atleast_2d(x) is x, lib.atleast_3d(x) is x, lib.atleast_1d(x, v)[0] is x

    assert run(minigrad) == run(torch) == (True, True, False, True)


def test_atleast_gives_a_tuple_for_a_list_or_several_tensors():
    def run(lib):
        s = lib.tensor(1.0)
        return lib.atleast_1d([s]), lib.atleast_2d(s, s), lib.atleast_3d((s,)), lib.atleast_1d()

    same(run)


ERRORS |= {
    "atleast_1d of a number": (
        lambda lib: lib.atleast_1d(1.0),
        "atleast_1d() received an invalid combination of arguments",
    ),
    "vstack of nothing": (lambda lib: lib.vstack([]), "vstack expects a non-empty TensorList"),
    "hstack of nothing": (lambda lib: lib.hstack(()), "hstack expects a non-empty TensorList"),
    "dstack of nothing": (lambda lib: lib.dstack([]), "dstack expects a non-empty TensorList"),
    "column_stack of nothing": (lambda lib: lib.column_stack([]), "column_stack expects a non-empty TensorList"),
    "vstack of a tensor": (
        lambda lib: lib.vstack(_x(lib)),
        "vstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
    ),
    "hstack of a vector and a matrix": (
        lambda lib: lib.hstack([_v(lib), _x(lib)]),
        "Tensors must have same number of dimensions: got 1 and 2",
    ),
    "vstack of rows of other lengths": (
        lambda lib: lib.vstack([_v(lib), _v(lib, 3)]),
        "Sizes of tensors must match except in dimension 0",
    ),
    "tile by an int": (lambda lib: lib.tile(_x(lib), 2), "argument 'dims' (position 2) must be tuple of ints, not int"),
    "tile by a negative count": (
        lambda lib: lib.tile(_x(lib), (-1,)),
        "Trying to create tensor with negative dimension -4: [3, -4]",
    ),
}

GRAPHS |= {
    "atleast_1d of a 0-d tensor": lambda lib, x: lib.atleast_1d(x.sum()),
    "atleast_3d of a vector": lambda lib, x: lib.atleast_3d(x[0]),
    "atleast_3d of a matrix": lambda lib, x: lib.atleast_3d(x),
    "vstack of vectors": lambda lib, x: lib.vstack([x[0], x[1]]),
    "vstack of matrices": lambda lib, x: lib.vstack([x, x]),
    "hstack of 0-d tensors": lambda lib, x: lib.hstack([x.sum(), x.mean()]),
    "dstack of vectors": lambda lib, x: lib.dstack([x[0], x[1]]),
    "column_stack": lambda lib, x: lib.column_stack([x[0], x.t()]),
    "tile": lambda lib, x: lib.tile(x, (2, 1, 1)),
}

EDGES |= {
    "vstack of an int and a float vector": lambda lib: lib.vstack([lib.arange(3), lib.ones(3)]),
    "hstack of 0-d tensors": lambda lib: lib.hstack([lib.tensor(1), lib.tensor(2)]),
    "dstack of 0-d tensors": lambda lib: lib.dstack([lib.tensor(1.0), lib.tensor(2.0)]),
    "column_stack of 3-d tensors": lambda lib: lib.column_stack([lib.ones(2, 1, 1), lib.zeros(2, 1, 1)]),
    "tile by nothing": lambda lib: lib.tile(_x(lib), ()),
    "tile as a method, by one count": lambda lib: _x(lib).tile(2),
    "tile as a method, by a tuple": lambda lib: _x(lib).tile((2, 1)),
    "tile of bools": lambda lib: lib.tile(lib.tensor([True, False]), (2, 2)),
}

# ----------------------------------------------------------------------------------------------
# repeat_interleave, tensor_split, unflatten
# ----------------------------------------------------------------------------------------------

ERRORS |= {
    "repeat_interleave a negative number of times": (
        lambda lib: lib.repeat_interleave(_x(lib), -1),
        "Repeats must be non-negative",
    ),
    "repeat_interleave with a negative count": (
        lambda lib: _x(lib).repeat_interleave(lib.tensor([1, -1, 1]), 0),
        "repeats can not be negative",
    ),
    "repeat_interleave with too few counts": (
        lambda lib: lib.repeat_interleave(_x(lib), lib.tensor([1, 1]), 0),
        "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and input.size(0) = 3",
    ),
    "repeat_interleave with float counts": (
        lambda lib: lib.repeat_interleave(_x(lib), lib.tensor([1.0, 1.0, 1.0]), 0),
        "\"repeat_interleave_cpu\" not implemented for 'Float'",
    ),
    "repeat_interleave with a matrix of counts": (
        lambda lib: lib.repeat_interleave(_x(lib), lib.tensor([[1, 1, 1]]), 0),
        "repeats must be 0-dim or 1-dim tensor",
    ),
    "repeat_interleave with a wrong output_size": (
        lambda lib: lib.repeat_interleave(_x(lib), 2, 0, output_size=5),
        "repeat_interleave: Invalid output_size, expected 6 but got 5",
    ),
    "repeat_interleave with counts and a wrong output_size": (
        lambda lib: lib.repeat_interleave(_x(lib), lib.tensor([1, 2, 0]), 0, output_size=5),
        "allocated size does not match required size",
    ),
    "repeat_interleave of a matrix of counts alone": (
        lambda lib: lib.repeat_interleave(lib.tensor([[1]])),
        "repeat_interleave only accept 1D vector as repeat",
    ),
    "repeat_interleave along a missing dim": (lambda lib: _x(lib).repeat_interleave(2, 2), "Dimension out of range"),
    "repeat_interleave of a 0-d tensor along dim 0": (
        lambda lib: lib.repeat_interleave(lib.tensor(1.0), 2, dim=0),
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    "repeat_interleave with a list": (
        lambda lib: lib.repeat_interleave(_x(lib), [1, 2, 0], 0),
        "repeat_interleave() received an invalid combination of arguments",
    ),
    "tensor_split into no sections": (
        lambda lib: lib.tensor_split(_x(lib), 0),
        "number of sections must be larger than 0, got 0",
    ),
    "tensor_split of a 0-d tensor": (
        lambda lib: lib.tensor_split(lib.tensor(1.0), 2),
        "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims",
    ),
    "tensor_split by a float": (
        lambda lib: lib.tensor_split(_x(lib), 2.0),
        "tensor_split() received an invalid combination of arguments",
    ),
    "tensor_split by a float tensor": (
        lambda lib: lib.tensor_split(_x(lib), lib.tensor([1.0])),
        "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float",
    ),
    "tensor_split by a matrix": (
        lambda lib: _x(lib).tensor_split(lib.tensor([[1]])),
        "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got "
        "a tensor with 2 dims",
    ),
    "tensor_split along a missing dim": (lambda lib: lib.tensor_split(_x(lib), 2, dim=2), "Dimension out of range"),
    "unflatten to sizes of another product": (
        lambda lib: lib.unflatten(_x(lib), 1, (3, 2)),
        "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 1 (4) in the input tensor",
    ),
    "unflatten to no sizes": (lambda lib: _x(lib).unflatten(1, ()), "unflatten: sizes must be non-empty"),
    "unflatten with two unknown sizes": (
        lambda lib: _x(lib).unflatten(1, (-1, -1)),
        "only one dimension can be inferred",
    ),
    "unflatten of a 0-d tensor": (
        lambda lib: lib.unflatten(lib.tensor(1.0), 0, (1,)),
        "Dimension specified as 0 but tensor has no dimensions",
    ),
}

GRAPHS |= {
    "repeat_interleave": lambda lib, x: lib.repeat_interleave(x, 2),
    "repeat_interleave of a vector": lambda lib, x: x[0].repeat_interleave(3),
    "repeat_interleave along a dim": lambda lib, x: x.repeat_interleave(2, dim=1),
    "repeat_interleave by counts": lambda lib, x: x.repeat_interleave(lib.tensor([1, 0, 2]), dim=0),
    "repeat_interleave by one count, flattened": lambda lib, x: lib.repeat_interleave(x, lib.tensor([2])),
    "tensor_split's last piece": lambda lib, x: lib.tensor_split(x, [1, 3], dim=1)[-1],
    "unflatten": lambda lib, x: lib.unflatten(x, -1, (2, 2)),
    "unflatten of a transposed tensor": lambda lib, x: x.t().unflatten(0, (2, 2)),
}

EDGES |= {
    "repeat_interleave of integers": lambda lib: lib.repeat_interleave(lib.arange(3), 2),
    "repeat_interleave of bools by counts": lambda lib: lib.tensor([True, False]).repeat_interleave(lib.tensor([2, 1])),
    "repeat_interleave by int32 counts": lambda lib: _x(lib).repeat_interleave(
        lib.tensor([0, 1, 2], dtype=lib.int32), 0
    ),
    "repeat_interleave by a 0-d count": lambda lib: _x(lib).repeat_interleave(lib.tensor(2), 1),
    "repeat_interleave of a 0-d tensor": lambda lib: lib.repeat_interleave(lib.tensor(2.0, requires_grad=True), 3),
    "repeat_interleave no times": lambda lib: _x(lib).repeat_interleave(0, 1),
    "repeat_interleave of nothing": lambda lib: lib.repeat_interleave(lib.ones(0, 2, requires_grad=True), 2, 0),
    "repeat_interleave with output_size": lambda lib: _x(lib).repeat_interleave(2, 0, output_size=6),
    "repeat_interleave of counts alone": lambda lib: lib.repeat_interleave(lib.tensor([1, 0, 3])),
    "repeat_interleave of counts alone, with output_size": lambda lib: lib.repeat_interleave(
        lib.tensor([1, 2]), output_size=3
    ),
    "tensor_split into sections": lambda lib: lib.tensor_split(lib.arange(7), 3),
    "tensor_split into more sections than elements": lambda lib: lib.tensor_split(lib.arange(2), 4),
    "tensor_split at indices out of order and range": lambda lib: lib.tensor_split(lib.arange(7), [1, 5, 10, 3]),
    "tensor_split at negative indices": lambda lib: lib.tensor_split(lib.arange(7), (-2, 3)),
    "tensor_split by a 0-d tensor": lambda lib: _x(lib).tensor_split(lib.tensor(2), 1),
    "tensor_split by a tensor of indices": lambda lib: _x(lib).tensor_split(lib.tensor([2]), 1),
    "tensor_split with indices=": lambda lib: lib.tensor_split(_x(lib), indices=[2], dim=1),
    "tensor_split with sections=": lambda lib: lib.tensor_split(_x(lib), sections=2, dim=-1),
    "unflatten with -1": lambda lib: lib.unflatten(_x(lib), 1, (-1, 2)),
}


def test_tensor_split_pieces_are_views_that_may_change_in_place():
    """Each piece is its own slice (not one shared node as split's), so in place is allowed."""

    def run(lib):
        x = _x(lib)
        y = x * 1
        first, second = y.tensor_split(2, dim=1)
        first.mul_(10)
        (g,) = lib.autograd.grad((y * y).sum(), x)
        return y, g, second._base is y, first.grad_fn.name().replace("torch::autograd::", "")

    same(run)


def test_repeat_interleave_saves_what_torch_saves():
    def run(lib):
        node = _x(lib).repeat_interleave(lib.tensor([1, 0, 2]), dim=0).grad_fn
        return node._saved_dim, node._saved_index

    same(run)


# ----------------------------------------------------------------------------------------------
# broadcast_tensors, meshgrid, cartesian_prod, block_diag, kron, diff
# ----------------------------------------------------------------------------------------------


def test_broadcast_tensors_keeps_a_tensor_of_the_full_shape_itself():
    def run(lib):
        x, v = _x(lib), _v(lib)
        a, b = lib.broadcast_tensors(x, v)
        return a is x, b._base is v, lib.broadcast_tensors() == (), len(lib.broadcast_tensors(x))

    assert run(minigrad) == run(torch) == (True, True, True, 1)


def test_meshgrid_without_indexing_warns_as_torch_does():
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
            lib.meshgrid(_v(lib), _v(lib, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        minigrad.meshgrid(_v(minigrad), indexing="ij")


def test_cartesian_prod_of_one_vector_is_the_vector():
    def run(lib):
        v = _v(lib)
        return lib.cartesian_prod(v) is v

    assert run(minigrad) is run(torch) is True


ERRORS |= {
    "broadcast_tensors of shapes that do not broadcast": (
        lambda lib: lib.broadcast_tensors(_x(lib), lib.ones(3)),
        "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1",
    ),
    "broadcast_tensors of a list": (
        lambda lib: lib.broadcast_tensors([_x(lib)]),
        "expected Tensor as element 0 in argument 0, but got list",
    ),
    "meshgrid of a matrix": (
        lambda lib: lib.meshgrid(_x(lib), _v(lib), indexing="ij"),
        "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got",
    ),
    "meshgrid of nothing": (lambda lib: lib.meshgrid(indexing="ij"), "meshgrid expects a non-empty TensorList"),
    "meshgrid of two dtypes": (
        lambda lib: lib.meshgrid(_v(lib), lib.arange(3), indexing="ij"),
        "meshgrid expects all tensors to have the same dtype",
    ),
    "meshgrid with an unknown indexing": (
        lambda lib: lib.meshgrid(_v(lib), _v(lib), indexing="ab"),
        'torch.meshgrid: indexing must be one of "xy" or "ij", but received: ab',
    ),
    "cartesian_prod of a matrix": (
        lambda lib: lib.cartesian_prod(_x(lib), _v(lib)),
        "Expect a 1D vector, but got shape [3, 4]",
    ),
    "cartesian_prod of a 0-d tensor": (
        lambda lib: lib.cartesian_prod(lib.tensor(1.0), _v(lib)),
        "Expect a 1D vector, but got shape []",
    ),
    "cartesian_prod of nothing": (lambda lib: lib.cartesian_prod(), "meshgrid expects a non-empty TensorList"),
    "cartesian_prod of two dtypes": (
        lambda lib: lib.cartesian_prod(_v(lib), lib.arange(2)),
        "meshgrid expects all tensors to have the same dtype",
    ),
    "block_diag of a 3-d tensor": (
        lambda lib: lib.block_diag(_x(lib), lib.ones(1, 1, 1)),
        "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions",
    ),
    "diff of a 0-d tensor": (
        lambda lib: lib.diff(lib.tensor(1.0)),
        "diff expects input to be at least one-dimensional",
    ),
    "diff of a negative order": (lambda lib: _x(lib).diff(-1), "order must be non-negative but got -1"),
    "diff along a missing dim": (lambda lib: lib.diff(_x(lib), dim=2), "Dimension out of range"),
    "diff prepending fewer dims": (
        lambda lib: lib.diff(_x(lib), prepend=_v(lib)),
        "diff expects prepend or append to be the same dimension as input",
    ),
    "diff appending another shape": (
        lambda lib: lib.diff(_x(lib), append=lib.ones(1, 3)),
        "diff expects the shape of tensor to prepend or append to match that of input except along the differencing "
        "dimension; input.size(0) = 3, but got tensor.size(0) = 1",
    ),
}

GRAPHS |= {
    "broadcast_tensors": lambda lib, x: lib.broadcast_tensors(x, x[0])[1],
    "meshgrid ij": lambda lib, x: lib.meshgrid(x[0], x[1, :2], indexing="ij")[1],
    "meshgrid xy": lambda lib, x: lib.meshgrid(x[0], x[1, :2], indexing="xy")[0],
    "cartesian_prod": lambda lib, x: lib.cartesian_prod(x[0], x[1, :2]),
    "block_diag": lambda lib, x: lib.block_diag(x, x[0], x.sum()),
    "kron": lambda lib, x: lib.kron(x, x[0]),
    "diff": lambda lib, x: lib.diff(x),
    "diff twice": lambda lib, x: x.diff(2, dim=0),
    "diff with prepend and append": lambda lib, x: lib.diff(x, prepend=x, append=x[:, :1]),
    "diff of order 0": lambda lib, x: lib.diff(x, 0, prepend=x),
    "the double backward of block_diag": lambda lib, x: lib.autograd.grad(
        lib.block_diag(x, x[0]).exp().sum(), x, create_graph=True
    )[0],
}

EDGES |= {
    "meshgrid of a 0-d tensor": lambda lib: lib.meshgrid(lib.tensor(1.0), _v(lib), indexing="ij"),
    "meshgrid of one vector, xy": lambda lib: lib.meshgrid(_v(lib), indexing="xy"),
    "meshgrid of a list, xy": lambda lib: lib.meshgrid([_v(lib), _v(lib, 2), _v(lib, 3)], indexing="xy"),
    "cartesian_prod of integers": lambda lib: lib.cartesian_prod(lib.arange(2), lib.arange(3), lib.arange(2)),
    "block_diag of nothing": lambda lib: lib.block_diag(),
    "block_diag of an int and a float": lambda lib: lib.block_diag(_x(lib), lib.arange(2)),
    "block_diag of integers": lambda lib: lib.block_diag(lib.arange(2), lib.ones(2, 2, dtype=lib.int32)),
    "block_diag of empty blocks": lambda lib: lib.block_diag(lib.ones(0, 2), _v(lib), lib.ones(2, 0)),
    "block_diag of bools": lambda lib: lib.block_diag(lib.tensor([True]), lib.tensor(False)),
    "kron of 0-d tensors": lambda lib: lib.kron(lib.tensor(2.0), lib.tensor(3.0, requires_grad=True)),
    "kron of an int and a float": lambda lib: lib.kron(lib.arange(3), lib.ones(2)),
    "kron of a 3-d and a 2-d tensor": lambda lib: lib.kron(lib.ones(2, 1, 2), _x(lib)),
    "diff of bools": lambda lib: lib.diff(lib.tensor([True, False, False, True])),
    "diff of integers": lambda lib: lib.diff(lib.tensor([1, 4, 9, 16]), 2),
    "diff of uint8": lambda lib: lib.diff(lib.tensor([1, 4, 2], dtype=lib.uint8)),
    "diff of a higher order than the size": lambda lib: lib.diff(_x(lib), n=5),
    "diff prepending integers to floats": lambda lib: lib.diff(_v(lib), prepend=lib.tensor([1])),
    "diff of order 0": lambda lib: lib.diff(_x(lib), 0),
}

# ----------------------------------------------------------------------------------------------
# masked_select, nonzero, argwhere, count_nonzero, take, index_fill, index_copy
# ----------------------------------------------------------------------------------------------


def _i(lib, rows, dtype=None):
    return lib.tensor(rows, dtype=dtype or lib.int64)


@pytest.mark.parametrize("name", ["index_fill_", "index_copy_"])
def test_the_in_place_methods_exist(name):
    assert hasattr(minigrad.Tensor, name) and hasattr(torch.Tensor, name)


def test_masked_select_take_index_fill_and_index_copy_save_what_torch_saves():
    def run(lib):
        x = _x(lib)
        select, take = lib.masked_select(x, x > 4).grad_fn, lib.take(x, _i(lib, [1, 5])).grad_fn
        fill, copy = x.index_fill(1, _i(lib, [0, 2]), 2.0).grad_fn, x.index_copy(1, _i(lib, [3]), x[:, :1]).grad_fn
        return (
            select._saved_self,
            select._saved_mask,
            take._saved_self,
            take._saved_index,
            fill._saved_dim,
            fill._saved_index,
            copy._saved_dim,
            copy._saved_index,
        )

    same(run)


@pytest.mark.parametrize(
    "make",
    [lambda lib, y: lib.masked_select(y, y > 4), lambda lib, y: lib.take(y, _i(lib, [0, 3]))],
    ids=["masked_select", "take"],
)
def test_masked_select_and_take_save_their_input_so_changing_it_in_place_breaks_backward(make):
    def run(lib):
        y = _x(lib) * 1
        out = make(lib, y)
        y.mul_(2)
        out.sum().backward()

    same_error(run, "modified by an inplace operation")


def test_index_fill_and_index_copy_in_place_on_a_view_go_through_copyslices():
    def run(lib):
        x, value, source = _x(lib), lib.tensor(2.0, requires_grad=True), lib.ones(2, 1, requires_grad=True)
        y = x * 1
        y[1:].index_fill_(1, _i(lib, [0, 0, 2]), value * 3)
        y[1:].index_copy_(1, _i(lib, [3]), source * source)
        grads = lib.autograd.grad((y * y).sum(), (x, value, source))
        return y, *grads, y.grad_fn.name().replace("torch::autograd::", ""), y._version

    same(run)


def test_nonzero_as_tuple_indexes_what_it_found():
    def run(lib):
        x = _x(lib)
        found = lib.nonzero(x > 6, as_tuple=True)
        return x[found], list(found)

    same(run)


ERRORS |= {
    "masked_select with a float mask": (
        lambda lib: lib.masked_select(_x(lib), _x(lib)),
        "masked_select: expected BoolTensor for mask",
    ),
    "masked_select with a uint8 mask": (
        lambda lib: _x(lib).masked_select(lib.ones(3, 4, dtype=lib.uint8)),
        "masked_select: expected BoolTensor for mask",
    ),
    "masked_select with a mask that does not broadcast": (
        lambda lib: lib.masked_select(_x(lib), lib.ones(3, dtype=lib.bool)),
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    ),
    "masked_select with a number": (
        lambda lib: lib.masked_select(_x(lib), 1),
        "masked_select(): argument 'mask' (position 2) must be Tensor, not int",
    ),
    "count_nonzero along a dim twice": (
        lambda lib: lib.count_nonzero(_x(lib), dim=(0, -2)),
        "dim 0 appears multiple times in the list of dims",
    ),
    "count_nonzero along a missing dim": (lambda lib: _x(lib).count_nonzero(2), "Dimension out of range"),
    "take out of range": (
        lambda lib: lib.take(_x(lib), _i(lib, [3, 12])),
        "out of range: tried to access index 12 on a tensor of 12 elements.",
    ),
    "take out of range from the end": (
        lambda lib: _x(lib).take(_i(lib, [-13])),
        "out of range: tried to access index -13 on a tensor of 12 elements.",
    ),
    "take with an int32 index": (
        lambda lib: lib.take(_x(lib), _i(lib, [1], lib.int32)),
        "take(): Expected a long tensor for index, but got Int",
    ),
    "take from nothing": (
        lambda lib: lib.take(lib.ones(0), _i(lib, [0])),
        "take(): tried to take from an empty tensor",
    ),
    "index_fill out of range": (
        lambda lib: lib.index_fill(_x(lib), 1, _i(lib, [4]), 1.0),
        "index 4 is out of bounds for dimension 1 with size 4",
    ),
    "index_fill out of range from the end": (
        lambda lib: _x(lib).index_fill(1, _i(lib, [-5]), 1.0),
        "index -5 is out of bounds for dimension 1 with size 4",
    ),
    "index_fill with an int32 index": (
        lambda lib: lib.index_fill(_x(lib), 1, _i(lib, [1], lib.int32), 1.0),
        "index_fill_(): Expected dtype int64 for index.",
    ),
    "index_fill with a matrix index": (
        lambda lib: _x(lib).index_fill(1, _i(lib, [[1]]), 1.0),
        "Index has to be a vector/scalar",
    ),
    "index_fill with a vector value": (
        lambda lib: _x(lib).index_fill(1, _i(lib, [1]), _v(lib)),
        "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
    ),
    "index_fill along a missing dim": (lambda lib: _x(lib).index_fill(2, _i(lib, [0]), 1.0), "Dimension out of range"),
    "index_fill_ into a leaf": (
        lambda lib: _x(lib).index_fill_(1, _i(lib, [0]), 1.0),
        "a leaf Variable that requires grad is being used in an in-place operation",
    ),
    "index_copy of more indices than slices": (
        lambda lib: lib.index_copy(_x(lib), 1, _i(lib, [0, 1]), lib.ones(3, 3)),
        "index_copy_(): Number of indices (2) should be equal to source.size(dim) (3)",
    ),
    "index_copy of slices of another shape": (
        lambda lib: lib.index_copy(_x(lib), 1, _i(lib, [0, 1]), lib.ones(2, 2)),
        "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 3 at "
        "dimension 1 and source slice shape: 2 at dimension 0.",
    ),
    "index_copy of another dtype": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0]), lib.ones(3, 1, dtype=lib.float64)),
        "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Double",
    ),
    "index_copy out of range": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0, 4]), lib.ones(3, 2)),
        "index_copy_(): index 4 is out of bounds for dimension 1 with size 4",
    ),
    "index_copy of a negative index": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0, -1]), lib.ones(3, 2)),
        "index_copy_(): index -1 is out of bounds for dimension 1 with size 4",
    ),
    "index_copy with an int32 index": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0], lib.int32), lib.ones(3, 1)),
        "index_copy_(): Expected a long tensor for index, but got Int",
    ),
    "index_copy with a matrix index": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [[0, 1]]), lib.ones(3, 2)),
        "index_copy_(): Index should have dimension 1 or 0 (got 2)",
    ),
    "index_copy of a source of more dims": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0, 1]), lib.ones(3, 2, 1)),
        "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
        "dimensionality (3), destination dimensionality (2)",
    ),
    "index_copy of a number": (
        lambda lib: _x(lib).index_copy(1, _i(lib, [0]), 1.0),
        "must be Tensor, not float",
    ),
}

GRAPHS |= {
    "masked_select": lambda lib, x: lib.masked_select(x, x > 4),
    "take": lambda lib, x: lib.take(x, _i(lib, [[0, 5]])),
    "index_fill": lambda lib, x: lib.index_fill(x, 1, _i(lib, [0, 2]), 2.0),
    "index_fill of a 0-d tensor": lambda lib, x: x.index_fill(0, _i(lib, 1), x.sum()),
    "index_fill_": lambda lib, x: (x * 1).index_fill_(1, _i(lib, [0]), x.mean()),
    "index_copy": lambda lib, x: lib.index_copy(x, 1, _i(lib, [3, 0]), x[:, :2]),
    "index_copy_": lambda lib, x: x.clone().index_copy_(0, _i(lib, [2]), x[:1].exp()),
}

EDGES |= {
    "masked_select broadcasting the input": lambda lib: lib.masked_select(_v(lib), _x(lib, False) > 4),
    "masked_select broadcasting the mask": lambda lib: _x(lib).masked_select(lib.tensor([True, False, True, False])),
    "masked_select of a 0-d tensor": lambda lib: lib.masked_select(
        lib.tensor(2.0, requires_grad=True), lib.tensor(True)
    ),
    "masked_select of nothing": lambda lib: lib.masked_select(_x(lib), _x(lib, False) > 100),
    "masked_select of integers": lambda lib: lib.masked_select(lib.arange(4), lib.tensor([True, False, True, True])),
    "nonzero": lambda lib: lib.nonzero(_x(lib, False) > 5),
    "nonzero of floats": lambda lib: _x(lib, False).nonzero(),
    "nonzero of nothing": lambda lib: lib.nonzero(lib.zeros(2, 3)),
    "nonzero of a 0-d tensor": lambda lib: lib.nonzero(lib.tensor(3)),
    "nonzero as a tuple": lambda lib: lib.nonzero(_x(lib, False) > 5, as_tuple=True),
    "nonzero of a 0-d tensor as a tuple": lambda lib: lib.nonzero(lib.tensor(3), as_tuple=True),
    "nonzero of a 0-d zero as a tuple": lambda lib: lib.tensor(0.0).nonzero(as_tuple=True),
    "nonzero of nan": lambda lib: lib.nonzero(lib.tensor([0.0, float("nan")])),
    "argwhere": lambda lib: lib.argwhere(lib.tensor([[0, 1], [2, 0]])),
    "argwhere of a 0-d tensor": lambda lib: lib.tensor(True).argwhere(),
    "count_nonzero": lambda lib: lib.count_nonzero(_x(lib)),
    "count_nonzero along a dim": lambda lib: _x(lib).count_nonzero(1),
    "count_nonzero along dims": lambda lib: lib.count_nonzero(lib.eye(3).reshape(3, 3, 1), (0, 2)),
    "count_nonzero of a 0-d tensor along dim 0": lambda lib: lib.count_nonzero(lib.tensor(2.0), 0),
    "count_nonzero of bools": lambda lib: lib.count_nonzero(_x(lib) > 2),
    "take of integers": lambda lib: lib.take(lib.arange(6).reshape(2, 3), _i(lib, [5, -6])),
    "take with a 0-d index": lambda lib: lib.take(_x(lib), _i(lib, 7)),
    "take of a 0-d tensor": lambda lib: lib.take(lib.tensor(2.0, requires_grad=True), _i(lib, [0, 0])),
    "take of no indices": lambda lib: lib.take(lib.ones(0), lib.zeros(0, dtype=lib.long)),
    "index_fill of repeated places": lambda lib: lib.index_fill(_x(lib), 1, _i(lib, [0, 0, -1]), -1.0),
    "index_fill of integers with a float": lambda lib: lib.index_fill(lib.arange(4), 0, _i(lib, [1, 3]), 2.5),
    "index_fill of integers with a float tensor": lambda lib: lib.arange(4).index_fill(
        0, _i(lib, [1]), lib.tensor(2.5)
    ),
    "index_fill of bools": lambda lib: lib.tensor([True, False]).index_fill(0, _i(lib, [0]), False),
    "index_fill of a 0-d tensor": lambda lib: lib.index_fill(lib.tensor(1.0), 0, _i(lib, [0]), 2.0),
    "index_fill with a 0-d index": lambda lib: _x(lib).index_fill(0, _i(lib, 2), 0.5),
    "index_copy of repeated places": lambda lib: lib.index_copy(
        _x(lib), 1, _i(lib, [0, 0]), lib.arange(6.0).reshape(3, 2)
    ),
    "index_copy of integers": lambda lib: lib.arange(4).index_copy(0, _i(lib, [3, 0]), lib.tensor([9, 8])),
    "index_copy into a 0-d tensor": lambda lib: lib.index_copy(lib.tensor(1.0), 0, _i(lib, [0]), lib.tensor(5.0)),
    "index_copy with a 0-d index": lambda lib: _x(lib).index_copy(0, _i(lib, 1), lib.ones(1, 4)),
    "index_copy of nothing": lambda lib: _x(lib).index_copy(0, lib.zeros(0, dtype=lib.long), lib.ones(0, 4)),
}

# ----------------------------------------------------------------------------------------------
# nansum, nanmean, median, nanmedian
# ----------------------------------------------------------------------------------------------

NAN = float("nan")
HOLES = [[1.0, NAN, 3.0, 2.0], [NAN, NAN, 2.0, 2.0], [4.0, 4.0, 1.0, 0.5]]


def _holes(lib):
    return lib.tensor(HOLES, dtype=lib.float64, requires_grad=True)


def _with_grads(lib, fn):
    """``fn(lib, x)`` (values, or ``(values, indices)``) on a leaf holding ``HOLES``, the gradient
    of its values' squares summed, and the gradient of that gradient's sum (double backward)."""
    x = _holes(lib)
    out = fn(lib, x)
    values = out[0] if isinstance(out, tuple) else out
    (g,) = lib.autograd.grad((values * values).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad(g.sum(), x, materialize_grads=True)
    return (*(out if isinstance(out, tuple) else (out,)), g, gg)


REDUCTIONS = {
    "nansum": lambda lib, x: lib.nansum(x),
    "nansum along a dim": lambda lib, x: x.nansum(1),
    "nansum along dims, kept": lambda lib, x: lib.nansum(x, (0, -1), keepdim=True),
    "nanmean": lambda lib, x: lib.nanmean(x),
    "nanmean along a dim": lambda lib, x: x.nanmean(-1, keepdim=True),
    "median": lambda lib, x: lib.median(x),
    "median of the rows without NaN": lambda lib, x: x[2:].median(),
    "median of ties": lambda lib, x: lib.median(x[:, 2:]),
    "nanmedian": lambda lib, x: x.nanmedian(),
    "median along a dim": lambda lib, x: tuple(lib.median(x, 1)),
    "median along dim 0, kept": lambda lib, x: tuple(x.median(0, keepdim=True)),
    "nanmedian along a dim": lambda lib, x: tuple(lib.nanmedian(x, -1)),
    "nanmedian of a row of NaN": lambda lib, x: tuple(lib.nanmedian(x[1:2, :2], 1)),
    "median of a 0-d tensor along dim 0": lambda lib, x: tuple(x[0, 0].median(0)),
}


@pytest.mark.parametrize("name", REDUCTIONS)
def test_nan_reductions_and_medians_with_their_first_and_second_derivatives_match_torch(name):
    same(lambda lib: _with_grads(lib, REDUCTIONS[name]))


def test_median_and_nanmedian_save_what_torch_saves():
    def run(lib):
        x = _holes(lib)
        full, nan_full = x.median().grad_fn, x.nanmedian().grad_fn
        along = lib.median(x, 1).values.grad_fn
        summed = lib.nansum(x, 1).grad_fn
        return (
            full._saved_self,
            full._saved_result,
            nan_full._saved_result,
            along._saved_dim,
            along._saved_keepdim,
            along._saved_indices,
            summed._saved_self,
            summed._saved_dim,
            summed._saved_keepdim,
        )

    same(run)


def test_median_along_a_dim_is_a_named_pair():
    def run(lib):
        found = lib.median(_x(lib), 1)
        return type(found).__name__, found.values, found.indices, repr(found).startswith("torch.return_types.median(")

    same(run)


ERRORS |= {
    "nanmean of integers": (
        lambda lib: lib.nanmean(lib.arange(3)),
        "nanmean(): expected input to have floating point or complex dtype but got Long",
    ),
    "median of bools": (lambda lib: lib.median(lib.tensor([True, False])), "\"median_cpu\" not implemented for 'Bool'"),
    "median along an empty dim": (
        lambda lib: lib.median(lib.ones(2, 0), 1),
        "median(): Expected reduction dim 1 to have non-zero size.",
    ),
    "nanmedian along a missing dim": (lambda lib: _x(lib).nanmedian(2), "Dimension out of range"),
    "nansum along a dim twice": (
        lambda lib: lib.nansum(_x(lib), (1, -1)),
        "dim 1 appears multiple times in the list of dims",
    ),
}

GRAPHS |= {
    "nansum": lambda lib, x: lib.nansum(x, 1),
    "nanmean": lambda lib, x: lib.nanmean(x, 0),
    "median": lambda lib, x: lib.median(x),
    "median along a dim": lambda lib, x: lib.median(x, 1).values,
    "nanmedian": lambda lib, x: x.nanmedian(),
    "nanmedian along a dim": lambda lib, x: x.nanmedian(0).values,
}

EDGES |= {
    "nansum of integers": lambda lib: lib.nansum(lib.arange(4, dtype=lib.int32)),
    "nansum of bools": lambda lib: lib.nansum(lib.tensor([True, True])),
    "nansum to float64": lambda lib: lib.nansum(lib.arange(3), dtype=lib.float64),
    "nansum of nothing": lambda lib: lib.nansum(lib.ones(0, requires_grad=True)),
    "nanmean of only NaN": lambda lib: lib.nanmean(lib.tensor([NAN, NAN])),
    "nanmean to float64": lambda lib: lib.nanmean(_x(lib), dtype=lib.float64),
    "median of an even count": lambda lib: lib.median(lib.tensor([4.0, 1.0, 3.0, 2.0])),
    "median of integers": lambda lib: lib.median(lib.tensor([3, 1, 2, 5])),
    "median of integers along a dim": lambda lib: list(lib.median(lib.tensor([[3, 1, 2, 5]]), -1)),
    "median of nothing": lambda lib: lib.median(lib.ones(0)),
    "nanmedian of only NaN": lambda lib: lib.nanmedian(lib.tensor([NAN, NAN])),
}

# ----------------------------------------------------------------------------------------------
# The tables, run against PyTorch.
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


@pytest.mark.parametrize("name", GRAPHS)
def test_graphs_match_torch(name):
    def run(lib):
        return node_names(GRAPHS[name](lib, _x(lib)))

    same(run)


@pytest.mark.parametrize("name", EDGES)
def test_edge_shapes_and_dtypes_match_torch(name):
    def run(lib):
        out = EDGES[name](lib)
        return list(out) if isinstance(out, tuple) else out

    same(run)
