# ruff: noqa: N999 - the module is named after its notebook, 03_backward
"""Assignment 03: backward() on scalars and non-scalars, vector-Jacobian products, accumulation,
retain_graph, autograd.grad."""

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written

EX1_CODE = """
x = torch.tensor([2.0, -1.0], requires_grad=True)
y = torch.stack([x[0] * x[1], x[0] + 3 * x[1], x[1] ** 2])
y.backward(torch.tensor([1.0, 2.0, -1.0]))
"""

EX2_CODE = """
a = torch.tensor([1.0, 2.0], requires_grad=True)
(a * 4).sum().backward()
(a ** 2).sum().backward()
first = a.grad.clone()
a.grad.zero_()
(a * a[0]).sum().backward()
second = a.grad.clone()
"""

# Case name -> code; each case asks whether its last backward() raises.
EX3_CASES = {
    "a": """
y = (x + 1).sum()
y.backward()
y.backward()
""",
    "b": """
y = (x * x).sum()
y.backward()
y.backward()
""",
    "c": """
y = x.exp().sum()
y.backward(retain_graph=True)
y.backward()
""",
    "d": """
y = x.exp().sum()
y.backward()
y.backward(retain_graph=True)
""",
}


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


EX1_RUN = "def _ex1_run():\n" + _indent(EX1_CODE) + "\n    return x.grad\n"
EX2_RUN = "def _ex2_run():\n" + _indent(EX2_CODE) + "\n    return first, second\n"
EX3_SHOWN = "x = torch.tensor([1.0, 2.0], requires_grad=True)\n\n" + "\n\n".join(
    f"# case {name}\n{body.strip()}" for name, body in EX3_CASES.items()
)
EX3_RUN = "\n\n".join(
    f"def _ex3_case_{name}():\n    x = torch.tensor([1.0, 2.0], requires_grad=True)\n{_indent(body)}"
    for name, body in EX3_CASES.items()
)

