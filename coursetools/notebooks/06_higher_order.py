# ruff: noqa: N999 - the module is named after its notebook, 06_higher_order
"""Assignment 06: create_graph, gradients of gradients, Hessian-vector products, Hessians, Newton's
method, gradient penalties, retain_graph versus create_graph."""

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written

# Case name -> code; each case runs on its own after EX5_START.
EX5_START = """
x = torch.tensor(1.0, requires_grad=True)
y = x.exp() * x
"""

EX5_CASES = {
    "a": """
y.backward()
y.backward()
""",
    "b": """
y.backward(retain_graph=True)
y.backward()
""",
    "c": """
(g,) = torch.autograd.grad(y, x, retain_graph=True)
(h,) = torch.autograd.grad(g, x)
""",
    "d": """
(g,) = torch.autograd.grad(y, x, create_graph=True)
(h,) = torch.autograd.grad(g, x)
""",
    "e": """
(g,) = torch.autograd.grad(y, x, create_graph=True)
y.backward()
""",
    "f": """
(g,) = torch.autograd.grad(y, x, create_graph=True)
(h,) = torch.autograd.grad(g, x)
(h2,) = torch.autograd.grad(g, x)
""",
    "g": """
(g,) = torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
(h,) = torch.autograd.grad(g, x)
""",
    "h": """
(g,) = torch.autograd.grad(y, x, create_graph=True)
(h,) = torch.autograd.grad(g.detach(), x)
""",
}

OUTCOMES = ["ok", "freed", "no_graph"]


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


EX5_SHOWN = (
    "# every case starts afresh with\n"
    + EX5_START.strip()
    + "\n\n"
    + "\n\n".join(f"# case {name}\n{body.strip()}" for name, body in EX5_CASES.items())
)
EX5_RUN = "\n\n".join(
    f"def _ex5_case_{name}():\n{_indent(EX5_START)}\n{_indent(body)}" for name, body in EX5_CASES.items()
)

# Functions with known Hessians, for the hidden tests of exercises 1 to 3.
KNOWN = """
def _quadratic(A, b):
    # f(x) = x.A.x / 2 - b.x, Hessian A (symmetric)
    return lambda x: 0.5 * (x * (A @ x)).sum() - (b * x).sum()


def _known_functions():
    torch.manual_seed(31)
    M = torch.randn(4, 4, dtype=torch.float64)
    A = M @ M.t() + torch.eye(4, dtype=torch.float64)
    b = torch.randn(4, dtype=torch.float64)
    c = torch.tensor([2.0, -1.0, 0.5], dtype=torch.float64)

    def f_sin(x):
        return x.sin().sum() * 2

    def H_sin(x):
        return _diag(-2 * x.detach().sin())

    def f_norm4(x):
        return (x * x).sum() ** 2

    def H_norm4(x):
        x = x.detach()
        size = x.numel()
        return 4 * (x * x).sum() * torch.eye(size, dtype=x.dtype) + 8 * x.reshape(size, 1) * x.reshape(1, size)

    def f_mixed(x):
        return x[0] * x[1] * x[2] + (c * x).sum()

    def H_mixed(x):
        x = x.detach().tolist()
        return torch.tensor([[0.0, x[2], x[1]], [x[2], 0.0, x[0]], [x[1], x[0], 0.0]], dtype=torch.float64)

    def f_linear(x):
        return (c * x).sum() + 4.0

    def H_linear(x):
        return torch.zeros(3, 3, dtype=torch.float64)

    return [
        ("x.A.x / 2 - b.x (4 entries)", _quadratic(A, b), lambda x: A, 4),
        ("2 * sum(sin(x))", f_sin, H_sin, 3),
        ("(x.x)**2", f_norm4, H_norm4, 3),
        ("x0*x1*x2 + c.x", f_mixed, H_mixed, 3),
        ("a linear function (Hessian zero)", f_linear, H_linear, 3),
    ]


def _diag(values):
    n = values.numel()
    return torch.eye(n, dtype=values.dtype) * values.reshape(1, n)
"""

