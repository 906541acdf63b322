"""The strides of dimensions of size 1, compared with real PyTorch.

Such a stride never moves an element, but PyTorch's views compute it by their own rules
(``unsqueeze`` gives the next dim's size times its stride, a slice keeps the input's stride times
the step, ``view`` follows ``computeStride``), its reductions lay their results out row-major
along every dim, and a later op laid out "like" a tensor (``empty_like``, ``view``) inherits them.
NumPy gives such dims strides of its own.
"""

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

LIBS = (torch, minigrad)

VIEWS = {
    "unsqueeze of a size-1 dim moved": lambda lib: lib.zeros(1, 2, 1).transpose(0, 1).unsqueeze(0),
    "unsqueeze at the end, transposed": lambda lib: lib.zeros(2, 3).t().unsqueeze(-1),
    "unsqueeze at the end, strided": lambda lib: lib.zeros(2, 3)[:, ::2].unsqueeze(-1),
    "None, slice, None": lambda lib: lib.zeros(2, 3)[None, 1:, None],
    "None after a stepped slice of one element": lambda lib: lib.zeros(3)[::3, None],
    "True": lambda lib: lib.zeros(1, 2).t()[True],
    "view adding a 1 at the end": lambda lib: lib.zeros(1, 2).t().view(2, 1, 1),
    "reshape to its own shape": lambda lib: lib.zeros(2, 1, 1).transpose(0, 2).reshape(1, 1, 2),
    "unflatten with 1s": lambda lib: lib.zeros(1, 3).t().unflatten(0, (3, 1, 1)),
    "empty slice with a step": lambda lib: lib.zeros(4, 3)[2:2:2],
    "squeeze of an empty view": lambda lib: lib.zeros(3, 4)[1:2, ::2][:, 2:].squeeze(),
}


@pytest.mark.parametrize("name", VIEWS)
def test_views_give_size_one_dims_torchs_strides(name):
    ours, theirs = VIEWS[name](minigrad), VIEWS[name](torch)
    assert ours.shape == theirs.shape
    assert ours.stride() == theirs.stride()
    assert minigrad.empty_like(ours).stride() == torch.empty_like(theirs).stride()


REDUCTIONS = {
    "sum keepdim of a transpose": lambda lib, x: x.t().sum(0, keepdim=True),
    "amax keepdim of a transpose": lambda lib, x: x.t().amax(0, keepdim=True),
    "mean over two dims": lambda lib, x: x.reshape(2, 3, 2).permute(2, 0, 1).mean((0, 2), keepdim=True),
}


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_are_row_major_also_along_size_one_dims(name):
    ours = REDUCTIONS[name](minigrad, minigrad.arange(12.0).reshape(3, 4))
    theirs = REDUCTIONS[name](torch, torch.arange(12.0).reshape(3, 4))
    assert ours.stride() == theirs.stride()
    np.testing.assert_allclose(ours.tolist(), theirs.tolist(), rtol=1e-12)


EINSUMS = [
    ("ij,ik->jk", [(1, 3), (4, 2)], [False, False]),
    ("ij,ik->jk", [(1, 4), (1, 4)], [False, True]),
    ("ij,kl->ijkl", [(3, 1), (4, 2)], [False, True]),
    ("bi,bj->bij", [(4, 1), (4, 2)], [False, False]),
    ("ij,jk->ki", [(3, 1), (1, 4)], [False, False]),
    ("i,j,k->ijk", [(1,), (4,), (3,)], [False, False, False]),
    ("ij,ik,il->jkl", [(1, 3), (1, 2), (1, 3)], [False, False, True]),
]


@pytest.mark.parametrize("equation, shapes, transposed", EINSUMS)
def test_outer_product_einsums_are_laid_out_as_torchs(equation, shapes, transposed):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape) for shape in shapes]
    found = []
    for lib in LIBS:
        operands = [
            lib.tensor(a.T.copy()).permute(*reversed(range(a.ndim))) if t else lib.tensor(a)
            for a, t in zip(arrays, transposed)
        ]
        out = lib.einsum(equation, *operands)
        found.append((out.stride(), np.asarray(out.tolist())))
    assert found[0][0] == found[1][0]
    np.testing.assert_allclose(found[1][1], found[0][1], rtol=1e-12)