CELLS = [
    md(
        "intro",
        """
        # Assignment 03 — What `backward()` computes

        `loss.backward()` looks like magic: one call, and every parameter has its gradient. This
        notebook takes the call apart: where the walk starts, what it computes when the output
        is not a single number, why gradients pile up in `.grad`, why a second call may fail, and
        how to get gradients without touching `.grad` at all.

        You will learn to

        - call `backward()` on scalars, and on non-scalars with the `gradient` argument;
        - read that argument as a vector-Jacobian product, and build a whole Jacobian from it;
        - explain why `.grad` accumulates, and clear it;
        - use `retain_graph` when a graph must be walked twice;
        - compute gradients with `torch.autograd.grad`.
        """,
        how_to_work(55),
    ),
    setup(),
    # ------------------------------------------------------------------ scalar
    md(
        "scalar_intro",
        """
        ## 1. `backward()` on a scalar

        For a single-number result `loss`, `loss.backward()` computes d`loss`/d`p` for every leaf
        `p` that requires grad and is reachable in the graph, and adds it into `p.grad`. The walk
        starts with the gradient of `loss` with respect to itself, which is 1. Each node then
        applies the chain rule: it multiplies the gradient it received by the derivative of its
        own operation and passes the result to the nodes in its `next_functions`.
        """,
    ),
    code(
        "scalar_demo",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        loss = (x**2).sum()
        loss.backward()
        print(x.grad)  # d/dx of x1² + x2² + x3² is 2x
        """,
    ),
    md(
        "scalar_trace",
        """
        `viz.trace_backward(t)` runs exactly the same backward pass, and records every step:
        which node ran, what it received and what it sent on. `trace.describe(k)` tells step `k`
        in words, and `trace.draw(k)` draws the graph at that step, with each arrow labelled by the
        gradient it carried (without `k`: the last step).
        """,
    ),
    code(
        "scalar_trace_demo",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        loss = (x**2).sum()
        trace = viz.trace_backward(loss)
        for step in range(trace.steps):
            print(trace.describe(step))
        """,
    ),
    code("scalar_trace_draw", "trace.draw()"),
    # ------------------------------------------------------------------ non-scalar
    md(
        "vector_intro",
        """
        ## 2. Non-scalar outputs and the `gradient` argument

        When `y` has several elements, "the gradient of `y`" is not one thing: each element of `y`
        has its own gradient. Together they form the **Jacobian** `J`, with one row per element of
        `y` and one column per element of `x`: `J[i, j]` = ∂`y[i]`/∂`x[j]`.

        `backward()` never builds `J`. Instead it asks you for a vector `v` with the shape of `y`
        (the `gradient` argument) and computes the **vector-Jacobian product** `vᵀJ`, which has the
        shape of `x`. That is the gradient of the scalar `(v * y).sum()`: `v` says how much each
        element of `y` counts. Without `v`, `backward()` on a non-scalar stops with an error.
        """,
    ),
    code(
        "vector_error",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        try:
            y.backward()
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    code(
        "vector_demo",
        """
        v = torch.tensor([1.0, 0.0, -1.0])
        y.backward(gradient=v)
        print(x.grad)  # J is diagonal here, with 2x on the diagonal: vᵀJ = 2x * v
        """,
    ),
    md(
        "vector_rows",
        """
        A one-hot `v` picks one row of `J`: with `v = [0, 1]`, `vᵀJ` is row 1, the gradient of
        `y[1]` alone. For `y = A @ x` the Jacobian is `A` itself, so we get back row 1 of `A`:
        """,
    ),
    code(
        "vector_rows_demo",
        """
        A = torch.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
        x = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
        y = A @ x
        trace = viz.trace_backward(y, gradient=torch.tensor([0.0, 1.0]))
        print(x.grad)
        """,
    ),
    md(
        "vector_rows_draw_text",
        """
        The trace shows the gradient `[0., 1.]` entering at `y`, and `MvBackward0` turning it into
        row 1 of `A` on its way to `x`:
        """,
    ),
    code("vector_rows_draw", "trace.draw()"),
    md(
        "ex1_text",
        f"""
        ### Exercise 1 (3 points) — a vector-Jacobian product by hand

        Without running it, compute `x.grad` after this code:

        ```python
        {_block(EX1_CODE)}
        ```

        Write down the 3×2 Jacobian of `y` with respect to `x` at this `x`, then multiply. Set
        `vjp_answer` to a list of two numbers.
        """,
    ),
    answer(
        "ex1_answer",
        """
        # vjp_answer = [number, number]
        ### BEGIN SOLUTION
        vjp_answer = [1.0, 10.0]
        ### END SOLUTION
        """,
        alternatives=[
            # Computed with NumPy: its numbers (np.float32 here) count as numbers.
            """
            import numpy as np

            jacobian = np.array([[-1.0, 2.0], [1.0, 3.0], [0.0, -2.0]], dtype=np.float32)
            vjp_answer = list(np.array([1.0, 2.0, -1.0], dtype=np.float32) @ jacobian)
            """
        ],
        mistakes=[mistake("vjp_answer = [-1.0, 2.0]", ["ex1_hidden"])],
    ),
    tests(
        "ex1_visible",
        """
        check("vjp_answer" in globals(), "vjp_answer is not defined: set it in the cell above")
        check(
            type(vjp_answer) in (list, tuple) and len(vjp_answer) == 2,
            f"vjp_answer should be a list of two numbers (x.grad has two elements), got {vjp_answer!r}",
        )
        check(
            all(is_number(v) for v in vjp_answer),
            f"the entries of vjp_answer should be numbers (a tensor's .item() gives one), got {vjp_answer!r}",
        )
        print("vjp_answer has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # Graded on the value (hidden tests).
        _vjp = list(vjp_answer)
        ### BEGIN HIDDEN TESTS
        """,
        EX1_RUN,
        """
        check_close(_vjp, _ex1_run(), "vjp_answer is wrong", atol=1e-4)
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ accumulation
    md(
        "acc_intro",
        """
        ## 3. Gradients accumulate

        `backward()` **adds** into `.grad`; it never overwrites. The reason: the gradient of a sum
        is the sum of the gradients. Two `backward()` calls on two losses leave in `.grad` exactly
        what one call on their sum would. That is what you want when a parameter is used by
        several losses, or when a batch too large for memory is processed in parts
        ("gradient accumulation").
        """,
    ),
    code(
        "acc_demo",
        """
        w = torch.tensor([1.0, -2.0], requires_grad=True)
        (3 * w).sum().backward()
        print(w.grad)  # [3, 3]
        (w * w).sum().backward()
        print(w.grad)  # [3, 3] + 2w = [5, -1]

        w_once = torch.tensor([1.0, -2.0], requires_grad=True)
        ((3 * w_once).sum() + (w_once * w_once).sum()).backward()
        print(w_once.grad)  # the same, from one backward() on the sum
        """,
    ),
    md(
        "acc_trace_text",
        """
        In a trace, the `AccumulateGrad` step says what it added and what `.grad` holds afterwards:
        """,
    ),
    code(
        "acc_trace",
        """
        w.grad = None
        (3 * w).sum().backward()
        trace = viz.trace_backward((w * w).sum())
        print(trace.describe(trace.steps - 1))
        trace.draw()
        """,
    ),
    md(
        "acc_zero",
        """
        The price: in a training loop you must clear the gradients before each new `backward()`,
        or every step uses the sum of all gradients so far. Two ways: `p.grad = None` (frees the
        memory; optimizers do this in `zero_grad()`) or `p.grad.zero_()` (keeps a tensor of zeros).
        """,
    ),
    code(
        "acc_zero_demo",
        """
        w.grad = None
        print(w.grad)
        (w * w).sum().backward()
        w.grad.zero_()
        print(w.grad)
        """,
    ),
    md(
        "ex2_text",
        f"""
        ### Exercise 2 (3 points) — predict the accumulation

        Without running it, predict `first` and `second`:

        ```python
        {_block(EX2_CODE)}
        ```

        Careful with the last loss: `a[0]` is an element of `a` too. Set `first_grad` and
        `second_grad` to lists of two numbers.
        """,
    ),
    answer(
        "ex2_answer",
        """
        # first_grad = [number, number]; second_grad = [number, number]
        ### BEGIN SOLUTION
        first_grad = [6.0, 8.0]
        second_grad = [4.0, 1.0]
        ### END SOLUTION
        """,
        alternatives=[
            """
            import numpy as np

            a = np.array([1.0, 2.0])
            first_grad = list(4 + 2 * a)  # np.float64 numbers
            second_grad = (2 * a[0] + a[1], a[0])
            """
        ],
        mistakes=[mistake("first_grad = [2.0, 4.0]\nsecond_grad = [2.0, 1.0]", ["ex2_hidden"])],
    ),
    tests(
        "ex2_visible",
        """
        for _name in ["first_grad", "second_grad"]:
            check(_name in globals(), f"{_name} is not defined: set it in the cell above")
            _value = globals()[_name]
            check(
                type(_value) in (list, tuple) and len(_value) == 2 and all(is_number(v) for v in _value),
                f"{_name} should be a list of two numbers (a has two elements), got {_value!r}",
            )
        print("first_grad and second_grad have the right form. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # Graded on the values (hidden tests).
        _answers = (list(first_grad), list(second_grad))
        ### BEGIN HIDDEN TESTS
        """,
        EX2_RUN,
        """
        _first, _second = _ex2_run()
        check_close(_answers[0], _first, "first_grad is wrong")
        check_close(_answers[1], _second, "second_grad is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],
    ),
    # ------------------------------------------------------------------ retain_graph
    md(
        "retain_intro",
        """
        ## 4. `retain_graph`: walking a graph twice

        Many nodes keep values for their derivative: `MulBackward0` keeps both factors,
        `ExpBackward0` its result. To save memory, `backward()` frees these saved values as soon as
        a node has used them. A second `backward()` through the same nodes then has nothing to
        work with and raises a `RuntimeError`. `backward(retain_graph=True)` keeps the saved
        values, so the graph can be walked again. Nodes that saved nothing (an addition, a sum)
        can always run again.
        """,
    ),
    code(
        "retain_error",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        prod = x * x
        total = prod.sum()
        total.backward()
        try:
            total.backward()
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    md(
        "retain_draw_text",
        """
        With `show_saved=True` the drawing lists the saved values: after the first `backward()`,
        `MulBackward0` has a dashed border and its saved values say "freed".
        """,
    ),
    code("retain_draw", "viz.draw_backward(total, show_saved=True)"),
    code(
        "retain_demo",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        total = (x * x).sum()
        total.backward(retain_graph=True)  # keep the saved values
        total.backward()                   # works, and frees them
        print(x.grad)                      # 2x, twice
        """,
    ),
    md(
        "retain_when",
        """
        You need `retain_graph=True` when you call `backward()` more than once on graphs that share
        nodes, for example two losses computed from the same features, or the rows of a Jacobian
        one after another. Often it is simpler to add the losses and call `backward()` once.
        """,
    ),
    md(
        "ex3_text",
        f"""
        ### Exercise 3 (3 points) — which second `backward()` fails?

        For each case, does the **last** `backward()` raise a `RuntimeError`? Each case starts from
        the same fresh `x`.

        ```python
        {_block(EX3_SHOWN)}
        ```

        Set `raises_a`, `raises_b`, `raises_c` and `raises_d` to `True` or `False`.
        """,
    ),
    answer(
        "ex3_answer",
        """
        # Set raises_a, raises_b, raises_c and raises_d to True or False.
        ### BEGIN SOLUTION
        raises_a = False
        raises_b = True
        raises_c = False
        raises_d = True
        ### END SOLUTION
        """,
        mistakes=[mistake("raises_a = True\nraises_b = True\nraises_c = False\nraises_d = False", ["ex3_hidden"])],
    ),
    tests(
        "ex3_visible",
        """
        for _name in ["raises_a", "raises_b", "raises_c", "raises_d"]:
            check(_name in globals(), f"{_name} is not defined: set it in the cell above")
            _value = globals()[_name]
            check(type(_value) is bool, f"{_name} should be True or False, got {_value!r}")
        print("The answers are booleans. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        """
        # Graded on the values (hidden tests).
        _answers = {"a": raises_a, "b": raises_b, "c": raises_c, "d": raises_d}
        ### BEGIN HIDDEN TESTS
        """,
        EX3_RUN,
        """
        for _case, _run in [("a", _ex3_case_a), ("b", _ex3_case_b), ("c", _ex3_case_c), ("d", _ex3_case_d)]:
            try:
                _run()
                _raised = False
            except RuntimeError:
                _raised = True
            check(_answers[_case] is _raised, f"raises_{_case} is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex3_answer"],
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — a Jacobian, row by row

        Write `jacobian(f, x)`, which returns the full Jacobian of `f` at `x`, built from
        `backward()` calls with one-hot gradients (one call per row):

        - `f` takes a 1-D tensor with `n` elements and returns a 1-D tensor with `m` elements;
          `m` may differ from `n`;
        - `x` is a 1-D floating-point tensor that does **not** require grad; do not change it;
        - return a tensor of shape `(m, n)` with `J[i, j]` = ∂`f(x)[i]`/∂`x[j]`.

        Mind sections 3 and 4: gradients add up in `.grad` from one `backward()` to the next, and
        the graph is freed after each `backward()` unless you retain it (or compute `f` again).
        Useful: `x.clone().requires_grad_()` makes a leaf copy of `x`; `torch.zeros(m)` and item
        assignment `e[i] = 1.0` make a one-hot vector; `torch.stack(rows)` stacks 1-D tensors
        into a matrix.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def jacobian(f, x):
            \"\"\"The (m, n) Jacobian of f at x, one backward() per row.\"\"\"
            ### BEGIN SOLUTION
            leaf = x.clone().requires_grad_()
            y = f(leaf)
            rows = []
            for i in range(y.numel()):
                one_hot = torch.zeros_like(y)
                one_hot[i] = 1.0
                leaf.grad = None  # otherwise this row would add to the previous one
                y.backward(one_hot, retain_graph=True)
                rows.append(leaf.grad.clone())
            return torch.stack(rows)
            ### END SOLUTION
        """,
        alternatives=[
            # f computed again for every row, so no graph is needed twice.
            """
            def jacobian(f, x):
                m = f(x).numel()
                rows = []
                for i in range(m):
                    leaf = x.detach().clone().requires_grad_(True)
                    out = f(leaf)
                    pick = torch.zeros(m, dtype=out.dtype)
                    pick[i] = 1
                    out.backward(gradient=pick)
                    rows.append(leaf.grad)
                return torch.stack(rows)
            """,
            # autograd.grad instead of backward: a different correct answer.
            """
            def jacobian(f, x):
                leaf = x.detach().requires_grad_()
                y = f(leaf)
                eye = torch.eye(y.shape[0], dtype=y.dtype)
                return torch.stack([torch.autograd.grad(y, leaf, eye[i], retain_graph=True)[0] for i in range(y.shape[0])])
            """,
        ],
        mistakes=[
            # Assumes a square Jacobian: right for the visible tests, wrong when m != n.
            mistake(
                """
                def jacobian(f, x):
                    leaf = x.clone().requires_grad_()
                    y = f(leaf)
                    rows = []
                    for i in range(x.numel()):
                        e = torch.zeros_like(x)
                        e[i] = 1.0
                        leaf.grad = None
                        y.backward(e, retain_graph=True)
                        rows.append(leaf.grad.clone())
                    return torch.stack(rows)
                """,
                ["ex4_hidden"],
            )
        ],
    ),
    tests(
        "ex4_visible",
        """
        _x = torch.tensor([1.0, 2.0, -3.0])
        _J = jacobian(lambda t: t * t, _x)
        check(isinstance(_J, torch.Tensor), f"jacobian should return a tensor, got {type(_J).__name__}")
        check(tuple(_J.shape) == (3, 3), f"for f(t) = t * t with 3 elements, J should have shape (3, 3), got {tuple(_J.shape)}")
        check_close(
            _J,
            [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, -6.0]],
            "for f(t) = t * t, J is diagonal with 2t on the diagonal. Rows that add up mean "
            "that .grad was not cleared between backward() calls",
        )
        check_close(_x, [1.0, 2.0, -3.0], "jacobian must not change x")
        check(not _x.requires_grad and _x.grad is None, "jacobian must not make x require grad: work on a copy")
        _A = torch.tensor([[1.0, 2.0], [0.0, -1.0]])
        check_close(jacobian(lambda t: _A @ t, torch.tensor([0.5, 0.5])), _A, "the Jacobian of t -> A @ t is A")
        print("jacobian passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        # More functions (hidden tests): other shapes, other operations.
        _smoke = jacobian(lambda t: t * 2, torch.tensor([1.0]))
        ### BEGIN HIDDEN TESTS
        _x = torch.tensor([0.5, -1.0, 2.0])
        _J = jacobian(lambda t: torch.stack([t[0] * t[1], (t**2).sum()]), _x)
        check_close(_J, [[-1.0, 0.5, 0.0], [1.0, -2.0, 4.0]], "a function from 3 numbers to 2", atol=1e-5)
        _y = torch.tensor([0.3, -0.7])
        _J = jacobian(lambda t: torch.cat([t * 3, t.exp()]), _y)
        _e = _y.exp().tolist()
        check_close(_J, [[3.0, 0.0], [0.0, 3.0], [_e[0], 0.0], [0.0, _e[1]]], "a function from 2 numbers to 4", atol=1e-5)
        _J = jacobian(lambda t: (t**3).sum().reshape(1), _x)
        check_close(_J, [(3 * _x**2).tolist()], "a function with a single output", atol=1e-5)
        torch.manual_seed(11)
        _W = torch.randn(4, 3, requires_grad=True)
        _J = jacobian(lambda t: (_W @ t).tanh(), _x)
        _s = (_W.detach() @ _x).tanh()
        check_close(_J, (1 - _s * _s).unsqueeze(1) * _W.detach(), "tanh of a matrix product", atol=1e-5)
        check_close(jacobian(lambda t: (_W @ t).tanh(), _x), _J, "calling jacobian twice gives the same result")
        _z = torch.tensor([1.0, 2.0], dtype=torch.float64)
        _J = jacobian(lambda t: t.sin() * t[0], _z)
        _c = _z.cos().tolist()
        _s = _z.sin().tolist()
        check_close(_J, [[_c[0] + _s[0], 0.0], [_s[1], _c[1]]], "a float64 input", atol=1e-6)
        check(not _z.requires_grad and _z.grad is None, "x must be left unchanged")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ autograd.grad
    md(
        "grad_intro",
        """
        ## 5. `torch.autograd.grad`: gradients as return values

        `torch.autograd.grad(outputs, inputs)` computes the same gradients as `backward()`, but
        **returns** them, as a tuple with one entry per input (even for a single input), and
        leaves `.grad` alone. Use it when the gradient is a value you compute with (a gradient
        penalty, a step inside a function) rather than something for an optimizer to pick up.

        It takes the same extra arguments: `grad_outputs` plays the role of `gradient` for
        non-scalar outputs, and `retain_graph` keeps the graph (it is freed by default).
        """,
    ),
    code(
        "grad_demo",
        """
        p = torch.tensor(3.0, requires_grad=True)
        q = torch.tensor([1.0, 2.0], requires_grad=True)
        f = p**2 + (p * q).sum()
        viz.draw_backward(f)
        """,
    ),
    code(
        "grad_call",
        """
        grad_p, grad_q = torch.autograd.grad(f, (p, q))
        print("df/dp:", grad_p, " df/dq:", grad_q)
        print(".grad untouched:", p.grad, q.grad)
        """,
    ),
    md(
        "grad_unused",
        """
        An input that `outputs` does not depend on is an error, unless you pass
        `allow_unused=True`; its entry is then `None`. With `materialize_grads=True` you get zeros
        instead.
        """,
    ),
    code(
        "grad_unused_demo",
        """
        bystander = torch.tensor([5.0, 5.0], requires_grad=True)
        f = (p * q).sum()
        try:
            torch.autograd.grad(f, (p, bystander), retain_graph=True)
        except RuntimeError as err:
            print("RuntimeError:", err)
        print(torch.autograd.grad(f, (p, bystander), allow_unused=True, retain_graph=True))
        print(torch.autograd.grad(f, (p, bystander), materialize_grads=True))
        """,
    ),
    code(
        "grad_vector_demo",
        """
        y = q * q
        print(torch.autograd.grad(y, q, grad_outputs=torch.tensor([1.0, 10.0])))  # vᵀJ, as with backward
        """,
    ),
    md(
        "ex5_text",
        """
        ### Exercise 5 (4 points) — value and gradients, without side effects

        Write `value_and_grad(f, *inputs)`. `inputs` are tensors that require grad, `f(*inputs)`
        returns a one-element tensor. Return a pair `(value, grads)`:

        - `value` is `f(*inputs)`: the tensor, or the number in it (`.item()`), as you like;
        - `grads` is a **tuple** with one gradient per input, in the order of `inputs`;
        - if `f` does not use an input, its gradient is a tensor of zeros with that input's shape;
        - the `.grad` of every input is left exactly as it was (`None` stays `None`, and a
          gradient already there keeps its values).
        """,
    ),
    answer(
        "ex5_answer",
        """
        def value_and_grad(f, *inputs):
            \"\"\"(f(*inputs), gradients of it with respect to each input), .grad untouched.\"\"\"
            ### BEGIN SOLUTION
            value = f(*inputs)
            grads = torch.autograd.grad(value, inputs, allow_unused=True)
            grads = tuple(torch.zeros_like(t) if g is None else g for t, g in zip(inputs, grads))
            return value, grads
            ### END SOLUTION
        """,
        alternatives=[
            """
            def value_and_grad(f, *inputs):
                value = f(*inputs)
                return value, torch.autograd.grad(value, inputs, materialize_grads=True)
            """,
            # backward() with the old .grad put back: another way to leave .grad as it was.
            """
            def value_and_grad(f, *inputs):
                saved = [t.grad for t in inputs]
                for t in inputs:
                    t.grad = None
                value = f(*inputs)
                value.backward()
                grads = tuple(torch.zeros_like(t) if t.grad is None else t.grad for t in inputs)
                for t, old in zip(inputs, saved):
                    t.grad = old
                return value, grads
            """,
            # The value as a Python number: the statement allows it.
            """
            def value_and_grad(f, *inputs):
                out = f(*inputs)
                grads = torch.autograd.grad(out, inputs, allow_unused=True)
                grads = tuple(torch.zeros_like(x) if g is None else g for g, x in zip(grads, inputs))
                return out.item(), grads
            """,
        ],
        mistakes=[
            # No zeros for an unused input: autograd.grad raises.
            mistake(
                """
                def value_and_grad(f, *inputs):
                    value = f(*inputs)
                    return value, torch.autograd.grad(value, inputs)
                """,
                ["ex5_hidden"],
            )
        ],
    ),
    tests(
        "ex5_visible",
        """
        _a = torch.tensor([1.0, 2.0], requires_grad=True)
        _b = torch.tensor([3.0, -1.0], requires_grad=True)
        _result = value_and_grad(lambda a, b: (a * b).sum(), _a, _b)
        check(
            type(_result) is tuple and len(_result) == 2,
            f"value_and_grad should return a pair (value, grads), got {type(_result).__name__}",
        )
        _value, _grads = _result
        check_close(_value, 1.0, "the value of (a * b).sum() for a = [1, 2], b = [3, -1] is 1")
        check(type(_grads) is tuple and len(_grads) == 2, f"grads should be a tuple with one gradient per input, got {_grads!r}")
        check_close(_grads[0], [3.0, -1.0], "the gradient of (a * b).sum() with respect to a is b")
        check_close(_grads[1], [1.0, 2.0], "the gradient of (a * b).sum() with respect to b is a")
        check(_a.grad is None and _b.grad is None, ".grad of the inputs changed: use torch.autograd.grad, which returns the gradients")
        print("value_and_grad passes the visible tests.")
        """,
        points=1,
        needs=["ex5_answer"],
    ),
    tests(
        "ex5_hidden",
        """
        # More cases (hidden tests): existing gradients, unused inputs, one input.
        _smoke = value_and_grad(lambda t: t.sum(), torch.tensor([1.0], requires_grad=True))
        ### BEGIN HIDDEN TESTS
        _p = torch.tensor(2.0, requires_grad=True)
        _q = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        _p.grad = torch.tensor(7.0)
        _value, _grads = value_and_grad(lambda p, q: p**3 + (q * p).sum(), _p, _q)
        check_close(_value, 28.0, "value with two inputs")
        check_close(_grads[0], 22.0, "gradient of p**3 + (q * p).sum() with respect to p")
        check_close(_grads[1], [[2.0, 2.0], [2.0, 2.0]], "gradient with respect to a 2-D input")
        check_close(_p.grad, 7.0, "a gradient already in .grad must keep its values")
        check(_q.grad is None, ".grad that was None must stay None")
        _unused = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
        _value, _grads = value_and_grad(lambda p, u: p * 5, _p, _unused)
        check(type(_grads) is tuple and len(_grads) == 2, "one gradient per input, unused ones included")
        check_close(_grads[0], 5.0, "gradient of the used input")
        check_close(_grads[1], [0.0, 0.0, 0.0], "the gradient of an unused input is zeros of its shape")
        check(_unused.grad is None, "the unused input's .grad must stay None")
        _value, _grads = value_and_grad(lambda t: (t.exp() * t).sum(), _unused)
        check(type(_grads) is tuple and len(_grads) == 1, "a single input gives a tuple of one gradient")
        _e = 2.718281828459045
        check_close(_grads[0], [2 * _e] * 3, "gradient of (t.exp() * t).sum() is e^t (1 + t)", atol=1e-5)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex5_answer"],
    ),
    # ------------------------------------------------------------------ written answer
    question(
        "ex6_question",
        """
        ### Exercise 6 (3 points, graded by hand) — the forgotten `zero_grad`

        A training loop computes the loss of one batch, calls `loss.backward()`, and updates the
        parameters with `p -= lr * p.grad` under `torch.no_grad()`, but never clears `.grad`.

        In a few sentences: what is in `p.grad` at the first, second and third step, and what does
        that do to the updates? Then name one situation in which you would leave out the clearing
        on purpose, and say when you would clear in that case.
        """,
    ),
    written(
        "ex6_answer",
        """
        `backward()` adds into `.grad`. At step 1, `p.grad` holds the gradient g₁ of the first
        batch, so the first update is right. At step 2 it holds g₁ + g₂ and at step 3
        g₁ + g₂ + g₃: each update uses the sum of all gradients so far, computed at older parameter
        values. The steps grow (like an ever larger learning rate) and keep pushing in old
        directions, so training oscillates or diverges instead of settling.

        Leaving it out on purpose is gradient accumulation: when a batch does not fit in memory,
        split it into k micro-batches, call `backward()` on each (scaling each loss by 1/k for a
        mean), update once with the summed gradient, and clear `.grad` only after that update,
        before the next group of micro-batches.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - `loss.backward()` starts with gradient 1 at a scalar and applies the chain rule node by
          node, adding the results into the `.grad` of the leaves.
        - For a non-scalar `y`, `y.backward(v)` computes the vector-Jacobian product `vᵀJ`, the
          gradient of `(v * y).sum()`; one-hot `v`s give the rows of `J`.
        - `.grad` accumulates: clear it between steps with `p.grad = None` or `p.grad.zero_()`.
        - `backward()` frees the values nodes saved; `retain_graph=True` keeps them for another
          walk.
        - `torch.autograd.grad(outputs, inputs)` returns gradients as a tuple and leaves `.grad`
          alone.

        Next, notebook 04 hooks into the backward pass itself. Before you hand in:
        *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
