# ruff: noqa: N999 - the module is named after its notebook, 04_hooks
"""Assignment 04: tensor hooks on leaves and non-leaves, handles, clipping, debugging gradient flow,
retain_grad as a hook, post-accumulate hooks, the backward player."""

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written

EX1_CODE = """
v = torch.tensor([1.0, -1.0], requires_grad=True)
h1 = v.register_hook(lambda g: g + 1)
h2 = v.register_hook(lambda g: g * 3)
(v * 2).sum().backward()
grad_one = v.grad.clone()
h1.remove()
v.grad = None
(v * 2).sum().backward()
grad_two = v.grad.clone()
"""

EX5_CODE = """
a = torch.tensor([1.0, 2.0], requires_grad=True)
h1 = a * 2
h2 = h1.exp()
loss = h2.sum() + (a * 3).sum()
fired = []
a.register_hook(lambda g: fired.append("hook_a"))
h1.register_hook(lambda g: fired.append("hook_h1"))
h2.register_hook(lambda g: fired.append("hook_h2"))
a.register_post_accumulate_grad_hook(lambda p: fired.append("post_a"))
loss.backward()
"""


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


# Exercise 4's statement says the warning on reading a non-leaf's .grad "does no harm": an answer
# that does not silence it must lose nothing, but nbgrader scores a test cell with any output on
# stderr 0, so its test cells silence that one warning.
QUIET_NONLEAF_GRAD = """
import warnings

# Reading t.grad of a non-leaf while it is None warns: harmless, and no reason to lose points.
warnings.filterwarnings("ignore", message="The .grad attribute of a Tensor that is not a leaf")
"""

EX1_RUN = "def _ex1_run():\n" + _indent(EX1_CODE) + "\n    return grad_one, grad_two\n"
EX5_RUN = "def _ex5_run():\n" + _indent(EX5_CODE) + "\n    return fired\n"