CELLS = [
    md(
        "intro",
        """
        # Assignment 06 — Higher-order gradients: differentiating the backward pass

        So far a gradient was a result: numbers in `.grad`, the end of the story. But the backward
        pass is itself a computation made of ordinary operations, and autograd can record it like
        any other. Then a gradient has a graph of its own, and you can differentiate *it*: second
        derivatives, curvature, Newton's method, and losses that contain gradients.

        You will learn to

        - record the backward pass with `create_graph=True`, and see its graph;
        - take second and higher derivatives with `torch.autograd.grad`;
        - compute Hessian-vector products and full Hessians;
        - take a Newton step;
        - train with a gradient penalty, a loss built from a gradient;
        - tell `retain_graph` and `create_graph` apart.
        """,
        how_to_work(60),
    ),
    setup(),
    # ------------------------------------------------------------------ create_graph
    md(
        "create_intro",
        """
        ## 1. `create_graph=True`: the backward pass becomes a graph

        Take `y = x * exp(x)`. Its derivative is `exp(x) + x * exp(x)`, and backward computes it
        with the derivative rules of `mul` and `exp`: multiplications and an addition of tensors.
        Normally these run with recording switched off, and the gradient is a plain tensor.
        With `create_graph=True` they are recorded: the gradient gets a `grad_fn`, and it is
        connected to `x` by a graph like any other result.
        """,
    ),
    code(
        "create_demo",
        """
        x = torch.tensor(1.0, requires_grad=True)
        y = x * x.exp()

        (plain,) = torch.autograd.grad(y, x, retain_graph=True)
        print("without create_graph:", plain, " requires_grad:", plain.requires_grad)

        (dy,) = torch.autograd.grad(y, x, create_graph=True)
        print("with create_graph:   ", dy, " grad_fn:", dy.grad_fn.name())
        print("exp(1) + 1 * exp(1) =", 2 * torch.tensor(1.0).exp().item())
        """,
    ),
    md(
        "create_draw_text",
        """
        First the graph of the forward computation `y`, then the graph of its gradient `dy`. Look
        for `ExpBackward0` in the second drawing: the gradient's graph reuses the forward graph.
        The rule of `mul` multiplies by `exp(x)`, a tensor made by the forward pass, so the
        gradient depends on `x` through the forward's `exp` node as well as directly.
        """,
    ),
    code("create_draw_forward", "viz.draw_backward(y)"),
    code("create_draw_gradient", "viz.draw_backward(dy)"),
    md(
        "create_same_node_text",
        """
        It is not a copy: walking the gradient's graph through `next_functions` (notebook 01)
        reaches the very node object that the forward pass made.
        """,
    ),
    code(
        "create_same_node",
        """
        def nodes_of(t):
            found, todo = [], [t.grad_fn]
            while todo:
                node = todo.pop()
                if node is not None and all(node is not seen for seen in found):
                    found.append(node)
                    todo.extend(next_node for next_node, _ in node.next_functions)
            return found


        exp_node = y.grad_fn.next_functions[1][0]
        print(exp_node.name(), "of y is in the graph of dy:", any(node is exp_node for node in nodes_of(dy)))
        """,
    ),
    md(
        "create_second",
        """
        Since `dy` has a graph, `torch.autograd.grad(dy, x)` differentiates it: that is the second
        derivative, `2 exp(x) + x exp(x)`. Keep `create_graph=True` on each step to go further.
        """,
    ),
    code(
        "create_second_demo",
        """
        (d2y,) = torch.autograd.grad(dy, x, create_graph=True)
        (d3y,) = torch.autograd.grad(d2y, x)
        e = torch.tensor(1.0).exp().item()
        print(f"second derivative {d2y.item():.4f}  (3e = {3 * e:.4f})")
        print(f"third derivative  {d3y.item():.4f}  (4e = {4 * e:.4f})")
        """,
    ),
    # ------------------------------------------------------------------ autograd.grad of a gradient
    md(
        "grad_of_grad",
        """
        ## 2. Gradients of gradients

        A loop takes as many derivatives as you like. Here the first eight derivatives of
        `sin`: they cycle through `cos`, `-sin`, `-cos`, `sin`. Each step differentiates the
        previous derivative, and records it so that the next step can go on.
        """,
    ),
    code(
        "nth_demo",
        """
        angle = torch.tensor(0.5, requires_grad=True)
        current = angle.sin()
        for n in range(1, 9):
            (current,) = torch.autograd.grad(current, angle, create_graph=True)
            print(f"derivative {n}: {current.item():+.4f}")
        print(f"sin(0.5) = {angle.sin().item():+.4f}, cos(0.5) = {angle.cos().item():+.4f}")
        """,
    ),
    md(
        "mixed_text",
        """
        With several inputs, the gradient of one partial derivative with respect to another
        input is a *mixed* second derivative. For `f(a, b) = a² sin(b)`, `∂f/∂a = 2a sin(b)` and
        `∂²f/∂b∂a = 2a cos(b)`; the other order gives the same, as calculus promises.
        """,
    ),
    code(
        "mixed_demo",
        """
        a = torch.tensor(1.5, requires_grad=True)
        b = torch.tensor(0.3, requires_grad=True)
        f = a**2 * b.sin()
        df_da, df_db = torch.autograd.grad(f, (a, b), create_graph=True)
        (d2f_dbda,) = torch.autograd.grad(df_da, b, retain_graph=True)
        (d2f_dadb,) = torch.autograd.grad(df_db, a)
        print(f"{d2f_dbda.item():.4f} {d2f_dadb.item():.4f}  2a cos(b) = {(2 * a * b.cos()).item():.4f}")
        """,
    ),
    md(
        "constant_gradient",
        """
        One trap: when a derivative no longer depends on the input, it has no graph, and
        differentiating it raises an error instead of returning zero. The second derivative of
        `3 * x` is 0, but autograd cannot know that: the first derivative is the constant 3,
        with no `grad_fn`.
        """,
    ),
    code(
        "constant_demo",
        """
        x = torch.tensor(2.0, requires_grad=True)
        (slope,) = torch.autograd.grad(3 * x, x, create_graph=True)
        print(slope, " requires_grad:", slope.requires_grad)
        try:
            torch.autograd.grad(slope, x)
        except RuntimeError as err:
            print("RuntimeError:", str(err)[:75], "...")
        second = torch.autograd.grad(slope, x)[0] if slope.requires_grad else torch.zeros_like(x)
        print("second derivative:", second)
        """,
    ),
    # ------------------------------------------------------------------ Hessian-vector products
    md(
        "hvp_intro",
        """
        ## 3. Hessian-vector products

        For a function `f` of a vector `x`, the matrix of all second derivatives is the
        **Hessian**, `H[i, j] = ∂²f / ∂x_i ∂x_j`. It describes the curvature of `f`: how the
        gradient changes when `x` moves. For a model with a million parameters it has 10¹²
        entries, far too many to build. Many methods only need `H v` for some vector `v`, and
        there is a trick to get it at the price of two backward passes:

        1. `g = ∇f(x)` with `create_graph=True`;
        2. `s = (g * v).sum()`, a single number, the slope of `f` along `v`;
        3. `∇s = H v`, since differentiating `Σ_i g_i v_i` with respect to `x_j` gives
           `Σ_i H[i, j] v_i` (with `v` a constant), and `H` is symmetric.
        """,
    ),
    code(
        "hvp_demo",
        """
        A = torch.tensor([[3.0, 1.0], [1.0, 2.0]])


        def bowl(x):
            return 0.5 * (x * (A @ x)).sum() + (x**4).sum() / 4  # Hessian: A + diag(3 x**2)


        point = torch.tensor([1.0, -2.0], requires_grad=True)
        direction = torch.tensor([1.0, 1.0])
        (g,) = torch.autograd.grad(bowl(point), point, create_graph=True)
        (Hv,) = torch.autograd.grad((g * direction).sum(), point)
        print("H v with two backward passes:", Hv)
        expected = A @ direction + 3 * point.detach() ** 2 * direction
        print("A v + 3 x**2 v:              ", expected)
        """,
    ),
    md(
        "ex1_text",
        """
        ### Exercise 1 (3 points) — `hvp`

        Write `hvp(f, x, v)`, which returns the Hessian-vector product `H v` of `f` at `x`, as a
        tensor of the shape of `x`:

        - `f` takes a 1-D tensor and returns a single-number tensor; `x` is a 1-D floating-point
          tensor that requires grad; `v` is a tensor of the same shape that does not;
        - use two calls of `torch.autograd.grad` as above; do not build the whole Hessian;
        - `f` may be linear (`H = 0`): return zeros then, as in the `3 * x` example;
        - `hvp` may be called several times with the same `x`: leave no gradients behind (use
          `autograd.grad`, not `backward()`).
        """,
    ),
    answer(
        "ex1_answer",
        """
        def hvp(f, x, v):
            \"\"\"The Hessian of f at x times the vector v.\"\"\"
            ### BEGIN SOLUTION
            (g,) = torch.autograd.grad(f(x), x, create_graph=True)
            slope = (g * v).sum()
            if not slope.requires_grad:  # the gradient does not depend on x
                return torch.zeros_like(x)
            (result,) = torch.autograd.grad(slope, x, allow_unused=True, materialize_grads=True)
            return result
            ### END SOLUTION
        """,
        alternatives=[
            """
            def hvp(f, x, v):
                x2 = x.detach().clone().requires_grad_()
                grad = torch.autograd.grad(f(x2), [x2], create_graph=True)[0]
                if grad.grad_fn is None:
                    return torch.zeros(x.shape, dtype=x.dtype)
                out = torch.autograd.grad(grad, [x2], grad_outputs=v, allow_unused=True)[0]
                return torch.zeros_like(x) if out is None else out.detach()
            """,
            """
            def hvp(f, x, v):
                with torch.enable_grad():
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    if g.grad_fn is None:
                        return torch.zeros_like(x)
                    (hv,) = torch.autograd.grad(torch.dot(g, v.to(g.dtype)), x)
                return hv
            """,
            # The linear case caught as the error autograd raises.
            """
            def hvp(f, x, v):
                grads = torch.autograd.grad(f(x), [x], create_graph=True)
                slope = torch.dot(grads[0], v)
                try:
                    return torch.autograd.grad(slope, [x])[0]
                except RuntimeError:
                    print("linear f: H = 0")
                    return torch.zeros_like(x)
            """,
        ],
        mistakes=[
            # Forgets the linear case: autograd raises instead of returning zeros.
            mistake(
                """
                def hvp(f, x, v):
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    return torch.autograd.grad((g * v).sum(), x)[0]
                """,
                ["ex1_hidden"],
            ),
            # Forgets create_graph: the gradient has no graph to differentiate.
            mistake(
                """
                def hvp(f, x, v):
                    (g,) = torch.autograd.grad(f(x), x, retain_graph=True)
                    if not g.requires_grad:
                        return torch.zeros_like(x)
                    return torch.autograd.grad((g * v).sum(), x)[0]
                """,
                ["ex1_visible", "ex1_hidden"],
            ),
            # Uses backward(): the right H v, but it is left behind in x.grad.
            mistake(
                """
                def hvp(f, x, v):
                    x.grad = None
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    if not g.requires_grad:
                        return torch.zeros_like(x)
                    (g * v).sum().backward()
                    return x.grad
                """,
                ["ex1_hidden"],
            ),
            # A NumPy array: the right numbers, but not a tensor (hessian, which may use it, loses nothing).
            mistake(
                """
                def hvp(f, x, v):
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    if not g.requires_grad:
                        return torch.zeros(x.shape).numpy()
                    return torch.autograd.grad((g * v).sum(), x)[0].numpy()
                """,
                ["ex1_visible", "ex1_hidden"],
            ),
        ],
    ),
    tests(
        "ex1_visible",
        """
        _A = torch.tensor([[2.0, 1.0], [1.0, 4.0]])
        _x = torch.tensor([1.0, 1.0], requires_grad=True)
        _result = hvp(lambda x: 0.5 * (x * (_A @ x)).sum(), _x, torch.tensor([1.0, 0.0]))
        check(isinstance(_result, torch.Tensor), f"hvp should return a tensor, got {type(_result).__name__}")
        check_close(_result, [2.0, 1.0], "for f(x) = x.A.x / 2 the Hessian is A, so H v with v = [1, 0] is A's first column")
        _cube = hvp(lambda x: (x**3).sum(), torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 1.0]))
        check_close(_cube, [6.0, 12.0], "for f(x) = sum(x**3) the Hessian is diag(6x): H v at x = [1, 2], v = [1, 1] is [6, 12]")
        print("hvp passes the visible tests.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # More functions, directions and repeated calls (hidden tests).
        _smoke = hvp(lambda x: (x**2).sum(), torch.tensor([1.0], requires_grad=True), torch.tensor([1.0]))
        ### BEGIN HIDDEN TESTS
        """,
        KNOWN,
        """
        torch.manual_seed(32)
        for _what, _f, _H, _n in _known_functions():
            _x = torch.randn(_n, dtype=torch.float64, requires_grad=True)
            for _trial in range(2):  # twice with the same x: nothing may pile up
                _v = torch.randn(_n, dtype=torch.float64)
                _got = hvp(_f, _x, _v)
                check(isinstance(_got, torch.Tensor), f"{_what}: hvp should return a tensor, got {type(_got).__name__}")
                check_close(_got, _H(_x) @ _v, f"{_what}: wrong H v", atol=1e-8)
            check(_x.grad is None, f"{_what}: hvp should leave no gradient in x.grad (use torch.autograd.grad, not backward())")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ full Hessian
    md(
        "hessian_intro",
        """
        ## 4. The full Hessian

        For a small `x` the whole Hessian is affordable. Its row `i` is the gradient of the
        `i`-th entry of the gradient: `H[i] = ∇(g_i)`. So: one backward pass with
        `create_graph=True` for `g`, then one per entry. All of those walk back through the
        same graph of `g`, so each must keep it: `retain_graph=True` (section 7 says more).
        Here for `f(p, q) = p² q + q³`, by hand:
        """,
    ),
    code(
        "hessian_demo",
        """
        pq = torch.tensor([1.0, 2.0], requires_grad=True)
        value = pq[0] ** 2 * pq[1] + pq[1] ** 3
        (g,) = torch.autograd.grad(value, pq, create_graph=True)
        print("gradient [2pq, p² + 3q²]:", g)
        """,
    ),
    md(
        "hessian_draw_text",
        """
        The graph of the gradient `g`. The `SelectBackward0` nodes come from indexing `pq` in
        the forward pass; each `SelectBackwardBackward0` is the recorded backward of an indexing,
        which puts a gradient back into a vector of the shape of `pq`. The rows of the Hessian are
        found by walking this graph back from `g[0]` and from `g[1]`:
        """,
    ),
    code("hessian_draw", 'viz.draw_backward(g, names={"pq": pq, "g": g})'),
    code(
        "hessian_rows",
        """
        (row0,) = torch.autograd.grad(g[0], pq, retain_graph=True)  # keep the graph of g for row 1
        (row1,) = torch.autograd.grad(g[1], pq)
        print("Hessian:", torch.stack([row0, row1]))
        print("by hand: [[2q, 2p], [2p, 6q]] =", [[4.0, 2.0], [2.0, 12.0]])
        """,
    ),
    md(
        "ex2_text",
        """
        ### Exercise 2 (4 points) — `hessian`

        Write `hessian(f, x)`, which returns the Hessian of `f` at `x` as a tensor of shape
        `(n, n)`, where `n = x.numel()`:

        - `f` and `x` as in exercise 1 (`x` is 1-D and requires grad);
        - entries of the gradient may not depend on `x` at all (a linear part), and `f` may be
          entirely linear: those rows are zero;
        - leave no gradients behind, so that calling it twice gives the same result.

        You may use your `hvp` (with the unit vectors), or differentiate each entry of the
        gradient.
        """,
    ),
    answer(
        "ex2_answer",
        """
        def hessian(f, x):
            \"\"\"The matrix of second derivatives of f at x, shape (n, n).\"\"\"
            ### BEGIN SOLUTION
            n = x.numel()
            rows = []
            for i in range(n):  # row i is H e_i (H is symmetric)
                unit = torch.zeros(n, dtype=x.dtype)
                unit[i] = 1.0
                rows.append(hvp(f, x, unit))
            return torch.stack(rows)
            ### END SOLUTION
        """,
        alternatives=[
            # Each entry of the gradient differentiated, without hvp.
            """
            def hessian(f, x):
                n = x.numel()
                (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                rows = []
                for i in range(n):
                    if g.requires_grad:
                        (row,) = torch.autograd.grad(g[i], x, retain_graph=True, allow_unused=True, materialize_grads=True)
                    else:  # the gradient is a constant: f is linear
                        row = torch.zeros_like(x)
                    rows.append(row.detach())
                return torch.stack(rows)
            """,
            """
            def hessian(f, x):
                return torch.autograd.functional.hessian(f, x)
            """,
            # All rows in one call: the unit vectors as a batch of grad_outputs.
            """
            def hessian(f, x):
                n = x.numel()
                (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                if not g.requires_grad:
                    return torch.zeros(n, n, dtype=x.dtype)
                eye = torch.eye(n, dtype=x.dtype)
                return torch.autograd.grad(g, x, grad_outputs=eye, is_grads_batched=True, materialize_grads=True)[0]
            """,
        ],
        mistakes=[
            # Drops retain_graph: the second row walks a graph the first row freed.
            mistake(
                """
                def hessian(f, x):
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    if not g.requires_grad:
                        return torch.zeros(x.numel(), x.numel(), dtype=x.dtype)
                    return torch.stack([torch.autograd.grad(g[i], x)[0] for i in range(x.numel())])
                """,
                # newton_step, which calls it, is graded with a correct hessian and loses nothing
                ["ex2_visible", "ex2_hidden"],
            ),
            # Forgets that a row may be constant: the linear function fails.
            mistake(
                """
                def hessian(f, x):
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(x.numel())]
                    return torch.stack(rows)
                """,
                ["ex2_hidden"],
            ),
            # Only the diagonal, from one hvp with a vector of ones: right for separable functions.
            mistake(
                """
                def hessian(f, x):
                    n = x.numel()
                    H = torch.zeros(n, n, dtype=x.dtype)
                    hv = hvp(f, x, torch.ones(n, dtype=x.dtype))
                    for i in range(n):
                        H[i, i] = hv[i]
                    return H
                """,
                ["ex2_visible", "ex2_hidden"],
            ),
            # A NumPy array: the right numbers, but not a tensor (hvp and newton_step lose nothing).
            mistake(
                """
                def hessian(f, x):
                    return torch.autograd.functional.hessian(f, x).numpy()
                """,
                ["ex2_visible", "ex2_hidden"],
            ),
            # Rows by backward(): right values, but x.grad is left behind and a linear f raises.
            # newton_step, graded with a correct hessian when it fails with this one, loses nothing.
            mistake(
                """
                def hessian(f, x):
                    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
                    rows = []
                    for i in range(x.numel()):
                        x.grad = None
                        g[i].backward(retain_graph=True)
                        rows.append(x.grad.clone())
                    return torch.stack(rows)
                """,
                ["ex2_hidden"],
            ),
        ],
    ),
    tests(
        "ex2_visible",
        """
        from coursetools.engine_checks import graded_alone


        def _visible():
            _pq = torch.tensor([1.0, 2.0], requires_grad=True)
            _H = hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3, _pq)
            check(isinstance(_H, torch.Tensor), f"hessian should return a tensor, got {type(_H).__name__}")
            check(tuple(_H.shape) == (2, 2), f"the Hessian of a function of 2 numbers has shape (2, 2), got {tuple(_H.shape)}")
            check_close(_H, [[4.0, 2.0], [2.0, 12.0]], "the Hessian of p²q + q³ at (1, 2) is [[2q, 2p], [2p, 6q]]")
            _again = hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3, _pq)
            check_close(_again, [[4.0, 2.0], [2.0, 12.0]], "a second call with the same x should give the same Hessian")


        # When your hessian fails with your hvp, it is tried with a correct one (exercise 1 grades
        # your hvp).
        graded_alone(globals(), "hvp", _visible)
        print("hessian passes the visible tests.")
        """,
        points=1,
        needs=["ex2_answer"],  # graded alone: a correct hvp is lent when the student's fails
    ),
    tests(
        "ex2_hidden",
        """
        from coursetools.engine_checks import graded_alone

        # Functions the visible tests do not show, checked against known Hessians and finite differences (hidden tests).
        # As above, a correct hvp is lent when your hessian fails with yours.
        graded_alone(globals(), "hvp", lambda: hessian(lambda t: (t**2).sum(), torch.tensor([1.0], requires_grad=True)))
        ### BEGIN HIDDEN TESTS
        """,
        KNOWN,
        """
        def _odd(x):
            return (x[0] * x[1]).tanh() + x[2].exp() * x[0] ** 2 - x[1] ** 3 / 3


        def _finite_differences(f, x, h=1e-5):
            # column j: (gradient at x + h e_j - gradient at x - h e_j) / 2h, gradients by autograd
            columns = []
            for j in range(x.numel()):
                step = torch.zeros_like(x)
                step[j] = h
                plus = x.detach() + step
                minus = x.detach() - step
                plus.requires_grad_()
                minus.requires_grad_()
                (g_plus,) = torch.autograd.grad(f(plus), plus)
                (g_minus,) = torch.autograd.grad(f(minus), minus)
                columns.append((g_plus - g_minus) / (2 * h))
            return torch.stack(columns, dim=1)


        def _hidden():
            torch.manual_seed(33)
            for _what, _f, _H, _n in _known_functions():
                _x = torch.randn(_n, dtype=torch.float64, requires_grad=True)
                _got = hessian(_f, _x)
                check(isinstance(_got, torch.Tensor), f"{_what}: hessian should return a tensor, got {type(_got).__name__}")
                check(tuple(_got.shape) == (_n, _n), f"{_what}: the Hessian should have shape ({_n}, {_n})")
                check_close(_got, _H(_x), f"{_what}: wrong Hessian", atol=1e-8)
            _x = torch.tensor([0.3, -0.7, 0.2], dtype=torch.float64, requires_grad=True)
            check_close(hessian(_odd, _x), _finite_differences(_odd, _x), "tanh(x0 x1) + exp(x2) x0² - x1³/3", atol=1e-6)
            check(_x.grad is None, "hessian should leave no gradient in x.grad")


        graded_alone(globals(), "hvp", _hidden)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex2_answer"],  # graded alone: a correct hvp is lent when the student's fails
    ),
    # ------------------------------------------------------------------ Newton
    md(
        "newton_intro",
        """
        ## 5. Newton's method

        Gradient descent steps along `-∇f` with a step size you pick. Newton's method uses the
        curvature too: it replaces `f` near `x` by its second-order Taylor approximation,
        `f(x + d) ≈ f(x) + ∇f·d + d·H d / 2`, and jumps straight to that approximation's
        minimum, where `∇f + H d = 0`:

        `x_new = x - H⁻¹ ∇f(x)`   (in one dimension: `x - f'(x) / f''(x)`)

        Near a minimum this converges very fast. For a quadratic function the approximation *is*
        the function, so a single step lands exactly on the minimum. Here both methods minimise
        `f(x) = x⁴/4 - x` (minimum at `x = 1`) from `x = 2`:
        """,
    ),
    code(
        "newton_demo",
        """
        def quartic(x):
            return x**4 / 4 - x


        newton = torch.tensor(2.0, requires_grad=True)
        descent = torch.tensor(2.0, requires_grad=True)
        for step in range(5):
            (d1,) = torch.autograd.grad(quartic(newton), newton, create_graph=True)
            (d2,) = torch.autograd.grad(d1, newton)
            with torch.no_grad():
                newton -= d1 / d2
            (gd,) = torch.autograd.grad(quartic(descent), descent)
            with torch.no_grad():
                descent -= 0.1 * gd
            print(f"step {step}: Newton x={newton.item():.6f}   gradient descent x={descent.item():.6f}")
        """,
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — `newton_step`

        Write `newton_step(f, x)`, which returns `x - H⁻¹ ∇f(x)` as a new 1-D tensor (it need not
        require grad), without changing `x`:

        - `f` and `x` as before; `H`, the Hessian at `x`, is invertible;
        - use your `hessian` for `H`;
        - `torch.linalg.solve(H, g)` returns `H⁻¹ g`: it solves `H d = g` without computing
          the inverse (`torch.linalg.inv(H) @ g` gives the same, a little less accurately).

        Graded on quadratic functions the tests do not show: one step must land on the minimum.
        """,
    ),
    answer(
        "ex3_answer",
        """
        def newton_step(f, x):
            \"\"\"One step of Newton's method: x - H^-1 grad f(x), as a new tensor.\"\"\"
            ### BEGIN SOLUTION
            (g,) = torch.autograd.grad(f(x), x)
            H = hessian(f, x)
            return x.detach() - torch.linalg.solve(H, g)
            ### END SOLUTION
        """,
        alternatives=[
            """
            def newton_step(f, x):
                (g,) = torch.autograd.grad(f(x), x)
                return (x - torch.linalg.inv(hessian(f, x)) @ g).detach()
            """,
            """
            import numpy


            def newton_step(f, x):
                H = hessian(f, x).detach().numpy()
                grad = torch.autograd.grad(f(x), [x])[0].detach().numpy()
                new = x.detach().numpy() - numpy.linalg.inv(H) @ grad
                return torch.tensor(new, dtype=x.dtype)
            """,
        ],
        mistakes=[
            # Steps along the gradient instead: no curvature, not at the minimum.
            mistake(
                """
                def newton_step(f, x):
                    (g,) = torch.autograd.grad(f(x), x)
                    return x.detach() - g
                """,
                ["ex3_visible", "ex3_hidden"],
            ),
            # Steps the wrong way: x + H^-1 g.
            mistake(
                """
                def newton_step(f, x):
                    (g,) = torch.autograd.grad(f(x), x)
                    return (x + torch.linalg.solve(hessian(f, x), g)).detach()
                """,
                ["ex3_visible", "ex3_hidden"],
            ),
            # Returns a NumPy array (the solve done in NumPy): the right numbers, not a tensor.
            mistake(
                """
                import numpy as np


                def newton_step(f, x):
                    (g,) = torch.autograd.grad(f(x), x)
                    H = hessian(f, x)
                    return x.detach().numpy() - np.linalg.solve(H.detach().numpy(), g.numpy())
                """,
                ["ex3_visible", "ex3_hidden"],
            ),
            # Updates x in place: the right point, but the caller's x is moved.
            mistake(
                """
                def newton_step(f, x):
                    (g,) = torch.autograd.grad(f(x), x)
                    H = hessian(f, x)
                    with torch.no_grad():
                        x -= torch.linalg.solve(H, g)
                    return x
                """,
                ["ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        """
        from coursetools.engine_checks import graded_alone


        def _visible():
            # f(x) = (x0 - 1)² + 2 (x1 + 3)² + x0 x1: a quadratic; its minimum solves [[2, 1], [1, 4]] x = [2, -12]
            _f = lambda t: (t[0] - 1) ** 2 + 2 * (t[1] + 3) ** 2 + t[0] * t[1]
            _x = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)
            _new = newton_step(_f, _x)
            check(isinstance(_new, torch.Tensor), f"newton_step should return a tensor, got {type(_new).__name__}")
            check(tuple(_new.shape) == (2,), f"newton_step should return a tensor of the shape of x, got {tuple(_new.shape)}")
            check_close(_new, [20 / 7, -26 / 7], "for a quadratic, one Newton step should land on the minimum (20/7, -26/7)", atol=1e-6)


        # When your newton_step fails with your hessian, it is tried with a correct hessian and hvp
        # (exercises 1 and 2 grade yours).
        graded_alone(globals(), ("hessian", "hvp"), _visible)
        print("newton_step passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],  # graded alone: a correct hessian is lent when the student's fails
    ),
    tests(
        "ex3_hidden",
        """
        from coursetools.engine_checks import graded_alone

        # Quadratics the visible tests do not show, and one step on a non-quadratic function (hidden tests).
        # As above, a correct hessian and hvp are lent when your newton_step fails with yours.
        _one = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
        graded_alone(globals(), ("hessian", "hvp"), lambda: newton_step(lambda t: (t**2).sum(), _one))
        ### BEGIN HIDDEN TESTS
        """,
        KNOWN,
        """
        import numpy as _np


        def _hidden():
            torch.manual_seed(34)
            for _n in [1, 3, 5]:
                _M = torch.randn(_n, _n, dtype=torch.float64)
                _A = _M @ _M.t() + 0.5 * torch.eye(_n, dtype=torch.float64)
                _b = torch.randn(_n, dtype=torch.float64)
                _x = torch.randn(_n, dtype=torch.float64, requires_grad=True)
                _before = _x.tolist()
                _new = newton_step(_quadratic(_A, _b), _x)
                check(isinstance(_new, torch.Tensor), f"newton_step should return a tensor, got {type(_new).__name__}")
                _minimum = _np.linalg.solve(_A.numpy(), _b.numpy()).tolist()
                check_close(_new, _minimum, f"a quadratic of {_n} variables: one step should reach the minimum", atol=1e-7)
                check_close(_x, _before, f"a quadratic of {_n} variables: newton_step must not change x")
            _x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
            _new = newton_step(lambda t: (t.exp() - 2 * t).sum(), _x)  # separable: x - (e^x - 2) / e^x per entry
            check_close(_new, (_x - 1 + 2 / _x.exp()).detach(), "sum(exp(x) - 2x): one step from (0.5, -1)", atol=1e-9)
            _x32 = torch.tensor([1.0, 2.0], requires_grad=True)
            _new = newton_step(lambda t: ((t - 3) ** 2).sum(), _x32)
            check_close(_new, [3.0, 3.0], "a float32 x", atol=1e-5)


        graded_alone(globals(), ("hessian", "hvp"), _hidden)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],  # graded alone: a correct hessian is lent when the student's fails
    ),
    # ------------------------------------------------------------------ gradient penalty
    md(
        "penalty_intro",
        """
        ## 6. A loss built from a gradient: the gradient penalty

        Some losses contain a gradient. A well-known one comes from training GANs (the WGAN-GP
        method): the *critic* `D` must not change too steeply, so training adds a penalty when
        the norm of its gradient with respect to its **input** is far from 1:

        `penalty = mean over the batch of (‖∇ₓ D(x)‖ − 1)²`

        The penalty is minimised with respect to the critic's **parameters**. So the gradient
        `∇ₓ D` must itself be differentiable with respect to the parameters, which is exactly what
        `create_graph=True` provides. Each sample's score depends only on its own row of `x`, so
        the gradient of `D(x).sum()` holds each sample's gradient in its own row.
        """,
    ),
    code(
        "penalty_setup",
        """
        torch.manual_seed(1)
        W1 = torch.randn(2, 4, requires_grad=True)
        w2 = torch.randn(4, requires_grad=True)


        def critic(batch):
            return (batch @ W1).tanh() @ w2  # one score per row


        samples = torch.randn(5, 2)


        def penalty(create_graph):
            inputs = samples.detach().requires_grad_()  # a copy that requires grad; samples stays as it is
            scores = critic(inputs)
            (grad_x,) = torch.autograd.grad(scores.sum(), inputs, create_graph=create_graph)
            return ((grad_x.norm(dim=1) - 1) ** 2).mean()
        """,
    ),
    code(
        "penalty_demo",
        """
        with_graph = penalty(create_graph=True)
        with_graph.backward()
        print("penalty:", with_graph, "\\nW1.grad:", W1.grad, "\\nw2.grad:", w2.grad)
        """,
    ),
    md(
        "penalty_silent",
        """
        Forget `create_graph=True` and nothing fails: the gradient is a constant, so the penalty
        does not require grad. Added to another loss, it just contributes nothing to the
        parameters' gradients, and training silently ignores it:
        """,
    ),
    code(
        "penalty_silent_demo",
        """
        no_graph = penalty(create_graph=False)
        print("penalty:", no_graph, " requires_grad:", no_graph.requires_grad)
        W1.grad, w2.grad = None, None
        total = critic(samples).mean() + 10 * no_graph
        total.backward()
        only_scores = W1.grad.clone()
        W1.grad, w2.grad = None, None
        critic(samples).mean().backward()
        print("W1.grad is the same without the penalty:", torch.equal(only_scores, W1.grad))
        """,
    ),
    md(
        "penalty_check_text",
        """
        Is the penalty's gradient right? `torch.autograd.gradcheck` compares it with finite
        differences (in float64, for precision). It differentiates the penalty once more, so it
        checks the backward of the backward.
        """,
    ),
    code(
        "penalty_check",
        """
        points64 = samples.double()


        def penalty_of(W, w):
            inputs = points64.detach().requires_grad_()
            (grad_x,) = torch.autograd.grad(((inputs @ W).tanh() @ w).sum(), inputs, create_graph=True)
            return ((grad_x.norm(dim=1) - 1) ** 2).mean()


        W64 = W1.detach().double().requires_grad_()
        w64 = w2.detach().double().requires_grad_()
        print("gradcheck:", torch.autograd.gradcheck(penalty_of, (W64, w64)))
        """,
    ),
    md(
        "penalty_draw_text",
        """
        The graph of the penalty holds both passes. At the bottom, `MmBackward0` and
        `TanhBackward0` are the critic's forward pass. Above them, the recorded backward pass:
        the derivative of `tanh`, `1 - tanh²` (`RsubBackward1` and a `MulBackward0` that squares),
        times `w`, then the product with `Wᵀ` (`MmBackward0`, `TBackward0`) that gives `grad_x`.
        At the top, the norms and the penalty. (`W` and `w` are `W64` and `w64` here, the float64
        copies.) Backward from the penalty runs through all of it.
        """,
    ),
    code(
        "penalty_draw",
        """
        inputs = points64.detach().requires_grad_()
        (grad_x,) = torch.autograd.grad(((inputs @ W64).tanh() @ w64).sum(), inputs, create_graph=True)
        penalty64 = ((grad_x.norm(dim=1) - 1) ** 2).mean()
        viz.draw_backward(penalty64, show_values=False)
        """,
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — `gradient_penalty`

        Write `gradient_penalty(critic, x)`:

        - `x` is a batch of shape `(n, d)` that does not require grad; `critic` maps such a batch
          to `n` scores (shape `(n,)`), computed row by row from parameters of its own;
        - return the mean over the rows of `(‖∇ D(x)_i‖ − 1)²`, where `∇ D(x)_i` is the gradient
          of the `i`-th score with respect to the `i`-th row of `x`, as a single-number tensor;
        - `penalty.backward()` must then fill the gradients of the critic's parameters;
        - do not change `x` (not even its `requires_grad`): work on a copy.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def gradient_penalty(critic, x):
            \"\"\"Mean over the batch of (norm of d critic / d input - 1)**2, differentiable in the critic's parameters.\"\"\"
            ### BEGIN SOLUTION
            inputs = x.detach().requires_grad_()
            scores = critic(inputs)
            (grad_x,) = torch.autograd.grad(scores.sum(), inputs, create_graph=True)
            return ((grad_x.norm(dim=1) - 1) ** 2).mean()
            ### END SOLUTION
        """,
        alternatives=[
            """
            def gradient_penalty(critic, x):
                copy = x.clone().requires_grad_(True)
                out = critic(copy)
                grads = torch.autograd.grad(out, copy, grad_outputs=torch.ones_like(out), create_graph=True)[0]
                norms = ((grads**2).sum(dim=1) + 1e-30).sqrt()
                return ((norms - 1) ** 2).sum() / x.shape[0]
            """,
            """
            def gradient_penalty(critic, x):
                probe = x.detach().clone()
                probe.requires_grad = True
                with torch.enable_grad():
                    out = critic(probe)
                    (grads,) = torch.autograd.grad(out, probe, torch.ones_like(out), create_graph=True)
                return torch.mean((torch.linalg.vector_norm(grads, ord=2, dim=-1) - 1.0) ** 2)
            """,
        ],
        mistakes=[
            # Switches on requires_grad of the caller's tensor.
            mistake(
                """
                def gradient_penalty(critic, x):
                    x.requires_grad_()
                    (g,) = torch.autograd.grad(critic(x).sum(), x, create_graph=True)
                    return ((g.norm(dim=1) - 1) ** 2).mean()
                """,
                ["ex4_hidden"],
            ),
            # One norm for the whole batch instead of one per row.
            mistake(
                """
                def gradient_penalty(critic, x):
                    inputs = x.detach().requires_grad_()
                    (g,) = torch.autograd.grad(critic(inputs).sum(), inputs, create_graph=True)
                    return (g.norm() - 1) ** 2
                """,
                ["ex4_hidden"],
            ),
            # Without create_graph the penalty is a constant for the parameters.
            mistake(
                """
                def gradient_penalty(critic, x):
                    inputs = x.detach().requires_grad_()
                    (g,) = torch.autograd.grad(critic(inputs).sum(), inputs)
                    return ((g.norm(dim=1) - 1) ** 2).mean()
                """,
                ["ex4_visible", "ex4_hidden"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        """
        _w = torch.tensor([3.0, 4.0], requires_grad=True)
        _x = torch.tensor([[1.0, -1.0]])
        _p = gradient_penalty(lambda batch: batch @ _w, _x)  # the gradient is w for every row: norm 5
        check(isinstance(_p, torch.Tensor), f"gradient_penalty should return a tensor, got {type(_p).__name__}")
        check(tuple(_p.shape) == (), f"the penalty should be a single number (shape ()), got shape {tuple(_p.shape)}")
        check_close(_p, 16.0, "for the critic x @ w with w = [3, 4], the penalty is (5 - 1)² = 16")
        check(
            _p.requires_grad,
            "the penalty does not require grad: the critic's parameters could not learn from it. "
            "Did you compute the gradient with create_graph=True?",
        )
        _p.backward()
        check_close(_w.grad, [4.8, 6.4], "d penalty / d w = 2 (|w| - 1) w / |w| = [4.8, 6.4]")
        print("gradient_penalty passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        # Batches, nonlinear critics, finite differences, the input left alone (hidden tests).
        _smoke = gradient_penalty(lambda batch: batch.sum(dim=1), torch.ones(1, 2))
        ### BEGIN HIDDEN TESTS
        torch.manual_seed(35)
        _x = torch.randn(6, 3, dtype=torch.float64)
        _before = _x.tolist()


        def _reference(W, w, x):
            probe = x.detach().requires_grad_()
            (g,) = torch.autograd.grad(((probe @ W).sigmoid() @ w).sum(), probe, create_graph=True)
            return ((g * g).sum(dim=1).sqrt() - 1).pow(2).mean()


        def _student(W, w):
            return gradient_penalty(lambda batch: (batch @ W).sigmoid() @ w, _x)


        _W = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
        _v = torch.randn(5, dtype=torch.float64, requires_grad=True)
        _got = _student(_W, _v)
        check_close(_got, _reference(_W, _v, _x), "a batch of 6 rows and a nonlinear critic: wrong penalty", atol=1e-9)
        check_close(_x, _before, "gradient_penalty must not change x")
        check(not _x.requires_grad, "gradient_penalty must not switch on requires_grad of x: work on a copy")
        _got.backward()
        _ref_W = _W.grad.clone()
        _ref_v = _v.grad.clone()
        _W.grad, _v.grad = None, None
        _reference(_W, _v, _x).backward()
        check_close(_ref_W, _W.grad, "a nonlinear critic: wrong gradient for the first layer", atol=1e-9)
        check_close(_ref_v, _v.grad, "a nonlinear critic: wrong gradient for the second layer", atol=1e-9)
        check(torch.autograd.gradcheck(_student, (_W.detach().requires_grad_(), _v.detach().requires_grad_())), "gradcheck")
        _rows = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
        _k = torch.tensor(0.5, requires_grad=True)
        # critic k |row|²: gradient 2 k row, so with k = 0.5 the norms are |row| = [1, 2, sqrt(10)]
        _p = gradient_penalty(lambda batch: _k * (batch**2).sum(dim=1), _rows)
        _norms = [1.0, 2.0, 10**0.5]
        check_close(_p, sum((n - 1) ** 2 for n in _norms) / 3, "per-row norms: one norm for each row", atol=1e-5)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ retain_graph vs create_graph
    md(
        "retain_vs_create",
        """
        ## 7. `retain_graph` versus `create_graph`

        The two flags sound alike and do different things:

        | | what it does | without it |
        |---|---|---|
        | `retain_graph=True` | keeps the *existing* graph (its saved tensors) after this backward, so it can be walked again | a backward pass frees the saved tensors of every node it ran; walking them again raises "Trying to backward through the graph a second time" |
        | `create_graph=True` | *records* the backward pass itself, so the gradients it returns have a graph and can be differentiated | the gradients are constants (`requires_grad=False`); differentiating them raises "element 0 of tensors does not require grad" |

        `create_graph=True` sets the default of `retain_graph` to `True`: a gradient with a graph
        is useless if the nodes that graph runs through (like `ExpBackward0` in section 1) have
        been freed. Passing `retain_graph=False` together with it frees them anyway. And the
        graph of a gradient is freed by differentiating it, like any graph.
        """,
    ),
    code(
        "retain_vs_create_demo",
        """
        x = torch.tensor(1.0, requires_grad=True)
        y = x.exp() * x
        (g,) = torch.autograd.grad(y, x, retain_graph=True)
        print("retain_graph: g =", g, " g.requires_grad =", g.requires_grad)
        y.backward()  # the graph of y was kept: a second walk works
        print("x.grad after walking y again:", x.grad)
        try:
            y.backward()
        except RuntimeError as err:
            print("RuntimeError:", str(err)[:90], "...")
        """,
    ),
    md(
        "ex5_text",
        f"""
        ### Exercise 5 (3 points) — which call fails?

        Each case runs on its own, from a fresh `x` and `y`. Without running them, predict what
        happens:

        - `"ok"`: every line runs;
        - `"freed"`: `RuntimeError: Trying to backward through the graph a second time ...`;
        - `"no_graph"`: `RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn`.

        ```python
        {_block(EX5_SHOWN)}
        ```

        Set `fate` to a dict with the keys `"a"` to `"h"`, each mapped to one of the three strings.
        """,
    ),
    answer(
        "ex5_answer",
        """
        # fate = {"a": "ok" or "freed" or "no_graph", ..., "h": ...}
        ### BEGIN SOLUTION
        fate = {"a": "freed", "b": "ok", "c": "no_graph", "d": "ok", "e": "ok", "f": "freed", "g": "freed", "h": "no_graph"}
        ### END SOLUTION
        """,
        alternatives=['fate = dict(zip("abcdefgh", "freed ok no_graph ok ok freed freed no_graph".split()))'],
        mistakes=[
            mistake(
                'fate = {"a": "freed", "b": "ok", "c": "no_graph", "d": "ok", "e": "freed", "f": "freed", "g": "ok", "h": "no_graph"}',
                ["ex5_hidden"],
            ),
            # Half of the predictions, all of them right: the other half still counts as wrong.
            mistake('fate = {"a": "freed", "b": "ok", "c": "no_graph", "d": "ok"}', ["ex5_visible", "ex5_hidden"]),
        ],
    ),
    tests(
        "ex5_visible",
        f"""
        check("fate" in globals(), "fate is not defined: set it in the cell above")
        check(type(fate) is dict, f"fate should be a dict, got {{type(fate).__name__}}")
        check(sorted(fate) == {sorted(EX5_CASES)!r}, f"fate should have exactly the keys 'a' to 'h', got {{sorted(fate)}}")
        for _key, _value in fate.items():
            check(_value in {OUTCOMES!r}, f"fate[{{_key!r}}] should be one of {OUTCOMES!r}, got {{_value!r}}")
        print("fate has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex5_answer"],
    ),
    tests(
        "ex5_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _fate = dict(fate)
        ### BEGIN HIDDEN TESTS
        """,
        EX5_RUN,
        """
        def _what_happens(case):
            try:
                case()
            except RuntimeError as err:
                if "second" in str(err):
                    return "freed"
                return "no_graph" if "grad_fn" in str(err) else "other"
            return "ok"


        for _key in "abcdefgh":  # every case: a missing prediction is a wrong one
            check(_key in _fate, f"fate has no prediction for case {_key!r}")
            check(_fate[_key] == _what_happens(globals()[f"_ex5_case_{_key}"]), f"fate[{_key!r}] is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex5_answer"],
    ),
    question(
        "ex6_question",
        """
        ### Exercise 6 (3 points, graded by hand) — the penalty that did nothing

        A classmate computes a gradient penalty with
        `grad_x = torch.autograd.grad(scores.sum(), inputs, retain_graph=True)[0]`, because an
        earlier error message told them to "specify retain_graph=True". Training runs without an
        error, but the penalty has no effect on the critic.

        In a few sentences: why does the penalty have no effect? What does `retain_graph=True` do,
        and what does `create_graph=True` do? Which one did they need, and why does it make
        `retain_graph=True` unnecessary here?
        """,
    ),
    written(
        "ex6_answer",
        """
        Without `create_graph=True`, the backward pass that computes `grad_x` is not recorded:
        `grad_x` is a constant tensor with no `grad_fn` and `requires_grad=False`, and so is the
        penalty built from it. Its gradient with respect to the critic's parameters is never
        computed; added to the loss it changes the loss's value but contributes nothing to
        `.grad`, so it has no effect (and no error says so).

        `retain_graph=True` only keeps the existing graph (the saved tensors of the forward pass)
        after the backward pass, so that it can be walked again, for example by the critic's
        own loss. `create_graph=True` records the operations of the backward pass, so that the
        gradient it returns is itself connected by a graph to the parameters and can be
        differentiated. They needed `create_graph=True`; it makes `retain_graph` default to
        `True`, because the gradient's graph runs through the nodes of the forward graph, which
        must not be freed.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - `create_graph=True` records the backward pass: the gradient gets a `grad_fn`, its graph
          reuses the forward graph, and `torch.autograd.grad` can differentiate it again.
        - A derivative that does not depend on the input has no graph: treat it as zero.
        - `H v` costs two backward passes: differentiate `(∇f · v)`. The full Hessian is one
          row per entry of the gradient, each with `retain_graph=True`.
        - Newton's step `x - H⁻¹ ∇f` lands on the minimum of a quadratic in one step.
        - A loss that contains a gradient, such as a gradient penalty, needs `create_graph=True`;
          without it, the penalty silently does nothing.
        - `retain_graph` keeps a graph for another walk; `create_graph` builds a new one for the
          gradients, and implies `retain_graph`.

        Before you hand in: *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
