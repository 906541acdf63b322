# ruff: noqa: N999 - the module is named after its notebook, 07_build_autograd
"""Assignment 07: the pieces of an autograd engine, built by the student: derivative rules with
broadcasting undone, a custom autograd.Function checked with gradcheck, a topological order
without recursion, and a backward pass with accumulation, leaves, retain_grad and hooks."""

import textwrap

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written


def _lines(*parts: str) -> str:
    """Pieces of code, each dedented on its own, one after the other."""
    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


# The small graph structure of Part 3. coursetools.engine_checks holds the same code (the tests
# build their graphs with it); tests/test_engine_checks.py checks that the two agree.
NODE_CODE = '''
FORWARD = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "matmul": lambda a, b: a @ b,
    "exp": lambda a: a.exp(),
    "tanh": lambda a: a.tanh(),
    "sum": lambda a, dim=None, keepdim=False: a.sum(dim=dim, keepdim=keepdim),
}


class Node:
    """A value in a small computation graph: a tensor, and how it was computed."""

    def __init__(self, value, name="", requires_grad=False, op="leaf", inputs=(), vjp=None, params=None):
        self.value = value  # a minigrad tensor that records nothing itself
        self.name = name  # for drawings and messages
        self.requires_grad = requires_grad
        self.op = op  # "leaf", or the operation that made this node: "add", "mul", ...
        self.inputs = inputs  # the nodes it was computed from; () for a leaf
        self.vjp = vjp  # grad of this node -> a tuple with one gradient per input
        self.params = params or {}  # e.g. {"dim": 1, "keepdim": False} for a sum
        # What a backward pass reads and fills in:
        self.grad = None
        self.retains_grad = False
        self.hooks = []

    @property
    def is_leaf(self):
        return not self.inputs

    def named(self, name):
        self.name = name
        return self

    def retain_grad(self):
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on a node that has requires_grad=False")
        if not self.is_leaf:
            self.retains_grad = True

    def register_hook(self, hook):
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a node that doesn't require gradient")
        self.hooks.append(hook)

    def __add__(self, other):
        return apply("add", self, other)

    def __mul__(self, other):
        return apply("mul", self, other)

    def __truediv__(self, other):
        return apply("div", self, other)

    def __matmul__(self, other):
        return apply("matmul", self, other)

    def exp(self):
        return apply("exp", self)

    def tanh(self):
        return apply("tanh", self)

    def sum(self, dim=None, keepdim=False):
        return apply("sum", self, dim=dim, keepdim=keepdim)

    def __repr__(self):
        return f"Node({self.name!r}, op={self.op!r}, shape={tuple(self.value.shape)}, requires_grad={self.requires_grad})"


def apply(op, *inputs, **params):
    """The node of `op` applied to `inputs` (a leaf when none of them requires grad)."""
    value = FORWARD[op](*[i.value for i in inputs], **params)
    if not any(i.requires_grad for i in inputs):
        return Node(value)  # nothing to differentiate: a leaf, as in PyTorch

    def vjp(grad):
        # The rule of this one operation: minigrad's, applied to fresh copies of the inputs.
        copies = [i.value.detach().requires_grad_() for i in inputs]
        with torch.enable_grad():
            out = FORWARD[op](*copies, **params)
        return torch.autograd.grad(out, copies, grad)

    return Node(value, "", True, op, tuple(inputs), vjp, params)


def leaf(values, name, requires_grad=True):
    """A leaf node holding `values` as a float64 tensor."""
    return Node(torch.tensor(values, dtype=torch.float64), name, requires_grad)
'''

DEMO_GRAPH = """
x = leaf([1.0, 2.0], "x")
w = leaf([0.5, -1.0], "w")
a = (x * w).named("a")
b = a.exp().named("b")
c = (b * a).named("c")
h = (c + x).named("h")
loss = h.sum().named("loss")
"""

# Exercise 5: which of these orders may a backward pass use on the demo graph?
ORDERS = {
    "A": ["loss", "h", "c", "b", "a", "x", "w"],
    "B": ["loss", "h", "c", "x", "b", "a", "w"],
    "C": ["loss", "h", "c", "a", "b", "w", "x"],
    "D": ["loss", "h", "c", "b", "a", "w", "x"],
    "E": ["loss", "c", "h", "b", "a", "x", "w"],
    "F": ["loss", "h", "c", "b", "w", "a", "x"],
}
ORDERS_TABLE = "\n".join(f"        | {k} | {' → '.join(v)} |" for k, v in ORDERS.items()).strip()
ORDERS_HIDDEN = (
    "_orders = {\n"
    + "".join(f"    {k!r}: {v!r},\n" for k, v in ORDERS.items())
    + "}\n_uses = {'loss': ['h'], 'h': ['c', 'x'], 'c': ['b', 'a'], 'b': ['a'], 'a': ['x', 'w']}\n"
)

RULE_IMPORT = "from coursetools.engine_checks import check_rule"