CELLS = [
    md(
        "intro",
        """
        # Assignment 04 — Hooks: watching and changing gradients on their way

        So far `backward()` ran from start to end and we looked at the results. A **hook** is a
        function of yours that autograd calls *during* the backward pass, with the gradient that
        has just been computed. It can look at the gradient, or replace it before it is used.

        You will learn to

        - register hooks on leaves and on intermediate tensors, and remove them again;
        - change a gradient on the fly, for example to clip it;
        - find where the gradient of a network vanishes;
        - see `retain_grad()` as a hook, and rebuild it;
        - run code right after a leaf's `.grad` is updated (post-accumulate hooks);
        - watch hooks fire, step by step, with the backward player.
        """,
        how_to_work(60),
    ),
    setup(),
    # ------------------------------------------------------------------ leaf hooks
    md(
        "leaf_intro",
        """
        ## 1. A hook on a leaf

        `t.register_hook(fn)` asks autograd to call `fn(grad)` as soon as the gradient with
        respect to `t` is known, before it is used. The hook decides what happens next:

        - it returns `None`: it only looked, and the gradient goes on unchanged;
        - it returns a tensor (same shape, dtype and device): that tensor **replaces** the gradient.

        On a leaf, what the hooks leave is what `AccumulateGrad` adds into `.grad`.
        """,
    ),
    code(
        "leaf_look",
        """
        w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


        def show_grad(grad):
            print("the hook sees", grad)


        w.register_hook(show_grad)
        loss = (w * torch.tensor([0.5, -1.0, 2.0])).sum()
        viz.draw(loss)
        """,
    ),
    md(
        "leaf_look_text",
        """
        The drawing marks the registered hook with a purple badge that names its function. Now
        run the backward pass:
        """,
    ),
    code(
        "leaf_look_run",
        """
        loss.backward()
        print("w.grad:", w.grad)
        """,
    ),
    code(
        "leaf_replace",
        """
        b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b.register_hook(lambda grad: grad * 10)
        (b**2).sum().backward()
        print(b.grad)  # 10 times 2b
        """,
    ),
    # ------------------------------------------------------------------ handles
    md(
        "handles",
        """
        ## 2. Handles and `remove()`

        `register_hook` returns a **handle**. `handle.remove()` unregisters the hook; a handle used
        in a `with` block removes its hook when the block ends. Several hooks on one tensor run in
        the order they were registered, and each one receives what the one before returned.
        """,
    ),
    code(
        "handles_demo",
        """
        c = torch.tensor([1.0, 1.0], requires_grad=True)
        add_one = c.register_hook(lambda grad: grad + 1)
        halve = c.register_hook(lambda grad: grad / 2)
        (c * 4).sum().backward()
        print("both hooks:   ", c.grad)  # (4 + 1) / 2

        add_one.remove()
        c.grad = None
        (c * 4).sum().backward()
        print("after remove: ", c.grad)  # 4 / 2

        halve.remove()
        c.grad = None
        with c.register_hook(lambda grad: grad * 0):
            (c * 4).sum().backward()
        print("inside with:  ", c.grad)
        c.grad = None
        (c * 4).sum().backward()
        print("after with:   ", c.grad)
        """,
    ),
    md(
        "ex1_text",
        f"""
        ### Exercise 1 (3 points) — hooks in a row

        Without running it, predict `grad_one` and `grad_two`:

        ```python
        {_block(EX1_CODE)}
        ```

        Set `grad_one` and `grad_two` to lists of two numbers.
        """,
    ),
    answer(
        "ex1_answer",
        """
        # grad_one = [number, number]; grad_two = [number, number]
        ### BEGIN SOLUTION
        grad_one = [9.0, 9.0]
        grad_two = [6.0, 6.0]
        ### END SOLUTION
        """,
        alternatives=[
            """
            import numpy as np

            upstream = np.full(2, 2.0, dtype=np.float32)  # the gradient of (v * 2).sum()
            grad_one = list((upstream + 1) * 3)
            grad_two = list(upstream * 3)
            """
        ],
        mistakes=[mistake("grad_one = [7.0, 7.0]\ngrad_two = [6.0, 6.0]", ["ex1_hidden"])],
    ),
    tests(
        "ex1_visible",
        """
        for _name in ["grad_one", "grad_two"]:
            check(_name in globals(), f"{_name} is not defined: set it in the cell above")
            _value = globals()[_name]
            check(
                type(_value) in (list, tuple) and len(_value) == 2 and all(is_number(x) for x in _value),
                f"{_name} should be a list of two numbers (v has two elements), got {_value!r}",
            )
        print("grad_one and grad_two have the right form. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # Graded on the values (hidden tests).
        _answers = (list(grad_one), list(grad_two))
        ### BEGIN HIDDEN TESTS
        """,
        EX1_RUN,
        """
        _one, _two = _ex1_run()
        check_close(_answers[0], _one, "grad_one is wrong")
        check_close(_answers[1], _two, "grad_two is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ non-leaf hooks
    md(
        "nonleaf_intro",
        """
        ## 3. Hooks on intermediate tensors

        A hook on a non-leaf `h` receives the gradient of the loss with respect to `h`, on its way
        through the graph: the very gradient that `h` does not keep (notebook 02). What the hook
        returns is what `h`'s `grad_fn` uses, so a change **flows on** to everything `h` was
        computed from.
        """,
    ),
    code(
        "nonleaf_demo",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        h.register_hook(lambda grad: print("gradient arriving at h:", grad))
        h.register_hook(lambda grad: grad * 0.5)
        loss = (h**2).sum()
        viz.draw_backward(loss)
        """,
    ),
    md(
        "nonleaf_text",
        """
        In the autograd view, the hooks of `h` sit on the node that made `h`: they run when its
        gradient has arrived, just before that node passes it on.
        """,
    ),
    code(
        "nonleaf_run",
        """
        trace = viz.trace_backward(loss)  # the same as loss.backward(), step by step
        print("x.grad:", x.grad)  # 3 * (half of 2h), instead of 3 * 2h
        trace.draw()
        """,
    ),
    md(
        "nonleaf_run_text",
        """
        The red arrows carry the gradients as they were sent: `[6., 12.]` arrives at the node of
        `h`, which receives `[3., 6.]` once the hooks have run, and sends `[9., 18.]` on to `x`.
        """,
    ),
    # ------------------------------------------------------------------ clipping
    md(
        "clip_intro",
        """
        ## 4. Changing a gradient on the fly: clipping

        One unlucky batch can produce a huge gradient, and one huge step can undo hours of
        training. *Gradient clipping* limits the size of a gradient: when its norm
        ‖g‖ = sqrt(Σ gᵢ²) is larger than a threshold, scale it down to that norm, keeping its
        direction. As a hook this happens during backward; on an intermediate tensor it also
        limits what reaches everything before it.
        """,
    ),
    md(
        "ex2_text",
        """
        ### Exercise 2 (4 points) — a clipping hook

        Write `clip_hook(max_norm)`, which **returns a hook function**. The hook receives a
        gradient `g`:

        - if `g.norm()` is larger than `max_norm`, it returns `g * (max_norm / g.norm())`: the same
          direction, with norm `max_norm`;
        - otherwise it returns `g` unchanged (or `None`);
        - it must not change `g` itself (no in-place operations on it): other hooks may hold it.

        Use it as `t.register_hook(clip_hook(1.0))`. A function that defines and returns an inner
        function is all it takes.
        """,
    ),
    answer(
        "ex2_answer",
        """
        def clip_hook(max_norm):
            \"\"\"A hook that scales a gradient down to norm max_norm when it is larger.\"\"\"
            ### BEGIN SOLUTION
            def hook(grad):
                norm = grad.norm()
                if norm > max_norm:
                    return grad * (max_norm / norm)
                return grad

            return hook
            ### END SOLUTION
        """,
        alternatives=[
            """
            import math


            class clip_hook:
                def __init__(self, max_norm):
                    self.max_norm = max_norm

                def __call__(self, g):
                    norm = math.sqrt((g * g).sum().item())
                    if norm <= self.max_norm:
                        return None
                    return g / norm * self.max_norm
            """
        ],
        mistakes=[
            # Scales the gradient in place: right values, but it changes the tensor other hooks hold.
            mistake(
                """
                def clip_hook(max_norm):
                    def hook(g):
                        norm = g.norm()
                        if norm > max_norm:
                            g.mul_(max_norm / norm)
                        return g

                    return hook
                """,
                ["ex2_hidden"],
            )
        ],
    ),
    tests(
        "ex2_visible",
        """
        _hook = clip_hook(1.0)
        check(callable(_hook), f"clip_hook(1.0) should return a function (the hook), got {_hook!r}")
        _w = torch.tensor([1.0, 1.0], requires_grad=True)
        _w.register_hook(clip_hook(1.0))
        (_w * torch.tensor([3.0, 4.0])).sum().backward()  # the gradient is [3, 4], of norm 5
        check_close(_w.grad, [0.6, 0.8], "a gradient [3, 4] of norm 5 clipped to norm 1 should become [0.6, 0.8]")
        _small = torch.tensor([1.0, 1.0], requires_grad=True)
        _small.register_hook(clip_hook(10.0))
        (_small * torch.tensor([3.0, 4.0])).sum().backward()
        check_close(_small.grad, [3.0, 4.0], "a gradient of norm 5 is below max_norm=10 and should stay [3, 4]")
        print("clip_hook passes the visible tests.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # More cases (hidden tests): intermediate tensors, matrices, zero gradients, other hooks.
        _smoke = clip_hook(1.0)(torch.tensor([2.0]))
        ### BEGIN HIDDEN TESTS
        _x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
        _h = _x * 2
        _h.register_hook(clip_hook(0.5))
        (_h * torch.tensor([0.0, 6.0, 8.0])).sum().backward()
        check_close(_x.grad, [0.0, 0.6, 0.8], "clipping at an intermediate tensor changes what reaches x")
        torch.manual_seed(4)
        _m = torch.randn(3, 4, requires_grad=True)
        _m.register_hook(clip_hook(2.0))
        _scale = torch.randn(3, 4) * 10
        (_m * _scale).sum().backward()
        check_close(_m.grad, _scale * (2.0 / _scale.norm().item()), "a 2-D gradient", atol=1e-5)
        check_close(_m.grad.norm(), 2.0, "the clipped gradient should have norm max_norm", atol=1e-5)
        _z = torch.tensor([1.0, 2.0], requires_grad=True)
        _z.register_hook(clip_hook(1.0))
        (_z * 0).sum().backward()
        check_close(_z.grad, [0.0, 0.0], "a zero gradient stays zero")
        _edge = torch.tensor([1.0, 1.0], requires_grad=True)
        _edge.register_hook(clip_hook(5.0))
        (_edge * torch.tensor([3.0, 4.0])).sum().backward()
        check_close(_edge.grad, [3.0, 4.0], "a gradient whose norm equals max_norm stays as it is")
        _held = []
        _p = torch.tensor([1.0, 1.0], requires_grad=True)
        _p.register_hook(lambda g: _held.append((g, g.tolist())))
        _p.register_hook(clip_hook(1.0))
        (_p * torch.tensor([30.0, 40.0])).sum().backward()
        check_close(_p.grad, [0.6, 0.8], "clipping after another hook")
        check_close(_held[0][0], _held[0][1], "the hook must not change the gradient it receives in place")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex2_answer"],
    ),
    # ------------------------------------------------------------------ debugging
    md(
        "debug_intro",
        """
        ## 5. Debugging gradient flow

        When a network stops learning, a common cause is a gradient that vanishes somewhere
        between the loss and the first layers. Hooks on the intermediate results show the
        gradient layer by layer, without changing the model's code or its results. Below, a small
        network whose second layer has a bias so negative that its ReLU outputs only zeros (a
        "dead" layer). A small factory makes one printing hook per layer; it takes the name as an
        argument, so each hook keeps its own name.
        """,
    ),
    code(
        "debug_demo",
        """
        torch.manual_seed(0)
        inputs = torch.randn(4)
        weights = [torch.randn(4, 4, requires_grad=True) for _ in range(3)]
        biases = [torch.zeros(4, requires_grad=True), torch.full((4,), -20.0, requires_grad=True), torch.zeros(4, requires_grad=True)]


        def report(name):
            def print_norm(grad):
                print(f"gradient at {name}: norm {grad.norm().item():.4f}")

            return print_norm


        act = inputs
        for i, (W, bias) in enumerate(zip(weights, biases)):
            pre = W @ act + bias
            act = pre.relu() if i < 2 else pre  # ReLU after layers 0 and 1, none after the last
            act.register_hook(report(f"layer {i} output"))
        net_loss = act.sum()
        net_loss.backward()
        for i, (W, bias) in enumerate(zip(weights, biases)):
            print(f"layer {i}: weights grad norm {W.grad.norm().item():.4f}, bias grad norm {bias.grad.norm().item():.4f}")
        """,
    ),
    md(
        "debug_read",
        """
        Read it from the top, the order in which backward runs: the outputs of layers 2 and 1
        receive gradients, but all the inputs of layer 1's ReLU are negative (the bias of -20),
        so it passes no gradient back, and everything before it gets zero: layers 0 and 1 would
        never learn. (The weights of layer 2 get zero too, for another reason: their gradient is
        built from their input, the all-zero output of layer 1. Only its bias learns.) The drawing
        of the same network, with shapes instead of values, shows where the hooks sit:
        """,
    ),
    code(
        "debug_draw",
        """
        names = {"net_loss": net_loss}
        names.update({f"weights[{i}]": W for i, W in enumerate(weights)})
        names.update({f"biases[{i}]": bias for i, bias in enumerate(biases)})
        viz.draw_backward(net_loss, names=names, show_values=False)
        """,
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — a gradient recorder

        Write `record_grad_norms(named)`. `named` is a dict from names to tensors that require
        grad (leaves or not). Register one hook on each tensor, and return a pair
        `(norms, handles)`:

        - `norms` is a dict, empty at first; whenever a gradient arrives at one of the tensors,
          its hook stores `norms[name] = <the norm of that gradient, as a Python float>`,
          replacing any earlier value (so after several backward passes it holds the latest);
        - `handles` is a list of the handles of the hooks you registered;
        - the hooks only look: the gradients must not change.

        One trap: a `lambda` written inside a loop sees the loop variable's *last* value when it
        runs. Use a factory like `report` above, or a default argument (`lambda g, name=name: ...`).
        """,
    ),
    answer(
        "ex3_answer",
        """
        def record_grad_norms(named):
            \"\"\"Hooks that record the norm of each named tensor's gradient; returns (norms, handles).\"\"\"
            ### BEGIN SOLUTION
            norms = {}

            def recorder(name):
                def hook(grad):
                    norms[name] = grad.norm().item()

                return hook

            handles = [t.register_hook(recorder(name)) for name, t in named.items()]
            return norms, handles
            ### END SOLUTION
        """,
        alternatives=[
            """
            import math


            def record_grad_norms(named):
                norms = {}
                handles = []
                for name, tensor in named.items():
                    def hook(g, name=name):
                        norms[name] = float(math.sqrt(sum(v * v for v in g.flatten().tolist())))
                        return None

                    handles.append(tensor.register_hook(hook))
                return norms, handles
            """,
            # A dict subclass and NumPy's float64 (a float subclass) are a dict and floats too.
            """
            from collections import defaultdict

            import numpy as np


            def record_grad_norms(named):
                norms = defaultdict(float)
                return norms, [
                    t.register_hook(lambda g, key=key: norms.__setitem__(key, np.linalg.norm(g.double().numpy())))
                    for key, t in named.items()
                ]
            """,
        ],
        mistakes=[
            # Keeps the first value instead of the latest.
            mistake(
                """
                def record_grad_norms(named):
                    norms = {}
                    handles = []
                    for name, tensor in named.items():
                        handles.append(tensor.register_hook(lambda g, name=name: norms.setdefault(name, g.norm().item()) and None))
                    return norms, handles
                """,
                ["ex3_hidden"],
            ),
            # The norms kept as tensors, not Python floats.
            mistake(
                """
                def record_grad_norms(named):
                    norms, handles = {}, []
                    for k, v in named.items():
                        handles.append(v.register_hook(lambda g, k=k: norms.__setitem__(k, g.norm())))
                    return norms, handles
                """,
                ["ex3_visible", "ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        """
        _a = torch.tensor([3.0, 4.0], requires_grad=True)
        _h = _a * 2
        _result = record_grad_norms({"a": _a, "h": _h})
        check(type(_result) is tuple and len(_result) == 2, "record_grad_norms should return a pair (norms, handles)")
        _norms, _handles = _result
        check(isinstance(_norms, dict), f"norms should be a dict, got {type(_norms).__name__}")
        check(_norms == {}, f"norms should be empty before any backward pass, got {_norms}")
        check(
            type(_handles) is list and len(_handles) == 2 and all(hasattr(x, "remove") for x in _handles),
            "handles should be a list with the handle of each registered hook",
        )
        (_h * _h).sum().backward()  # gradient at h: 2h = [12, 16] (norm 20); at a: 2 * 2h (norm 40)
        check(
            sorted(_norms) == ["a", "h"],
            f"after backward, norms should have the keys 'a' and 'h', got {sorted(_norms)}. If a name is "
            "missing, check that each hook uses its own name (see the trap about lambdas in a loop)",
        )
        check(all(isinstance(v, float) for v in _norms.values()), f"the norms should be Python floats (use .item()), got {_norms}")
        check_close(_norms["h"], 20.0, "norms['h'] should be the norm of the gradient at h, [12, 16]")
        check_close(_norms["a"], 40.0, "norms['a'] should be the norm of the gradient at a, [24, 32]")
        check_close(_a.grad, [24.0, 32.0], "the hooks must not change the gradients")
        print("record_grad_norms passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        """
        # More cases (hidden tests): several passes, removed hooks, tensors without gradient.
        _smoke = record_grad_norms({})
        ### BEGIN HIDDEN TESTS
        _p = torch.tensor([1.0, 0.0], requires_grad=True)
        _q = torch.tensor([0.0, 2.0], requires_grad=True)
        _s = _p + _q
        _norms, _handles = record_grad_norms({"p": _p, "q": _q, "s": _s})
        (_s * torch.tensor([3.0, 4.0])).sum().backward(retain_graph=True)
        check(sorted(_norms) == ["p", "q", "s"], "first pass: every tensor should be recorded")
        check_close([_norms["p"], _norms["q"], _norms["s"]], [5.0, 5.0, 5.0], "first pass")
        check(
            all(isinstance(v, float) for v in _norms.values()),
            f"the norms should be Python floats (.item()), not {sorted({type(v).__name__ for v in _norms.values()})}",
        )
        (_s * torch.tensor([0.0, 1.0])).sum().backward()
        check_close(_norms["s"], 1.0, "after a second pass, norms should hold the latest value")
        check_close(_norms["p"], 1.0, "after a second pass, norms should hold the latest value (leaf)")
        for _handle in _handles:
            _handle.remove()
        (_p * 100).sum().backward()
        check_close(_norms["p"], 1.0, "after the handles are removed, nothing should be recorded any more")
        _r = torch.tensor([1.0], requires_grad=True)
        _unused = torch.tensor([1.0], requires_grad=True)
        _norms, _handles = record_grad_norms({"r": _r, "unused": _unused})
        (_r * 2).sum().backward()
        check(sorted(_norms) == ["r"], "a tensor no gradient reached should not appear in norms")
        check_close(_r.grad, [2.0], "the hooks must not change the gradient of a leaf")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    # ------------------------------------------------------------------ retain_grad as a hook
    md(
        "retain_intro",
        """
        ## 6. `retain_grad()` is a hook

        `t.retain_grad()` on a non-leaf is a hook too, one that autograd registers for you: when
        the gradient of `t` arrives, it stores it in `t.grad` (adding it to what is there). It
        always runs **after** the tensor's other hooks, so it keeps the gradient as they left it,
        which is also what flows on.
        """,
    ),
    code(
        "retain_demo",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        h.retain_grad()
        h.register_hook(lambda grad: grad * 2)  # registered later, but runs before retain_grad's hook
        retain_loss = (h * h).sum()
        viz.draw_backward(retain_loss)
        """,
    ),
    md(
        "retain_draw_text",
        """
        Both marks sit on the node that made `h`: the hook, and `retains_grad`.
        """,
    ),
    code(
        "retain_run",
        """
        retain_loss.backward()
        print("h.grad:", h.grad)  # 2 * (2h)
        print("x.grad:", x.grad)
        """,
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — `retain_grad`, rebuilt

        Write `my_retain_grad(t)` for a non-leaf `t`: with `register_hook` only (no
        `retain_grad()`), make every backward pass through `t` store its gradient in `t.grad`,
        the way `retain_grad()` does:

        - if `t.grad` is `None`, store a copy of the gradient (`grad.clone()`);
        - otherwise store `t.grad + grad` (so setting `t.grad = None` starts again);
        - do not change the gradient that flows on;
        - return the handle of your hook, so that `handle.remove()` stops the storing.

        Reading `t.grad` of a non-leaf warns while it is `None`. The warning does no harm; to
        silence it, read it inside `with warnings.catch_warnings():` after
        `warnings.simplefilter("ignore")` (`import warnings` first).
        """,
    ),
    answer(
        "ex4_answer",
        """
        import warnings


        def my_retain_grad(t):
            \"\"\"Store every gradient of the non-leaf t in t.grad, like t.retain_grad(); returns the handle.\"\"\"
            ### BEGIN SOLUTION
            def keep(grad):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    current = t.grad
                t.grad = grad.clone() if current is None else current + grad

            return t.register_hook(keep)
            ### END SOLUTION
        """,
        alternatives=[
            """
            import warnings


            def my_retain_grad(t):
                def store(g):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        if t.grad is None:
                            t.grad = torch.zeros_like(g)
                    t.grad = t.grad + g
                    return g

                handle = t.register_hook(store)
                return handle
            """,
            # The warning left as it is ("the warning does no harm"): it goes to stderr while the
            # tests run, which nbgrader would score 0 if the tests did not silence it.
            """
            def my_retain_grad(t):
                def store(grad):
                    if t.grad is None:
                        t.grad = grad.clone()
                    else:
                        t.grad = t.grad + grad

                return t.register_hook(store)
            """,
        ],
        mistakes=[
            # Overwrites instead of adding: right after one pass, wrong after two.
            mistake(
                """
                def my_retain_grad(t):
                    def keep(grad):
                        t.grad = grad.clone()

                    return t.register_hook(keep)
                """,
                ["ex4_hidden"],
            ),
            # No copy the first time, but t.grad + grad afterwards: t.grad is then the expanded
            # gradient of a sum itself, which cannot be changed in place (t.grad.mul_(0.5)).
            mistake(
                """
                import warnings


                def my_retain_grad(t):
                    def hook(g):
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            t.grad = g if t.grad is None else t.grad + g

                    return t.register_hook(hook)
                """,
                ["ex4_hidden"],
            ),
            # No copy the first time, then += in place: it changes the gradient it was given,
            # which fails when that is the expanded gradient of a sum.
            mistake(
                """
                import warnings


                def my_retain_grad(t):
                    def hook(grad):
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            if t.grad is None:
                                t.grad = grad
                            else:
                                t.grad += grad

                    return t.register_hook(hook)
                """,
                ["ex4_hidden"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        QUIET_NONLEAF_GRAD,
        """
        _x = torch.tensor([1.0, 2.0], requires_grad=True)
        _h = _x * 3
        _handle = my_retain_grad(_h)
        check(hasattr(_handle, "remove"), f"my_retain_grad should return the handle of the hook it registered, got {_handle!r}")
        (_h * _h).sum().backward()
        check(_h.grad is not None, "after backward, h.grad is still None: the hook should store the gradient in t.grad")
        check_close(_h.grad, [6.0, 12.0], "h.grad should hold the gradient of (h * h).sum() with respect to h, 2h")
        check_close(_x.grad, [18.0, 36.0], "the gradient flowing on to x must not change")
        check(not _h.is_leaf, "h must stay a non-leaf")
        print("my_retain_grad passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        QUIET_NONLEAF_GRAD,
        """
        # More cases (hidden tests): several passes, removal, a tensor used twice, other shapes.
        _smoke = my_retain_grad(torch.tensor([1.0], requires_grad=True) * 2)
        ### BEGIN HIDDEN TESTS
        def _twin(build):
            # the same graph twice: once with retain_grad(), once with my_retain_grad()
            x1 = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
            x2 = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
            t1, out1 = build(x1)
            t2, out2 = build(x2)
            t1.retain_grad()
            handle = my_retain_grad(t2)
            return (x1, t1, out1), (x2, t2, out2), handle


        def _build(x):
            t = x.tanh()
            return t, (t * t + t).sum()


        _ref, _mine, _handle = _twin(_build)
        _ref[2].backward(retain_graph=True)
        _mine[2].backward(retain_graph=True)
        check_close(_mine[1].grad, _ref[1].grad, "a tensor used twice: one gradient, the sum of both uses")
        check_close(_mine[0].grad, _ref[0].grad, "the gradient flowing on must not change")
        _ref[2].backward(retain_graph=True)
        _mine[2].backward(retain_graph=True)
        check_close(_mine[1].grad, _ref[1].grad, "a second pass should add to t.grad")
        _ref[1].grad = None
        _mine[1].grad = None
        _ref[2].backward(retain_graph=True)
        _mine[2].backward(retain_graph=True)
        check_close(_mine[1].grad, _ref[1].grad, "after t.grad = None, the next pass should start again")
        _handle.remove()
        _kept = _mine[1].grad.tolist()
        _mine[2].backward()
        check_close(_mine[1].grad, _kept, "after handle.remove(), t.grad should not change any more")
        # The gradient of a sum is one number spread over the shape (expanded): keeping it and
        # then adding to it in place fails, as in PyTorch. Hence the copy the statement asks for.
        _x = torch.tensor([1.0, 2.0], requires_grad=True)
        _h = _x * 3
        my_retain_grad(_h)
        try:
            _h.sum().backward(retain_graph=True)
            _h.sum().backward()
            _error = None
        except RuntimeError as _err:
            _error = _err
        check(
            _error is None,
            f"two passes of h.sum().backward() raised {_error}: store a copy of the gradient the "
            "first time (grad.clone()), and add with t.grad + grad rather than in place",
        )
        check_close(_h.grad, [2.0, 2.0], "two passes of h.sum().backward(): h.grad should be [2, 2]")
        # After one pass t.grad is the caller's to change in place (scaled, as clipping does), as
        # with retain_grad(): a copy can be, the expanded gradient of a sum itself cannot.
        _x = torch.tensor([1.0, 2.0], requires_grad=True)
        _h = _x * 3
        my_retain_grad(_h)
        _h.sum().backward()
        try:
            _h.grad.mul_(0.5)
            _error = None
        except RuntimeError as _err:
            _error = _err
        check(
            _error is None,
            f"h.grad.mul_(0.5) after one h.sum().backward() raised {_error} (with retain_grad() it "
            "works): store a copy of the gradient (grad.clone()), not the gradient itself",
        )
        check_close(_h.grad, [0.5, 0.5], "h.grad after one h.sum().backward() and h.grad.mul_(0.5)")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ post-accumulate hooks
    md(
        "post_intro",
        """
        ## 7. Post-accumulate-grad hooks

        A tensor hook on a leaf runs *before* the gradient is added into `.grad`.
        `leaf.register_post_accumulate_grad_hook(fn)` runs `fn(leaf)` *after* it: `fn` receives the
        tensor itself and sees its updated `.grad`. Only leaves have them. One use: update each
        parameter the moment its gradient is complete, during the backward pass, and free the
        gradient at once, so that all the gradients never have to be in memory together.
        """,
    ),
    code(
        "post_demo",
        """
        params = [torch.tensor([1.0, -1.0], requires_grad=True), torch.tensor(0.5, requires_grad=True)]


        def step_now(p):
            with torch.no_grad():
                p -= 0.1 * p.grad
            p.grad = None


        for p in params:
            p.register_post_accumulate_grad_hook(step_now)
        fused_loss = (params[0] ** 2).sum() * params[1]
        viz.draw(fused_loss, names={"params[0]": params[0], "params[1]": params[1], "fused_loss": fused_loss})
        """,
    ),
    code(
        "post_run",
        """
        fused_loss.backward()
        print(params)  # already updated
        print([p.grad for p in params])  # already freed
        """,
    ),
    code(
        "post_error",
        """
        try:
            (params[0] * 2).register_post_accumulate_grad_hook(step_now)
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    # ------------------------------------------------------------------ backward player
    md(
        "player_intro",
        """
        ## 8. Watching hooks fire: the backward player

        `viz.trace_backward(loss)` runs the backward pass and records each step, including every
        hook that fired, what it received and what it returned. `viz.BackwardPlayer(trace)` shows
        the trace with a play button and a slider: at each step, the node that runs is
        highlighted, the arrows carry the gradients sent so far, and the caption says which hooks
        fired. (The player needs a running kernel; the printed captions below show the same.)
        """,
    ),
    code(
        "player_setup",
        """
        x = torch.tensor([0.5, -1.0], requires_grad=True)
        scale = torch.tensor(3.0, requires_grad=True)
        hidden = x * scale


        def double_it(grad):
            return grad * 2


        def look(grad):
            return None


        def after_scale(tensor):
            return None


        hidden.register_hook(double_it)
        x.register_hook(look)
        scale.register_post_accumulate_grad_hook(after_scale)
        out = (hidden**2).sum()
        trace = viz.trace_backward(out)
        for step in range(trace.steps):
            print(trace.describe(step))
        """,
    ),
    code("player", "viz.BackwardPlayer(trace)"),
    md(
        "player_step_text",
        """
        One step of the trace, drawn on its own with `trace.draw(k)`: here the first step at which
        a hook fired. Each frame of `trace.frames` lists the hooks that fired at its step.
        """,
    ),
    code(
        "player_step",
        """
        first_hook = next(frame for frame in trace.frames if frame.hooks)
        print([hook.name for hook in first_hook.hooks], "fired at step", first_hook.step)
        trace.draw(first_hook.step)
        """,
    ),
    md(
        "ex5_text",
        f"""
        ### Exercise 5 (3 points) — in which order do hooks fire?

        Without running it, predict the list `fired` after this code:

        ```python
        {_block(EX5_CODE)}
        ```

        Think about when each node of the graph runs, how often `a` receives a gradient, and
        when each kind of hook runs. Set `firing_order` to the list you predict (each firing is
        one entry).
        """,
    ),
    answer(
        "ex5_answer",
        """
        # firing_order = ["...", ...]
        ### BEGIN SOLUTION
        firing_order = ["hook_h2", "hook_h1", "hook_a", "post_a"]
        ### END SOLUTION
        """,
        mistakes=[mistake('firing_order = ["hook_h2", "hook_h1", "hook_a", "hook_a", "post_a"]', ["ex5_hidden"])],
    ),
    tests(
        "ex5_visible",
        """
        check("firing_order" in globals(), "firing_order is not defined: set it in the cell above")
        check(type(firing_order) is list, f"firing_order should be a list, got {type(firing_order).__name__}")
        _known = {"hook_a", "hook_h1", "hook_h2", "post_a"}
        check(
            all(type(x) is str and x in _known for x in firing_order),
            f"firing_order should contain only the names {sorted(_known)}, got {firing_order!r}",
        )
        print("firing_order has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex5_answer"],
    ),
    tests(
        "ex5_hidden",
        """
        # Graded on the value (hidden tests).
        _order = list(firing_order)
        ### BEGIN HIDDEN TESTS
        """,
        EX5_RUN,
        """
        check_equal(_order, _ex5_run(), "firing_order is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex5_answer"],
    ),
    # ------------------------------------------------------------------ written answer
    question(
        "ex6_question",
        """
        ### Exercise 6 (3 points, graded by hand) — two ways to stop a gradient

        A network computes `hidden = layer1(x)` and `loss = layer2(hidden)`; both layers have
        parameters. Compare:

        - (A) before `loss.backward()`, register `hidden.register_hook(lambda g: g * 0)`;
        - (B) after `loss.backward()`, call `p.grad.zero_()` for the parameters `p` of `layer2`.

        In a few sentences: after each of them, which parameters have a zero gradient and which a
        non-zero one, and why? What does this tell you about where a hook acts?
        """,
    ),
    written(
        "ex6_answer",
        """
        (A) The hook changes the gradient while backward is running, at `hidden`: what flows on
        from `hidden` into `layer1` is zero, so every parameter of `layer1` gets a zero gradient.
        The parameters of `layer2` are between the loss and `hidden`; their gradients were
        computed from the gradient arriving from the loss, not from what leaves `hidden`, so they
        are unchanged (non-zero).

        (B) Zeroing after backward only touches the stored `.grad` of `layer2`'s parameters:
        they become zero, while `layer1`'s parameters keep the (non-zero) gradients that were
        already computed, because the full gradient had flowed through `hidden` before.

        So a hook acts on the gradient in flight: what it returns is what the rest of the
        backward pass (everything before that tensor in the forward computation) uses. Changing
        `.grad` afterwards changes nothing upstream.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - `t.register_hook(fn)` calls `fn(grad)` when the gradient of `t` is known; returning a
          tensor replaces it. Hooks run in registration order; the handle's `remove()` (or a `with`
          block) unregisters them.
        - On a leaf, hooks decide what is added into `.grad`; on a non-leaf, what flows on to its
          inputs.
        - Hooks can clip gradients in flight, and record them to find where a network's gradient
          vanishes.
        - `retain_grad()` is a hook that stores the gradient in `.grad`, after the other hooks.
        - `register_post_accumulate_grad_hook(fn)` runs `fn(leaf)` after `.grad` was updated.
        - `viz.trace_backward` and `viz.BackwardPlayer` show the backward pass step by step,
          hooks included.

        Before you hand in: *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