WRITES = {
    "None, slice, None": lambda x: x[None, 1:, None],
    "column, unsqueezed": lambda x: x[:, 1:2].unsqueeze(-1),
    "column, transposed, unsqueezed": lambda x: x[:, 1:2].t().unsqueeze(-1),
    "rows, transposed, None": lambda x: x[1:].t()[:, :, None],
    "reshape of a row, transposed": lambda x: x[1:].t().reshape(3, 1, 1),
}


@pytest.mark.parametrize("name", WRITES)
def test_in_place_writes_through_such_views_land_in_the_base(name):
    found = []
    for lib in LIBS:
        w = lib.arange(6.0, requires_grad=True)
        base = w.reshape(2, 3).clone()
        view = WRITES[name](base)
        view.mul_(10).add_(1)
        view[(0,) * view.ndim] = -1
        (base * lib.arange(6.0).reshape(2, 3)).sum().backward()
        found.append((base.tolist(), view.tolist(), view.stride(), view._version, w.grad.tolist()))
    assert found[1] == found[0]


@pytest.mark.parametrize("name", ["True", "view adding a 1 at the end", "unsqueeze at the end, transposed"])
def test_view_after_such_views_behaves_as_torchs(name):
    found = []
    for lib in LIBS:
        t = VIEWS[name](lib)
        n = t.numel()
        for shape in [(n,), (1, n), (n, 1), (n, 1, 1, 1), (-1, 1), tuple(t.shape), tuple(t.shape) + (1,)]:
            try:
                out = t.view(shape)
            except RuntimeError:
                found.append("refused")
            else:  # (a tensor laid out like it, too)
                found.append((tuple(out.shape), out.stride(), out.transpose(0, -1).contiguous().stride()))
    half = len(found) // 2
    assert found[half:] == found[:half]


def _random_chain(rng):
    """A chain of view operations, the same for both libraries, from a seeded generator."""
    steps = []
    for _ in range(int(rng.integers(1, 5))):
        kind = str(rng.choice(["unsqueeze", "transpose", "slice", "select", "squeeze", "view", "none", "true"]))
        steps.append((kind, int(rng.integers(0, 1000)), int(rng.integers(0, 1000))))
    return steps


def _apply(t, kind, a, b):
    nd = t.ndim
    if kind == "unsqueeze":
        return t.unsqueeze(a % (nd + 1))
    if nd == 0:
        return t[None]
    d = a % nd
    n = t.shape[d]
    if kind == "transpose":
        return t.transpose(d, b % nd)
    if kind == "slice":
        return t[(slice(None),) * d + (slice(b % (n + 1), None, 1 + b % 3),)]
    if kind == "select":
        return t.select(d, b % n) if n else t
    if kind == "squeeze":
        return t.squeeze(d) if b % 2 else t.squeeze()
    if kind == "view":  # the dims without 1s, with 1s put in
        sizes = [s for s in t.shape if s != 1]
        for i in range(b % 3):
            sizes.insert((a + i) % (len(sizes) + 1), 1)
        return t.view(sizes)
    if kind == "none":
        return t[(slice(None),) * d + (None,)]
    return t[True] if t.numel() else t  # (an empty x[True] has strides of its own in PyTorch)


def test_random_view_chains_keep_torchs_strides():
    rng = np.random.default_rng(7)
    for _ in range(300):
        shape = tuple(int(n) for n in rng.choice([1, 1, 2, 3], size=rng.integers(0, 4)))
        transpose = bool(rng.random() < 0.5) and len(shape) >= 2
        steps = _random_chain(rng)
        found = []
        for lib in LIBS:
            t = lib.arange(float(np.prod(shape, dtype=int))).reshape(shape)
            t = t.transpose(0, -1) if transpose else t
            trail = []
            for step in steps:
                try:
                    t = _apply(t, *step)
                except RuntimeError:  # a view that the layout does not allow, in both
                    trail.append("refused")
                    break
                trail.append((tuple(t.shape), t.stride()))
            found.append(trail)
        assert found[1] == found[0], (shape, transpose, steps)
