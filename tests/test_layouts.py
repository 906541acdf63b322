"""How new tensors lay out their elements in memory, compared with real PyTorch.

``zeros_like``, ``clone`` and the other ``*_like`` factories keep the layout of the tensor they
copy (``memory_format=torch.preserve_format``): the same strides when its elements fill a block,
else dense strides in its order of dimensions. Random ``*_like`` factories draw their values in
memory order, so ``rand_like(x.t())`` holds PyTorch's numbers for the same seed.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

torch = pytest.importorskip("torch")

LIBS = (torch, minigrad)


@st.composite
def view_chains(draw):
    """A shape and a chain of view operations (permute, a slice with a step, expand) on it."""
    shape = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
    steps, current = [], list(shape)
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["permute", "slice", "expand"]))
        if kind == "permute":
            order = draw(st.permutations(range(len(current))))
            steps.append(("permute", tuple(order)))
            current = [current[d] for d in order]
        elif kind == "slice":
            dim, step = draw(st.integers(0, len(current) - 1)), draw(st.integers(1, 2))
            steps.append(("slice", (dim, step)))
            current[dim] = len(range(0, current[dim], step))
        elif 1 in current:
            dim = current.index(1)
            steps.append(("expand", dim))
            current[dim] = 3
    return shape, steps


def build(lib, shape, steps):
    t = lib.arange(int(np.prod(shape)), dtype=lib.float32).reshape(shape)
    for kind, arg in steps:
        if kind == "permute":
            t = t.permute(*arg)
        elif kind == "slice":
            dim, step = arg
            t = t[(slice(None),) * dim + (slice(None, None, step),)]
        else:
            t = t.expand(*[3 if d == arg else -1 for d in range(t.dim())])
    return t


def layouts(lib, t, fmt):
    """Everything observable about the layout of the tensors made like ``t``."""
    made = [
        lib.zeros_like(t, memory_format=fmt),
        lib.ones_like(t, memory_format=fmt),
        lib.full_like(t, 7, memory_format=fmt),
        t.clone(memory_format=fmt),
    ]
    found = [(m.stride(), m.is_contiguous(), m.tolist()) for m in made]
    empty = lib.empty_like(t, memory_format=fmt)  # its values are undefined in PyTorch
    found.append((empty.stride(), empty.is_contiguous()))
    for factory in (
        lib.rand_like,
        lib.randn_like,
        lambda x, memory_format: lib.randint_like(x, 10, memory_format=memory_format),
    ):
        lib.manual_seed(5)
        drawn = factory(t, memory_format=fmt)
        found.append((drawn.stride(), np.round(drawn.numpy(), 5).tolist()))
    return found


@settings(max_examples=300, deadline=None)
@given(view_chains(), st.sampled_from(["preserve_format", "contiguous_format"]))
def test_like_factories_and_clone_lay_out_as_torch(chain, fmt):
    shape, steps = chain
    ours, theirs = build(minigrad, shape, steps), build(torch, shape, steps)
    if ours.stride() != theirs.stride():
        return  # a view whose size-1 dims have other strides than PyTorch's (see the README's notes)
    assert layouts(minigrad, ours, getattr(minigrad, fmt)) == layouts(torch, theirs, getattr(torch, fmt))


def test_view_chains_mostly_have_torchs_strides():
    """The filter above must not hide the comparison: most chains keep PyTorch's strides."""
    rng = np.random.default_rng(0)
    kept = 0
    for _ in range(200):
        shape = [int(n) for n in rng.integers(2, 5, size=rng.integers(1, 5))]
        steps = [("permute", tuple(rng.permutation(len(shape))))]
        if rng.random() < 0.5:
            steps.append(("slice", (int(rng.integers(len(shape))), 2)))
        kept += build(minigrad, shape, steps).stride() == build(torch, shape, steps).stride()
    assert kept >= 180


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 3), (0, 1, 2)])
def test_new_tensors_without_elements_have_torchs_strides(shape):
    makers = [
        lambda lib: lib.zeros(shape),
        lambda lib: lib.empty(shape).transpose(0, -1),
        lambda lib: lib.ones(shape)[1:],
    ]
    if 1 not in shape:  # PyTorch's elementwise ops give a size-1 dim of an empty result stride 0
        makers.append(lambda lib: lib.ones(shape) + 1)
    for make in makers:
        ours, theirs = make(minigrad), make(torch)
        assert ours.stride() == theirs.stride()
        assert ours.is_contiguous() == theirs.is_contiguous()


