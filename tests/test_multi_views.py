"""``unbind``, ``split`` and ``chunk`` against PyTorch: several views made by one node.

Values, gradients, second derivatives and gradcheck are in the case table (helpers_torch.py);
these are the graph, the errors, and what PyTorch forbids for such views (changing them in place).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, same_error, values  # noqa: E402

import minigrad  # noqa: E402

same = Oracle(values).same


def _leaf(lib, data=((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))):
    return lib.tensor(data, dtype=lib.float64, requires_grad=True)


def test_pieces_match_torch():
    same(
        lambda lib: (
            lib.arange(5.0).split(2),
            lib.split(lib.arange(6.0).reshape(2, 3), [1, 2], dim=1),
            lib.arange(5.0).split(5),
            lib.arange(5.0).split(7),
            lib.ones(5).chunk(3),
            lib.ones(6).chunk(4),
            lib.ones(3, 2).chunk(2, -1),
            lib.chunk(lib.ones(0), 2),
            lib.ones(0, 2).split(0),
            lib.ones(3).split([0, 3]),
            lib.unbind(lib.arange(6.0).reshape(2, 3), 1),
            lib.ones(2, 0).unbind(1),
            tuple(lib.arange(4.0).reshape(2, 2)),
        )
    )


def test_one_node_for_all_the_views():
    def run(lib):
        y = _leaf(lib) * 1
        out = []
        for pieces in (y.unbind(0), y.split(2, 1), y.split([1, 2], 1), y.chunk(2, 1), tuple(y)):
            nodes = {id(p.grad_fn) for p in pieces}
            out.append((pieces[0].grad_fn.name(), len(nodes), [p.output_nr for p in pieces]))
            out.append([p._base is y for p in pieces])
        node = y.split([1, 2], 1)[0].grad_fn
        out.append((node._saved_dim, tuple(node._saved_self_sym_sizes), tuple(node._saved_split_sizes)))
        node = y.chunk(2, 1)[0].grad_fn
        out.append((node._saved_dim, node._saved_split_size, y.unbind(1)[0].grad_fn._saved_dim))
        out.append(type(_leaf(lib).unbind(0)[0].grad_fn).__name__)
        out.append(lib.ones(2).unbind(0)[0].grad_fn)
        return out

    assert run(minigrad) == run(torch)


def test_gradients_of_unused_views_are_zeros():
    def run(lib):
        x = _leaf(lib)
        a, b = (x * 1).unbind(0)
        _, second, _ = (x * 1).split(1, 1)
        return lib.autograd.grad((a * a).sum() + (second * 3).sum(), x)

    same(run)


def test_double_backward_joins_with_cat_and_stack():
    def run(lib):
        x = _leaf(lib)
        first, _ = (x * 1).split([1, 1], 0)
        row, _ = (x * 1).unbind(0)
        (g,) = lib.autograd.grad((first**3).sum() + (row**3).sum(), x, create_graph=True)
        names = [n.name() for n in (g.grad_fn.next_functions[0][0], g.grad_fn.next_functions[1][0])]
        return names, g, lib.autograd.grad(g.sum(), x)

    ours, theirs = run(minigrad), run(torch)
    assert ours[0] == theirs[0]
    same(lambda lib: (ours if lib is minigrad else theirs)[1:])


def test_hooks_and_retain_grad_on_a_view():
    def run(lib):
        x = _leaf(lib)
        a, b = (x * 1).unbind(0)
        a.retain_grad()
        seen = []
        b.register_hook(lambda g: seen.append(g.clone()))
        (a * 2 + b * b).sum().backward()
        return a.grad, seen[0], x.grad

    same(run)


INPLACE_ERRORS = {
    "a view, in place": lambda lib: (_leaf(lib) * 1).unbind(0)[0].mul_(2),
    "a view of a leaf, in place": lambda lib: _leaf(lib).split(1)[1].add_(1),
    "a chunk, in place through indexing": lambda lib: (_leaf(lib) * 1).chunk(2, 1)[0].__setitem__(0, 5.0),
    "a slice of a view, in place": lambda lib: (_leaf(lib) * 1).unbind(0)[0][0:1].mul_(2),
    "a reshaped view, in place": lambda lib: (_leaf(lib) * 1).unbind(0)[1].view(3).add_(1),
    "a view of a tensor without grad, written with a value that has one": lambda lib: (
        lib.ones(2, 3).unbind(0)[0].copy_(_leaf(lib, [1.0, 2.0, 3.0]))
    ),
}


@pytest.mark.parametrize("name", sorted(INPLACE_ERRORS))
def test_changing_a_view_in_place_is_refused_as_in_torch(name):
    error = same_error(INPLACE_ERRORS[name], "This view is the output of a function that returns multiple views")
    assert str(error).split(" This view")[0] in {
        "Output 0 of Unbind is a view and is being modified inplace.",
        "Output 1 of Split is a view and is being modified inplace.",
        "Output 0 of Split is a view and is being modified inplace.",
        "Output 0 of Slice is a view and is being modified inplace.",
        "Output 0 of Select is a view and is being modified inplace.",
        "Output 0 of View is a view and is being modified inplace.",
        "A view was created in no_grad mode and is being modified inplace with grad mode enabled.",
    }, str(error)


def test_a_view_whose_base_changed_in_place_can_no_longer_be_used():
    def base_changed(lib):
        y = _leaf(lib) * 1
        a, b = y.unbind(0)
        y[0, 0] = 5.0
        return a + 1

    same_error(base_changed, "Output 0 of Unbind is a view and its base or another view of its base has been modified")

    def sibling_changed_without_grad(lib):
        y = _leaf(lib) * 1
        a, b = y.unbind(0)
        with lib.no_grad():
            a.mul_(2)  # allowed: nothing is recorded
        return b.grad_fn

    same_error(sibling_changed_without_grad, "Output 1 of Unbind is a view and its base")


def test_what_stays_allowed_matches_torch():
    def run(lib):
        x = _leaf(lib)
        y = x * 1
        a, b = y.unbind(0)
        with lib.no_grad():
            a.mul_(2)
        plain = lib.ones(2, 2)
        c, _ = plain.unbind(0)
        c.mul_(3)  # nothing requires grad: a plain view
        loss = (y * 1).sum()  # y itself is fine
        loss.backward()
        return a.requires_grad, a._version, plain, y, x.grad

    same(run)


def test_a_view_taken_under_no_grad_keeps_that_error():
    def run(lib):
        y = _leaf(lib) * 1
        with lib.no_grad():
            d, _ = y.split(1)
        d.add_(1)

    same_error(run, "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given")


ERRORS = {
    "split of a 0-d tensor": (lambda lib: lib.tensor(1.0).split(1), "split expects at least a 1-dimensional tensor"),
    "split size 0": (lambda lib: lib.ones(2, 2).split(0), "split_size can only be 0 if dimension size is 0"),
    "negative split size": (lambda lib: lib.ones(2).split(-1), "split expects split_size be non-negative"),
    "sizes that do not add up": (
        lambda lib: lib.ones(2, 2).split([1, 2]),
        "split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's size at dimension 0), but got split_sizes=[1, 2]",
    ),
    "a negative size": (
        lambda lib: lib.ones(3).split([-1, 4]),
        "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[-1, 4]",
    ),
    "a float size": (lambda lib: lib.ones(2, 2).split(1.5), "must be tuple of ints, not float"),
    "split along a dim out of range": (lambda lib: lib.ones(2, 2).split(1, 2), "Dimension out of range"),
    "chunk 0": (lambda lib: lib.ones(2, 2).chunk(0), "chunk expects `chunks` to be greater than 0, got: 0"),
    "chunk of a 0-d tensor": (lambda lib: lib.tensor(1.0).chunk(1), "chunk expects at least a 1-dimensional tensor"),
    "unbind along a dim out of range": (
        lambda lib: lib.ones(2, 2).unbind(2),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    "unbind of a 0-d tensor": (
        lambda lib: lib.tensor(1.0).unbind(0),
        "Dimension specified as 0 but tensor has no dimensions",
    ),
    "iterating over a 0-d tensor": (lambda lib: list(lib.tensor(1.0)), "iteration over a 0-d tensor"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    fn, words = ERRORS[name]
    same_error(fn, words)


def test_capstone_batches_with_split():
    # for batch in torch.randperm(n).split(64): the pieces index the data as randperm's slices would.
    minigrad.manual_seed(0)
    order = minigrad.randperm(10)
    pieces = order.split(4)
    assert [p.tolist() for p in pieces] == [order[:4].tolist(), order[4:8].tolist(), order[8:].tolist()]
    x = minigrad.arange(20.0).reshape(10, 2)
    assert x[pieces[1]].tolist() == x[order[4:8]].tolist()
