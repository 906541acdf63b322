# ruff: noqa: N999 - the module is named after its notebook, 01_graph
"""Assignment 01: tensors, requires_grad, grad_fn, next_functions, AccumulateGrad, drawing the graph."""

from . import answer, code, md, mistake, question, setup, tests, written

# The code of exercise 1, shown to the student and re-run by the hidden tests.
EX1_CODE = """
p = torch.tensor([1.0, 2.0])
q = torch.tensor([3.0, 4.0], requires_grad=True)
k = torch.tensor([2, 5])
r = p * k
s = (q * 0).sum()
t = p + r
w = (q > 3).float() * p
z = r + q
"""

EX2_CODE = """
m = torch.tensor([1.0, 2.0], requires_grad=True)
n = torch.tensor([3.0, 4.0])
c = torch.tensor(0.5, requires_grad=True)
out = (m * n).exp().sum() + c * c
"""


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


# The same code as functions, for the hidden tests (their variables stay local).
EX1_RUN = "\n\ndef _ex1_run():\n" + _indent(EX1_CODE) + '\n    return {"r": r, "s": s, "t": t, "w": w, "z": z}\n\n'
EX2_RUN = "\n\ndef _ex2_run():\n" + _indent(EX2_CODE) + "\n    return out\n\n"

CELLS = [
    md(
        "intro",
        """
        # Assignment 01 — The graph behind a result

        Every time you compute with tensors that need gradients, autograd quietly writes down *how*
        each result was made. `backward()` later walks that record from the result back to the
        tensors you asked gradients for. This notebook opens the record and looks inside.

        You will learn to

        - say which tensors autograd tracks (`requires_grad`), and why only floating-point ones can be;
        - read `grad_fn` and `next_functions`, the links that `backward()` follows;
        - recognise `AccumulateGrad`, the node where every path to a parameter ends;
        - draw the recorded graph with `minigrad.viz`.

        **Time:** about 45 minutes.

        **How this notebook works.** Run the cells from top to bottom (Shift+Enter). An *Exercise*
        cell contains `raise NotImplementedError()`: replace that line with your answer. The cell
        after it tests your answer, and a failing test tells you what to look at. When your notebook
        is graded, more tests run that you cannot see here: they try your answer on other inputs,
        so solve the general problem, not just the examples shown. Before you hand in, use
        *Kernel → Restart Kernel and Run All Cells* to check that everything runs in order.

        We work with `minigrad`, a small autograd library that speaks PyTorch: after
        `import minigrad as torch`, the code below is ordinary PyTorch code, and (apart from the
        drawings) it runs unchanged with `import torch`.
        """,
    ),
    setup(),
    # ------------------------------------------------------------------ requires_grad
    md(
        "rg_intro",
        """
        ## 1. Asking for gradients: `requires_grad`

        A tensor is an array of numbers plus a little autograd bookkeeping. Its flag
        `requires_grad` means: *later I will want a derivative with respect to this tensor, so keep
        track of everything computed from it.* The flag is off by default, which suits data, labels
        and constants. Parameters you want to train get it switched on.
        """,
    ),
    code(
        "rg_default",
        """
        data = torch.tensor([0.5, -1.0, 2.0])
        weight = torch.tensor([1.5, 0.25, -0.5], requires_grad=True)
        print("data:  ", data.requires_grad)
        print("weight:", weight.requires_grad)
        """,
    ),
    md(
        "rg_later",
        """
        You can also switch the flag on after creating a tensor: call `requires_grad_()` (the
        trailing underscore marks methods that change the tensor itself; this one also returns it)
        or assign the attribute. A tensor that requires grad says so when printed.
        """,
    ),
    code(
        "rg_later_demo",
        """
        bias = torch.zeros(3)
        bias.requires_grad_()
        scale = torch.tensor(2.0)
        scale.requires_grad = True
        print(bias)
        print(scale)
        """,
    ),
    md(
        "float_rule",
        """
        ### Only floating-point tensors can require gradients

        A derivative asks how a result changes when an input moves by a tiny amount. An integer
        or boolean tensor cannot move by a tiny amount: it jumps from 3 to 4. So autograd refuses
        `requires_grad=True` for integer and boolean tensors, with a `RuntimeError`.

        Watch the literals: `torch.tensor([3, 1, 4])` holds `int64` numbers, while
        `torch.tensor([3.0, 1.0, 4.0])` holds `float32` ones.
        """,
    ),
    code(
        "float_rule_demo",
        """
        counts = torch.tensor([3, 1, 4])
        print(counts.dtype)
        try:
            counts.requires_grad_()
        except RuntimeError as err:
            print("RuntimeError:", err)

        print(counts.float().requires_grad_())  # convert first, then ask for gradients
        """,
    ),
    md(
        "propagation",
        """
        ### The flag spreads to results

        The result of an operation requires grad exactly when **at least one** of its inputs does.
        Only then does autograd record the operation; a computation on tensors that need no
        gradient leaves no trace at all. Integer tensors may still take part in a recorded
        computation: they just never ask for gradients themselves.
        """,
    ),
    code(
        "propagation_demo",
        """
        doubled = data * 2          # only data: nothing is recorded
        product = data * weight     # weight requires grad, so this is recorded
        total = product.sum() + scale
        mixed = weight * counts     # float32 times int64 gives float32
        print("doubled:", doubled.requires_grad)
        print("product:", product.requires_grad)
        print("total:  ", total.requires_grad)
        print("mixed:  ", mixed.requires_grad, mixed.dtype)
        """,
    ),
    md(
        "draw_first",
        """
        ### A first drawing

        `viz.draw(t)` draws the tensors that led to `t` and the operations between them, with
        arrows in the direction you computed. The colours answer the questions of this section:

        - **green**: a tensor you created that requires grad (a *leaf*; notebook 02 is about them);
        - **yellow**: a tensor made by a recorded operation;
        - **grey**: a tensor that needs no gradient;
        - **blue ellipses**: the recorded operations.

        Names come from your variables; tensors without a name show their shape.
        """,
    ),
    code("draw_first_demo", "viz.draw(total)"),
    md(
        "ex1_text",
        f"""
        ### Exercise 1 (3 points) — predict `requires_grad`

        Read this code **without running it** and predict, for each of `r`, `s`, `t`, `w` and `z`,
        whether it requires grad.

        ```python
        {_indent(EX1_CODE, "        ").strip()}
        ```

        Two hints: multiplying by zero is still an operation, and a comparison such as `q > 3`
        produces a boolean tensor. Assign `True` or `False` (Python booleans, not strings) to
        `requires_r`, `requires_s`, `requires_t`, `requires_w` and `requires_z`. The visible test
        only checks that you assigned booleans; the graded test checks the values.
        """,
    ),
    answer(
        "ex1_answer",
        """
        # Assign True or False to requires_r, requires_s, requires_t, requires_w and requires_z.
        ### BEGIN SOLUTION
        requires_r = False
        requires_s = True
        requires_t = False
        requires_w = False
        requires_z = True
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                """
                requires_r = False
                requires_s = False
                requires_t = False
                requires_w = True
                requires_z = True
                """,
                ["ex1_hidden"],
            )
        ],
    ),
    tests(
        "ex1_visible",
        """
        for _name in ["requires_r", "requires_s", "requires_t", "requires_w", "requires_z"]:
            check(_name in globals(), f"{_name} is not defined: assign True or False to it in the cell above")
            _value = globals()[_name]
            check(
                type(_value) is bool,
                f"{_name} should be True or False (a Python bool), not {_value!r} of type {type(_value).__name__}",
            )
        print("All five predictions are booleans. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _predicted = {"r": requires_r, "s": requires_s, "t": requires_t, "w": requires_w, "z": requires_z}
        ### BEGIN HIDDEN TESTS
        """,
        EX1_RUN,
        """
        for _key, _tensor in _ex1_run().items():
            check(
                _predicted[_key] is _tensor.requires_grad,
                f"requires_{_key} is wrong: {_key}.requires_grad is {_tensor.requires_grad}",
            )
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ grad_fn
    md(
        "grad_fn_intro",
        """
        ## 2. `grad_fn`: which operation made this tensor?

        A tensor made by a recorded operation keeps a reference to that operation's *backward
        node* in its attribute `grad_fn`. The node knows the derivative of the operation: given the
        gradient of the result, it computes the gradients of the operation's inputs. Its name says
        which operation it belongs to: `MulBackward0` for a multiplication, `SumBackward0` for a
        sum, and so on (the digit tells apart variants of one operation).

        A tensor you created yourself was made by no operation: its `grad_fn` is `None`. So is the
        `grad_fn` of anything computed without recording.
        """,
    ),
    code(
        "grad_fn_demo",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        s = y.sum()
        for name, tensor in [("x", x), ("y", y), ("s", s), ("doubled", doubled)]:
            print(f"{name:>8}: {tensor.grad_fn}")
        """,
    ),
    code(
        "grad_fn_print",
        """
        print(s)                 # the printout names the grad_fn too
        print(s.grad_fn.name())  # the name on its own
        """,
    ),
    md(
        "grad_fn_draw_text",
        """
        In the tensor view, each blue ellipse is the `grad_fn` of the tensor it points to:
        `MulBackward0` made `y`, `SumBackward0` made `s`. `x` has none: it is where the graph begins.
        """,
    ),
    code("grad_fn_draw", "viz.draw(s)"),
    # ------------------------------------------------------------------ next_functions
    md(
        "next_intro",
        """
        ## 3. `next_functions`: the links between nodes

        A backward node also knows where to send the gradients it computes. Its attribute
        `next_functions` is a tuple with one pair `(node, index)` per input of the operation, in
        the order of the inputs:

        - `node` is the `grad_fn` of that input, if the input was made by a recorded operation;
        - it is an `AccumulateGrad` node if the input is a tensor you created that requires grad
          (section 4 is about this node);
        - it is `None` if the input needs no gradient: backward sends nothing there.

        `index` says which output of `node` the input was. It is 0 unless an operation returns
        several tensors, so you can mostly ignore it.
        """,
    ),
    code(
        "next_demo",
        """
        u = torch.tensor(2.0, requires_grad=True)
        v = torch.tensor(-1.0, requires_grad=True)
        offset = torch.tensor(10.0)
        prod = u * v
        result = prod + offset
        print("result:", result.grad_fn.next_functions)
        print("prod:  ", prod.grad_fn.next_functions)
        """,
    ),
    md(
        "next_read",
        """
        Reading the output: `result` was made by an addition of `prod` and `offset`. The first
        pair holds `prod`'s `grad_fn` (a `MulBackward0`); the second is `None`, because `offset`
        needs no gradient. `prod` was made by multiplying `u` and `v`, two tensors you created
        with `requires_grad=True`, so both of its pairs hold `AccumulateGrad` nodes.

        `viz.draw_backward` draws exactly these objects: blue boxes for `grad_fn` nodes, green
        boxes for `AccumulateGrad`, and arrows that follow `next_functions`, the direction in
        which gradients travel. `offset` has no box: backward never visits it.
        """,
    ),
    code("next_draw", "viz.draw_backward(result)"),
    md(
        "next_compare",
        """
        For comparison, the tensor view of the same computation: here `offset` appears (grey),
        and the arrows point forward, from inputs to results.
        """,
    ),
    code("next_draw_tensors", "viz.draw(result)"),
    md(
        "ex2_text",
        f"""
        ### Exercise 2 (3 points) — predict the links

        Without running it, work out the graph this code records:

        ```python
        {_indent(EX2_CODE, "        ").strip()}
        ```

        Then set

        - `root_name`: the name (a string such as `"MulBackward0"`) of `out.grad_fn`;
        - `root_next`: a tuple with one entry per pair in `out.grad_fn.next_functions`, in order:
          the node's name as a string, or `None` where the pair holds `None`;
        - `accumulate_count`: how many **different** `AccumulateGrad` nodes the whole graph has (an int);
        - `same_node`: `True` or `False`: are the two entries of the `next_functions` of the
          `grad_fn` of `c * c` the very same object?
        """,
    ),
    answer(
        "ex2_answer",
        """
        # Set root_name, root_next, accumulate_count and same_node.
        ### BEGIN SOLUTION
        root_name = "AddBackward0"
        root_next = ("SumBackward0", "MulBackward0")
        accumulate_count = 2
        same_node = True
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                """
                root_name = "AddBackward0"
                root_next = ("ExpBackward0", "MulBackward0")
                accumulate_count = 3
                same_node = False
                """,
                ["ex2_hidden"],
            )
        ],
    ),
    tests(
        "ex2_visible",
        """
        for _name in ["root_name", "root_next", "accumulate_count", "same_node"]:
            check(_name in globals(), f"{_name} is not defined: set it in the cell above")
        check(type(root_name) is str, f"root_name should be a string such as 'MulBackward0', got {root_name!r}")
        check(
            type(root_next) in (tuple, list) and all(e is None or type(e) is str for e in root_next),
            f"root_next should be a tuple of names (strings) and None, one entry per input, got {root_next!r}",
        )
        check(type(accumulate_count) is int, f"accumulate_count should be an int, got {accumulate_count!r}")
        check(type(same_node) is bool, f"same_node should be True or False, got {same_node!r}")
        print("The answers have the right form. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _answers = (root_name, root_next, accumulate_count, same_node)
        ### BEGIN HIDDEN TESTS
        """,
        EX2_RUN,
        """
        _out = _ex2_run()
        _root = _out.grad_fn
        check(root_name == _root.name(), "root_name is wrong")
        _expected_next = tuple(None if n is None else n.name() for n, _ in _root.next_functions)
        check(tuple(root_next) == _expected_next, "root_next is wrong")
        _square = _root.next_functions[1][0]
        check(same_node is (_square.next_functions[0][0] is _square.next_functions[1][0]), "same_node is wrong")
        _seen, _stack = {id(_root): _root}, [_root]
        while _stack:
            for _n, _ in _stack.pop().next_functions:
                if _n is not None and id(_n) not in _seen:
                    _seen[id(_n)] = _n
                    _stack.append(_n)
        _accumulators = [n for n in _seen.values() if type(n).__name__ == "AccumulateGrad"]
        check(accumulate_count == len(_accumulators), "accumulate_count is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — walk the graph

        `backward()` has to visit every node it can reach from the result by following
        `next_functions`. Write `graph_nodes(t)` that returns a **list** of all the nodes reachable
        from `t.grad_fn`, including `t.grad_fn` itself:

        - every node exactly once, even when it can be reached along several paths;
        - no `None` entries;
        - in any order;
        - an empty list when `t.grad_fn` is `None`.

        Graphs can be long, and their nodes shared. Your function must handle a chain of 5,000
        operations, deeper than Python lets functions call themselves (in a notebook its recursion
        limit is 3,000), and graphs where each node uses the two before it, which have millions of
        paths for a few dozen nodes: a walk that follows every path never ends. So use a loop with
        a list of nodes still to visit, and a set of the nodes already seen, so that each node is
        visited once. Nodes can be put in sets, and compared with `is`.
        """,
    ),
    answer(
        "ex3_answer",
        """
        def graph_nodes(t):
            \"\"\"Every autograd node reachable from t.grad_fn (itself included), each once.\"\"\"
            ### BEGIN SOLUTION
            if t.grad_fn is None:
                return []
            found = [t.grad_fn]
            seen = {t.grad_fn}
            to_visit = [t.grad_fn]
            while to_visit:
                node = to_visit.pop()
                for next_node, _ in node.next_functions:
                    if next_node is not None and next_node not in seen:
                        seen.add(next_node)
                        found.append(next_node)
                        to_visit.append(next_node)
            return found
            ### END SOLUTION
        """,
        alternatives=[
            """
            from collections import deque


            def graph_nodes(t):
                order = {}
                queue = deque([t.grad_fn] if t.grad_fn is not None else [])
                while queue:
                    node = queue.popleft()
                    if id(node) in order:
                        continue
                    order[id(node)] = node
                    queue.extend(n for n, _ in node.next_functions if n is not None)
                return list(order.values())
            """
        ],
        mistakes=[
            # Recursion: fine on the small graphs shown, too deep for the long chain.
            mistake(
                """
                def graph_nodes(t):
                    found = []

                    def visit(node):
                        if node is None or any(node is f for f in found):
                            return
                        found.append(node)
                        for n, _ in node.next_functions:
                            visit(n)

                    visit(t.grad_fn)
                    return found
                """,
                ["ex3_hidden"],
            ),
            # No set of visited nodes, duplicates dropped only from the result: right on every
            # graph it finishes, but it follows every path, and a ladder has about 10**8.
            mistake(
                """
                def graph_nodes(t):
                    result = []
                    stack = [t.grad_fn] if t.grad_fn is not None else []
                    while stack:
                        node = stack.pop()
                        if not any(node is r for r in result):
                            result.append(node)
                        for n, _ in node.next_functions:
                            if n is not None:
                                stack.append(n)
                    return result
                """,
                ["ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        """
        _u = torch.tensor(2.0, requires_grad=True)
        _v = torch.tensor(-1.0, requires_grad=True)
        _result = _u * _v + torch.tensor(10.0)
        _nodes = graph_nodes(_result)
        check(type(_nodes) is list, f"graph_nodes should return a list, got {type(_nodes).__name__}")
        check(all(n is not None for n in _nodes), "the list should not contain None: skip pairs whose node is None")
        check(
            len({id(n) for n in _nodes}) == len(_nodes),
            "a node appears twice in your list: keep a set of the nodes you have already seen",
        )
        _mul = _result.grad_fn.next_functions[0][0]
        _expected = [_result.grad_fn, _mul, _mul.next_functions[0][0], _mul.next_functions[1][0]]
        _names = sorted(n.name() for n in _nodes)
        check(
            {id(n) for n in _nodes} == {id(n) for n in _expected},
            f"for u * v + 10 expected the nodes AddBackward0, MulBackward0 and two AccumulateGrad, got {_names}",
        )
        check(graph_nodes(_u) == [], "a tensor without grad_fn (here a leaf) should give an empty list")
        print("graph_nodes passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        """
        # More graphs (hidden tests): shared nodes, constants, bigger graphs, millions of paths, a 5,000-step chain.
        _smoke = graph_nodes(torch.tensor(1.0, requires_grad=True) * 2)
        ### BEGIN HIDDEN TESTS
        from coursetools.engine_checks import within


        def _reference(t):
            seen, stack = {}, [t.grad_fn] if t.grad_fn is not None else []
            while stack:
                node = stack.pop()
                if id(node) not in seen:
                    seen[id(node)] = node
                    stack.extend(n for n, _ in node.next_functions if n is not None)
            return seen


        def _same(t, what):
            got = graph_nodes(t)
            check(type(got) is list, f"{what}: graph_nodes should return a list")
            check(len({id(n) for n in got}) == len(got), f"{what}: a node appears twice")
            check({id(n) for n in got} == set(_reference(t)), f"{what}: wrong set of nodes")


        _x = torch.tensor([1.0, 2.0], requires_grad=True)
        _h = _x * 2
        _same(_h * _h + _h, "a tensor used three times")
        _same((_x * torch.tensor([3.0, 4.0])).exp().sum(), "a constant input")
        _square = _x * _x
        _same(_square, "x * x")
        check(len(graph_nodes(_square)) == 2, "x * x has two nodes: MulBackward0 and one AccumulateGrad")
        _same(_x.sum(), "a sum of a leaf")
        _same(torch.tensor(3.0) * 2, "no recorded operation")
        torch.manual_seed(7)
        _params = [torch.randn(3, requires_grad=True) for _ in range(4)]
        _acc = _params[0]
        for _i in range(40):
            _acc = _acc * _params[_i % 4].tanh() + _params[(_i * 3) % 4]
        _same(_acc.sum(), "a random-looking graph")
        # A ladder: each node uses the two before it, 40 levels, about 10**8 paths from the top.
        _low = torch.tensor(1.0, requires_grad=True)
        _high = _low * 1.0
        for _ in range(40):
            _low, _high = _high, _low + _high
        _nodes = within(
            10,
            lambda: graph_nodes(_high),
            "a ladder of 40 levels (each node uses the two before it) has about 10**8 paths: "
            "your walk follows every path. Keep a set of the nodes already seen and visit each once",
        )
        check({id(n) for n in _nodes} == set(_reference(_high)), "a ladder: wrong set of nodes")
        check(len({id(n) for n in _nodes}) == len(_nodes), "a ladder: a node appears twice")
        _chain = torch.tensor(1.0, requires_grad=True)
        _y = _chain
        for _ in range(5000):
            _y = _y * 1.0001
        try:
            _deep = graph_nodes(_y)
        except RecursionError:
            _deep = None  # a recursive walk: checked below, without a traceback of 1,000 lines
        check(_deep is not None, "a chain of 5,000 operations is too deep for recursion: use a loop")
        check(len(_deep) == 5001, "a chain of 5,000 multiplications has 5,001 nodes")
        del _y, _deep
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    # ------------------------------------------------------------------ AccumulateGrad
    md(
        "acc_intro",
        """
        ## 4. `AccumulateGrad`: where the paths end

        Every path through the graph ends either at `None` (an input that needs no gradient) or at
        an `AccumulateGrad` node. There is one such node for each tensor that you created with
        `requires_grad=True` and used in the computation; its attribute `variable` is that tensor.
        When backward reaches it, the node **adds** the gradient into the tensor's `.grad`.
        It has no `next_functions` of its own: the walk stops there.
        """,
    ),
    code(
        "acc_demo",
        """
        acc_u = prod.grad_fn.next_functions[0][0]
        print(type(acc_u).__name__, acc_u.variable is u)
        print(acc_u.next_functions)
        """,
    ),
    code(
        "acc_backward",
        """
        result.backward()
        print("u.grad:", u.grad)  # d(u*v + offset)/du = v
        print("v.grad:", v.grad)  # ... /dv = u
        """,
    ),
    md(
        "acc_draw_text",
        """
        Drawn again after `backward()`, the green boxes show the gradients they stored. The dashed
        border of `MulBackward0` says that its saved values (the `u` and `v` it needed for the
        derivative) were freed by `backward()`; notebook 03 explains why.
        """,
    ),
    code("acc_draw", "viz.draw_backward(result)"),
    md(
        "acc_shared",
        """
        A tensor used several times still has **one** `AccumulateGrad` node. Every use sends its
        share of the gradient there, and the shares add up. For `g * g + g` the derivative is
        `2g + 1`:
        """,
    ),
    code(
        "acc_shared_demo",
        """
        g = torch.tensor(3.0, requires_grad=True)
        poly = g * g + g
        from_add = poly.grad_fn.next_functions[1][0]
        from_mul = poly.grad_fn.next_functions[0][0].next_functions
        print(from_add is from_mul[0][0] is from_mul[1][0])
        poly.backward()
        print(g.grad)
        """,
    ),
    code("acc_shared_draw", "viz.draw_backward(poly)"),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — which tensors will get a gradient?

        Write `find_leaves(t)`: the tensors, other than `t` itself, whose `.grad` a call of
        `t.backward()` would fill, found **without** running backward. They are the `variable`s of
        the `AccumulateGrad` nodes reachable from `t.grad_fn`. Return a list with each such tensor
        once, in any order (an empty list when `t.grad_fn` is `None`: a leaf has no graph behind
        it). Do not change anything: no `backward()`, no `.grad`.

        Two tips. Test whether a node is an accumulator with
        `type(node).__name__ == "AccumulateGrad"`, which works in PyTorch too (minigrad also has
        the class itself, `torch.autograd.graph.AccumulateGrad`, for `isinstance`; PyTorch does
        not export it). And compare tensors with `is`: `==` compares their values element by
        element. The requirements of exercise 3 apply: long chains, and each node visited once.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def find_leaves(t):
            \"\"\"The tensors whose .grad t.backward() would fill, each once.\"\"\"
            ### BEGIN SOLUTION
            leaves = []
            seen = set()
            to_visit = [t.grad_fn] if t.grad_fn is not None else []
            while to_visit:
                node = to_visit.pop()
                if node in seen:
                    continue
                seen.add(node)
                if type(node).__name__ == "AccumulateGrad":
                    leaves.append(node.variable)
                to_visit.extend(n for n, _ in node.next_functions if n is not None)
            return leaves
            ### END SOLUTION
        """,
        alternatives=[
            """
            def find_leaves(t):
                leaves, seen, stack = [], set(), [t.grad_fn]
                while stack:
                    node = stack.pop()
                    if node is None or node in seen:
                        continue
                    seen.add(node)
                    if isinstance(node, torch.autograd.graph.AccumulateGrad):
                        if not any(leaf is node.variable for leaf in leaves):
                            leaves.append(node.variable)
                    stack.extend(n for n, _ in node.next_functions)
                return leaves
            """,
            """
            def find_leaves(t):
                found, seen, frontier = {}, set(), [t.grad_fn]
                while frontier:
                    node = frontier.pop()
                    if node is None or id(node) in seen:
                        continue
                    seen.add(id(node))
                    if type(node).__name__ == "AccumulateGrad":
                        found[id(node.variable)] = node.variable
                    frontier += [n for n, _ in node.next_functions]
                return list(found.values())
            """,
            # The walk of exercise 3 reused.
            """
            def find_leaves(t):
                return [n.variable for n in graph_nodes(t) if type(n).__name__ == "AccumulateGrad"]
            """,
        ],
        mistakes=[
            # No set of visited nodes: a leaf reached along two paths is listed twice.
            mistake(
                """
                def find_leaves(t):
                    leaves, stack = [], [t.grad_fn] if t.grad_fn is not None else []
                    while stack:
                        node = stack.pop()
                        if type(node).__name__ == "AccumulateGrad":
                            leaves.append(node.variable)
                        stack.extend(n for n, _ in node.next_functions if n is not None)
                    return leaves
                """,
                ["ex4_hidden"],
            ),
            # Deduplicated by value (==), not identity: two leaves with equal values become one.
            mistake(
                """
                def find_leaves(t):
                    out, seen, stack = [], set(), [t.grad_fn] if t.grad_fn is not None else []
                    while stack:
                        node = stack.pop()
                        if node in seen:
                            continue
                        seen.add(node)
                        if type(node).__name__ == "AccumulateGrad":
                            v = node.variable
                            if not any(o.shape == v.shape and bool((o == v).all()) for o in out):
                                out.append(v)
                        stack.extend(n for n, _ in node.next_functions if n is not None)
                    return out
                """,
                ["ex4_hidden"],
            ),
            # No set of visited nodes, each leaf kept once: it follows every path of a ladder.
            mistake(
                """
                def find_leaves(t):
                    leaves = []
                    stack = [t.grad_fn] if t.grad_fn is not None else []
                    while stack:
                        node = stack.pop()
                        if type(node).__name__ == "AccumulateGrad":
                            if all(node.variable is not leaf for leaf in leaves):
                                leaves.append(node.variable)
                        else:
                            stack.extend(n for n, _ in node.next_functions if n is not None)
                    return leaves
                """,
                ["ex4_hidden"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        """
        _u = torch.tensor(2.0, requires_grad=True)
        _v = torch.tensor(-1.0, requires_grad=True)
        _result = _u * _v + torch.tensor(10.0)
        _leaves = find_leaves(_result)
        check(type(_leaves) is list, f"find_leaves should return a list, got {type(_leaves).__name__}")
        check(
            all(isinstance(t, torch.Tensor) for t in _leaves),
            "find_leaves should return the tensors themselves (node.variable), not the AccumulateGrad nodes",
        )
        check(
            len(_leaves) == 2 and any(t is _u for t in _leaves) and any(t is _v for t in _leaves),
            f"for u * v + 10 expected the two tensors u and v, got {len(_leaves)} tensors: {_leaves}",
        )
        check(_u.grad is None and _v.grad is None, "find_leaves must not run backward: u.grad and v.grad changed")
        check(find_leaves(_u) == [], "a tensor without grad_fn should give an empty list")
        print("find_leaves passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        # More graphs (hidden tests): deeper graphs, shared leaves, constants, millions of paths, a 5,000-step chain.
        _smoke = find_leaves(torch.tensor(1.0, requires_grad=True) * 2)
        ### BEGIN HIDDEN TESTS
        from coursetools.engine_checks import within


        def _ids(tensors):
            check(type(tensors) is list, "find_leaves should return a list")
            ids = [id(t) for t in tensors]
            check(len(set(ids)) == len(ids), "a tensor appears twice")
            return set(ids)


        torch.manual_seed(3)
        _a = torch.randn(3, requires_grad=True)
        _b = torch.randn(3, requires_grad=True)
        _c = torch.randn(3, requires_grad=True)
        _data = torch.randn(3)
        _out = ((_a * _data).tanh() * _b + _a).sum() * (_c * _c).sum()
        check(_ids(find_leaves(_out)) == {id(_a), id(_b), id(_c)}, "a, b and c are the leaves of a deeper graph")
        check(_a.grad is None and _b.grad is None and _c.grad is None, "find_leaves must not fill .grad")
        _out.backward()  # the graph must still be usable
        check(_a.grad is not None, "after find_leaves, backward must still work")
        _only = (_data * 3 + _b).exp().sum()
        check(_ids(find_leaves(_only)) == {id(_b)}, "constants are not leaves that get a gradient")
        _twin1 = torch.tensor([1.0, 2.0], requires_grad=True)
        _twin2 = torch.tensor([1.0, 2.0], requires_grad=True)
        check(
            _ids(find_leaves((_twin1 * _twin2 + _twin1).sum())) == {id(_twin1), id(_twin2)},
            "two different leaves that hold equal values are two leaves: compare tensors with `is`, not `==`",
        )
        _low = _first = torch.tensor(1.0, requires_grad=True)
        _high = _low * 1.0
        for _i in range(40):  # each node uses the two before it: about 10**8 paths
            _low, _high = _high, _low + _high
        _found = within(
            10,
            lambda: find_leaves(_high),
            "a ladder of 40 levels (each node uses the two before it) has about 10**8 paths: "
            "your walk follows every path. Keep a set of the nodes already seen and visit each once",
        )
        check(_ids(_found) == {id(_first)}, "a ladder of 40 levels has one leaf")
        _chain = torch.tensor(1.0, requires_grad=True)
        _y = _chain
        for _i in range(5000):
            _y = _y * 1.0001
        try:
            _found = find_leaves(_y)
        except RecursionError:
            _found = None
        check(_found is not None, "a chain of 5,000 operations is too deep for recursion: use a loop")
        check(_ids(_found) == {id(_chain)}, "a chain of 5,000 operations has one leaf")
        del _y, _found
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ drawing
    md(
        "draw_intro",
        """
        ## 5. Drawing bigger graphs

        The two drawings show the same record from two sides:

        | | `viz.draw(t)` — tensor view | `viz.draw_backward(t)` — autograd view |
        |---|---|---|
        | boxes | tensors (and operations between them) | backward nodes (`grad_fn`, `AccumulateGrad`) |
        | arrows | forward: inputs → result | backward: where gradients go |
        | constants | grey boxes | absent |

        Useful options of both: `rankdir="LR"` lays the graph out from left to right,
        `show_saved=True` lists what each operation saved for its derivative,
        `show_values=False` shows shapes instead of values, and `names={"loss": t}` names tensors
        yourself. Here is a small layer: `hidden = tanh(w1 @ inputs + b1)`, then a score.
        """,
    ),
    code(
        "draw_layer",
        """
        torch.manual_seed(0)
        inputs = torch.randn(4)
        w1 = torch.randn(3, 4, requires_grad=True)
        b1 = torch.zeros(3, requires_grad=True)
        w2 = torch.randn(3, requires_grad=True)
        hidden = (w1 @ inputs + b1).tanh()
        score = (w2 * hidden).sum()
        viz.draw(score, rankdir="LR")
        """,
    ),
    code("draw_layer_backward", "viz.draw_backward(score, show_saved=True)"),
    md(
        "draw_read",
        """
        In the autograd view, the orange boxes are values the nodes saved for their derivatives:
        `MvBackward0` (the matrix-vector product) keeps `inputs`, because the gradient of
        `w1 @ inputs` with respect to `w1` is built from `inputs`. `TanhBackward0` keeps its
        result, since the derivative of tanh is `1 - tanh²`.
        """,
    ),
    question(
        "ex5_question",
        """
        ### Exercise 5 (3 points, graded by hand) — two views of one graph

        Look at the two drawings of `score` above and answer in a few sentences:

        1. In the autograd view, `inputs` appears only as a saved value of `MvBackward0`, with no
           box of its own on the path of the gradients. Why does backward need the *values* of
           `inputs` but no *node* for it? What stands for `inputs` in
           `MvBackward0.next_functions`?
        2. Which node of the autograd view corresponds to the yellow `hidden` box of the tensor
           view, and which node corresponds to the green `w1` box?
        """,
    ),
    written(
        "ex5_answer",
        """
        1. Backward computes gradients only for tensors that require grad. `inputs` does not, so
           no gradient has to be delivered to it and the walk never needs to go there: its entry
           in `MvBackward0.next_functions` is `(None, 0)`. Its values are still needed, because
           the derivative of `w1 @ inputs` with respect to `w1` is built from them (it is the
           outer product of the incoming gradient with `inputs`), so `MvBackward0` saved them.
        2. `hidden` was made by `tanh`, so its node is `TanhBackward0` (the node its `grad_fn`
           points to). `w1` is a tensor created with `requires_grad=True`, so it is represented by
           the `AccumulateGrad` node whose `variable` is `w1`; that node stores the gradient in
           `w1.grad`.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - `requires_grad` marks tensors whose gradients you want; only floating-point tensors can
          have it, and any result with at least one such input has it too.
        - Recorded results point to the backward node of the operation that made them, `grad_fn`.
        - `next_functions` links each node to the nodes of its inputs: another `grad_fn`, an
          `AccumulateGrad` for a created tensor that requires grad, or `None`.
        - `AccumulateGrad` ends every path to such a tensor, and adds the gradient into its `.grad`.
        - `viz.draw` shows tensors and the forward computation; `viz.draw_backward` shows the graph
          that `backward()` walks.

        Next, notebook 02 asks which tensors count as *leaves*, and why only they get a `.grad`.
        Before you hand in: *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
