# ruff: noqa: N999 - the module is named after its notebook, 02_leaves
"""Assignment 02: leaves, why only they get .grad, the NoneType bug, retain_grad, casts."""

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written

EX1_CODE = """
a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
c = a * 3
d = b * 3
e = torch.zeros(2).requires_grad_()
f = d.sum() + a.sum()
g = c + a
"""

EX5_CODE = """
p = torch.tensor([1.0, 2.0], requires_grad=True).double()
q = torch.tensor([1.0, 2.0], requires_grad=True).float()
r = torch.tensor([1.0, 2.0]).double().requires_grad_()
s = torch.tensor([1, 2]).float()
t = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
u = torch.tensor([1.0, 2.0], requires_grad=True).to(torch.float16)
"""


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


EX1_RUN = (
    "def _ex1_run():\n" + _indent(EX1_CODE) + '\n    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g}\n'
)
EX5_RUN = "def _ex5_run():\n" + _indent(EX5_CODE) + '\n    return {"p": p, "q": q, "r": r, "s": s, "t": t, "u": u}\n'

CELLS = [
    md(
        "intro",
        """
        # Assignment 02 — Leaves, and why only they get `.grad`

        After `loss.backward()`, some tensors have a `.grad` and others have `None` there. Which
        ones get a gradient is decided by one property, `is_leaf`, together with `requires_grad`.
        Getting this wrong produces one of the most common autograd errors:
        `unsupported operand type(s) for *: 'float' and 'NoneType'`.

        You will learn to

        - decide for any tensor whether it is a leaf;
        - explain why `backward()` stores gradients only in leaves;
        - recognise the `NoneType` error, and fix it three ways;
        - keep the gradient of an intermediate result with `retain_grad()`;
        - see why a dtype conversion or a move to the GPU creates a non-leaf;
        - tell `requires_grad` and `is_leaf` apart.
        """,
        how_to_work(50),
    ),
    setup(),
    # ------------------------------------------------------------------ what is a leaf
    md(
        "leaf_rules",
        """
        ## 1. What is a leaf?

        A tensor is a **leaf** when no recorded operation produced it, which is the same as
        `t.grad_fn is None`. Two kinds of tensors are leaves:

        1. every tensor you create yourself (`torch.tensor`, `torch.zeros`, `torch.randn`, ...),
           whether it requires grad or not;
        2. every result computed only from tensors that do not require grad: nothing was
           recorded, so nothing links it to its inputs.

        The only non-leaves are results of operations with at least one input that requires grad.
        Such a result always requires grad itself.
        """,
    ),
    code(
        "leaf_table",
        """
        def show(**tensors):
            for name, t in tensors.items():
                made_by = t.grad_fn.name() if t.grad_fn is not None else None
                print(f"{name:>7}: requires_grad={t.requires_grad!s:5}  is_leaf={t.is_leaf!s:5}  grad_fn={made_by}")


        w = torch.tensor([0.5, -1.5], requires_grad=True)
        x = torch.tensor([2.0, 3.0])
        wx = w * x
        squares = x * x
        loss = wx.sum()
        show(w=w, x=x, wx=wx, squares=squares, loss=loss)
        """,
    ),
    md(
        "leaf_draw_text",
        """
        In a drawing, leaves that require grad are green, non-leaves yellow, and tensors that need
        no gradient grey. `viz.draw` accepts several tensors; `squares` is a grey leaf even though
        it is the result of an operation.
        """,
    ),
    code("leaf_draw", "viz.draw(loss, squares)"),
    md(
        "ex1_text",
        f"""
        ### Exercise 1 (3 points) — leaf or not?

        Without running it, predict `requires_grad` and `is_leaf` of each tensor:

        ```python
        {_block(EX1_CODE)}
        ```

        Set `predicted` to a dict with the keys `"a"` to `"g"`, each mapped to a tuple
        `(requires_grad, is_leaf)` of two booleans, for example `"a": (True, False)`.
        """,
    ),
    answer(
        "ex1_answer",
        """
        # predicted = {"a": (requires_grad, is_leaf), "b": ..., ..., "g": ...}
        ### BEGIN SOLUTION
        predicted = {
            "a": (False, True),
            "b": (True, True),
            "c": (False, True),
            "d": (True, False),
            "e": (True, True),
            "f": (True, False),
            "g": (False, True),
        }
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                """
                predicted = {
                    "a": (False, True),
                    "b": (True, True),
                    "c": (False, False),
                    "d": (True, False),
                    "e": (True, False),
                    "f": (True, False),
                    "g": (False, False),
                }
                """,
                ["ex1_hidden"],
            )
        ],
    ),
    tests(
        "ex1_visible",
        """
        check("predicted" in globals(), "predicted is not defined: set it in the cell above")
        check(type(predicted) is dict, f"predicted should be a dict, got {type(predicted).__name__}")
        check(
            sorted(predicted) == ["a", "b", "c", "d", "e", "f", "g"],
            f"predicted should have exactly the keys 'a' to 'g', got {sorted(predicted)}",
        )
        for _key, _value in predicted.items():
            check(
                type(_value) is tuple and len(_value) == 2 and all(type(v) is bool for v in _value),
                f"predicted[{_key!r}] should be a tuple of two booleans (requires_grad, is_leaf), got {_value!r}",
            )
        print("predicted has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _predicted = dict(predicted)
        ### BEGIN HIDDEN TESTS
        """,
        EX1_RUN,
        """
        for _key, _tensor in _ex1_run().items():
            check(
                _predicted[_key] == (_tensor.requires_grad, _tensor.is_leaf),
                f"predicted[{_key!r}] is wrong",
            )
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ why only leaves
    md(
        "why_leaves",
        """
        ## 2. Why only leaves get `.grad`

        The tensors you want gradients of are the ones you will change: parameters. You created
        them, so they are leaves. Intermediate results are thrown away and computed again on the
        next forward pass, so their gradients are rarely of use. Storing them anyway would cost
        as much memory again as the activations themselves.

        So `backward()` keeps a gradient only where it reaches an `AccumulateGrad` node, and only
        leaves that require grad have one. At a non-leaf, the gradient is handed on to its
        `grad_fn` and forgotten. Leaves that do not require grad get nothing: no gradient is
        computed for them at all.
        """,
    ),
    code(
        "why_leaves_demo",
        """
        loss.backward()
        print("w.grad:", w.grad)  # a leaf that requires grad
        print("x.grad:", x.grad)  # a leaf, but no gradient was asked for
        """,
    ),
    md(
        "why_leaves_warn",
        """
        Reading `.grad` of a non-leaf gives `None`, with a warning that names the operation that
        made the tensor (the warning appears under the cell; it is not an error):
        """,
    ),
    code("why_leaves_nonleaf", 'print("wx.grad:", wx.grad)'),
    md(
        "why_leaves_draw_text",
        """
        After `backward()`, the drawing shows a `grad` line in the green box of `w` and none in the
        yellow box of `wx`:
        """,
    ),
    code("why_leaves_draw", "viz.draw(loss)"),
    # ------------------------------------------------------------------ NoneType bug
    md(
        "bug_intro",
        """
        ## 3. The `NoneType` bug

        A common way to start small random weights is to scale them on the line that makes them.
        Look at what happens when we then train them:
        """,
    ),
    code(
        "bug_demo",
        """
        torch.manual_seed(1)
        weights = torch.randn(3, requires_grad=True) * 0.01  # small random start
        features = torch.tensor([1.0, 2.0, -1.0])
        target = torch.tensor(0.5)
        loss = ((weights * features).sum() - target) ** 2
        loss.backward()
        print("weights.is_leaf:", weights.is_leaf, " grad_fn:", weights.grad_fn.name())
        try:
            weights = weights - 0.1 * weights.grad
        except TypeError as err:
            print("TypeError:", err)
        """,
    ),
    md(
        "bug_explain",
        """
        `torch.randn(3, requires_grad=True)` is a leaf, but `* 0.01` is a recorded operation, and
        its result is what the name `weights` holds. The leaf got its gradient; you just have no
        name left for it. The drawing shows it: the green box without a name is the leaf made by
        `randn`, with its `grad`; `weights` is the yellow result of the multiplication.
        """,
    ),
    code("bug_draw", "viz.draw(loss)"),
    md(
        "fix_retain",
        """
        ### Three fixes

        **Fix 1: ask for the gradient of the non-leaf** with `retain_grad()` before `backward()`
        (section 4 has more). This is the right fix when you only want to *look* at a gradient;
        `weights` is still not a leaf, so it is still the wrong thing to train.
        """,
    ),
    code(
        "fix_retain_demo",
        """
        torch.manual_seed(1)
        weights = torch.randn(3, requires_grad=True) * 0.01
        weights.retain_grad()
        loss = ((weights * features).sum() - target) ** 2
        loss.backward()
        print(weights.is_leaf, weights.grad)
        """,
    ),
    md(
        "fix_leaf",
        """
        **Fix 2: make the scaled tensor the leaf.** Scale first, with nothing recorded, and ask
        for gradients afterwards. Now `weights` is the leaf, and it gets the gradient.
        """,
    ),
    code(
        "fix_leaf_demo",
        """
        torch.manual_seed(1)
        weights = (torch.randn(3) * 0.01).requires_grad_()
        loss = ((weights * features).sum() - target) ** 2
        loss.backward()
        print(weights.is_leaf, weights.grad)
        """,
    ),
    md(
        "fix_update",
        """
        **Fix 3: update in place, without recording.** The same trap waits in the update itself:
        `weights = weights - 0.1 * weights.grad` is a recorded operation, so after it `weights`
        names a new non-leaf, and the next `backward()` leaves its `.grad` empty. The update
        optimizers do changes the values *in place* inside `torch.no_grad()`: nothing is recorded,
        and `weights` stays the very same leaf. Then clear the gradient, because `backward()` adds
        to whatever is in `.grad` (notebook 03).

        Without `no_grad`, autograd refuses to change a leaf that requires grad in place: it
        would break the graphs that use it.
        """,
    ),
    code(
        "fix_update_refused",
        """
        try:
            weights -= 0.1 * weights.grad
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    code(
        "fix_update_demo",
        """
        weights.grad = None  # start without the gradient left by the cell above
        for step in range(4):
            loss = ((weights * features).sum() - target) ** 2
            loss.backward()
            with torch.no_grad():
                weights -= 0.1 * weights.grad
            weights.grad = None
            print(f"step {step}: loss={loss.item():.4f}  is_leaf={weights.is_leaf}")
        """,
    ),
    md(
        "bug_loop_text",
        """
        For comparison, the loop with the recorded update fails on its second pass:
        """,
    ),
    code(
        "bug_loop_demo",
        """
        k = torch.tensor(0.0, requires_grad=True)
        xs, ys = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 4.0, 6.0])
        try:
            for step in range(3):
                loss = ((k * xs - ys) ** 2).mean()
                loss.backward()
                print(f"step {step}: k.is_leaf={k.is_leaf}")
                k = k - 0.05 * k.grad
        except TypeError as err:
            print("TypeError:", err)
        """,
    ),
    md(
        "ex2_text",
        """
        ### Exercise 2 (3 points) — a parameter that gets its gradient

        Write `make_parameter(values, scale)` that returns a tensor holding `values * scale`, which
        is a **leaf** and **requires grad**, so that `backward()` fills its `.grad`.

        - `values` is a (possibly nested) list of numbers, or a floating-point tensor that does
          not require grad; `scale` is a Python float.
        - The result may have any floating-point dtype (`values * scale` gives `float32` for a
          list, and keeps a tensor's own dtype); only floating-point tensors can require grad.
        - Do not change `values` itself.
        """,
    ),
    answer(
        "ex2_answer",
        """
        def make_parameter(values, scale):
            \"\"\"A leaf that requires grad, holding values * scale.\"\"\"
            ### BEGIN SOLUTION
            scaled = torch.as_tensor(values) * scale  # nothing requires grad yet: no recording
            return scaled.requires_grad_()
            ### END SOLUTION
        """,
        alternatives=[
            """
            def make_parameter(values, scale):
                if isinstance(values, torch.Tensor):
                    values = values.tolist()
                base = torch.tensor(values, dtype=torch.float32)
                with torch.no_grad():
                    base = base * scale
                base.requires_grad = True
                return base
            """,
            # torch.tensor on a tensor too: right, though minigrad (like PyTorch) warns that
            # clone().detach() is the better copy; nbgrader would score the warning on stderr 0.
            """
            def make_parameter(values, scale):
                p = torch.tensor(values) * scale
                p.requires_grad = True
                return p
            """,
            # Always float64: any floating-point dtype will do.
            """
            def make_parameter(values, scale):
                with torch.no_grad():
                    out = torch.tensor(values, dtype=torch.float64) * scale
                out.requires_grad = True
                return out
            """,
        ],
        mistakes=[
            # Scales in place: right result, but the caller's tensor is changed.
            mistake(
                """
                def make_parameter(values, scale):
                    if isinstance(values, torch.Tensor):
                        return values.mul_(scale).requires_grad_()
                    return (torch.tensor(values) * scale).requires_grad_()
                """,
                ["ex2_hidden"],
            )
        ],
    ),
    tests(
        "ex2_visible",
        """
        _p = make_parameter([1.0, -2.0, 4.0], 0.5)
        check(isinstance(_p, torch.Tensor), f"make_parameter should return a tensor, got {type(_p).__name__}")
        check_close(_p, [0.5, -1.0, 2.0], "make_parameter([1.0, -2.0, 4.0], 0.5) should hold the values times 0.5")
        check(_p.requires_grad, "the parameter should require grad")
        _made_by = _p.grad_fn.name() if _p.grad_fn is not None else None
        check(
            _p.is_leaf,
            f"the parameter is not a leaf: it was made by {_made_by}. Scale first, then ask for gradients",
        )
        (_p * _p).sum().backward()
        check_close(_p.grad, [1.0, -2.0, 4.0], "after (p * p).sum().backward(), p.grad should be 2 * p")
        print("make_parameter passes the visible tests.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # More inputs (hidden tests): nested lists, tensors, negative scales.
        _smoke = make_parameter([1.0], 2.0)
        ### BEGIN HIDDEN TESTS
        import warnings

        _p = make_parameter([[1.0, 2.0], [3.0, 4.0]], -0.1)
        check_close(_p, [[-0.1, -0.2], [-0.3, -0.4]], "nested lists")
        check(_p.is_leaf and _p.requires_grad, "nested lists: should be a leaf that requires grad")
        _values = torch.tensor([2.0, 4.0, 8.0])
        with warnings.catch_warnings():  # torch.tensor(a_tensor) warns, rightly, but the answer is right
            warnings.filterwarnings("ignore", message="To copy construct from a tensor")
            _q = make_parameter(_values, 0.25)
        check_close(_q, [0.5, 1.0, 2.0], "a tensor of values")
        check_close(_values, [2.0, 4.0, 8.0], "make_parameter must not change the tensor it was given")
        check(not _values.requires_grad, "make_parameter must not switch on requires_grad of its input")
        check(_q.is_leaf and _q.requires_grad, "a tensor of values: should be a leaf that requires grad")
        (_q.exp().sum() + _p.sum()).backward()
        check_close(_q.grad, _q.detach().exp(), "the gradient should reach the parameter made from a tensor")
        check_close(_p.grad, [[1.0, 1.0], [1.0, 1.0]], "the gradient should reach the parameter made from a list")
        _r = make_parameter([1, 2, 3], 1.5)
        check(_r.dtype.is_floating_point and _r.is_leaf and _r.requires_grad, "integers times a float scale")
        check_close(_r, [1.5, 3.0, 4.5], "integers times a float scale")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — a correct update step

        Write `sgd_step(params, lr)`, the update of plain gradient descent. For every tensor `p`
        in the list `params`:

        - change its values in place to `p - lr * p.grad`, without recording the update, so that
          `p` stays the same leaf object;
        - then clear its gradient: set `p.grad` to `None` (or fill it with zeros);
        - leave a tensor whose `.grad` is `None` unchanged (it took no part in the loss).

        The function returns nothing.
        """,
    ),
    answer(
        "ex3_answer",
        """
        def sgd_step(params, lr):
            \"\"\"One step of gradient descent, in place; clears the gradients.\"\"\"
            ### BEGIN SOLUTION
            with torch.no_grad():
                for p in params:
                    if p.grad is not None:
                        p -= lr * p.grad
            for p in params:
                p.grad = None
            ### END SOLUTION
        """,
        alternatives=[
            """
            def sgd_step(params, lr):
                for p in params:
                    if p.grad is None:
                        continue
                    p.data.sub_(lr * p.grad)
                    p.grad.zero_()
            """
        ],
        mistakes=[
            # Forgets the tensors without a gradient: fails on them with a TypeError.
            mistake(
                """
                def sgd_step(params, lr):
                    with torch.no_grad():
                        for p in params:
                            p -= lr * p.grad
                            p.grad = None
                """,
                ["ex3_hidden"],
            ),
            # Switches grad mode off with a plain call and never back on: its own training test
            # fails, and guard() switches it on again, so the later exercises keep their points.
            mistake(
                """
                def sgd_step(params, lr):
                    torch.set_grad_enabled(False)
                    for p in params:
                        if p.grad is not None:
                            p -= lr * p.grad
                            p.grad = None
                """,
                ["ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        """
        _w = torch.tensor([1.0, -2.0], requires_grad=True)
        _b = torch.tensor(0.5, requires_grad=True)
        _params = [_w, _b]
        ((_w * _w).sum() + 3 * _b).backward()  # gradients: 2w = [2, -4] and 3
        sgd_step(_params, 0.1)
        check(_params[0] is _w and _params[1] is _b, "sgd_step must not replace the tensors in the list")
        check(
            _w.is_leaf and _b.is_leaf,
            "after sgd_step a parameter is no longer a leaf: the update was recorded. Update in place inside torch.no_grad()",
        )
        check_close(_w, [0.8, -1.6], "w should become w - 0.1 * w.grad = [1, -2] - 0.1 * [2, -4]")
        check_close(_b, 0.2, "b should become b - 0.1 * b.grad = 0.5 - 0.1 * 3")
        check(_w.requires_grad and _b.requires_grad, "the parameters should still require grad")
        for _name, _p in [("w", _w), ("b", _b)]:
            if _p.grad is not None:
                check_close(_p.grad, torch.zeros_like(_p), f"{_name}.grad should be None or zeros after sgd_step")
        print("sgd_step passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        """
        # More cases (hidden tests): a parameter without gradient, many steps of training.
        _probe = torch.tensor(1.0, requires_grad=True)
        (_probe * 2).backward()
        sgd_step([_probe], 0.5)
        ### BEGIN HIDDEN TESTS
        # An sgd_step that switches grad mode off costs this test only, not the cells below it.
        try:
            _used = torch.tensor([1.0, 1.0], requires_grad=True)
            _unused = torch.tensor([5.0], requires_grad=True)
            (_used * 3).sum().backward()
            sgd_step([_used, _unused], 1.0)
            check_close(_unused, [5.0], "a parameter whose .grad is None must not change")
            check(_unused.grad is None, "a parameter whose .grad is None should keep grad None")
            check_close(_used, [-2.0, -2.0], "the used parameter should move by -lr * grad")


            def _train(step):
                torch.manual_seed(5)
                w = torch.randn(3, requires_grad=True)
                b = torch.zeros(1, requires_grad=True)
                xs = torch.randn(8, 3)
                ys = xs @ torch.tensor([1.0, -2.0, 0.5]) + 0.3
                for _ in range(60):
                    loss = ((xs @ w + b - ys) ** 2).mean()
                    loss.backward()
                    step([w, b], 0.1)
                return w, b


            def _reference(params, lr):
                with torch.no_grad():
                    for p in params:
                        p -= lr * p.grad
                        p.grad = None


            _w1, _b1 = _train(sgd_step)
            _w2, _b2 = _train(_reference)
            check(_w1.is_leaf and _b1.is_leaf, "training: the parameters should stay leaves")
            check_close(_w1, _w2, "training for 60 steps: wrong weights", atol=1e-4)
            check_close(_b1, _b2, "training for 60 steps: wrong bias", atol=1e-4)
        finally:
            torch.set_grad_enabled(True)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    # ------------------------------------------------------------------ retain_grad
    md(
        "retain_intro",
        """
        ## 4. `retain_grad()`: keeping the gradient of a non-leaf

        Sometimes you do want the gradient of an intermediate result: to see which parts of an
        input a prediction is most sensitive to, or to debug a layer. Call `t.retain_grad()`
        **before** `backward()`. Afterwards `t.grad` holds the gradient, `t.retains_grad` is
        `True`, and `t` is still a non-leaf. On a leaf, `retain_grad()` does nothing (leaves keep
        their gradients anyway); on a tensor that does not require grad, it raises an error.
        """,
    ),
    code(
        "retain_demo",
        """
        w = torch.tensor([0.5, -1.5], requires_grad=True)
        x = torch.tensor([2.0, 3.0])
        wx = w * x
        wx.retain_grad()
        loss = (wx ** 2).sum()
        loss.backward()
        print("wx.grad:", wx.grad, " retains_grad:", wx.retains_grad, " is_leaf:", wx.is_leaf)
        print("w.grad: ", w.grad)
        try:
            x.retain_grad()
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    md(
        "retain_draw_text",
        """
        Drawings mark a tensor that retains its gradient with a blue `retains_grad` badge:
        """,
    ),
    code("retain_draw", "viz.draw(loss)"),
    md(
        "ex4_text",
        """
        ### Exercise 4 (3 points) — will `.grad` be filled?

        Write `will_get_grad(t)`, which returns `True` when a `backward()` through `t` would store
        a gradient in `t.grad`, and `False` otherwise. Decide from the tensor's attributes only,
        without running backward.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def will_get_grad(t):
            \"\"\"Whether backward() would store a gradient in t.grad.\"\"\"
            ### BEGIN SOLUTION
            return (t.is_leaf and t.requires_grad) or t.retains_grad
            ### END SOLUTION
        """,
        alternatives=[
            """
            def will_get_grad(t):
                if t.retains_grad:
                    return True
                return t.grad_fn is None and t.requires_grad
            """
        ],
        mistakes=[
            # Forgets retain_grad.
            mistake(
                """
                def will_get_grad(t):
                    return t.is_leaf and t.requires_grad
                """,
                ["ex4_hidden"],
            )
        ],
    ),
    tests(
        "ex4_visible",
        """
        _param = torch.tensor([1.0, 2.0], requires_grad=True)
        _data = torch.tensor([3.0, 4.0])
        _result = _param * _data
        check(
            bool(will_get_grad(_param)) is True,
            "a tensor you created with requires_grad=True gets its .grad filled",
        )
        check(bool(will_get_grad(_data)) is False, "a tensor that does not require grad gets no gradient")
        check(
            bool(will_get_grad(_result)) is False,
            "a result of an operation (a non-leaf) does not keep its gradient, unless retain_grad() was called",
        )
        print("will_get_grad passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        # More tensors (hidden tests).
        _smoke = will_get_grad(torch.tensor(1.0))
        ### BEGIN HIDDEN TESTS
        import warnings as _warnings

        _cases = []
        _leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        _kept = _leaf * 2
        _kept.retain_grad()
        _cases.append(("a non-leaf after retain_grad()", _kept))
        _cases.append(("a leaf after retain_grad()", torch.tensor(1.0, requires_grad=True)))
        _cases[-1][1].retain_grad()
        _cases.append(("a cast of a leaf", _leaf.double()))
        _cases.append(("a result of no-grad tensors", torch.ones(2) * 3))
        _cases.append(("a scaled tensor made a leaf", (torch.ones(2) * 3).requires_grad_()))
        _cases.append(("a sum of a leaf", _leaf.sum()))
        _cases.append(("an integer tensor", torch.tensor([1, 2])))
        _loss = sum(t.sum() for _, t in _cases if t.requires_grad)
        _before = {id(t): will_get_grad(t) for _, t in _cases}
        _loss.backward()
        with _warnings.catch_warnings():  # reading .grad of a non-leaf warns
            _warnings.simplefilter("ignore")
            for _what, _t in _cases:
                check(bool(_before[id(_t)]) is (_t.grad is not None), f"{_what}: wrong answer")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ casts and devices
    md(
        "cast_intro",
        """
        ## 5. Casts and device moves make non-leaves

        Converting a tensor to another dtype (`.to(torch.float64)`, `.double()`, `.half()`) or
        moving it to another device (`.cuda()`, `.to("cuda")`) is an operation like any other:
        it is differentiable (the gradient is converted back on the way), so it is recorded, and
        its result is **not a leaf**. Its `grad_fn` is `ToCopyBackward0`. When the conversion
        changes nothing, as `.float()` on a `float32` tensor, you get the same tensor back.

        The classic trap is `torch.randn(3, requires_grad=True).cuda()`: the GPU tensor is not a
        leaf, and its `.grad` stays `None`. There is no GPU here, but `.double()` behaves the same
        way on the CPU.
        """,
    ),
    code(
        "cast_demo",
        """
        start = torch.tensor([1.0, 2.0], requires_grad=True)
        wide = start.double()
        print(wide.dtype, " is_leaf:", wide.is_leaf, " grad_fn:", wide.grad_fn.name())
        print("same tensor back from .float():", start.float() is start)
        cast_loss = (wide * wide).sum()
        """,
    ),
    code("cast_draw", "viz.draw(cast_loss)"),
    code(
        "cast_backward",
        """
        cast_loss.backward()
        print("start.grad:", start.grad, start.grad.dtype)  # converted back to float32
        """,
    ),
    code(
        "cast_cuda",
        """
        if torch.cuda.is_available():
            moved = torch.randn(3, requires_grad=True).cuda()
            made_there = torch.randn(3, device="cuda", requires_grad=True)
            print("moved:", moved.is_leaf, moved.grad_fn, " made there:", made_there.is_leaf)
        else:
            print("No GPU here: .cuda() would behave like .double() above, making a non-leaf.")
        """,
    ),
    md(
        "cast_fix",
        """
        The fixes are the ones of section 3: create the tensor with the dtype and device you want
        (`torch.randn(3, dtype=torch.float64, requires_grad=True)`, `device="cuda"`), or convert
        first and call `requires_grad_()` afterwards. (A model's `model.to(...)` is different: it
        replaces the data of its parameters in place, so they stay leaves.)
        """,
    ),
    code(
        "cast_fix_demo",
        """
        made_wide = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        converted_first = torch.tensor([1.0, 2.0]).double().requires_grad_()
        print(made_wide.is_leaf, converted_first.is_leaf)
        """,
    ),
    md(
        "ex5_text",
        f"""
        ### Exercise 5 (3 points) — casts

        Without running it, predict for each tensor whether a `backward()` through it would fill
        its `.grad`:

        ```python
        {_block(EX5_CODE)}
        ```

        Set `gets_grad` to a dict with the keys `"p"` to `"u"`, each mapped to `True` or `False`.
        """,
    ),
    answer(
        "ex5_answer",
        """
        # gets_grad = {"p": True or False, ..., "u": ...}
        ### BEGIN SOLUTION
        gets_grad = {"p": False, "q": True, "r": True, "s": False, "t": True, "u": False}
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                """gets_grad = {"p": False, "q": False, "r": True, "s": False, "t": True, "u": False}""",
                ["ex5_hidden"],
            )
        ],
    ),
    tests(
        "ex5_visible",
        """
        check("gets_grad" in globals(), "gets_grad is not defined: set it in the cell above")
        check(type(gets_grad) is dict, f"gets_grad should be a dict, got {type(gets_grad).__name__}")
        check(
            sorted(gets_grad) == ["p", "q", "r", "s", "t", "u"],
            f"gets_grad should have exactly the keys 'p' to 'u', got {sorted(gets_grad)}",
        )
        for _key, _value in gets_grad.items():
            check(type(_value) is bool, f"gets_grad[{_key!r}] should be True or False, got {_value!r}")
        print("gets_grad has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex5_answer"],
    ),
    tests(
        "ex5_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _gets = dict(gets_grad)
        ### BEGIN HIDDEN TESTS
        import warnings as _warnings
        """,
        EX5_RUN,
        """
        _tensors = _ex5_run()
        sum(t.sum().double() for t in _tensors.values() if t.requires_grad).backward()
        with _warnings.catch_warnings():  # reading .grad of a non-leaf warns
            _warnings.simplefilter("ignore")
            for _key, _t in _tensors.items():
                check(_gets[_key] is (_t.grad is not None), f"gets_grad[{_key!r}] is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex5_answer"],
    ),
    # ------------------------------------------------------------------ requires_grad vs is_leaf
    md(
        "two_questions",
        """
        ## 6. `requires_grad` and `is_leaf` answer different questions

        - `requires_grad`: *is this tensor part of the graph that backward walks?*
        - `is_leaf`: *does the graph end here?* (`grad_fn is None`: nothing before it was recorded)

        | | `is_leaf=True` | `is_leaf=False` |
        |---|---|---|
        | `requires_grad=True` | parameters: an `AccumulateGrad` fills `.grad` | intermediate results: the gradient flows through them to their `grad_fn` |
        | `requires_grad=False` | data, constants, results computed without gradients | cannot happen: a recorded result always requires grad |

        A tensor's `.grad` is filled when it is in the top-left cell, or when it retains its
        gradient. You can switch `requires_grad` only on leaves: a non-leaf requires grad because
        of its inputs, and turning that off would cut the graph.
        """,
    ),
    md(
        "two_questions_draw_text",
        """
        One drawing with every kind: `param` (green, a leaf that requires grad: it has a `grad`),
        `data` and the unnamed `data * 2` (grey: leaves that need no gradient, although one of them
        was computed), `scaled` (yellow, a non-leaf that keeps its gradient because of
        `retain_grad()`), and the other yellow results, which keep nothing.
        """,
    ),
    code(
        "two_questions_draw",
        """
        param = torch.tensor([1.0, -1.0], requires_grad=True)
        data = torch.tensor([2.0, 0.5])
        scaled = param * data
        scaled.retain_grad()
        all_kinds = (scaled + data * 2).sum()
        all_kinds.backward(retain_graph=True)  # keeps what the graph saved, so the drawing can name data
        viz.draw(all_kinds)
        """,
    ),
    code(
        "two_questions_demo",
        """
        made = torch.tensor([1.0, 2.0], requires_grad=True) * 2
        try:
            made.requires_grad = False
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    question(
        "ex6_question",
        """
        ### Exercise 6 (3 points, graded by hand) — advice for a classmate

        A classmate's model computes `hidden = (w1 @ x).relu()` and then a loss from `hidden`. They
        want to see the gradient of the loss with respect to `hidden`, and they reason: *"Only
        leaves get `.grad`, so I will add `hidden.requires_grad = True`."*

        In a few sentences: what happens when they run this line, and why? What should they do
        instead? And, in one sentence each, what do `requires_grad` and `is_leaf` tell you about a
        tensor?
        """,
    ),
    written(
        "ex6_answer",
        """
        `hidden` already requires grad, because `w1` does; it is a non-leaf (its `grad_fn` is
        `ReluBackward0`), and `requires_grad` can only be changed on leaves, so the line raises a
        `RuntimeError`. Even if it did not, requiring grad does not make a tensor keep its
        gradient: backward passes the gradient of a non-leaf on to its `grad_fn` and stores
        nothing. They should call `hidden.retain_grad()` before `loss.backward()` (or register a
        hook, or use `torch.autograd.grad(loss, hidden)`), then read `hidden.grad`.

        `requires_grad` says whether the tensor takes part in the graph that backward walks, that
        is whether gradients with respect to it are computed at all; `is_leaf` says whether the
        graph ends at this tensor (no recorded operation made it, `grad_fn is None`), which is
        where backward stores gradients by default.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - A leaf is a tensor that no recorded operation made (`grad_fn is None`): everything you
          create, and everything computed without gradients.
        - `backward()` stores gradients only in leaves that require grad; at a non-leaf the
          gradient flows on to its `grad_fn`.
        - The `NoneType` error means you read `.grad` of a non-leaf. Keep the scaled tensor a
          leaf (scale first, then `requires_grad_()`), update parameters in place under
          `torch.no_grad()`, or call `retain_grad()` if you only want to look.
        - `.double()`, `.to(...)` and `.cuda()` are recorded operations: their results are not
          leaves. Create tensors with the right dtype and device instead.
        - `requires_grad`: part of the graph; `is_leaf`: the graph ends here.

        Next, notebook 03 looks at `backward()` itself: non-scalar outputs, accumulation,
        `retain_graph` and `autograd.grad`. Before you hand in: *Kernel → Restart Kernel and Run
        All Cells*.
        """,
    ),
]