def test_transposed_like_keeps_the_layout_so_view_refuses_as_in_torch():
    for lib in LIBS:
        made = lib.zeros_like(lib.ones(2, 3).t())
        assert made.stride() == (1, 3)
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            made.view(-1)


def test_channels_last():
    for lib in LIBS:
        x = lib.ones(2, 3, 4, 5)
        assert lib.zeros_like(x, memory_format=lib.channels_last).stride() == (60, 1, 15, 3)
        assert lib.ones_like(lib.ones(2, 3, 4, 5, 6), memory_format=lib.channels_last_3d).stride() == (
            360,
            1,
            90,
            18,
            3,
        )
        with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
            lib.zeros_like(lib.ones(2, 3), memory_format=lib.channels_last)


def test_memory_format_must_be_a_memory_format():
    for lib in LIBS:
        with pytest.raises(TypeError, match="argument 'memory_format' must be torch.memory_format, not int"):
            lib.zeros_like(lib.ones(2), memory_format=3)
    assert repr(minigrad.preserve_format) == repr(torch.preserve_format) == "torch.preserve_format"


def test_like_factories_of_a_0d_tensor():
    for lib in LIBS:
        lib.manual_seed(0)
        assert lib.rand_like(lib.tensor(1.0)).shape == ()
        assert lib.zeros_like(lib.tensor(1.0)).shape == ()


def test_clone_keeps_the_graph():
    x = minigrad.ones(2, 3, requires_grad=True)
    y = x.t().clone(memory_format=minigrad.contiguous_format)
    assert type(y.grad_fn).__name__ == "CloneBackward0" and y.stride() == (2, 1)
    y.sum().backward()
    assert x.grad.tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize(
    "value, dtype",
    [(float("inf"), "int64"), (float("nan"), "int32"), (1e30, "int64"), (300, "uint8"), (-129, "int8"),
     (-1, "uint8"), (-1.0, "uint8"), (3.7, "int64"), (1e300, "float32"), (float("inf"), "float32")],
)  # fmt: skip
def test_full_refuses_a_value_the_dtype_cannot_hold(value, dtype):
    """(Not a layout, but the same factories.) NumPy's cast would store garbage."""
    found = []
    for lib in LIBS:
        try:
            made = lib.full((2,), value, dtype=getattr(lib, dtype))
            found.append(str(made.tolist()))
            found.append(str(lib.full_like(lib.zeros(2, dtype=getattr(lib, dtype)), value).tolist()))
        except RuntimeError as e:
            found.append(str(e))
    assert found[: len(found) // 2] == found[len(found) // 2 :]


@st.composite
def permuted(draw):
    """A shape (every dim at least 1) and an order of its dims."""
    shape = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4))
    return shape, [("permute", tuple(draw(st.permutations(range(len(shape))))))]


def written(lib, t):
    """The ops that PyTorch writes into a clone of ``t`` (and index_copy, into a row-major copy)."""
    first = lib.zeros(t.shape[1:])
    return [
        t.put(lib.tensor([0, -1, 0]), lib.tensor([5.0, 6.0, 7.0]), accumulate=True),
        t.put(lib.tensor([1 % t.numel()]), lib.tensor([5.0])),
        t.index_put((lib.tensor([0, 0]),), lib.tensor(5.0), accumulate=True),
        t.index_fill(0, lib.tensor([0]), 5.0),
        t.index_copy(0, lib.tensor([0]), first.unsqueeze(0)),
        lib.select_scatter(t, first, 0, 0),
        lib.slice_scatter(t, first.unsqueeze(0), 0, 0, 1),
        lib.diagonal_scatter(t, lib.zeros(t.diagonal().shape)),
    ]


@settings(max_examples=60, deadline=None)
@given(permuted())
def test_writes_into_a_copy_are_laid_out_as_in_pytorch(chain):
    """``x.t().index_fill(...)`` is column-major in PyTorch: the copy it writes into is a clone."""
    shape, steps = chain
    expected, got = (written(lib, build(lib, shape, steps)) for lib in LIBS)
    for e, g in zip(expected, got):
        assert g.stride() == e.stride()
        np.testing.assert_array_equal(g.numpy(), e.numpy())