CELLS = [
    md(
        "intro",
        """
        # Assignment 07 — Build your own autograd

        For six notebooks you have used minigrad's autograd from the outside. Now you build its
        pieces yourself, and the tests compare each piece with minigrad on cases you have not
        seen.

        You will

        - write derivative rules as plain functions, including the step every rule needs when
          shapes broadcast;
        - write a custom operation with `torch.autograd.Function` and `ctx.save_for_backward`,
          and check it with `gradcheck`;
        - write the two halves of a backward engine: an order in which to visit the nodes (no
          recursion: it must cope with 50,000 of them), and the pass itself, with gradients that
          add up where paths meet, `.grad` only on leaves, `retain_grad` and hooks.
        """,
        how_to_work(60),
    ),
    setup("from coursetools.engine_checks import to_minigrad"),
    # ------------------------------------------------------------------ rules
    md(
        "rules_intro",
        """
        ## Part 1 — Derivative rules

        ### 1. A rule is a function of the incoming gradient

        Each node of a backward graph holds one rule per input of its operation. The rule gets
        `grad`, the gradient of the loss with respect to the operation's **output**, and returns
        the gradient of the loss with respect to that **input**: the chain rule, one step. For
        `out = a.tanh()` the derivative is `1 - out²`, so the rule is `grad * (1 - out²)`,
        element by element.

        Such a rule never builds a Jacobian: it multiplies the incoming gradient by it directly.
        That is why it is called a *vector-Jacobian product*, or **vjp**. In this notebook a rule
        is a plain function, for example `vjp_mul(grad, a, b) -> (grad_a, grad_b)`: the incoming
        gradient and the inputs of the forward pass in, one gradient per input out, each with the
        shape of its input.

        Here is minigrad's rule for `tanh` at work, next to the formula:
        """,
    ),
    code(
        "rules_demo",
        """
        a = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
        out = a.tanh()
        grad = torch.tensor([1.0, 10.0, 100.0])  # what arrives from further down the graph
        (from_minigrad,) = torch.autograd.grad(out, a, grad, retain_graph=True)
        by_hand = grad * (1 - out.detach() ** 2)
        print("minigrad:", from_minigrad)
        print("by hand: ", by_hand)
        """,
    ),
    md(
        "rules_saved",
        """
        A rule can only use what the node kept from the forward pass. With `show_saved=True`, the
        drawing lists it: `TanhBackward0` saved its **result**, because `1 - out²` needs nothing
        else.
        """,
    ),
    code("rules_saved_draw", "viz.draw_backward(out, show_saved=True)"),
    # ------------------------------------------------------------------ broadcasting
    md(
        "bc_intro",
        """
        ### 2. Broadcasting, undone

        When shapes differ, the forward pass **broadcasts**: in `x * 2 + bias` with `x` of shape
        (2, 3) and `bias` of shape (3,), the same `bias` row is added to both rows of `x`. Each
        element of `bias` is therefore *used twice*, and a value used twice gets the sum of the
        gradients of both uses. So the gradient for `bias` is the incoming (2, 3) gradient summed
        over its rows, back to shape (3,).
        """,
    ),
    code(
        "bc_demo",
        """
        x = torch.ones(2, 3, requires_grad=True)
        bias = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
        y = x * 2 + bias
        y.backward(torch.tensor([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]))
        print(bias.grad)  # [11, 22, 33]: each column, summed over the two rows
        print(x.grad)  # x was not broadcast: 2 * the incoming gradient
        """,
    ),
    md(
        "bc_rule",
        """
        In general broadcasting can do two things to an input, and both must be undone by summing:

        1. **add leading dimensions**: shape (3,) is used as (1, 3), then stretched. Sum over the
           leading dimensions the input does not have (`grad.sum(dim=0)`, as often as needed).
        2. **stretch a dimension of size 1**: shape (2, 1) is used as (2, 3). Sum over that
           dimension but keep it, with size 1: `grad.sum(dim=1, keepdim=True)`.

        minigrad does this in one place for every operation (`_fit` in `minigrad/autograd/op.py`,
        which calls `sum_to_size`), so each rule can be written as if nothing were broadcast. The
        drawing shows the two shapes meeting at `AddBackward0`:
        """,
    ),
    code("bc_draw", "viz.draw(y)"),
    md(
        "ex1_text",
        """
        ### Exercise 1 (3 points) — `unbroadcast`

        Write `unbroadcast(grad, shape)`: it returns `grad` summed down to `shape` (a tuple or a
        `torch.Size`), where `shape` is the shape of an input that was broadcast to
        `grad.shape`. Examples: (2, 3) → (3,) sums the rows; (2, 3) → (2, 1) sums each row,
        keeping a column; (2, 3) → () sums everything; a shape equal to `grad.shape` leaves it as
        it is. Use `sum(dim=..., keepdim=...)`; not `sum_to_size`, which is what you are
        rebuilding. Do not change `grad` in place.
        """,
    ),
    answer(
        "ex1_answer",
        """
        def unbroadcast(grad, shape):
            \"\"\"grad summed down to shape: the gradient of an input that was broadcast to grad.shape.\"\"\"
            ### BEGIN SOLUTION
            shape = tuple(shape)
            while grad.dim() > len(shape):  # 1. leading dimensions the input did not have
                grad = grad.sum(dim=0)
            for dim, size in enumerate(shape):  # 2. dimensions stretched from size 1
                if size == 1 and grad.shape[dim] != 1:
                    grad = grad.sum(dim=dim, keepdim=True)
            return grad
            ### END SOLUTION
        """,
        alternatives=[
            # Pad the shape with ones, sum every stretched dimension, then drop the padding.
            """
            def unbroadcast(grad, shape):
                shape = tuple(shape)
                padded = (1,) * (grad.dim() - len(shape)) + shape
                for dim, size in enumerate(padded):
                    if size == 1 and grad.shape[dim] != 1:
                        grad = grad.sum(dim=dim, keepdim=True)
                return grad.reshape(shape)
            """,
            # All the dimensions to sum at once, as a tuple.
            """
            def unbroadcast(grad, shape):
                lead = grad.dim() - len(shape)
                dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and grad.shape[lead + i] > 1)
                if dims:
                    grad = grad.sum(dim=dims, keepdim=True)
                return grad.reshape(tuple(shape))
            """,
        ],
        mistakes=[
            # The size-1 dimensions first, counted from the left before the leading ones are gone:
            # right whenever grad and shape have as many dimensions, or shape has no 1s.
            mistake(
                """
                def unbroadcast(grad, shape):
                    for dim, size in enumerate(shape):
                        if size == 1 and grad.shape[dim] != 1:
                            grad = grad.sum(dim=dim, keepdim=True)
                    while grad.dim() > len(shape):
                        grad = grad.sum(dim=0)
                    return grad
                """,
                ["ex1_hidden"],
            ),
            # Only the leading dimensions are summed, not the stretched ones. The rules of exercise 2,
            # which call it, are graded with a correct unbroadcast and lose nothing.
            mistake(
                """
                def unbroadcast(grad, shape):
                    while grad.dim() > len(shape):
                        grad = grad.sum(dim=0)
                    return grad
                """,
                ["ex1_visible", "ex1_hidden"],
            ),
            # sum_to_size, which the statement forbids (it is what unbroadcast rebuilds): right
            # values, but the exercise not done.
            mistake(
                """
                def unbroadcast(grad, shape):
                    return grad.sum_to_size(shape)
                """,
                ["ex1_visible", "ex1_hidden"],
            ),
        ],
    ),
    tests(
        "ex1_visible",
        """
        from coursetools.engine_checks import check_unbroadcast

        check_unbroadcast(unbroadcast)
        print("unbroadcast passes the visible tests.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        from coursetools.engine_checks import check_unbroadcast

        _smoke = unbroadcast(torch.ones(2, 3), (3,))
        ### BEGIN HIDDEN TESTS
        check_unbroadcast(unbroadcast, seed=701, trials=40)
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ rules to write
    md(
        "worked_rules",
        """
        ### 3. Rules for binary operations

        With `unbroadcast`, a rule for an operation of two inputs is short: compute each gradient
        as if nothing were broadcast, then sum it down to its input's shape. Two worked examples
        (run the cell; `vjp_add` works once your `unbroadcast` does):
        """,
    ),
    code(
        "worked_rules_code",
        '''
        def vjp_add(grad, a, b):
            """out = a + b: each input receives grad itself, summed down to the input's shape."""
            return unbroadcast(grad, a.shape), unbroadcast(grad, b.shape)


        def vjp_exp(grad, a):
            """out = a.exp(): the derivative of exp is exp, so the input receives grad * exp(a)."""
            return (grad * a.exp(),)
        ''',
    ),
    md(
        "check_rule_text",
        """
        The tests use `check_rule(op, rule)` from `coursetools.engine_checks`. It calls your rule
        on random inputs, compares the result with minigrad's gradient and with a finite
        difference (nudge an input by a tiny step along a random direction and watch the output
        change), and names the input and the shapes when something is wrong. Try it on the
        worked example:
        """,
    ),
    code(
        "check_rule_demo",
        """
        from coursetools.engine_checks import check_rule

        check_rule("exp", vjp_exp)
        print("vjp_exp agrees with minigrad and with finite differences")
        """,
    ),
    md(
        "ex2_text",
        """
        ### Exercise 2 (3 points) — the rules of `*` and `/`

        Complete `vjp_mul` and `vjp_div`. Both inputs may have been broadcast, `a` as well as `b`.
        For `out = a / b`: ∂out/∂a = 1/b and ∂out/∂b = −a/b².
        """,
    ),
    answer(
        "ex2_answer",
        """
        def vjp_mul(grad, a, b):
            \"\"\"out = a * b (shapes may broadcast): returns (grad_a, grad_b).\"\"\"
            ### BEGIN SOLUTION
            return unbroadcast(grad * b, a.shape), unbroadcast(grad * a, b.shape)
            ### END SOLUTION


        def vjp_div(grad, a, b):
            \"\"\"out = a / b (shapes may broadcast): returns (grad_a, grad_b).\"\"\"
            ### BEGIN SOLUTION
            return unbroadcast(grad / b, a.shape), unbroadcast(-grad * a / (b * b), b.shape)
            ### END SOLUTION
        """,
        alternatives=[
            # The quotient's derivative written with the output: -grad * out / b.
            """
            def vjp_mul(grad, a, b):
                grad_a = grad * b
                grad_b = a * grad
                return unbroadcast(grad_a, a.shape), unbroadcast(grad_b, b.shape)


            def vjp_div(grad, a, b):
                out = a / b
                return unbroadcast(grad / b, a.shape), unbroadcast(-(grad * out) / b, b.shape)
            """,
            # Right rules, and the worked example vjp_add rewritten (wrongly, without unbroadcast):
            # vjp_add is not part of the exercise, so it must not cost points.
            """
            def vjp_add(grad, a, b):
                return grad, grad


            def vjp_mul(grad, a, b):
                return unbroadcast(b * grad, a.shape), unbroadcast(a * grad, b.shape)


            def vjp_div(grad, a, b):
                inv = 1 / b
                return unbroadcast(grad * inv, a.shape), unbroadcast(-grad * a * inv * inv, b.shape)
            """,
        ],
        mistakes=[
            # Only b is summed down: right as long as a has the full shape.
            mistake(
                """
                def vjp_mul(grad, a, b):
                    return grad * b, unbroadcast(grad * a, b.shape)


                def vjp_div(grad, a, b):
                    return grad / b, unbroadcast(-grad * a / (b * b), b.shape)
                """,
                ["ex2_hidden"],
            )
        ],
    ),
    tests(
        "ex2_visible",
        """
        from coursetools.engine_checks import check_rule, graded_alone

        # The rules on their own: when they fail with your unbroadcast, they are tried with a
        # correct one (exercise 1 grades your unbroadcast).
        graded_alone(globals(), "unbroadcast", lambda: check_rule("mul", vjp_mul))
        graded_alone(globals(), "unbroadcast", lambda: check_rule("div", vjp_div))
        print("vjp_mul and vjp_div pass the visible tests.")
        """,
        points=1,
        needs=["ex2_answer"],  # graded alone: a correct unbroadcast is lent when the student's fails
    ),
    tests(
        "ex2_hidden",
        """
        from coursetools.engine_checks import check_rule, graded_alone

        graded_alone(globals(), "unbroadcast", lambda: (vjp_mul(*[torch.ones(2)] * 3), vjp_div(*[torch.ones(2)] * 3)))
        ### BEGIN HIDDEN TESTS
        graded_alone(globals(), "unbroadcast", lambda: check_rule("mul", vjp_mul, seed=702, trials=30))
        graded_alone(globals(), "unbroadcast", lambda: check_rule("div", vjp_div, seed=703, trials=30))
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],  # graded alone: a correct unbroadcast is lent when the student's fails
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — the rules of `sum` and `@`

        **`vjp_sum(grad, a, dim=None, keepdim=False)`** for `out = a.sum(dim=dim, keepdim=keepdim)`,
        where `dim` is `None` (sum of everything: `grad` is a single number) or one int, possibly
        negative. Every element of `a` contributed to its sum with weight 1, so each one receives
        the gradient of the sum it went into: spread `grad` back over the summed dimension. When
        `keepdim` is False that dimension is missing from `grad`: put it back with size 1 first
        (`unsqueeze`), then `expand` to `a.shape`.

        **`vjp_matmul(grad, a, b)`** for `out = a @ b`, with `a` of shape (n, k) and `b` of shape
        (k, m), so `grad` has shape (n, m). Element `out[i, j]` is the sum over `p` of
        `a[i, p] * b[p, j]`; work out which products each `a[i, p]` and each `b[p, j]` appears in,
        and write both gradients as matrix products. Check your answer by its shape: the gradient
        of `a` must be (n, k).

        Both return a tuple with one gradient per input: `(grad_a,)` and `(grad_a, grad_b)`.
        """,
    ),
    answer(
        "ex3_answer",
        """
        def vjp_sum(grad, a, dim=None, keepdim=False):
            \"\"\"out = a.sum(dim=dim, keepdim=keepdim): returns (grad_a,).\"\"\"
            ### BEGIN SOLUTION
            if dim is not None and not keepdim:
                grad = grad.unsqueeze(dim)  # the summed dimension, back with size 1
            return (grad.expand(*a.shape),)
            ### END SOLUTION


        def vjp_matmul(grad, a, b):
            \"\"\"out = a @ b for a of shape (n, k) and b of shape (k, m): returns (grad_a, grad_b).\"\"\"
            ### BEGIN SOLUTION
            return grad @ b.T, a.T @ grad
            ### END SOLUTION
        """,
        alternatives=[
            # Broadcasting against zeros instead of expand; transpose() instead of .T.
            """
            def vjp_sum(grad, a, dim=None, keepdim=False):
                if dim is not None and not keepdim:
                    dim = dim % a.dim()
                    grad = grad.reshape(tuple(1 if d == dim else s for d, s in enumerate(a.shape)))
                return (torch.zeros_like(a) + grad,)


            def vjp_matmul(grad, a, b):
                return grad @ b.transpose(0, 1), a.transpose(0, 1) @ grad
            """,
            # torch.full for the sum of everything; the matrix products written as loops.
            """
            def vjp_sum(grad, a, dim=None, keepdim=False):
                if dim is None:
                    return (torch.full(a.shape, grad.item(), dtype=a.dtype),)
                if dim < 0:
                    dim += a.dim()
                if not keepdim:
                    grad = grad.unsqueeze(dim)
                return (grad + torch.zeros_like(a),)


            def vjp_matmul(grad, a, b):
                n, k = a.shape
                m = b.shape[1]
                grad_a = torch.zeros(n, k, dtype=a.dtype)
                grad_b = torch.zeros(k, m, dtype=b.dtype)
                for i in range(n):
                    for p in range(k):
                        grad_a[i, p] = (grad[i] * b[p]).sum()
                for p in range(k):
                    for j in range(m):
                        grad_b[p, j] = (a[:, p] * grad[:, j]).sum()
                return grad_a, grad_b
            """,
        ],
        mistakes=[
            # Broadcasting grad against a without putting the summed dimension back: right for
            # dim=None, for dim=0 and for keepdim=True, wrong for a later dimension dropped.
            mistake(
                """
                def vjp_sum(grad, a, dim=None, keepdim=False):
                    return (grad * torch.ones_like(a),)


                def vjp_matmul(grad, a, b):
                    return grad @ b.T, a.T @ grad
                """,
                ["ex3_hidden"],
            )
        ],
    ),
    tests(
        "ex3_visible",
        RULE_IMPORT,
        """
        check_rule("sum", vjp_sum)
        check_rule("matmul", vjp_matmul)
        print("vjp_sum and vjp_matmul pass the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        RULE_IMPORT,
        """
        _smoke = vjp_sum(torch.ones(()), torch.ones(2)), vjp_matmul(torch.ones(1, 1), torch.ones(1, 1), torch.ones(1, 1))
        ### BEGIN HIDDEN TESTS
        check_rule("sum", vjp_sum, seed=705, trials=40)
        check_rule("matmul", vjp_matmul, seed=706, trials=20)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    # ------------------------------------------------------------------ custom Function
    md(
        "fn_intro",
        """
        ## Part 2 — A custom operation

        ### 4. `torch.autograd.Function`

        Sometimes you want to write the rule of an operation yourself: the operation is missing,
        or its derivative is cheaper or more accurate by hand than what autograd would derive
        from the steps of the forward pass. A subclass of `torch.autograd.Function` has two
        static methods:

        - `forward(ctx, x, ...)` computes the result. Nothing inside it is recorded; it stores
          what the rule will need with `ctx.save_for_backward(tensor, ...)`.
        - `backward(ctx, grad_output)` gets the gradient of the output and returns one gradient
          per input of `forward`. `ctx.saved_tensors` gives back the saved tensors: checked for
          in-place changes since they were saved, and freed after the backward pass, like the
          values minigrad's own nodes save.

        You call it as `MyFunction.apply(x)`; the result's `grad_fn` is a node named after the
        class.
        """,
    ),
    code(
        "fn_demo",
        """
        class Cube(torch.autograd.Function):
            \"\"\"x³, with the rule written by hand: grad * 3x².\"\"\"

            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, grad_output):
                (x,) = ctx.saved_tensors
                return grad_output * 3 * x * x


        x = torch.tensor([-1.0, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
        y = Cube.apply(x)
        print(y)
        y.sum().backward()
        print(x.grad)  # 3x²
        """,
    ),
    md(
        "fn_draw_text",
        """
        In the graph, the whole operation is one node, `CubeBackward`, and it shows the tensor it
        saved:
        """,
    ),
    code("fn_draw", "viz.draw_backward(Cube.apply(x).sum(), show_saved=True)"),
    md(
        "gradcheck_intro",
        """
        A hand-written rule can be wrong, and nothing would tell you. `torch.autograd.gradcheck(f,
        inputs)` compares the rule with finite differences: it nudges each input element by a
        tiny step and sees how the output moves. It needs `float64` inputs (in `float32` the
        finite differences are too coarse), returns `True` when everything agrees, and raises
        (or returns `False` with `raise_exception=False`) when not:
        """,
    ),
    code(
        "gradcheck_demo",
        """
        class BadCube(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, grad_output):
                (x,) = ctx.saved_tensors
                return grad_output * x * x  # the factor 3 is missing


        print("Cube:   ", torch.autograd.gradcheck(Cube.apply, (x,)))
        print("BadCube:", torch.autograd.gradcheck(BadCube.apply, (x,), raise_exception=False))
        """,
    ),
    md(
        "softplus_intro",
        """
        ### 5. Softplus, without overflow

        `softplus(x) = log(1 + eˣ)` is a smooth version of `relu`. Written as it stands, it breaks
        for large inputs: `e¹⁰⁰⁰` is `inf` in floating point, so the result is `inf` instead of
        1000, and the derivative autograd derives from these steps, `eˣ / (1 + eˣ)`, becomes
        `inf / inf = nan`:
        """,
    ),
    code(
        "softplus_naive",
        """
        big = torch.tensor([-1000.0, 0.0, 1000.0], dtype=torch.float64, requires_grad=True)
        naive = (1 + big.exp()).log()
        naive.sum().backward()
        print("value:     ", naive)
        print("derivative:", big.grad)
        """,
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — a stable `Softplus`

        Write `Softplus` as a `torch.autograd.Function`:

        - `forward` must not overflow. Use `log(1 + eˣ) = max(x, 0) + log(1 + e^(−|x|))`: the
          exponent is never positive, so `e^(−|x|)` lies between 0 and 1. (`x.clamp(min=0)` is
          `max(x, 0)`; `x.abs()` is `|x|`.)
        - `backward` uses the derivative of softplus, which is the sigmoid: `1 / (1 + e^(−x))`.
          minigrad's `x.sigmoid()` computes it without overflow.
        - Save what `backward` needs with `ctx.save_for_backward`.

        At ±1000 the value must be finite and the derivative must be 0 or 1, not `nan`; the
        tests also run `gradcheck` on your function.
        """,
    ),
    answer(
        "ex4_answer",
        """
        class Softplus(torch.autograd.Function):
            \"\"\"log(1 + exp(x)) without overflow, with its derivative written by hand.\"\"\"

            @staticmethod
            def forward(ctx, x):
                ### BEGIN SOLUTION
                ctx.save_for_backward(x)
                return x.clamp(min=0) + (1 + (-x.abs()).exp()).log()
                ### END SOLUTION

            @staticmethod
            def backward(ctx, grad_output):
                ### BEGIN SOLUTION
                (x,) = ctx.saved_tensors
                return grad_output * x.sigmoid()
                ### END SOLUTION
        """,
        alternatives=[
            # The output is saved instead of the input: sigmoid(x) = 1 - exp(-softplus(x)).
            """
            class Softplus(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    out = torch.maximum(x, torch.zeros_like(x)) + (1 + torch.exp(-torch.abs(x))).log()
                    ctx.save_for_backward(out)
                    return out

                @staticmethod
                def backward(ctx, grad_output):
                    (out,) = ctx.saved_tensors
                    return grad_output * (1 - (-out).exp())
            """,
            # Two formulas, each used where it is safe (torch.where picks element by element).
            """
            class Softplus(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    ctx.save_for_backward(x)
                    positive = x + (1 + (-x).exp()).log()
                    negative = (1 + x.exp()).log()
                    return torch.where(x > 0, positive, negative)

                @staticmethod
                def backward(ctx, grad_output):
                    (x,) = ctx.saved_tensors
                    up = 1 / (1 + (-x).exp())
                    down = x.exp() / (1 + x.exp())
                    return grad_output * torch.where(x > 0, up, down)
            """,
        ],
        mistakes=[
            # The formula as written: right for moderate x, inf and nan at ±1000.
            mistake(
                """
                class Softplus(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        ctx.save_for_backward(x)
                        return (1 + x.exp()).log()

                    @staticmethod
                    def backward(ctx, grad_output):
                        (x,) = ctx.saved_tensors
                        return grad_output * x.exp() / (1 + x.exp())
                """,
                ["ex4_hidden"],
            ),
            # Keeps x on ctx instead of saving it: no in-place check, never freed.
            mistake(
                """
                class Softplus(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, x):
                        ctx.x = x
                        return x.clamp(min=0) + (1 + (-x.abs()).exp()).log()

                    @staticmethod
                    def backward(ctx, grad_output):
                        return grad_output * ctx.x.sigmoid()
                """,
                ["ex4_visible"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        """
        _x = torch.tensor([-2.0, -0.5, 0.0, 0.7, 3.0], dtype=torch.float64, requires_grad=True)
        _y = Softplus.apply(_x)
        check(isinstance(_y, torch.Tensor), f"Softplus.apply(x) should return a tensor, got {type(_y).__name__}")
        check(_y.grad_fn is not None, "Softplus.apply(x) should have a grad_fn when x requires grad")
        check_close(_y, (1 + _x.detach().exp()).log(), "forward should compute log(1 + exp(x))")
        check(
            torch.autograd.gradcheck(Softplus.apply, (_x,), raise_exception=False),
            "gradcheck fails: backward should return grad_output times the derivative of softplus, sigmoid(x)",
        )
        _kept = _y.grad_fn.saved_tensors
        check(type(_kept) is tuple and len(_kept) >= 1, "forward should keep what backward needs with ctx.save_for_backward")
        print("Softplus passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        _smoke = Softplus.apply(torch.tensor([0.5], dtype=torch.float64, requires_grad=True))
        ### BEGIN HIDDEN TESTS
        _big = torch.tensor([-1000.0, -40.0, 40.0, 1000.0], dtype=torch.float64, requires_grad=True)
        _out = Softplus.apply(_big)
        check_close(_out, [0.0, 4.248354255291589e-18, 40.0, 1000.0], "values at large inputs must stay finite", atol=1e-12)
        _out.sum().backward()
        check_close(_big.grad, [0.0, 4.248354255291589e-18, 1.0, 1.0], "derivatives at large inputs must not be nan", atol=1e-12)
        torch.manual_seed(7)
        _m = (torch.randn(3, 4, dtype=torch.float64) * 3).requires_grad_()
        check(torch.autograd.gradcheck(Softplus.apply, (_m,), raise_exception=False), "gradcheck on a 3x4 input")
        _f32 = Softplus.apply(torch.tensor([1.0, -1.0], requires_grad=True))
        check(_f32.dtype == torch.float32, "a float32 input must give a float32 result")
        _plain_out = Softplus.apply(torch.tensor([2.0, -3.0]))
        check(_plain_out.grad_fn is None, "without requires_grad, nothing is recorded")
        check_close(_plain_out, [2.1269280110429727, 0.04858735157374206], "softplus of a plain tensor", atol=1e-6)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ the engine
    md(
        "engine_intro",
        """
        ## Part 3 — Your own backward engine

        ### 6. A graph to walk

        To write a backward pass you need a graph. Here is a small one you can read in full. A
        `Node` holds a `value` (a minigrad tensor that records nothing), the `inputs` it was
        computed from, and `vjp`, its rule: `node.vjp(grad)` returns a tuple with one gradient per
        input. Operations (`+`, `*`, `/`, `@`, `exp()`, `tanh()`, `sum(dim, keepdim)`) make new
        nodes, and `leaf(values, name)` makes a leaf. As in minigrad, a result of inputs that
        need no gradient is itself a leaf with `requires_grad=False`.

        Each node's `vjp` uses minigrad's rule for its one operation, so a slip in Part 1 cannot
        spill into your engine. The last three attributes are for the backward pass to fill in
        or read: `grad`, `retains_grad` (set by `retain_grad()`) and `hooks` (added by
        `register_hook(fn)`).
        """,
    ),
    code("node_class", NODE_CODE),
    md(
        "demo_graph_text",
        """
        A small graph in which `a` and `x` are each used twice:
        """,
    ),
    code(
        "demo_graph",
        _lines(
            DEMO_GRAPH,
            """
        print(loss)
        print("h.inputs:", h.inputs)
        print("a.vjp(1):", a.vjp(torch.ones(2, dtype=torch.float64)))  # (grad for x, grad for w)
        """,
        ),
    ),
    md(
        "demo_graph_draw_text",
        """
        `minigrad.viz` draws minigrad tensors, so `to_minigrad(loss)` rebuilds the graph with
        minigrad tensors, node by node, and returns the result with a `{name: tensor}` dict. The
        drawing is the graph your engine will walk (arrows in the forward direction):
        """,
    ),
    code(
        "demo_graph_draw",
        """
        twin, names = to_minigrad(loss)
        viz.draw(twin, names=names)
        """,
    ),
    md(
        "engine_plan",
        """
        ### 7. What a backward pass does

        Start at the root with gradient 1. Then visit the nodes, and at each one:

        1. take its **complete** gradient: the sum of what every node that uses it sent;
        2. run its hooks on that gradient;
        3. if it is a leaf, add the gradient into `.grad`; if `retain_grad()` was called on it,
           store it in `.grad` too;
        4. otherwise call `node.vjp(grad)` and send each input its share (only to inputs that
           require grad).

        Step 1 is why the order matters: a node may only be visited once every node that uses it
        has been, or part of its gradient has not arrived yet. Such an order, root first and
        every node after all of its users, is a **topological order** of the graph. Here is
        minigrad's engine walking the same graph; press play or drag the slider (the last step's
        picture is drawn below it too):
        """,
    ),
    code(
        "engine_player",
        """
        trace = viz.trace_backward(twin, names=names)
        viz.BackwardPlayer(trace)
        """,
    ),
    code("engine_trace_draw", "trace.draw()"),
    md(
        "ex5_text",
        f"""
        ### Exercise 5 (3 points) — which orders work?

        For the graph above (`loss` uses `h`; `h` uses `c` and `x`; `c` uses `b` and `a`; `b`
        uses `a`; `a` uses `x` and `w`), which of these lists are topological orders, that is,
        orders a backward pass may visit the nodes in?

        | | order |
        |---|---|
        {ORDERS_TABLE}

        Set `valid_orders` to the set of letters of the valid ones, e.g. `{{"A", "F"}}`.
        """,
    ),
    answer(
        "ex5_answer",
        """
        # valid_orders = {"letter", ...}
        ### BEGIN SOLUTION
        valid_orders = {"A", "D"}
        ### END SOLUTION
        """,
        alternatives=['valid_orders = frozenset("AD")'],
        mistakes=[
            # B is breadth-first order: it visits x before a, which still has to send x a share.
            mistake('valid_orders = {"A", "B", "D"}', ["ex5_hidden"]),
        ],
    ),
    tests(
        "ex5_visible",
        """
        check("valid_orders" in globals(), "valid_orders is not defined: set it in the cell above")
        check(
            type(valid_orders) in (set, frozenset, list, tuple) and all(v in ("A", "B", "C", "D", "E", "F") for v in valid_orders),
            f"valid_orders should be a set of letters from A to F, got {valid_orders!r}",
        )
        print("valid_orders has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex5_answer"],
    ),
    tests(
        "ex5_hidden",
        """
        # Graded on the letters (hidden tests).
        _picked = sorted(set(valid_orders))
        ### BEGIN HIDDEN TESTS
        """,
        ORDERS_HIDDEN,
        """
        _valid = sorted(k for k, o in _orders.items() if all(o.index(u) < o.index(i) for u, ins in _uses.items() for i in ins))
        check_equal(_picked, _valid, "valid_orders is not the set of topological orders")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex5_answer"],
    ),
    md(
        "ex6_text",
        """
        ### Exercise 6 (4 points) — `topological_order`

        Write `topological_order(root)`: a list of every node reachable from `root` through
        `inputs`, each exactly once, `root` first, and every node after all the nodes that use
        it.

        **No recursion.** A recursive function is the natural first idea, but Python stops at a
        depth of about 3,000 calls, and the hidden tests use a chain of 50,000 nodes. Keep your
        own stack in a list. Two ways that work:

        - count, for each node, how many uses (edges from other nodes) it has; start with the
          root, and append a node to the order once all of its users are in it (Kahn's
          algorithm);
        - a depth-first search with your own stack that appends each node after all its inputs
          are done, then reverses that list.

        A breadth-first walk is *not* enough (see Exercise 5), and remember that a node can be
        reached along many paths (and may appear twice in `inputs`, as in `x * x`). Nodes can
        be dict keys and set members.
        """,
    ),
    answer(
        "ex6_answer",
        """
        def topological_order(root):
            \"\"\"Every node reachable from root, once each: root first, each node after all its users.\"\"\"
            ### BEGIN SOLUTION
            users = {root: 0}  # node -> how many uses of it are not in the order yet
            stack = [root]
            while stack:
                node = stack.pop()
                for inp in node.inputs:
                    if inp not in users:
                        users[inp] = 0
                        stack.append(inp)
                    users[inp] += 1
            order, ready = [], [root]
            while ready:
                node = ready.pop()
                order.append(node)
                for inp in node.inputs:
                    users[inp] -= 1
                    if users[inp] == 0:  # its last user is in the order: it may follow
                        ready.append(inp)
            return order
            ### END SOLUTION
        """,
        alternatives=[
            # Depth-first with an explicit stack of iterators; post-order reversed.
            """
            def topological_order(root):
                done, seen = [], {root}
                stack = [(root, iter(root.inputs))]
                while stack:
                    node, pending = stack[-1]
                    for inp in pending:
                        if inp not in seen:
                            seen.add(inp)
                            stack.append((inp, iter(inp.inputs)))
                            break
                    else:
                        stack.pop()
                        done.append(node)
                return done[::-1]
            """,
        ],
        mistakes=[
            # Recursion: fine on small graphs, RecursionError on deep ones.
            mistake(
                """
                def topological_order(root):
                    done, seen = [], set()

                    def visit(node):
                        if node in seen:
                            return
                        seen.add(node)
                        for inp in node.inputs:
                            visit(inp)
                        done.append(node)

                    visit(root)
                    return done[::-1]
                """,
                ["ex6_hidden"],
            ),
            # Breadth-first: right on balanced diamonds, wrong when paths have different lengths.
            mistake(
                """
                def topological_order(root):
                    order, seen, queue = [], {root}, [root]
                    while queue:
                        node = queue.pop(0)
                        order.append(node)
                        for inp in node.inputs:
                            if inp not in seen:
                                seen.add(inp)
                                queue.append(inp)
                    return order
                """,
                ["ex6_hidden"],
            ),
        ],
    ),
    tests(
        "ex6_visible",
        """
        from coursetools.engine_checks import check_topological_order

        check_topological_order(topological_order)
        print("topological_order passes the visible tests.")
        """,
        points=1,
        needs=["ex6_answer"],
    ),
    tests(
        "ex6_hidden",
        """
        from coursetools.engine_checks import check_topological_order, leaf as _leaf

        # the checks' own leaf(), not the notebook's: an answer may have a helper of that name
        _smoke = topological_order(_leaf([1.0], "x"))
        ### BEGIN HIDDEN TESTS
        check_topological_order(topological_order, hidden=True)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex6_answer"],
    ),
    md(
        "ex7_text",
        """
        ### Exercise 7 (6 points) — `backward`

        Write `backward(root, grad=None)`, which does for these nodes what minigrad's
        `backward()` does for tensors:

        - raise `RuntimeError` if `root` does not require grad;
        - start with `grad` at the root (default: `torch.ones_like(root.value)`);
        - visit the nodes in a topological order (use yours), and give each node the **sum** of
          the gradients sent to it, so that each node runs once per call (one `vjp`);
        - run the node's `hooks` in the order they were registered, once, on that complete
          gradient: a hook that returns a tensor replaces the gradient, one that returns `None`
          leaves it;
        - a leaf that requires grad **adds** the gradient into `.grad` (which may hold one from an
          earlier call); write `node.grad = node.grad + g` rather than `+=`, which would change a
          tensor other nodes may share;
        - a non-leaf keeps `.grad = None`, unless `retain_grad()` was called on it: then it adds
          the gradient (after its hooks) into `.grad` too;
        - a non-leaf sends `node.vjp(g)` to its inputs, but only to those that require grad;
          nodes that do not require grad never get a gradient and never run hooks.

        The tests build graphs you have not seen, run your `backward` and minigrad's on them, and
        compare every node.
        """,
    ),
    answer(
        "ex7_answer",
        """
        def backward(root, grad=None):
            \"\"\"Fill in .grad below root as minigrad's backward() does: leaves, retained nodes, hooks.\"\"\"
            ### BEGIN SOLUTION
            if not root.requires_grad:
                raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
            pending = {root: torch.ones_like(root.value) if grad is None else grad}
            for node in topological_order(root):
                g = pending.pop(node, None)  # complete: all its users have run
                if g is None:
                    continue  # no gradient reached it (it does not require grad)
                for hook in node.hooks:
                    new = hook(g)
                    if new is not None:
                        g = new
                if node.is_leaf or node.retains_grad:
                    node.grad = g if node.grad is None else node.grad + g
                if node.is_leaf:
                    continue
                for inp, g_inp in zip(node.inputs, node.vjp(g)):
                    if inp.requires_grad:
                        pending[inp] = g_inp if inp not in pending else pending[inp] + g_inp
            ### END SOLUTION
        """,
        alternatives=[
            # Gradients kept per node in a list and summed when the node is visited.
            """
            def backward(root, grad=None):
                if not root.requires_grad:
                    raise RuntimeError("root does not require grad")
                arrived = {root: [torch.ones_like(root.value) if grad is None else grad]}
                for node in topological_order(root):
                    parts = arrived.pop(node, [])
                    if not parts or not node.requires_grad:
                        continue
                    total = parts[0]
                    for part in parts[1:]:
                        total = total + part
                    for hook in node.hooks:
                        result = hook(total)
                        total = total if result is None else result
                    if node.is_leaf:
                        node.grad = total.clone() if node.grad is None else node.grad + total
                        continue
                    if node.retains_grad:
                        node.grad = total.clone() if node.grad is None else node.grad + total
                    for inp, share in zip(node.inputs, node.vjp(total)):
                        if inp.requires_grad:
                            arrived.setdefault(inp, []).append(share)
            """,
        ],
        mistakes=[
            # Hooks and retain_grad forgotten: the plain gradients are right.
            mistake(
                """
                def backward(root, grad=None):
                    if not root.requires_grad:
                        raise RuntimeError("root does not require grad")
                    pending = {root: torch.ones_like(root.value) if grad is None else grad}
                    for node in topological_order(root):
                        g = pending.pop(node, None)
                        if g is None:
                            continue
                        if node.is_leaf:
                            node.grad = g if node.grad is None else node.grad + g
                            continue
                        for inp, g_inp in zip(node.inputs, node.vjp(g)):
                            if inp.requires_grad:
                                pending[inp] = g_inp if inp not in pending else pending[inp] + g_inp
                """,
                ["ex7_hooks"],
            ),
            # .grad overwritten instead of accumulated: wrong from the second call on.
            mistake(
                """
                def backward(root, grad=None):
                    if not root.requires_grad:
                        raise RuntimeError("root does not require grad")
                    pending = {root: torch.ones_like(root.value) if grad is None else grad}
                    for node in topological_order(root):
                        g = pending.pop(node, None)
                        if g is None:
                            continue
                        for hook in node.hooks:
                            new = hook(g)
                            if new is not None:
                                g = new
                        if node.is_leaf or node.retains_grad:
                            node.grad = g
                        if node.is_leaf:
                            continue
                        for inp, g_inp in zip(node.inputs, node.vjp(g)):
                            if inp.requires_grad:
                                pending[inp] = g_inp if inp not in pending else pending[inp] + g_inp
                """,
                ["ex7_graphs", "ex7_hooks"],
            ),
            # Only the leaves' .grad overwritten (retained gradients do add up): the slip costs the
            # graphs test (two calls in a row), not the hooks test as well.
            mistake(
                """
                def backward(root, grad=None):
                    if not root.requires_grad:
                        raise RuntimeError("element 0 of tensors does not require grad")
                    if grad is None:
                        grad = torch.ones_like(root.value)
                    pending = {root: grad}
                    for node in topological_order(root):
                        if node not in pending:
                            continue
                        g = pending.pop(node)
                        for hook in node.hooks:
                            out = hook(g)
                            if out is not None:
                                g = out
                        if node.is_leaf:
                            node.grad = g
                            continue
                        if node.retains_grad:
                            node.grad = g if node.grad is None else node.grad + g
                        for inp, gi in zip(node.inputs, node.vjp(g)):
                            if inp.requires_grad:
                                pending[inp] = gi if inp not in pending else pending[inp] + gi
                """,
                ["ex7_graphs"],
            ),
            # Each share sent on as it arrives, without waiting for the sum: the leaves' .grad
            # come out right (backward is linear), but hooks and retain_grad see the shares, and
            # shared nodes run once per path (ladder graphs have thousands of paths).
            mistake(
                """
                def backward(root, grad=None):
                    if not root.requires_grad:
                        raise RuntimeError("no grad")
                    g0 = torch.ones_like(root.value) if grad is None else grad

                    def send(node, g):
                        for h in node.hooks:
                            r = h(g)
                            if r is not None:
                                g = r
                        if node.is_leaf or node.retains_grad:
                            node.grad = g if node.grad is None else node.grad + g
                        if not node.is_leaf:
                            return list(zip(node.inputs, node.vjp(g)))
                        return []

                    stack = [(root, g0)]
                    while stack:
                        node, g = stack.pop()
                        for inp, gi in send(node, g):
                            if inp.requires_grad:
                                stack.append((inp, gi))
                """,
                ["ex7_graphs", "ex7_hooks"],
            ),
        ],
    ),
    tests(
        "ex7_visible",
        """
        from coursetools.engine_checks import check_backward, graded_alone

        # When your backward fails with your topological_order, it is tried with a correct one
        # (exercise 6 grades your topological_order).
        graded_alone(globals(), "topological_order", lambda: check_backward(backward))
        print("backward passes the visible tests.")
        """,
        points=1,
        needs=["ex7_answer"],  # graded alone: a correct topological_order is lent when the student's fails
    ),
    tests(
        "ex7_graphs",
        """
        from coursetools.engine_checks import check_backward, graded_alone, leaf as _leaf

        # Graded (hidden tests): other graphs, a given grad, two calls in a row, a deep chain.
        _x = _leaf([1.0, 2.0], "x")
        graded_alone(globals(), "topological_order", lambda: backward((_x * _x).sum()))
        ### BEGIN HIDDEN TESTS
        graded_alone(globals(), "topological_order", lambda: check_backward(backward, "graphs"))
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex7_answer"],  # graded alone: a correct topological_order is lent when the student's fails
    ),
    tests(
        "ex7_hooks",
        """
        from coursetools.engine_checks import check_backward, graded_alone, leaf as _leaf

        # Graded (hidden tests): retain_grad and hooks on leaves and non-leaves.
        _x = _leaf([1.0, 2.0], "x")
        graded_alone(globals(), "topological_order", lambda: backward((_x * _x).sum()))
        ### BEGIN HIDDEN TESTS
        graded_alone(globals(), "topological_order", lambda: check_backward(backward, "hooks"))
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex7_answer"],  # graded alone: a correct topological_order is lent when the student's fails
    ),
    md(
        "compare_text",
        """
        ### 8. Your engine next to minigrad's

        Once your `backward` passes, run it on the graph of section 6, with a hook and
        `retain_grad`, and compare with minigrad's on the same graph. The drawing shows minigrad's
        result, `.grad` included.
        """,
    ),
    code(
        "compare",
        _lines(
            DEMO_GRAPH,
            """
        a.retain_grad()
        a.register_hook(lambda g: print("  hook on a sees", g))
        twin, names = to_minigrad(loss)
        names["a"].retain_grad()
        names["a"].register_hook(lambda g: print("  hook on a sees", g))
        try:
            print("your engine:")
            backward(loss)
            print("  x.grad =", x.grad, " w.grad =", w.grad, " a.grad =", a.grad)
        except NotImplementedError:
            print("  (write topological_order and backward above first)")
        print("minigrad:")
        twin.backward()
        print("  x.grad =", names["x"].grad, " w.grad =", names["w"].grad, " a.grad =", names["a"].grad)
        viz.draw(twin, names=names)
        """,
        ),
    ),
    # ------------------------------------------------------------------ written answer
    question(
        "ex8_question",
        """
        ### Exercise 8 (3 points, graded by hand) — why wait, and why not recurse?

        Your engine gives a node its gradient only when every node that uses it has run. Take a
        chain of *n* diamonds: `x₁` is used by `aᵢ` and `bᵢ`, both of which are used by `x₂`,
        and so on up to `xₙ₊₁` and the loss.

        1. Another engine sends a gradient onward (calling `vjp` again, and the hooks) every time
           one share arrives, instead of waiting for the sum. It gets the right `.grad` at the
           leaves. How many times would it visit `x₁`, and what goes wrong with hooks and with
           `retain_grad` on `x₂`?
        2. Why does your engine visit each node once, and why is that the same answer?

        A few sentences each.
        """,
    ),
    written(
        "ex8_answer",
        """
        1. Each share is pushed on separately, so every *path* from the loss to a node is walked.
           A chain of n diamonds has 2ⁿ paths from the loss to x₁, so x₁ (and its vjp) would run
           2ⁿ times: exponential time for a graph of about 3n nodes. The leaf gradients still
           come out right, because the chain rule is linear: the sum over paths equals the sum
           at each meeting point. But a hook on x₂ would run once per arriving share and see only
           a part of the gradient (and a hook that changes the gradient, say clipping it, would
           change each part, not the total), and retain_grad would store a partial gradient
           or pile up all of them.
        2. In a topological order every user of a node comes before it, so by the time the node is
           visited all the shares have arrived and have been added up. Its vjp then runs once on
           the total, which by linearity gives the same result as running it on each share and
           adding the outputs. So each node and each edge is handled once, the time is linear in
           the size of the graph, and hooks and retain_grad see the complete gradient exactly
           once.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - A derivative rule is a vector-Jacobian product: incoming gradient in, one gradient per
          input out, each with its input's shape. Broadcasting is undone by summing over the
          dimensions it added or stretched.
        - `torch.autograd.Function` lets you write the rule yourself; `ctx.save_for_backward`
          keeps what it needs, with the in-place checks; `gradcheck` compares the rule with
          finite differences.
        - A backward pass visits the nodes in a topological order, so that each node's gradient
          is complete (the sum over every use) before it is used: once per node, without
          recursion, with hooks and `retain_grad` seeing the whole gradient, and `.grad` kept
          only on leaves.

        That is all of minigrad's engine (`minigrad/autograd/engine.py` is about 200 lines:
        read it and compare). The last notebook uses it to train a network on real data. Before
        you hand in: *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
